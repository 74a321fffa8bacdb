"""The one way core writes a file: atomically, and never over an input.

Every export goes through :func:`write_file_atomic` (one file) or :func:`write_files_atomic`
(several files that belong together, such as a CSV and its sidecar). The rules:

* A target that is the same file as one of ``protect`` (an input of the comparison, compared by
  device and inode, so symlinks and hard links count) is refused, as is a read-only target, a
  directory, anything that is not a regular file, and an empty path. Nothing is written then.
* A Matchlight session is refused unless the caller writes a session (``allow_session=True``,
  only :meth:`SessionStore.save_as <matchlight.core.session.store.SessionStore.save_as>`): a
  ``*.matchlight`` path, its ``-wal``/``-shm``/``-journal`` files, and any file that is an
  SQLite database with the session's application id (and its ``-wal``/``-shm``/``-journal``
  files), whatever its name. An export must never replace a user's annotations.
* Several outputs of one command are checked against each other before any is written
  (:func:`check_write_targets`): two options naming one file are refused, not written in turn.
* Data goes to a temporary file in the target's directory, is fsynced, and is renamed over the
  target; the directory is fsynced after the rename. Readers see the old file or the new one,
  never half of one. The temporary file is removed on every error path, KeyboardInterrupt too.
* A symlinked target is written through: the file it points to is replaced, the link stays.
* An existing target keeps its permission bits (and, where allowed, its owner); a new file gets
  the mode any program's new file gets (0666 minus the umask), not ``mkstemp``'s 0600.
* Errors are :class:`WriteError`, an :class:`OSError` whose ``filename`` is the path as the
  caller gave it (never the temporary file) and whose ``str()`` is a complete message.
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
import tempfile
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO, Final

from matchlight.core.io.files import read_head

__all__ = [
    "SESSION_APPLICATION_ID",
    "SESSION_SIDECARS",
    "SESSION_SUFFIX",
    "AtomicFiles",
    "StrPath",
    "WriteError",
    "check_write_target",
    "check_write_targets",
    "is_session_file",
    "write_file_atomic",
    "write_files_atomic",
]

StrPath = str | os.PathLike[str]

#: How many random temporary names are tried before giving up (a clash is already unlikely).
_TEMP_ATTEMPTS: Final[int] = 100

#: What makes a file a Matchlight session (the session module's ``SUFFIX`` and
#: ``APPLICATION_ID``, "MLSS"; defined here because core.io sits below core.session).
SESSION_SUFFIX: Final[str] = ".matchlight"
SESSION_APPLICATION_ID: Final[int] = 0x4D4C5353
#: The files SQLite keeps next to a database while it is open.
SESSION_SIDECARS: Final[tuple[str, ...]] = ("-wal", "-shm", "-journal")
_SQLITE_MAGIC: Final[bytes] = b"SQLite format 3\x00"


class WriteError(OSError):
    """A file could not be written, or writing it was refused to protect data.

    ``filename`` is the target as the caller gave it and ``strerror`` the problem, so callers
    that report ``OSError`` as ``f"{e.filename}: {e.strerror}"`` need no change.
    """

    def __str__(self) -> str:
        return f"{self.filename}: {self.strerror}"


def _refuse(code: int, problem: str, typed: str) -> WriteError:
    return WriteError(code, problem, typed)


def _as_write_error(exc: OSError, typed: str) -> WriteError:
    if isinstance(exc, WriteError):
        return exc
    return WriteError(exc.errno or errno.EIO, exc.strerror or str(exc), typed)


def _kind(mode: int) -> str:
    if stat.S_ISFIFO(mode):
        return "a named pipe (FIFO)"
    if stat.S_ISCHR(mode):
        return "a character device"
    if stat.S_ISBLK(mode):
        return "a block device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


def _has_session_header(path: str) -> bool:
    """Whether ``path`` is a regular file that starts like a Matchlight session (SQLite,
    "MLSS"). Anything else is not opened (opening a pipe blocks)."""
    try:
        head = read_head(path, 100)
    except OSError:
        return False
    return (
        len(head) >= 72
        and head.startswith(_SQLITE_MAGIC)
        and int.from_bytes(head[68:72], "big") == SESSION_APPLICATION_ID
    )


def is_session_file(path: StrPath) -> str | None:
    """Why ``path`` is (part of) a Matchlight session, or None: a ``*.matchlight`` name, the
    ``-wal``/``-shm``/``-journal`` file of one, or a file whose SQLite header carries the
    session's application id (or such a file's ``-wal``/``-shm``/``-journal``). Symlinks are
    followed; reads at most 100 bytes of a regular file and never opens anything else."""
    typed = os.fspath(path)
    for name in dict.fromkeys((typed, os.path.realpath(typed))):
        lowered = name.lower()
        base, sidecar = lowered, ""
        for suffix in SESSION_SIDECARS:
            if lowered.endswith(suffix):
                base, sidecar = lowered[: -len(suffix)], suffix
                break
        if base.endswith(SESSION_SUFFIX):
            if sidecar:
                return f"is the {sidecar[1:]} file of a Matchlight session"
            return f"is a Matchlight session ({SESSION_SUFFIX})"
        if _has_session_header(name):
            return "is a Matchlight session"
        owner = name[: -len(sidecar)] if sidecar else ""
        if owner and _has_session_header(owner):
            return f"is the {sidecar[1:]} file of the Matchlight session {owner}"
    return None


@dataclass(frozen=True, slots=True)
class _Plan:
    """Where one target's bytes go: ``real`` is the file behind any symlinks."""

    typed: str
    real: str
    existing: os.stat_result | None


