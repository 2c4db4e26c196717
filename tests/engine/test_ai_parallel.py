"""The parallel searcher: a pool of worker processes that is reused, stops, and keeps history."""

from __future__ import annotations

import multiprocessing
import random
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

from engine import new_game
from engine.ai import SearchInfo, SearchLimits
from engine.ai.parallel import ParallelSearcher, WorkerPool, _WorkerReport, shared_pool
from engine.registry import parse_position

AYU7_START = "ayu 7 1b1b1b1/w1w1w1w/1b1b1b1/w1w1w1w/1b1b1b1/w1w1w1w/1b1b1b1 b"


def test_pool_is_reused_across_searches_and_answers_legally() -> None:
    searcher = ParallelSearcher("ayu", "alphabeta", 2)
    position = new_game("ayu", 7).start()
    first = searcher.search(position, (), SearchLimits(depth=2), rng=random.Random(1))
    pids = [p.pid for p in shared_pool(2)._processes]
    second = searcher.search(position, (), SearchLimits(depth=2), rng=random.Random(2))
    assert [p.pid for p in shared_pool(2)._processes] == pids
    assert first.best_move in position.legal_moves()
    assert second.best_move in position.legal_moves()


def test_stop_returns_a_legal_move_promptly() -> None:
    searcher = ParallelSearcher("bug", "mcts", 2)
    position = new_game("bug", 4).start()
    position.push(position.legal_moves()[5])
    searcher.search(position, (), SearchLimits(iterations=5))  # start the processes
    stop = threading.Event()
    timer = threading.Timer(0.4, stop.set)
    timer.start()
    began = time.perf_counter()
    result = searcher.search(position, (), SearchLimits(time=60), should_stop=stop.is_set)
    assert time.perf_counter() - began < 5  # loose: the 20 ms goal is measured, not timed here
    assert result.best_move in position.legal_moves()
    timer.join()


def test_the_positions_own_history_reaches_the_workers() -> None:
    # After a move and its reply, the workers must see the earlier positions, or a
    # repetition draw inside the search would go unnoticed. The keys travel with the task.
    position = new_game("ayu", 7).start()
    assert position.to_text() == AYU7_START
    position.push(position.legal_moves()[0])
    position.push(position.legal_moves()[0])
    searcher = ParallelSearcher("ayu", "alphabeta", 2)
    captured: list[tuple[int, ...]] = []
    pool = shared_pool(2)
    real_run = pool.run

    def spy(make_task, should_stop, on_report=None):  # type: ignore[no-untyped-def]
        captured.append(make_task(0, 0).history)
        return real_run(make_task, should_stop, on_report)

    pool.run = spy  # type: ignore[method-assign]
    try:
        searcher.search(position, (7,), SearchLimits(depth=1))
    finally:
        del pool.run
    assert captured == [(7, *position.history_keys())]
    assert len(position.history_keys()) == 2


def test_quick_depth_limited_searches_never_wait_for_a_missing_worker() -> None:
    # Depth 1 finishes in milliseconds: with a shared task queue one worker could take
    # both tasks and the search would wait forever for the other's report.
    searcher = ParallelSearcher("ayu", "alphabeta", 2)
    position = new_game("ayu", 5).start()
    for seed in range(15):
        result = searcher.search(position, (), SearchLimits(depth=1), rng=random.Random(seed))
        assert result.best_move in position.legal_moves()


def test_a_root_split_search_stops_promptly_and_reports_progress() -> None:
    # Ayu's alpha-beta on two workers, each on its share of the root moves: the progress
    # reports and the answer are the merged view (legal, with a finished depth).
    searcher = ParallelSearcher("ayu", "ayu", 2)
    position = new_game("ayu", 9).start()
    searcher.search(position, (), SearchLimits(depth=1))  # start the processes
    reports: list[SearchInfo] = []
    stopped_at: list[float] = []
    stop = threading.Event()

    def press_stop() -> None:
        stopped_at.append(time.perf_counter())
        stop.set()

    timer = threading.Timer(0.6, press_stop)
    timer.start()
    result = searcher.search(
        position, (), SearchLimits(time=60), should_stop=stop.is_set,
        on_progress=reports.append,
    )
    latency = time.perf_counter() - stopped_at[0]
    timer.join()
    assert latency < 2.0  # loose: the 20 ms goal is measured, not timed here
    assert result.best_move in position.legal_moves()
    assert result.depth >= 1 and result.proven_result is None
    legal = {m.to_text() for m in position.legal_moves()}
    assert reports and all(r.best_move in legal and r.depth >= 1 for r in reports)
    assert reports[-1] == result.info()


