"""The warnings banner at the top of the window: non-modal, each warning dismissable."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from PySide6.QtCore import Qt, Signal, Slot
from PySide6.QtWidgets import (
    QFrame,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

__all__ = ["BannerItem", "WarningsBanner"]


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
        self.setStyleSheet(
            "#warnings-banner { background: #fff4ce; border: 1px solid #d9b945; }"
            " #warnings-banner QLabel { color: #3b2f00; }"
        )
        self._items: list[BannerItem] = []
        self._rows: dict[str, tuple[QWidget, QLabel, QPushButton | None, QToolButton]] = {}
        self._layout = QVBoxLayout(self)
        self._layout.setContentsMargins(8, 4, 4, 4)
        self._layout.setSpacing(2)
        self.hide()

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
