"""Graphics items of a board: cells (plain items) and pieces (QGraphicsObjects, animatable)."""

from __future__ import annotations

import math

from PySide6.QtCore import Property, QPointF, QRectF, Qt
from PySide6.QtGui import QBrush, QPainter, QPainterPath, QPen, QRadialGradient
from PySide6.QtWidgets import QGraphicsObject, QStyleOptionGraphicsItem, QWidget

from gui.board import theme


class PieceItem(QGraphicsObject):
    """A stone, warrior or Ahayuta drawn as vector graphics; `scale_factor` animates."""

    def __init__(self, player: str, kind: str, radius: float) -> None:
        super().__init__()
        self.player = player
        self.kind = kind
        self.radius = radius
        self._scale = 1.0
        self.setZValue(10)

    def boundingRect(self) -> QRectF:  # noqa: N802 (Qt override)
        r = self.radius + 3
        return QRectF(-r, -r, 2 * r, 2 * r)

    def get_scale_factor(self) -> float:
        return self._scale

    def set_scale_factor(self, value: float) -> None:
        self.prepareGeometryChange()
        self._scale = value
        self.update()

    scale_factor = Property(float, get_scale_factor, set_scale_factor)

    def paint(
        self,
        painter: QPainter,
        option: QStyleOptionGraphicsItem,
        widget: QWidget | None = None,
    ) -> None:
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        r = self.radius * self._scale
        fill = theme.PIECE_FILL[self.player]
        gradient = QRadialGradient(QPointF(-r * 0.35, -r * 0.35), r * 1.4)
        gradient.setColorAt(0.0, fill.lighter(150 if self.player in ("black", "dark") else 108))
        gradient.setColorAt(1.0, fill.darker(115))
        painter.setPen(QPen(theme.PIECE_EDGE[self.player], max(1.0, r * 0.06)))
        painter.setBrush(QBrush(gradient))
        painter.drawEllipse(QPointF(0, 0), r, r)
        if self.kind == "warrior":
            painter.setBrush(Qt.BrushStyle.NoBrush)
            painter.setPen(QPen(theme.MARK[self.player], r * 0.1))
            painter.drawEllipse(QPointF(0, 0), r * 0.55, r * 0.55)
        elif self.kind == "ahayuta":
            painter.setPen(Qt.PenStyle.NoPen)
            painter.setBrush(theme.MARK[self.player])
            painter.drawPath(_star(r * 0.7, r * 0.3))


def _star(outer: float, inner: float, points: int = 5) -> QPainterPath:
    path = QPainterPath()
    for k in range(points * 2):
        radius = outer if k % 2 == 0 else inner
        angle = math.radians(-90 + 180 * k / points)
        corner = QPointF(radius * math.cos(angle), radius * math.sin(angle))
        if k == 0:
            path.moveTo(corner)
        else:
            path.lineTo(corner)
    path.closeSubpath()
    return path
