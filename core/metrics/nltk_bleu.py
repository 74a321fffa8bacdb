"""BLEU as NLTK computes it (``nltk.translate.bleu_score``), on tokenized input.

NLTK's BLEU differs from sacrebleu's: precisions are fractions whose denominator is at least 1
per segment, the score is on a 0-1 scale, any weights are allowed, and smoothing follows
Chen & Cherry (2014) methods 0-7. This module reproduces NLTK's values (NLTK 3.8-3.10),
including its quirks, without calling NLTK and without its warnings.

Statistics are additive as for :mod:`core.metrics.bleu` (the same clipped matches, counted by
the same code), and NLTK's corpus BLEU is a function of their sum. One NLTK quirk needs more
than sums: at corpus level, smoothing methods 5, 6 and 7 look at the *last* segment of the
corpus (its hypothesis length and 5-gram precision). So :class:`NltkStats` also carries those
two values of its last segment; ``+`` keeps the right operand's, which is associative and makes
``sum(stats)`` reproduce NLTK exactly.
"""

from __future__ import annotations

import math
import operator
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, cast, overload

import numpy as np
import numpy.typing as npt

from matchlight.core.metrics.base import (
    Block,
    ChunkText,
    CorpusView,
    HighlightMode,
    Metric,
    MetricChunk,
    MetricCorpus,
    MetricRowDetail,
    MetricSettings,
    Run,
    ScoreColumn,
)
from matchlight.core.metrics.bleu import chunk_stats
from matchlight.core.metrics.bleudetail import TokenMatches, match_row
from matchlight.core.metrics.nltkoptions import (
    METHOD5_ORDER,
    NLTK_BLEU_OPTIONS,
    NLTK_SMOOTHING,
    NltkBleuSettings,
)
from matchlight.core.metrics.signature import format_signature

__all__ = [
    "NLTK_DEFAULT_WEIGHTS",
    "NltkBleuMetric",
    "NltkStats",
    "nltk_bleu_from_stats",
]

#: NLTK's default weights (BLEU-4).
NLTK_DEFAULT_WEIGHTS: tuple[float, ...] = (0.25, 0.25, 0.25, 0.25)

Precision = Fraction | float
Weights = Sequence[float] | Sequence[Sequence[float]]


@dataclass(frozen=True, slots=True)
class NltkStats:
    """Additive statistics of NLTK's BLEU for one segment or a sum of segments.

    ``numerators[n - 1]`` is the number of clipped matching n-grams and ``denominators[n - 1]``
    the number of hypothesis n-grams but at least 1 per segment (as NLTK's
    ``modified_precision``). ``ref_len`` is the closest reference length. ``last_hyp_len`` and
    ``last_p5`` (the 5-gram numerator and denominator) belong to the last segment summed and
    are only used by smoothing methods 5-7; ``segments`` counts the segments.
    """

    hyp_len: int
    ref_len: int
    numerators: tuple[int, ...]
    denominators: tuple[int, ...]
    segments: int = 1
    last_hyp_len: int = 0
    last_p5: tuple[int, int] = (0, 1)

    @property
    def max_order(self) -> int:
        """The highest n-gram order these statistics cover."""
        return len(self.numerators)

    @classmethod
    def zero(cls, max_order: int = 4) -> NltkStats:
        """The neutral element of ``+`` (zero segments)."""
        if isinstance(max_order, bool) or not isinstance(max_order, int) or max_order < 1:
            raise ValueError(f"max_order must be a positive integer, got {max_order!r}")
        zeros = (0,) * max_order
        return cls(0, 0, zeros, zeros, segments=0)

    def __add__(self, other: NltkStats) -> NltkStats:
        if not isinstance(other, NltkStats):
            return NotImplemented
        if len(other.numerators) != len(self.numerators):
            raise ValueError(
                f"cannot add NLTK BLEU statistics of max order {len(self.numerators)} "
                f"and {len(other.numerators)}"
            )
        last = other if other.segments else self
        return NltkStats(
            self.hyp_len + other.hyp_len,
            self.ref_len + other.ref_len,
            tuple(map(operator.add, self.numerators, other.numerators)),
            tuple(map(operator.add, self.denominators, other.denominators)),
            self.segments + other.segments,
            last.last_hyp_len,
            last.last_p5,
        )

    def __radd__(self, other: object) -> NltkStats:
        # Lets the built-in sum() start from its default 0.
        if isinstance(other, int) and not isinstance(other, bool) and other == 0:
            return self
        return NotImplemented


