"""SegmentFilterProxy: the user's filters and sorts become core selection specs; the proxy maps
rows through the session's result. Every filter against numpy, NaN sorted last, selection kept."""

from __future__ import annotations

import re
from typing import Any

import numpy as np
import pytest
from PySide6.QtCore import QItemSelectionModel, Qt
from PySide6.QtWidgets import QTableView

from matchlight.core.analysis.textsearch import SearchColumn
from matchlight.core.scoring.config import ScoringConfig
from matchlight.core.scoring.engine import iter_score_chunks
from matchlight.core.scoring.results import ScoreTable
from matchlight.core.session.comparison import ComparisonSession
from matchlight.core.text.corpus import corpus_text_from_lines
from matchlight.gui.state.session import SessionModel
from matchlight.gui.table.model import SEGMENT_ROLE, SORT_ROLE, SegmentTableModel
from matchlight.gui.table.proxy import SegmentFilterProxy

ASC = Qt.SortOrder.AscendingOrder
DESC = Qt.SortOrder.DescendingOrder


def setup(
    data: Any, table: ScoreTable | None = None, search: list[SearchColumn] | None = None
) -> tuple[SegmentTableModel, SegmentFilterProxy]:
    core = ComparisonSession(
        data.text,
        config=data.config,
        source=data.source,
        reference_names=data.reference_names,
        table=data.table if table is None else table,
        search=search or (),
    )
    model = SegmentTableModel(SessionModel(core))
    proxy = SegmentFilterProxy()
    proxy.setSourceModel(model)
    return model, proxy


def shown_segments(proxy: SegmentFilterProxy) -> list[int]:
    """Segments in view order, read through the proxy's own indexes."""
    return [proxy.index(row, 0).data(SEGMENT_ROLE) for row in range(proxy.rowCount())]


def half_scored(data: Any) -> ScoreTable:
    """A table where only the chunks of the first ~half of the rows arrived."""
    table = ScoreTable(
        systems=data.text.system_names,
        n_segments=len(data.text),
        config=data.config,
        nrefs=len(data.text.references),
    )
    for chunk in iter_score_chunks(data.text, data.config, chunk_size=40, first_chunk_size=40):
        if chunk.start >= len(data.text) // 2:
            break
        table.apply(chunk)
    return table


def test_proxy_passes_qtmodeltester_through_sorts_and_filters(qtmodeltester, sample) -> None:
    model, proxy = setup(sample)
    qtmodeltester.check(proxy)
    # The tester stays connected: every layout change below is checked too.
    proxy.sort(model.score_column(0, "bleu"), DESC)
    proxy.set_text_filter("the")
    proxy.set_score_range("bleu", 1, 20, 80)
    proxy.sort(model.hypothesis_column(2), ASC)
    proxy.clear_filters()
    proxy.sort(-1)
    qtmodeltester.check(proxy)
    assert shown_segments(proxy) == list(range(160))


@pytest.mark.parametrize("order", [ASC, DESC])
def test_numeric_sort_puts_nan_last(sample, order) -> None:
    table = half_scored(sample)
    model, proxy = setup(sample, table)
    col = model.score_column(1, "bleu")
    proxy.sort(col, order)
    values = table.column("bleu", 1)
    scored = np.flatnonzero(~np.isnan(values))
    assert 0 < len(scored) < 160
    keys = values[scored] if order == ASC else -values[scored]
    expected = [*scored[np.argsort(keys, kind="stable")], *np.flatnonzero(np.isnan(values))]
    assert shown_segments(proxy) == [int(s) for s in expected]
    shown = [proxy.index(r, col).data(SORT_ROLE) for r in range(proxy.rowCount())]
    assert np.isnan(shown[-1]) and not np.isnan(shown[0])
    assert proxy.sortColumn() == col and proxy.sortOrder() == order


