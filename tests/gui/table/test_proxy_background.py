"""Searches and text sorts over many rows run in a worker: the table keeps its rows until the
result is applied in one step, a superseded search is never applied, and the rows equal a plain
Python reading of the filter on real data (WMT22 de-en, every text column)."""

from __future__ import annotations

import re

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QVBoxLayout, QWidget

from matchlight.core.analysis.selection import Selection, TextFilter
from matchlight.core.scoring.config import ScoringConfig
from matchlight.core.session.comparison import ComparisonSession
from matchlight.core.text.corpus import corpus_text_from_lines
from matchlight.gui.state.session import SessionModel
from matchlight.gui.table.filterbar import FilterBar
from matchlight.gui.table.model import SegmentTableModel
from matchlight.gui.table.proxy import SegmentFilterProxy
from tests.conftest import SHARED_DATA
from tests.kit import read_lines

WAIT_MS = 120_000
DE_EN = SHARED_DATA / "wmt22-de-en"


@pytest.fixture(scope="module")
def columns() -> dict[str, list[str]]:
    """The text columns by selection name, as read from the real files."""
    names = sorted(p.name for p in DE_EN.glob("sys.*.txt"))[:2]
    return {
        "source": read_lines(DE_EN / "src.txt"),
        "ref1": read_lines(DE_EN / "ref.txt"),
        "ref2": read_lines(DE_EN / "ref2.txt"),
        **{f"hyp{s + 1}": read_lines(DE_EN / name) for s, name in enumerate(names)},
    }


def comparison_of(columns: dict[str, list[str]]) -> ComparisonSession:
    """The source, two references and two systems of ``columns`` as a comparison."""
    text = corpus_text_from_lines(
        references=[columns["ref1"], columns["ref2"]],
        systems=[columns["hyp1"], columns["hyp2"]],
        names=["one", "two"],
    )
    return ComparisonSession(text, config=ScoringConfig(), source=columns["source"])


def make_proxy(columns: dict[str, list[str]]) -> tuple[SessionModel, SegmentFilterProxy]:
    core = comparison_of(columns)
    session = SessionModel(core)
    proxy = SegmentFilterProxy()
    proxy.warm_up_delay_ms = 0
    proxy.setSourceModel(SegmentTableModel(session))
    proxy.background_rows = 0  # every search in the worker, however few the rows
    return session, proxy


def reference_rows(columns: dict[str, list[str]], test) -> list[int]:
    n = len(columns["ref1"])
    return [i for i in range(n) if any(test(column[i]) for column in columns.values())]


def wait_done(qtbot, proxy: SegmentFilterProxy) -> None:
    qtbot.waitUntil(lambda: not proxy.pending(), timeout=WAIT_MS)


@pytest.mark.parametrize(
    "pattern,regex,case_sensitive",
    [
        ("the", False, False),
        ("Straße", False, False),
        ("EU", False, True),
        (r"\b(19|20)\d\d\b", True, False),
        (r"^Die\b", True, True),
        (r"(\w+) \1", True, False),
    ],
)
def test_background_search_gives_the_plain_python_rows_and_keeps_the_table_meanwhile(
    qtbot, columns, pattern: str, regex: bool, case_sensitive: bool
) -> None:
    _, proxy = make_proxy(columns)
    proxy.set_text_filter("Euro")  # something shown before
    wait_done(qtbot, proxy)
    before = proxy.visible_segments().tolist()
    assert before == reference_rows(columns, lambda t: "euro" in t.casefold())

    assert proxy.set_text_filter(pattern, None, regex, case_sensitive)
    assert proxy.pending("text")
    assert proxy.visible_segments().tolist() == before  # unchanged until the result arrives
    assert proxy.rowCount() == len(before)
    with qtbot.waitSignal(proxy.filter_changed, timeout=WAIT_MS):
        pass
    assert not proxy.pending()

    if regex:
        rx = re.compile(pattern, 0 if case_sensitive else re.IGNORECASE)
        want = reference_rows(columns, lambda t: rx.search(t) is not None)
    elif case_sensitive:
        want = reference_rows(columns, lambda t: pattern in t)
    else:
        want = reference_rows(columns, lambda t: pattern.casefold() in t.casefold())
    assert 0 < len(want) < len(columns["ref1"])
    assert proxy.visible_segments().tolist() == want
    assert proxy.rowCount() == len(want)
    assert proxy.text_filter().pattern == pattern


