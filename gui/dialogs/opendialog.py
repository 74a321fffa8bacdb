"""Choosing the files of a comparison: an optional source, 1..N references, 1..N systems.

The dialog reads the files with :func:`core.io.reading.load_comparison` in a background thread
when Open is pressed (a :class:`~gui.workers.loader.BackgroundCall`; Stop reading cancels it),
and shows an :class:`~core.io.inputs.InputError` inline (the dialog stays open), so the user
can fix the file choice right there. :class:`~core.io.specs.ComparisonSpecs` is what the app
remembers in its Recent menu and what drag-and-drop (:func:`recognise_files`) produces; the files
a drop leaves out are named in the dialog.
"""

from __future__ import annotations

import logging
import re
import threading
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication, Qt, Signal, Slot
from PySide6.QtGui import QCloseEvent
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QGridLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QScrollArea,
    QSizePolicy,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from matchlight.core.io.inputs import FORMATS, Comparison, InputError, InputSpec, default_name
from matchlight.core.io.specs import ComparisonSpecs
from matchlight.gui.workers.loader import BackgroundCall

log = logging.getLogger(__name__)

_SOURCE_RE = re.compile(r"^(src|source)([._\-]|\d|$)", re.IGNORECASE)
_REFERENCE_RE = re.compile(r"^(ref|refs|reference|references)([._\-]|\d|$)", re.IGNORECASE)
# The usual names of system outputs: ``sys.NAME.txt``, ``hyp.NAME``, ``out.NAME``...
_SYSTEM_RE = re.compile(r"^(sys|hyp|system|out|output)[._\-].", re.IGNORECASE)
# Files that come with a dataset but are none of its texts.
_DOCUMENT_RE = re.compile(
    r"^(readme|license|licence|copying|changelog|citation|authors)([._\-]|$)"
    r"|^(sha\d*|md5)sums?([._\-]|$)"
    r"|\.(md|rst|html?|pdf|json|ya?ml|toml|ini|py|sh|bat|ipynb|sha\d*|md5|sig|asc)$",
    re.IGNORECASE,
)
# Per-line metadata files of the usual dataset layouts (document ids, domains, labels...).
_METADATA_RE = re.compile(
    r"^(docids?|doc_ids?|domains?|labels?|tags?|ids?|meta|metadata|align|alignments?|lang)"
    r"([._\-]|\d|$)",
    re.IGNORECASE,
)
_AUTO_FORMAT = "auto"


# The file stem without a ``sys.``-style prefix (the same rule as the CLI's).
default_system_name = default_name


# Why a dropped file was left out (the Open dialog groups its note by these).
LEFT_OUT_DOCUMENT = QT_TRANSLATE_NOOP("opendialog", "documentation or checksums")
LEFT_OUT_METADATA = QT_TRANSLATE_NOOP("opendialog", "per-line metadata, not a text to score")
LEFT_OUT_FOLDER = QT_TRANSLATE_NOOP("opendialog", "a folder inside the dropped folder")
LEFT_OUT_HIDDEN = QT_TRANSLATE_NOOP("opendialog", "a hidden file")
LEFT_OUT_SOURCE = QT_TRANSLATE_NOOP("opendialog", "a second source file")
LEFT_OUT_UNKNOWN = QT_TRANSLATE_NOOP(
    "opendialog", "not named src*, ref* or sys.*/hyp.*/out.* like the other files"
)


@dataclass(frozen=True, slots=True)
class RecognisedFiles:
    """What a drop of files or folders amounts to: the comparison's specs, and every dropped
    file that is not part of it with the reason (``(path, reason)``, reasons ``LEFT_OUT_*``)."""

    specs: ComparisonSpecs
    left_out: tuple[tuple[str, str], ...] = ()


def _expand(paths: Iterable[str]) -> tuple[list[str], list[tuple[str, str]]]:
    """Dropped paths with each folder replaced by the files directly inside it."""
    files: list[str] = []
    left_out: list[tuple[str, str]] = []
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            for child in sorted(path.iterdir(), key=lambda p: p.name.lower()):
                if child.is_dir():
                    left_out.append((str(child), LEFT_OUT_FOLDER))
                else:
                    files.append(str(child))
        else:
            files.append(str(path))
    return files, left_out


