"""Which rows of text columns contain a substring or match a regular expression, fast.

A filter over 100,000 rows and half a dozen text columns must answer in a fraction of a second.
Calling a regex engine once per row spends much of that time in per-call overhead, so a
:class:`SearchColumn` joins its rows into one string, once, and a regular expression runs over
that string: one call of the engine finds the next row with a match, however many rows without
one lie in between, and the next call starts at the row after it. The engine lets other
threads run meanwhile (``concurrent=True``), so :func:`matching_rows` searches several columns
on several cores at once.

The dialect is the `regex` module's (version 0: Python's ``re`` syntax and behaviour, plus
Unicode properties such as ``\\p{Han}``, which translators need). Its ``\\w``, ``\\s`` and
case-insensitive matching follow Unicode's definitions, where ``re`` has a few exceptions of
its own (``re`` matches "ı" for "i" ignoring case, and counts "²" as a word character).

The joined scan equals a search row by row as long as no match can see past the end of its
row. So it is only used when the pattern has no anchors (``^``, ``$``, ``\\A``, ``\\Z``) and no
lookaround (checked on the parse of the pattern; ``\b`` and ``\\B`` are fine, since the
separator is not a word character). A match that runs over the end of its row is checked on
that row alone. Anything else is searched row by row, with the same engine.

A substring is looked for in the column's case-folded rows kept as one UTF-8 buffer
(:class:`_Utf8Rows`: a few bytes per row more than the text itself, where a tuple of folded
strings costs some 50 more): ``bytes.find`` skips the blocks of rows without it and follows a
few matches in the others; where matches are dense, the block's remaining rows are asked one by
one, all in C (:meth:`_Utf8Rows.find`; numpy's search of every place the needle starts was as
fast alone, but in the app each of its calls gave the interpreter to the GUI thread and waited to
get it back: a search of 100,000 rows took three times as long). UTF-8 is
self-synchronising, so the bytes of the folded needle occur inside a row's bytes exactly when
the folded needle occurs in the folded row. A case-sensitive substring is looked for row by row,
only in the rows whose folded text holds the folded needle (folding maps each character on its
own, so a row holding the needle holds it folded too). Every search takes a ``cancelled``
callback, asked between blocks of rows: a search the user has already replaced (the next
keystroke) stops with :class:`SearchCancelled`.

Most regular expressions hold literal text every match must contain ("19" or "20" in
``\\b(19|20)\\d\\d\\b``: :func:`~core.analysis.regexliterals.prefilter`). Then the rows that
may hold it are found first: the column's index says which (:mod:`core.analysis.textindex`;
where a digit follows a needle ending in one in every match, as there, only the rows where
that digit is followed by another, or by a character that is no ASCII), or numpy finds them
over the folded UTF-8 rows (:meth:`_Utf8Rows.holding`: a few long calls per column). Those
rows are gathered over the column and searched a block at a time: where the index could not
say exactly, numpy finds where the literal text first lies in each row's folded
bytes (:meth:`_Utf8Rows.first_places`), and the engine runs once per row holding it, in C,
from the first place a match may start (a row-local pattern's match starts at most so many
characters before the literal text: :func:`_search_starts`). When most rows hold it, the
column is scanned as above.

A column keeps its joined text for regular expressions only while it is small
(:data:`_KEEP_JOINED`); a bigger one is joined a block of rows at a time for each search, so a
million rows cost no second copy of their text.

A substring's blocks are scanned with ``bytes.find``, or, where one of its bytes is rare in the
column, with ``memchr`` of that byte (``bytes.find`` of one byte, ten times as fast) and a look
for the substring at each place it lies (:meth:`_Utf8Rows._finder`).

Where a needle is in most rows, every row must be asked, unless the column has an index of
its most frequent 1- to 3-byte strings (:meth:`SearchColumn.build_index`, built in the
background: :mod:`core.analysis.textindex`), which says which rows may hold it.

A column also keeps its sort ranks (:meth:`SearchColumn.sort_ranks`, built by
:mod:`core.analysis.textsort`).
"""

from __future__ import annotations

import os
import threading
import warnings
from array import array
from bisect import bisect_right
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from itertools import compress, pairwise, repeat
from operator import itemgetter
from typing import Any

import numpy as np
import numpy.typing as npt
import regex

from matchlight.core.analysis import textsort
from matchlight.core.analysis.regexliterals import UNBOUNDED, Prefilter, prefilter
from matchlight.core.analysis.textindex import NgramIndex, build_index, find_indexed, may_hold
from matchlight.core.text.lines import TextLines

__all__ = ["PatternError", "SearchCancelled", "SearchColumn", "TextQuery", "matching_rows"]

BoolArray = npt.NDArray[np.bool_]
IntArray = npt.NDArray[np.int64]
Cancelled = Callable[[], bool]

#: Rows searched (or case-folded, or joined) in one call: between two looks at the ``cancelled``
#: callback, and the longest the search holds the GIL at a time (a few milliseconds; one C
#: call over a million rows would hold it, the GUI thread's too, for the whole of it).
_BLOCK = 1 << 12

#: Rows case-folded in one go while a column's search cache is built (in a worker, beside the
#: GUI thread): a block of :data:`_BLOCK` held the GIL for 4-9 ms at a time (casefold, join and
#: encode are single C calls), and the GUI thread waited that long at each of its calls into Qt.
_FOLD_BLOCK = 1 << 10

