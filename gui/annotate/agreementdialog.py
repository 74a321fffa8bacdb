"""The agreement dialog: this session's annotations against another annotator's session.

Span F1 by position, with severity, with category and with both; MQM-weighted F1; per system
the correlation of the segment penalties; and the disagreements, listed to step through (a click
shows that segment and system with the span selected). It opens beside the window, so the lead
edits while stepping through.
"""

from __future__ import annotations

import math
from pathlib import Path

from PySide6.QtCore import Qt, Signal, Slot
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDialog,
    QDialogButtonBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from matchlight.core.annotation.agreement import AgreementReport, SpanAgreement
from matchlight.core.annotation.model import ErrorSpan

__all__ = ["AGREEMENT_HEADERS", "DISAGREEMENT_HEADERS", "AgreementDialog", "agreement_rows"]


def _number(value: float, digits: int = 3) -> str:
    return "—" if math.isnan(value) else f"{value:.{digits}f}"


AGREEMENT_HEADERS = (
    "System",
    "Errors (this session)",
    "Errors (other)",
    "Position F1",
    "+ Severity F1",
    "+ Category F1",
    "All (exact) F1",
    "MQM-weighted F1",
    "Overlap F1",
    "Overlap P",
    "Overlap R",
    "Shared outputs",
    "MQM Pearson r",
    "MQM Kendall τb",
)


def agreement_rows(report: AgreementReport) -> list[list[str]]:
    """The agreement table as text (:data:`AGREEMENT_HEADERS`): per system and overall, spans
    of A and B, F1 of spans at the same place, with the same severity too, the same category
    too, and all three (exact); the MQM-weighted F1; character-overlap F1 (with P and R); and
    the MQM correlations (n, Pearson r, Kendall tau-b)."""

    def row(name: str, span: SpanAgreement, system: str | None) -> list[str]:
        corr = report.correlations.get(system) if system is not None else None
        return [
            name,
            str(span.spans_a),
            str(span.spans_b),
            _number(span.position_f1),
            _number(span.severity_f1),
            _number(span.category_f1),
            _number(span.exact_f1),
            _number(span.mqm_f1),
            _number(span.char_f1),
            _number(span.char_precision),
            _number(span.char_recall),
            "—" if corr is None else str(corr.n),
            "—" if corr is None else _number(corr.pearson),
            "—" if corr is None else _number(corr.kendall_tau_b),
        ]

    rows = [row(name, span, name) for name, span in report.per_system.items()]
    rows.append(row("all systems", report.overall, None))
    return rows


def _said(span: ErrorSpan | None) -> str:
    """What one annotator marked, in a cell: ``major Accuracy «wrap»`` (— for nothing)."""
    if span is None:
        return "—"
    what = span.severity.value + (f" {span.category}" if span.category else "")
    where = f"«{_clip(span.text)}»" if span.text else "‸ omission"
    side = " (source)" if span.side.value == "source" else ""
    return f"{what} {where}{side}"


def _clip(text: str, limit: int = 40) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


DISAGREEMENT_HEADERS = ("Segment", "System", "Difference", "This session", "Other")


