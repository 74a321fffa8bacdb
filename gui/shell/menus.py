"""The main window's actions, menus and toolbar.

Built once by the window (:func:`build_actions`, then :func:`build_menus`); every action is an
attribute of the window, so its parts and the tests reach them by name. The highlight modes'
actions are the view's (:class:`~gui.shell.viewcontrol.ViewControl`), rebuilt when the metrics
scored change; the annotation and session entries are added by those features.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QComboBox, QLabel

from matchlight.gui.shell.exports import default_save_path
from matchlight.gui.shell.latexexport import LatexExporter
from matchlight.gui.shell.recent import RecentComparisons
from matchlight.gui.shell.reportexport import ReportExporter

__all__ = ["build_actions", "build_menus"]


def _action(
    window: Any, text: str, slot: Callable[[], None], shortcut: Any = None, tip: str = ""
) -> QAction:
    """An action of ``window`` with its shortcut(s) and tip, calling ``slot``."""
    action = QAction(text, window)
    if isinstance(shortcut, list | tuple):
        action.setShortcuts([QKeySequence(s) for s in shortcut])
    elif shortcut is not None:
        action.setShortcut(QKeySequence(shortcut))
    if tip:
        action.setStatusTip(tip)
        action.setToolTip(tip)
    action.triggered.connect(slot)
    return action


def build_actions(window: Any) -> None:
    """The window's actions (File, Edit, View, Scoring, Help), as attributes of ``window``."""
    sk = QKeySequence.StandardKey
    window.open_action = _action(
        window,
        "&Open comparison…",
        window._on_open_triggered,
        sk.Open,
        "Choose source, references and system outputs",
    )
    window.open_sample_action = _action(
        window,
        "Open the &sample",
        window._on_open_sample_triggered,
        None,
        "The bundled German→English sample",
    )
    window.export_all_action = _action(
        window,
        "&Export CSV (all rows)…",
        window.exports.ask_all,
        "Ctrl+E",
        "Per-sentence scores of every row, as matchlight score --csv writes them",
    )
    window.export_filtered_action = _action(
        window,
        "Export CSV (&filtered rows)…",
        window.exports.ask_filtered,
        "Ctrl+Shift+E",
        "Per-sentence scores of the rows the filter keeps",
    )
    window.report_export = ReportExporter(
        window,
        parent=window,
        ask_path=None
        if window.save_path_provider is default_save_path
        else window.save_path_provider,
        name=window.exports.name,
    )
    window.export_report_action = window.report_export.action
    window.latex_export = LatexExporter(
        window,
        parent=window,
        ask_path=None
        if window.save_path_provider is default_save_path
        else window.save_path_provider,
        name=window.exports.name,
    )
    window.settings_action = _action(
        window,
        "Scoring &settings…",
        window._on_settings_triggered,
        "Ctrl+,",
        "Tokenizers, smoothing, ROUGE options",
    )
    window.cancel_action = _action(
        window,
        "&Cancel scoring",
        window.controller.cancel,
        None,
        "Stop scoring; keep the rows so far",
    )
    window.resume_action = _action(
        window,
        "&Resume scoring",
        window.resume_scoring,
        None,
        "Score the rows left when scoring was cancelled",
    )
    window.quit_action = _action(window, "&Quit", window.close, sk.Quit)
    window.find_action = _action(
        window, "&Find…", window._on_find_triggered, sk.Find, "Search the texts"
    )
    window.addAction(window.find_action)
    window.copy_row_action = _action(
        window,
        "&Copy row",
        window.columns.copy_current_row,
        sk.Copy,
        "Copy the current row, every column, tab-separated with a header line",
    )
    window.copy_row_action.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
    window.table_view.addAction(window.copy_row_action)
    window.zoom_in_action = _action(
        window,
        "Zoom &in",
        window.zoom_in,
        [sk.ZoomIn, "Ctrl+="],
        "Larger text in the table and pane",
    )
    window.zoom_out_action = _action(
        window, "Zoom &out", window.zoom_out, sk.ZoomOut, "Smaller text in the table and pane"
    )
    window.zoom_reset_action = _action(
        window, "&Actual size", window.zoom_reset, "Ctrl+0", "The application's text size"
    )
    window.shortcuts_action = _action(
        window, "&Keyboard shortcuts", window._on_shortcuts_triggered, "Ctrl+F1"
    )
    window.about_action = _action(window, "&About Matchlight", window._on_about_triggered)


