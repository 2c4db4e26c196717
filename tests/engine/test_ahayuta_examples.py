"""Ahayuta: the worked examples of rules.md section 3.4 (E-H1 to E-H14), with the options
of section 3.3 where an example says what changes, plus notation and repetition."""

from __future__ import annotations

import subprocess
import sys

import pytest

from engine import IllegalMoveError, ParseError, new_game, parse_position, perft
from engine.effects import AhayutaPending, Captured, Moved, Placed, Removed, Transformed
from engine.games.ahayuta import AhayutaPosition

START = "ahayuta 8 6/8/8/8/8/8/8/6 l 6/6 -"
FILES = "abcdefgh"


def aha(
    light: str = "",
    dark: str = "",
    to_move: str = "l",
    reserves: str = "0/0",
    pending: str = "-",
    **options: str,
) -> AhayutaPosition:
    """A position from piece lists like "Wc3 Ae1" (light) and "We5 Ad8" (dark)."""
    pieces: dict[str, str] = {}
    for token in light.split():
        pieces[token[1:]] = token[0].upper()
    for token in dark.split():
        pieces[token[1:]] = token[0].lower()
    rows = []
    for rank in range(8, 0, -1):
        row, empty = "", 0
        files = FILES[1:7] if rank in (1, 8) else FILES
        for file in files:
            letter = pieces.pop(f"{file}{rank}", None)
            if letter is None:
                empty += 1
                continue
            row += (str(empty) if empty else "") + letter
            empty = 0
        rows.append(row + (str(empty) if empty else ""))
    assert not pieces, f"squares off the board: {pieces}"
    extra = " ".join(f"{k}={v}" for k, v in sorted(options.items()))
    text = f"ahayuta 8 {'/'.join(rows)} {to_move} {reserves} {pending}"
    position = parse_position(text + (f" {extra}" if extra else ""))
    assert isinstance(position, AhayutaPosition)
    return position


def moves(position: AhayutaPosition) -> set[str]:
    return {move.to_text() for move in position.legal_moves()}


def on_board(position: AhayutaPosition) -> dict[str, str]:
    """Square -> letter (W/A light, w/a dark)."""
    letters = {}
    for cell, piece in position.pieces().items():
        letter = "W" if piece.kind == "warrior" else "A"
        letters[cell] = letter if piece.player == "light" else letter.lower()
    return letters


def captured(effects: list) -> list[str]:
    return sorted(
        (cell for effect in effects if isinstance(effect, Captured) for cell in effect.cells),
        key=lambda c: (c[1], c[0]),
    )


# -- E-H1 ---------------------------------------------------------------------------------
@pytest.mark.parametrize(("depth", "count"), [(1, 6), (2, 36), (3, 252), (4, 1764)])
def test_e_h1_perft_from_the_empty_board(depth: int, count: int) -> None:
    assert perft(new_game("ahayuta").start(), depth) == count


def test_e_h1_start_position_string() -> None:
    start = new_game("ahayuta").start()
    assert start.to_text() == START
    assert moves(start) == {f"@{f}1" for f in "bcdefg"}
    assert start.reserves() == {"light": 6, "dark": 6}


def test_e_h1_cli_perft() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "engine", "perft", START, "4"],
        capture_output=True, text=True, check=True,
    )
    assert result.stdout.strip() == "1764"


# -- E-H2, E-H3 ---------------------------------------------------------------------------
def test_e_h2_diagonal_clamp() -> None:
    position = aha("Wf6 Wc3", "We5")
    effects = position.play("c3-d4")
    assert effects == [
        Moved("c3", "d4", "light", "warrior"),
        Captured("dark", ("e5",), ("d4", "f6"), ("warrior",)),
        AhayutaPending("dark", "sacrifice"),
    ]
    assert on_board(position) == {"d4": "W", "f6": "W"}
    assert position.to_text().endswith(" d 0/0 D")


def test_e_h3_moving_between_two_enemies_is_safe() -> None:
    position = aha("Wc4", "Wc5 We5")
    effects = position.play("c4-d5")
    assert captured(effects) == []
    assert on_board(position) == {"d5": "W", "c5": "w", "e5": "w"}


