"""Bug knowledge: the player who cannot grow wins, and eating is the big swing.

Uses the Bug position's public bitboard API (`stones`, `geo.bugs`, `geo.spread`,
`geo.meal`, `BugMove.cells`). A turn with more than one cell is a turn that ate.

* Playouts draw each turn directly (engine/games/bug_playout.py) rather than from the
  list of every turn, which cost most of a playout. They prefer eating turns (they take
  stones off the board for the opponent to regrow and add bonus stones for the mover),
  and spare the opponent an immediate win: a turn after which the opponent cannot grow
  is played only when every turn does that. With RAVE on the growth cell (`amaf_key`),
  Master went from 10-10 to 9-1 against plain UCT on side 4 (engine/ai/STRENGTH.md).
* Move ordering puts eating turns first and turns that leave one of the mover's bugs next
  to a same-shaped enemy bug (edible at the opponent's next turn) last.
* The evaluation compares growth cells. Intuition says fewer cells is closer to the win,
  but measured the other way round: MCTS on that evaluation lost 1-7 to plain UCT on
  side 3 (0.3 s/move), with the sign flipped it drew 4-4. Keeping options (tempo moves)
  matters more, so more growth cells than the opponent counts as good. The levels play
  Bug playouts to the end, so it is used where a playout hits its cap and, for Master,
  in MCTS's implicit minimax backups: the tree's new nodes valued by it and backed up by
  minimax beside the playouts' averages, which on side 4 beat the same search without
  them 84-36 at 1 s a move (levels.MCTS_IMPLICIT_MINIMAX).
* The endgame prover (engine/ai/bug_prover.py) joins at 20 or fewer empty cells
  (`endgame_near`; side 3's Intermediate and Strong narrow that, and a prover with a core
  of its own widens it, see levels.py). On side 4 its df-pn search with weak proof
  numbers proved, in 5 s each, 22-24 of 40 positions with 18 empty cells (from games
  of the playout policy) and 11 of 30 with 20 (from match games); alpha-beta before it
  proved results at 16-17 in a few seconds and none at 18 and more in 10 s.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence

from engine.ai.policies import GamePolicy
from engine.core import Game, Move, Position
from engine.games.bug import BugMove, BugPosition
from engine.games.bug_playout import PlayoutSettings, play_out, random_turn
from engine.games.bug_playout import growth_cells as count_growth_cells

EAT_PREFERENCE = 0.9
MOBILITY_SCALE = -0.25  # negative: see the module notes
# Empty cells at which the endgame prover starts to settle positions in a move's time.
ENDGAME_EMPTY_CELLS = 20


def growth_cells(position: BugPosition, colour: int) -> int:
    """How many cells `colour` could grow on now (BUG-10), eating ignored."""
    stones = position.stones
    return count_growth_cells(position.geo, stones[colour], stones[colour ^ 1]).bit_count()


def leaves_edible(position: BugPosition, move: BugMove) -> bool:
    """After `move`, does a bug of the mover touch a same-shaped enemy bug?"""
    colour = position.turn
    position.push(move)
    try:
        geo = position.geo
        enemy_bugs = geo.bugs(position.stones[colour ^ 1])
        return any(geo.meal(bug, enemy_bugs) for bug in geo.bugs(position.stones[colour]))
    finally:
        position.pop()


def mobility_value(mine: int, theirs: int) -> float:
    """The evaluation from the growth-cell counts of the side to move and its opponent."""
    return 1.0 / (1.0 + math.exp(-MOBILITY_SCALE * (theirs - mine)))


class BugPolicy(GamePolicy):
    name = "bug-eat"
    has_evaluator = True
    spare_the_win = True

    def evaluate(self, position: Position) -> float:
        assert isinstance(position, BugPosition)
        return mobility_value(
            growth_cells(position, position.turn), growth_cells(position, position.turn ^ 1)
        )

    def order_moves(self, position: Position, moves: Sequence[Move]) -> list[Move]:
        assert isinstance(position, BugPosition)
        eats: list[Move] = []
        quiet: list[Move] = []
        risky: list[Move] = []
        for move in moves:
            assert isinstance(move, BugMove)
            if len(move.cells) > 1:
                eats.append(move)
            elif leaves_edible(position, move):
                risky.append(move)
            else:
                quiet.append(move)
        return eats + quiet + risky

    def distinct_moves(self, position: Position, moves: Sequence[Move]) -> list[Move]:
        # Eating orders that meet on one board are one choice (Bug has no repetition rule,
        # B15, so only the board matters). On side 4 an eighth of the turns share their
        # board with another, most of them in the sharp, eating positions.
        assert isinstance(position, BugPosition)
        first: dict[tuple[int, int], Move] = {}
        for turn, own, enemy in position.turns():  # the turns `moves` came from, kept
            first.setdefault((own, enemy), turn)
        kept = set(first.values())
        return [move for move in moves if move in kept]

    def endgame_near(self, position: Position, reach: int | None = None) -> bool:
        assert isinstance(position, BugPosition)
        stones = position.stones
        empty = position.geo.board_mask & ~(stones[0] | stones[1])
        return empty.bit_count() <= (ENDGAME_EMPTY_CELLS if reach is None else reach)

    def amaf_key(self, move: Move) -> object:
        # The growth cell: later turns rarely repeat a whole eating sequence.
        return move.cells[0]  # type: ignore[attr-defined]

    def playout_turn(self, position: Position, rng: random.Random) -> Move | None:
        assert isinstance(position, BugPosition)
        return random_turn(position, rng, EAT_PREFERENCE, self.spare_the_win)

    def playout(
        self,
        position: Position,
        rng: random.Random,
        cap: int,
        stop: Callable[[], bool],
        trail: list[object] | None,
    ) -> float | None:
        assert isinstance(position, BugPosition)
        settings = PlayoutSettings(EAT_PREFERENCE, self.spare_the_win, cap, mobility_value)
        return play_out(position, rng, settings, stop, trail)


def make_policy(game: Game) -> GamePolicy:
    return BugPolicy()