# Row separators, tried in this order: control characters (never word
# characters, so \b at a row's edge means what it means at a string's edge).
_SEPARATORS = ("\n", "\x1e", "\x1f", "\x1d", "\x1c", "\x00")

try:  # the parser of the re module: private, so only used to decide, never needed
    from re import _parser as _re_parser  # type: ignore[attr-defined]
    from re._constants import (  # type: ignore[import-not-found]
        ASSERT,
        ASSERT_NOT,
        AT,
        AT_BOUNDARY,
        AT_NON_BOUNDARY,
    )
except ImportError:  # pragma: no cover - another Python: every regex is searched per row
    _re_parser = None


class PatternError(ValueError):
    """An invalid regular expression; the message says what is wrong and where."""


class SearchCancelled(Exception):
    """A search stopped because its ``cancelled`` callback said so (nobody wants its rows)."""


def _never() -> bool:
    return False


def _nothing() -> None:
    return None


def _blocks(strings: Sequence[str]) -> range:
    """Where the blocks of :data:`_BLOCK` rows start."""
    return range(0, len(strings), _BLOCK)


@dataclass(frozen=True, slots=True)
class TextQuery:
    """What to look for: a substring (case-folded unless ``case_sensitive``) or a regex."""

    pattern: str
    regex: bool = False
    case_sensitive: bool = False

    def compile(self) -> Any:
        """The compiled `regex` pattern (raises :class:`PatternError` when it is invalid)."""
        flags = regex.VERSION0 | (0 if self.case_sensitive else regex.IGNORECASE)
        source = self.pattern if self.regex else regex.escape(self.pattern)
        try:
            return regex.compile(source, flags)
        except regex.error as exc:
            raise PatternError(str(exc)) from None
        except (ValueError, TypeError, OverflowError, RecursionError) as exc:
            raise PatternError(f"{type(exc).__name__}: {exc}") from None


