"""GuiFirst: background threads that reach core.pacing's pause point while the GUI thread is
busy (running, or waiting on a lock) wait until it waits for events again, or at most the gate's
limit; the GUI thread itself never waits there."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator

import pytest
from PySide6.QtCore import QEventLoop, QTimer

from matchlight.core import pacing
from matchlight.gui.workers import pacing as gui_pacing
from matchlight.gui.workers.pacing import GuiFirst

TIMEOUT_S = 30.0


@pytest.fixture
def gate(qapp) -> Iterator[Callable[..., GuiFirst]]:
    made: list[GuiFirst] = []
    previous = pacing.set_gate(None)

    def make(limit_s: float, **kwargs) -> GuiFirst:
        try:
            gui_first = GuiFirst(limit_s=limit_s, **kwargs)
        except OSError as error:
            pytest.skip(str(error))
        gui_first.install()
        made.append(gui_first)
        return gui_first

    yield make
    for gui_first in made:
        gui_first.uninstall()
    pacing.set_gate(previous)


def _in_a_turn(turn: Callable[[], None]) -> None:
    """Run ``turn`` as a timer's callback in an event loop that waits for events, as the
    app's does."""
    loop = QEventLoop()

    def run() -> None:
        try:
            turn()
        finally:
            loop.quit()

    QTimer.singleShot(0, run)
    loop.exec()


def _passed_in_a_turn(
    wait: Callable[[threading.Event], bool],
) -> tuple[bool, threading.Event, threading.Thread]:
    """Start a thread that passes the pause point, in a turn of the GUI thread that then
    ``wait``s on the thread's event: whether it had passed by the turn's end, the event, the
    thread."""
    passed = threading.Event()

    def run() -> None:
        pacing.pause()
        passed.set()

    thread = threading.Thread(target=run, daemon=True)
    seen: list[bool] = []

    def turn() -> None:
        thread.start()
        seen.append(wait(passed))

    _in_a_turn(turn)
    return seen == [True], passed, thread


def test_a_thread_waits_at_its_pause_point_while_the_gui_thread_is_busy(gate) -> None:
    gate(3600.0)
    # However long the turn (here the GUI thread waits on a lock), the thread is held.
    went_on, passed, thread = _passed_in_a_turn(lambda passed: passed.wait(0.3))
    assert not went_on
    # The event loop waits for events again: the thread goes on.
    loop = QEventLoop()
    timer = QTimer()
    timer.timeout.connect(lambda: passed.is_set() and loop.quit())
    timer.start(10)
    QTimer.singleShot(int(TIMEOUT_S * 1000), loop.quit)
    loop.exec()
    assert passed.is_set()
    thread.join(TIMEOUT_S)


def _sleeping(passed: threading.Event) -> bool:
    for _ in range(3000):
        if passed.is_set():
            break
        time.sleep(0.01)
    return passed.is_set()


def test_a_held_thread_goes_on_once_what_it_builds_is_waited_for(gate) -> None:
    """``pause(unless)``: a thread held while the GUI thread is busy goes on as soon as
    ``unless()`` says True (somebody waits for what it builds), though the GUI thread is still
    busy."""
    gate(3600.0)
    waited_for, passed = threading.Event(), threading.Event()

    def run() -> None:
        pacing.pause(waited_for.is_set)
        passed.set()

    thread = threading.Thread(target=run, daemon=True)
    seen: list[bool] = []

    def turn() -> None:  # busy throughout: waiting on the thread's event
        thread.start()
        seen.append(passed.wait(0.3))
        waited_for.set()
        seen.append(passed.wait(TIMEOUT_S))

    _in_a_turn(turn)
    assert seen == [False, True]
    thread.join(TIMEOUT_S)


def test_a_gui_thread_that_sleeps_holds_no_one(gate) -> None:
    """Asleep (or waiting for events, or reading a file) the GUI thread does not want the
    interpreter: a thread at its pause point goes on."""
    gate(3600.0)
    went_on, _, thread = _passed_in_a_turn(_sleeping)
    assert went_on
    thread.join(TIMEOUT_S)


def test_a_thread_is_held_no_longer_than_the_limit(gate) -> None:
    gate(0.0)
    went_on, _, thread = _passed_in_a_turn(lambda passed: passed.wait(TIMEOUT_S))
    assert went_on  # while the turn goes on
    thread.join(TIMEOUT_S)


