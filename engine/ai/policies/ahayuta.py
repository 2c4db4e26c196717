"""Ahayuta knowledge: material, the Ahayuta's march, captures and the winning step.

Uses the Ahayuta position's public API (`men`, `aha`, `res`, `pend`, `clamps`, `geo`
with `goal`, and the move fields `kind`, `source`, `target`, `newborn`). Squares are bits
`rank * 8 + file`; Light moves up the ranks.

* The evaluation: a weighed sum of terms (`EvalWeights`), read as the log-odds that the
  side to move wins: warriors on the board and in reserve, an Ahayuta on the board or owed
  (pending), and above all the race: how many turns each Ahayuta needs to reach the enemy
  home row over empty squares (`race_distance`), whether each has a path at all, who
  leads when both have one, an Ahayuta two steps from the goal; while a side has no
  Ahayuta yet, how near its warriors are to becoming one: warriors that could step onto
  the enemy home row next turn, and how many steps the nearest needs (`hero_march`); while
  not both have an Ahayuta, which side could have one at the goal first (`race_terms`:
  an Ahayuta's race distance, or a warrior's march plus the newborn's walk); an
  Ahayuta the opponent could clamp next turn, warriors stuck on the enemy home row. A side
  to move that can step onto the goal or clamp the enemy Ahayuta at once
  (`can_take_ahayuta`) is as good as won and is not weighed.
  The weights were fitted to the results of about 510 games between soft alpha-beta
  players using the earlier, hand-set evaluation (the method of `python -m engine tune`,
  engine/ai/tuning.py). The first fit, without `hero_march`, predicted held-out games with
  a log loss of 0.632, the hand-set evaluation (best scaled) 0.668, and the Master searcher
  with it beat itself with the hand-set evaluation 30-0 at 0.5 s a move (STRENGTH.md).
  Without `hero_march` the evaluation was almost flat before the first Ahayuta, and a
  shallow search let a random warrior walk in: Beginner lost 17 of 800 games to random
  play; with it, none of 800 (STRENGTH.md). Head to head these weights are clearly the
  stronger: 8-0 against the earlier ones at 5 s a move, and a Strong with the earlier
  weights lost 3-17 to an Intermediate with these. Against UCT at 5 s the earlier
  weights did better, 31-1 against 16-4 (STRENGTH.md, "Which weights"). Material hardly
  counts in the fit: losing a warrior early brings an Ahayuta (AHA-15), and the race
  decides most games. (The hand-set evaluation was material plus a capped race lead.
  Counting a warrior's walk to the hero row as part of that lead, with a hand-set weight,
  did worse; `hero_march` and the race terms are terms of their own, weighed by a fit.)
  The race terms came last (2026-12-01): a fit of three weights (one scale on the score
  above, and the two race weights) to 148 games of the current soft players cut the log
  loss on 37 held-out games from 0.528 to 0.512, and the Master searcher with them beat
  itself without them 17-3 at 1 s a move (STRENGTH.md). So every earlier weight is the
  earlier fit times 0.545.
* Ordering: the Ahayuta's winning step, then captures, then forward Ahayuta steps and
  hero moves (a warrior reaching the enemy row), then the rest.
* Playouts: always take a winning step, and prefer a capture among a few sampled moves.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from typing import NamedTuple

from engine.ai.policies import GamePolicy
from engine.core import Game, Move, Position
from engine.games.ahayuta import AhayutaPosition
from engine.games.ahayuta_geometry import AHAYUTA_STEPS, DEPLOY, PLACE, AhayutaMove

SAMPLES = 3
# The race: steps each Ahayuta needs to reach the enemy home row over empty squares.
NO_PATH = 12  # no Ahayuta yet, or its way is blocked
NEXT_STEP_WINS = 0.97  # value when the side to move can step onto the goal now


class EvalWeights(NamedTuple):
    """Weights of the evaluation's terms (logistic: the score is a log-odds of winning).

    Fitted to the results of games between soft alpha-beta players (see the module notes);
    "mine"/"theirs" are the race distances of the side to move and of the opponent.
    """

    tempo: float  # the side to move
    warriors: float  # per warrior on the board, over the opponent's
    reserve: float  # per warrior in reserve, over the opponent's
    ahayuta: float  # an Ahayuta on the board
    pending: float  # an Ahayuta owed (AHA-15)
    my_path: float  # the side to move's Ahayuta has a path to the goal
    their_path: float
    my_close: float  # times (NO_PATH - mine) / NO_PATH
    their_close: float
    lead: float  # both have paths: times (theirs - mine) / 4
    my_two: float  # the side to move's Ahayuta is two steps from the goal
    their_two: float  # the opponent's is two steps (or fewer) away
    hero: float  # per empty enemy home-row square a warrior can step to (up to 2), no Ahayuta yet
    attacked: float  # the opponent could clamp the side to move's Ahayuta next turn
    stuck: float  # per warrior standing on the enemy home row
    my_march: float  # no Ahayuta yet: times (8 - steps a warrior needs to the hero row) / 8
    their_march: float
    # Not both sides have an Ahayuta, but both have a way to one at the goal: each side's
    # turns to the goal (`time_to_goal`), their difference / 4 (capped at 2 either way),
    # and +1 or -1 as the side to move gets there first (or at the same time) or not.
    race_lead: float
    race_ahead: float


WEIGHTS = EvalWeights(
    tempo=0.049, warriors=0.055, reserve=-0.114, ahayuta=1.33, pending=0.981, my_path=0.011,
    their_path=0.049, my_close=0.948, their_close=-0.709, lead=2.507, my_two=1.194,
    their_two=-1.226, hero=0.153, attacked=-0.349, stuck=-0.403, my_march=0.861,
    their_march=-0.916, race_lead=0.761, race_ahead=0.263,
)


def _progress(side: int, square: int) -> int:
    """Ranks the Ahayuta of `side` has advanced from its own home row (0…7)."""
    rank = square // 8
    return rank if side == 0 else 7 - rank


_SHIFTS: dict[str, tuple[tuple[tuple[int, int], ...], ...]] = {}


def _shifts(option: str) -> tuple[tuple[tuple[int, int], ...], ...]:
    """Per side, the Ahayuta's steps as (bit shift, squares that may make that step)."""
    found = _SHIFTS.get(option)
    if found is None:
        per_side = []
        for forward in (1, -1):
            steps = []
            for df, dr in AHAYUTA_STEPS[option]:
                sources = sum(
                    1 << (rank * 8 + file)
                    for rank in range(8)
                    for file in range(8)
                    if 0 <= file + df < 8 and 0 <= rank + dr * forward < 8
                )
                steps.append((dr * forward * 8 + df, sources))
            per_side.append(tuple(steps))
        found = _SHIFTS[option] = tuple(per_side)
    return found


