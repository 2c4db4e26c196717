"""Alpha-beta for Ayu alone: the generic search, made cheaper and better informed.

What differs from `engine.ai.alphabeta` (measurements in engine/ai/STRENGTH.md):

* Leaves are never expanded: whether the side to move has a move (if not, it has won,
  AYU-8) falls out of the race estimate, which is computed anyway, so the full move
  generator runs only at inner nodes. Repetition (AYU-9) is tracked here with a count of
  keys along the path, seeded with the game's history.
* The race estimate (`race`) is the weight of a minimum spanning tree over the distances
  between a colour's units (AYU-6), found by growing all units together one layer at a
  time (single linkage): two regions that overlap after `r` layers are `2r-1` apart, two
  that touch are `2r` apart. The evaluation weighs the two colours' estimates, the
  mover's tempo, the clusters each colour has walled in (weighed as fitted by Master on
  9x9 and 11x11, see `CLUSTER_WEIGHT`) and (Master there, see `GAP_WEIGHT`) the longest
  edge of each tree, and (Master there, see `CONTESTED_WEIGHT`) how much longer each race
  gets where the other colour's joining points are closed.
* Move ordering: the table's move (tried before the other moves are generated), two
  killer moves per ply, joins, then the history heuristic. Optionally (`late_moves`, off
  at every level) the moves after the first with null windows, the late ones shallower.
* `proof_only` makes it Ayu's prover (engine/ai/ayu_prover.py): undecided leaves score 0,
  and the last two plies look only at joins of all a side's units (`joining_all`).
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from engine.ai.alphabeta import (  # deepening, root and table for both searchers
    TableReporting,
    TranspositionTable,
)
from engine.ai.common import (
    Clock,
    ProgressCallback,
    SearchLimits,
    SearchResult,
    StopCheck,
    never_stop,
    working_copy,
)
from engine.ai.root_share import IterationCallback, RootBounds, RootScores, root_share
from engine.ai.search_scores import (  # one scale and table for both searchers
    EXACT,
    LOWER,
    MATE,
    UPPER,
    from_table,
    to_table,
)
from engine.bitboard import bits
from engine.core import Move, Position
from engine.games.ayu import AyuMove, AyuPosition, flood, targets_keeping_connected

# Evaluation: logit per move of race lead, and the mover's tempo (the mover wins a tie, as
# it joins first).
COST_SCALE = 0.35
TEMPO = 0.5
# Logit per cluster (units that cannot reach a friend through empty points, `race`) the
# opponent has more than the mover: the race counts a walled-in unit as free, but the wall
# moves on and the unit then has its way to go. Fitted to 6,000 positions of soft
# self-play (`python -m engine tune --game ayu`), a cluster weighs about five moves of race
# (2.05 against 0.45 a move; five-fold log loss 0.594 against 0.610 for the hand-set
# 0.05). On 9x9 the weight of 2.0 beat 0.05 25-15 at 1 s a move, and Master with it beat
# UCT 19-1 on the openings where it had gone 16-4 (STRENGTH.md, "Walled-in clusters").
# `CLUSTER_WEIGHT` is Master's, on the sizes of `MASTER_TERM_SIZES`; the other levels and
# sizes weigh `PLAIN_CLUSTER_WEIGHT`, as all did before the fit, so they play as they were
# measured.
CLUSTER_WEIGHT = 2.0
PLAIN_CLUSTER_WEIGHT = 0.05
# Logit per point of the opponent's longest gap over the mover's: Ayu's race costs are
# whole moves, so many root moves tie, and which of them the search plays matters (root
# ties broken at random lost 0-10 to the search's own order). At 1 s a move on 9x9 the
# term won 37-23 against the plain race (weights 0.02, 0.05, 0.1; -0.02 lost 7-13). The
# levels below Master leave it out (levels.py), which is what sets Master apart from
# Strong: more time rarely changes the move Ayu's search picks (STRENGTH.md).
GAP_WEIGHT = 0.05
# Logit per move of race, and per cluster, that a colour loses where the other colour's
# joining points (`joining_points`) are closed: the race counts paths through the points
# where the enemy's units are about to join, and the enemy fills them as it joins up. In
# lost games the race showed Master well ahead through such a point a few plies before the
# deeper search saw the wall (STRENGTH.md, "Contested points"). Fitted beside the other
# terms to 4,455 positions of soft self-play (0.145 and 0.33 against 0.45 a move of race,
# scaled to `COST_SCALE`); at 1 s a move Master's searcher with the term beat the one
# without 29-11, and Master with it beat Strong 16-4 where it had gone 13-7, and UCT 18-2
# where it had gone 17-3, on the same openings. It costs speed: two more races a leaf.
CONTESTED_WEIGHT = 0.11
CONTESTED_CLUSTER_WEIGHT = 0.25
# Board sizes where Master's terms (the gap, the cluster weight, the contested points) are
# used. They were fitted and measured on 9x9 (the gap term alone measured 9-11 on 11x11 at
# 1 s a move); with all three, 11x11's Master beat Strong 27-13 at full time, and 12-3 on
# the openings where the plain Master had gone 7-8 (STRENGTH.md, "Master's terms on
# 11x11"). 13x13 and 15x15 go without: nothing has been measured there.
MASTER_TERM_SIZES = frozenset({9, 11})


def race(stones: int, empty: int, units: list[int], spread: Callable[[int], int]) -> tuple[
    int, int, bool, int
]:
    """The race estimate of one colour's units: (spanning-tree weight, clusters left, any
    pair reachable, the tree's longest edge). The weight is about the moves still needed
    to join up; no reachable pair means no legal move; the longest edge is the widest gap
    still to close. A plain tuple: this runs at every leaf.

    `stones` is unused except to say the colour has stones; the regions grow through
    `empty` only, as distances do (AYU-6). Units that cannot reach any friend stay
    separate clusters and add nothing to the weight (the evaluation weighs the clusters
    apart, `CLUSTER_WEIGHT`).
    """
    regions = list(units)
    if len(regions) < 2:
        return 0, len(regions), False, 0
    cost = longest = 0
    reachable = False
    r = 0
    while len(regions) > 1:
        r += 1
        grown = []
        changed = False
        for region in regions:
            bigger = region | (spread(region) & empty)
            if bigger != region:
                changed = True
            grown.append(bigger)
        if not changed:
            break
        # Overlapping regions: 2r-1 apart.
        out: list[int] = []
        for region in grown:
            merged = region
            keep = []
            for other in out:
                if other & region:
                    merged |= other
                    cost += 2 * r - 1
                    longest = 2 * r - 1
                else:
                    keep.append(other)
            keep.append(merged)
            out = keep
        # Touching regions: 2r apart.
        grown, out = out, []
        for region in grown:
            merged = region
            around = spread(region)
            keep = []
            for other in out:
                if other & around:
                    merged |= other
                    cost += 2 * r
                    longest = 2 * r
                else:
                    keep.append(other)
            keep.append(merged)
            out = keep
        if len(out) < len(regions):
            reachable = True
        regions = out
    return cost, len(regions), reachable, longest


def units_of(own: int, spread: Callable[[int], int]) -> list[int]:
    units = []
    left = own
    while left:
        region = left & -left
        while True:
            grown = (spread(region) & own) | region
            if grown == region:
                break
            region = grown
        units.append(region)
        left &= ~region
    return units


@dataclass(frozen=True)
class AyuSearchSettings:
    max_depth: int = 64
    cost_scale: float = COST_SCALE
    tempo: float = TEMPO
    cluster_weight: float = CLUSTER_WEIGHT
    # Logit per point of the opponent's longest gap over the mover's (the last of `race`):
    # of two races of equal length, the one without a wide gap to cross is ahead.
    gap_weight: float = GAP_WEIGHT
    # Logits per move of race and per cluster that a colour's race grows by where the
    # other colour's joining points are closed (the opponent's growth less the mover's).
    contested_weight: float = CONTESTED_WEIGHT
    contested_cluster_weight: float = CONTESTED_CLUSTER_WEIGHT
    # Root moves within this many score points of the best get exact scores (not just
    # alpha-beta bounds), so that a softened choice (the easy levels) sees their real
    # values; 0 for full strength.
    root_margin: int = 0
    # Share `index` of `count` of the root moves, when worker processes split them
    # (engine/ai/root_split.py, `root_share.root_share`); (0, 1) is all of them.
    root_share: tuple[int, int] = (0, 1)
    # A proof search (engine/ai/ayu_prover.py): every undecided leaf scores 0, so only
    # forced wins and losses count, and the search prunes far more and goes deeper.
    proof_only: bool = False
    # Principal variation search with late move reductions: every move after the first is
    # asked first with a null window whether it beats alpha; at depth 3 and more, the
    # moves after the first `late_moves` (killers excepted) are asked a ply shallower (two
    # after three times as many). 0: neither. Off at every level: on 9x9 with 4, Master's
    # searcher went a ply or two deeper and beat the one without 33-27 at 1 s a move,
    # Master beat UCT 37-3 and Strong 14-6, where it goes 36-4 and 16-4 without; no
    # better (STRENGTH.md, "Late move reductions"). On 11x11 at 5 s they gained a ply in
    # three of five positions, but Master with them beat Strong only 8-6 where it had
    # gone 10-4 on the same openings ("Late move reductions for 11x11's Master").
    late_moves: int = 0


class _StoppedError(Exception):
    pass


class AyuSearcher:
    """Alpha-beta with iterative deepening for Ayu positions (see the module notes)."""

    def __init__(self, settings: AyuSearchSettings | None = None) -> None:
        self.settings = settings or AyuSearchSettings()

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
        root shares (worker processes, engine/ai/root_split.py; `root_share.RootBounds`).
        `table` is a transposition table to use and fill (None: a fresh one); only a
        search with the same settings may share it.
        """
        work = working_copy(position, history)
        assert isinstance(work, AyuPosition)
        run = _Run(
            self.settings, work, limits, should_stop or never_stop, root_bounds, table
        )
        return run.go(on_progress, on_iteration)


