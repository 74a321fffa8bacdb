"""Worker processes exit when the process they work for dies.

A scoring worker blocks on its task queue, and it holds that queue's write end itself, so when
the app or ``matchlight score`` is killed the queue never reports end-of-file: the workers, the
forkserver (which waits until every holder of its "alive" pipe is gone) and the resource tracker
(likewise) lived on indefinitely. :func:`bind_to_parent` ends that: it makes the calling
process exit as soon as its *owner*, the process that started it through
:mod:`multiprocessing`, is gone. Once the workers are gone, the forkserver and the resource
tracker see end-of-file on their pipes and exit on their own.

How, in order of preference:

* ``prctl(PR_SET_PDEATHSIG, SIGKILL)`` (Linux), when the owner is the parent process and forked
  this one from its main thread. The kernel sends the signal when the *thread* that forked the
  child exits, so a child forked from a short-lived thread would die early; that is why the
  forking thread is noted at fork time (:func:`os.register_at_fork`), and why a child whose
  parent is a forkserver (not its owner) does not use it.
* Otherwise a daemon thread that waits on the owner's sentinel (a pipe that reaches end-of-file
  when the owner exits; no polling), or, without one, polls :func:`os.getppid` every
  :data:`POLL_SECONDS`.

Importing this module also registers :func:`bind_to_parent` to run in every process that
:mod:`multiprocessing` starts from this one (``multiprocessing.util.register_after_fork``). The
scoring engine has its forkserver import this module, so every process the forkserver forks
(also those of pools without an initializer) is bound to its owner.
"""

from __future__ import annotations

import contextlib
import ctypes
import multiprocessing
import multiprocessing.connection
import multiprocessing.util
import os
import signal
import sys
import threading
import time
from typing import Final, Literal

__all__ = ["POLL_SECONDS", "Mechanism", "bind_to_parent", "binding"]

#: How a process is bound: the kernel's parent-death signal, a thread waiting on the owner's
#: sentinel, or a thread polling for a new parent process.
Mechanism = Literal["pdeathsig", "sentinel", "poll"]

#: How often the polling fallback looks at the parent process id, in seconds.
POLL_SECONDS: Final[float] = 0.5

#: ``PR_SET_PDEATHSIG`` from ``<linux/prctl.h>``.
_PR_SET_PDEATHSIG: Final[int] = 1

#: The exit status of a process whose owner died (EX_SOFTWARE would suggest a bug; this is not).
_ORPHAN_EXIT: Final[int] = 1

_bound: list[Mechanism] = []

#: Whether the fork that made this process ran on its parent's main thread; None when unknown
#: (this process was not forked from a process that had imported this module).
_forked_on_main_thread: bool | None = None
#: The same, noted in the parent just before each fork() and taken over by the child.
_forking_on_main_thread: bool | None = None


def _before_fork() -> None:
    global _forking_on_main_thread
    _forking_on_main_thread = threading.current_thread() is threading.main_thread()


def _after_fork_in_child() -> None:
    global _forked_on_main_thread
    _forked_on_main_thread = _forking_on_main_thread
    # Neither a parent-death signal nor a thread survives fork(): a child starts unbound.
    _bound.clear()


def _set_parent_death_signal(sig: int) -> bool:
    """``prctl(PR_SET_PDEATHSIG, sig)``; False where that is not available."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL(None, use_errno=True)  # this process's symbols, libc's among them
        return int(libc.prctl(_PR_SET_PDEATHSIG, sig, 0, 0, 0)) == 0
    except (OSError, AttributeError):
        return False


def _orphaned() -> None:
    os._exit(_ORPHAN_EXIT)


def _wait_for_owner(owner_pid: int, sentinel: int | None) -> None:
    """Return when the owner has exited (the body of the watchdog thread)."""
    if sentinel is not None:
        try:
            multiprocessing.connection.wait([sentinel])
            return
        except (OSError, ValueError):  # the sentinel was closed under us: poll instead
            pass
    parent = os.getppid()
    while True:
        if parent == owner_pid:
            if os.getppid() != owner_pid:  # reparented: the owner is gone
                return
        else:
            try:
                os.kill(owner_pid, 0)
            except ProcessLookupError:
                return
            except OSError:  # exists, but is not ours to signal
                pass
        time.sleep(POLL_SECONDS)


def _watchdog(owner_pid: int, sentinel: int | None) -> None:
    _wait_for_owner(owner_pid, sentinel)
    _orphaned()


def bind_to_parent() -> Mechanism:
    """Make this process exit as soon as its owner exits; return how. Idempotent.

    The owner is :func:`multiprocessing.parent_process` (for a process started by a forkserver,
    the process that asked for it, not the forkserver), else the parent process. If the owner
    is already gone, this process exits at once.
    """
    if _bound:
        return _bound[0]
    owner = multiprocessing.parent_process()
    owner_pid = owner.pid if owner is not None and owner.pid is not None else os.getppid()
    if (
        os.getppid() == owner_pid
        and _forked_on_main_thread
        and _set_parent_death_signal(signal.SIGKILL)
    ):
        # The owner may have died between fork() and prctl(): then the signal never comes.
        if os.getppid() != owner_pid:
            _orphaned()
        _bound.append("pdeathsig")
        return "pdeathsig"
    sentinel = None
    if owner is not None:
        with contextlib.suppress(ValueError, AttributeError):
            sentinel = owner.sentinel
    how: Mechanism = "sentinel" if sentinel is not None else "poll"
    threading.Thread(
        target=_watchdog, args=(owner_pid, sentinel), name="matchlight-lifeline", daemon=True
    ).start()
    _bound.append(how)
    return how


def binding() -> Mechanism | None:
    """How this process is bound to its owner, or None if :func:`bind_to_parent` was not run."""
    return _bound[0] if _bound else None


class _AfterFork:
    """The object multiprocessing's after-fork registry holds (it keeps only weak references)."""

    def bind(self) -> None:
        bind_to_parent()


_AFTER_FORK: Final[_AfterFork] = _AfterFork()

if hasattr(os, "register_at_fork"):
    os.register_at_fork(before=_before_fork, after_in_child=_after_fork_in_child)
multiprocessing.util.register_after_fork(_AFTER_FORK, _AfterFork.bind)
