"""Multi-reference honesty: each system scored against each reference alone and against all of
them, and a warning when a reference is suspiciously close to one system's output.

Scores against each reference alone come from the engine (:mod:`core.analysis.perreference`:
one scoring run per reference, on a comparison holding that reference alone, for the metric of
the chosen column), in a background job; they are kept for the comparison's settings, so a new
selection only sums statistics again. The audit is :func:`core.analysis.references.
audit_references` with each line's sentence score against each reference alone as similarity:
on wmt22-en-zh it finds that ref2 equals Online-B's output on 373 of 2,037 lines, and says so.

:func:`quick_audit` is the audit on identical lines alone (no scoring); the comparison dock runs
it with :class:`SteppedAudit` once the comparison is scored, so the panel warns whichever tab is
shown.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import numpy as np
from PySide6.QtCore import (
    QT_TRANSLATE_NOOP,
    QAbstractTableModel,
    QCoreApplication,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    Qt,
    QTimer,
    Signal,
    Slot,
)
from PySide6.QtGui import QColor, QFont
from PySide6.QtWidgets import (
    QComboBox,
    QHeaderView,
    QLabel,
    QTableView,
    QWidget,
)

from matchlight.core.analysis.perreference import (
    ReferenceReport,
    reference_report,
    single_reference_tables,
)
from matchlight.core.analysis.references import (
    ReferenceAudit,
    audit_references,
    identical_counts_in_steps,
    leak_messages,
)
from matchlight.core.scoring.engine import iter_score_chunks, iter_score_chunks_offloaded
from matchlight.core.scoring.results import ScoreTable
from matchlight.core.session.comparison import ComparisonSession
from matchlight.gui.charts.base import compact, fill_combo
from matchlight.gui.charts.jobpanel import JobPanel
from matchlight.gui.charts.link import ChartLink

__all__ = [
    "OFFLOAD_FROM",
    "ReferenceModel",
    "ReferencesPanel",
    "SteppedAudit",
    "audit_warning",
    "quick_audit",
]

Index = QModelIndex | QPersistentModelIndex

# From this many segments on, the per-reference scoring runs in worker processes (a thread
# would hold the GIL the window needs).
OFFLOAD_FROM = 5_000
# The warning's colours (light, dark): text on a tinted box.
_WARNING_STYLE = {
    False: "QLabel { background: #fff4ce; color: #4d3800; border: 1px solid #e0b400; "
    "padding: 4px; }",
    True: "QLabel { background: #4d3c00; color: #ffe9a3; border: 1px solid #b38f00; "
    "padding: 4px; }",
}


def quick_audit(core: ComparisonSession) -> ReferenceAudit:
    """The audit on identical lines alone (after whitespace normalisation), every row."""
    text = core.text
    return audit_references(
        references=text.references,
        systems=text.systems,
        reference_names=core.reference_names,
        system_names=text.system_names,
    )


# Rows a :class:`SteppedAudit` compares at a time (a millisecond or two)...
AUDIT_STEP_ROWS = 128
# ...and for how long, in seconds, it goes on comparing in one turn of the event loop: a turn
# stays short however loaded the machine is (a fixed number of rows took 60 ms on a busy one).
AUDIT_TURN_S = 0.010


class SteppedAudit(QObject):
    """:func:`quick_audit` in the GUI thread, :data:`AUDIT_STEP_ROWS` rows at a time for
    :data:`AUDIT_TURN_S` per turn of the event loop.

    In a thread of its own the audit competed with painting for the GIL: every call from Qt
    into Python waited for it, and the window stalled at 100k segments. In steps
    it takes a few milliseconds at a time and nothing waits.

    Signals:
        finished(object audit): the :class:`ReferenceAudit` of the comparison started.
    """

    finished = Signal(object)

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._core: ComparisonSession | None = None
        self._steps: Any = None
        self._timer = QTimer(self)
        self._timer.setInterval(0)
        self._timer.timeout.connect(self._on_timeout)

    @property
    def running(self) -> bool:
        return self._steps is not None

    def start(self, core: ComparisonSession) -> None:
        """Audit ``core``'s references (a run under way is dropped)."""
        text = core.text
        self._core = core
        self._steps = identical_counts_in_steps(text.references, text.systems, step=AUDIT_STEP_ROWS)
        self._timer.start()

    def cancel(self) -> None:
        self._timer.stop()
        self._steps = None
        self._core = None

    def shutdown(self) -> None:
        self.cancel()

    @Slot()
    def _on_timeout(self) -> None:
        steps, core = self._steps, self._core
        if steps is None or core is None:
            self._timer.stop()
            return
        until = time.perf_counter() + AUDIT_TURN_S
        try:
            while True:
                next(steps)
                if time.perf_counter() >= until:
                    return
        except StopIteration as done:
            counts = done.value
        self.cancel()
        text = core.text
        self.finished.emit(
            audit_references(
                references=text.references,
                systems=text.systems,
                reference_names=core.reference_names,
                system_names=text.system_names,
                identical=counts,
            )
        )


