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

import os
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any, ClassVar

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication, Slot
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QFileDialog, QWidget

from matchlight.core.analysis.columnstats import NotTestable
from matchlight.core.io.safewrite import check_write_target
from matchlight.core.report.export import protected_paths
from matchlight.core.report.latex import paired_latex_table, write_latex
from matchlight.gui.shell.backgroundexport import AskPath, BackgroundExport
from matchlight.gui.shell.reportexport import session_snapshot

__all__ = ["ERROR_TITLE", "LatexExporter", "ask_latex_path"]

# Translated where shown (set at import, before the translator is installed).
ERROR_TITLE = QT_TRANSLATE_NOOP("latexexport", "Cannot export the LaTeX table")


def ask_latex_path(parent: QWidget, caption: str, suggested: str) -> str | None:
    """A save dialog for a ``.tex`` file (Qt's static dialog, native where there is one)."""
    path, _ = QFileDialog.getSaveFileName(
        parent,
        caption,
        suggested,
        QCoreApplication.translate("latexexport", "LaTeX files (*.tex);;All files (*)"),
    )
    return path or None


class LatexExporter(BackgroundExport):
    """The File ▸ Export LaTeX table… action and the one table being computed.

    ``host`` is the main window: its ``session`` (the SessionModel), ``report_error`` and
    status bar. The action is enabled (:meth:`update_action`, when the File menu opens) while
    a comparison with at least two systems is fully scored and no table is being made.

    Signals: those of :class:`~gui.shell.backgroundexport.BackgroundExport`.
    """

    what: ClassVar[str] = "the LaTeX table"
    expected_errors: ClassVar[tuple[type[BaseException], ...]] = (NotTestable,)

    def __init__(
        self,
        host: Any,
        *,
        parent: QWidget,
        ask_path: AskPath | None = None,
        name: Callable[[], str] = lambda: "matchlight",
    ) -> None:
        super().__init__(
            host,
            parent=parent,
            ask_path=ask_path or ask_latex_path,
            name=name,
            busy_name="latex-busy",
        )
        self.action = QAction(
            QCoreApplication.translate("LatexExporter", "Export &LaTeX table…"), parent
        )
        tip = QCoreApplication.translate(
            "LatexExporter",
            "Corpus scores of the rows shown as a LaTeX table for a paper: best in bold, "
            "daggers against the baseline, significance clusters (as matchlight compare --latex)",
        )
        self.action.setStatusTip(tip)
        self.action.setToolTip(tip)
        self.action.triggered.connect(self._on_action_triggered)
        self.action.setEnabled(False)  # until a comparison is scored (checked as the menu opens)

    def error_title(self) -> str:
        return QCoreApplication.translate("latexexport", ERROR_TITLE)

    def written_message(self, path: str) -> str:
        return QCoreApplication.translate("LatexExporter", "LaTeX table written to {path}").format(
            path=path
        )

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
        path = self._ask_path(
            self._parent,
            QCoreApplication.translate("LatexExporter", "Export LaTeX table"),
            str(suggested),
        )
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
            self.fail(
                QCoreApplication.translate(
                    "LatexExporter",
                    "Open a comparison of two systems or more and wait until it is scored.",
                )
            )
            return False
        if self.running:
            self.fail(
                QCoreApplication.translate(
                    "LatexExporter", "A LaTeX table is being written to {0} already."
                ).format(self._path)
            )
            return False
        protect = protected_paths(core)
        try:
            check_write_target(target, protect=protect)
        except OSError as error:  # safewrite's message names the file and the reason
            self.fail(str(error))
            return False
        snapshot = session_snapshot(core)
        rows = snapshot.selected_rows() if snapshot.is_filtered() else None
        baseline = snapshot.baseline

        def write(cancel: threading.Event) -> Path:
            text = paired_latex_table(
                snapshot.table, baseline=baseline, rows=rows, cancel=cancel.is_set
            )
            return write_latex(target, text, protect=protect)

        self.start(
            write,
            target=target,
            busy_text=QCoreApplication.translate(
                "LatexExporter", "Testing the systems for the LaTeX table…"
            ),
            thread_name="matchlight-latex",
        )
        return True
