"""The main window under test: a :class:`Harness` with private settings and captured dialogs,
the shared data it opens, and screenshots. Fixtures are in tests/gui/shell/conftest.py."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from PySide6.QtCore import QSettings

from matchlight.gui.dialogs.opendialog import ComparisonSpecs, assign_roles
from matchlight.gui.shell.mainwindow import MainWindow
from tests.conftest import SHARED_DATA

DATA = SHARED_DATA
ZH = DATA / "wmt22-en-zh"
SHOTS = Path("/tmp/matchlight-shots")
TIMEOUT = 120_000


def zh_specs(rows: int | None = None, folder: Path | None = None) -> ComparisonSpecs:
    """wmt22-en-zh's files, or (``rows`` and ``folder``) copies of their first ``rows`` lines
    (a test that scores the comparison several times needs no more)."""
    if not ZH.is_dir():
        pytest.skip("shared/data/wmt22-en-zh is not present")
    paths = [ZH / "src.txt", *ZH.glob("ref*.txt"), *ZH.glob("sys.*.txt")]
    if rows is not None:
        assert folder is not None
        for path in paths:
            with path.open(encoding="utf-8") as file:
                head = [next(file) for _ in range(rows)]
            (folder / path.name).write_text("".join(head), encoding="utf-8")
        paths = [folder / path.name for path in paths]
    return assign_roles(str(p) for p in paths)


def shot(widget, tmp_path: Path, name: str) -> Path:
    from PySide6.QtWidgets import QApplication

    for _ in range(5):  # let pending layout requests (the detail pane's sections) settle
        QApplication.processEvents()
    path = tmp_path / f"{name}.png"
    if widget.delegate is None:
        pixmap = widget.grab()
    else:
        with widget.delegate.unbounded():  # every cell in full, whatever the paint budgets
            pixmap = widget.grab()
    assert pixmap.save(str(path))
    SHOTS.mkdir(parents=True, exist_ok=True)
    shutil.copy(path, SHOTS / path.name)
    return path


class Harness:
    """A window with a temporary QSettings file, a captured error sink and save dialog, and a
    font check that finds every glyph (so no test depends on the fonts installed)."""

    def __init__(self, qtbot, tmp_path: Path, *, controller=None, glyph_check=None) -> None:
        self.qtbot = qtbot
        self.tmp_path = tmp_path
        self.settings_path = tmp_path / "matchlight.ini"
        self.settings = QSettings(str(self.settings_path), QSettings.Format.IniFormat)
        self.errors: list[tuple[str, str]] = []
        self.save_paths: list[str] = []
        self.next_save_path: str | None = None
        self.window = MainWindow(
            settings=self.settings,
            error_sink=self._on_error,
            save_path_provider=self._ask_save_path,
            controller=controller,
            glyph_check=glyph_check or (lambda ch: True),
        )
        qtbot.addWidget(self.window)

    def _on_error(self, title: str, message: str) -> None:
        self.errors.append((title, message))

    def _ask_save_path(self, parent, caption: str, suggested: str) -> str | None:
        self.save_paths.append(suggested)
        return self.next_save_path

    def open_and_wait(self, specs: ComparisonSpecs) -> None:
        """Open ``specs`` and wait until every row is scored."""
        with self.qtbot.waitSignal(self.window.controller.scoring_finished, timeout=TIMEOUT):
            assert self.window.open_specs(specs), self.errors

    def open_and_show(self, specs: ComparisonSpecs) -> None:
        """Open ``specs`` and wait until the comparison is shown (its scoring just started)."""
        with self.qtbot.waitSignal(self.window.comparison_opened, timeout=TIMEOUT):
            assert self.window.open_specs(specs)

    def open_and_fail(self, specs: ComparisonSpecs) -> str:
        """Open ``specs``, which must fail; the message the user was shown."""
        with self.qtbot.waitSignal(self.window.open_failed, timeout=TIMEOUT) as blocker:
            assert self.window.open_specs(specs)
        return blocker.args[0]

    def wait_for_detail(self, segment: int) -> None:
        pane = self.window.detail_pane
        self.qtbot.waitUntil(
            lambda: pane.detail() is not None and pane.detail().segment == segment,
            timeout=TIMEOUT,
        )

    def select(self, segment: int) -> None:
        proxy = self.window.proxy
        self.window.table_view.setCurrentIndex(proxy.index(proxy.proxy_row(segment), 1))
        self.wait_for_detail(segment)
