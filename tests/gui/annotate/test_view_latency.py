"""What a move or a large step costs the window: the annotation view first, the rest later.

While the annotation view is in front, a move (N, P, Ctrl+G, a neighbour's click) shows the new
output there at once; the main window's table (a scroll repaints every cell) and detail pane
behind it catch up once the moves pause, or at once when the view is left. A detail arriving
repaints its own row of the table, not the table. A large import, its undo and its redo are
applied a slice at a time (the window answers between slices), as one undo step and one
transaction in the session file.

Real WMT22 de-en lines (300 rows), so that the table scrolls.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication

import matchlight.gui.annotate.stepping as stepping_module
from matchlight.core.annotation.history import AddSpan, Batch
from matchlight.core.annotation.model import ErrorSpan, Status
from matchlight.core.annotation.xcomet import import_xcomet
from matchlight.core.io.inputs import InputSpec
from matchlight.gui.detail import detailpane
from matchlight.gui.dialogs.opendialog import ComparisonSpecs
from matchlight.gui.table.model import SEGMENT_ROLE
from tests.conftest import SHARED_DATA
from tests.gui.annotate.annotatekit import TIMEOUT, Harness, add, write_lines
from tests.gui.annotate.test_annotation_view import open_view, settle
from tests.gui.annotate.test_edit_repaint import _Painted, _row_band
from tests.kit import data_lines

ROWS = 300
WMT = SHARED_DATA / "wmt22-de-en"


@pytest.fixture
def wide(harness: Harness, tmp_path: Path) -> Harness:
    """300 rows of WMT22 de-en, two systems."""
    folder = tmp_path / "wmt"
    folder.mkdir()

    def part(name: str) -> str:
        return str(write_lines(folder / name, data_lines(WMT / name)[:ROWS]))

    harness.open(
        ComparisonSpecs(
            source=InputSpec(path=part("src.txt")),
            references=(InputSpec(path=part("ref.txt"), name="ref"),),
            systems=(
                InputSpec(path=part("sys.JDExploreAcademy.txt"), name="JDE"),
                InputSpec(path=part("sys.LT22.txt"), name="LT22"),
            ),
        )
    )
    return harness


def _row_on_screen(h: Harness, segment: int) -> bool:
    table, proxy = h.window.table_view, h.window.proxy
    top = table.rowViewportPosition(proxy.proxy_row(segment))
    return 0 <= top < table.viewport().height()


def test_moves_in_the_view_leave_the_table_and_the_pane_until_they_pause(wide, monkeypatch):
    h, c = wide, wide.c
    monkeypatch.setattr(detailpane, "DEFER_MS", 600_000)  # no pause while the test moves
    h.select_row(0)
    pane, table = h.window.detail_pane, h.window.table_view
    view = open_view(h)
    assert view.in_front()
    settle()
    rendered: list[int] = []
    pane.rendered.connect(lambda: rendered.append(pane.detail().segment))
    scrolled = table.verticalScrollBar().value()
    for segment in (150, 151, 152):
        assert c.go_to_segment(segment)
        settle()
        # The view shows it now ...
        assert view.target_text.plain_text() == c.line(segment, c.system)
        assert h.window.current_segment() == segment
        # ... the table behind has not scrolled, the pane has put nothing in yet.
        assert table.verticalScrollBar().value() == scrolled
        assert not _row_on_screen(h, segment)
    assert rendered == []
    # Once the moves pause, both catch up, once.
    monkeypatch.setattr(detailpane, "DEFER_MS", 50)
    assert c.go_to_segment(240)
    h.qtbot.waitUntil(lambda: _row_on_screen(h, 240) and rendered == [240], timeout=TIMEOUT)
    assert pane.title.text() == "Segment 241"
    # Leaving the view catches up at once, without waiting for the pause.
    monkeypatch.setattr(detailpane, "DEFER_MS", 600_000)
    assert c.go_to_segment(20)
    settle()
    assert not _row_on_screen(h, 20)
    view.close()
    assert _row_on_screen(h, 20)
    h.qtbot.waitUntil(lambda: rendered[-1] == 20, timeout=TIMEOUT)
    # Without the view in front, a move scrolls the table at once, as it always did.
    assert c.go_to_segment(200)
    assert _row_on_screen(h, 200)


def test_with_the_evidence_shown_the_pane_follows_every_move(wide):
    h, c = wide, wide.c
    h.select_row(0)
    view = open_view(h)
    view.set_evidence(True)
    settle()
    assert not view.in_front()  # the evidence follows the pane: it must not wait
    assert c.go_to_segment(120)
    h.qtbot.waitUntil(lambda: h.window.detail_pane.title.text() == "Segment 121", timeout=500)
    assert _row_on_screen(h, 120)


def test_the_tables_highlights_wait_while_the_view_is_in_front(wide, monkeypatch):
    """The rows the table asks highlights for are computed once the view is left (or shows
    the evidence), not between the annotator's keys in the view."""
    h, c = wide, wide.c
    monkeypatch.setattr(detailpane, "DEFER_MS", 50)
    h.select_row(0)
    view = open_view(h)
    assert view.in_front()
    cache = h.window.delegate.cache
    assert c.go_to_segment(200)  # the table scrolls there once the moves pause
    h.qtbot.waitUntil(lambda: _row_on_screen(h, 200), timeout=TIMEOUT)
    h.window.table_view.viewport().repaint()  # the table asks for its rows' highlights
    settle()
    h.qtbot.wait(200)
    # The current row's detail is computed (the pane shows it at the pause); the others wait.
    assert cache.peek(200) is not None
    waiting = cache.pending()
    assert len(waiting) > 5 and 200 not in waiting
    assert all(cache.peek(s) is None for s in waiting)
    view.set_evidence(True)  # the evidence follows the pane: no more waiting
    h.qtbot.waitUntil(lambda: all(cache.peek(s) is not None for s in waiting), timeout=TIMEOUT)
    view.set_evidence(False)
    assert view.in_front()
    assert c.go_to_segment(110)  # rows not seen before
    h.qtbot.waitUntil(lambda: _row_on_screen(h, 110), timeout=TIMEOUT)
    h.window.table_view.viewport().repaint()
    settle()
    assert cache.pending()
    view.close()  # leaving the view computes what the table waits for
    h.qtbot.waitUntil(lambda: not cache.pending(), timeout=TIMEOUT)


