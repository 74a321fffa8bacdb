"""The main window: the segment table with its filter bar, the detail pane, and the summary.

The window composes the pieces and wires them together; it computes nothing itself. Scoring runs
in :class:`~gui.workers.controller.ScoringController`; texts are read by
:mod:`core.io.inputs` in a :class:`~gui.workers.loader.BackgroundCall` (cancellable, the event
loop running as usual); every number shown or exported comes from :mod:`core`.

Dialogs never block: errors go through an injectable ``error_sink`` (by default a window-modal
message box opened with ``open()``), and the Open/Settings dialogs are opened with ``open()``.
Showing a comparison either completes or leaves nothing of it behind (see
:meth:`MainWindow.set_comparison`), so a failure never leaves one comparison's figures next to
another's table. View state (theme, zoom, row height, and per comparison the columns, the
highlight mode and the baseline) is remembered in QSettings; scoring settings never are.
"""

from __future__ import annotations

import gc
import logging
import os
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np
from PySide6.QtCore import (
    QByteArray,
    QEvent,
    QModelIndex,
    QPoint,
    QSettings,
    Qt,
    QTimer,
    QUrl,
    Signal,
    Slot,
)
from PySide6.QtGui import (
    QAction,
    QActionGroup,
    QCloseEvent,
    QDragEnterEvent,
    QDropEvent,
    QFont,
    QGuiApplication,
    QKeySequence,
    QResizeEvent,
)
from PySide6.QtWidgets import (
    QAbstractItemView,
    QApplication,
    QComboBox,
    QDockWidget,
    QFileDialog,
    QHeaderView,
    QLabel,
    QMainWindow,
    QMenu,
    QMessageBox,
    QPushButton,
    QSplitter,
    QStackedWidget,
    QStyledItemDelegate,
    QVBoxLayout,
    QWidget,
)

from matchlight.core.analysis.textsearch import SearchColumn
from matchlight.core.io.export import comparison_inputs, write_csv
from matchlight.core.io.inputs import Comparison, InputError
from matchlight.core.scoring.advice import Advice, TextProfile, profile_references, scoring_advice
from matchlight.core.scoring.config import ScoringConfig
from matchlight.core.scoring.detail import RowDetail
from matchlight.core.scoring.engine import empty_table
from matchlight.core.scoring.results import ScoreChunk, ScoreTable
from matchlight.core.session.comparison import ComparisonSession
from matchlight.core.text.corpus import CorpusText
from matchlight.gui.annotate.install import install_annotations
from matchlight.gui.annotate.keys import annotation_shortcuts
from matchlight.gui.charts.comparison import ComparisonDocks
from matchlight.gui.charts.summary import SummaryWidget
from matchlight.gui.detail.detailpane import DetailPane
from matchlight.gui.dialogs.opendialog import (
    ComparisonSpecs,
    OpenComparisonDialog,
    recognise_files,
    sample_specs,
)
from matchlight.gui.dialogs.settings import SettingsDialog
from matchlight.gui.highlight.detailcache import DetailCache, compute_ahead
from matchlight.gui.shell.about import AboutDialog, ShortcutsDialog, shortcut_rows
from matchlight.gui.shell.banner import BannerItem, WarningsBanner
from matchlight.gui.shell.celltext import CellTextDialog, cell_value, row_as_tsv
from matchlight.gui.shell.fonts import (
    GlyphCheck,
    MissingFont,
    font_advice,
    missing_fonts,
    qt_has_glyph,
    script_samples,
)
from matchlight.gui.shell.progress import ProgressStrip
from matchlight.gui.shell.qtfix import guard_none_refcount
from matchlight.gui.shell.recent import RecentComparisons
from matchlight.gui.shell.reportexport import ReportExporter
from matchlight.gui.shell.theme import THEME_KEY, THEMES, apply_theme, stored_theme
from matchlight.gui.shell.viewstate import ViewState, ViewStateStore, column_id
from matchlight.gui.shell.welcome import ReadingPage, WelcomePage
from matchlight.gui.state.session import SessionModel
from matchlight.gui.table.delegate import HighlightDelegate
from matchlight.gui.table.filterbar import FilterBar
from matchlight.gui.table.model import TEXT_KINDS, SegmentTableModel
from matchlight.gui.table.proxy import SegmentFilterProxy
from matchlight.gui.table.tableview import SegmentTableView
from matchlight.gui.workers.controller import (
    ScoringController,
    release_long_lived,
    settle_long_lived,
)
from matchlight.gui.workers.loader import BackgroundCall, ReadCancelled

log = logging.getLogger(__name__)

APP_NAME = "Matchlight"
GEOMETRY_KEY = "window/geometry"
STATE_KEY = "window/state"
ZOOM_KEY = "view/zoom"
ROW_LINES_KEY = "view/row_lines"
#: Rows whose highlight detail is computed while the files are read: a screenful, so that the
#: table is painted once with its highlights when it appears (not plain, then again).
FIRST_SCREEN_ROWS = 64
#: How long after the table's first paint was scheduled the detail pane is filled.
REVEAL_DETAIL_MS = 30
#: Zoom steps (points added to the table's and the detail pane's font), and their bounds.
ZOOM_RANGE = (-4, 16)
#: The row heights on offer, in lines of text.
ROW_LINES = (2, 4, 8)
#: How long view-state changes are collected before they are saved.
VIEW_SAVE_MS = 400
#: Pages of the central stack.
WELCOME_PAGE, COMPARISON_PAGE, READING_PAGE = 0, 1, 2

#: ``error_sink(title, message)``: shows an error to the user without blocking.
ErrorSink = Callable[[str, str], None]
#: ``save_path_provider(parent, caption, suggested) -> path or None``.
SavePathProvider = Callable[[QWidget, str, str], "str | None"]


# -- helpers -----------------------------------------------------------------------------------


def comparison_name(specs: ComparisonSpecs | None, comparison: Comparison) -> str:
    """A short name for titles: the folder of the first reference (else its stem)."""
    path = Path(comparison.references[0].path)
    if specs is not None and specs.references:
        path = Path(specs.references[0].path)
    return path.parent.name or path.stem


def _default_save_path(parent: QWidget, caption: str, suggested: str) -> str | None:
    path, _ = QFileDialog.getSaveFileName(parent, caption, suggested, "CSV files (*.csv)")
    return path or None


def _rows(count: int) -> str:
    return f"{count:,} {'row' if count == 1 else 'rows'}"


# -- the window --------------------------------------------------------------------------------


