"""Bug: the fast bitboard generator agrees with a slow one written from the rule text.

The reference below works on sets of axial cells `(q, r)`, finds bugs by breadth-first
search, compares shapes through the 12 explicit transforms of rules.md 1.3, and follows
BUG-10..BUG-16 with explicit recursion over the eating cycles.
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Iterable

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import new_game, parse_position
from engine.effects import Eaten, Placed
from engine.games.bug import BugPosition

Cell = tuple[int, int]
OFFSETS = ((1, 0), (-1, 0), (0, -1), (1, -1), (-1, 1), (0, 1))


# -- the reference --------------------------------------------------------------------
class Board:
    """Hexhex of side n with the names of rules.md 1.3, built independently of the engine."""

    def __init__(self, n: int) -> None:
        m = n - 1
        self.cells: set[Cell] = set()
        self.name: dict[Cell, str] = {}
        for r in range(-m, m + 1):
            q_min = max(-m, -m - r)
            for q in range(q_min, min(m, m - r) + 1):
                self.cells.add((q, r))
                self.name[(q, r)] = f"{chr(ord('a') + m - r)}{q - q_min + 1}"
        self.cell_of = {name: cell for cell, name in self.name.items()}

    def neighbours(self, cell: Cell) -> set[Cell]:
        q, r = cell
        return {(q + dq, r + dr) for dq, dr in OFFSETS} & self.cells


def bugs(board: Board, stones: set[Cell]) -> list[frozenset[Cell]]:
    """BUG-3: maximal connected sets of same-coloured stones."""
    left, out = set(stones), []
    while left:
        seed = left.pop()
        bug, queue = {seed}, deque([seed])
        while queue:
            for other in board.neighbours(queue.popleft()):
                if other in left:
                    left.discard(other)
                    bug.add(other)
                    queue.append(other)
        out.append(frozenset(bug))
    return out


def transforms(cell: Cell) -> list[Cell]:
    """The 12 images of a cell: 6 rotations of it and of its mirror image, in cube terms."""
    q, r = cell
    images = []
    for start in ((q, -q - r, r), (q, r, -q - r)):  # (x, y, z) and its reflection (x, z, y)
        x, y, z = start
        for _ in range(6):
            images.append((x, z))
            x, y, z = -z, -x, -y
    return images


def same_shape(a: Iterable[Cell], b: Iterable[Cell]) -> bool:
    """BUG-4: some symmetry followed by a translation maps a onto b."""
    a, b = list(a), set(b)
    if len(a) != len(b):
        return False
    images = [transforms(cell) for cell in a]
    anchor = min(b)
    for t in range(12):
        mapped = [image[t] for image in images]
        low = min(mapped)
        shifted = {(q - low[0] + anchor[0], r - low[1] + anchor[1]) for q, r in mapped}
        if shifted == b:
            return True
    return False


def adjacent(board: Board, a: Iterable[Cell], b: set[Cell]) -> bool:
    """BUG-5."""
    return any(board.neighbours(cell) & b for cell in a)


def slow_turns(board: Board, own: set[Cell], enemy: set[Cell]) -> set[tuple[str, ...]]:
    """Every complete turn of the player whose stones are `own`, by names."""
    largest = max(
        [len(bug) for bug in bugs(board, own)] + [len(bug) for bug in bugs(board, enemy)],
        default=0,
    )
    out: set[tuple[str, ...]] = set()
    for cell in board.cells - own - enemy:
        touching = [bug for bug in bugs(board, own) if board.neighbours(cell) & bug]
        if len(touching) >= 2:
            continue  # BUG-10: would merge
        if touching and len(touching[0]) + 1 > largest:
            continue  # BUG-10: bigger than L
        _cycles(board, [cell], own | {cell}, set(enemy), out)
    return out


def _cycles(
    board: Board, done: list[Cell], own: set[Cell], enemy: set[Cell], out: set[tuple[str, ...]]
) -> None:
    hungry = False
    for bug in bugs(board, own):
        prey = [
            other for other in bugs(board, enemy)
            if adjacent(board, bug, set(other)) and same_shape(bug, other)
        ]
        if not prey:
            continue
        left = enemy - set().union(*prey)
        others = own - bug
        bonus = [
            cell for cell in board.cells - own - left
            if board.neighbours(cell) & bug and not board.neighbours(cell) & others
        ]
        for cell in bonus:
            hungry = True
            _cycles(board, [*done, cell], own | {cell}, left, out)
    if not hungry:
        out.add(tuple(board.name[cell] for cell in done))


# -- positions ------------------------------------------------------------------------
def stones_of(board: Board, position: BugPosition) -> tuple[set[Cell], set[Cell]]:
    pieces = position.pieces()
    black = {board.cell_of[name] for name, piece in pieces.items() if piece.player == "black"}
    white = {board.cell_of[name] for name, piece in pieces.items() if piece.player == "white"}
    return black, white


def reachable(side: int, seed: int, plies: int) -> BugPosition:
    rng = random.Random(seed)
    position = new_game("bug", side).start()
    for _ in range(plies):
        moves = position.legal_moves()
        if not moves:
            break
        position.push(rng.choice(moves))
    assert isinstance(position, BugPosition)
    return position


def scattered(side: int, seed: int, density: float) -> BugPosition:
    """Any stones at all, so bugs of every size and already-hungry bugs turn up."""
    rng = random.Random(seed)
    board = Board(side)
    letters = {cell: rng.choice("bw") for cell in board.cells if rng.random() < density}
    rows = []
    for r in range(-(side - 1), side):
        row = sorted(cell for cell in board.cells if cell[1] == r)
        text, empty = "", 0
        for cell in row:
            if cell not in letters:
                empty += 1
                continue
            text += (str(empty) if empty else "") + letters[cell]
            empty = 0
        rows.append(text + (str(empty) if empty else ""))
    position = parse_position(f"bug {side} {'/'.join(rows)} {rng.choice('bw')}")
    assert isinstance(position, BugPosition)
    return position


def own_and_enemy(board: Board, position: BugPosition) -> tuple[set[Cell], set[Cell]]:
    black, white = stones_of(board, position)
    return (black, white) if position.turn == 0 else (white, black)


def check_against_reference(position: BugPosition) -> None:
    board = Board(position.game.size)
    own, enemy = own_and_enemy(board, position)
    fast = [tuple(move.to_text().split(",")) for move in position.legal_moves()]
    assert len(fast) == len(set(fast)), "a turn is listed twice"
    assert set(fast) == slow_turns(board, own, enemy), position.to_text()


def check_turn(position: BugPosition, text: str) -> None:
    """One turn: no merge, cap on growth only, meals of the eater's shape touching it."""
    board = Board(position.game.size)
    own, enemy = own_and_enemy(board, position)
    enemy_bugs_before = len(bugs(board, enemy))
    largest = max((len(bug) for bug in bugs(board, own) + bugs(board, enemy)), default=0)
    cells = text.split(",")
    assert len(cells) <= 1 + enemy_bugs_before, "each cycle eats at least one enemy bug"
    effects = position.effects_of(position.parse_move(text))
    for effect in effects:
        if isinstance(effect, Placed):
            cell = board.cell_of[effect.cell]
            assert cell not in own and cell not in enemy
            touching = [bug for bug in bugs(board, own) if board.neighbours(cell) & bug]
            assert len(touching) <= 1, "a placement merged two bugs"
            if effect.reason == "growth" and touching:
                assert len(touching[0]) + 1 <= largest, "the growth broke the size cap"
            if effect.reason == "bonus":
                assert len(touching) == 1
            own.add(cell)
        else:
            assert isinstance(effect, Eaten)
            eater = {board.cell_of[name] for name in effect.eater}
            assert eater in bugs(board, own)
            for eaten in effect.eaten:
                meal = {board.cell_of[name] for name in eaten}
                assert meal in bugs(board, enemy)
                assert same_shape(eater, meal) and adjacent(board, eater, meal)
                enemy -= meal
    after = position.copy()
    after.push(after.parse_move(text))
    mover_after, enemy_after = own_and_enemy(board, after)
    assert (enemy_after, mover_after) == (own, enemy)


