"""Reviewing pre-annotations in the app (issue 16): bulk rulings with the reviewer recorded,
exports that ask before leaving errors out, re-attaching lost errors, each system's MQM/ESA
figure with its segment count, no significance test for a system nobody annotated, and WMT MQM
imports whose seg_id is looked up in a segment-id file or a label column."""

from __future__ import annotations

import csv
import io
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QMessageBox, QScrollArea

from matchlight.core.annotation.interchange import export_csv, left_out, left_out_message
from matchlight.core.annotation.model import Severity, Side, Status
from matchlight.core.annotation.review import REVIEWED_BY, ReviewScope, reviewer_of
from matchlight.core.annotation.typology import AnnotationMode
from matchlight.core.annotation.wmtmqm import export_mqm_tsv, read_segment_ids
from matchlight.core.io.inputs import InputSpec
from matchlight.core.session.imported import ImportedFile, LabelImport
from matchlight.core.session.store import SessionStore
from matchlight.gui.annotate.dialogs import ImportDialog
from matchlight.gui.dialogs.opendialog import ComparisonSpecs
from tests.conftest import SHARED_DATA
from tests.gui.annotate.annotatekit import (
    SOURCE,
    SYSTEM_A,
    SYSTEM_B,
    TIMEOUT,
    add,
    open_in_new_window,
    wait_scored,
    write_lines,
)
from tests.gui.chartkit import wait_job
from tests.kit import needs

ALL = tuple(Status)
TED = SHARED_DATA / "wmt21-ted-zh-en-mqm"
MISTRANSLATION = "Accuracy/Mistranslation"
HEADER = "system\tdoc\tdoc_id\tseg_id\trater\tsource\ttarget\tcategory\tseverity\n"


def mark(line: str, word: str) -> str:
    return line.replace(word, f"<v>{word}</v>", 1)


def tsv_row(system: str, seg_id: str, source: str, target: str, category: str, severity: str):
    return f"{system}\tdoc1\t1\t{seg_id}\trater1\t{source}\t{target}\t{category}\t{severity}\n"


def import_review_file(h, tmp_path: Path) -> Path:
    """Six WMT MQM rows on the small comparison (seg_id = line number); "Other" has no note."""
    rows = [
        tsv_row("A", "1", SOURCE[0], mark(SYSTEM_A[0], "sat"), "Fluency/Grammar", "Minor"),
        tsv_row("A", "3", SOURCE[2], mark(SYSTEM_A[2], "sleep"), "Fluency/Grammar", "Major"),
        tsv_row("A", "3", SOURCE[2], mark(SYSTEM_A[2], "garden"), "Accuracy/Omission", "Minor"),
        tsv_row("B", "1", SOURCE[0], mark(SYSTEM_B[0], "carpet"), MISTRANSLATION, "Major"),
        tsv_row("B", "6", SOURCE[5], mark(SYSTEM_B[5], "bred"), "Fluency/Spelling", "Minor"),
        tsv_row("B", "6", SOURCE[5], mark(SYSTEM_B[5], "buy"), "Other", "Minor"),
    ]  # fmt: skip
    path = tmp_path / "review.tsv"
    path.write_text(HEADER + "".join(rows), encoding="utf-8")
    result = h.import_annotations(path, "wmt-mqm-tsv")
    assert result is not None and len(result.spans) == 6, h.errors
    return path


def statuses(ws) -> dict[tuple[str, int, str], Status]:
    return {(s.system, s.segment, s.text): s.status for s in ws.spans()}


# -- finding 3: bulk review, the reviewer recorded ------------------------------------------------


