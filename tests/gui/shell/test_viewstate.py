"""View state: what a user arranges (columns, highlight mode, shown scores, baseline per
comparison; theme, zoom and row height for the app) is remembered, and changes no number."""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import json

import numpy as np
import pytest
from PySide6.QtCore import QSettings, Qt
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import QApplication

from matchlight.core.scoring.config import ScoringConfig
from matchlight.core.scoring.engine import score_corpus
from matchlight.gui.dialogs.opendialog import sample_specs
from matchlight.gui.highlight.palette import is_dark_palette
from matchlight.gui.shell.banner import BANNER_COLOURS
from matchlight.gui.shell.theme import THEME_KEY, apply_theme
from matchlight.gui.shell.viewcontrol import ROW_LINES_KEY, ZOOM_KEY
from matchlight.gui.shell.viewstate import VIEWSTATE_KEY, ViewState, column_id
from matchlight.gui.table.model import ColumnInfo
from tests.gui.shell.windowkit import TIMEOUT, Harness, shot, zh_specs


@pytest.fixture
def harness(qtbot, tmp_path):
    h = Harness(qtbot, tmp_path)
    yield h
    h.window.close()
    apply_theme("system")


def test_column_ids_name_what_a_column_shows():
    assert column_id(ColumnInfo("segment")) == "segment"
    assert column_id(ColumnInfo("reference", reference=1)) == "reference:1"
    assert column_id(ColumnInfo("hypothesis", system=2)) == "hypothesis:2"
    assert column_id(ColumnInfo("delta", system=1, metric="bleu")) == "delta:bleu:1"
    state = ViewState(("reference:1",), {"score:bleu:0": 150}, "lcs", ("bleu",), "literal")
    assert ViewState.from_dict(json.loads(json.dumps(state.to_dict()))) == state
    assert ViewState.from_dict({"column_widths": {"x": "wide", "y": -3}, "hidden_columns": 5}) == (
        ViewState()
    )
    assert ViewState.from_dict("garbage") == ViewState()


def test_the_arrangement_of_a_comparison_comes_back_with_its_files(qtbot, harness, tmp_path):
    window = harness.window
    window.show()
    harness.open_and_wait(sample_specs())
    model = window.model
    ref2 = model.reference_column(1)
    window.table_view.setColumnHidden(ref2, True)
    bleu0 = model.score_column(0, "bleu")
    window.table_view.horizontalHeader().resizeSection(bleu0, 150)
    window.highlight_actions["lcs"].trigger()
    window.baseline_combo.setCurrentIndex(1)  # literal
    window.set_shown_scores(["bleu", "rouge1_f", "rougeL_f"])
    qtbot.waitUntil(lambda: not window.view._timer.isActive(), timeout=TIMEOUT)
    layout = window.session.session.layout  # saved with the session too
    assert layout["hidden_columns"] == ["reference:1"]
    assert layout["highlight_mode"] == "lcs" and layout["baseline"] == "literal"
    assert layout["shown_scores"] == ["bleu", "rouge1_f", "rougeL_f"]
    assert layout["column_widths"]["score:bleu:0"] == 150
    expected = window.table.scores.copy()
    window.close()

    other = Harness(qtbot, tmp_path)  # the next start, same settings file
    try:
        again = other.window
        other.open_and_wait(sample_specs())
        model = again.model
        assert model.shown_scores == ("bleu", "rouge1_f", "rougeL_f")
        assert again.table_view.isColumnHidden(model.reference_column(1))
        assert not again.table_view.isColumnHidden(model.reference_column(0))
        width = again.table_view.horizontalHeader().sectionSize(model.score_column(0, "bleu"))
        assert width == 150
        assert again.highlight_mode == "lcs" and again.delegate.mode() == "lcs"
        assert again.detail_pane.mode() == "lcs"
        assert model.baseline == 1 and again.baseline_combo.currentText() == "literal"
        np.testing.assert_array_equal(again.table.scores, expected)  # no number changed
        # Another comparison starts from the defaults.
        other.open_and_wait(zh_specs())
        model = again.model
        assert model.shown_scores == ("bleu", "rougeL_f") and model.baseline == 0
        assert not any(again.table_view.isColumnHidden(c) for c in range(model.columnCount()))
    finally:
        other.window.close()
    stored = QSettings(str(other.settings_path), QSettings.Format.IniFormat)
    assert len(json.loads(stored.value(VIEWSTATE_KEY))) == 2  # one per comparison
    # Nothing about scoring settings is among them.
    assert "config" not in stored.value(VIEWSTATE_KEY)


