"""Paints source, reference and hypothesis cells with their matches highlighted.

Each cell is a :class:`QTextDocument` built from the *original* text with
:class:`QTextCursor`/:class:`QTextCharFormat` (never HTML), with exactly the character ranges of
the current highlight mode's layer (:mod:`gui.highlight.ranges`). The modes are the scoring
configuration's (:meth:`ScoringConfig.highlight_modes
<core.scoring.config.ScoringConfig.highlight_modes>`), read from the detail cache's config, so a
metric added to the registry shows up here with no change. When the reference cells show one
system's matches and a baseline is set (:meth:`HighlightDelegate.set_baseline`), they also show
that system's gains and losses against the baseline (:mod:`core.scoring.contrast`). Documents
are cached per (segment, column, mode, theme, reference system, baseline), so scrolling back
and repainting cost nothing. Where this is slow, it is the first paint of a cell (one document
per visible text cell) — the same trade-off qutebrowser's completion delegate makes.

Score cells are painted by Qt as usual, a difference cell's text in the theme's "better" or
"worse" colour by the way it goes for its column (:data:`~gui.table.model.BETTER_ROLE`).

Rows keep a fixed height: text is wrapped to the column width, clipped to the lines that fit,
and an ellipsis marks the cut. The detail pane shows the whole text.

While a row's detail is not computed yet, its cells are painted as plain text; the
:class:`~gui.highlight.detailcache.DetailCache` computes it in the background and the view
repaints when :attr:`~gui.highlight.detailcache.DetailCache.detail_ready` arrives.
"""

from __future__ import annotations

import contextlib
import time
from collections import OrderedDict
from collections.abc import Callable, Iterator, Sequence
from typing import Literal, NamedTuple

from PySide6.QtCore import (
    QEvent,
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
    QBrush,
    QColor,
    QHelpEvent,
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
    QTableView,
    QToolTip,
)

from matchlight.core.metrics.base import HighlightMode, Range
from matchlight.core.style.palette import theme
from matchlight.gui.highlight.detailcache import DetailCache
from matchlight.gui.highlight.palette import (
    build_document,
    clip_to,
    is_dark_palette,
    python_index,
)
from matchlight.gui.highlight.ranges import cell_ranges, contrasted, find_mode
from matchlight.gui.highlight.termarks import TER_EDITS, paint_ter_marks, ter_tooltip
from matchlight.gui.table.model import (
    BETTER_ROLE,
    COLUMN_KIND_ROLE,
    REF_ROLE,
    SEGMENT_ROLE,
    SYSTEM_ROLE,
    TEXT_KINDS,
)

# Documents kept in the delegate's cache.
DOC_CACHE_SIZE = 4000
# How long one paint of the view may spend building highlighted documents. Cells past it are
# painted plain (cheaper) and highlighted by the next paint, a turn of the event loop later;
# so a large screen, a page jump or a new comparison never holds the event loop for the whole
# screenful at once.
BUILD_BUDGET_MS = 15.0
# How long one paint of the view may take in all. Text cells reached after it get only their
# background this time and are painted by the next paint, a turn of the event loop later, so
# that the first paint of a comparison on a big screen (hundreds of cells) is no long stall.
PAINT_BUDGET_MS = 40.0
_ELLIPSIS = "…"
# Characters of a cell's text put in its document. A row shows two or three lines, so this is
# far more than any cell can show, and it bounds the cost of a cell: a very long line would
# be laid out in full at every paint. Cut cells end with the ellipsis like any other.
CELL_TEXT_LIMIT = 2000
# How far a selected cell's background moves from Base toward Text (light / dark themes).
SELECTION_WEIGHT = 0.17
SELECTION_WEIGHT_DARK = 0.22
_PADDING = 3
# The TER edit kinds drawn over a cell's text (not character formats).
_TER_DRAWN = frozenset({"ter_shift", "ter_dest", "ter_gap"})

_Index = QModelIndex | QPersistentModelIndex
# ``paint(painter, document, segment, system, dark)``: draws over a hypothesis cell once its
# text is drawn (error spans); the painter is in the document's coordinates, clipped to the
# lines the cell shows.
CellOverlay = Callable[[QPainter, QTextDocument, int, int, bool], None]
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


