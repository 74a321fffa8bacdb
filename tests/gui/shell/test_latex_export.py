"""File ▸ Export LaTeX table…: the table of the rows shown against the window's baseline, the
same as core's (and ``matchlight compare --latex``'s) for those rows, computed off the GUI
thread and never written over an input."""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import threading
from pathlib import Path

import pytest

from matchlight.core.analysis.selection import SegmentRange, Selection
from matchlight.core.report.latex import paired_latex_table
from matchlight.core.session.locations import RECOVERY_ENV
from matchlight.gui.shell import latexexport
from matchlight.gui.shell.latexexport import ERROR_TITLE
from tests.gui.shell.test_report_export import copied_sample
from tests.gui.shell.windowkit import TIMEOUT, Harness


@pytest.fixture
def harness(qtbot, tmp_path, monkeypatch):
    monkeypatch.setenv(RECOVERY_ENV, str(tmp_path / "recovery"))
    h = Harness(qtbot, tmp_path)
    yield h
    h.window.close()


def file_actions(window) -> list[str]:
    menus = {a.text().replace("&", ""): a.menu() for a in window.menuBar().actions()}
    return [a.text().replace("&", "") for a in menus["File"].actions()]


def test_the_table_of_the_rows_shown_against_the_baseline(
    harness, qtbot, tmp_path: Path, monkeypatch
) -> None:
    window = harness.window
    exporter = window.latex_export
    assert "Export LaTeX table…" in file_actions(window)
    exporter.update_action()
    assert not exporter.action.isEnabled()  # nothing open
    harness.open_and_wait(copied_sample(tmp_path / "inputs"))
    exporter.update_action()
    assert exporter.action.isEnabled()
    core = window.session.session
    core.set_baseline(1)
    window.session.set_selection(Selection((SegmentRange("1-100"),)))
    threads: list[str] = []
    made = latexexport.paired_latex_table

    def recorded(*args, **kwargs):
        threads.append(threading.current_thread().name)
        return made(*args, **kwargs)

    monkeypatch.setattr(latexexport, "paired_latex_table", recorded)
    target = tmp_path / "out" / "scores"
    target.parent.mkdir()
    harness.next_save_path = str(target)
    with qtbot.waitSignal(exporter.export_finished, timeout=TIMEOUT) as blocker:
        exporter.action.trigger()
    assert blocker.args == [str(target) + ".tex"]
    assert threads == ["matchlight-latex"]
    assert harness.save_paths[-1].endswith("-scores.tex")
    written = Path(blocker.args[0]).read_text(encoding="utf-8")
    rows = core.selected_rows()
    assert len(rows) == 100
    assert written == paired_latex_table(core.table, baseline=1, rows=rows)
    assert "the baseline, literal" in written and "Corpus scores on 100 segments" in written
    assert "LaTeX table written to" in window.statusBar().currentMessage()
    assert harness.errors == []


def test_an_input_is_refused_before_any_test(harness, qtbot, tmp_path: Path) -> None:
    window = harness.window
    specs = copied_sample(tmp_path / "inputs")
    harness.open_and_wait(specs)
    target = Path(specs.systems[0].path)
    before = target.read_bytes()
    with qtbot.waitSignal(window.latex_export.export_failed, timeout=TIMEOUT) as blocker:
        assert not window.latex_export.export(target)
    assert target.name in blocker.args[0]
    assert harness.errors[-1][0] == ERROR_TITLE
    assert target.read_bytes() == before
    assert not window.latex_export.running
