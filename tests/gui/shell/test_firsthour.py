"""The app's first hour: what a new user sees and does, checked against core's numbers.

Layout at 1280x720, status messages that show, settings next to the scores, advice for the
language of the files, fonts, copying rows, the row menu, Help, and the detail pane.
"""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import csv
import io
import platform

import numpy as np
import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QDialogButtonBox, QLabel

from matchlight.core.metrics.bleu import SACREBLEU_VERSION
from matchlight.core.metrics.rouge import ROUGE_SCORE_VERSION
from matchlight.core.scoring.config import ScoringConfig
from matchlight.core.scoring.engine import score_corpus
from matchlight.gui.dialogs.opendialog import ComparisonSpecs, recognise_files, sample_specs
from matchlight.gui.shell.about import AboutDialog, ShortcutsDialog
from matchlight.gui.shell.banner import MAX_HEIGHT_SHARE
from matchlight.gui.shell.celltext import CellTextDialog
from matchlight.gui.shell.fonts import font_advice, missing_fonts, script_samples
from matchlight.gui.shell.welcome import WelcomePage
from tests.gui.shell.windowkit import DATA, TIMEOUT, Harness, shot

WIDTH, HEIGHT = 1280, 720


def _folder(name: str) -> ComparisonSpecs:
    folder = DATA / name
    if not folder.is_dir():
        pytest.skip(f"shared/data/{name} is not present")
    return recognise_files([str(folder)]).specs


def _fully_shown(label: QLabel) -> bool:
    """A word-wrapped label is as tall as its text needs at its width."""
    return label.isVisible() and label.height() >= label.heightForWidth(label.width())


# -- layout at 1280x720 --------------------------------------------------------------------------


def test_welcome_page_at_1280x720_shows_all_its_text(qtbot, harness, tmp_path):
    window = harness.window
    window.resize(WIDTH, HEIGHT)
    window.show()
    qtbot.waitExposed(window)
    welcome = window.welcome
    assert isinstance(welcome, WelcomePage)
    assert _fully_shown(welcome.text) and _fully_shown(welcome.drop_hint)
    assert "drop the files" in welcome.drop_hint.text()
    # The hint is inside the page, above the buttons, not cut off by them.
    hint = welcome.drop_hint.geometry()
    assert hint.bottom() < welcome.open_button.geometry().top()
    # No empty chart axes while nothing is open.
    assert window.summary.plot.isHidden()
    assert window.summary.caption.isVisible()
    shot(window, tmp_path, "mainwindow-1280x720-welcome")


def test_the_first_output_and_its_scores_fit_1280x720(qtbot, harness, tmp_path):
    window = harness.window
    window.resize(WIDTH, HEIGHT)
    window.show()
    qtbot.waitExposed(window)
    harness.open_and_wait(sample_specs())
    harness.select(0)
    view, model = window.table_view, window.model
    assert window.size().width() == WIDTH and window.size().height() == HEIGHT
    width = view.viewport().width()
    numeric = model.columns_of_kind("score") + model.columns_of_kind("delta")
    assert len(numeric) == 10  # BLEU and R-L of 3 systems, and 2 differences of each
    # The texts, then the first system's output with its scores: all on the first screen.
    for col in range(model.hypothesis_column(1)):
        right = view.columnViewportPosition(col) + view.columnWidth(col)
        assert view.columnViewportPosition(col) >= 0 and right <= width, model.headerData(
            col, Qt.Orientation.Horizontal
        )
    header = view.horizontalHeader()
    assert header.height() >= 2 * header.fontMetrics().lineSpacing()
    shot(window, tmp_path, "mainwindow-1280x720-sample")


# -- status messages and export ----------------------------------------------------------------


def _free_status_width(window) -> int:
    bar = window.statusBar()
    used = sum(
        w.width()
        for w in (
            window.progress_label,
            window.progress_bar,
            window.cancel_button,
            window.resume_button,
        )
        if w.isVisible()
    )
    return bar.width() - used


def test_status_messages_show_and_export_says_what_it_wrote(qtbot, harness, tmp_path):
    window = harness.window
    window.resize(WIDTH, HEIGHT)
    window.show()
    harness.open_and_wait(sample_specs())
    assert window.statusBar().currentMessage() == "Scored 160 rows."
    # Nothing fills the status bar any more: the message has most of its width.
    assert _free_status_width(window) > 0.8 * window.statusBar().width()
    harness.next_save_path = str(tmp_path / "out.csv")
    window.export_all_action.trigger()
    message = window.statusBar().currentMessage()
    assert message == f"Exported 160 rows to {tmp_path / 'out.csv'}"
    bar = window.statusBar()
    assert bar.fontMetrics().horizontalAdvance(message) < _free_status_width(window)
    shot(window, tmp_path, "mainwindow-exported")


