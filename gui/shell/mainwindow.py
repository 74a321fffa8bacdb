"""The main window: the segment table with its filter bar, the detail pane, and the summary.

The window composes the pieces and wires them together; it computes nothing itself. Scoring runs
in :class:`~gui.workers.controller.ScoringController`; texts are read by
:mod:`core.io.inputs`; every number shown or exported comes from :mod:`core`.

Dialogs never block: errors go through an injectable ``error_sink`` (by default a window-modal
message box opened with ``open()``), and the Open/Settings dialogs are opened with ``open()``.
"""

from __future__ import annotations

import gc
import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from PySide6.QtCore import (
    QByteArray,
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
    QKeySequence,
)
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QDockWidget,
    QFileDialog,
    QHeaderView,
    QLabel,
    QLineEdit,
    QMainWindow,
    QMenu,
    QMessageBox,
    QPushButton,
    QSplitter,
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)

from matchlight.core.analysis.textsearch import SearchColumn
from matchlight.core.io.export import comparison_inputs, write_csv
from matchlight.core.io.inputs import Comparison, InputError
from matchlight.core.scoring.advice import (
    Advice,
    detect_script,
    has_sentence_marker,
    scoring_advice,
)
from matchlight.core.scoring.config import ScoringConfig
from matchlight.core.scoring.detail import RowDetail
from matchlight.core.scoring.engine import empty_table
from matchlight.core.scoring.results import ScoreTable
from matchlight.core.session.comparison import ComparisonSession
from matchlight.core.text.corpus import CorpusText
from matchlight.gui.charts.summary import SummaryWidget
from matchlight.gui.detail.detailpane import DetailPane
from matchlight.gui.dialogs.opendialog import (
    ComparisonSpecs,
    OpenComparisonDialog,
    assign_roles,
    sample_specs,
)
from matchlight.gui.dialogs.settings import SettingsDialog
from matchlight.gui.highlight.detailcache import DetailCache, compute_ahead
from matchlight.gui.shell.banner import BannerItem, WarningsBanner
from matchlight.gui.shell.progress import ProgressStrip
from matchlight.gui.shell.qtfix import guard_none_refcount
from matchlight.gui.shell.recent import RecentComparisons
from matchlight.gui.shell.welcome import WelcomePage
from matchlight.gui.state.session import SessionModel
from matchlight.gui.table.delegate import HighlightDelegate
from matchlight.gui.table.filterbar import FilterBar
from matchlight.gui.table.model import SegmentTableModel
from matchlight.gui.table.proxy import SegmentFilterProxy
from matchlight.gui.table.tableview import SegmentTableView
from matchlight.gui.workers.controller import (
    ScoringController,
    release_long_lived,
    settle_long_lived,
)
from matchlight.gui.workers.loader import call_in_background

log = logging.getLogger(__name__)

APP_NAME = "Matchlight"
GEOMETRY_KEY = "window/geometry"
STATE_KEY = "window/state"
#: Rows whose highlight detail is computed while the files are read: a screenful, so that the
#: table is painted once with its highlights when it appears (not plain, then again).
FIRST_SCREEN_ROWS = 64
#: How long after the table's first paint was scheduled the detail pane is filled.
REVEAL_DETAIL_MS = 30

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


# -- the window --------------------------------------------------------------------------------


