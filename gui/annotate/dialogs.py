"""Dialogs of the annotation feature: typology, MQM weights, recovered sessions, imports (the
agreement dialog is :mod:`.agreementdialog`).

Every dialog is opened with ``open()`` (never blocking the window) and applies what it edits
through the :class:`~gui.annotate.controller.AnnotationController`.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from PySide6.QtCore import Qt, Signal, Slot
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QDoubleSpinBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPushButton,
    QTableWidget,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from matchlight.core.annotation.interchange import sniff_import_format
from matchlight.core.annotation.model import AnnotationError, Severity
from matchlight.core.annotation.mqm import DEFAULT_WEIGHTS, MQMWeights, WeightRule
from matchlight.core.annotation.typology import DEFAULT_TYPOLOGY, Category, Typology
from matchlight.core.session.recovery import RecoverableSession

__all__ = [
    "ImportDialog",
    "ImportRequest",
    "RecoveryDialog",
    "TypologyDialog",
    "WeightsDialog",
]

_NO_SEVERITY = "any severity"


def _number(value: float, digits: int = 3) -> str:
    return "—" if math.isnan(value) else f"{value:.{digits}f}"


# -- typology ----------------------------------------------------------------------------------


class TypologyDialog(QDialog):
    """Edit the error categories: rename in place, add, add a sub-category, remove, and say
    which ones need a note.

    Signals:
        typology_accepted(Typology): OK with a valid typology.
    """

    typology_accepted = Signal(object)

    def __init__(self, typology: Typology, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Error typology")
        self.tree = QTreeWidget()
        self.tree.setHeaderLabels(["Category", "Needs a note"])
        self.tree.header().setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        self.tree.setEditTriggers(
            QAbstractItemView.EditTrigger.DoubleClicked
            | QAbstractItemView.EditTrigger.EditKeyPressed
        )
        self.problem = QLabel()
        self.problem.setWordWrap(True)
        self.problem.setStyleSheet("color: #b00020;")
        add = QPushButton("Add category")
        add.clicked.connect(self._on_add_clicked)
        add_sub = QPushButton("Add sub-category")
        add_sub.clicked.connect(self._on_add_sub_clicked)
        remove = QPushButton("Remove")
        remove.clicked.connect(self._on_remove_clicked)
        reset = QPushButton("MQM default")
        reset.clicked.connect(self._on_reset_clicked)
        row = QHBoxLayout()
        for button in (add, add_sub, remove, reset):
            row.addWidget(button)
        row.addStretch(1)
        buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        buttons.accepted.connect(self._on_ok)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(
            QLabel("Keys 1–9 pick the first nine top-level categories, in this order.")
        )
        layout.addWidget(self.tree, 1)
        layout.addLayout(row)
        layout.addWidget(self.problem)
        layout.addWidget(buttons)
        self.resize(420, 440)
        self.set_typology(typology)

    def set_typology(self, typology: Typology) -> None:
        self.tree.clear()

        def add(parent: QTreeWidget | QTreeWidgetItem, node: Category) -> None:
            item = self._item(node.name, node.note_required)
            if isinstance(parent, QTreeWidget):
                parent.addTopLevelItem(item)
            else:
                parent.addChild(item)
            for child in node.children:
                add(item, child)

        for node in typology.categories:
            add(self.tree, node)
        self.tree.expandAll()

    def _item(self, name: str, note: bool) -> QTreeWidgetItem:
        item = QTreeWidgetItem([name, ""])
        item.setFlags(item.flags() | Qt.ItemFlag.ItemIsEditable | Qt.ItemFlag.ItemIsUserCheckable)
        item.setCheckState(1, Qt.CheckState.Checked if note else Qt.CheckState.Unchecked)
        return item

    def typology(self) -> Typology:
        """The typology shown (AnnotationError if a name is empty, repeated or has a slash)."""

        def node(item: QTreeWidgetItem | None) -> Category:
            if item is None:
                raise AnnotationError("a category is missing")
            return Category(
                item.text(0).strip(),
                tuple(node(item.child(i)) for i in range(item.childCount())),
                item.checkState(1) == Qt.CheckState.Checked,
            )

        return Typology(
            tuple(node(self.tree.topLevelItem(i)) for i in range(self.tree.topLevelItemCount()))
        )

    def _top_names(self) -> list[str]:
        items = (self.tree.topLevelItem(i) for i in range(self.tree.topLevelItemCount()))
        return [item.text(0) for item in items if item is not None]

    def _new_name(self, siblings: Sequence[str]) -> str:
        n = 1
        while f"New category {n}" in siblings:
            n += 1
        return f"New category {n}"

    @Slot()
    def _on_add_clicked(self) -> None:
        item = self._item(self._new_name(self._top_names()), False)
        self.tree.addTopLevelItem(item)
        self.tree.setCurrentItem(item)
        self.tree.editItem(item, 0)

    @Slot()
    def _on_add_sub_clicked(self) -> None:
        parent = self.tree.currentItem()
        if parent is None:
            return
        children = (parent.child(i) for i in range(parent.childCount()))
        names = [child.text(0) for child in children if child is not None]
        item = self._item(self._new_name(names), False)
        parent.addChild(item)
        parent.setExpanded(True)
        self.tree.setCurrentItem(item)
        self.tree.editItem(item, 0)

    @Slot()
    def _on_remove_clicked(self) -> None:
        item = self.tree.currentItem()
        if item is None:
            return
        parent = item.parent()
        if parent is None:
            self.tree.takeTopLevelItem(self.tree.indexOfTopLevelItem(item))
        else:
            parent.removeChild(item)

    @Slot()
    def _on_reset_clicked(self) -> None:
        self.set_typology(DEFAULT_TYPOLOGY)

    @Slot()
    def _on_ok(self) -> None:
        try:
            typology = self.typology()
        except AnnotationError as exc:
            self.problem.setText(str(exc))
            return
        self.typology_accepted.emit(typology)
        self.accept()


# -- weights -----------------------------------------------------------------------------------


class WeightsDialog(QDialog):
    """Edit the MQM weight rules; the first rule matching an error gives its weight.

    Signals:
        weights_accepted(MQMWeights)
    """

    weights_accepted = Signal(object)

    def __init__(
        self, weights: MQMWeights, categories: Sequence[str], parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle("MQM weights")
        self._categories = tuple(categories)
        self.table = QTableWidget(0, 3)
        self.table.setHorizontalHeaderLabels(["Weight", "Severity", "Category (and below)"])
        self.table.horizontalHeader().setSectionResizeMode(2, QHeaderView.ResizeMode.Stretch)
        self.table.verticalHeader().hide()
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        add = QPushButton("Add rule")
        add.clicked.connect(self._on_add_clicked)
        remove = QPushButton("Remove")
        remove.clicked.connect(self._on_remove_clicked)
        up = QPushButton("Up")
        up.clicked.connect(self._on_up_clicked)
        reset = QPushButton("Freitag et al. (2021)")
        reset.setToolTip("Minor 1, Major 5, minor Punctuation 0.1, Non-translation 25, Critical 25")
        reset.clicked.connect(self._on_reset_clicked)
        row = QHBoxLayout()
        for button in (add, remove, up, reset):
            row.addWidget(button)
        row.addStretch(1)
        self.problem = QLabel()
        self.problem.setStyleSheet("color: #b00020;")
        buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        buttons.accepted.connect(self._on_ok)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(QLabel("Rules are tried top to bottom; the first that matches wins."))
        layout.addWidget(self.table, 1)
        layout.addLayout(row)
        layout.addWidget(self.problem)
        layout.addWidget(buttons)
        self.resize(520, 420)
        self.set_weights(weights)

    def set_weights(self, weights: MQMWeights) -> None:
        self.table.setRowCount(0)
        for rule in weights.rules:
            self._add_row(rule)

    def _add_row(self, rule: WeightRule | None = None) -> None:
        row = self.table.rowCount()
        self.table.insertRow(row)
        spin = QDoubleSpinBox()
        spin.setRange(0.0, 1000.0)
        spin.setDecimals(2)
        spin.setValue(1.0 if rule is None else float(rule.weight))
        severity = QComboBox()
        severity.addItem(_NO_SEVERITY, "")
        for s in Severity:
            severity.addItem(s.value, s.value)
        if rule is not None and rule.severity is not None:
            severity.setCurrentIndex(severity.findData(rule.severity.value))
        category = QComboBox()
        category.setEditable(True)
        category.addItem("")
        category.addItems(list(self._categories))
        category.setCurrentText("" if rule is None or rule.category is None else rule.category)
        self.table.setCellWidget(row, 0, spin)
        self.table.setCellWidget(row, 1, severity)
        self.table.setCellWidget(row, 2, category)

    def _rule(self, row: int) -> tuple[float, str, str]:
        spin = self.table.cellWidget(row, 0)
        severity = self.table.cellWidget(row, 1)
        category = self.table.cellWidget(row, 2)
        assert isinstance(spin, QDoubleSpinBox)
        assert isinstance(severity, QComboBox) and isinstance(category, QComboBox)
        return spin.value(), str(severity.currentData() or ""), category.currentText().strip()

    def weights(self) -> MQMWeights:
        """The rules shown (AnnotationError for a rule with neither severity nor category)."""
        rules = []
        for row in range(self.table.rowCount()):
            weight, severity, category = self._rule(row)
            rules.append(
                WeightRule(
                    weight,
                    Severity(severity) if severity else None,
                    category or None,
                )
            )
        return MQMWeights(tuple(rules))

    @Slot()
    def _on_add_clicked(self) -> None:
        self._add_row()

    @Slot()
    def _on_remove_clicked(self) -> None:
        row = self.table.currentRow()
        if row >= 0:
            self.table.removeRow(row)

    @Slot()
    def _on_up_clicked(self) -> None:
        row = self.table.currentRow()
        if row <= 0:
            return
        try:
            rules = list(self.weights().rules)
        except AnnotationError as exc:
            self.problem.setText(str(exc))
            return
        rules[row - 1], rules[row] = rules[row], rules[row - 1]
        self.set_weights(MQMWeights(tuple(rules)))
        self.table.setCurrentCell(row - 1, 0)

    @Slot()
    def _on_reset_clicked(self) -> None:
        self.set_weights(DEFAULT_WEIGHTS)

    @Slot()
    def _on_ok(self) -> None:
        try:
            weights = self.weights()
        except AnnotationError as exc:
            self.problem.setText(str(exc))
            return
        self.weights_accepted.emit(weights)
        self.accept()


# -- agreement ---------------------------------------------------------------------------------


class RecoveryDialog(QDialog):
    """Sessions left unsaved by a crash (or by quitting without naming them).

    Signals:
        open_requested(str path, bool read_only_copy)
        discard_requested(str path)
    """

    open_requested = Signal(str, bool)
    discard_requested = Signal(str)

    def __init__(
        self, sessions: Sequence[RecoverableSession], parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.setObjectName("recovery-dialog")
        self.setWindowTitle("Recover unsaved sessions")
        self.tree = QTreeWidget()
        self.tree.setRootIsDecorated(False)
        self.tree.setHeaderLabels(["Last change", "Comparison", "Errors", "Problem"])
        self.tree.header().setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        for session in sessions:
            inputs = ", ".join(i.name for i in session.inputs if i.role == "system") or "?"
            folder = next(
                (Path(i.path).parent.name for i in session.inputs if i.role == "reference"), ""
            )
            when = session.modified.astimezone().strftime("%Y-%m-%d %H:%M")
            item = QTreeWidgetItem(
                [
                    when,
                    f"{folder}: {inputs}" if folder else inputs,
                    str(session.spans),
                    session.problem or "",
                ]
            )
            item.setData(0, Qt.ItemDataRole.UserRole, str(session.path))
            item.setData(1, Qt.ItemDataRole.UserRole, bool(session.problem))
            item.setToolTip(1, str(session.path))
            self.tree.addTopLevelItem(item)
        first = self.tree.topLevelItem(0)
        if first is not None:
            self.tree.setCurrentItem(first)
        self.tree.resizeColumnToContents(0)
        self.open_button = QPushButton("Open")
        self.open_button.setDefault(True)
        self.open_button.clicked.connect(self._on_open_clicked)
        self.copy_button = QPushButton("Open a read-only copy")
        self.copy_button.clicked.connect(self._on_copy_clicked)
        self.discard_button = QPushButton("Discard")
        self.discard_button.clicked.connect(self._on_discard_clicked)
        later = QPushButton("Not now")
        later.clicked.connect(self.reject)
        row = QHBoxLayout()
        for button in (self.open_button, self.copy_button, self.discard_button):
            row.addWidget(button)
        row.addStretch(1)
        row.addWidget(later)
        layout = QVBoxLayout(self)
        text = QLabel(
            "Matchlight keeps annotation work from the first edit on. These sessions were not "
            "saved under a name when Matchlight last stopped. Open one to continue (then File ▸ "
            "Save session as… to name it), or discard it."
        )
        text.setWordWrap(True)
        layout.addWidget(text)
        layout.addWidget(self.tree, 1)
        layout.addLayout(row)
        self.tree.currentItemChanged.connect(self._on_current_changed)
        self._on_current_changed(self.tree.currentItem(), None)
        self.resize(720, 300)

    def _current(self) -> tuple[str, bool] | None:
        item = self.tree.currentItem()
        if item is None:
            return None
        return str(item.data(0, Qt.ItemDataRole.UserRole)), bool(
            item.data(1, Qt.ItemDataRole.UserRole)
        )

    @Slot(QTreeWidgetItem, QTreeWidgetItem)
    def _on_current_changed(self, current: QTreeWidgetItem | None, _previous: object) -> None:
        chosen = self._current()
        damaged = chosen is not None and chosen[1]
        self.open_button.setEnabled(chosen is not None and not damaged)
        self.copy_button.setEnabled(chosen is not None)
        self.discard_button.setEnabled(chosen is not None)

    @Slot()
    def _on_open_clicked(self) -> None:
        chosen = self._current()
        if chosen is not None:
            self.accept()
            self.open_requested.emit(chosen[0], False)

    @Slot()
    def _on_copy_clicked(self) -> None:
        chosen = self._current()
        if chosen is not None:
            self.accept()
            self.open_requested.emit(chosen[0], True)

    @Slot()
    def _on_discard_clicked(self) -> None:
        chosen = self._current()
        if chosen is None:
            return
        self.discard_requested.emit(chosen[0])
        item = self.tree.currentItem()
        if item is not None:
            self.tree.takeTopLevelItem(self.tree.indexOfTopLevelItem(item))
        if self.tree.topLevelItemCount() == 0:
            self.reject()


@dataclass(frozen=True, slots=True)
class ImportRequest:
    """What the import dialog asks for: the file, its format, the system of xCOMET records
    without one, and where a WMT MQM TSV's ``seg_id`` is looked up (a segment-id file, a label
    column, or neither: line numbers)."""

    path: str
    fmt: str
    system: str
    segment_ids: str | None = None
    segment_column: str | None = None


_LINE_NUMBERS, _ID_FILE, _COLUMN = "lines", "file", "column:"


class ImportDialog(QDialog):
    """Choose a pre-annotation file, its format, (for xCOMET) the system it scores, and (for a
    WMT MQM TSV) what its ``seg_id`` is: the line number, or an id looked up in a segment-id
    file (a segid.txt: line i holds segment i's id) or in a label column of the comparison.

    Signals:
        import_requested(ImportRequest)
    """

    import_requested = Signal(object)

    def __init__(
        self,
        formats: dict[str, str],
        systems: Sequence[str],
        current_system: int,
        browse: object,
        parent: QWidget | None = None,
        *,
        label_columns: Sequence[str] = (),
        browse_ids: object = None,
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle("Import pre-annotations")
        self._browse = browse
        self._browse_ids = browse_ids
        self.path_edit = QLineEdit()
        self.path_edit.setPlaceholderText("annotation file")
        browse_button = QPushButton("Browse…")
        browse_button.clicked.connect(self._on_browse_clicked)
        self.format_combo = QComboBox()
        for key, label in formats.items():
            self.format_combo.addItem(label, key)
        self.format_combo.currentIndexChanged.connect(self._on_format_changed)
        self.system_combo = QComboBox()
        self.system_combo.addItems(list(systems))
        self.system_combo.setCurrentIndex(current_system)
        self.system_combo.setToolTip("For xCOMET records without a 'system' key")
        self.path_edit.textChanged.connect(self._on_path_changed)
        path_row = QHBoxLayout()
        path_row.addWidget(self.path_edit, 1)
        path_row.addWidget(browse_button)
        self.ids_combo = QComboBox()
        self.ids_combo.setObjectName("segment-ids")
        self.ids_combo.addItem("the line number (1, 2, 3, …)", _LINE_NUMBERS)
        self.ids_combo.addItem("an id in a segment-id file (segid.txt)", _ID_FILE)
        for name in label_columns:
            self.ids_combo.addItem(f"an id in the label column {name!r}", _COLUMN + name)
        self.ids_combo.setToolTip(
            "WMT MQM files number segments by their seg_id; when those are not line numbers, "
            "a file or a label column with one id per line says which line each id is"
        )
        self.ids_combo.currentIndexChanged.connect(self._on_ids_changed)
        self.ids_edit = QLineEdit()
        self.ids_edit.setObjectName("segment-id-file")
        self.ids_edit.setPlaceholderText("segment-id file: line i holds segment i's id")
        self.ids_browse = QPushButton("Browse…")
        self.ids_browse.clicked.connect(self._on_browse_ids_clicked)
        ids_row = QHBoxLayout()
        ids_row.addWidget(self.ids_edit, 1)
        ids_row.addWidget(self.ids_browse)
        self.ids_caption = QLabel("seg_id is (WMT MQM TSV):")
        self.undecided = QCheckBox("Errors arrive undecided: confirm (Enter) or reject (Backspace)")
        self.undecided.setChecked(True)
        self.undecided.setEnabled(False)
        self.problem = QLabel()
        self.problem.setWordWrap(True)
        self.problem.setStyleSheet("color: #b00020;")
        buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        buttons.accepted.connect(self._on_ok)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addLayout(path_row)
        layout.addWidget(QLabel("Format:"))
        layout.addWidget(self.format_combo)
        layout.addWidget(QLabel("System (xCOMET files without system names):"))
        layout.addWidget(self.system_combo)
        layout.addWidget(self.ids_caption)
        layout.addWidget(self.ids_combo)
        layout.addLayout(ids_row)
        layout.addWidget(self.undecided)
        layout.addWidget(self.problem)
        layout.addWidget(buttons)
        self.resize(560, 300)
        self._on_format_changed()

    def request(self) -> ImportRequest | None:
        """What the dialog asks for (None: something is missing; :attr:`problem` says what)."""
        path = self.path_edit.text().strip()
        if not path:
            self.problem.setText("Choose the annotation file.")
            return None
        fmt = str(self.format_combo.currentData())
        choice = str(self.ids_combo.currentData())
        ids = column = None
        if fmt == "wmt-mqm-tsv" and choice == _ID_FILE:
            ids = self.ids_edit.text().strip()
            if not ids:
                self.problem.setText("Choose the segment-id file (or number segments by line).")
                return None
        elif fmt == "wmt-mqm-tsv" and choice.startswith(_COLUMN):
            column = choice[len(_COLUMN) :]
        self.problem.setText("")
        return ImportRequest(path, fmt, self.system_combo.currentText(), ids, column)

    @Slot()
    def _on_browse_clicked(self) -> None:
        if callable(self._browse):
            path = self._browse()
            if path:
                self.path_edit.setText(path)

    @Slot()
    def _on_browse_ids_clicked(self) -> None:
        if callable(self._browse_ids):
            path = self._browse_ids()
            if path:
                self.ids_edit.setText(path)
                self.ids_combo.setCurrentIndex(self.ids_combo.findData(_ID_FILE))

    @Slot(str)
    def _on_path_changed(self, text: str) -> None:
        guessed = guess_format(text)
        if guessed is not None:
            self.format_combo.setCurrentIndex(self.format_combo.findData(guessed))

    @Slot()
    def _on_format_changed(self) -> None:
        tsv = self.format_combo.currentData() == "wmt-mqm-tsv"
        for widget in (self.ids_caption, self.ids_combo):
            widget.setEnabled(tsv)
        self._on_ids_changed()

    @Slot()
    def _on_ids_changed(self) -> None:
        wanted = (
            self.format_combo.currentData() == "wmt-mqm-tsv"
            and self.ids_combo.currentData() == _ID_FILE
        )
        self.ids_edit.setEnabled(wanted)
        self.ids_browse.setEnabled(
            self.format_combo.currentData() == "wmt-mqm-tsv" and callable(self._browse_ids)
        )

    @Slot()
    def _on_ok(self) -> None:
        request = self.request()
        if request is None:
            return
        self.accept()
        self.import_requested.emit(request)


def guess_format(path: str) -> str | None:
    """The import format a file name (and, for JSON Lines, its first line) suggests (core's
    :func:`~core.annotation.interchange.sniff_import_format`: never opens a pipe)."""
    lower = path.lower()
    if not lower.endswith((".tsv", ".tsv.txt", ".jsonl", ".ndjson", ".json")):
        return None
    return sniff_import_format(path) or "xcomet-jsonl"
