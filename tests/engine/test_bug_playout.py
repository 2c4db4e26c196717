"""The playouts' one-random-turn generator against the full move generator."""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import new_game, parse_position
from engine.core import Move
from engine.games.bug import BugPosition
from engine.games.bug_playout import random_turn
from tests.engine.test_bug_properties import reachable, scattered

SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


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
