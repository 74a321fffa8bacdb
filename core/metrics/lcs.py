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

Whole-width masks of ``L`` distinct tokens take ``L² / 16`` bytes, so a sequence whose masks
would exceed :attr:`PreparedSequence.mask_budget` is cut into *bands* of rows, each with its own
masks and about 4096 distinct tokens (:class:`_Bands`): memory linear in the length.
``V - U`` equals ``V & ~mask`` and never borrows across bands; only the addition carries, so a
band needs one carry bit per scanned token from the band below. The bands are processed one after
the other (band-major), each over the scanned tokens it holds plus the carries from below. The
rows below ``r`` carry into row ``r`` exactly at the steps where ``L[r][j]`` grows, so a band's
carries over a stretch of steps are counted by the zero bits the bands below gain there.

The backtrack (:func:`_walk`) reproduces rouge-score's ``_backtrack_norec`` exactly: take a match
whenever the two tokens are equal, otherwise step left when ``L[i][j - 1] > L[i - 1][j]`` and up
otherwise. With unequal tokens that condition holds exactly when bit ``i - 1`` of column ``j`` is
0, so whole runs of "up" steps become one ``int.bit_length`` call. rouge-score's tie-breaking
decides which reference tokens ROUGE-Lsum's union LCS sees, so matching it matters for the
scores, not just for the highlighting. The backtrack reads every column; when they would not fit
in :attr:`PreparedSequence.column_budget` bits, only a few are kept and the others recomputed a
block at a time (:class:`_Backtrack`), so the result is the same at any length.

Tokens can be any hashable values whose equality agrees with their hash (strings, ints, tuples).
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections import defaultdict
from collections.abc import Hashable, Iterable, Sequence
from itertools import chain, compress, count, repeat
from operator import lshift, sub
from typing import ClassVar, Final, Protocol, TypeVar, cast

import numpy as np
import numpy.typing as npt

from matchlight.core.metrics.ngrams import NgramCounts

__all__ = [
    "MAX_DETAIL_TOKENS",
    "Lines",
    "PreparedSequence",
    "chunk_lcs_lengths",
    "lcs_length",
    "lcs_pairs",
    "match_masks",
    "match_masks_nbytes",
    "next_order",
    "occurrences",
    "rouge_score_lcs_indices",
]

#: The longest line (in tokens) the highlight detail should attempt. Its n-gram and LCS
#: highlighters use whole-width :func:`match_masks`, up to ``L² / 16`` bytes for ``L`` distinct
#: tokens (16 MiB here); scores have no such limit.
MAX_DETAIL_TOKENS: Final = 16_384

#: ``_POWERS[i] == 1 << i``; building masks from a table is measurably faster than shifting.
_POWERS: tuple[int, ...] = tuple(1 << i for i in range(1024))

#: A token type: anything hashable (``str`` for words, tuples for n-grams).
_T = TypeVar("_T", bound=Hashable)

#: Bits a kept column costs beyond its own width (int header and list slot).
_PIECE_OVERHEAD: Final = 320

#: Bits a distinct token's mask costs beyond its width (int header and dict slot).
_SLOT_BITS: Final = 800

#: Blocks a backtrack block is split into when its columns do not fit.
_FANOUT: Final = 16

#: Distinct tokens a band holds at most, about: bands are this many rows, times the number of
#: tokens per distinct token (rounded down to a power of two).
_BAND_BITS: Final = 4096


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


def match_masks_nbytes(tokens: Sequence[Hashable], *, limit: int | None = None) -> int:
    """About how many bytes :func:`match_masks` of ``tokens`` takes (ints and dict slots).

    A mask is as wide as the last position of its token, so a line of many distinct tokens
    costs the square of its length: compare with a budget before building whole-width masks.
    With ``limit``, counting stops as soon as the estimate exceeds it.
    """
    seen: set[Hashable] = set()
    add = seen.add
    bits = 0
    stop = -1 if limit is None else 8 * limit
    for i in range(len(tokens) - 1, -1, -1):
        token = tokens[i]
        if token not in seen:
            add(token)
            bits += i + _SLOT_BITS
            if bits > stop >= 0:
                break
    return bits // 8


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


