"""Ahayuta knowledge: material, the Ahayuta's march, captures and the winning step.

Uses the Ahayuta position's public API (`men`, `aha`, `res`, `pend`, `clamps`, `geo`
with `goal`, and the move fields `kind`, `source`, `target`, `newborn`). Squares are bits
`rank * 8 + file`; Light moves up the ranks.

* The evaluation: warriors (board and reserve), an Ahayuta on the board worth more the
  nearer it stands to the enemy home row, an owed (pending) Ahayuta a little less.
* Ordering: the Ahayuta's winning step, then captures, then forward Ahayuta steps and
  hero moves (a warrior reaching the enemy row), then the rest.
* Playouts: always take a winning step, and prefer a capture among a few sampled moves.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence

from engine.ai.policies import GamePolicy
from engine.core import Game, Move, Position
from engine.games.ahayuta import AhayutaPosition
from engine.games.ahayuta_geometry import DEPLOY, PLACE, AhayutaMove

WARRIOR = 0.45
AHAYUTA = 1.2
AHAYUTA_STEP = 0.35  # per rank advanced
PENDING = 0.9
SAMPLES = 3


def _progress(side: int, square: int) -> int:
    """Ranks the Ahayuta of `side` has advanced from its own home row (0…7)."""
    rank = square // 8
    return rank if side == 0 else 7 - rank


def _side_score(position: AhayutaPosition, side: int) -> float:
    score = WARRIOR * (position.men[side].bit_count() + position.res[side])
    ahayuta = position.aha[side]
    if ahayuta:
        score += AHAYUTA + AHAYUTA_STEP * _progress(side, ahayuta.bit_length() - 1)
    elif position.pend[side]:
        score += PENDING
    return score


def _wins_now(position: AhayutaPosition, move: AhayutaMove) -> bool:
    side = position.turn
    return (
        move.source >= 0
        and bool(position.aha[side] >> move.source & 1)
        and bool(position.geo.goal[side] >> move.target & 1)
    )


def _captures(position: AhayutaPosition, move: AhayutaMove) -> int:
    side = position.turn
    if move.kind == DEPLOY or move.kind == PLACE or move.newborn < 0:
        return position.clamps(side, move.target)
    # A hero step: its arrival and its newborn Ahayuta can both capture.
    return position.clamps(side, move.target) | position.clamps(side, move.newborn)


class AhayutaPolicy(GamePolicy):
    name = "ahayuta-material"
    has_evaluator = True

    def evaluate(self, position: Position) -> float:
        assert isinstance(position, AhayutaPosition)
        me = position.turn
        score = _side_score(position, me) - _side_score(position, me ^ 1)
        return 1.0 / (1.0 + math.exp(-score))

    def order_moves(self, position: Position, moves: Sequence[Move]) -> list[Move]:
        assert isinstance(position, AhayutaPosition)
        ranked: list[tuple[int, int, Move]] = []
        side = position.turn
        for number, move in enumerate(moves):
            assert isinstance(move, AhayutaMove)
            if _wins_now(position, move):
                rank = 0
            else:
                taken = _captures(position, move)
                if taken & (position.aha[side ^ 1]):
                    rank = 0
                elif taken:
                    rank = 1 + (4 - min(3, taken.bit_count()))
                elif move.newborn >= 0:
                    rank = 6
                elif move.source >= 0 and position.aha[side] >> move.source & 1:
                    forward = _progress(side, move.target) > _progress(side, move.source)
                    rank = 6 if forward else 8
                else:
                    rank = 7
            ranked.append((rank, number, move))
        ranked.sort(key=lambda item: (item[0], item[1]))
        return [move for _, _, move in ranked]

    def playout_move(
        self, position: Position, moves: Sequence[Move], rng: random.Random
    ) -> Move:
        assert isinstance(position, AhayutaPosition)
        side = position.turn
        ahayuta = position.aha[side]
        if ahayuta:
            source = ahayuta.bit_length() - 1
            goal = position.geo.goal[side]
            for move in moves:
                assert isinstance(move, AhayutaMove)
                if move.source == source and goal >> move.target & 1:
                    return move
        move = moves[rng.randrange(len(moves))]
        for _ in range(SAMPLES):
            assert isinstance(move, AhayutaMove)
            if _captures(position, move):
                return move
            move = moves[rng.randrange(len(moves))]
        return move


def make_policy(game: Game) -> GamePolicy:
    return AhayutaPolicy()
