"""Ayu (Luis Bolaños Mures): rules.md section 2, on bitboards in Python ints.

Points are bits `rank * (n + 1) + file`: each row carries one spare bit, so shifting a set
sideways never wraps into the next row once the result is masked with the board.

Legality of a move of unit U follows AYU-7 with one breadth-first search per unit: the
layers of empty points (U's own stones counted as passable) around the player's other
units. D(U) is the first layer that touches U; a non-joining move is legal exactly when the
moved unit then touches one of the layers before it. Counting U's stones as passable gives
the same minimum as the real after-move board, because a shortest path that crossed the
unit could start from the point where it leaves it.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache

from engine.bitboard import bits
from engine.board import BoardDescription, BoardLabel, CellInfo
from engine.core import (
    Game,
    Move,
    OptionSpec,
    Outcome,
    ParseError,
    Piece,
    Position,
)
from engine.effects import Effect, Moved, Swapped
from engine.notation import format_rows, join_position, parse_rows, split_position
from engine.registry import register

BLACK, WHITE = 0, 1
_LETTERS = "bw"


@dataclass(frozen=True, slots=True)
class AyuMove(Move):
    """`source`/`target` are bit indices; both -1 mean the pie swap."""

    source: int
    target: int
    geometry: AyuGeometry = field(compare=False, repr=False)

    def to_text(self) -> str:
        if self.source < 0:
            return "swap"
        names = self.geometry.names
        return f"{names[self.source]}-{names[self.target]}"


class AyuGeometry:
    """Tables for one board size: bit layout, names, neighbour masks, Zobrist keys."""

    def __init__(self, n: int) -> None:
        self.n = n
        self.stride = stride = n + 1
        self.board_mask = sum(1 << (r * stride + f) for r in range(n) for f in range(n))
        self.names: dict[int, str] = {}
        self.index_of: dict[str, int] = {}
        for r in range(n):
            for f in range(n):
                index = r * stride + f
                name = f"{chr(ord('a') + f)}{r + 1}"
                self.names[index] = name
                self.index_of[name] = index
        self.neighbours = {i: self.spread(1 << i) for i in self.names}
        rng = random.Random(0xA70 + n)
        self.zobrist = [{i: rng.getrandbits(64) for i in self.names} for _ in range(2)]
        self.turn_key = rng.getrandbits(64)
        self.swap_key = rng.getrandbits(64)
        self.swap_move = AyuMove(-1, -1, self)
        self._moves: dict[tuple[int, int], AyuMove] = {}
        # The start: Black on (even file, odd rank), White on (odd file, even rank), 1-based.
        self.start_stones = (
            self._mask_where(lambda f, r: f % 2 == 0 and r % 2 == 1),
            self._mask_where(lambda f, r: f % 2 == 1 and r % 2 == 0),
        )

    def _mask_where(self, test: Callable[[int, int], bool]) -> int:
        n, stride = self.n, self.stride
        return sum(1 << (r * stride + f) for r in range(n) for f in range(n) if test(f + 1, r + 1))

    def spread(self, bits: int) -> int:
        """The points orthogonally next to `bits` (not including them unless adjacent)."""
        stride = self.stride
        return ((bits << 1) | (bits >> 1) | (bits << stride) | (bits >> stride)) & self.board_mask

    def move(self, source: int, target: int) -> AyuMove:
        key = (source, target)
        move = self._moves.get(key)
        if move is None:
            move = self._moves[key] = AyuMove(source, target, self)
        return move

    def cell(self, name: str) -> int:
        index = self.index_of.get(name)
        if index is None:
            last = chr(ord("a") + self.n - 1)
            raise ParseError(
                f"{name!r} is not a point of the {self.n}x{self.n} board (a1-{last}{self.n})"
            )
        return index


@cache
def _geometry(n: int) -> AyuGeometry:
    return AyuGeometry(n)


Spread = Callable[[int], int]


def flood(seed: int, within: int, spread: Spread) -> int:
    region = seed
    while True:
        grown = (spread(region) & within) | region
        if grown == region:
            return region
        region = grown


@register
class AyuGame(Game):
    name = "ayu"
    title = "Ayu"
    players = ("black", "white")
    sizes = (9, 11, 13, 15)
    default_size = 11
    option_specs = (
        OptionSpec(
            "pie",
            ("off", "on"),
            "off",
            "Pie rule",
            "White may swap colours instead of answering Black's first move.",
        ),
    )

    def check_size(self, size: int) -> None:
        if size < 5 or size % 2 == 0:
            raise ParseError(
                f"an Ayu board has an odd number of points per side, 5 or more, not {size}"
            )

    @property
    def geometry(self) -> AyuGeometry:
        return _geometry(self.size)

    @property
    def pie(self) -> bool:
        return self.options["pie"] == "on"

    def start(self) -> AyuPosition:
        black, white = self.geometry.start_stones
        return AyuPosition(self, black, white, BLACK, swap_available=False)

    def parse(self, text: str) -> AyuPosition:
        fields = split_position(text)
        if fields.game != self.name:
            raise ParseError(f"this is a position of {fields.game!r}, not of ayu")
        if fields.size != self.size:
            raise ParseError(f"the position is for size {fields.size}, not {self.size}")
        n, geo = self.size, self.geometry
        letters = parse_rows(fields.board, [n] * n, _LETTERS)
        stones = [0, 0]
        for row in range(n):
            rank = n - 1 - row
            for file in range(n):
                letter = letters[row * n + file]
                if letter is not None:
                    stones[_LETTERS.index(letter)] |= 1 << (rank * geo.stride + file)
        if fields.to_move not in ("b", "w"):
            raise ParseError(f"the side to move must be b or w, not {fields.to_move!r}")
        turn = BLACK if fields.to_move == "b" else WHITE
        swap = False
        for extra in fields.extras:
            if extra != "swap" or swap:
                raise ParseError(f"unexpected field {extra!r} in an Ayu position")
            swap = True
        if swap and not self.pie:
            raise ParseError("'swap' is only possible with the pie rule on (pie=on)")
        if swap and turn != WHITE:
            raise ParseError("'swap' is offered to White only; the side to move is Black")
        return AyuPosition(self, stones[0], stones[1], turn, swap_available=swap)

    def parse_move(self, text: str) -> AyuMove:
        geo = self.geometry
        if text == "swap":
            return geo.swap_move
        source, sep, target = text.partition("-")
        if not sep or not source or not target:
            raise ParseError(f"an Ayu move is written from-to, like b1-c1, not {text!r}")
        return geo.move(geo.cell(source), geo.cell(target))

    def board(self) -> BoardDescription:
        geo, n = self.geometry, self.size
        cells = []
        neighbours = []
        for index in sorted(geo.names, key=lambda i: (-(i // geo.stride), i % geo.stride)):
            rank, file = divmod(index, geo.stride)
            cells.append(CellInfo(index, geo.names[index], float(file), float(n - 1 - rank)))
        order = {info.index: k for k, info in enumerate(cells)}
        for info in cells:
            neighbours.append(tuple(order[i] for i in bits(geo.neighbours[info.index])))
        labels = [BoardLabel(chr(ord("a") + f), float(f), n - 0.05) for f in range(n)]
        labels += [BoardLabel(str(r + 1), -0.95, float(n - 1 - r)) for r in range(n)]
        return BoardDescription("point", tuple(cells), tuple(neighbours), tuple(labels))


class AyuPosition(Position):
    """An Ayu board, side to move, pie state and the history of pushed moves."""

    def __init__(
        self, game: AyuGame, black: int, white: int, turn: int, *, swap_available: bool
    ) -> None:
        super().__init__()
        self.game: AyuGame = game
        self.geo = game.geometry
        self.stones = [black, white]
        self.turn = turn
        self.swap_available = swap_available
        # Swap is offered after Black's first move from the standard start (AYU-10).
        self.pie_pending = game.pie and turn == BLACK and (black, white) == self.geo.start_stones
        zob = self.geo.zobrist
        key = 0
        for colour in (BLACK, WHITE):
            for index in bits(self.stones[colour]):
                key ^= zob[colour][index]
        if turn == WHITE:
            key ^= self.geo.turn_key
        self.board_key = key
        self._stack: list[tuple[AyuMove, bool, bool]] = []
        self._moves_cache: list[Move] | None = None
        self._enter_key(key)

    # -- contract ---------------------------------------------------------------------
    def key(self) -> int:
        return self.board_key ^ self.geo.swap_key if self.swap_available else self.board_key

    def repetition_key(self) -> int:
        return self.board_key

    def copy(self) -> AyuPosition:
        other = self._clone()
        other.stones = list(self.stones)
        other._stack = list(self._stack)
        return other

    def push(self, move: Move) -> None:
        assert isinstance(move, AyuMove)
        self._stack.append((move, self.swap_available, self.pie_pending))
        self._moves_cache = None
        if move.source < 0:
            # The colours change hands, not the board: no new repetition entry (AYU-10).
            self.swap_available = False
            return
        colour = self.turn
        self.stones[colour] ^= (1 << move.source) | (1 << move.target)
        zob = self.geo.zobrist[colour]
        self.board_key ^= zob[move.source] ^ zob[move.target] ^ self.geo.turn_key
        self.swap_available = self.pie_pending
        self.pie_pending = False
        self.turn = colour ^ 1
        self._enter_key(self.board_key)

    def pop(self) -> Move:
        move, self.swap_available, self.pie_pending = self._stack.pop()
        self._moves_cache = None
        if move.source < 0:
            return move
        self._leave_key()
        colour = self.turn ^ 1
        self.turn = colour
        self.stones[colour] ^= (1 << move.source) | (1 << move.target)
        zob = self.geo.zobrist[colour]
        self.board_key ^= zob[move.source] ^ zob[move.target] ^ self.geo.turn_key
        return move

    def forget_cached_moves(self) -> None:
        self._moves_cache = None

    def rule_moves(self) -> list[Move]:
        if self._moves_cache is None:
            moves: list[Move] = list(self._generate())
            if self.swap_available:
                moves.append(self.geo.swap_move)
            self._moves_cache = moves
        return self._moves_cache

    def legal_moves(self) -> list[Move]:
        if self._occurrences() > 1:
            return []
        return list(self.rule_moves())

    def outcome(self) -> Outcome | None:
        if self._occurrences() > 1:
            return Outcome(None, "the position repeated")
        if not self.rule_moves():
            return Outcome(self.turn_name, f"{self.turn_name} has no legal move")
        return None

    def to_text(self) -> str:
        geo, n = self.geo, self.game.size
        letters: list[str | None] = []
        for row in range(n):
            base = (n - 1 - row) * geo.stride
            for file in range(n):
                bit = 1 << (base + file)
                letters.append(
                    "b" if self.stones[BLACK] & bit else "w" if self.stones[WHITE] & bit else None
                )
        extras = ["swap"] if self.swap_available else []
        return join_position(
            "ayu",
            n,
            format_rows(letters, [n] * n),
            "bw"[self.turn],
            extras,
            self.game.option_text(),
        )

    def pieces(self) -> dict[str, Piece]:
        out: dict[str, Piece] = {}
        for colour, name in enumerate(self.game.players):
            for index in bits(self.stones[colour]):
                out[self.geo.names[index]] = Piece(name, "stone")
        return out

    def effects_of(self, move: Move) -> list[Effect]:
        assert isinstance(move, AyuMove)
        if move.source < 0:
            return [Swapped()]
        names = self.geo.names
        return [Moved(names[move.source], names[move.target], self.turn_name, "stone")]

    def explain_illegal(self, move: Move) -> str:
        from engine.games.ayu_explain import explain

        assert isinstance(move, AyuMove)
        return explain(self, move)

    # -- move generation ----------------------------------------------------------------
    def units(self, colour: int) -> list[int]:
        own = self.stones[colour]
        spread = self.geo.spread
        units = []
        while own:
            unit = flood(own & -own, self.stones[colour], spread)
            units.append(unit)
            own &= ~unit
        return units

    def distance_layers(self, colour: int, unit: int) -> tuple[int, int] | None:
        """(D(unit), union of the layers nearer than D) or None when D is infinite."""
        own = self.stones[colour]
        rest = own & ~unit
        if not rest:
            return None
        spread = self.geo.spread
        empty = self.geo.board_mask & ~(own | self.stones[colour ^ 1])
        passable = empty | unit
        touching_unit = spread(unit) & empty
        layer = spread(rest) & passable
        seen = layer | rest
        nearer = 0
        distance = 1
        while layer:
            if layer & touching_unit:
                return distance, nearer
            nearer |= layer
            layer = spread(layer) & passable & ~seen
            seen |= layer
            distance += 1
        return None

    def allows(self, move: AyuMove) -> bool:
        """Whether the ordinary move `move` (not the swap) is among `rule_moves()`, tested
        for it alone: a search tries its table's move before it generates the rest."""
        source, target = move.source, move.target
        if source < 0:
            return False
        colour = self.turn
        geo = self.geo
        own = self.stones[colour]
        bit = 1 << source
        if not own & bit:
            return False
        empty = geo.board_mask & ~(own | self.stones[colour ^ 1])
        if not empty >> target & 1:
            return False
        spread, neighbours = geo.spread, geo.neighbours
        unit = flood(bit, own, spread)
        found = self.distance_layers(colour, unit)  # None also when `unit` is all there is
        if found is None:
            return False
        _, nearer = found
        rest = own & ~unit
        near = neighbours[target]
        after_empty = (empty | bit) & ~(1 << target)
        if unit == bit:
            if not neighbours[source] >> target & 1:
                return False
            return bool(near & rest or near & after_empty & nearer)
        remainder = unit ^ bit
        if not targets_keeping_connected(remainder, empty, spread) >> target & 1:
            return False
        return bool(near & rest or (spread(remainder) | near) & after_empty & nearer)

    def _generate(self) -> list[AyuMove]:
        colour = self.turn
        geo = self.geo
        spread, neighbours, make = geo.spread, geo.neighbours, geo.move
        own = self.stones[colour]
        empty = geo.board_mask & ~(own | self.stones[colour ^ 1])
        units = self.units(colour)
        moves: list[AyuMove] = []
        if len(units) < 2:
            return moves
        for unit in units:
            found = self.distance_layers(colour, unit)
            if found is None:
                continue
            _, nearer = found
            rest = own & ~unit
            if unit & (unit - 1) == 0:
                source = unit.bit_length() - 1
                after_empty_base = empty | unit
                for target in bits(neighbours[source] & empty):
                    near = neighbours[target]
                    if near & rest or near & (after_empty_base & ~(1 << target)) & nearer:
                        moves.append(make(source, target))
                continue
            for source in bits(unit):
                bit = 1 << source
                remainder = unit ^ bit
                targets = targets_keeping_connected(remainder, empty, spread)
                if not targets:
                    continue
                around_rest = spread(remainder)
                after_empty_base = empty | bit
                for target in bits(targets):
                    near = neighbours[target]
                    if near & rest or (
                        (around_rest | near) & (after_empty_base & ~(1 << target)) & nearer
                    ):
                        moves.append(make(source, target))
        return moves


def targets_keeping_connected(remainder: int, empty: int, spread: Spread) -> int:
    """Empty points that touch every piece of `remainder`, so the group ends up whole."""
    first = flood(remainder & -remainder, remainder, spread)
    if first == remainder:
        return spread(remainder) & empty
    targets = spread(first) & empty
    left = remainder & ~first
    while left and targets:
        part = flood(left & -left, remainder, spread)
        targets &= spread(part)
        left &= ~part
    return targets
