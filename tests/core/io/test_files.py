"""core.io.files: every read is of a regular file, bounded in bytes, lines and line length, and
cancellable; pipes and devices are refused without blocking."""

from __future__ import annotations

import hashlib
import os
import pickle
import re
import socket
import threading
import tracemalloc
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from matchlight.core import pacing
from matchlight.core.io.files import (
    MAX_INPUT_BYTES,
    FileError,
    FileTooLarge,
    LineLimit,
    NotRegularFile,
    ReadCancelled,
    TooManyLines,
    check_regular,
    file_digest,
    iter_lines,
    read_bytes_capped,
    read_head,
    size_text,
)

Finishes = Callable[..., object]

FIFO_MESSAGE = "is a named pipe (FIFO), not a regular file"
DEVICE_MESSAGE = "is a character device (such as /dev/zero or a terminal), not a regular file"

#: Every way core reads a file, as a call on a path.
READERS: dict[str, Callable[[str], object]] = {
    "check_regular": check_regular,
    "read_bytes_capped": lambda p: read_bytes_capped(p, 1 << 20),
    "iter_lines": lambda p: list(iter_lines(p, 1 << 20, line_cap=1 << 10)),
    "file_digest": file_digest,
    "read_head": lambda p: read_head(p, 100),
}


def _error(finishes: Finishes, call: Callable[[], object], *fifos: Path) -> FileError:
    outcome = finishes(call, *fifos)
    assert isinstance(outcome, FileError), outcome
    return outcome


# -- what is not a regular file ----------------------------------------------------------------


@pytest.mark.parametrize("reader", READERS)
def test_a_named_pipe_is_refused_without_blocking(
    tmp_path: Path, finishes: Finishes, reader: str
) -> None:
    fifo = tmp_path / "scores.txt"
    os.mkfifo(fifo)
    error = _error(finishes, lambda: READERS[reader](str(fifo)), fifo)
    assert isinstance(error, NotRegularFile)
    assert str(error) == f"{fifo}: {FIFO_MESSAGE}"


@pytest.mark.parametrize("reader", READERS)
@pytest.mark.parametrize("device", ["/dev/zero", "/dev/urandom", "/dev/null"])
def test_a_device_is_refused_without_reading(finishes: Finishes, reader: str, device: str) -> None:
    if not os.path.exists(device):
        pytest.skip(f"no {device} here")
    tracemalloc.start()
    try:
        error = _error(finishes, lambda: READERS[reader](device))
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert str(error) == f"{device}: {DEVICE_MESSAGE}"
    assert peak < 1 << 20


def test_a_symlink_to_a_device_is_refused(tmp_path: Path, finishes: Finishes) -> None:
    link = tmp_path / "labels.txt"
    link.symlink_to("/dev/zero")
    assert str(_error(finishes, lambda: read_bytes_capped(link, 1 << 30))) == (
        f"{link}: {DEVICE_MESSAGE}"
    )


def test_a_socket_and_a_directory_are_refused(tmp_path: Path) -> None:
    path = tmp_path / "s"
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        server.bind(str(path))
        with pytest.raises(NotRegularFile, match="is a socket, not a regular file"):
            check_regular(path)
    finally:
        server.close()
    with pytest.raises(NotRegularFile) as info:
        read_bytes_capped(tmp_path, 100)
    assert str(info.value) == f"{tmp_path}: is a directory, not a file"


def test_missing_files_and_empty_names() -> None:
    with pytest.raises(FileError) as info:
        read_bytes_capped("/no/such/file.txt", 100)
    assert str(info.value) == "/no/such/file.txt: file not found"
    with pytest.raises(FileError, match="no file name given"):
        file_digest("")


