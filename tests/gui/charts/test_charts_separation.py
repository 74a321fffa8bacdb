"""What separates two systems: the n-gram lists are compare-mt's (core.analysis.compare) on
BLEU's tokens of the selected rows, the segments are ranked by core's leave-one-out influence,
clicking an n-gram selects the rows where it is matched and clicking a segment makes it
current."""

from __future__ import annotations

import numpy as np
import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QTableView

from matchlight.core.analysis.compare import difference_influence, ngram_differences
from matchlight.core.analysis.selection import RowSet, Selection, TextFilter
from matchlight.core.analysis.significance import table_statistics
from matchlight.core.text.tokenizers import bleu_tokenizer
from matchlight.gui.charts.link import ChartLink
from matchlight.gui.charts.separation import ALPHA, MAX_ORDER, TOP, SeparationPanel
from matchlight.gui.table.model import SegmentTableModel
from matchlight.gui.table.proxy import SegmentFilterProxy
from tests.gui.chartkit import (
    computed,
    dark_palette,
    de_en,
    en_zh,
    linked,
    session_of,
    settle,
    show_panel,
    wait_job,
)


def make_panel(qtbot, data, size=(1150, 560), view=None):
    return show_panel(qtbot, SeparationPanel, *linked(data, view), size)


def test_ngram_lists_are_compare_mts_on_the_selected_rows(qtbot, qtmodeltester) -> None:
    data = de_en()
    panel = make_panel(qtbot, data)
    panel.link.session.set_selection(Selection((TextFilter("the"),)))
    result = computed(qtbot, panel, a=1, b=0, metric="bleu")
    rows = panel.link.core.selected_rows()
    tok = bleu_tokenizer("13a")
    refs = [[tok(line) for line in ref] for ref in data.text.references]
    expected = ngram_differences(
        references=refs,
        system_a=[tok(line) for line in data.text.systems[1]],
        system_b=[tok(line) for line in data.text.systems[0]],
        max_order=MAX_ORDER,
        alpha=ALPHA,
        top=TOP,
        rows=rows,
    )
    assert [e.ngram for e in result.ngrams.a_better] == [e.ngram for e in expected.a_better]
    assert [e.ngram for e in result.ngrams.b_better] == [e.ngram for e in expected.b_better]
    assert len(expected.a_better) == TOP
    model = panel.a_model
    qtmodeltester.check(model)
    first = expected.a_better[0]
    assert model.index(0, 0).data() == " ".join(first.ngram)
    assert model.index(0, 1).data() == f"{first.count_a:,}"
    assert model.index(0, 2).data() == f"{first.count_b:,}"
    assert model.index(0, 3).data() == f"{first.score:.3f}"
    assert model.headerData(1, Qt.Orientation.Horizontal) == "LT22"
    assert "Matched by LT22, not by JDExploreAcademy" in panel.a_title.text()


def test_influence_is_cores_leave_one_out(qtbot, qtmodeltester) -> None:
    data = de_en()
    panel = make_panel(qtbot, data)
    result = computed(qtbot, panel, a=2, b=4, metric="bleu")
    stats, score = table_statistics(data.table, "bleu")
    expected = difference_influence(
        stats_a=stats[2], stats_b=stats[4], score=score, rows=np.arange(len(data.text))
    )
    assert result.influence is not None
    np.testing.assert_array_equal(result.influence.effect, expected.effect)
    assert result.influence.score_a == data.table.corpus(2).value("bleu")
    model = panel.influence_model
    qtmodeltester.check(model)
    top = expected.order[:50]
    top = top[expected.effect[top] > 0]
    assert model.segments().tolist() == expected.rows[top].tolist()
    panel.side_combo.setCurrentIndex(1)
    tail = expected.order[::-1][:50]
    tail = tail[expected.effect[tail] < 0]
    assert model.segments().tolist() == expected.rows[tail].tolist()
    assert model.index(0, 1).data() == f"{expected.effect[tail[0]]:+.3f}"


def test_clicks_select_rows_and_make_segments_current(qtbot, sample) -> None:
    session = session_of(sample)
    table_model = SegmentTableModel(session)
    proxy = SegmentFilterProxy()
    proxy.setSourceModel(table_model)
    view = QTableView()
    view.setModel(proxy)
    qtbot.addWidget(view)
    link = ChartLink(table_view=view)
    link.set_session(session)
    panel = SeparationPanel(link)
    qtbot.addWidget(panel)
    panel.resize(1150, 560)
    panel.show()
    qtbot.waitExposed(panel)
    panel.set_choices(a=0, b=2, metric="rougeL_f")
    panel.refresh_now()
    wait_job(qtbot, panel.job)
    entry = panel.a_model.entry(0)
    rect = panel.a_view.visualRect(panel.a_model.index(0, 0))
    qtbot.mouseClick(panel.a_view.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    (rowset,) = [f for f in link.core.selection.filters if isinstance(f, RowSet)]
    assert list(rowset.rows) == entry.rows.tolist()
    assert proxy.rowCount() == len(entry.rows)
    # The lists were computed without their own brush: clicking does not change them.
    panel.refresh_now()
    wait_job(qtbot, panel.job)
    assert panel.a_model.entry(0).ngram == entry.ngram
    link.clear_brush()
    panel.refresh_now()
    wait_job(qtbot, panel.job)
    segment = panel.influence_model.segments()[0]
    rect = panel.influence_view.visualRect(panel.influence_model.index(0, 0))
    qtbot.mouseClick(panel.influence_view.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    assert proxy.mapToSource(view.currentIndex()).row() == segment
    panel.select_button.click()
    (rowset,) = [f for f in link.core.selection.filters if isinstance(f, RowSet)]
    assert sorted(rowset.rows) == sorted(panel.influence_model.segments().tolist())


def test_same_system_twice_is_refused(qtbot, sample) -> None:
    panel = make_panel(qtbot, sample)
    panel.set_choices(a=1, b=1)
    panel.refresh_now()
    assert panel.placeholder.isVisible() and "two different systems" in panel.placeholder.text()


@pytest.mark.parametrize("dataset", ["de-en", "en-zh"])
@pytest.mark.parametrize("dark", [False, True], ids=["light", "dark"])
def test_screenshots(qtbot, save_shot, dataset: str, dark: bool) -> None:
    data = de_en() if dataset == "de-en" else en_zh()
    panel = make_panel(qtbot, data)
    if dark:
        panel.setPalette(dark_palette())
    computed(qtbot, panel, a=3, b=0, metric="bleu")
    settle()
    assert panel.a_model.rowCount() == TOP
    save_shot(panel, f"charts-separation-{dataset}-{'dark' if dark else 'light'}")
