"""Putting annotation into the main window.

:func:`install_annotations` is the one call the window makes: it creates the controller, its
keys, the table link (span boxes, MQM/ESA columns, filters), imports and exports (an export that
would leave errors out asks first), the review of pre-annotations, the Annotate menu, the
annotation panel (a dock) and the annotation view (a window of its own, made for annotating),
and returns them as one :class:`Annotations`. The session file the annotations are kept in is
the shell's (:mod:`gui.shell.sessionfiles`).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication, QObject, Qt, Slot
from PySide6.QtGui import QAction
from PySide6.QtWidgets import (
    QDockWidget,
    QFileDialog,
    QInputDialog,
    QMainWindow,
    QMenu,
    QMessageBox,
    QWidget,
)

from matchlight.core.annotation.agreement import AgreementReport, Disagreement
from matchlight.core.annotation.interchange import EXPORT_FORMATS, IMPORT_FORMATS
from matchlight.core.session.store import SUFFIX
from matchlight.gui.annotate.actions import AnnotationActions
from matchlight.gui.annotate.agreementdialog import AgreementDialog
from matchlight.gui.annotate.controller import AnnotationController
from matchlight.gui.annotate.dialogs import (
    ImportDialog,
    ImportRequest,
    TypologyDialog,
    WeightsDialog,
)
from matchlight.gui.annotate.host import AnnotationHost
from matchlight.gui.annotate.panel import AnnotationPanel
from matchlight.gui.annotate.review import AnnotationReview
from matchlight.gui.annotate.tablelink import AnnotationTableLink
from matchlight.gui.annotate.transfer import AnnotationTransfer
from matchlight.gui.annotate.view import AnnotationView

__all__ = ["AnnotationUi", "Annotations", "install_annotations"]


_EXPORT_FILTERS = {
    "csv": QT_TRANSLATE_NOOP("AnnotationUi", "CSV files (*.csv)"),
    "xcomet-jsonl": QT_TRANSLATE_NOOP("AnnotationUi", "JSON Lines (*.jsonl)"),
    "wmt24-esa-jsonl": QT_TRANSLATE_NOOP("AnnotationUi", "JSON Lines (*.jsonl)"),
    "wmt-mqm-tsv": QT_TRANSLATE_NOOP("AnnotationUi", "TSV files (*.tsv)"),
}
_EXPORT_SUFFIX = {"csv": ".csv", "xcomet-jsonl": ".jsonl", "wmt24-esa-jsonl": ".jsonl"}
# Export formats that write each error's status (the others hold confirmed errors only).
_WITH_STATUS = frozenset({"csv", "xcomet-jsonl"})


class AnnotationUi(QObject):
    """The annotation feature's widgets and menu entries, around one controller."""

    def __init__(
        self,
        window: QMainWindow,
        controller: AnnotationController,
        actions: AnnotationActions,
        table: AnnotationTableLink,
        transfer: AnnotationTransfer,
        review: AnnotationReview,
    ) -> None:
        super().__init__(window)
        self.window = window
        self.controller = controller
        self.actions = actions
        self.table = table
        self.transfer = transfer
        self.review = review
        # ``ask_path(parent, caption, suggested, file_filter, saving)``; tests replace it.
        self.ask_path: Any = _default_ask_path
        # Where export dialogs start (the session file's folder, once there is one).
        self.folder: Any = Path.home
        self.panel = AnnotationPanel(controller, table, review=review)
        self.dock = QDockWidget(QCoreApplication.translate("AnnotationUi", "Annotation"), window)
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
        for action in actions.key_actions():
            action.triggered.connect(self._on_annotation_used)
        controller.attached.connect(self._on_annotation_used_if_any)
        self.dialog: QWidget | None = None
        self._agreement_path = ""
        transfer.agreement_finished.connect(self._on_agreement_finished)
        # The question asked before an export that would leave errors out (while it is open).
        self.export_question: QMessageBox | None = None
        # The annotation view: a window made for annotating (Annotate ▸ Annotation view).
        self.view = AnnotationView(controller, window, window)
        self.view.tools.reattach_requested.connect(review.reattach)
        actions.attach_view(self.view)
        actions.ui = self

    # -- menus ----------------------------------------------------------------------------------

    def build_menu(self, menu: QMenu) -> None:
        self.actions.build_menu(menu)
        menu.addSeparator()
        self.import_action = self._add(
            menu,
            QCoreApplication.translate("AnnotationUi", "&Import pre-annotations…"),
            self._on_import,
        )
        export = menu.addMenu(QCoreApplication.translate("AnnotationUi", "E&xport annotations"))
        for fmt, label in EXPORT_FORMATS.items():
            action = export.addAction(label)
            action.setData(fmt)
        export.triggered.connect(self._on_export_triggered)
        self.export_menu = export
        self.agreement_action = self._add(
            menu,
            QCoreApplication.translate("AnnotationUi", "A&greement with another session…"),
            self._on_agreement,
        )
        menu.addSeparator()
        self.typology_action = self._add(
            menu, QCoreApplication.translate("AnnotationUi", "Error &typology…"), self._on_typology
        )
        self.weights_action = self._add(
            menu, QCoreApplication.translate("AnnotationUi", "MQM &weights…"), self._on_weights
        )
        menu.addSeparator()
        menu.addAction(self.dock.toggleViewAction())

    def _add(self, menu: QMenu, text: str, slot: Any) -> QAction:
        action = menu.addAction(text)
        action.triggered.connect(slot)
        return action

    def _parent(self) -> QWidget:
        return self.window

    # -- the annotation view ----------------------------------------------------------------------

    def show_view(self) -> None:
        """Open the annotation view (or bring it to the front), the keyboard in the output."""
        view = self.view
        if self.controller.comparison_session is None:
            self.controller.say(
                QCoreApplication.translate("AnnotationUi", "Open a comparison to annotate it.")
            )
            return
        view.show()
        view.raise_()
        view.activateWindow()
        self.controller.selecting.use_surface(view)
        if self.controller.target() is None:
            self.controller.move_segment(0)  # the first row shown
        self.controller.focus_text()

    def toggle_evidence(self) -> None:
        """V: the metric evidence in the annotation view, shown or hidden."""
        if not self.view.isVisible():
            self.show_view()
            self.view.set_evidence(True)
            return
        self.view.set_evidence(not self.view.evidence_shown())

    def go_to_prompt(self) -> None:
        """Ctrl+G: in the annotation view, its segment box; in the main window, a small
        dialog asking for the number."""
        c = self.controller
        core = c.comparison_session
        if core is None:
            return
        view = self.view
        if view.isVisible() and (view.has_focus_inside() or view.isActiveWindow()):
            view.go_to_prompt()
            return
        dialog = QInputDialog(self._parent())
        dialog.setObjectName("go-to-segment")
        dialog.setWindowTitle(QCoreApplication.translate("AnnotationUi", "Go to segment"))
        dialog.setInputMode(QInputDialog.InputMode.IntInput)
        dialog.setIntRange(1, core.n_segments)
        target = c.target()
        dialog.setIntValue(1 if target is None else target[0] + 1)
        dialog.setLabelText(
            QCoreApplication.translate("AnnotationUi", "Segment (1–{0:,}):").format(core.n_segments)
        )
        dialog.intValueSelected.connect(self._on_segment_chosen)
        self.show_dialog(dialog)

    @Slot(int)
    def _on_segment_chosen(self, number: int) -> None:
        self.controller.go_to_segment(number - 1)

    def show_dialog(self, dialog: QWidget, *, modal: bool = True) -> None:
        """Open ``dialog`` (window-modal, or beside the window with ``modal`` False; never
        blocking), closing the one shown before."""
        if self.dialog is not None:
            self.dialog.close()
            self.dialog.deleteLater()
        self.dialog = dialog
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose, False)
        if modal:
            dialog.open()  # type: ignore[attr-defined]
        else:
            dialog.show()

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
    def _on_import(self) -> None:
        c = self.controller
        if c.workspace is None:
            return

        def browse() -> str | None:
            return self.ask_path(
                self._parent(),
                QCoreApplication.translate("AnnotationUi", "Import pre-annotations"),
                str(Path.home()),
                QCoreApplication.translate(
                    "AnnotationUi", "Annotation files (*.jsonl *.tsv *.json);;All files (*)"
                ),
                False,
            )

        def browse_ids() -> str | None:
            return self.ask_path(
                self._parent(),
                QCoreApplication.translate(
                    "AnnotationUi", "Segment ids (line i holds segment i's id)"
                ),
                str(Path.home()),
                QCoreApplication.translate("AnnotationUi", "Text files (*.txt);;All files (*)"),
                False,
            )

        core = c.comparison_session
        labels = () if core is None else tuple(col.name for col in core.label_columns())
        dialog = ImportDialog(
            IMPORT_FORMATS,
            c.system_names,
            c.system,
            browse,
            self._parent(),
            label_columns=labels,
            browse_ids=browse_ids,
        )
        dialog.import_requested.connect(self._on_import_requested)
        self.show_dialog(dialog)

    @Slot(object)
    def _on_import_requested(self, request: object) -> None:
        if isinstance(request, ImportRequest):
            self.transfer.import_annotations(
                request.path,
                request.fmt,
                system=request.system or None,
                segment_ids=request.segment_ids,
                segment_column=request.segment_column,
            )

    @Slot(QAction)
    def _on_export_triggered(self, action: QAction) -> None:
        fmt = action.data()
        if isinstance(fmt, str):
            self.export(fmt)

    def export(self, fmt: str) -> None:
        """Export the annotations as ``fmt``. When the export would leave errors out
        (undecided, rejected, or on the source in a format for the output only), ask first:
        a format that keeps each error's status (CSV, xCOMET) can take them all."""
        c = self.controller
        if c.workspace is None:
            return
        missing = self.transfer.left_out(fmt)
        if missing is None:
            self._export_to(fmt, all_statuses=False)
            return
        with_status = fmt in _WITH_STATUS
        text = f"{missing}"
        if with_status:
            text += "\n\n" + QCoreApplication.translate(
                "AnnotationUi",
                "This format keeps each error's status: export every error with it, or the "
                "confirmed ones only.",
            )
        else:
            text += "\n\n" + QCoreApplication.translate(
                "AnnotationUi",
                "This format has no status: only confirmed errors are written. CSV and "
                "xCOMET JSON Lines keep every error with its status.",
            )
        box = QMessageBox(
            QMessageBox.Icon.Question,
            QCoreApplication.translate("AnnotationUi", "Some errors are not in this export"),
            text,
            QMessageBox.StandardButton.Cancel,
            self._parent(),
        )
        box.setObjectName("export-question")
        box.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        everything = None
        if with_status and self.transfer.left_out(fmt, all_statuses=True) != missing:
            everything = box.addButton(
                QCoreApplication.translate("AnnotationUi", "Export every error, with its status"),
                QMessageBox.ButtonRole.AcceptRole,
            )
        confirmed = box.addButton(
            QCoreApplication.translate("AnnotationUi", "Export the confirmed errors only")
            if with_status
            else QCoreApplication.translate("AnnotationUi", "Export without them"),
            QMessageBox.ButtonRole.AcceptRole,
        )
        box.setDefaultButton(everything or confirmed)
        box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)

        def on_clicked(button: Any) -> None:
            self.export_question = None
            if button is everything and everything is not None:
                self._export_to(fmt, all_statuses=True)
            elif button is confirmed:
                self._export_to(fmt, all_statuses=False)

        box.buttonClicked.connect(on_clicked)
        box.rejected.connect(self._on_export_question_closed)
        self.export_question = box
        box.open()

    @Slot()
    def _on_export_question_closed(self) -> None:
        self.export_question = None

    def _export_to(self, fmt: str, *, all_statuses: bool) -> None:
        suggested = str(Path(self.folder()) / f"annotations{_EXPORT_SUFFIX.get(fmt, '.tsv')}")
        path = self.ask_path(
            self._parent(),
            QCoreApplication.translate("AnnotationUi", "Export annotations"),
            suggested,
            QCoreApplication.translate("AnnotationUi", _EXPORT_FILTERS[fmt]),
            True,
        )
        if path:
            self.transfer.export_annotations(path, fmt, all_statuses=all_statuses)

    @Slot()
    def _on_agreement(self) -> None:
        c = self.controller
        if c.workspace is None:
            return
        path = self.ask_path(
            self._parent(),
            QCoreApplication.translate(
                "AnnotationUi", "Another annotator's session of the same files"
            ),
            str(Path.home()),
            QCoreApplication.translate("AnnotationUi", "Matchlight sessions (*{0})").format(SUFFIX),
            False,
        )
        if not path:
            return
        self._agreement_path = path
        self.transfer.agreement_with(path)

    @Slot(object)
    def _on_agreement_finished(self, report: object) -> None:
        if not isinstance(report, AgreementReport):
            return
        dialog = AgreementDialog(report, self._agreement_path, self._parent())
        dialog.disagreement_chosen.connect(self._on_disagreement_chosen)
        # Beside the window: the user steps through the disagreements and edits there.
        self.show_dialog(dialog, modal=False)

    @Slot(object)
    def _on_disagreement_chosen(self, chosen: object) -> None:
        """Show a disagreement: its segment and system, this session's span selected (the
        other annotator's place when this session marked nothing there)."""
        if not isinstance(chosen, Disagreement):
            return
        span = chosen.a if chosen.a is not None else chosen.b
        if span is None:
            return
        self.review.reveal(chosen.system, chosen.segment, span.start, span.end, chosen.side)

    @Slot()
    def _on_typology(self) -> None:
        dialog = TypologyDialog(self.controller.typology, self._parent())
        dialog.typology_accepted.connect(self._on_typology_accepted)
        self.show_dialog(dialog)

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
        self.show_dialog(dialog)

    @Slot(object)
    def _on_weights_accepted(self, weights: object) -> None:
        from matchlight.core.annotation.mqm import MQMWeights

        if isinstance(weights, MQMWeights):
            self.controller.set_weights(weights)


