"""What a move did, step by step, for the animator; cells are named as in rules.md section 6.

`Position.play()` returns a list of these in the order they happened. The GUI replays the
list and infers nothing else.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Effect:
    """Base of every effect."""


@dataclass(frozen=True)
class Placed(Effect):
    """A piece appeared on a cell: `reason` is growth, bonus, deploy, hero or sacrifice."""

    cell: str
    player: str
    piece: str
    reason: str


@dataclass(frozen=True)
class Moved(Effect):
    """A piece moved from one cell to another."""

    source: str
    target: str
    player: str
    piece: str


@dataclass(frozen=True)
class Eaten(Effect):
    """Bug: the mover's bug on `eater` ate the enemy bugs whose stones were on `eaten`."""

    player: str
    eater: tuple[str, ...]
    eaten: tuple[tuple[str, ...], ...]


@dataclass(frozen=True)
class Captured(Effect):
    """Ahayuta: a clamp between `closed_by` (the arriving piece, the anchor) took `cells`."""

    player: str  # the owner of the captured pieces
    cells: tuple[str, ...]
    closed_by: tuple[str, str]
    pieces: tuple[str, ...]  # kind of each captured piece, in the order of `cells`


@dataclass(frozen=True)
class Transformed(Effect):
    """Ahayuta: a warrior on `cell` turned into its player's Ahayuta and left the board."""

    cell: str
    player: str


@dataclass(frozen=True)
class Removed(Effect):
    """Ahayuta (hero_when_has_ahayuta=remove): the warrior on `cell` left the game."""

    cell: str
    player: str


@dataclass(frozen=True)
class AhayutaPending(Effect):
    """Ahayuta: `player` now owes an Ahayuta placement (`reason`: sacrifice or hero)."""

    player: str
    reason: str


@dataclass(frozen=True)
class Swapped(Effect):
    """Ayu pie rule: the players exchanged colours; the board did not change."""


@dataclass(frozen=True)
class GameOver(Effect):
    """The move ended the game: `winner` is a player name, or None for a draw."""

    winner: str | None
    reason: str
