"""The GUI thread goes first: background threads pause while it is busy (core.pacing's gate).

A background thread that runs Python beside the GUI thread (the reader of a big comparison)
makes every turn of the event loop several times longer than its own work: the GUI thread gives
the interpreter up at each call into Qt and waits for it back. A :class:`GuiFirst`, installed
as :mod:`core.pacing`'s gate, holds such a thread at its next pause point for as long as the GUI
thread is busy: running (or waiting for a core) or waiting on a lock, the interpreter's mostly.
Linux tells every thread's current system call in ``/proc``; a GUI thread waiting for events
(``poll``), sleeping or reading a file is not busy. (The dispatcher's ``aboutToBlock``/``awake``
signals do not bracket a turn: GLib's dispatcher emits them around the wait *and* the
dispatch.) A held thread looks again ever less often, up to every :data:`LOOK_EVERY_S`; it is
held at most :data:`HOLD_LIMIT_S` at a time and then not again for as long, so that it keeps at
least half its pace while the GUI thread is busy throughout (a long computation of its own).

Work the user waits for in a thread of its own (a search of a million rows: the table shows its
rows when it is done) goes first too: while such a thread runs (:func:`interactive_work`),
background threads are held at their pause points, for at most :data:`WORK_LIMIT_S` at a time.
Without that, a background thread (the language check of a big comparison) and the search take
turns at the interpreter and the search takes twice its time.

Between pause points, the scheduler decides: a background thread runs nicer than the GUI thread
(:func:`run_nicer`, Linux, where each thread has a niceness of its own), so that the GUI thread
does not wait for a core behind the app's own workers (the reader, the language check, the
charts' computations, the scoring thread), as the scoring processes already run nicer.
"""

from __future__ import annotations

import contextlib
import os
import platform
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from matchlight.core import pacing
from matchlight.core.scoring.engine import lower_priority

# The longest a background thread is held at one pause point (then as long without a pause).
# At 0.1 s, the turns that show a big comparison's first rows (60-80 ms of the GUI thread's CPU,
# longer than the limit once it waits for a core) outlasted the hold, and the reader and the
# scoring thread ran beside their end: gaps of 100-132 ms while reading (bench_gui.py --rows
# 1000000 --open-only, three runs); at 0.25 s, 80-104 ms, the read as fast.
HOLD_LIMIT_S = 0.25
# The longest a background thread is held at one pause point while work the user waits for runs
# (:func:`interactive_work`; then as long as HOLD_LIMIT_S without a pause). A search of a million
# rows takes 0.1-0.3 s of CPU.
WORK_LIMIT_S = 1.0
# How often a held thread looks whether the GUI thread is still busy: first after FIRST_LOOK_S
# (most turns are a timer's tick), then twice as long each time up to LOOK_EVERY_S (each look
# takes the interpreter from the GUI thread for a moment).
FIRST_LOOK_S = 0.00025
LOOK_EVERY_S = 0.002
# How much nicer than the GUI thread a background thread of the app runs (run_nicer): enough that
# the GUI thread gets a core first (a niceness of 5 weighs a third of 0 in Linux's scheduler),
# not so much that a thread holding the interpreter waits long for a core behind other programs.
THREAD_NICENESS = 5
# The number of futex(2), in which a thread waits on a lock (the interpreter's: a GUI thread
# that wants it back), per machine.
_FUTEX = {"x86_64": b"202", "aarch64": b"98"}


