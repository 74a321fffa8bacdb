"""Colours and character formats for match highlighting, and the legend that explains them.

The palette is colour-blind safe by construction:

* matched levels (n-gram orders 1..a mode's ``max_level``) are one sequential blue ramp, so the
  level reads as *lightness*, which survives every kind of colour blindness and greyscale
  printing. A mode's levels are spread over the whole ramp (:func:`order_tint`), so adjacent
  levels stay far apart in colour difference (CIEDE2000, tested) whether a mode has 4 levels
  (BLEU) or 6 (chrF);
* "unmatched" tokens are not coloured at all: they get a wavy vermillion underline (a shape,
  not a hue);
* reference text that *no* system matched gets an orange tint *and* a dashed underline, on the
  blue/orange axis that protanopes and deuteranopes still tell apart;
* ROUGE-L LCS tokens get a bluish-green tint with a solid underline;
* the hover "link" (detail pane) is a yellow tint with an underline;
* selected text (:func:`selection_colours`) is an inverted band, far from every tint;
* against the baseline (a chosen system's reference matches, see
  :mod:`core.scoring.contrast`), a "gain" (matched by the system, not by the baseline) is bold
  and underlined in its match tint's own text colour, and a "loss" (matched by the baseline, not
  by the system) a reddish-purple tint, struck through.

Every tinted token carries an explicit foreground chosen for contrast with its tint (WCAG AA,
at least 4.5:1; tested): dark text on pale tints, light text on deep ones, so it stays readable
on a selected row too. Untinted text keeps the palette's own text colour.

The colours and their arithmetic (CIELAB ramp, WCAG contrast) are :mod:`core.style.palette`'s,
shared with the HTML report; this module only turns them into ``QColor`` and
``QTextCharFormat``.

Also here, because the delegate, the detail pane and the legend all need them:
:func:`build_document` (plain text + highlight ranges -> :class:`QTextDocument`, built with
:class:`QTextCursor` and :class:`QTextCharFormat`, never with HTML) and the Python-index to
UTF-16 conversion that it relies on.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication, QEvent, QPointF, QRectF, QSize
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

from matchlight.core.metrics.base import HighlightMode, Range
from matchlight.core.metrics.ter import TER_EDIT_KINDS
from matchlight.core.style import marks
from matchlight.core.style import palette as colours
from matchlight.core.style.palette import DEFAULT_MAX_LEVEL, MIN_TEXT_CONTRAST

# Highlight kinds understood by :func:`highlight_format`: core's range kinds, the hover link, and
# the marks of a system against the baseline (:data:`core.scoring.contrast.CONTRAST_KINDS`).
KINDS: tuple[str, ...] = (
    *("match", "unmatched", "missed", "lcs", "link", "gain", "loss"),
    *TER_EDIT_KINDS,
)


def is_dark_palette(palette: QPalette) -> bool:
    """True when the palette's base (text background) is dark."""
    return palette.color(QPalette.ColorRole.Base).lightnessF() < 0.5


def _rgb(color: QColor) -> colours.RGB:
    return color.redF(), color.greenF(), color.blueF()


def to_lab(color: QColor) -> tuple[float, float, float]:
    """CIELAB (D65) of an sRGB colour."""
    return colours.to_lab(_rgb(color))


def relative_luminance(color: QColor) -> float:
    """WCAG relative luminance of an sRGB colour (0 black to 1 white)."""
    return colours.relative_luminance(_rgb(color))


def contrast_ratio(a: QColor, b: QColor) -> float:
    """WCAG contrast ratio of two colours (1 to 21)."""
    return colours.contrast_ratio(_rgb(a), _rgb(b))


def order_tint(level: int, dark: bool, max_level: int = DEFAULT_MAX_LEVEL) -> QColor:
    """Background tint of a ``match`` at ``level`` (1..``max_level``) in a mode of ``max_level``
    levels; higher levels are shown as ``max_level``."""
    return QColor(colours.match_tint(level, max_level, dark=dark))


def tint_text(tint: QColor) -> QColor:
    """The text colour on ``tint``: dark or light, whichever contrasts more."""
    return QColor(colours.tint_text(_rgb(tint)))