def _weight_sets(weights: Weights) -> list[Sequence[float]]:
    """One or several weight tuples, told apart exactly as NLTK does."""
    try:
        weights[0][0]  # type: ignore[index]
    except (TypeError, IndexError):
        sets = [cast("Sequence[float]", weights)]
    else:
        sets = list(cast("Sequence[Sequence[float]]", weights))
    if not sets or any(len(weight) == 0 for weight in sets):
        raise ValueError(f"weights must be one or more non-empty weight tuples, got {weights!r}")
    return sets


def _method4(
    nums: Sequence[int], dens: Sequence[int], p_n: list[Precision], hyp_len: int, k: float
) -> None:
    # Smaller smoothed counts for shorter hypotheses: 1 / (2**i * k / ln(hyp_len)).
    incvnt = 1
    for i, num in enumerate(nums):
        if num == 0 and hyp_len > 1:
            p_n[i] = 1 / (2**incvnt * k / math.log(hyp_len)) / dens[i]
            incvnt += 1


def _method5(p_n: list[Precision], last_p5: tuple[int, int]) -> None:
    # Average of the (already smoothed) n-1, n and n+1 precisions; the one after the last
    # order is always the last segment's 5-gram precision, as in NLTK.
    following = [*p_n, Fraction(*last_p5)]
    previous: Precision = p_n[0] + 1
    for i, p_i in enumerate(p_n):
        previous = (previous + p_i + following[i + 1]) / 3
        p_n[i] = previous


def _smoothed_precisions(
    stats: NltkStats,
    order: int,
    smoothing: str,
    *,
    epsilon: float,
    alpha: float,
    k: float,
) -> list[Precision]:
    """The precisions NLTK's ``SmoothingFunction().<smoothing>`` hands to the geometric mean.

    Values stay exact fractions exactly where NLTK keeps ``Fraction`` objects and become floats
    where NLTK's arithmetic does, so the results are bit-identical.
    """
    nums = stats.numerators[:order]
    dens = stats.denominators[:order]
    if smoothing in ("method5", "method6", "method7"):
        p_n: list[Precision] = [Fraction(n, d) for n, d in zip(nums, dens, strict=True)]
    else:
        # Only logged and compared with 0: float(Fraction(n, d)) is exactly n / d.
        p_n = [n / d for n, d in zip(nums, dens, strict=True)]

    if smoothing == "method0":
        # NLTK warns and uses the smallest float for a zero count, so the score becomes tiny
        # but not zero.
        return [p if n else sys.float_info.min for p, n in zip(p_n, nums, strict=True)]
    if smoothing == "method1":
        return [(n + epsilon) / d if n == 0 else p for p, n, d in zip(p_n, nums, dens, strict=True)]
    if smoothing == "method2":
        # Add 1 to numerator and denominator of every order but the first.
        return [p_n[0]] + [(n + 1) / (d + 1) for n, d in zip(nums[1:], dens[1:], strict=True)]
    if smoothing == "method3":
        incvnt = 1
        for i, num in enumerate(nums):
            if num == 0:
                p_n[i] = 1 / (2**incvnt * dens[i])
                incvnt += 1
        return p_n
    if smoothing == "method4":
        _method4(nums, dens, p_n, stats.hyp_len, k)
        return p_n
    if smoothing == "method5":
        _method5(p_n, stats.last_p5)
        return p_n
    if smoothing == "method7":
        _method4(nums, dens, p_n, stats.hyp_len, k)
        _method5(p_n, stats.last_p5)
        return p_n
    # method6: interpolate with a prior that assumes p_n / p_(n-1) == p_(n-1) / p_(n-2).
    if not alpha > 0:
        # With alpha > 0 no interpolated precision is 0, which NLTK's unnormalised Fractions
        # would compare wrongly with 0 (Python < 3.12).
        raise ValueError(f"smoothing method6 needs a positive alpha, got {alpha!r}")
    if order < 3 or nums[2] == 0:
        raise ValueError(
            "smoothing method6 needs at least 3 n-gram orders and a non-zero trigram "
            "precision (NLTK fails with an IndexError or AssertionError here)"
        )
    for i in range(2, order):
        pi0: Precision = 0 if p_n[i - 2] == 0 else p_n[i - 1] ** 2 / p_n[i - 2]
        # NLTK counts the (i+1)-grams of the last hypothesis, not of the whole corpus.
        ngram_count = max(0, stats.last_hyp_len - i)
        p_n[i] = (nums[i] + alpha * pi0) / (ngram_count + alpha)
    return p_n


@overload
def nltk_bleu_from_stats(
    stats: NltkStats,
    *,
    weights: Sequence[float] = ...,
    smoothing: str = ...,
    auto_reweigh: bool = ...,
    epsilon: float = ...,
    alpha: float = ...,
    k: float = ...,
) -> float: ...