def test_signatures_are_copyable_from_the_summary(qtbot, harness):
    window = harness.window
    harness.open_and_wait(sample_specs())
    window.summary.copy_signature_button.click()
    text = QApplication.clipboard().text()
    assert text == window.summary.signature_text()
    for name, signature in ScoringConfig().signatures(2).items():
        assert f"{name}: {signature}" in text.splitlines()


def test_settings_show_next_to_the_scores(qtbot, harness):
    window = harness.window
    harness.open_and_wait(sample_specs())
    config = ScoringConfig().apply(
        {
            "bleu": {"tokenize": "zh", "lowercase": True},
            "rouge": {"tokenizer": "unicode", "stem": True},
            "text": {"sentence_separator": None},
        }
    )
    with qtbot.waitSignal(window.controller.scoring_finished, timeout=TIMEOUT):
        window.apply_config(config)
    assert window.summary.settings_text() == (
        "Settings: BLEU: tokenizer zh, lowercase · ROUGE: tokenizer unicode, porter stemming"
        " · sentence separator none (ROUGE-Lsum = ROUGE-L)"
    )
    # The separator "none" is warned about, and the banner offers the way back.
    banner = window.banner
    assert "lsum-none" in list(banner.keys())
    assert "ROUGE-Lsum equals ROUGE-L on every row" in banner.text_of("lsum-none")
    with qtbot.waitSignal(window.controller.scoring_finished, timeout=TIMEOUT):
        banner.button("lsum-none").click()
    assert window.config.sentence_separator == "\n"
    assert "lsum-none" not in list(banner.keys())


# -- cancel, export what was scored, resume -----------------------------------------------------


def test_cancel_export_and_resume(qtbot, harness, tmp_path):
    specs = _folder("wmt22-de-en")
    window = harness.window
    window.show()
    harness.open_and_show(specs)
    with qtbot.waitSignal(window.controller.scoring_cancelled, timeout=TIMEOUT):
        qtbot.waitUntil(lambda: window.table.n_done > 0, timeout=TIMEOUT)
        qtbot.mouseClick(window.cancel_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: not window.controller.busy, timeout=TIMEOUT)
    done = window.table.n_done
    total = window.table.n_segments
    if done == total:
        pytest.skip("scoring finished before it could be cancelled")
    assert window.resume_button.isVisible()
    # Export writes the scored rows and says so.
    harness.next_save_path = str(tmp_path / "partial.csv")
    window.export_all_action.trigger()
    assert harness.save_paths[-1].endswith("wmt22-de-en-partial.csv")
    rows = list(csv.DictReader(io.StringIO((tmp_path / "partial.csv").read_text("utf-8"))))
    systems = len(specs.systems)
    assert len(rows) == systems * done
    scored = sorted({int(r["segment"]) - 1 for r in rows})
    np.testing.assert_array_equal(scored, np.flatnonzero(window.table.done))
    assert "only the rows scored so far" in window.statusBar().currentMessage()
    # Resume scores the rest into the same table; every number equals core's.
    with qtbot.waitSignal(window.controller.scoring_finished, timeout=TIMEOUT):
        qtbot.mouseClick(window.resume_button, Qt.MouseButton.LeftButton)
    assert window.table.complete and window.resume_button.isHidden()
    expected = score_corpus(specs.load().corpus_text(), ScoringConfig())
    np.testing.assert_array_equal(window.table.scores, expected.scores)
    for s in range(systems):
        assert window.table.corpus(s).values["bleu"] == expected.corpus(s).values["bleu"]


# -- advice for the language of the files -------------------------------------------------------


def test_segmented_japanese_gets_no_tokenizer_advice(qtbot, harness):
    harness.open_and_wait(_folder("compare-mt-multited-ja"))
    keys = harness.window.banner.keys()
    assert "cjk-tokenizer" not in keys
    assert "rouge-empty" in keys  # rouge-score still drops the kana and Han


