"""ROUGE-N, ROUGE-L and ROUGE-Lsum on already-tokenized text, equal to rouge-score 0.1.2.

Every function here takes tokens (and, for ROUGE-Lsum, sentences of tokens); tokenizing is done
elsewhere. Scores are computed in two steps, like sacrebleu's metrics:

1. a segment against one reference gives additive :class:`RougeStats`
   (``overlap``, ``hyp_count``, ``ref_count``), which can be summed for corpus micro-averages or
   bootstrap resamples without re-tokenizing;
2. :func:`score_of` turns stats into a :class:`Score` with exactly rouge-score's arithmetic.

What is counted, per type (rouge-score's names in brackets):

* ROUGE-N (``_score_ngrams``): overlap = sum over n-grams of ``min(count_hyp, count_ref)``;
  counts = number of n-grams on each side, ``max(len - n + 1, 0)``.
* ROUGE-L (``_score_lcs``): overlap = LCS length; counts = token counts.
* ROUGE-Lsum (``_summary_level_lcs``): for every reference sentence, the union of the LCSs with
  each hypothesis sentence (using rouge-score's tie-breaking, see :mod:`core.metrics.lcs`); a union
  token
  is a hit while both sides still have unused occurrences of it (rouge-score's token-count
  bookkeeping); counts = total tokens over all sentences.

rouge-score divides by ``max(count, 1)`` for ROUGE-N but returns 0 for ROUGE-L/Lsum when a side is
empty. An empty side always has zero overlap, so both rules give the same numbers and one
:func:`score_of` serves all three types.

Sentence splitting for ROUGE-Lsum is the caller's job. To match rouge-score, split the raw text on
``"\\n"``, drop the pieces that are empty *strings*, and tokenize each remaining piece (pieces
that tokenize to nothing may be kept or dropped; they do not change the result).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import chain

import numpy as np
import numpy.typing as npt

from matchlight.core.metrics.lcs import PreparedSequence, next_order

__all__ = [
    "PreparedRef",
    "RougeDetail",
    "RougeStats",
    "Score",
    "prepare_ref",
    "rouge_detail",
    "rouge_detail_one",
    "rouge_l",
    "rouge_lsum",
    "rouge_n",
    "rouge_prf",
    "score_multi",
    "score_of",
]


@dataclass(frozen=True, slots=True)
class RougeStats:
    """Additive counts of one segment against one reference.

    ``overlap`` is the matched n-gram count (ROUGE-N), the LCS length (ROUGE-L) or the union-LCS
    hits (ROUGE-Lsum); ``hyp_count`` and ``ref_count`` are the matching denominators.
    """

    overlap: int
    hyp_count: int
    ref_count: int

    def __post_init__(self) -> None:
        if self.hyp_count < 0 or self.ref_count < 0 or self.overlap < 0:
            raise ValueError(f"ROUGE counts must be non-negative, got {self!r}")
        if self.overlap > self.hyp_count or self.overlap > self.ref_count:
            raise ValueError(
                f"ROUGE overlap cannot exceed either count, got {self!r}",
            )

    def __add__(self, other: RougeStats) -> RougeStats:
        if not isinstance(other, RougeStats):
            return NotImplemented
        return RougeStats(
            self.overlap + other.overlap,
            self.hyp_count + other.hyp_count,
            self.ref_count + other.ref_count,
        )


@dataclass(frozen=True, slots=True)
class Score:
    """Precision, recall and F-measure on a 0-1 scale, like rouge-score's ``Score``."""

    precision: float
    recall: float
    fmeasure: float


@dataclass(frozen=True, slots=True)
class RougeDetail:
    """Everything the GUI needs to highlight one hypothesis/reference pair.

    ``lcs`` holds ``(hypothesis index, reference index)`` pairs of the LCS rouge-score picks.
    ``hyp_ngram_match[n - 1][k]`` tells whether the hypothesis n-gram starting at token ``k``
    counts as matched: the first ``min(count_hyp, count_ref)`` occurrences of each n-gram, left to
    right, do. ``ref_ngram_match`` is the same for the reference. ``rouge_n[n - 1]`` are the
    ROUGE-N stats for ``n = 1..max_n``.
    """

    lcs: tuple[tuple[int, int], ...]
    hyp_ngram_match: tuple[tuple[bool, ...], ...]
    ref_ngram_match: tuple[tuple[bool, ...], ...]
    rouge_n: tuple[RougeStats, ...]
    rouge_l: RougeStats
    rouge_lsum: RougeStats

    @property
    def stats(self) -> dict[str, RougeStats]:
        """The stats keyed by rouge-score's type names: ``rouge1``.., ``rougeL``, ``rougeLsum``."""
        by_type = {f"rouge{n}": stats for n, stats in enumerate(self.rouge_n, start=1)}
        by_type["rougeL"] = self.rouge_l
        by_type["rougeLsum"] = self.rouge_lsum
        return by_type


