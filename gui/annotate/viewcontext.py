"""The annotation view's neighbours: the segments around the one under annotation, dimmed,
a click away.

Each :class:`ContextRow` shows one neighbour's number, source and output (of the system
annotated), each text cut to :data:`CONTEXT_LINES` lines and ending in "…" when cut
(:func:`elide_lines`), as tall as that many lines of its script (:func:`line_height`: Chinese
and Japanese fall back to fonts with taller lines). :class:`DocumentBody` holds the rows, the
segment under annotation and the evidence.
"""

from __future__ import annotations

import math
from typing import Any

from PySide6.QtCore import QCoreApplication, QEvent, QPointF, QSize, Qt, Signal
from PySide6.QtGui import (
    QFontMetrics,
    QMouseEvent,
    QPainter,
    QPaintEvent,
    QPalette,
    QResizeEvent,
    QTextLayout,
)
from PySide6.QtWidgets import QFrame, QGridLayout, QLabel, QSizePolicy, QWidget

from matchlight.core.annotation.offsets import Utf16Index

__all__ = [
    "CONTEXT_LINES",
    "ContextRow",
    "ContextText",
    "DocumentBody",
    "elide_lines",
    "line_height",
]

# Lines of a neighbour's text shown (the rest is elided).
CONTEXT_LINES = 2


def elide_lines(text: str, width: int, lines: int, layout_font: Any) -> str:
    """``text`` cut to what ``lines`` lines of ``width`` pixels hold, ending in "…" if cut."""
    if lines <= 0 or width <= 0 or not text:
        return ""
    layout = QTextLayout(text, layout_font)
    layout.beginLayout()
    last_start = 0
    last_end = 0
    count = 0
    while count < lines:
        line = layout.createLine()
        if not line.isValid():
            break
        line.setLineWidth(width)
        last_start, last_end = line.textStart(), line.textStart() + line.textLength()
        count += 1
    layout.endLayout()
    index = Utf16Index(text)
    if last_end >= len(text.encode("utf-16-le")) // 2:
        return text
    start = index.to_codepoint(_boundary(index, last_start))
    tail = QFontMetrics(layout_font).elidedText(
        text[start:].replace("\n", " "), Qt.TextElideMode.ElideRight, width
    )
    return text[:start] + tail


def _boundary(index: Utf16Index, position: int) -> int:
    """``position`` moved back off the middle of a surrogate pair."""
    try:
        index.to_codepoint(position)
        return position
    except ValueError:
        return position - 1


def line_height(text: str, font: Any) -> float:
    """The height of a line of ``text`` in ``font``: a line of Chinese or Japanese falls back
    to a font with a taller line than the Latin one."""
    spacing = float(QFontMetrics(font).lineSpacing())
    if not text or text.isascii():
        return spacing
    layout = QTextLayout(text, font)
    layout.beginLayout()
    line = layout.createLine()
    line.setLineWidth(1_000_000)
    layout.endLayout()
    return max(line.height(), spacing)


class ContextText(QWidget):
    """A neighbour's text, at most :data:`CONTEXT_LINES` lines, elided; as tall as that many
    lines of its script."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._text = ""
        self._shown: str | None = ""
        self._line = line_height("", self.font())
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)

    def set_text(self, text: str) -> None:
        if text == self._text:
            return
        self._text = text
        line = line_height(text, self.font())
        if line != self._line:
            self._line = line
            self.updateGeometry()
        self._shown = None
        self.update()

    def shown_text(self) -> str:
        return self._elide()

    def _elide(self) -> str:
        """The text as shown, cut when it is first needed (a row that does not fit is never
        shown, so never cut)."""
        if self._shown is None:
            self._shown = elide_lines(
                self._text, max(1, self.width() - 4), CONTEXT_LINES, self.font()
            )
        return self._shown

    def sizeHint(self) -> QSize:
        return QSize(200, math.ceil(CONTEXT_LINES * self._line) + 4)

    def minimumSizeHint(self) -> QSize:
        return self.sizeHint()

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        if event.size().width() != event.oldSize().width():
            self._shown = None

    def changeEvent(self, event: QEvent) -> None:
        super().changeEvent(event)
        if event.type() == QEvent.Type.FontChange:
            self._line = line_height(self._text, self.font())
            self._shown = None
            self.updateGeometry()

    def paintEvent(self, event: QPaintEvent) -> None:
        # Laid out as elide_lines measured it: the same lines, each at its own height.
        layout = QTextLayout(self._elide(), self.font())
        layout.beginLayout()
        y = 2.0
        while True:
            line = layout.createLine()
            if not line.isValid():
                break
            line.setLineWidth(max(1, self.width() - 4))
            line.setPosition(QPointF(2, y))
            y += line.height()
        layout.endLayout()
        painter = QPainter(self)
        painter.setClipRect(self.rect())
        painter.setPen(self.palette().color(QPalette.ColorRole.PlaceholderText))
        layout.draw(painter, QPointF(0, 0))
        painter.end()


class ContextRow(QFrame):
    """One neighbouring segment: its number, source and output (of the system annotated);
    a click goes there.

    Signals:
        chosen(int segment)
    """

    chosen = Signal(int)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("context-row")
        self.segment = -1
        self.setCursor(Qt.CursorShape.PointingHandCursor)
        layout = QGridLayout(self)
        layout.setContentsMargins(6, 2, 6, 2)
        layout.setHorizontalSpacing(10)
        self.number = QLabel(self)
        self.number.setObjectName("context-number")
        self.number.setAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignTop)
        self.source = ContextText(self)
        self.target = ContextText(self)
        layout.addWidget(self.number, 0, 0)
        layout.addWidget(self.source, 0, 1)
        layout.addWidget(self.target, 0, 2)
        layout.setColumnStretch(1, 1)
        layout.setColumnStretch(2, 1)

    def set_row(self, segment: int, source: str | None, target: str, number_width: int) -> None:
        self.segment = segment
        self.number.setText(str(segment + 1))
        self.number.setFixedWidth(number_width)
        self.source.setVisible(source is not None)
        self.source.set_text(source or "")
        self.target.set_text(target)
        self.setToolTip(
            QCoreApplication.translate("ContextRow", "Segment {0}: click to annotate it").format(
                segment + 1
            )
        )

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:
        if event.button() == Qt.MouseButton.LeftButton and self.segment >= 0:
            self.chosen.emit(self.segment)
        super().mouseReleaseEvent(event)


class DocumentBody(QWidget):
    """The segments and the evidence, as tall as they need to be: the scroll area scrolls when
    their texts need more than the window has, not when the sum of their parts' minimum sizes
    (a legend's or a breakdown's at a sliver of width) does."""

    def minimumSizeHint(self) -> QSize:
        layout = self.layout()
        if layout is None:
            return QSize(0, 0)
        if layout.hasHeightForWidth():
            return QSize(0, layout.totalHeightForWidth(max(1, self.width())))
        return QSize(0, layout.totalSizeHint().height())
