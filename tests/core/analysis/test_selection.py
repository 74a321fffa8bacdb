"""Row selection in core: frozen filter specs become a row mask and an order, exactly as a
straightforward per-row reading of each rule says (the oracle is written out in each test)."""

from __future__ import annotations

import math
import re

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from matchlight.core.analysis.selection import (
    DeltaFilter,
    EmptyRows,
    FlagFilter,
    LengthRatio,
    RowSet,
    ScoreRange,
    SegmentRange,
    Selection,
    SelectionData,
    SelectionError,
    Sort,
    TextFilter,
    format_segments,
    parse_segments,
    select,
)
from matchlight.core.scoring.config import ScoringConfig
from matchlight.core.scoring.engine import iter_score_chunks, score_corpus
from matchlight.core.session.comparison import ComparisonSession, ComparisonState
from matchlight.core.text.corpus import corpus_text_from_lines
from tests.conftest import SAMPLE
from tests.kit import read_lines


@pytest.fixture(scope="module")
def data() -> SelectionData:
    refs = [read_lines(SAMPLE / "ref.en.txt"), read_lines(SAMPLE / "ref2.en.txt")]
    systems = [read_lines(SAMPLE / f"sys.{n}.txt") for n in ("fluent", "literal", "rough")]
    # Edge rows a user meets: an empty output, an empty reference.
    systems[2][5] = ""
    refs[1][7] = "   "
    text = corpus_text_from_lines(
        references=refs, systems=systems, names=["fluent", "literal", "rough"]
    )
    table = score_corpus(text, ScoringConfig())
    return SelectionData(text, table, read_lines(SAMPLE / "src.de.txt"))


def test_segment_lists() -> None:
    assert parse_segments("1-3,8", 10).tolist() == [0, 1, 2, 7]
    assert parse_segments(" 9- , -2 ,5", 10).tolist() == [0, 1, 4, 8, 9]
    assert parse_segments("3,3,2-4", 10).tolist() == [1, 2, 3]
    bad_lists = [
        ("", "empty"), ("0", "outside"), ("11", "outside"), ("4-2", "backwards"),
        ("a", "not N"), ("1-2-3", "not N"), ("-", "not N"), ("1 2", "not a number"),
    ]  # fmt: skip
    for bad, why in bad_lists:
        with pytest.raises(SelectionError, match=why):
            parse_segments(bad, 10)
    assert format_segments([0, 1, 2, 7, 9, 10]) == "1-3,8,10-11"
    assert format_segments([]) == ""


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("9" * 5000, f"segment list part {'9' * 40!r}... (5,000 characters) is outside 1-10"),
        (
            "1-" + "9" * 4301,
            f"segment list part {'1-' + '9' * 38!r}... (4,303 characters) is outside 1-10",
        ),
        ("0" * 5000 + "3", None),
        ("\u0663", "is not N, A-B, A- or -B"),  # an Arabic-Indic 3: not an ASCII digit
    ],
)
def test_hostile_segment_lists_get_a_short_message(spec: str, message: str | None) -> None:
    if message is None:  # leading zeros are not digits of the number
        assert parse_segments(spec, 10).tolist() == [2]
        return
    with pytest.raises(SelectionError) as info:
        parse_segments(spec, 10)
    assert message in str(info.value) and len(str(info.value)) < 200


@settings(max_examples=200, deadline=None)
@given(rows=st.sets(st.integers(0, 60)), n=st.integers(61, 80))
def test_format_and_parse_round_trip(rows: set[int], n: int) -> None:
    if rows:
        assert parse_segments(format_segments(sorted(rows)), n).tolist() == sorted(rows)


