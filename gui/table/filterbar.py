"""The filter bar above the segment table; it drives :class:`gui.table.proxy.SegmentFilterProxy`.

The bar holds no filtering logic of its own: it turns widget state into calls of the proxy's
``set_*`` methods. An invalid regular expression turns the search field red (with the error as
its tooltip) and leaves the text filter off; it never raises.
"""

from __future__ import annotations

import contextlib
from collections.abc import Sequence
from typing import Any

from PySide6.QtCore import Qt, QTimer, Signal, Slot
from PySide6.QtGui import QKeySequence
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDoubleSpinBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from matchlight.core.analysis.textsearch import PatternError, TextQuery
from matchlight.core.metrics.base import ScoreColumn

TEXT_DEBOUNCE_MS = 200
ANY_COLUMN = "any text column"
#: Combo-box data for "any text column". Never None: PySide6 6.12 on CPython 3.11 drops a
#: reference to None whenever an item's None data comes back to Python.
_ANY = -1

#: (kind passed to the proxy, label) of the special filters.
SPECIAL_FILTERS: tuple[tuple[str, str], ...] = (
    ("", "all rows"),
    ("empty", "rows with an empty text"),
    ("length-mismatch", "length-mismatched rows"),
    ("lsum-fallback", "ROUGE-Lsum = ROUGE-L rows"),
)

_INVALID_STYLE = "QLineEdit { background: #fde2e4; color: #5c0011; border: 1px solid #d1434b; }"


def _metric_items(columns: Sequence[ScoreColumn]) -> list[tuple[str, str]]:
    """(label, column key) of the score columns a filter can use: headline columns first."""
    scores = [c for c in columns if c.kind == "score"]
    ordered = [c for c in scores if c.headline] + [c for c in scores if not c.headline]
    return [(c.label, c.key) for c in ordered]


def regex_error(pattern: str, case_sensitive: bool = True) -> str | None:
    """Why ``pattern`` is not a usable regular expression (None when it is).

    Checked by the engine the proxy searches with (:mod:`core.analysis.textsearch`).
    """
    try:
        TextQuery(pattern, regex=True, case_sensitive=case_sensitive).compile()
    except PatternError as exc:
        return f"Invalid regular expression: {exc}"
    return None


def _spin(minimum: float, maximum: float, value: float, prefix: str = "") -> QDoubleSpinBox:
    spin = QDoubleSpinBox()
    spin.setRange(minimum, maximum)
    spin.setDecimals(1)
    spin.setSingleStep(1.0)
    spin.setValue(value)
    spin.setPrefix(prefix)
    spin.setKeyboardTracking(False)
    spin.setAccelerated(True)
    return spin


