"""The games the engine knows, by name, and the one door from a position string to a game."""

from __future__ import annotations

from engine.core import Game, ParseError, Position
from engine.notation import split_position

_GAMES: dict[str, type[Game]] = {}


def register(game_class: type[Game]) -> type[Game]:
    _GAMES[game_class.name] = game_class
    return game_class


def game_names() -> list[str]:
    _load()
    return sorted(_GAMES)


def game_class(name: str) -> type[Game]:
    _load()
    try:
        return _GAMES[name]
    except KeyError:
        known = ", ".join(sorted(_GAMES))
        raise ParseError(f"unknown game {name!r}; the games are {known}") from None


def new_game(name: str, size: int | None = None, **options: str) -> Game:
    return game_class(name)(size, **options)


def parse_position(text: str) -> Position:
    """A position from any game's position string; raises ParseError naming the problem."""
    fields = split_position(text)
    game = new_game(fields.game, fields.size, **fields.options)
    return game.parse(text)


def _load() -> None:
    if not _GAMES:
        import engine.games  # noqa: F401  (registers every game)
