"""What annotations change in the table and the detail pane: span boxes, MQM/ESA columns, filters.

:class:`AnnotationTableLink` paints the error spans over the table's output cells and the detail
pane's output views (through the delegate's and the pane's overlay hooks), keeps the MQM penalty
and ESA score columns of the score table in step with the workspace (:mod:`core.annotation.
columns`, through :meth:`ComparisonSession.set_column`, so the summary, the filters and the tests
see them like any metric), and turns an annotation query into a row set of the session's
selection (beside the filter bar's and the charts' filters).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication, QObject, QRect, Slot
from PySide6.QtGui import QPainter, QTextDocument

from matchlight.core.analysis.selection import RowSet, Selection, SelectionError
from matchlight.core.annotation.columns import ESA_COLUMN, MQM_COLUMN
from matchlight.core.annotation.model import AnnotationError, Side
from matchlight.core.annotation.offsets import Utf16Index, utf16_length
from matchlight.core.annotation.typology import AnnotationMode
from matchlight.core.annotation.workspace import AnnotationQuery
from matchlight.core.metrics.base import ScoreColumn
from matchlight.gui.annotate.controller import AnnotationController
from matchlight.gui.annotate.host import AnnotationHost
from matchlight.gui.annotate.painting import paint_spans

__all__ = ["FILTER_LABEL", "FILTER_SOURCE", "AnnotationTableLink", "is_annotation_filter"]

# Label prefix of the row sets the annotation filter puts into the selection (translated
# where it is used).
FILTER_LABEL = QT_TRANSLATE_NOOP("AnnotationTableLink", "annotations: {0}")
# The source of the row set the annotation filters put in the selection (beside a chart's).
FILTER_SOURCE = "annotations"
# Lines longer than this may be cut in a table cell; shorter ones never are.
_SHORT_LINE = 1000
# Up to this many changed rows are repainted one by one; more repaint the whole table.
_FEW_ROWS = 64


def is_annotation_filter(f: object) -> bool:
    return isinstance(f, RowSet) and f.source == FILTER_SOURCE


class AnnotationTableLink(QObject):
    """Span boxes over the outputs, the MQM/ESA columns, and the annotation filters."""

    def __init__(self, controller: AnnotationController, host: AnnotationHost) -> None:
        super().__init__(controller)
        self.controller = controller
        self.host = host
        self._shown_columns: set[str] = set()
        self._filter: AnnotationQuery | None = None
        host.detail_pane.set_hypothesis_overlay(self._paint_view)
        controller.attached.connect(self._on_attached)
        controller.annotations_changed.connect(self._on_annotations_changed)
        controller.settings_changed.connect(self.update_columns)

    @property
    def filter_query(self) -> AnnotationQuery | None:
        return self._filter

    @Slot()
    def _on_attached(self) -> None:
        self._shown_columns = set()
        self._filter = None
        delegate = self.host.delegate
        if delegate is not None:
            delegate.set_overlay(self._paint_cell)
        self.update_columns()

    @Slot()
    def _on_annotations_changed(self) -> None:
        self.update_columns()
        self._repaint(self.controller.changed)
        self.host.detail_pane.update_hypothesis_views()

    def _repaint(self, keys: frozenset[tuple[str, int]] | None) -> None:
        """Repaint the rows of the outputs an edit changed (the span boxes), or the whole
        table when the change is not one of a few outputs."""
        view, proxy = self.host.table_view, self.host.proxy
        viewport = view.viewport()
        if keys is None or proxy is None or len(keys) > _FEW_ROWS:
            viewport.update()
            return
        width = viewport.width()
        for segment in {segment for _system, segment in keys}:
            row = proxy.proxy_row(segment)
            if row < 0:
                continue
            top = view.rowViewportPosition(row)
            height = view.rowHeight(row)
            if top + height >= 0 and top <= viewport.height():
                viewport.update(QRect(0, top, width, height))

    # -- painting ------------------------------------------------------------------------------

    def _paint_cell(
        self, painter: QPainter, doc: QTextDocument, segment: int, system: int, dark: bool
    ) -> None:
        ws, core = self.controller.workspace, self.controller.comparison_session
        if ws is None or core is None or not 0 <= system < len(ws.systems):
            return
        spans = [s for s in ws.spans(ws.systems[system], segment) if s.side is Side.TARGET]
        if not spans:
            return
        line = core.text.systems[system][segment]
        shown: int | None = None
        if len(line) > _SHORT_LINE:
            units = doc.characterCount() - 1
            if units < utf16_length(line):
                try:
                    shown = Utf16Index(line).to_codepoint(units)
                except ValueError:
                    return
        paint_spans(painter, doc, line, spans, dark, shown=shown)

    def _paint_view(self, painter: QPainter, view: Any, segment: int, system: int) -> None:
        ws, core = self.controller.workspace, self.controller.comparison_session
        if ws is None or core is None or not 0 <= system < len(ws.systems):
            return
        if segment >= core.n_segments:
            return
        spans = [s for s in ws.spans(ws.systems[system], segment) if s.side is Side.TARGET]
        if not spans:
            return
        line = core.text.systems[system][segment]
        shown = view.plain_text()
        if not line.startswith(shown):
            return
        dark = self.host.detail_pane.is_dark()
        paint_spans(painter, view.document(), line, spans, dark, shown=len(shown))

    # -- the score columns ---------------------------------------------------------------------

    @Slot()
    def update_columns(self) -> None:
        """Put the MQM (and, in ESA mode or with ESA scores, the ESA) column into the table, and
        show a new one beside the scores shown."""
        ws, core = self.controller.workspace, self.controller.comparison_session
        if ws is None or core is None:
            return
        wanted: list[tuple[ScoreColumn, Any]] = []
        if len(ws) or ws.scores():
            wanted.append((MQM_COLUMN, ws.mqm_values()))
        if ws.mode is AnnotationMode.ESA or ws.has_esa_scores():
            wanted.append((ESA_COLUMN, ws.esa_values()))
        if not wanted:
            return
        for column, values in wanted:
            if core.table.has(column.key):  # keep the scale the user may have picked for it
                column = core.table.column_info(column.key)
            core.set_column(column, values)
        new = [c.key for c, _ in wanted if c.key not in self._shown_columns]
        if new:
            self._show_columns(new)

    def _show_columns(self, keys: Sequence[str]) -> None:
        model = self.host.model
        self._shown_columns.update(keys)
        if model is None:
            return
        shown = list(model.shown_scores)
        missing = [k for k in keys if k not in shown]
        if not missing:
            return
        segment = self.host.current_segment()
        view = self.host.table_view
        header = view.horizontalHeader()
        before = [model.column_info(c) for c in range(model.columnCount())]
        widths = {info: header.sectionSize(c) for c, info in enumerate(before)}
        hidden = {info for c, info in enumerate(before) if view.isColumnHidden(c)}
        model.set_shown_scores([*shown, *missing])
        # The model was reset: the columns moved. Each keeps its width; a new one takes the
        # width of the same column of the first score shown.
        for c in range(model.columnCount()):
            info = model.column_info(c)
            width = widths.get(info)
            if width is None and info.metric is not None:
                width = widths.get(replace(info, metric=shown[0]))
            if width is not None:
                header.resizeSection(c, width)
            view.setColumnHidden(c, info in hidden)
        if segment is not None:
            proxy = self.host.proxy
            row = proxy.proxy_row(segment)
            if row >= 0:
                view.setCurrentIndex(proxy.index(row, 0))
        self.host.filter_bar.set_metrics(self.host.session.table.columns)

    # -- filtering -----------------------------------------------------------------------------

    def apply_filter(self, query: AnnotationQuery) -> int:
        """Show only the rows ``query`` keeps (a row set in the selection); returns how many."""
        ws, session = self.controller.workspace, self.host.session
        if ws is None or session is None:
            return 0
        try:
            rows = ws.rows(query)
        except AnnotationError as exc:
            self.controller.say(str(exc))
            return 0
        label = QCoreApplication.translate("AnnotationTableLink", FILTER_LABEL).format(
            query.label()
        )
        if not self._set_rows(tuple(int(r) for r in rows), label):
            return 0
        self._filter = query
        core = self.controller.comparison_session
        if core is not None:
            core.set_layout(annotation_filter=query.to_dict())
        self.controller.say(
            QCoreApplication.translate("AnnotationTableLink", "{0} rows: {1}.").format(
                len(rows), query.label()
            )
        )
        return len(rows)

    def restore_filter(self, query: AnnotationQuery) -> None:
        """A session's saved annotation filter (its rows are in the saved selection)."""
        self._filter = query

    def clear_filter(self) -> None:
        session = self.host.session
        if session is None:
            return
        selection = session.selection
        kept = tuple(f for f in selection.filters if not is_annotation_filter(f))
        if len(kept) != len(selection.filters):
            session.set_selection(Selection(kept, selection.sort))
        self._filter = None
        core = self.controller.comparison_session
        if core is not None:
            core.set_layout(annotation_filter=None)

    def show_flagged(self) -> int:
        """Show the rows holding flagged spans (not found again after an input changed)."""
        ws = self.controller.workspace
        if ws is None or self.host.session is None:
            return 0
        flagged = self.controller.flagged
        rows = sorted(
            {s.segment for s in ws.spans() if s.id in flagged and 0 <= s.segment < ws.n_segments}
        )
        self._set_rows(
            tuple(rows),
            QCoreApplication.translate("AnnotationTableLink", FILTER_LABEL).format(
                QCoreApplication.translate("AnnotationTableLink", "flagged errors")
            ),
        )
        return len(rows)

    def _set_rows(self, rows: tuple[int, ...], label: str) -> bool:
        session = self.host.session
        selection = session.selection
        kept = tuple(f for f in selection.filters if not is_annotation_filter(f))
        mine = RowSet(rows, label=label, source=FILTER_SOURCE)
        try:
            session.set_selection(Selection((*kept, mine), selection.sort))
        except SelectionError as exc:
            self.controller.say(str(exc))
            return False
        return True
