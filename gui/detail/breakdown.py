"""The "why this score" breakdown of one hypothesis: its records, and the widget showing them.

The records (:class:`BleuBreakdown`, :class:`RougeBreakdown`) are computed from a
:class:`~core.scoring.detail.HypothesisDetail`; :func:`breakdown_blocks` turns them into two blocks
of
text (BLEU on the left, ROUGE on the right), each a small grid followed by a few lines, and
:class:`BreakdownView` paints those blocks with :class:`QPainter`.

The view paints rather than using a rich-text :class:`QLabel` because of its cost: laying out
the HTML tables took about 9 ms per hypothesis, every time the selected row changed (about
30 ms of the 35 ms a row change cost with three systems). Painting the same text takes well
under a millisecond, and nothing in it is ever parsed as markup.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from PySide6.QtCore import QPoint, QSize, Qt
from PySide6.QtGui import (
    QAction,
    QContextMenuEvent,
    QFont,
    QFontMetrics,
    QKeySequence,
    QPainter,
    QPaintEvent,
)
from PySide6.QtWidgets import QApplication, QMenu, QSizePolicy, QWidget

from matchlight.core.scoring.detail import HypothesisDetail

_ROUGE_TITLES = {"rouge1": "R-1", "rouge2": "R-2", "rougeL": "R-L"}

# -- records ------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class OrderRow:
    """One n-gram order of the BLEU breakdown."""

    order: int
    matches: int
    total: int
    precision: float  # 0-100, as used in the geometric mean (smoothed where it applies)
    smoothed: bool  # precision differs from matches / total because of smoothing


@dataclass(frozen=True, slots=True)
class BleuBreakdown:
    orders: tuple[OrderRow, ...]
    bp: float
    sys_len: int  # c
    ref_len: int  # r
    smooth_method: str
    smooth_value: float | None
    eff_order: int
    max_order: int
    score: float  # sacreBLEU arithmetic on these counts, 0-100
    shown: float  # the sentence BLEU of the table (configured flavour), 0-100


@dataclass(frozen=True, slots=True)
class RougeRow:
    name: str  # "R-1", "R-2", "R-L"
    rouge_type: str  # "rouge1", ...
    precision: float  # 0-100
    recall: float
    fmeasure: float
    reference: int  # 0-based index of the reference rouge-score chose


@dataclass(frozen=True, slots=True)
class RougeBreakdown:
    rows: tuple[RougeRow, ...]
    lcs_length: int
    lcs_reference: int


def bleu_breakdown(hyp: HypothesisDetail) -> BleuBreakdown:
    """The BLEU part of "why this score" for one hypothesis."""
    stats = hyp.bleu.stats
    score = hyp.bleu_score
    rows = []
    for n, (m, t) in enumerate(zip(stats.matches, stats.totals, strict=True), start=1):
        precision = score.precisions[n - 1]
        raw = 100.0 * m / t if t else 0.0
        rows.append(OrderRow(n, m, t, precision, t > 0 and abs(precision - raw) > 1e-9))
    return BleuBreakdown(
        orders=tuple(rows),
        bp=score.bp,
        sys_len=score.sys_len,
        ref_len=score.ref_len,
        smooth_method=score.smooth_method,
        smooth_value=score.smooth_value,
        eff_order=score.eff_order,
        max_order=len(stats.matches),
        score=score.score,
        shown=hyp.sentence_bleu,
    )


def rouge_breakdown(hyp: HypothesisDetail) -> RougeBreakdown:
    """The ROUGE part of "why this score" for one hypothesis."""
    rows = []
    for rouge_type, value in hyp.rouge.items():
        rows.append(
            RougeRow(
                name=_ROUGE_TITLES.get(rouge_type, rouge_type.replace("rouge", "R-")),
                rouge_type=rouge_type,
                precision=100.0 * value.precision,
                recall=100.0 * value.recall,
                fmeasure=100.0 * value.fmeasure,
                reference=hyp.rouge_ref[rouge_type],
            )
        )
    return RougeBreakdown(
        rows=tuple(rows), lcs_length=hyp.lcs_length, lcs_reference=hyp.rouge_ref.get("rougeL", 0)
    )


# -- blocks of text -----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Run:
    """A piece of text in one style."""

    text: str
    bold: bool = False
    italic: bool = False


@dataclass(frozen=True, slots=True)
class Block:
    """A title line, a grid (a header row and rows of cells), then lines of runs.

    ``right`` says which grid columns are right-aligned (numbers). The block is at least as
    wide as ``min_text``, so that the blocks next to it line up from one hypothesis to the next.
    """

    title: tuple[Run, ...]
    header: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    right: tuple[bool, ...]
    lines: tuple[tuple[Run, ...], ...]
    min_text: str = ""

    def text(self) -> str:
        """The block in plain text: grid cells separated by two spaces."""
        out = ["".join(r.text for r in self.title)]
        out.extend("  ".join(row).strip() for row in (self.header, *self.rows))
        out.extend("".join(r.text for r in line) for line in self.lines)
        return "\n".join(out)


def _fmt_value(value: float | None) -> str:
    return "—" if value is None else f"{value:g}"


def breakdown_blocks(
    bleu: BleuBreakdown,
    rouge: RougeBreakdown,
    reference_names: Sequence[str],
    flavour_note: str | None = None,
) -> tuple[Block, Block]:
    """The BLEU block and the ROUGE block of a breakdown."""

    def ref_name(r: int) -> str:
        return reference_names[r] if r < len(reference_names) else f"Ref {r + 1}"

    used = (
        f"first {bleu.eff_order} of {bleu.max_order} orders (effective order)"
        if bleu.eff_order != bleu.max_order
        else f"all {bleu.max_order} orders"
    )
    if bleu.sys_len < bleu.ref_len:
        bp_rule = "exp(1 − r/c)" if bleu.sys_len else "0 (empty output)"
    else:
        bp_rule = "1 (c ≥ r)"
    smoothing = bleu.smooth_method
    if bleu.smooth_value is not None:
        smoothing += f" (value {_fmt_value(bleu.smooth_value)})"
    star_note = " (* = smoothed)" if any(o.smoothed for o in bleu.orders) else ""
    lines: list[tuple[Run, ...]] = [
        (Run(f"BP = {bp_rule} = {bleu.bp:.4f}"),),
        (Run(f"c = {bleu.sys_len} output tokens, r = {bleu.ref_len} reference tokens"),),
        (Run(f"smoothing: {smoothing}{star_note}"),),
        (Run(f"geometric mean over {used}"),),
        (Run("BLEU = BP × exp(mean log p) = "), Run(f"{bleu.score:.2f}", bold=True)),
    ]
    if flavour_note:
        lines.append((Run(flavour_note, italic=True),))
    bleu_block = Block(
        title=(Run("BLEU", bold=True),),
        header=("order", "matched/total", "precision"),
        rows=tuple(
            (
                f"{o.order}-gram",
                f"{o.matches}/{o.total}",
                f"{o.precision:.2f}{'*' if o.smoothed else ' '}",
            )
            for o in bleu.orders
        ),
        right=(False, True, True),
        lines=tuple(lines),
        min_text="c = 000 output tokens, r = 000 reference tokens",
    )
    rouge_block = Block(
        title=(Run("ROUGE", bold=True), Run(" (best reference per type)")),
        header=("", "P", "R", "F", "reference"),
        rows=tuple(
            (
                r.name,
                f"{r.precision:.2f}",
                f"{r.recall:.2f}",
                f"{r.fmeasure:.2f}",
                ref_name(r.reference),
            )
            for r in rouge.rows
        ),
        right=(False, True, True, True, False),
        lines=((Run(f"LCS length {rouge.lcs_length} (with {ref_name(rouge.lcs_reference)})"),),),
    )
    return bleu_block, rouge_block


# -- the view -----------------------------------------------------------------------------------

#: Space between grid columns, and between the two blocks, in pixels.
COLUMN_GAP = 10
BLOCK_GAP = 28


class BreakdownView(QWidget):
    """Paints the blocks of a breakdown side by side; Ctrl+C or the context menu copies them."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._blocks: tuple[Block, ...] = ()
        # Per block: its grid's column widths and its size; measured when the blocks or the
        # font change, not on every paint.
        self._geometry: list[tuple[list[int], QSize]] = []
        self._size = QSize(0, 0)
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Fixed)
        self.setFocusPolicy(Qt.FocusPolicy.ClickFocus)
        self.setContentsMargins(12, 0, 0, 0)
        self._copy = QAction("Copy the breakdown", self)
        self._copy.setShortcut(QKeySequence.StandardKey.Copy)
        self._copy.setShortcutContext(Qt.ShortcutContext.WidgetShortcut)
        self._copy.triggered.connect(self.copy)
        self.addAction(self._copy)

    def set_blocks(self, blocks: Sequence[Block]) -> None:
        self._blocks = tuple(blocks)
        self._size = self._measure()
        self.updateGeometry()
        self.update()

    def blocks(self) -> tuple[Block, ...]:
        return self._blocks

    def block_widths(self) -> list[int]:
        """The width of each block, in pixels (the gaps between them not included)."""
        return [size.width() for _, size in self._geometry]

    def text(self) -> str:
        """What is shown, in plain text (one block after the other)."""
        return "\n".join(block.text() for block in self._blocks)

    def copy(self) -> None:
        QApplication.clipboard().setText(self.text())

    # -- geometry -----------------------------------------------------------------------------

    def _fonts(self) -> tuple[QFont, QFont, QFont]:
        plain = self.font()
        bold = QFont(plain)
        bold.setBold(True)
        italic = QFont(plain)
        italic.setItalic(True)
        return plain, bold, italic

    def _font_of(self, run: Run) -> QFont:
        plain, bold, italic = self._fonts()
        if run.bold:
            return bold
        return italic if run.italic else plain

    def _columns(self, block: Block) -> list[int]:
        plain = QFontMetrics(self.font())
        bold = QFontMetrics(self._fonts()[1])
        widths = [bold.horizontalAdvance(cell) for cell in block.header]
        for row in block.rows:
            for i, cell in enumerate(row):
                widths[i] = max(widths[i], plain.horizontalAdvance(cell))
        return widths

    def _line_width(self, runs: Sequence[Run]) -> int:
        return sum(QFontMetrics(self._font_of(r)).horizontalAdvance(r.text) for r in runs)

    def _block_geometry(self, block: Block) -> tuple[list[int], QSize]:
        columns = self._columns(block)
        grid = sum(columns) + COLUMN_GAP * max(0, len(columns) - 1)
        width = max(
            [
                grid,
                QFontMetrics(self.font()).horizontalAdvance(block.min_text),
                self._line_width(block.title),
                *(self._line_width(x) for x in block.lines),
            ]
        )
        rows = 2 + len(block.rows) + len(block.lines)  # title, header, rows, lines
        return columns, QSize(width, rows * self._row_height())

    def _row_height(self) -> int:
        return QFontMetrics(self._fonts()[1]).height() + 2

    def _measure(self) -> QSize:
        self._geometry = [self._block_geometry(b) for b in self._blocks]
        if not self._blocks:
            return QSize(0, 0)
        sizes = [size for _, size in self._geometry]
        margins = self.contentsMargins()
        width = sum(s.width() for s in sizes) + BLOCK_GAP * (len(sizes) - 1)
        height = max(s.height() for s in sizes)
        return QSize(
            width + margins.left() + margins.right(), height + margins.top() + margins.bottom()
        )

    def sizeHint(self) -> QSize:
        return self._size

    def minimumSizeHint(self) -> QSize:
        return self._size

    def changeEvent(self, event) -> None:  # type: ignore[no-untyped-def]
        super().changeEvent(event)
        if event.type() == event.Type.FontChange:
            self._size = self._measure()
            self.updateGeometry()

    # -- painting -----------------------------------------------------------------------------

    def paintEvent(self, event: QPaintEvent) -> None:
        if not self._blocks:
            return
        painter = QPainter(self)
        painter.setPen(self.palette().color(self.foregroundRole()))
        plain, bold, _ = self._fonts()
        step = self._row_height()
        ascent = QFontMetrics(bold).ascent() + 1
        x = self.contentsMargins().left()
        top = self.contentsMargins().top()
        for block, (columns, size) in zip(self._blocks, self._geometry, strict=True):
            y = top
            self._draw_runs(painter, x, y + ascent, block.title)
            y += step
            for r, row in enumerate((block.header, *block.rows)):
                painter.setFont(bold if r == 0 else plain)
                metrics = painter.fontMetrics()
                left = x
                for i, cell in enumerate(row):
                    right_aligned = block.right[i] if i < len(block.right) else False
                    offset = columns[i] - metrics.horizontalAdvance(cell) if right_aligned else 0
                    painter.drawText(QPoint(left + offset, y + ascent), cell)
                    left += columns[i] + COLUMN_GAP
                y += step
            for line in block.lines:
                self._draw_runs(painter, x, y + ascent, line)
                y += step
            x += size.width() + BLOCK_GAP
        painter.end()

    def _draw_runs(self, painter: QPainter, x: int, baseline: int, runs: Sequence[Run]) -> None:
        for run in runs:
            font = self._font_of(run)
            painter.setFont(font)
            painter.drawText(QPoint(x, baseline), run.text)
            x += QFontMetrics(font).horizontalAdvance(run.text)

    def contextMenuEvent(self, event: QContextMenuEvent) -> None:
        menu = QMenu(self)
        menu.addAction(self._copy)
        menu.exec(event.globalPos())


__all__ = [
    "BLOCK_GAP",
    "COLUMN_GAP",
    "BleuBreakdown",
    "Block",
    "BreakdownView",
    "OrderRow",
    "RougeBreakdown",
    "RougeRow",
    "Run",
    "bleu_breakdown",
    "breakdown_blocks",
    "rouge_breakdown",
]
