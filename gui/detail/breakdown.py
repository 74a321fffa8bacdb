"""Paints the "why this score" blocks of one output: each metric's small grid and lines of text.

Core makes the blocks (:meth:`RowDetail.breakdown <core.scoring.detail.RowDetail.breakdown>`,
one or more per scored metric: BLEU, ROUGE, NLTK-BLEU, chrF...); :class:`BreakdownView` only
lays them out and paints them. The blocks stand side by side and wrap to new lines of blocks
when the view is narrower than their total width, in a grid so that the blocks of every line
start at the same places (the view has a height for every width, like a word-wrapped label).

The view paints rather than using a rich-text :class:`QLabel` because of its cost: laying out
HTML tables every time the selected row changes costs far more than painting the same text,
and nothing in it is ever parsed as markup. Column widths and block sizes are measured once per
content or font, and the layout once per width.
"""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import QCoreApplication, QEvent, QPoint, QSize, Qt
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

from matchlight.core.metrics.base import Block, Run

__all__ = ["BLOCK_GAP", "COLUMN_GAP", "LINE_GAP", "BreakdownView"]

# Space between grid columns, between two blocks side by side, and between lines of blocks,
# in pixels.
COLUMN_GAP = 10
BLOCK_GAP = 28
LINE_GAP = 8
# Text widths remembered (per font); most cells of a breakdown ("1-gram", "matched/total",
# reference names) recur from one output and one row to the next.
_WIDTHS_KEPT = 20_000
_widths: dict[tuple[str, str], int] = {}


def _advance(metrics: QFontMetrics, font_key: str, text: str) -> int:
    """``metrics.horizontalAdvance(text)``, remembered."""
    key = (font_key, text)
    width = _widths.get(key)
    if width is None:
        if len(_widths) >= _WIDTHS_KEPT:
            _widths.clear()
        width = _widths[key] = metrics.horizontalAdvance(text)
    return width


# (metrics, font key) of the plain, italic and bold fonts.
_Measures = tuple[tuple[QFontMetrics, str], ...]