class SearchColumn:
    """One text column, prepared once for many searches (keep it while the column lives)."""

    __slots__ = (
        "_build_lock",
        "_fold_wanted",
        "_folded",
        "_index",
        "_indexed",
        "_joined",
        "_keep_joined",
        "_rank_lock",
        "_ranks",
        "_wanted",
        "strings",
    )

    def __init__(self, strings: Sequence[str]) -> None:
        self.strings: Sequence[str] = strings
        self._joined: _Joined | None = None
        self._keep_joined: bool | None = None
        self._folded: _Utf8Rows | None = None
        self._fold_wanted = False
        self._build_lock = threading.Lock()  # folded rows and index built once, by one thread
        self._index: NgramIndex | None = None
        self._indexed = False  # the index was built (it may be None: nothing frequent)
        self._ranks: IntArray | None = None
        self._rank_lock = threading.Lock()  # the ranks are built once, by one thread
        self._wanted = False

    def __len__(self) -> int:
        return len(self.strings)

    def keeps_joined(self) -> bool:
        """Whether the joined text is small enough to keep (:data:`_KEEP_JOINED`)."""
        if self._keep_joined is None:
            strings = self.strings
            if isinstance(strings, TextLines):
                chars = strings.chars()
            else:
                chars = sum(sum(map(len, strings[a : a + _BLOCK])) for a in _blocks(strings))
            self._keep_joined = chars <= _KEEP_JOINED
        return self._keep_joined

    def joined(self, between: Callable[[], None] | None = None) -> _Joined | None:
        """The rows joined by a separator that occurs in none of them (built on first use and
        kept), for a column small enough to keep it (:meth:`keeps_joined`).

        ``None`` for a bigger column, or when every candidate separator occurs in some row.
        """
        if self._joined is None:
            if not self.keeps_joined():
                return None
            self._joined = _Joined.of(self.strings, between or _nothing)
        return self._joined if self._joined.separator else None

    def prepare(self, between: Callable[[], None] | None = None) -> SearchColumn:
        """Build every cache now (e.g. in a worker thread, right after reading); returns self.
        ``between`` is called between the blocks of rows folded (as in :meth:`folded`) and
        joined."""
        self.folded(between)
        self.joined(between)
        return self

    def is_prepared(self) -> bool:
        """Whether :meth:`prepare` has built every cache (costs nothing: the GUI thread asks)."""
        return self._folded is not None and (self._joined is not None or self._keep_joined is False)

    def folded(self, between: Callable[[], None] | None = None) -> _Utf8Rows:
        """The rows case-folded, as one UTF-8 buffer (built on first use, by one thread:
        another one asking meanwhile waits for them).

        ``between`` is given by a worker that folds them ahead of need: it is called between
        blocks of rows, to pause there (unless somebody waits for them: :meth:`fold_wanted`)
        or to give up by raising (then nothing is kept)."""
        if self._folded is None:
            if between is None:
                self._fold_wanted = True
            with self._build_lock:
                if self._folded is None:
                    self._folded = _Utf8Rows.folded(self.strings, between or _nothing)
        return self._folded

    def fold_wanted(self) -> bool:
        """Whether a search asked for the folded rows (and may be waiting for them)."""
        return self._fold_wanted

    def build_index(self, between: Callable[[], None] | None = None) -> NgramIndex | None:
        """Build the index of the rows' frequent n-grams (:mod:`core.analysis.textindex`), once,
        which substring searches use from then on (never needed: a search without it scans the
        rows). ``between`` is called between its blocks of rows, to pause there or to give up
        by raising (then no index is kept)."""
        if not self._indexed:
            folded = self.folded()
            with self._build_lock:
                if not self._indexed:
                    self._index = build_index(folded, between or _nothing)
                    self._indexed = True
        return self._index

    def has_index(self) -> bool:
        """Whether :meth:`build_index` is done (costs nothing)."""
        return self._indexed

    def sort_ranks(self, between: Callable[[], None] | None = None) -> IntArray:
        """Per row, its place among the column's distinct texts in sort order (built on first
        use, by one thread: another one asking meanwhile waits for them): case-folded first,
        then as written. Equal texts share a rank, so a stable ``argsort`` of the ranks (or of
        their negation) sorts the rows either way with equal texts in segment order.

        ``between`` is given by a worker that builds them ahead of need: it is called between
        the steps of building them, to pause there (while a search runs, unless somebody waits
        for these ranks: :meth:`ranks_wanted`) or to give up by raising."""
        if self._ranks is None:
            if between is None:
                self._wanted = True
            with self._rank_lock:
                if self._ranks is None:
                    ranks = textsort.sort_ranks(self.strings, self.folded(), between or _nothing)
                    self._ranks = ranks
        return self._ranks

    def sort_order(self, descending: bool = False) -> IntArray:
        """Every row in the column's sort order (:meth:`sort_ranks`, built first if need be),
        or in the reverse order of the texts; equal texts in segment order either way."""
        ranks = self.sort_ranks()
        distinct = int(ranks.max()) + 1 if len(ranks) else 0
        return textsort.stable_argsort(distinct - 1 - ranks if descending else ranks, distinct)

    def ranks_wanted(self) -> bool:
        """Whether a sort asked for the ranks (and may be waiting for them)."""
        return self._wanted

    def has_sort_ranks(self) -> bool:
        return self._ranks is not None

    def search(
        self,
        query: TextQuery,
        compiled: Any = None,
        *,
        skip: BoolArray | None = None,
        cancelled: Cancelled = _never,
        literals: Prefilter | None = None,
    ) -> BoolArray:
        """Per row: does it contain ``query``? (``compiled``: :func:`_compile_fast` of it;
        ``literals``: :func:`~core.analysis.regexliterals.prefilter` of a regex.)

        Rows where ``skip`` is True may be left unsearched (False); ``cancelled`` is asked
        between blocks of rows (:class:`SearchCancelled` when it says True).
        """
        if not query.regex:
            needle = _utf8(query.pattern.casefold())
            folded = find_indexed(self._index, self.folded(), needle, skip, cancelled)
            if not query.case_sensitive:
                return folded if skip is None else folded & ~skip
            todo = folded if skip is None else folded & ~skip
            return _rows_where(_containing(query.pattern), self.strings, ~todo, cancelled)
        if literals is not None:
            found = self._search_candidates(query, compiled, literals, skip, cancelled)
            if found is not None:
                return found
        fast = compiled if compiled is not None else _compile_fast(query)
        if fast is None:
            search = query.compile().search
            return _rows_where(_matching(search), self.strings, skip, cancelled)
        joined = self.joined()
        if joined is not None:
            return joined.search(fast, self.strings, cancelled)
        return _search_in_joined_blocks(fast, self.strings, skip, cancelled)

    def _search_candidates(
        self,
        query: TextQuery,
        fast: Any,
        literals: Prefilter,
        skip: BoolArray | None,
        cancelled: Cancelled,
    ) -> BoolArray | None:
        """A regex searched only in the rows whose folded text holds one of the needles of
        ``literals`` (which every match holds), or None when most rows may hold one (then the
        whole column is searched, which costs less).

        The rows that may hold one (all of them, and with the column's index maybe others) are
        gathered over the column, then asked a block at a time: where each needle first lies
        in their folded bytes (:meth:`_Utf8Rows.first_places`, numpy over the block's bytes
        joined), then the engine, once per row holding one, in C. For a row-local pattern
        (``fast``) the engine starts at most ``literals.lead`` characters before the first
        needle (a match cannot start earlier: :func:`_search_starts`), which spares it
        scanning the row up to there."""
        folded = self.folded()
        needles = [_utf8(needle) for needle in literals.needles]
        share = 0.0 if self._index is not None else folded.share_holding(needles)
        if share > _MOST_CANDIDATES:
            return None  # looking for the needles everywhere would cost more than it saves
        candidates = np.zeros(len(self), np.bool_) if skip is None else skip.copy()
        exact = True
        for needle in needles:
            rows_may, exactly = may_hold(self._index, folded, needle, cancelled)
            if literals.digit_after and self._index is not None and needle[-1:].isdigit():
                # A digit follows the needle in every match: only rows where its last digit
                # is followed by one (or by a character that is no ASCII) may match.
                rows_may &= self._index.digit_followed(needle[-1:])
            candidates |= rows_may
            exact &= exactly
        if skip is not None:
            candidates &= ~skip
        rows = np.flatnonzero(candidates)
        if fast is not None and len(rows) > _MOST_CANDIDATES * len(self):
            return None
        search = (fast if fast is not None else query.compile()).search
        lead = literals.lead if fast is not None else None
        found = np.zeros(len(self), np.bool_)
        rarest: list[int] = []
        if not exact or _FIRST_PLACES:
            shares = folded.byte_shares()
            rarest = [folded.rarest_byte(needle, shares) for needle in needles]
        for a in range(0, len(rows), _BLOCK):
            if cancelled():
                raise SearchCancelled
            at = rows[a : a + _BLOCK]
            if exact and not _FIRST_PLACES:  # every row holds a needle
                block = _pick(self.strings, at)
                found[at] = np.fromiter(map(bool, map(search, block)), np.bool_, len(at))
                continue
            first = folded.first_places(needles, at, rarest)
            held = first >= 0
            at, first = at[held], first[held]
            block = _pick(self.strings, at)
            starts = _search_starts(block, folded, at, first, lead)
            found[at] = np.fromiter(map(bool, map(search, block, starts)), np.bool_, len(at))
        return found