# -- E-H4 ---------------------------------------------------------------------------------
def test_e_h4_run_capture() -> None:
    position = aha("Wb2 Wf4", "Wc3 Wd4")
    assert position.move_text_with_captures(position.parse_move("f4-e5")) == "f4-e5xc3xd4"
    effects = position.play("f4-e5")
    assert effects[1] == Captured("dark", ("d4", "c3"), ("e5", "b2"), ("warrior", "warrior"))
    assert captured(effects) == ["c3", "d4"]
    assert on_board(position) == {"b2": "W", "e5": "W"}


def test_e_h4_single_clamp_takes_nothing() -> None:
    position = aha("Wb2 Wf4", "Wc3 Wd4", clamp="single")
    assert captured(position.play("f4-e5")) == []
    assert on_board(position) == {"b2": "W", "e5": "W", "c3": "w", "d4": "w"}


def test_e_h4_single_clamp_still_takes_one() -> None:
    position = aha("Wc3 Wf4", "Wd4", clamp="single")
    assert captured(position.play("f4-e5")) == ["d4"]


def test_e_h4_gap_in_the_run_captures_nothing() -> None:
    position = aha("Wb2 Wf4", "Wc3")
    assert captured(position.play("f4-e5")) == []


# -- E-H5, E-H6 ---------------------------------------------------------------------------
def test_e_h5_several_directions_and_ahayuta_anchor() -> None:
    position = aha("We6 Ag4 Wc2 Wf3", "We5 Wf4 Wd3")
    effects = position.play("f3-e4")
    assert captured(effects) == ["d3", "f4", "e5"]
    closed = {effect.cells: effect.closed_by for effect in effects if isinstance(effect, Captured)}
    assert closed == {("e5",): ("e4", "e6"), ("f4",): ("e4", "g4"), ("d3",): ("e4", "c2")}
    assert on_board(position) == {"e6": "W", "g4": "A", "c2": "W", "e4": "W"}


def test_e_h6_deploy_captures() -> None:
    position = aha("Wd3", "Wd2", reserves="1/0")
    effects = position.play("@d1")
    assert effects[:2] == [
        Placed("d1", "light", "warrior", "deploy"),
        Captured("dark", ("d2",), ("d1", "d3"), ("warrior",)),
    ]
    assert position.reserves() == {"light": 0, "dark": 0}


# -- E-H7 ---------------------------------------------------------------------------------
def test_e_h7_hero_with_two_capture_stages() -> None:
    position = aha("Wc7 Wd6 We3", "Wd7 We2", reserves="0/0")
    assert "c7-d8" not in moves(position)
    assert {"c7-d8/b1", "c7-d8/e1", "c7-d8/g1", "c7-b8/e1"} <= moves(position)
    effects = position.play("c7-d8/e1")
    assert effects == [
        Moved("c7", "d8", "light", "warrior"),
        Captured("dark", ("d7",), ("d8", "d6"), ("warrior",)),
        AhayutaPending("dark", "sacrifice"),
        Transformed("d8", "light"),
        Placed("e1", "light", "ahayuta", "hero"),
        Captured("dark", ("e2",), ("e1", "e3"), ("warrior",)),
    ]
    assert on_board(position) == {"d6": "W", "e3": "W", "e1": "A"}
    assert position.status(0) == "on_board" and position.status(1) == "pending"


def test_e_h7_move_text_with_captures() -> None:
    position = aha("Wc7 Wd6 We3", "Wd7 We2")
    move = position.parse_move("c7-d8/e1")
    assert position.move_text_with_captures(move) == "c7-d8/e1xe2xd7"
    assert position.parse_move("c7-d8/e1xe2xd7") == move
    assert position.parse_move("c7-d8/e1xd7xe2") == move
    with pytest.raises(IllegalMoveError, match="captures e2, d7"):
        position.parse_move("c7-d8/e1xe2")


def test_e_h7_without_arrival_captures() -> None:
    position = aha("Wc7 Wd6 We3", "Wd7 We2", hero_arrival_captures="false")
    effects = position.play("c7-d8/e1")
    assert captured(effects) == ["e2"]
    assert on_board(position) == {"d6": "W", "e3": "W", "e1": "A", "d7": "w"}


