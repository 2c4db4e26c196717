"""One alpha-beta search's part in a root split: its share of the root moves, searched
alongside the searches of the other shares (worker processes, engine/ai/root_split.py).

Both alpha-beta searchers (`alphabeta`, `ayu_search`) cut the same ordered root moves
into shares (`root_share`), report every finished depth (`Iteration`), and, given the
other shares' bounds (`RootBounds`), search each depth's root with them
(`SharedRootSearch`).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol

from engine.ai.search_scores import MATE, NO_BOUND
from engine.core import EngineError, Move

WAIT_SECONDS = 0.0005  # how often a waiting root share looks for the other shares' score

# One depth at the root: best score, its move, every searched move's score, exact or not.
RootScores = tuple[int, Move, dict[Move, int], bool]


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
    rank: int = 0  # `best_move`'s place in the common root order (before `root_share`)


IterationCallback = Callable[[Iteration], None]


class RootBounds(Protocol):
    """What searches of the other root shares (worker processes) tell each other.

    Per depth: the best exact root score any share has found there and its move's index
    in the common root order (before `root_share`); which root moves are taken (each is
    searched by one share only); and per share the depth it is working on. A search that
    shares these (`SharedRootSearch`) raises its root alpha to the best published score,
    so that a move another share beats is refuted cheaply.
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


class SharedRootSearch:
    """The root of one share's search, depth by depth, with the other shares' bounds.

    `order` is every root move in the common order (before `root_share`), `count` the
    number of shares; `stopped()` says whether to give up waiting for the other shares,
    by raising `stop_error` (what the searcher raises to stop).
    """

    def __init__(
        self, bounds: RootBounds, order: list[Move], count: int,
        stopped: Callable[[], bool], stop_error: type[Exception],
    ) -> None:
        self.bounds = bounds
        self.order = order
        self.index = {move: i for i, move in enumerate(order)}  # each move's place in it
        self.count = count
        self.stopped = stopped
        self.stop_error = stop_error

    def search(
        self, moves: list[Move], depth: int, score_move: Callable[[Move, int, int, int], int]
    ) -> RootScores:
        """One depth at the root of this share (`moves`), with the other shares.

        `score_move(move, depth, alpha, beta)` is the move's fail-soft score for the mover.

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

        The answer is the best exact score among the moves this share searched if no
        other move's upper bound (from failing low against a published score) is above
        it; otherwise it is the largest upper bound, flagged not exact. Root margins do
        not apply here.
        """
        bounds = self.bounds
        order, index = self.order, self.index
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
            published, at = bounds.best(depth)
            floor = max(alpha, published)
            if floor == published != NO_BOUND and index[move] < at:
                # Equal scores go to the move earlier in the common order (as in one
                # search, where the first move keeps a tie), so a tie must score exactly.
                floor -= 1
            speculative = (
                speculate and guess is not None and guess > floor and published == NO_BOUND
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
        count = self.count
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
                    if self.stopped():
                        raise self.stop_error
                    time.sleep(WAIT_SECONDS)
            finally:
                bounds.waiting(False)
            for move in pending:
                if scores[move] > max(alpha, bounds.best(depth)[0]):
                    search(move, False)
        # A move that failed low against another share's score is bounded by that score
        # only, which may lie above this share's best exact score: then the share's
        # answer is the bound (an exact loss here proved nothing about the other moves).
        bound_move, bound = max(scores.items(), key=lambda item: item[1])
        if exact and alpha >= bound:
            return alpha, best_move, scores, True
        return bound, bound_move, scores, False
