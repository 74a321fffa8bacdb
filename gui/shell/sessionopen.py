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

import logging
import os
from collections.abc import Callable, Mapping
from concurrent.futures import Future
from contextlib import suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from PySide6.QtCore import QCoreApplication, QEventLoop, QObject, Qt, QTimer, Slot
from PySide6.QtWidgets import QMessageBox, QWidget

from matchlight.core.annotation.model import AnnotationError, ErrorSpan, SegmentScore
from matchlight.core.annotation.workspace import AnnotationQuery
from matchlight.core.io.specs import ComparisonSpecs
from matchlight.core.scoring.config import ScoringConfig
from matchlight.core.session.comparison import ComparisonSession
from matchlight.core.session.document import SessionDocument, read_document
from matchlight.core.session.imported import LabelImport, ScoreImport
from matchlight.core.session.inputs import InputCheck
from matchlight.core.session.store import SUFFIX, ReanchorReport, SessionError, SessionStore
from matchlight.gui.annotate.install import Annotations
from matchlight.gui.workers.loader import BackgroundCall, future_in_thread

__all__ = [
    "Opening",
    "RestoreHost",
    "SessionOpener",
    "missing_inputs",
    "read_for_opening",
    "read_records_in_background",
    "restore",
]

log = logging.getLogger(__name__)

Records = tuple[list[ErrorSpan], list[SegmentScore]]


@dataclass
class Opening:
    """A session being opened: its store, what it holds, and where its inputs were found."""

    store: SessionStore
    document: SessionDocument
    checks: list[InputCheck]
    specs: ComparisonSpecs
    imports: list[ScoreImport | LabelImport] = field(default_factory=list)
    # Imported files that changed or went missing since (their stored values are used).
    imports_changed: list[str] = field(default_factory=list)
    # The file to list under Recent sessions once it is open (None: a read-only copy).
    remember: Path | None = None
    # The spans and scores, read in a thread of their own (None: read them when needed).
    records: Future[Records] | None = None
    # Parts of the document that could not be used (the defaults are used instead).
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
        QCoreApplication.translate("sessionopen", "• {0} ({1}): not at ").format(
            c.input.name, c.input.role
        )
        + " nor ".join(c.input.candidates(folder))
        + (f" ({c.problem})" if c.problem else "")
        for c in missing
    )
    return QCoreApplication.translate(
        "sessionopen",
        "{0}: these input files are missing:\n{names}\n\nThe session was not changed; put "
        "the files back (next to the session file, or where they were) and open it again.",
    ).format(opening.store.origin, names=names)


def read_records_in_background(path: Path) -> Future[Records]:
    """Read a session's spans and scores in a daemon thread, through a read-only connection of
    its own (an SQLite connection stays in its thread; the WAL lets both read at once)."""

    def read() -> Records:
        with SessionStore.open(path, read_only=True) as store:
            return store.spans(), store.segment_scores()

    return future_in_thread(read, name="matchlight-session-read")


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


def opening_notes(opening: Opening, report: ReanchorReport | None) -> list[str]:
    """What the user is told about a session just opened: changed inputs and imports, spans
    moved or lost, damage, a read-only copy."""
    notes: list[str] = list(opening.problems)
    changed = opening.changed
    if changed:
        notes.append(
            QCoreApplication.translate(
                "sessionopen", "These input files changed since the session was saved: "
            )
            + "; ".join(changed)
            + "."
        )
    if opening.imports_changed:
        notes.append(
            QCoreApplication.translate(
                "sessionopen",
                "These imported files changed since the session was saved; the values saved in the "
                "session are used: ",
            )
            + "; ".join(opening.imports_changed)
            + "."
        )
    if report is not None and (report.reattached or report.flagged or changed):
        notes.append(
            QCoreApplication.translate(
                "sessionopen",
                "Of the {0} errors, {1} are where they were, {2} were re-attached where "
                "their text moved, and {3} could not be found and are flagged (listed in "
                "the Annotation panel; fix or delete them).",
            ).format(
                report.kept + len(report.reattached) + len(report.flagged),
                report.kept,
                len(report.reattached),
                len(report.flagged),
            )
        )
    problems = opening.store.problems
    if problems:
        notes.append(
            QCoreApplication.translate(
                "sessionopen", "The file is damaged; what could be read is shown: "
            )
            + "; ".join(problems)
        )
    if opening.store.read_only:
        notes.append(
            QCoreApplication.translate(
                "sessionopen",
                "This is a read-only copy: use File ▸ Save session as… to keep working on it.",
            )
        )
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
            problems.append(
                QCoreApplication.translate(
                    "sessionopen", "The imported column {0!r} was not restored: {exc}"
                ).format(record.name, exc=exc)
            )
    if document.selection is not None:
        try:
            window.session.set_selection(document.selection)
        except ValueError as exc:
            problems.append(
                QCoreApplication.translate(
                    "sessionopen", "The saved row selection could not be applied: {exc}"
                ).format(exc=exc)
            )
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


