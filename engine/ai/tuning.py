"""Fitting an evaluation's weights to game results (logistic regression, "Texel tuning").

The evaluation of a game with a fitted evaluation (Ahayuta's, and Ayu's cluster weight) is
a weighed sum of terms read as the log-odds that the side to move wins. To fit the
weights, soft alpha-beta players play games against each other from a few random plies
(the generic alpha-beta, or a game's own, `player`); every position they meet becomes a
row (its terms, and 1, 0.5 or 0 as the side to move went on to win, draw or lose), and
Newton's method finds the weights that predict those results best.
A fifth of the games (chosen by number) is kept out of the fit to report how well the
weights predict games they have not seen.

Pure Python: a few hundred games give some ten thousand rows of about fifteen terms,
which the fit handles in seconds.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from engine.ai.alphabeta import AlphaBetaSearcher, AlphaBetaSettings
from engine.ai.common import Searcher, SearchLimits
from engine.ai.levels import SOFT_ROOT_MARGIN
from engine.ai.players import SoftenedSearcher
from engine.core import Game, Position

Terms = Callable[[Position], Sequence[float] | None]
Row = tuple[Sequence[float], float]


@dataclass(frozen=True)
class SelfPlay:
    """How the games that yield the rows are played."""

    games: int
    seed: int = 1
    random_plies: int = 4
    node_budgets: tuple[int, ...] = (500, 2000, 6000)  # one drawn per move
    temperature: float = 0.04
    ply_cap: int = 200


def self_play_rows(
    game: Game, terms: Terms, plan: SelfPlay,
    on_game: Callable[[int, str | None, int], None] | None = None,
    player: Searcher | None = None,
) -> list[list[Row]]:
    """Per game, the rows of the positions where an AI moved (`terms` None: left out).

    `player` searches the moves before the softened choice: a search with exact root
    values near the best (a root margin); None is the generic alpha-beta."""
    rng = random.Random(plan.seed)
    inner = player or AlphaBetaSearcher(AlphaBetaSettings(root_margin=SOFT_ROOT_MARGIN))
    searcher = SoftenedSearcher(inner, plan.temperature)
    games: list[list[Row]] = []
    for number in range(plan.games):
        position = game.start()
        seen: list[tuple[Sequence[float], str]] = []
        plies = 0
        while position.outcome() is None and plies < plan.ply_cap:
            moves = position.legal_moves()
            if plies < plan.random_plies:
                move = moves[rng.randrange(len(moves))]
            else:
                row = terms(position)
                if row is not None:
                    seen.append((row, position.turn_name))
                limits = SearchLimits(iterations=rng.choice(plan.node_budgets))
                found = searcher.search(position, [], limits, rng=rng).best_move
                assert found is not None
                move = found
            position.push(move)
            plies += 1
        outcome = position.outcome()
        winner = None if outcome is None else outcome.winner
        games.append([
            (row, 0.5 if winner is None else 1.0 if winner == mover else 0.0)
            for row, mover in seen
        ])
        if on_game is not None:
            on_game(number, winner, plies)
    return games


def split_games(games: Sequence[list[Row]]) -> tuple[list[Row], list[Row]]:
    """(fitting rows, held-out rows): every fifth game is held out."""
    fit: list[Row] = []
    held: list[Row] = []
    for number, rows in enumerate(games):
        (held if number % 5 == 4 else fit).extend(rows)
    return fit, held


def log_loss(rows: Sequence[Row], weights: Sequence[float]) -> float:
    """Mean cross-entropy of the predicted win chances against the results."""
    total = 0.0
    for terms, result in rows:
        chance = _chance(terms, weights)
        total -= result * math.log(chance) + (1.0 - result) * math.log(1.0 - chance)
    return total / max(1, len(rows))


def fit_logistic(rows: Sequence[Row], l2: float = 1e-4, steps: int = 15) -> list[float]:
    """The weights of the logistic model that best predicts the results (Newton's method,
    with a small ridge so that terms that never vary stay at 0)."""
    if not rows:
        raise ValueError("no rows to fit")
    size = len(rows[0][0])
    weights = [0.0] * size
    count = len(rows)
    for _ in range(steps):
        gradient = [l2 * w for w in weights]
        hessian = [[l2 if i == j else 0.0 for j in range(size)] for i in range(size)]
        for terms, result in rows:
            chance = _chance(terms, weights)
            error = (chance - result) / count
            curve = chance * (1.0 - chance) / count
            for i in range(size):
                t_i = terms[i]
                if t_i == 0.0:
                    continue
                gradient[i] += error * t_i
                line = hessian[i]
                scaled = curve * t_i
                for j in range(size):
                    line[j] += scaled * terms[j]
        step = _solve(hessian, gradient)
        weights = [w - s for w, s in zip(weights, step, strict=True)]
        if max(abs(s) for s in step) < 1e-6:
            break
    return weights


def _chance(terms: Sequence[float], weights: Sequence[float]) -> float:
    score = sum(t * w for t, w in zip(terms, weights, strict=True))
    score = max(-30.0, min(30.0, score))
    return min(1.0 - 1e-9, max(1e-9, 1.0 / (1.0 + math.exp(-score))))


def _solve(matrix: list[list[float]], vector: list[float]) -> list[float]:
    """Gaussian elimination with partial pivoting (the matrix is small and well posed)."""
    size = len(vector)
    rows = [line[:] + [value] for line, value in zip(matrix, vector, strict=True)]
    for column in range(size):
        pivot = max(range(column, size), key=lambda r: abs(rows[r][column]))
        rows[column], rows[pivot] = rows[pivot], rows[column]
        lead = rows[column][column]
        for r in range(column + 1, size):
            factor = rows[r][column] / lead
            if factor:
                for c in range(column, size + 1):
                    rows[r][c] -= factor * rows[column][c]
    solution = [0.0] * size
    for r in range(size - 1, -1, -1):
        tail = sum(rows[r][c] * solution[c] for c in range(r + 1, size))
        solution[r] = (rows[r][size] - tail) / rows[r][r]
    return solution
