"""The filter bar shows the session's selection, whoever set it: each filter kind in its widgets,
row sets and segment lists as chips whose ✕ removes exactly that filter; showing never pushes,
and re-showing (a new baseline, new score columns) never drops a filter the bar did not make."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QVBoxLayout, QWidget

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
    SelectionData,
    Sort,
    TextFilter,
    select,
)
from matchlight.core.annotation.workspace import AnnotationQuery
from matchlight.gui.shell.theme import theme_palette
from matchlight.gui.state.session import SessionModel
from matchlight.gui.table.filterbar import TEXT_DEBOUNCE_MS, FilterBar
from matchlight.gui.table.model import SegmentTableModel
from matchlight.gui.table.proxy import SegmentFilterProxy, TextFilterState
from tests.gui.annotate.annotatekit import Harness, add, small_specs

TIMEOUT = 120_000
N = 160  # rows of the bundled sample


@dataclass
class Bar:
    """A filter bar over the sample, as the main window wires it."""

    data: Any
    session: SessionModel
    model: SegmentTableModel
    proxy: SegmentFilterProxy
    bar: FilterBar
    host: QWidget
    pushes: list[Selection]

    def set_selection(self, selection: Selection) -> None:
        """Set the selection from outside the bar (a chart, a restored session)."""
        self.session.session.set_selection(selection)

    def expected(self, selection: Selection | None = None) -> list[int]:
        """The rows ``selection`` keeps in its order, computed by core directly."""
        data = SelectionData(self.data.text, self.data.table, self.data.source)
        _, order = select(self.session.selection if selection is None else selection, data)
        return order.tolist()

    def shown(self) -> list[int]:
        return self.proxy.visible_segments().tolist()

    def text_column(self, name: str) -> int:
        model = self.model
        return next(c for c in model.text_columns() if model.text_key(c) == name)


def make_bar(qtbot, data, monkeypatch, *, metrics=None) -> Bar:
    session = data.session()
    model = SegmentTableModel(session)
    proxy = SegmentFilterProxy()
    proxy.setSourceModel(model)
    host = QWidget()
    qtbot.addWidget(host)
    bar = FilterBar()
    QVBoxLayout(host).addWidget(bar)
    text_columns = [
        (str(model.headerData(c, Qt.Orientation.Horizontal)), c) for c in model.text_columns()
    ]
    bar.set_proxy(
        proxy,
        text_columns=text_columns,
        systems=data.text.system_names,
        metrics=data.table.columns if metrics is None else metrics,
    )
    pushes: list[Selection] = []
    original = session.set_selection

    def counting(selection: Selection) -> None:
        pushes.append(selection)
        original(selection)

    monkeypatch.setattr(session, "set_selection", counting)
    return Bar(data, session, model, proxy, bar, host, pushes)


@pytest.fixture
def b(qtbot, sample, monkeypatch) -> Bar:
    return make_bar(qtbot, sample, monkeypatch)


def widget_state(bar: FilterBar) -> dict[str, object]:
    """Everything the bar's widgets say, to compare before and after."""
    return {
        "text": bar.search_edit.text(),
        "regex": bar.regex_button.isChecked(),
        "case": bar.case_button.isChecked(),
        "column": bar.column_combo.currentData(),
        "range": bar.range_check.isChecked(),
        "range_metric": bar.range_metric_combo.currentData(),
        "range_system": bar.range_system_combo.currentData(),
        "low": bar.range_min_spin.value(),
        "high": bar.range_max_spin.value(),
        "delta": bar.delta_check.isChecked(),
        "a": bar.delta_a_combo.currentData(),
        "b": bar.delta_b_combo.currentData(),
        "delta_metric": bar.delta_metric_combo.currentData(),
        "at_least": bar.delta_spin.value(),
        "special": bar.special_combo.currentData(),
        "chips": [c.full_text for c in bar.chip_widgets()],
    }


# -- each kind of filter, shown ------------------------------------------------------------------


