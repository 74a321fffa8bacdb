"""The "Human agreement" tab: which metric to trust, decided as the WMT metrics task decides it.

Each metric of the comparison (BLEU, chrF, ROUGE, an imported COMET...) is meta-evaluated
against human judgements by :mod:`core.analysis.metaeval` (mt-metrics-eval's statistics,
exactly). At the system level the metric's corpus figure is compared with the human score of
each system: Pearson, Spearman, Kendall, pairwise accuracy and soft pairwise accuracy (SPA). At
the segment level, every judged (system, segment) pair counts: Pearson, Kendall tau-b and acc23.
Intervals come from segment resamples, and metrics are ranked into significance clusters by
permutation tests.

The human side is one of the comparison's human columns: judgements per segment loaded with
File ▸ Load human judgements, or MQM or ESA from the annotations. It can also be judgements per
system (WMT's DA table), which the comparison session holds. The numbers are computed on the
selected rows in a background job. The point values come first (about a second). Unless Quick is
on, the intervals and clusters follow with the WMT settings. The tab shows the table (metrics ×
statistics), a scatter of corpus score against human score per system, and the clusters.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, Final, Literal

import numpy as np
import numpy.typing as npt
import pyqtgraph as pg
from PySide6.QtCore import (
    QAbstractTableModel,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    QPointF,
    QRectF,
    Qt,
    Slot,
)
from PySide6.QtGui import QAction, QColor, QFont, QGuiApplication, QResizeEvent
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFormLayout,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QMenu,
    QPushButton,
    QSpinBox,
    QSplitter,
    QTableView,
    QTabWidget,
    QToolButton,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
    QWidgetAction,
)

from matchlight.core.analysis.metaeval import (
    SEGMENT_STATISTICS,
    SYSTEM_STATISTICS,
    Estimate,
    HumanColumn,
    MetaEvalResult,
    MetaEvalSettings,
    metaevaluate,
    metaevaluate_table,
    metric_columns,
)
from matchlight.core.analysis.scales import corpus_decimals
from matchlight.core.metrics.base import ScoreColumn
from matchlight.core.scoring.results import ScoreTable
from matchlight.core.session.comparison import ComparisonSession
from matchlight.core.style.palette import theme as palette_theme
from matchlight.gui.charts.base import ChartPanel, better_note, compact, fill_combo, make_plot
from matchlight.gui.charts.jobpanel import JobPanel
from matchlight.gui.charts.jobs import JobCancelled
from matchlight.gui.charts.link import ChartLink, chart_columns

__all__ = [
    "HUMAN_METRICS",
    "QUICK",
    "AgreementModel",
    "AgreementPanel",
    "AgreementRun",
    "HumanChoice",
    "compute_agreement",
    "human_choices",
    "metric_choices",
]

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]
Index = QModelIndex | QPersistentModelIndex
Level = Literal["system", "segment"]

#: The ``metric`` of columns that hold human judgements (imported ones, MQM and ESA from the
#: annotations): offered as the human side, never as a metric.
HUMAN_METRICS: Final = frozenset({"human", "mqm", "esa"})
#: Point values only: no intervals, no permutation tests.
QUICK: Final = MetaEvalSettings(confidence_samples=0, permutations=0)
#: Statistics as the table heads them, and what each one is.
LABELS: Final = {
    "pearson": "Pearson",
    "spearman": "Spearman",
    "kendall": "Kendall",
    "pairwise_accuracy": "Acc",
    "spa": "SPA",
    "kendall_b": "Kendall τb",
    "acc23_item": "acc23",
}
MEANINGS: Final = {
    "pearson": "Pearson correlation",
    "spearman": "Spearman rank correlation",
    "kendall": "Kendall tau-b",
    "pairwise_accuracy": "pairwise accuracy (Kocmi et al. 2021): the share of system pairs "
    "the metric orders as the humans do",
    "spa": "soft pairwise accuracy (WMT24): pairwise accuracy weighted by how sure both "
    "sides are (needs every pair judged)",
    "kendall_b": "Kendall tau-b over all judged (system, segment) pairs",
    "acc23_item": "acc23 (Deutsch et al. 2023): pairwise accuracy with ties, with the "
    "metric's optimised tie threshold, averaged over segments",
}
#: The scatter's least height when the table takes what it needs (pixels).
SCATTER_HEIGHT: Final = 200
#: Below this width (pixels) the cells leave their intervals to the tooltips, and the scatter
#: and the clusters become two tabs.
NARROW: Final = 720
STATISTICS: Final[dict[Level, tuple[str, ...]]] = {
    "system": SYSTEM_STATISTICS,
    "segment": SEGMENT_STATISTICS,
}


# -- what is compared ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True, eq=False)
class HumanChoice:
    """One human judgement the tab can compare the metrics with.

    ``id`` is ``column:KEY`` for a column of the score table (per segment), or ``system:NAME``
    for judgements per system held by the comparison session. ``column`` gives the direction,
    and ``values`` are the per-system scores of a judgement per system.
    """

    id: str
    label: str
    level: Level
    column: ScoreColumn
    key: str | None = None
    values: FloatArray | None = None


def human_choices(core: ComparisonSession) -> list[HumanChoice]:
    """The human sides on offer: the comparison's human columns (MQM, ESA, imported human
    judgements), other imported columns after them, then its judgements per system."""
    table = core.table
    columns = [
        c
        for c in table.columns
        if c.kind == "score" and (c.metric in HUMAN_METRICS or c.key in table.external)
    ]
    columns.sort(key=lambda c: c.metric not in HUMAN_METRICS)
    out = [
        HumanChoice(f"column:{c.key}", f"{c.label} (per segment)", "segment", c, key=c.key)
        for c in columns
    ]
    out += [
        HumanChoice(
            f"system:{j.name}", f"{j.name} (per system)", "system", j.column, values=j.values
        )
        for j in core.system_judgements()
    ]
    return out


def metric_choices(table: ScoreTable, human: HumanChoice | None) -> list[ScoreColumn]:
    """The score columns that can be meta-evaluated: every chart column but human ones."""
    key = None if human is None else human.key
    return [c for c in chart_columns(table) if c.metric not in HUMAN_METRICS and c.key != key]


@dataclass(frozen=True, slots=True, eq=False)
class AgreementRun:
    """What one run computed, and on which rows.

    ``corpus[name]`` is each metric's corpus figure per system of ``result.systems`` (the
    systems with a human score) over the rows, and ``human_scores`` the human score of each on
    its own scale: the judgement per system, or the mean of the judged segments. ``left_out``
    lists the metrics that could not be compared, with the reason.
    """

    result: MetaEvalResult
    human: HumanChoice
    metrics: tuple[ScoreColumn, ...]
    corpus: Mapping[str, tuple[float, ...]]
    human_scores: tuple[float, ...]
    left_out: tuple[str, ...]
    n_rows: int
    filtered: bool
    full: bool
    fingerprint: tuple[object, ...] = ()


def _expected_polls(n_metrics: int, segment: bool, settings: MetaEvalSettings) -> int:
    """How often :func:`~core.analysis.metaeval.metaevaluate` polls its cancel function: once
    per statistic of each metric, then once per pair of metrics per ranked statistic."""
    per_metric = len(SYSTEM_STATISTICS) + (len(SEGMENT_STATISTICS) if segment else 0)
    polls = n_metrics * per_metric
    if settings.permutations > 0 and n_metrics > 1:
        pairs = n_metrics * (n_metrics - 1) // 2
        polls += 1 + pairs * per_metric
    return max(1, polls)


def compute_agreement(
    table: ScoreTable,
    metric_keys: Sequence[str],
    human: HumanChoice,
    *,
    rows: npt.ArrayLike,
    settings: MetaEvalSettings,
    filtered: bool = False,
    cancelled: Callable[[], bool] = lambda: False,
    progress: Callable[[float], None] = lambda fraction: None,
) -> AgreementRun:
    """The tab's numbers (a pure function of core data, run in the background job): the
    metrics ``metric_keys`` of a fully scored ``table`` against ``human`` on ``rows``.

    A column is meta-evaluated by :func:`~core.analysis.metaeval.metaevaluate_table`. Judgements
    per system go to :func:`~core.analysis.metaeval.metaevaluate`, turned higher-is-better. A
    metric without a value where humans judged is left out and named. ValueError says why
    nothing can be compared.
    """
    index = np.asarray(rows, dtype=np.int64)
    human_values = None if human.key is None else table.scores[:, :, table.metric_index(human.key)]
    keys: list[str] = []
    labels: set[str] = set()
    left_out: list[str] = []
    for key in metric_keys:
        column = table.column_info(key)
        if column.label in labels:
            left_out.append(f"{column.label} ({key}): another column has that name")
            continue
        values = table.scores[:, index, table.metric_index(key)]
        if human_values is not None:
            missing = np.isnan(values) & ~np.isnan(human_values[:, index])
        else:
            assert human.values is not None
            missing = np.isnan(values).all(axis=1) & ~np.isnan(human.values)
        if missing.any():
            left_out.append(f"{column.label}: no value where humans judged")
            continue
        keys.append(key)
        labels.add(column.label)
    if not keys:
        raise ValueError("no metric has a value wherever the humans judged")
    polls = [0]
    expected = _expected_polls(len(keys), human.level == "segment", settings)

    def poll() -> bool:
        if cancelled():
            raise JobCancelled
        polls[0] += 1
        progress(min(0.99, polls[0] / expected))
        return False

    if human.key is not None:
        result = metaevaluate_table(
            table, keys, human.key, rows=index, settings=settings, cancel=poll
        )
    else:
        assert human.values is not None
        result = metaevaluate(
            metric_columns(table, keys),
            HumanColumn(human.column.label, systems=human.column.oriented(human.values)),
            systems=table.systems,
            rows=index,
            settings=settings,
            cancel=poll,
        )
    where = [table.systems.index(s) for s in result.systems]
    figures = [table.corpus(s, index, metrics=keys) for s in where]
    corpus = {table.column_info(k).label: tuple(f.value(k) for f in figures) for k in keys}
    if human_values is not None:
        with np.errstate(invalid="ignore"):
            judged = human_values[where][:, index]
            scores = tuple(float(np.nanmean(r)) for r in judged)
    else:
        assert human.values is not None
        scores = tuple(float(human.values[s]) for s in where)
    progress(1.0)
    return AgreementRun(
        result,
        human,
        tuple(table.column_info(k) for k in keys),
        corpus,
        scores,
        tuple(left_out),
        int(index.size),
        filtered,
        full=settings != QUICK,
    )


def format_estimate(
    estimate: Estimate | None, cluster: int | None = None, *, interval: bool = True
) -> str:
    """``0.777 (2)`` and, on a second line, ``[0.700, 0.822]`` (with ``interval``); ``–`` for
    no value."""
    if estimate is None or not math.isfinite(estimate.value):
        return "–"
    text = f"{estimate.value:.3f}"
    if cluster is not None:
        text += f" ({cluster})"
    if interval and estimate.low is not None and estimate.high is not None:
        text += f"\n[{estimate.low:.3f}, {estimate.high:.3f}]"
    return text


# -- the table -------------------------------------------------------------------------------------


class AgreementModel(QAbstractTableModel):
    """Rows: the metrics; columns: the metric's name, then the statistics of one level. A cell
    is the value, its significance cluster in parentheses (1 = best) and its interval below
    (in the tooltip only when :attr:`intervals` is off: a narrow dock). The best value of each
    statistic is bold, and the metrics of the best cluster are in the theme's "better" colour.
    ``Qt.UserRole`` gives the :class:`~core.analysis.metaeval.Estimate`."""

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
        what = f"{self.level.capitalize()}-level {MEANINGS[statistic]} of {name} against"
        lines = [f"{what} {run.human.column.label}."]
        if estimate is None or not math.isfinite(estimate.value):
            if statistic == "spa":
                lines.append("SPA needs every (system, segment) pair of the rows judged.")
            else:
                lines.append("Not computable from these judgements.")
            return "\n".join(lines)
        lines.append(f"Value: {estimate.value!r}")
        if estimate.low is not None and estimate.high is not None:
            lines.append(
                f"{result.settings.confidence:.0%} interval over "
                f"{result.settings.confidence_samples:,} segment resamples: "
                f"{estimate.low:.4f} to {estimate.high:.4f}"
            )
        if cluster is not None:
            ranking = result.ranking(self.level, statistic)
            assert ranking is not None
            lines.append(
                f"Significance cluster {cluster} of {max(ranking.clusters)} (1 = best; "
                f"permutation tests, {result.settings.permutations:,} permutations, "
                f"p ≤ {result.settings.p_threshold})"
            )
        if self.is_best(row, column):
            lines.append("The best value of this statistic.")
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
            return "Metric" if section == 0 else LABELS[self.statistics[section - 1]]
        if role == Qt.ItemDataRole.ToolTipRole and section > 0:
            statistic = self.statistics[section - 1]
            return f"{self.level.capitalize()} level: {MEANINGS[statistic]}"
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


def _view(model: AgreementModel) -> QTableView:
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
        self.combo.setToolTip("The metric on the horizontal axis")
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
        row.addWidget(QLabel("Metric:"))
        row.addWidget(self.combo, 1)
        box = QVBoxLayout(self)
        box.setContentsMargins(0, 0, 0, 0)
        box.addLayout(row)
        box.addWidget(self.graphics, 1)
        #: The points, the systems' names and the lines to names set apart from their point.
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
        rows = f"{run.n_rows:,} {'selected ' if run.filtered else ''}segments"
        plot.setLabel("bottom", f"corpus {column.label} ({rows}){better_note(column)}")
        mean = "" if run.human.level == "system" else "mean "
        plot.setLabel("left", f"{mean}{human.label}{better_note(human)}")
        figures = result.metric(name).system
        pearson = figures.get("pearson")
        value = "" if pearson is None else f": Pearson {pearson.value:.3f}"
        self._panel.style_plot(plot, f"{name} against {human.label}{value}")
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


# -- the panel -------------------------------------------------------------------------------------


class AgreementPanel(JobPanel):
    """How well each metric agrees with a human judgement, on the selected rows."""

    title = "Human agreement"
    job_name = "matchlight-agreement"
    failure = "The agreement could not be computed"
    progress_width = 120
    progress_text = True

    def __init__(self, link: ChartLink, parent: QWidget | None = None) -> None:
        super().__init__(link, parent)
        self.human_combo = QComboBox()
        self.human_combo.setToolTip("The human judgements the metrics are compared with")
        compact(self.human_combo, 20)
        self.human_combo.currentIndexChanged.connect(self._on_choice_changed)
        self.metrics_button = QToolButton()
        self.metrics_button.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        self.metrics_button.setToolTip("The score columns to meta-evaluate")
        self.metrics_menu = QMenu(self.metrics_button)
        self.metrics_button.setMenu(self.metrics_menu)
        self.quick_check = QCheckBox("Quick")
        self.quick_check.setToolTip(
            "Point values only: no intervals and no significance clusters (about a second)"
        )
        self.quick_check.toggled.connect(self._on_choice_changed)
        self.settings_button = QToolButton()
        self.settings_button.setText("Settings")
        self.settings_button.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        self.resamples_spin = QSpinBox()
        self.permutations_spin = QSpinBox()
        self.settings_button.setMenu(self._settings_menu())
        self.cancel_button = QPushButton("Cancel")
        self.cancel_button.setToolTip(
            "Stop computing: the intervals and clusters (Quick is ticked: untick it to compute "
            "them), or the point values (until the rows or the choices change)"
        )
        self.cancel_button.clicked.connect(self._on_cancel_clicked)
        self.cancel_button.hide()
        self.load_button = QToolButton()  # the dock gives it "Load human judgements…"
        for widget in (
            self.human_combo,
            self.metrics_button,
            self.quick_check,
            self.settings_button,
            self.progress,
            self.cancel_button,
            self.load_button,
        ):
            self.controls.addWidget(widget)
        self.controls.addStretch(1)
        self.export_button.menu().addAction("Copy the table as text").triggered.connect(
            self._on_copy_clicked
        )

        self.level_combo = QComboBox()
        self.level_combo.addItem("System level", "system")
        self.level_combo.addItem("Segment level", "segment")
        self.level_combo.setToolTip(
            "System level: the metric's corpus figure against the human score of each system; "
            "segment level: every judged (system, segment) pair"
        )
        self.level_combo.currentIndexChanged.connect(self._on_level_changed)
        self.scope_label = QLabel()
        self.scope_label.setWordWrap(True)
        self.model = AgreementModel(self)
        self.view = _view(self.model)
        self.scatter = SystemScatter(self)
        self.scatter.combo.currentIndexChanged.connect(self._on_scatter_changed)
        self.graphics = self.scatter.graphics  # what the panel's Export writes
        self.plot = self.scatter.plot
        self.clusters = QTreeWidget()
        self.clusters.setHeaderLabels(["Significance clusters, best first"])
        self.clusters.setIndentation(12)
        self.clusters.setWordWrap(True)
        self.clusters.setMinimumHeight(60)
        upper = QWidget()
        self._upper_box = upper_box = QVBoxLayout(upper)
        upper_box.setContentsMargins(0, 0, 0, 0)
        self._top = QWidget()
        top_row = QHBoxLayout(self._top)
        top_row.setContentsMargins(0, 0, 0, 0)
        top_row.addWidget(self.level_combo)
        top_row.addWidget(self.scope_label, 1)
        upper_box.addWidget(self._top)
        upper_box.addWidget(self.view, 1)
        # Below the table: the scatter and the clusters side by side in a wide panel, as two
        # tabs in a narrow one (the dock at a side of a laptop's window).
        self.lower_tabs = QTabWidget()
        self.lower_tabs.setDocumentMode(True)
        self.lower_split = QSplitter(Qt.Orientation.Horizontal)
        lower = QWidget()
        lower_box = QVBoxLayout(lower)
        lower_box.setContentsMargins(0, 0, 0, 0)
        lower_box.addWidget(self.lower_tabs)
        lower_box.addWidget(self.lower_split)
        self._narrow: bool | None = None
        self._arrange(narrow=True)
        self.splitter = QSplitter(Qt.Orientation.Vertical)
        self.splitter.addWidget(upper)
        self.splitter.addWidget(lower)
        self.splitter.setChildrenCollapsible(False)
        self.add_body(self.splitter)

        #: The run shown (None: none yet), and what the run in progress is for.
        self.run: AgreementRun | None = None
        self._running: tuple[tuple[object, ...], bool] | None = None
        #: What the user cancelled the point values of (not run again until something changes).
        self._cancelled: tuple[object, ...] | None = None
        #: The user's choices of metrics (key -> meta-evaluated), over the defaults.
        self._chosen: dict[str, bool] = {}
        #: The metrics menu's entries (key, label, checked), as last built.
        self._menu: tuple[tuple[str, str, bool], ...] = ()
        #: Bumped whenever the scores or the human judgements change.
        self._version = 0
        self.listen(link.session_changed, self._on_session_changed)
        self.listen(link.data_changed, self._on_data_changed)
        self.apply_theme()

    def _settings_menu(self) -> QMenu:
        """Resamples and permutations of the full run (the WMT tasks': 1,000 each)."""
        defaults = MetaEvalSettings()
        form = QWidget()
        layout = QFormLayout(form)
        layout.setContentsMargins(8, 6, 8, 6)
        for spin, value, label, tip in (
            (
                self.resamples_spin,
                defaults.confidence_samples,
                "Resamples:",
                "Segment resamples for the 95% intervals (WMT: 1,000; 0: no intervals)",
            ),
            (
                self.permutations_spin,
                defaults.permutations,
                "Permutations:",
                "Permutations of the test between two metrics (WMT: 1,000; 0: no clusters)",
            ),
        ):
            spin.setRange(0, 100_000)
            spin.setValue(value)
            spin.setToolTip(tip)
            spin.setKeyboardTracking(False)
            spin.setGroupSeparatorShown(True)
            spin.valueChanged.connect(self._on_choice_changed)
            layout.addRow(label, spin)
        menu = QMenu(self)
        action = QWidgetAction(menu)
        action.setDefaultWidget(form)
        menu.addAction(action)
        return menu

    def _arrange(self, *, narrow: bool) -> None:
        """The scatter and the clusters as tabs (narrow) or side by side (wide)."""
        if narrow == self._narrow:
            return
        self._narrow = narrow
        self.model.set_intervals(not narrow)
        if narrow:
            self.lower_tabs.addTab(self.scatter, "Scatter")
            self.lower_tabs.addTab(self.clusters, "Clusters")
        else:
            self.lower_split.addWidget(self.scatter)
            self.lower_split.addWidget(self.clusters)
            self.lower_split.setSizes([700, 300])
            self.scatter.show()  # a tab page that was not the current one is hidden
            self.clusters.show()
        self.lower_tabs.setVisible(narrow)
        self.lower_split.setVisible(not narrow)
        self._fit_rows()

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._arrange(narrow=event.size().width() < NARROW)
        self._fit_rows()

    # -- choices --------------------------------------------------------------------------------

    @property
    def human(self) -> HumanChoice | None:
        wanted = self.human_combo.currentData()
        core = self.link.core
        if core is None or not isinstance(wanted, str):
            return None
        return next((h for h in human_choices(core) if h.id == wanted), None)

    @property
    def level(self) -> Level:
        return "segment" if self.level_combo.currentData() == "segment" else "system"

    def metric_keys(self) -> tuple[str, ...]:
        """The score columns meta-evaluated: the user's choice, else the headline ones."""
        table = self.link.table
        if table is None:
            return ()
        columns = metric_choices(table, self.human)
        return tuple(c.key for c in columns if self._chosen.get(c.key, c.headline))

    def settings(self) -> MetaEvalSettings:
        """The full run's settings (the WMT ones unless changed)."""
        return MetaEvalSettings(
            confidence_samples=int(self.resamples_spin.value()),
            permutations=int(self.permutations_spin.value()),
        )

    def set_choices(
        self,
        *,
        human: str | None = None,
        metrics: Sequence[str] | None = None,
        quick: bool | None = None,
        resamples: int | None = None,
        permutations: int | None = None,
        level: Level | None = None,
    ) -> None:
        """Choose the human side (its id: ``column:KEY`` or ``system:NAME``), the metrics (their
        keys), quick mode, the full run's resamples and permutations, and the level shown."""
        self._update_choices()
        if human is not None:
            index = self.human_combo.findData(human)
            if index < 0:
                raise ValueError(f"{human!r} is not offered")
            self.human_combo.setCurrentIndex(index)
        table = self.link.table
        if metrics is not None and table is not None:
            offered = [c.key for c in metric_choices(table, self.human)]
            unknown = set(metrics) - set(offered)
            if unknown:
                raise ValueError(f"not offered: {sorted(unknown)}")
            self._chosen = {key: key in metrics for key in offered}
        for spin, value in (
            (self.resamples_spin, resamples),
            (self.permutations_spin, permutations),
        ):
            if value is not None:
                spin.setValue(value)
        if quick is not None:
            self.quick_check.setChecked(quick)
        if level is not None:
            self.level_combo.setCurrentIndex(self.level_combo.findData(level))
        self._update_choices()
        self.schedule()

    def _update_choices(self) -> None:
        core = self.link.core
        humans = [] if core is None else human_choices(core)
        fill_combo(self.human_combo, [(h.label, h.id) for h in humans])
        table = self.link.table
        human = self.human
        columns = [] if table is None else metric_choices(table, human)
        shown = tuple((c.key, c.label, self._chosen.get(c.key, c.headline)) for c in columns)
        if shown != self._menu:
            self._menu = shown
            self.metrics_menu.clear()
            for key, label, checked in shown:
                action = QAction(label, self.metrics_menu)
                action.setCheckable(True)
                action.setChecked(checked)
                action.setData(key)
                action.toggled.connect(self._on_metric_toggled)
                self.metrics_menu.addAction(action)
        self.metrics_button.setText(f"Metrics ({sum(1 for *_, on in shown if on)})")
        segment = human is not None and human.level == "segment"
        item = self.level_combo.model().item(1)  # type: ignore[attr-defined]
        item.setEnabled(segment)
        if not segment and self.level_combo.currentData() == "segment":
            self.level_combo.setCurrentIndex(0)

    @Slot(bool)
    def _on_metric_toggled(self, checked: bool) -> None:
        action = self.sender()
        if isinstance(action, QAction):
            self._chosen[str(action.data())] = checked
        self.schedule()

    @Slot()
    def _on_choice_changed(self) -> None:
        self.schedule()

    @Slot()
    def _on_level_changed(self) -> None:
        if self.run is not None:
            self.model.set_run(self.run, self.level)
            self._fit_rows()
            self._show_clusters(self.run)

    @Slot()
    def _on_scatter_changed(self) -> None:
        table = self.link.table
        if self.run is not None and table is not None:
            self.scatter.draw(self.run, table.systems)

    @Slot()
    def _on_session_changed(self) -> None:
        self.job.cancel()
        self._running = None
        self.run = None
        self._chosen = {}
        self.model.set_run(None)
        fill_combo(self.human_combo, [])

    @Slot()
    def _on_data_changed(self) -> None:
        self._version += 1

    def judgements_changed(self, human: str | None = None) -> None:
        """The comparison's human judgements changed (loaded, replaced): offer them, and show
        ``human`` (an id) when given."""
        self._version += 1
        self._update_choices()
        index = -1 if human is None else self.human_combo.findData(human)
        if index >= 0:
            self.human_combo.setCurrentIndex(index)
        self.schedule()

    # -- running --------------------------------------------------------------------------------

    def refresh(self) -> None:
        self._update_choices()
        table = self.link.table
        core = self.link.core
        message = None
        human = self.human
        keys = self.metric_keys()
        rows = np.flatnonzero(self.link.population(self)).astype(np.int64)
        if table is None or core is None:
            message = "Open a comparison to see which metric agrees with human judgements."
        elif len(table.systems) < 2:
            message = "Agreement with humans ranks systems: it needs two or more."
        elif not table.complete:
            message = "Scoring… this view appears when every segment is scored."
        elif human is None:
            message = (
                "No human judgements yet. Load them with File ▸ Load human judgements… (scores "
                "per system such as WMT's DA table, scores per segment, or MQM error spans), "
                "or annotate segments (MQM or ESA) and compare with those."
            )
        elif not keys:
            message = "Choose at least one metric (the Metrics button)."
        elif rows.size == 0:
            message = "No segments are selected."
        if message is not None or table is None or human is None:
            self.job.cancel()
            self.show_placeholder(message or "")
            return
        settings = self.settings()
        fingerprint = (
            id(table),
            self._version,
            human.id,
            keys,
            rows.tobytes(),
            settings.confidence_samples,
            settings.permutations,
        )
        full = not self.quick_check.isChecked()
        run = self.run
        if run is not None and run.fingerprint == fingerprint:
            self.show_body()
            self._show(run)
            if run.full or not full:
                if self.job.running:
                    self.job.cancel()  # a full run no longer wanted
                return
            self._start(table, human, keys, rows, fingerprint, full=True)
            return
        if self._running is not None and self._running[0] == fingerprint:
            return
        if fingerprint == self._cancelled:
            self.show_placeholder(
                "Cancelled. Change the rows, the human side or the metrics to compute again."
            )
            return
        self.model.set_stale(run is not None)
        self._start(table, human, keys, rows, fingerprint, full=False)

    def _start(
        self,
        table: ScoreTable,
        human: HumanChoice,
        keys: tuple[str, ...],
        rows: IntArray,
        fingerprint: tuple[object, ...],
        *,
        full: bool,
    ) -> None:
        if self._running == (fingerprint, full):
            return
        settings = self.settings() if full else QUICK
        core = self.link.core
        filtered = core is not None and core.is_filtered()

        def work(cancelled: Callable[[], bool], progress: Callable[[float], None]) -> object:
            run = compute_agreement(
                table,
                keys,
                human,
                rows=rows,
                settings=settings,
                filtered=filtered,
                cancelled=cancelled,
                progress=progress,
            )
            return replace(run, full=full, fingerprint=fingerprint)

        self._running = (fingerprint, full)
        self._cancelled = None
        self.start_job(work)
        self.cancel_button.show()
        self._update_caption()

    def job_over(self) -> None:
        super().job_over()
        self.cancel_button.hide()
        self._running = None

    @Slot()
    def _on_cancel_clicked(self) -> None:
        """Stop the run: a full one leaves the point values shown and ticks Quick; the point
        values' run leaves a note until something changes."""
        running = self._running
        self.job.cancel()
        if running is None:
            return
        fingerprint, full = running
        if full:
            self.quick_check.setChecked(True)
        else:
            self._cancelled = fingerprint
            self.run = None
            self.model.set_run(None)
            self.show_placeholder(
                "Cancelled. Change the rows, the human side or the metrics to compute again."
            )

    def job_failed(self, message: str) -> None:
        self.run = None
        self.model.set_run(None)
        self.show_placeholder(f"{self.failure}: {message}")

    def job_done(self, result: object) -> None:
        if not isinstance(result, AgreementRun) or result.fingerprint == self._cancelled:
            return  # a run that ended before its cancel reached it
        self.run = result
        self.show_body()
        self._show(result)
        if not result.full and not self.quick_check.isChecked():
            self.schedule()  # the intervals and clusters next, if the rows are still these

    # -- showing --------------------------------------------------------------------------------

    def _show(self, run: AgreementRun) -> None:
        if self.model.run is not run:
            self.model.set_run(run, self.level)
            self._fit_rows()
        self.model.set_stale(False)
        fill_combo(self.scatter.combo, [(m.name, m.name) for m in run.result.metrics])
        table = self.link.table
        self.scatter.draw(run, () if table is None else table.systems)
        self._show_clusters(run)
        result = run.result
        judged = f", {result.n_judged:,} judged pairs" if run.human.level == "segment" else ""
        scope = (
            f"{len(result.systems)} systems judged, {run.n_rows:,} "
            f"{'selected ' if run.filtered else ''}segments{judged}."
        )
        if run.left_out:
            scope += " Left out: " + "; ".join(run.left_out) + "."
        self.scope_label.setText(scope)
        self._update_caption()

    def _fit_rows(self) -> None:
        """Size the table to its cells and give it the height it needs, the scatter the rest
        (at least :data:`SCATTER_HEIGHT`)."""
        view = self.view
        view.resizeColumnsToContents()
        view.resizeRowsToContents()
        splitter = getattr(self, "splitter", None)
        total = 0 if splitter is None else sum(splitter.sizes())
        if splitter is None or total <= 0 or self.model.run is None:
            return
        header = view.horizontalHeader()
        wide = header.length() > view.viewport().width()
        table = (
            header.height()
            + sum(view.rowHeight(r) for r in range(self.model.rowCount()))
            + 2 * view.frameWidth()
            + (view.horizontalScrollBar().sizeHint().height() if wide else 0)
        )
        row = self._top
        above = row.heightForWidth(row.width()) if row.width() > 0 else -1
        spacing = max(0, self._upper_box.spacing())
        top = table + max(above, row.sizeHint().height()) + spacing + 6
        upper = max(min(top, total - SCATTER_HEIGHT), min(top, total // 3))
        splitter.setSizes([upper, total - upper])

    def _update_caption(self) -> None:
        run = self.run
        if run is None:
            self.caption.setText("Computing the agreement of each metric with the humans…")
            return
        settings = run.result.settings
        human = run.human.column
        way = "higher" if human.higher_is_better else "lower"
        text = (
            f"Against {human.label} ({way} is better), as mt-metrics-eval computes it for the "
            "WMT metrics task; both sides turned higher-is-better. "
        )
        if run.full and settings.confidence_samples and run.human.level == "segment":
            where = "[low, high]" if self.model.intervals else "Tooltips give"
            text += (
                f"{where}: {settings.confidence:.0%} interval, {settings.confidence_samples:,} "
                "segment resamples. "
            )
        if run.full and settings.permutations:
            text += (
                f"(n): significance cluster, 1 = best ({settings.permutations:,} permutations, "
                f"p ≤ {settings.p_threshold}). "
            )
        text += "Bold: best."
        if self._running is not None and self._running[1] and not run.full:
            text += " Computing intervals and clusters…"
        elif not run.full:
            text += " Quick: point values only."
        self.caption.setText(text)

    def _show_clusters(self, run: AgreementRun) -> None:
        tree = self.clusters
        tree.clear()
        rankings = [r for r in run.result.rankings if r.level == self.level]
        if not rankings:
            why = (
                "Quick: no permutation tests, no clusters."
                if not run.full
                else "No permutation tests (permutations 0, or one metric)."
            )
            tree.addTopLevelItem(QTreeWidgetItem([why]))
            return
        for ranking in rankings:
            parent = QTreeWidgetItem([LABELS[ranking.statistic]])
            parent.setToolTip(0, MEANINGS[ranking.statistic])
            tree.addTopLevelItem(parent)
            groups: dict[int, list[tuple[str, float]]] = {}
            for name, value, cluster in zip(ranking.names, ranking.values, ranking.clusters):
                groups.setdefault(cluster, []).append((name, value))
            for cluster, members in groups.items():
                child = QTreeWidgetItem([f"{cluster}: " + ", ".join(n for n, _ in members)])
                child.setToolTip(0, "\n".join(f"{n}: {v:.3f}" for n, v in members))
                parent.addChild(child)
            parent.setExpanded(True)

    def apply_theme(self) -> None:
        self.model.dark = self.theme.dark
        self.scatter.graphics.setBackground(self.theme.background)
        self.style_plot(self.scatter.plot)

    @Slot()
    def _on_copy_clicked(self) -> None:
        clipboard = QGuiApplication.clipboard()
        if clipboard is not None:
            clipboard.setText(self.model.as_text())
