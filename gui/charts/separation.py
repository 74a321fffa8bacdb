"""What separates two systems: the n-grams one matches in the references and the other does not,
and the segments that move the corpus score difference most.

* n-grams (orders 1-4) are compare-mt's n-gram difference analysis
  (:func:`core.analysis.compare.ngram_differences`, α = 1, top 50 each way), on BLEU's tokens:
  an n-gram of A's output counts as matched as often as it occurs there, clipped to its count
  in the reference (the largest count in any one reference). The left list holds the n-grams A
  matches more often than B, the right one the reverse; the score is
  (A's matches + 1) / (A's + B's matches + 2): near 1 when only A matches it.
* "What moves the corpus score" is :func:`core.analysis.compare.difference_influence`: each
  segment's effect is score(A) − score(B) over the rows shown minus the same without that
  segment, for the chosen column's corpus figure (corpus BLEU from summed statistics, a mean
  for ROUGE or imported scores).

Clicking an n-gram selects the segments where A or B matches it; clicking a segment makes it the
table's current row. Both are computed in a background job on the rows of the selection.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt
from PySide6.QtCore import (
    QT_TRANSLATE_NOOP,
    QAbstractTableModel,
    QCoreApplication,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    Qt,
    Slot,
)
from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import (
    QComboBox,
    QGridLayout,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QTableView,
    QWidget,
)

from matchlight.core.analysis.compare import (
    NgramDifference,
    NgramDifferences,
    ScoreInfluence,
    difference_influence,
)
from matchlight.core.analysis.pairs import (
    ALPHA,
    MAX_ORDER,
    TOP,
    NgramsCancelled,
    ngram_report,
    ngram_report_in_process,
)
from matchlight.core.analysis.scales import corpus_decimals
from matchlight.core.analysis.significance import table_statistics
from matchlight.core.metrics.base import ScoreColumn
from matchlight.core.scoring.results import ScoreTable
from matchlight.core.text.corpus import CorpusText
from matchlight.gui.charts.base import compact, fill_combo
from matchlight.gui.charts.jobpanel import JobPanel
from matchlight.gui.charts.jobs import JobCancelled
from matchlight.gui.charts.link import ChartLink

__all__ = [
    "ALPHA",
    "MAX_ORDER",
    "TOP",
    "InfluenceModel",
    "NgramModel",
    "SeparationPanel",
    "SeparationResult",
    "compute_separation",
]

IntArray = npt.NDArray[np.int64]
Index = QModelIndex | QPersistentModelIndex

# Segments listed per side of "what moves the corpus score".
TOP_SEGMENTS = 50
# From this many rows on, the n-grams are counted in a worker process: counting them spends
# seconds in C calls that hold the GIL, which a thread would take from the window.
PROCESS_FROM = 20_000


@dataclass(frozen=True, slots=True, eq=False)
class SeparationResult:
    """The n-gram lists and the influence of each row, for systems ``a`` and ``b``."""

    a: int
    b: int
    column: str
    ngrams: NgramDifferences
    influence: ScoreInfluence | None
    influence_reason: str | None
    n_rows: int


def compute_separation(
    *,
    text: CorpusText,
    table: ScoreTable,
    a: int,
    b: int,
    column: str,
    rows: IntArray,
    cancelled: Callable[[], bool] = lambda: False,
    progress: Callable[[float], None] = lambda f: None,
) -> SeparationResult:
    """The panel's numbers (a pure function of core data; run in the background job, and by
    the tests): :func:`core.analysis.pairs.ngram_report` on BLEU's tokens as the table's BLEU
    is configured (13a when BLEU is not scored), and the influence of each row."""
    settings = table.config.settings("bleu")
    arguments: dict[str, object] = {
        "references": text.references,
        "system_a": text.systems[a],
        "system_b": text.systems[b],
        "tokenize": getattr(settings, "tokenize", "13a") if "bleu" in table.metric_keys else "13a",
        "lowercase": bool(getattr(settings, "lowercase", False)) and "bleu" in table.metric_keys,
        "rows": rows,
    }
    if len(rows) >= PROCESS_FROM:
        try:
            ngrams = ngram_report_in_process(cancel=cancelled, **arguments)
        except NgramsCancelled:
            raise JobCancelled from None
    else:
        ngrams = ngram_report(**arguments)  # type: ignore[arg-type]  # the keywords above
    progress(0.8)
    if cancelled():
        raise JobCancelled
    influence: ScoreInfluence | None = None
    reason: str | None = None
    try:
        stats, score = table_statistics(table, column)
    except ValueError as why:
        reason = str(why)
    else:
        if len(rows):
            influence = difference_influence(
                stats_a=stats[a], stats_b=stats[b], score=score, rows=rows
            )
        else:
            reason = QCoreApplication.translate("separation", "no rows are selected")
    progress(1.0)
    return SeparationResult(a, b, column, ngrams, influence, reason, len(rows))


class NgramModel(QAbstractTableModel):
    """One list of :class:`~core.analysis.compare.NgramDifference`: n-gram, matches of A and
    of B, compare-mt's score. ``Qt.UserRole`` gives the entry."""

    HEADERS = ("n-gram", "A", "B", "score")

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._entries: tuple[NgramDifference, ...] = ()
        self._names = ("A", "B")

    def set_entries(self, entries: Sequence[NgramDifference], names: tuple[str, str]) -> None:
        self.beginResetModel()
        self._entries = tuple(entries)
        self._names = names
        self.endResetModel()

    def entry(self, row: int) -> NgramDifference:
        return self._entries[row]

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._entries)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self.HEADERS)

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or not self.hasIndex(index.row(), index.column()):
            return None
        entry = self._entries[index.row()]
        column = index.column()
        if role == Qt.ItemDataRole.DisplayRole:
            if column == 0:
                return " ".join(entry.ngram)
            if column == 1:
                return f"{entry.count_a:,}"
            if column == 2:
                return f"{entry.count_b:,}"
            return f"{entry.score:.3f}"
        if role == Qt.ItemDataRole.UserRole:
            return entry
        if role == Qt.ItemDataRole.TextAlignmentRole and column > 0:
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        if role == Qt.ItemDataRole.ToolTipRole:
            a, b = self._names
            return QCoreApplication.translate(
                "NgramModel",
                "“{0}” ({1}-gram): matched {2:,} times by {a} and {3:,} times by {b}, "
                "in {4:,} segments. Click to select those segments.",
            ).format(
                " ".join(entry.ngram),
                entry.order,
                entry.count_a,
                entry.count_b,
                len(entry.rows),
                a=a,
                b=b,
            )
        return None

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if orientation != Qt.Orientation.Horizontal or not 0 <= section < len(self.HEADERS):
            return None
        if role == Qt.ItemDataRole.DisplayRole:
            if section == 1:
                return self._names[0]
            if section == 2:
                return self._names[1]
            return self.HEADERS[section]
        if role == Qt.ItemDataRole.ToolTipRole:
            return (
                "n-gram",
                QCoreApplication.translate(
                    "NgramModel", "times A's output matches it in the references (clipped)"
                ),
                QCoreApplication.translate(
                    "NgramModel", "times B's output matches it in the references (clipped)"
                ),
                QCoreApplication.translate(
                    "NgramModel",
                    "(A + 1) / (A + B + 2): near 1 when only A matches it, near 0 when only B does",
                ),
            )[section]
        return None


