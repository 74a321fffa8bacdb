"""Run a slow call (reading the input files) off the GUI thread, cancellably.

Reading six files of 100,000 lines (decoding, splitting, checking the encodings) takes a second
or more; in the GUI thread the window would not even repaint meanwhile. A
:class:`BackgroundCall` runs the call in a plain daemon thread and reports its outcome with a
signal; the event loop goes on as usual, user input included, so a Cancel button works and
closing the window ends the process without waiting for the read.

Cancelling cannot interrupt Python code in another thread: it marks the call cancelled, drops
whatever the call still returns, and hands the call a :class:`threading.Event` so that it can
stop at its next step. The thread is a daemon, so a read that never ends (a file on a hung
network mount) never keeps the process alive.
"""

from __future__ import annotations

import contextlib
import itertools
import threading
from collections.abc import Callable
from concurrent.futures import Future
from typing import Any, TypeVar

from PySide6.QtCore import QEventLoop, QObject, Qt, Signal, Slot
from PySide6.QtGui import QCursor, QGuiApplication

from matchlight.gui.workers.pacing import THREAD_NICENESS, run_nicer

__all__ = ["BackgroundCall", "ReadCancelled", "call_in_background", "future_in_thread"]

T = TypeVar("T")

# Calls whose outcome has not been delivered yet, by key. The worker thread holds only the key
# and the one carrier, which lives as long as the process: no Qt object's last reference is
# ever dropped in a worker thread, and none is deleted or disconnected while a worker emits
# through it (either crashed a test worker now and then).
_ALIVE: dict[int, BackgroundCall] = {}
_KEYS = itertools.count(1)


class ReadCancelled(Exception):
    """Raised by a call that noticed its cancel event; never reported as a failure."""


class _Carrier(QObject):
    """Carries outcomes from worker threads to the GUI thread (a queued signal), for every
    call; made once, in the GUI thread."""

    done = Signal(object, object, object)  # key, value, error

    def __init__(self) -> None:
        super().__init__()
        self.done.connect(self._deliver, Qt.ConnectionType.QueuedConnection)

    @Slot(object, object, object)
    def _deliver(self, key: int, value: object, error: object) -> None:
        call = _ALIVE.pop(key, None)
        if call is not None:
            call._on_done(value, error)


_CARRIER: list[_Carrier] = []


def _carrier() -> _Carrier:
    if not _CARRIER:
        _CARRIER.append(_Carrier())
    return _CARRIER[0]


class BackgroundCall(QObject):
    """``func(cancel)`` in a daemon thread, its outcome as a signal in the GUI thread.

    ``func`` receives a :class:`threading.Event` that is set when the call is cancelled; it may
    check it between steps and raise :class:`ReadCancelled`. It must not touch Qt objects.
    The thread runs ``niceness`` nicer than the GUI thread (:func:`~gui.workers.pacing.run_nicer`;
    0 for a call the user waits for).

    Signals:
        finished(object value): the call returned ``value`` (not emitted once cancelled).
        failed(object error): the call raised ``error`` (an exception instance).
        cancelled(): :meth:`cancel` was called while the call ran.
    """

    finished = Signal(object)
    failed = Signal(object)
    cancelled = Signal()

    def __init__(
        self,
        func: Callable[[threading.Event], Any],
        *,
        name: str = "matchlight-load",
        parent: QObject | None = None,
        niceness: int = THREAD_NICENESS,
    ) -> None:
        super().__init__(parent)
        self._func = func
        self._name = name
        self._niceness = niceness
        self._cancel = threading.Event()
        self._running = False
        self._started = False

    @property
    def running(self) -> bool:
        """True from :meth:`start` until the outcome is delivered or the call is cancelled."""
        return self._running

    def is_cancelled(self) -> bool:
        return self._cancel.is_set()

    def start(self) -> None:
        """Start the call (once)."""
        if self._started:
            raise RuntimeError("a BackgroundCall runs once")
        self._started = True
        self._running = True
        key = next(_KEYS)
        _ALIVE[key] = self
        # The thread's reference to the function goes before the outcome is sent: the call
        # (kept in _ALIVE until then) holds it too, so it never dies in the worker thread.
        carrier, held, cancel, niceness = _carrier(), [self._func], self._cancel, self._niceness

        def target() -> None:
            value: Any = None
            error: BaseException | None = None
            if niceness > 0:
                run_nicer(niceness)
            try:
                value = held.pop()(cancel)
            except BaseException as exc:  # handed to the GUI thread
                error = exc
            if cancel.is_set():
                value = error = None  # nobody wants it; drop it here
            with contextlib.suppress(RuntimeError):  # the carrier is gone: the process ends
                carrier.done.emit(key, value, error)

        threading.Thread(target=target, name=self._name, daemon=True).start()

    @Slot()
    def cancel(self) -> None:
        """Stop waiting for the call: ``cancelled`` now, and its outcome is never delivered."""
        self._cancel.set()
        if self._running:
            self._running = False
            self.cancelled.emit()

    def _on_done(self, value: object, error: object) -> None:
        if not self._running:
            return  # cancelled
        self._running = False
        if isinstance(error, ReadCancelled):
            self.cancelled.emit()
        elif isinstance(error, BaseException):
            self.failed.emit(error)
        else:
            self.finished.emit(value)


def call_in_background(func: Callable[[], T], *, name: str = "matchlight-load") -> T:
    """``func()`` in a worker thread, waited for in a local event loop; its result or its
    exception.

    The loop repaints and runs timers but holds user input back until the call returns, so the
    call cannot be cancelled: only for short calls. Reading a comparison uses
    :class:`BackgroundCall` instead.
    """
    loop = QEventLoop()
    outcome: dict[str, object] = {}

    def on_finished(value: object) -> None:
        outcome["value"] = value
        loop.quit()

    def on_failed(error: object) -> None:
        outcome["error"] = error
        loop.quit()

    call = BackgroundCall(lambda cancel: func(), name=name, niceness=0)  # the user waits
    call.finished.connect(on_finished)
    call.failed.connect(on_failed)
    QGuiApplication.setOverrideCursor(QCursor(Qt.CursorShape.BusyCursor))
    try:
        call.start()
        loop.exec(QEventLoop.ProcessEventsFlag.ExcludeUserInputEvents)
    finally:
        QGuiApplication.restoreOverrideCursor()
    error = outcome.get("error")
    if isinstance(error, BaseException):
        raise error
    return outcome["value"]  # type: ignore[return-value]


def future_in_thread(func: Callable[[], T], *, name: str) -> Future[T]:
    """``func()`` started now in a daemon thread of its own; its result (or its exception) as
    a :class:`~concurrent.futures.Future`, for a caller that asks for it later."""
    future: Future[T] = Future()

    def run() -> None:
        try:
            future.set_result(func())
        except BaseException as exc:  # handed to whoever asks for the result
            future.set_exception(exc)

    threading.Thread(target=run, name=name, daemon=True).start()
    return future
