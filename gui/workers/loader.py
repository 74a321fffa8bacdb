"""Run a slow call (reading the input files) off the GUI thread while the window stays alive.

Reading six files of 100,000 lines (decoding, splitting, checking the encodings) takes over
half a second; in the GUI thread the window would not even repaint meanwhile.
:func:`call_in_background` runs the call in a plain thread and waits for it in a local event
loop, so callers keep their simple "returns the comparison or raises InputError" shape, and the
window keeps repainting and running its timers. User input is held back (Qt delivers it
afterwards), so nothing can start a second open while the first one reads.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import TypeVar

from PySide6.QtCore import QEventLoop, QObject, Qt, Signal
from PySide6.QtGui import QCursor, QGuiApplication

__all__ = ["call_in_background"]

T = TypeVar("T")


class _Done(QObject):
    finished = Signal()


def call_in_background(func: Callable[[], T], *, name: str = "matchlight-load") -> T:
    """``func()`` run in a worker thread; returns its result or raises its exception.

    Waits in a local event loop that processes everything but user input. ``func`` must not
    touch Qt objects.
    """
    outcome: dict[str, object] = {}
    done = _Done()
    loop = QEventLoop()
    done.finished.connect(loop.quit, Qt.ConnectionType.QueuedConnection)

    def target() -> None:
        try:
            outcome["value"] = func()
        except BaseException as exc:  # handed to the caller, in its thread
            outcome["error"] = exc
        finally:
            done.finished.emit()

    worker = threading.Thread(target=target, name=name, daemon=True)
    QGuiApplication.setOverrideCursor(QCursor(Qt.CursorShape.BusyCursor))
    try:
        worker.start()
        loop.exec(QEventLoop.ProcessEventsFlag.ExcludeUserInputEvents)
        worker.join()
    finally:
        QGuiApplication.restoreOverrideCursor()
    if "error" in outcome:
        error = outcome["error"]
        assert isinstance(error, BaseException)
        raise error
    return outcome["value"]  # type: ignore[return-value]
