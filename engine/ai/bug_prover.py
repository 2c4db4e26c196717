"""Bug's endgame prover: depth-first proof-number search (df-pn) on bitboards.

Bug's random playouts misjudge the fight for the last growth cells (engine/ai/endgame.py
tells the story), so near the end a prover runs beside MCTS and only its proofs are used.
The generic alpha-beta proves such endgames too, but a proof search suits Bug better:

* A node is just the mover's and the opponent's stones; its children are the distinct
  boards its turns leave (engine/games/bug_turn_list.py, which follows each board of a
  turn in progress once: chains of meals have many orders and few outcomes).
* Proof numbers steer the search to where a proof is cheapest: a move that leaves the
  opponent few replies is quick to refute, and a new child starts with the opponent's
  growth cells as the effort to prove it lost. Alpha-beta with iterative deepening, even
  on the same bitboards, proved about half as many of the positions of a test set
  (Bug 4, 16 empty cells; Bug 3, 15) in the same time, and none of Bug 3's.
* Bug has no draws: the player who cannot grow at the start of a turn wins (BUG-9).

Numbers are kept negamax-style: for the mover at a node, `phi` is the effort to prove a
win and `delta` the effort to prove a loss; a node's `phi` is the least `delta` of its
children. Its `delta` is not the sum of their `phi` but the largest of them plus the
number of other open children (weak proof numbers, Ueda et al. 2008): quiet growths
commute, so the same boards lie below many children, and a sum counts their effort again
under each. With weak numbers the prover settled 24 of 40 positions with 18 empty cells in
5 s each where the sum settled 18, and 11 of 30 with 20 empty cells where it settled 8
(STRENGTH.md). Proofs (with their length in plies) are kept for good; the numbers of
unproven nodes are kept too, so the next move's search starts where this one stopped.

A board repeated on the current path (eating takes stones off, so it can happen) proves
nothing either way; results built on it stay unproven.
"""

from __future__ import annotations

import contextlib
import itertools
import random
from collections.abc import Sequence

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
from engine.core import Move, Position
from engine.games.bug import BugPosition
from engine.games.bug_geometry import BugGeometry
from engine.games.bug_playout import growth_cells, remember_growth_cells
from engine.games.bug_turn_list import Turn, list_boards

INFINITE = 10**9
# The 1 + epsilon trick (Pawlewicz and Lew): stay in a child until its number passes the
# second best by this share, not just by one, so the search switches children less often.
EPSILON = 0.25
# Entries kept from one search to the next (proofs and numbers, about 200 bytes each).
TABLE_LIMIT = 1_000_000
# Child boards remembered, over all nodes (about 190 bytes each with its growth cells, so
# some 200 MB): df-pn comes back to a node many times, and listing its children is most
# of its work. A count of nodes instead let a long analysis of a side-4 position with 24
# empty cells grow to 650 MB (17 children a node, 200,000 nodes).
CHILDREN_LIMIT = 1_000_000
# How often (in nodes) the clock and the stop request are looked at: a node that lists
# its turns takes up to a millisecond or two on the big boards, and a stop may take 20 ms.
CHECK_EVERY = 8

Board = tuple[int, int]  # (the mover's stones, the opponent's)

# A proof: a win in p plies is stored as p + 1 (a terminal win is 1), a loss in p plies
# as -p (a loss takes at least the mover's own turn).
Proof = int


def win_in(plies: int) -> Proof:
    return plies + 1


def loss_in(plies: int) -> Proof:
    return -plies


def plies_of(proof: Proof) -> int:
    return proof - 1 if proof > 0 else -proof


class _TimeUpError(Exception):
    """The clock or the node budget ran out, or a stop was asked for."""


