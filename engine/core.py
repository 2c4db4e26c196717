"""The contract every game implements; the AI, records and GUI use nothing else.

A `Game` holds a rules variant (size and options), makes positions and describes its board.
A `Position` moves through `push`/`pop` (fast, unchecked, for the search) or `play` (checked,
returns the move's effects, for everyone else). Moves are small frozen values.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar, TypeVar

from engine.board import BoardDescription
from engine.effects import Effect, GameOver


class EngineError(ValueError):
    """Base of every error the engine reports to a person."""


class ParseError(EngineError):
    """A malformed position string, move or cell name; the message says what is wrong."""


class IllegalMoveError(EngineError):
    """A well-formed move that the rules do not allow here; the message says why."""


@dataclass(frozen=True)
class Outcome:
    """How a game ended: `winner` is a player name (`"black"`, `"light"`…) or None for a draw."""

    winner: str | None
    reason: str

    def text(self) -> str:
        head = "draw" if self.winner is None else f"{self.winner} wins"
        return f"{head}: {self.reason}" if self.reason else head


@dataclass(frozen=True)
class OptionSpec:
    """A rules option: its name in position strings, its allowed values and its default."""

    name: str
    choices: tuple[str, ...]
    default: str
    label: str
    help: str = ""


@dataclass(frozen=True)
class Piece:
    """What stands on a cell, as the GUI needs it: owner name and kind."""

    player: str
    kind: str  # "stone", "warrior" or "ahayuta"


class Move(ABC):
    """A frozen, hashable move value. Games parse moves with `Game.parse_move`."""

    __slots__ = ()

    @abstractmethod
    def to_text(self) -> str: ...

    def __str__(self) -> str:
        return self.to_text()


class Game(ABC):
    """A rules variant: the game, its size and its options. Equal variants compare equal."""

    name: ClassVar[str]
    title: ClassVar[str]
    players: ClassVar[tuple[str, str]]
    sizes: ClassVar[tuple[int, ...]]
    default_size: ClassVar[int]
    option_specs: ClassVar[tuple[OptionSpec, ...]] = ()

    def __init__(self, size: int | None = None, **options: str) -> None:
        self.size = self.default_size if size is None else size
        self.check_size(self.size)
        known = {spec.name: spec for spec in self.option_specs}
        values = {spec.name: spec.default for spec in self.option_specs}
        for key, value in options.items():
            spec = known.get(key)
            if spec is None:
                names = ", ".join(known) or "none"
                raise ParseError(f"{self.name} has no option {key!r} (options: {names})")
            if value not in spec.choices:
                raise ParseError(
                    f"option {key} cannot be {value!r}; choose one of {', '.join(spec.choices)}"
                )
            values[key] = value
        self.options: dict[str, str] = values

    def check_size(self, size: int) -> None:
        if size not in self.sizes:
            raise ParseError(f"{self.name} has no size {size}")

    def option_text(self) -> str:
        """Non-default options as `name=value` tokens in alphabetical order (section 6.3)."""
        defaults = {spec.name: spec.default for spec in self.option_specs}
        return " ".join(
            f"{key}={value}"
            for key, value in sorted(self.options.items())
            if value != defaults[key]
        )

    def identity(self) -> tuple[str, int, tuple[tuple[str, str], ...]]:
        return (self.name, self.size, tuple(sorted(self.options.items())))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Game) and self.identity() == other.identity()

    def __hash__(self) -> int:
        return hash(self.identity())

    def __repr__(self) -> str:
        extra = self.option_text()
        return f"<{self.title} {self.size}{' ' + extra if extra else ''}>"

    @abstractmethod
    def start(self) -> Position: ...

    @abstractmethod
    def parse(self, text: str) -> Position:
        """A position from a full position string of this variant (section 6.3)."""

    @abstractmethod
    def parse_move(self, text: str) -> Move:
        """A move from its text (section 6.2); raises ParseError when malformed."""

    @abstractmethod
    def board(self) -> BoardDescription: ...


P = TypeVar("P", bound="Position")


class Position(ABC):
    """A game state with its own history of keys, for repetition along pushed moves."""

    game: Game
    turn: int  # index into game.players

    def __init__(self) -> None:
        self._keys: list[int] = []
        self._key_counts: dict[int, int] = {}

    # -- repetition history, kept by the games in push/pop -------------------------------
    def _enter_key(self, key: int) -> None:
        self._keys.append(key)
        self._key_counts[key] = self._key_counts.get(key, 0) + 1

    def _leave_key(self) -> None:
        key = self._keys.pop()
        count = self._key_counts[key] - 1
        if count:
            self._key_counts[key] = count
        else:
            del self._key_counts[key]

    def _occurrences(self) -> int:
        """How often the current repetition key has occurred along the history."""
        return self._key_counts.get(self._keys[-1], 0) if self._keys else 0

    def _clone(self: P) -> P:
        """A copy sharing nothing mutable of the base; games then copy their own lists."""
        other = type(self).__new__(type(self))
        other.__dict__.update(self.__dict__)
        other._keys = list(self._keys)
        other._key_counts = dict(self._key_counts)
        return other

    def add_prior_history(self, keys: Sequence[int]) -> None:
        """Declare repetition keys of positions that came before this one in the game."""
        self._keys[:0] = list(keys)
        for key in keys:
            self._key_counts[key] = self._key_counts.get(key, 0) + 1

    def history_keys(self) -> list[int]:
        """Repetition keys of the earlier positions along this one's history, oldest first.

        Handing them to `add_prior_history` of a freshly parsed copy of this position
        reproduces the repetition state exactly (what the AI and game records need).
        """
        return self._keys[:-1]

    def repetition_key(self) -> int:
        """The key that repetition rules compare (board and side to move)."""
        return self.key()

    # -- the contract ---------------------------------------------------------------------
    @property
    def turn_name(self) -> str:
        return self.game.players[self.turn]

    @abstractmethod
    def legal_moves(self) -> list[Move]:
        """Every legal move; empty once the game is over (repetition included)."""

    def rule_moves(self) -> list[Move]:
        """Moves the rules allow from this board, ignoring repetition (used by perft)."""
        return self.legal_moves()

    def forget_cached_moves(self) -> None:
        """Drop any cached move list (benchmarks use this to time generation itself)."""
        return None

    @abstractmethod
    def push(self, move: Move) -> None:
        """Make a move known to be legal, without checking it."""

    @abstractmethod
    def pop(self) -> Move:
        """Take back the last pushed move."""

    @abstractmethod
    def outcome(self) -> Outcome | None: ...

    @abstractmethod
    def key(self) -> int:
        """A hash of the full state, for transposition tables."""

    @abstractmethod
    def to_text(self) -> str: ...

    @abstractmethod
    def copy(self) -> Position:
        """An independent copy, history included."""

    @abstractmethod
    def pieces(self) -> dict[str, Piece]:
        """What stands where, by cell name."""

    @abstractmethod
    def effects_of(self, move: Move) -> list[Effect]:
        """What a legal move would do, in order, computed before it is pushed."""

    def explain_illegal(self, move: Move) -> str:
        """Why a move is not legal here, in a player's words."""
        return f"{move.to_text()} is not a legal move here"

    def reserves(self) -> dict[str, int]:
        """Pieces each player holds off the board (games without reserves: none)."""
        return {}

    @property
    def ply(self) -> int:
        """Positions along the history, this one included (an Ayu swap adds none)."""
        return len(self._keys)

    def is_over(self) -> bool:
        return self.outcome() is not None

    def parse_move(self, text: str) -> Move:
        return self.game.parse_move(text)

    def play(self, move: Move | str) -> list[Effect]:
        """Checked move: raises IllegalMoveError with a reason, else returns its effects."""
        if isinstance(move, str):
            move = self.parse_move(move)
        ended = self.outcome()
        if ended is not None:
            raise IllegalMoveError(f"the game is over ({ended.text()})")
        if move not in self.legal_moves():
            raise IllegalMoveError(self.explain_illegal(move))
        effects = self.effects_of(move)
        self.push(move)
        result = self.outcome()
        if result is not None:
            effects.append(GameOver(result.winner, result.reason))
        return effects

    def __str__(self) -> str:
        return self.to_text()


def perft(position: Position, depth: int) -> int:
    """Number of legal move sequences of `depth` moves, repetition ignored."""
    if depth == 0:
        return 1
    moves = position.rule_moves()
    if depth == 1:
        return len(moves)
    total = 0
    for move in moves:
        position.push(move)
        total += perft(position, depth - 1)
        position.pop()
    return total
