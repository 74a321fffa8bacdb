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
from dataclasses import dataclass
from typing import Any

import shiboken6
from PySide6.QtCore import (
    QT_TRANSLATE_NOOP,
    QCoreApplication,
    QRectF,
    QSize,
    Qt,
    QTimer,
    Signal,
    Slot,
)
from PySide6.QtGui import (
    QKeyEvent,
    QKeySequence,
    QPainter,
    QPaintEvent,
    QPalette,
    QPen,
    QResizeEvent,
    QShortcut,
    QWheelEvent,
)
from PySide6.QtWidgets import (
    QApplication,
    QCheckBox,
    QComboBox,
    QDoubleSpinBox,
    QFrame,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QSizePolicy,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from matchlight.core.analysis.language import Flag, LanguageFlags
from matchlight.core.analysis.scales import display_bounds, nice_step
from matchlight.core.analysis.selection import (
    DeltaFilter,
    EmptyRows,
    Filter,
    FlagFilter,
    LengthRatio,
    RowSet,
    ScoreRange,
    SegmentRange,
    Selection,
    TextFilter,
)
from matchlight.core.analysis.textsearch import PatternError, TextQuery
from matchlight.core.metrics.base import ScoreColumn
from matchlight.gui.state.session import SessionModel
from matchlight.gui.table.proxy import SegmentFilterProxy, special_filter_spec

TEXT_DEBOUNCE_MS = 200
ANY_COLUMN = QT_TRANSLATE_NOOP("FilterBar", "any text column")


def _any_column() -> str:
    return QCoreApplication.translate("FilterBar", ANY_COLUMN)


#: Combo-box data for "any text column". Never None: PySide6 6.12 on CPython 3.11 drops a
#: reference to None whenever an item's None data comes back to Python.
_ANY = -1

#: The row sets of the language check's "Show" entries come from this source.
LANGUAGE_SOURCE = "language"
#: (kind, flag of :class:`~core.analysis.language.LanguageFlags`, label) of the "Show" entries
#: made from the language check: the rows where some system's output has the flag, as a row
#: set (so a session keeps the rows while the check runs again).
LANGUAGE_FILTERS: tuple[tuple[str, Flag, str], ...] = (
    (
        "wrong-language",
        "wrong_language",
        QT_TRANSLATE_NOOP("FilterBar", "output in another language"),
    ),
    ("copies-source", "copies_source", QT_TRANSLATE_NOOP("FilterBar", "output copying the source")),
)
_LANGUAGE_KINDS = {kind: (flag, label) for kind, flag, label in LANGUAGE_FILTERS}
#: (kind passed to the proxy, label) of the special filters; the language check's last.
SPECIAL_FILTERS: tuple[tuple[str, str], ...] = (
    ("", QT_TRANSLATE_NOOP("FilterBar", "all rows")),
    ("empty", QT_TRANSLATE_NOOP("FilterBar", "rows with an empty text")),
    ("length-mismatch", QT_TRANSLATE_NOOP("FilterBar", "length-mismatched rows")),
    ("lsum-fallback", QT_TRANSLATE_NOOP("FilterBar", "ROUGE-Lsum = ROUGE-L rows")),
    *((kind, label) for kind, _flag, label in LANGUAGE_FILTERS),
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
        return QCoreApplication.translate("filterbar", "Invalid regular expression: {exc}").format(
            exc=exc
        )
    return None


def _number(value: float) -> str:
    return f"{value:g}"


def _rows(n: int) -> str:
    if n == 1:
        return QCoreApplication.translate("FilterBar", "{0:,} row").format(n)
    return QCoreApplication.translate("FilterBar", "{0:,} rows").format(n)


#: The fewest characters of its current entry a squeezed combo box still shows.
COMBO_MIN_CHARS = 7


class ShrinkingCombo(QComboBox):
    """A combo box as wide as its entries when there is room, and down to
    :data:`COMBO_MIN_CHARS` characters when there is not (its popup still shows the entries
    whole), so the bar fits a 1280-pixel window beside the docks.

    Typing never changes it while it is closed: a closed QComboBox picks the first entry
    starting with each letter typed, so letters meant for the table silently set a filter
    ("r" chose "ROUGE-Lsum = ROUGE-L rows"). Open it (Space, F4, Alt+Down or a click) to pick
    an entry by typing. Nor does the mouse wheel change it unless it has the focus.
    """

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)  # not WheelFocus

    def minimumSizeHint(self) -> QSize:
        hint = super().minimumSizeHint()
        least = self.fontMetrics().horizontalAdvance("M" * COMBO_MIN_CHARS) + 32
        return QSize(min(hint.width(), least), hint.height())

    def keyPressEvent(self, event: QKeyEvent) -> None:
        typed = event.text()
        plain = event.modifiers() & ~Qt.KeyboardModifier.ShiftModifier == Qt.KeyboardModifier(0)
        if plain and typed and typed.isprintable() and not typed.isspace():
            event.ignore()  # a closed combo box: see the class docstring
            return
        super().keyPressEvent(event)

    def wheelEvent(self, event: QWheelEvent) -> None:
        if not self.hasFocus():
            event.ignore()  # scrolls the window instead
            return
        super().wheelEvent(event)


@dataclass(frozen=True, slots=True)
class SpinScale:
    """What a score box shows for one column: its range (the column's natural one, an
    unbounded side from the data), its decimals, the step of its arrows (a hundredth of the
    range, at least one unit of the last decimal) and, for the difference box, its default
    (a tenth of the range: 10 points of BLEU, 0.1 of COMET)."""

    low: float
    high: float
    decimals: int
    step: float

    @classmethod
    def of(cls, column: ScoreColumn, values: Any = ()) -> SpinScale:
        low, high = display_bounds(column, values)
        step = max(column.step, nice_step(high - low, 100))
        return cls(low, high, column.decimals, step)

    @property
    def span(self) -> float:
        return self.high - self.low

    def default_difference(self) -> float:
        return round(self.span / 10, self.decimals) or 10.0**-self.decimals


def _configure(spin: QDoubleSpinBox, low: float, high: float, scale: SpinScale) -> None:
    """Give ``spin`` a range, decimals and step (signals blocked: its value may be clamped)."""
    with _blocked(spin):
        spin.setDecimals(scale.decimals)
        spin.setRange(low, high)
        spin.setSingleStep(scale.step)


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


#: How wide a chip's text gets at most; a chip is narrower when the bar is (its text elided in
#: the middle), and its whole text is its tooltip.
CHIP_TEXT_WIDTH = 420
#: The fewest characters a squeezed chip still shows.
CHIP_MIN_CHARS = 6


class ElidedLabel(QLabel):
    """A one-line label that gives up width: its text is elided in the middle to fit."""

    def __init__(self, text: str, parent: QWidget | None = None) -> None:
        super().__init__(text, parent)
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Fixed)

    def sizeHint(self) -> QSize:
        hint = super().sizeHint()
        return QSize(min(hint.width(), CHIP_TEXT_WIDTH), hint.height())

    def minimumSizeHint(self) -> QSize:
        hint = super().minimumSizeHint()
        least = self.fontMetrics().horizontalAdvance("M" * CHIP_MIN_CHARS)
        return QSize(min(hint.width(), least), hint.height())

    def shown_text(self) -> str:
        """The text as it fits the label's width now."""
        return self.fontMetrics().elidedText(
            self.text(), Qt.TextElideMode.ElideMiddle, self.contentsRect().width()
        )

    def paintEvent(self, event: QPaintEvent) -> None:
        painter = QPainter(self)
        painter.setPen(self.palette().color(self.foregroundRole()))
        flags = int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter)
        painter.drawText(self.contentsRect(), flags, self.shown_text())
        painter.end()


