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
summing each root move's visits (shares times iterations) over the moves that no worker
has proven lost.

The alpha-beta searchers ("alphabeta", "ayu") split the root moves instead, share each
depth's best root score through shared memory and are merged by depth; that scheme and
its measurements are in engine/ai/root_split.py. The pool makes the shared memory once.
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
from typing import TYPE_CHECKING, Any

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
from engine.ai.endgame import ProofSearcher, SolverFirstSearcher, prover_wanted
from engine.ai.policies import policy_for
from engine.ai.root_split import (
    ALPHA_BETA_KINDS,
    ShareIteration,
    merged_info,
    merged_result,
    root_shares_settled,
    share_search_options,
    shared_root_arrays,
)
from engine.core import EngineError, Move, Position

if TYPE_CHECKING:
    from engine.ai.alphabeta import AlphaBetaSettings
    from engine.ai.ayu_search import AyuSearchSettings
    from engine.ai.mcts import MctsSettings

POLL_SECONDS = 0.002
PARENT_CHECK_SECONDS = 1.0  # how often an idle worker checks that its parent still lives
FINAL_REPORT_GRACE = 0.012  # how long a stopped search waits for the workers' last words
SOLVER_PAIR = "mcts+solver"  # MCTS workers, and near the end the game's prover
SOLVER_KIND = "solver"
# MCTS told which root moves lose: near the end the prover first, then MCTS, on one core
# (endgame.SolverFirstSearcher), beside the SOLVER_KIND worker.
PROVER_FIRST_KIND = "prover-first"
PROVING_KINDS = frozenset({SOLVER_KIND, PROVER_FIRST_KIND})


def _preferred_proof(proven: list[_WorkerReport]) -> _WorkerReport:
    """Of the workers' proven results, a win first, then the quickest."""
    return max(proven, key=lambda r: (r.proven_result or 0, -(r.proven_plies or 0)))


def _first_unrefuted(position: Position, lost: set[str]) -> Move | None:
    """The first legal move in the policy's order that no worker has proven lost (moves
    as text in `lost`), or None if every move is."""
    unrefuted = [m for m in position.legal_moves() if m.to_text() not in lost]
    return policy_for(position.game).order_moves(position, unrefuted)[0] if unrefuted else None


@dataclass(frozen=True)
class _Task:
    task_id: int
    text: str
    history: tuple[int, ...]
    limits: SearchLimits
    kind: str
    seed: int
    deadline: float | None  # wall clock (time.time()), shared by all workers
    # Alpha-beta, or provers side by side: this worker's share of the root moves.
    share: tuple[int, int] = (0, 1)
    # The searcher's settings (alpha-beta: the worker sets its share); None: the defaults.
    settings: AlphaBetaSettings | AyuSearchSettings | MctsSettings | None = None
    prover_share: float = 0.0  # PROVER_FIRST_KIND: the prover's part of the time
    first_reach: int | None = None  # PROVER_FIRST_KIND: where it proves (None: the policy's)


@dataclass(frozen=True)
class _WorkerReport:
    """A worker's result or progress as plain values (moves as text)."""

    task_id: int
    index: int
    final: bool
    best: str | None
    value: float
    pv: tuple[str, ...]
    candidates: tuple[tuple[str, float, float, int | None], ...]  # move, share, value, proof
    nodes: int
    depth: int
    proven_result: int | None
    proven_plies: int | None
    error: str = ""
    # Alpha-beta: every depth finished so far (so the newest report holds them all).
    iterations: tuple[ShareIteration, ...] = ()


ReportCallback = Callable[[_WorkerReport, dict[int, _WorkerReport]], bool]


def _task_searcher(task: _Task, position: Position, prover: ProofSearcher) -> Any:
    """The searcher a worker runs `task` with; `prover` is the worker's own, which keeps
    its tables from one task to the next."""
    from engine.ai.alphabeta import AlphaBetaSearcher, AlphaBetaSettings
    from engine.ai.ayu_search import AyuSearcher, AyuSearchSettings
    from engine.ai.levels import mcts_settings
    from engine.ai.mcts import MctsSearcher, MctsSettings

    settings = task.settings
    if task.kind == "alphabeta":
        own = settings if isinstance(settings, AlphaBetaSettings) else AlphaBetaSettings()
        return AlphaBetaSearcher(replace(own, root_share=task.share))
    if task.kind == "ayu":
        ayu = settings if isinstance(settings, AyuSearchSettings) else AyuSearchSettings()
        return AyuSearcher(replace(ayu, root_share=task.share))
    if task.kind == SOLVER_KIND:
        return prover
    mcts = MctsSearcher(
        settings if isinstance(settings, MctsSettings) else mcts_settings(position.game.name)
    )
    if task.kind == PROVER_FIRST_KIND:
        return SolverFirstSearcher(
            mcts, task.prover_share, task.first_reach, prover=prover,
            prover_root_share=task.share,
        )
    return mcts


