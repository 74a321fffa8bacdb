"""Annotating in the app: the keyboard flow, UTF-16 selections, MQM/ESA scores in the table,
filters, imports and exports, agreement, and how annotated rows look (light and dark)."""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QImage, QPalette, QTextCursor
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from matchlight.core.analysis.selection import RowSet
from matchlight.core.annotation.agreement import agreement
from matchlight.core.annotation.interchange import export_csv
from matchlight.core.annotation.model import ErrorSpan, Severity, Status
from matchlight.core.annotation.mqm import (
    DEFAULT_WEIGHTS,
    MQMWeights,
    WeightRule,
    esa_prefill,
    segment_mqm,
    system_mqm,
)
from matchlight.core.annotation.offsets import snap_point, utf16_length
from matchlight.core.annotation.typology import AnnotationMode
from matchlight.core.annotation.workspace import AnnotationQuery
from matchlight.core.annotation.xcomet import import_xcomet
from matchlight.core.session.store import SessionStore
from matchlight.gui.annotate.agreementdialog import (
    AGREEMENT_HEADERS,
    AgreementDialog,
    agreement_rows,
)
from matchlight.gui.annotate.controller import AnnotationController
from matchlight.gui.annotate.dialogs import guess_format
from matchlight.gui.annotate.keys import SHORTCUTS, annotation_shortcuts
from matchlight.gui.annotate.painting import SEVERITY_COLORS, box_rect, range_rects, span_style
from tests.gui.annotate.annotatekit import (
    RARE_CJK,
    SOURCE,
    SYSTEM_A,
    SYSTEM_B,
    TIMEOUT,
    Harness,
    add,
    small_specs,
    write_lines,
)
from tests.gui.conftest import rgb_pixels

SHOTS = Path("/tmp/matchlight-shots")


def mqm_by_hand(spans: list[ErrorSpan], n_systems: list[str], n: int, scores=()) -> np.ndarray:
    """The MQM column computed directly from core's functions (NaN: not annotated)."""
    values = np.full((len(n_systems), n), np.nan)
    penalties = segment_mqm(spans, weights=DEFAULT_WEIGHTS)
    annotated = {(s.system, s.segment) for s in spans if s.status is Status.CONFIRMED}
    annotated |= {(s.system, s.segment) for s in scores}
    for system, segment in annotated:
        values[n_systems.index(system), segment] = penalties.get((system, segment), 0.0)
    return values


# -- the keyboard flow ---------------------------------------------------------------------------


def test_keyboard_selection_after_astral_characters_is_stored_in_code_points(small):
    h, c = small, small.c
    h.select_row(1)
    line = c.line(1, 0)
    assert RARE_CJK in line
    word = "sign"
    start = line.index(word)
    h.select_text(start, start + len(word))
    view = h.view()
    # Qt counts the ideograph as two units: the view's selection starts one later.
    assert view.textCursor().selectionStart() == utf16_length(line[:start]) == start + 1
    h.key("1")  # Accuracy
    h.key("1")  # again: its first sub-category
    assert c.draft.category == "Accuracy/Mistranslation"
    h.key("M", Qt.KeyboardModifier.ShiftModifier)  # capital M: major
    assert c.draft.severity is Severity.MAJOR
    h.key(Qt.Key.Key_Return)
    spans = c.target_spans()
    assert [(s.start, s.end, s.text) for s in spans] == [(start, start + 4, word)]
    span = spans[0]
    assert span.category == "Accuracy/Mistranslation" and span.severity is Severity.MAJOR
    assert span.prefix == line[max(0, start - 20) : start] and span.annotator == "ann"
    assert c.draft.empty  # the draft is gone, the cursor at the end of the span
    # The same in the file, committed.
    with SessionStore.open_copy_read_only(small.s.store.path) as copy:
        assert copy.spans() == [span]


def test_mouse_selection_with_emoji_pairs(small):
    h, c = small, small.c
    h.select_row(3)
    line = c.line(3, 0)
    view = h.view()
    start = line.index("see")
    end = start + len("see the light")
    cursor = view.textCursor()
    cursor.setPosition(utf16_length(line[:start]))  # after two emoji: start + 2
    cursor.setPosition(utf16_length(line[:end]), QTextCursor.MoveMode.KeepAnchor)
    view.setTextCursor(cursor)
    view.setFocus()
    h.key("2")
    h.key("m")
    h.key(Qt.Key.Key_Enter)
    assert [(s.start, s.end, s.text) for s in c.target_spans()] == [(start, end, "see the light")]


