"""The annotation view: the output under annotation with its source and its document, selected
the ways translators select (click first and last word, drag, keyboard), Ctrl+G, errors on the
source (made, saved, exported as WMT TSV and read back), the ESA score by slider and by keys,
Escape, the metric evidence, and how it looks at 1280×720 (light and dark, MQM and ESA)."""

from __future__ import annotations

import csv
import math
import re
from pathlib import Path

import pytest
from PySide6.QtCore import QEvent, QPoint, QPointF, Qt
from PySide6.QtGui import QMouseEvent, QTextLayout
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QInputDialog, QWidget

from matchlight.core.annotation.model import Severity, Side, Status
from matchlight.core.annotation.offsets import word_edge
from matchlight.core.annotation.typology import AnnotationMode
from matchlight.core.annotation.wmtmqm import import_mqm_tsv, read_segment_ids
from matchlight.core.annotation.workspace import AnnotationQuery
from matchlight.core.io.inputs import InputSpec
from matchlight.core.io.labels import read_labels
from matchlight.core.session.imported import LabelImport
from matchlight.core.session.store import SessionStore
from matchlight.gui.annotate.viewcontext import CONTEXT_LINES, ContextText, line_height
from matchlight.gui.dialogs.opendialog import ComparisonSpecs
from matchlight.gui.shell.theme import apply_theme
from tests.conftest import SHARED_DATA
from tests.gui.annotate.annotatekit import (
    SOURCE,
    SYSTEM_A,
    SYSTEM_B,
    TIMEOUT,
    Harness,
    add,
    open_in_new_window,
    wait_scored,
    write_lines,
)
from tests.gui.conftest import grab_settled
from tests.kit import needs

SHOTS = Path("/tmp/matchlight-shots/annoview")


# -- helpers ---------------------------------------------------------------------------------------


def activate(window: QWidget) -> None:
    window.activateWindow()
    for _ in range(5):
        QApplication.processEvents()


def open_view(h: Harness):
    """The annotation view, open at 1280×720 with the keyboard in it."""
    h.a.ui.show_view()
    view = h.a.ui.view
    view.resize(1280, 720)
    activate(view)
    return view


