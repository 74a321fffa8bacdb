"""The table and its filter bar follow each column's scale: an imported COMET-like column (0-1)
shows and filters at three decimals within 0-1; an MQM penalty (lower is better) colours its
differences green where a system has fewer points, filters "A beats B" as A − B ≤ −x, and sorts
worst (highest) first; the header's scale menu changes a column's direction and decimals
through the comparison. Screenshots of the table in light and dark themes."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest
from PySide6.QtCore import QPoint, QRect, Qt
from PySide6.QtGui import QColor, QFont, QImage, QPainter
from PySide6.QtWidgets import QMenu, QSplitter, QStyle, QStyleOptionViewItem

from matchlight.core.analysis.selection import DeltaFilter, ScoreRange, Selection
from matchlight.core.annotation.columns import MQM_COLUMN
from matchlight.core.io.scores import ScoreSpec, read_scores
from matchlight.core.session.imported import ScoreImport
from matchlight.core.style.palette import DARK, LIGHT
from matchlight.gui.charts.imports import imported_column
from matchlight.gui.highlight.detailcache import DetailCache
from matchlight.gui.table.delegate import HighlightDelegate
from matchlight.gui.table.filterbar import FilterBar
from matchlight.gui.table.filterwidgets import SpinScale
from matchlight.gui.table.model import BETTER_ROLE, SORT_ROLE, SegmentTableModel
from matchlight.gui.table.proxy import SegmentFilterProxy
from matchlight.gui.table.scalemenu import add_scale_menu
from matchlight.gui.table.tableview import SegmentTableView
from tests.gui.chartkit import dark_palette, de_en, session_of, settle
from tests.gui.conftest import SHOTS_DIR, grab_settled
from tests.scalekit import MQM_SYSTEMS, comet_like, mqm_ted, ted_scored, write_scores

DISPLAY = Qt.ItemDataRole.DisplayRole
TOOLTIP = Qt.ItemDataRole.ToolTipRole
FACEBOOK, ONLINE_W = MQM_SYSTEMS.index("Facebook-AI"), MQM_SYSTEMS.index("Online-W")


class Table:
    """The segment table as the app has it: model, proxy, view with the highlight delegate,
    and the filter bar, over one comparison session."""

    def __init__(self, qtbot, data, session, shown: list[str]) -> None:
        self.session = session
        self.core = session.session
        self.model = SegmentTableModel(session, shown=shown)
        self.proxy = SegmentFilterProxy()
        self.proxy.setSourceModel(self.model)
        self.view = SegmentTableView()
        self.cache = DetailCache(data.text, data.source, data.config)
        self.delegate = HighlightDelegate(self.cache, self.view)
        self.view.setItemDelegate(self.delegate)
        self.view.setModel(self.proxy)
        self.view.verticalHeader().hide()  # the "#" column numbers the segments
        self.bar = FilterBar()
        self.bar.set_proxy(
            self.proxy,
            text_columns=[],
            systems=data.text.system_names,
            metrics=self.core.table.columns,
        )
        self.widget = QSplitter(Qt.Orientation.Vertical)
        self.widget.addWidget(self.bar)
        self.widget.addWidget(self.view)
        qtbot.addWidget(self.widget)

    def close(self) -> None:
        self.cache.shutdown()

    def column(self, kind: str, system: int, key: str) -> int:
        if kind == "delta":
            return self.model.delta_column(system, key)
        return self.model.score_column(system, key)

    def show(self, qtbot, size=(1400, 640)) -> None:
        self.widget.resize(*size)
        self.widget.show()
        qtbot.waitExposed(self.widget)
        for col in range(self.model.columnCount()):
            kind = self.model.column_info(col).kind
            self.view.setColumnWidth(col, 250 if kind in ("reference", "hypothesis") else 150)
        self.view.setColumnWidth(0, 44)
        settle()


@pytest.fixture
def made(qtbot):
    tables: list[Table] = []

    def make(*args: Any, **kw: Any) -> Table:
        table = Table(qtbot, *args, **kw)
        tables.append(table)
        return table

    yield make
    for table in tables:
        table.close()


def comet_session(tmp_path: Path):
    """de-en with a COMET-like 0-1 column imported from score files, as the dock does it."""
    data = de_en()
    session = session_of(data, own_table=True)
    core = session.session
    table = core.table
    values = comet_like(table.scores[:, :, table.metric_index("chrf")])
    names = data.text.system_names
    paths = write_scores(tmp_path, names, values)
    imported = read_scores(
        [ScoreSpec(p, column="score") for p in paths],
        systems=names,
        n_segments=table.n_segments,
        name="COMET-22",
    )
    column = imported_column(imported, table.column_keys)
    core.add_imported(ScoreImport.from_imported(imported, column))
    return data, session, column.key, imported.aligned(names)


def mqm_session():
    data = ted_scored()
    session = session_of(data, own_table=True)
    session.session.set_column(MQM_COLUMN, mqm_ted().penalties)
    return data, session


# -- precision and range of an imported 0-1 column -------------------------------------------------


def test_an_imported_0_1_column_shows_at_its_precision(tmp_path, made) -> None:
    data, session, key, values = comet_session(tmp_path)
    t = made(data, session, [key])
    rows = range(0, data.table.n_segments, 97)
    for s in range(len(data.text.systems)):
        col = t.column("score", s, key)
        for row in rows:
            assert t.model.index(row, col).data(DISPLAY) == f"{values[s, row]:.3f}"
    col = t.column("delta", 1, key)
    for row in rows:
        shown = t.model.index(row, col).data(DISPLAY)
        difference = round(values[1, row] - values[0, row], 3)
        assert shown == ("0.000" if difference == 0 else f"{difference:+.3f}")
    tip = t.model.index(5, t.column("score", 0, key)).data(TOOLTIP)
    assert f"COMET-22 {values[0, 5]:.4f}" in tip


def test_the_score_filter_takes_the_columns_range_and_precision(tmp_path, made) -> None:
    data, session, key, values = comet_session(tmp_path)
    t = made(data, session, [key])
    bar = t.bar
    bar.range_check.setChecked(True)
    bar.range_metric_combo.setCurrentIndex(bar.range_metric_combo.findData(key))
    bar.range_system_combo.setCurrentIndex(bar.range_system_combo.findData(0))
    bar.range_min_spin.setValue(0.75)
    kept = np.flatnonzero(values[0] >= 0.75)
    assert t.proxy.rowCount() == len(kept) and 0 < len(kept) < data.table.n_segments
    assert t.core.selected_rows().tolist() == kept.tolist()
    assert (bar.range_min_spin.minimum(), bar.range_max_spin.maximum()) == (0.0, 1.0)
    assert bar.range_min_spin.decimals() == 3
    # Back on BLEU, the boxes are BLEU's again (0-100, one decimal), open at both ends.
    bar.range_metric_combo.setCurrentIndex(bar.range_metric_combo.findData("bleu"))
    assert (bar.range_min_spin.value(), bar.range_max_spin.value()) == (0.0, 100.0)
    assert bar.range_max_spin.decimals() == 1 and bar.range_max_spin.singleStep() == 1.0
    # A range set elsewhere at full precision (a reopened session) is shown, rounded, in
    # boxes fitted to its column, and left as it was.
    exact = ScoreRange(key, 0, low=float(np.median(values[0])))
    session.set_selection(Selection((exact,)))
    assert t.core.selection.filters == (exact,) and bar.chip_specs() == ()
    assert bar.range_metric_combo.currentData() == key
    assert bar.range_min_spin.value() == round(exact.low, 3)
    assert bar.range_max_spin.maximum() == 1.0
    # The difference box: ±1 with three decimals, a tenth of the range to start with.
    bar.delta_metric_combo.setCurrentIndex(bar.delta_metric_combo.findData(key))
    assert (bar.delta_spin.minimum(), bar.delta_spin.maximum()) == (-1.0, 1.0)
    assert bar.delta_spin.value() == 0.1 and bar.delta_spin.decimals() == 3


# -- a penalty: lower is better --------------------------------------------------------------------


def test_an_unbounded_penalty_gets_its_upper_bound_from_the_data(made) -> None:
    data, session = mqm_session()
    t = made(data, session, ["mqm"])
    bar = t.bar
    bar.range_check.setChecked(True)
    bar.range_metric_combo.setCurrentIndex(bar.range_metric_combo.findData("mqm"))
    penalties = mqm_ted().penalties
    top = float(np.nanmax(penalties))
    assert bar.range_min_spin.minimum() == 0.0
    assert bar.range_max_spin.maximum() == pytest.approx(np.ceil(top * 100) / 100)
    assert bar.range_max_spin.decimals() == 2
    bar.range_max_spin.setValue(1.0)  # at most one minor error
    assert t.core.selected_rows().tolist() == np.flatnonzero(penalties[0] <= 1.0).tolist()


def test_a_columns_box_scale_is_taken_once_and_again_for_new_values(made, monkeypatch) -> None:
    """A box's scale scans every value of its column (a million rows × systems): filtering
    again takes it from memory, new values in the column take it again."""
    data, session = mqm_session()
    t = made(data, session, ["mqm"])
    bar = t.bar
    scans: list[str] = []
    of = SpinScale.of

    def counted(column, values=()):
        scans.append(column.key)
        return of(column, values)

    monkeypatch.setattr(SpinScale, "of", staticmethod(counted))
    bar.range_check.setChecked(True)
    bar.range_metric_combo.setCurrentIndex(bar.range_metric_combo.findData("mqm"))
    penalties = mqm_ted().penalties
    for value in (5.0, 2.0, 1.0, 3.0):
        bar.range_max_spin.setValue(value)
        assert t.core.selected_rows().tolist() == np.flatnonzero(penalties[0] <= value).tolist()
    assert scans.count("mqm") == 1
    # Twice the penalties: the box reaches twice as far.
    session.session.set_column(MQM_COLUMN, penalties * 2)
    bar.range_max_spin.setValue(4.0)
    assert scans.count("mqm") == 2
    top = float(np.nanmax(penalties * 2))
    assert bar.range_max_spin.maximum() == pytest.approx(np.ceil(top * 100) / 100)


def test_a_difference_filter_on_a_penalty_keeps_the_rows_where_a_has_fewer_points(made) -> None:
    data, session = mqm_session()
    t = made(data, session, ["mqm"])
    bar = t.bar
    bar.delta_check.setChecked(True)
    bar.delta_metric_combo.setCurrentIndex(bar.delta_metric_combo.findData("mqm"))
    bar.delta_a_combo.setCurrentIndex(bar.delta_a_combo.findData(FACEBOOK))
    bar.delta_b_combo.setCurrentIndex(bar.delta_b_combo.findData(ONLINE_W))
    bar.delta_spin.setValue(1.0)  # Facebook-AI beats Online-W by at least one point
    penalties = mqm_ted().penalties
    deltas = penalties[FACEBOOK] - penalties[ONLINE_W]
    assert t.core.selected_rows().tolist() == np.flatnonzero(deltas <= -1.0).tolist()
    (spec,) = t.core.selection.filters
    assert spec == DeltaFilter("mqm", FACEBOOK, ONLINE_W, -1.0, below=True)
    # A selection set elsewhere fills the widgets back (a reopened session).
    bar.clear()
    session.set_selection(Selection((DeltaFilter("mqm", ONLINE_W, FACEBOOK, -5.0, below=True),)))
    assert bar.delta_check.isChecked() and bar.delta_spin.value() == 5.0
    assert bar.chip_specs() == ()


def test_difference_cells_say_better_or_worse_by_direction(qtbot, made) -> None:
    data, session = mqm_session()
    session.session.set_baseline(ONLINE_W)
    t = made(data, session, ["bleu", "mqm"])
    penalties = mqm_ted().penalties
    col = t.column("delta", FACEBOOK, "mqm")
    deltas = penalties[FACEBOOK] - penalties[ONLINE_W]
    verdicts = [t.model.index(r, col).data(BETTER_ROLE) for r in range(len(deltas))]
    expected = np.where(np.round(deltas, 2) < 0, 1, np.where(np.round(deltas, 2) > 0, -1, 0))
    assert verdicts == expected.tolist()
    better_row = int(np.flatnonzero(deltas < 0)[0])
    worse_row = int(np.flatnonzero(deltas > 0)[0])
    tip = t.model.index(better_row, col).data(TOOLTIP)
    assert "(better; lower is better)" in tip
    assert "(worse; lower is better)" in t.model.index(worse_row, col).data(TOOLTIP)
    # BLEU the usual way round: a higher BLEU than the baseline is better.
    bleu = t.column("delta", FACEBOOK, "bleu")
    table = data.table
    bleu_deltas = np.round(table.column("bleu", FACEBOOK) - table.column("bleu", ONLINE_W), 1)
    up = int(np.flatnonzero(bleu_deltas > 0)[0])
    assert t.model.index(up, bleu).data(BETTER_ROLE) == 1
    # The delegate paints them in the theme's colours, light and dark.
    index = t.proxy.mapFromSource(t.model.index(better_row, col))
    light, dark = t.view.palette(), dark_palette()
    assert t.delegate.difference_colour(index, light) == QColor(LIGHT.better_text)
    assert t.delegate.difference_colour(index, dark) == QColor(DARK.better_text)
    worse = t.proxy.mapFromSource(t.model.index(worse_row, col))
    assert t.delegate.difference_colour(worse, light) == QColor(LIGHT.worse_text)
    equal_row = int(np.flatnonzero(deltas == 0)[0])
    equal = t.proxy.mapFromSource(t.model.index(equal_row, col))
    assert t.delegate.difference_colour(equal, light) is None
    # And a painted cell has text in that colour (a large bold font: whole pixels of ink).
    image = QImage(220, 80, QImage.Format.Format_RGB32)
    image.fill(QColor("#ffffff"))
    option = QStyleOptionViewItem()
    option.rect = QRect(0, 0, 220, 80)
    option.state = QStyle.StateFlag.State_Enabled | QStyle.StateFlag.State_Active
    option.palette = light
    font = QFont()
    font.setPixelSize(48)
    font.setBold(True)
    option.font = font
    painter = QPainter(image)
    t.delegate.paint(painter, option, index)
    painter.end()
    ink = QColor(LIGHT.better_text).rgb()
    assert any(
        image.pixel(x, y) == ink for y in range(image.height()) for x in range(image.width())
    )


def test_a_first_click_on_a_header_sorts_worst_first(qtbot, made) -> None:
    data, session = mqm_session()
    t = made(data, session, ["bleu", "mqm"])
    t.view.setSortingEnabled(True)
    t.view.horizontalHeader().setSortIndicatorShown(True)
    t.view.sortByColumn(-1, Qt.SortOrder.AscendingOrder)  # as the app starts: file order
    t.show(qtbot)
    order = Qt.ItemDataRole.InitialSortOrderRole
    horizontal = Qt.Orientation.Horizontal
    bleu, mqm = t.column("score", 0, "bleu"), t.column("score", 0, "mqm")
    assert t.model.headerData(bleu, horizontal, order) == Qt.SortOrder.AscendingOrder
    assert t.model.headerData(mqm, horizontal, order) == Qt.SortOrder.DescendingOrder
    assert t.model.headerData(t.column("delta", 1, "mqm"), horizontal, order) == (
        Qt.SortOrder.DescendingOrder
    )
    header = t.view.horizontalHeader()
    for col, worst in ((mqm, np.nanmax), (bleu, np.nanmin)):
        x = header.sectionViewportPosition(col) + header.sectionSize(col) // 2
        qtbot.mouseClick(header.viewport(), Qt.MouseButton.LeftButton, pos=QPoint(x, 5))
        settle()
        first = t.proxy.index(0, col).data(SORT_ROLE)
        assert first == worst(t.model.values(col))


# -- changing a column's scale ---------------------------------------------------------------------


def test_the_header_menu_changes_an_imported_columns_scale(tmp_path, made) -> None:
    data, session, key, values = comet_session(tmp_path)
    t = made(data, session, [key])
    changed: list[str] = []
    session.columns_changed.connect(changed.append)
    menu = QMenu()
    sub = add_scale_menu(menu, t.core, key)
    assert sub is not None and sub.title() == "COMET-22: scale"
    higher, lower = sub.actions()[:2]
    assert higher.isChecked() and not lower.isChecked()
    decimals = sub.actions()[2].menu()
    two = next(a for a in decimals.actions() if a.text() == "2")
    two.trigger()
    assert changed == [key]
    column = t.core.table.column_info(key)
    assert column.decimals == 2 and (column.low, column.high) == (0.0, 1.0)
    assert t.model.index(3, t.column("score", 0, key)).data(DISPLAY) == f"{values[0, 3]:.2f}"
    assert t.bar.range_min_spin.decimals() == 2 or t.bar.range_metric_combo.currentData() != key
    lower.trigger()
    column = t.core.table.column_info(key)
    assert column.better == "lower" and column.decimals == 2
    (record,) = t.core.imported_scores()
    assert record.column == column  # the session file keeps it
    assert t.model.headerData(
        t.column("score", 0, key), Qt.Orientation.Horizontal, Qt.ItemDataRole.InitialSortOrderRole
    ) == (Qt.SortOrder.DescendingOrder)
    # A metric's own column shows its scale, but does not change it.
    own = add_scale_menu(menu, t.core, "bleu")
    assert own is not None and not any(a.isEnabled() for a in own.actions()[:2])
    assert add_scale_menu(menu, t.core, "hyp_len") is None


# -- screenshots -----------------------------------------------------------------------------------


@pytest.mark.parametrize("dark", [False, True], ids=["light", "dark"])
@pytest.mark.parametrize("which", ["mqm", "comet"])
def test_table_screenshots(qtbot, tmp_path, made, which: str, dark: bool) -> None:
    if which == "mqm":
        data, session = mqm_session()
        session.session.set_baseline(ONLINE_W)
        key = "mqm"
    else:
        data, session, key, _ = comet_session(tmp_path)
    t = made(data, session, [key])
    if dark:
        t.widget.setPalette(dark_palette())
        t.delegate.set_dark(True)
    bar = t.bar
    bar.range_check.setChecked(True)
    bar.range_metric_combo.setCurrentIndex(bar.range_metric_combo.findData(key))
    t.show(qtbot)
    SHOTS = SHOTS_DIR / "direction"
    SHOTS.mkdir(parents=True, exist_ok=True)
    path = SHOTS / f"table-{which}-{'dark' if dark else 'light'}.png"
    assert grab_settled(t.widget).save(str(path))
