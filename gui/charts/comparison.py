"""The main window's "Compare systems" dock: a tab per chart, linked to the table.

:class:`ComparisonDocks` is what the main window composes (one import, a few lines in
``MainWindow._build_docks``, and :meth:`ComparisonDocks.set_session` wherever the window shows
another comparison). It owns the :class:`~gui.charts.link.ChartLink` every chart shares, the
dock with the tabs (distributions, scatter, buckets, significance, what separates, references,
human agreement), a strip saying what the chart selection holds (with a button to clear it) and
warning about a reference made from one system, and the actions that load segment scores, label
columns and human judgements.

What is imported goes into core's comparison session with its source files
(:class:`~core.session.imported.ScoreImport`, :class:`~core.session.imported.LabelImport`), so a
saved session keeps it; a reopened session puts its imports back there, and the dock follows
the session's ``columns_changed`` and ``labels_changed`` signals to show them either way. Human
judgements per segment are such an import (a column with its files); judgements per system are
held by the comparison session for the Human agreement tab.
"""

from __future__ import annotations

import contextlib
from pathlib import Path
from typing import Any

import numpy as np
import shiboken6
from PySide6.QtCore import QCoreApplication, QEvent, QObject, Qt, Signal, Slot
from PySide6.QtGui import QAction
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDockWidget,
    QHBoxLayout,
    QLabel,
    QMainWindow,
    QPushButton,
    QTabWidget,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from matchlight.core.analysis.references import ReferenceAudit
from matchlight.core.io.human import HumanJudgements
from matchlight.core.io.labels import LabelColumn
from matchlight.core.io.scores import ImportedScores
from matchlight.core.session.imported import LabelImport, ScoreImport
from matchlight.gui.charts.agreement import AgreementPanel
from matchlight.gui.charts.base import ChartPanel
from matchlight.gui.charts.buckets import BucketsPanel
from matchlight.gui.charts.distributions import DistributionsPanel
from matchlight.gui.charts.humanimport import HumanImportDialog, HumanRead
from matchlight.gui.charts.imports import (
    LabelImportDialog,
    ScoreImportDialog,
    describe_scale,
    imported_column,
)
from matchlight.gui.charts.jobpanel import JobPanel
from matchlight.gui.charts.link import ChartLink
from matchlight.gui.charts.references import ReferencesPanel, SteppedAudit, audit_warning
from matchlight.gui.charts.scatter import ScatterPanel
from matchlight.gui.charts.separation import SeparationPanel
from matchlight.gui.charts.significance import SignificancePanel
from matchlight.gui.highlight.palette import is_dark_palette
from matchlight.gui.state.session import SessionModel

__all__ = ["ComparisonDocks", "ComparisonPanel"]

# The warning's colours on light and dark palettes.
_WARNING_STYLE = {
    False: "QLabel { background: #fff4ce; color: #4d3800; padding: 3px; }",
    True: "QLabel { background: #4d3c00; color: #ffe9a3; padding: 3px; }",
}
# How wide the dock is made when it is shown at a side of the window (charts need room), as
# a share of the window's width, and at most.
DOCK_SHARE = 0.5
DOCK_WIDTH = 760


