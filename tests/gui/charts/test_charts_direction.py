"""The charts follow each column's scale: a penalty (expert MQM of WMT21 TED zh-en) is better
lower, so its difference histogram colours and counts by the system with fewer points; the
"equal" bar holds exact ties only; a COMET-like 0-1 column is binned over 0-1; imported columns
get their scale from their values, the import dialog and the table header; the significance
tests and buckets say which system is better; screenshots in both themes."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QDialogButtonBox, QMainWindow

from matchlight.core.analysis.compare import difference_influence
from matchlight.core.analysis.selection import RowSet
from matchlight.core.analysis.significance import table_statistics
from matchlight.core.annotation.columns import MQM_COLUMN
from matchlight.core.io.scores import ScoreSpec, read_scores
from matchlight.core.metrics.base import Scale
from matchlight.core.style.palette import LIGHT
from matchlight.gui.charts.buckets import BucketsPanel
from matchlight.gui.charts.comparison import ComparisonDocks
from matchlight.gui.charts.distributions import DistributionsPanel
from matchlight.gui.charts.imports import imported_column
from matchlight.gui.charts.link import ChartLink
from matchlight.gui.charts.scatter import ScatterPanel
from matchlight.gui.charts.separation import SeparationPanel
from matchlight.gui.charts.significance import SignificancePanel, format_p
from matchlight.gui.charts.summary import SummaryWidget
from tests.gui.chartkit import (
    JOB_TIMEOUT,
    click_at,
    dark_palette,
    de_en,
    linked,
    session_of,
    settle,
    wait_job,
)
from tests.gui.conftest import SHOTS_DIR, grab_settled
from tests.scalekit import MQM_SYSTEMS, comet_like, mqm_ted, ted_scored, write_scores

SHOTS = SHOTS_DIR / "direction"
FACEBOOK, NIUTRANS, ONLINE_W = (MQM_SYSTEMS.index(n) for n in MQM_SYSTEMS)


def shot(widget, name: str) -> Path:
    """A screenshot under /tmp/matchlight-shots/direction/."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    path = SHOTS / f"{name}.png"
    assert grab_settled(widget).save(str(path)), f"could not save {path}"
    return path


def mqm_link():
    """A chart link over TED zh-en with the experts' MQM penalties as the app's MQM column."""
    session = session_of(ted_scored(), own_table=True)
    session.session.set_column(MQM_COLUMN, mqm_ted().penalties)
    link = ChartLink()
    link.set_session(session)
    return link, session


def show(qtbot, panel, size=(1150, 480)):
    qtbot.addWidget(panel)
    panel.resize(*size)
    panel.show()
    qtbot.waitExposed(panel)
    panel.refresh_now()
    settle()
    return panel


def brushed_rows(link) -> list[int]:
    (rowset,) = [f for f in link.core.selection.filters if isinstance(f, RowSet)]
    return list(rowset.rows)


# -- the difference histogram ------------------------------------------------------------------


def test_a_penalty_difference_favours_the_system_with_fewer_points(qtbot) -> None:
    link, session = mqm_link()
    panel = show(qtbot, DistributionsPanel(link))
    panel.set_choices(metric="mqm", a=FACEBOOK, b=ONLINE_W)
    panel.refresh_now()
    penalties = mqm_ted().penalties
    deltas = penalties[FACEBOOK] - penalties[ONLINE_W]
    fewer, same, more = (deltas < 0).sum(), (deltas == 0).sum(), (deltas > 0).sum()
    assert fewer != more  # the test tells the two readings apart
    legend = panel.delta_legend.text
    assert f"Facebook-AI ahead: {fewer}" in legend
    assert f"Online-W ahead: {more}" in legend
    assert f"equal: {same}" in legend
    assert panel.ahead == (fewer, same, more)
    # Facebook-AI's colour is on the left (less penalty), Online-W's on the right.
    a_bars, b_bars = panel.delta_bars["a"].opts, panel.delta_bars["b"].opts
    assert max(a_bars["x1"]) <= 0 <= min(b_bars["x0"])
    assert sum(a_bars["height"]) == fewer and sum(b_bars["height"]) == more
    assert panel.delta_bars["a"].opts["brush"].color() == panel.theme.system(FACEBOOK, 200)
    assert "lower is better" in panel.delta_plot.getAxis("bottom").labelText
    # The score histogram spans the penalties (no upper bound: the data's largest).
    assert panel.score_edges[0] == 0 and panel.score_edges[-1] >= np.nanmax(penalties)
    for s in range(3):
        values = penalties[s][~np.isnan(penalties[s])]
        assert panel.score_counts[s].tolist() == np.histogram(values, panel.score_edges)[0].tolist()
    session.deleteLater()


