"""TER's shifts and missing words, drawn over a laid-out document (a table cell, a detail view).

The "TER edits" layer (:class:`~core.metrics.ter.TerEditLayer`) gives its marks as ranges:
word formats (:func:`gui.highlight.palette.highlight_format`) paint substitutions, deletions
and words to insert; what a character format cannot show is drawn here, in the document's
coordinates, after the text:

* a shifted phrase (``ter_shift``) gets a bracket over it: a line along the top of its text
  with a tick down at each end (on every line it covers);
* where it moves to (``ter_dest``, an empty range) a small triangle points down into the gap,
  over a thin stem;
* where reference words are missing (``ter_gap``, an empty range) an open proofreader's caret
  sits under the gap.

None of these is a box, an underline or a tint, so they never read as an annotation's error
span, an unmatched word or a match. :func:`ter_tooltip` says in words what the mark under a
character means ("shift 1: “in percent” moved from words 7–8 to words 2–3, before “The”").
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from PySide6.QtCore import QEvent, QObject, QPointF, QRectF, Qt
from PySide6.QtGui import (
    QColor,
    QHelpEvent,
    QPainter,
    QPainterPath,
    QPen,
    QTextDocument,
    QTextLine,
)
from PySide6.QtWidgets import QToolTip, QWidget

from matchlight.core.metrics.base import Range
from matchlight.core.metrics.ter import TER_DEST, TER_GAP, TER_SHIFT, TerEditLayer
from matchlight.core.scoring.detail import RowDetail
from matchlight.core.style.palette import ter_colours
from matchlight.gui.highlight.palette import utf16_offsets

__all__ = [
    "TER_EDITS",
    "TerTooltips",
    "edit_layer",
    "paint_ter_marks",
    "shift_brackets",
    "ter_tooltip",
]

# The key of the "TER edits" highlight mode.
TER_EDITS = TerEditLayer.key
# The halo under every stroke (light theme, dark theme), so a mark reads on any tint.
_HALO = {False: "#ffffff", True: "#101010"}


def edit_layer(detail: RowDetail | None, mode: str) -> TerEditLayer | None:
    """The row's TER edit layer when ``mode`` is "TER edits" and the row has it."""
    if detail is None or mode != TER_EDITS:
        return None
    layer = detail.layer(mode)
    return layer if isinstance(layer, TerEditLayer) else None


def _x_of(line: QTextLine, position: int) -> float:
    result: Any = line.cursorToX(position)
    return float(result[0] if isinstance(result, tuple) else result)


def _line_rects(doc: QTextDocument, start: int, end: int) -> list[QRectF]:
    """One rectangle per line covering UTF-16 positions ``start:end`` (document coordinates)."""
    rects: list[QRectF] = []
    block = doc.findBlock(start)
    while block.isValid() and block.position() < end:
        layout = block.layout()
        if layout is not None:
            origin, base = layout.position(), block.position()
            for i in range(layout.lineCount()):
                line = layout.lineAt(i)
                first = base + line.textStart()
                a, b = max(start, first), min(end, first + line.textLength())
                if a >= b:
                    continue
                x1, x2 = _x_of(line, a - base), _x_of(line, b - base)
                left, right = min(x1, x2), max(x1, x2)
                rects.append(
                    QRectF(origin.x() + left, origin.y() + line.y(), right - left, line.height())
                )
        block = block.next()
    return rects


def _point(doc: QTextDocument, position: int) -> QRectF | None:
    """A zero-wide rectangle a line high at UTF-16 ``position`` (document coordinates)."""
    block = doc.findBlock(position)
    if not block.isValid():
        block = doc.lastBlock()
    layout = block.layout()
    if layout is None or layout.lineCount() == 0:
        return None
    local = max(0, min(position - block.position(), block.length() - 1))
    line = layout.lineForTextPosition(local)
    if not line.isValid():
        line = layout.lineAt(layout.lineCount() - 1)
    origin = layout.position()
    return QRectF(origin.x() + _x_of(line, local), origin.y() + line.y(), 0.0, line.height())


def _gap_point(
    doc: QTextDocument, text: str, offsets: list[int] | None, index: int
) -> QRectF | None:
    """The point of a mark at Python index ``index`` of ``text``: in the middle of the space
    next to it (before or after), so that it sits between two words rather than on a letter."""

    def at(i: int) -> QRectF | None:
        return _point(doc, i if offsets is None else offsets[i])

    point = at(index)
    if point is None:
        return None
    other = None
    if index > 0 and text[index - 1].isspace():
        other = at(index - 1)
    elif index < len(text) and text[index].isspace():
        other = at(index + 1)
    if other is not None and abs(other.top() - point.top()) < 0.5:
        point.moveLeft((point.x() + other.x()) / 2)
    return point


def shift_brackets(doc: QTextDocument, text: str, ranges: Sequence[Range]) -> list[QRectF]:
    """The rectangles (document coordinates) the brackets of the ``ter_shift`` ranges of
    ``text`` (shown in ``doc``) span, one per line of each phrase."""
    offsets = utf16_offsets(text)
    rects: list[QRectF] = []
    for a, b, kind, _ in ranges:
        if kind != TER_SHIFT or a >= b or a >= len(text):
            continue
        b = min(b, len(text))
        if offsets is not None:
            a, b = offsets[a], offsets[b]
        rects += _line_rects(doc, a, b)
    return rects


