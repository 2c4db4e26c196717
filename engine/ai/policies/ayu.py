"""Ayu knowledge: the side that unifies first wins, so count units and the gaps between them.

Uses the Ayu position's public bitboard API (`stones`, `units`, `distance_layers`, `geo`).
The evaluation is a race estimate: each player needs about one move per empty point on the
paths that join its units, so the cost of a colour is the sum over its units of each unit's
distance to its nearest friend, less the largest (a spanning tree has one edge fewer than
units). A unit walled in for good costs nothing, as the rules let a player with only such
units win.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence

from engine.ai.policies import GamePolicy
from engine.core import Game, Move, Position
from engine.games.ayu import AyuMove, AyuPosition

# Tuned by mini-matches (see engine/ai/levels.py notes): a cost lead of 1 move ≈ +0.2 logit.
COST_SCALE = 0.35
UNIT_WEIGHT = 0.5
TEMPO = 0.5


def _unit_of(bit: int, own: int, spread: Callable[[int], int]) -> int:
    region = bit
    while True:
        grown = (spread(region) & own) | region
        if grown == region:
            return region
        region = grown


class AyuPolicy(GamePolicy):
    name = "ayu-race"
    has_evaluator = True

    def race_cost(self, position: AyuPosition, colour: int) -> tuple[float, int]:
        """(moves needed to unify, number of units) for `colour`, as estimated above."""
        units = position.units(colour)
        if len(units) < 2:
            return 0.0, len(units)
        total = longest = 0
        for unit in units:
            found = position.distance_layers(colour, unit)
            if found is not None:
                total += found[0]
                longest = max(longest, found[0])
        # Every unit but one must close the gap to its nearest friend: the nearest-friend
        # distances minus the largest approximate the minimum spanning tree's weight.
        return float(total - longest), len(units)

    def evaluate(self, position: Position) -> float:
        assert isinstance(position, AyuPosition)
        me = position.turn
        my_cost, my_units = self.race_cost(position, me)
        their_cost, their_units = self.race_cost(position, me ^ 1)
        score = COST_SCALE * (their_cost - my_cost + TEMPO) + UNIT_WEIGHT * 0.1 * (
            their_units - my_units
        )
        return 1.0 / (1.0 + math.exp(-score))

    def _joins(self, position: AyuPosition, moves: Sequence[Move]) -> list[bool]:
        """For each move, whether it joins its unit to another friendly unit."""
        own = position.stones[position.turn]
        geo = position.geo
        units: dict[int, int] = {}
        out = []
        for move in moves:
            assert isinstance(move, AyuMove)
            if move.source < 0:
                out.append(False)
                continue
            unit = units.get(move.source)
            if unit is None:
                unit = _unit_of(1 << move.source, own, geo.spread)
                for index in range(unit.bit_length()):
                    if unit >> index & 1:
                        units[index] = unit
            out.append(bool(geo.neighbours[move.target] & own & ~unit))
        return out

    def order_moves(self, position: Position, moves: Sequence[Move]) -> list[Move]:
        assert isinstance(position, AyuPosition)
        joins = self._joins(position, moves)
        first = [m for m, j in zip(moves, joins, strict=True) if j]
        rest = [m for m, j in zip(moves, joins, strict=True) if not j]
        return first + rest

    def playout_move(
        self, position: Position, moves: Sequence[Move], rng: random.Random
    ) -> Move:
        # A few random draws, keeping the first join: cheap, and still varied.
        assert isinstance(position, AyuPosition)
        own = position.stones[position.turn]
        geo = position.geo
        move = moves[rng.randrange(len(moves))]
        for _ in range(3):
            assert isinstance(move, AyuMove)
            if move.source >= 0:
                unit = _unit_of(1 << move.source, own, geo.spread)
                if geo.neighbours[move.target] & own & ~unit:
                    return move
            move = moves[rng.randrange(len(moves))]
        return move


def make_policy(game: Game) -> GamePolicy:
    return AyuPolicy()
