"""What the comparison charts share: the open comparison, its row selection, the table's current
row and the label columns loaded for it.

Charts never own the selection. A brushed range, a clicked bin or bucket, a box on the scatter
become a :class:`~core.analysis.selection.RowSet` filter of the comparison's selection (through
:class:`~gui.state.session.SessionModel`), so the table's proxy shows exactly those rows and
every other chart follows. A chart that brushed keeps seeing the rows the *other* filters keep
(:meth:`ChartLink.population`), so its own brush never empties it. Clicking one point or one
segment makes that row current in the table instead.
"""

from __future__ import annotations

import contextlib
from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt
from PySide6.QtCore import (
    QCoreApplication,
    QItemSelectionModel,
    QModelIndex,
    QObject,
    QTimer,
    Signal,
    Slot,
)
from PySide6.QtWidgets import QAbstractItemView

from matchlight.core.analysis.selection import RowSet, SelectionData, SelectionError
from matchlight.core.io.labels import LabelColumn
from matchlight.core.metrics.base import ScoreColumn
from matchlight.core.scoring.results import ScoreTable
from matchlight.core.session.comparison import ComparisonSession
from matchlight.gui.state.session import SessionModel

__all__ = ["DATA_DELAY_MS", "ChartLink", "chart_columns"]

BoolArray = npt.NDArray[np.bool_]
IntArray = npt.NDArray[np.int64]

# How long chart updates wait to batch scores arriving in chunks (ms).
DATA_DELAY_MS = 400
# The source of the row set a chart brush puts in the selection (one per selection).
BRUSH_SOURCE = "chart"


def chart_columns(table: ScoreTable) -> list[ScoreColumn]:
    """The score columns a chart offers: headline columns, then added ones (imported scores),
    then the other score columns (ROUGE P and R, ROUGE-Lsum)."""
    scores = [c for c in table.columns if c.kind == "score"]
    added = [c for c in scores if c.key in table.external]
    headline = [c for c in scores if c.headline and c.key not in table.external]
    rest = [c for c in scores if not c.headline and c.key not in table.external]
    return headline + added + rest