def test_a_text_filter_fills_the_search_widgets(qtbot, b: Bar) -> None:
    spec = TextFilter("Berlin", columns=("hyp2",), case_sensitive=True)
    with qtbot.assertNotEmitted(b.bar.filters_applied):
        b.set_selection(Selection((spec,)))
    bar = b.bar
    assert bar.search_edit.text() == "Berlin"
    assert bar.case_button.isChecked() and not bar.regex_button.isChecked()
    assert bar.column_combo.currentData() == b.model.hypothesis_column(1)
    assert bar.chip_specs() == () and not bar.chips.isVisibleTo(bar)
    assert b.pushes == []  # showing pushes nothing
    assert b.session.selection == Selection((spec,))
    assert 0 < len(b.shown()) < N and b.shown() == b.expected()
    assert bar.count_label.text() == f"{len(b.shown())} of {N} rows"
    # The proxy reports the same filter, with the view column searched.
    assert b.proxy.text_filter() == TextFilterState(
        "Berlin", b.model.hypothesis_column(1), False, True
    )

    regex = TextFilter(r"\bBahn\b", regex=True)
    b.set_selection(Selection((regex,)))
    assert bar.search_edit.text() == r"\bBahn\b"
    assert bar.regex_button.isChecked() and not bar.case_button.isChecked()
    assert bar.column_combo.currentIndex() == 0  # any text column
    assert bar.regex_problem is None and bar.search_edit.styleSheet() == ""
    assert b.pushes == [] and b.shown() == b.expected()


@pytest.mark.parametrize(
    ("spec", "low", "high"),
    [
        (ScoreRange("bleu", 2, 20.0, 40.0), 20.0, 40.0),
        (ScoreRange("rougeL_f", 1, None, 30.0), 0.0, 30.0),
        (ScoreRange("rouge2_f", 0, 12.5, None), 12.5, 100.0),
    ],
)
def test_a_score_range_fills_the_score_widgets(b: Bar, spec: ScoreRange, low, high) -> None:
    b.set_selection(Selection((spec,)))
    bar = b.bar
    assert bar.range_check.isChecked()
    assert bar.range_metric_combo.currentData() == spec.column
    assert bar.range_system_combo.currentData() == spec.system
    assert (bar.range_min_spin.value(), bar.range_max_spin.value()) == (low, high)
    assert bar.range_metric_combo.isEnabled() and bar.range_min_spin.isEnabled()
    assert bar.chip_specs() == () and b.pushes == []
    assert b.shown() == b.expected()
    # Taking the check away removes exactly that range: the bar knows it as its own now.
    bar.range_check.setChecked(False)
    assert b.session.selection == Selection()
    assert b.shown() == list(range(N))


def test_a_difference_fills_the_difference_widgets(b: Bar) -> None:
    spec = DeltaFilter("bleu", 1, 0, 5.0)
    b.set_selection(Selection((spec,)))
    bar = b.bar
    assert bar.delta_check.isChecked()
    assert (bar.delta_a_combo.currentData(), bar.delta_b_combo.currentData()) == (1, 0)
    assert bar.delta_metric_combo.currentData() == "bleu"
    assert bar.delta_spin.value() == 5.0
    assert bar.delta_spin.isEnabled()
    assert bar.chip_specs() == () and b.pushes == []
    table = b.data.table
    want = np.flatnonzero(table.column("bleu", 1) - table.column("bleu", 0) >= 5.0)
    assert b.shown() == want.tolist() == b.expected()


@pytest.mark.parametrize(
    ("spec", "kind"),
    [
        (EmptyRows(), "empty"),
        (LengthRatio(0.5, 2.0), "length-mismatch"),
        (FlagFilter("lsum_fallback"), "lsum-fallback"),
    ],
)
def test_a_special_filter_picks_its_show_entry(b: Bar, spec: Filter, kind: str) -> None:
    b.set_selection(Selection((spec,)))
    assert b.bar.special_combo.currentData() == kind
    assert b.bar.chip_specs() == () and b.pushes == []
    assert b.shown() == b.expected()
    assert b.proxy.special_filter() == kind


def test_filters_the_widgets_cannot_say_are_chips(b: Bar) -> None:
    """A length ratio with other bounds, empty outputs only, a "worse by" difference and a
    text filter over two columns have no widget; they show as chips, not as look-alikes."""
    specs = (
        LengthRatio(0.8, 1.25),
        EmptyRows(what="output"),
        DeltaFilter("bleu", 2, 0, -10.0, below=True),
        TextFilter("the", columns=("hyp1", "hyp2")),
    )
    b.set_selection(Selection(specs))
    bar = b.bar
    assert bar.chip_specs() == specs
    assert bar.special_combo.currentData() == ""
    assert not bar.delta_check.isChecked() and bar.search_edit.text() == ""
    texts = [c.full_text for c in bar.chip_widgets()]
    assert texts == [
        "+ length ratio outside [0.8, 1.25]",
        "+ rows with an empty output",
        "+ BLEU: rough − fluent ≤ -10",
        "+ text “the” in fluent, literal",
    ]
    assert b.shown() == b.expected()


