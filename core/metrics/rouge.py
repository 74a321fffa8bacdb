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
from functools import cache
from itertools import chain, count
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
from matchlight.core.metrics.lcs import Lines, PreparedSequence, chunk_lcs_lengths
from matchlight.core.metrics.matching import match_orders
from matchlight.core.metrics.ngrams import Column, Encoded, NgramCounts
from matchlight.core.metrics.rougeoptions import ROUGE_OPTIONS, RougeSettings
from matchlight.core.metrics.signature import format_signature
from matchlight.core.text.textspan import sentence_spans
from matchlight.core.text.tokenizers import (
    Tokenizer,
    bleu_tokenizer,
    lines_words,
    rouge_tokenizer,
)
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


class _IdLines:
    """The token ids of one column's lines (``ids[starts[k]:starts[k] + lengths[k]]`` for row
    ``k``), as lists: what :func:`~core.metrics.lcs.chunk_lcs_lengths` reads of the few rows
    it scores one by one (an LCS of ids is the LCS of the tokens)."""

    __slots__ = ("ids", "lengths", "starts")

    def __init__(self, ids: IntArray, starts: IntArray, lengths: IntArray) -> None:
        self.ids = ids
        self.starts = starts
        self.lengths = lengths

    def __len__(self) -> int:
        return len(self.lengths)

    def __getitem__(self, k: int) -> list[int]:
        start = int(self.starts[k])
        ids: list[int] = self.ids[start : start + int(self.lengths[k])].tolist()
        return ids


@cache
def _plain_tokenizers() -> tuple[Tokenizer, Tokenizer]:
    """sacreBLEU's 13a without lowercasing, rouge-score's tokenizer without stemming."""
    return bleu_tokenizer("13a"), rouge_tokenizer("rouge-score")


def _words_from_13a(bleu: Tokenizer, rouge: Tokenizer) -> bool:
    """Whether ``rouge``'s words of a line can be read off ``bleu``'s: ``bleu`` is sacreBLEU's
    13a without lowercasing and ``rouge`` rouge-score's tokenizer without stemming.

    For a line 13a rewrites nothing in (:func:`_rewritten`), rouge-score's words of the line
    are those of its 13a words one after the other: 13a only inserts spaces next to an ASCII
    punctuation character and splits at whitespace, and rouge-score splits at both (its words
    are the runs of ``[a-z0-9]`` in the lowercased line, every other character separating
    them, one for one; lowercasing looks at no neighbour but a final sigma's, which is no
    ASCII letter either way)."""
    return (bleu, rouge) == _plain_tokenizers()


def _rewritten(line: str) -> bool:
    """Whether 13a's rewrites (``&quot;`` to ``"``..., ``<skipped>`` dropped, newlines) may
    change ``line``: each needs one of these, and changes the line when it applies."""
    return "&" in line or "\n" in line or "<skipped>" in line


def _has_separator(column: Sequence[str], separator: str) -> bool:
    """Whether a line of ``column`` holds ``separator``."""
    joined = "\n".join(column)
    if separator == "\n":
        return joined.count("\n") != len(column) - 1
    return separator in joined and any(separator in line for line in column)


def _encoded_from_13a(chunk: ChunkText, tokenizer: Tokenizer) -> Encoded | None:
    """The ROUGE words of the chunk as ids, read off the 13a words BLEU already made of it
    (:func:`_words_from_13a`): each distinct 13a word is tokenized once and a line's ids are
    those of its words, one after the other; a line 13a rewrites (``&amp;``...) is tokenized
    as it is. None where that does not apply: no such 13a words made, another tokenizer, or a
    sentence separator in a line (ROUGE-Lsum reads sentences). No ``vocab``: nothing reads it."""
    found = chunk.encoded_by(lambda bleu: _words_from_13a(bleu, tokenizer))
    separator = chunk.separator
    columns = chunk.columns()
    if found is None or (
        separator is not None and any(_has_separator(c, separator) for c in columns)
    ):
        return None
    _, words = found
    lengths = words.lengths.reshape(-1)
    n_tokens = words.ids.size
    # Each distinct 13a word's ROUGE words: their ids (the position of their first occurrence
    # in ``parts``), where they start in ``parts`` and how many there are, at the word's id.
    part_ids, n_parts, ids_of = _parts(tokenizer, list(words.vocab))
    at = np.fromiter(words.vocab.values(), np.int64, n_parts.size)
    count_of = np.zeros(n_tokens, np.int64)
    count_of[at] = n_parts
    start_of = np.zeros(n_tokens, np.int64)
    start_of[at] = np.cumsum(n_parts) - n_parts
    per_token = count_of[words.ids]
    # Lines 13a rewrites: their own ROUGE words, none from their 13a words.
    rewritten: list[tuple[int, list[str]]] = []
    for c, column in enumerate(columns):
        joined = "\n".join(column)
        if "&" in joined or "<skipped>" in joined or joined.count("\n") != len(column) - 1:
            rewritten += [
                (c * chunk.n_rows + k, tokenizer(line))
                for k, line in enumerate(column)
                if _rewritten(line)
            ]
    line_ends = np.cumsum(lengths)
    for i, _ in rewritten:
        per_token[line_ends[i] - lengths[i] : line_ends[i]] = 0
    running = np.zeros(n_tokens + 1, np.int64)
    np.cumsum(per_token, out=running[1:])
    line_starts_before = running[line_ends - lengths]
    rouge_lengths = running[line_ends] - line_starts_before
    # Every ROUGE word of the 13a words, in order: the ``within``-th of token ``token``.
    n_from_words = int(running[-1])
    token = np.repeat(np.arange(n_tokens), per_token)
    within = np.arange(n_from_words) - running[token]
    from_words = part_ids[start_of[words.ids[token]] + within]
    if not rewritten:
        ids = from_words
    else:
        from_lengths = rouge_lengths.copy()
        lines = np.fromiter((i for i, _ in rewritten), np.int64, len(rewritten))
        own = [tokens for _, tokens in rewritten]
        own_lengths = np.fromiter(map(len, own), np.int64, len(own))
        rouge_lengths[lines] = own_lengths
        line_starts = np.cumsum(rouge_lengths) - rouge_lengths
        ids = np.empty(int(rouge_lengths.sum()), np.int64)
        # The words from 13a words move by the rewritten lines' words before them.
        shift = line_starts - line_starts_before
        ids[np.arange(n_from_words) + np.repeat(shift, from_lengths)] = from_words
        own_ids = ids_of(list(chain.from_iterable(own)))
        ids[np.repeat(line_starts[lines], own_lengths) + _ranges(own_lengths)] = own_ids
    if ids.size and int(ids.max()) >= ids.size:
        # Some word occurs only in a rewritten line: ids made dense again.
        ids = np.unique(ids, return_inverse=True)[1].reshape(-1)
    return Encoded(ids, rouge_lengths.reshape(words.lengths.shape), {})


