"""Why an Ahayuta move is not legal, in a player's words (rules.md section 3)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.bitboard import bits
from engine.games.ahayuta_geometry import (
    DEPLOY,
    LIGHT,
    PLACE,
    AhayutaMove,
)

if TYPE_CHECKING:
    from engine.games.ahayuta import AhayutaPosition


def explain(position: AhayutaPosition, move: AhayutaMove) -> str:
    ended = position.outcome()
    if ended is not None:
        return f"the game is over ({ended.text()})"
    if move in position.legal_moves():
        return f"{move.to_text()} is legal here"
    return _reason(position, move) or f"{move.to_text()} is not a legal move here"


def _home_text(side: int) -> str:
    return "b1-g1" if side == LIGHT else "b8-g8"


def _reason(position: AhayutaPosition, move: AhayutaMove) -> str | None:
    from engine.games.ahayuta import HAS_ILLEGAL

    geo, game = position.geo, position.game
    c = position.turn
    names = geo.names
    men, aha = position.men, position.aha
    occupied = men[0] | men[1] | aha[0] | aha[1]
    empty = geo.board_mask & ~occupied
    home_empty = geo.home[c] & empty
    t = move.target
    if position.pend[c]:
        if home_empty and move.kind != PLACE:
            squares = " ".join(f"A@{names[i]}" for i in bits(home_empty))
            return f"you must place your Ahayuta first ({squares})"
        if not home_empty and game.lose_when_home_full:
            return "your Ahayuta must be placed but your home row is full"
    if move.kind == PLACE:
        if not position.pend[c]:
            if aha[c]:
                return "your Ahayuta is already on the board"
            return "you have no Ahayuta to place"
        if not geo.home[c] >> t & 1:
            return f"the Ahayuta is placed on your home row ({_home_text(c)})"
        if occupied >> t & 1:
            return f"{names[t]} is not empty"
        return None
    if move.kind == DEPLOY:
        if not position.res[c]:
            return "your reserve is empty"
        if not geo.home[c] >> t & 1:
            return f"a warrior is deployed on your home row ({_home_text(c)})"
        if occupied >> t & 1:
            return f"{names[t]} is not empty"
        return None
    s = move.source
    if not occupied >> s & 1:
        return f"there is no piece on {names[s]}"
    if not (men[c] | aha[c]) >> s & 1:
        return f"the piece on {names[s]} is not yours"
    forward = 1 if c == LIGHT else -1
    step = geo.direction_between(s, t)
    if aha[c] >> s & 1:
        if move.newborn >= 0:
            return "only a warrior reaching the opponent's home row makes an Ahayuta"
        if step is None:
            return "the Ahayuta steps one square"
        option = game.options["ahayuta_moves"]
        if step[1] == -forward and option != "king-8":
            return "the Ahayuta never steps backward"
        if step[1] == 0 and option == "forward-3":
            return "the Ahayuta steps only forward or diagonally forward (ahayuta_moves=forward-3)"
        if occupied >> t & 1:
            return f"{names[t]} is not empty"
        return None
    # A warrior.
    if geo.goal[c] >> s & 1:
        return "a warrior on the opponent's home row cannot move"
    if step is None or step[1] != forward or step[0] == 0:
        return "a warrior moves only diagonally forward"
    if occupied >> t & 1:
        return f"{names[t]} is not empty"
    if not geo.goal[c] >> t & 1:
        if move.newborn >= 0:
            return "only a warrior reaching the opponent's home row makes an Ahayuta"
        return None
    example = f"{names[s]}-{names[t]}"
    if aha[c] or position.pend[c]:
        if game.when_has_ahayuta == HAS_ILLEGAL:
            return (
                "a warrior may not enter the opponent's home row while you have an Ahayuta "
                "(hero_when_has_ahayuta=illegal)"
            )
        if move.newborn >= 0:
            return f"you already have an Ahayuta, so none is born: write {example}"
        return None
    if not home_empty:
        if move.newborn >= 0:
            return (
                f"your home row is full, so the newborn Ahayuta will be pending: write {example}"
            )
        return None
    if move.newborn < 0:
        first = names[(home_empty & -home_empty).bit_length() - 1]
        return f"choose the square for the newborn Ahayuta (e.g. {example}/{first})"
    n = move.newborn
    if not geo.home[c] >> n & 1:
        return f"the newborn Ahayuta goes on your home row ({_home_text(c)})"
    if occupied >> n & 1:
        return f"{names[n]} is not empty"
    return None
