"""The significance panel shows core's paired tests (which equal sacreBLEU's: see
tests/core/analysis/test_columnstats.py) for the selected rows against the baseline, in
sacreBLEU's layout; a new selection cancels a stale run."""

from __future__ import annotations

import numpy as np
import pytest
from PySide6.QtCore import Qt

from matchlight.core.analysis.columnstats import (
    pairwise_for_column,
    significance_by_column,
    significance_columns,
)
from matchlight.core.analysis.selection import Selection, TextFilter
from matchlight.gui.charts.significance import SignificancePanel, format_p, format_score
from tests.gui.chartkit import dark_palette, de_en, en_zh, linked, settle, show_panel, wait_job


def make_panel(qtbot, data, size=(1100, 560)):
    panel = show_panel(qtbot, SignificancePanel, *linked(data), size)
    panel.refresh_now()
    return panel


def cell(model, row: int, column: int, role=Qt.ItemDataRole.DisplayRole):
    return model.index(row, column).data(role)


def test_the_numbers_are_cores_on_the_selected_rows(qtbot, qtmodeltester, sample) -> None:
    panel = make_panel(qtbot, sample)
    core = panel.link.core
    panel.link.session.set_selection(Selection((TextFilter("the"),)))
    core.set_baseline(1)
    panel.refresh_now()
    rows = core.selected_rows()
    assert 0 < len(rows) < 160
    assert f"On the {len(rows):,} selected segments, against literal." == panel.scope_label.text()
    panel.run(n_samples=300)
    wait_job(qtbot, panel.job)
    table = sample.table
    keys = [c.key for c in significance_columns(table)]
    expected = significance_by_column(table, keys, baseline=1, rows=rows, n_samples=300)
    model = panel.model
    qtmodeltester.check(model)
    assert model.columnCount() == len(keys) == 4  # BLEU, ROUGE-1/2/L F
    assert model.rowCount() == 3
    assert model.headerData(0, Qt.Orientation.Vertical) == "Baseline: literal"
    assert [model.headerData(r, Qt.Orientation.Vertical) for r in (1, 2)] == ["fluent", "rough"]
    for c, test in enumerate(expected):
        assert test.result is not None
        for r, line in enumerate(test.result.systems):
            assert cell(model, r, c, Qt.ItemDataRole.UserRole) == line
            text = cell(model, r, c)
            assert text.startswith(format_score(line.score, line.mean, line.ci, 1))
            if line.p_value is not None:
                verdict = test.verdicts()[r]
                assert text.endswith(format_p(line.p_value) + (f" {verdict}" if verdict else ""))
    assert model.run.rows == len(rows) and model.run.filtered
    assert "(p = " in model.as_text() and "Baseline: literal" in model.as_text()


def test_approximate_randomization_and_the_pairwise_matrix(qtbot, qtmodeltester, sample) -> None:
    panel = make_panel(qtbot, sample)
    panel.pairwise_check.setChecked(True)
    panel.pairwise_combo.setCurrentIndex(panel.pairwise_combo.findData("rougeL_f"))
    panel.run(test="ar", n_samples=400)
    wait_job(qtbot, panel.job)
    table = sample.table
    rows = np.arange(160)
    (bleu, *_) = significance_by_column(table, ["bleu"], baseline=0, test="ar", n_samples=400)
    assert cell(panel.model, 1, 0, Qt.ItemDataRole.UserRole) == bleu.result.systems[1]
    expected = pairwise_for_column(table, "rougeL_f", rows=rows, test="ar", n_samples=400)
    assert panel.pairwise_model.result == expected
    qtmodeltester.check(panel.pairwise_model)
    p = expected.p_value(0, 2)
    assert cell(panel.pairwise_model, 0, 2) == f"{p:.4f}" + ("*" if p <= 0.05 / 3 else "")
    assert cell(panel.pairwise_model, 1, 1) == "—"
    assert "3 tests" in panel.pairwise_note.text()
    assert "0.05 / 3" in panel.pairwise_note.text()
    assert "approximate randomization" in panel.caption.text()


