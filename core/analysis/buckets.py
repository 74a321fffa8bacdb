"""Rows grouped into buckets, and how each system does per bucket.

Buckets of rows (sentences) come from :func:`length_buckets` (reference length, compare-mt's
``LengthSentenceBucketer``), :func:`ratio_buckets` (hypothesis / reference length, per
system), :func:`label_buckets` (any label column: domain, document id) or :func:`cut_buckets`
(any number per row). :func:`bucket_means` gives, per bucket and system, the mean of a
per-row metric with a seeded bootstrap confidence interval (:func:`bootstrap_interval`), the
count and the rows, on all rows or any subset. :func:`bucket_corpus` gives instead the corpus
figure of each bucket's rows from their summed statistics (corpus BLEU of the bucket, as
compare-mt's ``statistic_type=score`` sentence buckets), with a bootstrap interval of that
figure.

Word frequency is different: compare-mt buckets *words*, not sentences
(``FreqWordBucketer``): every reference and output word falls in the bucket of its frequency,
and precision, recall and F-measure of the matched words are computed per bucket.
:func:`word_accuracy_by_frequency` does exactly that. The frequencies are the reference's own
counts unless a training corpus's are given (compare-mt's ``--freq_count_file``, read by
:func:`core.io.wordcounts.read_word_counts`): counted on the test reference alone, no
reference word is rarer than 1 and the ``<1`` bucket stays empty.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from itertools import chain
from typing import cast

import numpy as np
import numpy.typing as npt

from matchlight.core.analysis.compare import TokenColumn, row_index
from matchlight.core.metrics.ngrams import NgramCounts

__all__ = [
    "DEFAULT_BOOTSTRAP",
    "FREQUENCY_EDGES",
    "LENGTH_EDGES",
    "RATIO_EDGES",
    "BucketCell",
    "BucketTable",
    "Buckets",
    "WordAccuracy",
    "bootstrap_interval",
    "bucket_corpus",
    "bucket_means",
    "cut_buckets",
    "cutoff_labels",
    "label_buckets",
    "length_buckets",
    "ratio_buckets",
    "resample_weights",
    "word_accuracy_by_frequency",
]

IntArray = npt.NDArray[np.int64]
FloatArray = npt.NDArray[np.float64]
BoolArray = npt.NDArray[np.bool_]

#: compare-mt's reference-length cutoffs (``LengthSentenceBucketer``): <10, [10,20), ... >=60.
LENGTH_EDGES: tuple[int, ...] = (10, 20, 30, 40, 50, 60)
#: Hypothesis / reference length: much too short ... much too long (1.0 = equal length).
RATIO_EDGES: tuple[float, ...] = (0.5, 0.8, 0.9, 1.0, 1.1, 1.2, 1.5)
#: compare-mt's word-frequency cutoffs (``FreqWordBucketer``): <1, 1, 2, 3, 4, [5,10), ...
FREQUENCY_EDGES: tuple[int, ...] = (1, 2, 3, 4, 5, 10, 100, 1000)
#: Bootstrap resamples unless told otherwise (as compare-mt's bucket details).
DEFAULT_BOOTSTRAP = 1000

# Resample weights held at once by the bootstrap (bounds its memory: 8 bytes each).
_BOOTSTRAP_BLOCK = 2_000_000
# From this many rows of per-row values on, resample sums go through BLAS.
_BLAS_ROWS = 32


# -- buckets of rows --------------------------------------------------------------------------


@dataclass(frozen=True, slots=True, eq=False)
class Buckets:
    """An assignment of rows to named buckets.

    ``index`` is ``(n,)`` when every system shares the buckets, or ``(S, n)`` when the bucket
    depends on the system's output (length ratio); it holds the bucket number of each row,
    or -1 for a row in no bucket. ``by`` says what the rows are grouped by.
    """

    by: str
    labels: tuple[str, ...]
    index: IntArray

    @property
    def per_system(self) -> bool:
        return self.index.ndim == 2

    def rows(self, bucket: int, system: int = 0) -> IntArray:
        """The rows of one bucket (of one system's assignment when they differ)."""
        index = self.index[system] if self.per_system else self.index
        return np.flatnonzero(index == bucket).astype(np.int64)


def cutoff_labels(edges: Sequence[float], *, integer: bool) -> tuple[str, ...]:
    """compare-mt's bucket names for ``edges`` (``Bucketer.set_bucket_cutoffs``): ``<e0``,
    ``[e0,e1)``, ..., ``>=eK``; an integer bucket holding one value is named by that value."""
    labels: list[str] = []
    for i, edge in enumerate(edges):
        if i == 0:
            labels.append(f"<{edge}")
        elif integer and edge - 1 == edges[i - 1]:
            labels.append(f"{edge - 1}")
        else:
            labels.append(f"[{edges[i - 1]},{edge})")
    labels.append(f">={edges[-1]}")
    return tuple(labels)


def _check_edges(edges: Sequence[float]) -> FloatArray:
    array = np.asarray(edges, np.float64)
    if array.ndim != 1 or array.size == 0 or np.any(np.diff(array) <= 0):
        raise ValueError(f"bucket edges must be a non-empty increasing sequence, got {edges!r}")
    return array


def cut_buckets(values: npt.ArrayLike, edges: Sequence[float], *, by: str) -> Buckets:
    """Buckets of a number per row: bucket ``i`` holds ``edges[i-1] <= value < edges[i]``
    (compare-mt's ``cutoff_into_bucket``), the last one ``value >= edges[-1]``. NaN rows fall
    in no bucket. ``values`` may be ``(S, n)`` for per-system buckets."""
    cut = _check_edges(edges)
    array = np.asarray(values, np.float64)
    index = np.searchsorted(cut, array, side="right").astype(np.int64)
    index[np.isnan(array)] = -1
    integer = all(float(e).is_integer() for e in edges)
    shown = [int(e) for e in edges] if integer else list(edges)
    return Buckets(by, cutoff_labels(shown, integer=integer), index)


def length_buckets(lengths: npt.ArrayLike, *, edges: Sequence[int] = LENGTH_EDGES) -> Buckets:
    """Rows by reference length in tokens (compare-mt's ``length`` sentence buckets)."""
    return cut_buckets(lengths, edges, by="reference length")


def ratio_buckets(
    hyp_len: npt.ArrayLike, ref_len: npt.ArrayLike, *, edges: Sequence[float] = RATIO_EDGES
) -> Buckets:
    """Rows by hypothesis / reference length, per system (``hyp_len`` ``(S, n)``).

    An empty reference gives ratio 1 for an empty hypothesis and infinity otherwise (the
    last bucket), so every row has a bucket.
    """
    hyp = np.asarray(hyp_len, np.float64)
    ref = np.broadcast_to(np.asarray(ref_len, np.float64), hyp.shape)
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio = np.where(ref > 0, hyp / np.where(ref > 0, ref, 1.0), np.where(hyp > 0, np.inf, 1.0))
    return cut_buckets(ratio, edges, by="length ratio (hypothesis / reference)")


def label_buckets(
    labels: Sequence[str], *, order: Sequence[str] | None = None, by: str = "label"
) -> Buckets:
    """One bucket per distinct label (e.g. a domain or document id per row).

    Buckets come in ``order`` when given (rows with other labels fall in no bucket), else in
    order of first appearance.
    """
    names: dict[str, int] = {}
    if order is not None:
        for name in order:
            names.setdefault(name, len(names))
        index = np.fromiter((names.get(label, -1) for label in labels), np.int64, len(labels))
    else:
        index = np.fromiter(
            (names.setdefault(label, len(names)) for label in labels), np.int64, len(labels)
        )
    return Buckets(by, tuple(names), index)


# -- means per bucket -------------------------------------------------------------------------


def _percentile_bounds(samples: FloatArray, confidence: float) -> tuple[FloatArray, FloatArray]:
    """compare-mt's percentile interval over the last axis: the sorted resample statistics at
    ``int(B * (1 - c) / 2)`` and ``int(B * (1 + c) / 2)``; NaN resamples are ignored."""
    ordered = np.sort(samples, axis=-1)  # NaN sorts last
    valid = (~np.isnan(ordered)).sum(axis=-1)
    low_at = np.minimum((valid * (1 - confidence) / 2).astype(np.int64), np.maximum(valid - 1, 0))
    high_at = np.minimum((valid * (1 + confidence) / 2).astype(np.int64), np.maximum(valid - 1, 0))
    low = np.take_along_axis(ordered, low_at[..., None], axis=-1)[..., 0]
    high = np.take_along_axis(ordered, high_at[..., None], axis=-1)[..., 0]
    low[valid == 0] = np.nan
    high[valid == 0] = np.nan
    return low, high


def resample_weights(
    rng: np.random.Generator, n_rows: int, n_boot: int
) -> Iterator[npt.NDArray[np.float64]]:
    """Bootstrap resamples of ``n_rows`` rows as ``(block, n_rows)`` weight matrices (how often
    each row was drawn), in blocks that bound the memory used.

    Each resample draws ``n_rows`` row numbers with ``rng.integers(0, n_rows)``, resample after
    resample: the same draws as one ``rng.integers(0, n_rows, size=(n_boot, n_rows))``. Sums
    over a resample are then ``weights @ per_row_values``.
    """
    block = max(1, _BOOTSTRAP_BLOCK // max(n_rows, 1))
    for start in range(0, n_boot, block):
        size = min(block, n_boot - start)
        picks = rng.integers(0, n_rows, size=(size, n_rows))
        flat = (np.arange(size)[:, None] * n_rows + picks).reshape(-1)
        yield np.bincount(flat, minlength=size * n_rows).reshape(size, n_rows).astype(np.float64)


def bootstrap_interval(
    values: npt.ArrayLike,
    *,
    n_boot: int = DEFAULT_BOOTSTRAP,
    confidence: float = 0.95,
    seed: int | Sequence[int] = 0,
) -> tuple[FloatArray, FloatArray]:
    """A seeded percentile bootstrap interval of the mean of each row of ``values`` ``(S, n)``.

    The ``n`` columns (rows of the corpus) are resampled with replacement ``n_boot`` times
    (:func:`resample_weights` with ``numpy.random.default_rng(seed)``), the same resamples for
    every system (paired), so a seed gives the same interval on every machine. NaN values are
    left out of each resample's mean. The bounds are the sorted resample means at
    ``int(n_boot * (1 - confidence) / 2)`` and ``int(n_boot * (1 + confidence) / 2)``, i.e.
    25 and 975 of 1000 for 95% (compare-mt's rule). Returns ``(low, high)``, each ``(S,)``.
    This describes one system's uncertainty; whether two systems differ is for a paired test.
    """
    array = np.atleast_2d(np.asarray(values, np.float64))
    if array.ndim != 2:
        raise ValueError("values must be (systems, rows)")
    _check_bootstrap(n_boot, confidence)
    n_sys, n = array.shape
    if n == 0:
        return np.full(n_sys, np.nan), np.full(n_sys, np.nan)
    present = ~np.isnan(array)
    # Sums and counts of each resample in one product: rows 0..S-1 values, S..2S-1 counts.
    per_row = np.concatenate([np.where(present, array, 0.0), present.astype(np.float64)])
    means = np.empty((n_sys, n_boot))
    done = 0
    for weights in resample_weights(np.random.default_rng(seed), n, n_boot):
        sums = _resample_sums(per_row, weights)
        with np.errstate(invalid="ignore", divide="ignore"):
            means[:, done : done + len(weights)] = sums[:n_sys] / sums[n_sys:]
        done += len(weights)
    return _percentile_bounds(means, confidence)


def _resample_sums(per_row: FloatArray, weights: FloatArray) -> FloatArray:
    """``(k, n)`` per-row values summed over each of ``(block, n)`` resamples: ``(k, block)``.

    numpy's own loop for a few rows of values, BLAS for many: OpenBLAS spreads a product with
    a short dimension and a long inner one badly over its threads, very slowly on a busy
    machine (and the engine's workers keep it busy).
    """
    if per_row.shape[0] < _BLAS_ROWS:
        return cast(FloatArray, np.einsum("kn,bn->kb", per_row, weights))
    return cast(FloatArray, per_row @ weights.T)


def _check_bootstrap(n_boot: int, confidence: float) -> None:
    if n_boot < 1:
        raise ValueError(f"n_boot must be positive, got {n_boot}")
    if not 0 < confidence < 1:
        raise ValueError(f"confidence must be between 0 and 1, got {confidence}")


@dataclass(frozen=True, slots=True, eq=False)
class BucketCell:
    """One bucket of one system: its rows, how many have a value, their mean and its interval."""

    rows: IntArray
    count: int
    mean: float
    low: float
    high: float


@dataclass(frozen=True, slots=True, eq=False)
class BucketTable:
    """Per-bucket results: ``cells[b][s]`` is bucket ``b`` of system ``s``."""

    by: str
    labels: tuple[str, ...]
    cells: tuple[tuple[BucketCell, ...], ...]
    confidence: float
    n_boot: int
    seed: int

    def means(self) -> FloatArray:
        """``(buckets, systems)`` means, for a chart."""
        return np.array([[c.mean for c in row] for row in self.cells], np.float64).reshape(
            len(self.cells), -1
        )


def bucket_means(
    buckets: Buckets,
    values: npt.ArrayLike,
    *,
    rows: npt.ArrayLike | None = None,
    n_boot: int = DEFAULT_BOOTSTRAP,
    confidence: float = 0.95,
    seed: int = 0,
) -> BucketTable:
    """Per bucket and system: the mean of a per-row metric ``values`` ``(S, n)``, its
    bootstrap interval (:func:`bootstrap_interval`, seeded with ``(seed, bucket)``, or
    ``(seed, bucket, system)`` for per-system buckets), the count of rows with a value and
    the rows. NaN values (missing imported scores) are left out of means and counts.
    ``rows`` (a mask or row numbers) restricts everything to a subset.
    """
    array = np.atleast_2d(np.asarray(values, np.float64))
    n_sys, n = array.shape
    if buckets.index.shape[-1] != n:
        raise ValueError(f"buckets cover {buckets.index.shape[-1]} rows, values {n}")
    if buckets.per_system and buckets.index.shape[0] != n_sys:
        raise ValueError(f"per-system buckets for {buckets.index.shape[0]} systems, not {n_sys}")
    selected = np.zeros(n, np.bool_)
    selected[row_index(rows, n)] = True
    table: list[tuple[BucketCell, ...]] = []
    for b in range(len(buckets.labels)):
        if buckets.per_system:
            cells = []
            for s in range(n_sys):
                members = np.flatnonzero((buckets.index[s] == b) & selected).astype(np.int64)
                cells.append(
                    _cells(array[s : s + 1, members], members, n_boot, confidence, (seed, b, s))[0]
                )
            table.append(tuple(cells))
        else:
            members = np.flatnonzero((buckets.index == b) & selected).astype(np.int64)
            table.append(_cells(array[:, members], members, n_boot, confidence, (seed, b)))
    return BucketTable(buckets.by, buckets.labels, tuple(table), confidence, n_boot, seed)


def _cells(
    values: FloatArray, members: IntArray, n_boot: int, confidence: float, seed: tuple[int, ...]
) -> tuple[BucketCell, ...]:
    counts = (~np.isnan(values)).sum(axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        means = np.nansum(values, axis=1) / counts
    low, high = bootstrap_interval(values, n_boot=n_boot, confidence=confidence, seed=seed)
    return tuple(
        BucketCell(members, int(c), float(m), float(lo), float(hi))
        for c, m, lo, hi in zip(counts, means, low, high)
    )


def bucket_corpus(
    buckets: Buckets,
    stats: Sequence[npt.ArrayLike],
    score: Callable[[FloatArray], npt.ArrayLike],
    *,
    present: npt.ArrayLike | None = None,
    rows: npt.ArrayLike | None = None,
    n_boot: int = DEFAULT_BOOTSTRAP,
    confidence: float = 0.95,
    seed: int = 0,
) -> BucketTable:
    """Per bucket and system: the corpus figure of the bucket's rows, ``score`` of the sum of
    their additive statistics (``stats[s]`` ``(n, K)``; ``score`` maps summed ``(m, K)`` to
    ``(m,)``, e.g. a metric's :meth:`~core.metrics.base.Metric.additive` pair), so corpus BLEU
    of each bucket rather than the mean of its sentence BLEU.

    The interval is the percentile bootstrap of that figure (the bucket's rows resampled
    ``n_boot`` times, the same draws for every system, seeded as :func:`bucket_means` seeds
    them, so that mean statistics give its very intervals). ``present`` ``(S, n)`` says which
    rows have a value, for the counts (default: all); ``rows`` restricts everything to a
    subset. A bucket without rows has a NaN figure.
    """
    arrays = [np.asarray(a, np.float64) for a in stats]
    n_sys = len(arrays)
    if not n_sys or any(a.ndim != 2 or a.shape != arrays[0].shape for a in arrays):
        raise ValueError("statistics must be one (n, K) array per system, all of one shape")
    n = arrays[0].shape[0]
    if buckets.index.shape[-1] != n:
        raise ValueError(f"buckets cover {buckets.index.shape[-1]} rows, statistics {n}")
    if buckets.per_system and buckets.index.shape[0] != n_sys:
        raise ValueError(f"per-system buckets for {buckets.index.shape[0]} systems, not {n_sys}")
    _check_bootstrap(n_boot, confidence)
    has = (
        np.ones((n_sys, n), np.bool_)
        if present is None
        else np.broadcast_to(np.asarray(present, np.bool_), (n_sys, n))
    )
    selected = np.zeros(n, np.bool_)
    selected[row_index(rows, n)] = True

    def figures(
        members: IntArray, systems: Sequence[int], key: tuple[int, ...]
    ) -> list[BucketCell]:
        if members.size == 0:
            return [BucketCell(members, 0, math.nan, math.nan, math.nan) for _ in systems]
        picked = [arrays[s][members] for s in systems]
        values = [float(np.asarray(score(p.sum(axis=0)[None, :]))[0]) for p in picked]
        samples = np.empty((len(systems), n_boot))
        done = 0
        for weights in resample_weights(np.random.default_rng(key), members.size, n_boot):
            for k, p in enumerate(picked):
                samples[k, done : done + len(weights)] = np.asarray(score(weights @ p))
            done += len(weights)
        low, high = _percentile_bounds(samples, confidence)
        return [
            BucketCell(members, int(has[s, members].sum()), v, float(lo), float(hi))
            for s, v, lo, hi in zip(systems, values, low, high)
        ]

    table: list[tuple[BucketCell, ...]] = []
    for b in range(len(buckets.labels)):
        if buckets.per_system:
            cells = []
            for s in range(n_sys):
                members = np.flatnonzero((buckets.index[s] == b) & selected).astype(np.int64)
                cells += figures(members, [s], (seed, b, s))
            table.append(tuple(cells))
        else:
            members = np.flatnonzero((buckets.index == b) & selected).astype(np.int64)
            table.append(tuple(figures(members, range(n_sys), (seed, b))))
    return BucketTable(buckets.by, buckets.labels, tuple(table), confidence, n_boot, seed)


# -- word accuracy by frequency (compare-mt) ---------------------------------------------------


@dataclass(frozen=True, slots=True, eq=False)
class WordAccuracy:
    """compare-mt's word accuracy per frequency bucket, for each system.

    ``ref_total[b]``: reference words in bucket ``b``; ``out_total[s, b]``: system ``s``'s
    words in it; ``matches[s, b]``: its words matched in the reference of their row (clipped
    counts). ``precision``, ``recall`` and ``fmeasure`` are on compare-mt's 0-1 scale (all 0
    where nothing matched). ``rows[b]`` are the rows whose reference has a word of bucket
    ``b``. ``fmeasure_low`` / ``fmeasure_high`` are the bootstrap interval of the F-measure
    (rows resampled, see :func:`bootstrap_interval`; NaN when ``n_boot`` was 0).
    """

    labels: tuple[str, ...]
    ref_total: IntArray
    out_total: IntArray
    matches: IntArray
    precision: FloatArray
    recall: FloatArray
    fmeasure: FloatArray
    fmeasure_low: FloatArray
    fmeasure_high: FloatArray
    rows: tuple[IntArray, ...]


def _prf(matches: FloatArray, out_total: FloatArray, ref_total: FloatArray) -> FloatArray:
    """``(3, ...)`` precision, recall, F-measure with compare-mt's arithmetic (0 if no match)."""
    hit = matches > 0
    with np.errstate(invalid="ignore", divide="ignore"):
        rec = np.where(hit, matches / ref_total, 0.0)
        prec = np.where(hit, matches / out_total, 0.0)
        fmeas = np.where(hit, 2 * prec * rec / (prec + rec), 0.0)
    return np.stack([prec, rec, fmeas])


def word_accuracy_by_frequency(
    *,
    reference: TokenColumn,
    systems: Sequence[TokenColumn],
    counts: Mapping[str, int] | None = None,
    edges: Sequence[int] = FREQUENCY_EDGES,
    rows: npt.ArrayLike | None = None,
    n_boot: int = DEFAULT_BOOTSTRAP,
    confidence: float = 0.95,
    seed: int = 0,
) -> WordAccuracy:
    """compare-mt's word F-measure by frequency bucket (``--compare_word_accuracies``).

    A word's frequency is ``counts[word]`` (0 when absent); without ``counts`` it is the
    word's count in the whole ``reference`` (compare-mt's default; training-corpus counts are
    more informative). Each reference word and each output word goes to the bucket of its
    frequency (``edges`` as :func:`cut_buckets`). An output word is matched when it occurs in
    the reference of its row, up to that count (the k-th occurrence matches the k-th). Per
    bucket: recall = matches / reference words, precision = matches / output words, and their
    harmonic mean. ``rows`` restricts the words counted to a subset of rows; frequencies are
    still those of the whole reference. One reference, as in compare-mt.
    """
    n = len(reference)
    for column in systems:
        if len(column) != n:
            raise ValueError("the reference and the systems must have the same number of rows")
    cut = _check_edges(edges)
    if counts is None:
        counts = Counter(chain.from_iterable(reference))
    frequency = counts
    selected = row_index(rows, n)
    picked = [[column[i] for i in selected.tolist()] for column in (reference, *systems)]
    n_rows = len(selected)
    n_sys = len(systems)
    n_buckets = len(cut) + 1
    lengths = np.array([[len(line) for line in column] for column in picked], np.int64).reshape(
        n_sys + 1, n_rows
    )
    words = list(chain.from_iterable(chain.from_iterable(picked)))
    unigrams = NgramCounts.from_flat(words, lengths, 1)
    unigrams.advance()
    table = unigrams.counts  # (1 + S, G): each (row, word) pair's count per column
    n_pairs = table.shape[1]
    position = np.empty(n_pairs, np.int64)
    position[unigrams.gram] = unigrams.positions
    # Token ids are the flat position of a word's first occurrence: one lookup per word type.
    token = unigrams.ids[position]
    types, type_of = np.unique(token, return_inverse=True)
    get: Callable[[str], int | None] = frequency.get
    type_freq = np.fromiter(((get(words[t]) or 0) for t in types.tolist()), np.float64, types.size)
    bucket = np.searchsorted(cut, type_freq, side="right")[type_of.reshape(-1)]
    pair_row = unigrams.gram_row
    cell = pair_row * n_buckets + bucket
    size = n_rows * n_buckets
    # Per row and bucket: reference words, and each system's words and matches.
    ref_rows = np.bincount(cell, table[0], size).reshape(n_rows, n_buckets)
    out_rows = np.stack([np.bincount(cell, table[1 + s], size) for s in range(n_sys)])
    match_rows = np.stack(
        [np.bincount(cell, np.minimum(table[0], table[1 + s]), size) for s in range(n_sys)]
    )
    out_rows = out_rows.reshape(n_sys, n_rows, n_buckets)
    match_rows = match_rows.reshape(n_sys, n_rows, n_buckets)
    ref_total = ref_rows.sum(axis=0)
    out_total = out_rows.sum(axis=1)
    matches = match_rows.sum(axis=1)
    prec, rec, fmeas = _prf(matches, out_total, np.broadcast_to(ref_total, matches.shape))

    low = np.full((n_sys, n_buckets), np.nan)
    high = np.full((n_sys, n_buckets), np.nan)
    if n_boot > 0 and n_rows > 0:
        _check_bootstrap(n_boot, confidence)
        # Every per-row count in one matrix, so each block of resamples is one product.
        per_row = np.ascontiguousarray(
            np.concatenate([ref_rows[None], out_rows, match_rows])
            .transpose(0, 2, 1)
            .reshape(-1, n_rows)
        )
        samples = np.empty((n_sys, n_buckets, n_boot))
        done = 0
        for weights in resample_weights(np.random.default_rng(seed), n_rows, n_boot):
            sums = _resample_sums(per_row, weights).reshape(1 + 2 * n_sys, n_buckets, -1)
            sums = sums.transpose(0, 2, 1)  # (1 + 2S, block, buckets)
            r = sums[0]
            o = sums[1 : 1 + n_sys]  # (S, block, buckets)
            m = sums[1 + n_sys :]
            f = _prf(m, o, np.broadcast_to(r, m.shape))[2]
            samples[:, :, done : done + len(weights)] = f.transpose(0, 2, 1)
            done += len(weights)
        low, high = _percentile_bounds(samples, confidence)

    ref_pairs = table[0] > 0
    member_rows = tuple(
        selected[np.unique(pair_row[ref_pairs & (bucket == b)])] for b in range(n_buckets)
    )
    labels = cutoff_labels([int(e) for e in cut], integer=True)
    return WordAccuracy(
        labels=labels,
        ref_total=ref_total.astype(np.int64),
        out_total=out_total.astype(np.int64),
        matches=matches.astype(np.int64),
        precision=cast(FloatArray, prec),
        recall=cast(FloatArray, rec),
        fmeasure=cast(FloatArray, fmeas),
        fmeasure_low=low,
        fmeasure_high=high,
        rows=member_rows,
    )
