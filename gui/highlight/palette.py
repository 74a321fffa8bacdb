"""Colours and character formats for match highlighting, and the legend that explains them.

The palette is colour-blind safe by construction:

* matched n-gram orders 1..4+ are one sequential blue ramp (ColorBrewer "Blues" in light themes,
  a dark-to-bright blue ramp in dark themes), so the order reads as *lightness*, which survives
  every kind of colour blindness and greyscale printing;
* "unmatched" hypothesis tokens are not coloured at all: they get a wavy vermillion underline
  (a shape, not a hue);
* reference tokens that *no* system matched get an orange tint *and* a dashed underline, on the
  blue/orange axis that protanopes and deuteranopes still tell apart;
* ROUGE-L LCS tokens get a bluish-green tint with a solid underline;
* the hover "link" (detail pane) is a yellow tint with a thick underline.

Every tinted token carries an explicit foreground chosen for contrast with its tint (WCAG AA,
at least 4.5:1; checked by the tests), so it stays readable on a selected row too. Untinted text
keeps the palette's own text colour.

Also here, because the delegate, the detail pane and the legend all need them:
:func:`build_document` (plain text + highlight ranges -> :class:`QTextDocument`, built with
:class:`QTextCursor` and :class:`QTextCharFormat`, never with HTML) and the Python-index to
UTF-16 conversion that it relies on.
"""

from __future__ import annotations

from collections.abc import Iterable

from PySide6.QtCore import QEvent, QPointF, QRectF, QSize
from PySide6.QtGui import (
    QAbstractTextDocumentLayout,
    QColor,
    QFont,
    QPainter,
    QPaintEvent,
    QPalette,
    QTextCharFormat,
    QTextCursor,
    QTextDocument,
    QTextOption,
)
from PySide6.QtWidgets import QSizePolicy, QWidget

#: Highlight kinds understood by :func:`highlight_format`.
KINDS: tuple[str, ...] = ("bleu", "unmatched", "missed", "lcs", "link")
#: The highest n-gram order that gets its own shade; higher orders share it ("4+").
MAX_SHADED_ORDER = 4

#: (start, end, kind, level): a highlight range in Python string indices of the original text.
Range = tuple[int, int, str, int]

_ORDER_TINTS = {
    False: ("#dbe9f6", "#a9cde8", "#6fa8d6", "#3a7fc1"),
    True: ("#1f3d60", "#22507f", "#24609d", "#2770b5"),
}
_TINT_TEXT = {False: "#111111", True: "#f2f2f2"}
_UNMATCHED_LINE = {False: "#d55e00", True: "#ff8c42"}
_MISSED_TINT = {False: "#fcd3a8", True: "#5c3510"}
_MISSED_LINE = {False: "#b34700", True: "#ffa55c"}
_LCS_TINT = {False: "#c6ebd9", True: "#174a38"}
_LCS_LINE = {False: "#007a59", True: "#3fd0a0"}
_LINK_TINT = {False: "#ffe066", True: "#7a6200"}
_LINK_LINE = {False: "#8a6d00", True: "#ffe066"}


def is_dark_palette(palette: QPalette) -> bool:
    """True when the palette's base (text background) is dark."""
    return palette.color(QPalette.ColorRole.Base).lightnessF() < 0.5


def order_tint(level: int, dark: bool) -> QColor:
    """Background tint of a token whose highest matched n-gram order is ``level`` (>= 1)."""
    if level < 1:
        raise ValueError(f"matched order must be at least 1, not {level}")
    return QColor(_ORDER_TINTS[dark][min(level, MAX_SHADED_ORDER) - 1])