class GuiFirst:
    """Holds background threads at :func:`core.pacing.pause` while the GUI thread is busy.

    Made in the GUI thread (the thread it watches). ``clock`` and ``sleep`` are the time's.
    """

    def __init__(
        self,
        *,
        limit_s: float = HOLD_LIMIT_S,
        work_limit_s: float = WORK_LIMIT_S,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        futex = _FUTEX.get(platform.machine())
        if futex is None:
            raise OSError(f"the futex system call's number on {platform.machine()} is unknown")
        self.limit_s, self.work_limit_s = limit_s, work_limit_s
        self._busy = (b"running", futex)
        self._clock, self._sleep = clock, sleep
        self._gui = threading.get_ident()
        self._pid = os.getpid()  # a forked child watches no thread of its own: no pauses
        self._state = os.open(f"/proc/self/task/{threading.get_native_id()}/syscall", os.O_RDONLY)
        self._free_until = threading.local()
        # The threads running work the user waits for (idents; see interactive()).
        self._interactive: set[int] = set()
        self.installed = False

    def gui_busy(self) -> bool:
        """Whether the GUI thread runs (or waits for a core) or waits on a lock."""
        try:
            state = os.pread(self._state, 64, 0).split(maxsplit=1)
        except OSError:  # never seen; a thread then goes on as without a gate
            return False
        return bool(state) and state[0] in self._busy

    def pause(self, unless: Callable[[], bool]) -> None:
        """Wait while the GUI thread is busy, at most :attr:`limit_s`, or while work the user
        waits for runs (:meth:`interactive`), at most :attr:`work_limit_s` (at once in the GUI
        thread, in such work, in a forked child, or within :attr:`limit_s` of a hold that ran
        out), and not once (or no longer) ``unless()`` says True."""
        me = threading.get_ident()
        if me == self._gui or me in self._interactive or os.getpid() != self._pid:
            return
        now = self._clock()
        if now < getattr(self._free_until, "time", now):
            return
        gui_deadline, work_deadline = now + self.limit_s, now + self.work_limit_s
        look = FIRST_LOOK_S
        while self.installed and not unless():
            working = bool(self._interactive)
            if not working and not self.gui_busy():
                return
            deadline = work_deadline if working else gui_deadline
            if now >= deadline:
                self._free_until.time = now + self.limit_s
                return
            self._sleep(min(look, deadline - now))
            look = min(2 * look, LOOK_EVERY_S)
            now = self._clock()

    @contextmanager
    def interactive(self) -> Iterator[None]:
        """Within it, the calling thread does work the user waits for: other threads are held
        at their pause points (it is not, at its own). Not nested."""
        me = threading.get_ident()
        self._interactive.add(me)  # a set's add and discard are atomic: no lock
        try:
            yield
        finally:
            self._interactive.discard(me)

    def install(self) -> None:
        """Make this the pause gate (until :meth:`uninstall`)."""
        global _current
        pacing.set_gate(self.pause)
        self.installed = True
        _current = self

    def uninstall(self) -> None:
        """No more pauses (a thread held now goes on within :data:`LOOK_EVERY_S`)."""
        global _current
        if self.installed:
            self.installed = False
            pacing.set_gate(None)
            if _current is self:
                _current = None


def run_nicer(niceness: int = THREAD_NICENESS) -> None:
    """Make the calling thread (a background thread) ``niceness`` nicer than the process's main
    (GUI) thread, if it is not already. Linux only (elsewhere a niceness is the whole
    process's); never in the main thread. A thread cannot be made less nice again: call it in a
    thread that only ever does background work."""
    if sys.platform != "linux" or threading.current_thread() is threading.main_thread():
        return
    with contextlib.suppress(OSError):
        main = os.getpriority(os.PRIO_PROCESS, os.getpid())  # the main thread's id is the pid
        lower_priority(main + niceness, threading.get_native_id())


_installed: list[GuiFirst] = []
_current: GuiFirst | None = None  # the one installed


def install_gui_first() -> GuiFirst | None:
    """Install the GUI thread's :class:`GuiFirst` (made by the first call, which must be in the
    GUI thread) and return it; None where the system cannot tell what the GUI thread does."""
    if not _installed:
        try:
            _installed.append(GuiFirst())
        except OSError:
            return None
    gate = _installed[0]
    if not gate.installed:
        gate.install()
    return gate


@contextmanager
def interactive_work() -> Iterator[None]:
    """Within it, the calling thread (a worker) does work the user waits for: the installed
    :class:`GuiFirst` holds background threads at their pause points meanwhile (nothing where
    none is installed)."""
    gate = _current
    if gate is None:
        yield
        return
    with gate.interactive():
        yield
