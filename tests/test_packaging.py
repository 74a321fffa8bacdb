"""The install layout: one ``matchlight`` namespace in site-packages, nothing else at the top.

``pip install .`` maps the folders ``core/``, ``gui/`` and ``resources/`` to ``matchlight.core``,
``matchlight.gui`` and ``matchlight.resources``; a wheel that held a top-level ``core`` would
collide with any other distribution's.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

import pytest

from tests.kit import source_tree_lock

ROOT = Path(__file__).resolve().parents[1]
FOLDERS = ("core", "gui", "resources")


def _declared_packages() -> set[str]:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    return set(config["tool"]["setuptools"]["packages"])


def test_every_package_folder_is_declared() -> None:
    on_disk = {
        "matchlight." + ".".join(init.parent.relative_to(ROOT).parts)
        for folder in FOLDERS
        for init in (ROOT / folder).rglob("__init__.py")
        if "__pycache__" not in init.parts
    }
    assert on_disk == _declared_packages()


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> zipfile.ZipFile:
    out = tmp_path_factory.mktemp("wheel")
    # Built from a copy: setuptools writes build/ and *.egg-info into the tree it builds, and
    # another test process may be building or importing from the checkout at the same time.
    tree = tmp_path_factory.mktemp("tree") / "matchlight"
    ignore = shutil.ignore_patterns(".venv", ".git", "build", "*.egg-info", "__pycache__")
    with source_tree_lock(ROOT):  # not while test_architecture's probe is in the tree
        shutil.copytree(ROOT, tree, ignore=ignore)
    command = [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "--no-build-isolation"]
    result = subprocess.run(
        [*command, "--wheel-dir", str(out), str(tree)],
        capture_output=True,
        text=True,
        check=False,
    )
    if result.returncode != 0 and "bdist_wheel" in result.stderr:
        pytest.skip("this setuptools cannot build wheels (the 'test' extra pins one that can)")
    assert result.returncode == 0, result.stderr
    (built,) = out.glob("matchlight-*.whl")
    return zipfile.ZipFile(built)


def test_the_wheel_installs_only_the_matchlight_namespace(wheel: zipfile.ZipFile) -> None:
    tops = {name.split("/")[0] for name in wheel.namelist()}
    dist_info = {t for t in tops if t.endswith(".dist-info")}
    assert tops - dist_info == {"matchlight"}
    # A namespace package: no matchlight/__init__.py that another distribution could clash on.
    assert "matchlight/__init__.py" not in wheel.namelist()


def test_the_wheel_holds_every_module_and_the_sample(wheel: zipfile.ZipFile) -> None:
    names = set(wheel.namelist())
    for folder in ("core", "gui"):
        for path in (ROOT / folder).rglob("*.py"):
            assert f"matchlight/{path.relative_to(ROOT).as_posix()}" in names
    sample = {p.name for p in (ROOT / "resources" / "sample").glob("*.txt")}
    assert len(sample) >= 4
    for name in sample:
        assert f"matchlight/resources/sample/{name}" in names
    translations = {p.name for p in (ROOT / "resources" / "i18n").glob("*.qm")}
    assert translations
    for name in translations:
        assert f"matchlight/resources/i18n/{name}" in names


def test_the_entry_point_is_in_the_namespace(wheel: zipfile.ZipFile) -> None:
    (entry_points,) = (n for n in wheel.namelist() if n.endswith(".dist-info/entry_points.txt"))
    text = wheel.read(entry_points).decode()
    assert "matchlight = matchlight.gui.shell.launcher:main" in text
