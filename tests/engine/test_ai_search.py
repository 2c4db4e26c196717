"""The searchers against the common contract: reproducible, stoppable, legal, and right
about proven results (checked against plain minimax)."""

from __future__ import annotations

import random
import threading
import time

import pytest

from engine.ai.alphabeta import AlphaBetaSearcher, AlphaBetaSettings
from engine.ai.common import SearchLimits, SearchResult, history_keys
from engine.ai.levels import searcher_for
from engine.ai.mcts import MctsSearcher, MctsSettings
from engine.ai.players import RandomSearcher
from engine.ai.root_share import Iteration
from engine.core import Position
from engine.registry import game_names, parse_position
from tests.engine.ai_helpers import random_position, registered_games, solve

SEARCHERS = {
    "mcts": lambda name: MctsSearcher(MctsSettings()),
    "mcts-eval": lambda name: MctsSearcher(MctsSettings(playout_plies=2)),
    "mcts-rave": lambda name: MctsSearcher(MctsSettings(rave=True)),
    "mcts-minimax": lambda name: MctsSearcher(MctsSettings(implicit_minimax=0.3)),
    "alphabeta": lambda name: AlphaBetaSearcher(),
    "level": lambda name: searcher_for(name),
}


def _search(searcher: object, position: Position, **limits: float) -> SearchResult:
    return searcher.search(  # type: ignore[attr-defined, no-any-return]
        position, [], SearchLimits(**limits), rng=random.Random(7)
    )


@pytest.mark.parametrize(("name", "size"), registered_games())
@pytest.mark.parametrize("kind", ["mcts", "mcts-rave", "mcts-minimax", "alphabeta"])
def test_same_seed_and_budget_give_the_same_move(name: str, size: int, kind: str) -> None:
    position = random_position(name, size, 5, random.Random(3))
    searcher = SEARCHERS[kind](name)
    first = _search(searcher, position, iterations=150)
    second = _search(searcher, position, iterations=150)
    assert first.best_move == second.best_move
    assert first.value == second.value
    assert first.nodes == second.nodes


@pytest.mark.parametrize(("name", "size"), registered_games())
def test_search_never_returns_an_illegal_move(name: str, size: int) -> None:
    rng = random.Random(name)
    for round_number in range(6):
        position = random_position(name, size, rng.randrange(0, 40), rng)
        if position.outcome() is not None:
            continue
        legal = position.legal_moves()
        for kind in ("mcts", "mcts-rave", "mcts-minimax", "alphabeta"):
            result = _search(SEARCHERS[kind](name), position, iterations=40 + round_number)
            assert result.best_move in legal, (kind, position.to_text())
            assert all(move in legal for move in (c.move for c in result.candidates))
            assert 0.0 <= result.value <= 1.0
        # The principal variation is a playable line.
        line = position.copy()
        for move in result.pv:
            assert move in line.legal_moves()
            line.push(move)


@pytest.mark.parametrize("kind", ["mcts", "alphabeta"])
def test_a_stop_flag_from_another_thread_ends_a_long_search(kind: str) -> None:
    name, size = registered_games()[0]
    position = random_position(name, size, 4, random.Random(1))
    flag = threading.Event()
    timer = threading.Timer(0.05, flag.set)
    began = time.perf_counter()
    timer.start()
    result = SEARCHERS[kind](name).search(
        position, [], SearchLimits(time=30.0), should_stop=flag.is_set, rng=random.Random(1)
    )
    latency = time.perf_counter() - began - 0.05
    assert result.best_move in position.legal_moves()
    # The contract is 20 ms; the assertion is loose so a busy test machine cannot flake it.
    assert latency < 2.0


def test_progress_reports_are_few_and_well_formed() -> None:
    position = random_position("ayu", 9, 2, random.Random(2))
    reports = []
    MctsSearcher().search(
        position, [], SearchLimits(time=0.6), on_progress=reports.append,
        rng=random.Random(1),
    )
    assert 1 <= len(reports) <= 6
    last = reports[-1]
    assert last.best_move and last.pv and last.nodes > 0 and last.elapsed > 0