def test_korean_is_explained_and_missing_fonts_are_named(qtbot, tmp_path):
    def no_hangul(ch: str) -> bool:
        return not ("\uac00" <= ch <= "\ud7a3")

    harness = Harness(qtbot, tmp_path, glyph_check=no_hangul)
    try:
        window = harness.window
        window.resize(WIDTH, HEIGHT)
        window.show()
        harness.open_and_wait(_folder("flores-en-ko-opusmt"))
        banner = window.banner
        assert "korean-tokenizer" in list(banner.keys())
        assert "rouge-score's tokenizer drops all Hangul" in banner.text_of("korean-tokenizer")
        fonts = banner.text_of("fonts")
        assert "Korean (Hangul)" in fonts and "sudo apt install fonts-noto-cjk" in fonts
        assert [m.script for m in window.missing_fonts()] == ["Korean (Hangul)"]
        harness.select(0)
        # Four warnings and a whole row in the pane still leave the table room on 720 pixels.
        assert window.size().height() == HEIGHT
        assert banner.height() <= MAX_HEIGHT_SHARE * HEIGHT + 12
        first, last = window.table_view.visible_rows()
        assert last - first + 1 >= 4
        shot(window, tmp_path, "mainwindow-1280x720-korean")
    finally:
        harness.window.close()


def test_fonts_check_names_each_script_and_its_package():
    samples = script_samples([["그는 덧붙였다", "很抱歉 これは", "Привет", "plain"]])
    assert set(samples) == {
        "Korean (Hangul)",
        "Chinese characters (Han)",
        "Japanese (kana)",
        "Cyrillic",
    }
    missing = missing_fonts(samples, lambda ch: ch.isascii() or "\u0400" <= ch <= "\u04ff")
    assert [(m.script, m.package) for m in missing] == [
        ("Korean (Hangul)", "fonts-noto-cjk"),
        ("Japanese (kana)", "fonts-noto-cjk"),
        ("Chinese characters (Han)", "fonts-noto-cjk"),
    ]
    assert font_advice(missing).count("fonts-noto-cjk") == 1
    assert missing_fonts(samples, lambda ch: True) == []
    assert font_advice([]) == ""


@pytest.mark.parametrize(
    ("folder", "name", "advice"),
    [
        ("wmt22-en-zh", "chinese", "cjk-tokenizer"),
        ("flores-en-ko-opusmt", "korean-fonts", "korean-tokenizer"),
    ],
)
def test_cjk_screenshots(qtbot, harness, tmp_path, folder, name, advice):
    """Screenshots of the Chinese and Korean data (real glyphs where fonts-noto-cjk is
    installed, as .ci/run does; the font check itself is injected)."""
    window = harness.window
    window.resize(WIDTH, HEIGHT)
    window.show()
    harness.open_and_wait(_folder(folder))
    assert advice in list(window.banner.keys())
    assert "fonts" not in list(window.banner.keys())
    harness.select(3)
    shot(window, tmp_path, f"mainwindow-1280x720-{name}")


# -- copying and the row menu ------------------------------------------------------------------


def test_ctrl_c_copies_the_whole_row_with_a_header(qtbot, harness, sample_expected):
    text, expected = sample_expected
    window = harness.window
    window.show()
    qtbot.waitExposed(window)
    harness.open_and_wait(sample_specs())
    harness.select(4)
    window.activateWindow()
    window.table_view.setFocus()
    QApplication.clipboard().clear()
    qtbot.keyClick(window.table_view, Qt.Key.Key_C, Qt.KeyboardModifier.ControlModifier)
    copied = QApplication.clipboard().text()
    header, row = list(csv.reader(io.StringIO(copied), dialect="excel-tab"))
    model = window.model
    assert header == [model.headerData(c, Qt.Orientation.Horizontal) for c in range(len(header))]
    assert len(header) == model.columnCount()  # every column, hidden ones too
    cells = dict(zip(header, row, strict=True))
    assert cells["#"] == "5"
    assert cells["Source"] == sample_specs().load().source.lines[4]
    assert cells["ref.en"] == text.references[0][4]
    assert cells["literal"] == text.systems[1][4]
    assert float(cells["literal BLEU"]) == expected.value("bleu", 1, 4)
    delta = expected.value("bleu", 1, 4) - expected.value("bleu", 0, 4)
    assert float(cells["literal ΔBLEU"]) == delta
    assert "Copied segment 5" in window.statusBar().currentMessage()