def shoot(widget: QWidget, name: str) -> Path:
    """A screenshot of ``widget`` in /tmp/matchlight-shots/annoview (to look at)."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    path = SHOTS / f"{name}.png"
    assert grab_settled(widget).save(str(path)), path
    return path


def settle() -> None:
    for _ in range(5):
        QApplication.processEvents()


def load_docids(h: Harness, labels: list[str], name: str = "docid") -> None:
    """A document id per segment, loaded as File ▸ Load label column does."""
    path = write_lines(h.tmp_path / f"{name}.txt", labels)
    core = h.window.lifecycle.core
    core.set_labels(LabelImport.from_column(read_labels(str(path), n_segments=len(labels))))
    settle()


def key(widget: QWidget, k, modifier=Qt.KeyboardModifier.NoModifier) -> None:
    QTest.keyClick(widget, k, modifier)
    settle()


def click(view, index: int, modifier=Qt.KeyboardModifier.NoModifier) -> None:
    """A click in the middle of character ``index`` of an annotated text."""
    point = view.point_of(index).toPoint()
    QTest.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, modifier, point)
    settle()


def drag(view, start: int, end: int) -> None:
    """Press on character ``start``, move to character ``end`` with the button held, release."""
    viewport = view.viewport()
    a, b = view.point_of(start), view.point_of(end)
    QTest.mousePress(
        viewport, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, a.toPoint()
    )
    for point in (QPointF((a.x() + b.x()) / 2, (a.y() + b.y()) / 2), b):
        move = QMouseEvent(
            QEvent.Type.MouseMove,
            point,
            viewport.mapToGlobal(point),
            Qt.MouseButton.NoButton,
            Qt.MouseButton.LeftButton,
            Qt.KeyboardModifier.NoModifier,
        )
        QApplication.sendEvent(viewport, move)
    QTest.mouseRelease(
        viewport, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, b.toPoint()
    )
    settle()


def selected(c) -> tuple[Side, str]:
    selection = c.selection()
    assert selection is not None
    return selection.side, selection.text


def shown_in(widget: QWidget, viewport: QWidget) -> bool:
    """Whether ``widget`` lies wholly inside ``viewport`` (on screen, nothing to scroll)."""
    if not widget.isVisible():
        return False
    top_left = widget.mapTo(viewport.window(), QPoint(0, 0))
    area = viewport.mapTo(viewport.window(), QPoint(0, 0))
    return (
        area.y() <= top_left.y()
        and top_left.y() + widget.height() <= area.y() + viewport.height()
        and area.x() <= top_left.x()
        and top_left.x() + widget.width() <= area.x() + viewport.width()
    )


# -- what the view shows ---------------------------------------------------------------------------


def test_the_segment_with_its_source_and_its_documents_neighbours(small):
    h, c = small, small.c
    load_docids(h, ["news-1", "news-1", "news-1", "chat-7", "chat-7", "chat-7"])
    h.select_row(1)
    view = open_view(h)
    assert view.target_text.plain_text() == SYSTEM_A[1]
    assert view.source_text.plain_text() == SOURCE[1]
    assert view.system_combo.currentText() == "A"
    assert view.target_caption.text() == "A — the output you annotate"
    assert view.doc_caption.text() == "Document news-1 (docid) · segment 2 of 3 there"
    shown = [r.segment for r in (*view.before_rows, *view.after_rows) if r.isVisible()]
    assert shown == [0, 2]  # the rest of its document, not the next document's first line
    row = next(r for r in view.after_rows if r.segment == 2)
    assert row.target.shown_text() == SYSTEM_A[2]
    assert row.source.shown_text() == SOURCE[2]
    # The keyboard is in the output under annotation; the window is the surface selected in.
    assert QApplication.focusWidget() is view.target_text
    assert c.selecting.surface is view
    # A click on a neighbour annotates it.
    QTest.mouseClick(row, Qt.MouseButton.LeftButton)
    settle()
    assert h.window.current_segment() == 2
    assert view.target_text.plain_text() == SYSTEM_A[2]
    assert view.doc_caption.text().startswith("Document news-1 (docid) · segment 3 of 3")
    # Without a document column: the lines around it, and how to load one.
    h.window.lifecycle.core.remove_labels("docid")
    settle()
    assert view.doc_caption.text().startswith("No document column: the lines around it")
    shown = [r.segment for r in (*view.before_rows, *view.after_rows) if r.isVisible()]
    assert shown == [0, 1, 3, 4, 5]


def test_ctrl_shift_a_opens_the_view_on_the_current_output(small):
    h, c = small, small.c
    h.select_row(4)
    c.set_system(1)
    window = h.window
    window.table_view.setFocus()
    view = h.a.ui.view
    assert not view.isVisible()
    h.key(
        Qt.Key.Key_A,
        Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier,
        widget=window.table_view,
    )
    settle()
    assert view.isVisible() and c.selecting.surface is view
    assert view.system_combo.currentText() == "B"
    assert view.target_text.plain_text() == SYSTEM_B[4]
    assert view.windowTitle() == "Annotate B, segment 5 — Matchlight"
    assert QApplication.focusWidget() is view.target_text
    # Closed, the annotator selects in the detail pane again.
    view.close()
    settle()
    assert c.selecting.surface is c.selecting.pane_surface


@pytest.mark.parametrize(
    "text",
    [
        "我希望大家能花点时间考虑一个非常简单的事实那就是，到目前为止，我们对宇宙的大部分了解都来自于光。"
        * 3,
        "The committee approved the budget for the coming year after a long debate. " * 6,
    ],
)
def test_a_neighbour_is_cut_to_two_lines_it_has_room_for(qtbot, text):
    """Elided to what two lines hold, ending in "…", and as tall as those lines are in its
    script (a Chinese line falls back to a taller font than a Latin one)."""
    row = ContextText()
    qtbot.addWidget(row)
    row.resize(300, 40)
    row.set_text(text)
    shown = row.shown_text()
    assert shown.endswith("…") and text.startswith(shown[:-1].rstrip())
    layout = QTextLayout(shown, row.font())
    layout.beginLayout()
    heights = []
    while (line := layout.createLine()).isValid():
        line.setLineWidth(row.width() - 4)
        heights.append(line.height())
    layout.endLayout()
    assert len(heights) == CONTEXT_LINES
    assert row.sizeHint().height() >= sum(heights)
    assert row.sizeHint().height() == math.ceil(CONTEXT_LINES * line_height(text, row.font())) + 4


def test_switching_system_or_segment_brings_the_output_into_view(small):
    h, c = small, small.c
    h.select_row(0)
    view = open_view(h)
    target = view.target_text
    for keys, system, segment in (
        ("S", 1, 0),
        ("N", 1, 1),
        ("S", 0, 1),
        ("U", 0, 2),  # the next row whose output of A is not annotated
    ):
        h.key(keys, widget=QApplication.focusWidget())
        assert (c.system, h.window.current_segment()) == (system, segment), keys
        expected = (SYSTEM_A, SYSTEM_B)[system][segment]
        assert target.plain_text() == expected
        assert view.system_combo.currentText() == "AB"[system]
        assert QApplication.focusWidget() is target
        assert shown_in(target, view.scroll.viewport()) and shown_in(target, view)
        assert view.scroll.verticalScrollBar().maximum() == 0  # nothing to scroll


def test_the_detail_pane_scrolls_to_the_output_being_annotated(small):
    """Finding 1: S and U switched the system while the pane stayed on other outputs."""
    h, c = small, small.c
    window = h.window
    window.resize(1280, 720)
    window.detail_splitter.setSizes([560, 140])  # a pane too short for every output
    settle()
    pane = window.detail_pane
    scroll = pane._scroll
    h.select_row(0)
    for step, system in ((1, 1), (-1, 0), (1, 1)):
        c.move_system(step)
        h.settle()
        view = pane.hypothesis_view(system)
        assert QApplication.focusWidget() is view
        top = view.mapTo(scroll.viewport(), QPoint(0, 0)).y()
        assert 0 <= top < scroll.viewport().height(), (system, top)
    assert scroll.verticalScrollBar().maximum() > 0  # it did have to scroll
    # A new row keeps the focused output in view.
    c.move_segment(1)
    h.settle()
    QApplication.processEvents()
    view = pane.hypothesis_view(1)
    top = view.mapTo(scroll.viewport(), QPoint(0, 0)).y()
    assert 0 <= top < scroll.viewport().height()


def test_a_new_mode_keeps_the_system_under_annotation(small):
    """The pane's texts put in again (a mode change resets the table) moved the cursor of the
    output holding the focus, and that picked its system as if the annotator had."""
    h, c = small, small.c
    h.select_row(1)
    assert QApplication.focusWidget() is h.view(0)  # the keyboard in A's output of the pane
    c.set_system(1)  # B, chosen in the table
    h.a.actions.esa_action.trigger()
    h.settle()
    assert c.mode is AnnotationMode.ESA and c.system == 1
    view = open_view(h)
    assert view.system_combo.currentText() == "B"
    assert view.target_text.plain_text() == SYSTEM_B[1]
    # The user's own cursor in A's output of the pane still picks A.
    view.close()
    activate(h.window)
    h.view(0).setFocus()
    assert h.view(0).hasFocus()
    key(h.view(0), Qt.Key.Key_Home)
    assert c.system == 0


# -- selecting as translators do -------------------------------------------------------------------


def test_click_the_first_word_then_the_last_word(small):
    h, c = small, small.c
    h.select_row(2)
    view = open_view(h)
    line = SYSTEM_A[2]  # "The dog sleep in garden."
    target = view.target_text
    click(target, line.index("dog") + 1)
    assert selected(c) == (Side.TARGET, "dog")
    assert c.selecting.word_anchor() == (Side.TARGET, 4, 7)
    assert "click the last word" in view.hint.text()
    click(target, line.index("garden") + 3)
    assert selected(c) == (Side.TARGET, "dog sleep in garden")  # not the full stop
    assert c.selecting.word_anchor() is None
    # The last word first, then the first: the same.
    click(target, line.index("in"))
    click(target, line.index("sleep") + 4)
    assert selected(c) == (Side.TARGET, "sleep in")
    # One word: one click, or the same word twice.
    click(target, line.index("garden"))
    assert selected(c) == (Side.TARGET, "garden")
    click(target, line.index("garden") + 5)
    assert selected(c) == (Side.TARGET, "garden")
    # Punctuation is a unit of its own; a click between words puts the cursor there.
    click(target, line.index("."))
    assert selected(c) == (Side.TARGET, ".")
    c.cancel()
    click(target, line.index(" in"))
    selection = c.selection()
    assert selection is not None and selection.start == selection.end == line.index(" in")
    # Picked words become an error with the keys.
    click(target, line.index("sleep"))
    h.key("2", widget=target)
    h.key("2", widget=target)  # Fluency, then its first sub-category
    h.key("m", widget=target)
    h.key(Qt.Key.Key_Return, widget=target)
    (span,) = c.target_spans()
    assert (span.text, span.category, span.severity, span.side) == (
        "sleep",
        "Fluency/Grammar",
        Severity.MINOR,
        Side.TARGET,
    )


def test_a_drag_takes_whole_words(small):
    h, c = small, small.c
    h.select_row(3)
    view = open_view(h)
    line = SYSTEM_A[3]  # "We 😀😀 see the light of moon."
    target = view.target_text
    drag(target, line.index("see") + 1, line.index("light") + 2)
    assert selected(c) == (Side.TARGET, "see the light")
    drag(target, line.index("moon") + 2, line.index("of"))  # backwards
    assert selected(c) == (Side.TARGET, "of moon")
    assert c.selecting.word_anchor() is None


def test_the_keyboard_selects_by_words_and_by_characters(small):
    h, c = small, small.c
    h.select_row(0)
    view = open_view(h)
    line = SYSTEM_A[0]  # "The cat 😀 sat on the mat."
    target = view.target_text
    assert QApplication.focusWidget() is target
    key(target, Qt.Key.Key_Home)
    key(target, Qt.Key.Key_Right, Qt.KeyboardModifier.ControlModifier)
    shift_ctrl = Qt.KeyboardModifier.ShiftModifier | Qt.KeyboardModifier.ControlModifier
    for _ in range(3):
        key(target, Qt.Key.Key_Right, shift_ctrl)
    end = word_edge(line, word_edge(line, word_edge(line, 3, 1), 1), 1)
    assert selected(c) == (Side.TARGET, line[3:end]) == (Side.TARGET, " cat \U0001f600 sat")
    # Shift+arrows take single characters (a wrong ending).
    key(target, Qt.Key.Key_End)
    key(target, Qt.Key.Key_Left)
    for _ in range(2):
        key(target, Qt.Key.Key_Left, Qt.KeyboardModifier.ShiftModifier)
    assert selected(c) == (Side.TARGET, "at")
    h.key("4", widget=target)  # Style
    h.key("C", Qt.KeyboardModifier.ShiftModifier, widget=target)
    h.key(Qt.Key.Key_Return, widget=target)
    (span,) = c.target_spans()
    assert (span.text, span.start, span.category, span.severity) == (
        "at",
        len(line) - 3,
        "Style",
        Severity.CRITICAL,
    )


def test_categories_sub_categories_and_severities_are_buttons_in_sight(small):
    h, c = small, small.c
    h.select_row(2)
    view = open_view(h)
    tools = view.tools
    names = [b.text() for b in tools.top_buttons]
    assert names[:3] == ["1  Accuracy", "2  Fluency", "3  Terminology"]
    assert all(b.isVisible() for b in tools.top_buttons)
    click(view.target_text, SYSTEM_A[2].index("garden"))
    fluency = tools.top_buttons[1]
    QTest.mouseClick(fluency, Qt.MouseButton.LeftButton)
    settle()
    assert c.draft.category == "Fluency"
    assert [b.text() for b in tools.sub_buttons] == [
        "Grammar",
        "Spelling",
        "Punctuation",
        "Register",
        "Inconsistency",
        "Character encoding",
    ]
    assert all(b.isVisible() for b in tools.sub_buttons)
    QTest.mouseClick(tools.sub_buttons[1], Qt.MouseButton.LeftButton)
    settle()
    assert c.draft.category == "Fluency/Spelling"
    assert tools.sub_buttons[1].isChecked() and fluency.isChecked()
    QTest.mouseClick(tools.severity_buttons[Severity.MAJOR], Qt.MouseButton.LeftButton)
    settle()
    assert QApplication.focusWidget() is view.target_text  # the keyboard stays in the text
    QTest.mouseClick(tools.add_button, Qt.MouseButton.LeftButton)
    settle()
    (span,) = c.target_spans()
    assert (span.text, span.category, span.severity) == (
        "garden",
        "Fluency/Spelling",
        Severity.MAJOR,
    )
    assert tools.errors.topLevelItemCount() == 1
    assert tools.errors.topLevelItem(0).text(0) == "garden"


# -- Ctrl+G ----------------------------------------------------------------------------------------


def test_ctrl_g_goes_to_a_segment(small):
    h, c = small, small.c
    h.select_row(0)
    view = open_view(h)
    key(view.target_text, Qt.Key.Key_G, Qt.KeyboardModifier.ControlModifier)
    assert QApplication.focusWidget() is view.segment_spin
    QTest.keyClicks(view.segment_spin, "5")
    key(view.segment_spin, Qt.Key.Key_Return)
    assert h.window.current_segment() == 4
    assert view.target_text.plain_text() == SYSTEM_A[4]
    assert QApplication.focusWidget() is view.target_text
    # Escape from the segment box goes back to the text, changing nothing.
    key(view.target_text, Qt.Key.Key_G, Qt.KeyboardModifier.ControlModifier)
    QTest.keyClicks(view.segment_spin, "2")
    key(view.segment_spin, Qt.Key.Key_Escape)
    assert QApplication.focusWidget() is view.target_text
    assert h.window.current_segment() == 4
    # A segment the filters hide: said so, and nothing moves.
    add(c, 0, 4, 0, 7, "minor", "Style")
    h.a.table.apply_filter(AnnotationQuery(system="A", annotated=True))
    settle()
    assert not c.go_to_segment(1)
    assert "hidden by the filters" in view.hint.text()
    assert not c.go_to_segment(99)
    assert "There is no segment 100" in view.hint.text()


def test_ctrl_g_in_the_main_window_asks_for_the_number(small):
    h = small
    h.select_row(0)
    h.window.table_view.setFocus()
    h.key(Qt.Key.Key_G, Qt.KeyboardModifier.ControlModifier, widget=h.window.table_view)
    dialog = h.a.ui.dialog
    assert isinstance(dialog, QInputDialog) and dialog.isVisible()
    assert (dialog.intMinimum(), dialog.intMaximum(), dialog.intValue()) == (1, 6, 1)
    dialog.setIntValue(4)
    dialog.accept()
    h.settle()
    assert h.window.current_segment() == 3


# -- errors on the source --------------------------------------------------------------------------


def test_a_source_error_is_made_saved_and_exported(small, tmp_path):
    h, c = small, small.c
    h.select_row(2)
    view = open_view(h)
    source = SOURCE[2]  # "Der Hund schläft im Garten."
    h.key("T", Qt.KeyboardModifier.ShiftModifier, widget=view.target_text)
    assert QApplication.focusWidget() is view.source_text
    assert c.selecting.side is Side.SOURCE
    click(view.source_text, source.index("schläft"))
    click(view.source_text, source.index("Garten") + 2)
    assert selected(c) == (Side.SOURCE, "schläft im Garten")
    for _ in range(3):  # Accuracy, Accuracy/Mistranslation, Accuracy/Omission
        h.key("1", widget=view.source_text)
    h.key("M", Qt.KeyboardModifier.ShiftModifier, widget=view.source_text)
    h.key(Qt.Key.Key_Return, widget=view.source_text)
    (span,) = c.target_spans()
    assert (span.side, span.text, span.category, span.severity) == (
        Side.SOURCE,
        "schläft im Garten",
        "Accuracy/Omission",
        Severity.MAJOR,
    )
    assert (span.start, span.end) == (9, 26)
    assert view.tools.errors.topLevelItem(0).text(0) == "source: schläft im Garten"
    # Saved in the session file as a source span.
    with SessionStore.open_copy_read_only(h.s.store.path) as copy:
        (stored,) = copy.spans()
    assert stored == span and stored.side is Side.SOURCE
    # The MQM penalty counts it; the output's own text has no box for it.
    assert c.workspace.segment_penalty("A", 2) == 5.0
    # Exported as a WMT MQM TSV row marked in the source, and read back the same.
    path = tmp_path / "mqm.tsv"
    assert h.a.transfer.export_annotations(path, "wmt-mqm-tsv") == path
    rows = list(csv.reader(path.open(encoding="utf-8"), delimiter="\t"))
    (row,) = [r for r in rows if "<v>" in r[5] or "<v>" in r[6]]
    assert row[5] == "Der Hund <v>schläft im Garten</v>."
    assert row[6] == SYSTEM_A[2] and "<v>" not in row[6]
    assert (row[7], row[8]) == ("Accuracy/Omission", "Major")
    back = import_mqm_tsv(path, lines=c.lines(), sources=SOURCE)
    (read,) = back.spans
    assert (read.side, read.start, read.end, read.text, read.category) == (
        Side.SOURCE,
        span.start,
        span.end,
        span.text,
        span.category,
    )
    # Shown on the source when the session is opened again.
    h.s.close_session()


def test_imported_source_errors_are_shown_on_the_source(small, tmp_path):
    h, c = small, small.c
    path = tmp_path / "pre.tsv"
    header = "system\tdoc\tdoc_id\tseg_id\trater\tsource\ttarget\tcategory\tseverity"
    path.write_text(
        header
        + "\n"
        + "\t".join(
            [
                *("A", "d", "1", "3", "r1", "Der <v>Hund</v> schläft im Garten."),
                *(SYSTEM_A[2], "Accuracy/Omission", "Major"),
            ]
        )
        + "\n",
        encoding="utf-8",
    )
    h.a.transfer.import_annotations(path, "wmt-mqm-tsv")
    h.select_row(2)
    view = open_view(h)
    (span,) = c.target_spans()
    assert (span.side, span.text, span.status) == (Side.SOURCE, "Hund", Status.UNDECIDED)
    assert view.tools.errors.topLevelItem(0).text(0) == "? source: Hund"
    # Chosen in the list: selected on the source; Enter confirms it.
    item = view.tools.errors.topLevelItem(0)
    view.tools.errors.itemClicked.emit(item, 0)
    settle()
    assert selected(c) == (Side.SOURCE, "Hund")
    h.key(Qt.Key.Key_Return, widget=view.source_text)
    assert c.workspace.get(span.id).status is Status.CONFIRMED


def test_a_lost_source_error_is_reattached_in_the_view(qtbot, small, tmp_path):
    h, c = small, small.c
    lost = c.add_span(
        start=4,
        end=8,
        severity="major",
        category="Accuracy/Mistranslation",
        segment=2,
        system=0,
        side=Side.SOURCE,
    )
    assert lost is not None and lost.text == "Hund", c.message
    path = tmp_path / "work.matchlight"
    h.s.save_session_as(path)
    h.window.close()
    changed = list(SOURCE)
    changed[2] = "Der Kater schläft im Garten."
    write_lines(Path(h.window.comparison.source.path), changed)
    other = open_in_new_window(qtbot, tmp_path, path, "second")
    try:
        o = other.c
        wait_scored(other)
        assert o.flagged == {lost.id}
        other.select_row(2)
        o.set_system(0)
        view = open_view(other)
        tools = view.tools
        item = tools.errors.topLevelItem(0)
        assert item.text(0) == "not found: source: Hund"
        assert not tools.reattach_button.isVisibleTo(view)
        tools.errors.setCurrentItem(item)
        tools.errors.itemClicked.emit(item, 0)
        settle()
        assert tools.reattach_button.isVisibleTo(view)
        assert o.message == "Select the text «Hund» stands for now, then Re-attach."
        shoot(view, "reattach-source-error")
        # Words selected in the output do not re-attach a source error.
        click(view.target_text, SYSTEM_A[2].index("dog"))
        tools.reattach_button.click()
        settle()
        assert o.message.startswith("This error is on the source: select its new text")
        assert o.flagged == {lost.id}
        # Selected on the source: re-attached there, one undo step, saved.
        h_key = Qt.KeyboardModifier.ShiftModifier
        other.key("T", h_key, widget=view.target_text)
        click(view.source_text, changed[2].index("Kater"))
        assert selected(o) == (Side.SOURCE, "Kater")
        tools.reattach_button.click()
        settle()
        moved = o.workspace.get(lost.id)
        assert (moved.side, moved.start, moved.end, moved.text) == (Side.SOURCE, 4, 9, "Kater")
        assert o.flagged == set() and o.message == "Re-attached to «Kater»."
        assert not tools.reattach_button.isVisibleTo(view)
        assert tools.errors.topLevelItem(0).text(0) == "source: Kater"
        assert o.workspace.history.undo_label() == "Re-attach error"
        with SessionStore.open_copy_read_only(path) as copy:
            assert {s.id: s.text for s in copy.spans()}[lost.id] == "Kater"
    finally:
        other.window.close()


# -- the ESA score ---------------------------------------------------------------------------------


def test_the_esa_score_by_slider_and_by_keys(small):
    h, c = small, small.c
    h.select_row(2)
    view = open_view(h)
    h.a.actions.esa_action.trigger()
    settle()
    assert c.mode is AnnotationMode.ESA
    tools = view.tools
    slider, spin = tools.esa_slider, tools.esa_spin
    assert slider.isVisible() and spin.isVisible() and not tools.category_box.isVisible()
    # An error: the suggestion follows it (a major one: 80).
    click(view.target_text, SYSTEM_A[2].index("sleep"))
    h.key("M", Qt.KeyboardModifier.ShiftModifier, widget=view.target_text)
    h.key(Qt.Key.Key_Return, widget=view.target_text)
    assert slider.value() == spin.value() == 80
    ws = c.workspace
    assert ws.score("A", 2) is None
    # Keys on the slider: Page Down (-10), Left (-1); shown, not saved until Enter.
    slider.setFocus()
    key(slider, Qt.Key.Key_PageDown)
    key(slider, Qt.Key.Key_Left)
    assert slider.value() == spin.value() == 69
    assert c.esa_pending() and ws.score("A", 2) is None
    assert "not saved yet" in tools.score_label.text()
    h.key(Qt.Key.Key_Return, widget=slider)
    assert ws.score("A", 2).score == 69.0
    assert QApplication.focusWidget() is view.target_text
    assert h.window.table.value("esa", 0, 2) == 69.0
    # The slider let go: saved.
    slider.setSliderDown(True)
    slider.setValue(42)
    slider.setSliderDown(False)
    settle()
    assert ws.score("A", 2).score == 42.0
    # E: type the score, Enter.
    h.key("E", widget=view.target_text)
    assert QApplication.focusWidget() is spin
    QTest.keyClicks(spin, "95")
    h.key(Qt.Key.Key_Return, widget=spin)
    assert ws.score("A", 2).score == 95.0 and slider.value() == 95
    # A score moved and left unsaved is kept when the annotator moves on.
    slider.setFocus()
    key(slider, Qt.Key.Key_Right)
    assert c.esa_pending()
    h.key("N", widget=slider)
    assert h.window.current_segment() == 3
    assert ws.score("A", 2).score == 96.0
    assert slider.value() == 100  # the next output: no errors, nothing saved
    assert "Saved the ESA score 96 of A, segment 3" in view.hint.text()
    # D saves the score shown.
    h.key("D", widget=view.target_text)
    assert ws.score("A", 3).score == 100.0


# -- Escape and the evidence -----------------------------------------------------------------------


def test_escape_returns_to_the_annotation(small):
    h, c = small, small.c
    h.select_row(1)
    view = open_view(h)
    target = view.target_text
    h.key(Qt.Key.Key_F2, widget=target)
    assert QApplication.focusWidget() is view.tools.note_edit
    key(view.tools.note_edit, Qt.Key.Key_Escape)
    assert QApplication.focusWidget() is target
    view.tools.errors.setFocus()
    key(view.tools.errors, Qt.Key.Key_Escape)
    assert QApplication.focusWidget() is target
    # In the text, Escape drops the draft and the selection first.
    click(target, SYSTEM_A[1].index("rare"))
    h.key("m", widget=target)
    assert not c.draft.empty
    key(target, Qt.Key.Key_Escape)
    assert c.draft.empty and c.selection().start == c.selection().end


def test_the_metric_evidence_is_one_key_away(small):
    h = small
    h.select_row(0)
    view = open_view(h)
    target = view.target_text
    assert not view.evidence.isVisible()
    assert any(r.isVisible() for r in view.after_rows)
    h.key("V", widget=target)
    evidence = view.evidence
    assert view.evidence_shown() and evidence.isVisible()
    h.qtbot.waitUntil(lambda: evidence.breakdown.isVisible(), timeout=TIMEOUT)
    assert not any(r.isVisible() for r in (*view.before_rows, *view.after_rows))
    assert evidence.reference_text(0) == "The cat sits on the mat."
    assert evidence.caption.text().startswith("A — BLEU")
    assert "1-gram" in evidence.breakdown.text()
    # The output shows its matches now (the pane's highlight mode), the selection kept.
    assert evidence.output_ranges()
    assert QApplication.focusWidget() is target
    # S: the evidence of the other system.
    h.key("S", widget=target)
    h.qtbot.waitUntil(lambda: evidence.caption.text().startswith("B — BLEU"), timeout=TIMEOUT)
    # Escape with nothing drafted hides it; V too.
    key(target, Qt.Key.Key_Escape)
    assert not view.evidence_shown() and not evidence.isVisible()
    h.key("V", widget=target)
    h.key("V", widget=target)
    assert not view.evidence_shown()


def test_a_long_segment_scrolls_the_document_not_the_tools(qtbot, tmp_path, recovery):
    long_line = " ".join(["The committee approved the budget for the coming year."] * 40)
    folder = tmp_path / "long"
    folder.mkdir()
    specs = ComparisonSpecs(
        source=InputSpec(path=str(write_lines(folder / "src", ["Kurz.", "Lang.", "Kurz."]))),
        references=(
            InputSpec(path=str(write_lines(folder / "ref", ["Short.", "Long.", "Short."]))),
        ),
        systems=(
            InputSpec(
                path=str(write_lines(folder / "sys", ["Short.", long_line, "Short."])), name="X"
            ),
        ),
    )
    h = Harness(qtbot, tmp_path)
    h.window.show()
    try:
        h.open(specs)
        h.select_row(1)
        view = open_view(h)
        bar = view.scroll.verticalScrollBar()
        assert bar.maximum() > 0  # the text is taller than the window: it scrolls
        assert bar.value() == 0 and view.target_text.mapTo(view, QPoint(0, 0)).y() < 200
        assert not any(r.isVisible() for r in (*view.before_rows, *view.after_rows))
        assert shown_in(view.tools.done_button, view)  # the tools stay in sight
        view.target_text.setFocus()
        key(view.target_text, Qt.Key.Key_End)
        h.key("m", widget=view.target_text)  # an omission at the end of the long text
        h.key("4", widget=view.target_text)
        h.key(Qt.Key.Key_Return, widget=view.target_text)
        (span,) = h.c.target_spans()
        assert span.start == span.end == len(long_line)
    finally:
        h.window.close()


# -- screenshots -----------------------------------------------------------------------------------


WMT22_DE_EN = SHARED_DATA / "wmt22-de-en"
WMT22_SYSTEMS = ("JDExploreAcademy", "Lan-Bridge", "LT22", "Online-W", "PROMT")


def wmt22_docids(n: int) -> list[str]:
    """Document ids for wmt22-de-en, which ships none: runs of 8 to 14 lines."""
    sizes = (8, 12, 10, 14, 9, 11, 13)
    labels: list[str] = []
    d = 0
    while len(labels) < n:
        labels += [f"doc{d:03d}"] * sizes[d % len(sizes)]
        d += 1
    return labels[:n]


@pytest.fixture
def wmt22(harness):
    if not (WMT22_DE_EN / "src.txt").exists():
        pytest.skip(f"{WMT22_DE_EN} is not there")
    specs = ComparisonSpecs(
        source=InputSpec(path=str(WMT22_DE_EN / "src.txt")),
        references=(
            InputSpec(path=str(WMT22_DE_EN / "ref.txt"), name="ref A"),
            InputSpec(path=str(WMT22_DE_EN / "ref2.txt"), name="ref B"),
        ),
        systems=tuple(
            InputSpec(path=str(WMT22_DE_EN / f"sys.{s}.txt"), name=s) for s in WMT22_SYSTEMS
        ),
    )
    h = harness
    window = h.window
    assert window.open_specs(specs), h.errors
    h.qtbot.waitUntil(
        lambda: (
            h.c.workspace is not None and window.proxy is not None and window.proxy.rowCount() > 0
        ),
        timeout=TIMEOUT,
    )
    window.controller.cancel()  # the view needs no scores; the row details come on their own
    h.qtbot.waitUntil(lambda: not window.controller.running, timeout=TIMEOUT)
    load_docids(h, wmt22_docids(1984))
    return h


def _annotate_wmt22(h: Harness, segment: int, *, esa: bool) -> None:
    """Two errors in the output and an omission marked on the source (ESA: severities only)."""
    c = h.c
    line = c.line(segment, 0)  # "Today, the invitation to an interview arrived by email."
    source = c.text_of(segment, 0, Side.SOURCE)
    start = line.index("invitation")
    c.add_span(
        start=start,
        end=start + len("invitation"),
        severity="major",
        category="" if esa else "Accuracy/Mistranslation",
        segment=segment,
        system=0,
    )
    start = line.index("arrived by")
    c.add_span(
        start=start,
        end=start + len("arrived by"),
        severity="minor",
        category="" if esa else "Style/Awkward",
        segment=segment,
        system=0,
    )
    start = source.index("per")
    c.add_span(
        start=start,
        end=start + 3,
        severity="minor",
        category="" if esa else "Accuracy/Omission",
        segment=segment,
        system=0,
        side=Side.SOURCE,
    )


@pytest.mark.parametrize("theme", ["light", "dark"])
@pytest.mark.parametrize("mode", ["mqm", "esa"])
def test_screenshots_at_1280_by_720(wmt22, theme, mode):
    h, c = wmt22, wmt22.c
    segment = 103  # a typical segment (10 words), 7th of the 10 of doc009
    assert c.go_to_segment(segment)
    if mode == "esa":
        h.a.actions.esa_action.trigger()
    _annotate_wmt22(h, segment, esa=mode == "esa")
    view = open_view(h)
    apply_theme(theme)
    try:
        settle()
        target = view.target_text
        line = target.plain_text()
        assert line == "Today, the invitation to an interview arrived by email."
        # The annotator is at work: the first word of an error clicked, a category chosen.
        click(target, line.index("interview") + 2)
        if mode == "mqm":
            h.key("2", widget=target)  # Fluency: its sub-categories come into sight
        settle()
        assert view.size().width() == 1280 and view.size().height() == 720
        assert view.scroll.verticalScrollBar().maximum() == 0  # nothing to scroll
        for widget in (target, view.source_text, view.system_combo, view.tools.done_button):
            assert shown_in(widget, view), widget.objectName()
        assert sum(r.isVisible() for r in (*view.before_rows, *view.after_rows)) >= 6
        assert view.system_combo.currentText() == "JDExploreAcademy"
        errors = view.tools.errors
        assert [errors.topLevelItem(i).text(0) for i in range(errors.topLevelItemCount())] == [
            "invitation",
            "arrived by",
            "source: per",
        ]
        shoot(view, f"view-{mode}-{theme}")
        if mode == "mqm" and theme == "light":
            h.key("V", widget=target)
            pane = h.window.detail_pane
            h.qtbot.waitUntil(
                lambda: (
                    view.evidence.breakdown.isVisible()
                    and pane.detail() is not None
                    and pane.detail().segment == segment
                ),
                timeout=TIMEOUT,
            )
            settle()
            shoot(view, f"view-evidence-{theme}")
            assert view.scroll.verticalScrollBar().maximum() == 0
    finally:
        apply_theme("system")
        settle()


# -- the published WMT21 TED zh-en MQM file: Chinese sources, errors marked on them -------------


TED = SHARED_DATA / "wmt21-ted-zh-en-mqm"
TED_SYSTEMS = ("Facebook-AI", "Online-W", "NiuTrans", "metricsystem1")


def ted_rows() -> list[dict[str, str]]:
    path = TED / "human" / "mqm_ted_zhen.tsv"
    with path.open(encoding="utf-8", newline="") as handle:
        return list(csv.DictReader(handle, delimiter="\t", quoting=csv.QUOTE_NONE))


@pytest.fixture
def ted(harness):
    """Four systems of the TED file, its talks loaded as ``docid``, its MQM spans imported
    (seg_id looked up in segid.txt)."""
    h = harness
    h.open(
        ComparisonSpecs(
            source=InputSpec(path=str(TED / "src.txt")),
            references=(InputSpec(path=str(TED / "ref.txt"), name="refB"),),
            systems=tuple(InputSpec(path=str(TED / f"sys.{n}.txt"), name=n) for n in TED_SYSTEMS),
        )
    )
    core = h.window.lifecycle.core
    core.set_labels(
        LabelImport.from_column(read_labels(str(TED / "docid.txt"), n_segments=core.n_segments))
    )
    settle()
    result = h.import_annotations(
        TED / "human" / "mqm_ted_zhen.tsv", "wmt-mqm-tsv", segment_ids=TED / "segid.txt"
    )
    assert result is not None and not h.errors, h.errors
    return h


@needs(TED)
def test_chinese_source_errors_of_the_published_file(ted, tmp_path):
    h, c = ted, ted.c
    ids = read_segment_ids(TED / "segid.txt")
    talks = (TED / "docid.txt").read_text(encoding="utf-8").splitlines()
    row = next(r for r in ted_rows() if r["system"] == "Online-W" and "<v>" in r["source"])
    segment = ids.index(row["seg_id"])
    marked = re.search("<v>(.*?)</v>", row["source"]).group(1)
    assert c.go_to_segment(segment)
    c.set_system(TED_SYSTEMS.index("Online-W"))
    view = open_view(h)
    # The system named, the segment in its talk, the talk's neighbours around it.
    assert view.system_combo.currentText() == "Online-W"
    assert view.target_caption.text() == "Online-W — the output you annotate"
    talk = [i for i, t in enumerate(talks) if t == talks[segment]]
    assert view.doc_caption.text() == (
        f"Document {talks[segment]} (docid) · segment {talk.index(segment) + 1} of "
        f"{len(talk)} there"
    )
    shown = [r.segment for r in (*view.before_rows, *view.after_rows) if r.isVisible()]
    assert shown and set(shown) <= set(talk) - {segment}
    source = c.text_of(segment, TED_SYSTEMS.index("Online-W"), Side.SOURCE)
    assert view.source_text.plain_text() == source
    # The source error of the file is on the source, undecided; chosen, it is selected there.
    errors = view.tools.errors
    items = [errors.topLevelItem(i) for i in range(errors.topLevelItemCount())]
    (item,) = [i for i in items if i.text(0) == f"? source: {marked}"]
    errors.itemClicked.emit(item, 0)
    settle()
    assert selected(c) == (Side.SOURCE, marked)
    h.key(Qt.Key.Key_Return, widget=view.source_text)
    (imported,) = [s for s in c.target_spans() if s.side is Side.SOURCE]
    assert imported.status is Status.CONFIRMED and imported.text == marked
    # Click the first and the last character of a Chinese source error: each is a unit.
    start = next(
        i
        for i in range(len(source) - 3)
        if all("\u4e00" <= ch <= "\u9fff" for ch in source[i : i + 3])
        and not imported.start <= i < imported.end + 3
        and not i <= imported.start < i + 3
    )
    click(view.source_text, start)
    assert selected(c) == (Side.SOURCE, source[start])
    click(view.source_text, start + 2)
    assert selected(c) == (Side.SOURCE, source[start : start + 3])
    h.key("1", widget=view.source_text)  # Accuracy
    h.key("m", widget=view.source_text)
    h.key(Qt.Key.Key_Return, widget=view.source_text)
    (made,) = [s for s in c.target_spans() if s.side is Side.SOURCE and s.id != imported.id]
    assert (made.start, made.end, made.category, made.severity, made.status) == (
        start,
        start + 3,
        "Accuracy",
        Severity.MINOR,
        Status.CONFIRMED,
    )
    # Exported as WMT MQM TSV, the source marked with <v> where each error is.
    path = tmp_path / "ted.tsv"
    assert h.a.transfer.export_annotations(path, "wmt-mqm-tsv") == path
    with path.open(encoding="utf-8", newline="") as handle:
        written = list(csv.DictReader(handle, delimiter="\t", quoting=csv.QUOTE_NONE))
    mine = [
        r
        for r in written
        if r["system"] == "Online-W" and r["seg_id"] == row["seg_id"] and "<v>" in r["source"]
    ]
    assert sorted(r["source"] for r in mine) == sorted(
        source[: s.start] + "<v>" + source[s.start : s.end] + "</v>" + source[s.end :]
        for s in (imported, made)
    )


@needs(TED)
@pytest.mark.parametrize(("mode", "theme"), [("mqm", "light"), ("esa", "dark")])
def test_screenshots_of_chinese_to_english(ted, mode, theme):
    h, c = ted, ted.c
    row = next(r for r in ted_rows() if r["system"] == "Online-W" and "<v>" in r["source"])
    segment = read_segment_ids(TED / "segid.txt").index(row["seg_id"])
    assert c.go_to_segment(segment)
    c.set_system(TED_SYSTEMS.index("Online-W"))
    if mode == "esa":
        h.a.actions.esa_action.trigger()
    view = open_view(h)
    apply_theme(theme)
    try:
        settle()
        target = view.target_text
        click(target, 0)
        settle()
        assert view.size().width() == 1280 and view.size().height() == 720
        assert view.scroll.verticalScrollBar().maximum() == 0
        for widget in (target, view.source_text, view.system_combo, view.tools.done_button):
            assert shown_in(widget, view), widget.objectName()
        assert view.system_combo.currentText() == "Online-W"
        shoot(view, f"view-zhen-{mode}-{theme}")
    finally:
        apply_theme("system")
        settle()
