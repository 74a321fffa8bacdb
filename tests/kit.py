"""Small helpers the tests share: read a file's lines, skip without a dataset, a hand-moved clock.

Fixtures are in tests/conftest.py; the reference libraries' private helpers in tests/refs.py.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from matchlight.core.io.files import MAX_INPUT_BYTES


def read_lines(path: str | Path) -> list[str]:
    """Lines of a UTF-8 file as Matchlight reads them (split at "\\n" only, no "\\r" kept)."""
    lines = Path(path).read_text(encoding="utf-8").split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return [line.removesuffix("\r") for line in lines]


def data_lines(path: Path) -> list[str]:
    """:func:`read_lines` of a shared-data file; the test is skipped when the file is not there."""
    if not path.exists():
        pytest.skip(f"{path} is not present")
    return read_lines(path)


def needs(folder: Path) -> pytest.MarkDecorator:
    """Skip the test when the shared dataset ``folder`` is not there."""
    return pytest.mark.skipif(not folder.is_dir(), reason=f"{folder} is not present")


def hostile_inputs(folder: Path) -> dict[str, tuple[str, str]]:
    """Inputs a reader must refuse with a clear message, made in ``folder``:
    name -> (path, what the message says about it)."""
    fifo = folder / "sys.fifo.txt"
    os.mkfifo(fifo)
    directory = folder / "sys.folder.txt"
    directory.mkdir()
    huge = folder / "sys.huge.txt"
    with huge.open("wb") as handle:  # sparse: 2 GiB on paper, nothing on disk
        handle.truncate(2 * MAX_INPUT_BYTES)
    broken = folder / "sys.broken.txt"
    broken.write_bytes("the cat sät\na dög über\n".encode() + b"it rained in caf\xe9s\n")
    return {
        "fifo": (str(fifo), "is a named pipe (FIFO), not a regular file"),
        "zero": ("/dev/zero", "is a character device"),
        "folder": (str(directory), "is a directory, not a file"),
        "huge": (str(huge), "is 2.0 GiB"),
        "not utf-8": (str(broken), "line 3: not valid UTF-8: byte e9"),
    }


@contextlib.contextmanager
def source_tree_lock(root: Path) -> Iterator[None]:
    """Hold the checkout ``root`` for a test that writes a module into it for a moment (the
    import-linter probes) or must not see one: under pytest-xdist they run at the same time."""
    key = hashlib.sha1(str(root.resolve()).encode()).hexdigest()[:12]
    with (Path(tempfile.gettempdir()) / f"matchlight-tree-{key}.lock").open("w") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


class FakeClock:
    """A clock for code that takes one (``clock=time.perf_counter`` and the like).

    It stands still until :meth:`advance` moves it, so a test says how long things take
    instead of measuring the machine; ``tick`` seconds pass on every read.
    """

    def __init__(self, *, start: float = 1000.0, tick: float = 0.0) -> None:
        self.now = start
        self.tick = tick
        self.reads = 0

    def __call__(self) -> float:
        self.reads += 1
        self.now += self.tick
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds
