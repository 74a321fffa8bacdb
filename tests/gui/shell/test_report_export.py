"""File ▸ Export HTML report… end to end, and the annotation keys in Help ▸ Keyboard shortcuts.

The report is written from a copy of the bundled sample (so that a refused write could never
touch the repository's files); its figures are compared with ``core`` computed directly on the
same files, formatted as the page formats them (two decimals, three for MQM).
"""

from __future__ import annotations

import copy
import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import shutil
from dataclasses import replace
from html.parser import HTMLParser
from pathlib import Path

import numpy as np
import pytest
from PySide6.QtGui import QKeySequence
from PySide6.QtWidgets import QAbstractItemView, QDialogButtonBox, QFileDialog

from matchlight.core.analysis.selection import SegmentRange, Selection
from matchlight.core.analysis.significance import DEFAULT_BOOTSTRAP_SAMPLES
from matchlight.core.annotation.model import Status
from matchlight.core.annotation.mqm import DEFAULT_WEIGHTS, system_mqm
from matchlight.core.metrics.base import ScoreColumn
from matchlight.core.scoring.config import ScoringConfig
from matchlight.core.scoring.engine import score_corpus
from matchlight.core.session.comparison import ComparisonSession
from matchlight.core.session.locations import RECOVERY_ENV
from matchlight.gui.annotate.keys import annotation_shortcuts
from matchlight.gui.dialogs.opendialog import ComparisonSpecs, sample_specs
from matchlight.gui.shell.about import WINDOW_SECTION, ShortcutsDialog
from matchlight.gui.shell.reportexport import (
    ERROR_TITLE,
    SHORTCUT,
    ask_report_path,
    session_snapshot,
)
from tests.gui.shell.windowkit import TIMEOUT, Harness


@pytest.fixture
def harness(qtbot, tmp_path, monkeypatch):
    # Annotation edits autosave an untitled session: into the test's folder, not the user's.
    monkeypatch.setenv(RECOVERY_ENV, str(tmp_path / "recovery"))
    h = Harness(qtbot, tmp_path)
    yield h
    h.window.close()


def copied_sample(folder: Path) -> ComparisonSpecs:
    """The bundled sample's files copied into ``folder``, as specs naming the copies."""
    folder.mkdir(parents=True, exist_ok=True)
    specs = sample_specs()

    def moved(spec):
        target = folder / Path(spec.path).name
        shutil.copy(spec.path, target)
        return replace(spec, path=str(target))

    return ComparisonSpecs(
        source=moved(specs.source),
        references=tuple(moved(s) for s in specs.references),
        systems=tuple(moved(s) for s in specs.systems),
    )


class Cells(HTMLParser):
    """The text of every ``<td>`` with ``data-system`` in the report, keyed by the enclosing
    table's ``data-rows``/``data-column`` and the cell's ``data-system``/``data-column``/
    ``data-field``; and the system name cells of the summary tables."""

    def __init__(self) -> None:
        super().__init__()
        self.cells: dict[tuple[str, int, str], str] = {}
        self.names: dict[str, list[str]] = {}
        self._table = ""
        self._key: tuple[str, int, str] | None = None
        self._name = False
        self._text: list[str] = []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "table":
            self._table = a.get("data-rows") or a.get("data-column") or a.get("class") or ""
        elif tag == "td" and "data-system" in a:
            what = a.get("data-column") or a.get("data-field") or ""
            self._key = (self._table, int(a["data-system"]), what)
            self._text = []
        elif tag == "td" and a.get("class") == "name":
            self._name = True
            self._text = []

    def handle_data(self, data):
        if self._key is not None or self._name:
            self._text.append(data)

    def handle_endtag(self, tag):
        if tag != "td":
            return
        if self._key is not None:
            self.cells[self._key] = "".join(self._text).strip()
            self._key = None
        elif self._name:
            self.names.setdefault(self._table, []).append("".join(self._text).strip())
            self._name = False


def parse(html: str) -> Cells:
    cells = Cells()
    cells.feed(html)
    return cells


def export_and_wait(harness: Harness, path: Path, shot=None) -> str:
    """Trigger File ▸ Export HTML report… with the save dialog answering ``path``; returns the
    path the window reported as written. ``shot(widget, name)`` saves the busy window."""
    window = harness.window
    exporter = window.report_export
    harness.next_save_path = str(path)
    with harness.qtbot.waitSignal(exporter.export_finished, timeout=TIMEOUT) as blocker:
        window.export_report_action.trigger()
        # The outcome arrives through the event loop: until then the export is busy.
        assert exporter.running
        assert not window.export_report_action.isEnabled()
        assert exporter.busy_label.isVisibleTo(window)
        assert window.statusBar().currentMessage() == f"Writing the report to {path}…"
        if shot is not None:
            shot(window, "report-export-busy")
    assert not exporter.running
    assert not exporter.busy_label.isVisibleTo(window)
    return blocker.args[0]


# -- the report ----------------------------------------------------------------------------------


