"""Whether a session file is ours to write: one writer at a time, and the same file we opened.

Two rules keep a session from losing work to another program:

* **One writer.** A session opened for writing holds an exclusive ``flock`` on the file through a
  descriptor of its own (:class:`WriteLock`). ``flock`` locks belong to that open file
  description, not to the process or the path: another process opening, copying or closing its
  own copy of the file leaves the lock alone, and a second open for writing, in this process or
  any other, is refused. (SQLite's own locks are POSIX record locks, which ``flock`` does not
  touch on Linux.)
* **Still ours.** Before each commit the store compares the file at the path with the one it
  opened (:meth:`WriteLock.check`): another inode there (replaced by a rename), no file there
  (deleted or moved away), or a size or change time that is not the one its own last commit left
  (overwritten in place by ``cp``) means the file is no longer the session's, and nothing more may
  be written into it.

Where ``fcntl`` is missing (Windows), the lock is a no-op and only the identity checks remain.
"""

from __future__ import annotations

import contextlib
import os
import stat
from dataclasses import dataclass
from typing import Final

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows
    fcntl = None  # type: ignore[assignment]

__all__ = ["FileState", "WriteLock", "held_elsewhere", "held_here"]

_OPEN_FLAGS: Final = os.O_RDONLY | getattr(os, "O_CLOEXEC", 0)

#: The files this process holds locks on, by (device, inode). Probing one of them needs no
#: descriptor: closing any descriptor of a file drops every POSIX lock this process holds on it,
#: SQLite's included, so a probe never opens a file that this process has open for writing.
_HELD: set[tuple[int, int]] = set()


@dataclass(frozen=True, slots=True)
class FileState:
    """What identifies a file's current content without reading it."""

    device: int
    inode: int
    size: int
    modified_ns: int
    changed_ns: int

    @classmethod
    def of(cls, result: os.stat_result) -> FileState:
        return cls(
            result.st_dev, result.st_ino, result.st_size, result.st_mtime_ns, result.st_ctime_ns
        )

    def same_file(self, other: FileState) -> bool:
        return (self.device, self.inode) == (other.device, other.inode)


class WriteLock:
    """The exclusive lock a writable session holds on its file, and the file's identity.

    Raises :class:`BlockingIOError` when another descriptor holds the lock (the file is open
    for writing elsewhere), :class:`OSError` when the file cannot be opened.
    """

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = os.fspath(path)
        fd = os.open(self.path, _OPEN_FLAGS)
        try:
            if not stat.S_ISREG(os.fstat(fd).st_mode):
                raise OSError(f"{self.path}: not a regular file")
            if fcntl is not None:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BaseException:
            os.close(fd)
            raise
        self._fd: int | None = fd
        self._expected = FileState.of(os.fstat(fd))
        self._key = (self._expected.device, self._expected.inode)
        _HELD.add(self._key)

    @property
    def held(self) -> bool:
        return self._fd is not None

    def settle(self) -> None:
        """Note the file as our own last write left it (after each commit)."""
        if self._fd is not None:
            self._expected = FileState.of(os.fstat(self._fd))

    def check(self, *, content: bool = True) -> str | None:
        """Why the file at the path is no longer the one we hold, or None while it is.

        ``content=False`` only asks whether the path still holds our file (not deleted, moved
        or replaced by another): while our own checkpoint writes into it, its size and times
        are changing under our hand, and another program's writing cannot be told apart."""
        if self._fd is None:
            return "the session is closed"
        try:
            here = FileState.of(os.stat(self.path))
        except FileNotFoundError:
            return "the session file was deleted or moved away"
        except OSError as exc:
            return f"the session file cannot be checked ({exc.strerror or exc})"
        if not here.same_file(self._expected):
            return "the session file was replaced by another file"
        if content and (here.size, here.modified_ns, here.changed_ns) != (
            self._expected.size,
            self._expected.modified_ns,
            self._expected.changed_ns,
        ):
            return "the session file was changed by another program"
        return None

    def release(self) -> None:
        fd, self._fd = self._fd, None
        if fd is not None:
            _HELD.discard(self._key)
            os.close(fd)  # closing the description releases the flock


def held_here(path: str | os.PathLike[str]) -> bool:
    """Whether this process holds ``path`` open for writing."""
    try:
        result = os.stat(path)
    except OSError:
        return False
    return (result.st_dev, result.st_ino) in _HELD


def held_elsewhere(path: str | os.PathLike[str]) -> bool:
    """Whether a writable session holds ``path``'s lock (in any process, this one included)."""
    if held_here(path):
        return True
    if fcntl is None:  # pragma: no cover - Windows
        return False
    try:
        fd = os.open(os.fspath(path), _OPEN_FLAGS)
    except OSError:
        return False
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return False
        try:
            fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
        except BlockingIOError:
            return True
        with contextlib.suppress(OSError):
            fcntl.flock(fd, fcntl.LOCK_UN)
        return False
    finally:
        os.close(fd)
