"""A filter on a big table: the distributions and the corpus summary compute their figures in a
worker thread (the GUI thread only draws them), show the same figures as core computes directly
for the filtered rows, and drop a computation a newer filter made out of date. A chart in a
hidden tab computes nothing until it is shown.

"Big" is :data:`~gui.charts.jobs.BACKGROUND_ROWS` rows; the tests set it to 0 so that the 1,984
rows of WMT22 de-en take the worker's path. Where the work ran is recorded with
``threading.current_thread()`` in wrappers around the core functions (no timing)."""

from __future__ import annotations

import os
import sys
import threading
from pathlib import Path

import numpy as np
import pytest
from PySide6.QtWidgets import QLabel, QTabWidget

from matchlight.core.analysis.scales import clip_to_bounds, difference_bins, display_bounds
from matchlight.core.analysis.selection import ScoreRange, Selection
from matchlight.gui.charts import base
from matchlight.gui.charts import distributions as distributions_module
from matchlight.gui.charts import summary as summary_module
from matchlight.gui.charts.distributions import DistributionsPanel
from matchlight.gui.charts.link import ChartLink
from matchlight.gui.charts.summary import SummaryWidget
from tests.gui.chartkit import de_en, linked, session_of

SHOTS = Path("/tmp/matchlight-shots")


@pytest.fixture
def big(monkeypatch):
    """Every table counts as big: refreshes from the event loop go to the worker."""
    monkeypatch.setattr(base, "BACKGROUND_ROWS", 0)
    monkeypatch.setattr(summary_module, "BACKGROUND_ROWS", 0)


class Recorder:
    """Wraps a core function where a chart module imported it: records the thread of each
    call, and can hold the calls until :attr:`release` is set (a slow computation)."""

    def __init__(self, monkeypatch, module, name: str, *, hold: bool = False) -> None:
        self.threads: list[threading.Thread] = []
        self.release = threading.Event()
        self.started = threading.Event()
        if not hold:
            self.release.set()
        original = getattr(module, name)

        def wrapped(*args, **kwargs):
            self.threads.append(threading.current_thread())
            self.started.set()
            assert self.release.wait(30)
            return original(*args, **kwargs)

        monkeypatch.setattr(module, name, wrapped)


def bleu_filter(core, system: int, low: float) -> np.ndarray:
    """Filter the session to ``system``'s sentence BLEU >= ``low``; returns the rows kept."""
    core.set_selection(Selection((ScoreRange("bleu", system, low=low),)))
    return core.selected_rows()


def expected_histograms(table, rows, a: int, b: int):
    column = table.column_info("bleu")
    values = table.scores[:, :, table.metric_index("bleu")]
    bounds = display_bounds(column, values[:, table.done])
    edges = np.arange(0, 101, 5.0)
    counts = [np.histogram(clip_to_bounds(values[s, rows], bounds), bins=edges)[0] for s in (0, 1)]
    deltas = clip_to_bounds(values[a, rows], bounds) - clip_to_bounds(values[b, rows], bounds)
    return counts, difference_bins(column, deltas)


def show_panel(qtbot, link, session):
    panel = DistributionsPanel(link)
    # Its worker is done before the panel goes (a thread must not emit into a deleted object).
    qtbot.addWidget(panel, before_close_func=lambda p: p.refresh_job.shutdown())
    panel.resize(1100, 480)
    panel.show()
    qtbot.waitExposed(panel)
    panel.set_choices(metric="bleu", brush=0, a=1, b=0)
    panel.refresh_now()
    panel.session_model = session
    return panel


def test_a_filter_computes_the_histograms_in_a_worker_with_the_direct_figures(
    qtbot, monkeypatch, big
) -> None:
    link, session = linked(de_en())
    panel = show_panel(qtbot, link, session)
    scores = Recorder(monkeypatch, distributions_module, "score_histograms")
    differences = Recorder(monkeypatch, distributions_module, "difference_histogram")
    rows = bleu_filter(session.session, 0, 30.0)
    assert 0 < len(rows) < 1984
    qtbot.waitUntil(lambda: len(panel.score_rows) == len(rows) and not panel.computing)
    gui = threading.main_thread()
    assert scores.threads and all(t is not gui for t in scores.threads)
    assert differences.threads and all(t is not gui for t in differences.threads)
    counts, bins = expected_histograms(link.table, rows, 1, 0)
    assert panel.score_counts[0].tolist() == counts[0].tolist()
    assert panel.score_counts[1].tolist() == counts[1].tolist()
    assert panel.delta_counts.tolist() == bins.counts.tolist()
    assert panel.delta_ties == bins.ties
    np.testing.assert_array_equal(panel.score_rows, rows)
    SHOTS.mkdir(parents=True, exist_ok=True)
    panel.grab().save(str(SHOTS / "distributions-after-filter.png"))