def _default_ask_path(
    parent: QWidget, caption: str, suggested: str, file_filter: str, saving: bool
) -> str | None:
    if saving:
        path, _ = QFileDialog.getSaveFileName(parent, caption, suggested, file_filter)
    else:
        path, _ = QFileDialog.getOpenFileName(parent, caption, suggested, file_filter)
    return path or None


@dataclass(frozen=True, slots=True, eq=False)
class Annotations:
    """The annotation feature of a window: the controller and the parts around it."""

    controller: AnnotationController
    actions: AnnotationActions
    table: AnnotationTableLink
    transfer: AnnotationTransfer
    ui: AnnotationUi
    review: AnnotationReview


def install_annotations(window: QMainWindow) -> Annotations:
    """Add error annotation to ``window`` (a MainWindow, an :class:`AnnotationHost`): an
    Annotate menu (before Help), the annotation panel, and the annotation keys in the table,
    the detail pane and the panel."""
    host: AnnotationHost = window  # type: ignore[assignment]
    controller = AnnotationController(host)
    review = AnnotationReview(controller)
    actions = AnnotationActions(controller, window)
    actions.add_review(review)
    table = AnnotationTableLink(controller, host)
    transfer = AnnotationTransfer(controller)
    ui = AnnotationUi(window, controller, actions, table, transfer, review)
    menu = QMenu(QCoreApplication.translate("AnnotationUi", "&Annotate"), window)
    ui.build_menu(menu)
    bar = window.menuBar()
    help_text = QCoreApplication.translate("menus", "&Help")
    help_menu = next(
        (a for a in bar.actions() if a.menu() is not None and a.text() == help_text),
        None,
    )
    if help_menu is not None:
        bar.insertMenu(help_menu, menu)
    else:
        bar.addMenu(menu)
    for widget in (host.table_view, host.detail_pane, ui.panel):
        actions.attach_keys(widget)
    return Annotations(controller, actions, table, transfer, ui, review)