def test_the_equal_bar_holds_the_exact_ties_only(qtbot) -> None:
    data = de_en()
    link, session = linked(data)
    panel = show(qtbot, DistributionsPanel(link))
    panel.set_choices(metric="bleu", a=0, b=2)
    panel.refresh_now()
    table = data.table
    deltas = np.clip(table.column("bleu", 0), 0, 100) - np.clip(table.column("bleu", 2), 0, 100)
    ties = int((deltas == 0).sum())
    near = int(((deltas >= -2.5) & (deltas < 2.5)).sum())
    assert 0 < ties < near  # the old centred bin held more than the ties
    tie = panel.delta_bars["tie"].opts
    assert list(tie["height"]) == [ties]
    assert f"equal: {ties:,}" in panel.delta_legend.text
    width = panel.delta_edges[1] - panel.delta_edges[0]
    assert tie["x0"][0] == pytest.approx(-tie["x1"][0])  # on zero, narrower than a bin
    assert 0 < tie["x1"][0] - tie["x0"][0] < width
    # The bins next to zero hold the small non-zero differences, not the ties.
    k = len(panel.delta_counts) // 2
    assert panel.delta_counts[k - 1] == ((deltas >= -width) & (deltas < 0)).sum()
    assert panel.delta_counts[k] == ((deltas > 0) & (deltas < width)).sum()
    assert panel.delta_counts.sum() + ties == len(deltas)
    # Clicking the equal bar selects exactly the ties; clicking beside it, its neighbour.
    click_at(qtbot, panel.graphics, panel.delta_box, 0.0, ties / 2)
    assert brushed_rows(link) == np.flatnonzero(deltas == 0).tolist()
    assert "= 0 (equal)" in link.core.selection.filters[-1].label
    link.clear_brush()
    panel.refresh_now()
    click_at(qtbot, panel.graphics, panel.delta_box, 0.8 * width, 1.0)
    assert brushed_rows(link) == np.flatnonzero((deltas > 0) & (deltas < width)).tolist()
    session.deleteLater()


@pytest.mark.parametrize("dark", [False, True], ids=["light", "dark"])
def test_screenshots_of_an_mqm_column(qtbot, dark: bool) -> None:
    link, session = mqm_link()
    panel = DistributionsPanel(link)
    if dark:
        panel.setPalette(dark_palette())
    show(qtbot, panel)
    panel.set_choices(metric="mqm", a=FACEBOOK, b=ONLINE_W)
    panel.refresh_now()
    settle()
    path = shot(panel, f"distributions-mqm-{'dark' if dark else 'light'}")
    assert path.stat().st_size > 0
    session.deleteLater()


# -- an imported 0-1 column ----------------------------------------------------------------------


def comet_values(data) -> np.ndarray:
    table = data.table
    return comet_like(table.scores[:, :, table.metric_index("chrf")])


def docks_over(qtbot, data):
    window = QMainWindow()
    qtbot.addWidget(window)
    session = session_of(data, own_table=True)
    docks = ComparisonDocks(window)
    docks.set_session(session)
    wait_job(qtbot, docks.audit_job)
    return window, docks, session


