"""The "Human agreement" tab's two views of an :class:`~gui.charts.agreementrun.AgreementRun`.

:class:`AgreementModel` is the table (metrics × statistics of one level, with intervals and
significance clusters); :class:`SystemScatter` plots a metric's corpus figure against the human
score, one named point per system, the names placed where they cover nothing.
"""

import math
from collections.abc import Sequence
from typing import Any

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import (
    QAbstractTableModel,
    QCoreApplication,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    QPointF,
    QRectF,
    Qt,
    Slot,
)
from PySide6.QtGui import QColor, QFont, QGuiApplication
from PySide6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from matchlight.core.analysis.metatypes import Estimate
from matchlight.core.analysis.scales import corpus_decimals
from matchlight.core.style.palette import theme as palette_theme
from matchlight.gui.charts.agreementrun import (
    LABELS,
    MEANINGS,
    STATISTICS,
    AgreementRun,
    Level,
    format_estimate,
)
from matchlight.gui.charts.base import ChartPanel, better_note, compact, make_plot

__all__ = ["AgreementModel", "SystemScatter", "make_view"]

Index = QModelIndex | QPersistentModelIndex


# -- the table -------------------------------------------------------------------------------------


class AgreementModel(QAbstractTableModel):
    """Rows: the metrics; columns: the metric's name, then the statistics of one level. A cell
    is the value, its significance cluster in parentheses (1 = best) and its interval below
    (in the tooltip only when :attr:`intervals` is off: a narrow dock). The best value of each
    statistic is bold, and the metrics of the best cluster are in the theme's "better" colour.
    ``Qt.UserRole`` gives the :class:`~core.analysis.metatypes.Estimate`."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.run: AgreementRun | None = None
        self.level: Level = "system"
        self.dark = False
        self.stale = False
        self.intervals = True

    def set_intervals(self, shown: bool) -> None:
        """Intervals in the cells (a wide panel), or in the tooltips only, in a smaller font (a
        narrow one, where the cells must fit a side dock)."""
        if shown != self.intervals:
            self.beginResetModel()
            self.intervals = shown
            self.endResetModel()

    def set_run(self, run: AgreementRun | None, level: Level | None = None) -> None:
        self.beginResetModel()
        self.run = run
        if level is not None:
            self.level = level
        self.stale = False
        self.endResetModel()

    def set_stale(self, stale: bool) -> None:
        if stale != self.stale:
            self.stale = stale
            if self.rowCount() and self.columnCount():
                last = self.index(self.rowCount() - 1, self.columnCount() - 1)
                self.dataChanged.emit(self.index(0, 0), last)

    @property
    def statistics(self) -> tuple[str, ...]:
        return STATISTICS[self.level]

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() or self.run is None else len(self.run.result.metrics)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() or self.run is None else 1 + len(self.statistics)

    def estimate(self, row: int, column: int) -> Estimate | None:
        assert self.run is not None
        figures = getattr(self.run.result.metrics[row], self.level)
        return figures.get(self.statistics[column - 1])  # type: ignore[no-any-return]

    def cluster(self, row: int, column: int) -> int | None:
        """The metric's significance cluster on the cell's statistic (None: not ranked)."""
        assert self.run is not None
        ranking = self.run.result.ranking(self.level, self.statistics[column - 1])
        name = self.run.result.metrics[row].name
        if ranking is None or name not in ranking.names:
            return None
        return ranking.clusters[ranking.names.index(name)]

    def is_best(self, row: int, column: int) -> bool:
        """Whether the cell holds the best value of its statistic (ties: all of them)."""
        values = [self.estimate(r, column) for r in range(self.rowCount())]
        finite = [e.value for e in values if e is not None and math.isfinite(e.value)]
        mine = values[row]
        return bool(finite) and mine is not None and mine.value == max(finite)

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        run = self.run
        if run is None or not index.isValid() or not self.hasIndex(index.row(), index.column()):
            return None
        row, column = index.row(), index.column()
        metric = run.result.metrics[row]
        if column == 0:
            if role == Qt.ItemDataRole.DisplayRole:
                return metric.name if self.intervals else run.metrics[row].short
            if role == Qt.ItemDataRole.UserRole:
                return metric.name
            if role == Qt.ItemDataRole.ToolTipRole:
                info = run.metrics[row]
                return f"{info.label}: {info.description}"
            if role == Qt.ItemDataRole.FontRole and not self.intervals:
                font = QFont()
                font.setPointSizeF(font.pointSizeF() * 0.9)
                return font
            return None
        estimate = self.estimate(row, column)
        cluster = self.cluster(row, column)
        if role == Qt.ItemDataRole.DisplayRole:
            return format_estimate(estimate, cluster, interval=self.intervals)
        if role == Qt.ItemDataRole.UserRole:
            return estimate
        if role == Qt.ItemDataRole.TextAlignmentRole:
            return int(Qt.AlignmentFlag.AlignCenter)
        if role == Qt.ItemDataRole.FontRole:
            font = QFont()
            font.setBold(self.is_best(row, column))
            if not self.intervals:
                font.setPointSizeF(font.pointSizeF() * 0.9)
            return font
        if role == Qt.ItemDataRole.ForegroundRole:
            if self.stale:
                return QGuiApplication.palette().placeholderText()
            if cluster == 1:
                return QColor(palette_theme(self.dark).better_text)
            return None
        if role == Qt.ItemDataRole.ToolTipRole:
            return self._tooltip(row, column, estimate, cluster)
        return None

    def _tooltip(
        self, row: int, column: int, estimate: Estimate | None, cluster: int | None
    ) -> str:
        run = self.run
        assert run is not None
        statistic = self.statistics[column - 1]
        result = run.result
        name = result.metrics[row].name
        what = (
            QCoreApplication.translate(
                "agreement", "System-level {meaning} of {name} against {human}."
            )
            if self.level == "system"
            else QCoreApplication.translate(
                "agreement", "Segment-level {meaning} of {name} against {human}."
            )
        )
        lines = [what.format(meaning=MEANINGS[statistic], name=name, human=run.human.column.label)]
        if estimate is None or not math.isfinite(estimate.value):
            if statistic == "spa":
                lines.append(
                    QCoreApplication.translate(
                        "agreement", "SPA needs every (system, segment) pair of the rows judged."
                    )
                )
            else:
                lines.append(
                    QCoreApplication.translate("agreement", "Not computable from these judgements.")
                )
            return "\n".join(lines)
        lines.append(
            QCoreApplication.translate("agreement", "Value: {0}").format(repr(estimate.value))
        )
        if estimate.low is not None and estimate.high is not None:
            lines.append(
                QCoreApplication.translate(
                    "agreement",
                    "{confidence:.0%} interval over {samples:,} segment resamples: {low} to {high}",
                ).format(
                    confidence=result.settings.confidence,
                    samples=result.settings.confidence_samples,
                    low=f"{estimate.low:.4f}",
                    high=f"{estimate.high:.4f}",
                )
            )
        if cluster is not None:
            ranking = result.ranking(self.level, statistic)
            assert ranking is not None
            lines.append(
                QCoreApplication.translate(
                    "agreement",
                    "Significance cluster {0} of {1} (1 = best; permutation tests, "
                    "{permutations:,} permutations, p ≤ {p})",
                ).format(
                    cluster,
                    max(ranking.clusters),
                    permutations=result.settings.permutations,
                    p=result.settings.p_threshold,
                )
            )
        if self.is_best(row, column):
            lines.append(
                QCoreApplication.translate("agreement", "The best value of this statistic.")
            )
        return "\n".join(lines)

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if orientation != Qt.Orientation.Horizontal or self.run is None:
            return None
        if not 0 <= section < self.columnCount():
            return None
        if role == Qt.ItemDataRole.FontRole and not self.intervals:
            font = QFont()
            font.setPointSizeF(font.pointSizeF() * 0.9)
            return font
        if role == Qt.ItemDataRole.DisplayRole:
            return (
                QCoreApplication.translate("agreement", "Metric")
                if section == 0
                else LABELS[self.statistics[section - 1]]
            )
        if role == Qt.ItemDataRole.ToolTipRole and section > 0:
            statistic = self.statistics[section - 1]
            level = (
                QCoreApplication.translate("agreement", "System level: {0}")
                if self.level == "system"
                else QCoreApplication.translate("agreement", "Segment level: {0}")
            )
            return level.format(MEANINGS[statistic])
        return None

    def as_text(self) -> str:
        """The table as tab-separated text (for the clipboard), intervals included."""
        lines = [
            "\t".join(
                str(self.headerData(c, Qt.Orientation.Horizontal))
                for c in range(self.columnCount())
            )
        ]
        for r in range(self.rowCount()):
            cells = [str(self.data(self.index(r, 0)))]
            for c in range(1, self.columnCount()):
                text = format_estimate(self.estimate(r, c), self.cluster(r, c))
                cells.append(text.replace("\n", " "))
            lines.append("\t".join(cells))
        return "\n".join(lines)


def make_view(model: AgreementModel) -> QTableView:
    """The table's view: no editing or selection, cells sized to their text."""
    view = QTableView()
    view.setModel(model)
    view.setEditTriggers(QTableView.EditTrigger.NoEditTriggers)
    view.setSelectionMode(QTableView.SelectionMode.NoSelection)
    view.setWordWrap(True)
    view.verticalHeader().hide()
    header = view.horizontalHeader()
    header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
    header.setStretchLastSection(False)
    view.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
    view.setMinimumHeight(60)
    return view