def test_e_h7_dark_already_pending_makes_no_second_sacrifice() -> None:
    position = aha("Wc7 Wd6 We3", "Wd7 We2", pending="D")
    effects = position.play("c7-d8/e1")
    assert not any(isinstance(e, AhayutaPending) for e in effects)


# -- E-H8 ---------------------------------------------------------------------------------
def test_e_h8_forced_sacrifice_placement() -> None:
    position = aha("Wd7", "Wd6 Wb7", to_move="d", reserves="3/3", pending="D")
    assert moves(position) == {f"A@{f}8" for f in "bcdefg"}
    effects = position.play("A@d8")
    assert effects == [
        Placed("d8", "dark", "ahayuta", "sacrifice"),
        Captured("light", ("d7",), ("d8", "d6"), ("warrior",)),
        AhayutaPending("light", "sacrifice"),
    ]
    assert position.status(1) == "on_board" and position.status(0) == "pending"
    assert moves(position) == {f"A@{f}1" for f in "bcdefg"}


def test_e_h8_placement_only_on_empty_home_squares() -> None:
    position = aha("", "Wc8 Wf8", to_move="d", pending="D")
    assert moves(position) == {"A@b8", "A@d8", "A@e8", "A@g8"}
    with pytest.raises(IllegalMoveError, match="you must place your Ahayuta first"):
        position.play("c8-b7")
    with pytest.raises(IllegalMoveError, match="c8 is not empty"):
        position.play("A@c8")


# -- E-H9 ---------------------------------------------------------------------------------
def test_e_h9_hero_blocked_stays_immobile() -> None:
    position = aha("Wc7 Ab1", "We8", reserves="0/1")
    assert "c7-d8" in moves(position) and "c7-d8/e1" not in moves(position)
    position.play("c7-d8")
    assert on_board(position) == {"d8": "W", "b1": "A", "e8": "w"}
    position.play("@c8")
    assert on_board(position) == {"b1": "A", "e8": "w", "c8": "w"}


def test_e_h9_blocked_warrior_has_no_moves() -> None:
    position = aha("Wd8 Ab1", "Wg6")
    assert {m for m in moves(position) if m.startswith("d8")} == set()
    with pytest.raises(IllegalMoveError, match="cannot move"):
        position.play("d8-c7")


def test_e_h9_with_pending_ahayuta_and_full_home_row() -> None:
    position = aha("Wb1 Wc1 Wd1 We1 Wf1 Wc7", "Wg1", pending="L")
    assert "c7-d8" in moves(position)


def test_e_h9_illegal_option() -> None:
    position = aha("Wc7 Ab1", "We8", hero_when_has_ahayuta="illegal")
    assert "c7-d8" not in moves(position) and "c7-b8" not in moves(position)
    with pytest.raises(IllegalMoveError, match="may not enter the opponent's home row"):
        position.play("c7-d8")


def test_e_h9_remove_option_captures_then_removes() -> None:
    position = aha("Wc7 Wf8 Ab1", "We8", hero_when_has_ahayuta="remove")
    effects = position.play("c7-d8")
    assert effects == [
        Moved("c7", "d8", "light", "warrior"),
        Captured("dark", ("e8",), ("d8", "f8"), ("warrior",)),
        AhayutaPending("dark", "sacrifice"),
        Removed("d8", "light"),
    ]
    assert on_board(position) == {"f8": "W", "b1": "A"}


def test_e_h9_newborn_square_refused_when_ahayuta_exists() -> None:
    position = aha("Wc7 Ab1", "We8")
    with pytest.raises(IllegalMoveError, match="none is born"):
        position.play("c7-d8/e1")


# -- E-H10 --------------------------------------------------------------------------------
AHAYUTA_SETS = {
    "no-backward": {
        ("l", "d5"): "c5 e5 c6 d6 e6",
        ("d", "d5"): "c5 e5 c4 d4 e4",
        ("l", "b1"): "a2 b2 c1 c2",
    },
    "forward-3": {
        ("l", "d5"): "c6 d6 e6",
        ("d", "d5"): "c4 d4 e4",
        ("l", "b1"): "a2 b2 c2",
    },
    "king-8": {
        ("l", "d5"): "c4 d4 e4 c5 e5 c6 d6 e6",
        ("d", "d5"): "c4 d4 e4 c5 e5 c6 d6 e6",
        ("l", "b1"): "a2 b2 c1 c2",
    },
}


