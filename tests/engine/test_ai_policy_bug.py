"""Bug policy knowledge the tree search relies on: one move per board a turn leaves."""

from __future__ import annotations

import random

import pytest

from engine.ai.common import SearchLimits
from engine.ai.levels import mcts_settings
from engine.ai.mcts import MctsSearcher
from engine.ai.policies import policy_for
from engine.games.bug import BugPosition
from tests.engine.ai_helpers import random_position


def _boards(position: BugPosition) -> dict[str, tuple[int, int]]:
    return {turn.to_text(): (own, enemy) for turn, own, enemy in position.turns()}


def _eating_positions(size: int, seed: int, count: int) -> list[BugPosition]:
    """Positions where two turns leave the same board."""
    rng = random.Random(seed)
    found: list[BugPosition] = []
    while len(found) < count:
        position = random_position("bug", size, rng.randrange(4, 30), rng)
        assert isinstance(position, BugPosition)
        if position.outcome() is not None:
            continue
        boards = _boards(position)
        if len(set(boards.values())) < len(boards):
            found.append(position)
    return found


@pytest.mark.parametrize("size", [3, 4])
def test_distinct_moves_keep_one_move_per_board_and_every_board(size: int) -> None:
    for position in _eating_positions(size, size, 8):
        boards = _boards(position)
        moves = position.legal_moves()
        kept = policy_for(position.game).distinct_moves(position, moves)
        kept_boards = [boards[move.to_text()] for move in kept]
        assert len(kept_boards) == len(set(kept_boards)) < len(moves)
        assert set(kept_boards) == set(boards.values())
        assert kept == [move for move in moves if move in kept]  # the order is kept


def test_the_tree_search_weighs_each_board_once() -> None:
    position = _eating_positions(3, 21, 1)[0]
    boards = _boards(position)
    result = MctsSearcher(mcts_settings("bug")).search(
        position, [], SearchLimits(iterations=400), rng=random.Random(1)
    )
    shown = [boards[candidate.move.to_text()] for candidate in result.candidates]
    assert len(shown) == len(set(shown))
    assert result.best_move is not None and result.best_move.to_text() in boards
