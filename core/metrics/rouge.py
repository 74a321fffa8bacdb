"""ROUGE, equal to rouge-score 0.1.2: its arithmetic, settings, columns, bulk scorer, highlights.

Scores are computed in two steps, like sacrebleu's metrics:

1. a segment against one reference gives additive :class:`RougeStats`
   (``overlap``, ``hyp_count``, ``ref_count``);
2. :func:`score_of` (one row) and :func:`rouge_prf` (arrays) turn stats into precision, recall
   and F-measure with exactly rouge-score's arithmetic.

What is counted, per type (rouge-score's names in brackets):

* ROUGE-N (``_score_ngrams``): overlap = sum over n-grams of ``min(count_hyp, count_ref)``;
  counts = number of n-grams on each side, ``max(len - n + 1, 0)``. Counted in bulk by
  :class:`core.metrics.ngrams.NgramCounts`; one row's matches come from
  :mod:`core.metrics.matching`.
* ROUGE-L (``_score_lcs``): overlap = LCS length; counts = token counts (the LCS and
  rouge-score's backtrack are :mod:`core.metrics.lcs`'s).
* ROUGE-Lsum (``_summary_level_lcs``): for every reference sentence, the union of the LCSs with
  each hypothesis sentence; a union token is a hit while both sides still have unused
  occurrences of it (rouge-score's token-count bookkeeping); counts = total tokens over all
  sentences (:func:`rouge_lsum`).

rouge-score divides by ``max(count, 1)`` for ROUGE-N but returns 0 for ROUGE-L/Lsum when a side is
empty. An empty side always has zero overlap, so both rules give the same numbers and one
:func:`score_of` serves all three types.

ROUGE-Lsum's sentences are cut in one place, :func:`rouge_line` (rouge-score splits on
``"\\n"`` and drops empty pieces; :class:`ScoringConfig`'s separator generalises the marker).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from itertools import chain
from typing import cast

import numpy as np
import numpy.typing as npt

from matchlight.core.metrics.base import (
    Block,
    ChunkText,
    CorpusView,
    HighlightLayer,
    HighlightMode,
    Metric,
    MetricChunk,
    MetricCorpus,
    MetricRowDetail,
    MetricSettings,
    Range,
    Run,
    ScoreColumn,
    check_detail_size,
)
from matchlight.core.metrics.lcs import PreparedSequence, chunk_lcs_lengths
from matchlight.core.metrics.matching import match_orders
from matchlight.core.metrics.ngrams import Column, NgramCounts
from matchlight.core.metrics.rougeoptions import ROUGE_OPTIONS, RougeSettings
from matchlight.core.metrics.signature import format_signature
from matchlight.core.text.textspan import sentence_spans
from matchlight.core.text.tokenizers import Tokenizer, lines_words
from matchlight.core.text.types import Span, Tokens

__all__ = [
    "ROUGE_SCORE_VERSION",
    "PreparedRef",
    "RougeMetric",
    "RougeStats",
    "Score",
    "prepare_ref",
    "rouge_line",
    "rouge_lsum",
    "rouge_prf",
    "score_multi",
    "score_of",
]

#: The rouge-score release whose numbers these are.
ROUGE_SCORE_VERSION = "0.1.2"

IntArray = npt.NDArray[np.int64]
FloatArray = npt.NDArray[np.float64]
BoolArray = npt.NDArray[np.bool_]

#: The column suffixes of each ROUGE type: precision, recall, F-measure.
_PARTS = (("p", "P", "precision"), ("r", "R", "recall"), ("f", "F", "F-measure"))


# -- rouge-score's arithmetic ----------------------------------------------------------------


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


class PreparedRef:
    """One reference prepared once and matched against any number of outputs (one row's detail,
    the rows where ROUGE-Lsum has sentences).

    Holds the LCS match masks of its tokens and, computed on first use, the match masks of each
    of its sentences and its token counts for ROUGE-Lsum.
    """

    __slots__ = (
        "_lcs",
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
        self._sentence_cache = None
        self._sentence_counts_cache = None

    def __repr__(self) -> str:
        return (
            f"PreparedRef(<{len(self.tokens)} tokens, {len(self.sentences)} sentences>, "
            f"max_n={self.max_n})"
        )

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
            counts = Counter(chain.from_iterable(self.sentences))
            self._sentence_counts_cache = counts
        return counts


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


def rouge_prf(overlap: IntArray, hyp_count: IntArray, ref_count: IntArray) -> FloatArray:
    """Precision, recall and F-measure stacked on a new last axis: :func:`score_of` on
    arrays."""
    precision = overlap / np.maximum(hyp_count, 1)
    recall = overlap / np.maximum(ref_count, 1)
    denominator = precision + recall
    positive = denominator > 0
    fmeasure = np.zeros_like(precision)
    fmeasure[positive] = 2 * precision[positive] * recall[positive] / denominator[positive]
    return np.stack((precision, recall, fmeasure), axis=-1)


# -- the metric ---------------------------------------------------------------------------------


def separator_name(separator: str | None) -> str:
    """A sentence separator as signatures and messages show it (``\\n``, ``<n>``, ``none``)."""
    if separator is None:
        return "none"
    return separator.encode("unicode_escape").decode("ascii")


def _type_label(rouge_type: str) -> tuple[str, str]:
    suffix = rouge_type.removeprefix("rouge")
    return f"ROUGE-{suffix}", f"R-{suffix}"


def rouge_line(
    tokenizer: Tokenizer, line: str, separator: str | None
) -> tuple[Tokens, list[list[str]] | None]:
    """A line's ROUGE tokens (with spans, separators excluded) and, when the separator cuts it
    into sentences, each sentence's words for ROUGE-Lsum (None for a one-sentence line).

    The one place where ROUGE-Lsum's sentences are cut; rouge-score drops empty pieces.
    """
    if separator is None or separator not in line:
        return tokenizer.tokenize(line), None
    words: list[str] = []
    spans: list[Span] = []
    sentences: list[list[str]] = []
    for a, b in sentence_spans(line, separator):
        part = tokenizer.tokenize(line[a:b])
        words.extend(part.words)
        spans.extend((a + x, a + y) for x, y in part.spans)
        sentences.append(list(part.words))
    return Tokens(words=tuple(words), spans=tuple(spans)), sentences


def _column_words(
    tokenizer: Tokenizer, lines: Sequence[str], separator: str | None
) -> tuple[Column, dict[int, list[list[str]]]]:
    """ROUGE words of every line, and the sentences of the lines the separator cuts."""
    if separator is None or not any(separator in line for line in lines):
        return lines_words(tokenizer, lines), {}
    tokens: Column = []
    sentences: dict[int, list[list[str]]] = {}
    for k, line in enumerate(lines):
        if separator in line:
            sents = [tokenizer(line[a:b]) for a, b in sentence_spans(line, separator)]
            sentences[k] = sents
            tokens.append([t for sent in sents for t in sent])
        else:
            tokens.append(tokenizer(line))
    return tokens, sentences


def _lsum_rows(
    columns: Sequence[tuple[Column, dict[int, list[list[str]]]]],
    n_refs: int,
    n: int,
    max_n: int,
    stats: IntArray,
) -> BoolArray:
    """ROUGE-Lsum where some line of a row has several sentences; elsewhere it is ROUGE-L.

    ``stats`` (``(3, n_refs, n_systems, n)``, filled with the ROUGE-L stats) is updated in
    place. Returns the rows where ROUGE-Lsum fell back to ROUGE-L (no sentence boundary).
    """
    fallback = np.ones(n, np.bool_)
    rows = sorted({k for _, sentences in columns for k in sentences})
    for k in rows:
        sents = [col[1].get(k) for col in columns]
        ref_multi = any(s is not None and len(s) > 1 for s in sents[:n_refs])
        prepared: list[PreparedRef] | None = None
        for s, hyp_sents in enumerate(sents[n_refs:]):
            if not (ref_multi or (hyp_sents is not None and len(hyp_sents) > 1)):
                continue
            fallback[k] = False
            if prepared is None:
                prepared = [
                    prepare_ref(
                        columns[r][0][k],
                        sentences=[columns[r][0][k]] if sents[r] is None else sents[r],
                        max_n=max_n,
                    )
                    for r in range(n_refs)
                ]
            if hyp_sents is None:
                hyp_sents = [columns[n_refs + s][0][k]]
            for r, ref in enumerate(prepared):
                got = rouge_lsum(hyp_sents, ref)
                stats[:, r, s, k] = (got.overlap, got.hyp_count, got.ref_count)
    return fallback


def chunk_scores(chunk: ChunkText, settings: RougeSettings, tokenizer: Tokenizer) -> MetricChunk:
    """ROUGE of every system on every row of a chunk, rouge-score's numbers, in numpy."""
    max_n = settings.max_n
    n_types = max_n + 2
    n_refs = len(chunk.references)
    n_sys = len(chunk.systems)
    n = chunk.n_rows
    separator = chunk.separator
    columns = [_column_words(tokenizer, col, separator) for col in chunk.columns()]
    words = [tokens for tokens, _ in columns]
    counts = NgramCounts(words, n, n_refs)
    r_len = counts.lengths[:n_refs]
    h_len = counts.lengths[n_refs:]
    # overlap, hyp_count, ref_count per type, reference, system and row.
    stats = np.zeros((n_types, 3, n_refs, n_sys, n), np.int64)
    for t in range(max_n):
        m = t + 1
        counts.advance()
        if m == 1:
            # The LCS needs the unigram ids of every position: only available at order 1.
            stats[max_n, 0] = chunk_lcs_lengths(counts, words)
        shared = counts.counts
        clipped = np.minimum(shared[None, n_refs:], shared[:n_refs, None])
        stats[t, 0] = counts.row_sums(clipped)
        stats[t, 1] = np.maximum(h_len - m + 1, 0)[None]
        stats[t, 2] = np.maximum(r_len - m + 1, 0)[:, None]
    lcs, lsum = max_n, max_n + 1
    stats[lcs, 1] = h_len[None]
    stats[lcs, 2] = r_len[:, None]
    stats[lsum] = stats[lcs]
    fallback = _lsum_rows(columns, n_refs, n, max_n, stats[lsum])
    # The reference with the best F-measure per type (the first one on a tie), as score_multi.
    prf = rouge_prf(stats[:, 0], stats[:, 1], stats[:, 2])  # (T, R, S, n, 3)
    best = np.argmax(prf[..., 2], axis=1)  # (T, S, n)
    chosen = np.take_along_axis(prf, best[:, None, :, :, None], axis=1)[:, 0]  # (T, S, n, 3)
    scores = (100.0 * chosen).transpose(1, 2, 0, 3).reshape(n_sys, n, 3 * n_types)
    best_stats = np.take_along_axis(stats, best[:, None, None], axis=2)[:, :, 0]  # (T, 3, S, n)
    return MetricChunk(
        scores=np.ascontiguousarray(scores),
        stats={"counts": np.ascontiguousarray(best_stats.transpose(2, 3, 0, 1))},
        row_flags={
            "lsum_fallback": fallback,
            "empty_refs": (r_len == 0).sum(axis=0).astype(np.int64),
        },
    )


