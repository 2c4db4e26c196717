"""The integer scores of the alpha-beta searchers (`alphabeta`, `ayu_search`).

Scores are for the side to move: the evaluation mapped to ±1000, and won positions as
`MATE - plies` so that the quickest win and the slowest loss are preferred and "proven
win in N" can be read off the score. The transposition tables store mate scores relative
to the node (`to_table`, `from_table`), with a flag saying which kind of bound they are.
"""

from __future__ import annotations

MATE = 1_000_000
MATE_ZONE = MATE - 10_000
NO_BOUND = -MATE - 1  # the lowest score: no root move has been scored yet
EXACT, LOWER, UPPER = 0, 1, 2  # a table entry's score is exact, a lower or an upper bound


def score_value(score: int) -> float:
    if score >= MATE_ZONE:
        return 1.0
    if score <= -MATE_ZONE:
        return 0.0
    return min(1.0, max(0.0, 0.5 + score / 2000))


def proven_root(score: int, exact: bool) -> bool:
    """Whether a root answer settles the game: an exact win or loss, or an upper bound
    that is itself a loss (every move of the share loses at least that quickly)."""
    return score <= -MATE_ZONE or (exact and score >= MATE_ZONE)


def to_table(score: int, ply: int) -> int:
    """Mate scores are stored relative to the node, so they stay right at another depth."""
    if score >= MATE_ZONE:
        return score + ply
    if score <= -MATE_ZONE:
        return score - ply
    return score


def from_table(score: int, ply: int) -> int:
    if score >= MATE_ZONE:
        return score - ply
    if score <= -MATE_ZONE:
        return score + ply
    return score