class MainWindow(QMainWindow):
    """Matchlight's main window.

    Signals:
        comparison_opened: a comparison was loaded and its scoring started.
        open_failed(str message): the files of a comparison could not be read (the message
            went to the error sink too).
        reading_changed(bool reading): reading the files of a comparison started, or ended
            (read, failed or cancelled).
    """

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
        self._save_path = save_path_provider or _default_save_path
        self._glyph_check = glyph_check or qt_has_glyph
        # Settings belong to a comparison: each new one starts from the defaults.
        self._config = ScoringConfig()
        self.session: SessionModel | None = None
        self._comparison: Comparison | None = None
        self._specs: ComparisonSpecs | None = None
        self._text: CorpusText | None = None
        self._source: tuple[str, ...] | None = None
        self._profile: TextProfile | None = None
        self._missing_fonts: list[MissingFont] = []
        self._dismissed: set[str] = set()
        self._advice: dict[str, Advice] = {}
        self._pending_detail: int | None = None
        # What was prepared while the files of the comparison being opened were read.
        self._prepared: _Prepared | None = None
        self._read_call: BackgroundCall | None = None
        self._reading_specs: ComparisonSpecs | None = None
        self._mode = self._config.highlight_modes()[0].key
        self._closed = False
        self._restoring = False  # applying a remembered view state: nothing to save
        self._view_store = ViewStateStore(self.settings)
        self.model: SegmentTableModel | None = None
        self.proxy: SegmentFilterProxy | None = None
        self.detail_cache: DetailCache | None = None
        self.open_dialog: OpenComparisonDialog | None = None
        self.settings_dialog: SettingsDialog | None = None
        self._zoom = _stored_int(self.settings, ZOOM_KEY, 0, *ZOOM_RANGE)
        lines = _stored_int(self.settings, ROW_LINES_KEY, ROW_LINES[0], 1, 99)
        self._row_lines = lines if lines in ROW_LINES else ROW_LINES[0]
        self._theme = stored_theme(self.settings)

        self.setWindowTitle(APP_NAME)
        self.setAcceptDrops(True)
        self.resize(1400, 900)

        self.controller = controller or ScoringController(self)
        self.controller.scoring_started.connect(self._on_scoring_started)
        self.controller.progress_changed.connect(self._on_progress_changed)
        self.controller.chunk_ready.connect(self._on_chunk_ready)
        self.controller.scoring_finished.connect(self._on_scoring_finished)
        self.controller.scoring_cancelled.connect(self._on_scoring_cancelled)
        self.controller.scoring_failed.connect(self._on_scoring_failed)

        self._base_font = QFont(QApplication.font())
        self._build_central()
        self._build_docks()
        self._build_actions()
        self._build_menus_and_toolbar()
        self._build_status_bar()
        self._apply_zoom()
        self._update_actions()

        self._refresh_timer = QTimer(self)
        self._refresh_timer.setSingleShot(True)
        self._refresh_timer.setInterval(120)
        self._refresh_timer.timeout.connect(self._on_refresh_timeout)
        self._view_timer = QTimer(self)
        self._view_timer.setSingleShot(True)
        self._view_timer.setInterval(VIEW_SAVE_MS)
        self._view_timer.timeout.connect(self._save_view_state)
        # Showing a new comparison, in steps (see _reveal_next).
        self._reveal_steps: list[tuple[int, Callable[[], None]]] = []
        self._reveal_timer = QTimer(self)
        self._reveal_timer.setSingleShot(True)
        self._reveal_timer.timeout.connect(self._reveal_next)

        geometry = self.settings.value(GEOMETRY_KEY)
        if isinstance(geometry, QByteArray):
            self.restoreGeometry(geometry)
        state = self.settings.value(STATE_KEY)
        if isinstance(state, QByteArray):
            self.restoreState(state)
        if self._theme != "system":
            apply_theme(self._theme)

    # -- construction --------------------------------------------------------------------------

    def _build_central(self) -> None:
        self.banner = WarningsBanner()
        self.banner.action_requested.connect(self._on_banner_action_requested)
        self.banner.dismissed.connect(self._on_banner_dismissed)
        self.filter_bar = FilterBar()
        self.filter_bar.filters_applied.connect(self._on_filters_applied)

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
        self.table_view.customContextMenuRequested.connect(self._on_table_menu_requested)
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
        hheader.customContextMenuRequested.connect(self._on_header_menu_requested)
        hheader.sectionResized.connect(self._on_section_resized)
        # The delegate needs a detail cache, so it is made with the first comparison.
        self.delegate: HighlightDelegate | None = None

        self.detail_pane = DetailPane()
        self.detail_pane.mode_changed.connect(self._on_detail_mode_changed)
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
        self.welcome.open_requested.connect(self._on_open_triggered)
        self.welcome.sample_requested.connect(self._on_open_sample_triggered)
        self.reading_page = ReadingPage()
        self.reading_page.cancel_requested.connect(self.cancel_reading)
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

    def _row_height(self) -> int:
        metrics = self.table_view.fontMetrics()
        return self._row_lines * metrics.lineSpacing() + 8

    def _build_docks(self) -> None:
        self.summary = SummaryWidget()
        self.summary_dock = QDockWidget("Corpus summary", self)
        self.summary_dock.setObjectName("summary-dock")
        self.summary_dock.setWidget(self.summary)
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

    @Slot(object, str)
    def _on_summary_rows_clicked(self, rows: Any, label: str) -> None:
        self.comparison_docks.link.select_rows(rows, label, owner=self.summary)

    def _action(
        self, text: str, slot: Callable[[], None], shortcut: Any = None, tip: str = ""
    ) -> QAction:
        action = QAction(text, self)
        if isinstance(shortcut, list | tuple):
            action.setShortcuts([QKeySequence(s) for s in shortcut])
        elif shortcut is not None:
            action.setShortcut(QKeySequence(shortcut))
        if tip:
            action.setStatusTip(tip)
            action.setToolTip(tip)
        action.triggered.connect(slot)
        return action

    def _build_actions(self) -> None:
        sk = QKeySequence.StandardKey
        self.open_action = self._action(
            "&Open comparison…",
            self._on_open_triggered,
            sk.Open,
            "Choose source, references and system outputs",
        )
        self.open_sample_action = self._action(
            "Open the &sample",
            self._on_open_sample_triggered,
            None,
            "The bundled German→English sample",
        )
        self.export_all_action = self._action(
            "&Export CSV (all rows)…",
            self._on_export_all_triggered,
            "Ctrl+E",
            "Per-sentence scores of every row, as matchlight score --csv writes them",
        )
        self.export_filtered_action = self._action(
            "Export CSV (&filtered rows)…",
            self._on_export_filtered_triggered,
            "Ctrl+Shift+E",
            "Per-sentence scores of the rows the filter keeps",
        )
        self.report_export = ReportExporter(
            self,
            parent=self,
            ask_path=None if self._save_path is _default_save_path else self._save_path,
            name=self._report_name,
        )
        self.export_report_action = self.report_export.action
        self.settings_action = self._action(
            "Scoring &settings…",
            self._on_settings_triggered,
            "Ctrl+,",
            "Tokenizers, smoothing, ROUGE options",
        )
        self.cancel_action = self._action(
            "&Cancel scoring", self.controller.cancel, None, "Stop scoring; keep the rows so far"
        )
        self.resume_action = self._action(
            "&Resume scoring",
            self.resume_scoring,
            None,
            "Score the rows left when scoring was cancelled",
        )
        self.quit_action = self._action("&Quit", self.close, sk.Quit)
        self.find_action = self._action(
            "&Find…", self._on_find_triggered, sk.Find, "Search the texts"
        )
        self.addAction(self.find_action)
        self.copy_row_action = self._action(
            "&Copy row",
            self.copy_current_row,
            sk.Copy,
            "Copy the current row, every column, tab-separated with a header line",
        )
        self.copy_row_action.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        self.table_view.addAction(self.copy_row_action)
        self.zoom_in_action = self._action(
            "Zoom &in", self.zoom_in, [sk.ZoomIn, "Ctrl+="], "Larger text in the table and pane"
        )
        self.zoom_out_action = self._action(
            "Zoom &out", self.zoom_out, sk.ZoomOut, "Smaller text in the table and pane"
        )
        self.zoom_reset_action = self._action(
            "&Actual size", self.zoom_reset, "Ctrl+0", "The application's text size"
        )
        self.shortcuts_action = self._action(
            "&Keyboard shortcuts", self._on_shortcuts_triggered, "Ctrl+F1"
        )
        self.about_action = self._action("&About Matchlight", self._on_about_triggered)
        self.highlight_group = QActionGroup(self)
        self.highlight_group.setExclusive(True)
        self.highlight_group.triggered.connect(self._on_highlight_triggered)
        self.highlight_actions: dict[str, QAction] = {}
        self.theme_group = QActionGroup(self)
        self.theme_group.setExclusive(True)
        self.theme_actions: dict[str, QAction] = {}
        for key, label in THEMES.items():
            action = QAction(label, self.theme_group)
            action.setCheckable(True)
            action.setChecked(key == self._theme)
            action.setData(key)
            self.theme_actions[key] = action
        self.theme_group.triggered.connect(self._on_theme_triggered)
        self.row_lines_group = QActionGroup(self)
        self.row_lines_group.setExclusive(True)
        self.row_lines_actions: dict[int, QAction] = {}
        for lines in ROW_LINES:
            action = QAction(f"{lines} lines of text", self.row_lines_group)
            action.setCheckable(True)
            action.setChecked(lines == self._row_lines)
            action.setData(lines)
            self.row_lines_actions[lines] = action
        self.row_lines_group.triggered.connect(self._on_row_lines_triggered)

    def _build_menus_and_toolbar(self) -> None:
        menu = self.menuBar()
        file_menu = menu.addMenu("&File")
        file_menu.addAction(self.open_action)
        self.recent = RecentComparisons(self.settings, self)
        self.recent.open_requested.connect(self._on_recent_requested)
        self.recent_menu = self.recent.menu
        file_menu.addMenu(self.recent_menu)
        file_menu.addAction(self.open_sample_action)
        file_menu.addSeparator()
        file_menu.addAction(self.export_all_action)
        file_menu.addAction(self.export_filtered_action)
        file_menu.addAction(self.export_report_action)
        file_menu.addSeparator()
        for action in self.comparison_docks.actions():  # load segment scores, label columns
            file_menu.addAction(action)
        file_menu.addSeparator()
        file_menu.addAction(self.quit_action)
        edit_menu = menu.addMenu("&Edit")
        edit_menu.addAction(self.copy_row_action)
        edit_menu.addAction(self.find_action)
        view_menu = menu.addMenu("&View")
        self.highlight_menu = view_menu.addMenu("&Highlight")
        self.row_lines_menu = view_menu.addMenu("&Row height")
        for action in self.row_lines_actions.values():
            self.row_lines_menu.addAction(action)
        view_menu.addSeparator()
        view_menu.addAction(self.zoom_in_action)
        view_menu.addAction(self.zoom_out_action)
        view_menu.addAction(self.zoom_reset_action)
        view_menu.addSeparator()
        self.theme_menu = view_menu.addMenu("&Theme")
        for action in self.theme_actions.values():
            self.theme_menu.addAction(action)
        view_menu.addSeparator()
        view_menu.addAction(self.summary_dock.toggleViewAction())
        view_menu.addAction(self.comparison_docks.dock.toggleViewAction())
        scoring_menu = menu.addMenu("&Scoring")
        scoring_menu.addAction(self.settings_action)
        scoring_menu.addAction(self.cancel_action)
        scoring_menu.addAction(self.resume_action)
        help_menu = menu.addMenu("&Help")
        help_menu.addAction(self.shortcuts_action)
        help_menu.addAction(self.about_action)
        # Error annotation and session files: File entries, Annotate menu, panel, keys.
        self.annotations = install_annotations(self, file_menu, specs_type=ComparisonSpecs)

        toolbar = self.addToolBar("Main")
        toolbar.setObjectName("main-toolbar")
        toolbar.setMovable(False)
        toolbar.addAction(self.open_action)
        toolbar.addAction(self.export_all_action)
        toolbar.addAction(self.settings_action)
        toolbar.addSeparator()
        toolbar.addWidget(QLabel(" Highlight: "))
        self._highlight_anchor = toolbar.addSeparator()
        toolbar.addWidget(QLabel(" Baseline: "))
        self.baseline_combo = QComboBox()
        self.baseline_combo.setToolTip("The system the Δ columns compare against")
        self.baseline_combo.setMinimumContentsLength(12)
        self.baseline_combo.setSizeAdjustPolicy(
            QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon
        )
        self.baseline_combo.currentIndexChanged.connect(self._on_baseline_changed)
        toolbar.addWidget(self.baseline_combo)
        toolbar.addWidget(QLabel("  Reference matches of: "))
        self.ref_system_combo = QComboBox()
        self.ref_system_combo.setToolTip(
            "Whose matches the reference cells show: any system, or one system"
        )
        self.ref_system_combo.addItem("any system", -1)
        self.ref_system_combo.setMinimumContentsLength(12)
        self.ref_system_combo.setSizeAdjustPolicy(
            QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon
        )
        self.ref_system_combo.currentIndexChanged.connect(self._on_ref_system_changed)
        toolbar.addWidget(self.ref_system_combo)
        self.toolbar = toolbar
        self._rebuild_highlight_actions()

    @Slot()
    def _rebuild_highlight_actions(self) -> None:
        """One checkable action per highlight mode of the current settings (Ctrl+1, Ctrl+2...)."""
        modes = self._config.highlight_modes()
        keys = [m.key for m in modes]
        if keys == list(self.highlight_actions):
            return
        for action in self.highlight_actions.values():
            self.highlight_group.removeAction(action)
            self.toolbar.removeAction(action)
            self.highlight_menu.removeAction(action)
            action.deleteLater()
        self.highlight_actions = {}
        if self._mode not in keys:
            self._mode = keys[0]
        for n, mode in enumerate(modes, start=1):
            action = QAction(mode.label, self.highlight_group)
            action.setCheckable(True)
            action.setChecked(mode.key == self._mode)
            action.setData(mode.key)
            if n <= 9:
                action.setShortcut(QKeySequence(f"Ctrl+{n}"))
            action.setToolTip(f"Highlight {mode.label}")
            self.highlight_actions[mode.key] = action
            self.toolbar.insertAction(self._highlight_anchor, action)
            self.highlight_menu.addAction(action)
        self._set_mode(self._mode)

    def _build_status_bar(self) -> None:
        """Progress and Cancel on the right; the left is free for messages ("Exported...")."""
        bar = self.statusBar()
        self.progress_bar = ProgressStrip()
        self.progress_label = QLabel()
        self.cancel_button = QPushButton("Cancel")
        self.cancel_button.setToolTip("Stop scoring; the rows scored so far stay")
        self.cancel_button.clicked.connect(self._on_cancel_clicked)
        self.resume_button = QPushButton("Resume scoring")
        self.resume_button.setToolTip("Score the rows left when scoring was cancelled")
        self.resume_button.clicked.connect(self.resume_scoring)
        bar.addPermanentWidget(self.progress_label)
        bar.addPermanentWidget(self.progress_bar)
        bar.addPermanentWidget(self.cancel_button)
        bar.addPermanentWidget(self.resume_button)
        for widget in (self.progress_bar, self.progress_label, self.cancel_button):
            widget.hide()
        self.resume_button.hide()

    # -- public API ----------------------------------------------------------------------------

    @property
    def config(self) -> ScoringConfig:
        return self._config

    @property
    def comparison(self) -> Comparison | None:
        return self._comparison

    @property
    def specs(self) -> ComparisonSpecs | None:
        return self._specs

    @property
    def table(self) -> ScoreTable | None:
        return None if self.session is None else self.session.table

    @property
    def highlight_mode(self) -> str:
        return self._mode

    @property
    def theme(self) -> str:
        return self._theme

    @property
    def zoom(self) -> int:
        return self._zoom

    @property
    def row_lines(self) -> int:
        return self._row_lines

    def is_reading(self) -> bool:
        """Whether the files of a comparison are being read right now."""
        return self._read_call is not None

    def missing_fonts(self) -> list[MissingFont]:
        """The scripts of the open comparison that no installed font draws."""
        return list(self._missing_fonts)

    def open_specs(self, specs: ComparisonSpecs) -> bool:
        """Read the files of ``specs`` in the background, then show them and start scoring.

        Returns at once (True: the read started). The window says it is reading, with a Cancel
        button; a read already running is cancelled first. The outcome is
        :attr:`comparison_opened`, or :attr:`open_failed` with the message also given to the
        error sink (an InputError names the file, the line and the problem).
        """
        self.cancel_reading()
        call = self._reader(specs)
        call.setParent(self)
        call.finished.connect(self._on_read_finished)
        call.failed.connect(self._on_read_failed)
        call.cancelled.connect(self._on_read_cancelled)
        self._read_call = call
        self._reading_specs = specs
        self._show_reading(True)
        call.start()
        return True

    @Slot()
    def cancel_reading(self) -> None:
        """Stop reading files (nothing is opened; the window shows what it showed before)."""
        if self._read_call is not None:
            self._read_call.cancel()

    def _reader(self, specs: ComparisonSpecs) -> BackgroundCall:
        """A background read of ``specs`` (not started) that also prepares what showing the
        comparison needs, while the window waits anyway, rather than in the GUI thread (tens
        of milliseconds each on 100k rows): the text search's caches, the empty score table,
        the facts the advice and the font check need, the first screen's highlights. Its value
        is a :class:`_Prepared`. The Open dialog reads through this as well.
        """
        release_long_lived()
        # A new comparison starts from the default settings (see ComparisonSession).
        config = ScoringConfig()

        def read(cancel: threading.Event) -> _Prepared:
            def check() -> None:
                if cancel.is_set():
                    raise ReadCancelled()

            loaded = specs.load()
            check()
            columns = [c for c in (loaded.source, *loaded.references, *loaded.systems) if c]
            text = loaded.corpus_text()
            source = loaded.source.lines if loaded.source is not None else None
            search = []
            for column in columns:
                check()
                search.append(SearchColumn(column.lines).prepare())
            check()
            table = empty_table(text, config)
            profile = profile_references([c.lines for c in loaded.references])
            fonts = script_samples(c.lines for c in columns)
            check()
            details = compute_ahead(text, source, config, range(FIRST_SCREEN_ROWS))
            return _Prepared(loaded, text, search, table, profile, fonts, details)

        return BackgroundCall(read)

    def set_comparison(self, comparison: Comparison, specs: ComparisonSpecs | None = None) -> None:
        """Show ``comparison`` and start scoring it under the current settings.

        The window is painted and the detail pane filled in the next turns of the event loop
        (:meth:`_reveal_next`). If showing it fails half-way, nothing of it stays: the window
        goes back to showing no comparison (and the error is raised), so the next comparison
        never shows its numbers next to this one's leftovers.
        """
        # No paint until this is done: the new table is painted in a turn of its own, the
        # detail pane and the summary in the next one.
        self.setUpdatesEnabled(False)
        for widget in self._revealed_last():
            widget.setUpdatesEnabled(False)
        # (delay in ms, step): the detail pane waits for the table's paint, which the window
        # system schedules up to a frame (16 ms) after the update.
        self._reveal_steps = [(1, self._reveal_window), (REVEAL_DETAIL_MS, self._reveal_detail)]
        try:
            self._show_comparison(comparison, specs)
        except BaseException:
            self._close_comparison()
            raise
        finally:  # whatever happened, the window is painted again
            self._reveal_timer.start(self._reveal_steps[0][0])
        self.comparison_opened.emit()

    def _show_comparison(self, comparison: Comparison, specs: ComparisonSpecs | None) -> None:
        self._save_view_state()  # the comparison shown so far keeps its arrangement
        self._comparison = comparison
        self._specs = specs
        prepared, self._prepared = self._prepared, None
        if prepared is not None and prepared.comparison is not comparison:
            prepared = None
        self._text = prepared.text if prepared else comparison.corpus_text()
        self._source = comparison.source.lines if comparison.source is not None else None
        columns = [c for c in (comparison.source, *comparison.references, *comparison.systems) if c]
        self._profile = (
            prepared.profile
            if prepared
            else profile_references([c.lines for c in comparison.references])
        )
        fonts = prepared.fonts if prepared else script_samples(c.lines for c in columns)
        self._missing_fonts = missing_fonts(fonts, self._glyph_check)
        self._dismissed.clear()
        self._pending_detail = None
        # Settings belong to the comparison: a new one starts from the defaults.
        self._config = ScoringConfig()
        view = self._view_store.load(specs) if specs is not None else None
        table = prepared.table if prepared is not None else None
        fits = table is not None and table.config == self._config
        core = ComparisonSession(
            self._text,
            config=self._config,
            source=self._source,
            reference_names=_reference_names(comparison),
            comparison=comparison,
            search=prepared.search if prepared is not None else (),
            table=table if fits else None,
        )
        old_session = self.session
        self.session = SessionModel(core, self)
        self.session.selection_changed.connect(self._on_selection_changed)
        self.session.baseline_changed.connect(self._on_session_baseline_changed)
        self.session.columns_changed.connect(self.summary.column_changed)
        baseline = _baseline_index(view, self._text.system_names)
        if baseline:
            core.set_baseline(baseline)
        table = self.controller.start(
            self._text, self._config, core.table, apply=self.session.apply_chunk
        )
        old_model, old_proxy, old_cache = self.model, self.proxy, self.detail_cache
        self.model = SegmentTableModel(
            self.session, self, shown=view.shown if view is not None and view.shown else None
        )
        self.proxy = SegmentFilterProxy(self)
        self.proxy.setSourceModel(self.model)
        self.proxy.filter_changed.connect(self._on_proxy_filter_changed)
        self.proxy.filter_error.connect(self._on_filter_error)
        for signal in (
            self.proxy.rowsInserted,
            self.proxy.rowsRemoved,
            self.proxy.modelReset,
            self.proxy.layoutChanged,
        ):
            signal.connect(self._schedule_refresh)
        self._restoring = True
        try:
            self.table_view.setModel(self.proxy)
            self.table_view.selectionModel().currentRowChanged.connect(self._on_current_row_changed)
            self.table_view.sortByColumn(-1, Qt.SortOrder.AscendingOrder)
            self._size_columns()
            self._apply_column_state(view)
        finally:
            self._restoring = False
        self.detail_cache = DetailCache(
            self._text,
            self._source,
            self._config,
            parent=self,
            ready=prepared.details if fits and prepared is not None else None,
        )
        self.detail_cache.detail_ready.connect(self._on_detail_ready)
        self._rebuild_highlight_actions()
        if self.delegate is None:
            self.delegate = HighlightDelegate(self.detail_cache, self.table_view)
            self.delegate.set_mode(self._mode)
            self.delegate.modes_changed.connect(self._rebuild_highlight_actions)
            self.table_view.setItemDelegate(self.delegate)
        else:
            self.delegate.set_cache(self.detail_cache)
        self.delegate.set_reference_system(None)
        self.delegate.set_baseline(core.baseline)
        if old_cache is not None:
            old_cache.shutdown()
        if old_session is not None:
            old_session.close()
        for obj in (old_proxy, old_model, old_cache, old_session):
            if obj is not None:
                obj.deleteLater()
        self.detail_pane.set_config(self._config)
        self.detail_pane.set_reference_names(core.reference_names)
        self.detail_pane.set_reference_system(None)
        self.detail_pane.set_baseline(core.baseline)
        self.detail_pane.show_row(None)
        if view is not None and view.mode in self.highlight_actions:
            self._set_mode(view.mode)

        self.filter_bar.set_proxy(
            self.proxy,
            text_columns=self._text_columns(),
            systems=self._text.system_names,
            metrics=table.columns,
        )
        self.summary.set_table(table)
        self.comparison_docks.set_session(self.session)
        self.baseline_combo.blockSignals(True)
        self.baseline_combo.clear()
        self.baseline_combo.addItems(list(self._text.system_names))
        self.baseline_combo.setCurrentIndex(core.baseline)
        self.baseline_combo.blockSignals(False)
        self.baseline_combo.setEnabled(len(self._text.system_names) > 1)
        self.ref_system_combo.blockSignals(True)
        self.ref_system_combo.clear()
        self.ref_system_combo.addItem("any system", -1)
        for i, system_name in enumerate(self._text.system_names):
            self.ref_system_combo.addItem(system_name, i)
        self.ref_system_combo.blockSignals(False)
        self.pages.setCurrentIndex(COMPARISON_PAGE)
        name = comparison_name(specs, comparison)
        self.setWindowTitle(f"{name} — {APP_NAME}")
        if specs is not None:
            self.recent.remember(specs)
        if view is not None:
            core.set_layout(**view.to_dict())
        self._update_warnings()
        self._update_actions()
        self._on_proxy_filter_changed()
        if self.proxy.rowCount():
            self.table_view.setCurrentIndex(self.proxy.index(0, 0))
        self.table_view.setFocus()
        settle_long_lived()

    def _close_comparison(self) -> None:
        """Show no comparison: after a comparison could not be shown in full, nothing of it
        (or of the one before) may stay, or the next one's figures would sit next to stale
        parts. Every step is tried; a step that fails is logged, not raised (the failure that
        brought us here is already on its way to the user)."""

        def attempt(step: Callable[[], object]) -> None:
            try:
                step()
            except Exception:
                log.exception("could not clear part of the window")

        attempt(self.controller.cancel)
        self._refresh_timer.stop()
        self._view_timer.stop()
        session, model, proxy, cache = self.session, self.model, self.proxy, self.detail_cache
        self.session = None
        self.model = self.proxy = None
        self.detail_cache = None
        self._comparison = self._specs = None
        self._text = self._source = None
        self._profile = None
        self._missing_fonts = []
        self._prepared = None
        self._pending_detail = None
        self._advice = {}
        attempt(lambda: self.table_view.setModel(None))
        delegate, self.delegate = self.delegate, None  # it holds the old detail cache
        if delegate is not None:
            attempt(lambda: self.table_view.setItemDelegate(QStyledItemDelegate(self.table_view)))
            delegate.deleteLater()
        attempt(lambda: self.filter_bar.set_proxy(None, text_columns=(), systems=(), metrics=()))
        attempt(lambda: self.summary.set_table(None))
        attempt(lambda: self.detail_pane.show_row(None))
        attempt(lambda: self.banner.set_items([]))
        if cache is not None:
            attempt(cache.shutdown)
        if session is not None:
            attempt(session.close)
        for obj in (proxy, model, cache, session):
            if obj is not None:
                obj.deleteLater()
        self.pages.setCurrentIndex(WELCOME_PAGE)
        self.setWindowTitle(APP_NAME)
        attempt(self._update_actions)

    @Slot()
    def _reveal_next(self) -> None:
        """Take the next step of showing a new comparison; each step gets a turn of its own.

        Setting up the models, the first paint of the table (a document per visible cell) and
        filling the detail pane take 20-50 ms each on a big comparison; done in one go, they
        kept the event loop from handling input for over 100 ms. A timer between the steps
        lets the events waiting meanwhile through.
        """
        if self._reveal_steps:
            self._reveal_steps.pop(0)[1]()
        if self._reveal_steps:
            self._reveal_timer.start(self._reveal_steps[0][0])

    def _revealed_last(self) -> tuple[QWidget, ...]:
        return (self.detail_pane, self.summary)

    def _reveal_window(self) -> None:
        self.setUpdatesEnabled(True)  # all but what _revealed_last names

    def _reveal_detail(self) -> None:
        self._show_current_detail()
        for widget in self._revealed_last():
            widget.setUpdatesEnabled(True)

    def revealing(self) -> bool:
        """Whether a comparison just set is still being shown in steps."""
        return bool(self._reveal_steps)

    def apply_config(self, config: ScoringConfig) -> None:
        """Rescore the open comparison with ``config`` (it belongs to this comparison)."""
        if config == self._config:
            return
        self._config = config
        self._rebuild_highlight_actions()
        if self._text is None or self.model is None or self.session is None:
            return
        table = self.session.session.set_config(config)
        self.controller.start(self._text, config, table, apply=self.session.apply_chunk)
        if self.detail_cache is not None:
            self.detail_cache.set_config(config)
        self.detail_pane.set_config(config)
        self.summary.set_table(table)
        self._on_proxy_filter_changed()
        self.filter_bar.set_metrics(table.columns)
        self._update_warnings()
        self._update_actions()
        self._show_current_detail()

    def resume_scoring(self) -> None:
        """Score the rows left unscored when scoring was cancelled, into the same table.

        Scoring restarts at the first unscored row; rows after it that were already scored
        are scored again, to the same values (a row stored twice counts once).
        """
        table, session, text = self.table, self.session, self._text
        if table is None or session is None or text is None or self.controller.running:
            return
        missing = np.flatnonzero(~table.done)
        if not len(missing):
            return
        first = int(missing[0])
        rest = CorpusText(
            references=tuple(r[first:] for r in text.references),
            systems=tuple(s[first:] for s in text.systems),
            system_names=text.system_names,
        )

        def apply(chunk: ScoreChunk) -> None:
            session.apply_chunk(replace(chunk, start=chunk.start + first, stop=chunk.stop + first))

        self.resume_button.hide()
        self.controller.start(rest, self._config, apply=apply)

    def export_csv(self, path: str | Path, *, filtered: bool = False) -> Path | None:
        """Write the per-sentence CSV (all rows, or the filtered ones) with ``core.io.export``.

        Returns the CSV's path, or None when it could not be written (reported to the user).
        Before every row is scored (scoring was cancelled), only the scored rows are written,
        and the status message says so.
        """
        table = self.table
        if table is None or self._comparison is None or self.session is None:
            self.report_error("Nothing to export", "Open a comparison first.")
            return None
        rows = None
        if filtered:
            rows = self.session.session.selected_rows()
        if not table.complete:
            done = np.flatnonzero(table.done)
            rows = done if rows is None else np.intersect1d(rows, done)
        try:
            write_csv(
                path,
                table,
                rows=None if rows is None else rows.tolist(),
                inputs=comparison_inputs(self._comparison),
            )
        except OSError as exc:
            self.report_error("Cannot export", f"{exc.filename or path}: {exc.strerror or exc}")
            return None
        count = table.n_segments if rows is None else len(rows)
        note = ""
        if not table.complete:
            note = (
                f" (only the rows scored so far: scoring stopped at {table.n_done:,} of "
                f"{table.n_segments:,})"
            )
        self.statusBar().showMessage(f"Exported {_rows(count)} to {path}{note}", 10_000)
        return Path(path)

    def show_open_dialog(
        self, specs: ComparisonSpecs | None = None, left_out: Sequence[tuple[str, str]] = ()
    ) -> OpenComparisonDialog:
        """Open the Open-comparison dialog (non-blocking), optionally prefilled; ``left_out``
        names dropped files that are not part of ``specs``."""
        if self.open_dialog is not None:
            self.open_dialog.close()
            self.open_dialog.deleteLater()
        dialog = OpenComparisonDialog(specs, self, read=self._reader, left_out=left_out)
        dialog.accepted.connect(self._on_open_dialog_accepted)
        self.open_dialog = dialog
        dialog.open()
        return dialog

    def show_settings_dialog(self, *, focus_separator: bool = False) -> SettingsDialog:
        """Open the settings dialog (non-blocking)."""
        if self.settings_dialog is not None:
            self.settings_dialog.close()
            self.settings_dialog.deleteLater()
        dialog = SettingsDialog(self._config, self)
        dialog.set_nrefs(len(self._text.references) if self._text is not None else 1)
        dialog.config_applied.connect(self._on_config_applied)
        self.settings_dialog = dialog
        dialog.open()
        if focus_separator:
            dialog.panel.focus_lsum_separator()
        return dialog

    def recent_specs(self) -> list[ComparisonSpecs]:
        """The remembered comparisons, most recent first."""
        return self.recent.entries()

    def report_error(self, title: str, message: str) -> None:
        """Show an error without blocking (through the injected sink)."""
        log.info("%s: %s", title, message)
        self._error_sink(title, message)

    def current_segment(self) -> int | None:
        index = self.table_view.currentIndex()
        if not index.isValid() or self.proxy is None:
            return None
        return self.proxy.mapToSource(index).row()

    # -- view ----------------------------------------------------------------------------------

    def set_theme(self, theme: str) -> None:
        """View ▸ Theme: ``system``, ``light`` or ``dark``, for the whole app; remembered."""
        apply_theme(theme)
        self._theme = theme
        self.theme_actions[theme].setChecked(True)
        self.settings.setValue(THEME_KEY, theme)

    def set_zoom(self, steps: int) -> None:
        """Text size of the table and the detail pane, in points from the app's; remembered."""
        steps = max(ZOOM_RANGE[0], min(ZOOM_RANGE[1], steps))
        if steps == self._zoom:
            return
        self._zoom = steps
        self.settings.setValue(ZOOM_KEY, steps)
        self._apply_zoom()

    @Slot()
    def zoom_in(self) -> None:
        self.set_zoom(self._zoom + 1)

    @Slot()
    def zoom_out(self) -> None:
        self.set_zoom(self._zoom - 1)

    @Slot()
    def zoom_reset(self) -> None:
        self.set_zoom(0)

    def set_row_lines(self, lines: int) -> None:
        """Rows tall enough for ``lines`` lines of text (one of :data:`ROW_LINES`)."""
        if lines not in ROW_LINES:
            raise ValueError(f"row height must be one of {ROW_LINES} lines, not {lines}")
        self._row_lines = lines
        self.row_lines_actions[lines].setChecked(True)
        self.settings.setValue(ROW_LINES_KEY, lines)
        self.table_view.verticalHeader().setDefaultSectionSize(self._row_height())

    def _apply_zoom(self) -> None:
        font = QFont(self._base_font)
        size = self._base_font.pointSizeF()
        if size > 0:
            font.setPointSizeF(max(4.0, size + self._zoom))
        else:  # a pixel-sized font
            font.setPixelSize(max(6, self._base_font.pixelSize() + self._zoom))
        self.table_view.setFont(font)
        self.detail_pane.setFont(font)
        self.table_view.verticalHeader().setDefaultSectionSize(self._row_height())
        self.zoom_reset_action.setEnabled(self._zoom != 0)
        if self.delegate is not None:
            self.delegate.set_dark(None)  # drops the documents laid out in the old font
        if self.detail_pane.detail() is not None:
            self.detail_pane.show_row(self.detail_pane.detail())

    def view_state(self) -> ViewState:
        """What the user arranged for the open comparison (see :mod:`gui.shell.viewstate`)."""
        model, header = self.model, self.table_view.horizontalHeader()
        if model is None:
            return ViewState()
        ids = [column_id(model.column_info(c)) for c in range(model.columnCount())]
        baseline = self.session.session.baseline if self.session is not None else 0
        return ViewState(
            hidden=tuple(i for c, i in enumerate(ids) if self.table_view.isColumnHidden(c)),
            widths={i: header.sectionSize(c) for c, i in enumerate(ids) if header.sectionSize(c)},
            mode=self._mode,
            shown=model.shown_scores,
            baseline=model.text.system_names[baseline],
        )

    @Slot()
    def _save_view_state(self) -> None:
        self._view_timer.stop()
        if self.session is None or self.model is None or self._restoring:
            return
        state = self.view_state()
        self.session.session.set_layout(**state.to_dict())
        if self._specs is not None:
            self._view_store.save(self._specs, state)

    def _schedule_view_save(self) -> None:
        if not self._restoring and self.model is not None:
            self._view_timer.start()

    def _apply_column_state(self, view: ViewState | None) -> None:
        """Hidden columns and widths of a remembered view state (none: every column shown)."""
        model = self.model
        if model is None:
            return
        header = self.table_view.horizontalHeader()
        for col in range(model.columnCount()):
            key = column_id(model.column_info(col))
            self.table_view.setColumnHidden(col, view is not None and key in view.hidden)
            if view is not None and key in view.widths:
                header.resizeSection(col, view.widths[key])

    def set_shown_scores(self, keys: Sequence[str]) -> None:
        """Which score columns the table shows per system (table column keys)."""
        model = self.model
        if model is None or self.proxy is None or self._text is None:
            return
        view = self.view_state()
        model.set_shown_scores(keys)
        self._restoring = True
        try:
            self._size_columns()
            self._apply_column_state(view)
        finally:
            self._restoring = False
        self.filter_bar.set_proxy(
            self.proxy,
            text_columns=self._text_columns(),
            systems=self._text.system_names,
            metrics=model.table.columns,
        )
        self._schedule_view_save()

    def _text_columns(self) -> list[tuple[str, int]]:
        model = self.model
        if model is None:
            return []
        return [
            (str(model.headerData(c, Qt.Orientation.Horizontal)), c) for c in model.text_columns()
        ]

    # -- copying -------------------------------------------------------------------------------

    def row_text(self, segment: int) -> str:
        """Segment ``segment`` as Ctrl+C copies it: a header line and the row, every column,
        tab-separated, scores at full precision."""
        if self.model is None:
            return ""
        return row_as_tsv(self.model, [segment])

    @Slot()
    def copy_current_row(self) -> None:
        segment = self.current_segment()
        if segment is None or self.model is None:
            return
        QGuiApplication.clipboard().setText(self.row_text(segment))
        self.statusBar().showMessage(f"Copied segment {segment + 1} (every column).", 4000)

    def copy_cell(self, segment: int, col: int) -> None:
        if self.model is None:
            return
        QGuiApplication.clipboard().setText(cell_value(self.model, col, segment))

    def show_cell_text(self, segment: int, col: int) -> CellTextDialog | None:
        """The whole text of a text cell in a window of its own (non-blocking)."""
        model = self.model
        if model is None or model.column_info(col).kind not in TEXT_KINDS:
            return None
        title = f"Segment {segment + 1}, {model.headerData(col, Qt.Orientation.Horizontal)}"
        dialog = CellTextDialog(title, model.strings(col)[segment], self)
        dialog.show()
        return dialog

    def filter_worse_rows(self, system: int, metric: str | None = None) -> None:
        """Keep the rows where ``system`` scores below the baseline (on ``metric``, by default
        the first score shown), through the filter bar's difference filter."""
        model, bar = self.model, self.filter_bar
        if model is None:
            return
        baseline = model.baseline
        metric = metric or model.shown_scores[0]
        if system == baseline:
            return
        bar.delta_check.setChecked(True)
        bar.delta_a_combo.setCurrentIndex(bar.delta_a_combo.findData(baseline))
        bar.delta_b_combo.setCurrentIndex(bar.delta_b_combo.findData(system))
        bar.delta_metric_combo.setCurrentIndex(bar.delta_metric_combo.findData(metric))
        bar.delta_spin.setValue(10 ** -bar.delta_spin.decimals())
        bar.apply_delta_filter()

    def table_menu(self, index: QModelIndex) -> QMenu:
        """The context menu of a table cell: copy, the whole text, filters from this row."""
        menu = QMenu(self)
        model, proxy = self.model, self.proxy
        if model is None or proxy is None or not index.isValid():
            return menu
        segment = proxy.mapToSource(index).row()
        col = index.column()
        info = model.column_info(col)
        menu.addAction(self.copy_row_action)
        copy_cell = menu.addAction("Copy this cell")
        copy_cell.triggered.connect(lambda: self.copy_cell(segment, col))
        if info.kind in TEXT_KINDS:
            whole = menu.addAction("Show the whole text…")
            whole.triggered.connect(lambda: self.show_cell_text(segment, col))
        systems = model.text.system_names
        baseline = model.baseline
        metric = info.metric if info.metric is not None else model.shown_scores[0]
        label = model.table.column_info(metric).short
        targets = [info.system] if info.system is not None else list(range(len(systems)))
        targets = [s for s in targets if s is not None and s != baseline]
        if targets:
            menu.addSeparator()
        for system in targets:
            action = menu.addAction(
                f"Rows where {systems[system]} scores below {systems[baseline]} "
                f"(baseline) on {label}"
            )
            action.triggered.connect(
                lambda _=False, s=system, m=metric: self.filter_worse_rows(s, m)
            )
        menu.addSeparator()
        clear = menu.addAction("Clear filters")
        clear.triggered.connect(self.filter_bar.clear)
        return menu

    # -- internals -----------------------------------------------------------------------------

    def _show_error_dialog(self, title: str, message: str) -> None:
        box = QMessageBox(
            QMessageBox.Icon.Critical, title, message, QMessageBox.StandardButton.Ok, self
        )
        box.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        box.open()

    def _show_reading(self, reading: bool) -> None:
        """Say that files are being read: a page of its own while nothing is open (never the
        "No comparison open" page), else the status bar; with a Cancel button either way."""
        specs = self._reading_specs
        if reading:
            count = len(specs.paths) if specs is not None else 0
            message = f"Reading {count} {'file' if count == 1 else 'files'}…"
            if self._comparison is None:  # the page says it, with its own Cancel button
                self.reading_page.set_files(specs.paths if specs is not None else ())
                self.pages.setCurrentIndex(READING_PAGE)
            else:
                self.progress_label.setText(message)
                self.progress_label.show()
                self.cancel_button.setToolTip("Stop reading the files; nothing is opened")
                self.cancel_button.show()
            self.statusBar().clearMessage()
        else:
            if self.pages.currentIndex() == READING_PAGE:
                self.pages.setCurrentIndex(
                    WELCOME_PAGE if self._comparison is None else COMPARISON_PAGE
                )
            if not self.controller.running:
                self.progress_label.hide()
                self.cancel_button.hide()
            self.cancel_button.setToolTip("Stop scoring; the rows scored so far stay")
            self.statusBar().clearMessage()
        self.reading_changed.emit(reading)

    def _end_read(self) -> ComparisonSpecs | None:
        call, specs = self._read_call, self._reading_specs
        self._read_call = self._reading_specs = None
        if call is not None:
            call.deleteLater()
        self._show_reading(False)
        return specs

    def _size_columns(self) -> None:
        if self.model is None:
            return
        header = self.table_view.horizontalHeader()
        metrics = self.table_view.fontMetrics()
        # Titles are drawn in the header's font, next to room for the sort indicator.
        title_metrics = header.fontMetrics()
        number_width = metrics.horizontalAdvance("100.0") + 18
        for col in range(self.model.columnCount()):
            kind = self.model.column_info(col).kind
            title = str(self.model.headerData(col, Qt.Orientation.Horizontal))
            if kind == "segment":
                width = metrics.horizontalAdvance(str(self.model.rowCount())) + 24
            elif kind == "hypothesis":
                width = 280
            elif kind in ("source", "reference"):
                # Narrower than the outputs, so the first system shows without scrolling.
                width = 230
            else:
                # Titles wrap at their spaces ("literal" over "ΔBLEU"), so the longest word
                # sets the width: three systems' scores fit a 1280-pixel window.
                words = max(map(title_metrics.horizontalAdvance, title.split()), default=0)
                width = max(number_width, words + 36)
            header.resizeSection(col, width)

    def column_menu(self) -> QMenu:
        """A menu of every column with a check box (hide what you do not need to read), and
        the score columns shown per system."""
        menu = QMenu(self)
        model = self.model
        if model is None:
            return menu
        for col in range(model.columnCount()):
            title = str(model.headerData(col, Qt.Orientation.Horizontal))
            action = menu.addAction(title)
            action.setCheckable(True)
            action.setChecked(not self.table_view.isColumnHidden(col))
            action.setData(col)
            action.toggled.connect(self._on_column_toggled)
        scores = menu.addMenu("Scores shown per system")
        scores.setObjectName("shown-scores")
        shown = set(model.shown_scores)
        for column in model.table.columns:
            if column.kind != "score":
                continue
            action = scores.addAction(column.label)
            action.setCheckable(True)
            action.setChecked(column.key in shown)
            action.setData(column.key)
            action.toggled.connect(self._on_shown_score_toggled)
        return menu

    @Slot(bool)
    def _on_column_toggled(self, visible: bool) -> None:
        action = self.sender()
        if isinstance(action, QAction):
            self.table_view.setColumnHidden(int(action.data()), not visible)
            self._schedule_view_save()

    @Slot(bool)
    def _on_shown_score_toggled(self, checked: bool) -> None:
        action = self.sender()
        model = self.model
        if not isinstance(action, QAction) or model is None:
            return
        key = str(action.data())
        shown = [k for k in model.shown_scores if k != key]
        if checked:
            order = [c.key for c in model.table.columns]
            shown = sorted({*shown, key}, key=order.index)
        if shown:
            self.set_shown_scores(shown)

    @Slot(QPoint)
    def _on_header_menu_requested(self, pos: QPoint) -> None:
        menu = self.column_menu()
        menu.exec(self.table_view.horizontalHeader().mapToGlobal(pos))
        menu.deleteLater()

    @Slot(QPoint)
    def _on_table_menu_requested(self, pos: QPoint) -> None:
        index = self.table_view.indexAt(pos)
        if not index.isValid():
            return
        self.table_view.setCurrentIndex(index)
        menu = self.table_menu(index)
        menu.exec(self.table_view.viewport().mapToGlobal(pos))
        menu.deleteLater()

    @Slot(int, int, int)
    def _on_section_resized(self, _section: int, _old: int, _new: int) -> None:
        self._schedule_view_save()

    def _update_actions(self) -> None:
        table = self.table
        running = self.controller.running
        has_rows = table is not None and self._comparison is not None and table.n_done > 0
        ready = has_rows and (table.complete or not running)  # type: ignore[union-attr]
        self.export_all_action.setEnabled(ready)
        self.export_filtered_action.setEnabled(ready)
        self.report_export.set_available(ready and table is not None and table.complete)
        self.cancel_action.setEnabled(running)
        resumable = table is not None and not running and not table.complete
        self.resume_action.setEnabled(resumable)
        self.resume_button.setVisible(resumable)
        self.copy_row_action.setEnabled(self.model is not None)

    def _update_warnings(self) -> None:
        items: list[BannerItem] = []
        table = self.table
        self._advice = {}
        if self._comparison is not None and table is not None:
            for advice in scoring_advice(table, profile=self._profile):
                self._advice[advice.key] = advice
                items.append(BannerItem(advice.key, advice.message, advice.fix_label))
            fonts = font_advice(self._missing_fonts)
            if fonts:
                items.append(BannerItem("fonts", fonts))
            notes = []
            for column in self._comparison.columns:
                for warning in column.warnings:
                    notes.append(f"{Path(column.path).name}: {warning}")
            if notes:
                shown = "; ".join(notes[:3]) + (
                    f"; and {len(notes) - 3} more" if len(notes) > 3 else ""
                )
                items.append(BannerItem("inputs", f"Input warnings — {shown}."))
        self.banner.set_items([i for i in items if i.key not in self._dismissed])

    def _show_current_detail(self) -> None:
        segment = self.current_segment()
        if segment is None or self.detail_cache is None:
            return
        if any(step == self._reveal_detail for _, step in self._reveal_steps):
            return  # a step of showing a new comparison does it
        detail = self.detail_cache.get(segment)
        if detail is None:
            self._pending_detail = segment
        else:
            self._pending_detail = None
            self.detail_pane.show_row(detail)

    def _forget_hidden_detail(self) -> None:
        """The detail pane shows no row the filter hides while nothing is selected."""
        shown = self.detail_pane.detail()
        proxy = self.proxy
        if shown is None or proxy is None or self.current_segment() is not None:
            return
        if proxy.proxy_row(shown.segment) < 0:
            self._pending_detail = None
            self.detail_pane.show_row(None)

    def _set_mode(self, mode: str) -> None:
        self._mode = mode
        action = self.highlight_actions.get(mode)
        if action is not None and not action.isChecked():
            action.setChecked(True)
        if self.delegate is not None:
            self.delegate.set_mode(mode)
        self.detail_pane.set_mode(mode)
        self.table_view.viewport().update()
        self._schedule_view_save()

    # -- slots ---------------------------------------------------------------------------------

    @Slot(object)
    def _on_read_finished(self, prepared: object) -> None:
        specs = self._end_read()
        if not isinstance(prepared, _Prepared):
            raise TypeError(f"the reader returned {type(prepared).__name__}")
        self._prepared = prepared
        self.set_comparison(prepared.comparison, specs)

    @Slot(object)
    def _on_read_failed(self, error: object) -> None:
        self._end_read()
        if isinstance(error, InputError):
            message = str(error)
        else:  # a bug rather than the user's files: the details go to the log
            log.error("reading the comparison failed", exc_info=error)  # type: ignore[arg-type]
            message = f"Could not read the files: {error} ({type(error).__name__})"
        self.report_error("Cannot open the comparison", message)
        self.open_failed.emit(message)

    @Slot()
    def _on_read_cancelled(self) -> None:
        self._end_read()
        self.statusBar().showMessage("Reading cancelled; nothing was opened.", 6000)

    @Slot()
    def _on_cancel_clicked(self) -> None:
        if self._read_call is not None:
            self.cancel_reading()
        else:
            self.controller.cancel()

    @Slot()
    def _on_open_triggered(self) -> None:
        self.show_open_dialog(self._specs)

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
        loaded = dialog.loaded()
        self._prepared = loaded if isinstance(loaded, _Prepared) else None
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
    def _on_export_all_triggered(self) -> None:
        self._ask_and_export(filtered=False)

    @Slot()
    def _on_export_filtered_triggered(self) -> None:
        self._ask_and_export(filtered=True)

    def _ask_and_export(self, *, filtered: bool) -> None:
        table = self.table
        if self._comparison is None or table is None:
            return
        stem = comparison_name(self._specs, self._comparison) or "matchlight"
        partial = not table.complete
        suffix = ("-filtered" if filtered else "") + ("-partial" if partial else "")
        suggested = str(Path.home() / f"{stem}{suffix}.csv")
        caption = "Export filtered rows as CSV" if filtered else "Export all rows as CSV"
        if partial:
            caption += f" (only the {_rows(table.n_done)} scored so far)"
        path = self._save_path(self, caption, suggested)
        if path:
            self.export_csv(path, filtered=filtered)

    def _report_name(self) -> str:
        """The comparison's short name, for the report's suggested file name."""
        if self._comparison is None:
            return "matchlight"
        return comparison_name(self._specs, self._comparison)

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
        rows.append(("Move between rows", "Up / Down, Page Up / Page Down"))
        dialog = ShortcutsDialog(rows, self, sections=[("Annotation", annotation_shortcuts())])
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.open()

    @Slot()
    def _on_about_triggered(self) -> None:
        dialog = AboutDialog(self)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.open()

    @Slot(QAction)
    def _on_theme_triggered(self, action: QAction) -> None:
        theme = action.data()
        if isinstance(theme, str):
            self.set_theme(theme)

    @Slot(QAction)
    def _on_row_lines_triggered(self, action: QAction) -> None:
        lines = action.data()
        if isinstance(lines, int):
            self.set_row_lines(lines)

    @Slot(QAction)
    def _on_highlight_triggered(self, action: QAction) -> None:
        mode = action.data()
        if isinstance(mode, str):
            self._set_mode(mode)

    @Slot(str)
    def _on_detail_mode_changed(self, mode: str) -> None:
        """The detail pane's mode switch drives the table (and the menu) too."""
        if mode and mode != self._mode and mode in self.highlight_actions:
            self._set_mode(mode)

    @Slot(int)
    def _on_ref_system_changed(self, index: int) -> None:
        data = self.ref_system_combo.itemData(index) if index >= 0 else -1
        system = data if isinstance(data, int) and data >= 0 else None
        if self.delegate is not None:
            self.delegate.set_reference_system(system)
        self.detail_pane.set_reference_system(system)

    @Slot(int)
    def _on_baseline_changed(self, index: int) -> None:
        if self.session is not None and index >= 0:
            self.session.session.set_baseline(index)
            self.filter_bar.reapply()
            self._schedule_view_save()

    @Slot(int)
    def _on_session_baseline_changed(self, system: int) -> None:
        """The baseline changed (the toolbar, or a reopened session): the gain and loss marks
        against it follow."""
        if self.delegate is not None:
            self.delegate.set_baseline(system)
        self.detail_pane.set_baseline(system)

    @Slot()
    def _on_scoring_started(self) -> None:
        table = self.table
        total = table.n_segments if table is not None else 0
        done = table.n_done if table is not None else 0
        self.progress_bar.setRange(0, max(1, total))
        self.progress_bar.setValue(done)
        self.progress_label.setText(f"Scoring {done:,} / {total:,}")
        self.progress_bar.show()
        self.progress_label.show()
        self.cancel_button.show()
        self.statusBar().showMessage("Scoring…")
        self._update_actions()

    @Slot(int, int)
    def _on_progress_changed(self, done: int, total: int) -> None:
        table = self.table  # the whole comparison's count (also when resuming)
        if table is not None:
            done, total = table.n_done, table.n_segments
        self.progress_bar.setRange(0, max(1, total))
        self.progress_bar.setValue(done)
        self.progress_label.setText(f"Scoring {done:,} / {total:,}")

    @Slot(int, int)
    def _on_chunk_ready(self, start: int, stop: int) -> None:
        self._schedule_refresh()
        proxy = self.proxy
        nothing_current = self._pending_detail is None and self.current_segment() is None
        if nothing_current and proxy is not None and proxy.rowCount():
            self.table_view.setCurrentIndex(proxy.index(0, 0))

    @Slot()
    def _schedule_refresh(self) -> None:
        if not self._refresh_timer.isActive():
            self._refresh_timer.start()

    @Slot()
    def _on_refresh_timeout(self) -> None:
        self._on_proxy_filter_changed()
        self._update_warnings()

    def _scoring_done(self, message: str) -> None:
        if self._read_call is None:
            self.progress_bar.hide()
            self.progress_label.hide()
            self.cancel_button.hide()
        else:
            self.progress_bar.hide()
        self.statusBar().showMessage(message, 10_000)
        self._refresh_timer.stop()
        if self.session is not None:
            self.session.refresh_now()
        self._on_refresh_timeout()
        self.summary.refresh()
        self._update_actions()

    @Slot()
    def _on_scoring_finished(self) -> None:
        table = self.table
        n = table.n_segments if table is not None else 0
        self._scoring_done(f"Scored {_rows(n)}.")

    @Slot()
    def _on_scoring_cancelled(self) -> None:
        table = self.table
        done = table.n_done if table is not None else 0
        total = table.n_segments if table is not None else 0
        self._scoring_done(
            f"Scoring cancelled: {done:,} of {total:,} rows scored. Export writes those rows; "
            "Resume scoring scores the rest."
        )

    @Slot(str)
    def _on_scoring_failed(self, message: str) -> None:
        self._scoring_done("Scoring failed.")
        self.report_error("Scoring failed", message)

    @Slot()
    def _on_filters_applied(self) -> None:
        self._schedule_refresh()

    @Slot()
    def _on_proxy_filter_changed(self) -> None:
        if self.proxy is None or self.model is None:
            return
        visible = self.proxy.rowCount()
        total = self.model.rowCount()
        self.filter_bar.set_total(visible, total)
        if self.session is None or not self.session.session.is_filtered():
            self.summary.set_filtered_rows(None)
        else:
            self.summary.set_filtered_rows(self.session.session.selected_rows())
        self._forget_hidden_detail()

    @Slot(bool)
    def _on_selection_changed(self, _rows_changed: bool) -> None:
        self._schedule_refresh()

    @Slot(str)
    def _on_filter_error(self, message: str) -> None:
        self.statusBar().showMessage(message, 8000)

    @Slot(QModelIndex, QModelIndex)
    def _on_current_row_changed(self, current: QModelIndex, _previous: QModelIndex) -> None:
        if current.isValid():
            self._show_current_detail()

    @Slot(int)
    def _on_detail_ready(self, segment: int) -> None:
        if segment == self._pending_detail and self.detail_cache is not None:
            detail = self.detail_cache.get(segment)
            if detail is not None:
                self._pending_detail = None
                self.detail_pane.show_row(detail)

    @Slot(str)
    def _on_banner_action_requested(self, key: str) -> None:
        advice = self._advice.get(key)
        if advice is None:
            return
        if advice.fix:
            self.apply_config(self._config.apply(advice.fix))
        elif key == "lsum-fallback":
            self.show_settings_dialog(focus_separator=True)

    @Slot(str)
    def _on_banner_dismissed(self, key: str) -> None:
        self._dismissed.add(key)

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
            self.cancel_reading()  # the read's thread is a daemon: nothing waits for it
            self._save_view_state()
            self.settings.setValue(GEOMETRY_KEY, self.saveGeometry())
            self.settings.setValue(STATE_KEY, self.saveState())
            self.settings.sync()
            self.controller.shutdown()
            self.comparison_docks.shutdown()
            if self.detail_cache is not None:
                self.detail_cache.shutdown()
            gc.unfreeze()  # what settle_long_lived() held back is collectable again
        event.accept()


