"""core.scoring.pairwise: numpy's pairwise sum, streamed, equals numpy's own bit for bit."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from matchlight.core.scoring.pairwise import PairwiseSum


def _feed(values: np.ndarray, cuts: list[int]) -> PairwiseSum:
    summed = PairwiseSum(len(values), values.shape[1])
    start = 0
    for size in cuts:
        summed.add(values[start : start + size])
        start += size
    summed.add(values[start:])
    return summed


@settings(max_examples=150, deadline=None)
@given(
    n=st.integers(0, 3000),
    width=st.integers(1, 4),
    cuts=st.lists(st.integers(0, 700), max_size=12),
    seed=st.integers(0, 2**32 - 1),
    scale=st.sampled_from([1.0, 100.0, 1e-300, 1e300]),
)
def test_streamed_sums_and_means_are_numpys(
    n: int, width: int, cuts: list[int], seed: int, scale: float
) -> None:
    rng = np.random.default_rng(seed)
    values = rng.random((n, width)) * scale
    if n:
        values[rng.integers(0, n, size=min(n, 3)), 0] = np.nan  # rows without a score
    summed = _feed(values, cuts)
    columns = np.ascontiguousarray(values.T)
    assert np.array_equal(summed.result(), columns.sum(axis=1), equal_nan=True)
    if n:
        assert np.array_equal(summed.mean(), columns.mean(axis=1), equal_nan=True)
        for j in range(width):  # a 1-D column too, as np.mean of one column
            assert np.array_equal(summed.result()[j], np.add.reduce(values[:, j]), equal_nan=True)
    else:
        assert np.isnan(summed.mean()).all()


@pytest.mark.parametrize("n", [127, 128, 129, 1024, 65_536, 1_000_003])
def test_long_columns_in_real_chunks(n: int) -> None:
    """Sizes around numpy's block of 128 and large ones, in chunks of a task's rows."""
    values = np.random.default_rng(n).random((n, 2)) * 100
    summed = _feed(values, [2048] * (n // 2048))
    assert np.array_equal(summed.result(), np.ascontiguousarray(values.T).sum(axis=1))


def test_negative_zero_and_misuse() -> None:
    zeros = np.full((9, 1), -0.0)
    summed = _feed(zeros, [4])
    assert repr(float(summed.result()[0])) == repr(float(np.add.reduce(zeros[:, 0])))
    with pytest.raises(ValueError, match="more than the 9 rows"):
        summed.add(zeros[:1])
    short = PairwiseSum(5, 2)
    short.add(np.ones((2, 2)))
    with pytest.raises(ValueError, match="2 of the 5 rows"):
        short.result()
    with pytest.raises(ValueError, match=r"rows of shape \(k, 2\)"):
        short.add(np.ones((1, 3)))
