"""The main window: composes the board, the game chooser and the position field."""

from __future__ import annotations

from PySide6.QtCore import Signal, Slot
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import (
    QComboBox,
    QLabel,
    QLineEdit,
    QMainWindow,
    QToolBar,
    QVBoxLayout,
    QWidget,
)

import engine
from gui.board.scene import BoardScene
from gui.board.view import BoardView


class MainWindow(QMainWindow):
    """Signals:
    game_started(str): a new game's position string, once it is on the board.
    """

    game_started = Signal(str)

    def __init__(self) -> None:
        super().__init__()
        self.setWindowTitle(self.tr("Pebblebox"))
        self.scene = BoardScene()
        self.view = BoardView(self.scene)
        self.position: engine.Position | None = None

        self.game_choice = QComboBox()
        for name in engine.game_names():
            self.game_choice.addItem(engine.game_class(name).title, name)
        self.size_choice = QComboBox()
        self.size_choice.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
        self.game_choice.currentIndexChanged.connect(self._offer_sizes)
        new_game = QAction(self.tr("&New game"), self)
        new_game.setShortcut(QKeySequence.StandardKey.New)
        new_game.triggered.connect(self.start_new_game)
        quit_action = QAction(self.tr("&Quit"), self)
        quit_action.setShortcut(QKeySequence.StandardKey.Quit)
        quit_action.triggered.connect(self.close)

        toolbar = QToolBar(self.tr("Game"))
        toolbar.setObjectName("game toolbar")
        toolbar.setMovable(False)
        toolbar.addWidget(QLabel(self.tr("Game ")))
        toolbar.addWidget(self.game_choice)
        toolbar.addWidget(QLabel(self.tr("  Size ")))
        toolbar.addWidget(self.size_choice)
        toolbar.addAction(new_game)
        self.addToolBar(toolbar)
        menu = self.menuBar().addMenu(self.tr("&Game"))
        menu.addAction(new_game)
        menu.addSeparator()
        menu.addAction(quit_action)

        self.position_field = QLineEdit()
        self.position_field.setReadOnly(True)
        self.position_field.setToolTip(self.tr("The position string: copy it to share or study"))
        central = QWidget()
        column = QVBoxLayout(central)
        column.setContentsMargins(0, 0, 0, 0)
        column.addWidget(self.view, 1)
        column.addWidget(self.position_field)
        self.setCentralWidget(central)
        self.scene.cell_clicked.connect(self._cell_clicked)

        self._offer_sizes()
        self.start_new_game()
        self.resize(900, 760)

    @Slot()
    def _offer_sizes(self) -> None:
        name = self.game_choice.currentData()
        if name is None:
            return
        cls = engine.game_class(name)
        self.size_choice.clear()
        for size in cls.sizes:
            self.size_choice.addItem(_size_label(name, size), size)
        self.size_choice.setCurrentIndex(cls.sizes.index(cls.default_size))
        self.size_choice.setEnabled(len(cls.sizes) > 1)

    @Slot()
    def start_new_game(self) -> None:
        name = self.game_choice.currentData()
        size = self.size_choice.currentData()
        game = engine.new_game(name, size)
        self.position = game.start()
        self.scene.set_board(game.board())
        self.scene.show_position(self.position)
        self.position_field.setText(self.position.to_text())
        self.setWindowTitle(self.tr("Pebblebox — %1").replace("%1", game.title))
        self._show_turn()
        self.game_started.emit(self.position.to_text())

    def _show_turn(self) -> None:
        assert self.position is not None
        player = self.position.turn_name.capitalize()
        self.statusBar().showMessage(self.tr("%1 to move").replace("%1", player))

    @Slot(str)
    def _cell_clicked(self, cell: str) -> None:
        self.scene.highlight({cell})
        piece = self.position.pieces().get(cell) if self.position else None
        what = f"{piece.player} {piece.kind}" if piece else self.tr("empty")
        self.statusBar().showMessage(f"{cell}: {what}", 4000)


def _size_label(game: str, size: int) -> str:
    return f"hexhex {size}" if game == "bug" else f"{size}×{size}"
