"""The main window end to end: open, score, filter, export, rescore, warnings, recent, drop."""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import json
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
from PySide6.QtCore import QMimeData, QPointF, QSettings, Qt, QUrl
from PySide6.QtGui import QDropEvent
from PySide6.QtWidgets import QDialogButtonBox

from matchlight.core.io.export import sidecar_path, write_csv
from matchlight.core.io.inputs import Comparison, InputSpec
from matchlight.core.scoring.config import ScoringConfig
from matchlight.core.scoring.engine import score_corpus
from matchlight.gui.dialogs.opendialog import ComparisonSpecs, assign_roles, sample_specs
from matchlight.gui.shell.recent import RECENT_KEY
from matchlight.gui.table.proxy import SegmentFilterProxy
from matchlight.gui.workers.controller import ScoringController
from tests.gui.shell.windowkit import TIMEOUT, Harness, shot, zh_specs


def signatures_text(config: ScoringConfig, nrefs: int) -> str:
    """The signatures as the summary shows them: one per line."""
    return "\n".join(f"{name}: {sig}" for name, sig in config.signatures(nrefs).items())


# -- opening and scoring -----------------------------------------------------------------------


def test_empty_window_invites_to_open(harness):
    window = harness.window
    assert window.windowTitle() == "Matchlight"
    assert window.pages.currentWidget() is window.welcome
    assert not window.export_all_action.isEnabled()
    # No figures, no empty axes, no signatures of nothing: a line says nothing is open.
    assert window.summary.signature_text() == ""
    assert window.summary.signature_field.isReadOnly()
    assert window.summary.plot.isHidden() and window.summary.view.isHidden()
    assert window.summary.caption.text().startswith("No comparison open")
    assert window.open_action.shortcut().toString() == "Ctrl+O"


def test_sample_numbers_equal_core(qtbot, qtmodeltester, harness, sample_expected, tmp_path):
    _, expected = sample_expected
    window = harness.window
    window.show()
    harness.open_and_wait(sample_specs())
    assert harness.errors == []
    assert "Matchlight" in window.windowTitle()
    assert "sample" in window.windowTitle()
    table = window.table
    assert table.complete
    np.testing.assert_array_equal(table.scores, expected.scores)
    model = window.model
    for col in range(model.columnCount()):
        info = model.column_info(col)
        if info.kind == "score":
            np.testing.assert_array_equal(
                model.values(col), expected.column(info.metric, info.system)
            )
    # Displayed strings are the same numbers, rounded.
    col = model.score_column(1, "bleu")
    assert model.index(7, col).data() == f"{expected.value('bleu', 1, 7):.1f}"
    # The summary shows core's corpus figures.
    for s in range(3):
        corpus = expected.corpus(s)
        assert window.summary.model.value(s, "bleu") == pytest.approx(
            corpus.values["bleu"], abs=1e-9
        )
        assert window.summary.model.value(s, "rougeL_f") == pytest.approx(
            corpus.means["rougeL_f"], abs=1e-9
        )
    edges, counts = window.summary.histogram(0)
    assert counts.sum() == 160  # every row, also BLEU 100.00000000000004
    assert len(edges) == len(counts) + 1
    assert window.summary.signature_text() == signatures_text(ScoringConfig(), 2)
    assert window.summary.settings_text() == "Settings: the reference tools' defaults"
    assert window.export_all_action.isEnabled()
    assert window.progress_bar.isHidden()
    assert [window.baseline_combo.itemText(i) for i in range(3)] == ["fluent", "literal", "rough"]
    qtmodeltester.check(window.model)
    qtmodeltester.check(window.proxy)
    qtmodeltester.check(window.summary.model)
    # The first row is current and its detail shows.
    harness.wait_for_detail(0)
    harness.select(2)
    assert window.current_segment() == 2
    shot(window, tmp_path, "mainwindow-sample")


def test_row_height_is_fixed_and_shows_two_lines(harness):
    harness.open_and_wait(sample_specs())
    view = harness.window.table_view
    header = view.verticalHeader()
    assert header.sectionResizeMode(0) == header.ResizeMode.Fixed
    assert header.defaultSectionSize() >= 2 * view.fontMetrics().lineSpacing()
    assert header.defaultSectionSize() < 3 * view.fontMetrics().lineSpacing()
    assert view.isSortingEnabled()


def test_scoring_failure_is_reported(qtbot, tmp_path):
    def failing(text, config, **kwargs):
        raise RuntimeError("disk on fire")
        yield  # pragma: no cover

    harness = Harness(qtbot, tmp_path, controller=ScoringController(chunk_source=failing))
    try:
        with qtbot.waitSignal(harness.window.controller.scoring_failed, timeout=TIMEOUT):
            harness.window.open_specs(sample_specs())
        assert harness.errors == [
            ("Scoring failed", "Scoring failed: disk on fire (RuntimeError).")
        ]
        assert harness.window.progress_bar.isHidden()
        assert not harness.window.export_all_action.isEnabled()
    finally:
        harness.window.close()