def test_delta_and_segment_and_text_sorts(sample) -> None:
    model, proxy = setup(sample)
    delta = model.delta_column(2, "bleu")
    proxy.sort(delta, ASC)
    diff = sample.table.column("bleu", 2) - sample.table.column("bleu", 0)
    assert shown_segments(proxy) == [int(i) for i in np.argsort(diff, kind="stable")]
    proxy.sort(0, DESC)
    assert shown_segments(proxy) == list(range(159, -1, -1))
    hyp = model.hypothesis_column(1)
    proxy.sort(hyp, ASC)
    lines = sample.text.systems[1]
    assert shown_segments(proxy) == sorted(
        range(160), key=lambda i: (lines[i].casefold(), lines[i])
    )


def any_text_matches(data: Any, test) -> np.ndarray:
    columns = [data.source, *data.text.references, *data.text.systems]
    return np.array([any(test(col[i]) for col in columns) for i in range(len(data.text))])


def test_text_filters_match_a_python_computation(qtbot, sample) -> None:
    model, proxy = setup(sample)
    with qtbot.waitSignal(proxy.filter_changed):
        assert proxy.set_text_filter("Clock")
    expected = any_text_matches(sample, lambda t: "clock" in t.casefold())
    assert 0 < expected.sum() < 160
    assert shown_segments(proxy) == list(np.flatnonzero(expected))

    proxy.set_text_filter("Clock", case_sensitive=True)
    expected = any_text_matches(sample, lambda t: "Clock" in t)
    assert shown_segments(proxy) == list(np.flatnonzero(expected))

    col = model.hypothesis_column(2)
    proxy.set_text_filter(r"\b(\w+) \1\b", column=col, regex=True)
    rx = re.compile(r"\b(\w+) \1\b", re.IGNORECASE)
    expected = np.array([rx.search(t) is not None for t in sample.text.systems[2]])
    assert expected.sum() > 0  # the rough system repeats words
    assert shown_segments(proxy) == list(np.flatnonzero(expected))
    np.testing.assert_array_equal(proxy.filter_mask(), expected)

    with pytest.raises(ValueError):
        proxy.set_text_filter("x", column=model.score_column(0, "bleu"))


def test_adopted_search_caches_give_the_same_answers_as_built_ones(qtbot, sample) -> None:
    lines = [sample.source, *sample.text.references, *sample.text.systems]
    _, proxy = setup(sample, search=[SearchColumn(s).prepare() for s in lines])
    assert proxy.search_ready()  # handed over ready-made, as from the reading thread
    _, cold = setup(sample)
    assert not cold.search_ready()  # built at the first search
    for pattern, regex in (("the", False), (r"\b(\w+) \1\b", True), (r"\d{4}", True)):
        proxy.set_text_filter(pattern, regex=regex)
        cold.set_text_filter(pattern, regex=regex)
        assert proxy.filter_mask().sum() > 0
        np.testing.assert_array_equal(proxy.filter_mask(), cold.filter_mask())
    assert cold.search_ready()  # the regex searches built every cache of every column


def test_invalid_regex_is_reported_and_keeps_the_previous_filter(qtbot, sample) -> None:
    _, proxy = setup(sample)
    proxy.set_text_filter("billion")
    before = shown_segments(proxy)
    with (
        qtbot.waitSignal(proxy.filter_error) as error,
        qtbot.assertNotEmitted(proxy.filter_changed),
    ):
        assert proxy.set_text_filter("(unclosed", regex=True) is False
    assert "missing )" in error.args[0]
    assert shown_segments(proxy) == before
    assert proxy.text_filter().pattern == "billion"
    proxy.set_text_filter("")
    assert proxy.rowCount() == 160


