"""A Bug turn step by step, for the GUI and for messages: the engine's rules, replayed.

The GUI builds a turn click by click. It asks `turn_options` what may follow the clicks so
far (filtered from the legal moves, so it never judges a rule itself) and `explain_step`
why a cell may not. `TurnState` replays a turn on a scratch board; it serves those
explanations and the effects of a move, which the animator plays in order.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from engine.effects import Eaten, Effect, Placed
from engine.games.bug_geometry import BugMove

if TYPE_CHECKING:
    from engine.games.bug import BugPosition


@dataclass(frozen=True)
class BugTurnOptions:
    """What may follow some clicked cells.

    `next_cells`: cells that continue some legal turn; `complete`: the clicked cells already
    form a legal turn (the turn ends there); `moves`: the legal turns that start with them.
    """

    next_cells: tuple[str, ...]
    complete: bool
    moves: tuple[BugMove, ...]


class TurnState:
    """The board during one turn of the player to move, after the cells placed so far."""

    def __init__(self, position: BugPosition) -> None:
        self.geo = geo = position.geo
        self.player = position.turn_name
        colour = position.turn
        self.own = position.stones[colour]
        self.enemy = position.stones[colour ^ 1]
        self.placed = 0
        # BUG-6: L is measured before the growth, the only placement it limits.
        self.largest = max(
            map(int.bit_count, geo.bugs(self.own) + geo.bugs(self.enemy)), default=0
        )

    @property
    def empty(self) -> int:
        return self.geo.board_mask & ~(self.own | self.enemy)

    def own_bugs_next_to(self, cell: int) -> list[int]:
        geo = self.geo
        return [bug for bug in geo.bugs(self.own) if bug & geo.neighbours[cell]]

    def bonus_cells(self, bug: int, meal: int) -> int:
        """BUG-12: empty cells next to `bug`, after the meal, next to no other own bug."""
        spread = self.geo.spread
        return spread(bug) & (self.empty | meal) & ~spread(self.own ^ bug)

    def prey(self) -> list[tuple[int, int, int]]:
        """(bug, meal, bonus cells) for each bug of the mover that has prey (BUG-11)."""
        geo = self.geo
        enemy_bugs = geo.bugs(self.enemy)
        out = []
        for bug in geo.bugs(self.own):
            meal = geo.meal(bug, enemy_bugs)
            if meal:
                out.append((bug, meal, self.bonus_cells(bug, meal)))
        return out

    def hungry(self) -> list[tuple[int, int, int]]:
        """BUG-13: the bugs with prey and at least one bonus cell."""
        return [entry for entry in self.prey() if entry[2]]

    def complete(self) -> bool:
        """The turn may end here: the growth is made and no bug is hungry (BUG-15)."""
        return self.placed > 0 and not self.hungry()

    def problem(self, cell: int) -> str:
        """Why `cell` cannot be the next cell of the turn, or "" when it can."""
        if self.placed == 0:
            return self._growth_problem(cell)
        return self._bonus_problem(cell)

    def _growth_problem(self, cell: int) -> str:
        if (self.own | self.enemy) >> cell & 1:
            return "that cell is not empty"
        touching = self.own_bugs_next_to(cell)
        if len(touching) >= 2:
            return "would merge two of your bugs"
        if touching:
            size = touching[0].bit_count() + 1
            if size > self.largest:
                return (
                    f"would make a bug of {size}, bigger than the largest bug on the board "
                    f"({self.largest})"
                )
        return ""

    def _bonus_problem(self, cell: int) -> str:
        prey = self.prey()
        hungry = [entry for entry in prey if entry[2]]
        if not hungry:
            reason = "the turn is complete: none of your bugs can eat"
            blocked = [bug for bug, _, _ in prey if bug & self.geo.neighbours[cell]]
            if blocked:
                reason += f"; {_no_bonus(self, blocked[0])}"
            return reason
        bit = 1 << cell
        if any(bonus & bit for _, _, bonus in hungry):
            return ""
        eaten_anyway = 0
        for _, meal, _ in hungry:
            eaten_anyway |= meal
        if self.own & bit or self.enemy & bit & ~eaten_anyway:
            return "that cell is not empty"
        touching = self.own_bugs_next_to(cell)
        if len(touching) >= 2:
            return "would merge two of your bugs"
        if not touching:
            return "not next to a hungry bug: a bonus stone grows the bug that eats"
        bug = touching[0]
        for eater, _, bonus in prey:
            if eater == bug and not bonus:
                return _no_bonus(self, bug)
            if eater == bug:
                # Only an enemy stone that this bug does not eat can stand in the way.
                return "that cell is not empty"
        return (
            "that bug cannot grow there: no enemy bug of its shape touches it, so it is "
            "not a hungry bug"
        )

    def play(self, cell: int) -> tuple[int, int]:
        """Place the next cell (assumed legal); for a bonus cell return (eater, meal)."""
        bit = 1 << cell
        self.placed += 1
        if self.placed == 1:
            self.own |= bit
            return 0, 0
        geo = self.geo
        touching = self.own & geo.neighbours[cell]
        eater = geo.bug_at((touching & -touching).bit_length() - 1, self.own)
        meal = geo.meal(eater, geo.bugs(self.enemy))
        self.enemy &= ~meal
        self.own |= bit
        return eater, meal


def _no_bonus(state: TurnState, bug: int) -> str:
    first = state.geo.names_of(bug)[0]
    return (
        f"no bonus cell: your bug at {first} has prey, but every empty cell next to it "
        "touches another of your bugs, so it does not eat"
    )


def _cells(position: BugPosition, steps: Sequence[str]) -> tuple[int, ...]:
    return tuple(position.geo.cell(name) for name in steps)


def turn_options(position: BugPosition, steps: Sequence[str]) -> BugTurnOptions:
    """The legal turns that start with `steps`, and what may follow them."""
    cells = _cells(position, steps)
    count = len(cells)
    moves = tuple(
        move
        for move in position.legal_moves()
        if isinstance(move, BugMove) and move.cells[:count] == cells
    )
    following = {move.cells[count] for move in moves if len(move.cells) > count}
    rank = position.geo.name_rank
    names = position.geo.names
    return BugTurnOptions(
        next_cells=tuple(names[c] for c in sorted(following, key=rank.__getitem__)),
        complete=count > 0 and any(len(move.cells) == count for move in moves),
        moves=moves,
    )


def explain_step(position: BugPosition, steps: Sequence[str], cell: str) -> str:
    """Why `cell` cannot follow `steps` in a turn, in a player's words ("" if it can)."""
    geo = position.geo
    index = geo.index_of.get(cell)
    if index is None:
        return f"{cell!r} is not a cell of the hexhex {geo.side} board"
    state = TurnState(position)
    for number, name in enumerate(steps, start=1):
        step = geo.index_of.get(name)
        if step is None:
            return f"{name!r} is not a cell of the hexhex {geo.side} board"
        problem = state.problem(step)
        if problem:
            return f"step {number} ({name}) cannot be played: {problem}"
        state.play(step)
    return state.problem(index)


