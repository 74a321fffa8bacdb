"""The correlation statistics of meta-evaluation, as google-research/mt-metrics-eval's
``stats.py`` computes them: Pearson, Spearman, Kendall's tau-b and the pairwise accuracy of
Kocmi et al. (2021).

Each is computed on the rows of a batch (``(B, N)`` gold and metric rows at once,
:data:`ROW_FUNCTIONS`), so that the resampling and the permutation tests evaluate thousands of
vectors in one call; :func:`pearson`, :func:`spearman`, :func:`kendall_b` and
:func:`pairwise_accuracy` are the one-vector forms. mt-metrics-eval's convention is kept: an
undefined correlation (a constant vector) counts as 0 (:func:`zero_undefined`).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Final

import numpy as np
import numpy.typing as npt

from matchlight.core.analysis.metatypes import AnyArray, BoolArray, FloatArray, IntArray

__all__ = [
    "ROW_FUNCTIONS",
    "kendall_b",
    "pairwise_accuracy",
    "pearson",
    "spearman",
    "vector_statistic",
    "zero_undefined",
]


def _constant(a: FloatArray) -> BoolArray:
    """mt-metrics-eval's ``is_constant_array`` per row."""
    return np.asarray(np.all(a == a[:, :1], axis=1))


def _has_nan(a: FloatArray) -> BoolArray:
    return np.asarray(np.isnan(a).any(axis=1))


# The permutation tests count draws whose difference of two statistics is at least the
# observed one, with an exact ``>=``; with few systems many draws tie the observed difference
# exactly, so every statistic below repeats, operation for operation, the floating-point
# arithmetic of the scipy function mt-metrics-eval calls (scipy 1.17, numpy 2), each row of a
# batch reduced as that function reduces its one vector.


def _pearson_rows(x: FloatArray, y: FloatArray) -> FloatArray:
    """scipy.stats.pearsonr per row, its arithmetic (norms scaled by the largest deviation, the
    dot product of the normalised deviations): NaN where either row is constant."""
    # Contiguous rows: numpy then reduces each row as it reduces a lone vector.
    x, y = np.ascontiguousarray(x), np.ascontiguousarray(y)
    xmean = np.mean(x, axis=-1, keepdims=True)
    ymean = np.mean(y, axis=-1, keepdims=True)
    xm = x - xmean
    ym = y - ymean
    with np.errstate(invalid="ignore", divide="ignore"):
        xmax = np.max(np.abs(xm), axis=-1, keepdims=True)
        ymax = np.max(np.abs(ym), axis=-1, keepdims=True)
        normx = xmax * np.linalg.norm(xm / xmax, ord=2, axis=-1, keepdims=True)
        normy = ymax * np.linalg.norm(ym / ymax, ord=2, axis=-1, keepdims=True)
        # pearsonr's vecdot: per row numpy's dot of two vectors (BLAS), not a plain sum; a
        # (1, n) @ (n, 1) matmul per row is that dot (and numpy 1.26 has no vecdot).
        r = np.matmul((xm / normx)[:, None, :], (ym / normy)[:, :, None])[:, 0, 0]
    r = np.clip(r, -1.0, 1.0)
    r[_constant(x) | _constant(y)] = np.nan
    if x.shape[1] == 2:  # pearsonr returns exactly +-1 for two points
        r = np.round(r)
    return np.asarray(r, dtype=np.float64)


def _average_ranks(a: FloatArray) -> FloatArray:
    """scipy.stats.rankdata (average ranks, from 1) per row."""
    rows, n = a.shape
    order = np.argsort(a, axis=1, kind="stable")
    ordered = np.take_along_axis(a, order, axis=1)
    start = np.ones((rows, n), np.bool_)
    start[:, 1:] = ordered[:, 1:] != ordered[:, :-1]
    run = np.cumsum(start, axis=1) - 1  # run number within the row
    flat = (np.arange(rows)[:, None] * n + run).ravel()
    position = np.broadcast_to(np.arange(n, dtype=np.float64), (rows, n)).ravel()
    first = np.full(rows * n, np.inf)
    np.minimum.at(first, flat, position)
    last = np.full(rows * n, -np.inf)
    np.maximum.at(last, flat, position)
    mean = (first[flat] + last[flat]) / 2.0 + 1.0
    ranks = np.empty((rows, n))
    np.put_along_axis(ranks, order, mean.reshape(rows, n), axis=1)
    return ranks