def recognise_files(paths: Iterable[str]) -> RecognisedFiles:
    """Guess the role of each dropped file (or of each file in a dropped folder) by its name.

    ``src*``/``source*`` is the source (the plainest such name; another one is left out),
    ``ref*``/``reference*`` are references (in name order, so ``ref`` precedes ``ref2``), and
    ``sys.*``/``hyp.*``/``out.*`` are systems named by :func:`default_system_name`. Where no file
    is named like a system, every other file is one (``a.txt``, ``b.txt``). Documentation and
    checksums (README.md, SHA256SUMS), per-line metadata (docid.txt, domain.txt), hidden files
    and folders inside a dropped folder are left out, each with the reason.
    """
    files, left_out = _expand(paths)
    unique = sorted(set(files), key=lambda p: (Path(p).name.lower(), p))
    candidates: list[str] = []
    for path in unique:
        name = Path(path).name
        if name.startswith("."):
            left_out.append((path, LEFT_OUT_HIDDEN))
        elif _DOCUMENT_RE.search(name):
            left_out.append((path, LEFT_OUT_DOCUMENT))
        elif _METADATA_RE.match(name):
            left_out.append((path, LEFT_OUT_METADATA))
        else:
            candidates.append(path)
    sources = [p for p in candidates if _SOURCE_RE.match(Path(p).name)]
    # The plainest name wins the source role: "src.txt" over "source.extra.txt".
    chosen = min(sources, key=lambda p: (len(Path(p).name), p)) if sources else None
    references = [
        InputSpec(path=p)
        for p in candidates
        if p not in sources and _REFERENCE_RE.match(Path(p).name)
    ]
    rest = [p for p in candidates if p not in sources and not _REFERENCE_RE.match(Path(p).name)]
    named = [p for p in rest if _SYSTEM_RE.match(Path(p).name)]
    systems = named if named else rest
    left_out += [(p, LEFT_OUT_SOURCE) for p in sources if p != chosen]
    left_out += [(p, LEFT_OUT_UNKNOWN) for p in rest if p not in systems]
    specs = ComparisonSpecs(
        source=None if chosen is None else InputSpec(path=chosen),
        references=tuple(references),
        systems=tuple(InputSpec(path=p, name=default_system_name(p)) for p in systems),
    )
    order = {path: i for i, path in enumerate([*files, *(p for p, _ in left_out)])}
    ordered = sorted(left_out, key=lambda item: (Path(item[0]).name.lower(), order[item[0]]))
    return RecognisedFiles(specs, tuple(ordered))


def assign_roles(paths: Iterable[str]) -> ComparisonSpecs:
    """The specs :func:`recognise_files` makes of ``paths`` (what is left out is dropped)."""
    return recognise_files(paths).specs


def left_out_note(left_out: Sequence[tuple[str, str]]) -> str:
    """One line per reason: ``Left out (documentation or checksums): README.md, SHA256SUMS``."""
    by_reason: dict[str, list[str]] = {}
    for path, reason in left_out:
        name = Path(path).name + ("/" if reason == LEFT_OUT_FOLDER else "")
        by_reason.setdefault(reason, []).append(name)
    return "\n".join(
        QCoreApplication.translate("opendialog", "Left out ({reason}): {0}").format(
            ", ".join(names), reason=QCoreApplication.translate("opendialog", reason)
        )
        for reason, names in by_reason.items()
    )


