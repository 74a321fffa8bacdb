"""The score and difference histograms: their counts are numpy's histograms of the table's
values on the selected rows, and real clicks and drags on the plots select exactly the rows
of the clicked bin or the dragged range."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from PySide6.QtGui import QImage

from matchlight.core.analysis.scales import difference_bins
from matchlight.core.analysis.selection import RowSet, Selection, TextFilter
from matchlight.gui.charts.distributions import DistributionsPanel, axis_ticks, bin_index
from tests.gui.chartkit import click_at, dark_palette, de_en, drag, linked, settle


@pytest.fixture
def panel(qtbot, sample):
    link, session = linked(sample)
    widget = DistributionsPanel(link)
    qtbot.addWidget(widget)
    widget.resize(1100, 480)
    widget.show()
    qtbot.waitExposed(widget)
    widget.refresh_now()
    settle()
    widget.session_model = session  # keep it alive with the panel
    return widget


def brushed(link) -> RowSet:
    (rowset,) = [f for f in link.core.selection.filters if isinstance(f, RowSet)]
    return rowset


# -- binning -------------------------------------------------------------------------------------


def test_bins_are_numpys_and_ticks_fall_on_nice_values() -> None:
    rng = np.random.default_rng(1)
    values = rng.uniform(0, 100, 5000)
    values[:7] = 100.0
    edges = np.arange(0, 101, 5.0)
    index = bin_index(values, edges)
    counts, _ = np.histogram(values, bins=edges)
    assert np.bincount(index, minlength=len(counts)).tolist() == counts.tolist()
    assert bin_index(np.array([np.nan, -1.0, 101.0]), edges).tolist() == [-1, -1, -1]
    major, minor = axis_ticks(0, 100)
    assert [v for v, _ in major] == [0, 20, 40, 60, 80, 100] and len(minor) == 11
    major, _ = axis_ticks(-100, 100, signed=True)
    assert [label for _, label in major] == ["-100", "-50", "0", "+50", "+100"]
    major, _ = axis_ticks(0, 1)
    assert [label for _, label in major] == ["0", "0.2", "0.4", "0.6", "0.8", "1"]


# -- counts ---------------------------------------------------------------------------------------


def test_counts_equal_the_tables_histograms(panel, sample) -> None:
    table = sample.table
    panel.set_choices(metric="bleu", brush=1, a=2, b=0)
    panel.refresh_now()
    edges = np.arange(0, 101, 5.0)
    assert panel.score_edges.tolist() == edges.tolist()
    for s in range(3):
        values = np.clip(table.column("bleu", s), 0, 100)
        expected, _ = np.histogram(values, bins=edges)
        assert panel.score_counts[s].tolist() == expected.tolist()
        assert panel.score_counts[s].sum() == 160  # BLEU 100.00000000000004 included
    deltas = np.clip(table.column("bleu", 2), 0, 100) - np.clip(table.column("bleu", 0), 0, 100)
    assert panel.delta_edges.tolist() == np.arange(-100, 101, 5.0).tolist()
    expected, _ = np.histogram(deltas[deltas != 0], bins=panel.delta_edges)
    assert panel.delta_counts.tolist() == expected.tolist()
    assert panel.delta_ties == int((deltas == 0).sum())
    assert difference_bins(table.column_info("bleu"), deltas).counts.tolist() == expected.tolist()
    legend = panel.delta_legend.text
    assert f"rough ahead: {int((deltas > 0).sum())}" in legend
    assert f"fluent ahead: {int((deltas < 0).sum())}" in legend
    assert f"equal: {int((deltas == 0).sum())}" in legend


def test_a_selection_made_elsewhere_is_followed(panel, sample) -> None:
    panel.link.session.set_selection(Selection((TextFilter("the"),)))
    panel.refresh_now()
    rows = panel.link.core.selected_rows()
    assert 0 < len(rows) < 160
    assert panel.score_rows.tolist() == rows.tolist()
    values = np.clip(sample.table.column("bleu", 0)[rows], 0, 100)
    assert (
        panel.score_counts[0].tolist() == np.histogram(values, bins=panel.score_edges)[0].tolist()
    )


# -- brushing with the mouse -----------------------------------------------------------------------


def test_clicking_a_bar_selects_its_rows(qtbot, panel, sample) -> None:
    panel.set_choices(metric="bleu", brush=0)
    panel.refresh_now()
    counts = panel.score_counts[0]
    target = int(np.argmax(counts))
    centre = (panel.score_edges[target] + panel.score_edges[target + 1]) / 2
    click_at(qtbot, panel.graphics, panel.score_box, centre, counts[target] / 2)
    values = np.clip(sample.table.column("bleu", 0), 0, 100)
    expected = np.flatnonzero(bin_index(values, panel.score_edges) == target)
    assert list(brushed(panel.link).rows) == expected.tolist()
    assert panel.link.core.selected_rows().tolist() == expected.tolist()
    assert len(expected) == counts[target]
    # The histogram that brushed keeps showing every row; the other one follows the brush.
    panel.refresh_now()
    assert panel.score_counts[0].tolist() == counts.tolist()
    assert panel.delta_counts.sum() + panel.delta_ties == len(expected)
    assert panel.score_region.isVisible()


def test_dragging_a_range_selects_the_rows_inside_it(qtbot, panel, sample) -> None:
    panel.set_choices(metric="bleu", brush=1)
    panel.refresh_now()
    drag(panel.graphics, panel.score_box, (22.0, 5.0), (48.0, 5.0))
    low, high = panel.score_region.getRegion()
    assert 20 < low < 24 and 46 < high < 50
    values = np.clip(sample.table.column("bleu", 1), 0, 100)
    expected = np.flatnonzero((values >= low) & (values <= high))
    assert list(brushed(panel.link).rows) == expected.tolist()
    assert "BLEU of literal in [" in brushed(panel.link).label


def test_dragging_on_the_difference_histogram_selects_by_difference(qtbot, panel, sample) -> None:
    panel.set_choices(metric="rougeL_f", a=1, b=2)
    panel.refresh_now()
    drag(panel.graphics, panel.delta_box, (3.0, 1.0), (40.0, 1.0))
    low, high = panel.delta_region.getRegion()
    table = sample.table
    deltas = table.column("rougeL_f", 1) - table.column("rougeL_f", 2)
    expected = np.flatnonzero((deltas >= low) & (deltas <= high))
    assert len(expected) > 0
    assert list(brushed(panel.link).rows) == expected.tolist()
    panel.refresh_now()
    # The score histogram now shows the brushed rows only (the brush is the delta plot's).
    assert panel.score_rows.tolist() == expected.tolist()
    panel.link.clear_brush()
    panel.schedule()
    assert not panel.delta_region.isVisible()


# -- looks and export -----------------------------------------------------------------------------


def test_dark_palette_restyles_and_every_system_has_its_colour(qtbot, panel) -> None:
    assert not panel.theme.dark
    panel.setPalette(dark_palette())
    settle()
    assert panel.theme.dark
    panel.refresh_now()
    image = panel.graphics.grab().toImage()
    assert image.pixelColor(3, 3).name() == "#1e1e1e"
    colours = {
        image.pixelColor(x, y).name()
        for y in range(0, image.height(), 2)
        for x in range(0, image.width(), 2)
    }
    for s in range(3):
        assert panel.theme.system(s).name() in colours


def test_export_png_and_svg(qtbot, panel, tmp_path: Path) -> None:
    png = panel.export_to(tmp_path / "hist.png")
    svg = panel.export_to(tmp_path / "hist.svg")
    assert png is not None and svg is not None
    image = QImage(str(png))
    assert image.width() >= 1600
    text = svg.read_text(encoding="utf-8")
    assert text.lstrip().startswith("<?xml") and "<svg" in text
    failures: list[str] = []
    panel.export_failed.connect(failures.append)
    assert panel.export_to(tmp_path / "hist.pdf") is None
    assert "png or .svg" in failures[-1]


@pytest.mark.parametrize("dark", [False, True], ids=["light", "dark"])
def test_screenshot_de_en(qtbot, save_shot, dark: bool) -> None:
    data = de_en()
    link, session = linked(data)
    panel = DistributionsPanel(link)
    qtbot.addWidget(panel)
    if dark:
        panel.setPalette(dark_palette())
    panel.resize(1150, 480)
    panel.show()
    qtbot.waitExposed(panel)
    panel.set_choices(metric="bleu", a=1, b=0)
    panel.refresh_now()
    settle()
    assert sum(int(c.sum()) for c in panel.score_counts.values()) == 5 * 1984
    save_shot(panel, f"charts-distributions-de-en-{'dark' if dark else 'light'}")
    assert session.session is link.core
