"""Board geometry in scene coordinates, from the engine's game-neutral BoardDescription."""

from __future__ import annotations

import math

from PySide6.QtCore import QPointF, QRectF
from PySide6.QtGui import QPainterPath, QPolygonF

from engine import BoardDescription, CellInfo

CELL_SIZE = 60.0  # scene units per board unit (one cell spacing)
HEX_RADIUS = 1 / math.sqrt(3)  # centre to corner of a pointy-top hex with unit spacing


class BoardLayout:
    """Maps cells to scene points and shapes, and scene points back to cells."""

    def __init__(self, description: BoardDescription) -> None:
        self.description = description
        self.kind = description.kind
        self._by_name = {info.name: info for info in description.cells}

    def centre(self, name: str) -> QPointF:
        info = self._by_name[name]
        return QPointF(info.x * CELL_SIZE, info.y * CELL_SIZE)

    def cell_shape(self, info: CellInfo) -> QPainterPath:
        """The outline of a cell, centred on the cell (hexes and squares tile the board)."""
        path = QPainterPath()
        if self.kind == "hex":
            radius = HEX_RADIUS * CELL_SIZE
            corners = [
                QPointF(
                    radius * math.cos(math.radians(90 + 60 * k)),
                    radius * math.sin(math.radians(90 + 60 * k)),
                )
                for k in range(6)
            ]
            path.addPolygon(QPolygonF([*corners, corners[0]]))
        elif self.kind == "square":
            half = CELL_SIZE / 2
            path.addRect(QRectF(-half, -half, CELL_SIZE, CELL_SIZE))
        else:
            half = CELL_SIZE * 0.45
            path.addEllipse(QRectF(-half, -half, 2 * half, 2 * half))
        return path

    @property
    def piece_radius(self) -> float:
        return CELL_SIZE * (0.4 if self.kind == "hex" else 0.38)

    def cell_at(self, point: QPointF) -> str | None:
        """The cell under a scene point: the nearest centre, if the point is inside its cell.

        Hex and square cells are exactly the regions nearest to their centres, so the
        nearest centre is the cell; points of an Ayu grid take a disc around them.
        """
        best, best_distance = None, math.inf
        for info in self.description.cells:
            dx = point.x() - info.x * CELL_SIZE
            dy = point.y() - info.y * CELL_SIZE
            distance = math.hypot(dx, dy)
            if distance < best_distance:
                best, best_distance = info, distance
        if best is None:
            return None
        reach = {"hex": HEX_RADIUS, "square": 0.5 * math.sqrt(2), "point": 0.5}[self.kind]
        if best_distance > reach * CELL_SIZE:
            return None
        if self.kind == "square":
            dx = abs(point.x() - best.x * CELL_SIZE)
            dy = abs(point.y() - best.y * CELL_SIZE)
            if max(dx, dy) > CELL_SIZE / 2:
                return None
        return best.name

    def bounds(self) -> QRectF:
        xs = [info.x for info in self.description.cells]
        ys = [info.y for info in self.description.cells]
        xs += [label.x for label in self.description.labels]
        ys += [label.y for label in self.description.labels]
        margin = 0.8
        return QRectF(
            (min(xs) - margin) * CELL_SIZE,
            (min(ys) - margin) * CELL_SIZE,
            (max(xs) - min(xs) + 2 * margin) * CELL_SIZE,
            (max(ys) - min(ys) + 2 * margin) * CELL_SIZE,
        )