def highlight_format(
    kind: str, level: int, dark: bool, max_level: int = DEFAULT_MAX_LEVEL
) -> QTextCharFormat:
    """The character format of one highlighted range.

    ``kind`` is one of :data:`KINDS`; ``level`` is the matched level of a ``"match"`` (1..N of a
    mode with ``max_level`` N; see :func:`order_tint`) and ignored otherwise. ``gain`` and
    ``loss`` are marks merged over a layer's own formats: a gain keeps the tint under it.
    """
    if kind != "match":
        level = max_level = 0
    return QTextCharFormat(_format(kind, level, dark, max_level))  # a copy: formats are mutable


@lru_cache(maxsize=256)
def _format(kind: str, level: int, dark: bool, max_level: int) -> QTextCharFormat:
    """The format of :func:`highlight_format`, made once (every cell's document asks again)."""
    if kind in TER_EDIT_KINDS:
        return _ter_format(kind, dark)
    theme = colours.theme(dark)
    fmt = QTextCharFormat()
    if kind == "match":
        tint = order_tint(level, dark, max_level)
        fmt.setBackground(tint)
        fmt.setForeground(tint_text(tint))
    elif kind == "unmatched":
        fmt.setUnderlineStyle(QTextCharFormat.UnderlineStyle.WaveUnderline)
        fmt.setUnderlineColor(QColor(theme.unmatched_line))
    elif kind == "missed":
        fmt.setBackground(QColor(theme.missed_tint))
        fmt.setForeground(QColor(theme.fixed_text))
        fmt.setUnderlineStyle(QTextCharFormat.UnderlineStyle.DashUnderline)
        fmt.setUnderlineColor(QColor(theme.missed_line))
    elif kind == "lcs":
        fmt.setBackground(QColor(theme.lcs_tint))
        fmt.setForeground(QColor(theme.fixed_text))
        fmt.setUnderlineStyle(QTextCharFormat.UnderlineStyle.SingleUnderline)
        fmt.setUnderlineColor(QColor(theme.lcs_line))
    elif kind == "link":
        fmt.setBackground(QColor(theme.link_tint))
        fmt.setForeground(QColor(theme.fixed_text))
        fmt.setUnderlineStyle(QTextCharFormat.UnderlineStyle.SingleUnderline)
        fmt.setUnderlineColor(QColor(theme.link_line))
    elif kind == "gain":
        # Over a match tint: an underline with no colour of its own is drawn in the text's
        # colour, which keeps its contrast with every tint (an LCS token's green line included).
        fmt.setFontWeight(QFont.Weight.Bold)
        fmt.setUnderlineStyle(QTextCharFormat.UnderlineStyle.SingleUnderline)
        fmt.setUnderlineColor(QColor())
    elif kind == "loss":
        # Over an unmatched token: its tint replaces the wavy "unmatched" line. Qt draws the
        # strike-through in the underline colour when there is one.
        fmt.setBackground(QColor(theme.loss_tint))
        fmt.setForeground(QColor(theme.fixed_text))
        fmt.setFontStrikeOut(True)
        fmt.setUnderlineStyle(QTextCharFormat.UnderlineStyle.NoUnderline)
        fmt.setUnderlineColor(QColor(theme.loss_line))
    else:
        raise ValueError(f"unknown highlight kind {kind!r}; expected one of {', '.join(KINDS)}")
    return fmt


def selection_colours(dark: bool) -> tuple[QColor, QColor]:
    """(band, text) of selected text over highlighted text (:data:`core.style.marks.SELECTION`):
    an inverted band far from every match tint, where the style's blue selection vanished into
    the blue ramp."""
    selection = marks.SELECTION[dark]
    return QColor(selection.background), QColor(selection.text)


def apply_selection_colours(widget: QWidget, dark: bool) -> None:
    """Give ``widget``, a text view showing highlights, the :func:`selection_colours`."""
    band, text = selection_colours(dark)
    palette = widget.palette()
    for group in (QPalette.ColorGroup.Active, QPalette.ColorGroup.Inactive):
        palette.setColor(group, QPalette.ColorRole.Highlight, band)
        palette.setColor(group, QPalette.ColorRole.HighlightedText, text)
    widget.setPalette(palette)


# -- documents ----------------------------------------------------------------------------------

