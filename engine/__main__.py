"""The engine's command line: `python -m engine moves|perft|play|bench|search|match ...`.

Errors in what the user typed exit with status 2 and one line on stderr.
"""

from __future__ import annotations

import argparse
import multiprocessing
import sys
from collections.abc import Sequence

from engine.core import EngineError, perft
from engine.registry import parse_position


def _moves(args: argparse.Namespace) -> int:
    position = parse_position(args.position)
    for move in position.legal_moves():
        print(move.to_text())
    return 0


def _perft(args: argparse.Namespace) -> int:
    if args.depth < 0:
        raise EngineError(f"the depth must be 0 or more, not {args.depth}")
    print(perft(parse_position(args.position), args.depth))
    return 0


def _play(args: argparse.Namespace) -> int:
    position = parse_position(args.position)
    for number, text in enumerate(args.moves, start=1):
        try:
            position.play(text)
        except EngineError as error:
            raise EngineError(f"move {number} ({text}): {error}") from None
    print(position.to_text())
    outcome = position.outcome()
    print("ongoing" if outcome is None else outcome.text())
    return 0


def _bench(args: argparse.Namespace) -> int:
    from engine.bench import run_bench

    for line in run_bench(args.seconds, args.games or None):
        print(line, flush=True)
    from engine.ai.bench import run_search_bench

    for line in run_search_bench(args.seconds, args.games or None):
        print(line, flush=True)
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m engine", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    moves = commands.add_parser("moves", help="list the legal moves, one per line")
    moves.add_argument("position")
    moves.set_defaults(run=_moves)
    count = commands.add_parser("perft", help="count legal move sequences of a length")
    count.add_argument("position")
    count.add_argument("depth", type=int)
    count.set_defaults(run=_perft)
    play = commands.add_parser("play", help="play moves, print the position and outcome")
    play.add_argument("position")
    play.add_argument("moves", nargs="*")
    play.set_defaults(run=_play)
    bench = commands.add_parser("bench", help="measure move generation and playouts")
    bench.add_argument("--seconds", type=float, default=2.0)
    bench.add_argument("games", nargs="*")
    bench.set_defaults(run=_bench)
    from engine.ai.cli import add_subcommands

    add_subcommands(commands)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return int(args.run(args))
    except EngineError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    # Search workers are processes; a frozen (PyInstaller) build needs this first.
    multiprocessing.freeze_support()
    sys.exit(main())
