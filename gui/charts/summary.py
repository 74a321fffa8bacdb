"""Corpus-level figures per system, over all rows and over the filtered rows, plus a histogram.

Everything here is computed from the :class:`~core.scoring.results.ScoreTable`'s additive
statistics by ``core`` (:meth:`ScoreTable.corpus`), so the numbers match ``matchlight score``
exactly. The metrics summarised are the registry's headline columns of the scored metrics. The
widget refreshes at most every :data:`REFRESH_MS` while chunks stream in.

Next to the figures it shows what they depend on: every setting that differs from the
defaults (:func:`settings_note`), and the reproducibility signatures, selectable and with a
Copy button. While nothing is open it shows a line saying so, not empty axes.

Once every row is scored, each figure gets its system's significance cluster on that column
(``[1]`` best; :mod:`core.analysis.clusters`: a system starts a new cluster when it is
significantly worse, paired bootstrap p < 0.05, than the best system of the current cluster),
over all rows and, while a filter is on, over the filtered rows. The paired tests run in a
:class:`~gui.charts.jobs.BackgroundJob`, never in the GUI thread; a line under the figures says
which rows they cover, with which test, or that they are being computed. A reference that looks
made from one system's output (:func:`core.analysis.references.leak_messages`) is said above
the figures, since it is them it inflates.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt
import pyqtgraph as pg
from PySide6.QtCore import (
    QT_TRANSLATE_NOOP,
    QAbstractTableModel,
    QCoreApplication,
    QEvent,
    QModelIndex,
    QPersistentModelIndex,
    QPointF,
    Qt,
    QTimer,
    Signal,
    Slot,
)
from PySide6.QtGui import QColor, QGuiApplication, QIcon, QPalette, QPixmap
from PySide6.QtWidgets import (
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QSizePolicy,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from matchlight.core.analysis.clusters import (
    SIGNIFICANCE_THRESHOLD,
    SystemClusters,
    rank_clusters,
)
from matchlight.core.analysis.columnstats import NotTestable, pairwise_for_column
from matchlight.core.analysis.language import LanguageFlags
from matchlight.core.analysis.references import ReferenceAudit, leak_messages
from matchlight.core.analysis.scales import (
    bin_index,
    clip_to_bounds,
    corpus_decimals,
    display_bounds,
    score_edges,
)
from matchlight.core.analysis.significance import DEFAULT_BOOTSTRAP_SAMPLES, DEFAULT_SEED
from matchlight.core.metrics.base import ScoreColumn
from matchlight.core.metrics.registry import METRICS
from matchlight.core.scoring.config import ScoringConfig
from matchlight.core.scoring.results import CorpusScores, ScoreTable
from matchlight.core.style.palette import OKABE_ITO
from matchlight.gui.charts.distributions import axis_ticks
from matchlight.gui.charts.jobs import BackgroundJob
from matchlight.gui.highlight.palette import is_dark_palette

REFRESH_MS = 150
#: Translated where shown (set at import, before the translator is installed).
NOTHING_OPEN = QT_TRANSLATE_NOOP(
    "summary", "No comparison open. Its corpus scores per system show here."
)
#: The first refresh of a new table comes later, after the burst of work of showing it.
FIRST_REFRESH_MS = 450
#: The histogram's bins for a 0-100 score (another scale gets its own, see score_edges).
HISTOGRAM_EDGES = np.linspace(0.0, 100.0, 21)

#: Okabe–Ito colours as published (core's palette): distinguishable with the common
#: colour-vision deficiencies; the report draws systems in the same ones.
SYSTEM_COLOURS: tuple[str, ...] = OKABE_ITO
#: The histogram's x ticks, 100 included (pyqtgraph's automatic ones stop at 80).
HISTOGRAM_TICKS = [[(float(v), str(v)) for v in range(0, 101, 20)]]

Index = QModelIndex | QPersistentModelIndex

#: The clusters' paired test: sacreBLEU's bootstrap, its default resamples and seed.
CLUSTER_SAMPLES = DEFAULT_BOOTSTRAP_SAMPLES
CLUSTER_SEED = DEFAULT_SEED
#: The leak warning's colours (light, dark), as the comparison dock's.
_WARNING_STYLE = {
    False: "QLabel { background: #fff4ce; color: #4d3800; border: 1px solid #e0b400; "
    "padding: 4px; }",
    True: "QLabel { background: #4d3c00; color: #ffe9a3; border: 1px solid #b38f00; "
    "padding: 4px; }",
}


def system_colour(index: int) -> QColor:
    return QColor(SYSTEM_COLOURS[index % len(SYSTEM_COLOURS)])


def summary_metrics(table: ScoreTable) -> tuple[str, ...]:
    """The columns summarised: the headline score columns of the scored metrics."""
    return tuple(c.key for c in table.columns if c.headline and c.kind == "score")


def _swatch(system: int) -> QIcon:
    pixmap = QPixmap(12, 12)
    pixmap.fill(system_colour(system))
    return QIcon(pixmap)


def corpus_value(scores: CorpusScores, metric: str) -> float:
    return scores.value(metric)


def _format(value: float, column: ScoreColumn) -> str:
    """A corpus figure one decimal more precise than the column's segment values (BLEU two,
    as sacreBLEU's corpus scores are quoted; a 0-1 COMET four)."""
    return "–" if math.isnan(value) else f"{value:.{corpus_decimals(column)}f}"


def _setting_text(metric_label: str, label: str, kind: str, value: object) -> str:
    words = label[len(metric_label) :].strip() if label.startswith(metric_label) else label
    words = words[:1].lower() + words[1:]
    if kind == "flag":
        return words if value else f"no {words}"
    return f"{words} {value}"


