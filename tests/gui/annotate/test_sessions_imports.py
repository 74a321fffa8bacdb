"""Imported columns in the app's session files: segment scores and a label column loaded
through the "Compare systems" dock's dialogs are saved with the session and come back in a new
window (the table shows the column with the same values, a filter on it keeps its rows, Buckets
offers the label column); a score file changed since is named, and the saved values are used.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

import numpy as np
from PySide6.QtCore import Qt
from sacrebleu.metrics.chrf import CHRF

from matchlight.core.analysis.selection import ScoreRange, Selection
from matchlight.core.io.labels import read_labels
from matchlight.core.io.scores import ScoreSpec, read_scores
from matchlight.core.session.store import SessionStore
from tests.gui.annotate.annotatekit import (
    REFERENCE,
    SYSTEM_A,
    SYSTEM_B,
    Harness,
    open_in_new_window,
    wait_scored,
)
from tests.gui.chartkit import accept, settle, wait_job

DOMAINS = ["animals", "misc", "animals", "nature", "nature", "food"]


def write_inputs(folder: Path) -> tuple[list[str], Path]:
    """A score file per system (sacreBLEU's sentence chrF, 0-1, one NA) and a TSV with a
    domain column."""
    chrf = CHRF()
    paths = []
    for name, hyps in (("A", SYSTEM_A), ("B", SYSTEM_B)):
        values = [chrf.sentence_score(h, [r]).score / 100 for h, r in zip(hyps, REFERENCE)]
        shown = [repr(v) for v in values]
        if name == "B":
            shown[3] = "NA"
        path = folder / f"sys.{name}.tsv"
        path.write_text("score\n" + "".join(f"{v}\n" for v in shown), encoding="utf-8")
        paths.append(str(path))
    meta = folder / "meta.tsv"
    rows = "".join(f"{d}\tdoc{i // 2}\n" for i, d in enumerate(DOMAINS))
    meta.write_text("domain\tdocument\n" + rows, encoding="utf-8")
    return paths, meta


def import_through_the_dock(h: Harness, paths: list[str], meta: Path) -> str:
    docks = h.window.comparison_docks
    added: list[str] = []
    docks.column_added.connect(added.append)
    dialog = docks.show_score_dialog()
    dialog.name_edit.setText("COMET-22")
    dialog.set_files(paths)
    dialog.column_edit.setText("score")
    accept(h.qtbot, dialog)
    assert not dialog.isVisible(), dialog.error_label.text()
    labels = docks.show_label_dialog()
    labels.path_edit.setText(str(meta))
    labels.column_edit.setText("domain")
    accept(h.qtbot, labels)
    assert not labels.isVisible(), labels.error_label.text()
    settle()
    assert list(docks.link.labels) == ["domain"]
    return added[0]


def expected_values(paths: list[str]) -> np.ndarray:
    return read_scores(
        [ScoreSpec(p, column="score") for p in paths], systems=("A", "B"), n_segments=6, name="x"
    ).values


def test_imported_scores_and_labels_come_back_in_a_new_window(qtbot, small, tmp_path, save_shot):
    h, window = small, small.window
    paths, meta = write_inputs(tmp_path)
    key = import_through_the_dock(h, paths, meta)
    values = expected_values(paths)
    np.testing.assert_array_equal(window.table.scores[:, :, window.table.metric_index(key)], values)
    threshold = float(np.median(values[0]))
    keep = Selection((ScoreRange(key, 0, low=threshold),))
    window.session.set_selection(keep)
    h.settle()
    rows = window.proxy.visible_segments().tolist()
    assert rows == np.flatnonzero(values[0] >= threshold).tolist() and 0 < len(rows) < 6
    save_shot(window, "session-imports-before-saving")
    path = tmp_path / "saved" / "imports.matchlight"
    assert small.s.save_session_as(path) == path
    with SessionStore.open_copy_read_only(path) as copy:
        assert [r.key for r in copy.imports()] == [key, "domain"]
    window.close()

    other = open_in_new_window(qtbot, tmp_path, path, "second")
    try:
        w2 = other.window
        wait_scored(other)
        assert other.errors == [] and other.notices == []
        table = w2.table
        assert table.has(key) and table.column_info(key).label == "COMET-22"
        np.testing.assert_array_equal(table.scores[:, :, table.metric_index(key)], values)
        assert key in w2.model.shown_scores
        titles = [
            w2.model.headerData(col, Qt.Orientation.Horizontal)
            for col in range(w2.model.columnCount())
        ]
        assert any("COMET-22" in str(t) for t in titles)
        assert w2.session.selection == keep
        assert w2.proxy.visible_segments().tolist() == rows
        docks = w2.comparison_docks
        assert w2.filter_bar.range_metric_combo.findData(key) >= 0
        label = docks.link.labels["domain"]
        assert label.labels == read_labels(str(meta), n_segments=6, column="domain").labels
        buckets = docks.panel.buckets
        docks.dock.raise_()
        docks.panel.tabs.setCurrentWidget(buckets)
        buckets.set_choices(by="label:domain")
        wait_job(qtbot, buckets.job)
        settle()
        assert buckets.by == "label:domain"
        save_shot(w2, "session-imports-reopened-buckets")
    finally:
        other.window.close()


def test_a_changed_score_file_is_named_and_the_saved_values_are_used(qtbot, small, tmp_path):
    h, window = small, small.window
    paths, meta = write_inputs(tmp_path)
    key = import_through_the_dock(h, paths, meta)
    values = expected_values(paths)
    path = tmp_path / "imports.matchlight"
    assert small.s.save_session_as(path) == path
    window.close()
    Path(paths[0]).write_text("score\n" + "0.5\n" * 6, encoding="utf-8")

    other = open_in_new_window(qtbot, tmp_path, path, "second")
    try:
        wait_scored(other)
        assert other.errors == []
        [(title, message)] = other.notices
        assert title == "Session opened"
        assert "imported files changed" in message
        assert f"{Path(paths[0]).resolve()} (COMET-22, changed)" in message
        assert str(Path(paths[1]).resolve()) not in message and str(meta) not in message
        table = other.window.table
        np.testing.assert_array_equal(table.scores[:, :, table.metric_index(key)], values)
    finally:
        other.window.close()


def test_a_column_removed_from_the_comparison_leaves_the_session(small, tmp_path):
    h = small
    paths, meta = write_inputs(tmp_path)
    key = import_through_the_dock(h, paths, meta)
    path = tmp_path / "imports.matchlight"
    assert small.s.save_session_as(path) == path
    h.window.session.session.remove_column(key)
    small.s.flush()
    with SessionStore.open_copy_read_only(path) as copy:
        assert [r.key for r in copy.imports()] == ["domain"]


def test_a_format_1_session_opens_in_the_app_and_stays_format_1(qtbot, small, tmp_path):
    """A session saved before imports existed opens as before (no imports, nothing reported)
    and is not upgraded by being opened, so the Matchlight that wrote it can still open it."""
    h = small
    path = tmp_path / "old.matchlight"
    assert small.s.save_session_as(path) == path
    h.window.close()
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("DROP TABLE imports")
    conn.execute("PRAGMA user_version=1")
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()

    other = open_in_new_window(qtbot, tmp_path, path, "second")
    try:
        wait_scored(other)
        assert other.errors == [] and other.notices == []
        assert not any(k.startswith("imported") for k in other.window.table.column_keys)
        assert other.window.comparison_docks.link.labels == {}
        other.s.flush()
    finally:
        other.window.close()
    with SessionStore.open_copy_read_only(path) as copy:
        assert copy.format_version() == 1 and copy.imports() == []