@overload
def nltk_bleu_from_stats(
    stats: NltkStats,
    *,
    weights: Sequence[Sequence[float]],
    smoothing: str = ...,
    auto_reweigh: bool = ...,
    epsilon: float = ...,
    alpha: float = ...,
    k: float = ...,
) -> float | list[float]: ...


def nltk_bleu_from_stats(
    stats: NltkStats,
    *,
    weights: Weights = NLTK_DEFAULT_WEIGHTS,
    smoothing: str = "method0",
    auto_reweigh: bool = False,
    epsilon: float = 0.1,
    alpha: float = 5,
    k: float = 5,
) -> float | list[float]:
    """NLTK's BLEU (0-1) from (summed) statistics: a pure function of ``stats``.

    ``weights`` is one weight tuple, or a sequence of them, in which case a list of scores is
    returned (a single float if the sequence holds one tuple, as NLTK). ``smoothing`` names one
    of :data:`NLTK_SMOOTHING`; ``epsilon``, ``alpha`` and ``k`` are ``SmoothingFunction``'s
    parameters with its defaults. With ``auto_reweigh``, a corpus of fewer than 4 hypothesis
    tokens scored with exactly the tuple ``(0.25, 0.25, 0.25, 0.25)`` uses uniform weights over
    its length instead (NLTK compares with a tuple, so a list of weights is never re-weighted).
    """
    if smoothing not in NLTK_SMOOTHING:
        known = ", ".join(NLTK_SMOOTHING)
        raise ValueError(f"unknown NLTK smoothing {smoothing!r}; expected one of: {known}")
    weight_sets = _weight_sets(weights)
    order = max(len(weight) for weight in weight_sets)
    if order > stats.max_order:
        raise ValueError(
            f"weights cover {order} n-gram orders but the statistics only {stats.max_order}"
        )
    if stats.segments < 1:
        raise ValueError("NLTK BLEU needs at least one segment")

    if stats.numerators[0] == 0:
        # No matching unigram: NLTK returns 0 before smoothing.
        return 0.0 if len(weight_sets) == 1 else [0.0] * len(weight_sets)

    hyp_len = stats.hyp_len
    ref_len = stats.ref_len
    bp: float = 1.0
    if hyp_len <= ref_len:
        bp = math.exp(1 - ref_len / hyp_len)  # hyp_len > 0: a unigram matched
    p_n = _smoothed_precisions(stats, order, smoothing, epsilon=epsilon, alpha=alpha, k=k)

    scores = []
    for weight in weight_sets:
        if auto_reweigh and hyp_len < 4 and weight == (0.25, 0.25, 0.25, 0.25):
            weight = (1 / hyp_len,) * hyp_len
        log_sum = math.fsum(w * math.log(p) for w, p in zip(weight, p_n, strict=False) if p > 0)
        scores.append(bp * math.exp(log_sum))
    return scores[0] if len(weight_sets) == 1 else scores


# -- describing NLTK's BLEU to the rest of Matchlight -------------------------------------------

FloatArray = npt.NDArray[np.float64]


def _segment_stats(
    s: NltkBleuSettings, hyp_len: int, ref_len: int, matches: Sequence[int], totals: Sequence[int]
) -> NltkStats:
    """One segment's :class:`NltkStats` from the clipped counts of orders ``1..counted_order``."""
    order = s.max_order
    return NltkStats(
        hyp_len=hyp_len,
        ref_len=ref_len,
        numerators=tuple(matches[:order]),
        denominators=tuple([max(1, total) for total in totals[:order]]),
        segments=1,
        last_hyp_len=hyp_len,
        last_p5=(matches[METHOD5_ORDER - 1], max(1, totals[METHOD5_ORDER - 1])),
    )


def _score(s: NltkBleuSettings, stats: NltkStats) -> float:
    """NLTK's BLEU on the 0-100 scale; NaN where NLTK itself fails (method6 on short text)."""
    try:
        return 100.0 * nltk_bleu_from_stats(stats, weights=s.weights, smoothing=s.smoothing)
    except ValueError:
        return math.nan


