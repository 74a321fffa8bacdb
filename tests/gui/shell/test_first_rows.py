"""Opening a big comparison: its first rows show (and are scored) while the rest is read; the
rest is appended; a read that fails or is cancelled meanwhile leaves nothing behind and no
thread. The read is held at the hand-over (a gate), so nothing here depends on timing."""

from __future__ import annotations

import threading
from pathlib import Path

import numpy as np
import pytest

from matchlight.core.analysis.selection import TextFilter
from matchlight.core.io import decoding
from matchlight.core.io.inputs import parse_spec
from matchlight.core.io.reading import load_comparison
from matchlight.core.scoring.config import ScoringConfig
from matchlight.core.scoring.engine import score_corpus
from matchlight.gui.dialogs.opendialog import ComparisonSpecs
from matchlight.gui.shell import lifereading
from matchlight.gui.shell.lifecycle import COMPARISON_PAGE, WELCOME_PAGE
from matchlight.gui.table import selectionworker
from tests.conftest import SHARED_DATA
from tests.gui.shell.windowkit import TIMEOUT, shot
from tests.kit import read_lines

DE_EN = SHARED_DATA / "wmt22-de-en"
ROWS, FIRST = 400, 40
#: Lines every input gets among the real ones: emoji, CJK, empty, combining marks.
ODD = ["😀 emoji 👍🏽", "中文字符和日本語のテキスト", "", "e\u0301 combining", "tab\there"]


def _write(folder: Path, name: str, lines: list[str], shift: int) -> str:
    rows = [
        ODD[(i + shift) % len(ODD)] if i % 9 == 4 else lines[i % len(lines)] for i in range(ROWS)
    ]
    path = folder / name
    path.write_text("".join(f"{row}\n" for row in rows), encoding="utf-8")
    return str(path)


def _specs(folder: Path, *, short_ref: bool = False) -> ComparisonSpecs:
    if not DE_EN.is_dir():
        pytest.skip("shared/data/wmt22-de-en is not present")
    ref = _write(folder, "ref.txt", read_lines(DE_EN / "ref.txt"), 0)
    if short_ref:
        path = Path(ref)
        path.write_text("".join(path.read_text(encoding="utf-8").splitlines(True)[:-1]), "utf-8")
    systems = sorted(DE_EN.glob("sys.*.txt"))[:2]
    return ComparisonSpecs(
        source=parse_spec(_write(folder, "src.txt", read_lines(DE_EN / "src.txt"), 1)),
        references=(parse_spec(ref),),
        systems=tuple(
            parse_spec(_write(folder, p.name, read_lines(p), 2 + i)) for i, p in enumerate(systems)
        ),
    )


@pytest.fixture
def gate(monkeypatch: pytest.MonkeyPatch):
    """The reading thread waits here once it handed the first rows over, until released."""
    release = threading.Event()
    real = load_comparison

    def held(**kwargs):
        on_first = kwargs.get("on_first")
        if on_first is not None:

            def hand_over(head):
                on_first(head)
                release.wait(60)

            kwargs["on_first"] = hand_over
        return real(**kwargs)

    monkeypatch.setattr(lifereading, "load_comparison", held)
    monkeypatch.setattr(decoding, "_STREAM_BLOCK", 512)  # many blocks per file
    yield release
    release.set()


@pytest.fixture
def window(harness):
    w = harness.window
    w.lifecycle.first_rows = FIRST
    w.lifecycle.first_rows_from_bytes = 0
    w.resize(1200, 700)
    w.show()
    return w


def _readers() -> list[threading.Thread]:
    return [t for t in threading.enumerate() if t.name == "matchlight-load"]


