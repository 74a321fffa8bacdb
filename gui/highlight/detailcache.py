"""Highlight detail for the rows on screen, computed in idle time and kept in an LRU.

The delegate asks :meth:`DetailCache.get` for every row it paints. A miss returns None at once
(the row is painted as plain text) and queues the row. The queue is drained newest-first, so
after a fast scroll the rows now on screen are computed before the ones that flew past, and it
is capped so rows long gone are dropped. Each finished row goes into the LRU and
:attr:`~DetailCache.detail_ready` tells the view to repaint it. While nobody looks at the
table (the annotation view is in front of it: :attr:`~DetailCache.defer_while`) the queue
waits, and the annotator's keys do not share the GUI thread with rows computed for it.

Ordinary rows are computed in the GUI thread, a few milliseconds at a time between other
events (:data:`SLICE_MS`), not in a worker thread. Computing a row is Python through and
through, so a thread would gain nothing under the GIL, and it cost a lot: the GUI thread gives
up the GIL at every call into Qt and then waited for it behind the thread, so a repaint while
rows were being computed took several times as long.
Only rows too long to compute between two events (:data:`HEAVY_ROW_CHARS`) go elsewhere, so
that the window is never frozen by them: to one worker process, not a thread, because a thread
computing them would hold the GIL the GUI thread needs at every call into Qt (gaps in the event
loop). Where no worker process can run, they go to a thread after all.
"""

from __future__ import annotations

import contextlib
import logging
import time
import traceback
from collections import OrderedDict
from collections.abc import Callable, Iterable, Mapping, Sequence
from concurrent.futures import Executor, Future, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from functools import partial

from PySide6.QtCore import QCoreApplication, QObject, QTimer, Signal, Slot

from matchlight.core.scoring.config import ScoringConfig
from matchlight.core.scoring.detail import RowDetail, RowDetailer, row_detail
from matchlight.core.scoring.engine import background_process_pool
from matchlight.core.text.corpus import CorpusText

log = logging.getLogger(__name__)

# Rows kept in the LRU.
DEFAULT_CAPACITY = 4096
# Queued requests kept; older ones (rows scrolled past) are dropped.
MAX_PENDING = 256
# How long one turn of computing may run before the event loop gets control back (a row
# takes about a millisecond; one that takes longer still finishes).
SLICE_MS = 8.0
# Rows whose references and outputs hold more characters than this are computed in a worker
# process (what is left is a short stretch of work in the GUI thread at most).
HEAVY_ROW_CHARS = 20_000


def row_texts(text: CorpusText, source: Sequence[str] | None, segment: int) -> dict[str, object]:
    """The keyword arguments of :meth:`core.scoring.detail.RowDetailer.row` for ``segment``."""
    return {
        "segment": segment,
        "source": None if source is None else source[segment],
        "references": [ref[segment] for ref in text.references],
        "systems": [
            (name, column[segment])
            for name, column in zip(text.system_names, text.systems, strict=True)
        ],
    }


def is_heavy(text: CorpusText, segment: int) -> bool:
    """Whether ``segment`` is too long to compute between two events (:data:`HEAVY_ROW_CHARS`)."""
    return text.row_chars(segment) > HEAVY_ROW_CHARS


def compute_ahead(
    text: CorpusText,
    source: Sequence[str] | None,
    config: ScoringConfig,
    segments: Iterable[int],
) -> dict[int, RowDetail]:
    """The detail of ``segments``, for a :class:`DetailCache` to start with (its ``ready``).

    Core only, so any thread may call it: the app computes the first screenful while the files
    are read, so that the first paint of a comparison shows its highlights at once instead of
    being painted plain and then again. Heavy rows and rows that fail are left out (the cache
    computes and reports them as usual).
    """
    detailer = RowDetailer(config)
    details: dict[int, RowDetail] = {}
    for segment in segments:
        if not 0 <= segment < len(text) or is_heavy(text, segment):
            continue
        try:
            details[segment] = detailer.row(**row_texts(text, source, segment))  # type: ignore[arg-type]
        except Exception:  # reported by the cache when the row is asked for
            log.debug("detail of segment %d not computed ahead", segment + 1, exc_info=True)
    return details


class _Delivery(QObject):
    """Carries results of the heavy-row executor to the GUI thread (queued signals)."""

    computed = Signal(int, int, object)  # generation, segment, detail
    failed = Signal(int, int, str)  # generation, segment, message
    broken = Signal(int, int)  # generation, segment: the worker process died or never started


def _deliver(delivery: _Delivery, generation: int, segment: int, future: Future[RowDetail]) -> None:
    """Hand the outcome of a heavy row to the GUI thread (runs in the executor's thread)."""
    if future.cancelled():
        return
    exc = future.exception()
    with contextlib.suppress(RuntimeError):  # the cache was deleted meanwhile
        if exc is None:
            delivery.computed.emit(generation, segment, future.result())
        elif isinstance(exc, BrokenProcessPool):
            delivery.broken.emit(generation, segment)
        else:
            log.error("highlight detail of segment %d failed: %r", segment + 1, exc)
            delivery.failed.emit(generation, segment, str(exc) or type(exc).__name__)