class FilterBar(QWidget):
    """Search, score-range, difference and special filters, plus a "N of M rows" count.

    Signals:
        filters_applied: the bar pushed a new filter state to the proxy.
    """

    filters_applied = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._proxy: Any = None
        self._total = 0
        self._regex_problem: str | None = None
        self._applied_range: tuple[str, int] | None = None

        # -- line 1: text search --
        self.search_edit = QLineEdit()
        self.search_edit.setObjectName("search")
        self.search_edit.setClearButtonEnabled(True)
        shortcut = QKeySequence(QKeySequence.StandardKey.Find).toString(
            QKeySequence.SequenceFormat.NativeText
        )
        self.search_edit.setPlaceholderText(f"Search the texts ({shortcut})")
        self.search_edit.setMinimumWidth(240)
        self.regex_button = QToolButton()
        self.regex_button.setText(".*")
        self.regex_button.setCheckable(True)
        self.regex_button.setToolTip(
            "Regular expression (Python syntax, plus Unicode properties such as \\p{Han})"
        )
        self.case_button = QToolButton()
        self.case_button.setText("Aa")
        self.case_button.setCheckable(True)
        self.case_button.setToolTip("Case sensitive")
        self.column_combo = QComboBox()
        self.column_combo.setToolTip("Where to search")
        self.column_combo.addItem(ANY_COLUMN, _ANY)
        self.special_combo = QComboBox()
        self.special_combo.setToolTip("Show only rows of a kind")
        for kind, label in SPECIAL_FILTERS:
            self.special_combo.addItem(label, kind)
        self.clear_button = QPushButton("Clear filters")
        self.count_label = QLabel("0 of 0 rows")
        self.count_label.setObjectName("count")
        self.count_label.setMinimumWidth(
            self.count_label.fontMetrics().horizontalAdvance("100000 of 100000 rows")
        )
        self.count_label.setAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)

        # -- line 2: score range and difference --
        self.range_check = QCheckBox("Score")
        self.range_check.setToolTip("Keep rows whose score lies in a range")
        self.range_metric_combo = QComboBox()
        self.range_system_combo = QComboBox()
        self.range_min_spin = _spin(0.0, 100.0, 0.0, "≥ ")
        self.range_max_spin = _spin(0.0, 100.0, 100.0, "≤ ")
        self.delta_check = QCheckBox("Difference")
        self.delta_check.setToolTip("Keep rows where system A beats system B by at least x")
        self.delta_a_combo = QComboBox()
        self.delta_b_combo = QComboBox()
        self.delta_metric_combo = QComboBox()
        self.delta_spin = _spin(-100.0, 100.0, 10.0, "≥ ")

        line1 = QHBoxLayout()
        line1.setContentsMargins(0, 0, 0, 0)
        line1.addWidget(self.search_edit, 3)
        line1.addWidget(self.regex_button)
        line1.addWidget(self.case_button)
        line1.addWidget(QLabel("in"))
        line1.addWidget(self.column_combo, 1)
        line1.addSpacing(12)
        line1.addWidget(QLabel("Show"))
        line1.addWidget(self.special_combo)
        line1.addSpacing(12)
        line1.addWidget(self.clear_button)
        line1.addWidget(self.count_label)

        line2 = QHBoxLayout()
        line2.setContentsMargins(0, 0, 0, 0)
        line2.addWidget(self.range_check)
        line2.addWidget(self.range_metric_combo)
        line2.addWidget(QLabel("of"))
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
        for widget in (self.range_metric_combo, self.range_system_combo):
            widget.currentIndexChanged.connect(self.apply_score_range)
        self.range_min_spin.valueChanged.connect(self.apply_score_range)
        self.range_max_spin.valueChanged.connect(self.apply_score_range)
        self.range_check.toggled.connect(self.apply_score_range)
        for widget in (self.delta_a_combo, self.delta_b_combo, self.delta_metric_combo):
            widget.currentIndexChanged.connect(self.apply_delta_filter)
        self.delta_spin.valueChanged.connect(self.apply_delta_filter)
        self.delta_check.toggled.connect(self.apply_delta_filter)
        self.clear_button.clicked.connect(self.clear)
        self._set_enabled(False)

    # -- setup ---------------------------------------------------------------------------------

    def set_proxy(
        self,
        proxy: Any,
        *,
        text_columns: Sequence[tuple[str, int]],
        systems: Sequence[str],
        metrics: Sequence[ScoreColumn],
    ) -> None:
        """Drive ``proxy``; offer ``text_columns`` ((title, model column)), systems, and the
        score columns ``metrics`` (from the registry, via the score table).

        The widgets keep their state where it still makes sense and re-apply it to the proxy.
        """
        self._proxy = proxy
        self._applied_range = None  # a new proxy starts without filters
        self._refill(self.column_combo, [(ANY_COLUMN, _ANY), *text_columns])
        system_items = [(name, i) for i, name in enumerate(systems)]
        metric_items = _metric_items(metrics)
        self._refill(self.range_system_combo, system_items)
        self._refill(self.delta_a_combo, system_items)
        self._refill(self.delta_b_combo, system_items)
        same = self.delta_a_combo.currentIndex() == self.delta_b_combo.currentIndex()
        if len(systems) > 1 and same:
            self.delta_a_combo.setCurrentIndex(1)
        self._refill(self.range_metric_combo, metric_items)
        self._refill(self.delta_metric_combo, metric_items)
        self.delta_check.setEnabled(len(systems) > 1)
        self._set_enabled(proxy is not None)
        self.reapply()

    def set_metrics(self, metrics: Sequence[ScoreColumn]) -> None:
        """The score columns of a new score table (after a settings change)."""
        items = _metric_items(metrics)
        self._refill(self.range_metric_combo, items)
        self._refill(self.delta_metric_combo, items)

    def set_total(self, visible: int, total: int) -> None:
        """Show "visible of total rows"."""
        self._total = total
        if visible == total:
            self.count_label.setText(f"{total} rows")
        else:
            self.count_label.setText(f"{visible} of {total} rows")

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

    def has_active_filter(self) -> bool:
        return bool(
            self.search_edit.text()
            or self.range_check.isChecked()
            or self.delta_check.isChecked()
            or self.special_combo.currentData()
        )

    @Slot()
    def focus_search(self) -> None:
        """Put the keyboard focus in the search field, its text selected (Ctrl+F)."""
        self.search_edit.setFocus(Qt.FocusReason.ShortcutFocusReason)
        self.search_edit.selectAll()

    # -- applying ------------------------------------------------------------------------------

    def reapply(self) -> None:
        """Push every filter to the proxy again (e.g. after a new model was set)."""
        self.apply_text_filter()
        self.apply_score_range()
        self.apply_delta_filter()
        self.apply_special_filter()

    @Slot()
    def clear(self) -> None:
        """Reset every widget and clear the proxy's filters."""
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
        for widget in widgets:
            widget.blockSignals(True)
        self.search_edit.clear()
        self.special_combo.setCurrentIndex(0)
        self.range_check.setChecked(False)
        self.delta_check.setChecked(False)
        self.column_combo.setCurrentIndex(0)
        for widget in widgets:
            widget.blockSignals(False)
        self._show_regex_problem(None)
        self._sync_enabled()
        self._applied_range = None
        if self._proxy is not None:
            self._proxy.clear_filters()
            self.filters_applied.emit()

    @Slot(str)
    def _on_search_text_changed(self, _text: str) -> None:
        self._text_timer.start()

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
        column = self.column_combo.currentData()
        column = None if column == _ANY else column
        self._proxy.set_text_filter(pattern, column, regex, case_sensitive)
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
        if self._applied_range is not None and self._applied_range != wanted:
            old_metric, old_system = self._applied_range
            self._applied_range = None
            # KeyError/IndexError: that metric or system is gone, so nothing is left to remove.
            with contextlib.suppress(KeyError, IndexError):
                self._proxy.set_score_range(old_metric, old_system, None, None)
        if wanted is not None:
            low, high = sorted((self.range_min_spin.value(), self.range_max_spin.value()))
            # The ends of the spin boxes are open: sentence BLEU can be 100.00000000000004.
            self._proxy.set_score_range(
                wanted[0],
                wanted[1],
                None if low <= self.range_min_spin.minimum() else low,
                None if high >= self.range_max_spin.maximum() else high,
            )
            self._applied_range = wanted
        self.filters_applied.emit()

    @Slot()
    def apply_delta_filter(self) -> None:
        self._sync_enabled()
        if self._proxy is None:
            return
        a = self.delta_a_combo.currentData()
        b = self.delta_b_combo.currentData()
        metric = self.delta_metric_combo.currentData()
        if not self.delta_check.isChecked() or None in (a, b, metric) or a == b:
            self._proxy.set_delta_filter(0, 0, "", None)
        else:
            self._proxy.set_delta_filter(a, b, metric, self.delta_spin.value())
        self.filters_applied.emit()

    @Slot()
    def apply_special_filter(self) -> None:
        if self._proxy is None:
            return
        self._proxy.set_special_filter(self.special_combo.currentData() or "")
        self.filters_applied.emit()
