"""ComparisonSession.grow: the session of a comparison's first rows takes the whole once it is
read, keeping the scores so far, the filters and the added columns."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from matchlight.core.analysis.selection import ScoreRange, Selection, TextFilter
from matchlight.core.io.inputs import InputSpec
from matchlight.core.io.reading import load_comparison
from matchlight.core.metrics.base import ScoreColumn
from matchlight.core.scoring.engine import empty_table, iter_score_chunks, score_corpus
from matchlight.core.session.comparison import ComparisonSession
from tests.conftest import DATASETS

HEAD = 30


@pytest.fixture(scope="module")
def whole():
    dataset = next((d for d in DATASETS if d.name == "wmt22-de-en"), None)
    if dataset is None:
        pytest.skip("shared/data/wmt22-de-en is not present")
    comparison = load_comparison(
        source=InputSpec(str(dataset.source)),
        references=[InputSpec(str(p)) for p in dataset.refs],
        systems=[InputSpec(str(p)) for p in dataset.systems[:2]],
    )
    n = 200
    cut = type(comparison)(
        source=_head(comparison.source, n),
        references=tuple(_head(c, n) for c in comparison.references),
        systems=tuple(_head(c, n) for c in comparison.systems),
    )
    return cut


def _head(column, n):
    return replace(column, lines=column.lines[:n])


def _session_of_head(whole) -> ComparisonSession:
    text = whole.corpus_text()
    head = type(text)(
        references=tuple(r[:HEAD] for r in text.references),
        systems=tuple(s[:HEAD] for s in text.systems),
        system_names=text.system_names,
    )
    return ComparisonSession(head, source=whole.source.lines[:HEAD])


def test_grow_keeps_the_scores_and_refilters(whole) -> None:
    session = _session_of_head(whole)
    config = session.config
    chunks = list(iter_score_chunks(session.text, config, chunk_size=10, first_chunk_size=None))
    for chunk in chunks[:2]:  # rows 0..19 scored, 20..29 not yet
        session.apply_chunk(chunk)
    session.set_selection(Selection((TextFilter("the"), ScoreRange("bleu", 0, 10.0, None))))
    column = ScoreColumn("imported", "Imported", "Imp", "imported", "an imported score")
    session.set_column(column, np.arange(2 * HEAD, dtype=float).reshape(2, HEAD))
    events: list[str] = []
    session.subscribe(lambda event, payload: events.append(event))
    version = session.rows_version
    text = whole.corpus_text()
    table = empty_table(text, config)
    session.grow(text, source=whole.source.lines, comparison=whole, table=table)

    assert events[:3] == ["rows", "table", "selection"]
    assert session.n_segments == len(text) and session.table is table
    assert session.rows_version > version
    expected = score_corpus(text, config)
    scored = len(table.columns) - 1
    np.testing.assert_array_equal(table.done, np.arange(len(text)) < 20)
    np.testing.assert_array_equal(table.scores[:, :20, :scored], expected.scores[:, :20])
    assert np.isnan(table.scores[:, 20:, :scored]).all()
    added = table.scores[:, :, scored]
    np.testing.assert_array_equal(added[:, :HEAD], np.arange(2 * HEAD).reshape(2, HEAD))
    assert np.isnan(added[:, HEAD:]).all()
    # The filters hold on the new rows: none of them is scored yet, so none passes the range.
    rows = session.selected_rows()
    assert len(rows) and rows.max() < 20
    assert all(
        "the" in " ".join(c[r] for c in (*text.references, *text.systems)).casefold()
        or "the" in whole.source.lines[r].casefold()
        for r in rows
    )
    # Scoring the rest into the grown table gives the table a plain scoring gives.
    for chunk in iter_score_chunks(text, config, first_chunk_size=None):
        session.apply_chunk(chunk)
    np.testing.assert_array_equal(table.scores[:, :, :scored], expected.scores)
    for metric, fields in expected.stats.items():
        for name, values in fields.items():
            np.testing.assert_array_equal(table.stats[metric][name], values)
    for s in range(2):
        assert table.running_corpus(s).value("bleu") == expected.running_corpus(s).value("bleu")


def test_grow_refuses_another_comparison(whole) -> None:
    session = _session_of_head(whole)
    text = whole.corpus_text()
    other = type(text)(text.references, text.systems[:1], text.system_names[:1])
    with pytest.raises(ValueError):
        session.grow(
            other,
            source=whole.source.lines,
            comparison=None,
            table=empty_table(other, session.config),
        )
    with pytest.raises(ValueError):
        session.grow(text, source=None, comparison=None, table=empty_table(text, session.config))
    with pytest.raises(ValueError):  # a table of the first rows only
        session.grow(
            text,
            source=whole.source.lines,
            comparison=None,
            table=empty_table(session.text, session.config),
        )


def test_set_column_says_which_rows_it_changed(whole) -> None:
    """What a view repaints after an annotation edit: the rows whose values changed, NaN
    equal to NaN; any row (None) for a new column, another scale or after a removal."""
    session = _session_of_head(whole)
    column = ScoreColumn("imported", "Imported", "Imp", "imported", "an imported score")
    values = np.full((2, HEAD), np.nan)
    values[0, :5] = 1.0
    session.set_column(column, values)
    assert session.changed_rows("imported") is None  # a new column
    again = values.copy()
    again[1, 7] = 2.0  # NaN -> a value
    again[0, 3] = np.nan  # a value -> NaN
    again[0, 4] = 1.0  # the same value
    session.set_column(column, again)
    assert session.changed_rows("imported").tolist() == [3, 7]
    session.set_column(column, again)
    assert session.changed_rows("imported").tolist() == []
    session.set_column(column.with_scale(replace(column.scale, decimals=3)), again)
    assert session.changed_rows("imported") is None  # another scale: every cell
    session.remove_column("imported")
    assert session.changed_rows("imported") is None
