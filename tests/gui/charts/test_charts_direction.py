"""The charts follow each column's scale: a penalty (expert MQM of WMT21 TED zh-en) is better
lower, so its difference histogram colours and counts by the system with fewer points; the
"equal" bar holds exact ties only; a COMET-like 0-1 column is binned over 0-1; imported columns
get their scale from their values, the import dialog and the table header; the significance
tests and buckets say which system is better; screenshots in both themes."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from matchlight.core.analysis.selection import RowSet
from matchlight.gui.annotate.controller import MQM_COLUMN
from matchlight.gui.charts.distributions import DistributionsPanel
from matchlight.gui.charts.link import ChartLink
from tests.gui.chartkit import click_at, dark_palette, de_en, linked, session_of, settle
from tests.gui.conftest import SHOTS_DIR, grab_settled
from tests.scalekit import MQM_SYSTEMS, mqm_ted, ted_scored

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
