"""The playouts' one-random-turn generator against the full move generator, and whole
playouts on bitboards against pushing those turns one by one."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import new_game, parse_position
from engine.ai.common import outcome_value
from engine.bitboard import bits, nth_bit
from engine.core import Move
from engine.games.bug import BugPosition
from engine.games.bug_playout import PlayoutSettings, growth_cells, play_out, random_turn
from tests.engine.test_bug_properties import reachable, scattered

SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@given(st.integers(min_value=1, max_value=(1 << 91) - 1), st.integers(0, 90))
def test_nth_bit_is_the_nth_of_the_listed_bits(mask: int, n: int) -> None:
    listed = bits(mask)
    if n < len(listed):
        assert nth_bit(mask, n) == listed[n]
    else:
        with pytest.raises(IndexError):
            nth_bit(mask, n)


def check_turns_are_legal(position: BugPosition, seed: int) -> None:
    legal = set(position.legal_moves())
    rng = random.Random(seed)
    sparing = [move for move in legal if not hands_the_win(position, move)]
    for preference in (0.0, 0.9, 1.0):
        for spare in (False, True):
            for _ in range(6):
                move = random_turn(position, rng, preference, spare)
                if not legal:
                    assert move is None
                    continue
                assert move in legal, (position.to_text(), move and move.to_text())
                if spare and sparing:
                    assert move in sparing, (position.to_text(), move.to_text())


def hands_the_win(position: BugPosition, move: Move) -> bool:
    """After `move` the opponent cannot grow, so the opponent wins (BUG-9)."""
    position.push(move)
    try:
        return not position.legal_moves()
    finally:
        position.pop()


@SETTINGS
@given(st.sampled_from([3, 4]), st.integers(0, 10**9), st.integers(0, 50))
def test_turns_from_reachable_positions_are_legal(side: int, seed: int, plies: int) -> None:
    check_turns_are_legal(reachable(side, seed, plies), seed)


@SETTINGS
@given(st.sampled_from([3, 4]), st.integers(0, 10**9), st.floats(0.2, 0.8))
def test_turns_from_any_positions_are_legal(side: int, seed: int, density: float) -> None:
    check_turns_are_legal(scattered(side, seed, density), seed)


def test_eat_preference_finds_the_meal() -> None:
    # A new White stone next to Black's lone stone is a same-shaped neighbour: it eats.
    position = parse_position("bug 3 3/4/b4/4/3 w")
    assert isinstance(position, BugPosition)
    eats = {m for m in position.legal_moves() if len(m.cells) > 1}
    assert eats
    rng = random.Random(1)
    drawn = Counter(random_turn(position, rng, 1.0) for _ in range(200))
    assert set(drawn) <= eats
    assert len(drawn) > 1  # the growth and bonus cells are really drawn


def test_sparing_the_win_steers_clear_of_the_losing_growth() -> None:
    # White to move has two growth cells left at most; find such endgames in random games
    # and check that a turn handing Black the win is played only when every turn does.
    rng = random.Random(5)
    seen = 0
    for seed in range(400):
        position = reachable(3, seed, rng.randrange(10, 60))
        legal = position.legal_moves()
        losing = [move for move in legal if hands_the_win(position, move)]
        if not losing or len(losing) == len(legal):
            continue
        seen += 1
        for _ in range(10):
            move = random_turn(position, rng, 0.5, spare_the_win=True)
            assert move is not None and move not in losing
    assert seen >= 3


def test_a_stuck_mover_gets_no_turn() -> None:
    position = new_game("bug", 3).start()
    rng = random.Random(2)
    while (move := random_turn(position, rng, 0.5)) is not None:
        position.push(move)
    assert not position.legal_moves()
    outcome = position.outcome()
    assert outcome is not None and outcome.winner == position.turn_name


def test_sparing_looks_past_a_growth_whose_first_eating_order_loses() -> None:
    # White cannot grow here; only some eating turns give it cells back, and after e2 the
    # bonus cell decides (e2,e1 hands White the win, e2,e3 does not).
    position = parse_position("bug 3 2w/1w2/bwww1/1bbw/bwb b")
    assert isinstance(position, BugPosition)
    sparing = {m for m in position.legal_moves() if not hands_the_win(position, m)}
    assert sparing and len(sparing) < len(position.legal_moves())
    rng = random.Random(4)
    for _ in range(40):
        assert random_turn(position, rng, 0.9, spare_the_win=True) in sparing


def share(mine: int, theirs: int) -> float:
    """A stand-in evaluation for playouts cut short: any function of both counts will do."""
    return (mine + 1) / (mine + theirs + 2)


def turn_by_turn(position: BugPosition, seed: int, cap: int) -> tuple[float, list[object]]:
    """The reference playout: push `random_turn` turns (eating preferred, sparing the
    opponent's win) until the game ends or `cap` plies, then take them back."""
    rng = random.Random(seed)
    trail: list[object] = []
    pushed = 0
    while True:
        move = random_turn(position, rng, 0.9, spare_the_win=True)
        if move is None:
            outcome = position.outcome()
            assert outcome is not None
            value = outcome_value(outcome, position)
            break
        if pushed >= cap:
            geo, stones, turn = position.geo, position.stones, position.turn
            value = share(
                growth_cells(geo, stones[turn], stones[turn ^ 1]).bit_count(),
                growth_cells(geo, stones[turn ^ 1], stones[turn]).bit_count(),
            )
            break
        position.push(move)
        pushed += 1
        trail.append(move.cells[0])
    for _ in range(pushed):
        position.pop()
    return (1.0 - value if pushed % 2 else value), trail


def whole(
    position: BugPosition, seed: int, cap: int, stop: bool = False
) -> tuple[float, list[object]]:
    trail: list[object] = []
    settings = PlayoutSettings(0.9, True, cap, share)
    value = play_out(position, random.Random(seed), settings, lambda: stop, trail)
    return value, trail


@SETTINGS
@given(
    side=st.sampled_from([3, 4]),
    seed=st.integers(0, 10**6),
    plies=st.integers(0, 40),
    cap=st.sampled_from([3, 16, 300]),
    scatter=st.booleans(),
)
def test_a_whole_playout_plays_the_turns_of_random_turn(
    side: int, seed: int, plies: int, cap: int, scatter: bool
) -> None:
    position = scattered(side, seed, 0.4) if scatter else reachable(side, seed, plies)
    before = position.to_text()
    assert whole(position, seed, cap) == turn_by_turn(position, seed, cap)
    assert position.to_text() == before


def test_a_stopped_playout_evaluates_at_its_next_check() -> None:
    # The stop flag is read every 16 plies: a playout told to stop ends at ply 15.
    compared = 0
    for seed in range(30):
        position = reachable(5, seed, 4)
        if len(whole(position, seed, 300)[1]) > 15:
            assert whole(position, seed, 300, stop=True) == whole(position, seed, 15)
            compared += 1
    assert compared > 10


@SETTINGS
@given(side=st.sampled_from([3, 4]), seed=st.integers(0, 10**6), plies=st.integers(0, 80))
def test_the_outcome_is_known_without_listing_the_turns(side: int, seed: int, plies: int) -> None:
    position = reachable(side, seed, plies)
    position.forget_cached_moves()
    over = position.outcome() is not None
    assert over == (not position.legal_moves())
    assert (position.outcome() is not None) == over  # the same from the listed turns
