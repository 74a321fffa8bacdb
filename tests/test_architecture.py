"""The architecture the project depends on, enforced.

* ``core`` is pure Python: it never imports Qt, pyqtgraph or the GUI, statically (import-linter)
  nor at run time (importing every core module loads no Qt).
* Both ``core`` and ``gui`` are layered (the contracts in pyproject.toml's
  ``[tool.importlinter]``): a feature folder imports only the layers below it.
"""

from __future__ import annotations

import pkgutil
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import matchlight.core
from tests.kit import source_tree_lock

ROOT = Path(__file__).resolve().parents[1]
QT = ("PySide6", "PyQt5", "PyQt6", "shiboken6", "pyqtgraph", "qtpy")
CORE_MODULES = sorted(
    info.name for info in pkgutil.walk_packages(matchlight.core.__path__, "matchlight.core.")
)


def _lint_imports(config: Path | None = None) -> subprocess.CompletedProcess[str]:
    exe = shutil.which("lint-imports", path=str(Path(sys.executable).parent))
    if exe is None:
        pytest.skip("import-linter is not installed (it is in the 'test' extra)")
    args = [exe, "--no-cache"]
    if config is not None:
        args += ["--config", str(config)]
    return subprocess.run(args, capture_output=True, text=True, cwd=ROOT, check=False)


def test_the_import_contracts_hold() -> None:
    with source_tree_lock(ROOT):  # not while a probe below is in the tree
        result = _lint_imports()
    assert result.returncode == 0, result.stdout + result.stderr
    assert "0 broken" in result.stdout
    # Every contract of pyproject.toml was checked (a contract that silently stops being read
    # would make this test pass for nothing).
    assert result.stdout.count(" KEPT") == 3


def test_the_contracts_catch_a_forbidden_import() -> None:
    """The core contract is not vacuous: a core module importing Qt breaks it."""
    bad = ROOT / "core" / "text" / "_architecture_probe.py"
    with source_tree_lock(ROOT):
        bad.write_text("import PySide6.QtCore  # noqa: F401\n", encoding="utf-8")
        try:
            result = _lint_imports()
        finally:
            bad.unlink()
    assert result.returncode != 0
    assert "matchlight.core.text._architecture_probe -> PySide6" in result.stdout


def test_the_layer_contracts_catch_an_upward_import() -> None:
    bad = ROOT / "core" / "metrics" / "_architecture_probe.py"
    with source_tree_lock(ROOT):
        bad.write_text("import matchlight.core.scoring.engine  # noqa: F401\n", encoding="utf-8")
        try:
            result = _lint_imports()
        finally:
            bad.unlink()
    assert result.returncode != 0
    assert "core layers BROKEN" in result.stdout


def test_importing_all_of_core_loads_no_qt() -> None:
    assert len(CORE_MODULES) >= 20  # the walk found the feature folders' modules
    code = (
        "import importlib, sys\n"
        f"for name in {CORE_MODULES!r}:\n"
        "    importlib.import_module(name)\n"
        f"bad = sorted(m for m in sys.modules if m.split('.')[0] in {QT!r})\n"
        "print(','.join(bad))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True
    )
    assert result.stdout.strip() == ""


def test_score_command_does_not_import_qt() -> None:
    code = (
        "import sys\n"
        "from matchlight.gui.shell.launcher import main\n"
        "try:\n"
        "    main(['score', '--help'])\n"
        "except SystemExit:\n"
        "    pass\n"
        "qt = [m for m in sys.modules if m.startswith(('PySide6', 'shiboken6'))]\n"
        "print(','.join(sorted(qt)))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True
    )
    assert "usage: matchlight score" in result.stdout
    assert result.stdout.splitlines()[-1] == ""


def test_ci_runs_the_readme_test_command() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    blocks = [b.split("```", 1)[0].strip() for b in readme.split("```sh")[1:]]
    assert len(blocks) >= 2
    install_and_open, install_and_test = blocks[0], blocks[1]
    assert "--sample" in install_and_open
    assert "pytest" in install_and_test
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert install_and_test in ci