# -- several at once -------------------------------------------------------------------------------


def combined(data) -> Selection:
    table = data.table
    brushed = np.flatnonzero(table.column("bleu", 0) >= 20.0)
    return Selection(
        (
            TextFilter("the", columns=("ref1",)),
            ScoreRange("bleu", 0, 10.0, 90.0),
            DeltaFilter("rougeL_f", 2, 1, -50.0),
            FlagFilter("lsum_fallback"),
            RowSet(tuple(brushed.tolist()), "BLEU of fluent in [20.0, 100.0]", "chart"),
            RowSet(tuple(range(0, N, 2)), "annotations: annotated rows", "annotations"),
            SegmentRange("1-120"),
        ),
        Sort("bleu", 0, descending=True),
    )


def test_a_combined_selection_fills_every_widget_and_the_rest_are_chips(qtbot, b: Bar) -> None:
    selection = combined(b.data)
    with qtbot.waitSignal(b.proxy.filter_changed), qtbot.assertNotEmitted(b.bar.filters_applied):
        b.set_selection(selection)
    bar = b.bar
    state = widget_state(bar)
    assert state["text"] == "the" and state["column"] == b.model.reference_column(0)
    assert state["range"] and (state["range_metric"], state["range_system"]) == ("bleu", 0)
    assert (state["low"], state["high"]) == (10.0, 90.0)
    assert state["delta"] and (state["a"], state["b"], state["delta_metric"]) == (2, 1, "rougeL_f")
    assert state["at_least"] == -50.0
    assert state["special"] == "lsum-fallback"
    assert bar.chip_specs() == selection.filters[4:]
    chart, annotations = selection.filters[4], selection.filters[5]
    assert isinstance(chart, RowSet) and isinstance(annotations, RowSet)
    assert state["chips"] == [
        f"+ chart: BLEU of fluent in [20.0, 100.0] ({len(chart.rows):,} rows)",
        f"+ annotations: annotated rows ({len(annotations.rows)} rows)",
        "+ segments 1-120",
    ]
    assert b.pushes == [] and b.session.selection == selection
    shown = b.shown()
    assert 0 < len(shown) < N and shown == b.expected()
    assert bar.count_label.text() == f"{len(shown)} of {N} rows"


def test_a_second_score_range_is_a_chip_and_editing_the_first_keeps_it(b: Bar) -> None:
    first, second = ScoreRange("bleu", 0, 20.0, None), ScoreRange("bleu", 2, None, 60.0)
    b.set_selection(Selection((first, second)))
    bar = b.bar
    assert bar.range_system_combo.currentData() == 0 and bar.range_min_spin.value() == 20.0
    assert bar.chip_specs() == (second,)
    assert [c.full_text for c in bar.chip_widgets()] == ["+ BLEU of rough ≤ 60"]
    bar.range_min_spin.setValue(30.0)
    assert b.session.selection.filters == (second, ScoreRange("bleu", 0, 30.0, None))
    assert bar.chip_specs() == (second,)
    # Moving the bar's range to rough replaces the chip's range of rough (one range per
    # metric and system), as the user asked: the chip goes.
    bar.range_system_combo.setCurrentIndex(bar.range_system_combo.findData(2))
    assert b.session.selection.filters == (ScoreRange("bleu", 2, 30.0, None),)
    assert bar.chip_specs() == ()
    assert b.shown() == b.expected()


# -- chips --------------------------------------------------------------------------------------


