"""File ▸ Export LaTeX table…: the corpus scores of the rows shown as a table for a paper.

The table is :func:`core.report.latex.paired_latex_table`'s, the one ``matchlight compare
--latex`` writes: every score column of the summary (headline and added scores), each system
tested against the baseline (the daggers) and ranked into significance clusters, with sacreBLEU's
paired bootstrap (1,000 resamples, seed 12345), on the selected rows. The tests take seconds, so
they run in a :class:`~gui.workers.loader.BackgroundCall` on a snapshot of the comparison; the
GUI thread only asks for the path and checks it (an input of the comparison is refused before
any work). The file is written by :func:`core.report.latex.write_latex` (atomically).
"""

from __future__ import annotations

import logging
import os
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from PySide6.QtCore import QObject, Signal, Slot
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QFileDialog, QLabel, QWidget

from matchlight.core.analysis.columnstats import NotTestable
from matchlight.core.io.safewrite import check_write_target
from matchlight.core.report.export import protected_paths
from matchlight.core.report.latex import paired_latex_table, write_latex
from matchlight.gui.shell.reportexport import session_snapshot
from matchlight.gui.workers.loader import BackgroundCall

__all__ = ["ERROR_TITLE", "LatexExporter", "ask_latex_path"]

log = logging.getLogger(__name__)

#: ``ask_path(parent, caption, suggested) -> path or None`` (the window's injectable dialog).
AskPath = Callable[[QWidget, str, str], "str | None"]

ERROR_TITLE = "Cannot export the LaTeX table"


def ask_latex_path(parent: QWidget, caption: str, suggested: str) -> str | None:
    """A save dialog for a ``.tex`` file (Qt's static dialog, native where there is one)."""
    path, _ = QFileDialog.getSaveFileName(
        parent, caption, suggested, "LaTeX files (*.tex);;All files (*)"
    )
    return path or None


class LatexExporter(QObject):
    """The File ▸ Export LaTeX table… action and the one table being computed.

    ``host`` is the main window: its ``session`` (the SessionModel), ``report_error`` and
    status bar. The action is enabled (:meth:`update_action`, when the File menu opens) while
    a comparison with at least two systems is fully scored and no table is being made.

    Signals:
        export_finished(str path): the table was written to ``path``.
        export_failed(str message): it could not be (also said through ``report_error``).
    """

    export_finished = Signal(str)
    export_failed = Signal(str)

    def __init__(
        self,
        host: Any,
        *,
        parent: QWidget,
        ask_path: AskPath | None = None,
        name: Callable[[], str] = lambda: "matchlight",
    ) -> None:
        super().__init__(parent)
        self._host = host
        self._parent = parent
        self._ask_path = ask_path or ask_latex_path
        self._name = name
        self._call: BackgroundCall | None = None
        self._path = ""
        self.action = QAction("Export &LaTeX table…", parent)
        tip = (
            "Corpus scores of the rows shown as a LaTeX table for a paper: best in bold, "
            "daggers against the baseline, significance clusters (as matchlight compare --latex)"
        )
        self.action.setStatusTip(tip)
        self.action.setToolTip(tip)
        self.action.triggered.connect(self._on_action_triggered)
        self.action.setEnabled(False)  # until a comparison is scored (checked as the menu opens)
        self.busy_label = QLabel()
        self.busy_label.setObjectName("latex-busy")
        self.busy_label.hide()
        host.statusBar().addPermanentWidget(self.busy_label)

    @property
    def running(self) -> bool:
        return self._call is not None

    def _core(self) -> Any:
        model = self._host.session
        return None if model is None else model.session

    def ready(self) -> bool:
        """A fully scored comparison of two systems or more, and no table under way."""
        core = self._core()
        return (
            core is not None
            and core.table.complete
            and len(core.table.systems) >= 2
            and not self.running
        )

    @Slot()
    def update_action(self) -> None:
        self.action.setEnabled(self.ready())

    @Slot()
    def _on_action_triggered(self) -> None:
        core = self._core()
        if core is None or not self.ready():
            return
        folder = (
            Path(core.comparison.systems[0].path).resolve().parent
            if core.comparison is not None
            else Path.home()
        )
        suggested = folder / f"{self._name() or 'matchlight'}-scores.tex"
        path = self._ask_path(self._parent, "Export LaTeX table", str(suggested))
        if path:
            if not Path(path).suffix:
                path += ".tex"
            self.export(path)

    def export(self, path: str | os.PathLike[str]) -> bool:
        """Start computing the table of the rows shown and writing it to ``path``; False (said
        to the user) when there is nothing to export or the path may not be written. The
        outcome is :attr:`export_finished` or :attr:`export_failed`."""
        target = os.fspath(path)
        core = self._core()
        if core is None or not core.table.complete or len(core.table.systems) < 2:
            self._fail("Open a comparison of two systems or more and wait until it is scored.")
            return False
        if self.running:
            self._fail(f"A LaTeX table is being written to {self._path} already.")
            return False
        protect = protected_paths(core)
        try:
            check_write_target(target, protect=protect)
        except OSError as error:  # safewrite's message names the file and the reason
            self._fail(str(error))
            return False
        snapshot = session_snapshot(core)
        rows = snapshot.selected_rows() if snapshot.is_filtered() else None
        baseline = snapshot.baseline

        def write(cancel: threading.Event) -> Path:
            text = paired_latex_table(
                snapshot.table, baseline=baseline, rows=rows, cancel=cancel.is_set
            )
            return write_latex(target, text, protect=protect)

        call = BackgroundCall(write, name="matchlight-latex", parent=self)
        call.finished.connect(self._on_call_finished)
        call.failed.connect(self._on_call_failed)
        call.cancelled.connect(self._on_call_cancelled)
        self._call = call
        self._path = target
        self.busy_label.setText("Testing the systems for the LaTeX table…")
        self.busy_label.show()
        self.update_action()
        call.start()
        return True

    def shutdown(self) -> None:
        """Cancel the table under way (the window closes); its thread is a daemon."""
        if self._call is not None:
            self._call.cancel()

    def _end(self) -> None:
        call, self._call = self._call, None
        if call is not None:
            call.deleteLater()
        self.busy_label.hide()
        self.update_action()

    def _fail(self, message: str) -> None:
        self._host.report_error(ERROR_TITLE, message)
        self.export_failed.emit(message)

    @Slot(object)
    def _on_call_finished(self, value: object) -> None:
        path = os.fspath(value) if isinstance(value, Path) else self._path
        self._end()
        self._host.statusBar().showMessage(f"LaTeX table written to {path}", 10_000)
        self.export_finished.emit(path)

    @Slot(object)
    def _on_call_failed(self, error: object) -> None:
        self._end()
        if isinstance(error, OSError):  # WriteError: "PATH: reason"
            message = str(error) if error.filename else f"{self._path}: {error.strerror or error}"
        elif isinstance(error, NotTestable):  # no column has a test on these rows
            message = f"{self._path}: {error}"
        else:  # a bug: say what it was, and log it with its traceback
            if isinstance(error, BaseException):
                log.error("writing the LaTeX table failed", exc_info=error)
            message = f"{self._path}: {error} ({type(error).__name__})"
        self._fail(message)

    @Slot()
    def _on_call_cancelled(self) -> None:
        self._end()
