"""Random Bug turns without listing every turn, for the searchers' playouts.

`legal_moves()` spells out every eating order and bonus cell of every growth (BUG-14),
which is most of the cost of a playout although a playout wants just one turn. Here the
growth cell is drawn first, then the cycles are played out one random choice at a time, on
the same rules as the generator (BUG-10 to BUG-15). Every turn returned is one of
`legal_moves()`; the tests check that on random positions. `play_out` plays such turns to
the end of the game on bitboards alone, without pushing them onto a position.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import TYPE_CHECKING, NamedTuple

from engine.bitboard import bits, nth_bit
from engine.games.bug_geometry import BugGeometry, BugMove

if TYPE_CHECKING:
    from engine.games.bug import BugPosition


def growth_cells(geo: BugGeometry, own: int, enemy: int) -> int:
    """BUG-10: the cells where the owner of `own` may grow, eating left aside.

    Remembered per board: a search asks for the same board's cells again and again (the
    end-of-game test, then the evaluation of both sides, then again at the next depth),
    and finding the bugs is most of the cost. Playouts go through `_Board` instead."""
    cells = geo.growth_memo.get((own, enemy))
    if cells is None:
        cells = _growth_cells(geo, geo.bugs(own), geo.bugs(enemy), own | enemy)
        remember_growth_cells(geo, own, enemy, cells)
    return cells


GROWTH_MEMO_LIMIT = 200_000


def remember_growth_cells(geo: BugGeometry, own: int, enemy: int, cells: int) -> None:
    """Put `cells` in the memo of `growth_cells` (also for callers that worked them out
    another way), which starts afresh when full."""
    memo = geo.growth_memo
    if len(memo) >= GROWTH_MEMO_LIMIT:
        memo.clear()
    memo[(own, enemy)] = cells


def _growth_cells(geo: BugGeometry, bugs: list[int], other_bugs: list[int], taken: int) -> int:
    spread = geo.spread
    empty = geo.board_mask & ~taken
    largest = max(map(int.bit_count, bugs + other_bugs), default=0)
    once = twice = 0
    halos = []
    for bug in bugs:
        halo = spread(bug)
        halos.append(halo)
        twice |= once & halo
        once |= halo
    cells = empty & ~once
    for bug, halo in zip(bugs, halos, strict=True):
        if bug.bit_count() < largest:
            cells |= halo & empty & ~twice
    return cells


def _lowest(cells: int) -> int:
    return cells & -cells


class _Board:
    """The mover's bugs with their prey, and the enemy bugs, kept up to date through a
    turn: a growth or bonus stone changes one bug of the mover, a meal removes whole enemy
    bugs, so nothing is flood-filled twice."""

    __slots__ = ("geo", "own", "enemy", "own_bugs", "meals", "enemy_bugs")

    def __init__(self, geo: BugGeometry, own: int, enemy: int) -> None:
        self.geo = geo
        self.own = own
        self.enemy = enemy
        self.enemy_bugs = geo.bugs(enemy)
        self.own_bugs = geo.bugs(own)
        self.meals = [geo.meal(bug, self.enemy_bugs) for bug in self.own_bugs]

    def copy(self) -> _Board:
        other = _Board.__new__(_Board)
        other.geo = self.geo
        other.own = self.own
        other.enemy = self.enemy
        other.enemy_bugs = list(self.enemy_bugs)
        other.own_bugs = list(self.own_bugs)
        other.meals = list(self.meals)
        return other

    def swapped(self) -> _Board:
        """The same board seen by the opponent, whose turn is next (this one is spent)."""
        other = _Board.__new__(_Board)
        other.geo = self.geo
        other.own, other.enemy = self.enemy, self.own
        # In the order `geo.bugs` finds them (by lowest cell), as a fresh board would have
        # them: the random choice among hungry bugs goes by index.
        other.own_bugs = sorted(self.enemy_bugs, key=_lowest)
        other.enemy_bugs = self.own_bugs
        # Prey is mutual (same shape, adjacent), and this side's meals are kept exact.
        if any(self.meals):
            other.meals = [
                sum(bug for bug, meal in zip(self.own_bugs, self.meals, strict=True)
                    if meal & prey)
                for prey in other.own_bugs
            ]
        else:
            other.meals = [0] * len(other.own_bugs)
        return other

    def growth_cells(self) -> int:
        """BUG-10: the cells the mover may grow on (none means the mover has won, BUG-9)."""
        return _growth_cells(self.geo, self.own_bugs, self.enemy_bugs, self.own | self.enemy)

    def enemy_growth_cells(self) -> int:
        """The same for the opponent, as the board stands."""
        return _growth_cells(self.geo, self.enemy_bugs, self.own_bugs, self.own | self.enemy)

    def place(self, cell: int) -> int:
        """Put a mover's stone on `cell`, which touches at most one of the mover's bugs
        (BUG-10, BUG-12); returns the number of the bug it joined or started."""
        geo = self.geo
        bit = 1 << cell
        near = geo.neighbours[cell]
        self.own |= bit
        for number, bug in enumerate(self.own_bugs):
            if bug & near:
                grown = bug | bit
                self.own_bugs[number] = grown
                self.meals[number] = geo.meal(grown, self.enemy_bugs)
                return number
        self.own_bugs.append(bit)
        self.meals.append(geo.meal(bit, self.enemy_bugs))
        return len(self.own_bugs) - 1

    def unplace(self, cell: int, number: int) -> None:
        bit = 1 << cell
        self.own ^= bit
        bug = self.own_bugs[number] ^ bit
        if bug:
            self.own_bugs[number] = bug
            self.meals[number] = self.geo.meal(bug, self.enemy_bugs)
        else:
            del self.own_bugs[number]
            del self.meals[number]

    def hungry(self) -> list[tuple[int, int]]:
        """BUG-13: (bug number, bonus cells) for every hungry bug of the mover."""
        spread = self.geo.spread
        empty = self.geo.board_mask & ~(self.own | self.enemy)
        out = []
        for number, meal in enumerate(self.meals):
            if meal:
                bug = self.own_bugs[number]
                bonus = spread(bug) & (empty | meal) & ~spread(self.own ^ bug)
                if bonus:
                    out.append((number, bonus))
        return out

    def eat(self, number: int) -> None:
        """BUG-14.2: bug `number` eats all its prey."""
        meal = self.meals[number]
        self.enemy ^= meal
        self.enemy_bugs = [bug for bug in self.enemy_bugs if not bug & meal]
        self.meals = [other & ~meal for other in self.meals]

    def could_eat(self, cells: int) -> list[int]:
        """Growth cells worth testing for a meal: next to an enemy bug of the size the
        grown bug would have, or every cell when some bug has prey already."""
        if any(self.meals):
            return bits(cells)
        spread = self.geo.spread
        by_size: dict[int, int] = {}
        for bug in self.enemy_bugs:
            size = bug.bit_count()
            by_size[size] = by_size.get(size, 0) | bug
        candidates = 0
        singles = by_size.get(1, 0)
        if singles:
            candidates |= spread(singles) & cells & ~spread(self.own)
        for bug in self.own_bugs:
            prey = by_size.get(bug.bit_count() + 1, 0)
            if prey:
                candidates |= spread(bug) & cells & spread(prey)
        return bits(candidates)


def random_turn(
    position: BugPosition,
    rng: random.Random,
    eat_preference: float = 0.0,
    spare_the_win: bool = False,
) -> BugMove | None:
    """A random legal turn, or None when the mover cannot grow (and so has won).

    With probability `eat_preference` the growth is drawn from those that make a bug
    hungry, if there are any; otherwise from all growth cells. Eaters and bonus cells are
    drawn uniformly, cycle by cycle. With `spare_the_win`, a turn after which the
    opponent could not grow (and so would win, BUG-9) is redrawn from the other growth
    cells while there are any.
    """
    geo = position.geo
    colour = position.turn
    start = _Board(geo, position.stones[colour], position.stones[colour ^ 1])
    cells = start.growth_cells()
    if not cells:
        return None
    turn, _board, _after, spared = _choose_turn(
        start, cells, rng, eat_preference, spare_the_win
    )
    if not spared:
        # One draw per growth cell missed: try every turn (rare, near the end only).
        return _sparing_turn(position, rng) or geo.move(tuple(turn))
    return geo.move(tuple(turn))


def play_out(
    position: BugPosition,
    rng: random.Random,
    settings: PlayoutSettings,
    stop: Callable[[], bool],
    trail: list[object] | None = None,
) -> float:
    """A whole playout of `random_turn` turns from `position`, which it leaves untouched;
    the value for its side to move.

    The same turns as pushing `random_turn` turn by turn, at a fraction of the cost: the
    bugs of both sides are carried from turn to turn instead of being found again, and
    the opponent's growth cells worked out for `spare_the_win` serve for its turn.
    1.0 or 0.0 at the end of the game; at `settings.cap` plies, or when `stop()` says so
    (asked every 16 plies), `settings.evaluate(mine, theirs)` of the growth-cell counts
    there. The growth cell of every turn is appended to `trail` (RAVE keys)."""
    geo = position.geo
    mover = position.turn
    board = _Board(geo, position.stones[mover], position.stones[mover ^ 1])
    cells = board.growth_cells()
    plies = 0
    while cells:
        if plies >= settings.cap or (plies & 15 == 15 and stop()):
            theirs = board.enemy_growth_cells().bit_count()
            value = settings.evaluate(cells.bit_count(), theirs)
            return value if plies % 2 == 0 else 1.0 - value
        turn, after, after_cells, spared = _choose_turn(
            board, cells, rng, settings.eat_preference, settings.spare_the_win
        )
        if not spared:
            spare = _sparing_turn(_position_of(position, board, mover), rng)
            if spare is not None:
                turn = list(spare.cells)
                after = board.copy()
                _replay(after, turn)
                after_cells = -1
        if trail is not None:
            trail.append(turn[0])
        plies += 1
        mover ^= 1
        board = after.swapped()
        cells = after_cells if after_cells >= 0 else board.growth_cells()
    # BUG-9: the side to move now cannot grow, and wins.
    return 1.0 if plies % 2 == 0 else 0.0


class PlayoutSettings(NamedTuple):
    """How `play_out` draws its turns, where it stops, and how it values a cut-off."""

    eat_preference: float
    spare_the_win: bool
    cap: int
    evaluate: Callable[[int, int], float]  # (mover's growth cells, opponent's) -> value


def _choose_turn(
    start: _Board, cells: int, rng: random.Random, eat_preference: float, spare_the_win: bool
) -> tuple[list[int], _Board, int, bool]:
    """A random turn for the mover of `start` among the growth `cells` (not empty).

    Returns its cells, the board after it, the opponent's growth cells there (-1 when not
    worked out) and whether it spares the opponent's win (False only when every growth
    cell's draw handed the opponent the win; the last draw is returned then)."""
    prefer_eating = bool(eat_preference) and rng.random() < eat_preference
    if not spare_the_win:
        board = start.copy()
        return _draw_turn(board, cells, rng, prefer_eating), board, -1, True
    theirs = start.enemy_growth_cells()
    # A growth that eats nothing only takes its own cell from the opponent's growth cells:
    # it cannot raise the size cap (BUG-10), except the very first stone of the game.
    quiet_known = bool(start.own | start.enemy)
    while True:
        board = start.copy()
        turn = _draw_turn(board, cells, rng, prefer_eating)
        if len(turn) == 1 and quiet_known:
            after = theirs & ~(1 << turn[0])
        else:
            after = board.enemy_growth_cells()
        if after:
            return turn, board, after, True
        cells &= ~(1 << turn[0])
        if not cells:
            return turn, board, 0, False


