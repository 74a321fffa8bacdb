"""Multi-reference honesty: scores against each reference alone are the engine's (equal to
core.analysis.perreference, itself equal to sacreBLEU), and the app says that wmt22-en-zh's ref2
equals Online-B's output on 373 of 2,037 lines."""

from __future__ import annotations

import numpy as np
import pytest
from PySide6.QtCore import Qt

from matchlight.core.analysis.perreference import reference_report, single_reference_tables
from matchlight.core.analysis.selection import SegmentRange, Selection
from matchlight.gui.charts.references import ReferencesPanel, audit_warning, quick_audit
from tests.gui.chartkit import dark_palette, de_en, en_zh, linked, settle, show_panel, wait_job


def make_panel(qtbot, data, size=(1000, 420)):
    return show_panel(qtbot, ReferencesPanel, *linked(data), size)


def test_en_zh_ref2_is_online_b_and_the_panel_says_so(qtbot, qtmodeltester) -> None:
    data = en_zh()
    panel = make_panel(qtbot, data)
    warnings: list[str] = []
    panel.warning_changed.connect(warnings.append)
    panel.set_metric("bleu")
    panel.refresh_now()
    wait_job(qtbot, panel.job)
    report = panel.model.report
    assert report is not None
    qtmodeltester.check(panel.model)
    (flagged,) = report.audit.flagged
    assert (flagged.reference, flagged.system, flagged.identical) == ("ref2", "Online-B", 373)
    assert warnings and "ref2 looks made from Online-B's output: 373 of 2037 lines" in warnings[-1]
    assert panel.warning.isVisible() and panel.warning.text() == warnings[-1]
    # The numbers are core's.
    singles = single_reference_tables(data.text, data.config, metric="bleu")
    expected = reference_report(
        text=data.text,
        table=data.table,
        singles=singles,
        column="bleu",
        reference_names=("ref", "ref2"),
    )
    np.testing.assert_array_equal(report.breakdown.single, expected.breakdown.single)
    np.testing.assert_array_equal(report.breakdown.combined, expected.breakdown.combined)
    online_b = 3
    index = panel.model.index(online_b, 1)
    assert index.data(Qt.ItemDataRole.UserRole) == expected.breakdown.single[online_b, 1]
    assert panel.model.index(online_b, 4).data().startswith("373")
    assert panel.model.index(online_b, 4).data(Qt.ItemDataRole.FontRole).bold()
    assert panel.model.headerData(2, Qt.Orientation.Horizontal) == "BLEU vs all"


def test_the_quick_audit_needs_no_scoring() -> None:
    data = en_zh()
    link, _ = linked(data)
    text = audit_warning(quick_audit(link.core))
    assert text is not None and "ref2 looks made from Online-B" in text
    assert audit_warning(quick_audit(linked(de_en())[0].core)) is None


def test_a_selection_rescores_nothing_and_sums_again(qtbot) -> None:
    data = de_en()
    panel = make_panel(qtbot, data)
    panel.set_metric("chrf")
    panel.refresh_now()
    wait_job(qtbot, panel.job)
    singles = panel._singles
    panel.link.session.set_selection(Selection((SegmentRange("1-400"),)))
    panel.refresh_now()
    wait_job(qtbot, panel.job)
    assert panel._singles[2] is singles[2]  # the tables against each reference alone were kept
    report = panel.model.report
    assert report.n_rows == 400
    rows = np.arange(400)
    assert report.breakdown.combined[0] == data.table.corpus(0, rows).value("chrf")
    assert report.breakdown.single[0, 0] == singles[2][0].corpus(0, rows).value("chrf")
    assert report.audit.flagged == ()


@pytest.mark.parametrize("dark", [False, True], ids=["light", "dark"])
def test_screenshot_en_zh(qtbot, save_shot, dark: bool) -> None:
    panel = make_panel(qtbot, en_zh())
    if dark:
        panel.setPalette(dark_palette())
    panel.set_metric("bleu")
    panel.refresh_now()
    wait_job(qtbot, panel.job)
    settle()
    save_shot(panel, f"charts-references-en-zh-{'dark' if dark else 'light'}")
