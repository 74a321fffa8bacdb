"""The segment table's columns and menus: widths, hidden columns, the scores shown per system,
the cell context menu, copying a row or a cell, and a cell's whole text.

What :class:`TableColumns` changes is the view's arrangement (remembered through
:class:`~gui.shell.viewcontrol.ViewControl`) or the session's selection (a filter from a row);
every number comes from the table model, which reads core.
"""

from __future__ import annotations

import contextlib
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import QCoreApplication, QModelIndex, QObject, QPoint, Qt, Slot
from PySide6.QtGui import QAction, QGuiApplication
from PySide6.QtWidgets import QMenu

from matchlight.core.analysis.scales import display_bounds
from matchlight.gui.shell.celltext import CellTextDialog, cell_value, row_as_tsv
from matchlight.gui.shell.viewstate import ViewState, column_id
from matchlight.gui.table.model import NUMERIC_KINDS, TEXT_KINDS
from matchlight.gui.table.scalemenu import add_scale_menu

__all__ = ["TableColumns"]


# Room around a figure in a score or Δ column: the cell's margins and, in the header, the
# sort indicator.
NUMBER_PADDING = 24
# Widths of the text columns, in pixels: at most (an output; a source or reference) and at least.
OUTPUT_WIDTH = 280
TEXT_WIDTH = 230
MIN_TEXT_WIDTH = 150


def _widest_number(model: Any, info: Any, bounds: dict[str, tuple[float, float]]) -> str:
    """The widest figure a score or Δ column shows: its bounds at its precision (an unbounded
    side: the data's extreme), a Δ as the signed span between them. ``bounds`` keeps each
    metric's bounds for the next column of the same metric (each scans every system's value:
    at 100k rows 4 ms a metric, a system's score and Δ columns asking again)."""
    if info.metric is None:
        return "100.0"
    table = model.table
    column = table.column_info(info.metric)
    if info.metric not in bounds:
        values = table.scores[:, :, table.metric_index(info.metric)]
        bounds[info.metric] = display_bounds(column, values)
    low, high = bounds[info.metric]
    if info.kind == "delta":
        return column.format(-(high - low), signed=True)
    return max(column.format(low), column.format(high), key=len)


@dataclass(frozen=True, slots=True)
class _Kept:
    """What the view showed before its model was reset, by column id (positions move)."""

    state: ViewState
    sort: tuple[str, Qt.SortOrder] | None  # the sorted column and order; None: file order
    segment: int | None  # the current row
    current: str | None  # the current column
    left: tuple[str, int] | None  # the column at the left edge, and how far it is scrolled


