"""Which rows of a text column hold each of its most frequent short byte strings: an index for
the substring searches that match most rows.

A substring found in most rows of a column costs a search one look per row (every row must be
asked), where a rare one costs one scan of the column's bytes. So a column (case-folded, as one
UTF-8 buffer: :class:`~core.analysis.textsearch._Utf8Rows`) can keep, for its most frequent
1-, 2- and 3-byte strings ("n-grams", as many as fit in :data:`_BYTES_A_ROW` bytes a row), the
exact set of rows holding each, packed one bit a row (:class:`NgramIndex`). A needle that is
itself such an n-gram is answered by its bitmap alone; a longer one can only lie in the rows
holding every one of its indexed n-grams (the AND of their bitmaps), which are then the only
rows asked. N-grams holding a newline are never indexed (rows are separated by one, and a row
may hold one): no n-gram spans two rows.

Numbers are what regular expressions often look for (``\\b(19|20)\\d\\d\\b``), and a pair of
digits is seldom among the most frequent n-grams (each digit is: alone, the index could only say
"holds a 1 and a 9"). So the index also keeps, for every pair of ASCII digits some row holds,
the rows holding it (:attr:`NgramIndex.pairs`: their numbers, a few bytes for each row holding
digits side by side): a needle that is such a pair is answered exactly, and one holding some (a
year, an amount) is looked for only in the rows holding all of them.

The index is built in the background (:func:`build_index`), with numpy, a block of rows at a
time (each call a few milliseconds, which lets other threads run), and may stop between two
blocks. Which n-grams are kept is decided by counting the rows holding each on a sample of
rows: only those in at least :data:`_FREQUENT` of the rows (a rarer needle is fast to find
without them); every such byte, then the most frequent 2- and 3-grams.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

if TYPE_CHECKING:
    from matchlight.core.analysis.textsearch import _Utf8Rows

__all__ = ["NgramIndex", "build_index", "find_indexed", "may_hold"]

BoolArray = npt.NDArray[np.bool_]
RowArray = npt.NDArray[np.int32]
Cancelled = Callable[[], bool]

#: The index's bytes per row: one bit per row for each n-gram kept (so at most 8 times as many
#: n-grams, one less: an id of 255 means none).
_BYTES_A_ROW = 32
_MOST_GRAMS = min(255, 8 * _BYTES_A_ROW)
#: The smallest share of a column's rows (on the sample) holding an n-gram for it to be kept.
_FREQUENT = 1 / 50
#: Rows of the sample that decides which n-grams are kept: windows spread over the column.
_SAMPLE_WINDOWS = 16
_SAMPLE_ROWS = 1024
#: The most distinct bytes in the n-grams kept (their 3-byte codes index a table of
#: ``(_LETTERS + 1) ** 3`` entries, which should stay in the processor's cache).
_LETTERS = 63
#: Rows indexed in one step (its arrays stay in the processor's cache).
_BUILD_BLOCK = 1 << 12
#: The byte that ends each row (and that no n-gram kept holds).
_NEWLINE = 10
_NONE = 255
#: The ASCII digits' first byte ("0"): :attr:`NgramIndex.pairs` keeps the pairs of the ten.
_ZERO = 48
#: The second byte of a pair's key for "a digit followed by a character that is no ASCII" (any
#: byte from it on starts one in UTF-8).
_HIGH = 0x80
#: Codes of pairs: 100 of two digits, 10 of a digit and a character that is no ASCII.
_CODES = 110
_NO_ROWS: RowArray = np.zeros(0, np.int32)


def _nothing() -> None:
    return None


@dataclass(frozen=True, slots=True)
class NgramIndex:
    """Per n-gram kept (``grams``: its bytes and its id), the rows holding it: ``bits[id]``, one
    bit per row (packed little-endian, ``rows`` rows); and per pair of ASCII digits held by
    some row (``pairs``: b"19"), the rows holding it, in order (and under a digit and
    :data:`_HIGH`, b"9\\x80", the rows holding that digit followed by a character that is no
    ASCII)."""

    rows: int
    grams: dict[bytes, int]
    bits: npt.NDArray[np.uint8]
    pairs: dict[bytes, RowArray]

    def bitmap(self, gram: bytes) -> BoolArray:
        """Per row: does it hold ``gram`` (an n-gram kept)?"""
        return self._unpack(self.bits[self.grams[gram]])

    def candidates(self, needle: bytes) -> tuple[BoolArray, bool] | None:
        """The rows that may hold ``needle`` (a byte string without a newline), and whether
        exactly those do (``needle`` is an n-gram kept, or a pair of digits); None when none
        of its n-grams is kept and it holds no pair of digits (every row may hold it)."""
        at = self.grams.get(needle)
        if at is not None:
            return self._unpack(self.bits[at]), True
        held = {
            gram: self.grams[gram]
            for size in (3, 2, 1)
            for i in range(len(needle) - size + 1)
            if (gram := needle[i : i + size]) in self.grams
        }
        digit_pairs = {pair for i in range(len(needle) - 1) if _digits(pair := needle[i : i + 2])}
        posted = [self.pairs.get(pair, _NO_ROWS) for pair in digit_pairs]
        if not held and not posted:
            return None
        if posted:  # the rows holding every pair of digits of the needle: few
            rows = min(posted, key=len)
            for other in posted:
                if other is not rows:
                    rows = rows[np.isin(rows, other, assume_unique=True)]
            # Of those, the rows holding the n-grams kept, but for those inside a pair of
            # digits of the needle: a row holding the pair holds them.
            kept = [i for gram, i in held.items() if not any(gram in p for p in digit_pairs)]
            if kept:
                bits = (self.bits[kept][:, rows >> 3] >> (rows & 7).astype(np.uint8)) & 1
                rows = rows[bits.all(axis=0)]
            found = np.zeros(self.rows, np.bool_)
            found[rows] = True
            return found, len(needle) == 2
        ids = sorted(held.values())
        packed = self.bits[ids[0]].copy()
        for i in ids[1:]:
            packed &= self.bits[i]
        return self._unpack(packed), False

    def digit_followed(self, digit: bytes) -> BoolArray:
        """Per row: does it hold the ASCII digit ``digit`` (one byte) followed right away by
        another one, or by a character that is no ASCII (such as the digits of other scripts)?"""
        found = np.zeros(self.rows, np.bool_)
        for second in (*range(_ZERO, _ZERO + 10), _HIGH):
            found[self.pairs.get(digit + bytes((second,)), _NO_ROWS)] = True
        return found

    def _unpack(self, packed: npt.NDArray[np.uint8]) -> BoolArray:
        return np.unpackbits(packed, count=self.rows, bitorder="little").view(np.bool_)

    def nbytes(self) -> int:
        return int(self.bits.nbytes) + sum(rows.nbytes for rows in self.pairs.values())


def _digits(pair: bytes) -> bool:
    """Whether ``pair`` (two bytes) is two ASCII digits."""
    return all(_ZERO <= byte < _ZERO + 10 for byte in pair)


def find_indexed(
    index: NgramIndex | None,
    folded: _Utf8Rows,
    needle: bytes,
    skip: BoolArray | None,
    cancelled: Cancelled,
) -> BoolArray:
    """``folded.find(needle, skip, cancelled)`` asking only the rows that ``index`` says may
    hold ``needle`` (the others are skipped); the index's answer alone where ``needle`` is one
    of its n-grams."""
    hint = _hint(index, needle)
    if hint is None:
        return folded.find(needle, skip, cancelled)
    rows, exact = hint
    if exact:
        return rows if skip is None else rows & ~skip
    return folded.find(needle, ~rows if skip is None else skip | ~rows, cancelled)


def may_hold(
    index: NgramIndex | None, folded: _Utf8Rows, needle: bytes, cancelled: Cancelled
) -> tuple[BoolArray, bool]:
    """The rows that may hold ``needle`` (every row that does, and maybe others), and whether
    exactly those do: the rows ``index`` says may, where it has something to say (exactly
    those that do where ``needle`` is one of its n-grams), else ``folded.holding(needle,
    cancelled)`` (exact)."""
    hint = _hint(index, needle)
    return (folded.holding(needle, cancelled), True) if hint is None else hint


def _hint(index: NgramIndex | None, needle: bytes) -> tuple[BoolArray, bool] | None:
    """``index.candidates(needle)``, or None (no index, or a needle it cannot say about)."""
    if index is None or not needle or b"\n" in needle:
        return None
    return index.candidates(needle)


def _gram(key: int) -> bytes:
    """The bytes of an n-gram's key (``size << 24 | code``, the code's bytes big-endian)."""
    size = key >> 24
    return (key & 0xFFFFFF).to_bytes(3, "big")[3 - size :]


def _frequent_grams(folded: _Utf8Rows, most: int, frequent: float) -> list[bytes]:
    """The n-grams (1 to 3 bytes, no newline) held by the most rows of a sample of ``folded``
    (at most ``most``, each in at least ``frequent`` of the rows), most frequent first."""
    n = len(folded)
    step = max(_SAMPLE_ROWS, n // _SAMPLE_WINDOWS)
    values = np.frombuffer(folded.data, np.uint8)
    # Per window, per n-gram seen (its key: size << 24 | code), how many of its rows hold it.
    seen: list[npt.NDArray[np.int64]] = []
    held_by: list[npt.NDArray[np.int64]] = []
    sampled = 0
    for a in range(0, n, step):
        b = min(n, a + _SAMPLE_ROWS)
        part = values[folded.bounds[a] : folded.bounds[b]]
        row = np.repeat(np.arange(b - a, dtype=np.int64), np.diff(folded.bounds[a : b + 1]))
        wide = part.astype(np.int64)
        two = (wide[:-1] << 8) | wide[1:]
        keys = [
            (row[: len(code)] << 26 | size << 24 | code)[_whole(part, size)]
            for size, code in ((1, wide), (2, two), (3, (two[:-1] << 8) | wide[2:]))
        ]
        held = _runs(np.concatenate(keys))[0] & ((1 << 26) - 1)  # once per row holding it
        grams, counts = _runs(held)
        seen.append(grams)
        held_by.append(counts)
        sampled += b - a
    if not sampled:
        return []
    grams, counts = _runs(np.concatenate(seen), np.concatenate(held_by))
    by_count = np.lexsort((grams, -counts))
    by_count = by_count[counts[by_count] >= frequent * sampled]
    frequent_grams = [_gram(int(k)) for k in grams[by_count]]
    # The bytes first: every needle holds some, so their bitmaps rule out rows for any needle
    # (a byte in one row in 20 costs as much as a 3-gram in one row in 3). Then the longer
    # n-grams made of those bytes (each byte of an n-gram is in as many rows as it, or more).
    ones = [gram for gram in frequent_grams if len(gram) == 1][:_LETTERS]
    letters = {gram[0] for gram in ones}
    longer = [gram for gram in frequent_grams if len(gram) > 1 and letters.issuperset(gram)]
    return (ones + longer)[:most]


def _runs(
    keys: npt.NDArray[np.int64], counts: npt.NDArray[np.int64] | None = None
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """The distinct ``keys`` in order, and per key the sum of its ``counts`` (default: 1s)."""
    if counts is None:
        keys = np.sort(keys)
        starts = np.flatnonzero(np.diff(keys, prepend=-1))
        return keys[starts], np.diff(np.append(starts, len(keys)))
    order = np.argsort(keys)
    keys = keys[order]
    starts = np.flatnonzero(np.diff(keys, prepend=-1))
    sums = np.add.reduceat(counts[order], starts) if len(keys) else counts
    return keys[starts], sums


def _whole(part: npt.NDArray[np.uint8], size: int) -> BoolArray:
    """Per place of ``part`` where a ``size``-byte string starts: does it hold no newline?"""
    newline = part == _NEWLINE
    clear = ~newline[: len(part) - size + 1]
    for j in range(1, size):
        clear &= ~newline[j : len(part) - size + 1 + j]
    return clear


@dataclass(frozen=True, slots=True)
class _Classes:
    """What a block's 3-byte strings say about the n-grams kept: per place, the id of the
    longest n-gram kept that starts there (:data:`_NONE`: none), which the rows' bitmaps then
    extend to the n-grams it holds (:meth:`complete`). The bytes of the n-grams kept are
    first numbered (``symbols``: 1 on; every other byte, the newline too, is 0) so that the
    3-byte codes (three symbols of ``bits`` bits, big-endian) index a small table (``table``,
    its ids shifted to index ``held``), which stays in the processor's cache."""

    symbols: npt.NDArray[np.int32]
    bits: int
    table: npt.NDArray[np.intp]
    # Per n-gram of 1 or 2 bytes (its id), the ids of the longer n-grams kept that hold it at
    # their start (each row holding one of those holds it too).
    longer: list[tuple[int, list[int]]]

    @classmethod
    def of(cls, grams: list[bytes], shift: int) -> _Classes:
        letters = sorted({byte for gram in grams for byte in gram})
        symbols = np.zeros(256, np.int32)
        symbols[letters] = np.arange(1, len(letters) + 1)
        bits = len(letters).bit_length()  # symbol 0 stands for every other byte
        width = 1 << bits
        ids = {gram: i for i, gram in enumerate(grams)}
        # The id per code of 1, 2 and 3 symbols; then, per 3 symbols, the longest kept.
        by_size = [np.full(width**size, _NONE, np.intp) for size in (1, 2, 3)]
        for gram, i in ids.items():
            code = 0
            for byte in gram:
                code = (code << bits) | int(symbols[byte])
            by_size[len(gram) - 1][code] = i
        one, two, three = by_size
        two = np.where(two != _NONE, two, np.repeat(one, width))
        table = np.where(three != _NONE, three, np.repeat(two, width))
        longer = [
            (i, [ids[g] for g in grams if len(g) > len(gram) and g.startswith(gram)])
            for gram, i in ids.items()
            if len(gram) < 3
        ]
        return cls(symbols, bits, table << shift, longer)

    def held(self, part: npt.NDArray[np.uint8], row: npt.NDArray[np.intp], held: BoolArray) -> None:
        """Mark in ``held`` (per id, then per row: ``id << shift | row``) the longest n-gram
        kept starting at each place of ``part`` (``row``: each place's row; ``part`` holds two
        bytes more, which start no n-gram)."""
        symbol = self.symbols[part]
        code = symbol[:-2] << (2 * self.bits)
        code |= symbol[1:-1] << self.bits
        code |= symbol[2:]
        at = self.table[code]
        at |= row
        held[at] = True

    def complete(self, held: BoolArray) -> None:
        """Extend ``held`` (per id, then per row) from the longest n-grams at each place to
        every n-gram kept that each row holds."""
        for i, longer in self.longer:
            for j in longer:
                held[i] |= held[j]


