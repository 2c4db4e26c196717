"""Root parallelism: N worker processes search the same position, the parent merges.

The workers are started once and kept (`WorkerPool`), so a search pays no process start-up
and no re-import of the engine. Each task carries only picklable values (position text,
history keys, limits, a seed), so the scheme is 'spawn'-safe and works in a PyInstaller
bundle once the entry point has called `multiprocessing.freeze_support()`.

Stopping must take effect within 20 ms. A worker checks a shared integer (the id of the
newest task to stop) at every node, and reports its best move a few times a second; when
the caller stops, the parent waits a few milliseconds for final reports and otherwise
answers from the latest progress reports. MCTS results are merged by summing each root
move's visits (shares times iterations), alpha-beta by taking the deepest finished search.
"""

from __future__ import annotations

import atexit
import multiprocessing
import queue as queue_module
import random
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from engine.ai.common import (
    Candidate,
    Clock,
    ProgressCallback,
    SearchInfo,
    SearchLimits,
    SearchResult,
    StopCheck,
    never_stop,
)
from engine.core import EngineError, Move, Position

POLL_SECONDS = 0.002
FINAL_REPORT_GRACE = 0.012  # how long a stopped search waits for the workers' last words


@dataclass(frozen=True)
class _Task:
    task_id: int
    text: str
    history: tuple[int, ...]
    limits: SearchLimits
    kind: str
    seed: int
    deadline: float | None  # wall clock (time.time()), shared by all workers


@dataclass(frozen=True)
class _WorkerReport:
    """A worker's result or progress as plain values (moves as text)."""

    task_id: int
    index: int
    final: bool
    best: str | None
    value: float
    pv: tuple[str, ...]
    candidates: tuple[tuple[str, float, float], ...]
    nodes: int
    depth: int
    proven_result: int | None
    proven_plies: int | None
    error: str = ""


def _worker_loop(index: int, tasks: Any, results: Any, stop_id: Any) -> None:
    """Top-level, so that 'spawn' can import it: runs searches until told to quit (None).

    Each worker has its own task queue: with one shared queue a quick worker could take
    its neighbour's task too, and the parent would wait for a report that never comes.
    """
    from engine.ai.alphabeta import AlphaBetaSearcher
    from engine.ai.ayu_search import AyuSearcher
    from engine.ai.levels import mcts_settings
    from engine.ai.mcts import MctsSearcher
    from engine.registry import parse_position

    while True:
        task = tasks.get()
        if task is None:
            return
        try:
            position = parse_position(task.text)
            searcher: Any = (
                AlphaBetaSearcher()
                if task.kind == "alphabeta"
                else AyuSearcher()
                if task.kind == "ayu"
                else MctsSearcher(mcts_settings(position.game.name))
            )

            def should_stop(task: _Task = task) -> bool:
                return stop_id.value >= task.task_id or (
                    task.deadline is not None and time.time() >= task.deadline
                )

            def progress(info: SearchInfo, task: _Task = task) -> None:
                results.put(
                    _WorkerReport(
                        task.task_id, index, False, info.best_move or None, info.value,
                        info.pv, (), info.nodes, info.depth, None, None,
                    )
                )

            # The shared deadline ends the search; the worker's own time limit is only a
            # safety net a little later.
            limits = task.limits
            own_limits = replace(limits, time=limits.time + 1.0) if limits.time else limits
            result = searcher.search(
                position, task.history, own_limits,
                should_stop=should_stop, on_progress=progress, rng=random.Random(task.seed),
            )
            results.put(
                _WorkerReport(
                    task.task_id, index, True,
                    result.best_move.to_text() if result.best_move else None,
                    result.value,
                    tuple(m.to_text() for m in result.pv),
                    tuple((c.move.to_text(), c.share, c.value) for c in result.candidates),
                    result.nodes, result.depth, result.proven_result, result.proven_plies,
                )
            )
        except Exception as error:  # reported to the parent, which raises an EngineError
            results.put(
                _WorkerReport(
                    task.task_id, index, True, None, 0.5, (), (), 0, 0, None, None, repr(error)
                )
            )


