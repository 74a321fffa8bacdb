"""Significance of a difference between two metrics, and the clusters it ranks them into.

The test is mt-metrics-eval's PERM-BOTH permutation test (``PermutationSigDiff``; for acc23
``PairwisePermutationSigDiff``, as WMT23/24), with its random draws: numpy's legacy
``binomial(1, 0.5, ...)`` stream, which mt-metrics-eval takes from the global ``np.random``
state and we take from ``np.random.RandomState(seed)``, the same stream (the pairs of metrics
are tested in mt-metrics-eval's order, sharing it). Draws are made a block at a time, exactly as
many as mt-metrics-eval draws, and every block is evaluated at once. Metrics are then ranked
into significance clusters as ``data.AssignRanks`` does (:func:`assign_ranks`,
:func:`rank_metrics`).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence

import numpy as np

from matchlight.core.analysis.correlations import ROW_FUNCTIONS, zero_undefined
from matchlight.core.analysis.metatypes import (
    SEGMENT_STATISTICS,
    SYSTEM_STATISTICS,
    BoolArray,
    FloatArray,
    IntArray,
    MetaEvalSettings,
    MetricMetaEval,
    Prepared,
    Ranking,
)
from matchlight.core.analysis.pairaccuracy import one_minus_pce, p_values_batch, pce_signs

__all__ = ["assign_ranks", "rank_metrics"]


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
    signs = pce_signs(gold.size // n_sys)
    gold_p = p_values_batch(gold.reshape(1, n_sys, -1), signs)

    def batch(metric_rows: FloatArray) -> FloatArray:
        out = np.empty(metric_rows.shape[0])
        for start in range(0, metric_rows.shape[0], 32):
            part = metric_rows[start : start + 32]
            p = p_values_batch(part.reshape(part.shape[0], n_sys, -1), signs)
            out[start : start + part.shape[0]] = one_minus_pce(np.broadcast_to(gold_p, p.shape), p)
        return out

    return batch


def _statistic_batch(statistic: str, gold: FloatArray) -> Callable[[FloatArray], FloatArray]:
    function = ROW_FUNCTIONS[statistic]
    g = np.ascontiguousarray(np.broadcast_to(gold, (64, gold.size)))

    def batch(metric_rows: FloatArray) -> FloatArray:
        out = np.empty(metric_rows.shape[0])
        for start in range(0, metric_rows.shape[0], 64):
            part = metric_rows[start : start + 64]
            values = function(g[: part.shape[0]], part)
            out[start : start + part.shape[0]] = zero_undefined(values)
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


def rank_metrics(
    data: Prepared,
    results: Sequence[MetricMetaEval],
    thresholds: Mapping[str, float | None],
    settings: MetaEvalSettings,
    check: Callable[[], None] = lambda: None,
) -> list[Ranking]:
    """Every statistic's metrics ranked into significance clusters, each pair tested with the
    one random stream of ``settings.seed``, in mt-metrics-eval's order."""
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