def nltk_block(s: NltkBleuSettings, stats: NltkStats, value: float) -> Block:
    """The "why this score" block: NLTK's precisions after its smoothing, and its BP."""
    rows = []
    try:
        precisions: list[float] | None = [
            float(p)
            for p in _smoothed_precisions(
                stats, s.max_order, s.smoothing, epsilon=0.1, alpha=5, k=5
            )
        ]
    except ValueError as error:
        precisions = None
        failure = str(error)
    for n in range(s.max_order):
        num, den = stats.numerators[n], stats.denominators[n]
        shown = "—" if precisions is None else f"{100 * precisions[n]:.2f}"
        rows.append((f"{n + 1}-gram", f"{num}/{den}", shown))
    if stats.hyp_len <= stats.ref_len and stats.hyp_len:
        bp = math.exp(1 - stats.ref_len / stats.hyp_len)
    else:
        bp = 1.0 if stats.hyp_len else 0.0
    lines: list[tuple[Run, ...]] = [
        (Run(f"BP = {bp:.4f} (c = {stats.hyp_len}, r = {stats.ref_len}; NLTK: c ≤ r)"),),
        (Run(f"smoothing: {s.smoothing}, weights: uniform over {s.max_order} orders"),),
    ]
    if precisions is None:
        lines.append((Run(f"NLTK fails here: {failure}", italic=True),))
    elif stats.numerators[0] == 0:
        note = "no unigram matches: NLTK returns 0 before smoothing"
        lines.append((Run(note, italic=True),))
    lines.append(
        (Run("NLTK BLEU = "), Run("—" if math.isnan(value) else f"{value:.2f}", bold=True))
    )
    return Block(
        title=(Run("NLTK BLEU", bold=True), Run(f" (tokens: {s.tokenize})")),
        header=("order", "matched/total", "precision"),
        rows=tuple(rows),
        right=(False, True, True),
        lines=tuple(lines),
        min_text="c = 000 output tokens, r = 000 reference tokens",
    )


class NltkRowDetail(MetricRowDetail):
    metric = "nltk_bleu"

    def __init__(self, settings: NltkBleuSettings, matches: TokenMatches) -> None:
        self._settings = settings
        self._stats = [
            _segment_stats(
                settings, d.stats.hyp_len, d.stats.ref_len, d.stats.matches, d.stats.totals
            )
            for d in matches.details
        ]
        self._values = [_score(settings, stats) for stats in self._stats]
        (mode,) = NltkBleuMetric().highlight_modes(settings)
        self.layers = (matches.layer(key=mode.key, label=mode.label, max_level=mode.max_level),)

    def values(self, system: int) -> dict[str, float]:
        return {"nltk_bleu": self._values[system]}

    def breakdown(self, system: int, reference_names: Sequence[str]) -> tuple[Block, ...]:
        return (nltk_block(self._settings, self._stats[system], self._values[system]),)


