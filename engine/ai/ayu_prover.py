"""Ayu's endgame prover: the Ayu alpha-beta with every undecided leaf scored 0.

Ayu's race estimate misjudges some endings by a whole race: in a game Master lost to plain
UCT (9x9), at 42 plies Master's search at 5 s gave 0.90 to a move that lost in 15 plies,
where the winning move was proven 14 plies deep (engine/ai/STRENGTH.md). Scored only by
wins and losses, the search cuts off every line that proves nothing and goes a few plies
deeper in the same time. It is the game's endgame prover (endgame.ProofSearcher). Run
beside the alpha-beta in a second worker process it measured no stronger than one core, so
that pairing was removed: two workers split the alpha-beta's root instead
(engine/ai/STRENGTH.md).

Like the other provers it keeps its table from one move to the next (`TableKeeper`).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from engine.ai.ayu_search import AyuSearcher, AyuSearchSettings
from engine.ai.common import ProgressCallback, SearchLimits, SearchResult, StopCheck
from engine.ai.endgame import TableKeeper, proofs_only
from engine.core import Position


class AyuProver(TableKeeper):
    """Reports only what it proves: a proven result with its move, or the root moves
    proven lost (`best_move` None)."""

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
        settings = AyuSearchSettings(proof_only=True, root_share=root_share)
        result = AyuSearcher(settings).search(
            position, history, limits, should_stop=should_stop, rng=rng,
            table=self.kept_table(position),
        )
        return proofs_only(result)