def test_cancel_keeps_rows_so_far(qtbot, harness):
    specs = zh_specs()
    comparison = specs.load()

    def times4(column):
        return replace(column, lines=tuple(column.lines) * 4)

    big = Comparison(
        source=times4(comparison.source),
        references=tuple(times4(c) for c in comparison.references),
        systems=tuple(times4(c) for c in comparison.systems),
    )
    window = harness.window
    window.show()
    with qtbot.waitSignal(window.controller.chunk_ready, timeout=TIMEOUT):
        window.set_comparison(big, None)
    assert window.cancel_button.isVisible()
    assert window.progress_bar.isVisible()
    with qtbot.waitSignal(window.controller.scoring_cancelled, timeout=TIMEOUT):
        qtbot.mouseClick(window.cancel_button, Qt.MouseButton.LeftButton)
    done = window.table.n_done
    assert 64 <= done < len(big)
    qtbot.waitUntil(lambda: not window.controller.busy, timeout=TIMEOUT)
    qtbot.wait(200)
    assert window.table.n_done == done
    assert window.cancel_button.isHidden()
    message = window.statusBar().currentMessage()
    assert message.startswith(f"Scoring cancelled: {done:,} of {len(big):,} rows scored")
    # The rows scored so far can be exported, and the rest scored later.
    assert window.export_all_action.isEnabled()
    assert window.resume_action.isEnabled() and window.resume_button.isVisible()


# -- settings ------------------------------------------------------------------------------------


def test_settings_change_rescores(qtbot, harness, sample_expected):
    text, expected = sample_expected
    window = harness.window
    harness.open_and_wait(sample_specs())
    first_table = window.table
    dialog = window.show_settings_dialog()
    dialog.panel.widget("bleu", "lowercase").setChecked(True)
    tokenizer = dialog.panel.widget("bleu", "tokenize")
    tokenizer.setCurrentIndex(tokenizer.findData("intl"))
    with qtbot.waitSignal(window.controller.scoring_finished, timeout=TIMEOUT):
        dialog.buttons.button(QDialogButtonBox.StandardButton.Ok).click()
    new_config = ScoringConfig().with_settings("bleu", lowercase=True, tokenize="intl")
    assert window.config == new_config
    assert window.table is not first_table
    assert window.model.table is window.table
    want = score_corpus(text, new_config)
    np.testing.assert_array_equal(window.table.scores, want.scores)
    assert not np.array_equal(want.scores, expected.scores)
    col = window.model.score_column(0, "bleu")
    assert window.model.index(3, col).data() == f"{want.value('bleu', 0, 3):.1f}"
    assert window.detail_cache.config == new_config
    assert window.summary.signature_text() == signatures_text(new_config, 2)
    assert "case:lc" in window.summary.signature_text()
    assert "tok:intl" in window.summary.signature_text()
    # The settings show next to the scores, not only in the signature.
    assert window.summary.settings_text() == "Settings: BLEU: tokenizer intl, lowercase"
    assert window.summary.model.value(0, "bleu") == pytest.approx(want.corpus(0).values["bleu"])


def test_settings_belong_to_the_comparison_not_the_machine(qtbot, harness, tmp_path):
    """A user switched Japanese data to the char tokenizer, then opened German-English: the new
    comparison starts from the defaults (the issue's LT22 showed 70.66 instead of 40.35)."""
    window = harness.window
    harness.open_and_wait(sample_specs())
    with qtbot.waitSignal(window.controller.scoring_finished, timeout=TIMEOUT):
        window.apply_config(window.config.with_settings("bleu", tokenize="char"))
    assert window.table.config.settings("bleu").tokenize == "char"
    assert "tok:char" in window.summary.signature_text()
    harness.open_and_wait(sample_specs())
    assert window.config == ScoringConfig()
    assert window.table.config == ScoringConfig()
    assert "tok:13a" in window.summary.signature_text()
    # Nothing about scoring settings is kept in the app's settings file.
    stored = QSettings(str(harness.settings_path), QSettings.Format.IniFormat)
    assert not [k for k in stored.allKeys() if "scoring" in k or "config" in k]


# -- export ------------------------------------------------------------------------------------


