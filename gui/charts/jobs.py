"""One background computation at a time, off the GUI thread, with progress, cancel and no stale
results.

A chart's heavy work (paired significance tests, scoring each reference alone, n-gram
differences, bootstrap intervals) is a plain function of ``core`` data. :class:`BackgroundJob`
runs it in a worker thread and reports back through signals delivered in the GUI thread. Starting
a new run cancels the one in progress (the subset changed, say): the old run sees its cancel
flag at its next check, and whatever it still delivers is dropped by its run id, so a stale
result can never reach a chart. The worker never touches a widget; it only calls ``core``.
"""

from __future__ import annotations

import contextlib
import itertools
import logging
import threading
import weakref
from collections.abc import Callable

import shiboken6
from PySide6.QtCore import QCoreApplication, QObject, Qt, Signal, Slot

from matchlight.core.analysis.significance import SignificanceCancelled
from matchlight.gui.workers.pacing import THREAD_NICENESS, run_nicer

log = logging.getLogger(__name__)

__all__ = ["BACKGROUND_ROWS", "BackgroundJob", "JobCancelled", "Work"]

# ``work(cancelled, progress) -> result``: ``cancelled()`` says stop (raise
# :class:`JobCancelled` or return None), ``progress(fraction)`` reports how far it got.
Work = Callable[[Callable[[], bool], Callable[[float], None]], object]

# Progress is reported in steps of at least this fraction (a bar needs no more).
PROGRESS_STEP = 0.01
# From this many rows on, a chart's refresh after a filter or new scores computes in a worker
# (:meth:`BackgroundJob.start`); below it, at once (:meth:`BackgroundJob.run_here`): a thread
# costs more than the work. The table's proxy moves its searches at the same size.
BACKGROUND_ROWS = 20_000


class JobCancelled(Exception):
    """Raised by a job's work function when its ``cancelled()`` check says stop."""


class _Relay(QObject):
    """What worker threads emit through, queued into the GUI thread, where it hands each run's
    progress and outcome to its job (by the job's key) if the job still exists.

    One for the process, made in the GUI thread and never deleted: a worker must never emit
    through a QObject that the GUI thread may be deleting meanwhile (a job deleted with its
    chart or window while its run finishes), which crashed a test process in Qt's signal code.
    """

    progressed = Signal(int, int, float)
    done = Signal(int, int, str, object)

    def __init__(self) -> None:
        super().__init__()
        self.progressed.connect(self._on_progressed, Qt.ConnectionType.QueuedConnection)
        self.done.connect(self._on_done, Qt.ConnectionType.QueuedConnection)

    @Slot(int, int, float)
    def _on_progressed(self, key: int, run: int, fraction: float) -> None:
        job = _live_job(key)
        if job is not None:
            job._on_progressed(run, fraction)

    @Slot(int, int, str, object)
    def _on_done(self, key: int, run: int, status: str, payload: object) -> None:
        job = _live_job(key)
        if job is not None:
            job._on_done(run, status, payload)


_RELAY: list[_Relay] = []
# Every job by its key, as long as it lives (its Python object; its Qt object may go first).
_JOBS: weakref.WeakValueDictionary[int, BackgroundJob] = weakref.WeakValueDictionary()
_KEYS = itertools.count(1)


def _relay() -> _Relay:
    if not _RELAY:
        _RELAY.append(_Relay())
    return _RELAY[0]


def _live_job(key: int) -> BackgroundJob | None:
    job = _JOBS.get(key)
    return job if job is not None and shiboken6.isValid(job) else None