# Bug side 3 endgames with their exact values (plain minimax, see ai_helpers.solve).
BUG_ENDGAMES = [
    "bug 3 bbb/ww2/bb1b1/b1bb/www w",
    "bug 3 1ww/b1w1/bw3/1www/1wb w",
    "bug 3 bbw/wbbw/b4/b1bb/2b w",
    "bug 3 2w/1ww1/2b1w/www1/3 b",
    "bug 3 w1w/1bww/wwbb1/wb2/2b w",
]


@pytest.mark.skipif("bug" not in game_names(), reason="Bug is not registered yet")
@pytest.mark.parametrize("text", BUG_ENDGAMES)
def test_bug_endgames_are_solved_exactly(text: str) -> None:
    position = parse_position(text)
    exact = solve(position, 6)
    assert exact is not None
    for kind in ("mcts", "mcts-rave", "mcts-minimax", "alphabeta"):
        result = _search(SEARCHERS[kind]("bug"), position, time=10.0)
        assert result.proven_result == exact[0], kind
        assert result.proven_plies is not None
        if kind == "alphabeta" or exact[0] == -1:
            assert result.proven_plies == exact[1], kind
        else:  # MCTS-Solver proves a win with the first winning line it completes
            assert result.proven_plies >= exact[1]
        assert result.verdict().startswith(f"proven {'win' if exact[0] == 1 else 'loss'} in")
        assert result.best_move is not None
        position.push(result.best_move)
        after = solve(position, 6)
        position.pop()
        if exact[0] == 1:
            assert after is not None and after[0] == -1  # the move keeps the win


@pytest.mark.parametrize("kind", ["mcts", "alphabeta"])
def test_ayu_immobilisation_beats_unification(kind: str) -> None:
    # rules.md E-A7: b2-c3 unifies Black but walls White in, so White (to move) wins;
    # a3-c3 unifies and leaves White moves, so Black wins next turn.
    position = parse_position("ayu 5 2w2/5/bb1bb/1b1b1/2w2 b")
    exact = solve(position, 3)
    assert exact == (1, 2)
    result = _search(SEARCHERS[kind]("ayu"), position, time=10.0)
    assert result.proven_result == 1 and result.proven_plies == 2
    assert result.best_move is not None and result.best_move.to_text() != "b2-c3"
    position.push(result.best_move)
    assert solve(position, 2) == (-1, 1)


def _forced_win_positions(name: str, size: int, count: int) -> list[Position]:
    """Positions from random games where the side to move wins within 3 plies."""
    rng = random.Random(f"{name}-wins")
    found: list[Position] = []
    for _ in range(400):
        position = random_position(name, size, rng.randrange(4, 120), rng)
        if position.outcome() is not None or len(position.legal_moves()) > 40:
            continue
        exact = solve(position, 3)
        if exact is not None and exact[0] == 1:
            found.append(position)
            if len(found) == count:
                break
    return found


@pytest.mark.parametrize(("name", "size"), registered_games())
def test_the_ai_finds_a_forced_win_in_one_or_two_turns(name: str, size: int) -> None:
    positions = _forced_win_positions(name, size, 3)
    assert positions, f"no forced win found in random {name} games"
    for position in positions:
        result = _search(searcher_for(name), position, time=10.0)
        assert result.proven_result == 1, position.to_text()
        assert result.best_move is not None
        position.push(result.best_move)
        after = solve(position, 2)
        position.pop()
        assert after is not None and after[0] == -1, position.to_text()


def test_ahayuta_takes_the_winning_step() -> None:
    if "ahayuta" not in game_names():
        pytest.skip("Ahayuta is not registered yet")
    # Light Ahayuta on e7 steps to the Dark home row (E-H12); Dark threatens nothing.
    position = parse_position("ahayuta 8 6/4A3/8/8/8/8/8/1W4 l 5/6 -")
    for kind in ("mcts", "alphabeta"):
        result = _search(SEARCHERS[kind]("ahayuta"), position, time=5.0)
        assert result.best_move is not None
        assert result.best_move.to_text() in {"e7-d8", "e7-e8", "e7-f8"}
        assert result.proven_result == 1 and result.proven_plies == 1


