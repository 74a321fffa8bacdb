"""The corpus summary's significance clusters and its reference-leak warning.

The clusters are core's (:func:`core.analysis.clusters.system_clusters`: paired bootstrap of
every pair, 1,000 resamples, seed 12345) over all rows and over the filtered rows, computed in
a worker thread, never the GUI thread; a lower-is-better column (the experts' MQM penalty on
WMT21 TED) ranks its lowest first. The warning is the reference audit's (wmt22-en-zh's ref2 is
Online-B's output on 373 lines). Screenshots in both themes.
"""

from __future__ import annotations

import threading

import numpy as np
import pytest
from PySide6.QtCore import Qt

from matchlight.core.analysis.clusters import system_clusters
from matchlight.core.analysis.references import audit_references
from matchlight.core.annotation.columns import MQM_COLUMN
from matchlight.gui.charts import summaryclusters as clusters_module
from matchlight.gui.charts.summary import SummaryWidget
from tests.gui.chartkit import JOB_TIMEOUT, dark_palette, de_en, en_zh, session_of, settle
from tests.scalekit import mqm_ted, ted_scored

SAMPLES, SEED = 1000, 12345


def show_summary(qtbot, table, size=(380, 620)) -> SummaryWidget:
    summary = SummaryWidget()
    qtbot.addWidget(summary)
    summary.resize(*size)
    summary.show()
    qtbot.waitExposed(summary)
    summary.set_table(table)
    summary.refresh()
    return summary


def wait_clusters(qtbot, summary: SummaryWidget) -> None:
    qtbot.waitUntil(
        lambda: not summary.cluster_job.running and not summary.clusters.settling,
        timeout=JOB_TIMEOUT,
    )
    settle()


def shown_rank(summary: SummaryWidget, system: int, key: str, scope: str = "all") -> str:
    model = summary.model
    column = list(model._metrics).index(key)
    return model.index(model.row_of(system, scope), column).data()


def audit_of(data) -> object:
    text = data.text
    return audit_references(
        references=text.references,
        systems=text.systems,
        reference_names=data.reference_names,
        system_names=text.system_names,
    )


def test_clusters_are_cores_over_all_rows_and_the_filtered_rows(qtbot, monkeypatch) -> None:
    threads: list[str] = []
    pairwise = clusters_module.pairwise_for_column

    def recorded(*args, **kwargs):
        threads.append(threading.current_thread().name)
        return pairwise(*args, **kwargs)

    monkeypatch.setattr(clusters_module, "pairwise_for_column", recorded)
    data = de_en()
    table = data.table
    summary = show_summary(qtbot, table)
    # The tests run in the background: refresh returned with the run under way.
    assert summary.cluster_job.running
    assert summary.cluster_text().startswith(
        "Significance clusters [n]: paired tests of every pair of systems over all 1,984 rows…"
    )
    wait_clusters(qtbot, summary)
    assert threads and all(name == "matchlight-clusters" for name in threads)
    assert threading.main_thread().name not in threads
    keys = ["bleu", "chrf", "rouge1_f", "rouge2_f", "rougeL_f"]
    assert list(summary.model._metrics) == keys
    for key in keys:
        found = system_clusters(table, key, n_samples=SAMPLES, seed=SEED)
        assert max(found.clusters) > 1
        for s, name in enumerate(table.systems):
            figure = table.corpus(s).values[key]
            assert shown_rank(summary, s, key) == f"{figure:.2f} [{found.cluster_of(name)}]"
            assert summary.model.cluster(s, key) == found.cluster_of(name)
    assert summary.cluster_text() == (
        "[n]: significance cluster (1 best) over all 1,984 rows; paired bootstrap, p < 0.05."
    )
    assert "1,000 resamples, seed 12345" in summary.cluster_label.toolTip()
    # LT22 is far behind: the tooltip says against whom it was tested.
    lt22 = table.systems.index("LT22")
    model = summary.model
    tip = model.index(model.row_of(lt22), 0).data(Qt.ItemDataRole.ToolTipRole)
    bleu = system_clusters(table, "bleu", n_samples=SAMPLES, seed=SEED)
    assert f"significance cluster {bleu.cluster_of('LT22')} of {max(bleu.clusters)}" in tip
    assert "over 1,984 rows; p = 0.0010 against" in tip

    # A filter: the filtered rows get clusters of their own; the all-rows ones are kept.
    rows = np.flatnonzero(np.arange(table.n_segments) % 3 == 0)
    threads.clear()
    summary.set_filtered_rows(rows)
    summary.refresh()
    assert summary.cluster_job.running
    wait_clusters(qtbot, summary)
    assert len(threads) == len(keys)  # only the filtered scope was tested again
    for key in keys:
        found = system_clusters(table, key, rows=rows, n_samples=SAMPLES, seed=SEED)
        for s, name in enumerate(table.systems):
            figure = table.corpus(s, rows).values[key]
            shown = shown_rank(summary, s, key, "filtered")
            assert shown == f"{figure:.2f} [{found.cluster_of(name)}]"
    assert "over all 1,984 rows and the 662 filtered rows" in summary.cluster_text()