def evaluate(position: AyuPosition, settings: AyuSearchSettings | None = None) -> int:
    """Score for the side to move (±1000 scale; MATE-style values for decided races)."""
    return _evaluate(position, for_board(settings or AyuSearchSettings(), position), 0)


def evaluation_terms(position: Position) -> tuple[float, ...] | None:
    """The terms the evaluation weighs, in the order of `term_weights`, for fitting them
    (engine/ai/tuning.py): the race lead, 1 (the tempo), the clusters, the longest gaps,
    and the race and clusters the contested points add (each the opponent's less the
    mover's). None where the race is already decided."""
    assert isinstance(position, AyuPosition)
    differences = _race_differences(position, 0, contested=True)
    if isinstance(differences, int):
        return None
    return (float(differences[0]), 1.0, *map(float, differences[1:]))


def term_weights(settings: AyuSearchSettings) -> tuple[float, ...]:
    """The weights of `evaluation_terms` that `settings` evaluate with (its logit is their
    weighed sum)."""
    s = settings
    return (
        s.cost_scale, s.cost_scale * s.tempo, s.cluster_weight, s.gap_weight,
        s.contested_weight, s.contested_cluster_weight,
    )


def settings_of_weights(weights: Sequence[float]) -> AyuSearchSettings:
    """The settings whose `term_weights` are `weights` (a fit's result)."""
    cost_scale, tempo_logit, cluster_weight, gap_weight, contested, contested_clusters = (
        weights
    )
    return AyuSearchSettings(
        cost_scale=cost_scale, tempo=tempo_logit / cost_scale if cost_scale else 0.0,
        cluster_weight=cluster_weight, gap_weight=gap_weight, contested_weight=contested,
        contested_cluster_weight=contested_clusters,
    )