def test_shutdown_skips_a_worker_that_never_started() -> None:
    # A start can fail (e.g. a script without a __main__ guard under 'spawn'); the exit
    # handler must still shut the pool down quietly.
    pool = WorkerPool(1)
    pool._processes = [multiprocessing.get_context("spawn").Process(target=print)]
    pool.shutdown()
    assert pool._processes == []


def test_workers_leave_when_their_parent_is_killed(tmp_path: Path) -> None:
    script = tmp_path / "parent.py"
    script.write_text(
        "import sys, time\n"
        "from engine.ai.parallel import shared_pool\n"
        "if __name__ == '__main__':\n"
        "    pool = shared_pool(2)\n"
        "    pool.start()\n"
        "    print(' '.join(str(p.pid) for p in pool._processes), flush=True)\n"
        "    time.sleep(60)\n"
    )
    parent = subprocess.Popen(
        [sys.executable, str(script)], stdout=subprocess.PIPE, text=True,
        cwd=Path(__file__).resolve().parents[2],
    )
    assert parent.stdout is not None
    pids = [int(pid) for pid in parent.stdout.readline().split()]
    assert len(pids) == 2
    parent.kill()  # no atexit, no shutdown: the workers are on their own
    parent.wait()
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and any(_running(pid) for pid in pids):
        time.sleep(0.1)
    assert not any(_running(pid) for pid in pids)


def _running(pid: int) -> bool:
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return False
    return "State:\tZ" not in status


def _report(index: int, candidates: tuple[tuple[str, float, float, int | None], ...]) -> Any:
    best = candidates[0][0]
    return _WorkerReport(1, index, True, best, 0.5, (best,), candidates, 1000, 3, None, None)


def test_mcts_workers_merge_never_picks_a_move_one_of_them_proved_lost() -> None:
    position = new_game("bug", 4).start()
    a, b = (m.to_text() for m in position.legal_moves()[:2])
    # Worker 1 spent most of its search on `a` before proving it lost; summed visits
    # would still favour `a` (1300 against 700).
    reports = [
        _report(0, ((a, 0.7, 0.5, None), (b, 0.3, 0.5, None))),
        _report(1, ((b, 0.4, 0.55, None), (a, 0.6, 0.0, -1))),
    ]
    result = ParallelSearcher("bug", "mcts", 2)._merge(position, reports, reports, 0.1)
    assert result.best_move is not None and result.best_move.to_text() == b
    assert [c.move.to_text() for c in result.candidates] == [b]


def test_the_merge_plays_a_move_no_one_refuted_before_a_proven_loss() -> None:
    position = new_game("bug", 4).start()
    moves = [m.to_text() for m in position.legal_moves()]
    a, b = moves[:2]
    # The workers show their top moves, all proven lost; the others are not shown.
    shown = [_report(0, ((a, 0.7, 0.0, -1), (b, 0.3, 0.0, -1)))]
    result = ParallelSearcher("bug", "mcts", 2)._merge(position, shown, shown, 0.1)
    assert result.best_move is not None and result.best_move.to_text() not in (a, b)
    assert result.best_move in position.legal_moves()
    # When every legal move is lost, the visits decide among them.
    every = ((a, 0.7, 0.0, -1), (b, 0.3, 0.0, -1)) + tuple((m, 0.0, 0.0, -1) for m in moves[2:])
    lost = [_report(0, every)]
    result = ParallelSearcher("bug", "mcts", 2)._merge(position, lost, lost, 0.1)
    assert result.best_move is not None and result.best_move.to_text() == a



