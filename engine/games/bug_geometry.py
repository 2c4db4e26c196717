"""Bug's board tables: hexhex cells as bits of Python ints, neighbours, shapes, moves.

Cells use a padded axial layout (rules.md 1.3): axial `(q, r)` with `r` growing downwards,
bit `(r + M) * W + (q + M)` where `M = N - 1` and the row width `W = 2N` leaves one spare
column. The six neighbours are then the shifts ±1, ±W and ±(W − 1); a shift that leaves the
hexagon lands on a spare column or outside the rows, and masking with the board drops it.
So a whole set of cells spreads to its neighbours in six shifts, and bugs are found by flood
fill without visiting cells one by one.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from functools import cache

from engine.bitboard import bits
from engine.core import Move, ParseError

# Shape keys are kept per bitmask; past this many the cache starts afresh, so long runs of
# random games cannot grow it without bound.
_SHAPE_CACHE_LIMIT = 200_000
BUGS_MEMO_LIMIT = 100_000  # boards whose bugs are remembered (a few MB)


@dataclass(frozen=True, slots=True)
class BugMove(Move):
    """A whole turn: the growth cell, then each bonus cell, as bit indices."""

    cells: tuple[int, ...]
    geometry: BugGeometry = field(compare=False, repr=False)

    def to_text(self) -> str:
        names = self.geometry.names
        return ",".join(names[cell] for cell in self.cells)


class BugGeometry:
    """Tables for one hexhex side: bit layout, names, neighbours, shapes, Zobrist keys."""

    def __init__(self, side: int) -> None:
        self.side = side
        self.m = m = side - 1
        self.width = width = 2 * side
        self.axial: dict[int, tuple[int, int]] = {}
        self.names: dict[int, str] = {}
        self.index_of: dict[str, int] = {}
        # Cells row by row from the top row (highest letter) down, left to right: the order
        # of position strings and of the board description.
        self.rows: list[list[int]] = []
        for r in range(-m, m + 1):
            letter = chr(ord("a") + m - r)
            q_min, q_max = max(-m, -m - r), min(m, m - r)
            row = []
            for q in range(q_min, q_max + 1):
                index = (r + m) * width + (q + m)
                name = f"{letter}{q - q_min + 1}"
                self.axial[index] = (q, r)
                self.names[index] = name
                self.index_of[name] = index
                row.append(index)
            self.rows.append(row)
        self.row_lengths = [len(row) for row in self.rows]
        self.order = [index for row in self.rows for index in row]
        # Cells named in effects and messages are listed from a1 upwards, like the names.
        self.name_rank = {
            index: rank for rank, index in enumerate(i for row in reversed(self.rows) for i in row)
        }
        self.board_mask = sum(1 << index for index in self.order)
        self.neighbours = {index: self.spread(1 << index) for index in self.order}
        rng = random.Random(0xB06 + side)
        self.zobrist = [{index: rng.getrandbits(64) for index in self.order} for _ in range(2)]
        self.turn_key = rng.getrandbits(64)
        self._moves: dict[tuple[int, ...], BugMove] = {}
        # (mover's stones, opponent's) -> growth cells (engine/games/bug_playout.py)
        self.growth_memo: dict[tuple[int, int], int] = {}
        self._bugs_memo: dict[int, tuple[int, ...]] = {}
        self.single_moves = {index: self.move((index,)) for index in self.order}
        self._init_shapes()

    # -- sets of cells ----------------------------------------------------------------
    def spread(self, cells: int) -> int:
        """The cells next to `cells` (a cell of `cells` is included only if it is next to
        another one)."""
        w = self.width
        v = w - 1
        return (
            (cells << 1) | (cells >> 1) | (cells << w) | (cells >> w) | (cells << v) | (cells >> v)
        ) & self.board_mask

    def bugs(self, stones: int) -> list[int]:
        """BUG-3: the maximal connected sets of `stones`, as masks (by lowest cell).

        Remembered: searches look at the same boards many times over."""
        found = self._bugs_memo.get(stones)
        if found is None:
            if len(self._bugs_memo) >= BUGS_MEMO_LIMIT:
                self._bugs_memo.clear()
            found = self._bugs_memo[stones] = tuple(self._find_bugs(stones))
        return list(found)

    def _find_bugs(self, stones: int) -> list[int]:
        w = self.width
        v = w - 1
        out = []
        while stones:
            bug = stones & -stones
            while True:
                grown = (
                    bug | (bug << 1) | (bug >> 1) | (bug << w) | (bug >> w) | (bug << v)
                    | (bug >> v)
                ) & stones
                if grown == bug:
                    break
                bug = grown
            out.append(bug)
            stones ^= bug
        return out

    def bug_at(self, cell: int, stones: int) -> int:
        """The bug of `stones` that holds `cell` (which must be in `stones`)."""
        bug = 1 << cell
        while True:
            grown = (self.spread(bug) | bug) & stones
            if grown == bug:
                return bug
            bug = grown

    def names_of(self, cells: int) -> tuple[str, ...]:
        """The names of the cells of a mask, from a1 upwards."""
        rank = self.name_rank
        return tuple(self.names[i] for i in sorted(bits(cells), key=rank.__getitem__))

    def index_of_rank(self, names: tuple[str, ...]) -> int:
        """Sort key of a list of cell names (from `names_of`): the rank of its first cell."""
        return self.name_rank[self.index_of[names[0]]]

    def meal(self, bug: int, enemy_bugs: list[int]) -> int:
        """BUG-11: the stones of every enemy bug next to `bug` with its shape (0 if none)."""
        around = self.spread(bug)
        size = bug.bit_count()
        shape = -1
        meal = 0
        for enemy in enemy_bugs:
            if enemy & around and enemy.bit_count() == size:
                if shape < 0:
                    shape = self.shape(bug)
                if self.shape(enemy) == shape:
                    meal |= enemy
        return meal

    # -- shapes (BUG-4) -----------------------------------------------------------------
    def _init_shapes(self) -> None:
        """Per cell and per symmetry, the cell's image as a bit of a square grid of side S.

        The 12 symmetries act on cube coordinates `(x, y, z) = (q, −q−r, r)`: rotation
        `(x, y, z) → (−z, −x, −y)`, reflection `(x, y, z) → (x, z, y)` (rules.md 1.3).
        Images are offset to be non-negative; a shape is then translated to the corner by
        one right shift (lowest row × S + lowest column), which cannot wrap because S is
        more than twice the board's span.
        """
        m = self.m
        self.grid = grid = 4 * m + 3
        self.image_bits: list[dict[int, int]] = []
        self.column_bits: list[dict[int, int]] = []
        for reflect in (False, True):
            for turns in range(6):
                images: dict[int, int] = {}
                columns: dict[int, int] = {}
                for index, (q, r) in self.axial.items():
                    x, y, z = q, -q - r, r
                    if reflect:
                        y, z = z, y
                    for _ in range(turns):
                        x, y, z = -z, -x, -y
                    col, row = x + 2 * m, z + 2 * m
                    images[index] = 1 << (row * grid + col)
                    columns[index] = 1 << col
                self.image_bits.append(images)
                self.column_bits.append(columns)
        self._shapes: dict[int, int] = {}

    def shape(self, bug: int) -> int:
        """BUG-4: a canonical key, equal for two bugs exactly when they have the same shape.

        The smallest of the 12 images, each translated to the corner. Cached per bitmask.
        """
        key = self._shapes.get(bug)
        if key is not None:
            return key
        cells = bits(bug)
        grid = self.grid
        best = -1
        for images, columns in zip(self.image_bits, self.column_bits, strict=True):
            image = col_mask = 0
            for cell in cells:
                image |= images[cell]
                col_mask |= columns[cell]
            low_row = ((image & -image).bit_length() - 1) // grid
            low_col = (col_mask & -col_mask).bit_length() - 1
            image >>= low_row * grid + low_col
            if best < 0 or image < best:
                best = image
        if len(self._shapes) >= _SHAPE_CACHE_LIMIT:
            self._shapes.clear()
        self._shapes[bug] = best
        return best

    # -- names and moves ----------------------------------------------------------------
    def cell(self, name: str) -> int:
        index = self.index_of.get(name)
        if index is None:
            raise ParseError(f"{name!r} is not a cell of the hexhex {self.side} board")
        return index

    def move(self, cells: tuple[int, ...]) -> BugMove:
        """The one move object for this sequence of cells."""
        move = self._moves.get(cells)
        if move is None:
            move = self._moves[cells] = BugMove(cells, self)
        return move


@cache
def geometry(side: int) -> BugGeometry:
    return BugGeometry(side)
