"""Confidence intervals of meta-evaluation statistics, by resampling segments.

Segments (items, with every system's scores on them) are resampled with replacement,
``np.random.default_rng(seed).integers(0, n, (samples, n))`` as sacreBLEU draws them; each
statistic is recomputed on each resample (the system-level metric score is the corpus figure
of the resampled rows) and the interval is the central percentile range
(:func:`percentile_interval`). mt-metrics-eval has no confidence interval of its own: a
resample's value is the oracle's statistic on the resampled data, which the tests check
resample by resample. Segment-level statistics are computed from per-item sums weighted by how
often each item was drawn (:func:`resample_counts`), so no resample is materialised.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from matchlight.core.analysis.correlations import ROW_FUNCTIONS, zero_undefined
from matchlight.core.analysis.metatypes import AnyArray, FloatArray, Prepared
from matchlight.core.analysis.pairaccuracy import (
    acc23_best,
    acc23_pairs,
    one_minus_pce,
    p_values_batch,
    pce_signs,
)

__all__ = [
    "percentile_interval",
    "resample_counts",
    "resample_indices",
    "segment_replicates",
    "system_replicates",
]


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


def percentile_interval(values: FloatArray, confidence: float) -> tuple[float | None, float | None]:
    """The central ``confidence`` percentile range of the finite ``values`` (None, None: none)."""
    finite = values[np.isfinite(values)]
    if finite.size == 0:
        return None, None
    tail = (1.0 - confidence) / 2.0 * 100.0
    low, high = np.percentile(finite, [tail, 100.0 - tail])
    return float(low), float(high)


def _resampled_figures(
    data: Prepared, name: str, indices: AnyArray, cache: dict[str, Any]
) -> tuple[FloatArray, FloatArray]:
    """The humans' and the metric's system scores ``(B, S)`` on every resample, each computed
    as :func:`prepare` computes them, from the drawn rows in the order drawn: the same sums in
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


def system_replicates(
    statistic: str,
    data: Prepared,
    name: str,
    indices: AnyArray,
    cache: dict[str, Any],
) -> FloatArray:
    """The system-level statistic on every resample of the rows."""
    assert data.human_seg is not None
    seg = data.human_seg
    if statistic == "spa":
        signs = pce_signs(seg.shape[1])
        metric = data.metric_seg[name]
        out = np.empty(len(indices))
        human_p: list[FloatArray] = cache.setdefault("spa human", [])
        for n_chunk, start in enumerate(range(0, len(indices), 32)):
            idx = indices[start : start + 32].astype(np.intp)
            if n_chunk == len(human_p):  # the humans' p-values, the same for every metric
                human_p.append(p_values_batch(seg[:, idx].transpose(1, 0, 2), signs))
            m = p_values_batch(metric[:, idx].transpose(1, 0, 2), signs)
            out[start : start + len(idx)] = one_minus_pce(human_p[n_chunk], m)
        return out
    gold, metric = _resampled_figures(data, name, indices, cache)
    out = np.full(len(indices), np.nan)
    function = ROW_FUNCTIONS[statistic]
    complete = ~np.isnan(gold).any(axis=1)
    if complete.any():
        values = function(gold[complete], metric[complete])
        out[complete] = values if statistic == "pairwise_accuracy" else zero_undefined(values)
    for r in np.flatnonzero(~complete):
        keep = ~np.isnan(gold[r])
        if keep.sum() >= 2:
            value = function(gold[r, keep][None], metric[r, keep][None])
            out[r] = value[0] if statistic == "pairwise_accuracy" else zero_undefined(value)[0]
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


def segment_replicates(
    statistic: str, data: Prepared, name: str, counts: FloatArray, cache: dict[str, Any]
) -> FloatArray:
    """The segment-level statistic on every resample of the items."""
    assert data.human_seg is not None
    gold, metric = data.human_seg, data.metric_seg[name]
    judged = ~np.isnan(gold)
    if statistic == "acc23_item":
        return acc23_best(acc23_pairs(gold, metric), counts)[0]
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
