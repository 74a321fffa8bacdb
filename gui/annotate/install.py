"""Putting annotation into the main window, and the ``matchlight SESSION.matchlight`` start.

:func:`install_annotations` is the one call the window makes: it creates the controller, the
File menu's session entries, the Annotate menu, the annotation panel (a dock) and the keys.
:func:`add_session_argument` and :func:`start_session` are the app's command-line part.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from PySide6.QtCore import QObject, Qt, Slot
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QDockWidget, QLabel, QMainWindow, QMenu, QWidget

from matchlight.core.annotation.interchange import EXPORT_FORMATS, IMPORT_FORMATS
from matchlight.core.session.store import SUFFIX
from matchlight.gui.annotate.controller import AnnotationController, SpecsFactory
from matchlight.gui.annotate.dialogs import (
    AgreementDialog,
    ImportDialog,
    RecoveryDialog,
    TypologyDialog,
    WeightsDialog,
)
from matchlight.gui.annotate.panel import AnnotationPanel

__all__ = [
    "AnnotationUi",
    "add_session_argument",
    "install_annotations",
    "start_session",
]

_EXPORT_FILTERS = {
    "csv": "CSV files (*.csv)",
    "xcomet-jsonl": "JSON Lines (*.jsonl)",
    "wmt24-esa-jsonl": "JSON Lines (*.jsonl)",
    "wmt-mqm-tsv": "TSV files (*.tsv)",
}
_EXPORT_SUFFIX = {"csv": ".csv", "xcomet-jsonl": ".jsonl", "wmt24-esa-jsonl": ".jsonl"}


class AnnotationUi(QObject):
    """The annotation feature's widgets and menu entries, around one controller."""

    def __init__(self, window: QMainWindow, controller: AnnotationController) -> None:
        super().__init__(window)
        self.window = window
        self.controller = controller
        self.panel = AnnotationPanel(controller)
        self.dock = QDockWidget("Annotation", window)
        self.dock.setObjectName("annotation-dock")
        self.dock.setWidget(self.panel)
        self.dock.setFeatures(
            QDockWidget.DockWidgetFeature.DockWidgetMovable
            | QDockWidget.DockWidgetFeature.DockWidgetClosable
            | QDockWidget.DockWidgetFeature.DockWidgetFloatable
        )
        window.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, self.dock)
        # A tab beside the corpus summary, brought to the front once the user annotates: the
        # panel needs the dock's whole height, and readers of scores alone keep the summary.
        summary = getattr(window, "summary_dock", None)
        if isinstance(summary, QDockWidget):
            window.tabifyDockWidget(summary, self.dock)
            summary.raise_()
        self._raised = False
        for action in controller.key_actions():
            action.triggered.connect(self._on_annotation_used)
        controller.session_changed.connect(self._on_annotation_used_if_any)
        self.status_label = QLabel()
        self.status_label.setObjectName("session-status")
        window.statusBar().addPermanentWidget(self.status_label)
        controller.session_changed.connect(self._on_session_changed)
        self.dialog: QWidget | None = None
        self._on_session_changed()

    # -- menus ----------------------------------------------------------------------------------

    def build_menu(self, menu: QMenu) -> None:
        c = self.controller
        c.build_menu(menu)
        menu.addSeparator()
        self.import_action = self._add(menu, "&Import pre-annotations…", self._on_import)
        export = menu.addMenu("E&xport annotations")
        for fmt, label in EXPORT_FORMATS.items():
            action = export.addAction(label)
            action.setData(fmt)
        export.triggered.connect(self._on_export_triggered)
        self.export_menu = export
        self.agreement_action = self._add(
            menu, "A&greement with another session…", self._on_agreement
        )
        menu.addSeparator()
        self.typology_action = self._add(menu, "Error &typology…", self._on_typology)
        self.weights_action = self._add(menu, "MQM &weights…", self._on_weights)
        menu.addSeparator()
        menu.addAction(self.dock.toggleViewAction())

    def _add(self, menu: QMenu, text: str, slot: Any) -> QAction:
        action = menu.addAction(text)
        action.triggered.connect(slot)
        return action

    def _parent(self) -> QWidget:
        return self.window

    def _show(self, dialog: QWidget) -> None:
        if self.dialog is not None:
            self.dialog.close()
            self.dialog.deleteLater()
        self.dialog = dialog
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose, False)
        dialog.open()  # type: ignore[attr-defined]

    @Slot()
    def _on_annotation_used(self) -> None:
        if not self._raised:
            self._raised = True
            self.dock.show()
            self.dock.raise_()

    @Slot()
    def _on_annotation_used_if_any(self) -> None:
        ws = self.controller.workspace
        if ws is not None and (len(ws) or ws.scores()):
            self._on_annotation_used()

    @Slot()
    def _on_session_changed(self) -> None:
        c = self.controller
        if c.workspace is None:
            text = ""
        elif c.store is None:
            text = "Session: not saved yet"
        elif c.read_only:
            text = f"Session: read-only copy of {c.store.path.name}"
        elif c.is_untitled():
            text = "Session: untitled (autosaved)"
        else:
            text = f"Session: {c.store.path.name}"
        self.status_label.setText(text)
        self.status_label.setToolTip("" if c.store is None else str(c.store.path))

    @Slot()
    def _on_import(self) -> None:
        c = self.controller
        if c.workspace is None:
            return

        def browse() -> str | None:
            return c.ask_path(
                self._parent(),
                "Import pre-annotations",
                str(Path.home()),
                "Annotation files (*.jsonl *.tsv *.json);;All files (*)",
                False,
            )

        dialog = ImportDialog(IMPORT_FORMATS, c.system_names, c.system, browse, self._parent())
        dialog.import_requested.connect(self._on_import_requested)
        self._show(dialog)

    @Slot(str, str, str)
    def _on_import_requested(self, path: str, fmt: str, system: str) -> None:
        self.controller.import_annotations(path, fmt, system=system or None)

    @Slot(QAction)
    def _on_export_triggered(self, action: QAction) -> None:
        fmt = action.data()
        c = self.controller
        if not isinstance(fmt, str) or c.workspace is None:
            return
        base = Path.home() if c.is_untitled() or c.store is None else c.store.path.parent
        suggested = str(base / f"annotations{_EXPORT_SUFFIX.get(fmt, '.tsv')}")
        path = c.ask_path(
            self._parent(), "Export annotations", suggested, _EXPORT_FILTERS[fmt], True
        )
        if path:
            c.export_annotations(path, fmt)

    @Slot()
    def _on_agreement(self) -> None:
        c = self.controller
        if c.workspace is None:
            return
        path = c.ask_path(
            self._parent(),
            "Another annotator's session of the same files",
            str(Path.home()),
            f"Matchlight sessions (*{SUFFIX})",
            False,
        )
        if not path:
            return
        report = c.agreement_with(path)
        if report is not None:
            self._show(AgreementDialog(report, path, self._parent()))

    @Slot()
    def _on_typology(self) -> None:
        dialog = TypologyDialog(self.controller.typology, self._parent())
        dialog.typology_accepted.connect(self._on_typology_accepted)
        self._show(dialog)

    @Slot(object)
    def _on_typology_accepted(self, typology: object) -> None:
        from matchlight.core.annotation.typology import Typology

        if isinstance(typology, Typology):
            self.controller.set_typology(typology)

    @Slot()
    def _on_weights(self) -> None:
        c = self.controller
        ws = c.workspace
        if ws is None:
            return
        dialog = WeightsDialog(ws.weights, c.typology.paths(), self._parent())
        dialog.weights_accepted.connect(self._on_weights_accepted)
        self._show(dialog)

    @Slot(object)
    def _on_weights_accepted(self, weights: object) -> None:
        from matchlight.core.annotation.mqm import MQMWeights

        if isinstance(weights, MQMWeights):
            self.controller.set_weights(weights)

    # -- recovery -------------------------------------------------------------------------------

    def offer_recovery(self) -> RecoveryDialog | None:
        """Offer the sessions a crash (or quitting unsaved) left behind; None if there are none."""
        sessions = self.controller.recoverable()
        if not sessions:
            return None
        dialog = RecoveryDialog(sessions, self._parent())
        dialog.open_requested.connect(self._on_recovery_open)
        dialog.discard_requested.connect(self.controller.discard)
        self._show(dialog)
        return dialog

    @Slot(str, bool)
    def _on_recovery_open(self, path: str, read_only_copy: bool) -> None:
        self.controller.open_session(path, read_only_copy=read_only_copy)


