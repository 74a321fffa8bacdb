"""Annotations in and out of the app: pre-annotation imports, exports, agreement with a colleague.

Imports (xCOMET JSONL, WMT MQM TSV, WMT24 ESA JSONL; core's :mod:`~core.annotation.interchange`)
arrive as undecided spans, one undo step. Exports write what core's exporters make through the
one atomic writer, never over an input or the session file. Agreement compares this workspace
with another annotator's session of the same files, read through a private read-only copy.
The session file (for an MQM TSV's layout, and to protect it) comes from :attr:`store_of`.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from PySide6.QtCore import QCoreApplication, QObject, Signal

from matchlight.core.annotation.agreement import AgreementReport, agreement
from matchlight.core.annotation.history import AddSpan, Batch, SetSegmentScore
from matchlight.core.annotation.interchange import (
    ImportResult,
    export_csv,
    left_out,
    left_out_message,
    write_export,
)
from matchlight.core.annotation.model import AnnotationError, Status
from matchlight.core.annotation.wmtesa import export_wmt24_esa, import_wmt24_esa
from matchlight.core.annotation.wmtmqm import (
    check_segment_ids,
    export_mqm_tsv,
    import_mqm_tsv,
    read_segment_ids,
)
from matchlight.core.annotation.xcomet import export_xcomet, import_xcomet
from matchlight.core.io.inputs import InputError
from matchlight.core.session.store import SessionError, SessionInput, SessionStore
from matchlight.gui.annotate.controller import AnnotationController
from matchlight.gui.workers.loader import BackgroundCall

__all__ = ["AnnotationTransfer"]


def _cannot_import() -> str:
    return QCoreApplication.translate("AnnotationTransfer", "Cannot import the annotations")


def _cannot_export() -> str:
    return QCoreApplication.translate("AnnotationTransfer", "Cannot export the annotations")


def _cannot_read_other() -> str:
    return QCoreApplication.translate("AnnotationTransfer", "Cannot read the other session")


class AnnotationTransfer(QObject):
    """Import, export and agreement for one :class:`AnnotationController`.

    Files are read in a worker (:class:`~gui.workers.loader.BackgroundCall`): an import or an
    agreement returns at once and reports when it is done; a new one cancels one still reading.

    Signals:
        import_finished(object): an import ended: its ImportResult, or None (refused, failed,
            cancelled, or nothing to add).
        agreement_finished(object): an agreement ended: its AgreementReport, or None.
    """

    import_finished = Signal(object)
    agreement_finished = Signal(object)

    def __init__(self, controller: AnnotationController) -> None:
        super().__init__(controller)
        self.controller = controller
        # The session file of the open comparison, if there is one yet.
        self.store_of: Callable[[], SessionStore | None] = lambda: None
        # A reader of the comparison's inputs as the session records them (hashes, for
        # agreement); called in a worker.
        self.inputs_reader: Callable[[], Callable[[], Sequence[SessionInput]]] = lambda: tuple
        self._import: BackgroundCall | None = None
        self._agreement: BackgroundCall | None = None

    def busy(self) -> bool:
        """Whether an import or an agreement is still reading its file."""
        return self._import is not None or self._agreement is not None

    def _error(self, title: str, message: str) -> None:
        self.controller.host.report_error(title, message)

    def import_annotations(
        self,
        path: str | os.PathLike[str],
        fmt: str,
        *,
        system: str | None = None,
        segment_ids: str | os.PathLike[str] | None = None,
        segment_column: str | None = None,
    ) -> BackgroundCall | None:
        """Read pre-annotations (undecided spans, and scores) from ``path`` in format ``fmt``
        (a key of core's IMPORT_FORMATS) in a worker, then add them as one undo step
        (:attr:`import_finished`). A WMT MQM TSV's ``seg_id`` is the line number, or is looked
        up in a segment-id file (``segment_ids``, a segid.txt, read in the worker too) or in a
        label column of the comparison (``segment_column``); its source-side spans go on the
        comparison's source lines. None when nothing can be imported now (told why;
        :attr:`import_finished` says None at once)."""
        c = self.controller
        ws, core = c.workspace, c.comparison_session
        if ws is None or core is None:
            self.import_finished.emit(None)
            return None
        lines, sources, typology = c.lines(), core.source, ws.typology
        try:
            column_ids = self._column_ids(segment_column) if segment_ids is None else None
        except InputError as exc:
            self._error(_cannot_import(), str(exc))
            self.import_finished.emit(None)
            return None
        n_segments = core.n_segments
        known = frozenset(ws.systems)

        def read(cancel: threading.Event) -> _Read:
            result = parse(cancel)
            # The commands of its spans are made here too, off the GUI thread (100,000 of
            # them are a visible wait there).
            adds = tuple(AddSpan(s) for s in result.spans if s.system in known)
            return _Read(result, adds, known)

        def parse(_cancel: threading.Event) -> ImportResult:
            if fmt == "xcomet-jsonl":
                return import_xcomet(path, lines=lines, system=system)
            if fmt == "wmt-mqm-tsv":
                ids = column_ids
                if segment_ids is not None:
                    ids = _checked_count(read_segment_ids(segment_ids), n_segments, segment_ids)
                return import_mqm_tsv(
                    path,
                    lines=lines,
                    sources=sources,
                    segment_ids=ids,
                    typology=typology,
                    skip_other_systems=True,
                )
            if fmt == "wmt24-esa-jsonl":
                return import_wmt24_esa(path, lines=lines)
            raise InputError(f"unknown annotation format {fmt!r}", os.fspath(path))

        if self._import is not None:
            self._import.cancel()
        call = BackgroundCall(read, name="matchlight-annotation-import", parent=self)
        call.finished.connect(lambda result: self._on_import_read(path, result))
        call.failed.connect(self._on_import_failed)
        call.cancelled.connect(self._on_import_cancelled)
        self._import = call
        c.say(
            QCoreApplication.translate("AnnotationTransfer", "Reading {0}…").format(Path(path).name)
        )
        call.start()
        return call

    def _on_import_failed(self, error: object) -> None:
        self._import = None
        if isinstance(error, (InputError, AnnotationError, OSError)):
            self._error(_cannot_import(), str(error))
        else:
            self._error(_cannot_import(), f"{error} ({type(error).__name__})")
        self.import_finished.emit(None)

    def _on_import_cancelled(self) -> None:
        self._import = None
        self.import_finished.emit(None)

    def _on_import_read(self, path: str | os.PathLike[str], read: object) -> None:
        self._import = None
        if not isinstance(read, _Read):
            self.import_finished.emit(None)
            return
        self._add(path, read.result, read.adds, read.known)

    def _add(
        self,
        path: str | os.PathLike[str],
        result: ImportResult,
        adds: tuple[AddSpan, ...] | None = None,
        known: frozenset[str] = frozenset(),
    ) -> None:
        """Add what a file held, as one undo step (a large one a slice at a time, see
        :mod:`.stepping`); :attr:`import_finished` says when it is in."""
        c = self.controller
        stepping, added = self._add_now(path, result, adds, known)
        if not stepping:
            self.import_finished.emit(added)
            return

        def applied(ok: bool, _error: str) -> None:
            c.stepping.finished.disconnect(applied)
            self.import_finished.emit(self._imported(path, result) if ok else None)

        c.stepping.finished.connect(applied)

    def _add_now(
        self,
        path: str | os.PathLike[str],
        result: ImportResult,
        adds: tuple[AddSpan, ...] | None,
        made_for: frozenset[str],
    ) -> tuple[bool, ImportResult | None]:
        """(False, the result or None when refused), or (True, None) while it is applied a
        slice at a time. ``adds``: the spans' commands, made in the reading worker for the
        systems ``made_for``."""
        c = self.controller
        ws = c.workspace
        if ws is None:
            return False, None
        known = set(ws.systems)
        scores = [s for s in result.scores if s.system in known]
        if adds is None or made_for != known:  # another comparison since: made again
            adds = tuple(AddSpan(s) for s in result.spans if s.system in known)
        commands: list[Any] = list(adds)
        for score in scores:
            commands.append(
                SetSegmentScore(ws.score(*score.key[:2], annotator=score.key[2]), score)
            )
        if not commands:
            c.say(
                QCoreApplication.translate(
                    "AnnotationTransfer", "The file held no annotations of these systems."
                )
            )
            return False, result
        if not c.execute(Batch(tuple(commands), label=f"Import {Path(path).name}")):
            return False, None
        if c.stepping.busy():
            return True, None  # being applied: _imported follows
        return False, self._imported(path, result)

    def _imported(self, path: str | os.PathLike[str], result: ImportResult) -> ImportResult:
        """What follows an import once it is in: the TSV layout kept, the notice."""
        c = self.controller
        ws = c.workspace
        known = set() if ws is None else set(ws.systems)
        spans = [s for s in result.spans if s.system in known]
        scores = [s for s in result.scores if s.system in known]
        skipped = len(result.spans) - len(spans)
        store = self.store_of()
        if result.layout is not None and store is not None:
            try:
                store.set_mqm_tsv_layout(result.layout)  # to export the file back
            except SessionError as exc:
                c.say(
                    QCoreApplication.translate(
                        "AnnotationTransfer", "The TSV file's layout was not kept: {0}"
                    ).format(exc)
                )
        notes = list(result.warnings[:5])
        if len(result.warnings) > 5:
            notes.append(
                QCoreApplication.translate("AnnotationTransfer", "… and {0} more warnings").format(
                    len(result.warnings) - 5
                )
            )
        if skipped:
            notes.append(
                QCoreApplication.translate(
                    "AnnotationTransfer",
                    "{0} spans of systems not in this comparison were skipped.",
                ).format(skipped)
            )
        summary = (
            QCoreApplication.translate(
                "AnnotationTransfer",
                "Imported {0} errors to review (Enter confirms, Backspace rejects) and {1} "
                "segment scores.",
            ).format(len(spans), len(scores))
            if scores
            else QCoreApplication.translate(
                "AnnotationTransfer",
                "Imported {0} errors to review (Enter confirms, Backspace rejects).",
            ).format(len(spans))
        )
        c.notice_sink(
            QCoreApplication.translate("AnnotationTransfer", "Annotations imported"),
            summary + "\n\n" + "\n".join(notes),
        )
        return result

    def _column_ids(self, column: str | None) -> list[str] | None:
        """The segment ids held by a label column of the comparison (InputError when bad)."""
        core = self.controller.comparison_session
        if column is None or core is None:
            return None
        found = {c.name: c for c in core.label_columns()}.get(column)
        if found is None:
            raise InputError(f"there is no label column {column!r}")
        where = f"label column {column!r}"
        return _checked_count(check_segment_ids(found.labels, where), core.n_segments, where)

    def left_out(self, fmt: str, *, all_statuses: bool = False) -> str | None:
        """What an export to ``fmt`` would not write, in a sentence (None: nothing)."""
        ws = self.controller.workspace
        if ws is None:
            return None
        statuses = tuple(Status) if all_statuses else (Status.CONFIRMED,)
        return left_out_message(left_out(ws.spans(), fmt, statuses=statuses))

    def export_annotations(
        self, path: str | os.PathLike[str], fmt: str, *, all_statuses: bool = False
    ) -> Path | None:
        """Write the confirmed spans (``all_statuses``: undecided and rejected too) as ``fmt``:
        ``csv``, ``xcomet-jsonl``, ``wmt24-esa-jsonl`` or ``wmt-mqm-tsv``."""
        c = self.controller
        ws, core = c.workspace, c.comparison_session
        if ws is None or core is None:
            return None
        statuses = tuple(Status) if all_statuses else (Status.CONFIRMED,)
        spans = ws.spans()
        store = self.store_of()
        try:
            if fmt == "csv":
                text = export_csv(spans, weights=ws.weights, statuses=statuses)
            elif fmt == "xcomet-jsonl":
                text = export_xcomet(spans, statuses=statuses)
            elif fmt == "wmt24-esa-jsonl":
                text = export_wmt24_esa(
                    spans, ws.scores(), lines=c.lines(), sources=core.source, statuses=statuses
                )
            elif fmt == "wmt-mqm-tsv":
                layout = store.mqm_tsv_layout() if store is not None else None
                text = export_mqm_tsv(
                    spans,
                    ws.scores(),
                    lines=c.lines(),
                    sources=core.source,
                    layout=layout,
                    statuses=statuses,
                )
            else:
                raise AnnotationError(f"unknown export format {fmt!r}")
        except AnnotationError as exc:
            self._error(_cannot_export(), str(exc))
            return None
        comparison = core.comparison
        protected = [] if comparison is None else [col.path for col in comparison.columns]
        if store is not None:
            protected.append(str(store.path))
        try:
            write_export(path, text, protected=protected)
        except OSError as exc:
            self._error(_cannot_export(), f"{path}: {exc}")
            return None
        missing = self.left_out(fmt, all_statuses=all_statuses)
        c.say(
            QCoreApplication.translate(
                "AnnotationTransfer", "Exported the annotations to {0}."
            ).format(path)
            + (" " + missing if missing else "")
        )
        return Path(path)

    def agreement_with(self, path: str | os.PathLike[str]) -> BackgroundCall | None:
        """Agreement of this workspace's annotations (A) with another annotator's session (B)
        of the same files, computed in a worker (:attr:`agreement_finished`); the other file
        is read through a private read-only copy."""
        ws = self.controller.workspace
        if ws is None:
            self.agreement_finished.emit(None)
            return None
        mine_spans, mine_scores, weights = ws.spans(), ws.scores(), ws.weights
        inputs = self.inputs_reader()

        def compute(_cancel: threading.Event) -> AgreementReport:
            with SessionStore.open_copy_read_only(path) as other:
                mine = {i.name: i.sha256 for i in inputs() if i.role == "system"}
                theirs = {i.name: i.sha256 for i in other.inputs() if i.role == "system"}
                differ = sorted(n for n in set(mine) | set(theirs) if mine.get(n) != theirs.get(n))
                if differ:
                    raise _DifferentFiles(
                        f"{path}: the system outputs differ from this comparison's ("
                        + ", ".join(differ)
                        + "). Agreement needs both annotators to have seen the same texts."
                    )
                return agreement(
                    mine_spans,
                    other.spans(),
                    mine_scores,
                    other.segment_scores(),
                    weights=weights,
                )

        if self._agreement is not None:
            self._agreement.cancel()
        call = BackgroundCall(compute, name="matchlight-agreement", parent=self)
        call.finished.connect(self._on_agreement_done)
        call.failed.connect(self._on_agreement_failed)
        call.cancelled.connect(lambda: self._on_agreement_done(None))
        self._agreement = call
        call.start()
        return call

    def _on_agreement_done(self, report: object) -> None:
        self._agreement = None
        self.agreement_finished.emit(report if isinstance(report, AgreementReport) else None)

    def _on_agreement_failed(self, error: object) -> None:
        self._agreement = None
        if isinstance(error, _DifferentFiles):
            self._error(
                QCoreApplication.translate(
                    "AnnotationTransfer", "The sessions annotate different files"
                ),
                str(error),
            )
        elif isinstance(error, (SessionError, OSError)):
            self._error(_cannot_read_other(), str(error))
        else:
            self._error(_cannot_read_other(), f"{error} ({type(error).__name__})")
        self.agreement_finished.emit(None)


@dataclass(frozen=True, slots=True)
class _Read:
    """What the import's worker hands back: the file's records, and its spans' commands."""

    result: ImportResult
    adds: tuple[AddSpan, ...]
    known: frozenset[str]


class _DifferentFiles(Exception):
    """The other session annotates other texts."""


def _checked_count(ids: list[str], n_segments: int, where: object) -> list[str]:
    if len(ids) != n_segments:
        raise InputError(
            f"{len(ids):,} segment ids for a comparison of {n_segments:,} segments", str(where)
        )
    return ids