@dataclass(frozen=True, slots=True)
class _Prepared:
    """A comparison just read, and what showing it needs, made in the reading thread."""

    comparison: Comparison
    text: CorpusText
    search: list[SearchColumn]
    table: ScoreTable
    profile: TextProfile
    fonts: dict[str, str]
    details: dict[int, RowDetail]


def _local_paths(urls: Sequence[QUrl]) -> list[str]:
    """The local paths among dropped URLs: files, folders, and anything else that exists
    (a pipe or a device is not dropped silently: reading it says what it is)."""
    paths = [u.toLocalFile() for u in urls if u.isLocalFile()]
    return [p for p in paths if p and os.path.lexists(p)]


def _reference_names(comparison: Comparison) -> tuple[str, ...]:
    """The references' names as the files call them (``ref.en``, ``ref2.en``)."""
    return tuple(Path(c.path).stem or f"Ref {i + 1}" for i, c in enumerate(comparison.references))


def _baseline_index(view: ViewState | None, names: Sequence[str]) -> int:
    if view is None or view.baseline is None or view.baseline not in names:
        return 0
    return list(names).index(view.baseline)


def _stored_int(settings: QSettings, key: str, default: int, low: int, high: int) -> int:
    value = settings.value(key)
    try:
        number = int(value)  # type: ignore[call-overload]
    except (TypeError, ValueError):
        return default
    return number if low <= number <= high else default