FILE_A = 0x0101010101010101
FILE_H = FILE_A << 7


def _warrior_targets(men: int, side: int) -> int:
    """Squares the warriors `men` of `side` could step to, occupancy ignored."""
    if side == 0:
        return (men & ~FILE_A) << 7 | (men & ~FILE_H) << 9
    return (men & ~FILE_A) >> 9 | (men & ~FILE_H) >> 7


def _spread(frontier: int, steps: tuple[tuple[int, int], ...]) -> int:
    grown = 0
    for shift, sources in steps:
        moved = frontier & sources
        grown |= moved << shift if shift > 0 else moved >> -shift
    return grown


def race_distance(position: AhayutaPosition, side: int) -> int:
    """Turns `side` needs to step its Ahayuta onto the enemy home row, pieces standing still.

    A pending Ahayuta counts its placement as one turn. `NO_PATH` if there is no Ahayuta
    yet or no path of empty squares.
    """
    geo = position.geo
    men, aha = position.men, position.aha
    empty = geo.board_mask & ~(men[0] | men[1] | aha[0] | aha[1])
    reach = aha[side]
    turns = 0
    if not reach:
        if not position.pend[side]:
            return NO_PATH
        reach = geo.home[side] & empty
        turns = 1
    goal = geo.goal[side]
    steps = _shifts(position.game.options["ahayuta_moves"])[side]
    frontier = reach
    while turns < NO_PATH - 1 and frontier:
        turns += 1
        grown = _spread(frontier, steps) & empty & ~reach
        if grown & goal:
            return turns
        frontier = grown & ~goal
        reach |= frontier
    return NO_PATH


def _hero_squares(position: AhayutaPosition, side: int, empty: int) -> int:
    """Empty enemy home-row squares a warrior of `side` could step to (0-2), while `side`
    has no Ahayuta yet: a warrior arriving there becomes one (AHA-14)."""
    if position.aha[side] or position.pend[side]:
        return 0
    targets = _warrior_targets(position.men[side], side) & empty & position.geo.goal[side]
    return min(2, targets.bit_count())


def march_steps(position: AhayutaPosition, side: int, empty: int) -> int | None:
    """How many warrior steps over empty squares `side` needs to reach an empty enemy
    home-row square and become a hero (AHA-14); None if `side` has or is owed an Ahayuta,
    or no warrior can get there."""
    if position.aha[side] or position.pend[side]:
        return None
    goal = position.geo.goal[side]
    frontier = position.men[side]
    for steps in range(1, 8):
        frontier = _warrior_targets(frontier, side) & empty
        if not frontier:
            return None
        if frontier & goal:
            return steps
    return None