def settings_note(config: ScoringConfig) -> str:
    """The settings of ``config`` that differ from the defaults, in words, for a line next to
    the scores: ``BLEU: tokenizer zh · ROUGE: tokenizer unicode`` ("" when none does)."""
    parts = []
    for key, changes in config.changed().items():
        if key == "text":
            separator = changes.get("sentence_separator")
            shown = "none (ROUGE-Lsum = ROUGE-L)" if separator is None else repr(separator)
            parts.append(
                QCoreApplication.translate("summary", "sentence separator {shown}").format(
                    shown=shown
                )
            )
            continue
        metric = METRICS[key]
        specs = {spec.key: spec for spec in metric.settings}
        words = [
            _setting_text(metric.label, specs[name].label, specs[name].kind, value)
            for name, value in changes.items()
            if name in specs
        ]
        parts.append(f"{metric.label}: {', '.join(words)}")
    return " · ".join(parts)


def _per_system(names: Sequence[str], counts: Sequence[int]) -> str:
    """``A 3, C 1, others 0``: the systems with rows, then the rest together."""
    some = [f"{name} {count:,}" for name, count in zip(names, counts, strict=True) if count]
    if len(some) < len(names):
        some.append("others 0" if some else "")
    return ", ".join(part for part in some if part)


def language_note(flags: LanguageFlags) -> str:
    """The language check per system, in a line for the summary: how many outputs are in
    another language than the references, and how many copy the source."""
    names = flags.systems
    counts = flags.counts()
    wrong = [w for w, _c in counts]
    copies = [c for _w, c in counts]
    parts = []
    if flags.expectation is None:
        parts.append(
            QCoreApplication.translate(
                "summary", "references in no clear language: outputs not checked"
            )
        )
    else:
        language = QCoreApplication.translate("summary", "than the references ({0})").format(
            flags.expectation.language
        )
        parts.append(
            QCoreApplication.translate(
                "summary", "output in another language {language}: {0}"
            ).format(_per_system(names, wrong), language=language)
            if any(wrong)
            else QCoreApplication.translate(
                "summary", "no output in another language {language}"
            ).format(language=language)
        )
    if not flags.has_source:
        parts.append(QCoreApplication.translate("summary", "no source file to find copies"))
    else:
        parts.append(
            QCoreApplication.translate("summary", "copying the source: {0}").format(
                _per_system(names, copies)
            )
            if any(copies)
            else QCoreApplication.translate("summary", "none copying the source")
        )
    return QCoreApplication.translate("summary", "Language check: ") + " · ".join(parts)