def test_the_first_rows_show_while_the_rest_is_read(qtbot, harness, window, gate, tmp_path):
    specs = _specs(tmp_path)
    opened: list[bool] = []
    window.comparison_opened.connect(lambda: opened.append(True))
    assert window.open_specs(specs)
    qtbot.waitUntil(lambda: window.model is not None and window.proxy.rowCount() == FIRST)
    assert window.lifecycle.is_reading() and window.lifecycle.showing_part()
    assert window.pages.currentIndex() == COMPARISON_PAGE
    assert not opened  # not announced (nor remembered) as opened until it is whole
    whole = load_comparison(
        source=specs.source, references=list(specs.references), systems=list(specs.systems)
    )
    shown = window.model.text
    assert shown.systems == tuple(c.lines[:FIRST] for c in whole.systems)
    assert window.session.session.source == whole.source.lines[:FIRST]
    qtbot.waitUntil(lambda: window.table.n_done == FIRST, timeout=TIMEOUT)  # scored meanwhile
    assert not window.export_all_action.isEnabled()  # the first rows are not the comparison
    # Neither the count nor the summary passes the first rows off as the whole.
    assert window.filter_bar.count_label.text() == f"{FIRST} of the first {FIRST} rows"
    window.summary.refresh()
    assert window.summary.caption.text().startswith(
        f"The first {FIRST} rows, {FIRST} scored; the rest is being read."
    )
    # Nothing is worked out in the background for the first rows that the whole replaces: no
    # significance clusters, no language check (they would run beside the read).
    assert window.summary.cluster_text() == (
        "Significance clusters [n] follow once the files are read and every row is scored."
    )
    assert not window.summary.clusters.job.running
    qtbot.waitUntil(lambda: not window.lifecycle.revealing())
    lifecycle = window.lifecycle
    assert not lifecycle._language_timer.isActive() and not lifecycle._language_job.running
    assert lifecycle.language is None
    window.table_view.setCurrentIndex(window.proxy.index(3, 1))
    shot(window, tmp_path, "first-rows-while-reading")

    with qtbot.waitSignal(window.comparison_opened, timeout=TIMEOUT):
        gate.set()
    assert not window.lifecycle.is_reading() and not window.lifecycle.showing_part()
    assert window.model.rowCount() == window.proxy.rowCount() == ROWS
    # The whole is checked (due, under way or done).
    assert (
        lifecycle._language_timer.isActive()
        or lifecycle._language_job.running
        or lifecycle.language is not None
    )
    window.lifecycle.refresh_counts()
    assert window.filter_bar.count_label.text() == f"{ROWS} rows"
    assert window.model.text == whole.corpus_text()
    assert window.comparison == whole
    assert window.current_segment() == 3  # the row the user was on stays current
    qtbot.waitUntil(
        lambda: window.table.complete and not window.controller.running, timeout=TIMEOUT
    )
    expected = score_corpus(whole.corpus_text(), ScoringConfig())
    np.testing.assert_array_equal(window.table.scores, expected.scores)
    assert window.export_all_action.isEnabled()
    assert [window.proxy.source_row(r) for r in range(ROWS)] == list(range(ROWS))
    qtbot.waitUntil(lambda: not _readers(), timeout=TIMEOUT)


def test_the_whole_is_remembered_then_announced_in_turns_of_their_own(
    qtbot, window, gate, tmp_path
):
    """Once the rest is appended, the recent list takes the comparison in one turn and
    ``comparison_opened`` (the session files' attach) follows in a later one: still opening
    while it is remembered, no longer once announced."""
    specs = _specs(tmp_path)
    events: list[object] = []
    window.comparison_opened.connect(lambda: events.append("opened"))
    remember = window.recent.remember

    def remembering(entry: object) -> None:
        events.append(("remember", window.lifecycle.is_opening()))
        remember(entry)

    window.recent.remember = remembering
    assert window.open_specs(specs)
    qtbot.waitUntil(lambda: window.model is not None and window.proxy.rowCount() == FIRST)
    assert events == []
    with qtbot.waitSignal(window.comparison_opened, timeout=TIMEOUT):
        gate.set()
    assert events == [("remember", True), "opened"]
    assert window.recent.entries()[0] == specs
    assert not window.lifecycle.is_opening()
    assert window.model.rowCount() == ROWS
    qtbot.waitUntil(lambda: not _readers(), timeout=TIMEOUT)