# Characters that would break a one-line table cell, each shown as one visible stand-in, so that
# character offsets stay exactly the same.
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
    doc: QTextDocument,
    text: str,
    ranges: Iterable[Range],
    dark: bool,
    offset: int = 0,
    *,
    max_level: int = DEFAULT_MAX_LEVEL,
) -> None:
    """Merge the formats of ``ranges`` (Python indices of ``text``) into ``doc``.

    ``text`` must start at document position ``offset``; ``max_level`` is the mode's (it picks
    the tints of ``match`` levels).
    """
    offsets = utf16_offsets(text)
    cursor = QTextCursor(doc)
    formats: dict[tuple[str, int], QTextCharFormat] = {}
    # One edit block: outside one, every setPosition lays the block out again to place the
    # cursor, after every merge, which is quadratic in the length of a line.
    cursor.beginEditBlock()
    try:
        for start, end, kind, level in ranges:
            if end <= start:
                continue
            key = (kind, level)
            fmt = formats.get(key)
            if fmt is None:
                fmt = formats[key] = highlight_format(kind, level, dark, max_level)
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
    max_level: int = DEFAULT_MAX_LEVEL,
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
    fill_document(doc, text, ranges, dark=dark, max_level=max_level, one_line=one_line)
    return doc


def fill_document(
    doc: QTextDocument,
    text: str,
    ranges: Iterable[Range],
    *,
    dark: bool,
    max_level: int = DEFAULT_MAX_LEVEL,
    one_line: bool = False,
) -> None:
    """Replace the content of ``doc`` with ``text`` and the highlight ``ranges``."""
    doc.clear()
    shown = visible_breaks(text) if one_line else text
    cursor = QTextCursor(doc)
    cursor.setCharFormat(QTextCharFormat())
    # insertText turns "\n" into a paragraph break: one position each, so offsets still agree.
    cursor.insertText(shown)
    apply_ranges(doc, text, ranges, dark, max_level=max_level)


# -- legend -------------------------------------------------------------------------------------

# The kinds an n-gram layer paints; what a legend shows when it is not told.
NGRAM_KINDS: tuple[str, ...] = ("match", "unmatched", "missed")


def legend_entries(
    mode: HighlightMode,
    kinds: Iterable[str] | None = None,
    contrast: tuple[str, str] | None = None,
) -> list[tuple[str, str, int]]:
    """(label, kind, level) of every legend entry of ``mode``.

    ``kinds`` are the range kinds the mode's layer paints (:data:`NGRAM_KINDS` when None); a
    ``match`` gets one entry per level, 1..``mode.max_level``. ``contrast`` names the system and
    the baseline that ``gain`` and ``loss`` compare.
    """
    wanted = set(NGRAM_KINDS if kinds is None else kinds)
    unknown = wanted - set(KINDS)
    if unknown:
        raise ValueError(f"unknown highlight kinds {sorted(unknown)}; expected {', '.join(KINDS)}")
    entries: list[tuple[str, str, int]] = []
    if "match" in wanted:
        entries += [(f"{n}-gram", "match", n) for n in range(1, mode.max_level + 1)]
    if "lcs" in wanted:
        entries.append(
            (
                QCoreApplication.translate("palette", "in the longest common subsequence"),
                "lcs",
                1,
            )
        )
    if "unmatched" in wanted:
        entries.append((QCoreApplication.translate("palette", "unmatched"), "unmatched", 0))
    if "missed" in wanted:
        entries.append(
            (
                QCoreApplication.translate("palette", "missed by all systems"),
                "missed",
                0,
            )
        )
    system, baseline = (
        contrast
        if contrast is not None
        else (
            QCoreApplication.translate("palette", "this system"),
            QCoreApplication.translate("palette", "the baseline"),
        )
    )
    if "gain" in wanted:
        entries.append(
            (
                QCoreApplication.translate(
                    "palette", "matched by {system}, not by {baseline}"
                ).format(system=system, baseline=baseline),
                "gain",
                0,
            )
        )
    if "loss" in wanted:
        entries.append(
            (
                QCoreApplication.translate(
                    "palette", "matched by {baseline}, not by {system}"
                ).format(baseline=baseline, system=system),
                "loss",
                0,
            )
        )
    entries += ter_legend_entries(wanted)
    return entries


