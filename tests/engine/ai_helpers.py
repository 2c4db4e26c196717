"""Shared helpers of the AI tests: random positions and an exhaustive solver to compare with."""

from __future__ import annotations

import random

import pytest

from engine.ai.common import Searcher, SearchLimits
from engine.core import Position
from engine.games.ayu import AyuPosition
from engine.registry import game_names, new_game

# One board per game (the smallest shipped size keeps the tests fast).
TEST_SIZES = {"ayu": 9, "bug": 3, "ahayuta": 8}

# Bug 4 with 20 empty cells: near the end by Bug's policy, and no prover settles it in a
# few seconds.
UNSETTLED_BUG_4 = "bug 4 bbww/1b2b/w5/1w4w/bw2b1/wbb1b/1b2 b"


def registered_games() -> list[tuple[str, int]]:
    """Every registered game with a test size (games added later get their default)."""
    out = []
    for name in game_names():
        out.append((name, TEST_SIZES.get(name, new_game(name).size)))
    return out


def random_position(name: str, size: int, plies: int, rng: random.Random) -> Position:
    """A position `plies` random moves in (fewer if the game ends), not over if possible."""
    position = new_game(name, size).start()
    for _ in range(plies):
        moves = position.legal_moves()
        if not moves:
            break
        move = moves[rng.randrange(len(moves))]
        position.push(move)
        if position.outcome() is not None:
            position.pop()
            break
    return position


def random_ayu_positions(size: int, count: int, seed: int) -> list[AyuPosition]:
    """`count` Ayu positions a few random moves to a few dozen in, none of them over."""
    rng = random.Random(seed)
    found: list[AyuPosition] = []
    while len(found) < count:
        position = random_position("ayu", size, rng.randrange(2, 4 * size), rng)
        if position.outcome() is None:
            assert isinstance(position, AyuPosition)
            found.append(position)
    return found


def settled_bug_positions(count: int, seed: str, first_ply: int = 10) -> list[Position]:
    """Bug 3 positions from random games (`first_ply` to 15 plies in) that plain minimax
    settles within 4 plies."""
    rng = random.Random(seed)
    found: list[Position] = []
    while len(found) < count:
        position = random_position("bug", 3, rng.randrange(first_ply, 16), rng)
        if position.outcome() is None and solve(position, 4) is not None:
            found.append(position)
    return found


def solve(position: Position, depth: int) -> tuple[int, int] | None:
    """Exact (result, plies) for the side to move by plain minimax, or None if deeper.

    result is +1 win, 0 draw, -1 loss; plies is the length of the game under best play
    (quickest win, slowest loss).
    """
    outcome = position.outcome()
    if outcome is not None:
        if outcome.winner is None:
            return 0, 0
        return (1 if outcome.winner == position.turn_name else -1), 0
    if depth == 0:
        return None
    best: tuple[int, int] | None = None
    unknown = False
    for move in position.legal_moves():
        position.push(move)
        found = solve(position, depth - 1)
        position.pop()
        if found is None:
            unknown = True
            continue
        mine = (-found[0], found[1] + 1)
        if best is None or _better(mine, best):
            best = mine
    if best is not None and best[0] == 1:
        return best
    return None if unknown else best


def _better(a: tuple[int, int], b: tuple[int, int]) -> bool:
    if a[0] != b[0]:
        return a[0] > b[0]
    if a[0] == 1:
        return a[1] < b[1]
    if a[0] == -1:
        return a[1] > b[1]
    return a[1] < b[1]


def assert_root_values_exact(
    wide: Searcher, plain: Searcher, position: Position, tolerance: float | None = None
) -> None:
    """Every candidate of a depth-2 search with a wide root margin (`wide`) has the value
    a depth-1 search of its reply position gives (`plain`): exact, not a bound."""
    result = wide.search(position, [], SearchLimits(depth=2))
    assert len(result.candidates) >= 2
    for candidate in result.candidates:
        child = position.copy()
        child.push(candidate.move)
        reply = plain.search(child, [], SearchLimits(depth=1))
        assert candidate.value == pytest.approx(1.0 - reply.value, abs=tolerance)