def test_the_table_repaints_the_appended_rows_in_a_turn_of_its_own(qtbot, window, gate, tmp_path):
    """Appending the rest (a million rows: a turn of its own) and repainting the rows on screen
    (about as long again) are two turns of the event loop, not one."""
    specs = _specs(tmp_path)
    reading = window.lifecycle
    show_rest = reading._show_rest
    view = window.table_view
    updates: list[tuple[int, bool]] = []

    def appending(*args, **kwargs) -> None:
        show_rest(*args, **kwargs)
        updates.append((window.model.rowCount(), view.updatesEnabled()))

    reading._show_rest = appending
    assert window.open_specs(specs)
    qtbot.waitUntil(lambda: window.model is not None and window.proxy.rowCount() == FIRST)
    qtbot.waitUntil(lambda: not window.lifecycle.revealing())  # the first rows painted
    assert view.updatesEnabled()
    with qtbot.waitSignal(window.comparison_opened, timeout=TIMEOUT):
        gate.set()
    assert updates == [(ROWS, False)]  # appended; no paint in that turn
    qtbot.waitUntil(view.updatesEnabled, timeout=TIMEOUT)  # the next turn paints
    qtbot.waitUntil(lambda: not _readers(), timeout=TIMEOUT)


def test_the_documents_painted_for_the_first_rows_are_painted_after_the_read(
    qtbot, window, gate, tmp_path
):
    """The whole's detail cache replaces the first rows', under the same settings: the cells on
    screen keep the documents built for them (a row's highlights depend on its texts and the
    settings only), so the repaint after the read builds none (at a million rows it had spent
    its whole budget building them again). Another configuration builds them anew."""
    specs = _specs(tmp_path)
    assert window.open_specs(specs)
    qtbot.waitUntil(lambda: window.model is not None and window.proxy.rowCount() == FIRST)
    qtbot.waitUntil(lambda: not window.lifecycle.revealing())
    view, delegate = window.table_view, window.delegate
    cells = [window.proxy.index(r, c) for r in range(3) for c in window.model.text_columns()]

    def documents() -> list[object]:
        with delegate.unbounded():
            view.viewport().repaint()
        return [delegate.document(index) for index in cells]

    qtbot.waitUntil(lambda: all(window.detail_cache.get(s) is not None for s in range(3)))
    before = documents()
    assert all(doc is not None for doc in before)
    old_cache = window.detail_cache
    with qtbot.waitSignal(window.comparison_opened, timeout=TIMEOUT):
        gate.set()
    assert window.detail_cache is not old_cache and delegate.cache is window.detail_cache
    qtbot.waitUntil(lambda: all(window.detail_cache.get(s) is not None for s in range(3)))
    after = documents()
    assert [id(d) for d in after] == [id(d) for d in before]
    # Highlights still follow the settings: a new configuration builds new documents.
    window.apply_config(window.config.with_settings("bleu", lowercase=True))
    qtbot.waitUntil(lambda: all(window.detail_cache.get(s) is not None for s in range(3)))
    assert not {id(d) for d in documents()} & {id(d) for d in before}
    qtbot.waitUntil(lambda: not _readers(), timeout=TIMEOUT)


@pytest.mark.parametrize("how", ["cancel", "close"])
def test_cancelling_after_the_first_rows_leaves_nothing(
    qtbot, harness, window, gate, tmp_path, how
):
    window.open_specs(_specs(tmp_path))
    qtbot.waitUntil(lambda: window.model is not None and window.proxy.rowCount() == FIRST)
    if how == "cancel":
        window.cancel_reading()
        assert window.session is None and window.model is None
        assert window.pages.currentIndex() == WELCOME_PAGE
        assert "cancelled" in window.statusBar().currentMessage()
    else:
        window.close()
    gate.set()  # the reading thread goes on to its next block, sees the cancel and ends
    qtbot.waitUntil(lambda: not _readers(), timeout=TIMEOUT)
    assert harness.errors == []