class WorkerPool:
    """Long-lived search processes; one search at a time (a lock keeps it so)."""

    def __init__(self, workers: int) -> None:
        self.workers = workers
        self._context = multiprocessing.get_context("spawn")
        self._lock = threading.Lock()
        self._processes: list[Any] = []
        self._tasks: list[Any] = []
        self._results: Any = None
        self._stop_id: Any = None
        self._next_id = 0

    def start(self) -> None:
        """Start the processes now (e.g. while the user is still choosing a level)."""
        with self._lock:
            self._ensure_started()

    def _ensure_started(self) -> None:
        if self._processes and all(p.is_alive() for p in self._processes):
            return
        self.shutdown()
        context = self._context
        self._tasks = [context.Queue() for _ in range(self.workers)]
        self._results = context.Queue()
        self._stop_id = context.Value("q", 0, lock=False)
        self._processes = [
            context.Process(
                target=_worker_loop,
                args=(i, self._tasks[i], self._results, self._stop_id),
                daemon=True,
                name=f"pebblebox-search-{i}",
            )
            for i in range(self.workers)
        ]
        for process in self._processes:
            process.start()

    def shutdown(self) -> None:
        for tasks in self._tasks[: len(self._processes)]:
            try:
                tasks.put(None)
            except (OSError, ValueError):
                break
        for process in self._processes:
            process.join(timeout=0.5)
            if process.is_alive():
                process.kill()
        self._processes = []

    def run(
        self,
        make_task: Any,
        should_stop: StopCheck,
        on_progress: ProgressCallback | None,
    ) -> tuple[list[_WorkerReport], dict[int, _WorkerReport]]:
        """Runs one task on every worker; returns final reports and latest progress."""
        with self._lock:
            self._ensure_started()
            self._next_id += 1
            task_id = self._next_id
            for index, tasks in enumerate(self._tasks):
                tasks.put(make_task(task_id, index))
            finals: dict[int, _WorkerReport] = {}
            latest: dict[int, _WorkerReport] = {}
            clock = Clock()
            stopped_at: float | None = None
            while len(finals) < self.workers:
                if stopped_at is None and should_stop():
                    self._stop_id.value = task_id
                    stopped_at = time.perf_counter()
                if stopped_at is not None and time.perf_counter() - stopped_at > (
                    FINAL_REPORT_GRACE
                ):
                    break
                try:
                    report = self._results.get(timeout=POLL_SECONDS)
                except queue_module.Empty:
                    if not all(p.is_alive() for p in self._processes):
                        self.shutdown()
                        raise EngineError("a search worker process died") from None
                    continue
                if report.task_id != task_id:
                    continue  # a late word from a search that was already answered
                if report.final:
                    finals[report.index] = report
                else:
                    latest[report.index] = report
                    if on_progress is not None and clock.report_due():
                        on_progress(
                            SearchInfo(
                                report.best or "", report.value, report.pv,
                                sum(r.nodes for r in latest.values()), 0.0,
                                clock.elapsed(), "", report.depth,
                            )
                        )
            # Whatever is still running stops now; its late reports are skipped next time.
            self._stop_id.value = task_id
            return list(finals.values()), latest


_POOLS: dict[int, WorkerPool] = {}


def shared_pool(workers: int) -> WorkerPool:
    """One pool per worker count for the whole process, so levels can share it."""
    pool = _POOLS.get(workers)
    if pool is None:
        pool = _POOLS[workers] = WorkerPool(workers)
    return pool


@atexit.register
def _shutdown_pools() -> None:
    for pool in _POOLS.values():
        pool.shutdown()


