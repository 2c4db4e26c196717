"""Bug: the worked examples of rules.md section 1.4 (E-B1 to E-B12), notation and board."""

from __future__ import annotations

import math
import subprocess
import sys
from pathlib import Path

import pytest

from engine import IllegalMoveError, ParseError, new_game, parse_position, perft
from engine.effects import Eaten, GameOver, Placed
from engine.games.bug import BugPosition
from engine.games.bug_geometry import geometry

ROOT = Path(__file__).resolve().parents[2]
START3 = "bug 3 3/4/5/4/3 b"


def bug(side: int, black: str = "", white: str = "", to_move: str = "b") -> BugPosition:
    """A position from space-separated cell lists, written as a position string."""
    stones = {cell: "b" for cell in black.split()} | {cell: "w" for cell in white.split()}
    geo = geometry(side)
    rows = []
    for row in geo.rows:
        text, empty = "", 0
        for index in row:
            letter = stones.pop(geo.names[index], None)
            if letter is None:
                empty += 1
                continue
            text += (str(empty) if empty else "") + letter
            empty = 0
        rows.append(text + (str(empty) if empty else ""))
    assert not stones, f"cells off the board: {stones}"
    position = parse_position(f"bug {side} {'/'.join(rows)} {to_move}")
    assert isinstance(position, BugPosition)
    return position


def moves(position: BugPosition, start: str | None = None) -> set[str]:
    texts = {move.to_text() for move in position.legal_moves()}
    if start is None:
        return texts
    return {text for text in texts if text.split(",")[0] == start}


def growth_cells(position: BugPosition) -> set[str]:
    return {text.split(",")[0] for text in moves(position)}


def test_helper_writes_the_start_position() -> None:
    assert bug(3).to_text() == START3
    assert bug(3, "c3", to_move="w").to_text() == "bug 3 3/4/2b2/4/3 w"
    assert new_game("bug").start().to_text() == START3


# -- E-B1 ------------------------------------------------------------------------------
@pytest.mark.parametrize(("depth", "count"), [(1, 19), (2, 660), (3, 13002)])
def test_e_b1_perft_side_3(depth: int, count: int) -> None:
    assert perft(parse_position(START3), depth) == count


@pytest.mark.parametrize(("depth", "count"), [(1, 37), (2, 2082)])
def test_e_b1_perft_side_4(depth: int, count: int) -> None:
    assert perft(new_game("bug", 4).start(), depth) == count


# -- E-B2 ------------------------------------------------------------------------------
def test_e_b2_opening_capture() -> None:
    position = bug(3, black="c3", to_move="w")
    assert moves(position, "c4") == {"c4,c3", "c4,b3", "c4,d3", "c4,b4", "c4,d4", "c4,c5"}
    position.play("c4,c3")
    assert position.to_text() == "bug 3 3/4/2ww1/4/3 b"
    # White's new bug has 2 stones although L was 1: no cap on bonus growth.
    assert [bug.bit_count() for bug in position.bugs(1)] == [2]


def test_e_b2_corner_stone() -> None:
    position = bug(3, black="a1", to_move="w")
    all_moves = moves(position)
    captures = {text for text in all_moves if "," in text}
    assert len(all_moves) == 29 and len(captures) == 14
    for growth, count in (("a2", 4), ("b1", 4), ("b2", 6)):
        assert len({text for text in captures if text.startswith(growth + ",")}) == count


def test_e_b2_growth_must_eat() -> None:
    position = bug(3, black="c3", to_move="w")
    with pytest.raises(IllegalMoveError, match="not finished"):
        position.play("c4")


# -- E-B3 ------------------------------------------------------------------------------
def test_e_b3_size_cap_counts_both_colours() -> None:
    position = bug(3, black="a1 a2", white="e1 e2")
    expected = {"b4", "c1", "c2", "c3", "c4", "c5", "d1", "d2", "d3", "d4", "e3"}
    assert growth_cells(position) == expected
    assert position.explain_step([], "a3") == (
        "would make a bug of 3, bigger than the largest bug on the board (2)"
    )
    bigger = bug(3, black="a1 a2", white="e1 e2 e3")
    assert {"a3", "b1", "b2", "b3"} <= growth_cells(bigger)


# -- E-B4 ------------------------------------------------------------------------------
def test_e_b4_no_merge_in_growth() -> None:
    position = bug(3, black="a1 a3")
    assert "a2" not in growth_cells(position)
    assert position.explain_step([], "a2") == "would merge two of your bugs"


