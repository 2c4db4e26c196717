"""Ayu's prover (engine/ai/ayu_prover.py)."""

from __future__ import annotations

from engine.ai.ayu_prover import AyuProver
from engine.ai.ayu_search import (
    AyuSearcher,
    AyuSearchSettings,
    _decided,
    _evaluate,
    any_pair_reachable,
    joining_all,
    one_unit,
    race,
    units_of,
)
from engine.ai.common import SearchLimits
from engine.ai.search_scores import MATE_ZONE
from engine.games.ayu import AyuPosition
from engine.registry import new_game, parse_position
from tests.engine.ai_helpers import random_ayu_positions, solve


def test_any_pair_reachable_says_what_the_race_says() -> None:
    walled = parse_position("ayu 5 bw3/w4/5/5/4b b")  # black's a5 is walled in by white
    assert isinstance(walled, AyuPosition)
    positions = [walled, *random_ayu_positions(5, 40, 1), *random_ayu_positions(9, 40, 2)]
    for position in positions:
        spread = position.geo.spread
        for colour in (0, 1):
            own, other = position.stones[colour], position.stones[colour ^ 1]
            empty = position.geo.board_mask & ~(own | other)
            units = units_of(own, spread)
            reachable = race(own, empty, units, spread)[2]
            assert any_pair_reachable(units, empty, spread) == reachable, position.to_text()
    black = walled.stones[0]
    spread = walled.geo.spread
    empty = walled.geo.board_mask & ~(black | walled.stones[1])
    assert not any_pair_reachable(units_of(black, spread), empty, spread)


def test_joining_all_finds_every_move_that_leaves_one_unit() -> None:
    found = 0
    positions = (
        random_ayu_positions(5, 80, 5) + random_ayu_positions(7, 60, 6)
        + random_ayu_positions(9, 40, 12)
    )
    for position in positions:
        me = position.turn
        expected = set()
        for move in position.rule_moves():
            position.push(move)
            if one_unit(position.stones[me], position.geo.spread):
                expected.add(move)
            position.pop()
        moves = joining_all(position)
        assert len(moves) == len(set(moves)) and set(moves) == expected, position.to_text()
        found += bool(moves)
    assert found >= 10


def test_the_proof_leaf_keeps_only_the_decided_scores_of_the_evaluation() -> None:
    settings = AyuSearchSettings()
    for position in random_ayu_positions(5, 60, 3) + random_ayu_positions(7, 30, 4):
        full = _evaluate(position, settings, 3)
        expected = full if abs(full) >= MATE_ZONE else 0
        assert _decided(position, 3) == expected, position.to_text()


def test_proofs_agree_with_exhaustive_search() -> None:
    """Every proof is exact (result and length), and whatever plain minimax settles
    within a ply less than the prover's depth the prover settles too: its last two plies
    look only for joins, so a forced walling-in there waits for the next depth."""
    proved = 0
    for position in random_ayu_positions(5, 30, 7):
        result = AyuProver().search(position, [], SearchLimits(depth=6))
        got = None if result.proven_result is None else (
            result.proven_result, result.proven_plies
        )
        if got is not None:
            proved += 1
            assert got == solve(position, 7), position.to_text()
            assert result.best_move in position.legal_moves()
        else:
            assert result.best_move is None  # only a proof names a move
        within = solve(position, 5)
        if within is not None:
            assert got == within, position.to_text()
    assert proved >= 10


def test_the_prover_lists_the_root_moves_it_proves_lost() -> None:
    checked = 0
    for position in random_ayu_positions(5, 40, 8):
        result = AyuProver().search(position, [], SearchLimits(depth=6))
        if result.proven_result == 1:
            continue
        for candidate in result.candidates:
            assert candidate.proof == -1
            position.push(candidate.move)
            after = solve(position, 6)
            position.pop()
            assert after is not None and after[0] == 1, position.to_text()
            checked += 1
    assert checked >= 3


def test_both_searches_take_the_pie_swap_in_their_stride() -> None:
    """With the pie rule on, the swap lies below the start, and a table's move may be the
    swap: it is never tried before the other moves are generated (`allows`)."""
    start = new_game("ayu", 5, pie="on").start()
    for settings in (AyuSearchSettings(), AyuSearchSettings(proof_only=True)):
        result = AyuSearcher(settings).search(start, [], SearchLimits(depth=4))
        assert result.best_move in start.legal_moves()
    start.push(start.legal_moves()[0])
    assert start.swap_available
    result = AyuSearcher(AyuSearchSettings()).search(start, [], SearchLimits(depth=4))
    assert result.best_move in start.legal_moves()
