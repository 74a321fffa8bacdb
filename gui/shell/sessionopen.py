"""Opening a session file: what is read off the GUI thread, and what is put back afterwards.

:func:`read_for_opening` runs in a worker: it opens the store (for writing, or a private
read-only copy), reads the document (:mod:`core.session.document`) and the imported columns,
and looks for every input (relative to the session file first, hashing each one it finds:
the slow part, and the part that used to hang on a FIFO). The spans are read meanwhile in a thread
of their own (:func:`read_records_in_background`) while the comparison's files are read. Once
the comparison is shown, :func:`restore` puts the settings, baseline, imported columns,
selection and layout back, in that order (a selection may filter on an imported column).
"""

from __future__ import annotations

import threading
from collections.abc import Mapping, Sequence
from concurrent.futures import Future
from contextlib import suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from PySide6.QtCore import QEventLoop, Qt, QTimer

from matchlight.core.annotation.anchoring import AnchorState, reanchor_all
from matchlight.core.annotation.model import AnnotationError, ErrorSpan, SegmentScore
from matchlight.core.annotation.workspace import AnnotationQuery
from matchlight.core.io.specs import ComparisonSpecs
from matchlight.core.scoring.config import ScoringConfig
from matchlight.core.session.comparison import ComparisonSession
from matchlight.core.session.document import SessionDocument, read_document
from matchlight.core.session.imported import LabelImport, ScoreImport
from matchlight.core.session.inputs import InputCheck
from matchlight.core.session.store import ReanchorReport, SessionError, SessionStore
from matchlight.gui.annotate.install import Annotations

__all__ = [
    "Opening",
    "RestoreHost",
    "missing_inputs",
    "read_for_opening",
    "read_records_in_background",
    "reanchor_records",
    "restore",
]

Records = tuple[list[ErrorSpan], list[SegmentScore]]


@dataclass
class Opening:
    """A session being opened: its store, what it holds, and where its inputs were found."""

    store: SessionStore
    document: SessionDocument
    checks: list[InputCheck]
    specs: ComparisonSpecs
    imports: list[ScoreImport | LabelImport] = field(default_factory=list)
    #: Imported files that changed or went missing since (their stored values are used).
    imports_changed: list[str] = field(default_factory=list)
    #: The file to list under Recent sessions once it is open (None: a read-only copy).
    remember: Path | None = None
    #: The spans and scores, read in a thread of their own (None: read them when needed).
    records: Future[Records] | None = None
    #: Parts of the document that could not be used (the defaults are used instead).
    problems: list[str] = field(default_factory=list)

    @property
    def changed(self) -> list[str]:
        return [
            f"{Path(c.path).name} ({c.input.role} {c.input.name})" for c in self.checks if c.changed
        ]


def read_for_opening(path: Path, *, read_only_copy: bool) -> Opening:
    """Open ``path`` and read what opening it needs (in a worker thread; SessionError names the
    file and the problem, and nothing is left open)."""
    store = SessionStore.open_copy_read_only(path) if read_only_copy else SessionStore.open(path)
    problems: list[str] = []
    try:
        document = read_document(store, problems)
        checks = store.check_inputs()
        imports = store.imports()
        imports_changed = [
            f"{f.path} ({record.name}, {status})"
            for record in imports
            for f in record.files
            if (status := f.status()) != "same"
        ]
    except BaseException:
        store.close()
        raise
    return Opening(
        store,
        document,
        checks,
        document.found_specs(checks),
        imports,
        imports_changed,
        None if read_only_copy else path,
        problems=problems,
    )


def missing_inputs(opening: Opening) -> str | None:
    """The message for inputs found nowhere (naming where they were looked for), or None."""
    missing = [c for c in opening.checks if c.status == "missing"]
    if not missing:
        return None
    folder = opening.store.origin.parent
    names = "\n".join(
        f"• {c.input.name} ({c.input.role}): not at "
        + " nor ".join(c.input.candidates(folder))
        + (f" ({c.problem})" if c.problem else "")
        for c in missing
    )
    return (
        f"{opening.store.origin}: these input files are missing:\n{names}\n\nThe session was not "
        "changed; put the files back (next to the session file, or where they were) and open it "
        "again."
    )


def read_records_in_background(path: Path) -> Future[Records]:
    """Read a session's spans and scores in a daemon thread, through a read-only connection of
    its own (an SQLite connection stays in its thread; the WAL lets both read at once)."""
    future: Future[Records] = Future()

    def read() -> None:
        try:
            with SessionStore.open(path, read_only=True) as store:
                future.set_result((store.spans(), store.segment_scores()))
        except BaseException as exc:  # handed to the GUI thread
            future.set_exception(exc)

    threading.Thread(target=read, name="matchlight-session-read", daemon=True).start()
    return future


def records_of(opening: Opening) -> Records:
    """The session's spans and scores: read in their thread while the files were read, waited
    for here without taking user input, or read now."""
    future = opening.records
    if future is None:
        return opening.store.spans(), opening.store.segment_scores()
    if not future.done():
        loop = QEventLoop()
        timer = QTimer()
        timer.setInterval(10)
        timer.timeout.connect(lambda: loop.quit() if future.done() else None)
        timer.start()
        loop.exec(QEventLoop.ProcessEventsFlag.ExcludeUserInputEvents)
        timer.stop()
    return future.result()


