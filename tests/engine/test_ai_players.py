"""The softened choice of the easy levels, on a scripted search result."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from engine.ai.common import Candidate, SearchLimits, SearchResult
from engine.ai.players import SoftenedSearcher
from engine.registry import new_game


class _Scripted:
    """A search that always answers with the given candidates, best first."""

    def __init__(self, values: Sequence[tuple[Any, float, float]]) -> None:
        self.candidates = tuple(Candidate(m, share, value) for m, share, value in values)

    def search(self, position: Any, history: Any, limits: Any, **_: Any) -> SearchResult:
        best = self.candidates[0]
        return SearchResult(best.move, best.value, (best.move,), self.candidates, 100, 0.1)


def _picks(
    values: Sequence[tuple[Any, float, float]], temperature: float, games: int,
    *, cooling: bool = False,
) -> list[Any]:
    """The soft choice's move in `games` searches, one random stream each."""
    position = new_game("bug", 3).start()
    soft = SoftenedSearcher(_Scripted(values), temperature, cooling=cooling)
    return [
        soft.search(position, [], SearchLimits(iterations=1), rng=random.Random(seed)).best_move
        for seed in range(games)
    ]


def _choices(values: Sequence[tuple[Any, float, float]], temperature: float) -> set[Any]:
    return set(_picks(values, temperature, 200))


def test_the_soft_choice_takes_close_moves_but_never_a_proven_loss() -> None:
    # "c" is proven lost (value 0) although the search spent time on it.
    values = [("a", 0.4, 0.30), ("b", 0.3, 0.28), ("c", 0.3, 0.0)]
    assert _choices(values, 0.12) == {"a", "b"}


def test_the_soft_choice_still_moves_when_every_move_is_lost() -> None:
    values = [("a", 0.5, 0.0), ("b", 0.5, 0.0)]
    assert _choices(values, 0.12) <= {"a", "b"}


def test_a_cold_soft_choice_keeps_the_best_move() -> None:
    values = [("a", 0.5, 0.60), ("b", 0.3, 0.40), ("c", 0.2, 0.35)]
    assert _choices(values, 0.01) == {"a"}


def _share_of_worse(values: Sequence[tuple[Any, float, float]], *, cooling: bool) -> float:
    picks = _picks(values, 0.05, 400, cooling=cooling)
    return picks.count("b") / len(picks)


def test_a_cooling_soft_choice_errs_in_open_games_and_rarely_in_decided_ones() -> None:
    # An open game: the mistakes are as frequent as without cooling.
    open_game = [("a", 0.5, 0.52), ("b", 0.5, 0.47)]
    assert _share_of_worse(open_game, cooling=True) > 0.2
    # The ending of Ayu's lost Beginner games: 0.93 against 0.87 (temperature 0.05, so
    # about 0.013 cooled): the worse move comes up about one time in eight uncooled, one in
    # a hundred cooled.
    won = [("a", 0.5, 0.93), ("b", 0.5, 0.87)]
    assert _share_of_worse(won, cooling=False) > 0.08
    assert _share_of_worse(won, cooling=True) < 0.03
    certain = [("a", 0.5, 1.0), ("b", 0.5, 0.99)]
    assert _share_of_worse(certain, cooling=True) == 0.0