def highlight_format(kind: str, level: int, dark: bool) -> QTextCharFormat:
    """The character format of one highlighted token.

    ``kind`` is one of :data:`KINDS`; ``level`` is the matched order for ``"bleu"`` (1..N, orders
    above 4 share the darkest shade) and ignored otherwise.
    """
    fmt = QTextCharFormat()
    if kind == "bleu":
        fmt.setBackground(order_tint(level, dark))
        fmt.setForeground(QColor(_TINT_TEXT[dark]))
    elif kind == "unmatched":
        fmt.setUnderlineStyle(QTextCharFormat.UnderlineStyle.WaveUnderline)
        fmt.setUnderlineColor(QColor(_UNMATCHED_LINE[dark]))
    elif kind == "missed":
        fmt.setBackground(QColor(_MISSED_TINT[dark]))
        fmt.setForeground(QColor(_TINT_TEXT[dark]))
        fmt.setUnderlineStyle(QTextCharFormat.UnderlineStyle.DashUnderline)
        fmt.setUnderlineColor(QColor(_MISSED_LINE[dark]))
    elif kind == "lcs":
        fmt.setBackground(QColor(_LCS_TINT[dark]))
        fmt.setForeground(QColor(_TINT_TEXT[dark]))
        fmt.setUnderlineStyle(QTextCharFormat.UnderlineStyle.SingleUnderline)
        fmt.setUnderlineColor(QColor(_LCS_LINE[dark]))
    elif kind == "link":
        fmt.setBackground(QColor(_LINK_TINT[dark]))
        fmt.setForeground(QColor(_TINT_TEXT[dark]))
        fmt.setUnderlineStyle(QTextCharFormat.UnderlineStyle.SingleUnderline)
        fmt.setUnderlineColor(QColor(_LINK_LINE[dark]))
    else:
        raise ValueError(f"unknown highlight kind {kind!r}; expected one of {', '.join(KINDS)}")
    return fmt


