"""TER's search: the edits, shifts included, that turn an output into a reference, as
sacreBLEU 2.6.0's ``TER`` finds them, and the statistics of many rows.

TER (Snover et al., 2006) counts the edits that turn an output into a reference, divided by the
reference's length: word substitutions, deletions (an output word the reference lacks),
insertions (a reference word the output lacks) and shifts (a phrase of the output moved
elsewhere, one edit whatever its length). sacreBLEU's implementation (``lib_ter.py``, after
tercom) is reproduced exactly, quirks included:

* words are TER's tokens (:mod:`core.text.tercom`; references are preprocessed twice);
* the edit distance is a *beam* Levenshtein: row ``i`` (output word ``i``) only computes the
  reference columns within ``beam`` of ``floor(i * m / n)`` (25, more for very unequal
  lengths), the last row all of them; ties prefer a match or substitution, then a deletion,
  then an insertion, which decides the alignment the shifts are read from;
* shifts are greedy: every round tries each phrase of up to 10 words that occurs in both
  sides (starting at most 50 words apart, wrongly aligned on both sides, not onto itself) at
  each place the alignment suggests, applies the one that lowers the edit distance most (then
  the longest, the earliest, the earliest target), and stops when none helps or once 1,000
  candidates have been tried in all (the round that reaches 1,000 is not applied);
* with several references the segment keeps the fewest edits (the first reference on a tie)
  and divides by the *average* reference length; an empty reference costs one edit per
  output word; corpus TER is the sum of edits over the sum of average reference lengths.

The search itself is ours: the candidates of a round (and the rounds of many segments at
once) are scored together, one numpy operation per row of the beam instead of one Python loop
per cell, each candidate starting from the rows it shares with the current output (where
sacreBLEU's cache of rows saves the same work).

* :func:`ter_alignments`: the :class:`TerAlignment` (edits, shifts, final alignment) of many
  word pairs;
* :func:`ter_chunk`: the statistics of a chunk of rows; :func:`ter_from_stats` scores them.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from itertools import accumulate
from typing import Any, Final, Literal, cast

import numpy as np
import numpy.typing as npt

from matchlight.core.metrics.base import check_columns
from matchlight.core.text.tercom import TercomTokenizer, tercom_tokenizer

__all__ = [
    "EditKind",
    "TerAlignment",
    "TerChunk",
    "TerScore",
    "TerShift",
    "perform_shift",
    "ter_alignments",
    "ter_chunk",
    "ter_from_stats",
]

IntArray = npt.NDArray[np.int64]
FloatArray = npt.NDArray[np.float64]
I32 = npt.NDArray[np.int32]

# sacreBLEU's (tercom's) limits.
_BEAM_WIDTH: Final = 25
_MAX_SHIFT_SIZE: Final = 10
_MAX_SHIFT_DIST: Final = 50
_MAX_SHIFT_CANDIDATES: Final = 1000

# A cell outside the beam. sacreBLEU's is 1e16; any value no real distance reaches keeps every
# comparison the same, and this one leaves int32 room for the few additions made to it.
_INF: Final = 1 << 29

# The operation that reached a cell, as sacreBLEU's trace has them (its ``' '``, ``s``, ``d``,
# ``i``, ``x``): DEL consumes an output word alone, INS a reference word alone.
_NOP: Final = 0
_SUB: Final = 1
_DEL: Final = 2
_INS: Final = 3
_UNDEF: Final = 4

# Batch sizes: cells of the beam matrices of one group of segments, and output words of one
# batch of shift candidates (each a few bytes, so a few tens of MB at most).
_GROUP_CELLS: Final = 1 << 19
_GROUP_SEGMENTS: Final = 256
_CANDIDATE_CELLS: Final = 1 << 21

EditKind = Literal["match", "substitution", "deletion", "insertion"]
_KIND: Final[dict[int, EditKind]] = {
    _NOP: "match",
    _SUB: "substitution",
    _DEL: "deletion",
    _INS: "insertion",
}
_CODE: Final[dict[str, int]] = {kind: code for code, kind in _KIND.items()}


# -- the alignment of one pair of word sequences -------------------------------------------------


@dataclass(frozen=True, slots=True)
class TerShift:
    """One shift, as sacreBLEU applies it: the ``length`` words at ``start`` of the output (in
    its word order before this shift) move to ``target`` (sacreBLEU's ``_perform_shift``: before
    word ``target`` when it lies outside the phrase; a target inside the phrase moves it right by
    ``target - start`` words, or to the end). ``words`` are the moved words' indices in the
    output as written."""

    start: int
    length: int
    target: int
    words: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class TerAlignment:
    """The edits TER finds between an output and a reference, as word indices.

    ``shifts`` are applied in order; ``order`` is the output's word indices (as written) in the
    order after all shifts; ``trace`` is sacreBLEU's trace of the final alignment of that
    shifted output with the reference, one operation code per step (see :attr:`steps`).
    ``num_edits`` (the shifts plus every step that is not a match) is sacreBLEU's count;
    ``ref_length`` is the reference's length in words.
    """

    num_edits: int
    ref_length: int
    shifts: tuple[TerShift, ...]
    order: tuple[int, ...]
    trace: bytes

    @property
    def steps(self) -> tuple[tuple[EditKind, int, int], ...]:
        """The final alignment, left to right: ``(kind, output word, reference word)``, with
        -1 for the side a deletion or insertion does not have."""
        steps: list[tuple[EditKind, int, int]] = []
        h = r = -1
        order = self.order
        for op in self.trace:
            if op <= _SUB:  # a match or a substitution
                h += 1
                r += 1
                steps.append((_KIND[op], order[h], r))
            elif op == _DEL:
                h += 1
                steps.append(("deletion", order[h], -1))
            else:
                r += 1
                steps.append(("insertion", -1, r))
        return tuple(steps)

    def count(self, kind: EditKind | Literal["shift"]) -> int:
        """How many edits of ``kind`` the path has (``match`` counts matched words)."""
        if kind == "shift":
            return len(self.shifts)
        return self.trace.count(_CODE[kind])


def perform_shift(words: list[int], start: int, length: int, target: int) -> list[int]:
    """sacreBLEU's ``_perform_shift`` (the three cases as there)."""
    if target < start:
        return (
            words[:target]
            + words[start : start + length]
            + words[target:start]
            + words[start + length :]
        )
    if target > start + length:
        return (
            words[:start]
            + words[start + length : target]
            + words[start : start + length]
            + words[target:]
        )
    return (
        words[:start]
        + words[start + length : length + target]
        + words[start : start + length]
        + words[length + target :]
    )


