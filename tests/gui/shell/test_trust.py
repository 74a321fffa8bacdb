"""Hostile input in the app, reading that can always be stopped, and no stale state after a
failure: what the app does when the files or the machine work against the user."""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import subprocess
import sys
import textwrap
import threading
from pathlib import Path

import numpy as np
import pytest
from PySide6.QtCore import QMimeData, QPointF, Qt, QUrl
from PySide6.QtGui import QDropEvent
from PySide6.QtWidgets import QDialogButtonBox

from matchlight.core.io.inputs import InputSpec
from matchlight.core.metrics.base import DETAIL_TOKEN_LIMIT
from matchlight.core.scoring.config import ScoringConfig
from matchlight.core.scoring.engine import score_corpus
from matchlight.gui.dialogs.opendialog import ComparisonSpecs, recognise_files, sample_specs
from matchlight.gui.shell import lifereading
from tests.gui.conftest import first_rows
from tests.gui.shell.windowkit import DATA, SHOTS, TIMEOUT, Harness, shot
from tests.kit import hostile_inputs

ROOT = Path(__file__).resolve().parents[3]


@pytest.fixture
def harness(qtbot, tmp_path):
    h = Harness(qtbot, tmp_path)
    yield h
    h.window.cancel_reading()
    h.window.close()


def _lines(path: Path, lines: list[str]) -> str:
    path.write_text("".join(f"{line}\n" for line in lines), encoding="utf-8")
    return str(path)


@pytest.fixture
def small(tmp_path) -> tuple[str, str]:
    ref = _lines(tmp_path / "ref.txt", ["the cat sat", "a dog barked", "it rained"])
    hyp = _lines(tmp_path / "sys.alpha.txt", ["the cat sat", "a dog", "rain"])
    return ref, hyp


# -- hostile files -----------------------------------------------------------------------------


def test_hostile_files_get_a_message_naming_the_file(harness, small, tmp_path):
    ref, _ = small
    window = harness.window
    for name, (path, what) in hostile_inputs(tmp_path).items():
        harness.errors.clear()
        specs = ComparisonSpecs(references=(InputSpec(ref),), systems=(InputSpec(path),))
        message = harness.open_and_fail(specs)
        assert harness.errors == [("Cannot open the comparison", message)], name
        assert message.startswith(path) and what in message, (name, message)
        assert window.comparison is None and not window.is_reading()
        assert window.pages.currentWidget() is window.welcome


def test_dropped_hostile_files_are_refused_in_the_open_dialog(qtbot, harness, small, tmp_path):
    ref, _ = small
    window = harness.window
    window.show()
    path, what = hostile_inputs(tmp_path)["fifo"]
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(ref), QUrl.fromLocalFile(path)])
    event = QDropEvent(
        QPointF(100, 100),
        Qt.DropAction.CopyAction,
        mime,
        Qt.MouseButton.LeftButton,
        Qt.KeyboardModifier.NoModifier,
    )
    window.dropEvent(event)
    dialog = window.open_dialog
    assert [s.path for s in dialog.current_specs().systems] == [path]
    with qtbot.waitSignal(dialog.read_failed, timeout=TIMEOUT) as blocker:
        dialog.buttons.button(QDialogButtonBox.StandardButton.Open).click()
    assert blocker.args[0].startswith(path) and what in blocker.args[0]
    assert dialog.isVisible() and window.comparison is None
    dialog.reject()


def test_encodings_and_lone_surrogates_open_with_a_warning_naming_the_file(harness, tmp_path):
    ref = tmp_path / "ref.jsonl"
    ref.write_text('{"t": "the café is open"}\n{"t": "a dog"}\n', encoding="utf-8")
    latin = tmp_path / "sys.latin.jsonl"
    latin.write_bytes('{"t": "the café is open"}\n{"t": "a dög"}\n'.encode("cp1252"))
    surrogate = tmp_path / "sys.json.jsonl"
    surrogate.write_text('{"t": "the \\ud800 is open"}\n{"t": "a dog"}\n', encoding="utf-8")
    specs = ComparisonSpecs(
        references=(InputSpec(str(ref), column="t"),),
        systems=(InputSpec(str(latin), column="t"), InputSpec(str(surrogate), column="t")),
    )
    harness.open_and_wait(specs)
    banner = harness.window.banner
    text = banner.text_of("inputs")
    assert "sys.latin.jsonl: encoding detected as" in text
    assert "sys.json.jsonl: line 1 contains a lone surrogate (U+D800" in text
    assert harness.window.comparison.systems[1].lines[0] == "the \ufffd is open"


