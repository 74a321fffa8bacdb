"""Background scoring: one worker thread, owned by one controller.

The :class:`ScoringWorker` lives in a :class:`QThread` and drains a ``core`` chunk generator
(by default :func:`core.scoring.engine.iter_score_chunks_offloaded`, which scores in worker
processes
so that the worker thread does not hold the GIL the GUI thread needs), emitting every
:class:`~core.scoring.results.ScoreChunk` as it is produced. The :class:`ScoringController` lives in
the GUI thread: it owns the worker, the thread and the :class:`~core.scoring.results.ScoreTable` of
the
current job, applies each chunk to the table (a cheap numpy copy) and re-emits it as GUI-level
events.

Every job carries an id. Results of a job that was cancelled or superseded by a newer
:meth:`ScoringController.start` are dropped on arrival, so they can never land in the new table.
The worker never touches a widget.
"""

from __future__ import annotations

import gc
import itertools
import logging
import threading
import traceback
from collections.abc import Callable, Iterator
from typing import Any

import shiboken6
from PySide6.QtCore import QCoreApplication, QObject, QThread, QTimer, Signal, Slot

from matchlight.core.scoring.config import ConfigError, ScoringConfig
from matchlight.core.scoring.engine import (
    BACKGROUND_NICENESS,
    empty_table,
    iter_score_chunks_offloaded,
    prestart_worker_server,
)
from matchlight.core.scoring.results import ScoreChunk, ScoreTable
from matchlight.core.text.corpus import CorpusText
from matchlight.gui.workers.pacing import run_nicer

log = logging.getLogger(__name__)

# ``chunk_source(text, config, chunk_size=, first_chunk_size=, cancel=)`` -> chunk iterator.
ChunkSource = Callable[..., Iterator[ScoreChunk]]


def describe_failure(exc: BaseException) -> str:
    """A one-paragraph, user-facing description of an exception raised while scoring."""
    if isinstance(exc, ConfigError):
        return QCoreApplication.translate(
            "controller", "The scoring settings are invalid: {exc}"
        ).format(exc=exc)
    if isinstance(exc, MemoryError):
        return QCoreApplication.translate(
            "controller", "Scoring ran out of memory. Try fewer systems or a smaller file."
        )
    detail = str(exc) or type(exc).__name__
    return QCoreApplication.translate("controller", "Scoring failed: {detail} ({0}).").format(
        type(exc).__name__, detail=detail
    )


class MainThreadGarbageCollector(QObject):
    """Runs Python's cyclic garbage collector in the GUI thread only.

    The collector runs in whichever thread happens to allocate when a threshold is crossed. If
    that is the scoring thread, it destroys unreachable Qt objects (a closed window, an old
    model) from the wrong thread: "Timers cannot be stopped from another thread" warnings and
    then segfaults, which is exactly what the test suite hit. So automatic collection is turned
    off and this object collects on a timer in the GUI thread instead, generation by generation
    as the thresholds say (the scheme of pyqtgraph's ``GarbageCollector``).

    While a worker builds what a comparison keeps (:meth:`hold_while`: the read, the search
    caches), no pass runs: a pass walks every item of each new tuple of a million lines once
    (a second's stall in the GUI thread, for nothing: they live as long as the comparison).
    Once the worker is done, what exists is exempted from the passes (:func:`gc.freeze`, which
    walks nothing) before the next one.
    """

    def __init__(self, parent: QObject | None = None, interval_ms: int = 500) -> None:
        super().__init__(parent)
        self._threshold = gc.get_threshold()
        self._holders: list[Any] = []
        gc.disable()
        self._timer = QTimer(self)
        self._timer.setInterval(interval_ms)
        self._timer.timeout.connect(self.check)
        self._timer.start()

    def hold_while(self, call: Any) -> None:
        """No pass while ``call`` (a running :class:`~gui.workers.loader.BackgroundCall`)
        runs; once it is done (finished, failed or cancelled), what exists then is frozen."""
        self._holders.append(call)

    def holding(self) -> bool:
        """Whether a worker holds the passes back (see :meth:`hold_while`)."""
        return bool(self._holders)

    @Slot()
    def check(self) -> None:
        """Collect the generations whose thresholds were crossed (unless a worker holds the
        passes back: then nothing, and once the last is done, freeze what exists)."""
        if self._holders:
            running = [c for c in self._holders if shiboken6.isValid(c) and c.running]
            if len(running) < len(self._holders):
                gc.freeze()  # what the done ones built stays with the comparison
            self._holders = running
            if running:
                return
        count0, count1, count2 = gc.get_count()
        if count0 > self._threshold[0]:
            gc.collect(0)
            if count1 > self._threshold[1]:
                gc.collect(1)
                if count2 > self._threshold[2]:
                    gc.collect(2)


