"""What an annotation edit, a selection and a large import refresh: the changed figures, not
every figure (the summary's other columns, the score arrays, every span sorted)."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtWidgets import QApplication

import matchlight.gui.annotate.reviewbox as reviewbox_module
from matchlight.core.annotation.model import ErrorSpan, Status
from matchlight.core.annotation.mqm import system_mqm
from tests.gui.annotate.annotatekit import SYSTEM_A, SYSTEM_B, add
from tests.gui.conftest import grab_settled

SHOTS = Path("/tmp/matchlight-shots/annoview")


def _wait(h, ms: int) -> None:
    h.qtbot.wait(ms)
    QApplication.processEvents()


def test_an_edit_recomputes_the_summary_s_mqm_figure_alone(small, monkeypatch):
    h, c, window = small, small.c, small.window
    add(c, 0, 0, 0, 3, "major")
    h.qtbot.waitUntil(lambda: window.summary.model.value(0, "mqm") is not None)
    resets: list[object] = []
    real_set_table = window.summary.set_table
    monkeypatch.setattr(
        window.summary, "set_table", lambda table: (resets.append(table), real_set_table(table))
    )
    table = window.session.table
    asked: list[tuple[str, ...]] = []
    real_corpus = table.corpus

    def corpus(system, rows=None, *, metrics=None):
        asked.append(tuple(metrics) if metrics is not None else ("*",))
        return real_corpus(system, rows, metrics=metrics)

    monkeypatch.setattr(table, "corpus", corpus)
    add(c, 1, 2, 0, 3, "minor", "Style")
    want = system_mqm(c.workspace.spans())["B"]
    h.qtbot.waitUntil(lambda: window.summary.model.value(1, "mqm") == pytest.approx(want))
    _wait(h, 400)  # past every refresh an edit schedules
    assert resets == []  # the summary keeps its table and the other columns' figures
    assert asked and all(metrics == ("mqm",) for metrics in asked), asked


def test_a_selection_in_mqm_mode_copies_no_score_array(small, monkeypatch):
    h, c = small, small.c
    add(c, 0, 0, 0, 3, "major")
    h.select_row(1)
    _wait(h, 400)  # the edit's own refreshes are done
    ws = c.workspace
    copies: list[str] = []
    for name in ("mqm_values", "esa_values", "mqm_summary"):
        real = getattr(ws, name)
        monkeypatch.setattr(
            ws, name, lambda *a, _n=name, _r=real, **k: (copies.append(_n), _r(*a, **k))[1]
        )
    h.select_text(0, 3)
    h.select_text(4, 9)
    _wait(h, 100)
    assert copies == []
    # The panel's MQM line still says the system's figure, read without a copy.
    label = c.panel.mqm_label.text()
    mean, rated = ws.rated_mean("A")
    assert rated == 1 and f"A: {mean:.2f} over 1 rated outputs" in label


def test_the_review_box_counts_an_import_of_many_outputs_at_once(small, monkeypatch):
    c = small.c
    monkeypatch.setattr(reviewbox_module, "_RECOUNT_KEYS", 2)  # this import recounts all
    ws = c.workspace
    if ws is None:  # the session's workspace comes with the first edit
        add(c, 0, 0, 0, 3, "major")
        ws = c.workspace
    spans = [
        ErrorSpan.create(
            system=name,
            segment=segment,
            line=lines[segment],
            start=0,
            end=min(2, len(lines[segment])),
            category="",
            severity="major",
            annotator="xcomet",
            status=Status.UNDECIDED,
        )
        for name, lines in (("A", SYSTEM_A), ("B", SYSTEM_B))
        for segment in range(len(lines))
        for _ in range(2)
    ]
    ws.import_records(spans, label="Import")
    box = c.panel.review_box
    assert box._total == len(spans) == 24
    assert box._undecided == {(s.system, s.segment): 2 for s in spans}
    assert not box.isHidden()
    c.undo()
    assert box._total == 0 and box._undecided == {} and box.isHidden()


def test_the_view_after_an_import_and_an_edit(small):
    """The annotation view with imported (undecided, dotted) and confirmed spans, after an
    edit made in it: it shows the edited output, its errors listed, and nothing else changed."""
    h, c = small, small.c
    add(c, 0, 0, 0, 3, "major")
    ws = c.workspace
    spans = [
        ErrorSpan.create(
            system="A",
            segment=segment,
            line=SYSTEM_A[segment],
            start=4,
            end=7,
            category="",
            severity="minor",
            annotator="xcomet",
            status=Status.UNDECIDED,
        )
        for segment in range(len(SYSTEM_A))
    ]
    ws.import_records(spans, label="Import")
    h.a.ui.show_view()
    view = h.a.ui.view
    view.resize(1280, 720)
    c.go_to_segment(2)
    _wait(h, 100)
    before = {key: ws.spans(*key) for key in (("A", 0), ("A", 1), ("B", 2))}
    add(c, 0, 2, 0, 3, "minor", "Style")
    _wait(h, 300)
    assert view.target_text.plain_text() == SYSTEM_A[2]
    assert [s.status for s in ws.spans("A", 2)] == [Status.CONFIRMED, Status.UNDECIDED]
    assert {key: ws.spans(*key) for key in before} == before
    SHOTS.mkdir(parents=True, exist_ok=True)
    assert grab_settled(view).save(str(SHOTS / "annotperf-after-import-and-edit.png"))
