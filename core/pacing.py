"""A pause point for threads that work in the background, so that an interactive thread goes first.

Threads that run Python share one interpreter: while a background thread runs (reading files,
say), an application's GUI thread waits for the interpreter at every call into its toolkit, and
a turn of its event loop takes several times its own work. A background thread that works in
steps calls :func:`pause` between two of them. By default that returns at once; an application
installs a gate (:func:`set_gate`) that holds the calling thread for a bounded time while its
interactive thread is busy. The gate decides how long; it must never wait without bound.

Call it holding no lock that the interactive thread may wait for (the gate would hold the thread
that the interactive one waits on, for as long as the gate's bound), or pass ``unless``, which
says True once the interactive thread waits for it: the gate lets the thread go at once.
"""

from __future__ import annotations

from collections.abc import Callable

#: A gate is called with ``unless``: it stops holding the thread as soon as that says True.
Gate = Callable[[Callable[[], bool]], None]

_gate: Gate | None = None


def _never() -> bool:
    return False


def pause(unless: Callable[[], bool] = _never) -> None:
    """Let the application's interactive thread go first (see the module's doc), unless (or
    as soon as) ``unless()`` says True: say, once the interactive thread waits for what the
    calling thread builds."""
    gate = _gate
    if gate is not None:
        gate(unless)


def set_gate(gate: Gate | None) -> Gate | None:
    """Install ``gate`` (None: pausing returns at once); returns the gate it replaces."""
    global _gate
    previous, _gate = _gate, gate
    return previous