def _pick(strings: Sequence[str], rows: IntArray) -> Sequence[str]:
    """The texts of ``rows`` (in one C call: ``itemgetter``, or TextLines' ``pick``)."""
    if isinstance(strings, TextLines):
        return strings.pick(rows)
    if len(rows) < 2:
        return [strings[int(row)] for row in rows]
    picked: Sequence[str] = itemgetter(*rows.tolist())(strings)
    return picked


def _search_starts(
    block: Sequence[str], folded: _Utf8Rows, rows: IntArray, first: IntArray, lead: int | None
) -> list[int]:
    """Where the engine starts in each row of ``block`` (``rows`` of ``folded``, whose first
    needle starts ``first`` bytes into its folded bytes): ``lead`` characters before that
    needle, where the row's folded bytes are as many as its characters (each character folds
    to one byte, so a byte's place is its character's place in the row as written), else (or
    without ``lead``) at the row's start. A match holding a needle starts at most ``lead``
    characters before it, so none starts before the first needle's place less ``lead``; the
    engine still sees the text before where it starts (``\\b`` there is what it is in the
    row)."""
    if lead is None or lead >= UNBOUNDED:
        return [0] * len(block)
    lengths = np.fromiter(map(len, block), np.int64, len(block))
    size = folded.bounds[rows + 1] - 1 - folded.bounds[rows]
    return np.where(lengths == size, np.maximum(first - lead, 0), 0).tolist()


def _search_in_joined_blocks(
    pattern: Any, strings: Sequence[str], skip: BoolArray | None, cancelled: Cancelled
) -> BoolArray:
    """:meth:`_Joined.search` over a column too big to keep joined: each block of rows is
    joined for the search and dropped after it."""
    n = len(strings)
    found = np.zeros(n, dtype=np.bool_)
    for a in _blocks(strings):
        if cancelled():
            raise SearchCancelled
        b = min(n, a + _BLOCK)
        block = strings[a:b]
        joined = _Joined.of(block)
        if joined.separator:
            found[a:b] = joined.search(pattern, block, cancelled)
        else:
            rest = None if skip is None else skip[a:b]
            found[a:b] = _rows_where(_matching(pattern.search), block, rest, cancelled)
    return found


def _utf8(text: str) -> bytes:
    """``text`` as UTF-8, lone surrogates included (as three bytes each, in code point order)."""
    return text.encode("utf-8", "surrogatepass")


