"""Every Bug turn of a board, with the board each one leaves (BUG-10 to BUG-16).

A turn is the growth cell, then one bonus cell per eating cycle. Most growths feed no bug,
so this first settles that cheaply: prey (BUG-11) depends only on the mover's bug and the
enemy bugs, so it is found once per board for the bugs that already exist, and the growth
can only take bonus cells away from them (BUG-12); only the grown bug needs a fresh look.
When some bug is hungry, the cycles of BUG-14 are explored in full by `_cycles`.

The boards after each turn come free with the search for the turns, and the endgame
prover (engine/ai/bug_prover.py) needs them without pushing every turn on a position;
different eating orders often leave the same board.
"""

from __future__ import annotations

from engine.bitboard import bits
from engine.games.bug_geometry import BugGeometry, BugMove

# (the turn, the mover's stones after it, the opponent's stones after it)
Turn = tuple[BugMove, int, int]


def list_turns(geo: BugGeometry, own: int, enemy: int) -> list[Turn]:
    """Every distinct turn of the mover owning `own` (cells sequences, not boards: two
    turns may leave the same board)."""
    return _turns(geo, own, enemy, None)  # type: ignore[return-value]


def list_boards(geo: BugGeometry, own: int, enemy: int) -> set[tuple[int, int]]:
    """The distinct boards (the mover's stones, the opponent's) the mover's turns leave.

    Eating orders that meet on the same board mid-turn go on the same way from there, so
    each board of a turn in progress is followed once: a chain of meals has many orders."""
    return {(after, enemy_after) for _, after, enemy_after in _turns(geo, own, enemy, set())}


def _turns(
    geo: BugGeometry, own: int, enemy: int, seen: set[tuple[int, int]] | None
) -> list[tuple[BugMove | None, int, int]]:
    """`list_turns`, or with `seen` (boards of turns in progress met so far) the boards
    without the moves."""
    spread = geo.spread
    empty = geo.board_mask & ~(own | enemy)
    own_bugs = geo.bugs(own)
    enemy_bugs = geo.bugs(enemy)
    largest = max(map(int.bit_count, own_bugs + enemy_bugs), default=0)
    enemy_sizes = set(map(int.bit_count, enemy_bugs))
    # Empty cells next to each bug, and those next to two or more (merging, BUG-10).
    halos = [spread(bug) for bug in own_bugs]
    once = twice = 0
    for halo in halos:
        twice |= once & halo
        once |= halo
    # Bugs that have prey now keep it whatever the growth; only their bonus cells can
    # change, and only by losing the growth cell and its neighbours.
    meals = [geo.meal(bug, enemy_bugs) for bug in own_bugs]
    fed: list[tuple[int, int]] = []
    for number, meal in enumerate(meals):
        if meal:
            bonus = halos[number] & (empty | meal) & ~spread(own ^ own_bugs[number])
            if bonus:
                fed.append((number, bonus))
    neighbours = geo.neighbours
    single = geo.single_moves
    turns: list[tuple[BugMove | None, int, int]] = []
    growths: list[tuple[int, int]] = []  # (number of the grown bug or -1, cells)
    for number, bug in enumerate(own_bugs):
        if bug.bit_count() < largest:
            cells = halos[number] & empty & ~twice
            if cells:
                growths.append((number, cells))
    if empty & ~once:
        growths.append((-1, empty & ~once))
    for number, cells in growths:
        bug = own_bugs[number] if number >= 0 else 0
        around_bug = halos[number] if number >= 0 else 0
        around_others = spread(own ^ bug)
        for cell in bits(cells):
            bit = 1 << cell
            near = neighbours[cell]
            hungry = False
            for other, bonus in fed:
                if other != number and bonus & ~(near | bit):
                    hungry = True
                    break
            grown = bug | bit
            # The grown bug has a new shape: its prey is looked at afresh.
            meal = (
                geo.meal(grown, enemy_bugs)
                if (around_bug | near) & enemy and grown.bit_count() in enemy_sizes
                else 0
            )
            if meal and not hungry:
                hungry = bool(spread(grown) & ((empty ^ bit) | meal) & ~around_others)
            if not hungry:
                turns.append((single[cell] if seen is None else None, own | bit, enemy))
                continue
            after, after_meals = list(own_bugs), list(meals)
            if number >= 0:
                after[number] = grown
                after_meals[number] = meal
            else:
                after.append(grown)
                after_meals.append(meal)
            _cycles(geo, (cell,), after, after_meals, enemy_bugs, own | bit, enemy, turns, seen)
    return turns


def _cycles(
    geo: BugGeometry,
    done: tuple[int, ...],
    own_bugs: list[int],
    meals: list[int],
    enemy_bugs: list[int],
    own: int,
    enemy: int,
    out: list[tuple[BugMove | None, int, int]],
    seen: set[tuple[int, int]] | None,
) -> None:
    """BUG-14: every way to finish a turn whose cells so far are `done`.

    `meals[k]` is the prey of `own_bugs[k]` (BUG-11). A meal is made of whole enemy bugs,
    so after one bug eats, another bug's prey is its old prey less what was eaten; only
    the eater, which has grown, needs a fresh look.
    """
    if seen is not None:
        if (own, enemy) in seen:
            return
        seen.add((own, enemy))
    spread = geo.spread
    empty = geo.board_mask & ~(own | enemy)
    ate = False
    for number, meal in enumerate(meals):
        if not meal:
            continue
        bug = own_bugs[number]
        bonus = spread(bug) & (empty | meal) & ~spread(own ^ bug)
        if not bonus:
            continue  # BUG-13: prey but no bonus cell, so this bug does not eat
        ate = True
        left = [other for other in enemy_bugs if not other & meal]
        rest_meals = [other & ~meal for other in meals]
        rest_meals[number] = 0
        others_fed = any(rest_meals)
        # The eater grows to this size; prey must be that size too (BUG-4).
        prey_size = bug.bit_count() + 1
        can_eat_again = any(other.bit_count() == prey_size for other in left)
        for cell in bits(bonus):
            bit = 1 << cell
            grown = bug | bit
            grown_meal = geo.meal(grown, left) if can_eat_again else 0
            if not grown_meal and not others_fed:
                # Nobody has prey any more: the turn ends here (BUG-15).
                move = geo.move(done + (cell,)) if seen is None else None
                out.append((move, own | bit, enemy ^ meal))
                continue
            after = list(own_bugs)
            after[number] = grown
            after_meals = list(rest_meals)
            after_meals[number] = grown_meal
            _cycles(
                geo, done + (cell,), after, after_meals, left, own | bit, enemy ^ meal, out, seen
            )
    if not ate:
        out.append((geo.move(done) if seen is None else None, own, enemy))
