"""The summary's table of corpus figures: a row per system (and per system's filtered rows while
a filter is on), a column per summarised metric, each figure with its significance cluster.

The figures are core's (:meth:`ScoreTable.corpus <core.scoring.results.ScoreTable.corpus>`),
shown one decimal more precise than the column's segment values; the clusters are given by
:class:`~gui.charts.summaryclusters.SummaryClusters`.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence
from typing import Any

from PySide6.QtCore import (
    QAbstractTableModel,
    QCoreApplication,
    QModelIndex,
    QPersistentModelIndex,
    Qt,
)
from PySide6.QtGui import QColor, QIcon, QPixmap
from PySide6.QtWidgets import QWidget

from matchlight.core.analysis.clusters import SystemClusters
from matchlight.core.analysis.scales import corpus_decimals
from matchlight.core.metrics.base import ScoreColumn
from matchlight.core.scoring.results import CorpusScores, ScoreTable
from matchlight.core.style.palette import OKABE_ITO

__all__ = ["SYSTEM_COLOURS", "SummaryModel", "corpus_value", "summary_metrics", "system_colour"]

# Okabe–Ito colours as published (core's palette): distinguishable with the common
# colour-vision deficiencies; the report draws systems in the same ones.
SYSTEM_COLOURS: tuple[str, ...] = OKABE_ITO

Index = QModelIndex | QPersistentModelIndex


def system_colour(index: int) -> QColor:
    return QColor(SYSTEM_COLOURS[index % len(SYSTEM_COLOURS)])


def summary_metrics(table: ScoreTable) -> tuple[str, ...]:
    """The columns summarised: the headline score columns of the scored metrics."""
    return tuple(c.key for c in table.columns if c.headline and c.kind == "score")


@functools.cache
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


# The roles :meth:`SummaryModel.data` gives.
_ROLES = frozenset(
    {
        Qt.ItemDataRole.DisplayRole,
        Qt.ItemDataRole.UserRole,
        Qt.ItemDataRole.TextAlignmentRole,
        Qt.ItemDataRole.ForegroundRole,
        Qt.ItemDataRole.ToolTipRole,
    }
)


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
        # Whether the view's background is dark (the filtered rows' blue follows it).
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
        if role not in _ROLES or not index.isValid():
            return None  # the roles a paint asks for and none is given: at once
        row, col = index.row(), index.column()
        if not (
            0 <= row < len(self._systems) * len(self._scopes) and 0 <= col < len(self._metrics)
        ):
            return None
        system, scope = self._row(row)
        metric = self._metrics[col]
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