def test_a_new_filter_cancels_a_stale_run(qtbot) -> None:
    data = de_en()
    table = data.table
    summary = show_summary(qtbot, table)
    wait_clusters(qtbot, summary)
    first = np.arange(0, 1000)
    summary.set_filtered_rows(first)
    summary.refresh()
    assert summary.cluster_job.running
    with qtbot.waitSignal(summary.cluster_job.started, timeout=JOB_TIMEOUT):
        second = np.arange(500, 1984)
        summary.set_filtered_rows(second)
        summary.refresh()
    wait_clusters(qtbot, summary)
    found = system_clusters(table, "chrf", rows=second, n_samples=SAMPLES, seed=SEED)
    for s, name in enumerate(table.systems):
        assert shown_rank(summary, s, "chrf", "filtered").endswith(f"[{found.cluster_of(name)}]")
    assert "the 1,484 filtered rows" in summary.cluster_text()


def test_a_penalty_ranks_its_lowest_first(qtbot) -> None:
    """The experts' MQM on TED: lower is better, so the fewest penalty points are cluster 1."""
    session = session_of(ted_scored(), own_table=True)
    session.session.set_column(MQM_COLUMN, mqm_ted().penalties)
    table = session.session.table
    summary = show_summary(qtbot, table)
    wait_clusters(qtbot, summary)
    found = system_clusters(table, "mqm", n_samples=SAMPLES, seed=SEED)
    assert found.better == "lower"
    penalty = {name: table.corpus(s).values["mqm"] for s, name in enumerate(table.systems)}
    assert found.names[0] == min(penalty, key=penalty.__getitem__)
    for s, name in enumerate(table.systems):
        assert shown_rank(summary, s, "mqm").endswith(f"[{found.cluster_of(name)}]")
    assert "Lower is better for MQM penalty." in summary.cluster_text()
    # The column changes (an edit): its clusters are tested again, the others are kept.
    penalties = mqm_ted().penalties.copy()
    penalties[0] = np.where(np.isnan(penalties[0]), np.nan, 0.0)  # the first: no errors
    session.session.set_column(MQM_COLUMN, penalties)
    summary.column_changed("mqm")
    summary.refresh()
    # Its paired tests wait for the column to stop changing (the annotator's pause).
    assert summary.clusters.settling and not summary.cluster_job.running
    wait_clusters(qtbot, summary)
    assert summary.model.cluster(0, "mqm") == 1
    session.deleteLater()


def test_a_column_changing_edit_after_edit_is_ranked_once_it_settles(qtbot, monkeypatch) -> None:
    """Five edits in a row (MQM changes with each): no paired test runs for the values in
    between, one runs for the last, and its clusters are those of the last values."""
    session = session_of(ted_scored(), own_table=True)
    penalties = mqm_ted().penalties.copy()
    session.session.set_column(MQM_COLUMN, penalties)
    table = session.session.table
    summary = show_summary(qtbot, table)
    wait_clusters(qtbot, summary)
    runs: list[tuple[str, ...]] = []
    start = summary.clusters._start

    def counted(table, scopes, missing, token):
        runs.append(tuple(key for _, key in missing))
        return start(table, scopes, missing, token)

    monkeypatch.setattr(summary.clusters, "_start", counted)
    for edit in range(5):
        penalties[0, edit] = 0.0 if not np.isnan(penalties[0, edit]) else np.nan
        session.session.set_column(MQM_COLUMN, penalties)
        summary.column_changed("mqm")
        summary.refresh()
        assert not summary.cluster_job.running
    wait_clusters(qtbot, summary)
    assert runs == [("mqm",)]
    found = system_clusters(table, "mqm", n_samples=SAMPLES, seed=SEED)
    for s, name in enumerate(table.systems):
        assert shown_rank(summary, s, "mqm").endswith(f"[{found.cluster_of(name)}]")
    session.deleteLater()


