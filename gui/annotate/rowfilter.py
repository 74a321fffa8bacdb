"""The annotation panel's row filter: which rows the table shows (not annotated, annotated, to
review, by severity, category or annotator, of any system or one)."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QCoreApplication, Slot
from PySide6.QtWidgets import QComboBox, QGridLayout, QGroupBox, QLabel, QPushButton, QWidget

from matchlight.core.annotation.model import Severity, Status
from matchlight.core.annotation.typology import SEPARATOR
from matchlight.core.annotation.workspace import AnnotationQuery
from matchlight.gui.annotate.controller import AnnotationController
from matchlight.gui.annotate.tablelink import AnnotationTableLink
from matchlight.gui.annotate.viewtools import severity_name

__all__ = ["RowFilter"]

_ANY = -1  # combo data for "any system" (never None, see gui.shell.qtfix)


class RowFilter(QGroupBox):
    """Shows the table's rows that match an :class:`AnnotationQuery` chosen from the session's
    typology, severities and annotators (Apply), or all rows again."""

    def __init__(
        self,
        controller: AnnotationController,
        table: AnnotationTableLink,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(QCoreApplication.translate("AnnotationPanel", "Show rows"), parent)
        self.controller = controller
        self.table = table
        filter_layout = QGridLayout(self)
        self.combo = QComboBox()
        self.combo.setObjectName("annotation-filter")
        self.system_combo = QComboBox()
        self.apply_button = QPushButton(QCoreApplication.translate("AnnotationPanel", "Apply"))
        self.apply_button.clicked.connect(self._on_apply_clicked)
        self.clear_button = QPushButton(QCoreApplication.translate("AnnotationPanel", "All rows"))
        self.clear_button.clicked.connect(self._on_clear_clicked)
        filter_layout.addWidget(self.combo, 0, 0, 1, 2)
        filter_layout.addWidget(
            QLabel(QCoreApplication.translate("AnnotationPanel", "of", "any system of …")), 1, 0
        )
        filter_layout.addWidget(self.system_combo, 1, 1)
        filter_layout.addWidget(self.apply_button, 2, 0)
        filter_layout.addWidget(self.clear_button, 2, 1)

    def refresh(self) -> None:
        c = self.controller
        ws = c.workspace
        combo = self.combo
        previous = combo.currentText()
        combo.blockSignals(True)
        combo.clear()
        self._queries: list[dict[str, Any]] = []
        entries: list[tuple[str, dict[str, Any]]] = [
            (QCoreApplication.translate("AnnotationPanel", "not annotated"), {"annotated": False}),
            (QCoreApplication.translate("AnnotationPanel", "annotated"), {"annotated": True}),
            (
                QCoreApplication.translate("AnnotationPanel", "with errors to review (imported)"),
                {"statuses": (Status.UNDECIDED,)},
            ),
        ]
        entries += [
            (
                QCoreApplication.translate("AnnotationPanel", "{0} errors").format(
                    severity_name(s)
                ),
                {"severity": s},
            )
            for s in (Severity.MINOR, Severity.MAJOR, Severity.CRITICAL)
        ]
        for path in c.typology.paths():
            depth = path.count(SEPARATOR)
            entries.append(
                (
                    "    " * depth
                    + QCoreApplication.translate("AnnotationPanel", "{0} errors").format(
                        path.split(SEPARATOR)[-1]
                    ),
                    {"category": path},
                )
            )
        if ws is not None:
            entries += [
                (
                    QCoreApplication.translate("AnnotationPanel", "errors by {0}").format(name),
                    {"annotator": name},
                )
                for name in ws.annotators()
            ]
        for label, values in entries:
            combo.addItem(label)
            self._queries.append(values)
        index = combo.findText(previous)
        combo.setCurrentIndex(max(index, 0))
        combo.blockSignals(False)
        systems = self.system_combo
        names = [QCoreApplication.translate("AnnotationPanel", "any system"), *c.system_names]
        if [systems.itemText(i) for i in range(systems.count())] != names:
            systems.clear()
            systems.addItem(QCoreApplication.translate("AnnotationPanel", "any system"), _ANY)
            for i, name in enumerate(c.system_names):
                systems.addItem(name, i)
        enabled = ws is not None
        for widget in (combo, systems, self.apply_button, self.clear_button):
            widget.setEnabled(enabled)

    def chosen_query(self) -> AnnotationQuery:
        """The query the filter widgets describe."""
        values = dict(self._queries[self.combo.currentIndex()])
        data = self.system_combo.currentData()
        names = self.controller.system_names
        if isinstance(data, int) and 0 <= data < len(names):
            values["system"] = names[data]
        return AnnotationQuery(**values)

    @Slot()
    def _on_apply_clicked(self) -> None:
        self.table.apply_filter(self.chosen_query())

    @Slot()
    def _on_clear_clicked(self) -> None:
        self.table.clear_filter()
