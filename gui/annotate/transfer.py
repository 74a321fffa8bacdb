"""Annotations in and out of the app: pre-annotation imports, exports, agreement with a colleague.

Imports (xCOMET JSONL, WMT MQM TSV, WMT24 ESA JSONL; core's :mod:`~core.annotation.interchange`)
arrive as undecided spans, one undo step. Exports write what core's exporters make through the
one atomic writer, never over an input or the session file. Agreement compares this workspace
with another annotator's session of the same files, read through a private read-only copy.
The session file (for an MQM TSV's layout, and to protect it) comes from :attr:`store_of`.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from PySide6.QtCore import QObject

from matchlight.core.annotation.agreement import AgreementReport, agreement
from matchlight.core.annotation.history import AddSpan, Batch, SetSegmentScore
from matchlight.core.annotation.interchange import (
    ImportResult,
    check_segment_ids,
    export_csv,
    export_mqm_tsv,
    export_wmt24_esa,
    export_xcomet,
    import_mqm_tsv,
    import_wmt24_esa,
    import_xcomet,
    left_out,
    left_out_message,
    read_segment_ids,
    write_export,
)
from matchlight.core.annotation.model import AnnotationError, Status
from matchlight.core.io.inputs import InputError
from matchlight.core.session.store import SessionError, SessionInput, SessionStore
from matchlight.gui.annotate.controller import AnnotationController

__all__ = ["AnnotationTransfer"]


class AnnotationTransfer(QObject):
    """Import, export and agreement for one :class:`AnnotationController`."""

    def __init__(self, controller: AnnotationController) -> None:
        super().__init__(controller)
        self.controller = controller
        #: The session file of the open comparison, if there is one yet.
        self.store_of: Callable[[], SessionStore | None] = lambda: None
        #: The comparison's inputs as the session records them (hashes for agreement).
        self.inputs_of: Callable[[], Sequence[SessionInput]] = lambda: ()

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
    ) -> ImportResult | None:
        """Read pre-annotations (undecided spans, and scores) from ``path`` in format ``fmt``
        (a key of core's IMPORT_FORMATS); one undo step. A WMT MQM TSV's ``seg_id`` is the line
        number, or is looked up in a segment-id file (``segment_ids``, a segid.txt) or in a
        label column of the comparison (``segment_column``); its source-side spans go on the
        comparison's source lines."""
        c = self.controller
        ws, core = c.workspace, c.comparison_session
        if ws is None or core is None:
            return None
        lines = c.lines()
        try:
            if fmt == "xcomet-jsonl":
                result = import_xcomet(path, lines=lines, system=system)
            elif fmt == "wmt-mqm-tsv":
                ids = self._segment_ids(segment_ids, segment_column)
                result = import_mqm_tsv(
                    path,
                    lines=lines,
                    sources=core.source,
                    segment_ids=ids,
                    typology=ws.typology,
                    skip_other_systems=True,
                )
            elif fmt == "wmt24-esa-jsonl":
                result = import_wmt24_esa(path, lines=lines)
            else:
                raise InputError(f"unknown annotation format {fmt!r}", os.fspath(path))
        except (InputError, AnnotationError) as exc:
            self._error("Cannot import the annotations", str(exc))
            return None
        known = set(ws.systems)
        spans = [s for s in result.spans if s.system in known]
        scores = [s for s in result.scores if s.system in known]
        skipped = len(result.spans) - len(spans)
        commands: list[Any] = [AddSpan(s) for s in spans]
        for score in scores:
            commands.append(
                SetSegmentScore(ws.score(*score.key[:2], annotator=score.key[2]), score)
            )
        if not commands:
            c.say("The file held no annotations of these systems.")
            return result
        if not c.execute(Batch(tuple(commands), label=f"Import {Path(path).name}")):
            return None
        store = self.store_of()
        if result.layout is not None and store is not None:
            try:
                store.set_mqm_tsv_layout(result.layout)  # to export the file back
            except SessionError as exc:
                c.say(f"The TSV file's layout was not kept: {exc}")
        notes = list(result.warnings[:5])
        if len(result.warnings) > 5:
            notes.append(f"… and {len(result.warnings) - 5} more warnings")
        if skipped:
            notes.append(f"{skipped} spans of systems not in this comparison were skipped.")
        summary = f"Imported {len(spans)} errors to review (Enter confirms, Backspace rejects)"
        if scores:
            summary += f" and {len(scores)} segment scores"
        c.notice_sink("Annotations imported", summary + ".\n\n" + "\n".join(notes))
        return result

    def _segment_ids(
        self, path: str | os.PathLike[str] | None, column: str | None
    ) -> list[str] | None:
        """The segment ids of a segid file or of a label column (InputError when bad)."""
        core = self.controller.comparison_session
        if path is not None:
            ids = read_segment_ids(path)
            where = os.fspath(path)
        elif column is not None and core is not None:
            found = {c.name: c for c in core.label_columns()}.get(column)
            if found is None:
                raise InputError(f"there is no label column {column!r}")
            where = f"label column {column!r}"
            ids = check_segment_ids(found.labels, where)
        else:
            return None
        if core is not None and len(ids) != core.n_segments:
            raise InputError(
                f"{len(ids):,} segment ids for a comparison of {core.n_segments:,} segments", where
            )
        return ids

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
            self._error("Cannot export the annotations", str(exc))
            return None
        comparison = core.comparison
        protected = [] if comparison is None else [col.path for col in comparison.columns]
        if store is not None:
            protected.append(str(store.path))
        try:
            write_export(path, text, protected=protected)
        except OSError as exc:
            self._error("Cannot export the annotations", f"{path}: {exc}")
            return None
        missing = self.left_out(fmt, all_statuses=all_statuses)
        c.say(f"Exported the annotations to {path}" + (f". {missing}" if missing else "."))
        return Path(path)

    def agreement_with(self, path: str | os.PathLike[str]) -> AgreementReport | None:
        """Agreement of this workspace's annotations (A) with another annotator's session (B)
        of the same files; the other file is read through a private read-only copy."""
        ws = self.controller.workspace
        if ws is None:
            return None
        try:
            other = SessionStore.open_copy_read_only(path)
        except SessionError as exc:
            self._error("Cannot read the other session", str(exc))
            return None
        try:
            mine = {i.name: i.sha256 for i in self.inputs_of() if i.role == "system"}
            theirs = {i.name: i.sha256 for i in other.inputs() if i.role == "system"}
            differ = sorted(n for n in set(mine) | set(theirs) if mine.get(n) != theirs.get(n))
            if differ:
                self._error(
                    "The sessions annotate different files",
                    f"{path}: the system outputs differ from this comparison's ("
                    + ", ".join(differ)
                    + "). Agreement needs both annotators to have seen the same texts.",
                )
                return None
            return agreement(
                ws.spans(),
                other.spans(),
                ws.scores(),
                other.segment_scores(),
                weights=ws.weights,
            )
        except SessionError as exc:
            self._error("Cannot read the other session", str(exc))
            return None
        finally:
            other.close()