def _spearman_rows(x: FloatArray, y: FloatArray) -> FloatArray:
    """scipy.stats.spearmanr per row: ``np.corrcoef`` of the average ranks (``np.cov`` scales
    the exact sums of products by the reciprocal of n - 1; the covariance is divided by the
    second variable's standard deviation, then by the first's). NaN where either row is
    constant or has a NaN."""
    n = x.shape[1]
    rx = _average_ranks(x)
    ry = _average_ranks(y)
    dx = rx - rx.mean(axis=1, keepdims=True)  # exact: ranks are halves, their mean is (n+1)/2
    dy = ry - ry.mean(axis=1, keepdims=True)
    scale = np.true_divide(1, n - 1)
    # Sums of products of halves: exact in any order.
    cxx = (dx * dx).sum(axis=1) * scale
    cyy = (dy * dy).sum(axis=1) * scale
    cxy = (dx * dy).sum(axis=1) * scale
    with np.errstate(invalid="ignore", divide="ignore"):
        rho = cxy / np.sqrt(cyy) / np.sqrt(cxx)
    rho = np.clip(rho, -1.0, 1.0)
    rho[_constant(x) | _constant(y) | _has_nan(x) | _has_nan(y)] = np.nan
    return np.asarray(rho, dtype=np.float64)


