"""File ▸ Load human judgements: the dialog and the reading behind it.

Human judgements per system (a column of WMT's DA table), per segment (one row per system and
segment, or one column per system) or MQM from a WMT MQM TSV of error spans, read by core's
readers (:func:`core.io.human.read_human`, :func:`core.annotation.spanscores.human_from_spans`,
the ones ``matchlight metaeval --human`` uses). Judgements per segment become a column of the
comparison with their files (kept in a session file); judgements per system are held by the
comparison session for the Human agreement tab.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication, Signal, Slot
from PySide6.QtWidgets import (
    QComboBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QWidget,
)

from matchlight.core.annotation.spanscores import human_from_spans
from matchlight.core.io.decoding import decode_bytes, read_input_bytes
from matchlight.core.io.human import HumanJudgements, read_human
from matchlight.core.io.inputs import InputError
from matchlight.core.metrics.base import Better
from matchlight.core.session.imported import ImportedFile, ScoreImport
from matchlight.core.text.textspan import split_lines
from matchlight.gui.charts.imports import ReadingDialog
from matchlight.gui.charts.jobs import BackgroundJob

__all__ = [
    "HUMAN_KINDS",
    "HumanImportDialog",
    "HumanRead",
    "header_fields",
    "parse_renames",
    "read_human_file",
]

# What File ▸ Load human judgements reads: (kind, what the dialog calls it; translated where
# shown, in the context "humanimport").
HUMAN_KINDS: tuple[tuple[str, str], ...] = (
    (
        "system",
        QT_TRANSLATE_NOOP(
            "humanimport", "Scores per system (one row per system, e.g. WMT's DA table)"
        ),
    ),
    (
        "long",
        QT_TRANSLATE_NOOP("humanimport", "Scores per segment: one row per system and segment"),
    ),
    ("wide", QT_TRANSLATE_NOOP("humanimport", "Scores per segment: one column per system")),
    ("spans", QT_TRANSLATE_NOOP("humanimport", "MQM from error spans (a WMT MQM TSV)")),
)


@dataclass(frozen=True, slots=True, eq=False)
class HumanRead:
    """Human judgements read for the comparison's systems. For judgements per segment,
    ``record`` is the imported column a session file keeps (its files hashed when they were
    read). It is None when the files cannot be read again, and ``note`` then says why."""

    judgements: HumanJudgements
    record: ScoreImport | None = None
    note: str = ""


def parse_renames(text: str) -> dict[str, str]:
    """``ref=ref-A, refB=Ref B``: the file's name of a system, then the comparison's. Raises
    ValueError (a message for the user) for an entry without both names."""
    renames: dict[str, str] = {}
    for item in text.split(","):
        item = item.strip()
        if not item:
            continue
        old, sep, new = (part.strip() for part in item.partition("="))
        if not sep or not old or not new:
            raise ValueError(
                QCoreApplication.translate(
                    "humanimport", "{0}: write the file's name, '=', then the comparison's"
                ).format(repr(item))
            )
        renames[old] = new
    return renames


def header_fields(path: str) -> list[str]:
    """The names in the first line of a TSV or CSV file (InputError when it cannot be read)."""
    text, _encoding, _detected = decode_bytes(read_input_bytes(path), path=path)
    lines = split_lines(text)
    first = lines[0] if lines else ""
    delimiter = "," if path.lower().endswith(".csv") else "\t"
    return [f.strip() for f in first.split(delimiter) if f.strip()]


def read_human_file(
    kind: str,
    path: str,
    *,
    systems: Sequence[str],
    n_segments: int,
    column: str = "score",
    system_column: str = "system",
    segment_column: str | None = None,
    segment_ids: str | None = None,
    renames: Mapping[str, str] | None = None,
    name: str | None = None,
    better: Better | None = None,
) -> HumanRead:
    """Read human judgements of ``kind`` (one of :data:`HUMAN_KINDS`) from ``path`` with core's
    readers (:func:`core.io.human.read_human`, :func:`core.annotation.spanscores.
    human_from_spans`). For judgements per segment, the files are hashed for the session
    record. Raises InputError naming the file and the line."""
    files: list[tuple[str, dict[str, str | None]]]
    if kind == "spans":
        judgements = human_from_spans(
            path,
            systems=systems,
            n_segments=n_segments,
            segment_ids=segment_ids,
            system_names=dict(renames or {}),
            name=name or "MQM",
        )
        shown = ", ".join(f"{a}={b}" for a, b in (renames or {}).items()) or None
        files = [(path, {"fmt": "mqm-tsv", "systems": shown})]
        if segment_ids:
            files.append((segment_ids, {"fmt": "segment-ids"}))
    else:
        if kind not in ("system", "long", "wide"):
            raise InputError(f"unknown kind of human judgements {kind!r}", path)
        judgements = read_human(
            path,
            systems=systems,
            n_segments=n_segments,
            level="system" if kind == "system" else "segment",
            column=column,
            layout="wide" if kind == "wide" else "long",
            system_column=system_column,
            segment_column=segment_column,
            name=name or (Path(path).stem if kind == "wide" else column),
            better=better,
        )
        spec: dict[str, str | None] = {"layout": kind}
        if kind != "wide":
            spec |= {"column": column, "system_column": system_column}
            spec["segment_column"] = segment_column
        files = [(path, spec)]
    if judgements.level == "system":
        return HumanRead(judgements)
    try:
        recorded = tuple(ImportedFile.from_file(p, spec=spec) for p, spec in files)
    except OSError as error:
        note = QCoreApplication.translate("humanimport", "not kept in the session file: {0}")
        return HumanRead(judgements, None, note.format(error))
    record = ScoreImport(judgements.column, judgements.systems, judgements.values, recorded)
    return HumanRead(judgements, record)


class HumanImportDialog(ReadingDialog):
    """File ▸ Load human judgements: scores per system (a column of WMT's DA table), scores per
    segment (one row per system and segment, or one column per system), or MQM from a WMT MQM
    TSV of error spans (with the file of its segment ids). Once a TSV or CSV file is chosen, its
    header is read in the background to offer its columns.

    Signals:
        human_read(HumanRead): the file was read (the dialog then closes).
    """

    human_read = Signal(object)

    def __init__(
        self,
        *,
        systems: Sequence[str],
        n_segments: int,
        start_dir: str = "",
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(
            QCoreApplication.translate("humanimport", "Load human judgements"),
            parent,
            start_dir=start_dir,
        )
        self.systems = tuple(systems)
        self.n_segments = n_segments
        self.kind_combo = QComboBox()
        for kind, label in HUMAN_KINDS:
            self.kind_combo.addItem(QCoreApplication.translate("humanimport", label), kind)
        self.path_edit = QLineEdit()
        browse = QPushButton(QCoreApplication.translate("humanimport", "Browse…"))
        browse.clicked.connect(self._on_browse_clicked)
        path_row = QHBoxLayout()
        path_row.addWidget(self.path_edit, 1)
        path_row.addWidget(browse)
        self.column_combo = QComboBox()
        self.column_combo.setEditable(True)
        self.column_combo.setToolTip(
            QCoreApplication.translate(
                "humanimport", "The column of the scores: a header name, or a JSON key"
            )
        )
        self.column_combo.setEditText("score")
        self.system_edit = QLineEdit("system")
        self.system_edit.setToolTip(
            QCoreApplication.translate("humanimport", "The column naming the system of each row")
        )
        self.segment_edit = QLineEdit()
        self.segment_edit.setPlaceholderText(
            QCoreApplication.translate(
                "humanimport", "optional; 1-based segment numbers (else in order)"
            )
        )
        self.segid_edit = QLineEdit()
        self.segid_edit.setPlaceholderText(
            QCoreApplication.translate(
                "humanimport", "optional; the TSV's seg_id of each line (segid.txt)"
            )
        )
        segid_browse = QPushButton(QCoreApplication.translate("humanimport", "Browse…"))
        segid_browse.clicked.connect(self._on_segid_browse_clicked)
        self.segid_row = segid_row = QHBoxLayout()
        segid_row.addWidget(self.segid_edit, 1)
        segid_row.addWidget(segid_browse)
        self.renames_edit = QLineEdit()
        self.renames_edit.setPlaceholderText(
            QCoreApplication.translate(
                "humanimport", "e.g. ref=ref-A (the file's name = the comparison's)"
            )
        )
        self.name_edit = QLineEdit()
        self.name_edit.setPlaceholderText(
            QCoreApplication.translate("humanimport", "default: the column's name")
        )
        self.better_combo = QComboBox()
        self.better_combo.addItem(
            QCoreApplication.translate("humanimport", "As the name says (MQM, error: lower)"), ""
        )
        self.better_combo.addItem(
            QCoreApplication.translate("humanimport", "Higher is better"), "higher"
        )
        self.better_combo.addItem(
            QCoreApplication.translate("humanimport", "Lower is better"), "lower"
        )
        self.form = QFormLayout()
        self.form.addRow(QCoreApplication.translate("humanimport", "What:"), self.kind_combo)
        self.form.addRow(QCoreApplication.translate("humanimport", "File:"), path_row)
        self.form.addRow(
            QCoreApplication.translate("humanimport", "Score column:"), self.column_combo
        )
        self.form.addRow(
            QCoreApplication.translate("humanimport", "System column:"), self.system_edit
        )
        self.form.addRow(
            QCoreApplication.translate("humanimport", "Segment column:"), self.segment_edit
        )
        self.form.addRow(QCoreApplication.translate("humanimport", "Segment ids:"), segid_row)
        self.form.addRow(
            QCoreApplication.translate("humanimport", "Systems renamed:"), self.renames_edit
        )
        self.form.addRow(QCoreApplication.translate("humanimport", "Name:"), self.name_edit)
        self.form.addRow(QCoreApplication.translate("humanimport", "Better:"), self.better_combo)
        self.note = QLabel()
        self.note.setWordWrap(True)
        self.form.addRow(self.note)
        self.finish_layout(self.form)
        self.header_job = BackgroundJob(self, name="matchlight-import-header")
        self.header_job.finished.connect(self._on_header_read)
        self.path_edit.editingFinished.connect(self._on_path_changed)
        self.kind_combo.currentIndexChanged.connect(self._on_kind_changed)
        self._on_kind_changed()

    @property
    def kind(self) -> str:
        return str(self.kind_combo.currentData())

    def set_kind(self, kind: str) -> None:
        index = self.kind_combo.findData(kind)
        if index < 0:
            raise ValueError(f"unknown kind {kind!r}")
        self.kind_combo.setCurrentIndex(index)

    def set_path(self, path: str) -> None:
        """Choose ``path`` (its header is read in the background for the column choice)."""
        self.path_edit.setText(path)
        self._on_path_changed()

    @Slot()
    def _on_kind_changed(self) -> None:
        kind = self.kind
        rows: dict[QWidget | QHBoxLayout, bool] = {
            self.column_combo: kind in ("system", "long"),
            self.system_edit: kind in ("system", "long"),
            self.segment_edit: kind == "long",
            self.segid_row: kind == "spans",
            self.renames_edit: kind == "spans",
            self.better_combo: kind != "spans",
        }
        for field, shown in rows.items():
            self.form.setRowVisible(field, shown)
        placeholders = {
            "spans": QCoreApplication.translate("humanimport", "default: MQM"),
            "wide": QCoreApplication.translate("humanimport", "default: the file's name"),
        }
        self.name_edit.setPlaceholderText(
            placeholders.get(
                kind, QCoreApplication.translate("humanimport", "default: the score column's name")
            )
        )
        systems = ", ".join(self.systems)
        notes = {
            "system": QCoreApplication.translate(
                "humanimport",
                "One row per system, named as in the comparison ({systems}); systems the file "
                "has and the comparison has not are ignored. Kept while the comparison is open "
                "(not in a session file).",
            ),
            "long": QCoreApplication.translate(
                "humanimport",
                "One row per system and segment ({0:,} segments each, in order unless a segment "
                "column numbers them); empty, NA or - where a pair was not judged. It becomes a "
                "column of the comparison, kept in the session file.",
            ),
            "wide": QCoreApplication.translate(
                "humanimport",
                "One row per segment ({0:,}), one column per system, headed with its name; "
                "empty, NA or - where a pair was not judged. It becomes a column of the "
                "comparison, kept in the session file.",
            ),
            "spans": QCoreApplication.translate(
                "humanimport",
                "A WMT MQM TSV (system, doc, doc_id, seg_id, rater, source, target, category, "
                "severity): each rated (system, segment) gets its MQM penalty (lower is better). "
                "seg_id is the line number unless a segment-id file maps it. It becomes a column "
                "of the comparison, kept in the session file.",
            ),
        }
        self.note.setText(notes[kind].format(self.n_segments, systems=systems))

    @Slot()
    def _on_browse_clicked(self) -> None:
        self.ask_files(QCoreApplication.translate("humanimport", "Human judgements"), self.set_path)

    @Slot()
    def _on_segid_browse_clicked(self) -> None:
        self.ask_files(
            QCoreApplication.translate("humanimport", "Segment ids"), self.segid_edit.setText
        )

    @Slot()
    def _on_path_changed(self) -> None:
        path = self.path_edit.text().strip()
        if not path or path.lower().endswith((".jsonl", ".ndjson")):
            return

        def run(cancelled: Callable[[], bool], progress: Callable[[float], None]) -> object:
            try:
                return header_fields(path)
            except InputError:
                return None  # OK reports it

        self.header_job.start(run)

    @Slot(object)
    def _on_header_read(self, fields: object) -> None:
        if not isinstance(fields, list):
            return
        if "severity" in [f.lower() for f in fields] and self.kind != "spans":
            self.set_kind("spans")
        system = self.system_edit.text().strip()
        offered = [f for f in fields if f != system]
        current = self.column_combo.currentText().strip()
        self.column_combo.clear()
        self.column_combo.addItems(offered)
        if current in offered:
            self.column_combo.setCurrentText(current)
        elif offered:
            self.column_combo.setCurrentIndex(0)

    @Slot()
    def _on_ok(self) -> None:
        path = self.path_edit.text().strip()
        if not path:
            self.show_error(QCoreApplication.translate("humanimport", "Choose a file."))
            return
        kind = self.kind
        try:
            renames = parse_renames(self.renames_edit.text()) if kind == "spans" else {}
        except ValueError as error:
            self.show_error(
                QCoreApplication.translate("humanimport", "Systems renamed: {0}").format(error)
            )
            return
        column = self.column_combo.currentText().strip()
        if kind in ("system", "long") and not column:
            self.show_error(QCoreApplication.translate("humanimport", "Name the score column."))
            return
        self.header_job.cancel()
        arguments: dict[str, object] = {
            "systems": self.systems,
            "n_segments": self.n_segments,
            "column": column or "score",
            "system_column": self.system_edit.text().strip() or "system",
            "segment_column": self.segment_edit.text().strip() or None,
            "segment_ids": self.segid_edit.text().strip() or None,
            "renames": renames,
            "name": self.name_edit.text().strip() or None,
            "better": self.better_combo.currentData() or None,
        }
        self.read(lambda: read_human_file(kind, path, **arguments))  # type: ignore[arg-type]

    def deliver(self, result: object) -> None:
        if isinstance(result, HumanRead):
            self.human_read.emit(result)

    def done(self, code: int) -> None:
        self.header_job.shutdown()
        super().done(code)