def _text_cell_option(opt: QStyleOptionViewItem, index: _Index) -> None:
    """What :meth:`QStyledItemDelegate.initStyleOption` adds for a text cell whose text the
    delegate paints itself: its background and text colours, if the model gives them.

    initStyleOption asks the model for seven roles, the whole text among them, on every paint
    of every cell; the cell's text is in its cached document already.
    """
    opt.index = index
    opt.features |= QStyleOptionViewItem.ViewItemFeature.HasDisplay
    background = index.data(Qt.ItemDataRole.BackgroundRole)
    if background is not None:
        opt.backgroundBrush = QBrush(background)
    foreground = index.data(Qt.ItemDataRole.ForegroundRole)
    if foreground is not None:
        opt.palette.setBrush(QPalette.ColorRole.Text, QBrush(foreground))


def _mix(a: QColor, b: QColor, weight: float) -> QColor:
    """``weight`` of ``b`` over ``a``."""
    return QColor.fromRgbF(
        a.redF() + (b.redF() - a.redF()) * weight,
        a.greenF() + (b.greenF() - a.greenF()) * weight,
        a.blueF() + (b.blueF() - a.blueF()) * weight,
    )


class _Fit(NamedTuple):
    """How a cell's document fits a text rectangle: the height of the whole lines shown,
    whether some text is cut off (an ellipsis), and where the last shown line is."""

    height: float
    cut: bool
    line_top: float
    line_height: float
    line_end: float


class _Cell:
    """A cell's cached document, and how it fits the last text rectangle it was painted in
    (a repaint of a cached cell then neither lays it out nor walks its lines)."""

    __slots__ = ("_fit", "doc", "marks", "truncated")

    def __init__(self, doc: QTextDocument, truncated: bool) -> None:
        self.doc = doc
        self.truncated = truncated
        self._fit: tuple[int, int, _Fit] | None = None
        # The text and the ranges drawn over it (TER's shifts and gaps, see termarks).
        self.marks: tuple[str, list[Range]] | None = None

    def fit(self, width: int, height: int) -> _Fit:
        """Wrap to ``width`` and find the whole lines that fit ``height`` (at least one)."""
        known = self._fit
        if known is not None and known[0] == width and known[1] == height:
            return known[2]
        doc = self.doc
        if doc.textWidth() != width:
            doc.setTextWidth(width)
        layout = doc.firstBlock().layout()
        count = layout.lineCount() if layout is not None else 0
        if not count:
            fit = _Fit(float(height), False, 0.0, float(height), 0.0)
        else:
            fitting = 0
            for i in range(count):
                line = layout.lineAt(i)
                if line.y() + line.height() <= height + 0.5:
                    fitting = i + 1
                else:
                    break
            last = layout.lineAt(max(fitting, 1) - 1)
            fit = _Fit(
                height=min(float(height), last.y() + last.height()),
                cut=fitting < count or doc.blockCount() > 1 or self.truncated,
                line_top=last.y(),
                line_height=last.height(),
                line_end=last.x() + last.naturalTextWidth(),
            )
        self._fit = (width, height, fit)
        return fit