def test_a_big_table_few_of_whose_rows_are_scored_computes_in_a_worker(qtbot, monkeypatch) -> None:
    """The histograms pass over every row of the table (its scored ones picked from all):
    a table of BACKGROUND_ROWS rows or more has them computed in a worker, however few of
    its rows are scored yet, with the figures core computes over the scored rows."""
    monkeypatch.setattr(base, "BACKGROUND_ROWS", 1000)
    session = session_of(de_en(), own_table=True)
    session.session.table.done[500:] = False  # 500 of 1,984 rows scored so far
    link = ChartLink()
    link.set_session(session)
    panel = show_panel(qtbot, link, session)
    scores = Recorder(monkeypatch, distributions_module, "score_histograms")
    rows = bleu_filter(session.session, 0, 30.0)
    table = link.table
    kept = rows[table.done[rows]]
    assert 0 < len(kept) < len(rows)
    qtbot.waitUntil(lambda: len(panel.score_rows) == len(kept) and not panel.computing)
    assert scores.threads and all(t is not threading.main_thread() for t in scores.threads)
    counts, bins = expected_histograms(table, kept, 1, 0)
    assert panel.score_counts[0].tolist() == counts[0].tolist()
    assert panel.score_counts[1].tolist() == counts[1].tolist()
    assert panel.delta_counts.tolist() == bins.counts.tolist()
    np.testing.assert_array_equal(panel.score_rows, kept)


def test_a_superseded_refresh_never_lands(qtbot, monkeypatch, big) -> None:
    link, session = linked(de_en())
    panel = show_panel(qtbot, link, session)
    held = Recorder(monkeypatch, distributions_module, "column_bounds", hold=True)
    drawn: list[int] = []
    draw = panel._draw
    monkeypatch.setattr(panel, "_draw", lambda figures: (drawn.append(1), draw(figures)))
    panel._bounds_of = None  # the first run computes its bounds: held there
    first = bleu_filter(session.session, 0, 30.0)
    qtbot.waitUntil(held.started.is_set)
    second = bleu_filter(session.session, 0, 60.0)  # the next keystroke
    assert len(second) < len(first)
    held.release.set()
    qtbot.waitUntil(lambda: bool(drawn) and not panel.computing)
    qtbot.wait(100)  # the first run's result, had it been kept, would have landed by now
    assert drawn == [1]
    np.testing.assert_array_equal(panel.score_rows, second)
    counts, _ = expected_histograms(link.table, second, 1, 0)
    assert panel.score_counts[0].tolist() == counts[0].tolist()


def test_a_hidden_chart_computes_nothing_until_shown(qtbot, monkeypatch, big) -> None:
    link, session = linked(de_en())
    panel = show_panel(qtbot, link, session)
    panel.hide()
    scores = Recorder(monkeypatch, distributions_module, "score_histograms")
    rows = bleu_filter(session.session, 2, 40.0)
    qtbot.wait(150)
    assert scores.threads == []
    panel.show()
    qtbot.waitUntil(lambda: len(panel.score_rows) == len(rows) and not panel.computing)
    assert len(scores.threads) == 1 and scores.threads[0] is not threading.main_thread()


def show_summary(qtbot, table) -> SummaryWidget:
    widget = SummaryWidget()
    qtbot.addWidget(widget, before_close_func=lambda w: w.shutdown())
    widget.resize(500, 700)
    widget.show()
    qtbot.waitExposed(widget)
    widget.set_table(table)
    widget.refresh()  # over 0 rows (the tests' big): in the worker
    qtbot.waitUntil(lambda: widget.model.rowCount() == len(table.systems))
    assert not widget.job.running
    return widget


def test_the_summarys_filtered_figures_come_from_a_worker(qtbot, monkeypatch, big) -> None:
    link, session = linked(de_en())
    table = link.table
    widget = show_summary(qtbot, table)
    scored = Recorder(monkeypatch, summary_module, "scored_rows")
    binned = Recorder(monkeypatch, summary_module, "score_histograms")
    rows = bleu_filter(session.session, 1, 25.0)
    widget.set_filtered_rows(rows)
    qtbot.waitUntil(lambda: widget.model.rowCount() == 2 * len(table.systems))
    qtbot.waitUntil(lambda: not widget.job.running)
    gui = threading.main_thread()
    assert scored.threads and all(t is not gui for t in scored.threads)
    assert binned.threads and all(t is not gui for t in binned.threads)
    for s in range(len(table.systems)):
        want, every = table.corpus(s, rows=rows), table.corpus(s)
        for key in ("bleu", "chrf", "rougeL_f"):
            assert widget.model.value(s, key, "filtered") == want.value(key)
            assert widget.model.value(s, key, "all") == every.value(key)
        values = np.clip(table.scores[s, rows, table.metric_index("bleu")], 0, 100)
        expected, _ = np.histogram(values, bins=np.arange(0, 101, 5.0))
        assert widget.histogram(s)[1].tolist() == expected.tolist()
    SHOTS.mkdir(parents=True, exist_ok=True)
    widget.grab().save(str(SHOTS / "summary-after-filter.png"))