def build_index(
    folded: _Utf8Rows,
    between: Callable[[], None] = _nothing,
    *,
    most: int = _MOST_GRAMS,
    frequent: float = _FREQUENT,
    block: int = _BUILD_BLOCK,
) -> NgramIndex | None:
    """The :class:`NgramIndex` of ``folded`` (None when no n-gram is frequent enough), built
    ``block`` rows at a time; ``between`` is called before each block (to pause there, or to
    give up by raising)."""
    if most > _MOST_GRAMS or block % 8:
        raise ValueError(f"at most {_MOST_GRAMS} n-grams, blocks of a multiple of 8 rows")
    between()
    grams = _frequent_grams(folded, most, frequent)
    if not grams:
        return None
    shift = (block - 1).bit_length()
    classes = _Classes.of(grams, shift)
    n, k = len(folded), len(grams)
    bits = np.empty((k, (n + 7) // 8), np.uint8)
    values = np.frombuffer(folded.data, np.uint8)
    ends = np.full(2, _NEWLINE, np.uint8)  # after the last row: no n-gram starts there
    pairs: list[npt.NDArray[np.int64]] = []  # per block, row * _CODES + code (_digit_pairs)
    for a in range(0, n, block):
        between()
        b = min(n, a + block)
        low, high = int(folded.bounds[a]), int(folded.bounds[b])
        part = values[low : high + 2]
        if len(part) < high + 2 - low:  # the last rows
            part = np.append(part, ends[: high + 2 - low - len(part)])
        row = np.repeat(np.arange(b - a, dtype=np.intp), np.diff(folded.bounds[a : b + 1]))
        held = np.zeros((_NONE + 1, 1 << shift), np.bool_)
        classes.held(part, row, held.reshape(-1))
        classes.complete(held)
        packed = np.packbits(held[:k, : b - a], axis=1, bitorder="little")
        bits[:, a // 8 : a // 8 + packed.shape[1]] = packed
        pairs.append(_digit_pairs(part[: high - low], row) + a * _CODES)
    return NgramIndex(n, {gram: i for i, gram in enumerate(grams)}, bits, _postings(pairs))


def _digit_pairs(part: npt.NDArray[np.uint8], row: npt.NDArray[np.intp]) -> npt.NDArray[np.int64]:
    """Per pair held by a row of ``part`` (whole rows, each ending with its newline; ``row``:
    each byte's row), ``row * _CODES + code`` (:func:`_pair_code`), once each, in order: every
    pair of ASCII digits, and every ASCII digit followed by a character that is no ASCII. No
    pair spans two rows: a newline is neither."""
    digit = (part - np.uint8(_ZERO)) < 10  # wraps below "0"
    after = digit[1:] | (part[1:] >= _HIGH)
    at = np.flatnonzero(digit[:-1] & after)
    first, second = part[at].astype(np.int64) - _ZERO, part[at + 1].astype(np.int64) - _ZERO
    code = np.where(second < 10, first * 10 + second, 100 + first)
    return np.unique(row[at] * _CODES + code)


def _pair_code(code: int) -> bytes:
    """The key in :attr:`NgramIndex.pairs` of a pair's code: two digits (code ``10 * first +
    second``), or a digit and :data:`_HIGH` (code ``100 + digit``: followed by no ASCII)."""
    return b"%02d" % code if code < 100 else bytes((_ZERO + code - 100, _HIGH))


def _postings(pairs: list[npt.NDArray[np.int64]]) -> dict[bytes, RowArray]:
    """Per pair, the rows holding it, in order, from the blocks' ``row * _CODES + code`` (in
    order of their rows)."""
    keys = np.concatenate(pairs) if pairs else np.zeros(0, np.int64)
    if not len(keys):
        return {}
    order = np.argsort(keys % _CODES, kind="stable")  # by pair, each pair's rows in order
    code, rows = keys[order] % _CODES, (keys[order] // _CODES).astype(np.int32)
    starts = np.flatnonzero(np.diff(code, prepend=-1))
    ends = np.append(starts[1:], len(code))
    return {
        _pair_code(int(code[i])): rows[i:j]
        for i, j in zip(starts.tolist(), ends.tolist(), strict=True)
    }
