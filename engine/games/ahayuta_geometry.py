"""Ahayuta's board tables (rules.md section 3, AHA-1…AHA-3) and its move value.

Squares are bits `rank * 8 + file` (a1 = 0, h8 = 63) of one Python int; the four removed
corners a1, h1, a8, h8 are simply never set. Everything that depends only on the board is
computed once here: names, rays per square and direction (ending at an edge or a removed
corner, AHA-1), king-neighbour masks, step targets per side and the interned moves.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from functools import cache

from engine.bitboard import bits
from engine.core import Move, ParseError

LIGHT, DARK = 0, 1
FILES = "abcdefgh"
REMOVED = (0, 7, 56, 63)  # a1, h1, a8, h8

DEPLOY, STEP, PLACE = 0, 1, 2

# The 8 directions as (file step, rank step).
DIRECTIONS = ((0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1))

# Ahayuta steps per option, with "forward" = +1 rank for Light (AHA-3, AHA-8, H3).
AHAYUTA_STEPS: dict[str, tuple[tuple[int, int], ...]] = {
    "no-backward": ((-1, 0), (1, 0), (0, 1), (-1, 1), (1, 1)),
    "forward-3": ((0, 1), (-1, 1), (1, 1)),
    "king-8": DIRECTIONS,
}

# Home rows as 6-bit codes: bits 1..6 (b1-g1) and 57..62 (b8-g8).
HOME_SHIFT = (1, 57)


@dataclass(frozen=True, slots=True)
class AhayutaMove(Move):
    """`kind` is DEPLOY (`@d1`), STEP (`c3-d4`, `c7-d8/e1`) or PLACE (`A@e8`).

    Squares are bit indices; `source` is -1 for deploys and placements, `newborn` is the
    square of the Ahayuta born by a hero step, -1 when none is born.
    """

    kind: int
    source: int
    target: int
    newborn: int
    geometry: AhayutaGeometry = field(compare=False, repr=False)

    def to_text(self) -> str:
        names = self.geometry.names
        if self.kind == DEPLOY:
            return f"@{names[self.target]}"
        if self.kind == PLACE:
            return f"A@{names[self.target]}"
        text = f"{names[self.source]}-{names[self.target]}"
        return f"{text}/{names[self.newborn]}" if self.newborn >= 0 else text


def _square(file: int, rank: int) -> int | None:
    """Bit index of (file, rank) counted from 0, or None off the board or on a corner."""
    if not (0 <= file < 8 and 0 <= rank < 8):
        return None
    index = rank * 8 + file
    return None if index in REMOVED else index


class AhayutaGeometry:
    """Every table of the one Ahayuta board."""

    def __init__(self) -> None:
        self.squares: tuple[int, ...] = tuple(
            i for i in range(64) if _square(i % 8, i // 8) is not None
        )
        self.board_mask = sum(1 << i for i in self.squares)
        self.names: list[str] = [f"{FILES[i % 8]}{i // 8 + 1}" for i in range(64)]
        self.index_of = {self.names[i]: i for i in self.squares}
        # Print order of position strings: rank 8 first, files a-h within a rank.
        self.print_order: tuple[int, ...] = tuple(
            sorted(self.squares, key=lambda i: (-(i // 8), i % 8))
        )
        self.row_lengths = (6, 8, 8, 8, 8, 8, 8, 6)
        self.home = (sum(1 << (8 * 0 + f) for f in range(1, 7)),
                     sum(1 << (8 * 7 + f) for f in range(1, 7)))
        self.goal = (self.home[DARK], self.home[LIGHT])
        # Rays per square: for each direction a tuple of square bits, nearest first,
        # stopping at the edge or a removed corner. Only rays of 2 or more squares can
        # hold a clamp (a run of one or more and its anchor), so only those are kept.
        self.rays: list[tuple[tuple[int, ...], ...]] = [() for _ in range(64)]
        self.ray_squares: list[tuple[tuple[int, ...], ...]] = [() for _ in range(64)]
        self.adjacent = [0] * 64
        for s in self.squares:
            rays = []
            for df, dr in DIRECTIONS:
                ray: list[int] = []
                file, rank = s % 8 + df, s // 8 + dr
                while (t := _square(file, rank)) is not None:
                    ray.append(t)
                    file, rank = file + df, rank + dr
                if ray:
                    self.adjacent[s] |= 1 << ray[0]
                if len(ray) >= 2:
                    rays.append(tuple(ray))
            self.ray_squares[s] = tuple(rays)
            self.rays[s] = tuple(tuple(1 << t for t in ray) for ray in rays)
        self._moves: dict[tuple[int, int, int, int], AhayutaMove] = {}
        # Moves for each 6-bit code of empty home-row squares, per side.
        self.deploys: tuple[list[tuple[AhayutaMove, ...]], ...] = ([], [])
        self.places: tuple[list[tuple[AhayutaMove, ...]], ...] = ([], [])
        for side in (LIGHT, DARK):
            for code in range(64):
                home = [HOME_SHIFT[side] + k for k in range(6) if code >> k & 1]
                self.deploys[side].append(tuple(self.move(DEPLOY, -1, t) for t in home))
                self.places[side].append(tuple(self.move(PLACE, -1, t) for t in home))
        # Warrior steps per side and square: (target bit, move, reaches the enemy home row).
        self.warrior_steps: tuple[list[tuple[tuple[int, AhayutaMove, bool], ...]], ...] = (
            [() for _ in range(64)],
            [() for _ in range(64)],
        )
        # Hero steps: for each plain hero move, the moves naming a newborn square, per code.
        self.hero_moves: dict[AhayutaMove, list[tuple[AhayutaMove, ...]]] = {}
        for side in (LIGHT, DARK):
            forward = 1 if side == LIGHT else -1
            for s in self.squares:
                steps = []
                for df in (-1, 1):
                    t = _square(s % 8 + df, s // 8 + forward)
                    if t is None:
                        continue
                    move = self.move(STEP, s, t)
                    hero = bool(self.goal[side] >> t & 1)
                    steps.append((1 << t, move, hero))
                    if hero:
                        self.hero_moves[move] = [
                            tuple(
                                self.move(STEP, s, t, HOME_SHIFT[side] + k)
                                for k in range(6)
                                if code >> k & 1
                            )
                            for code in range(64)
                        ]
                self.warrior_steps[side][s] = tuple(steps)
        # Ahayuta steps per option, side and square: (target bit, move).
        self.ahayuta_steps: dict[str, tuple[list[tuple[tuple[int, AhayutaMove], ...]], ...]] = {}
        for option, directions in AHAYUTA_STEPS.items():
            per_side: tuple[list[tuple[tuple[int, AhayutaMove], ...]], ...] = ([], [])
            for side in (LIGHT, DARK):
                forward = 1 if side == LIGHT else -1
                for s in range(64):
                    targets = []
                    if self.board_mask >> s & 1:
                        for df, dr in directions:
                            t = _square(s % 8 + df, s // 8 + dr * forward)
                            if t is not None:
                                targets.append((1 << t, self.move(STEP, s, t)))
                    per_side[side].append(tuple(targets))
            self.ahayuta_steps[option] = per_side
        # Warrior steps of a whole side at once: a shift per diagonal, then the move of each
        # target bit. Per side: (shift left or right, amount, sources allowed, {bit: move}).
        self.step_shifts: tuple[tuple[tuple[bool, int, int, dict[int, AhayutaMove]], ...], ...]
        shifts = []
        for side in (LIGHT, DARK):
            forward = 1 if side == LIGHT else -1
            side_shifts = []
            for df in (-1, 1):
                delta = 8 * forward + df
                sources = sum(
                    1 << s
                    for s in self.squares
                    if _square(s % 8 + df, s // 8 + forward) is not None
                )
                table = {1 << (s + delta): self.move(STEP, s, s + delta) for s in bits(sources)}
                side_shifts.append((delta > 0, abs(delta), sources, table))
            shifts.append(tuple(side_shifts))
        self.step_shifts = tuple(shifts)
        # The other warrior steps rank by rank: per side, the source ranks whose targets are
        # not the goal row, the rank step, and per source rank a memo of the moves for
        # (byte of own warriors on the rank << 8) | (byte of empty squares on the target rank).
        self.step_ranks = (tuple(range(0, 6)), tuple(range(7, 1, -1)))
        self.forward = (1, -1)
        self.pre_goal = (0xFF << 48, 0xFF << 8)
        self.rank_steps: tuple[list[dict[int, tuple[AhayutaMove, ...]]], ...] = (
            [{} for _ in range(8)],
            [{} for _ in range(8)],
        )
        # Zobrist keys: [light warrior, light Ahayuta, dark warrior, dark Ahayuta][square],
        # reserve counts per side, pending flags per side, and the side to move.
        rng = random.Random(0xA4A7)
        self.zobrist = [[rng.getrandbits(64) for _ in range(64)] for _ in range(4)]
        self.reserve_keys = [[rng.getrandbits(64) for _ in range(7)] for _ in range(2)]
        self.pending_keys = [rng.getrandbits(64) for _ in range(2)]
        self.turn_key = rng.getrandbits(64)

    def move(self, kind: int, source: int, target: int, newborn: int = -1) -> AhayutaMove:
        key = (kind, source, target, newborn)
        move = self._moves.get(key)
        if move is None:
            move = self._moves[key] = AhayutaMove(kind, source, target, newborn, self)
        return move

    def rank_step_moves(self, side: int, rank: int, key: int) -> tuple[AhayutaMove, ...]:
        """Warrior steps from `rank` for a memo key of `rank_steps` (computed once)."""
        target_rank = rank + self.forward[side]
        sources, empty = key >> 8, key & 255
        moves = []
        for file in range(8):
            if sources >> file & 1:
                for target_file in (file - 1, file + 1):
                    if 0 <= target_file < 8 and empty >> target_file & 1:
                        moves.append(
                            self.move(STEP, rank * 8 + file, target_rank * 8 + target_file)
                        )
        found = self.rank_steps[side][rank][key] = tuple(moves)
        return found

    def cell(self, name: str) -> int:
        index = self.index_of.get(name)
        if index is None:
            if name in ("a1", "h1", "a8", "h8"):
                raise ParseError(
                    f"{name} is not a square: the corners a1, h1, a8 and h8 are removed"
                )
            raise ParseError(
                f"{name!r} is not a square of the Ahayuta board (files a-h, ranks 1-8)"
            )
        return index

    def direction_between(self, source: int, target: int) -> tuple[int, int] | None:
        """(file step, rank step) when `target` is king-adjacent to `source`, else None."""
        df, dr = target % 8 - source % 8, target // 8 - source // 8
        if (df, dr) != (0, 0) and abs(df) <= 1 and abs(dr) <= 1:
            return df, dr
        return None


@cache
def geometry() -> AhayutaGeometry:
    return AhayutaGeometry()
