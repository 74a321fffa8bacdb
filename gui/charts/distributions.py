"""Score distributions: a histogram of any score column per system, and the histogram of the
per-segment difference between two systems, each linked to the table.

Dragging across either histogram selects the rows whose value lies in the dragged range (the
range stays and can be moved or resized); clicking a bar selects the rows of that bin. The
score histogram brushes one system's values (the "Select by" system, drawn filled). The
difference histogram is centred on a zero bin, its bars coloured by which system is ahead, and
says on how many rows each system is ahead. Both show the rows of the current selection (without
their own brush).

Bins follow :func:`numpy.histogram`: half-open ``[e_i, e_i+1)``, the last one closed. Scores on
the 0-100 scale are binned by 5 points, clipped to ``[0, 100]`` (sentence BLEU can come out as
100.00000000000004); an imported column is binned over its own range.
"""

from __future__ import annotations

import math

import numpy as np
import numpy.typing as npt
import pyqtgraph as pg
from PySide6.QtCore import QPointF, QRectF, Qt, Slot
from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import QComboBox, QLabel, QWidget

from matchlight.core.metrics.base import ScoreColumn
from matchlight.gui.charts.base import ChartPanel, compact, fill_combo, legend_html, make_plot
from matchlight.gui.charts.brush import BrushViewBox
from matchlight.gui.charts.link import ChartLink

__all__ = [
    "SCORE_BIN",
    "DistributionsPanel",
    "bin_index",
    "difference_edges",
    "nice_step",
    "score_edges",
]

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]
BoolArray = npt.NDArray[np.bool_]

#: Bin width for scores on the 0-100 scale, and for their differences.
SCORE_BIN = 5.0
#: About this many bins for columns on another scale.
TARGET_BINS = 30


def on_percent_scale(column: ScoreColumn, external: bool) -> bool:
    """Whether a column's values lie on the 0-100 scale (every registered metric's do)."""
    return column.kind == "score" and not external


def nice_step(span: float, bins: int) -> float:
    """A bin width of 1, 2, 2.5 or 5 times a power of ten giving about ``bins`` bins."""
    if not math.isfinite(span) or span <= 0:
        return 1.0
    raw = span / bins
    power = 10.0 ** math.floor(math.log10(raw))
    for factor in (1.0, 2.0, 2.5, 5.0, 10.0):
        if raw <= factor * power:
            return factor * power
    return 10.0 * power  # pragma: no cover - the loop always returns


def score_edges(values: FloatArray, *, percent: bool) -> FloatArray:
    """Bin edges for score values: 0-100 by :data:`SCORE_BIN`, else over the finite values'
    range in :func:`nice_step` widths."""
    if percent:
        return np.arange(0.0, 100.0 + SCORE_BIN / 2, SCORE_BIN)
    finite = values[np.isfinite(values)]
    if finite.size == 0:
        return np.array([0.0, 1.0])
    low, high = float(finite.min()), float(finite.max())
    step = nice_step(high - low, TARGET_BINS)
    start = math.floor(low / step) * step
    stop = max(start + step, math.ceil(high / step) * step)
    count = round((stop - start) / step)
    return start + step * np.arange(count + 1, dtype=np.float64)


def difference_edges(deltas: FloatArray, *, percent: bool) -> FloatArray:
    """Symmetric bin edges with a bin centred on zero: ``(k - 1/2) * w``. On the 0-100 scale
    ``w`` is :data:`SCORE_BIN` and the bins reach ±100; else ``w`` fits the largest |Δ|."""
    finite = np.abs(deltas[np.isfinite(deltas)])
    if percent:
        step, reach = SCORE_BIN, 100.0
    else:
        reach = float(finite.max()) if finite.size else 1.0
        step = nice_step(2 * reach, TARGET_BINS) if reach > 0 else 1.0
    k = max(1, math.ceil(reach / step - 0.5))
    return (np.arange(-k, k + 2, dtype=np.float64) - 0.5) * step


def bin_index(values: FloatArray, edges: FloatArray) -> IntArray:
    """The bin of each value as :func:`numpy.histogram` counts it (``[e_i, e_i+1)``, the last
    bin closed); -1 for NaN or a value outside the edges."""
    index = np.searchsorted(edges, values, side="right").astype(np.int64) - 1
    last = len(edges) - 2
    index[values == edges[-1]] = last
    index[(index < 0) | (index > last) | np.isnan(values)] = -1
    return index


def _percent_clip(values: FloatArray, percent: bool) -> FloatArray:
    return np.clip(values, 0.0, 100.0) if percent else values