def test_export_all_and_filtered_rows_match_core(qtbot, harness, sample_expected, tmp_path):
    text, expected = sample_expected
    window = harness.window
    harness.open_and_wait(sample_specs())
    specs = sample_specs()
    inputs = {
        "source": specs.source.path,
        "references": [s.path for s in specs.references],
        "systems": {s.name: s.path for s in specs.systems},
    }

    # All rows, through the menu action (save dialog injected).
    harness.next_save_path = str(tmp_path / "all.csv")
    window.export_all_action.trigger()
    assert harness.save_paths and harness.save_paths[0].endswith("sample.csv")
    write_csv(tmp_path / "core.csv", expected, inputs=inputs)
    assert (tmp_path / "all.csv").read_bytes() == (tmp_path / "core.csv").read_bytes()
    meta = json.loads(sidecar_path(tmp_path / "all.csv").read_text(encoding="utf-8"))
    assert meta == json.loads(sidecar_path(tmp_path / "core.csv").read_text(encoding="utf-8"))
    assert meta["filtered"] is False

    # Filtered rows: a text filter keeps the rows mentioning Berlin.
    window.filter_bar.search_edit.setText("berlin")
    window.filter_bar.apply_text_filter()
    visible = sorted(int(s) for s in window.proxy.visible_segments())
    mentions = [
        i
        for i in range(len(text))
        if any("berlin" in col[i].casefold() for col in (*text.references, *text.systems))
        or "berlin" in specs.load().source.lines[i].casefold()
    ]
    assert visible == mentions
    assert 0 < len(visible) < 160
    harness.next_save_path = str(tmp_path / "filtered.csv")
    window.export_filtered_action.trigger()
    write_csv(tmp_path / "core-filtered.csv", expected, rows=visible, inputs=inputs)
    exported = (tmp_path / "filtered.csv").read_bytes()
    assert exported == (tmp_path / "core-filtered.csv").read_bytes()
    assert exported.count(b"\n") == 1 + 3 * len(visible)
    meta = json.loads(sidecar_path(tmp_path / "filtered.csv").read_text(encoding="utf-8"))
    assert meta["filtered"] is True
    assert meta["segments"] == len(visible)

    # A cancelled save dialog writes nothing; an unwritable path is reported.
    harness.next_save_path = None
    window.export_all_action.trigger()
    assert window.export_csv(tmp_path / "missing-dir" / "x.csv") is None
    assert harness.errors and harness.errors[-1][0] == "Cannot export"
    assert "missing-dir" in harness.errors[-1][1]


# -- errors ------------------------------------------------------------------------------------


def test_binary_file_gives_error_dialog(harness, tmp_path):
    ref = tmp_path / "ref.txt"
    ref.write_text("a b c\nd e f\n", encoding="utf-8")
    binary = tmp_path / "sys.bin.txt"
    binary.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")
    harness.open_and_fail(
        ComparisonSpecs(references=(InputSpec(path=str(ref)),), systems=(InputSpec(str(binary)),))
    )
    ((title, message),) = harness.errors
    assert title == "Cannot open the comparison"
    assert str(binary) in message
    assert "binary" in message
    assert harness.window.pages.currentWidget() is harness.window.welcome
    assert harness.window.comparison is None


def test_wrong_line_count_gives_error_dialog(harness, tmp_path):
    ref = tmp_path / "ref.txt"
    ref.write_text("a b c\nd e f\ng h\n", encoding="utf-8")
    hyp = tmp_path / "sys.short.txt"
    hyp.write_text("a b c\n", encoding="utf-8")
    harness.open_and_fail(
        ComparisonSpecs(references=(InputSpec(str(ref)),), systems=(InputSpec(str(hyp)),))
    )
    ((_, message),) = harness.errors
    assert "line counts differ" in message
    assert f"{ref} (reference): 3 lines" in message
    assert str(hyp) in message


def test_input_error_keeps_the_open_comparison(harness, tmp_path):
    harness.open_and_wait(sample_specs())
    before = harness.window.comparison
    harness.open_and_fail(
        ComparisonSpecs(
            references=(InputSpec(str(tmp_path / "nope.txt")),),
            systems=(InputSpec(str(tmp_path / "nope2.txt")),),
        )
    )
    assert "nope.txt: file not found" in harness.errors[0][1]
    assert harness.window.comparison is before


# -- warnings banner ---------------------------------------------------------------------------


