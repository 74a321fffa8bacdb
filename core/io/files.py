"""The one way core opens a file it reads: regular files only, bounded, cancellable.

Every reader of a user's file (inputs, imported scores and labels, annotation imports, the
hashes a session records) goes through this module, so that none of them can hang or run out
of memory on a hostile path:

* Only regular files are opened. A named pipe, a device (``/dev/zero``), a socket or a directory
  is refused from its ``stat``, before it is opened (opening a pipe blocks until a writer
  appears, and a device never ends). The file is then opened non-blocking, in case it was
  swapped for a pipe after the stat, and checked again through the open descriptor.
* Every read has a size cap, one per kind of file (:data:`MAX_INPUT_BYTES`,
  :data:`MAX_ANNOTATION_BYTES`). A file over its cap is refused from its size; a file that grows
  past it while it is read is refused after at most ``cap + 1`` bytes.
* A reader that knows how many lines to expect (a score or label file: one per segment) passes
  a :class:`LineLimit`; lines are counted as the bytes stream in, so a file of a billion short
  lines is refused after its first few kilobytes, not after it filled the memory.
* Long reads can be cancelled from another thread with a :class:`threading.Event`.

Problems are :class:`FileError`, an :class:`OSError` whose ``str()`` is a complete message
naming the file (and the line, where there is one); callers that report their own error type
take ``problem``, ``filename`` and ``line`` from it.
"""

from __future__ import annotations

import errno
import hashlib
import os
import stat
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, Final

import numpy as np

from matchlight.core.pacing import pause

__all__ = [
    "MAX_ANNOTATION_BYTES",
    "MAX_INPUT_BYTES",
    "FileError",
    "FileTooLarge",
    "LineLimit",
    "NotRegularFile",
    "ReadCancelled",
    "TooManyLines",
    "check_regular",
    "file_digest",
    "iter_blocks",
    "iter_lines",
    "read_bytes_capped",
    "read_head",
    "size_text",
]

StrPath = str | os.PathLike[str]

#: The largest input text, score or label file read, in bytes (1 GiB). Scoring a corpus needs
#: several times its size in memory; beyond this a file is far more likely a mistake (a disk
#: image, a device, a log) than a corpus, and reading it would only end in a MemoryError.
MAX_INPUT_BYTES: Final[int] = 1 << 30

#: The largest annotation file imported (xCOMET, WMT MQM, ESA), in bytes (a WMT MQM release file
#: is about 50 MB).
MAX_ANNOTATION_BYTES: Final[int] = 512 * 1024 * 1024

#: Bytes read at a time when a read can be cancelled, and when hashing.
_BLOCK: Final[int] = 1 << 20


class FileError(OSError):
    """A file that cannot be read as asked.

    ``filename`` is the path as the caller gave it, ``problem`` (also ``strerror``) what is
    wrong, ``line`` the 1-based line where there is one. ``str()`` is ``"PATH: PROBLEM"`` or
    ``"PATH, line N: PROBLEM"``.
    """

    problem: str
    line: int | None

    def __init__(
        self, problem: str, path: str, line: int | None = None, *, code: int = errno.EINVAL
    ) -> None:
        super().__init__(code, problem, path)
        self.problem = problem
        self.line = line

    def __reduce__(self) -> tuple[object, ...]:
        return (_rebuild, (type(self), self.problem, self.filename, self.line, self.errno))

    def __str__(self) -> str:
        where = self.filename if self.line is None else f"{self.filename}, line {self.line}"
        return f"{where}: {self.problem}"


def _rebuild(
    cls: type[FileError], problem: str, path: str, line: int | None, code: int
) -> FileError:
    return cls(problem, path, line, code=code)


class NotRegularFile(FileError):
    """The path is a directory, a named pipe, a device or a socket."""


class FileTooLarge(FileError):
    """The file is larger than the cap of its kind (or grew past it while it was read)."""


class TooManyLines(FileError):
    """The file has more lines than its :class:`LineLimit` allows."""


class ReadCancelled(Exception):
    """The read was cancelled (its ``cancel`` event was set); nothing was returned."""


@dataclass(frozen=True, slots=True)
class LineLimit:
    """At most ``lines`` lines are expected; ``why`` completes the message when there are more
    (e.g. ``"the comparison has 500 segments, one score per line"``)."""

    lines: int
    why: str

    def problem(self, unit: str = "line") -> str:
        return f"has more than {self.lines:,} {unit}s, but {self.why}"


