"""numpy's pairwise sum, computed while the values stream in.

A corpus figure that is the mean of segment scores (ROUGE, every ``_sentence_mean``) is
``np.mean`` of a contiguous column in :meth:`ScoreTable.corpus
<matchlight.core.scoring.results.ScoreTable.corpus>`: numpy's pairwise summation, whose rounding
depends on how many values there are, not only on their order. A command that streams its rows
never holds the column, so :class:`PairwiseSum` repeats numpy's algorithm as the rows arrive,
given their number in advance: the streamed mean equals the table's bit for bit.

numpy (``pairwise_sum`` in its ``loops_utils``) sums ``n <= 128`` values with eight running sums
(``r[j] += a[i + j]``), then ``((r0 + r1) + (r2 + r3)) + ((r4 + r5) + (r6 + r7))``, then the
``n % 8`` values left one by one; fewer than eight values are added one by one to 0. Longer runs
are split at ``n2 = n // 2`` rounded down to a multiple of eight, and the two halves' sums added.
The reduction starts from 0.0. ``tests/core/scoring/test_pairwise.py`` checks all of it against
numpy itself.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Final

import numpy as np
import numpy.typing as npt

__all__ = ["PairwiseSum"]

FloatArray = npt.NDArray[np.float64]

#: numpy's ``PW_BLOCKSIZE``: runs of at most this many values are summed without splitting.
_BLOCK: Final = 128
#: numpy's unrolling: eight running sums.
_LANES: Final = 8
#: In the order of operations, "add the last two sums".
_ADD: Final = -1


def _operations(n: int) -> Iterator[int]:
    """numpy's pairwise sum of ``n`` values in reverse Polish order: a leaf's length (a run of
    values summed directly), or :data:`_ADD`."""
    if n <= _BLOCK:
        yield n
        return
    half = n // 2
    half -= half % _LANES
    yield from _operations(half)
    yield from _operations(n - half)
    yield _ADD


def _leaf_sums(values: FloatArray) -> FloatArray:
    """numpy's sums of ``values`` ``(leaves, length, width)``: one run of ``length`` values per
    leaf and column, as numpy sums a run of at most :data:`_BLOCK` values."""
    leaves, length, width = values.shape
    if length < _LANES:
        total = np.zeros((leaves, width))
        for i in range(length):
            total += values[:, i]
        return total
    whole = length - length % _LANES
    lanes = np.add.reduce(values[:, :whole].reshape(leaves, whole // _LANES, _LANES, width), 1)
    total = (lanes[:, 0] + lanes[:, 1]) + (lanes[:, 2] + lanes[:, 3])
    total = total + ((lanes[:, 4] + lanes[:, 5]) + (lanes[:, 6] + lanes[:, 7]))
    for i in range(whole, length):
        total += values[:, i]
    return total


class PairwiseSum:
    """``np.add.reduce`` of ``n`` rows of ``width`` columns (each column summed on its own),
    fed a few rows at a time in order with :meth:`add`; memory stays that of one run of
    :data:`_BLOCK` rows and the partial sums of the tree (about ``log2(n)`` of them)."""

    def __init__(self, n: int, width: int) -> None:
        if n < 0 or width < 0:
            raise ValueError(f"a sum of {n} rows of {width} columns")
        self.n = n
        self.width = width
        self._seen = 0
        self._ops = _operations(n) if n else iter(())
        self._op: int | None = next(self._ops, None)  # the next operation, not done yet
        self._stack: list[FloatArray] = []
        self._pending: list[FloatArray] = []
        self._pending_rows = 0

    def add(self, rows: npt.ArrayLike) -> None:
        """Add the next rows ``(k, width)``; more than ``n`` rows in all is an error."""
        values = np.asarray(rows, dtype=np.float64)
        if values.ndim != 2 or values.shape[1] != self.width:
            raise ValueError(f"rows of shape (k, {self.width}), not {values.shape}")
        if self._seen + len(values) > self.n:
            raise ValueError(f"more than the {self.n} rows announced")
        self._seen += len(values)
        if len(values):
            self._pending.append(values)
            self._pending_rows += len(values)
            if self._op is not None and self._pending_rows >= self._op:
                self._consume()

    def _consume(self) -> None:
        values = self._pending[0] if len(self._pending) == 1 else np.concatenate(self._pending)
        start = 0
        while self._op is not None and self._op != _ADD and len(values) - start >= self._op:
            # The leaves of one length that follow each other (with the additions between
            # them) are summed together, then the operations replayed in order.
            length = self._op
            count = 1
            ops = [length]
            self._op = next(self._ops, None)
            while self._op == _ADD or (
                self._op == length and len(values) - start >= (count + 1) * length
            ):
                count += self._op == length
                ops.append(self._op)
                self._op = next(self._ops, None)
            block = values[start : start + count * length].reshape(count, length, self.width)
            sums = iter(_leaf_sums(block))
            start += count * length
            for op in ops:
                if op == _ADD:
                    right = self._stack.pop()
                    self._stack[-1] = self._stack[-1] + right
                else:
                    self._stack.append(next(sums))
        rest = values[start:]
        self._pending = [rest] if len(rest) else []
        self._pending_rows = len(rest)

    def result(self) -> FloatArray:
        """The sums ``(width,)``, once every row was added (numpy's ``0.0 + sum``)."""
        if self._seen != self.n:
            raise ValueError(f"{self._seen} of the {self.n} rows were added")
        if not self.n:
            return np.zeros(self.width)
        if len(self._stack) != 1 or self._op is not None:  # pragma: no cover - by construction
            raise AssertionError("the pairwise tree is incomplete")
        return 0.0 + self._stack[0]

    def mean(self) -> FloatArray:
        """``np.mean`` of each column: the sum divided by ``n`` (NaN for no rows)."""
        if not self.n:
            return np.full(self.width, np.nan)
        return np.asarray(self.result() / self.n)
