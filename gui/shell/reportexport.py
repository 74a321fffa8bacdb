"""File ▸ Export HTML report…: the comparison as it is shown, one self-contained page.

The page is :func:`core.report.export.export_report`'s (the one ``matchlight report``
writes): the session's corpus figures, charts, rows and selection, the window's highlight
mode, sacreBLEU's paired bootstrap against the baseline, and the annotation workspace's error
spans and segment scores. Rendering takes seconds on a large comparison, so it runs in a
:class:`~gui.workers.loader.BackgroundCall`; the GUI thread only asks for the path, checks it
(an input of the comparison or the open session file is refused before any work) and takes a
snapshot of what the worker reads, so that the user can go on filtering or annotating
meanwhile without changing the page half-way through.
"""

from __future__ import annotations

import copy
import os
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar, Protocol

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication, Slot
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QFileDialog, QStatusBar, QWidget

from matchlight.core.annotation.model import ErrorSpan, SegmentScore
from matchlight.core.annotation.mqm import MQMWeights
from matchlight.core.annotation.typology import AnnotationMode
from matchlight.core.io.inputs import Comparison
from matchlight.core.io.safewrite import check_write_target
from matchlight.core.report.export import (
    ReportAnnotations,
    ReportError,
    ReportOptions,
    export_report,
    protected_paths,
)
from matchlight.core.report.sessionfile import annotations_for
from matchlight.core.scoring.results import ScoreTable
from matchlight.core.session.comparison import ComparisonSession
from matchlight.gui.shell.backgroundexport import AskPath, BackgroundExport

__all__ = [
    "ReportExporter",
    "ReportHost",
    "ask_report_path",
    "session_snapshot",
    "suggested_report_path",
]

# Translated where shown (set at import, before the translator is installed).
ERROR_TITLE = QT_TRANSLATE_NOOP("reportexport", "Cannot export the report")
SHORTCUT = "Ctrl+Shift+R"


class ReportHost(Protocol):
    """What the exporter reads from the main window."""

    session: Any  # gui.state.session.SessionModel | None
    sessions: Any  # gui.shell.sessionfiles.SessionFiles

    @property
    def comparison(self) -> Comparison | None: ...

    @property
    def highlight_mode(self) -> str: ...

    def report_error(self, title: str, message: str) -> None: ...

    def statusBar(self) -> QStatusBar: ...


def ask_report_path(parent: QWidget, caption: str, suggested: str) -> str | None:
    """A save dialog for an HTML page (Qt's static dialog, native where there is one)."""
    path, _ = QFileDialog.getSaveFileName(
        parent,
        caption,
        suggested,
        QCoreApplication.translate("reportexport", "HTML pages (*.html *.htm);;All files (*)"),
    )
    return path or None


def suggested_report_path(comparison: Comparison, name: str) -> Path:
    """``NAME-report.html`` in the folder of the first system output: the report sits with
    the files it describes."""
    folder = Path(comparison.systems[0].path).resolve().parent
    return folder / f"{name or 'matchlight'}-report.html"


def session_snapshot(session: ComparisonSession) -> ComparisonSession:
    """A copy of ``session`` that later edits in the GUI thread leave alone, for a worker.

    Baseline, selection, settings and table are rebound (never changed in place) when the
    session changes, so a shallow copy keeps the current ones. The table itself changes in
    place only where columns are added, replaced or removed (imported scores, MQM from the
    annotations): its column dictionaries and its score array are copied; the per-segment
    statistics of a fully scored table never change and are shared.
    """
    table: ScoreTable = copy.copy(session.table)
    for name, value in vars(session.table).items():
        if isinstance(value, dict):
            setattr(table, name, dict(value))
    table.scores = session.table.scores.copy()
    snapshot = copy.copy(session)
    snapshot.table = table
    return snapshot


@dataclass(frozen=True, slots=True)
class _Annotations:
    """The annotation workspace's records, taken in the GUI thread."""

    spans: tuple[ErrorSpan, ...]
    scores: tuple[SegmentScore, ...]
    weights: MQMWeights
    mode: AnnotationMode
    origin: str | None


def _workspace_annotations(sessions: Any) -> tuple[_Annotations | None, list[str]]:
    """The workspace's annotations (None when it holds none) and the session file to keep."""
    if sessions is None:
        return None, []
    store = sessions.store
    keep = [] if store is None else [os.fspath(store.path)]
    ws = sessions.controller.workspace
    if ws is None:
        return None, keep
    spans, scores = tuple(ws.spans()), tuple(ws.scores())
    if not spans and not scores:
        return None, keep
    # An untitled session lives in the recovery folder: not a file to name in the report.
    origin = None if store is None or sessions.is_untitled() else os.fspath(store.path)
    return _Annotations(spans, scores, ws.weights, ws.mode, origin), keep


