"""The AI's subcommands of `python -m engine`: `search`, `match` and `tune`.

`search` prints `info …` lines while thinking and `bestmove <move>` last, like a UCI
engine; `match` prints one line per game, then the totals; `tune` fits the weights of
Ahayuta's or Ayu's evaluation to self-play results (engine/ai/tuning.py) and prints them.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from engine.ai.ayu_search import AyuSearchSettings
from engine.ai.common import Searcher, SearchInfo, SearchLimits, history_keys
from engine.ai.levels import LEVELS, custom_limits, level_limits, searcher_for
from engine.ai.match import Contender, GameRecord, contender, record_text, run_match
from engine.ai.tuning import Terms
from engine.core import EngineError, Game
from engine.registry import new_game, parse_position


def add_subcommands(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    search = commands.add_parser("search", help="think about a position, print the best move")
    search.add_argument("position")
    search.add_argument("--moves", nargs="*", default=[], metavar="M",
                        help="moves played from the position first (for repetition)")
    budget = search.add_mutually_exclusive_group(required=True)
    budget.add_argument("--level", choices=LEVELS, type=str.lower)
    budget.add_argument("--time", type=float, help="seconds to think")
    budget.add_argument("--iterations", type=int, help="MCTS iterations / alpha-beta nodes")
    search.add_argument("--seed", type=int, default=1)
    search.add_argument("--workers", type=int, default=None)
    search.set_defaults(run=run_search)

    match = commands.add_parser("match", help="play the AI against itself and count results")
    match.add_argument("--game", required=True)
    match.add_argument("--size", type=int, default=None)
    match.add_argument("--first", required=True, help="a level, 'random', 'uct' or 'custom'")
    match.add_argument("--second", required=True, help="a level, 'random', 'uct' or 'custom'")
    match.add_argument("--games", type=int, default=10)
    match.add_argument("--time", type=float, default=None, help="seconds per move, both sides")
    match.add_argument("--time-scale", type=float, default=1.0, metavar="F",
                       help="multiply every time budget of both sides by F (e.g. 0.2)")
    match.add_argument("--seed", type=int, default=1)
    match.add_argument("--workers", type=int, default=None,
                       help="worker processes for every side (default: each level's own, "
                       "Master 2, the others 1)")
    match.add_argument("--option", action="append", default=[], metavar="NAME=VALUE")
    match.add_argument("--opening-plies", type=int, default=2,
                       help="random first plies, shared by each pair of games")
    match.add_argument("--record", metavar="FILE", default=None,
                       help="append every game's moves to FILE as it ends")
    match.set_defaults(run=run_match_command)

    tune = commands.add_parser(
        "tune", help="fit a game's evaluation weights to self-play results, print them"
    )
    tune.add_argument("--game", choices=TUNABLE, default="ahayuta")
    tune.add_argument("--size", type=int, default=None)
    tune.add_argument("--games", type=int, default=250)
    tune.add_argument("--seed", type=int, default=1)
    tune.set_defaults(run=run_tune)


def _print_info(info: SearchInfo) -> None:
    parts = [f"info nodes {info.nodes}", f"rate {info.rate:.0f}", f"time {info.elapsed:.2f}"]
    if info.depth:
        parts.append(f"depth {info.depth}")
    if info.best_move:
        parts.append(f"value {info.value:.3f}")
    if info.proven:
        parts.append(info.proven)
    if info.pv:
        parts.append("pv " + " ".join(info.pv))
    print(" ".join(parts), flush=True)


def run_search(args: argparse.Namespace) -> int:
    start = parse_position(args.position)
    position, history = history_keys(start, args.moves)
    game_name = position.game.name
    searcher: Searcher
    if args.level:
        searcher, limits, _ = level_limits(
            game_name, args.level, workers=args.workers, size=position.game.size
        )
    elif args.time is not None:
        searcher, limits, _ = custom_limits(
            game_name, args.time, workers=args.workers or 1, size=position.game.size
        )
    else:
        searcher = searcher_for(game_name, workers=args.workers or 1)
        limits = SearchLimits(iterations=args.iterations)
    if not position.legal_moves():
        outcome = position.outcome()
        raise EngineError(f"the game is over ({outcome.text() if outcome else 'no moves'})")
    result = searcher.search(
        position, history, limits, on_progress=_print_info, rng=random.Random(args.seed)
    )
    assert result.best_move is not None
    print(f"bestmove {result.best_move.to_text()}", flush=True)
    return 0


def _budget(side: Contender) -> str:
    limits = side.limits
    parts = []
    if limits.time is not None:
        parts.append(f"{limits.time:g} s")
    if limits.iterations is not None:
        parts.append(f"{limits.iterations} iterations")
    return f"{side.label} " + ", ".join(parts)


def run_match_command(args: argparse.Namespace) -> int:
    if args.games < 1:
        raise EngineError(f"a match needs 1 game or more, not {args.games}")
    options = {}
    for item in args.option:
        name, sep, value = item.partition("=")
        if not sep:
            raise EngineError(f"an option is written NAME=VALUE, not {item!r}")
        options[name] = value
    game = new_game(args.game, args.size, **options)
    first = contender(game, args.first.lower(), args.time, args.workers, args.time_scale)
    second = contender(game, args.second.lower(), args.time, args.workers, args.time_scale)
    if first.label == second.label:
        # Otherwise "master wins" and a record's "master moved first; master won" would not
        # say which side.
        first = replace(first, label=f"{first.label} #1")
        second = replace(second, label=f"{second.label} #2")
    if args.time_scale != 1.0:
        print(f"time scale {args.time_scale:g}: {_budget(first)}; {_budget(second)}", flush=True)
    began = time.perf_counter()
    start = game.start().to_text()
    labels = (first.label, second.label)
    if args.record:
        try:
            open(args.record, "a", encoding="utf-8").close()
        except OSError as error:
            raise EngineError(f"cannot write the record file {args.record}: "
                              f"{error.strerror}") from None

    def report(number: int, record: GameRecord) -> None:
        if args.record:
            # Appended game by game, so a match stopped early keeps the games it played.
            with open(args.record, "a", encoding="utf-8") as file:
                file.write(record_text(number, record, start, labels))
        result = {0: f"{first.label} wins", 1: f"{second.label} wins", None: "draw"}[
            record.winner
        ]
        note = " (unofficial ply cap)" if record.capped else ""
        print(f"game {number + 1}: {result}{note} in {record.plies} plies "
              f"[{time.perf_counter() - began:.0f} s]", flush=True)

    match = run_match(
        game, first, second, args.games, args.seed, on_game=report,
        opening_plies=args.opening_plies,
    )
    print(f"{game!r}", flush=True)
    for line in match.lines():
        print(line)
    sys.stdout.flush()
    return 0


TUNABLE = ("ahayuta", "ayu")


@dataclass(frozen=True)
class _TuningSubject:
    """What `tune` needs of a game: its terms, the weights it plays with now, the soft
    players' search (None: the generic alpha-beta) and how to print fitted weights."""

    terms: Terms
    current: Sequence[float]
    player: Searcher | None
    show: Callable[[Sequence[float]], str]