def test_the_import_dialog_fills_the_scale_in_and_the_users_choice_wins(qtbot, tmp_path) -> None:
    data = de_en()
    _window, docks, session = docks_over(qtbot, data)
    values = comet_values(data)
    paths = write_scores(tmp_path, data.text.system_names, values)
    dialog = docks.show_score_dialog()
    dialog.name_edit.setText("COMET-22")
    dialog.column_edit.setText("score")
    dialog.set_files(paths)
    # Once the files are read in the background, the scale is the one the values suggest.
    qtbot.waitUntil(lambda: dialog.decimals_spin.value() == 3, timeout=JOB_TIMEOUT)
    wait_job(qtbot, dialog.preview_job)
    assert dialog.scale() == Scale("higher", 0.0, 1.0, 3)
    assert not dialog.scale_chosen
    assert f"from {values.min():.4g} to {values.max():.4g}" in dialog.scale_note.text()
    # A range the wrong way round is refused, with a message; nothing is read.
    dialog.low_edit.setText("2")
    dialog.low_edit.textEdited.emit("2")
    dialog.buttons.button(QDialogButtonBox.StandardButton.Ok).click()
    assert "above the highest" in dialog.error_label.text() and dialog.isVisible()
    dialog.low_edit.setText("0")
    dialog.better_combo.setCurrentIndex(dialog.better_combo.findData("lower"))
    dialog.better_combo.activated.emit(1)
    dialog.decimals_spin.setValue(2)
    added: list[str] = []
    docks.column_added.connect(added.append)
    dialog.buttons.button(QDialogButtonBox.StandardButton.Ok).click()
    wait_job(qtbot, dialog.job)
    assert added and not dialog.isVisible()
    column = session.session.table.column_info(added[0])
    assert column.scale == Scale("lower", 0.0, 1.0, 2)
    (record,) = session.session.imported_scores()
    assert record.column == column
    assert "lower is better, 0 to 1, 2 decimals" in docks.panel.message_label.text()


def test_an_import_without_a_choice_takes_its_values_scale(qtbot, tmp_path) -> None:
    data = de_en()
    _window, docks, session = docks_over(qtbot, data)
    paths = write_scores(tmp_path, data.text.system_names, comet_values(data))
    dialog = docks.show_score_dialog()
    dialog.name_edit.setText("COMET-22")
    dialog.column_edit.setText("score")
    dialog.set_files(paths)
    added: list[str] = []
    docks.column_added.connect(added.append)
    dialog.buttons.button(QDialogButtonBox.StandardButton.Ok).click()  # before any preview
    wait_job(qtbot, dialog.job)
    column = session.session.table.column_info(added[0])
    assert column.scale == Scale("higher", 0.0, 1.0, 3)


def comet_link(tmp_path):
    data = de_en()
    session = session_of(data, own_table=True)
    names = data.text.system_names
    paths = write_scores(tmp_path, names, comet_values(data))
    imported = read_scores(
        [ScoreSpec(p, column="score") for p in paths],
        systems=names,
        n_segments=data.table.n_segments,
        name="COMET-22",
    )
    column = imported_column(imported, data.table.column_keys)
    session.session.set_column(column, imported.aligned(names))
    link = ChartLink()
    link.set_session(session)
    return link, session, column.key, imported.aligned(names)


def test_a_0_1_column_is_binned_over_0_1(qtbot, tmp_path) -> None:
    link, session, key, values = comet_link(tmp_path)
    panel = show(qtbot, DistributionsPanel(link))
    panel.set_choices(metric=key, a=1, b=0)
    panel.refresh_now()
    assert panel.score_edges[0] == 0 and panel.score_edges[-1] == 1
    np.testing.assert_allclose(np.diff(panel.score_edges), 0.05)
    for s in range(values.shape[0]):
        counts = np.histogram(values[s], bins=panel.score_edges)[0]
        assert panel.score_counts[s].tolist() == counts.tolist()
    deltas = values[1] - values[0]
    assert panel.delta_edges[0] == -1 and panel.delta_edges[-1] == 1
    assert panel.delta_counts.sum() + panel.delta_ties == len(deltas)
    assert panel.delta_ties == int((deltas == 0).sum())
    # Brushed ranges are named at the column's precision.
    assert panel.select_score_range(0.25, 0.5)
    assert link.core.selection.filters[-1].label.endswith("in [0.250, 0.500]")
    session.deleteLater()


@pytest.mark.parametrize("dark", [False, True], ids=["light", "dark"])
def test_screenshots_of_a_0_1_column(qtbot, tmp_path, dark: bool) -> None:
    link, session, key, _ = comet_link(tmp_path)
    panel = DistributionsPanel(link)
    if dark:
        panel.setPalette(dark_palette())
    show(qtbot, panel)
    panel.set_choices(metric=key, a=1, b=0)
    panel.refresh_now()
    settle()
    path = shot(panel, f"distributions-comet-{'dark' if dark else 'light'}")
    assert path.stat().st_size > 0
    session.deleteLater()


# -- the other charts ------------------------------------------------------------------------------