@dataclass(frozen=True, slots=True)
class _Utf8Rows:
    """Rows (case-folded) as one UTF-8 buffer, each followed by a newline byte, and where each
    starts.

    Row ``i`` is ``data[bounds[i] : bounds[i + 1] - 1]``. A row may hold a newline itself:
    rows are found by their offsets, never by the byte after them.
    """

    data: bytes
    bounds: IntArray  # n + 1 offsets

    @classmethod
    def folded(cls, strings: Sequence[str], between: Callable[[], None] = _nothing) -> _Utf8Rows:
        """The rows of ``strings`` case-folded, a block at a time (see :data:`_FOLD_BLOCK`),
        with ``between`` called before each block."""
        parts: list[bytes] = []
        ends: list[IntArray] = []
        offset = 0
        for a in range(0, len(strings), _FOLD_BLOCK):
            between()
            block = strings[a : a + _FOLD_BLOCK]
            rows = list(map(str.casefold, block))
            raw = _utf8("\n".join(rows)) + b"\n"
            at = np.flatnonzero(np.frombuffer(raw, np.uint8) == _NEWLINE)
            if len(at) != len(rows):  # some row holds a newline: measure each row
                lengths = np.fromiter(map(len, map(_utf8, rows)), np.int64, len(rows))
                at = np.cumsum(lengths + 1) - 1
            parts.append(raw)
            ends.append(at.astype(np.int64) + offset)
            offset += len(raw)
        bounds = np.concatenate([np.zeros(1, np.int64), *(e + 1 for e in ends)])
        return cls(b"".join(parts), bounds)

    def __len__(self) -> int:
        return len(self.bounds) - 1

    def row(self, i: int) -> bytes:
        return self.data[int(self.bounds[i]) : int(self.bounds[i + 1]) - 1]

    def rows_as_bytes(self) -> list[bytes]:
        """Every row's bytes (their order is the order of the texts' code points)."""
        data, bounds = self.data, self.bounds.tolist()
        return [data[a : b - 1] for a, b in pairwise(bounds)]

    def share_holding(self, needles: Sequence[bytes]) -> float:
        """About which share of the rows hold one of ``needles``: asked of a few windows of
        rows spread over the column (:data:`_SAMPLES` of :data:`_SAMPLE_ROWS` rows)."""
        n = len(self)
        if n == 0:
            return 0.0
        data, bounds, held, asked = self.data, self.bounds, 0, 0
        for a in range(0, n, max(1, n // _SAMPLES)):
            edges = bounds[a : min(n, a + _SAMPLE_ROWS) + 1].tolist()
            for low, high in pairwise(edges):
                held += any(data.find(needle, low, high - 1) >= 0 for needle in needles)
            asked += len(edges) - 1
        return held / asked

    def first_places(
        self, needles: Sequence[bytes], rows: IntArray, rarest: Sequence[int] | None = None
    ) -> IntArray:
        """Per row of ``rows`` (a block's worth), where in its bytes the first of ``needles``
        (none empty) starts; -1 where none does. Found with numpy over the rows' bytes
        joined (by a newline: a needle found across it, or across a newline of the row's
        own, lies in no row: its place must end inside its row), from each needle's byte at
        ``rarest`` (default: the first; :meth:`rarest_byte`, asked once for all blocks)."""
        data, bounds = self.data, self.bounds
        lows, highs = bounds[rows], bounds[rows + 1] - 1
        joined = b"\n".join(map(data.__getitem__, map(slice, lows.tolist(), highs.tolist())))
        values = np.frombuffer(joined, np.uint8)
        starts = np.zeros(len(rows) + 1, np.int64)  # where each row starts in ``joined``
        np.cumsum(highs - lows + 1, out=starts[1:])
        first = np.full(len(rows), _FAR, np.int64)
        for needle, k in zip(needles, rarest or [0] * len(needles), strict=True):
            at = _places(values, needle, 0, len(values), k)
            row = np.searchsorted(starts, at, side="right") - 1
            whole = at + len(needle) < starts[row + 1]
            row, firsts = np.unique(row[whole], return_index=True)  # the first per row
            first[row] = np.minimum(first[row], at[whole][firsts] - starts[row])
        return np.where(first < _FAR, first, -1)

    def holding(self, needle: bytes, cancelled: Cancelled = _never) -> BoolArray:
        """Per row: does it hold ``needle``? Found with numpy over the whole buffer, a few
        megabytes at a time (:data:`_SPAN`): where the needle's first byte lies, kept where its
        other bytes follow, mapped to rows by their offsets (a match must end inside its row).
        A few long calls per column, each of which lets other threads run: cheaper than
        :meth:`find` for a short needle found in many rows."""
        n = len(self)
        found = np.zeros(n, dtype=np.bool_)
        if not needle:
            found[:] = True
            return found
        bounds, size = self.bounds, len(needle)
        values = np.frombuffer(self.data, np.uint8)
        k = self.rarest_byte(needle)
        for low in range(0, len(values), _SPAN):
            if cancelled():
                raise SearchCancelled
            _mark_holding(found, values, bounds, needle, low, low + _SPAN + size - 1, k)
        return found

    def find(
        self, needle: bytes, skip: BoolArray | None = None, cancelled: Cancelled = _never
    ) -> BoolArray:
        """Per row: does it hold ``needle``? (Rows where ``skip`` is True may be left out.)

        A block of rows without it anywhere costs one ``bytes.find`` (or, where one of the
        needle's bytes is rare in these rows, one ``memchr`` of that byte and a look at each
        place it lies: :meth:`_finder`). In the others, each match found leads to the next row;
        once a block's matches are dense, the rest of the block's rows (those not skipped) are
        asked one by one, in C. A block whose rows are mostly skipped has its other rows asked
        one by one at once (a scan of the block would mostly read rows nobody asks about). A
        needle holding a newline (which no row holds) goes through numpy: every place it starts
        (where its first byte lies, kept where its other bytes follow), mapped to rows by their
        offsets; a match must end inside its row.
        """
        n = len(self)
        found = np.zeros(n, dtype=np.bool_)
        if not needle:
            found[:] = True
            return found if skip is None else found & ~skip
        data, bounds = self.data, self.bounds
        values = np.frombuffer(data, np.uint8)
        walk = b"\n" not in needle  # else a match could run from one row into the next
        rare = self.rare_byte(needle) if walk else None
        find = self._finder(needle, rare) if walk else None
        # Per block: are its rows not skipped few? (Asked once for every block: each numpy call
        # lets the GUI thread take the interpreter, and waits to get it back.) Fewer where a
        # rare byte makes the scan cheap.
        few = [False] * len(range(0, n, _BLOCK))
        if walk and skip is not None and n:
            starts = np.arange(0, n, _BLOCK)
            asked_counts = np.add.reduceat(~skip, starts, dtype=np.int64)
            one_in = _FEW_ASKED if rare is None else _FEW_ASKED_RARE
            few = (asked_counts * one_in <= np.diff(np.append(starts, n))).tolist()
        for block, a in enumerate(range(0, n, _BLOCK)):
            if cancelled():
                raise SearchCancelled
            b = min(n, a + _BLOCK)
            if few[block]:
                assert skip is not None
                asked = np.flatnonzero(~skip[a:b]) + a
                if len(asked):
                    found[asked[self._rows_holding(needle, asked)]] = True
                continue
            at = data.find(needle, int(bounds[a]), int(bounds[b])) if find is None else -1
            if find is not None:
                at = find(int(bounds[a]), int(bounds[b]))
            if at < 0:
                continue
            edges = bounds[a : b + 1].tolist()
            row, hits = a, []
            while find is not None and at >= 0:
                row = a + bisect_right(edges, at) - 1
                hits.append(row)
                row += 1
                if len(hits) >= _WALK and len(hits) * _SPARSE > row - a:
                    break  # dense: the rest of the block is asked row by row
                at = find(edges[row - a], edges[-1]) if row < b else -1
            found[hits] = True
            if at < 0 and walk:
                continue
            todo = np.arange(row, b) if skip is None else np.flatnonzero(~skip[row:b]) + row
            if walk:
                found[todo[self._rows_holding(needle, todo)]] = True
                continue
            _mark_holding(found, values, bounds, needle, int(bounds[row]), int(bounds[b]))
        return found

    def _rows_holding(self, needle: bytes, rows: IntArray) -> BoolArray:
        """Per row of ``rows`` (a block's worth at most): does it hold ``needle``? One
        ``bytes.find`` per row, all in C."""
        bounds = self.bounds
        ends = bounds[rows + 1] - 1
        hit = map(self.data.find, repeat(needle), bounds[rows].tolist(), ends.tolist())
        return np.fromiter(hit, np.int64, len(rows)) >= 0

    def byte_shares(self) -> npt.NDArray[np.float64]:
        """About which share of the bytes each byte value is: counted in a few windows spread
        over the rows (:data:`_SAMPLES` of :data:`_SAMPLE_BYTES` bytes)."""
        values = np.frombuffer(self.data, np.uint8)
        step = max(1, len(values) // _SAMPLES)
        sample = [values[a : a + _SAMPLE_BYTES] for a in range(0, len(values), step)]
        counts = np.bincount(np.concatenate(sample), minlength=256) if sample else np.ones(256)
        return np.asarray(counts, dtype=np.float64) / max(1, int(counts.sum()))

    def rarest_byte(self, needle: bytes, shares: npt.NDArray[np.float64] | None = None) -> int:
        """Where in ``needle`` (not empty) its rarest byte in these rows is (by
        :meth:`byte_shares`, or ``shares``): numpy looks for a needle from there
        (:func:`_places`), which leaves the fewest places to check."""
        if len(needle) < 2:
            return 0
        shares = self.byte_shares() if shares is None else shares
        return min(range(len(needle)), key=lambda i: shares[needle[i]])

    def rare_byte(self, needle: bytes) -> int | None:
        """Where in ``needle`` (of two bytes or more) its rarest byte is, if that byte is rare in
        these rows (under :data:`_RARE_BYTE` of them): a scan then finds the needle with
        ``memchr`` of that byte (:meth:`_finder`), and asking rows one by one pays off only for
        fewer of them (:data:`_FEW_ASKED_RARE`)."""
        if len(needle) < 2:
            return None
        shares = self.byte_shares()
        k = self.rarest_byte(needle, shares)
        return k if shares[needle[k]] <= _RARE_BYTE else None

    def _finder(self, needle: bytes, k: int | None) -> Callable[[int, int], int]:
        """``data.find(needle, low, high)`` as a function of ``low`` and ``high``. Where one of
        the needle's bytes is rare in these rows (``k``: where it is, :meth:`rare_byte`), its
        places are found with ``memchr`` (``bytes.find`` of one byte, many times faster than its
        search of a longer needle) and the needle looked for at each: the first place it is
        whole."""
        data = self.data
        if k is None:
            return lambda low, high: data.find(needle, low, high)
        byte, size = needle[k : k + 1], len(needle)
        find, starts = data.find, data.startswith

        def finder(low: int, high: int) -> int:
            last = high - size + k + 1  # where the byte may lie for the needle to end by high
            at = find(byte, low + k, last)
            while at >= 0:
                if starts(needle, at - k, high):
                    return at - k
                at = find(byte, at + 1, last)
            return -1

        return finder


def _mark_holding(
    found: BoolArray,
    values: npt.NDArray[np.uint8],
    bounds: npt.NDArray[np.int64],
    needle: bytes,
    low: int,
    high: int,
    k: int = 0,
) -> None:
    """Set ``found`` for the rows (``bounds``: their offsets) holding ``needle`` within the bytes
    ``values[low:high]``: every place it starts (:func:`_places`, from its byte at ``k``),
    mapped to rows by their offsets; a match must end inside its row."""
    starts = _places(values, needle, low, high, k)
    rows = np.searchsorted(bounds, starts, side="right") - 1
    found[rows[starts + len(needle) < bounds[rows + 1]]] = True


def _places(
    values: npt.NDArray[np.uint8], needle: bytes, low: int, high: int, k: int = 0
) -> IntArray:
    """Every place in ``values[low:high]`` where ``needle`` (not empty) starts and ends, in
    order: where its byte at ``k`` lies (its rarest, best: fewest places to check), kept where
    its other bytes are around it."""
    size = len(needle)
    part = values[low:high]
    stop = max(0, len(part) - size + 1)  # places where the whole needle fits
    starts = np.flatnonzero(part[k : k + stop] == needle[k])
    for j in range(size):
        if j != k:
            starts = starts[part[starts + j] == needle[j]]
    return starts + low


#: Windows of rows, and rows a window, that :meth:`_Utf8Rows.share_holding` asks (and bytes a
#: window that :meth:`_Utf8Rows.byte_shares` counts).
_SAMPLES = 8
_SAMPLE_ROWS = 128
_SAMPLE_BYTES = 1 << 15
#: The largest share of a column's bytes for which a needle's rarest byte is found with memchr
#: and the needle looked for at each of its places (a place costs some 300 ns in Python, a
#: ``bytes.find`` of the needle some 0.7 ns per byte).
_RARE_BYTE = 1 / 1000
#: A block whose rows not skipped are at most one in this many has them asked one by one
#: (asking a row costs a few times what scanning its bytes does).
_FEW_ASKED = 8
#: The same for a needle with a rare byte, whose scan (``memchr``) costs less: over 100k rows of
#: wmt22 text, asking 1 row in 16 one by one cost 8.4 ms against the scan's 7.8, 1 in 32 5.0 ms
#: against 7.3.
_FEW_ASKED_RARE = 32
#: The largest share of a column's rows holding a regex's literal text for which the regex is
#: searched only in those rows (above it, finding them costs more than it saves).
_MOST_CANDIDATES = 0.5
#: Bytes of a column's folded rows searched by one numpy pass (:meth:`_Utf8Rows.holding`).
_SPAN = 1 << 23
#: Whether rows known to hold a needle have its place looked for too (tests force it on; a
#: place found early in a row spares the engine little, and looking costs some 0.5 us a row).
_FIRST_PLACES = False
#: More bytes than any row has: no place found.
_FAR = 1 << 62
#: The newline byte that follows each row of a :class:`_Utf8Rows`.
_NEWLINE = 10
#: Matches a block's substring search follows one at a time before it may ask the block's
#: remaining rows one by one; it does once more than one row in ``_SPARSE`` holds the substring
#: (following a match costs a few times what asking a row does).
_WALK = 32
_SPARSE = 8
#: The most characters a column keeps joined for regular expressions (as many bytes, twice
#: or four times as many, by the widest character in it).
_KEEP_JOINED = 1 << 25


RowTest = Callable[[Iterable[str]], Iterable[bool]]


def _containing(needle: str) -> RowTest:
    """Per row of an iterable: does it contain ``needle`` (all in C: no Python call per row)."""
    return lambda rows: map(str.__contains__, rows, repeat(needle))


def _matching(search: Callable[..., Any]) -> RowTest:
    """Per row of an iterable: does ``search`` find a match in it."""
    return lambda rows: map(bool, map(search, rows))


def _rows_where(
    test: RowTest, strings: Sequence[str], skip: BoolArray | None, cancelled: Cancelled
) -> BoolArray:
    """``test`` per row, block by block, leaving out the rows ``skip`` says."""
    n = len(strings)
    found = np.zeros(n, dtype=np.bool_)
    for start in range(0, n, _BLOCK):
        if cancelled():
            raise SearchCancelled
        stop = min(n, start + _BLOCK)
        if skip is not None and skip[start:stop].all():
            continue
        block = strings[start:stop]
        if skip is None or not skip[start:stop].any():
            found[start:stop] = np.fromiter(test(block), np.bool_, len(block))
            continue
        todo = ~skip[start:stop]
        rows = np.flatnonzero(todo) + start
        found[rows] = np.fromiter(test(compress(block, todo.tolist())), np.bool_, len(rows))
    return found


@dataclass(frozen=True, slots=True)
class _Joined:
    """Rows joined into one string, with where each row starts and ends in it."""

    separator: str  # "" when no candidate separator is absent from the rows
    text: str
    # Arrays, not lists: the garbage collector never looks into an array, where it would walk
    # a list's 100,000 items at every pass (a stall in the GUI).
    starts: array[int]
    ends: array[int]

    @classmethod
    def of(cls, strings: Sequence[str], between: Callable[[], None] = _nothing) -> _Joined:
        if isinstance(strings, TextLines):
            return cls._of_lines(strings, between)
        n = len(strings)
        for separator in _SEPARATORS:
            # Block by block (see :data:`_BLOCK`); a row holding the separator shows as
            # one separator too many in its block.
            parts: list[str] = []
            for a in _blocks(strings):
                part = separator.join(strings[a : a + _BLOCK])
                if part.count(separator) != min(n, a + _BLOCK) - a - 1:
                    break
                parts.append(part)
            else:
                text = separator.join(parts)
                break
        else:
            return cls("", "", array("q"), array("q"))
        return cls._with_lengths(separator, text, np.fromiter(map(len, strings), np.int64, n))

    @classmethod
    def _of_lines(cls, lines: TextLines, between: Callable[[], None]) -> _Joined:
        """:meth:`of` for :class:`~core.text.lines.TextLines`, from its bytes: the first
        separator none of them holds (an ASCII character is a byte no other character's UTF-8
        holds), each block's bytes joined and decoded at once (``between`` before each)."""
        data = lines.data
        for separator in _SEPARATORS:
            if data.find(separator.encode("ascii")) < 0:
                break
        else:
            return cls("", "", array("q"), array("q"))
        parts = []
        for a in _blocks(lines):
            between()
            parts.append(lines.joined(a, min(len(lines), a + _BLOCK), separator))
        return cls._with_lengths(separator, separator.join(parts), lines.char_lengths())

    @classmethod
    def _with_lengths(cls, separator: str, text: str, lengths: IntArray) -> _Joined:
        ends = np.cumsum(lengths + 1) - 1  # the separator after each row (or the text's end)
        starts = array("q", (ends - lengths).astype(np.int64).tobytes())
        return cls(separator, text, starts, array("q", ends.astype(np.int64).tobytes()))

    def search(
        self,
        pattern: Any,
        strings: Sequence[str],
        cancelled: Cancelled = _never,
    ) -> BoolArray:
        """Per row: does ``pattern`` (row-local, see the module's doc) match in it? (The engine
        lets other threads run while it searches.)

        One search from the start of a row finds the first match in that row or in any row
        after it, in one pass of the engine over the rows in between; then the search goes on
        from the start of the next row. A match that runs over the end of its row is checked on
        that row alone. The text is searched in blocks of rows (ending at a row's end, which
        looks to the engine as the separator does), asking ``cancelled`` between blocks.
        """
        n = len(strings)
        found = np.zeros(n, dtype=np.bool_)
        text, starts, ends = self.text, self.starts, self.ends
        search = pattern.search
        hits = 0
        block = 0
        while block < n:
            if cancelled():
                raise SearchCancelled
            last = min(n, block + _BLOCK) - 1
            position, endpos = starts[block], ends[last]
            block = last + 1
            while True:
                match = search(text, position, endpos, concurrent=True)
                if match is None:
                    break
                start, end = match.span()
                row = bisect_right(starts, start) - 1
                if end <= ends[row] or search(strings[row], concurrent=True) is not None:
                    found[row] = True
                if row >= last:
                    break
                hits += 1
                if hits % _DENSE_CHECK == 0 and row < _DENSE_RATIO * hits:
                    # Most rows match: one call per row costs less than one call per match
                    # plus the bookkeeping, and holds the GIL instead of handing it over at
                    # each call.
                    rest = strings[row + 1 :]
                    found[row + 1 :] = _rows_where(_matching(search), rest, None, cancelled)
                    return found
                position = starts[row + 1]
        return found


#: How often (in matched rows) the joined search checks whether most rows match, and what
#: "most" is: a match at least every ``_DENSE_RATIO`` rows.
_DENSE_CHECK = 64
_DENSE_RATIO = 4


def _row_local(pattern: str) -> bool:
    """True when no part of ``pattern`` looks beyond the text it matches, but for \\b/\\B.

    Decided on ``re``'s parse of it; patterns ``re`` cannot parse (``\\p{Han}``...) are
    searched row by row.
    """
    if _re_parser is None:
        return False
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # re's FutureWarnings are about re, not regex
            parsed = _re_parser.parse(pattern, 0)
    except Exception:  # anything odd: search row by row
        return False

    def local(items: Iterable[Any]) -> bool:
        for op, av in items:
            if op is AT:
                if av not in (AT_BOUNDARY, AT_NON_BOUNDARY):
                    return False
            elif op in (ASSERT, ASSERT_NOT) or not all(map(local, _subpatterns(av))):
                return False
        return True

    return local(parsed)


def _subpatterns(av: Any) -> list[Any]:
    """The nested sub-patterns in an ``re`` parse-tree argument (branches, groups, repeats)."""
    found: list[Any] = []
    stack = [av]
    while stack:
        item = stack.pop()
        if isinstance(item, _re_parser.SubPattern):
            found.append(item)
        elif isinstance(item, list | tuple):
            stack.extend(item)
    return found


def _compile_fast(query: TextQuery) -> Any:
    """The `regex` module's compilation of a row-local ``query``, or None (search per row)."""
    if not query.regex:
        return None
    compiled = query.compile()  # PatternError for an invalid pattern
    return compiled if _row_local(query.pattern) else None


def matching_rows(
    columns: Sequence[SearchColumn],
    query: TextQuery,
    *,
    workers: int | None = None,
    cancelled: Cancelled | None = None,
) -> BoolArray:
    """Per row: does ``query`` occur in any of ``columns`` (all of the same length)?

    Raises :class:`PatternError` for an invalid regular expression, and
    :class:`SearchCancelled` once ``cancelled()`` says True (asked between blocks of rows).
    Regex columns are searched in ``workers`` threads (default: one per core), which run in
    parallel inside the engine; substrings column after column, each only in the rows not
    matched yet.
    """
    if not columns:
        raise ValueError("no column to search")
    n = len(columns[0])
    if any(len(column) != n for column in columns):
        raise ValueError("text columns of different lengths")
    stop = cancelled or _never
    fast = _compile_fast(query)
    if query.regex and fast is None:
        query.compile()  # raise PatternError now for an invalid pattern
    literals = prefilter(query.pattern) if query.regex else None

    mask = np.zeros(n, dtype=np.bool_)
    if not query.regex and len(columns) > 1:
        # The columns where most rows hold the substring first: the rows they match are not
        # searched in the others.
        needle = [_utf8(query.pattern.casefold())]
        columns = sorted(columns, key=lambda column: -column.folded().share_holding(needle))
    threads = min(len(columns), workers or os.cpu_count() or 1)
    if fast is None or threads <= 1 or literals:
        for column in columns:
            mask |= column.search(query, fast, skip=mask, cancelled=stop, literals=literals)
        return mask

    def one(column: SearchColumn) -> BoolArray:
        return column.search(query, fast, cancelled=stop)

    with ThreadPoolExecutor(threads, thread_name_prefix="matchlight-search") as pool:
        for found in list(pool.map(one, columns)):
            mask |= found
    return mask
