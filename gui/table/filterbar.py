"""The filter bar above the segment table; it drives :class:`gui.table.proxy.SegmentFilterProxy`.

The comparison's selection (:class:`~core.analysis.selection.Selection`, held by the session) is
the one source of truth. The bar turns the user's edits into calls of the proxy's ``set_*``
methods, and shows the selection back whoever set it (a reopened session, a chart brush, an
annotation filter): the search field, the score range, the difference and the "Show" entry take
the filters they can express; every other filter (rows picked on a chart or by annotations,
explicit segments...) is a chip whose ✕ removes exactly that filter. An invalid regular
expression turns the search field red (with the error as its tooltip) and leaves the text
filter off; it never raises.
"""

from __future__ import annotations

import contextlib
import itertools
from collections.abc import Iterator, Sequence
from typing import Any

import shiboken6
from PySide6.QtCore import (
    QCoreApplication,
    Qt,
    QTimer,
    Signal,
    Slot,
)
from PySide6.QtGui import (
    QKeySequence,
    QShortcut,
)
from PySide6.QtWidgets import (
    QApplication,
    QCheckBox,
    QComboBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from matchlight.core.analysis.language import LanguageFlags
from matchlight.core.analysis.selection import (
    Filter,
    Selection,
)
from matchlight.core.metrics.base import ScoreColumn
from matchlight.gui.state.session import SessionModel
from matchlight.gui.table.filtergroups import (
    _ANY,
    _INVALID_STYLE,
    _LANGUAGE_KINDS,
    LANGUAGE_SOURCE,
    SPECIAL_FILTERS,
    FilterGroups,
    _any_column,
    regex_error,
)
from matchlight.gui.table.filterwidgets import (
    ChipRow,
    FilterChip,
    ShrinkingCombo,
    SpinScale,
)
from matchlight.gui.table.filterwidgets import blocked as _blocked
from matchlight.gui.table.filterwidgets import can_focus as _can_focus
from matchlight.gui.table.filterwidgets import configure_spin as _configure
from matchlight.gui.table.filterwidgets import make_spin as _spin
from matchlight.gui.table.proxy import SegmentFilterProxy

TEXT_DEBOUNCE_MS = 200


def _metric_items(columns: Sequence[ScoreColumn]) -> list[tuple[str, str]]:
    """(label, column key) of the score columns a filter can use: headline columns first."""
    scores = [c for c in columns if c.kind == "score"]
    ordered = [c for c in scores if c.headline] + [c for c in scores if not c.headline]
    return [(c.label, c.key) for c in ordered]


class FilterBar(FilterGroups, QWidget):
    """Search, score-range, difference and special filters, the filters set elsewhere as chips,
    plus a "N of M rows" count.

    The widgets show the session's selection (synced on ``selection_changed`` with their
    signals blocked, so showing never pushes anything back); editing a widget pushes that one
    filter through the proxy and leaves every other filter alone.

    Signals:
        filters_applied: the bar pushed a new filter state to the proxy.
    """

    filters_applied = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._proxy: SegmentFilterProxy | None = None
        self._session: SessionModel | None = None
        self._total = 0
        # Each column's box scale, with the table and its scored rows it was taken from
        # (dropped when the column's values change).
        self._scales: dict[str, tuple[tuple[object, int], SpinScale]] = {}
        # The rows are the first of a comparison whose files are still read.
        self.reading = False
        self._regex_problem: str | None = None
        self._applied_range: tuple[str, int] | None = None
        self._pushing_depth = 0
        # The selection the bar's last edit becomes once the proxy's worker has computed it.
        self._awaited: Selection | None = None
        self._chip_specs: tuple[Filter, ...] = ()

        # -- line 1: text search --
        self.search_edit = QLineEdit()
        self.search_edit.setObjectName("search")
        self.search_edit.setClearButtonEnabled(True)
        shortcut = QKeySequence(QKeySequence.StandardKey.Find).toString(
            QKeySequence.SequenceFormat.NativeText
        )
        self.search_edit.setPlaceholderText(
            QCoreApplication.translate("FilterBar", "Search the texts ({shortcut})").format(
                shortcut=shortcut
            )
        )
        self.search_edit.setMinimumWidth(160)
        self.regex_button = QToolButton()
        self.regex_button.setText(".*")
        self.regex_button.setCheckable(True)
        self.regex_button.setToolTip(
            QCoreApplication.translate(
                "FilterBar",
                "Regular expression (Python syntax, plus Unicode properties such as \\p{Han})",
            )
        )
        self.case_button = QToolButton()
        self.case_button.setText(QCoreApplication.translate("FilterBar", "Aa"))
        self.case_button.setCheckable(True)
        self.case_button.setToolTip(QCoreApplication.translate("FilterBar", "Case sensitive"))
        self.column_combo = ShrinkingCombo()
        self.column_combo.setToolTip(QCoreApplication.translate("FilterBar", "Where to search"))
        self.column_combo.addItem(_any_column(), _ANY)
        self.special_combo = ShrinkingCombo()
        self.special_combo.setToolTip(
            QCoreApplication.translate("FilterBar", "Show only rows of a kind")
        )
        for kind, label in SPECIAL_FILTERS:
            self.special_combo.addItem(QCoreApplication.translate("FilterBar", label), kind)
        self._language: LanguageFlags | None = None
        self._show_language_entries()
        self.clear_button = QPushButton(QCoreApplication.translate("FilterBar", "Clear filters"))
        self.count_label = QLabel(QCoreApplication.translate("FilterBar", "0 of 0 rows"))
        self.count_label.setObjectName("count")
        self.count_label.setMinimumWidth(
            self.count_label.fontMetrics().horizontalAdvance("100000 of 100000 rows")
        )
        self.count_label.setAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)

        # -- line 2: score range and difference --
        self.range_check = QCheckBox(QCoreApplication.translate("FilterBar", "Score"))
        self.range_check.setToolTip(
            QCoreApplication.translate("FilterBar", "Keep rows whose score lies in a range")
        )
        self.range_metric_combo = ShrinkingCombo()
        self.range_system_combo = ShrinkingCombo()
        self.range_min_spin = _spin(0.0, 100.0, 0.0, "≥ ")
        self.range_max_spin = _spin(0.0, 100.0, 100.0, "≤ ")
        self.delta_check = QCheckBox(QCoreApplication.translate("FilterBar", "Difference"))
        self.delta_check.setToolTip(
            QCoreApplication.translate(
                "FilterBar",
                "Keep rows where system A beats system B by at least x (on a penalty such "
                "as MQM, beating is scoring lower: A − B ≤ −x)",
            )
        )
        self.delta_a_combo = ShrinkingCombo()
        self.delta_b_combo = ShrinkingCombo()
        self.delta_metric_combo = ShrinkingCombo()
        self.delta_spin = _spin(-100.0, 100.0, 10.0, "≥ ")
        self.chips = ChipRow()
        self.chips.setObjectName("chips")
        self.chips.hide()
        # The scale each group of boxes is configured for (see _scale_of).
        self._range_scale: SpinScale | None = None
        self._delta_scale: SpinScale | None = None
        self._columns: dict[str, ScoreColumn] = {}

        line1 = QHBoxLayout()
        line1.setContentsMargins(0, 0, 0, 0)
        line1.addWidget(self.search_edit, 3)
        line1.addWidget(self.regex_button)
        line1.addWidget(self.case_button)
        line1.addWidget(QLabel(QCoreApplication.translate("FilterBar", "in")))
        line1.addWidget(self.column_combo, 1)
        line1.addSpacing(12)
        line1.addWidget(QLabel(QCoreApplication.translate("FilterBar", "Show")))
        line1.addWidget(self.special_combo)
        line1.addSpacing(12)
        line1.addWidget(self.clear_button)
        line1.addWidget(self.count_label)

        line2 = QHBoxLayout()
        line2.setContentsMargins(0, 0, 0, 0)
        line2.addWidget(self.range_check)
        line2.addWidget(self.range_metric_combo)
        line2.addWidget(QLabel(QCoreApplication.translate("FilterBar", "of")))
        line2.addWidget(self.range_system_combo)
        line2.addWidget(self.range_min_spin)
        line2.addWidget(self.range_max_spin)
        line2.addSpacing(18)
        line2.addWidget(self.delta_check)
        line2.addWidget(self.delta_a_combo)
        line2.addWidget(QLabel("−"))
        line2.addWidget(self.delta_b_combo)
        line2.addWidget(self.delta_metric_combo)
        line2.addWidget(self.delta_spin)
        line2.addStretch(1)

        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 4, 6, 4)
        layout.setSpacing(4)
        layout.addLayout(line1)
        layout.addLayout(line2)
        # -- line 3, only while there are any: the filters set elsewhere --
        layout.addWidget(self.chips)

        self._text_timer = QTimer(self)
        self._text_timer.setSingleShot(True)
        self._text_timer.setInterval(TEXT_DEBOUNCE_MS)
        self._text_timer.timeout.connect(self.apply_text_filter)

        self.search_edit.textChanged.connect(self._on_search_text_changed)
        self.search_edit.returnPressed.connect(self.apply_text_filter)
        self.regex_button.toggled.connect(self.apply_text_filter)
        self.case_button.toggled.connect(self.apply_text_filter)
        self.column_combo.currentIndexChanged.connect(self.apply_text_filter)
        self.special_combo.currentIndexChanged.connect(self.apply_special_filter)
        self.range_metric_combo.currentIndexChanged.connect(self._on_range_metric_changed)
        self.range_system_combo.currentIndexChanged.connect(self.apply_score_range)
        self.range_min_spin.valueChanged.connect(self.apply_score_range)
        self.range_max_spin.valueChanged.connect(self.apply_score_range)
        self.range_check.toggled.connect(self.apply_score_range)
        for widget in (self.delta_a_combo, self.delta_b_combo):
            widget.currentIndexChanged.connect(self.apply_delta_filter)
        self.delta_metric_combo.currentIndexChanged.connect(self._on_delta_metric_changed)
        self.delta_spin.valueChanged.connect(self.apply_delta_filter)
        self.delta_check.toggled.connect(self.apply_delta_filter)
        self.clear_button.clicked.connect(self._on_clear_clicked)
        # Keyboard: Esc anywhere in the bar goes back to where the user came from (the table,
        # the output being annotated); so does Clear filters.
        self._focus_home: QWidget | None = None
        self._came_from: QWidget | None = None
        leave = QShortcut(QKeySequence(Qt.Key.Key_Escape), self)
        leave.setContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        leave.activated.connect(self.leave)
        app = QApplication.instance()
        if isinstance(app, QApplication):
            app.focusChanged.connect(self._on_focus_changed)
        self._set_enabled(False)

    # -- setup ---------------------------------------------------------------------------------

    def set_proxy(
        self,
        proxy: SegmentFilterProxy | None,
        *,
        text_columns: Sequence[tuple[str, int]],
        systems: Sequence[str],
        metrics: Sequence[ScoreColumn],
    ) -> None:
        """Drive ``proxy``; offer ``text_columns`` ((title, model column)), systems, and the
        score columns ``metrics`` (from the registry, via the score table).

        The widgets then show the selection of the proxy's session (a new comparison's is
        empty; a reopened session's is what was saved); nothing is pushed.
        """
        if self._proxy is not None and self._proxy is not proxy:
            # RuntimeError, TypeError: the old proxy is gone already, and its connections.
            with contextlib.suppress(RuntimeError, TypeError):
                self._proxy.filter_changed.disconnect(self._on_proxy_filter_changed)
                self._proxy.modelReset.disconnect(self._on_proxy_reset)
                self._proxy.pending_changed.disconnect(self._on_proxy_filter_changed)
        if proxy is not None and proxy is not self._proxy:
            proxy.filter_changed.connect(self._on_proxy_filter_changed)
            proxy.modelReset.connect(self._on_proxy_reset)
            proxy.pending_changed.connect(self._on_proxy_filter_changed)
        self._proxy = proxy
        self._scales.clear()  # (and lets go of the old table)
        self._text_timer.stop()  # typing meant for the comparison shown before
        self._applied_range = None
        self._refill(self.column_combo, [(_any_column(), _ANY), *text_columns])
        system_items = [(name, i) for i, name in enumerate(systems)]
        metric_items = _metric_items(metrics)
        self._refill(self.range_system_combo, system_items)
        self._refill(self.delta_a_combo, system_items)
        self._refill(self.delta_b_combo, system_items)
        same = self.delta_a_combo.currentIndex() == self.delta_b_combo.currentIndex()
        if len(systems) > 1 and same:
            self.delta_a_combo.setCurrentIndex(1)
        self._columns = {c.key: c for c in metrics}
        self._refill(self.range_metric_combo, metric_items)
        self._refill(self.delta_metric_combo, metric_items)
        self.delta_check.setEnabled(len(systems) > 1)
        self._set_enabled(proxy is not None)
        self._bind_session()
        self._configure_spins()
        self.reapply()

    def set_metrics(self, metrics: Sequence[ScoreColumn]) -> None:
        """The score columns of a new score table (after a settings change, an import, a new
        scale chosen for a column)."""
        self._columns = {c.key: c for c in metrics}
        items = _metric_items(metrics)
        self._refill(self.range_metric_combo, items)
        self._refill(self.delta_metric_combo, items)
        self._configure_spins()
        self.reapply()

    # -- the boxes' scales ---------------------------------------------------------------------

    def _scale_of(self, key: object) -> SpinScale | None:
        """The boxes' scale for column ``key`` (None: not a column the bar offers). An unbounded
        side takes the largest (smallest) value any system has in the comparison."""
        if not isinstance(key, str):
            return None
        column = self._columns.get(key)
        values: Any = ()
        stamp: tuple[object, int] | None = None
        if self._session is not None:
            with contextlib.suppress(RuntimeError):
                table = self._session.session.table
                if table.has(key):
                    column = table.column_info(key)
                    stamp = (table, table.n_done)
                    cached = self._scales.get(key)
                    if cached is not None and cached[0][0] is table and cached[0][1] == stamp[1]:
                        return cached[1]  # a scale scans every value of the column: once
                    values = table.scores[:, :, table.metric_index(key)]
        if column is None:
            return None
        scale = SpinScale.of(column, values)
        if stamp is not None:
            self._scales[key] = (stamp, scale)
        return scale

    def _configure_spins(self) -> None:
        """Fit the range and difference boxes to the columns their combos show."""
        self._configure_range(self.range_metric_combo.currentData())
        self._configure_delta(self.delta_metric_combo.currentData())

    def _configure_range(self, key: object) -> None:
        scale = self._scale_of(key)
        if scale is None or scale == self._range_scale:
            return
        old, self._range_scale = self._range_scale, scale
        kept = old is not None and (old.low, old.high) == (scale.low, scale.high)
        values = (self.range_min_spin.value(), self.range_max_spin.value())
        for spin in (self.range_min_spin, self.range_max_spin):
            _configure(spin, scale.low, scale.high, scale)
        with _blocked(self.range_min_spin, self.range_max_spin):
            # Another scale: the boxes start open (a BLEU 20-80 means nothing on 0-1).
            self.range_min_spin.setValue(values[0] if kept else scale.low)
            self.range_max_spin.setValue(values[1] if kept else scale.high)

    def _configure_delta(self, key: object) -> None:
        scale = self._scale_of(key)
        if scale is None or scale == self._delta_scale:
            return
        old, self._delta_scale = self._delta_scale, scale
        kept = old is not None and old.span == scale.span
        value = self.delta_spin.value()
        _configure(self.delta_spin, -scale.span, scale.span, scale)
        with _blocked(self.delta_spin):
            self.delta_spin.setValue(value if kept else scale.default_difference())

    @Slot(int)
    def _on_range_metric_changed(self, _index: int) -> None:
        self._configure_range(self.range_metric_combo.currentData())
        self.apply_score_range()

    @Slot(int)
    def _on_delta_metric_changed(self, _index: int) -> None:
        self._configure_delta(self.delta_metric_combo.currentData())
        self.apply_delta_filter()

    def set_total(self, visible: int, total: int) -> None:
        """Show "visible of total rows"."""
        self._total = total
        if self.reading:
            self.count_label.setText(
                QCoreApplication.translate(
                    "FilterBar", "{visible} of the first {total} rows"
                ).format(visible=visible, total=total)
            )
        elif visible == total:
            self.count_label.setText(
                QCoreApplication.translate("FilterBar", "{total} rows").format(total=total)
            )
        else:
            self.count_label.setText(
                QCoreApplication.translate("FilterBar", "{visible} of {total} rows").format(
                    visible=visible, total=total
                )
            )
        if self._proxy is not None and self._proxy.pending():
            # A search or sort runs in a worker; the rows shown are the old ones.
            searching = QCoreApplication.translate("FilterBar", "searching…")
            self.count_label.setText(f"{self.count_label.text()} · {searching}")

    @staticmethod
    def _refill(combo: QComboBox, items: Sequence[tuple[str, Any]]) -> None:
        previous = combo.currentData() if combo.count() else None
        combo.blockSignals(True)
        combo.clear()
        for label, data in items:
            combo.addItem(label, data)
        index = combo.findData(previous) if previous is not None else -1
        combo.setCurrentIndex(index if index >= 0 else 0)
        combo.blockSignals(False)

    def _bind_session(self) -> None:
        """Follow the selection of the proxy's session (the proxy may have a new model)."""
        session: SessionModel | None = None
        if self._proxy is not None:
            with contextlib.suppress(RuntimeError):  # no source model yet
                session = self._proxy.source_model().session
        if session is self._session:
            return
        if self._session is not None:
            with contextlib.suppress(RuntimeError, TypeError):
                self._session.selection_changed.disconnect(self._on_selection_changed)
                self._session.columns_changed.disconnect(self._on_columns_changed)
        self._session = session
        if session is not None:
            session.selection_changed.connect(self._on_selection_changed)
            session.columns_changed.connect(self._on_columns_changed)

    @Slot(str)
    def _on_columns_changed(self, key: str) -> None:
        """A column was added, removed or given another scale: offer the table's columns, with
        boxes fitted to them. New values in a column neither box shows (an annotation edit
        changes the MQM column alone) change nothing here."""
        self._scales.pop(key, None)
        if self._session is not None and self._proxy is not None:
            with contextlib.suppress(RuntimeError):
                columns = self._session.session.table.columns
                shown = (
                    self.range_metric_combo.currentData(),
                    self.delta_metric_combo.currentData(),
                )
                if key not in shown and list(columns) == list(self._columns.values()):
                    return
                self.set_metrics(columns)

    def _set_enabled(self, enabled: bool) -> None:
        for widget in self.findChildren(QWidget):
            widget.setEnabled(enabled)
        if enabled:
            self._sync_enabled()

    def _sync_enabled(self) -> None:
        on = self.range_check.isChecked()
        for widget in (
            self.range_metric_combo,
            self.range_system_combo,
            self.range_min_spin,
            self.range_max_spin,
        ):
            widget.setEnabled(on)
        on = self.delta_check.isChecked() and self.delta_check.isEnabled()
        for widget in (
            self.delta_a_combo,
            self.delta_b_combo,
            self.delta_metric_combo,
            self.delta_spin,
        ):
            widget.setEnabled(on)

    # -- state ---------------------------------------------------------------------------------

    @property
    def regex_problem(self) -> str | None:
        """The current regular-expression error shown on the search field, if any."""
        return self._regex_problem

    def selection(self) -> Selection:
        """The selection the bar shows (empty without a comparison)."""
        return Selection() if self._session is None else self._session.selection

    def has_active_filter(self) -> bool:
        """Whether any filter is in force, shown in a widget or as a chip."""
        return bool(self.selection().filters)

    def chip_specs(self) -> tuple[Filter, ...]:
        """The filters shown as chips (the widgets cannot express them), in selection order."""
        return self._chip_specs

    def chip_widgets(self) -> list[FilterChip]:
        return self.chips.chips()

    # -- keyboard ------------------------------------------------------------------------------

    def set_focus_home(self, widget: QWidget) -> None:
        """Make ``widget`` (the table) the place the keyboard goes back to, and put it right
        after the search field in the tab order: one Tab from the search to the results, and
        the bar's other controls after the table."""
        self._focus_home = widget
        chain = [
            self.search_edit,
            widget,
            self.regex_button,
            self.case_button,
            self.column_combo,
            self.special_combo,
            self.clear_button,
            self.range_check,
            self.range_metric_combo,
            self.range_system_combo,
            self.range_min_spin,
            self.range_max_spin,
            self.delta_check,
            self.delta_a_combo,
            self.delta_b_combo,
            self.delta_metric_combo,
            self.delta_spin,
        ]
        for first, second in itertools.pairwise(chain):
            QWidget.setTabOrder(first, second)

    def return_target(self) -> QWidget | None:
        """Where :meth:`leave` sends the keyboard: the widget outside the bar that had it last
        (the table, the output being annotated), else the focus home."""
        came = self._came_from
        if came is not None and shiboken6.isValid(came) and _can_focus(came):
            return came
        home = self._focus_home
        return home if home is not None and shiboken6.isValid(home) else None

    @Slot()
    def leave(self) -> None:
        """Esc: give the keyboard back (see :meth:`return_target`)."""
        target = self.return_target()
        if target is not None:
            target.setFocus(Qt.FocusReason.OtherFocusReason)

    @Slot(QWidget, QWidget)
    def _on_focus_changed(self, old: QWidget | None, new: QWidget | None) -> None:
        if not shiboken6.isValid(self):
            return
        if (
            new is not None
            and old is not None
            and self.isAncestorOf(new)
            and not self.isAncestorOf(old)
            and old.window() is self.window()
        ):
            self._came_from = old

    @Slot()
    def _on_clear_clicked(self) -> None:
        self.clear()
        self.leave()

    @Slot()
    def focus_search(self) -> None:
        """Put the keyboard focus in the search field, its text selected (Ctrl+F)."""
        self.search_edit.setFocus(Qt.FocusReason.ShortcutFocusReason)
        self.search_edit.selectAll()

    # -- showing the selection -------------------------------------------------------------------

    def reapply(self) -> None:
        """Show the session's selection again (after a new model, new score columns or a new
        baseline). Nothing is pushed: a filter the bar did not make is never dropped here.

        The baseline only moves the table's Δ columns; the "Difference" filter names both of
        its systems, so a new baseline leaves it (and every other filter) as it is.
        """
        self._bind_session()
        self._sync(widgets=True)

    @Slot(bool)
    def _on_selection_changed(self, _rows_changed: bool) -> None:
        if self._pushing_depth:
            return  # the bar's own edit: its widgets already say it
        session = self._session
        awaited, self._awaited = self._awaited, None
        if session is not None and awaited is not None and session.selection == awaited:
            self._sync(widgets=False)  # the bar's own edit, computed by a worker
            return
        self._sync(widgets=True)

    @Slot()
    def _on_proxy_filter_changed(self) -> None:
        self._update_count()

    @Slot()
    def _on_proxy_reset(self) -> None:
        """A new source model, or new columns: the text columns may have moved."""
        self._bind_session()
        self._sync(widgets=True)

    def _update_count(self) -> None:
        proxy = self._proxy
        if proxy is None:
            return
        with contextlib.suppress(RuntimeError):  # no source model yet
            self.set_total(proxy.rowCount(), proxy.source_model().rowCount())

    @contextlib.contextmanager
    def _pushing(self) -> Iterator[None]:
        """Push a widget's filter: the selection events it causes change no widget; the chips
        are brought up to date once it is done."""
        self._pushing_depth += 1
        try:
            yield
        finally:
            self._pushing_depth -= 1
            if not self._pushing_depth:
                proxy = self._proxy
                self._awaited = proxy.target() if proxy is not None and proxy.pending() else None
                self._sync(widgets=False)

    def _sync(self, *, widgets: bool) -> None:
        """Match the bar to the selection: with ``widgets``, each group of widgets takes the
        filter of its kind it can express (or lets go of one that is gone); the filters no
        widget shows become chips."""
        session = self._session
        if self._proxy is None or session is None:
            self._set_chips(())
            return
        if widgets and self._proxy.pending("selection"):
            widgets = False  # the widgets show the selection computed again for grown rows
        filters = session.selection.filters
        shown: list[Filter] = []
        for group in (self._text_group, self._range_group, self._delta_group, self._special_group):
            shown.extend(group(filters, widgets))
        self._set_chips(tuple(f for f in filters if not any(f is s for s in shown)))
        self._sync_enabled()
        self._update_count()

    # -- applying ------------------------------------------------------------------------------

    @Slot()
    def clear(self) -> None:
        """Reset every widget and clear every filter (chips too)."""
        self._text_timer.stop()
        widgets = (
            self.search_edit,
            self.special_combo,
            self.range_check,
            self.delta_check,
            self.regex_button,
            self.case_button,
            self.column_combo,
        )
        with _blocked(*widgets):
            self.search_edit.clear()
            self.special_combo.setCurrentIndex(0)
            self.range_check.setChecked(False)
            self.delta_check.setChecked(False)
            self.column_combo.setCurrentIndex(0)
        self._show_regex_problem(None)
        self._sync_enabled()
        self._applied_range = None
        if self._proxy is not None:
            with self._pushing():
                self._proxy.clear_filters()
            self.filters_applied.emit()

    @Slot(str)
    def _on_search_text_changed(self, _text: str) -> None:
        self._text_timer.start()
        if self._proxy is not None:  # the search still running is for a text no longer there
            self._proxy.cancel_pending("text")

    @Slot()
    def apply_text_filter(self) -> None:
        """Apply the search field now (typing applies it after a short pause)."""
        self._text_timer.stop()
        pattern = self.search_edit.text()
        regex = self.regex_button.isChecked()
        case_sensitive = self.case_button.isChecked()
        problem = regex_error(pattern, case_sensitive) if regex and pattern else None
        self._show_regex_problem(problem)
        if self._proxy is None:
            return
        if problem is not None:
            pattern = ""
        with self._pushing():
            self._proxy.set_text_filter(pattern, self._text_column(), regex, case_sensitive)
        self.filters_applied.emit()

    def _show_regex_problem(self, problem: str | None) -> None:
        self._regex_problem = problem
        self.search_edit.setStyleSheet(_INVALID_STYLE if problem else "")
        self.search_edit.setToolTip(problem or "")

    @Slot()
    def apply_score_range(self) -> None:
        self._sync_enabled()
        if self._proxy is None:
            return
        metric = self.range_metric_combo.currentData()
        system = self.range_system_combo.currentData()
        wanted: tuple[str, int] | None = None
        if self.range_check.isChecked() and metric is not None and system is not None:
            wanted = (metric, system)
        with self._pushing():
            if self._applied_range is not None and self._applied_range != wanted:
                old_metric, old_system = self._applied_range
                self._applied_range = None
                # KeyError/IndexError: that metric or system is gone, so nothing is left to
                # remove.
                with contextlib.suppress(KeyError, IndexError):
                    self._proxy.set_score_range(old_metric, old_system, None, None)
            if wanted is not None:
                low, high = self._range_bounds()
                self._proxy.set_score_range(wanted[0], wanted[1], low, high)
                self._applied_range = wanted
        self.filters_applied.emit()

    @Slot()
    def apply_delta_filter(self) -> None:
        self._sync_enabled()
        if self._proxy is None:
            return
        spec = self._delta_spec()
        with self._pushing():
            if spec is None:
                self._proxy.set_delta_filter(0, 0, "", None)
            else:
                self._proxy.set_delta_filter(
                    spec.system, spec.baseline, spec.column, spec.at_least, below=spec.below
                )
        self.filters_applied.emit()

    @Slot()
    def apply_special_filter(self) -> None:
        if self._proxy is None:
            return
        kind = self.special_combo.currentData() or ""
        language = kind in _LANGUAGE_KINDS
        with self._pushing():
            self._proxy.set_special_filter("" if language else kind)
            session = self._session
            if session is not None:  # one "Show" entry at a time: the language rows go
                selection = session.selection.without("rows", source=LANGUAGE_SOURCE)
                spec = self._language_spec(kind) if language else None
                if spec is not None:
                    selection = selection.with_filter(spec)
                if selection != session.selection:
                    session.set_selection(selection)
        self.filters_applied.emit()

    # -- the language check ----------------------------------------------------------------------

    def set_language_flags(self, flags: LanguageFlags | None) -> None:
        """The language check of the comparison shown (None: not done yet, or none open); its
        "Show" entries are offered once it is done."""
        self._language = flags
        self._show_language_entries()
        self._sync(widgets=True)