class LegendWidget(QWidget):
    """A line explaining the highlights of the current mode (empty without one); it wraps
    when the widget is narrower than the line.

    Each label is itself drawn in the format it explains, so the legend looks exactly like the
    text it describes.
    """

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._mode: HighlightMode | None = None
        self._kinds: tuple[str, ...] | None = None
        self._contrast: tuple[str, str] | None = None
        self._dark: bool | None = None  # None: follow the palette
        self._doc: QTextDocument | None = None
        policy = QSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Fixed)
        policy.setHeightForWidth(True)
        self.setSizePolicy(policy)

    # -- public API --

    def mode(self) -> HighlightMode | None:
        return self._mode

    def set_mode(
        self,
        mode: HighlightMode | None,
        kinds: Iterable[str] | None = None,
        contrast: tuple[str, str] | None = None,
    ) -> None:
        """Explain ``mode``, whose layer paints ``kinds``; ``contrast`` names the system and the
        baseline of ``gain`` and ``loss`` marks (see :func:`legend_entries`)."""
        kinds = None if kinds is None else tuple(k for k in KINDS if k in set(kinds))
        if mode is not None:
            legend_entries(mode, kinds, contrast)  # validates
        if mode == self._mode and kinds == self._kinds and contrast == self._contrast:
            return
        self._mode = mode
        self._kinds = kinds
        self._contrast = contrast
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
        return [] if self._mode is None else legend_entries(self._mode, self._kinds, self._contrast)

    # -- painting --

    def _rebuild(self) -> None:
        self._doc = None
        self.updateGeometry()
        self.update()

    def _document(self) -> QTextDocument:
        if self._doc is None:
            mode = self._mode
            text = "" if mode is None else f"{mode.label}:  "
            ranges: list[Range] = []
            for label, kind, level in self.entries():
                if not text.endswith("  "):
                    text += "   "
                ranges.append((len(text), len(text) + len(label), kind, level))
                text += label
            max_level = DEFAULT_MAX_LEVEL if mode is None else mode.max_level
            doc = build_document(
                text, ranges, dark=self.is_dark(), max_level=max_level, font=self.font()
            )
            self._doc = doc
            self.setAccessibleName(
                QCoreApplication.translate("LegendWidget", "Legend: {text}").format(text=text)
            )
            kinds = {kind for _, kind, _ in self.entries()}
            tips = []
            if "match" in kinds:
                tips.append(
                    QCoreApplication.translate(
                        "LegendWidget",
                        "Each part is shaded by the longest matched n-gram it belongs to: "
                        "the further along the scale, the longer the match.",
                    )
                )
            if "lcs" in kinds:
                tips.append(
                    QCoreApplication.translate(
                        "LegendWidget",
                        "Tokens of the longest common subsequence of output and reference.",
                    )
                )
            if "gain" in kinds or "loss" in kinds:
                tips.append(
                    QCoreApplication.translate(
                        "LegendWidget",
                        "Against the baseline: bold underlined text is matched by the "
                        "chosen system and not by the baseline; struck-through text the "
                        "reverse.",
                    )
                )
            if kinds & set(TER_EDIT_KINDS):
                tips.append(QCoreApplication.translate("palette", TER_LEGEND_TIP))
            self.setToolTip("\n".join(tips))
        return self._doc

    def _laid_out(self, width: float) -> QTextDocument:
        """The document wrapped to ``width`` pixels (-1: not wrapped)."""
        doc = self._document()
        if doc.textWidth() != width:
            doc.setTextWidth(width)
        return doc

    def sizeHint(self) -> QSize:
        size = self._laid_out(-1).size()
        return QSize(int(size.width()) + 8, int(size.height()) + 4)

    def minimumSizeHint(self) -> QSize:
        return QSize(40, self.heightForWidth(40))

    def hasHeightForWidth(self) -> bool:
        return True

    def heightForWidth(self, width: int) -> int:
        return int(self._laid_out(max(1, width - 8)).size().height() + 0.999) + 4

    def changeEvent(self, event: QEvent) -> None:
        if event.type() in (QEvent.Type.PaletteChange, QEvent.Type.FontChange):
            self._rebuild()
        super().changeEvent(event)

    def paintEvent(self, event: QPaintEvent) -> None:
        doc = self._laid_out(max(1, self.width() - 8))
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