#: Put between the words :func:`_parts` tokenizes at once: a ROUGE word of its own.
_BREAK = "0matchlight0break0"


def _parts(
    tokenizer: Tokenizer, words: list[str]
) -> tuple[IntArray, IntArray, Callable[[list[str]], IntArray]]:
    """``tokenizer``'s words of each of ``words`` (which hold no whitespace): their ids (the
    same for the same word, numbered in order of first occurrence among them all) and how
    many each word has; and the function giving the ids of other words, in the same
    numbering (new words numbered from the number of ids). The words are tokenized as one
    line with :data:`_BREAK` between them (spaces around it: each word is tokenized as alone);
    only where a word makes that word itself are they tokenized one by one."""
    vocab: dict[str, int] = {}
    tokens = tokenizer(f" {_BREAK} ".join(words)) if words else []
    ids = np.fromiter(map(vocab.setdefault, tokens, count()), np.int64, len(tokens))
    is_break = ids == vocab.pop(_BREAK, -1)
    breaks = np.flatnonzero(is_break)
    # Ids as positions among the words without the breaks: less the breaks before them.
    before = np.cumsum(is_break) - is_break
    if len(breaks) == max(len(words) - 1, 0):
        n_parts = np.diff(breaks, prepend=-1, append=len(ids)) - 1 if words else breaks
        kept = ids[~is_break]
        part_ids = kept - before[kept]
    else:
        parts = lines_words(tokenizer, words)
        vocab.clear()
        n_parts = np.fromiter(map(len, parts), np.int64, len(parts))
        flat = chain.from_iterable(parts)
        part_ids = np.fromiter(map(vocab.setdefault, flat, count()), np.int64, int(n_parts.sum()))
        before = np.zeros(part_ids.size, np.int64)

    def ids_of(others: list[str]) -> IntArray:
        new: dict[str, int] = {}
        fresh = count(part_ids.size)
        out = []
        for word in others:
            at = vocab.get(word)
            if at is None:
                out.append(new[word] if word in new else new.setdefault(word, next(fresh)))
            else:
                out.append(at - int(before[at]))
        return np.array(out, np.int64)

    return part_ids, n_parts, ids_of


def _ranges(lengths: IntArray) -> IntArray:
    """``0, 1, ..., lengths[0] - 1, 0, 1, ..., lengths[1] - 1, ...``."""
    total = int(lengths.sum())
    return np.arange(total) - np.repeat(np.cumsum(lengths) - lengths, lengths)


def chunk_scores(chunk: ChunkText, settings: RougeSettings, tokenizer: Tokenizer) -> MetricChunk:
    """ROUGE of every system on every row of a chunk, rouge-score's numbers, in numpy."""
    max_n = settings.max_n
    n_types = max_n + 2
    n_refs = len(chunk.references)
    n_sys = len(chunk.systems)
    n = chunk.n_rows
    separator = chunk.separator
    encoded = _encoded_from_13a(chunk, tokenizer)
    words: Sequence[Lines]
    if encoded is None:
        columns = [_column_words(tokenizer, col, separator) for col in chunk.columns()]
        plain = [tokens for tokens, _ in columns]
        counts = NgramCounts(plain, n, n_refs)
        words = plain
    else:
        columns = []
        counts = NgramCounts.from_ids(encoded.ids, encoded.lengths, n_refs)
        ends = np.cumsum(encoded.lengths.reshape(-1)).reshape(encoded.lengths.shape)
        words = [
            _IdLines(encoded.ids, stop - size, size)
            for stop, size in zip(ends, encoded.lengths, strict=True)
        ]
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
    # Without a separator in any line (``encoded``), ROUGE-Lsum is ROUGE-L on every row.
    fallback = _lsum_rows(columns, n_refs, n, max_n, stats[lsum]) if columns else np.ones(n, bool)
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