def test_report_of_the_selection_has_cores_figures(qtbot, harness, tmp_path, save_shot):
    window = harness.window
    assert not window.export_report_action.isEnabled()  # nothing open
    specs = copied_sample(tmp_path / "sample")
    harness.open_and_wait(specs)
    assert window.export_report_action.isEnabled()
    assert window.export_report_action in window.menuBar().actions()[0].menu().actions()

    comparison = specs.load()
    text = comparison.corpus_text()
    expected = score_corpus(text, ScoringConfig())
    source = comparison.source.lines
    # The session's selection: the rows mentioning "year"; the highlight mode: ROUGE-L's LCS.
    window.filter_bar.search_edit.setText("year")
    window.filter_bar.apply_text_filter()
    rows = [
        i
        for i in range(len(text))
        if any("year" in c[i].casefold() for c in (*text.references, *text.systems, source))
    ]
    qtbot.waitUntil(
        lambda: len(window.session.session.selected_rows()) == len(rows), timeout=TIMEOUT
    )
    assert window.session.session.selected_rows().tolist() == rows
    assert 0 < len(rows) < len(text)
    window.highlight_actions["lcs"].trigger()
    assert window.highlight_mode == "lcs"
    before = {path: Path(path).read_bytes() for path in specs.paths}

    target = tmp_path / "out" / "report.html"
    target.parent.mkdir()
    written = export_and_wait(harness, target, save_shot)
    assert written == str(target)
    # The suggested name sits next to the first system output.
    assert harness.save_paths[-1] == str(Path(specs.systems[0].path).parent / "sample-report.html")
    assert harness.errors == []
    assert window.statusBar().currentMessage() == f"Report written to {target}"
    save_shot(window, "report-export-done")
    # Written atomically: the page and nothing else (no temporary file left behind).
    assert sorted(os.listdir(target.parent)) == ["report.html"]

    page = target.read_text(encoding="utf-8")
    cells = parse(page)
    names = list(text.system_names)
    assert names == ["fluent", "literal", "rough"]
    assert cells.names["all"] == names and cells.names["selected"] == names
    headline = [c.key for c in expected.columns if c.kind == "score" and c.headline]
    assert "bleu" in headline and "rougeL_f" in headline
    for s in range(len(names)):
        everything = expected.corpus(s).values
        chosen = expected.corpus(s, rows).values
        for column in headline:
            assert cells.cells[("all", s, column)] == f"{everything[column]:.2f}"
            assert cells.cells[("selected", s, column)] == f"{chosen[column]:.2f}"
    assert f"Selected {len(rows):,} segments" in page
    # The window's highlight mode, and the paired bootstrap on the selected rows.
    lcs = next(m for m in window.config.highlight_modes() if m.key == "lcs")
    assert f'<p class="legend">{lcs.label}:' in page
    assert f'data-samples="{DEFAULT_BOOTSTRAP_SAMPLES}"' in page
    for s in range(len(names)):
        score = expected.corpus(s, rows).values["bleu"]
        assert cells.cells[("bleu", s, "score")] == f"{score:.2f}"
    # The inputs were only read.
    assert {path: Path(path).read_bytes() for path in before} == before


def test_annotations_of_the_workspace_are_in_the_report(qtbot, harness, tmp_path):
    window = harness.window
    specs = copied_sample(tmp_path / "sample")
    harness.open_and_wait(specs)
    controller = window.annotations.controller
    spans = [
        controller.add_span(start=0, end=3, severity="major", category="Accuracy", segment=2),
        controller.add_span(
            start=0, end=4, severity="minor", category="Fluency", segment=5, system=2
        ),
    ]
    assert all(spans), controller.message
    assert all(s.status is Status.CONFIRMED for s in spans)
    target = tmp_path / "annotated.html"
    export_and_wait(harness, target)
    page = target.read_text(encoding="utf-8")
    assert 'id="mqm"' in page
    cells = parse(page)
    mqm = system_mqm(spans, weights=DEFAULT_WEIGHTS)
    names = specs.load().corpus_text().system_names
    for s, name in enumerate(names):
        value = mqm.get(name)
        shown = "–" if value is None else f"{value:.3f}"
        assert cells.cells[("mqm", s, "mqm")] == shown
    # The untitled session autosaves in the recovery folder: protected, but not named.
    assert "recovery" not in page


def test_an_input_file_is_refused_and_left_unchanged(harness, tmp_path):
    window = harness.window
    specs = copied_sample(tmp_path / "sample")
    harness.open_and_wait(specs)
    for spec in (specs.references[0], specs.systems[1]):
        path = Path(spec.path)
        before = path.read_bytes()
        stamp = path.stat().st_mtime_ns
        harness.next_save_path = str(path)
        window.export_report_action.trigger()
        assert not window.report_export.running  # refused before any work
        title, message = harness.errors[-1]
        assert title == ERROR_TITLE
        assert str(path) in message and "refusing to overwrite an input" in message
        assert path.read_bytes() == before and path.stat().st_mtime_ns == stamp
        assert not [n for n in os.listdir(path.parent) if n.endswith(".tmp")]
    assert window.export_report_action.isEnabled()