# -- one row ------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PairDetail:
    """One output against one reference: the ROUGE stats per type and rouge-score's LCS as
    ``(output index, reference index)`` pairs."""

    stats: tuple[RougeStats, ...]  # rouge1.., rougeL, rougeLsum
    lcs: tuple[tuple[int, int], ...]


def pair_detail(
    hyp_words: Sequence[str],
    hyp_sentences: list[list[str]] | None,
    ref: PreparedRef,
    ref_split: bool,
    max_n: int,
) -> PairDetail:
    """The ROUGE stats and LCS of one output against one prepared reference."""
    hyp_len = len(hyp_words)
    ref_len = len(ref.tokens)
    sequence = ref._lcs  # the reference's match masks, built once per reference
    token_masks = sequence.token_masks(hyp_words) if hyp_len and ref_len else []
    orders = match_orders(token_masks, max_n) if token_masks else []
    stats = [
        RougeStats(
            len(orders[n - 1][0]) if n <= len(orders) else 0,
            max(hyp_len - n + 1, 0),
            max(ref_len - n + 1, 0),
        )
        for n in range(1, max_n + 1)
    ]
    lcs = tuple(sequence.lcs_pairs_from_masks(token_masks)) if token_masks else ()
    rouge_l = RougeStats(len(lcs), hyp_len, ref_len)
    if hyp_sentences is None and not ref_split:
        lsum = rouge_l
    else:
        lsum = rouge_lsum([list(hyp_words)] if hyp_sentences is None else hyp_sentences, ref)
    return PairDetail((*stats, rouge_l, lsum), lcs)


