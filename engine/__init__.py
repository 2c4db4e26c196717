"""Pebblebox's engine: the rules of Bug, Ayu and Ahayuta, and the AI. Pure Python, no Qt.

Public API: games by name (`new_game`, `parse_position`, `game_names`), the contract
(`Game`, `Position`, `Move`, `Outcome`), errors, effects and `perft`.
"""

from engine.board import BoardDescription, BoardLabel, CellInfo
from engine.core import (
    EngineError,
    Game,
    IllegalMoveError,
    Move,
    OptionSpec,
    Outcome,
    ParseError,
    Piece,
    Position,
    perft,
)
from engine.registry import game_class, game_names, new_game, parse_position

__all__ = [
    "BoardDescription",
    "BoardLabel",
    "CellInfo",
    "EngineError",
    "Game",
    "IllegalMoveError",
    "Move",
    "OptionSpec",
    "Outcome",
    "ParseError",
    "Piece",
    "Position",
    "game_class",
    "game_names",
    "new_game",
    "parse_position",
    "perft",
]
