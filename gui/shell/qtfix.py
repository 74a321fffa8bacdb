"""Workarounds for bugs of the Qt bindings, written once for the app and its tests."""

from __future__ import annotations

import ctypes
import logging
import sys

from PySide6.QtCore import QTimer

log = logging.getLogger(__name__)

__all__ = ["guard_none_refcount"]

_NONE_GUARDED = False
_IMMORTALIZED = False


def _pyside_drops_singleton_references() -> bool:
    """Whether this PySide6 build drops a reference to ``None`` on every void call."""
    timer = QTimer()
    before = sys.getrefcount(None)
    for _ in range(20):
        timer.stop()
    return sys.getrefcount(None) < before - 10


def guard_none_refcount() -> bool:
    """Keep ``None``, ``True`` and ``False`` alive under PySide6 6.12.0 on CPython < 3.12.

    That PySide6 build drops a reference to ``None`` on every void call made from Python and on
    every ``QVariant`` that comes back as ``None``, and to ``True``/``False`` on signal emits
    and bool conversions (hundreds of references of ``None`` per repaint of the segment
    table, so ``None``'s count soon runs out). CPython 3.11 then aborts with "Fatal Python error:
    none_dealloc". pyproject.toml excludes 6.12; for a stale install this gives the three
    singletons 2**40 extra references (as CPython 3.12 makes them immortal) -- only when the
    bug is detected, only where the refcount field is where CPython keeps it. Idempotent;
    returns True when the singletons were made immortal (now or before).
    """
    global _NONE_GUARDED, _IMMORTALIZED
    if _NONE_GUARDED or sys.version_info >= (3, 12) or sys.implementation.name != "cpython":
        return _IMMORTALIZED
    _NONE_GUARDED = True
    if hasattr(sys, "gettotalrefcount"):  # a debug build: the object header differs
        return False
    if not _pyside_drops_singleton_references():
        return False
    singletons = (None, True, False)
    fields = [ctypes.c_ssize_t.from_address(id(obj)) for obj in singletons]
    # sys.getrefcount counts its own argument too.
    if any(f.value != sys.getrefcount(obj) - 1 for f, obj in zip(fields, singletons)):
        return False
    for f in fields:
        f.value += 1 << 40
    _IMMORTALIZED = True
    log.warning("PySide6 drops references to None/True/False; made them immortal")
    return True