_gc_guard: MainThreadGarbageCollector | None = None


def _fits(table: ScoreTable, text: CorpusText, config: ScoringConfig) -> bool:
    return (
        table.n_done == 0
        and table.config == config
        and table.systems == text.system_names
        and table.n_segments == len(text)
        and table.nrefs == len(text.references)
    )


def settle_long_lived() -> None:
    """Exempt everything alive now from garbage collection passes (``gc.freeze``).

    Call once a comparison is open: its texts, the models and the widgets live until the next
    one, and the collector's passes walked them again and again, each pass a stall right after
    an open. Cyclic garbage among what is frozen waits for :func:`release_long_lived`.
    """
    gc.freeze()


def release_long_lived() -> None:
    """Undo :func:`settle_long_lived` and collect, before the next comparison is read.

    So at most one comparison's worth of cyclic garbage is ever held back.
    """
    if gc.get_freeze_count():
        gc.unfreeze()
        gc.collect()


def hold_collection_while(call: Any) -> None:
    """Let no garbage collection pass run in the GUI thread while ``call`` (a started
    :class:`~gui.workers.loader.BackgroundCall` that builds what a comparison keeps) runs;
    see :meth:`MainThreadGarbageCollector.hold_while`."""
    ensure_main_thread_gc()
    if _gc_guard is not None and shiboken6.isValid(_gc_guard):
        _gc_guard.hold_while(call)


def ensure_main_thread_gc() -> None:
    """Install the :class:`MainThreadGarbageCollector` once per QCoreApplication."""
    global _gc_guard
    app = QCoreApplication.instance()
    if app is None:
        return
    if _gc_guard is not None and shiboken6.isValid(_gc_guard):
        return
    _gc_guard = MainThreadGarbageCollector(app)


class ScoringWorker(QObject):
    """Drains a chunk generator in the worker thread.

    Jobs arrive through :meth:`run_job` (a queued slot), one at a time; cancellation goes through
    a :class:`threading.Event` per job, which the generator checks between chunks.

    Signals:
        chunk_scored(int job, object chunk): one :class:`ScoreChunk` of job ``job``.
        job_finished(int job): the generator of ``job`` ran to its end.
        job_cancelled(int job): ``job`` stopped early because its cancel event was set.
        job_failed(int job, str message): ``job`` raised; ``message`` is user-facing.
    """

    chunk_scored = Signal(int, object)
    job_finished = Signal(int)
    job_cancelled = Signal(int)
    job_failed = Signal(int, str)

    def __init__(
        self,
        *,
        chunk_source: ChunkSource = iter_score_chunks_offloaded,
        chunk_size: int = 1024,
        first_chunk_size: int = 64,
    ) -> None:
        super().__init__()
        self._chunk_source = chunk_source
        self._chunk_size = chunk_size
        self._first_chunk_size = first_chunk_size

    @Slot(int, object, object, object)
    def run_job(self, job: int, text: Any, config: Any, cancel: Any) -> None:
        """Score ``text`` under ``config``; ``cancel`` is the job's :class:`threading.Event`."""
        run_nicer()  # the GUI thread gets a core first; the pool's threads start from here
        if cancel.is_set():
            self.job_cancelled.emit(job)
            return
        try:
            chunks = self._chunk_source(
                text,
                config,
                chunk_size=self._chunk_size,
                first_chunk_size=self._first_chunk_size,
                cancel=cancel.is_set,
            )
            for chunk in chunks:
                if cancel.is_set():
                    break
                self.chunk_scored.emit(job, chunk)
        except Exception as exc:  # reported as a signal, never raised across the thread
            log.error("scoring job %d failed:\n%s", job, traceback.format_exc())
            self.job_failed.emit(job, describe_failure(exc))
            return
        if cancel.is_set():
            self.job_cancelled.emit(job)
        else:
            self.job_finished.emit(job)