def size_text(n: int) -> str:
    """A byte count for a message: ``"1.0 GiB (1,073,741,824 bytes)"``, ``"1,000 bytes"``."""
    for unit, size in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if n >= size:
            return f"{n / size:.1f} {unit} ({n:,} bytes)"
    return f"{n:,} bytes"


def _not_regular(mode: int) -> str | None:
    """Why a file of this mode cannot be read, or None for a regular file."""
    if stat.S_ISREG(mode):
        return None
    if stat.S_ISDIR(mode):
        return "is a directory, not a file"
    if stat.S_ISFIFO(mode):
        return "is a named pipe (FIFO), not a regular file"
    if stat.S_ISCHR(mode):
        return "is a character device (such as /dev/zero or a terminal), not a regular file"
    if stat.S_ISBLK(mode):
        return "is a block device (a disk), not a regular file"
    if stat.S_ISSOCK(mode):
        return "is a socket, not a regular file"
    return "is not a regular file"


def _os_problem(exc: OSError, path: str) -> FileError:
    """An error of ``os.stat``/``os.open``/``read`` as a :class:`FileError` with a message."""
    if isinstance(exc, FileError):
        return exc
    code = exc.errno or errno.EIO
    if isinstance(exc, FileNotFoundError):
        return FileError("file not found", path, code=code)
    if isinstance(exc, NotADirectoryError):
        return FileError("file not found (a folder on its path is a file)", path, code=code)
    if isinstance(exc, IsADirectoryError):
        return NotRegularFile("is a directory, not a file", path, code=code)
    if isinstance(exc, PermissionError):
        return FileError("permission denied: the file cannot be read", path, code=code)
    return FileError(f"cannot read the file: {exc.strerror or exc}", path, code=code)


def _name(path: StrPath) -> str:
    name = os.fspath(path)
    if not name:
        raise FileError("no file name given", "''", code=errno.ENOENT)
    return name


def check_regular(path: StrPath) -> os.stat_result:
    """The ``stat`` of ``path`` if it is a regular file (symlinks followed), else
    :class:`FileError` saying what it is (:class:`NotRegularFile`) or why it cannot be read.

    Never opens the file, so it returns at once for a named pipe or a device.
    """
    name = _name(path)
    try:
        info = os.stat(name)
    except OSError as exc:
        raise _os_problem(exc, name) from None
    problem = _not_regular(info.st_mode)
    if problem is not None:
        raise NotRegularFile(problem, name)
    return info


def _open_regular(name: str) -> tuple[int, os.stat_result]:
    """An open read-only descriptor of the regular file ``name`` and its ``fstat``."""
    check_regular(name)
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
    flags |= getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0)
    try:
        fd = os.open(name, flags)
    except OSError as exc:
        raise _os_problem(exc, name) from None
    try:
        info = os.fstat(fd)
        problem = _not_regular(info.st_mode)
        if problem is not None:
            raise NotRegularFile(problem, name)
    except BaseException:
        os.close(fd)
        raise
    return fd, info


def _too_large(size: int, cap: int, what: str, name: str) -> FileTooLarge:
    return FileTooLarge(
        f"is {size_text(size)}, more than the {size_text(cap)} {what} may have; split it, or "
        "check that this is the file you meant",
        name,
        code=errno.EFBIG,
    )


def _grew(cap: int, what: str, name: str) -> FileTooLarge:
    return FileTooLarge(
        f"grew beyond the {size_text(cap)} {what} may have while it was read; wait until "
        "whatever writes it has finished",
        name,
        code=errno.EFBIG,
    )


def _more_than(cap: int, name: str) -> FileTooLarge:
    return FileTooLarge(f"has more than the {size_text(cap)} expected", name, code=errno.EFBIG)


def _check_cancel(cancel: threading.Event | None) -> None:
    if cancel is not None and cancel.is_set():
        raise ReadCancelled


#: Byte-order marks of the encodings whose line feed is not one 0x0A byte, and how to count it.
_WIDE_NEWLINES: Final[tuple[tuple[bytes, str], ...]] = (
    (b"\xff\xfe\x00\x00", "<u4"),  # UTF-32 LE (before UTF-16 LE: it starts with its BOM)
    (b"\x00\x00\xfe\xff", ">u4"),
    (b"\xff\xfe", "<u2"),
    (b"\xfe\xff", ">u2"),
)