def test_a_superseded_search_is_never_applied(qtbot, columns) -> None:
    session, proxy = make_proxy(columns)
    applied: list[Selection] = []
    session.selection_changed.connect(lambda _changed: applied.append(session.selection))
    proxy.set_text_filter("the")
    proxy.set_text_filter("Minister")  # the next keystroke, before the first search is done
    wait_done(qtbot, proxy)
    assert [s.filters for s in applied] == [(TextFilter("Minister"),)]
    want = reference_rows(columns, lambda t: "minister" in t.casefold())
    assert proxy.visible_segments().tolist() == want
    # A cancelled search: nothing is applied, and a later sort does not bring it back.
    proxy.set_text_filter("Regierung")
    proxy.cancel_pending("text")
    assert not proxy.pending()
    proxy.sort(proxy.source_model().reference_column(0), Qt.SortOrder.AscendingOrder)
    wait_done(qtbot, proxy)
    assert all(s.filters == (TextFilter("Minister"),) for s in applied)
    ref = columns["ref1"]
    assert proxy.visible_segments().tolist() == sorted(
        want, key=lambda i: (ref[i].casefold(), ref[i])
    )


@pytest.mark.parametrize("order", [Qt.SortOrder.AscendingOrder, Qt.SortOrder.DescendingOrder])
def test_background_text_sort_orders_like_sorted_and_a_resort_needs_no_worker(
    qtbot, columns, order: Qt.SortOrder
) -> None:
    _, proxy = make_proxy(columns)
    model = proxy.source_model()
    col = model.hypothesis_column(1)
    proxy.sort(col, order)
    assert proxy.pending("sort")
    assert proxy.visible_segments().tolist() == list(range(len(columns["hyp2"])))  # not yet
    wait_done(qtbot, proxy)
    hyp = columns["hyp2"]
    descending = order == Qt.SortOrder.DescendingOrder
    want = sorted(range(len(hyp)), key=lambda i: (hyp[i].casefold(), hyp[i]), reverse=descending)
    assert proxy.visible_segments().tolist() == want
    # The column's ranks are kept: the other way round is applied at once, no worker.
    other = Qt.SortOrder.AscendingOrder if descending else Qt.SortOrder.DescendingOrder
    proxy.sort(col, other)
    assert not proxy.pending()
    want = sorted(
        range(len(hyp)), key=lambda i: (hyp[i].casefold(), hyp[i]), reverse=not descending
    )
    assert proxy.visible_segments().tolist() == want


def test_a_pending_sort_and_search_are_applied_together(qtbot, columns) -> None:
    _, proxy = make_proxy(columns)
    changes: list[int] = []
    proxy.filter_changed.connect(lambda: changes.append(proxy.rowCount()))
    proxy.sort(proxy.source_model().reference_column(1), Qt.SortOrder.DescendingOrder)
    proxy.set_text_filter(r"\d+ Prozent|percent", regex=True)
    wait_done(qtbot, proxy)
    rx = re.compile(r"\d+ Prozent|percent", re.IGNORECASE)
    kept = reference_rows(columns, lambda t: rx.search(t) is not None)
    ref2 = columns["ref2"]
    want = sorted(kept, key=lambda i: (ref2[i].casefold(), ref2[i]), reverse=True)
    assert proxy.visible_segments().tolist() == want
    assert changes == [len(want)]  # one step


