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
import threading
from collections.abc import Callable
from typing import Any, TypeVar

from PySide6.QtCore import QEventLoop, QObject, Qt, Signal, Slot
from PySide6.QtGui import QCursor, QGuiApplication

__all__ = ["BackgroundCall", "ReadCancelled", "call_in_background"]

T = TypeVar("T")

# Calls whose outcome has not been delivered yet: the thread only ever holds a reference to
# the carrier, never the last one, so Qt objects are destroyed in the GUI thread.
_ALIVE: set[BackgroundCall] = set()


class ReadCancelled(Exception):
    """Raised by a call that noticed its cancel event; never reported as a failure."""


class _Carrier(QObject):
    """Carries the outcome from the worker thread to the GUI thread (a queued signal)."""

    done = Signal(object, object)  # value, error


class BackgroundCall(QObject):
    """``func(cancel)`` in a daemon thread, its outcome as a signal in the GUI thread.

    ``func`` receives a :class:`threading.Event` that is set when the call is cancelled; it may
    check it between steps and raise :class:`ReadCancelled`. It must not touch Qt objects.

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
    ) -> None:
        super().__init__(parent)
        self._func = func
        self._name = name
        self._cancel = threading.Event()
        self._carrier = _Carrier()
        self._carrier.done.connect(self._on_done)
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
        _ALIVE.add(self)
        carrier, func, cancel = self._carrier, self._func, self._cancel

        def target() -> None:
            value: Any = None
            error: BaseException | None = None
            try:
                value = func(cancel)
            except BaseException as exc:  # handed to the GUI thread
                error = exc
            if cancel.is_set():
                value = error = None  # nobody wants it; drop it here
            with contextlib.suppress(RuntimeError):  # the carrier is gone: the app quit
                carrier.done.emit(value, error)

        threading.Thread(target=target, name=self._name, daemon=True).start()

    @Slot()
    def cancel(self) -> None:
        """Stop waiting for the call: ``cancelled`` now, and its outcome is never delivered."""
        self._cancel.set()
        if self._running:
            self._running = False
            self.cancelled.emit()

    @Slot(object, object)
    def _on_done(self, value: object, error: object) -> None:
        _ALIVE.discard(self)
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

    call = BackgroundCall(lambda cancel: func(), name=name)
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