def test_a_pipe_swapped_in_after_the_stat_does_not_block(
    tmp_path: Path, finishes: Finishes, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The file passes the stat, then becomes a pipe before it is opened: the non-blocking open
    and the check on the open descriptor still refuse it."""
    path = tmp_path / "ref.txt"
    path.write_text("x\n")
    real_stat = os.stat
    swapped: list[bool] = []

    def stat_then_swap(name: object, *args: object, **kwargs: object) -> os.stat_result:
        info = real_stat(name, *args, **kwargs)  # type: ignore[arg-type]
        if str(name) == str(path) and not swapped:
            swapped.append(True)
            path.unlink()
            os.mkfifo(path)
        return info

    monkeypatch.setattr(os, "stat", stat_then_swap)
    error = _error(finishes, lambda: read_bytes_capped(path, 100), path)
    assert str(error) == f"{path}: {FIFO_MESSAGE}"


# -- size caps -------------------------------------------------------------------------------


def test_a_sparse_file_over_the_cap_is_refused_from_its_size(tmp_path: Path) -> None:
    path = tmp_path / "huge.txt"
    with path.open("wb") as handle:
        handle.truncate(2 * MAX_INPUT_BYTES)  # sparse: no disk space, no time
    tracemalloc.start()
    try:
        with pytest.raises(FileTooLarge) as info:
            read_bytes_capped(path, MAX_INPUT_BYTES, what="a score file")
        with pytest.raises(FileTooLarge):
            list(iter_lines(path, MAX_INPUT_BYTES, line_cap=100))
        with pytest.raises(FileTooLarge):
            file_digest(path, cap=1000)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert str(info.value) == (
        f"{path}: is 2.0 GiB (2,147,483,648 bytes), more than the 1.0 GiB (1,073,741,824 bytes) "
        "a score file may have; split it, or check that this is the file you meant"
    )
    assert peak < 1 << 20


@pytest.mark.parametrize("size", [0, 1, 999, 1000])
def test_the_cap_is_inclusive(tmp_path: Path, size: int) -> None:
    path = tmp_path / "f.bin"
    data = os.urandom(size)
    path.write_bytes(data)
    assert read_bytes_capped(path, 1000) == data
    path.write_bytes(data + b"x" * (1001 - size))
    with pytest.raises(FileTooLarge, match="is 1,001 bytes, more than the 1,000 bytes"):
        read_bytes_capped(path, 1000)


def test_size_text() -> None:
    assert size_text(1000) == "1,000 bytes"
    assert size_text(1536) == "1.5 KiB (1,536 bytes)"
    assert size_text(3 << 20) == "3.0 MiB (3,145,728 bytes)"


def test_a_file_growing_while_read_stops_at_the_cap(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "growing.txt"
    path.write_bytes(b"x\n" * 10)
    real_fstat = os.fstat

    def fstat_then_grow(fd: int) -> os.stat_result:
        info = real_fstat(fd)
        block = b"y\n" * 500_000
        with path.open("ab") as handle:
            for _ in range(10):
                handle.write(block)
        return info

    monkeypatch.setattr(os, "fstat", fstat_then_grow)
    tracemalloc.start()
    try:
        with pytest.raises(FileTooLarge) as info:
            read_bytes_capped(path, 1000, what="an input file")
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert str(info.value) == (
        f"{path}: grew beyond the 1,000 bytes an input file may have while it was read; wait "
        "until whatever writes it has finished"
    )
    assert peak < 3 << 20  # the 1 MB block written above, not the 10 MB file


# -- line limits -------------------------------------------------------------------------------


def test_too_many_lines_stop_the_read_as_they_stream_in(tmp_path: Path) -> None:
    """20 MB of two-byte lines, 1,000 expected: refused after the first block, not after
    building ten million of anything."""
    path = tmp_path / "scores.txt"
    path.write_bytes(b"1\n" * 10_000_000)
    limit = LineLimit(1000, "the comparison has 1,000 segments")
    tracemalloc.start()
    try:
        with pytest.raises(TooManyLines) as info:
            read_bytes_capped(path, MAX_INPUT_BYTES, max_lines=limit)
        with pytest.raises(TooManyLines):
            for _ in iter_lines(path, MAX_INPUT_BYTES, line_cap=100, max_lines=limit):
                pass
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert str(info.value) == (
        f"{path}: has more than 1,000 lines, but the comparison has 1,000 segments"
    )
    assert peak < 4 << 20


@pytest.mark.parametrize("ending", ["", "\n"])
def test_exactly_the_limit_passes(tmp_path: Path, ending: str) -> None:
    path = tmp_path / "labels.txt"
    path.write_text("\n".join(["a"] * 1000) + ending)
    limit = LineLimit(1000, "why")
    assert read_bytes_capped(path, 1 << 20, max_lines=limit).count(b"\n") == 999 + len(ending)
    assert len(list(iter_lines(path, 1 << 20, line_cap=10, max_lines=limit))) == 1000
    path.write_text("a\n" * 1001)
    with pytest.raises(TooManyLines):
        read_bytes_capped(path, 1 << 20, max_lines=limit)


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-be", "utf-32", "utf-32-be"])
def test_lines_of_utf16_and_utf32_are_counted_by_code_unit(tmp_path: Path, encoding: str) -> None:
    """上 is U+4E0A and ਊ U+0A0A: as UTF-16 and UTF-32 they hold 0x0A bytes that are no line
    feeds. With a BOM, lines are counted in the file's code units, whatever the block sizes."""
    text = "上ਊ上\n" * 300_000 + "last"  # 2.4 MB in UTF-16: several blocks
    data = text.encode(encoding)
    if encoding.endswith("-be"):  # a BOM in the file's byte order
        data = ("\ufeff" + text).encode(encoding)
    path = tmp_path / "labels.txt"
    path.write_bytes(data)
    exact = LineLimit(300_000, "why")
    assert read_bytes_capped(path, 1 << 30, max_lines=exact) == data
    with pytest.raises(TooManyLines):
        read_bytes_capped(path, 1 << 30, max_lines=LineLimit(299_999, "why"))


# -- iter_lines ------------------------------------------------------------------------------


@settings(max_examples=60, deadline=None)
@given(
    lines=st.lists(st.text(st.characters(exclude_characters="\n\r"), max_size=30), max_size=40),
    crlf=st.booleans(),
    bom=st.booleans(),
    final=st.booleans(),
)
def test_iter_lines_splits_like_str_split(
    tmp_path_factory: pytest.TempPathFactory,
    lines: list[str],
    crlf: bool,
    bom: bool,
    final: bool,
) -> None:
    ending = "\r\n" if crlf else "\n"
    text = ending.join(lines) + (ending if final and lines else "")
    path = tmp_path_factory.mktemp("lines") / "f.jsonl"
    path.write_bytes((b"\xef\xbb\xbf" if bom else b"") + text.encode("utf-8", "surrogatepass"))
    if any("\ud800" <= c <= "\udfff" for c in text):
        with pytest.raises(FileError, match="not UTF-8"):
            list(iter_lines(path, 1 << 20, line_cap=1 << 20))
        return
    expected = text.split(ending)
    if expected[-1] == "":  # a line ending ends a line; it does not start one
        expected.pop()
    assert [t for _, t in iter_lines(path, 1 << 20, line_cap=1 << 20)] == expected
    assert [n for n, _ in iter_lines(path, 1 << 20, line_cap=1 << 20)] == list(
        range(1, len(expected) + 1)
    )


def test_lines_longer_than_a_block_are_joined(tmp_path: Path) -> None:
    long = "é" * (3 << 20)  # 6 MiB of two-byte characters, split across blocks mid-character
    path = tmp_path / "f.jsonl"
    path.write_text(f"a\n{long}\nb", encoding="utf-8")
    assert list(iter_lines(path, 1 << 30, line_cap=8 << 20)) == [(1, "a"), (2, long), (3, "b")]


def test_a_line_over_its_cap_is_refused_before_it_is_read_whole(tmp_path: Path) -> None:
    """A sparse 64 MiB file reads as one line of NUL bytes: refused once the line passes its
    cap, after about one block."""
    path = tmp_path / "spans.jsonl"
    with path.open("wb") as handle:
        handle.write(b'{"ok": 1}\n')
        handle.truncate(64 << 20)
    lines = iter_lines(path, 1 << 30, line_cap=1 << 20)
    assert next(lines) == (1, '{"ok": 1}')
    tracemalloc.start()
    try:
        with pytest.raises(FileError) as info:
            next(lines)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert str(info.value) == (
        f"{path}, line 2: the line is longer than the 1.0 MiB (1,048,576 bytes) a line may have "
        "here"
    )
    assert peak < 4 << 20


def test_bytes_that_are_not_utf8_name_the_line(tmp_path: Path) -> None:
    path = tmp_path / "f.jsonl"
    path.write_bytes(b'{"a": 1}\n{"b": "caf\xe9"}\n')
    lines = iter_lines(path, 1000, line_cap=1000)
    assert next(lines) == (1, '{"a": 1}')
    with pytest.raises(FileError) as info:
        next(lines)
    assert str(info.value) == (
        f"{path}, line 2: not UTF-8: byte 0xe9 (byte 11 of the line) cannot be decoded; re-save "
        "the file as UTF-8"
    )


# -- file_digest -------------------------------------------------------------------------------


@pytest.mark.parametrize("size", [0, 1, (1 << 20) - 1, 1 << 20, (3 << 20) + 5])
def test_file_digest_is_sha256_and_size(tmp_path: Path, size: int) -> None:
    data = os.urandom(size)
    path = tmp_path / "f.bin"
    path.write_bytes(data)
    assert file_digest(path) == (hashlib.sha256(data).hexdigest(), size)
    assert file_digest(path, cap=size) == (hashlib.sha256(data).hexdigest(), size)
    if size:
        expected = re.escape(f"has more than the {size_text(size - 1)} expected")
        with pytest.raises(FileTooLarge, match=expected):
            file_digest(path, cap=size - 1)


def test_file_digest_pauses_once_per_block(tmp_path: Path) -> None:
    """Between two blocks it passes core.pacing's pause point (the app lets its GUI thread go
    first there: the session hashes a million-row input right after the read)."""
    data = os.urandom((3 << 20) + 5)
    path = tmp_path / "f.bin"
    path.write_bytes(data)
    paused: list[int] = []
    previous = pacing.set_gate(lambda unless: paused.append(1))
    try:
        assert file_digest(path) == (hashlib.sha256(data).hexdigest(), len(data))
    finally:
        pacing.set_gate(previous)
    assert len(paused) == 4


def test_file_digest_stops_when_the_file_grows_past_the_cap(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "f.bin"
    path.write_bytes(b"x" * 100)
    real_fstat = os.fstat

    def fstat_then_grow(fd: int) -> os.stat_result:
        info = real_fstat(fd)
        with path.open("ab") as handle:
            handle.write(b"y" * (5 << 20))
        return info

    monkeypatch.setattr(os, "fstat", fstat_then_grow)
    with pytest.raises(FileTooLarge):
        file_digest(path, cap=100)


def test_read_head_reads_at_most_what_is_asked(tmp_path: Path) -> None:
    path = tmp_path / "s.matchlight"
    with path.open("wb") as handle:
        handle.write(b"SQLite format 3\x00")
        handle.truncate(1 << 30)  # sparse
    tracemalloc.start()
    try:
        head = read_head(path, 100)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert head == b"SQLite format 3\x00" + bytes(84)
    assert peak < 1 << 16
    short = tmp_path / "short"
    short.write_bytes(b"abc")
    assert read_head(short, 100) == b"abc"


# -- cancelling --------------------------------------------------------------------------------


def test_every_read_can_be_cancelled(tmp_path: Path) -> None:
    path = tmp_path / "big.txt"
    with path.open("wb") as handle:
        handle.truncate(8 << 20)
    cancel = threading.Event()
    cancel.set()
    with pytest.raises(ReadCancelled):
        read_bytes_capped(path, 1 << 30, cancel=cancel)
    with pytest.raises(ReadCancelled):
        list(iter_lines(path, 1 << 30, line_cap=1 << 30, cancel=cancel))
    with pytest.raises(ReadCancelled):
        file_digest(path, cancel=cancel)


def test_a_cancel_from_another_thread_stops_a_read_between_blocks(tmp_path: Path) -> None:
    path = tmp_path / "big.txt"
    with path.open("wb") as handle:
        handle.truncate(64 << 20)
    cancel = threading.Event()
    lines = iter_lines(path, 1 << 30, line_cap=1 << 30, cancel=cancel)
    worker = threading.Thread(target=cancel.set)
    worker.start()
    worker.join()
    with pytest.raises(ReadCancelled):
        next(lines)
    assert read_bytes_capped(path, 1 << 30, cancel=threading.Event()) == bytes(64 << 20)


# -- the error -------------------------------------------------------------------------------


def test_file_error_is_an_os_error_with_a_message_and_survives_pickling() -> None:
    error = TooManyLines("has more than 3 lines", "a.txt", 4)
    assert isinstance(error, OSError)
    assert (error.filename, error.problem, error.line) == ("a.txt", "has more than 3 lines", 4)
    assert str(error) == "a.txt, line 4: has more than 3 lines"
    copy = pickle.loads(pickle.dumps(error))
    assert type(copy) is TooManyLines
    assert (str(copy), copy.errno) == (str(error), error.errno)
