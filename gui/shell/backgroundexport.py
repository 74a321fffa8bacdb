"""One file written in a worker from a File ▸ Export action (the HTML report, the LaTeX table).

The GUI thread asks for the path and checks it; the writing (and the tests it needs) runs in a
:class:`~gui.workers.loader.BackgroundCall`, with a busy label in the status bar meanwhile.
This base keeps what every such export does once it has started: the label, the outcome as a
signal and a status message, and a failure said in words (an :class:`OSError` names its file;
an expected error of the export is the user's to read; anything else is a bug, logged with its
traceback).
"""

from __future__ import annotations

import logging
import os
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any, ClassVar

from PySide6.QtCore import QObject, Signal, Slot
from PySide6.QtWidgets import QLabel, QWidget

from matchlight.gui.workers.loader import BackgroundCall

__all__ = ["AskPath", "BackgroundExport"]

log = logging.getLogger(__name__)

# ``ask_path(parent, caption, suggested) -> path or None`` (the window's injectable dialog).
AskPath = Callable[[QWidget, str, str], "str | None"]


class BackgroundExport(QObject):
    """The one export of a kind under way, and what its end says.

    Subclasses set :attr:`what` (for the log), :attr:`expected_errors` (errors whose message is
    meant for the user) and implement :meth:`error_title`, :meth:`written_message` and
    :meth:`update_action`.

    Signals:
        export_started(str path): the file is being written to ``path`` in a worker thread.
        export_finished(str path): it was written to ``path``.
        export_failed(str message): it could not be (also said through ``report_error``).
    """

    export_started = Signal(str)
    export_finished = Signal(str)
    export_failed = Signal(str)

    what: ClassVar[str] = "the export"
    expected_errors: ClassVar[tuple[type[BaseException], ...]] = ()

    def __init__(
        self,
        host: Any,
        *,
        parent: QWidget,
        ask_path: AskPath,
        name: Callable[[], str],
        busy_name: str,
    ) -> None:
        """``host``: the main window (``report_error``, ``statusBar``); ``name()``: the
        comparison's short name, for the suggested file name."""
        super().__init__(parent)
        self._host = host
        self._parent = parent
        self._ask_path = ask_path
        self._name = name
        self._call: BackgroundCall | None = None
        self._path = ""
        self.busy_label = QLabel()
        self.busy_label.setObjectName(busy_name)
        self.busy_label.hide()
        host.statusBar().addPermanentWidget(self.busy_label)

    # -- for subclasses ----------------------------------------------------------------------

    def error_title(self) -> str:
        raise NotImplementedError

    def written_message(self, path: str) -> str:
        raise NotImplementedError

    def update_action(self) -> None:
        raise NotImplementedError

    # -- the export under way ----------------------------------------------------------------

    @property
    def running(self) -> bool:
        """Whether a file is being written right now."""
        return self._call is not None

    def start(
        self,
        write: Callable[[threading.Event], Path],
        *,
        target: str,
        busy_text: str,
        thread_name: str,
    ) -> None:
        """Run ``write`` (given a cancel flag, it returns the path written) in a worker."""
        call = BackgroundCall(write, name=thread_name, parent=self)
        call.finished.connect(self._on_call_finished)
        call.failed.connect(self._on_call_failed)
        call.cancelled.connect(self._on_call_cancelled)
        self._call = call
        self._path = target
        self.busy_label.setText(busy_text)
        self.busy_label.show()
        self.update_action()
        call.start()
        self.export_started.emit(target)

    def shutdown(self) -> None:
        """Cancel the export under way (the window closes); its thread is a daemon."""
        if self._call is not None:
            self._call.cancel()

    def fail(self, message: str) -> None:
        """Say ``message`` to the user and as :attr:`export_failed`."""
        self._host.report_error(self.error_title(), message)
        self.export_failed.emit(message)

    def _end(self) -> None:
        call, self._call = self._call, None
        if call is not None:
            call.deleteLater()
        self.busy_label.hide()
        self.update_action()

    @Slot(object)
    def _on_call_finished(self, value: object) -> None:
        path = os.fspath(value) if isinstance(value, Path) else self._path
        self._end()
        self._host.statusBar().showMessage(self.written_message(path), 10_000)
        self.export_finished.emit(path)

    @Slot(object)
    def _on_call_failed(self, error: object) -> None:
        self._end()
        self._host.statusBar().clearMessage()
        if isinstance(error, OSError):  # WriteError: "PATH: reason"; others may lack the path
            message = str(error) if error.filename else f"{self._path}: {error.strerror or error}"
        elif isinstance(error, self.expected_errors):
            message = f"{self._path}: {error}"
        else:  # a bug: say what it was, and log it with its traceback
            if isinstance(error, BaseException):
                log.error("writing %s failed", self.what, exc_info=error)
            message = f"{self._path}: {error} ({type(error).__name__})"
        self.fail(message)

    @Slot()
    def _on_call_cancelled(self) -> None:
        self._end()
        self._host.statusBar().clearMessage()