def paint_ter_marks(
    painter: QPainter, doc: QTextDocument, text: str, ranges: Sequence[Range], dark: bool
) -> int:
    """Draw the shift brackets, destinations and gaps among ``ranges`` (Python indices of
    ``text``, which ``doc`` shows from position 0; marks past its end are skipped); the
    painter is in document coordinates. Returns how many marks were drawn."""
    colours = ter_colours(dark)
    shift, gap = QColor(colours.shift_line), QColor(colours.insertion_line)
    halo = QColor(_HALO[dark])
    offsets = utf16_offsets(text)
    drawn = 0
    painter.save()
    painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
    try:
        for a, b, kind, _ in ranges:
            if kind == TER_SHIFT:
                for rect in shift_brackets(doc, text, [(a, b, kind, 0)]):
                    _bracket(painter, rect, shift, halo)
                    drawn += 1
            elif kind in (TER_DEST, TER_GAP) and a <= len(text):
                point = _gap_point(doc, text, offsets, a)
                if point is None:
                    continue
                if kind == TER_DEST:
                    _destination(painter, point, shift, halo)
                else:
                    _caret(painter, point, gap, halo)
                drawn += 1
    finally:
        painter.restore()
    return drawn


def _stroke(
    painter: QPainter, path: QPainterPath, colour: QColor, halo: QColor, width: float
) -> None:
    painter.setBrush(Qt.BrushStyle.NoBrush)
    painter.setPen(QPen(halo, width + 1.4, Qt.PenStyle.SolidLine, Qt.PenCapStyle.RoundCap))
    painter.drawPath(path)
    painter.setPen(QPen(colour, width, Qt.PenStyle.SolidLine, Qt.PenCapStyle.RoundCap))
    painter.drawPath(path)


def _bracket(painter: QPainter, rect: QRectF, colour: QColor, halo: QColor) -> None:
    """A line along the top of ``rect`` with a tick down at each end."""
    top = rect.top() + 1.0
    tick = max(3.0, rect.height() * 0.3)
    left, right = rect.left() + 0.5, rect.right() - 0.5
    path = QPainterPath()
    path.moveTo(left, top + tick)
    path.lineTo(left, top)
    path.lineTo(right, top)
    path.lineTo(right, top + tick)
    _stroke(painter, path, colour, halo, 1.6)


def _destination(painter: QPainter, point: QRectF, colour: QColor, halo: QColor) -> None:
    """A filled triangle pointing down into the gap from the top of the line, over a stem."""
    x, top = point.x(), point.top()
    size = max(4.5, point.height() * 0.34)
    stem = QPainterPath()
    stem.moveTo(x, top + size)
    stem.lineTo(x, point.bottom() - 1.5)
    _stroke(painter, stem, colour, halo, 1.4)
    head = QPainterPath()
    head.moveTo(x - size, top - 1.5)
    head.lineTo(x + size, top - 1.5)
    head.lineTo(x, top + size)
    head.closeSubpath()
    painter.setPen(QPen(halo, 1.0))
    painter.setBrush(colour)
    painter.drawPath(head)


def _caret(painter: QPainter, point: QRectF, colour: QColor, halo: QColor) -> None:
    """An open caret (a proofreader's "insert here") under the gap, reaching below the line."""
    x, bottom = point.x(), point.bottom() + 1.0
    size = max(3.5, point.height() * 0.28)
    path = QPainterPath()
    path.moveTo(x - size, bottom)
    path.lineTo(x, bottom - size * 1.5)
    path.lineTo(x + size, bottom)
    _stroke(painter, path, colour, halo, 2.0)


def ter_tooltip(detail: RowDetail, system: int, index: int, *, near: int = 1) -> str | None:
    """What the TER edit marks at character ``index`` of ``system``'s output mean: the shifts
    whose phrase covers it or that move to within ``near`` characters of it, the missing
    words of a gap within ``near`` characters, the substituted or deleted word; None when
    there is none (or the row has no TER edit layer)."""
    layer = edit_layer(detail, TER_EDITS)
    if layer is None:
        return None
    lines: list[str] = []
    for a, b, note in layer.notes(system):
        inside = a <= index < b if a < b else abs(index - a) <= near
        if inside and note not in lines:
            lines.append(note)
    return "\n".join(lines) if lines else None


class TerTooltips(QObject):
    """Shows :func:`ter_tooltip` over a text view's viewport (an event filter): ``row()``
    gives the row shown and the current mode's key, ``char_at(point)`` the Python index of
    the character under a viewport point (-1: none)."""

    def __init__(
        self,
        row: Callable[[], tuple[RowDetail | None, str]],
        char_at: Callable[[QPointF], int],
        system: int,
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self._row = row
        self._char_at = char_at
        self._system = system

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() != QEvent.Type.ToolTip or not isinstance(event, QHelpEvent):
            return False
        detail, mode = self._row()
        if edit_layer(detail, mode) is None or detail is None:
            return False
        index = self._char_at(QPointF(event.pos()))
        tip = None if index < 0 else ter_tooltip(detail, self._system, index)
        if tip is None:
            QToolTip.hideText()
            return True
        widget = watched if isinstance(watched, QWidget) else None
        QToolTip.showText(event.globalPos(), tip, widget)
        return True
