"""Sorting a text column: its rows' sort ranks and order (for
:meth:`~core.analysis.textsearch.SearchColumn.sort_ranks` and ``sort_order``).

A column keeps its sort ranks: computed once, so that sorting a table by a text column again,
either way, is a numpy radix ``argsort`` of integers (:func:`stable_argsort`). The first sort is
numpy's too, on the folded UTF-8 rows (:class:`~core.analysis.textsearch._Utf8Rows`, which
sort as their code points do) 16 bytes at a time, each time only among the rows still tied
(:func:`byte_order`); rows still tied after 96 bytes are compared in Python. Where texts
repeat, each text is sorted once (:func:`_first_equal`).
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Callable, Sequence
from operator import eq
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from matchlight.core.text.lines import TextLines

if TYPE_CHECKING:
    from matchlight.core.analysis.textsearch import _Utf8Rows

__all__ = ["byte_order", "sort_ranks", "stable_argsort"]

BoolArray = npt.NDArray[np.bool_]
IntArray = npt.NDArray[np.int64]

#: Rows compared (or looked up) in one call: the longest a step holds the GIL at a time.
_BLOCK = 1 << 12
#: Rows sorted in one call when a column's sort ranks are built (merged a block at a time).
_SORT_BLOCK = 1 << 16
#: Runs of rows tied on their first bytes sorted between two calls of a ``between`` callback.
_RUNS_A_STEP = 64
#: Bytes of a row compared at a time when rows are sorted with numpy, and the most bytes so
#: compared (rows still tied are sorted by the rest of their bytes in Python).
_WINDOW = 16
_PREFIX_BYTES = 96


def _nothing() -> None:
    return None


def byte_order(
    folded: _Utf8Rows, between: Callable[[], None] = _nothing, rows: IntArray | None = None
) -> tuple[IntArray, BoolArray]:
    """``rows`` of ``folded`` (default: all, in row order) in the order of their bytes
    (stable), and per neighbouring pair in that order whether their bytes are equal.

    Numpy sorts the rows by their first 16 bytes (as two big-endian integers, zero after a
    row's end, and how many of them the row has); rows tied there are sorted again, within
    their run of ties, by their next 16 bytes, and so on for :data:`_PREFIX_BYTES` bytes.
    Runs still tied then are sorted in Python, by the rest of their bytes
    (:func:`_sorted_rows`)."""
    if rows is None:
        rows = np.arange(len(folded), dtype=np.int64)
    n = len(rows)
    order = np.array(rows, dtype=np.int64)
    same = np.zeros(max(0, n - 1), np.bool_)
    active = np.arange(n, dtype=np.int64)  # places in ``order`` still tied with a neighbour
    run = np.zeros(n, dtype=np.int64)  # per such place, its run of ties (runs in order)
    offset = 0
    while len(active) > 1 and offset < _PREFIX_BYTES:
        high, low, size = _window(folded, order[active], offset, between)
        between()
        keys = (size, low, high) if offset == 0 else (size, low, high, run)
        by_key = np.lexsort(keys)
        order[active] = order[active][by_key]
        high, low, size, run = high[by_key], low[by_key], size[by_key], run[by_key]
        tie = (active[1:] == active[:-1] + 1) & (run[1:] == run[:-1])
        tie &= (high[1:] == high[:-1]) & (low[1:] == low[:-1]) & (size[1:] == size[:-1])
        ended = size[:-1] < _WINDOW  # both rows end inside the window: they are equal
        same[active[:-1][tie & ended]] = True
        going = tie & ~ended
        keep = np.zeros(len(active), np.bool_)
        keep[:-1] |= going
        keep[1:] |= going
        run = np.concatenate(([0], np.cumsum(~going)))[keep]
        active = active[keep]
        offset += _WINDOW
    if len(active) > 1:
        _sort_runs(folded, order, same, active, run, offset, between)
    return order, same


def _window(
    folded: _Utf8Rows, rows: IntArray, offset: int, between: Callable[[], None]
) -> tuple[npt.NDArray[np.uint64], npt.NDArray[np.uint64], IntArray]:
    """Per row, its :data:`_WINDOW` bytes from ``offset`` on (zero after its end) as two
    big-endian integers, and how many of those bytes it has."""
    n = len(rows)
    bounds, values = folded.bounds, np.frombuffer(folded.data, np.uint8)
    high, low = np.zeros(n, np.uint64), np.zeros(n, np.uint64)
    starts = bounds[rows] + offset
    sizes = np.clip(bounds[rows + 1] - 1 - starts, 0, _WINDOW)
    at = np.arange(_WINDOW)
    for a in range(0, n, _SORT_BLOCK):
        between()
        b = min(n, a + _SORT_BLOCK)
        inside = at < sizes[a:b, None]
        where = np.where(inside, starts[a:b, None] + at, 0)
        window = np.where(inside, values[where], 0).astype(np.uint8)
        words = np.ascontiguousarray(window).view(">u8").astype(np.uint64)
        high[a:b], low[a:b] = words[:, 0], words[:, 1]
    return high, low, sizes


def _sort_runs(
    folded: _Utf8Rows,
    order: IntArray,
    same: BoolArray,
    active: IntArray,
    run: IntArray,
    offset: int,
    between: Callable[[], None],
) -> None:
    """Sort each run of ``order``'s places ``active`` (``run``: which run each is in; its
    rows are equal over their first ``offset`` bytes) by the rest of their bytes."""
    data, offsets = folded.data, folded.bounds.tolist()
    cuts = np.flatnonzero(run[1:] != run[:-1]) + 1
    firsts = active[np.concatenate(([0], cuts))].tolist()
    lasts = (active[np.concatenate((cuts - 1, [len(active) - 1]))] + 1).tolist()
    for step, (a, b) in enumerate(zip(firsts, lasts, strict=True)):
        if step % _RUNS_A_STEP == 0:
            between()
        tied = order[a:b].tolist()
        keys = [data[offsets[r] + offset : offsets[r + 1] - 1] for r in tied]
        ordered = _sorted_rows(keys)
        order[a:b] = [tied[i] for i in ordered]
        keys = [keys[i] for i in ordered]
        same[a : b - 1] = _adjacent_equal(keys)


def _sorted_rows(keys: Sequence[Any]) -> list[int]:
    """The rows in the order of their keys (stable). Blocks are sorted apart, then merged in
    pairs, a block at a time (:func:`_merge`): no single call holds the GIL for a sort of every
    row, which would stall the GUI thread for a second at a million rows."""
    key = keys.__getitem__
    runs = [
        sorted(range(a, min(len(keys), a + _SORT_BLOCK)), key=key)
        for a in range(0, len(keys), _SORT_BLOCK)
    ]
    while len(runs) > 1:
        merged = [_merge(runs[i], runs[i + 1], key) for i in range(0, len(runs) - 1, 2)]
        if len(runs) % 2:
            merged.append(runs[-1])
        runs = merged
    return runs[0] if runs else []


def _merge(first: list[int], second: list[int], key: Callable[[int], Any]) -> list[int]:
    """Two sorted runs as one (stable: ``first``'s items come first among equal keys), merged
    at most a block of each at a time (each step is one sort of two short sorted runs)."""
    out: list[int] = []
    i = j = 0
    while i < len(first) and j < len(second):
        # Up to a block of each side, cut where the other side's rest cannot come before it.
        i_end = min(len(first), i + _SORT_BLOCK)
        j_end = bisect_left(
            second, key(first[i_end - 1]), j, min(len(second), j + _SORT_BLOCK), key=key
        )
        if j_end == j + _SORT_BLOCK:  # the block of the second side ends first: cut the first there
            i_end = bisect_right(first, key(second[j_end - 1]), i, i_end, key=key)
        step = first[i:i_end] + second[j:j_end]
        step.sort(key=key)
        out += step
        i, j = i_end, j_end
    out += first[i:]
    out += second[j:]
    return out


def _adjacent_equal(items: list[Any]) -> BoolArray:
    """Per neighbouring pair, are they equal; a block at a time (see :data:`_BLOCK`)."""
    n = max(0, len(items) - 1)
    equal = np.zeros(n, dtype=np.bool_)
    for a in range(0, n, _BLOCK):
        b = min(n, a + _BLOCK)
        equal[a:b] = np.fromiter(map(eq, items[a:b], items[a + 1 : b + 1]), np.bool_, b - a)
    return equal


def _first_equal(strings: Sequence[str], between: Callable[[], None] = _nothing) -> IntArray:
    """Per row, the first row whose text equals its own (itself for a text's first row): one
    dictionary look-up per row, in C, a block of rows at a time (see :data:`_BLOCK`). Only
    where a sample of rows (:data:`_REPEAT_SAMPLE`) shows texts repeated: where they are not,
    every row is its own first row (a dictionary of a million distinct texts costs more than
    sorting them saves)."""
    n = len(strings)
    step = max(1, n // _REPEAT_SAMPLE)
    sample = _keys(strings, np.arange(0, n, step))
    if len(set(sample)) > _MOST_DISTINCT * len(sample):
        return np.arange(n, dtype=np.int64)
    first = np.empty(n, dtype=np.int64)
    seen: dict[str | bytes, int] = {}
    for a in range(0, n, _BLOCK):
        between()
        b = min(n, a + _BLOCK)
        keys = _keys(strings, np.arange(a, b))
        first[a:b] = np.fromiter(map(seen.setdefault, keys, range(a, b)), np.int64, b - a)
    return first


def _keys(strings: Sequence[str], rows: IntArray) -> Sequence[str | bytes]:
    """The texts of ``rows`` as keys that are equal and sort as the texts do: for
    :class:`~core.text.lines.TextLines` their UTF-8 bytes (nothing decoded)."""
    if isinstance(strings, TextLines):
        return strings.raw(rows)
    return [strings[i] for i in rows.tolist()]


#: Rows whose texts are compared to decide whether equal texts are ranked once, and the largest
#: share of distinct texts among them for which they are.
_REPEAT_SAMPLE = 4096
_MOST_DISTINCT = 0.75


def sort_ranks(
    strings: Sequence[str], rows_folded: _Utf8Rows, between: Callable[[], None] = _nothing
) -> IntArray:
    """See :meth:`~core.analysis.textsearch.SearchColumn.sort_ranks`. Equal texts share a
    rank, so where texts repeat only each text's first row is sorted (:func:`_first_equal`):
    by its folded text (:func:`byte_order`, stable); runs of equal folded texts are sorted
    again by how they are written, and the texts equal as written there share a rank too.
    Every other row takes its first row's rank."""
    n = len(strings)
    if n == 0:
        return np.zeros(0, dtype=np.int64)
    first = _first_equal(strings, between)
    distinct = np.flatnonzero(first == np.arange(n, dtype=np.int64))
    order, same = byte_order(rows_folded, between, distinct)
    if same.any():
        edges = np.flatnonzero(~same) + 1
        run_starts = np.concatenate(([0], edges))
        run_ends = np.concatenate((edges, [len(order)]))
        long = run_ends - run_starts > 1
        runs = zip(run_starts[long].tolist(), run_ends[long].tolist(), strict=True)
        for step, (a, b) in enumerate(runs):
            if step % _RUNS_A_STEP == 0:
                between()
            rows = order[a:b]
            keys = dict(zip(rows.tolist(), _keys(strings, rows), strict=True))
            written = sorted(keys, key=keys.__getitem__)
            order[a:b] = written
            same[a : b - 1] = _adjacent_equal([keys[r] for r in written])
    ranks = np.empty(n, dtype=np.int64)
    ranks[order] = np.concatenate(([0], np.cumsum(~same, dtype=np.int64)))
    return ranks if len(distinct) == n else ranks[first]


def stable_argsort(ranks: IntArray, distinct: int) -> IntArray:
    """``np.argsort(ranks, kind="stable")`` for ranks in ``[0, distinct)``: numpy's radix sort
    of 16-bit keys, once or (low half, then high half: least significant digit first) twice,
    where an argsort of the 64-bit ranks is a merge sort several times slower."""
    if distinct <= 1 << 16:
        return np.argsort(ranks.astype(np.uint16), kind="stable").astype(np.int64)
    if distinct > 1 << 32:  # pragma: no cover - no column has four billion rows
        return np.argsort(ranks, kind="stable").astype(np.int64)
    by_low = np.argsort((ranks & 0xFFFF).astype(np.uint16), kind="stable")
    high = (ranks >> 16).astype(np.uint16)[by_low]
    return by_low[np.argsort(high, kind="stable")].astype(np.int64)
