"""The text under annotation as a view shows it: its selection, in code points.

The detail pane shows each system's output in a text view, and the annotation view shows the
output being annotated and its source; their positions are UTF-16 units (Qt's), a span's
offsets are code points of the whole line. These helpers translate between the two, and only
act on a view that shows the current text of the segment in question (a row being replaced is
never annotated by mistake).

A *surface* is where the annotator selects: :class:`PaneSurface` (the detail pane: outputs
only) or the annotation view. The controller asks the surface in use for the view that shows a
segment's output (or source) now (:meth:`PaneSurface.text_view`) and to put the keyboard there
(:meth:`PaneSurface.focus_text`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtGui import QTextCursor

from matchlight.core.annotation.model import Side
from matchlight.core.annotation.offsets import Utf16Index

__all__ = [
    "PaneSurface",
    "TextSelection",
    "place_cursor",
    "select_in",
    "shown_view",
    "text_selection",
]


@dataclass(frozen=True, slots=True)
class TextSelection:
    """What is selected in the output being annotated (or, ``side`` SOURCE, in its source), in
    code points of the whole line."""

    segment: int
    system: int
    start: int
    end: int
    line: str
    side: Side = Side.TARGET

    @property
    def text(self) -> str:
        return self.line[self.start : self.end]


def shown_view(pane: Any, line: str, system: int, segment: int) -> Any:
    """The pane's view of ``system``'s output when it shows ``segment``'s current ``line``."""
    detail = pane.detail()
    if detail is None or detail.segment != segment:
        return None
    try:
        view = pane.hypothesis_view(system)
    except IndexError:
        return None
    return view if line.startswith(view.plain_text()) else None


def text_selection(
    view: Any, line: str, segment: int, system: int, side: Side = Side.TARGET
) -> TextSelection | None:
    """The selection (or the cursor, as an empty selection) in ``view``."""
    cursor = view.textCursor()
    index = Utf16Index(view.plain_text())
    try:
        start = index.to_codepoint(cursor.selectionStart())
        end = index.to_codepoint(cursor.selectionEnd())
    except ValueError:
        return None
    return TextSelection(segment, system, start, end, line, side)


def place_cursor(view: Any, at: int) -> None:
    """Put the cursor at code point ``at`` (nothing selected)."""
    shown = view.plain_text()
    cursor = view.textCursor()
    cursor.setPosition(Utf16Index(shown).to_utf16(min(at, len(shown))))
    view.setTextCursor(cursor)


def select_in(view: Any, start: int, end: int) -> None:
    """Select code points ``start:end`` of the shown text."""
    shown = view.plain_text()
    index = Utf16Index(shown)
    cursor = view.textCursor()
    cursor.setPosition(index.to_utf16(min(start, len(shown))))
    cursor.setPosition(index.to_utf16(min(end, len(shown))), QTextCursor.MoveMode.KeepAnchor)
    view.setTextCursor(cursor)


class PaneSurface:
    """The detail pane as the place to select in: every system's output, no source."""

    def __init__(self, pane: Any) -> None:
        self.pane = pane

    def text_view(self, segment: int, system: int, side: Side, line: str) -> Any:
        """The pane's view of ``system``'s output when it shows ``segment``'s ``line``."""
        if side is not Side.TARGET:
            return None
        return shown_view(self.pane, line, system, segment)

    def focus_text(self, system: int, side: Side) -> bool:
        """The keyboard to ``system``'s output, scrolled into view; False for the source."""
        if side is not Side.TARGET:
            return False
        try:
            view = self.pane.hypothesis_view(system)
        except IndexError:
            return False
        self.pane.reveal_hypothesis(system)
        view.setFocus(Qt.FocusReason.ShortcutFocusReason)
        return True
