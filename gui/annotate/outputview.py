"""The output under annotation as the detail pane shows it: its selection, in code points.

The pane shows each system's output in a text view whose positions are UTF-16 units (Qt's); a
span's offsets are code points of the whole line. These helpers translate between the two, and
only act on a view that shows the current text of the segment in question (a row being replaced
is never annotated by mistake).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from PySide6.QtGui import QTextCursor

from matchlight.core.annotation.offsets import Utf16Index

__all__ = ["TextSelection", "place_cursor", "select_in", "shown_view", "text_selection"]


@dataclass(frozen=True, slots=True)
class TextSelection:
    """What is selected in the output being annotated, in code points of the whole line."""

    segment: int
    system: int
    start: int
    end: int
    line: str

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


def text_selection(view: Any, line: str, segment: int, system: int) -> TextSelection | None:
    """The selection (or the cursor, as an empty selection) in ``view``."""
    cursor = view.textCursor()
    index = Utf16Index(view.plain_text())
    try:
        start = index.to_codepoint(cursor.selectionStart())
        end = index.to_codepoint(cursor.selectionEnd())
    except ValueError:
        return None
    return TextSelection(segment, system, start, end, line)


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
