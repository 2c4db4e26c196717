"""The AI: one `search` call for every searcher (MCTS-Solver, alpha-beta, parallel).

`search(position, history, limits, *, should_stop, on_progress, rng) -> SearchResult`;
levels per game are in `engine.ai.levels`, game knowledge in `engine.ai.policies`.
"""

from engine.ai.common import (
    Candidate,
    Searcher,
    SearchInfo,
    SearchLimits,
    SearchResult,
    history_keys,
)
from engine.ai.levels import LEVELS, custom_limits, level_limits, searcher_for

__all__ = [
    "LEVELS",
    "Candidate",
    "SearchInfo",
    "SearchLimits",
    "SearchResult",
    "Searcher",
    "custom_limits",
    "history_keys",
    "level_limits",
    "searcher_for",
]
