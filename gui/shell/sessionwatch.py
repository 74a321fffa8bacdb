"""Work at risk in the session file: found, told once, and tried again.

A :class:`SessionWatch` belongs to the window's :class:`~.sessionfiles.SessionFiles`. Between
edits it checks every :data:`WATCH_MS` that the session file is still ours (the store checks
before each commit too, and its flusher after); a file deleted, moved, replaced or overwritten by
another program is never written again, and the user is told and offered Save as. Edits the
workspace could not write (a full disk) are written again every :data:`RETRY_MS` until they are
saved. Each problem is told once (:meth:`SessionWatch.tell`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from PySide6.QtCore import QCoreApplication, QObject, Qt, QTimer, Signal, Slot
from PySide6.QtWidgets import QMessageBox, QWidget

from matchlight.core.session.store import SessionError, SessionStore

__all__ = ["RETRY_MS", "WATCH_MS", "SessionWatch"]

# How often the session file is checked to be still ours, between edits (ms).
WATCH_MS = 2000
# How often unsaved edits are tried again (a full disk) (ms).
RETRY_MS = 5000


class _Files(Protocol):
    """What the watch uses of :class:`~.sessionfiles.SessionFiles`."""

    window: Any
    controller: Any
    session_changed: Signal

    @property
    def store(self) -> SessionStore | None: ...

    @property
    def read_only(self) -> bool: ...

    def offer_save_as(self, title: str, message: str) -> None: ...

    def save_session_as(self) -> object: ...


class SessionWatch(QObject):
    """Checks the session file between edits, writes unsaved edits again, tells the user."""

    def __init__(self, files: _Files, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._files = files
        self._warned: str | None = None  # the problem the user was last told of
        self._watch_timer = self._timer(WATCH_MS, self.check)
        self._retry_timer = self._timer(RETRY_MS, self._on_retry)

    def _timer(self, interval: int, slot: Callable[[], None]) -> QTimer:
        timer = QTimer(self)
        timer.setInterval(interval)
        timer.timeout.connect(slot)
        return timer

    def start(self) -> None:
        """Watch the file (a comparison was opened)."""
        self._watch_timer.start()

    def stop(self) -> None:
        """Stop watching and retrying (the window closes)."""
        self._watch_timer.stop()
        self._retry_timer.stop()

    def forget(self) -> None:
        """Tell the next problem even if it is the last one told (a new file)."""
        self._warned = None

    def saved_again(self) -> None:
        """Every edit is in a file again (written anew from memory): nothing to retry."""
        self._retry_timer.stop()

    def on_workspace_changed(self, _keys: object) -> None:
        """The workspace changed: an edit it could not write is told, and retried."""
        ws = self._files.controller.workspace
        if ws is not None and ws.unsaved:
            error = ws.sink_error
            if isinstance(error, SessionError):
                self.tell(error)
            if not self._retry_timer.isActive():
                self._retry_timer.start()
            self._files.session_changed.emit()

    def tell(self, error: SessionError) -> None:
        """Tell the user once per problem; a lost file or a full disk offers Save as."""
        if error.problem == self._warned:
            return
        self._warned = error.problem
        files = self._files
        if error.kind in ("lost", "disk-full", "read-only", "io"):
            files.offer_save_as(
                QCoreApplication.translate(
                    "SessionFiles", "Your edits are not in the session file"
                ),
                str(error),
            )
        else:
            files.window.report_error(
                QCoreApplication.translate("SessionFiles", "Cannot save the session"), str(error)
            )
        files.session_changed.emit()

    @Slot()
    def check(self) -> None:
        """Check now that the file is still ours (the timer's tick)."""
        store = self._files.store
        if store is None or self._files.read_only:
            return
        # Lost already (the flusher's pass found the file changed after the last edit's
        # check) or found lost now: told once.
        if store.check_ours() is not None:
            self.tell(
                SessionError(
                    QCoreApplication.translate(
                        "SessionFiles",
                        "{0}; nothing more is written to it. Your edits are kept: use Save "
                        "as to keep them in a file.",
                    ).format(store.lost),
                    store.path,
                    kind="lost",
                )
            )

    @Slot()
    def _on_retry(self) -> None:
        files = self._files
        ws, store = files.controller.workspace, files.store
        if ws is None or store is None or not ws.unsaved:
            self._retry_timer.stop()
            return
        if store.lost is not None:
            return  # only Save as helps now
        if ws.retry_unsaved():
            self._retry_timer.stop()
            self._warned = None
            files.controller.say(
                QCoreApplication.translate("SessionFiles", "Every edit is saved again.")
            )
            files.session_changed.emit()

    def offer_save_as(self, title: str, message: str) -> None:
        """A message telling of work at risk, with a Save as… button (not modal)."""
        window = self._files.window
        box = QMessageBox(
            QMessageBox.Icon.Warning,
            title,
            message,
            QMessageBox.StandardButton.Close,
            window if isinstance(window, QWidget) else None,
        )
        box.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        save = box.addButton(
            QCoreApplication.translate("SessionFiles", "Save as…"),
            QMessageBox.ButtonRole.AcceptRole,
        )
        box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        box.buttonClicked.connect(
            lambda button: self._files.save_session_as() if button is save else None
        )
        box.open()
