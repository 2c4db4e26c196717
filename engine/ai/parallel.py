"""Root parallelism: N worker processes search the same position, the parent merges.

Each worker gets only picklable values (position text, history keys, limits, a seed) and
runs the game's own searcher, so the scheme is 'spawn'-safe and works in a PyInstaller
bundle once the entry point has called `multiprocessing.freeze_support()`. The workers
share the parent's wall-clock deadline and a stop event; MCTS results are merged by
summing each root move's visits (shares times iterations), alpha-beta by taking the
deepest finished search.
"""

from __future__ import annotations

import multiprocessing
import queue as queue_module
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass, replace
from multiprocessing.synchronize import Event as EventType
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
from engine.core import EngineError, Position

POLL_SECONDS = 0.01


@dataclass(frozen=True)
class _WorkerReport:
    """A worker's result as plain values (moves as text)."""

    index: int
    best: str | None
    value: float
    pv: tuple[str, ...]
    candidates: tuple[tuple[str, float, float], ...]
    nodes: int
    depth: int
    proven_result: int | None
    proven_plies: int | None
    error: str = ""


def _worker(
    index: int,
    text: str,
    history: tuple[int, ...],
    limits: SearchLimits,
    kind: str,
    seed: int,
    deadline: float | None,
    stop: EventType,
    results: Any,
) -> None:
    """Top-level, so that 'spawn' can import it: runs one search and sends its report."""
    try:
        from engine.ai.alphabeta import AlphaBetaSearcher
        from engine.ai.levels import mcts_settings
        from engine.ai.mcts import MctsSearcher
        from engine.registry import parse_position

        position = parse_position(text)
        searcher = (
            AlphaBetaSearcher() if kind == "alphabeta"
            else MctsSearcher(mcts_settings(position.game.name))
        )

        def should_stop() -> bool:
            return stop.is_set() or (deadline is not None and time.time() >= deadline)

        # The shared deadline (wall clock, set by the parent) ends the search; the worker's
        # own time limit is only a safety net a little later.
        own_limits = replace(limits, time=limits.time + 1.0) if limits.time else limits
        result = searcher.search(
            position, history, own_limits,
            should_stop=should_stop, rng=random.Random(seed),
        )
        results.put(_WorkerReport(
            index,
            result.best_move.to_text() if result.best_move else None,
            result.value,
            tuple(m.to_text() for m in result.pv),
            tuple((c.move.to_text(), c.share, c.value) for c in result.candidates),
            result.nodes,
            result.depth,
            result.proven_result,
            result.proven_plies,
        ))
    except Exception as error:  # reported to the parent, which raises it as an EngineError
        results.put(_WorkerReport(index, None, 0.5, (), (), 0, 0, None, None, repr(error)))


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
        if limits.time is None and limits.iterations is None and limits.depth is None:
            raise EngineError("a search needs a limit")
        context = multiprocessing.get_context("spawn")
        stop = context.Event()
        results = context.Queue()
        deadline = None if limits.time is None else time.time() + limits.time
        seeds = [rng.getrandbits(32) for _ in range(self.workers)]
        text = position.to_text()
        processes = [
            context.Process(
                target=_worker,
                args=(i, text, tuple(history), limits, self.kind, seeds[i], deadline, stop,
                      results),
                daemon=True,
            )
            for i in range(self.workers)
        ]
        for process in processes:
            process.start()
        reports: list[_WorkerReport] = []
        clock = Clock()
        try:
            while len(reports) < self.workers:
                if should_stop():
                    stop.set()
                try:
                    reports.append(results.get(timeout=POLL_SECONDS))
                except queue_module.Empty:
                    if on_progress is not None and clock.report_due():
                        on_progress(SearchInfo("", 0.5, (), 0, 0.0, clock.elapsed(), ""))
                    if not any(p.is_alive() for p in processes) and results.empty():
                        break
        finally:
            stop.set()
            for process in processes:
                process.join(timeout=1.0)
        errors = [r.error for r in reports if r.error]
        if errors or not reports:
            raise EngineError(f"a search worker failed: {errors[0] if errors else 'no result'}")
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
        if self.kind == "alphabeta":
            deepest = max(reports, key=lambda r: r.depth)
            return self._from_report(parse, deepest, nodes, elapsed)
        visits: dict[str, float] = {}
        value_sum: dict[str, float] = {}
        for report in reports:
            for move, share, value in report.candidates:
                weight = share * report.nodes
                visits[move] = visits.get(move, 0.0) + weight
                value_sum[move] = value_sum.get(move, 0.0) + value * weight
        if not visits:
            return self._from_report(parse, reports[0], nodes, elapsed)
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
        best = parse(report.best) if report.best else None
        return SearchResult(
            best, report.value, tuple(parse(m) for m in report.pv),
            tuple(Candidate(parse(m), s, v) for m, s, v in report.candidates),
            nodes, elapsed, report.depth, report.proven_result, report.proven_plies,
        )
