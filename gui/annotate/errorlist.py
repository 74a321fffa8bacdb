"""The annotation panel's list of the output's errors: each with its category, severity and
status, and the buttons that confirm, reject, delete or re-attach the one chosen.

Like the panel, it shows the :class:`~gui.annotate.controller.AnnotationController`'s state and
turns clicks into its calls; it keeps no annotation state itself.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, Qt, Slot
from PySide6.QtGui import QBrush, QColor
from PySide6.QtWidgets import (
    QAbstractItemView,
    QGroupBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from matchlight.core.annotation.model import Side, Status
from matchlight.core.style.palette import theme
from matchlight.gui.annotate.controller import AnnotationController
from matchlight.gui.annotate.painting import SEVERITY_COLORS
from matchlight.gui.annotate.review import AnnotationReview
from matchlight.gui.annotate.tablelink import AnnotationTableLink
from matchlight.gui.annotate.viewtools import severity_name, status_name
from matchlight.gui.highlight.palette import is_dark_palette

__all__ = ["ErrorList"]


class ErrorList(QGroupBox):
    """The errors of the output being annotated (source errors marked as such), for the panel."""

    def __init__(
        self,
        controller: AnnotationController,
        table: AnnotationTableLink,
        review: AnnotationReview,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(
            QCoreApplication.translate("AnnotationPanel", "Errors in this output"), parent
        )
        self.controller = controller
        self.table = table
        self.review = review
        spans_layout = QVBoxLayout(self)
        self.view = QTreeWidget()
        self.view.setObjectName("spans")
        self.view.setRootIsDecorated(False)
        self.view.setUniformRowHeights(True)
        self.view.setHeaderLabels(
            [
                QCoreApplication.translate("AnnotationPanel", "Text"),
                QCoreApplication.translate("AnnotationPanel", "Category"),
                QCoreApplication.translate("AnnotationPanel", "Severity"),
                QCoreApplication.translate("AnnotationPanel", "Status"),
            ]
        )
        self.view.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.view.header().setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        self.view.header().setStretchLastSection(False)
        self.view.itemActivated.connect(self._on_span_activated)
        self.view.itemClicked.connect(self._on_span_activated)
        self.view.setMinimumHeight(110)
        spans_layout.addWidget(self.view)
        row = QHBoxLayout()
        self.confirm_button = QPushButton(QCoreApplication.translate("AnnotationPanel", "Confirm"))
        self.confirm_button.setToolTip(
            QCoreApplication.translate(
                "AnnotationPanel", "Confirm the pre-annotated error (Enter on it)"
            )
        )
        self.confirm_button.clicked.connect(self._on_confirm_clicked)
        self.reject_button = QPushButton(QCoreApplication.translate("AnnotationPanel", "Reject"))
        self.reject_button.setToolTip(
            QCoreApplication.translate(
                "AnnotationPanel", "Reject the pre-annotated error (Backspace on it)"
            )
        )
        self.reject_button.clicked.connect(self._on_reject_clicked)
        self.delete_button = QPushButton(QCoreApplication.translate("AnnotationPanel", "Delete"))
        self.delete_button.setToolTip(
            QCoreApplication.translate("AnnotationPanel", "Delete the error (Backspace on it)")
        )
        self.delete_button.clicked.connect(self._on_delete_clicked)
        self.reattach_button = QPushButton(
            QCoreApplication.translate("AnnotationPanel", "Re-attach")
        )
        self.reattach_button.setToolTip(
            QCoreApplication.translate(
                "AnnotationPanel",
                "Put the chosen lost error (flagged: not found) on the text selected in the output",
            )
        )
        self.reattach_button.clicked.connect(self._on_reattach_clicked)
        for widget in (
            self.confirm_button,
            self.reject_button,
            self.delete_button,
            self.reattach_button,
        ):
            row.addWidget(widget)
        row.addStretch(1)
        spans_layout.addLayout(row)
        self.flagged_label = QLabel()
        self.flagged_label.setObjectName("flagged")
        self.flagged_label.setWordWrap(True)
        self.flagged_button = QPushButton(
            QCoreApplication.translate("AnnotationPanel", "Show their rows")
        )
        self.flagged_button.clicked.connect(self._on_show_flagged_clicked)
        flagged_row = QHBoxLayout()
        flagged_row.addWidget(self.flagged_label, 1)
        flagged_row.addWidget(self.flagged_button)
        spans_layout.addLayout(flagged_row)

    def refresh(self) -> None:
        c = self.controller
        spans = c.target_spans()
        current = self.selected_id()
        self.view.clear()
        dark = is_dark_palette(self.palette())
        for span in spans:
            flagged = span.id in c.flagged
            status = (
                QCoreApplication.translate("AnnotationPanel", "flagged: not found")
                if flagged
                else status_name(span.status)
            )
            text = (
                span.text
                if span.text
                else QCoreApplication.translate("AnnotationPanel", "‸ (omission)")
            )
            item = QTreeWidgetItem(
                [
                    QCoreApplication.translate("AnnotationPanel", "source: {0}").format(text)
                    if span.side is Side.SOURCE
                    else text,
                    span.category or "—",
                    severity_name(span.severity),
                    status,
                ]
            )
            item.setData(0, Qt.ItemDataRole.UserRole, span.id)
            color = QColor(SEVERITY_COLORS[span.severity][1 if dark else 0])
            item.setForeground(2, QBrush(color))
            if flagged:
                item.setForeground(3, QBrush(QColor(theme(dark).unmatched_line)))
            category = span.category or QCoreApplication.translate("AnnotationPanel", "error")
            tip = [f"{category} · {severity_name(span.severity)} · {status_name(span.status)}"]
            if span.note:
                tip.append(
                    QCoreApplication.translate("AnnotationPanel", "Note: {0}").format(span.note)
                )
            tip.append(
                QCoreApplication.translate("AnnotationPanel", "By {annotator} ({origin})").format(
                    annotator=span.annotator, origin=span.origin.label()
                )
            )
            item.setToolTip(0, "\n".join(tip))
            self.view.addTopLevelItem(item)
            if span.id == current:
                item.setSelected(True)
        for column in (1, 2, 3):
            self.view.resizeColumnToContents(column)
        ws = c.workspace
        lost = 0 if ws is None else sum(1 for i in c.flagged if ws.get(i) is not None)
        self.flagged_label.setText(
            QCoreApplication.translate(
                "AnnotationPanel", "⚠ {0} errors could not be found again in the changed files."
            ).format(lost)
            if lost
            else ""
        )
        self.flagged_label.setVisible(bool(lost))
        self.flagged_button.setVisible(bool(lost))
        self.reattach_button.setVisible(bool(lost))

    def selected_id(self) -> str | None:
        items = self.view.selectedItems()
        if not items:
            return None
        value = items[0].data(0, Qt.ItemDataRole.UserRole)
        return value if isinstance(value, str) else None

    @Slot(QTreeWidgetItem, int)
    def _on_span_activated(self, item: QTreeWidgetItem, _column: int) -> None:
        span_id = item.data(0, Qt.ItemDataRole.UserRole)
        ws = self.controller.workspace
        span = None if ws is None or not isinstance(span_id, str) else ws.get(span_id)
        if span is not None and span.id not in self.controller.flagged:
            self.controller.select_range(span.start, span.end, span.side)
        elif span is not None:
            self.controller.say(
                QCoreApplication.translate(
                    "AnnotationPanel",
                    "«{0}» was not found again: select its new text in the output and "
                    "press Re-attach, or delete it.",
                ).format(span.text)
            )

    def _act_on_selected(self, status: Status | None) -> None:
        span_id = self.selected_id()
        if span_id is None:
            self.controller.message_changed.emit(
                QCoreApplication.translate("AnnotationPanel", "Pick an error in the list first.")
            )
            return
        if status is None:
            self.controller.delete_span(span_id)
        else:
            self.controller.set_status(span_id, status)

    @Slot()
    def _on_confirm_clicked(self) -> None:
        self._act_on_selected(Status.CONFIRMED)

    @Slot()
    def _on_reject_clicked(self) -> None:
        self._act_on_selected(Status.REJECTED)

    @Slot()
    def _on_delete_clicked(self) -> None:
        self._act_on_selected(None)

    @Slot()
    def _on_reattach_clicked(self) -> None:
        span_id = self.selected_id()
        if span_id is None:
            self.controller.say(
                QCoreApplication.translate(
                    "AnnotationPanel", "Pick the lost error in the list first."
                )
            )
            return
        if self.review.reattach(span_id):
            self.controller.focus_text()

    @Slot()
    def _on_show_flagged_clicked(self) -> None:
        self.table.show_flagged()
