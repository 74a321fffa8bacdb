"""The window on a laptop screen (1280x720): it opens within the screen and restores a saved
geometry only while that fits; the segment table shows the first output without scrolling,
however many systems and scores, with score columns as wide as their figures; and the Compare
systems dock's histograms are tall enough to read. Screenshots (both themes, the sample and
wmt22-de-en's five systems) go to /tmp/matchlight-shots.
"""

from __future__ import annotations

import itertools
import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from PySide6.QtCore import QRect, QSize, Qt
from PySide6.QtWidgets import QApplication, QMenu

from matchlight.core.io.scores import ScoreSpec, read_scores
from matchlight.gui.charts.distributions import MIN_PLOT_HEIGHT
from matchlight.gui.dialogs.opendialog import recognise_files, sample_specs
from matchlight.gui.shell.columns import MIN_TEXT_WIDTH, NUMBER_PADDING
from matchlight.gui.shell.screenfit import FRAME_ROOM, PREFERRED_SIZE, fits, fitted_geometry
from matchlight.gui.shell.theme import apply_theme
from matchlight.gui.shell.viewstate import column_id
from tests.gui.conftest import first_rows
from tests.gui.shell.windowkit import DATA, SHOTS, Harness, shot

WIDTH, HEIGHT = 1280, 720
DE_EN = DATA / "wmt22-de-en"


@pytest.fixture
def harness(qtbot, tmp_path):
    h = Harness(qtbot, tmp_path)
    yield h
    h.window.close()
    apply_theme("system")


def de_en_specs(tmp_path: Path | None = None):
    """wmt22-de-en; with ``tmp_path``, its first 500 rows (a layout test that needs its five
    systems and real lines, not all 1,984 rows scored)."""
    if not DE_EN.is_dir():
        pytest.skip("shared/data/wmt22-de-en is not present")
    folder = DE_EN if tmp_path is None else first_rows(DE_EN, tmp_path, 500)
    return recognise_files([str(folder)]).specs


def import_comet(window, folder: Path) -> str:
    """A COMET-like column (0-1, full float precision, one TSV per system) loaded the way the
    Load segment scores dialog loads it."""
    core = window.lifecycle.core
    names = core.system_names
    values = np.random.default_rng(22).uniform(0.3, 0.95, size=(len(names), core.n_segments))
    paths = []
    for s, name in enumerate(names):
        path = folder / f"sys.{name}.tsv"
        path.write_text("score\n" + "".join(f"{v!r}\n" for v in values[s].tolist()), "utf-8")
        paths.append(str(path))
    imported = read_scores(
        [ScoreSpec(p, column="score") for p in paths],
        systems=names,
        n_segments=core.n_segments,
        name="COMET-22",
    )
    key = window.comparison_docks.add_scores(imported)
    assert key is not None
    return key


def opened(qtbot, harness, specs, *, comet: bool, dark: bool = False):
    window = harness.window
    window.resize(WIDTH, HEIGHT)
    window.show()
    qtbot.waitExposed(window)
    if dark:
        window.set_theme("dark")
    harness.open_and_wait(specs)
    key = import_comet(window, harness.tmp_path) if comet else None
    harness.select(0)
    return window, key


# -- the window on the screen ----------------------------------------------------------------


def test_the_preferred_size_where_it_fits_the_free_area_of_the_screen_elsewhere():
    large = QRect(0, 0, 2560, 1440)
    frame = fitted_geometry(large)
    assert frame.size() == PREFERRED_SIZE + FRAME_ROOM and large.contains(frame)
    assert abs(frame.center().x() - large.center().x()) <= 1
    laptop = QRect(0, 27, 1280, 693)  # a 1280x720 screen with a panel at the top
    frame = fitted_geometry(laptop)
    assert frame == laptop
    # A window that cannot be made that small keeps its top left corner on the screen.
    frame = fitted_geometry(laptop, least=QSize(1400, 600))
    assert frame.left() == laptop.left() and laptop.top() <= frame.top()
    assert frame.size() == QSize(1400, laptop.height() - FRAME_ROOM.height()) + FRAME_ROOM


def test_a_geometry_fits_when_it_lies_within_a_screens_free_area(qtbot):
    available = QApplication.primaryScreen().availableGeometry()
    assert fits(QRect(available.topLeft(), QSize(500, 400))) and fits(available)
    assert not fits(available.adjusted(0, 0, 1, 0))
    assert not fits(QRect(-5000, 0, 500, 400))


