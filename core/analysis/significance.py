"""Paired significance tests on additive per-segment statistics, equal to sacreBLEU 2.6.0's.

sacreBLEU's paired bootstrap (``--paired-bs``) and paired approximate randomization
(``--paired-ar``) only ever sum per-segment statistics and score the sums, so both run here on
plain arrays: ``stats[i]`` is system ``i``'s ``(n_segments, K)`` statistics (system 0 is the
baseline) and ``score`` maps summed statistics ``(m, K)`` to ``m`` corpus scores. Nothing is
re-tokenized, any metric with additive statistics works, and ``rows`` restricts a test to a
subset of segments (the result then equals sacreBLEU run on files holding only those rows, in
corpus order). The statistics and score functions are the metrics' own
(:meth:`~matchlight.core.metrics.base.Metric.additive`: corpus BLEU, corpus chrF), or the mean
of segment values (:func:`~matchlight.core.metrics.base.mean_statistics`); :func:`table_statistics`
picks the one behind a score table column's corpus figure.

Same seed, same p-values, bit for bit. The random draws are sacreBLEU's: one
``np.random.default_rng(seed)``, an ``(n_samples, n)`` matrix of ``choice`` indices for the
bootstrap, an ``(n_trials, n)`` boolean matrix from ``integers(2, dtype=bool)`` for AR. Those
matrices are never materialised: numpy fills them in C order, value by value, so drawing them a
block of rows at a time continues the same stream (AR's booleans are the bits of consecutive
32-bit draws, so its blocks are cut at multiples of 32 values and drawn as words). A block of
bootstrap indices becomes a matrix of counts (how often each row was drawn), and counts times
statistics is each resample's sum, one matrix product for all systems at once.

The arithmetic is sacreBLEU's too. Integer statistics are resampled as it does, as float32
sums: the product is exact and equals its float32 sums whenever they stay below 2**24, and any
resample reaching that bound is summed again exactly the way sacreBLEU sums it. AR sums stay
integers, as in sacreBLEU. The score function receives those dtypes (float32 bootstrap sums,
int64 AR and corpus sums) and computes in them as sacreBLEU does (the metrics' score functions
do: float32 precisions in BLEU, a float32 chrF). Scores, means, half-widths and test statistics
are then computed with sacreBLEU's own numpy expressions on the dtype the score function
returns.

Floating-point statistics are our extension (sacreBLEU has no such metric): they are summed in
float64. That is how a corpus figure that is the mean of segment scores (ROUGE F, sentence
BLEU, an imported score column) is tested, with the same draws as the metrics' statistics.

Two choices differ from sacreBLEU on purpose: ``seed=None`` draws one fresh seed for the whole
run and reports it (sacreBLEU draws unseeded streams per system, so its run cannot be repeated),
and seed 0 is an ordinary seed (sacreBLEU's systems treat 0 as "no seed").
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np
import numpy.typing as npt

from matchlight.core.analysis.compare import row_index
from matchlight.core.metrics.base import mean_score, mean_statistics
from matchlight.core.metrics.registry import METRICS
from matchlight.core.metrics.signature import format_signature
from matchlight.core.pacing import pause
from matchlight.core.scoring.results import ScoreTable

__all__ = [
    "DEFAULT_AR_TRIALS",
    "DEFAULT_BOOTSTRAP_SAMPLES",
    "DEFAULT_SEED",
    "PairwiseSignificance",
    "ScoreFunction",
    "SignificanceCancelled",
    "SignificanceResult",
    "SystemSignificance",
    "paired_approximate_randomization",
    "paired_bootstrap",
    "pairwise_significance",
    "signature_with",
    "table_statistics",
]

AnyArray = npt.NDArray[Any]

#: Summed statistics ``(m, K)`` -> ``m`` corpus scores, vectorised.
ScoreFunction = Callable[[AnyArray], AnyArray]

#: sacreBLEU's defaults: resamples for ``--paired-bs``, trials for ``--paired-ar``, the seed.
DEFAULT_BOOTSTRAP_SAMPLES = 1000
DEFAULT_AR_TRIALS = 10000
DEFAULT_SEED = 12345

TestKind = Literal["bs", "ar"]

# Float32 holds every integer up to 2**24: sums that stay below it are exact in any order.
_FLOAT32_EXACT = 2.0**24
# Elements per block of drawn indices or bits (a few MB of counts, one matrix product each).
_BLOCK_ELEMENTS = 1 << 22
# Multiply-adds per matrix product. numpy's OpenBLAS runs a product of up to 4 * 65536 of them
# on the calling thread and splits larger ones over threads, which stall whenever another
# process holds a core (many times slower on a busy machine). So a product is cut into
# pieces of this size and rows, stacked into one matmul call (one thread, hardly slower).
_PRODUCT_SIZE = 1 << 18
_PRODUCT_ROWS = 32


class SignificanceCancelled(Exception):
    """A significance test was stopped by its ``cancel`` callback."""


@dataclass(frozen=True, slots=True)
class SystemSignificance:
    """One system's line of a paired test, as sacreBLEU reports it.

    ``score`` is the corpus score of the tested rows; ``mean`` and ``ci`` the bootstrap mean and
    95% confidence half-width (None in an AR test run without ``confidence_samples``);
    ``p_value`` is None for the baseline.
    """

    name: str
    score: float
    mean: float | None
    ci: float | None
    p_value: float | None


@dataclass(frozen=True, slots=True)
class SignificanceResult:
    """A paired test of every system against the baseline (``systems[0]``).

    ``seed`` is the seed asked for (None: a fresh one), ``seed_used`` the one drawn with, which
    repeats the run exactly. ``n_samples`` counts resamples (``bs``) or trials (``ar``);
    ``confidence_samples`` the resamples behind ``mean`` and ``ci``.
    """

    test: TestKind
    n_samples: int
    confidence_samples: int | None
    seed: int | None
    seed_used: int
    n_segments: int
    systems: tuple[SystemSignificance, ...]

    @property
    def baseline(self) -> SystemSignificance:
        return self.systems[0]

    def signature_fields(self) -> dict[str, str]:
        """The fields sacreBLEU adds to a metric's signature, in its order (``bs``, ``ar``,
        ``seed``); ``seed`` is the seed used."""
        fields: dict[str, str] = {}
        if self.confidence_samples is not None:
            fields["bs"] = str(self.confidence_samples)
        if self.test == "ar":
            fields["ar"] = str(self.n_samples)
        fields["seed"] = str(self.seed_used)
        return fields


@dataclass(frozen=True, slots=True)
class PairwiseSignificance:
    """Every pair of systems tested against each other with the same random draws.

    ``p_values[i][j]`` is the p-value of the test with baseline ``i`` and system ``j`` (the
    tests are symmetric, so the matrix is; the diagonal is None, and so is a pair left untested
    because a system has no values). ``means`` and ``cis`` are the bootstrap figures of each
    system (None for AR).
    """

    test: TestKind
    n_samples: int
    seed: int | None
    seed_used: int
    n_segments: int
    names: tuple[str, ...]
    scores: tuple[float, ...]
    means: tuple[float | None, ...]
    cis: tuple[float | None, ...]
    p_values: tuple[tuple[float | None, ...], ...]

    def p_value(self, a: int | str, b: int | str) -> float:
        """The p-value of systems ``a`` and ``b`` (indices or names)."""
        i, j = self._index(a), self._index(b)
        if i == j:
            raise ValueError(f"a system is not tested against itself: {self.names[i]!r}")
        p = self.p_values[i][j]
        if p is None:  # a pair left untested (see core.analysis.columnstats.without_values)
            raise ValueError(f"{self.names[i]!r} and {self.names[j]!r} were not tested")
        return p

    def _index(self, key: int | str) -> int:
        if isinstance(key, str):
            if self.names.count(key) != 1:
                raise KeyError(f"no single system named {key!r} among {list(self.names)}")
            return self.names.index(key)
        if not 0 <= key < len(self.names):
            raise IndexError(f"system index {key} out of range for {len(self.names)} systems")
        return key


# -- what a table column resamples ------------------------------------------------------------


def table_statistics(
    table: ScoreTable, column: str, *, sentence_mean: bool = False
) -> tuple[list[AnyArray], ScoreFunction]:
    """Each system's ``(n, K)`` statistics and the score of summed statistics behind the corpus
    figure of ``column`` of a fully scored ``table``.

    A column whose corpus figure comes from summed statistics (corpus BLEU, corpus chrF) gets
    its metric's own (:meth:`~matchlight.core.metrics.base.Metric.additive`), so a test equals
    sacreBLEU's; a column whose figure is a mean (ROUGE F, an added column), or any score
    column with ``sentence_mean``, gets the mean of its segment values
    (:func:`~matchlight.core.metrics.base.mean_statistics`, rows without a value left out).
    """
    info = table.column_info(column)
    if info.kind != "score":
        raise ValueError(f"{info.label} is a count, not a score: it has no test")
    if not table.complete:
        raise ValueError("the table is still being scored; test it once every row is scored")
    if sentence_mean or info.corpus != "stats" or column in table.external:
        stats = mean_statistics(table.scores[:, :, table.metric_index(column)])
        return list(stats), mean_score
    metric = METRICS[info.metric]
    found = metric.additive(table.config.settings(info.metric), table.stats[info.metric])
    if found is None:
        raise ValueError(
            f"{info.label}'s corpus figure under these settings is not a function of summed "
            "statistics, so resamples have no corpus figure"
        )
    stacked, score = found
    return list(stacked), score


def signature_with(signature: str, fields: Mapping[str, str]) -> str:
    """A metric's signature with a test's fields (:meth:`SignificanceResult.signature_fields`)
    where sacreBLEU puts them: right after ``nrefs``, e.g.
    ``nrefs:2|bs:1000|seed:12345|case:mixed|...``."""
    parts = signature.split("|")
    at = 1 if parts and parts[0].startswith("nrefs:") else 0
    added = [format_signature(fields.items())] if fields else []
    return "|".join([*parts[:at], *added, *parts[at:]])


# -- preparing the input -----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Input:
    names: tuple[str, ...]
    stats: tuple[AnyArray, ...]  # per system (n, K), int64 (sacreBLEU's) or float64 (ours)
    integer: bool

    @property
    def n(self) -> int:
        return int(self.stats[0].shape[0])

    @property
    def width(self) -> int:
        return int(self.stats[0].shape[1])


def _prepare(
    stats: Sequence[npt.ArrayLike], names: Sequence[str], rows: npt.ArrayLike | None
) -> _Input:
    arrays = [np.asarray(s) for s in stats]
    if len(arrays) < 2:
        raise ValueError(f"a paired test needs at least two systems, got {len(arrays)}")
    if len(names) != len(arrays):
        raise ValueError(f"{len(names)} names for {len(arrays)} systems")
    shape = arrays[0].shape
    for name, array in zip(names, arrays, strict=True):
        if array.ndim != 2 or array.shape[1] < 1:
            raise ValueError(
                f"statistics of {name!r} must have shape (n_segments, K), not {array.shape}"
            )
        if array.shape != shape:
            raise ValueError(
                f"statistics of {name!r} have shape {array.shape}, those of {names[0]!r} {shape}"
            )
    kinds = {array.dtype.kind for array in arrays}
    if not kinds <= set("biuf"):
        raise TypeError(f"statistics must be numbers, got dtypes {[a.dtype for a in arrays]}")
    integer = "f" not in kinds
    dtype = np.int64 if integer else np.float64
    selected = [np.asarray(a, dtype=dtype) for a in arrays]
    if rows is not None:
        index = row_index(rows, shape[0])
        selected = [a[index] for a in selected]
    if selected[0].shape[0] == 0:
        raise ValueError("a paired test needs at least one segment")
    if not integer:
        for name, array in zip(names, selected, strict=True):
            if not np.isfinite(array).all():
                raise ValueError(f"statistics of {name!r} contain NaN or infinite values")
    return _Input(tuple(names), tuple(np.ascontiguousarray(a) for a in selected), integer)


def _seed_used(seed: int | None) -> int:
    if seed is None:
        entropy = np.random.SeedSequence().entropy
        return int(entropy)  # type: ignore[arg-type]  # an int when drawn by SeedSequence
    if isinstance(seed, bool) or not isinstance(seed, int | np.integer) or seed < 0:
        raise ValueError(f"seed must be a non-negative integer or None, not {seed!r}")
    return int(seed)


def _check_count(value: int, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int | np.integer) or value < 1:
        raise ValueError(f"{what} must be a positive integer, not {value!r}")
    return int(value)


class _Progress:
    """Checks the cancel flag and reports the done fraction, block after block."""

    def __init__(
        self, cancel: Callable[[], bool] | None, progress: Callable[[float], None] | None
    ) -> None:
        self._cancel = cancel
        self._progress = progress
        self._total = 0
        self._done = 0

    def add(self, blocks: int) -> None:
        self._total += blocks

    def step(self) -> None:
        if self._cancel is not None and self._cancel():
            raise SignificanceCancelled("significance test cancelled")
        pause()  # an application's interactive thread first (core.pacing)
        self._done += 1
        if self._progress is not None:
            self._progress(min(1.0, self._done / max(1, self._total)))


# -- resampling --------------------------------------------------------------------------------


def _blocks(total: int, size: int) -> Iterator[tuple[int, int]]:
    for start in range(0, total, size):
        yield start, min(total, start + size)


def _bootstrap_block_rows(n: int) -> int:
    return max(1, min(256, _BLOCK_ELEMENTS // n))


def _n_bootstrap_blocks(n_samples: int, n: int) -> int:
    return -(-n_samples // _bootstrap_block_rows(n))


def _draw_indices(rng: np.random.Generator, rows: int, n: int) -> AnyArray:
    """The next ``rows`` rows of sacreBLEU's ``rng.choice(n, size=(n_samples, n))``.

    For n below 2**31 ``integers`` with dtype uint32 draws the same values from the same
    stream (both use 32-bit bounded draws) in half the time and memory.
    """
    if n < 2**31:
        return rng.integers(0, n, size=(rows, n), dtype=np.uint32)
    return rng.choice(n, size=(rows, n), replace=True)


def _bootstrap_blocks(
    rng: np.random.Generator,
    stacked: AnyArray,
    n_samples: int,
    integer: bool,
    ticker: _Progress,
) -> Iterator[tuple[int, int, AnyArray]]:
    """The column sums of every bootstrap resample of ``stacked`` ``(n, W)``, a block of
    resamples at a time (``start``, ``stop``, sums): float32 sums equal to sacreBLEU's for
    integer statistics, float64 sums otherwise."""
    n, width = stacked.shape
    block = _bootstrap_block_rows(n)
    if not integer:
        pieces = _Pieces.of(stacked.astype(np.float64))
        counts = np.zeros((block, pieces.padded), dtype=np.float64)
        for start, stop in _blocks(n_samples, block):
            idx = _draw_indices(rng, stop - start, n)
            _fill_counts(counts, idx, n)
            yield start, stop, pieces.product(counts[: stop - start])
            ticker.step()
        return

    as32 = stacked.astype(np.float32)  # what sacreBLEU resamples
    nonnegative = bool((stacked >= 0).all())
    if nonnegative:
        # Non-negative terms: a float32 product below 2**24 is exact (every partial sum is).
        pieces = _Pieces.of(as32)
        check_from = 0
    else:
        as64 = as32.astype(np.float64)
        pieces = _Pieces.of(np.hstack([as64, np.abs(as64)]))
        check_from = width
    counts = np.zeros((block, pieces.padded), dtype=pieces.right.dtype)
    for start, stop in _blocks(n_samples, block):
        m = stop - start
        idx = _draw_indices(rng, m, n)
        _fill_counts(counts, idx, n)
        sums = pieces.product(counts[:m])
        out = np.array(sums[:, :width], dtype=np.float32)
        inexact = np.flatnonzero((sums[:, check_from:] >= _FLOAT32_EXACT).any(axis=1))
        for r in inexact.tolist():
            # sacreBLEU's own float32 sum of this resample (rounding and all).
            out[r] = as32[idx[r]].sum(0)
        yield start, stop, out
        ticker.step()


def _bootstrap_sums(
    rng: np.random.Generator,
    stacked: AnyArray,
    n_samples: int,
    integer: bool,
    ticker: _Progress,
) -> AnyArray:
    """Every resample's sums in one array (:func:`_bootstrap_blocks` joined), for comparing
    the arithmetic with sacreBLEU's own sums (the paired tests score a block at a time)."""
    return np.concatenate(
        [sums for _, _, sums in _bootstrap_blocks(rng, stacked, n_samples, integer, ticker)]
    )


