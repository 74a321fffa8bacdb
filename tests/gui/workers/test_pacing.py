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


def test_a_hold_that_ran_out_is_followed_by_as_long_without_one(gate) -> None:
    """The GUI thread busy throughout: a thread is held for the limit, then passes its pause
    points freely for as long, then is held again."""
    now = [0.0]
    slept: list[float] = []

    def sleep(seconds: float) -> None:
        slept.append(seconds)
        now[0] += seconds

    gate(0.1, clock=lambda: now[0], sleep=sleep)
    done = threading.Event()
    times: list[float] = []

    def run() -> None:
        for step in (0.0, 0.05, 0.049, 0.002):
            now[0] += step
            pacing.pause()
            times.append(round(now[0], 6))
        done.set()

    thread = threading.Thread(target=run, daemon=True)
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