def audit_warning(audit: ReferenceAudit) -> str | None:
    """A sentence per reference that looks made from one system's output, or None."""
    messages = leak_messages(audit)
    return "⚠ " + " ".join(messages) if messages else None


class ReferenceModel(QAbstractTableModel):
    """Rows: systems; columns: the score against each reference alone, against all, then the
    lines identical to each reference (and near-identical, at the audit's threshold).
    ``Qt.UserRole`` gives the unrounded number."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._report: ReferenceReport | None = None

    def set_report(self, report: ReferenceReport | None) -> None:
        self.beginResetModel()
        self._report = report
        self.endResetModel()

    @property
    def report(self) -> ReferenceReport | None:
        return self._report

    def _n_refs(self) -> int:
        return 0 if self._report is None else len(self._report.breakdown.references)

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        if parent.isValid() or self._report is None:
            return 0
        return len(self._report.breakdown.systems)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        if parent.isValid() or self._report is None:
            return 0
        return 2 * self._n_refs() + 1

    def _pair(self, row: int, reference: int) -> Any:
        report = self._report
        assert report is not None
        n_sys = len(report.breakdown.systems)
        return report.audit.pairs[reference * n_sys + row]

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        report = self._report
        if report is None or not index.isValid() or not self.hasIndex(index.row(), index.column()):
            return None
        row, column = index.row(), index.column()
        n_refs = self._n_refs()
        breakdown = report.breakdown
        if column <= n_refs:
            value = (
                float(breakdown.single[row, column])
                if column < n_refs
                else float(breakdown.combined[row])
            )
            if role == Qt.ItemDataRole.DisplayRole:
                return f"{value:.2f}"
            if role == Qt.ItemDataRole.UserRole:
                return value
            if role == Qt.ItemDataRole.TextAlignmentRole:
                return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
            if role == Qt.ItemDataRole.FontRole and column == n_refs:
                font = QFont()
                font.setBold(True)
                return font
            return None
        pair = self._pair(row, column - n_refs - 1)
        if role == Qt.ItemDataRole.DisplayRole:
            near = "" if pair.near is None else f" ({pair.near:,} near)"
            return f"{pair.identical:,}{near}"
        if role == Qt.ItemDataRole.UserRole:
            return pair.identical
        if role == Qt.ItemDataRole.TextAlignmentRole:
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        if role == Qt.ItemDataRole.ForegroundRole and pair.flagged:
            return QColor("#c8102e")
        if role == Qt.ItemDataRole.FontRole and pair.flagged:
            font = QFont()
            font.setBold(True)
            return font
        if role == Qt.ItemDataRole.ToolTipRole:
            text = QCoreApplication.translate(
                "ReferenceModel",
                "{0:,} of {1:,} lines of {2} equal {3} (other systems: {4:g}, median)",
            ).format(
                pair.identical, pair.n_rows, pair.system, pair.reference, pair.identical_baseline
            )
            if pair.near is not None:
                text += (
                    f"; {pair.near:,} at least {report.audit.near_threshold:g} similar "
                    f"(sentence {report.label} against {pair.reference} alone)"
                )
            return text + (f". Flagged: {pair.reason}" if pair.flagged else "")
        return None

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        report = self._report
        if report is None or role not in (
            Qt.ItemDataRole.DisplayRole,
            Qt.ItemDataRole.ToolTipRole,
        ):
            return None
        names = report.breakdown.references
        n_refs = len(names)
        tooltip = role == Qt.ItemDataRole.ToolTipRole
        if orientation == Qt.Orientation.Vertical:
            systems = report.breakdown.systems
            return systems[section] if 0 <= section < len(systems) else None
        if section < n_refs:
            return (
                f"corpus {report.label} against {names[section]} alone"
                if tooltip
                else f"{report.label} vs {names[section]}"
            )
        if section == n_refs:
            return (
                QCoreApplication.translate(
                    "ReferenceModel", "corpus {0} against all {n_refs} references"
                ).format(report.label, n_refs=n_refs)
                if tooltip
                else f"{report.label} vs all"
            )
        if 0 <= section - n_refs - 1 < n_refs:
            name = names[section - n_refs - 1]
            return (
                QCoreApplication.translate(
                    "ReferenceModel",
                    "lines equal to {name} (whitespace normalised); near: sentence {0} ≥ "
                    "{1:g} against {name} alone",
                ).format(report.label, report.audit.near_threshold, name=name)
                if tooltip
                else f"= {name}"
            )
        return None


class ReferencesPanel(JobPanel):
    """Scores per reference, the audit, and its warning.

    Signals:
        warning_changed(str text): the audit's warning ("" when nothing is flagged).
    """

    title = QT_TRANSLATE_NOOP("ChartPanel", "References")
    job_name = "matchlight-references"
    failure = QT_TRANSLATE_NOOP("JobPanel", "The references could not be scored")
    warning_changed = Signal(str)

    def __init__(self, link: ChartLink, parent: QWidget | None = None) -> None:
        super().__init__(link, parent)
        self.export_button.hide()
        self.metric_combo = QComboBox()
        self.metric_combo.setToolTip(
            QCoreApplication.translate(
                "ReferencesPanel", "The score computed against each reference alone"
            )
        )
        compact(self.metric_combo)
        self.metric_combo.currentIndexChanged.connect(self._on_choice_changed)
        self.controls.addWidget(QLabel(QCoreApplication.translate("ReferencesPanel", "Score:")))
        self.controls.addWidget(self.metric_combo)
        self.controls.addWidget(self.progress)
        self.controls.addStretch(1)
        self.warning = QLabel()
        self.warning.setWordWrap(True)
        self.warning.hide()
        # Whether the warning shows inside the panel (the comparison dock shows it above
        # every tab instead).
        self.inline_warning = True
        self.model = ReferenceModel(self)
        self.view = QTableView()
        self.view.setModel(self.model)
        self.view.setEditTriggers(QTableView.EditTrigger.NoEditTriggers)
        self.view.setSelectionMode(QTableView.SelectionMode.NoSelection)
        self.view.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.add_body(self.warning, 0)
        self.add_body(self.view, 1)

        # Tables scored against each reference alone, for (table, metric).
        self._singles: tuple[int, str, tuple[ScoreTable, ...]] | None = None
        self.listen(link.session_changed, self._on_session_changed)
        self.apply_theme()

    @property
    def score_key(self) -> str | None:
        data = self.metric_combo.currentData()
        return data if isinstance(data, str) else None

    def set_metric(self, key: str) -> None:
        self._update_choices()
        index = self.metric_combo.findData(key)
        if index < 0:
            raise ValueError(f"{key!r} is not offered")
        self.metric_combo.setCurrentIndex(index)
        self.schedule()

    def _update_choices(self) -> None:
        table = self.link.table
        items: list[tuple[str, object]] = []
        if table is not None:
            items = [
                (c.label, c.key)
                for c in table.columns
                if c.kind == "score" and c.headline and c.key not in table.external
            ]
        fill_combo(self.metric_combo, items)

    @Slot()
    def _on_session_changed(self) -> None:
        self.job.cancel()
        self._singles = None
        self.model.set_report(None)

    @Slot(int)
    def _on_choice_changed(self, _index: int) -> None:
        self.schedule()

    def apply_theme(self) -> None:
        self.warning.setStyleSheet(_WARNING_STYLE[self.theme.dark])

    def refresh(self) -> None:
        self._update_choices()
        table = self.link.table
        core = self.link.core
        if table is None or core is None:
            self.job.cancel()
            self.show_placeholder(
                QCoreApplication.translate(
                    "ReferencesPanel", "Open a comparison to see what each reference contributes."
                )
            )
            return
        if not table.complete:
            self.show_placeholder(
                QCoreApplication.translate(
                    "ReferencesPanel", "Scoring… this view appears when every segment is scored."
                )
            )
            return
        key = self.score_key
        if key is None:
            return
        metric = table.column_info(key).metric
        rows = np.flatnonzero(self.link.population(self)).astype(np.int64)
        text = core.text
        names = core.reference_names
        config = table.config
        cached = self._singles
        singles = cached[2] if cached is not None and cached[:2] == (id(table), key) else None
        chunks = iter_score_chunks_offloaded if len(text) >= OFFLOAD_FROM else iter_score_chunks

        def work(cancelled: Callable[[], bool], progress: Callable[[float], None]) -> object:
            made = singles
            if made is None:
                made = single_reference_tables(
                    text,
                    config,
                    metric=metric,
                    chunk_source=chunks,
                    cancel=cancelled,
                    progress=lambda f: progress(0.9 * f),
                )
                if made is None:
                    return None
            report = reference_report(
                text=text, table=table, singles=made, column=key, reference_names=names, rows=rows
            )
            progress(1.0)
            return (id(table), key, made, report)

        self.start_job(work)

    def job_done(self, payload: object) -> None:
        if not isinstance(payload, tuple):
            return
        table_id, key, singles, report = payload
        self._singles = (table_id, key, singles)
        self.show_body()
        self.model.set_report(report)
        message = audit_warning(report.audit)
        self.warning.setText(message or "")
        self.warning.setVisible(message is not None and self.inline_warning)
        self.warning_changed.emit(message or "")
        n_refs = len(report.breakdown.references)
        caption = QCoreApplication.translate(
            "ReferencesPanel",
            "Corpus {0} of each system against each reference alone and against all "
            "{n_refs}, over {1:,} segments, scored by the engine with one reference at "
            "a time. '= ref' counts the lines identical to that reference (near: "
            "sentence {2} ≥ {3:g} against it alone); a reference far closer to one "
            "system than to the others is flagged.",
        ).format(
            report.label, report.n_rows, report.label, report.audit.near_threshold, n_refs=n_refs
        )
        if n_refs == 1:
            caption = QCoreApplication.translate(
                "ReferencesPanel",
                "One reference: corpus {0} per system, and the lines identical to the "
                "reference, over {1:,} segments.",
            ).format(report.label, report.n_rows)
        self.caption.setText(caption)
