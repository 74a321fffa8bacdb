"""Fixtures of the annotation tests: a private recovery folder, a window, the small comparison."""

from __future__ import annotations

from pathlib import Path

import pytest

from matchlight.core.session.locations import RECOVERY_ENV
from tests.gui.annotate.annotatekit import Harness, small_specs


@pytest.fixture
def recovery(tmp_path, monkeypatch) -> Path:
    folder = tmp_path / "recovery"
    monkeypatch.setenv(RECOVERY_ENV, str(folder))
    return folder


@pytest.fixture
def harness(qtbot, tmp_path, recovery):
    h = Harness(qtbot, tmp_path)
    h.window.show()
    yield h
    h.window.close()


@pytest.fixture
def small(harness, tmp_path) -> Harness:
    harness.open(small_specs(tmp_path / "data"))
    return harness
