"""Bug's own endgame prover (df-pn) and the board lister under it."""

from __future__ import annotations

import random

import pytest

from engine.ai.bug_prover import BugProver
from engine.ai.common import SearchLimits
from engine.ai.endgame import ProofSearcher
from engine.games.bug import BugPosition
from engine.games.bug_turn_list import list_boards, list_turns
from engine.registry import new_game, parse_position
from tests.engine.ai_helpers import (
    UNSETTLED_BUG_4,
    random_position,
    settled_bug_positions,
    solve,
)

WON = "bug 3 bbw/wbbw/b4/b1bb/2b w"  # White to move wins in 4 plies
LOST = "bug 3 2w/1ww1/2b1w/www1/3 b"  # Black to move loses in 3


def _boards_by_pushing(position: BugPosition) -> set[tuple[int, int]]:
    colour = position.turn
    boards = set()
    for move in position.legal_moves():
        position.push(move)
        boards.add((position.stones[colour], position.stones[colour ^ 1]))
        position.pop()
    return boards


@pytest.mark.parametrize("size", [3, 4, 5])
def test_the_listed_boards_are_those_the_turns_leave(size: int) -> None:
    rng = random.Random(size)
    eating = 0
    for _ in range(40):
        position = random_position("bug", size, rng.randrange(2, 40), rng)
        assert isinstance(position, BugPosition)
        if position.outcome() is not None or not (position.stones[0] or position.stones[1]):
            continue
        colour = position.turn
        own, enemy = position.stones[colour], position.stones[colour ^ 1]
        expected = _boards_by_pushing(position)
        turns = list_turns(position.geo, own, enemy)
        assert [turn for turn, _, _ in turns] == position.legal_moves()
        assert position.turns() == turns  # the position's own list, boards included
        assert {(after, enemy_after) for _, after, enemy_after in turns} == expected
        assert list_boards(position.geo, own, enemy) == expected
        eating += any(len(turn.cells) > 1 for turn, _, _ in turns)
    assert eating >= 5  # the eating cycles were exercised, not only single stones


def test_proofs_agree_with_exhaustive_search() -> None:
    lost_checked = 0
    for position in settled_bug_positions(12, "bug-prover", first_ply=8):
        exact = solve(position, 4)
        assert exact is not None
        result = BugProver().search(position, [], SearchLimits(iterations=50_000))
        assert result.proven_result == exact[0], position.to_text()
        assert result.proven_plies is not None and result.proven_plies >= exact[1]
        assert result.best_move in position.legal_moves()
        position.push(result.best_move)
        after = solve(position, 4)
        if after is None:  # a longer win than the quickest: the generic prover checks it
            check = ProofSearcher().search(position, [], SearchLimits(iterations=200_000))
            after = (check.proven_result, check.proven_plies) if check.proven else None
        position.pop()
        # A win is kept; a lost position's move still loses, no sooner than it must.
        assert after is not None and after[0] == -exact[0]
        for candidate in result.candidates:
            if candidate.proof != -1:
                continue
            position.push(candidate.move)
            reply = solve(position, 3)
            position.pop()
            if reply is not None:
                assert reply[0] == 1, (position.to_text(), candidate.move.to_text())
                lost_checked += 1
    assert lost_checked >= 10


def test_an_unsettled_search_names_no_move_and_only_moves_proven_lost() -> None:
    rng = random.Random(9)
    checked = 0
    for _ in range(6):
        position = random_position("bug", 4, 14, rng)
        result = BugProver().search(position, [], SearchLimits(iterations=300))
        if result.proven:
            continue
        assert result.best_move is None and result.pv == ()
        assert all(candidate.proof == -1 for candidate in result.candidates)
        checked += 1
    assert checked >= 3


def test_every_turn_to_a_refuted_board_is_known_lost() -> None:
    """Two eating orders may leave one board: MCTS searches both turns, so a proof that
    the board loses must take out both, not only the turn the prover listed first."""
    rng = random.Random(11)
    shared_and_lost = 0
    for _ in range(30):
        position = random_position("bug", 3, 8, rng)
        assert isinstance(position, BugPosition)
        if position.outcome() is not None:
            continue
        turns_by_board: dict[tuple[int, int], set[str]] = {}
        for turn, own, enemy in position.turns():
            turns_by_board.setdefault((own, enemy), set()).add(turn.to_text())
        result = BugProver().search(position, [], SearchLimits(iterations=2000))
        lost = {c.move.to_text() for c in result.candidates if c.proof == -1}
        for turns in turns_by_board.values():
            if turns & lost:
                assert turns <= lost, (position.to_text(), turns, lost)
                shared_and_lost += len(turns) > 1
    assert shared_and_lost >= 2