def _as_tokens(tokens: Sequence[str], what: str) -> Sequence[str]:
    if isinstance(tokens, str):
        raise TypeError(f"{what} must be a sequence of tokens, not a string: {tokens[:40]!r}")
    return tokens if isinstance(tokens, list | tuple) else tuple(tokens)


def _as_sentences(sentences: Sequence[Sequence[str]], what: str) -> list[Sequence[str]]:
    if isinstance(sentences, str):
        raise TypeError(f"{what} must be a sequence of token sequences, not a string")
    result: list[Sequence[str]] = []
    for sentence in sentences:
        if isinstance(sentence, str):
            raise TypeError(
                f"{what} must be a sequence of token sequences, but one sentence is the string "
                f"{sentence[:40]!r}"
            )
        result.append(sentence if isinstance(sentence, list | tuple) else tuple(sentence))
    return result


def _check_order(n: int, what: str) -> None:
    if isinstance(n, bool) or not isinstance(n, int) or n < 1:
        raise ValueError(f"{what} must be an integer >= 1, got {n!r}")


def _ngram_counts(tokens: Sequence[str], n: int) -> Counter[Hashable]:
    if n == 1:
        return Counter(tokens)
    return Counter(zip(*(tokens[k:] for k in range(n)), strict=False))


class PreparedRef:
    """One reference prepared once and scored against any number of hypotheses.

    Holds the LCS match masks of its tokens and, computed on first use, the reference's n-gram
    counts for ``n = 1..max_n`` (higher orders are counted on the fly) and, for ROUGE-Lsum, the
    match masks of each of its sentences.
    """

    __slots__ = (
        "_lcs",
        "_ngram_cache",
        "_sentence_cache",
        "_sentence_counts_cache",
        "_sentence_total",
        "_split",
        "max_n",
        "sentences",
        "tokens",
    )

    tokens: tuple[str, ...]
    sentences: tuple[tuple[str, ...], ...]
    max_n: int
    _lcs: PreparedSequence
    _split: bool  # sentences were given (otherwise the reference is one sentence)
    _sentence_total: int
    _ngram_cache: tuple[Counter[Hashable], ...] | None
    _sentence_cache: tuple[PreparedSequence, ...] | None
    _sentence_counts_cache: Counter[Hashable] | None

    def __init__(
        self,
        tokens: Sequence[str],
        *,
        sentences: Sequence[Sequence[str]] | None = None,
        max_n: int = 2,
    ) -> None:
        _check_order(max_n, "max_n")
        self.tokens = tuple(_as_tokens(tokens, "reference tokens"))
        self._split = sentences is not None
        if sentences is None:
            self.sentences = (self.tokens,)
            self._sentence_total = len(self.tokens)
        else:
            self.sentences = tuple(
                tuple(s) for s in _as_sentences(sentences, "reference sentences")
            )
            self._sentence_total = sum(map(len, self.sentences))
        self.max_n = max_n
        self._lcs = PreparedSequence(self.tokens)
        self._ngram_cache = None
        self._sentence_cache = None
        self._sentence_counts_cache = None

    def __repr__(self) -> str:
        return (
            f"PreparedRef(<{len(self.tokens)} tokens, {len(self.sentences)} sentences>, "
            f"max_n={self.max_n})"
        )

    @property
    def _ngrams(self) -> tuple[Counter[Hashable], ...]:
        ngrams = self._ngram_cache
        if ngrams is None:
            ngrams = tuple(_ngram_counts(self.tokens, n) for n in range(1, self.max_n + 1))
            self._ngram_cache = ngrams
        return ngrams

    @property
    def _sentence_lcs(self) -> tuple[PreparedSequence, ...]:
        """The match masks of every non-empty sentence (ROUGE-Lsum)."""
        prepared = self._sentence_cache
        if prepared is None:
            if not self._split:
                # One sentence that is the whole reference: reuse its masks.
                prepared = (self._lcs,) if self.tokens else ()
            else:
                prepared = tuple(PreparedSequence(s) for s in self.sentences if s)
            self._sentence_cache = prepared
        return prepared

    @property
    def _sentence_counts(self) -> Counter[Hashable]:
        """How often each token occurs over all sentences (ROUGE-Lsum)."""
        counts = self._sentence_counts_cache
        if counts is None:
            if not self._split:
                counts = self._ngrams[0]
            else:
                counts = Counter(chain.from_iterable(self.sentences))
            self._sentence_counts_cache = counts
        return counts

    def ngram_counts(self, n: int) -> Counter[Hashable]:
        """Counts of the reference's n-grams (tokens for n = 1, tuples otherwise)."""
        _check_order(n, "n")
        if n <= self.max_n:
            return self._ngrams[n - 1]
        return _ngram_counts(self.tokens, n)


