"""A text of the row being annotated, as the annotation view shows it: selectable the ways
translators select.

:class:`AnnotatedText` is read-only and as tall as its text (a
:class:`~gui.highlight.fittext.FitText`). It reports what the hand did and
leaves the meaning to the controller: a click on a character (the controller selects the word,
or everything from the first word clicked to this one), a finished drag (the controller widens
it to whole words), the keyboard focus arriving. Ctrl+Left and Ctrl+Right (with Shift to
select) move by the same words a click selects (core's :func:`~core.annotation.offsets.
word_edge`). Positions reported are code points of the text; Qt's are UTF-16 units.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QPointF, Qt, Signal
from PySide6.QtGui import QKeyEvent, QMouseEvent, QTextCursor
from PySide6.QtWidgets import QApplication, QWidget

from matchlight.core.annotation.model import Side
from matchlight.core.annotation.offsets import Utf16Index, word_at, word_edge
from matchlight.core.metrics.base import Range
from matchlight.gui.highlight.fittext import FitText
from matchlight.gui.highlight.palette import DEFAULT_MAX_LEVEL, clip_to, fill_document

__all__ = ["TEXT_LIMIT", "AnnotatedText"]

# Characters of a text shown for annotation; a longer (hostile) line shows its start.
TEXT_LIMIT = 5000


class AnnotatedText(FitText):
    """The output being annotated, or its source.

    Signals:
        clicked(int index): a click without a drag on character ``index`` (code points), or on
            the place with no character after it (``index`` then is the cursor position).
        dragged(): a selection was made by dragging (or Shift+click).
        focused(): the view has the keyboard focus now.
        hovered(int start, int end): the word under the mouse (``start == end``: none).
    """

    clicked = Signal(int)
    dragged = Signal()
    focused = Signal()
    hovered = Signal(int, int)

    def __init__(self, side: Side, parent: QWidget | None = None) -> None:
        super().__init__(parent, margin=4)
        self.side = side
        # The segment and system whose text is shown (None: nothing).
        self.segment: int | None = None
        self.system: int | None = None
        self._text = ""
        self._index = Utf16Index("")
        self._press: QPointF | None = None
        self._hover: tuple[int, int] | None = None
        self.setTabChangesFocus(True)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.viewport().setCursor(Qt.CursorShape.PointingHandCursor)

    # -- content -----------------------------------------------------------------------------------

    def set_text(
        self,
        text: str,
        *,
        segment: int | None,
        system: int | None,
        ranges: list[Range] | None = None,
        dark: bool = False,
        max_level: int = DEFAULT_MAX_LEVEL,
    ) -> None:
        """Show ``text`` (its start beyond :data:`TEXT_LIMIT` characters), with highlight
        ``ranges`` (the metric evidence) or none."""
        text, clipped = clip_to(text, ranges or [], TEXT_LIMIT)
        same = text == self._text and (segment, system) == (self.segment, self.system)
        kept = self.textCursor()
        anchor, position = kept.anchor(), kept.position()
        self.segment, self.system = segment, system
        self._text = text
        self._index = Utf16Index(text)
        self._hover = None
        blocked = self.blockSignals(same)  # the same text again: no selection change to tell
        try:
            fill_document(self.document(), text, clipped, dark=dark, max_level=max_level)
            if same:  # new highlights only: the selection stays
                cursor = self.textCursor()
                cursor.setPosition(anchor)
                cursor.setPosition(position, QTextCursor.MoveMode.KeepAnchor)
                self.setTextCursor(cursor)
        finally:
            self.blockSignals(blocked)
        self.fit_height()

    def plain_text(self) -> str:
        """The text shown."""
        return self._text

    def hovered_word(self) -> tuple[int, int] | None:
        return self._hover

    # -- positions ---------------------------------------------------------------------------------

    def char_at(self, point: QPointF) -> int:
        """The code point under a viewport point, -1 when it is not on a character."""
        layout = self.document().documentLayout()
        position = layout.hitTest(point + self.scroll_offset(), Qt.HitTestAccuracy.ExactHit)
        return self._to_codepoint(position) if position >= 0 else -1

    def cursor_at(self, point: QPointF) -> int:
        """The code-point position of the cursor nearest a viewport point."""
        position = self.cursorForPosition(point.toPoint()).position()
        return max(0, self._to_codepoint(position))

    def point_of(self, index: int) -> QPointF:
        """A viewport point in the middle of character ``index`` (for tests and tooltips)."""
        cursor = QTextCursor(self.document())
        cursor.setPosition(self._index.to_utf16(index))
        left = self.cursorRect(cursor)
        cursor.setPosition(self._index.to_utf16(min(index + 1, len(self._text))))
        right = self.cursorRect(cursor)
        return QPointF((left.left() + right.left()) / 2 + 0.5, left.center().y())

    def _to_codepoint(self, position: int) -> int:
        try:
            return self._index.to_codepoint(position)
        except ValueError:
            return self._index.to_codepoint(position - 1)  # inside a surrogate pair

    # -- the hand ----------------------------------------------------------------------------------

    def mousePressEvent(self, event: QMouseEvent) -> None:
        self._press = event.position() if event.button() == Qt.MouseButton.LeftButton else None
        super().mousePressEvent(event)

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:
        super().mouseReleaseEvent(event)
        press, self._press = self._press, None
        if press is None or event.button() != Qt.MouseButton.LeftButton:
            return
        moved = (event.position() - press).manhattanLength()
        if moved >= QApplication.startDragDistance() or (
            event.modifiers() & Qt.KeyboardModifier.ShiftModifier
        ):
            self.dragged.emit()
            return
        index = self.char_at(event.position())
        self.clicked.emit(index if index >= 0 else self.cursor_at(event.position()))

    def mouseMoveEvent(self, event: QMouseEvent) -> None:
        super().mouseMoveEvent(event)
        index = self.char_at(event.position())
        word = word_at(self._text, index) if index >= 0 else None
        if word is not None and word[0] == word[1]:
            word = None
        if word != self._hover:
            self._hover = word
            self.viewport().update()
            self.hovered.emit(*(word or (-1, -1)))

    def leaveEvent(self, event: QEvent) -> None:
        super().leaveEvent(event)
        if self._hover is not None:
            self._hover = None
            self.viewport().update()
            self.hovered.emit(-1, -1)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        key, mods = event.key(), event.modifiers()
        ctrl = bool(mods & Qt.KeyboardModifier.ControlModifier)
        if ctrl and key in (Qt.Key.Key_Left, Qt.Key.Key_Right):
            cursor = self.textCursor()
            here = self._to_codepoint(cursor.position())
            step = 1 if key == Qt.Key.Key_Right else -1
            there = word_edge(self._text, here, step)
            mode = (
                QTextCursor.MoveMode.KeepAnchor
                if mods & Qt.KeyboardModifier.ShiftModifier
                else QTextCursor.MoveMode.MoveAnchor
            )
            cursor.setPosition(self._index.to_utf16(there), mode)
            self.setTextCursor(cursor)
            return
        super().keyPressEvent(event)

    def focusInEvent(self, event: QEvent) -> None:  # type: ignore[override]
        super().focusInEvent(event)  # type: ignore[arg-type]
        self.focused.emit()

    def utf16(self, index: int) -> int:
        """The Qt position of code point ``index`` of the text shown."""
        return self._index.to_utf16(min(index, len(self._text)))
