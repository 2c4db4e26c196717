"""Ayu's own alpha-beta: the race estimate, the cheap end-of-game test and E-A7."""

from __future__ import annotations

import random
from dataclasses import replace

from engine.ai.ayu_search import AyuSearcher, AyuSearchSettings, evaluate, race, units_of
from engine.ai.common import SearchLimits
from engine.ai.levels import PLAIN_AYU
from engine.bitboard import bits
from engine.games.ayu import AyuPosition
from engine.registry import new_game, parse_position
from tests.engine.ai_helpers import assert_root_values_exact, random_ayu_positions, solve

E_A7 = "ayu 5 2w2/5/bb1bb/1b1b1/2w2 b"


def test_race_says_whether_a_colour_can_move() -> None:
    rng = random.Random(3)
    checked = 0
    for size in (5, 7):
        game = new_game("ayu", size)
        for _ in range(8):
            position = game.start()
            while position.outcome() is None:
                assert isinstance(position, AyuPosition)
                geo = position.geo
                own = position.stones[position.turn]
                empty = geo.board_mask & ~(position.stones[0] | position.stones[1])
                reachable = race(own, empty, units_of(own, geo.spread), geo.spread)[2]
                assert reachable == bool(position.rule_moves())
                checked += 1
                moves = position.legal_moves()
                position.push(moves[rng.randrange(len(moves))])
    assert checked > 50


def _black_race(position: object) -> tuple[int, int, bool, int]:
    assert isinstance(position, AyuPosition)
    geo = position.geo
    own = position.stones[0]
    empty = geo.board_mask & ~(position.stones[0] | position.stones[1])
    return race(own, empty, units_of(own, geo.spread), geo.spread)


def test_race_at_the_start_is_one_move_per_join() -> None:
    assert _black_race(new_game("ayu", 9).start()) == (19, 1, True, 1)


def test_immobilisation_beats_unification_e_a7() -> None:
    position = parse_position(E_A7)
    result = AyuSearcher().search(position, [], SearchLimits(depth=4))
    assert result.proven_result == 1
    assert result.best_move is not None
    assert result.best_move.to_text() not in {"b2-c3", "d2-c3"}


def test_root_margin_gives_exact_values_to_the_root_moves() -> None:
    game = new_game("ayu", 7)
    position = game.start()
    rng = random.Random(2)
    for _ in range(6):
        moves = position.legal_moves()
        position.push(moves[rng.randrange(len(moves))])
    position = game.parse(position.to_text())
    wide = AyuSearcher(AyuSearchSettings(root_margin=10**7))
    assert_root_values_exact(wide, AyuSearcher(), position)


def test_race_names_the_widest_gap_of_the_tree() -> None:
    # Black: a1 and c1 one empty point apart, a7 five from a1.
    assert _black_race(parse_position("ayu 7 b5w/7/6w/7/7/7/b1b4 b")) == (6, 1, True, 5)


def test_the_gap_term_prefers_the_race_without_a_wide_gap() -> None:
    # Black, to move, has a wide gap to cross (a1 to a9); White's gaps are all 1.
    position = parse_position("ayu 9 b8/9/9/9/w1w1w1w1w/9/9/9/b1b6 b")
    assert isinstance(position, AyuPosition)
    plain = evaluate(position, AyuSearchSettings(gap_weight=0.0))
    weighed = evaluate(position, AyuSearchSettings(gap_weight=0.05))
    assert weighed < plain


def test_masters_terms_are_used_only_on_the_sizes_they_were_measured_on() -> None:
    # 13x13 has none measured, so both branches run.
    from engine.ai.ayu_search import (
        CLUSTER_WEIGHT,
        CONTESTED_CLUSTER_WEIGHT,
        CONTESTED_WEIGHT,
        GAP_WEIGHT,
        MASTER_TERM_SIZES,
        PLAIN_CLUSTER_WEIGHT,
        _Run,
    )
    from engine.ai.common import never_stop

    for size in (9, 11, 13):
        position = new_game("ayu", size).start()
        assert isinstance(position, AyuPosition)
        run = _Run(AyuSearchSettings(), position, SearchLimits(depth=1), never_stop)
        measured = size in MASTER_TERM_SIZES
        assert run.s.gap_weight == (GAP_WEIGHT if measured else 0.0)
        assert run.s.cluster_weight == (CLUSTER_WEIGHT if measured else PLAIN_CLUSTER_WEIGHT)
        assert run.s.contested_weight == (CONTESTED_WEIGHT if measured else 0.0)
        assert run.s.contested_cluster_weight == (
            CONTESTED_CLUSTER_WEIGHT if measured else 0.0
        )
        reducing = _Run(
            AyuSearchSettings(late_moves=4), position, SearchLimits(depth=1), never_stop
        )
        assert reducing.s.late_moves == (4 if measured else 0)
    assert PLAIN_AYU.late_moves == 0


