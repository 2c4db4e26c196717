"""An endgame prover beside MCTS, for games whose playouts misjudge the end.

Bug's random playouts value a lost endgame as a likely win: in a game Master lost to plain
UCT (side 4), its MCTS gave 0.84-0.90 for five moves while alpha-beta, on the same
positions, proved a win in 10 plies (the move Master did not play) and then Master's loss
in 13 (engine/ai/STRENGTH.md). A proof search orders Bug's turns well and proves 10-20
plies deep where MCTS-Solver must expand every reply first. Bug has a prover of its own
(df-pn, engine/ai/bug_prover.py), and so has Ayu (engine/ai/ayu_prover.py, beside
Ayu's alpha-beta rather than MCTS); other games would get the generic alpha-beta.

Only what the prover proves is used: a proven win (or loss) is played as it is, and root
moves proven lost are taken out of the MCTS search. Its unproven values are thrown away.

* `ProofSearcher` is the prover alone (the game's own, `GAME_PROVERS`, or alpha-beta for
  other games); its result holds only proofs (`best_move` None when it proved nothing),
  and its progress reports only its effort until it proves. Worker processes run it
  beside MCTS workers, or beside Ayu's alpha-beta (engine/ai/parallel.py).
* `SolverFirstSearcher` shares one core: the prover takes a part of the time, then MCTS
  the rest, told which root moves lose. A counted search (an iteration limit, no time)
  gets the prover only if given `prover_nodes`: then a fresh prover on that many nodes,
  so that the level plays the same on any computer and in any order of games.

Both act only where the game's policy says the end is near (`GamePolicy.endgame_near`);
before that the prover proves nothing in the time and MCTS gets all of it.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from engine.ai.alphabeta import AlphaBetaSearcher, AlphaBetaSettings, TranspositionTable
from engine.ai.bug_prover import BugProver
from engine.ai.common import (
    Clock,
    ProgressCallback,
    SearchInfo,
    SearchLimits,
    SearchResult,
    StopCheck,
    never_stop,
)
from engine.ai.mcts import MctsSearcher
from engine.ai.policies import policy_for
from engine.core import Move, Position

if TYPE_CHECKING:
    from engine.ai.ayu_prover import AyuProver

# The prover's part of a single core's time, where the end is near.
SOLVER_SHARE = 0.4


def proofs_only(result: SearchResult) -> SearchResult:
    """`result` as it is if it settles the game, else only its root moves proven lost."""
    if result.proven_result is not None:
        return result
    lost = tuple(c for c in result.candidates if c.proof == -1)
    return SearchResult(None, 0.5, (), lost, result.nodes, result.elapsed, result.depth)


def prover_wanted(
    position: Position, limits: SearchLimits, reach: int | None = None, counted: bool = False
) -> bool:
    """Whether a search of `position` within `limits` gets the prover: a timed one, or a
    counted one where the prover has a node budget (`counted`), and only where the game's
    policy calls the end near (within `reach`, if given: see `GamePolicy.endgame_near`)."""
    if limits.time is None and not counted:
        return False
    return policy_for(position.game).endgame_near(position, reach)


def lost_moves(result: SearchResult) -> frozenset[Move]:
    return frozenset(c.move for c in result.candidates if c.proof == -1)


# Entries kept from one search to the next (about 150 bytes each).
TABLE_LIMIT = 500_000


class TableKeeper:
    """A prover's transposition table, kept from one search to the next as long as the
    game is the same and the table is not too big: the positions two plies on are mostly
    in it already, so a proof out of reach in one move's time may come in the next."""

    def __init__(self) -> None:
        self.table: TranspositionTable = {}
        self.game_identity: object = None

    def kept_table(self, position: Position) -> TranspositionTable:
        """The table for a search of `position`: the kept one, or a fresh one."""
        identity = position.game.identity()
        if identity != self.game_identity or len(self.table) > TABLE_LIMIT:
            self.table = {}
            self.game_identity = identity
        return self.table


def _ayu_prover() -> AyuProver:
    from engine.ai.ayu_prover import AyuProver  # it imports from here

    return AyuProver()


