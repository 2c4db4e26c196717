"""Levels for every game, the `search` and `match` subcommands, and the parallel searcher."""

from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path

import pytest

from engine.__main__ import main
from engine.ai import levels
from engine.ai.ayu_search import (
    CONTESTED_CLUSTER_WEIGHT,
    GAP_WEIGHT,
    AyuSearcher,
    AyuSearchSettings,
)
from engine.ai.common import SearchLimits
from engine.ai.endgame import SOLVER_SHARE, SolverFirstSearcher, prover_wanted
from engine.ai.levels import LEVELS, PLAIN_AYU, custom_limits, level_limits
from engine.ai.match import GameRecord, MatchResult, contender, run_match
from engine.ai.parallel import ParallelSearcher
from engine.ai.players import SoftenedSearcher
from engine.ai.policies.bug import ENDGAME_EMPTY_CELLS
from engine.bench import BENCH_SIZES
from engine.core import EngineError
from engine.registry import new_game, parse_position
from tests.engine.ai_helpers import random_position, registered_games

AYU_START_9 = (
    "ayu 9 1b1b1b1b1/w1w1w1w1w/1b1b1b1b1/w1w1w1w1w/1b1b1b1b1/w1w1w1w1w/1b1b1b1b1/"
    "w1w1w1w1w/1b1b1b1b1 b"
)


@pytest.mark.parametrize(("name", "size"), registered_games())
def test_every_game_has_five_levels_and_a_custom_time(name: str, size: int) -> None:
    assert LEVELS == ("beginner", "casual", "intermediate", "strong", "master")
    for level in LEVELS:
        searcher, limits, settings = level_limits(name, level)
        assert settings.level == level
        assert limits.time or limits.iterations
        assert hasattr(searcher, "search")
    master = level_limits(name, "Master")[2]
    assert master.seconds == 5.0
    # Two cores where the second measured worth it (Bug's prover; not yet the alpha-beta
    # root split or Ayu's prover).
    assert master.workers == (2 if name == "bug" else 1)
    _, limits, _ = custom_limits(name, 1.5)
    assert limits.time == 1.5


@pytest.mark.parametrize(
    ("name", "size"), [(name, size) for name, sizes in BENCH_SIZES.items() for size in sizes]
)
def test_each_level_gets_more_than_the_one_below(name: str, size: int) -> None:
    """Per-game and per-size budgets must keep the ladder in order: the counted levels count
    more, the timed ones take longer, and Master is the strongest."""
    budgets = [level_limits(name, level, size=size)[2] for level in LEVELS]
    beginner, casual, intermediate, strong, master = budgets
    assert beginner.iterations is not None and casual.iterations is not None
    assert beginner.iterations < casual.iterations
    assert intermediate.seconds is not None and strong.seconds is not None
    assert intermediate.seconds < strong.seconds < (master.seconds or 0.0)
    temperatures = [b.temperature for b in budgets]
    assert temperatures == sorted(temperatures, reverse=True)


def test_unknown_level_is_an_engine_error() -> None:
    with pytest.raises(EngineError):
        level_limits("ayu", "grandmaster")


@pytest.mark.parametrize(("name", "size"), registered_games())
def test_beginner_plays_legal_moves(name: str, size: int) -> None:
    searcher, limits, _ = level_limits(name, "beginner")
    rng = random.Random(4)
    position = random_position(name, size, 6, rng)
    if position.outcome() is None:
        result = searcher.search(position, [], limits, rng=rng)
        assert result.best_move in position.legal_moves()


def test_cli_search_prints_info_lines_and_bestmove(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["search", AYU_START_9, "--moves", "b1-c1", "--time", "0.6", "--seed", "3"])
    lines = capsys.readouterr().out.strip().splitlines()
    assert code == 0
    assert lines[-1].startswith("bestmove ")
    assert any(line.startswith("info nodes ") and " pv " in line for line in lines[:-1])
    position = new_game("ayu", 9).start()
    position.play("b1-c1")
    assert lines[-1].split()[1] in {m.to_text() for m in position.legal_moves()}