class SessionOpener(QObject):
    """Opening a session file in the window: its file read in a worker, then its comparison
    opened, then (by :class:`~matchlight.gui.shell.sessionfiles.SessionFiles`, which takes the
    :attr:`pending` opening) its work put back. A file that cannot be opened is refused with a
    message, offering a read-only copy where that helps."""

    def __init__(self, window: Any, *, flush: Callable[[], None], parent: QObject) -> None:
        super().__init__(parent)
        self.window = window
        self._flush = flush
        # The opening read, waiting for its comparison to be shown.
        self.pending: Opening | None = None
        self._call: BackgroundCall | None = None
        self.refusal_box: QMessageBox | None = None
        window.open_failed.connect(self._on_open_failed)
        window.reading_changed.connect(self._on_reading_changed)

    def take_pending(self) -> Opening | None:
        """The opening whose comparison was just shown (None: a comparison opened otherwise)."""
        pending, self.pending = self.pending, None
        return pending

    def open(self, path: str | os.PathLike[str], *, read_only_copy: bool = False) -> bool:
        """Open a session file: its comparison, settings, selection, layout and annotations.

        The file is read in a worker (True: reading started); the comparison follows. A file
        that cannot be opened for writing (damaged, read-only, open elsewhere) is refused with
        a message that offers a read-only copy; the file itself is never changed.
        """
        target = Path(path)
        if target.suffix != SUFFIX and not target.exists():
            self.window.report_error(
                QCoreApplication.translate("SessionFiles", "Cannot open the session"),
                QCoreApplication.translate("SessionFiles", "{target}: no such session file").format(
                    target=target
                ),
            )
            return False
        if self._call is not None:
            self._call.cancel()
        call = BackgroundCall(
            lambda cancel: read_for_opening(target, read_only_copy=read_only_copy),
            name="matchlight-session-open",
            parent=self,
        )
        call.finished.connect(self._on_read)
        call.failed.connect(lambda error: self._on_failed(target, error))
        self._call = call
        call.start()
        return True

    def is_reading_file(self) -> bool:
        """Whether a session file is being read (before its comparison is opened)."""
        return self._call is not None

    def is_opening(self) -> bool:
        """Whether a session is being opened: its file read, or its comparison."""
        return self._call is not None or self.pending is not None

    @Slot(object)
    def _on_read(self, value: object) -> None:
        self._call = None
        if not isinstance(value, Opening):
            raise TypeError(f"the session reader returned {type(value).__name__}")
        missing = missing_inputs(value)
        if missing is not None:
            value.store.close()
            self.window.report_error(
                QCoreApplication.translate("SessionFiles", "Cannot open the session"), missing
            )
            return
        if value.remember is not None:
            value.records = read_records_in_background(value.store.path)
        self._flush()
        self.drop_pending()
        self.pending = value
        try:
            started = self.window.open_specs(value.specs)
        except Exception:
            self.drop_pending()
            raise
        if not started:
            self.drop_pending()

    def _on_failed(self, target: Path, error: object) -> None:
        self._call = None
        if not isinstance(error, SessionError):
            log.error("opening a session failed", exc_info=error)  # type: ignore[arg-type]
        exc = error_of(error)  # type: ignore[arg-type]
        message = str(exc) + QCoreApplication.translate(
            "SessionFiles", "\n\nThe file was not changed."
        )
        if exc.copy_helps:
            self._offer_read_only_copy(target, message)
        else:
            self.window.report_error(
                QCoreApplication.translate("SessionFiles", "Cannot open the session"), message
            )

    def _offer_read_only_copy(self, path: Path, message: str) -> None:
        parent = self.window if isinstance(self.window, QWidget) else None
        box = QMessageBox(
            QMessageBox.Icon.Warning,
            QCoreApplication.translate("SessionFiles", "Cannot open the session"),
            message
            + QCoreApplication.translate(
                "SessionFiles",
                "\n\nYou can open a read-only copy of it to see (and save elsewhere) "
                "what can be read.",
            ),
            QMessageBox.StandardButton.Cancel,
            parent,
        )
        box.setObjectName("session-refused")
        copy_button = box.addButton(
            QCoreApplication.translate("SessionFiles", "Open a read-only copy"),
            QMessageBox.ButtonRole.AcceptRole,
        )
        box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)

        def on_clicked(button: Any) -> None:
            if button is copy_button:
                self.open(path, read_only_copy=True)

        box.buttonClicked.connect(on_clicked)
        self.refusal_box = box
        box.open()

    def drop_pending(self) -> None:
        pending, self.pending = self.pending, None
        if pending is not None:
            pending.store.close()

    @Slot(str)
    def _on_open_failed(self, _message: str) -> None:
        self.drop_pending()

    @Slot(bool)
    def _on_reading_changed(self, reading: bool) -> None:
        if not reading and self.pending is not None:
            # A successful read shows the comparison right after this; a cancelled one never.
            QTimer.singleShot(0, self, self._drop_unless_opening)

    @Slot()
    def _drop_unless_opening(self) -> None:
        if self.pending is None or self.window.is_reading():
            return
        if self.window.is_opening():
            # A big comparison's rest was appended to its first rows: it is announced as
            # opened a few turns of the event loop later.
            QTimer.singleShot(0, self, self._drop_unless_opening)
            return
        self.drop_pending()
