"""`make bench`: move generation and random playout rates per game, for the notes."""

from __future__ import annotations

import random
import time
from collections.abc import Callable

from engine.core import Position
from engine.registry import game_names, new_game

# Board sizes measured for each game (the issues ask for these).
BENCH_SIZES: dict[str, tuple[int, ...]] = {"ayu": (9, 11), "bug": (3, 4, 5), "ahayuta": (8,)}
PLAYOUT_PLY_CAP = 2000


def random_playout(position: Position, rng: random.Random) -> int:
    """Play uniformly random legal moves to the end; returns the number of plies."""
    plies = 0
    while plies < PLAYOUT_PLY_CAP:
        moves = position.legal_moves()
        if not moves:
            break
        position.push(rng.choice(moves))
        plies += 1
    return plies


def _rate(work: Callable[[], int], seconds: float) -> tuple[float, float]:
    """Runs `work` until `seconds` pass; returns (calls per second, work units per call)."""
    calls = done = 0
    began = time.perf_counter()
    while True:
        done += work()
        calls += 1
        elapsed = time.perf_counter() - began
        if elapsed >= seconds:
            return calls / elapsed, done / calls


def bench_game(name: str, size: int, seconds: float = 2.0) -> list[str]:
    game = new_game(name, size)
    rng = random.Random(1)
    start = game.start()

    def playout() -> int:
        return random_playout(start.copy(), rng)

    playouts, plies = _rate(playout, seconds)
    # Move generation measured over positions met in random games, not just the start.
    samples: list[Position] = []
    while len(samples) < 200:
        position = start.copy()
        for _ in range(rng.randrange(0, 40)):
            moves = position.legal_moves()
            if not moves:
                break
            position.push(rng.choice(moves))
        samples.append(position)

    def generate() -> int:
        for position in samples:
            position.forget_cached_moves()
            position.rule_moves()
        return len(samples)

    calls, _ = _rate(generate, seconds)
    label = f"{game.title} {size}"
    return [
        f"{label:<12} random playouts/s: {playouts:10.1f}   (avg {plies:.0f} plies)",
        f"{label:<12} move generations/s: {calls * len(samples):8.0f}",
    ]


def run_bench(seconds: float = 2.0, games: list[str] | None = None) -> list[str]:
    lines = []
    for name in games or game_names():
        for size in BENCH_SIZES.get(name, ()):
            lines.extend(bench_game(name, size, seconds))
    return lines
