"""The warnings banner at the top of the window: non-modal, each warning dismissable.

It paints its own amber colours, so it picks a dark variant when the palette is dark (the ✕
and the buttons included, which would otherwise draw the palette's light text on the light
banner). It never takes more than :data:`MAX_HEIGHT_SHARE` of the window's height (at least
:data:`MIN_LINES` lines): several long warnings on a laptop screen scroll inside it rather than
push the table off the screen.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from PySide6.QtCore import QCoreApplication, QEvent, Qt, QTimer, Signal, Slot
from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import (
    QApplication,
    QFrame,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QScrollArea,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from matchlight.gui.highlight.palette import is_dark_palette

__all__ = ["BANNER_COLOURS", "MAX_HEIGHT_SHARE", "MIN_LINES", "BannerItem", "WarningsBanner"]

# The largest share of the window's height the banner takes; more warnings scroll.
MAX_HEIGHT_SHARE = 0.2
# Lines of text the banner may always show, however small the window.
MIN_LINES = 4

# (background, border, text) of the banner in a light and in a dark palette.
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
        self._inner = QWidget()
        self._inner.setObjectName("banner-inner")
        self._layout = QVBoxLayout(self._inner)
        self._layout.setContentsMargins(0, 0, 0, 0)
        self._layout.setSpacing(2)
        self._scroll = QScrollArea(self)
        self._scroll.setObjectName("banner-scroll")
        self._scroll.viewport().setObjectName("banner-viewport")
        self._scroll.setWidget(self._inner)
        self._scroll.setWidgetResizable(True)
        self._scroll.setFrameShape(QFrame.Shape.NoFrame)
        self._scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        outer = QVBoxLayout(self)
        outer.setContentsMargins(8, 4, 4, 4)
        outer.addWidget(self._scroll)
        self._fit_timer = QTimer(self)
        self._fit_timer.setSingleShot(True)
        self._fit_timer.setInterval(0)
        self._fit_timer.timeout.connect(self._fit_height)
        self.hide()

    def is_dark(self) -> bool:
        return bool(self._dark)

    def _apply_colours(self) -> None:
        """The banner's colours for the application palette (light or dark)."""
        # The application's palette: this frame's own palette holds the banner's colours once
        # the style sheet is set.
        dark = is_dark_palette(QApplication.palette())
        if dark == self._dark:
            return
        self._dark = dark
        background, border, text = BANNER_COLOURS[dark]
        self.setStyleSheet(
            f"#warnings-banner {{ background: {background}; border: 1px solid {border}; }}"
            " #banner-scroll, #banner-viewport, #banner-inner { background: transparent; }"
            f" #warnings-banner QLabel, #warnings-banner QToolButton {{ color: {text}; }}"
        )

    def refresh_colours(self) -> None:
        """Follow a new application palette. A widget with a style sheet is not told of one
        (its palette counts as set), so the window calls this when it is."""
        self._apply_colours()

    def changeEvent(self, event: QEvent) -> None:
        kinds = (QEvent.Type.PaletteChange, QEvent.Type.ApplicationPaletteChange)
        if event.type() in kinds:
            self._apply_colours()
        super().changeEvent(event)

    def max_height(self) -> int:
        """The most the warnings may take (their frame aside) before they scroll."""
        line = self.fontMetrics().lineSpacing()
        window = self.window()
        share = int(window.height() * MAX_HEIGHT_SHARE) if window is not self else 0
        return max(MIN_LINES * line + 8, share)

    def content_height(self) -> int:
        """The height the warnings need at the banner's width."""
        width = self._scroll.viewport().width()
        if self._layout.hasHeightForWidth() and width > 0:
            return self._layout.totalHeightForWidth(width)
        return self._inner.sizeHint().height()

    def refit(self) -> None:
        """Fit the height again (the window was resized)."""
        self._fit_timer.start()

    @Slot()
    def _fit_height(self) -> None:
        height = min(self.content_height(), self.max_height())
        self._scroll.setFixedHeight(height)
        # Lay the window out now rather than at its next layout request, so the banner is
        # never painted at its old height (an empty strip) with the new warnings in it.
        parent = self.parentWidget()
        layout = None if parent is None else parent.layout()
        if layout is not None and self.isVisible():
            layout.activate()

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        if event.size().width() != event.oldSize().width():
            self._fit_timer.start()

    def items(self) -> list[BannerItem]:
        return list(self._items)

    def keys(self) -> list[str]:
        return [item.key for item in self._items]

    def text_of(self, key: str) -> str:
        return self._rows[key][1].text()

    def label_of(self, key: str) -> QLabel:
        """The label holding the text of warning ``key``."""
        return self._rows[key][1]

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
            self._fit_timer.start()
            return
        for row, *_ in self._rows.values():
            self._layout.removeWidget(row)
            row.hide()
            row.deleteLater()
        self._rows.clear()
        self._items = items
        for item in items:
            row = QWidget(self._inner)
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
            close.setToolTip(QCoreApplication.translate("WarningsBanner", "Dismiss this warning"))
            close.setProperty("warning_key", item.key)
            close.clicked.connect(self._on_close_clicked)
            line.addWidget(close)
            self._layout.addWidget(row)
            # A child added to a visible widget stays hidden until shown: without this, a
            # banner already on screen when its warnings change is an empty strip.
            row.show()
            self._rows[item.key] = (row, label, button, close)
        self.setVisible(bool(items))
        self._fit_height()
        self._fit_timer.start()  # again once the rows are laid out at their width

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
