"""Files kept between runs in the user's cache folder, so that a command starts faster.

A cached file is a shortcut, never a source of truth: each is named by the key of what it was
made from (a model's content, the settings that shape it), carries the SHA-256 of its data and
is checked when read. A file is read by mapping it into memory, so that what is read copies
nothing (and worker processes forked after share its pages). A missing, stale (another key),
unreadable or corrupt one is ignored and the caller makes the value again; a folder that cannot
be written only means no cache. Files are written atomically (:mod:`core.io.safewrite`), never
in place (a mapped file is never changed under its reader); older keys of the same name are
removed.

The folder is ``$MATCHLIGHT_CACHE_DIR`` when set (empty: no cache at all), else the platform's
cache folder (``$XDG_CACHE_HOME`` or ``~/.cache`` on Linux) under ``matchlight``. Deleting it
is always safe.
"""

from __future__ import annotations

import contextlib
import hashlib
import mmap
import os
import stat
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from matchlight.core.io.safewrite import write_file_atomic

__all__ = ["CACHE_ENV", "MAX_CACHE_BYTES", "UserCache", "cache_folder", "user_cache"]

#: The environment variable that names the cache folder (empty: no cache).
CACHE_ENV: Final = "MATCHLIGHT_CACHE_DIR"
#: The largest cached file read back.
MAX_CACHE_BYTES: Final = 512 << 20
#: What a cached file starts with, then the SHA-256 of the data after it.
_MAGIC: Final = b"matchlight-cache-1\n"
_DIGEST: Final = hashlib.sha256().digest_size


def cache_folder() -> Path | None:
    """Where cached files are kept (None: nowhere, ``$MATCHLIGHT_CACHE_DIR`` is empty)."""
    chosen = os.environ.get(CACHE_ENV)
    if chosen is not None:
        return Path(chosen) if chosen else None
    if sys.platform == "win32":
        base = Path(os.environ.get("LOCALAPPDATA") or Path.home() / "AppData" / "Local")
    elif sys.platform == "darwin":
        base = Path.home() / "Library" / "Caches"
    else:
        base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return base / "matchlight"


@dataclass(frozen=True, slots=True)
class UserCache:
    """Cached data in ``folder``, by name and key (both plain file-name characters)."""

    folder: Path

    def path(self, name: str, key: str) -> Path:
        return self.folder / f"{name}-{key}.bin"

    def get(self, name: str, key: str) -> memoryview | None:
        """The data stored under ``name`` and ``key``: a read-only view of the file mapped into
        memory (nothing is copied; the mapping lasts while the view or anything made from it
        is referenced). None when there is none, or it is not a regular file of at most
        :data:`MAX_CACHE_BYTES`, or it cannot be read, or it is not what was stored (its
        checksum differs)."""
        head = len(_MAGIC) + _DIGEST
        path = self.path(name, key)
        try:
            if not stat.S_ISREG(os.stat(path).st_mode):
                return None  # opening a FIFO would wait for a writer
            fd = os.open(path, os.O_RDONLY | getattr(os, "O_BINARY", 0))
            try:
                size = os.fstat(fd).st_size
                if not head <= size <= MAX_CACHE_BYTES:
                    return None
                mapped = mmap.mmap(fd, size, access=mmap.ACCESS_READ)
            finally:
                os.close(fd)
        except (OSError, ValueError):
            return None
        raw = memoryview(mapped)
        if raw[: len(_MAGIC)] != _MAGIC:
            return None
        data = raw[head:]
        if hashlib.sha256(data).digest() != raw[len(_MAGIC) : head]:
            return None
        return data

    def put(self, name: str, key: str, data: bytes) -> None:
        """Store ``data`` under ``name`` and ``key`` (atomically), and remove the files of
        ``name`` under other keys. Failing to write is not an error: nothing is cached."""
        with contextlib.suppress(OSError):
            self.folder.mkdir(parents=True, exist_ok=True)
            target = self.path(name, key)
            write_file_atomic(target, _MAGIC + hashlib.sha256(data).digest() + data)
            for old in self.folder.glob(f"{name}-*.bin"):
                if old != target:
                    old.unlink(missing_ok=True)


def user_cache() -> UserCache | None:
    """The user's cache (None: caching is turned off)."""
    folder = cache_folder()
    return None if folder is None else UserCache(folder)