# -- reading can always be stopped -----------------------------------------------------------


@pytest.fixture
def slow_load(monkeypatch):
    """The app's read of the files waits for the returned event (then reads as usual)."""
    release = threading.Event()
    original = lifereading.load_comparison

    def load(*args, **kwargs):
        release.wait(60)
        return original(*args, **kwargs)

    monkeypatch.setattr(lifereading, "load_comparison", load)
    yield release
    release.set()


def test_reading_shows_a_reading_page_with_cancel(qtbot, harness, slow_load, tmp_path):
    """No "No comparison open" while a big set loads: the window says what it reads."""
    window = harness.window
    window.resize(1280, 720)
    window.show()
    shown: list[int] = []
    window.pages.currentChanged.connect(shown.append)
    with qtbot.waitSignal(window.reading_changed) as started:
        window.open_specs(sample_specs())
    assert started.args == [True]
    assert window.pages.currentWidget() is window.reading_page
    assert window.reading_page.files.text().startswith("6 files from sample: src.de.txt")
    assert window.reading_page.cancel_button.isVisible()
    shot(window, tmp_path, "mainwindow-reading")
    with qtbot.waitSignal(window.reading_changed) as stopped:
        qtbot.mouseClick(window.reading_page.cancel_button, Qt.MouseButton.LeftButton)
    assert stopped.args == [False]
    assert window.pages.currentWidget() is window.welcome
    assert "Reading cancelled" in window.statusBar().currentMessage()
    assert window.cancel_button.isHidden()
    # The read finishing later opens nothing.
    with qtbot.assertNotEmitted(window.comparison_opened, wait=300):
        slow_load.set()
    assert window.comparison is None
    assert shown == [
        window.pages.indexOf(window.reading_page),
        window.pages.indexOf(window.welcome),
    ]


def test_reading_next_to_an_open_comparison_keeps_it_shown(qtbot, harness, slow_load):
    window = harness.window
    window.show()
    slow_load.set()
    harness.open_and_wait(sample_specs())
    before = window.comparison
    slow_load.clear()
    with qtbot.waitSignal(window.reading_changed):
        window.open_specs(sample_specs())
    assert window.pages.currentIndex() == 1  # the comparison stays, the status bar says it
    assert window.progress_label.text() == "Reading 6 files…"
    assert window.cancel_button.isVisible()
    with qtbot.waitSignal(window.reading_changed):
        qtbot.mouseClick(window.cancel_button, Qt.MouseButton.LeftButton)
    assert window.comparison is before and window.pages.currentIndex() == 1


