"""Named levels per game: Beginner, Casual, Intermediate, Strong, Master, plus a custom time.

`level_limits(game_name, level, size=...)` returns `(searcher, limits, settings)`; pass the
board's size, since a size may have budgets of its own. The budgets are what one core
does in the given time; Master uses two worker processes where that measured
at least as strong as one (Bug: root parallel MCTS, and near the end Bug's df-pn prover in
the second process, engine/ai/endgame.py; on side 4 the two processes then split the
root's proof; Ayu 9x9 and 11x11: the alpha-beta's root moves split between the two, with
shared bounds, root_split.py); Ahayuta and Ayu's other sizes use one. A custom time with two
workers gets the same searchers.
The easy levels search a little, then choose softly among the top candidates
(`SoftenedSearcher`), so their mistakes look human rather than random.
Where time alone barely sets Master apart, the levels below it search with less
knowledge (`MASTER_ONLY_KNOWLEDGE`; Ayu's gap term, fitted cluster weight and contested
points, on 9x9 and 11x11), but for the parts a level keeps to stand above the one below
(`_KNOWING_LEVELS`).

Which searcher each game uses, and how every level measured against random play, the
level below and plain UCT, is recorded with the commands and seeds in `STRENGTH.md` next to
this module. Change a budget here only together with a measurement there.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TypeVar

from engine.ai.alphabeta import AlphaBetaSearcher, AlphaBetaSettings
from engine.ai.ayu_search import AyuSearcher, AyuSearchSettings, without_master_terms
from engine.ai.common import Searcher, SearchLimits
from engine.ai.endgame import SOLVER_SHARE, SolverFirstSearcher
from engine.ai.mcts import MctsSearcher, MctsSettings
from engine.ai.parallel import SOLVER_PAIR, ParallelSearcher
from engine.ai.players import RandomSearcher, SoftenedSearcher
from engine.core import EngineError

_Settings = TypeVar("_Settings", AyuSearchSettings, MctsSettings)

LEVELS = ("beginner", "casual", "intermediate", "strong", "master")
LEVEL_TITLES = {name: name.capitalize() for name in LEVELS}


@dataclass(frozen=True)
class LevelSettings:
    """What a level means: the budget, the choice temperature and the worker count."""

    level: str
    seconds: float | None
    iterations: int | None
    temperature: float  # 0: always the best move
    workers: int = 1
    # Where the endgame prover joins (_ENDGAME_REACH, _OWN_CORE_REACH); None: the policy's.
    endgame_reach: int | None = None
    # A counted level's prover budget in nodes (_COUNTED_PROVER); None: no prover.
    prover_nodes: int | None = None
    # A one-core timed level's prover part of the time near the end (_PROVER_SHARE);
    # None: endgame.SOLVER_SHARE.
    prover_share: float | None = None


# Per game: "mcts" or "alphabeta", and MCTS leaf evaluation (None = playouts to the end,
# a number = that many policy plies, then the policy's evaluation).
# "ayu" is Ayu's own alpha-beta (engine/ai/ayu_search.py).
GAME_ENGINE: dict[str, str] = {"ayu": "ayu", "bug": "mcts", "ahayuta": "alphabeta"}
MCTS_PLAYOUT_PLIES: dict[str, int | None] = {"ayu": 4, "bug": None, "ahayuta": 6}
# RAVE where it measured better: Bug 4, MCTS with RAVE against without, 12-8 (STRENGTH.md).
MCTS_RAVE: frozenset[str] = frozenset({"bug"})
# Visits at which a tree move's own value and its RAVE value weigh about the same. Bug 4,
# 1 s a move: 3000 against 300 won 35-25, and Beginner with it beat random play 397-3
# where it had gone 391-9 on the same openings (STRENGTH.md).
MCTS_RAVE_EQUIVALENCE: dict[str, float] = {"bug": 3000.0}
# Implicit minimax backups of the policy's evaluation in MCTS (MctsSettings), Master's
# knowledge only (MASTER_ONLY_KNOWLEDGE). Bug 4, the one-core searcher at 1 s a move with
# weight 0.15 against without: 84-36 over 120 games (0.3: 23-17 over 40); Master with it
# beat plain UCT 26-0 at 5 s (STRENGTH.md).
MCTS_IMPLICIT_MINIMAX: dict[str, float] = {"bug": 0.15}
# Near the end, a prover beside MCTS (engine/ai/endgame.py; Bug's own df-pn) on the timed
# levels: Bug's playouts misjudge endgames that a proof search settles.
ENDGAME_PROVER: frozenset[str] = frozenset({"bug"})

# (seconds, iterations, temperature, workers) per level. Beginner and Casual use iteration
# budgets so that they play the same on a slow and a fast computer.
_LADDER: dict[str, tuple[float | None, int | None, float, int]] = {
    "beginner": (None, 40, 0.12, 1),
    "casual": (None, 200, 0.05, 1),
    "intermediate": (1.0, None, 0.0, 1),
    "strong": (2.5, None, 0.0, 1),
    "master": (5.0, None, 0.0, 2),
}


# Per-game changes to the ladder, from measurements: Bug's Beginner on 40 iterations lost
# 1 of 4 games to random play on side 3, so it thinks a little longer.
_LADDER_OVERRIDES: dict[tuple[str, str], tuple[float | None, int | None, float, int]] = {
    ("bug", "beginner"): (None, 150, 0.12, 1),
    # Bug's Casual on 200 iterations beat Beginner only 23-17 (Bug 4), on 500 15-5. Once
    # RAVE weighed more (MCTS_RAVE_EQUIVALENCE) Casual on 500 drew near Intermediate
    # (11-9); on 300 it beat Beginner 28-12 and lost to Intermediate 12-28.
    ("bug", "casual"): (None, 300, 0.02, 1),
    # Ayu's alpha-beta counts nodes: 1000 finish depth 2 at the start of 9x9 and 11x11
    # (about 4 nodes per root move); 5000 finish depth 3 on 9x9 (most of it on 11x11).
    # Random moves all approach a friend in Ayu, so random play races fairly well: Beginner
    # on depth 1 (250 nodes, 0.12) and on 800 nodes with 0.08 each lost 2 of 20 to it
    # (both before the root margin, when the soft choice saw bounds, not values).
    ("ayu", "beginner"): (None, 1000, 0.05, 1),
    ("ayu", "casual"): (None, 5000, 0.02, 1),
    # Ahayuta's soft levels see exact root values (root margin). With the first fitted
    # evaluation Beginner on 400 nodes lost 14 of 400 games to random play, on 1000 nodes
    # 17 of 800; with the hero-march term, on 1000 nodes none of 800. Casual keeps a few
    # times Beginner's nodes.
    ("ahayuta", "beginner"): (None, 1000, 0.05, 1),
    ("ahayuta", "casual"): (None, 5000, 0.02, 1),
    # Two root-split workers against one at 0.5 s a move, Ahayuta: 6-6 splitting the root
    # only, 4-8 with shared root bounds (STRENGTH.md). The alpha-beta games' Master thinks
    # on one core until the split pays.
    ("ahayuta", "master"): (5.0, None, 0.0, 1),
    # Ahayuta's alpha-beta gains about a ply for 2-3 times the time, and the games between
    # close searchers go mostly to the colour: Master beat a Strong of 2.5 s only 13-7, one
    # of 1.25 s 15-5 on the same openings. Intermediate keeps below it at the same ratio as
    # before (STRENGTH.md).
    ("ahayuta", "strong"): (1.25, None, 0.0, 1),
    ("ahayuta", "intermediate"): (0.5, None, 0.0, 1),
    # Ayu's Master on one core but on 9x9 and 11x11 (_SIZE_OVERRIDES): with Ayu's prover on
    # the other (a pair since removed) it beat UCT no more often on 9x9 (16-4 both) and less
    # on 11x11 (5-3 against 12-0); the root split is measured on 9x9 and 11x11 only
    # (STRENGTH.md).
    ("ayu", "master"): (5.0, None, 0.0, 1),
}


# Per game and board size, where one size measured unlike the others (these win over the
# per-game changes above).
_SIZE_OVERRIDES: dict[tuple[str, int, str], tuple[float | None, int | None, float, int]] = {
    # Bug side 3 is short (about 15 plies) and unforgiving: on 150 iterations MCTS lost 7 of
    # 208 games to random play even at temperature 0, missing wins a solver proves in 8
    # plies; on 600 at temperature 0, none of 300. Casual on 1500 at 0.02 beat random play 99-1.
    # Once RAVE weighed more (MCTS_RAVE_EQUIVALENCE), Casual on 1500 beat a Beginner on 600
    # only 52-28, one on 300 63-17; the Beginner on 300 beat random play 589-11, where 600
    # had gone 296-4 (STRENGTH.md).
    ("bug", 3, "beginner"): (None, 300, 0.05, 1),
    ("bug", 3, "casual"): (None, 1500, 0.02, 1),
    # Ayu 9x9's Master on two cores, the root moves split between them with shared bounds
    # (root_split.py): about a ply deeper at 5 s; it beat UCT 39-1 where the one-core
    # Master went 36-4, and Strong 32-8 over four seeds (14-6 on the two where the
    # one-core Master went 16-4; STRENGTH.md, "Master on two cores").
    ("ayu", 9, "master"): (5.0, None, 0.0, 2),
    # 11x11 the same: with Master's terms on the split it beat the plain Strong 31-9
    # where one core went 27-13 on the same openings (STRENGTH.md, "The split against the
    # plain Strong").
    ("ayu", 11, "master"): (5.0, None, 0.0, 2),
}


# Soft levels whose temperature cools where the game looks decided (SoftenedSearcher's
# `cooling`). Ayu 9x9's Beginner lost its games to random play by giving away won endings:
# at 0.05 it lost 8 of 600 (seeds 201, 252, 2201), at 0.03 13 of 1000 (those, 4301 and
# 4302), at 0.05 cooled 9 of the 1000, and Casual still beat it 49-11 (STRENGTH.md,
# "Ayu 9x9's Beginner").
_COOLED: frozenset[tuple[str, int | None, str]] = frozenset({("ayu", 9, "beginner")})


# Where the endgame prover joins later for a level than the policy's own threshold
# (`GamePolicy.endgame_near`; Bug: empty cells). Side 3 has 19 cells, so with the
# policy's 20 the prover runs from the first move, every timed level plays the end
# perfectly and the colour decides: Strong beat Intermediate only 12-8. How far from the
# end a level starts to prove is now what sets side 3's upper levels apart. Measured over
# 40 games each: Intermediate at 9 drew even with Casual, at 10 beat it 33-7; Strong at
# 14 beat Intermediate at 10 33-7; Master beat Strong at 14 32-8 (STRENGTH.md).
# Side 4 the same way, one step: Strong (from the policy's 20) beat Intermediate from 20
# only 77-43 over 120 games; on one seed's openings it beat Intermediate from 12 29-11,
# where against Intermediate from 20 it stood at 11-15 after 26 games.
_ENDGAME_REACH: dict[tuple[str, int, str], int] = {
    ("bug", 3, "intermediate"): 10,
    ("bug", 3, "strong"): 14,
    ("bug", 4, "intermediate"): 12,
}

# Where a prover with a worker process of its own (Master's second core) joins earlier
# than the policy's threshold: it takes no time from MCTS there (on Bug a second MCTS
# worker measured no stronger than one), and the tables it builds from move to move bring
# its first proof a few empty cells earlier (STRENGTH.md).
_OWN_CORE_REACH: dict[str, int] = {"bug": 26}


# Levels that count iterations and still get the endgame prover, on a budget in nodes (a
# fresh prover each move, so that they stay reproducible): Bug 4's Casual beat Beginner
# only 79-41 without it (STRENGTH.md).
_COUNTED_PROVER: dict[tuple[str, int, str], int] = {("bug", 4, "casual"): 5000}


# The prover's part of a one-core timed level's time where the end is near, where the
# default (endgame.SOLVER_SHARE, 0.4) measured short: on side 4 a prover of 20,000 fresh
# nodes (a Casual's) proves about as much as 0.4 of 2.5 s, so more time bought little
# above such a level until the prover got more of it. Empty for now: a 3 s Strong with
# 0.8 and the minimax term beat the shipped Master 13-7 (STRENGTH.md).
_PROVER_SHARE: dict[tuple[str, int, str], float] = {}

# The same with worker processes (ParallelSearcher's `prover_share`): near the end the
# MCTS worker proves first for that part of the time, and the two provers split the root.
# Bug 4's Master so, against a one-core Strong of 3 s with the minimax term and 80% of its
# time for the prover: 13-7, where Master with MCTS on one core and the whole root proved
# on the other went 7-13 on the same openings (STRENGTH.md, session 39).
_PAIR_PROVER_SHARE: dict[tuple[str, int, str], float] = {("bug", 4, "master"): 0.8}

# Levels below Master that keep some of MASTER_ONLY_KNOWLEDGE all the same, per game and
# size: the settings fields (AyuSearchSettings, MctsSettings) whose Master values they
# search with. 11x11's plain Strong is Intermediate's search with more time, and beat it
# only 12-8; with the contested clusters it beat Intermediate 31-9 over forty games and
# Master beat it 40-20 over sixty (two games short of 70%, where the plain Strong went
# 31-9), while all of the contested points took Strong to 18-2 but left Master 8-8
# (STRENGTH.md, "The contested clusters alone, both steps to forty games", and
# "Master-Strong on 11x11, twenty more games").
_KNOWING_LEVELS: dict[tuple[str, int, str], frozenset[str]] = {
    ("ayu", 11, "strong"): frozenset({"contested_cluster_weight"}),
}


def _prover_reach(game_name: str, workers: int, reach: int | None) -> int | None:
    """`reach` as given, or with workers to spare and none given, `_OWN_CORE_REACH`."""
    if reach is None and workers > 1:
        return _OWN_CORE_REACH.get(game_name)
    return reach


# Root moves this close to the best get exact scores in the generic alpha-beta, for the
# softened choice of the easy levels (and the soft players that tuning plays).
SOFT_ROOT_MARGIN = 300
# The same for Ayu's own alpha-beta (the same ±1000 scale).
SOFT_AYU_ROOT_MARGIN = 400

# Games whose levels below Master search without part of the evaluation. Ayu: the gap
# term (ayu_search.GAP_WEIGHT), the fitted cluster weight (CLUSTER_WEIGHT) and the
# contested points (CONTESTED_WEIGHT). Ayu's search picks the same move at 1, 2.5 and 5 s
# in most positions, so Master beat Strong only 12-8 on time alone (STRENGTH.md). Bug: the
# implicit minimax term (MCTS_IMPLICIT_MINIMAX), so that the levels below Master play as
# they were measured against each other and against random play.
MASTER_ONLY_KNOWLEDGE: frozenset[str] = frozenset({"ayu", "bug"})
PLAIN_AYU = without_master_terms(AyuSearchSettings())


def searcher_for(
    game_name: str,
    *,
    workers: int = 1,
    reach: int | None = None,
    master_terms: frozenset[str] | None = None,
    prover_nodes: int | None = None,
    prover_share: float | None = None,
) -> Searcher:
    """The full-strength searcher for a game (no softening); `reach` sets where a Bug
    search calls its endgame prover (`_ENDGAME_REACH`; None: the policy's threshold, or
    `_OWN_CORE_REACH` with workers to spare); `master_terms` names the settings fields of
    the knowledge kept for Master (`MASTER_ONLY_KNOWLEDGE`) that the search keeps (None:
    all of it; empty: the plain search); `prover_nodes` gives a counted search the prover
    (`_COUNTED_PROVER`); `prover_share` is a one-core timed search's prover part of the
    time near the end (`_PROVER_SHARE`; None: endgame.SOLVER_SHARE)."""
    inner: Searcher
    if GAME_ENGINE.get(game_name, "mcts") == "ayu":
        settings = _keeping(PLAIN_AYU, AyuSearchSettings(), master_terms)
        if workers > 1:
            return ParallelSearcher(game_name, "ayu", workers, settings=settings)
        return AyuSearcher(settings)
    if GAME_ENGINE.get(game_name, "mcts") == "alphabeta":
        inner = AlphaBetaSearcher(AlphaBetaSettings())
        if workers > 1:
            return ParallelSearcher(game_name, "alphabeta", workers)
        return inner
    prover = game_name in ENDGAME_PROVER
    tree_settings = _keeping(
        mcts_settings(game_name, plain=True), mcts_settings(game_name), master_terms
    )
    if workers > 1:
        reach = _prover_reach(game_name, workers, reach)
        return ParallelSearcher(
            game_name, SOLVER_PAIR if prover else "mcts", workers, reach, settings=tree_settings,
            prover_share=prover_share if prover else None,
        )
    mcts = MctsSearcher(tree_settings)
    if not prover:
        return mcts
    share = SOLVER_SHARE if prover_share is None else prover_share
    return SolverFirstSearcher(mcts, share=share, reach=reach, prover_nodes=prover_nodes)


def _keeping(plain: _Settings, full: _Settings, master_terms: frozenset[str] | None) -> _Settings:
    """`plain` with `full`'s values for the fields named in `master_terms`; None: `full`."""
    if master_terms is None:
        return full
    return replace(plain, **{name: getattr(full, name) for name in master_terms})


