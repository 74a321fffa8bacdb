"""The interface language: View ▸ Language remembers the choice, the system locale decides
otherwise, and with the Korean translators installed the real widgets speak Korean (Qt's own
standard buttons too)."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QLocale, QSettings
from PySide6.QtWidgets import QApplication, QDialogButtonBox

from matchlight.gui.shell.language import (
    SETTINGS_KEY,
    install_from_settings,
    install_translators,
    resolve_language,
    translation_file,
)
from tests.gui.shell.windowkit import SHOTS, Harness, zh_specs

SHOT_DIR = SHOTS / "i18n"


@pytest.fixture
def korean(qapp):
    assert install_translators(qapp, "ko")
    yield
    install_translators(qapp, "en")


def _menu_titles(window) -> list[str]:
    return [a.text() for a in window.menuBar().actions()]


def test_the_system_locale_decides_unless_a_language_is_chosen() -> None:
    korean = QLocale("ko_KR")
    german = QLocale("de_DE")
    assert resolve_language("system", korean) == "ko"
    assert resolve_language("system", german) == "en"  # no German translation: English
    assert resolve_language("en", korean) == "en"
    assert resolve_language("ko", german) == "ko"
    assert translation_file("ko").is_file()


def test_view_language_remembers_the_choice(qtbot, tmp_path) -> None:
    h = Harness(qtbot, tmp_path)
    try:
        w = h.window
        menu = w.language_menu
        assert menu.title() == "&Language"
        assert [a.text() for a in menu.actions() if not a.isSeparator()] == [
            "System language",
            "English",
            "한국어",
        ]
        assert w.language.actions["system"].isChecked()
        with qtbot.waitSignal(w.language.language_chosen) as blocker:
            w.language.actions["ko"].trigger()
        assert blocker.args == ["ko"]
        assert (
            QSettings(str(h.settings_path), QSettings.Format.IniFormat).value(SETTINGS_KEY) == "ko"
        )
        assert w.statusBar().currentMessage() == (
            "The new interface language is used when Matchlight starts again."
        )
        # The window built at the next start reads the choice and checks it.
        again = Harness(qtbot, tmp_path)
        assert again.window.language.actions["ko"].isChecked()
        again.window.close()
    finally:
        h.window.close()


def test_the_chosen_language_is_installed_at_start(qapp, qtbot, tmp_path) -> None:
    settings = QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat)
    settings.setValue(SETTINGS_KEY, "ko")
    try:
        assert install_from_settings(qapp, settings) == "ko"
        assert QApplication.translate("menus", "&File") == "파일(&F)"
        settings.setValue(SETTINGS_KEY, "en")
        assert install_from_settings(qapp, settings) == "en"
        assert QApplication.translate("menus", "&File") == "&File"
    finally:
        install_translators(qapp, "en")


def test_the_window_in_korean(korean, qtbot, tmp_path) -> None:
    h = Harness(qtbot, tmp_path)
    try:
        w = h.window
        titles = _menu_titles(w)
        # The Annotate menu stands before Help in Korean too (it was found by Help's English name).
        assert titles == ["파일(&F)", "편집(&E)", "보기(&V)", "채점(&S)", "주석(&A)", "도움말(&H)"]
        assert w.open_action.text() == "비교 열기(&O)…"
        assert w.language_menu.title() == "언어(&L)"
        bar = w.filter_bar
        assert bar.clear_button.text() == "필터 지우기"
        assert bar.column_combo.itemText(0) == "모든 텍스트 열"
        assert bar.special_combo.itemText(0) == "모든 행"
        assert bar.case_button.toolTip() == "대소문자 구분"
        dialog = w.show_settings_dialog()
        assert dialog.windowTitle() == "채점 설정 — Matchlight"
        # Qt's own words come from qtbase_ko.qm.
        box = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel)
        assert box.button(QDialogButtonBox.StandardButton.Cancel).text() == "취소"
        dialog.close()
    finally:
        h.window.close()


def test_screenshots_of_a_real_comparison_in_korean(korean, qtbot, tmp_path) -> None:
    h = Harness(qtbot, tmp_path)
    try:
        w = h.window
        w.resize(1280, 720)
        w.show()
        h.open_and_wait(zh_specs())
        h.select(3)
        SHOT_DIR.mkdir(parents=True, exist_ok=True)
        for _ in range(5):
            QApplication.processEvents()
        assert w.grab().save(str(SHOT_DIR / "main-ko.png"))
        assert w.filter_bar.count_label.text().endswith("행")
        for name, menu in (("file", w.file_menu), ("view", w.menuBar().actions()[2].menu())):
            menu.popup(w.mapToGlobal(w.rect().topLeft()))
            qtbot.waitUntil(menu.isVisible)
            assert menu.grab().save(str(SHOT_DIR / f"menu-{name}-ko.png"))
            menu.hide()
        dialog = w.show_settings_dialog()
        qtbot.waitUntil(dialog.isVisible)
        assert dialog.grab().save(str(SHOT_DIR / "settings-ko.png"))
        dialog.close()
    finally:
        h.window.close()
