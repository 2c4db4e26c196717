"""Bug and Ahayuta policy knowledge: the Ahayuta race and the one-move Ahayuta capture."""

from __future__ import annotations

import random

import pytest

from engine.ai.policies.ahayuta import (
    NEXT_STEP_WINS,
    NO_PATH,
    AhayutaPolicy,
    can_take_ahayuta,
    hero_march,
    march_steps,
    race_distance,
    race_terms,
    weighed_score,
)
from engine.games.ahayuta import AhayutaPosition
from engine.registry import game_names, new_game, parse_position
from tests.engine.ai_helpers import assert_root_values_exact, random_position

pytestmark = pytest.mark.skipif("ahayuta" not in game_names(), reason="no Ahayuta")


def _ahayuta(text: str) -> AhayutaPosition:
    position = parse_position(text)
    assert isinstance(position, AhayutaPosition)
    return position


def test_race_distance_counts_steps_over_empty_squares() -> None:
    # Light Ahayuta on e7, one step from the Dark home row (E-H12).
    position = _ahayuta("ahayuta 8 6/4A3/8/8/8/8/8/1W4 l 5/6 -")
    assert race_distance(position, 0) == 1
    assert race_distance(position, 1) == NO_PATH  # Dark has no Ahayuta
    # Light Ahayuta on e1: seven ranks to go.
    assert race_distance(_ahayuta("ahayuta 8 6/8/8/8/8/8/8/3A2 l 6/6 -"), 0) == 7


def test_race_distance_of_a_pending_ahayuta_counts_the_placement() -> None:
    position = _ahayuta("ahayuta 8 6/8/8/8/8/8/8/6 l 5/6 L")
    assert position.pend[0]
    assert race_distance(position, 0) == 8


def test_a_full_enemy_home_row_blocks_the_race() -> None:
    position = _ahayuta("ahayuta 8 wwwwww/4A3/8/8/8/8/8/6 l 6/0 -")
    assert race_distance(position, 0) == NO_PATH


def test_hero_march_counts_warrior_steps_to_the_enemy_home_row() -> None:
    # A Light warrior on e4 needs four diagonal steps to rank 8, one on c6 two.
    far = _ahayuta("ahayuta 8 6/8/8/8/4W3/8/8/6 l 5/6 -")
    near = _ahayuta("ahayuta 8 6/8/2W5/8/8/8/8/6 l 5/6 -")
    empty_far = far.geo.board_mask & ~far.men[0]
    empty_near = near.geo.board_mask & ~near.men[0]
    assert march_steps(far, 0, empty_far) == 4
    assert march_steps(near, 0, empty_near) == 2
    assert hero_march(4) == pytest.approx(4 / 8) and hero_march(2) == pytest.approx(6 / 8)
    assert march_steps(far, 1, empty_far) is None  # Dark has no warrior on the board
    assert hero_march(None) == 0.0
    assert AhayutaPolicy().evaluate(near) > AhayutaPolicy().evaluate(far)


def test_hero_march_is_zero_when_blocked_or_a_hero_exists() -> None:
    # d7 could only step to c8 or e8, and Dark stands on both.
    blocked = _ahayuta("ahayuta 8 1w1w2/3W4/8/8/8/8/8/6 l 5/4 -")
    empty = blocked.geo.board_mask & ~(blocked.men[0] | blocked.men[1])
    assert march_steps(blocked, 0, empty) is None
    # Light already has an Ahayuta on a3: a warrior on c6 makes no second one.
    with_hero = _ahayuta("ahayuta 8 6/8/2W5/8/8/A7/8/6 l 5/6 -")
    empty = with_hero.geo.board_mask & ~(with_hero.men[0] | with_hero.aha[0])
    assert march_steps(with_hero, 0, empty) is None


def test_the_race_terms_compare_the_turns_each_side_needs_to_the_goal() -> None:
    # Neither side has an Ahayuta: Light (to move) marches 2 steps, Dark 4; each newborn then
    # walks 7 turns. Light is 2 turns ahead.
    assert race_terms(NO_PATH, NO_PATH, 2, 4) == (0.5, 1.0)
    assert race_terms(NO_PATH, NO_PATH, 4, 2) == (-0.5, -1.0)
    assert race_terms(NO_PATH, NO_PATH, 3, 3) == (0.0, 1.0)  # the mover arrives first
    # Dark has an Ahayuta 5 turns from the goal; Light's march takes 1 + 7.
    assert race_terms(NO_PATH, 5, 1, None) == (-0.75, -1.0)
    assert race_terms(NO_PATH, 5, None, None) == (0.0, 0.0)  # Light has no way yet
    assert race_terms(4, 6, None, None) == (0.0, 0.0)  # both Ahayutas: `lead` weighs that
    # Behind: Light's warrior on c4 is 4 steps from rank 8, Dark's on d3 2 from rank 1.
    # Ahead: Light's on c6 is 2 steps away, Dark's on e5 4.
    behind = _ahayuta("ahayuta 8 6/8/8/8/2W5/3w4/8/6 l 5/5 -")
    ahead = _ahayuta("ahayuta 8 6/8/2W5/4w3/8/8/8/6 l 5/5 -")
    assert AhayutaPolicy().evaluate(ahead) > AhayutaPolicy().evaluate(behind)