def test_banner_for_chinese_and_its_actions(qtbot, harness, tmp_path):
    window = harness.window
    window.show()
    rows = 200  # of 2037: the comparison is scored four times
    harness.open_and_wait(zh_specs(rows, tmp_path))
    banner = window.banner
    assert banner.isVisible()
    assert banner.keys() == ["cjk-tokenizer", "rouge-empty", "lsum-fallback"]
    empty = int(window.table.flag("empty_refs").sum())
    assert empty > 0
    assert banner.text_of("rouge-empty").startswith(
        f"{empty} of {2 * rows} references have no ROUGE tokens under the rouge-score tokenizer "
        "(it keeps only a-z0-9)"
    )
    assert "look Chinese" in banner.text_of("cjk-tokenizer")
    assert "13a" in banner.text_of("cjk-tokenizer")
    assert banner.text_of("lsum-fallback").startswith(
        f"ROUGE-Lsum equals ROUGE-L on {rows} of {rows} rows"
    )
    assert banner.button("cjk-tokenizer").text() == "Use zh tokenizer"
    harness.select(5)
    shot(window, tmp_path, "mainwindow-wmt22-en-zh")

    with qtbot.waitSignal(window.controller.scoring_finished, timeout=TIMEOUT):
        qtbot.mouseClick(banner.button("cjk-tokenizer"), Qt.MouseButton.LeftButton)
    assert window.config.settings("bleu").tokenize == "zh"
    assert window.table.config.settings("bleu").tokenize == "zh"
    assert "cjk-tokenizer" not in banner.keys()  # noqa: SIM118 - keys() is a list
    assert "tok:zh" in window.summary.signature_text()

    with qtbot.waitSignal(window.controller.scoring_finished, timeout=TIMEOUT):
        qtbot.mouseClick(banner.button("rouge-empty"), Qt.MouseButton.LeftButton)
    assert window.config == ScoringConfig().apply(
        {"bleu": {"tokenize": "zh"}, "rouge": {"tokenizer": "unicode"}}
    )
    assert banner.keys() == ["lsum-fallback"]
    text = window.comparison.corpus_text()
    want = score_corpus(text, window.config)
    np.testing.assert_array_equal(window.table.scores, want.scores)

    # Dismissed warnings stay away, also after a rescore.
    with qtbot.waitSignal(banner.dismissed) as blocker:
        qtbot.mouseClick(banner.close_button("lsum-fallback"), Qt.MouseButton.LeftButton)
    assert blocker.args == ["lsum-fallback"]
    assert banner.keys() == []
    assert banner.isHidden()
    # A rescore that needs no stemmer (its import costs each worker process about a second).
    with qtbot.waitSignal(window.controller.scoring_finished, timeout=TIMEOUT):
        window.apply_config(window.config.with_settings("bleu", lowercase=True))
    assert window.table.config.settings("bleu").lowercase
    assert banner.keys() == []
    shot(window, tmp_path, "mainwindow-wmt22-en-zh-fixed")


def test_lsum_action_opens_settings_at_the_separator(qtbot, harness):
    harness.open_and_wait(sample_specs())
    banner = harness.window.banner
    assert banner.keys() == ["lsum-fallback"]
    assert banner.button("lsum-fallback").text() == "Set a separator"
    banner.button("lsum-fallback").click()
    dialog = harness.window.settings_dialog
    assert dialog is not None and dialog.isVisible()
    separator = dialog.panel.separator_combo
    assert separator.hasFocus() or dialog.focusWidget() is separator
    dialog.reject()


# -- keyboard, highlight, baseline ---------------------------------------------------------------


def test_keyboard_navigation_and_ctrl_f(qtbot, harness):
    window = harness.window
    window.show()
    qtbot.waitExposed(window)
    harness.open_and_wait(sample_specs())
    window.activateWindow()
    window.table_view.setFocus()
    harness.wait_for_detail(0)
    qtbot.keyClick(window.table_view, Qt.Key.Key_Down)
    qtbot.keyClick(window.table_view, Qt.Key.Key_Down)
    assert window.current_segment() == 2
    harness.wait_for_detail(2)
    qtbot.keyClick(window.table_view, Qt.Key.Key_F, Qt.KeyboardModifier.ControlModifier)
    assert window.filter_bar.search_edit.hasFocus()
    qtbot.keyClicks(window.filter_bar.search_edit, "Bahn")
    window.filter_bar.apply_text_filter()
    assert 0 < window.proxy.rowCount() < 160
    assert window.filter_bar.count_label.text() == f"{window.proxy.rowCount()} of 160 rows"


