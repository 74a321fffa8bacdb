"""The main window's size on the screen: the preferred size where the screen has room for it,
the screen's available area where it has not, and a remembered geometry only while it fits.

A window larger than the screen opens with its edges (and the dock tabs at its bottom) out of
reach, and a chart sized for the part that shows is a few pixels tall; the screen to fit is the
one the window opens on (:meth:`QScreen.availableGeometry`: without the desktop's panels).
"""

from __future__ import annotations

from PySide6.QtCore import QByteArray, QPoint, QRect, QSize, Qt
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QWidget

__all__ = ["FRAME_ROOM", "PREFERRED_SIZE", "fits", "fitted_geometry", "place_window"]

# The window's size where the screen has room for it.
PREFERRED_SIZE = QSize(1400, 900)
# Room kept free for what the window system adds around the window (title bar, borders): Qt
# only knows it once the window is shown.
FRAME_ROOM = QSize(8, 32)


def fitted_geometry(
    available: QRect, preferred: QSize = PREFERRED_SIZE, least: QSize | None = None
) -> QRect:
    """Where the window's frame goes: around ``preferred`` (the window's inside), made smaller
    where ``available`` (a screen's free area) is, but not below ``least`` (the window's
    minimum size), centred on ``available``; a window that cannot fit keeps its top left corner
    (the menus) on it."""
    inside = preferred.boundedTo(available.size() - FRAME_ROOM)
    inside = inside.expandedTo(least if least is not None else QSize(1, 1))
    rect = QRect(QPoint(0, 0), inside + FRAME_ROOM)
    rect.moveCenter(available.center())
    rect.moveLeft(max(available.left(), rect.left()))
    rect.moveTop(max(available.top(), rect.top()))
    return rect


def fits(geometry: QRect) -> bool:
    """Whether ``geometry`` lies within the free area of the screen under its centre."""
    screen = QGuiApplication.screenAt(geometry.center())
    return screen is not None and screen.availableGeometry().contains(geometry)


def place_window(window: QWidget, saved: object = None) -> None:
    """Size ``window`` to fit its screen, then restore ``saved`` (``QWidget.saveGeometry``'s
    bytes) if it still fits a screen: one saved on a larger screen, or with another set of
    screens, is dropped."""
    frame = fitted_geometry(window.screen().availableGeometry(), least=window.minimumSizeHint())

    def fit() -> None:
        window.resize(frame.size() - FRAME_ROOM)
        window.move(frame.topLeft())  # a window's position is its frame's

    fit()
    if not isinstance(saved, QByteArray) or not window.restoreGeometry(saved):
        return
    restored = window.normalGeometry() if window.isMaximized() else window.geometry()
    if not fits(restored):
        window.setWindowState(Qt.WindowState.WindowNoState)
        fit()