def _input_stats(protect: Iterable[StrPath]) -> list[tuple[str, os.stat_result]]:
    stats = []
    for path in protect:
        name = os.fspath(path)
        if not name:
            continue
        try:
            stats.append((name, os.stat(name)))
        except OSError:  # gone or unreadable: it cannot be the file written now
            continue
    return stats


def _plan(
    path: StrPath, inputs: list[tuple[str, os.stat_result]], *, allow_session: bool = False
) -> _Plan:
    typed = os.fspath(path)
    if not typed:
        # Shown as '' so that "cannot write {filename}: {strerror}" still reads right.
        raise _refuse(errno.EINVAL, "no file name given (the path is empty)", "''")
    if not allow_session:
        session = is_session_file(typed)
        if session is not None:
            raise _refuse(
                errno.EEXIST,
                f"{session}; refusing to write an export over it (choose another file name)",
                typed,
            )
    real = os.path.realpath(typed)
    try:
        existing: os.stat_result | None = os.stat(real)
    except FileNotFoundError:
        existing = None
    except OSError as exc:
        raise _as_write_error(exc, typed) from None
    if existing is None:
        return _Plan(typed, real, None)
    if stat.S_ISDIR(existing.st_mode):
        raise _refuse(errno.EISDIR, "is a directory, not a file", typed)
    if not stat.S_ISREG(existing.st_mode):
        raise _refuse(
            errno.EINVAL,
            f"is {_kind(existing.st_mode)}, not a regular file; refusing to replace it",
            typed,
        )
    for name, other in inputs:
        if (other.st_dev, other.st_ino) == (existing.st_dev, existing.st_ino):
            same = (
                "is" if os.path.abspath(name) == os.path.abspath(typed) else "is the same file as"
            )
            raise _refuse(
                errno.EEXIST,
                f"{same} the input {name}; refusing to overwrite an input of the comparison "
                "(choose another file name)",
                typed,
            )
    writable_bits = stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH
    if not existing.st_mode & writable_bits or not os.access(real, os.W_OK):
        raise _refuse(
            errno.EACCES,
            "is read-only; refusing to replace it (choose another file name, or make it "
            "writable first)",
            typed,
        )
    return _Plan(typed, real, existing)


def _create_temp(plan: _Plan) -> tuple[int, str]:
    """Open a new, empty temporary file next to ``plan.real``: ``(fd, path)``."""
    directory, name = os.path.split(plan.real)
    # Read too: a streamed export hashes what it wrote before the rename.
    flags = os.O_RDWR | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0)
    flags |= getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_BINARY", 0)
    for _ in range(_TEMP_ATTEMPTS):
        temp = os.path.join(directory, f".{name}.{os.urandom(6).hex()}.tmp")
        try:
            # 0o666: the kernel applies the umask (and default ACLs) as for any new file.
            return os.open(temp, flags, 0o666), temp
        except FileExistsError:
            continue
    raise _refuse(errno.EEXIST, "no unused temporary file name next to it", plan.typed)


