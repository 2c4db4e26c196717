"""Alpha-beta (negamax) with iterative deepening and a transposition table.

Scores are integers for the side to move: the policy's evaluation mapped to ±1000, and
won positions as `MATE - plies` so that the quickest win and the slowest loss are
preferred and "proven win in N" can be read off the score. The table is keyed by
`position.key()`; repetition draws depend on the path, so a draw found through a
repetition may leak into other paths through the table (the usual compromise), but wins
and losses found without repetitions are exact.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol

from engine.ai.common import (
    Candidate,
    Clock,
    ProgressCallback,
    SearchLimits,
    SearchResult,
    StopCheck,
    never_stop,
    working_copy,
)
from engine.ai.policies import GamePolicy, policy_for
from engine.core import EngineError, Move, Position

MATE = 1_000_000
MATE_ZONE = MATE - 10_000
EXACT, LOWER, UPPER = 0, 1, 2


@dataclass(frozen=True)
class AlphaBetaSettings:
    max_depth: int = 64
    # Moves are ordered by the policy only this close to the root (ordering costs time).
    order_depth: int = 3
    # Root moves within this many points of the best get exact scores instead of bounds,
    # so that the soft levels choose among true values (0: plain alpha-beta at the root).
    root_margin: int = 0
    # Which of the root moves this search takes when worker processes split them
    # (engine/ai/parallel.py): share `index` of `count` (see `root_share`); (0, 1) is all.
    root_share: tuple[int, int] = (0, 1)


@dataclass(frozen=True)
class Iteration:
    """One finished iterative-deepening depth: the best of the root moves it searched.

    Without shared root bounds `score` is exact for `best_move` among `searched`: the
    first root move gets the full window and a later one only replaces it with an exact
    score above alpha. So searches of other shares of the root moves, at the same depth,
    compare by score directly. With shared bounds (`RootBounds`) a share may have no
    exact score of its own: every move failed low against another share's published
    score. Then `exact` is False and `score` is only an upper bound for every move of
    the share (the largest fail-soft bound, `best_move` the move that has it).
    """

    depth: int
    best_move: Move
    score: int
    pv: tuple[Move, ...]
    searched: tuple[Move, ...]
    exact: bool = True


IterationCallback = Callable[[Iteration], None]
NO_BOUND = -MATE - 1  # the lowest score: no root move has been scored yet
WAIT_SECONDS = 0.0005  # how often a waiting root share looks for the other shares' score


class RootBounds(Protocol):
    """What searches of the other root shares (worker processes) tell each other.

    Per depth: the best exact root score any share has found there and its move's index
    in the common root order (before `root_share`); which root moves are taken (each is
    searched by one share only); and per share the depth it is working on. A search that
    shares these (`TableReporting._shared_root`) raises its root alpha to the best
    published score, so that a move another share beats is refuted cheaply.
    """

    def best(self, depth: int) -> tuple[int, int]:
        """(score, index) of the best exact score published at `depth`; (NO_BOUND, -1)."""
        ...

    def offer(self, depth: int, score: int, index: int) -> None:
        """Publish an exact root score at `depth` if it is the best there so far."""
        ...

    def begin(self, depth: int, index: int) -> None:
        """This share starts `depth` and takes root move `index` (its first)."""
        ...

    def claim(self, depth: int, index: int, own: bool) -> bool:
        """Take root move `index` at `depth`; False if another share already has. `own`:
        the move is in this search's share (a move that cannot be shared goes to its
        own share only)."""
        ...

    def started(self, share: int, depth: int) -> bool:
        """Whether share `share` is working on `depth` or deeper (so its moves may be
        taken over at `depth`)."""
        ...

    def waiting(self, flag: bool) -> None:
        """This share waits (True) for a score at its depth, or no longer (False)."""
        ...

    def may_publish(self, depth: int) -> bool:
        """Whether another share may still publish a score at `depth`: one working on it
        or on a shallower depth, and not itself waiting."""
        ...

    def end(self) -> None:
        """This share's search is over (finished or stopped)."""
        ...


def root_share(moves: Sequence[Move], index: int, count: int) -> list[Move]:
    """Share `index` (0-based) of `count` of the ordered root moves: every `count`-th move
    from move `index`, so each share gets some of the most promising moves.

    Together the shares hold every move; one share is all of them. A share that would be
    empty (fewer moves than shares) takes the first move again, so that every search has
    something to report. Giving every share the first move as well (a good alpha from
    the start) measured no better, as that move's subtree is the costliest: nodes to
    finish depth 5-8 in three Ayu 9x9 and Ahayuta positions, one search divided by the
    slowest of 2 shares, were 1.00-1.55 (mean 1.26) this way and 1.00-1.55 (mean 1.22)
    with the first move in both shares.
    """
    if not 0 <= index < count:
        raise EngineError(f"root share {index} of {count} does not exist")
    return list(moves[index::count]) or list(moves[:1])


