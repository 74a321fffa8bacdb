"""Session files in the app: autosave from the first edit, Save as, reopening with everything
restored, changed inputs, damaged and newer files, recovery on start, the command line, and a
process killed in the middle of a burst of annotation edits.

Run as a script (``python tests/gui/annotate/test_sessions.py child DATA RECOVERY``) this file
is the child that annotates until it is killed.
"""

from __future__ import annotations

import argparse
import os
import random
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[3]
if __name__ == "__main__":  # the child process: make the tests package importable
    sys.path.insert(0, str(ROOT))

from PySide6.QtCore import Qt  # noqa: E402
from PySide6.QtWidgets import QMessageBox  # noqa: E402

from matchlight.core.annotation.model import ErrorSpan, Severity, Status  # noqa: E402
from matchlight.core.annotation.mqm import MQMWeights, WeightRule  # noqa: E402
from matchlight.core.annotation.typology import AnnotationMode  # noqa: E402
from matchlight.core.annotation.workspace import AnnotationQuery  # noqa: E402
from matchlight.core.session.locations import RECOVERY_ENV  # noqa: E402
from matchlight.core.session.recovery import list_recoverable  # noqa: E402
from matchlight.core.session.store import (  # noqa: E402
    SCHEMA_VERSION,
    SessionStore,
    file_digest,
)
from matchlight.gui.annotate.dialogs import RecoveryDialog  # noqa: E402
from matchlight.gui.shell.app import build_parser, start_session  # noqa: E402
from tests.core.session.sessionkit import damage_spans  # noqa: E402
from tests.gui.annotate.annotatekit import (  # noqa: E402
    SYSTEM_A,
    TIMEOUT,
    Harness,
    add,
    open_in_new_window,
    small_specs,
    wait_scored,
    write_lines,
)


def digest(path: Path) -> str:
    return file_digest(path)[0]


# -- autosave ----------------------------------------------------------------------------------


def test_autosave_starts_with_the_first_edit(small, recovery):
    c = small.c
    assert small.s.store is None and not list(recovery.glob("*.matchlight"))
    c.undo()  # nothing to undo: no file either
    c.focus_text()
    small.key("m")  # a draft is no edit
    assert small.s.store is None and not list(recovery.glob("*.matchlight"))
    span = add(c, 0, 1, 0, 1, "minor", "Style")
    assert small.s.store is not None and small.s.is_untitled()
    assert small.s.store.path.parent == recovery
    with SessionStore.open_copy_read_only(small.s.store.path) as copy:
        assert copy.spans() == [span]
        inputs = copy.inputs()
        assert [(i.role, i.name) for i in inputs] == [
            ("source", "source"),
            ("reference", "ref"),
            ("system", "A"),
            ("system", "B"),
        ]
        for item in inputs:
            assert (item.sha256, item.size) == file_digest(item.path)
        assert copy.state().annotator == "ann"
    assert small.s.status_label.text() == "Session: untitled (autosaved)"
    # Every later edit is in the file as soon as it returns.
    c.set_status(span.id, Status.REJECTED)
    with SessionStore.open_copy_read_only(small.s.store.path) as copy:
        assert copy.spans()[0].status is Status.REJECTED


def test_an_untitled_session_with_every_edit_undone_is_not_kept(small, recovery):
    c = small.c
    add(c, 0, 1, 0, 1, "minor", "Style")
    c.undo()
    assert c.workspace.spans() == [] and list(recovery.glob("*.matchlight"))
    small.window.close()
    assert list_recoverable() == []


def test_clicking_an_output_cell_annotates_that_system(small):
    window, c = small.window, small.c
    assert c.system == 0
    index = window.proxy.index(3, window.model.hypothesis_column(1))
    window.table_view.setCurrentIndex(index)
    assert c.system == 1 and c.target() == (3, 1)


# -- save, reopen: everything equal --------------------------------------------------------------