class ChartLink(QObject):
    """The comparison as the charts see it, and the way back to the table.

    Signals:
        session_changed(): another comparison (or none) is shown.
        data_changed(): scores changed: new settings, rows scored (batched), a column added,
            replaced or removed (then :attr:`changed_column` names it during the emission).
        selection_changed(): the rows of the selection changed.
        current_changed(int segment): the table's current row (-1: none).
        baseline_changed(int system)
        labels_changed(): a label column was loaded.
        message(str text): something to tell the user (a clicked row is filtered out...).
    """

    session_changed = Signal()
    data_changed = Signal()
    selection_changed = Signal()
    current_changed = Signal(int)
    baseline_changed = Signal(int)
    labels_changed = Signal()
    message = Signal(str)

    def __init__(
        self, *, table_view: QAbstractItemView | None = None, parent: QObject | None = None
    ) -> None:
        super().__init__(parent)
        self._view = table_view
        self._session: SessionModel | None = None
        self._selection_model: QItemSelectionModel | None = None
        self._brush: tuple[object, RowSet] | None = None
        self._data: SelectionData | None = None
        self._labels: dict[str, LabelColumn] = {}
        # While :attr:`data_changed` is emitted for one column's values (an annotation edit,
        # an import): that column's key; None for any other change.
        self.changed_column: str | None = None
        self._data_timer = QTimer(self)
        self._data_timer.setSingleShot(True)
        self._data_timer.setInterval(DATA_DELAY_MS)
        self._data_timer.timeout.connect(self._on_data_timeout)

    # -- the comparison -------------------------------------------------------------------------

    def set_session(self, session: SessionModel | None) -> None:
        """Follow ``session`` (None: nothing is open). Label columns belong to a comparison, so
        they are dropped."""
        old = self._session
        if old is not None:
            for signal, slot in self._connections(old):
                signal.disconnect(slot)
        self._session = session
        self._brush = None
        self._data = None
        self._labels = {}
        if session is not None:
            for signal, slot in self._connections(session):
                signal.connect(slot)
        self._watch_view()
        self._data_timer.stop()
        self.session_changed.emit()

    def _connections(self, session: SessionModel) -> list[tuple[Any, Any]]:
        return [
            (session.table_replaced, self._on_table_replaced),
            (session.scores_changed, self._on_scores_changed),
            (session.columns_changed, self._on_columns_changed),
            (session.rows_changed, self.selection_changed),
            (session.baseline_changed, self._on_baseline_changed),
            (session.destroyed, self._on_session_destroyed),
        ]

    @property
    def session(self) -> SessionModel | None:
        return self._session

    @property
    def core(self) -> ComparisonSession | None:
        return None if self._session is None else self._session.session

    @property
    def table(self) -> ScoreTable | None:
        return None if self._session is None else self._session.table

    def columns(self) -> list[ScoreColumn]:
        table = self.table
        return [] if table is None else chart_columns(table)

    # -- rows ---------------------------------------------------------------------------------

    def selected(self) -> BoolArray:
        """Per segment: is it in the selection (all False when nothing is open)."""
        core = self.core
        return np.zeros(0, np.bool_) if core is None else core.selected()

    def population(self, owner: object) -> BoolArray:
        """The rows ``owner`` should show: the selection, without ``owner``'s own brush."""
        core = self.core
        if core is None:
            return np.zeros(0, np.bool_)
        brush = self.brush_of(owner)
        if brush is None:
            return core.selected()
        if self._data is None or self._data.table is not core.table:
            self._data = SelectionData(
                core.text, core.table, core.source, dict(core.search_columns)
            )
        keep = np.ones(core.n_segments, np.bool_)
        for f in core.selection.filters:
            if f is not brush:
                try:
                    keep &= self._data.mask_of(f)
                except SelectionError:
                    continue
        return keep

    def brush_of(self, owner: object) -> RowSet | None:
        """``owner``'s brush, when it is still part of the selection."""
        if self._brush is None or self._brush[0] is not owner:
            return None
        core = self.core
        brush = self._brush[1]
        if core is None or not any(f is brush for f in core.selection.filters):
            return None
        return brush

    def brush_label(self) -> str | None:
        """What the chart selection holds (its label), when one is in force."""
        core = self.core
        if core is None:
            return None
        for f in core.selection.filters:
            if isinstance(f, RowSet) and f.source == BRUSH_SOURCE:
                return f"{f.label}: {len(f.rows):,} rows"
        return None

    def select_rows(self, rows: Sequence[int] | IntArray, label: str, *, owner: object) -> bool:
        """Make ``rows`` the chart selection (a RowSet filter replacing any earlier one; the
        other filters still apply). Returns False, with a :attr:`message`, when it cannot."""
        session = self._session
        if session is None:
            return False
        brush = RowSet(
            tuple(int(r) for r in np.asarray(rows, np.int64).tolist()), label, BRUSH_SOURCE
        )
        previous = self._brush
        self._brush = (owner, brush)  # before the selection is announced: charts ask whose
        try:
            session.set_selection(session.selection.with_filter(brush))
        except SelectionError as error:
            self._brush = previous
            self.message.emit(str(error))
            return False
        self.message.emit(f"Selected {len(brush.rows):,} rows: {label}.")
        return True

    def clear_brush(self) -> None:
        """Remove the chart selection (other filters stay)."""
        session = self._session
        if session is None:
            return
        self._brush = None
        selection = session.selection
        cleared = selection.without(RowSet.kind, source=BRUSH_SOURCE)
        if cleared != selection:
            session.set_selection(cleared)

    # -- the table's current row ----------------------------------------------------------------

    def _watch_view(self) -> None:
        view = self._view
        selection_model = None if view is None else view.selectionModel()
        if selection_model is self._selection_model:
            return
        if self._selection_model is not None:
            # RuntimeError, TypeError: it went with its model, and its connections with it.
            with contextlib.suppress(RuntimeError, TypeError):
                self._selection_model.currentRowChanged.disconnect(self._on_current_row_changed)
        self._selection_model = selection_model
        if selection_model is not None:
            selection_model.currentRowChanged.connect(self._on_current_row_changed)

    def current_segment(self) -> int:
        """The segment of the table's current row (-1: none)."""
        view = self._view
        if view is None:
            return -1
        self._watch_view()
        return _segment_of(view.currentIndex())

    def make_current(self, segment: int) -> bool:
        """Make ``segment`` the table's current row and scroll to it. When the selection hides
        it, say so (:attr:`message`) and return False."""
        view = self._view
        if view is None or view.model() is None:
            return False
        self._watch_view()
        model = view.model()
        source = getattr(model, "sourceModel", None)
        column = max(0, view.currentIndex().column())
        if callable(source) and source() is not None:
            index = model.mapFromSource(source().index(segment, column))  # type: ignore[attr-defined]
        else:
            index = model.index(segment, column)
        if not index.isValid():
            self.message.emit(
                QCoreApplication.translate(
                    "ChartLink",
                    "Segment {0} is not among the rows the table shows (filtered out).",
                ).format(segment + 1)
            )
            return False
        view.setCurrentIndex(index)
        view.scrollTo(index, QAbstractItemView.ScrollHint.PositionAtCenter)
        return True

    # -- label columns --------------------------------------------------------------------------

    @property
    def labels(self) -> dict[str, LabelColumn]:
        """The label columns loaded for this comparison, by name (a copy)."""
        return dict(self._labels)

    def add_labels(self, labels: LabelColumn) -> None:
        core = self.core
        if core is None:
            raise ValueError("open a comparison first")
        if len(labels.labels) != core.n_segments:
            raise ValueError(
                f"{labels.path}: {len(labels.labels)} labels for {core.n_segments} segments"
            )
        self._labels[labels.name] = labels
        self.labels_changed.emit()

    # -- slots ----------------------------------------------------------------------------------

    @Slot(object)
    def _on_table_replaced(self, _table: object) -> None:
        self._data = None
        self._data_timer.start()

    @Slot(int, int)
    def _on_scores_changed(self, _start: int, _stop: int) -> None:
        if not self._data_timer.isActive():
            self._data_timer.start()

    @Slot(str)
    def _on_columns_changed(self, key: str) -> None:
        self._data_timer.stop()
        self.changed_column = key
        try:
            self.data_changed.emit()
        finally:
            self.changed_column = None

    @Slot()
    def _on_data_timeout(self) -> None:
        self.data_changed.emit()

    @Slot(int)
    def _on_baseline_changed(self, system: int) -> None:
        self.baseline_changed.emit(system)

    @Slot()
    def _on_session_destroyed(self) -> None:
        # The window dropped the comparison without showing another: the charts go empty.
        self._session = None
        self._brush = None
        self._data = None
        self._labels = {}
        self.session_changed.emit()

    @Slot(QModelIndex, QModelIndex)
    def _on_current_row_changed(self, current: QModelIndex, _previous: QModelIndex) -> None:
        self.current_changed.emit(_segment_of(current))


def _segment_of(index: QModelIndex) -> int:
    if not index.isValid():
        return -1
    model = index.model()
    map_to_source = getattr(model, "mapToSource", None)
    if callable(map_to_source):
        source = map_to_source(index)
        return int(source.row()) if source.isValid() else -1
    return int(index.row())