def for_board(settings: AyuSearchSettings, position: AyuPosition) -> AyuSearchSettings:
    """`settings` as a search of `position` uses them: Master's terms (the gap, the cluster
    weight, the contested points) only on the board sizes they were measured on
    (`MASTER_TERM_SIZES`)."""
    if position.game.size in MASTER_TERM_SIZES:
        return settings
    return without_master_terms(settings)


def without_master_terms(settings: AyuSearchSettings) -> AyuSearchSettings:
    """`settings` without Master's terms and late move reductions: the search the levels
    below Master use (levels.PLAIN_AYU) and every level uses off `MASTER_TERM_SIZES`."""
    return replace(
        settings, gap_weight=0.0, cluster_weight=PLAIN_CLUSTER_WEIGHT, contested_weight=0.0,
        contested_cluster_weight=0.0, late_moves=0,
    )


def _decided(position: AyuPosition, ply: int) -> int:
    """The proof search's leaf: a win or loss the position already shows (as in
    `_evaluate`), else 0."""
    geo = position.geo
    spread = geo.spread
    me = position.turn
    mine, theirs = position.stones[me], position.stones[me ^ 1]
    units = units_of(mine, spread)
    if len(units) < 2 or not any_pair_reachable(units, geo.board_mask & ~(mine | theirs), spread):
        return MATE - ply  # no legal move: the side to move has won (AYU-8)
    if one_unit(theirs, spread):
        return -(MATE - ply - 1)  # the opponent is one unit: it wins after any move
    return 0


