"""Searchers that wrap or replace a real search: uniform random play and a softened choice.

Both answer the common `search` call, so the match tool, the levels and the GUI treat
them like any other searcher.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence

from engine.ai.common import (
    Candidate,
    ProgressCallback,
    Searcher,
    SearchLimits,
    SearchResult,
    StopCheck,
    working_copy,
)
from engine.core import Position


class RandomSearcher:
    """Uniformly random legal moves: the floor every level must beat."""

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
        rng = rng or random.Random(0)
        moves = working_copy(position, history).legal_moves()
        move = moves[rng.randrange(len(moves))] if moves else None
        return SearchResult(move, 0.5, (move,) if move else (), (), 1, 0.0)


# A cooled temperature below this picks the search's best move (and divides by nothing).
COLDEST = 1e-4


class SoftenedSearcher:
    """Searches, then picks among the top candidates by a softmax of their values.

    This is how the easy levels make human-sized mistakes: the choice is among moves the
    search liked, never a random one, and a clearly better move (or a proven win) is still
    found most of the time. `temperature` is in value units (0.1: a move 0.1 worse is e
    times less likely). With `cooling` it is scaled by 4v(1-v) of the best move's value v:
    whole at an even game, a quarter at 0.93, none at a sure result, so that the mistakes
    come where the game is open and a clearly won ending is not given away.
    """

    def __init__(
        self, inner: Searcher, temperature: float, top: int = 4, *, cooling: bool = False
    ) -> None:
        self.inner = inner
        self.temperature = temperature
        self.top = top
        self.cooling = cooling

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
        rng = rng or random.Random(0)
        result = self.inner.search(
            position, history, limits, should_stop=should_stop, on_progress=on_progress, rng=rng
        )
        if result.proven_result == 1 or len(result.candidates) < 2:
            return result
        pool = _pool(result.candidates, self.top)
        best = max(c.value for c in pool)
        temperature = self.temperature * (4 * best * (1 - best) if self.cooling else 1.0)
        if temperature < COLDEST:
            return result
        weights = [math.exp((c.value - best) / temperature) for c in pool]
        pick = rng.random() * sum(weights)
        candidate = pool[-1]
        for option, weight in zip(pool, weights, strict=True):
            pick -= weight
            if pick <= 0:
                candidate = option
                break
        if candidate.move == result.best_move:
            return result
        return SearchResult(
            candidate.move, candidate.value, (candidate.move,), result.candidates,
            result.nodes, result.elapsed, result.depth,
        )


def _pool(candidates: Sequence[Candidate], top: int) -> list[Candidate]:
    """The top candidates that the search looked at enough to have an opinion, without
    the moves valued 0 (proven lost, or as bad as the search can tell) while any other
    move is left."""
    most = max((c.share for c in candidates), default=0.0)
    pool = [c for c in candidates[:top] if c.share >= 0.05 * most] or list(candidates[:1])
    return [c for c in pool if c.value > 0.0] or pool