def test_a_chip_cross_removes_only_its_filter(qtbot, b: Bar) -> None:
    selection = combined(b.data)
    b.set_selection(selection)
    bar = b.bar
    before = widget_state(bar)
    chip = next(c for c in bar.chip_widgets() if c.spec.kind == "rows" and c.spec.source == "chart")
    with qtbot.waitSignal(bar.filters_applied):
        QTest.mouseClick(chip.remove_button, Qt.MouseButton.LeftButton)
    want = selection.without("rows", source="chart")
    assert b.session.selection == want and b.pushes == [want]
    assert b.shown() == b.expected(want)
    after = widget_state(bar)
    assert after.pop("chips") == before.pop("chips")[1:]  # the chart's chip went
    assert after == before  # nothing else moved
    # The segments chip next; the annotations' row set stays.
    chip = next(c for c in bar.chip_widgets() if c.spec.kind == "segments")
    chip.remove_button.click()
    want = want.without("segments")
    assert b.session.selection == want and b.shown() == b.expected(want)
    assert [c.spec.kind for c in bar.chip_widgets()] == ["rows"]
    assert bar.chip_specs() == (selection.filters[5],)
    assert bar.count_label.text() == f"{len(b.shown())} of {N} rows"
    # Clear filters clears everything, chips too; the sort stays.
    bar.clear_button.click()
    assert b.session.selection == Selection(sort=selection.sort)
    assert bar.chip_specs() == () and not bar.chips.isVisibleTo(bar)
    assert widget_state(bar)["text"] == "" and not bar.range_check.isChecked()
    assert bar.special_combo.currentData() == "" and not bar.delta_check.isChecked()
    assert len(b.shown()) == N and bar.count_label.text() == f"{N} rows"


def test_row_sets_of_two_sources_are_two_chips(b: Bar) -> None:
    chart = RowSet((1, 2, 3), "BLEU of fluent in [0, 10)", "chart")
    annotations = RowSet((2, 3, 4, 5), "annotations: flagged errors", "annotations")
    b.set_selection(Selection((chart,)))
    b.set_selection(b.session.selection.with_filter(annotations))
    assert b.bar.chip_specs() == (chart, annotations)
    assert b.shown() == [2, 3] == b.expected()
    # A new brush replaces only the chart's chip.
    brush = RowSet((3, 4), "BLEU of fluent in [10, 20)", "chart")
    b.set_selection(b.session.selection.with_filter(brush))
    assert b.bar.chip_specs() == (annotations, brush)
    assert [c.full_text for c in b.bar.chip_widgets()] == [
        "+ annotations: flagged errors (4 rows)",
        "+ chart: BLEU of fluent in [10, 20) (2 rows)",
    ]
    assert b.shown() == [3, 4]


# -- nothing dropped, nothing pushed ---------------------------------------------------------------


def test_reapply_after_a_baseline_change_keeps_restored_filters(qtbot, b: Bar) -> None:
    restored = Selection(
        (
            TextFilter("Bahn", columns=("hyp1",)),
            ScoreRange("bleu", 1, 5.0, 80.0),
            DeltaFilter("bleu", 0, 2, 1.0),
            RowSet(tuple(range(100)), "chosen rows"),
        )
    )
    b.set_selection(restored)
    before = widget_state(b.bar)
    rows = b.shown()
    with qtbot.assertNotEmitted(b.bar.filters_applied):
        b.session.session.set_baseline(2)
        b.bar.reapply()  # what the main window does on a new baseline
    assert b.session.selection == restored and b.pushes == []
    assert widget_state(b.bar) == before and b.shown() == rows
    # set_proxy again (the table's columns changed) and new score columns keep them too.
    b.bar.set_proxy(
        b.proxy,
        text_columns=[
            (str(b.model.headerData(c, Qt.Orientation.Horizontal)), c)
            for c in b.model.text_columns()
        ],
        systems=b.data.text.system_names,
        metrics=b.data.table.columns,
    )
    b.bar.set_metrics(b.data.table.columns)
    assert b.session.selection == restored and b.pushes == []
    assert widget_state(b.bar) == before


def test_a_range_on_a_column_the_bar_does_not_offer_yet_is_shown_once_it_does(
    qtbot, sample, monkeypatch
) -> None:
    """A restored range on a column added later (imported scores, MQM) is a chip until the bar
    is told about the column, then the range widgets take it."""
    headline = [c for c in sample.table.columns if c.key != "rouge2_f"]
    b = make_bar(qtbot, sample, monkeypatch, metrics=headline)
    spec = ScoreRange("rouge2_f", 1, 10.0, None)
    b.set_selection(Selection((spec,)))
    assert b.bar.chip_specs() == (spec,) and not b.bar.range_check.isChecked()
    b.bar.set_metrics(sample.table.columns)
    assert b.bar.chip_specs() == () and b.bar.range_check.isChecked()
    assert b.bar.range_metric_combo.currentData() == "rouge2_f"
    assert b.session.selection == Selection((spec,)) and b.pushes == []


