"""call_in_background: the result or the exception of a call, with the event loop running."""

from __future__ import annotations

import threading
import time

import pytest
from PySide6.QtCore import QTimer

from matchlight.core.io.inputs import InputError
from matchlight.gui.workers.loader import call_in_background


def test_returns_the_result_computed_in_another_thread(qtbot) -> None:
    main = threading.get_ident()
    assert call_in_background(lambda: (threading.get_ident() != main, 42)) == (True, 42)


def test_raises_the_calls_exception_in_the_caller(qtbot) -> None:
    def fail() -> None:
        raise InputError("ref.txt, line 3: not UTF-8")

    with pytest.raises(InputError, match="line 3"):
        call_in_background(fail)


def test_timers_keep_running_while_the_call_runs(qtbot) -> None:
    ticks: list[float] = []
    timer = QTimer()
    timer.setInterval(10)
    timer.timeout.connect(lambda: ticks.append(time.monotonic()))
    timer.start()
    try:
        started = time.monotonic()
        call_in_background(lambda: time.sleep(0.4))
        ended = time.monotonic()
    finally:
        timer.stop()
    during = [t for t in ticks if started <= t <= ended]
    # In the GUI thread the sleep would have let no tick through at all.
    assert len(during) >= 3
