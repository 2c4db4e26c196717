"""Fitting evaluation weights: the logistic fit, and Ahayuta's terms against its evaluation."""

from __future__ import annotations

import math
import random

import pytest

from engine.__main__ import main
from engine.ai.policies.ahayuta import (
    WEIGHTS,
    AhayutaPolicy,
    evaluation_terms,
    race_distance,
    weighed_score,
)
from engine.ai.tuning import Row, fit_logistic, log_loss, split_games
from engine.games.ahayuta import AhayutaPosition
from tests.engine.ai_helpers import random_position


def test_the_fit_finds_the_weights_that_made_the_results() -> None:
    rng = random.Random(5)
    truth = [0.3, -1.5, 2.0]
    rows: list[Row] = []
    for _ in range(4000):
        terms = (1.0, rng.uniform(-2, 2), float(rng.randrange(-3, 4)))
        chance = 1.0 / (1.0 + math.exp(-sum(t * w for t, w in zip(terms, truth, strict=True))))
        rows.append((terms, 1.0 if rng.random() < chance else 0.0))
    weights = fit_logistic(rows)
    assert weights == pytest.approx(truth, abs=0.15)
    assert log_loss(rows, weights) < log_loss(rows, [0.0, 0.0, 0.0]) < math.log(2) + 1e-9


def test_a_term_that_never_varies_keeps_weight_zero() -> None:
    rows: list[Row] = [((1.0, 0.0), 1.0), ((1.0, 0.0), 0.0), ((1.0, 0.0), 1.0)]
    weights = fit_logistic(rows)
    assert weights[1] == 0.0
    assert 1.0 / (1.0 + math.exp(-weights[0])) == pytest.approx(2 / 3, abs=1e-3)


def test_every_fifth_game_is_held_out() -> None:
    games: list[list[Row]] = [[((float(n),), 1.0)] for n in range(10)]
    fit, held = split_games(games)
    assert [terms[0] for terms, _ in held] == [4.0, 9.0]
    assert len(fit) == 8


def test_the_ahayuta_terms_weighed_are_the_evaluation() -> None:
    rng = random.Random(12)
    policy = AhayutaPolicy()
    compared = 0
    for plies in range(2, 90, 2):
        position = random_position("ahayuta", 8, plies, rng)
        assert isinstance(position, AhayutaPosition)
        terms = evaluation_terms(position)
        if position.outcome() is not None or terms is None:
            continue
        me = position.turn
        score = weighed_score(position, me, race_distance(position, me),
                              race_distance(position, me ^ 1))
        assert sum(t * w for t, w in zip(terms, WEIGHTS, strict=True)) == pytest.approx(score)
        assert policy.evaluate(position) == pytest.approx(1.0 / (1.0 + math.exp(-score)))
        compared += 1
    assert compared > 20


def test_cli_tune_prints_fitted_weights(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["tune", "--games", "1", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    # One game is too few to hold any out, and the score must not claim otherwise.
    assert "game 1: " in out and "log loss on the fitted games (none held out)" in out
    assert "held-out log loss" not in out
    assert out.strip().splitlines()[-1].startswith("WEIGHTS = EvalWeights(tempo=")