@dataclass(slots=True)
class _Pair:
    """One output against one reference while shifts are searched (word ids)."""

    hyp: list[int]  # the output's words in their current order
    ref: list[int]
    order: list[int]  # the original index of each current word
    positions: dict[int, list[int]]  # reference word -> its positions, ascending
    shifts: list[TerShift]
    checked: int = 0
    result: TerAlignment | None = None


def _beam_width(n: int, m: int) -> int:
    """sacreBLEU's beam half-width for an ``n``-word output and an ``m``-word reference: 25,
    widened when the lengths are so unequal that consecutive rows would not overlap."""
    ratio = m / n
    return math.ceil(ratio / 2 + _BEAM_WIDTH) if ratio / 2 > _BEAM_WIDTH else _BEAM_WIDTH


def _window(n: int, m: int) -> int:
    """The columns stored per row: the beam, or the whole row when it is narrower, plus one
    (in the last row the cell just past the beam can still take a diagonal step; every cell
    after it is an insertion after the one before)."""
    return min(2 * _beam_width(n, m), m + 1) + 1


class _Group:
    """Pairs whose shifts are searched together, round after round, in numpy.

    Arrays put the pairs (or candidates) last: each row of the beams is a ``(window, C)`` block
    in which every column of the beam is one contiguous line of memory. Row ``i`` of a beam is
    stored from column ``lo[i]``; a *frame* holds the row before it shifted to the same origin,
    one column further left (``frame[k]`` is column ``lo[i] - 1 + k`` of row ``i - 1``), so that a
    cell's diagonal and upper neighbours are ``frame[k]`` and ``frame[k + 1]``.
    """

    def __init__(self, pairs: list[_Pair], window: int) -> None:
        """``window``: the widest of the pairs' (:func:`_window`)."""
        self.pairs = pairs
        count = len(pairs)
        self.n = n = np.array([len(p.hyp) for p in pairs], np.int64)
        self.m = m = np.array([len(p.ref) for p in pairs], np.int64)
        rows = int(n.max())
        self.rows = rows
        self.window = window
        # The beam of row i: columns lo .. hi - 1 around floor(i * m / n) (sacreBLEU's float
        # product, element by element), every column in a pair's last row, none past it.
        ratio = m / n
        beam = np.where(
            ratio / 2 > _BEAM_WIDTH, np.ceil(ratio / 2 + _BEAM_WIDTH), _BEAM_WIDTH
        ).astype(np.int64)
        i = np.arange(rows + 1)[:, None]
        diag = np.floor(i.astype(np.float64) * ratio[None, :]).astype(np.int64)
        lo = np.maximum(0, diag - beam)
        hi = np.minimum(m + 1, diag + beam)
        hi = np.where(i == n, m + 1, hi)
        beyond = i > n
        lo = np.where(beyond, lo[n, np.arange(count)], lo)
        width = np.where(beyond, 0, hi - lo)
        self.lo = lo
        self.width = width
        step = np.zeros_like(lo)
        step[1:rows] = lo[2:] - lo[1:rows]
        self.step = step
        # The reference word of each stored cell (column j holds word j - 1), -1 outside.
        refs = np.full((int(self.m.max()) + 2, count), -1, np.int32)
        for a, p in enumerate(pairs):
            refs[1 : len(p.ref) + 1, a] = p.ref
        columns = np.clip(lo[:, None, :] + np.arange(window)[None, :, None], 0, refs.shape[0] - 1)
        self.ref_words = refs[columns, np.arange(count)[None, None, :]]  # (rows + 1, window, C)
        # Row 0 (j insertions for column j) seen from row 1.
        first = lo[1][None, :] - 1 + np.arange(window + 1)[:, None]
        self.first = np.where((first >= 0) & (first <= self.m[None, :]), first, _INF).astype(
            np.int32
        )

    def run(self) -> None:
        active = np.arange(len(self.pairs))
        while active.size:
            active = self._round(active)

    # -- one round ---------------------------------------------------------------------------

    def _round(self, active: IntArray) -> IntArray:
        rows = int(self.n[active].max())
        hyp = np.full((rows, active.size), -2, np.int32)
        for r, a in enumerate(active.tolist()):
            words = self.pairs[a].hyp
            hyp[: len(words), r] = words
        ops, frames, distance = self._beam(active, hyp, rows)
        owners: list[int] = []
        found: list[tuple[int, int, int]] = []
        traces: list[list[int]] = []
        for r, a in enumerate(active.tolist()):
            pair = self.pairs[a]
            n = len(pair.hyp)
            trace = _trace(
                np.ascontiguousarray(ops[: n + 1, :, r]).tobytes(),
                self.window,
                self.lo[: n + 1, a].tolist(),
                n,
                len(pair.ref),
            )
            traces.append(trace)
            candidates = _candidates(pair, trace)
            owners += [r] * len(candidates)
            found += candidates
        deltas = np.zeros(0, np.int64)
        if found:
            shifts = np.array(found, np.int64).reshape(-1, 3)
            owner = np.array(owners, np.int64)
            scores = self._candidate_distances(active, hyp, frames, owner, shifts)
            deltas = distance[owner] - scores
        keep: list[int] = []
        at = 0
        for r, a in enumerate(active.tolist()):
            pair = self.pairs[a]
            best: tuple[int, int, int, int] | None = None
            while at < len(owners) and owners[at] == r:
                start, length, target = found[at]
                key = (int(deltas[at]), length, -start, -target)
                if best is None or key > best:
                    best = key
                at += 1
            if pair.checked >= _MAX_SHIFT_CANDIDATES or best is None or best[0] <= 0:
                pair.result = _finish(pair, int(distance[r]), traces[r])
                continue
            length, start, target = best[1], -best[2], -best[3]
            pair.shifts.append(
                TerShift(start, length, target, tuple(pair.order[start : start + length]))
            )
            pair.hyp = perform_shift(pair.hyp, start, length, target)
            pair.order = perform_shift(pair.order, start, length, target)
            keep.append(a)
        return np.array(keep, np.int64)

    # -- the beam edit distance --------------------------------------------------------------

    def _beam(self, active: IntArray, hyp: I32, rows: int) -> tuple[Any, I32, IntArray]:
        """The beam of every active pair's current output: each cell's operation, each row's
        frame (for the candidates that share the rows before it) and the distance."""
        window = self.window
        cols = np.arange(window, dtype=np.int32)[:, None]
        count = active.size
        ops = np.empty((rows + 1, window, count), np.int8)
        frames = np.empty((rows + 1, window + 1, count), np.int32)
        distance = np.zeros(count, np.int64)
        width = self.width[:, active]
        step = self.step[:, active]
        lo = self.lo[:, active]
        n = self.n[active]
        m = self.m[active]
        frame = self.first[:, active]
        for i in range(1, rows + 1):
            frames[i] = frame
            valid = cols < width[i]
            v, diag, up, differ = _row(frame, hyp[i - 1], self.ref_words[i][:, active], valid)
            # sacreBLEU's choice: the diagonal if it gives the value, else the cell above,
            # else the one on the left (_NOP and _SUB are 0 and 1, _DEL and _INS 2 and 3).
            op = ops[i]
            np.add((up != v).view(np.int8), np.int8(_DEL), out=op)
            np.copyto(op, differ.view(np.int8), where=diag == v)
            np.copyto(op, np.int8(_UNDEF), where=v >= _INF)
            last = np.flatnonzero(n == i)
            if last.size:
                distance[last] = _last_cell(v[:, last], m[last] - lo[i, last])
            frame = _next_frame(v, step[i])
        return ops, frames, distance

    def _candidate_distances(
        self, active: IntArray, hyp: I32, frames: I32, owner: IntArray, shifts: IntArray
    ) -> IntArray:
        """The edit distance of every candidate shift (``owner`` indexes ``active``)."""
        n = self.n[active][owner]
        x, y, z = _rotations(shifts, n)
        out = np.empty(owner.size, np.int64)
        rows = int(n.max())
        per_batch = max(1, _CANDIDATE_CELLS // (rows + self.window))
        for a in range(0, owner.size, per_batch):
            b = min(owner.size, a + per_batch)
            out[a:b] = self._batch(active, hyp, frames, owner[a:b], x[a:b], y[a:b], z[a:b], n[a:b])
        return out

    def _batch(
        self,
        active: IntArray,
        hyp: I32,
        frames: I32,
        owner: IntArray,
        x: IntArray,
        y: IntArray,
        z: IntArray,
        n: IntArray,
    ) -> IntArray:
        order = np.argsort(x, kind="stable")
        owner, x, y, z, n = owner[order], x[order], y[order], z[order], n[order]
        rows = int(n.max())
        # The candidates' words: the owner's current words with x..z-1 rotated to start at y.
        k = np.arange(rows)[:, None]
        rel = k - x
        inside = (k >= x) & (k < z)
        tail = z - y
        source = np.where(inside, np.where(rel < tail, y + rel, k - tail), k)
        words = hyp[source, owner]  # (rows, C)
        pair = active[owner]
        width = self.width[:, pair]
        step = self.step[:, pair]
        lo = self.lo[:, pair]
        m = self.m[pair]
        cols = np.arange(self.window, dtype=np.int32)[:, None]
        out = np.empty(owner.size, np.int64)
        frame = np.empty((self.window + 1, owner.size), np.int32)
        # Rows before x are the current output's: each candidate starts from its owner's frame.
        started = 0
        for i in range(int(x[0]) + 1, rows + 1):
            now = int(np.searchsorted(x, i, side="left"))
            if now > started:
                frame[:, started:now] = frames[i][:, owner[started:now]]
                started = now
            valid = cols < width[i, :now]
            v = _row(frame[:, :now], words[i - 1, :now], self.ref_words[i][:, pair[:now]], valid)[0]
            last = np.flatnonzero(n[:now] == i)
            if last.size:
                out[last] = _last_cell(v[:, last], m[last] - lo[i, last])
            frame[:, :now] = _next_frame(v, step[i, :now])
        result = np.empty_like(out)
        result[order] = out
        return result


def _rotations(shifts: IntArray, n: IntArray) -> tuple[IntArray, IntArray, IntArray]:
    """Each shift ``(start, length, target)`` of an ``n``-word output as the rotation of its
    positions ``x..z-1`` that puts position ``y`` first (the words :func:`perform_shift`
    gives); the positions before ``x`` keep their words, and so their rows of the beam."""
    start, length, target = shifts[:, 0], shifts[:, 1], shifts[:, 2]
    left = target < start
    end = np.where(target > start + length, target, np.minimum(length + target, n))
    x = np.where(left, target, start)
    y = np.where(left, start, start + length)
    z = np.where(left, start + length, end)
    return x, y, z


def _row(
    frame: I32, hyp: I32, ref: I32, valid: npt.NDArray[np.bool_]
) -> tuple[I32, I32, I32, npt.NDArray[np.bool_]]:
    """One row of many beams (``(window, C)``): the values, and the diagonal and upper
    candidates and mismatches the operations are read from (sacreBLEU keeps the first strictly
    smaller of: diagonal, upper, left; a cell none of them reaches stays infinite).

    Values at or above :data:`_INF` all mean "not reached" (only cells outside the beam are);
    the cells past a row's beam are set to :data:`_INF` after the left-to-right minimum, so
    they never reach into the beam."""
    differ = ref != hyp[None, :]
    diag = frame[:-1] + differ
    up = frame[1:] + 1
    v = np.minimum(diag, up)
    # The left neighbour, v[k] = min(v[k], v[k - 1] + 1): a running minimum of slope 1, in
    # doubling steps (numpy's minimum.accumulate runs one element at a time).
    width = v.shape[0]
    s = 1
    while s < width:
        np.minimum(v[s:], v[:-s] + s, out=v[s:])
        s *= 2
    return np.where(valid, v, np.int32(_INF)), diag, up, differ


def _next_frame(v: I32, step: IntArray) -> I32:
    """The frame of the next row: this row's value at column ``lo[i+1] - 1 + k``, where the
    beam moves ``step`` columns right (0 for every row of a short pair)."""
    most = int(step.max())
    window = v.shape[0]
    padded = np.empty((window + 2 + most, v.shape[1]), np.int32)
    padded[0] = _INF
    padded[window + 1 :] = _INF
    padded[1 : window + 1] = v
    frame = padded[: window + 1]
    for s in range(1, most + 1):
        frame = np.where(step == s, padded[s : s + window + 1], frame)
    return frame


def _last_cell(v: I32, column: IntArray) -> IntArray:
    """The distance: the last row's cell of the last reference word (past the stored window,
    the cells are insertions after the last stored one)."""
    window = v.shape[0]
    inside = column < window
    at = np.minimum(column, window - 1)
    value = v[at, np.arange(v.shape[1])].astype(np.int64)
    return np.where(inside, value, value + column - (window - 1))


def _trace(ops: bytes, window: int, lo: list[int], n: int, m: int) -> list[int]:
    """sacreBLEU's trace: the operations from the last cell back to the first, reversed."""
    trace: list[int] = []
    i, j = n, m
    while i > 0 or j > 0:
        if i == 0:
            op = _INS
        else:
            k = j - lo[i]
            op = _INS if k >= window else ops[i * window + k]
        trace.append(op)
        if op <= _SUB:  # a match or a substitution
            i -= 1
            j -= 1
        elif op == _INS:
            j -= 1
        elif op == _DEL:
            i -= 1
        else:
            raise RuntimeError("TER: the edit path left the beam")
    trace.reverse()
    return trace


def _candidates(pair: _Pair, trace: list[int]) -> list[tuple[int, int, int]]:
    """sacreBLEU's shift candidates of one round, in its order, ``(start, length, target)``;
    counts them into ``pair.checked`` and stops once it reaches the limit, as sacreBLEU does."""
    hyp, ref = pair.hyp, pair.ref
    n, m = len(hyp), len(ref)
    positions = pair.positions
    if not any(word in positions for word in hyp):
        return []  # no word in common: no phrase to shift
    # The alignment as sacreBLEU reads it: each reference word's output position (the last
    # output word before it when it has none), and which words of each side are wrong.
    align = [0] * m
    hyp_err: list[int] = []
    ref_err: list[int] = []
    h = r = -1
    for op in trace:
        if op <= _SUB:  # a match or a substitution
            h += 1
            r += 1
            align[r] = h
            hyp_err.append(op)
            ref_err.append(op)
        elif op == _DEL:
            h += 1
            hyp_err.append(1)
        else:
            r += 1
            align[r] = h
            ref_err.append(1)
    hyp_cum = [0, *accumulate(hyp_err)]
    ref_cum = [0, *accumulate(ref_err)]
    found: list[tuple[int, int, int]] = []
    checked = pair.checked
    for start_h in range(n):
        for start_r in positions.get(hyp[start_h], ()):
            if start_r - start_h > _MAX_SHIFT_DIST:
                break
            if start_h - start_r > _MAX_SHIFT_DIST:
                continue
            length = 0
            while length < _MAX_SHIFT_SIZE and hyp[start_h + length] == ref[start_r + length]:
                length += 1
                end_h = start_h + length
                if (
                    hyp_cum[end_h] != hyp_cum[start_h]
                    and ref_cum[start_r + length] != ref_cum[start_r]
                    and not start_h <= align[start_r] < end_h
                ):
                    previous = -1
                    for offset in range(-1, length):
                        target = 0 if start_r + offset == -1 else align[start_r + offset] + 1
                        if target == previous:
                            continue
                        previous = target
                        found.append((start_h, length, target))
                        checked += 1
                    if checked >= _MAX_SHIFT_CANDIDATES:
                        pair.checked = checked
                        return found
                if end_h == n or start_r + length == m:
                    break
    pair.checked = checked
    return found


def _finish(pair: _Pair, distance: int, trace: list[int]) -> TerAlignment:
    return TerAlignment(
        num_edits=len(pair.shifts) + distance,
        ref_length=len(pair.ref),
        shifts=tuple(pair.shifts),
        order=tuple(pair.order),
        trace=bytes(trace),
    )


def _trivial(n: int, m: int, equal: bool) -> TerAlignment:
    """No search: an empty side (every output word deleted, or every reference word inserted)
    or equal sides (every word matched: no word is wrong, so no shift is even a candidate)."""
    if m == 0:
        return TerAlignment(n, 0, (), tuple(range(n)), bytes([_DEL]) * n)
    if n == 0:
        return TerAlignment(m, m, (), (), bytes([_INS]) * m)
    if equal:
        return TerAlignment(0, m, (), tuple(range(n)), bytes([_NOP]) * n)
    # No word in common and a reference no longer than the beam, so every cell is computed:
    # cell (i, j) is max(i, j), its diagonal always gives it, and the trace walks the diagonal
    # back from the last cell, then the output's or the reference's first words alone.
    extra = bytes([_DEL]) * (n - m) if n > m else bytes([_INS]) * (m - n)
    return TerAlignment(max(n, m), m, (), tuple(range(n)), extra + bytes([_SUB]) * min(n, m))


def ter_alignments(
    pairs: Sequence[tuple[Sequence[Hashable], Sequence[Hashable]]],
) -> list[TerAlignment]:
    """The :class:`TerAlignment` of each ``(output words, reference words)`` pair.

    ``num_edits`` equals sacreBLEU's ``translation_edit_rate(output, reference)[0]``. The
    pairs are searched together (identical pairs once), grouped by size.
    """
    unique: dict[tuple[tuple[Hashable, ...], tuple[Hashable, ...]], int] = {}
    which: list[int] = []
    for hyp, ref in pairs:
        if isinstance(hyp, str) or isinstance(ref, str):
            raise TypeError("TER takes sequences of words, not strings")
        which.append(unique.setdefault((tuple(hyp), tuple(ref)), len(unique)))
    results: list[TerAlignment | None] = [None] * len(unique)
    searched: list[tuple[int, int, _Pair]] = []
    vocabulary: dict[Hashable, int] = {}
    for index, (hyp, ref) in enumerate(unique):
        n, m = len(hyp), len(ref)
        if n == 0 or m == 0 or hyp == ref:
            results[index] = _trivial(n, m, hyp == ref)
            continue
        if m < _BEAM_WIDTH and set(hyp).isdisjoint(ref):
            results[index] = _trivial(n, m, False)
            continue
        ids = [vocabulary.setdefault(w, len(vocabulary)) for w in ref]
        positions: dict[int, list[int]] = {}
        for position, word in enumerate(ids):
            positions.setdefault(word, []).append(position)
        # Output words absent from the reference get ids of their own, never matched.
        hyp_ids = [vocabulary.setdefault(w, len(vocabulary)) for w in hyp]
        pair = _Pair(hyp_ids, ids, list(range(n)), positions, [])
        searched.append((_window(n, m), index, pair))
    # Similar shapes together: a group's matrices are padded to its longest output and widest
    # beam.
    searched.sort(key=lambda item: (item[0], len(item[2].hyp)))
    group: list[tuple[int, _Pair]] = []
    rows = window = 0
    for width, index, pair in searched:
        longer = max(rows, len(pair.hyp) + 1)
        wider = max(window, width)
        if group and (
            (len(group) + 1) * longer * wider > _GROUP_CELLS or len(group) >= _GROUP_SEGMENTS
        ):
            _run_group(group, window, results)
            group, longer, wider = [], len(pair.hyp) + 1, width
        group.append((index, pair))
        rows, window = longer, wider
    if group:
        _run_group(group, window, results)
    final = cast(list[TerAlignment], results)
    return [final[i] for i in which]


def _run_group(
    group: list[tuple[int, _Pair]], window: int, results: list[TerAlignment | None]
) -> None:
    _Group([p for _, p in group], window).run()
    for index, pair in group:
        results[index] = pair.result


# -- statistics and scores -------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class TerChunk:
    """The statistics of a chunk of rows, for ``S`` systems and ``n`` rows.

    ``edits[s, k]`` is system ``s``'s fewest edits on row ``k`` (against ``reference[s, k]``,
    the first reference with that many), ``ref_words[k]`` the words of all the row's references
    together and ``refs`` their number: sacreBLEU's average reference length is
    ``ref_words / refs``.
    """

    edits: IntArray
    ref_words: IntArray
    refs: int
    reference: IntArray


def ter_chunk(
    references: Sequence[Sequence[str]],
    systems: Sequence[Sequence[str]],
    tokenizer: TercomTokenizer | None = None,
) -> TerChunk:
    """TER's statistics of every system on every row (``references[r][k]``, ``systems[s][k]``),
    with ``tokenizer`` (sacreBLEU's default TER preprocessing when None)."""
    n = check_columns(references, systems, metric="TER")
    tok = tokenizer if tokenizer is not None else tercom_tokenizer()
    refs = [[tok.reference(line) for line in column] for column in references]
    outs = [[tok(line) for line in column] for column in systems]
    n_refs, n_sys = len(refs), len(outs)
    found = ter_alignments([(out[k], ref[k]) for out in outs for k in range(n) for ref in refs])
    edits = np.array([a.num_edits for a in found], np.int64).reshape(n_sys, n, n_refs)
    ref_words = np.array([[len(ref[k]) for ref in refs] for k in range(n)], np.int64)
    return TerChunk(
        edits=edits.min(axis=2),
        ref_words=ref_words.sum(axis=1).reshape(n),
        refs=n_refs,
        reference=np.argmin(edits, axis=2).astype(np.int64),
    )


def ter_from_stats(edits: npt.ArrayLike, ref_words: npt.ArrayLike, refs: npt.ArrayLike) -> Any:
    """TER (0-100, unbounded above) of ``edits`` against an average reference length of
    ``ref_words / refs``, element-wise, as sacreBLEU computes it: edits over that length; 100
    for edits against empty references; 0 when both sides are empty.

    Integer inputs give float64 scores bit-identical to sacreBLEU's. A float32 input (its
    bootstrap resample sums) is computed in float32 as sacreBLEU does with them; as there,
    the result is float64 when some resample falls back to 100 or 0 (as in chrF's
    :func:`~core.metrics.chrf.chrf_from_stats`).
    """
    e = np.asarray(edits)
    w = np.asarray(ref_words)
    r = np.asarray(refs)
    if np.float32 in (e.dtype, w.dtype, r.dtype):
        e32, w32, r32 = (np.asarray(a, np.float32) for a in (e, w, r))
        with np.errstate(divide="ignore", invalid="ignore"):
            length = w32 / r32
            scores = np.float32(100) * (e32 / length)
        fallback = ~(length > 0)
        if not fallback.any():
            return scores
        return np.where(fallback, np.where(e32 > 0, 100.0, 0.0), scores.astype(np.float64))
    with np.errstate(divide="ignore", invalid="ignore"):
        length = w / r
        scores = 100 * (e / length)
    return np.where(length > 0, scores, np.where(e > 0, 100.0, 0.0)).astype(np.float64)


@dataclass(frozen=True, slots=True)
class TerScore:
    """A TER figure and what it is made of: ``num_edits`` over ``ref_length`` (the sum of the
    segments' average reference lengths), as sacreBLEU's ``TERScore``."""

    score: float
    num_edits: int
    ref_length: float

    def describe(self) -> str:
        return f"TER = {self.score:.2f} ({self.num_edits} edits / {self.ref_length:g} words)"

    def json_fields(self) -> dict[str, object]:
        """The components for a JSON report."""
        return {"num_edits": self.num_edits, "ref_length": self.ref_length}