@pytest.mark.parametrize("option", list(AHAYUTA_SETS))
def test_e_h10_ahayuta_movement_sets(option: str) -> None:
    for (side, square), targets in AHAYUTA_SETS[option].items():
        if side == "l":
            position = aha(f"A{square}", "", to_move="l", ahayuta_moves=option)
        else:
            position = aha("", f"A{square}", to_move="d", ahayuta_moves=option)
        assert moves(position) == {f"{square}-{t}" for t in targets.split()}, (option, side)


def test_e_h10_ahayuta_never_steps_backward() -> None:
    position = aha("Ad5")
    with pytest.raises(IllegalMoveError, match="never steps backward"):
        position.play("d5-d4")
    with pytest.raises(IllegalMoveError, match="steps one square"):
        position.play("d5-d7")
    sideways = aha("Ad5", ahayuta_moves="forward-3")
    with pytest.raises(IllegalMoveError, match="forward-3"):
        sideways.play("d5-e5")


def test_e_h10_warrior_movement_sets() -> None:
    light = aha("Wb7 Wa2 Ac1", "")
    assert {m for m in moves(light) if m.startswith("b7")} == {"b7-c8"}
    assert {m for m in moves(light) if m.startswith("a2")} == {"a2-b3"}
    dark = aha("", "Wg2 Ae5", to_move="d")
    assert {m for m in moves(dark) if m.startswith("g2")} == {"g2-f1"}


def test_e_h10_warrior_moves_only_diagonally_forward() -> None:
    position = aha("Wd4", "We8")
    for text in ("d4-d5", "d4-c3", "d4-e4", "d4-f6"):
        with pytest.raises(IllegalMoveError, match="only diagonally forward"):
            position.play(text)


# -- E-H11, E-H12 -------------------------------------------------------------------------
def test_e_h11_capturing_the_ahayuta_wins() -> None:
    position = aha("Ad5", "We5 Wb6", to_move="d")
    effects = position.play("b6-c5")
    assert effects[1] == Captured("light", ("d5",), ("c5", "e5"), ("ahayuta",))
    outcome = position.outcome()
    assert outcome is not None and outcome.winner == "dark"
    assert "captured light's Ahayuta" in outcome.reason
    assert effects[-1].winner == "dark"  # type: ignore[attr-defined]
    assert position.legal_moves() == [] and position.rule_moves() == []
    assert "A" not in position.to_text().split()[2]
    position.pop()
    assert position.outcome() is None and "A" in position.to_text().split()[2]


def test_e_h12_reaching_the_goal_wins() -> None:
    position = aha("Ae7", "Wc5")
    position.play("e7-e8")
    outcome = position.outcome()
    assert outcome is not None and outcome.winner == "light" and "reached" in outcome.reason
    assert position.legal_moves() == []
    reparsed = parse_position(position.to_text())
    assert reparsed.outcome() == outcome and reparsed.legal_moves() == []


def test_e_h12_reaching_the_goal_wins_even_with_a_capture() -> None:
    position = aha("Ae7 Wg6", "Wf7 Wc5")
    effects = position.play("e7-e8")
    assert captured(effects) == ["f7"]
    outcome = position.outcome()
    assert outcome is not None and outcome.winner == "light"


def test_e_h12_placement_on_own_row_does_not_win() -> None:
    position = aha("", "Wc5", to_move="l", pending="L")
    position.play("A@d1")
    assert position.outcome() is None


# -- E-H13 --------------------------------------------------------------------------------
def test_e_h13_removed_corner_breaks_the_line() -> None:
    position = aha("Wd2", "Wb2")
    assert captured(position.play("d2-c3")) == []


def test_e_h13_run_reaching_the_edge_captures_nothing() -> None:
    position = aha("Wd3", "Wf4 Wg4 Wh4")
    assert captured(position.play("d3-e4")) == []