def test_no_ranks_while_scoring_or_with_one_system(qtbot) -> None:
    import copy

    table = copy.deepcopy(de_en().table)
    table.done[100:] = False
    summary = show_summary(qtbot, table)
    assert not summary.cluster_job.running
    assert summary.cluster_text() == "Significance clusters [n] follow once every row is scored."
    assert "[" not in shown_rank(summary, 0, "bleu")
    summary.set_table(None)
    summary.refresh()
    assert summary.cluster_label.isHidden()


@pytest.mark.parametrize("dark", [False, True], ids=["light", "dark"])
def test_the_leak_warning_and_screenshots(qtbot, save_shot, dark: bool) -> None:
    data = en_zh()
    summary = show_summary(qtbot, data.table, size=(420, 860))
    if dark:
        summary.setPalette(dark_palette())
    summary.set_audit(audit_of(data))
    assert summary.warning_label.isVisible()
    assert summary.warning_text().startswith(
        "⚠ ref2 looks made from Online-B's output: 373 of 2037 lines identical to Online-B"
    )
    wait_clusters(qtbot, summary)
    online_b = data.table.systems.index("Online-B")
    assert shown_rank(summary, online_b, "bleu") == "79.99 [1]"  # first, on the leaky reference
    summary.set_filtered_rows(np.arange(0, 2037, 2))
    summary.refresh()
    wait_clusters(qtbot, summary)
    save_shot(summary, f"summary-clusters-en-zh-{'dark' if dark else 'light'}")
    # Another comparison: the warning goes (its own audit follows).
    summary.set_table(de_en().table)
    assert not summary.warning_label.isVisible() and summary.warning_text() == ""
    summary.set_audit(audit_of(de_en()))
    assert summary.warning_text() == ""


def test_in_the_main_window_the_audit_reaches_the_summary(qtbot, tmp_path, save_shot) -> None:
    """Opening wmt22-en-zh in the window: once it is scored, the summary warns about ref2 and
    ranks every system, without a test on the GUI thread."""
    from PySide6.QtCore import QSettings

    from matchlight.gui.dialogs.opendialog import assign_roles
    from matchlight.gui.shell.mainwindow import MainWindow
    from tests.gui.chartkit import EN_ZH

    if not EN_ZH.is_dir():
        pytest.skip(f"{EN_ZH} is not there")
    settings = QSettings(str(tmp_path / "matchlight.ini"), QSettings.Format.IniFormat)
    window = MainWindow(settings=settings, error_sink=lambda t, m: None)
    qtbot.addWidget(window)
    window.resize(1400, 900)
    window.show()
    qtbot.waitExposed(window)
    try:
        paths = [EN_ZH / "src.txt", *EN_ZH.glob("ref*.txt"), *EN_ZH.glob("sys.*.txt")]
        with qtbot.waitSignal(window.controller.scoring_finished, timeout=JOB_TIMEOUT):
            assert window.open_specs(assign_roles(str(p) for p in paths))
        summary = window.summary
        qtbot.waitUntil(lambda: summary.warning_text() != "", timeout=JOB_TIMEOUT)
        assert "ref2 looks made from Online-B's output" in summary.warning_text()
        assert summary.warning_text() == window.comparison_docks.panel.warning_label.text()
        qtbot.waitUntil(lambda: summary.model.cluster(0, "bleu") is not None, timeout=JOB_TIMEOUT)
        wait_clusters(qtbot, summary)
        table = window.session.session.table
        found = system_clusters(table, "bleu", n_samples=SAMPLES, seed=SEED)
        for s, name in enumerate(table.systems):
            assert summary.model.cluster(s, "bleu") == found.cluster_of(name)
        window.summary_dock.raise_()
        settle()
        save_shot(window, "summary-clusters-mainwindow-en-zh")
    finally:
        window.close()
    assert not summary.cluster_job.running