def explain_move(position: BugPosition, move: BugMove) -> str:
    """Why a whole turn is not legal here: the first step that fails, or what is missing."""
    names = position.geo.names
    text = move.to_text()
    if position.outcome() is not None:
        return f"the game is over: {position.turn_name} has no legal growth cell"
    state = TurnState(position)
    for number, cell in enumerate(move.cells):
        problem = state.problem(cell)
        if problem:
            what = "growth cell" if number == 0 else "bonus cell"
            return f"{what} {names[cell]}: {problem}"
        state.play(cell)
    hungry = state.hungry()
    if hungry:
        bug = state.geo.names_of(hungry[0][0])[0]
        return (
            f"the turn is not finished: your bug at {bug} must eat and grow on a bonus cell"
        )
    return f"{text} is a legal move here"


def effects_of(state: TurnState, move: BugMove) -> list[Effect]:
    """Growth, then for each cycle the meal and the bonus stone (engine.effects)."""
    geo = state.geo
    names = geo.names
    player = state.player
    first, *bonus_cells = move.cells
    effects: list[Effect] = [Placed(names[first], player, "stone", "growth")]
    state.play(first)
    for cell in bonus_cells:
        eater, meal = state.play(cell)
        eaten = tuple(
            sorted((geo.names_of(bug) for bug in geo.bugs(meal)), key=geo.index_of_rank)
        )
        effects.append(Eaten(player, geo.names_of(eater), eaten))
        effects.append(Placed(names[cell], player, "stone", "bonus"))
    return effects
