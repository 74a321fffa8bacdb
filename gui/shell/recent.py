"""The File ▸ Open recent list: comparisons opened before, remembered in QSettings."""

from __future__ import annotations

import json

from PySide6.QtCore import QObject, QSettings, Signal, Slot
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QMenu, QWidget

from matchlight.gui.dialogs.opendialog import ComparisonSpecs

__all__ = ["RECENT_KEY", "RECENT_LIMIT", "RecentComparisons"]

RECENT_KEY = "recent/comparisons"
RECENT_LIMIT = 10


class RecentComparisons(QObject):
    """The remembered comparisons and the menu that lists them.

    Signals:
        open_requested(ComparisonSpecs): the user picked an entry of the menu.
    """

    open_requested = Signal(object)

    def __init__(self, settings: QSettings, parent: QWidget) -> None:
        super().__init__(parent)
        self._settings = settings
        self.menu = QMenu("Open &recent", parent)
        self.menu.triggered.connect(self._on_menu_triggered)
        self._rebuild()

    def entries(self) -> list[ComparisonSpecs]:
        """The remembered comparisons, most recent first (unreadable entries skipped)."""
        raw = self._settings.value(RECENT_KEY)
        if not isinstance(raw, str):
            return []
        try:
            data = json.loads(raw)
        except ValueError:
            return []
        if not isinstance(data, list):
            return []
        result = []
        for item in data:
            try:
                result.append(ComparisonSpecs.from_json(item))
            except ValueError:
                continue
        return result[:RECENT_LIMIT]

    def remember(self, specs: ComparisonSpecs) -> None:
        entries = [specs, *[s for s in self.entries() if s != specs]][:RECENT_LIMIT]
        self._settings.setValue(RECENT_KEY, json.dumps([s.to_json() for s in entries]))
        self._settings.sync()
        self._rebuild()

    def clear(self) -> None:
        self._settings.remove(RECENT_KEY)
        self._rebuild()

    def _rebuild(self) -> None:
        self.menu.clear()
        entries = self.entries()
        for i, specs in enumerate(entries):
            action = self.menu.addAction(f"&{(i + 1) % 10} {specs.label()}")
            action.setData(i)
            action.setToolTip("\n".join(specs.paths))
            action.setStatusTip(" ".join(specs.paths))
        if entries:
            separator = self.menu.addSeparator()
            separator.setData("separator")  # never None data, see qtfix.guard_none_refcount
            clear = self.menu.addAction("Clear the list")
            clear.setData("clear")
        self.menu.setEnabled(bool(entries))

    @Slot(QAction)
    def _on_menu_triggered(self, action: QAction) -> None:
        data = action.data()
        if data == "clear":
            self.clear()
            return
        entries = self.entries()
        if isinstance(data, int) and 0 <= data < len(entries):
            self.open_requested.emit(entries[data])
