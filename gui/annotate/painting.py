"""How error spans look: boxes around the text, drawn over the match highlights.

Matches are shown as background tints and unmatched tokens as underlines (see
:mod:`gui.highlight.palette`), so error spans use neither: each span gets a box around its
characters, one per line it covers, drawn *outside* the line (ascent to descent), so descenders
(g, y, p) are never crossed; an omission (a point between two tokens) gets a caret bar with a
small foot. The encoding is :mod:`core.style.marks`'s, the report's too: severity is the line
weight (critical a double line) with hue as a second cue, status the pattern (solid confirmed,
dotted undecided). Rejected spans are not drawn.

:func:`paint_spans` draws into any laid-out :class:`QTextDocument` (a table cell's, or a
detail-pane view's) given the original line: offsets are code points, converted to Qt's UTF-16
positions with :class:`~core.annotation.offsets.Utf16Index`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QPainter, QPainterPath, QPen, QTextDocument, QTextLine

from matchlight.core.annotation.model import ErrorSpan, Severity, Status
from matchlight.core.annotation.offsets import Utf16Index
from matchlight.core.style.marks import CONFIRMED_LINE, SPAN_MARKS, UNDECIDED_LINE

__all__ = [
    "HALO",
    "SEVERITY_COLORS",
    "SpanStyle",
    "box_rect",
    "caret_rect",
    "paint_spans",
    "range_rects",
    "span_style",
]

# Outline colours per severity, (light theme, dark theme) (:data:`core.style.marks.SPAN_MARKS`).
SEVERITY_COLORS: dict[Severity, tuple[str, str]] = {
    severity: (SPAN_MARKS[severity.value].light, SPAN_MARKS[severity.value].dark)
    for severity in Severity
}

# The halo under every outline (light theme, dark theme): the outline reads on any tint.
HALO: dict[bool, str] = {False: "#ffffff", True: "#101010"}
# How far a box's halo reaches beyond its lines.
HALO_WIDTH = 0.6
_PEN: dict[str, Qt.PenStyle] = {
    CONFIRMED_LINE: Qt.PenStyle.SolidLine,
    UNDECIDED_LINE: Qt.PenStyle.DotLine,
}


@dataclass(frozen=True, slots=True)
class SpanStyle:
    """The outline of one span: colour, width (the whole border, both lines of a double one),
    line style, and whether it is doubled."""

    color: QColor
    width: float
    style: Qt.PenStyle
    double: bool

    @property
    def stroke(self) -> float:
        """The width of one line (a double border is two lines and a gap, a third each)."""
        return self.width / 3 if self.double else self.width


def span_style(span: ErrorSpan, dark: bool) -> SpanStyle | None:
    """How ``span`` is drawn (None: it is not drawn, as a rejected span)."""
    if span.status is Status.REJECTED:
        return None
    mark = SPAN_MARKS[span.severity.value]
    line = UNDECIDED_LINE if span.status is Status.UNDECIDED else CONFIRMED_LINE
    return SpanStyle(QColor(mark.colour(dark)), float(mark.width), _PEN[line], mark.double)


def box_rect(rect: QRectF, style: SpanStyle) -> QRectF:
    """The rectangle the (inner) line of a box around ``rect`` is centred on: the line and
    its halo lie wholly outside ``rect``, so ascent and descent stay inside the box."""
    grow = style.stroke / 2 + HALO_WIDTH
    return rect.adjusted(-1.0 - grow, -grow, 1.0 + grow, grow)


def _x_of(line: QTextLine, position: int) -> float:
    """The x of a cursor before ``position`` (PySide6 returns it with the position)."""
    result: Any = line.cursorToX(position)
    return float(result[0] if isinstance(result, tuple) else result)


def range_rects(doc: QTextDocument, start: int, end: int) -> list[QRectF]:
    """Rectangles (document coordinates) covering UTF-16 positions ``start:end``, one per line."""
    rects: list[QRectF] = []
    if end <= start:
        return rects
    block = doc.findBlock(start)
    while block.isValid() and block.position() < end:
        layout = block.layout()
        if layout is not None:
            origin = layout.position()
            base = block.position()
            for i in range(layout.lineCount()):
                line = layout.lineAt(i)
                first = base + line.textStart()
                last = first + line.textLength()
                a, b = max(start, first), min(end, last)
                if a >= b:
                    continue
                x1 = _x_of(line, a - base)
                x2 = _x_of(line, b - base)
                left, right = min(x1, x2), max(x1, x2)
                rects.append(
                    QRectF(
                        origin.x() + left,
                        origin.y() + line.y(),
                        max(right - left, 2.0),
                        line.height(),
                    )
                )
        block = block.next()
    return rects


def caret_rect(doc: QTextDocument, position: int) -> QRectF | None:
    """A thin rectangle (document coordinates) at UTF-16 ``position``, a line high."""
    block = doc.findBlock(position)
    if not block.isValid():
        block = doc.lastBlock()
    layout = block.layout()
    if layout is None or layout.lineCount() == 0:
        return None
    base = block.position()
    local = max(0, min(position - base, block.length() - 1))
    line = layout.lineForTextPosition(local)
    if not line.isValid():
        line = layout.lineAt(layout.lineCount() - 1)
    x = _x_of(line, local)
    origin = layout.position()
    return QRectF(origin.x() + x, origin.y() + line.y(), 0.0, line.height())


def _outline(painter: QPainter, rect: QRectF, style: SpanStyle, halo: QColor) -> None:
    box = box_rect(rect, style)
    painter.setBrush(Qt.BrushStyle.NoBrush)
    # A solid halo in the background colour under the stroke keeps it visible on any tint.
    painter.setPen(QPen(halo, style.stroke + 2 * HALO_WIDTH, Qt.PenStyle.SolidLine))
    painter.drawRoundedRect(box, 2.0, 2.0)
    pen = QPen(style.color, style.stroke, style.style)
    pen.setCapStyle(Qt.PenCapStyle.FlatCap)
    painter.setPen(pen)
    painter.drawRoundedRect(box, 2.0, 2.0)
    if style.double:
        # The second line is outside the first: the text keeps all the room of its line.
        outer = box.adjusted(
            -2 * style.stroke, -2 * style.stroke, 2 * style.stroke, 2 * style.stroke
        )
        painter.setPen(QPen(halo, style.stroke + 2 * HALO_WIDTH, Qt.PenStyle.SolidLine))
        painter.drawRoundedRect(outer, 3.0, 3.0)
        painter.setPen(pen)
        painter.drawRoundedRect(outer, 3.0, 3.0)


def _caret(painter: QPainter, rect: QRectF, style: SpanStyle, halo: QColor) -> None:
    x = rect.x()
    width = max(style.stroke, 1.8)
    painter.setPen(QPen(halo, width + 1.2))
    painter.drawLine(QPointF(x, rect.top() + 1), QPointF(x, rect.bottom() - 1))
    pen = QPen(style.color, width, style.style)
    painter.setPen(pen)
    painter.drawLine(QPointF(x, rect.top() + 1), QPointF(x, rect.bottom() - 1))
    foot = QPainterPath()
    size = 3.5 if not style.double else 4.5
    foot.moveTo(x - size, rect.bottom())
    foot.lineTo(x + size, rect.bottom())
    foot.lineTo(x, rect.bottom() - size)
    foot.closeSubpath()
    painter.setPen(Qt.PenStyle.NoPen)
    painter.setBrush(style.color)
    painter.drawPath(foot)


def paint_spans(
    painter: QPainter,
    doc: QTextDocument,
    line: str,
    spans: Sequence[ErrorSpan],
    dark: bool,
    *,
    shown: int | None = None,
) -> int:
    """Draw ``spans`` of ``line`` over ``doc`` (which shows ``line``, or its first ``shown``
    characters); the painter is in document coordinates. Returns how many were drawn.

    A span whose offsets do not fit the line (flagged after the file changed) is skipped.
    """
    if not spans:
        return 0
    limit = len(line) if shown is None else min(shown, len(line))
    index = Utf16Index(line[:limit])
    halo = QColor(HALO[dark])
    drawn = 0
    painter.save()
    painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
    try:
        for span in spans:
            style = span_style(span, dark)
            if style is None or span.end > len(line) or line[span.start : span.end] != span.text:
                continue
            if span.start > limit or (span.start == limit and not span.is_omission):
                continue
            a = index.to_utf16(span.start)
            if span.is_omission:
                rect = caret_rect(doc, a)
                if rect is not None:
                    _caret(painter, rect, style, halo)
                    drawn += 1
                continue
            b = index.to_utf16(min(span.end, limit))
            for rect in range_rects(doc, a, b):
                _outline(painter, rect, style, halo)
            drawn += 1
    finally:
        painter.restore()
    return drawn