class DistributionsPanel(ChartPanel):
    """The score histogram and the difference histogram, side by side."""

    title = "Distributions"

    def __init__(self, link: ChartLink, parent: QWidget | None = None) -> None:
        super().__init__(link, parent)
        self.metric_combo = QComboBox()
        self.metric_combo.setToolTip("The score column both histograms show")
        self.brush_combo = QComboBox()
        self.brush_combo.setToolTip(
            "Whose scores a dragged range or a clicked bar of the left histogram selects"
        )
        self.a_combo = QComboBox()
        self.b_combo = QComboBox()
        self.a_combo.setToolTip("System A of the difference A − B")
        self.b_combo.setToolTip("System B of the difference A − B")
        for label, widget in (
            ("Score:", self.metric_combo),
            ("Select by:", self.brush_combo),
            ("Difference:", self.a_combo),
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
            plot.setLabel("left", "segments")
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
            side: pg.BarGraphItem(x0=[], x1=[], height=[]) for side in ("b", "tie", "a")
        }
        for bars in self.delta_bars.values():
            self.delta_plot.addItem(bars)
        self._curves: list[pg.PlotDataItem] = []

        # What is drawn, for clicks and tests.
        self.score_edges: FloatArray = np.zeros(0)
        self.score_counts: dict[int, IntArray] = {}
        self.delta_edges: FloatArray = np.zeros(0)
        self.delta_counts: IntArray = np.zeros(0, np.int64)
        self.score_rows: IntArray = np.zeros(0, np.int64)
        self.delta_rows: IntArray = np.zeros(0, np.int64)
        self._percent = True

        self.score_box.brushed.connect(self._on_score_brushed)
        self.score_box.clicked_at.connect(self._on_score_clicked)
        self.delta_box.brushed.connect(self._on_delta_brushed)
        self.delta_box.clicked_at.connect(self._on_delta_clicked)
        self.score_region.sigRegionChangeFinished.connect(self._on_score_region_moved)
        self.delta_region.sigRegionChangeFinished.connect(self._on_delta_region_moved)
        self.listen(link.baseline_changed, self._on_baseline_changed)
        self.listen(link.session_changed, self._on_session_changed)
        self.apply_theme()

    def _arrange(self, *, vertical: bool) -> None:
        """Side by side in a wide panel, one above the other in a tall one (a side dock)."""
        if vertical == self._vertical or self.graphics is None:
            return
        layout = self.graphics.ci
        items = (self.score_plot, self.score_legend, self.delta_plot, self.delta_legend)
        if self._vertical is not None:
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
        for combo in (self.a_combo, self.b_combo):
            fill_combo(combo, [])
        self.score_region.hide()
        self.delta_region.hide()

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
            self.show_placeholder("Open a comparison to see its score distributions.")
            return
        if key is None or not table.has(key) or not table.done.any():
            self.show_placeholder("Scoring… the distributions appear with the first scores.")
            return
        self.show_body()
        column = table.column_info(key)
        percent = on_percent_scale(column, key in table.external)
        self._percent = percent
        self.score_rows = np.flatnonzero(self.link.population(self.score_plot) & table.done)
        self.delta_rows = np.flatnonzero(self.link.population(self.delta_plot) & table.done)
        self._draw_scores(column, percent)
        self._draw_difference(column, percent)
        n_total = table.n_segments
        shown = len(self.score_rows)
        scope = (
            f"all {n_total:,} segments"
            if shown == n_total
            else f"{shown:,} of {n_total:,} segments (the current selection)"
        )
        scoring = "" if table.complete else f" Scoring: {table.n_done:,} scored so far."
        self.caption.setText(
            f"Sentence {column.label} over {scope}.{scoring} Drag across a histogram to select "
            "the segments in that range; click a bar to select its segments."
        )

    def _values(self, key: str, system: int) -> FloatArray:
        table = self.link.table
        assert table is not None
        return _percent_clip(table.column(key, system), self._percent)

    def _draw_scores(self, column: ScoreColumn, percent: bool) -> None:
        table = self.link.table
        assert table is not None
        key = column.key
        n_sys = len(table.systems)
        values = [self._values(key, s)[self.score_rows] for s in range(n_sys)]
        edges = score_edges(np.concatenate(values) if values else np.zeros(0), percent=percent)
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
            counts, _ = np.histogram(values[s][~np.isnan(values[s])], bins=edges)
            self.score_counts[s] = counts.astype(np.int64)
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
        axis = self.score_plot.getAxis("bottom")
        if percent:
            axis.setTicks(
                [[(v, f"{v:g}") for v in range(0, 101, 20)], [(v, "") for v in range(0, 101, 10)]]
            )
        else:
            axis.setTicks(None)
        self.score_plot.setLabel("bottom", f"sentence {column.label}")
        self.style_plot(self.score_plot, f"Sentence {column.label} per system")
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

    def _draw_difference(self, column: ScoreColumn, percent: bool) -> None:
        table = self.link.table
        assert table is not None
        a, b = self.pair
        theme = self.theme
        names = table.systems
        deltas = self._deltas(column.key)[self.delta_rows]
        deltas = deltas[~np.isnan(deltas)]
        edges = difference_edges(deltas, percent=percent)
        counts, _ = np.histogram(deltas, bins=edges)
        self.delta_edges = edges
        self.delta_counts = counts.astype(np.int64)
        centre = len(counts) // 2
        sides = {
            "b": np.arange(centre),
            "tie": np.array([centre]),
            "a": np.arange(centre + 1, len(counts)),
        }
        colours = {
            "b": theme.system(b, 200),
            "tie": theme.with_alpha(theme.muted, 200),
            "a": theme.system(a, 200),
        }
        for side, index in sides.items():
            self.delta_bars[side].setOpts(
                x0=edges[index],
                x1=edges[index + 1],
                height=counts[index],
                brush=pg.mkBrush(colours[side]),
                pen=pg.mkPen(theme.background, width=0.5),
            )
        reach = float(edges[-1])
        self.delta_plot.setXRange(-reach, reach, padding=0.01)
        self.delta_plot.setYRange(0, max(1, int(counts.max()) if counts.size else 1) * 1.05)
        axis = self.delta_plot.getAxis("bottom")
        if percent:
            major = [(v, f"{v:+g}" if v else "0") for v in range(-100, 101, 50)]
            minor = [(v, "") for v in range(-100, 101, 10)]
            axis.setTicks([major, minor])
        else:
            axis.setTicks(None)
        a_name, b_name = names[a], names[b]
        self.delta_plot.setLabel("bottom", f"{a_name} − {b_name} (sentence {column.label})")
        ahead_a = int((deltas > 0).sum())
        ahead_b = int((deltas < 0).sum())
        ties = int((deltas == 0).sum())
        title = f"{a_name} − {b_name} per segment" if a != b else "Pick two different systems"
        self.style_plot(self.delta_plot, title)
        per_line = self.legend_columns() // (1 if self._vertical else 2)
        self.delta_legend.setText(
            legend_html(
                [
                    (theme.system(b).name(), f"{b_name} ahead: {ahead_b:,}"),
                    (theme.muted.name(), f"equal: {ties:,}"),
                    (theme.system(a).name(), f"{a_name} ahead: {ahead_a:,}"),
                ],
                per_line=max(1, min(3, per_line)),
            ),
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
        label = self.column_info(key).label  # type: ignore[union-attr]
        name = table.systems[self.brush_system]
        self.score_region.setRegion((low, high))
        self.score_region.show()
        return self.link.select_rows(
            np.flatnonzero(keep),
            f"{label} of {name} in [{low:.1f}, {high:.1f}]",
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
        label = self.column_info(key).label  # type: ignore[union-attr]
        name = table.systems[self.brush_system]
        self.score_region.setRegion((low, high))
        self.score_region.show()
        return self.link.select_rows(
            np.flatnonzero(keep),
            f"{label} of {name} in [{low:g}, {high:g}{closing}",
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
        self.delta_region.setRegion((low, high))
        self.delta_region.show()
        return self.link.select_rows(
            np.flatnonzero(keep),
            f"{self._pair_label()} in [{low:+.1f}, {high:+.1f}]",
            owner=self.delta_plot,
        )

    def select_difference_bin(self, index: int) -> bool:
        table = self.link.table
        key = self.score_key
        edges = self.delta_edges
        if table is None or key is None or not 0 <= index < len(edges) - 1:
            return False
        keep = table.done & (bin_index(self._deltas(key), edges) == index)
        low, high = float(edges[index]), float(edges[index + 1])
        self.delta_region.setRegion((low, high))
        self.delta_region.show()
        return self.link.select_rows(
            np.flatnonzero(keep),
            f"{self._pair_label()} in [{low:+g}, {high:+g})",
            owner=self.delta_plot,
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
        index = int(bin_index(np.array([point.x()]), self.delta_edges)[0])
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
        # A brush removed elsewhere (the table's "Clear filters") takes its range away.
        if self.link.brush_of(self.score_plot) is None:
            self.score_region.hide()
        if self.link.brush_of(self.delta_plot) is None:
            self.delta_region.hide()
        super().schedule()
