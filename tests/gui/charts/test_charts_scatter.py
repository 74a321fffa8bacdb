"""The system-against-system scatter: its points are the table's values, a real click makes the
nearest segment the table's current row, a dragged box selects the segments inside it, and the
selection is marked by an overlay that never restyles the points."""

from __future__ import annotations

import numpy as np
import pytest
from PySide6.QtCore import QRectF
from PySide6.QtWidgets import QTableView

from matchlight.core.analysis.selection import RowSet, Selection, TextFilter
from matchlight.gui.charts.link import ChartLink
from matchlight.gui.charts.scatter import DEDUPE_FROM, ScatterPanel, drawn_points
from matchlight.gui.table.model import SegmentTableModel
from matchlight.gui.table.proxy import SegmentFilterProxy
from tests.gui.chartkit import click_at, dark_palette, de_en, drag, en_zh, session_of, settle


@pytest.fixture
def setup(qtbot, sample):
    """A scatter linked to a real segment table (model, proxy, view) over the sample."""
    session = session_of(sample)
    model = SegmentTableModel(session)
    proxy = SegmentFilterProxy()
    proxy.setSourceModel(model)
    view = QTableView()
    view.setModel(proxy)
    qtbot.addWidget(view)
    link = ChartLink(table_view=view)
    link.set_session(session)
    panel = ScatterPanel(link)
    qtbot.addWidget(panel)
    panel.resize(900, 620)
    panel.show()
    qtbot.waitExposed(panel)
    panel.set_choices(metric="bleu", x=0, y=1)
    panel.refresh_now()
    settle()
    panel.keep = (session, model, proxy)
    return panel, view, proxy


def test_points_are_the_tables_values(setup, sample) -> None:
    panel, _, _ = setup
    table = sample.table
    assert panel.rows.tolist() == list(range(160))
    assert panel.xs.tolist() == table.column("bleu", 0).tolist()
    assert panel.ys.tolist() == table.column("bleu", 1).tolist()
    x, y = panel.points.getData()
    assert np.array_equal(x, table.column("bleu", 0)) and np.array_equal(y, table.column("bleu", 1))
    above = int((table.column("bleu", 1) > table.column("bleu", 0)).sum())
    assert f"literal better: {above}" in panel.legend.text  # BLEU: higher is better
    # One uniformly styled item: no per-point brushes or sizes.
    assert panel.points.opts["brush"] is not None and len(panel.points.data) == 160


def test_clicking_a_point_makes_its_row_current(qtbot, setup, sample) -> None:
    panel, view, proxy = setup
    table = sample.table
    segment = 57
    x, y = table.value("bleu", 0, segment), table.value("bleu", 1, segment)
    # A point alone near its spot, so that the nearest is unambiguous.
    distance = np.hypot(panel.xs - x, panel.ys - y)
    distance[segment] = np.inf
    assert distance.min() > 0.5
    click_at(qtbot, panel.graphics, panel.box, x, y)
    assert proxy.mapToSource(view.currentIndex()).row() == segment
    assert panel.link.current_segment() == segment
    ring_x, ring_y = panel.current.getData()
    assert (ring_x[0], ring_y[0]) == (x, y)


def test_a_point_outside_the_selection_is_reported(qtbot, setup, sample) -> None:
    panel, _, _ = setup
    messages: list[str] = []
    panel.link.message.connect(messages.append)
    panel.link.session.set_selection(Selection((TextFilter("Klima"),)))
    shown = set(panel.link.core.selected_rows().tolist())
    hidden = next(r for r in range(160) if r not in shown)
    assert not panel.link.make_current(hidden)
    assert f"Segment {hidden + 1} is not among the rows" in messages[-1]


def test_dragging_a_box_selects_the_rows_inside(qtbot, setup, sample) -> None:
    panel, _, proxy = setup
    drag(panel.graphics, panel.box, (30.0, 10.0), (70.0, 40.0))
    (rowset,) = [f for f in panel.link.core.selection.filters if isinstance(f, RowSet)]
    x, y = panel.xs, panel.ys
    # The corners land on whole pixels, a fraction of a point from the ones asked for: every
    # point well inside is selected, none well outside.
    loose = np.flatnonzero((x >= 29) & (x <= 71) & (y >= 9) & (y <= 41))
    strict = np.flatnonzero((x >= 31) & (x <= 69) & (y >= 11) & (y <= 39))
    assert set(strict.tolist()) <= set(rowset.rows) <= set(loose.tolist())
    assert len(strict) > 10
    assert proxy.rowCount() == len(rowset.rows)


def test_select_box_is_exact(setup, sample) -> None:
    panel, _, proxy = setup
    assert panel.select_box(QRectF(20.0, 5.0, 40.0, 30.0))
    table = sample.table
    x, y = table.column("bleu", 0), table.column("bleu", 1)
    expected = np.flatnonzero((x >= 20) & (x <= 60) & (y >= 5) & (y <= 35))
    assert panel.link.core.selected_rows().tolist() == expected.tolist()
    assert proxy.rowCount() == len(expected)


def test_selected_rows_are_marked_by_an_overlay(setup) -> None:
    panel, _, _ = setup
    panel.link.session.set_selection(Selection((TextFilter("the"),)))
    panel.refresh_now()
    rows = panel.link.core.selected_rows()
    assert panel.marked_rows.tolist() == rows.tolist()
    mx, my = panel.marked.getData()
    assert sorted(zip(mx.tolist(), my.tolist())) == sorted(
        zip(panel.xs[rows].tolist(), panel.ys[rows].tolist())
    )
    assert len(panel.points.data) == 160  # the points themselves are untouched


def test_many_points_on_one_spot_are_drawn_once() -> None:
    rng = np.random.default_rng(0)
    n = DEDUPE_FROM + 5000
    x = np.round(rng.uniform(0, 100, n), 0)
    y = np.round(rng.uniform(0, 100, n), 0)
    drawn = drawn_points(x, y, (100.0, 100.0))
    spots = {(a, b) for a, b in zip(x.tolist(), y.tolist())}
    assert len(drawn) == len(spots)
    assert {(x[i], y[i]) for i in drawn.tolist()} == spots
    small = drawn_points(x[:100], y[:100], (100.0, 100.0))
    assert small.tolist() == list(range(100))


@pytest.mark.parametrize("dataset", ["de-en", "en-zh"])
@pytest.mark.parametrize("dark", [False, True], ids=["light", "dark"])
def test_screenshots(qtbot, save_shot, dataset: str, dark: bool) -> None:
    data = de_en() if dataset == "de-en" else en_zh()
    link = ChartLink()
    session = session_of(data)
    link.set_session(session)
    panel = ScatterPanel(link)
    qtbot.addWidget(panel)
    if dark:
        panel.setPalette(dark_palette())
    panel.resize(980, 600)
    panel.show()
    qtbot.waitExposed(panel)
    panel.set_choices(metric="bleu", x=0, y=3)
    panel.refresh_now()
    settle()
    assert len(panel.rows) == len(data.text)
    save_shot(panel, f"charts-scatter-{dataset}-{'dark' if dark else 'light'}")


def test_export_is_the_square_plot(setup, tmp_path) -> None:
    from PySide6.QtGui import QImage

    panel, _, _ = setup
    png = panel.export_to(tmp_path / "scatter.png")
    svg = panel.export_to(tmp_path / "scatter.svg")
    assert png is not None and svg is not None
    image = QImage(str(png))
    assert image.width() >= 1600 and 0.8 < image.height() / image.width() < 1.2
    text = svg.read_text(encoding="utf-8")
    assert "<svg" in text and "<path" in text