def test_significance_says_better_for_significantly_fewer_penalty_points(qtbot) -> None:
    link, session = mqm_link()
    session.session.set_baseline(ONLINE_W)
    panel = show(qtbot, SignificancePanel(link), size=(1150, 560))
    panel.run(n_samples=300)
    wait_job(qtbot, panel.job)
    model = panel.model
    headers = [model.headerData(c, Qt.Orientation.Horizontal) for c in range(model.columnCount())]
    col = headers.index("MQM (μ ± 95% CI)")
    base = model.index(0, col).data(Qt.ItemDataRole.UserRole)
    said = {}
    for r in range(1, model.rowCount()):
        line = model.index(r, col).data(Qt.ItemDataRole.UserRole)
        significant = line.p_value <= 0.05
        want = ("better" if line.score < base.score else "worse") if significant else None
        text = model.index(r, col).data()
        assert text.endswith(format_p(line.p_value) + (f" {want}" if want else ""))
        assert text.startswith(f"{line.score:.2f} (")  # MQM's two decimals
        colour = model.index(r, col).data(Qt.ItemDataRole.ForegroundRole)
        if want is None:
            assert colour is None
        else:
            assert colour == QColor(LIGHT.better_text if want == "better" else LIGHT.worse_text)
        said[line.name] = want
    assert said["NiuTrans"] == "better"  # fewer points than Online-W: better, not worse
    assert "Lower is better for MQM penalty" in panel.caption.text()
    session.deleteLater()


def test_the_scatter_counts_who_is_better_by_direction(qtbot) -> None:
    link, session = mqm_link()
    panel = show(qtbot, ScatterPanel(link), size=(1000, 560))
    panel.set_choices(metric="mqm", x=ONLINE_W, y=FACEBOOK)
    panel.refresh_now()
    penalties = mqm_ted().penalties
    x, y = penalties[ONLINE_W], penalties[FACEBOOK]
    above = int((y > x).sum())  # Facebook-AI more points: Online-W better
    assert f"▲ Online-W better: {above}" in panel.legend.text
    assert f"▼ Facebook-AI better: {int((y < x).sum())}" in panel.legend.text
    assert panel.counts == {"above": above, "equal": int((y == x).sum()), "below": (y < x).sum()}
    session.deleteLater()


def test_separation_lists_what_helps_a_by_direction(qtbot) -> None:
    link, session = mqm_link()
    panel = show(qtbot, SeparationPanel(link), size=(1150, 640))
    panel.set_choices(a=FACEBOOK, b=ONLINE_W, metric="mqm")
    panel.refresh_now()
    wait_job(qtbot, panel.job)
    influence = panel.result.influence
    table = session.session.table
    stats, score = table_statistics(table, "mqm")
    expected = difference_influence(stats_a=stats[FACEBOOK], stats_b=stats[ONLINE_W], score=score)
    np.testing.assert_array_equal(influence.effect, expected.effect)
    panel.side_combo.setCurrentIndex(panel.side_combo.findData("a"))
    listed = panel.influence_model.segments()
    effect = dict(zip(expected.rows.tolist(), expected.effect.tolist(), strict=True))
    # Helping Facebook-AI on a penalty: taking the segment out would raise its lead, so its
    # effect on FB − OW is negative; the strongest come first.
    shown = [effect[s] for s in listed.tolist()]
    assert shown and all(e < 0 for e in shown) and shown == sorted(shown)
    assert min(shown) == min(expected.effect)
    session.deleteLater()


def test_buckets_and_the_summary_use_the_columns_scale(qtbot, tmp_path) -> None:
    link, session = mqm_link()
    buckets = show(qtbot, BucketsPanel(link))
    buckets.set_choices(by="length", metric="mqm")
    buckets.refresh_now()
    wait_job(qtbot, buckets.job)
    assert buckets.result.lower_is_better
    assert "(lower is better)" in buckets.plot.getAxis("left").labelText
    summary = SummaryWidget()
    qtbot.addWidget(summary)
    table = session.session.table
    summary.set_table(table)
    summary.refresh()
    model = summary.model
    keys = [c.key for c in table.columns if c.headline and c.kind == "score"]
    for key, digits in (("mqm", 3), ("bleu", 2)):
        col = keys.index(key)
        for s in range(len(table.systems)):
            figure = table.corpus(s).values[key]
            assert model.index(model.row_of(s), col).data() == f"{figure:.{digits}f}"
    session.deleteLater()