def test_typing_in_the_filter_bar_cancels_the_running_search_and_keeps_the_field(
    qtbot, columns
) -> None:
    session, proxy = make_proxy(columns)
    host = QWidget()
    qtbot.addWidget(host)
    bar = FilterBar()
    QVBoxLayout(host).addWidget(bar)
    model = proxy.source_model()
    bar.set_proxy(
        proxy,
        text_columns=[
            (str(model.headerData(c, Qt.Orientation.Horizontal)), c) for c in model.text_columns()
        ],
        systems=("one", "two"),
        metrics=session.table.columns,
    )
    host.show()
    bar.search_edit.setText("Bundes")
    bar.apply_text_filter()  # as the debounce timer does
    assert proxy.pending("text")
    assert bar.count_label.text().endswith("searching…")
    host.grab().save("/tmp/matchlight-shots/filterbar-searching.png")
    # A selection change from elsewhere while the search runs leaves the field alone.
    session.set_selection(session.selection)
    assert bar.search_edit.text() == "Bundes"
    QTest.keyClicks(bar.search_edit, "tag")  # the next keystroke cancels the search
    assert not proxy.pending("text")
    assert proxy.text_filter() is None
    bar.apply_text_filter()
    wait_done(qtbot, proxy)
    assert proxy.text_filter().pattern == "Bundestag"
    assert bar.search_edit.text() == "Bundestag"
    want = reference_rows(columns, lambda t: "bundestag" in t.casefold())
    assert proxy.visible_segments().tolist() == want
    assert bar.count_label.text() == f"{len(want)} of {len(columns['ref1'])} rows"


def test_a_big_comparisons_search_caches_are_built_by_a_worker_once_shown(qtbot, columns) -> None:
    """The warm-up starts a while after the rows show (not in the turn that shows them, nor in
    the next ones, where the window shows the rest of the comparison)."""
    core = comparison_of(columns)
    proxy = SegmentFilterProxy()
    proxy.background_rows = 0  # "big" from the first row
    proxy.warm_up_delay_ms = 100
    assert not any(c.is_prepared() for c in core.search_columns.values())
    proxy.setSourceModel(SegmentTableModel(SessionModel(core)))
    assert proxy._worker._warm_up is None  # no worker yet: due once the timer fires
    assert proxy._warm_up_timer.isActive()
    qtbot.waitUntil(lambda: proxy._worker._warm_up is not None, timeout=WAIT_MS)
    qtbot.waitUntil(proxy.search_ready, timeout=WAIT_MS)
    for name, column in core.search_columns.items():
        assert column.folded().rows_as_bytes() == [
            line.casefold().encode() for line in columns[name]
        ]
        joined = column.joined()
        assert joined is not None and joined.text == joined.separator.join(columns[name])


def test_the_warm_up_then_builds_each_columns_index_and_searches_use_it(qtbot, columns) -> None:
    """Over ``index_rows`` rows, after the search caches, the warm-up builds every text
    column's n-gram index; searches then answer as plain Python does."""
    core = comparison_of(columns)
    proxy = SegmentFilterProxy()
    proxy.background_rows = 0
    proxy.warm_up_delay_ms = 0
    proxy._worker.index_rows = 0
    proxy.setSourceModel(SegmentTableModel(SessionModel(core)))
    search = core.search_columns
    qtbot.waitUntil(lambda: all(c.has_index() for c in search.values()), timeout=WAIT_MS)
    for name, column in search.items():
        index = column.build_index()  # built already: returned at once
        assert index is not None and (name == "source" or b"the" in index.grams), name
    for pattern, regex in (("the", False), ("ment", False), (r"\b(19|20)\d\d\b", True)):
        proxy.set_text_filter(pattern, None, regex, False)
        wait_done(qtbot, proxy)
        rx = re.compile(pattern if regex else re.escape(pattern), re.IGNORECASE)
        want = reference_rows(columns, lambda t, rx=rx: rx.search(t) is not None)
        assert proxy.visible_segments().tolist() == want, pattern