def _position_of(like: BugPosition, board: _Board, mover: int) -> BugPosition:
    """A position of `like`'s game with `board`'s stones and `mover` to move."""
    stones = [0, 0]
    stones[mover], stones[mover ^ 1] = board.own, board.enemy
    return type(like)(like.game, stones[0], stones[1], mover)


def _replay(board: _Board, turn: list[int]) -> None:
    """Plays a listed turn on `board`: the growth, then each bonus stone after the meal of
    the one hungry bug it touches (BUG-12: a bonus cell is next to its eater only)."""
    board.place(turn[0])
    for cell in turn[1:]:
        near = board.geo.neighbours[cell]
        number = next(n for n, bug in enumerate(board.own_bugs) if bug & near)
        board.eat(number)
        board.place(cell)


def _sparing_turn(position: BugPosition, rng: random.Random) -> BugMove | None:
    """A random turn after which the opponent can still grow, if there is one."""
    moves = position.legal_moves()
    rng.shuffle(moves)
    geo = position.geo
    colour = position.turn
    for move in moves:
        position.push(move)
        stones = position.stones
        spared = growth_cells(geo, stones[colour ^ 1], stones[colour]) != 0
        position.pop()
        if spared:
            return move  # type: ignore[return-value]
    return None


def _draw_turn(board: _Board, cells: int, rng: random.Random, prefer_eating: bool) -> list[int]:
    """Plays a random turn on `board` and returns its cells, growth first."""
    first = -1
    if prefer_eating:
        candidates = board.could_eat(cells)
        rng.shuffle(candidates)
        for cell in candidates:
            number = board.place(cell)
            if board.hungry():
                first = cell
                break
            board.unplace(cell, number)
    if first < 0:
        first = nth_bit(cells, rng.randrange(cells.bit_count()))
        board.place(first)
    turn = [first]
    while hungry := board.hungry():
        number, bonus = hungry[rng.randrange(len(hungry))]
        board.eat(number)
        cell = nth_bit(bonus, rng.randrange(bonus.bit_count()))
        turn.append(cell)
        board.place(cell)
    return turn