def _bootstrap_scores(
    rng: np.random.Generator,
    stacked: AnyArray,
    n_samples: int,
    integer: bool,
    ticker: _Progress,
    score: ScoreFunction,
    count: int,
    width: int,
) -> list[AnyArray]:
    """Each of the ``count`` systems' corpus score on every bootstrap resample of ``stacked``
    (``count`` systems' statistics side by side, ``width`` columns each). Each block of
    resamples is scored as it is drawn: memory holds the scores, never every resample's sums,
    whatever the number of resamples."""
    out: list[AnyArray] = []
    for start, stop, sums in _bootstrap_blocks(rng, stacked, n_samples, integer, ticker):
        scores = _split_scores(score, sums, count, width)
        if not out:
            out = [np.empty(n_samples, dtype=values.dtype) for values in scores]
        for target, values in zip(out, scores, strict=True):
            target[start:stop] = values
    return out


def _fill_counts(counts: AnyArray, idx: AnyArray, n: int) -> None:
    """``counts[r, j]`` = how often row ``j`` was drawn in resample ``r`` of ``idx``."""
    for r in range(idx.shape[0]):
        counts[r, :n] = np.bincount(idx[r], minlength=n)


@dataclass(frozen=True, slots=True)
class _Pieces:
    """The right side of products ``left @ right``, cut along the inner axis into pieces of at
    most :data:`_PRODUCT_SIZE` multiply-adds per :data:`_PRODUCT_ROWS` rows of ``left``."""

    right: AnyArray  # (pieces, step, columns), zero rows past the end
    padded: int  # pieces * step: the inner length ``left`` must have (zeros past the end)

    @classmethod
    def of(cls, right: AnyArray) -> _Pieces:
        inner, columns = right.shape
        step = min(inner, max(16, _PRODUCT_SIZE // (_PRODUCT_ROWS * columns)))
        count = -(-inner // step)
        padded = np.zeros((count * step, columns), dtype=right.dtype)
        padded[:inner] = right
        return cls(padded.reshape(count, step, columns), count * step)

    def product(self, left: AnyArray) -> AnyArray:
        """``left @ right`` for a C-contiguous ``left`` of shape ``(rows, padded)``, summed in
        ``left``'s dtype (exact for the whole numbers summed here while they stay exact)."""
        count, step, columns = self.right.shape
        rows = left.shape[0]
        out = np.empty((rows, columns), dtype=left.dtype)
        for first, last in _blocks(rows, _PRODUCT_ROWS):
            stacked = left[first:last].reshape(last - first, count, step).transpose(1, 0, 2)
            np.sum(np.matmul(stacked, self.right), axis=0, out=out[first:last])
        return out


def _ar_block_rows(n: int) -> int:
    # A multiple of 32 rows holds a whole number of 32-bit words of booleans.
    return 32 * max(1, min(32, _BLOCK_ELEMENTS // (32 * n)))


def _n_ar_blocks(n_trials: int, n: int) -> int:
    return -(-n_trials // _ar_block_rows(n))


def _ar_blocks(
    rng: np.random.Generator,
    stacked: AnyArray,
    n_trials: int,
    integer: bool,
    ticker: _Progress,
) -> Iterator[AnyArray]:
    """``pos_sel @ stacked`` for sacreBLEU's ``pos_sel = rng.integers(2, size=(n_trials, n),
    dtype=bool)``, a block of trials at a time: int64 for integer statistics, float64
    otherwise."""
    n = stacked.shape[0]
    block = _ar_block_rows(n)
    exact32 = integer and bool((np.abs(stacked).sum(axis=0) < _FLOAT32_EXACT).all())
    dtype = np.float32 if exact32 else np.float64
    pieces = _Pieces.of(stacked.astype(dtype))
    selected = np.zeros((block, pieces.padded), dtype=dtype)
    for start, stop in _blocks(n_trials, block):
        m = stop - start
        n_bits = m * n
        words = rng.integers(0, 2**32, size=-(-n_bits // 32), dtype=np.uint32)
        # Boolean k of the block is bit k % 32 of word k // 32, lowest bit first.
        bits = np.unpackbits(
            words.astype("<u4", copy=False).view(np.uint8), count=n_bits, bitorder="little"
        )
        np.copyto(selected[:m, :n], bits.reshape(m, n))
        out = pieces.product(selected[:m])
        yield np.rint(out).astype(np.int64) if integer else out
        ticker.step()


def _ar_selected_sums(
    rng: np.random.Generator,
    stacked: AnyArray,
    n_trials: int,
    integer: bool,
    ticker: _Progress,
) -> AnyArray:
    """Every trial's sums in one array (:func:`_ar_blocks` joined), for comparing the
    arithmetic with sacreBLEU's own sums (the paired tests count a block at a time)."""
    return np.concatenate(list(_ar_blocks(rng, stacked, n_trials, integer, ticker)))


# -- the statistics sacreBLEU computes from the scores -----------------------------------------


def _corpus_score(score: ScoreFunction, stats: AnyArray) -> float:
    # Each column summed as one contiguous row: numpy's pairwise sum, as np.mean of a column
    # (exact for integers either way), so a mean's figure equals the table's.
    total = np.ascontiguousarray(stats.T).sum(axis=1)
    value = np.asarray(score(total[None, :]))
    if value.shape != (1,):
        raise ValueError(f"the score function must return one score per row, got {value.shape}")
    return float(value[0])


def _scores(score: ScoreFunction, sums: AnyArray) -> AnyArray:
    values = np.asarray(score(sums))
    if values.shape != (sums.shape[0],):
        raise ValueError(
            f"the score function must return shape ({sums.shape[0]},), not {values.shape}"
        )
    return values


def _estimate_ci(scores: AnyArray) -> tuple[float, float]:
    """sacreBLEU's ``estimate_ci``: mean of the sorted scores and half the central 95% range."""
    ordered = np.sort(scores)
    n = len(ordered)
    lower = n // 40
    upper = n - lower - 1
    return float(ordered.mean()), float(0.5 * (ordered[upper] - ordered[lower]))


def _p_value(statistics: AnyArray, real_difference: float) -> float:
    """sacreBLEU's ``_compute_p_value``: the "+1" estimate of P(statistic > observed)."""
    count = int(np.sum(statistics > real_difference))
    return (count + 1) / (len(statistics) + 1)


def _bs_p_value(base: AnyArray, other: AnyArray, real_difference: float) -> float:
    sample_diffs = np.abs(other - base)
    return _p_value(sample_diffs - sample_diffs.mean(), real_difference)


def _ar_exceed(scores_a: AnyArray, scores_b: AnyArray, real_difference: float) -> int:
    """How many trials' statistics exceed the observed difference (sacreBLEU's count)."""
    return int(np.sum(np.abs(scores_a - scores_b) > real_difference))


def _ar_p(exceeding: int, n_trials: int) -> float:
    """sacreBLEU's "+1" estimate from the count of :func:`_ar_exceed` over every trial."""
    return (exceeding + 1) / (n_trials + 1)


# -- the tests -----------------------------------------------------------------------------------


def _stacked(data: _Input, systems: Sequence[int]) -> AnyArray:
    return np.hstack([data.stats[i] for i in systems])


def _differences(data: _Input) -> AnyArray:
    """Every other system's statistics minus the baseline's, side by side."""
    base = data.stats[0]
    return np.hstack([data.stats[i] - base for i in range(1, len(data.stats))])


def _split_scores(score: ScoreFunction, sums: AnyArray, count: int, width: int) -> list[AnyArray]:
    return [_scores(score, sums[:, i * width : (i + 1) * width]) for i in range(count)]


def paired_bootstrap(
    stats: Sequence[npt.ArrayLike],
    score: ScoreFunction,
    *,
    names: Sequence[str],
    n_samples: int = DEFAULT_BOOTSTRAP_SAMPLES,
    seed: int | None = DEFAULT_SEED,
    rows: npt.ArrayLike | None = None,
    cancel: Callable[[], bool] | None = None,
    progress: Callable[[float], None] | None = None,
) -> SignificanceResult:
    """sacreBLEU's paired bootstrap resampling test (``--paired-bs``) of every system against
    ``stats[0]``, on per-segment statistics.

    ``stats[i]`` is system ``i``'s ``(n_segments, K)`` additive statistics, ``score`` maps
    summed statistics ``(m, K)`` to ``m`` scores, ``rows`` (indices or a boolean mask) picks
    the segments to test. Every system is resampled with the same ``n_samples`` index rows.
    ``cancel`` is polled between blocks of resamples (raising :class:`SignificanceCancelled`);
    ``progress`` receives the fraction done.
    """
    data = _prepare(stats, names, rows)
    n_samples = _check_count(n_samples, "n_samples")
    used = _seed_used(seed)
    actual = [_corpus_score(score, s) for s in data.stats]
    ticker = _Progress(cancel, progress)
    ticker.add(_n_bootstrap_blocks(n_samples, data.n))
    count = len(data.stats)
    resampled = _bootstrap_scores(
        np.random.default_rng(used),
        _stacked(data, range(count)),
        n_samples,
        data.integer,
        ticker,
        score,
        count,
        data.width,
    )
    results = []
    for i in range(count):
        mean, ci = _estimate_ci(resampled[i])
        p = None
        if i > 0:
            p = _bs_p_value(resampled[0], resampled[i], abs(actual[0] - actual[i]))
        results.append(SystemSignificance(data.names[i], actual[i], mean, ci, p))
    return SignificanceResult("bs", n_samples, n_samples, seed, used, data.n, tuple(results))


def paired_approximate_randomization(
    stats: Sequence[npt.ArrayLike],
    score: ScoreFunction,
    *,
    names: Sequence[str],
    n_samples: int = DEFAULT_AR_TRIALS,
    seed: int | None = DEFAULT_SEED,
    confidence_samples: int | None = None,
    rows: npt.ArrayLike | None = None,
    cancel: Callable[[], bool] | None = None,
    progress: Callable[[float], None] | None = None,
) -> SignificanceResult:
    """sacreBLEU's paired approximate randomization test (``--paired-ar``) of every system
    against ``stats[0]``; arguments as :func:`paired_bootstrap`, ``n_samples`` being trials.

    ``confidence_samples`` adds bootstrap means and confidence intervals, as sacreBLEU's
    ``n_ar_confidence`` does (its command line never does): the systems' resamples continue
    the trials' random stream, the baseline's start a fresh one from the same seed, as there.
    """
    data = _prepare(stats, names, rows)
    n_samples = _check_count(n_samples, "n_samples")
    if confidence_samples is not None:
        confidence_samples = _check_count(confidence_samples, "confidence_samples")
    used = _seed_used(seed)
    count = len(data.stats)
    actual = [_corpus_score(score, s) for s in data.stats]
    ticker = _Progress(cancel, progress)
    ticker.add(_n_ar_blocks(n_samples, data.n))
    if confidence_samples is not None:
        ticker.add(2 * _n_bootstrap_blocks(confidence_samples, data.n))
    rng = np.random.default_rng(used)
    totals = [s.sum(axis=0) for s in data.stats]
    width = data.width
    exceeding = [0] * count
    # pos_sel @ (system - baseline): sacreBLEU's shuffled sums follow from it and the totals;
    # the trials are counted a block at a time, never all held.
    for selected in _ar_blocks(rng, _differences(data), n_samples, data.integer, ticker):
        for i in range(1, count):
            moved = selected[:, (i - 1) * width : i * width]
            shuffled_a = totals[i] - moved  # pos_sel @ baseline + neg_sel @ system
            shuffled_b = totals[0] + moved  # neg_sel @ baseline + pos_sel @ system
            exceeding[i] += _ar_exceed(
                _scores(score, shuffled_a), _scores(score, shuffled_b), abs(actual[0] - actual[i])
            )
    p_values: list[float | None] = [None]
    p_values += [_ar_p(exceeding[i], n_samples) for i in range(1, count)]
    means: list[float | None] = [None] * count
    cis: list[float | None] = [None] * count
    if confidence_samples is not None:
        systems = _bootstrap_scores(
            rng,
            _stacked(data, range(1, count)),
            confidence_samples,
            data.integer,
            ticker,
            score,
            count - 1,
            width,
        )
        (baseline,) = _bootstrap_scores(
            np.random.default_rng(used),
            data.stats[0],
            confidence_samples,
            data.integer,
            ticker,
            score,
            1,
            width,
        )
        resampled = [baseline, *systems]
        for i, values in enumerate(resampled):
            means[i], cis[i] = _estimate_ci(values)
    results = tuple(
        SystemSignificance(data.names[i], actual[i], means[i], cis[i], p_values[i])
        for i in range(count)
    )
    return SignificanceResult("ar", n_samples, confidence_samples, seed, used, data.n, results)


def pairwise_significance(
    stats: Sequence[npt.ArrayLike],
    score: ScoreFunction,
    *,
    names: Sequence[str],
    test: TestKind = "bs",
    n_samples: int | None = None,
    seed: int | None = DEFAULT_SEED,
    rows: npt.ArrayLike | None = None,
    cancel: Callable[[], bool] | None = None,
    progress: Callable[[float], None] | None = None,
) -> PairwiseSignificance:
    """Every pair of systems tested against each other, all with the same random draws.

    Entry ``(i, j)`` equals the p-value of :func:`paired_bootstrap` (``test="bs"``) or
    :func:`paired_approximate_randomization` (``"ar"``) with baseline ``i`` and system ``j``.
    ``n_samples`` defaults to sacreBLEU's (1,000 resamples, 10,000 trials).

    A matrix of N systems makes N(N-1)/2 tests: at p < 0.05 about one pair in twenty looks
    significant by chance alone, so many pairwise tests inflate false positives. Use a
    correction (Bonferroni: compare with 0.05 / number of pairs) or test against one baseline.
    """
    if test not in ("bs", "ar"):
        raise ValueError(f"test must be 'bs' or 'ar', not {test!r}")
    data = _prepare(stats, names, rows)
    default = DEFAULT_BOOTSTRAP_SAMPLES if test == "bs" else DEFAULT_AR_TRIALS
    n_samples = _check_count(default if n_samples is None else n_samples, "n_samples")
    used = _seed_used(seed)
    count = len(data.stats)
    width = data.width
    ticker = _Progress(cancel, progress)
    rng = np.random.default_rng(used)
    actual = [_corpus_score(score, s) for s in data.stats]
    matrix: list[list[float | None]] = [[None] * count for _ in range(count)]
    means: list[float | None] = [None] * count
    cis: list[float | None] = [None] * count
    if test == "bs":
        ticker.add(_n_bootstrap_blocks(n_samples, data.n))
        stacked = _stacked(data, range(count))
        resampled = _bootstrap_scores(
            rng, stacked, n_samples, data.integer, ticker, score, count, width
        )
        for i in range(count):
            means[i], cis[i] = _estimate_ci(resampled[i])
        for i in range(count):
            for j in range(i + 1, count):
                p = _bs_p_value(resampled[i], resampled[j], abs(actual[i] - actual[j]))
                matrix[i][j] = matrix[j][i] = p
    else:
        ticker.add(_n_ar_blocks(n_samples, data.n))
        totals = [s.sum(axis=0) for s in data.stats]
        exceeding = [[0] * count for _ in range(count)]
        for selected in _ar_blocks(rng, _differences(data), n_samples, data.integer, ticker):
            # parts[i] = pos_sel @ (system i - system 0); differences of parts are what matter.
            parts = [np.zeros_like(selected[:, :width])]
            parts += [selected[:, i * width : (i + 1) * width] for i in range(count - 1)]
            for i in range(count):
                for j in range(i + 1, count):
                    shuffled_a = totals[j] + (parts[i] - parts[j])
                    shuffled_b = totals[i] + (parts[j] - parts[i])
                    exceeding[i][j] += _ar_exceed(
                        _scores(score, shuffled_a),
                        _scores(score, shuffled_b),
                        abs(actual[i] - actual[j]),
                    )
        for i in range(count):
            for j in range(i + 1, count):
                matrix[i][j] = matrix[j][i] = _ar_p(exceeding[i][j], n_samples)
    return PairwiseSignificance(
        test,
        n_samples,
        seed,
        used,
        data.n,
        data.names,
        tuple(actual),
        tuple(means),
        tuple(cis),
        tuple(tuple(row) for row in matrix),
    )