def _worker_loop(
    index: int, tasks: Any, results: Any, stop_id: Any, root_bounds: Any, claims: Any
) -> None:
    """Top-level, so that 'spawn' can import it: runs searches until told to quit (None).

    Each worker has its own task queue: with one shared queue a quick worker could take
    its neighbour's task too, and the parent would wait for a report that never comes.
    """
    from engine.registry import parse_position

    parent = multiprocessing.parent_process()
    prover = ProofSearcher()  # one for the worker's life: it keeps its table between moves
    while True:
        try:
            task = tasks.get(timeout=PARENT_CHECK_SECONDS)
        except queue_module.Empty:
            # A parent killed without shutting the pool down leaves no one to say None.
            if parent is not None and not parent.is_alive():
                return
            continue
        if task is None:
            return
        try:
            position = parse_position(task.text)
            searcher = _task_searcher(task, position, prover)
            done: list[ShareIteration] = []
            extra = (
                share_search_options(task.task_id, task.share, root_bounds, claims, done)
                if task.kind in ALPHA_BETA_KINDS
                else {"root_share": task.share}
                if task.kind == SOLVER_KIND
                else {}
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
            if task.kind == PROVER_FIRST_KIND:
                own_limits = limits  # its prover's part is a share of the real time
            result = searcher.search(
                position, task.history, own_limits,
                should_stop=should_stop,
                # A prover's progress names no move: the parent would only drop it.
                on_progress=None if task.kind == SOLVER_KIND else progress,
                rng=random.Random(task.seed),
                **extra,
            )
            results.put(
                _WorkerReport(
                    task.task_id, index, True,
                    result.best_move.to_text() if result.best_move else None,
                    result.value,
                    tuple(m.to_text() for m in result.pv),
                    tuple(
                        (c.move.to_text(), c.share, c.value, c.proof) for c in result.candidates
                    ),
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
            if process.pid is None:
                continue  # never started (its start failed): nothing to join
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
    """The game's searcher run in `workers` processes behind the common `search` call.

    `reach` moves where the SOLVER_PAIR's prover joins (`GamePolicy.endgame_near`);
    `settings` are the searcher settings (None: the game's defaults) every worker uses,
    the alpha-beta kinds with their own share of the root moves. With `prover_share`, the
    SOLVER_PAIR's MCTS workers prove first for that part of the time near the end
    (PROVER_FIRST_KIND; within `first_reach`, None: the policy's threshold), so that MCTS
    leaves the moves proven lost alone."""

    def __init__(
        self, game_name: str, kind: str, workers: int, reach: int | None = None,
        settings: AlphaBetaSettings | AyuSearchSettings | MctsSettings | None = None,
        prover_share: float | None = None,
        first_reach: int | None = None,
    ) -> None:
        self.game_name = game_name
        self.kind = kind
        self.workers = max(1, workers)
        self.reach = reach
        self.settings = settings
        self.prover_share = prover_share
        self.first_reach = first_reach

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
        kinds = self._kinds(position, limits)
        shared = split or self._provers_split(position, limits, kinds)

        def make_task(task_id: int, index: int) -> _Task:
            return _Task(
                task_id, text, keys, limits, kinds[index], seeds[index], deadline,
                (index, workers) if shared else (0, 1), self.settings,
                self.prover_share or 0.0, self.first_reach,
            )

        def shares_of(newest: dict[int, _WorkerReport]) -> list[tuple[ShareIteration, ...]]:
            """Each worker's finished alpha-beta depths so far, in worker order."""
            return [newest[i].iterations if i in newest else () for i in range(workers)]

        def on_report(report: _WorkerReport, newest: dict[int, _WorkerReport]) -> bool:
            shares = shares_of(newest)
            if on_progress is not None and not report.final and clock.report_due():
                info = self._progress(report, newest, shares, clock.elapsed())
                if info is not None:
                    on_progress(info)
            # A proven result ends a timed search early (see engine/ai/root_split.py for
            # the split root, where one share's proof is not the root's).
            if split:
                return limits.time is not None and root_shares_settled(shares)
            return report.final and report.proven_result is not None

        newest = shared_pool(workers).run(make_task, should_stop, on_report)
        errors = [r.error for r in newest.values() if r.final and r.error]
        if errors:
            raise EngineError(f"a search worker failed: {errors[0]}")
        if split:
            nodes = sum(r.nodes for r in newest.values())
            result = merged_result(position, shares_of(newest), nodes, clock.elapsed())
        else:
            finals = [r for r in newest.values() if r.final]
            # A prover that proved nothing names no move (engine/ai/endgame.py).
            voters = [r for r in finals if r.best] or [r for r in newest.values() if r.best]
            result = self._merge(position, voters, finals, clock.elapsed()) if voters else None
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
        split = self.kind in ALPHA_BETA_KINDS
        # MCTS iterations only, as in the final merge: a prover's nodes are another unit.
        nodes = sum(r.nodes for r in newest.values() if split or r.best)
        rate = nodes / elapsed if elapsed > 0 else 0.0
        if not split:
            return SearchInfo(
                report.best or "", report.value, report.pv, nodes, rate, elapsed, "",
                report.depth,
            )
        return merged_info(shares, nodes, rate, elapsed)

    def _kinds(self, position: Position, limits: SearchLimits) -> list[str]:
        """Each worker's searcher: with "mcts+solver", near the end of a timed search the
        last worker runs the game's prover (engine/ai/endgame.py) and the others MCTS, or
        with a `prover_share` MCTS after a proof of their own (PROVER_FIRST_KIND)."""
        if self.kind != SOLVER_PAIR:
            return [self.kind] * self.workers
        kinds = ["mcts" if self.prover_share is None else PROVER_FIRST_KIND] * self.workers
        if prover_wanted(position, limits, self.reach):
            kinds[-1] = SOLVER_KIND
        return kinds

    def _provers_split(self, position: Position, limits: SearchLimits, kinds: list[str]) -> bool:
        """Whether every worker proves here, so that they split the root (BugProver)."""
        return all(kind in PROVING_KINDS for kind in kinds) and prover_wanted(
            position, limits, self.first_reach
        )

    def _merge(
        self, position: Position, reports: list[_WorkerReport],
        finals: list[_WorkerReport], elapsed: float,
    ) -> SearchResult:
        """MCTS: a proof from any worker, else the visits of all workers summed over the
        moves that no worker has proven lost (summed visits would favour a move that one
        worker searched a lot before refuting it). `reports` name a move; `finals` are
        every final report, a prover's among them. The nodes are the MCTS iterations:
        a prover's alpha-beta nodes are another unit."""
        parse = position.game.parse_move
        nodes = sum(r.nodes for r in reports)
        proven = [r for r in reports if r.proven_result is not None]
        if proven:
            # A proof from any worker is a proof: prefer a win, then the quickest one.
            chosen = _preferred_proof(proven)
            return self._from_report(parse, chosen, nodes, elapsed)
        if not any(r.candidates for r in reports):
            deepest = max(reports, key=lambda r: (r.depth, r.nodes))
            return self._from_report(parse, deepest, nodes, elapsed)
        lost = {
            move for r in reports + finals for move, _, _, proof in r.candidates if proof == -1
        }
        if all(move in lost for r in reports for move, _, _, _ in r.candidates):
            # The workers show only their top moves and those proven lost, so a move no one
            # has refuted may be left unshown: any such move is better than a proven loss.
            first = _first_unrefuted(position, lost)
            if first is not None:
                return SearchResult(
                    first, 0.5, (first,), (Candidate(first, 0.0, 0.5),), nodes, elapsed,
                    max(r.depth for r in reports),
                )
            lost = set()  # every move is lost: rank them as they are
        visits: dict[str, float] = {}
        value_sum: dict[str, float] = {}
        for report in reports:
            for move, share, value, _ in report.candidates:
                if move in lost:
                    continue
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
            tuple(Candidate(parse(m), s, v, proof) for m, s, v, proof in report.candidates),
            nodes, elapsed, report.depth, report.proven_result, report.proven_plies,
        )