def test_e_b4_no_merge_in_bonus() -> None:
    # a1 eats b1; a2 would be a bonus cell but it also touches a3.
    position = bug(3, black="a1 a3", white="b1")
    assert moves(position, "e1") == {"e1,b1", "e1,b2"}
    assert position.explain_step(["e1"], "a2") == "would merge two of your bugs"


# -- E-B5 and E-B6 --------------------------------------------------------------------
E_B5 = {"black": "a1 b3 c2 c3", "white": "a2"}


def test_e_b5_eating_blocked_by_no_merge() -> None:
    position = bug(3, **E_B5)
    assert moves(position, "e1") == {"e1"}
    options = position.turn_options(["e1"])
    assert options.complete and options.next_cells == ()
    assert "no bonus cell" in position.explain_step(["e1"], "b1")


def test_e_b6_a_bug_that_did_not_grow_still_eats() -> None:
    position = bug(3, **E_B5)
    position.play("e1")
    assert moves(position, "e3") == {"e3,a1", "e3,b2", "e3,a3"}


# -- E-B7 ------------------------------------------------------------------------------
def test_e_b7_chain() -> None:
    position = bug(3, black="e1", white="c3 a2 a3")
    chain = moves(position, "b2")
    assert len(chain) == 32 and {"b2,b3,a3", "b2,c3,d3"} <= chain
    for text in chain:
        assert len(text.split(",")) == 3
        after = position.copy()
        after.push(after.parse_move(text))
        assert after.stones[1] == 0
        assert sorted(b.bit_count() for b in after.bugs(0)) == [1, 3]


# -- E-B8 ------------------------------------------------------------------------------
def test_e_b8_two_meals_one_growth() -> None:
    position = bug(3, black="e1", white="b2 d3")
    assert moves(position, "c3") == {"c3,c2", "c3,b2", "c3,b3", "c3,d3", "c3,c4"}
    assert position.play("c3,c4") == [
        Placed("c3", "black", "stone", "growth"),
        Eaten("black", ("c3",), (("b2",), ("d3",))),
        Placed("c4", "black", "stone", "bonus"),
    ]


# -- E-B9 ------------------------------------------------------------------------------
def test_e_b9_contested_meal_mover_chooses() -> None:
    position = bug(3, black="b2 d3", white="c3 e1")
    assert moves(position, "a3") == {
        "a3,a1", "a3,b1", "a3,c2", "a3,c4", "a3,d2", "a3,d4", "a3,e2", "a3,e3",
    }
    assert position.explain_step(["a3"], "c3") == "would merge two of your bugs"


# -- E-B10 -----------------------------------------------------------------------------
def test_e_b10_shapes() -> None:
    position = bug(3, black="a1 b2", white="c2 c3 d2")
    assert moves(position, "a2") == {"a2,b1", "a2,c2", "a2,c3", "a2,b3", "a2,a3"}
    assert all("," in text for text in moves(position, "b1"))
    assert moves(position, "b3") == {"b3"}


# -- E-B11 -----------------------------------------------------------------------------
def test_e_b11_mirror_images_match() -> None:
    position = bug(4, black="f1 g1 g2 g3", white="f2 f3 f4 e5")
    assert moves(position, "a1") == {
        "a1,e1", "a1,e2", "a1,f2", "a1,f3", "a1,f4", "a1,g4",
    }
    assert position.explain_step([], "g4") == (
        "would make a bug of 5, bigger than the largest bug on the board (4)"
    )


# -- E-B12 -----------------------------------------------------------------------------
@pytest.mark.parametrize(("to_move", "winner"), [("b", "black"), ("w", "white")])
def test_e_b12_end_of_game_mover_wins(to_move: str, winner: str) -> None:
    position = parse_position(f"bug 3 wbb/wwbb/ww1ww/bbww/bbb {to_move}")
    assert isinstance(position, BugPosition)
    assert position.legal_moves() == [] and position.rule_moves() == []
    outcome = position.outcome()
    assert outcome is not None and outcome.winner == winner
    assert position.explain_step([], "c3") == "would merge two of your bugs"
    with pytest.raises(IllegalMoveError, match="over"):
        position.play("c3")


def test_game_over_effect_names_the_stuck_mover() -> None:
    # E-B12 with e1 empty: Black's only growth is e1, after which White is stuck and wins.
    almost = parse_position("bug 3 1bb/wwbb/ww1ww/bbww/bbb b")
    assert [move.to_text() for move in almost.legal_moves()] == ["e1"]
    effects = almost.play("e1")
    assert effects[-1] == GameOver("white", "white has no legal growth cell")


