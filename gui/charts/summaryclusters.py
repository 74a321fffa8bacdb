"""The significance clusters of the summary's figures: ``[1]`` best, per column, over all rows
and, while a filter is on, over the filtered rows.

A system starts a new cluster when it is significantly worse (paired bootstrap, p < 0.05) than
the best system of the current cluster (:mod:`core.analysis.clusters`). The paired tests run in a
:class:`~gui.charts.jobs.BackgroundJob`, never in the GUI thread, once every row is scored; a
line under the figures says which rows they cover, with which test, or that they are being
computed.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt
from PySide6.QtCore import QCoreApplication, QObject, Qt, QTimer, Signal, Slot
from PySide6.QtWidgets import QLabel

from matchlight.core.analysis.clusters import (
    SIGNIFICANCE_THRESHOLD,
    SystemClusters,
    rank_clusters,
)
from matchlight.core.analysis.columnstats import NotTestable, pairwise_for_column
from matchlight.core.analysis.significance import DEFAULT_BOOTSTRAP_SAMPLES, DEFAULT_SEED
from matchlight.core.scoring.results import ScoreTable
from matchlight.gui.charts.jobs import BackgroundJob
from matchlight.gui.charts.scopedcache import ScopedCache
from matchlight.gui.charts.summarymodel import SummaryModel, summary_metrics

__all__ = ["CLUSTER_SAMPLES", "CLUSTER_SEED", "SETTLE_MS", "SummaryClusters"]

# A column's ranking: its systems' clusters, or why it cannot be ranked.
Ranking = SystemClusters | str
# The clusters' paired test: sacreBLEU's bootstrap, its default resamples and seed.
CLUSTER_SAMPLES = DEFAULT_BOOTSTRAP_SAMPLES
CLUSTER_SEED = DEFAULT_SEED
# A column that changes (MQM, after every annotation edit) is ranked again once it has not
# changed for this long: a thousand resamples a keystroke would compete with the next edit.
SETTLE_MS = 1000


class SummaryClusters(QObject):
    """Ranks the systems of the :class:`SummaryModel`'s figures into significance clusters and
    says so in :attr:`label` (the line under the figures).

    Signals:
        arrived(): the paired tests of a run finished; :meth:`update` shows them.
    """

    arrived = Signal()

    def __init__(self, model: SummaryModel, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.model = model
        self.label = QLabel()
        self.label.setObjectName("cluster-note")
        self.label.setWordWrap(True)
        self.label.setTextFormat(Qt.TextFormat.PlainText)
        self.label.hide()
        # Per scope ("all", "filtered"), each column's ranking (its clusters, or why it cannot
        # be ranked), kept for self._table and, the filtered scope's, for the rows
        # fingerprinted by self._filter; the run under way (its token) and how far it got.
        self._table: ScoreTable | None = None
        self._filter: bytes | None = None
        self._ranked: dict[str, ScopedCache[str, Ranking]] = {
            "all": ScopedCache(),
            "filtered": ScopedCache(),
        }
        self._running: tuple[object, ...] | None = None
        self._progress = 0.0
        self.job = BackgroundJob(self, name="matchlight-clusters")
        self.job.finished.connect(self._on_finished)
        self.job.failed.connect(self._on_failed)
        self.job.progress_changed.connect(self._on_progress)
        # A run asked for while a column is still changing waits here for the pause.
        self._settle = QTimer(self)
        self._settle.setSingleShot(True)
        self._settle.setInterval(SETTLE_MS)
        self._settle.timeout.connect(self._settled)
        self._pending: tuple[Any, ...] | None = None

    @property
    def settling(self) -> bool:
        """Whether a run waits for a changing column to settle (:data:`SETTLE_MS`)."""
        return self._settle.isActive() or self._pending is not None

    def covers(self, table: ScoreTable) -> bool:
        """Whether the clusters known are of ``table``."""
        return table is self._table

    def column_changed(self, key: str) -> None:
        """Column ``key`` was added, replaced or removed: its clusters are ranked again."""
        for ranked in self._ranked.values():
            ranked.discard(key)
        self._running = None
        self._settle.start()  # (again): its ranking starts once the column stops changing

    def _kept(self, scope: str) -> dict[str, Ranking]:
        """The rankings kept for ``scope`` of the table and the filtered rows ranked now."""
        fingerprint = self._filter if scope == "filtered" else None
        return self._ranked[scope].for_scope(self._table, fingerprint)

    @staticmethod
    def _scopes(
        filtered: npt.NDArray[np.int64] | None,
    ) -> dict[str, npt.NDArray[np.int64] | None]:
        """The rows each scope's clusters cover (None: all rows)."""
        scopes: dict[str, npt.NDArray[np.int64] | None] = {"all": None}
        if filtered is not None and len(filtered):
            # The selection's rows come in file order already: no sort of a million rows.
            increasing = bool((filtered[1:] >= filtered[:-1]).all())
            scopes["filtered"] = filtered if increasing else np.sort(filtered)
        return scopes

    def _stop(self) -> None:
        """No clusters shown, and none computed or waiting to be."""
        self.job.cancel()
        self._running = None
        self._pending = None
        self.model.set_clusters({}, {})

    def update(
        self,
        table: ScoreTable | None,
        done: npt.NDArray[np.int64],
        filtered: npt.NDArray[np.int64] | None,
        *,
        reading: bool = False,
    ) -> None:
        """Show the clusters known for the figures shown, and start the paired tests of those
        missing (in the background; a run for other rows is cancelled). ``done``: the rows
        scored; ``filtered``: the rows the filter keeps (None: no filter); ``reading``: the
        table is the first rows of a comparison still read, which are not ranked (their tests
        would run beside the read and the window's first turns, and the whole replaces them)."""
        if table is None or len(table.systems) < 2:
            self._stop()
            self.label.hide()
            return
        if reading:
            self._stop()
            self.label.setText(
                QCoreApplication.translate(
                    "SummaryWidget",
                    "Significance clusters [n] follow once the files are read and every row is "
                    "scored.",
                )
            )
            self.label.show()
            return
        self.label.show()
        if len(done) < table.n_segments:
            self.model.set_clusters({}, {})
            self.label.setText(
                QCoreApplication.translate(
                    "SummaryWidget", "Significance clusters [n] follow once every row is scored."
                )
            )
            return
        if table is not self._table:
            self.job.cancel()
            self._table = table
            self._running = None
        scopes = self._scopes(filtered)
        chosen = scopes.get("filtered")
        fingerprint = None if chosen is None else chosen.tobytes()
        self._filter = fingerprint
        if chosen is None:
            self._ranked["filtered"].clear()  # a filter again is ranked again
        keys = summary_metrics(table)
        kept = {scope: self._kept(scope) for scope in scopes}
        counts = {
            scope: table.n_segments if rows is None else len(rows) for scope, rows in scopes.items()
        }
        self.model.set_clusters(
            {
                (scope, key): ranking
                for scope, ranked in kept.items()
                for key, ranking in ranked.items()
                if key in keys and isinstance(ranking, SystemClusters)
            },
            counts,
        )
        missing = [(scope, key) for scope in scopes for key in keys if key not in kept[scope]]
        if not missing:
            self._running = None
            self.label.setText(self._note(table, scopes, keys))
            return
        token = (id(table), fingerprint, tuple(missing))
        if self._settle.isActive():
            self.job.cancel()  # of the column's old values
            self._running = None
            self._pending = (table, scopes, missing, token)
        elif token != self._running:
            self._start(table, scopes, missing, token)
        self.label.setText(
            QCoreApplication.translate(
                "SummaryWidget",
                "Significance clusters [n]: paired tests of every pair of systems over {0}… {1}%",
            ).format(self._rows_text(counts), round(100 * self._progress))
        )

    def _start(
        self,
        table: ScoreTable,
        scopes: dict[str, npt.NDArray[np.int64] | None],
        missing: list[tuple[str, str]],
        token: tuple[object, ...],
    ) -> None:
        self._running = token
        self._progress = 0.0
        infos = {key: table.column_info(key) for _, key in missing}

        def work(cancelled: Any, progress: Any) -> object:
            ranked: dict[tuple[str, str], Ranking] = {}
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
                    ranked[scope, key] = str(why)
                    continue
                ranked[scope, key] = rank_clusters(
                    info.label,
                    table.systems,
                    pairwise.scores,
                    pairwise.p_value,
                    better=info.better,
                )
            return token, ranked

        self.job.start(work)

    @Slot()
    def _settled(self) -> None:
        pending, self._pending = self._pending, None
        if pending is not None and pending[0] is self._table and pending[3] != self._running:
            self._start(*pending)

    @Slot(object)
    def _on_finished(self, payload: object) -> None:
        if not isinstance(payload, tuple) or payload[0] != self._running:
            return  # for rows or columns no longer shown
        for (scope, key), ranking in payload[1].items():
            self._kept(scope)[key] = ranking
        self._running = None
        self.arrived.emit()

    @Slot(str)
    def _on_failed(self, message: str) -> None:
        self._running = None
        self.label.setText(
            QCoreApplication.translate(
                "SummaryWidget", "Significance clusters could not be computed: {message}"
            ).format(message=message)
        )

    @Slot(float)
    def _on_progress(self, fraction: float) -> None:
        self._progress = fraction
        text = self.label.text()
        if self._running is not None and text.endswith("%"):
            self.label.setText(f"{text.rsplit('… ', 1)[0]}… {round(100 * fraction)}%")

    @staticmethod
    def _rows_text(counts: dict[str, int]) -> str:
        text = QCoreApplication.translate("SummaryWidget", "all {0:,} rows").format(counts["all"])
        if "filtered" in counts:
            text += QCoreApplication.translate(
                "SummaryWidget", " and the {0:,} filtered rows"
            ).format(counts["filtered"])
        return text

    def _note(
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
        self.label.setToolTip(
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
            for scope in scopes
            for key, why in self._kept(scope).items()
            if key in keys and isinstance(why, str)
        }
        if skipped:
            text += (
                QCoreApplication.translate("SummaryWidget", " Not ranked: ")
                + "; ".join(f"{k} ({v})" for k, v in skipped.items())
                + "."
            )
        return text
