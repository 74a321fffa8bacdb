"""What the score charts draw, from a score table's arrays: each system's histogram of a column
over chosen rows, and the histogram of two systems' per-segment differences.

Plain numpy (no Qt, no table object), so a chart computes them in a worker thread and its GUI
thread only draws the counts. The scales are :mod:`core.analysis.scales`' (bounds, edges,
difference bins); the counting here is :func:`histogram_counts`: the bins of
:func:`numpy.histogram` with explicit edges, found by a binary search of the edges for each
value instead of that function's sort of the values.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from matchlight.core.analysis.scales import (
    DifferenceBins,
    ahead_counts,
    bin_index,
    clip_to_bounds,
    difference_bins,
    display_bounds,
    score_edges,
)
from matchlight.core.metrics.base import ScoreColumn

__all__ = [
    "DifferenceHistogram",
    "ScoreHistograms",
    "column_bounds",
    "difference_histogram",
    "histogram_counts",
    "score_histograms",
    "scored_rows",
]

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]
BoolArray = npt.NDArray[np.bool_]
Bounds = tuple[float, float]


def histogram_counts(values: npt.ArrayLike, edges: npt.ArrayLike) -> IntArray:
    """``numpy.histogram(values, bins=edges)[0]`` with NaN left out: ``[e_i, e_i+1)``, the last
    bin closed, values outside the edges not counted."""
    index = bin_index(values, edges)
    return np.bincount(index[index >= 0], minlength=len(np.asarray(edges)) - 1).astype(np.int64)


def column_bounds(column: ScoreColumn, values: FloatArray, done: BoolArray) -> Bounds:
    """:func:`~core.analysis.scales.display_bounds` of ``column`` over the scored rows of every
    system: ``values`` is ``(systems, segments)``, ``done`` marks the scored segments."""
    return display_bounds(column, values[:, done])


def scored_rows(rows: npt.ArrayLike, done: BoolArray) -> IntArray:
    """The rows of ``rows`` that are scored, sorted and each once (``np.intersect1d`` of the
    rows and the scored ones, without its sort where ``rows`` are already increasing)."""
    array = np.asarray(rows, dtype=np.int64)
    if array.size > 1 and not bool((array[1:] > array[:-1]).all()):
        array = np.unique(array)
    return array[done[array]]


@dataclass(frozen=True, slots=True, eq=False)
class ScoreHistograms:
    """Each system's histogram of one column over ``rows``: ``counts[s]`` per bin of ``edges``,
    values clipped to ``bounds`` (a hair past a bound counts on it), NaN left out."""

    bounds: Bounds
    edges: FloatArray
    counts: tuple[IntArray, ...]
    rows: IntArray


def score_histograms(
    column: ScoreColumn, values: FloatArray, rows: IntArray, bounds: Bounds
) -> ScoreHistograms:
    """The histograms of ``values`` (``(systems, segments)``, one column) over ``rows``, on
    :func:`~core.analysis.scales.score_edges` of ``bounds``."""
    edges = score_edges(column, np.array(bounds))
    counts = tuple(
        histogram_counts(clip_to_bounds(values[s, rows], bounds), edges)
        for s in range(values.shape[0])
    )
    return ScoreHistograms(bounds, edges, counts, rows)


@dataclass(frozen=True, slots=True, eq=False)
class DifferenceHistogram:
    """The differences A − B over ``rows`` binned (:class:`~core.analysis.scales.DifferenceBins`)
    and on how many rows A is better, they are equal, B is better."""

    bins: DifferenceBins
    ahead: tuple[int, int, int]
    rows: IntArray


def difference_histogram(
    column: ScoreColumn, a: FloatArray, b: FloatArray, rows: IntArray, bounds: Bounds
) -> DifferenceHistogram:
    """The histogram of ``a − b`` (one system's column each, clipped to ``bounds``) over
    ``rows``, NaN left out."""
    deltas = clip_to_bounds(a[rows], bounds) - clip_to_bounds(b[rows], bounds)
    deltas = deltas[~np.isnan(deltas)]
    return DifferenceHistogram(difference_bins(column, deltas), ahead_counts(column, deltas), rows)
