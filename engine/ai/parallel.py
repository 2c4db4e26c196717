"""Root parallelism: N worker processes search one position, the parent merges.

The workers are started once and kept (`WorkerPool`), so a search pays no process start-up
and no re-import of the engine. Each task carries only picklable values (position text,
history keys, limits, a seed), so the scheme is 'spawn'-safe and works in a PyInstaller
bundle once the entry point has called `multiprocessing.freeze_support()`.

Stopping must take effect within 20 ms. A worker checks a shared integer (the id of the
newest task to stop) at every node, and reports its best move a few times a second; when
the caller stops, the parent waits a few milliseconds for final reports and otherwise
answers from the latest progress reports.

MCTS workers search the whole tree with different seeds; their results are merged by
summing each root move's visits (shares times iterations).

The alpha-beta searchers ("alphabeta", "ayu") split the root moves instead, since
identical deterministic searches would only repeat each other: worker k of N searches
share k (`alphabeta.root_share`), moves k, k+N, k+2N, ... of the common ordering. Each
worker deepens on its own share, with its own table and its own move ordering (its best
move first). Through shared memory (`SharedRootBounds`, made once by the pool, each
slot marked with the task id so that nothing needs a reset) the workers tell each other,
per depth, the best exact root score found so far, which root moves are taken, and which
depth each is working on (`alphabeta.TableReporting._shared_root`):

* before each root move a worker raises its alpha to the best published score at that
  depth, and publishes a new exact best (read-max-write under the array's lock);
* the worker that holds the previous depth's best move searches it first with the full
  window; the others search with a guess as alpha (the published score two depths back)
  until a score is published, and at the end of the depth make sure the score is at
  least the guess (waiting for it while another worker may still publish one, checking
  the stop flag), searching again any move whose bound is above it;
* a worker that has finished its own moves takes over untaken moves of the workers on
  the same depth, the least promising first.

So a share needs no exact score of its own: it reports at every finished depth its best
exact score, or, if every move failed low against a published score, the largest upper
bound, marked not exact. The parent answers (`merge_root_shares`):

* a proven win from any worker (a winning move is a win whatever the other moves are),
  the quickest one; only an exact score proves a win;
* a proven loss only when every worker has proven its whole share lost (all root moves);
  an upper bound that is itself a loss proves that the share's moves are lost;
* otherwise, among the workers not yet proven lost, the deepest depth that all of them
  have finished, and there the best exact score. At one depth the best move's share
  scored it exactly, unless it failed low against an equal score that another share
  had published, so the best exact score there is the value one process would give
  after finishing that depth. Taking each worker's deepest depth and preferring the
  deeper one would ignore better moves that the shallower worker has found, so the
  iterations beyond the common depth are thrown away, as one process throws away its
  unfinished last iteration. A share proven lost counts as finished at every depth.

A worker that has proven a win stops everyone early once every other worker has
finished the depths where a quicker win would have shown (time-limited searches only:
with node or depth limits every worker runs to its end). The value at a fixed depth
does not depend on timing, but the nodes do, and so may the choice among equal moves.

Measured (2 workers, 2 cores, nodes to finish a depth on the slower worker, its waiting
counted as the other worker's nodes meanwhile; one search / that):

                                     split only     shared bounds
  Ayu 9x9 start, depth 4-5           1.5x           1.6-1.8x
  Ayu 9x9 after 20 random plies, 5-7 1.1-1.3x       1.6-1.8x
  Ahayuta after 12 plies (3), 5-10   1.0-1.4x       1.1-1.7x (1.1-1.4x at 9-10)
  Ahayuta after 30 plies, 7-10       0.4-1.0x       1.4-1.6x

Limits: the best move's own search (often 40-60% of an Ahayuta depth) is not shared,
and a worker misses the transpositions into the other shares' subtrees (Ayu: both
workers together search 1.1-1.3x the nodes of one search). A depth costs 2-5x the one
before, so at 2 s a move the finished depth was mostly the same (with a node budget
standing in for the time: one Ahayuta position of four one deeper). Searching the
previous depth's best move first in every worker measured no better (Ayu 9x9 start
depth 5: 81.8k against 79.2k nodes; Ahayuta depth 10: 71.5k against 69.9k).
"""