class BreakdownView(QWidget):
    """Paints breakdown blocks side by side, wrapping; Ctrl+C or the context menu copies them."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._blocks: tuple[Block, ...] = ()
        # Per block: its grid's column widths and its size; measured when the blocks or the
        # font change, not on every paint.
        self._geometry: list[tuple[list[int], QSize]] = []
        # The layout at one width: (width, top-left of each block, height).
        self._flow: tuple[int, list[QPoint], int] | None = None
        policy = QSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Fixed)
        policy.setHeightForWidth(True)
        self.setSizePolicy(policy)
        self.setFocusPolicy(Qt.FocusPolicy.ClickFocus)
        self.setContentsMargins(12, 0, 0, 0)
        self._copy = QAction(QCoreApplication.translate("breakdown", "Copy the breakdown"), self)
        self._copy.setShortcut(QKeySequence.StandardKey.Copy)
        self._copy.setShortcutContext(Qt.ShortcutContext.WidgetShortcut)
        self._copy.triggered.connect(self.copy)
        self.addAction(self._copy)

    def set_blocks(self, blocks: Sequence[Block]) -> None:
        blocks = tuple(blocks)
        if blocks == self._blocks:
            return
        self._blocks = blocks
        self._measure()

    def blocks(self) -> tuple[Block, ...]:
        return self._blocks

    def block_widths(self) -> list[int]:
        """The width of each block, in pixels (the gaps between them not included)."""
        return [size.width() for _, size in self._geometry]

    def block_positions(self, width: int | None = None) -> list[QPoint]:
        """The top-left corner of each block in a view ``width`` pixels wide (default: its
        own width)."""
        return list(self._layout(self.width() if width is None else width)[1])

    def text(self) -> str:
        """What is shown, in plain text (one block after the other)."""
        return "\n\n".join(block.text() for block in self._blocks)

    def copy(self) -> None:
        QApplication.clipboard().setText(self.text())

    # -- geometry -----------------------------------------------------------------------------

    def _fonts(self) -> tuple[QFont, QFont, QFont]:
        """The plain, italic and bold fonts."""
        plain = self.font()
        italic = QFont(plain)
        italic.setItalic(True)
        bold = QFont(plain)
        bold.setBold(True)
        return plain, italic, bold

    def _line_width(self, runs: Sequence[Run], measures: _Measures) -> int:
        total = 0
        for run in runs:
            metrics, key = measures[2 if run.bold else (1 if run.italic else 0)]
            total += _advance(metrics, key, run.text)
        return total

    def _block_geometry(self, block: Block, measures: _Measures) -> tuple[list[int], QSize]:
        plain, plain_key = measures[0]
        bold, bold_key = measures[2]
        columns = [_advance(bold, bold_key, cell) for cell in block.header]
        for row in block.rows:
            for i, cell in enumerate(row):
                width = _advance(plain, plain_key, cell)
                if i < len(columns):
                    columns[i] = max(columns[i], width)
                else:
                    columns.append(width)
        grid = sum(columns) + COLUMN_GAP * max(0, len(columns) - 1)
        width = max(
            [
                grid,
                _advance(plain, plain_key, block.min_text),
                self._line_width(block.title, measures),
                *(self._line_width(x, measures) for x in block.lines),
            ]
        )
        rows = 1 + (1 if block.header else 0) + len(block.rows) + len(block.lines)
        return columns, QSize(width, rows * (measures[2][0].height() + 2))

    def _row_height(self) -> int:
        return QFontMetrics(self._fonts()[2]).height() + 2

    def _measure(self) -> None:
        measures = tuple((QFontMetrics(f), f.key()) for f in self._fonts())
        self._geometry = [self._block_geometry(b, measures) for b in self._blocks]
        self._flow = None
        self.updateGeometry()
        self.update()

    def _layout(self, width: int) -> tuple[int, list[QPoint], int]:
        """Where each block goes in a view ``width`` pixels wide, and the height it takes.

        The blocks form a grid: as many per line as fit (at least one), each grid column as
        wide as its widest block, so the blocks of every line start at the same places.
        """
        flow = self._flow
        if flow is not None and flow[0] == width:
            return flow
        margins = self.contentsMargins()
        sizes = [size for _, size in self._geometry]
        available = width - margins.left() - margins.right()
        per_line = max(1, len(sizes))
        while per_line > 1 and self._grid_width(sizes, per_line) > available:
            per_line -= 1
        columns = self._column_widths(sizes, per_line)
        positions: list[QPoint] = []
        y = margins.top()
        for first in range(0, len(sizes), per_line):
            line = sizes[first : first + per_line]
            x = margins.left()
            for column in columns[: len(line)]:
                positions.append(QPoint(x, y))
                x += column + BLOCK_GAP
            y += max(size.height() for size in line) + LINE_GAP
        height = y - LINE_GAP + margins.bottom() if positions else 0
        self._flow = (width, positions, height)
        return self._flow

    @staticmethod
    def _column_widths(sizes: Sequence[QSize], per_line: int) -> list[int]:
        widths = [0] * per_line
        for i, size in enumerate(sizes):
            widths[i % per_line] = max(widths[i % per_line], size.width())
        return widths

    def _grid_width(self, sizes: Sequence[QSize], per_line: int) -> int:
        widths = self._column_widths(sizes, per_line)
        return sum(widths) + BLOCK_GAP * (len(widths) - 1)

    def _one_line_width(self) -> int:
        sizes = [size for _, size in self._geometry]
        if not sizes:
            return 0
        margins = self.contentsMargins()
        return self._grid_width(sizes, len(sizes)) + margins.left() + margins.right()

    def hasHeightForWidth(self) -> bool:
        return True

    def heightForWidth(self, width: int) -> int:
        return self._layout(width)[2]

    def sizeHint(self) -> QSize:
        """All the blocks on one line."""
        width = self._one_line_width()
        return QSize(width, self.heightForWidth(width))

    def minimumSizeHint(self) -> QSize:
        """As narrow as the widest block: one block per line."""
        margins = self.contentsMargins()
        widest = max(self.block_widths(), default=0)
        width = widest + margins.left() + margins.right() if widest else 0
        return QSize(width, self.heightForWidth(width))

    def changeEvent(self, event: QEvent) -> None:
        super().changeEvent(event)
        if event.type() == QEvent.Type.FontChange:
            self._measure()

    # -- painting -----------------------------------------------------------------------------

    def paintEvent(self, event: QPaintEvent) -> None:
        if not self._blocks:
            return
        painter = QPainter(self)
        painter.setPen(self.palette().color(self.foregroundRole()))
        fonts = self._fonts()
        measures = tuple((QFontMetrics(f), f.key()) for f in fonts)
        bold_metrics = measures[2][0]
        step = bold_metrics.height() + 2
        ascent = bold_metrics.ascent() + 1
        _, positions, _ = self._layout(self.width())
        for block, (columns, _), corner in zip(
            self._blocks, self._geometry, positions, strict=True
        ):
            x, y = corner.x(), corner.y()
            self._draw_runs(painter, x, y + ascent, block.title, fonts, measures)
            y += step
            grid = (block.header, *block.rows) if block.header else block.rows
            for r, row in enumerate(grid):
                style = 2 if r == 0 and block.header else 0
                painter.setFont(fonts[style])
                metrics, key = measures[style]
                left = x
                for i, cell in enumerate(row):
                    right_aligned = block.right[i] if i < len(block.right) else False
                    offset = columns[i] - _advance(metrics, key, cell) if right_aligned else 0
                    painter.drawText(QPoint(left + offset, y + ascent), cell)
                    left += columns[i] + COLUMN_GAP
                y += step
            for line in block.lines:
                self._draw_runs(painter, x, y + ascent, line, fonts, measures)
                y += step
        painter.end()

    def _draw_runs(
        self,
        painter: QPainter,
        x: int,
        baseline: int,
        runs: Sequence[Run],
        fonts: tuple[QFont, QFont, QFont],
        measures: _Measures,
    ) -> None:
        for run in runs:
            style = 2 if run.bold else (1 if run.italic else 0)
            painter.setFont(fonts[style])
            painter.drawText(QPoint(x, baseline), run.text)
            x += _advance(*measures[style], run.text)

    def contextMenuEvent(self, event: QContextMenuEvent) -> None:
        menu = QMenu(self)
        menu.addAction(self._copy)
        menu.exec(event.globalPos())
