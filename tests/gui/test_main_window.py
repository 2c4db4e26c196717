"""The main window: every game's start position drawn on its board; clicks reach cells."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

import engine
from gui.board.items import PieceItem
from gui.main_window import MainWindow


@pytest.fixture
def window(qtbot: QtBot) -> MainWindow:
    window = MainWindow()
    qtbot.addWidget(window)
    window.show()
    qtbot.waitExposed(window)
    return window


def choose(window: MainWindow, qtbot: QtBot, name: str, size: int) -> None:
    window.game_choice.setCurrentIndex(window.game_choice.findData(name))
    window.size_choice.setCurrentIndex(window.size_choice.findData(size))
    with qtbot.waitSignal(window.game_started):
        window.start_new_game()


def click_cell(window: MainWindow, qtbot: QtBot, cell: str) -> None:
    layout = window.scene.layout
    assert layout is not None
    point = window.view.mapFromScene(layout.centre(cell))
    qtbot.mouseClick(window.view.viewport(), Qt.MouseButton.LeftButton, pos=point)


@pytest.mark.parametrize(
    ("name", "size"),
    [(name, size) for name in engine.game_names() for size in engine.game_class(name).sizes],
)
def test_start_position_is_drawn(window: MainWindow, qtbot: QtBot, name: str, size: int) -> None:
    choose(window, qtbot, name, size)
    position = window.position
    assert position is not None and position.game == engine.new_game(name, size)
    assert window.position_field.text() == position.to_text()
    assert len(window.scene.cells) == len(position.game.board().cells)
    drawn = {cell: (item.player, item.kind) for cell, item in window.scene.pieces.items()}
    expected = {cell: (piece.player, piece.kind) for cell, piece in position.pieces().items()}
    assert drawn == expected
    in_reserve = [item for item in window.scene.items() if item in window.scene.reserve_items]
    assert len(in_reserve) == sum(position.reserves().values())
    assert all(isinstance(item, PieceItem) for item in in_reserve)


@pytest.mark.parametrize("name", engine.game_names())
def test_clicking_a_cell_names_it(window: MainWindow, qtbot: QtBot, name: str) -> None:
    cls = engine.game_class(name)
    choose(window, qtbot, name, cls.default_size)
    board = engine.new_game(name).board()
    for info in (board.cells[0], board.cells[len(board.cells) // 2], board.cells[-1]):
        with qtbot.waitSignal(window.scene.cell_clicked) as blocker:
            click_cell(window, qtbot, info.name)
        assert blocker.args == [info.name]


def test_status_bar_names_the_player_to_move(window: MainWindow) -> None:
    assert window.statusBar().currentMessage().endswith("to move")
