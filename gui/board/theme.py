"""Colours of boards and pieces, in one place so a future theme switch touches one file."""

from __future__ import annotations

from PySide6.QtGui import QColor

BACKGROUND = QColor("#2b2f36")
BOARD = {"hex": QColor("#e9d8b4"), "square": QColor("#e8d3a9"), "point": QColor("#dcb67a")}
BOARD_DARK = QColor("#b88a5a")  # the darker squares of the Ahayuta board
CELL_EDGE = QColor("#7a5c3a")
GRID_LINE = QColor("#4a3620")
LABEL = QColor("#d8d2c4")
HIGHLIGHT = QColor(80, 170, 255, 120)
ZONE_TINT = {"light home": QColor(255, 255, 255, 70), "dark home": QColor(40, 20, 0, 60)}

PIECE_FILL = {
    "black": QColor("#1d1d1f"),
    "white": QColor("#f4f1ea"),
    "light": QColor("#f1e4c6"),
    "dark": QColor("#5a2e1a"),
}
PIECE_EDGE = {
    "black": QColor("#000000"),
    "white": QColor("#8a8578"),
    "light": QColor("#8c7a55"),
    "dark": QColor("#2a1208"),
}
MARK = {"light": QColor("#a0522d"), "dark": QColor("#f0c060")}
