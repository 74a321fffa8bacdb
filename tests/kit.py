"""Small helpers the tests share: read a file's lines, skip without a dataset, a hand-moved clock.

Fixtures are in tests/conftest.py; the reference libraries' private helpers in tests/refs.py.
"""

from __future__ import annotations

from pathlib import Path

import pytest


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
