"""How the filter bar shows a selection: per group of widgets (search, score range, difference,
"Show"), the filter of its kind it can say, and every other filter in words for its chip.

:class:`FilterGroups` is a part of :class:`~gui.table.filterbar.FilterBar` (a mixin: it reads
and sets the bar's widgets); the bar calls its ``_*_group`` methods when it syncs.
"""

from __future__ import annotations

import contextlib
from collections.abc import Sequence
from typing import Any

from PySide6.QtCore import (
    QT_TRANSLATE_NOOP,
    QCoreApplication,
    Slot,
)

from matchlight.core.analysis.language import Flag, LanguageFlags
from matchlight.core.analysis.selection import (
    DeltaFilter,
    EmptyRows,
    Filter,
    FlagFilter,
    LengthRatio,
    RowSet,
    ScoreRange,
    SegmentRange,
    TextFilter,
)
from matchlight.core.analysis.textsearch import PatternError, TextQuery
from matchlight.gui.table.filterwidgets import FilterChip
from matchlight.gui.table.filterwidgets import blocked as _blocked
from matchlight.gui.table.filterwidgets import number_text as _number
from matchlight.gui.table.filterwidgets import rounded as _rounded
from matchlight.gui.table.filterwidgets import rows_text as _rows
from matchlight.gui.table.proxy import special_filter_spec

ANY_COLUMN = QT_TRANSLATE_NOOP("FilterBar", "any text column")


def _any_column() -> str:
    return QCoreApplication.translate("FilterBar", ANY_COLUMN)


# Combo-box data for "any text column". Never None: PySide6 6.12 on CPython 3.11 drops a
# reference to None whenever an item's None data comes back to Python.
_ANY = -1

# The row sets of the language check's "Show" entries come from this source.
LANGUAGE_SOURCE = "language"
# (kind, flag of :class:`~core.analysis.language.LanguageFlags`, label) of the "Show" entries
# made from the language check: the rows where some system's output has the flag, as a row
# set (so a session keeps the rows while the check runs again).
LANGUAGE_FILTERS: tuple[tuple[str, Flag, str], ...] = (
    (
        "wrong-language",
        "wrong_language",
        QT_TRANSLATE_NOOP("FilterBar", "output in another language"),
    ),
    ("copies-source", "copies_source", QT_TRANSLATE_NOOP("FilterBar", "output copying the source")),
)
_LANGUAGE_KINDS = {kind: (flag, label) for kind, flag, label in LANGUAGE_FILTERS}
# (kind passed to the proxy, label) of the special filters; the language check's last.
SPECIAL_FILTERS: tuple[tuple[str, str], ...] = (
    ("", QT_TRANSLATE_NOOP("FilterBar", "all rows")),
    ("empty", QT_TRANSLATE_NOOP("FilterBar", "rows with an empty text")),
    ("length-mismatch", QT_TRANSLATE_NOOP("FilterBar", "length-mismatched rows")),
    ("lsum-fallback", QT_TRANSLATE_NOOP("FilterBar", "ROUGE-Lsum = ROUGE-L rows")),
    *((kind, label) for kind, _flag, label in LANGUAGE_FILTERS),
)

_INVALID_STYLE = "QLineEdit { background: #fde2e4; color: #5c0011; border: 1px solid #d1434b; }"


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


class FilterGroups:
    """The selection's filters, group by group, in the bar's widgets (see the module's doc)."""

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


def _beats(lower: bool, column: str, a: int, b: int, by: float) -> DeltaFilter:
    """The filter "A beats B by at least ``by``" on ``column``: A − B ≥ by, or, where lower is
    better, A − B ≤ −by."""
    if lower:
        return DeltaFilter(column, a, b, -by + 0.0, below=True)
    return DeltaFilter(column, a, b, by)