def test_imported_errors_are_ruled_on_in_bulk_with_the_reviewer(small, tmp_path):
    h, c = small, small.c
    ws = c.workspace
    import_review_file(h, tmp_path)
    box = c.panel.review_box
    assert box.isVisibleTo(c.panel)
    h.select_row(2)
    assert c.system == 0 and box.scope() is ReviewScope.OUTPUT
    assert box.count_label.text() == "2 undecided of A, segment 3; 6 in all."
    box.confirm_button.click()
    assert statuses(ws)[("A", 2, "sleep")] is Status.CONFIRMED
    assert statuses(ws)[("A", 2, "garden")] is Status.CONFIRMED
    assert statuses(ws)[("A", 0, "sat")] is Status.UNDECIDED
    assert c.message == "2 errors confirmed of A, segment 3."
    ruled = [s for s in ws.spans("A", 2)]
    assert {reviewer_of(s)[0] for s in ruled} == {"ann"}
    assert {s.annotator for s in ruled} == {"rater1"}  # who marked it stays
    assert ws.history.undo_label() == "Confirm 2 errors"
    # The MQM column counts them now.
    assert h.window.table.value("mqm", 0, 2) == 5.0 + 1.0
    # This system: the one left of A.
    box.set_scope(ReviewScope.SYSTEM)
    assert box.count_label.text() == "1 undecided of A; 4 in all."
    box.confirm_button.click()
    assert statuses(ws)[("A", 0, "sat")] is Status.CONFIRMED
    # Everywhere, from the Annotate menu: "Other" needs a note, so it stays undecided.
    h.a.actions.review_actions[(Status.CONFIRMED, ReviewScope.ALL)].trigger()
    assert statuses(ws) == {
        ("A", 0, "sat"): Status.CONFIRMED,
        ("A", 2, "garden"): Status.CONFIRMED,
        ("A", 2, "sleep"): Status.CONFIRMED,
        ("B", 0, "carpet"): Status.CONFIRMED,
        ("B", 5, "bred"): Status.CONFIRMED,
        ("B", 5, "buy"): Status.UNDECIDED,
    }
    assert c.message == (
        "2 errors confirmed everywhere. 1 left undecided: 1 because a note is required for "
        "category 'Other': say what the error is."
    )
    # One undo step takes the whole ruling back, and redo brings it again.
    c.undo()
    assert statuses(ws)[("B", 0, "carpet")] is Status.UNDECIDED
    assert statuses(ws)[("B", 5, "bred")] is Status.UNDECIDED
    assert statuses(ws)[("A", 0, "sat")] is Status.CONFIRMED
    c.redo()
    assert statuses(ws)[("B", 0, "carpet")] is Status.CONFIRMED
    h.a.actions.review_actions[(Status.REJECTED, ReviewScope.ALL)].trigger()
    (other,) = [s for s in ws.spans() if s.category == "Other"]
    assert other.status is Status.REJECTED and reviewer_of(other)[0] == "ann"
    assert not box.isVisibleTo(c.panel)  # nothing is undecided any more


def test_confirming_one_error_by_key_records_the_reviewer(small, tmp_path):
    h, c = small, small.c
    import_review_file(h, tmp_path)
    h.select_row(0)
    c.set_system(1)
    (carpet,) = c.target_spans()
    assert carpet.status is Status.UNDECIDED and REVIEWED_BY not in carpet.extra
    c.focus_text()
    h.key("]")
    h.key("\r")
    (carpet,) = c.target_spans()
    assert carpet.status is Status.CONFIRMED and reviewer_of(carpet)[0] == "ann"
    # Reopened, the ruling is gone; rejected by Backspace, it names the reviewer again.
    assert c.set_status(carpet.id, Status.UNDECIDED)
    assert reviewer_of(c.workspace.get(carpet.id)) is None
    c.set_annotator("lead")
    c.focus_text()
    h.key("]")
    h.key("\b")
    assert reviewer_of(c.workspace.get(carpet.id))[0] == "lead"
    # The session file keeps who ruled.
    path = tmp_path / "ruled.matchlight"
    h.s.save_session_as(path)
    with SessionStore.open_copy_read_only(path) as copy:
        (kept,) = [s for s in copy.spans() if s.id == carpet.id]
    assert kept.status is Status.REJECTED and reviewer_of(kept)[0] == "lead"


# -- finding 3: exports never leave errors out silently -------------------------------------------


def export_action(h, fmt: str):
    (action,) = [a for a in h.a.ui.export_menu.actions() if a.data() == fmt]
    return action


