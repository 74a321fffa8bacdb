"""The segment table's rows as the comparison's selection says: a proxy that only maps indexes.

Which rows are shown and in which order is decided in ``core``
(:mod:`core.analysis.selection`, held by :class:`~core.session.comparison.ComparisonSession`):
filters are frozen specs that become a row mask, and the sort an order, with numpy. This proxy
turns the user's actions (a header click, the filter bar) into selection specs, and maps rows
through the session's result with one ``layoutChanged`` that keeps the selection and the current
index (persistent indexes are remapped).

A search or a text sort over many rows (:data:`~gui.table.selectionworker.BACKGROUND_ROWS`) is
not computed in the GUI thread: the user's latest edit of each kind stays pending while a worker
prepares it (:mod:`gui.table.selectionworker`), and is then set in one step; until then the table
keeps its rows. The search caches of a big comparison are built by a worker of their own once
the proxy has shown it (not while the files are read: the first rows show seconds sooner).

Why not :class:`QSortFilterProxyModel`: it asks Python once per row (``filterAcceptsRow``) or per
comparison (``lessThan``/``data``), which is slow on 100,000 rows even with a precomputed filter
mask or rank array. This proxy offers the parts of its API a view or shell expects:
:meth:`sort`, :meth:`sortColumn`, :meth:`sortOrder`, :meth:`invalidate`,
:meth:`setDynamicSortFilter`, :meth:`filterAcceptsRow`.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt
from PySide6.QtCore import (
    QAbstractItemModel,
    QAbstractProxyModel,
    QAbstractTableModel,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    Qt,
    QTimer,
    Signal,
    Slot,
)

from matchlight.core.analysis.selection import (
    DeltaFilter,
    EmptyRows,
    Filter,
    FlagFilter,
    LengthRatio,
    ScoreRange,
    Selection,
    SelectionError,
    TextFilter,
)
from matchlight.core.analysis.textsearch import PatternError, TextQuery
from matchlight.gui.state.session import SessionModel
from matchlight.gui.table.model import ANSWERED_ROLES, SHORT_TITLE_ROLE, SegmentTableModel
from matchlight.gui.table.selectionworker import (
    BACKGROUND_ROWS,
    Edit,
    SelectionWorker,
)

# Special filters of :meth:`SegmentFilterProxy.set_special_filter` ("" = none).
SPECIAL_FILTERS: tuple[str, ...] = ("", "empty", "length-mismatch", "lsum-fallback")
# Default bounds of hyp_len / ref_len outside which a row counts as a length mismatch.
DEFAULT_RATIO_BOUNDS = (0.5, 2.0)
# The selection filter kinds behind the special filters (one of them at a time).
_SPECIAL_KINDS = ("empty", "length", "flag")
# A change of more source rows than this is passed on as a change of every proxy row (rather
# than mapping each of them to find the first and the last).
_MAPPED_SPAN = 4096
# How long after a comparison is shown (or its rows appended) the warm-up starts building the
# search caches: the window's own turns of showing it (the rows appended, the charts, the first
# paint) come first. Meanwhile its worker would hold the interpreter in calls of milliseconds
# each, which the GUI thread waits out at every call into Qt.
WARM_UP_DELAY_MS = 1500

# What :meth:`QAbstractTableModel.flags` gives every valid cell.
_CELL_FLAGS = (
    Qt.ItemFlag.ItemIsSelectable | Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemNeverHasChildren
)

BoolArray = npt.NDArray[np.bool_]
IntArray = npt.NDArray[np.int64]

_ROOT = QModelIndex()


def special_filter_spec(
    kind: str,
    *,
    low_ratio: float = DEFAULT_RATIO_BOUNDS[0],
    high_ratio: float = DEFAULT_RATIO_BOUNDS[1],
) -> Filter | None:
    """The selection filter behind special filter ``kind`` (None for ``""``); see
    :meth:`SegmentFilterProxy.set_special_filter`."""
    if kind not in SPECIAL_FILTERS:
        choices = ", ".join(map(repr, SPECIAL_FILTERS))
        raise ValueError(f"unknown special filter {kind!r}; expected one of {choices}")
    if not 0 <= low_ratio <= high_ratio:
        raise ValueError(f"need 0 <= low_ratio <= high_ratio, got {low_ratio}, {high_ratio}")
    if kind == "empty":
        return EmptyRows()
    if kind == "length-mismatch":
        return LengthRatio(float(low_ratio), float(high_ratio))
    if kind == "lsum-fallback":
        return FlagFilter("lsum_fallback")
    return None


@dataclass(frozen=True, slots=True)
class TextFilterState:
    """The text filter as the filter bar shows it (``column`` is a view column or None)."""

    pattern: str
    column: int | None
    regex: bool
    case_sensitive: bool


class SegmentFilterProxy(QAbstractProxyModel):
    """Shows the rows of the comparison's selection, in its order.

    The filter methods below build selection specs and hand them to the session; every filter
    combines with AND. Score filters and score sorts are re-applied by the session while scores
    arrive (batched, see :class:`~gui.state.session.SessionModel`).

    Signals:
        filter_changed(): the rows shown or their order changed; :meth:`rowCount` and
            :meth:`visible_segments` are already up to date.
        filter_error(str message): a filter was rejected (an invalid regular expression); the
            previous one stays in force. The message is user-facing.
        pending_changed(bool pending): an edit (text filter, sort) started waiting for its
            worker (True), or none is waiting any more (False).
    """

    filter_changed = Signal()
    filter_error = Signal(str)
    pending_changed = Signal(bool)

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._model: SegmentTableModel | None = None
        self._session: SessionModel | None = None
        self._n = 0
        self._p2s: IntArray = np.zeros(0, dtype=np.int64)
        self._s2p: IntArray = np.zeros(0, dtype=np.int64)
        self._sort_column = -1
        self._sort_order = Qt.SortOrder.AscendingOrder
        self._dynamic = True
        self._worker = SelectionWorker(
            self,
            session=lambda: self._session,
            rows=lambda: self._n,
            apply=self._set,
            failed=self.filter_error.emit,
            busy=self.pending_changed.emit,
        )
        # Milliseconds from showing the rows to starting the warm-up (tests set 0: at once).
        self.warm_up_delay_ms = WARM_UP_DELAY_MS
        self._warm_up_timer = QTimer(self)
        self._warm_up_timer.setSingleShot(True)
        self._warm_up_timer.timeout.connect(self._worker.start_warm_up)

    @property
    def background_rows(self) -> int:
        """Rows from which slow selections are prepared in a worker (tests lower it)."""
        return self._worker.background_rows

    @background_rows.setter
    def background_rows(self, rows: int) -> None:
        self._worker.background_rows = rows

    @property
    def select_rows(self) -> int:
        """Rows from which every selection is computed in a worker (tests lower it)."""
        return self._worker.select_rows

    @select_rows.setter
    def select_rows(self, rows: int) -> None:
        self._worker.select_rows = rows

    # -- source model -----------------------------------------------------------------------

    def setSourceModel(self, model: QAbstractItemModel | None) -> None:
        if model is not None and not isinstance(model, SegmentTableModel):
            raise TypeError(f"SegmentFilterProxy needs a SegmentTableModel, not {model!r}")
        self._worker.drop_pending()
        self.beginResetModel()
        if self._model is not None:
            old = self._model
            old.dataChanged.disconnect(self._on_source_data_changed)
            old.headerDataChanged.disconnect(self._on_source_header_data_changed)
            old.modelAboutToBeReset.disconnect(self._on_source_about_to_be_reset)
            old.modelReset.disconnect(self._on_source_reset)
            old.rowsInserted.disconnect(self._on_source_rows_inserted)
        if self._session is not None:
            self._session.selection_changed.disconnect(self._on_selection_changed)
        super().setSourceModel(model)
        self._model = model
        self._session = None if model is None else model.session
        self._sort_column = -1
        if model is not None:
            model.dataChanged.connect(self._on_source_data_changed)
            model.headerDataChanged.connect(self._on_source_header_data_changed)
            model.modelAboutToBeReset.connect(self._on_source_about_to_be_reset)
            model.modelReset.connect(self._on_source_reset)
            model.rowsInserted.connect(self._on_source_rows_inserted)
            model.session.selection_changed.connect(self._on_selection_changed)
        self._recompute()
        self.endResetModel()
        self._warm_up_soon()

    def _warm_up_soon(self) -> None:
        """Start the warm-up of a big comparison after :attr:`warm_up_delay_ms` (again from now
        if it was due); any other (none to build) at once, which ends the one running."""
        if self.warm_up_delay_ms > 0 and self._n >= self._worker.background_rows:
            self._warm_up_timer.start(self.warm_up_delay_ms)
        else:
            self._warm_up_timer.stop()
            self._worker.start_warm_up()

    def source_model(self) -> SegmentTableModel:
        if self._model is None:
            raise RuntimeError("SegmentFilterProxy has no source model yet")
        return self._model

    def _core(self) -> SessionModel:
        if self._session is None:
            raise RuntimeError("SegmentFilterProxy has no source model yet")
        return self._session

    def search_ready(self) -> bool:
        """Whether every text column's search caches are built (otherwise the first search
        builds what it needs; the session takes them ready-made from the reading thread)."""
        if self._session is None:
            return False
        return all(c.is_prepared() for c in self._session.session.search_columns.values())

    # -- filters ----------------------------------------------------------------------------

    def _set(self, selection: Selection, rows: object = None) -> bool:
        try:
            if rows is None:
                self._core().set_selection(selection)
            else:  # computed by a worker
                self._core().set_selection(selection, rows)
        except SelectionError as error:
            self.filter_error.emit(str(error))
            return False
        return True

    def set_text_filter(
        self,
        pattern: str,
        column: int | None = None,
        regex: bool = False,
        case_sensitive: bool = False,
    ) -> bool:
        """Keep rows whose text matches ``pattern`` in ``column`` (None: any text column).

        An empty pattern removes the text filter. Returns False and emits :attr:`filter_error`
        (keeping the previous text filter) when ``pattern`` is not a valid regular expression.
        Over many rows the search runs in a worker (see the module's doc): the rows change once
        it is done, unless a newer text filter replaced it first.
        """
        spec = self.text_filter_spec(pattern, column, regex, case_sensitive)
        if spec is not None and spec.regex:
            try:
                TextQuery(spec.pattern, regex=True, case_sensitive=spec.case_sensitive).compile()
            except PatternError as error:
                self.filter_error.emit(str(error))
                return False
        if spec is None:
            return self._request("text", lambda s: s.without("text"))
        return self._request("text", lambda s: s.with_filter(spec))

    def text_filter_spec(
        self,
        pattern: str,
        column: int | None = None,
        regex: bool = False,
        case_sensitive: bool = False,
    ) -> TextFilter | None:
        """The selection filter :meth:`set_text_filter` makes of these arguments (None: no text
        filter, for an empty pattern)."""
        if not pattern:
            return None
        columns = () if column is None else (self.source_model().text_key(column),)
        return TextFilter(pattern, regex=regex, columns=columns, case_sensitive=case_sensitive)

    def set_score_range(
        self, metric: str, system: int, low: float | None, high: float | None
    ) -> None:
        """Keep rows where ``metric`` of ``system`` lies in ``[low, high]`` (0-100 scale).

        Either bound may be None (open); both None removes this range. Ranges on different
        (metric, system) pairs combine with AND. Unscored rows never pass a score range.
        """
        self.source_model().table.metric_index(metric)  # KeyError with the list of columns
        self._check_system(system)
        spec = ScoreRange(metric, system, low, high)
        kind = f"range {metric} {system}"
        if low is None and high is None:

            def drop(selection: Selection) -> Selection:
                kept = tuple(
                    f
                    for f in selection.filters
                    if not (isinstance(f, ScoreRange) and (f.column, f.system) == (metric, system))
                )
                return Selection(kept, selection.sort)

            target = self._target()
            if drop(target) == target:
                return
            self._edit(kind, drop)
        else:
            self._edit(kind, lambda s: s.with_filter(spec))

    def set_delta_filter(
        self,
        system_a: int,
        system_b: int,
        metric: str,
        minimum: float | None,
        *,
        below: bool = False,
    ) -> None:
        """Keep rows where ``metric`` of system A minus that of system B is at least ``minimum``
        (``below``: at most, which is how A beats B on a lower-is-better column).

        ``minimum`` None removes the delta filter.
        """
        if minimum is None:
            if not any(isinstance(f, DeltaFilter) for f in self._target().filters):
                return
            self._edit("delta", lambda s: s.without("delta"))
            return
        self.source_model().table.metric_index(metric)
        self._check_system(system_a)
        self._check_system(system_b)
        spec = DeltaFilter(metric, system_a, system_b, float(minimum), below=below)
        self._edit("delta", lambda s: s.without("delta").with_filter(spec))

    def set_special_filter(
        self,
        kind: str,
        *,
        low_ratio: float = DEFAULT_RATIO_BOUNDS[0],
        high_ratio: float = DEFAULT_RATIO_BOUNDS[1],
    ) -> None:
        """Keep only special rows; ``kind`` is one of :data:`SPECIAL_FILTERS`.

        * ``"empty"``: some hypothesis or reference is empty or whitespace only;
        * ``"length-mismatch"``: for some system, hyp_len / ref_len (BLEU tokens) lies outside
          ``[low_ratio, high_ratio]`` (an empty reference with a non-empty hypothesis counts);
        * ``"lsum-fallback"``: ROUGE-Lsum found no sentence boundary (it equals ROUGE-L);
        * ``""``: no special filter.
        """
        spec = special_filter_spec(kind, low_ratio=low_ratio, high_ratio=high_ratio)

        def edit(selection: Selection) -> Selection:
            for special in _SPECIAL_KINDS:
                selection = selection.without(special)
            return selection if spec is None else selection.with_filter(spec)

        self._edit("special", edit)

    def remove_filter(self, spec: Filter) -> None:
        """Remove exactly the filter ``spec`` (equal specs), leaving every other one."""

        def edit(selection: Selection) -> Selection:
            return Selection(tuple(f for f in selection.filters if f != spec), selection.sort)

        target = self._target()
        if edit(target) != target:
            self._edit(f"remove {spec!r}", edit)

    def defer_selection(self, selection: Selection, meanwhile: Selection) -> None:
        """Show ``meanwhile`` now and keep ``selection`` pending (the edits pending already
        apply on top of it) until :meth:`resume_pending`: the comparison is about to grow,
        and ``selection`` (a search) is then computed on all its rows, in a worker when that
        is slow, instead of by the session as it takes them."""
        self._worker.defer(selection)
        self._set(meanwhile)

    def resume_pending(self) -> None:
        """Apply the pending edits (see :meth:`defer_selection`)."""
        self._worker.resume()

    def clear_filters(self) -> None:
        """Remove every filter (the sort stays); pending filters are dropped."""
        if self._n < self.select_rows:
            self.cancel_pending("text")
            self._set(Selection(sort=self._core().selection.sort))
            return
        # Their worker is replaced by the one of this edit.
        self._worker.drop_kinds([k for k in self._worker.pending_kinds() if k != "sort"])
        self._request("clear", lambda s: Selection(sort=s.sort))

    # -- pending edits (gui.table.selectionworker) ---------------------------------------------

    def pending(self, kind: str | None = None) -> bool:
        """Whether an edit (of ``kind``: "text", "sort") waits for its worker."""
        return self._worker.pending(kind)

    def cancel_pending(self, kind: str) -> None:
        """Drop the pending edit of ``kind`` (the user is typing another search): its result
        is never applied; the other pending edits go on."""
        self._worker.cancel_pending(kind)

    def _request(self, kind: str, edit: Edit) -> bool:
        return self._worker.request(kind, edit)

    def _edit(self, kind: str, edit: Edit) -> None:
        self._worker.edit(kind, edit)

    def target(self) -> Selection:
        """The selection once the pending edits are applied (the current one if none is)."""
        return self._worker.target()

    def _target(self) -> Selection:
        return self._worker.target()

    # -- filter state -------------------------------------------------------------------------

    def text_filter(self) -> TextFilterState | None:
        """The selection's text filter, whoever set it (a restored session, the filter bar).

        ``column`` is the view column searched; None when the filter searches every text column
        (or several, which only a hand-made selection does).
        """
        for f in self._core().selection.filters:
            if isinstance(f, TextFilter):
                column = self.text_column(f.columns[0]) if len(f.columns) == 1 else None
                return TextFilterState(f.pattern, column, f.regex, f.case_sensitive)
        return None

    def text_column(self, name: str) -> int | None:
        """The view column of text column ``name`` (``source``, ``ref1``.., ``hyp1``..)."""
        model = self.source_model()
        for col in model.text_columns():
            if model.text_key(col) == name:
                return col
        return None

    def score_ranges(self) -> dict[tuple[str, int], tuple[float | None, float | None]]:
        return {
            (f.column, f.system): (f.low, f.high)
            for f in self._core().selection.filters
            if isinstance(f, ScoreRange)
        }

    def delta_filter(self) -> DeltaFilter | None:
        for f in self._core().selection.filters:
            if isinstance(f, DeltaFilter):
                return f
        return None

    def special_filter(self) -> str:
        for f in self._core().selection.filters:
            if isinstance(f, EmptyRows):
                return "empty"
            if isinstance(f, LengthRatio):
                return "length-mismatch"
            if isinstance(f, FlagFilter):
                return "lsum-fallback"
        return ""

    def is_filtered(self) -> bool:
        return self._session is not None and self._session.session.is_filtered()

    def visible_segments(self) -> IntArray:
        """0-based segments of the visible rows, in view order (a copy)."""
        return self._p2s.copy()

    def filter_mask(self) -> BoolArray:
        """Per segment: does it pass every filter (a copy)."""
        if self._session is None:
            return np.ones(self._n, dtype=np.bool_)
        return self._session.session.selected()

    def filterAcceptsRow(
        self,
        source_row: int,
        source_parent: QModelIndex | QPersistentModelIndex = _ROOT,
    ) -> bool:
        """Whether source row ``source_row`` passes the filters (QSortFilterProxyModel API)."""
        if source_parent.isValid() or not 0 <= source_row < self._n:
            return False
        return bool(self._s2p[source_row] >= 0)

    def _check_system(self, system: int) -> None:
        n_sys = len(self.source_model().text.systems)
        if not 0 <= system < n_sys:
            raise IndexError(f"system index must be 0..{n_sys - 1}, not {system}")

    # -- sorting ------------------------------------------------------------------------------

    def sort(self, column: int, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder) -> None:
        """Sort by ``column`` (-1: segment order). Numbers sort numerically, NaN always last."""
        model = self._model
        if model is None:
            return
        if column >= model.columnCount():
            column = -1
        self._sort_column = column
        self._sort_order = Qt.SortOrder(order)
        spec = model.sort_spec(column, self._sort_order == Qt.SortOrder.DescendingOrder)
        self._request("sort", lambda s: s.with_sort(spec))

    def sortColumn(self) -> int:
        return self._sort_column

    def sortOrder(self) -> Qt.SortOrder:
        return self._sort_order

    def setDynamicSortFilter(self, enable: bool) -> None:
        """Kept for the QSortFilterProxyModel API: the session re-applies score-dependent
        selections as scores arrive."""
        self._dynamic = bool(enable)

    def dynamicSortFilter(self) -> bool:
        return self._dynamic

    def invalidate(self) -> None:
        """Re-apply the selection to the current scores now."""
        if self._session is not None:
            self._session.refresh_now()
            self._apply(announce=True)

    # -- mapping ------------------------------------------------------------------------------

    def _order(self) -> IntArray:
        if self._session is None:
            return np.zeros(0, dtype=np.int64)
        return self._session.session.view_order()

    def _recompute(self) -> None:
        """Rebuild the mapping from the session (no signals)."""
        model = self._model
        self._n = 0 if model is None else model.rowCount()
        self._set_mapping(self._order() if model is not None else np.zeros(0, np.int64))

    def _set_mapping(self, p2s: IntArray) -> None:
        s2p = np.full(self._n, -1, dtype=np.int64)
        s2p[p2s] = np.arange(len(p2s), dtype=np.int64)
        self._p2s = p2s.astype(np.int64, copy=False)
        self._s2p = s2p

    def _apply(self, *, announce: bool) -> None:
        """Move rows to the session's order with one layout change that keeps persistent
        indexes."""
        if self._model is None:
            return
        # PySide6 only exposes the argument-less overload (hint: NoLayoutChangeHint).
        self.layoutAboutToBeChanged.emit()
        persistent = self.persistentIndexList()
        old_p2s = self._p2s
        saved = [
            (int(old_p2s[i.row()]), i.column()) if 0 <= i.row() < len(old_p2s) else None
            for i in persistent
        ]
        self._set_mapping(self._order())
        new_indexes = []
        for item in saved:
            if item is None:
                new_indexes.append(QModelIndex())
                continue
            row = int(self._s2p[item[0]])
            new_indexes.append(QModelIndex() if row < 0 else self.createIndex(row, item[1]))
        if persistent:
            self.changePersistentIndexList(persistent, new_indexes)
        self.layoutChanged.emit()
        if announce:
            self.filter_changed.emit()

    @Slot(bool)
    def _on_selection_changed(self, rows_changed: bool) -> None:
        if rows_changed or not np.array_equal(self._p2s, self._order()):
            self._apply(announce=True)

    # -- source signals -----------------------------------------------------------------------

    @Slot(QModelIndex, QModelIndex, list)
    def _on_source_data_changed(
        self, top_left: QModelIndex, bottom_right: QModelIndex, roles: list[int] | None = None
    ) -> None:
        if self._model is None or not top_left.isValid() or not bottom_right.isValid():
            return
        first, last = top_left.row(), bottom_right.row()
        if last - first + 1 > _MAPPED_SPAN:
            # Many rows (every row: new settings, rows appended): the proxy's rows between
            # their first and last are most of them anyway; the view repaints what it shows.
            if len(self._p2s):
                self.dataChanged.emit(
                    self.index(0, top_left.column()),
                    self.index(len(self._p2s) - 1, bottom_right.column()),
                    roles or [],
                )
            return
        rows = self._s2p[first : last + 1]
        rows = rows[rows >= 0]
        if len(rows):
            self.dataChanged.emit(
                self.index(int(rows.min()), top_left.column()),
                self.index(int(rows.max()), bottom_right.column()),
                roles or [],
            )

    @Slot(Qt.Orientation, int, int)
    def _on_source_header_data_changed(
        self, orientation: Qt.Orientation, first: int, last: int
    ) -> None:
        if orientation == Qt.Orientation.Horizontal:
            self.headerDataChanged.emit(orientation, first, last)
        elif self._p2s.size:
            self.headerDataChanged.emit(orientation, 0, len(self._p2s) - 1)

    @Slot()
    def _on_source_about_to_be_reset(self) -> None:
        self._worker.drop_pending()
        self.beginResetModel()

    @Slot()
    def _on_source_reset(self) -> None:
        model = self.source_model()
        if self._sort_column >= model.columnCount():
            self._sort_column = -1
        self._recompute()
        self.endResetModel()
        self.filter_changed.emit()
        self._warm_up_soon()

    @Slot(QModelIndex, int, int)
    def _on_source_rows_inserted(self, _parent: QModelIndex, _first: int, _last: int) -> None:
        """Rows were appended to the comparison: they show once the session's selection,
        which follows at once, takes them in (one layout change); their text columns get
        their search caches as a big comparison's do."""
        if self._model is None:
            return
        self._n = self._model.rowCount()
        s2p = np.full(self._n, -1, dtype=np.int64)
        s2p[: len(self._s2p)] = self._s2p
        self._s2p = s2p
        self._warm_up_soon()

    # -- QAbstractItemModel -------------------------------------------------------------------

    def mapToSource(self, proxy_index: QModelIndex | QPersistentModelIndex) -> QModelIndex:
        model = self._model
        if model is None or not proxy_index.isValid():
            return QModelIndex()
        row = proxy_index.row()
        if not 0 <= row < len(self._p2s):
            return QModelIndex()
        # The row is one of the model's and the column one of this proxy's, which are the
        # model's: createIndex skips index()'s checks (two calls back into Python).
        return model.createIndex(int(self._p2s[row]), proxy_index.column())

    def mapFromSource(self, source_index: QModelIndex | QPersistentModelIndex) -> QModelIndex:
        if self._model is None or not source_index.isValid():
            return QModelIndex()
        row = source_index.row()
        if not 0 <= row < self._n:
            return QModelIndex()
        proxy_row = int(self._s2p[row])
        if proxy_row < 0:
            return QModelIndex()
        return self.createIndex(proxy_row, source_index.column())

    def source_row(self, proxy_row: int) -> int:
        """The segment shown in proxy row ``proxy_row``."""
        return int(self._p2s[proxy_row])

    def proxy_row(self, segment: int) -> int:
        """The proxy row showing ``segment``, or -1 when it is filtered out."""
        return int(self._s2p[segment]) if 0 <= segment < self._n else -1

    def index(
        self, row: int, column: int, parent: QModelIndex | QPersistentModelIndex = _ROOT
    ) -> QModelIndex:
        if parent.isValid() or self._model is None:
            return QModelIndex()
        if not (0 <= row < len(self._p2s) and 0 <= column < self._model.columnCount()):
            return QModelIndex()
        return self.createIndex(row, column)

    def parent(self, child: QModelIndex | QPersistentModelIndex | None = None) -> object:  # type: ignore[override]
        if child is None:
            return QObject.parent(self)
        return QModelIndex()

    def sibling(
        self, row: int, column: int, index: QModelIndex | QPersistentModelIndex
    ) -> QModelIndex:
        return self.index(row, column)

    def hasChildren(self, parent: QModelIndex | QPersistentModelIndex = _ROOT) -> bool:
        return not parent.isValid() and len(self._p2s) > 0 and self.columnCount() > 0

    def rowCount(self, parent: QModelIndex | QPersistentModelIndex = _ROOT) -> int:
        return 0 if parent.isValid() else len(self._p2s)

    def columnCount(self, parent: QModelIndex | QPersistentModelIndex = _ROOT) -> int:
        if parent.isValid() or self._model is None:
            return 0
        return self._model.columnCount()

    def data(
        self,
        index: QModelIndex | QPersistentModelIndex,
        role: int = Qt.ItemDataRole.DisplayRole,
    ) -> object:
        model = self._model
        if model is None or role not in ANSWERED_ROLES or not index.isValid():
            return None
        row = index.row()
        if not 0 <= row < len(self._p2s):
            return None
        # No source index: creating one calls back into Python for rowCount and columnCount,
        # and every paint asks every visible cell for about ten roles.
        return model.cell_data(int(self._p2s[row]), index.column(), role)

    def flags(self, index: QModelIndex | QPersistentModelIndex) -> Qt.ItemFlag:
        model = self._model
        if not index.isValid() or model is None:
            return Qt.ItemFlag.NoItemFlags
        if type(model).flags is QAbstractTableModel.flags and 0 <= index.row() < len(self._p2s):
            # The model keeps Qt's flags, the same for every cell: a paint asks each visible
            # cell, and mapping it first took three calls between Qt and Python per cell.
            return _CELL_FLAGS
        return model.flags(self.mapToSource(index))

    def headerData(
        self,
        section: int,
        orientation: Qt.Orientation,
        role: int = Qt.ItemDataRole.DisplayRole,
    ) -> object:
        model = self._model
        if model is None:
            return None
        if orientation == Qt.Orientation.Vertical:
            if not 0 <= section < len(self._p2s):
                return None
            return model.headerData(int(self._p2s[section]), orientation, role)
        if role == Qt.ItemDataRole.DisplayRole:  # the table's header: a score by its metric
            role = SHORT_TITLE_ROLE
        return model.headerData(section, orientation, role)


__all__ = [
    "BACKGROUND_ROWS",
    "DEFAULT_RATIO_BOUNDS",
    "SPECIAL_FILTERS",
    "SegmentFilterProxy",
    "TextFilterState",
    "special_filter_spec",
]