# -- TER edit marks -----------------------------------------------------------------------------
# The "TER edits" mode (core.metrics.ter.TerEditLayer) marks edits, not matches: its formats
# avoid the match ramp, the wavy "unmatched" underline and annotation boxes (see
# core.style.palette.TerColours). Shifts are also drawn over the text by gui.highlight.termarks
# (a bracket over the phrase, a triangle where it moves to, a caret where words are missing);
# the point kinds (empty ranges) only have formats for the legend's samples.

# What a legend says for each TER kind, in the order it says them (translated where shown,
# in the context "palette", as is the tip).
TER_LEGEND: tuple[tuple[str, str], ...] = (
    ("ter_sub", QT_TRANSLATE_NOOP("palette", "substituted")),
    ("ter_del", QT_TRANSLATE_NOOP("palette", "deleted")),
    ("ter_ins", QT_TRANSLATE_NOOP("palette", "to insert (reference words the output lacks)")),
    ("ter_gap", QT_TRANSLATE_NOOP("palette", "‸ where words are missing")),
    ("ter_shift", QT_TRANSLATE_NOOP("palette", "shifted phrase")),
    ("ter_dest", QT_TRANSLATE_NOOP("palette", "▼ where it moves to")),
)
TER_LEGEND_TIP = QT_TRANSLATE_NOOP(
    "palette",
    "TER edits against the reference with the fewest edits: substituted words are tinted and "
    "dotted, deleted words struck through, reference words the output lacks tinted green (a "
    "caret marks where they belong in the output), shifted phrases carry a bracket and a "
    "triangle marks where each moves to. Hover a mark for the details; matched words are plain.",
)


def ter_legend_entries(wanted: Iterable[str]) -> list[tuple[str, str, int]]:
    """(label, kind, 0) of the TER kinds among ``wanted``."""
    chosen = set(wanted)
    return [
        (QCoreApplication.translate("palette", label), kind, 0)
        for kind, label in TER_LEGEND
        if kind in chosen
    ]


@lru_cache(maxsize=32)
def _ter_format(kind: str, dark: bool) -> QTextCharFormat:
    ter = colours.ter_colours(dark)
    fmt = QTextCharFormat()
    if kind == "ter_sub":
        fmt.setBackground(QColor(ter.substitution_tint))
        fmt.setForeground(QColor(ter.text))
        fmt.setUnderlineStyle(QTextCharFormat.UnderlineStyle.DotLine)
        fmt.setUnderlineColor(QColor(ter.substitution_line))
    elif kind == "ter_del":
        # Qt draws the strike-through in the underline colour when there is one.
        fmt.setForeground(QColor(ter.deletion_line))
        fmt.setFontStrikeOut(True)
        fmt.setUnderlineColor(QColor(ter.deletion_line))
    elif kind == "ter_ins":
        fmt.setBackground(QColor(ter.insertion_tint))
        fmt.setForeground(QColor(ter.text))
    elif kind == "ter_shift":
        fmt.setForeground(QColor(ter.shift_line))
        fmt.setFontOverline(True)
    elif kind == "ter_dest":
        fmt.setForeground(QColor(ter.shift_line))
        fmt.setFontWeight(QFont.Weight.Bold)
    else:  # ter_gap
        fmt.setForeground(QColor(ter.insertion_line))
        fmt.setFontWeight(QFont.Weight.Bold)
    return fmt


__all__ = [
    "DEFAULT_MAX_LEVEL",
    "KINDS",
    "MIN_TEXT_CONTRAST",
    "NGRAM_KINDS",
    "TER_LEGEND",
    "TER_LEGEND_TIP",
    "LegendWidget",
    "Range",
    "apply_ranges",
    "apply_selection_colours",
    "build_document",
    "clip_to",
    "contrast_ratio",
    "fill_document",
    "highlight_format",
    "is_dark_palette",
    "legend_entries",
    "order_tint",
    "python_index",
    "relative_luminance",
    "selection_colours",
    "ter_legend_entries",
    "tint_text",
    "to_lab",
    "utf16_offsets",
    "visible_breaks",
]