def one_unit(stones: int, spread: Callable[[int], int]) -> bool:
    return flood(stones & -stones, stones, spread) == stones


def joining_all(position: AyuPosition) -> list[AyuMove]:
    """The mover's legal moves that leave all its stones one unit. Each goes to an empty
    point next to every unit, and any such move is legal if it leaves the moved stone's
    unit whole (a join always shortens the distance, AYU-7)."""
    geo = position.geo
    spread, neighbours = geo.spread, geo.neighbours
    mine = position.stones[position.turn]
    empty = geo.board_mask & ~(mine | position.stones[position.turn ^ 1])
    units = units_of(mine, spread)
    if len(units) < 2:
        return []
    common = empty
    for unit in units:
        common &= spread(unit)
        if not common:
            return []
    moves = []
    for unit in units:
        if unit & (unit - 1) == 0:
            source = unit.bit_length() - 1
            for target in bits(neighbours[source] & common):
                moves.append(geo.move(source, target))
            continue
        for source in bits(unit):
            remainder = unit ^ (1 << source)
            for target in bits(common & targets_keeping_connected(remainder, empty, spread)):
                moves.append(geo.move(source, target))
    return moves


def any_pair_reachable(units: list[int], empty: int, spread: Callable[[int], int]) -> bool:
    """Whether two of `units` can reach each other through `empty` (AYU-6), that is,
    whether their colour has a legal move (`race` says the same, at more cost)."""
    regions = list(units)
    while True:
        grown = []
        changed = False
        for region in regions:
            bigger = region | (spread(region) & empty)
            changed |= bigger != region
            grown.append(bigger)
        for i, region in enumerate(grown):
            around = spread(region) | region
            for other in grown[i + 1:]:
                if other & around:
                    return True
        if not changed:
            return False
        regions = grown


def joining_points(units: list[int], empty: int, spread: Callable[[int], int]) -> int:
    """The empty points next to two or more of `units`: where their colour joins units
    in one move, and so the points it is about to fill."""
    once = twice = 0
    for unit in units:
        around = spread(unit) & empty
        twice |= once & around
        once |= around
    return twice


