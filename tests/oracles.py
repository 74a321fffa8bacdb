"""Scalar reference implementations, kept only to cross-check the production code.

Production scores many rows at once in numpy (each metric's ``chunk_stats``/``chunk_scores``) and
highlights one row with the matcher of :mod:`core.metrics.matching`. The straightforward
one-segment versions below count n-grams with dictionaries, exactly as sacreBLEU and NLTK do,
and the tests check that the production paths agree with them (and with the libraries
themselves) on generated and real data.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from matchlight.core.metrics.bleu import BleuStats, _check_tokens, _closest_ref_len
from matchlight.core.metrics.bleuoptions import check_max_order
from matchlight.core.metrics.lcs import lcs_length
from matchlight.core.metrics.nltk_bleu import (
    NLTK_DEFAULT_WEIGHTS,
    NltkStats,
    Weights,
    _weight_sets,
    nltk_bleu_from_stats,
)
from matchlight.core.metrics.nltkoptions import METHOD5_ORDER
from matchlight.core.metrics.rouge import PreparedRef, RougeStats

#: An n-gram key: unigrams are the token itself, longer n-grams are tuples of tokens.
NgramKey = str | tuple[str, ...]


def _ngrams(tokens: Sequence[str], n: int) -> Iterable[NgramKey]:
    """The n-grams of ``tokens`` left to right, keyed as in :data:`NgramKey`."""
    if n == 1:
        return tokens
    return zip(*[tokens[i:] for i in range(n)], strict=False)


def _count(tokens: Sequence[str], n: int) -> dict[NgramKey, int]:
    """How often each n-gram occurs in ``tokens`` (a plain dict: measured faster than Counter,
    whose construction and copies cost more for segment-sized inputs)."""
    counts: dict[NgramKey, int] = {}
    get = counts.get
    for gram in _ngrams(tokens, n):
        counts[gram] = get(gram, 0) + 1
    return counts


@dataclass(frozen=True, slots=True, eq=False)
class RefNgrams:
    """The references of ONE segment, prepared once for scoring any number of hypotheses.

    Build it with :func:`prepare_refs`. ``counts[n - 1]`` maps every n-gram to its maximum count
    in any single reference; it is shared, so treat it as read-only.
    """

    max_order: int
    lengths: tuple[int, ...]
    counts: tuple[dict[NgramKey, int], ...]
    #: The reference tokens themselves, needed only by :func:`bleu_detail`.
    tokens: tuple[tuple[str, ...], ...]


def prepare_refs(references: Sequence[Sequence[str]], max_order: int = 4) -> RefNgrams:
    """Count the n-grams (orders ``1..max_order``) of one segment's references.

    Any number of references (at least one) is accepted; an empty reference has length 0 and
    no n-grams.
    """
    check_max_order(max_order)
    _check_tokens(references, "references")
    if len(references) == 0:
        raise ValueError("a segment needs at least one reference")
    for ref in references:
        _check_tokens(ref, "each reference")
    tokens = tuple(tuple(ref) for ref in references)
    counts: list[dict[NgramKey, int]] = []
    for n in range(1, max_order + 1):
        merged = _count(tokens[0], n)
        for ref in tokens[1:]:
            for gram, count in _count(ref, n).items():
                if count > merged.get(gram, 0):
                    merged[gram] = count
        counts.append(merged)
    return RefNgrams(
        max_order=max_order,
        lengths=tuple(len(ref) for ref in tokens),
        counts=tuple(counts),
        tokens=tokens,
    )


def bleu_stats(hypothesis: Sequence[str], refs: RefNgrams) -> BleuStats:
    """Clipped n-gram matches, n-gram totals and lengths of one hypothesis (the hot path).

    Each hypothesis n-gram counts at most as often as it occurs in any single reference.
    ``hypothesis`` must support slicing (a list or tuple of tokens).
    """
    _check_tokens(hypothesis, "hypothesis")
    hyp_len = len(hypothesis)
    max_order = refs.max_order
    matches = [0] * max_order
    totals = [0] * max_order
    counts = refs.counts
    # Consume a copy of the reference counts: each hit uses up one allowed occurrence. Measured
    # faster than counting the hypothesis n-grams and taking minima (Counter, set
    # intersections), and the shifted slices are reused from one order to the next.
    shifted: list[Sequence[str]] = []
    for n in range(1, min(max_order, hyp_len) + 1):
        shifted.append(hypothesis[n - 1 :])
        remaining = counts[n - 1].copy()
        get = remaining.get
        matched = 0
        for gram in hypothesis if n == 1 else zip(*shifted, strict=False):
            left = get(gram)
            if left:
                remaining[gram] = left - 1
                matched += 1
        matches[n - 1] = matched
        totals[n - 1] = hyp_len - n + 1
    return BleuStats(
        hyp_len, _closest_ref_len(hyp_len, refs.lengths), tuple(matches), tuple(totals)
    )


def nltk_stats_from_refs(hypothesis: Sequence[str], refs: RefNgrams, max_order: int) -> NltkStats:
    """:class:`NltkStats` of one hypothesis against already prepared references.

    ``refs`` must have been prepared with ``max_order >= max(max_order, 5)`` (5 for smoothing
    method 5); prepare them once and reuse them for every system.
    """
    if isinstance(max_order, bool) or not isinstance(max_order, int) or max_order < 1:
        raise ValueError(f"max_order must be a positive integer, got {max_order!r}")
    needed = max(max_order, METHOD5_ORDER)
    if refs.max_order < needed:
        raise ValueError(
            f"references were prepared up to order {refs.max_order}, "
            f"NLTK statistics of order {max_order} need order {needed}"
        )
    stats = bleu_stats(hypothesis, refs)
    # NLTK's clipping and closest reference length are sacrebleu's; only the denominators
    # differ: NLTK makes each segment's at least 1.
    return NltkStats(
        hyp_len=stats.hyp_len,
        ref_len=stats.ref_len,
        numerators=stats.matches[:max_order],
        denominators=tuple([max(1, total) for total in stats.totals[:max_order]]),
        segments=1,
        last_hyp_len=stats.hyp_len,
        last_p5=(
            stats.matches[METHOD5_ORDER - 1],
            max(1, stats.totals[METHOD5_ORDER - 1]),
        ),
    )


def nltk_stats(
    hypothesis: Sequence[str], references: Sequence[Sequence[str]], max_order: int
) -> NltkStats:
    """:class:`NltkStats` of one hypothesis against its references (at least one)."""
    if isinstance(max_order, bool) or not isinstance(max_order, int) or max_order < 1:
        raise ValueError(f"max_order must be a positive integer, got {max_order!r}")
    refs = prepare_refs(references, max(max_order, METHOD5_ORDER))
    return nltk_stats_from_refs(hypothesis, refs, max_order)


def _order_of(weights: Weights) -> int:
    return max(len(weight) for weight in _weight_sets(weights))


def nltk_sentence_bleu(
    *,
    hypothesis: Sequence[str],
    references: Sequence[Sequence[str]],
    weights: Weights = NLTK_DEFAULT_WEIGHTS,
    smoothing: str = "method0",
    auto_reweigh: bool = False,
    epsilon: float = 0.1,
    alpha: float = 5,
    k: float = 5,
) -> float | list[float]:
    """``nltk.translate.bleu_score.sentence_bleu(references, hypothesis, ...)`` (0-1)."""
    stats = nltk_stats(hypothesis, references, _order_of(weights))
    return nltk_bleu_from_stats(
        stats,
        weights=weights,
        smoothing=smoothing,
        auto_reweigh=auto_reweigh,
        epsilon=epsilon,
        alpha=alpha,
        k=k,
    )


def nltk_corpus_bleu(
    *,
    hypotheses: Sequence[Sequence[str]],
    list_of_references: Sequence[Sequence[Sequence[str]]],
    weights: Weights = NLTK_DEFAULT_WEIGHTS,
    smoothing: str = "method0",
    auto_reweigh: bool = False,
    epsilon: float = 0.1,
    alpha: float = 5,
    k: float = 5,
) -> float | list[float]:
    """``nltk.translate.bleu_score.corpus_bleu(list_of_references, hypotheses, ...)`` (0-1)."""
    if len(hypotheses) != len(list_of_references):
        raise ValueError(
            f"got {len(hypotheses)} hypotheses but {len(list_of_references)} reference sets"
        )
    if len(hypotheses) == 0:
        raise ValueError("NLTK corpus BLEU needs at least one segment")
    order = _order_of(weights)
    total = sum(
        (
            nltk_stats(hyp, refs, order)
            for hyp, refs in zip(hypotheses, list_of_references, strict=True)
        ),
        NltkStats.zero(order),
    )
    return nltk_bleu_from_stats(
        total,
        weights=weights,
        smoothing=smoothing,
        auto_reweigh=auto_reweigh,
        epsilon=epsilon,
        alpha=alpha,
        k=k,
    )


# -- ROUGE ------------------------------------------------------------------------------------


def _ngram_counter(tokens: Sequence[str], n: int) -> Counter[NgramKey]:
    return Counter(_ngrams(tokens, n))


def rouge_n(hypothesis: Sequence[str], ref: PreparedRef, n: int) -> RougeStats:
    """ROUGE-N stats of one pair, as rouge-score's ``_score_ngrams`` counts them: clipped n-gram
    matches, hypothesis and reference n-gram counts."""
    if isinstance(n, bool) or not isinstance(n, int) or n < 1:
        raise ValueError(f"n must be an integer >= 1, got {n!r}")
    if isinstance(hypothesis, str):
        raise TypeError("the hypothesis must be a sequence of tokens, not a string")
    ref_counts = _ngram_counter(ref.tokens, n)
    overlap = 0
    for gram, count in _ngram_counter(hypothesis, n).items():
        overlap += min(count, ref_counts.get(gram, 0))
    return RougeStats(overlap, max(len(hypothesis) - n + 1, 0), max(len(ref.tokens) - n + 1, 0))


def rouge_l(hypothesis: Sequence[str], ref: PreparedRef) -> RougeStats:
    """ROUGE-L stats of one pair: the LCS length (core.metrics.lcs's, itself checked against
    rouge-score's table in tests/core/metrics/test_lcs.py), hypothesis and reference lengths."""
    if isinstance(hypothesis, str):
        raise TypeError("the hypothesis must be a sequence of tokens, not a string")
    overlap = lcs_length(hypothesis, ref.tokens) if hypothesis and ref.tokens else 0
    return RougeStats(overlap, len(hypothesis), len(ref.tokens))