def test_highlight_mode_and_baseline(qtbot, harness):
    window = harness.window
    harness.open_and_wait(sample_specs())
    assert list(window.highlight_actions) == ["bleu", "lcs"]
    assert window.highlight_actions["bleu"].shortcut().toString() == "Ctrl+1"
    window.highlight_actions["lcs"].trigger()
    assert window.delegate.mode() == "lcs"
    assert window.detail_pane.mode() == "lcs"
    window.highlight_actions["bleu"].trigger()
    assert window.delegate.mode() == "bleu"
    # A metric switched on brings its own highlight mode.
    with qtbot.waitSignal(window.controller.scoring_finished, timeout=TIMEOUT):
        window.apply_config(window.config.with_metrics("bleu,rouge,nltk-bleu"))
    assert list(window.highlight_actions) == ["bleu", "lcs", "nltk"]
    window.highlight_actions["nltk"].trigger()
    assert window.delegate.mode() == "nltk" and window.detail_pane.mode() == "nltk"
    window.baseline_combo.setCurrentIndex(2)
    assert window.model.baseline == 2
    headers = [
        window.model.headerData(c, Qt.Orientation.Horizontal)
        for c in window.model.columns_of_kind("delta")
    ]
    assert headers == ["fluent ΔBLEU", "fluent ΔR-L", "literal ΔBLEU", "literal ΔR-L"]
    window.ref_system_combo.setCurrentIndex(2)
    assert window.delegate.reference_system() == 1


# -- filters and summary -----------------------------------------------------------------------


def test_filters_drive_the_proxy_and_the_summary(qtbot, harness, sample_expected):
    _, expected = sample_expected
    window = harness.window
    harness.open_and_wait(sample_specs())
    bar = window.filter_bar

    # Invalid regex: red field with a tooltip, no exception, filter off.
    bar.regex_button.setChecked(True)
    bar.search_edit.setText("(unclosed")
    bar.apply_text_filter()
    assert bar.regex_problem is not None
    assert "Invalid regular expression" in bar.search_edit.toolTip()
    assert "background" in bar.search_edit.styleSheet()
    assert window.proxy.text_filter() is None
    assert window.proxy.rowCount() == 160
    bar.search_edit.setText(r"\bBahn\b")
    bar.apply_text_filter()
    assert bar.regex_problem is None
    assert bar.search_edit.styleSheet() == ""
    assert window.proxy.text_filter().regex
    bar.clear()
    assert window.proxy.rowCount() == 160

    # Score range: fluent's BLEU at least 50.
    bar.range_check.setChecked(True)
    bar.range_metric_combo.setCurrentIndex(bar.range_metric_combo.findData("bleu"))
    bar.range_system_combo.setCurrentIndex(0)
    bar.range_min_spin.setValue(50.0)
    keep = np.flatnonzero(expected.column("bleu", 0) >= 50.0)
    assert sorted(window.proxy.visible_segments()) == list(keep)
    window.summary.refresh()
    want = expected.corpus(1, rows=keep)
    assert window.summary.model.value(1, "bleu", "filtered") == pytest.approx(want.values["bleu"])
    assert window.summary.model.value(1, "bleu", "all") == pytest.approx(
        expected.corpus(1).values["bleu"]
    )
    assert window.summary.histogram(1)[1].sum() == len(keep)
    assert bar.count_label.text() == f"{len(keep)} of 160 rows"
    # Switching the system moves the range (the old one is removed).
    bar.range_system_combo.setCurrentIndex(2)
    assert list(window.proxy.score_ranges()) == [("bleu", 2)]
    bar.range_check.setChecked(False)
    assert window.proxy.score_ranges() == {}

    # literal − fluent ≥ 10 on BLEU.
    bar.delta_check.setChecked(True)
    bar.delta_a_combo.setCurrentIndex(1)
    bar.delta_b_combo.setCurrentIndex(0)
    bar.delta_metric_combo.setCurrentIndex(bar.delta_metric_combo.findData("bleu"))
    bar.delta_spin.setValue(10.0)
    diff = expected.column("bleu", 1) - expected.column("bleu", 0)
    assert sorted(window.proxy.visible_segments()) == list(np.flatnonzero(diff >= 10.0))
    bar.delta_check.setChecked(False)

    # Special filter: every sample row falls back to ROUGE-L for Lsum.
    bar.special_combo.setCurrentIndex(bar.special_combo.findData("lsum-fallback"))
    assert window.proxy.rowCount() == int(expected.flag("lsum_fallback").sum())
    bar.special_combo.setCurrentIndex(bar.special_combo.findData("empty"))
    assert window.proxy.special_filter() == "empty"
    bar.clear()
    assert window.proxy.special_filter() == ""
    qtbot.waitUntil(lambda: window.summary.model.rowCount() == 3)
    assert bar.count_label.text() == "160 rows"


# -- recent comparisons ----------------------------------------------------------------------


