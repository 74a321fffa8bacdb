"""Highlight detail for a whole chunk of rows at once, in numpy.

:class:`BatchDetailer` is to :class:`core.scoring.detail.RowDetailer` what
:class:`core.scoring.fastpath.FastScorer` is to the per-row scores: the same highlights (the
character
spans of every BLEU and ROUGE token in the original lines, the matched n-gram order of every
BLEU token, the ROUGE-L LCS membership of every ROUGE token), for every row, reference and
system of a chunk, as flat arrays with offsets (:class:`BatchDetail`).

How:

1. Tokens. The words come from the tokenizers' fast calls. Their spans are found for all lines
   at once wherever the tokenizer only inserts spaces and splits (every BLEU tokenizer once 13a's
   rewrites and a length-changing lowercasing are ruled out): the words are then the
   non-whitespace characters of the line cut into pieces, so the lines are joined, turned into
   code points, and the positions of the non-whitespace characters are indexed with the
   cumulative word lengths. rouge-score's tokens (and the unicode tokenizer's on ASCII text) are
   the runs of ``[a-z0-9]`` of the lowercased line, found as runs of a mask. The other lines
   (an entity for 13a, "İ", a ROUGE-Lsum separator, stems that drop a token, non-ASCII text for
   the unicode tokenizer) go through the span-aware ``tokenize`` one by one.
2. BLEU. :class:`core.scoring.fastpath.NgramCounts` gives every counted n-gram occurrence an id per
row.
   A stable sort ranks the occurrences of each n-gram in each line; the k-th occurrence in the
   hypothesis pairs with the k-th one in a reference, so an occurrence is matched exactly when
   its rank is below the count on the other side (the maximum over the references for the
   hypothesis, one reference at a time for that reference's tokens), as
   :func:`core.metrics.bleu.bleu_detail`. Levels are painted order after order, ascending.
3. ROUGE-L. The bit-parallel LCS of :mod:`core.metrics.lcs` on one ``uint64`` word per row
(references
   of at most 64 tokens), keeping every column, then rouge-score's backtrack
   (:meth:`core.metrics.lcs.PreparedSequence.lcs_pairs_from_masks`) for all rows together, one
   matched
   hypothesis token per step. Longer references (and hypotheses with more than 256 tokens found
   in their reference) go through ``PreparedSequence`` itself, pair by pair. With
   several references the hypothesis shows its LCS with the reference ``score_multi`` picks for
   ROUGE-L (best F, the first on a tie); each reference shows its own LCS with each system.

The work is done column-major (all lines of a reference or system, then the next), as
:class:`core.scoring.fastpath.NgramCounts` counts; the result is stored row-major, so that a row's
tokens are contiguous and chunks concatenate.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import chain
from typing import Final, cast

import numpy as np
import numpy.typing as npt

from matchlight.core.metrics.lcs import PreparedSequence
from matchlight.core.metrics.ngrams import NgramCounts
from matchlight.core.metrics.rouge import rouge_prf
from matchlight.core.scoring.config import ScoringConfig
from matchlight.core.scoring.detail import RowDetailer
from matchlight.core.scoring.fastpath import chunk_pieces
from matchlight.core.text.tokenizers import bleu_tokenizer, rouge_tokenizer
from matchlight.core.text.types import Span, Tokens

__all__ = [
    "BatchDetail",
    "BatchDetailer",
    "LineTokens",
    "ReferenceRow",
    "RowHighlights",
    "SystemRow",
]

IntArray = npt.NDArray[np.int64]
BoolArray = npt.NDArray[np.bool_]
LevelArray = npt.NDArray[np.uint8]
WordArray = npt.NDArray[np.uint64]

_WORD: Final = 64
# _LOW[i] == 2**i - 1: the low i bits, for 0 <= i <= 64.
_LOW: Final = np.array([(1 << i) - 1 for i in range(_WORD + 1)], np.uint64)
_ONE: Final = np.uint64(1)
# Rows whose hypothesis has more tokens found in the reference than this take the per-pair LCS
# (the step tables hold one word per step and row of the chunk).
_MAX_STEPS: Final = 256
# The most rows detailed in one go; larger chunks are cut into pieces of this size.
_PIECE_ROWS: Final = 4096
_HALF: Final = np.uint64(32)
_LOW_HALF: Final = np.uint64(0xFFFFFFFF)
# Every code point str.split() (and str.isspace()) treats as whitespace is at most U+3000.
_LAST_SPACE: Final = 0x3000
_IS_SPACE: Final = np.array([chr(c).isspace() for c in range(_LAST_SPACE + 1)], np.bool_)
# 13a rewrites a line that holds one of these (matchlight.core.text.tokenizers._Bleu13a._unchanged).
_REWRITE_13A_MARKS: Final = ("&", "\n", "<skipped>")
# Where the unicode ROUGE tokenizer leaves the [a-z0-9] rule: a non-ASCII character.
_NON_ASCII: Final = re.compile(r"[^\x00-\x7f]")
#: ``str.translate`` table: ASCII ``[a-z0-9]`` stay, every other ASCII character becomes a space
#: (rouge-score's tokens are the runs of ``[a-z0-9]`` of the lowercased line).
_SEPARATE: Final = str.maketrans(
    {
        chr(c): chr(c) if chr(c) in "abcdefghijklmnopqrstuvwxyz0123456789" else " "
        for c in range(128)
    }
)


@dataclass(frozen=True, slots=True, eq=False)
class LineTokens:
    """The token spans of many lines: line ``i`` has tokens ``offsets[i]:offsets[i + 1]``.

    ``start[t]``/``end[t]`` is the half-open character range of token ``t`` in its original line.
    """

    offsets: IntArray
    start: IntArray
    end: IntArray

    def spans(self, line: int) -> list[Span]:
        """The spans of the tokens of one line, as plain tuples."""
        a, b = int(self.offsets[line]), int(self.offsets[line + 1])
        return list(zip(self.start[a:b].tolist(), self.end[a:b].tolist(), strict=True))


@dataclass(frozen=True, slots=True)
class SystemRow:
    """One system's output on one row: what :class:`core.scoring.detail.HypothesisDetail`
    highlights."""

    bleu_spans: list[Span]
    bleu_levels: list[int]  # per BLEU token: highest matched order, 0 = unmatched
    rouge_spans: list[Span]
    lcs_levels: list[int]  # per ROUGE token: 1 in the LCS with the ROUGE-L reference
    lcs_reference: int  # the reference score_multi picks for ROUGE-L


@dataclass(frozen=True, slots=True)
class ReferenceRow:
    """One reference on one row: what :class:`core.scoring.detail.ReferenceDetail` highlights."""

    bleu_spans: list[Span]
    bleu_levels: list[list[int]]  # per system, per BLEU token
    missed: list[int]  # BLEU tokens no system matched
    rouge_spans: list[Span]
    lcs_levels: list[list[int]]  # per system, per ROUGE token: 1 in that system's LCS


@dataclass(frozen=True, slots=True)
class RowHighlights:
    """The highlights of one row as plain Python lists (tests, painting)."""

    segment: int
    references: tuple[ReferenceRow, ...]
    systems: tuple[SystemRow, ...]


@dataclass(frozen=True, slots=True, eq=False)
class BatchDetail:
    """The highlights of the rows ``start:stop`` of every reference and system.

    Lines are numbered row-major: reference ``r`` of row ``k`` (0-based in the chunk) is line
    ``k * n_refs + r`` of :attr:`ref_bleu` and :attr:`ref_rouge`; system ``s`` of row ``k`` is
    line ``k * n_systems + s`` of :attr:`hyp_bleu` and :attr:`hyp_rouge`. Per-token arrays follow
    the token order of those :class:`LineTokens`; the ones with a leading system axis hold one
    plane per system.
    """

    start: int
    n_rows: int
    n_refs: int
    n_systems: int
    ref_bleu: LineTokens
    hyp_bleu: LineTokens
    ref_rouge: LineTokens
    hyp_rouge: LineTokens
    #: Per hypothesis BLEU token: the highest order of a clipped matched n-gram covering it.
    hyp_bleu_levels: LevelArray
    #: ``(n_systems, reference BLEU tokens)``: the same for the reference's tokens, matched
    #: against that reference alone (``BleuDetail.ref_orders``).
    ref_bleu_levels: LevelArray
    #: Per reference BLEU token: no system matched it.
    ref_missed: BoolArray
    #: Per hypothesis ROUGE token: in the LCS with the reference chosen for ROUGE-L.
    hyp_lcs: BoolArray
    #: ``(n_systems, reference ROUGE tokens)``: in the LCS of that reference and system.
    ref_lcs: BoolArray
    #: ``(n_rows, n_systems)``: the reference chosen for ROUGE-L (``score_multi``).
    lcs_reference: IntArray

    @property
    def stop(self) -> int:
        return self.start + self.n_rows

    def row(self, segment: int) -> RowHighlights:
        """The highlights of one row (``segment`` counts from the start of the corpus)."""
        k = segment - self.start
        if not 0 <= k < self.n_rows:
            raise IndexError(f"segment {segment} is not in this chunk ({self.start}:{self.stop})")
        n_refs, n_sys = self.n_refs, self.n_systems
        systems: list[SystemRow] = []
        for s in range(n_sys):
            line = k * n_sys + s
            a, b = int(self.hyp_bleu.offsets[line]), int(self.hyp_bleu.offsets[line + 1])
            c, d = int(self.hyp_rouge.offsets[line]), int(self.hyp_rouge.offsets[line + 1])
            systems.append(
                SystemRow(
                    self.hyp_bleu.spans(line),
                    self.hyp_bleu_levels[a:b].tolist(),
                    self.hyp_rouge.spans(line),
                    self.hyp_lcs[c:d].astype(np.int64).tolist(),
                    int(self.lcs_reference[k, s]),
                )
            )
        references: list[ReferenceRow] = []
        for r in range(n_refs):
            line = k * n_refs + r
            a, b = int(self.ref_bleu.offsets[line]), int(self.ref_bleu.offsets[line + 1])
            c, d = int(self.ref_rouge.offsets[line]), int(self.ref_rouge.offsets[line + 1])
            references.append(
                ReferenceRow(
                    self.ref_bleu.spans(line),
                    self.ref_bleu_levels[:, a:b].tolist(),
                    np.flatnonzero(self.ref_missed[a:b]).tolist(),
                    self.ref_rouge.spans(line),
                    self.ref_lcs[:, c:d].astype(np.int64).tolist(),
                )
            )
        return RowHighlights(segment, tuple(references), tuple(systems))


# --------------------------------------------------------------------------------------------
# spans of many lines at once


def _code_points(text: str) -> npt.NDArray[np.uint8] | npt.NDArray[np.uint32]:
    """The code points of ``text``, one array element per character."""
    if text.isascii():
        return np.frombuffer(text.encode("ascii"), np.uint8)
    return np.frombuffer(text.encode("utf-32-le", "surrogatepass"), np.uint32)


def _is_space(codes: npt.NDArray[np.uint8] | npt.NDArray[np.uint32]) -> BoolArray:
    """Where ``codes`` are whitespace to ``str.split()``."""
    if codes.dtype == np.uint8:
        return _IS_SPACE[codes]
    return (codes <= _LAST_SPACE) & _IS_SPACE[np.minimum(codes, _LAST_SPACE)]


def _line_starts(lines: Sequence[str]) -> IntArray:
    """Where each line starts in ``" ".join(lines)``, plus one past the end."""
    starts = np.zeros(len(lines) + 1, np.int64)
    np.cumsum(np.fromiter(map(len, lines), np.int64, len(lines)) + 1, out=starts[1:])
    return starts


def _piece_spans(
    joined: str, line_starts: IntArray, word_lengths: IntArray, word_line: IntArray
) -> tuple[IntArray, IntArray]:
    """Spans of words that are the non-whitespace characters of their lines cut into pieces.

    ``joined`` is the lines joined with one space; ``word_lengths`` and ``word_line`` give the
    length and the line of every word, in order, for every line (a line whose words are not
    listed must have no non-whitespace character in ``joined``).
    """
    solid = np.flatnonzero(~_is_space(_code_points(joined)))
    ends = np.cumsum(word_lengths)
    # Per line, the words must hold exactly the line's non-whitespace characters.
    n_lines = line_starts.size - 1
    chars = np.diff(np.searchsorted(solid, line_starts))
    covered = np.bincount(word_line, weights=word_lengths, minlength=n_lines)
    if not np.array_equal(chars, covered):
        bad = int(np.flatnonzero(chars != covered)[0])
        raise RuntimeError(
            f"internal tokenizer error: the words of line {bad} are not the non-whitespace "
            "pieces of that line"
        )
    origin = line_starts[word_line]
    return solid[ends - word_lengths] - origin, solid[ends - 1] + 1 - origin


def _run_spans(joined: str, line_starts: IntArray) -> tuple[IntArray, IntArray, IntArray]:
    """The runs of ``[a-z0-9]`` in ``joined`` (lines joined with one space): start and end in
    their line, and the line of each run."""
    codes = _code_points(joined)
    alnum = ((codes >= 97) & (codes <= 122)) | ((codes >= 48) & (codes <= 57))
    edges = np.diff(alnum.astype(np.int8), prepend=np.int8(0), append=np.int8(0))
    starts = np.flatnonzero(edges == 1)
    ends = np.flatnonzero(edges == -1)
    line = np.searchsorted(line_starts, starts, side="right") - 1
    origin = line_starts[line]
    return starts - origin, ends - origin, line


def _candidate_lines(
    text: str, line_starts: IntArray, marks: Sequence[str] | re.Pattern[str]
) -> list[int]:
    """The lines of ``text`` (lines joined with one space, starting at ``line_starts``) where one
    of ``marks`` (strings without a space, or a pattern matching no space) occurs."""
    if isinstance(marks, re.Pattern):
        found = [m.start() for m in marks.finditer(text)]
    else:
        found = []
        for mark in marks:
            find = text.find
            hit = find(mark)
            while hit >= 0:
                found.append(hit)
                hit = find(mark, hit + 1)
    if not found:
        return []
    return np.unique(np.searchsorted(line_starts, found, side="right") - 1).tolist()


def _blank(lines: list[str], slow: dict[int, Tokens]) -> list[str]:
    """``lines`` with the ``slow`` ones emptied (their characters must not be seen)."""
    if not slow:
        return lines
    kept = list(lines)
    for k in slow:
        kept[k] = ""
    return kept


@dataclass(frozen=True, slots=True)
class _ChunkTokens:
    """Words and spans of all lines of a chunk, line after line in column-major order (line
    ``c * n + k`` is column ``c`` of row ``k``)."""

    words: list[str]  # every line's words, flat
    lengths: IntArray  # (n_columns, n): words per line
    start: IntArray  # per word: its span in its original line
    end: IntArray


def _assemble(
    lengths: IntArray, fast: BoolArray, starts: IntArray, ends: IntArray, slow: dict[int, Tokens]
) -> tuple[IntArray, IntArray]:
    """Flat spans of every line: ``starts``/``ends`` hold those of the lines where ``fast`` is set,
    in order, ``slow`` the tokens of the others (``lengths``: tokens per line)."""
    if not slow:
        return starts, ends
    total = int(lengths.sum())
    all_starts = np.empty(total, np.int64)
    all_ends = np.empty(total, np.int64)
    on_fast = np.repeat(fast, lengths)
    all_starts[on_fast] = starts
    all_ends[on_fast] = ends
    spans = [span for k in sorted(slow) for span in slow[k].spans]
    if spans:
        slow_spans = np.array(spans, np.int64)
        all_starts[~on_fast] = slow_spans[:, 0]
        all_ends[~on_fast] = slow_spans[:, 1]
    return all_starts, all_ends


# --------------------------------------------------------------------------------------------
# ROUGE-L: rouge-score's LCS of many pairs at once


def _bit_length(values: WordArray) -> IntArray:
    """``int.bit_length`` of every element (exact: each 32-bit half is exact in a float64)."""
    high = (values >> _HALF).astype(np.float64)
    low = (values & _LOW_HALF).astype(np.float64)
    return np.where(high > 0, np.frexp(high)[1] + 32, np.frexp(low)[1]).astype(np.int64)


def _lcs_pairs(
    counts: NgramCounts, ref: int, hyp: int, words: Sequence[str]
) -> tuple[IntArray, IntArray]:
    """rouge-score's LCS of the lines of column ``ref`` (its ``ref``) and column ``hyp`` on every
    row, as the flat token positions of its pairs (hypothesis side, reference side).

    ``counts`` must be at order 1. Rows whose reference has at most 64 tokens are computed
    together on ``uint64`` words; the others with :class:`core.metrics.lcs.PreparedSequence`.
    """
    n = counts.n_rows
    lengths = counts.lengths
    if not n:
        return np.zeros(0, np.int64), np.zeros(0, np.int64)
    line_ends = np.cumsum(lengths.reshape(-1)).reshape(lengths.shape)
    line_starts = line_ends - lengths
    gram = counts.gram
    row_of = counts.row_of
    n_grams = counts.counts.shape[1]
    ref_len = lengths[ref]
    fits = ref_len <= _WORD
    # Match masks of the references that fit: bit i where the token sits at position i.
    first, last = int(line_starts[ref, 0]), int(line_ends[ref, -1])
    offset = np.arange(first, last) - np.repeat(line_starts[ref], ref_len)
    keep = fits[row_of[first:last]]
    grams, offset = gram[first:last][keep], offset[keep]
    low = offset < 32
    # Bits are distinct per mask, so sums are unions: 32 bits at a time, exact in float64.
    masks = np.bincount(grams[low], weights=np.ldexp(1.0, offset[low]), minlength=n_grams).astype(
        np.uint64
    )
    masks |= np.bincount(
        grams[~low], weights=np.ldexp(1.0, offset[~low] - 32), minlength=n_grams
    ).astype(np.uint64) << np.uint64(32)
    # The hypothesis tokens found in their reference, row by row, in order.
    first = int(line_starts[hyp, 0])
    last = int(line_ends[hyp, -1])
    hits = masks[gram[first:last]]
    found = np.flatnonzero(hits)
    hits = hits[found]
    hit_rows = row_of[first:last][found]
    hit_pos = found + first  # flat position of the hypothesis token
    steps = np.bincount(hit_rows, minlength=n)
    many = steps > _MAX_STEPS
    if many.any():
        # A very long hypothesis would make the step tables huge: those rows go one by one.
        fits = fits & ~many
        keep = ~many[hit_rows]
        hits, hit_rows, hit_pos = hits[keep], hit_rows[keep], hit_pos[keep]
        steps[many] = 0
    hyp_out: list[IntArray] = []
    ref_out: list[IntArray] = []
    n_steps = int(steps.max())
    if n_steps:
        # Rows by decreasing number of steps: step j concerns a prefix of them.
        by_steps = np.argsort(-steps, kind="stable")
        rank = np.empty(n, np.int64)
        rank[by_steps] = np.arange(n)
        sorted_steps = steps[by_steps]
        step_of = np.arange(hits.size) - np.repeat(np.cumsum(steps) - steps, steps)
        table = np.zeros((n_steps, n), np.uint64)
        table[step_of, rank[hit_rows]] = hits
        where = np.zeros((n_steps, n), np.int64)
        where[step_of, rank[hit_rows]] = hit_pos
        # active[j]: how many rows have more than j steps.
        active = np.searchsorted(-sorted_steps, -np.arange(n_steps), side="left")
        size = np.minimum(ref_len[by_steps], _WORD)
        v = _LOW[size]
        columns = np.zeros((n_steps, n), np.uint64)
        for j in range(n_steps):
            k = int(active[j])
            column = v[:k]
            u = column & table[j, :k]
            column = (column + u) | (column - u)
            v[:k] = column
            columns[j, :k] = column
        # The backtrack, from the last hit of every row backwards (see lcs_pairs_from_masks).
        i = size.copy()
        hyp_start = line_starts[hyp][by_steps]
        end = lengths[hyp][by_steps].copy()  # in tokens of the hypothesis line
        ref_start = line_starts[ref][by_steps]
        alive = sorted_steps > 0
        for t in range(n_steps):
            q = np.flatnonzero(alive[: int(active[t])])
            if not q.size:
                break
            step = sorted_steps[q] - 1 - t
            mask = table[step, q]
            column = columns[step, q]
            position = where[step, q]
            j = position - hyp_start[q]
            iq = i[q]
            climb = j + 1 < end[q]
            stops = ~column & _LOW[iq]
            ok = ~climb | (stops != 0)
            iq = np.where(climb, _bit_length(stops), iq)
            stops = (mask | ~column) & _LOW[iq]
            ok &= stops != 0
            p = _bit_length(stops) - 1
            matched = ok & ((mask >> np.maximum(p, 0).astype(np.uint64)) & _ONE).astype(np.bool_)
            hyp_out.append(position[matched])
            ref_out.append(ref_start[q[matched]] + p[matched])
            i[q] = np.where(matched, p, p + 1)
            end[q] = j
            alive[q] = ok & ~(matched & (p == 0))
    # Longer references (and the rows with too many steps), one pair at a time.
    hyp_len = lengths[hyp]
    for k in np.flatnonzero(~fits & (hyp_len > 0)).tolist():
        ref_words = words[line_starts[ref, k] : line_ends[ref, k]]
        prepared = PreparedSequence(ref_words)
        hyp_words = words[line_starts[hyp, k] : line_ends[hyp, k]]
        pairs = prepared.lcs_pairs_from_masks(prepared.token_masks(hyp_words))
        if pairs:
            got = np.array(pairs, np.int64)
            hyp_out.append(line_starts[hyp, k] + got[:, 0])
            ref_out.append(line_starts[ref, k] + got[:, 1])
    if not hyp_out:
        return np.zeros(0, np.int64), np.zeros(0, np.int64)
    return np.concatenate(hyp_out), np.concatenate(ref_out)


# --------------------------------------------------------------------------------------------


def _row_major(lengths: IntArray, base: int) -> tuple[IntArray, IntArray]:
    """Offsets of lines ``(row, column)`` in row-major order, and the gather index that takes
    their tokens from the column-major flat arrays (columns given by ``lengths``, ``(C, n)``,
    their tokens starting at flat position ``base``)."""
    column_major_start = base + (np.cumsum(lengths.reshape(-1)) - lengths.reshape(-1))
    source = column_major_start.reshape(lengths.shape).T.reshape(-1)
    counts = lengths.T.reshape(-1)
    offsets = np.zeros(counts.size + 1, np.int64)
    np.cumsum(counts, out=offsets[1:])
    gather = np.repeat(source - offsets[:-1], counts) + np.arange(int(offsets[-1]))
    return offsets, gather


def _concatenate_lines(parts: Sequence[LineTokens]) -> LineTokens:
    offsets = [parts[0].offsets[:1]]
    base = 0
    for part in parts:
        offsets.append(part.offsets[1:] + base)
        base += int(part.offsets[-1])
    return LineTokens(
        np.concatenate(offsets),
        np.concatenate([part.start for part in parts]),
        np.concatenate([part.end for part in parts]),
    )


def _concatenate(parts: Sequence[BatchDetail]) -> BatchDetail:
    """One :class:`BatchDetail` of consecutive pieces."""
    first = parts[0]
    return BatchDetail(
        start=first.start,
        n_rows=sum(part.n_rows for part in parts),
        n_refs=first.n_refs,
        n_systems=first.n_systems,
        ref_bleu=_concatenate_lines([part.ref_bleu for part in parts]),
        hyp_bleu=_concatenate_lines([part.hyp_bleu for part in parts]),
        ref_rouge=_concatenate_lines([part.ref_rouge for part in parts]),
        hyp_rouge=_concatenate_lines([part.hyp_rouge for part in parts]),
        hyp_bleu_levels=np.concatenate([part.hyp_bleu_levels for part in parts]),
        ref_bleu_levels=np.concatenate([part.ref_bleu_levels for part in parts], axis=1),
        ref_missed=np.concatenate([part.ref_missed for part in parts]),
        hyp_lcs=np.concatenate([part.hyp_lcs for part in parts]),
        ref_lcs=np.concatenate([part.ref_lcs for part in parts], axis=1),
        lcs_reference=np.concatenate([part.lcs_reference for part in parts]),
    )


class BatchDetailer:
    """Computes :class:`BatchDetail` for chunks of rows under one configuration."""

    def __init__(self, config: ScoringConfig) -> None:
        self.config = config
        self.btok = bleu_tokenizer(config.tokenize, lowercase=config.lowercase)
        self.rtok = rouge_tokenizer(config.rouge_tokenizer, stem=config.rouge_stem)
        # Lines with a ROUGE-Lsum separator: tokens of each sentence, as the row detail has them.
        self._rows = RowDetailer(config)

    def detail_lines(
        self,
        references: Sequence[Sequence[str]],
        systems: Sequence[Sequence[str]],
        start: int = 0,
    ) -> BatchDetail:
        """Detail of one chunk: ``references[r][k]`` and ``systems[s][k]`` are row ``start + k``."""
        parts = chunk_pieces(references, systems, start, _PIECE_ROWS)
        if len(parts) == 1:
            return self._detail(*parts[0])
        return _concatenate([self._detail(*part) for part in parts])

    def _detail(
        self, references: Sequence[Sequence[str]], systems: Sequence[Sequence[str]], start: int
    ) -> BatchDetail:
        n = len(references[0])
        lines = [line for column in (*references, *systems) for line in column]
        n_refs, n_sys = len(references), len(systems)
        shape = (n_refs + n_sys, n)
        bleu = self._bleu_tokens(lines, shape)
        rouge = self._rouge_tokens(lines, shape)
        n_bleu = bleu.start.size
        n_rouge = rouge.start.size

        # -- BLEU levels ------------------------------------------------------------------------
        counts = NgramCounts.from_flat(bleu.words, bleu.lengths, n_refs)
        ref_tokens = int(counts.lengths[:n_refs].sum())
        hyp_levels = np.zeros(n_bleu, np.uint8)
        ref_levels = np.zeros((n_sys, ref_tokens), np.uint8)
        for m in range(1, self.config.max_order + 1):
            counts.advance()
            positions = counts.positions
            if not positions.size:
                break
            per_column = counts.counts  # (C, G)
            # Only n-grams found in a reference and a hypothesis of their row can match.
            # ``any`` over an axis of a 2-D array is an array (numpy's stubs allow a scalar).
            shared = cast(
                BoolArray, per_column[:n_refs].any(axis=0) & per_column[n_refs:].any(axis=0)
            )
            kept = np.flatnonzero(shared[counts.gram])
            positions = positions[kept]
            gram = counts.gram[kept]
            n_grams = per_column.shape[1]
            key = counts.column_of[positions] * n_grams + gram
            # The rank of every occurrence among those of its n-gram in its line (all
            # occurrences of a shared n-gram are kept, so the ranks are exact).
            sizes = (per_column * shared).reshape(-1)
            order = np.argsort(key, kind="stable")
            rank = np.empty(positions.size, np.int64)
            rank[order] = np.arange(positions.size) - (np.cumsum(sizes) - sizes)[key[order]]
            on_ref = positions < ref_tokens
            hyp_at = np.flatnonzero(~on_ref)
            allowed = per_column[:n_refs].max(axis=0)
            starts = positions[hyp_at[rank[hyp_at] < allowed[gram[hyp_at]]]]
            for t in range(m):
                hyp_levels[starts + t] = m
            ref_at = np.flatnonzero(on_ref)
            ref_rank = rank[ref_at]
            ref_gram = gram[ref_at]
            for s in range(n_sys):
                starts = positions[ref_at[ref_rank < per_column[n_refs + s, ref_gram]]]
                plane = ref_levels[s]
                for t in range(m):
                    plane[starts + t] = m

        # -- ROUGE-L LCS ------------------------------------------------------------------------
        rcounts = NgramCounts.from_flat(rouge.words, rouge.lengths, n_refs)
        rcounts.advance()
        r_lengths = rcounts.lengths
        ref_rouge_tokens = int(r_lengths[:n_refs].sum())
        ref_lcs = np.zeros((n_sys, ref_rouge_tokens), np.bool_)
        hyp_lcs = np.zeros(n_rouge, np.bool_)
        lcs_reference = np.zeros((n, n_sys), np.int64)
        for s in range(n_sys):
            c = n_refs + s
            pairs = [_lcs_pairs(rcounts, r, c, rouge.words) for r in range(n_refs)]
            for _, ref_pos in pairs:
                ref_lcs[s, ref_pos] = True
            if n_refs == 1:
                hyp_lcs[pairs[0][0]] = True
                continue
            lcs_len = np.stack(
                [np.bincount(rcounts.row_of[h], minlength=n) for h, _ in pairs]
            )  # (R, n)
            f = rouge_prf(lcs_len, np.broadcast_to(r_lengths[c], lcs_len.shape), r_lengths[:n_refs])
            best = np.argmax(f[..., 2], axis=0)
            lcs_reference[:, s] = best
            for r, (hyp_pos, _) in enumerate(pairs):
                hyp_lcs[hyp_pos[best[rcounts.row_of[hyp_pos]] == r]] = True

        # -- row-major output ---------------------------------------------------------------------
        b_len = counts.lengths
        ref_off, ref_gather = _row_major(b_len[:n_refs], 0)
        hyp_off, hyp_gather = _row_major(b_len[n_refs:], ref_tokens)
        rref_off, rref_gather = _row_major(r_lengths[:n_refs], 0)
        rhyp_off, rhyp_gather = _row_major(r_lengths[n_refs:], ref_rouge_tokens)
        ref_levels = ref_levels[:, ref_gather]
        return BatchDetail(
            start=start,
            n_rows=n,
            n_refs=n_refs,
            n_systems=n_sys,
            ref_bleu=LineTokens(ref_off, bleu.start[ref_gather], bleu.end[ref_gather]),
            hyp_bleu=LineTokens(hyp_off, bleu.start[hyp_gather], bleu.end[hyp_gather]),
            ref_rouge=LineTokens(rref_off, rouge.start[rref_gather], rouge.end[rref_gather]),
            hyp_rouge=LineTokens(rhyp_off, rouge.start[rhyp_gather], rouge.end[rhyp_gather]),
            hyp_bleu_levels=hyp_levels[hyp_gather],
            ref_bleu_levels=ref_levels,
            ref_missed=~cast(BoolArray, ref_levels.any(axis=0)),  # 2-D, so an array
            hyp_lcs=hyp_lcs[rhyp_gather],
            ref_lcs=ref_lcs[:, rref_gather],
            lcs_reference=lcs_reference,
        )

    # -- tokens ---------------------------------------------------------------------------------

    def _bleu_tokens(self, lines: list[str], shape: tuple[int, int]) -> _ChunkTokens:
        """BLEU words and spans of every line (column-major)."""
        btok = self.btok
        lowercase = self.config.lowercase
        per_line = list(map(btok, lines))
        lengths = np.fromiter(map(len, per_line), np.int64, len(lines))
        words = list(chain.from_iterable(per_line))
        joined = " ".join(lines)
        text = joined.lower() if lowercase else joined
        line_starts = _line_starts(lines)
        if len(text) != len(joined):
            candidates: Sequence[int] = range(len(lines))
        elif self.config.tokenize == "13a":
            candidates = _candidate_lines(text, line_starts, _REWRITE_13A_MARKS)
        else:
            candidates = ()
        mapped = self._bleu_mapped
        slow = {k: btok.tokenize(lines[k]) for k in candidates if mapped(lines[k])}
        fast = np.ones(len(lines), np.bool_)
        word_lengths = np.fromiter(map(len, words), np.int64, len(words))
        fast_lengths = lengths
        if slow:
            fast[list(slow)] = False
            kept = _blank(lines, slow)
            joined = " ".join(kept)
            text = joined.lower() if lowercase else joined
            line_starts = _line_starts(kept)
            fast_lengths = np.where(fast, lengths, 0)
            word_lengths = word_lengths[np.repeat(fast, lengths)]
        word_line = np.repeat(np.arange(len(lines)), fast_lengths)
        starts, ends = _piece_spans(text, line_starts, word_lengths, word_line)
        starts, ends = _assemble(lengths, fast, starts, ends, slow)
        return _ChunkTokens(words, lengths.reshape(shape), starts, ends)

    def _bleu_mapped(self, line: str) -> bool:
        """Whether the BLEU tokenizer rewrites ``line`` other than by inserting spaces."""
        text = line.lower() if self.config.lowercase else line
        if len(text) != len(line):
            return True
        return self.config.tokenize == "13a" and any(mark in text for mark in _REWRITE_13A_MARKS)

    def _rouge_tokens(self, lines: list[str], shape: tuple[int, int]) -> _ChunkTokens:
        """ROUGE words (the sentences' words joined, on lines with a separator) and spans."""
        config = self.config
        rtok = self.rtok
        sep = config.lsum_separator
        unicode = config.rouge_tokenizer == "unicode"
        joined = " ".join(lines)
        lowered = joined.lower()
        line_starts = _line_starts(lines)
        candidates: set[int] = set()
        if len(lowered) != len(joined):
            candidates.update(range(len(lines)))
        else:
            if sep is not None and sep in joined:
                if " " in sep:  # a match might straddle two lines
                    candidates.update(range(len(lines)))
                else:
                    candidates.update(_candidate_lines(joined, line_starts, (sep,)))
            if unicode and not lowered.isascii():
                candidates.update(_candidate_lines(lowered, line_starts, _NON_ASCII))
        slow: dict[int, Tokens] = {}
        for k in sorted(candidates):
            line = lines[k]
            if sep is not None and sep in line:
                slow[k] = self._rows.rouge_tokens(line)[0]
            else:
                low = line.lower()
                if len(low) != len(line) or (unicode and not low.isascii()):
                    slow[k] = rtok.tokenize(line)
        fast = np.ones(len(lines), np.bool_)
        if slow:
            fast[list(slow)] = False
            kept = _blank(lines, slow)
            lowered = " ".join(kept).lower()
            line_starts = _line_starts(kept)
        run_start, run_end, run_line = _run_spans(lowered, line_starts)
        runs = np.bincount(run_line, minlength=len(lines))
        if config.rouge_stem:
            # Stemmed words, line by line; stems that are not tokens drop a word, and those
            # lines take the slow path too.
            per_line = [
                list(slow[k].words) if k in slow else rtok(line) for k, line in enumerate(lines)
            ]
            lengths = np.fromiter(map(len, per_line), np.int64, len(lines))
            dropped = np.flatnonzero(fast & (runs != lengths))
            for k in dropped.tolist():
                slow[k] = rtok.tokenize(lines[k])
            if dropped.size:
                fast[dropped] = False
                keep = fast[run_line]
                run_start, run_end = run_start[keep], run_end[keep]
            words = list(chain.from_iterable(per_line))
        else:
            # Without stemming the words are the runs themselves: one split of the whole chunk.
            text = lowered if lowered.isascii() else lowered.encode("ascii", "replace").decode()
            fast_words = text.translate(_SEPARATE).split()
            if len(fast_words) != run_start.size:
                raise RuntimeError("internal tokenizer error: ROUGE words are not the runs")
            lengths = runs
            if slow:
                lengths[list(slow)] = [len(slow[k].words) for k in slow]
                everything = np.empty(int(lengths.sum()), object)
                on_fast = np.repeat(fast, lengths)
                everything[on_fast] = fast_words
                everything[~on_fast] = [w for k in sorted(slow) for w in slow[k].words]
                words = everything.tolist()
            else:
                words = fast_words
        starts, ends = _assemble(lengths, fast, run_start, run_end, slow)
        return _ChunkTokens(words, lengths.reshape(shape), starts, ends)