def mcts_settings(game_name: str, *, plain: bool = False) -> MctsSettings:
    """A game's MCTS settings; `plain` leaves out what MASTER_ONLY_KNOWLEDGE keeps for
    Master."""
    return MctsSettings(
        playout_plies=MCTS_PLAYOUT_PLIES.get(game_name),
        rave=game_name in MCTS_RAVE,
        rave_equivalence=MCTS_RAVE_EQUIVALENCE.get(game_name, MctsSettings.rave_equivalence),
        implicit_minimax=0.0 if plain else MCTS_IMPLICIT_MINIMAX.get(game_name, 0.0),
    )


def level_limits(
    game_name: str, level: str, *, workers: int | None = None, size: int | None = None
) -> tuple[Searcher, SearchLimits, LevelSettings]:
    """The searcher, limits and settings of a named level for a game (on a board of `size`,
    where that matters)."""
    key = level.lower()
    if key not in _LADDER:
        raise EngineError(f"unknown level {level!r}; the levels are {', '.join(LEVELS)}")
    budget = _LADDER_OVERRIDES.get((game_name, key), _LADDER[key])
    reach = None
    prover_nodes = None
    prover_share = None
    if size is not None:
        budget = _SIZE_OVERRIDES.get((game_name, size, key), budget)
        reach = _ENDGAME_REACH.get((game_name, size, key))
        prover_nodes = _COUNTED_PROVER.get((game_name, size, key))
        prover_share = _PROVER_SHARE.get((game_name, size, key))
    seconds, iterations, temperature, default_workers = budget
    count = default_workers if workers is None else workers
    if count > 1:
        # Worker processes count no prover, and give it a core of its own (reported as used).
        prover_nodes = None
        prover_share = _PAIR_PROVER_SHARE.get((game_name, size, key)) if size else None
    reach = _prover_reach(game_name, count, reach)  # chosen once: used and reported
    settings = LevelSettings(
        key, seconds, iterations, temperature, count, reach, prover_nodes, prover_share
    )
    master_terms = None
    if key != "master" and game_name in MASTER_ONLY_KNOWLEDGE:
        master_terms = _KNOWING_LEVELS.get((game_name, size or 0, key), frozenset())
    searcher = searcher_for(
        game_name, workers=count, reach=reach, master_terms=master_terms,
        prover_nodes=prover_nodes, prover_share=prover_share,
    )
    if temperature > 0 and isinstance(searcher, AyuSearcher):
        # Exact values for the root moves near the best, for the softened choice.
        searcher = AyuSearcher(replace(searcher.settings, root_margin=SOFT_AYU_ROOT_MARGIN))
    elif temperature > 0 and GAME_ENGINE.get(game_name) == "alphabeta" and count == 1:
        searcher = AlphaBetaSearcher(AlphaBetaSettings(root_margin=SOFT_ROOT_MARGIN))
    if temperature > 0:
        searcher = SoftenedSearcher(
            searcher, temperature, cooling=(game_name, size, key) in _COOLED
        )
    return searcher, SearchLimits(time=seconds, iterations=iterations), settings


def custom_limits(
    game_name: str, seconds: float, *, workers: int = 1, size: int | None = None
) -> tuple[Searcher, SearchLimits, LevelSettings]:
    """Full strength with a custom time per move: Master's search (on a board of `size`,
    where that matters) for `seconds`."""
    reach = _prover_reach(game_name, workers, None)
    share = _PAIR_PROVER_SHARE.get((game_name, size, "master")) if workers > 1 and size else None
    settings = LevelSettings("custom", seconds, None, 0.0, workers, reach, None, share)
    searcher = searcher_for(game_name, workers=workers, reach=reach, prover_share=share)
    return searcher, SearchLimits(time=seconds), settings


def measuring_searcher(name: str) -> Searcher | None:
    """The measuring sticks of the match tool: `random` and plain `uct`."""
    if name == "random":
        return RandomSearcher()
    if name == "uct":
        return MctsSearcher(MctsSettings(uniform=True, solver=False, exploration=0.7))
    return None
