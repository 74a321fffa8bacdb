"""A column's scale on screen (core.analysis.scales): bounds, bins, the difference histogram with
its ties apart and its sides by direction, who is ahead, corpus precision, the worst-first sort.
Checked against numpy on generated values (hypothesis) and on real WMT21 MQM penalties."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from matchlight.core.analysis.scales import (
    ahead_counts,
    bin_index,
    corpus_decimals,
    difference_bins,
    display_bounds,
    nice_step,
    score_edges,
    worst_first,
)
from matchlight.core.metrics.base import Scale, ScoreColumn
from tests.scalekit import MQM, mqm_ted

BLEU = ScoreColumn("bleu", "BLEU", "BLEU", "bleu", "sentence BLEU")
COMET = ScoreColumn("comet", "COMET", "COMET", "imported", "COMET").with_scale(
    Scale("higher", 0.0, 1.0, 3)
)
TER = ScoreColumn("ter", "TER", "TER", "ter", "TER").with_scale(Scale("lower", 0.0, None, 1))
COLUMNS = (BLEU, COMET, MQM, TER)

finite = st.floats(-1e4, 1e4, allow_nan=False, allow_infinity=False)
values = arrays(np.float64, st.integers(0, 300), elements=finite | st.just(np.nan))


def test_nice_steps() -> None:
    assert nice_step(100, 20) == 5 and nice_step(1, 20) == 0.05 and nice_step(0.9, 30) == 0.05
    assert nice_step(200, 4) == 50 and nice_step(25, 30) == 1 and nice_step(0, 10) == 1


def test_bounded_columns_keep_their_range_and_bins() -> None:
    # A hair over 100 (sentence BLEU's 100.00000000000004) is on the bound, not past it.
    assert display_bounds(BLEU, [3.0, 100.00000000000004]) == (0.0, 100.0)
    assert score_edges(BLEU, [5.0]).tolist() == np.arange(0, 101, 5.0).tolist()
    edges = score_edges(COMET, [0.4, 0.9])
    assert edges[0] == 0 and edges[-1] == 1 and len(edges) == 21
    np.testing.assert_allclose(np.diff(edges), 0.05)
    # Values past a stated bound widen the range instead of piling up on it.
    assert display_bounds(COMET, [0.2, 1.37]) == (0.0, 1.37)


def test_unbounded_sides_come_from_the_data_at_the_columns_precision() -> None:
    assert display_bounds(MQM, [0.0, 3.1, 25.333]) == (0.0, 25.34)
    assert display_bounds(TER, [12.04, 180.0]) == (0.0, 180.0)
    negated = ScoreColumn("m", "m", "m", "m", "m").with_scale(Scale("higher", None, 0.0, 2))
    assert display_bounds(negated, [-7.555, -1.0]) == (-7.56, 0.0)
    assert display_bounds(MQM, []) == (0.0, 1.0)
    edges = score_edges(MQM, [0.0, 25.0])
    assert edges[0] == 0 and edges[-1] >= 25 and len(edges) - 1 == 25


@settings(max_examples=150, deadline=None)
@given(values)
@example(np.array([120.0, -1.1920929e-07]))  # within the slack below TER's natural 0
def test_bins_count_what_numpy_counts(data: np.ndarray) -> None:
    for column in COLUMNS:
        low, high = display_bounds(column, data)
        assert low < high
        present = data[np.isfinite(data)]
        # A value a hair past a natural bound is taken as on it (a billionth of the span: a
        # sentence BLEU of 100.00000000000004); it is clipped there below.
        span = max(high - low, float(np.ptp(present)) if present.size else 0.0, column.step)
        tolerance = 1e-9 * span + 1e-12
        assert np.all(present >= low - tolerance) and np.all(present <= high + tolerance)
        edges = score_edges(column, data)
        assert edges[0] <= low + 1e-9 and edges[-1] >= high - 1e-9
        clipped = np.clip(present, low, high)
        counts, _ = np.histogram(clipped, bins=edges)
        index = bin_index(clipped, edges)
        assert (index >= 0).all()
        assert np.bincount(index, minlength=len(counts)).tolist() == counts.tolist()


@settings(max_examples=150, deadline=None)
@given(values)
@example(np.array([5e-324]))  # a subnormal difference: nice_step could not take its logarithm
@example(np.array([1e-05]))  # 20 steps of 5e-7 make just under 1e-05
def test_difference_bins_keep_ties_apart_and_sides_by_direction(deltas: np.ndarray) -> None:
    present = deltas[np.isfinite(deltas)]
    for column in COLUMNS:
        bins = difference_bins(column, deltas)
        edges = bins.edges
        k = len(bins.counts) // 2
        assert edges[k] == 0 and np.allclose(edges, -edges[::-1])
        assert edges[-1] >= np.abs(present).max(initial=0)
        nonzero = present[present != 0]
        counts, _ = np.histogram(nonzero, bins=edges)
        assert bins.counts.tolist() == counts.tolist()
        assert bins.ties == int((present == 0).sum())
        assert bins.counts[:k].sum() == (nonzero < 0).sum()
        # A bin favours A when its differences mean A is better on this column.
        assert set(bins.favours[k:]) == {int(column.sign)}
        assert set(bins.favours[:k]) == {-int(column.sign)}
        a, equal, b = ahead_counts(column, deltas)
        favour_a = bins.counts[bins.favours == 1].sum()
        assert (a, equal, b) == (favour_a, bins.ties, len(nonzero) - favour_a)
        assert (bins.bin_of(np.array([0.0, np.nan])) == -1).all()


def test_bounded_differences_reach_the_whole_range() -> None:
    bins = difference_bins(BLEU, np.array([-3.0, 0.0, 0.0, 12.5]))
    assert bins.edges.tolist() == np.arange(-100, 101, 5.0).tolist()
    assert bins.ties == 2 and bins.counts.sum() == 2
    comet = difference_bins(COMET, np.array([0.01, -0.2]))
    assert comet.reach == 1.0 and comet.width == pytest.approx(0.05)


def test_real_mqm_penalties_favour_the_system_with_fewer() -> None:
    """WMT21 TED zh-en expert MQM: a positive Facebook-AI − Online-W is more penalty for
    Facebook-AI, so Online-W is ahead there."""
    data = mqm_ted()
    a, b = data.systems.index("Facebook-AI"), data.systems.index("Online-W")
    deltas = data.penalties[a] - data.penalties[b]
    assert ahead_counts(MQM, deltas) == (
        (deltas < 0).sum(),
        (deltas == 0).sum(),
        (deltas > 0).sum(),
    )
    bins = difference_bins(MQM, deltas)
    k = len(bins.counts) // 2
    assert bins.favours[:k].tolist() == [1] * k  # negative differences: Facebook-AI better
    assert bins.counts[:k].sum() == (deltas < 0).sum() and bins.ties == (deltas == 0).sum()
    assert bins.ties > 100  # many segments with the same penalty (mostly none at all)


def test_corpus_precision_and_the_worst_first_order() -> None:
    assert [corpus_decimals(c) for c in COLUMNS] == [2, 4, 3, 2]
    assert [worst_first(c) for c in COLUMNS] == [False, False, True, True]