class _LineCounter:
    """Counts line feeds in bytes as they stream in: 0x0A bytes, or 0x000A code units of a
    file that starts with a UTF-16 or UTF-32 byte-order mark (where a 0x0A byte may be half of
    another character)."""

    def __init__(self, limit: LineLimit, name: str) -> None:
        self.limit = limit
        self.name = name
        self.count = 0
        self.dtype: np.dtype[Any] | None = None
        self.started = False
        self.pending = b""

    def feed(self, chunk: bytes) -> None:
        if not self.started:
            self.started = True
            for bom, dtype in _WIDE_NEWLINES:
                if chunk.startswith(bom):
                    self.dtype = np.dtype(dtype)
                    break
        if self.dtype is None:
            self.count += chunk.count(b"\n")
        else:
            data = self.pending + chunk if self.pending else chunk
            usable = len(data) - len(data) % self.dtype.itemsize
            units = np.frombuffer(data, dtype=self.dtype, count=usable // self.dtype.itemsize)
            self.count += int(np.count_nonzero(units == 0x0A))
            self.pending = bytes(data[usable:])
        # The last line may end without a line feed: more than ``lines`` feeds is too many.
        if self.count > self.limit.lines:
            raise TooManyLines(self.limit.problem(), self.name)


def read_bytes_capped(
    path: StrPath,
    cap: int,
    *,
    what: str = "a file",
    cancel: threading.Event | None = None,
    max_lines: LineLimit | None = None,
) -> bytes:
    """All bytes of the regular file ``path``, which may have at most ``cap`` bytes.

    ``what`` names the kind of file in messages (``"an input file"``). Raises
    :class:`FileError`: :class:`NotRegularFile` before opening anything that is not a regular
    file, :class:`FileTooLarge` from the size (or after ``cap + 1`` bytes if it grows),
    :class:`TooManyLines` as soon as more lines than ``max_lines`` have streamed in;
    :class:`ReadCancelled` when ``cancel`` is set (checked every mebibyte).
    """
    name = _name(path)
    fd, info = _open_regular(name)
    counter = None if max_lines is None else _LineCounter(max_lines, name)
    chunks: list[bytes] = []
    total = 0
    try:
        with open(fd, "rb", buffering=0, closefd=True) as handle:
            if info.st_size > cap:
                raise _too_large(info.st_size, cap, what, name)
            # Without a reason to stop early, one read of the size the file has (plus one byte
            # to see its end), then more only if it grew; /proc files report size 0.
            whole = cancel is None and counter is None
            want = info.st_size + 1 if whole else min(_BLOCK, cap + 1)
            while total <= cap:
                _check_cancel(cancel)
                chunk = handle.read(want)
                if not chunk:
                    break
                chunks.append(chunk)
                total += len(chunk)
                if counter is not None:
                    counter.feed(chunk)
                want = min(cap + 1 - total, _BLOCK)
    except OSError as exc:
        raise _os_problem(exc, name) from None
    if total > cap:
        raise _grew(cap, what, name)
    return b"".join(chunks)


def iter_blocks(
    path: StrPath,
    cap: int,
    *,
    what: str = "a file",
    block: int = _BLOCK,
    expect: os.stat_result | None = None,
    cancel: threading.Event | None = None,
) -> Iterator[bytes]:
    """The bytes of the regular file ``path``, ``block`` bytes at a time, for readers that
    stream a file instead of holding it.

    Refused as :func:`read_bytes_capped` refuses (not a regular file, over ``cap`` bytes from
    its size or once it grew past it). With ``expect`` (an earlier ``stat``), a file that is no
    longer the same file of the same size and modification time is refused before it is read:
    a second pass over a file must read what the first pass checked.
    """
    name = _name(path)
    fd, info = _open_regular(name)
    with open(fd, "rb", buffering=0, closefd=True) as handle:
        if info.st_size > cap:
            raise _too_large(info.st_size, cap, what, name)
        if expect is not None and _identity(info) != _identity(expect):
            raise FileError(
                "changed since it was first read (a different size, time or file); read it "
                "again once whatever writes it has finished",
                name,
            )
        total = 0
        while True:
            _check_cancel(cancel)
            try:
                chunk = handle.read(min(block, cap + 1 - total))
            except OSError as exc:
                raise _os_problem(exc, name) from None
            if not chunk:
                return
            total += len(chunk)
            if total > cap:
                raise _grew(cap, what, name)
            yield chunk


def _identity(info: os.stat_result) -> tuple[int, int, int, int]:
    return (info.st_dev, info.st_ino, info.st_size, info.st_mtime_ns)


def iter_lines(
    path: StrPath,
    cap: int,
    *,
    line_cap: int,
    what: str = "a file",
    cancel: threading.Event | None = None,
    max_lines: LineLimit | None = None,
) -> Iterator[tuple[int, str]]:
    """``(number, line)`` for every line of the UTF-8 file ``path`` (1-based numbers).

    A byte-order mark is dropped, and lines are split at ``"\\n"``; the ``"\\n"`` and a
    ``"\\r"`` before it are not part of the line. The file may have at most ``cap`` bytes and
    each line at most ``line_cap``; the bytes are read a mebibyte at a time, so a file or a line
    over its cap is refused without reading it whole. Raises :class:`FileError` as
    :func:`read_bytes_capped` does, plus for bytes that are not UTF-8 (naming the line) and a
    line over ``line_cap``; :class:`ReadCancelled` when ``cancel`` is set.
    """
    name = _name(path)
    fd, info = _open_regular(name)
    with open(fd, "rb", buffering=0, closefd=True) as handle:
        if info.st_size > cap:
            raise _too_large(info.st_size, cap, what, name)
        number = 0
        total = 0
        parts: list[bytes] = []  # the pieces of the line not yet ended
        partial = 0
        while True:
            _check_cancel(cancel)
            try:
                chunk = handle.read(min(_BLOCK, cap + 1 - total))
            except OSError as exc:
                raise _os_problem(exc, name) from None
            if not chunk:
                if parts:
                    yield _line(b"".join(parts), number + 1, line_cap, max_lines, name)
                return
            first = total == 0
            total += len(chunk)
            if total > cap:
                raise _grew(cap, what, name)
            if first:
                chunk = chunk.removeprefix(b"\xef\xbb\xbf")
            start = 0
            while (end := chunk.find(b"\n", start)) >= 0:
                raw = chunk[start:end]
                if parts:
                    raw = b"".join([*parts, raw])
                    parts, partial = [], 0
                number += 1
                yield _line(raw, number, line_cap, max_lines, name)
                start = end + 1
            if start < len(chunk):
                parts.append(chunk[start:])
                partial += len(chunk) - start
                if partial > line_cap:
                    raise _long_line(number + 1, line_cap, name)


def _long_line(number: int, line_cap: int, name: str) -> FileError:
    return FileError(
        f"the line is longer than the {size_text(line_cap)} a line may have here", name, number
    )


def _line(
    raw: bytes, number: int, line_cap: int, max_lines: LineLimit | None, name: str
) -> tuple[int, str]:
    """``(number, text)`` of one line's bytes, checked against the caps and decoded."""
    if max_lines is not None and number > max_lines.lines:
        raise TooManyLines(max_lines.problem(), name)
    if len(raw) > line_cap:
        raise _long_line(number, line_cap, name)
    if raw.endswith(b"\r"):
        raw = raw[:-1]
    try:
        return number, raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise FileError(
            f"not UTF-8: byte 0x{raw[exc.start]:02x} (byte {exc.start + 1} of the line) cannot "
            "be decoded; re-save the file as UTF-8",
            name,
            number,
        ) from None


def read_head(path: StrPath, size: int) -> bytes:
    """The first ``size`` bytes of the regular file ``path`` (fewer if it is shorter), to tell
    what a file is from its header. Raises :class:`FileError` as :func:`read_bytes_capped`
    does; never opens a pipe or a device."""
    name = _name(path)
    fd, _ = _open_regular(name)
    try:
        with open(fd, "rb", buffering=0, closefd=True) as handle:
            head = b""
            while len(head) < size and (chunk := handle.read(size - len(head))):
                head += chunk
            return head
    except OSError as exc:
        raise _os_problem(exc, name) from None


def file_digest(
    path: StrPath, *, cap: int | None = None, cancel: threading.Event | None = None
) -> tuple[str, int]:
    """``(sha256 hex, size in bytes)`` of a regular file's content, read in 1 MiB blocks.

    Raises :class:`FileError` (:class:`NotRegularFile` without opening a pipe or a device;
    :class:`FileTooLarge` when ``cap`` is given and the file has more bytes, from its size or
    as soon as it grows past it) and :class:`ReadCancelled` when ``cancel`` is set.
    """
    name = _name(path)
    fd, info = _open_regular(name)
    digest = hashlib.sha256()
    size = 0
    try:
        with open(fd, "rb", buffering=0, closefd=True) as handle:
            if cap is not None and info.st_size > cap:
                raise _more_than(cap, name)
            while block := handle.read(_BLOCK):
                _check_cancel(cancel)
                pause()  # an application's interactive thread first (core.pacing)
                digest.update(block)
                size += len(block)
                if cap is not None and size > cap:
                    raise _more_than(cap, name)
    except OSError as exc:
        raise _os_problem(exc, name) from None
    return digest.hexdigest(), size