def test_save_and_reopen_restores_everything(qtbot, small, tmp_path, recovery):
    h, c = small, small.c
    window = h.window
    # Settings, baseline, selection and layout.
    config = window.config.with_settings("bleu", lowercase=True)
    with qtbot.waitSignal(window.controller.scoring_finished, timeout=TIMEOUT):
        window.apply_config(config)
    window.baseline_combo.setCurrentIndex(1)
    mode = next(m for m in window.highlight_actions if m != window.highlight_mode)
    window.highlight_actions[mode].trigger()
    # Annotations of every kind, a changed typology, weights and annotator.
    c.set_annotator("Ana")
    c.set_typology(c.typology.with_category("Accuracy/False friend"))
    c.set_weights(MQMWeights((WeightRule(2.0, Severity.MINOR), WeightRule(7.0, Severity.MAJOR))))
    add(c, 0, 0, 8, 9, "major", "Accuracy/False friend")
    add(c, 0, 2, 8, 13, "minor", "Fluency/Grammar", note="sleeps")
    point = SYSTEM_A[2].index("garden")
    add(c, 0, 2, point, point, "major", "Accuracy/Omission")
    add(c, 1, 5, 4, 7, "critical", "Other", note="agreement")
    rejected = add(c, 1, 0, 0, 3, "minor", "Style")
    c.set_status(rejected.id, Status.REJECTED)
    c.go_to_segment(4)
    h.settle()
    c.mark_done()
    small.a.table.apply_filter(AnnotationQuery(annotated=True))
    window.proxy.set_text_filter("the")
    h.settle()
    c.move_system(1)
    window.table_view.setColumnHidden(window.model.hypothesis_column(0) - 1, True)
    hidden = [
        window.model.headerData(col, Qt.Orientation.Horizontal)
        for col in range(window.model.columnCount())
        if window.table_view.isColumnHidden(col)
    ]
    assert hidden
    current = window.current_segment()
    path = tmp_path / "saved" / "work.matchlight"
    h.paths.append(str(path))
    window_saved = small.s.save_session_as()
    assert window_saved == path and path.exists()
    assert not list(recovery.glob("*.matchlight"))  # the untitled file went
    assert small.s.status_label.text() == "Session: work.matchlight"
    expected = {
        "spans": c.workspace.spans(),
        "scores": c.workspace.scores(),
        "selection": window.session.selection,
        "mqm": window.table.column("mqm", 0).copy(),
        "typology": c.typology,
        "weights": c.workspace.weights,
        "rows": window.proxy.visible_segments().tolist(),
    }
    window.close()

    other = open_in_new_window(qtbot, tmp_path, path, "second")
    try:
        o, w2 = other.c, other.window
        wait_scored(other, config)
        assert other.errors == [] and other.notices == []
        assert w2.config == config
        assert w2.session.session.baseline == 1 and w2.baseline_combo.currentIndex() == 1
        assert w2.session.selection == expected["selection"]
        assert w2.proxy.visible_segments().tolist() == expected["rows"]
        assert w2.highlight_mode == mode
        assert o.workspace.spans() == expected["spans"]
        assert o.workspace.scores() == expected["scores"]
        assert o.typology == expected["typology"] and o.workspace.weights == expected["weights"]
        assert o.annotator == "Ana" and o.mode is AnnotationMode.MQM
        np.testing.assert_array_equal(w2.table.column("mqm", 0), expected["mqm"])
        assert o.system == 1
        assert w2.current_segment() == current
        assert [
            w2.model.headerData(col, Qt.Orientation.Horizontal)
            for col in range(w2.model.columnCount())
            if w2.table_view.isColumnHidden(col)
        ] == hidden
        assert other.s.session_path == path and not other.s.is_untitled()
        assert other.s.recent_sessions() == [str(path)]
        # It goes on in the same file.
        add(o, 0, 3, 0, 2, "minor", "Style")
        with SessionStore.open_copy_read_only(path) as copy:
            assert len(copy.spans()) == len(expected["spans"]) + 1
    finally:
        other.window.close()


def test_changed_input_is_named_and_errors_kept_reattached_or_flagged(qtbot, small, tmp_path):
    h, c = small, small.c
    kept = add(c, 0, 0, 4, 7, "minor", "Style")  # "cat" of line 1
    moved = add(c, 0, 2, 8, 13, "major", "Fluency")  # "sleep" of line 3
    lost = add(c, 0, 4, 11, 15, "minor", "Style")  # "good" of line 5
    path = tmp_path / "work.matchlight"
    small.s.save_session_as(path)
    h.window.close()
    changed = list(SYSTEM_A)
    changed[2] = "Yes, the dog sleep in garden."
    changed[4] = "Weather is fine today."
    system_file = Path(h.window.comparison.systems[0].path)
    write_lines(system_file, changed)
    other = open_in_new_window(qtbot, tmp_path, path, "second")
    try:
        o = other.c
        wait_scored(other)
        ((_title, message),) = other.notices
        assert "sys.A.en" in message and "(system A)" in message
        assert "1 are where they were, 1 were re-attached" in message
        assert "1 could not be found" in message
        spans = {s.id: s for s in o.workspace.spans()}
        assert spans[kept.id] == kept
        assert spans[moved.id].text == "sleep" and spans[moved.id].start == moved.start + 5
        assert spans[lost.id] == lost and o.flagged == {lost.id}
        with SessionStore.open_copy_read_only(path) as copy:  # the new offsets are saved
            assert {s.id: s.start for s in copy.spans()}[moved.id] == moved.start + 5
        # The panel says so, and shows the rows.
        panel = o.panel
        assert panel.errors.flagged_label.isVisibleTo(panel)
        assert "1 errors could not be found" in panel.errors.flagged_label.text()
        assert other.a.table.show_flagged() == 1
        assert other.window.proxy.visible_segments().tolist() == [4]
        # The flagged span is not painted where its text no longer is; it can be deleted.
        assert o.delete_span(lost.id) and o.flagged == set()
    finally:
        other.window.close()


