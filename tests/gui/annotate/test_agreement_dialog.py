"""The agreement dialog a project lead can use (issue 16, finding 6): span F1 by position, with
severity, with category and with both, MQM-weighted F1, and the disagreements to step through,
each shown in the window (its segment, its system, the error selected)."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from matchlight.core.annotation.agreement import DisagreementKind
from matchlight.gui.annotate.agreementdialog import AGREEMENT_HEADERS, AgreementDialog
from tests.gui.annotate.annotatekit import SYSTEM_A, SYSTEM_B, TIMEOUT, Harness, small_specs

MIS = "Accuracy/Mistranslation"


def at(line: str, word: str) -> tuple[int, int]:
    start = line.index(word)
    return start, start + len(word)


def mark(c, system: int, segment: int, word: str, severity: str, category: str) -> None:
    line = (SYSTEM_A, SYSTEM_B)[system][segment]
    start, end = at(line, word)
    span = c.add_span(
        start=start,
        end=end,
        severity=severity,
        category=category,
        segment=segment,
        system=system,
    )
    assert span is not None, c.message


@pytest.fixture
def agreement(qtbot, small, tmp_path):
    """This session and a second annotator's of the same files; the dialog opened from the
    Annotate menu's entry."""
    c = small.c
    mark(c, 0, 0, "sat", "major", "Accuracy/Mistranslation")
    mark(c, 0, 2, "sleep", "minor", "Fluency/Grammar")
    mark(c, 1, 5, "bred", "minor", "Fluency/Spelling")
    other = Harness(qtbot, tmp_path, name="second")
    try:
        other.open(small_specs(tmp_path / "data"))
        o = other.c
        o.set_annotator("second")
        mark(o, 0, 0, "sat", "critical", "Accuracy/Mistranslation")  # severity differs
        mark(o, 0, 2, "sleep", "minor", "Style")  # category differs
        mark(o, 0, 4, "good", "major", "Accuracy")  # only the other marked it
        theirs = tmp_path / "second.matchlight"
        other.s.save_session_as(theirs)
    finally:
        other.window.close()
    small.paths.append(str(theirs))
    small.a.ui._on_agreement()  # computed in a worker; the dialog opens when it is done
    small.qtbot.waitUntil(lambda: isinstance(small.a.ui.dialog, AgreementDialog), timeout=TIMEOUT)
    dialog = small.a.ui.dialog
    assert isinstance(dialog, AgreementDialog) and dialog.isVisible()
    assert not dialog.isModal()  # beside the window: the lead edits while stepping through
    return small, dialog


def cells(dialog: AgreementDialog, row: int) -> dict[str, str]:
    return {h: dialog.table.item(row, i).text() for i, h in enumerate(AGREEMENT_HEADERS)}


def test_agreement_by_position_severity_category_and_mqm_weight(agreement):
    _, dialog = agreement
    overall = cells(dialog, dialog.table.rowCount() - 1)
    assert overall["System"] == "all systems"
    # By hand: 3 spans each; 2 at the same place (sat, sleep); of those one has the same
    # severity (sleep) and one the same category (sat); none agrees on everything.
    assert (overall["Errors (this session)"], overall["Errors (other)"]) == ("3", "3")
    assert overall["Position F1"] == f"{2 * 2 / 6:.3f}"
    assert overall["+ Severity F1"] == f"{2 * 1 / 6:.3f}"
    assert overall["+ Category F1"] == f"{2 * 1 / 6:.3f}"
    assert overall["All (exact) F1"] == "0.000"
    # MQM weights (Freitag et al.): this session 5 + 1 + 1, the other 25 + 1 + 5; the pairs at
    # the same place count with the smaller weight: min(5, 25) + min(1, 1) = 6.
    assert overall["MQM-weighted F1"] == f"{2 * 6 / (7 + 31):.3f}"
    system_a = cells(dialog, 0)
    assert system_a["System"] == "A" and system_a["Position F1"] == f"{2 * 2 / 5:.3f}"
    assert system_a["All (exact) F1"] == "0.000"


def test_the_disagreements_are_stepped_through_in_the_window(agreement):
    h, dialog = agreement
    c = h.c
    tree = dialog.disagreements
    rows = [
        [tree.topLevelItem(r).text(i) for i in range(5)] for r in range(tree.topLevelItemCount())
    ]
    assert rows == [
        ["1", "A", "severity", f"major {MIS} «sat»", f"critical {MIS} «sat»"],
        ["3", "A", "category", "minor Fluency/Grammar «sleep»", "minor Style «sleep»"],
        ["5", "A", "only B", "—", "major Accuracy «good»"],
        ["6", "B", "only A", "minor Fluency/Spelling «bred»", "—"],
    ]  # fmt: skip
    assert [d.kind for d in dialog.report.disagreements] == [
        DisagreementKind.SEVERITY,
        DisagreementKind.CATEGORY,
        DisagreementKind.ONLY_B,
        DisagreementKind.ONLY_A,
    ]
    assert not dialog.previous_button.isEnabled() and dialog.next_button.isEnabled()

    def shown() -> tuple[int | None, int, tuple[int, int] | None]:
        selected = c.selection()
        span = None if selected is None else (selected.start, selected.end)
        return h.window.current_segment(), c.system, span

    # A click on the second one shows segment 3 of A with "sleep" selected.
    item = tree.topLevelItem(1)
    QTest.mouseClick(
        tree.viewport(), Qt.MouseButton.LeftButton, pos=tree.visualItemRect(item).center()
    )
    h.qtbot.waitUntil(lambda: shown() == (2, 0, at(SYSTEM_A[2], "sleep")))
    assert dialog.position_label.text() == "2 of 4"
    # The keys act on the error shown: the lead settles it at once.
    span = c.span_under_cursor()
    assert span is not None and span.text == "sleep"
    # Next: the error only the other annotator marked, at its place in this output.
    dialog.next_button.click()
    h.qtbot.waitUntil(lambda: shown() == (4, 0, at(SYSTEM_A[4], "good")))
    dialog.next_button.click()
    h.qtbot.waitUntil(lambda: shown() == (5, 1, at(SYSTEM_B[5], "bred")))
    assert not dialog.next_button.isEnabled() and dialog.position_label.text() == "4 of 4"
    dialog.previous_button.click()
    dialog.previous_button.click()
    dialog.previous_button.click()
    h.qtbot.waitUntil(lambda: shown() == (0, 0, at(SYSTEM_A[0], "sat")))
    assert not dialog.previous_button.isEnabled()


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_agreement_dialog_screenshot(agreement, theme, save_shot):
    h, dialog = agreement
    h.window.set_theme(theme)
    try:
        dialog.choose(0)
        for _ in range(3):
            QApplication.processEvents()
        save_shot(dialog, f"review-agreement-{theme}")
    finally:
        h.window.set_theme("system")
