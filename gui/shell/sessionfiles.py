"""The session file of the open comparison: made on the first edit, kept in step, never lost.

One :class:`SessionFiles` lives with the main window. Work starts untitled: the first edit
creates a session in the recovery folder (its inputs hashed in a worker), so a crash loses no
edit the app reported; Save as moves it to a name of the user's choosing. Every edit is one
committed transaction (the store's); the comparison's settings, baseline, selection, layout and
imported columns follow a moment after they change, as one document (:mod:`core.session.
document`).

A session file is written only while it is ours (:mod:`core.session.ownership`). It is checked
before every commit and every two seconds (:mod:`.sessionwatch`): once deleted, moved, replaced
or overwritten by another program, nothing more is written into it, the edits stay in memory,
the user is told and offered Save as, which then writes everything from memory. A full disk
keeps the edits too: they are written again every few seconds until there is room. A session
that cannot be written (a read-only file or mount, one open in another window) is offered as a
read-only copy.

Opening a session reads it in a worker (:mod:`.sessionopen`), then opens its comparison through
the window and puts its state back once the comparison is shown.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from concurrent.futures import Future
from pathlib import Path
from typing import Any

from PySide6.QtCore import QCoreApplication, QObject, QSettings, Qt, QTimer, Signal, Slot
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QLabel, QMenu, QMessageBox

from matchlight.core.annotation.workspace import AnnotationWorkspace
from matchlight.core.io.specs import specs_of_comparison
from matchlight.core.session.comparison import ComparisonSession
from matchlight.core.session.document import (
    AnnotationSettings,
    SessionDocument,
    inputs_for,
    save_document,
)
from matchlight.core.session.files import remove_database
from matchlight.core.session.imported import LabelImport, ScoreImport
from matchlight.core.session.inputs import SessionInput
from matchlight.core.session.locations import is_in_recovery_dir
from matchlight.core.session.recovery import (
    RecoverableSession,
    create_untitled,
    discard_recoverable,
    list_recoverable,
)
from matchlight.core.session.store import SUFFIX, SessionError, SessionStore
from matchlight.core.session.writer import write_session
from matchlight.gui.annotate.dialogs import RecoveryDialog
from matchlight.gui.annotate.install import Annotations
from matchlight.gui.shell.recent import RecentSessions
from matchlight.gui.shell.sessionopen import (
    Opening,
    SessionOpener,
    opening_notes,
    records_of,
    restore,
)
from matchlight.gui.shell.sessionwatch import SessionWatch
from matchlight.gui.workers.loader import call_in_background, future_in_thread

__all__ = ["SessionFiles"]
# How long after the comparison's state changed it is written to the session (ms).
STATE_DELAY_MS = 400

# ``notice(title, message)``: tells the user something that is not an error.
NoticeSink = Callable[[str, str], None]
# ``offer(title, message)``: tells the user of work at risk and offers Save as.
SaveOffer = Callable[[str, str], None]


class SessionFiles(QObject):
    """The session file behind the window's annotations.

    Signals:
        session_changed(): a session file was attached, saved elsewhere, closed, lost, or its
            unsaved edits changed.
    """

    session_changed = Signal()

    def __init__(self, window: Any, annotations: Annotations) -> None:
        super().__init__(window)
        self.window = window
        self.annotations = annotations
        self.controller = annotations.controller
        self.settings: QSettings = window.settings
        self.notice_sink: NoticeSink = annotations.controller.notice_sink
        # Tells the user that work is at risk and offers Save as; tests replace it.
        self.watch = SessionWatch(self, self)
        self.offer_save_as: SaveOffer = self.watch.offer_save_as
        self._store: SessionStore | None = None
        self._read_only = False
        self._core: ComparisonSession | None = None
        # The open comparison's inputs as a new session records them (their content hashes),
        # computed in a thread from the open on, so that the first edit does not wait for it.
        self._hashed: Future[tuple[SessionInput, ...]] | None = None
        self._unsubscribe: list[Callable[[], None]] = []
        self._saved_state: str | None = None
        # The imported columns written to ``_imports_store``, by (kind, key).
        self._saved_imports: dict[tuple[str, str], ScoreImport | LabelImport] = {}
        self._imports_store: SessionStore | None = None
        self.opener = SessionOpener(window, flush=self.flush, parent=self)
        self.recent = RecentSessions(self.settings, window)
        self.recent.open_requested.connect(self.open_session)

        self.controller.before_edit = self.ensure_store
        self.controller.editable = lambda: not self._read_only
        self.controller.settings_changed.connect(self._on_settings_changed)
        annotations.transfer.store_of = lambda: self._store
        annotations.transfer.inputs_reader = self.inputs_reader
        annotations.ui.folder = self._folder

        self._state_timer = QTimer(self)
        self._state_timer.setSingleShot(True)
        self._state_timer.setInterval(STATE_DELAY_MS)
        self._state_timer.timeout.connect(self._save_state)
        window.comparison_opened.connect(self._on_comparison_opened)

        self.status_label = QLabel()
        self.status_label.setObjectName("session-status")
        window.statusBar().addPermanentWidget(self.status_label)
        self.session_changed.connect(self._on_session_changed)
        self._on_session_changed()

    # -- reading -------------------------------------------------------------------------------

    @property
    def store(self) -> SessionStore | None:
        return self._store

    @property
    def session_path(self) -> Path | None:
        return None if self._store is None else self._store.path

    @property
    def read_only(self) -> bool:
        return self._read_only

    def is_untitled(self) -> bool:
        """No file name yet: nothing saved, or autosaved in the recovery folder only."""
        return self._store is None or is_in_recovery_dir(self._store.path)

    @property
    def unsaved(self) -> int:
        """Edits held in memory that the session file does not have (lost file, full disk)."""
        ws = self.controller.workspace
        return 0 if ws is None else ws.unsaved

    def _folder(self) -> Path:
        store = self._store
        return Path.home() if store is None or self.is_untitled() else store.origin.parent

    def status_text(self) -> str:
        """One line for the status bar and the annotation panel."""
        store, ws = self._store, self.controller.workspace
        if ws is None:
            return ""
        if store is None:
            return QCoreApplication.translate(
                "SessionFiles", "Session: not saved yet (the first edit starts one)"
            )
        if self._read_only:
            return QCoreApplication.translate(
                "SessionFiles", "Session: read-only copy of {0} — Save session as… to edit"
            ).format(store.origin.name)
        lost = store.lost
        if lost is not None:
            return QCoreApplication.translate(
                "SessionFiles", "Session: NOT SAVED ({lost}) — Save session as… to keep {0} errors"
            ).format(len(ws), lost=lost)
        if ws.unsaved:
            return QCoreApplication.translate(
                "SessionFiles", "Session: {0} edits not saved yet ({1}); retrying"
            ).format(ws.unsaved, ws.sink_error)
        if self.is_untitled():
            return QCoreApplication.translate("SessionFiles", "Session: untitled (autosaved)")
        return QCoreApplication.translate("SessionFiles", "Session: {0}").format(store.path.name)

    @Slot()
    def _on_session_changed(self) -> None:
        text = self.status_text()
        self.status_label.setText(text)
        store = self._store
        self.status_label.setToolTip("" if store is None else str(store.origin))
        panel = self.annotations.ui.panel
        panel.set_session_text(text)
        self.annotations.actions.update()
        if hasattr(self, "save_session_action"):
            self.save_session_action.setEnabled(self._core is not None)

    # -- File menu -----------------------------------------------------------------------------

    def add_file_actions(self, menu: QMenu, *, before: QAction | None = None) -> None:
        """Open session, Recent sessions, Save session as (before ``before``, else at the end)."""
        parent = self.window
        self.open_session_action = QAction(
            QCoreApplication.translate("SessionFiles", "Open &session…"), parent
        )
        self.open_session_action.setShortcut(QKeySequence("Ctrl+Shift+O"))
        self.open_session_action.setStatusTip(
            QCoreApplication.translate("SessionFiles", "Open a Matchlight session (.matchlight)")
        )
        self.open_session_action.triggered.connect(self._on_open_session_triggered)
        self.save_session_action = QAction(
            QCoreApplication.translate("SessionFiles", "Save session &as…"), parent
        )
        self.save_session_action.setShortcut(QKeySequence("Ctrl+Shift+S"))
        self.save_session_action.setStatusTip(
            QCoreApplication.translate(
                "SessionFiles",
                "Save the annotations, settings and selection under a name of your choosing",
            )
        )
        self.save_session_action.triggered.connect(self._on_save_session_triggered)
        self.recent_sessions_menu = self.recent.menu
        if before is not None and before in menu.actions():
            menu.insertAction(before, self.open_session_action)
            menu.insertMenu(before, self.recent_sessions_menu)
            menu.insertAction(before, self.save_session_action)
            menu.insertSeparator(before)
        else:
            menu.addAction(self.open_session_action)
            menu.addMenu(self.recent_sessions_menu)
            menu.addAction(self.save_session_action)
        self._on_session_changed()

    # -- the comparison's lifecycle ------------------------------------------------------------

    @Slot()
    def _on_comparison_opened(self) -> None:
        model = self.window.session
        if model is None:
            return
        core: ComparisonSession = model.session
        pending = self.opener.take_pending()
        if pending is not None and core.specs != pending.specs:
            pending.store.close()  # another comparison was opened meanwhile
            pending = None
        self._detach()
        self._core = core
        self._hashed = self._hash_in_background(core) if pending is None else None
        self._saved_state = None
        self._saved_imports, self._imports_store = {}, None
        controller = self.controller
        flagged: tuple[str, ...] = ()
        if pending is None:
            ws = AnnotationWorkspace(
                systems=core.system_names,
                n_segments=core.n_segments,
                annotator=controller.annotator,
            )
            self._store, self._read_only = None, False
        else:
            ws, flagged = self._workspace_of(pending, core)
        self._unsubscribe.append(ws.subscribe(self.watch.on_workspace_changed))
        self._unsubscribe.append(core.subscribe(self._on_core_event))
        controller.restoring = True
        try:
            controller.attach(core, ws, flagged=flagged)
            if pending is not None:
                for problem in restore(self.window, self.annotations, core, pending):
                    controller.say(problem)
        finally:
            controller.restoring = False
        if pending is not None:
            self._saved_imports = self._current_imports()
            self._imports_store = pending.store
            self._remember(pending.remember)
        self.watch.start()
        self.session_changed.emit()

    def _workspace_of(
        self, pending: Opening, core: ComparisonSession
    ) -> tuple[AnnotationWorkspace, tuple[str, ...]]:
        store, document = pending.store, pending.document
        try:
            spans, scores = records_of(pending)
        except SessionError as exc:
            self.window.report_error(
                QCoreApplication.translate("SessionFiles", "Cannot read the annotations"), str(exc)
            )
            spans, scores = [], []
        report = None
        if pending.changed:
            lines = {name: core.text.systems[s] for s, name in enumerate(core.system_names)}
            spans, report = store.reanchor_spans(spans, lines, sources=core.source)
        self._store, self._read_only = store, store.read_only
        note = document.annotation
        if note.annotator:
            self.controller.set_annotator(note.annotator, remember=False)
        ws = AnnotationWorkspace(
            systems=core.system_names,
            n_segments=core.n_segments,
            spans=spans,
            scores=scores,
            mode=note.mode,
            typology=note.typology,
            weights=note.weights,
            annotator=self.controller.annotator,
            sink=None if store.read_only else store,
        )
        notes = opening_notes(pending, report)
        if notes:
            self.notice_sink(
                QCoreApplication.translate("SessionFiles", "Session opened"),
                "\n\n".join(notes),
            )
        return ws, tuple(s.id for s in (report.flagged if report is not None else ()))

    def _detach(self) -> None:
        """Let go of the previous comparison: save its state, close its session file."""
        if self._state_timer.isActive():
            self._state_timer.stop()
            self._save_state()
        for unsubscribe in self._unsubscribe:
            unsubscribe()
        self._unsubscribe = []
        self._release_store()
        self.controller.detach()
        self._core = None
        self._hashed = None
        self.watch.forget()

    def _release_store(self) -> None:
        """Close the session file; an untitled one with nothing in it (every edit undone) is
        deleted rather than offered for recovery next time."""
        store, ws = self._store, self.controller.workspace
        self._store = None
        if store is None:
            return
        empty = ws is not None and len(ws) == 0 and not ws.scores()
        untitled = not store.read_only and is_in_recovery_dir(store.path) and store.lost is None
        store.close()
        if empty and untitled:
            self.discard(store.path)

    # -- the first edit ------------------------------------------------------------------------

    def ensure_store(self) -> bool:
        """Create the untitled session (in the recovery folder) before the first edit."""
        if self._read_only:
            self.controller.say(
                QCoreApplication.translate(
                    "SessionFiles",
                    "This is a read-only copy of a session: use Save session as… to edit it.",
                )
            )
            return False
        if self._store is not None:
            return True
        ws, core = self.controller.workspace, self._core
        if ws is None or core is None:
            return False
        try:
            inputs = call_in_background(self._hashed_inputs, name="matchlight-hash")
            store = create_untitled(self.document(inputs))
            if len(ws) or ws.scores():
                store.add_many(ws.spans(), ws.scores())
        except (SessionError, OSError) as exc:
            self.window.report_error(
                QCoreApplication.translate("SessionFiles", "Cannot keep the annotations"),
                QCoreApplication.translate(
                    "SessionFiles",
                    "{exc}\n\nThe annotation was not made: Matchlight saves every edit at once.",
                ).format(exc=exc),
            )
            return False
        self._store = store
        self._saved_state = self._state_text(store)
        ws.set_sink(store)
        self.session_changed.emit()
        return True

    def _hash_inputs(self) -> tuple[SessionInput, ...]:
        core = self._core
        if core is None or core.comparison is None:
            raise SessionError("no comparison is open")
        specs = core.specs or specs_of_comparison(core.comparison)
        return inputs_for(specs, core.reference_names, core.system_names)

    @staticmethod
    def _hash_in_background(core: ComparisonSession) -> Future[tuple[SessionInput, ...]] | None:
        """Start hashing ``core``'s inputs in a daemon thread (the files as they are when they
        are opened, which is when they were read); None when there is nothing to hash."""
        if core.specs is None and core.comparison is None:
            return None
        specs = core.specs or specs_of_comparison(core.comparison)
        names = (core.reference_names, core.system_names)
        return future_in_thread(lambda: inputs_for(specs, *names), name="matchlight-hash")

    def _hashed_inputs(self) -> tuple[SessionInput, ...]:
        """The inputs hashed since the open (waited for in this thread), else hashed now."""
        future = self._hashed
        if future is not None:
            try:
                return future.result()
            except (SessionError, OSError):
                pass  # hashed again below: the error the user sees is today's
        return self._hash_inputs()

    def inputs_reader(self) -> Callable[[], tuple[SessionInput, ...]]:
        """A call, for a worker, that gives the inputs as the session records them (hashing the
        files when there is no session yet)."""
        if self._store is not None:
            recorded = self._store.inputs()
            return lambda: recorded
        return self._hashed_inputs

    def recorded_inputs(self) -> tuple[SessionInput, ...]:
        """The inputs as the session records them (hashed now when there is no session yet)."""
        if self._store is not None:
            return self._store.inputs()
        return call_in_background(self._hashed_inputs, name="matchlight-hash")

    # -- keeping the file in step --------------------------------------------------------------

    def document(self, inputs: tuple[SessionInput, ...] | None = None) -> SessionDocument:
        """The open comparison's session document as it is now."""
        core, ws = self._core, self.controller.workspace
        if core is None:
            raise SessionError("no comparison is open")
        if inputs is None:
            inputs = self._store.inputs() if self._store is not None else self.recorded_inputs()
        note = AnnotationSettings(
            ws.mode if ws is not None else AnnotationSettings().mode,
            ws.typology if ws is not None else AnnotationSettings().typology,
            ws.weights if ws is not None else AnnotationSettings().weights,
            self.controller.annotator,
        )
        return SessionDocument(
            inputs=inputs,
            config=core.config,
            reference_names=core.reference_names,
            baseline=core.system_names[core.baseline],
            selection=core.selection,
            layout=self._layout(core),
            annotation=note,
        )

    def _layout(self, core: ComparisonSession) -> dict[str, Any]:
        layout = dict(core.layout)
        layout["highlight_mode"] = self.window.highlight_mode
        names = core.system_names
        if names:
            layout["annotate_system"] = names[self.controller.system]
        model, view = self.window.model, self.window.table_view
        if model is not None:
            layout["hidden_columns"] = [
                str(model.headerData(c, Qt.Orientation.Horizontal))
                for c in range(model.columnCount())
                if view.isColumnHidden(c)
            ]
        return layout

    def _state_text(self, store: SessionStore) -> str:
        document = self.document(store.inputs())
        return json.dumps(document.settings_json(), sort_keys=True) + json.dumps(
            [
                document.baseline,
                None if document.selection is None else document.selection.to_dict(),
                document.layout,
                document.annotation.mode.value,
                document.annotation.typology.to_json(),
                document.annotation.weights.to_json(),
                document.annotation.annotator,
            ],
            sort_keys=True,
            default=str,
        )

    def _on_core_event(self, event: str, _payload: object) -> None:
        if event == "scores" or self.controller.restoring:
            return
        self._state_timer.start()  # written when it settles, and only if it changed

    @Slot()
    def _on_settings_changed(self) -> None:
        """The mode, typology, weights or annotator changed: written at once (the user chose
        them; the next edit depends on them)."""
        if not self.controller.restoring:
            self.flush()

    @Slot()
    def _save_state(self) -> None:
        store = self._store
        if store is None or self._read_only or self._core is None or store.lost is not None:
            return
        self._save_imports(store)
        text = self._state_text(store)
        if text == self._saved_state:
            return
        try:
            save_document(store, self.document(store.inputs()))
        except SessionError as exc:
            self.watch.tell(exc)
            return
        self._saved_state = text

    def _current_imports(self) -> dict[tuple[str, str], ScoreImport | LabelImport]:
        core = self._core
        if core is None:
            return {}
        current: dict[tuple[str, str], ScoreImport | LabelImport] = {
            ("scores", r.key): r for r in core.imported_scores()
        }
        current.update({("labels", r.key): r for r in core.label_columns()})
        return current

    def _save_imports(self, store: SessionStore) -> None:
        """Write the imported columns that are new or replaced, forget the removed ones."""
        current = self._current_imports()
        saved = self._saved_imports if store is self._imports_store else {}
        if current.keys() == saved.keys() and all(saved[k] is r for k, r in current.items()):
            return
        try:
            with store.batch():
                for key, record in current.items():
                    if saved.get(key) is not record:
                        store.save_import(record)
                for kind, name in saved.keys() - current.keys():
                    store.remove_import(kind, name)
        except SessionError as exc:
            self.watch.tell(exc)
            return
        self._saved_imports, self._imports_store = current, store

    def flush(self) -> None:
        """Write the comparison's state now (before quitting or switching files)."""
        self._state_timer.stop()
        self._save_state()

    # -- opening (gui/shell/sessionopen.py's SessionOpener) --------------------------------

    def open_session(self, path: str | os.PathLike[str], *, read_only_copy: bool = False) -> bool:
        """Open a session file: see :meth:`SessionOpener.open`."""
        return self.opener.open(path, read_only_copy=read_only_copy)

    def is_reading_file(self) -> bool:
        """Whether a session file is being read (before its comparison is opened)."""
        return self.opener.is_reading_file()

    def is_opening(self) -> bool:
        """Whether a session is being opened: its file read, or its comparison."""
        return self.opener.is_opening()

    @property
    def refusal_box(self) -> QMessageBox | None:
        """The message that refused the last session file, offering a read-only copy."""
        return self.opener.refusal_box

    # -- saving elsewhere ----------------------------------------------------------------------

    def save_session_as(self, path: str | os.PathLike[str] | None = None) -> Path | None:
        """Save the session under ``path`` (asked for when None) and continue in that file.

        A healthy session is copied as a snapshot of its file; one whose file was lost, that
        holds unsaved edits or that is a read-only copy is written anew from memory."""
        ws = self.controller.workspace
        if self._core is None or ws is None:
            self.window.report_error(
                QCoreApplication.translate("SessionFiles", "Nothing to save"),
                QCoreApplication.translate("SessionFiles", "Open a comparison first."),
            )
            return None
        if path is None:
            suggested = str(self._folder() / f"annotations{SUFFIX}")
            chosen = self.annotations.ui.ask_path(
                self.window,
                QCoreApplication.translate("SessionFiles", "Save session as"),
                suggested,
                QCoreApplication.translate(
                    "SessionFiles", "Matchlight sessions (*{SUFFIX})"
                ).format(SUFFIX=SUFFIX),
                True,
            )
            if not chosen:
                return None
            path = chosen
        target = Path(path)
        if target.suffix != SUFFIX:
            target = target.with_name(target.name + SUFFIX)
        store = self._store
        try:
            if store is None or self._read_only or store.lost is not None or ws.unsaved:
                saved = self._write_from_memory(target)
            else:
                self.flush()
                saved = store.save_as(target)
                self._saved_state = None
        except SessionError as exc:
            self.window.report_error(
                QCoreApplication.translate("SessionFiles", "Cannot save the session"), str(exc)
            )
            return None
        self.watch.forget()
        self._save_state()
        self._remember(saved)
        self.session_changed.emit()
        self.controller.say(
            QCoreApplication.translate("SessionFiles", "Saved the session as {saved}").format(
                saved=saved
            )
        )
        return saved

    def _write_from_memory(self, target: Path) -> Path:
        """Write the whole session from memory to ``target`` and continue there."""
        ws = self.controller.workspace
        assert ws is not None and self._core is not None
        inputs = self._store.inputs() if self._store is not None else self.recorded_inputs()
        imports = self._current_imports()
        write_session(
            target,
            self.document(inputs),
            spans=ws.spans(),
            scores=ws.scores(),
            imports=imports.values(),
        )
        store = SessionStore.open(target)
        old, self._store = self._store, store
        self._read_only = False
        if old is not None:
            untitled = not old.read_only and is_in_recovery_dir(old.path) and old.lost is None
            old.close()
            if untitled:
                remove_database(old.path)
        ws.set_sink(store)
        self._saved_state = None
        self._saved_imports, self._imports_store = imports, store
        self.watch.saved_again()
        return target

    def close_session(self) -> None:
        """Write the state and release the file (the window closes): no edit after this.

        An untitled session left with nothing in it (every edit undone) is deleted rather than
        offered for recovery next time."""
        self.flush()
        self.watch.stop()
        self._release_store()
        ws = self.controller.workspace
        if ws is not None:
            ws.set_sink(None)
        self._read_only = True

    # -- recent sessions and recovery ----------------------------------------------------------

    def recent_sessions(self) -> list[str]:
        return self.recent.entries()

    def _remember(self, path: Path | None) -> None:
        if path is not None and not self.is_untitled():
            self.recent.remember(str(path))

    @Slot()
    def _on_open_session_triggered(self) -> None:
        recent = self.recent.entries()
        folder = str(Path(recent[0]).parent) if recent else str(Path.home())
        chosen = self.annotations.ui.ask_path(
            self.window,
            QCoreApplication.translate("SessionFiles", "Open session"),
            folder,
            QCoreApplication.translate(
                "SessionFiles", "Matchlight sessions (*{SUFFIX});;All files (*)"
            ).format(SUFFIX=SUFFIX),
            False,
        )
        if chosen:
            self.open_session(chosen)

    @Slot()
    def _on_save_session_triggered(self) -> None:
        self.save_session_as()

    def recoverable(self) -> list[RecoverableSession]:
        """Sessions left in the recovery folder by a crash or by quitting unsaved (not the ones
        a running Matchlight has open)."""
        own = self.session_path
        return [
            item
            for item in list_recoverable()
            if not item.in_use and (own is None or item.path != own)
        ]

    def discard(self, path: str | os.PathLike[str]) -> bool:
        try:
            discard_recoverable(path)
        except SessionError as exc:
            self.window.report_error(
                QCoreApplication.translate("SessionFiles", "Cannot discard the session"), str(exc)
            )
            return False
        return True

    def offer_recovery(self) -> RecoveryDialog | None:
        """Offer the sessions a crash (or quitting unsaved) left behind; None if there are none."""
        sessions = self.recoverable()
        if not sessions:
            return None
        dialog = RecoveryDialog(sessions, self.window)
        dialog.open_requested.connect(self._on_recovery_open)
        dialog.discard_requested.connect(self.discard)
        self.annotations.ui.show_dialog(dialog)
        return dialog

    @Slot(str, bool)
    def _on_recovery_open(self, path: str, read_only_copy: bool) -> None:
        self.open_session(path, read_only_copy=read_only_copy)
