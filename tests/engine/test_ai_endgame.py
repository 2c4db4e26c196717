"""The endgame prover beside MCTS: only its proofs count, and they are right."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from engine.ai.alphabeta import AlphaBetaSearcher
from engine.ai.ayu_prover import AyuProver
from engine.ai.bug_prover import BugProver
from engine.ai.common import Candidate, SearchInfo, SearchLimits, SearchResult
from engine.ai.endgame import ProofSearcher, SolverFirstSearcher, lost_moves, proofs_only
from engine.ai.levels import mcts_settings
from engine.ai.mcts import MctsSearcher
from engine.ai.policies import policy_for
from engine.registry import new_game, parse_position
from tests.engine.ai_helpers import (
    UNSETTLED_BUG_4,
    random_position,
    settled_bug_positions,
    solve,
)

WON = "bug 3 bbw/wbbw/b4/b1bb/2b w"  # White to move wins in 4 plies
LOST = "bug 3 2w/1ww1/2b1w/www1/3 b"  # Black to move loses in 3


def test_alpha_beta_marks_exactly_proven_root_moves() -> None:
    proofs = 0
    for position in settled_bug_positions(8, "late-bug"):
        result = AlphaBetaSearcher().search(position, [], SearchLimits(depth=4))
        for candidate in result.candidates:
            if candidate.proof is None:
                continue
            proofs += 1
            position.push(candidate.move)
            after = solve(position, 3)
            position.pop()
            # The reply position's value, for the opponent, is the opposite proof.
            assert after is not None and after[0] == -candidate.proof, position.to_text()
    assert proofs >= 8


def test_every_root_move_proven_lost_is_listed() -> None:
    position = parse_position(LOST)
    result = AlphaBetaSearcher().search(position, [], SearchLimits(depth=4))
    moves = position.legal_moves()
    assert len(moves) > 8
    assert lost_moves(result) == frozenset(moves)


def test_proofs_only_keeps_a_settled_result_and_otherwise_only_the_lost_moves() -> None:
    position = new_game("bug", 4).start()
    a, b = position.legal_moves()[:2]
    open_result = SearchResult(
        a, 0.6, (a,), (Candidate(a, 0.5, 0.6), Candidate(b, 0.5, 0.0, -1)), 100, 1.0, 4
    )
    kept = proofs_only(open_result)
    assert kept.best_move is None and kept.pv == ()
    assert kept.candidates == (Candidate(b, 0.5, 0.0, -1),)
    settled = SearchResult(a, 1.0, (a,), (Candidate(a, 1.0, 1.0, 1),), 100, 1.0, 4, 1, 3)
    assert proofs_only(settled) is settled


def test_mcts_never_plays_a_move_it_is_told_is_lost() -> None:
    position = random_position("bug", 4, 10, random.Random(4))
    moves = position.legal_moves()
    keep = moves[len(moves) // 2]
    searcher = MctsSearcher(mcts_settings("bug"))
    others = frozenset(m for m in moves if m != keep)
    for limits in (SearchLimits(iterations=200), SearchLimits(time=5.0)):
        result = searcher.search(position, [], limits, lost_moves=others)
        assert result.best_move == keep
    # Stopped before the first iteration: still not a lost move.
    stopped = searcher.search(
        position, [], SearchLimits(time=5.0), should_stop=lambda: True, lost_moves=others
    )
    assert stopped.best_move == keep
    every = searcher.search(position, [], SearchLimits(iterations=50), lost_moves=set(moves))
    assert every.proven_result == -1


@pytest.mark.parametrize(("text", "result"), [(WON, 1), (LOST, -1)])
def test_solver_first_settles_a_late_position_with_the_prover(text: str, result: int) -> None:
    position = parse_position(text)
    exact = solve(position, 6)
    assert exact is not None and exact[0] == result
    found = SolverFirstSearcher(MctsSearcher(mcts_settings("bug"))).search(
        position, [], SearchLimits(time=20.0), rng=random.Random(1)
    )
    # Bug's prover (df-pn) names the length of the line it proved, not always the best.
    assert found.proven_result == result
    assert found.proven_plies is not None and found.proven_plies >= exact[1]
    assert found.elapsed < 10  # the proof ends the search: its time is not used up
    assert found.best_move is not None
    position.push(found.best_move)
    after = solve(position, 6)
    position.pop()
    assert after is not None and after[0] == -result  # a win is kept; a loss is the slowest


def test_solver_first_leaves_early_positions_and_counted_searches_to_mcts() -> None:
    start = new_game("bug", 4).start()
    policy = policy_for(start.game)
    assert not policy.endgame_near(start)
    assert policy.endgame_near(parse_position("bug 4 1wbb/1w1bw/wb1wb1/1bbb1b1/wwww2/1w1b1/4 b"))
    mcts = MctsSearcher(mcts_settings("bug"))
    position = parse_position(WON)
    alone = mcts.search(position, [], SearchLimits(iterations=300), rng=random.Random(2))
    wrapped = SolverFirstSearcher(mcts).search(
        position, [], SearchLimits(iterations=300), rng=random.Random(2)
    )
    assert replace(wrapped, elapsed=0.0) == replace(alone, elapsed=0.0)


def test_a_counted_search_with_a_node_budget_proves_the_same_way_every_time() -> None:
    mcts = MctsSearcher(mcts_settings("bug"))
    counted = SolverFirstSearcher(mcts, prover_nodes=5000)
    limits = SearchLimits(iterations=300)
    found = counted.search(parse_position(WON), [], limits, rng=random.Random(2))
    assert found.proven_result == 1 and found.best_move is not None
    # No tables are carried from one search to the next: an unsettled position gets
    # the same proofs and the same MCTS answer each time.
    position = parse_position(UNSETTLED_BUG_4)
    first, second = (
        counted.search(position, [], limits, rng=random.Random(3)) for _ in range(2)
    )
    assert replace(first, elapsed=0.0) == replace(second, elapsed=0.0)
    assert first.proven_result is None and first.nodes == 300
    # Outside the prover's reach the counted search is MCTS's alone.
    early = new_game("bug", 4).start()
    alone = mcts.search(early, [], limits, rng=random.Random(4))
    wrapped = counted.search(early, [], limits, rng=random.Random(4))
    assert replace(wrapped, elapsed=0.0) == replace(alone, elapsed=0.0)


def test_the_alpha_beta_prover_keeps_its_table_for_the_next_move_only_in_the_same_game() -> None:
    prover = ProofSearcher()
    position = random_position("ahayuta", 8, 20, random.Random(5))
    prover.search(position, [], SearchLimits(iterations=2000))
    kept = len(prover.table)
    assert kept > 0
    position.push(position.legal_moves()[0])
    prover.search(position, [], SearchLimits(iterations=500))
    assert len(prover.table) >= kept
    # Another game (the same rules with another clamp option) starts a new table.
    other = new_game("ahayuta", clamp="single").start()
    prover.search(other, [], SearchLimits(iterations=500))
    assert 0 < len(prover.table) < kept


def test_ayu_gets_its_own_prover_which_keeps_its_table_for_the_next_move() -> None:
    prover = ProofSearcher()
    position = random_position("ayu", 9, 20, random.Random(5))
    prover.search(position, [], SearchLimits(iterations=2000))
    assert not prover.table  # the alpha-beta's table is not Ayu's
    ayu = prover.game_provers["ayu"]
    assert isinstance(ayu, AyuProver)
    kept = len(ayu.table)
    assert kept > 0
    position.push(position.legal_moves()[0])
    prover.search(position, [], SearchLimits(iterations=500))
    assert len(ayu.table) >= kept


def test_bug_positions_go_to_bugs_own_prover() -> None:
    prover = ProofSearcher()
    result = prover.search(parse_position(WON), [], SearchLimits(iterations=5000))
    assert result.proven_result == 1
    assert not prover.table  # the alpha-beta was not used
    assert isinstance(prover.game_provers["bug"], BugProver)


def test_the_prover_reports_its_effort_but_no_unproven_move() -> None:
    reports: list[SearchInfo] = []
    # 20 empty cells: the prover joins, and proves nothing in 3 s.
    position = parse_position(UNSETTLED_BUG_4)
    SolverFirstSearcher(MctsSearcher(mcts_settings("bug"))).search(
        position, [], SearchLimits(time=1.0), on_progress=reports.append, rng=random.Random(1)
    )
    proving = [info for info in reports if not info.best_move]
    assert proving and all(info.nodes > 0 and not info.pv for info in proving)
    assert reports[-1].best_move  # MCTS's answer comes last


def test_a_narrower_reach_keeps_the_prover_out_until_the_end_is_nearer() -> None:
    # 20 empty cells: near by Bug's own threshold, not within a reach of 18.
    position = parse_position(UNSETTLED_BUG_4)
    policy = policy_for(position.game)
    assert policy.endgame_near(position) and not policy.endgame_near(position, 18)
    reports: list[SearchInfo] = []
    SolverFirstSearcher(MctsSearcher(mcts_settings("bug")), reach=18).search(
        position, [], SearchLimits(time=0.3), on_progress=reports.append, rng=random.Random(1)
    )
    assert reports and all(info.best_move for info in reports)  # MCTS alone reported
