"""What the displays read from a column's scale: its range on screen, its bins, its differences.

A :class:`~core.metrics.base.ScoreColumn` says which way is better, its natural range (either side
may be unbounded) and its precision. The table, the filters, the charts and the report all need
the same few things from that, so they are made here once:

* :func:`display_bounds`: the range to show, the column's own where it has one, else the
  data's, rounded outward to the column's precision (an MQM penalty has no upper bound);
* :func:`score_edges` and :func:`bin_index`: histogram bins over that range, counted as
  :func:`numpy.histogram` counts them;
* :func:`difference_bins`: the per-segment difference of two systems with zero as a bin edge and
  the exact ties counted apart, each bin knowing which system its differences favour;
* :func:`ahead_counts`: on how many segments each of two systems is better;
* :func:`corpus_decimals`: the precision of a corpus figure (one more than a segment's);
* :func:`worst_first`: the sort order that puts the worst rows first.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from matchlight.core.metrics.base import ScoreColumn

__all__ = [
    "DIFFERENCE_BINS",
    "SCORE_BINS",
    "TARGET_BINS",
    "DifferenceBins",
    "ahead_counts",
    "bin_index",
    "clip_to_bounds",
    "corpus_decimals",
    "difference_bins",
    "display_bounds",
    "nice_step",
    "score_edges",
    "worst_first",
]

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]

#: Bins over a column's whole natural range (0-100 by 5 points, 0-1 by 0.05).
SCORE_BINS = 20
#: Bins per side of zero of a difference over a bounded range (±100 by 5 points).
DIFFERENCE_BINS = 20
#: About this many bins over the data of a column without a natural range.
TARGET_BINS = 30
#: How far past a bound a value may lie and still be taken as on it: sentence BLEU can come out
#: as 100.00000000000004 (a share of the range).
_SLACK = 1e-9


def nice_step(span: float, bins: int) -> float:
    """A bin width of 1, 2, 2.5 or 5 times a power of ten giving about ``bins`` bins."""
    if not math.isfinite(span) or span <= 0 or bins < 1:
        return 1.0
    raw = span / bins
    if not raw > 0.0:  # a span too small to divide (subnormal): one bin
        return span
    power = 10.0 ** math.floor(math.log10(raw))
    for factor in (1.0, 2.0, 2.5, 5.0, 10.0):
        if raw <= factor * power * (1 + 1e-12):
            return factor * power
    return 10.0 * power  # pragma: no cover - the loop always returns


def _finite(values: npt.ArrayLike) -> FloatArray:
    array = np.asarray(values, dtype=np.float64).ravel()
    return array[np.isfinite(array)]


def _extremes(values: npt.ArrayLike) -> tuple[float, float] | None:
    """The least and the largest finite value (None: there is none): one gather of a table's
    strided column, then ``fmin``/``fmax`` (which skip NaN) over it, with no mask or copy of
    the finite values (an infinity takes that slower path)."""
    array = np.ascontiguousarray(values, dtype=np.float64)
    if array.size == 0:
        return None
    least = float(np.fmin.reduce(array, axis=None))
    most = float(np.fmax.reduce(array, axis=None))
    if math.isnan(least):
        return None
    if math.isinf(least) or math.isinf(most):
        finite = _finite(array)
        return (float(finite.min()), float(finite.max())) if finite.size else None
    return least, most


def display_bounds(column: ScoreColumn, values: npt.ArrayLike = ()) -> tuple[float, float]:
    """The range a display of ``column`` spans: its natural bounds, and where it has none (or
    the values reach past one), the finite ``values``' extreme rounded outward to the column's
    precision. Never empty: a column with one value or none spans at least one display step."""
    extremes = _extremes(values)
    step = column.step
    span = (
        column.high - column.low
        if column.low is not None and column.high is not None
        else extremes[1] - extremes[0]
        if extremes is not None
        else 0.0
    )
    slack = _SLACK * max(span, step)
    low, high = column.low, column.high
    if extremes is not None:
        least, most = extremes
        digits = column.decimals
        if low is None or least < low - slack:
            low = round(math.floor(least / step + 1e-9) * step, digits)
        if high is None or most > high + slack:
            high = round(math.ceil(most / step - 1e-9) * step, digits)
    if low is None and high is None:
        low, high = 0.0, 1.0
    elif low is None:
        assert high is not None
        low = min(0.0, high - 1.0) if high > 0 else high - 1.0
    elif high is None:
        high = max(1.0, low + 1.0) if low < 1 else low + 1.0
    if high <= low:
        high = low + step
    return float(low), float(high)


def clip_to_bounds(values: npt.ArrayLike, bounds: tuple[float, float]) -> FloatArray:
    """``values`` clipped to ``bounds`` (NaN kept): what lies a hair past a bound is on it."""
    return np.clip(np.asarray(values, dtype=np.float64), bounds[0], bounds[1])


def score_edges(column: ScoreColumn, values: npt.ArrayLike = ()) -> FloatArray:
    """Histogram edges for ``column``'s values: :data:`SCORE_BINS` bins of a nice width over a
    natural range with both ends (0-100 by 5, 0-1 by 0.05), else about :data:`TARGET_BINS`
    over :func:`display_bounds`, starting at a multiple of the width."""
    low, high = display_bounds(column, values)
    bounded = column.low is not None and column.high is not None
    if bounded and (low, high) == (column.low, column.high):
        step = nice_step(high - low, SCORE_BINS)
        start = low
    else:
        step = nice_step(high - low, TARGET_BINS)
        start = math.floor(low / step + 1e-9) * step
    count = max(1, math.ceil((high - start) / step - 1e-9))
    return start + step * np.arange(count + 1, dtype=np.float64)


def bin_index(values: npt.ArrayLike, edges: npt.ArrayLike) -> IntArray:
    """The bin of each value as :func:`numpy.histogram` counts it (``[e_i, e_i+1)``, the last
    bin closed); -1 for NaN or a value outside the edges."""
    array = np.asarray(values, dtype=np.float64)
    bounds = np.asarray(edges, dtype=np.float64)
    index = np.searchsorted(bounds, array, side="right").astype(np.int64) - 1
    last = len(bounds) - 2
    index[array == bounds[-1]] = last
    index[(index < 0) | (index > last) | np.isnan(array)] = -1
    return index


@dataclass(frozen=True, slots=True, eq=False)
class DifferenceBins:
    """A histogram of per-segment differences A − B with the exact ties apart.

    ``edges`` are symmetric, with zero an edge: the first half of the bins holds the negative
    differences, the second half the positive ones (:func:`bin_index`'s rule); ``counts`` count
    the non-zero differences per bin, ``ties`` the exact zeros. ``favours[i]`` is +1 when the
    differences of bin ``i`` mean A is better (positive ones, or negative ones on a
    lower-is-better column), else -1.
    """

    edges: FloatArray
    counts: IntArray
    ties: int
    favours: IntArray

    @property
    def width(self) -> float:
        return float(self.edges[1] - self.edges[0])

    @property
    def reach(self) -> float:
        return float(self.edges[-1])

    def bin_of(self, deltas: npt.ArrayLike) -> IntArray:
        """The bin of each difference; -1 for a tie, NaN or one outside the edges."""
        array = np.asarray(deltas, dtype=np.float64)
        index = bin_index(array, self.edges)
        index[array == 0] = -1
        return index


def difference_bins(column: ScoreColumn, deltas: npt.ArrayLike) -> DifferenceBins:
    """The histogram of ``deltas`` (A − B per segment, NaN ignored) on ``column``'s scale.

    A column with both bounds reaches ±(high − low) in :data:`DIFFERENCE_BINS` bins a side
    (±100 by 5 points); otherwise the bins fit the largest |difference|, about
    :data:`TARGET_BINS` in all.
    """
    finite = _finite(deltas)
    largest = float(np.abs(finite).max()) if finite.size else 0.0
    if column.low is not None and column.high is not None and column.high > column.low:
        span = column.high - column.low
        step = nice_step(span, DIFFERENCE_BINS)
        reach = max(span, largest)
    else:
        reach = largest if largest > 0 else column.step
        step = nice_step(2 * reach, TARGET_BINS)
    k = max(1, math.ceil(reach / step - 1e-9))
    if step * k < reach:  # the tolerance above met a product rounded down: one bin more
        k += 1
    edges = step * np.arange(-k, k + 1, dtype=np.float64)
    index = bin_index(finite[finite != 0], edges)
    counts = np.bincount(index[index >= 0], minlength=2 * k).astype(np.int64)
    favours = np.where(np.arange(2 * k) >= k, 1, -1).astype(np.int64) * int(column.sign)
    return DifferenceBins(edges, counts, int((finite == 0).sum()), favours)


def ahead_counts(column: ScoreColumn, deltas: npt.ArrayLike) -> tuple[int, int, int]:
    """On how many segments A is better, the two are equal, and B is better, from the
    differences A − B (NaN ignored; equal means exactly equal)."""
    finite = _finite(deltas)
    oriented = column.oriented(finite)
    return int((oriented > 0).sum()), int((oriented == 0).sum()), int((oriented < 0).sum())


def corpus_decimals(column: ScoreColumn) -> int:
    """Decimals of a corpus figure (a mean or a corpus score) of ``column``: one more than a
    segment value's (BLEU's two, as sacreBLEU's corpus scores read in papers; COMET's four)."""
    return column.decimals + 1


def worst_first(column: ScoreColumn) -> bool:
    """Whether sorting ``column`` (or a difference on it) worst first is descending: a
    penalty's worst rows are its highest."""
    return column.better == "lower"
