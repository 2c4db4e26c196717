"""Alpha-beta (negamax) with iterative deepening and a transposition table.

Scores are integers for the side to move (engine/ai/search_scores.py). The table is
keyed by `position.key()`; repetition draws depend on the path, so a draw found through a
repetition may leak into other paths through the table (the usual compromise), but wins
and losses found without repetitions are exact. `TableReporting` is what both alpha-beta
searchers (this one and engine/ai/ayu_search.py) share: iterative deepening, the root
(alone or as one share of a root split, engine/ai/root_share.py), and the result read
back from the table.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

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
from engine.ai.root_share import (
    Iteration,
    IterationCallback,
    RootBounds,
    RootScores,
    SharedRootSearch,
    root_share,
)
from engine.ai.search_scores import (
    EXACT,
    LOWER,
    MATE,
    MATE_ZONE,
    UPPER,
    from_table,
    proven_root,
    score_value,
    to_table,
)
from engine.core import Move, Position

# position key -> (depth, score, bound flag, best move)
TranspositionTable = dict[int, tuple[int, int, int, Move | None]]


@dataclass(frozen=True)
class AlphaBetaSettings:
    max_depth: int = 64
    # Moves are ordered by the policy only this close to the root (ordering costs time).
    order_depth: int = 3
    # Root moves within this many points of the best get exact scores instead of bounds,
    # so that the soft levels choose among true values (0: plain alpha-beta at the root).
    root_margin: int = 0
    # Which of the root moves this search takes when worker processes split them
    # (engine/ai/root_split.py): share `index` of `count` (see `root_share`); (0, 1) is all.
    root_share: tuple[int, int] = (0, 1)
    # Below `order_depth`, try first the moves that cut off at the same ply elsewhere
    # (killers), then the others by how often they cut off anywhere (history).
    killers: bool = True
    history_order: bool = True


class _SearchStoppedError(Exception):
    """Raised inside the tree when the time, node budget or stop flag says so."""


class TableReporting:
    """Iterative deepening at the root, and the result read back from the table.

    Shared by the alpha-beta searchers; they provide `position`, `table`, `nodes`,
    `clock`, the root attributes below, the stop attributes, and `_root` (one depth).
    """

    position: Position
    table: TranspositionTable
    nodes: int
    clock: Clock
    root_bounds: RootBounds | None
    root_order: list[Move]  # every root move in the common order (before `root_share`)
    share: tuple[int, int]  # this search's root share (index, count)
    shared_root: SharedRootSearch | None  # the root with the other shares' bounds
    stop_error: type[Exception]  # what the searcher raises to stop
    should_stop: StopCheck
    deadline: float | None
    # The unfinished depth so far: (best score, its move, the moves scored), or None.
    partial: tuple[int, Move, dict[Move, int]] | None = None

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

        When time or the node budget runs out inside a depth, a root move that already
        scored above the last depth's best there is played: the first move searched is
        that best, so the other one is better at the deeper look (not with shared bounds).
        """
        self.shared_root = None if self.root_bounds is None else SharedRootSearch(
            self.root_bounds, self.root_order, self.share[1], self._stopped, self.stop_error
        )
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
                    partial = self.partial
                    if partial is not None and partial[1] != moves[0]:
                        # A move beat the last depth's best at this depth: play it, though
                        # the depth is unfinished (`depth_done` stays).
                        best_move, best_score = partial[1], partial[0]
                        scores = {**scores, **partial[2]}
                    break
                if score <= -MATE_ZONE and not depth_scores.keys() >= set(moves):
                    # Every move this share searched loses, but another share searched some
                    # of its moves: nothing is proven, so the depth counts as unfinished.
                    moves = reorder(moves, move, depth_scores)
                    continue
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
        self.partial = None
        if self.shared_root is not None:
            return self.shared_root.search(moves, depth, score_move)
        alpha, beta = -MATE - 1, MATE + 1
        best_move = moves[0]
        scores: dict[Move, int] = {}
        for move in moves:
            floor = max(-MATE - 1, alpha - margin) if margin and alpha < MATE_ZONE else alpha
            score = score_move(move, depth, floor, beta)
            scores[move] = score
            if score > alpha:
                alpha, best_move = score, move
            self.partial = (alpha, best_move, scores)
        return alpha, best_move, scores, True

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
        # An upper bound in the mate zone is still a proof of loss, and the best move's
        # lower bound there a proof of win: the top eight are listed, and every move
        # proven lost (root-parallel MCTS merges leave those out, as with MCTS workers).
        share = 1.0 / len(ranked) if ranked else 0.0
        shown = ranked[:8] + [item for item in ranked[8:] if item[1] <= -MATE_ZONE]
        candidates = tuple(
            Candidate(move, share, score_value(s), _root_proof(move == best, s))
            for move, s in shown
        )
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
        return Iteration(
            depth, best, score, self._pv(best), tuple(scores), exact, self.root_order.index(best)
        )


def _root_proof(is_best: bool, score: int) -> int | None:
    """What a root move's score proves: -1 lost, +1 won (the best move only), else None."""
    if score <= -MATE_ZONE:
        return -1
    if is_best and score >= MATE_ZONE:
        return 1
    return None


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
        table: TranspositionTable | None = None,
    ) -> SearchResult:
        """The common search call; `on_iteration` also hears of every finished depth.

        `root_bounds` shares the best root score per depth with searches of the other
        root shares (worker processes, engine/ai/root_split.py); see `RootBounds`.
        `table` carries a transposition table over from an earlier search of the same game
        (its entries depend on the position only, not on the path, where the game has no
        repetition rule).
        """
        run = _Run(self.settings, working_copy(position, history), limits,
                   should_stop or never_stop, root_bounds, table)
        return run.go(on_progress, rng or random.Random(0), on_iteration)


class _Run(TableReporting):
    stop_error = _SearchStoppedError

    def __init__(
        self, settings: AlphaBetaSettings, position: Position, limits: SearchLimits,
        should_stop: StopCheck, root_bounds: RootBounds | None = None,
        table: TranspositionTable | None = None,
    ) -> None:
        self.settings = settings
        self.root_bounds = root_bounds
        self.share = settings.root_share
        self.position = position
        self.policy: GamePolicy = policy_for(position.game)
        self.limits = limits
        self.should_stop = should_stop
        self.table: TranspositionTable = {} if table is None else table
        # A ply never exceeds the deepest iteration, so one slot pair per ply up to it.
        self.killers: list[list[Move | None]] = [
            [None, None] for _ in range(settings.max_depth + 1)
        ]
        self.history: dict[Move, int] = {}
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
        settings = self.settings
        killers = self.killers[ply]
        if len(moves) > 1:
            if ply < settings.order_depth:
                moves = self.policy.order_moves(position, moves)
            else:
                if settings.history_order:
                    history = self.history
                    moves.sort(key=lambda m: history.get(m, 0), reverse=True)
                if settings.killers:
                    for killer in (killers[1], killers[0]):
                        if killer is not None and killer in moves:
                            moves.remove(killer)
                            moves.insert(0, killer)
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
                        if killers[0] != move:
                            killers[1], killers[0] = killers[0], move
                        self.history[move] = self.history.get(move, 0) + depth * depth
                        break
        flag = UPPER if best <= original_alpha else LOWER if best >= beta else EXACT
        self.table[key] = (depth, to_table(best, ply), flag, best_move)
        return best