class _Bands:
    """The match masks of a long sequence, band by band, for the tokens of one scanned sequence.

    Tokens become integer ids once, so finding the scanned tokens a band holds is one numpy
    membership test per band instead of a dict look-up per scanned token. A token that occurs
    once in a band has the mask ``1 << offset``, made when needed; only tokens repeated in a
    band have stored masks (kept for every band with ``keep``, as the backtrack sweeps bands
    many times; otherwise built when asked for and dropped, as the length sweeps once).
    """

    __slots__ = (
        "_cache",
        "_first",
        "_ids",
        "_keys",
        "_member",
        "_repeated",
        "_scanned",
        "fulls",
        "width",
    )

    def __init__(
        self,
        tokens: Sequence[Hashable],
        scanned: Iterable[Hashable],
        *,
        width: int | None,
        keep: bool,
    ) -> None:
        ids: defaultdict[Hashable, int] = defaultdict(count().__next__)
        self._ids = np.array(list(map(ids.__getitem__, tokens)), np.int64)
        # Tokens the sequence lacks get the id len(ids), which no band holds.
        self._scanned = np.array(list(map(ids.get, scanned, repeat(len(ids)))), np.int64)
        self._member = np.zeros(len(ids) + 1, np.bool_)
        self._cache: dict[int, dict[int, int]] | None = {} if keep else None
        if width is None:
            # About _BAND_BITS distinct tokens a band: common words fall in fewer bands, and a
            # band's masks stay within _BAND_BITS² / 16 bytes.
            width = _BAND_BITS << ((len(tokens) // max(len(ids), 1)).bit_length() - 1)
        self.width = width
        self.fulls = _band_fulls(len(tokens), width)
        # One key id * n_bands + band per (token, band holding it), sorted, with the token's
        # first position in the band and whether it occurs there again.
        pairs = self._ids * len(self.fulls) + np.arange(len(tokens)) // width
        self._keys, self._first, repeats = np.unique(pairs, return_index=True, return_counts=True)
        self._repeated = repeats > 1

    def __len__(self) -> int:
        return len(self._scanned)

    def _band_ids(self, band: int) -> npt.NDArray[np.int64]:
        return self._ids[band * self.width : (band + 1) * self.width]

    def _masks(self, band: int) -> dict[int, int]:
        """The masks of the tokens repeated in ``band``."""
        cache = self._cache
        masks = None if cache is None else cache.get(band)
        if masks is None:
            masks = {
                x: m for x, m in match_masks(self._band_ids(band).tolist()).items() if m & m - 1
            }
            if cache is not None:
                cache[band] = masks
        return masks

    def hit_count(self, lo: int, hi: int, top: int) -> int:
        """How many (step, band) pairs of steps ``lo .. hi - 1`` and bands ``0 .. top`` have the
        step's token in the band."""
        scanned = self._scanned[lo:hi] * len(self.fulls)
        keys = self._keys
        counts = np.searchsorted(keys, scanned + top, "right") - np.searchsorted(keys, scanned)
        return int(counts.sum())

    def hits(self, band: int, lo: int, hi: int) -> tuple[list[int], list[int]]:
        """The steps in ``lo .. hi - 1`` whose token is in ``band``, and their masks there."""
        member = self._member
        band_ids = self._band_ids(band)
        member[band_ids] = True
        scanned = self._scanned[lo:hi]
        where = np.flatnonzero(member[scanned])
        member[band_ids] = False
        # One mask object per distinct token found (a band holds few distinct tokens).
        found, inverse = np.unique(scanned[where], return_inverse=True)
        at = np.searchsorted(self._keys, found * len(self.fulls) + band)
        offsets = (self._first[at] - band * self.width).tolist()
        distinct: list[int] = list(map(lshift, repeat(1), offsets))
        if self._repeated[at].any():
            # dict.get(id, single) keeps the single-bit mask of tokens not repeated here.
            distinct = cast("list[int]", list(map(self._masks(band).get, found.tolist(), distinct)))
        masks = list(map(distinct.__getitem__, inverse.tolist()))
        return (where + lo).tolist(), masks

    def masks(self, band: int, lo: int, hi: int) -> list[int]:
        """The mask in ``band`` of every step ``lo .. hi - 1`` (0 where the token is not in it)."""
        steps, masks = self.hits(band, lo, hi)
        dense = [0] * (hi - lo)
        for t, mask in zip(steps, masks):
            dense[t - lo] = mask
        return dense


class _Whole:
    """One band holding a whole sequence, its steps given by their (non-zero) masks."""

    __slots__ = ("_masks", "fulls", "width")

    def __init__(self, full: int, masks: list[int]) -> None:
        self._masks = masks
        self.fulls = (full,)
        self.width = max(full.bit_length(), 1)

    def __len__(self) -> int:
        return len(self._masks)

    def hit_count(self, lo: int, hi: int, top: int) -> int:
        return hi - lo

    def hits(self, band: int, lo: int, hi: int) -> tuple[list[int], list[int]]:
        return list(range(lo, hi)), self._masks[lo:hi]

    def masks(self, band: int, lo: int, hi: int) -> list[int]:
        return self._masks[lo:hi]


#: A band's columns after the steps that changed it: (steps, columns), steps increasing.
_Kept = tuple[list[int], list[int]]


def _sweep(
    bands: _Bands | _Whole,
    lo: int,
    hi: int,
    start: Sequence[int],
    *,
    top: int,
    marks: Sequence[int] = (),
    keep: bool = False,
) -> tuple[list[int], list[list[int]], list[_Kept]]:
    """Scanning steps ``lo .. hi - 1`` on bands ``0 .. top``, band after band, from ``start``.

    A band only takes the steps where its mask is non-zero or the band below carried out of
    its top bit. Returns the columns after the last step, per band; for each of ``marks``
    (increasing, within ``lo .. hi``) the columns before that step, per band; and with
    ``keep``, per band, every column it took (:data:`_Kept`).
    """
    finals: list[int] = []
    snapshots: list[list[int]] = [[] for _ in marks]
    kept: list[_Kept] = []
    carries: list[int] = []
    n_marks = len(marks)
    for band in range(top + 1):
        steps, masks = bands.hits(band, lo, hi)
        carried = set(carries)
        if carried:
            by_step = dict(zip(steps, masks))
            for t in carries:
                by_step.setdefault(t, 0)
            steps = sorted(by_step)
            masks = list(map(by_step.__getitem__, steps))
        full = bands.fulls[band]
        v = start[band]
        columns: list[int] = []
        carries = []
        k = 0
        mark = marks[0] if n_marks else hi
        for t, mask in zip(steps, masks):
            while t >= mark:
                snapshots[k].append(v)
                k += 1
                mark = marks[k] if k < n_marks else hi
            u = v & mask
            s = v + u + (t in carried)
            if s > full:  # the addition carried out of the band
                s &= full
                carries.append(t)
            v = s | (v - u)
            if keep:
                columns.append(v)
        while k < n_marks:
            snapshots[k].append(v)
            k += 1
        finals.append(v)
        if keep:
            kept.append((steps, columns))
    return finals, snapshots, kept


def _walk(
    positions: Sequence[int],
    masks: Sequence[int],
    columns: Sequence[int],
    i: int,
    end: int,
    pairs: list[tuple[int, int]],
) -> tuple[int, int, int]:
    """rouge-score's backtrack over consecutive DP columns of one band, last column first.

    Step ``k`` scanned the token at ``positions[k]``, whose match mask in the band is
    ``masks[k]``, leaving the band's column ``columns[k]``; rows below ``i`` (in the band) are
    open and ``end`` is the position the walk comes from. Matches are appended to ``pairs`` as
    ``(position, row in the band)``. Returns ``(-1, i, end)`` once every step is walked, or
    ``(position, i, end)`` where the band has no row left below ``i``: the walk goes on there
    in the band below, from its top row, with that ``end``.
    """
    for j, mask, column in zip(reversed(positions), reversed(masks), reversed(columns)):
        if j + 1 < end:
            # Columns j + 1 .. end - 1 match nothing and equal this one: climb to just above
            # the highest row where it grows (rouge-score steps left there).
            stops = ~column & ((1 << i) - 1)
            if not stops:
                return j, i, end
            i = stops.bit_length()
        # The highest row p < i where the tokens are equal (take the match) or where the column
        # does not grow at p (rouge-score steps left there). Rows above p are all "up" steps.
        stops = (mask | ~column) & ((1 << i) - 1)
        if not stops:
            return j, i, j + 1  # j + 1: resume with this search, not the climb
        p = stops.bit_length() - 1
        if mask >> p & 1:
            pairs.append((j, p))
            i = p
        else:
            i = p + 1
        end = j
    return -1, i, end


class _Backtrack:
    """:func:`_walk` over every step, holding at most about ``budget`` bits of columns.

    A block of steps whose columns fit is swept keeping them all, then walked; a larger block
    is swept keeping only the columns at the starts of :data:`_FANOUT` sub-blocks, which are
    then done last one first. Each level of blocks costs one more sweep. Only bands at or below
    the walk's current row are swept, as higher rows are never read again.
    """

    __slots__ = ("bands", "budget", "done", "end", "i", "pairs", "positions")

    def __init__(
        self,
        bands: _Bands | _Whole,
        *,
        positions: Sequence[int],
        end: int,
        rows: int,
        budget: int,
    ) -> None:
        self.bands = bands
        self.positions = positions
        self.budget = budget
        self.i = rows
        self.end = end
        self.done = False
        self.pairs: list[tuple[int, int]] = []

    def run(self) -> list[tuple[int, int]]:
        """The LCS as ``(position, row)`` pairs, last pair first."""
        if self.positions:
            self._block(0, len(self.positions), self.bands.fulls, None)
        return self.pairs

    def _block(self, lo: int, hi: int, start: Sequence[int], finish: Sequence[int] | None) -> None:
        """Walk steps ``hi - 1`` down to ``lo``; ``start`` and ``finish`` are the columns before
        and after them (``finish`` is unknown at first)."""
        if self.i <= 0:
            self.done = True
            return
        bands = self.bands
        width = bands.width
        top = (self.i - 1) // width
        kept = bands.hit_count(lo, hi, top)
        if finish is not None:
            # The band above row r takes a carry at every step where L[r][.] grows: as many as
            # the zero bits the columns below r gain over the block.
            lost = 0
            for band in range(top):
                lost += start[band].bit_count() - finish[band].bit_count()
                kept += lost
        else:
            kept += top * (hi - lo)  # not swept yet: at most one carry per step and band
        cost = kept * (width + _PIECE_OVERHEAD)
        if cost <= self.budget or hi - lo == 1:
            _, _, columns = _sweep(bands, lo, hi, start, top=top, keep=True)
            self._walk_kept(lo, hi, start, columns)
            return
        parts = min(_FANOUT, -(-cost // self.budget), hi - lo)
        marks = [lo + (hi - lo) * c // parts for c in range(1, parts)]
        finals, snapshots, _ = _sweep(bands, lo, hi, start, top=top, marks=marks)
        bounds = [lo, *marks, hi]
        starts = [start, *snapshots]
        finishes = [*snapshots, finals]
        for c in range(parts - 1, -1, -1):
            self._block(bounds[c], bounds[c + 1], starts[c], finishes[c])
            if self.done:
                return

    def _walk_kept(self, lo: int, hi: int, start: Sequence[int], kept: list[_Kept]) -> None:
        """Walk steps ``hi - 1`` down to ``lo`` through their kept columns, band by band, in
        stretches that double while the walk stays in one band."""
        width = self.bands.width
        band = (self.i - 1) // width
        t = hi - 1
        size = 32
        while t >= lo:
            first = max(lo, t - size + 1)
            base = band * width
            positions = self.positions[first : t + 1]
            masks = self.bands.masks(band, first, t + 1)
            columns = _columns_between(kept[band], start[band], first, t + 1)
            pairs = self.pairs
            found = len(pairs)
            stop, i, self.end = _walk(positions, masks, columns, self.i - base, self.end, pairs)
            if base and len(pairs) > found:
                pairs[found:] = [(j, row + base) for j, row in pairs[found:]]
            if stop < 0:
                self.i = base + i
                t = first - 1
                size *= 2
            elif band:
                t = first + bisect_left(positions, stop)
                self.i = base
                band -= 1
                size = 32
            else:
                self.done = True
                return


def _columns_between(kept: _Kept, start: int, lo: int, hi: int) -> list[int]:
    """A band's column after every step ``lo .. hi - 1``, from the columns it took."""
    steps, columns = kept
    a = bisect_right(steps, lo)
    z = bisect_left(steps, hi, a)
    bounds = [lo, *steps[a:z], hi]
    values = [columns[a - 1] if a else start, *columns[a:z]]
    return list(chain.from_iterable(map(repeat, values, map(sub, bounds[1:], bounds[:-1]))))


def _band_fulls(n: int, width: int) -> list[int]:
    """The all-ones column of each band of ``width`` rows (the last one may be narrower)."""
    return [(1 << min(width, n - lo)) - 1 for lo in range(0, n, width)]


class PreparedSequence:
    """Match masks of one sequence, computed once and reused against many others.

    All results are expressed with this sequence playing rouge-score's ``ref`` role (the rows of
    its table): indices "in self" are positions in :attr:`tokens`. A sequence whose whole-width
    masks would take more than :attr:`mask_budget` bytes is processed in bands (see the module
    docstring); its whole-width masks (:meth:`token_masks`) are then only built on request.
    """

    #: Rows per band, when set; by default bands hold about 4096 distinct tokens (see _Bands).
    band_bits: ClassVar[int | None] = None
    #: Bytes of whole-width masks (:func:`match_masks_nbytes`) above which bands are used.
    mask_budget: ClassVar[int] = 1 << 24
    #: Bits of DP columns a backtrack may hold at once (34 MB: every pair within
    #: MAX_DETAIL_TOKENS is walked in one pass); beyond that it recomputes them.
    column_budget: ClassVar[int] = MAX_DETAIL_TOKENS * (MAX_DETAIL_TOKENS + _PIECE_OVERHEAD)

    __slots__ = ("_banded", "_full", "_whole", "tokens")

    tokens: tuple[Hashable, ...]
    _whole: dict[Hashable, int]  # empty until needed when banded
    _full: int
    _banded: bool

    def __init__(self, tokens: Sequence[Hashable]) -> None:
        self.tokens = tokens = tuple(tokens)
        n = len(tokens)
        self._full = (1 << n) - 1
        if n > (self.band_bits or _BAND_BITS) and self._too_wide():
            self._banded = True
            self._whole = {}
        else:
            self._banded = False
            self._whole = match_masks(tokens)

    def __len__(self) -> int:
        return len(self.tokens)

    def __repr__(self) -> str:
        return f"PreparedSequence(<{len(self.tokens)} tokens>)"

    def _too_wide(self) -> bool:
        """Whether whole-width masks would take more than :attr:`mask_budget` bytes."""
        budget = self.mask_budget
        return match_masks_nbytes(self.tokens, limit=budget) > budget

    @property
    def _masks(self) -> dict[Hashable, int]:
        """Whole-width match masks (:func:`match_masks`), built on first use when banded."""
        if self._banded and not self._whole:
            self._whole = match_masks(self.tokens)
        return self._whole

    def lcs_length(self, other: Iterable[Hashable]) -> int:
        """Length of a longest common subsequence of this sequence and ``other``."""
        if self._banded:
            bands = _Bands(self.tokens, other, width=self.band_bits, keep=False)
            top = len(bands.fulls) - 1
            finals, _, _ = _sweep(bands, 0, len(bands), bands.fulls, top=top)
            return len(self.tokens) - sum(v.bit_count() for v in finals)
        v = full = self._full
        # Tokens absent from this sequence leave the column unchanged: filter them out in C.
        for mask in filter(None, map(self._whole.get, other)):
            u = v & mask
            v = (v + u) | (v - u)
        # Carries may set bits above position n - 1; only the low n bits are table values.
        return len(self.tokens) - (v & full).bit_count()

    def token_masks(self, other: Iterable[Hashable]) -> list[int]:
        """The whole-width match mask of every token of ``other`` (0 for tokens absent from
        this sequence); see :data:`MAX_DETAIL_TOKENS` for their memory."""
        return list(map(self._masks.get, other, repeat(0)))

    def _align(self, other: Iterable[Hashable]) -> list[tuple[int, int]]:
        """:meth:`lcs_pairs_from_masks` of ``other`` itself (whole-width masks never built)."""
        if not self._banded:
            return self.lcs_pairs_from_masks(list(map(self._whole.get, other, repeat(0))))
        bands = _Bands(self.tokens, other, width=self.band_bits, keep=True)
        # Every position is a step (one the walk passes where the token is absent).
        pairs = _Backtrack(
            bands,
            positions=range(len(bands)),
            end=len(bands),
            rows=len(self.tokens),
            budget=self.column_budget,
        ).run()
        pairs.reverse()
        return pairs

    def lcs_pairs_from_masks(self, token_masks: list[int]) -> list[tuple[int, int]]:
        """:meth:`lcs_pairs` of the sequence whose :meth:`token_masks` are ``token_masks``,
        as increasing ``(index in the other sequence, index in self)`` pairs (swapped).

        Every caller's backtrack ends here or in :class:`_Backtrack` (the detail path's hot
        spot).
        """
        positions = list(compress(range(len(token_masks)), token_masks))
        if not positions:
            return []
        masks = list(filter(None, token_masks))
        n = len(self.tokens)
        if len(masks) * (n + _PIECE_OVERHEAD) > self.column_budget:
            pairs = _Backtrack(
                _Whole(self._full, masks),
                positions=positions,
                end=len(token_masks),
                rows=n,
                budget=self.column_budget,
            ).run()
        else:
            # Every column fits: the one-band sweep without its bookkeeping (carries out of
            # the top row only set bits that are never read), then one walk.
            v = self._full
            columns: list[int] = []
            append = columns.append
            for mask in masks:
                u = v & mask
                v = (v + u) | (v - u)
                append(v)
            pairs = []
            _walk(positions, masks, columns, n, len(token_masks), pairs)
        pairs.reverse()
        return pairs

    def lcs_pairs(self, other: Iterable[Hashable]) -> list[tuple[int, int]]:
        """One LCS as increasing ``(index in self, index in other)`` pairs.

        It is the LCS rouge-score's backtrack picks when this sequence is its ``ref``.
        """
        return [(i, j) for j, i in self._align(other)]

    def lcs_indices(self, other: Iterable[Hashable]) -> list[int]:
        """Indices into this sequence of rouge-score's LCS (``lcs_ind(self.tokens, other)``)."""
        return [i for _, i in self._align(other)]

    def lcs_index_mask(self, other: Iterable[Hashable]) -> int:
        """Same positions as :meth:`lcs_indices`, as a bit mask (bit ``i`` = index ``i``)."""
        if self._banded:
            pairs = self._align(other)
        else:  # the hot path of ROUGE-Lsum's union: one call less
            pairs = self.lcs_pairs_from_masks(list(map(self._whole.get, other, repeat(0))))
        result = 0
        for _, i in pairs:
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


class Lines(Protocol):
    """The tokens of one column's lines, row by row (a list of token lists will do)."""

    def __getitem__(self, row: int, /) -> Sequence[Hashable]: ...


def chunk_lcs_lengths(counts: NgramCounts, tokens: Sequence[Lines]) -> IntArray:
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