def test_e_h13_run_ends_on_the_first_friendly_piece() -> None:
    position = aha("Wd3 Wg4", "Wf4 Wh4")
    assert captured(position.play("d3-e4")) == ["f4"]
    assert on_board(position) == {"e4": "W", "g4": "W", "h4": "w"}


# -- E-H14 --------------------------------------------------------------------------------
def test_e_h14_stalemate_loses_with_empty_reserve() -> None:
    position = aha("Wc2", "Wb3 Wd3", to_move="l", reserves="0/3")
    assert position.legal_moves() == []
    outcome = position.outcome()
    assert outcome is not None and outcome.winner == "dark"
    assert "light has no legal move" in outcome.reason


def test_e_h14_stalemate_loses_with_full_home_row() -> None:
    position = aha("", "Wb1 Wc1 Wd1 We1 Wf1 Wg1 Ae5", reserves="6/0")
    assert position.legal_moves() == []
    assert position.outcome() is not None and position.outcome().winner == "dark"  # type: ignore[union-attr]


def test_e_h14_ahayuta_boxed_in() -> None:
    position = aha("Ad1", "Wc1 We1 Wc2 Wd2 We2", reserves="0/0")
    assert position.legal_moves() == []
    assert position.outcome().winner == "dark"  # type: ignore[union-attr]


# -- H10, H12: full home row ---------------------------------------------------------------
def test_h10_hero_with_full_home_row_becomes_pending() -> None:
    position = aha("Wb1 Wc1 Wd1 We1 Wf1 Wc7", "Wg1 Wh6", to_move="l")
    assert {"c7-d8", "c7-b8"} <= moves(position)
    effects = position.play("c7-d8")
    assert effects == [
        Moved("c7", "d8", "light", "warrior"),
        Transformed("d8", "light"),
        AhayutaPending("light", "hero"),
    ]
    assert position.status(0) == "pending"
    assert position.to_text().split()[5] == "L"


def test_h12_pending_with_full_home_row_waits() -> None:
    position = aha("Wb1 Wc1 Wd1 We1 Wf1", "Wg1 Wh6", to_move="l", pending="L")
    assert moves(position) == {"b1-a2", "b1-c2", "c1-b2", "c1-d2", "d1-c2", "d1-e2", "e1-d2",
                               "e1-f2", "f1-e2", "f1-g2"}
    position.play("b1-a2")
    position.play("h6-g5")
    assert moves(position) == {"A@b1"}


def test_h12_pending_with_full_home_row_loses_under_option() -> None:
    position = aha(
        "Wb1 Wc1 Wd1 We1 Wf1", "Wg1 Wh6", to_move="l", pending="L",
        pending_when_home_full="lose",
    )
    assert position.legal_moves() == []
    assert position.outcome().winner == "dark"  # type: ignore[union-attr]


# -- AHA-18: repetition --------------------------------------------------------------------
def test_aha_18_third_occurrence_is_a_draw() -> None:
    position = aha("Ad3", "Ad6")
    cycle = ["d3-e3", "d6-e6", "e3-d3", "e6-d6"]
    for text in cycle:
        position.play(text)
    assert position.outcome() is None  # second occurrence
    for text in cycle[:3]:
        position.play(text)
    assert position.outcome() is None
    position.play(cycle[3])
    outcome = position.outcome()
    assert outcome is not None and outcome.winner is None
    assert position.legal_moves() == []
    assert position.rule_moves() != []
    position.pop()
    assert position.outcome() is None


# -- notation ------------------------------------------------------------------------------
def test_moves_round_trip_text() -> None:
    game = new_game("ahayuta")
    for text in ("@d1", "c3-d4", "c7-d8/e1", "A@e8"):
        assert game.parse_move(text).to_text() == text
    assert game.parse_move("c3-d4xe5").to_text() == "c3-d4"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "empty"),
        ("d1", "written"),
        ("@a1", "corners"),
        ("c3-z9", "not a square"),
        ("c7-d8/", "newborn"),
        ("c3-d4x", "names no square"),
        ("c3-d4xe5xe5", "twice"),
    ],
)
def test_bad_move_text(text: str, message: str) -> None:
    with pytest.raises(ParseError, match=message):
        new_game("ahayuta").parse_move(text)