class SummaryModel(QAbstractTableModel):
    """Rows = systems (and, while a filter is active, each system's filtered rows too);
    columns = metrics. ``Qt.UserRole`` returns the unrounded float.
    """

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._systems: tuple[str, ...] = ()
        self._metrics: tuple[str, ...] = ()
        self._columns: dict[str, ScoreColumn] = {}
        self._scopes: tuple[str, ...] = ("all",)
        self._values: dict[tuple[str, int, str], CorpusScores] = {}
        self._counts: dict[str, int] = {}
        self._clusters: dict[tuple[str, str], SystemClusters] = {}
        self._cluster_rows: dict[str, int] = {}
        #: Whether the view's background is dark (the filtered rows' blue follows it).
        self.dark = False

    # -- updating ------------------------------------------------------------------------------

    def set_values(
        self,
        systems: Sequence[str],
        metrics: Sequence[ScoreColumn],
        values: dict[tuple[str, int, str], CorpusScores],
        counts: dict[str, int],
    ) -> None:
        """Replace the figures; ``values[(scope, system, column key)]``, scope all/filtered."""
        self._columns = {c.key: c for c in metrics}
        metric_keys = tuple(c.key for c in metrics)
        scopes = tuple(s for s in ("all", "filtered") if s in counts) or ("all",)
        shape_changed = (
            tuple(systems) != self._systems
            or metric_keys != self._metrics
            or scopes != self._scopes
        )
        if shape_changed:
            self.beginResetModel()
        self._systems = tuple(systems)
        self._metrics = metric_keys
        self._scopes = scopes
        self._values = values
        self._counts = counts
        if shape_changed:
            self.endResetModel()
        elif self.rowCount() and self.columnCount():
            self.dataChanged.emit(
                self.index(0, 0), self.index(self.rowCount() - 1, self.columnCount() - 1)
            )
            self.headerDataChanged.emit(Qt.Orientation.Vertical, 0, self.rowCount() - 1)

    def set_clusters(
        self, clusters: dict[tuple[str, str], SystemClusters], rows: dict[str, int]
    ) -> None:
        """Replace the clusters: ``clusters[(scope, column key)]``, computed over ``rows[scope]``
        rows (a scope or column missing: no rank shown there)."""
        if clusters == self._clusters and rows == self._cluster_rows:
            return
        self._clusters = dict(clusters)
        self._cluster_rows = dict(rows)
        if self.rowCount() and self.columnCount():
            self.dataChanged.emit(
                self.index(0, 0), self.index(self.rowCount() - 1, self.columnCount() - 1)
            )

    def cluster(self, system: int, metric: str, scope: str = "all") -> int | None:
        """The significance cluster of ``system`` on column ``metric`` (1 = best), or None."""
        found = self._clusters.get((scope, metric))
        if found is None or not 0 <= system < len(self._systems):
            return None
        name = self._systems[system]
        return found.cluster_of(name) if name in found.names else None

    def _cluster_tip(self, system: int, metric: str, scope: str) -> str | None:
        found = self._clusters.get((scope, metric))
        rank = self.cluster(system, metric, scope)
        if found is None or rank is None:
            return None
        name = self._systems[system]
        at = found.names.index(name)
        rows = self._cluster_rows.get(scope, 0)
        text = QCoreApplication.translate(
            "SummaryModel", "significance cluster {rank} of {0} over {rows:,} rows"
        ).format(max(found.clusters), rank=rank, rows=rows)
        p = found.p_values[at]
        if p is not None:
            # Tested against the best of its cluster, or of the one above if it opened its own.
            opens = found.clusters[at - 1] < rank
            head = found.names[found.clusters.index(rank - 1 if opens else rank)]
            text += QCoreApplication.translate(
                "SummaryModel", "; p = {p:.4f} against {head}, the best of cluster {0}"
            ).format(rank - opens, p=p, head=head)
        return text

    def value(self, system: int, metric: str, scope: str = "all") -> float:
        scores = self._values.get((scope, system, metric))
        return math.nan if scores is None else corpus_value(scores, metric)

    def row_of(self, system: int, scope: str = "all") -> int:
        return system * len(self._scopes) + self._scopes.index(scope)

    def _row(self, row: int) -> tuple[int, str]:
        return row // len(self._scopes), self._scopes[row % len(self._scopes)]

    # -- Qt model API --------------------------------------------------------------------------

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._systems) * len(self._scopes)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._metrics)

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or not self.hasIndex(index.row(), index.column()):
            return None
        system, scope = self._row(index.row())
        metric = self._metrics[index.column()]
        value = self.value(system, metric, scope)
        if role == Qt.ItemDataRole.DisplayRole:
            text = _format(value, self._columns[metric])
            rank = self.cluster(system, metric, scope)
            return text if rank is None else f"{text} [{rank}]"
        if role == Qt.ItemDataRole.UserRole:
            return value
        if role == Qt.ItemDataRole.TextAlignmentRole:
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        if role == Qt.ItemDataRole.ForegroundRole and scope == "filtered":
            return QColor("#8ab8e6" if self.dark else "#1f5a92")
        if role == Qt.ItemDataRole.ToolTipRole:
            scores = self._values.get((scope, system, metric))
            if scores is None:
                return None
            n = scores.n_segments
            rows = (
                QCoreApplication.translate("SummaryWidget", "{0} row")
                if n == 1
                else QCoreApplication.translate("SummaryWidget", "{0} rows")
            ).format(n)
            column = self._columns[metric]
            what = (
                QCoreApplication.translate("SummaryWidget", "corpus {0}")
                if column.corpus == "stats"
                else QCoreApplication.translate("SummaryWidget", "mean {0}")
            ).format(column.label)
            text = (
                QCoreApplication.translate(
                    "SummaryWidget", "{what} over {rows} = {value} (higher is better)"
                )
                if column.higher_is_better
                else QCoreApplication.translate(
                    "SummaryWidget", "{what} over {rows} = {value} (lower is better)"
                )
            ).format(what=what, rows=rows, value=_format(value, column))
            describe = getattr(scores.details.get(column.metric), "describe", None)
            if column.corpus == "stats" and callable(describe):
                text += f"\n{describe()}"
            cluster = self._cluster_tip(system, metric, scope)
            if cluster is not None:
                text += f"\n{cluster}"
            return text
        return None

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if orientation == Qt.Orientation.Vertical:
            if not 0 <= section < self.rowCount():
                return None
            system, scope = self._row(section)
            if role == Qt.ItemDataRole.DisplayRole:
                if scope == "all":
                    return self._systems[system]
                return QCoreApplication.translate("SummaryModel", "  filtered ({0})").format(
                    self._counts.get(scope, 0)
                )
            if role == Qt.ItemDataRole.ToolTipRole:
                what = (
                    QCoreApplication.translate("SummaryModel", "all rows")
                    if scope == "all"
                    else QCoreApplication.translate("SummaryModel", "the rows the filter keeps")
                )
                return QCoreApplication.translate("SummaryModel", "{0} over {1}").format(
                    self._systems[system], what
                )
            if role == Qt.ItemDataRole.DecorationRole and scope == "all":
                return _swatch(system)  # the colour of its histogram curve
            return None
        if not 0 <= section < self.columnCount():
            return None
        column = self._columns[self._metrics[section]]
        if role == Qt.ItemDataRole.DisplayRole:
            return column.short
        if role == Qt.ItemDataRole.ToolTipRole:
            return column.description
        return None


