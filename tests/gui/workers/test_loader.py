"""BackgroundCall: a call's outcome as a signal, cancellable, with the event loop (user input
included) running; call_in_background for short calls."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import threading
import time

import pytest
from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QPushButton

from matchlight.core.io.inputs import InputError
from matchlight.gui.workers.loader import BackgroundCall, ReadCancelled, call_in_background

TIMEOUT = 30_000


def test_the_value_arrives_as_a_signal_from_another_thread(qtbot) -> None:
    main = threading.get_ident()
    call = BackgroundCall(lambda cancel: (threading.get_ident() != main, 42))
    with qtbot.waitSignal(call.finished, timeout=TIMEOUT) as blocker:
        call.start()
        assert call.running
    assert blocker.args == [(True, 42)]
    assert not call.running


def test_an_exception_arrives_as_failed(qtbot) -> None:
    def fail(cancel) -> None:
        raise InputError("not UTF-8", "ref.txt", 3)

    call = BackgroundCall(fail)
    with (
        qtbot.assertNotEmitted(call.finished),
        qtbot.waitSignal(call.failed, timeout=TIMEOUT) as blocker,
    ):
        call.start()
    (error,) = blocker.args
    assert isinstance(error, InputError) and str(error) == "ref.txt, line 3: not UTF-8"


def test_a_cancelled_call_delivers_nothing(qtbot) -> None:
    release = threading.Event()
    seen: list[bool] = []

    def slow(cancel) -> str:
        release.wait(TIMEOUT / 1000)
        seen.append(cancel.is_set())
        return "late"

    call = BackgroundCall(slow)
    call.start()
    with qtbot.waitSignal(call.cancelled, timeout=TIMEOUT):
        call.cancel()
    assert not call.running and call.is_cancelled()
    with qtbot.assertNotEmitted(call.finished, wait=200), qtbot.assertNotEmitted(call.failed):
        release.set()
        qtbot.waitUntil(lambda: seen == [True], timeout=TIMEOUT)


def test_a_call_may_stop_itself_when_cancelled(qtbot) -> None:
    steps: list[int] = []
    started = threading.Event()

    def stepwise(cancel) -> None:
        for step in range(1000):
            started.set()
            if cancel.is_set():
                raise ReadCancelled()
            steps.append(step)
            time.sleep(0.01)

    call = BackgroundCall(stepwise)
    call.start()
    assert started.wait(TIMEOUT / 1000)
    call.cancel()
    count = len(steps)
    qtbot.wait(200)
    assert len(steps) <= count + 1  # it stopped at its next step
    assert len(steps) < 1000


def test_user_input_goes_through_while_the_call_runs(qtbot) -> None:
    """A Cancel button works during the call (a local event loop would hold the click)."""
    release = threading.Event()
    call = BackgroundCall(lambda cancel: release.wait(TIMEOUT / 1000))
    button = QPushButton("Cancel")
    qtbot.addWidget(button)
    button.clicked.connect(call.cancel)
    button.show()
    call.start()
    with qtbot.waitSignal(call.cancelled, timeout=TIMEOUT):
        qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
    release.set()


def test_a_call_runs_once(qtbot) -> None:
    call = BackgroundCall(lambda cancel: None)
    with qtbot.waitSignal(call.finished, timeout=TIMEOUT):
        call.start()
    with pytest.raises(RuntimeError, match="once"):
        call.start()


def test_a_call_that_never_ends_does_not_keep_the_process_alive(tmp_path) -> None:
    """The thread is a daemon: quitting the app while a read hangs ends the process."""
    script = tmp_path / "hang.py"
    script.write_text(
        textwrap.dedent(
            """
            import threading
            from PySide6.QtCore import QTimer
            from PySide6.QtWidgets import QApplication
            from matchlight.gui.workers.loader import BackgroundCall

            app = QApplication([])
            call = BackgroundCall(lambda cancel: threading.Event().wait())  # forever
            call.start()
            QTimer.singleShot(200, app.quit)
            raise SystemExit(app.exec())
            """
        ),
        encoding="utf-8",
    )
    result = subprocess.run(
        [sys.executable, str(script)],
        env={**os.environ, "QT_QPA_PLATFORM": "offscreen"},
        capture_output=True,
        text=True,
        timeout=120,  # a hang guard: the call itself never ends
        check=False,
    )
    assert result.returncode == 0, result.stderr


# -- call_in_background (short calls) ------------------------------------------------------------


def test_returns_the_result_computed_in_another_thread(qtbot) -> None:
    main = threading.get_ident()
    assert call_in_background(lambda: (threading.get_ident() != main, 42)) == (True, 42)


def test_raises_the_calls_exception_in_the_caller(qtbot) -> None:
    def fail() -> None:
        raise InputError("ref.txt, line 3: not UTF-8")

    with pytest.raises(InputError, match="line 3"):
        call_in_background(fail)


def test_timers_keep_running_while_the_call_runs(qtbot) -> None:
    ticks = threading.Semaphore(0)
    timer = QTimer()
    timer.setInterval(10)
    timer.timeout.connect(lambda: ticks.release())
    timer.start()  # it cannot fire before the call: nothing runs the event loop until then

    def three_ticks() -> bool:
        """The call ends once the GUI thread's timer has fired three times during it; run in the
        GUI thread it would wait for nothing (the guard: False after 30 s)."""
        return all(ticks.acquire(timeout=30) for _ in range(3))

    try:
        assert call_in_background(three_ticks)
    finally:
        timer.stop()


def test_thousands_of_short_calls_in_a_row_do_not_crash(tmp_path) -> None:
    """The worker thread never drops the last reference to a Qt object: it once did, now and
    then, when the caller had already let go of the call (a segmentation fault within a few
    hundred calls, which crashed a CI worker)."""
    script = tmp_path / "many.py"
    script.write_text(
        textwrap.dedent(
            """
            import threading
            from PySide6.QtWidgets import QApplication
            from matchlight.gui.workers import loader

            app = QApplication([])
            main = threading.get_ident()
            for _ in range(3000):
                assert loader.call_in_background(lambda: threading.get_ident() != main)
            print(len(loader._ALIVE))
            """
        ),
        encoding="utf-8",
    )
    result = subprocess.run(
        [sys.executable, "-X", "faulthandler", str(script)],
        env={**os.environ, "QT_QPA_PLATFORM": "offscreen"},
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert (result.returncode, result.stdout) == (0, "0\n"), result.stderr[-2000:]


def _niceness(cancel=None) -> int:
    """The calling thread's own niceness (Linux: each thread is a task of its own)."""
    return os.getpriority(os.PRIO_PROCESS, threading.get_native_id())


@pytest.mark.skipif(sys.platform != "linux", reason="only Linux gives each thread a niceness")
def test_a_background_call_runs_nicer_than_the_gui_thread_unless_the_user_waits(qtbot) -> None:
    """So that the GUI thread gets a core first (gui.workers.pacing.run_nicer); a call the user
    waits for (a search, a modal call) runs as nice as the GUI thread."""
    from matchlight.gui.workers.pacing import THREAD_NICENESS

    main = _niceness()
    values = []
    for niceness in (THREAD_NICENESS, 0):
        call = BackgroundCall(_niceness, niceness=niceness)
        with qtbot.waitSignal(call.finished, timeout=TIMEOUT) as blocker:
            call.start()
        values.append(blocker.args[0])
    assert values == [min(main + THREAD_NICENESS, 19), main]
    assert call_in_background(_niceness) == main
    assert _niceness() == main  # never the GUI thread itself
