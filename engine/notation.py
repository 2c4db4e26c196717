"""Shared pieces of the text formats of rules.md section 6: position string fields and
run-length board rows. Every error names what is wrong."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.core import ParseError


@dataclass(frozen=True)
class PositionFields:
    """A position string split into its fields (section 6.3)."""

    game: str
    size: int
    board: str
    to_move: str
    extras: tuple[str, ...]
    options: dict[str, str]


def split_position(text: str) -> PositionFields:
    if not isinstance(text, str) or not text.strip():
        raise ParseError("the position string is empty")
    if text != text.strip() or "  " in text or "\t" in text or "\n" in text:
        text = " ".join(text.split())
    tokens = text.split(" ")
    if len(tokens) < 4:
        raise ParseError(
            "a position needs at least 4 fields: <game> <size> <board> <to-move>, "
            f"got {len(tokens)}"
        )
    game, size_text, board, to_move, *rest = tokens
    if not size_text.isdigit():
        raise ParseError(f"the size must be a whole number, not {size_text!r}")
    options: dict[str, str] = {}
    extras: list[str] = []
    for token in rest:
        if "=" in token:
            name, _, value = token.partition("=")
            if not name or not value:
                raise ParseError(f"option {token!r} must be written name=value")
            if name in options:
                raise ParseError(f"option {name} is given twice")
            options[name] = value
        elif options:
            raise ParseError(f"{token!r} comes after the options; options must be last")
        else:
            extras.append(token)
    return PositionFields(game, int(size_text), board, to_move, tuple(extras), options)


def parse_rows(board: str, row_lengths: Sequence[int], letters: str) -> list[str | None]:
    """Decode `/`-separated run-length rows into one letter (or None) per cell, row by row."""
    rows = board.split("/")
    if len(rows) != len(row_lengths):
        raise ParseError(f"the board has {len(rows)} rows, expected {len(row_lengths)}")
    cells: list[str | None] = []
    for number, (row, expected) in enumerate(zip(rows, row_lengths, strict=True), start=1):
        decoded: list[str | None] = []
        run = ""
        for char in row:
            if char.isdigit():
                run += char
                continue
            if run:
                decoded.extend([None] * _run_length(run, number))
                run = ""
            if char not in letters:
                allowed = ", ".join(letters)
                raise ParseError(
                    f"row {number} of the board has {char!r}; pieces are {allowed} "
                    "and digits count empty cells"
                )
            decoded.append(char)
        if run:
            decoded.extend([None] * _run_length(run, number))
        if not row:
            raise ParseError(f"row {number} of the board is empty")
        if len(decoded) != expected:
            raise ParseError(
                f"row {number} of the board has {len(decoded)} cells, expected {expected}"
            )
        cells.extend(decoded)
    return cells


def _run_length(run: str, row: int) -> int:
    value = int(run)
    if value == 0 or run.startswith("0"):
        raise ParseError(f"row {row} of the board has an empty run written {run!r}")
    return value


def format_rows(cells: Sequence[str | None], row_lengths: Sequence[int]) -> str:
    """Encode cells row by row, merging runs of empty cells into one number."""
    rows: list[str] = []
    index = 0
    for length in row_lengths:
        parts: list[str] = []
        empty = 0
        for letter in cells[index : index + length]:
            if letter is None:
                empty += 1
                continue
            if empty:
                parts.append(str(empty))
                empty = 0
            parts.append(letter)
        if empty:
            parts.append(str(empty))
        rows.append("".join(parts))
        index += length
    return "/".join(rows)


def join_position(
    game: str, size: int, board: str, to_move: str, extras: Sequence[str], option_text: str
) -> str:
    parts = [game, str(size), board, to_move, *extras]
    if option_text:
        parts.append(option_text)
    return " ".join(parts)
