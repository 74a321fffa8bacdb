"""What the score charts draw (core.analysis.histograms), checked against numpy computed the plain
way: np.histogram with explicit edges, np.intersect1d, and the scales' own bins and counts over
the same rows; on generated tables (hypothesis) and on real sentence BLEU of WMT22 systems.
Also the display bounds' copy-free extremes against the finite values' min and max."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from matchlight.core.analysis.histograms import (
    column_bounds,
    difference_histogram,
    histogram_counts,
    score_histograms,
    scored_rows,
)
from matchlight.core.analysis.scales import (
    ahead_counts,
    clip_to_bounds,
    difference_bins,
    display_bounds,
    score_edges,
)
from matchlight.core.metrics.base import Scale, ScoreColumn
from tests.scalekit import MQM

BLEU = ScoreColumn("bleu", "BLEU", "BLEU", "bleu", "sentence BLEU")
TER = ScoreColumn("ter", "TER", "TER", "ter", "TER").with_scale(Scale("lower", 0.0, None, 1))
COLUMNS = (BLEU, MQM, TER)

finite = st.floats(-200, 200, allow_nan=False, allow_infinity=False)
special = st.sampled_from([np.nan, 0.0, 100.0, 100.00000000000004, -1e-300])


@st.composite
def tables(draw: st.DrawFn) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(systems, segments) values with NaN (unscored), the scored mask, some rows."""
    n_sys = draw(st.integers(1, 4))
    n_seg = draw(st.integers(1, 120))
    values = draw(arrays(np.float64, (n_sys, n_seg), elements=finite | special))
    done = draw(arrays(np.bool_, n_seg))
    rows = draw(arrays(np.int64, st.integers(0, 2 * n_seg), elements=st.integers(0, n_seg - 1)))
    return values, done, rows


def plain_bounds(column: ScoreColumn, values: np.ndarray) -> tuple[float, float]:
    """display_bounds as it was written before (the finite values copied out, then min/max)."""
    array = np.asarray(values, dtype=np.float64).ravel()
    kept = array[np.isfinite(array)]
    return display_bounds(column, kept)


@settings(max_examples=150, deadline=None)
@given(arrays(np.float64, st.integers(0, 300), elements=finite | special), st.sampled_from(COLUMNS))
def test_histogram_counts_equal_numpys(values: np.ndarray, column: ScoreColumn) -> None:
    edges = score_edges(column, values)
    want, _ = np.histogram(values[~np.isnan(values)], bins=edges)
    got = histogram_counts(values, edges)
    assert got.dtype == np.int64 and got.tolist() == want.tolist()


@settings(max_examples=150, deadline=None)
@given(tables(), st.sampled_from(COLUMNS))
def test_score_histograms_equal_a_direct_computation(table, column: ScoreColumn) -> None:
    values, done, rows = table
    if not done.any():
        return
    bounds = column_bounds(column, values, done)
    assert bounds == display_bounds(column, values[:, done])
    keep = scored_rows(rows, done)
    figures = score_histograms(column, values, keep, bounds)
    edges = score_edges(column, np.array(bounds))
    assert figures.edges.tolist() == edges.tolist() and figures.bounds == bounds
    for s in range(values.shape[0]):
        mine = clip_to_bounds(values[s, keep], bounds)
        want, _ = np.histogram(mine[~np.isnan(mine)], bins=edges)
        assert figures.counts[s].tolist() == want.tolist()


@settings(max_examples=150, deadline=None)
@given(tables(), st.sampled_from(COLUMNS))
def test_difference_histogram_equals_a_direct_computation(table, column: ScoreColumn) -> None:
    values, done, rows = table
    if not done.any():
        return
    a, b = 0, values.shape[0] - 1
    bounds = column_bounds(column, values, done)
    keep = scored_rows(rows, done)
    figures = difference_histogram(column, values[a], values[b], keep, bounds)
    deltas = clip_to_bounds(values[a], bounds)[keep] - clip_to_bounds(values[b], bounds)[keep]
    want = difference_bins(column, deltas)
    assert figures.bins.edges.tolist() == want.edges.tolist()
    assert figures.bins.counts.tolist() == want.counts.tolist()
    assert figures.bins.ties == want.ties
    assert figures.ahead == ahead_counts(column, deltas)
    assert figures.rows is keep


@settings(max_examples=200, deadline=None)
@given(tables())
def test_scored_rows_equal_intersect1d(table) -> None:
    _, done, rows = table
    want = np.intersect1d(rows, np.flatnonzero(done))
    assert scored_rows(rows, done).tolist() == want.tolist()
    increasing = np.unique(rows)
    assert scored_rows(increasing, done).tolist() == want.tolist()


@settings(max_examples=200, deadline=None)
@given(
    arrays(
        np.float64,
        st.tuples(st.integers(1, 3), st.integers(0, 50)),
        elements=finite | special | st.sampled_from([np.inf, -np.inf]),
    ),
    st.sampled_from(COLUMNS),
)
def test_display_bounds_of_a_strided_view_equal_the_plain_ones(values, column) -> None:
    # A (segments, systems) block read column-wise, as a table's scores are.
    strided = np.ascontiguousarray(values.T).T
    assert display_bounds(column, strided) == plain_bounds(column, values)


def test_real_sentence_bleu_histograms(real_bleu: np.ndarray) -> None:
    values = real_bleu
    done = np.ones(values.shape[1], np.bool_)
    done[::7] = False  # as if partly scored
    rows = np.flatnonzero(values[0] > values[1])  # a filter: system 1 ahead of system 2
    bounds = column_bounds(BLEU, values, done)
    assert bounds == (0.0, 100.0)
    keep = scored_rows(rows, done)
    figures = score_histograms(BLEU, values, keep, bounds)
    for s in range(values.shape[0]):
        want, _ = np.histogram(np.clip(values[s, keep], 0, 100), bins=np.arange(0, 101, 5.0))
        assert figures.counts[s].tolist() == want.tolist()
        assert figures.counts[s].sum() == len(keep)
    difference = difference_histogram(BLEU, values[0], values[1], keep, bounds)
    assert difference.ahead == (len(keep), 0, 0)  # the filter kept only rows where 1 leads


@pytest.fixture(scope="module")
def real_bleu() -> np.ndarray:
    """Sentence BLEU (sacreBLEU, effective order) of three WMT22 de-en systems, first 400 lines."""
    from sacrebleu.metrics import BLEU as SacreBLEU

    from tests.conftest import DATASETS

    found = [d for d in DATASETS if d.name == "wmt22-de-en"]
    if not found:
        pytest.skip("shared/data is not present")
    data = found[0]
    refs = data.read(data.refs[0])[:400]
    metric = SacreBLEU(effective_order=True)
    rows = []
    for path in data.systems[:3]:
        hyps = data.read(path)[:400]
        rows.append([metric.sentence_score(h, [r]).score for h, r in zip(hyps, refs, strict=True)])
    return np.array(rows, dtype=np.float64)