def build_menus(window: Any) -> None:
    """The menu bar and the toolbar, from the actions and the window's parts."""
    menu = window.menuBar()
    file_menu = menu.addMenu("&File")
    file_menu.addAction(window.open_action)
    window.recent = RecentComparisons(window.settings, window)
    window.recent.open_requested.connect(window._on_recent_requested)
    window.recent_menu = window.recent.menu
    file_menu.addMenu(window.recent_menu)
    file_menu.addAction(window.open_sample_action)
    file_menu.addSeparator()
    file_menu.addAction(window.export_all_action)
    file_menu.addAction(window.export_filtered_action)
    file_menu.addAction(window.export_report_action)
    file_menu.addAction(window.latex_export.action)
    file_menu.aboutToShow.connect(window.latex_export.update_action)
    file_menu.addSeparator()
    for action in window.comparison_docks.actions():  # load segment scores, label columns
        file_menu.addAction(action)
    file_menu.addSeparator()
    file_menu.addAction(window.quit_action)
    edit_menu = menu.addMenu("&Edit")
    edit_menu.addAction(window.copy_row_action)
    edit_menu.addAction(window.find_action)
    view_menu = menu.addMenu("&View")
    window.highlight_menu = view_menu.addMenu("&Highlight")
    window.row_lines_menu = view_menu.addMenu("&Row height")
    for action in window.view.row_lines_actions.values():
        window.row_lines_menu.addAction(action)
    view_menu.addSeparator()
    view_menu.addAction(window.zoom_in_action)
    view_menu.addAction(window.zoom_out_action)
    view_menu.addAction(window.zoom_reset_action)
    view_menu.addSeparator()
    window.theme_menu = view_menu.addMenu("&Theme")
    for action in window.view.theme_actions.values():
        window.theme_menu.addAction(action)
    view_menu.addSeparator()
    view_menu.addAction(window.summary_dock.toggleViewAction())
    view_menu.addAction(window.comparison_docks.dock.toggleViewAction())
    scoring_menu = menu.addMenu("&Scoring")
    scoring_menu.addAction(window.settings_action)
    scoring_menu.addAction(window.cancel_action)
    scoring_menu.addAction(window.resume_action)
    help_menu = menu.addMenu("&Help")
    help_menu.addAction(window.shortcuts_action)
    help_menu.addAction(window.about_action)
    window.file_menu = file_menu

    toolbar = window.addToolBar("Main")
    toolbar.setObjectName("main-toolbar")
    toolbar.setMovable(False)
    toolbar.addAction(window.open_action)
    toolbar.addAction(window.export_all_action)
    toolbar.addAction(window.settings_action)
    toolbar.addSeparator()
    toolbar.addWidget(QLabel(" Highlight: "))
    window.highlight_anchor = toolbar.addSeparator()
    toolbar.addWidget(QLabel(" Baseline: "))
    window.baseline_combo = QComboBox()
    window.baseline_combo.setToolTip("The system the Δ columns compare against")
    window.baseline_combo.setMinimumContentsLength(12)
    window.baseline_combo.setSizeAdjustPolicy(
        QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon
    )
    window.baseline_combo.currentIndexChanged.connect(window._on_baseline_changed)
    toolbar.addWidget(window.baseline_combo)
    toolbar.addWidget(QLabel("  Reference matches of: "))
    window.ref_system_combo = QComboBox()
    window.ref_system_combo.setToolTip(
        "Whose matches the reference cells show: any system, or one system"
    )
    window.ref_system_combo.addItem("any system", -1)
    window.ref_system_combo.setMinimumContentsLength(12)
    window.ref_system_combo.setSizeAdjustPolicy(
        QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon
    )
    window.ref_system_combo.currentIndexChanged.connect(window._on_ref_system_changed)
    toolbar.addWidget(window.ref_system_combo)
    window.toolbar = toolbar