def button(box: QMessageBox, text: str):
    (found,) = [b for b in box.buttons() if b.text() == text]
    return found


def test_an_export_that_would_leave_errors_out_asks_first(small, tmp_path):
    h, c = small, small.c
    ws = c.workspace
    import_review_file(h, tmp_path)
    h.select_row(2)
    c.panel.review_box.confirm_button.click()  # A, segment 3: two confirmed, four undecided
    (carpet,) = ws.spans("B", 0)
    c.set_status(carpet.id, Status.REJECTED)
    spans = ws.spans()
    # CSV keeps each error's status: export them all, with it.
    out = tmp_path / "all.csv"
    h.paths.append(str(out))
    export_action(h, "csv").trigger()
    box = h.a.ui.export_question
    assert box is not None and box.isVisible() and not out.exists()
    message = left_out_message(left_out(spans, "csv"))
    assert message == (
        "3 undecided, 1 rejected spans are not in the export (export every status to include them)."
    )
    assert box.text().startswith(message)
    button(box, "Export every error, with its status").click()
    assert h.a.ui.export_question is None
    assert out.read_text(encoding="utf-8") == export_csv(spans, statuses=ALL)
    rows = list(csv.DictReader(io.StringIO(out.read_text(encoding="utf-8"))))
    assert sorted(r["status"] for r in rows) == sorted(s.status.value for s in spans)
    assert {r["reviewed_by"] for r in rows if r["status"] == "confirmed"} == {"ann"}
    # Or the confirmed ones only.
    confirmed = tmp_path / "confirmed.csv"
    h.paths.append(str(confirmed))
    export_action(h, "csv").trigger()
    button(h.a.ui.export_question, "Export the confirmed errors only").click()
    assert confirmed.read_text(encoding="utf-8") == export_csv(spans)
    assert "4 spans are not" not in c.message and "3 undecided, 1 rejected" in c.message
    # A TSV has no status: only confirmed errors can go in it; the question says so.
    tsv = tmp_path / "out.tsv"
    h.paths.append(str(tsv))
    export_action(h, "wmt-mqm-tsv").trigger()
    box = h.a.ui.export_question
    assert [b.text() for b in box.buttons() if b.text() != "Cancel"] == ["Export without them"]
    assert "This format has no status" in box.text()
    button(box, "Export without them").click()
    assert tsv.read_text(encoding="utf-8") == export_mqm_tsv(
        spans,
        ws.scores(),
        lines=c.lines(),
        sources=c.comparison_session.source,
        layout=h.a.transfer.store_of().mqm_tsv_layout(),
    )
    # Cancel writes nothing.
    never = tmp_path / "never.csv"
    h.paths.append(str(never))
    export_action(h, "csv").trigger()
    button(h.a.ui.export_question, "Cancel").click()
    assert not never.exists() and h.paths == [str(never)]
    h.paths.clear()
    # Nothing left out: no question.
    h.a.actions.review_actions[(Status.REJECTED, ReviewScope.ALL)].trigger()
    for span in ws.spans():
        if span.status is Status.REJECTED:
            c.delete_span(span.id)
    clean = tmp_path / "clean.csv"
    h.paths.append(str(clean))
    export_action(h, "csv").trigger()
    assert h.a.ui.export_question is None
    assert clean.read_text(encoding="utf-8") == export_csv(ws.spans(), statuses=ALL)


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_export_question_screenshot(small, tmp_path, theme, save_shot):
    h, c = small, small.c
    h.window.set_theme(theme)
    try:
        import_review_file(h, tmp_path)
        h.select_row(2)
        c.panel.review_box.confirm_button.click()
        export_action(h, "xcomet-jsonl").trigger()
        box = h.a.ui.export_question
        for _ in range(3):
            QApplication.processEvents()
        save_shot(box, f"review-export-question-{theme}")
        button(box, "Cancel").click()
        # The panel with bulk review, while errors are undecided.
        h.select_row(5)
        c.set_system(1)
        assert c.mark_done()  # B rated on segment 6, A on segment 3: the figures warn
        c.panel.review_box.set_scope(ReviewScope.SEGMENT)
        c.panel.figures.refresh()
        assert c.panel.figures.warning_label.text().startswith("⚠ The systems' MQM scores")
        h.a.ui.dock.raise_()
        for _ in range(3):
            QApplication.processEvents()
        body = c.panel.findChild(QScrollArea).widget()  # the whole panel, not its visible part
        save_shot(body, f"review-panel-{theme}")
    finally:
        h.window.set_theme("system")


