"""The Browse buttons of the import dialogs (File ▸ Load segment scores, Load label column, Load
human judgements): each opens a file dialog in the folder the window gives, for one existing
file (several for score files), and what is chosen lands in the dialog's field or list."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtWidgets import QFileDialog, QPushButton

from matchlight.gui.charts.humanimport import HumanImportDialog
from matchlight.gui.charts.imports import LabelImportDialog, ScoreImportDialog
from tests.gui.chartkit import settle


def _browse(qtbot, dialog, button_text: str) -> QFileDialog:
    """Click the dialog's button ``button_text``; the file dialog it opened."""
    qtbot.addWidget(dialog)
    buttons = [b for b in dialog.findChildren(QPushButton) if b.text() == button_text]
    assert buttons, [b.text() for b in dialog.findChildren(QPushButton)]
    before = set(dialog.findChildren(QFileDialog))
    buttons[0].click()
    settle()
    opened = [d for d in dialog.findChildren(QFileDialog) if d not in before]
    assert len(opened) == 1
    return opened[0]


def _close(file_dialog: QFileDialog) -> None:
    file_dialog.reject()
    settle()


@pytest.fixture
def start_dir(tmp_path: Path) -> Path:
    (tmp_path / "a.tsv").write_text("score\n1\n", encoding="utf-8")
    (tmp_path / "b.tsv").write_text("score\n2\n", encoding="utf-8")
    return tmp_path


def test_label_column_browse_fills_the_path(qtbot, start_dir: Path) -> None:
    dialog = LabelImportDialog(n_segments=1, start_dir=str(start_dir))
    chooser = _browse(qtbot, dialog, "Browse…")
    assert Path(chooser.directory().absolutePath()) == start_dir
    assert chooser.fileMode() == QFileDialog.FileMode.ExistingFile
    chooser.fileSelected.emit(str(start_dir / "a.tsv"))
    assert dialog.path_edit.text() == str(start_dir / "a.tsv")
    _close(chooser)


def test_score_files_browse_adds_several_files_once(qtbot, start_dir: Path) -> None:
    dialog = ScoreImportDialog(systems=("A", "B"), n_segments=1, start_dir=str(start_dir))
    chooser = _browse(qtbot, dialog, "Add files…")
    assert Path(chooser.directory().absolutePath()) == start_dir
    assert chooser.fileMode() == QFileDialog.FileMode.ExistingFiles
    paths = [str(start_dir / "a.tsv"), str(start_dir / "b.tsv")]
    chooser.filesSelected.emit(paths)
    chooser.filesSelected.emit(paths[:1])  # chosen again: not listed twice
    assert dialog.paths() == paths
    _close(chooser)
    dialog.done(0)


def test_human_judgements_browse_fills_the_file_and_the_segment_ids(qtbot, start_dir: Path) -> None:
    dialog = HumanImportDialog(systems=("A", "B"), n_segments=1, start_dir=str(start_dir))
    dialog.set_kind("spans")
    browses = [b for b in dialog.findChildren(QPushButton) if b.text() == "Browse…"]
    assert len(browses) == 2  # the file's, then the segment ids'
    choosers = []
    for button, field in zip(browses, (dialog.path_edit, dialog.segid_edit), strict=True):
        before = set(dialog.findChildren(QFileDialog))
        button.click()
        settle()
        chooser = next(d for d in dialog.findChildren(QFileDialog) if d not in before)
        assert Path(chooser.directory().absolutePath()) == start_dir
        assert chooser.fileMode() == QFileDialog.FileMode.ExistingFile
        chooser.fileSelected.emit(str(start_dir / "b.tsv"))
        assert field.text() == str(start_dir / "b.tsv")
        choosers.append(chooser)
        _close(chooser)
    dialog.done(0)
