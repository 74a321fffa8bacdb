"""Putting a session's commits on the disk in the background.

A session commits with ``synchronous=NORMAL`` in WAL mode: a commit writes the log (into the
operating system's cache) and returns without waiting for the disk. From then on it survives
the program being killed; SQLite's documentation: "Transactions are durable across application
crashes regardless of the synchronous setting or journal mode", while "a transaction committed
in WAL mode with synchronous=NORMAL might roll back following a power loss or system crash".
:class:`Flusher` closes that window a moment later, on a thread of its own: it fsyncs the log,
then moves the log into the file (a checkpoint, which syncs the file) and empties it, and notes
the file as it left it (the baseline of :meth:`~.ownership.WriteLock.check`). A power loss can
thus lose the edits of the last moment, never damage the file (WAL mode stays consistent); the
thread editing never waits on the disk.

Commits coming faster than the disk are coalesced: one pass covers all commits made before it
began. :meth:`Flusher.sync` waits until everything committed is through; :meth:`Flusher.close`
finishes the last pass before it returns.
"""

from __future__ import annotations

import os
import sqlite3
import threading
from collections.abc import Callable
from contextlib import suppress
from pathlib import Path

from matchlight.core.session.ownership import WriteLock

__all__ = ["Flusher"]


class Flusher:
    """The background thread that makes one session's commits durable (see the module).

    ``lost(reason)`` is called (on that thread) when the file at the path is found not to be
    the session's any more; nothing is moved into it then.
    """

    def __init__(self, path: Path, lock: WriteLock, lost: Callable[[str], None]) -> None:
        self._path = path
        self._wal = Path(str(path) + "-wal")
        found = os.stat(path)
        self._identity = (found.st_dev, found.st_ino)
        self._lock = lock
        self._lost = lost
        #: Held while the file is checked, written and noted (a pass); the store takes it to
        #: check the file itself, so that the two never overlap.
        self.file_lock = threading.Lock()
        self._wake = threading.Condition()
        self._asked = 0  # passes asked for (one per commit)
        self._done = 0  # the commits covered by the passes finished so far
        self._closing = False
        # A connection of its own: the store's stays free for the editing thread. Never
        # waits for a lock (a transaction still open is moved in by a later pass).
        self._conn = sqlite3.connect(path, isolation_level=None, timeout=0, check_same_thread=False)
        # Its log and shared memory opened now, while the file is at the path: a connection
        # first used after the file was moved away cannot open them.
        self._conn.execute("SELECT count(*) FROM sqlite_master").fetchall()
        self._thread = threading.Thread(target=self._run, name="matchlight-session-flush")
        self._thread.daemon = True
        self._thread.start()

    def request(self) -> None:
        """A commit was made: put it on the disk soon."""
        with self._wake:
            self._asked += 1
            self._wake.notify_all()

    def sync(self) -> None:
        """Wait until every commit requested so far is on the disk and in the file."""
        with self._wake:
            target = self._asked
            while self._done < target and self._thread.is_alive():
                self._wake.wait(1.0)

    def close(self) -> None:
        """Finish the pending pass, stop the thread and close its connection."""
        with self._wake:
            self._closing = True
            self._wake.notify_all()
        self._thread.join()
        self._conn.close()

    def _run(self) -> None:
        while True:
            with self._wake:
                while self._done == self._asked and not self._closing:
                    self._wake.wait()
                if self._done == self._asked:
                    return
                target = self._asked
            try:
                self._pass()
            finally:
                with self._wake:
                    self._done = target
                    self._wake.notify_all()

    def _pass(self) -> None:
        # The log first, without the file lock (the editing thread may check the file
        # meanwhile): from here on the commits so far survive a power loss.
        try:
            fd = os.open(self._wal, os.O_RDONLY | getattr(os, "O_CLOEXEC", 0))
        except FileNotFoundError:
            fd = -1
        if fd >= 0:
            try:
                os.fsync(fd)
            except OSError:
                pass
            finally:
                os.close(fd)
        with self.file_lock:
            reason = self._lock.check()
            if reason is not None:
                self._lost(reason)
                self._keep_out(reason)
                return
            # PASSIVE copies the log into the file (and syncs it) without holding back the
            # editing thread's next commit; TRUNCATE, which blocks new commits while it runs,
            # then has at most the commits made meanwhile to copy before it empties the log.
            # TRUNCATE alone held an edit up to 650 ms after a 100,000-span import.
            with suppress(sqlite3.Error):
                self._conn.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()
            with suppress(sqlite3.Error):
                self._conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchall()
            self._lock.settle()

    def _keep_out(self, reason: str) -> None:
        """The file at the path is not the session's any more: what the log holds of the last
        commits must never reach it. Moved away, deleted or replaced by a rename, the
        session's own file (this connection's) takes the log, which is emptied; written over
        in place (``cp``: the same file, other content), the log is dropped."""
        try:
            here = os.stat(self._path)
        except OSError:
            here = None
        if here is not None and (here.st_dev, here.st_ino) == self._identity:
            with suppress(OSError):
                os.truncate(self._wal, 0)
            return
        with suppress(sqlite3.Error):
            self._conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchall()