def check_push_pop(position: BugPosition) -> None:
    text, key = position.to_text(), position.key()
    assert parse_position(text).key() == key
    for move in position.legal_moves():
        position.push(move)
        assert parse_position(position.to_text()).key() == position.key()
        assert position.pop() == move
        assert position.to_text() == text and position.key() == key


def check_turn_options(position: BugPosition) -> None:
    """Clicking along turn_options finds exactly the legal turns; explain_step agrees."""
    names = list(Board(position.game.size).name.values())
    found: set[str] = set()

    def walk(steps: list[str]) -> None:
        options = position.turn_options(steps)
        if options.complete:
            found.add(",".join(steps))
        for name in names:
            reason = position.explain_step(steps, name)
            assert (reason == "") == (name in options.next_cells), (steps, name, reason)
        for name in options.next_cells:
            walk([*steps, name])

    walk([])
    assert found == {move.to_text() for move in position.legal_moves()}


# -- the properties -------------------------------------------------------------------
SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(st.sampled_from([3, 3, 4]), st.integers(0, 10**9), st.integers(0, 40))
def test_reachable_positions_match_the_reference(side: int, seed: int, plies: int) -> None:
    position = reachable(side, seed, plies)
    check_against_reference(position)
    for text in sorted({move.to_text() for move in position.legal_moves()})[:6]:
        check_turn(position, text)
    outcome = position.outcome()
    assert (outcome is None) == bool(position.legal_moves())
    if outcome is not None:
        assert outcome.winner == position.turn_name  # BUG-9: the stuck mover wins


