"""The warnings banner at the top of the window: non-modal, each warning dismissable.

It paints its own amber colours, so it picks a dark variant when the palette is dark (the ✕
and the buttons included, which would otherwise draw the palette's light text on the light
banner).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from PySide6.QtCore import QEvent, Qt, Signal, Slot
from PySide6.QtWidgets import (
    QApplication,
    QFrame,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from matchlight.gui.highlight.palette import is_dark_palette

__all__ = ["BANNER_COLOURS", "BannerItem", "WarningsBanner"]

#: (background, border, text) of the banner in a light and in a dark palette.
BANNER_COLOURS = {
    False: ("#fff4ce", "#d9b945", "#3b2f00"),
    True: ("#4a3c08", "#8a7222", "#f5e7b8"),
}


@dataclass(frozen=True, slots=True)
class BannerItem:
    """One warning in the banner; ``action`` is the label of its fix-it button (if any)."""

    key: str
    text: str
    action: str | None = None


class WarningsBanner(QFrame):
    """A dismissable, non-modal bar of warnings at the top of the window.

    Signals:
        action_requested(str key): the user clicked the fix-it button of warning ``key``.
        dismissed(str key): the user closed warning ``key``.
    """

    action_requested = Signal(str)
    dismissed = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("warnings-banner")
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self._dark: bool | None = None
        self._apply_colours()
        self._items: list[BannerItem] = []
        self._rows: dict[str, tuple[QWidget, QLabel, QPushButton | None, QToolButton]] = {}
        self._layout = QVBoxLayout(self)
        self._layout.setContentsMargins(8, 4, 4, 4)
        self._layout.setSpacing(2)
        self.hide()

    def is_dark(self) -> bool:
        return bool(self._dark)

    def _apply_colours(self) -> None:
        # The parent's (or the application's) palette: this frame's own palette holds the
        # banner's colours once the style sheet is set.
        parent = self.parentWidget()
        dark = is_dark_palette(parent.palette() if parent is not None else QApplication.palette())
        if dark == self._dark:
            return
        self._dark = dark
        background, border, text = BANNER_COLOURS[dark]
        self.setStyleSheet(
            f"#warnings-banner {{ background: {background}; border: 1px solid {border}; }}"
            f" #warnings-banner QLabel, #warnings-banner QToolButton {{ color: {text}; }}"
        )

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.PaletteChange:
            self._apply_colours()
        super().changeEvent(event)

    def items(self) -> list[BannerItem]:
        return list(self._items)

    def keys(self) -> list[str]:
        return [item.key for item in self._items]

    def text_of(self, key: str) -> str:
        return self._rows[key][1].text()

    def button(self, key: str) -> QPushButton | None:
        """The fix-it button of warning ``key`` (None if it has none)."""
        return self._rows[key][2]

    def close_button(self, key: str) -> QToolButton:
        """The dismiss button of warning ``key``."""
        return self._rows[key][3]

    def set_items(self, items: Sequence[BannerItem]) -> None:
        """Show exactly ``items`` (rows are rebuilt only when the set of warnings changes)."""
        items = list(items)
        if [(i.key, i.action) for i in items] == [(i.key, i.action) for i in self._items]:
            for item in items:
                self._rows[item.key][1].setText(item.text)
            self._items = items
            return
        for row, *_ in self._rows.values():
            self._layout.removeWidget(row)
            row.hide()
            row.deleteLater()
        self._rows.clear()
        self._items = items
        for item in items:
            row = QWidget(self)
            line = QHBoxLayout(row)
            line.setContentsMargins(0, 0, 0, 0)
            icon = QLabel("⚠")
            label = QLabel(item.text)
            label.setWordWrap(True)
            label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
            line.addWidget(icon)
            line.addWidget(label, 1)
            button: QPushButton | None = None
            if item.action:
                button = QPushButton(item.action)
                button.setProperty("warning_key", item.key)
                button.clicked.connect(self._on_action_clicked)
                line.addWidget(button)
            close = QToolButton()
            close.setText("✕")
            close.setAutoRaise(True)
            close.setToolTip("Dismiss this warning")
            close.setProperty("warning_key", item.key)
            close.clicked.connect(self._on_close_clicked)
            line.addWidget(close)
            self._layout.addWidget(row)
            self._rows[item.key] = (row, label, button, close)
        self.setVisible(bool(items))

    @Slot()
    def _on_action_clicked(self) -> None:
        key = self.sender().property("warning_key")
        if isinstance(key, str):
            self.action_requested.emit(key)

    @Slot()
    def _on_close_clicked(self) -> None:
        key = self.sender().property("warning_key")
        if isinstance(key, str):
            self.set_items([i for i in self._items if i.key != key])
            self.dismissed.emit(key)
