"""Ayu: the worked examples of rules.md section 2.4 (E-A1 to E-A8) and perft counts."""

from __future__ import annotations

import pytest

from engine import IllegalMoveError, ParseError, new_game, parse_position, perft
from engine.games.ayu import AyuPosition


def ayu(
    n: int, black: str = "", white: str = "", to_move: str = "b", extra: str = ""
) -> AyuPosition:
    """A position from space-separated cell lists, via the position string."""
    stones = {cell: "b" for cell in black.split()} | {cell: "w" for cell in white.split()}
    rows = []
    for rank in range(n, 0, -1):
        row, empty = "", 0
        for file in range(n):
            letter = stones.pop(f"{chr(97 + file)}{rank}", None)
            if letter is None:
                empty += 1
                continue
            row += (str(empty) if empty else "") + letter
            empty = 0
        rows.append(row + (str(empty) if empty else ""))
    assert not stones, f"cells off the board: {stones}"
    text = f"ayu {n} {'/'.join(rows)} {to_move}" + (f" {extra}" if extra else "")
    position = parse_position(text)
    assert isinstance(position, AyuPosition)
    return position


def moves(position: AyuPosition) -> set[str]:
    return {move.to_text() for move in position.legal_moves()}


@pytest.mark.parametrize(("n", "count"), [(9, 62), (11, 98), (13, 142), (15, 194)])
def test_e_a1_opening_move_counts(n: int, count: int) -> None:
    start = new_game("ayu", n).start()
    assert len(start.legal_moves()) == count == 4 * ((n - 1) // 2) ** 2 - 2
    as_white = parse_position(start.to_text()[:-1] + "w")
    assert len(as_white.legal_moves()) == count


def test_e_a1_every_opening_move_is_a_join() -> None:
    start = new_game("ayu", 9).start()
    for move in start.legal_moves():
        after = start.copy()
        after.push(move)
        assert len(after.units(0)) == 19


@pytest.mark.parametrize(
    ("n", "depth", "count"), [(9, 1, 62), (9, 2, 3744), (11, 1, 98), (11, 2, 9440)]
)
def test_e_a1_perft(n: int, depth: int, count: int) -> None:
    assert perft(new_game("ayu", n).start(), depth) == count


def test_e_a1_perft_with_pie_adds_one_swap_per_first_move() -> None:
    start = new_game("ayu", 9, pie="on").start()
    assert perft(start, 2) == 3806
    assert perft(parse_position(start.to_text()), 2) == 3806


def test_e_a2_distance_rule() -> None:
    position = ayu(7, white="c3 c6 g2", to_move="w")
    assert moves(position) == {"c3-c4", "c6-c5", "g2-f2", "g2-g3"}
    for illegal in ("c3-d3", "c3-b3", "c3-c2"):
        with pytest.raises(IllegalMoveError, match="closer"):
            position.copy().play(illegal)


def test_e_a3_tie_allows_either_closest_unit() -> None:
    assert moves(ayu(7, white="d4 d7 a4", to_move="w")) == {"d4-c4", "d4-d5", "a4-b4", "d7-d6"}


def test_e_a4_centre_stone_of_a_line_cannot_move() -> None:
    position = ayu(7, white="c3 d3 e3 c6", to_move="w")
    assert moves(position) == {"e3-c4", "c6-c5"}
    with pytest.raises(IllegalMoveError, match="split"):
        position.copy().play("d3-d4")
    with pytest.raises(IllegalMoveError, match="closer"):
        position.copy().play("e3-d4")
    with pytest.raises(IllegalMoveError, match="does not touch"):
        position.copy().play("c3-c2")


def test_e_a5_momentary_split_is_legal() -> None:
    position = ayu(7, white="b3 b4 c4 d4 d3 c1", to_move="w")
    assert moves(position) == {
        "b3-c3",
        "b3-d2",
        "b4-c3",
        "c1-b1",
        "c1-c2",
        "c1-d1",
        "c4-c3",
        "d3-b2",
        "d3-c3",
        "d4-c3",
    }
    with pytest.raises(IllegalMoveError, match="split"):
        position.copy().play("c4-a3")


def test_e_a6_walled_in_player_to_move_wins() -> None:
    position = ayu(7, black="a2 b1 c2 b3", white="b2 e5", to_move="w")
    assert position.legal_moves() == []
    outcome = position.outcome()
    assert outcome is not None and outcome.winner == "white"


def test_e_a7_immobilisation_beats_unification() -> None:
    position = ayu(5, black="a3 b3 b2 d3 e3 d2", white="c5 c1")
    assert moves(position) == {"a3-c2", "a3-c3", "b2-c3", "d2-c3", "e3-c2", "e3-c3"}
    after = position.copy()
    after.play("b2-c3")
    assert len(after.units(0)) == 1
    outcome = after.outcome()
    assert outcome is not None and outcome.winner == "white"
    other = position.copy()
    other.play("a3-c3")
    assert other.outcome() is None
    assert moves(other) == {"c5-c4", "c5-b5", "c1-b1"}
    other.play("c5-c4")
    outcome = other.outcome()
    assert outcome is not None and outcome.winner == "black"


def test_e_a8_first_repetition_is_a_draw() -> None:
    position = new_game("ayu", 9).start()
    position.play("b1-c1")
    reply = position.legal_moves()[0]
    after = position.copy()
    after.play(reply)
    repeated_key = after.repetition_key()
    fresh = position.copy()
    fresh.play(reply)
    assert fresh.outcome() is None
    with_history = position.copy()
    with_history.add_prior_history([repeated_key])
    effects = with_history.play(reply)
    assert type(effects[-1]).__name__ == "GameOver"
    outcome = with_history.outcome()
    assert outcome is not None and outcome.winner is None
    assert with_history.legal_moves() == []
    with pytest.raises(IllegalMoveError, match="over"):
        with_history.play(reply)


def test_repetition_along_pushed_moves_and_pop_forgets_it() -> None:
    position = ayu(7, white="a1 c1 a7", black="g7 e7 g1")
    before = position.repetition_key()
    position.add_prior_history([])
    position.push(position.parse_move("g1-f1"))
    assert position.repetition_key() != before
    position.pop()
    assert position.repetition_key() == before and position.outcome() is None


def test_pie_swap_keeps_board_and_colour_to_move() -> None:
    position = new_game("ayu", 9, pie="on").start()
    position.play("b1-c1")
    assert position.to_text().endswith(" w swap pie=on")
    assert "swap" in moves(position)
    board_before = position.to_text().split()[2]
    effects = position.play("swap")
    assert [type(effect).__name__ for effect in effects] == ["Swapped"]
    assert position.to_text().split()[2:4] == [board_before, "w"]
    assert "swap" not in moves(position)
    assert position.to_text().endswith(" w pie=on")


def test_no_swap_without_pie_or_later() -> None:
    position = new_game("ayu", 9).start()
    position.play("b1-c1")
    assert "swap" not in moves(position)
    with pytest.raises(IllegalMoveError, match="pie"):
        position.play("swap")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("ayu 9 9/9/9/9/9/9/9/9 b", "rows"),
        ("ayu 9 9/9/9/9/9/9/9/9/8 b", "row 9 of the board has 8 cells, expected 9"),
        ("ayu 9 9/9/9/9/9/9/9/9/8x b", "'x'"),
        ("ayu 8 8/8/8/8/8/8/8/8 b", "odd"),
        ("ayu 9 9/9/9/9/9/9/9/9/9 x", "side to move"),
        ("ayu 9 9/9/9/9/9/9/9/9/9 w swap", "pie"),
        ("ayu 9 9/9/9/9/9/9/9/9/9 b pie=maybe", "pie cannot be"),
        ("ayu 9 9/9/9/9/9/9/9/9/9 b colour=red", "no option"),
        ("ayu nine 9/9/9/9/9/9/9/9/9 b", "whole number"),
        ("go 9 9/9/9/9/9/9/9/9/9 b", "unknown game"),
        ("ayu 9", "at least 4 fields"),
    ],
)
def test_malformed_positions_name_the_problem(text: str, message: str) -> None:
    with pytest.raises(ParseError, match=message):
        parse_position(text)


@pytest.mark.parametrize("text", ["b1", "b1-", "b1-z9", "b1_c1", "j1-j2"])
def test_malformed_moves_name_the_problem(text: str) -> None:
    with pytest.raises(ParseError):
        new_game("ayu", 9).parse_move(text)


def test_position_strings_are_canonical() -> None:
    start = new_game("ayu", 9).start()
    assert start.to_text() == (
        "ayu 9 1b1b1b1b1/w1w1w1w1w/1b1b1b1b1/w1w1w1w1w/1b1b1b1b1/w1w1w1w1w/1b1b1b1b1/"
        "w1w1w1w1w/1b1b1b1b1 b"
    )
    assert parse_position("ayu 5 5/5/5/5/5 b pie=off").to_text() == "ayu 5 5/5/5/5/5 b"
