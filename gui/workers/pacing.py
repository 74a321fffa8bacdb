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
"""

from __future__ import annotations

import os
import platform
import threading
import time
from collections.abc import Callable

from matchlight.core import pacing

# The longest a background thread is held at one pause point (then as long without a pause).
HOLD_LIMIT_S = 0.1
# How often a held thread looks whether the GUI thread is still busy: first after FIRST_LOOK_S
# (most turns are a timer's tick), then twice as long each time up to LOOK_EVERY_S (each look
# takes the interpreter from the GUI thread for a moment).
FIRST_LOOK_S = 0.00025
LOOK_EVERY_S = 0.002
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
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        futex = _FUTEX.get(platform.machine())
        if futex is None:
            raise OSError(f"the futex system call's number on {platform.machine()} is unknown")
        self.limit_s = limit_s
        self._busy = (b"running", futex)
        self._clock, self._sleep = clock, sleep
        self._gui = threading.get_ident()
        self._pid = os.getpid()  # a forked child watches no thread of its own: no pauses
        self._state = os.open(f"/proc/self/task/{threading.get_native_id()}/syscall", os.O_RDONLY)
        self._free_until = threading.local()
        self.installed = False

    def gui_busy(self) -> bool:
        """Whether the GUI thread runs (or waits for a core) or waits on a lock."""
        try:
            state = os.pread(self._state, 64, 0).split(maxsplit=1)
        except OSError:  # never seen; a thread then goes on as without a gate
            return False
        return bool(state) and state[0] in self._busy

    def pause(self) -> None:
        """Wait while the GUI thread is busy, at most :attr:`limit_s` (at once in the GUI
        thread, in a forked child, or within :attr:`limit_s` of a hold that ran out)."""
        if threading.get_ident() == self._gui or os.getpid() != self._pid:
            return
        now = self._clock()
        if now < getattr(self._free_until, "time", now):
            return
        deadline = now + self.limit_s
        look = FIRST_LOOK_S
        while self.installed and self.gui_busy():
            now = self._clock()
            if now >= deadline:
                self._free_until.time = now + self.limit_s
                return
            self._sleep(min(look, deadline - now))
            look = min(2 * look, LOOK_EVERY_S)

    def install(self) -> None:
        """Make this the pause gate (until :meth:`uninstall`)."""
        pacing.set_gate(self.pause)
        self.installed = True

    def uninstall(self) -> None:
        """No more pauses (a thread held now goes on within :data:`LOOK_EVERY_S`)."""
        if self.installed:
            self.installed = False
            pacing.set_gate(None)


_installed: list[GuiFirst] = []


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
