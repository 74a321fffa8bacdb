"""Meta-evaluation: how well metric scores agree with human judgements, computed exactly as
google-research/mt-metrics-eval computes it (``stats.py``, ``pce.py``, ``tau_optimization.py``).

Scores on both sides are oriented so that higher is better (an MQM penalty or TER negated, as
mt-metrics-eval stores MQM). A metric's system-level score is its corpus figure over the rows
(corpus BLEU from summed statistics, not the mean of sentence BLEU); its segment-level scores
are its per-segment values. Human scores are per (system, segment), NaN where a pair was not
judged, or per system only. The statistics, named as in the WMT metrics task:

* system level (over systems): ``pearson``, ``spearman``, ``kendall`` (tau-b), the pairwise
  ``accuracy`` of Kocmi et al. (2021) and the soft pairwise accuracy ``spa`` of WMT24
  (1 - PCE: paired permutation p-values from the segment scores, 1,000 permutations, seed 4);
* segment level: ``pearson`` and ``kendall_b`` over all judged (system, segment) pairs
  ("no grouping"), and ``acc23`` with the optimised tie threshold of Deutsch et al. (2023)
  averaged over items (segments), with every pair considered (sample rate 1.0).

mt-metrics-eval's conventions are kept: an undefined correlation (a constant vector) counts as
0, pairs without a human score are left out, a system with no human score at all is left out.

Significance of a difference between two metrics is mt-metrics-eval's PERM-BOTH permutation
test (``PermutationSigDiff``; for acc23 ``PairwisePermutationSigDiff``, as WMT23/24), with its
random draws: numpy's legacy ``binomial(1, 0.5, ...)`` stream, which mt-metrics-eval takes from
the global ``np.random`` state and we take from ``np.random.RandomState(seed)``, the same stream
(the pairs of metrics are tested in mt-metrics-eval's order, sharing it). Draws are made a block
at a time, exactly as many as mt-metrics-eval draws, and every block is evaluated at once.
Metrics are then ranked into significance clusters as ``data.AssignRanks`` does.

Confidence intervals resample segments (items, with every system's scores on them) with
replacement, ``np.random.default_rng(seed).integers(0, n, (samples, n))`` as sacreBLEU draws
them; each statistic is recomputed on each resample (the system-level metric score is the
corpus figure of the resampled rows) and the interval is the central percentile range.
mt-metrics-eval has no confidence interval of its own: a resample's value is the oracle's
statistic on the resampled data, which the tests check resample by resample.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from matchlight.core.analysis.compare import row_index
from matchlight.core.analysis.significance import DEFAULT_SEED, table_statistics
from matchlight.core.scoring.results import ScoreTable

__all__ = [
    "SEGMENT_STATISTICS",
    "SYSTEM_STATISTICS",
    "Estimate",
    "HumanColumn",
    "MetaEvalResult",
    "MetaEvalSettings",
    "MetricColumn",
    "MetricMetaEval",
    "Ranking",
    "acc23_item",
    "assign_ranks",
    "human_from_table",
    "kendall_b",
    "metaevaluate",
    "metaevaluate_table",
    "metric_columns",
    "pairwise_accuracy",
    "pairwise_p_values",
    "pearson",
    "resample_counts",
    "soft_pairwise_accuracy",
    "spearman",
]

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]
BoolArray = npt.NDArray[np.bool_]
AnyArray = npt.NDArray[Any]
ScoreFunction = Callable[[AnyArray], AnyArray]

#: The statistics per level, in the order tables and JSON show them.
SYSTEM_STATISTICS: Final[tuple[str, ...]] = (
    "pearson",
    "spearman",
    "kendall",
    "pairwise_accuracy",
    "spa",
)
SEGMENT_STATISTICS: Final[tuple[str, ...]] = ("pearson", "kendall_b", "acc23_item")

#: WMT24's soft pairwise accuracy: permutations and seed of ``pce.compute_pairwise_p_values``.
PCE_PERMUTATIONS: Final = 1000
PCE_SEED: Final = 4


# -- inputs and results ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True, eq=False)
class MetricColumn:
    """One metric to meta-evaluate, for the systems of a comparison.

    ``segments`` ``(S, n)`` are its per-segment values; ``stats`` ``(S, n, K)`` the additive
    statistics of its corpus figure and ``score`` maps summed statistics ``(m, K)`` to figures
    (:func:`~matchlight.core.analysis.significance.table_statistics`). ``sign`` is +1 when higher
    is better and -1 when lower is (both sides are turned by it).
    """

    name: str
    segments: FloatArray
    stats: AnyArray
    score: ScoreFunction
    sign: float = 1.0


@dataclass(frozen=True, slots=True, eq=False)
class HumanColumn:
    """Human judgements for the systems of a comparison, higher is better (an MQM penalty is
    negated before it gets here): ``segments`` ``(S, n)`` with NaN where a pair was not judged,
    and/or ``systems`` ``(S,)`` judged at the system level (NaN: not judged). Without
    ``systems``, a system's score is the mean of its judged segments among the rows."""

    name: str
    segments: FloatArray | None = None
    systems: FloatArray | None = None

    def __post_init__(self) -> None:
        if self.segments is None and self.systems is None:
            raise ValueError(f"{self.name}: human scores need segment or system scores")