class LcsLayer(HighlightLayer):
    """The tokens of rouge-score's ROUGE-L LCS: each output with the reference ROUGE-L picked,
    each reference with the chosen system (or with any system)."""

    key = "lcs"
    label = "ROUGE-L LCS"
    max_level = 1

    def __init__(
        self,
        hyp_spans: Sequence[Sequence[Span]],
        ref_spans: Sequence[Sequence[Span]],
        pairs: Sequence[Sequence[PairDetail]],
        chosen: Sequence[int],
    ) -> None:
        self._hyp_spans = hyp_spans
        self._ref_spans = ref_spans
        self._pairs = pairs  # [system][reference]
        self._chosen = chosen  # per system: the reference ROUGE-L picked

    def hypothesis(self, system: int) -> list[Range]:
        spans = self._hyp_spans[system]
        lcs = self._pairs[system][self._chosen[system]].lcs
        return [(*spans[i], "lcs", 1) for i, _ in lcs]

    def reference(self, reference: int, system: int | None) -> list[Range]:
        chosen = range(len(self._pairs)) if system is None else (system,)
        hit: set[int] = set()
        for s in chosen:
            hit.update(j for _, j in self._pairs[s][reference].lcs)
        spans = self._ref_spans[reference]
        return [(*spans[j], "lcs", 1) for j in sorted(hit)]

    def links(self, system: int, reference: int) -> list[tuple[Span, Span]]:
        hyp, ref = self._hyp_spans[system], self._ref_spans[reference]
        return [(hyp[i], ref[j]) for i, j in self._pairs[system][reference].lcs]