def hero_march(steps: int | None) -> float:
    """The march term: (8 - steps) / 8 for `march_steps`, 0 where there is no march."""
    return 0.0 if steps is None else (8 - steps) / 8


# Turns a newborn Ahayuta needs from its home row to the goal on an open board.
HERO_RACE = 7


def time_to_goal(race: int, march: int | None) -> int | None:
    """Turns until a side's Ahayuta could reach the goal, from that side's `race_distance`
    and `march_steps`: the race distance, or else the march to the hero row and then the
    newborn's walk; None if neither is open."""
    if race < NO_PATH:
        return race
    return None if march is None else march + HERO_RACE


def race_terms(
    mine: int, theirs: int, my_march: int | None, their_march: int | None
) -> tuple[float, float]:
    """(race_lead, race_ahead) of `EvalWeights` for the side to move."""
    if mine < NO_PATH and theirs < NO_PATH:
        return 0.0, 0.0  # the Ahayutas' own race (`lead`) says it
    my_time, their_time = time_to_goal(mine, my_march), time_to_goal(theirs, their_march)
    if my_time is None or their_time is None:
        return 0.0, 0.0
    lead = max(-2.0, min(2.0, (their_time - my_time) / 4.0))
    return lead, 1.0 if my_time <= their_time else -1.0


def weighed_score(position: AhayutaPosition, me: int, mine: int, theirs: int) -> float:
    """The log-odds that `me` (the side to move) wins, given both race distances."""
    w = WEIGHTS
    them = me ^ 1
    geo = position.geo
    men, aha, res, pend = position.men, position.aha, position.res, position.pend
    empty = geo.board_mask & ~(men[0] | men[1] | aha[0] | aha[1])
    my_march, their_march = march_steps(position, me, empty), march_steps(position, them, empty)
    race_lead, race_ahead = race_terms(mine, theirs, my_march, their_march)
    score = (
        w.tempo
        + w.warriors * (men[me].bit_count() - men[them].bit_count())
        + w.reserve * (res[me] - res[them])
        + w.ahayuta * ((1 if aha[me] else 0) - (1 if aha[them] else 0))
        + w.pending * ((1 if pend[me] else 0) - (1 if pend[them] else 0))
        + w.hero * (_hero_squares(position, me, empty) - _hero_squares(position, them, empty))
        + w.stuck * ((men[me] & geo.goal[me]).bit_count()
                     - (men[them] & geo.goal[them]).bit_count())
        + w.my_march * hero_march(my_march)
        + w.their_march * hero_march(their_march)
        + w.race_lead * race_lead
        + w.race_ahead * race_ahead
    )
    if mine < NO_PATH:
        score += w.my_path + w.my_close * (NO_PATH - mine) / NO_PATH
        if mine == 2:
            score += w.my_two
    if theirs < NO_PATH:
        score += w.their_path + w.their_close * (NO_PATH - theirs) / NO_PATH
        if theirs <= 2:
            score += w.their_two
        if mine < NO_PATH:
            score += w.lead * (theirs - mine) / 4.0
    if aha[me] and can_take_ahayuta(position, them):
        score += w.attacked
    return score


def evaluation_terms(position: Position) -> tuple[float, ...] | None:
    """The terms `weighed_score` weighs, in the order of `EvalWeights`, for fitting them
    (engine/ai/tuning.py); None where the evaluation does not weigh (the next step wins)."""
    assert isinstance(position, AhayutaPosition)
    me = position.turn
    them = me ^ 1
    mine = race_distance(position, me)
    if mine == 1 or can_take_ahayuta(position):
        return None
    theirs = race_distance(position, them)
    geo = position.geo
    men, aha, res, pend = position.men, position.aha, position.res, position.pend
    empty = geo.board_mask & ~(men[0] | men[1] | aha[0] | aha[1])
    both = mine < NO_PATH and theirs < NO_PATH
    my_march, their_march = march_steps(position, me, empty), march_steps(position, them, empty)
    return (
        1.0,
        men[me].bit_count() - men[them].bit_count(),
        res[me] - res[them],
        (1 if aha[me] else 0) - (1 if aha[them] else 0),
        (1 if pend[me] else 0) - (1 if pend[them] else 0),
        1.0 if mine < NO_PATH else 0.0,
        1.0 if theirs < NO_PATH else 0.0,
        (NO_PATH - mine) / NO_PATH if mine < NO_PATH else 0.0,
        (NO_PATH - theirs) / NO_PATH if theirs < NO_PATH else 0.0,
        (theirs - mine) / 4.0 if both else 0.0,
        1.0 if mine == 2 else 0.0,
        1.0 if theirs <= 2 else 0.0,
        _hero_squares(position, me, empty) - _hero_squares(position, them, empty),
        1.0 if aha[me] and can_take_ahayuta(position, them) else 0.0,
        (men[me] & geo.goal[me]).bit_count() - (men[them] & geo.goal[them]).bit_count(),
        hero_march(my_march),
        hero_march(their_march),
        *race_terms(mine, theirs, my_march, their_march),
    )


