"""JobPanel, the frame of the charts that compute in the background: the progress bar shows while
a run goes and hides however it ends, a result reaches job_done, a failure is said in place of the
chart, and the four charts that compute this way are JobPanels."""

from __future__ import annotations

import threading

from matchlight.gui.charts.buckets import BucketsPanel
from matchlight.gui.charts.jobpanel import JobPanel
from matchlight.gui.charts.references import ReferencesPanel
from matchlight.gui.charts.separation import SeparationPanel
from matchlight.gui.charts.significance import SignificancePanel
from tests.gui.chartkit import linked, wait_job


class Counting(JobPanel):
    title = "Counting"
    job_name = "matchlight-test-job"
    failure = "Counting failed"

    def __init__(self, link) -> None:
        super().__init__(link)
        self.controls.addWidget(self.progress)
        self.results: list[object] = []

    def refresh(self) -> None:
        self.show_body()

    def job_done(self, result: object) -> None:
        self.results.append(result)


def panel_of(qtbot, sample) -> Counting:
    link, session = linked(sample)
    panel = Counting(link)
    panel.keep = session
    qtbot.addWidget(panel)
    panel.show()
    qtbot.waitExposed(panel)
    panel.refresh_now()
    return panel


def test_a_run_shows_progress_and_delivers_its_result(qtbot, sample) -> None:
    panel = panel_of(qtbot, sample)
    gate = threading.Event()

    def work(cancelled, progress):
        progress(0.5)
        gate.wait(10)
        return 42

    panel.start_job(work)
    assert panel.progress.isVisible() and panel.progress.value() == 0
    qtbot.waitUntil(lambda: panel.progress.value() == 50)
    gate.set()
    wait_job(qtbot, panel.job)
    assert panel.results == [42] and not panel.progress.isVisible()


def test_a_failure_is_said_and_a_cancel_hides_the_bar(qtbot, sample) -> None:
    panel = panel_of(qtbot, sample)

    def broken(cancelled, progress):
        raise ValueError("no rows")

    panel.start_job(broken)
    wait_job(qtbot, panel.job)
    assert panel.placeholder.isVisible()
    assert panel.placeholder.text() == "Counting failed: no rows (ValueError)"
    assert not panel.progress.isVisible() and panel.results == []
    stop = threading.Event()

    def slow(cancelled, progress):
        stop.wait(10)
        return None if cancelled() else 1

    panel.start_job(slow)
    with qtbot.waitSignal(panel.job.cancelled):
        panel.job.cancel()
        stop.set()
    assert not panel.progress.isVisible() and panel.results == []
    panel.shutdown()


def test_the_charts_that_compute_in_the_background_are_job_panels() -> None:
    panels = (BucketsPanel, ReferencesPanel, SeparationPanel, SignificancePanel)
    assert all(issubclass(p, JobPanel) for p in panels)
    assert len({p.job_name for p in panels}) == 4