# -- re-attaching an error whose text was not found again -----------------------------------------


def test_a_lost_error_is_reattached_to_selected_text(qtbot, small, tmp_path):
    h, c = small, small.c
    lost = add(c, 0, 4, 11, 15, "minor", "Style")  # "good" of "Weather is good today."
    path = tmp_path / "work.matchlight"
    h.s.save_session_as(path)
    h.window.close()
    changed = list(SYSTEM_A)
    changed[4] = "Weather is fine today."
    write_lines(Path(h.window.comparison.systems[0].path), changed)
    other = open_in_new_window(qtbot, tmp_path, path, "second")
    try:
        o = other.c
        wait_scored(other)
        assert o.flagged == {lost.id}
        panel = o.panel
        other.select_row(4)
        o.set_system(0)
        assert panel.errors.reattach_button.isVisibleTo(panel)
        (item,) = [
            panel.errors.view.topLevelItem(i) for i in range(panel.errors.view.topLevelItemCount())
        ]
        panel.errors.view.setCurrentItem(item)
        # Nothing selected yet: it says what to do.
        panel.errors.reattach_button.click()
        assert "Select the words «good» stood for" in o.message and o.flagged == {lost.id}
        start = changed[4].index("fine")
        other.select_text(start - 1, start + 4)  # " fine": the space is trimmed
        panel.errors.reattach_button.click()
        moved = o.workspace.get(lost.id)
        assert (moved.start, moved.end, moved.text) == (start, start + 4, "fine")
        assert moved.prefix == changed[4][:start] and o.flagged == set()
        assert o.message == "Re-attached to «fine»."
        assert not panel.errors.reattach_button.isVisibleTo(panel)
        with SessionStore.open_copy_read_only(path) as copy:
            assert {s.id: s.text for s in copy.spans()}[lost.id] == "fine"
        assert o.workspace.history.undo_label() == "Re-attach error"
    finally:
        other.window.close()


# -- finding 4: each system's figures with their segments -----------------------------------------


def test_system_figures_show_their_segments_and_warn_when_they_differ(small):
    h, c = small, small.c
    ws = c.workspace
    # A: two segments, heavily penalised; B: six segments, one minor error.
    add(c, 0, 0, 4, 7, "major", "Accuracy")
    add(c, 0, 0, 0, 3, "major", "Fluency")
    add(c, 0, 0, 8, 9, "minor", "Style")
    add(c, 0, 1, 0, 1, "critical", "Accuracy")
    add(c, 1, 0, 0, 3, "minor", "Style")
    for segment in range(1, 6):
        h.select_row(segment)
        c.set_system(1)
        assert c.mark_done()
    # An ESA error (no category) on A's segment 3: not part of MQM.
    c.set_mode(AnnotationMode.ESA)
    assert c.add_span(start=0, end=3, severity=Severity.MAJOR, segment=2, system=0) is not None
    c.set_mode(AnnotationMode.MQM)
    figures = c.panel.figures
    figures.refresh()
    assert figures.isVisibleTo(c.panel)
    # By hand: A (5 + 5 + 1 + 25) / 2 = 18; B 1 / 6; three decimals, as a corpus MQM figure.
    assert figures.rows() == [["A", "18.000", "2", "—", "0"], ["B", "0.167", "6", "—", "0"]]
    assert [figures.tree.topLevelItem(i).text(2) for i in range(2)] == ["2", "6"]
    assert figures.warning_label.isVisibleTo(c.panel)
    assert figures.warning_label.text() == (
        "⚠ The systems' MQM scores are means over different segments (A 2, B 6; 2 rated for "
        "every system): compare them on the common segments, not side by side."
    )
    assert figures.note_label.text() == (
        "Errors without a category (ESA) are kept out of MQM: 1 A."
    )
    assert ws.segment_penalty("A", 2) != ws.segment_penalty("A", 2)  # NaN: no MQM rating there
    # The same segments for both: no warning.
    for segment in (2, 3, 4, 5):
        h.select_row(segment)
        c.set_system(0)
        c.mark_done()
    figures.refresh()
    assert figures.rows()[0][2] == "5"  # segment 3 holds the ESA error: no MQM rating
    c.set_mode(AnnotationMode.ESA)
    (esa_span,) = [s for s in ws.spans("A", 2) if not s.category]
    c.delete_span(esa_span.id)
    c.set_mode(AnnotationMode.MQM)
    h.select_row(2)
    c.set_system(0)
    c.mark_done()
    figures.refresh()
    assert [r[2] for r in figures.rows()] == ["6", "6"]
    assert not figures.warning_label.isVisibleTo(c.panel)
    assert not figures.note_label.isVisibleTo(c.panel)