class SummaryWidget(QWidget):
    """The corpus-score table and a histogram of sentence BLEU, for the summary dock; with
    the non-default settings and the signatures of the figures.

    Signals:
        rows_clicked(object rows, str label): a click on a histogram bin asks to select
            ``rows`` (int64 row numbers): the rows of the nearest curve's system in that bin,
            among the rows drawn.
    """

    rows_clicked = Signal(object, str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._table: ScoreTable | None = None
        # What the histogram draws: (rows, score column index, column label).
        self._drawn: tuple[npt.NDArray[np.int64], int, str] | None = None
        # Its bins, and the range its values are clipped to (the column's scale).
        self.edges: npt.NDArray[np.float64] = HISTOGRAM_EDGES
        self._bounds: tuple[float, float] = (0.0, 100.0)
        self._filtered: npt.NDArray[np.int64] | None = None
        # Figures over all scored rows, kept while no new row is scored (a filter change
        # recomputes only the filtered scope): (table, rows done) -> per system.
        self._all_cache: tuple[ScoreTable, int, dict[str, list[CorpusScores]]] | None = None
        #: What the histogram was last drawn from: (table, rows scored, column, filter) ids.
        self._hist_key: tuple[int, int, str, int] | None = None
        self._curves_table: ScoreTable | None = None  # the table self._curves are for
        self._curves: list[pg.PlotDataItem] = []
        self._dark: bool | None = None
        # Significance clusters: (scope, column key) -> clusters, for self._cluster_table and
        # the filtered rows fingerprinted by self._cluster_filter; columns that cannot be
        # ranked, with why; the run under way (its token) and the rows each scope covers.
        self._cluster_table: ScoreTable | None = None
        self._cluster_filter: bytes | None = None
        self._cluster_cache: dict[tuple[str, str], SystemClusters] = {}
        self._cluster_reasons: dict[tuple[str, str], str] = {}
        self._cluster_running: tuple[object, ...] | None = None
        self._cluster_progress = 0.0
        # The reference audit behind the warning: (systems, rows) it was made for.
        self._audited: tuple[tuple[str, ...], int] | None = None

        self.warning_label = QLabel()
        self.warning_label.setObjectName("reference-warning")
        self.warning_label.setWordWrap(True)
        self.warning_label.setTextFormat(Qt.TextFormat.PlainText)
        self.warning_label.setToolTip(
            QCoreApplication.translate(
                "SummaryWidget",
                "A reference that equals one system's output on far more lines than any "
                "other system's favours that system: its figures above are inflated "
                "(Compare systems ▸ References scores each reference alone)",
            )
        )
        self.warning_label.hide()
        self.cluster_label = QLabel()
        self.cluster_label.setObjectName("cluster-note")
        self.cluster_label.setWordWrap(True)
        self.cluster_label.setTextFormat(Qt.TextFormat.PlainText)
        self.cluster_label.hide()
        self.cluster_job = BackgroundJob(self, name="matchlight-clusters")
        self.cluster_job.finished.connect(self._on_clusters_finished)
        self.cluster_job.failed.connect(self._on_clusters_failed)
        self.cluster_job.progress_changed.connect(self._on_clusters_progress)

        self.caption = QLabel(QCoreApplication.translate("summary", NOTHING_OPEN))
        self.caption.setWordWrap(True)
        self.caption.setToolTip(
            QCoreApplication.translate(
                "SummaryWidget",
                "Corpus BLEU and chrF come from the summed statistics (as sacreBLEU's "
                "corpus scores); ROUGE F is the plain mean of the sentence scores.",
            )
        )
        self.settings_label = QLabel()
        self.settings_label.setObjectName("settings-note")
        self.settings_label.setWordWrap(True)
        self.settings_label.setTextFormat(Qt.TextFormat.PlainText)
        self.settings_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.settings_label.setToolTip(
            QCoreApplication.translate(
                "SummaryWidget",
                "The scoring settings that differ from sacreBLEU's and rouge-score's "
                "defaults (Scoring ▸ Scoring settings)",
            )
        )
        self._language: LanguageFlags | None = None
        self.language_label = QLabel()
        self.language_label.setObjectName("language-check")
        self.language_label.setWordWrap(True)
        self.language_label.setTextFormat(Qt.TextFormat.PlainText)
        self.language_label.setToolTip(
            QCoreApplication.translate(
                "SummaryWidget",
                "Rows of each system whose output is in another language than the "
                "references, and rows that copy the source (Show ▸ in the filter bar keeps "
                "them); lines too short to tell are never counted",
            )
        )
        self.model = SummaryModel(self)
        self.view = QTableView()
        self.view.setModel(self.model)
        self.view.setEditTriggers(QTableView.EditTrigger.NoEditTriggers)
        self.view.setSelectionMode(QTableView.SelectionMode.NoSelection)
        self.view.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.view.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        self.view.horizontalHeader().setStretchLastSection(False)
        # Many columns (or their cluster ranks) in a narrow dock: scroll rather than hide.
        self.view.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAsNeeded)
        self.view.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAsNeeded)
        self.view.setVerticalScrollMode(QTableView.ScrollMode.ScrollPerPixel)
        self.view.setHorizontalScrollMode(QTableView.ScrollMode.ScrollPerPixel)

        self.plot = pg.PlotWidget(background="w")
        self.plot.setMenuEnabled(False)
        self.plot.setMouseEnabled(x=False, y=False)
        self.plot.hideButtons()
        self.plot.setLabel(
            "bottom",
            QCoreApplication.translate("SummaryWidget", "sentence BLEU"),
        )
        self.plot.setLabel("left", QCoreApplication.translate("SummaryWidget", "rows"))
        self.plot.setXRange(0, 100, padding=0.02)
        self.plot.getPlotItem().setTitle(
            QCoreApplication.translate("SummaryWidget", "Sentence BLEU per system"), size="9pt"
        )
        # No legend over the curves: the figures above are the legend (each system's row
        # starts with its colour).
        self.plot.getAxis("bottom").setTicks(HISTOGRAM_TICKS)
        # The "100" label reaches past the axis's end; pyqtgraph hides such labels by default.
        self.plot.getAxis("bottom").setStyle(hideOverlappingLabels=False)
        self.plot.scene().sigMouseClicked.connect(self._on_plot_clicked)
        self.plot.setToolTip(
            QCoreApplication.translate(
                "SummaryWidget",
                "Click a bin to select that system's rows in it (the nearest curve)",
            )
        )
        self.plot.setMinimumHeight(140)
        self.plot.getPlotItem().setContentsMargins(2, 2, 14, 2)  # room for the "100" tick

        self.signature_field = QPlainTextEdit()
        self.signature_field.setObjectName("signature")
        self.signature_field.setReadOnly(True)
        self.signature_field.setLineWrapMode(QPlainTextEdit.LineWrapMode.WidgetWidth)
        self.signature_field.setToolTip(
            QCoreApplication.translate(
                "SummaryWidget",
                "The reproducibility signatures of the figures above (sacreBLEU's and "
                "rouge-score's own where they exist); they are also written with every "
                "export",
            )
        )
        lines = self.signature_field.fontMetrics().lineSpacing()
        self.signature_field.setFixedHeight(4 * lines + 12)
        self.signature_field.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Fixed)
        self.copy_signature_button = QPushButton(
            QCoreApplication.translate("SummaryWidget", "Copy signatures")
        )
        self.copy_signature_button.setToolTip(
            QCoreApplication.translate("SummaryWidget", "Copy the signatures to the clipboard")
        )
        self.copy_signature_button.clicked.connect(self.copy_signatures)
        signature_bar = QHBoxLayout()
        signature_bar.setContentsMargins(0, 0, 0, 0)
        signature_bar.addWidget(QLabel(QCoreApplication.translate("SummaryWidget", "Signatures")))
        signature_bar.addStretch(1)
        signature_bar.addWidget(self.copy_signature_button)
        self._signature_box = QWidget()
        box = QVBoxLayout(self._signature_box)
        box.setContentsMargins(0, 0, 0, 0)
        box.setSpacing(2)
        box.addLayout(signature_bar)
        box.addWidget(self.signature_field)

        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(self.caption)
        layout.addWidget(self.warning_label)
        layout.addWidget(self.settings_label)
        layout.addWidget(self.view)
        layout.addWidget(self.language_label)
        layout.addWidget(self.cluster_label)
        layout.addWidget(self.plot, 1)
        layout.addWidget(self._signature_box)
        self._stretch = QWidget()  # takes the height while nothing is open
        layout.addWidget(self._stretch, 1)
        self.model.modelReset.connect(self._fit_view_height)
        self.view.horizontalScrollBar().rangeChanged.connect(self._on_scroll_range_changed)
        self._fit_view_height()
        self._apply_plot_colours()
        self._show_parts()

        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(REFRESH_MS)
        self._timer.timeout.connect(self.refresh)

    def _show_parts(self) -> None:
        """Figures, histogram and signatures only while a comparison is open."""
        shown = self._table is not None
        for widget in (self.view, self.plot, self._signature_box):
            widget.setVisible(shown)
        self._stretch.setVisible(not shown)
        self.settings_label.setVisible(shown)
        self.language_label.setVisible(shown and self._language is not None)
        self.warning_label.setVisible(shown and bool(self.warning_label.text()))

    def _apply_plot_colours(self) -> None:
        """The histogram in the palette's colours (white on a dark window is a glare)."""
        palette = self.palette()
        dark = is_dark_palette(palette)
        if dark == self._dark:
            return
        self._dark = dark
        self.warning_label.setStyleSheet(_WARNING_STYLE[dark])
        self.model.dark = dark
        if self.model.rowCount() and self.model.columnCount():
            last = self.model.index(self.model.rowCount() - 1, self.model.columnCount() - 1)
            self.model.dataChanged.emit(self.model.index(0, 0), last)
        base = palette.color(QPalette.ColorRole.Base)
        text = palette.color(QPalette.ColorRole.Text)
        axis = palette.color(QPalette.ColorRole.Mid if dark else QPalette.ColorRole.Shadow)
        self.plot.setBackground(base)
        for name in ("left", "bottom"):
            self.plot.getAxis(name).setPen(pg.mkPen(axis))
            self.plot.getAxis(name).setTextPen(pg.mkPen(text))
        self.plot.getPlotItem().titleLabel.setAttr("color", text.name())
        title = self.plot.getPlotItem().titleLabel.text
        self.plot.getPlotItem().setTitle(title, size="9pt", color=text.name())

    def is_dark(self) -> bool:
        return bool(self._dark)

    def changeEvent(self, event: QEvent) -> None:
        kinds = (QEvent.Type.PaletteChange, QEvent.Type.ApplicationPaletteChange)
        if event.type() in kinds:
            self._apply_plot_colours()
        super().changeEvent(event)

    def signature_text(self) -> str:
        """The signatures shown, one per line (``BLEU: nrefs:2|case:mixed|...``)."""
        return self.signature_field.toPlainText()

    @Slot()
    def copy_signatures(self) -> None:
        QGuiApplication.clipboard().setText(self.signature_text())

    def settings_text(self) -> str:
        return self.settings_label.text()

    @Slot(int, int)
    def _on_scroll_range_changed(self, _low: int, _high: int) -> None:
        self._fit_view_height()

    @Slot()
    def _fit_view_height(self) -> None:
        """Make the table exactly as tall as its rows (the histogram takes the rest)."""
        view = self.view
        rows = max(1, self.model.rowCount())
        height = view.horizontalHeader().sizeHint().height() + 2 * view.frameWidth()
        height += rows * view.verticalHeader().defaultSectionSize()
        bar = view.horizontalScrollBar()
        if bar.maximum() > bar.minimum():  # wider than the dock: the bar takes a line
            height += bar.sizeHint().height()
        view.setFixedHeight(min(height, 400))

    # -- inputs --------------------------------------------------------------------------------

    def set_table(self, table: ScoreTable | None) -> None:
        """Summarise ``table`` (a new comparison or a rescore).

        The figures and the curves follow within :data:`REFRESH_MS`, out of the busy moment
        that opening a comparison is (they would take a third of it).
        """
        if table is not self._table:
            self.cluster_job.cancel()  # its tests are of the old table
        self._table = table
        self._all_cache = None
        self._filtered = None  # the rows of another table; the window sets its own
        if self._audited is not None and (
            table is None or self._audited != (tuple(table.systems), table.n_segments)
        ):
            self._set_warning("")  # another comparison: its audit follows
        self.caption.setText(
            QCoreApplication.translate("SummaryWidget", "Scoring…")
            if table is not None
            else QCoreApplication.translate("summary", NOTHING_OPEN)
        )
        if table is None:
            self.signature_field.setPlainText("")
            self.settings_label.setText("")
        else:
            signatures = table.config.signatures(table.nrefs)
            self.signature_field.setPlainText(
                "\n".join(f"{name}: {sig}" for name, sig in signatures.items())
            )
            note = settings_note(table.config)
            self.settings_label.setText(
                QCoreApplication.translate("SummaryWidget", "Settings: {note}").format(note=note)
                if note
                else QCoreApplication.translate(
                    "SummaryWidget", "Settings: the reference tools' defaults"
                )
            )
        self._show_parts()
        self._timer.start(FIRST_REFRESH_MS)

    def set_language_flags(self, flags: LanguageFlags | None) -> None:
        """The language check of the comparison shown (None: not done yet, or none open)."""
        self._language = flags
        self.language_label.setText("" if flags is None else language_note(flags))
        self._show_parts()

    def language_text(self) -> str:
        return self.language_label.text() if self.language_label.isVisibleTo(self) else ""

    def set_filtered_rows(self, rows: Sequence[int] | npt.NDArray[np.int64] | None) -> None:
        """The segments the filter keeps (None: no filter active). Refreshes soon."""
        self._filtered = None if rows is None else np.asarray(rows, dtype=np.int64)
        self.schedule_refresh()

    @Slot(str)
    def column_changed(self, key: str) -> None:
        """A column was added, replaced or removed (imported scores, MQM): its figures and
        clusters are computed again within :data:`REFRESH_MS` (the other columns' figures are
        kept: an annotation edit changes the MQM column alone)."""
        if self._all_cache is not None:
            self._all_cache[2].pop(key, None)
        if self._hist_key is not None and self._hist_key[2] == key:
            self._hist_key = None
        for cache in (self._cluster_cache, self._cluster_reasons):
            for found in [k for k in cache if k[1] == key]:
                del cache[found]
        self._cluster_running = None
        self.schedule_refresh()

    @Slot(object)
    def set_audit(self, audit: object) -> None:
        """Warn above the figures about every reference the ``audit``
        (:class:`~core.analysis.references.ReferenceAudit`) flags; none flagged: no warning."""
        if not isinstance(audit, ReferenceAudit):
            return
        messages = leak_messages(audit)
        systems = tuple(dict.fromkeys(pair.system for pair in audit.pairs))
        rows = audit.pairs[0].n_rows if audit.pairs else 0
        self._audited = (systems, rows)
        self._set_warning("⚠ " + " ".join(messages) if messages else "")

    def warning_text(self) -> str:
        return self.warning_label.text()

    def _set_warning(self, text: str) -> None:
        self.warning_label.setText(text)
        self.warning_label.setVisible(bool(text) and self._table is not None)
        if not text:
            self._audited = None

    @Slot()
    def schedule_refresh(self) -> None:
        """Refresh within :data:`REFRESH_MS` (coalesces bursts of chunks)."""
        if not self._timer.isActive():
            self._timer.start(REFRESH_MS)

    # -- computing -----------------------------------------------------------------------------

    def _rebuild_curves(self) -> None:
        self._curves_table = self._table
        self._hist_key = None  # new curves, no data yet
        for curve in self._curves:
            self.plot.removeItem(curve)
        self._curves = []
        if self._table is None:
            return
        for s, name in enumerate(self._table.systems):
            pen = pg.mkPen(system_colour(s), width=2)
            curve = pg.PlotDataItem(stepMode="center", pen=pen, name=name, antialias=False)
            self.plot.addItem(curve)
            self._curves.append(curve)

    @Slot()
    def refresh(self) -> None:
        """Recompute every figure now."""
        self._timer.stop()
        table = self._table
        if self._curves_table is not table:
            self._rebuild_curves()
        if table is None:
            self._drawn = None
            self.caption.setText(QCoreApplication.translate("summary", NOTHING_OPEN))
            self.model.set_values((), (), {}, {})
            self._update_clusters(None, np.zeros(0, np.int64))
            return
        done = np.flatnonzero(table.done)
        complete = len(done) == table.n_segments
        scopes: dict[str, npt.NDArray[np.int64]] = {"all": done}
        if self._filtered is not None:
            scopes["filtered"] = (
                self._filtered
                if complete
                else np.intersect1d(self._filtered, done, assume_unique=False)
            )
        metrics = summary_metrics(table)
        columns = [table.column_info(key) for key in metrics]
        values: dict[tuple[str, int, str], CorpusScores] = {}
        cache = self._all_cache
        if cache is None or cache[0] is not table or cache[1] != len(done):
            cache = self._all_cache = (table, len(done), {})
        per_column = cache[2]  # a column's figures per system, kept until its values change
        missing = [metric for metric in metrics if metric not in per_column]
        if missing and len(done):
            # While chunks arrive: the table's running totals (no pass over the rows); once
            # every row is scored: the exact figures, over the whole arrays.
            computed = [
                table.corpus(s, metrics=missing)
                if complete
                else table.running_corpus(s, metrics=missing)
                for s in range(len(table.systems))
            ]
            per_column.update(dict.fromkeys(missing, computed))
        for metric in metrics:
            for s, scores in enumerate(per_column.get(metric, ())):
                values[("all", s, metric)] = scores
        rows = scopes.get("filtered")
        if rows is not None and len(rows):
            for s in range(len(table.systems)):
                scores = table.corpus(s, rows=np.sort(rows), metrics=metrics)
                for metric in metrics:
                    values[("filtered", s, metric)] = scores
        counts = {scope: len(rows) for scope, rows in scopes.items()}
        self.model.set_values(table.systems, columns, values, counts)
        self._update_clusters(table, done)

        total = table.n_segments
        parts = []
        if len(done) < total:
            parts.append(
                QCoreApplication.translate(
                    "SummaryWidget", "Scored {0} of {total} rows so far."
                ).format(len(done), total=total)
            )
        else:
            parts.append(
                QCoreApplication.translate("SummaryWidget", "All {total} rows scored.").format(
                    total=total
                )
            )
        if self._filtered is not None:
            parts.append(
                QCoreApplication.translate("SummaryWidget", "Filter keeps {0} rows.").format(
                    len(self._filtered)
                )
            )
        self.caption.setText(" ".join(parts))

        hist_rows = scopes.get("filtered", done)
        shown = columns[0] if columns else table.columns[0]
        # The histogram again only when its rows or its column changed (an annotation edit
        # changes the MQM column, not the sentence scores drawn here).
        hist_key = (id(table), len(done), shown.key, id(self._filtered))
        if hist_key == self._hist_key:
            return
        self._hist_key = hist_key
        column = table.metric_index(shown.key)
        self._drawn = (np.asarray(hist_rows, np.int64), column, shown.label)
        self._bounds = display_bounds(shown, table.scores[:, done, column])
        edges = score_edges(shown, np.array(self._bounds))
        if not np.array_equal(edges, self.edges):
            self.edges = edges
            low, high = float(edges[0]), float(edges[-1])
            self.plot.setXRange(low, high, padding=0.02)
            self.plot.getAxis("bottom").setTicks(axis_ticks(low, high)[:1])
        for s, curve in enumerate(self._curves):
            values_s = table.scores[s, hist_rows, column]
            # Clipped: sentence BLEU can come out as 100.00000000000004.
            finite = clip_to_bounds(values_s[~np.isnan(values_s)], self._bounds)
            counts_s, _ = np.histogram(finite, bins=edges)
            curve.setData(edges, counts_s)
        scope_name = (
            QCoreApplication.translate("SummaryWidget", "filtered rows")
            if "filtered" in scopes
            else QCoreApplication.translate("SummaryWidget", "all rows")
        )
        self.plot.setLabel(
            "bottom",
            QCoreApplication.translate("SummaryWidget", "sentence {0}").format(shown.label),
        )
        self.plot.getPlotItem().setTitle(
            QCoreApplication.translate(
                "SummaryWidget", "Sentence {0} per system ({scope_name})"
            ).format(shown.label, scope_name=scope_name),
            size="9pt",
        )

    # -- significance clusters ------------------------------------------------------------

    def _cluster_scopes(self, table: ScoreTable) -> dict[str, npt.NDArray[np.int64] | None]:
        """The rows each scope's clusters cover (None: all rows)."""
        scopes: dict[str, npt.NDArray[np.int64] | None] = {"all": None}
        if self._filtered is not None and len(self._filtered):
            scopes["filtered"] = np.sort(self._filtered)
        return scopes

    def _update_clusters(self, table: ScoreTable | None, done: npt.NDArray[np.int64]) -> None:
        """Show the clusters known for the figures shown, and start the paired tests of those
        missing (in the background; a run for other rows is cancelled)."""
        if table is None or len(table.systems) < 2:
            self.cluster_job.cancel()
            self._cluster_running = None
            self.model.set_clusters({}, {})
            self.cluster_label.hide()
            return
        self.cluster_label.show()
        if len(done) < table.n_segments:
            self.model.set_clusters({}, {})
            self.cluster_label.setText(
                QCoreApplication.translate(
                    "SummaryWidget", "Significance clusters [n] follow once every row is scored."
                )
            )
            return
        if table is not self._cluster_table:
            self.cluster_job.cancel()
            self._cluster_table = table
            self._cluster_cache.clear()
            self._cluster_reasons.clear()
            self._cluster_running = None
        scopes = self._cluster_scopes(table)
        chosen = scopes.get("filtered")
        fingerprint = None if chosen is None else chosen.tobytes()
        if fingerprint != self._cluster_filter:
            self._cluster_filter = fingerprint
            for cache in (self._cluster_cache, self._cluster_reasons):
                for key in [k for k in cache if k[0] == "filtered"]:
                    del cache[key]
        keys = summary_metrics(table)
        wanted = [(scope, key) for scope in scopes for key in keys]
        counts = {
            scope: table.n_segments if rows is None else len(rows) for scope, rows in scopes.items()
        }
        self.model.set_clusters(
            {k: v for k, v in self._cluster_cache.items() if k in wanted}, counts
        )
        missing = [
            k for k in wanted if k not in self._cluster_cache and k not in self._cluster_reasons
        ]
        if not missing:
            self._cluster_running = None
            self.cluster_label.setText(self._cluster_note(table, scopes, keys))
            return
        token = (id(table), fingerprint, tuple(missing))
        if token != self._cluster_running:
            self._start_clusters(table, scopes, missing, token)
        self.cluster_label.setText(
            QCoreApplication.translate(
                "SummaryWidget",
                "Significance clusters [n]: paired tests of every pair of systems over {0}… {1}%",
            ).format(self._rows_text(counts), round(100 * self._cluster_progress))
        )

    def _start_clusters(
        self,
        table: ScoreTable,
        scopes: dict[str, npt.NDArray[np.int64] | None],
        missing: list[tuple[str, str]],
        token: tuple[object, ...],
    ) -> None:
        self._cluster_running = token
        self._cluster_progress = 0.0
        infos = {key: table.column_info(key) for _, key in missing}

        def work(cancelled: Any, progress: Any) -> object:
            found: dict[tuple[str, str], SystemClusters] = {}
            reasons: dict[tuple[str, str], str] = {}
            for k, (scope, key) in enumerate(missing):
                info = infos[key]
                try:
                    pairwise = pairwise_for_column(
                        table,
                        key,
                        rows=scopes[scope],
                        n_samples=CLUSTER_SAMPLES,
                        seed=CLUSTER_SEED,
                        cancel=cancelled,
                        progress=lambda f, k=k: progress((k + f) / len(missing)),
                    )
                except NotTestable as why:
                    reasons[scope, key] = str(why)
                    continue
                found[scope, key] = rank_clusters(
                    info.label,
                    table.systems,
                    pairwise.scores,
                    pairwise.p_value,
                    better=info.better,
                )
            return token, found, reasons

        self.cluster_job.start(work)

    @Slot(object)
    def _on_clusters_finished(self, payload: object) -> None:
        if not isinstance(payload, tuple) or payload[0] != self._cluster_running:
            return  # for rows or columns no longer shown
        _, found, reasons = payload
        self._cluster_cache.update(found)
        self._cluster_reasons.update(reasons)
        self._cluster_running = None
        table = self._table
        if table is not None and table is self._cluster_table:
            self._update_clusters(table, np.flatnonzero(table.done))

    @Slot(str)
    def _on_clusters_failed(self, message: str) -> None:
        self._cluster_running = None
        self.cluster_label.setText(
            QCoreApplication.translate(
                "SummaryWidget", "Significance clusters could not be computed: {message}"
            ).format(message=message)
        )

    @Slot(float)
    def _on_clusters_progress(self, fraction: float) -> None:
        self._cluster_progress = fraction
        text = self.cluster_label.text()
        if self._cluster_running is not None and text.endswith("%"):
            self.cluster_label.setText(f"{text.rsplit('… ', 1)[0]}… {round(100 * fraction)}%")

    @staticmethod
    def _rows_text(counts: dict[str, int]) -> str:
        text = QCoreApplication.translate("SummaryWidget", "all {0:,} rows").format(counts["all"])
        if "filtered" in counts:
            text += QCoreApplication.translate(
                "SummaryWidget", " and the {0:,} filtered rows"
            ).format(counts["filtered"])
        return text

    def _cluster_note(
        self,
        table: ScoreTable,
        scopes: dict[str, npt.NDArray[np.int64] | None],
        keys: Sequence[str],
    ) -> str:
        counts = {
            scope: table.n_segments if rows is None else len(rows) for scope, rows in scopes.items()
        }
        text = QCoreApplication.translate(
            "SummaryWidget",
            "[n]: significance cluster (1 best) over {0}; paired bootstrap, p < "
            "{SIGNIFICANCE_THRESHOLD}.",
        ).format(self._rows_text(counts), SIGNIFICANCE_THRESHOLD=SIGNIFICANCE_THRESHOLD)
        self.cluster_label.setToolTip(
            QCoreApplication.translate(
                "SummaryWidget",
                "A system starts a new cluster when it is significantly worse (paired "
                "bootstrap, p < {SIGNIFICANCE_THRESHOLD}, {CLUSTER_SAMPLES:,} resamples, "
                "seed {CLUSTER_SEED}) than the best system of the current cluster; the "
                "filtered rows are ranked on their own. A figure's tooltip says whom it "
                "was tested against.",
            ).format(
                SIGNIFICANCE_THRESHOLD=SIGNIFICANCE_THRESHOLD,
                CLUSTER_SAMPLES=CLUSTER_SAMPLES,
                CLUSTER_SEED=CLUSTER_SEED,
            )
        )
        lower = [
            table.column_info(k).label for k in keys if not table.column_info(k).higher_is_better
        ]
        if lower:
            text += QCoreApplication.translate("SummaryWidget", " Lower is better for {0}.").format(
                ", ".join(lower)
            )
        skipped = {
            table.column_info(key).label: why
            for (scope, key), why in self._cluster_reasons.items()
            if scope in scopes and key in keys
        }
        if skipped:
            text += (
                QCoreApplication.translate("SummaryWidget", " Not ranked: ")
                + "; ".join(f"{k} ({v})" for k, v in skipped.items())
                + "."
            )
        return text

    def cluster_text(self) -> str:
        return self.cluster_label.text()

    def shutdown(self) -> None:
        """Stop the paired tests under way and wait for their thread (the window closes)."""
        self.cluster_job.shutdown()

    def bin_rows(self, x: float, y: float) -> tuple[npt.NDArray[np.int64], str] | None:
        """The rows a click at (``x`` score, ``y`` count) picks, and their label: the bin under
        ``x``, of the system whose curve is nearest ``y`` there (None: outside the bins)."""
        table, drawn = self._table, self._drawn
        if table is None or drawn is None or not self._curves:
            return None
        edges = self.edges
        index = int(bin_index(np.array([x], np.float64), edges)[0])
        if index < 0:
            return None
        counts = [self.histogram(s)[1][index] for s in range(len(self._curves))]
        system = int(np.argmin([abs(c - y) for c in counts]))
        rows, column, label = drawn
        values = clip_to_bounds(table.scores[system, rows, column], self._bounds)
        inside = bin_index(values, edges) == index
        low, high = float(edges[index]), float(edges[index + 1])
        closing = "]" if index == len(edges) - 2 else ")"
        return (
            rows[inside],
            f"sentence {label} of {table.systems[system]} in [{low:.10g}, {high:.10g}{closing}",
        )

    @Slot(object)
    def _on_plot_clicked(self, event: Any) -> None:
        if event.button() != Qt.MouseButton.LeftButton:
            return
        view = self.plot.getPlotItem().getViewBox()
        if not view.sceneBoundingRect().contains(event.scenePos()):
            return
        point: QPointF = view.mapSceneToView(event.scenePos())
        picked = self.bin_rows(point.x(), point.y())
        if picked is not None:
            event.accept()
            self.rows_clicked.emit(*picked)

    def histogram(self, system: int) -> tuple[np.ndarray, np.ndarray]:
        """The (edges, counts) currently drawn for ``system``."""
        x, y = self._curves[system].getData()
        return np.asarray(x), np.asarray(y)
