"""The alpha-beta root split: worker processes share the root moves, the parent merges.

MCTS workers (engine/ai/parallel.py) search the whole tree with different seeds, but
the alpha-beta searchers ("alphabeta", "ayu") split the root moves instead, since
identical deterministic searches would only repeat each other: worker k of N searches
share k (`root_share.root_share`), moves k, k+N, k+2N, ... of the common ordering. Each
worker deepens on its own share, with its own table and its own move ordering (its best
move first). Through shared memory (`SharedRootBounds`, made once by the pool, each
slot marked with the task id so that nothing needs a reset) the workers tell each other,
per depth, the best exact root score found so far, which root moves are taken, and which
depth each is working on (`root_share.SharedRootSearch`):

* before each root move a worker raises its alpha to the best published score at that
  depth, and publishes a new exact best (read-max-write under the array's lock); equal
  scores go to the move earlier in the common order, as one search keeps the first of
  equal moves (before this rule, the choice among equal moves, such as Ahayuta's drops,
  depended on timing);
* the worker that holds the previous depth's best move searches it first with the full
  window; the others search with a guess as alpha (the published score two depths back)
  until a score is published, and at the end of the depth make sure the score is at
  least the guess (waiting for it while another worker may still publish one, checking
  the stop flag), searching again any move whose bound is above it;
* a worker that has finished its own moves takes over untaken moves of the workers on
  the same depth, the least promising first.

So a share needs no exact score of its own: it reports at every finished depth its best
exact score, or, if a move failed low against a published score above that, the largest
upper bound, marked not exact (a share whose first move lost outright must not call its
whole share lost). The parent answers (`merge_root_shares`):

* a proven win from any worker (a winning move is a win whatever the other moves are),
  the quickest one; only an exact score proves a win;
* a proven loss only when every worker has proven its whole share lost (all root moves);
  an upper bound that is itself a loss proves that the share's moves are lost;
* otherwise, among the workers not yet proven lost, the deepest depth that all of them
  have finished, and there the best exact score (on a tie the move earlier in the
  common order). At one depth the best move's share scored it exactly, unless it
  failed low against an equal score that another share had published, so the best
  exact score there is the value one process would give after finishing that depth.
  Taking each worker's deepest depth and preferring the deeper one would ignore better
  moves that the shallower worker has found, so the iterations beyond the common depth
  are thrown away, as one process throws away its unfinished last iteration. A share
  proven lost counts as finished at every depth; a worker whose searched moves all
  lose while another worker took some of its share proves nothing, and that depth
  counts as unfinished.

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

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from engine.ai.common import Candidate, SearchInfo, SearchResult, verdict_text
from engine.ai.root_share import Iteration
from engine.ai.search_scores import MATE, MATE_ZONE, NO_BOUND, proven_root, score_value
from engine.core import Position


class ShareIteration(NamedTuple):
    """One finished depth of a worker's alpha-beta search (moves as text)."""

    depth: int
    move: str  # the best move among the worker's share of the root moves
    score: int
    pv: tuple[str, ...]
    # False: the score is only an upper bound for the share's moves, some of which failed
    # low against another share's published score (see `root_share.Iteration`).
    exact: bool
    rank: int  # the move's place in the common root order: equal scores go to the earlier


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
    """`root_share.RootBounds` in shared memory, for worker `share` of one task.

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
            # Equal scores go to the move earlier in the common order, as in one search.
            if raw[base] != self.task_id or score > raw[base + 1] or (
                score == raw[base + 1] and index < raw[base + 2]
            ):
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



# Whether workers share root bounds (False: they only split the root). Off for a while
# because two workers now and then answered "proven loss in 1" in a won position: a share
# whose first move lost outright reported that loss as exact although its other moves had
# only failed low against another share's higher score (fixed in `SharedRootSearch`).
SHARE_ROOT_BOUNDS = True


def share_search_options(
    task_id: int, share: tuple[int, int], array: Any, claims: Any, done: list[ShareIteration]
) -> dict[str, Any]:
    """A worker's extra arguments to the alpha-beta searcher of its `share` (index, count).

    Every finished depth is noted in `done` (for the worker's reports); the shared root
    bounds (`array`, `claims` from `shared_root_arrays`) come with up to `MAX_WORKERS`
    shares (more: the split without sharing).
    """

    def note(iteration: Iteration) -> None:
        done.append(ShareIteration(
            iteration.depth, iteration.best_move.to_text(), iteration.score,
            tuple(m.to_text() for m in iteration.pv), iteration.exact, iteration.rank,
        ))

    options: dict[str, Any] = {"on_iteration": note}
    if SHARE_ROOT_BOUNDS and 1 < share[1] <= MAX_WORKERS:
        options["root_bounds"] = SharedRootBounds(array, claims, task_id, share[0])
    return options


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
    wins = [it for it in last if it.exact and it.score >= MATE_ZONE]
    if wins:
        # The quickest win; on a tie the shallowest depth, then the first worker's.
        quickest = max(wins, key=lambda it: (it.score, -it.depth))
        return _merged(quickest, [quickest], 1)
    alive = [share for share in shares if share and share[-1].score > -MATE_ZONE]
    if not alive:
        if not last:
            return None
        # Every share that has reported is lost; the slowest loss delays the most. It is a
        # proven loss only if every worker has reported, i.e. every root move is lost.
        # (A share lost by an upper bound failed low against another share's exact loss,
        # so the largest score is exact.)
        slowest = max(last, key=lambda it: (it.score, it.exact))
        return _merged(slowest, [slowest], -1 if len(last) == len(shares) else None)
    depth = min(share[-1].depth for share in alive)
    at_depth = [next(it for it in share if it.depth == depth) for share in alive]
    # The best exact score is the root's value: the best move's share scored it exactly,
    # unless it failed low against an equal score another share had published. Upper
    # bounds come last (none is exact only if the share that published the best score
    # there has not reported yet, or has since been proven lost).
    ranked = sorted(at_depth, key=lambda it: (it.exact, it.score, -it.rank), reverse=True)
    return _merged(ranked[0], ranked, None)


def _merged(
    chosen: ShareIteration, ranked: Sequence[ShareIteration], proven: int | None
) -> MergedRoot:
    depth, best, score, pv = chosen.depth, chosen.move, chosen.score, chosen.pv
    candidates: dict[str, int] = {}
    for it in ranked:
        candidates.setdefault(it.move, it.score)
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
    wins = [it for it in last if it.exact and it.score >= MATE_ZONE]
    if not wins:
        return False
    plies = min(MATE - it.score for it in wins)
    return all(
        (share[-1].depth if share else 0) >= plies - 1
        or (bool(share) and proven_root(share[-1].score, share[-1].exact))
        for share in shares
    )


def merged_info(
    shares: Sequence[Sequence[ShareIteration]], nodes: int, rate: float, elapsed: float
) -> SearchInfo | None:
    """Progress from the workers' finished depths so far; None before the first one."""
    merged = merge_root_shares(shares)
    if merged is None:
        return None
    return SearchInfo(
        merged.best, score_value(merged.score), merged.pv, nodes, rate, elapsed,
        verdict_text(merged.proven_result, merged.proven_plies), merged.depth,
    )


def merged_result(
    position: Position, shares: Sequence[Sequence[ShareIteration]], nodes: int,
    elapsed: float,
) -> SearchResult | None:
    """The search's result from the workers' finished depths; None if there are none."""
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
        best, score_value(merged.score), pv, candidates, nodes, elapsed, merged.depth,
        merged.proven_result, merged.proven_plies,
    )