# -- finding 5: no test for a system without annotations ------------------------------------------


def test_the_significance_panel_does_not_test_a_system_nobody_annotated(small):
    h, c = small, small.c
    for segment, (start, end) in enumerate([(4, 7), (0, 1), (4, 9), (0, 2), (0, 7), (4, 8)]):
        add(c, 0, segment, start, end, "major", "Accuracy")
    sig = h.window.comparison_docks.panel.significance
    h.qtbot.waitUntil(lambda: "mqm" in h.window.table.external, timeout=TIMEOUT)
    sig.refresh_now()
    sig.run(n_samples=200)
    wait_job(h.qtbot, sig.job)
    model = sig.model
    tested = [t for t in model.run.tests if t.result is not None]
    mqm = [t.column.key for t in tested].index("mqm")
    test = tested[mqm]
    assert model.headerData(mqm, Qt.Orientation.Horizontal).startswith("MQM")
    assert test.untested == frozenset({"B"})
    text = model.index(1, mqm).data()
    assert text == "—\nno values: not tested" and "(p =" not in text
    assert model.verdict(1, mqm) is None
    # Another column is tested as before.
    assert "(p = " in model.index(1, 0).data()


# -- the WMT TSV's seg_id from a segment-id file or a label column ---------------------------------


def open_import_dialog(h) -> ImportDialog:
    h.a.ui._on_import()
    dialog = h.a.ui.dialog
    assert isinstance(dialog, ImportDialog)
    return dialog