def test_closing_the_window_during_a_read_ends_the_process(tmp_path):
    """A read that never ends (a hung mount) does not keep the app alive once closed."""
    script = tmp_path / "close_while_reading.py"
    script.write_text(
        textwrap.dedent(
            f"""
            import sys, threading
            sys.path.insert(0, {str(ROOT)!r})
            from PySide6.QtCore import QSettings, QTimer
            from matchlight.gui.dialogs.opendialog import sample_specs
            from matchlight.gui.shell import lifereading
            from matchlight.gui.shell.app import ensure_application
            from matchlight.gui.shell.mainwindow import MainWindow

            lifereading.load_comparison = lambda *a, **k: threading.Event().wait()  # forever
            app = ensure_application()
            settings = QSettings({str(tmp_path / "s.ini")!r}, QSettings.Format.IniFormat)
            window = MainWindow(settings=settings)
            window.show()
            window.open_specs(sample_specs())
            assert window.is_reading()
            QTimer.singleShot(300, window.close)
            code = app.exec()
            print("closed", window.is_reading(), flush=True)
            raise SystemExit(code)
            """
        ),
        encoding="utf-8",
    )
    result = subprocess.run(
        [sys.executable, str(script)],
        env={**os.environ, "QT_QPA_PLATFORM": "offscreen"},
        capture_output=True,
        text=True,
        timeout=120,  # a hang guard: the read itself never ends
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert "closed False" in result.stdout


# -- no stale state ----------------------------------------------------------------------------


def _wmt_de_specs(tmp_path: Path) -> ComparisonSpecs:
    """The first 300 rows of wmt22-de-en's source, two references and five systems (a second
    real comparison, other than the sample's; scored here again to check what is shown)."""
    folder = DATA / "wmt22-de-en"
    if not folder.is_dir():
        pytest.skip("shared/data/wmt22-de-en is not present")
    return recognise_files([str(first_rows(folder, tmp_path, 300))]).specs


def _assert_shows(window, specs: ComparisonSpecs, segment: int = 0) -> None:
    """The summary, the table and the detail pane show ``specs``'s numbers (from core)."""
    text = specs.load().corpus_text()
    expected = score_corpus(text, ScoringConfig())
    assert window.table.complete
    np.testing.assert_array_equal(window.table.scores, expected.scores)
    window.summary.refresh()
    for s in range(len(text.systems)):
        assert window.summary.model.value(s, "bleu") == pytest.approx(
            expected.corpus(s).values["bleu"], abs=1e-9
        )
        col = window.model.score_column(s, "bleu")
        np.testing.assert_array_equal(window.model.values(col), expected.column("bleu", s))
    detail = window.detail_pane.detail()
    assert detail is not None and detail.segment == segment
    assert detail.outputs == tuple(sys_[segment] for sys_ in text.systems)
    assert detail.values(0)["bleu"] == expected.value("bleu", 0, segment)


def test_a_failed_open_leaves_nothing_stale(qtbot, harness, tmp_path):
    window = harness.window
    window.show()
    harness.open_and_wait(sample_specs())
    window.filter_bar.search_edit.setText("Berlin")  # a filter on the first comparison
    window.filter_bar.apply_text_filter()
    missing = ComparisonSpecs(
        references=(InputSpec("/nonexistent/ref.txt"),),
        systems=(InputSpec("/nonexistent/sys.a.txt"),),
    )
    harness.open_and_fail(missing)
    specs = _wmt_de_specs(tmp_path)
    window.filter_bar.clear()
    harness.open_and_wait(specs)
    harness.wait_for_detail(0)
    _assert_shows(window, specs)


def test_an_exception_while_showing_leaves_nothing_stale(qtbot, harness, monkeypatch, tmp_path):
    """The issue: after an exception while showing a comparison, the next one's summary stayed
    bound to the old table (BLEU 26.52 where 52.70 was right)."""
    window = harness.window
    window.show()
    harness.open_and_wait(sample_specs())
    original = window.filter_bar.set_proxy
    calls: list[int] = []

    def fails_once(*args, **kwargs):
        calls.append(1)
        if len(calls) == 1:
            raise RuntimeError("filter bar exploded")
        return original(*args, **kwargs)

    monkeypatch.setattr(window.filter_bar, "set_proxy", fails_once)
    specs = _wmt_de_specs(tmp_path)
    with pytest.raises(RuntimeError, match="filter bar exploded"):
        window.set_comparison(specs.load(), specs)
    # Nothing of either comparison stays on screen.
    assert window.comparison is None and window.table is None
    assert window.pages.currentWidget() is window.welcome
    assert window.summary.model.rowCount() == 0 or window.summary.signature_text() == ""
    assert window.detail_pane.detail() is None
    assert window.banner.keys() == []
    assert not window.controller.running
    harness.open_and_wait(specs)
    harness.wait_for_detail(0)
    _assert_shows(window, specs)


# -- rows too long to highlight ----------------------------------------------------------------


def test_a_row_too_long_to_highlight_says_why_in_the_detail_pane(qtbot, harness, tmp_path):
    tokens = 25_000
    assert tokens > DETAIL_TOKEN_LIMIT
    long_ref = " ".join(f"w{i}" for i in range(tokens))
    long_hyp = (
        " ".join(f"w{i}" for i in range(0, tokens, 2))
        + " "
        + " ".join(f"x{i}" for i in range(tokens // 2))
    )
    ref = _lines(tmp_path / "ref.txt", ["a short line", long_ref, "the cat sat"])
    hyp = _lines(tmp_path / "sys.alpha.txt", ["a short line", long_hyp, "the cat"])
    specs = ComparisonSpecs(references=(InputSpec(ref),), systems=(InputSpec(hyp),))
    harness.open_and_wait(specs)
    window = harness.window
    window.show()
    harness.select(1)
    pane = window.detail_pane
    notes = pane.notes()
    assert "BLEU: no highlights or breakdown for this row" in notes
    assert f"a line has {tokens:,} tokens" in notes
    assert f"up to {DETAIL_TOKEN_LIMIT:,} tokens (the scores are exact)" in notes
    # The scores of the row are still core's, exactly.
    expected = score_corpus(specs.load().corpus_text(), ScoringConfig())
    np.testing.assert_array_equal(window.table.scores, expected.scores)
    shot(window, tmp_path, "mainwindow-long-row-notes")
    # Rows that fit show their highlights again.
    harness.select(2)
    assert pane.notes() == ""
    assert SHOTS.is_dir()