def test_cli_search_with_iterations_is_reproducible(capsys: pytest.CaptureFixture[str]) -> None:
    main(["search", AYU_START_9, "--iterations", "120", "--seed", "9"])
    first = capsys.readouterr().out.strip().splitlines()[-1]
    main(["search", AYU_START_9, "--iterations", "120", "--seed", "9"])
    assert capsys.readouterr().out.strip().splitlines()[-1] == first


def test_cli_search_rejects_an_illegal_move_with_status_2(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code = main(["search", AYU_START_9, "--moves", "a1-a2", "--iterations", "10"])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2 and len(err) == 1 and err[0].startswith("error: move 1 (a1-a2)")


def test_cli_match_prints_totals(capsys: pytest.CaptureFixture[str]) -> None:
    name, size = registered_games()[0]
    code = main(["match", "--game", name, "--size", str(size), "--first", "beginner",
                 "--second", "random", "--games", "2", "--time", "0.05"])
    out = capsys.readouterr().out
    assert code == 0
    assert "95% interval" in out and "first player's win rate" in out


def test_time_scale_multiplies_every_time_budget_but_not_iterations() -> None:
    game = new_game("ayu", 9)
    assert contender(game, "intermediate", None, time_scale=0.2).limits.time == pytest.approx(0.2)
    assert contender(game, "master", None, 2, time_scale=0.2).limits.time == pytest.approx(1.0)
    assert contender(game, "uct", None, time_scale=0.5).limits.time == pytest.approx(0.5)
    assert contender(game, "custom", 2.0, time_scale=0.25).limits.time == pytest.approx(0.5)
    assert contender(game, "strong", 1.0, time_scale=0.5).limits.time == pytest.approx(0.5)
    beginner = contender(game, "beginner", None, time_scale=0.2).limits
    assert beginner.time is None
    assert beginner.iterations == level_limits("ayu", "beginner")[1].iterations
    assert contender(game, "strong", None).limits.time == level_limits("ayu", "strong")[1].time
    with pytest.raises(EngineError):
        contender(game, "strong", None, time_scale=0)


def test_cli_match_accepts_a_time_scale(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["match", "--game", "ayu", "--size", "5", "--first", "random", "--second",
                 "uct", "--games", "1", "--time", "0.2", "--time-scale", "0.1"])
    out = capsys.readouterr().out
    assert code == 0
    assert "time scale 0.1: random 0.02 s; uct 0.02 s" in out and "95% interval" in out


def test_match_against_random_counts_every_game() -> None:
    game = new_game("ayu", 9)
    first = contender(game, "uct", 0.02)
    second = contender(game, "random", None)
    result = run_match(game, first, second, 2, seed=3)
    assert len(result.records) == 2
    assert all(r.plies > 0 for r in result.records)


def test_cli_match_records_games_that_replay_to_their_results(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = tmp_path / "games.txt"
    code = main(["match", "--game", "ayu", "--size", "5", "--first", "random", "--second",
                 "uct", "--games", "2", "--time", "0.02", "--seed", "4",
                 "--record", str(record)])
    assert code == 0
    blocks = record.read_text(encoding="utf-8").strip().split("\n\n")
    assert len(blocks) == 2
    for number, block in enumerate(blocks, start=1):
        heading, start, moves = block.split("\n")
        assert heading.startswith(f"game {number}: ")
        assert ("random moved first" in heading) == (number == 1)
        position = parse_position(start.removeprefix("start: "))
        for text in moves.removeprefix("moves: ").split():
            position.play(text)
        outcome = position.outcome()
        assert outcome is not None
        winner_label = heading.split("; ")[1].split(" won")[0]
        first_label = heading.split(": ")[1].split(" moved")[0]
        first_won = outcome.winner == position.game.players[0]
        assert (winner_label == first_label) == first_won


def test_cli_match_says_when_it_cannot_write_the_record(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(["match", "--game", "ayu", "--size", "5", "--first", "random", "--second",
                 "random", "--games", "1", "--record", str(tmp_path / "no" / "such.txt")])
    assert code == 2
    assert "cannot write the record file" in capsys.readouterr().err


def test_cli_match_tells_apart_two_sides_of_the_same_level(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = tmp_path / "games.txt"
    code = main(["match", "--game", "ayu", "--size", "5", "--first", "random", "--second",
                 "random", "--games", "2", "--seed", "3", "--record", str(record)])
    assert code == 0
    out = capsys.readouterr().out
    assert "random #1" in out and "random #2" in out
    headings = [block.split("\n")[0]
                for block in record.read_text(encoding="utf-8").strip().split("\n\n")]
    assert "random #1 moved first" in headings[0]
    assert "random #2 moved first" in headings[1]


def test_match_totals_count_the_opening_pairs_each_side_won_once() -> None:
    def game(winner: int | None) -> GameRecord:
        return GameRecord(winner, 40, False, None if winner is None else winner == 0)

    # Pairs: split (0 then 1), swept by the first contender, one drawn game, then an odd game.
    records = [game(0), game(1), game(0), game(0), game(None), game(1), game(1)]
    lines = MatchResult("a", "b", records).lines()
    assert "opening pairs split 1-1: 1 of 3" in lines


def test_parallel_search_returns_a_legal_move() -> None:
    name, size = registered_games()[0]
    position = random_position(name, size, 3, random.Random(8))
    searcher = ParallelSearcher(name, "mcts", 2)
    result = searcher.search(position, [], SearchLimits(iterations=60), rng=random.Random(1))
    assert result.best_move in position.legal_moves()
    assert result.nodes >= 60


def test_parallel_search_with_a_time_limit_stops_at_the_deadline() -> None:
    name, size = registered_games()[0]
    position = random_position(name, size, 3, random.Random(8))
    searcher = ParallelSearcher(name, "mcts", 2)
    result = searcher.search(position, [], SearchLimits(time=0.5), rng=random.Random(1))
    assert result.best_move in position.legal_moves()
    assert result.elapsed < 5.0


def test_a_match_gives_each_level_its_own_workers_unless_told() -> None:
    game = new_game("bug", 4)
    assert isinstance(contender(game, "master", None).searcher, ParallelSearcher)
    assert not isinstance(contender(game, "strong", None).searcher, ParallelSearcher)
    assert not isinstance(contender(game, "master", None, 1).searcher, ParallelSearcher)
    assert isinstance(contender(game, "strong", None, 2).searcher, ParallelSearcher)


def test_bug_side_3_gives_its_soft_levels_their_own_budgets() -> None:
    small = level_limits("bug", "beginner", size=3)[1].iterations
    assert small is not None and small > level_limits("bug", "beginner", size=4)[1].iterations
    assert level_limits("bug", "beginner")[1] == level_limits("bug", "beginner", size=4)[1]
    casual = level_limits("bug", "casual", size=3)[1].iterations
    assert casual is not None and casual > small
    # The match tool and the search command pass the board's size along.
    assert contender(new_game("bug", 3), "beginner", None).limits.iterations == small


def test_bug_calls_the_prover_in_later_for_the_middle_levels() -> None:
    reaches = [level_limits("bug", level, size=3)[2].endgame_reach for level in LEVELS[2:4]]
    assert reaches[0] is not None and reaches[1] is not None and reaches[0] < reaches[1]
    searcher = contender(new_game("bug", 3), "intermediate", None).searcher
    assert isinstance(searcher, SolverFirstSearcher) and searcher.reach == reaches[0]
    two = contender(new_game("bug", 3), "intermediate", None, 2).searcher
    assert isinstance(two, ParallelSearcher) and two.reach == reaches[0]
    # Side 4's Strong keeps the policy's own threshold; Master's prover has a core of its own.
    assert level_limits("bug", "strong", size=4)[2].endgame_reach is None
    side_4 = level_limits("bug", "intermediate", size=4)[2].endgame_reach
    assert side_4 is not None and side_4 < ENDGAME_EMPTY_CELLS
    assert level_limits("bug", "master", size=3, workers=1)[2].endgame_reach is None


def test_bug_side_4_casual_counts_its_prover_in_nodes() -> None:
    casual, limits, settings = level_limits("bug", "casual", size=4)
    inner = getattr(casual, "inner", casual)  # the soft level's own search
    assert isinstance(inner, SolverFirstSearcher) and inner.prover_nodes
    assert limits.time is None and limits.iterations  # reproducible on any computer
    assert settings.prover_nodes == inner.prover_nodes  # reported as it is used
    assert level_limits("bug", "casual", size=4, workers=2)[2].prover_nodes is None
    beginner = getattr(level_limits("bug", "beginner", size=4)[0], "inner", None)
    assert isinstance(beginner, SolverFirstSearcher) and beginner.prover_nodes is None


def test_a_timed_level_may_give_its_prover_more_of_the_time(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(levels._PROVER_SHARE, ("bug", 4, "strong"), 0.8)
    searcher, limits, settings = level_limits("bug", "strong", size=4)
    assert isinstance(searcher, SolverFirstSearcher) and limits.time
    assert searcher.share == settings.prover_share == 0.8  # reported as it is used
    side_3 = level_limits("bug", "strong", size=3)
    assert isinstance(side_3[0], SolverFirstSearcher) and side_3[0].share == SOLVER_SHARE
    assert side_3[2].prover_share is None
    # With workers to spare the prover has a core of its own, not a share of one.
    assert level_limits("bug", "strong", size=4, workers=2)[2].prover_share is None


def test_bug_4_master_proves_first_on_its_mcts_worker_too() -> None:
    pair, _, settings = level_limits("bug", "master", size=4)
    assert isinstance(pair, ParallelSearcher)
    assert pair.prover_share == settings.prover_share == 0.8  # reported as it is used
    late = parse_position("bug 4 1wbb/1w1bw/wb1wb1/1bbb1b1/wwww2/1w1b1/4 b")  # 17 empty
    assert pair._kinds(late, SearchLimits(time=1.0)) == ["prover-first", "solver"]
    assert level_limits("bug", "master", size=3)[0].prover_share is None  # its own size only
    assert level_limits("bug", "master", size=4, workers=1)[2].prover_share is None
    # The custom time is Master's search for another time.
    custom, _, custom_settings = custom_limits("bug", 2.0, workers=2, size=4)
    assert isinstance(custom, ParallelSearcher)
    assert custom.prover_share == custom_settings.prover_share == 0.8
    assert contender(new_game("bug", 4), "custom", 2.0, 2).searcher.prover_share == 0.8


def test_a_bug_prover_on_its_own_core_joins_earlier() -> None:
    one = level_limits("bug", "master", size=4, workers=1)[0]
    assert isinstance(one, SolverFirstSearcher) and one.reach is None
    pair, _, settings = level_limits("bug", "master", size=4)
    assert isinstance(pair, ParallelSearcher) and pair.workers == 2
    assert settings.endgame_reach == pair.reach == 26  # reported as it is used
    custom, _, custom_settings = custom_limits("bug", 5.0, workers=2)
    assert isinstance(custom, ParallelSearcher)
    assert custom_settings.endgame_reach == custom.reach == 26
    late = parse_position("bug 4 1w2/2w2/1w3b/1w3b1/4b1/ww3/wb2 b")  # 26 empty cells
    limits = SearchLimits(time=1.0)
    assert pair._kinds(late, limits) == ["prover-first", "solver"]
    assert custom._kinds(late, limits) == ["mcts", "solver"]
    assert not prover_wanted(late, limits)  # the one-core levels' threshold


def _ayu_settings(level: str, workers: int | None = None) -> object:
    searcher = level_limits("ayu", level, size=9, workers=workers)[0]
    searcher = getattr(searcher, "inner", searcher)  # a soft level's own search
    if isinstance(searcher, ParallelSearcher):
        assert searcher.kind == "ayu"  # the root split
        assert isinstance(searcher.settings, AyuSearchSettings)  # what every worker runs
        return searcher.settings.gap_weight
    assert isinstance(searcher, AyuSearcher)
    return searcher.settings.gap_weight


def test_only_ayu_master_weighs_the_longest_gap() -> None:
    assert GAP_WEIGHT > 0
    assert _ayu_settings("master") == GAP_WEIGHT
    for level in LEVELS[:-1]:
        assert _ayu_settings(level) == 0.0, level
    # The soft levels keep their exact root values; every worker follows its level.
    beginner = level_limits("ayu", "beginner", size=9)[0]
    assert isinstance(beginner, SoftenedSearcher) and isinstance(beginner.inner, AyuSearcher)
    assert beginner.inner.settings.root_margin > 0
    assert _ayu_settings("strong", 2) == 0.0
    assert _ayu_settings("master", 2) == GAP_WEIGHT
    custom = custom_limits("ayu", 1.0)[0]
    assert isinstance(custom, AyuSearcher) and custom.settings.gap_weight == GAP_WEIGHT


def test_ayu_11x11_strong_keeps_only_masters_contested_clusters() -> None:
    strong = level_limits("ayu", "strong", size=11)[0]
    assert isinstance(strong, AyuSearcher)
    assert CONTESTED_CLUSTER_WEIGHT > 0
    assert strong.settings == replace(PLAIN_AYU, contested_cluster_weight=CONTESTED_CLUSTER_WEIGHT)
    # Every other level below Master, and Strong on the other sizes, search plainly.
    for size in (9, 11, 13, None):
        for level in LEVELS[:-1]:
            if (size, level) == (11, "strong"):
                continue
            searcher = level_limits("ayu", level, size=size)[0]
            searcher = getattr(searcher, "inner", searcher)  # a soft level's own search
            assert isinstance(searcher, AyuSearcher)
            assert replace(searcher.settings, root_margin=0) == PLAIN_AYU, (size, level)


def test_ayu_master_splits_its_root_over_two_workers_on_9x9_and_11x11() -> None:
    for size in (9, 11):
        split, limits, settings = level_limits("ayu", "master", size=size)
        assert isinstance(split, ParallelSearcher) and split.kind == "ayu"
        assert split.workers == settings.workers == 2 and limits.time == 5.0
        assert split.settings == AyuSearchSettings()  # Master's own terms in both workers
    # Measured on 9x9 and 11x11 only: the other sizes' Master stays on one core unless asked.
    thirteen, _, thirteen_settings = level_limits("ayu", "master", size=13)
    assert isinstance(thirteen, AyuSearcher) and thirteen_settings.workers == 1
    one = level_limits("ayu", "master", size=9, workers=1)[0]
    assert isinstance(one, AyuSearcher) and one.settings == AyuSearchSettings()
    for split in (
        level_limits("ayu", "master", size=13, workers=2)[0],
        custom_limits("ayu", 1.0, workers=2, size=9)[0],
    ):
        assert isinstance(split, ParallelSearcher) and split.kind == "ayu"
        assert split.workers == 2
        assert split.settings == AyuSearchSettings()


def test_ayu_9x9_beginner_cools_where_the_game_looks_decided() -> None:
    nine = level_limits("ayu", "beginner", size=9)[0]
    eleven = level_limits("ayu", "beginner", size=11)[0]
    assert isinstance(nine, SoftenedSearcher) and isinstance(eleven, SoftenedSearcher)
    assert nine.cooling and not eleven.cooling
    assert nine.temperature == eleven.temperature
    casual = level_limits("ayu", "casual", size=9)[0]
    assert isinstance(casual, SoftenedSearcher) and not casual.cooling