class BackgroundJob(QObject):
    """Runs one :data:`Work` function at a time in a worker thread.

    Signals:
        started(): a run began.
        progress_changed(float fraction): the current run got this far.
        finished(object result): the current run's result (never a stale run's).
        failed(str message): the current run raised; the message is for the user.
        cancelled(): the current run was cancelled (by :meth:`cancel`, not by a newer run).
    """

    started = Signal()
    progress_changed = Signal(float)
    finished = Signal(object)
    failed = Signal(str)
    cancelled = Signal()

    _ids = itertools.count(1)

    def __init__(
        self,
        parent: QObject | None = None,
        *,
        name: str = "matchlight-chart",
        niceness: int = THREAD_NICENESS,
    ) -> None:
        super().__init__(parent)
        self._name = name
        self._niceness = niceness  # how much nicer than the GUI thread its runs are
        self._key = next(_KEYS)
        _JOBS[self._key] = self
        self._relay = _relay()  # made in the GUI thread (jobs are), the first time
        self._current = 0
        self._stop: threading.Event | None = None
        self._thread: threading.Thread | None = None
        self._threads: list[threading.Thread] = []

    @property
    def running(self) -> bool:
        return self._stop is not None

    def start(self, work: Work) -> int:
        """Cancel any run in progress and start ``work``; returns the new run's id."""
        self._abandon()
        run = next(self._ids)
        stop = threading.Event()
        self._current = run
        self._stop = stop
        relay, key = self._relay, self._key
        last = [0.0]

        def cancelled() -> bool:
            return stop.is_set()

        def progress(fraction: float) -> None:
            if fraction >= 1.0 or fraction - last[0] >= PROGRESS_STEP:
                last[0] = fraction
                _emit(relay.progressed, key, run, float(fraction))

        niceness = self._niceness

        def target() -> None:
            if niceness > 0:
                run_nicer(niceness)  # the GUI thread gets a core first (gui.workers.pacing)
            try:
                result = work(cancelled, progress)
            except (JobCancelled, SignificanceCancelled):
                _emit(relay.done, key, run, "cancelled", None)
            except Exception as exc:
                log.exception("a background computation failed")
                _emit(relay.done, key, run, "failed", describe(exc))
            else:
                status = "cancelled" if stop.is_set() else "finished"
                _emit(relay.done, key, run, status, result)

        self._thread = threading.Thread(target=target, name=self._name, daemon=True)
        # Runs dropped by a newer one may still be finishing: shutdown waits for them too.
        self._threads = [t for t in self._threads if t.is_alive()] + [self._thread]
        self.started.emit()
        self._thread.start()
        return run

    def run_here(self, work: Work) -> None:
        """Run ``work`` at once in this thread (too small to be worth a thread), dropping any
        run in progress; its result or failure is signalled as a run's is."""
        self._abandon()
        try:
            result = work(_never, _ignore)
        except Exception as exc:
            log.exception("a computation failed")
            self.failed.emit(describe(exc))
        else:
            self.finished.emit(result)

    def discard(self) -> None:
        """Stop the run in progress and drop whatever it still delivers, without a signal
        (what it computes is out of date: the chart's rows changed again)."""
        self._abandon()

    def cancel(self) -> None:
        """Stop the run in progress; :attr:`cancelled` follows when it has stopped."""
        if self._stop is not None:
            self._stop.set()

    def shutdown(self, timeout: float = 5.0) -> None:
        """Cancel and wait for the worker threads, a dropped run's still finishing included
        (closing a window, ending a test)."""
        threads, self._threads = self._threads, []
        self._abandon()
        for thread in threads:
            if thread.is_alive():
                thread.join(timeout)

    def _abandon(self) -> None:
        if self._stop is not None:
            self._stop.set()
        self._stop = None
        self._current = 0

    @Slot(int, float)
    def _on_progressed(self, run: int, fraction: float) -> None:
        if run == self._current:
            self.progress_changed.emit(fraction)

    @Slot(int, str, object)
    def _on_done(self, run: int, status: str, payload: object) -> None:
        if run != self._current:
            return
        self._stop = None
        self._current = 0
        if status == "finished":
            self.finished.emit(payload)
        elif status == "failed":
            self.failed.emit(str(payload))
        else:
            self.cancelled.emit()


def describe(exc: BaseException) -> str:
    """A one-line, user-facing description of a failed computation."""
    if isinstance(exc, MemoryError):
        return QCoreApplication.translate(
            "jobs", "Out of memory: try fewer rows or fewer resamples."
        )
    detail = str(exc) or type(exc).__name__
    return f"{detail} ({type(exc).__name__})"


def _never() -> bool:
    return False


def _ignore(_fraction: float) -> None:
    return None


def _emit(signal: object, *args: object) -> None:
    # RuntimeError: the relay is gone (the process ends), and nobody waits for the result.
    with contextlib.suppress(RuntimeError):
        signal.emit(*args)  # type: ignore[attr-defined]
