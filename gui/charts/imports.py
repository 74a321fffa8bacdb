"""Dialogs that load data computed elsewhere into the open comparison: per-segment scores
(COMET, BLEURT, human judgements) and label columns (domain, document id).

Files are read in a background job by ``core`` (:func:`core.io.scores.read_scores`,
:func:`core.io.labels.read_labels`); a problem is shown in the dialog as core words it, naming
the file and the line, and the dialog stays open to fix it. Nothing here changes the comparison:
the dialog hands what it read to its owner (:class:`~gui.charts.comparison.ComparisonDocks`).

The score dialog also asks for the column's scale: which way is better, its range and its
decimals. Once files are chosen it reads them in the background and fills the scale in as the
values suggest (:func:`~core.metrics.base.infer_scale`: COMET's 0-1 with three decimals, a name
saying error or MQM lower-is-better); what the user changes there is what the column gets.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np
from PySide6.QtCore import QCoreApplication, Qt, QTimer, Signal, Slot
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
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from matchlight.core.io.inputs import InputError
from matchlight.core.io.labels import LabelColumn, read_labels
from matchlight.core.io.scores import SCORE_FORMATS, ImportedScores, ScoreSpec, read_scores
from matchlight.core.metrics.base import Scale, ScoreColumn
from matchlight.gui.charts.jobs import BackgroundJob

__all__ = [
    "PREVIEW_DELAY_MS",
    "LabelImportDialog",
    "ReadingDialog",
    "ScoreImportDialog",
    "describe_scale",
    "imported_column",
]

_ERROR_STYLE = "QLabel { color: #b00020; }"
# How long the score dialog waits after a change before reading the files for the scale.
PREVIEW_DELAY_MS = 300


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
        # English, as core's columns are: a session file keeps it.
        description=f"{imported.name}, imported from {files}; the corpus figure is the mean",
        kind="score",
        corpus="mean",
        headline=True,
    ).with_scale(imported.column_scale())


def describe_scale(column: ScoreColumn) -> str:
    """``higher is better, 0 to 1, 3 decimals``: a column's scale in words (the right-click
    menu of the table's header changes it)."""
    low = "" if column.low is None else f"{column.low:g}"
    high = "" if column.high is None else f"{column.high:g}"
    if column.low is None and column.high is None:
        span = QCoreApplication.translate("imports", "no bounds")
    elif column.high is None:
        span = QCoreApplication.translate("imports", "from {low}").format(low=low)
    elif column.low is None:
        span = QCoreApplication.translate("imports", "up to {high}").format(high=high)
    else:
        span = QCoreApplication.translate("imports", "{low} to {high}").format(low=low, high=high)
    better = (
        QCoreApplication.translate("imports", "lower is better")
        if column.better == "lower"
        else QCoreApplication.translate("imports", "higher is better")
    )
    places = (
        QCoreApplication.translate("imports", "1 decimal")
        if column.decimals == 1
        else QCoreApplication.translate("imports", "{0} decimals").format(column.decimals)
    )
    return QCoreApplication.translate("imports", "{better}, {span}, {places}").format(
        better=better, span=span, places=places
    )


def _filled_in() -> str:
    return QCoreApplication.translate(
        "imports", "Filled in from the values once the files are read."
    )


class ReadingDialog(QDialog):
    """A dialog whose OK reads files in a background job and shows core's error; its Browse
    buttons open a file dialog in ``start_dir`` (:meth:`ask_files`)."""

    def __init__(self, title: str, parent: QWidget | None = None, *, start_dir: str = "") -> None:
        super().__init__(parent)
        self.setWindowTitle(title)
        self._start_dir = start_dir
        self._dialog: QFileDialog | None = None
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

    def ask_files(
        self, caption: str, chosen: Callable[[Any], object], *, many: bool = False
    ) -> None:
        """Open a file dialog (window-modal, not blocking) for an existing file, ``many``: for
        several; ``chosen`` then gets the path, or the list of paths."""
        dialog = QFileDialog(self, caption, self._start_dir)
        if many:
            dialog.setFileMode(QFileDialog.FileMode.ExistingFiles)
            dialog.filesSelected.connect(chosen)
        else:
            dialog.setFileMode(QFileDialog.FileMode.ExistingFile)
            dialog.fileSelected.connect(chosen)
        self._dialog = dialog
        dialog.open()

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


