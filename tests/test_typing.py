"""mypy stays clean on the scoring engine (configured in pyproject.toml's ``[tool.mypy]``)."""

from __future__ import annotations

import subprocess
import sys

import pytest

from tests.conftest import ROOT


def test_mypy_reports_no_errors_in_core() -> None:
    pytest.importorskip("mypy")
    result = subprocess.run(
        [sys.executable, "-m", "mypy", "core"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, f"mypy found problems in core:\n{result.stdout}{result.stderr}"