class MainWindow(QMainWindow):
    """Matchlight's main window.

    Signals:
        comparison_opened: a comparison was loaded and its scoring started.
    """

    comparison_opened = Signal()

    def __init__(
        self,
        *,
        settings: QSettings | None = None,
        error_sink: ErrorSink | None = None,
        save_path_provider: SavePathProvider | None = None,
        controller: ScoringController | None = None,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        guard_none_refcount()
        self.settings = settings if settings is not None else QSettings()
        self._error_sink = error_sink or self._show_error_dialog
        self._save_path = save_path_provider or _default_save_path
        # Settings belong to a comparison: each new one starts from the defaults.
        self._config = ScoringConfig()
        self.session: SessionModel | None = None
        self._comparison: Comparison | None = None
        self._specs: ComparisonSpecs | None = None
        self._text: CorpusText | None = None
        self._source: tuple[str, ...] | None = None
        self._cjk: str | None = None
        self._dismissed: set[str] = set()
        self._advice: dict[str, Advice] = {}
        self._pending_detail: int | None = None
        # What was prepared while the files of the comparison being opened were read.
        self._prepared: _Prepared | None = None
        self._mode = self._config.highlight_modes()[0].key
        self._closed = False
        self.model: SegmentTableModel | None = None
        self.proxy: SegmentFilterProxy | None = None
        self.detail_cache: DetailCache | None = None
        self.open_dialog: OpenComparisonDialog | None = None
        self.settings_dialog: SettingsDialog | None = None

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

        self._build_central()
        self._build_docks()
        self._build_actions()
        self._build_menus_and_toolbar()
        self._build_status_bar()
        self._update_signature()
        self._update_actions()

        self._refresh_timer = QTimer(self)
        self._refresh_timer.setSingleShot(True)
        self._refresh_timer.setInterval(120)
        self._refresh_timer.timeout.connect(self._on_refresh_timeout)
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
        vheader = self.table_view.verticalHeader()
        vheader.setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        vheader.setDefaultSectionSize(self._row_height())
        vheader.hide()  # the "#" column numbers the segments
        hheader = self.table_view.horizontalHeader()
        hheader.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        hheader.setHighlightSections(False)
        hheader.setSortIndicatorShown(True)
        hheader.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        hheader.customContextMenuRequested.connect(self._on_header_menu_requested)
        # The delegate needs a detail cache, so it is made with the first comparison.
        self.delegate: HighlightDelegate | None = None

        self.detail_pane = DetailPane()
        self.detail_splitter = QSplitter(Qt.Orientation.Vertical)
        self.detail_splitter.setObjectName("detail-splitter")
        self.detail_splitter.addWidget(self.table_view)
        self.detail_splitter.addWidget(self.detail_pane)
        self.detail_splitter.setStretchFactor(0, 3)
        self.detail_splitter.setStretchFactor(1, 2)
        self.detail_splitter.setChildrenCollapsible(False)
        self.detail_splitter.setSizes([460, 340])

        comparison_page = QWidget()
        layout = QVBoxLayout(comparison_page)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(0)
        layout.addWidget(self.filter_bar)
        layout.addWidget(self.detail_splitter, 1)

        self.welcome = WelcomePage()
        self.welcome.open_requested.connect(self._on_open_triggered)
        self.welcome.sample_requested.connect(self._on_open_sample_triggered)
        self.pages = QStackedWidget()
        self.pages.addWidget(self.welcome)
        self.pages.addWidget(comparison_page)

        central = QWidget()
        outer = QVBoxLayout(central)
        outer.setContentsMargins(0, 0, 0, 0)
        outer.setSpacing(0)
        outer.addWidget(self.banner)
        outer.addWidget(self.pages, 1)
        self.setCentralWidget(central)

    def _row_height(self) -> int:
        metrics = self.table_view.fontMetrics()
        return 2 * metrics.lineSpacing() + 8

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

    def _action(
        self, text: str, slot: Callable[[], None], shortcut: Any = None, tip: str = ""
    ) -> QAction:
        action = QAction(text, self)
        if shortcut is not None:
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
        self.settings_action = self._action(
            "Scoring &settings…",
            self._on_settings_triggered,
            "Ctrl+,",
            "Tokenizers, smoothing, ROUGE options",
        )
        self.cancel_action = self._action(
            "&Cancel scoring", self.controller.cancel, None, "Stop scoring; keep the rows so far"
        )
        self.quit_action = self._action("&Quit", self.close, sk.Quit)
        self.find_action = self._action(
            "&Find…", self._on_find_triggered, sk.Find, "Search the texts"
        )
        self.addAction(self.find_action)
        self.highlight_group = QActionGroup(self)
        self.highlight_group.setExclusive(True)
        self.highlight_group.triggered.connect(self._on_highlight_triggered)
        self.highlight_actions: dict[str, QAction] = {}

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
        file_menu.addSeparator()
        file_menu.addAction(self.quit_action)
        view_menu = menu.addMenu("&View")
        view_menu.addAction(self.find_action)
        view_menu.addSeparator()
        self.highlight_menu = view_menu.addMenu("&Highlight")
        view_menu.addSeparator()
        view_menu.addAction(self.summary_dock.toggleViewAction())
        scoring_menu = menu.addMenu("&Scoring")
        scoring_menu.addAction(self.settings_action)
        scoring_menu.addAction(self.cancel_action)

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
        bar = self.statusBar()
        self.progress_bar = ProgressStrip()
        self.progress_label = QLabel()
        self.cancel_button = QPushButton("Cancel")
        self.cancel_button.setToolTip("Stop scoring; the rows scored so far stay")
        self.cancel_button.clicked.connect(self.controller.cancel)
        self.signature_field = QLineEdit()
        self.signature_field.setObjectName("signature")
        self.signature_field.setReadOnly(True)
        self.signature_field.setFrame(False)
        self.signature_field.setMinimumWidth(360)
        self.signature_field.setStyleSheet("QLineEdit { background: transparent; }")
        bar.addPermanentWidget(self.progress_label)
        bar.addPermanentWidget(self.progress_bar)
        bar.addPermanentWidget(self.cancel_button)
        bar.addPermanentWidget(QLabel("Signature:"))
        bar.addPermanentWidget(self.signature_field, 1)
        self.progress_bar.hide()
        self.progress_label.hide()
        self.cancel_button.hide()

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

    def open_specs(self, specs: ComparisonSpecs) -> bool:
        """Load and open the files of ``specs``; an InputError goes to the error sink.

        The files are read in a worker thread; the window keeps repainting meanwhile.
        """
        try:
            comparison = self.read_comparison(specs)
        except InputError as exc:
            self.report_error("Cannot open the comparison", str(exc))
            return False
        except OSError as exc:  # pragma: no cover - matchlight.core.io.inputs wraps these
            self.report_error("Cannot open the comparison", str(exc))
            return False
        self.set_comparison(comparison, specs)
        return True

    def read_comparison(self, specs: ComparisonSpecs) -> Comparison:
        """Read the files of ``specs`` in a worker thread, for :meth:`set_comparison`.

        What showing the comparison needs besides the texts is made there too, while the window
        waits anyway, rather than in the GUI thread (tens of milliseconds each on 100k rows):
        the text search's caches, the empty score table, the script check. Raises
        :class:`~core.io.inputs.InputError`. The Open dialog reads through this as well.
        """
        self.statusBar().showMessage("Reading the files…")
        release_long_lived()
        # A new comparison starts from the default settings (see ComparisonSession).
        config = ScoringConfig()

        def read() -> _Prepared:
            loaded = specs.load()
            columns = [loaded.source, *loaded.references, *loaded.systems]
            text = loaded.corpus_text()
            source = loaded.source.lines if loaded.source is not None else None
            return _Prepared(
                comparison=loaded,
                text=text,
                search=[SearchColumn(c.lines).prepare() for c in columns if c is not None],
                table=empty_table(text, config),
                script=detect_script([c.lines for c in loaded.references]),
                details=compute_ahead(text, source, config, range(FIRST_SCREEN_ROWS)),
            )

        try:
            self._prepared = call_in_background(read)
        finally:
            self.statusBar().clearMessage()
        return self._prepared.comparison

    def set_comparison(self, comparison: Comparison, specs: ComparisonSpecs | None = None) -> None:
        """Show ``comparison`` and start scoring it under the current settings.

        The window is painted and the detail pane filled in the next turns of the event loop
        (:meth:`_reveal_next`).
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
        finally:  # whatever happened, the window is painted again
            self._reveal_timer.start(self._reveal_steps[0][0])
        self.comparison_opened.emit()

    def _show_comparison(self, comparison: Comparison, specs: ComparisonSpecs | None) -> None:
        self._comparison = comparison
        self._specs = specs
        prepared, self._prepared = self._prepared, None
        if prepared is not None and prepared.comparison is not comparison:
            prepared = None
        self._text = prepared.text if prepared else comparison.corpus_text()
        self._source = comparison.source.lines if comparison.source is not None else None
        self._cjk = (
            prepared.script if prepared else detect_script([c.lines for c in comparison.references])
        )
        self._dismissed.clear()
        self._pending_detail = None
        # Settings belong to the comparison: a new one starts from the defaults.
        self._config = ScoringConfig()
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
        table = self.controller.start(
            self._text, self._config, core.table, apply=self.session.apply_chunk
        )
        old_model, old_proxy, old_cache = self.model, self.proxy, self.detail_cache
        self.model = SegmentTableModel(self.session, self)
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
        self.table_view.setModel(self.proxy)
        self.table_view.selectionModel().currentRowChanged.connect(self._on_current_row_changed)
        self.table_view.sortByColumn(-1, Qt.SortOrder.AscendingOrder)
        self._size_columns()
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
            self.table_view.setItemDelegate(self.delegate)
        else:
            self.delegate.set_cache(self.detail_cache)
        self.delegate.set_reference_system(None)
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
        self.detail_pane.show_row(None)

        self.filter_bar.set_proxy(
            self.proxy,
            text_columns=[
                (str(self.model.headerData(c, Qt.Orientation.Horizontal)), c)
                for c in self.model.text_columns()
            ],
            systems=self._text.system_names,
            metrics=table.columns,
        )
        self.summary.set_table(table)
        self.baseline_combo.blockSignals(True)
        self.baseline_combo.clear()
        self.baseline_combo.addItems(list(self._text.system_names))
        self.baseline_combo.setCurrentIndex(0)
        self.baseline_combo.blockSignals(False)
        self.baseline_combo.setEnabled(len(self._text.system_names) > 1)
        self.ref_system_combo.blockSignals(True)
        self.ref_system_combo.clear()
        self.ref_system_combo.addItem("any system", -1)
        for i, system_name in enumerate(self._text.system_names):
            self.ref_system_combo.addItem(system_name, i)
        self.ref_system_combo.blockSignals(False)
        self.pages.setCurrentIndex(1)
        name = comparison_name(specs, comparison)
        self.setWindowTitle(f"{name} — {APP_NAME}")
        if specs is not None:
            self.recent.remember(specs)
        self._update_signature()
        self._update_warnings()
        self._update_actions()
        self._on_proxy_filter_changed()
        if self.proxy.rowCount():
            self.table_view.setCurrentIndex(self.proxy.index(0, 0))
        self.table_view.setFocus()
        settle_long_lived()

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
        self._update_signature()
        self._rebuild_highlight_actions()
        if self._text is None or self.model is None or self.session is None:
            return
        table = self.session.session.set_config(config)
        self.controller.start(self._text, config, table, apply=self.session.apply_chunk)
        if self.detail_cache is not None:
            self.detail_cache.set_config(config)
        self.detail_pane.set_config(config)
        self.summary.set_table(table)
        self.filter_bar.set_metrics(table.columns)
        self._update_warnings()
        self._update_actions()
        self._show_current_detail()

    def export_csv(self, path: str | Path, *, filtered: bool = False) -> Path | None:
        """Write the per-sentence CSV (all rows, or the filtered ones) with ``core.io.export``.

        Returns the CSV's path, or None when it could not be written (reported to the user).
        """
        table = self.table
        if table is None or self._comparison is None or self.session is None:
            self.report_error("Nothing to export", "Open a comparison first.")
            return None
        rows = None
        if filtered:
            rows = self.session.session.selected_rows().tolist()
        try:
            write_csv(path, table, rows=rows, inputs=comparison_inputs(self._comparison))
        except OSError as exc:
            self.report_error("Cannot export", f"{exc.filename or path}: {exc.strerror or exc}")
            return None
        count = table.n_segments if rows is None else len(rows)
        self.statusBar().showMessage(f"Exported {count} rows to {path}", 8000)
        return Path(path)

    def show_open_dialog(self, specs: ComparisonSpecs | None = None) -> OpenComparisonDialog:
        """Open the Open-comparison dialog (non-blocking), optionally prefilled."""
        if self.open_dialog is not None:
            self.open_dialog.close()
            self.open_dialog.deleteLater()
        dialog = OpenComparisonDialog(specs, self, read=self.read_comparison)
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

    # -- internals -----------------------------------------------------------------------------

    def _show_error_dialog(self, title: str, message: str) -> None:
        box = QMessageBox(
            QMessageBox.Icon.Critical, title, message, QMessageBox.StandardButton.Ok, self
        )
        box.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        box.open()

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
                width = max(number_width, title_metrics.horizontalAdvance(title) + 40)
            header.resizeSection(col, width)

    def column_menu(self) -> QMenu:
        """A menu of every column with a check box: hide what you do not need to read."""
        menu = QMenu(self)
        if self.model is None:
            return menu
        for col in range(self.model.columnCount()):
            title = str(self.model.headerData(col, Qt.Orientation.Horizontal))
            action = menu.addAction(title)
            action.setCheckable(True)
            action.setChecked(not self.table_view.isColumnHidden(col))
            action.setData(col)
            action.toggled.connect(self._on_column_toggled)
        return menu

    @Slot(bool)
    def _on_column_toggled(self, visible: bool) -> None:
        action = self.sender()
        if isinstance(action, QAction):
            self.table_view.setColumnHidden(int(action.data()), not visible)

    @Slot(QPoint)
    def _on_header_menu_requested(self, pos: QPoint) -> None:
        menu = self.column_menu()
        menu.exec(self.table_view.horizontalHeader().mapToGlobal(pos))
        menu.deleteLater()

    def _update_signature(self) -> None:
        nrefs = len(self._text.references) if self._text is not None else 1
        signature = self._config.signature(nrefs)
        self.signature_field.setText(signature)
        self.signature_field.setCursorPosition(0)
        self.signature_field.setToolTip(signature)

    def _update_actions(self) -> None:
        table = self.table
        ready = table is not None and self._comparison is not None and table.complete
        self.export_all_action.setEnabled(ready)
        self.export_filtered_action.setEnabled(ready)
        self.cancel_action.setEnabled(self.controller.running)

    def _update_warnings(self) -> None:
        items: list[BannerItem] = []
        table = self.table
        self._advice = {}
        if self._comparison is not None and table is not None:
            for advice in scoring_advice(
                table,
                script=self._cjk,
                has_marker=self._text is not None and has_sentence_marker(self._text.references),
            ):
                self._advice[advice.key] = advice
                items.append(BannerItem(advice.key, advice.message, advice.fix_label))
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

    # -- slots ---------------------------------------------------------------------------------

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
        if comparison is not None:
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
        if self._comparison is None:
            return
        stem = comparison_name(self._specs, self._comparison) or "matchlight"
        suggested = str(Path.home() / f"{stem}{'-filtered' if filtered else ''}.csv")
        caption = "Export filtered rows as CSV" if filtered else "Export all rows as CSV"
        path = self._save_path(self, caption, suggested)
        if path:
            self.export_csv(path, filtered=filtered)

    @Slot()
    def _on_find_triggered(self) -> None:
        self.filter_bar.focus_search()

    @Slot(QAction)
    def _on_highlight_triggered(self, action: QAction) -> None:
        mode = action.data()
        if isinstance(mode, str):
            self._set_mode(mode)

    def _set_mode(self, mode: str) -> None:
        self._mode = mode
        action = self.highlight_actions.get(mode)
        if action is not None and not action.isChecked():
            action.setChecked(True)
        if self.delegate is not None:
            self.delegate.set_mode(mode)
        self.detail_pane.set_mode(mode)
        self.table_view.viewport().update()

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

    @Slot()
    def _on_scoring_started(self) -> None:
        table = self.table
        total = table.n_segments if table is not None else 0
        self.progress_bar.setRange(0, max(1, total))
        self.progress_bar.setValue(0)
        self.progress_label.setText(f"Scoring 0 / {total:,}")
        self.progress_bar.show()
        self.progress_label.show()
        self.cancel_button.show()
        self.statusBar().showMessage("Scoring…")
        self._update_actions()

    @Slot(int, int)
    def _on_progress_changed(self, done: int, total: int) -> None:
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
        self.progress_bar.hide()
        self.progress_label.hide()
        self.cancel_button.hide()
        self.statusBar().showMessage(message, 8000)
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
        self._scoring_done(f"Scored {n} rows.")

    @Slot()
    def _on_scoring_cancelled(self) -> None:
        table = self.table
        done = table.n_done if table is not None else 0
        total = table.n_segments if table is not None else 0
        self._scoring_done(f"Scoring cancelled: {done} of {total} rows scored.")

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
        if _local_files(event.mimeData().urls()):
            event.acceptProposedAction()
        else:
            event.ignore()

    def dragMoveEvent(self, event: Any) -> None:
        if _local_files(event.mimeData().urls()):
            event.acceptProposedAction()
        else:
            event.ignore()

    def dropEvent(self, event: QDropEvent) -> None:
        paths = _local_files(event.mimeData().urls())
        if not paths:
            event.ignore()
            return
        event.acceptProposedAction()
        self.show_open_dialog(assign_roles(paths))

    def closeEvent(self, event: QCloseEvent) -> None:
        if not self._closed:
            self._closed = True
            self.settings.setValue(GEOMETRY_KEY, self.saveGeometry())
            self.settings.setValue(STATE_KEY, self.saveState())
            self.settings.sync()
            self.controller.shutdown()
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
    script: str | None
    details: dict[int, RowDetail]


def _local_files(urls: Sequence[QUrl]) -> list[str]:
    return [u.toLocalFile() for u in urls if u.isLocalFile() and Path(u.toLocalFile()).is_file()]


def _reference_names(comparison: Comparison) -> tuple[str, ...]:
    """The references' names as the files call them (``ref.en``, ``ref2.en``)."""
    return tuple(Path(c.path).stem or f"Ref {i + 1}" for i, c in enumerate(comparison.references))