def prepare_ref(
    tokens: Sequence[str],
    *,
    sentences: Sequence[Sequence[str]] | None = None,
    max_n: int = 2,
) -> PreparedRef:
    """Prepare one reference.

    ``tokens`` serve ROUGE-N and ROUGE-L. ``sentences`` serve ROUGE-Lsum; without them the whole
    reference is one sentence (rouge-score's behaviour for text without newlines), so ROUGE-Lsum
    equals ROUGE-L.
    """
    return PreparedRef(tokens, sentences=sentences, max_n=max_n)


def rouge_n(hypothesis: Sequence[str], ref: PreparedRef, n: int) -> RougeStats:
    """ROUGE-N stats: clipped n-gram matches, hypothesis and reference n-gram counts."""
    _check_order(n, "n")
    hyp = _as_tokens(hypothesis, "hypothesis")
    ref_counts = ref.ngram_counts(n)
    overlap = 0
    if hyp and ref_counts:
        get = ref_counts.get
        for gram, count in _ngram_counts(hyp, n).items():
            in_ref = get(gram)
            if in_ref:
                overlap += count if count < in_ref else in_ref
    return RougeStats(overlap, max(len(hyp) - n + 1, 0), max(len(ref.tokens) - n + 1, 0))


def rouge_l(hypothesis: Sequence[str], ref: PreparedRef) -> RougeStats:
    """ROUGE-L stats: LCS length, hypothesis length, reference length."""
    hyp = _as_tokens(hypothesis, "hypothesis")
    overlap = ref._lcs.lcs_length(hyp) if hyp and ref.tokens else 0
    return RougeStats(overlap, len(hyp), len(ref.tokens))


def rouge_lsum(hypothesis_sentences: Sequence[Sequence[str]], ref: PreparedRef) -> RougeStats:
    """ROUGE-Lsum stats: summary-level union-LCS hits, hypothesis and reference token totals."""
    hyp_sentences = _as_sentences(hypothesis_sentences, "hypothesis sentences")
    hyp_total = sum(map(len, hyp_sentences))
    ref_total = ref._sentence_total
    if not hyp_total or not ref_total:
        return RougeStats(0, hyp_total, ref_total)
    hyp_sentences = [s for s in hyp_sentences if s]
    hyp_left: Counter[Hashable] = Counter(chain.from_iterable(hyp_sentences))
    ref_left = ref._sentence_counts.copy()
    hits = 0
    for sentence in ref._sentence_lcs:
        union = 0
        for hyp_sentence in hyp_sentences:
            union |= sentence.lcs_index_mask(hyp_sentence)
        tokens = sentence.tokens
        # Walk the union in increasing index order, as rouge-score's sorted() does.
        while union:
            low = union & -union
            union ^= low
            token = tokens[low.bit_length() - 1]
            if hyp_left[token] > 0 and ref_left[token] > 0:
                hits += 1
                hyp_left[token] -= 1
                ref_left[token] -= 1
    return RougeStats(hits, hyp_total, ref_total)


#: The score of any stats without overlap (rouge-score gives 0 / max(count, 1) and F = 0).
_NO_SCORE = Score(0.0, 0.0, 0.0)