def test_text_filters(data: SelectionData) -> None:
    text = data.text
    keep = TextFilter("cat").mask(data)
    columns = [data.source, *text.references, *text.systems]
    expected = [any("cat" in c[i].casefold() for c in columns) for i in range(data.n_rows)]
    assert keep.tolist() == expected
    keep = TextFilter(r"\bthe\b", regex=True, columns=("hyp3",), case_sensitive=True).mask(data)
    assert keep.tolist() == [re.search(r"\bthe\b", h) is not None for h in text.systems[2]]
    with pytest.raises(SelectionError):
        TextFilter("(", regex=True).mask(data)
    with pytest.raises(SelectionError, match="no text column"):
        TextFilter("x", columns=("hyp9",)).mask(data)


def test_score_filters(data: SelectionData) -> None:
    table = data.table
    bleu = [table.value("bleu", 1, i) for i in range(data.n_rows)]
    keep = ScoreRange("bleu", 1, 20.0, 60.0).mask(data)
    assert keep.tolist() == [20.0 <= v <= 60.0 for v in bleu]
    delta = DeltaFilter("rougeL_f", 0, 2, 10.0).mask(data)
    want = [
        table.value("rougeL_f", 0, i) - table.value("rougeL_f", 2, i) >= 10.0
        for i in range(data.n_rows)
    ]
    assert delta.tolist() == want
    with pytest.raises(SelectionError, match="no score column"):
        ScoreRange("chrf", 0, 1.0).mask(data)


def test_length_empty_and_flag_filters(data: SelectionData) -> None:
    table = data.table
    mismatch = LengthRatio(0.5, 2.0).mask(data)
    want = []
    for i in range(data.n_rows):
        bad = False
        for s in range(3):
            h, r = table.value("hyp_len", s, i), table.value("ref_len", s, i)
            if h == 0 and r == 0:
                continue
            ratio = math.inf if r == 0 else h / r
            bad |= not 0.5 <= ratio <= 2.0
        want.append(bad)
    assert mismatch.tolist() == want and mismatch[5]  # the emptied output
    empty = EmptyRows().mask(data)
    assert np.flatnonzero(empty).tolist() == [5, 7]
    assert np.flatnonzero(EmptyRows("reference").mask(data)).tolist() == [7]
    assert not EmptyRows(keep=False).mask(data)[[5, 7]].any()
    flag = FlagFilter("lsum_fallback").mask(data)
    assert flag.all()  # the sample has no newline inside a segment
    with pytest.raises(SelectionError):
        FlagFilter("nope").mask(data)


def test_sorts(data: SelectionData) -> None:
    table = data.table
    values = table.column("bleu", 2)
    order = select(Selection(sort=Sort("bleu", 2, descending=True)), data)[1]
    assert np.all(np.diff(values[order]) <= 0)
    delta = table.column("bleu", 0) - table.column("bleu", 1)
    order = select(Selection(sort=Sort("bleu", 0, baseline=1)), data)[1]
    assert np.all(np.diff(delta[order]) >= 0)
    order = select(Selection(sort=Sort("hyp1")), data)[1]
    texts = [data.text.systems[0][i] for i in order]
    assert texts == sorted(texts, key=lambda t: (t.casefold(), t))
    assert select(Selection(sort=Sort(descending=True)), data)[1].tolist() == list(
        range(data.n_rows - 1, -1, -1)
    )


def test_filters_combine_with_and_and_the_order_holds_only_kept_rows(data: SelectionData) -> None:
    selection = Selection(
        (TextFilter("the"), ScoreRange("bleu", 0, 10.0), SegmentRange("1-100")),
        Sort("rouge1_f", 1, descending=True),
    )
    mask, order = select(selection, data)
    want = (
        TextFilter("the").mask(data)
        & ScoreRange("bleu", 0, 10.0).mask(data)
        & (np.arange(data.n_rows) < 100)
    )
    assert mask.tolist() == want.tolist()
    assert sorted(order.tolist()) == np.flatnonzero(want).tolist()
    assert RowSet((3, 1, 4), "brushed").mask(data).sum() == 3