def test_recent_comparisons_are_saved_and_restored(qtbot, harness, tmp_path):
    harness.open_and_wait(sample_specs())
    window = harness.window
    assert window.recent_specs() == [sample_specs()]
    actions = [a for a in window.recent_menu.actions() if isinstance(a.data(), int)]
    assert len(actions) == 1
    assert "fluent, literal, rough" in actions[0].text()

    # Twelve more comparisons: only the last ten are kept, newest first, no duplicates. Three
    # are opened in the window (an open remembers its comparison); the others are remembered
    # as an open does, without scoring nine more comparisons.
    specs = []
    for i in range(12):
        ref = tmp_path / f"ref{i}.txt"
        ref.write_text("a b\n", encoding="utf-8")
        hyp = tmp_path / f"sys.s{i}.txt"
        hyp.write_text("a b\n", encoding="utf-8")
        specs.append(assign_roles([str(ref), str(hyp)]))
        if i in (0, 1, 11):
            harness.open_and_wait(specs[-1])
            assert window.recent_specs()[0] == specs[-1]
        else:
            window.recent.remember(specs[-1])
    harness.open_and_wait(specs[5])
    recent = window.recent_specs()
    assert len(recent) == 10
    assert recent[0] == specs[5]
    assert recent[1] == specs[11]
    assert sample_specs() not in recent

    # A new window (next start) reads the same list and re-opens an entry with its names.
    window.close()
    other = Harness(qtbot, tmp_path)
    try:
        assert other.window.recent_specs() == recent
        entries = [a for a in other.window.recent_menu.actions() if isinstance(a.data(), int)]
        with qtbot.waitSignal(other.window.controller.scoring_finished, timeout=TIMEOUT):
            entries[1].trigger()
        assert other.window.specs == specs[11]
        assert other.window.comparison.systems[0].name == "s11"
    finally:
        other.window.close()


def test_recent_survives_garbage(qtbot, tmp_path):
    settings = QSettings(str(tmp_path / "matchlight.ini"), QSettings.Format.IniFormat)
    settings.setValue(RECENT_KEY, "{not json")
    settings.sync()
    harness = Harness(qtbot, tmp_path)
    try:
        assert harness.window.recent_specs() == []
        assert not harness.window.recent_menu.isEnabled()
        good = sample_specs().to_json()
        harness.settings.setValue(RECENT_KEY, json.dumps([{"bogus": 1}, good, 5]))
        assert harness.window.recent_specs() == [sample_specs()]
    finally:
        harness.window.close()


# -- drag and drop ---------------------------------------------------------------------------


def test_dropped_files_open_the_dialog_with_roles(qtbot, harness):
    specs = zh_specs()
    window = harness.window
    window.show()
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(p) for p in reversed(specs.paths)])
    event = QDropEvent(
        QPointF(200, 200),
        Qt.DropAction.CopyAction,
        mime,
        Qt.MouseButton.LeftButton,
        Qt.KeyboardModifier.NoModifier,
    )
    window.dropEvent(event)
    assert event.isAccepted()
    dialog = window.open_dialog
    assert dialog is not None and dialog.isVisible()
    prefilled = dialog.current_specs()
    assert prefilled.source.path.endswith("/src.txt")
    assert [Path(s.path).name for s in prefilled.references] == ["ref.txt", "ref2.txt"]
    assert [s.name for s in prefilled.systems] == [
        "HuaweiTSC",
        "JDExploreAcademy",
        "LanguageX",
        "Online-B",
        "Online-Y",
    ]
    with qtbot.waitSignal(window.comparison_opened, timeout=TIMEOUT):
        dialog.buttons.button(QDialogButtonBox.StandardButton.Open).click()
    assert window.comparison.systems[0].name == "HuaweiTSC"
    assert window.specs == prefilled
    # Read through MainWindow.read_comparison: the search caches came with the files.
    assert window.proxy.search_ready()


def test_drop_of_non_files_is_ignored(harness):
    mime = QMimeData()
    mime.setText("just text")
    event = QDropEvent(
        QPointF(5, 5),
        Qt.DropAction.CopyAction,
        mime,
        Qt.MouseButton.LeftButton,
        Qt.KeyboardModifier.NoModifier,
    )
    harness.window.dropEvent(event)
    assert harness.window.open_dialog is None


# -- closing -----------------------------------------------------------------------------------


def test_close_shuts_the_workers_down(qtbot, harness):
    window = harness.window
    with qtbot.waitSignal(window.controller.chunk_ready, timeout=TIMEOUT):
        window.open_specs(zh_specs())
    cache = window.detail_cache
    window.close()
    assert window.controller.scoring_thread.isFinished()
    assert cache.is_shut_down()


def test_header_menu_hides_and_shows_columns(qtbot, harness):
    window = harness.window
    window.show()
    harness.open_and_wait(sample_specs())
    model = window.model
    ref2 = model.reference_column(1)
    menu = window.column_menu()
    actions = [a for a in menu.actions() if a.menu() is None]
    assert [a.text() for a in actions] == [
        str(model.headerData(c, Qt.Orientation.Horizontal)) for c in range(model.columnCount())
    ]
    assert all(a.isChecked() for a in actions)
    actions[ref2].setChecked(False)
    assert window.table_view.isColumnHidden(ref2)
    assert window.column_menu().actions()[ref2].isChecked() is False
    actions[ref2].setChecked(True)
    assert not window.table_view.isColumnHidden(ref2)
    menu.deleteLater()