OPEN_WINDOW = r"""
import json, sys
from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QApplication
from matchlight.gui.shell.mainwindow import MainWindow

app = QApplication([])
window = MainWindow(settings=QSettings(sys.argv[1], QSettings.Format.IniFormat),
                    glyph_check=lambda ch: True)
window.show()
app.processEvents()
rects = {"frame": window.frameGeometry(), "inner": window.geometry(),
         "free": window.screen().availableGeometry()}
print(json.dumps({k: [r.x(), r.y(), r.width(), r.height()] for k, r in rects.items()}))
if len(sys.argv) > 2:  # the user makes it this size, then quits (the geometry is saved)
    window.resize(*map(int, sys.argv[2].split("x")))
    app.processEvents()
window.close()
"""


def open_window(tmp_path: Path, screen: tuple[int, int], settings: Path, resize: str = ""):
    """A MainWindow in a process of its own on one screen of ``screen``'s size (Qt's offscreen
    platform, configured): its frame, its geometry (inside the frame), the screen's free area."""
    config = tmp_path / f"screen-{screen[0]}x{screen[1]}.json"
    entry = {"name": "screen", "x": 0, "y": 0, "width": screen[0], "height": screen[1]}
    config.write_text(json.dumps({"screens": [entry]}), "utf-8")
    env = dict(os.environ, QT_QPA_PLATFORM=f"offscreen:configfile={config}")
    args = [sys.executable, "-c", OPEN_WINDOW, str(settings), *([resize] if resize else [])]
    # The timeout only keeps a hung process from hanging the suite; nothing is timed.
    done = subprocess.run(args, env=env, capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    result = json.loads(done.stdout.strip().splitlines()[-1])
    return QRect(*result["frame"]), QRect(*result["inner"]), QRect(*result["free"])


def test_on_a_1280x720_screen_the_window_fits_even_after_a_larger_screen(tmp_path):
    laptop, desktop = (1280, 720), (1920, 1080)
    settings = tmp_path / "laptop.ini"
    frame, inner, free = open_window(tmp_path, laptop, settings, resize="1200x650")
    assert free == QRect(0, 0, *laptop) and free.contains(frame)
    assert inner.size() == QSize(*laptop) - FRAME_ROOM
    frame, inner, free = open_window(tmp_path, laptop, settings)  # as the user left it
    assert free.contains(frame) and inner.size() == QSize(1200, 650)
    moved = tmp_path / "moved.ini"
    frame, inner, free = open_window(tmp_path, desktop, moved, resize="1800x1000")
    assert free.contains(frame) and inner.size() == PREFERRED_SIZE
    frame, inner, free = open_window(tmp_path, laptop, moved)  # 1800x1000 does not fit here
    assert free == QRect(0, 0, *laptop) and free.contains(frame), frame


# -- the table -------------------------------------------------------------------------------


def test_five_systems_with_an_imported_score_read_at_1280x720(qtbot, harness, tmp_path):
    """wmt22-de-en's five systems with BLEU, ROUGE-L and an imported 0-1 COMET: 27 score
    columns, each next to its system's output; the first output shows without scrolling."""
    window, comet = opened(qtbot, harness, de_en_specs(tmp_path), comet=True)
    view, model, proxy = window.table_view, window.model, window.proxy
    assert model.shown_scores == ("bleu", "rougeL_f", comet)
    scores, deltas = model.columns_of_kind("score"), model.columns_of_kind("delta")
    assert (len(scores), len(deltas)) == (15, 12)
    first = model.hypothesis_column(0)
    assert view.horizontalScrollBar().value() == 0
    assert view.columnViewportPosition(first) >= 0
    assert view.columnViewportPosition(first) + view.columnWidth(first) <= view.viewport().width()
    assert all(view.columnWidth(c) >= MIN_TEXT_WIDTH for c in model.text_columns())
    # A score column is as wide as its widest figure, plus padding: BLEU and ROUGE-L show
    # 0-100 at one decimal, the imported COMET 0-1 at three (its scale, as the user was told).
    assert model.table.column_info(comet).format(1.0) == "1.000"
    figures = {"bleu": "100.0", "rougeL_f": "100.0", comet: "1.000"}
    metrics = view.fontMetrics()
    for col in scores + deltas:
        info = model.column_info(col)
        figure = figures[info.metric] if info.kind == "score" else "-" + figures[info.metric]
        advance = metrics.horizontalAdvance(figure)
        assert advance <= view.columnWidth(col) <= advance + NUMBER_PADDING, (info, figure)
    # The header names a score by its metric, next to its system's output.
    titles = [proxy.headerData(c, Qt.Orientation.Horizontal) for c in range(first, first + 4)]
    assert titles == ["JDExploreAcademy", "BLEU", "R-L", "COMET-22"]
    assert proxy.headerData(model.delta_column(1, comet), Qt.Orientation.Horizontal) == (
        "ΔCOMET-22"
    )
    shot(window, tmp_path, "layout-1280x720-de-en-table")

    # The header's menu still chooses the scores shown; widths and hidden columns stay.
    header = view.horizontalHeader()
    ref2 = model.reference_column(1)
    view.setColumnHidden(ref2, True)
    header.resizeSection(first, 300)
    texts = {column_id(model.column_info(c)): view.columnWidth(c) for c in model.text_columns()}
    menu = window.column_menu()
    shown = {a.text(): a for a in menu.findChild(QMenu, "shown-scores").actions()}
    assert shown["COMET-22"].isChecked() and shown["BLEU"].isChecked()
    shown["COMET-22"].setChecked(False)
    menu.deleteLater()
    assert model.shown_scores == ("bleu", "rougeL_f")
    assert model.columnCount() == 1 + 1 + 2 + 5 + 5 * 2 + 4 * 2
    assert {column_id(model.column_info(c)): view.columnWidth(c) for c in model.text_columns()} == (
        texts
    )
    assert view.isColumnHidden(model.reference_column(1))
    assert sum(view.isColumnHidden(c) for c in range(model.columnCount())) == 1

    # A new baseline moves the differences into the old baseline's group; the sort, the
    # current row and the arrangement stay with their columns.
    view.sortByColumn(model.delta_column(2, "bleu"), Qt.SortOrder.DescendingOrder)
    window.baseline_combo.setCurrentIndex(1)  # Lan-Bridge
    assert model.baseline == 1
    assert model.delta_column(0, "bleu") == model.hypothesis_column(0) + 2
    with pytest.raises(KeyError):
        model.delta_column(1, "bleu")
    sorted_by = model.delta_column(2, "bleu")
    assert header.sortIndicatorSection() == sorted_by
    assert header.sortIndicatorOrder() == Qt.SortOrder.DescendingOrder
    shown_values = model.values(sorted_by)[[proxy.source_row(r) for r in range(proxy.rowCount())]]
    assert np.all(np.diff(shown_values[~np.isnan(shown_values)]) <= 0)  # against Lan-Bridge now
    assert window.current_segment() == 0
    assert view.isColumnHidden(model.reference_column(1))
    assert view.columnWidth(model.hypothesis_column(0)) == 300
    shot(window, tmp_path, "layout-1280x720-de-en-baseline")


# -- the docks -------------------------------------------------------------------------------


def test_the_corpus_summary_never_overlaps_its_parts_at_1280x720(qtbot, harness, tmp_path):
    """Five systems, their clusters, the reference-leak warning and the language note are taller
    than the dock at 1280x720: the summary scrolls instead of drawing one part over another."""
    window, _ = opened(qtbot, harness, de_en_specs(), comet=False)
    summary = window.summary
    qtbot.waitUntil(lambda: summary.language_text() != "", timeout=60_000)
    qtbot.wait(50)  # the layout settles on the next turn of the event loop
    layout = summary.layout()
    parts = [layout.itemAt(i).widget() for i in range(layout.count())]
    shown = [w for w in parts if w is not None and w.isVisible()]
    assert summary.view in shown and summary.language_label in shown
    for above, below in itertools.pairwise(shown):
        assert below.geometry().top() >= above.geometry().bottom(), (above, below)
        assert below.height() >= below.minimumSizeHint().height() or below is summary.plot
    shot(window, tmp_path, "layout-1280x720-de-en-summary")


@pytest.mark.parametrize("data", ["sample", "de-en"])
@pytest.mark.parametrize("theme", ["light", "dark"])
def test_the_compare_systems_histograms_are_readable_at_1280x720(
    qtbot, harness, tmp_path, data, theme
):
    specs = sample_specs() if data == "sample" else de_en_specs(tmp_path)
    window, _ = opened(qtbot, harness, specs, comet=data == "de-en", dark=theme == "dark")
    docks = window.comparison_docks
    docks.dock.raise_()
    panel = docks.panel.distributions
    qtbot.waitUntil(panel.isVisible)
    for _ in range(5):
        QApplication.processEvents()
    panel.refresh_now()
    for _ in range(5):
        QApplication.processEvents()
    assert window.size() == QSize(WIDTH, HEIGHT)
    # Each histogram's plot area is at least MIN_PLOT_HEIGHT tall; where the dock is shorter
    # than the two histograms, it scrolls.
    assert panel.score_box.height() >= MIN_PLOT_HEIGHT
    assert panel.delta_box.height() >= MIN_PLOT_HEIGHT
    first = window.model.hypothesis_column(0)
    view = window.table_view
    assert view.columnViewportPosition(first) < view.viewport().width()  # the output shows
    shot(window, tmp_path, f"layout-1280x720-{data}-compare-{theme}")
    # Both histograms, as far as the dock scrolls.
    assert panel.graphics.grab().save(str(SHOTS / f"layout-1280x720-{data}-histograms-{theme}.png"))