def _detail_thread() -> Executor:
    return ThreadPoolExecutor(1, thread_name_prefix="matchlight-detail")


class DetailCache(QObject):
    """Lazily computed :class:`~core.scoring.detail.RowDetail` per segment, LRU-cached.

    Signals:
        detail_ready(int segment): the detail of ``segment`` is now in the cache.
        detail_failed(int segment, str message): computing it raised; it is not retried until
            the configuration changes.
        cleared(): every cached detail was dropped (new configuration).
    """

    detail_ready = Signal(int)
    detail_failed = Signal(int, str)
    cleared = Signal()

    def __init__(
        self,
        text: CorpusText,
        source: Sequence[str] | None,
        config: ScoringConfig,
        parent: QObject | None = None,
        *,
        capacity: int = DEFAULT_CAPACITY,
        max_pending: int = MAX_PENDING,
        ready: Mapping[int, RowDetail] | None = None,
        heavy_executor: Callable[[], Executor] | None = None,
    ) -> None:
        super().__init__(parent)
        if source is not None and len(source) != len(text):
            raise ValueError(f"the source has {len(source)} lines but the texts have {len(text)}")
        self._text = text
        self._source = source
        self._config = config
        self._detailer = RowDetailer(config)
        self._capacity = max(1, capacity)
        self._max_pending = max(1, max_pending)
        self._cache: OrderedDict[int, RowDetail] = OrderedDict()
        self._failed: dict[int, str] = {}
        self._pending: OrderedDict[int, None] = OrderedDict()
        self._closing = False
        # Heavy rows: one worker process (a thread where no process can run); results tagged
        # with the generation of the settings.
        self._generation = 0
        self._away: set[int] = set()
        self._make_executor: Callable[[], Executor] = heavy_executor or (
            lambda: background_process_pool(1)
        )
        self._executor: Executor | None = None
        self._delivery = _Delivery(self)
        self._delivery.computed.connect(self._on_away_computed)
        self._delivery.failed.connect(self._on_away_failed)
        self._delivery.broken.connect(self._on_away_broken)
        self._timer = QTimer(self)
        self._timer.setInterval(0)
        self._timer.timeout.connect(self._work)
        # Asked of each queued row: True while nobody looks at it (the annotation view is in
        # front of the table, and it is not the current row); it then waits for resume().
        self.defer_while: Callable[[int], bool] = lambda segment: False
        for segment, detail in (ready or {}).items():
            if 0 <= segment < len(text):
                self._cache[segment] = detail
        while len(self._cache) > self._capacity:
            self._cache.popitem(last=False)

    # -- public API -------------------------------------------------------------------------

    @property
    def config(self) -> ScoringConfig:
        return self._config

    @property
    def text(self) -> CorpusText:
        return self._text

    def __len__(self) -> int:
        return len(self._cache)

    def get(self, segment: int) -> RowDetail | None:
        """The detail of ``segment``, or None if it is not ready yet (it is then scheduled)."""
        detail = self._cache.get(segment)
        if detail is not None:
            self._cache.move_to_end(segment)
            return detail
        if segment not in self._failed:
            self._schedule((segment,))
        return None

    def peek(self, segment: int) -> RowDetail | None:
        """The cached detail of ``segment`` without scheduling anything."""
        return self._cache.get(segment)

    def request(self, segments: Iterable[int]) -> None:
        """Schedule several rows (the last one is computed first)."""
        self._schedule(s for s in segments if s not in self._cache and s not in self._failed)

    def error(self, segment: int) -> str | None:
        """The user-facing message if computing ``segment`` failed."""
        return self._failed.get(segment)

    def pending(self) -> list[int]:
        """Queued segments, next to be computed first."""
        return list(reversed(self._pending))

    def set_config(self, config: ScoringConfig) -> None:
        """Use new settings: the cache and the queue are dropped."""
        self._detailer = RowDetailer(config)
        self._config = config
        self.clear()

    def clear(self) -> None:
        """Drop every cached detail (the configuration stays)."""
        self._generation += 1
        self._away.clear()
        self._pending.clear()
        self._cache.clear()
        self._failed.clear()
        self.cleared.emit()

    def shutdown(self) -> None:
        """Stop computing: the queue is dropped and nothing is queued any more."""
        self._closing = True
        self._pending.clear()
        self._timer.stop()
        self._generation += 1
        if self._executor is not None:
            self._executor.shutdown(wait=False, cancel_futures=True)

    def is_shut_down(self) -> bool:
        return self._closing

    def resume(self) -> None:
        """Compute the queued rows again (:attr:`defer_while` no longer holds)."""
        if self._pending and not self._closing and not self._timer.isActive():
            self._timer.start()

    def deferred(self, segment: int) -> bool:
        """Whether ``segment`` waits (:attr:`defer_while`; False once its owner is gone)."""
        try:
            return bool(self.defer_while(segment))
        except RuntimeError:  # the window that asked to wait was deleted
            return False

    # -- internals --------------------------------------------------------------------------

    def _schedule(self, segments: Iterable[int]) -> None:
        if self._closing:
            return
        n = len(self._text)
        pending = self._pending
        for segment in segments:
            if not 0 <= segment < n:
                raise IndexError(f"segment {segment} out of range 0..{n - 1}")
            pending[segment] = None
            pending.move_to_end(segment)
        while len(pending) > self._max_pending:
            pending.popitem(last=False)
        if pending and not self._timer.isActive():
            self._timer.start()

    @Slot()
    def _work(self) -> None:
        """Compute queued rows, newest first, for at most :data:`SLICE_MS` (those that
        :attr:`defer_while` holds back wait)."""
        deadline = time.perf_counter() + SLICE_MS / 1000
        pending = self._pending
        while pending and not self._closing:
            segment = next(reversed(pending))
            if self.deferred(segment):
                wanted = [s for s in pending if not self.deferred(s)]
                if not wanted:
                    self._timer.stop()
                    return
                segment = wanted[-1]
            del pending[segment]
            if self._heavy(segment):
                self._send_away(segment)
                continue
            self._compute(segment)
            if time.perf_counter() >= deadline:
                break
        if not pending or self._closing:
            self._timer.stop()

    def _row_texts(self, segment: int) -> dict[str, object]:
        return row_texts(self._text, self._source, segment)

    def _heavy(self, segment: int) -> bool:
        return is_heavy(self._text, segment)

    def _compute(self, segment: int) -> None:
        try:
            detail = self._detailer.row(**self._row_texts(segment))  # type: ignore[arg-type]
        except Exception as exc:  # reported as a signal, never raised into Qt
            log.error(
                "highlight detail of segment %d failed:\n%s", segment + 1, traceback.format_exc()
            )
            self._fail(segment, str(exc))
            return
        self._store(segment, detail)

    def _fail(self, segment: int, reason: str) -> None:
        message = QCoreApplication.translate(
            "DetailCache", "Could not compute the highlights of segment {0}: {reason}"
        ).format(segment + 1, reason=reason)
        self._failed[segment] = message
        self.detail_failed.emit(segment, message)

    def _store(self, segment: int, detail: RowDetail) -> None:
        self._cache[segment] = detail
        self._cache.move_to_end(segment)
        while len(self._cache) > self._capacity:
            self._cache.popitem(last=False)
        self.detail_ready.emit(segment)

    def _send_away(self, segment: int) -> None:
        if segment in self._away:
            return
        self._away.add(segment)
        texts = self._row_texts(segment)
        for _ in range(2):  # a broken pool is replaced once
            if self._executor is None:
                self._executor = self._make_executor()
            try:
                future = self._executor.submit(row_detail, self._config, **texts)
            except (BrokenProcessPool, RuntimeError, OSError) as exc:
                log.warning("heavy-row executor unusable (%s); using a thread", exc)
                self._use_thread()
                continue
            future.add_done_callback(partial(_deliver, self._delivery, self._generation, segment))
            return
        self._away.discard(segment)
        self._fail(segment, QCoreApplication.translate("DetailCache", "no worker could be started"))

    def _use_thread(self) -> None:
        """From now on, compute heavy rows in a thread (no worker process can run here)."""
        if self._executor is not None:
            self._executor.shutdown(wait=False, cancel_futures=True)
        self._executor = None
        self._make_executor = _detail_thread

    @Slot(int, int, object)
    def _on_away_computed(self, generation: int, segment: int, detail: object) -> None:
        if generation != self._generation or not isinstance(detail, RowDetail):
            return  # computed under settings that are gone
        self._away.discard(segment)
        self._store(segment, detail)

    @Slot(int, int, str)
    def _on_away_failed(self, generation: int, segment: int, message: str) -> None:
        if generation != self._generation:
            return
        self._away.discard(segment)
        self._fail(segment, message)

    @Slot(int, int)
    def _on_away_broken(self, generation: int, segment: int) -> None:
        """The worker process died (or could not start): the row again, in a thread."""
        if self._closing or generation != self._generation:
            return
        log.warning("heavy-row worker process lost; computing segment %d in a thread", segment + 1)
        self._away.discard(segment)
        self._use_thread()
        self._send_away(segment)


__all__ = [
    "DEFAULT_CAPACITY",
    "HEAVY_ROW_CHARS",
    "MAX_PENDING",
    "SLICE_MS",
    "DetailCache",
    "compute_ahead",
    "is_heavy",
    "row_texts",
]
