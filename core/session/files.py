"""A session file on disk before SQLite opens it: what it is, whether it may be written.

Anything but a regular file (a FIFO, a device) is refused before it is opened: opening a FIFO
would wait for a writer. A file that is not a Matchlight session (the SQLite header's application
id), one written by a newer Matchlight (``PRAGMA user_version`` above :data:`SCHEMA_VERSION`) or a
damaged one (``PRAGMA quick_check``) raises :class:`SessionError` and is never modified: the
header is read as bytes and the check runs on a read-only connection.
"""

from __future__ import annotations

import os
import sqlite3
import stat
from contextlib import suppress
from pathlib import Path
from typing import Final, Literal

from matchlight.core.annotation.history import SinkUnavailable
from matchlight.core.io import files as io_files

__all__ = [
    "APPLICATION_ID",
    "FORMAT_MARK",
    "MAX_SESSION_BYTES",
    "ROLES",
    "SCHEMA_VERSION",
    "SUFFIX",
    "SessionError",
    "SessionErrorKind",
    "check_header",
    "check_regular",
    "has_log",
    "not_writable",
    "remove_database",
    "ro_uri",
    "verify",
]

#: Version of the database layout; a file with a higher one is refused, never changed.
SCHEMA_VERSION: Final = 3
#: ``PRAGMA application_id`` of a Matchlight session ("MLSS").
APPLICATION_ID: Final = 0x4D4C5353
SUFFIX: Final = ".matchlight"
ROLES: Final = ("source", "reference", "system")
#: The largest session file Matchlight opens (a million spans take a few hundred MB).
MAX_SESSION_BYTES: Final = 8 << 30

_SQLITE_MAGIC: Final = b"SQLite format 3\x00"
FORMAT_MARK: Final = "matchlight-session"

#: What went wrong: ``missing`` no such file, ``not-session`` not a Matchlight session (or not a
#: regular file), ``newer`` written by a newer Matchlight, ``damaged``, ``busy`` open for writing
#: elsewhere (or locked), ``read-only`` the file or its folder cannot be written, ``lost`` the file
#: is no longer the one this store opened, ``disk-full``, ``io`` another write error, ``exists``
#: the target of a new session exists, ``closed``, ``unusable`` anything else.
SessionErrorKind = Literal[
    "missing",
    "not-session",
    "newer",
    "damaged",
    "busy",
    "read-only",
    "lost",
    "disk-full",
    "io",
    "exists",
    "closed",
    "unusable",
]


class SessionError(SinkUnavailable):
    """A session file that cannot be used as asked. ``str()`` is a complete user message.

    As a :class:`~matchlight.core.annotation.history.SinkUnavailable`, a failed write leaves the
    edit in the workspace's memory, to be saved later or elsewhere.
    """

    def __init__(
        self,
        problem: str,
        path: str | os.PathLike[str] | None = None,
        *,
        kind: SessionErrorKind = "unusable",
    ) -> None:
        super().__init__(problem, path)
        self.problem = problem
        self.path = None if path is None else os.fspath(path)
        self.kind: SessionErrorKind = kind

    def __str__(self) -> str:
        return self.problem if self.path is None else f"{self.path}: {self.problem}"

    @property
    def copy_helps(self) -> bool:
        """Whether a read-only copy of the file would show what it holds."""
        return self.kind in ("damaged", "busy", "read-only", "io", "unusable")


def check_regular(path: Path, *, what: str, cap: int | None) -> int:
    """The size of ``path``; SessionError unless it is a regular file of at most ``cap`` bytes.
    Checked before anything opens the file: opening a FIFO would wait for a writer."""
    try:
        info = io_files.check_regular(path)
    except io_files.NotRegularFile as exc:
        # "is a named pipe (FIFO), not a regular file" -> "this is a named pipe (FIFO), ..."
        kind_of = exc.problem.removeprefix("is ").split(", not")[0].split(" (such as")[0]
        kind_of = "a folder" if kind_of == "a directory" else kind_of
        raise SessionError(f"this is {kind_of}, not a {what}", path, kind="not-session") from None
    except io_files.FileError as exc:
        kind: SessionErrorKind = "missing" if exc.problem == "file not found" else "unusable"
        problem = f"no such {what}" if kind == "missing" else exc.problem
        raise SessionError(problem, path, kind=kind) from None
    if cap is not None and info.st_size > cap:
        raise SessionError(
            f"the {what} is {info.st_size:,} bytes, more than the {cap:,} Matchlight reads",
            path,
        )
    return info.st_size