@SETTINGS
@given(st.sampled_from([3, 4]), st.integers(0, 10**9), st.floats(0.2, 0.8))
def test_any_positions_match_the_reference(side: int, seed: int, density: float) -> None:
    position = scattered(side, seed, density)
    check_against_reference(position)
    for text in sorted({move.to_text() for move in position.legal_moves()}, key=len)[-6:]:
        check_turn(position, text)


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10**9), st.integers(0, 30), st.booleans())
def test_push_pop_and_turn_options(seed: int, plies: int, scatter: bool) -> None:
    position = scattered(3, seed, 0.5) if scatter else reachable(3, seed, plies)
    check_push_pop(position)
    check_turn_options(position)


def test_many_cycles_match_the_reference() -> None:
    # Positions with eating chains are rare in random play; look for some on purpose.
    rng = random.Random(7)
    chains = 0
    for _ in range(300):
        position = scattered(3, rng.randrange(10**9), rng.uniform(0.3, 0.7))
        if any(move.to_text().count(",") > 1 for move in position.legal_moves()):
            chains += 1
            check_against_reference(position)
    assert chains >= 5


def test_shape_keys_match_the_reference_shapes() -> None:
    rng = random.Random(3)
    position = new_game("bug", 4).start()
    assert isinstance(position, BugPosition)
    geo = position.geo
    board = Board(4)
    found = [bug for _ in range(40) for bug in scattered(4, rng.randrange(10**9), 0.6).bugs(0)]
    for a in found[:120]:
        for b in found[:120]:
            if a.bit_count() != b.bit_count():
                continue
            cells_a = {board.cell_of[geo.names[i]] for i in range(a.bit_length()) if a >> i & 1}
            cells_b = {board.cell_of[geo.names[i]] for i in range(b.bit_length()) if b >> i & 1}
            assert (geo.shape(a) == geo.shape(b)) == same_shape(cells_a, cells_b)