def test_selections_round_trip_through_json(data: SelectionData) -> None:
    import json

    selection = Selection(
        (
            TextFilter("cat", regex=True, columns=("ref1",)),
            ScoreRange("bleu", 1, None, 30.0),
            DeltaFilter("bleu", 0, 1, 5.0),
            LengthRatio(0.6, 1.5),
            FlagFilter("lsum_fallback"),
            EmptyRows("output", keep=False),
            SegmentRange("1-9"),
            RowSet((1, 2), "tagged"),
        ),
        Sort("bleu", 0, True, 1),
    )
    again = Selection.from_dict(json.loads(json.dumps(selection.to_dict())))
    assert again == selection
    assert select(again, data)[0].tolist() == select(selection, data)[0].tolist()


def test_a_new_filter_of_the_same_kind_replaces_the_old() -> None:
    selection = Selection().with_filter(TextFilter("a")).with_filter(ScoreRange("bleu", 0, 1))
    selection = selection.with_filter(TextFilter("b")).with_filter(ScoreRange("bleu", 1, 2))
    assert selection.filters == (
        ScoreRange("bleu", 0, 1),
        TextFilter("b"),
        ScoreRange("bleu", 1, 2),
    )
    assert not Selection(sort=Sort("hyp2")).depends_on_scores()
    assert Selection(sort=Sort("bleu", 0)).depends_on_scores()


# -- the comparison session -----------------------------------------------------------------


def test_the_session_announces_changes_and_keeps_state(data: SelectionData) -> None:
    text = data.text
    session = ComparisonSession(text, source=data.source)
    events: list[tuple[str, object]] = []
    unsubscribe = session.subscribe(lambda e, p: events.append((e, p)))
    assert session.table.n_done == 0
    for chunk in iter_score_chunks(text, session.config):
        session.apply_chunk(chunk)
    assert events[0] == ("scores", (0, 64))
    session.set_selection(Selection((ScoreRange("bleu", 0, 50.0),)))
    assert events[-1][0] == "selection"
    kept = session.selected_rows()
    assert kept.tolist() == np.flatnonzero(data.table.column("bleu", 0) >= 50.0).tolist()
    session.set_baseline(2)
    assert events[-1] == ("baseline", 2)
    with pytest.raises(SelectionError):
        session.set_selection(Selection((TextFilter("(", regex=True),)))
    assert session.selected_rows().tolist() == kept.tolist()  # unchanged by the failure
    unsubscribe()
    session.set_baseline(1)
    assert events[-1] == ("baseline", 2)


def test_new_settings_drop_filters_on_columns_that_are_gone(data: SelectionData) -> None:
    session = ComparisonSession(data.text, table=data.table)
    session.set_selection(Selection((ScoreRange("rougeL_f", 0, 10.0), TextFilter("cat"))))
    table = session.set_config(ScoringConfig(metrics=("bleu",)))
    assert table.n_done == 0 and not table.has("rougeL_f")
    assert session.selection.filters == (TextFilter("cat"),)


def test_session_state_round_trips(data: SelectionData) -> None:
    import json

    session = ComparisonSession(data.text, table=data.table)
    session.set_selection(Selection((TextFilter("cat"),), Sort("bleu", 1, True)))
    session.set_baseline(1)
    session.set_layout(hidden=["source"], mode="lcs")
    state = ComparisonState.from_dict(json.loads(json.dumps(session.state().to_dict())))
    other = ComparisonSession(data.text, table=data.table)
    other.restore(state)
    assert other.state() == session.state()
    assert other.view_order().tolist() == session.view_order().tolist()