def test_typing_filters_as_before(qtbot, b: Bar) -> None:
    bar = b.bar
    chart = RowSet(tuple(range(0, N, 3)), "BLEU of fluent in [0, 50]", "chart")
    b.set_selection(Selection((chart,)))
    bar.search_edit.setFocus()
    QTest.keyClicks(bar.search_edit, "berlin")
    # Nothing yet: typing applies after a pause, in one push.
    assert b.pushes == []
    qtbot.waitUntil(lambda: len(b.pushes) == 1, timeout=10 * TEXT_DEBOUNCE_MS)
    want = Selection((chart, TextFilter("berlin")))
    assert b.session.selection == want
    assert b.shown() == b.expected(want) and 0 < len(b.shown()) < N
    assert b.bar.chip_specs() == (chart,)
    # Case sensitive: one push, the same rows core keeps.
    bar.case_button.setChecked(True)
    want = Selection((chart, TextFilter("berlin", case_sensitive=True)))
    assert b.session.selection == want and len(b.pushes) == 2
    assert b.shown() == b.expected(want)
    # One column.
    bar.case_button.setChecked(False)
    bar.column_combo.setCurrentIndex(bar.column_combo.findData(b.text_column("source")))
    want = Selection((chart, TextFilter("berlin", columns=("source",))))
    assert b.session.selection == want and b.shown() == b.expected(want)
    # Emptying the field removes the text filter only.
    bar.search_edit.clear()
    bar.apply_text_filter()
    assert b.session.selection == Selection((chart,))
    assert bar.count_label.text() == f"{len(b.expected())} of {N} rows"


def test_a_selection_set_while_typing_keeps_the_typed_text(qtbot, b: Bar) -> None:
    bar = b.bar
    QTest.keyClicks(bar.search_edit, "Klima")
    brush = RowSet(tuple(range(50)), "BLEU of fluent in [0, 30]", "chart")
    b.set_selection(Selection((brush,)))  # a brush lands before the pause is over
    assert bar.search_edit.text() == "Klima"
    qtbot.waitUntil(lambda: len(b.pushes) == 1, timeout=10 * TEXT_DEBOUNCE_MS)
    assert b.session.selection == Selection((brush, TextFilter("Klima")))
    assert bar.search_edit.text() == "Klima"
    # An invalid expression stays in the field (red) when a brush lands.
    bar.regex_button.setChecked(True)
    bar.search_edit.setText("(unclosed")
    bar.apply_text_filter()
    assert bar.regex_problem is not None
    assert b.session.selection == Selection((brush,))
    b.set_selection(Selection((RowSet((1, 2), "two rows", "chart"),)))
    assert bar.search_edit.text() == "(unclosed" and bar.regex_problem is not None
    # A text filter set elsewhere replaces it.
    b.set_selection(Selection((TextFilter("Bahn"),)))
    assert bar.search_edit.text() == "Bahn" and bar.regex_problem is None
    assert not bar.regex_button.isChecked()


def test_showing_a_selection_refreshes_the_proxy_once(qtbot, b: Bar) -> None:
    emitted: list[int] = []
    b.proxy.filter_changed.connect(lambda: emitted.append(1))
    b.set_selection(combined(b.data))
    assert emitted == [1] and b.pushes == []
    # An edit in the bar: one push, one refresh.
    b.bar.range_max_spin.setValue(70.0)
    assert len(b.pushes) == 1 and emitted == [1, 1]
    assert b.session.selection.filters[1:] == (
        *combined(b.data).filters[2:],
        ScoreRange("bleu", 0, 10.0, 70.0),
    )


# -- a reopened session --------------------------------------------------------------------------


@pytest.fixture
def small(qtbot, tmp_path, monkeypatch):
    from matchlight.core.session.locations import RECOVERY_ENV

    monkeypatch.setenv(RECOVERY_ENV, str(tmp_path / "recovery"))
    h = Harness(qtbot, tmp_path)
    h.window.show()
    h.open(small_specs(tmp_path / "data"))
    yield h
    h.window.close()


