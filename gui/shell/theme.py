"""View ▸ Theme: the system's look, or Matchlight's own light or dark palette.

A theme is view state (remembered in QSettings under :data:`THEME_KEY`), never scoring state.
Light and dark use Qt's Fusion style with a full palette, so every widget follows, and the
widgets that paint their own colours (the table's highlight tints, the detail pane, the
histogram, the warnings banner) pick the dark variant from the palette's base colour
(:func:`gui.highlight.palette.is_dark_palette`). "System" puts back the style and palette the
application started with.
"""

from __future__ import annotations

from PySide6.QtCore import QSettings
from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import QApplication, QStyleFactory

__all__ = ["THEMES", "THEME_KEY", "apply_theme", "stored_theme", "theme_palette"]

THEME_KEY = "view/theme"
# Theme keys and their menu labels, in menu order.
THEMES: dict[str, str] = {"system": "&System", "light": "&Light", "dark": "&Dark"}

# The style and palette the application had before any theme was applied.
_original: tuple[str, QPalette] | None = None

_ROLES = QPalette.ColorRole
_LIGHT = {
    _ROLES.Window: "#efefef",
    _ROLES.WindowText: "#1b1b1b",
    _ROLES.Base: "#ffffff",
    _ROLES.AlternateBase: "#f5f5f5",
    _ROLES.ToolTipBase: "#ffffdc",
    _ROLES.ToolTipText: "#1b1b1b",
    _ROLES.PlaceholderText: "#767676",
    _ROLES.Text: "#1b1b1b",
    _ROLES.Button: "#efefef",
    _ROLES.ButtonText: "#1b1b1b",
    _ROLES.BrightText: "#ffffff",
    _ROLES.Light: "#ffffff",
    _ROLES.Midlight: "#e3e3e3",
    _ROLES.Mid: "#a0a0a0",
    _ROLES.Dark: "#a0a0a0",
    _ROLES.Shadow: "#696969",
    _ROLES.Highlight: "#3d7fc4",
    _ROLES.HighlightedText: "#ffffff",
    _ROLES.Link: "#1a5fb4",
    _ROLES.LinkVisited: "#7a3fa8",
}
_DARK = {
    _ROLES.Window: "#2b2b2b",
    _ROLES.WindowText: "#e6e6e6",
    _ROLES.Base: "#1f1f1f",
    _ROLES.AlternateBase: "#272727",
    _ROLES.ToolTipBase: "#3a3a3a",
    _ROLES.ToolTipText: "#e6e6e6",
    _ROLES.PlaceholderText: "#8c8c8c",
    _ROLES.Text: "#e6e6e6",
    _ROLES.Button: "#353535",
    _ROLES.ButtonText: "#e6e6e6",
    _ROLES.BrightText: "#ffffff",
    _ROLES.Light: "#4a4a4a",
    _ROLES.Midlight: "#3c3c3c",
    _ROLES.Mid: "#505050",
    _ROLES.Dark: "#181818",
    _ROLES.Shadow: "#000000",
    _ROLES.Highlight: "#3d7fc4",
    _ROLES.HighlightedText: "#ffffff",
    _ROLES.Link: "#8ab4f8",
    _ROLES.LinkVisited: "#c58af9",
}


def theme_palette(theme: str) -> QPalette:
    """The full palette of the ``light`` or ``dark`` theme (disabled text greyed)."""
    colours = {"light": _LIGHT, "dark": _DARK}.get(theme)
    if colours is None:
        raise ValueError(f"no palette for theme {theme!r}; choose light or dark")
    palette = QPalette()
    for role, colour in colours.items():
        palette.setColor(role, QColor(colour))
    disabled = QColor("#8c8c8c" if theme == "dark" else "#9a9a9a")
    group = QPalette.ColorGroup.Disabled
    for role in (_ROLES.Text, _ROLES.WindowText, _ROLES.ButtonText, _ROLES.HighlightedText):
        palette.setColor(group, role, disabled)
    return palette


def stored_theme(settings: QSettings) -> str:
    """The remembered theme (``system`` when none or an unknown one is stored)."""
    value = settings.value(THEME_KEY)
    return value if isinstance(value, str) and value in THEMES else "system"


def apply_theme(theme: str) -> None:
    """Give the whole application the ``theme`` (a key of :data:`THEMES`)."""
    global _original
    if theme not in THEMES:
        raise ValueError(f"unknown theme {theme!r}; choose one of {', '.join(THEMES)}")
    app = QApplication.instance()
    if not isinstance(app, QApplication):
        return
    if _original is None:
        if theme == "system":
            return  # nothing was changed yet
        _original = (app.style().name(), QPalette(app.palette()))
    if theme == "system":
        style, palette = _original
        app.setStyle(QStyleFactory.create(style) or style)
        app.setPalette(palette)
        return
    if app.style().name().lower() != "fusion":
        app.setStyle("Fusion")
    app.setPalette(theme_palette(theme))