def _settle(fd: int, plan: _Plan) -> None:
    """Give a written temporary file the target's mode and owner, and fsync it."""
    existing = plan.existing
    if existing is not None and hasattr(os, "fchown"):  # POSIX
        os.fchmod(fd, stat.S_IMODE(existing.st_mode) & 0o777)
        if (existing.st_uid, existing.st_gid) != (os.geteuid(), os.getegid()):
            with contextlib.suppress(OSError):  # only root (or a group member) may do it
                os.fchown(fd, existing.st_uid, existing.st_gid)
    os.fsync(fd)


def _fill(fd: int, data: bytes, plan: _Plan) -> None:
    """Write all of ``data``, give it the target's mode and owner, and fsync it."""
    view = memoryview(data)
    while view:
        written = os.write(fd, view)
        view = view[written:]
    _settle(fd, plan)


def _fsync_directory(directory: str) -> None:
    """Make a rename in ``directory`` durable; not every platform or filesystem allows it."""
    try:
        fd = os.open(directory or ".", os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError:
        return
    try:
        with contextlib.suppress(OSError):
            os.fsync(fd)
    finally:
        os.close(fd)


def _same_file(a: _Plan, b: _Plan) -> bool:
    """Whether two targets are one file: the same path behind links, or the same inode."""
    if os.path.normcase(a.real) == os.path.normcase(b.real):
        return True
    return (
        a.existing is not None
        and b.existing is not None
        and (a.existing.st_dev, a.existing.st_ino) == (b.existing.st_dev, b.existing.st_ino)
    )


def _planned(
    targets: Sequence[StrPath], protect: Iterable[StrPath], allow_session: bool
) -> list[_Plan]:
    """The checked plans of targets written together (none may be another one)."""
    inputs = _input_stats(protect)
    plans = [_plan(path, inputs, allow_session=allow_session) for path in targets]
    for i, plan in enumerate(plans):
        for earlier in plans[:i]:
            if _same_file(plan, earlier):
                raise _refuse(
                    errno.EINVAL,
                    f"is the same file as {earlier.typed}, also written now",
                    plan.typed,
                )
    return plans


def _rename_all(plans: Sequence[_Plan], temps: Sequence[str]) -> None:
    """Rename every complete temporary file over its target, in order, and make the renames
    durable (a temporary file already renamed no longer exists: removing the temporary files
    after a failed rename leaves the renamed targets alone)."""
    for plan, temp in zip(plans, temps, strict=True):
        try:
            os.replace(temp, plan.real)
        except OSError as exc:
            raise _as_write_error(exc, plan.typed) from None
    for directory in dict.fromkeys(os.path.dirname(plan.real) for plan in plans):
        _fsync_directory(directory)


class AtomicFiles:
    """Files that belong together written as streams, then renamed over their targets at once:
    :func:`write_files_atomic` for data too large to hold (a streamed export and its sidecar).

    ``with AtomicFiles(targets, protect=...) as handles:`` checks every target first (as
    :func:`write_files_atomic` does: no input, no session, no two targets the same file), opens
    one temporary file per target in the target's folder, and gives their binary handles. When
    the block ends, each is fsynced, given the target's mode, and renamed over its target in
    the given order; when it raises, every temporary file is removed and no target is touched.
    :meth:`scratch` gives an unnamed scratch file in a target's folder, gone when closed.
    """

    def __init__(
        self,
        targets: Sequence[StrPath],
        *,
        protect: Iterable[StrPath] = (),
        allow_session: bool = False,
    ) -> None:
        self.targets = [os.fspath(t) for t in targets]
        self._plans = _planned(targets, protect, allow_session)
        self._temps: list[str] = []
        self._handles: list[BinaryIO] = []

    def __enter__(self) -> list[BinaryIO]:
        try:
            for plan in self._plans:
                try:
                    fd, temp = _create_temp(plan)
                except OSError as exc:
                    raise _as_write_error(exc, plan.typed) from None
                self._temps.append(temp)
                self._handles.append(os.fdopen(fd, "wb", buffering=1 << 20))
        except BaseException:
            self._discard()
            raise
        return list(self._handles)

    def scratch(self, index: int = 0) -> BinaryIO:
        """A scratch file next to target ``index``: on its file system, so a large export
        never fills another; removed when closed (or when this process ends)."""
        directory = os.path.dirname(self._plans[index].real) or "."
        try:
            return tempfile.TemporaryFile(dir=directory)
        except OSError as exc:
            raise _as_write_error(exc, self._plans[index].typed) from None

    def __exit__(self, kind: object, error: object, trace: object) -> None:
        if kind is not None:
            self._discard()
            return
        try:
            for plan, handle in zip(self._plans, self._handles, strict=True):
                try:
                    handle.flush()
                    _settle(handle.fileno(), plan)
                    handle.close()
                except OSError as exc:
                    raise _as_write_error(exc, plan.typed) from None
            _rename_all(self._plans, self._temps)
        except BaseException:
            self._discard()
            raise

    def _discard(self) -> None:
        for handle in self._handles:
            with contextlib.suppress(OSError):
                handle.close()
        for temp in self._temps:
            with contextlib.suppress(OSError):
                os.unlink(temp)


def write_files_atomic(
    files: Sequence[tuple[StrPath, bytes]],
    *,
    protect: Iterable[StrPath] = (),
    allow_session: bool = False,
) -> tuple[Path, ...]:
    """Write several files that belong together; return their paths as given.

    Every target is checked first (see the module docstring), then every file is written to its
    own temporary file, and only when all of them are complete are they renamed over their
    targets, in the given order. A failure before the renames leaves every target untouched.
    The renames themselves are one system call each, so a kill between two of them leaves the
    earlier targets new and the later ones old; a reader must detect that (the CSV sidecar
    records the CSV's checksum for this, see :func:`matchlight.core.io.export.read_export_meta`).
    """
    plans = _planned([path for path, _ in files], protect, allow_session)
    temps: list[str] = []
    renamed = 0  # temps[:renamed] are targets now; the others are removed on any error
    try:
        for plan, (_, data) in zip(plans, files, strict=True):
            try:
                fd, temp = _create_temp(plan)
            except OSError as exc:
                raise _as_write_error(exc, plan.typed) from None
            temps.append(temp)
            try:
                _fill(fd, data, plan)
            except OSError as exc:
                raise _as_write_error(exc, plan.typed) from None
            finally:
                os.close(fd)
        _rename_all(plans, temps)
        renamed = len(temps)
    except BaseException:
        for temp in temps[renamed:]:
            with contextlib.suppress(OSError):
                os.unlink(temp)
        raise
    return tuple(Path(path) for path, _ in files)


def write_file_atomic(
    path: StrPath,
    data: bytes,
    *,
    protect: Iterable[StrPath] = (),
    allow_session: bool = False,
) -> Path:
    """Write ``data`` to ``path`` atomically, unless ``path`` is one of ``protect`` or (unless
    ``allow_session``) a Matchlight session.

    See the module docstring for what is refused and what is kept. Returns ``Path(path)``.
    """
    return write_files_atomic([(path, data)], protect=protect, allow_session=allow_session)[0]


def check_write_target(
    path: StrPath, *, protect: Iterable[StrPath] = (), allow_session: bool = False
) -> None:
    """Raise the :class:`WriteError` that writing ``path`` would raise for its target now.

    For callers that can fail before long work (the command line, before scoring; a save
    dialog, before accepting a name). Writing checks again; this writes nothing.
    """
    _plan(path, _input_stats(protect), allow_session=allow_session)


def check_write_targets(
    targets: Sequence[tuple[str, StrPath]], *, protect: Iterable[StrPath] = ()
) -> None:
    """Check every output of one command before any is written: ``targets`` are ``(label,
    path)`` pairs, the label naming the output for the user (``"--csv"``, ``"--csv's
    sidecar"``). Raises the :class:`WriteError` writing one of them would raise (see
    :func:`check_write_target`), or one naming both outputs when two are the same file (the
    same path, through a link, or a hard link), which would otherwise be written in turn, the
    second silently replacing the first. Writes nothing.
    """
    inputs = _input_stats(protect)
    planned: list[tuple[str, _Plan]] = []
    for label, path in targets:
        plan = _plan(path, inputs)
        for other_label, other in planned:
            if _same_file(plan, other):
                also = "" if plan.typed == other.typed else f" ({other.typed})"
                raise _refuse(
                    errno.EINVAL,
                    f"{label} and {other_label}{also} name the same file; give each output its "
                    "own file name",
                    plan.typed,
                )
        planned.append((label, plan))