def _tuning_subject(game: Game) -> _TuningSubject:
    if game.name == "ayu":
        from engine.ai.ayu_search import (
            AyuSearcher,
            evaluation_terms,
            for_board,
            settings_of_weights,
            term_weights,
        )
        from engine.ai.levels import PLAIN_AYU, SOFT_AYU_ROOT_MARGIN
        from engine.games.ayu import AyuPosition

        start = game.start()
        assert isinstance(start, AyuPosition)
        # Master's weights on this size; the games are played by the levels' plain search.
        master = for_board(AyuSearchSettings(), start)
        player = AyuSearcher(replace(PLAIN_AYU, root_margin=SOFT_AYU_ROOT_MARGIN))
        return _TuningSubject(
            evaluation_terms, term_weights(master), player,
            lambda w: _ayu_weights_text(settings_of_weights(w)),
        )
    from engine.ai.policies.ahayuta import WEIGHTS, EvalWeights
    from engine.ai.policies.ahayuta import evaluation_terms as ahayuta_terms

    return _TuningSubject(
        ahayuta_terms, WEIGHTS, None,
        lambda w: f"WEIGHTS = {EvalWeights(*(round(x, 2) for x in w))!r}",
    )


def _ayu_weights_text(s: AyuSearchSettings) -> str:
    return (f"AyuSearchSettings(cost_scale={s.cost_scale:.3f}, tempo={s.tempo:.3f}, "
            f"cluster_weight={s.cluster_weight:.3f}, gap_weight={s.gap_weight:.3f}, "
            f"contested_weight={s.contested_weight:.3f}, "
            f"contested_cluster_weight={s.contested_cluster_weight:.3f})")


def run_tune(args: argparse.Namespace) -> int:
    from engine.ai.tuning import SelfPlay, fit_logistic, log_loss, self_play_rows, split_games

    if args.games < 1:
        raise EngineError(f"tuning needs 1 game or more, not {args.games}")
    game = new_game(args.game, args.size)
    subject = _tuning_subject(game)

    def report(number: int, winner: str | None, plies: int) -> None:
        print(f"game {number + 1}: {winner or 'draw'} in {plies} plies", flush=True)

    games = self_play_rows(
        game, subject.terms, SelfPlay(args.games, args.seed), report, subject.player
    )
    fit, held = split_games(games)
    weights = fit_logistic(fit)
    scored = held or fit
    print(f"{len(fit)} positions fitted, {len(held)} held out")
    # Under five games nothing is held out: say so rather than pass fitted rows off as new.
    label = "held-out log loss" if held else "log loss on the fitted games (none held out)"
    print(f"{label}: fitted {log_loss(scored, weights):.4f}, "
          f"current {log_loss(scored, subject.current):.4f}, a coin {math.log(2):.4f}")
    print(subject.show(weights))
    return 0
