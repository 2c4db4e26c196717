"""MCTS's implicit minimax backups: the tree's evaluations back up by minimax, and the
levels that should not have them do not."""

from __future__ import annotations

import random

import pytest

from engine.ai import levels
from engine.ai.common import SearchLimits, never_stop
from engine.ai.endgame import SolverFirstSearcher
from engine.ai.levels import LEVELS, MCTS_IMPLICIT_MINIMAX, custom_limits, level_limits
from engine.ai.mcts import WIN, MctsSettings, Node, _back_up_minimax, _proof_reward, _Run
from engine.ai.parallel import ParallelSearcher
from engine.ai.policies import policy_for
from tests.engine.ai_helpers import random_position, registered_games


def _walk(node: Node) -> list[Node]:
    found = [node]
    for child in node.children:
        found.extend(_walk(child))
    return found


@pytest.mark.parametrize(("name", "size"), registered_games())
def test_every_expanded_node_holds_the_minimax_of_its_children(name: str, size: int) -> None:
    position = random_position(name, size, 6, random.Random(5))
    run = _Run(MctsSettings(implicit_minimax=0.3), position, [], random.Random(2))
    run.go(SearchLimits(iterations=300), never_stop, None)
    checked = 0
    for node in _walk(run.root):
        if node is run.root or not node.children:
            continue
        best = max(
            _proof_reward(c.proof) if c.proof is not None else c.minimax for c in node.children
        )
        assert node.minimax == pytest.approx(1.0 - best)
        checked += 1
    assert checked > 0


def test_a_new_leaf_is_valued_by_the_policy() -> None:
    position = random_position("bug", 4, 6, random.Random(5))
    run = _Run(MctsSettings(implicit_minimax=0.3), position, [], random.Random(2))
    run.go(SearchLimits(iterations=1), never_stop, None)
    (leaf,) = run.root.children
    assert leaf.move is not None
    position.push(leaf.move)
    assert leaf.minimax == pytest.approx(1.0 - policy_for(position.game).evaluate(position))


def _tree_weight(searcher: object) -> float:
    searcher = getattr(searcher, "inner", searcher)  # a soft level's own search
    if isinstance(searcher, ParallelSearcher):
        assert isinstance(searcher.settings, MctsSettings)  # what every worker runs
        return searcher.settings.implicit_minimax
    assert isinstance(searcher, SolverFirstSearcher)
    return searcher.mcts.settings.implicit_minimax


def test_only_bug_master_and_the_custom_time_back_up_the_evaluation() -> None:
    weight = MCTS_IMPLICIT_MINIMAX["bug"]
    assert weight > 0
    for size in (3, 4):
        assert _tree_weight(level_limits("bug", "master", size=size)[0]) == weight
        assert _tree_weight(level_limits("bug", "master", size=size, workers=1)[0]) == weight
        for level in LEVELS[:-1]:
            kept = levels._KNOWING_LEVELS.get(("bug", size, level), frozenset())
            expected = weight if "implicit_minimax" in kept else 0.0
            assert _tree_weight(level_limits("bug", level, size=size)[0]) == expected, level
    assert _tree_weight(custom_limits("bug", 1.0)[0]) == weight
    assert _tree_weight(custom_limits("bug", 1.0, workers=2)[0]) == weight


def test_a_level_below_master_may_be_given_masters_knowledge(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(
        levels, "_KNOWING_LEVELS", {("bug", 4, "strong"): frozenset({"implicit_minimax"})}
    )
    weight = MCTS_IMPLICIT_MINIMAX["bug"]
    assert _tree_weight(level_limits("bug", "strong", size=4)[0]) == weight
    assert _tree_weight(level_limits("bug", "strong", size=3)[0]) == 0.0
    assert _tree_weight(level_limits("bug", "intermediate", size=4)[0]) == 0.0


def test_a_proof_reaches_the_minimax_values_above_it() -> None:
    # root - a - b - leaf: the leaf's loss proves b (one move) and counts as 1 in a,
    # though b's own minimax value was 0.5 before and after.
    root = Node(None, None)
    a = Node(object(), root)
    b = Node(object(), a)
    leaf = Node(object(), b)
    root.children, a.children, b.children = [a], [b], [leaf]
    leaf.minimax = 0.5
    b.proof = WIN
    a.minimax = b.minimax = 0.5
    _back_up_minimax(b)
    assert b.minimax == 0.5
    assert a.minimax == 0.0  # its only move, b, is a proven win for the opponent
