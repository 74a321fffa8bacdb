"""mypy stays clean on the scoring engine (configured in pyproject.toml's ``[tool.mypy]``).

The package is checked under its installed name, ``matchlight.core``: the folder ``core/`` is
linked into a ``matchlight/`` namespace for mypy, as setuptools installs it. That folder and
mypy's cache stay in the temporary directory from one run to the next (one per checkout and
Python), so mypy checks incrementally, as it does by default: it reads again what changed, and
what depends on it, and keeps its reading of numpy, ray, dask and the rest. A first run, as on
a fresh machine, checks everything.
"""

from __future__ import annotations

import hashlib
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from tests.conftest import ROOT
from tests.kit import source_tree_lock


def mypy_folder() -> Path:
    """The folder mypy runs in, with ``matchlight/core`` linked to this checkout's ``core/``."""
    key = hashlib.sha256(f"{ROOT.resolve()}|{sys.prefix}".encode()).hexdigest()[:16]
    folder = Path(tempfile.gettempdir()) / f"matchlight-mypy-{key}"
    link = folder / "matchlight" / "core"
    link.parent.mkdir(parents=True, exist_ok=True)
    if not (link.is_symlink() and link.resolve() == (ROOT / "core").resolve()):
        link.unlink(missing_ok=True)
        link.symlink_to(ROOT / "core", target_is_directory=True)
    return folder


@pytest.mark.slow  # mypy reads numpy, ray, dask and distributed too (on a first run)
def test_mypy_reports_no_errors_in_core() -> None:
    pytest.importorskip("mypy")
    with source_tree_lock(ROOT):  # not while test_architecture's probe is in core/
        folder = mypy_folder()
        result = subprocess.run(
            [
                sys.executable,
                "-m",
                "mypy",
                "--config-file",
                str(ROOT / "pyproject.toml"),
                "--cache-dir",
                str(folder / ".mypy_cache"),
                "-p",
                "matchlight.core",
            ],
            cwd=folder,
            capture_output=True,
            text=True,
            check=False,
        )
    assert result.returncode == 0, f"mypy found problems in core:\n{result.stdout}{result.stderr}"
    assert "Success" in result.stdout
