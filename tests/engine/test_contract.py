"""One contract test run over every registered game (design.md section 2, convention 8)."""

from __future__ import annotations

import random

import pytest

from engine import (
    BoardDescription,
    IllegalMoveError,
    Position,
    game_class,
    game_names,
    new_game,
    parse_position,
)
from engine.effects import Effect, GameOver

VARIANTS = [(name, size) for name in game_names() for size in game_class(name).sizes[:2]]
RANDOM_GAMES = 6
PLY_CAP = 300


def _check_round_trips(position: Position) -> None:
    text = position.to_text()
    parsed = parse_position(text)
    assert parsed.to_text() == text
    assert parsed.key() == position.key()
    clone = position.copy()
    assert clone.key() == position.key() and clone.to_text() == text
    for move in position.legal_moves()[:8]:
        key = position.key()
        position.push(move)
        assert position.pop() == move
        assert position.key() == key and position.to_text() == text
        assert position.parse_move(move.to_text()) == move


def _check_terminal(position: Position) -> None:
    outcome = position.outcome()
    moves = position.legal_moves()
    assert (outcome is None) == bool(moves), position.to_text()
    if outcome is not None:
        assert outcome.winner in (None, *position.game.players)
        assert outcome.reason


@pytest.mark.parametrize(("name", "size"), VARIANTS)
def test_random_games_keep_the_contract(name: str, size: int) -> None:
    rng = random.Random(f"{name}{size}")
    game = new_game(name, size)
    for _ in range(RANDOM_GAMES):
        position = game.start()
        last_move = None
        for _ in range(PLY_CAP):
            _check_terminal(position)
            _check_round_trips(position)
            moves = position.legal_moves()
            if not moves:
                if last_move is not None:
                    with pytest.raises(IllegalMoveError, match="over"):
                        position.play(last_move.to_text())
                break
            move = last_move = rng.choice(moves)
            before = position.copy()
            effects = position.play(move)
            assert all(isinstance(effect, Effect) for effect in effects) and effects
            assert isinstance(effects[-1], GameOver) == position.is_over()
            assert (
                before.key() != position.key()
                or before.to_text() != position.to_text()
                or (move.to_text() == "swap")
            )


@pytest.mark.parametrize(("name", "size"), VARIANTS)
def test_board_description_is_consistent(name: str, size: int) -> None:
    game = new_game(name, size)
    board = game.board()
    assert isinstance(board, BoardDescription)
    assert board.kind in ("hex", "square", "point")
    names = board.names
    assert len(set(names)) == len(names) == len(board.neighbours)
    for index, near in enumerate(board.neighbours):
        for other in near:
            assert index in board.neighbours[other]
    start = game.start()
    assert set(start.pieces()) <= set(names)
    assert game.parse(start.to_text()).to_text() == start.to_text()


@pytest.mark.parametrize("name", game_names())
def test_games_describe_themselves(name: str) -> None:
    cls = game_class(name)
    assert cls.title and len(cls.players) == 2
    assert cls.default_size in cls.sizes
    for spec in cls.option_specs:
        assert spec.default in spec.choices
        assert (
            new_game(name, **{spec.name: spec.choices[-1]}).options[spec.name] == spec.choices[-1]
        )


@pytest.mark.parametrize(("name", "size"), VARIANTS)
def test_history_keys_rebuild_the_repetition_state(name: str, size: int) -> None:
    rng = random.Random(size)
    position = new_game(name, size).start()
    for _ in range(30):
        moves = position.legal_moves()
        if not moves:
            break
        position.push(rng.choice(moves))
    rebuilt = parse_position(position.to_text())
    rebuilt.add_prior_history(position.history_keys())
    assert rebuilt.history_keys() == position.history_keys()
    outcome = position.outcome()
    # A captured Ahayuta is the one result a position string cannot show (rules.md 6.3).
    if outcome is None or "captured" not in outcome.reason:
        assert rebuilt.outcome() == outcome