def read_header(path: Path) -> tuple[int, int]:
    """(application id, user version) from the first 100 bytes, or SessionError."""
    check_regular(path, what="session file", cap=MAX_SESSION_BYTES)
    try:
        head = io_files.read_head(path, 100)
    except io_files.FileError as exc:
        raise SessionError(exc.problem, path) from None
    if len(head) < 100 or not head.startswith(_SQLITE_MAGIC):
        raise SessionError(
            "not a Matchlight session (not an SQLite database)", path, kind="not-session"
        )
    return int.from_bytes(head[68:72], "big"), int.from_bytes(head[60:64], "big")


def check_header(path: Path) -> None:
    app_id, version = read_header(path)
    if app_id != APPLICATION_ID:
        raise SessionError(
            "not a Matchlight session (an SQLite database of another program)",
            path,
            kind="not-session",
        )
    if version > SCHEMA_VERSION:
        raise SessionError(
            f"this session was written by a newer Matchlight (session format {version}; this "
            f"version reads format {SCHEMA_VERSION} and older). The file was not changed.",
            path,
            kind="newer",
        )
    if version < 1:
        raise SessionError(
            "not a Matchlight session (no session format version)", path, kind="not-session"
        )


def ro_uri(path: Path, *, immutable: bool = False) -> str:
    return path.resolve().as_uri() + ("?mode=ro&immutable=1" if immutable else "?mode=ro")


def has_log(path: Path) -> bool:
    return Path(str(path) + "-wal").exists()


def verify(path: Path) -> None:
    """Integrity and identity checks on a read-only connection; SessionError if they fail.

    Without a WAL next to the file nobody has it open, and it is read as immutable, so the
    check creates no ``-wal``/``-shm`` files beside a file it may refuse.
    """
    try:
        conn = sqlite3.connect(ro_uri(path, immutable=not has_log(path)), uri=True)
    except sqlite3.Error as exc:
        raise SessionError(f"cannot open the session: {exc}", path) from None
    try:
        problems = [row[0] for row in conn.execute("PRAGMA quick_check(5)")]
        if problems != ["ok"]:
            raise SessionError(
                f"the session file is damaged: {'; '.join(problems)}", path, kind="damaged"
            )
        tables = {row[0] for row in conn.execute("SELECT name FROM sqlite_master")}
        if not {"meta", "inputs", "spans", "segment_scores"} <= tables:
            raise SessionError(
                "not a Matchlight session (tables are missing)", path, kind="not-session"
            )
        row = conn.execute("SELECT value FROM meta WHERE key='format'").fetchone()
        if row is None or row[0] != FORMAT_MARK:
            raise SessionError(
                "not a Matchlight session (no session marker)", path, kind="not-session"
            )
    except sqlite3.Error as exc:
        raise SessionError(f"the session file is damaged: {exc}", path, kind="damaged") from None
    finally:
        conn.close()


def not_writable(path: Path) -> str | None:
    """Why ``path`` (and the log files beside it) cannot be written, or None.

    A file without write permission counts as read-only even for a user whose privileges would
    let them write it anyway (as the exports treat read-only targets)."""
    try:
        mode = os.stat(path).st_mode
    except OSError as exc:
        return f"it cannot be read ({exc.strerror or exc})"
    folder = path.parent
    with suppress(OSError, AttributeError):
        if os.statvfs(folder).f_flag & os.ST_RDONLY:
            return "it is on a read-only file system"
    if not mode & (stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH) or not os.access(path, os.W_OK):
        return "the file is read-only"
    if not os.access(folder, os.W_OK | os.X_OK):
        return "its folder is read-only (the session's log files live beside it)"
    for suffix in ("-wal", "-shm"):
        beside = Path(str(path) + suffix)
        if beside.exists() and not os.access(beside, os.W_OK):
            return f"{beside.name} beside it is read-only"
    return None


def remove_database(path: Path) -> None:
    for suffix in ("-wal", "-shm", "-journal"):
        Path(str(path) + suffix).unlink(missing_ok=True)
    path.unlink(missing_ok=True)
