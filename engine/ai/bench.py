"""Search speed for `make bench`: iterations (MCTS) or nodes (alpha-beta) per second, and
for an endgame prover also its reach (proofs on a fixed set of positions)."""

from __future__ import annotations

import random

from engine.ai.common import SearchLimits
from engine.ai.endgame import GAME_PROVERS, ProofSearcher, SolverFirstSearcher
from engine.ai.levels import searcher_for
from engine.ai.policies import policy_for
from engine.bench import BENCH_SIZES
from engine.core import Position
from engine.registry import game_names, new_game


def _midgame(name: str, size: int, rng: random.Random, plies: int = 6) -> Position:
    """A position a few random plies in, so the bench does not only measure openings."""
    position = new_game(name, size).start()
    for _ in range(plies):
        moves = position.legal_moves()
        if not moves:
            break
        position.push(moves[rng.randrange(len(moves))])
    return position


def run_search_bench(seconds: float = 2.0, games: list[str] | None = None) -> list[str]:
    lines = []
    for name in games or game_names():
        for size in BENCH_SIZES.get(name, ()):
            rng = random.Random(7)
            position = _midgame(name, size, rng)
            if not position.legal_moves():
                continue
            searcher = searcher_for(name)
            label = f"{position.game.title} {size}"
            if isinstance(searcher, SolverFirstSearcher):
                # The MCTS and the endgame prover each on a position of their own.
                lines.append(_line(label, searcher.mcts, position, seconds, rng))
                # A seed of its own: the MCTS above draws from `rng` as many times as its
                # iterations, so the end position changed from run to run (and on side 5
                # was sometimes not found). With seed 11 no side's is proven within 2 s.
                late = _endgame(name, size, random.Random(11))
                if late is not None:
                    lines.append(_line(f"{label} end", ProofSearcher(), late, seconds, rng))
                if (name, size) in REACH_SETS:
                    lines.append(_reach_line(f"{label} reach", name, size))
                continue
            lines.append(_line(label, searcher, position, seconds, rng))
            if name in GAME_PROVERS:
                # The game's prover alone, on a later position.
                late = _midgame(name, size, random.Random(11), plies=30)
                if late.legal_moves():
                    lines.append(_line(f"{label} end", ProofSearcher(), late, seconds, rng))
    return lines


def _line(
    label: str, searcher: object, position: Position, seconds: float, rng: random.Random
) -> str:
    result = searcher.search(  # type: ignore[attr-defined]
        position, [], SearchLimits(time=seconds), rng=rng
    )
    return (f"{label:<12} search nodes/s: {result.rate:10.0f}   "
            f"({type(searcher).__name__}, {result.nodes} in {result.elapsed:.1f} s)")


def _endgame(name: str, size: int, rng: random.Random) -> Position | None:
    """A random game's first position where the policy calls the end near and a short
    proof search settles nothing (a settled one would end the bench at once)."""
    position = new_game(name, size).start()
    policy = policy_for(position.game)
    plies = 0
    while position.legal_moves():
        # A few plies in at least: Bug 3's whole board counts as near the end.
        if plies >= 4 and policy.endgame_near(position):
            quick = ProofSearcher().search(position, [], SearchLimits(iterations=5000))
            if quick.proven_result is None:
                return position
        moves = position.legal_moves()
        position.push(moves[rng.randrange(len(moves))])
        plies += 1
    return None


# The prover's reach: positions settled out of a fixed set, each in a fixed number of
# nodes. Nodes per second say how fast the prover walks, this how far it sees, which is
# what its numbers and move order change (and it does not drift with the machine's speed).
REACH_POSITIONS = 16
REACH_NODES = 10_000
# Per game and size, how near the end the positions are (`GamePolicy.endgame_near`'s
# reach), chosen so that about half of them are settled: Bug side 4 at 17 empty cells.
REACH_SETS: dict[tuple[str, int], int] = {("bug", 4): 17}


def _reach_line(label: str, name: str, size: int) -> str:
    settled = nodes = 0
    elapsed = 0.0
    reach = REACH_SETS[name, size]
    positions = _prover_positions(name, size, reach, random.Random(11), REACH_POSITIONS)
    for position in positions:
        result = ProofSearcher().search(position, [], SearchLimits(iterations=REACH_NODES))
        settled += result.proven_result is not None
        nodes += result.nodes
        elapsed += result.elapsed
    return (f"{label:<12} proven:  {settled:2d} of {len(positions)}   "
            f"({REACH_NODES} nodes each; {nodes} in {elapsed:.1f} s)")


def _prover_positions(
    name: str, size: int, reach: int, rng: random.Random, count: int
) -> list[Position]:
    """From games of the playout policy, each game's first position within `reach` of
    the end."""
    positions: list[Position] = []
    for _ in range(100 * count):
        if len(positions) == count:
            break
        position = new_game(name, size).start()
        policy = policy_for(position.game)
        while (move := policy.playout_turn(position, rng)) is not None:
            if policy.endgame_near(position, reach):
                positions.append(position)
                break
            position.push(move)
    return positions