def test_the_first_stone_and_a_finished_game() -> None:
    start = new_game("bug", 3).start()
    assert BugProver().search(start, [], SearchLimits(iterations=100)).best_move is None
    won = parse_position(WON)
    position = won.copy()
    while position.legal_moves():
        result = BugProver().search(position, [], SearchLimits(iterations=5000))
        assert result.proven
        assert result.best_move is not None
        position.push(result.best_move)
    # The side that was to move in WON played its proven wins to the end and won.
    outcome = position.outcome()
    assert outcome is not None and outcome.winner == won.turn_name


def test_the_stop_request_is_honoured() -> None:
    position = random_position("bug", 5, 6, random.Random(3))
    calls = 0

    def stop() -> bool:
        nonlocal calls
        calls += 1
        return calls > 3

    result = BugProver().search(position, [], SearchLimits(time=60.0), should_stop=stop)
    assert result.elapsed < 30  # stopped long before its time; nodes are checked in small steps
    assert result.best_move is None


def test_the_tables_last_while_the_board_size_stays() -> None:
    prover = BugProver()
    position = random_position("bug", 4, 14, random.Random(2))
    prover.search(position, [], SearchLimits(iterations=1000))
    kept = len(prover.proofs) + len(prover.numbers)
    assert kept > 0
    position.push(position.legal_moves()[0])
    prover.search(position, [], SearchLimits(iterations=300))
    assert len(prover.proofs) + len(prover.numbers) >= kept
    prover.search(parse_position(LOST), [], SearchLimits(iterations=300))
    assert 0 < len(prover.proofs) + len(prover.numbers) < kept


def test_progress_reports_carry_no_unproven_move() -> None:
    reports = []
    position = random_position("bug", 4, 12, random.Random(4))
    BugProver().search(position, [], SearchLimits(time=0.6), on_progress=reports.append)
    assert reports
    assert all(info.best_move == "" or info.proven for info in reports)


def test_a_small_budget_for_remembered_children_changes_no_proof(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    rng = random.Random(7)
    positions = [random_position("bug", 3, rng.randrange(6, 12), rng) for _ in range(12)]

    def results() -> list[int | None]:
        limits = SearchLimits(iterations=5000)
        return [BugProver().search(p, [], limits).proven_result for p in positions]

    full = results()
    monkeypatch.setattr("engine.ai.bug_prover.CHILDREN_LIMIT", 60)
    # Forgotten lists are listed again, so the search walks the same nodes.
    assert results() == full
    assert sum(result is not None for result in full) >= 6
    prover = BugProver()
    unsettled = parse_position(UNSETTLED_BUG_4)
    assert not prover.search(unsettled, [], SearchLimits(iterations=3000)).proven
    known = prover._known_children
    assert 0 < sum(map(len, known.values())) == prover._children_count <= 60


def test_full_tables_are_forgotten_without_losing_the_proof(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr("engine.ai.bug_prover.TABLE_LIMIT", 40)
    for text, expected in ((WON, 1), (LOST, -1)):
        result = BugProver().search(parse_position(text), [], SearchLimits(iterations=20_000))
        assert result.proven_result == expected
    prover = BugProver()
    unsettled = parse_position(UNSETTLED_BUG_4)
    assert not prover.search(unsettled, [], SearchLimits(iterations=3000)).proven
    # Each check forgets what is over the limit; a few nodes' entries come in between.
    assert len(prover.proofs) + len(prover.numbers) < 40 + 400


def test_a_split_root_proves_its_share_and_never_claims_the_root_lost() -> None:
    lost = parse_position(LOST)
    moves = lost.legal_moves()
    refuted: set[str] = set()
    for index in range(2):
        share = BugProver().search(lost, [], SearchLimits(iterations=50_000), root_share=(index, 2))
        assert share.best_move is None and not share.proven  # only the whole root is lost
        assert all(candidate.proof == -1 for candidate in share.candidates)
        refuted |= {candidate.move.to_text() for candidate in share.candidates}
    assert refuted == {move.to_text() for move in moves}  # the shares cover every move
    # A won root: the share that holds a winning move proves the root won with it.
    won = parse_position(WON)
    wins = []
    for index in range(2):
        share = BugProver().search(won, [], SearchLimits(iterations=50_000), root_share=(index, 2))
        if share.proven:
            assert share.proven_result == 1 and share.best_move in won.legal_moves()
            wins.append(share.best_move)
    assert wins
    # The tables hold nothing false about the root: the whole root is proven as before.
    prover = BugProver()
    prover.search(lost, [], SearchLimits(iterations=50_000), root_share=(0, 2))
    assert prover.search(lost, [], SearchLimits(iterations=50_000)).proven_result == -1
