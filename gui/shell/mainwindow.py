"""The main window: the segment table with its filter bar, the detail pane, the summary and the
comparison docks, composed.

The window builds its widgets, actions and menus and hands the work to the parts it composes:
:class:`~gui.shell.lifecycle.ComparisonLifecycle` (reading, showing in steps, scoring, resuming,
closing the comparison), :class:`~gui.shell.viewcontrol.ViewControl` (zoom, row height, theme,
highlight mode, the remembered arrangement), :class:`~gui.shell.columns.TableColumns` (columns,
menus, copying), :class:`~gui.shell.warnings.Warnings` (the banner), :class:`~gui.shell.
exports.CsvExport` and the report export, the annotation feature (:mod:`gui.annotate`) and the
session file behind it (:class:`~gui.shell.sessionfiles.SessionFiles`). It computes nothing
itself: every number shown or exported comes from :mod:`core`, and the open comparison's state
lives in its :class:`~core.session.comparison.ComparisonSession`.

Dialogs never block: errors go through an injectable ``error_sink`` (by default a window-modal
message box opened with ``open()``), and the Open/Settings dialogs are opened with ``open()``.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from PySide6.QtCore import (
    QByteArray,
    QCoreApplication,
    QEvent,
    QModelIndex,
    QSettings,
    Qt,
    QUrl,
    Signal,
    Slot,
)
from PySide6.QtGui import (
    QAction,
    QCloseEvent,
    QDragEnterEvent,
    QDropEvent,
    QResizeEvent,
)
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDockWidget,
    QFrame,
    QHeaderView,
    QLabel,
    QMainWindow,
    QMenu,
    QMessageBox,
    QPushButton,
    QScrollArea,
    QSplitter,
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)

from matchlight.core.io.inputs import Comparison
from matchlight.core.io.specs import ComparisonSpecs
from matchlight.core.scoring.config import ScoringConfig
from matchlight.core.scoring.results import ScoreTable
from matchlight.gui.annotate.install import install_annotations
from matchlight.gui.annotate.keys import annotation_shortcuts
from matchlight.gui.charts.comparison import ComparisonDocks
from matchlight.gui.charts.summary import SummaryWidget
from matchlight.gui.detail.detailpane import DetailPane
from matchlight.gui.dialogs.opendialog import OpenComparisonDialog, recognise_files, sample_specs
from matchlight.gui.dialogs.settings import SettingsDialog
from matchlight.gui.shell.about import AboutDialog, ShortcutsDialog, shortcut_rows
from matchlight.gui.shell.banner import WarningsBanner
from matchlight.gui.shell.columns import TableColumns
from matchlight.gui.shell.exports import CsvExport, SavePathProvider, default_save_path
from matchlight.gui.shell.fonts import GlyphCheck, MissingFont, qt_has_glyph
from matchlight.gui.shell.lifecycle import (
    COMPARISON_PAGE,
    READING_PAGE,
    WELCOME_PAGE,
    ComparisonLifecycle,
)
from matchlight.gui.shell.menus import build_actions, build_menus
from matchlight.gui.shell.progress import ProgressStrip
from matchlight.gui.shell.qtfix import guard_none_refcount
from matchlight.gui.shell.screenfit import place_window
from matchlight.gui.shell.sessionfiles import SessionFiles
from matchlight.gui.shell.viewcontrol import ViewControl
from matchlight.gui.shell.viewstate import ViewState
from matchlight.gui.shell.warnings import Warnings
from matchlight.gui.shell.welcome import ReadingPage, WelcomePage
from matchlight.gui.table.filterbar import FilterBar
from matchlight.gui.table.tableview import SegmentTableView
from matchlight.gui.workers.controller import ScoringController

__all__ = ["APP_NAME", "MainWindow"]

APP_NAME = "Matchlight"
GEOMETRY_KEY = "window/geometry"
STATE_KEY = "window/state"

# ``error_sink(title, message)``: shows an error to the user without blocking.
ErrorSink = Callable[[str, str], None]


def _local_paths(urls: Sequence[QUrl]) -> list[str]:
    """The local paths among dropped URLs: files, folders, and anything else that exists
    (a pipe or a device is not dropped silently: reading it says what it is)."""
    paths = [u.toLocalFile() for u in urls if u.isLocalFile()]
    return [p for p in paths if p and os.path.lexists(p)]


class MainWindow(QMainWindow):
    """Matchlight's main window.

    Signals:
        comparison_opened: a comparison was loaded and its scoring started.
        open_failed(str message): the files of a comparison could not be read (the message
            went to the error sink too).
        reading_changed(bool reading): reading the files of a comparison started, or ended
            (read, failed or cancelled).
    """

    APP_NAME = APP_NAME
    comparison_opened = Signal()
    open_failed = Signal(str)
    reading_changed = Signal(bool)

    def __init__(
        self,
        *,
        settings: QSettings | None = None,
        error_sink: ErrorSink | None = None,
        save_path_provider: SavePathProvider | None = None,
        controller: ScoringController | None = None,
        glyph_check: GlyphCheck | None = None,
        parent: QWidget | None = None,
    ) -> None:
        """``glyph_check(character)``: whether an installed font can draw it (by default
        :func:`~gui.shell.fonts.qt_has_glyph`); tests inject one."""
        super().__init__(parent)
        guard_none_refcount()
        self.settings = settings if settings is not None else QSettings()
        self._error_sink = error_sink or self._show_error_dialog
        self.save_path_provider = save_path_provider or default_save_path
        self.glyph_check: GlyphCheck = glyph_check or qt_has_glyph
        self.open_dialog: OpenComparisonDialog | None = None
        self.settings_dialog: SettingsDialog | None = None
        self._closed = False
        self.setWindowTitle(APP_NAME)
        self.setAcceptDrops(True)
        place_window(self)  # the docks are sized for the window's size

        self.controller = controller or ScoringController(self)
        self.lifecycle = ComparisonLifecycle(self, self.controller)
        self.lifecycle.comparison_opened.connect(self.comparison_opened)
        self.lifecycle.open_failed.connect(self.open_failed)
        self.lifecycle.reading_changed.connect(self.reading_changed)
        self.exports = CsvExport(self, self.save_path_provider)
        self._build_central()
        self.view = ViewControl(self)
        self.columns = TableColumns(self)
        self.warnings = Warnings(self)
        self._build_docks()
        self._build_actions()
        self._build_menus_and_toolbar()
        self._build_status_bar()
        self._connect()
        self.annotations = install_annotations(self)
        self.sessions = SessionFiles(self, self.annotations)
        self.sessions.add_file_actions(self.file_menu, before=self.quit_action)
        self.view.rebuild_highlight_actions()
        self.view.apply_zoom()
        self.update_actions()

        place_window(self, self.settings.value(GEOMETRY_KEY))
        state = self.settings.value(STATE_KEY)
        if isinstance(state, QByteArray):
            self.restoreState(state)

    # -- construction --------------------------------------------------------------------------

    def _build_central(self) -> None:
        self.banner = WarningsBanner()
        self.filter_bar = FilterBar()

        self.table_view = SegmentTableView()
        self.table_view.setObjectName("segments")
        self.table_view.setSortingEnabled(True)
        self.table_view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table_view.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table_view.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table_view.setWordWrap(True)
        self.table_view.setAlternatingRowColors(True)
        self.table_view.setHorizontalScrollMode(QAbstractItemView.ScrollMode.ScrollPerPixel)
        self.table_view.setVerticalScrollMode(QAbstractItemView.ScrollMode.ScrollPerItem)
        self.table_view.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        vheader = self.table_view.verticalHeader()
        vheader.setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        vheader.hide()  # the "#" column numbers the segments
        hheader = self.table_view.horizontalHeader()
        hheader.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        hheader.setDefaultAlignment(
            Qt.AlignmentFlag.AlignCenter | Qt.AlignmentFlag(Qt.TextFlag.TextWordWrap.value)
        )
        hheader.setMinimumHeight(2 * hheader.fontMetrics().lineSpacing() + 8)
        hheader.setHighlightSections(False)
        hheader.setSortIndicatorShown(True)
        hheader.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)

        self.detail_pane = DetailPane()
        self.detail_splitter = QSplitter(Qt.Orientation.Vertical)
        self.detail_splitter.setObjectName("detail-splitter")
        self.detail_splitter.addWidget(self.table_view)
        self.detail_splitter.addWidget(self.detail_pane)
        self.detail_splitter.setStretchFactor(0, 3)
        self.detail_splitter.setStretchFactor(1, 2)
        self.detail_splitter.setChildrenCollapsible(False)
        self.detail_splitter.setSizes([460, 340])
        # The pane scrolls its sections; what it would like as its minimum (a whole row with
        # its breakdowns, 400 pixels) left the table one row on a 720-pixel screen.
        self.detail_pane.setMinimumHeight(8 * self.detail_pane.fontMetrics().lineSpacing())
        self.table_view.setMinimumHeight(6 * self.table_view.fontMetrics().lineSpacing())

        comparison_page = QWidget()
        layout = QVBoxLayout(comparison_page)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(0)
        layout.addWidget(self.filter_bar)
        layout.addWidget(self.detail_splitter, 1)

        self.welcome = WelcomePage()
        self.reading_page = ReadingPage()
        self.pages = QStackedWidget()
        self.pages.insertWidget(WELCOME_PAGE, self.welcome)
        self.pages.insertWidget(COMPARISON_PAGE, comparison_page)
        self.pages.insertWidget(READING_PAGE, self.reading_page)

        central = QWidget()
        outer = QVBoxLayout(central)
        outer.setContentsMargins(0, 0, 0, 0)
        outer.setSpacing(0)
        outer.addWidget(self.banner)
        outer.addWidget(self.pages, 1)
        self.setCentralWidget(central)
        # Keyboard: Tab leaves the table (rows are picked with the arrows), one Tab goes from
        # the search field to the table, and Esc in the filter bar comes back.
        self.table_view.setTabKeyNavigation(False)
        self.filter_bar.set_focus_home(self.table_view)

    def _build_docks(self) -> None:
        self.summary = SummaryWidget()
        self.summary_dock = QDockWidget(
            QCoreApplication.translate("MainWindow", "Corpus summary"), self
        )
        self.summary_dock.setObjectName("summary-dock")
        # The summary scrolls where the dock is shorter than its parts' least heights (a
        # 1280×720 screen with five systems and the language note), instead of overlapping.
        summary_scroll = QScrollArea()
        summary_scroll.setWidgetResizable(True)
        summary_scroll.setFrameShape(QFrame.Shape.NoFrame)
        summary_scroll.setWidget(self.summary)
        # No wider than the summary itself asks: a vertical scroll bar takes its width from
        # the figures rather than from the window's least width.
        summary_scroll.setMinimumWidth(self.summary.minimumSizeHint().width())
        self.summary_dock.setWidget(summary_scroll)
        self.summary_dock.setFeatures(
            QDockWidget.DockWidgetFeature.DockWidgetMovable
            | QDockWidget.DockWidgetFeature.DockWidgetClosable
            | QDockWidget.DockWidgetFeature.DockWidgetFloatable
        )
        self.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, self.summary_dock)
        self.resizeDocks([self.summary_dock], [340], Qt.Orientation.Horizontal)
        # The signatures live in the summary (copyable), next to the figures they describe.
        self.signature_field = self.summary.signature_field
        # The comparison charts: a "Compare systems" tab next to the corpus summary.
        self.comparison_docks = ComparisonDocks(
            self,
            table_view=self.table_view,
            filter_bar=self.filter_bar,
            tabify_with=self.summary_dock,
        )
        # A click on a bin of the summary's histogram is a chart selection as any other.
        self.summary.rows_clicked.connect(self._on_summary_rows_clicked)
        # The reference audit's warning shows above the summary's figures too.
        self.comparison_docks.audit_job.finished.connect(self.summary.set_audit)

    @Slot(object, str)
    def _on_summary_rows_clicked(self, rows: Any, label: str) -> None:
        self.comparison_docks.link.select_rows(rows, label, owner=self.summary)

    def _build_actions(self) -> None:
        build_actions(self)

    def _build_menus_and_toolbar(self) -> None:
        build_menus(self)

    def _build_status_bar(self) -> None:
        """Progress and Cancel on the right; the left is free for messages ("Exported...")."""
        bar = self.statusBar()
        self.progress_bar = ProgressStrip()
        self.progress_label = QLabel()
        self.cancel_button = QPushButton(QCoreApplication.translate("MainWindow", "Cancel"))
        self.cancel_button.setToolTip(
            QCoreApplication.translate("MainWindow", "Stop scoring; the rows scored so far stay")
        )
        self.cancel_button.clicked.connect(self._on_cancel_clicked)
        self.resume_button = QPushButton(QCoreApplication.translate("MainWindow", "Resume scoring"))
        self.resume_button.setToolTip(
            QCoreApplication.translate(
                "MainWindow", "Score the rows left when scoring was cancelled"
            )
        )
        self.resume_button.clicked.connect(self.resume_scoring)
        bar.addPermanentWidget(self.progress_label)
        bar.addPermanentWidget(self.progress_bar)
        bar.addPermanentWidget(self.cancel_button)
        bar.addPermanentWidget(self.resume_button)
        for widget in (self.progress_bar, self.progress_label, self.cancel_button):
            widget.hide()
        self.resume_button.hide()

    def _connect(self) -> None:
        """Signals between the widgets and the parts of the window."""
        lifecycle = self.lifecycle
        self.filter_bar.filters_applied.connect(lifecycle.schedule_refresh)
        self.detail_pane.mode_changed.connect(self.view.on_detail_mode_changed)
        self.welcome.open_requested.connect(self._on_open_triggered)
        self.welcome.sample_requested.connect(self._on_open_sample_triggered)
        self.reading_page.cancel_requested.connect(self.cancel_reading)

    # -- what the window shows (read-only views of its parts) ----------------------------------

    @property
    def session(self) -> Any:
        """The open comparison's SessionModel (None: nothing open)."""
        return self.lifecycle.session

    @property
    def model(self) -> Any:
        return self.lifecycle.model

    @property
    def proxy(self) -> Any:
        return self.lifecycle.proxy

    @property
    def detail_cache(self) -> Any:
        return self.lifecycle.detail_cache

    @property
    def delegate(self) -> Any:
        return self.lifecycle.delegate

    @property
    def config(self) -> ScoringConfig:
        return self.lifecycle.config

    @property
    def comparison(self) -> Comparison | None:
        core = self.lifecycle.core
        return None if core is None else core.comparison

    @property
    def specs(self) -> ComparisonSpecs | None:
        core = self.lifecycle.core
        return None if core is None else core.specs

    @property
    def table(self) -> ScoreTable | None:
        return self.lifecycle.table

    @property
    def highlight_mode(self) -> str:
        return self.view.mode

    @property
    def highlight_actions(self) -> dict[str, QAction]:
        return self.view.highlight_actions

    @property
    def theme(self) -> str:
        return self.view.theme

    @property
    def zoom(self) -> int:
        return self.view.zoom

    @property
    def row_lines(self) -> int:
        return self.view.row_lines

    def is_reading(self) -> bool:
        """Whether the files of a comparison are being read right now."""
        return self.lifecycle.is_reading()

    def is_opening(self) -> bool:
        """Whether a comparison read whole is still being shown (``comparison_opened``
        follows)."""
        return self.lifecycle.is_opening()

    def revealing(self) -> bool:
        return self.lifecycle.revealing()

    def missing_fonts(self) -> list[MissingFont]:
        """The scripts of the open comparison that no installed font draws."""
        return list(self.lifecycle.missing_fonts)

    def current_segment(self) -> int | None:
        index = self.table_view.currentIndex()
        proxy = self.proxy
        if not index.isValid() or proxy is None:
            return None
        return proxy.mapToSource(index).row()

    def recent_specs(self) -> list[ComparisonSpecs]:
        """The remembered comparisons, most recent first."""
        return self.recent.entries()

    # -- what the window does (the parts do it) ------------------------------------------------

    def open_specs(self, specs: ComparisonSpecs) -> bool:
        """Read ``specs``'s files in the background, then show them (see the lifecycle)."""
        return self.lifecycle.open_specs(specs)

    @Slot()
    def cancel_reading(self) -> None:
        self.lifecycle.cancel_reading()

    def set_comparison(self, comparison: Comparison, specs: ComparisonSpecs | None = None) -> None:
        self.lifecycle.set_comparison(comparison, specs)

    def apply_config(self, config: ScoringConfig) -> None:
        """Rescore the open comparison with ``config`` (it belongs to this comparison)."""
        self.lifecycle.apply_config(config)

    def resume_scoring(self) -> None:
        self.lifecycle.resume_scoring()

    def export_csv(self, path: str | Path, *, filtered: bool = False) -> Path | None:
        return self.exports.export_csv(path, filtered=filtered)

    def set_theme(self, theme: str) -> None:
        self.view.set_theme(theme)

    def set_zoom(self, steps: int) -> None:
        self.view.set_zoom(steps)

    @Slot()
    def zoom_in(self) -> None:
        self.view.set_zoom(self.view.zoom + 1)

    @Slot()
    def zoom_out(self) -> None:
        self.view.set_zoom(self.view.zoom - 1)

    @Slot()
    def zoom_reset(self) -> None:
        self.view.set_zoom(0)

    def set_row_lines(self, lines: int) -> None:
        self.view.set_row_lines(lines)

    def view_state(self) -> ViewState:
        return self.view.state()

    def set_shown_scores(self, keys: Sequence[str]) -> None:
        self.columns.set_shown_scores(keys)

    def column_menu(self) -> QMenu:
        return self.columns.column_menu()

    def table_menu(self, index: QModelIndex) -> QMenu:
        return self.columns.table_menu(index)

    def filter_worse_rows(self, system: int, metric: str | None = None) -> None:
        self.columns.filter_worse_rows(system, metric)

    def row_text(self, segment: int) -> str:
        return self.columns.row_text(segment)

    @Slot()
    def copy_current_row(self) -> None:
        self.columns.copy_current_row()

    def show_open_dialog(
        self, specs: ComparisonSpecs | None = None, left_out: Sequence[tuple[str, str]] = ()
    ) -> OpenComparisonDialog:
        """Open the Open-comparison dialog (non-blocking), optionally prefilled; ``left_out``
        names dropped files that are not part of ``specs``."""
        if self.open_dialog is not None:
            self.open_dialog.close()
            self.open_dialog.deleteLater()
        dialog = OpenComparisonDialog(specs, self, read=self.lifecycle.reader, left_out=left_out)
        dialog.accepted.connect(self._on_open_dialog_accepted)
        self.open_dialog = dialog
        dialog.open()
        return dialog

    def show_settings_dialog(self, *, focus_separator: bool = False) -> SettingsDialog:
        """Open the settings dialog (non-blocking)."""
        if self.settings_dialog is not None:
            self.settings_dialog.close()
            self.settings_dialog.deleteLater()
        dialog = SettingsDialog(self.config, self)
        core = self.lifecycle.core
        dialog.set_nrefs(len(core.text.references) if core is not None else 1)
        dialog.config_applied.connect(self._on_config_applied)
        self.settings_dialog = dialog
        dialog.open()
        if focus_separator:
            dialog.panel.focus_lsum_separator()
        return dialog

    def report_error(self, title: str, message: str) -> None:
        """Show an error without blocking (through the injected sink)."""
        self._error_sink(title, message)

    # -- the window's own widgets --------------------------------------------------------------

    def set_systems(self, names: Sequence[str], baseline: int) -> None:
        """The toolbar's baseline and "reference matches of" choices for a new comparison."""
        self.baseline_combo.blockSignals(True)
        self.baseline_combo.clear()
        self.baseline_combo.addItems(list(names))
        self.baseline_combo.setCurrentIndex(baseline)
        self.baseline_combo.blockSignals(False)
        self.baseline_combo.setEnabled(len(names) > 1)
        self.ref_system_combo.blockSignals(True)
        self.ref_system_combo.clear()
        self.ref_system_combo.addItem(QCoreApplication.translate("MainWindow", "any system"), -1)
        for i, name in enumerate(names):
            self.ref_system_combo.addItem(name, i)
        self.ref_system_combo.blockSignals(False)

    def show_progress(self, table: ScoreTable | None, *, started: bool = False) -> None:
        """Scoring's progress in the status bar (the whole comparison's count)."""
        done = table.n_done if table is not None else 0
        total = table.n_segments if table is not None else 0
        self.progress_bar.setRange(0, max(1, total))
        self.progress_bar.setValue(done)
        self.progress_label.setText(
            QCoreApplication.translate("MainWindow", "Scoring {done:,} / {total:,}").format(
                done=done, total=total
            )
        )
        if started:
            self.progress_bar.show()
            self.progress_label.show()
            self.cancel_button.show()
            self.statusBar().showMessage(QCoreApplication.translate("MainWindow", "Scoring…"))

    def end_progress(self, message: str, *, reading: bool) -> None:
        self.progress_bar.hide()
        if not reading:
            self.progress_label.hide()
            self.cancel_button.hide()
        self.statusBar().showMessage(message, 10_000)

    def update_actions(self) -> None:
        table, running = self.table, self.controller.running
        has_rows = table is not None and self.comparison is not None and table.n_done > 0
        ready = has_rows and (table.complete or not running)  # type: ignore[union-attr]
        ready = ready and not self.lifecycle.showing_part()  # not the first rows alone
        self.export_all_action.setEnabled(ready)
        self.export_filtered_action.setEnabled(ready)
        self.report_export.set_available(ready and table is not None and table.complete)
        self.cancel_action.setEnabled(running)
        resumable = table is not None and not running and not table.complete
        self.resume_action.setEnabled(resumable)
        self.resume_button.setVisible(resumable)
        self.copy_row_action.setEnabled(self.model is not None)

    # -- slots ---------------------------------------------------------------------------------

    @Slot(object, str)
    def _on_summary_rows_clicked(self, rows: Any, label: str) -> None:
        self.comparison_docks.link.select_rows(rows, label, owner=self.summary)

    @Slot()
    def _on_cancel_clicked(self) -> None:
        if self.lifecycle.is_reading():
            self.cancel_reading()
        else:
            self.controller.cancel()

    @Slot()
    def _on_open_triggered(self) -> None:
        self.show_open_dialog(self.specs)

    @Slot()
    def _on_open_sample_triggered(self) -> None:
        self.open_specs(sample_specs())

    @Slot()
    def _on_open_dialog_accepted(self) -> None:
        dialog = self.open_dialog
        if dialog is None:
            return
        comparison = dialog.comparison()
        if comparison is None:
            return
        self.lifecycle.prepare_with(dialog.loaded())
        self.set_comparison(comparison, dialog.specs())

    @Slot(object)
    def _on_recent_requested(self, specs: object) -> None:
        if isinstance(specs, ComparisonSpecs):
            self.open_specs(specs)

    @Slot()
    def _on_settings_triggered(self) -> None:
        self.show_settings_dialog()

    @Slot(object)
    def _on_config_applied(self, config: object) -> None:
        if isinstance(config, ScoringConfig):
            self.apply_config(config)

    @Slot()
    def _on_find_triggered(self) -> None:
        self.filter_bar.focus_search()

    @Slot()
    def _on_shortcuts_triggered(self) -> None:
        actions = [
            self.open_action,
            self.export_all_action,
            self.export_filtered_action,
            self.export_report_action,
            self.settings_action,
            self.find_action,
            self.copy_row_action,
            *self.highlight_actions.values(),
            self.zoom_in_action,
            self.zoom_out_action,
            self.zoom_reset_action,
            self.shortcuts_action,
            self.quit_action,
        ]
        rows = shortcut_rows(actions)
        rows.append(
            (
                QCoreApplication.translate("MainWindow", "Move between rows"),
                QCoreApplication.translate("MainWindow", "Up / Down, Page Up / Page Down"),
            )
        )
        dialog = ShortcutsDialog(
            rows,
            self,
            sections=[
                (QCoreApplication.translate("MainWindow", "Annotation"), annotation_shortcuts())
            ],
        )
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.open()

    @Slot()
    def _on_about_triggered(self) -> None:
        dialog = AboutDialog(self)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.open()

    @Slot(int)
    def _on_ref_system_changed(self, index: int) -> None:
        data = self.ref_system_combo.itemData(index) if index >= 0 else -1
        system = data if isinstance(data, int) and data >= 0 else None
        if self.delegate is not None:
            self.delegate.set_reference_system(system)
        self.detail_pane.set_reference_system(system)

    @Slot(int)
    def _on_baseline_changed(self, index: int) -> None:
        core = self.lifecycle.core
        if core is not None and index >= 0:
            core.set_baseline(index)
            self.filter_bar.reapply()
            self.view.schedule_save()

    def _show_error_dialog(self, title: str, message: str) -> None:
        box = QMessageBox(
            QMessageBox.Icon.Critical, title, message, QMessageBox.StandardButton.Ok, self
        )
        box.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        box.open()

    # -- events --------------------------------------------------------------------------------

    def dragEnterEvent(self, event: QDragEnterEvent) -> None:
        if _local_paths(event.mimeData().urls()):
            event.acceptProposedAction()
        else:
            event.ignore()

    def dragMoveEvent(self, event: Any) -> None:
        if _local_paths(event.mimeData().urls()):
            event.acceptProposedAction()
        else:
            event.ignore()

    def dropEvent(self, event: QDropEvent) -> None:
        paths = _local_paths(event.mimeData().urls())
        if not paths:
            event.ignore()
            return
        event.acceptProposedAction()
        found = recognise_files(paths)
        self.show_open_dialog(found.specs, found.left_out)

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self.banner.refit()  # its share of the height changed

    def changeEvent(self, event: QEvent) -> None:
        if event.type() in (QEvent.Type.ApplicationPaletteChange, QEvent.Type.PaletteChange):
            self.banner.refresh_colours()  # it has a style sheet: Qt does not tell it
        super().changeEvent(event)

    def closeEvent(self, event: QCloseEvent) -> None:
        if not self._closed:
            self._closed = True
            self.sessions.close_session()
            self.lifecycle.cancel_reading()  # the read's thread is a daemon: nothing waits
            self.view.save()
            self.settings.setValue(GEOMETRY_KEY, self.saveGeometry())
            self.settings.setValue(STATE_KEY, self.saveState())
            self.settings.sync()
            self.comparison_docks.shutdown()
            self.summary.shutdown()
            self.lifecycle.shutdown()
        event.accept()