@dataclass(frozen=True, slots=True)
class MetaEvalSettings:
    """How a meta-evaluation runs.

    ``confidence_samples`` resamples of the segments for the intervals (0: none) at level
    ``confidence``; ``permutations`` draws of the permutation test between metrics (0: no test;
    mt-metrics-eval's ``k``), with its early stopping every ``block_size`` draws when the
    p-value is below ``early_min`` or above ``early_max`` (the WMT tasks' settings,
    ``tasks.Task``: 100, 0.02, 0.5); ``p_threshold`` for the clusters.
    """

    confidence_samples: int = 1000
    confidence: float = 0.95
    permutations: int = 1000
    block_size: int = 100
    early_min: float = 0.02
    early_max: float = 0.5
    p_threshold: float = 0.05
    seed: int = DEFAULT_SEED

    def __post_init__(self) -> None:
        for name in ("confidence_samples", "permutations"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise ValueError(f"{name} must be a whole number >= 0, not {value!r}")
        if isinstance(self.block_size, bool) or self.block_size < 1:
            raise ValueError(f"block_size must be at least 1, not {self.block_size!r}")
        if not 0.0 < self.confidence < 1.0:
            raise ValueError(f"confidence must be between 0 and 1, not {self.confidence!r}")
        if self.seed < 0:
            raise ValueError(f"seed must be >= 0, not {self.seed}")


@dataclass(frozen=True, slots=True)
class Estimate:
    """A statistic's value and, when resampled, its confidence interval ``low``..``high``."""

    value: float
    low: float | None = None
    high: float | None = None


@dataclass(frozen=True, slots=True)
class MetricMetaEval:
    """One metric's statistics: ``system[name]`` and ``segment[name]`` (None: not computable
    from the human scores given, e.g. no segment-level judgements), and the acc23 threshold."""

    name: str
    system: Mapping[str, Estimate | None]
    segment: Mapping[str, Estimate | None]
    acc23_threshold: float | None


@dataclass(frozen=True, slots=True)
class Ranking:
    """Metrics ranked on one statistic (``level`` ``system``/``segment``) into significance
    clusters, as the WMT metrics task does: ``names`` by decreasing value (ties by name),
    ``clusters[i]`` the rank of metric i's cluster, ``p_values[i][j]`` (j > i) the p-value
    that metric j is at least as good as metric i."""

    level: str
    statistic: str
    names: tuple[str, ...]
    values: tuple[float, ...]
    clusters: tuple[int, ...]
    p_values: tuple[tuple[float | None, ...], ...]


@dataclass(frozen=True, slots=True)
class MetaEvalResult:
    """A meta-evaluation: which ``systems`` and rows it used, each metric's statistics, and
    (with permutation tests) the rankings into significance clusters."""

    human: str
    systems: tuple[str, ...]
    n_rows: int
    n_judged: int
    metrics: tuple[MetricMetaEval, ...]
    rankings: tuple[Ranking, ...]
    settings: MetaEvalSettings = field(default_factory=MetaEvalSettings)

    def metric(self, name: str) -> MetricMetaEval:
        for m in self.metrics:
            if m.name == name:
                return m
        raise KeyError(f"no metric {name!r} among {[m.name for m in self.metrics]}")

    def ranking(self, level: str, statistic: str) -> Ranking | None:
        for r in self.rankings:
            if r.level == level and r.statistic == statistic:
                return r
        return None


# -- correlations on rows of a batch ---------------------------------------------------------------


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


_ROW_FUNCTIONS: Final[dict[str, Callable[[FloatArray, FloatArray], FloatArray]]] = {
    "pearson": _pearson_rows,
    "spearman": _spearman_rows,
    "kendall": _kendall_rows,
    "pairwise_accuracy": _accuracy_rows,
}


def _zero_undefined(values: FloatArray) -> FloatArray:
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


def _vector_statistic(name: str, gold: npt.ArrayLike, metric: npt.ArrayLike) -> float:
    g, m = _as_rows(gold, metric)
    if g.shape[1] < 2:
        return 0.0
    return float(_zero_undefined(_ROW_FUNCTIONS[name](g, m))[0])


def pearson(gold: npt.ArrayLike, metric: npt.ArrayLike) -> float:
    """``Correlation.Pearson()`` over one vector (NaN human scores left out; undefined: 0)."""
    return _vector_statistic("pearson", gold, metric)


def spearman(gold: npt.ArrayLike, metric: npt.ArrayLike) -> float:
    """``Correlation.Spearman()`` over one vector."""
    return _vector_statistic("spearman", gold, metric)


def kendall_b(gold: npt.ArrayLike, metric: npt.ArrayLike) -> float:
    """``Correlation.Kendall()`` (scipy's tau-b) over one vector."""
    return _vector_statistic("kendall", gold, metric)


def pairwise_accuracy(gold: npt.ArrayLike, metric: npt.ArrayLike) -> float:
    """mt-metrics-eval's system-level pairwise accuracy (agreeing pairs / pairs)."""
    g, m = _as_rows(gold, metric)
    if g.shape[1] < 2:
        return math.nan
    return float(_accuracy_rows(g, m)[0])


# -- acc23 with the optimised tie threshold --------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Acc23Pairs:
    """Every judged pair of systems within each item, sorted by metric difference, with what
    turning it into a metric tie changes in its item's acc23."""

    item: IntArray  # (P,) item of each pair, in threshold order
    change: FloatArray  # (P,) change of its item's acc23 when tied
    ends: IntArray  # index of the last pair of each distinct difference
    thresholds: FloatArray  # the distinct differences
    base: FloatArray  # (items,) each item's acc23 with no pair tied; NaN: item has no pair
    valid: BoolArray  # (items,) items with a pair


def _acc23_pairs(gold: FloatArray, metric: FloatArray) -> _Acc23Pairs:
    """``gold``/``metric`` ``(S, items)``; pairs within a column whose human scores exist."""
    s, items = gold.shape
    a, b = np.triu_indices(s, 1)
    judged = ~np.isnan(gold[a]) & ~np.isnan(gold[b])  # (pairs of systems, items)
    h = gold[a] - gold[b]
    m = metric[a] - metric[b]
    item = np.broadcast_to(np.arange(items), h.shape)[judged]
    h, m = h[judged], m[judged]
    counts = np.bincount(item, minlength=items)
    valid = counts > 0
    concordant = ((h > 0) & (m > 0)) | ((h < 0) & (m < 0))
    both = (h == 0) & (m == 0)
    numerator = np.bincount(item, weights=(concordant | both).astype(np.float64), minlength=items)
    with np.errstate(invalid="ignore", divide="ignore"):
        base = numerator / counts
    change = np.where(h == 0, (~both).astype(np.float64), -concordant.astype(np.float64))
    change = change / counts[item]
    diff = np.abs(m)
    order = np.argsort(diff, kind="stable")
    diff = diff[order]
    ends = np.flatnonzero(np.r_[diff[1:] != diff[:-1], True]) if diff.size else np.zeros(0, int)
    return _Acc23Pairs(
        item[order].astype(np.int64),
        change[order],
        ends.astype(np.int64),
        diff[ends],
        base,
        valid,
    )


def _acc23_best(pairs: _Acc23Pairs, weights: FloatArray) -> tuple[FloatArray, FloatArray]:
    """The optimised acc23 (and its threshold) for item ``weights`` ``(B, items)`` (how often
    each item is drawn; ones for the data as it is): ``tau_optimization``'s search."""
    w = weights * pairs.valid
    rows = w.sum(axis=1)
    start = (w * np.where(pairs.valid, pairs.base, 0.0)).sum(axis=1)
    if pairs.change.size:
        steps = np.empty((w.shape[0], pairs.ends.size))
        for first in range(0, w.shape[0], 16):
            part = w[first : first + 16]
            steps[first : first + 16] = np.cumsum(part[:, pairs.item] * pairs.change, axis=1)[
                :, pairs.ends
            ]
        totals = start[:, None] + steps
        thresholds = pairs.thresholds
        if thresholds[0] != 0.0:  # threshold 0 first: no tie added
            totals = np.hstack([start[:, None], totals])
            thresholds = np.r_[0.0, thresholds]
    else:
        totals, thresholds = start[:, None], np.zeros(1)
    with np.errstate(invalid="ignore", divide="ignore"):
        taus = totals / rows[:, None]
    best = np.argmax(np.where(np.isnan(taus), -np.inf, taus), axis=1)
    value = taus[np.arange(len(best)), best]
    return value, thresholds[best]


def acc23_item(gold: npt.ArrayLike, metric: npt.ArrayLike) -> tuple[float, float]:
    """``KendallWithTiesOpt(variant='acc23', average_by='item', sample_rate=1.0)`` on ``(S,
    items)`` matrices: the best item-averaged acc23 over tie thresholds, and the threshold.

    The search runs pair by pair with ``tau_optimization``'s running sum, so that where two
    thresholds tie up to rounding the same one wins (the permutation test uses it)."""
    g = np.asarray(gold, dtype=np.float64)
    m = np.asarray(metric, dtype=np.float64)
    pairs = _acc23_pairs(g, m)
    if not pairs.valid.any():
        return math.nan, 0.0
    items = np.flatnonzero(pairs.valid)
    n_pairs = {int(i): 0 for i in items}
    agree = dict.fromkeys(n_pairs, 0)
    found: list[tuple[float, int, int]] = []  # (difference, item, agreement change)
    for item in items.tolist():
        keep = np.flatnonzero(~np.isnan(g[:, item]))
        h, x = g[keep, item].tolist(), m[keep, item].tolist()
        for i in range(len(keep)):
            for j in range(i + 1, len(keep)):
                concordant = (h[i] > h[j] and x[i] > x[j]) or (h[i] < h[j] and x[i] < x[j])
                both = h[i] == h[j] and x[i] == x[j]
                agree[item] += int(concordant or both)
                n_pairs[item] += 1
                change = (0 if both else 1) if h[i] == h[j] else -int(concordant)
                found.append((abs(x[i] - x[j]), item, change))
    rows = len(n_pairs)
    total = sum(agree[r] / n_pairs[r] for r in n_pairs)
    thresholds, taus = [0.0], [total / rows]
    found.sort(key=lambda p: p[0])
    for diff, item, change in found:
        total -= agree[item] / n_pairs[item]
        agree[item] += change
        total += agree[item] / n_pairs[item]
        if thresholds[-1] == diff:
            taus[-1] = total / rows
        else:
            thresholds.append(diff)
            taus.append(total / rows)
    best = int(np.nanargmax(taus))
    return float(taus[best]), float(thresholds[best])


# -- soft pairwise accuracy (WMT24) ----------------------------------------------------------------


def _pce_signs(n_segments: int, permutations: int = PCE_PERMUTATIONS) -> npt.NDArray[np.float32]:
    """pce.compute_pairwise_p_values' matrix of -1/+1 (float32, seed 4)."""
    rng = np.random.default_rng(PCE_SEED)
    signs = rng.random(size=(permutations, n_segments), dtype=np.float32)
    np.rint(signs, out=signs, casting="same_kind")
    signs *= 2.0
    signs -= 1.0
    return signs


def _p_values_batch(seg: AnyArray, signs: npt.NDArray[np.float32]) -> FloatArray:
    """p-values ``(B, S, S)`` (upper triangle; NaN elsewhere) of ``seg`` ``(B, S, n)``."""
    seg32 = np.ascontiguousarray(seg, dtype=np.float32)
    batch, s, _ = seg32.shape
    sys_scores = np.sum(seg32, axis=2)
    # One 2-D product for the whole batch (numpy's batched matmul of a broadcast operand does
    # not reach BLAS); each column is summed as pce's own (P, n) @ (n, S) product sums it.
    flat = np.matmul(signs, seg32.reshape(batch * s, -1).T)  # (P, B * S)
    partial = flat.reshape(signs.shape[0], batch, s).transpose(1, 0, 2)  # (B, P, S)
    out = np.full((batch, s, s), np.nan)
    a, b = np.triu_indices(s, 1)
    null = partial[:, :, a] - partial[:, :, b]  # (B, P, pairs)
    test = (sys_scores[:, a] - sys_scores[:, b])[:, None, :]
    out[:, a, b] = np.sum(null >= test, axis=1) / signs.shape[0]
    return out


def pairwise_p_values(seg_scores: npt.ArrayLike) -> FloatArray:
    """``pce.compute_pairwise_p_values`` of ``(S, n)`` segment scores (1,000 permutations, seed 4):
    ``[i, j]`` (i < j) is the p-value for "system i is better than system j"."""
    seg = np.asarray(seg_scores, dtype=np.float64)
    return _p_values_batch(seg[None], _pce_signs(seg.shape[1]))[0]


def _one_minus_pce(gold_p: FloatArray, metric_p: FloatArray) -> FloatArray:
    """pce.compute_one_minus_pce per batch row, ``(B, S, S)`` each."""
    s = gold_p.shape[1]
    a, b = np.triu_indices(s, 1)
    # Each row contiguous: numpy then sums it pairwise, as pce's np.mean sums its one vector.
    errors = np.ascontiguousarray(np.abs(gold_p - metric_p)[:, a, b])
    return np.asarray(1.0 - np.mean(errors, axis=1))


def soft_pairwise_accuracy(gold_segments: npt.ArrayLike, metric_segments: npt.ArrayLike) -> float:
    """``stats.PairwiseConfidenceError`` (WMT24's soft pairwise accuracy, 1 - PCE) of ``(S, n)``
    human and metric segment scores, every pair judged."""
    g = np.asarray(gold_segments, dtype=np.float64)
    m = np.asarray(metric_segments, dtype=np.float64)
    if np.isnan(g).any():
        raise ValueError("soft pairwise accuracy needs a human score for every pair")
    signs = _pce_signs(g.shape[1])
    return float(
        _one_minus_pce(_p_values_batch(g[None], signs), _p_values_batch(m[None], signs))[0]
    )


# -- resampling ------------------------------------------------------------------------------------


def resample_counts(n: int, samples: int, seed: int) -> FloatArray:
    """How often each of ``n`` rows is drawn in each of ``samples`` resamples ``(samples, n)``:
    the rows of ``np.random.default_rng(seed).integers(0, n, (samples, n))`` (sacreBLEU's
    bootstrap draws), counted."""
    rng = np.random.default_rng(seed)
    counts = np.zeros((samples, n))
    for start in range(0, samples, 256):
        stop = min(samples, start + 256)
        idx = rng.integers(0, n, size=(stop - start, n), dtype=np.uint32)
        for r in range(stop - start):
            counts[start + r] = np.bincount(idx[r], minlength=n)
    return counts


def resample_indices(n: int, samples: int, seed: int) -> npt.NDArray[np.uint32]:
    """The drawn rows behind :func:`resample_counts`, ``(samples, n)``."""
    return np.random.default_rng(seed).integers(0, n, size=(samples, n), dtype=np.uint32)


def _interval(values: FloatArray, confidence: float) -> tuple[float | None, float | None]:
    finite = values[np.isfinite(values)]
    if finite.size == 0:
        return None, None
    tail = (1.0 - confidence) / 2.0 * 100.0
    low, high = np.percentile(finite, [tail, 100.0 - tail])
    return float(low), float(high)


# -- the data of one run ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Prepared:
    systems: tuple[int, ...]  # comparison systems used
    rows: IntArray
    human_sys: FloatArray  # (S,) oriented
    human_seg: FloatArray | None  # (S, n) oriented, NaN where not judged
    metric_sys: dict[str, FloatArray]  # (S,) oriented corpus figures
    metric_seg: dict[str, FloatArray]  # (S, n) oriented
    stats: dict[str, AnyArray]  # (S, n, K) on the rows
    scores: dict[str, ScoreFunction]
    signs: dict[str, float]


def _corpus(stats: AnyArray, score: ScoreFunction, sign: float) -> FloatArray:
    sums = np.ascontiguousarray(np.swapaxes(stats, 1, 2)).sum(axis=2)
    return sign * np.asarray(score(sums), dtype=np.float64)


def _prepare(
    metrics: Sequence[MetricColumn],
    human: HumanColumn,
    rows: npt.ArrayLike | None,
    names: Sequence[str],
) -> _Prepared:
    if not metrics:
        raise ValueError("name at least one metric to meta-evaluate")
    seen = [m.name for m in metrics]
    if len(set(seen)) != len(seen):
        raise ValueError(f"two metrics share a name: {seen}")
    n_sys, n_rows = metrics[0].segments.shape
    for m in metrics:
        if m.segments.shape != (n_sys, n_rows) or m.stats.shape[:2] != (n_sys, n_rows):
            raise ValueError(f"{m.name}: scores for {m.segments.shape}, expected {(n_sys, n_rows)}")
    if len(names) != n_sys:
        raise ValueError(f"{len(names)} system names for {n_sys} systems")
    chosen = row_index(rows, n_rows)
    if chosen.size == 0:
        raise ValueError("no rows are selected")
    seg = None
    if human.segments is not None:
        if human.segments.shape != (n_sys, n_rows):
            raise ValueError(
                f"{human.name}: human scores for {human.segments.shape}, "
                f"the metrics for {(n_sys, n_rows)}"
            )
        seg = np.asarray(human.segments, dtype=np.float64)[:, chosen]
    if human.systems is not None:
        if human.systems.shape != (n_sys,):
            raise ValueError(
                f"{human.name}: {human.systems.shape[0]} system scores, {n_sys} systems"
            )
        sys_scores = np.asarray(human.systems, dtype=np.float64)
    else:
        assert seg is not None
        judged = ~np.isnan(seg)
        with np.errstate(invalid="ignore", divide="ignore"):
            sums = np.where(judged, seg, 0.0).sum(axis=1)
            sys_scores = sums / judged.sum(axis=1)
    keep = tuple(int(s) for s in np.flatnonzero(~np.isnan(sys_scores)))
    if len(keep) < 2:
        raise ValueError(
            f"{human.name}: at least two systems need human scores on the selected rows; "
            f"{len(keep)} have"
        )
    index = np.asarray(keep)
    if seg is not None:
        seg = seg[index]
    metric_sys: dict[str, FloatArray] = {}
    metric_seg: dict[str, FloatArray] = {}
    stats: dict[str, AnyArray] = {}
    for m in metrics:
        values = m.sign * np.asarray(m.segments, dtype=np.float64)[index][:, chosen]
        if seg is not None and np.isnan(values[~np.isnan(seg)]).any():
            raise ValueError(f"{m.name}: a segment score is missing where humans judged the pair")
        metric_seg[m.name] = values
        stats[m.name] = np.asarray(m.stats)[index][:, chosen]
        metric_sys[m.name] = _corpus(stats[m.name], m.score, m.sign)
    return _Prepared(
        keep,
        chosen,
        sys_scores[index],
        seg,
        metric_sys,
        metric_seg,
        stats,
        {m.name: m.score for m in metrics},
        {m.name: m.sign for m in metrics},
    )


# -- point values and intervals --------------------------------------------------------------------


def _system_value(statistic: str, data: _Prepared, name: str) -> float | None:
    if statistic == "spa":
        if data.human_seg is None or np.isnan(data.human_seg).any():
            return None
        return soft_pairwise_accuracy(data.human_seg, data.metric_seg[name])
    if statistic == "pairwise_accuracy":
        return pairwise_accuracy(data.human_sys, data.metric_sys[name])
    return _vector_statistic(statistic, data.human_sys, data.metric_sys[name])


def _segment_value(statistic: str, data: _Prepared, name: str) -> tuple[float, float | None]:
    assert data.human_seg is not None
    if statistic == "acc23_item":
        return acc23_item(data.human_seg, data.metric_seg[name])
    key = "kendall" if statistic == "kendall_b" else statistic
    return _vector_statistic(key, data.human_seg, data.metric_seg[name]), None


def _resampled_figures(
    data: _Prepared, name: str, indices: AnyArray, cache: dict[str, Any]
) -> tuple[FloatArray, FloatArray]:
    """The humans' and the metric's system scores ``(B, S)`` on every resample, each computed
    as :func:`_prepare` computes them, from the drawn rows in the order drawn: the same sums in
    the same order, so that systems tied on a resample's data stay tied (a rank statistic
    turns on it)."""
    assert data.human_seg is not None
    b, step = len(indices), 16
    gold = cache.get("system figures of the humans")
    if gold is None:
        judged = ~np.isnan(data.human_seg)
        values = np.where(judged, data.human_seg, 0.0)
        gold = np.empty((b, values.shape[0]))
        for start in range(0, b, step):
            idx = indices[start : start + step].astype(np.intp)
            with np.errstate(invalid="ignore", divide="ignore"):
                part = values[:, idx].sum(axis=2) / judged[:, idx].sum(axis=2)  # (S, b)
            gold[start : start + len(idx)] = part.T
        cache["system figures of the humans"] = gold
    key = f"system figures of {name}"
    metric = cache.get(key)
    if metric is None:
        stats = np.ascontiguousarray(np.swapaxes(data.stats[name], 1, 2))  # (S, K, n) as _corpus
        s, k, _ = stats.shape
        metric = np.empty((b, s))
        for start in range(0, b, step):
            idx = indices[start : start + step].astype(np.intp)
            sums = stats[:, :, idx].sum(axis=3)  # (S, K, b)
            rows = np.ascontiguousarray(sums.transpose(2, 0, 1)).reshape(-1, k)
            figures = np.asarray(data.scores[name](rows), dtype=np.float64)
            metric[start : start + len(idx)] = data.signs[name] * figures.reshape(-1, s)
        cache[key] = metric
    return np.asarray(gold), np.asarray(metric)


def _system_replicates(
    statistic: str,
    data: _Prepared,
    name: str,
    indices: AnyArray,
    cache: dict[str, Any],
) -> FloatArray:
    """The system-level statistic on every resample of the rows."""
    assert data.human_seg is not None
    seg = data.human_seg
    if statistic == "spa":
        signs = _pce_signs(seg.shape[1])
        metric = data.metric_seg[name]
        out = np.empty(len(indices))
        human_p: list[FloatArray] = cache.setdefault("spa human", [])
        for n_chunk, start in enumerate(range(0, len(indices), 32)):
            idx = indices[start : start + 32].astype(np.intp)
            if n_chunk == len(human_p):  # the humans' p-values, the same for every metric
                human_p.append(_p_values_batch(seg[:, idx].transpose(1, 0, 2), signs))
            m = _p_values_batch(metric[:, idx].transpose(1, 0, 2), signs)
            out[start : start + len(idx)] = _one_minus_pce(human_p[n_chunk], m)
        return out
    gold, metric = _resampled_figures(data, name, indices, cache)
    out = np.full(len(indices), np.nan)
    function = _ROW_FUNCTIONS[statistic]
    complete = ~np.isnan(gold).any(axis=1)
    if complete.any():
        values = function(gold[complete], metric[complete])
        out[complete] = values if statistic == "pairwise_accuracy" else _zero_undefined(values)
    for r in np.flatnonzero(~complete):
        keep = ~np.isnan(gold[r])
        if keep.sum() >= 2:
            value = function(gold[r, keep][None], metric[r, keep][None])
            out[r] = value[0] if statistic == "pairwise_accuracy" else _zero_undefined(value)[0]
    return out


def _pair_categories(gold: FloatArray, metric: FloatArray) -> FloatArray:
    """``(5, n, n)``: between the judged points of item j and those of item l, the pairs that
    are concordant, discordant, tied in the metric only, in the humans only, in both (pairs of
    a point with itself left out; within an item each pair counts twice)."""
    s, n = gold.shape
    judged = ~np.isnan(gold)
    g = np.where(judged, gold, 0.0)
    valid = judged.astype(np.int8)
    out = np.zeros((5, n, n))
    step = max(1, 2_000_000 // max(1, s * s * n))
    for first in range(0, n, step):
        last = min(n, first + step)
        both_valid = valid[:, first:last, None, None] * valid[None, None, :, :]  # (s, q, s, n)
        sg = np.sign(g[:, first:last, None, None] - g[None, None, :, :]).astype(np.int8)
        sm = np.sign(metric[:, first:last, None, None] - metric[None, None, :, :]).astype(np.int8)
        product = sg * sm * both_valid
        tie_g = (sg == 0) * both_valid
        tie_m = (sm == 0) * both_valid
        signed = product.sum(axis=(0, 2), dtype=np.int64)  # concordant - discordant
        untied = np.abs(product).sum(axis=(0, 2), dtype=np.int64)  # concordant + discordant
        both = (tie_g * tie_m).sum(axis=(0, 2), dtype=np.int64)
        out[0, first:last] = (untied + signed) // 2
        out[1, first:last] = (untied - signed) // 2
        out[2, first:last] = tie_m.sum(axis=(0, 2), dtype=np.int64) - both
        out[3, first:last] = tie_g.sum(axis=(0, 2), dtype=np.int64) - both
        out[4, first:last] = both
    out[4][np.diag_indices(n)] -= judged.sum(axis=0)  # a point paired with itself
    return out


def _segment_replicates(
    statistic: str, data: _Prepared, name: str, counts: FloatArray, cache: dict[str, Any]
) -> FloatArray:
    """The segment-level statistic on every resample of the items."""
    assert data.human_seg is not None
    gold, metric = data.human_seg, data.metric_seg[name]
    judged = ~np.isnan(gold)
    if statistic == "acc23_item":
        return _acc23_best(_acc23_pairs(gold, metric), counts)[0]
    if statistic == "pearson":
        g = np.where(judged, gold, 0.0)
        gm = g.sum() / judged.sum()
        mm = np.where(judged, metric, 0.0).sum() / judged.sum()
        dg = np.where(judged, gold - gm, 0.0)
        dm = np.where(judged, metric - mm, 0.0)
        per = np.stack(
            [
                judged.sum(axis=0),
                dg.sum(axis=0),
                dm.sum(axis=0),
                (dg * dg).sum(axis=0),
                (dm * dm).sum(axis=0),
                (dg * dm).sum(axis=0),
            ],
            axis=1,
        )
        n, sg, sm, sgg, smm, sgm = (counts @ per).T
        with np.errstate(invalid="ignore", divide="ignore"):
            cov = sgm - sg * sm / n
            vg = sgg - sg * sg / n
            vm = smm - sm * sm / n
            r = np.clip(cov / np.sqrt(vg * vm), -1.0, 1.0)
        # A constant side makes the correlation undefined: 0, as mt-metrics-eval averages it.
        drawn = counts > 0
        constant = np.zeros(len(counts), np.bool_)
        for side in (gold, metric):
            high = np.where(judged, side, -np.inf).max(axis=0)
            low = np.where(judged, side, np.inf).min(axis=0)
            top = np.where(drawn, high, -np.inf).max(axis=1)
            bottom = np.where(drawn, low, np.inf).min(axis=1)
            constant |= top == bottom
        return np.where(constant, 0.0, r)
    cats = cache.get(name)
    if cats is None:
        cats = cache[name] = _pair_categories(gold, metric)
    points = judged.sum(axis=0).astype(np.float64)
    q = np.stack([((counts @ cats[c]) * counts).sum(axis=1) for c in range(5)]) / 2.0
    q[4] += (counts * (counts - 1) / 2.0) @ points  # the same point in two copies of an item
    con, dis, xonly, yonly, both = q
    size = counts @ points
    tot = size * (size - 1) / 2.0
    xtie, ytie = xonly + both, yonly + both
    with np.errstate(invalid="ignore", divide="ignore"):
        tau = (con - dis) / np.sqrt(tot - xtie) / np.sqrt(tot - ytie)
    tau = np.clip(tau, -1.0, 1.0)
    return np.where((xtie == tot) | (ytie == tot), 0.0, tau)


# -- permutation tests between metrics -------------------------------------------------------------


def _zscore(values: FloatArray) -> FloatArray:
    """scipy.stats.zscore of a vector, its arithmetic: NaN throughout when the standard
    deviation is not above the mean's rounding (a constant vector)."""
    mean = np.mean(values, keepdims=True)
    centred = values - mean
    std = np.mean(centred * centred, keepdims=True) ** 0.5
    with np.errstate(invalid="ignore", divide="ignore"):
        z = centred / std
    if std[0] <= abs(np.finfo(np.float64).eps * mean[0]):
        z[:] = np.nan
    return np.asarray(z)


def _hybrids(w: IntArray, z1: FloatArray, z2: FloatArray) -> tuple[FloatArray, FloatArray]:
    """PERM-BOTH's swapped score vectors for 0/1 draws ``w`` ``(B, N)``, as mt-metrics-eval
    mixes them (``w * z1 + (1 - w) * z2``: a NaN anywhere in a vector reaches every row)."""
    v = 1 - w
    return w * z1 + v * z2, v * z1 + w * z2


def _permutation_p(
    rng: np.random.RandomState,
    batch: Callable[[FloatArray], FloatArray],
    scores1: FloatArray,
    scores2: FloatArray,
    settings: MetaEvalSettings,
) -> float:
    """``stats.PermutationSigDiff`` of flat score vectors (z-scored inside, as there): the
    p-value that metric 2 correlates better than metric 1. ``batch`` maps metric score rows
    ``(B, N)`` to the statistic per row (NaN already counted as 0)."""
    z1, z2 = _zscore(scores1), _zscore(scores2)
    delta = batch(z2[None])[0] - batch(z1[None])[0]
    k, block = settings.permutations, settings.block_size
    large, done = 0, 0
    while done < k:
        size = min(block - done % block, k - done)
        m1, m2 = _hybrids(rng.binomial(1, 0.5, (size, z1.size)), z1, z2)
        c1 = batch(m1)
        c2 = batch(m2)
        hits = (c2 - c1) >= delta
        large += int(hits.sum())
        done += size
        if done % block == 0:
            p = large / done
            if p < settings.early_min or p > settings.early_max:
                break
    return large / done


def _pairs_acc23_p(
    rng: np.random.RandomState,
    gold: FloatArray,
    metric1: FloatArray,
    metric2: FloatArray,
    eps1: float,
    eps2: float,
    settings: MetaEvalSettings,
) -> float:
    """``stats.PairwisePermutationSigDiff`` (variant acc23, item grouping): pairwise results are
    swapped between the metrics, each with its own optimised threshold."""
    judged = ~np.isnan(gold)
    lens = judged.sum(axis=0)
    groups = np.flatnonzero(lens > 0)  # mt-metrics-eval's groups: items with a human score
    draws_per_perm = int((lens[groups] ** 2).sum())
    offsets = np.r_[0, np.cumsum(lens[groups] ** 2)[:-1]]
    pair_item: list[IntArray] = []
    pair_draw: list[IntArray] = []
    agree1: list[BoolArray] = []
    agree2: list[BoolArray] = []
    counted: list[int] = []
    for g_index, item in enumerate(groups):
        rows = np.flatnonzero(judged[:, item])
        n = rows.size
        if n < 2:
            continue  # mt-metrics-eval divides by zero pairs here
        i, j = np.triu_indices(n, 1)
        y = gold[rows, item]
        yd = y[j] - y[i]
        for m, eps, out in ((metric1, eps1, agree1), (metric2, eps2, agree2)):
            x = m[rows, item]
            xd = x[j] - x[i]
            tie = np.abs(xd) <= eps
            xd = np.where(tie, 0.0, xd)
            concordant = ((xd > 0) & (yd > 0)) | ((xd < 0) & (yd < 0))
            out.append(concordant | (tie & (yd == 0)))
        pair_item.append(np.full(i.size, len(counted)))
        pair_draw.append(offsets[g_index] + i * n + j)
        counted.append(n * (n - 1) // 2)
    if not counted:
        return math.nan
    item_of = np.concatenate(pair_item)
    draw_of = np.concatenate(pair_draw)
    a1 = np.concatenate(agree1).astype(np.int64)
    a2 = np.concatenate(agree2).astype(np.int64)
    totals = np.asarray(counted, dtype=np.int64)
    n_items = len(counted)

    def means(agree: IntArray) -> FloatArray:
        b = agree.shape[0]
        flat = (np.arange(b)[:, None] * n_items + item_of[None, :]).ravel()
        sums = np.bincount(flat, weights=agree.ravel(), minlength=b * n_items)
        per_item = np.rint(sums).astype(np.int64).reshape(b, n_items) / totals
        return np.asarray(np.mean(per_item, axis=1))

    delta = means(a2[None])[0] - means(a1[None])[0]
    k, block = settings.permutations, settings.block_size
    large, done = 0, 0
    chunk = max(1, min(block, 4_000_000 // max(1, draws_per_perm)))
    while done < k:
        size = min(chunk, k - done)
        w = rng.binomial(1, 0.5, (size, draws_per_perm))[:, draw_of] == 1
        c1 = means(np.where(w, a1, a2))
        c2 = means(np.where(w, a2, a1))
        hits = (c2 - c1) >= delta
        # mt-metrics-eval checks early stopping only after a permutation that counted
        for r in range(size):
            done += 1
            if hits[r]:
                large += 1
                if done % block == 0:
                    p = large / done
                    if p < settings.early_min or p > settings.early_max:
                        return large / done
    return large / done


def _spa_batch(gold: FloatArray, n_sys: int) -> Callable[[FloatArray], FloatArray]:
    signs = _pce_signs(gold.size // n_sys)
    gold_p = _p_values_batch(gold.reshape(1, n_sys, -1), signs)

    def batch(metric_rows: FloatArray) -> FloatArray:
        out = np.empty(metric_rows.shape[0])
        for start in range(0, metric_rows.shape[0], 32):
            part = metric_rows[start : start + 32]
            p = _p_values_batch(part.reshape(part.shape[0], n_sys, -1), signs)
            out[start : start + part.shape[0]] = _one_minus_pce(np.broadcast_to(gold_p, p.shape), p)
        return out

    return batch


def _statistic_batch(statistic: str, gold: FloatArray) -> Callable[[FloatArray], FloatArray]:
    function = _ROW_FUNCTIONS[statistic]
    g = np.ascontiguousarray(np.broadcast_to(gold, (64, gold.size)))

    def batch(metric_rows: FloatArray) -> FloatArray:
        out = np.empty(metric_rows.shape[0])
        for start in range(0, metric_rows.shape[0], 64):
            part = metric_rows[start : start + 64]
            values = function(g[: part.shape[0]], part)
            out[start : start + part.shape[0]] = _zero_undefined(values)
        return out

    return batch


def assign_ranks(p_values: FloatArray, threshold: float) -> list[int]:
    """mt-metrics-eval's ``data.AssignRanks``: metrics sorted by decreasing value; a metric
    starts a new cluster when a metric of the current cluster is significantly better
    (``p_values[i, j] <= threshold`` for i before it in that cluster)."""
    n = p_values.shape[0]
    ranks = [0] * n
    current, start = 1, 0
    for i in range(n):
        if np.any(p_values[start:i, i] <= threshold):
            current += 1
            start = i
        ranks[i] = current
    return ranks


def _ranking(
    level: str,
    statistic: str,
    values: Mapping[str, float],
    test: Callable[[str, str], float],
    threshold: float,
    check: Callable[[], None] = lambda: None,
) -> Ranking:
    """``data.CompareMetrics``: sort by (-value, name), test each pair in that order
    (``check`` is called before each test: cancelling between them)."""
    names = sorted(values, key=lambda n: (-values[n], n))
    size = len(names)
    matrix = np.zeros((size, size))
    for i in range(size):
        for j in range(i + 1, size):
            check()
            # metric j as "corr1", the better-ranked metric i as "corr2".
            matrix[i, j] = test(names[j], names[i])
    clusters = assign_ranks(matrix, threshold)
    p_values = tuple(
        tuple(float(matrix[i, j]) if j > i else None for j in range(size)) for i in range(size)
    )
    return Ranking(
        level,
        statistic,
        tuple(names),
        tuple(values[n] for n in names),
        tuple(clusters),
        p_values,
    )


def _rankings(
    data: _Prepared,
    results: Sequence[MetricMetaEval],
    thresholds: Mapping[str, float | None],
    settings: MetaEvalSettings,
    check: Callable[[], None] = lambda: None,
) -> list[Ranking]:
    out: list[Ranking] = []
    rng = np.random.RandomState(settings.seed)
    for statistic in SYSTEM_STATISTICS:
        values = {r.name: e.value for r in results if (e := r.system.get(statistic)) is not None}
        if len(values) < 2:
            continue
        if statistic == "spa":
            assert data.human_seg is not None
            gold_flat = data.human_seg.ravel()
            batch = _spa_batch(gold_flat, len(data.systems))

            def spa_test(m1: str, m2: str, batch: Callable[..., FloatArray] = batch) -> float:
                return _permutation_p(
                    rng, batch, data.metric_seg[m1].ravel(), data.metric_seg[m2].ravel(), settings
                )

            out.append(_ranking("system", statistic, values, spa_test, settings.p_threshold, check))
            continue
        sys_batch = _statistic_batch(statistic, data.human_sys)

        def sys_test(m1: str, m2: str, batch: Callable[..., FloatArray] = sys_batch) -> float:
            return _permutation_p(rng, batch, data.metric_sys[m1], data.metric_sys[m2], settings)

        out.append(_ranking("system", statistic, values, sys_test, settings.p_threshold, check))
    if data.human_seg is None:
        return out
    judged = ~np.isnan(data.human_seg)
    for statistic in SEGMENT_STATISTICS:
        values = {r.name: e.value for r in results if (e := r.segment.get(statistic)) is not None}
        if len(values) < 2:
            continue
        if statistic == "acc23_item":

            def acc_test(m1: str, m2: str) -> float:
                assert data.human_seg is not None
                return _pairs_acc23_p(
                    rng,
                    data.human_seg,
                    data.metric_seg[m1],
                    data.metric_seg[m2],
                    thresholds[m1] or 0.0,
                    thresholds[m2] or 0.0,
                    settings,
                )

            out.append(
                _ranking("segment", statistic, values, acc_test, settings.p_threshold, check)
            )
            continue
        key = "kendall" if statistic == "kendall_b" else statistic
        seg_batch = _statistic_batch(key, data.human_seg[judged])

        def seg_test(m1: str, m2: str, batch: Callable[..., FloatArray] = seg_batch) -> float:
            return _permutation_p(
                rng, batch, data.metric_seg[m1][judged], data.metric_seg[m2][judged], settings
            )

        out.append(_ranking("segment", statistic, values, seg_test, settings.p_threshold, check))
    return out


# -- the one call ----------------------------------------------------------------------------------


def metaevaluate(
    metrics: Sequence[MetricColumn],
    human: HumanColumn,
    *,
    systems: Sequence[str],
    rows: npt.ArrayLike | None = None,
    settings: MetaEvalSettings | None = None,
    cancel: Callable[[], bool] | None = None,
) -> MetaEvalResult:
    """Every statistic of every metric against ``human`` on ``rows`` (None: all), with
    confidence intervals and significance clusters as ``settings`` asks.

    ``systems`` names the metrics' and the humans' systems (in their order); those without a
    human score are left out. ``cancel`` is polled between statistics and between the
    permutation tests of two metrics (raising :class:`RuntimeError` when it says stop).
    """
    settings = settings or MetaEvalSettings()
    data = _prepare(metrics, human, rows, systems)

    def check() -> None:
        if cancel is not None and cancel():
            raise RuntimeError("meta-evaluation cancelled")

    samples = settings.confidence_samples
    resample = samples > 0 and data.human_seg is not None
    n = data.rows.size
    counts = resample_counts(n, samples, settings.seed) if resample else np.zeros((0, n))
    indices = resample_indices(n, samples, settings.seed) if resample else np.zeros((0, n))
    cache: dict[str, Any] = {}
    results: list[MetricMetaEval] = []
    thresholds: dict[str, float | None] = {}
    for m in metrics:
        name = m.name
        system: dict[str, Estimate | None] = {}
        for statistic in SYSTEM_STATISTICS:
            check()
            value = _system_value(statistic, data, name)
            if value is None:
                system[statistic] = None
                continue
            low = high = None
            if resample and not (statistic == "spa" and value is None):
                replicates = _system_replicates(statistic, data, name, indices, cache)
                low, high = _interval(replicates, settings.confidence)
            system[statistic] = Estimate(value, low, high)
        segment: dict[str, Estimate | None] = dict.fromkeys(SEGMENT_STATISTICS)
        threshold = None
        if data.human_seg is not None:
            for statistic in SEGMENT_STATISTICS:
                check()
                value, found = _segment_value(statistic, data, name)
                if found is not None:
                    threshold = found
                low = high = None
                if resample:
                    replicates = _segment_replicates(statistic, data, name, counts, cache)
                    low, high = _interval(replicates, settings.confidence)
                segment[statistic] = Estimate(value, low, high)
        thresholds[name] = threshold
        results.append(MetricMetaEval(name, system, segment, threshold))
    rankings: list[Ranking] = []
    if settings.permutations > 0 and len(metrics) > 1:
        check()
        rankings = _rankings(data, results, thresholds, settings, check)
    judged = (
        int((~np.isnan(data.human_seg)).sum()) if data.human_seg is not None else len(data.systems)
    )
    return MetaEvalResult(
        human.name,
        tuple(systems[i] for i in data.systems),
        n,
        judged,
        tuple(results),
        tuple(rankings),
        settings,
    )


# -- from a score table ----------------------------------------------------------------------------


def metric_columns(table: ScoreTable, keys: Sequence[str]) -> list[MetricColumn]:
    """The table's columns ``keys`` as metrics: their segment values and the statistics of
    their corpus figures (:func:`~matchlight.core.analysis.significance.table_statistics`),
    turned by the column's ``better``."""
    out = []
    for key in keys:
        info = table.column_info(key)
        stats, score = table_statistics(table, key)
        values = table.scores[:, :, table.metric_index(key)]
        out.append(MetricColumn(info.label, values, np.stack(stats), score, info.sign))
    return out


def human_from_table(table: ScoreTable, key: str) -> HumanColumn:
    """A column of the table (imported human scores, MQM from annotations) as human
    judgements per segment, turned so that higher is better (an MQM penalty negated)."""
    info = table.column_info(key)
    values = table.scores[:, :, table.metric_index(key)]
    return HumanColumn(info.label, segments=info.oriented(values))


def metaevaluate_table(
    table: ScoreTable,
    metric_keys: Sequence[str],
    human_key: str,
    *,
    rows: npt.ArrayLike | None = None,
    settings: MetaEvalSettings | None = None,
    cancel: Callable[[], bool] | None = None,
) -> MetaEvalResult:
    """:func:`metaevaluate` of a fully scored table's columns ``metric_keys`` against its
    column ``human_key`` (added human scores), on ``rows``: what the app's tab calls."""
    return metaevaluate(
        metric_columns(table, metric_keys),
        human_from_table(table, human_key),
        systems=table.systems,
        rows=rows,
        settings=settings,
        cancel=cancel,
    )