def _race_differences(
    position: AyuPosition, ply: int, contested: bool = False
) -> int | tuple[int, int, int, int, int]:
    """Both colours' races (`race`) as the evaluation reads them: a decided score where
    they already decide the game, else the opponent's less the mover's race weight,
    clusters and longest gap, and (if `contested`, else zeros) the race weight and
    clusters each race gains where the other colour's joining points are closed."""
    geo = position.geo
    spread = geo.spread
    me = position.turn
    mine, theirs = position.stones[me], position.stones[me ^ 1]
    empty = geo.board_mask & ~(mine | theirs)
    my_units = units_of(mine, spread)
    my_cost, my_clusters, my_moves, my_gap = race(mine, empty, my_units, spread)
    if not my_moves:
        return MATE - ply  # no legal move: the side to move has won (AYU-8)
    their_units = units_of(theirs, spread)
    their_cost, their_clusters, their_moves, their_gap = race(
        theirs, empty, their_units, spread
    )
    if not their_moves and their_clusters == 1:
        # Whatever the mover plays, the opponent is then one unit with no move: it wins.
        return -(MATE - ply - 1)
    lead = their_cost - my_cost
    clusters = their_clusters - my_clusters
    if not contested:
        return lead, clusters, their_gap - my_gap, 0, 0
    my_closed, my_closed_clusters, _, _ = race(
        mine, empty & ~joining_points(their_units, empty, spread), my_units, spread
    )
    their_closed, their_closed_clusters, _, _ = race(
        theirs, empty & ~joining_points(my_units, empty, spread), their_units, spread
    )
    return (
        lead, clusters, their_gap - my_gap,
        their_closed - my_closed - lead,
        their_closed_clusters - my_closed_clusters - clusters,
    )


def _evaluate(position: AyuPosition, s: AyuSearchSettings, ply: int) -> int:
    differences = _race_differences(
        position, ply, contested=bool(s.contested_weight or s.contested_cluster_weight)
    )
    if isinstance(differences, int):
        return differences
    lead, clusters, gap, contested, contested_clusters = differences
    score = s.cost_scale * (lead + s.tempo) + s.cluster_weight * clusters + s.gap_weight * gap
    score += s.contested_weight * contested + s.contested_cluster_weight * contested_clusters
    return round((1.0 / (1.0 + math.exp(-score)) - 0.5) * 2000)