def test_a_reopened_session_shows_its_filters_and_a_new_baseline_keeps_them(
    qtbot, small, tmp_path: Path, save_shot
) -> None:
    h, c = small, small.c
    window, bar = h.window, h.window.filter_bar
    add(c, 0, 0, 4, 7, "minor", "Style")
    add(c, 0, 2, 0, 3, "major", "Style")
    assert small.a.table.apply_filter(AnnotationQuery(annotated=True)) == 2
    bar.search_edit.setText("the")
    bar.apply_text_filter()
    bar.range_check.setChecked(True)
    bar.range_metric_combo.setCurrentIndex(bar.range_metric_combo.findData("bleu"))
    bar.range_system_combo.setCurrentIndex(1)
    bar.range_max_spin.setValue(90.0)
    h.settle()
    saved = window.session.selection
    rows = window.proxy.visible_segments().tolist()
    assert len(saved.filters) == 3
    path = tmp_path / "saved" / "work.matchlight"
    h.paths.append(str(path))
    assert small.s.save_session_as() == path
    window.close()

    other = Harness(qtbot, tmp_path, name="second")
    try:
        other.window.show()
        assert other.s.open_session(path), other.errors
        w2 = other.window
        qtbot.waitUntil(
            lambda: w2.table is not None and w2.table.complete and not w2.controller.running,
            timeout=TIMEOUT,
        )
        other.settle()
        bar2 = w2.filter_bar
        assert w2.session.selection == saved
        assert w2.proxy.visible_segments().tolist() == rows
        assert bar2.search_edit.text() == "the" and bar2.column_combo.currentIndex() == 0
        assert bar2.range_check.isChecked()
        assert bar2.range_metric_combo.currentData() == "bleu"
        assert bar2.range_system_combo.currentData() == 1
        assert bar2.range_max_spin.value() == 90.0
        chips = bar2.chip_widgets()
        assert [chip.full_text for chip in chips] == ["+ annotations: annotated (2 rows)"]
        assert bar2.count_label.text() == f"{len(rows)} of 6 rows"
        save_shot(w2, "filterbar-reopened-session")
        # A new baseline keeps every restored filter (it used to push the empty bar).
        w2.baseline_combo.setCurrentIndex(1)
        other.settle()
        assert w2.session.session.baseline == 1
        assert w2.session.selection == saved
        assert bar2.search_edit.text() == "the" and bar2.range_check.isChecked()
        assert len(bar2.chip_widgets()) == 1
    finally:
        other.window.close()


# -- screenshots -----------------------------------------------------------------------------------


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_screenshot_of_the_bar_with_chips(qtbot, b: Bar, save_shot, theme: str) -> None:
    b.host.setPalette(theme_palette(theme))
    b.host.setAutoFillBackground(True)
    b.host.show()
    qtbot.waitExposed(b.host)
    narrowest = b.bar.minimumSizeHint().width()
    b.set_selection(combined(b.data))
    # Chips never widen the bar (nor the window): they take a line of their own and give up
    # width by eliding their text.
    assert b.bar.minimumSizeHint().width() == narrowest
    long_brush = RowSet(
        tuple(range(0, N, 2)),
        "ROUGE-L F: fluent in [20.0, 100.0], literal in [0.0, 60.0], rough in [10.0, 90.0]",
        "chart",
    )
    more = (long_brush, LengthRatio(0.8, 1.25), EmptyRows(what="output"))
    for width, name, extra in (
        (1280, "wide", ()),
        (b.host.minimumSizeHint().width(), "narrow", more),
    ):
        selection = combined(b.data)
        for f in extra:
            selection = selection.with_filter(f)
        b.set_selection(selection)
        assert b.bar.minimumSizeHint().width() == narrowest
        b.host.resize(width, b.host.sizeHint().height())
        qtbot.waitUntil(lambda w=width: b.host.width() == w)
        chips = b.bar.chip_widgets()
        # Each chip has the width the row gave it (no chip squeezed below its share).
        assert all(chip.width() == chip.sizeHint().width() for chip in chips)
        assert len(chips) == len(selection.filters) - 4  # four are in the widgets
        for chip in chips:
            # Every chip is on screen, inside the bar, with its ✕.
            assert chip.isVisible() and chip.remove_button.isVisible()
            top_left = chip.mapTo(b.bar, chip.rect().topLeft())
            assert top_left.x() >= 0 and top_left.x() + chip.width() <= b.bar.width()
            assert chip.toolTip().startswith(chip.full_text)
        shown = [chip.label.shown_text() for chip in chips]
        if name == "wide":
            assert shown == [chip.full_text for chip in chips]
        else:
            elided = [t for t, chip in zip(shown, chips, strict=True) if t != chip.full_text]
            assert elided and all("…" in t for t in elided)
        save_shot(b.host, f"filterbar-chips-{theme}-{name}")
