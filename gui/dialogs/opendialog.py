"""Choosing the files of a comparison: an optional source, 1..N references, 1..N systems.

The dialog validates by calling :func:`core.io.inputs.load_comparison`; an
:class:`~core.io.inputs.InputError`
is shown inline (the dialog stays open), so the user can fix the file choice right there.
:class:`ComparisonSpecs` is what the app remembers in its Recent menu and what drag-and-drop
(:func:`assign_roles`) produces.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt, Signal, Slot
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

from matchlight.core.io.inputs import (
    FORMATS,
    Comparison,
    InputError,
    InputSpec,
    default_name,
    load_comparison,
)
from matchlight.gui.workers.loader import call_in_background

_SOURCE_RE = re.compile(r"^(src|source)([._\-]|\d|$)", re.IGNORECASE)
_REFERENCE_RE = re.compile(r"^(ref|refs|reference|references)([._\-]|\d|$)", re.IGNORECASE)
_AUTO_FORMAT = "auto"


#: The file stem without a ``sys.``-style prefix (the same rule as the CLI's).
default_system_name = default_name


@dataclass(frozen=True, slots=True)
class ComparisonSpecs:
    """The input specs of one comparison (what Recent remembers and re-opens)."""

    source: InputSpec | None = None
    references: tuple[InputSpec, ...] = ()
    systems: tuple[InputSpec, ...] = field(default_factory=tuple)

    def load(self) -> Comparison:
        """Read the files; raises :class:`~core.io.inputs.InputError` with a user-facing message."""
        return load_comparison(
            source=self.source, references=list(self.references), systems=list(self.systems)
        )

    @property
    def paths(self) -> tuple[str, ...]:
        head = () if self.source is None else (self.source.path,)
        return head + tuple(s.path for s in self.references) + tuple(s.path for s in self.systems)

    def label(self) -> str:
        """A short human label: ``folder: sys1, sys2 (2 refs)``."""
        folder = Path(self.references[0].path).parent.name if self.references else ""
        names = ", ".join(s.name or default_system_name(s.path) for s in self.systems)
        refs = len(self.references)
        plural = "ref" if refs == 1 else "refs"
        head = f"{folder}: " if folder else ""
        return f"{head}{names} ({refs} {plural})"

    def to_json(self) -> dict[str, Any]:
        def one(spec: InputSpec) -> dict[str, Any]:
            return {"path": spec.path, "name": spec.name, "column": spec.column, "fmt": spec.fmt}

        return {
            "source": None if self.source is None else one(self.source),
            "references": [one(s) for s in self.references],
            "systems": [one(s) for s in self.systems],
        }

    @classmethod
    def from_json(cls, data: Any) -> ComparisonSpecs:
        """Rebuild from :meth:`to_json`; raises ``ValueError`` on anything malformed."""

        def one(item: Any) -> InputSpec:
            if not isinstance(item, dict) or not isinstance(item.get("path"), str):
                raise ValueError(f"not an input spec: {item!r}")
            values = {k: item.get(k) for k in ("name", "column", "fmt")}
            for key, value in values.items():
                if value is not None and not isinstance(value, str):
                    raise ValueError(f"{key} must be a string: {value!r}")
            if values["fmt"] is not None and values["fmt"] not in FORMATS:
                raise ValueError(f"unknown format {values['fmt']!r}")
            return InputSpec(path=item["path"], **values)

        if not isinstance(data, dict):
            raise ValueError("not a comparison")
        refs, syss = data.get("references"), data.get("systems")
        if not isinstance(refs, list) or not isinstance(syss, list) or not refs or not syss:
            raise ValueError("a comparison needs references and systems")
        source = data.get("source")
        return cls(
            source=None if source is None else one(source),
            references=tuple(one(r) for r in refs),
            systems=tuple(one(s) for s in syss),
        )


def assign_roles(paths: Iterable[str]) -> ComparisonSpecs:
    """Guess the role of each dropped file from its name.

    ``src*``/``source*`` is the source (the shortest such name; others count as systems),
    ``ref*``/``reference*`` are references (in name order, so ``ref`` precedes ``ref2``), and
    everything else (typically ``sys.NAME.txt``) is a system named by :func:`default_system_name`.
    """
    references: list[InputSpec] = []
    systems: list[InputSpec] = []
    unique = sorted({str(p) for p in paths}, key=lambda p: (Path(p).name.lower(), p))
    sources = [p for p in unique if _SOURCE_RE.match(Path(p).name)]
    # The plainest name wins the source role: "src.txt" over "source.extra.txt".
    chosen = min(sources, key=lambda p: (len(Path(p).name), p)) if sources else None
    source = None if chosen is None else InputSpec(path=chosen)
    for path in unique:
        if path == chosen:
            continue
        if _REFERENCE_RE.match(Path(path).name):
            references.append(InputSpec(path=path))
        else:
            systems.append(InputSpec(path=path, name=default_system_name(path)))
    return ComparisonSpecs(source=source, references=tuple(references), systems=tuple(systems))


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
            self.name_edit.setPlaceholderText("name")
            self.name_edit.setToolTip("The system's name in the table and the CSV")
            self.name_edit.setFixedWidth(140)
            layout.addWidget(self.name_edit)
        self.path_edit = QLineEdit()
        self.path_edit.setPlaceholderText(f"{role} file (.txt, .tsv, .csv, .jsonl)")
        self.path_edit.setMinimumWidth(320)
        self.browse_button = QPushButton("Browse…")
        self.column_edit = QLineEdit()
        self.column_edit.setPlaceholderText("column / key")
        self.column_edit.setToolTip(
            "TSV/CSV: a header name or a 1-based column number; JSONL: a (dotted) key"
        )
        self.column_edit.setFixedWidth(110)
        self.format_combo = QComboBox()
        self.format_combo.addItem(
            _AUTO_FORMAT, ""
        )  # not None: see matchlight.gui.dialogs.settings.NO_SEPARATOR
        for fmt in FORMATS:
            self.format_combo.addItem(fmt, fmt)
        self.format_combo.setToolTip("File format; auto = from the extension")
        self.remove_button = QToolButton()
        self.remove_button.setText("✕")
        self.remove_button.setToolTip(f"Remove this {role}")
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
            f"Choose the {self.role} file",
            self.path_edit.text(),
            "Text files (*.txt *.tsv *.csv *.jsonl *.ndjson);;All files (*)",
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
        self.add_button = QPushButton(f"Add {role}")
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


class OpenComparisonDialog(QDialog):
    """Pick the files of a comparison; validated with ``core.io.inputs`` before it closes.

    Use :meth:`open` (non-blocking) and read :meth:`comparison` / :meth:`specs` once
    ``accepted`` is emitted.
    """

    def __init__(
        self,
        specs: ComparisonSpecs | None = None,
        parent: QWidget | None = None,
        *,
        read: Callable[[ComparisonSpecs], Comparison] | None = None,
    ) -> None:
        """``read``: how the files are read when Open is pressed (raises InputError); by
        default :meth:`ComparisonSpecs.load` in a worker thread."""
        super().__init__(parent)
        self._read = read
        self.setWindowTitle("Open comparison — Matchlight")
        self._comparison: Comparison | None = None
        self._specs: ComparisonSpecs | None = None

        intro = QLabel(
            "Line-aligned files: one segment per line (or one row of a TSV/CSV/JSONL file). "
            "All files must have the same number of segments."
        )
        intro.setWordWrap(True)

        source_box = QGroupBox("Source (optional)")
        source_layout = QGridLayout(source_box)
        self.source_row = InputRow("source", with_name=False, removable=False)
        source_layout.addWidget(self.source_row, 0, 0)

        self.references = _RowList(
            "References", "reference", with_name=False, minimum=1, parent=self
        )
        self.systems = _RowList("System outputs", "system", with_name=True, minimum=1, parent=self)

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

        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Open | QDialogButtonBox.StandardButton.Cancel
        )
        self.buttons.accepted.connect(self._on_open_clicked)
        self.buttons.rejected.connect(self.reject)

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

        layout = QVBoxLayout(self)
        layout.addWidget(intro)
        layout.addWidget(scroll, 1)
        layout.addWidget(self.error_label)
        layout.addWidget(self.buttons)
        self.resize(860, 520)
        if specs is not None:
            self.set_specs(specs)

    def set_specs(self, specs: ComparisonSpecs) -> None:
        """Prefill every row."""
        if specs.source is not None:
            self.source_row.set_spec(specs.source)
        else:
            self.source_row.set_spec(InputSpec(path=""))
        self.references.set_specs(specs.references)
        self.systems.set_specs(specs.systems)
        self.error_label.hide()

    def current_specs(self) -> ComparisonSpecs:
        """The specs the rows describe right now (empty rows left out)."""
        return ComparisonSpecs(
            source=self.source_row.spec(),
            references=tuple(self.references.specs()),
            systems=tuple(self.systems.specs()),
        )

    def specs(self) -> ComparisonSpecs | None:
        """The specs of the loaded comparison (None until it was validated)."""
        return self._specs

    def comparison(self) -> Comparison | None:
        """The loaded comparison (None until it was validated)."""
        return self._comparison

    def error_text(self) -> str:
        return self.error_label.text() if not self.error_label.isHidden() else ""

    def validate(self) -> bool:
        """Load the files; on an InputError show it inline and return False."""
        specs = self.current_specs()
        try:
            if self._read is not None:
                comparison = self._read(specs)
            else:
                comparison = call_in_background(specs.load)
        except InputError as exc:
            self._show_error(str(exc))
            return False
        self._comparison = comparison
        self._specs = specs
        self.error_label.hide()
        return True

    def _show_error(self, message: str) -> None:
        self.error_label.setText(message)
        self.error_label.show()

    @Slot()
    def _on_open_clicked(self) -> None:
        if self.validate():
            self.accept()


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
