"""Paints source, reference and hypothesis cells with their matches highlighted.

Each cell is a :class:`QTextDocument` built from the *original* text with
:class:`QTextCursor`/:class:`QTextCharFormat` (never HTML), with exactly the character ranges
:mod:`core.scoring.detail` computed. Documents are cached per (segment, column, mode, theme,
reference
system), so scrolling back and repainting cost nothing. Where this is slow, it is the first paint
of a cell (one document per visible text cell, ~0.1 ms each) — the same trade-off qutebrowser's
completion delegate makes.

Rows keep a fixed height: text is wrapped to the column width, clipped to the lines that fit,
and an ellipsis marks the cut. The detail pane shows the whole text.

While a row's detail is not computed yet, its cells are painted as plain text; the
:class:`~gui.highlight.detailcache.DetailCache` computes it in the background and the view repaints
when
:attr:`~gui.highlight.detailcache.DetailCache.detail_ready` arrives.
"""

from __future__ import annotations

import contextlib
import time
from collections import OrderedDict
from collections.abc import Iterator, Sequence
from typing import Literal

from PySide6.QtCore import (
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    QPointF,
    QRect,
    QRectF,
    QSize,
    Qt,
    QTimer,
    Signal,
    Slot,
)
from PySide6.QtGui import (
    QAbstractTextDocumentLayout,
    QColor,
    QPainter,
    QPalette,
    QRegion,
    QTextDocument,
)
from PySide6.QtWidgets import (
    QAbstractItemView,
    QApplication,
    QStyle,
    QStyledItemDelegate,
    QStyleOptionViewItem,
)

from matchlight.gui.highlight.detailcache import DetailCache
from matchlight.gui.highlight.palette import Range, build_document, clip_to, is_dark_palette
from matchlight.gui.highlight.ranges import cell_ranges, check_mode
from matchlight.gui.table.model import (
    COLUMN_KIND_ROLE,
    REF_ROLE,
    SEGMENT_ROLE,
    SYSTEM_ROLE,
    TEXT_KINDS,
)

#: Documents kept in the delegate's cache.
DOC_CACHE_SIZE = 4000
#: How long one paint of the view may spend building highlighted documents (about 0.35 ms
#: each). Cells past it are painted plain (about a third of the cost) and highlighted by the
#: next paint, a turn of the event loop later; so a large screen, a page jump or a new
#: comparison never holds the event loop for the whole screenful at once.
BUILD_BUDGET_MS = 15.0
#: How long one paint of the view may take in all. Text cells reached after it get only their
#: background this time and are painted by the next paint, a turn of the event loop later: on
#: a big screen (over 200 cells), the first paint of a comparison took 80-120 ms in one go.
PAINT_BUDGET_MS = 40.0
_ELLIPSIS = "…"
#: Characters of a cell's text put in its document. A row shows two or three lines, so this is
#: far more than any cell can show, and it bounds the cost of a cell: a 34,000-character line
#: cost about 50 ms of layout per paint. Cut cells end with the ellipsis like any other.
CELL_TEXT_LIMIT = 2000
#: How far a selected cell's background moves from Base toward Text (light / dark themes).
SELECTION_WEIGHT = 0.17
SELECTION_WEIGHT_DARK = 0.22
_PADDING = 3

_Index = QModelIndex | QPersistentModelIndex
_Outcome = Literal["cached", "built", "plain", "deferred"]


def selection_color(palette: QPalette, group: QPalette.ColorGroup) -> QColor:
    """The neutral band painted behind selected cells: Base blended toward Text."""
    base = palette.color(group, QPalette.ColorRole.Base)
    text = palette.color(group, QPalette.ColorRole.Text)
    weight = SELECTION_WEIGHT_DARK if base.lightnessF() < 0.5 else SELECTION_WEIGHT
    return _mix(base, text, weight)


def _soften_selection(opt: QStyleOptionViewItem) -> None:
    """Paint selected cells with a neutral band and the normal text colour.

    The palette's selection colour (blue in most styles) would swallow the blue match tints of
    the selected row; a grey band keeps the row visibly selected and every tint readable.
    """
    if not opt.state & QStyle.StateFlag.State_Selected:
        return
    palette = opt.palette
    for group in (QPalette.ColorGroup.Active, QPalette.ColorGroup.Inactive):
        palette.setColor(group, QPalette.ColorRole.Highlight, selection_color(palette, group))
        palette.setColor(
            group, QPalette.ColorRole.HighlightedText, palette.color(group, QPalette.ColorRole.Text)
        )
    opt.palette = palette