class BugProver:
    """Proves Bug positions; the result holds only proofs, like `endgame.proofs_only`:
    a proven win or loss names its move, otherwise `best_move` is None and the candidates
    are the root moves proven lost.

    Its tables last from one search to the next while the board size stays the same and
    they are not too big: the positions two plies on are mostly in them already."""

    def __init__(self) -> None:
        self.proofs: dict[Board, Proof] = {}
        self.numbers: dict[Board, tuple[int, int]] = {}  # (phi, delta) of open boards
        self.geo: BugGeometry | None = None
        self.nodes = 0
        self._known_children: dict[Board, dict[Board, int]] = {}
        self._children_count = 0  # child boards in _known_children
        self._on_path: set[Board] = set()
        self._next_check = 0
        self._clock = Clock()
        self._deadline: float | None = None
        self._node_limit: int | None = None
        self._should_stop: StopCheck = never_stop
        self._on_progress: ProgressCallback | None = None

    def search(
        self,
        position: Position,
        history: Sequence[int],
        limits: SearchLimits,
        *,
        should_stop: StopCheck | None = None,
        on_progress: ProgressCallback | None = None,
        rng: random.Random | None = None,
        root_share: tuple[int, int] = (0, 1),
    ) -> SearchResult:
        """`root_share` (index, count) proves only every count-th of the root's distinct
        boards from the index-th, for workers that split the root: the share's wins are
        the root's, its lost moves are some of the root's, and it never claims the root
        lost."""
        del history, rng  # no repetition rule in Bug (B15), and nothing is drawn at random
        assert isinstance(position, BugPosition)
        if position.geo is not self.geo or len(self.proofs) + len(self.numbers) > TABLE_LIMIT:
            self.proofs, self.numbers, self._known_children = {}, {}, {}
            self._children_count = 0
            self.geo = position.geo
        self.nodes = 0
        self._next_check = CHECK_EVERY
        self._clock = Clock()
        self._deadline = limits.time
        self._node_limit = limits.iterations
        self._should_stop = should_stop or never_stop
        self._on_progress = on_progress
        self._on_path = set()
        colour = position.turn
        own, enemy = position.stones[colour], position.stones[colour ^ 1]
        turns = position.turns()
        if not turns:  # the mover cannot grow, so has won (BUG-9)
            return SearchResult(None, 1.0, (), (), 0, self._clock.elapsed(), 0, 1, 0)
        if own == 0 and enemy == 0:  # Black's first stone (BUG-7): nothing to prove
            return self._result({}, None)
        root = (own, enemy)
        share: frozenset[Board] | None = None
        index, count = root_share
        if count > 1:
            children = self._known_children.get(root)
            if children is None:
                children = self._children(own, enemy)
                self._remember_children(root, children)
            share = frozenset(list(children)[index::count])
        with contextlib.suppress(_TimeUpError):
            self._mid(root, INFINITE, INFINITE, share)
        return self._root_result(turns)

    def _root_result(self, turns: list[Turn]) -> SearchResult:
        """What the search proved about the root's moves (`turns`, from `BugPosition.turns`)."""
        lost: dict[Move, int] = {}
        won: dict[Move, int] = {}
        # Every turn is judged by the board it leaves, so that a turn whose eating order
        # differs from a refuted one's, to the same board, is known lost too (on side 4 an
        # eighth of the turns share their board with another).
        for move, own_after, enemy_after in turns:
            proof = self.proofs.get((enemy_after, own_after))
            if proof is None:
                continue
            if proof < 0:  # the opponent loses there
                won[move] = plies_of(proof) + 1
            else:
                lost[move] = plies_of(proof) + 1
        if won:  # the quickest of the wins proven so far
            quickest = min(won, key=won.__getitem__)
            return self._result(lost, (quickest, win_in(won[quickest])))
        if len(lost) < len(turns):
            return self._result(lost, None)
        # Every move loses: the one that lasts longest is the best try.
        longest = max(lost, key=lost.__getitem__)
        return self._result(lost, (longest, loss_in(lost[longest])))

    def _result(self, lost: dict[Move, int], settled: tuple[Move, Proof] | None) -> SearchResult:
        elapsed = self._clock.elapsed()
        candidates = [Candidate(move, 0.0, 0.0, -1) for move in lost]
        if settled is None:
            result = SearchResult(None, 0.5, (), tuple(candidates), self.nodes, elapsed)
        else:
            move, proof = settled
            won = proof > 0
            if won:
                candidates.insert(0, Candidate(move, 1.0, 1.0, 1))
            result = SearchResult(
                move, 1.0 if won else 0.0, (move,), tuple(candidates), self.nodes, elapsed,
                0, 1 if won else -1, plies_of(proof),
            )
        if self._on_progress is not None:
            self._on_progress(result.info())
        return result

    # -- the proof search -------------------------------------------------------------
    def _mid(
        self, key: Board, th_phi: int, th_delta: int, share: frozenset[Board] | None = None
    ) -> None:
        """Search `key` until it is proven or its numbers reach the thresholds; with a
        `share` of its children (a split root), only those, and what holds for them alone
        is not stored as the root's."""
        self.nodes += 1
        if self.nodes >= self._next_check:
            self._check()
        proofs = self.proofs
        children = self._known_children.get(key)
        if children is None:
            children = self._children(*key)
            self._remember_children(key, children)
        if share is not None:
            children = {child: cells for child, cells in children.items() if child in share}
        self._on_path.add(key)
        try:
            while True:
                phi = INFINITE  # the least delta of the children
                largest = 0  # the largest phi of the children
                unsettled = 0  # children the opponent has not won
                best: Board | None = None
                second = INFINITE
                for child, cells in children.items():
                    child_phi, child_delta = self._numbers_of(child, cells)
                    if child_phi:
                        unsettled += 1
                        if child_phi > largest:
                            largest = child_phi
                    if child_delta < phi:
                        second = phi
                        phi, best = child_delta, child
                    elif child_delta < second:
                        second = child_delta
                if phi == 0:  # a child the opponent has lost
                    assert best is not None
                    proofs[key] = win_in(plies_of(proofs[best]) + 1)
                    return
                if not unsettled:  # every child won by the opponent
                    if share is None:
                        proofs[key] = loss_in(max(plies_of(proofs[c]) for c in children) + 1)
                    return
                delta = min(largest + unsettled - 1, INFINITE)
                if phi >= th_phi or delta >= th_delta or best is None:
                    if share is None:
                        self.numbers[key] = (phi, delta)
                    return
                # The best child's phi may grow until it alone lifts delta to th_delta.
                self._mid(
                    best,
                    th_delta - unsettled + 1,
                    min(th_phi, int(second * (1 + EPSILON)) + 1),
                )
        finally:
            self._on_path.discard(key)

    def _remember_children(self, key: Board, children: dict[Board, int]) -> None:
        """Keep `children` for the next visit; over the limit, forget the older half of the
        lists first (the search mostly works below the nodes it listed last)."""
        known = self._known_children
        self._children_count += len(children)
        if self._children_count > CHILDREN_LIMIT:
            for old in list(itertools.islice(known, len(known) // 2 + 1)):
                self._children_count -= len(known.pop(old))
        known[key] = children

    def _numbers_of(self, child: Board, cells: int) -> tuple[int, int]:
        """(phi, delta) of `child` for the opponent, who moves there."""
        proof = self.proofs.get(child)
        if proof is not None:
            return (0, INFINITE) if proof > 0 else (INFINITE, 0)
        if child in self._on_path:
            return (INFINITE, INFINITE)  # a board repeated on this path proves nothing
        known = self.numbers.get(child)
        if known is not None:
            return known
        count = cells.bit_count()
        if not count:
            self.proofs[child] = win_in(0)  # the opponent cannot grow there: won (BUG-9)
            return (0, INFINITE)
        # A new child: proving it lost means refuting each of the opponent's growths.
        return (1, count)

    def _children(self, own: int, enemy: int) -> dict[Board, int]:
        """The distinct boards the mover's turns leave, seen by the opponent (to move
        there), each with the opponent's growth cells.

        A turn that ate nothing is one stone on a cell, and it cannot raise the largest
        size (BUG-10), so the opponent may grow where they could before, less that cell:
        no bugs need finding. The cells are remembered for the child's own visit."""
        geo = self.geo
        assert geo is not None
        theirs_now = growth_cells(geo, enemy, own)
        children: dict[Board, int] = {}
        for own_after, enemy_after in list_boards(geo, own, enemy):
            child = (enemy_after, own_after)
            if enemy_after == enemy:
                cells = theirs_now & ~own_after
                remember_growth_cells(geo, enemy_after, own_after, cells)
            else:
                cells = growth_cells(geo, enemy_after, own_after)
            children[child] = cells
        return children

    def _check(self) -> None:
        self._next_check = self.nodes + CHECK_EVERY
        # A long analysis must not fill the memory: forgetting costs only work (no node
        # on the search path reads a table entry it has not just looked up).
        if len(self.numbers) > TABLE_LIMIT:
            self.numbers.clear()
        if len(self.proofs) > TABLE_LIMIT:
            self.proofs.clear()
        if self._should_stop():
            raise _TimeUpError
        elapsed = self._clock.elapsed()
        if self._deadline is not None and elapsed >= self._deadline:
            raise _TimeUpError
        if self._node_limit is not None and self.nodes >= self._node_limit:
            raise _TimeUpError
        if self._on_progress is not None and self._clock.report_due():
            rate = self.nodes / elapsed if elapsed > 0 else 0.0
            self._on_progress(SearchInfo("", 0.5, (), self.nodes, rate, elapsed, ""))