def test_a_walled_in_unit_counts_against_its_side() -> None:
    # Black's a9 is walled in by White's a8 and b9, so the race leaves it out: Black's
    # race is the bottom row's one gap. White, with no stone walled in, has more to join.
    position = parse_position("ayu 9 bw7/w8/9/9/9/9/9/w1w1w1w1w/b1b6 b")
    assert isinstance(position, AyuPosition)
    assert _black_race(position)[:2] == (1, 2)
    plain = evaluate(position, PLAIN_AYU)
    master = evaluate(position)
    assert master < plain


def test_a_race_through_the_enemys_joining_points_counts_against_it() -> None:
    # Black's e1 and e5 are 3 apart through e2-e4, the points where White's two walls
    # join; with them closed Black goes round by c1-c5 (7). White's race has no such point.
    from engine.ai.ayu_search import evaluation_terms, joining_points

    position = parse_position("ayu 9 9/9/9/9/4b4/3w1w3/3w1w3/3w1w3/4b4 b")
    assert isinstance(position, AyuPosition)
    geo = position.geo
    white = position.stones[1]
    empty = geo.board_mask & ~(position.stones[0] | white)
    column_e = {geo.cell("e2"), geo.cell("e3"), geo.cell("e4")}
    assert set(bits(joining_points(units_of(white, geo.spread), empty, geo.spread))) == column_e
    terms = evaluation_terms(position)
    assert terms is not None
    lead, _, _, _, contested, contested_clusters = terms
    assert (lead, contested, contested_clusters) == (-2, -4, 0)
    blind = replace(AyuSearchSettings(), contested_weight=0.0, contested_cluster_weight=0.0)
    assert evaluate(position) < evaluate(position, blind)


def test_a_remembered_leaf_scores_as_a_fresh_one_at_any_ply() -> None:
    # The leaf scores a search keeps by position must not keep the ply a decided score
    # was found at: a win is worth less the later it comes.
    from engine.ai.ayu_search import _evaluate, _Run
    from engine.ai.common import never_stop

    rng = random.Random(3)
    position = new_game("ayu", 9).start()
    assert isinstance(position, AyuPosition)
    run = _Run(AyuSearchSettings(), position, SearchLimits(depth=1), never_stop)
    decided = 0
    while position.outcome() is None:
        for ply in (2, 5, 2):
            assert run._leaf(ply) == _evaluate(position, run.s, ply)
        decided += abs(_evaluate(position, run.s, 0)) > 1000
        moves = position.legal_moves()
        position.push(moves[rng.randrange(len(moves))])
    assert decided  # the game's last positions were decided ones


def test_null_windows_alone_give_the_plain_searchs_values() -> None:
    # With no move late enough to be reduced, `late_moves` is principal variation search:
    # the same minimax values as plain alpha-beta at a fixed depth, reached differently.
    for position in random_ayu_positions(9, 16, 3):
        plain = AyuSearcher(AyuSearchSettings(late_moves=0))
        scouting = AyuSearcher(AyuSearchSettings(late_moves=1000))
        a = plain.search(position, [], SearchLimits(depth=4))
        b = scouting.search(position, [], SearchLimits(depth=4))
        assert (a.value, a.proven_result) == (b.value, b.proven_result), position.to_text()


def test_reduced_searches_prove_only_true_results() -> None:
    # Reductions may hide a win for a depth, never invent one: every proof of a search
    # reducing all but the first move agrees with exhaustive minimax.
    proved = 0
    for position in random_ayu_positions(5, 30, 7):
        result = AyuSearcher(AyuSearchSettings(late_moves=1)).search(
            position, [], SearchLimits(depth=6)
        )
        assert result.best_move in position.legal_moves()
        if result.proven_result is not None:
            proved += 1
            assert (result.proven_result, result.proven_plies) == solve(position, 7), (
                position.to_text()
            )
    assert proved >= 10