def reanchor_records(
    store: SessionStore, spans: list[ErrorSpan], lines: Mapping[str, Sequence[str]]
) -> tuple[list[ErrorSpan], ReanchorReport]:
    """Where the spans are on the changed lines; the moved ones are written back."""
    results = reanchor_all(spans, lines)
    moved = tuple(r.span for r in results if r.state is AnchorState.REATTACHED)
    flagged = tuple(r.span for r in results if r.state is AnchorState.FLAGGED)
    kept = sum(1 for r in results if r.state is AnchorState.KEPT)
    if moved and not store.read_only:
        with store.batch():
            for span in moved:
                store.update_span(span)
    return [r.span for r in results], ReanchorReport(kept, moved, flagged)


def opening_notes(opening: Opening, report: ReanchorReport | None) -> list[str]:
    """What the user is told about a session just opened: changed inputs and imports, spans
    moved or lost, damage, a read-only copy."""
    notes: list[str] = list(opening.problems)
    changed = opening.changed
    if changed:
        notes.append(
            "These input files changed since the session was saved: " + "; ".join(changed) + "."
        )
    if opening.imports_changed:
        notes.append(
            "These imported files changed since the session was saved; the values saved in the "
            "session are used: " + "; ".join(opening.imports_changed) + "."
        )
    if report is not None and (report.reattached or report.flagged or changed):
        notes.append(
            f"Of the {report.kept + len(report.reattached) + len(report.flagged)} errors, "
            f"{report.kept} are where they were, {len(report.reattached)} were re-attached "
            f"where their text moved, and {len(report.flagged)} could not be found and are "
            "flagged (listed in the Annotation panel; fix or delete them)."
        )
    problems = opening.store.problems
    if problems:
        notes.append("The file is damaged; what could be read is shown: " + "; ".join(problems))
    if opening.store.read_only:
        notes.append("This is a read-only copy: use File ▸ Save session as… to keep working on it.")
    return notes


class RestoreHost(Protocol):
    """What :func:`restore` uses of the main window."""

    highlight_actions: dict[str, Any]
    table_view: Any
    baseline_combo: Any

    @property
    def model(self) -> Any: ...

    @property
    def proxy(self) -> Any: ...

    @property
    def session(self) -> Any: ...

    @property
    def config(self) -> ScoringConfig: ...

    def apply_config(self, config: ScoringConfig) -> None: ...


def restore(
    window: RestoreHost,
    annotations: Annotations,
    core: ComparisonSession,
    opening: Opening,
) -> list[str]:
    """Put the session's settings, baseline, imported columns, selection and layout back (the
    comparison is shown); returns what could not be restored, for the user."""
    document = opening.document
    problems: list[str] = []
    if document.config is not None and document.config != window.config:
        window.apply_config(document.config)
    if document.baseline is not None:
        index = core.system_names.index(document.baseline)
        if index != core.baseline:
            window.baseline_combo.setCurrentIndex(index)
    for record in opening.imports:  # before the selection: it may filter on them
        try:
            if isinstance(record, ScoreImport):
                core.add_imported(record)
            else:
                core.set_labels(record)
        except ValueError as exc:
            problems.append(f"The imported column {record.name!r} was not restored: {exc}")
    if document.selection is not None:
        try:
            window.session.set_selection(document.selection)
        except ValueError as exc:
            problems.append(f"The saved row selection could not be applied: {exc}")
    _restore_layout(window, annotations, core, document.layout)
    return problems


def _restore_layout(
    window: RestoreHost,
    annotations: Annotations,
    core: ComparisonSession,
    layout: Mapping[str, Any],
) -> None:
    core.layout.update({k: v for k, v in layout.items() if k != "hidden_columns"})
    mode = layout.get("highlight_mode")
    action = window.highlight_actions.get(mode) if isinstance(mode, str) else None
    if action is not None:
        action.trigger()
    system = layout.get("annotate_system")
    if isinstance(system, str) and system in core.system_names:
        annotations.controller.set_system(core.system_names.index(system))
    query = layout.get("annotation_filter")
    if isinstance(query, Mapping):
        with suppress(AnnotationError, ValueError):  # an unreadable one is simply not restored
            annotations.table.restore_filter(AnnotationQuery.from_dict(query))
    hidden = layout.get("hidden_columns")
    model = window.model
    if isinstance(hidden, list) and model is not None:
        titles = {str(t) for t in hidden}
        for c in range(model.columnCount()):
            title = str(model.headerData(c, Qt.Orientation.Horizontal))
            window.table_view.setColumnHidden(c, title in titles)
    segment = layout.get("current_segment")
    if isinstance(segment, int) and 0 <= segment < core.n_segments:
        proxy = window.proxy
        row = proxy.proxy_row(segment) if proxy is not None else -1
        if row >= 0:
            window.table_view.setCurrentIndex(proxy.index(row, 0))
            window.table_view.scrollTo(proxy.index(row, 0))


def error_of(exc: BaseException) -> SessionError:
    """Any failure of opening as a SessionError (a bug's details go to the log elsewhere)."""
    return exc if isinstance(exc, SessionError) else SessionError(f"{exc} ({type(exc).__name__})")
