"""Brushing on a plot: a left-drag draws a range (histograms) or a box (scatter), a left-click
reports where it landed. The chart turns either into rows of the selection.

The wheel and a right-drag still zoom and a middle-drag pans (pyqtgraph's own handling) where
a chart allows it.
"""

from __future__ import annotations

from typing import Literal

import pyqtgraph as pg
from PySide6.QtCore import QPointF, QRectF, Qt, Signal
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QGraphicsRectItem

__all__ = ["BrushViewBox"]

BrushMode = Literal["x", "rect"]


class BrushViewBox(pg.ViewBox):
    """A view box whose left-drag brushes instead of panning.

    Signals:
        brushed(QRectF rect): a drag ended; ``rect`` is in data coordinates (for ``x`` mode
            its vertical extent is the whole view).
        clicked_at(QPointF point): a left-click, in data coordinates.
        brushing(QRectF rect): the drag so far (to preview a range).
    """

    brushed = Signal(QRectF)
    clicked_at = Signal(QPointF)
    brushing = Signal(QRectF)

    def __init__(self, mode: BrushMode = "x", **kwargs: object) -> None:
        super().__init__(**kwargs)
        self.mode = mode
        self._band = QGraphicsRectItem(0, 0, 1, 1)
        self._band.setZValue(1e9)
        self._band.hide()
        self.addItem(self._band, ignoreBounds=True)
        self.set_band_colour(QColor(200, 16, 46))

    def set_band_colour(self, colour: QColor) -> None:
        fill = QColor(colour)
        fill.setAlpha(40)
        self._band.setPen(pg.mkPen(colour, width=1, style=Qt.PenStyle.DashLine))
        self._band.setBrush(pg.mkBrush(fill))

    def _data_rect(self, start: QPointF, end: QPointF) -> QRectF:
        a = self.mapToView(start)
        b = self.mapToView(end)
        rect = QRectF(a, b).normalized()
        if self.mode == "x":
            (_, (y0, y1)) = self.viewRange()
            rect = QRectF(QPointF(rect.left(), y0), QPointF(rect.right(), y1))
        return rect

    def mouseDragEvent(self, ev: object, axis: int | None = None) -> None:
        event = ev  # pyqtgraph's MouseDragEvent
        if axis is not None or event.button() != Qt.MouseButton.LeftButton:  # type: ignore[attr-defined]
            super().mouseDragEvent(ev, axis)
            return
        event.accept()  # type: ignore[attr-defined]
        rect = self._data_rect(
            event.buttonDownPos(Qt.MouseButton.LeftButton),  # type: ignore[attr-defined]
            event.pos(),  # type: ignore[attr-defined]
        )
        if event.isFinish():  # type: ignore[attr-defined]
            self._band.hide()
            self.brushed.emit(rect)
            return
        self._band.setRect(rect)
        self._band.show()
        self.brushing.emit(rect)

    def mouseClickEvent(self, ev: object) -> None:
        event = ev
        if event.button() == Qt.MouseButton.LeftButton:  # type: ignore[attr-defined]
            event.accept()  # type: ignore[attr-defined]
            self.clicked_at.emit(self.mapToView(event.pos()))  # type: ignore[attr-defined]
            return
        super().mouseClickEvent(ev)