def test_a_detail_arriving_repaints_its_own_row_only(wide):
    h = wide
    h.select_row(0)
    table, proxy = h.window.table_view, h.window.proxy
    table.scrollToTop()
    cache = h.window.delegate.cache
    last = table.rowAt(table.viewport().height() - 1)
    shown = range(table.rowAt(0), ROWS if last < 0 else last + 1)
    # Every row on screen has its detail (none arrives on its own while the test looks).
    h.qtbot.waitUntil(
        lambda: all(cache.peek(proxy.index(r, 0).data(SEGMENT_ROLE)) is not None for r in shown),
        timeout=TIMEOUT,
    )
    with h.window.delegate.unbounded():  # every cell in full: none left for a later paint
        table.viewport().repaint()
    painted = _Painted(table.viewport())

    def quiet() -> bool:
        """Nothing painted over one settle (a repaint still due, on a loaded machine, would
        otherwise be taken for the detail's)."""
        painted.region = painted.region.subtracted(painted.region)
        settle()
        return painted.region.isEmpty()

    h.qtbot.waitUntil(quiet, timeout=TIMEOUT)
    cache.detail_ready.emit(3)
    settle()
    assert not painted.region.isEmpty()
    assert painted.region.subtracted(_row_band(table, proxy, 3)).isEmpty()
    painted.region = painted.region.subtracted(painted.region)
    cache.detail_ready.emit(ROWS - 5)  # not on screen: nothing to repaint
    settle()
    assert painted.region.isEmpty()