class InfluenceModel(QAbstractTableModel):
    """Segments by their effect on score(A) − score(B): segment number, effect, and each
    system's sentence score (at its column's precision). A positive effect helps A where higher
    is better, B where lower is (an MQM penalty). ``Qt.UserRole`` gives the segment
    (0-based)."""

    HEADERS = ("#", "effect", "A", "B")

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._segments: IntArray = np.zeros(0, np.int64)
        self._effects: npt.NDArray[np.float64] = np.zeros(0)
        self._a: npt.NDArray[np.float64] = np.zeros(0)
        self._b: npt.NDArray[np.float64] = np.zeros(0)
        self._names = ("A", "B")
        self._column: ScoreColumn | None = None

    def set_rows(
        self,
        segments: IntArray,
        effects: npt.NDArray[np.float64],
        a: npt.NDArray[np.float64],
        b: npt.NDArray[np.float64],
        names: tuple[str, str],
        column: ScoreColumn | None = None,
    ) -> None:
        self.beginResetModel()
        self._segments, self._effects, self._a, self._b = segments, effects, a, b
        self._names = names
        self._column = column
        self.endResetModel()

    def segments(self) -> IntArray:
        return self._segments.copy()

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._segments)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self.HEADERS)

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or not self.hasIndex(index.row(), index.column()):
            return None
        row, column = index.row(), index.column()
        if role == Qt.ItemDataRole.DisplayRole:
            if column == 0:
                return str(int(self._segments[row]) + 1)
            if column == 1:
                return f"{self._effects[row]:+.3f}"
            value = float((self._a if column == 2 else self._b)[row])
            if self._column is None:
                return "–" if np.isnan(value) else f"{value:.1f}"
            return self._column.format(value)
        if role == Qt.ItemDataRole.UserRole:
            return int(self._segments[row])
        if role == Qt.ItemDataRole.TextAlignmentRole:
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        if role == Qt.ItemDataRole.ToolTipRole:
            a, b = self._names
            effect = self._effects[row]
            sign = 1.0 if self._column is None else self._column.sign
            side = a if sign * effect > 0 else b
            return QCoreApplication.translate(
                "InfluenceModel",
                "Segment {0}: without it, {a} − {b} would be {1:.4f} {2} (it helps "
                "{side}). Click to show it in the table.",
            ).format(
                int(self._segments[row]) + 1,
                abs(effect),
                "lower" if effect > 0 else "higher",
                a=a,
                b=b,
                side=side,
            )
        return None

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if orientation != Qt.Orientation.Horizontal or not 0 <= section < len(self.HEADERS):
            return None
        if role == Qt.ItemDataRole.DisplayRole:
            if section == 2:
                return self._names[0]
            if section == 3:
                return self._names[1]
            return self.HEADERS[section]
        if role == Qt.ItemDataRole.ToolTipRole and section == 1:
            return QCoreApplication.translate(
                "InfluenceModel",
                "score(A) − score(B) over the rows shown, minus the same without this segment",
            )
        return None


