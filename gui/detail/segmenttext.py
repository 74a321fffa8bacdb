"""The detail pane's text views: one segment (source, a reference or an output) each, with its
highlights, as tall as its text, reporting which character the mouse is over; and the section
that captions one (with, under an output, its score breakdown)."""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import QCoreApplication, QEvent, QPointF, Qt, Signal
from PySide6.QtGui import QMouseEvent, QTextCursor
from PySide6.QtWidgets import QLabel, QTextEdit, QVBoxLayout, QWidget

from matchlight.core.metrics.base import Range
from matchlight.gui.detail.breakdown import BreakdownView
from matchlight.gui.highlight.fittext import FitText
from matchlight.gui.highlight.palette import (
    DEFAULT_MAX_LEVEL,
    apply_selection_colours,
    clip_to,
    fill_document,
    highlight_format,
    python_index,
    utf16_offsets,
)

__all__ = ["VIEW_TEXT_LIMIT", "Section", "SegmentText"]

# Characters of a text shown in a view of the pane. Laying out a very long line holds the
# window each time its row is shown; the start of such a text is what anyone reads, and the
# caption says how much is shown.
VIEW_TEXT_LIMIT = 2000

Span = tuple[int, int]


class SegmentText(FitText):
    """A read-only view of one segment that grows to fit its text and reports hovering.

    Signals:
        hovered(int index): the mouse is over character ``index`` (Python index into the
            text), or -1 when it is not over any character.
    """

    hovered = Signal(int)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent, margin=3)
        self._text = ""
        self._full_length = 0
        self._ranges: list[Range] = []
        self._dark = False

    def plain_text(self) -> str:
        """The text shown (the start of a text longer than :data:`VIEW_TEXT_LIMIT`)."""
        return self._text

    def full_length(self) -> int:
        """Characters of the whole text, shown or not."""
        return self._full_length

    def truncation_note(self) -> str:
        """`` (first N of M characters shown)`` for a cut text, else ``""``."""
        if self._full_length <= len(self._text):
            return ""
        return QCoreApplication.translate(
            "DetailPane", " (first {0:,} of {1:,} characters shown)"
        ).format(len(self._text), self._full_length)

    def ranges(self) -> list[Range]:
        return list(self._ranges)

    def set_content(
        self, text: str, ranges: list[Range], dark: bool, max_level: int = DEFAULT_MAX_LEVEL
    ) -> None:
        """Show ``text`` with ``ranges``; beyond :data:`VIEW_TEXT_LIMIT` characters, its start."""
        self._full_length = len(text)
        text, ranges = clip_to(text, ranges, VIEW_TEXT_LIMIT)
        self._text = text
        self._ranges = ranges
        self._dark = dark
        fill_document(self.document(), text, ranges, dark=dark, max_level=max_level)
        apply_selection_colours(self, dark)
        self.setExtraSelections([])
        self.fit_height()

    def mark(self, spans: Sequence[Span]) -> None:
        """Overlay the "link" format on ``spans`` (Python indices); [] removes it."""
        offsets = utf16_offsets(self._text)
        selections = []
        fmt = highlight_format("link", 0, self._dark)
        shown = len(self._text)
        for start, end in ((a, min(b, shown)) for a, b in spans if a < shown):
            a, b = (start, end) if offsets is None else (offsets[start], offsets[end])
            selection = QTextEdit.ExtraSelection()
            cursor = QTextCursor(self.document())
            cursor.setPosition(a)
            cursor.setPosition(b, QTextCursor.MoveMode.KeepAnchor)
            selection.cursor = cursor  # type: ignore[attr-defined]
            selection.format = fmt  # type: ignore[attr-defined]
            selections.append(selection)
        self.setExtraSelections(selections)

    def char_at(self, point: QPointF) -> int:
        """Python index of the character under a viewport point, -1 if none."""
        offset = self.scroll_offset()
        position = (
            self.document().documentLayout().hitTest(point + offset, Qt.HitTestAccuracy.ExactHit)
        )
        if position < 0 or not self._text:
            return -1
        index = python_index(self._text, position)
        return index if 0 <= index < len(self._text) else -1

    def point_of(self, index: int) -> QPointF:
        """Viewport point in the middle of character ``index`` (for tests and tooltips)."""
        offsets = utf16_offsets(self._text)
        pos = index if offsets is None else offsets[index]
        cursor = QTextCursor(self.document())
        cursor.setPosition(pos)
        left = self.cursorRect(cursor)
        cursor.setPosition(pos + 1)
        right = self.cursorRect(cursor)
        return QPointF((left.left() + right.left()) / 2 + 0.5, left.center().y())

    def mouseMoveEvent(self, event: QMouseEvent) -> None:
        super().mouseMoveEvent(event)
        self.hovered.emit(self.char_at(event.position()))

    def leaveEvent(self, event: QEvent) -> None:
        super().leaveEvent(event)
        self.hovered.emit(-1)


class Section(QWidget):
    """A caption, a segment view and (for outputs) the breakdown."""

    def __init__(self, parent: QWidget | None = None, *, with_breakdown: bool = False) -> None:
        super().__init__(parent)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 4, 0, 4)
        layout.setSpacing(2)
        self.caption = QLabel(self)
        self.caption.setTextFormat(Qt.TextFormat.PlainText)
        self.caption.setWordWrap(True)
        font = self.caption.font()
        font.setBold(True)
        self.caption.setFont(font)
        self.view = SegmentText(self)
        layout.addWidget(self.caption)
        layout.addWidget(self.view)
        self.breakdown: BreakdownView | None = None
        if with_breakdown:
            self.breakdown = BreakdownView(self)
            layout.addWidget(self.breakdown)