class RougeRowDetail(MetricRowDetail):
    metric = "rouge"

    def __init__(
        self,
        settings: RougeSettings,
        references: Sequence[Tokens],
        outputs: Sequence[Tokens],
        pairs: Sequence[Sequence[PairDetail]],
    ) -> None:
        self._types = settings.types
        self._pairs = pairs
        #: The ROUGE tokens (with spans) of each reference and each output.
        self.references = tuple(references)
        self.outputs = tuple(outputs)
        self._chosen: list[list[tuple[Score, int]]] = []
        for per_ref in pairs:
            if len(per_ref) == 1:  # score_multi of one reference: its score (the common case)
                self._chosen.append([(score_of(stats), 0) for stats in per_ref[0].stats])
            else:
                self._chosen.append(
                    [score_multi([p.stats[t] for p in per_ref]) for t in range(len(self._types))]
                )
        lcs_type = len(self._types) - 2
        self.layers = (
            LcsLayer(
                [t.spans for t in outputs],
                [t.spans for t in references],
                pairs,
                [chosen[lcs_type][1] for chosen in self._chosen],
            ),
        )

    def pairs(self, system: int) -> Sequence[PairDetail]:
        """``system``'s output against each reference."""
        return self._pairs[system]

    def chosen(self, system: int) -> dict[str, tuple[Score, int]]:
        """Per ROUGE type: the score and the index of the reference ``score_multi`` picked."""
        return dict(zip(self._types, self._chosen[system], strict=True))

    def lcs_length(self, system: int) -> int:
        reference = self._chosen[system][len(self._types) - 2][1]
        return len(self._pairs[system][reference].lcs)

    def values(self, system: int) -> dict[str, float]:
        values: dict[str, float] = {}
        for rouge_type, (score, _) in zip(self._types, self._chosen[system], strict=True):
            values[f"{rouge_type}_p"] = 100.0 * score.precision
            values[f"{rouge_type}_r"] = 100.0 * score.recall
            values[f"{rouge_type}_f"] = 100.0 * score.fmeasure
        return values

    def breakdown(self, system: int, reference_names: Sequence[str]) -> tuple[Block, ...]:
        def ref_name(r: int) -> str:
            return reference_names[r] if r < len(reference_names) else f"Ref {r + 1}"

        rows = []
        for rouge_type, (score, ref) in zip(self._types, self._chosen[system], strict=True):
            rows.append(
                (
                    _type_label(rouge_type)[1],
                    f"{100 * score.precision:.2f}",
                    f"{100 * score.recall:.2f}",
                    f"{100 * score.fmeasure:.2f}",
                    ref_name(ref),
                )
            )
        lcs_ref = self._chosen[system][len(self._types) - 2][1]
        return (
            Block(
                title=(Run("ROUGE", bold=True), Run(" (best reference per type)")),
                header=("", "P", "R", "F", "reference"),
                rows=tuple(rows),
                right=(False, True, True, True, False),
                lines=((Run(f"LCS length {self.lcs_length(system)} (with {ref_name(lcs_ref)})"),),),
            ),
        )