# Games with a prover of their own, which proves more in the time than alpha-beta.
GAME_PROVERS: dict[str, Callable[[], BugProver | AyuProver]] = {
    "bug": BugProver, "ayu": _ayu_prover,
}


class ProofSearcher(TableKeeper):
    """Reports only what it proves (see `proofs_only`): the game's own prover where it has
    one (`GAME_PROVERS`), else alpha-beta, which keeps its table (`TableKeeper`).
    """

    def __init__(self, settings: AlphaBetaSettings | None = None) -> None:
        super().__init__()
        self.inner = AlphaBetaSearcher(settings)
        self.game_provers: dict[str, BugProver | AyuProver] = {}

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
        """`root_share` splits the root between workers where the game has a prover of its
        own (BugProver); alpha-beta always proves the whole root."""
        name = position.game.name
        if name in GAME_PROVERS:
            if name not in self.game_provers:
                self.game_provers[name] = GAME_PROVERS[name]()
            return self.game_provers[name].search(
                position, history, limits, should_stop=should_stop, on_progress=on_progress,
                rng=rng, root_share=root_share,
            )
        table = self.kept_table(position)

        def report(info: SearchInfo) -> None:
            # Unproven alpha-beta moves and values would mislead a listener: only the
            # effort and a proof are passed on.
            if on_progress is not None:
                on_progress(info if info.proven else replace(info, best_move="", value=0.5, pv=()))

        result = self.inner.search(
            position, history, limits, should_stop=should_stop, rng=rng, table=table,
            on_progress=report,
        )
        return proofs_only(result)


class SolverFirstSearcher:
    """On one core: near the end, the prover first for `share` of the time, then MCTS.

    `reach` (see `GamePolicy.endgame_near`) lets a weaker level call the prover in later:
    on Bug's small board, where every decent searcher plays the end perfectly, how early
    the prover joins is what sets the upper levels apart (engine/ai/STRENGTH.md).
    `prover_nodes` gives a counted search (iterations, no time) a prover of that many
    nodes, a fresh one each time (no tables carried over), before its MCTS iterations.
    `prover` is the timed search's prover (None: one of its own), so that a worker process
    can keep one prover, and its tables, for all its searches; `prover_root_share` is its
    share of the root where workers split it (`ProofSearcher.search`)."""

    def __init__(
        self,
        mcts: MctsSearcher,
        share: float = SOLVER_SHARE,
        reach: int | None = None,
        prover_nodes: int | None = None,
        prover: ProofSearcher | None = None,
        prover_root_share: tuple[int, int] = (0, 1),
    ) -> None:
        self.mcts = mcts
        self.share = share
        self.reach = reach
        self.prover_nodes = prover_nodes
        self.prover = prover or ProofSearcher()
        self.prover_root_share = prover_root_share

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
        counted = limits.time is None and self.prover_nodes is not None
        if not prover_wanted(position, limits, self.reach, counted):
            return self.mcts.search(
                position, history, limits, should_stop=should_stop, on_progress=on_progress,
                rng=rng,
            )
        clock = Clock()
        if limits.time is None:
            prover, prover_limits = ProofSearcher(), SearchLimits(iterations=self.prover_nodes)
        else:
            prover, prover_limits = self.prover, replace(limits, time=limits.time * self.share)
        proof = prover.search(
            position, history, prover_limits, should_stop=should_stop,
            on_progress=on_progress, rng=rng, root_share=self.prover_root_share,
        )
        if proof.best_move is not None:  # only a proven result names a move
            return replace(proof, elapsed=clock.elapsed())
        if limits.time is not None:
            # A time limit must be positive.
            limits = replace(limits, time=max(0.001, limits.time - clock.elapsed()))
        result = self.mcts.search(
            position, history, limits, should_stop=should_stop,
            on_progress=on_progress, rng=rng, lost_moves=lost_moves(proof),
        )
        # The nodes stay MCTS iterations (the prover's alpha-beta nodes are another unit);
        # the time is the whole search's.
        return replace(result, elapsed=clock.elapsed())
