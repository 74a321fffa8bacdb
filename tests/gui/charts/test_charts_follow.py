"""An annotation edit replaces the MQM column's values, at every keystroke: what it costs the
charts. A panel that draws other columns does not draw again; one that draws MQM does, with the
new values; the corpus summary computes the MQM figures again and keeps the others."""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from matchlight.core.analysis.selection import ScoreRange, Selection, Sort
from matchlight.core.annotation.columns import MQM_COLUMN
from matchlight.gui.charts.distributions import DistributionsPanel
from matchlight.gui.charts.summary import SummaryWidget
from tests.gui.charts.test_charts_direction import mqm_link, show
from tests.scalekit import mqm_ted


def count_refreshes(panel, monkeypatch) -> list[int]:
    calls: list[int] = []
    original = panel.refresh

    def counted() -> None:
        calls.append(1)
        original()

    monkeypatch.setattr(panel, "refresh", counted)
    return calls


def test_an_mqm_edit_redraws_the_histograms_only_where_they_show_mqm(qtbot, monkeypatch) -> None:
    link, session = mqm_link()
    panel = show(qtbot, DistributionsPanel(link))
    panel.set_choices(metric="bleu")
    panel.refresh_now()
    calls = count_refreshes(panel, monkeypatch)
    penalties = mqm_ted().penalties.copy()
    penalties[:, 0] += 5.0
    session.session.set_column(MQM_COLUMN, penalties)
    qtbot.wait(50)
    assert calls == []  # BLEU is drawn: the MQM values do not matter to it

    panel.set_choices(metric="mqm")
    panel.refresh_now()
    calls.clear()
    penalties[:, 1] += 5.0
    session.session.set_column(MQM_COLUMN, penalties)
    qtbot.waitUntil(lambda: len(calls) == 1, timeout=5000)
    assert panel.score_key == "mqm"
    session.deleteLater()


def test_a_new_column_is_listed_even_where_another_is_drawn(qtbot, monkeypatch) -> None:
    link, session = mqm_link()
    panel = show(qtbot, DistributionsPanel(link))
    panel.set_choices(metric="bleu")
    panel.refresh_now()
    column = replace(MQM_COLUMN, key="mqm2", label="MQM 2")
    session.session.set_column(column, mqm_ted().penalties)
    qtbot.waitUntil(lambda: panel.metric_combo.findData("mqm2") >= 0, timeout=5000)
    session.deleteLater()


def test_the_summary_computes_again_only_the_column_that_changed(qtbot, monkeypatch) -> None:
    link, session = mqm_link()
    table = link.table
    summary = SummaryWidget()
    qtbot.addWidget(summary)
    summary.set_table(table)
    summary.refresh()
    asked: list[tuple[str, ...]] = []
    corpus = table.corpus

    def spied(system, rows=None, *, metrics=None):
        asked.append(tuple(metrics or ()))
        return corpus(system, rows, metrics=metrics)

    monkeypatch.setattr(table, "corpus", spied)
    before = {
        (s, key): summary.model.value(s, key)
        for s in range(len(table.systems))
        for key in ("bleu", "mqm")
    }
    penalties = mqm_ted().penalties.copy()
    penalties[0] = np.where(np.isnan(penalties[0]), np.nan, 0.0)
    session.session.set_column(MQM_COLUMN, penalties)
    summary.column_changed("mqm")
    summary.refresh()
    assert asked and all(metrics == ("mqm",) for metrics in asked)
    assert len(asked) == len(table.systems)
    for s in range(len(table.systems)):
        assert summary.model.value(s, "bleu") == before[(s, "bleu")]
    assert summary.model.value(0, "mqm") == 0.0 != before[(0, "mqm")]
    session.deleteLater()


def test_a_sort_draws_no_chart_again_and_a_filter_does(qtbot, monkeypatch) -> None:
    """The charts follow the selected rows, not their order: a sort (in the table or by a
    session) changes the order alone, and nothing is computed again for it."""
    link, session = mqm_link()
    panel = show(qtbot, DistributionsPanel(link))
    panel.set_choices(metric="bleu")
    panel.refresh_now()
    calls = count_refreshes(panel, monkeypatch)
    followed: list[int] = []
    link.selection_changed.connect(lambda: followed.append(1))
    core = session.session
    version = core.rows_version
    core.set_selection(Selection((), Sort(key="bleu", system=0, descending=True)))
    assert core.view_order().tolist() != sorted(core.view_order().tolist())  # it did sort
    qtbot.wait(400)
    assert (followed, calls, core.rows_version) == ([], [], version)
    core.set_selection(Selection((ScoreRange("bleu", 0, low=20.0),), Sort(key="bleu", system=0)))
    qtbot.waitUntil(lambda: len(calls) == 1)
    assert followed == [1] and core.rows_version == version + 1
    kept = core.selected_rows()
    values = core.table.scores[0, :, core.table.metric_index("bleu")]
    np.testing.assert_array_equal(kept, np.flatnonzero(values >= 20.0))
    # The same rows in another order: still nothing to draw.
    core.set_selection(Selection((ScoreRange("bleu", 0, low=20.0),), Sort()))
    qtbot.wait(400)
    assert followed == [1] and len(calls) == 1
