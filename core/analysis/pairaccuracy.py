"""Pairwise accuracies of meta-evaluation beyond the plain one: ``acc23`` with its optimised tie
threshold and WMT24's soft pairwise accuracy.

``acc23_item`` is the segment-level pairwise accuracy with tie calibration of Deutsch et al.
(2023) (mt-metrics-eval's ``tau_optimization.py``): the metric's tie threshold is chosen to
maximise the accuracy averaged over items (segments), with every pair considered (sample rate
1.0). ``soft_pairwise_accuracy`` is WMT24's system-level SPA, 1 - PCE (``pce.py``): paired
permutation p-values from the segment scores, 1,000 permutations, seed 4, for the humans and
the metric alike. The pieces are public for the resampling and the permutation tests, which
evaluate them on many resamples at once.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Final

import numpy as np
import numpy.typing as npt

from matchlight.core.analysis.metatypes import AnyArray, BoolArray, FloatArray, IntArray

__all__ = [
    "PCE_PERMUTATIONS",
    "PCE_SEED",
    "Acc23Pairs",
    "acc23_best",
    "acc23_item",
    "acc23_pairs",
    "one_minus_pce",
    "p_values_batch",
    "pairwise_p_values",
    "pce_signs",
    "soft_pairwise_accuracy",
]

#: WMT24's soft pairwise accuracy: permutations and seed of ``pce.compute_pairwise_p_values``.
PCE_PERMUTATIONS: Final = 1000
PCE_SEED: Final = 4


# -- acc23 with the optimised tie threshold --------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Acc23Pairs:
    """Every judged pair of systems within each item, sorted by metric difference, with what
    turning it into a metric tie changes in its item's acc23."""

    item: IntArray  # (P,) item of each pair, in threshold order
    change: FloatArray  # (P,) change of its item's acc23 when tied
    ends: IntArray  # index of the last pair of each distinct difference
    thresholds: FloatArray  # the distinct differences
    base: FloatArray  # (items,) each item's acc23 with no pair tied; NaN: item has no pair
    valid: BoolArray  # (items,) items with a pair


def acc23_pairs(gold: FloatArray, metric: FloatArray) -> Acc23Pairs:
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
    return Acc23Pairs(
        item[order].astype(np.int64),
        change[order],
        ends.astype(np.int64),
        diff[ends],
        base,
        valid,
    )


def acc23_best(pairs: Acc23Pairs, weights: FloatArray) -> tuple[FloatArray, FloatArray]:
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
    pairs = acc23_pairs(g, m)
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


def pce_signs(n_segments: int, permutations: int = PCE_PERMUTATIONS) -> npt.NDArray[np.float32]:
    """pce.compute_pairwise_p_values' matrix of -1/+1 (float32, seed 4)."""
    rng = np.random.default_rng(PCE_SEED)
    signs = rng.random(size=(permutations, n_segments), dtype=np.float32)
    np.rint(signs, out=signs, casting="same_kind")
    signs *= 2.0
    signs -= 1.0
    return signs


def p_values_batch(seg: AnyArray, signs: npt.NDArray[np.float32]) -> FloatArray:
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
    return p_values_batch(seg[None], pce_signs(seg.shape[1]))[0]


def one_minus_pce(gold_p: FloatArray, metric_p: FloatArray) -> FloatArray:
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
    signs = pce_signs(g.shape[1])
    return float(one_minus_pce(p_values_batch(g[None], signs), p_values_batch(m[None], signs))[0])
