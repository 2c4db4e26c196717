"""What every searcher shares: limits, results, progress reports and the searcher protocol.

Values are win probabilities for the side to move at the searched position (0.0 … 1.0,
a draw is 0.5). A proven value comes with the number of plies (turns) to the end of the
game under best play.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from engine.core import EngineError, Move, Outcome, Position


@dataclass(frozen=True)
class SearchLimits:
    """How long to think: seconds, iterations (MCTS) or nodes (alpha-beta), or depth.

    Any combination may be given; the first one reached ends the search. With no time
    limit the search is reproducible for a given seed (nothing depends on the clock).
    """

    time: float | None = None
    iterations: int | None = None
    depth: int | None = None

    def __post_init__(self) -> None:
        if self.time is None and self.iterations is None and self.depth is None:
            raise EngineError("a search needs a time, an iteration or a depth limit")
        if self.time is not None and self.time <= 0:
            raise EngineError(f"the time per move must be positive, not {self.time}")
        if self.iterations is not None and self.iterations < 1:
            raise EngineError(f"the iterations must be 1 or more, not {self.iterations}")
        if self.depth is not None and self.depth < 1:
            raise EngineError(f"the depth must be 1 or more, not {self.depth}")


@dataclass(frozen=True)
class Candidate:
    """A root move as the search saw it: share of the effort and value for the mover."""

    move: Move
    share: float
    value: float
    proof: int | None = None  # proven result for the mover: +1 win, 0 draw, -1 loss


@dataclass(frozen=True)
class SearchInfo:
    """A progress report, small enough to send across threads a few times a second."""

    best_move: str
    value: float
    pv: tuple[str, ...]
    nodes: int
    rate: float
    elapsed: float
    proven: str  # "" or e.g. "proven win in 3"
    depth: int = 0


@dataclass(frozen=True)
class SearchResult:
    """The outcome of a search. `best_move` is None only if the position has no moves."""

    best_move: Move | None
    value: float
    pv: tuple[Move, ...]
    candidates: tuple[Candidate, ...]
    nodes: int
    elapsed: float
    depth: int = 0
    proven_result: int | None = None  # +1 win, 0 draw, -1 loss for the side to move
    proven_plies: int | None = None
    extra: dict[str, float] = field(default_factory=dict)

    @property
    def rate(self) -> float:
        return self.nodes / self.elapsed if self.elapsed > 0 else 0.0

    @property
    def proven(self) -> bool:
        return self.proven_result is not None

    def verdict(self) -> str:
        """"proven win in 5" (plies, i.e. turns, until the game ends), or "" if unproven."""
        return verdict_text(self.proven_result, self.proven_plies)

    def info(self) -> SearchInfo:
        return SearchInfo(
            best_move=self.best_move.to_text() if self.best_move else "",
            value=self.value,
            pv=tuple(m.to_text() for m in self.pv),
            nodes=self.nodes,
            rate=self.rate,
            elapsed=self.elapsed,
            proven=self.verdict(),
            depth=self.depth,
        )


def verdict_text(result: int | None, plies: int | None) -> str:
    if result is None:
        return ""
    word = {1: "win", 0: "draw", -1: "loss"}[result]
    return f"proven {word} in {plies}" if plies is not None else f"proven {word}"


StopCheck = Callable[[], bool]
ProgressCallback = Callable[[SearchInfo], None]


class Searcher(Protocol):
    """The one call every searcher answers (design.md section 3)."""

    def search(
        self,
        position: Position,
        history: Sequence[int],
        limits: SearchLimits,
        *,
        should_stop: StopCheck | None = None,
        on_progress: ProgressCallback | None = None,
        rng: random.Random | None = None,
    ) -> SearchResult: ...


def never_stop() -> bool:
    return False


def working_copy(position: Position, history: Sequence[int]) -> Position:
    """The searcher's own copy, with the game's earlier keys so repetition rules apply."""
    work = position.copy()
    if history:
        work.add_prior_history(history)
    return work


def outcome_value(outcome: Outcome, position: Position) -> float:
    """1.0 if the side to move at `position` has won, 0.0 if lost, 0.5 for a draw."""
    if outcome.winner is None:
        return 0.5
    return 1.0 if outcome.winner == position.turn_name else 0.0


def history_keys(start: Position, moves: Sequence[str]) -> tuple[Position, list[int]]:
    """Plays `moves` (checked) from `start`; returns the final position and its history.

    The history holds the repetition key of every earlier position (`Position.history_keys`;
    the Ayu pie swap makes no new position, so it adds none).
    """
    position = start.copy()
    for number, text in enumerate(moves, start=1):
        try:
            position.play(text)
        except EngineError as error:
            raise EngineError(f"move {number} ({text}): {error}") from None
    # A fresh position, so its own pushed history is not counted twice with the keys.
    return position.game.parse(position.to_text()), position.history_keys()


class Clock:
    """Elapsed time and throttled progress reports (at most `interval` seconds apart)."""

    def __init__(self, interval: float = 0.25) -> None:
        self.began = time.perf_counter()
        self.interval = interval
        self.next_report = self.began + interval

    def elapsed(self) -> float:
        return time.perf_counter() - self.began

    def report_due(self) -> bool:
        now = time.perf_counter()
        if now >= self.next_report:
            self.next_report = now + self.interval
            return True
        return False