def test_the_evaluation_sees_a_winning_step_and_an_ahayuta_capture() -> None:
    policy = AhayutaPolicy()
    assert policy.evaluate(_ahayuta("ahayuta 8 6/4A3/8/8/8/8/8/1W4 l 5/6 -")) == NEXT_STEP_WINS
    # E-H11: Dark steps b6-c5 and clamps the Light Ahayuta on d5 against e5.
    capture = _ahayuta("ahayuta 8 6/8/1w6/3Aw3/8/8/8/6 d 5/4 -")
    assert can_take_ahayuta(capture)
    assert policy.evaluate(capture) == NEXT_STEP_WINS
    # Without the anchor on e5 nothing is clamped.
    assert not can_take_ahayuta(_ahayuta("ahayuta 8 6/8/1w6/3A4/8/8/8/6 d 5/5 -"))


def test_alphabeta_root_margin_gives_exact_values_to_the_root_moves() -> None:
    from engine.ai.alphabeta import AlphaBetaSearcher, AlphaBetaSettings

    game = new_game("ahayuta")
    position = game.start()
    rng = random.Random(3)
    for _ in range(8):
        moves = position.legal_moves()
        position.push(moves[rng.randrange(len(moves))])
    position = game.parse(position.to_text())
    wide = AlphaBetaSearcher(AlphaBetaSettings(root_margin=10**7))
    assert_root_values_exact(wide, AlphaBetaSearcher(), position, 1e-3)


def _mirrored(position: AhayutaPosition) -> AhayutaPosition:
    """The same position seen from the other side: ranks reversed, colours swapped."""
    name, size, board, turn, reserves, pending = position.to_text().split(" ")
    ranks = board.split("/")[::-1]
    light, dark = reserves.split("/")
    swapped_pending = {"-": "-", "L": "D", "D": "L", "LD": "LD"}[pending]
    return _ahayuta(
        f"{name} {size} {'/'.join(rank.swapcase() for rank in ranks)} "
        f"{'d' if turn == 'l' else 'l'} {dark}/{light} {swapped_pending}"
    )


def test_the_evaluation_is_the_same_for_both_colours() -> None:
    policy = AhayutaPolicy()
    rng = random.Random(8)
    checked = 0
    for plies in range(4, 80, 3):
        position = _ahayuta(random_position("ahayuta", 8, plies, rng).to_text())
        if position.outcome() is not None:
            continue
        mirror = _mirrored(position)
        assert mirror.turn != position.turn
        assert policy.evaluate(mirror) == pytest.approx(policy.evaluate(position))
        checked += 1
    assert checked > 15


def test_the_evaluation_prefers_the_side_ahead_in_the_race() -> None:
    policy = AhayutaPolicy()
    # Both Ahayutas on the board: Light's on e5 (three steps to go), Dark's on d7 (six)
    # or on d3 (two).
    far = _ahayuta("ahayuta 8 6/3a4/8/4A3/8/8/8/6 l 6/6 -")
    near = _ahayuta("ahayuta 8 6/8/8/4A3/8/3a4/8/6 l 6/6 -")
    assert race_distance(far, 1) > race_distance(near, 1)
    assert policy.evaluate(far) > 0.5 > policy.evaluate(near)
    # An Ahayuta the opponent can clamp next turn is worth less.
    # Dark's c5-d4 would clamp Light's Ahayuta on d3 against d2.
    safe = _ahayuta("ahayuta 8 6/8/8/7w/8/3A4/3w4/6 l 6/4 -")
    exposed = _ahayuta("ahayuta 8 6/8/8/2w5/8/3A4/3w4/6 l 6/4 -")
    assert can_take_ahayuta(exposed, 1) and not can_take_ahayuta(safe, 1)
    assert weighed_score(exposed, 0, 5, NO_PATH) < weighed_score(safe, 0, 5, NO_PATH)