def test_the_warm_up_then_builds_the_systems_sort_ranks(qtbot, columns) -> None:
    """Over ``rank_rows`` rows, after the search caches, the warm-up ranks the systems' text
    columns, so a first sort by a system's text is an argsort; the ranks are those a sort
    builds."""
    core = comparison_of(columns)
    proxy = SegmentFilterProxy()
    proxy.background_rows = 0
    proxy.warm_up_delay_ms = 0
    proxy._worker.rank_rows = 0
    proxy.setSourceModel(SegmentTableModel(SessionModel(core)))
    search = core.search_columns
    systems = {name: c for name, c in search.items() if name.startswith("hyp")}
    qtbot.waitUntil(lambda: all(c.has_sort_ranks() for c in systems.values()), timeout=WAIT_MS)
    qtbot.waitUntil(proxy.search_ready, timeout=WAIT_MS)
    qtbot.wait(100)
    assert not any(search[name].has_sort_ranks() for name in ("source", "ref1", "ref2"))
    for name, column in systems.items():
        keys = [(line.casefold(), line) for line in columns[name]]
        order = sorted(range(len(keys)), key=keys.__getitem__)
        assert column.sort_ranks()[order].tolist() == sorted(column.sort_ranks().tolist())
    hyp = search["hyp1"]
    want = sorted(
        range(len(columns["hyp1"])),
        key=lambda i: (columns["hyp1"][i].casefold(), columns["hyp1"][i]),
    )
    proxy.sort(proxy.source_model().hypothesis_column(0), Qt.SortOrder.AscendingOrder)
    assert not proxy.pending()  # ranks ready: applied at once
    assert [proxy.source_row(r) for r in range(proxy.rowCount())] == want
    assert hyp.has_sort_ranks()


def test_the_warm_up_pauses_its_ranking_while_a_selection_worker_runs(qtbot, columns) -> None:
    import threading

    from matchlight.core.analysis.textsearch import SearchCancelled, SearchColumn

    _session, proxy = make_proxy(columns)
    worker = proxy._worker
    column = SearchColumn(["b", "a"])  # nobody else ranks it
    cancel = threading.Event()
    worker._job = object()  # a selection worker runs
    outcome: list[str] = []

    def pause() -> None:
        try:
            worker._pause(cancel, column)
            outcome.append("went on")
        except SearchCancelled:
            outcome.append("gave up")

    thread = threading.Thread(target=pause)
    thread.start()
    thread.join(0.3)
    assert thread.is_alive() and not outcome  # waits while the worker runs
    worker._job = None
    thread.join(5)
    assert outcome == ["went on"]
    wanted = SearchColumn(["b", "a"])
    wanted._wanted = True  # a sort waits for these ranks: building them goes on
    worker._job = object()
    worker._pause(cancel, wanted)
    worker._job = None
    column.sort_ranks()
    with pytest.raises(SearchCancelled):  # ranked meanwhile (by a sort): nothing left to do
        worker._pause(cancel, column)
    cancel.set()
    with pytest.raises(SearchCancelled):
        worker._pause(cancel, SearchColumn(["c"]))


def test_the_warm_ups_steps_are_pause_points_unless_a_sort_waits(qtbot, columns) -> None:
    """Between two steps of folding rows, building an index or ranks the warm-up passes
    core.pacing's pause point (where the app lets its GUI thread go first), which lets it go
    when a search or a sort waits for those very rows or ranks."""
    import threading

    from matchlight.core import pacing
    from matchlight.core.analysis.textsearch import SearchColumn

    _session, proxy = make_proxy(columns)
    worker = proxy._worker
    cancel = threading.Event()
    let_go: list[bool] = []
    previous = pacing.set_gate(lambda unless: let_go.append(unless()))
    try:
        worker._pause(cancel)  # an index's step
        worker._pause(cancel, SearchColumn(["b", "a"]))  # a rank's step, nobody waiting
        wanted = SearchColumn(["b", "a"])
        wanted._wanted = True  # a sort waits for these ranks
        worker._pause(cancel, wanted)
        folding = SearchColumn(["B", "a"])
        worker._pause(cancel, folding=folding)  # a step of folding rows, nobody waiting
        assert folding.folded() is not None  # a search asks for them
        worker._pause(cancel, folding=folding)
    finally:
        pacing.set_gate(previous)
    assert let_go == [False, False, True, False, True]
