"""Corpus-level figures per system, over all rows and over the filtered rows, plus a histogram.

Everything here is computed from the :class:`~core.scoring.results.ScoreTable`'s additive
statistics by ``core`` (:meth:`ScoreTable.corpus`), so the numbers match ``matchlight score``
exactly. The metrics summarised are the registry's headline columns of the scored metrics. The
widget refreshes at most every :data:`REFRESH_MS` while chunks stream in.

Next to the figures it shows what they depend on: every setting that differs from the
defaults (:func:`~gui.charts.summarynotes.settings_note`), and the reproducibility signatures,
selectable and with a Copy button. While nothing is open it shows a line saying so, not empty
axes.

Once every row is scored, each figure gets its system's significance cluster on that column
(:mod:`gui.charts.summaryclusters`). A reference that looks made from one system's output
(:func:`core.analysis.references.leak_messages`) is said above the figures, since it is them it
inflates.

The parts: :mod:`~gui.charts.summarymodel` (the table of figures),
:mod:`~gui.charts.summaryclusters` (the clusters and their line),
:mod:`~gui.charts.summarynotes` (the settings and language lines); here the widget that lays
them out, refreshes them and draws the histogram.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt
import pyqtgraph as pg
from PySide6.QtCore import (
    QT_TRANSLATE_NOOP,
    QCoreApplication,
    QEvent,
    QPointF,
    Qt,
    QTimer,
    Signal,
    Slot,
)
from PySide6.QtGui import QGuiApplication, QPalette, QShowEvent
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

from matchlight.core.analysis.histograms import (
    ScoreHistograms,
    column_bounds,
    score_histograms,
    scored_rows,
)
from matchlight.core.analysis.language import LanguageFlags
from matchlight.core.analysis.references import ReferenceAudit, leak_messages
from matchlight.core.analysis.scales import bin_index, clip_to_bounds
from matchlight.core.scoring.results import CorpusScores, ScoreTable
from matchlight.gui.charts.distributions import axis_ticks
from matchlight.gui.charts.jobs import BACKGROUND_ROWS, BackgroundJob
from matchlight.gui.charts.scopedcache import ScopedCache
from matchlight.gui.charts.summaryclusters import SummaryClusters
from matchlight.gui.charts.summarymodel import SummaryModel, summary_metrics, system_colour
from matchlight.gui.charts.summarynotes import language_note, settings_note
from matchlight.gui.highlight.palette import is_dark_palette

__all__ = ["SummaryWidget"]

REFRESH_MS = 150
# Translated where shown (set at import, before the translator is installed).
NOTHING_OPEN = QT_TRANSLATE_NOOP(
    "summary", "No comparison open. Its corpus scores per system show here."
)
# The first refresh of a new table comes later, after the burst of work of showing it.
FIRST_REFRESH_MS = 450
# The histogram's bins for a 0-100 score (another scale gets its own, see score_edges).
HISTOGRAM_EDGES = np.linspace(0.0, 100.0, 21)
# The histogram's x ticks, 100 included (pyqtgraph's automatic ones stop at 80).
HISTOGRAM_TICKS = [[(float(v), str(v)) for v in range(0, 101, 20)]]
# The leak warning's colours (light, dark), as the comparison dock's.
_WARNING_STYLE = {
    False: "QLabel { background: #fff4ce; color: #4d3800; border: 1px solid #e0b400; "
    "padding: 4px; }",
    True: "QLabel { background: #4d3c00; color: #ffe9a3; border: 1px solid #b38f00; "
    "padding: 4px; }",
}


@dataclass(frozen=True, slots=True, eq=False)
class _SummaryFigures:
    """What a refresh computes (in a worker on a big table) for ``table`` with ``n_done`` rows
    scored: the exact figures of the ``exact`` columns over every row (``corpus``, per system;
    None: none missing), the filtered rows scored (None: no filter) and their figures, and the
    histogram (None: the one drawn still holds)."""

    table: ScoreTable
    n_done: int
    exact: list[str]
    corpus: list[CorpusScores] | None
    rows: npt.NDArray[np.int64] | None
    kept: list[CorpusScores] | None
    histogram: ScoreHistograms | None


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
        # Each column's figures per system over all scored rows, kept while no new row is
        # scored (a filter change recomputes only the filtered scope); scope (table, rows done).
        self._corpus: ScopedCache[str, list[CorpusScores]] = ScopedCache()
        # The column the histogram shows, with what it draws; scope (table, rows done, filter).
        self._histogram: ScopedCache[str, tuple[npt.NDArray[np.int64], int, str]] = ScopedCache()
        self._curves_table: ScoreTable | None = None  # the table self._curves are for
        self._curves: list[pg.PlotDataItem] = []
        self._dark: bool | None = None
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
        self.clusters = SummaryClusters(self.model, self)
        self.clusters.arrived.connect(self._on_clusters_arrived)
        self.cluster_label = self.clusters.label
        self.cluster_job = self.clusters.job
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
        self._timer.timeout.connect(self._on_timer)
        self._stale = False
        self._again = False  # new scores arrived while the figures were being computed
        self._computed_done = -1  # the rows scored when the figures shown were computed
        # The table is the first rows of a comparison whose files are still read.
        self._reading = False
        self._job_filter: npt.NDArray[np.int64] | None = None  # the rows the run is for
        self.job = BackgroundJob(self, name="matchlight-summary")
        self.job.finished.connect(self._on_computed)
        self.job.failed.connect(self._on_failed)

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
            self.job.discard()
        self._table = table
        self._corpus.clear()
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
        """The segments the filter keeps (None: no filter active). Other rows than before are
        summarised at the next turn of the event loop (a computation under way for the rows
        before is dropped); the same rows (new scores for them) within :data:`REFRESH_MS`."""
        new = None if rows is None else np.asarray(rows, dtype=np.int64)
        old = self._filtered
        if (new is None) == (old is None) and (new is None or np.array_equal(new, old)):
            table = self._table
            if table is not None and table.n_done != self._computed_done:
                self.schedule_refresh()  # new scores since the figures shown
            return
        self._filtered = new
        self._timer.start(0)

    @Slot(str)
    def column_changed(self, key: str) -> None:
        """A column was added, replaced or removed (imported scores, MQM): its figures and
        clusters are computed again within :data:`REFRESH_MS` (the other columns' figures are
        kept: an annotation edit changes the MQM column alone)."""
        self.job.discard()  # it may have read the column's old values
        self._corpus.discard(key)
        self._histogram.discard(key)
        self.clusters.column_changed(key)
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
        self._histogram.clear()  # new curves, no data yet
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

    def set_reading(self, reading: bool) -> None:
        """Say that the table is the first rows of a comparison still being read (its figures
        are those rows', not the whole's)."""
        if reading != self._reading:
            self._reading = reading
            self.schedule_refresh()

    @Slot()
    def refresh(self) -> None:
        """Recompute every figure now: at once over fewer than
        :data:`~gui.charts.jobs.BACKGROUND_ROWS` rows in the table, else in a worker (the
        figures follow; the end of scoring asks for them, and the GUI thread must not sum a
        million rows)."""
        self._refresh()

    @Slot()
    def _on_timer(self) -> None:
        if self.window().isVisible() and not self.isVisible():
            self._stale = True  # the dock is behind another: refreshed when shown
            return
        if self.job.running and self._job_filter is self._filtered:
            self._again = True  # only new scores: the run under way finishes first
            return
        self._refresh()

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        if self._stale:
            self._timer.start(0)

    def _refresh(self) -> None:
        self._timer.stop()
        self._stale = False
        self._again = False
        table = self._table
        if self._curves_table is not table:
            self._rebuild_curves()
        if table is None:
            self.job.discard()
            self._drawn = None
            self.caption.setText(QCoreApplication.translate("summary", NOTHING_OPEN))
            self.model.set_values((), (), {}, {})
            self.clusters.update(None, np.zeros(0, np.int64), None)
            return
        done_mask = table.done.copy()
        n_done = int(done_mask.sum())
        self._computed_done = n_done
        complete = n_done == table.n_segments
        filtered = self._filtered
        metrics = summary_metrics(table)
        per_column = self._corpus.for_scope(table, n_done)
        missing = [metric for metric in metrics if metric not in per_column]
        exact: list[str] = []
        if missing and n_done:
            if complete:
                exact = missing  # the exact figures, over the whole arrays: in the work
            else:
                # While chunks arrive: the table's running totals (no pass over the rows).
                running = [
                    table.running_corpus(s, metrics=missing) for s in range(len(table.systems))
                ]
                per_column.update(dict.fromkeys(missing, running))
        columns = [table.column_info(key) for key in metrics]
        shown = columns[0] if columns else table.columns[0]
        # The histogram again only when its rows or its column changed (an annotation edit
        # changes the MQM column, not the sentence scores drawn here).
        drawn = self._histogram.for_scope(table, n_done, filtered)
        histogram = shown.key not in drawn
        index = table.metric_index(shown.key)
        values = table.scores[:, :, index]
        n_systems = len(table.systems)

        def work() -> _SummaryFigures:
            corpus = [table.corpus(s, metrics=exact) for s in range(n_systems)] if exact else None
            rows = None if filtered is None else scored_rows(filtered, done_mask)
            kept = (
                [table.corpus(s, rows=rows, metrics=metrics) for s in range(n_systems)]
                if rows is not None and len(rows)
                else None
            )
            counts = None
            if histogram:
                bounds = column_bounds(shown, values, done_mask)
                counts = score_histograms(
                    shown, values, np.flatnonzero(done_mask) if rows is None else rows, bounds
                )
            return _SummaryFigures(table, n_done, exact, corpus, rows, kept, counts)

        self._job_filter = filtered
        # The work passes over every row (column_bounds' mask, the scored rows picked from
        # all): a big table's goes to a worker however few of its rows are scored or kept.
        if table.n_segments >= BACKGROUND_ROWS:
            self.job.start(lambda _cancelled, _progress: work())
        else:
            self.job.run_here(lambda _cancelled, _progress: work())

    @Slot(object)
    def _on_computed(self, result: object) -> None:
        """Show what :meth:`_refresh` computed (in the GUI thread)."""
        assert isinstance(result, _SummaryFigures)
        table = result.table
        if table is not self._table:
            return
        n_done = result.n_done
        if int(table.done.sum()) != n_done:
            self.schedule_refresh()  # rows scored meanwhile: their figures follow
        per_column = self._corpus.for_scope(table, n_done)
        if result.corpus is not None:
            per_column.update(dict.fromkeys(result.exact, result.corpus))
        metrics = summary_metrics(table)
        columns = [table.column_info(key) for key in metrics]
        values: dict[tuple[str, int, str], CorpusScores] = {}
        for metric in metrics:
            for s, scores in enumerate(per_column.get(metric, ())):
                values[("all", s, metric)] = scores
        if result.kept is not None:
            for s, scores in enumerate(result.kept):
                for metric in metrics:
                    values[("filtered", s, metric)] = scores
        counts = {"all": n_done}
        if result.rows is not None:
            counts["filtered"] = len(result.rows)
        self.model.set_values(table.systems, columns, values, counts)
        done = np.flatnonzero(table.done)
        self.clusters.update(table, done, self._filtered, reading=self._reading)

        total = table.n_segments
        parts = []
        if self._reading:
            parts.append(
                QCoreApplication.translate(
                    "SummaryWidget", "The first {total} rows, {0} scored; the rest is being read."
                ).format(n_done, total=total)
            )
        elif n_done < total:
            parts.append(
                QCoreApplication.translate(
                    "SummaryWidget", "Scored {0} of {total} rows so far."
                ).format(n_done, total=total)
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
        figures = result.histogram
        if figures is not None:
            self._draw_histogram(table, n_done, figures, filtered=result.rows is not None)
        if self._again:
            self.schedule_refresh()

    def _draw_histogram(
        self, table: ScoreTable, n_done: int, figures: ScoreHistograms, *, filtered: bool
    ) -> None:
        metrics = summary_metrics(table)
        shown = table.column_info(metrics[0]) if metrics else table.columns[0]
        drawn = self._histogram.for_scope(table, n_done, self._filtered)
        drawn.clear()  # the curves show one column
        column = table.metric_index(shown.key)
        self._drawn = drawn[shown.key] = (figures.rows, column, shown.label)
        self._bounds = figures.bounds
        edges = figures.edges
        if not np.array_equal(edges, self.edges):
            self.edges = edges
            low, high = float(edges[0]), float(edges[-1])
            self.plot.setXRange(low, high, padding=0.02)
            self.plot.getAxis("bottom").setTicks(axis_ticks(low, high)[:1])
        for s, curve in enumerate(self._curves):
            curve.setData(edges, figures.counts[s])
        scope_name = (
            QCoreApplication.translate("SummaryWidget", "filtered rows")
            if filtered
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

    @Slot()
    def _on_clusters_arrived(self) -> None:
        table = self._table
        if table is not None and self.clusters.covers(table):
            self.clusters.update(
                table, np.flatnonzero(table.done), self._filtered, reading=self._reading
            )

    def cluster_text(self) -> str:
        return self.cluster_label.text()

    @Slot(str)
    def _on_failed(self, message: str) -> None:
        if self._again:
            self.schedule_refresh()  # new scores came meanwhile: they may go better
        self.caption.setText(
            QCoreApplication.translate(
                "SummaryWidget", "The figures could not be computed: {0}"
            ).format(message)
        )

    def shutdown(self) -> None:
        """Stop the computations under way and wait for their threads (the window closes)."""
        self.job.shutdown()
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