class NltkBleuMetric(Metric):
    """NLTK's ``sentence_bleu`` per segment and ``corpus_bleu`` over the corpus."""

    key = NLTK_BLEU_OPTIONS.key
    label = NLTK_BLEU_OPTIONS.label
    description = (
        "NLTK's sentence_bleu per segment and corpus_bleu over the corpus (uniform weights), "
        "reproduced exactly, on the 0-100 scale"
    )
    settings_type = NLTK_BLEU_OPTIONS.settings_type
    running = False  # NLTK's corpus smoothing looks at the last segment

    def columns(self, settings: MetricSettings) -> tuple[ScoreColumn, ...]:
        return (
            ScoreColumn(
                "nltk_bleu",
                "NLTK-BLEU",
                "NLTK",
                self.key,
                "NLTK's sentence_bleu (0-100); the corpus figure is NLTK's corpus_bleu",
                corpus="stats",
                primary=True,
            ),
        )

    def stat_shapes(self, settings: MetricSettings) -> dict[str, tuple[int, ...]]:
        order = cast(NltkBleuSettings, settings).max_order
        return {
            "hyp_len": (),
            "ref_len": (),
            "numerators": (order,),
            "denominators": (order,),
            "p5": (2,),
        }

    def highlight_modes(self, settings: MetricSettings) -> tuple[HighlightMode, ...]:
        order = cast(NltkBleuSettings, settings).max_order
        return (HighlightMode("nltk", "NLTK-BLEU n-grams", order),)

    def signature(
        self, settings: MetricSettings, *, nrefs: int, separator: str | None = None
    ) -> str:
        s = cast(NltkBleuSettings, settings)
        return format_signature(
            [
                ("nrefs", nrefs),
                ("case", "lc" if s.lowercase else "mixed"),
                ("tok", s.tokenize),
                ("smooth", s.smoothing),
                ("weights", f"uniform-{s.max_order}"),
                ("version", f"nltk-{_nltk_version()}"),
            ]
        )

    def chunk_scorer(self, settings: MetricSettings) -> Callable[[ChunkText], MetricChunk]:
        s = cast(NltkBleuSettings, settings)
        tokenizer = s.tokenizer()
        order = s.max_order

        def score(chunk: ChunkText) -> MetricChunk:
            hyp_len, ref_len, matches, totals = chunk_stats(
                chunk.tokens(tokenizer), len(chunk.references), s.counted_order
            )
            scores = np.empty((*hyp_len.shape, 1))
            for system, row in np.ndindex(*hyp_len.shape):
                stats = _segment_stats(
                    s,
                    int(hyp_len[system, row]),
                    int(ref_len[system, row]),
                    matches[system, row].tolist(),
                    totals[system, row].tolist(),
                )
                scores[system, row, 0] = _score(s, stats)
            p5 = np.stack(
                (
                    matches[:, :, METHOD5_ORDER - 1],
                    np.maximum(totals[:, :, METHOD5_ORDER - 1], 1),
                ),
                axis=-1,
            )
            return MetricChunk(
                scores=scores,
                stats={
                    "hyp_len": hyp_len,
                    "ref_len": ref_len,
                    "numerators": np.ascontiguousarray(matches[:, :, :order]),
                    "denominators": np.maximum(totals[:, :, :order], 1),
                    "p5": p5,
                },
            )

        return score

    def corpus(self, settings: MetricSettings, view: CorpusView) -> MetricCorpus:
        s = cast(NltkBleuSettings, settings)
        if not view.count:
            return MetricCorpus(values={"nltk_bleu": math.nan})
        p5 = view.last("p5")
        stats = NltkStats(
            hyp_len=int(view.sum("hyp_len")),
            ref_len=int(view.sum("ref_len")),
            numerators=tuple(int(x) for x in view.sum("numerators")),
            denominators=tuple(int(x) for x in view.sum("denominators")),
            segments=view.count,
            last_hyp_len=int(view.last("hyp_len")),
            last_p5=(int(p5[0]), int(p5[1])),
        )
        return MetricCorpus(values={"nltk_bleu": _score(s, stats)}, detail=stats)

    def additive(
        self, settings: MetricSettings, stats: Mapping[str, Any]
    ) -> tuple[npt.NDArray[np.int64], Callable[[Any], FloatArray]] | None:
        """``hyp_len, ref_len, numerators[1..N], denominators[1..N], segments`` and NLTK's corpus
        BLEU of their sums, under smoothing methods 0-4. Methods 5-7 also read the last
        segment, which a resample changes, so no sum gives them: None."""
        s = cast(NltkBleuSettings, settings)
        if s.smoothing in ("method5", "method6", "method7"):
            return None
        order = s.max_order
        width = 3 + 2 * order
        hyp = np.asarray(stats["hyp_len"], dtype=np.int64)
        parts = [
            hyp[..., None],
            np.asarray(stats["ref_len"], dtype=np.int64)[..., None],
            np.asarray(stats["numerators"], dtype=np.int64),
            np.asarray(stats["denominators"], dtype=np.int64),
            np.ones((*hyp.shape, 1), dtype=np.int64),
        ]
        table = np.concatenate(parts, axis=-1)

        def score(summed: Any) -> FloatArray:
            array = np.asarray(summed)
            if array.ndim != 2 or array.shape[1] != width:
                raise ValueError(
                    f"NLTK-BLEU takes summed statistics of shape (m, {width}), not {array.shape}"
                )
            out = np.empty(array.shape[0])
            # Whole numbers (float32 resample sums included), one NLTK corpus BLEU per row.
            for i, row in enumerate(array.astype(np.int64).tolist()):
                summed_stats = NltkStats(
                    hyp_len=row[0],
                    ref_len=row[1],
                    numerators=tuple(row[2 : 2 + order]),
                    denominators=tuple(row[2 + order : 2 + 2 * order]),
                    segments=row[-1],
                )
                out[i] = _score(s, summed_stats)
            return out

        return table, score

    def detailer(
        self, settings: MetricSettings, separator: str | None
    ) -> Callable[[Sequence[str], Sequence[str]], NltkRowDetail]:
        s = cast(NltkBleuSettings, settings)
        tokenizer = s.tokenizer()

        def detail(references: Sequence[str], outputs: Sequence[str]) -> NltkRowDetail:
            matches = match_row(
                tokenizer, references, outputs, max_order=s.counted_order, separator=separator
            )
            return NltkRowDetail(s, matches)

        return detail


def _nltk_version() -> str:
    """The installed NLTK's version (the one whose arithmetic the tests check)."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("nltk")
    except PackageNotFoundError:  # pragma: no cover - nltk is a dependency
        return "unknown"
