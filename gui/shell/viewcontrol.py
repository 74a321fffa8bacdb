"""How the window shows things, apart from what it shows: text size, row height, theme, the
highlight mode, and the per-comparison arrangement remembered between runs.

:class:`ViewControl` keeps the app-wide choices in QSettings (zoom, row height, theme) and a
comparison's arrangement (hidden columns, widths, highlight mode, scores shown, baseline) both in
the comparison's session layout and in QSettings keyed by its files (:mod:`.viewstate`), saved a
moment after it changes. None of this changes a number.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from PySide6.QtCore import QCoreApplication, QObject, QSettings, QTimer, Slot
from PySide6.QtGui import QAction, QActionGroup, QFont, QKeySequence
from PySide6.QtWidgets import QApplication

from matchlight.core.io.specs import ComparisonSpecs
from matchlight.gui.shell.theme import THEME_KEY, THEMES, apply_theme, stored_theme
from matchlight.gui.shell.viewstate import ViewState, ViewStateStore, column_id

__all__ = ["ROW_LINES", "ZOOM_RANGE", "ViewControl"]

ZOOM_KEY = "view/zoom"
ROW_LINES_KEY = "view/row_lines"
# Zoom steps (points added to the table's and the detail pane's font), and their bounds.
ZOOM_RANGE = (-4, 16)
# The row heights on offer, in lines of text.
ROW_LINES = (2, 4, 8)
# How long view-state changes are collected before they are saved.
VIEW_SAVE_MS = 400


def _stored_int(settings: QSettings, key: str, default: int, low: int, high: int) -> int:
    value = settings.value(key)
    try:
        number = int(value)  # type: ignore[call-overload]
    except (TypeError, ValueError):
        return default
    return number if low <= number <= high else default


class ViewControl(QObject):
    """Zoom, row height, theme, highlight mode and the remembered arrangement of a window."""

    def __init__(self, window: Any) -> None:
        super().__init__(window)
        self.window = window
        self.settings: QSettings = window.settings
        self._store = ViewStateStore(self.settings)
        self._restoring = False
        self.zoom = _stored_int(self.settings, ZOOM_KEY, 0, *ZOOM_RANGE)
        lines = _stored_int(self.settings, ROW_LINES_KEY, ROW_LINES[0], 1, 99)
        self.row_lines = lines if lines in ROW_LINES else ROW_LINES[0]
        self.theme = stored_theme(self.settings)
        self.mode = window.config.highlight_modes()[0].key
        self._base_font = QFont(QApplication.font())
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(VIEW_SAVE_MS)
        self._timer.timeout.connect(self.save)
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
            action.setChecked(key == self.theme)
            action.setData(key)
            self.theme_actions[key] = action
        self.theme_group.triggered.connect(self._on_theme_triggered)
        self.row_lines_group = QActionGroup(self)
        self.row_lines_group.setExclusive(True)
        self.row_lines_actions: dict[int, QAction] = {}
        for lines in ROW_LINES:
            action = QAction(
                QCoreApplication.translate("ViewControl", "{lines} lines of text").format(
                    lines=lines
                ),
                self.row_lines_group,
            )
            action.setCheckable(True)
            action.setChecked(lines == self.row_lines)
            action.setData(lines)
            self.row_lines_actions[lines] = action
        self.row_lines_group.triggered.connect(self._on_row_lines_triggered)
        if self.theme != "system":
            apply_theme(self.theme)

    # -- theme, zoom, row height ---------------------------------------------------------------

    def set_theme(self, theme: str) -> None:
        """View ▸ Theme: ``system``, ``light`` or ``dark``, for the whole app; remembered."""
        apply_theme(theme)
        self.theme = theme
        self.theme_actions[theme].setChecked(True)
        self.settings.setValue(THEME_KEY, theme)

    def set_zoom(self, steps: int) -> None:
        """Text size of the table and the detail pane, in points from the app's; remembered."""
        steps = max(ZOOM_RANGE[0], min(ZOOM_RANGE[1], steps))
        if steps == self.zoom:
            return
        self.zoom = steps
        self.settings.setValue(ZOOM_KEY, steps)
        self.apply_zoom()

    def set_row_lines(self, lines: int) -> None:
        """Rows tall enough for ``lines`` lines of text (one of :data:`ROW_LINES`)."""
        if lines not in ROW_LINES:
            raise ValueError(f"row height must be one of {ROW_LINES} lines, not {lines}")
        self.row_lines = lines
        self.row_lines_actions[lines].setChecked(True)
        self.settings.setValue(ROW_LINES_KEY, lines)
        table_view = self.window.table_view
        table_view.verticalHeader().setDefaultSectionSize(self.row_height())

    def row_height(self) -> int:
        metrics = self.window.table_view.fontMetrics()
        return self.row_lines * metrics.lineSpacing() + 8

    def apply_zoom(self) -> None:
        w = self.window
        font = QFont(self._base_font)
        size = self._base_font.pointSizeF()
        if size > 0:
            font.setPointSizeF(max(4.0, size + self.zoom))
        else:  # a pixel-sized font
            font.setPixelSize(max(6, self._base_font.pixelSize() + self.zoom))
        w.table_view.setFont(font)
        w.detail_pane.setFont(font)
        w.table_view.verticalHeader().setDefaultSectionSize(self.row_height())
        w.zoom_reset_action.setEnabled(self.zoom != 0)
        delegate = w.delegate
        if delegate is not None:
            delegate.set_dark(None)  # drops the documents laid out in the old font
        pane = w.detail_pane
        if pane.detail() is not None:
            pane.show_row(pane.detail())

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

    # -- the highlight mode --------------------------------------------------------------------

    @Slot()
    def rebuild_highlight_actions(self) -> None:
        """One checkable action per highlight mode of the settings (Ctrl+1, Ctrl+2...)."""
        w = self.window
        modes = w.config.highlight_modes()
        keys = [m.key for m in modes]
        if keys == list(self.highlight_actions):
            return
        for action in self.highlight_actions.values():
            self.highlight_group.removeAction(action)
            w.toolbar.removeAction(action)
            w.highlight_menu.removeAction(action)
            action.deleteLater()
        self.highlight_actions = {}
        if self.mode not in keys:
            self.mode = keys[0]
        for n, mode in enumerate(modes, start=1):
            action = QAction(mode.label, self.highlight_group)
            action.setCheckable(True)
            action.setChecked(mode.key == self.mode)
            action.setData(mode.key)
            if n <= 9:
                action.setShortcut(QKeySequence(f"Ctrl+{n}"))
            action.setToolTip(
                QCoreApplication.translate("ViewControl", "Highlight {0}").format(mode.label)
            )
            self.highlight_actions[mode.key] = action
            w.toolbar.insertAction(w.highlight_anchor, action)
            w.highlight_menu.addAction(action)
        self.set_mode(self.mode)

    def set_mode(self, mode: str) -> None:
        w = self.window
        self.mode = mode
        action = self.highlight_actions.get(mode)
        if action is not None and not action.isChecked():
            action.setChecked(True)
        if w.delegate is not None:
            w.delegate.set_mode(mode)
        w.detail_pane.set_mode(mode)
        w.table_view.viewport().update()
        self.schedule_save()

    @Slot(QAction)
    def _on_highlight_triggered(self, action: QAction) -> None:
        mode = action.data()
        if isinstance(mode, str):
            self.set_mode(mode)

    @Slot(str)
    def on_detail_mode_changed(self, mode: str) -> None:
        """The detail pane's mode switch drives the table (and the menu) too."""
        if mode and mode != self.mode and mode in self.highlight_actions:
            self.set_mode(mode)

    # -- the comparison's arrangement ----------------------------------------------------------

    def state(self) -> ViewState:
        """What the user arranged for the open comparison."""
        w = self.window
        model, table_view = w.model, w.table_view
        if model is None:
            return ViewState()
        header = table_view.horizontalHeader()
        ids = [column_id(model.column_info(c)) for c in range(model.columnCount())]
        core = w.lifecycle.core
        baseline = core.baseline if core is not None else 0
        return ViewState(
            hidden=tuple(i for c, i in enumerate(ids) if table_view.isColumnHidden(c)),
            widths={i: header.sectionSize(c) for c, i in enumerate(ids) if header.sectionSize(c)},
            mode=self.mode,
            shown=model.shown_scores,
            baseline=model.text.system_names[baseline],
        )

    def stored(self, specs: ComparisonSpecs | None) -> ViewState | None:
        """The arrangement remembered for ``specs``'s files, if any."""
        return None if specs is None else self._store.load(specs)

    @Slot()
    def save(self) -> None:
        """Write the arrangement into the session's layout and QSettings."""
        self._timer.stop()
        w = self.window
        core = w.lifecycle.core
        if core is None or w.model is None or self._restoring:
            return
        state = self.state()
        core.set_layout(**state.to_dict())
        if core.specs is not None:
            self._store.save(core.specs, state)

    def schedule_save(self) -> None:
        if not self._restoring and self.window.model is not None:
            self._timer.start()

    def stop(self) -> None:
        self._timer.stop()

    @contextmanager
    def restoring(self) -> Iterator[None]:
        """Changes made meanwhile put a remembered arrangement back: nothing is saved."""
        self._restoring = True
        try:
            yield
        finally:
            self._restoring = False