def test_a_wmt_tsv_import_looks_seg_ids_up_in_a_file_or_a_label_column(small, tmp_path):
    h, c = small, small.c
    ws = c.workspace
    ids = ["talk1-3", "talk1-5", "talk1-7", "talk1-9", "talk1-11", "talk1-13"]
    segid = write_lines(tmp_path / "segid.txt", ids)
    rows = [
        tsv_row("B", "talk1-7", SOURCE[2], mark(SYSTEM_B[2], "sleeping"), "Fluency", "Minor"),
        tsv_row("A", "talk1-9", mark(SOURCE[3], "Mond"), SYSTEM_A[3], "Accuracy/Omission", "Major"),
    ]  # fmt: skip
    tsv = tmp_path / "ids.tsv"
    tsv.write_text(HEADER + "".join(rows), encoding="utf-8")
    # Without the ids, seg_id is taken for a line number: a clear error.
    dialog = open_import_dialog(h)
    dialog.path_edit.setText(str(tsv))
    assert dialog.format_combo.currentData() == "wmt-mqm-tsv" and dialog.ids_combo.isEnabled()
    with h.qtbot.waitSignal(h.a.transfer.import_finished, timeout=TIMEOUT):
        dialog._on_ok()  # read in a worker
    assert h.errors[-1] == (
        "Cannot import the annotations",
        f"{tsv}, line 2: seg_id 'talk1-7' is not a segment number",
    )
    assert len(ws) == 0
    # With the segment-id file.
    dialog = open_import_dialog(h)
    dialog.path_edit.setText(str(tsv))
    h.paths.append(str(segid))
    dialog.ids_browse.click()
    assert dialog.ids_edit.text() == str(segid) and dialog.ids_edit.isEnabled()
    with h.qtbot.waitSignal(h.a.transfer.import_finished, timeout=TIMEOUT):
        dialog._on_ok()  # read in a worker
    (sleeping,) = ws.spans("B", 2)
    assert sleeping.text == "sleeping" and sleeping.status is Status.UNDECIDED
    (moon,) = ws.spans("A", 3)
    # Marked in the source only: a span on the comparison's source line.
    assert moon.side is Side.SOURCE and moon.text == "Mond"
    assert SOURCE[3][moon.start : moon.end] == "Mond"
    c.undo()
    assert len(ws) == 0
    # With a label column of the comparison holding the ids.
    core = c.comparison_session
    labels = LabelImport("seg_id", tuple(ids), ImportedFile(str(segid), "0" * 64, 1))
    core.set_labels(labels)
    dialog = open_import_dialog(h)
    dialog.path_edit.setText(str(tsv))
    index = dialog.ids_combo.findText("an id in the label column 'seg_id'")
    assert index > 0
    dialog.ids_combo.setCurrentIndex(index)
    assert dialog.request().segment_column == "seg_id"
    with h.qtbot.waitSignal(h.a.transfer.import_finished, timeout=TIMEOUT):
        dialog._on_ok()  # read in a worker
    assert [s.text for s in ws.spans("B", 2)] == ["sleeping"]
    # A column whose ids repeat is refused, naming the column and the line.
    core.set_labels(LabelImport("doc", ("d1",) * 6, ImportedFile(str(segid), "0" * 64, 1)))
    dialog = open_import_dialog(h)
    dialog.path_edit.setText(str(tsv))
    dialog.ids_combo.setCurrentIndex(dialog.ids_combo.findText("an id in the label column 'doc'"))
    with h.qtbot.waitSignal(h.a.transfer.import_finished, timeout=TIMEOUT):
        dialog._on_ok()  # read in a worker
    assert h.errors[-1][1] == "label column 'doc', line 2: segment id 'd1' also stands on line 1"


@needs(TED)
def test_the_published_ted_file_imports_onto_two_of_its_systems(harness, tmp_path):
    """Google's WMT21 TED zh-en MQM file (seg_id 84..843, 15 systems) onto a comparison of two
    of them, its segment-id file chosen in the dialog."""
    h = harness
    names = ("Facebook-AI", "Online-W")
    h.open(
        ComparisonSpecs(
            source=InputSpec(path=str(TED / "src.txt")),
            references=(InputSpec(path=str(TED / "ref.txt"), name="refB"),),
            systems=tuple(InputSpec(path=str(TED / f"sys.{n}.txt"), name=n) for n in names),
        )
    )
    path = TED / "human" / "mqm_ted_zhen.tsv"
    with path.open(encoding="utf-8", newline="") as handle:
        rows = list(csv.DictReader(handle, delimiter="\t", quoting=csv.QUOTE_NONE))
    dialog = open_import_dialog(h)
    dialog.path_edit.setText(str(path))
    dialog.ids_combo.setCurrentIndex(dialog.ids_combo.findData("file"))
    dialog.ids_edit.setText(str(TED / "segid.txt"))
    with h.qtbot.waitSignal(h.a.transfer.import_finished, timeout=TIMEOUT):
        dialog._on_ok()  # read in a worker
    assert not h.errors, h.errors
    ws = h.c.workspace
    ids = read_segment_ids(TED / "segid.txt")
    for name in names:
        errors = [r for r in rows if r["system"] == name and r["category"] != "No-error"]
        spans = ws.spans(name)
        assert len(spans) == len(errors) > 100
        assert sorted(s.segment for s in spans) == sorted(ids.index(r["seg_id"]) for r in errors)
    skipped = sum(1 for r in rows if r["system"] not in names)
    title, message = h.notices[-1]
    assert title == "Annotations imported"
    assert f"{skipped:,} rows of systems not in this comparison were skipped" in message