def test_score_ranges_and_delta_filters_combine_with_and(sample) -> None:
    model, proxy = setup(sample)
    table = sample.table
    proxy.set_score_range("bleu", 0, 30.0, None)
    a = table.column("bleu", 0) >= 30.0
    assert shown_segments(proxy) == list(np.flatnonzero(a))
    proxy.set_score_range("rougeL_f", 2, None, 60.0)
    b = table.column("rougeL_f", 2) <= 60.0
    assert shown_segments(proxy) == list(np.flatnonzero(a & b))
    proxy.set_delta_filter(0, 1, "bleu", 10.0)
    c = table.column("bleu", 0) - table.column("bleu", 1) >= 10.0
    assert 0 < (a & b & c).sum() < (a & b).sum()
    assert shown_segments(proxy) == list(np.flatnonzero(a & b & c))
    # Sorting applies to the filtered rows.
    col = model.score_column(2, "rougeL_f")
    proxy.sort(col, DESC)
    rows = np.flatnonzero(a & b & c)
    expected = rows[np.argsort(-table.column("rougeL_f", 2)[rows], kind="stable")]
    assert shown_segments(proxy) == [int(x) for x in expected]
    np.testing.assert_array_equal(proxy.visible_segments(), expected)
    # Removing single pieces.
    proxy.set_delta_filter(0, 1, "bleu", None)
    proxy.set_score_range("rougeL_f", 2, None, None)
    assert sorted(shown_segments(proxy)) == list(np.flatnonzero(a))
    proxy.clear_filters()
    assert proxy.rowCount() == 160 and not proxy.is_filtered()
    with pytest.raises(KeyError):
        proxy.set_score_range("meteor", 0, 1, 2)


def test_special_filters(make_scored) -> None:
    refs = [
        "The cat sat on the mat.",
        "   ",
        "A short one.",
        "First sentence.<n>Second sentence.",
        "Exactly these words here.",
        "",
    ]
    hyps_a = [
        "The cat sat on the mat.",
        "Something.",
        "A short one indeed.",
        "First sentence.<n>Second one.",
        "Exactly these words here.",
        "nothing",
    ]
    hyps_b = ["The cat sat on a mat.", "x", "A short one.", "First.", "\t", "y"]
    data = make_scored(
        references=[refs],
        systems={"a": hyps_a, "b": hyps_b},
        config=ScoringConfig(sentence_separator="<n>"),
    )
    _, proxy = setup(data)
    table = data.table

    proxy.set_special_filter("empty")
    assert shown_segments(proxy) == [1, 4, 5]

    proxy.set_special_filter("length-mismatch")
    hyp = np.stack([table.column("hyp_len", s) for s in range(2)])
    ref = np.stack([table.column("ref_len", s) for s in range(2)])
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio = hyp / ref
    bad = ((ratio < 0.5) | (ratio > 2.0)) & ~((hyp == 0) & (ref == 0))
    expected = np.flatnonzero(bad.any(axis=0))
    assert 0 not in expected and 2 not in expected  # same lengths
    assert {1, 4, 5} <= set(expected)  # empty reference, empty output
    assert shown_segments(proxy) == list(expected)

    proxy.set_special_filter("length-mismatch", low_ratio=0.1, high_ratio=10.0)
    bad = ((ratio < 0.1) | (ratio > 10.0)) & ~((hyp == 0) & (ref == 0))
    assert shown_segments(proxy) == list(np.flatnonzero(bad.any(axis=0)))

    proxy.set_special_filter("lsum-fallback")
    assert shown_segments(proxy) == list(np.flatnonzero(table.flag("lsum_fallback")))
    assert 3 not in shown_segments(proxy)

    proxy.set_special_filter("")
    assert proxy.rowCount() == 6
    with pytest.raises(ValueError):
        proxy.set_special_filter("bogus")


def test_selection_and_current_row_survive_sorting_and_filtering(qtbot, sample) -> None:
    model, proxy = setup(sample)
    view = QTableView()
    qtbot.addWidget(view)
    view.setModel(proxy)
    selection = view.selectionModel()
    flags = (
        QItemSelectionModel.SelectionFlag.ClearAndSelect | QItemSelectionModel.SelectionFlag.Rows
    )
    segment = 42
    view.setCurrentIndex(proxy.index(segment, 2))
    selection.select(proxy.index(segment, 0), flags)

    def selected_segments() -> list[int]:
        return sorted(i.data(SEGMENT_ROLE) for i in selection.selectedRows())

    proxy.sort(model.score_column(0, "bleu"), DESC)
    assert selected_segments() == [segment]
    assert view.currentIndex().data(SEGMENT_ROLE) == segment
    assert view.currentIndex().row() == proxy.proxy_row(segment) != segment

    text = sample.text.systems[0][segment].split()[1]
    proxy.set_text_filter(text, column=model.hypothesis_column(0), case_sensitive=True)
    assert proxy.rowCount() < 160
    assert selected_segments() == [segment]
    assert view.currentIndex().data(SEGMENT_ROLE) == segment

    proxy.set_score_range("bleu", 0, 101, None)  # nothing passes: the selection goes away
    assert proxy.rowCount() == 0
    assert selected_segments() == []