class TableColumns(QObject):
    """Columns, menus and copying of the window's segment table.

    When the table's model is reset (other scores shown, a new baseline, an imported column,
    new settings) its columns move: the widths, hidden columns, sort, current cell and scroll
    position are put back by what each column shows (:func:`column_id`).
    """

    def __init__(self, window: Any) -> None:
        super().__init__(window)
        self.window = window
        self._model: Any = None  # the model whose resets are followed
        self._kept: _Kept | None = None
        view = window.table_view
        view.customContextMenuRequested.connect(self._on_table_menu_requested)
        header = view.horizontalHeader()
        header.customContextMenuRequested.connect(self._on_header_menu_requested)
        header.sectionResized.connect(self._on_section_resized)

    # -- widths and hidden columns -------------------------------------------------------------

    def size_columns(self) -> None:
        """Widths for a new arrangement (and, from now on, after each reset of the model).

        A score or Δ column is as wide as its widest figure (its title shows its metric only: it
        stands after its system's output). The text columns share what the first screen leaves,
        so that the source, the references and the first output with its scores show without
        scrolling: outputs at most :data:`OUTPUT_WIDTH`, the others :data:`TEXT_WIDTH`, none
        under :data:`MIN_TEXT_WIDTH`.
        """
        model = self.window.model
        if model is None:
            return
        self._follow(model)
        view = self.window.table_view
        header = view.horizontalHeader()
        metrics = view.fontMetrics()
        infos = [model.column_info(col) for col in range(model.columnCount())]
        widths: dict[int, int] = {}
        bounds: dict[str, tuple[float, float]] = {}
        for col, info in enumerate(infos):
            if info.kind == "segment":
                widths[col] = metrics.horizontalAdvance(str(model.rowCount())) + NUMBER_PADDING
            elif info.kind in NUMERIC_KINDS:
                figure = _widest_number(model, info, bounds)
                widths[col] = metrics.horizontalAdvance(figure) + NUMBER_PADDING
        outputs = [c for c, info in enumerate(infos) if info.kind == "hypothesis"]
        end = outputs[1] if len(outputs) > 1 else len(infos)  # the first screen: up to here
        first = [c for c in range(end) if infos[c].kind in TEXT_KINDS]
        share = max(OUTPUT_WIDTH, TEXT_WIDTH)
        if self.window.isVisible() and first:
            # While the files are read another page is shown, as wide as the table will be.
            shown = view.isVisible()
            room = view.viewport().width() if shown else self.window.pages.width()
            room -= 0 if shown else 2 * view.frameWidth()
            if not (shown and view.verticalScrollBar().isVisible()):  # it will be, with rows
                room -= view.verticalScrollBar().sizeHint().width()
            room -= sum(w for c, w in widths.items() if c < end)
            share = room // len(first)
        for col, info in enumerate(infos):
            if info.kind in TEXT_KINDS:
                most = OUTPUT_WIDTH if info.kind == "hypothesis" else TEXT_WIDTH
                widths[col] = max(MIN_TEXT_WIDTH, min(most, share))
        for col, width in widths.items():
            header.resizeSection(col, width)

    def apply_state(self, state: ViewState | None) -> None:
        """Hidden columns and widths of a remembered arrangement (none: every column shown).
        Columns are named by :func:`column_id`; an older session named them by title."""
        model = self.window.model
        if model is None:
            return
        view = self.window.table_view
        header = view.horizontalHeader()
        for col in range(model.columnCount()):
            key = column_id(model.column_info(col))
            title = str(model.headerData(col, Qt.Orientation.Horizontal))
            hidden = state is not None and (key in state.hidden or title in state.hidden)
            view.setColumnHidden(col, hidden)
            if state is not None and key in state.widths:
                header.resizeSection(col, state.widths[key])

    def _follow(self, model: Any) -> None:
        """Keep the arrangement across ``model``'s resets (and stop following the last one)."""
        if model is self._model:
            return
        if self._model is not None:
            with contextlib.suppress(RuntimeError, TypeError):  # it may be gone already
                self._model.modelAboutToBeReset.disconnect(self._on_model_about_to_be_reset)
                self._model.modelReset.disconnect(self._on_model_reset)
        self._model = model
        model.modelAboutToBeReset.connect(self._on_model_about_to_be_reset)
        model.modelReset.connect(self._on_model_reset)

    def _column(self, key: str | None) -> int:
        """The column that ``key`` (a :func:`column_id`) names now, or -1."""
        model = self.window.model
        if model is None or key is None:
            return -1
        for col in range(model.columnCount()):
            if column_id(model.column_info(col)) == key:
                return col
        return -1

    @Slot()
    def _on_model_about_to_be_reset(self) -> None:
        w = self.window
        model, view = w.model, w.table_view
        if model is None or model is not self._model:
            return
        header = view.horizontalHeader()

        def key(col: int) -> str | None:
            return column_id(model.column_info(col)) if 0 <= col < model.columnCount() else None

        sorted_by = key(header.sortIndicatorSection()) if header.isSortIndicatorShown() else None
        left_col = header.logicalIndexAt(0)
        left_key = key(left_col)
        self._kept = _Kept(
            state=w.view.state(),
            sort=None if sorted_by is None else (sorted_by, header.sortIndicatorOrder()),
            segment=w.current_segment(),
            current=key(view.currentIndex().column()),
            left=None
            if left_key is None
            else (left_key, -header.sectionViewportPosition(left_col)),
        )

    @Slot()
    def _on_model_reset(self) -> None:
        w = self.window
        kept, self._kept = self._kept, None
        model, proxy = w.model, w.proxy
        if model is None or proxy is None or model is not self._model:
            return
        with w.view.restoring():
            self.size_columns()
            self.apply_state(None if kept is None else kept.state)
            w.filter_bar.set_proxy(
                proxy,
                text_columns=self.text_columns(),
                systems=model.text.system_names,
                metrics=model.table.columns,
            )
            if kept is not None:
                self._restore_view(kept)
        w.view.schedule_save()

    def _restore_view(self, kept: _Kept) -> None:
        """Sort, current cell and horizontal scroll as they were (the rows are the same)."""
        w = self.window
        proxy, view = w.proxy, w.table_view
        header = view.horizontalHeader()
        if kept.sort is not None:
            view.sortByColumn(self._column(kept.sort[0]), kept.sort[1])
        if kept.segment is not None:
            row = proxy.proxy_row(kept.segment)
            col = max(0, self._column(kept.current))
            if row >= 0:
                view.setCurrentIndex(proxy.index(row, col))
        if kept.left is not None:
            col = self._column(kept.left[0])
            if col >= 0:
                view.horizontalScrollBar().setValue(header.sectionPosition(col) + kept.left[1])

    def text_columns(self) -> list[tuple[str, int]]:
        model = self.window.model
        if model is None:
            return []
        return [
            (str(model.headerData(c, Qt.Orientation.Horizontal)), c) for c in model.text_columns()
        ]

    def set_shown_scores(self, keys: Sequence[str]) -> None:
        """Which score columns the table shows per system (table column keys); the model's
        reset puts the arrangement back (:meth:`_on_model_reset`)."""
        model = self.window.model
        if model is None or self.window.proxy is None:
            return
        model.set_shown_scores(keys)

    @Slot(int, int, int)
    def _on_section_resized(self, _section: int, _old: int, _new: int) -> None:
        self.window.view.schedule_save()

    # -- menus ---------------------------------------------------------------------------------

    def column_menu(self) -> QMenu:
        """A menu of every column with a check box (hide what you do not need to read), and
        the score columns shown per system."""
        w = self.window
        menu = QMenu(w)
        model = w.model
        if model is None:
            return menu
        for col in range(model.columnCount()):
            title = str(model.headerData(col, Qt.Orientation.Horizontal))
            action = menu.addAction(title)
            action.setCheckable(True)
            action.setChecked(not w.table_view.isColumnHidden(col))
            action.setData(col)
            action.toggled.connect(self._on_column_toggled)
        scores = menu.addMenu(QCoreApplication.translate("TableColumns", "Scores shown per system"))
        scores.setObjectName("shown-scores")
        shown = set(model.shown_scores)
        for column in model.table.columns:
            if column.kind != "score":
                continue
            action = scores.addAction(column.label)
            action.setCheckable(True)
            action.setChecked(column.key in shown)
            action.setData(column.key)
            action.toggled.connect(self._on_shown_score_toggled)
        return menu

    @Slot(bool)
    def _on_column_toggled(self, visible: bool) -> None:
        action = self.sender()
        if isinstance(action, QAction):
            self.window.table_view.setColumnHidden(int(action.data()), not visible)
            self.window.view.schedule_save()

    @Slot(bool)
    def _on_shown_score_toggled(self, checked: bool) -> None:
        action = self.sender()
        model = self.window.model
        if not isinstance(action, QAction) or model is None:
            return
        key = str(action.data())
        shown = [k for k in model.shown_scores if k != key]
        if checked:
            order = [c.key for c in model.table.columns]
            shown = sorted({*shown, key}, key=order.index)
        if shown:
            self.set_shown_scores(shown)

    @Slot(QPoint)
    def _on_header_menu_requested(self, pos: QPoint) -> None:
        header = self.window.table_view.horizontalHeader()
        menu = self.column_menu()
        model, core = self.window.model, self.window.lifecycle.core
        col = header.logicalIndexAt(pos)
        if model is not None and core is not None and col >= 0:
            key = model.column_info(col).metric
            if key:  # a score or Δ column: which way is better, and its precision
                menu.addSeparator()
                add_scale_menu(menu, core, key)
        menu.exec(header.mapToGlobal(pos))
        menu.deleteLater()

    def table_menu(self, index: QModelIndex) -> QMenu:
        """The context menu of a table cell: copy, the whole text, filters from this row."""
        w = self.window
        menu = QMenu(w)
        model, proxy = w.model, w.proxy
        if model is None or proxy is None or not index.isValid():
            return menu
        segment = proxy.mapToSource(index).row()
        col = index.column()
        info = model.column_info(col)
        menu.addAction(w.copy_row_action)
        copy_cell = menu.addAction(QCoreApplication.translate("TableColumns", "Copy this cell"))
        copy_cell.triggered.connect(lambda: self.copy_cell(segment, col))
        if info.kind in TEXT_KINDS:
            whole = menu.addAction(
                QCoreApplication.translate("TableColumns", "Show the whole text…")
            )
            whole.triggered.connect(lambda: self.show_cell_text(segment, col))
        systems = model.text.system_names
        baseline = model.baseline
        metric = info.metric if info.metric is not None else model.shown_scores[0]
        label = model.table.column_info(metric).short
        targets = [info.system] if info.system is not None else list(range(len(systems)))
        targets = [s for s in targets if s is not None and s != baseline]
        if targets:
            menu.addSeparator()
        for system in targets:
            action = menu.addAction(
                QCoreApplication.translate(
                    "TableColumns", "Rows where {0} scores worse than {1} (baseline) on {label}"
                ).format(systems[system], systems[baseline], label=label)
            )
            action.triggered.connect(
                lambda _=False, s=system, m=metric: self.filter_worse_rows(s, m)
            )
        menu.addSeparator()
        clear = menu.addAction(QCoreApplication.translate("TableColumns", "Clear filters"))
        clear.triggered.connect(w.filter_bar.clear)
        return menu

    @Slot(QPoint)
    def _on_table_menu_requested(self, pos: QPoint) -> None:
        view = self.window.table_view
        index = view.indexAt(pos)
        if not index.isValid():
            return
        view.setCurrentIndex(index)
        menu = self.table_menu(index)
        menu.exec(view.viewport().mapToGlobal(pos))
        menu.deleteLater()

    def filter_worse_rows(self, system: int, metric: str | None = None) -> None:
        """Keep the rows where ``system`` scores worse than the baseline (on ``metric``, by
        default the first score shown), through the filter bar's difference filter."""
        w = self.window
        model, bar = w.model, w.filter_bar
        if model is None:
            return
        baseline = model.baseline
        metric = metric or model.shown_scores[0]
        if system == baseline:
            return
        # "Worse" by the metric's direction: baseline − system ≥ one display step when higher
        # is better, system − baseline when lower is (an MQM penalty, TER).
        column = model.table.column_info(metric)
        first, second = (baseline, system) if column.higher_is_better else (system, baseline)
        bar.delta_check.setChecked(True)
        bar.delta_a_combo.setCurrentIndex(bar.delta_a_combo.findData(first))
        bar.delta_b_combo.setCurrentIndex(bar.delta_b_combo.findData(second))
        bar.delta_metric_combo.setCurrentIndex(bar.delta_metric_combo.findData(metric))
        bar.delta_spin.setValue(10 ** -bar.delta_spin.decimals())
        bar.apply_delta_filter()

    # -- copying -------------------------------------------------------------------------------

    def row_text(self, segment: int) -> str:
        """Segment ``segment`` as Ctrl+C copies it: a header line and the row, every column,
        tab-separated, scores at full precision."""
        model = self.window.model
        return "" if model is None else row_as_tsv(model, [segment])

    @Slot()
    def copy_current_row(self) -> None:
        w = self.window
        segment = w.current_segment()
        if segment is None or w.model is None:
            return
        QGuiApplication.clipboard().setText(self.row_text(segment))
        w.statusBar().showMessage(
            QCoreApplication.translate("TableColumns", "Copied segment {0} (every column).").format(
                segment + 1
            ),
            4000,
        )

    def copy_cell(self, segment: int, col: int) -> None:
        model = self.window.model
        if model is not None:
            QGuiApplication.clipboard().setText(cell_value(model, col, segment))

    def show_cell_text(self, segment: int, col: int) -> CellTextDialog | None:
        """The whole text of a text cell in a window of its own (non-blocking)."""
        model = self.window.model
        if model is None or model.column_info(col).kind not in TEXT_KINDS:
            return None
        title = f"Segment {segment + 1}, {model.headerData(col, Qt.Orientation.Horizontal)}"
        dialog = CellTextDialog(title, model.strings(col)[segment], self.window)
        dialog.show()
        return dialog
