"""The layering the project depends on: core is pure Python and never touches Qt or the GUI."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
CORE = ROOT / "core"
FORBIDDEN = ("PySide6", "PyQt5", "PyQt6", "shiboken6", "pyqtgraph", "gui", "qtpy")
CORE_MODULES = sorted(f"core.{p.stem}" for p in CORE.glob("*.py") if p.stem != "__init__")


def _imported_names(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module.split(".")[0])
    return names


@pytest.mark.parametrize("path", sorted(CORE.glob("*.py")), ids=lambda p: p.name)
def test_core_source_imports_no_qt(path: Path) -> None:
    assert not _imported_names(path) & set(FORBIDDEN)


def test_importing_all_of_core_loads_no_qt() -> None:
    code = (
        "import importlib, sys\n"
        f"for name in {CORE_MODULES!r}:\n"
        "    importlib.import_module(name)\n"
        f"bad = sorted(m for m in sys.modules if m.split('.')[0] in {FORBIDDEN!r})\n"
        "print(','.join(bad))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True
    )
    assert result.stdout.strip() == ""
    assert len(CORE_MODULES) >= 8


def test_score_command_does_not_import_qt() -> None:
    code = (
        "import sys\n"
        "from gui.launcher import main\n"
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