class ParallelSearcher:
    """The game's searcher run in `workers` processes behind the common `search` call."""

    def __init__(self, game_name: str, kind: str, workers: int) -> None:
        self.game_name = game_name
        self.kind = kind
        self.workers = max(1, workers)

    def search(
        self,
        position: Position,
        history: Sequence[int],
        limits: SearchLimits,
        *,
        should_stop: StopCheck | None = None,
        on_progress: ProgressCallback | None = None,
        rng: random.Random | None = None,
    ) -> SearchResult:
        should_stop = should_stop or never_stop
        rng = rng or random.Random(0)
        began = time.perf_counter()
        if not position.legal_moves():
            return SearchResult(None, 0.5, (), (), 0, 0.0)
        deadline = None if limits.time is None else time.time() + limits.time
        seeds = [rng.getrandbits(32) for _ in range(self.workers)]
        text = position.to_text()
        # The position's own pushed history travels too: the text alone would forget it.
        keys = (*history, *position.history_keys())

        def make_task(task_id: int, index: int) -> _Task:
            return _Task(task_id, text, keys, limits, self.kind, seeds[index], deadline)

        finals, latest = shared_pool(self.workers).run(make_task, should_stop, on_progress)
        errors = [r.error for r in finals if r.error]
        if errors:
            raise EngineError(f"a search worker failed: {errors[0]}")
        reports = finals or [r for r in latest.values() if r.best]
        if not reports:
            # Stopped before any worker said anything: any legal move is better than none.
            move = position.legal_moves()[0]
            return SearchResult(move, 0.5, (move,), (), 0, time.perf_counter() - began)
        result = self._merge(position, reports, time.perf_counter() - began)
        if on_progress is not None:
            on_progress(result.info())
        return result

    def _merge(
        self, position: Position, reports: list[_WorkerReport], elapsed: float
    ) -> SearchResult:
        parse = position.game.parse_move
        nodes = sum(r.nodes for r in reports)
        proven = [r for r in reports if r.proven_result is not None]
        if proven:
            # A proof from any worker is a proof: prefer a win, then the quickest one.
            chosen = max(proven, key=lambda r: (r.proven_result or 0, -(r.proven_plies or 0)))
            return self._from_report(parse, chosen, nodes, elapsed)
        if self.kind in ("alphabeta", "ayu") or not any(r.candidates for r in reports):
            deepest = max(reports, key=lambda r: (r.depth, r.nodes))
            return self._from_report(parse, deepest, nodes, elapsed)
        visits: dict[str, float] = {}
        value_sum: dict[str, float] = {}
        for report in reports:
            for move, share, value in report.candidates:
                weight = share * report.nodes
                visits[move] = visits.get(move, 0.0) + weight
                value_sum[move] = value_sum.get(move, 0.0) + value * weight
        total = sum(visits.values()) or 1.0
        ranked = sorted(visits, key=lambda m: visits[m], reverse=True)
        candidates = tuple(
            Candidate(parse(m), visits[m] / total, value_sum[m] / visits[m] if visits[m] else 0.5)
            for m in ranked[:8]
        )
        best = ranked[0]
        pv_source = max(reports, key=lambda r: (r.best == best, r.nodes))
        pv = tuple(parse(m) for m in pv_source.pv) if pv_source.best == best else (parse(best),)
        return SearchResult(
            parse(best), candidates[0].value, pv, candidates, nodes, elapsed,
            max(r.depth for r in reports),
        )

    @staticmethod
    def _from_report(
        parse: Any, report: _WorkerReport, nodes: int, elapsed: float
    ) -> SearchResult:
        best: Move | None = parse(report.best) if report.best else None
        pv = tuple(parse(m) for m in report.pv) or ((best,) if best else ())
        return SearchResult(
            best, report.value, pv,
            tuple(Candidate(parse(m), s, v) for m, s, v in report.candidates),
            nodes, elapsed, report.depth, report.proven_result, report.proven_plies,
        )