def score_of(stats: RougeStats) -> Score:
    """Precision, recall and F-measure from stats, with rouge-score's exact arithmetic."""
    overlap = stats.overlap
    if not overlap:
        return _NO_SCORE
    # max(count, 1): counts are never negative, so ``or 1`` is the same
    precision = overlap / (stats.hyp_count or 1)
    recall = overlap / (stats.ref_count or 1)
    # rouge-score's scoring.fmeasure, operation for operation.
    fmeasure = 2 * precision * recall / (precision + recall) if precision + recall > 0 else 0.0
    return Score(precision, recall, fmeasure)


def score_multi(per_reference: Sequence[RougeStats]) -> tuple[Score, int]:
    """Pick among several references as rouge-score's ``score_multi`` does for one ROUGE type.

    ``per_reference[k]`` are the stats of the hypothesis against reference ``k``. Returns the
    score with the highest F-measure and its reference index; on ties, the first such reference.
    """
    if not per_reference:
        raise ValueError("score_multi needs the stats of at least one reference, got none")
    best_index = 0
    best = score_of(per_reference[0])
    for index in range(1, len(per_reference)):
        candidate = score_of(per_reference[index])
        if candidate.fmeasure > best.fmeasure:
            best, best_index = candidate, index
    return best, best_index


def _single_sentence(ref: PreparedRef) -> bool:
    """Whether the reference's sentences are just its tokens (ROUGE-Lsum is then ROUGE-L's LCS)."""
    if not ref._split:
        return True
    sentences = [s for s in ref.sentences if s]
    if not sentences:
        return not ref.tokens
    return len(sentences) == 1 and sentences[0] == ref.tokens


@lru_cache(maxsize=1024)
def _nothing_matched(
    hyp_len: int, ref_len: int, max_n: int
) -> tuple[
    tuple[tuple[bool, ...], ...],
    tuple[tuple[bool, ...], ...],
    tuple[RougeStats, ...],
    tuple[tuple[int, int], ...],
    RougeStats,
]:
    """:func:`_match_detail` of a pair with an empty side (immutable, so shared): common with
    text the tokenizer keeps nothing of, such as any non-Latin script for rouge-score's."""
    counts = [
        (hyp_len - n + 1 if hyp_len >= n else 0, ref_len - n + 1 if ref_len >= n else 0)
        for n in range(1, max_n + 1)
    ]
    return (
        tuple([(False,) * hyp_count for hyp_count, _ in counts]),
        tuple([(False,) * ref_count for _, ref_count in counts]),
        tuple([RougeStats(0, hyp_count, ref_count) for hyp_count, ref_count in counts]),
        (),
        RougeStats(0, hyp_len, ref_len),
    )


def _match_detail(
    hyp: Sequence[str], reference: PreparedSequence, max_n: int
) -> tuple[
    tuple[tuple[bool, ...], ...],
    tuple[tuple[bool, ...], ...],
    tuple[RougeStats, ...],
    tuple[tuple[int, int], ...],
    RougeStats,
]:
    """The n-gram flags and stats, the LCS and the ROUGE-L stats of one pair (see
    :func:`rouge_detail`)."""
    hyp_len = len(hyp)
    ref_len = len(reference.tokens)
    if not hyp_len or not ref_len:
        return _nothing_matched(hyp_len, ref_len, max_n)
    get = reference._masks.get
    token_masks = [get(token, 0) for token in hyp]
    hyp_flags: list[tuple[bool, ...]] = []
    ref_flags: list[tuple[bool, ...]] = []
    n_stats: list[RougeStats] = []
    # Order 1 while finding the tokens present in the reference; then order after order from
    # the positions still matching (next_order). Pairing the k-th occurrences on both sides
    # (the k-th lowest bit of the mask) flags exactly the clipped matches.
    found: dict[int, int] = {}
    hyp_match = [False] * hyp_len
    ref_match = [False] * ref_len
    left: dict[int, int] = {}  # per n-gram (mask): reference occurrences not yet paired
    overlap = 0
    for i, mask in enumerate(token_masks):
        if mask:
            found[i] = mask
            rest = left.get(mask, mask)
            if rest:
                low = rest & -rest
                left[mask] = rest ^ low
                hyp_match[i] = True
                ref_match[low.bit_length() - 1] = True
                overlap += 1
    for n in range(1, max_n + 1):
        hyp_count = hyp_len - n + 1 if hyp_len >= n else 0
        ref_count = ref_len - n + 1 if ref_len >= n else 0
        if n > 1:
            hyp_match = [False] * hyp_count
            ref_match = [False] * ref_count
            overlap = 0
            if found:
                found = next_order(found, token_masks, n)
                left = {}
                for i, mask in found.items():
                    rest = left.get(mask, mask)
                    if rest:
                        low = rest & -rest
                        left[mask] = rest ^ low
                        hyp_match[i] = True
                        ref_match[low.bit_length() - 1] = True
                        overlap += 1
        hyp_flags.append(tuple(hyp_match))
        ref_flags.append(tuple(ref_match))
        n_stats.append(RougeStats(overlap, hyp_count, ref_count))
    lcs = tuple(reference.lcs_pairs_from_masks(token_masks)) if hyp_len and ref_len else ()
    return (
        tuple(hyp_flags),
        tuple(ref_flags),
        tuple(n_stats),
        lcs,
        RougeStats(len(lcs), hyp_len, ref_len),
    )