def can_take_ahayuta(position: AhayutaPosition, side: int | None = None) -> bool:
    """Can `side` (by default the side to move) clamp the enemy Ahayuta with one arrival?"""
    side = position.turn if side is None else side
    target = position.aha[side ^ 1]
    if not target:
        return False
    geo = position.geo
    men, aha = position.men, position.aha
    empty = geo.board_mask & ~(men[0] | men[1] | aha[0] | aha[1])
    near = geo.adjacent[target.bit_length() - 1] & empty
    if not near:
        return False
    home = geo.home[side]
    if position.pend[side] and home & empty:
        arrivals = home
    else:
        arrivals = _warrior_targets(men[side], side)
        if position.res[side]:
            arrivals |= home
        if aha[side]:
            arrivals |= _spread(aha[side], _shifts(position.game.options["ahayuta_moves"])[side])
    near &= arrivals
    while near:
        low = near & -near
        near ^= low
        if position.clamps(side, low.bit_length() - 1) & target:
            return True
    return False


def _wins_now(position: AhayutaPosition, move: AhayutaMove) -> bool:
    side = position.turn
    return (
        move.source >= 0
        and bool(position.aha[side] >> move.source & 1)
        and bool(position.geo.goal[side] >> move.target & 1)
    )


def _captures(position: AhayutaPosition, move: AhayutaMove) -> int:
    side = position.turn
    if move.kind == DEPLOY or move.kind == PLACE or move.newborn < 0:
        return position.clamps(side, move.target)
    # A hero step: its arrival and its newborn Ahayuta can both capture.
    return position.clamps(side, move.target) | position.clamps(side, move.newborn)


class AhayutaPolicy(GamePolicy):
    name = "ahayuta-material"
    has_evaluator = True

    def evaluate(self, position: Position) -> float:
        assert isinstance(position, AhayutaPosition)
        me = position.turn
        mine = race_distance(position, me)
        if mine == 1 or can_take_ahayuta(position):
            return NEXT_STEP_WINS
        score = weighed_score(position, me, mine, race_distance(position, me ^ 1))
        return 1.0 / (1.0 + math.exp(-score))

    def order_moves(self, position: Position, moves: Sequence[Move]) -> list[Move]:
        assert isinstance(position, AhayutaPosition)
        ranked: list[tuple[int, int, Move]] = []
        side = position.turn
        for number, move in enumerate(moves):
            assert isinstance(move, AhayutaMove)
            if _wins_now(position, move):
                rank = 0
            else:
                taken = _captures(position, move)
                if taken & (position.aha[side ^ 1]):
                    rank = 0
                elif taken:
                    rank = 1 + (4 - min(3, taken.bit_count()))
                elif move.newborn >= 0:
                    rank = 6
                elif move.source >= 0 and position.aha[side] >> move.source & 1:
                    forward = _progress(side, move.target) > _progress(side, move.source)
                    rank = 6 if forward else 8
                else:
                    rank = 7
            ranked.append((rank, number, move))
        ranked.sort(key=lambda item: (item[0], item[1]))
        return [move for _, _, move in ranked]

    def playout_move(
        self, position: Position, moves: Sequence[Move], rng: random.Random
    ) -> Move:
        assert isinstance(position, AhayutaPosition)
        side = position.turn
        ahayuta = position.aha[side]
        if ahayuta:
            source = ahayuta.bit_length() - 1
            goal = position.geo.goal[side]
            for move in moves:
                assert isinstance(move, AhayutaMove)
                if move.source == source and goal >> move.target & 1:
                    return move
        move = moves[rng.randrange(len(moves))]
        for _ in range(SAMPLES):
            assert isinstance(move, AhayutaMove)
            if _captures(position, move):
                return move
            move = moves[rng.randrange(len(moves))]
        return move


def make_policy(game: Game) -> GamePolicy:
    return AhayutaPolicy()