class ScoreImportDialog(ReadingDialog):
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
        super().__init__(
            QCoreApplication.translate("imports", "Load segment scores"),
            parent,
            start_dir=start_dir,
        )
        self.systems = tuple(systems)
        self.n_segments = n_segments
        self.name_edit = QLineEdit()
        self.name_edit.setPlaceholderText(QCoreApplication.translate("imports", "e.g. COMET-22"))
        self.files = QListWidget()
        self.files.setMinimumHeight(90)
        add = QPushButton(QCoreApplication.translate("imports", "Add files…"))
        add.clicked.connect(self._on_add_clicked)
        remove = QPushButton(QCoreApplication.translate("imports", "Remove"))
        remove.clicked.connect(self._on_remove_clicked)
        buttons = QHBoxLayout()
        buttons.addWidget(add)
        buttons.addWidget(remove)
        buttons.addStretch(1)
        self.format_combo = QComboBox()
        self.format_combo.addItem(QCoreApplication.translate("imports", "from the file name"), "")
        for fmt in SCORE_FORMATS:
            self.format_combo.addItem(fmt, fmt)
        self.column_edit = QLineEdit()
        self.column_edit.setPlaceholderText(
            QCoreApplication.translate("imports", "header name or 1-based number; JSON key")
        )
        self.system_edit = QLineEdit()
        self.system_edit.setPlaceholderText(
            QCoreApplication.translate("imports", "only for one file holding every system")
        )
        self.segment_edit = QLineEdit()
        self.segment_edit.setPlaceholderText(
            QCoreApplication.translate("imports", "optional; 1-based segment numbers")
        )
        form = QFormLayout()
        form.addRow(QCoreApplication.translate("imports", "Score name:"), self.name_edit)
        files = QVBoxLayout()
        files.addWidget(self.files)
        files.addLayout(buttons)
        form.addRow(QCoreApplication.translate("imports", "Files:"), files)
        form.addRow(QCoreApplication.translate("imports", "Format:"), self.format_combo)
        form.addRow(QCoreApplication.translate("imports", "Score column:"), self.column_edit)
        form.addRow(QCoreApplication.translate("imports", "System column:"), self.system_edit)
        form.addRow(QCoreApplication.translate("imports", "Segment column:"), self.segment_edit)
        self.better_combo = QComboBox()
        self.better_combo.addItem(
            QCoreApplication.translate("imports", "Higher is better"), "higher"
        )
        self.better_combo.addItem(QCoreApplication.translate("imports", "Lower is better"), "lower")
        self.better_combo.setToolTip(
            QCoreApplication.translate(
                "imports", "Lower is better for an error rate or a penalty (TER, MQM)"
            )
        )
        self.low_edit = QLineEdit("0")
        self.high_edit = QLineEdit("100")
        tips = (
            QCoreApplication.translate(
                "imports", "The lowest value the score can take; empty: no bound"
            ),
            QCoreApplication.translate(
                "imports", "The highest value the score can take; empty: no bound"
            ),
        )
        for edit, tip in zip((self.low_edit, self.high_edit), tips, strict=True):
            edit.setPlaceholderText(QCoreApplication.translate("imports", "none"))
            edit.setToolTip(tip)
            edit.setMaximumWidth(90)
        self.decimals_spin = QSpinBox()
        self.decimals_spin.setRange(0, 12)
        self.decimals_spin.setValue(1)
        self.decimals_spin.setToolTip(
            QCoreApplication.translate(
                "imports", "Decimals the table shows (corpus figures get one more)"
            )
        )
        scale = QHBoxLayout()
        scale.addWidget(self.better_combo)
        scale.addSpacing(8)
        scale.addWidget(QLabel(QCoreApplication.translate("imports", "from")))
        scale.addWidget(self.low_edit)
        scale.addWidget(QLabel(QCoreApplication.translate("imports", "to")))
        scale.addWidget(self.high_edit)
        scale.addSpacing(8)
        scale.addWidget(QLabel(QCoreApplication.translate("imports", "decimals")))
        scale.addWidget(self.decimals_spin)
        scale.addStretch(1)
        form.addRow(QCoreApplication.translate("imports", "Scale:"), scale)
        self.scale_note = QLabel(_filled_in())
        self.scale_note.setWordWrap(True)
        form.addRow("", self.scale_note)
        note = QLabel(
            QCoreApplication.translate(
                "imports",
                "One value per segment ({0:,}) for each system ({systems}): a file per system "
                "(named after it, as sys.NAME.tsv), or one file with a system column, or "
                "COMET's output.",
            ).format(n_segments, systems=", ".join(self.systems))
        )
        note.setWordWrap(True)
        form.addRow(note)
        self.finish_layout(form)
        # Whether the user set the scale (then it is theirs; else the values' own).
        self.scale_chosen = False
        self.preview_job = BackgroundJob(self, name="matchlight-import-preview")
        self.preview_job.finished.connect(self._on_preview_read)
        self._preview_timer = QTimer(self)
        self._preview_timer.setSingleShot(True)
        self._preview_timer.setInterval(PREVIEW_DELAY_MS)
        self._preview_timer.timeout.connect(self.preview)
        for edit in (self.name_edit, self.column_edit, self.system_edit, self.segment_edit):
            edit.textChanged.connect(self._on_input_changed)
        self.format_combo.currentIndexChanged.connect(self._on_input_changed)
        model = self.files.model()
        model.rowsInserted.connect(self._on_input_changed)
        model.rowsRemoved.connect(self._on_input_changed)
        self.better_combo.activated.connect(self._on_scale_edited)
        self.low_edit.textEdited.connect(self._on_scale_edited)
        self.high_edit.textEdited.connect(self._on_scale_edited)
        self.decimals_spin.valueChanged.connect(self._on_scale_edited)

    def set_files(self, paths: Sequence[str]) -> None:
        self.files.clear()
        self.files.addItems(list(paths))

    # -- the scale --------------------------------------------------------------------------------

    def set_scale(self, scale: Scale) -> None:
        """Show ``scale`` in the scale fields (it is the user's choice from then on)."""
        self._show_scale(scale)
        self.scale_chosen = True

    def _show_scale(self, scale: Scale) -> None:
        widgets = (self.better_combo, self.low_edit, self.high_edit, self.decimals_spin)
        for widget in widgets:
            widget.blockSignals(True)
        self.better_combo.setCurrentIndex(self.better_combo.findData(scale.better))
        self.low_edit.setText("" if scale.low is None else f"{scale.low:g}")
        self.high_edit.setText("" if scale.high is None else f"{scale.high:g}")
        self.decimals_spin.setValue(scale.decimals)
        for widget in widgets:
            widget.blockSignals(False)

    def scale(self) -> Scale:
        """The scale the fields say; ValueError (a message for the user) when they say none."""
        ends: list[float | None] = []
        problems = (
            (
                QCoreApplication.translate("imports", "The lowest value, {0}, is not a number."),
                QCoreApplication.translate(
                    "imports", "The lowest value must be a finite number, not {0}."
                ),
            ),
            (
                QCoreApplication.translate("imports", "The highest value, {0}, is not a number."),
                QCoreApplication.translate(
                    "imports", "The highest value must be a finite number, not {0}."
                ),
            ),
        )
        for edit, (not_number, not_finite) in zip(
            (self.low_edit, self.high_edit), problems, strict=True
        ):
            text = edit.text().strip()
            if not text:
                ends.append(None)
                continue
            try:
                value = float(text)
            except ValueError:
                raise ValueError(not_number.format(repr(text))) from None
            if not math.isfinite(value):
                raise ValueError(not_finite.format(repr(text)))
            ends.append(value)
        low, high = ends
        if low is not None and high is not None and low > high:
            raise ValueError(
                QCoreApplication.translate(
                    "imports", "The lowest value ({low}) is above the highest ({high})."
                ).format(low=f"{low:g}", high=f"{high:g}")
            )
        better = "lower" if self.better_combo.currentData() == "lower" else "higher"
        return Scale(better, low, high, self.decimals_spin.value())

    @Slot()
    def _on_scale_edited(self) -> None:
        self.scale_chosen = True

    @Slot()
    def _on_input_changed(self) -> None:
        self._preview_timer.start()

    @Slot()
    def preview(self) -> None:
        """Read the files in the background and fill the scale in as their values suggest
        (unless the user set it). A problem is left for OK to report."""
        self._preview_timer.stop()
        specs = self.specs()
        if not specs:
            return
        systems, n = self.systems, self.n_segments
        name = self.name_edit.text().strip() or "score"

        def run(cancelled: Callable[[], bool], progress: Callable[[float], None]) -> object:
            try:
                return read_scores(specs, systems=systems, n_segments=n, name=name)
            except InputError:
                return None

        self.preview_job.start(run)

    @Slot(object)
    def _on_preview_read(self, result: object) -> None:
        if not isinstance(result, ImportedScores):
            self.scale_note.setText(_filled_in())
            return
        finite = result.values[np.isfinite(result.values)]
        if finite.size:
            text = (
                QCoreApplication.translate("imports", "The values run from {low} to {high}.")
                if self.scale_chosen
                else QCoreApplication.translate(
                    "imports",
                    "The values run from {low} to {high}; the scale above is what they suggest.",
                )
            )
            self.scale_note.setText(
                text.format(low=f"{finite.min():.4g}", high=f"{finite.max():.4g}")
            )
        if not self.scale_chosen:
            self._show_scale(result.column_scale())

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
        self.ask_files(
            QCoreApplication.translate("imports", "Segment score files"),
            self._on_files_selected,
            many=True,
        )

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
            self.show_error(
                QCoreApplication.translate(
                    "imports", "Name the score (e.g. COMET-22): the table and the charts show it."
                )
            )
            return
        specs = self.specs()
        if not specs:
            self.show_error(QCoreApplication.translate("imports", "Add at least one file."))
            return
        try:
            chosen = self.scale() if self.scale_chosen else None
        except ValueError as error:
            self.show_error(str(error))
            return
        self._preview_timer.stop()
        self.preview_job.cancel()
        systems, n = self.systems, self.n_segments

        def work() -> object:
            imported = read_scores(specs, systems=systems, n_segments=n, name=name)
            return imported if chosen is None else replace(imported, scale=chosen)

        self.read(work)

    def deliver(self, result: object) -> None:
        self.scores_read.emit(result)

    def done(self, code: int) -> None:
        self._preview_timer.stop()
        self.preview_job.shutdown()
        super().done(code)