class FilterChip(QFrame):
    """A filter the bar's widgets cannot show, as a read-only label with a ✕ that removes it.

    Signals:
        remove_requested(object spec): the ✕ was clicked; ``spec`` is the filter to remove.
    """

    remove_requested = Signal(object)

    def __init__(self, spec: Filter, text: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.spec = spec
        self.full_text = text
        self.setObjectName("filterChip")
        self.setSizePolicy(QSizePolicy.Policy.Maximum, QSizePolicy.Policy.Fixed)
        self._cap: int | None = None
        self.label = ElidedLabel(text)
        self.setToolTip(
            QCoreApplication.translate(
                "FilterChip", "{text}\nSet outside the filter bar; ✕ removes this filter."
            ).format(text=text)
        )
        self.remove_button = QToolButton()
        self.remove_button.setText("✕")
        self.remove_button.setAutoRaise(True)
        self.remove_button.setToolTip(
            QCoreApplication.translate("FilterChip", "Remove this filter")
        )
        self.remove_button.setAccessibleName(
            QCoreApplication.translate("FilterChip", "Remove the filter {text}").format(text=text)
        )
        self.remove_button.clicked.connect(self._on_remove_clicked)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(8, 0, 2, 0)
        layout.setSpacing(2)
        layout.addWidget(self.label, 1)
        layout.addWidget(self.remove_button)

    def natural_width(self) -> int:
        """The width the whole (or CHIP_TEXT_WIDTH of the) text needs."""
        return super().sizeHint().width()

    def set_cap(self, width: int) -> None:
        """Ask for at most ``width`` pixels (the row's share of this chip)."""
        if width != self._cap:
            self._cap = width
            self.updateGeometry()

    def sizeHint(self) -> QSize:
        hint = super().sizeHint()
        if self._cap is not None:
            hint.setWidth(min(hint.width(), self._cap))
        return hint

    def paintEvent(self, event: QPaintEvent) -> None:
        """A rounded outline in the widget's palette (it follows a theme change; a style sheet
        would keep the colours it was polished with)."""
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        palette = self.palette()
        painter.setPen(QPen(palette.color(QPalette.ColorRole.Mid), 1.0))
        painter.setBrush(palette.color(QPalette.ColorRole.Midlight))
        rect = QRectF(self.rect()).adjusted(0.5, 0.5, -0.5, -0.5)
        radius = rect.height() / 2
        painter.drawRoundedRect(rect, radius, radius)
        painter.end()

    @Slot()
    def _on_remove_clicked(self) -> None:
        self.remove_requested.emit(self.spec)


class ChipRow(QWidget):
    """The line of chips; when they do not all fit, the widest give up width first, so a short
    chip ("segments 1-500") stays whole next to a long chart label."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.row = QHBoxLayout(self)
        self.row.setContentsMargins(0, 0, 0, 0)
        self.row.setSpacing(4)
        self.row.addStretch(1)

    def chips(self) -> list[FilterChip]:
        return [
            w
            for i in range(self.row.count())
            if isinstance(w := self.row.itemAt(i).widget(), FilterChip)
        ]

    def set_chips(self, chips: Sequence[FilterChip]) -> None:
        for chip in self.chips():
            self.row.removeWidget(chip)
            chip.hide()
            chip.deleteLater()
        for chip in chips:
            self.row.insertWidget(self.row.count() - 1, chip)
            chip.show()  # now, not when the layout gets to it
        self.fit()

    def fit(self) -> None:
        """Cap each chip's width: an equal share of the row, and what a narrower chip leaves
        of its share goes to the wider ones."""
        chips = self.chips()
        if not chips:
            return
        left = self.width() - self.row.spacing() * (len(chips) - 1)
        wanted = [chip.natural_width() for chip in chips]
        caps = [0] * len(chips)
        for done, i in enumerate(sorted(range(len(chips)), key=wanted.__getitem__)):
            share = left // (len(chips) - done)
            caps[i] = max(chips[i].minimumSizeHint().width(), min(wanted[i], share))
            left -= caps[i]
        for chip, cap in zip(chips, caps, strict=True):
            chip.set_cap(cap)
        self.row.activate()  # lay the chips out at their new widths before the next paint

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self.fit()


class FilterBar(QWidget):
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
        self._regex_problem: str | None = None
        self._applied_range: tuple[str, int] | None = None
        self._pushing_depth = 0
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
        if proxy is not None and proxy is not self._proxy:
            proxy.filter_changed.connect(self._on_proxy_filter_changed)
            proxy.modelReset.connect(self._on_proxy_reset)
        self._proxy = proxy
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
        if self._session is not None:
            with contextlib.suppress(RuntimeError):
                table = self._session.session.table
                if table.has(key):
                    column = table.column_info(key)
                    values = table.scores[:, :, table.metric_index(key)]
        return None if column is None else SpinScale.of(column, values)

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
        if visible == total:
            self.count_label.setText(
                QCoreApplication.translate("FilterBar", "{total} rows").format(total=total)
            )
        else:
            self.count_label.setText(
                QCoreApplication.translate("FilterBar", "{visible} of {total} rows").format(
                    visible=visible, total=total
                )
            )

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
    def _on_columns_changed(self, _key: str) -> None:
        """A column was added, removed or given another scale: offer the table's columns, with
        boxes fitted to them."""
        if self._session is not None and self._proxy is not None:
            with contextlib.suppress(RuntimeError):
                self.set_metrics(self._session.session.table.columns)

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
                self._sync(widgets=False)

    def _sync(self, *, widgets: bool) -> None:
        """Match the bar to the selection: with ``widgets``, each group of widgets takes the
        filter of its kind it can express (or lets go of one that is gone); the filters no
        widget shows become chips."""
        session = self._session
        if self._proxy is None or session is None:
            self._set_chips(())
            return
        filters = session.selection.filters
        shown: list[Filter] = []
        for group in (self._text_group, self._range_group, self._delta_group, self._special_group):
            shown.extend(group(filters, widgets))
        self._set_chips(tuple(f for f in filters if not any(f is s for s in shown)))
        self._sync_enabled()
        self._update_count()

    def _pick(
        self,
        candidates: Sequence[Filter],
        mine: Filter | None,
        norm: Any,
        widgets: bool,
    ) -> tuple[Filter | None, Filter | None]:
        """(the candidate the widgets show already, the candidate to show instead) of one group."""
        for f in candidates:
            if norm(f) is not None and norm(f) == mine:
                return f, None
        if not widgets:
            return None, None
        return None, next((f for f in candidates if norm(f) is not None), None)

    # text

    def _text_names(self) -> list[tuple[int, str]]:
        """(combo index, selection column name) of the search combo's columns."""
        proxy = self._proxy
        names: list[tuple[int, str]] = []
        if proxy is None:
            return names
        for i in range(1, self.column_combo.count()):
            col = self.column_combo.itemData(i)
            with contextlib.suppress(RuntimeError, IndexError, ValueError):
                names.append((i, proxy.source_model().text_key(col)))
        return names

    def _text_spec(self) -> TextFilter | None:
        """The text filter the search widgets say (None: none, or an invalid expression)."""
        proxy = self._proxy
        pattern = self.search_edit.text()
        regex = self.regex_button.isChecked()
        case_sensitive = self.case_button.isChecked()
        if proxy is None or (regex and pattern and regex_error(pattern, case_sensitive)):
            return None
        try:
            return proxy.text_filter_spec(pattern, self._text_column(), regex, case_sensitive)
        except (RuntimeError, IndexError, ValueError):
            return None

    def _text_column(self) -> int | None:
        column = self.column_combo.currentData()
        return None if column == _ANY or column is None else int(column)

    def _text_norm(self, f: Filter) -> Filter | None:
        if not isinstance(f, TextFilter) or len(f.columns) > 1:
            return None
        if f.columns and f.columns[0] not in {name for _, name in self._text_names()}:
            return None
        return f

    def _text_group(self, filters: Sequence[Filter], widgets: bool) -> list[Filter]:
        candidates = [f for f in filters if isinstance(f, TextFilter)]
        if self._text_timer.isActive() or (self._proxy is not None and self._proxy.pending("text")):
            return candidates  # the user is typing, or the search runs: it replaces it soon
        match, pick = self._pick(candidates, self._text_spec(), self._text_norm, widgets)
        if match is not None:
            return [match]
        if pick is not None:
            assert isinstance(pick, TextFilter)
            index = 0
            if pick.columns:
                index = next(i for i, name in self._text_names() if name == pick.columns[0])
            with _blocked(self.search_edit, self.regex_button, self.case_button, self.column_combo):
                self.search_edit.setText(pick.pattern)
                self.regex_button.setChecked(pick.regex)
                self.case_button.setChecked(pick.case_sensitive)
                self.column_combo.setCurrentIndex(index)
            self._show_regex_problem(None)
            return [pick]
        if widgets and self._text_spec() is not None:
            with _blocked(self.search_edit):
                self.search_edit.clear()
            self._show_regex_problem(None)
        return []

    # score range

    def _range_spec(self) -> ScoreRange | None:
        """The score range the widgets say (None when off, or open at both ends)."""
        metric = self.range_metric_combo.currentData()
        system = self.range_system_combo.currentData()
        if not self.range_check.isChecked() or metric is None or system is None:
            return None
        low, high = self._range_bounds()
        if low is None and high is None:
            return None
        return ScoreRange(metric, system, low, high)

    def _range_bounds(self) -> tuple[float | None, float | None]:
        """The spin boxes' bounds in order; an end of a spin box's range means open (sentence
        BLEU can be 100.00000000000004)."""
        low, high = sorted((self.range_min_spin.value(), self.range_max_spin.value()))
        return (
            None if low <= self.range_min_spin.minimum() else low,
            None if high >= self.range_max_spin.maximum() else high,
        )

    def _range_norm(self, f: Filter) -> Filter | None:
        """``f`` as the range widgets would say it (None: they cannot)."""
        if not isinstance(f, ScoreRange):
            return None
        if self.range_metric_combo.findData(f.column) < 0:
            return None
        if self.range_system_combo.findData(f.system) < 0:
            return None
        scale = self._scale_of(f.column)
        if scale is None:
            return None
        lowest, highest = scale.low, scale.high
        ends = [v for v in (f.low, f.high) if v is not None]
        if not ends or any(not lowest <= v <= highest for v in ends):
            return None
        if f.low is not None and f.high is not None and f.low > f.high:
            return None
        low = _rounded(f.low, scale.decimals)
        high = _rounded(f.high, scale.decimals)
        low = None if low is None or low <= lowest else low
        high = None if high is None or high >= highest else high
        if low is None and high is None:
            return None
        return ScoreRange(f.column, f.system, low, high)

    def _range_group(self, filters: Sequence[Filter], widgets: bool) -> list[Filter]:
        candidates = [f for f in filters if isinstance(f, ScoreRange)]
        key = (self.range_metric_combo.currentData(), self.range_system_combo.currentData())
        # The range of the metric and system the widgets are on comes first.
        candidates.sort(key=lambda f: (f.column, f.system) != key)
        match, pick = self._pick(candidates, self._range_spec(), self._range_norm, widgets)
        if match is not None:
            assert isinstance(match, ScoreRange)
            self._applied_range = (match.column, match.system)
            return [match]
        if pick is not None:
            assert isinstance(pick, ScoreRange)
            spins = (self.range_min_spin, self.range_max_spin)
            with _blocked(
                self.range_check, self.range_metric_combo, self.range_system_combo, *spins
            ):
                self.range_check.setChecked(True)
                self.range_metric_combo.setCurrentIndex(
                    self.range_metric_combo.findData(pick.column)
                )
                self.range_system_combo.setCurrentIndex(
                    self.range_system_combo.findData(pick.system)
                )
                self._configure_range(pick.column)
                low = self.range_min_spin.minimum() if pick.low is None else pick.low
                high = self.range_max_spin.maximum() if pick.high is None else pick.high
                self.range_min_spin.setValue(low)
                self.range_max_spin.setValue(high)
            self._applied_range = (pick.column, pick.system)
            return [pick]
        if widgets:
            self._applied_range = None
            if self._range_spec() is not None:
                with _blocked(self.range_check):
                    self.range_check.setChecked(False)
        return []

    # difference

    def _delta_spec(self) -> DeltaFilter | None:
        a = self.delta_a_combo.currentData()
        b = self.delta_b_combo.currentData()
        metric = self.delta_metric_combo.currentData()
        on = self.delta_check.isChecked() and self.delta_check.isEnabled()
        if not on or None in (a, b, metric) or a == b:
            return None
        return _beats(self._lower_is_better(metric), metric, a, b, float(self.delta_spin.value()))

    def _lower_is_better(self, key: str) -> bool:
        column = self._columns.get(key)
        if self._session is not None:
            with contextlib.suppress(RuntimeError):
                table = self._session.session.table
                if table.has(key):
                    column = table.column_info(key)
        return column is not None and not column.higher_is_better

    def _delta_norm(self, f: Filter) -> Filter | None:
        """``f`` as the difference widgets would say it: "A beats B by at least x", which is
        A − B ≥ x, or A − B ≤ −x on a lower-is-better column (None: they cannot say it)."""
        if not isinstance(f, DeltaFilter) or f.system == f.baseline:
            return None
        lower = self._lower_is_better(f.column)
        if f.below != lower:
            return None
        if not self.delta_check.isEnabled() or self.delta_metric_combo.findData(f.column) < 0:
            return None
        if self.delta_a_combo.findData(f.system) < 0 or self.delta_b_combo.findData(f.baseline) < 0:
            return None
        scale = self._scale_of(f.column)
        by = -f.at_least if lower else f.at_least
        if scale is None or not -scale.span <= by <= scale.span:
            return None
        rounded = _rounded(by, scale.decimals)
        assert rounded is not None
        return _beats(lower, f.column, f.system, f.baseline, rounded)

    def _delta_group(self, filters: Sequence[Filter], widgets: bool) -> list[Filter]:
        candidates = [f for f in filters if isinstance(f, DeltaFilter)]
        match, pick = self._pick(candidates, self._delta_spec(), self._delta_norm, widgets)
        if match is not None:
            return [match]
        if pick is not None:
            assert isinstance(pick, DeltaFilter)
            combos = (self.delta_a_combo, self.delta_b_combo, self.delta_metric_combo)
            with _blocked(self.delta_check, self.delta_spin, *combos):
                self.delta_check.setChecked(True)
                self.delta_a_combo.setCurrentIndex(self.delta_a_combo.findData(pick.system))
                self.delta_b_combo.setCurrentIndex(self.delta_b_combo.findData(pick.baseline))
                self.delta_metric_combo.setCurrentIndex(
                    self.delta_metric_combo.findData(pick.column)
                )
                self._configure_delta(pick.column)
                self.delta_spin.setValue(-pick.at_least if pick.below else pick.at_least)
            return [pick]
        if widgets and self._delta_spec() is not None:
            with _blocked(self.delta_check):
                self.delta_check.setChecked(False)
        return []

    # special rows

    def _special_spec(self) -> Filter | None:
        kind = self.special_combo.currentData() or ""
        if kind in _LANGUAGE_KINDS:
            return self._language_spec(kind)
        return special_filter_spec(kind)

    @staticmethod
    def _special_kind(f: Filter) -> str | None:
        """The "Show" entry that makes exactly ``f`` (None: none does)."""
        if isinstance(f, RowSet):
            if f.source != LANGUAGE_SOURCE:
                return None
            return next((k for k, (_f, label) in _LANGUAGE_KINDS.items() if label == f.label), None)
        for kind, _label in SPECIAL_FILTERS:
            if kind and kind not in _LANGUAGE_KINDS and special_filter_spec(kind) == f:
                return kind
        return None

    def _special_norm(self, f: Filter) -> Filter | None:
        return f if self._special_kind(f) is not None else None

    def _special_group(self, filters: Sequence[Filter], widgets: bool) -> list[Filter]:
        candidates = [
            f
            for f in filters
            if isinstance(f, EmptyRows | LengthRatio | FlagFilter)
            or (isinstance(f, RowSet) and f.source == LANGUAGE_SOURCE)
        ]
        match, pick = self._pick(candidates, self._special_spec(), self._special_norm, widgets)
        if match is not None:
            return [match]
        if pick is not None:
            index = self.special_combo.findData(self._special_kind(pick))
            with _blocked(self.special_combo):
                self.special_combo.setCurrentIndex(index)
            return [pick]
        if widgets and self._special_spec() is not None:
            with _blocked(self.special_combo):
                self.special_combo.setCurrentIndex(0)
        return []

    # chips

    def _set_chips(self, specs: tuple[Filter, ...]) -> None:
        if specs == self._chip_specs and len(self.chip_widgets()) == len(specs):
            return
        self._chip_specs = specs
        chips = []
        for spec in specs:
            chip = FilterChip(spec, f"+ {self.describe(spec)}")
            chip.setEnabled(self._proxy is not None)
            chip.remove_requested.connect(self._on_chip_remove_requested)
            chips.append(chip)
        self.chips.set_chips(chips)
        self.chips.setVisible(bool(specs))

    def describe(self, f: Filter) -> str:
        """``f`` in words, for its chip (names of systems, metrics and columns as shown)."""
        if isinstance(f, RowSet):
            label = f.label
            if f.source == LANGUAGE_SOURCE:
                label = QCoreApplication.translate("FilterBar", label)
            if f.source not in ("", "rows") and not label.startswith(f"{f.source}:"):
                label = f"{f.source}: {label}"
            return f"{label} ({_rows(len(f.rows))})"
        if isinstance(f, SegmentRange):
            return QCoreApplication.translate("FilterBar", "segments {0}").format(f.spec)
        if isinstance(f, ScoreRange):
            if f.low is not None and f.high is not None:
                bounds = f"{_number(f.low)}–{_number(f.high)}"
            elif f.low is not None:
                bounds = f"≥ {_number(f.low)}"
            elif f.high is not None:
                bounds = f"≤ {_number(f.high)}"
            else:
                bounds = "scored"
            return f"{self._metric_label(f.column)} of {self._system_name(f.system)} {bounds}"
        if isinstance(f, DeltaFilter):
            sign = "≤" if f.below else "≥"
            return (
                f"{self._metric_label(f.column)}: {self._system_name(f.system)} − "
                f"{self._system_name(f.baseline)} {sign} {_number(f.at_least)}"
            )
        if isinstance(f, TextFilter):
            pattern = f"/{f.pattern}/" if f.regex else f"“{f.pattern}”"
            titles = {name: self.column_combo.itemText(i) for i, name in self._text_names()}
            where = ", ".join(titles.get(c, c) for c in f.columns) or _any_column()
            return QCoreApplication.translate("FilterBar", "text {0} in {1}").format(pattern, where)
        if isinstance(f, EmptyRows):
            what = {
                "output": QCoreApplication.translate("FilterBar", "an empty output"),
                "reference": QCoreApplication.translate("FilterBar", "an empty reference"),
            }.get(f.what, QCoreApplication.translate("FilterBar", "an empty text"))
            return (
                QCoreApplication.translate("FilterBar", "rows with {what}").format(what=what)
                if f.keep
                else QCoreApplication.translate("FilterBar", "rows without {what}").format(
                    what=what
                )
            )
        if isinstance(f, LengthRatio):
            ratio = (
                QCoreApplication.translate("FilterBar", "length ratio outside [{0}, {1}]")
                if f.outside
                else QCoreApplication.translate("FilterBar", "length ratio inside [{0}, {1}]")
            )
            return ratio.format(_number(f.low), _number(f.high))
        if isinstance(f, FlagFilter):
            return QCoreApplication.translate("FilterBar", "rows flagged {0}").format(f.flag)
        return str(f)

    def _metric_label(self, key: str) -> str:
        index = self.range_metric_combo.findData(key)
        return self.range_metric_combo.itemText(index) if index >= 0 else key

    def _system_name(self, system: int) -> str:
        index = self.range_system_combo.findData(system)
        return self.range_system_combo.itemText(index) if index >= 0 else f"system {system + 1}"

    @Slot(object)
    def _on_chip_remove_requested(self, spec: Filter) -> None:
        if self._proxy is None:
            return
        with self._pushing():
            self._proxy.remove_filter(spec)
        self.filters_applied.emit()

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

    def _language_spec(self, kind: str) -> RowSet | None:
        """The row set of language entry ``kind``: from the check, or, until it is done, the
        one the selection holds (a reopened session's)."""
        flag, label = _LANGUAGE_KINDS[kind]
        if self._language is None:
            kept = [
                f
                for f in self.selection().filters
                if isinstance(f, RowSet) and self._special_kind(f) == kind
            ]
            return kept[0] if kept else None
        rows = tuple(int(r) for r in self._language.rows(flag))
        return RowSet(rows, label=label, source=LANGUAGE_SOURCE)

    def _show_language_entries(self) -> None:
        """The language entries: with their row counts once the check is done; disabled
        (saying why) before, or when the check cannot tell (no source, references in no clear
        language)."""
        model = self.special_combo.model()
        flags = self._language
        for kind, flag, label in LANGUAGE_FILTERS:
            index = self.special_combo.findData(kind)
            item = model.item(index)  # type: ignore[attr-defined]
            if flags is None:
                why = QCoreApplication.translate(
                    "FilterBar", "The language check runs once the comparison is read"
                )
                text = QCoreApplication.translate("FilterBar", label)
            elif flag == "copies_source" and not flags.has_source:
                why, text = (
                    QCoreApplication.translate(
                        "FilterBar", "Open the comparison with its source file to find copies"
                    ),
                    QCoreApplication.translate("FilterBar", label),
                )
            elif flag == "wrong_language" and flags.expectation is None:
                why = QCoreApplication.translate(
                    "FilterBar", "The references are in no clear language"
                )
                text = QCoreApplication.translate("FilterBar", label)
            else:
                why = ""
                shown = QCoreApplication.translate("FilterBar", label)
                text = f"{shown} ({_rows(len(flags.rows(flag)))})"
            item.setEnabled(not why)
            item.setText(text)
            item.setToolTip(why or _language_tip(flag, flags))


def _language_tip(flag: Flag, flags: LanguageFlags | None) -> str:
    """What a language entry keeps, for its tooltip."""
    if flag == "copies_source":
        return QCoreApplication.translate(
            "filterbar",
            "Rows where some system's output is the source, or nearly (numbers, URLs, "
            "names and rows whose reference keeps the source do not count)",
        )
    language = flags.expectation.language if flags is not None and flags.expectation else "?"
    return QCoreApplication.translate(
        "filterbar",
        "Rows where some system's output is in another language than the references "
        "({language}); lines too short to tell are never counted",
    ).format(language=language)


def _rounded(value: float | None, decimals: int) -> float | None:
    """``value`` as a box with ``decimals`` would hold it."""
    return None if value is None else round(value, decimals)


def _beats(lower: bool, column: str, a: int, b: int, by: float) -> DeltaFilter:
    """The filter "A beats B by at least ``by``" on ``column``: A − B ≥ by, or, where lower is
    better, A − B ≤ −by."""
    if lower:
        return DeltaFilter(column, a, b, -by + 0.0, below=True)
    return DeltaFilter(column, a, b, by)


def _can_focus(widget: QWidget) -> bool:
    return (
        widget.isVisible() and widget.isEnabled() and widget.focusPolicy() != Qt.FocusPolicy.NoFocus
    )


@contextlib.contextmanager
def _blocked(*widgets: QWidget) -> Iterator[None]:
    """Change ``widgets`` without their signals (showing the selection must not push it); a
    widget already blocked by an enclosing block stays blocked after this one."""
    before = [widget.blockSignals(True) for widget in widgets]
    try:
        yield
    finally:
        for widget, was in reversed(list(zip(widgets, before, strict=True))):
            widget.blockSignals(was)