def test_added_columns_are_columns_like_any_other(data: SelectionData, tmp_path) -> None:
    """Imported scores (or MQM from annotations) join the table: corpus mean over the rows that
    have a value, filters, the CSV, and they survive new settings."""
    import csv

    from matchlight.core.io.export import write_csv
    from matchlight.core.metrics.base import ScoreColumn

    session = ComparisonSession(data.text, table=data.table)
    n = data.n_rows
    values = np.tile(np.linspace(0.0, 1.0, n), (3, 1))
    values[1, :10] = np.nan  # rows system 2 has no score for
    column = ScoreColumn("comet", "COMET", "COMET", "imported", "imported from comet.tsv")
    events: list[tuple[str, object]] = []
    session.subscribe(lambda e, p: events.append((e, p)))
    session.set_column(column, values)
    assert ("columns", "comet") in events
    table = session.table
    assert table.has("comet") and table.column_info("comet") == column
    corpus = table.corpus(1)
    assert corpus.values["comet"] == pytest.approx(float(np.mean(values[1, 10:])))
    assert table.corpus(0, np.arange(5)).values["comet"] == pytest.approx(values[0, :5].mean())
    assert table.corpus(0).values["bleu"] == data.table.corpus(0).values["bleu"]
    session.set_selection(Selection((ScoreRange("comet", 1, 0.5),)))
    assert session.selected_rows().tolist() == np.flatnonzero(values[1] >= 0.5).tolist()
    out = tmp_path / "s.csv"
    write_csv(out, table)
    rows = list(csv.DictReader(out.open(encoding="utf-8")))
    assert rows[0]["comet"] == repr(float(values[0, 0])) and rows[n]["comet"] == ""
    new_table = session.set_config(ScoringConfig(metrics=("bleu",)))
    assert new_table.has("comet") and session.selection.filters == (ScoreRange("comet", 1, 0.5),)
    session.remove_column("comet")
    assert not session.table.has("comet") and session.selection.filters == ()
    with pytest.raises(ValueError, match="scored column"):
        session.set_column(
            ScoreColumn("bleu", "BLEU", "BLEU", "imported", "clash"), np.zeros((3, n))
        )


def test_row_sets_of_different_sources_all_apply(data: SelectionData) -> None:
    chart = RowSet((1, 2, 3, 4), "BLEU 20-40", source="chart")
    notes = RowSet((2, 3, 9), "annotations: major", source="annotations")
    selection = Selection().with_filter(chart).with_filter(notes)
    assert select(selection, data)[0].nonzero()[0].tolist() == [2, 3]
    # A new chart brush replaces the chart's, not the annotations'.
    again = selection.with_filter(RowSet((3, 9), "scatter box", source="chart"))
    assert again.filters == (notes, RowSet((3, 9), "scatter box", source="chart"))
    # Clearing the chart's set keeps the annotations'.
    assert again.without("rows", source="chart").filters == (notes,)
    assert again.without("rows").filters == ()


def test_prepare_makes_select_find_its_slow_parts_ready(data: SelectionData) -> None:
    from matchlight.core.analysis.selection import is_prepared, prepare
    from matchlight.core.analysis.textsearch import SearchCancelled

    fresh = SelectionData(data.text, data.table, data.source)
    selection = Selection(
        (TextFilter(r"\b(19|20)\d\d\b|the", regex=True), ScoreRange("bleu", 0, 10.0, None)),
        Sort("ref2", descending=True),
    )
    assert not is_prepared(selection, fresh)
    with pytest.raises(SearchCancelled):
        prepare(selection, fresh, cancelled=lambda: True)
    assert not is_prepared(selection, fresh)
    prepare(selection, fresh)
    assert is_prepared(selection, fresh)
    mask, order = select(selection, fresh)
    # The oracle: the rule read row by row.
    ref2, bleu = data.text.references[1], data.table.column("bleu", 0)
    rows = re.compile(r"\b(19|20)\d\d\b|the", re.IGNORECASE)
    texts = [data.source, *data.text.references, *data.text.systems]
    want = [
        any(rows.search(column[i]) for column in texts) and bleu[i] >= 10.0
        for i in range(len(ref2))
    ]
    assert mask.tolist() == want
    kept = [i for i in range(len(ref2)) if want[i]]
    by_text = sorted(kept, key=lambda i: (ref2[i].casefold(), ref2[i]), reverse=True)
    # Descending, equal texts in segment order (sorted's reverse keeps equal items in order).
    assert order.tolist() == by_text