def install_annotations(
    window: QMainWindow, file_menu: QMenu, *, specs_type: SpecsFactory
) -> AnnotationController:
    """Add error annotation and session files to ``window`` (a MainWindow): File ▸ Open
    session / Recent sessions / Save session as (before Quit), an Annotate menu, the
    annotation panel, and the annotation keys in the table, the detail pane and the panel."""
    controller = AnnotationController(window, specs_type=specs_type)  # type: ignore[arg-type]
    quit_action = getattr(window, "quit_action", None)
    controller.add_session_actions(file_menu, before=quit_action)
    ui = AnnotationUi(window, controller)
    menu = QMenu("&Annotate", window)
    ui.build_menu(menu)
    bar = window.menuBar()
    help_menu = next(
        (a for a in bar.actions() if a.menu() is not None and a.text().replace("&", "") == "Help"),
        None,
    )
    if help_menu is not None:
        bar.insertMenu(help_menu, menu)
    else:
        bar.addMenu(menu)
    controller.ui = ui
    for widget in (getattr(window, "table_view", None), getattr(window, "detail_pane", None)):
        if isinstance(widget, QWidget):
            controller.attach_keys(widget)
    controller.attach_keys(ui.panel)
    return controller


def add_session_argument(parser: argparse.ArgumentParser) -> None:
    """``matchlight SESSION.matchlight``: open a saved session."""
    parser.add_argument(
        "session",
        nargs="?",
        metavar="SESSION.matchlight",
        help="open a saved session (its files, settings, selection and annotations)",
    )


def start_session(window: Any, args: argparse.Namespace, *, offer_recovery: bool) -> bool:
    """Open the session named on the command line (True: one was named), or else, at the
    app's start, offer the sessions a crash left behind."""
    controller = getattr(window, "annotations", None)
    path = getattr(args, "session", None)
    asked = any(getattr(args, name, None) for name in ("sample", "src", "ref", "hyp"))
    if path:
        if asked:
            window.report_error(
                "Cannot open the session",
                "A session file brings its own files: do not combine it with --sample, --src, "
                "--ref or --hyp.",
            )
            return True
        if isinstance(controller, AnnotationController):
            controller.open_session(path)
        return True
    if offer_recovery and not asked and isinstance(controller, AnnotationController):
        ui = getattr(controller, "ui", None)
        if isinstance(ui, AnnotationUi):
            ui.offer_recovery()
    return False
