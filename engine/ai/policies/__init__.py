"""Game knowledge for the searchers, one small module per game.

A policy knows three things about its game: how good a position is for the side to move
(`evaluate`), which moves look best (`order_moves`, for expansion order and alpha-beta)
and which move to play in a playout (`playout_move`, `playout_turn`). For MCTS's tree it
also says which moves lead to the same position (`distinct_moves`), and for RAVE which
moves count as the same when played later (`amaf_key`). The base class knows nothing, so a game
without a policy module still gets a working (uniform) searcher.
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable, Sequence

from engine.core import Game, Move, Position


class GamePolicy:
    """Uniform knowledge: every position even, every move alike."""

    name = "uniform"
    # True when `evaluate` knows more than 0.5, so truncated playouts make sense.
    has_evaluator = False

    def evaluate(self, position: Position) -> float:
        """Win probability for the side to move (the position is not over)."""
        return 0.5

    def order_moves(self, position: Position, moves: Sequence[Move]) -> list[Move]:
        """The moves, most promising first."""
        return list(moves)

    def distinct_moves(self, position: Position, moves: Sequence[Move]) -> list[Move]:
        """`moves` without those that lead where an earlier one does, for a tree search
        (a game whose rules look at the history must keep them all)."""
        return list(moves)

    def playout_move(
        self, position: Position, moves: Sequence[Move], rng: random.Random
    ) -> Move:
        return moves[rng.randrange(len(moves))]

    def endgame_near(self, position: Position, reach: int | None = None) -> bool:
        """Whether the endgame prover may settle this position in a move's time
        (engine/ai/endgame.py); False where the game's searcher needs no prover.

        `reach` moves "near" for a level, in the game's own measure of how far
        the end is (Bug: empty cells); None is the policy's own threshold."""
        return False

    def amaf_key(self, move: Move) -> object:
        """What RAVE counts as "the same move" played later in a playout."""
        return move

    def playout_turn(self, position: Position, rng: random.Random) -> Move | None:
        """The playout's next move, or None when the side to move has none (game over).

        A game may draw one move without listing them all, where that is much cheaper."""
        moves = position.legal_moves()
        return self.playout_move(position, moves, rng) if moves else None

    def playout(
        self,
        position: Position,
        rng: random.Random,
        cap: int,
        stop: Callable[[], bool],
        trail: list[object] | None,
    ) -> float | None:
        """A whole playout from `position` (left as it was): the value for its side to
        move, or None where the game has no faster way than `playout_turn` turn by turn.

        Ends the game or stops at `cap` plies or when `stop()` is true and evaluates;
        appends the `amaf_key` of every move to `trail` when given."""
        return None


UNIFORM = GamePolicy()
_CACHE: dict[tuple[object, ...], GamePolicy] = {}


def policy_for(game: Game) -> GamePolicy:
    """The game's policy (module `engine.ai.policies.<name>`, function `make_policy`)."""
    ident = game.identity()
    policy = _CACHE.get(ident)
    if policy is None:
        module_name = f"engine.ai.policies.{game.name}"
        try:
            module = importlib.import_module(module_name)
        except ModuleNotFoundError as error:
            if error.name != module_name:
                raise
            policy = UNIFORM
        else:
            policy = module.make_policy(game)
        _CACHE[ident] = policy
    return policy