class _Run(TableReporting):
    position: AyuPosition
    stop_error = _StoppedError

    def __init__(
        self, settings: AyuSearchSettings, position: AyuPosition, limits: SearchLimits,
        should_stop: StopCheck, root_bounds: RootBounds | None = None,
        table: TranspositionTable | None = None,
    ) -> None:
        settings = for_board(settings, position)
        self.s = settings
        self.root_bounds = root_bounds
        self.share = settings.root_share
        self.position = position
        self.limits = limits
        self.should_stop = should_stop
        self.table: TranspositionTable = {} if table is None else table
        self.killers: dict[int, list[Move]] = {}
        self.history: dict[Move, int] = {}
        self.leaves: dict[int, int] = {}  # `_leaf`'s scores by position key, as `to_table`
        self.nodes = 0
        self.clock = Clock()
        self.deadline = None if limits.time is None else self.clock.began + limits.time
        # Repetition keys along the game and the search path (AYU-9).
        self.seen: dict[int, int] = {}
        for key in position.history_keys() + [position.repetition_key()]:
            self.seen[key] = self.seen.get(key, 0) + 1

    # -- driver -------------------------------------------------------------------------
    def go(
        self, on_progress: ProgressCallback | None,
        on_iteration: IterationCallback | None = None,
    ) -> SearchResult:
        position = self.position
        if position.outcome() is not None:
            return SearchResult(None, 0.5, (), (), 0, 0.0)
        # With empty killer and history tables the order depends on the position alone,
        # so every worker process cuts the same list into its root share.
        self.root_order = self._ordered(position.legal_moves(), 0, None)
        max_depth = min(self.s.max_depth, self.limits.depth or self.s.max_depth)
        return self._deepen(
            root_share(self.root_order, *self.s.root_share), max_depth, on_progress,
            on_iteration,
            lambda moves, best, scores: sorted(
                moves, key=lambda m: scores.get(m, -MATE - 2), reverse=True
            ),
        )

    def _root(self, moves: list[Move], depth: int) -> RootScores:
        return self._search_root(moves, depth, self._root_move, self.s.root_margin)

    def _root_move(self, move: Move, depth: int, alpha: int, beta: int) -> int:
        return -self._child(move, depth - 1, -beta, -alpha, 1)

    def _check(self) -> None:
        self.nodes += 1
        cap = self.limits.iterations
        if cap is not None and self.nodes > cap:
            raise _StoppedError
        if self.should_stop():
            raise _StoppedError
        if self.deadline is not None and time.perf_counter() >= self.deadline:
            raise _StoppedError

    # -- tree ---------------------------------------------------------------------------
    def _child(self, move: Move, depth: int, alpha: int, beta: int, ply: int) -> int:
        """Score (for the side to move after `move`) of the position after `move`."""
        position = self.position
        position.push(move)
        swap = isinstance(move, AyuMove) and move.source < 0
        key = position.repetition_key()
        try:
            if not swap:
                count = self.seen.get(key, 0)
                if count:
                    self._check()
                    return 0  # the first repetition is a draw (AYU-9)
                self.seen[key] = 1
            try:
                return self._negamax(depth, alpha, beta, ply)
            finally:
                if not swap:
                    del self.seen[key]
        finally:
            position.pop()

    def _negamax(self, depth: int, alpha: int, beta: int, ply: int) -> int:
        self._check()
        position = self.position
        if depth <= 0:
            if self.s.proof_only:
                return _decided(position, ply)
            return self._leaf(ply)
        if self.s.proof_only and depth <= 2:
            if depth == 1:
                return self._last_move(alpha, beta, ply)
            quick = self._no_threat(alpha, beta, ply)
            if quick is not None:
                return quick
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
        original_alpha = alpha
        best = -MATE - 1
        best_move: Move | None = None
        # The table's move first, before the others are generated: it often cuts off.
        first = hint if isinstance(hint, AyuMove) and position.allows(hint) else None
        if first is not None:
            best, best_move = -self._child(first, depth - 1, -beta, -alpha, ply + 1), first
            alpha = max(alpha, best)
        if alpha >= beta:
            assert first is not None
            self._note_cutoff(first, ply, depth)
        else:
            moves = position.rule_moves()
            if not moves:
                return MATE - ply  # the side to move has no move: it wins (AYU-8)
            if len(moves) > 1:
                moves = self._ordered(moves, ply, hint)
            late = self.s.late_moves
            killers = self.killers.get(ply, ())  # changed only by a cutoff here, ending the loop
            tried = 0 if first is None else 1
            for move in moves:
                if move == first:
                    continue
                tried += 1
                scouted = late and tried > 1
                if scouted and depth >= 3 and tried > late and move not in killers:
                    reduction = 2 if tried > 3 * late else 1
                    score = self._scout(move, depth, alpha, beta, ply, reduction)
                elif scouted and beta - alpha > 1:
                    score = self._scout(move, depth, alpha, beta, ply, 0)
                else:
                    score = -self._child(move, depth - 1, -beta, -alpha, ply + 1)
                if score > best:
                    best, best_move = score, move
                    if score > alpha:
                        alpha = score
                        if alpha >= beta:
                            self._note_cutoff(move, ply, depth)
                            break
        flag = UPPER if best <= original_alpha else LOWER if best >= beta else EXACT
        self.table[key] = (depth, to_table(best, ply), flag, best_move)
        return best

    def _scout(
        self, move: Move, depth: int, alpha: int, beta: int, ply: int, reduction: int
    ) -> int:
        """A later move's score with `late_moves`: asked first with a null window (and
        `reduction` plies less) whether it beats alpha, as a move ordered after the first
        rarely does; searched again in full only if it does."""
        score = -self._child(move, depth - 1 - reduction, -alpha - 1, -alpha, ply + 1)
        if score > alpha and (reduction or score < beta):
            score = -self._child(move, depth - 1, -beta, -alpha, ply + 1)
        return score

    def _leaf(self, ply: int) -> int:
        """`_evaluate`, remembered by position for the rest of this search: about a
        quarter of the leaves repeat a position met in another order, and the evaluation
        (four races with the contested points) is most of a leaf's cost."""
        key = self.position.key()
        stored = self.leaves.get(key)
        if stored is None:
            score = _evaluate(self.position, self.s, ply)
            self.leaves[key] = to_table(score, ply)
            return score
        return from_table(stored, ply)

    def _last_move(self, alpha: int, beta: int, ply: int) -> int:
        """A proof search's last ply: the mover wins with it only by joining all its units
        (and the opponent wins only if every move the mover has walls it in). Only the
        moves to a point next to every unit can join them all, so only those are tried;
        the rest count 0, as if the opponent kept a move. That misses the rare forced
        walling-in at the horizon, a proof left for a deeper search, and proves nothing
        false."""
        decided = _decided(self.position, ply)
        return decided or self._joins_only(0, alpha, beta, ply)

    def _no_threat(self, alpha: int, beta: int, ply: int) -> int | None:
        """Two plies from a proof search's horizon: the opponent can win within them only
        by joining all its units after the mover's move, which needs an empty point next
        to all of them, now or where a moved stone leaves. Without one, the mover's own
        joining moves settle the score (as in `_last_move`); else None, search on."""
        position = self.position
        decided = _decided(position, ply)
        if decided:
            return decided
        spread = position.geo.spread
        theirs = position.stones[position.turn ^ 1]
        mine = position.stones[position.turn]
        open_points = mine | (position.geo.board_mask & ~theirs)  # empty, or left by a move
        for unit in units_of(theirs, spread):
            open_points &= spread(unit)
            if not open_points:
                break
        else:
            return None
        return self._joins_only(1, alpha, beta, ply)

    def _joins_only(self, depth: int, alpha: int, beta: int, ply: int) -> int:
        """The score where only the mover's moves that join all its units can decide
        anything (`_last_move`, `_no_threat`): the best of them, searched `depth` on, or 0."""
        best = 0
        for move in joining_all(self.position):
            best = max(best, -self._child(move, depth, -beta, -alpha, ply + 1))
            if best >= beta:
                break
        return best

    def _note_cutoff(self, move: Move, ply: int, depth: int) -> None:
        killers = self.killers.setdefault(ply, [])
        if move not in killers:
            killers.insert(0, move)
            del killers[2:]
        self.history[move] = self.history.get(move, 0) + depth * depth

    def _ordered(self, moves: Sequence[Move], ply: int, hint: Move | None) -> list[Move]:
        position = self.position
        own = position.stones[position.turn]
        geo = position.geo
        spread, neighbours = geo.spread, geo.neighbours
        killers = self.killers.get(ply, ())
        history = self.history
        unit_cache: dict[int, int] = {}
        keyed = []
        for move in moves:
            assert isinstance(move, AyuMove)
            if move is hint or move == hint:
                rank = 1 << 40
            elif move in killers:
                rank = 1 << 35
            else:
                rank = history.get(move, 0)
                if move.source >= 0:
                    unit = unit_cache.get(move.source)
                    if unit is None:
                        region = 1 << move.source
                        while True:
                            grown = (spread(region) & own) | region
                            if grown == region:
                                break
                            region = grown
                        unit = region
                        left = region
                        while left:
                            low = left & -left
                            unit_cache[low.bit_length() - 1] = region
                            left ^= low
                    if neighbours[move.target] & own & ~unit:
                        rank += 1 << 30
            keyed.append((rank, move))
        keyed.sort(key=lambda item: item[0], reverse=True)
        return [move for _, move in keyed]

    # -- reporting ------------------------------------------------------------------------