class RougeMetric(Metric):
    """rouge-score's ROUGE-N, ROUGE-L and ROUGE-Lsum; corpus figures are plain means."""

    key = ROUGE_OPTIONS.key
    label = ROUGE_OPTIONS.label
    description = (
        "rouge-score 0.1.2: precision, recall and F of ROUGE-1..N, ROUGE-L and ROUGE-Lsum per "
        "segment (several references: the best F, as score_multi); the corpus figure is the "
        "plain mean of the segment scores"
    )
    settings_type = ROUGE_OPTIONS.settings_type

    def columns(self, settings: MetricSettings) -> tuple[ScoreColumn, ...]:
        s = cast(RougeSettings, settings)
        columns = []
        for rouge_type in s.types:
            long, short = _type_label(rouge_type)
            for suffix, letter, word in _PARTS:
                columns.append(
                    ScoreColumn(
                        f"{rouge_type}_{suffix}",
                        f"{long} {letter}",
                        short if suffix == "f" else f"{short} {letter}",
                        self.key,
                        f"{long} {word} (rouge-score); the corpus figure is the plain mean",
                        headline=suffix == "f" and rouge_type != "rougeLsum",
                        primary=suffix == "f" and rouge_type == "rougeL",
                    )
                )
        return tuple(columns)

    def stat_shapes(self, settings: MetricSettings) -> dict[str, tuple[int, ...]]:
        return {"counts": (len(cast(RougeSettings, settings).types), 3)}

    def row_flags(self) -> tuple[str, ...]:
        return ("lsum_fallback", "empty_refs")

    def highlight_modes(self, settings: MetricSettings) -> tuple[HighlightMode, ...]:
        return (HighlightMode(LcsLayer.key, LcsLayer.label, LcsLayer.max_level),)

    def signature(
        self, settings: MetricSettings, *, nrefs: int, separator: str | None = None
    ) -> str:
        s = cast(RougeSettings, settings)
        return format_signature(
            [
                ("nrefs", nrefs),
                ("tok", s.tokenizer),
                ("stem", "porter" if s.stem else "no"),
                ("n", f"1-{s.max_n}"),
                ("sep", separator_name(separator)),
                ("multi", "max-f"),
                ("avg", "mean"),
                ("version", f"rouge-score-{ROUGE_SCORE_VERSION}"),
            ]
        )

    def chunk_scorer(self, settings: MetricSettings) -> Callable[[ChunkText], MetricChunk]:
        s = cast(RougeSettings, settings)
        tokenizer = s.word_tokenizer()

        def score(chunk: ChunkText) -> MetricChunk:
            return chunk_scores(chunk, s, tokenizer)

        return score

    def corpus(self, settings: MetricSettings, view: CorpusView) -> MetricCorpus:
        keys = [c.key for c in self.columns(settings)]
        return MetricCorpus(values={key: view.mean(key) for key in keys})

    def detailer(
        self, settings: MetricSettings, separator: str | None
    ) -> Callable[[Sequence[str], Sequence[str]], RougeRowDetail]:
        s = cast(RougeSettings, settings)
        tokenizer = s.word_tokenizer()
        max_n = s.max_n

        def detail(references: Sequence[str], outputs: Sequence[str]) -> RougeRowDetail:
            refs = [rouge_line(tokenizer, line, separator) for line in references]
            outs = [rouge_line(tokenizer, line, separator) for line in outputs]
            check_detail_size(max([len(toks) for toks, _ in (*refs, *outs)]))
            prepared = [
                prepare_ref(toks.words, sentences=sents, max_n=max_n) for toks, sents in refs
            ]
            pairs = [
                [
                    pair_detail(toks.words, sents, ref, ref_sents is not None, max_n)
                    for ref, (_, ref_sents) in zip(prepared, refs, strict=True)
                ]
                for toks, sents in outs
            ]
            return RougeRowDetail(s, [t for t, _ in refs], [t for t, _ in outs], pairs)

        return detail