def test_a_provers_lost_moves_are_left_out_of_the_merge() -> None:
    position = new_game("bug", 4).start()
    a, b = (m.to_text() for m in position.legal_moves()[:2])
    mcts = _report(0, ((a, 0.8, 0.6, None), (b, 0.2, 0.5, None)))
    # The prover proved nothing at the root: it names no move, only `a` as lost.
    prover = _WorkerReport(1, 1, True, None, 0.5, (), ((a, 0.0, 0.0, -1),), 90_000, 9, None, None)
    searcher = ParallelSearcher("bug", "mcts+solver", 2)
    result = searcher._merge(position, [mcts], [mcts, prover], 0.1)
    assert result.best_move is not None and result.best_move.to_text() == b
    assert result.nodes == 1000  # MCTS iterations only: the prover counts other nodes


def test_the_prover_worker_joins_only_near_the_end() -> None:
    searcher = ParallelSearcher("bug", "mcts+solver", 2)
    start = new_game("bug", 4).start()
    assert searcher._kinds(start, SearchLimits(time=1.0)) == ["mcts", "mcts"]
    late = parse_position("bug 4 1wbb/1w1bw/wb1wb1/1bbb1b1/wwww2/1w1b1/4 b")  # 17 empty
    assert searcher._kinds(late, SearchLimits(time=1.0)) == ["mcts", "solver"]
    assert searcher._kinds(late, SearchLimits(iterations=100)) == ["mcts", "mcts"]
    assert ParallelSearcher("bug", "mcts", 2)._kinds(late, SearchLimits(time=1.0)) == [
        "mcts", "mcts"
    ]


def test_a_proof_from_the_prover_worker_is_played_and_ends_the_search() -> None:
    # Bug 3, White to move wins: the prover proves it long before the 30 s are up.
    position = parse_position("bug 3 bbw/wbbw/b4/b1bb/2b w")
    searcher = ParallelSearcher("bug", "mcts+solver", 2)
    began = time.perf_counter()
    result = searcher.search(position, (), SearchLimits(time=30.0), rng=random.Random(3))
    assert time.perf_counter() - began < 20
    assert result.proven_result == 1
    assert result.best_move in position.legal_moves()


def test_provers_split_the_root_where_every_worker_proves() -> None:
    limits = SearchLimits(time=1.0)
    late = parse_position("bug 4 1wbb/1w1bw/wb1wb1/1bbb1b1/wwww2/1w1b1/4 b")  # 17 empty
    middle = parse_position("bug 4 1w2/2w2/1w3b/1w3b1/4b1/ww3/wb2 b")  # 26 empty
    first = ParallelSearcher("bug", "mcts+solver", 2, reach=26, prover_share=0.8)
    for position, split in ((late, True), (middle, False)):
        kinds = first._kinds(position, limits)
        assert first._provers_split(position, limits, kinds) == split
    # Where the MCTS worker proves from is its own: from 26 it splits there too.
    earlier = ParallelSearcher("bug", "mcts+solver", 2, reach=26, prover_share=0.8, first_reach=26)
    assert earlier._provers_split(middle, limits, earlier._kinds(middle, limits))
    plain = ParallelSearcher("bug", "mcts+solver", 2, reach=26)
    assert not plain._provers_split(late, limits, plain._kinds(late, limits))


def test_a_prover_first_worker_searches_within_the_time_and_proves() -> None:
    searcher = ParallelSearcher("bug", "mcts+solver", 2, prover_share=0.5)
    late = parse_position("bug 4 1wbb/1w1bw/wb1wb1/1bbb1b1/wwww2/1w1b1/4 b")  # 17 empty
    assert searcher._kinds(late, SearchLimits(time=1.0)) == ["prover-first", "solver"]
    began = time.perf_counter()
    result = searcher.search(late, (), SearchLimits(time=1.0), rng=random.Random(5))
    assert time.perf_counter() - began < 3
    assert result.best_move in late.legal_moves()
    # Bug 3, White to move wins: either worker's proof is played.
    won = parse_position("bug 3 bbw/wbbw/b4/b1bb/2b w")
    result = searcher.search(won, (), SearchLimits(time=30.0), rng=random.Random(3))
    assert result.proven_result == 1 and result.best_move in won.legal_moves()
