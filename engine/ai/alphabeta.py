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

    `score` is exact for `best_move` among `searched`: the first root move gets the full
    window and a later one only replaces it with an exact score above alpha. So searches
    of other shares of the root moves, at the same depth, compare by score directly.
    """

    depth: int
    best_move: Move
    score: int
    pv: tuple[Move, ...]
    searched: tuple[Move, ...]


IterationCallback = Callable[[Iteration], None]


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
        self, best: Move, score: int, scores: dict[Move, int], depth: int
    ) -> Iteration:
        return Iteration(depth, best, score, self._pv(best), tuple(scores))


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
    ) -> SearchResult:
        """The common search call; `on_iteration` also hears of every finished depth."""
        run = _Run(self.settings, working_copy(position, history), limits,
                   should_stop or never_stop)
        return run.go(on_progress, rng or random.Random(0), on_iteration)


class _Run(TableReporting):
    def __init__(
        self, settings: AlphaBetaSettings, position: Position, limits: SearchLimits,
        should_stop: StopCheck,
    ) -> None:
        self.settings = settings
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
        moves = root_share(moves, *self.settings.root_share)
        best_move: Move = moves[0]
        best_score = 0
        scores: dict[Move, int] = {}
        depth_done = 0
        proven = False
        max_depth = min(self.settings.max_depth, self.limits.depth or self.settings.max_depth)
        for depth in range(1, max_depth + 1):
            try:
                score, move, depth_scores = self._root(moves, depth)
            except _SearchStoppedError:
                break
            best_move, best_score, scores, depth_done = move, score, depth_scores, depth
            moves = [best_move] + [m for m in moves if m != best_move]
            if on_iteration is not None:
                on_iteration(self._iteration(best_move, best_score, scores, depth))
            if on_progress is not None:
                on_progress(self._result(best_move, best_score, scores, depth_done).info())
            if abs(best_score) >= MATE_ZONE:
                proven = True
                break
        result = self._result(best_move, best_score, scores, depth_done, proven)
        if on_progress is not None:
            on_progress(result.info())
        return result

    def _root(self, moves: list[Move], depth: int) -> tuple[int, Move, dict[Move, int]]:
        position = self.position
        alpha, beta = -MATE - 1, MATE + 1
        best_move = moves[0]
        scores: dict[Move, int] = {}
        margin = self.settings.root_margin
        for move in moves:
            floor = max(-MATE - 1, alpha - margin) if margin and alpha < MATE_ZONE else alpha
            position.push(move)
            try:
                score = -self._negamax(depth - 1, -beta, -floor, 1)
            finally:
                position.pop()
            scores[move] = score
            if score > alpha:
                alpha, best_move = score, move
        return alpha, best_move, scores

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
