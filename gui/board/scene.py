"""The board scene: draws any game's board from its description and holds no rules.

Signals:
    cell_clicked(str): the user pressed on a cell (its name, as in rules.md section 6).
"""

from __future__ import annotations

from PySide6.QtCore import QLineF, QPointF, QRectF, Qt, Signal
from PySide6.QtGui import QBrush, QColor, QFont, QPen
from PySide6.QtWidgets import (
    QGraphicsPathItem,
    QGraphicsScene,
    QGraphicsSceneMouseEvent,
    QGraphicsSimpleTextItem,
)

from engine import BoardDescription, Position
from gui.board import theme
from gui.board.items import PieceItem
from gui.board.layout import CELL_SIZE, BoardLayout


class BoardScene(QGraphicsScene):
    cell_clicked = Signal(str)

    def __init__(self) -> None:
        super().__init__()
        self.layout: BoardLayout | None = None
        self.cells: dict[str, QGraphicsPathItem] = {}
        self.pieces: dict[str, PieceItem] = {}
        self.reserve_items: list[PieceItem] = []
        self._base_colours: dict[str, QColor] = {}
        self.setBackgroundBrush(theme.BACKGROUND)

    # -- board -------------------------------------------------------------------------
    def set_board(self, description: BoardDescription) -> None:
        self.clear()
        self.cells.clear()
        self.pieces.clear()
        self.reserve_items.clear()
        self._base_colours.clear()
        self.layout = layout = BoardLayout(description)
        if layout.kind == "point":
            self._draw_grid(layout)
        for info in description.cells:
            item = QGraphicsPathItem(layout.cell_shape(info))
            item.setPos(layout.centre(info.name))
            item.setData(0, info.name)
            self._style_cell(item, info.name)
            self.addItem(item)
            self.cells[info.name] = item
        for name, cells in description.zones.items():
            tint = theme.ZONE_TINT.get(name)
            if tint is None:
                continue
            for cell in cells:
                self.cells[cell].setBrush(QBrush(_blend(self.cells[cell].brush().color(), tint)))
        for name, item in self.cells.items():
            if item.brush().style() != Qt.BrushStyle.NoBrush:
                self._base_colours[name] = item.brush().color()
        font = QFont()
        font.setPixelSize(int(CELL_SIZE * 0.28))
        for label in description.labels:
            text = QGraphicsSimpleTextItem(label.text)
            text.setFont(font)
            text.setBrush(theme.LABEL)
            box = text.boundingRect()
            text.setPos(
                label.x * CELL_SIZE - box.width() / 2, label.y * CELL_SIZE - box.height() / 2
            )
            self.addItem(text)
        self.setSceneRect(self._scene_bounds())

    def _style_cell(self, item: QGraphicsPathItem, name: str) -> None:
        assert self.layout is not None
        kind = self.layout.kind
        if kind == "point":
            item.setPen(QPen(Qt.PenStyle.NoPen))
            item.setBrush(QBrush(Qt.BrushStyle.NoBrush))
            return
        colour = theme.BOARD[kind]
        if kind == "square" and (ord(name[0]) + int(name[1:])) % 2 == 0:
            colour = theme.BOARD_DARK
        item.setBrush(QBrush(colour))
        pen = QPen(theme.CELL_EDGE, 1.5)
        pen.setCosmetic(True)
        item.setPen(pen)
        item.setZValue(0)

    def _draw_grid(self, layout: BoardLayout) -> None:
        cells = layout.description.cells
        xs = [info.x for info in cells]
        ys = [info.y for info in cells]
        margin = 0.6 * CELL_SIZE
        board = QRectF(
            min(xs) * CELL_SIZE - margin,
            min(ys) * CELL_SIZE - margin,
            (max(xs) - min(xs)) * CELL_SIZE + 2 * margin,
            (max(ys) - min(ys)) * CELL_SIZE + 2 * margin,
        )
        self.addRect(board, QPen(theme.CELL_EDGE, 2), QBrush(theme.BOARD["point"])).setZValue(-2)
        pen = QPen(theme.GRID_LINE, 1.4)
        for index, near in enumerate(layout.description.neighbours):
            for other in near:
                if other > index:
                    line = QLineF(
                        layout.centre(cells[index].name), layout.centre(cells[other].name)
                    )
                    self.addLine(line, pen).setZValue(-1)

    def _scene_bounds(self) -> QRectF:
        assert self.layout is not None
        bounds = self.layout.bounds()
        # Room on the right for pieces held in reserve.
        return bounds.adjusted(0, 0, CELL_SIZE * 1.4, 0)

    # -- pieces --------------------------------------------------------------------------
    def show_position(self, position: Position) -> None:
        """Make every piece item match the position exactly."""
        assert self.layout is not None
        layout = self.layout
        for item in [*self.pieces.values(), *self.reserve_items]:
            self.removeItem(item)
        self.pieces.clear()
        self.reserve_items.clear()
        for cell, piece in position.pieces().items():
            item = PieceItem(piece.player, piece.kind, layout.piece_radius)
            item.setPos(layout.centre(cell))
            self.addItem(item)
            self.pieces[cell] = item
        self._show_reserves(position)

    def _show_reserves(self, position: Position) -> None:
        assert self.layout is not None
        reserves = position.reserves()
        if not reserves:
            return
        bounds = self.layout.bounds()
        radius = self.layout.piece_radius * 0.7
        x = bounds.right() + CELL_SIZE * 0.6
        first, second = position.game.players
        for player, top_down in ((second, True), (first, False)):
            for k in range(reserves.get(player, 0)):
                item = PieceItem(player, "warrior", radius)
                offset = (k + 0.7) * radius * 2.2
                y = bounds.top() + offset if top_down else bounds.bottom() - offset
                item.setPos(QPointF(x, y))
                item.setToolTip(self.tr("%n warrior(s) in reserve", "", reserves[player]))
                self.addItem(item)
                self.reserve_items.append(item)

    def highlight(self, cells: set[str]) -> None:
        """Tint exactly these cells (an empty set clears every highlight)."""
        for name, item in self.cells.items():
            base = self._base_colours.get(name)
            if base is None:
                continue
            colour = _blend(base, theme.HIGHLIGHT) if name in cells else base
            item.setBrush(QBrush(colour))

    # -- input ---------------------------------------------------------------------------
    def mousePressEvent(self, event: QGraphicsSceneMouseEvent) -> None:  # noqa: N802
        if self.layout is not None and event.button() == Qt.MouseButton.LeftButton:
            cell = self.layout.cell_at(event.scenePos())
            if cell is not None:
                self.cell_clicked.emit(cell)
                event.accept()
                return
        super().mousePressEvent(event)


def _blend(base: QColor, tint: QColor) -> QColor:
    alpha = tint.alphaF()
    return QColor.fromRgbF(
        base.redF() * (1 - alpha) + tint.redF() * alpha,
        base.greenF() * (1 - alpha) + tint.greenF() * alpha,
        base.blueF() * (1 - alpha) + tint.blueF() * alpha,
    )