def test_scores_arriving_update_sort_and_filters(qtbot, sample) -> None:
    table = ScoreTable(
        systems=sample.text.system_names,
        n_segments=160,
        config=sample.config,
        nrefs=2,
    )
    model, proxy = setup(sample, table)
    col = model.score_column(0, "bleu")
    proxy.sort(col, DESC)
    proxy.set_score_range("bleu", 0, 50, None)
    assert proxy.rowCount() == 0  # nothing scored yet
    for chunk in iter_score_chunks(sample.text, sample.config, chunk_size=80, first_chunk_size=80):
        with qtbot.waitSignal(proxy.filter_changed, timeout=3000):
            model.session.apply_chunk(chunk)  # re-applied by the session, batched
    values = table.column("bleu", 0)
    rows = np.flatnonzero(values >= 50)
    expected = rows[np.argsort(-values[rows], kind="stable")]
    assert shown_segments(proxy) == [int(x) for x in expected]


def test_100k_rows_filter_and_sort_match_numpy(qtbot) -> None:
    n = 100_000
    words = ["alpha beta", "beta gamma delta", "gamma", "", "delta alpha"]
    text = corpus_text_from_lines(
        references=[[words[i % 5] for i in range(n)]],
        systems=[[words[(i * 7) % 5] for i in range(n)], [words[(i * 3) % 5] for i in range(n)]],
        names=["a", "b"],
    )
    table = ScoreTable(systems=("a", "b"), n_segments=n, config=ScoringConfig(), nrefs=1)
    rng = np.random.default_rng(7)
    table.scores[:] = rng.uniform(0, 100, table.scores.shape)
    table.done[:] = True
    core = ComparisonSession(text, config=ScoringConfig(), table=table)
    model = SegmentTableModel(SessionModel(core), shown=["bleu", "rouge1_f"])
    proxy = SegmentFilterProxy()
    proxy.setSourceModel(model)

    proxy.set_score_range("rouge1_f", 1, 25.0, 75.0)
    r1 = table.column("rouge1_f", 1)
    a = (r1 >= 25.0) & (r1 <= 75.0)
    assert proxy.visible_segments().tolist() == np.flatnonzero(a).tolist()
    proxy.set_text_filter("GAMMA")  # 100,000 rows: searched in a worker
    assert proxy.pending("text")
    assert proxy.visible_segments().tolist() == np.flatnonzero(a).tolist()  # not yet
    b = np.array(
        [
            "gamma" in text.references[0][i]
            or "gamma" in text.systems[0][i]
            or "gamma" in text.systems[1][i]
            for i in range(n)
        ]
    )
    proxy.set_delta_filter(1, 0, "bleu", -20.0)
    c = table.column("bleu", 1) - table.column("bleu", 0) >= -20.0
    assert proxy.visible_segments().tolist() == np.flatnonzero(a & c).tolist()  # text pending
    proxy.sort(model.score_column(0, "bleu"), ASC)
    qtbot.waitUntil(lambda: not proxy.pending(), timeout=60_000)
    rows = np.flatnonzero(a & b & c)
    expected = rows[np.argsort(table.column("bleu", 0)[rows], kind="stable")]
    np.testing.assert_array_equal(proxy.visible_segments(), expected)
    assert proxy.rowCount() == len(expected)
    assert proxy.index(0, 0).data(SEGMENT_ROLE) == expected[0]
