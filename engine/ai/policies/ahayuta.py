"""Ahayuta knowledge: material, the Ahayuta's march, captures and the winning step.

Uses the Ahayuta position's public API (`men`, `aha`, `res`, `pend`, `clamps`, `geo`
with `goal`, and the move fields `kind`, `source`, `target`, `newborn`). Squares are bits
`rank * 8 + file`; Light moves up the ranks.

* The evaluation: warriors (board and reserve), an Ahayuta on the board or owed
  (pending), and the race: how many turns each Ahayuta needs to reach the enemy home row
  over empty squares (`race_distance`). A side to move that can step onto the goal or
  clamp the enemy Ahayuta at once (`can_take_ahayuta`) is as good as won. The race term
  took alpha-beta from 6-4 (old evaluation: material and ranks advanced) to 16-4 against
  plain UCT at 0.2 s/move (20 games, seed 1); counting a warrior's walk to the enemy home
  row as part of the race (Path of the Hero) did worse (9-11), so a side without an
  Ahayuta counts as `NO_PATH`.
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
from engine.games.ahayuta_geometry import AHAYUTA_STEPS, DEPLOY, PLACE, AhayutaMove

WARRIOR = 0.45
AHAYUTA = 1.2
PENDING = 0.9
SAMPLES = 3
# The race: steps each Ahayuta needs to reach the enemy home row over empty squares.
NO_PATH = 12  # no Ahayuta yet, or its way is blocked
RACE = 0.5  # per step of lead in the race
RACE_CAP = 4.0  # leads beyond this many steps count the same
NEXT_STEP_WINS = 0.97  # value when the side to move can step onto the goal now


def _progress(side: int, square: int) -> int:
    """Ranks the Ahayuta of `side` has advanced from its own home row (0…7)."""
    rank = square // 8
    return rank if side == 0 else 7 - rank


def _side_score(position: AhayutaPosition, side: int) -> float:
    score = WARRIOR * (position.men[side].bit_count() + position.res[side])
    if position.aha[side]:
        score += AHAYUTA
    elif position.pend[side]:
        score += PENDING
    return score


_SHIFTS: dict[str, tuple[tuple[tuple[int, int], ...], ...]] = {}


def _shifts(option: str) -> tuple[tuple[tuple[int, int], ...], ...]:
    """Per side, the Ahayuta's steps as (bit shift, squares that may make that step)."""
    found = _SHIFTS.get(option)
    if found is None:
        per_side = []
        for forward in (1, -1):
            steps = []
            for df, dr in AHAYUTA_STEPS[option]:
                sources = sum(
                    1 << (rank * 8 + file)
                    for rank in range(8)
                    for file in range(8)
                    if 0 <= file + df < 8 and 0 <= rank + dr * forward < 8
                )
                steps.append((dr * forward * 8 + df, sources))
            per_side.append(tuple(steps))
        found = _SHIFTS[option] = tuple(per_side)
    return found


FILE_A = 0x0101010101010101
FILE_H = FILE_A << 7


def _warrior_targets(men: int, side: int) -> int:
    """Squares the warriors `men` of `side` could step to, occupancy ignored."""
    if side == 0:
        return (men & ~FILE_A) << 7 | (men & ~FILE_H) << 9
    return (men & ~FILE_A) >> 9 | (men & ~FILE_H) >> 7


def _spread(frontier: int, steps: tuple[tuple[int, int], ...]) -> int:
    grown = 0
    for shift, sources in steps:
        moved = frontier & sources
        grown |= moved << shift if shift > 0 else moved >> -shift
    return grown


def race_distance(position: AhayutaPosition, side: int) -> int:
    """Turns `side` needs to step its Ahayuta onto the enemy home row, pieces standing still.

    A pending Ahayuta counts its placement as one turn. `NO_PATH` if there is no Ahayuta
    yet or no path of empty squares.
    """
    geo = position.geo
    men, aha = position.men, position.aha
    empty = geo.board_mask & ~(men[0] | men[1] | aha[0] | aha[1])
    reach = aha[side]
    turns = 0
    if not reach:
        if not position.pend[side]:
            return NO_PATH
        reach = geo.home[side] & empty
        turns = 1
    goal = geo.goal[side]
    steps = _shifts(position.game.options["ahayuta_moves"])[side]
    frontier = reach
    while turns < NO_PATH - 1 and frontier:
        turns += 1
        grown = _spread(frontier, steps) & empty & ~reach
        if grown & goal:
            return turns
        frontier = grown & ~goal
        reach |= frontier
    return NO_PATH


def can_take_ahayuta(position: AhayutaPosition) -> bool:
    """Can the side to move clamp the enemy Ahayuta with one arrival now?"""
    side = position.turn
    target = position.aha[side ^ 1]
    if not target:
        return False
    geo = position.geo
    men, aha = position.men, position.aha
    empty = geo.board_mask & ~(men[0] | men[1] | aha[0] | aha[1])
    near = geo.adjacent[target.bit_length() - 1] & empty
    if not near:
        return False
    home = geo.home[side]
    if position.pend[side] and home & empty:
        arrivals = home
    else:
        arrivals = _warrior_targets(men[side], side)
        if position.res[side]:
            arrivals |= home
        if aha[side]:
            arrivals |= _spread(aha[side], _shifts(position.game.options["ahayuta_moves"])[side])
    near &= arrivals
    while near:
        low = near & -near
        near ^= low
        if position.clamps(side, low.bit_length() - 1) & target:
            return True
    return False


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
        mine = race_distance(position, me)
        if mine == 1 or can_take_ahayuta(position):
            return NEXT_STEP_WINS
        theirs = race_distance(position, me ^ 1)
        lead = max(-RACE_CAP, min(RACE_CAP, theirs - mine + 0.5))
        score = _side_score(position, me) - _side_score(position, me ^ 1) + RACE * lead
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