def test_missing_input_is_named_and_nothing_changes(qtbot, small, tmp_path):
    h, c = small, small.c
    add(c, 0, 0, 4, 7, "minor", "Style")
    path = tmp_path / "work.matchlight"
    small.s.save_session_as(path)
    h.window.close()
    Path(h.window.comparison.systems[1].path).unlink()
    before = digest(path)
    other = Harness(qtbot, tmp_path, name="second")
    try:
        assert not other.open_session(path)
        ((_title, message),) = other.errors
        assert "missing" in message and "sys.B.en" in message and "B (system)" in message
        assert digest(path) == before
        assert other.window.comparison is None
    finally:
        other.window.close()


# -- bad files -----------------------------------------------------------------------------------


def saved_session(h: Harness, tmp_path: Path, n_spans: int = 0) -> Path:
    c = h.c
    add(c, 0, 0, 4, 7, "minor", "Style")
    path = tmp_path / "work.matchlight"
    h.s.save_session_as(path)
    h.window.close()
    if n_spans:
        with SessionStore.open(path) as store:
            line = SYSTEM_A[1]
            store.add_many(
                ErrorSpan.create(
                    system="A",
                    segment=1,
                    line=line,
                    start=k % 5,
                    end=k % 5 + 3,
                    category="Style",
                    severity="minor",
                    annotator="bulk",
                )
                for k in range(n_spans)
            )
    return path


def test_damaged_session_is_refused_untouched_and_opens_as_a_read_only_copy(
    qtbot, small, tmp_path, recovery
):
    path = saved_session(small, tmp_path, n_spans=3000)
    damage_spans(path)
    before = digest(path)
    other = Harness(qtbot, tmp_path, name="second")
    # What lies beside the session (the harnesses' own settings files aside).
    siblings = sorted(p.name for p in path.parent.iterdir() if p.suffix != ".ini")
    try:
        o = other.c
        other.window.show()
        assert not other.open_session(path)
        box = other.s.refusal_box
        assert isinstance(box, QMessageBox) and box.isVisible()
        assert "damaged" in box.text() and "was not changed" in box.text()
        assert digest(path) == before
        assert sorted(p.name for p in path.parent.iterdir() if p.suffix != ".ini") == siblings
        copy_button = next(b for b in box.buttons() if "read-only copy" in b.text())
        copy_button.click()
        wait_scored(other)
        assert other.s.read_only and other.s.store.path != path
        assert any("damaged" in m for _, m in other.notices)
        assert "read-only copy" in other.s.status_label.text()
        # Editing is refused, with a reason; the file stays as it was.
        assert o.add_span(start=0, end=3, severity="minor", category="Style") is None
        assert "read-only" in o.message
        assert digest(path) == before
        # Save as: a new, sound session with what could be read.
        target = tmp_path / "salvaged.matchlight"
        assert other.s.save_session_as(target) == target
        assert not other.s.read_only
        added = o.add_span(start=0, end=3, severity="minor", category="Style", segment=0)
        assert added is not None
        with SessionStore.open_copy_read_only(target) as store:
            assert store.integrity_check() == ["ok"] and added in store.spans()
        assert digest(path) == before
        assert not list(recovery.glob("*.matchlight"))
    finally:
        other.window.close()


def test_session_of_a_newer_matchlight_is_refused_untouched(qtbot, small, tmp_path):
    path = saved_session(small, tmp_path)
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute(f"PRAGMA user_version={SCHEMA_VERSION + 1}")
    conn.close()
    before = digest(path)
    other = Harness(qtbot, tmp_path, name="second")
    try:
        assert not other.open_session(path)
        ((_title, message),) = other.errors
        assert "newer Matchlight" in message and "was not changed" in message
        assert other.s.refusal_box is None  # no copy: it could not be read
        assert digest(path) == before
    finally:
        other.window.close()


