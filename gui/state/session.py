"""A thin Qt adapter over :class:`core.session.comparison.ComparisonSession`.

The session (pure Python) owns the comparison's state; this object re-announces its changes as
Qt signals, so that widgets connect to them like to any Qt model, and batches re-applying a
score-dependent selection while scores stream in (the table would otherwise re-filter and
re-sort for every chunk).
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QObject, QTimer, Signal, Slot

from matchlight.core.analysis.selection import Selection
from matchlight.core.scoring.config import ScoringConfig
from matchlight.core.scoring.results import ScoreChunk, ScoreTable
from matchlight.core.session.comparison import ComparisonSession, Event

# How long re-applying a score-dependent selection waits to batch incoming chunks (ms).
REFRESH_DELAY_MS = 150


class SessionModel(QObject):
    """The open comparison, observed by the table, the charts and the detail pane.

    Signals:
        rows_added(int old, int new): rows ``old:new`` were appended (the rest of a comparison
            read while its first rows were shown); ``table_replaced`` and ``selection_changed``
            follow.
        table_replaced(ScoreTable): new settings, a new (empty) score table.
        scores_changed(int start, int stop): rows ``start:stop`` were scored.
        columns_changed(str key): a column was added, replaced or removed (imported scores,
            MQM from annotations).
        labels_changed(str name): a label column was added, replaced or removed.
        baseline_changed(int system)
        selection_changed(bool rows_changed): the selection was set or re-applied; the rows
            shown (or their order) changed when the flag is True.
        rows_changed(): which rows are selected changed (after ``selection_changed``; a sort,
            which changes their order alone, does not emit it).
        layout_changed()
    """

    rows_added = Signal(int, int)
    table_replaced = Signal(object)
    scores_changed = Signal(int, int)
    columns_changed = Signal(str)
    labels_changed = Signal(str)
    baseline_changed = Signal(int)
    selection_changed = Signal(bool)
    rows_changed = Signal()
    layout_changed = Signal()

    def __init__(self, session: ComparisonSession, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.session = session
        self._rows_version = session.rows_version
        self._unsubscribe = session.subscribe(self._on_session_event)
        self._refresh = QTimer(self)
        self._refresh.setSingleShot(True)
        self._refresh.setInterval(REFRESH_DELAY_MS)
        self._refresh.timeout.connect(self._on_refresh_timeout)

    def close(self) -> None:
        """Stop observing the session (the window moves on to another comparison)."""
        self._refresh.stop()
        self._unsubscribe()

    # -- reading, for convenience -------------------------------------------------------------

    @property
    def table(self) -> ScoreTable:
        return self.session.table

    @property
    def config(self) -> ScoringConfig:
        return self.session.config

    @property
    def selection(self) -> Selection:
        return self.session.selection

    # -- changing -----------------------------------------------------------------------------

    def set_selection(self, selection: Selection, rows: Any = None) -> None:
        """See :meth:`ComparisonSession.set_selection` (raises SelectionError)."""
        self._refresh.stop()
        self.session.set_selection(selection, rows)

    def apply_chunk(self, chunk: ScoreChunk) -> None:
        self.session.apply_chunk(chunk)

    def refresh_now(self) -> None:
        """Re-apply a score-dependent selection at once (e.g. when scoring finishes)."""
        self._refresh.stop()
        self.session.refresh_selection()

    # -- session events -----------------------------------------------------------------------

    def _on_session_event(self, event: Event, payload: object) -> None:
        if event == "scores":
            start, stop = payload  # type: ignore[misc]
            self.scores_changed.emit(start, stop)
            if self.session.selection.depends_on_scores() and not self._refresh.isActive():
                self._refresh.start()
        elif event == "selection":
            self.selection_changed.emit(bool(payload))
            if self.session.rows_version != self._rows_version:
                self._rows_version = self.session.rows_version
                self.rows_changed.emit()
        elif event == "rows":
            old, new = payload  # type: ignore[misc]
            self.rows_added.emit(old, new)
        elif event == "table":
            self._refresh.stop()
            self.table_replaced.emit(payload)
        elif event == "columns":
            self.columns_changed.emit(str(payload))
        elif event == "labels":
            self.labels_changed.emit(str(payload))
        elif event == "baseline":
            self.baseline_changed.emit(int(payload))  # type: ignore[call-overload]
        elif event == "layout":
            self.layout_changed.emit()

    @Slot()
    def _on_refresh_timeout(self) -> None:
        self.session.refresh_selection()
