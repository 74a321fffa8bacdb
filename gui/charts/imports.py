"""Dialogs that load data computed elsewhere into the open comparison: per-segment scores
(COMET, BLEURT, human judgements) and label columns (domain, document id).

Files are read in a background job by ``core`` (:func:`core.io.scores.read_scores`,
:func:`core.io.labels.read_labels`); a problem is shown in the dialog as core words it, naming
the file and the line, and the dialog stays open to fix it. Nothing here changes the comparison:
the dialog hands what it read to its owner (:class:`~gui.charts.comparison.ComparisonDocks`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from pathlib import Path

from PySide6.QtCore import Qt, Signal, Slot
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from matchlight.core.io.inputs import InputError
from matchlight.core.io.labels import LabelColumn, read_labels
from matchlight.core.io.scores import SCORE_FORMATS, ImportedScores, ScoreSpec, read_scores
from matchlight.core.metrics.base import ScoreColumn
from matchlight.gui.charts.jobs import BackgroundJob

__all__ = ["LabelImportDialog", "ScoreImportDialog", "imported_column"]

_ERROR_STYLE = "QLabel { color: #b00020; }"


def imported_column(imported: ImportedScores, taken: Sequence[str] = ()) -> ScoreColumn:
    """The score-table column for ``imported``: key ``imported_<name>`` (made unique against
    ``taken``), labelled with the name the user gave, corpus figure the mean, on the scale the
    user gave or the values suggest (:meth:`~core.io.scores.ImportedScores.column_scale`)."""
    slug = re.sub(r"[^0-9A-Za-z]+", "_", imported.name).strip("_").lower() or "score"
    key = f"imported_{slug}"
    n = 2
    while key in taken:
        key = f"imported_{slug}_{n}"
        n += 1
    files = ", ".join(Path(p).name for p in dict.fromkeys(imported.sources))
    return ScoreColumn(
        key=key,
        label=imported.name,
        short=imported.name if len(imported.name) <= 12 else imported.name[:11] + "…",
        metric="imported",
        description=f"{imported.name}, imported from {files}; the corpus figure is the mean",
        kind="score",
        corpus="mean",
        headline=True,
    ).with_scale(imported.column_scale())


class _ReadingDialog(QDialog):
    """A dialog whose OK reads files in a background job and shows core's error."""

    def __init__(self, title: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(title)
        self.setModal(True)
        self.error_label = QLabel()
        self.error_label.setWordWrap(True)
        self.error_label.setStyleSheet(_ERROR_STYLE)
        self.error_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.error_label.hide()
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        self.buttons.accepted.connect(self._on_ok)
        self.buttons.rejected.connect(self.reject)
        self.job = BackgroundJob(self, name="matchlight-import")
        self.job.finished.connect(self._on_read)
        self.job.failed.connect(self._on_failed)
        self.layout_ = QVBoxLayout(self)

    def finish_layout(self, form: QFormLayout) -> None:
        self.layout_.addLayout(form)
        self.layout_.addWidget(self.error_label)
        self.layout_.addWidget(self.buttons)

    def show_error(self, message: str) -> None:
        self.error_label.setText(message)
        self.error_label.setVisible(bool(message))

    def read(self, work: Callable[[], object]) -> None:
        """Run ``work`` in the background; its InputError is shown, its result accepted."""
        self.show_error("")
        self.buttons.setEnabled(False)

        def run(cancelled: Callable[[], bool], progress: Callable[[float], None]) -> object:
            try:
                return work()
            except InputError as error:
                return error

        self.job.start(run)

    @Slot()
    def _on_ok(self) -> None:
        raise NotImplementedError

    def deliver(self, result: object) -> None:
        raise NotImplementedError

    @Slot(object)
    def _on_read(self, result: object) -> None:
        self.buttons.setEnabled(True)
        if isinstance(result, InputError):
            self.show_error(str(result))
            return
        self.deliver(result)
        self.accept()

    @Slot(str)
    def _on_failed(self, message: str) -> None:
        self.buttons.setEnabled(True)
        self.show_error(message)


class ScoreImportDialog(_ReadingDialog):
    """File ▸ Load segment scores: one value per segment and system from TSV, CSV, JSONL,
    plain text or COMET's output.

    Signals:
        scores_read(ImportedScores): the files were read (the dialog then closes).
    """

    scores_read = Signal(object)

    def __init__(
        self,
        *,
        systems: Sequence[str],
        n_segments: int,
        start_dir: str = "",
        parent: QWidget | None = None,
    ) -> None:
        super().__init__("Load segment scores", parent)
        self.systems = tuple(systems)
        self.n_segments = n_segments
        self._start_dir = start_dir
        self.name_edit = QLineEdit()
        self.name_edit.setPlaceholderText("e.g. COMET-22")
        self.files = QListWidget()
        self.files.setMinimumHeight(90)
        add = QPushButton("Add files…")
        add.clicked.connect(self._on_add_clicked)
        remove = QPushButton("Remove")
        remove.clicked.connect(self._on_remove_clicked)
        buttons = QHBoxLayout()
        buttons.addWidget(add)
        buttons.addWidget(remove)
        buttons.addStretch(1)
        self.format_combo = QComboBox()
        self.format_combo.addItem("from the file name", "")
        for fmt in SCORE_FORMATS:
            self.format_combo.addItem(fmt, fmt)
        self.column_edit = QLineEdit()
        self.column_edit.setPlaceholderText("header name or 1-based number; JSON key")
        self.system_edit = QLineEdit()
        self.system_edit.setPlaceholderText("only for one file holding every system")
        self.segment_edit = QLineEdit()
        self.segment_edit.setPlaceholderText("optional; 1-based segment numbers")
        form = QFormLayout()
        form.addRow("Score name:", self.name_edit)
        files = QVBoxLayout()
        files.addWidget(self.files)
        files.addLayout(buttons)
        form.addRow("Files:", files)
        form.addRow("Format:", self.format_combo)
        form.addRow("Score column:", self.column_edit)
        form.addRow("System column:", self.system_edit)
        form.addRow("Segment column:", self.segment_edit)
        note = QLabel(
            f"One value per segment ({n_segments:,}) for each system "
            f"({', '.join(self.systems)}): a file per system (named after it, as sys.NAME.tsv), "
            "or one file with a system column, or COMET's output."
        )
        note.setWordWrap(True)
        form.addRow(note)
        self.finish_layout(form)
        self._dialog: QFileDialog | None = None

    def set_files(self, paths: Sequence[str]) -> None:
        self.files.clear()
        self.files.addItems(list(paths))

    def paths(self) -> list[str]:
        return [self.files.item(i).text() for i in range(self.files.count())]

    def specs(self) -> list[ScoreSpec]:
        fmt = self.format_combo.currentData() or None
        column = self.column_edit.text().strip() or None
        system = self.system_edit.text().strip() or None
        segment = self.segment_edit.text().strip() or None
        return [
            ScoreSpec(path, fmt=fmt, column=column, system_column=system, segment_column=segment)
            for path in self.paths()
        ]

    @Slot()
    def _on_add_clicked(self) -> None:
        dialog = QFileDialog(self, "Segment score files", self._start_dir)
        dialog.setFileMode(QFileDialog.FileMode.ExistingFiles)
        dialog.filesSelected.connect(self._on_files_selected)
        self._dialog = dialog
        dialog.open()

    @Slot(list)
    def _on_files_selected(self, paths: list[str]) -> None:
        known = set(self.paths())
        self.files.addItems([p for p in paths if p not in known])

    @Slot()
    def _on_remove_clicked(self) -> None:
        for item in self.files.selectedItems():
            self.files.takeItem(self.files.row(item))

    @Slot()
    def _on_ok(self) -> None:
        name = self.name_edit.text().strip()
        if not name:
            self.show_error("Name the score (e.g. COMET-22): the table and the charts show it.")
            return
        specs = self.specs()
        if not specs:
            self.show_error("Add at least one file.")
            return
        systems, n = self.systems, self.n_segments
        self.read(lambda: read_scores(specs, systems=systems, n_segments=n, name=name))

    def deliver(self, result: object) -> None:
        self.scores_read.emit(result)


class LabelImportDialog(_ReadingDialog):
    """Load label column: one label per segment (``domain.txt``, ``docid.txt``, or a column of
    a TSV/CSV file, a key of JSON Lines).

    Signals:
        labels_read(LabelColumn): the file was read (the dialog then closes).
    """

    labels_read = Signal(object)

    def __init__(
        self, *, n_segments: int, start_dir: str = "", parent: QWidget | None = None
    ) -> None:
        super().__init__("Load label column", parent)
        self.n_segments = n_segments
        self._start_dir = start_dir
        self.path_edit = QLineEdit()
        browse = QPushButton("Browse…")
        browse.clicked.connect(self._on_browse_clicked)
        row = QHBoxLayout()
        row.addWidget(self.path_edit, 1)
        row.addWidget(browse)
        self.column_edit = QLineEdit()
        self.column_edit.setPlaceholderText("TSV/CSV: header name or 1-based number; JSONL: key")
        self.name_edit = QLineEdit()
        self.name_edit.setPlaceholderText("default: the file's name")
        form = QFormLayout()
        form.addRow("File:", row)
        form.addRow("Column:", self.column_edit)
        form.addRow("Name:", self.name_edit)
        note = QLabel(
            f"One label per segment ({n_segments:,} lines), in the order of the segments. The "
            "Buckets tab then compares the systems per label."
        )
        note.setWordWrap(True)
        form.addRow(note)
        self.finish_layout(form)
        self._dialog: QFileDialog | None = None

    @Slot()
    def _on_browse_clicked(self) -> None:
        dialog = QFileDialog(self, "Label column", self._start_dir)
        dialog.setFileMode(QFileDialog.FileMode.ExistingFile)
        dialog.fileSelected.connect(self.path_edit.setText)
        self._dialog = dialog
        dialog.open()

    @Slot()
    def _on_ok(self) -> None:
        path = self.path_edit.text().strip()
        if not path:
            self.show_error("Choose a file.")
            return
        column = self.column_edit.text().strip() or None
        name = self.name_edit.text().strip() or None
        n = self.n_segments
        self.read(lambda: read_labels(path, n_segments=n, column=column, name=name))

    def deliver(self, result: object) -> None:
        if isinstance(result, LabelColumn):
            self.labels_read.emit(result)
