"""Ayu: the fast bitboard generator agrees with a slow one written from the rule text."""

from __future__ import annotations

import random
from collections import deque

from hypothesis import given, settings
from hypothesis import strategies as st

from engine import new_game, parse_position
from engine.bitboard import bits
from engine.games.ayu import AyuPosition

Point = tuple[int, int]


def _neighbours(point: Point, n: int) -> list[Point]:
    f, r = point
    candidates = [(f + 1, r), (f - 1, r), (f, r + 1), (f, r - 1)]
    return [(a, b) for a, b in candidates if 0 <= a < n and 0 <= b < n]


def _units(stones: set[Point], n: int) -> list[set[Point]]:
    """AYU-3: maximal orthogonally connected sets of one colour."""
    left, units = set(stones), []
    while left:
        seed = left.pop()
        unit, queue = {seed}, deque([seed])
        while queue:
            for other in _neighbours(queue.popleft(), n):
                if other in left:
                    left.discard(other)
                    unit.add(other)
                    queue.append(other)
        units.append(unit)
    return units


def _distance(a: set[Point], b: set[Point], empty: set[Point], n: int) -> float:
    """AYU-6: fewest empty points p1..pk, p1 next to A, pk next to B; infinite if none."""
    start = {p for s in a for p in _neighbours(s, n) if p in empty}
    depth, seen, frontier = 1, set(start), start
    while frontier:
        if any(q in b for p in frontier for q in _neighbours(p, n)):
            return depth
        nxt = {q for p in frontier for q in _neighbours(p, n) if q in empty and q not in seen}
        seen |= nxt
        frontier = nxt
        depth += 1
    return float("inf")


def _closest(unit: set[Point], own: set[Point], empty: set[Point], n: int) -> float:
    others = [u for u in _units(own, n) if not u & unit]
    return min((_distance(unit, other, empty, n) for other in others), default=float("inf"))


def slow_moves(own: set[Point], enemy: set[Point], n: int) -> set[tuple[Point, Point]]:
    """AYU-5 and AYU-7, literally: try every stone to every empty point."""
    board = {(f, r) for f in range(n) for r in range(n)}
    empty = board - own - enemy
    legal = set()
    for unit in _units(own, n):
        before = _closest(unit, own, empty, n)
        for s in unit:
            rest = unit - {s}
            for t in empty:
                if not rest and t not in _neighbours(s, n):
                    continue
                if rest and not any(q in rest for q in _neighbours(t, n)):
                    continue
                after_own = (own - {s}) | {t}
                after_empty = (empty - {t}) | {s}
                holder = next(u for u in _units(after_own, n) if t in u)
                if not (rest | {t}) <= holder:
                    continue  # the group was left split
                if holder - unit - {t}:
                    legal.add((s, t))  # a join is always legal
                elif _closest(holder, after_own, after_empty, n) < before:
                    legal.add((s, t))
    return legal


def _name(point: Point) -> str:
    return f"{chr(97 + point[0])}{point[1] + 1}"


def _check(position: AyuPosition) -> None:
    n = position.game.size
    cells = {(f, r) for f in range(n) for r in range(n)}
    pieces = position.pieces()
    own = {p for p in cells if (pc := pieces.get(_name(p))) and pc.player == position.turn_name}
    enemy = {p for p in cells if _name(p) in pieces} - own
    expected = {f"{_name(s)}-{_name(t)}" for s, t in slow_moves(own, enemy, n)}
    assert {move.to_text() for move in position.rule_moves()} == expected
    # The one-move test a search uses for its table's move says the same of every move.
    legal = set(position.rule_moves())
    geo = position.geo
    for source in bits(position.stones[position.turn]):
        for target in bits(geo.board_mask):
            move = geo.move(source, target)
            assert position.allows(move) == (move in legal), move.to_text()
    assert not position.allows(geo.swap_move)  # the swap is not an ordinary move


@st.composite
def random_boards(draw: st.DrawFn) -> str:
    n = draw(st.sampled_from([5, 7]))
    letters = draw(st.lists(st.sampled_from("bw...."), min_size=n * n, max_size=n * n))
    rows = ["".join(letters[r * n : (r + 1) * n]) for r in range(n)]
    rows = [row.replace(".", "1") for row in rows]
    board = "/".join(rows)
    # Merge runs of 1s into one number, as the parser expects canonical-looking rows.
    merged = []
    for row in board.split("/"):
        out, run = "", 0
        for char in row:
            if char == "1":
                run += 1
            else:
                out += (str(run) if run else "") + char
                run = 0
        merged.append(out + (str(run) if run else ""))
    return f"ayu {n} {'/'.join(merged)} {draw(st.sampled_from('bw'))}"


@settings(max_examples=150, deadline=None)
@given(random_boards())
def test_fast_generator_matches_rule_text_on_random_boards(text: str) -> None:
    position = parse_position(text)
    assert isinstance(position, AyuPosition)
    _check(position)


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10_000), st.integers(0, 60))
def test_fast_generator_matches_rule_text_in_random_games(seed: int, plies: int) -> None:
    rng = random.Random(seed)
    position = new_game("ayu", 7).start()
    for _ in range(plies):
        moves = position.legal_moves()
        if not moves:
            break
        position.push(rng.choice(moves))
    assert isinstance(position, AyuPosition)
    _check(position)
