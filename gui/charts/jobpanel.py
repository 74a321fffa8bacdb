"""The frame of a chart whose numbers come from a background job (significance tests, scoring each
reference alone, n-gram differences, bootstrap intervals).

A :class:`JobPanel` is a :class:`~gui.charts.base.ChartPanel` with one
:class:`~gui.charts.jobs.BackgroundJob` and a progress bar (placed among its controls by the
subclass), and the handlers every such chart had the same way: progress moves the bar; the end
of a run, however it ends, hides it; a failure is said where the chart would be; a result goes
to :meth:`JobPanel.job_done`, the one thing each chart does its own way.
"""

from __future__ import annotations

from typing import ClassVar

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication, Slot
from PySide6.QtWidgets import QProgressBar, QWidget

from matchlight.gui.charts.base import ChartPanel
from matchlight.gui.charts.jobs import BackgroundJob, Work
from matchlight.gui.charts.link import ChartLink

__all__ = ["JobPanel"]


class JobPanel(ChartPanel):
    """A chart panel that computes in a :class:`~gui.charts.jobs.BackgroundJob`.

    Subclasses set :attr:`job_name` (the worker thread's name) and :attr:`failure` (how a failed
    run begins its message), add :attr:`progress` to their controls, start runs with
    :meth:`start_job` and show results in :meth:`job_done`; :meth:`job_over` and
    :meth:`job_failed` may do more than hide the bar and show the message.
    """

    # The worker thread's name.
    job_name: ClassVar[str] = "matchlight-chart"
    # A failed run shows "<failure>: <what went wrong>" in place of the chart. Marked with
    # ``QT_TRANSLATE_NOOP("JobPanel", ...)``: set at import, before the translator is
    # installed, and translated when shown.
    failure: ClassVar[str] = QT_TRANSLATE_NOOP("JobPanel", "This view could not be computed")
    # The progress bar's widest, and whether it shows its percentage.
    progress_width: ClassVar[int] = 160
    progress_text: ClassVar[bool] = False

    def __init__(self, link: ChartLink, parent: QWidget | None = None) -> None:
        super().__init__(link, parent)
        self.progress = QProgressBar()
        self.progress.setRange(0, 100)
        self.progress.setMaximumWidth(self.progress_width)
        self.progress.setTextVisible(self.progress_text)
        self.progress.hide()
        self.job = BackgroundJob(self, name=self.job_name)
        self.job.finished.connect(self._on_job_finished)
        self.job.failed.connect(self._on_job_failed)
        self.job.progress_changed.connect(self._on_job_progress)
        self.job.cancelled.connect(self._on_job_cancelled)

    def start_job(self, work: Work) -> None:
        """Show the bar at zero and run ``work`` (a run in progress is cancelled)."""
        self.progress.setValue(0)
        self.progress.show()
        self.job.start(work)

    def shutdown(self) -> None:
        """Cancel the run in progress and wait for its thread (the window closes)."""
        self.job.shutdown()

    # -- what subclasses do their own way -------------------------------------------------------

    def job_done(self, result: object) -> None:
        """Show the result of a finished run (never a stale run's)."""
        raise NotImplementedError

    def job_over(self) -> None:
        """A run ended (finished, failed or cancelled): hide the progress bar."""
        self.progress.hide()

    def job_failed(self, message: str) -> None:
        """Say why a run failed, in place of the chart."""
        failure = QCoreApplication.translate("JobPanel", type(self).failure)
        self.show_placeholder(
            QCoreApplication.translate("JobPanel", "{failure}: {0}").format(
                message, failure=failure
            )
        )

    # -- the job's signals ----------------------------------------------------------------------

    @Slot(float)
    def _on_job_progress(self, fraction: float) -> None:
        self.progress.setValue(round(100 * fraction))

    @Slot()
    def _on_job_cancelled(self) -> None:
        self.job_over()

    @Slot(str)
    def _on_job_failed(self, message: str) -> None:
        self.job_over()
        self.job_failed(message)

    @Slot(object)
    def _on_job_finished(self, result: object) -> None:
        self.job_over()
        self.job_done(result)