class ScoringController(QObject):
    """Owns the scoring thread, its worker, and the :class:`ScoreTable` being filled.

    Signals:
        scoring_started: a new job began; :attr:`table` is its (empty) table.
        progress_changed(int done, int total): segments scored so far in the current job.
        chunk_ready(int start, int stop): segments ``start:stop`` were stored in :attr:`table`.
        scoring_finished: every segment of the current job is scored.
        scoring_cancelled: the current job was cancelled by :meth:`cancel`; the table keeps the
            rows scored so far. (A job superseded by :meth:`start` ends silently.)
        scoring_failed(str message): the current job raised; ``message`` is user-facing.
    """

    scoring_started = Signal()
    progress_changed = Signal(int, int)
    chunk_ready = Signal(int, int)
    scoring_finished = Signal()
    scoring_cancelled = Signal()
    scoring_failed = Signal(str)

    # Internal: hands a job to the worker thread (queued connection).
    _job_requested = Signal(int, object, object, object)

    def __init__(
        self,
        parent: QObject | None = None,
        *,
        chunk_source: ChunkSource = iter_score_chunks_offloaded,
        chunk_size: int = 1024,
        first_chunk_size: int = 64,
    ) -> None:
        super().__init__(parent)
        ensure_main_thread_gc()  # Python code is about to run in a second thread
        self._ids = itertools.count(1)
        self._job = 0
        self._running = False
        self._cancel: threading.Event | None = None
        self._outstanding: set[int] = set()
        self._table: ScoreTable | None = None
        self._delivered = 0  # rows delivered to ``apply`` by a job without a table
        self._apply: Callable[[ScoreChunk], None] = lambda chunk: None
        self._text: CorpusText | None = None
        self._config: ScoringConfig | None = None
        self._shut_down = False

        self._thread = QThread()
        self._thread.setObjectName("matchlight-scoring")
        self._worker = ScoringWorker(
            chunk_source=chunk_source, chunk_size=chunk_size, first_chunk_size=first_chunk_size
        )
        self._worker.moveToThread(self._thread)
        self._job_requested.connect(self._worker.run_job)
        self._worker.chunk_scored.connect(self._on_chunk_scored)
        self._worker.job_finished.connect(self._on_job_finished)
        self._worker.job_cancelled.connect(self._on_job_cancelled)
        self._worker.job_failed.connect(self._on_job_failed)
        self._thread.finished.connect(self._worker.deleteLater)
        self._thread.start()
        app = QCoreApplication.instance()
        if app is not None:
            app.aboutToQuit.connect(self.shutdown)
        if chunk_source is iter_score_chunks_offloaded:
            # The worker processes' server imports the engine once: now, while nothing is
            # being scored, rather than next to the first comparison's first paint.
            QTimer.singleShot(0, self._prestart_workers)

    @Slot()
    def _prestart_workers(self) -> None:
        try:
            prestart_worker_server(BACKGROUND_NICENESS)
        except (OSError, RuntimeError, ValueError) as exc:  # scoring starts it (or falls back)
            log.warning("could not start the worker process server ahead of time: %s", exc)

    # -- state ---------------------------------------------------------------------------------

    @property
    def table(self) -> ScoreTable | None:
        """The table of the current (or last) job; ``None`` before the first :meth:`start`
        and for a job that hands its chunks to an ``apply`` of its own."""
        return self._table

    @property
    def text(self) -> CorpusText | None:
        return self._text

    @property
    def config(self) -> ScoringConfig | None:
        return self._config

    @property
    def running(self) -> bool:
        """True while the current job still delivers chunks."""
        return self._running

    @property
    def busy(self) -> bool:
        """True while the worker thread still has any job (current or stale) in hand."""
        return bool(self._outstanding)

    @property
    def scoring_thread(self) -> QThread:
        """The scoring thread (finished after :meth:`shutdown`)."""
        return self._thread

    @property
    def job_id(self) -> int:
        return self._job

    # -- commands ------------------------------------------------------------------------------

    def start(
        self,
        text: CorpusText,
        config: ScoringConfig,
        table: ScoreTable | None = None,
        *,
        apply: Callable[[ScoreChunk], None] | None = None,
    ) -> ScoreTable | None:
        """Score ``text`` under ``config`` in the background; return the new, empty table.

        ``table``: an empty table made for them beforehand (allocating one for 100k rows takes
        a few tens of milliseconds, which a caller may spend in another thread). ``apply``
        stores each chunk (by default into the table; the app hands the chunks to its
        comparison session, which stores them and tells its observers). With ``apply`` and no
        ``table``, no table is made (the chunks go elsewhere): :attr:`table` is None and the
        progress counts the rows delivered. A running job is cancelled first; its late results
        are discarded.
        """
        if table is not None and not _fits(table, text, config):
            raise ValueError("the table given was not made for these texts and settings")
        if self._shut_down:
            raise RuntimeError("the scoring controller was shut down")
        if self._cancel is not None:
            self._cancel.set()
        self._job = next(self._ids)
        self._cancel = threading.Event()
        self._text = text
        self._config = config
        if table is None and apply is None:
            table = empty_table(text, config)
        self._table = table
        self._delivered = 0
        if apply is None and table is not None:
            apply = table.apply
        self._apply = apply if apply is not None else (lambda chunk: None)
        self._running = True
        self._outstanding.add(self._job)
        self.scoring_started.emit()
        self.progress_changed.emit(0, len(text))
        self._job_requested.emit(self._job, text, config, self._cancel)
        return self._table

    @Slot()
    def cancel(self) -> None:
        """Stop the current job; rows scored so far stay in :attr:`table`."""
        if self._cancel is not None:
            self._cancel.set()
        if self._running:
            self._running = False
            self.scoring_cancelled.emit()

    @Slot()
    def shutdown(self, timeout_ms: int = 10_000) -> None:
        """Cancel, then stop the thread's event loop, then wait for it. Idempotent."""
        if self._shut_down:
            return
        self._shut_down = True
        if self._cancel is not None:
            self._cancel.set()
        self._running = False
        self._thread.quit()
        if not self._thread.wait(timeout_ms):
            log.warning("the scoring thread did not stop within %d ms", timeout_ms)

    # -- worker events -------------------------------------------------------------------------

    def _is_current(self, job: int) -> bool:
        return self._running and job == self._job

    @Slot(int, object)
    def _on_chunk_scored(self, job: int, chunk: Any) -> None:
        if not self._is_current(job):
            return
        self._apply(chunk)
        self.chunk_ready.emit(chunk.start, chunk.stop)
        if self._table is not None:
            self.progress_changed.emit(self._table.n_done, self._table.n_segments)
        else:
            total = 0 if self._text is None else len(self._text)
            self._delivered = min(total, self._delivered + chunk.stop - chunk.start)
            self.progress_changed.emit(self._delivered, total)

    @Slot(int)
    def _on_job_finished(self, job: int) -> None:
        self._outstanding.discard(job)
        if self._is_current(job):
            self._running = False
            self.scoring_finished.emit()

    @Slot(int)
    def _on_job_cancelled(self, job: int) -> None:
        self._outstanding.discard(job)

    @Slot(int, str)
    def _on_job_failed(self, job: int, message: str) -> None:
        self._outstanding.discard(job)
        if self._is_current(job):
            self._running = False
            self.scoring_failed.emit(message)
