"""AI against AI: colours alternate, results for the first-named side with a 95% interval.

Bug has no draw rule and no proof that games end, so matches stop a game at an
*unofficial* ply cap and count it as a draw (rules.md B15/Q-B2); the other games get a cap
too (AI play only), well above their usual length.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from dataclasses import dataclass, replace

from engine.ai.common import Searcher, SearchLimits
from engine.ai.levels import custom_limits, level_limits, measuring_searcher
from engine.core import EngineError, Game

PLY_CAPS = {"bug": 200, "ayu": 400, "ahayuta": 400}


@dataclass(frozen=True)
class Contender:
    label: str
    searcher: Searcher
    limits: SearchLimits


def contender(
    game: Game,
    spec: str,
    seconds: float | None,
    workers: int | None = None,
    time_scale: float = 1.0,
) -> Contender:
    """A level name, `random` or `uct`; `seconds` (if given) replaces the time budget.

    `workers` None leaves each level its own worker count (Master 2, the others 1).

    `time_scale` multiplies whatever time budget the contender ends up with (a level's own
    time, `seconds`, or the measuring stick's default 1 s), so that a ladder can be measured
    at a fraction of the real times; iteration budgets are left alone.
    """
    if time_scale <= 0:
        raise EngineError(f"the time scale must be positive, not {time_scale}")
    stick = measuring_searcher(spec)
    if stick is not None:
        limits = SearchLimits(time=seconds if seconds else 1.0)
        return Contender(spec, stick, _scaled(limits, time_scale))
    if spec == "custom":
        if not seconds:
            raise EngineError("the custom level needs --time")
        searcher, limits, _ = custom_limits(
            game.name, seconds, workers=workers or 1, size=game.size
        )
        return Contender(spec, searcher, _scaled(limits, time_scale))
    searcher, limits, settings = level_limits(game.name, spec, workers=workers, size=game.size)
    if seconds:
        limits = SearchLimits(time=seconds)
    return Contender(spec, searcher, _scaled(limits, time_scale))


def _scaled(limits: SearchLimits, time_scale: float) -> SearchLimits:
    if limits.time is None or time_scale == 1.0:
        return limits
    return replace(limits, time=limits.time * time_scale)


@dataclass
class GameRecord:
    winner: int | None  # index of the contender (0 = first) or None for a draw
    plies: int
    capped: bool
    first_player_won: bool | None  # did the game's first player (Black/Light) win?
    moves: tuple[str, ...] = ()  # every move from the start, random opening included
    first_player: str = ""  # label of the contender that moved first


def record_text(number: int, record: GameRecord, start: str, labels: tuple[str, str]) -> str:
    """One game for `--record`: a heading line, then `python -m engine play` arguments.

    The moves can be replayed with `python -m engine play "<start>" <moves...>`.
    """
    if record.winner is None:
        result = "a draw at the unofficial ply cap" if record.capped else "a draw"
    else:
        result = f"{labels[record.winner]} won"
    heading = (f"game {number + 1}: {record.first_player} moved first; {result} "
               f"in {record.plies} plies")
    return f"{heading}\nstart: {start}\nmoves: {' '.join(record.moves)}\n\n"


@dataclass
class MatchResult:
    first: str
    second: str
    records: list[GameRecord]

    def lines(self) -> list[str]:
        n = len(self.records)
        wins = sum(1 for r in self.records if r.winner == 0)
        losses = sum(1 for r in self.records if r.winner == 1)
        draws = n - wins - losses
        capped = sum(1 for r in self.records if r.capped)
        score = (wins + 0.5 * draws) / n if n else 0.0
        low, high = wilson_interval(wins + 0.5 * draws, n)
        decided = [r.first_player_won for r in self.records if r.first_player_won is not None]
        first_rate = sum(decided) / len(decided) if decided else 0.0
        length = sum(r.plies for r in self.records) / n if n else 0.0
        pairs = [self.records[i:i + 2] for i in range(0, n - 1, 2)]
        split = sum(1 for a, b in pairs if {a.winner, b.winner} == {0, 1})
        return [
            f"{self.first} vs {self.second}: {n} games",
            f"{self.first}: {wins} wins, {draws} draws, {losses} losses; "
            f"score {score:.3f} (95% interval {low:.3f}-{high:.3f})",
            f"draws at the unofficial ply cap: {capped}",
            f"average game length: {length:.1f} plies",
            f"first player's win rate (decided games): {first_rate:.3f}",
            # A split pair: each side won with the same colour from the same opening.
            f"opening pairs split 1-1: {split} of {len(pairs)}",
        ]


def wilson_interval(successes: float, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def random_opening(game: Game, plies: int, rng: random.Random) -> list[str]:
    """A few uniformly random first moves, so that deterministic players vary their games."""
    position = game.start()
    moves: list[str] = []
    for _ in range(plies):
        legal = position.legal_moves()
        if not legal:
            break
        move = legal[rng.randrange(len(legal))]
        position.push(move)
        if position.outcome() is not None:
            position.pop()
            break
        moves.append(move.to_text())
    return moves


def play_game(
    game: Game,
    seats: tuple[Contender, Contender],
    rng: random.Random,
    ply_cap: int,
    opening: list[str] | None = None,
) -> tuple[int | None, int, bool, tuple[str, ...]]:
    """One game; `seats[0]` moves first.

    Returns (winning seat or None, plies, capped, the moves played from the start).
    """
    position = game.start()
    moves = list(opening or [])
    for text in moves:
        position.play(text)
    history: list[int] = []
    plies = len(moves)
    while position.outcome() is None:
        if plies >= ply_cap:
            return None, plies, True, tuple(moves)
        seat = seats[position.turn]
        result = seat.searcher.search(
            position, history, seat.limits, rng=random.Random(rng.getrandbits(32))
        )
        if result.best_move is None:
            raise EngineError(f"{seat.label} returned no move in {position.to_text()}")
        # The position keeps its own history of pushed moves; `history` stays empty.
        moves.append(result.best_move.to_text())
        position.push(result.best_move)
        plies += 1
    outcome = position.outcome()
    assert outcome is not None
    if outcome.winner is None:
        return None, plies, False, tuple(moves)
    return game.players.index(outcome.winner), plies, False, tuple(moves)


def run_match(
    game: Game,
    first: Contender,
    second: Contender,
    games: int,
    seed: int = 1,
    on_game: Callable[[int, GameRecord], None] | None = None,
    opening_plies: int = 2,
) -> MatchResult:
    """Games in pairs: both colour assignments from the same random opening."""
    rng = random.Random(seed)
    cap = PLY_CAPS.get(game.name, 400)
    records = []
    opening: list[str] = []
    for number in range(games):
        first_moves_first = number % 2 == 0
        if first_moves_first:
            opening = random_opening(game, opening_plies, random.Random(f"{seed}-{number}"))
        seats = (first, second) if first_moves_first else (second, first)
        winner_seat, plies, capped, moves = play_game(game, seats, rng, cap, opening)
        if winner_seat is None:
            record = GameRecord(None, plies, capped, None, moves, seats[0].label)
        else:
            winner = winner_seat if first_moves_first else 1 - winner_seat
            record = GameRecord(winner, plies, capped, winner_seat == 0, moves, seats[0].label)
        records.append(record)
        if on_game is not None:
            on_game(number, record)
    return MatchResult(first.label, second.label, records)
