"""The scoring progress strip of the status bar."""

from __future__ import annotations

from PySide6.QtGui import QPainter, QPalette
from PySide6.QtWidgets import QWidget

__all__ = ["ProgressStrip"]


class ProgressStrip(QWidget):
    """A thin progress bar that only ever schedules its repaint.

    ``QProgressBar.setValue`` repaints synchronously whenever the bar grows by a pixel, and a
    synchronous repaint flushes every pending update of the window (the whole table): with a
    chunk arriving every few milliseconds that stalled the GUI thread for tens of
    milliseconds each time.
    """

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._minimum = 0
        self._maximum = 1
        self._value = 0
        self.setFixedHeight(10)
        self.setMinimumWidth(120)
        self.setMaximumWidth(220)

    def setRange(self, minimum: int, maximum: int) -> None:
        self._minimum, self._maximum = minimum, max(maximum, minimum + 1)
        self.update()

    def setValue(self, value: int) -> None:
        if value != self._value:
            self._value = value
            self.update()

    def value(self) -> int:
        return self._value

    def maximum(self) -> int:
        return self._maximum

    def paintEvent(self, event: object) -> None:
        painter = QPainter(self)
        rect = self.rect().adjusted(0, 1, -1, -2)
        palette = self.palette()
        painter.setPen(palette.color(QPalette.ColorRole.Mid))
        painter.setBrush(palette.color(QPalette.ColorRole.Base))
        painter.drawRect(rect)
        span = self._maximum - self._minimum
        share = min(1.0, max(0.0, (self._value - self._minimum) / span))
        filled = rect.adjusted(1, 1, 0, 0)
        filled.setWidth(int((rect.width() - 1) * share))
        painter.fillRect(filled, palette.color(QPalette.ColorRole.Highlight))
        painter.end()