# -- the scatter -----------------------------------------------------------------------------------


class SystemScatter(QWidget):
    """A metric's corpus figure against the human score, one named point per system. A
    lower-is-better axis is drawn turned, so that better is up and to the right on both."""

    def __init__(self, panel: ChartPanel) -> None:
        super().__init__()
        self._panel = panel
        self.combo = QComboBox()
        self.combo.setToolTip(
            QCoreApplication.translate("agreement", "The metric on the horizontal axis")
        )
        compact(self.combo)
        self.graphics = pg.GraphicsLayoutWidget()
        self.graphics.setMinimumHeight(120)
        self.graphics.setBackground(panel.theme.background)
        self.graphics.ci.setContentsMargins(2, 2, 2, 2)
        self.plot = make_plot()
        self.plot.setMouseEnabled(x=False, y=False)
        self.graphics.addItem(self.plot)
        self.plot.getViewBox().sigResized.connect(self.place_labels)
        row = QHBoxLayout()
        row.addWidget(QLabel(QCoreApplication.translate("agreement", "Metric:")))
        row.addWidget(self.combo, 1)
        box = QVBoxLayout(self)
        box.setContentsMargins(0, 0, 0, 0)
        box.addLayout(row)
        box.addWidget(self.graphics, 1)
        # The points, the systems' names and the lines to names set apart from their point.
        self.points: pg.ScatterPlotItem | None = None
        self.labels: list[pg.TextItem] = []
        self.leaders = pg.PlotCurveItem()
        self._spots: list[tuple[float, float]] = []
        self._fitting = False  # setting the range (which may resize the view box)

    def draw(self, run: AgreementRun, systems: Sequence[str]) -> None:
        """Draw ``run``'s metric chosen in the combo (``systems``: the table's, for colours)."""
        plot, theme = self.plot, self._panel.theme
        plot.clear()
        self.points, self.labels, self._spots = None, [], []
        self.leaders = pg.PlotCurveItem(pen=pg.mkPen(theme.muted, width=1))
        plot.addItem(self.leaders)
        name = self.combo.currentData()
        if not isinstance(name, str) or name not in run.corpus:
            return
        result = run.result
        column = next(c for c in run.metrics if c.label == name)
        human = run.human.column
        xs = np.asarray(run.corpus[name], dtype=np.float64)
        ys = np.asarray(run.human_scores, dtype=np.float64)
        colours = [
            theme.system(systems.index(s) if s in systems else i)
            for i, s in enumerate(result.systems)
        ]
        points = pg.ScatterPlotItem(
            x=xs,
            y=ys,
            size=10,
            brush=[pg.mkBrush(c) for c in colours],
            pen=pg.mkPen(theme.foreground, width=0.5),
        )
        points.setZValue(2)
        plot.addItem(points)
        self.points = points
        self._spots = [(float(x), float(y)) for x, y in zip(xs, ys)]
        font = QFont(self.font())
        font.setPointSizeF(font.pointSizeF() * 0.9)
        for system in result.systems:
            label = pg.TextItem(system, color=theme.foreground, anchor=(0.0, 0.0))
            label.setFont(font)
            label.setZValue(3)
            plot.addItem(label)
            self.labels.append(label)
        view = plot.getViewBox()
        view.invertX(not column.higher_is_better)
        view.invertY(not human.higher_is_better)
        finite = np.isfinite(xs) & np.isfinite(ys)
        if finite.any():  # until the view box has a size: place_labels fits it to the names
            view.setRange(
                xRange=(float(xs[finite].min()), float(xs[finite].max())),
                yRange=(float(ys[finite].min()), float(ys[finite].max())),
                padding=0.1,
            )
        rows = (
            QCoreApplication.translate("agreement", "{0:,} selected segments")
            if run.filtered
            else QCoreApplication.translate("agreement", "{0:,} segments")
        ).format(run.n_rows)
        plot.setLabel(
            "bottom",
            QCoreApplication.translate("agreement", "corpus {label} ({rows})").format(
                label=column.label, rows=rows
            )
            + better_note(column),
        )
        left = (
            human.label
            if run.human.level == "system"
            else QCoreApplication.translate("agreement", "mean {0}").format(human.label)
        )
        plot.setLabel("left", left + better_note(human))
        figures = result.metric(name).system
        pearson = figures.get("pearson")
        value = "" if pearson is None else f": Pearson {pearson.value:.3f}"
        self._panel.style_plot(
            plot,
            QCoreApplication.translate("agreement", "{name} against {human}").format(
                name=name, human=human.label
            )
            + value,
        )
        digits, human_digits = corpus_decimals(column), corpus_decimals(human)
        points.setToolTip(
            "\n".join(
                f"{s}: {column.label} {x:.{digits}f}, {human.label} {y:.{human_digits}f}"
                for s, x, y in zip(result.systems, xs, ys)
            )
        )
        self.place_labels()

    def _fit_range(self) -> None:
        """Show every point with room for a name beside it: a name's height above the highest
        point and below the lowest, the right-most point's name on the right (margins in
        pixels, whichever way the axes are turned)."""
        box = self.plot.getViewBox()
        area = box.sceneBoundingRect()
        spots = np.asarray(self._spots, dtype=np.float64).reshape(-1, 2)
        finite = np.isfinite(spots).all(axis=1)
        if not finite.any() or area.width() < 10 or area.height() < 10:
            return
        xs, ys = spots[finite, 0], spots[finite, 1]
        sizes = [label.textItem.boundingRect() for label in self.labels]
        height = max((r.height() for r in sizes), default=12.0)
        inverted_x = box.state["xInverted"]
        # The point drawn furthest right, and its name's width.
        right = int(np.argmin(xs) if inverted_x else np.argmax(xs))
        width = sizes[int(np.flatnonzero(finite)[right])].width() if sizes else 0.0
        margins_x = (10.0, width + 14.0)  # left, right on the screen
        margin_y = height + 6.0

        def stretch(low: float, high: float, before: float, after: float, size: float) -> tuple:
            """The range showing [low, high] with ``before``/``after`` pixels around it."""
            span = (high - low) or max(abs(high), 1.0) * 0.1
            inner = max(size - before - after, size * 0.4)
            per_pixel = span / inner
            return low - before * per_pixel, high + after * per_pixel

        left_px, right_px = margins_x
        if inverted_x:
            left_px, right_px = right_px, left_px
        x_range = stretch(float(xs.min()), float(xs.max()), left_px, right_px, area.width())
        y_range = stretch(float(ys.min()), float(ys.max()), margin_y, margin_y, area.height())
        self._fitting = True
        try:
            box.setRange(xRange=x_range, yRange=y_range, padding=0)
        finally:
            self._fitting = False

    @Slot()
    def place_labels(self) -> None:
        """Put each system's name beside its point where it covers no other name and no point;
        a name that finds no such place goes to the nearest free place around its point, with
        a thin line to it (positions in pixels of the plot)."""
        if self._fitting:
            return
        box = self.plot.getViewBox()
        area = box.sceneBoundingRect()
        if not self.labels or area.width() < 10 or area.height() < 10:
            return
        self._fit_range()
        area = box.sceneBoundingRect()
        points = [box.mapViewToScene(QPointF(x, y)) for x, y in self._spots]
        taken = [QRectF(p.x() - 6, p.y() - 6, 12, 12) for p in points]
        sizes = [label.textItem.boundingRect() for label in self.labels]
        order = sorted(range(len(points)), key=lambda i: (points[i].y(), points[i].x()))
        crowded: list[int] = []
        for i in order:
            p, w, h = points[i], sizes[i].width(), sizes[i].height()
            near = [
                (7, -h / 2),
                (-w - 7, -h / 2),
                (-w / 2, -h - 5),
                (-w / 2, 5),
                (5, -h - 2),
                (5, 2),
                (-w - 5, -h - 2),
                (-w - 5, 2),
            ]
            if not self._put(i, [QRectF(p.x() + a, p.y() + b, w, h) for a, b in near], taken):
                crowded.append(i)
        lines: list[float] = []
        for i in crowded:
            p, w, h = points[i], sizes[i].width(), sizes[i].height()
            around = [
                QRectF(p.x() + a, p.y() - h / 2 + k * h, w, h)
                for k in range(-15, 16)
                for a in (16, -w - 16, 48, -w - 48, 96, -w - 96, 160, -w - 160)
            ]
            around.sort(key=lambda r: (r.center().x() - p.x()) ** 2 + (r.center().y() - p.y()) ** 2)
            rect = self._put(i, around, taken)
            if rect is None:  # nowhere free: where it covers least
                inside = [r for r in around if area.contains(r)] or around
                rect = min(inside, key=lambda r: sum(_overlap(r, t) for t in taken))
                taken.append(rect)
                self.labels[i].setPos(box.mapSceneToView(rect.topLeft()))
            end = QPointF(rect.left() if rect.left() > p.x() else rect.right(), rect.center().y())
            for q in (box.mapSceneToView(p), box.mapSceneToView(end)):
                lines += [q.x(), q.y()]
        self.leaders.setData(np.asarray(lines[0::2]), np.asarray(lines[1::2]), connect="pairs")

    def _put(self, i: int, candidates: list[QRectF], taken: list[QRectF]) -> QRectF | None:
        """Place name ``i`` at the first of ``candidates`` inside the plot that covers nothing
        ``taken``; returns it (None: no such place)."""
        box = self.plot.getViewBox()
        area = box.sceneBoundingRect()
        for rect in candidates:
            if area.contains(rect) and not any(rect.intersects(t) for t in taken):
                taken.append(rect)
                self.labels[i].setPos(box.mapSceneToView(rect.topLeft()))
                return rect
        return None


def _overlap(a: QRectF, b: QRectF) -> float:
    """The area two rectangles share."""
    both = a.intersected(b)
    return max(0.0, both.width()) * max(0.0, both.height())