def _pausing_at(now: list[float]) -> tuple[threading.Thread, threading.Event, list[float]]:
    """A thread (not started) that moves the fake clock ``now`` on by 0, 0.05, 0.049 and 0.002 s,
    passing the pause point after each step: the clock's times as it passed, and an event set
    once it is done."""
    done = threading.Event()
    times: list[float] = []

    def run() -> None:
        for step in (0.0, 0.05, 0.049, 0.002):
            now[0] += step
            pacing.pause()
            times.append(round(now[0], 6))
        done.set()

    return threading.Thread(target=run, daemon=True), done, times


def test_a_hold_that_ran_out_is_followed_by_as_long_without_one(gate) -> None:
    """The GUI thread busy throughout: a thread is held for the limit, then passes its pause
    points freely for as long, then is held again."""
    now = [0.0]
    slept: list[float] = []

    def sleep(seconds: float) -> None:
        slept.append(seconds)
        now[0] += seconds

    gate(0.1, clock=lambda: now[0], sleep=sleep)
    thread, done, times = _pausing_at(now)
    _in_a_turn(lambda: (thread.start(), done.wait(TIMEOUT_S)))
    # held 0 -> 0.1, free until 0.2 (0.15, 0.199), held again from 0.201 to 0.301
    assert times == [0.1, 0.15, 0.199, 0.301]
    assert all(0 < s <= gui_pacing.LOOK_EVERY_S for s in slept)
    thread.join(TIMEOUT_S)


def test_the_gui_thread_never_waits_at_the_pause_point(gate) -> None:
    slept: list[float] = []
    gate(3600.0, sleep=slept.append)
    _in_a_turn(pacing.pause)
    assert slept == []


def test_an_uninstalled_gate_holds_no_one(gate) -> None:
    gate(3600.0).uninstall()
    went_on, _, thread = _passed_in_a_turn(lambda passed: passed.wait(TIMEOUT_S))
    assert went_on
    thread.join(TIMEOUT_S)


def test_a_thread_waits_while_work_the_user_waits_for_runs(gate) -> None:
    """A worker doing work the user waits for (a search of many rows) goes first: a thread at
    its pause point waits until that work ends, though the GUI thread is idle."""
    gate(3600.0, work_limit_s=3600.0)
    working, release, passed = threading.Event(), threading.Event(), threading.Event()
    own_pause_passed = threading.Event()

    def work() -> None:
        with gui_pacing.interactive_work():
            working.set()
            pacing.pause()  # the work's own pause points never hold it
            own_pause_passed.set()
            release.wait(TIMEOUT_S)

    def background() -> None:
        working.wait(TIMEOUT_S)
        pacing.pause()
        passed.set()

    worker = threading.Thread(target=work, daemon=True)
    other = threading.Thread(target=background, daemon=True)
    worker.start()
    other.start()
    assert _sleeping(own_pause_passed)  # asleep, the GUI thread holds no one
    for _ in range(30):  # 0.3 s: the GUI thread sleeps, the work runs
        time.sleep(0.01)
    assert not passed.is_set()
    release.set()
    assert _sleeping(passed)
    worker.join(TIMEOUT_S)
    other.join(TIMEOUT_S)


def test_work_the_user_waits_for_holds_a_thread_no_longer_than_its_limit(gate) -> None:
    """Held for the work's limit, then free for the gate's limit, then held again."""
    now = [0.0]

    def sleep(seconds: float) -> None:
        now[0] += seconds

    gate(0.1, work_limit_s=0.5, clock=lambda: now[0], sleep=sleep)
    working, release = threading.Event(), threading.Event()

    def work() -> None:
        with gui_pacing.interactive_work():
            working.set()
            release.wait(TIMEOUT_S)

    worker = threading.Thread(target=work, daemon=True)
    worker.start()
    working.wait(TIMEOUT_S)
    thread, done, times = _pausing_at(now)
    thread.start()
    assert done.wait(TIMEOUT_S)
    # held 0 -> 0.5, free until 0.6 (0.55, 0.599), held again from 0.601 to 1.101
    assert times == [0.5, 0.55, 0.599, 1.101]
    release.set()
    worker.join(TIMEOUT_S)
    thread.join(TIMEOUT_S)


def test_without_a_gate_work_the_user_waits_for_holds_no_one(gate) -> None:
    gate(3600.0, work_limit_s=3600.0).uninstall()
    passed = threading.Event()
    with gui_pacing.interactive_work():
        thread = threading.Thread(target=lambda: (pacing.pause(), passed.set()), daemon=True)
        thread.start()
        assert _sleeping(passed)
    thread.join(TIMEOUT_S)
