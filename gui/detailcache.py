"""Highlight detail for the rows on screen, computed off the GUI thread and kept in an LRU.

The delegate asks :meth:`DetailCache.get` for every row it paints. A miss returns None at once
(the row is painted as plain text) and queues the row; one background runnable drains the
queue newest-first, so after a fast scroll the rows now on screen are computed before the ones
that flew past, and the queue is capped so rows long gone are dropped. Each finished row arrives
in the GUI thread through a queued signal, goes into the LRU, and :attr:`~DetailCache.detail_ready`
tells the view to repaint it.

The runnable only reads immutable strings and calls :class:`core.detail.RowDetailer`; it never
touches a widget.
"""

from __future__ import annotations

import logging
import threading
import traceback
from collections import OrderedDict
from collections.abc import Iterable, Sequence

from PySide6.QtCore import QObject, QRunnable, QThreadPool, QTimer, Signal, Slot

from core.config import ScoringConfig
from core.detail import RowDetail, RowDetailer
from core.engine import CorpusText

log = logging.getLogger(__name__)

#: Rows kept in the LRU.
DEFAULT_CAPACITY = 4096
#: Queued requests kept; older ones (rows scrolled past) are dropped.
MAX_PENDING = 256


class _DetailSignals(QObject):
    """Signals of the background runnable (a QRunnable is not a QObject).

    Signals:
        computed(int generation, int segment, object detail): one row is done.
        failed(int generation, int segment, str message): core raised on one row.
    """

    computed = Signal(int, int, object)
    failed = Signal(int, int, str)


class _Queue:
    """State shared by the GUI thread and the runnable; every field is guarded by ``lock``."""

    def __init__(self, text: CorpusText, source: Sequence[str] | None, config: ScoringConfig):
        self.lock = threading.Lock()
        self.text = text
        self.source = source
        self.detailer = RowDetailer(config)
        self.generation = 0
        self.pending: OrderedDict[int, None] = OrderedDict()
        self.in_flight: tuple[int, int] | None = None  # (generation, segment)
        self.running = False
        self.closing = False

    def take(self) -> tuple[int, int, RowDetailer] | None:
        """The newest pending request, or None (and mark the runnable stopped)."""
        with self.lock:
            if self.closing or not self.pending:
                self.running = False
                self.in_flight = None
                return None
            segment, _ = self.pending.popitem(last=True)
            self.in_flight = (self.generation, segment)
            return self.generation, segment, self.detailer


class _DetailRunnable(QRunnable):
    def __init__(self, queue: _Queue, signals: _DetailSignals) -> None:
        super().__init__()
        self._queue = queue
        self._signals = signals

    def run(self) -> None:
        queue = self._queue
        text = queue.text
        source = queue.source
        while True:
            job = queue.take()
            if job is None:
                return
            generation, segment, detailer = job
            try:
                detail = detailer.row(
                    segment=segment,
                    source=None if source is None else source[segment],
                    references=[ref[segment] for ref in text.references],
                    systems=[
                        (name, column[segment])
                        for name, column in zip(text.system_names, text.systems, strict=True)
                    ],
                )
            except Exception as exc:  # reported as a signal, never raised into Qt
                log.error(
                    "highlight detail of segment %d failed:\n%s",
                    segment + 1,
                    traceback.format_exc(),
                )
                message = f"Could not compute the highlights of segment {segment + 1}: {exc}"
                self._signals.failed.emit(generation, segment, message)
                continue
            self._signals.computed.emit(generation, segment, detail)


class DetailCache(QObject):
    """Lazily computed :class:`~core.detail.RowDetail` per segment, LRU-cached.

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
        pool: QThreadPool | None = None,
    ) -> None:
        """``pool``: the thread pool to run on (default: a private one with one thread)."""
        super().__init__(parent)
        if source is not None and len(source) != len(text):
            raise ValueError(f"the source has {len(source)} lines but the texts have {len(text)}")
        self._text = text
        self._config = config
        self._capacity = max(1, capacity)
        self._max_pending = max(1, max_pending)
        self._cache: OrderedDict[int, RowDetail] = OrderedDict()
        self._failed: dict[int, str] = {}
        self._queue = _Queue(text, source, config)
        self._signals = _DetailSignals(self)
        self._signals.computed.connect(self._on_computed)
        self._signals.failed.connect(self._on_failed)
        if pool is None:
            pool = QThreadPool(self)
            pool.setMaxThreadCount(1)
            pool.setExpiryTimeout(2000)
        self._pool = pool

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
        with self._queue.lock:
            return list(reversed(self._queue.pending))

    def set_config(self, config: ScoringConfig) -> None:
        """Use new settings: the cache and the queue are dropped."""
        detailer = RowDetailer(config)
        with self._queue.lock:
            self._queue.generation += 1
            self._queue.detailer = detailer
            self._queue.pending.clear()
        self._config = config
        self._cache.clear()
        self._failed.clear()
        self.cleared.emit()

    def clear(self) -> None:
        """Drop every cached detail (the configuration stays)."""
        with self._queue.lock:
            self._queue.generation += 1
            self._queue.pending.clear()
        self._cache.clear()
        self._failed.clear()
        self.cleared.emit()

    def shutdown(self) -> None:
        """Cancel queued work and wait for the row being computed (call on close/quit)."""
        with self._queue.lock:
            self._queue.closing = True
            self._queue.pending.clear()
        self._pool.waitForDone()

    def is_shut_down(self) -> bool:
        return self._queue.closing

    # -- internals --------------------------------------------------------------------------

    def _schedule(self, segments: Iterable[int]) -> None:
        n = len(self._text)
        queue = self._queue
        start = False
        with queue.lock:
            if queue.closing:
                return
            pending = queue.pending
            for segment in segments:
                if not 0 <= segment < n:
                    raise IndexError(f"segment {segment} out of range 0..{n - 1}")
                if queue.in_flight == (queue.generation, segment):
                    continue
                pending[segment] = None
                pending.move_to_end(segment)
            while len(pending) > self._max_pending:
                pending.popitem(last=False)
            if pending and not queue.running:
                queue.running = True
                start = True
        if start:
            # Started on the next turn of the event loop, not right away: requests come from
            # the delegate while it paints, and a thread computing rows meanwhile competes with
            # that paint for the GIL (measured: a table repaint went from ~15 to ~40 ms).
            QTimer.singleShot(0, self._start_runnable)

    @Slot()
    def _start_runnable(self) -> None:
        queue = self._queue
        with queue.lock:
            if queue.closing:
                queue.running = False
                return
        self._pool.start(_DetailRunnable(queue, self._signals))

    @Slot(int, int, object)
    def _on_computed(self, generation: int, segment: int, detail: object) -> None:
        if generation != self._queue.generation or not isinstance(detail, RowDetail):
            return
        self._cache[segment] = detail
        self._cache.move_to_end(segment)
        while len(self._cache) > self._capacity:
            self._cache.popitem(last=False)
        self.detail_ready.emit(segment)

    @Slot(int, int, str)
    def _on_failed(self, generation: int, segment: int, message: str) -> None:
        if generation != self._queue.generation:
            return
        self._failed[segment] = message
        self.detail_failed.emit(segment, message)


__all__ = ["DEFAULT_CAPACITY", "MAX_PENDING", "DetailCache"]
