"""Keyboard traps of the filter bar (issue 16, finding 8): typing never changes a setting the
user did not focus, one Tab goes from the search field to the table, and Esc (or Clear filters)
gives the keyboard back to the table or to the output being annotated."""

from __future__ import annotations

from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtGui import QWheelEvent
from PySide6.QtWidgets import QApplication, QComboBox, QWidget

from tests.gui.shell.windowkit import zh_specs


def _open(harness) -> None:
    window = harness.window
    window.resize(1280, 800)
    window.show()
    harness.qtbot.waitExposed(window)
    harness.open_and_show(zh_specs())
    QApplication.processEvents()


def _focused() -> QWidget | None:
    return QApplication.focusWidget()


def _combos(bar) -> list[QComboBox]:
    return [c for c in bar.findChildren(QComboBox) if c.isEnabled()]


def test_letters_typed_into_a_closed_combo_box_change_nothing(harness) -> None:
    _open(harness)
    bar = harness.window.filter_bar
    combos = _combos(bar)
    assert bar.special_combo in combos and bar.column_combo in combos
    for combo in combos:
        before = combo.currentIndex()
        combo.setFocus()
        harness.qtbot.keyClicks(combo, "rouge lsum")
        assert combo.currentIndex() == before, combo.currentText()
    assert not bar.has_active_filter()
    # The arrow keys still choose, deliberately.
    bar.special_combo.setFocus()
    harness.qtbot.keyClick(bar.special_combo, Qt.Key.Key_Down)
    assert bar.special_combo.currentIndex() == 1


def test_the_wheel_over_an_unfocused_combo_box_changes_nothing(harness) -> None:
    _open(harness)
    bar = harness.window.filter_bar
    harness.window.table_view.setFocus()
    combo = bar.special_combo
    centre = QPointF(combo.rect().center())
    wheel = QWheelEvent(
        centre,
        QPointF(combo.mapToGlobal(combo.rect().center())),
        QPoint(0, 0),
        QPoint(0, -120),  # one notch down
        Qt.MouseButton.NoButton,
        Qt.KeyboardModifier.NoModifier,
        Qt.ScrollPhase.NoScrollPhase,
        False,
    )
    QApplication.sendEvent(combo, wheel)
    assert combo.currentIndex() == 0 and not bar.has_active_filter()
    assert _focused() is harness.window.table_view


def test_clear_filters_gives_the_keyboard_back_to_the_table(harness) -> None:
    _open(harness)
    window, bar = harness.window, harness.window.filter_bar
    window.table_view.setFocus()
    harness.qtbot.mouseClick(bar.special_combo, Qt.MouseButton.LeftButton)  # opens its popup
    bar.special_combo.hidePopup()
    bar.special_combo.setCurrentIndex(1)  # "rows with an empty text"
    assert bar.has_active_filter()
    harness.qtbot.mouseClick(bar.clear_button, Qt.MouseButton.LeftButton)
    assert not bar.has_active_filter()
    assert _focused() is window.table_view
    harness.qtbot.keyClicks(window.table_view, "rouge")
    assert bar.special_combo.currentIndex() == 0 and not bar.has_active_filter()


def test_one_tab_from_the_search_field_to_the_table_and_back(harness) -> None:
    _open(harness)
    window, bar = harness.window, harness.window.filter_bar
    bar.focus_search()
    assert _focused() is bar.search_edit
    harness.qtbot.keyClick(bar.search_edit, Qt.Key.Key_Tab)
    assert _focused() is window.table_view
    # Tab leaves the table (rows are picked with the arrows) for the bar's other controls.
    harness.qtbot.keyClick(window.table_view, Qt.Key.Key_Tab)
    assert _focused() is bar.regex_button
    harness.qtbot.keyClick(bar.regex_button, Qt.Key.Key_Backtab)
    assert _focused() is window.table_view
    harness.qtbot.keyClick(window.table_view, Qt.Key.Key_Backtab)
    assert _focused() is bar.search_edit


def test_every_enabled_control_of_the_bar_is_still_on_the_tab_chain(harness) -> None:
    _open(harness)
    bar = harness.window.filter_bar
    wanted = {
        w
        for w in bar.findChildren(QWidget)
        if w.isVisible() and w.isEnabled() and w.focusPolicy() & Qt.FocusPolicy.TabFocus
    }
    seen: set[QWidget] = set()
    widget: QWidget = bar.search_edit
    for _ in range(400):
        seen.add(widget)
        widget = widget.nextInFocusChain()
        if widget is bar.search_edit:
            break
    assert wanted <= seen, [w.objectName() or type(w).__name__ for w in wanted - seen]


def test_esc_in_the_bar_returns_to_the_table(harness) -> None:
    _open(harness)
    window, bar = harness.window, harness.window.filter_bar
    window.table_view.setFocus()
    bar.focus_search()
    harness.qtbot.keyClicks(bar.search_edit, "abc")
    harness.qtbot.keyClick(bar.search_edit, Qt.Key.Key_Escape)
    assert _focused() is window.table_view
    bar.special_combo.setFocus()
    harness.qtbot.keyClick(bar.special_combo, Qt.Key.Key_Escape)
    assert _focused() is window.table_view


def test_esc_in_the_bar_returns_to_the_output_being_annotated(harness) -> None:
    _open(harness)
    window, bar = harness.window, harness.window.filter_bar
    harness.select(0)
    window.annotations.controller.focus_text()
    view = _focused()
    assert view is window.detail_pane.hypothesis_view(window.annotations.controller.system)
    harness.qtbot.mouseClick(bar.search_edit, Qt.MouseButton.LeftButton, pos=QPoint(5, 5))
    assert _focused() is bar.search_edit
    harness.qtbot.keyClick(bar.search_edit, Qt.Key.Key_Escape)
    assert _focused() is view