def test_capture_suffix_is_checked() -> None:
    position = aha("Wf6 Wc3", "We5")
    assert position.parse_move("c3-d4xe5").to_text() == "c3-d4"
    with pytest.raises(IllegalMoveError, match="captures e5, not f6"):
        position.play("c3-d4xf6")
    with pytest.raises(IllegalMoveError, match="captures nothing"):
        aha("Wc3").play("c3-d4xe5")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("ahayuta 8 6/8/8/8/8/8/8/6 l 6/6", "reserves and the pending"),
        ("ahayuta 8 6/8/8/8/8/8/8/6 x 6/6 -", "side to move"),
        ("ahayuta 8 6/8/8/8/8/8/8/6 l 7/6 -", "more than 6"),
        ("ahayuta 8 W5/8/8/8/8/8/8/6 l 6/6 -", "more than 6"),
        ("ahayuta 8 6/8/8/8/8/8/8/6 l 6-6 -", "reserves"),
        ("ahayuta 8 6/8/8/8/8/8/8/6 l 6/6 X", "pending"),
        ("ahayuta 8 6/8/8/8/8/8/8/A1A3 l 5/6 -", "two Ahayutas"),
        ("ahayuta 8 6/8/8/8/8/8/8/A5 l 5/6 L", "cannot also be pending"),
        ("ahayuta 8 6/8/8/8/8/8/8/7 l 6/6 -", "7 cells, expected 6"),
        ("ahayuta 8 6/8/8/8/8/8/8/6/8 l 6/6 -", "9 rows"),
        ("ahayuta 8 A5/8/8/8/8/8/8/6 l 5/6 -", "cannot be to move"),
        ("ahayuta 7 6/8/8/8/8/8/8/6 l 6/6 -", "not 7"),
        ("ahayuta 8 6/8/8/8/8/8/8/6 l 6/6 - clamp=double", "clamp"),
    ],
)
def test_bad_position_strings(text: str, message: str) -> None:
    with pytest.raises(ParseError, match=message):
        parse_position(text)


def test_options_in_position_strings() -> None:
    game = new_game("ahayuta", clamp="single", ahayuta_moves="king-8")
    text = game.start().to_text()
    assert text == START + " ahayuta_moves=king-8 clamp=single"
    assert parse_position(text).game == game
    with pytest.raises(ParseError, match="this game has"):
        new_game("ahayuta").parse(text)


def test_explanations() -> None:
    start = new_game("ahayuta").start()
    with pytest.raises(IllegalMoveError, match="home row"):
        start.play("@d2")
    with pytest.raises(IllegalMoveError, match="no piece on c3"):
        start.play("c3-d4")
    full = aha("Wd1", "", reserves="0/0")
    with pytest.raises(IllegalMoveError, match="your reserve is empty"):
        full.play("@c1")
    occupied = aha("Wd1", "", reserves="1/0")
    with pytest.raises(IllegalMoveError, match="d1 is not empty"):
        occupied.play("@d1")
    hero = aha("Wc7", "")
    with pytest.raises(IllegalMoveError, match=r"choose the square for the newborn Ahayuta"):
        hero.play("c7-d8")
    with pytest.raises(IllegalMoveError, match="not yours"):
        aha("Wc3", "Wf6").play("f6-e5")


def test_board_description() -> None:
    board = new_game("ahayuta").board()
    assert board.kind == "square" and len(board.cells) == 60
    assert "a1" not in board.names and "b1" in board.names
    assert board.zones["light home"] == ("b1", "c1", "d1", "e1", "f1", "g1")
    assert board.zones["dark home"] == ("b8", "c8", "d8", "e8", "f8", "g8")
    b1 = board.cell("b1")
    assert (b1.x, b1.y) == (1.0, 7.0)
    near = {board.cells[i].name for i in board.neighbours[board.names.index("b1")]}
    assert near == {"a2", "b2", "c2", "c1"}


def test_play_command_prints_the_outcome() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "engine", "play",
         aha("Ae7", "Wc5").to_text(), "e7-e8"],
        capture_output=True, text=True, check=True,
    )
    assert result.stdout.splitlines()[-1].startswith("light wins: ")