def test_shown_scores_from_the_header_menu(qtbot, harness):
    window = harness.window
    harness.open_and_wait(sample_specs())
    menu = window.column_menu()
    (scores,) = [a.menu() for a in menu.actions() if a.menu() is not None]
    by_key = {a.data(): a for a in scores.actions()}
    assert by_key["bleu"].isChecked() and by_key["rougeL_f"].isChecked()
    by_key["rouge2_f"].setChecked(True)
    assert window.model.shown_scores == ("bleu", "rouge2_f", "rougeL_f")
    col = window.model.score_column(2, "rouge2_f")
    expected = score_corpus(sample_specs().load().corpus_text(), ScoringConfig())
    np.testing.assert_array_equal(window.model.values(col), expected.column("rouge2_f", 2))
    # The filter bar's columns follow the new column positions.
    items = [window.filter_bar.column_combo.itemData(i) for i in range(1, 4)]
    assert items == window.model.text_columns()[:3]
    menu.deleteLater()


# -- theme ---------------------------------------------------------------------------------------


def test_dark_theme_reaches_every_part_and_is_remembered(qtbot, harness, tmp_path):
    window = harness.window
    window.resize(1280, 720)
    window.show()
    harness.open_and_wait(sample_specs())
    harness.select(0)
    shot(window, tmp_path, "mainwindow-theme-light")
    assert not window.summary.is_dark() and not window.banner.is_dark()
    window.view.theme_actions["dark"].trigger()
    app = QApplication.instance()
    assert is_dark_palette(app.palette())
    qtbot.waitUntil(lambda: window.summary.is_dark(), timeout=TIMEOUT)
    # The histogram takes the palette's background (it was always white).
    background = window.summary.plot.backgroundBrush().color()
    assert background == app.palette().color(QPalette.ColorRole.Base)
    # The banner is dark amber, and its ✕ is drawn in its own light text colour.
    assert window.banner.is_dark()
    light_text = BANNER_COLOURS[True][2]
    assert light_text in window.banner.styleSheet() and "QToolButton" in window.banner.styleSheet()
    # The detail pane and the table's documents use the dark tints.
    assert window.detail_pane.is_dark()
    harness.select(1)
    shot(window, tmp_path, "mainwindow-theme-dark")
    assert window.settings.value(THEME_KEY) == "dark"
    window.close()

    apply_theme("system")
    other = Harness(qtbot, tmp_path)
    try:
        assert other.window.theme == "dark"
        assert other.window.view.theme_actions["dark"].isChecked()
        assert is_dark_palette(QApplication.instance().palette())
        other.window.set_theme("system")
        assert not is_dark_palette(QApplication.instance().palette())
        assert other.window.settings.value(THEME_KEY) == "system"
    finally:
        other.window.close()


# -- zoom and row height -------------------------------------------------------------------------


def test_zoom_keys_change_the_table_and_pane_fonts_and_are_remembered(qtbot, harness, tmp_path):
    window = harness.window
    window.show()
    qtbot.waitExposed(window)
    harness.open_and_wait(sample_specs())
    harness.select(0)
    base = window.table_view.font().pointSizeF()
    height = window.table_view.verticalHeader().defaultSectionSize()
    window.activateWindow()
    window.table_view.setFocus()
    qtbot.keyClick(window.table_view, Qt.Key.Key_Plus, Qt.KeyboardModifier.ControlModifier)
    qtbot.keyClick(window.table_view, Qt.Key.Key_Equal, Qt.KeyboardModifier.ControlModifier)
    assert window.zoom == 2
    assert window.table_view.font().pointSizeF() == base + 2
    assert window.detail_pane.font().pointSizeF() == base + 2
    assert window.table_view.verticalHeader().defaultSectionSize() > height
    assert window.settings.value(ZOOM_KEY) in (2, "2")
    qtbot.keyClick(window.table_view, Qt.Key.Key_Minus, Qt.KeyboardModifier.ControlModifier)
    assert window.zoom == 1
    window.close()
    other = Harness(qtbot, tmp_path)
    try:
        assert other.window.zoom == 1
        assert other.window.table_view.font().pointSizeF() == base + 1
        other.window.show()
        qtbot.waitExposed(other.window)
        other.window.activateWindow()
        qtbot.waitUntil(lambda: QApplication.activeWindow() is other.window, timeout=TIMEOUT)
        other.window.table_view.setFocus()
        qtbot.keyClick(other.window.table_view, Qt.Key.Key_0, Qt.KeyboardModifier.ControlModifier)
        assert other.window.zoom == 0
        assert other.window.table_view.font().pointSizeF() == base
    finally:
        other.window.close()


def test_row_height_shows_more_of_long_cells(qtbot, harness, tmp_path):
    window = harness.window
    harness.open_and_wait(sample_specs())
    lines = window.table_view.fontMetrics().lineSpacing()
    assert window.table_view.verticalHeader().defaultSectionSize() == 2 * lines + 8
    window.view.row_lines_actions[4].trigger()
    assert window.row_lines == 4
    assert window.table_view.verticalHeader().defaultSectionSize() == 4 * lines + 8
    assert window.settings.value(ROW_LINES_KEY) in (4, "4")
    with pytest.raises(ValueError, match="row height"):
        window.set_row_lines(3)