# One depth at the root: best score, its move, every searched move's score, exact or not.
RootScores = tuple[int, Move, dict[Move, int], bool]


def proven_root(score: int, exact: bool) -> bool:
    """Whether a root answer settles the game: an exact win or loss, or an upper bound
    that is itself a loss (every move of the share loses at least that quickly)."""
    return score <= -MATE_ZONE or (exact and score >= MATE_ZONE)


class _SearchStoppedError(Exception):
    """Raised inside the tree when the time, node budget or stop flag says so."""


class TableReporting:
    """The principal variation and the result, read back from a transposition table.

    Shared by the alpha-beta searchers; they provide `position`, `table`, `nodes`, `clock`.
    """

    position: Position
    table: dict[int, tuple[int, int, int, Move | None]]
    nodes: int
    clock: Clock
    root_bounds: RootBounds | None
    root_order: list[Move]  # every root move in the common order (before `root_share`)
    root_index: dict[Move, int]  # each root move's place in `root_order`
    share: tuple[int, int]  # this search's root share (index, count)
    stop_error: type[Exception]  # what the searcher raises to stop
    should_stop: StopCheck
    deadline: float | None

    def _stopped(self) -> bool:
        """The stop flag or the deadline (while a share waits, not counting nodes)."""
        deadline = self.deadline
        return self.should_stop() or (deadline is not None and time.perf_counter() >= deadline)

    def _root(self, moves: list[Move], depth: int) -> RootScores:
        raise NotImplementedError

    def _deepen(
        self, moves: list[Move], max_depth: int, on_progress: ProgressCallback | None,
        on_iteration: IterationCallback | None,
        reorder: Callable[[list[Move], Move, dict[Move, int]], list[Move]],
    ) -> SearchResult:
        """Iterative deepening over this search's root moves (`root_order` is set).

        `reorder(moves, best, scores)` orders the root moves for the next depth. With
        shared root bounds `best` may be a move taken over from another share, and
        `scores` may lack moves of this share that another took over.
        """
        self.root_index = {move: i for i, move in enumerate(self.root_order)}
        best_move: Move = moves[0]
        best_score = 0
        scores: dict[Move, int] = {}
        depth_done = 0
        proven = False
        try:
            for depth in range(1, max_depth + 1):
                try:
                    score, move, depth_scores, exact = self._root(moves, depth)
                except self.stop_error:
                    break
                best_move, best_score, scores, depth_done = move, score, depth_scores, depth
                moves = reorder(moves, best_move, depth_scores)
                if on_iteration is not None:
                    on_iteration(self._iteration(best_move, best_score, scores, depth, exact))
                if on_progress is not None:
                    on_progress(self._result(best_move, best_score, scores, depth_done).info())
                if proven_root(best_score, exact):
                    proven = True
                    break
        finally:
            if self.root_bounds is not None:
                self.root_bounds.end()
        result = self._result(best_move, best_score, scores, depth_done, proven)
        if on_progress is not None:
            on_progress(result.info())
        return result

    def _search_root(
        self, moves: list[Move], depth: int, score_move: Callable[[Move, int, int, int], int],
        margin: int,
    ) -> RootScores:
        """One depth at the root: (best score, its move, every move's score, True).

        `score_move(move, depth, alpha, beta)` is the move's fail-soft score for the
        mover. Root moves within `margin` of the best get exact scores (the soft levels).
        """
        if self.root_bounds is not None:
            return self._shared_root(moves, depth, score_move)
        alpha, beta = -MATE - 1, MATE + 1
        best_move = moves[0]
        scores: dict[Move, int] = {}
        for move in moves:
            floor = max(-MATE - 1, alpha - margin) if margin and alpha < MATE_ZONE else alpha
            score = score_move(move, depth, floor, beta)
            scores[move] = score
            if score > alpha:
                alpha, best_move = score, move
        return alpha, best_move, scores, True

    def _shared_root(
        self, moves: list[Move], depth: int, score_move: Callable[[Move, int, int, int], int]
    ) -> RootScores:
        """One depth at the root of this share, with the other shares (`RootBounds`).

        * Before each move alpha rises to the best exact score published at this depth;
          a new exact best is published.
        * The share that holds the previous depth's best move (the lead) searches it first
          with the full window. Until a score is published at this depth, the others
          search with a guess as alpha (the published score two depths back, else one),
          so that they need no exact score of their own: moves that fail low against the
          guess are refuted once the depth's score is at least the guess, and are searched
          again if it is not. To know, such a share waits at the end of the depth for a
          score, as long as another share may still publish one.
        * Having finished its own moves, a share takes over the untaken moves of shares
          that work on this depth too, the last of the common order first.

        The answer is the best exact score among the moves this share searched; if it
        has none (every move failed low against a published score), it is the largest
        upper bound, flagged not exact. Root margins do not apply here.
        """
        bounds = self.root_bounds
        assert bounds is not None
        order, index = self.root_order, self.root_index
        own = set(moves)
        beta = MATE + 1
        alpha = NO_BOUND  # the best exact score of this share
        best_move, exact = moves[0], False
        scores: dict[Move, int] = {}
        pending: list[Move] = []
        lead = bounds.best(depth - 1)[1] if depth > 1 else -1
        guess: int | None = None
        if lead >= 0 and order[lead] not in own:
            earlier = bounds.best(depth - 2)[0] if depth > 2 else NO_BOUND
            guess = earlier if earlier != NO_BOUND else bounds.best(depth - 1)[0]
        elif lead >= 0 and moves[0] != order[lead]:
            moves = [order[lead]] + [m for m in moves if m != order[lead]]

        def search(move: Move, speculate: bool) -> None:
            nonlocal alpha, best_move, exact
            floor = max(alpha, bounds.best(depth)[0])
            speculative = speculate and guess is not None and guess > floor and (
                bounds.best(depth)[0] == NO_BOUND
            )
            if speculative:
                assert guess is not None
                floor = guess
            score = score_move(move, depth, floor, beta)
            scores[move] = score
            if score > floor:
                alpha, best_move, exact = score, move, True
                bounds.offer(depth, score, index[move])
            elif speculative:
                pending.append(move)

        bounds.begin(depth, index[moves[0]])
        search(moves[0], True)
        for move in moves[1:]:
            if bounds.claim(depth, index[move], True):
                search(move, True)
        count = self.share[1]
        for i in range(len(order) - 1, -1, -1):
            move = order[i]
            if move not in own and bounds.started(i % count, depth) and (
                bounds.claim(depth, i, False)
            ):
                search(move, True)
        if any(scores[m] > max(alpha, bounds.best(depth)[0]) for m in pending):
            bounds.waiting(True)
            try:
                while bounds.best(depth)[0] == NO_BOUND and bounds.may_publish(depth):
                    if self._stopped():
                        raise self.stop_error
                    time.sleep(WAIT_SECONDS)
            finally:
                bounds.waiting(False)
            for move in pending:
                if scores[move] > max(alpha, bounds.best(depth)[0]):
                    search(move, False)
        if exact:
            return alpha, best_move, scores, True
        best_move, bound = max(scores.items(), key=lambda item: item[1])
        return bound, best_move, scores, False

    def _pv(self, first: Move) -> tuple[Move, ...]:
        position = self.position
        pv = [first]
        position.push(first)
        seen = {position.key()}
        while len(pv) < 12:
            entry = self.table.get(position.key())
            if entry is None or entry[3] is None or entry[3] not in position.legal_moves():
                break
            pv.append(entry[3])
            position.push(entry[3])
            if position.key() in seen:
                break
            seen.add(position.key())
        for _ in pv:
            position.pop()
        return tuple(pv)

    def _result(
        self, best: Move, score: int, scores: dict[Move, int], depth: int, proven: bool = False
    ) -> SearchResult:
        ranked = sorted(scores.items(), key=lambda item: item[1], reverse=True)
        # Every root move is searched to the same depth, so each gets an equal share; the
        # values of all but the best are fail-soft upper bounds (good enough to rank them).
        share = 1.0 / len(ranked) if ranked else 0.0
        candidates = tuple(Candidate(move, share, score_value(s)) for move, s in ranked[:8])
        proven_result = proven_plies = None
        if proven:
            proven_result = 1 if score > 0 else -1
            proven_plies = MATE - abs(score)
        return SearchResult(
            best, score_value(score), self._pv(best), candidates, self.nodes, self.clock.elapsed(),
            depth, proven_result, proven_plies,
        )

    def _iteration(
        self, best: Move, score: int, scores: dict[Move, int], depth: int, exact: bool = True
    ) -> Iteration:
        return Iteration(depth, best, score, self._pv(best), tuple(scores), exact)


