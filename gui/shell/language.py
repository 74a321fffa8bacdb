"""The interface language: Matchlight's own translation plus Qt's, chosen at start.

The language comes from the system locale unless View ▸ Language names one; the choice is kept
in QSettings under :data:`SETTINGS_KEY` and takes effect when Matchlight starts again (widgets
set their text when they are built, so a switch applies on restart, never half-way). English is
the source language and needs no file. For Korean, ``resources/i18n/matchlight_ko.qm`` (built
from ``matchlight_ko.ts`` with ``pyside6-lrelease``) translates Matchlight's text and Qt's own
``qtbase_ko.qm`` the standard dialogs and buttons. Error messages that come from core stay
English.
"""

from __future__ import annotations

from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from PySide6.QtCore import (
    QCoreApplication,
    QLibraryInfo,
    QLocale,
    QObject,
    QSettings,
    QTranslator,
    Signal,
    Slot,
)
from PySide6.QtGui import QAction, QActionGroup
from PySide6.QtWidgets import QMenu

__all__ = [
    "LANGUAGES",
    "SETTINGS_KEY",
    "SYSTEM",
    "LanguageMenu",
    "install_translators",
    "resolve_language",
    "translation_file",
]

# QSettings key of the chosen language: "system", or a code of :data:`LANGUAGES`.
SETTINGS_KEY = "ui/language"
SYSTEM = "system"


@dataclass(frozen=True, slots=True)
class Language:
    code: str
    # The language's name in itself (shown so in the menu whatever the current language).
    name: str


# The interface languages, English (the source) first.
LANGUAGES: tuple[Language, ...] = (Language("en", "English"), Language("ko", "한국어"))
_CODES = {language.code for language in LANGUAGES}

# The translators installed by :func:`install_translators` (Qt does not own them).
_installed: list[QTranslator] = []


def translation_file(code: str) -> Path:
    """Matchlight's compiled translation for ``code`` (a package data file)."""
    return Path(str(resources.files("matchlight.resources") / "i18n" / f"matchlight_{code}.qm"))


def chosen_language(settings: QSettings) -> str:
    """The choice kept in ``settings``: :data:`SYSTEM` or a language code."""
    value = settings.value(SETTINGS_KEY, SYSTEM)
    return value if isinstance(value, str) and (value in _CODES or value == SYSTEM) else SYSTEM


def resolve_language(choice: str, locale: QLocale | None = None) -> str:
    """The language code to show for ``choice``: the system locale's when it is
    :data:`SYSTEM` (or unknown), English when the locale's language has no translation."""
    if choice in _CODES:
        return choice
    locale = locale if locale is not None else QLocale.system()
    for name in locale.uiLanguages():
        code = name.replace("_", "-").split("-")[0].lower()
        if code in _CODES:
            return code
    return "en"


def install_translators(app: QCoreApplication, code: str) -> bool:
    """Show the interface in language ``code`` from now on (removing the translators installed
    before); True when every file needed was loaded (English needs none)."""
    for translator in _installed:
        app.removeTranslator(translator)
    _installed.clear()
    if code == "en":
        return True
    ok = True
    own = QTranslator(app)
    if own.load(str(translation_file(code))):
        _installed.append(own)
    else:
        ok = False
    qt = QTranslator(app)
    qt_folder = QLibraryInfo.path(QLibraryInfo.LibraryPath.TranslationsPath)
    if qt.load(f"qtbase_{code}", qt_folder):
        _installed.append(qt)
    else:
        ok = False
    for translator in _installed:
        app.installTranslator(translator)
    return ok


def install_from_settings(app: QCoreApplication, settings: QSettings) -> str:
    """Install the translators for the language ``settings`` ask for; returns its code."""
    code = resolve_language(chosen_language(settings))
    install_translators(app, code)
    return code


class LanguageMenu(QObject):
    """View ▸ Language: English, 한국어 or the system's, remembered in the settings.

    Signals:
        language_chosen(str): the choice (a code or "system") was changed by the user.
    """

    language_chosen = Signal(str)

    def __init__(self, settings: QSettings, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._settings = settings
        self.menu = QMenu(QCoreApplication.translate("LanguageMenu", "&Language"))
        self.menu.setObjectName("language-menu")
        group = QActionGroup(self.menu)
        self.actions: dict[str, QAction] = {}
        system = QAction(QCoreApplication.translate("LanguageMenu", "System language"), group)
        entries = [(SYSTEM, system)]
        entries += [(language.code, QAction(language.name, group)) for language in LANGUAGES]
        chosen = chosen_language(settings)
        for code, action in entries:
            action.setCheckable(True)
            action.setChecked(code == chosen)
            action.setData(code)
            action.triggered.connect(self._on_action_triggered)
            self.actions[code] = action
            self.menu.addAction(action)
        self.menu.insertSeparator(self.actions[LANGUAGES[0].code])

    @Slot()
    def _on_action_triggered(self) -> None:
        action = self.sender()
        if not isinstance(action, QAction):
            return
        code = str(action.data())
        if code == chosen_language(self._settings):
            return
        self._settings.setValue(SETTINGS_KEY, code)
        self._settings.sync()
        self.language_chosen.emit(code)
