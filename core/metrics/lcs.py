"""Bit-parallel longest common subsequence on Python integers.

One sequence (the *prepared* one, usually the reference) is turned into match masks: for every
distinct token, an integer whose bit ``i`` is set when the token sits at position ``i``. The other
sequence is then scanned token by token, keeping one column of the dynamic-programming table as a
single integer ``V`` (Allison–Dix, in Hyyrö's formulation)::

    U = V & mask[token]
    V = (V + U) | (V - U)

Bit ``i`` of ``V`` is 0 exactly when the LCS of ``prepared[: i + 1]`` and the scanned prefix is
one longer than that of ``prepared[:i]``. So the LCS length is the number of zero bits among the
low ``n`` bits, and any table value ``L[i][j]`` is ``i`` minus the popcount of the low ``i`` bits of
the ``j``-th column.

Keeping every column lets us backtrack. The backtrack reproduces rouge-score's
``_backtrack_norec`` exactly: take a match whenever the two tokens are equal, otherwise step left
when ``L[i][j - 1] > L[i - 1][j]`` and up otherwise. With unequal tokens that condition holds
exactly when bit ``i - 1`` of column ``j`` is 0, so whole runs of "up" steps become one
``int.bit_length`` call. rouge-score's tie-breaking decides which reference tokens ROUGE-Lsum's
union LCS sees, so matching it matters for the scores, not just for the highlighting.

Tokens can be any hashable values whose equality agrees with their hash (strings, ints, tuples).
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Sequence
from itertools import compress, repeat
from typing import Final, TypeVar

import numpy as np
import numpy.typing as npt

from matchlight.core.metrics.ngrams import Column, NgramCounts

__all__ = [
    "PreparedSequence",
    "chunk_lcs_lengths",
    "lcs_length",
    "lcs_pairs",
    "match_masks",
    "next_order",
    "occurrences",
    "rouge_score_lcs_indices",
]

#: ``_POWERS[i] == 1 << i``; building masks from a table is measurably faster than shifting.
_POWERS: tuple[int, ...] = tuple(1 << i for i in range(1024))

#: A token type: anything hashable (``str`` for words, tuples for n-grams).
_T = TypeVar("_T", bound=Hashable)


def match_masks(tokens: Sequence[_T]) -> dict[_T, int]:
    """Map every distinct token to the bit mask of the positions where it occurs."""
    masks: dict[_T, int] = {}
    get = masks.get
    if len(tokens) <= len(_POWERS):
        for token, bit in zip(tokens, _POWERS, strict=False):
            masks[token] = get(token, 0) | bit
    else:
        bit = 1
        for token in tokens:
            masks[token] = get(token, 0) | bit
            bit <<= 1
    return masks


def occurrences(token_masks: Sequence[int]) -> dict[int, int]:
    """Where the tokens of a scanned sequence occur in a prepared one, as :func:`next_order` wants.

    ``token_masks[i]`` is the match mask of token ``i`` of a scanned sequence in a prepared one
    (0 when the prepared sequence lacks it, see :meth:`PreparedSequence.token_masks`). Returns
    ``{i: mask}`` for the tokens that occur there, in increasing ``i``.
    """
    return {i: mask for i, mask in enumerate(token_masks) if mask}


def next_order(found: dict[int, int], token_masks: Sequence[int], n: int) -> dict[int, int]:
    """Where the n-grams of a scanned sequence start in a prepared one, from the (n-1)-grams.

    ``found`` maps each start ``i`` of an (n-1)-gram of the scanned sequence that occurs in the
    prepared one to the mask of its start positions there (:func:`occurrences` for n = 2). The
    n-gram at ``i`` starts at ``j`` exactly when the (n-1)-gram at ``i`` does and token
    ``i + n - 1`` sits at ``j + n - 1``: one ``&`` per surviving position, no n-gram is built.
    """
    k = n - 1
    last = len(token_masks) - k
    return {
        i: both
        for i, mask in found.items()
        if i < last and (both := mask & token_masks[i + k] >> k)
    }


class PreparedSequence:
    """Match masks of one sequence, computed once and reused against many others.

    All results are expressed with this sequence playing rouge-score's ``ref`` role (the rows of
    its table): indices "in self" are positions in :attr:`tokens`.
    """

    __slots__ = ("_full", "_masks", "tokens")

    tokens: tuple[Hashable, ...]
    _masks: dict[Hashable, int]
    _full: int

    def __init__(self, tokens: Sequence[Hashable]) -> None:
        self.tokens = tuple(tokens)
        self._masks = match_masks(self.tokens)
        self._full = (1 << len(self.tokens)) - 1

    def __len__(self) -> int:
        return len(self.tokens)

    def __repr__(self) -> str:
        return f"PreparedSequence(<{len(self.tokens)} tokens, {len(self._masks)} distinct>)"

    def lcs_length(self, other: Iterable[Hashable]) -> int:
        """Length of a longest common subsequence of this sequence and ``other``."""
        v = full = self._full
        # Tokens absent from this sequence leave the column unchanged: filter them out in C.
        for mask in filter(None, map(self._masks.get, other)):
            u = v & mask
            v = (v + u) | (v - u)
        # Carries may set bits above position n - 1; only the low n bits are table values.
        return len(self.tokens) - (v & full).bit_count()

    def token_masks(self, other: Iterable[Hashable]) -> list[int]:
        """The match mask of every token of ``other`` (0 for tokens absent from this sequence)."""
        return list(map(self._masks.get, other, repeat(0)))

    def _columns(self, all_masks: list[int]) -> tuple[int, list[int], list[int], list[int]]:
        """The DP columns of the tokens of ``other`` that occur in this sequence.

        ``all_masks`` are :meth:`token_masks` of ``other``. Returns
        ``(m, positions, masks, columns)``: ``m = len(other)``; for the k-th such token,
        ``positions[k]`` is its index in ``other``, ``masks[k]`` its match mask and
        ``columns[k]`` the column after it. The column of any other token equals the column of
        the nearest such token to its left (all ones, :attr:`_full`, if there is none).
        """
        positions = list(compress(range(len(all_masks)), all_masks))
        masks = list(filter(None, all_masks))
        v = self._full
        columns: list[int] = []
        append = columns.append
        for mask in masks:
            u = v & mask
            v = (v + u) | (v - u)
            append(v)
        return len(all_masks), positions, masks, columns

    def _backtrack(self, all_masks: list[int]) -> list[tuple[int, int]]:
        """rouge-score's backtrack, from the bottom-right corner; pairs come out in reverse.

        ``all_masks`` are :meth:`token_masks` of the other sequence. rouge-score walks every
        column; runs of columns whose token does not occur here are walked in one step: in the
        first of them (going left) the path climbs to just above the highest row where the
        column grows, and in the others of the run it only moves left.
        """
        end, positions, masks, columns = self._columns(all_masks)
        pairs: list[tuple[int, int]] = []
        i = len(self.tokens)
        for k in range(len(masks) - 1, -1, -1):
            j = positions[k]
            column = columns[k]
            if j + 1 < end:
                # Columns j + 1 .. end - 1 have no match and equal this column.
                stops = ~column & ((1 << i) - 1)
                if not stops:
                    break
                i = stops.bit_length()
            mask = masks[k]
            # Highest row p < i where the tokens are equal (take the match) or where the column
            # does not grow at p (rouge-score steps left there). Rows above p are all "up" steps.
            stops = (mask | ~column) & ((1 << i) - 1)
            if not stops:
                break
            p = stops.bit_length() - 1
            if (mask >> p) & 1:
                pairs.append((p, j))
                if not p:
                    break
                i = p
            else:
                i = p + 1
            end = j
        return pairs

    def lcs_pairs(self, other: Iterable[Hashable]) -> list[tuple[int, int]]:
        """One LCS as increasing ``(index in self, index in other)`` pairs.

        It is the LCS rouge-score's backtrack picks when this sequence is its ``ref``.
        """
        pairs = self._backtrack(self.token_masks(other))
        pairs.reverse()
        return pairs

    def lcs_pairs_from_masks(self, token_masks: list[int]) -> list[tuple[int, int]]:
        """:meth:`lcs_pairs` of the sequence whose :meth:`token_masks` are ``token_masks``,
        as increasing ``(index in the other sequence, index in self)`` pairs (swapped).

        :meth:`_columns` and :meth:`_backtrack` fused into one pass each way (the detail
        path's hot spot).
        """
        positions = list(compress(range(len(token_masks)), token_masks))
        if not positions:
            return []
        masks = list(filter(None, token_masks))
        v = self._full
        columns: list[int] = []
        append = columns.append
        for mask in masks:
            u = v & mask
            v = (v + u) | (v - u)
            append(v)
        pairs: list[tuple[int, int]] = []
        i = len(self.tokens)
        end = len(token_masks)
        for j, mask, column in zip(reversed(positions), reversed(masks), reversed(columns)):
            if j + 1 < end:
                # Columns j + 1 .. end - 1 have no match and equal this column.
                stops = ~column & ((1 << i) - 1)
                if not stops:
                    break
                i = stops.bit_length()
            stops = (mask | ~column) & ((1 << i) - 1)
            if not stops:
                break
            p = stops.bit_length() - 1
            if mask >> p & 1:
                pairs.append((j, p))
                if not p:
                    break
                i = p
            else:
                i = p + 1
            end = j
        pairs.reverse()
        return pairs

    def lcs_indices(self, other: Iterable[Hashable]) -> list[int]:
        """Indices into this sequence of rouge-score's LCS (``lcs_ind(self.tokens, other)``)."""
        indices = [i for i, _ in self._backtrack(self.token_masks(other))]
        indices.reverse()
        return indices

    def lcs_index_mask(self, other: Iterable[Hashable]) -> int:
        """Same positions as :meth:`lcs_indices`, as a bit mask (bit ``i`` = index ``i``)."""
        result = 0
        for i, _ in self._backtrack(self.token_masks(other)):
            result |= 1 << i
        return result


def lcs_length(a: Sequence[Hashable], b: Sequence[Hashable]) -> int:
    """Length of a longest common subsequence of ``a`` and ``b``."""
    if len(a) < len(b):
        # Scanning the shorter sequence costs fewer Python-level steps.
        a, b = b, a
    if not b:
        return 0
    return PreparedSequence(a).lcs_length(b)


def lcs_pairs(a: Sequence[Hashable], b: Sequence[Hashable]) -> list[tuple[int, int]]:
    """One longest common subsequence as increasing ``(index in a, index in b)`` pairs."""
    return PreparedSequence(a).lcs_pairs(b)


def rouge_score_lcs_indices(ref: Sequence[Hashable], can: Sequence[Hashable]) -> list[int]:
    """The reference indices rouge-score's ``lcs_ind(ref, can)`` returns, in increasing order.

    Same result (including which of several LCSs is chosen) as rouge-score's quadratic table plus
    ``_backtrack_norec``, computed bit-parallel.
    """
    return PreparedSequence(ref).lcs_indices(can)


# -- many rows at once, in numpy -------------------------------------------------------------

IntArray = npt.NDArray[np.int64]
BoolArray = npt.NDArray[np.bool_]

_WORD: Final = 64
_ALL_ONES: Final = np.uint64(2**64 - 1)


def _popcount(values: npt.NDArray[np.uint64]) -> IntArray:
    if hasattr(np, "bitwise_count"):  # numpy >= 2.0
        return np.bitwise_count(values).astype(np.int64)
    table = np.array([bin(i).count("1") for i in range(256)], np.int64)  # pragma: no cover
    return table[values.view(np.uint8)].reshape(-1, 8).sum(axis=1)  # pragma: no cover


def _bit_parallel_lcs(
    counts: NgramCounts, prepared: int, scanned: int, rows: BoolArray
) -> IntArray:
    """LCS lengths of the lines of two columns on the ``rows`` where ``prepared``'s line has at
    most 64 tokens, all those rows at once; other rows get 0.

    The same bit-parallel recurrence as :meth:`core.metrics.lcs.PreparedSequence.lcs_length`, on one
    ``uint64`` word per row: ``u = v & mask; v = (v + u) | (v - u)``, step ``j`` applied to the
    rows with a ``j``-th scanned token that occurs in the prepared line. Carries out of the word
    only affect bits above the line's length, which are never read (as with Python integers).
    ``counts`` must be at order 1 (every position counted, unigram ids per row).
    """
    n = counts.n_rows
    lengths = counts.lengths
    gram = counts.gram
    n_grams = counts.counts.shape[1]
    ends = np.cumsum(lengths.reshape(-1)).reshape(lengths.shape)
    starts = ends - lengths
    first = starts[prepared, 0] if n else 0
    last = ends[prepared, -1] if n else 0
    # Match masks: bit i of the mask of (row, token) is set where the token is at position i.
    grams = gram[first:last]
    line_start = np.repeat(starts[prepared], lengths[prepared])
    offset = np.arange(first, last) - line_start
    keep = rows[counts.row_of[first:last]]
    grams, offset = grams[keep], offset[keep]
    # Bits are distinct per mask, so sums are unions: 32 bits at a time, exact in float64.
    low = offset < 32
    masks = np.bincount(grams[low], weights=np.ldexp(1.0, offset[low]), minlength=n_grams).astype(
        np.uint64
    )
    masks |= np.bincount(
        grams[~low], weights=np.ldexp(1.0, offset[~low] - 32), minlength=n_grams
    ).astype(np.uint64) << np.uint64(32)
    # The scanned tokens that occur in the prepared line, row by row, in order.
    first, last = (starts[scanned, 0], ends[scanned, -1]) if n else (0, 0)
    hits = masks[gram[first:last]]
    found = np.flatnonzero(hits)
    hits = hits[found]
    hit_rows = counts.row_of[first:last][found]
    steps = np.bincount(hit_rows, minlength=n)
    # Rows by decreasing number of steps: step j concerns a prefix of them.
    by_steps = np.argsort(-steps, kind="stable")
    rank = np.empty(n, np.int64)
    rank[by_steps] = np.arange(n)
    step_of = np.arange(hits.size) - np.repeat(np.cumsum(steps) - steps, steps)
    n_steps = int(steps.max()) if n else 0
    table = np.zeros((n_steps, n), np.uint64)
    table[step_of, rank[hit_rows]] = hits
    active = np.searchsorted(-steps[by_steps], -np.arange(n_steps), side="right")
    size = lengths[prepared][by_steps]
    full: npt.NDArray[np.uint64] = np.where(
        size >= _WORD, _ALL_ONES, (np.uint64(1) << np.minimum(size, _WORD - 1).astype(np.uint64))
    )
    full[size < _WORD] -= np.uint64(1)
    v = full.copy()
    for j in range(n_steps):
        k = int(active[j])
        column = v[:k]
        u = column & table[j, :k]
        v[:k] = (column + u) | (column - u)
    result = np.zeros(n, np.int64)
    result[by_steps] = size - _popcount(v & full)
    result[~rows] = 0
    return result


def chunk_lcs_lengths(counts: NgramCounts, tokens: Sequence[Column]) -> IntArray:
    """ROUGE-L overlaps ``(n_refs, n_systems, n)``: the LCS length of every pair of a row.

    Bit-parallel on ``uint64`` words with the shorter-than-65-token side prepared
    (:func:`_bit_parallel_lcs`); pairs of two longer lines go through
    :class:`core.metrics.lcs.PreparedSequence`. ``counts`` must be at order 1.
    """
    n_refs = counts.n_refs
    n_sys = counts.n_columns - n_refs
    n = counts.n_rows
    lengths = counts.lengths
    out = np.zeros((n_refs, n_sys, n), np.int64)
    for r in range(n_refs):
        ref_fits = lengths[r] <= _WORD
        for s in range(n_sys):
            c = n_refs + s
            hyp_fits = lengths[c] <= _WORD
            out[r, s] = _bit_parallel_lcs(counts, r, c, ref_fits)
            swapped = hyp_fits & ~ref_fits
            if swapped.any():
                out[r, s, swapped] = _bit_parallel_lcs(counts, c, r, swapped)[swapped]
            for k in np.flatnonzero(~(ref_fits | hyp_fits)).tolist():
                out[r, s, k] = PreparedSequence(tokens[r][k]).lcs_length(tokens[c][k])
    return out