def test_a_write_failure_names_the_path_and_the_reason(qtbot, harness, tmp_path):
    window = harness.window
    harness.open_and_wait(copied_sample(tmp_path / "sample"))
    target = tmp_path / "no-such-folder" / "report.html"
    harness.next_save_path = str(target)
    with qtbot.waitSignal(window.report_export.export_failed, timeout=TIMEOUT) as blocker:
        window.export_report_action.trigger()
    title, message = harness.errors[-1]
    assert title == ERROR_TITLE and message == blocker.args[0]
    assert message.startswith(f"{target}: ") and "No such file" in message
    assert not target.parent.exists()
    assert window.export_report_action.isEnabled()  # ready for another try


def test_the_default_dialog_asks_for_an_html_page(qtbot, harness, tmp_path, monkeypatch):
    asked = []

    def fake(parent, caption, suggested, filters):
        asked.append((caption, suggested, filters))
        return str(tmp_path / "chosen"), filters.split(";;")[0]

    monkeypatch.setattr(QFileDialog, "getSaveFileName", staticmethod(fake))
    assert ask_report_path(harness.window, "Export HTML report", "/x/y.html") == str(
        tmp_path / "chosen"
    )
    assert asked[0][1] == "/x/y.html" and "*.html" in asked[0][2]
    # Through the action: a name without a suffix gets ".html".
    harness.open_and_wait(copied_sample(tmp_path / "sample"))
    harness.next_save_path = str(tmp_path / "plain")
    with qtbot.waitSignal(harness.window.report_export.export_finished, timeout=TIMEOUT) as b:
        harness.window.export_report_action.trigger()
    assert b.args[0] == str(tmp_path / "plain.html")
    assert (tmp_path / "plain.html").read_text(encoding="utf-8").startswith("<!DOCTYPE html>")


def test_the_worker_reads_a_snapshot_that_later_edits_leave_alone(sample):
    # A table of its own: the session-wide sample's table is shared by other tests.
    core = ComparisonSession(
        sample.text,
        config=sample.config,
        source=sample.source,
        reference_names=sample.reference_names,
        table=copy.deepcopy(sample.table),
    )
    n_sys, n = len(core.system_names), core.n_segments
    column = ScoreColumn(
        key="human", label="Human", short="H", metric="human", description="", corpus="mean"
    )
    first = np.arange(n_sys * n, dtype=np.float64).reshape(n_sys, n)
    core.set_column(column, first)
    snapshot = session_snapshot(core)
    keys = snapshot.table.column_keys
    # The GUI thread goes on: new values in place, another column, baseline, selection.
    core.set_column(column, -first)
    core.set_column(replace(column, key="other", label="Other"), first)
    core.set_baseline(2)
    core.set_selection(Selection((SegmentRange("1-5"),)))
    assert core.table.column_keys == (*keys, "other")
    assert snapshot.table.column_keys == keys and list(snapshot.table.external) == ["human"]
    assert np.array_equal(snapshot.table.column("human", 1), first[1])
    assert snapshot.table.corpus(1).values["human"] == pytest.approx(first[1].mean())
    assert snapshot.baseline == 0 and core.baseline == 2
    assert snapshot.selected_rows().tolist() == list(range(n))
    assert core.selected_rows().tolist() == [0, 1, 2, 3, 4]
    # The scored statistics are shared, not copied: a complete table never changes them.
    assert all(
        snapshot.table.stats["bleu"][k] is core.table.stats["bleu"][k]
        for k in core.table.stats["bleu"]
    )


# -- Help ▸ Keyboard shortcuts ---------------------------------------------------------------------


def test_shortcuts_dialog_lists_the_annotation_keys(qtbot, harness, save_shot):
    window = harness.window
    window.shortcuts_action.trigger()
    (dialog,) = [w for w in window.findChildren(ShortcutsDialog) if w.isVisible()]
    assert dialog.section("Annotation") == annotation_shortcuts()
    mine = dialog.section(WINDOW_SECTION)
    native = QKeySequence(SHORTCUT).toString(QKeySequence.SequenceFormat.NativeText)
    assert ("Export HTML report", native) in mine
    assert ("Copy row", "Ctrl+C") in mine
    # The window's section comes first, then the annotation keys.
    table = dialog.table
    headings = [r for r in range(table.rowCount()) if table.columnSpan(r, 0) == 2]
    assert [table.item(r, 0).text() for r in headings] == [WINDOW_SECTION, "Annotation"]
    assert headings[1] == 1 + len(mine)
    save_shot(dialog, "shortcuts-dialog-top")
    table.scrollToItem(table.item(headings[1], 0), QAbstractItemView.ScrollHint.PositionAtTop)
    save_shot(dialog, "shortcuts-dialog-annotation")
    dialog.findChild(QDialogButtonBox).rejected.emit()
