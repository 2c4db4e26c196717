"""A game-neutral description of a board, from which the GUI draws any of our boards."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class CellInfo:
    """One cell: its index in the game's bitboards, its name, and its centre.

    Centres are in board units (one cell spacing = 1.0), x to the right, y downwards.
    """

    index: int
    name: str
    x: float
    y: float


@dataclass(frozen=True)
class BoardLabel:
    """A coordinate label drawn at the board's edge."""

    text: str
    x: float
    y: float


@dataclass(frozen=True)
class BoardDescription:
    """`kind` is "hex" (hex cells), "square" (squares) or "point" (grid intersections)."""

    kind: str
    cells: tuple[CellInfo, ...]
    neighbours: tuple[tuple[int, ...], ...]
    labels: tuple[BoardLabel, ...] = ()
    zones: dict[str, tuple[str, ...]] = field(default_factory=dict)

    def cell(self, name: str) -> CellInfo:
        for info in self.cells:
            if info.name == name:
                return info
        raise KeyError(name)

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(info.name for info in self.cells)