def _view(model: QAbstractTableModel) -> QTableView:
    view = QTableView()
    view.setModel(model)
    view.setEditTriggers(QTableView.EditTrigger.NoEditTriggers)
    view.setSelectionBehavior(QTableView.SelectionBehavior.SelectRows)
    view.setSelectionMode(QTableView.SelectionMode.SingleSelection)
    view.verticalHeader().hide()
    view.verticalHeader().setDefaultSectionSize(view.fontMetrics().lineSpacing() + 6)
    header = view.horizontalHeader()
    header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
    header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
    view.setAlternatingRowColors(True)
    return view


class SeparationPanel(JobPanel):
    """Two n-gram lists and the segments that move the corpus score, for a pair of systems."""

    title = QT_TRANSLATE_NOOP("ChartPanel", "What separates")
    job_name = "matchlight-separation"

    def __init__(self, link: ChartLink, parent: QWidget | None = None) -> None:
        super().__init__(link, parent)
        self.export_button.hide()
        self.a_combo = QComboBox()
        self.b_combo = QComboBox()
        self.metric_combo = QComboBox()
        self.a_combo.setToolTip(QCoreApplication.translate("SeparationPanel", "System A"))
        self.b_combo.setToolTip(QCoreApplication.translate("SeparationPanel", "System B"))
        self.metric_combo.setToolTip(
            QCoreApplication.translate(
                "SeparationPanel", "The corpus score whose difference the segments move"
            )
        )
        self.side_combo = QComboBox()
        self.side_combo.addItem(
            QCoreApplication.translate("SeparationPanel", "helping A most"), "a"
        )
        self.side_combo.addItem(
            QCoreApplication.translate("SeparationPanel", "helping B most"), "b"
        )
        for label, widget in (
            ("A:", self.a_combo),
            ("B:", self.b_combo),
            (QCoreApplication.translate("SeparationPanel", "Corpus score:"), self.metric_combo),
        ):
            self.controls.addWidget(QLabel(label))
            self.controls.addWidget(widget)
            compact(widget)
            widget.currentIndexChanged.connect(self._on_choice_changed)
        self.controls.addWidget(self.progress)
        self.controls.addStretch(1)

        self.a_model = NgramModel(self)
        self.b_model = NgramModel(self)
        self.influence_model = InfluenceModel(self)
        self.a_view = _view(self.a_model)
        self.b_view = _view(self.b_model)
        self.influence_view = _view(self.influence_model)
        self.influence_view.horizontalHeader().setSectionResizeMode(
            0, QHeaderView.ResizeMode.ResizeToContents
        )
        self.a_title = QLabel()
        self.b_title = QLabel()
        self.influence_title = QLabel()
        for title in (self.a_title, self.b_title, self.influence_title):
            title.setWordWrap(True)
        self.select_button = QPushButton(
            QCoreApplication.translate("SeparationPanel", "Select these segments")
        )
        self.select_button.setToolTip(
            QCoreApplication.translate(
                "SeparationPanel", "Show only the segments of this list in the table"
            )
        )
        self.select_button.clicked.connect(self._on_select_listed)
        self.side_combo.currentIndexChanged.connect(self._on_side_changed)
        body = QWidget()
        self._grid = QGridLayout(body)
        self._grid.setContentsMargins(0, 0, 0, 0)
        self._side = QWidget()
        side_row = QHBoxLayout(self._side)
        side_row.setContentsMargins(0, 0, 0, 0)
        side_row.addWidget(QLabel(QCoreApplication.translate("SeparationPanel", "Segments")))
        side_row.addWidget(self.side_combo)
        side_row.addStretch(1)
        side_row.addWidget(self.select_button)
        self._narrow: bool | None = None
        self._arrange(narrow=True)
        self.add_body(body)

        self.a_view.clicked.connect(self._on_ngram_clicked)
        self.b_view.clicked.connect(self._on_ngram_clicked)
        self.influence_view.clicked.connect(self._on_segment_clicked)

        self.result: SeparationResult | None = None
        self.listen(link.session_changed, self._on_session_changed)
        self.listen(link.baseline_changed, self._on_baseline_changed)

    def _arrange(self, *, narrow: bool) -> None:
        """Three lists side by side in a wide panel; in a narrow one the n-gram lists side by
        side and the segments below them."""
        if narrow == self._narrow:
            return
        grid = self._grid
        widgets = (
            self.a_title,
            self.b_title,
            self.influence_title,
            self.a_view,
            self.b_view,
            self.influence_view,
            self._side,
        )
        for widget in widgets:
            grid.removeWidget(widget)
        self._narrow = narrow
        grid.addWidget(self.a_title, 0, 0)
        grid.addWidget(self.b_title, 0, 1)
        grid.addWidget(self.a_view, 1, 0)
        grid.addWidget(self.b_view, 1, 1)
        if narrow:
            grid.addWidget(self.influence_title, 2, 0, 1, 2)
            grid.addWidget(self.influence_view, 3, 0, 1, 2)
            grid.addWidget(self._side, 4, 0, 1, 2)
            for col, stretch in enumerate((1, 1, 0)):
                grid.setColumnStretch(col, stretch)
            grid.setRowStretch(1, 1)
            grid.setRowStretch(3, 1)
        else:
            grid.addWidget(self.influence_title, 0, 2)
            grid.addWidget(self.influence_view, 1, 2)
            grid.addWidget(self._side, 2, 2)
            for col in range(3):
                grid.setColumnStretch(col, 1)
            grid.setRowStretch(1, 1)
            grid.setRowStretch(3, 0)

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._arrange(narrow=event.size().width() < 1000)

    # -- choices --------------------------------------------------------------------------------

    @property
    def pair(self) -> tuple[int, int]:
        a, b = self.a_combo.currentData(), self.b_combo.currentData()
        return (a if isinstance(a, int) else 0, b if isinstance(b, int) else 0)

    @property
    def score_key(self) -> str | None:
        data = self.metric_combo.currentData()
        return data if isinstance(data, str) else None

    def set_choices(
        self, *, a: int | None = None, b: int | None = None, metric: str | None = None
    ) -> None:
        self._update_choices()
        for combo, value in ((self.a_combo, a), (self.b_combo, b), (self.metric_combo, metric)):
            if value is not None:
                index = combo.findData(value)
                if index < 0:
                    raise ValueError(f"{value!r} is not offered")
                combo.setCurrentIndex(index)
        self.schedule()

    def _update_choices(self) -> None:
        table = self.link.table
        if table is None:
            for combo in (self.a_combo, self.b_combo, self.metric_combo):
                fill_combo(combo, [])
            return
        systems: list[tuple[str, object]] = [(n, i) for i, n in enumerate(table.systems)]
        core = self.link.core
        baseline = 0 if core is None else core.baseline
        other = next((i for i in range(len(table.systems)) if i != baseline), baseline)
        keep_a = self.a_combo.currentData() if self.a_combo.count() else other
        keep_b = self.b_combo.currentData() if self.b_combo.count() else baseline
        fill_combo(self.a_combo, systems, keep_a)
        fill_combo(self.b_combo, systems, keep_b)
        fill_combo(self.metric_combo, self.column_items())

    @Slot()
    def _on_session_changed(self) -> None:
        self.job.cancel()
        self.result = None
        fill_combo(self.a_combo, [])
        fill_combo(self.b_combo, [])

    @Slot(int)
    def _on_baseline_changed(self, system: int) -> None:
        if self.a_combo.currentData() == system:
            self.a_combo.setCurrentIndex(self.b_combo.currentIndex())
        self.b_combo.setCurrentIndex(self.b_combo.findData(system))

    @Slot(int)
    def _on_choice_changed(self, _index: int) -> None:
        self.schedule()

    # -- computing ------------------------------------------------------------------------------

    def refresh(self) -> None:
        self._update_choices()
        table = self.link.table
        core = self.link.core
        if table is None or core is None:
            self.job.cancel()
            self.show_placeholder(
                QCoreApplication.translate(
                    "SeparationPanel", "Open a comparison to see what separates two systems."
                )
            )
            return
        if len(table.systems) < 2:
            self.show_placeholder(
                QCoreApplication.translate("SeparationPanel", "Two systems are needed.")
            )
            return
        if not table.complete:
            self.show_placeholder(
                QCoreApplication.translate(
                    "SeparationPanel", "Scoring… this view appears when every segment is scored."
                )
            )
            return
        a, b = self.pair
        if a == b:
            self.show_placeholder(
                QCoreApplication.translate(
                    "SeparationPanel", "Pick two different systems as A and B."
                )
            )
            return
        column = self.score_key
        if column is None:
            return
        rows = np.flatnonzero(self.link.population(self)).astype(np.int64)
        text = core.text

        def work(cancelled: Callable[[], bool], progress: Callable[[float], None]) -> object:
            return compute_separation(
                text=text,
                table=table,
                a=a,
                b=b,
                column=column,
                rows=rows,
                cancelled=cancelled,
                progress=progress,
            )

        self.start_job(work)

    def job_done(self, result: object) -> None:
        if not isinstance(result, SeparationResult):
            return
        self.result = result
        self.show_body()
        self._show(result)

    def _show(self, result: SeparationResult) -> None:
        table = self.link.table
        if table is None:
            return
        a_name, b_name = table.systems[result.a], table.systems[result.b]
        names = (a_name, b_name)
        self.a_model.set_entries(result.ngrams.a_better, names)
        self.b_model.set_entries(result.ngrams.b_better, names)
        self.a_title.setText(
            QCoreApplication.translate(
                "SeparationPanel",
                "<b>Matched by {a_name}, not by {b_name}</b>: n-grams (1–{MAX_ORDER}) "
                "{a_name} matches in the references more often than {b_name}",
            ).format(a_name=a_name, b_name=b_name, MAX_ORDER=MAX_ORDER)
        )
        self.b_title.setText(
            QCoreApplication.translate(
                "SeparationPanel",
                "<b>Matched by {b_name}, not by {a_name}</b>: n-grams {b_name} matches in "
                "the references more often than {a_name}",
            ).format(b_name=b_name, a_name=a_name)
        )
        self.side_combo.setItemText(
            0,
            QCoreApplication.translate("SeparationPanel", "helping {a_name} most").format(
                a_name=a_name
            ),
        )
        self.side_combo.setItemText(
            1,
            QCoreApplication.translate("SeparationPanel", "helping {b_name} most").format(
                b_name=b_name
            ),
        )
        self._show_influence()
        label = table.column_info(result.column).label
        influence = result.influence
        lead = ""
        if influence is not None:
            column = table.column_info(result.column)
            digits = corpus_decimals(column)
            way = (
                ""
                if column.higher_is_better
                else QCoreApplication.translate("SeparationPanel", "; lower is better")
            )
            lead = (
                f" Corpus {label}: {a_name} {influence.score_a:.{digits}f}, {b_name} "
                f"{influence.score_b:.{digits}f} (difference "
                f"{influence.difference:+.{digits}f}{way})."
            )
        self.caption.setText(
            QCoreApplication.translate(
                "SeparationPanel",
                "Over {0:,} segments; {1:,} distinct n-grams are matched by either system. "
                "compare-mt's score (matches of A + {ALPHA:g}) / (matches of A + matches "
                "of B + {2:g}), top {TOP} each way, BLEU's tokens.{lead} Click an n-gram "
                "to select the segments where it is matched; click a segment to show it in "
                "the table.",
            ).format(
                result.n_rows, result.ngrams.n_ngrams, 2 * ALPHA, ALPHA=ALPHA, TOP=TOP, lead=lead
            )
        )

    def _show_influence(self) -> None:
        result = self.result
        table = self.link.table
        if result is None or table is None:
            return
        a_name, b_name = table.systems[result.a], table.systems[result.b]
        label = table.column_info(result.column).label
        influence = result.influence
        if influence is None:
            self.influence_model.set_rows(
                np.zeros(0, np.int64), np.zeros(0), np.zeros(0), np.zeros(0), (a_name, b_name)
            )
            self.influence_title.setText(
                QCoreApplication.translate(
                    "SeparationPanel", "<b>What moves the corpus {label}</b>: not available — {0}"
                ).format(result.influence_reason, label=label)
            )
            return
        helping_a = self.side_combo.currentData() == "a"
        column = table.column_info(result.column)
        # What helps A raises A − B where higher is better, lowers it where lower is.
        largest_first = helping_a == column.higher_is_better
        order = influence.order if largest_first else influence.order[::-1]
        effects = influence.effect[order]
        keep = order[(effects > 0) if largest_first else (effects < 0)][:TOP_SEGMENTS]
        segments = influence.rows[keep]
        self.influence_model.set_rows(
            segments,
            influence.effect[keep],
            table.column(result.column, result.a)[segments],
            table.column(result.column, result.b)[segments],
            (a_name, b_name),
            column,
        )
        side = a_name if helping_a else b_name
        self.influence_title.setText(
            QCoreApplication.translate(
                "SeparationPanel",
                "<b>What moves the corpus {label}</b>: segments whose removal would change "
                "{a_name} − {b_name} most, {side}'s way",
            ).format(label=label, a_name=a_name, b_name=b_name, side=side)
        )

    # -- clicks ---------------------------------------------------------------------------------

    @Slot(QModelIndex)
    def _on_ngram_clicked(self, index: QModelIndex) -> None:
        entry = index.data(Qt.ItemDataRole.UserRole)
        table = self.link.table
        if not isinstance(entry, NgramDifference) or table is None or self.result is None:
            return
        a, b = table.systems[self.result.a], table.systems[self.result.b]
        self.link.select_rows(
            entry.rows,
            QCoreApplication.translate("SeparationPanel", "“{0}” matched by {a} or {b}").format(
                " ".join(entry.ngram), a=a, b=b
            ),
            owner=self,
        )

    @Slot(QModelIndex)
    def _on_segment_clicked(self, index: QModelIndex) -> None:
        segment = index.data(Qt.ItemDataRole.UserRole)
        if isinstance(segment, int):
            self.link.make_current(segment)

    @Slot(int)
    def _on_side_changed(self, _index: int) -> None:
        self._show_influence()

    @Slot()
    def _on_select_listed(self) -> None:
        segments = self.influence_model.segments()
        result = self.result
        table = self.link.table
        if not segments.size or result is None or table is None:
            return
        a, b = table.systems[result.a], table.systems[result.b]
        side = a if self.side_combo.currentData() == "a" else b
        label = table.column_info(result.column).label
        self.link.select_rows(
            np.sort(segments),
            QCoreApplication.translate(
                "SeparationPanel", "the {0} segments helping {side} most ({label} {a} − {b})"
            ).format(len(segments), side=side, label=label, a=a, b=b),
            owner=self,
        )
