"""System X against system Y: one point per segment, the diagonal, linked to the table.

Every scored segment is a point at (X's score, Y's score) for the chosen column; points above
the diagonal are segments where Y scores higher, which is Y better, or X better on a column
where lower is better (an MQM penalty): the counts beside the plot say who is better where. A
column with a natural range (0-100, 0-1) is shown over it, square; another over its data.

All points are one uniformly styled :class:`pyqtgraph.ScatterPlotItem` fed numpy arrays,
drawn without antialiasing; with many segments, points that fall on the same spot (a 400th of
the axis range, about a pixel) are drawn once (every segment still answers a click). The rows
of the current selection are marked by a second, small overlay item and the table's current row
by a ring, so a selection never restyles the points. Clicking a point makes its segment the
table's current row; dragging a box selects the segments inside it. The wheel zooms.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
import pyqtgraph as pg
from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication, QPointF, QRectF, Qt, Slot
from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import QComboBox, QGraphicsItem, QLabel, QPushButton, QWidget

from matchlight.core.analysis.scales import display_bounds
from matchlight.core.metrics.base import ScoreColumn
from matchlight.gui.charts.base import ChartPanel, better_note, compact, fill_combo, make_plot
from matchlight.gui.charts.brush import BrushViewBox
from matchlight.gui.charts.distributions import axis_ticks
from matchlight.gui.charts.link import ChartLink

__all__ = ["DEDUPE_FROM", "ScatterPanel", "drawn_points"]

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]

# From this many points on, points on the same spot are drawn once.
DEDUPE_FROM = 20_000
# The spot size, as a fraction of each axis's range: about a pixel of a 400-pixel plot, well
# under the 4-pixel points, so drawing one point per spot looks the same.
SPOT = 1 / 400
# A click selects the nearest point within this many pixels.
CLICK_PIXELS = 8.0


def drawn_points(x: FloatArray, y: FloatArray, span: tuple[float, float]) -> IntArray:
    """Indices of the points to draw: all of them up to :data:`DEDUPE_FROM`, else one per spot
    of :data:`SPOT` times the axis ``span`` (x span, y span)."""
    n = len(x)
    if n < DEDUPE_FROM:
        return np.arange(n, dtype=np.int64)
    qx = np.floor(x / max(span[0] * SPOT, 1e-12)).astype(np.int64)
    qy = np.floor(y / max(span[1] * SPOT, 1e-12)).astype(np.int64)
    key = (qx - qx.min()) * (int(qy.max() - qy.min()) + 1) + (qy - qy.min())
    _, first = np.unique(key, return_index=True)
    return np.sort(first).astype(np.int64)


class _Points(pg.ScatterPlotItem):
    """A scatter item that leaves clicks to the view box, which picks the nearest of every
    segment (pyqtgraph's own hit test would search the drawn points one by one)."""

    def mouseClickEvent(self, ev: object) -> None:
        ev.ignore()  # type: ignore[attr-defined]


class ScatterPanel(ChartPanel):
    """System X against system Y for one score column."""

    DRAWS_CHOSEN_COLUMNS = True

    title = QT_TRANSLATE_NOOP("ChartPanel", "Scatter")

    def __init__(self, link: ChartLink, parent: QWidget | None = None) -> None:
        super().__init__(link, parent)
        self.metric_combo = QComboBox()
        self.x_combo = QComboBox()
        self.y_combo = QComboBox()
        self.metric_combo.setToolTip(
            QCoreApplication.translate("ScatterPanel", "The score column of both axes")
        )
        self.x_combo.setToolTip(
            QCoreApplication.translate("ScatterPanel", "The system on the horizontal axis")
        )
        self.y_combo.setToolTip(
            QCoreApplication.translate("ScatterPanel", "The system on the vertical axis")
        )
        for label, widget in (
            (QCoreApplication.translate("ScatterPanel", "Score:"), self.metric_combo),
            ("X:", self.x_combo),
            ("Y:", self.y_combo),
        ):
            self.controls.addWidget(QLabel(label))
            self.controls.addWidget(widget)
            compact(widget)
            widget.currentIndexChanged.connect(self._on_choice_changed)
        self.reset_button = QPushButton(QCoreApplication.translate("ScatterPanel", "Reset view"))
        self.reset_button.setToolTip(
            QCoreApplication.translate("ScatterPanel", "Show every point again after zooming")
        )
        self.reset_button.clicked.connect(self._on_reset_clicked)
        self.controls.addWidget(self.reset_button)
        self.controls.addStretch(1)

        graphics = self.add_graphics()
        self.box = BrushViewBox("rect")
        self.plot = make_plot(view_box=self.box)
        self.box.setMouseEnabled(x=True, y=True)
        graphics.addItem(self.plot, row=0, col=0)
        self.legend = pg.LabelItem(justify="left")
        graphics.addItem(self.legend, row=0, col=1)
        self._legend_below = False
        self.diagonal = pg.InfiniteLine(pos=(0, 0), angle=45, movable=False)
        self.plot.addItem(self.diagonal, ignoreBounds=True)
        self.points = _Points(size=4, pxMode=True, antialias=False, hoverable=False, useCache=True)
        self.points.setZValue(1)
        self.marked = _Points(size=5, pxMode=True, antialias=False, hoverable=False)
        self.marked.setZValue(2)
        self.current = _Points(size=14, pxMode=True, antialias=True, hoverable=False)
        self.current.setZValue(3)
        for item in (self.points, self.marked):
            # Drawn once into a pixmap until the view changes: moving the current-row ring or
            # repainting the window does not draw every point again.
            item.setCacheMode(QGraphicsItem.CacheMode.DeviceCoordinateCache)
        for item in (self.points, self.marked, self.current):
            self.plot.addItem(item)

        # The segments plotted (scored, with a value for both systems) and their coordinates.
        self.rows: IntArray = np.zeros(0, np.int64)
        self.xs: FloatArray = np.zeros(0)
        self.ys: FloatArray = np.zeros(0)
        # Segments above the diagonal, on it and below it (of :attr:`rows`).
        self.counts: dict[str, int] = {}
        # Indices into :attr:`rows` of the points drawn, and of the marked ones.
        self.drawn: IntArray = np.zeros(0, np.int64)
        self.marked_rows: IntArray = np.zeros(0, np.int64)
        self._key: tuple[object, ...] | None = None
        self._span = (100.0, 100.0)
        # The column's natural range when it has one at both ends (a square plot), else None.
        self._bounds: tuple[float, float] | None = (0.0, 100.0)

        self.box.brushed.connect(self._on_brushed)
        self.box.clicked_at.connect(self._on_clicked)
        self.listen(link.current_changed, self._on_current_changed)
        self.listen(link.baseline_changed, self._on_baseline_changed)
        self.listen(link.session_changed, self._on_session_changed)
        self.apply_theme()

    # -- choices --------------------------------------------------------------------------------

    @property
    def score_key(self) -> str | None:
        data = self.metric_combo.currentData()
        return data if isinstance(data, str) else None

    @property
    def axes(self) -> tuple[int, int]:
        x, y = self.x_combo.currentData(), self.y_combo.currentData()
        return (x if isinstance(x, int) else 0, y if isinstance(y, int) else 0)

    def set_choices(
        self, *, metric: str | None = None, x: int | None = None, y: int | None = None
    ) -> None:
        """Pick the column and the systems of the axes (what the combos offer)."""
        self._update_choices()
        for combo, value in ((self.metric_combo, metric), (self.x_combo, x), (self.y_combo, y)):
            if value is not None:
                index = combo.findData(value)
                if index < 0:
                    raise ValueError(f"{value!r} is not offered")
                combo.setCurrentIndex(index)
        self.schedule()

    def _update_choices(self) -> None:
        table = self.link.table
        if table is None:
            for combo in (self.metric_combo, self.x_combo, self.y_combo):
                fill_combo(combo, [])
            return
        fill_combo(self.metric_combo, self.column_items())
        systems: list[tuple[str, object]] = [(n, i) for i, n in enumerate(table.systems)]
        core = self.link.core
        baseline = 0 if core is None else core.baseline
        other = next((i for i in range(len(table.systems)) if i != baseline), baseline)
        keep_x = self.x_combo.currentData() if self.x_combo.count() else baseline
        keep_y = self.y_combo.currentData() if self.y_combo.count() else other
        fill_combo(self.x_combo, systems, keep_x)
        fill_combo(self.y_combo, systems, keep_y)

    @Slot()
    def _on_session_changed(self) -> None:
        fill_combo(self.x_combo, [])
        fill_combo(self.y_combo, [])
        self._key = None

    @Slot(int)
    def _on_baseline_changed(self, system: int) -> None:
        """X follows the baseline (Y stays unless it is the new baseline)."""
        if self.y_combo.currentData() == system:
            self.y_combo.setCurrentIndex(self.x_combo.currentIndex())
        self.x_combo.setCurrentIndex(self.x_combo.findData(system))

    @Slot(int)
    def _on_choice_changed(self, _index: int) -> None:
        self.schedule()

    @Slot()
    def _on_reset_clicked(self) -> None:
        self.reset_view()

    def reset_view(self) -> None:
        """Show every point: the column's range on both axes (a square) when it has one at both
        ends (0-100, 0-1), else the data's."""
        self._fit_square()
        if self._bounds is not None:
            self.box.setRange(xRange=self._bounds, yRange=self._bounds, padding=0.02)
        else:
            self.box.autoRange(padding=0.04)

    def _fit_square(self) -> None:
        """Keep the plot about as wide as it is tall (the counts take the rest), so that the
        diagonal is at 45 degrees and both scales read alike."""
        if self.graphics is None:
            return
        viewport = self.graphics.viewport()
        height = viewport.height() - (60 if self._legend_below else 0)
        width = viewport.width() - (0 if self._legend_below else 200)
        side = max(240, min(height + 30, width))
        square = self._bounds is not None
        self.plot.setMaximumWidth(side if square else 1e6)
        self.plot.setAspectLocked(square, ratio=1.0)

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        below = event.size().width() < 1.3 * event.size().height()
        if below != self._legend_below and self.graphics is not None:
            # The counts go beside a square plot in a wide panel, below it in a tall one.
            layout = self.graphics.ci
            layout.removeItem(self.legend)
            layout.addItem(self.legend, row=1 if below else 0, col=0 if below else 1)
            self._legend_below = below
        if self.rows.size and not self._stale:
            self.reset_view()

    # -- drawing --------------------------------------------------------------------------------

    def apply_theme(self) -> None:
        theme = self.theme
        self.box.set_band_colour(theme.highlight)
        self.diagonal.setPen(pg.mkPen(theme.muted, width=1, style=Qt.PenStyle.DashLine))
        self.current.setPen(pg.mkPen(theme.highlight, width=2))
        self.current.setBrush(pg.mkBrush(None))
        self._key = None  # restyle the points on the next refresh
        self.style_plot(self.plot)

    def refresh(self) -> None:
        self._update_choices()
        table = self.link.table
        key = self.score_key
        if table is None:
            self.show_placeholder(
                QCoreApplication.translate(
                    "ScatterPanel", "Open a comparison to compare two systems segment by segment."
                )
            )
            return
        if key is None or not table.has(key) or not table.done.any():
            self.show_placeholder(
                QCoreApplication.translate(
                    "ScatterPanel", "Scoring… the scatter appears with the first scores."
                )
            )
            return
        self.show_body()
        column = table.column_info(key)
        sx, sy = self.axes
        names = table.systems
        xs = table.column(key, sx)
        ys = table.column(key, sy)
        usable = table.done & ~np.isnan(xs) & ~np.isnan(ys)
        state = (id(table), key, sx, sy, table.n_done, self.theme.dark, len(table.columns))
        if state != self._key:
            self._key = state
            self.rows = np.flatnonzero(usable).astype(np.int64)
            self.xs = xs[self.rows]
            self.ys = ys[self.rows]
            self._draw_points(column, table.scores[:, table.done, table.metric_index(key)])
        self._draw_marks()
        x_name, y_name = names[sx], names[sy]
        note = better_note(column)
        axis = QCoreApplication.translate("ScatterPanel", "{name} (sentence {0})")
        self.plot.setLabel("bottom", axis.format(column.label, name=x_name) + note)
        self.plot.setLabel("left", axis.format(column.label, name=y_name) + note)
        above = int((self.ys > self.xs).sum())
        below = int((self.ys < self.xs).sum())
        on = int((self.ys == self.xs).sum())
        theme = self.theme
        # Above the diagonal Y scores higher: Y is better, or X where lower is better.
        up, down = (sy, sx) if column.higher_is_better else (sx, sy)
        self.counts = {"above": above, "equal": on, "below": below}
        self.style_plot(self.plot, f"Sentence {column.label}: {y_name} against {x_name}")
        self.legend.setText(
            QCoreApplication.translate(
                "ScatterPanel",
                (
                    '{0:,} segments<br><br><span style="color:{1}">▲ {2} better: '
                    '{above:,}</span><br><span style="color:{3}">&nbsp;&nbsp; on the diagonal: '
                    '{on:,}</span><br><span style="color:{4}">▼ {5} better: {below:,}</span>'
                ),
            ).format(
                len(self.rows),
                theme.system(up).name(),
                names[up],
                theme.muted.name(),
                theme.system(down).name(),
                names[down],
                above=above,
                on=on,
                below=below,
            ),
            color=theme.foreground.name(),
            size="9pt",
        )
        marked = len(self.marked_rows)
        mark_note = (
            QCoreApplication.translate(
                "ScatterPanel", " The {marked:,} segments of the current selection are marked."
            ).format(marked=marked)
            if marked and marked < len(self.rows)
            else ""
        )
        spots = (
            QCoreApplication.translate("ScatterPanel", " ({0:,} distinct spots drawn)").format(
                len(self.drawn)
            )
            if len(self.drawn) < len(self.rows)
            else ""
        )
        self.caption.setText(
            QCoreApplication.translate(
                "ScatterPanel",
                "{0:,} segments, one point each{spots}.{mark_note} Click a point to show "
                "its segment in the table; drag a box to select the segments inside it; "
                "the wheel zooms.",
            ).format(len(self.rows), spots=spots, mark_note=mark_note)
        )

    def _draw_points(self, column: ScoreColumn, scored: FloatArray) -> None:
        theme = self.theme
        bounded = column.low is not None and column.high is not None
        bounds = display_bounds(column, scored) if bounded else None
        if bounds is not None:
            span = (bounds[1] - bounds[0], bounds[1] - bounds[0])
        else:
            span = (
                float(np.ptp(self.xs)) if self.xs.size else 1.0,
                float(np.ptp(self.ys)) if self.ys.size else 1.0,
            )
        self._span = span
        self.drawn = drawn_points(self.xs, self.ys, span)
        colour = theme.with_alpha(theme.foreground, 70 if theme.dark else 60)
        self.points.setData(
            x=self.xs[self.drawn],
            y=self.ys[self.drawn],
            pen=None,
            brush=pg.mkBrush(colour),
            size=4,
            symbol="o",
        )
        self._bounds = bounds
        if bounds is not None:
            ticks = [*axis_ticks(*bounds)[:1], []]
            self.plot.getAxis("bottom").setTicks(ticks)
            self.plot.getAxis("left").setTicks(ticks)
        else:
            self.plot.getAxis("bottom").setTicks(None)
            self.plot.getAxis("left").setTicks(None)
        self.reset_view()

    def _draw_marks(self) -> None:
        theme = self.theme
        selected = self.link.selected()
        if selected.size and not selected.all() and self.rows.size:
            inside = np.flatnonzero(selected[self.rows])
            marked = inside[drawn_points(self.xs[inside], self.ys[inside], self._span)]
            self.marked_rows = self.rows[inside]
            self.marked.setData(
                x=self.xs[marked],
                y=self.ys[marked],
                pen=None,
                brush=pg.mkBrush(theme.with_alpha(theme.highlight, 200)),
                size=5,
                symbol="o",
            )
            self.points.setOpacity(0.45)
        else:
            self.marked_rows = np.zeros(0, np.int64)
            self.marked.setData(x=[], y=[])
            self.points.setOpacity(1.0)
        self._draw_current(self.link.current_segment())

    def _draw_current(self, segment: int) -> None:
        where = np.flatnonzero(self.rows == segment) if segment >= 0 else np.zeros(0, np.int64)
        if where.size:
            i = int(where[0])
            self.current.setData(x=[self.xs[i]], y=[self.ys[i]], symbol="o", size=14)
        else:
            self.current.setData(x=[], y=[])

    def export_item(self) -> pg.GraphicsObject | pg.GraphicsLayout | None:
        """The square plot alone (the counts beside it are for the caption of a figure)."""
        return self.plot

    # -- clicks and boxes -----------------------------------------------------------------------

    def nearest(self, point: QPointF, pixels: float = CLICK_PIXELS) -> int:
        """The segment whose point is nearest to ``point`` (data coordinates) within
        ``pixels`` on screen, or -1."""
        if not self.rows.size:
            return -1
        width, height = self.box.viewPixelSize()
        dx = (self.xs - point.x()) / max(width, 1e-12)
        dy = (self.ys - point.y()) / max(height, 1e-12)
        distance = dx * dx + dy * dy
        best = int(np.argmin(distance))
        if distance[best] > pixels * pixels:
            return -1
        return int(self.rows[best])

    def select_box(self, rect: QRectF) -> bool:
        """Select the segments whose point lies inside ``rect`` (data coordinates)."""
        table = self.link.table
        key = self.score_key
        if table is None or key is None:
            return False
        x0, x1 = sorted((rect.left(), rect.right()))
        y0, y1 = sorted((rect.top(), rect.bottom()))
        inside = (self.xs >= x0) & (self.xs <= x1) & (self.ys >= y0) & (self.ys <= y1)
        sx, sy = self.axes
        column = table.column_info(key)
        f = column.format
        return self.link.select_rows(
            self.rows[inside],
            f"{column.label}: {table.systems[sx]} in [{f(x0)}, {f(x1)}], "
            f"{table.systems[sy]} in [{f(y0)}, {f(y1)}]",
            owner=self,
        )

    @Slot(QRectF)
    def _on_brushed(self, rect: QRectF) -> None:
        self.select_box(rect)

    @Slot(QPointF)
    def _on_clicked(self, point: QPointF) -> None:
        segment = self.nearest(point)
        if segment >= 0:
            self.link.make_current(segment)

    @Slot(int)
    def _on_current_changed(self, segment: int) -> None:
        if self.isVisible() and not self._stale:
            self._draw_current(segment)