def contrast_ratio(a: QColor, b: QColor) -> float:
    """WCAG contrast ratio of two colours (1 to 21)."""

    def luminance(c: QColor) -> float:
        def channel(v: float) -> float:
            return v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4

        return (
            0.2126 * channel(c.redF()) + 0.7152 * channel(c.greenF()) + 0.0722 * channel(c.blueF())
        )

    hi, lo = sorted((luminance(a), luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


# -- documents ----------------------------------------------------------------------------------

#: Characters that would break a one-line table cell, each shown as one visible stand-in, so that
#: character offsets stay exactly the same.
_BREAKS = str.maketrans(
    {
        "\n": "\u21b5",
        "\r": "\u21b5",
        "\u2028": "\u21b5",
        "\u2029": "\u00b6",
        "\u0085": "\u21b5",
        "\v": "\u21b5",
        "\f": "\u21b5",
    }
)


def visible_breaks(text: str) -> str:
    """``text`` with line and paragraph breaks replaced one-for-one by visible symbols."""
    return text.translate(_BREAKS)


def clip_to(text: str, ranges: Iterable[Range], limit: int) -> tuple[str, list[Range]]:
    """The first ``limit`` characters of ``text`` and the parts of ``ranges`` inside them.

    A cell or a view shows the start of a huge line (hostile input) rather than laying it all
    out.
    """
    if len(text) <= limit:
        return text, list(ranges)
    return text[:limit], [(a, min(b, limit), k, n) for a, b, k, n in ranges if a < limit]


def utf16_offsets(text: str) -> list[int] | None:
    """UTF-16 position of every Python index ``0..len(text)``, or None when they are equal.

    Qt counts positions in UTF-16 code units; Python in code points. They differ after every
    character outside the Basic Multilingual Plane (emoji, rare CJK), which takes two units.
    """
    if text.isascii() or len(text.encode("utf-16-le")) == 2 * len(text):
        return None
    offsets = [0] * (len(text) + 1)
    pos = 0
    for i, ch in enumerate(text):
        offsets[i] = pos
        pos += 2 if ord(ch) > 0xFFFF else 1
    offsets[len(text)] = pos
    return offsets


def python_index(text: str, utf16_position: int) -> int:
    """Python index of the character at a Qt (UTF-16) position of ``text``."""
    offsets = utf16_offsets(text)
    if offsets is None:
        return utf16_position
    for i, pos in enumerate(offsets):
        if pos >= utf16_position:
            return i if pos == utf16_position else i - 1
    return len(text)


def apply_ranges(
    doc: QTextDocument, text: str, ranges: Iterable[Range], dark: bool, offset: int = 0
) -> None:
    """Merge the formats of ``ranges`` (Python indices of ``text``) into ``doc``.

    ``text`` must start at document position ``offset``.
    """
    offsets = utf16_offsets(text)
    cursor = QTextCursor(doc)
    formats: dict[tuple[str, int], QTextCharFormat] = {}
    # One edit block: outside one, every setPosition lays out the block again to place the
    # cursor, after every merge. That is quadratic in the length of a line: 1,000 ranges on
    # a 6,000-word line took 0.6 s in a bare document and 6 s in a text view; 7 ms in a block.
    cursor.beginEditBlock()
    try:
        for start, end, kind, level in ranges:
            if end <= start:
                continue
            key = (kind, level)
            fmt = formats.get(key)
            if fmt is None:
                fmt = formats[key] = highlight_format(kind, level, dark)
            a, b = (start, end) if offsets is None else (offsets[start], offsets[end])
            cursor.setPosition(offset + a)
            cursor.setPosition(offset + b, QTextCursor.MoveMode.KeepAnchor)
            cursor.mergeCharFormat(fmt)
    finally:
        cursor.endEditBlock()


def build_document(
    text: str,
    ranges: Iterable[Range],
    *,
    dark: bool,
    font: QFont | None = None,
    one_line: bool = False,
    margin: float = 0.0,
) -> QTextDocument:
    """A document holding ``text`` verbatim with the highlight ``ranges`` applied.

    The text goes in through :meth:`QTextCursor.insertText`, so ``<``, ``&``, tabs, RTL scripts and
    every other character are shown as they are; nothing is parsed as markup. With ``one_line``
    the line/paragraph breaks inside the segment are shown as visible symbols (offsets unchanged).
    """
    doc = QTextDocument()
    doc.setUndoRedoEnabled(False)
    doc.setDocumentMargin(margin)
    if font is not None:
        doc.setDefaultFont(font)
    option = doc.defaultTextOption()
    option.setWrapMode(QTextOption.WrapMode.WrapAtWordBoundaryOrAnywhere)
    doc.setDefaultTextOption(option)
    fill_document(doc, text, ranges, dark=dark, one_line=one_line)
    return doc


def fill_document(
    doc: QTextDocument,
    text: str,
    ranges: Iterable[Range],
    *,
    dark: bool,
    one_line: bool = False,
) -> None:
    """Replace the content of ``doc`` with ``text`` and the highlight ``ranges``."""
    doc.clear()
    shown = visible_breaks(text) if one_line else text
    cursor = QTextCursor(doc)
    cursor.setCharFormat(QTextCharFormat())
    # insertText turns "\n" into a paragraph break: one position each, so offsets still agree.
    cursor.insertText(shown)
    apply_ranges(doc, text, ranges, dark)


# -- legend -------------------------------------------------------------------------------------


def legend_entries(mode: str, max_order: int = 4) -> list[tuple[str, str, int]]:
    """(label, kind, level) of every legend entry of a view mode ("bleu" or "lcs")."""
    if mode == "bleu":
        shades = min(max_order, MAX_SHADED_ORDER)
        entries = []
        for n in range(1, shades + 1):
            plus = "+" if n == MAX_SHADED_ORDER and max_order > MAX_SHADED_ORDER else ""
            entries.append((f"{n}{plus}-gram", "bleu", n))
        entries.append(("unmatched", "unmatched", 0))
        entries.append(("missed by all systems", "missed", 0))
        return entries
    if mode == "lcs":
        return [("in the ROUGE-L LCS", "lcs", 1)]
    raise ValueError(f"unknown view mode {mode!r}; expected 'bleu' or 'lcs'")


class LegendWidget(QWidget):
    """One line explaining the highlights of the current view mode.

    Each label is itself drawn in the format it explains, so the legend looks exactly like the
    text it describes.
    """

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._mode = "bleu"
        self._max_order = 4
        self._dark: bool | None = None  # None: follow the palette
        self._doc: QTextDocument | None = None
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Fixed)

    # -- public API --

    def mode(self) -> str:
        return self._mode

    def set_mode(self, mode: str) -> None:
        legend_entries(mode)  # validates
        self._mode = mode
        self._rebuild()

    def set_max_order(self, max_order: int) -> None:
        self._max_order = max_order
        self._rebuild()

    def set_dark(self, dark: bool | None) -> None:
        """Force the dark/light tints, or follow the palette with None."""
        self._dark = dark
        self._rebuild()

    def is_dark(self) -> bool:
        return is_dark_palette(self.palette()) if self._dark is None else self._dark

    def text(self) -> str:
        """The legend as plain text (for tests and accessibility)."""
        return self._document().toPlainText()

    def entries(self) -> list[tuple[str, str, int]]:
        return legend_entries(self._mode, self._max_order)

    # -- painting --

    def _rebuild(self) -> None:
        self._doc = None
        self.updateGeometry()
        self.update()

    def _document(self) -> QTextDocument:
        if self._doc is None:
            prefix = "Matched n-gram order:  " if self._mode == "bleu" else ""
            text = prefix
            ranges: list[Range] = []
            for label, kind, level in self.entries():
                if text and not text.endswith("  "):
                    text += "   "
                ranges.append((len(text), len(text) + len(label), kind, level))
                text += label
            doc = build_document(text, ranges, dark=self.is_dark(), font=self.font())
            doc.setTextWidth(-1)
            self._doc = doc
            self.setAccessibleName(f"Legend: {text}")
            self.setToolTip(
                "Hypothesis tokens are shaded by the longest matched n-gram they are part of; "
                "reference tokens by the longest n-gram matched in them."
                if self._mode == "bleu"
                else "Tokens of the longest common subsequence (ROUGE-L) of hypothesis and "
                "reference."
            )
        return self._doc

    def sizeHint(self) -> QSize:
        size = self._document().size()
        return QSize(int(size.width()) + 8, int(size.height()) + 4)

    def minimumSizeHint(self) -> QSize:
        return QSize(40, self.sizeHint().height())

    def changeEvent(self, event: QEvent) -> None:
        if event.type() in (QEvent.Type.PaletteChange, QEvent.Type.FontChange):
            self._rebuild()
        super().changeEvent(event)

    def paintEvent(self, event: QPaintEvent) -> None:
        doc = self._document()
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.TextAntialiasing)
        ctx_palette = self.palette()
        painter.translate(QPointF(4, (self.height() - doc.size().height()) / 2))
        painter.setClipRect(QRectF(0, 0, self.width() - 4, self.height()))
        painter.setPen(ctx_palette.color(QPalette.ColorRole.WindowText))
        layout = doc.documentLayout()
        ctx = QAbstractTextDocumentLayout.PaintContext()
        ctx.palette.setColor(
            QPalette.ColorRole.Text, ctx_palette.color(QPalette.ColorRole.WindowText)
        )
        layout.draw(painter, ctx)
        painter.end()


__all__ = [
    "KINDS",
    "MAX_SHADED_ORDER",
    "LegendWidget",
    "Range",
    "apply_ranges",
    "build_document",
    "clip_to",
    "contrast_ratio",
    "fill_document",
    "highlight_format",
    "is_dark_palette",
    "legend_entries",
    "order_tint",
    "python_index",
    "utf16_offsets",
    "visible_breaks",
]