def test_history_makes_a_repeating_move_a_draw() -> None:
    # Ayu: with a history holding the position a move leads to, that move draws (AYU-9).
    start = parse_position("ayu 5 2w2/5/bb1bb/1b1b1/2w2 b")
    winning = start.copy()
    winning.push(winning.parse_move("a3-c3"))
    history = [winning.repetition_key()]
    result = MctsSearcher().search(start, history, SearchLimits(time=10.0), rng=random.Random(1))
    assert result.best_move is not None and result.best_move.to_text() != "a3-c3"


def test_history_keys_skip_the_pie_swap() -> None:
    start = parse_position(
        "ayu 9 1b1b1b1b1/w1w1w1w1w/1b1b1b1b1/w1w1w1w1w/1b1b1b1b1/w1w1w1w1w/1b1b1b1b1/"
        "w1w1w1w1w/1b1b1b1b1 b pie=on"
    )
    position, keys = history_keys(start, ["b1-c1", "swap"])
    assert len(keys) == 1
    legal = position.legal_moves()
    assert legal and position.outcome() is None
    result = MctsSearcher().search(position, keys, SearchLimits(iterations=30))
    assert result.best_move in legal


def test_the_ai_decides_on_the_pie_swap() -> None:
    start = parse_position(
        "ayu 9 1b1b1b1b1/w1w1w1w1w/1b1b1b1b1/w1w1w1w1w/1b1b1b1b1/w1w1w1w1w/1b1b1b1b1/"
        "w1w1w1w1w/1b1b1b1b1 b pie=on"
    )
    position, keys = history_keys(start, ["b1-c1"])
    assert "swap" in {m.to_text() for m in position.legal_moves()}
    result = searcher_for("ayu").search(position, keys, SearchLimits(iterations=200))
    assert result.best_move in position.legal_moves()


def test_random_searcher_plays_legal_moves() -> None:
    for name, size in registered_games():
        position = random_position(name, size, 3, random.Random(5))
        result = RandomSearcher().search(position, [], SearchLimits(iterations=1))
        assert result.best_move in position.legal_moves()


@pytest.mark.parametrize("seed", range(4))
def test_killer_and_history_order_leave_a_fixed_depth_result_unchanged(seed: int) -> None:
    # The order only changes how soon cut-offs come, never the minimax value of a depth.
    position = random_position("ahayuta", 8, 10 + 6 * seed, random.Random(seed))
    plain = AlphaBetaSearcher(AlphaBetaSettings(killers=False, history_order=False))
    ordered = AlphaBetaSearcher(AlphaBetaSettings())
    limits = SearchLimits(depth=4)
    first = plain.search(position, [], limits, rng=random.Random(1))
    second = ordered.search(position, [], limits, rng=random.Random(1))
    assert first.value == second.value
    assert first.depth == second.depth == 4


@pytest.mark.skipif("ahayuta" not in game_names(), reason="no Ahayuta")
def test_a_move_that_beats_the_last_best_in_an_unfinished_depth_is_played() -> None:
    # Cut short by a node budget, the search plays a move that beat the last finished
    # depth's best at the next depth, and that move is really better at that depth.
    rng = random.Random(3)
    switched = 0
    for _ in range(12):
        position = random_position("ahayuta", 8, rng.randrange(10, 40), rng)
        if position.outcome() is not None:
            continue
        for budget in range(300, 1300, 97):
            finished: list[Iteration] = []
            result = AlphaBetaSearcher().search(
                position, [], SearchLimits(iterations=budget), rng=random.Random(1),
                on_iteration=finished.append,
            )
            if not finished or result.best_move == finished[-1].best_move:
                continue
            assert result.depth == finished[-1].depth
            exact = AlphaBetaSearcher(AlphaBetaSettings(root_margin=10**6)).search(
                position, [], SearchLimits(depth=result.depth + 1), rng=random.Random(1)
            )
            values = {c.move: c.value for c in exact.candidates}
            assert values[result.best_move] >= values[finished[-1].best_move]
            switched += 1
            break
    assert switched >= 2