class InputRow(QWidget):
    """One input file: [name] path [Browse] [column] [format] [remove].

    Signals:
        remove_requested: the user clicked the remove button.
    """

    remove_requested = Signal()

    def __init__(
        self, role: str, *, with_name: bool, removable: bool, parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.role = role
        self._auto_name = ""
        self.name_edit: QLineEdit | None = None
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        if with_name:
            self.name_edit = QLineEdit()
            self.name_edit.setPlaceholderText(QCoreApplication.translate("InputRow", "name"))
            self.name_edit.setToolTip(
                QCoreApplication.translate("InputRow", "The system's name in the table and the CSV")
            )
            self.name_edit.setFixedWidth(140)
            layout.addWidget(self.name_edit)
        self.path_edit = QLineEdit()
        self.path_edit.setPlaceholderText(
            QCoreApplication.translate("InputRow", "{role} file (.txt, .tsv, .csv, .jsonl)").format(
                role=role
            )
        )
        self.path_edit.setMinimumWidth(320)
        self.browse_button = QPushButton(QCoreApplication.translate("InputRow", "Browse…"))
        self.column_edit = QLineEdit()
        self.column_edit.setPlaceholderText(QCoreApplication.translate("InputRow", "column / key"))
        self.column_edit.setToolTip(
            QCoreApplication.translate(
                "InputRow",
                "TSV/CSV: a header name or a 1-based column number; JSONL: a (dotted) key",
            )
        )
        self.column_edit.setFixedWidth(110)
        self.format_combo = QComboBox()
        self.format_combo.addItem(
            _AUTO_FORMAT, ""
        )  # not None: see matchlight.gui.dialogs.settings.NO_SEPARATOR
        for fmt in FORMATS:
            self.format_combo.addItem(fmt, fmt)
        self.format_combo.setToolTip(
            QCoreApplication.translate("InputRow", "File format; auto = from the extension")
        )
        self.remove_button = QToolButton()
        self.remove_button.setText("✕")
        self.remove_button.setToolTip(
            QCoreApplication.translate("InputRow", "Remove this {role}").format(role=role)
        )
        self.remove_button.setEnabled(removable)
        policy = self.remove_button.sizePolicy()
        policy.setRetainSizeWhenHidden(True)  # keeps the rows of all groups aligned
        self.remove_button.setSizePolicy(policy)
        self.remove_button.setVisible(removable)
        layout.addWidget(self.path_edit, 1)
        layout.addWidget(self.browse_button)
        layout.addWidget(self.column_edit)
        layout.addWidget(self.format_combo)
        layout.addWidget(self.remove_button)
        self.browse_button.clicked.connect(self._on_browse_clicked)
        self.remove_button.clicked.connect(self.remove_requested)
        self.path_edit.textChanged.connect(self._on_path_changed)

    def set_spec(self, spec: InputSpec) -> None:
        self.path_edit.setText(spec.path)
        self.column_edit.setText(spec.column or "")
        index = self.format_combo.findData(spec.fmt) if spec.fmt else 0
        self.format_combo.setCurrentIndex(max(0, index))
        if self.name_edit is not None and spec.name:
            self.name_edit.setText(spec.name)

    def spec(self) -> InputSpec | None:
        """The spec this row describes, or None when no path was given."""
        path = self.path_edit.text().strip()
        if not path:
            return None
        name = None
        if self.name_edit is not None:
            name = self.name_edit.text().strip() or default_system_name(path)
        return InputSpec(
            path=path,
            name=name,
            column=self.column_edit.text().strip() or None,
            fmt=self.format_combo.currentData() or None,
        )

    @Slot(str)
    def _on_path_changed(self, text: str) -> None:
        if self.name_edit is None:
            return
        current = self.name_edit.text()
        if not current or current == self._auto_name:
            self._auto_name = default_system_name(text.strip()) if text.strip() else ""
            self.name_edit.setText(self._auto_name)

    @Slot()
    def _on_browse_clicked(self) -> None:
        path, _ = QFileDialog.getOpenFileName(
            self,
            QCoreApplication.translate("InputRow", "Choose the {0} file").format(self.role),
            self.path_edit.text(),
            QCoreApplication.translate(
                "InputRow", "Text files (*.txt *.tsv *.csv *.jsonl *.ndjson);;All files (*)"
            ),
        )
        if path:
            self.path_edit.setText(path)


class _RowList(QGroupBox):
    """A titled list of :class:`InputRow` with an Add button (at least ``minimum`` rows)."""

    def __init__(
        self, title: str, role: str, *, with_name: bool, minimum: int, parent: QWidget | None
    ) -> None:
        super().__init__(title, parent)
        self.role = role
        self.with_name = with_name
        self.minimum = minimum
        self.rows: list[InputRow] = []
        self._layout = QVBoxLayout(self)
        self._rows_layout = QVBoxLayout()
        self._layout.addLayout(self._rows_layout)
        self.add_button = QPushButton(
            QCoreApplication.translate("_RowList", "Add {role}").format(role=role)
        )
        bar = QHBoxLayout()
        bar.addWidget(self.add_button)
        bar.addStretch(1)
        self._layout.addLayout(bar)
        self.add_button.clicked.connect(self._on_add_clicked)
        for _ in range(minimum):
            self.add_row()

    def add_row(self, spec: InputSpec | None = None) -> InputRow:
        row = InputRow(self.role, with_name=self.with_name, removable=True, parent=self)
        if spec is not None:
            row.set_spec(spec)
        row.remove_requested.connect(self._on_remove_requested)
        self.rows.append(row)
        self._rows_layout.addWidget(row)
        self._sync()
        return row

    def remove_row(self, row: InputRow) -> None:
        if row not in self.rows or len(self.rows) <= self.minimum:
            return
        self._drop(row)
        self._sync()

    def _drop(self, row: InputRow) -> None:
        self.rows.remove(row)
        self._rows_layout.removeWidget(row)
        row.hide()
        row.deleteLater()

    def set_specs(self, specs: Sequence[InputSpec]) -> None:
        for row in list(self.rows):
            self._drop(row)
        for spec in specs:
            self.add_row(spec)
        while len(self.rows) < self.minimum:
            self.add_row()
        self._sync()

    def specs(self) -> list[InputSpec]:
        return [s for s in (row.spec() for row in self.rows) if s is not None]

    def _sync(self) -> None:
        removable = len(self.rows) > self.minimum
        for row in self.rows:
            row.remove_button.setEnabled(removable)
            row.remove_button.setVisible(removable)

    @Slot()
    def _on_add_clicked(self) -> None:
        row = self.add_row()
        row.path_edit.setFocus()

    @Slot()
    def _on_remove_requested(self) -> None:
        row = self.sender()
        if isinstance(row, InputRow):
            self.remove_row(row)


# ``read(specs)``: a :class:`BackgroundCall` (not started) that reads the files of ``specs``;
# its value is a :class:`Comparison` or an object with a ``comparison`` attribute.
Reader = Callable[[ComparisonSpecs], BackgroundCall]


def default_reader(specs: ComparisonSpecs) -> BackgroundCall:
    """Read the files of ``specs`` in a background thread (:meth:`ComparisonSpecs.load`)."""

    def load(cancel: threading.Event) -> Comparison:
        return specs.load()

    return BackgroundCall(load)


class OpenComparisonDialog(QDialog):
    """Pick the files of a comparison; they are read with ``core.io.inputs`` before it closes.

    Use :meth:`open` (non-blocking) and read :meth:`comparison` / :meth:`specs` once
    ``accepted`` is emitted. Pressing Open starts reading in the background; meanwhile the
    dialog says so and its Cancel button stops the read (the dialog stays open).

    Signals:
        read_failed(str message): the files could not be read; the message is shown inline.
        reading_changed(bool reading): a read started or ended (finished, failed or stopped).
    """

    read_failed = Signal(str)
    reading_changed = Signal(bool)

    def __init__(
        self,
        specs: ComparisonSpecs | None = None,
        parent: QWidget | None = None,
        *,
        read: Reader | None = None,
        left_out: Sequence[tuple[str, str]] = (),
    ) -> None:
        """``read``: how the files are read when Open is pressed (see :data:`Reader`); by
        default :func:`default_reader`. ``left_out``: dropped files that are not part of
        ``specs``, with the reason (see :func:`recognise_files`), named in a note."""
        super().__init__(parent)
        self._read = read or default_reader
        self.setWindowTitle(
            QCoreApplication.translate("OpenComparisonDialog", "Open comparison — Matchlight")
        )
        self._comparison: Comparison | None = None
        self._loaded: object | None = None
        self._specs: ComparisonSpecs | None = None
        self._call: BackgroundCall | None = None
        self._reading_specs: ComparisonSpecs | None = None

        intro = QLabel(
            QCoreApplication.translate(
                "OpenComparisonDialog",
                "Line-aligned files: one segment per line (or one row of a TSV/CSV/JSONL "
                "file). All files must have the same number of segments.",
            )
        )
        intro.setWordWrap(True)

        source_box = QGroupBox(
            QCoreApplication.translate("OpenComparisonDialog", "Source (optional)")
        )
        source_layout = QGridLayout(source_box)
        self.source_row = InputRow("source", with_name=False, removable=False)
        source_layout.addWidget(self.source_row, 0, 0)

        self.references = _RowList(
            "References", "reference", with_name=False, minimum=1, parent=self
        )
        self.systems = _RowList(
            QCoreApplication.translate("OpenComparisonDialog", "System outputs"),
            QCoreApplication.translate("OpenComparisonDialog", "system"),
            with_name=True,
            minimum=1,
            parent=self,
        )

        self.left_out_label = QLabel()
        self.left_out_label.setObjectName("left-out")
        self.left_out_label.setWordWrap(True)
        self.left_out_label.setTextFormat(Qt.TextFormat.PlainText)
        self.left_out_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.left_out_label.setToolTip(
            QCoreApplication.translate(
                "OpenComparisonDialog",
                "Files dropped with the comparison that are not one of its texts. Add any "
                "of them by hand with Add reference / Add system if they are.",
            )
        )
        self.left_out_label.hide()

        self.error_label = QLabel()
        self.error_label.setObjectName("error")
        self.error_label.setWordWrap(True)
        self.error_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.error_label.setStyleSheet(
            "QLabel { color: #8a1020; background: #fdecee; border: 1px solid #e8a0a8;"
            " border-radius: 3px; padding: 6px; font-family: monospace; }"
        )
        self.error_label.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Minimum)
        self.error_label.hide()

        self.status_label = QLabel()
        self.status_label.setObjectName("reading")
        self.status_label.setTextFormat(Qt.TextFormat.PlainText)
        self.status_label.hide()

        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Open | QDialogButtonBox.StandardButton.Cancel
        )
        self.buttons.accepted.connect(self._on_open_clicked)
        self.buttons.rejected.connect(self._on_cancel_clicked)

        inner = QWidget()
        inner_layout = QVBoxLayout(inner)
        inner_layout.setContentsMargins(0, 0, 0, 0)
        inner_layout.addWidget(source_box)
        inner_layout.addWidget(self.references)
        inner_layout.addWidget(self.systems)
        inner_layout.addStretch(1)
        scroll = QScrollArea()
        scroll.setWidget(inner)
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(QScrollArea.Shape.NoFrame)
        self._inputs = scroll

        layout = QVBoxLayout(self)
        layout.addWidget(intro)
        layout.addWidget(scroll, 1)
        layout.addWidget(self.left_out_label)
        layout.addWidget(self.error_label)
        bottom = QHBoxLayout()
        bottom.addWidget(self.status_label, 1)
        bottom.addWidget(self.buttons)
        layout.addLayout(bottom)
        self.resize(860, 520)
        if specs is not None:
            self.set_specs(specs)
        self.set_left_out(left_out)

    def set_specs(self, specs: ComparisonSpecs) -> None:
        """Prefill every row."""
        if specs.source is not None:
            self.source_row.set_spec(specs.source)
        else:
            self.source_row.set_spec(InputSpec(path=""))
        self.references.set_specs(specs.references)
        self.systems.set_specs(specs.systems)
        self.error_label.hide()

    def set_left_out(self, left_out: Sequence[tuple[str, str]]) -> None:
        """Name the dropped files that are not part of the comparison (see recognise_files)."""
        note = left_out_note(left_out)
        self.left_out_label.setText(note)
        self.left_out_label.setVisible(bool(note))

    def left_out_text(self) -> str:
        return self.left_out_label.text() if not self.left_out_label.isHidden() else ""

    def current_specs(self) -> ComparisonSpecs:
        """The specs the rows describe right now (empty rows left out)."""
        return ComparisonSpecs(
            source=self.source_row.spec(),
            references=tuple(self.references.specs()),
            systems=tuple(self.systems.specs()),
        )

    def specs(self) -> ComparisonSpecs | None:
        """The specs of the loaded comparison (None until it was read)."""
        return self._specs

    def comparison(self) -> Comparison | None:
        """The loaded comparison (None until it was read)."""
        return self._comparison

    def loaded(self) -> object | None:
        """What the reader returned (a Comparison, or what the app prepared along with it)."""
        return self._loaded

    def error_text(self) -> str:
        return self.error_label.text() if not self.error_label.isHidden() else ""

    def is_reading(self) -> bool:
        return self._call is not None

    def start_reading(self) -> bool:
        """Read the files the rows name, in the background; False if a read is running.

        On success the dialog is accepted; an InputError is shown inline (``read_failed``).
        """
        if self._call is not None:
            return False
        specs = self.current_specs()
        call = self._read(specs)
        call.setParent(self)
        call.finished.connect(self._on_read_finished)
        call.failed.connect(self._on_read_failed)
        call.cancelled.connect(self._on_read_cancelled)
        self._call = call
        self._reading_specs = specs
        self.error_label.hide()
        self._set_reading(True)
        call.start()
        return True

    @Slot()
    def cancel_reading(self) -> None:
        """Stop the read in progress (the dialog stays open)."""
        if self._call is not None:
            self._call.cancel()

    def reject(self) -> None:
        """Escape stops a read first; pressed again (or with no read), it closes the dialog."""
        if self._call is not None:
            self.cancel_reading()
            return
        super().reject()

    def closeEvent(self, event: QCloseEvent) -> None:
        self.cancel_reading()
        super().closeEvent(event)

    def _set_reading(self, reading: bool) -> None:
        self._inputs.setEnabled(not reading)
        self.buttons.button(QDialogButtonBox.StandardButton.Open).setEnabled(not reading)
        cancel = self.buttons.button(QDialogButtonBox.StandardButton.Cancel)
        cancel.setText(
            QCoreApplication.translate("OpenComparisonDialog", "Stop reading")
            if reading
            else QCoreApplication.translate("OpenComparisonDialog", "Cancel")
        )
        cancel.setToolTip(
            QCoreApplication.translate(
                "OpenComparisonDialog", "Stop reading the files; the dialog stays open"
            )
            if reading
            else ""
        )
        if reading:
            count = len(self._reading_specs.paths) if self._reading_specs is not None else 0
            self.status_label.setText(
                QCoreApplication.translate("OpenComparisonDialog", "Reading {count} file…").format(
                    count=count
                )
                if count == 1
                else QCoreApplication.translate(
                    "OpenComparisonDialog", "Reading {count} files…"
                ).format(count=count)
            )
        self.status_label.setVisible(reading)
        self.reading_changed.emit(reading)

    def _end_read(self) -> ComparisonSpecs | None:
        call, specs = self._call, self._reading_specs
        self._call = self._reading_specs = None
        if call is not None:
            call.deleteLater()
        self._set_reading(False)
        return specs

    def _show_error(self, message: str) -> None:
        self.error_label.setText(message)
        self.error_label.show()

    @Slot(object)
    def _on_read_finished(self, value: object) -> None:
        specs = self._end_read()
        comparison = value if isinstance(value, Comparison) else getattr(value, "comparison", None)
        if not isinstance(comparison, Comparison):
            raise TypeError(f"the reader returned {type(value).__name__}, not a Comparison")
        self._loaded = value
        self._comparison = comparison
        self._specs = specs
        self.error_label.hide()
        self.accept()

    @Slot(object)
    def _on_read_failed(self, error: object) -> None:
        self._end_read()
        if isinstance(error, InputError):
            message = str(error)
        else:  # a bug, not the user's files: say so, and log the details
            log.error("reading the comparison failed", exc_info=error)  # type: ignore[arg-type]
            message = QCoreApplication.translate(
                "OpenComparisonDialog", "Could not read the files: {error} ({0})"
            ).format(type(error).__name__, error=error)
        self._show_error(message)
        self.read_failed.emit(message)

    @Slot()
    def _on_read_cancelled(self) -> None:
        self._end_read()
        self.status_label.setText(
            QCoreApplication.translate("OpenComparisonDialog", "Reading stopped.")
        )
        self.status_label.show()

    @Slot()
    def _on_open_clicked(self) -> None:
        self.start_reading()

    @Slot()
    def _on_cancel_clicked(self) -> None:
        if self._call is not None:
            self.cancel_reading()
        else:
            self.reject()


def sample_specs() -> ComparisonSpecs:
    """The bundled German→English sample (``resources/sample``), located as package data."""
    from importlib import resources

    folder = resources.files("matchlight.resources") / "sample"
    base = Path(str(folder))
    systems = sorted(p.name for p in folder.iterdir() if p.name.startswith("sys."))
    return ComparisonSpecs(
        source=InputSpec(path=str(base / "src.de.txt")),
        references=(
            InputSpec(path=str(base / "ref.en.txt"), name="ref"),
            InputSpec(path=str(base / "ref2.en.txt"), name="ref2"),
        ),
        systems=tuple(
            InputSpec(path=str(base / name), name=default_system_name(name)) for name in systems
        ),
    )