def test_a_read_failing_after_the_first_rows_takes_them_back(
    qtbot, harness, window, gate, tmp_path
):
    window.open_specs(_specs(tmp_path, short_ref=True))
    qtbot.waitUntil(lambda: window.model is not None and window.proxy.rowCount() == FIRST)
    with qtbot.waitSignal(window.lifecycle.open_failed, timeout=TIMEOUT) as failed:
        gate.set()
    assert "line counts differ" in failed.args[0] and "ref.txt (reference)" in failed.args[0]
    assert window.session is None and window.model is None
    assert window.pages.currentIndex() == WELCOME_PAGE
    assert [title for title, _ in harness.errors] == ["Cannot open the comparison"]
    qtbot.waitUntil(lambda: not _readers(), timeout=TIMEOUT)


def test_a_comparison_shown_stays_until_the_next_is_read_whole(qtbot, window, gate, tmp_path):
    """With a comparison open, a new one is read whole before it replaces it (a cancel then
    keeps the one shown)."""
    first, second = tmp_path / "a", tmp_path / "b"
    first.mkdir()
    second.mkdir()
    with qtbot.waitSignal(window.comparison_opened, timeout=TIMEOUT):
        window.open_specs(_specs(first))
        qtbot.waitUntil(lambda: window.lifecycle.showing_part())
        gate.set()
    shown = window.session
    gate.clear()
    with qtbot.waitSignal(window.lifecycle.reading_changed, timeout=TIMEOUT):
        window.open_specs(_specs(second))
    assert window.session is shown and not window.lifecycle.showing_part()
    window.cancel_reading()
    assert window.session is shown and window.model.rowCount() == ROWS


def test_a_search_set_on_the_first_rows_searches_the_whole_in_a_worker(
    qtbot, window, gate, tmp_path, monkeypatch
):
    """The session takes the rest without the search (the GUI thread would search all of it),
    and the proxy's worker searches the whole; the search field keeps the search meanwhile."""
    specs = _specs(tmp_path)
    assert window.open_specs(specs)
    qtbot.waitUntil(lambda: window.model is not None and window.proxy.rowCount() == FIRST)
    window.filter_bar.search_edit.setText("the")
    window.filter_bar.apply_text_filter()
    assert 0 < window.proxy.rowCount() < FIRST
    window.proxy.background_rows = 0  # the whole is searched in a worker, however few rows
    threads: list[threading.Thread] = []
    real = TextFilter.mask

    def mask(self, data, cancelled=None):
        threads.append(threading.current_thread())
        return real(self, data, cancelled)

    monkeypatch.setattr(TextFilter, "mask", mask)
    hold = threading.Event()
    prepare = selectionworker.prepare

    def held(*args, **kwargs):
        hold.wait(60)
        return prepare(*args, **kwargs)

    monkeypatch.setattr(selectionworker, "prepare", held)
    with qtbot.waitSignal(window.comparison_opened, timeout=TIMEOUT):
        gate.set()
    qtbot.wait(50)  # the window's other parts follow in turns of their own
    assert window.proxy.pending()  # the worker searches the whole
    assert window.filter_bar.search_edit.text() == "the"  # and the field keeps the search
    assert window.filter_bar.count_label.text().endswith("searching…")
    assert "first" not in window.statusBar().currentMessage()
    shot(window, tmp_path, "first-rows-search-of-the-whole")
    hold.set()
    qtbot.waitUntil(lambda: not window.proxy.pending(), timeout=TIMEOUT)
    whole = load_comparison(
        source=specs.source, references=list(specs.references), systems=list(specs.systems)
    )
    columns = [whole.source, *whole.references, *whole.systems]
    want = [i for i in range(ROWS) if any("the" in c.lines[i].casefold() for c in columns)]
    assert [window.proxy.source_row(r) for r in range(window.proxy.rowCount())] == want
    assert threads and threading.main_thread() not in threads
    assert window.filter_bar.search_edit.text() == "the"
    assert window.proxy.text_filter() is not None