def rouge_detail_one(
    hypothesis: Sequence[str], reference: PreparedSequence, *, max_n: int = 2
) -> RougeDetail:
    """:func:`rouge_detail` when hypothesis and reference are one sentence each.

    ``reference`` holds the reference tokens' match masks
    (:class:`core.metrics.lcs.PreparedSequence`).
    ROUGE-Lsum's union LCS is then the LCS itself and every one of its tokens is a hit, so the
    ROUGE-Lsum stats are the ROUGE-L stats.
    """
    _check_order(max_n, "max_n")
    hyp = _as_tokens(hypothesis, "hypothesis")
    hyp_flags, ref_flags, n_stats, lcs, rouge_l = _match_detail(hyp, reference, max_n)
    return RougeDetail(lcs, hyp_flags, ref_flags, n_stats, rouge_l, rouge_l)


def rouge_detail(
    hypothesis: Sequence[str],
    ref: PreparedRef,
    *,
    max_n: int = 2,
    hypothesis_sentences: Sequence[Sequence[str]] | None = None,
) -> RougeDetail:
    """Matches and stats of one hypothesis against one reference, for highlighting.

    ``hypothesis_sentences`` feed ROUGE-Lsum; without them the hypothesis is one sentence.

    The n-gram matches come from the reference's LCS match masks (see
    :func:`core.metrics.lcs.next_order`; equal masks are equal n-grams): a flagged n-gram on either
    side
    is one of the first ``min(count_hyp, count_ref)`` occurrences of its n-gram, paired with the
    same-rank occurrence on the other side (the k-th lowest bit of the mask). When both sides are
    one sentence, ROUGE-Lsum's union LCS is the LCS itself and every one of its tokens is a hit,
    so it reuses ROUGE-L's alignment.
    """
    _check_order(max_n, "max_n")
    hyp = _as_tokens(hypothesis, "hypothesis")
    hyp_flags, ref_flags, n_stats, lcs, rouge_l = _match_detail(hyp, ref._lcs, max_n)
    if hypothesis_sentences is None:
        hyp_single = True
    else:
        sentences = [s for s in _as_sentences(hypothesis_sentences, "hypothesis sentences") if s]
        hyp_single = (not sentences and not hyp) or (
            len(sentences) == 1 and list(sentences[0]) == list(hyp)
        )
    if hyp_single and _single_sentence(ref):
        lsum = rouge_l
    else:
        lsum = rouge_lsum((hyp,) if hypothesis_sentences is None else hypothesis_sentences, ref)
    return RougeDetail(lcs, hyp_flags, ref_flags, n_stats, rouge_l, lsum)


IntArray = npt.NDArray[np.int64]
FloatArray = npt.NDArray[np.float64]


def rouge_prf(overlap: IntArray, hyp_count: IntArray, ref_count: IntArray) -> FloatArray:
    """Precision, recall and F-measure stacked on a new last axis
    (matchlight.core.metrics.rouge.score_of)."""
    precision = overlap / np.maximum(hyp_count, 1)
    recall = overlap / np.maximum(ref_count, 1)
    denominator = precision + recall
    positive = denominator > 0
    fmeasure = np.zeros_like(precision)
    fmeasure[positive] = 2 * precision[positive] * recall[positive] / denominator[positive]
    return np.stack((precision, recall, fmeasure), axis=-1)
