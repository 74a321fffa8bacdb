"""A column of lines held as one UTF-8 buffer and where each line starts.

A million lines as Python strings cost 49-80 bytes of object header each besides their text
(1.0 GB for the 6 columns of 1M rows x 3 systems x 2 references); :class:`TextLines` holds their
UTF-8 bytes back to back and an offset per line (8 bytes), and makes a line's string when it is
asked for. It is a read-only ``Sequence[str]``: indexing gives a string, slicing a tuple of
strings, and it equals the tuple of its lines.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from itertools import pairwise
from operator import methodcaller
from typing import Any, overload

import numpy as np
import numpy.typing as npt

__all__ = ["TextLines"]

# Lines decoded in one go when iterating or slicing: one decode of the block's bytes, then (for
# an all-ASCII block, where bytes and characters coincide) a slice of that string per line.
_BLOCK = 4096
# Lone surrogates (as ``surrogateescape`` makes) are kept as they are, not refused.
_ERRORS = "surrogatepass"


_DECODE = methodcaller("decode", "utf-8", _ERRORS)


def _encoded(line: str) -> bytes:
    return line.encode("utf-8", _ERRORS)


class TextLines(Sequence[str]):
    """Lines as one UTF-8 buffer (``data``) and ``bounds``: line ``i`` is
    ``data[bounds[i]:bounds[i + 1]]``."""

    __slots__ = ("_bounds", "_data", "_hash")

    def __init__(self, data: bytes, bounds: npt.NDArray[np.int64]) -> None:
        if len(bounds) < 1 or bounds[0] != 0 or bounds[-1] != len(data):
            raise ValueError("bounds must run from 0 to the end of the data")
        self._data = data
        self._bounds = bounds
        self._hash: int | None = None

    @classmethod
    def of(cls, batches: Iterable[Sequence[str]]) -> TextLines:
        """The lines of ``batches`` in order, encoded a batch at a time (so that a million
        strings never exist at once when the batches are read lazily)."""
        parts: list[bytes] = []
        lengths: list[npt.NDArray[np.int64]] = []
        for batch in batches:
            if not batch:
                continue
            encoded = list(map(_encoded, batch))
            lengths.append(np.fromiter(map(len, encoded), np.int64, len(encoded)))
            parts.append(b"".join(encoded))
        bounds = np.zeros(sum(map(len, lengths)) + 1, np.int64)
        if lengths:
            np.cumsum(np.concatenate(lengths), out=bounds[1:])
        return cls(b"".join(parts), bounds)

    @property
    def data(self) -> bytes:
        """Every line's UTF-8 bytes, back to back."""
        return self._data

    @property
    def bounds(self) -> npt.NDArray[np.int64]:
        """Where each line starts in :attr:`data`, and where the last one ends (``n + 1``)."""
        return self._bounds

    @property
    def nbytes(self) -> int:
        """The memory the lines take: their bytes and offsets."""
        return len(self._data) + self._bounds.nbytes

    def chars(self) -> int:
        """How many characters the lines hold in all (:meth:`char_lengths` summed)."""
        return int(self.char_lengths().sum())

    def _pieces(self, lows: list[int], highs: list[int]) -> Iterator[bytes]:
        """The bytes ``data[low:high]`` of each pair, sliced in C."""
        return map(self._data.__getitem__, map(slice, lows, highs))

    def pick(self, rows: npt.NDArray[np.intp] | npt.NDArray[np.int64]) -> list[str]:
        """The lines at ``rows`` (any order), decoded in one pass in C."""
        rows = np.asarray(rows, np.int64)
        bounds = self._bounds
        return list(map(_DECODE, self._pieces(bounds[rows].tolist(), bounds[rows + 1].tolist())))

    def raw(self, rows: npt.NDArray[np.intp] | npt.NDArray[np.int64]) -> list[bytes]:
        """The UTF-8 bytes of the lines at ``rows``: keys that are equal, and sort, as the lines
        do (UTF-8 keeps the order of code points), without decoding them."""
        rows = np.asarray(rows, np.int64)
        bounds = self._bounds
        return list(self._pieces(bounds[rows].tolist(), bounds[rows + 1].tolist()))

    def char_lengths(self) -> npt.NDArray[np.int64]:
        """Each line's length in characters, as ``len`` of its string (numpy over the bytes, a
        block of lines at a time: a byte that does not continue a UTF-8 sequence starts a
        character)."""
        n, bounds, data = len(self), self._bounds, self._data
        lengths = np.diff(bounds)
        for a in range(0, n, _BLOCK):
            edges = bounds[a : min(n, a + _BLOCK) + 1]
            low, high = int(edges[0]), int(edges[-1])
            raw = np.frombuffer(data, np.uint8, high - low, low)
            if not raw.size or raw.max() < 0x80:
                continue  # ASCII: a character per byte
            starts = np.zeros(high - low + 1, np.int64)
            np.cumsum((raw & 0xC0) != 0x80, out=starts[1:])
            lengths[a : a + len(edges) - 1] = np.diff(starts[edges - low])
        return lengths

    def joined(self, start: int, stop: int, separator: str) -> str:
        """Lines ``start:stop`` joined by ``separator`` (one ASCII character): the bytes with
        the separator put between the lines by numpy, then decoded in one go."""
        if start >= stop:
            return ""
        mark = separator.encode("ascii")
        if len(mark) != 1:
            raise ValueError("the separator must be one ASCII character")
        edges = self._bounds[start : stop + 1]
        low, high = int(edges[0]), int(edges[-1])
        raw = np.frombuffer(self._data, np.uint8, high - low, low)
        places = edges[1:-1] - low + np.arange(stop - start - 1)  # each separator's place
        out = np.empty(len(raw) + len(places), np.uint8)
        keep = np.ones(len(out), np.bool_)
        keep[places] = False
        out[keep] = raw
        out[places] = mark[0]
        return out.tobytes().decode("utf-8", _ERRORS)

    def byte_lengths(self) -> npt.NDArray[np.int64]:
        """Each line's length in UTF-8 bytes (numpy, no string made)."""
        return np.diff(self._bounds)

    def __len__(self) -> int:
        return len(self._bounds) - 1

    @overload
    def __getitem__(self, index: int) -> str: ...

    @overload
    def __getitem__(self, index: slice) -> tuple[str, ...]: ...

    def __getitem__(self, index: int | slice) -> str | tuple[str, ...]:
        if isinstance(index, slice):
            start, stop, step = index.indices(len(self))
            if step != 1:
                return tuple(self[i] for i in range(start, stop, step))
            return tuple(self._lines(start, max(start, stop)))
        n = len(self)
        i = index.__index__()
        if i < 0:
            i += n
        if not 0 <= i < n:
            raise IndexError("TextLines index out of range")
        bounds = self._bounds
        return self._data[int(bounds[i]) : int(bounds[i + 1])].decode("utf-8", _ERRORS)

    def __iter__(self) -> Iterator[str]:
        n = len(self)
        for a in range(0, n, _BLOCK):
            yield from self._lines(a, min(n, a + _BLOCK))

    def _lines(self, start: int, stop: int) -> list[str]:
        """Lines ``start:stop`` as strings."""
        if start >= stop:
            return []
        edges = self._bounds[start : stop + 1].tolist()
        data = self._data
        low = edges[0]
        block = data[low : edges[-1]].decode("utf-8", _ERRORS)
        if len(block) == edges[-1] - low:  # ASCII, a character per byte: cut the decoded block
            return [block[a - low : b - low] for a, b in pairwise(edges)]
        return list(map(_DECODE, self._pieces(edges, edges[1:])))

    def __eq__(self, other: object) -> bool:
        if isinstance(other, TextLines):
            return self._data == other._data and bool(np.array_equal(self._bounds, other._bounds))
        if isinstance(other, tuple):
            return len(other) == len(self) and all(a == b for a, b in zip(self, other))
        return NotImplemented

    def __hash__(self) -> int:
        """The hash of the tuple of its lines (which it equals)."""
        if self._hash is None:
            self._hash = hash(tuple(self))
        return self._hash

    def __reduce__(self) -> tuple[Any, ...]:
        return (TextLines, (self._data, self._bounds))

    def __repr__(self) -> str:
        return f"<TextLines: {len(self):,} lines, {len(self._data):,} bytes>"