class ComparisonPanel(QWidget):
    """The tabs and the strip above them (the dock's widget)."""

    def __init__(self, link: ChartLink, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        # Deleted first of the children: from then on the link's signals no longer arrive.
        self._sentinel = QObject(self)
        self._sentinel.destroyed.connect(self._on_sentinel_destroyed)
        self.link = link
        self.distributions = DistributionsPanel(link)
        self.scatter = ScatterPanel(link)
        self.buckets = BucketsPanel(link)
        self.significance = SignificancePanel(link)
        self.separation = SeparationPanel(link)
        self.references = ReferencesPanel(link)
        self.agreement = AgreementPanel(link)
        self.references.inline_warning = False  # shown above every tab (set_warning)
        self.tabs = QTabWidget()
        self.tabs.setDocumentMode(True)
        for panel in self.panels():
            self.tabs.addTab(panel, panel.title)
        self.brush_label = QLabel()
        self.brush_label.setWordWrap(True)
        self.brush_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.clear_button = QPushButton(
            QCoreApplication.translate("ComparisonDock", "Clear chart selection")
        )
        self.clear_button.setToolTip(
            QCoreApplication.translate(
                "ComparisonDock", "Show the rows the other filters keep again"
            )
        )
        self.clear_button.clicked.connect(self._on_clear_clicked)
        self.message_label = QLabel()
        self.message_label.setWordWrap(True)
        self.message_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.warning_label = QLabel()
        self.warning_label.setWordWrap(True)
        self.warning_label.setStyleSheet(_WARNING_STYLE[is_dark_palette(self.palette())])
        self.warning_label.hide()
        self.load_scores_button = QToolButton()
        self.load_labels_button = QToolButton()
        strip = QHBoxLayout()
        strip.setContentsMargins(6, 2, 6, 0)
        strip.addWidget(self.brush_label, 1)
        strip.addWidget(self.clear_button)
        strip.addWidget(self.message_label, 1)
        strip.addWidget(self.load_scores_button)
        strip.addWidget(self.load_labels_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(2)
        layout.addLayout(strip)
        layout.addWidget(self.warning_label)
        layout.addWidget(self.tabs, 1)
        link.selection_changed.connect(self._on_selection_changed)
        link.session_changed.connect(self._on_selection_changed)
        link.message.connect(self._on_message)
        self._on_selection_changed()

    @Slot()
    def _on_sentinel_destroyed(self) -> None:
        for signal, slot in (
            (self.link.selection_changed, self._on_selection_changed),
            (self.link.session_changed, self._on_selection_changed),
            (self.link.message, self._on_message),
        ):
            with contextlib.suppress(RuntimeError, TypeError):
                signal.disconnect(slot)

    @Slot(str)
    def _on_message(self, text: str) -> None:
        self.message_label.setText(text)
        self.message_label.setToolTip("")

    def changeEvent(self, event: QEvent) -> None:
        super().changeEvent(event)
        if event.type() == QEvent.Type.PaletteChange:
            self.warning_label.setStyleSheet(_WARNING_STYLE[is_dark_palette(self.palette())])

    def panels(self) -> list[ChartPanel]:
        return [
            self.distributions,
            self.scatter,
            self.buckets,
            self.significance,
            self.separation,
            self.references,
            self.agreement,
        ]

    def set_warning(self, text: str) -> None:
        """Show (or, with "", hide) a warning above every tab; the References tab is marked."""
        self.warning_label.setText(text)
        self.warning_label.setVisible(bool(text))
        index = self.tabs.indexOf(self.references)
        self.tabs.setTabText(index, f"{self.references.title} ⚠" if text else self.references.title)

    @Slot()
    def _on_selection_changed(self) -> None:
        label = self.link.brush_label()
        self.brush_label.setText(
            QCoreApplication.translate("ComparisonDock", "Chart selection — {0}").format(label)
            if label
            else ""
        )
        self.brush_label.setVisible(label is not None)
        self.clear_button.setVisible(label is not None)

    @Slot()
    def _on_clear_clicked(self) -> None:
        self.link.clear_brush()
        self.message_label.clear()


class ComparisonDocks(QObject):
    """The "Compare systems" dock of a main window, and its actions.

    ``table_view`` is the segment table (clicking a point or a segment makes its row current
    there); ``filter_bar``, when given, is told about columns added by an import (its
    ``set_metrics``). Both are used through their public Qt / duck-typed API only.

    Signals:
        column_added(str key): an imported score column joined the comparison.
        labels_added(str name): a label column was loaded.
        human_added(str id): human judgements were loaded (the Human agreement tab's id of
            them: ``column:KEY`` per segment, ``system:NAME`` per system).
        import_failed(str message)
    """

    column_added = Signal(str)
    labels_added = Signal(str)
    human_added = Signal(str)
    import_failed = Signal(str)

    def __init__(
        self,
        window: QMainWindow,
        *,
        table_view: QAbstractItemView | None = None,
        filter_bar: Any = None,
        tabify_with: QDockWidget | None = None,
        area: Qt.DockWidgetArea = Qt.DockWidgetArea.RightDockWidgetArea,
    ) -> None:
        super().__init__(window)
        self._window = window
        self._view = table_view
        self._filter_bar = filter_bar
        self.link = ChartLink(table_view=table_view, parent=self)
        self.panel = ComparisonPanel(self.link)
        self.dock = QDockWidget(
            QCoreApplication.translate("ComparisonDock", "Compare systems"), window
        )
        self.dock.setObjectName("compare-dock")
        self.dock.setWidget(self.panel)
        self.dock.setFeatures(
            QDockWidget.DockWidgetFeature.DockWidgetMovable
            | QDockWidget.DockWidgetFeature.DockWidgetClosable
            | QDockWidget.DockWidgetFeature.DockWidgetFloatable
        )
        window.addDockWidget(area, self.dock)
        if tabify_with is not None:
            # A tab next to the corpus summary, which stays in front: the window looks as
            # before until the user asks for the charts.
            window.tabifyDockWidget(tabify_with, self.dock)
            tabify_with.raise_()
        self.dock.visibilityChanged.connect(self._on_dock_visibility_changed)
        self.load_scores_action = QAction(
            QCoreApplication.translate("ComparisonDock", "Load segment &scores…"), window
        )
        self.load_scores_action.setStatusTip(
            QCoreApplication.translate(
                "ComparisonDock",
                "Add per-segment scores computed elsewhere (COMET, BLEURT, human) as a column",
            )
        )
        self.load_scores_action.triggered.connect(self._on_load_scores_triggered)
        self.load_labels_action = QAction(
            QCoreApplication.translate("ComparisonDock", "Load &label column…"), window
        )
        self.load_labels_action.setStatusTip(
            QCoreApplication.translate(
                "ComparisonDock",
                "Group segments by a label per line (domain, document) in the Buckets tab",
            )
        )
        self.load_labels_action.triggered.connect(self._on_load_labels_triggered)
        self.load_human_action = QAction(
            QCoreApplication.translate("ComparisonDock", "Load &human judgements…"), window
        )
        self.load_human_action.setStatusTip(
            QCoreApplication.translate(
                "ComparisonDock",
                "Add human judgements (per system, per segment, or MQM from error spans) to see "
                "which metric agrees with them in the Human agreement tab",
            )
        )
        self.load_human_action.triggered.connect(self._on_load_human_triggered)
        self.panel.load_scores_button.setDefaultAction(self.load_scores_action)
        self.panel.load_labels_button.setDefaultAction(self.load_labels_action)
        self.panel.agreement.load_button.setDefaultAction(self.load_human_action)
        self.panel.references.warning_changed.connect(self._on_warning_changed)
        self.audit_job = SteppedAudit(self)
        self._audit_pending = False  # the audit waits for the scoring to finish
        self.audit_job.finished.connect(self._on_audit_finished)
        self.score_dialog: ScoreImportDialog | None = None
        self.label_dialog: LabelImportDialog | None = None
        self.human_dialog: HumanImportDialog | None = None
        self._update_actions()

    # -- the comparison -------------------------------------------------------------------------

    @property
    def session(self) -> SessionModel | None:
        return self.link.session

    def actions(self) -> list[QAction]:
        """The actions for the window's File menu."""
        return [self.load_scores_action, self.load_labels_action, self.load_human_action]

    def set_session(self, session: SessionModel | None) -> None:
        """Follow the comparison ``session`` (None: nothing open)."""
        if session is self.link.session:
            return
        old = self.link.session
        if old is not None:
            for signal, slot in self._connections(old):
                with contextlib.suppress(RuntimeError, TypeError):
                    signal.disconnect(slot)
        self.link.set_session(session)
        if session is not None:
            for signal, slot in self._connections(session):
                signal.connect(slot)
            for record in session.session.label_columns():
                self.link.add_labels(record.label_column())
        self.panel.set_warning("")
        self._update_actions()
        self.audit_job.cancel()
        core = None if session is None else session.session
        self._audit_pending = core is not None and len(core.text.systems) >= 2
        self._start_audit_when_scored()

    def _start_audit_when_scored(self) -> None:
        """Audit the references (in steps, in this thread) once every row is scored: the
        first paints and the scoring's chunks come first."""
        core = self.link.core
        if not self._audit_pending or core is None:
            return
        table = core.table
        if table is None or table.n_done < table.n_segments:
            return
        self._audit_pending = False
        self.audit_job.start(core)

    @Slot(int, int)
    def _on_scores_changed(self, start: int, stop: int) -> None:
        self._start_audit_when_scored()

    def _connections(self, session: SessionModel) -> list[tuple[Any, Any]]:
        return [
            (session.columns_changed, self._on_columns_changed),
            (session.labels_changed, self._on_labels_changed),
            (session.scores_changed, self._on_scores_changed),
        ]

    def shutdown(self) -> None:
        """Stop every background computation (the window closes)."""
        self.audit_job.shutdown()
        for panel in self.panel.panels():
            panel.stop_listening()
            panel.refresh_job.shutdown()
            if isinstance(panel, JobPanel):
                panel.shutdown()

    def _update_actions(self) -> None:
        open_ = self.link.session is not None
        self.load_scores_action.setEnabled(open_)
        self.load_labels_action.setEnabled(open_)
        self.load_human_action.setEnabled(open_)

    def _start_dir(self) -> str:
        core = self.link.core
        comparison = None if core is None else core.comparison
        if comparison is None:
            return str(Path.home())
        return str(Path(comparison.references[0].path).parent)

    # -- imports --------------------------------------------------------------------------------

    def show_score_dialog(self) -> ScoreImportDialog | None:
        core = self.link.core
        if core is None:
            return None
        if self.score_dialog is not None:
            self.score_dialog.close()
            self.score_dialog.deleteLater()
        dialog = ScoreImportDialog(
            systems=core.system_names,
            n_segments=core.n_segments,
            start_dir=self._start_dir(),
            parent=self._window,
        )
        dialog.scores_read.connect(self._on_scores_read)
        self.score_dialog = dialog
        dialog.open()
        return dialog

    def show_label_dialog(self) -> LabelImportDialog | None:
        core = self.link.core
        if core is None:
            return None
        if self.label_dialog is not None:
            self.label_dialog.close()
            self.label_dialog.deleteLater()
        dialog = LabelImportDialog(
            n_segments=core.n_segments, start_dir=self._start_dir(), parent=self._window
        )
        dialog.labels_read.connect(self._on_labels_read)
        self.label_dialog = dialog
        dialog.open()
        return dialog

    def show_human_dialog(self) -> HumanImportDialog | None:
        core = self.link.core
        if core is None:
            return None
        if self.human_dialog is not None:
            self.human_dialog.close()
            self.human_dialog.deleteLater()
        dialog = HumanImportDialog(
            systems=core.system_names,
            n_segments=core.n_segments,
            start_dir=self._start_dir(),
            parent=self._window,
        )
        dialog.human_read.connect(self._on_human_read)
        self.human_dialog = dialog
        dialog.open()
        return dialog

    def add_human(self, read: HumanRead) -> str | None:
        """Add human judgements to the comparison and show them in the Human agreement tab:
        per segment as a column (kept in the session file with its files, shown in the table),
        per system in the comparison session. Returns the tab's id of them, or None (with
        :attr:`import_failed`) when they do not fit the comparison."""
        core = self.link.core
        if core is None:
            return None
        judgements = read.judgements
        notes = list(judgements.warnings)
        if read.note:
            notes.append(read.note)
        try:
            if judgements.level == "system":
                core.set_system_judgements(judgements)
                human = f"system:{judgements.name}"
            else:
                if read.record is None:
                    core.set_column(judgements.column, judgements.values)
                else:
                    core.add_imported(read.record)
                human = f"column:{judgements.column.key}"
                self._show_imported(judgements.column.key)
        except ValueError as error:
            self.import_failed.emit(str(error))
            return None
        self.link.message.emit(_human_message(judgements, notes))
        # What reading found (a system the file has and the comparison has not...): the
        # message names how many notes there are, its tooltip says them.
        self.panel.message_label.setToolTip("\n".join(notes))
        self.panel.agreement.judgements_changed(human)
        self.panel.tabs.setCurrentWidget(self.panel.agreement)
        self.human_added.emit(human)
        return human

    def add_scores(self, imported: ImportedScores) -> str | None:
        """Add ``imported`` as a column of the comparison (shown in the table, offered by the
        charts, the filters and the significance tests). Returns its key, or None (with
        :attr:`import_failed`) when it does not fit the comparison."""
        core = self.link.core
        if core is None:
            return None
        systems = core.system_names
        if not set(imported.systems) & set(systems):
            self.import_failed.emit(
                QCoreApplication.translate(
                    "ComparisonDock", "{0}: the files score none of this comparison's systems"
                ).format(imported.name)
            )
            return None
        column = imported_column(imported, core.table.column_keys)
        values = imported.aligned(systems)
        notes = list(imported.warnings)
        try:
            # Hashed now, right after the files were read: a reopened session tells whether
            # they changed since.
            record = ScoreImport.from_imported(imported, column)
        except OSError as error:
            record = None
            notes.append(
                QCoreApplication.translate(
                    "ComparisonDock",
                    "not kept in the session file: cannot read the files again ({0})",
                ).format(error)
            )
        try:
            if record is None:
                core.set_column(column, values)
            else:
                core.add_imported(record)
        except ValueError as error:
            self.import_failed.emit(str(error))
            return None
        self._show_imported(column.key)
        missing = [s for s in systems if s not in imported.systems]
        if missing:
            notes.append(
                QCoreApplication.translate("ComparisonDock", "no scores for {0}").format(
                    ", ".join(missing)
                )
            )
        finite = values[np.isfinite(values)]
        scale = describe_scale(column)
        if finite.size:
            scale = QCoreApplication.translate(
                "ComparisonDock", "values {low} to {high}; {scale}"
            ).format(low=f"{finite.min():.4g}", high=f"{finite.max():.4g}", scale=scale)
        message = QCoreApplication.translate("ComparisonDock", "Added {name} ({0}).").format(
            scale, name=imported.name
        )
        if notes:
            message += " " + "; ".join(notes) + "."
        self.link.message.emit(message)
        self.column_added.emit(column.key)
        return column.key

    def add_labels(self, labels: LabelColumn) -> None:
        """Add ``labels`` to the comparison (kept in the session file) and the Buckets tab."""
        core = self.link.core
        note = ""
        try:
            record = LabelImport.from_column(labels)
        except OSError as error:
            record = None
            note = " " + QCoreApplication.translate(
                "ComparisonDock", "It is not kept in the session file: cannot read it again ({0})."
            ).format(error)
        try:
            if record is None or core is None:
                self.link.add_labels(labels)
            else:
                core.set_labels(record)  # the link follows (labels_changed)
        except ValueError as error:
            self.import_failed.emit(str(error))
            return
        self.link.message.emit(
            QCoreApplication.translate(
                "ComparisonDock", "Loaded the label column {name} ({0:,} labels): see Buckets."
            ).format(labels.distinct, name=repr(labels.name))
            + note
        )
        self.panel.tabs.setCurrentWidget(self.panel.buckets)
        self.labels_added.emit(labels.name)

    def _show_imported(self, key: str) -> None:
        """Show an imported column in the table and offer it to the filter bar."""
        core = self.link.core
        if core is None or not core.table.has(key):
            return
        self._show_in_table(key)
        if self._filter_bar is not None and hasattr(self._filter_bar, "set_metrics"):
            self._filter_bar.set_metrics(core.table.columns)

    def _show_in_table(self, key: str) -> None:
        view = self._view
        model = None if view is None else view.model()
        source = getattr(model, "sourceModel", None)
        base = source() if callable(source) else model
        shown = getattr(base, "shown_scores", None)
        setter = getattr(base, "set_shown_scores", None)
        if isinstance(shown, tuple) and callable(setter) and key not in shown:
            setter((*shown, key))

    # -- slots ----------------------------------------------------------------------------------

    @Slot()
    def _on_load_scores_triggered(self) -> None:
        self.show_score_dialog()

    @Slot()
    def _on_load_labels_triggered(self) -> None:
        self.show_label_dialog()

    @Slot()
    def _on_load_human_triggered(self) -> None:
        self.show_human_dialog()

    @Slot(object)
    def _on_human_read(self, read: object) -> None:
        if isinstance(read, HumanRead):
            self.add_human(read)

    @Slot(object)
    def _on_scores_read(self, imported: object) -> None:
        if isinstance(imported, ImportedScores):
            self.add_scores(imported)

    @Slot(object)
    def _on_labels_read(self, labels: object) -> None:
        if isinstance(labels, LabelColumn):
            self.add_labels(labels)

    @Slot(str)
    def _on_columns_changed(self, key: str) -> None:
        # An import put back by a reopened session (one from the dialog is shown already).
        core = self.link.core
        if core is not None and any(r.key == key for r in core.imported_scores()):
            self._show_imported(key)

    @Slot(str)
    def _on_labels_changed(self, name: str) -> None:
        core = self.link.core
        if core is None:
            return
        for record in core.label_columns():
            if record.name == name:
                self.link.add_labels(record.label_column())

    @Slot(bool)
    def _on_dock_visibility_changed(self, visible: bool) -> None:
        if not visible:
            # Hidden, or the window is being destroyed (the dock hides as it goes, possibly
            # after Python's garbage collector has already cleared this object's attributes).
            return
        window = self._window
        if not shiboken6.isValid(window):
            return
        area = window.dockWidgetArea(self.dock)
        side = area in (Qt.DockWidgetArea.LeftDockWidgetArea, Qt.DockWidgetArea.RightDockWidgetArea)
        if not visible or self.dock.isFloating() or not side:
            return
        central = window.centralWidget()
        room = window.width() - (0 if central is None else central.minimumSizeHint().width())
        wanted = min(DOCK_WIDTH, int(window.width() * DOCK_SHARE), room - 8)
        if self.dock.width() < wanted:
            window.resizeDocks([self.dock], [wanted], Qt.Orientation.Horizontal)

    @Slot(object)
    def _on_audit_finished(self, audit: object) -> None:
        if isinstance(audit, ReferenceAudit):
            self.panel.set_warning(audit_warning(audit) or "")

    @Slot(str)
    def _on_warning_changed(self, text: str) -> None:
        # The References tab's audit (with similarities, on the rows shown) refines the quick
        # one; on a subset it may find nothing, and then the quick one's warning stays.
        if text:
            self.panel.set_warning(text)


def _human_message(judgements: HumanJudgements, notes: list[str]) -> str:
    """What the strip says about human judgements just loaded (short: the strip is narrow)."""
    values = judgements.values
    if judgements.level == "system":
        message = QCoreApplication.translate(
            "ComparisonDock", "Loaded {name} per system ({0} of {1} systems): see Human agreement."
        ).format(int(np.isfinite(values).sum()), len(judgements.systems), name=judgements.name)
    else:
        message = QCoreApplication.translate(
            "ComparisonDock", "Loaded {name} per segment ({0:,} judged pairs): see Human agreement."
        ).format(int(np.isfinite(values).sum()), name=judgements.name)
    if notes:
        note = (
            QCoreApplication.translate("ComparisonDock", " {0} note (hover).")
            if len(notes) == 1
            else QCoreApplication.translate("ComparisonDock", " {0} notes (hover).")
        )
        message += note.format(len(notes))
    return message