def test_search_caches_are_built_while_the_files_are_read(qtbot, harness):
    window = harness.window
    harness.open_and_show(sample_specs())
    proxy, model = window.proxy, window.model
    assert proxy.search_ready()  # nothing left to build in the GUI thread
    columns = window.session.session.search_columns
    for col in model.text_columns():
        column = columns[model.text_key(col)]
        assert column.strings is model.strings(col) and column.is_prepared()
    proxy.set_text_filter(r"\b(the|a)\b", regex=True)
    cold = SegmentFilterProxy()
    cold.setSourceModel(model)
    cold.set_text_filter(r"\b(the|a)\b", regex=True)
    assert 0 < proxy.filter_mask().sum() < model.rowCount()
    np.testing.assert_array_equal(proxy.filter_mask(), cold.filter_mask())
    qtbot.waitUntil(lambda: not window.controller.running, timeout=TIMEOUT)


def test_the_first_screen_is_detailed_while_the_files_are_read(qtbot, harness):
    """The first rows' highlights are computed in the reading thread: painted once, at once."""
    from matchlight.core.scoring.detail import RowDetailer
    from matchlight.gui.shell.lifecycle import FIRST_SCREEN_ROWS

    window = harness.window
    harness.open_and_show(sample_specs())
    cache, text = window.detail_cache, window.lifecycle.core.text
    assert cache.pending() == []  # nothing queued: no paint has asked yet
    first = min(FIRST_SCREEN_ROWS, len(text))
    detailer = RowDetailer(window.config)
    for segment in (0, 1, first // 2, first - 1):
        detail = cache.peek(segment)
        assert detail is not None
        expected = detailer.row(
            segment=segment,
            source=window.lifecycle.core.source[segment],
            references=[ref[segment] for ref in text.references],
            systems=list(zip(text.system_names, (s[segment] for s in text.systems), strict=True)),
        )
        for s in range(len(text.systems)):
            assert detail.values(s) == expected.values(s)
            for got, want in zip(detail.layers(), expected.layers(), strict=True):
                assert got.hypothesis(s) == want.hypothesis(s)
                assert got.reference(0, s) == want.reference(0, s)
    assert cache.peek(first) is None  # only a screenful
    qtbot.waitUntil(lambda: not window.controller.running, timeout=TIMEOUT)


def test_a_new_comparison_is_shown_in_steps(qtbot, harness, monkeypatch):
    """Models first; the paint and the detail pane in later turns of the event loop."""
    window = harness.window
    window.show()
    # The steps are taken by hand here: on the timer, the first one (1 ms) can come before
    # waitSignal's event loop returns, on a slow machine.
    started: list[int] = []
    monkeypatch.setattr(window.lifecycle._reveal_timer, "start", started.append)
    harness.open_and_show(sample_specs())
    assert started == [1]
    # Right after set_comparison: the models are there, nothing was painted or filled yet.
    assert window.proxy.rowCount() == 160
    assert window.current_segment() == 0
    assert window.revealing()
    assert not window.updatesEnabled()
    assert window.detail_pane.detail() is None
    # First the table (the window), then the detail pane and the summary: one step at a time
    # here, where the window takes them on a timer.
    window.lifecycle._reveal_next()
    assert window.updatesEnabled() and window.table_view.updatesEnabled()
    assert not window.detail_pane.updatesEnabled() and not window.summary.updatesEnabled()
    assert window.revealing() and window.detail_pane.detail() is None
    window.lifecycle._reveal_next()
    assert not window.revealing()
    assert window.detail_pane.updatesEnabled() and window.summary.updatesEnabled()
    harness.wait_for_detail(0)
    # Moving on from there is immediate, as always.
    window.table_view.setCurrentIndex(window.proxy.index(3, 1))
    assert window.detail_pane.detail().segment == 3
    qtbot.waitUntil(lambda: not window.controller.running, timeout=TIMEOUT)


def test_the_window_paints_again_even_if_showing_a_comparison_fails(qtbot, harness, monkeypatch):
    window = harness.window
    comparison = sample_specs().load()

    def broken(table):
        raise RuntimeError("summary exploded")

    monkeypatch.setattr(window.summary, "set_table", broken)
    with pytest.raises(RuntimeError, match="summary exploded"):
        window.set_comparison(comparison)
    assert not window.updatesEnabled()  # until the next turn, as always...
    qtbot.waitUntil(lambda: not window.revealing(), timeout=TIMEOUT)
    # ... but never frozen: every part of the window paints again.
    assert window.updatesEnabled()
    assert window.detail_pane.updatesEnabled() and window.summary.updatesEnabled()
    window.controller.cancel()


def test_a_click_on_a_summary_bin_selects_that_systems_rows(
    qtbot, harness, sample_expected, save_shot
):
    """The summary histogram answers the mouse: the bin under the click, of the curve nearest
    the click, becomes the chart selection (a chip in the bar, the table filtered to it)."""
    _, expected = sample_expected
    window = harness.window
    window.resize(1400, 900)
    window.show()
    harness.open_and_wait(sample_specs())
    window.summary_dock.show()
    window.summary_dock.raise_()
    summary = window.summary
    summary.refresh()
    view = summary.plot.getPlotItem().getViewBox()
    # The dock and the plot laid out at their final size before a position is mapped.
    qtbot.waitUntil(lambda: summary.plot.isVisible() and view.width() > 100)
    qtbot.wait(50)
    edges, counts = summary.histogram(2)  # rough: its tallest bin is far above the others'
    # And drawn: the plot fits its range to the curves when it paints, so a position mapped
    # before that (scoring had just ended) lay far outside the plot and the click missed.
    qtbot.waitUntil(lambda: view.viewRange()[1][1] >= counts.max())
    tallest = int(np.argmax(counts))
    centre = float((edges[tallest] + edges[tallest + 1]) / 2)
    scene = view.mapViewToScene(QPointF(centre, float(counts[tallest])))
    where = summary.plot.mapFromScene(scene)
    qtbot.mouseClick(summary.plot.viewport(), Qt.MouseButton.LeftButton, pos=where)
    bleu = np.clip(expected.column("bleu", 2), 0.0, 100.0)
    low, high = edges[tallest], edges[tallest + 1]
    want = np.flatnonzero((bleu >= low) & (bleu < high))
    assert len(want) == counts[tallest] > 0
    picked = summary.bin_rows(centre, float(counts[tallest]))
    assert picked is not None and picked[0].tolist() == want.tolist()
    qtbot.waitUntil(lambda: window.proxy.rowCount() == len(want))
    assert sorted(window.proxy.visible_segments()) == want.tolist()
    chips = window.filter_bar.chips.chips()
    assert [c.full_text for c in chips] == [
        f"+ chart: sentence BLEU of rough in [{low:g}, {high:g}) ({len(want)} rows)"
    ]
    qtbot.wait(100)  # the layouts settle (a grab does not run pending layout requests)
    save_shot(window, "mainwindow-summary-bin-clicked")
    # Outside the bins (left of 0): nothing is selected.
    assert summary.bin_rows(-5.0, 1.0) is None


def test_gain_and_loss_marks_follow_the_windows_baseline(qtbot, harness, save_shot):
    """The toolbar's baseline reaches the table's delegate and the detail pane, so choosing
    "Reference matches of: literal" marks what literal matched and the baseline did not."""
    window = harness.window
    window.resize(1400, 900)
    window.show()
    harness.open_and_wait(sample_specs())
    assert window.detail_pane.baseline() == 0 and window.delegate.baseline() == 0
    window.ref_system_combo.setCurrentIndex(window.ref_system_combo.findData(1))
    harness.select(14)
    harness.wait_for_detail(14)
    labels = [label for label, _, _ in window.detail_pane.legend.entries()]
    assert "matched by literal, not by fluent" in labels
    assert "matched by fluent, not by literal" in labels
    window.baseline_combo.setCurrentIndex(2)
    assert window.detail_pane.baseline() == 2 and window.delegate.baseline() == 2
    labels = [label for label, _, _ in window.detail_pane.legend.entries()]
    assert "matched by literal, not by rough" in labels
    qtbot.wait(100)  # the layouts settle (a grab does not run pending layout requests)
    save_shot(window, "mainwindow-gain-loss-vs-rough")


def test_the_summary_shows_a_column_added_after_scoring(qtbot, harness):
    """A column imported (or MQM computed) once every row is scored gets its corpus figure in
    the summary, not a dash: the summary's figures are recomputed when columns change."""
    from matchlight.core.metrics.base import ScoreColumn

    window = harness.window
    harness.open_and_wait(sample_specs())
    window.summary.refresh()
    core = window.session.session
    values = np.linspace(0.0, 1.0, len(core.system_names) * core.n_segments).reshape(
        len(core.system_names), core.n_segments
    )
    column = ScoreColumn(key="human", label="Human", short="H", metric="human", description="")
    core.set_column(column, values)
    for s in range(len(core.system_names)):
        qtbot.waitUntil(
            lambda s=s: window.summary.model.value(s, "human") == pytest.approx(values[s].mean())
        )
