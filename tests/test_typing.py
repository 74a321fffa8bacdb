"""mypy stays clean on the scoring engine (configured in pyproject.toml's ``[tool.mypy]``).

The package is checked under its installed name, ``matchlight.core``: the folder ``core/`` is
linked into a temporary ``matchlight/`` namespace for mypy, as setuptools installs it.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import ROOT
from tests.kit import source_tree_lock


@pytest.mark.slow  # mypy reads numpy, ray, dask and distributed too
def test_mypy_reports_no_errors_in_core(tmp_path: Path) -> None:
    pytest.importorskip("mypy")
    (tmp_path / "matchlight").mkdir()
    (tmp_path / "matchlight" / "core").symlink_to(ROOT / "core", target_is_directory=True)
    with source_tree_lock(ROOT):  # not while test_architecture's probe is in core/
        result = subprocess.run(
            [
                sys.executable,
                "-m",
                "mypy",
                "--config-file",
                str(ROOT / "pyproject.toml"),
                "--cache-dir",
                str(tmp_path / ".mypy_cache"),
                "-p",
                "matchlight.core",
            ],
            cwd=tmp_path,
            capture_output=True,
            text=True,
            check=False,
        )
    assert result.returncode == 0, f"mypy found problems in core:\n{result.stdout}{result.stderr}"
    assert "Success" in result.stdout