class AlphaBetaSearcher:
    def __init__(self, settings: AlphaBetaSettings | None = None) -> None:
        self.settings = settings or AlphaBetaSettings()

    def search(
        self,
        position: Position,
        history: Sequence[int],
        limits: SearchLimits,
        *,
        should_stop: StopCheck | None = None,
        on_progress: ProgressCallback | None = None,
        rng: random.Random | None = None,
        on_iteration: IterationCallback | None = None,
        root_bounds: RootBounds | None = None,
    ) -> SearchResult:
        """The common search call; `on_iteration` also hears of every finished depth.

        `root_bounds` shares the best root score per depth with searches of the other
        root shares (worker processes, engine/ai/parallel.py); see `RootBounds`.
        """
        run = _Run(self.settings, working_copy(position, history), limits,
                   should_stop or never_stop, root_bounds)
        return run.go(on_progress, rng or random.Random(0), on_iteration)


class _Run(TableReporting):
    stop_error = _SearchStoppedError

    def __init__(
        self, settings: AlphaBetaSettings, position: Position, limits: SearchLimits,
        should_stop: StopCheck, root_bounds: RootBounds | None = None,
    ) -> None:
        self.settings = settings
        self.root_bounds = root_bounds
        self.share = settings.root_share
        self.position = position
        self.policy: GamePolicy = policy_for(position.game)
        self.limits = limits
        self.should_stop = should_stop
        self.table: dict[int, tuple[int, int, int, Move | None]] = {}
        self.nodes = 0
        self.clock = Clock()
        self.deadline = None if limits.time is None else self.clock.began + limits.time

    def go(
        self, on_progress: ProgressCallback | None, rng: random.Random,
        on_iteration: IterationCallback | None = None,
    ) -> SearchResult:
        position = self.position
        moves = position.legal_moves()
        if not moves:
            return SearchResult(None, 0.5, (), (), 0, 0.0)
        moves = self.policy.order_moves(position, moves)
        # A seeded shuffle of equal-looking moves would go here; the order is kept stable
        # instead, so that the same position always gets the same answer (and so that
        # every worker process cuts the same list into its root share).
        self.root_order = list(moves)
        max_depth = min(self.settings.max_depth, self.limits.depth or self.settings.max_depth)
        return self._deepen(
            root_share(moves, *self.settings.root_share), max_depth, on_progress, on_iteration,
            lambda moves, best, scores: [best] + [m for m in moves if m != best]
            if best in moves else moves,
        )

    def _root(self, moves: list[Move], depth: int) -> RootScores:
        return self._search_root(moves, depth, self._root_move, self.settings.root_margin)

    def _root_move(self, move: Move, depth: int, alpha: int, beta: int) -> int:
        position = self.position
        position.push(move)
        try:
            return -self._negamax(depth - 1, -beta, -alpha, 1)
        finally:
            position.pop()

    def _check(self) -> None:
        self.nodes += 1
        cap = self.limits.iterations
        if cap is not None and self.nodes > cap:
            raise _SearchStoppedError
        if self.should_stop():
            raise _SearchStoppedError
        if self.deadline is not None and time.perf_counter() >= self.deadline:
            raise _SearchStoppedError

    def _negamax(self, depth: int, alpha: int, beta: int, ply: int) -> int:
        self._check()
        position = self.position
        outcome = position.outcome()
        if outcome is not None:
            if outcome.winner is None:
                return 0
            return MATE - ply if outcome.winner == position.turn_name else -(MATE - ply)
        if depth <= 0:
            return round((self.policy.evaluate(position) - 0.5) * 2000)
        key = position.key()
        entry = self.table.get(key)
        hint: Move | None = None
        if entry is not None:
            e_depth, e_score, e_flag, hint = entry
            if e_depth >= depth:
                score = from_table(e_score, ply)
                if e_flag == EXACT:
                    return score
                if e_flag == LOWER and score >= beta:
                    return score
                if e_flag == UPPER and score <= alpha:
                    return score
        moves = position.legal_moves()
        if ply < self.settings.order_depth and len(moves) > 1:
            moves = self.policy.order_moves(position, moves)
        if hint is not None and hint in moves:
            moves.remove(hint)
            moves.insert(0, hint)
        original_alpha = alpha
        best = -MATE - 1
        best_move: Move | None = None
        for move in moves:
            position.push(move)
            try:
                score = -self._negamax(depth - 1, -beta, -alpha, ply + 1)
            finally:
                position.pop()
            if score > best:
                best, best_move = score, move
                if score > alpha:
                    alpha = score
                    if alpha >= beta:
                        break
        flag = UPPER if best <= original_alpha else LOWER if best >= beta else EXACT
        self.table[key] = (depth, to_table(best, ply), flag, best_move)
        return best


def score_value(score: int) -> float:
    if score >= MATE_ZONE:
        return 1.0
    if score <= -MATE_ZONE:
        return 0.0
    return min(1.0, max(0.0, 0.5 + score / 2000))


def to_table(score: int, ply: int) -> int:
    """Mate scores are stored relative to the node, so they stay right at another depth."""
    if score >= MATE_ZONE:
        return score + ply
    if score <= -MATE_ZONE:
        return score - ply
    return score


def from_table(score: int, ply: int) -> int:
    if score >= MATE_ZONE:
        return score - ply
    if score <= -MATE_ZONE:
        return score + ply
    return score