def _tie_pairs(start: BoolArray) -> IntArray:
    """Per row, the pairs inside runs of equal values; ``start[:, i]`` marks where a run
    begins (a row's first element included)."""
    rows, n = start.shape
    run = np.cumsum(start, axis=1) - 1
    counts = np.bincount((np.arange(rows)[:, None] * n + run).ravel(), minlength=rows * n)
    counts = counts.reshape(rows, n).astype(np.int64)
    return np.asarray((counts * (counts - 1) // 2).sum(axis=1), dtype=np.int64)


def _dense_ranks(a: AnyArray) -> IntArray:
    """0-based dense ranks per row (equal values, equal ranks)."""
    rows, n = a.shape
    order = np.argsort(a, axis=1, kind="stable")
    ordered = np.take_along_axis(a, order, axis=1)
    start = np.ones((rows, n), np.bool_)
    start[:, 1:] = ordered[:, 1:] != ordered[:, :-1]
    ranks = np.empty((rows, n), np.int64)
    np.put_along_axis(ranks, order, np.cumsum(start, axis=1) - 1, axis=1)
    return ranks


def _discordant(keys: IntArray) -> IntArray:
    """Per row of ``keys`` ``(B, n)`` (integers in 0..n-1), the pairs i < j with
    keys[i] > keys[j]: brute force within blocks of 16, then a bottom-up merge sort, every row
    and every merge of a level at once (a merge's count follows from where the stable sort
    puts the right half's elements)."""
    rows, n = keys.shape
    total = np.zeros(rows, np.int64)
    if n < 2:
        return total
    base = 16
    size = max(base, 1 << (n - 1).bit_length())
    dtype = np.int16 if n < 2**15 - 1 else np.int64  # int16 sorts by radix
    a = np.full((rows, size), n, dtype=dtype)  # padding above every key counts nothing
    a[:, :n] = keys
    blocks = a.reshape(rows, -1, base)
    upper = np.triu(np.ones((base, base), np.bool_), 1)
    total += ((blocks[:, :, :, None] > blocks[:, :, None, :]) & upper).sum(axis=(1, 2, 3))
    a = np.sort(blocks, axis=2).reshape(rows, size)
    width = base
    while width < size:
        merging = a.reshape(-1, 2 * width)
        order = np.argsort(merging, axis=1, kind="stable")
        # Right element j (of width) lands at q: q - j left elements are <= it.
        landed = np.where(order >= width, np.arange(2 * width, dtype=np.int64), 0).sum(axis=1)
        greater = width * width + width * (width - 1) // 2 - landed
        total += greater.reshape(rows, -1).sum(axis=1)
        a = np.take_along_axis(merging, order, axis=1).reshape(rows, size)
        width *= 2
    return total


def _kendall_rows(x: FloatArray, y: FloatArray) -> FloatArray:
    """scipy.stats.kendalltau (tau-b) per row, with its integer counts and final arithmetic:
    NaN where every pair is tied on one side or a row has a NaN."""
    rows, n = x.shape
    tot = n * (n - 1) // 2
    order = np.lexsort((y, x), axis=-1)
    xs = np.take_along_axis(x, order, axis=1)
    ys = np.take_along_axis(y, order, axis=1)
    xstart = np.ones((rows, n), np.bool_)
    xstart[:, 1:] = xs[:, 1:] != xs[:, :-1]
    bothstart = xstart.copy()
    bothstart[:, 1:] |= ys[:, 1:] != ys[:, :-1]
    ysorted = np.sort(y, axis=1)
    ystart = np.ones((rows, n), np.bool_)
    ystart[:, 1:] = ysorted[:, 1:] != ysorted[:, :-1]
    xtie = _tie_pairs(xstart)
    ytie = _tie_pairs(ystart)
    ntie = _tie_pairs(bothstart)
    dis = _discordant(np.take_along_axis(_dense_ranks(y), order, axis=1))
    out = np.full(rows, np.nan)
    nan = _has_nan(x) | _has_nan(y)
    for i in range(rows):
        if xtie[i] == tot or ytie[i] == tot or nan[i]:
            continue
        con_minus_dis = tot - int(xtie[i]) - int(ytie[i]) + int(ntie[i]) - 2 * int(dis[i])
        tau = con_minus_dis / np.sqrt(tot - int(xtie[i])) / np.sqrt(tot - int(ytie[i]))
        out[i] = min(1.0, max(-1.0, float(tau)))
    return out


def _accuracy_rows(gold: FloatArray, metric: FloatArray) -> FloatArray:
    """mt-metrics-eval's pairwise accuracy (``stats.Agreement``) per row: the share of system
    pairs whose difference has the same sign (a tie included) for the humans and the metric."""
    n = gold.shape[1]
    upper = np.triu_indices(n, 1)
    sg = np.sign(gold[:, :, None] - gold[:, None, :])[:, upper[0], upper[1]]
    sm = np.sign(metric[:, :, None] - metric[:, None, :])[:, upper[0], upper[1]]
    agree = (sg == sm).sum(axis=1)
    pairs = len(upper[0])
    return np.asarray(agree / pairs if pairs else np.full(gold.shape[0], np.nan))


ROW_FUNCTIONS: Final[dict[str, Callable[[FloatArray, FloatArray], FloatArray]]] = {
    "pearson": _pearson_rows,
    "spearman": _spearman_rows,
    "kendall": _kendall_rows,
    "pairwise_accuracy": _accuracy_rows,
}


def zero_undefined(values: FloatArray) -> FloatArray:
    """mt-metrics-eval's average over one vector: an undefined (NaN) correlation counts as 0."""
    return np.where(np.isnan(values), 0.0, values)


def _as_rows(gold: npt.ArrayLike, metric: npt.ArrayLike) -> tuple[FloatArray, FloatArray]:
    g = np.asarray(gold, dtype=np.float64).ravel()
    m = np.asarray(metric, dtype=np.float64).ravel()
    if g.shape != m.shape:
        raise ValueError(f"{g.size} human scores but {m.size} metric scores")
    keep = ~np.isnan(g)
    if np.isnan(m[keep]).any():
        raise ValueError("a metric score is missing where there is a human score")
    return g[keep][None, :], m[keep][None, :]


def vector_statistic(name: str, gold: npt.ArrayLike, metric: npt.ArrayLike) -> float:
    """The statistic ``name`` (a key of :data:`ROW_FUNCTIONS`) of two vectors, an undefined
    one counted as 0."""
    g, m = _as_rows(gold, metric)
    if g.shape[1] < 2:
        return 0.0
    return float(zero_undefined(ROW_FUNCTIONS[name](g, m))[0])


def pearson(gold: npt.ArrayLike, metric: npt.ArrayLike) -> float:
    """``Correlation.Pearson()`` over one vector (NaN human scores left out; undefined: 0)."""
    return vector_statistic("pearson", gold, metric)


def spearman(gold: npt.ArrayLike, metric: npt.ArrayLike) -> float:
    """``Correlation.Spearman()`` over one vector."""
    return vector_statistic("spearman", gold, metric)


def kendall_b(gold: npt.ArrayLike, metric: npt.ArrayLike) -> float:
    """``Correlation.Kendall()`` (scipy's tau-b) over one vector."""
    return vector_statistic("kendall", gold, metric)


def pairwise_accuracy(gold: npt.ArrayLike, metric: npt.ArrayLike) -> float:
    """mt-metrics-eval's system-level pairwise accuracy (agreeing pairs / pairs)."""
    g, m = _as_rows(gold, metric)
    if g.shape[1] < 2:
        return math.nan
    return float(_accuracy_rows(g, m)[0])