def _spans(h: Harness, count: int) -> list[ErrorSpan]:
    c = h.c
    spans = []
    for k in range(count):
        segment, system = k % ROWS, k % 2
        line = c.line(segment, system)
        start = (7 * k) % max(1, len(line) - 4)
        spans.append(
            ErrorSpan.create(
                system=c.system_names[system],
                segment=segment,
                line=line,
                start=start,
                end=min(len(line), start + 3),
                category="",
                severity="major",
                annotator="xcomet",
                status=Status.UNDECIDED,
            )
        )
    return spans


def test_a_large_import_its_undo_and_redo_go_a_slice_at_a_time(wide, monkeypatch):
    h, c = wide, wide.c
    monkeypatch.setattr(stepping_module, "SLICE_MS", 0)  # one slice a turn
    add(c, 0, 0, 0, 3, "minor", "Style")  # the session file exists
    ws, store = c.workspace, h.a.transfer.store_of()
    assert store is not None
    c.step_size = 50
    changes: list[int] = []
    c.annotations_changed.connect(lambda: changes.append(len(ws)))
    answered: list[bool] = []
    QTimer.singleShot(0, lambda: answered.append(c.stepping.busy()))
    assert c.execute(Batch(tuple(AddSpan(s) for s in _spans(h, 400)), label="Import x"))
    # Started, not applied: the slices run in later turns of the event loop.
    assert c.stepping.busy() and len(ws) == 1 and store.count_spans() == 1
    assert not c.execute(AddSpan(_spans(h, 401)[-1]))  # nothing else meanwhile
    assert "Wait until Import x is applied" in c.message
    h.qtbot.waitUntil(lambda: not c.stepping.busy(), timeout=TIMEOUT)
    assert answered == [True]  # the window answered in the middle of it
    assert c.stepping.turns > 400 // 50
    assert len(ws) == store.count_spans() == 401
    assert changes == [401]  # the table and the panels are told once
    assert ws.history.undo_label() == "Import x"
    assert "Import x" in c.message

    c.undo()
    assert c.stepping.busy() and len(ws) == 401
    h.qtbot.waitUntil(lambda: not c.stepping.busy(), timeout=TIMEOUT)
    assert c.stepping.turns > 400 // 50
    assert len(ws) == store.count_spans() == 1
    assert c.message == "Undone: Import x"
    c.redo()
    h.qtbot.waitUntil(lambda: not c.stepping.busy(), timeout=TIMEOUT)
    assert len(ws) == store.count_spans() == 401
    assert ws.history.undo_label() == "Import x"
    # A small step is applied at once, as before.
    c.undo()
    h.qtbot.waitUntil(lambda: not c.stepping.busy(), timeout=TIMEOUT)
    assert add(c, 0, 1, 0, 3, "minor", "Style") is not None
    assert not c.stepping.busy() and len(ws) == 2
    QApplication.processEvents()


def test_a_large_file_import_is_announced_once_it_is_in(wide, monkeypatch, tmp_path):
    h, c = wide, wide.c
    monkeypatch.setattr(stepping_module, "SLICE_MS", 0)
    add(c, 0, 0, 0, 3, "minor", "Style")
    c.step_size = 40
    records = []
    for segment in range(ROWS):
        line = c.line(segment, 1)
        start = (3 * segment) % max(1, len(line) - 4)
        records.append(
            {
                "segment": segment + 1,
                "text": line[start : start + 3],
                "start": start,
                "end": start + 3,
                "severity": "minor",
                "confidence": 0.5,
            }
        )
    path = tmp_path / "xcomet.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    result = h.import_annotations(path, "xcomet-jsonl", system="LT22")
    # import_finished came once the slices were all in, with the notice.
    assert result is not None and not c.stepping.busy()
    assert c.stepping.turns > ROWS // 40
    expected = import_xcomet(path, lines=c.lines(), system="LT22")
    assert len(c.workspace) == 1 + len(expected.spans)
    assert h.a.transfer.store_of().count_spans() == 1 + len(expected.spans)
    assert h.notices and f"Imported {len(expected.spans)} errors" in h.notices[-1][1]
    assert c.workspace.history.undo_label() == "Import xcomet.jsonl"