def _mix(a: QColor, b: QColor, weight: float) -> QColor:
    """``weight`` of ``b`` over ``a``."""
    return QColor.fromRgbF(
        a.redF() + (b.redF() - a.redF()) * weight,
        a.greenF() + (b.greenF() - a.greenF()) * weight,
        a.blueF() + (b.blueF() - a.blueF()) * weight,
    )


class HighlightDelegate(QStyledItemDelegate):
    """Paints text cells of a :class:`~gui.table.model.SegmentTableModel` (or a proxy of it).

    Give it the view as parent: it then repaints the view's viewport when a row's detail
    arrives. Score cells are painted by :class:`QStyledItemDelegate` as usual.

    Signals:
        mode_changed(str mode): the view mode ("bleu" or "lcs") changed.
        row_ready(int segment): the highlights of ``segment`` are now available (repaint it).
    """

    mode_changed = Signal(str)
    row_ready = Signal(int)

    def __init__(self, cache: DetailCache, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._cache = cache
        self._mode = "bleu"
        self._reference_system: int | None = None
        self._dark: bool | None = None
        self._docs: OrderedDict[tuple[object, ...], QTextDocument] = OrderedDict()
        # Build budget of the paint in progress (see begin_paint): None outside a paint, else
        # the seconds spent building highlighted documents in it so far.
        self._build_spent: float | None = None
        self._paint_started = 0.0
        self._full_cells = 0  # text cells painted in full by the paint in progress
        self._unbounded = 0  # > 0: no budget (see unbounded)
        self._deferred_cells: list[QRect] = []
        self._complete = True
        cache.detail_ready.connect(self._on_detail_ready)
        cache.cleared.connect(self._on_cache_cleared)

    # -- settings ---------------------------------------------------------------------------

    @property
    def cache(self) -> DetailCache:
        return self._cache

    def set_cache(self, cache: DetailCache) -> None:
        """Use another cache (a new comparison was loaded)."""
        self._cache.detail_ready.disconnect(self._on_detail_ready)
        self._cache.cleared.disconnect(self._on_cache_cleared)
        self._cache = cache
        cache.detail_ready.connect(self._on_detail_ready)
        cache.cleared.connect(self._on_cache_cleared)
        self._docs.clear()
        self._repaint()

    def mode(self) -> str:
        return self._mode

    def set_mode(self, mode: str) -> None:
        """``"bleu"``: n-gram matches by order; ``"lcs"``: the ROUGE-L LCS tokens."""
        if check_mode(mode) == self._mode:
            return
        self._mode = mode
        self._docs.clear()
        self._repaint()
        self.mode_changed.emit(mode)

    def reference_system(self) -> int | None:
        return self._reference_system

    def set_reference_system(self, index: int | None) -> None:
        """Show reference matches of one system (None: of any system)."""
        if index == self._reference_system:
            return
        self._reference_system = index
        self._docs.clear()
        self._repaint()

    def set_dark(self, dark: bool | None) -> None:
        """Force dark/light tints; None follows the view's palette."""
        self._dark = dark
        self._docs.clear()
        self._repaint()

    # -- paint budget -----------------------------------------------------------------------

    def begin_paint(self) -> None:
        """A paint of the whole view starts: highlighted documents get :data:`BUILD_BUDGET_MS`.

        The view calls this and :meth:`end_paint` around its paint event (see
        :class:`~gui.table.tableview.SegmentTableView`); without them every document is built at
        once.
        """
        self._build_spent = None if self._unbounded else 0.0
        self._paint_started = time.perf_counter()
        self._full_cells = 0
        self._deferred_cells = []

    def end_paint(self) -> None:
        """The paint is over; cells left plain or empty for lack of time are painted again soon."""
        self._build_spent = None
        cells, self._deferred_cells = self._deferred_cells, []
        self._complete = not cells
        if cells:
            # Only those cells: a full repaint of a big table costs tens of milliseconds.
            QTimer.singleShot(0, self, lambda: self._repaint(cells))

    @contextlib.contextmanager
    def unbounded(self) -> Iterator[None]:
        """Paints inside this block paint every cell in full, whatever it takes (a screenshot)."""
        self._unbounded += 1
        try:
            yield
        finally:
            self._unbounded -= 1

    def paint_complete(self) -> bool:
        """Whether the last paint showed every cell with what is known of it (none was left
        plain or empty for lack of time)."""
        return self._complete

    def _over_budget(self) -> bool:
        # Only the time spent building counts (cached cells cost what they cost anyway), and
        # the first document of a paint is always built: every cell gets there eventually.
        spent = self._build_spent
        return spent is not None and spent > 0 and spent * 1000 >= BUILD_BUDGET_MS

    # -- ranges and documents ---------------------------------------------------------------

    def highlight_ranges(self, index: _Index) -> list[Range]:
        """(start, end, kind, level) painted in ``index``'s cell, in Python string indices.

        Empty for non-text cells, the source, and rows whose detail is not ready yet (asking
        schedules it).
        """
        kind = index.data(COLUMN_KIND_ROLE)
        if kind not in TEXT_KINDS:
            return []
        detail = self._cache.get(index.data(SEGMENT_ROLE))
        if detail is None:
            return []
        return cell_ranges(
            detail,
            kind,
            index.data(SYSTEM_ROLE),
            index.data(REF_ROLE),
            self._mode,
            self._reference_system,
        )

    def document(self, index: _Index, dark: bool = False) -> QTextDocument | None:
        """The (cached) document painted for a text cell, None for other cells."""
        kind = index.data(COLUMN_KIND_ROLE)
        if kind not in TEXT_KINDS:
            return None
        option = QStyleOptionViewItem()
        view = self.parent()
        if isinstance(view, QAbstractItemView):
            option.font = view.font()
        return self._document(index, kind, option, dark)[0]

    def _document(
        self, index: _Index, kind: str, option: QStyleOptionViewItem, dark: bool
    ) -> tuple[QTextDocument, _Outcome]:
        """The cell's document, and whether it was cached, built (with highlights, which the
        paint budget counts, or plain) or left plain for lack of time ("deferred")."""
        segment = index.data(SEGMENT_ROLE)
        system = index.data(SYSTEM_ROLE)
        reference = index.data(REF_ROLE)
        detail = self._cache.get(segment) if kind != "source" else None
        ref_system = self._reference_system if kind == "reference" else None
        key = (segment, kind, system, reference, self._mode, dark, ref_system, detail is not None)
        doc = self._docs.get(key)
        if doc is not None:
            self._docs.move_to_end(key)
            return doc, "cached"
        deferred = detail is not None and self._over_budget()
        if deferred:
            # Plain this time (cheap, and cached as the row was before its detail came).
            detail = None
            key = (*key[:-1], False)
            doc = self._docs.get(key)
            if doc is not None:
                return doc, "deferred"
        text = index.data(Qt.ItemDataRole.DisplayRole) or ""
        ranges = (
            []
            if detail is None
            else cell_ranges(detail, kind, system, reference, self._mode, self._reference_system)
        )
        truncated = len(text) > CELL_TEXT_LIMIT
        text, ranges = clip_to(text, ranges, CELL_TEXT_LIMIT)
        doc = build_document(text, ranges, dark=dark, font=option.font, one_line=True)
        doc.setProperty("truncated", truncated)
        self._docs[key] = doc
        while len(self._docs) > DOC_CACHE_SIZE:
            self._docs.popitem(last=False)
        if deferred:
            return doc, "deferred"
        return doc, "plain" if detail is None else "built"

    # -- painting ---------------------------------------------------------------------------

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: _Index) -> None:
        kind = index.data(COLUMN_KIND_ROLE)
        if kind not in TEXT_KINDS:
            opt = QStyleOptionViewItem(option)
            _soften_selection(opt)
            super().paint(painter, opt, index)
            return
        opt = QStyleOptionViewItem(option)
        self.initStyleOption(opt, index)
        _soften_selection(opt)
        opt.text = ""
        widget = opt.widget
        style = widget.style() if widget is not None else QApplication.style()
        style.drawControl(QStyle.ControlElement.CE_ItemViewItem, opt, painter, widget)
        rect = style.subElementRect(QStyle.SubElement.SE_ItemViewItemText, opt, widget)
        rect = rect.adjusted(_PADDING, 0, -_PADDING, 0)
        if rect.width() <= 0 or rect.height() <= 0:
            return
        started = time.perf_counter()
        if (
            self._build_spent is not None
            and self._full_cells > 0
            and (started - self._paint_started) * 1000 >= PAINT_BUDGET_MS
        ):
            self._deferred_cells.append(QRect(option.rect))  # only its background, this time
            return
        self._full_cells += 1
        dark = is_dark_palette(opt.palette) if self._dark is None else self._dark
        doc, outcome = self._document(index, kind, opt, dark)
        if outcome == "deferred":
            self._deferred_cells.append(QRect(option.rect))
        if doc.textWidth() != rect.width():
            doc.setTextWidth(rect.width())
        selected = bool(opt.state & QStyle.StateFlag.State_Selected)
        group = (
            QPalette.ColorGroup.Normal
            if opt.state & QStyle.StateFlag.State_Enabled
            else QPalette.ColorGroup.Disabled
        )
        text_role = QPalette.ColorRole.HighlightedText if selected else QPalette.ColorRole.Text
        text_color = opt.palette.color(group, text_role)

        # Which lines fit: whole lines only, and an ellipsis when some are cut off.
        layout = doc.firstBlock().layout()
        line_count = layout.lineCount() if layout is not None else 0
        shown_height = float(rect.height())
        cut = False
        last_line = None
        if line_count:
            fitting = 0
            for i in range(line_count):
                line = layout.lineAt(i)
                if line.y() + line.height() <= rect.height() + 0.5:
                    fitting = i + 1
                else:
                    break
            fitting = max(fitting, 1)
            last_line = layout.lineAt(fitting - 1)
            shown_height = min(float(rect.height()), last_line.y() + last_line.height())
            cut = fitting < line_count or doc.blockCount() > 1 or bool(doc.property("truncated"))
        top = rect.top() + max(0.0, (rect.height() - shown_height) / 2)
        if outcome == "built" and self._build_spent is not None:
            # Building it and laying it out (above): what the budget of this paint pays for.
            self._build_spent += time.perf_counter() - started

        painter.save()
        painter.setClipRect(QRectF(rect.left(), top, rect.width(), shown_height))
        painter.translate(QPointF(rect.left(), top))
        ctx = QAbstractTextDocumentLayout.PaintContext()
        ctx.palette.setColor(QPalette.ColorRole.Text, text_color)
        ctx.clip = QRectF(0, 0, rect.width(), shown_height)
        doc.documentLayout().draw(painter, ctx)
        if cut and last_line is not None:
            self._paint_ellipsis(painter, opt, last_line, rect.width(), selected, text_color)
        painter.restore()

    def _paint_ellipsis(
        self,
        painter: QPainter,
        opt: QStyleOptionViewItem,
        line: object,
        width: int,
        selected: bool,
        text_color: QColor,
    ) -> None:
        metrics = opt.fontMetrics
        ell_width = metrics.horizontalAdvance(_ELLIPSIS) + 4
        y = line.y()  # type: ignore[attr-defined]
        height = line.height()  # type: ignore[attr-defined]
        end = line.x() + line.naturalTextWidth()  # type: ignore[attr-defined]
        x = min(end + 1, width - ell_width)
        if selected:
            background = opt.palette.color(QPalette.ColorRole.Highlight)
        elif opt.backgroundBrush.style() != Qt.BrushStyle.NoBrush:
            background = opt.backgroundBrush.color()
        elif opt.features & QStyleOptionViewItem.ViewItemFeature.Alternate:
            background = opt.palette.color(QPalette.ColorRole.AlternateBase)
        else:
            background = opt.palette.color(QPalette.ColorRole.Base)
        box = QRectF(x, y, ell_width, height)
        painter.fillRect(box, background)
        painter.setPen(text_color)
        painter.setFont(opt.font)
        painter.drawText(box, int(Qt.AlignmentFlag.AlignCenter), _ELLIPSIS)

    def sizeHint(self, option: QStyleOptionViewItem, index: _Index) -> QSize:
        kind = index.data(COLUMN_KIND_ROLE)
        if kind not in TEXT_KINDS:
            return super().sizeHint(option, index)
        metrics = option.fontMetrics
        text = index.data(Qt.ItemDataRole.DisplayRole) or ""
        width = metrics.horizontalAdvance(text[:120]) + 2 * _PADDING + 8
        return QSize(min(width, 420), metrics.height() + 6)

    # -- slots --------------------------------------------------------------------------------

    @Slot(int)
    def _on_detail_ready(self, segment: int) -> None:
        stale = [key for key in self._docs if key[0] == segment and not key[-1]]
        for key in stale:
            del self._docs[key]
        self.row_ready.emit(segment)
        self._repaint()

    @Slot()
    def _on_cache_cleared(self) -> None:
        self._docs.clear()
        self._repaint()

    def _repaint(self, cells: Sequence[QRect] = ()) -> None:
        """Repaint the view's cells at ``cells`` (viewport rectangles), or all of it."""
        view = self.parent()
        if not isinstance(view, QAbstractItemView):
            return
        viewport = view.viewport()
        if not cells:
            viewport.update()
            return
        region = QRegion()
        for rect in cells:
            region += rect
        viewport.update(region)


__all__ = [
    "BUILD_BUDGET_MS",
    "CELL_TEXT_LIMIT",
    "PAINT_BUDGET_MS",
    "HighlightDelegate",
]
