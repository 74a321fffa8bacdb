"""The File menu's recent lists: comparisons and session files opened before, in QSettings.

:class:`RecentList` is one list and its menu (most recent first, at most :data:`RECENT_LIMIT`
entries, unreadable ones skipped, a "Clear the list" entry); :class:`RecentComparisons` keeps
comparisons' files (File ▸ Open recent), :class:`RecentSessions` session files (File ▸ Recent
sessions).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from PySide6.QtCore import QObject, QSettings, Signal, Slot
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QMenu, QWidget

from matchlight.core.io.specs import ComparisonSpecs

__all__ = [
    "RECENT_KEY",
    "RECENT_LIMIT",
    "RECENT_SESSIONS_KEY",
    "RecentComparisons",
    "RecentList",
    "RecentSessions",
]

RECENT_KEY = "recent/comparisons"
RECENT_SESSIONS_KEY = "recent/sessions"
RECENT_LIMIT = 10


class RecentList(QObject):
    """Remembered entries and the menu that lists them.

    Signals:
        open_requested(object entry): the user picked an entry of the menu.
    """

    open_requested = Signal(object)

    def __init__(
        self,
        settings: QSettings,
        parent: QWidget,
        *,
        key: str,
        title: str,
        encode: Callable[[Any], Any],
        decode: Callable[[Any], Any],
        label: Callable[[Any], str],
        tip: Callable[[Any], str],
    ) -> None:
        """``encode``/``decode``: an entry to and from JSON (decode raises ValueError on an
        unreadable one); ``label``/``tip``: its menu text and tooltip."""
        super().__init__(parent)
        self._settings = settings
        self._key = key
        self._encode, self._decode = encode, decode
        self._label, self._tip = label, tip
        self.menu = QMenu(title, parent)
        self.menu.triggered.connect(self._on_menu_triggered)
        self._rebuild()

    def entries(self) -> list[Any]:
        """The remembered entries, most recent first (unreadable ones skipped)."""
        raw = self._settings.value(self._key)
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
                result.append(self._decode(item))
            except ValueError:
                continue
        return result[:RECENT_LIMIT]

    def remember(self, entry: Any) -> None:
        entries = [entry, *[e for e in self.entries() if e != entry]][:RECENT_LIMIT]
        self._settings.setValue(self._key, json.dumps([self._encode(e) for e in entries]))
        self._settings.sync()
        self._rebuild()

    def clear(self) -> None:
        self._settings.remove(self._key)
        self._rebuild()

    def _rebuild(self) -> None:
        self.menu.clear()
        entries = self.entries()
        for i, entry in enumerate(entries):
            action = self.menu.addAction(f"&{(i + 1) % 10} {self._label(entry)}")
            action.setData(i)
            action.setToolTip(self._tip(entry))
            action.setStatusTip(self._tip(entry).replace("\n", " "))
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


def _path(item: Any) -> str:
    if not isinstance(item, str) or not item:
        raise ValueError(f"not a path: {item!r}")
    return item


class RecentComparisons(RecentList):
    """File ▸ Open recent: the comparisons opened before (their :class:`ComparisonSpecs`)."""

    def __init__(self, settings: QSettings, parent: QWidget) -> None:
        super().__init__(
            settings,
            parent,
            key=RECENT_KEY,
            title="Open &recent",
            encode=ComparisonSpecs.to_json,
            decode=ComparisonSpecs.from_json,
            label=ComparisonSpecs.label,
            tip=lambda specs: "\n".join(specs.paths),
        )


class RecentSessions(RecentList):
    """File ▸ Recent sessions: session files opened or saved before (their paths)."""

    def __init__(self, settings: QSettings, parent: QWidget) -> None:
        super().__init__(
            settings,
            parent,
            key=RECENT_SESSIONS_KEY,
            title="Recent sessions",
            encode=str,
            decode=_path,
            label=lambda path: Path(path).name,
            tip=str,
        )