from __future__ import annotations

import atexit
import multiprocessing
import queue as queue_module
import random
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from engine.ai.alphabeta import MATE, MATE_ZONE, NO_BOUND, Iteration, proven_root, score_value
from engine.ai.common import (
    Candidate,
    Clock,
    ProgressCallback,
    SearchInfo,
    SearchLimits,
    SearchResult,
    StopCheck,
    never_stop,
    verdict_text,
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
    share: tuple[int, int] = (0, 1)  # alpha-beta: this worker's share of the root moves


# One finished depth of a worker's alpha-beta search: depth, best move, its score among
# the worker's share of the root moves, principal variation (moves as text), and whether
# the score is exact (False: every move of the share failed low against the shared bound,
# and the score is an upper bound for all of them; see `alphabeta.Iteration`).
ShareIteration = tuple[int, str, int, tuple[str, ...], bool]
ALPHA_BETA_KINDS = ("alphabeta", "ayu")
ROOT_SLOTS = 65  # shared root bounds for depths 1-64 (the searchers' default max_depth)
_SLOT = 3  # per depth: task id, best exact score, its root move's index
_STATUS = 3  # per worker: task id, depth it works on (0: its search is over), waiting
MAX_WORKERS = 16
MAX_ROOT_MOVES = 512  # root moves beyond this many are never taken over by another worker


def shared_root_arrays(context: Any) -> tuple[Any, Any]:
    """The shared memory of `SharedRootBounds` (a pool makes it once, for all tasks)."""
    array = context.Array("q", _SLOT * ROOT_SLOTS + _STATUS * MAX_WORKERS)  # with a lock
    claims = context.Array("q", ROOT_SLOTS * MAX_ROOT_MOVES, lock=False)  # under that lock
    return array, claims


class SharedRootBounds:
    """`alphabeta.RootBounds` in shared memory, for worker `share` of one task.

    `array` (with its lock) holds per depth the id of the task that wrote it, the best
    exact root score published at that depth and its move's index in the common root
    order; then per worker its task id, the depth it works on and whether it waits.
    `claims` (guarded by the same lock) holds per depth and root move the id of the task
    in which a worker has taken it. Whatever an earlier task wrote counts as empty, so
    nothing needs a reset between tasks (and a late write of a stopped task cannot leak
    into the next one). Every read and read-modify-write takes the lock.
    """

    def __init__(self, array: Any, claims: Any, task_id: int, share: int) -> None:
        self.array = array
        self.claims = claims
        self.task_id = task_id
        self.share = share

    def best(self, depth: int) -> tuple[int, int]:
        if not 0 < depth < ROOT_SLOTS:
            return NO_BOUND, -1
        base = _SLOT * depth
        with self.array.get_lock():
            raw = self.array.get_obj()
            if raw[base] != self.task_id:
                return NO_BOUND, -1
            return raw[base + 1], raw[base + 2]

    def offer(self, depth: int, score: int, index: int) -> None:
        if not 0 < depth < ROOT_SLOTS:
            return
        base = _SLOT * depth
        with self.array.get_lock():
            raw = self.array.get_obj()
            if raw[base] != self.task_id or score > raw[base + 1]:
                raw[base], raw[base + 1], raw[base + 2] = self.task_id, score, index

    def _status(self, share: int) -> int:
        return _SLOT * ROOT_SLOTS + _STATUS * share

    def begin(self, depth: int, index: int) -> None:
        base = self._status(self.share)
        with self.array.get_lock():
            raw = self.array.get_obj()
            raw[base], raw[base + 1], raw[base + 2] = self.task_id, depth, 0
            if 0 < depth < ROOT_SLOTS and 0 <= index < MAX_ROOT_MOVES:
                self.claims[depth * MAX_ROOT_MOVES + index] = self.task_id

    def claim(self, depth: int, index: int, own: bool) -> bool:
        if not (0 < depth < ROOT_SLOTS and 0 <= index < MAX_ROOT_MOVES):
            return own  # beyond the table: only the move's own share searches it
        slot = depth * MAX_ROOT_MOVES + index
        with self.array.get_lock():
            if self.claims[slot] == self.task_id:
                return False
            self.claims[slot] = self.task_id
            return True

    def started(self, share: int, depth: int) -> bool:
        base = self._status(share)
        with self.array.get_lock():
            raw = self.array.get_obj()
            return bool(raw[base] == self.task_id and raw[base + 1] >= depth)

    def waiting(self, flag: bool) -> None:
        base = self._status(self.share)
        with self.array.get_lock():
            self.array.get_obj()[base + 2] = int(flag)

    def may_publish(self, depth: int) -> bool:
        with self.array.get_lock():
            raw = self.array.get_obj()
            for share in range(MAX_WORKERS):
                base = self._status(share)
                if share != self.share and raw[base] == self.task_id and (
                    0 < raw[base + 1] < depth or (raw[base + 1] == depth and not raw[base + 2])
                ):
                    return True
            return False

    def end(self) -> None:
        base = self._status(self.share)
        with self.array.get_lock():
            raw = self.array.get_obj()
            raw[base + 1] = raw[base + 2] = 0


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
    # Alpha-beta: every depth finished so far (so the newest report holds them all).
    iterations: tuple[ShareIteration, ...] = ()


ReportCallback = Callable[[_WorkerReport, dict[int, _WorkerReport]], bool]


def _worker_loop(
    index: int, tasks: Any, results: Any, stop_id: Any, root_bounds: Any, claims: Any
) -> None:
    """Top-level, so that 'spawn' can import it: runs searches until told to quit (None).

    Each worker has its own task queue: with one shared queue a quick worker could take
    its neighbour's task too, and the parent would wait for a report that never comes.
    """
    from engine.ai.alphabeta import AlphaBetaSearcher, AlphaBetaSettings
    from engine.ai.ayu_search import AyuSearcher, AyuSearchSettings
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
                AlphaBetaSearcher(AlphaBetaSettings(root_share=task.share))
                if task.kind == "alphabeta"
                else AyuSearcher(AyuSearchSettings(root_share=task.share))
                if task.kind == "ayu"
                else MctsSearcher(mcts_settings(position.game.name))
            )
            extra: dict[str, Any] = {}
            done: list[ShareIteration] = []
            if task.kind in ALPHA_BETA_KINDS:

                def note(iteration: Iteration, done: list[ShareIteration] = done) -> None:
                    done.append((
                        iteration.depth, iteration.best_move.to_text(), iteration.score,
                        tuple(m.to_text() for m in iteration.pv), iteration.exact,
                    ))

                extra["on_iteration"] = note
                if 1 < task.share[1] <= MAX_WORKERS:  # (more: the split without sharing)
                    extra["root_bounds"] = SharedRootBounds(
                        root_bounds, claims, task.task_id, task.share[0]
                    )

            def should_stop(task: _Task = task) -> bool:
                return stop_id.value >= task.task_id or (
                    task.deadline is not None and time.time() >= task.deadline
                )

            def progress(
                info: SearchInfo, task: _Task = task, done: list[ShareIteration] = done
            ) -> None:
                results.put(
                    _WorkerReport(
                        task.task_id, index, False, info.best_move or None, info.value,
                        info.pv, (), info.nodes, info.depth, None, None, "", tuple(done),
                    )
                )

            # The shared deadline ends the search; the worker's own time limit is only a
            # safety net a little later.
            limits = task.limits
            own_limits = replace(limits, time=limits.time + 1.0) if limits.time else limits
            result = searcher.search(
                position, task.history, own_limits,
                should_stop=should_stop, on_progress=progress, rng=random.Random(task.seed),
                **extra,
            )
            results.put(
                _WorkerReport(
                    task.task_id, index, True,
                    result.best_move.to_text() if result.best_move else None,
                    result.value,
                    tuple(m.to_text() for m in result.pv),
                    tuple((c.move.to_text(), c.share, c.value) for c in result.candidates),
                    result.nodes, result.depth, result.proven_result, result.proven_plies,
                    "", tuple(done),
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
        self._root_bounds: Any = None
        self._claims: Any = None
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
        self._root_bounds, self._claims = shared_root_arrays(context)
        self._processes = [
            context.Process(
                target=_worker_loop,
                args=(
                    i, self._tasks[i], self._results, self._stop_id, self._root_bounds,
                    self._claims,
                ),
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
        make_task: Callable[[int, int], _Task],
        should_stop: StopCheck,
        on_report: ReportCallback | None = None,
    ) -> dict[int, _WorkerReport]:
        """Runs one task on every worker; returns each worker's newest report.

        That is its final report, or its latest progress report if the search was stopped
        and the final one did not come in time. `on_report(report, newest)` hears of every
        report as it comes; if it returns True the answer is settled and the workers are
        stopped as if the caller had said so.
        """
        with self._lock:
            self._ensure_started()
            self._next_id += 1
            task_id = self._next_id
            for index, tasks in enumerate(self._tasks):
                tasks.put(make_task(task_id, index))
            newest: dict[int, _WorkerReport] = {}
            finals = 0
            stopped_at: float | None = None
            while finals < self.workers:
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
                newest[report.index] = report  # a worker's final report comes last
                finals += report.final
                if on_report is not None and on_report(report, newest) and stopped_at is None:
                    self._stop_id.value = task_id
                    stopped_at = time.perf_counter()
            # Whatever is still running stops now; its late reports are skipped next time.
            self._stop_id.value = task_id
            return newest


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
        clock = Clock()
        if not position.legal_moves():
            return SearchResult(None, 0.5, (), (), 0, 0.0)
        deadline = None if limits.time is None else time.time() + limits.time
        seeds = [rng.getrandbits(32) for _ in range(self.workers)]
        text = position.to_text()
        # The position's own pushed history travels too: the text alone would forget it.
        keys = (*history, *position.history_keys())
        split = self.kind in ALPHA_BETA_KINDS
        workers = self.workers

        def make_task(task_id: int, index: int) -> _Task:
            return _Task(
                task_id, text, keys, limits, self.kind, seeds[index], deadline,
                (index, workers) if split else (0, 1),
            )

        def on_report(report: _WorkerReport, newest: dict[int, _WorkerReport]) -> bool:
            shares = [newest[i].iterations if i in newest else () for i in range(workers)]
            if on_progress is not None and not report.final and clock.report_due():
                info = self._progress(report, newest, shares, clock.elapsed())
                if info is not None:
                    on_progress(info)
            # A proven win ends a timed search early (see the module notes).
            return split and limits.time is not None and root_shares_settled(shares)

        newest = shared_pool(workers).run(make_task, should_stop, on_report)
        errors = [r.error for r in newest.values() if r.final and r.error]
        if errors:
            raise EngineError(f"a search worker failed: {errors[0]}")
        if split:
            result = self._merge_shares(position, newest, clock.elapsed())
        else:
            finals = [r for r in newest.values() if r.final]
            reports = finals or [r for r in newest.values() if r.best]
            result = self._merge(position, reports, clock.elapsed()) if reports else None
        if result is None:
            # Stopped before any worker said anything: any legal move is better than none.
            move = position.legal_moves()[0]
            return SearchResult(move, 0.5, (move,), (), 0, clock.elapsed())
        if on_progress is not None:
            on_progress(result.info())
        return result

    def _progress(
        self, report: _WorkerReport, newest: dict[int, _WorkerReport],
        shares: list[tuple[ShareIteration, ...]], elapsed: float,
    ) -> SearchInfo | None:
        nodes = sum(r.nodes for r in newest.values())
        rate = nodes / elapsed if elapsed > 0 else 0.0
        if self.kind not in ALPHA_BETA_KINDS:
            return SearchInfo(
                report.best or "", report.value, report.pv, nodes, rate, elapsed, "",
                report.depth,
            )
        merged = merge_root_shares(shares)
        if merged is None:
            return None
        return SearchInfo(
            merged.best, score_value(merged.score), merged.pv, nodes, rate, elapsed,
            verdict_text(merged.proven_result, merged.proven_plies), merged.depth,
        )

    def _merge_shares(
        self, position: Position, newest: dict[int, _WorkerReport], elapsed: float
    ) -> SearchResult | None:
        shares = [newest[i].iterations if i in newest else () for i in range(self.workers)]
        merged = merge_root_shares(shares)
        if merged is None:
            return None
        parse = position.game.parse_move
        best = parse(merged.best)
        pv = tuple(parse(m) for m in merged.pv) or (best,)
        share = 1.0 / len(merged.candidates)
        candidates = tuple(
            Candidate(parse(m), share, score_value(score)) for m, score in merged.candidates
        )
        return SearchResult(
            best, score_value(merged.score), pv, candidates,
            sum(r.nodes for r in newest.values()), elapsed, merged.depth,
            merged.proven_result, merged.proven_plies,
        )

    def _merge(
        self, position: Position, reports: list[_WorkerReport], elapsed: float
    ) -> SearchResult:
        """MCTS: a proof from any worker, else the visits of all workers summed."""
        parse = position.game.parse_move
        nodes = sum(r.nodes for r in reports)
        proven = [r for r in reports if r.proven_result is not None]
        if proven:
            # A proof from any worker is a proof: prefer a win, then the quickest one.
            chosen = max(proven, key=lambda r: (r.proven_result or 0, -(r.proven_plies or 0)))
            return self._from_report(parse, chosen, nodes, elapsed)
        if not any(r.candidates for r in reports):
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


@dataclass(frozen=True)
class MergedRoot:
    """The root's answer from the workers' shares (moves as text, scores as integers)."""

    depth: int
    best: str
    score: int
    pv: tuple[str, ...]
    proven_result: int | None
    proven_plies: int | None
    candidates: tuple[tuple[str, int], ...]  # each share's best at `depth`, best first


def merge_root_shares(shares: Sequence[Sequence[ShareIteration]]) -> MergedRoot | None:
    """The answer from every worker's finished depths (see the module notes).

    `shares` has one entry per worker, in worker order: its finished depths, shallowest
    first (empty if it has finished none). None if no worker has finished a depth.
    """
    last = [share[-1] for share in shares if share]
    wins = [it for it in last if it[4] and it[2] >= MATE_ZONE]
    if wins:
        # The quickest win; on a tie the shallowest depth, then the first worker's.
        quickest = max(wins, key=lambda it: (it[2], -it[0]))
        return _merged(quickest, [quickest], 1)
    alive = [share for share in shares if share and share[-1][2] > -MATE_ZONE]
    if not alive:
        if not last:
            return None
        # Every share that has reported is lost; the slowest loss delays the most. It is a
        # proven loss only if every worker has reported, i.e. every root move is lost.
        # (A share lost by an upper bound failed low against another share's exact loss,
        # so the largest score is exact.)
        slowest = max(last, key=lambda it: (it[2], it[4]))
        return _merged(slowest, [slowest], -1 if len(last) == len(shares) else None)
    depth = min(share[-1][0] for share in alive)
    at_depth = [next(it for it in share if it[0] == depth) for share in alive]
    # The best exact score is the root's value: the best move's share scored it exactly,
    # unless it failed low against an equal score another share had published. Upper
    # bounds come last (none is exact only if the share that published the best score
    # there has not reported yet, or has since been proven lost).
    ranked = sorted(at_depth, key=lambda it: (it[4], it[2]), reverse=True)  # stable
    return _merged(ranked[0], ranked, None)


def _merged(
    chosen: ShareIteration, ranked: Sequence[ShareIteration], proven: int | None
) -> MergedRoot:
    depth, best, score, pv, _ = chosen
    candidates: dict[str, int] = {}
    for _, move, move_score, _, _ in ranked:
        candidates.setdefault(move, move_score)
    return MergedRoot(
        depth, best, score, pv, proven,
        MATE - abs(score) if proven is not None else None, tuple(candidates.items()),
    )


def root_shares_settled(shares: Sequence[Sequence[ShareIteration]]) -> bool:
    """Whether a proven win settles the answer before the other workers finish.

    A win in p plies shows at depth p at the latest, so once every other worker has
    finished depth p-1 (or proven its own share) no quicker win can turn up.
    """
    last = [share[-1] for share in shares if share]
    wins = [it for it in last if it[4] and it[2] >= MATE_ZONE]
    if not wins:
        return False
    plies = min(MATE - it[2] for it in wins)
    return all(
        (share[-1][0] if share else 0) >= plies - 1
        or (bool(share) and proven_root(share[-1][2], share[-1][4]))
        for share in shares
    )