def test_a_new_selection_cancels_a_stale_run(qtbot) -> None:
    panel = make_panel(qtbot, de_en())
    panel.run(test="ar", n_samples=200_000)  # long enough to still run below
    assert panel.job.running
    with qtbot.waitSignal(panel.job.cancelled, timeout=60_000):
        panel.link.session.set_selection(Selection((TextFilter("the"),)))
    settle()
    assert not panel.job.running
    assert panel.model.run is None  # nothing of the stale run arrives
    assert not panel.progress.isVisible()


def test_finished_results_are_marked_stale_when_the_rows_change(qtbot, sample) -> None:
    panel = make_panel(qtbot, sample)
    panel.run(n_samples=100)
    wait_job(qtbot, panel.job)
    assert not panel.model.stale
    panel.link.session.set_selection(Selection((TextFilter("the"),)))
    panel.refresh_now()
    assert panel.model.stale
    assert panel.caption.text().startswith("These results are for other rows")
    panel.link.session.set_selection(Selection())
    panel.refresh_now()
    assert not panel.model.stale


@pytest.mark.parametrize("dataset", ["de-en", "en-zh"])
@pytest.mark.parametrize("dark", [False, True], ids=["light", "dark"])
def test_screenshots(qtbot, save_shot, dataset: str, dark: bool) -> None:
    data = de_en() if dataset == "de-en" else en_zh()
    panel = make_panel(qtbot, data, size=(1150, 600))
    if dark:
        panel.setPalette(dark_palette())
    panel.pairwise_check.setChecked(True)
    panel.run()
    wait_job(qtbot, panel.job)
    assert panel.model.rowCount() == 5 and panel.model.columnCount() == 5
    assert panel.pairwise_model.rowCount() == 5
    settle()
    save_shot(panel, f"charts-significance-{dataset}-{'dark' if dark else 'light'}")


def test_the_matrix_stars_at_the_bonferroni_level_it_recommends(qtbot, save_shot) -> None:
    """chrF on wmt22-de-en: JDExploreAcademy against Lan-Bridge has p = 0.024, below 0.05 but
    above 0.05 / 10: no star, not bold, not coloured; every other cell follows the same rule."""
    for dark in (False, True):
        panel = make_panel(qtbot, de_en(), size=(1150, 640))
        if dark:
            panel.setPalette(dark_palette())
        panel.pairwise_check.setChecked(True)
        panel.pairwise_combo.setCurrentIndex(panel.pairwise_combo.findData("chrf"))
        panel.run()
        wait_job(qtbot, panel.job)
        model = panel.pairwise_model
        expected = pairwise_for_column(de_en().table, "chrf", rows=np.arange(1984))
        assert model.result == expected
        assert model.alpha == 0.005
        names = list(expected.names)
        a, b = names.index("JDExploreAcademy"), names.index("Lan-Bridge")
        assert 0.005 < expected.p_value(a, b) <= 0.05
        assert cell(model, a, b) == f"{expected.p_value(a, b):.4f}"  # no star
        starred = 0
        for i in range(5):
            for j in range(5):
                if i == j:
                    continue
                p = expected.p_value(i, j)
                significant = p <= 0.005
                starred += significant
                assert cell(model, i, j).endswith("*") == significant
                assert cell(model, i, j, Qt.ItemDataRole.FontRole).bold() == significant
                colour = cell(model, i, j, Qt.ItemDataRole.ForegroundRole)
                assert (colour is not None) == (
                    significant and expected.scores[i] != expected.scores[j]
                )
        assert 0 < starred < 20
        note = panel.pairwise_note.text()
        assert (
            "* (bold, coloured) marks p ≤ 0.005, the Bonferroni-corrected level (0.05 / 10)" in note
        )
        settle()
        save_shot(panel, f"charts-significance-pairs-{'dark' if dark else 'light'}")


def test_too_few_resamples_for_the_corrected_level_are_said(qtbot) -> None:
    panel = make_panel(qtbot, de_en())
    panel.pairwise_check.setChecked(True)
    panel.run(n_samples=150)  # 10 pairs: 0.005 < 1/151
    wait_job(qtbot, panel.job)
    assert "With 150 resamples no p-value is below 0.006623" in panel.pairwise_note.text()
    assert not any(
        cell(panel.pairwise_model, i, j).endswith("*") for i in range(5) for j in range(5)
    )