def test_the_summary_drops_figures_a_newer_filter_replaced(qtbot, monkeypatch, big) -> None:
    link, session = linked(de_en())
    table = link.table
    widget = show_summary(qtbot, table)
    held = Recorder(monkeypatch, summary_module, "scored_rows", hold=True)
    shown: list[int] = []
    computed = widget._on_computed
    widget.job.finished.disconnect(widget._on_computed)
    widget.job.finished.connect(lambda result: (shown.append(len(result.rows)), computed(result)))
    first = bleu_filter(session.session, 1, 25.0)
    widget.set_filtered_rows(first)
    qtbot.waitUntil(held.started.is_set)
    second = bleu_filter(session.session, 1, 55.0)
    widget.set_filtered_rows(second)
    qtbot.waitUntil(lambda: len(held.threads) == 2)  # the second run started, the first waits
    held.release.set()
    qtbot.waitUntil(lambda: bool(shown) and not widget.job.running)
    qtbot.wait(100)
    assert shown == [len(second)]
    want = table.corpus(0, rows=second)
    assert widget.model.value(0, "bleu", "filtered") == want.value("bleu")


def test_the_summary_behind_another_tab_computes_when_shown(qtbot, monkeypatch) -> None:
    link, session = linked(de_en())
    table = link.table
    tabs = QTabWidget()
    qtbot.addWidget(tabs)
    widget = SummaryWidget()
    tabs.addTab(QLabel("in front"), "front")
    tabs.addTab(widget, "summary")
    tabs.resize(500, 700)
    tabs.show()
    qtbot.waitExposed(tabs)
    widget.set_table(table)
    widget.refresh()
    qtbot.waitUntil(lambda: widget.model.rowCount() == len(table.systems))
    scored = Recorder(monkeypatch, summary_module, "scored_rows")
    rows = bleu_filter(session.session, 1, 25.0)
    widget.set_filtered_rows(rows)
    qtbot.wait(300)
    assert scored.threads == [] and widget.model.rowCount() == len(table.systems)
    tabs.setCurrentWidget(widget)
    qtbot.waitUntil(lambda: widget.model.rowCount() == 2 * len(table.systems))
    assert len(scored.threads) == 1
    want = table.corpus(0, rows=rows)
    assert widget.model.value(0, "bleu", "filtered") == want.value("bleu")
    widget.shutdown()


def test_the_summary_of_a_big_table_few_of_whose_rows_are_scored_computes_in_a_worker(
    qtbot, monkeypatch
) -> None:
    """The summary's histogram passes over every row of the table: a table of
    BACKGROUND_ROWS rows or more has it computed in a worker however few of its rows are
    scored yet, with the counts of the scored rows."""
    monkeypatch.setattr(summary_module, "BACKGROUND_ROWS", 1000)
    table = session_of(de_en(), own_table=True).session.table
    table.done[500:] = False  # 500 of 1,984 rows scored so far
    binned = Recorder(monkeypatch, summary_module, "score_histograms")
    widget = show_summary(qtbot, table)
    assert binned.threads and all(t is not threading.main_thread() for t in binned.threads)
    rows = np.flatnonzero(table.done)
    for s in range(len(table.systems)):
        values = np.clip(table.scores[s, rows, table.metric_index("bleu")], 0, 100)
        expected, _ = np.histogram(values, bins=np.arange(0, 101, 5.0))
        assert widget.histogram(s)[1].tolist() == expected.tolist()


@pytest.mark.skipif(sys.platform != "linux", reason="only Linux gives each thread a niceness")
def test_a_charts_worker_runs_nicer_than_the_gui_thread(qtbot) -> None:
    """A chart's computation lets the GUI thread have a core first (gui.workers.pacing)."""
    from matchlight.gui.charts.jobs import BackgroundJob
    from matchlight.gui.workers.pacing import THREAD_NICENESS

    def niceness(cancelled, progress) -> int:
        return os.getpriority(os.PRIO_PROCESS, threading.get_native_id())

    main = os.getpriority(os.PRIO_PROCESS, os.getpid())
    seen = []
    for job in (BackgroundJob(), BackgroundJob(niceness=0)):
        with qtbot.waitSignal(job.finished, timeout=30_000) as blocker:
            job.start(niceness)
        seen.append(blocker.args[0])
    assert seen == [min(main + THREAD_NICENESS, 19), main]


def test_a_job_deleted_while_its_run_finishes_delivers_nothing(qtbot) -> None:
    """A chart (and its job) closed while the job's run goes on: the run's progress and result
    go through the process's one relay, never through the deleted job, and are dropped."""
    import shiboken6
    from PySide6.QtCore import QObject

    from matchlight.gui.charts.jobs import BackgroundJob

    owner = QObject()
    job = BackgroundJob(owner)
    got: list[object] = []
    job.finished.connect(got.append)
    job.progress_changed.connect(got.append)
    release = threading.Event()

    def work(cancelled, progress) -> int:
        release.wait(30)
        progress(0.5)
        return 42

    job.start(work)
    thread = job._thread
    shiboken6.delete(owner)  # as a closed window deletes its charts
    assert not shiboken6.isValid(job)
    release.set()
    thread.join(30)
    qtbot.wait(50)  # the queued progress and result reach the relay, which drops them
    assert got == []
    alive = BackgroundJob()  # and a live job still gets its own
    with qtbot.waitSignal(alive.finished, timeout=30_000) as blocker:
        alive.start(lambda cancelled, progress: 7)
    assert blocker.args == [7]
