"""The engine's command line, run as a user would run it."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
AYU9 = (
    "ayu 9 1b1b1b1b1/w1w1w1w1w/1b1b1b1b1/w1w1w1w1w/1b1b1b1b1/w1w1w1w1w/1b1b1b1b1/"
    "w1w1w1w1w/1b1b1b1b1 b"
)


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "engine", *args], cwd=ROOT, capture_output=True, text=True
    )


def test_perft_prints_one_integer() -> None:
    result = run("perft", AYU9, "2")
    assert result.returncode == 0 and result.stdout == "3744\n"


def test_moves_lists_one_move_per_line() -> None:
    lines = run("moves", AYU9).stdout.splitlines()
    assert len(lines) == 62 and "b1-c1" in lines


def test_play_prints_position_then_outcome() -> None:
    result = run("play", "ayu 5 2w2/5/bb1bb/1b1b1/2w2 b", "b2-c3")
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == [
        "ayu 5 2w2/5/bbbbb/3b1/2w2 w",
        "white wins: white has no legal move",
    ]


def test_play_ongoing() -> None:
    result = run("play", AYU9, "b1-c1")
    assert result.returncode == 0
    assert result.stdout.splitlines()[1] == "ongoing"


def test_bad_input_exits_2_with_one_line() -> None:
    for args in (("moves", "ayu 9 nonsense b"), ("play", AYU9, "b1-z1"), ("play", AYU9, "a1-a2")):
        result = run(*args)
        assert result.returncode == 2
        assert len(result.stderr.strip().splitlines()) == 1, result.stderr
        assert result.stdout == ""