# -- turns step by step ----------------------------------------------------------------
def test_turn_options_follow_the_clicks() -> None:
    position = bug(3, black="c3", to_move="w")
    start = position.turn_options([])
    assert not start.complete and len(start.next_cells) == 18
    after_growth = position.turn_options(["c4"])
    assert not after_growth.complete
    assert set(after_growth.next_cells) == {"c3", "b3", "d3", "b4", "d4", "c5"}
    done = position.turn_options(["c4", "c3"])
    assert done.complete and done.next_cells == ()
    assert [move.to_text() for move in done.moves] == ["c4,c3"]
    assert position.explain_step([], "c3") == "that cell is not empty"
    assert "not next to a hungry bug" in position.explain_step(["c4"], "a1")
    assert "turn is complete" in position.explain_step(["c4", "c3"], "a1")


def test_explain_illegal_growth() -> None:
    position = bug(3, black="a1 a3")
    with pytest.raises(IllegalMoveError, match="would merge two of your bugs"):
        position.play("a2")
    eater = bug(3, black="c3", to_move="w")
    with pytest.raises(IllegalMoveError, match="bonus cell b3: the turn is complete"):
        eater.play("c4,c3,b3")
    with pytest.raises(IllegalMoveError, match="bonus cell a1: not next to a hungry bug"):
        eater.play("c4,a1")


# -- notation --------------------------------------------------------------------------
def test_move_text_round_trip_and_strict_parsing() -> None:
    game = new_game("bug")
    move = game.parse_move("b2,b3,a3")
    assert move.to_text() == "b2,b3,a3" and game.parse_move("b2,b3,a3") == move
    with pytest.raises(ParseError, match="'z9'"):
        game.parse_move("c4,z9")
    with pytest.raises(ParseError, match="'f1'"):
        game.parse_move("f1")
    for bad in ("", "c4, c3", "c4,,c3", "c4,"):
        with pytest.raises(ParseError):
            game.parse_move(bad)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("bug 3 3/4/5/4 b", "4 rows, expected 5"),
        ("bug 3 3/4/6/4/3 b", "row 3 of the board has 6 cells, expected 5"),
        ("bug 3 3/4/5/4/3 x", "b or w"),
        ("bug 3 3/4/2x2/4/3 b", "'x'"),
        ("bug 7 7/8/9/10/11/12/13/12/11/10/9/8/7 b", "side"),
        ("bug 3 3/4/5/4/3 b extra", "extra"),
    ],
)
def test_position_parse_errors(text: str, message: str) -> None:
    with pytest.raises(ParseError, match=message):
        parse_position(text)


def test_position_allows_big_bugs_and_hungry_bugs() -> None:
    position = parse_position("bug 3 bbb/bbbb/5/4/2w b")
    assert position.to_text() == "bug 3 bbb/bbbb/5/4/2w b"
    position = bug(3, black="c3", white="c4")  # Black could eat, but only within a turn
    assert "c4" in position.pieces() and position.outcome() is None


# -- board -----------------------------------------------------------------------------
def test_neighbours_of_rules_1_3() -> None:
    board = new_game("bug").board()
    names = board.names

    def around(name: str) -> set[str]:
        return {names[k] for k in board.neighbours[names.index(name)]}

    assert around("c3") == {"b2", "b3", "c2", "c4", "d2", "d3"}
    assert around("a1") == {"a2", "b1", "b2"}
    assert around("e3") == {"d3", "d4", "e2"}
    assert around("b2") == {"a1", "a2", "b1", "b3", "c2", "c3"}


@pytest.mark.parametrize("side", [3, 4, 5, 6])
def test_board_hexes_tile(side: int) -> None:
    board = new_game("bug", side).board()
    assert board.kind == "hex" and len(board.cells) == 3 * side * side - 3 * side + 1
    for info, around in zip(board.cells, board.neighbours, strict=True):
        for k in around:
            other = board.cells[k]
            assert math.isclose(math.hypot(info.x - other.x, info.y - other.y), 1.0)
    top = min(board.cells, key=lambda info: info.y)
    assert top.name[0] == chr(ord("a") + 2 * side - 2)
    assert {label.text for label in board.labels} >= {"a", chr(ord("a") + 2 * side - 2)}


# -- command line ----------------------------------------------------------------------
def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "engine", *args], cwd=ROOT, capture_output=True, text=True
    )


def test_command_line() -> None:
    assert run("perft", START3, "2").stdout == "660\n"
    assert len(run("moves", START3).stdout.split()) == 19
    result = run("play", START3, "c3", "c4,c3")
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == ["bug 3 3/4/2ww1/4/3 b", "ongoing"]