class LabelImportDialog(ReadingDialog):
    """Load label column: one label per segment (``domain.txt``, ``docid.txt``, or a column of
    a TSV/CSV file, a key of JSON Lines).

    Signals:
        labels_read(LabelColumn): the file was read (the dialog then closes).
    """

    labels_read = Signal(object)

    def __init__(
        self, *, n_segments: int, start_dir: str = "", parent: QWidget | None = None
    ) -> None:
        super().__init__(
            QCoreApplication.translate("imports", "Load label column"), parent, start_dir=start_dir
        )
        self.n_segments = n_segments
        self.path_edit = QLineEdit()
        browse = QPushButton(QCoreApplication.translate("imports", "Browse…"))
        browse.clicked.connect(self._on_browse_clicked)
        row = QHBoxLayout()
        row.addWidget(self.path_edit, 1)
        row.addWidget(browse)
        self.column_edit = QLineEdit()
        self.column_edit.setPlaceholderText(
            QCoreApplication.translate(
                "imports", "TSV/CSV: header name or 1-based number; JSONL: key"
            )
        )
        self.name_edit = QLineEdit()
        self.name_edit.setPlaceholderText(
            QCoreApplication.translate("imports", "default: the file's name")
        )
        form = QFormLayout()
        form.addRow(QCoreApplication.translate("imports", "File:"), row)
        form.addRow(QCoreApplication.translate("imports", "Column:"), self.column_edit)
        form.addRow(QCoreApplication.translate("imports", "Name:"), self.name_edit)
        note = QLabel(
            QCoreApplication.translate(
                "imports",
                "One label per segment ({0:,} lines), in the order of the segments. The Buckets "
                "tab then compares the systems per label.",
            ).format(n_segments)
        )
        note.setWordWrap(True)
        form.addRow(note)
        self.finish_layout(form)

    @Slot()
    def _on_browse_clicked(self) -> None:
        self.ask_files(
            QCoreApplication.translate("imports", "Label column"), self.path_edit.setText
        )

    @Slot()
    def _on_ok(self) -> None:
        path = self.path_edit.text().strip()
        if not path:
            self.show_error(QCoreApplication.translate("imports", "Choose a file."))
            return
        column = self.column_edit.text().strip() or None
        name = self.name_edit.text().strip() or None
        n = self.n_segments
        self.read(lambda: read_labels(path, n_segments=n, column=column, name=name))

    def deliver(self, result: object) -> None:
        if isinstance(result, LabelColumn):
            self.labels_read.emit(result)
