"""Ahayuta's text formats (rules.md section 6): position strings, moves with an optional
capture suffix, and the board description for the GUI."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.bitboard import bits
from engine.board import BoardDescription, BoardLabel, CellInfo
from engine.core import IllegalMoveError, ParseError
from engine.games.ahayuta_geometry import (
    DARK,
    DEPLOY,
    FILES,
    LIGHT,
    PLACE,
    AhayutaGeometry,
    AhayutaMove,
)
from engine.notation import format_rows, join_position, parse_rows, split_position

if TYPE_CHECKING:
    from engine.games.ahayuta import AhayutaGame, AhayutaPosition

LETTERS = "WAwa"  # light warrior, light Ahayuta, dark warrior, dark Ahayuta
PENDING_TEXT = ("-", "L", "D", "LD")


def parse_state(
    game: AhayutaGame, text: str
) -> tuple[list[int], list[int], tuple[int, int], tuple[bool, bool], int]:
    """The state fields of a position string of `game` (section 6.3), strictly checked."""
    fields = split_position(text)
    if fields.game != game.name:
        raise ParseError(f"this is a position of {fields.game!r}, not of ahayuta")
    if fields.size != 8:
        raise ParseError(f"an Ahayuta position has size 8, not {fields.size}")
    if type(game)(8, **fields.options) != game:
        theirs = type(game)(8, **fields.options).option_text() or "the default options"
        ours = game.option_text() or "the default options"
        raise ParseError(f"the position is for {theirs}, but this game has {ours}")
    geo = game.geometry
    letters = parse_rows(fields.board, geo.row_lengths, LETTERS)
    men, aha = [0, 0], [0, 0]
    for index, letter in zip(geo.print_order, letters, strict=True):
        if letter is None:
            continue
        code = LETTERS.index(letter)
        side = code >> 1
        if code & 1:
            if aha[side]:
                raise ParseError(f"{game.players[side]} has two Ahayutas on the board")
            aha[side] = 1 << index
        else:
            men[side] |= 1 << index
    if fields.to_move not in ("l", "d"):
        raise ParseError(f"the side to move must be l or d, not {fields.to_move!r}")
    turn = LIGHT if fields.to_move == "l" else DARK
    if len(fields.extras) != 2:
        raise ParseError(
            "an Ahayuta position needs the reserves and the pending flags after the side "
            f"to move, like '6/6 -'; got {len(fields.extras)} field(s)"
        )
    reserve_text, pending_text = fields.extras
    parts = reserve_text.split("/")
    if len(parts) != 2 or not all(p.isdigit() and len(p) == 1 for p in parts):
        raise ParseError(
            f"the reserves are written light/dark with one digit each, like 6/6, "
            f"not {reserve_text!r}"
        )
    reserves = (int(parts[0]), int(parts[1]))
    if pending_text not in PENDING_TEXT:
        raise ParseError(
            f"the pending Ahayuta flags are -, L, D or LD, not {pending_text!r}"
        )
    pending = ("L" in pending_text, "D" in pending_text)
    for side, player in enumerate(game.players):
        count = bin(men[side]).count("1")
        if count + reserves[side] > 6:
            raise ParseError(
                f"{player} has {count} warriors on the board and {reserves[side]} in "
                f"reserve: more than 6"
            )
        if pending[side] and aha[side]:
            raise ParseError(
                f"{player}'s Ahayuta is on the board, so it cannot also be pending"
            )
    winners = [side for side in (LIGHT, DARK) if aha[side] & geo.goal[side]]
    if len(winners) == 2:
        raise ParseError("both Ahayutas stand on the opponent's home row")
    if winners and winners[0] == turn:
        player = game.players[turn]
        raise ParseError(
            f"{player}'s Ahayuta stands on the opponent's home row, so {player} has won "
            f"and cannot be to move"
        )
    return men, aha, reserves, pending, turn


def parse_move_and_captures(
    geo: AhayutaGeometry, text: str
) -> tuple[AhayutaMove, tuple[int, ...] | None]:
    """The move and the squares of its capture suffix (`xe5xf6`), None without one."""
    if not isinstance(text, str) or not text:
        raise ParseError("the move is empty")
    base, *captured_names = text.split("x")
    captures: tuple[int, ...] | None = None
    if captured_names:
        if not all(captured_names):
            raise ParseError(f"the capture suffix of {text!r} names no square after an x")
        captures = tuple(geo.cell(name) for name in captured_names)
        if len(set(captures)) != len(captures):
            raise ParseError(f"{text!r} names a captured square twice")
    if base.startswith("A@"):
        return geo.move(PLACE, -1, geo.cell(base[2:])), captures
    if base.startswith("@"):
        return geo.move(DEPLOY, -1, geo.cell(base[1:])), captures
    source, sep, rest = base.partition("-")
    if not sep or not source or not rest:
        raise ParseError(
            f"an Ahayuta move is written @d1, c3-d4, c7-d8/e1 or A@e8, not {text!r}"
        )
    target, slash, newborn = rest.partition("/")
    if slash and not newborn:
        raise ParseError(f"{text!r} has no newborn square after the /")
    return (
        geo.move(
            1, geo.cell(source), geo.cell(target), geo.cell(newborn) if slash else -1
        ),
        captures,
    )


def board_description(geo: AhayutaGeometry) -> BoardDescription:
    cells = [
        CellInfo(index, geo.names[index], float(index % 8), float(7 - index // 8))
        for index in geo.print_order
    ]
    order = {info.index: k for k, info in enumerate(cells)}
    neighbours = tuple(
        tuple(order[i] for i in bits(geo.adjacent[info.index])) for info in cells
    )
    labels = [BoardLabel(FILES[f], float(f), 7.7) for f in range(8)]
    labels += [BoardLabel(str(r + 1), -0.7, float(7 - r)) for r in range(8)]
    zones = {
        "light home": tuple(geo.names[i] for i in bits(geo.home[LIGHT])),
        "dark home": tuple(geo.names[i] for i in bits(geo.home[DARK])),
    }
    return BoardDescription("square", tuple(cells), neighbours, tuple(labels), zones)


def format_position(position: AhayutaPosition) -> str:
    """The canonical position string (section 6.3)."""
    geo = position.geo
    men, aha = position.men, position.aha
    letters: list[str | None] = []
    for index in geo.print_order:
        bit = 1 << index
        if men[LIGHT] & bit:
            letters.append("W")
        elif aha[LIGHT] & bit:
            letters.append("A")
        elif men[DARK] & bit:
            letters.append("w")
        elif aha[DARK] & bit:
            letters.append("a")
        else:
            letters.append(None)
    pending = PENDING_TEXT[position.pend[LIGHT] + 2 * position.pend[DARK]]
    reserves = f"{position.res[LIGHT]}/{position.res[DARK]}"
    return join_position(
        "ahayuta", 8, format_rows(letters, geo.row_lengths), "ld"[position.turn],
        [reserves, pending], position.game.option_text(),
    )


def check_capture_suffix(
    position: AhayutaPosition, move: AhayutaMove, captures: tuple[int, ...]
) -> None:
    """Raise IllegalMoveError unless `move` is legal and captures exactly `captures`."""
    ended = position.outcome()
    if ended is not None:
        raise IllegalMoveError(f"the game is over ({ended.text()})")
    if move not in position.legal_moves():
        raise IllegalMoveError(position.explain_illegal(move))
    actual = position.captures_of(move)
    if sorted(captures) != actual:
        names = position.geo.names
        said = ", ".join(names[i] for i in sorted(captures))
        real = ", ".join(names[i] for i in actual) or "nothing"
        raise IllegalMoveError(f"{move.to_text()} captures {real}, not {said}")