def test_not_a_session_is_refused(qtbot, tmp_path, recovery):
    path = tmp_path / "notes.matchlight"
    path.write_text("not a database", encoding="utf-8")
    h = Harness(qtbot, tmp_path)
    try:
        assert not h.open_session(path)
        assert "not a Matchlight session" in h.errors[0][1]
        assert path.read_text(encoding="utf-8") == "not a database"
    finally:
        h.window.close()


# -- recovery and the command line ---------------------------------------------------------------


def test_recovery_is_offered_on_start(qtbot, small, tmp_path, recovery, save_shot):
    c = small.c
    span = add(c, 0, 2, 8, 13, "major", "Fluency")
    small.window.close()  # quitting without naming the session (or a crash)
    (left,) = list_recoverable()
    assert left.spans == 1 and not left.in_use
    other = Harness(qtbot, tmp_path, name="second")
    try:
        other.window.show()
        args = argparse.Namespace(session=None, sample=False, src=None, ref=[], hyp=[])
        assert not start_session(other.window, args, offer_recovery=True)
        dialog = other.a.ui.dialog
        assert isinstance(dialog, RecoveryDialog) and dialog.isVisible()
        assert dialog.tree.topLevelItemCount() == 1
        item = dialog.tree.topLevelItem(0)
        assert item.text(2) == "1" and "A, B" in item.text(1)
        save_shot(dialog, "sessions-recovery-dialog")
        dialog.open_button.click()
        wait_scored(other)
        o = other.c
        assert o.workspace.spans() == [span]
        assert other.s.is_untitled() and other.s.session_path == left.path
        # Naming it takes it out of the recovery folder.
        assert other.s.save_session_as(tmp_path / "named.matchlight")
        assert list_recoverable() == []
    finally:
        other.window.close()


def test_recovered_session_can_be_discarded(qtbot, small, tmp_path, recovery):
    add(small.c, 0, 2, 8, 13, "major", "Fluency")
    small.window.close()
    other = Harness(qtbot, tmp_path, name="second")
    try:
        other.window.show()
        dialog = other.s.offer_recovery()
        assert dialog is not None
        dialog.discard_button.click()
        assert list_recoverable() == [] and not dialog.isVisible()
        assert other.s.offer_recovery() is None  # nothing left to offer
    finally:
        other.window.close()


def test_command_line_opens_a_session(qtbot, small, tmp_path):
    path = saved_session(small, tmp_path)
    parser = build_parser()
    args = parser.parse_args([str(path)])
    assert args.session == str(path)
    other = Harness(qtbot, tmp_path, name="second")
    try:
        other.window.show()
        assert start_session(other.window, args, offer_recovery=True)
        wait_scored(other)
        assert len(other.c.workspace.spans()) == 1 and other.s.session_path == path
        assert other.a.ui.dialog is None  # no recovery offer when a session was named
        bad = parser.parse_args([str(path), "--sample"])
        assert start_session(other.window, bad, offer_recovery=False)
        assert "do not combine" in other.errors[-1][1]
    finally:
        other.window.close()


def test_the_app_opens_a_session_named_on_its_command_line(qtbot, small, tmp_path):
    from matchlight.gui.shell import app

    parser = app.build_parser()
    if not any(a.dest == "session" for a in parser._actions):
        pytest.skip("gui/shell/app.py does not take a session argument yet")
    path = saved_session(small, tmp_path)
    errors: list[tuple[str, str]] = []
    window = app.create_window(
        parser.parse_args([str(path)]),
        settings=small.settings,
        error_sink=lambda title, message: errors.append((title, message)),
        show=True,
    )
    qtbot.addWidget(window)
    try:
        qtbot.waitUntil(
            lambda: (
                window.annotations.controller.workspace is not None
                and window.sessions.session_path == path
            ),
            timeout=TIMEOUT,
        )
        assert len(window.annotations.controller.workspace.spans()) == 1 and errors == []
    finally:
        window.close()


# -- a crash in the middle of annotating ----------------------------------------------------------


