"""Score distributions: a histogram of any score column per system, and the histogram of the
per-segment difference between two systems, each linked to the table.

Dragging across either histogram selects the rows whose value lies in the dragged range (the
range stays and can be moved or resized); clicking a bar selects the rows of that bin. The
score histogram brushes one system's values (the "Select by" system, drawn filled). The
difference histogram has zero as a bin edge and the exact ties in a bar of their own; its bars
take the colour of the system their differences favour (on a penalty such as MQM, a negative
difference favours A), and it says on how many rows each system is better. Both show the rows
of the current selection (without their own brush).

Bins and ranges follow the column's scale (:mod:`core.analysis.scales`): a column with a natural
range is binned over it (0-100 by 5 points, 0-1 by 0.05), values a hair past a bound counted on
it (sentence BLEU can come out as 100.00000000000004); an unbounded side takes the data's.
Bins follow :func:`numpy.histogram`: half-open ``[e_i, e_i+1)``, the last one closed.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt
import pyqtgraph as pg
import shiboken6
from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication, QPointF, QRectF, Qt, Slot
from PySide6.QtGui import QFontMetrics, QResizeEvent
from PySide6.QtWidgets import QComboBox, QLabel, QWidget

from matchlight.core.analysis.histograms import (
    DifferenceHistogram,
    ScoreHistograms,
    column_bounds,
    difference_histogram,
    score_histograms,
)
from matchlight.core.analysis.scales import DifferenceBins, bin_index, clip_to_bounds, nice_step
from matchlight.core.metrics.base import ScoreColumn
from matchlight.core.scoring.results import ScoreTable
from matchlight.gui.charts.base import (
    ChartPanel,
    better_note,
    compact,
    fill_combo,
    legend_html,
    make_plot,
)
from matchlight.gui.charts.brush import BrushViewBox
from matchlight.gui.charts.link import ChartLink

__all__ = [
    "MIN_PLOT_HEIGHT",
    "TIE_WIDTH",
    "DistributionsPanel",
    "axis_ticks",
    "bin_index",
    "nice_step",
]

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]
BoolArray = npt.NDArray[np.bool_]

# Width of the bar of exact ties, as a share of a bin (it stands on zero, over its neighbours).
TIE_WIDTH = 0.4
# The height each histogram's plot area keeps at least, in pixels (a short panel scrolls).
MIN_PLOT_HEIGHT = 160
# Lines of text around a plot not laid out yet: a title of up to two lines, the tick labels,
# the axis label, and their margins.
_PLOT_TEXT_LINES = 6

Ticks = list[list[tuple[float, str]]]
# What a refresh computed its figures for: the table, its rows scored, the column.
Scope = tuple[ScoreTable, int, str]


def _same_scope(a: Scope, b: Scope) -> bool:
    return a[0] is b[0] and a[1:] == b[1:]


@dataclass(frozen=True, slots=True, eq=False)
class _Figures:
    """What a refresh computes (in a worker on a big table) and the GUI thread draws."""

    scope: Scope
    scores: ScoreHistograms
    difference: DifferenceHistogram


def axis_ticks(low: float, high: float, *, signed: bool = False) -> Ticks:
    """Major ticks at about five, minor at about ten nice steps over ``[low, high]`` (0-100:
    every 20 and 10; ±100: every 50 and 10), labelled ``+50`` when ``signed``."""
    span = high - low
    major, minor = nice_step(span, 4 if signed else 5), nice_step(span, 20 if signed else 10)

    def at(step: float) -> list[float]:
        first = np.ceil(low / step - 1e-9)
        last = np.floor(high / step + 1e-9)
        return [float(k * step) + 0.0 for k in np.arange(first, last + 1)]

    def label(v: float) -> str:
        if signed and v:
            return f"{v:+.10g}"
        return f"{v:.10g}"

    return [[(v, label(v)) for v in at(major)], [(v, "") for v in at(minor)]]


class DistributionsPanel(ChartPanel):
    """The score histogram and the difference histogram, side by side."""

    DRAWS_CHOSEN_COLUMNS = True

    title = QT_TRANSLATE_NOOP("ChartPanel", "Distributions")

    def __init__(self, link: ChartLink, parent: QWidget | None = None) -> None:
        super().__init__(link, parent)
        self.metric_combo = QComboBox()
        self.metric_combo.setToolTip(
            QCoreApplication.translate(
                "DistributionsPanel", "The score column both histograms show"
            )
        )
        self.brush_combo = QComboBox()
        self.brush_combo.setToolTip(
            QCoreApplication.translate(
                "DistributionsPanel",
                "Whose scores a dragged range or a clicked bar of the left histogram selects",
            )
        )
        self.a_combo = QComboBox()
        self.b_combo = QComboBox()
        self.a_combo.setToolTip(
            QCoreApplication.translate("DistributionsPanel", "System A of the difference A − B")
        )
        self.b_combo.setToolTip(
            QCoreApplication.translate("DistributionsPanel", "System B of the difference A − B")
        )
        for label, widget in (
            (QCoreApplication.translate("DistributionsPanel", "Score:"), self.metric_combo),
            (QCoreApplication.translate("DistributionsPanel", "Select by:"), self.brush_combo),
            (QCoreApplication.translate("DistributionsPanel", "Difference:"), self.a_combo),
            ("−", self.b_combo),
        ):
            self.controls.addWidget(QLabel(label))
            self.controls.addWidget(widget)
        self.controls.addStretch(1)
        for combo in (self.metric_combo, self.brush_combo, self.a_combo, self.b_combo):
            compact(combo)
            combo.currentIndexChanged.connect(self._on_choice_changed)

        self.add_graphics()
        self.score_box = BrushViewBox("x")
        self.score_box.setMouseEnabled(x=False, y=False)
        self.score_plot = make_plot(view_box=self.score_box)
        self.delta_box = BrushViewBox("x")
        self.delta_box.setMouseEnabled(x=False, y=False)
        self.delta_plot = make_plot(view_box=self.delta_box)
        self.score_legend = pg.LabelItem(justify="center")
        self.delta_legend = pg.LabelItem(justify="center")
        self._vertical: bool | None = None
        self._arrange(vertical=False)
        for plot in (self.score_plot, self.delta_plot):
            plot.setLabel("left", QCoreApplication.translate("DistributionsPanel", "segments"))
        self.score_region = pg.LinearRegionItem(movable=True)
        self.delta_region = pg.LinearRegionItem(movable=True)
        for plot, region in (
            (self.score_plot, self.score_region),
            (self.delta_plot, self.delta_region),
        ):
            region.setZValue(-5)
            region.hide()
            plot.addItem(region, ignoreBounds=True)
        self.zero_line = pg.InfiniteLine(0.0, angle=90, movable=False)
        self.delta_plot.addItem(self.zero_line, ignoreBounds=True)
        self.delta_bars = {
            side: pg.BarGraphItem(x0=[], x1=[], height=[]) for side in ("b", "a", "tie")
        }
        for bars in self.delta_bars.values():
            self.delta_plot.addItem(bars)
        self.delta_bars["tie"].setZValue(2)  # stands on zero, over its neighbours
        self._curves: list[pg.PlotDataItem] = []

        # What is drawn, for clicks and tests.
        self.score_edges: FloatArray = np.zeros(0)
        self.score_counts: dict[int, IntArray] = {}
        self.delta_bins: DifferenceBins | None = None
        self.delta_edges: FloatArray = np.zeros(0)
        self.delta_counts: IntArray = np.zeros(0, np.int64)
        self.delta_ties = 0
        # (A better, equal, B better) among the rows drawn.
        self.ahead: tuple[int, int, int] = (0, 0, 0)
        self.score_rows: IntArray = np.zeros(0, np.int64)
        self.delta_rows: IntArray = np.zeros(0, np.int64)
        self._bounds: tuple[float, float] = (0.0, 100.0)
        # The display bounds last computed, for the scope they were computed for (a filter
        # keeps them: they span every scored row).
        self._bounds_of: tuple[Scope, tuple[float, float]] | None = None

        self.score_box.brushed.connect(self._on_score_brushed)
        self.score_box.clicked_at.connect(self._on_score_clicked)
        self.delta_box.brushed.connect(self._on_delta_brushed)
        self.delta_box.clicked_at.connect(self._on_delta_clicked)
        self.score_region.sigRegionChangeFinished.connect(self._on_score_region_moved)
        self.delta_region.sigRegionChangeFinished.connect(self._on_delta_region_moved)
        self.listen(link.baseline_changed, self._on_baseline_changed)
        self.listen(link.session_changed, self._on_session_changed)
        self.listen(link.data_changed, self._on_data_changed)
        self.apply_theme()

    def _arrange(self, *, vertical: bool) -> None:
        """Side by side in a wide panel, one above the other in a tall one (a side dock)."""
        if vertical == self._vertical or self.graphics is None:
            return
        layout = self.graphics.ci
        items = (self.score_plot, self.score_legend, self.delta_plot, self.delta_legend)
        rearranged = self._vertical is not None
        if rearranged:
            for item in items:
                layout.removeItem(item)
        self._vertical = vertical
        if vertical:
            for row, item in enumerate(items):
                layout.addItem(item, row=row, col=0)
        else:
            layout.addItem(self.score_plot, row=0, col=0)
            layout.addItem(self.delta_plot, row=0, col=1)
            layout.addItem(self.score_legend, row=1, col=0)
            layout.addItem(self.delta_legend, row=1, col=1)
        self._fit_height()
        if rearranged:
            self.schedule()  # titles and legends are laid out for the arrangement

    def _fit_height(self) -> None:
        """The least height of the plots: each histogram's plot area :data:`MIN_PLOT_HEIGHT`
        over its title and axis (as laid out last, else estimated) and its legend; a panel
        shorter than that scrolls."""
        if self.graphics is None:
            return
        line = QFontMetrics(self.font()).lineSpacing()
        around = [
            plot.height() - box.height() if box.height() > 0 else _PLOT_TEXT_LINES * line
            for plot, box in ((self.score_plot, self.score_box), (self.delta_plot, self.delta_box))
        ]
        legends = [item.minimumHeight() for item in (self.score_legend, self.delta_legend)]
        grid = self.graphics.ci.layout
        if self._vertical:
            need = sum(around) + sum(legends) + 2 * MIN_PLOT_HEIGHT + 3 * grid.verticalSpacing()
        else:
            need = max(around) + max(legends) + MIN_PLOT_HEIGHT + grid.verticalSpacing()
        margins = self.graphics.ci.layout.getContentsMargins()
        least = int(need + margins[1] + margins[3]) + 1
        if self.graphics.minimumHeight() != least:
            self.graphics.setMinimumHeight(least)

    def resizeEvent(self, event: QResizeEvent) -> None:
        size = event.size()
        self._arrange(vertical=size.width() < 1.2 * size.height())
        super().resizeEvent(event)

    def plot_columns(self) -> int:
        return 1 if self._vertical else 2

    # -- choices --------------------------------------------------------------------------------

    @property
    def score_key(self) -> str | None:
        data = self.metric_combo.currentData()
        return data if isinstance(data, str) else None

    @property
    def brush_system(self) -> int:
        data = self.brush_combo.currentData()
        return data if isinstance(data, int) else 0

    @property
    def pair(self) -> tuple[int, int]:
        a, b = self.a_combo.currentData(), self.b_combo.currentData()
        return (a if isinstance(a, int) else 0, b if isinstance(b, int) else 0)

    def set_choices(
        self,
        *,
        metric: str | None = None,
        brush: int | None = None,
        a: int | None = None,
        b: int | None = None,
    ) -> None:
        """Pick the column, the brushed system and the pair (what the combos offer)."""
        self._update_choices()
        for combo, value in (
            (self.metric_combo, metric),
            (self.brush_combo, brush),
            (self.a_combo, a),
            (self.b_combo, b),
        ):
            if value is not None:
                index = combo.findData(value)
                if index < 0:
                    raise ValueError(f"{value!r} is not offered")
                combo.setCurrentIndex(index)
        self.schedule()

    def _update_choices(self) -> None:
        table = self.link.table
        if table is None:
            for combo in (self.metric_combo, self.brush_combo, self.a_combo, self.b_combo):
                fill_combo(combo, [])
            return
        fill_combo(self.metric_combo, self.column_items())
        systems: list[tuple[str, object]] = [(n, i) for i, n in enumerate(table.systems)]
        fill_combo(self.brush_combo, systems)
        core = self.link.core
        baseline = 0 if core is None else core.baseline
        other = next((i for i in range(len(table.systems)) if i != baseline), baseline)
        keep_a = self.a_combo.currentData() if self.a_combo.count() else other
        keep_b = self.b_combo.currentData() if self.b_combo.count() else baseline
        fill_combo(self.a_combo, systems, keep_a)
        fill_combo(self.b_combo, systems, keep_b)

    @Slot()
    def _on_session_changed(self) -> None:
        if not shiboken6.isValid(self.score_region):
            return  # the window is going: its plots went first
        for combo in (self.a_combo, self.b_combo):
            fill_combo(combo, [])
        self.score_region.hide()
        self.delta_region.hide()
        self._bounds_of = None

    @Slot()
    def _on_data_changed(self) -> None:
        self._bounds_of = None  # new values (an edit, an import): their bounds again

    @Slot(int)
    def _on_baseline_changed(self, system: int) -> None:
        """B follows the baseline (A stays unless it is the new baseline)."""
        if self.a_combo.currentData() == system:
            self.a_combo.setCurrentIndex(self.b_combo.currentIndex())
        self.b_combo.setCurrentIndex(self.b_combo.findData(system))

    @Slot(int)
    def _on_choice_changed(self, _index: int) -> None:
        self.score_region.hide()
        self.delta_region.hide()
        self.schedule()

    # -- drawing --------------------------------------------------------------------------------

    def apply_theme(self) -> None:
        theme = self.theme
        for box in (self.score_box, self.delta_box):
            box.set_band_colour(theme.highlight)
        for region in (self.score_region, self.delta_region):
            region.setBrush(pg.mkBrush(theme.with_alpha(theme.highlight, 45)))
            region.setHoverBrush(pg.mkBrush(theme.with_alpha(theme.highlight, 70)))
            for line in region.lines:
                line.setPen(pg.mkPen(theme.highlight, width=2))
        self.zero_line.setPen(pg.mkPen(theme.muted, width=1, style=Qt.PenStyle.DashLine))
        self.style_plot(self.score_plot)
        self.style_plot(self.delta_plot)

    def refresh(self) -> None:
        self._update_choices()
        table = self.link.table
        key = self.score_key
        if table is None:
            self.show_placeholder(
                QCoreApplication.translate(
                    "DistributionsPanel", "Open a comparison to see its score distributions."
                )
            )
            return
        if key is None or not table.has(key) or not table.done.any():
            self.show_placeholder(
                QCoreApplication.translate(
                    "DistributionsPanel",
                    "Scoring… the distributions appear with the first scores.",
                )
            )
            return
        column = table.column_info(key)
        done = table.done.copy()
        n_done = int(done.sum())
        values = table.scores[:, :, table.metric_index(key)]
        score_keep = self.link.population(self.score_plot) & done
        delta_keep = self.link.population(self.delta_plot) & done
        a, b = self.pair
        scope = (table, n_done, key)
        kept = self._bounds_of
        bounds = kept[1] if kept is not None and _same_scope(kept[0], scope) else None

        def work() -> _Figures:
            nonlocal bounds
            if bounds is None:
                bounds = column_bounds(column, values, done)
            return _Figures(
                scope,
                score_histograms(column, values, np.flatnonzero(score_keep), bounds),
                difference_histogram(
                    column, values[a], values[b], np.flatnonzero(delta_keep), bounds
                ),
            )

        # The work passes over every row (the scored ones picked from all): a big table's goes
        # to a worker however few rows are scored yet.
        self.compute(work, self._draw, rows=table.n_segments)

    def _draw(self, figures: _Figures) -> None:
        """Draw what :meth:`refresh` computed (in the GUI thread)."""
        table, _n_done, key = figures.scope
        if table is not self.link.table or key != self.score_key:
            return  # another comparison or column since: its own refresh follows
        self._bounds_of = (figures.scope, figures.scores.bounds)
        self._bounds = figures.scores.bounds
        column = table.column_info(key)
        self.score_rows = figures.scores.rows
        self.delta_rows = figures.difference.rows
        self.show_body()
        self._draw_scores(column, figures.scores)
        self._draw_difference(column, figures.difference)
        self._fit_height()
        n_total = table.n_segments
        shown = len(self.score_rows)
        scope = (
            QCoreApplication.translate("DistributionsPanel", "all {0:,} segments").format(n_total)
            if shown == n_total
            else QCoreApplication.translate(
                "DistributionsPanel", "{shown:,} of {n_total:,} segments (the current selection)"
            ).format(shown=shown, n_total=n_total)
        )
        scoring = (
            ""
            if table.complete
            else QCoreApplication.translate(
                "DistributionsPanel", " Scoring: {0:,} scored so far."
            ).format(table.n_done)
        )
        self.caption.setText(
            QCoreApplication.translate(
                "DistributionsPanel",
                "Sentence {0}{1} over {scope}.{scoring} Drag across a histogram to select "
                "the segments in that range; click a bar to select its segments.",
            ).format(column.label, better_note(column), scope=scope, scoring=scoring)
        )

    def _values(self, key: str, system: int) -> FloatArray:
        table = self.link.table
        assert table is not None
        return clip_to_bounds(table.column(key, system), self._bounds)

    def _draw_scores(self, column: ScoreColumn, figures: ScoreHistograms) -> None:
        table = self.link.table
        assert table is not None
        n_sys = len(table.systems)
        edges = figures.edges
        self.score_edges = edges
        while len(self._curves) < n_sys:
            curve = pg.PlotDataItem(stepMode="center", antialias=False)
            self.score_plot.addItem(curve)
            self._curves.append(curve)
        while len(self._curves) > n_sys:
            self.score_plot.removeItem(self._curves.pop())
        theme = self.theme
        brush = self.brush_system
        self.score_counts = {}
        for s, curve in enumerate(self._curves):
            counts = figures.counts[s]
            self.score_counts[s] = counts
            filled = s == brush
            curve.setData(
                edges,
                counts,
                pen=pg.mkPen(theme.system(s), width=2.5 if filled else 1.6),
                fillLevel=0 if filled else None,
                brush=pg.mkBrush(theme.system(s, 55)) if filled else None,
            )
            curve.setZValue(2 if filled else 1)
        self.score_plot.setXRange(float(edges[0]), float(edges[-1]), padding=0.01)
        top = max([int(c.max()) for c in self.score_counts.values() if c.size] + [1])
        self.score_plot.setYRange(0, top * 1.05, padding=0)
        self.score_plot.getAxis("bottom").setTicks(axis_ticks(float(edges[0]), float(edges[-1])))
        self.score_plot.setLabel(
            "bottom",
            QCoreApplication.translate("DistributionsPanel", "sentence {0}").format(column.label)
            + better_note(column),
        )
        self.style_plot(
            self.score_plot,
            QCoreApplication.translate("DistributionsPanel", "Sentence {0} per system").format(
                column.label
            ),
        )
        per_line = self.legend_columns() // (1 if self._vertical else 2)
        self.score_legend.setText(
            legend_html(
                [(theme.system(s).name(), name) for s, name in enumerate(table.systems)],
                per_line=max(1, per_line),
            ),
            color=theme.foreground.name(),
            size="9pt",
        )

    def _deltas(self, key: str) -> FloatArray:
        a, b = self.pair
        return self._values(key, a) - self._values(key, b)

    def _draw_difference(self, column: ScoreColumn, figures: DifferenceHistogram) -> None:
        table = self.link.table
        assert table is not None
        a, b = self.pair
        theme = self.theme
        names = table.systems
        bins = figures.bins
        self.delta_bins = bins
        self.delta_edges = bins.edges
        self.delta_counts = bins.counts
        self.delta_ties = bins.ties
        edges, counts = bins.edges, bins.counts
        colours = {"a": theme.system(a, 200), "b": theme.system(b, 200)}
        for side, favour in (("a", 1), ("b", -1)):
            index = np.flatnonzero(bins.favours == favour)
            self.delta_bars[side].setOpts(
                x0=edges[index],
                x1=edges[index + 1],
                height=counts[index],
                brush=pg.mkBrush(colours[side]),
                pen=pg.mkPen(theme.background, width=0.5),
            )
        half = TIE_WIDTH * bins.width / 2
        self.delta_bars["tie"].setOpts(
            x0=[-half],
            x1=[half],
            height=[bins.ties],
            brush=pg.mkBrush(theme.with_alpha(theme.muted, 230)),
            pen=pg.mkPen(theme.background, width=1.5),
        )
        reach = bins.reach
        self.delta_plot.setXRange(-reach, reach, padding=0.01)
        top = max([1, bins.ties, *(int(c) for c in counts)])
        self.delta_plot.setYRange(0, top * 1.05)
        self.delta_plot.getAxis("bottom").setTicks(axis_ticks(-reach, reach, signed=True))
        a_name, b_name = names[a], names[b]
        self.delta_plot.setLabel(
            "bottom",
            QCoreApplication.translate("DistributionsPanel", "{a} − {b} (sentence {0})").format(
                column.label, a=a_name, b=b_name
            )
            + better_note(column),
        )
        self.ahead = figures.ahead
        ahead_a, ties, ahead_b = self.ahead
        title = (
            QCoreApplication.translate(
                "DistributionsPanel", "{a_name} − {b_name} per segment"
            ).format(a_name=a_name, b_name=b_name)
            if a != b
            else QCoreApplication.translate("DistributionsPanel", "Pick two different systems")
        )
        self.style_plot(self.delta_plot, title)
        per_line = self.legend_columns() // (1 if self._vertical else 2)
        entries = [
            (theme.system(b).name(), f"{b_name} ahead: {ahead_b:,}"),
            (theme.muted.name(), f"equal: {ties:,}"),
            (theme.system(a).name(), f"{a_name} ahead: {ahead_a:,}"),
        ]
        if column.sign < 0:  # the left of the axis favours A
            entries.reverse()
        self.delta_legend.setText(
            legend_html(entries, per_line=max(1, min(3, per_line))),
            color=theme.foreground.name(),
            size="9pt",
        )

    # -- brushing -------------------------------------------------------------------------------

    def select_score_range(self, low: float, high: float) -> bool:
        """Select the segments whose score of the "Select by" system lies in ``[low, high]``."""
        table = self.link.table
        key = self.score_key
        if table is None or key is None:
            return False
        low, high = sorted((low, high))
        values = self._values(key, self.brush_system)
        keep = table.done & (values >= low) & (values <= high)
        column = table.column_info(key)
        name = table.systems[self.brush_system]
        self.score_region.setRegion((low, high))
        self.score_region.show()
        return self.link.select_rows(
            np.flatnonzero(keep),
            f"{column.label} of {name} in [{column.format(low)}, {column.format(high)}]",
            owner=self.score_plot,
        )

    def select_score_bin(self, index: int) -> bool:
        """Select the segments in bin ``index`` of the "Select by" system's histogram."""
        table = self.link.table
        key = self.score_key
        edges = self.score_edges
        if table is None or key is None or not 0 <= index < len(edges) - 1:
            return False
        values = self._values(key, self.brush_system)
        keep = table.done & (bin_index(values, edges) == index)
        low, high = float(edges[index]), float(edges[index + 1])
        closing = "]" if index == len(edges) - 2 else ")"
        label = table.column_info(key).label
        name = table.systems[self.brush_system]
        self.score_region.setRegion((low, high))
        self.score_region.show()
        return self.link.select_rows(
            np.flatnonzero(keep),
            f"{label} of {name} in [{low:.10g}, {high:.10g}{closing}",
            owner=self.score_plot,
        )

    def select_difference_range(self, low: float, high: float) -> bool:
        """Select the segments whose difference A − B lies in ``[low, high]``."""
        table = self.link.table
        key = self.score_key
        if table is None or key is None:
            return False
        low, high = sorted((low, high))
        deltas = self._deltas(key)
        keep = table.done & (deltas >= low) & (deltas <= high)
        column = table.column_info(key)
        self.delta_region.setRegion((low, high))
        self.delta_region.show()
        shown = f"[{column.format(low, signed=True)}, {column.format(high, signed=True)}]"
        return self.link.select_rows(
            np.flatnonzero(keep), f"{self._pair_label()} in {shown}", owner=self.delta_plot
        )

    def select_difference_bin(self, index: int) -> bool:
        """Select the segments whose non-zero difference lies in bin ``index`` (the ties have
        a bar of their own: :meth:`select_ties`)."""
        table = self.link.table
        key = self.score_key
        bins = self.delta_bins
        if table is None or key is None or bins is None or not 0 <= index < len(bins.counts):
            return False
        keep = table.done & (bins.bin_of(self._deltas(key)) == index)
        low, high = float(bins.edges[index]), float(bins.edges[index + 1])
        opening = "(" if low == 0 else "["
        closing = "]" if index == len(bins.counts) - 1 else ")"
        self.delta_region.setRegion((low, high))
        self.delta_region.show()
        return self.link.select_rows(
            np.flatnonzero(keep),
            f"{self._pair_label()} in {opening}{low:+.10g}, {high:+.10g}{closing}",
            owner=self.delta_plot,
        )

    def select_ties(self) -> bool:
        """Select the segments where A and B score exactly the same (the "equal" bar)."""
        table = self.link.table
        key = self.score_key
        bins = self.delta_bins
        if table is None or key is None or bins is None:
            return False
        keep = table.done & (self._deltas(key) == 0)
        half = TIE_WIDTH * bins.width / 2
        self.delta_region.setRegion((-half, half))
        self.delta_region.show()
        return self.link.select_rows(
            np.flatnonzero(keep), f"{self._pair_label()} = 0 (equal)", owner=self.delta_plot
        )

    def _pair_label(self) -> str:
        table = self.link.table
        key = self.score_key
        assert table is not None and key is not None
        a, b = self.pair
        label = table.column_info(key).label
        return f"{label} {table.systems[a]} − {table.systems[b]}"

    @Slot(QRectF)
    def _on_score_brushed(self, rect: QRectF) -> None:
        self.select_score_range(rect.left(), rect.right())

    @Slot(QPointF)
    def _on_score_clicked(self, point: QPointF) -> None:
        index = int(bin_index(np.array([point.x()]), self.score_edges)[0])
        if index >= 0:
            self.select_score_bin(index)

    @Slot(QRectF)
    def _on_delta_brushed(self, rect: QRectF) -> None:
        self.select_difference_range(rect.left(), rect.right())

    @Slot(QPointF)
    def _on_delta_clicked(self, point: QPointF) -> None:
        bins = self.delta_bins
        if bins is None:
            return
        x, y = point.x(), point.y()
        if bins.ties and abs(x) <= TIE_WIDTH * bins.width / 2 and 0 <= y <= bins.ties:
            self.select_ties()
            return
        index = int(bin_index(np.array([x]), bins.edges)[0])
        if index >= 0:
            self.select_difference_bin(index)

    @Slot(object)
    def _on_score_region_moved(self, region: object) -> None:
        if self.score_region.isVisible():
            low, high = self.score_region.getRegion()
            self.select_score_range(float(low), float(high))

    @Slot(object)
    def _on_delta_region_moved(self, region: object) -> None:
        if self.delta_region.isVisible():
            low, high = self.delta_region.getRegion()
            self.select_difference_range(float(low), float(high))

    def schedule(self) -> None:
        if not shiboken6.isValid(self.score_region):
            return  # the window is going: its plots went first
        # A brush removed elsewhere (the table's "Clear filters") takes its range away.
        if self.link.brush_of(self.score_plot) is None:
            self.score_region.hide()
        if self.link.brush_of(self.delta_plot) is None:
            self.delta_region.hide()
        super().schedule()