class AgreementDialog(QDialog):
    """Span agreement and MQM correlation between this session and another annotator's, and
    the list of their disagreements to step through.

    Signals:
        disagreement_chosen(Disagreement): the user picked one (click, Previous / Next): the
            window shows its segment and selects the span.
    """

    disagreement_chosen = Signal(object)

    def __init__(self, report: AgreementReport, other: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("agreement-dialog")
        self.setWindowTitle("Annotator agreement")
        self.report = report
        rows = agreement_rows(report)
        self.table = QTableWidget(len(rows), len(AGREEMENT_HEADERS))
        self.table.setHorizontalHeaderLabels(list(AGREEMENT_HEADERS))
        self.table.verticalHeader().hide()
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        for r, values in enumerate(rows):
            for c, value in enumerate(values):
                item = QTableWidgetItem(value)
                if c:
                    item.setTextAlignment(
                        Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter
                    )
                self.table.setItem(r, c, item)
        self.table.resizeColumnsToContents()
        self.table.setFocusPolicy(Qt.FocusPolicy.NoFocus)  # a read-only table: no current cell
        height = self.table.horizontalHeader().height() + self.table.frameWidth() * 2 + 2
        for r in range(len(rows)):
            height += self.table.rowHeight(r)
        self.table.setFixedHeight(height)
        note = QLabel(
            f"Compared with {Path(other).name}; confirmed errors only. Position: the same "
            "output, side, start and end. + Severity, + Category: the same place and that label "
            "too. All (exact): place, severity and category (a Major error against a Critical "
            "one on the same words is not a match). MQM-weighted: each pair at the same place "
            "counts with the smaller of its two MQM weights, so a disagreement on a major "
            "error weighs more than one on a minor punctuation mark. Overlap: characters "
            "covered by both (omissions count in matching only); P and R read this session as "
            "the candidate. Correlations: the two MQM scores of the outputs both annotators "
            "rated."
        )
        note.setWordWrap(True)

        found = report.disagreements
        self.disagreements = QTreeWidget()
        self.disagreements.setObjectName("disagreements")
        self.disagreements.setRootIsDecorated(False)
        self.disagreements.setUniformRowHeights(True)
        self.disagreements.setHeaderLabels(list(DISAGREEMENT_HEADERS))
        self.disagreements.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        header = self.disagreements.header()
        header.setStretchLastSection(False)
        for column in (3, 4):
            header.setSectionResizeMode(column, QHeaderView.ResizeMode.Stretch)
        for index, found_one in enumerate(found):
            item = QTreeWidgetItem(
                [
                    str(found_one.segment + 1),
                    found_one.system,
                    found_one.kind.value,
                    _said(found_one.a),
                    _said(found_one.b),
                ]
            )
            item.setData(0, Qt.ItemDataRole.UserRole, index)
            item.setToolTip(0, found_one.describe())
            item.setTextAlignment(0, Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
            self.disagreements.addTopLevelItem(item)
        for column in (0, 1, 2):
            self.disagreements.resizeColumnToContents(column)
        self.disagreements.itemActivated.connect(self._on_item_chosen)
        self.disagreements.itemClicked.connect(self._on_item_chosen)
        self.previous_button = QPushButton("◀ Previous")
        self.previous_button.clicked.connect(self._on_previous_clicked)
        self.next_button = QPushButton("Next ▶")
        self.next_button.setDefault(True)
        self.next_button.clicked.connect(self._on_next_clicked)
        self.position_label = QLabel()
        self.position_label.setObjectName("disagreement-position")
        steps = QHBoxLayout()
        steps.addWidget(self.previous_button)
        steps.addWidget(self.next_button)
        steps.addWidget(self.position_label, 1)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        steps.addWidget(buttons)
        count = len(found)
        title = QLabel(
            f"{count} disagreement{'' if count == 1 else 's'}: click one (or press Next) to "
            "see its segment, with the error selected in this session's output."
            if count
            else "No disagreements: both annotators marked the same errors."
        )
        title.setWordWrap(True)
        layout = QVBoxLayout(self)
        layout.addWidget(self.table)
        layout.addWidget(note)
        layout.addWidget(title)
        layout.addWidget(self.disagreements, 1)
        layout.addLayout(steps)
        width = self.table.horizontalHeader().length() + self.table.frameWidth() * 2 + 30
        self.resize(min(max(width, 720), 1400), 620)
        self._update_steps()

    def current(self) -> int:
        """The index of the disagreement chosen (-1: none)."""
        item = self.disagreements.currentItem()
        value = None if item is None else item.data(0, Qt.ItemDataRole.UserRole)
        return value if isinstance(value, int) else -1

    def choose(self, index: int) -> None:
        """Make disagreement ``index`` the current one and ask the window to show it."""
        item = self.disagreements.topLevelItem(index)
        if item is None:
            return
        self.disagreements.setCurrentItem(item)
        self.disagreements.scrollToItem(item)
        self._update_steps()
        self.disagreement_chosen.emit(self.report.disagreements[index])

    def step(self, delta: int) -> None:
        """The next (``delta`` 1) or previous (-1) disagreement."""
        count = self.disagreements.topLevelItemCount()
        if count == 0:
            return
        current = self.current()
        index = (0 if delta > 0 else count - 1) if current < 0 else current + delta
        self.choose(max(0, min(count - 1, index)))

    def _update_steps(self) -> None:
        count = self.disagreements.topLevelItemCount()
        current = self.current()
        self.previous_button.setEnabled(count > 0 and current > 0)
        self.next_button.setEnabled(count > 0 and current < count - 1)
        self.position_label.setText(f"{current + 1} of {count}" if current >= 0 else "")

    @Slot(QTreeWidgetItem, int)
    def _on_item_chosen(self, item: QTreeWidgetItem, _column: int) -> None:
        index = item.data(0, Qt.ItemDataRole.UserRole)
        if isinstance(index, int):
            self.choose(index)

    @Slot()
    def _on_previous_clicked(self) -> None:
        self.step(-1)

    @Slot()
    def _on_next_clicked(self) -> None:
        self.step(1)


# -- recovered sessions ------------------------------------------------------------------------