def child(data: str, recovery: str) -> None:
    """Annotate through the app's controller as fast as possible until killed; print each edit
    once the controller has returned (and with it, the commit)."""
    os.environ["QT_QPA_PLATFORM"] = "offscreen"
    os.environ[RECOVERY_ENV] = recovery
    from matchlight.gui.shell.app import ensure_application

    app = ensure_application()
    from tests.gui.annotate.annotatekit import Harness as _Harness

    class Bot:
        def waitUntil(self, condition, timeout=TIMEOUT):
            end = time.monotonic() + timeout / 1000
            while not condition():
                app.processEvents()
                if time.monotonic() > end:
                    raise TimeoutError

        def addWidget(self, widget):
            pass

    settings_dir = Path(recovery).parent
    h = _Harness(Bot(), settings_dir, name=f"child-{os.getpid()}")
    h.settings.setValue("annotation/annotator", f"pid{os.getpid()}")
    h.window.show()
    assert h.window.open_specs(small_specs(Path(data)))
    Bot().waitUntil(lambda: h.window.table is not None and h.window.table.complete)
    h.settle()
    c = h.c
    print("ready", flush=True)
    n = 0
    rng = random.Random(os.getpid())
    while True:
        segment, system = n % 6, n % 2
        line = c.line(segment, system)
        start = rng.randrange(0, len(line) - 3)
        span = c.add_span(
            start=start,
            end=start + 2,
            severity="minor",
            category="Style",
            segment=segment,
            system=system,
        )
        if span is not None:
            print(f"add {span.id}", flush=True)
        if n % 3 == 0 and span is not None:
            c.set_status(span.id, Status.REJECTED)
            print(f"reject {span.id}", flush=True)
        if n % 5 == 4:
            c.undo()
            print("undo", flush=True)
        n += 1
        app.processEvents()


#: Children started and killed. Each start costs a Qt app, a window and a scoring; the totals the
#: test asserts (more than 20 edits reported, more than 3 each time) hold with this seed's draws.
BURSTS = 3


@pytest.mark.slow  # starts the app three times in child processes
@pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs SIGKILL")
def test_app_killed_mid_burst_loses_no_reported_edit(qtbot, tmp_path, recovery):
    small_specs(tmp_path / "data")  # the files the child opens
    rng = random.Random(20261201)
    env = {**os.environ, "PYTHONPATH": str(ROOT), RECOVERY_ENV: str(recovery)}
    seen_files = set()
    reported_total = 0
    last = None
    for _ in range(BURSTS):
        proc = subprocess.Popen(
            [sys.executable, __file__, "child", str(tmp_path / "data"), str(recovery)],
            stdout=subprocess.PIPE,
            text=True,
            cwd=ROOT,
            env=env,
        )
        assert proc.stdout is not None
        line = proc.stdout.readline()
        assert line == "ready\n", line
        # Kill it at a random moment after a random number of edits, however fast it goes.
        before: list[str] = []
        wanted = rng.randint(4, 30)
        while sum(1 for x in before if x.startswith("add ")) < wanted:
            before.append(proc.stdout.readline())
            assert before[-1], "the child stopped before it was killed"
        time.sleep(rng.uniform(0.0, 0.05))
        proc.send_signal(signal.SIGKILL)
        rest = "".join(before) + proc.stdout.read()
        proc.wait(timeout=60)
        assert proc.returncode == -signal.SIGKILL
        events = [x.split() for x in rest.split("\n")[:-1]]  # a cut last line is dropped
        found = [s for s in list_recoverable() if s.path not in seen_files]
        assert len(found) == 1 and not found[0].in_use and found[0].problem is None
        path = found[0].path
        seen_files.add(path)
        with SessionStore.open(path) as store:
            assert store.integrity_check() == ["ok"]
            spans = {s.id: s for s in store.spans()}
        added = {e[1] for e in events if e[0] == "add"}
        undone = sum(1 for e in events if e[0] == "undo")
        rejected = {e[1] for e in events if e[0] == "reject"}
        # Every reported edit is there; the only ones missing were undone (each undo takes one
        # step back: a rejection or an addition).
        missing = added - set(spans)
        assert len(missing) <= undone
        assert len(added) > 3
        for span_id in rejected & set(spans):
            status = spans[span_id].status
            assert status in (Status.REJECTED, Status.CONFIRMED)  # CONFIRMED: undone
        reported_total += len(added)
        last = path
    assert reported_total > 20
    # The app reopens the last one: every span the file holds is in the workspace.
    h = Harness(qtbot, tmp_path, name="reopen")
    try:
        h.window.show()
        assert h.s.open_session(last), h.errors
        wait_scored(h)
        with SessionStore.open_copy_read_only(last) as copy:
            assert h.c.workspace.spans() == copy.spans()
    finally:
        h.window.close()


if __name__ == "__main__" and len(sys.argv) == 4 and sys.argv[1] == "child":
    child(sys.argv[2], sys.argv[3])