def test_minor_major_critical_keys_and_editing_the_span_under_the_cursor(small):
    h, c = small, small.c
    h.select_row(2)
    line = c.line(2, 0)
    start = line.index("sleep")
    h.select_text(start, start + 5)
    h.key("2")
    h.key("2")  # Fluency/Grammar
    h.key("m")
    h.key(Qt.Key.Key_Return)
    (span,) = c.target_spans()
    assert (span.category, span.severity) == ("Fluency/Grammar", Severity.MINOR)
    # ] selects the span; keys now change it (and each change is one undo step).
    h.key("]")
    assert c.span_under_cursor() == span
    h.key("C", Qt.KeyboardModifier.ShiftModifier)
    assert c.target_spans()[0].severity is Severity.CRITICAL
    h.key("c")
    h.key("3")
    assert c.target_spans()[0].category == "Terminology"
    h.key(Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert c.target_spans()[0].category == "Fluency/Grammar"
    h.key(Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    h.key(Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert c.target_spans()[0].severity is Severity.MINOR
    h.key(Qt.Key.Key_Y, Qt.KeyboardModifier.ControlModifier)
    assert c.target_spans()[0].severity is Severity.CRITICAL
    # Backspace on the span deletes it; Ctrl+Shift+Z after an undo brings it back.
    h.key("]")
    h.key(Qt.Key.Key_Backspace)
    assert c.target_spans() == []
    h.key(Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert len(c.target_spans()) == 1
    h.key(Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
    assert c.target_spans() == []
    with SessionStore.open_copy_read_only(small.s.store.path) as copy:
        assert copy.spans(system="A", segment=2) == []


def test_omission_is_a_point_snapped_between_two_words(small):
    h, c = small, small.c
    h.select_row(2)
    line = c.line(2, 0)  # "The dog sleep in garden."
    inside = line.index("garden") + 2  # the cursor in the middle of "garden"
    h.select_text(inside, inside)
    h.key("1")
    assert c.draft.point == line.index("garden")  # snapped to the nearer word edge
    h.key("m")
    h.key(Qt.Key.Key_Return)
    (span,) = c.target_spans()
    assert span.is_omission and span.start == span.end == line.index("garden")
    assert snap_point(line, inside) == span.start
    assert snap_point("没有空格的句子", 3) == 3  # no spaces: every position is a boundary


def test_other_needs_a_note(small):
    h, c = small, small.c
    h.select_row(4)
    line = c.line(4, 0)
    start = line.index("good")
    h.select_text(start, start + 4)
    h.key("8")  # Other
    h.key("m")
    h.key(Qt.Key.Key_Return)
    assert c.target_spans() == []
    assert "note" in c.message
    h.key(Qt.Key.Key_F2)
    panel = c.panel
    assert panel.note_edit.hasFocus()
    QTest.keyClicks(panel.note_edit, "wrong register, mild")  # letters do not act as keys here
    h.key(Qt.Key.Key_Return, widget=panel.note_edit)
    (span,) = c.target_spans()
    assert (span.category, span.note, span.text) == ("Other", "wrong register, mild", "good")
    assert h.view().hasFocus()  # back to the text


def test_navigation_keys(small):
    h, c = small, small.c
    h.select_row(0)
    c.focus_text()
    h.key("n")
    assert h.window.current_segment() == 1
    h.key("p")
    assert h.window.current_segment() == 0
    assert c.system == 0
    h.key("s")
    assert c.system == 1
    h.key("s")
    assert c.system == 0
    h.key("S", Qt.KeyboardModifier.ShiftModifier)
    assert c.system == 1
    h.key("s")
    # Mark rows 0 and 1 of A done; U goes to the first one still to do, from anywhere.
    h.key("d")
    h.key("n")
    h.key("d")
    assert c.workspace.annotated_mask("A").tolist() == [True, True, False, False, False, False]
    h.key("u")
    assert h.window.current_segment() == 2
    h.key("U", Qt.KeyboardModifier.ShiftModifier)  # backwards, wrapping round
    assert h.window.current_segment() == 5
    # The annotation keys do not fire while typing in the search field.
    search = h.window.filter_bar.search_edit
    search.setFocus()
    QTest.keyClicks(search, "nud")
    assert search.text() == "nud"
    assert h.window.current_segment() == 5


def test_help_lists_every_shortcut_and_actions_carry_them(small):
    rows = annotation_shortcuts()
    text = "\n".join(f"{what}: {keys}" for what, keys in rows)
    for shortcut in SHORTCUTS:
        assert f"{shortcut.help}: {'  or  '.join(shortcut.keys)}" in text
        action = small.a.actions.actions[shortcut.name]
        assert [s.toString() for s in action.shortcuts()] == list(shortcut.keys)
    assert rows[0][1] == "1 … 9"
    assert [a.shortcut().toString() for a in small.a.actions.category_actions] == [
        str(n) for n in range(1, 10)
    ]
    session_keys = {
        small.s.open_session_action.shortcut().toString(),
        small.s.save_session_action.shortcut().toString(),
    }
    assert session_keys == {"Ctrl+Shift+O", "Ctrl+Shift+S"} and all(k in text for k in session_keys)
    keys = [k for s in SHORTCUTS for k in s.keys]
    assert len(keys) == len(set(keys))  # no key does two things


# -- scores in the table -------------------------------------------------------------------------


def test_mqm_column_follows_every_edit_and_equals_core(small):
    h, c = small, small.c
    window = h.window
    names = ["A", "B"]
    add(c, 0, 0, 0, 3, "major", "Accuracy")
    c.add_span(
        start=4, end=7, severity="minor", category="Fluency/Punctuation", segment=0, system=0
    )
    add(c, 1, 5, 2, 5, "critical", "Style")
    add(c, 1, 3, 0, 1, "minor", "Source issue")
    ws = c.workspace
    table = window.table
    want = mqm_by_hand(ws.spans(), names, 6)
    assert want[0, 0] == 5.1 and want[1, 5] == 25.0 and want[1, 3] == 0.0
    np.testing.assert_array_equal(table.scores[:, :, table.metric_index("mqm")], want)
    # Shown as a column of the table, per system, with the number core computed.
    model = window.model
    assert "mqm" in model.shown_scores
    col = model.score_column(0, "mqm")
    assert model.index(0, col).data() == f"{want[0, 0]:.2f}"  # MQM's precision: "5.10"
    assert model.index(1, col).data() == "…"  # not annotated
    # The corpus figure is core's system MQM.
    for s, name in enumerate(names):
        corpus = table.corpus(s, metrics=["mqm"]).values["mqm"]
        assert corpus == pytest.approx(system_mqm(ws.spans())[name])
    h.qtbot.waitUntil(lambda: window.summary.model.value(1, "mqm") == pytest.approx(12.5))
    # Undo is an edit too.
    c.undo()
    want = mqm_by_hand(ws.spans(), names, 6)
    assert math.isnan(want[1, 3])
    np.testing.assert_array_equal(table.scores[:, :, table.metric_index("mqm")], want)
    # The filters and the sort see the column like any score.
    window.proxy.set_score_range("mqm", 0, 1.0, None)
    assert window.proxy.visible_segments().tolist() == [0]
    # Edited weights: every penalty again.
    weights = MQMWeights((WeightRule(2.0, Severity.MINOR), WeightRule(10.0, Severity.MAJOR)))
    c.set_weights(weights)
    assert table.value("mqm", 0, 0) == 12.0
    with SessionStore.open_copy_read_only(small.s.store.path) as copy:
        assert copy.state().weights == weights


def test_mqm_survives_new_settings(small):
    h, c = small, small.c
    window = h.window
    add(c, 0, 0, 0, 3, "major", "Accuracy")
    config = window.config.with_settings("bleu", lowercase=True)
    with h.qtbot.waitSignal(window.controller.scoring_finished, timeout=TIMEOUT):
        window.apply_config(config)
    assert window.table.value("mqm", 0, 0) == 5.0
    assert "mqm" in window.model.shown_scores


def test_esa_mode_prefills_from_the_errors(small):
    h, c = small, small.c
    window = h.window
    h.select_row(2)
    small.a.actions.esa_action.trigger()
    assert c.mode is AnnotationMode.ESA
    line = c.line(2, 0)
    start = line.index("sleep")
    h.select_text(start, start + 5)
    h.key("1")  # no categories in ESA
    assert "severity only" in c.message
    h.key("M", Qt.KeyboardModifier.ShiftModifier)
    h.key(Qt.Key.Key_Return)
    (span,) = c.target_spans()
    assert span.category == "" and span.severity is Severity.MAJOR
    panel = c.panel
    assert panel.esa_spin.isVisibleTo(panel)
    assert panel.esa_spin.value() == esa_prefill(5.0) == 80
    # E, type a score, Enter: saved for this output.
    h.key("e")
    assert panel.esa_spin.hasFocus()
    QTest.keyClicks(panel.esa_spin, "72")
    h.key(Qt.Key.Key_Return, widget=panel.esa_spin)
    assert c.workspace.score("A", 2).score == 72.0
    assert window.table.value("esa", 0, 2) == 72.0
    assert "esa" in window.model.shown_scores
    # D saves the pre-filled score of an output without errors.
    h.key("n")
    h.key("d")
    assert c.workspace.score("A", 3).score == 100.0
    with SessionStore.open_copy_read_only(small.s.store.path) as copy:
        assert copy.state().mode is AnnotationMode.ESA
        assert {(s.segment, s.score) for s in copy.segment_scores()} == {(2, 72.0), (3, 100.0)}


# -- filters -----------------------------------------------------------------------------------


def test_filters_by_annotation(small):
    h, c = small, small.c
    window = h.window
    add(c, 0, 0, 0, 3, "major", "Accuracy/Omission")
    add(c, 1, 4, 0, 3, "minor", "Fluency")
    add(c, 0, 5, 0, 2, "minor", "Accuracy")
    c.set_annotator("other")
    add(c, 1, 2, 4, 7, "minor", "Style")
    n = small.a.table.apply_filter(AnnotationQuery(category="accuracy"))
    assert n == 2 and window.proxy.visible_segments().tolist() == [0, 5]
    assert small.a.table.apply_filter(AnnotationQuery(severity=Severity.MINOR, system="B")) == 2
    assert window.proxy.visible_segments().tolist() == [2, 4]
    assert small.a.table.apply_filter(AnnotationQuery(annotator="OTHER")) == 1
    assert small.a.table.apply_filter(AnnotationQuery(annotated=False, system="A")) == 4
    assert window.proxy.visible_segments().tolist() == [1, 2, 3, 4]
    # The filter is one row set in the session's selection, beside the bar's filters.
    window.proxy.set_text_filter("the")
    filters = window.session.selection.filters
    assert sum(isinstance(f, RowSet) for f in filters) == 1
    assert {f.kind for f in filters} == {"rows", "text"}
    small.a.table.clear_filter()
    assert [f.kind for f in window.session.selection.filters] == ["text"]
    # The panel offers the same queries.
    panel = c.panel
    panel.row_filter.combo.setCurrentIndex(panel.row_filter.combo.findText("errors by other"))
    panel.row_filter.apply_button.click()
    assert window.proxy.visible_segments().tolist() == [2]


# -- imports, exports, agreement -----------------------------------------------------------------


def test_xcomet_import_is_reviewed_with_enter_and_backspace(small, tmp_path):
    h, c = small, small.c
    path = tmp_path / "xcomet.jsonl"
    line2 = SYSTEM_A[2]
    records = [
        {
            "segment": 3,
            "text": "sleep",
            "start": line2.index("sleep") - 1,
            "end": line2.index("sleep") + 5,
            "severity": "major",
            "confidence": 0.8,
        },
        {
            "segment": 3,
            "text": "garden",
            "start": line2.index("garden"),
            "end": line2.index("garden") + 6,
            "severity": "minor",
            "confidence": 0.4,
        },
    ]
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    assert guess_format(str(path)) == "xcomet-jsonl"
    result = small.import_annotations(path, "xcomet-jsonl", system="A")
    expected = import_xcomet(path, lines=c.lines(), system="A")
    assert [(s.start, s.end, s.severity) for s in result.spans] == [
        (s.start, s.end, s.severity) for s in expected.spans
    ]
    assert h.notices and "Imported 2 errors" in h.notices[-1][1]
    h.select_row(2)
    spans = c.target_spans()
    assert [s.status for s in spans] == [Status.UNDECIDED] * 2
    assert math.isnan(h.window.table.value("mqm", 0, 2))  # undecided spans do not count yet
    c.focus_text()
    h.key("]")
    h.key("2")  # an MQM error needs a category before it is confirmed
    h.key(Qt.Key.Key_Return)
    first, _ = c.target_spans()
    assert first.status is Status.CONFIRMED and first.category == "Fluency"
    h.key("]")
    h.key(Qt.Key.Key_Backspace)
    assert c.target_spans()[1].status is Status.REJECTED
    assert h.window.table.value("mqm", 0, 2) == 5.0
    # One undo step took the whole import back... after the two reviews are undone.
    c.undo()
    c.undo()
    c.undo()
    c.undo()
    assert c.workspace.spans() == []


def test_mqm_tsv_and_esa_imports(small, tmp_path):
    h, c = small, small.c
    tsv = tmp_path / "mqm.tsv"
    header = "system\tdoc\tdoc_id\tseg_id\trater\tsource\ttarget\tcategory\tseverity\n"
    target = SYSTEM_B[0].replace("carpet", "<v>carpet</v>")
    rows = [
        f"B\tdoc1\t1\t1\trater1\t{SOURCE[0]}\t{target}\tAccuracy/Mistranslation\tMajor\n",
        f"B\tdoc1\t1\t2\trater1\t{SOURCE[1]}\t{SYSTEM_B[1]}\tNo-error\tNo-error\n",
    ]
    tsv.write_text(header + "".join(rows), encoding="utf-8")
    assert guess_format(str(tsv)) == "wmt-mqm-tsv"
    small.import_annotations(tsv, "wmt-mqm-tsv")
    spans = c.workspace.spans("B", 0)
    assert [(s.text, s.status, s.annotator) for s in spans] == [
        ("carpet", Status.UNDECIDED, "rater1")
    ]
    assert c.workspace.is_annotated("B", 1)  # the No-error row is a review mark
    esa = tmp_path / "esa.jsonl"
    tgt = SYSTEM_A[5]
    bread = tgt.index("bread")  # inclusive UTF-16 indices, as Appraise writes them
    record = {
        "langs": "de-en",
        "line_id": 5,
        "src": SOURCE[5],
        "tgt": tgt,
        "doc_id": "d",
        "domain": "news",
        "esa_spans": [
            {
                "start_i": bread,
                "end_i": bread + 4,
                "severity": "minor",
                "error_type": None,
            }
        ],
        "esa_score": 66,
        "times": None,
        "system": "A",
        "annotator": "esa1",
        "speech_info": None,
    }
    esa.write_text(json.dumps(record) + "\n", encoding="utf-8")
    assert guess_format(str(esa)) == "wmt24-esa-jsonl"
    small.import_annotations(esa, "wmt24-esa-jsonl")
    (span,) = c.workspace.spans("A", 5)
    assert span.text == "bread" and span.status is Status.UNDECIDED
    assert c.workspace.score("A", 5, annotator="esa1").score == 66.0
    assert h.window.table.value("esa", 0, 5) == 66.0
    # Round trip through the file formats: export what was confirmed.
    c.set_status(spans[0].id, Status.CONFIRMED)
    out = tmp_path / "out.tsv"
    assert small.a.transfer.export_annotations(out, "wmt-mqm-tsv") == out
    text = out.read_text(encoding="utf-8")
    assert "<v>carpet</v>" in text and "Accuracy/Mistranslation" in text


def test_exports_and_their_safety(small, tmp_path):
    h, c = small, small.c
    c.add_span(
        start=0,
        end=3,
        severity="major",
        category="Other",
        note="=cmd|' /C calc'!A0",
        segment=0,
        system=0,
    )
    csv_path = tmp_path / "spans.csv"
    small.a.transfer.export_annotations(csv_path, "csv")
    assert csv_path.read_text(encoding="utf-8") == export_csv(c.workspace.spans())
    assert "'=cmd" in csv_path.read_text(encoding="utf-8")  # spreadsheet-safe
    jsonl = tmp_path / "spans.jsonl"
    small.a.transfer.export_annotations(jsonl, "xcomet-jsonl")
    (record,) = [json.loads(x) for x in jsonl.read_text(encoding="utf-8").splitlines()]
    assert (record["text"], record["segment"], record["system"]) == ("The", 1, "A")
    esa = tmp_path / "esa.jsonl"
    small.a.transfer.export_annotations(esa, "wmt24-esa-jsonl")
    assert json.loads(esa.read_text(encoding="utf-8"))["tgt"] == SYSTEM_A[0]
    # Never over an input file.
    system_file = h.window.comparison.systems[0].path
    before = Path(system_file).read_bytes()
    assert small.a.transfer.export_annotations(system_file, "csv") is None
    assert Path(system_file).read_bytes() == before
    assert h.errors and "Cannot export" in h.errors[-1][0]


def test_agreement_with_a_second_annotator(qtbot, small, tmp_path, save_shot):
    c = small.c
    add(c, 0, 0, 0, 3, "major", "Accuracy")
    add(c, 0, 2, 4, 7, "minor", "Fluency")
    add(c, 1, 1, 0, 3, "minor", "Style")
    add(c, 0, 3, 0, 2, "major", "Style")
    mine = tmp_path / "first.matchlight"
    small.s.save_session_as(mine)
    # The second annotator: another window on the same files.
    other = Harness(qtbot, tmp_path, name="second")
    try:
        other.open(small_specs(tmp_path / "data"))
        o = other.c
        o.set_annotator("second")
        o.add_span(start=0, end=3, severity="major", category="Accuracy", segment=0, system=0)
        o.add_span(start=4, end=9, severity="major", category="Fluency", segment=2, system=0)
        o.add_span(start=2, end=6, severity="minor", category="Style", segment=1, system=1)
        o.add_span(start=0, end=2, severity="minor", category="Style", segment=3, system=0)
        theirs = tmp_path / "second.matchlight"
        other.s.save_session_as(theirs)
        report = small.agreement_with(theirs)
        with SessionStore.open_copy_read_only(theirs) as copy:
            want = agreement(
                c.workspace.spans(), copy.spans(), c.workspace.scores(), copy.segment_scores()
            )
        assert report == want
        # Two spans at the same place, one of them Major against Minor: one exact match.
        assert report.overall.position_matches == 2 and report.overall.exact_matches == 1
        assert report.per_system["A"].exact_f1 == pytest.approx(1 / 3)
        assert report.per_system["A"].position_f1 == pytest.approx(2 / 3)
        rows = agreement_rows(report)
        exact = AGREEMENT_HEADERS.index("All (exact) F1")
        assert rows[-1][0] == "all systems" and rows[-1][exact] == f"{want.overall.exact_f1:.3f}"
        dialog = AgreementDialog(report, str(theirs), small.window)
        dialog.show()
        assert dialog.table.item(0, exact).text() == rows[0][exact]
        save_shot(dialog, "annotate-agreement-dialog")
        dialog.close()
        assert want.correlations["A"].n == 3
        pearson = AGREEMENT_HEADERS.index("MQM Pearson r")
        assert rows[0][pearson] == f"{want.correlations['A'].pearson:.3f}" == "-0.500"
    finally:
        other.window.close()


def test_agreement_refuses_sessions_of_other_files(qtbot, small, tmp_path):
    h, c = small, small.c
    add(c, 0, 0, 0, 3, "major", "Accuracy")
    other = Harness(qtbot, tmp_path, name="second")
    try:
        specs = small_specs(tmp_path / "changed")
        write_lines(Path(specs.systems[0].path), [*SYSTEM_A[:5], "Something else."])
        other.open(specs)
        add(other.c, 0, 0, 0, 3, "major", "Accuracy")
        theirs = tmp_path / "second.matchlight"
        other.s.save_session_as(theirs)
    finally:
        other.window.close()
    assert small.agreement_with(theirs) is None
    assert "different files" in h.errors[-1][0] and "A" in h.errors[-1][1]


# -- painting --------------------------------------------------------------------------------------


def test_severity_styles_differ_in_shape_and_colour():
    line = "The cat sat."
    base = dict(system="A", segment=0, line=line, category="Style", annotator="x")
    minor = ErrorSpan.create(start=0, end=3, severity="minor", **base)
    major = ErrorSpan.create(start=0, end=3, severity="major", **base)
    critical = ErrorSpan.create(start=0, end=3, severity="critical", **base)
    for dark in (False, True):
        styles = [span_style(s, dark) for s in (minor, major, critical)]
        assert len({(s.style, s.double, round(s.width, 1)) for s in styles}) == 3
        assert len({s.color.name() for s in styles}) == 3
    assert span_style(minor.edited(status=Status.REJECTED), False) is None
    assert span_style(minor.edited(status=Status.UNDECIDED), False).style == Qt.PenStyle.DotLine
    assert set(SEVERITY_COLORS) == set(Severity)


def _count_color(image: QImage, color: QColor, tolerance: int = 40) -> int:
    """Pixels within ``tolerance`` of ``color`` (the sum of the channels' differences)."""
    want = np.array([color.red(), color.green(), color.blue()])
    return int((np.abs(rgb_pixels(image) - want).sum(axis=-1) <= tolerance).sum())


def _set_dark(window, dark: bool) -> None:
    app = QApplication.instance()
    if dark:
        palette = QPalette()
        for role, value in (
            (QPalette.ColorRole.Window, "#2b2b2b"),
            (QPalette.ColorRole.Base, "#1e1e1e"),
            (QPalette.ColorRole.AlternateBase, "#262626"),
            (QPalette.ColorRole.Text, "#e6e6e6"),
            (QPalette.ColorRole.WindowText, "#e6e6e6"),
            (QPalette.ColorRole.Button, "#353535"),
            (QPalette.ColorRole.ButtonText, "#e6e6e6"),
        ):
            palette.setColor(role, QColor(value))
        app.setPalette(palette)
    else:
        app.setPalette(app.style().standardPalette())


def _annotate_for_screenshot(c: AnnotationController) -> None:
    def at(system: int, segment: int, word: str) -> tuple[int, int]:
        line = c.line(segment, system)
        start = line.index(word)
        return start, start + len(word)

    s, e = at(0, 0, "sat")
    add(c, 0, 0, s, e, "minor", "Fluency/Grammar")
    s, e = at(0, 1, "sign shows up")
    c.add_span(
        start=s, end=e, severity="major", category="Accuracy/Mistranslation", segment=1, system=0
    )
    s, e = at(0, 2, "sleep")
    add(c, 0, 2, s, e, "minor", "Fluency/Grammar")
    point = c.line(2, 0).index("garden")
    c.add_span(
        start=point, end=point, severity="major", category="Accuracy/Omission", segment=2, system=0
    )
    s, e = at(1, 0, "carpet")
    c.add_span(
        start=s, end=e, severity="critical", category="Accuracy/Mistranslation", segment=0, system=1
    )
    s, e = at(1, 5, "bred")
    add(c, 1, 5, s, e, "minor", "Fluency/Spelling")


@pytest.mark.parametrize("dark", [False, True], ids=["light", "dark"])
def test_annotated_rows_screenshot(small, dark, save_shot):
    h, c = small, small.c
    window = h.window
    _set_dark(window, dark)
    try:
        _annotate_for_screenshot(c)
        h.select_row(0)
        window.table_view.scrollTo(window.proxy.index(0, window.model.hypothesis_column(1)))
        h.qtbot.waitUntil(lambda: window.summary.model.value(1, "mqm") == 13.0)
        small.a.ui.dock.raise_()
        c.focus_text()
        for _ in range(5):
            QApplication.processEvents()
        path = save_shot(window, f"annotate-{'dark' if dark else 'light'}")
        image = QImage(str(path))
        # The severity outlines are painted (table cells and the detail pane).
        for severity in (Severity.MINOR, Severity.MAJOR, Severity.CRITICAL):
            color = QColor(SEVERITY_COLORS[severity][1 if dark else 0])
            assert _count_color(image.copy(0, 0, 1050, 900), color, 60) > 20, severity
        save_shot(c.panel, f"annotate-panel-{'dark' if dark else 'light'}")
    finally:
        _set_dark(window, False)


def test_spans_in_cells_are_painted_where_their_text_is(small):
    """The cell overlay draws a span's outline over the span's characters, not elsewhere."""
    h, c = small, small.c
    window = h.window
    line = c.line(1, 0)
    start = line.index("here")
    c.add_span(
        start=start, end=start + 4, severity="critical", category="Style", segment=1, system=0
    )
    view = window.table_view
    col = window.model.hypothesis_column(0)
    view.scrollTo(window.proxy.index(1, col))
    rect = view.visualRect(window.proxy.index(1, col))
    for _ in range(3):
        QApplication.processEvents()
    with window.delegate.unbounded():
        image = view.viewport().grab(rect).toImage()
    image.save(str(SHOTS / "annotate-cell.png")) if SHOTS.is_dir() else None
    color = QColor(SEVERITY_COLORS[Severity.CRITICAL][0])
    hits = [
        (x, y)
        for x in range(image.width())
        for y in range(image.height())
        if abs(image.pixelColor(x, y).red() - color.red()) < 40
        and abs(image.pixelColor(x, y).green() - color.green()) < 40
        and abs(image.pixelColor(x, y).blue() - color.blue()) < 40
    ]
    assert hits, "no outline painted"
    xs = [x for x, _ in hits]
    ys = [y for _, y in hits]
    # The outline's box has the size of the word's place in the cell's own document.
    doc = window.delegate.document(window.proxy.index(1, col))
    doc.setTextWidth(rect.width() - 6 - 2 * 3)
    a16 = utf16_length(line[:start])
    (box,) = range_rects(doc, a16, a16 + 4)
    # The box is drawn outside the word's line box (a critical one doubled, outside again).
    style = span_style(
        ErrorSpan.create(
            start=0,
            end=4,
            severity="critical",
            category="Style",
            system="A",
            segment=1,
            line="here",
            annotator="x",
        ),
        False,
    )
    outer = box_rect(box, style).adjusted(*(d * 2 * style.stroke for d in (-1, -1, 1, 1)))
    assert abs((max(xs) - min(xs)) - (outer.width() + style.stroke)) <= 4
    assert abs((max(ys) - min(ys)) - (outer.height() + style.stroke)) <= 4


# -- the hooks in the detail pane and the table delegate ------------------------------------------


def test_detail_pane_overlay_and_cursor_hooks(qtbot, sample):
    from matchlight.core.scoring.detail import RowDetailer
    from matchlight.gui.detail.detailpane import DetailPane

    pane = DetailPane()
    qtbot.addWidget(pane)
    pane.resize(700, 600)
    pane.show()
    text = sample.text
    detail = RowDetailer(sample.config).row(
        segment=5,
        source=sample.source[5],
        references=[r[5] for r in text.references],
        systems=list(zip(text.system_names, [s[5] for s in text.systems], strict=True)),
    )
    calls: list[tuple[int, int, str]] = []

    def paint(painter, view, segment, system):
        calls.append((segment, system, view.plain_text()))

    pane.set_hypothesis_overlay(paint)
    pane.show_row(detail)
    qtbot.waitUntil(lambda: {(s, y) for s, y, _ in calls} == {(5, 0), (5, 1), (5, 2)})
    assert all(shown == text.systems[y][5] for _, y, shown in calls)
    with qtbot.waitSignal(pane.hypothesis_cursor_changed) as blocker:
        view = pane.hypothesis_view(2)
        cursor = view.textCursor()
        cursor.setPosition(3)
        cursor.setPosition(6, QTextCursor.MoveMode.KeepAnchor)
        view.setTextCursor(cursor)
    assert blocker.args == [2]
    calls.clear()
    pane.set_hypothesis_overlay(None)
    pane.update_hypothesis_views()
    QApplication.processEvents()
    assert calls == []


def test_delegate_overlay_is_called_for_output_cells_only(qtbot, sample):
    from matchlight.gui.highlight.detailcache import DetailCache
    from matchlight.gui.table.delegate import HighlightDelegate
    from matchlight.gui.table.model import SegmentTableModel
    from matchlight.gui.table.tableview import SegmentTableView

    session = sample.session()
    model = SegmentTableModel(session)
    view = SegmentTableView()
    qtbot.addWidget(view)
    view.setModel(model)
    cache = DetailCache(sample.text, sample.source, sample.config)
    delegate = HighlightDelegate(cache, view)
    view.setItemDelegate(delegate)
    view.resize(1600, 300)
    view.show()
    calls: list[tuple[int, int, str]] = []

    def paint(painter, doc, segment, system, dark):
        calls.append((segment, system, doc.toPlainText()))

    delegate.set_overlay(paint)
    with delegate.unbounded():
        view.viewport().grab()
    assert calls
    hyp_columns = {model.hypothesis_column(s) for s in range(3)}
    visible = {c for c in range(model.columnCount()) if not view.isColumnHidden(c)}
    assert {s for _, s, _ in calls} <= {0, 1, 2}
    assert hyp_columns & visible
    for segment, system, shown in calls:
        assert shown == sample.text.systems[system][segment]
    calls.clear()
    delegate.set_overlay(None)
    with delegate.unbounded():
        view.viewport().grab()
    assert calls == []
    cache.shutdown()
