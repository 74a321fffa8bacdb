"""Counting the n-grams shared by references and hypotheses of many rows at once, in numpy.

Used by every metric's bulk scorer (word n-grams for BLEU and ROUGE, character n-grams for
chrF): the tokens of all lines of a chunk are encoded to integers through one vocabulary dict,
and an n-gram is identified exactly, order by order, as the pair (id of its first n-1 tokens,
id of its last token), made dense with ``np.unique``. No hashing, so no collisions, and because
the row is part of every id, n-grams of different rows never meet.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import chain, count
from typing import cast

import numpy as np
import numpy.typing as npt

__all__ = ["Column", "Encoded", "NgramCounts", "encode"]

IntArray = npt.NDArray[np.int64]
BoolArray = npt.NDArray[np.bool_]

#: Token lists of one column (references ``r`` or system ``s``) over the rows of a chunk.
Column = list[list[str]]


@dataclass(frozen=True, slots=True)
class Encoded:
    """The tokens of every line of a chunk as integers: ``ids`` (every token, column after
    column, row after row; equal exactly for equal tokens, each below ``ids.size``: with
    :func:`encode`, the position of the token's first occurrence), ``lengths``
    ``(n_columns, n_rows)`` and ``vocab`` (:func:`encode`'s: each distinct token and its id,
    in the order of first occurrence)."""

    ids: IntArray
    lengths: IntArray
    vocab: dict[str, int]


def encode(columns: Sequence[Column], n_rows: int) -> Encoded:
    """:class:`Encoded` of ``columns[c][k]``, the tokens of column ``c`` on row ``k``."""
    n_columns = len(columns)
    lengths = np.fromiter(map(len, chain.from_iterable(columns)), np.int64, n_columns * n_rows)
    vocab: dict[str, int] = {}
    words = chain.from_iterable(chain.from_iterable(columns))
    ids = np.fromiter(map(vocab.setdefault, words, count()), np.int64, int(lengths.sum()))
    return Encoded(ids, lengths.reshape(n_columns, n_rows), vocab)


class NgramCounts:
    """Counts of the n-grams of one chunk that references and hypotheses share, order by order.

    ``columns[c][k]`` are the tokens of column ``c`` on row ``k``; the first ``n_refs`` columns are
    references, the others hypotheses. After :meth:`advance` to order ``m``, :attr:`counts` has
    shape ``(n_columns, G)``: how often each of ``G`` distinct (row, m-gram) pairs occurs in each
    column's line of that row. Ids are sorted by row; :attr:`bounds` delimits each row's ids.

    Only a (row, m-gram) pair found in a reference *and* a hypothesis of its row can add to a
    clipped count (the minimum of the two sides). Such an m-gram is made of two shared
    (m-1)-grams, its prefix and its suffix, so from order 2 on only the positions where both are
    shared are looked at (all occurrences of every shared m-gram are among them). Pairs that
    exist on one side only may be missing from :attr:`counts` or counted there: either way their
    clipped count is 0.
    """

    def __init__(self, columns: Sequence[Column], n_rows: int, n_refs: int) -> None:
        encoded = encode(columns, n_rows)
        self._setup(encoded.ids, encoded.lengths, n_refs)

    @classmethod
    def from_flat(cls, words: Iterable[str], lengths: IntArray, n_refs: int) -> NgramCounts:
        """The same from the tokens of every line in one iterable (column after column, row
        after row) and the number of tokens of each line, ``lengths`` ``(n_columns, n_rows)``."""
        counts = cls.__new__(cls)
        counts._count_words(words, lengths, n_refs)
        return counts

    @classmethod
    def from_ids(cls, ids: IntArray, lengths: IntArray, n_refs: int) -> NgramCounts:
        """The same from token ids already made: ``ids[p]`` for every token of :meth:`from_flat`'s
        order, equal exactly for equal tokens and each in ``[0, ids.size)`` (characters: a code
        point mapped to the position of one of its occurrences, with a lookup table)."""
        counts = cls.__new__(cls)
        counts._setup(ids, lengths, n_refs)
        return counts

    def _count_words(self, words: Iterable[str], lengths: IntArray, n_refs: int) -> None:
        vocab: dict[str, int] = {}
        total = int(lengths.sum())
        self._setup(
            np.fromiter(map(vocab.setdefault, words, count()), np.int64, total), lengths, n_refs
        )

    def _setup(self, ids: IntArray, lengths: IntArray, n_refs: int) -> None:
        self.n_columns, n_rows = lengths.shape
        self.n_rows = n_rows
        self.n_refs = n_refs
        self.lengths = lengths
        lengths = lengths.reshape(-1)
        total = int(lengths.sum())
        # Ids are unique per distinct token and below ``total``; they need not be dense.
        self.ids: IntArray = ids
        self.width = max(total, 1)
        doc = np.repeat(np.arange(self.n_columns * n_rows), lengths)
        self.column_of: IntArray = doc // n_rows if n_rows else doc
        self.row_of: IntArray = doc - self.column_of * n_rows
        # Tokens from each position to the end of its line: an m-gram starts where this is >= m.
        self.remaining: IntArray = np.repeat(np.cumsum(lengths), lengths) - np.arange(total)
        self.order = 0
        #: Start positions (in the flat token array) of the m-grams counted, and their ids.
        self.positions: IntArray = np.arange(total)
        self.gram: IntArray = np.zeros(0, np.int64)
        self.gram_row: IntArray = np.zeros(0, np.int64)
        self.counts: IntArray = np.zeros((self.n_columns, 0), np.int64)
        self.bounds: IntArray = np.zeros(n_rows + 1, np.int64)

    def advance(self) -> None:
        """Move on to the next order and count its n-grams."""
        m = self.order + 1
        self.order = m
        width = self.width
        total = self.ids.size
        if m == 1:
            positions = self.positions
            keys = self.row_of * width + self.ids
        else:
            counts = self.counts
            refs = self.n_refs
            # ``any`` over an axis of a 2-D array is an array (numpy's stubs allow a scalar).
            shared = cast(BoolArray, counts[:refs].any(axis=0) & counts[refs:].any(axis=0))
            starts = np.zeros(total + 1, np.bool_)
            starts[self.positions] = shared[self.gram]
            # A shared prefix at p and a shared suffix at p + 1, both inside the line.
            usable = starts[:total] & starts[1:] & (self.remaining >= m)
            positions = np.flatnonzero(usable)
            prefix = np.empty(total, np.int64)
            prefix[self.positions] = self.gram
            keys = prefix[positions] * width + self.ids[positions + (m - 1)]
        unique, inverse = _unique_inverse(keys)
        n_grams = unique.size
        # The row of every n-gram: unigram keys start with the row, longer n-grams inherit the
        # row of their prefix. Keys are sorted, so the rows come out sorted too.
        gram_row = unique // width if m == 1 else self.gram_row[unique // width]
        self.counts = np.bincount(
            self.column_of[positions] * n_grams + inverse, minlength=self.n_columns * n_grams
        ).reshape(self.n_columns, n_grams)
        self.positions = positions
        self.gram = inverse
        self.gram_row = gram_row
        self.bounds = np.searchsorted(gram_row, np.arange(self.n_rows + 1))

    def row_sums(self, values: IntArray) -> IntArray:
        """Sum ``values`` (``(..., G)``, per n-gram id) over the n-grams of each row."""
        cumulative = np.zeros((*values.shape[:-1], values.shape[-1] + 1), np.int64)
        np.cumsum(values, axis=-1, out=cumulative[..., 1:])
        return cumulative[..., self.bounds[1:]] - cumulative[..., self.bounds[:-1]]


def _unique_inverse(keys: IntArray) -> tuple[IntArray, IntArray]:
    """``np.unique(keys, return_inverse=True)`` for non-negative keys: each key is sorted with its
    position in the low bits, as one int64 (``np.sort`` is several times faster than the
    ``argsort`` inside ``np.unique``); keys too large for that go through ``np.unique``."""
    size = keys.size
    bits = max(size - 1, 1).bit_length()
    if size == 0 or int(keys.max()) >= 1 << (62 - bits):
        unique, inverse = np.unique(keys, return_inverse=True)
        return unique, inverse.reshape(-1)
    packed = np.sort((keys << bits) | np.arange(size))
    ordered = packed >> bits
    first = np.empty(size, np.bool_)
    first[0] = True
    np.not_equal(ordered[1:], ordered[:-1], out=first[1:])
    inverse = np.empty(size, np.int64)
    inverse[packed & ((1 << bits) - 1)] = np.cumsum(first) - 1
    return ordered[first], inverse
