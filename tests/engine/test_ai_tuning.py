"""Fitting evaluation weights: the logistic fit, and Ahayuta's and Ayu's terms against their
evaluations."""

from __future__ import annotations

import math
import random

import pytest

from engine.__main__ import main
from engine.ai.ayu_search import (
    AyuSearchSettings,
    evaluate,
    for_board,
    settings_of_weights,
    term_weights,
)
from engine.ai.ayu_search import evaluation_terms as ayu_terms
from engine.ai.policies.ahayuta import (
    WEIGHTS,
    AhayutaPolicy,
    evaluation_terms,
    race_distance,
    weighed_score,
)
from engine.ai.tuning import Row, fit_logistic, log_loss, split_games
from engine.games.ahayuta import AhayutaPosition
from engine.games.ayu import AyuPosition
from engine.registry import new_game
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


def test_the_ayu_terms_weighed_are_the_evaluation() -> None:
    rng = random.Random(14)
    compared = 0
    for size in (9, 11):
        settings = for_board(AyuSearchSettings(), new_game("ayu", size).start())
        for plies in range(4, 60, 4):
            position = random_position("ayu", size, plies, rng)
            assert isinstance(position, AyuPosition)
            terms = ayu_terms(position)
            if position.outcome() is not None or terms is None:
                continue
            logit = sum(t * w for t, w in zip(terms, term_weights(settings), strict=True))
            expected = round((1.0 / (1.0 + math.exp(-logit)) - 0.5) * 2000)
            assert evaluate(position) == expected
            compared += 1
    assert compared > 10


def test_fitted_ayu_weights_read_back_as_settings() -> None:
    weights = term_weights(AyuSearchSettings())
    assert term_weights(settings_of_weights(weights)) == pytest.approx(weights)


def test_cli_tune_fits_ayu_too(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["tune", "--game", "ayu", "--size", "7", "--games", "1", "--seed", "2"]) == 0
    out = capsys.readouterr().out
    assert "game 1: " in out and "log loss on the fitted games (none held out)" in out
    assert out.strip().splitlines()[-1].startswith("AyuSearchSettings(")