def test_the_row_menu_copies_shows_and_filters(qtbot, harness, sample_expected):
    text, expected = sample_expected
    window = harness.window
    harness.open_and_wait(sample_specs())
    model, proxy = window.model, window.proxy
    col = model.hypothesis_column(2)
    index = proxy.index(proxy.proxy_row(7), col)
    menu = window.table_menu(index)
    labels = [a.text() for a in menu.actions() if a.text()]
    assert labels == [
        "&Copy row",
        "Copy this cell",
        "Show the whole text…",
        "Rows where rough scores worse than fluent (baseline) on BLEU",
        "Clear filters",
    ]
    actions = {a.text(): a for a in menu.actions()}
    actions["Copy this cell"].trigger()
    assert QApplication.clipboard().text() == text.systems[2][7]
    actions["Show the whole text…"].trigger()
    (cell,) = window.findChildren(CellTextDialog)
    assert cell.text() == text.systems[2][7]
    assert cell.windowTitle().startswith("Segment 8, rough")
    cell.close()
    actions["Rows where rough scores worse than fluent (baseline) on BLEU"].trigger()
    worse = np.flatnonzero(expected.column("bleu", 0) - expected.column("bleu", 2) >= 0.1)
    assert sorted(int(s) for s in proxy.visible_segments()) == list(worse)
    assert window.filter_bar.delta_check.isChecked()  # the filter bar shows it
    # On a score cell the menu offers that cell's system and metric.
    score = model.score_column(1, "rougeL_f")
    menu = window.table_menu(proxy.index(0, score))
    assert "Rows where literal scores worse than fluent (baseline) on R-L" in [
        a.text() for a in menu.actions()
    ]
    menu.deleteLater()
    window.filter_bar.clear()
    assert proxy.rowCount() == 160


# -- help --------------------------------------------------------------------------------------


def test_about_names_the_versions_the_numbers_reproduce(qtbot):
    dialog = AboutDialog()
    qtbot.addWidget(dialog)
    text = dialog.version_text
    assert f"BLEU and chrF equal sacreBLEU: {SACREBLEU_VERSION}" in text
    assert f"ROUGE equals rouge-score: {ROUGE_SCORE_VERSION}" in text
    assert f"Python: {platform.python_version()}" in text
    assert "Qt: 6." in text and "PySide6: 6." in text and "numpy: " in text
    assert "NLTK BLEU equals NLTK: " in text


def test_help_menu_opens_about_and_the_shortcuts(qtbot, harness):
    window = harness.window
    window.about_action.trigger()
    (about,) = [w for w in window.findChildren(AboutDialog) if w.isVisible()]
    about.reject()
    window.shortcuts_action.trigger()
    (shortcuts,) = [w for w in window.findChildren(ShortcutsDialog) if w.isVisible()]
    table = shortcuts.table
    rows = {table.item(r, 0).text(): table.item(r, 1).text() for r in range(table.rowCount())}
    assert rows["Copy row"] == "Ctrl+C"
    assert rows["Zoom in"] == "Ctrl++  or  Ctrl+="
    assert rows["Open comparison"] == "Ctrl+O"
    assert rows["Find"] == "Ctrl+F"
    shortcuts.findChild(QDialogButtonBox).rejected.emit()


# -- the detail pane ---------------------------------------------------------------------------


def test_the_detail_pane_forgets_a_row_the_filter_hides(qtbot, harness):
    window = harness.window
    harness.open_and_wait(sample_specs())
    harness.select(5)
    assert window.detail_pane.detail().segment == 5
    bar = window.filter_bar
    bar.search_edit.setText("Klimaschutzpaket")  # only in segment 1
    bar.apply_text_filter()
    qtbot.waitUntil(lambda: window.proxy.rowCount() < 160, timeout=TIMEOUT)
    assert 5 not in set(window.proxy.visible_segments())
    qtbot.waitUntil(lambda: window.detail_pane.detail() is None, timeout=TIMEOUT)
    assert window.detail_pane.title.text() == "Select a row to see its matches."


def test_the_pane_mode_switch_drives_the_table(qtbot, harness):
    window = harness.window
    harness.open_and_wait(sample_specs())
    combo = window.detail_pane.mode_combo
    combo.setCurrentIndex(combo.findData("lcs"))
    assert window.highlight_mode == "lcs"
    assert window.delegate.mode() == "lcs"
    assert window.highlight_actions["lcs"].isChecked()
    combo.setCurrentIndex(combo.findData("bleu"))
    assert window.delegate.mode() == "bleu" and window.highlight_actions["bleu"].isChecked()