class ReportExporter(BackgroundExport):
    """The File ▸ Export HTML report… action and the one report being written.

    The window calls :meth:`set_available` whenever the comparison or its scoring changes;
    the action is enabled when a comparison is open, every row is scored and no report is
    being written.

    Signals: those of :class:`~gui.shell.backgroundexport.BackgroundExport`.
    """

    what: ClassVar[str] = "the report"
    expected_errors: ClassVar[tuple[type[BaseException], ...]] = (ReportError,)

    def __init__(
        self,
        host: ReportHost,
        *,
        parent: QWidget,
        ask_path: AskPath | None = None,
        name: Callable[[], str] = lambda: "matchlight",
    ) -> None:
        """``name()``: the comparison's short name, for the suggested file name."""
        super().__init__(
            host,
            parent=parent,
            ask_path=ask_path or ask_report_path,
            name=name,
            busy_name="report-busy",
        )
        self._available = False
        self.action = QAction(
            QCoreApplication.translate("ReportExporter", "Export &HTML report…"), parent
        )
        self.action.setShortcut(QKeySequence(SHORTCUT))
        tip = QCoreApplication.translate(
            "ReportExporter",
            "One self-contained HTML page: corpus scores, charts, significance, annotations "
            "and the selected rows with their highlights, as matchlight report writes it",
        )
        self.action.setStatusTip(tip)
        self.action.setToolTip(tip)
        self.action.triggered.connect(self._on_action_triggered)
        self.update_action()

    def error_title(self) -> str:
        return QCoreApplication.translate("reportexport", ERROR_TITLE)

    def written_message(self, path: str) -> str:
        return QCoreApplication.translate("ReportExporter", "Report written to {path}").format(
            path=path
        )

    def set_available(self, available: bool) -> None:
        """Whether the window has a fully scored comparison to report on."""
        self._available = available
        self.update_action()

    def update_action(self) -> None:
        self.action.setEnabled(self._available and not self.running)

    # -- exporting -------------------------------------------------------------------------------

    @Slot()
    def _on_action_triggered(self) -> None:
        comparison = self._host.comparison
        if comparison is None or not self._ready():
            return
        suggested = suggested_report_path(comparison, self._name())
        path = self._ask_path(
            self._parent,
            QCoreApplication.translate("ReportExporter", "Export HTML report"),
            str(suggested),
        )
        if path:
            if not Path(path).suffix:
                path += ".html"
            self.export(path)

    def _ready(self) -> bool:
        model = self._host.session
        return model is not None and bool(model.session.table.complete) and not self.running

    def export(self, path: str | os.PathLike[str]) -> bool:
        """Start writing the report of the comparison shown to ``path``; False (reported to the
        user) when there is nothing to report on, a report is being written already, or the
        path may not be written (an input of the comparison, the session file, a directory,
        a read-only file). The outcome is :attr:`export_finished` or :attr:`export_failed`."""
        target = os.fspath(path)
        model = self._host.session
        if model is None or not model.session.table.complete:
            self.fail(
                QCoreApplication.translate(
                    "ReportExporter", "Open a comparison and wait until every row is scored."
                )
            )
            return False
        if self.running:
            self.fail(
                QCoreApplication.translate(
                    "ReportExporter", "A report is being written to {0} already."
                ).format(self._path)
            )
            return False
        session: ComparisonSession = model.session
        notes, keep = _workspace_annotations(getattr(self._host, "sessions", None))
        protect = [*protected_paths(session), *keep]
        try:
            check_write_target(target, protect=protect)
        except OSError as error:  # safewrite's message names the file and the reason
            self.fail(str(error))
            return False
        snapshot = session_snapshot(session)
        options = ReportOptions(
            highlight=self._host.highlight_mode or None,
            paired_bs=len(snapshot.system_names) > 1,
        )

        def write(cancel: threading.Event) -> Path:
            annotations: ReportAnnotations | None = None
            if notes is not None:
                annotations = annotations_for(
                    notes.spans,
                    notes.scores,
                    snapshot,
                    weights=notes.weights,
                    mode=notes.mode,
                    origin=notes.origin,
                )
            return export_report(
                snapshot, target, annotations=annotations, options=options, protect=protect
            )

        self._host.statusBar().showMessage(
            QCoreApplication.translate("ReportExporter", "Writing the report to {target}…").format(
                target=target
            )
        )
        self.start(
            write,
            target=target,
            busy_text=QCoreApplication.translate("ReportExporter", "Writing the HTML report…"),
            thread_name="matchlight-report",
        )
        return True
