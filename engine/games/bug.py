"""Bug (Nick Bentley): rules.md section 1, on bitboards in Python ints.

A move is a whole turn (BUG-16): the growth cell, then one bonus cell per eating cycle.
`legal_moves()` lists every distinct sequence; `bug_turn_list` finds them on bitboards.

The step-by-step view of a turn for the GUI (`turn_options`, `explain_step`) and the effects
of a move live in `bug_turns`, which replays a turn on a scratch board.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from engine.bitboard import bits
from engine.board import BoardDescription, BoardLabel, CellInfo
from engine.core import Game, Move, Outcome, ParseError, Piece, Position
from engine.effects import Effect
from engine.games.bug_geometry import BugGeometry, BugMove, geometry
from engine.games.bug_playout import growth_cells
from engine.games.bug_turn_list import Turn, list_turns
from engine.games.bug_turns import BugTurnOptions, TurnState, explain_move, explain_step
from engine.games.bug_turns import effects_of as turn_effects
from engine.games.bug_turns import turn_options as options_for_steps
from engine.notation import format_rows, join_position, parse_rows, split_position
from engine.registry import register

__all__ = ["BugGame", "BugMove", "BugPosition", "BugTurnOptions"]

BLACK, WHITE = 0, 1
_LETTERS = "bw"


@register
class BugGame(Game):
    name = "bug"
    title = "Bug"
    players = ("black", "white")
    sizes = (3, 4, 5, 6)
    default_size = 3

    def check_size(self, size: int) -> None:
        if size not in self.sizes:
            sides = ", ".join(str(side) for side in self.sizes)
            raise ParseError(f"a Bug board is a hexhex of side {sides}, not {size}")

    @property
    def geometry(self) -> BugGeometry:
        return geometry(self.size)

    def start(self) -> BugPosition:
        return BugPosition(self, 0, 0, BLACK)

    def parse(self, text: str) -> BugPosition:
        fields = split_position(text)
        if fields.game != self.name:
            raise ParseError(f"this is a position of {fields.game!r}, not of bug")
        if fields.size != self.size:
            raise ParseError(f"the position is for side {fields.size}, not {self.size}")
        if fields.extras:
            raise ParseError(f"unexpected field {fields.extras[0]!r} in a Bug position")
        if fields.options:
            raise ParseError(f"bug has no option {next(iter(fields.options))!r}")
        geo = self.geometry
        letters = parse_rows(fields.board, geo.row_lengths, _LETTERS)
        stones = [0, 0]
        for index, letter in zip(geo.order, letters, strict=True):
            if letter is not None:
                stones[_LETTERS.index(letter)] |= 1 << index
        if fields.to_move not in ("b", "w"):
            raise ParseError(f"the side to move must be b or w, not {fields.to_move!r}")
        return BugPosition(self, stones[BLACK], stones[WHITE], _LETTERS.index(fields.to_move))

    def parse_move(self, text: str) -> BugMove:
        geo = self.geometry
        if not text:
            raise ParseError("a Bug move is a list of cells like c4 or c4,c3; it is empty")
        if text != text.strip() or " " in text:
            raise ParseError(f"a Bug move is written without spaces, like c4,c3, not {text!r}")
        names = text.split(",")
        cells = []
        for number, name in enumerate(names, start=1):
            if not name:
                raise ParseError(f"cell {number} of the move {text!r} is empty")
            cells.append(geo.cell(name))
        return geo.move(tuple(cells))

    def board(self) -> BoardDescription:
        geo = self.geometry
        m = geo.m
        row_step = math.sqrt(3) / 2
        cells: list[CellInfo] = []
        labels: list[BoardLabel] = []
        for row in geo.rows:
            for index in row:
                q, r = geo.axial[index]
                cells.append(CellInfo(index, geo.names[index], q + r / 2 + m, (r + m) * row_step))
            first = cells[-len(row)]
            labels.append(BoardLabel(first.name[0], first.x - 1.0, first.y))
        order = {info.index: k for k, info in enumerate(cells)}
        neighbours = tuple(
            tuple(order[i] for i in bits(geo.neighbours[info.index])) for info in cells
        )
        return BoardDescription("hex", tuple(cells), neighbours, tuple(labels))


_StackEntry = tuple[BugMove, int, int, "list[Turn] | None"]


class BugPosition(Position):
    """A Bug board, the side to move and the stack of pushed turns."""

    def __init__(self, game: BugGame, black: int, white: int, turn: int) -> None:
        super().__init__()
        self.game: BugGame = game
        self.geo = game.geometry
        self.stones = [black, white]
        self.turn = turn
        zob = self.geo.zobrist
        key = self.geo.turn_key if turn == WHITE else 0
        for colour in (BLACK, WHITE):
            for index in bits(self.stones[colour]):
                key ^= zob[colour][index]
        self.board_key = key
        # Each entry: the move, the enemy stones it ate, the key before it, the turn cache.
        self._stack: list[_StackEntry] = []
        self._turns_cache: list[Turn] | None = None
        self._enter_key(key)

    # -- contract ---------------------------------------------------------------------
    def key(self) -> int:
        return self.board_key

    def copy(self) -> BugPosition:
        other = self._clone()
        other.stones = list(self.stones)
        other._stack = list(self._stack)
        return other

    def push(self, move: Move) -> None:
        assert isinstance(move, BugMove)
        geo = self.geo
        colour = self.turn
        stones = self.stones
        cells = move.cells
        zob = geo.zobrist[colour]
        before = self.board_key
        first = cells[0]
        stones[colour] |= 1 << first
        key = before ^ zob[first] ^ geo.turn_key
        eaten = 0
        if len(cells) > 1:
            enemy_zob = geo.zobrist[colour ^ 1]
            for cell in cells[1:]:
                own = stones[colour]
                # The eater is the one bug of the mover next to the bonus cell (BUG-12).
                touching = own & geo.neighbours[cell]
                eater = geo.bug_at((touching & -touching).bit_length() - 1, own)
                meal = geo.meal(eater, geo.bugs(stones[colour ^ 1]))
                stones[colour ^ 1] ^= meal
                eaten |= meal
                stones[colour] |= 1 << cell
                key ^= zob[cell]
                for index in bits(meal):
                    key ^= enemy_zob[index]
        self._stack.append((move, eaten, before, self._turns_cache))
        self._turns_cache = None
        self.board_key = key
        self.turn = colour ^ 1
        self._enter_key(key)

    def pop(self) -> Move:
        move, eaten, key, cache = self._stack.pop()
        self._leave_key()
        colour = self.turn ^ 1
        self.turn = colour
        placed = 0
        for cell in move.cells:
            placed |= 1 << cell
        self.stones[colour] ^= placed
        self.stones[colour ^ 1] |= eaten
        self.board_key = key
        self._turns_cache = cache
        return move

    def forget_cached_moves(self) -> None:
        self._turns_cache = None

    def turns(self) -> list[Turn]:
        """Every turn with the boards it leaves (the mover's stones, the opponent's), in the
        order of `legal_moves`; kept until the position changes."""
        if self._turns_cache is None:
            colour = self.turn
            stones = self.stones
            self._turns_cache = list_turns(self.geo, stones[colour], stones[colour ^ 1])
        return self._turns_cache

    def rule_moves(self) -> list[Move]:
        return [turn for turn, _, _ in self.turns()]

    def legal_moves(self) -> list[Move]:
        # No repetition rule in Bug (rules.md 1.2, B15): the rules' moves are the legal ones.
        return self.rule_moves()

    def outcome(self) -> Outcome | None:
        # Growth cells decide it (every growth cell starts a legal turn); listing every
        # turn just to see whether there is one cost searchers a generation per new leaf.
        if self._turns_cache is not None:
            if self._turns_cache:
                return None
        else:
            colour = self.turn
            if growth_cells(self.geo, self.stones[colour], self.stones[colour ^ 1]):
                return None
        name = self.turn_name
        # BUG-9: the player who cannot make the mandatory growth wins.
        return Outcome(name, f"{name} has no legal growth cell")

    def to_text(self) -> str:
        geo = self.geo
        black, white = self.stones
        letters: list[str | None] = []
        for index in geo.order:
            bit = 1 << index
            letters.append("b" if black & bit else "w" if white & bit else None)
        board = format_rows(letters, geo.row_lengths)
        return join_position("bug", self.game.size, board, _LETTERS[self.turn], (), "")

    def pieces(self) -> dict[str, Piece]:
        out: dict[str, Piece] = {}
        for colour, name in enumerate(self.game.players):
            for index in bits(self.stones[colour]):
                out[self.geo.names[index]] = Piece(name, "stone")
        return out

    def effects_of(self, move: Move) -> list[Effect]:
        assert isinstance(move, BugMove)
        return turn_effects(TurnState(self), move)

    def explain_illegal(self, move: Move) -> str:
        assert isinstance(move, BugMove)
        return explain_move(self, move)

    # -- the GUI's click-by-click view of a turn -----------------------------------------
    def turn_options(self, steps: Sequence[str]) -> BugTurnOptions:
        """What may follow the cells clicked so far (`steps`, growth cell first)."""
        return options_for_steps(self, steps)

    def explain_step(self, steps: Sequence[str], cell: str) -> str:
        """Why `cell` cannot come after `steps`, in a player's words ("" if it can)."""
        return explain_step(self, steps, cell)

    def bugs(self, colour: int) -> list[int]:
        return self.geo.bugs(self.stones[colour])