class HighlightDelegate(QStyledItemDelegate):
    """Paints text cells of a :class:`~gui.table.model.SegmentTableModel` (or a proxy of it).

    Give it the view as parent: it then repaints the view's viewport when a row's detail
    arrives. Score cells are painted by :class:`QStyledItemDelegate` as usual. The highlight
    modes are those of the cache's configuration; when a new configuration no longer has the
    current mode, the first mode of the new one is used.

    Signals:
        mode_changed(str key): the highlight mode changed.
        modes_changed(): the modes on offer changed (a new configuration); see :meth:`modes`.
        row_ready(int segment): the highlights of ``segment`` are now available (repaint it).
    """

    mode_changed = Signal(str)
    modes_changed = Signal()
    row_ready = Signal(int)

    def __init__(
        self,
        cache: DetailCache,
        parent: QObject | None = None,
        *,
        clock: Callable[[], float] = time.perf_counter,
    ) -> None:
        super().__init__(parent)
        self._cache = cache
        self._clock = clock  # seconds; the paint budgets are measured with it
        self._modes: tuple[HighlightMode, ...] = cache.config.highlight_modes()
        self._mode: HighlightMode | None = self._modes[0] if self._modes else None
        self._reference_system: int | None = None
        self._baseline: int | None = None
        self._dark: bool | None = None
        self._docs: OrderedDict[tuple[object, ...], _Cell] = OrderedDict()
        # During a paint: the roles of each column and the segment of each row (see _roles).
        self._column_roles: dict[int, tuple[str | None, int | None, int | None]] | None = None
        self._row_segments: dict[int, int] | None = None
        # Build budget of the paint in progress (see begin_paint): None outside a paint, else
        # the seconds spent building highlighted documents in it so far.
        self._build_spent: float | None = None
        self._paint_started = 0.0
        self._full_cells = 0  # text cells painted in full by the paint in progress
        self._unbounded = 0  # > 0: no budget (see unbounded)
        self._deferred_cells: list[QRect] = []
        self._complete = True
        self._overlay: CellOverlay | None = None
        cache.detail_ready.connect(self._on_detail_ready)
        cache.cleared.connect(self._on_cache_cleared)

    # -- settings ---------------------------------------------------------------------------

    @property
    def cache(self) -> DetailCache:
        return self._cache

    def set_cache(self, cache: DetailCache, *, same_rows: bool = False) -> None:
        """Use another cache: of a new comparison, or (``same_rows``) of the comparison whose
        first rows the old one held, read to its end, under the same settings. A row's
        highlights depend on its texts and the settings only, so the documents built then stay:
        the repaint that follows is of cached cells (at a million rows, the one after the read
        had spent the paint's whole budget building the same documents again)."""
        self._cache.detail_ready.disconnect(self._on_detail_ready)
        self._cache.cleared.disconnect(self._on_cache_cleared)
        self._cache = cache
        cache.detail_ready.connect(self._on_detail_ready)
        cache.cleared.connect(self._on_cache_cleared)
        if not same_rows:
            self._docs.clear()
        self._sync_modes()
        self._repaint()

    def modes(self) -> tuple[HighlightMode, ...]:
        """The highlight modes on offer, in order (the configuration's)."""
        return self._modes

    def mode(self) -> str:
        """The key of the current highlight mode (``""`` when there is none)."""
        return "" if self._mode is None else self._mode.key

    def current_mode(self) -> HighlightMode | None:
        return self._mode

    def set_mode(self, mode: str) -> None:
        """Paint the layer ``mode`` (a key of :meth:`modes`; ValueError otherwise)."""
        chosen = find_mode(self._modes, mode)
        if chosen == self._mode:
            return
        self._mode = chosen
        self._docs.clear()
        self._repaint()
        self.mode_changed.emit(chosen.key)

    def _sync_modes(self) -> None:
        """Take the modes of the cache's configuration; keep the current one if it is there."""
        modes = self._cache.config.highlight_modes()
        if modes == self._modes:
            return
        self._modes = modes
        old = self.mode()
        keys = [m.key for m in modes]
        if old in keys:
            self._mode = modes[keys.index(old)]  # its max_level may have changed
        else:
            self._mode = modes[0] if modes else None
        self._docs.clear()
        self.modes_changed.emit()
        if self.mode() != old:
            self.mode_changed.emit(self.mode())

    def reference_system(self) -> int | None:
        return self._reference_system

    def set_reference_system(self, index: int | None) -> None:
        """Show reference matches of one system (None: of any system)."""
        if index == self._reference_system:
            return
        self._reference_system = index
        self._docs.clear()
        self._repaint()

    def baseline(self) -> int | None:
        return self._baseline

    def set_baseline(self, index: int | None) -> None:
        """The system the reference system's gains and losses are marked against (None: no
        marks); marks show while the reference cells show another system's matches."""
        if index == self._baseline:
            return
        self._baseline = index
        if self._reference_system is not None:
            self._docs.clear()
            self._repaint()

    def set_dark(self, dark: bool | None) -> None:
        """Force dark/light tints; None follows the view's palette."""
        self._dark = dark
        self._docs.clear()
        self._repaint()

    def set_overlay(self, paint: CellOverlay | None) -> None:
        """Draw ``paint`` over every hypothesis cell (None: nothing); it is not cached."""
        self._overlay = paint
        self._repaint()

    # -- paint budget -----------------------------------------------------------------------

    def begin_paint(self) -> None:
        """A paint of the whole view starts: highlighted documents get :data:`BUILD_BUDGET_MS`.

        The view calls this and :meth:`end_paint` around its paint event (see
        :class:`~gui.table.tableview.SegmentTableView`); without them every document is built at
        once.
        """
        self._build_spent = None if self._unbounded else 0.0
        self._paint_started = self._clock()
        self._full_cells = 0
        self._deferred_cells = []
        self._column_roles = {}
        self._row_segments = {}

    def end_paint(self) -> None:
        """The paint is over; cells left plain or empty for lack of time are painted again soon."""
        self._build_spent = None
        self._column_roles = self._row_segments = None
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

    def _roles(self, index: _Index) -> tuple[str | None, int, int | None, int | None]:
        """(column kind, segment, system, reference) of a cell.

        During a paint they are remembered per column (kind, system and reference describe a
        column) and per row (the segment): a paint asks the model once per column and row
        instead of four times per cell, and every ask of a proxied model is a Python call.
        """
        columns, rows = self._column_roles, self._row_segments
        if columns is None or rows is None:
            return (
                index.data(COLUMN_KIND_ROLE),
                index.data(SEGMENT_ROLE),
                index.data(SYSTEM_ROLE),
                index.data(REF_ROLE),
            )
        column = columns.get(index.column())
        if column is None:
            column = columns[index.column()] = (
                index.data(COLUMN_KIND_ROLE),
                index.data(SYSTEM_ROLE),
                index.data(REF_ROLE),
            )
        if column[0] not in TEXT_KINDS:
            return column[0], -1, column[1], column[2]
        segment = rows.get(index.row())
        if segment is None:
            segment = rows[index.row()] = index.data(SEGMENT_ROLE)
        return column[0], segment, column[1], column[2]

    def highlight_ranges(self, index: _Index) -> list[Range]:
        """(start, end, kind, level) painted in ``index``'s cell, in Python string indices.

        Empty for non-text cells, the source, and rows whose detail is not ready yet (asking
        schedules it).
        """
        kind, segment, system, reference = self._roles(index)
        if kind not in TEXT_KINDS:
            return []
        detail = self._cache.get(segment)
        if detail is None:
            return []
        return cell_ranges(
            detail, kind, system, reference, self.mode(), self._reference_system, self._baseline
        )

    def document(self, index: _Index, dark: bool = False) -> QTextDocument | None:
        """The (cached) document painted for a text cell, None for other cells."""
        if self._roles(index)[0] not in TEXT_KINDS:
            return None
        option = QStyleOptionViewItem()
        view = self.parent()
        if isinstance(view, QAbstractItemView):
            option.font = view.font()
        return self._document(index, option, dark)[0].doc

    def _document(
        self, index: _Index, option: QStyleOptionViewItem, dark: bool
    ) -> tuple[_Cell, _Outcome]:
        """The cell's document, and whether it was cached, built (with highlights, which the
        paint budget counts, or plain) or left plain for lack of time ("deferred")."""
        kind, segment, system, reference = self._roles(index)
        detail = self._cache.get(segment) if kind != "source" else None
        ref_system = self._reference_system if kind == "reference" else None
        baseline = self._baseline if contrasted(ref_system, self._baseline) else None
        mode = self._mode
        key = (
            segment,
            kind,
            system,
            reference,
            mode,
            dark,
            ref_system,
            baseline,
            detail is not None,
        )
        cell = self._docs.get(key)
        if cell is not None:
            self._docs.move_to_end(key)
            return cell, "cached"
        deferred = detail is not None and self._over_budget()
        if deferred:
            # Plain this time (cheap, and cached as the row was before its detail came).
            detail = None
            key = (*key[:-1], False)
            cell = self._docs.get(key)
            if cell is not None:
                return cell, "deferred"
        text = index.data(Qt.ItemDataRole.DisplayRole) or ""
        ranges = (
            []
            if detail is None or mode is None or kind is None
            else cell_ranges(detail, kind, system, reference, mode.key, ref_system, baseline)
        )
        truncated = len(text) > CELL_TEXT_LIMIT
        text, ranges = clip_to(text, ranges, CELL_TEXT_LIMIT)
        max_level = 1 if mode is None else mode.max_level
        doc = build_document(
            text, ranges, dark=dark, max_level=max_level, font=option.font, one_line=True
        )
        # A document lays itself out only once it has a layout object. Without one, paint's
        # setTextWidth laid nothing out, the lines were not known (lineCount() was 0), and the
        # first paint of a cell showed its text unelided, cut mid-line by the cell's edge.
        doc.documentLayout()
        doc.setProperty("truncated", truncated)
        cell = _Cell(doc, truncated)
        if mode is not None and mode.key == TER_EDITS and kind == "hypothesis":
            drawn = [r for r in ranges if r[2] in _TER_DRAWN]
            cell.marks = (text, drawn) if drawn else None
        self._docs[key] = cell
        while len(self._docs) > DOC_CACHE_SIZE:
            self._docs.popitem(last=False)
        if deferred:
            return cell, "deferred"
        return cell, "plain" if detail is None else "built"

    # -- painting ---------------------------------------------------------------------------

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: _Index) -> None:
        kind = self._roles(index)[0]
        if kind not in TEXT_KINDS:
            opt = QStyleOptionViewItem(option)
            _soften_selection(opt)
            if kind == "delta":
                self._colour_difference(opt, index)
            super().paint(painter, opt, index)
            return
        opt = QStyleOptionViewItem(option)
        _text_cell_option(opt, index)
        _soften_selection(opt)
        widget = opt.widget
        style = widget.style() if widget is not None else QApplication.style()
        style.drawControl(QStyle.ControlElement.CE_ItemViewItem, opt, painter, widget)
        rect = style.subElementRect(QStyle.SubElement.SE_ItemViewItemText, opt, widget)
        rect = rect.adjusted(_PADDING, 0, -_PADDING, 0)
        if rect.width() <= 0 or rect.height() <= 0:
            return
        started = self._clock()
        if (
            self._build_spent is not None
            and self._full_cells > 0
            and (started - self._paint_started) * 1000 >= PAINT_BUDGET_MS
        ):
            self._deferred_cells.append(QRect(option.rect))  # only its background, this time
            return
        self._full_cells += 1
        dark = is_dark_palette(opt.palette) if self._dark is None else self._dark
        cell, outcome = self._document(index, opt, dark)
        if outcome == "deferred":
            self._deferred_cells.append(QRect(option.rect))
        fit = cell.fit(rect.width(), rect.height())
        if outcome == "built" and self._build_spent is not None:
            # Building it and laying it out: what the budget of this paint pays for.
            self._build_spent += self._clock() - started
        selected = bool(opt.state & QStyle.StateFlag.State_Selected)
        group = (
            QPalette.ColorGroup.Normal
            if opt.state & QStyle.StateFlag.State_Enabled
            else QPalette.ColorGroup.Disabled
        )
        text_role = QPalette.ColorRole.HighlightedText if selected else QPalette.ColorRole.Text
        text_color = opt.palette.color(group, text_role)
        top = rect.top() + max(0.0, (rect.height() - fit.height) / 2)

        painter.save()
        painter.setClipRect(QRectF(rect.left(), top, rect.width(), fit.height))
        painter.translate(QPointF(rect.left(), top))
        ctx = QAbstractTextDocumentLayout.PaintContext()
        ctx.palette.setColor(QPalette.ColorRole.Text, text_color)
        ctx.clip = QRectF(0, 0, rect.width(), fit.height)
        cell.doc.documentLayout().draw(painter, ctx)
        if cell.marks is not None:
            paint_ter_marks(painter, cell.doc, *cell.marks, dark)
        if self._overlay is not None and kind == "hypothesis":
            _, segment, system, _ = self._roles(index)
            if system is not None:
                # Span boxes are drawn outside the lines they surround: clip to the cell.
                painter.setClipRect(QRectF(option.rect).translated(-rect.left(), -top))
                self._overlay(painter, cell.doc, segment, system, dark)
        if fit.cut:
            self._paint_ellipsis(painter, opt, fit, rect.width(), selected, text_color)
        painter.restore()

    def difference_colour(self, index: _Index, palette: QPalette) -> QColor | None:
        """The text colour of a difference cell: the theme's "better" colour when it goes its
        column's better way (an MQM penalty that went down), "worse" the other way, None when
        it shows no difference or is not a difference cell."""
        verdict = index.data(BETTER_ROLE)
        if not verdict:
            return None
        dark = is_dark_palette(palette) if self._dark is None else self._dark
        colours = theme(dark)
        return QColor(colours.better_text if verdict > 0 else colours.worse_text)

    def _colour_difference(self, opt: QStyleOptionViewItem, index: _Index) -> None:
        colour = self.difference_colour(index, opt.palette)
        if colour is None:
            return
        palette = opt.palette
        for group in (QPalette.ColorGroup.Active, QPalette.ColorGroup.Inactive):
            palette.setColor(group, QPalette.ColorRole.Text, colour)
            palette.setColor(group, QPalette.ColorRole.HighlightedText, colour)
        opt.palette = palette

    def _paint_ellipsis(
        self,
        painter: QPainter,
        opt: QStyleOptionViewItem,
        fit: _Fit,
        width: int,
        selected: bool,
        text_color: QColor,
    ) -> None:
        metrics = opt.fontMetrics
        ell_width = metrics.horizontalAdvance(_ELLIPSIS) + 4
        x = min(fit.line_end + 1, width - ell_width)
        if selected:
            background = opt.palette.color(QPalette.ColorRole.Highlight)
        elif opt.backgroundBrush.style() != Qt.BrushStyle.NoBrush:
            background = opt.backgroundBrush.color()
        elif opt.features & QStyleOptionViewItem.ViewItemFeature.Alternate:
            background = opt.palette.color(QPalette.ColorRole.AlternateBase)
        else:
            background = opt.palette.color(QPalette.ColorRole.Base)
        box = QRectF(x, fit.line_top, ell_width, fit.line_height)
        painter.fillRect(box, background)
        painter.setPen(text_color)
        painter.setFont(opt.font)
        painter.drawText(box, int(Qt.AlignmentFlag.AlignCenter), _ELLIPSIS)

    def ter_tooltip_at(
        self, option: QStyleOptionViewItem, index: _Index, point: QPointF
    ) -> str | None:
        """What the TER edit marks under ``point`` (viewport coordinates) of an output cell
        mean, in the "TER edits" mode; None elsewhere or when its detail is not ready."""
        kind, segment, system, _ = self._roles(index)
        if self.mode() != TER_EDITS or kind != "hypothesis" or system is None:
            return None
        detail = self._cache.peek(segment)
        if detail is None:
            return None
        opt = QStyleOptionViewItem(option)
        _text_cell_option(opt, index)
        widget = opt.widget
        style = widget.style() if widget is not None else QApplication.style()
        rect = style.subElementRect(QStyle.SubElement.SE_ItemViewItemText, opt, widget)
        rect = rect.adjusted(_PADDING, 0, -_PADDING, 0)
        if rect.width() <= 0 or rect.height() <= 0:
            return None
        dark = is_dark_palette(opt.palette) if self._dark is None else self._dark
        cell = self._document(index, opt, dark)[0]
        fit = cell.fit(rect.width(), rect.height())
        top = rect.top() + max(0.0, (rect.height() - fit.height) / 2)
        local = QPointF(point.x() - rect.left(), point.y() - top)
        position = cell.doc.documentLayout().hitTest(local, Qt.HitTestAccuracy.FuzzyHit)
        if position < 0:
            return None
        text = detail.outputs[system][:CELL_TEXT_LIMIT]
        return ter_tooltip(detail, system, python_index(text, position))

    def helpEvent(
        self,
        event: QHelpEvent,
        view: QAbstractItemView,
        option: QStyleOptionViewItem,
        index: _Index,
    ) -> bool:
        if event.type() == QEvent.Type.ToolTip:
            tip = self.ter_tooltip_at(option, index, QPointF(event.pos()))
            if tip is not None:
                QToolTip.showText(event.globalPos(), tip, view)
                return True
        return super().helpEvent(event, view, option, index)

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
        self._repaint_segment(segment)

    @Slot()
    def _on_cache_cleared(self) -> None:
        self._docs.clear()
        self._sync_modes()  # the cache is cleared when its configuration changes
        self._repaint()

    def _repaint_segment(self, segment: int) -> None:
        """Repaint the row of ``segment`` if it is on screen (a detail arrived for it alone);
        the whole view when the model cannot say where the segment is."""
        view = self.parent()
        proxy_row = (
            getattr(view.model(), "proxy_row", None) if isinstance(view, QTableView) else None
        )
        if not isinstance(view, QTableView) or not callable(proxy_row):
            self._repaint()
            return
        row = proxy_row(segment)
        if row < 0:
            return
        viewport = view.viewport()
        top, height = view.rowViewportPosition(row), view.rowHeight(row)
        if top + height >= 0 and top <= viewport.height():
            viewport.update(QRect(0, top, viewport.width(), height))

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
    "CellOverlay",
    "HighlightDelegate",
]
