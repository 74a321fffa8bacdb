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
"""

from __future__ import annotations

import os
from array import array
from bisect import bisect_right
from collections.abc import Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from itertools import repeat
from typing import Any

import numpy as np
import numpy.typing as npt
import regex

__all__ = ["PatternError", "SearchColumn", "TextQuery", "matching_rows"]

BoolArray = npt.NDArray[np.bool_]

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

    __slots__ = ("_folded", "_joined", "strings")

    def __init__(self, strings: Sequence[str]) -> None:
        self.strings: Sequence[str] = strings
        self._joined: _Joined | None = None
        self._folded: tuple[str, ...] | None = None

    def __len__(self) -> int:
        return len(self.strings)

    def joined(self) -> _Joined | None:
        """The rows joined by a separator that occurs in none of them (built on first use).

        ``None`` when every candidate separator occurs in some row.
        """
        if self._joined is None:
            self._joined = _Joined.of(self.strings)
        return self._joined if self._joined.separator else None

    def prepare(self) -> SearchColumn:
        """Build every cache now (e.g. in a worker thread, right after reading); returns self."""
        self.folded()
        self.joined()
        return self

    def is_prepared(self) -> bool:
        return self._folded is not None and self._joined is not None

    def folded(self) -> tuple[str, ...]:
        """The rows case-folded (built on first use).

        A tuple, and the row offsets of :class:`_Joined` are arrays: the garbage collector
        stops looking into a tuple of strings after its first pass, and never looks into an
        array, where it would walk a list's 100,000 items at every pass (a stall in the GUI).
        """
        if self._folded is None:
            self._folded = tuple(map(str.casefold, self.strings))
        return self._folded

    def search(self, query: TextQuery, compiled: Any = None) -> BoolArray:
        """Per row: does it contain ``query``? (``compiled``: :func:`_compile_fast` of it.)"""
        n = len(self.strings)
        if not query.regex:
            if query.case_sensitive:
                strings, needle = self.strings, query.pattern
            else:
                strings, needle = self.folded(), query.pattern.casefold()
            return np.fromiter(map(str.__contains__, strings, repeat(needle)), np.bool_, n)
        fast = compiled if compiled is not None else _compile_fast(query)
        joined = self.joined() if fast is not None else None
        if joined is not None:
            return joined.search(fast, self.strings)
        search = query.compile().search
        return np.fromiter(map(bool, map(search, self.strings)), np.bool_, n)


@dataclass(frozen=True, slots=True)
class _Joined:
    """Rows joined into one string, with where each row starts and ends in it."""

    separator: str  # "" when no candidate separator is absent from the rows
    text: str
    starts: array[int]  # not lists: see SearchColumn.folded
    ends: array[int]

    @classmethod
    def of(cls, strings: Sequence[str]) -> _Joined:
        n = len(strings)
        for separator in _SEPARATORS:
            text = separator.join(strings)
            if text.count(separator) == max(0, n - 1):
                break
        else:
            return cls("", "", array("q"), array("q"))
        lengths = np.fromiter(map(len, strings), np.int64, n)
        ends = np.cumsum(lengths + 1) - 1  # the separator after each row (or the text's end)
        starts = array("q", (ends - lengths).astype(np.int64).tobytes())
        return cls(separator, text, starts, array("q", ends.astype(np.int64).tobytes()))

    def search(self, pattern: Any, strings: Sequence[str]) -> BoolArray:
        """Per row: does ``pattern`` (row-local, see the module's doc) match in it?

        One search from the start of a row finds the first match in that row or in any row
        after it, in one pass of the engine over the rows in between; then the search goes on
        from the start of the next row. A match that runs over the end of its row is checked on
        that row alone.
        """
        n = len(strings)
        found = np.zeros(n, dtype=np.bool_)
        text, starts, ends = self.text, self.starts, self.ends
        search = pattern.search
        position = 0
        hits = 0
        while n:
            match = search(text, position, concurrent=True)
            if match is None:
                break
            start, end = match.span()
            row = bisect_right(starts, start) - 1
            if end <= ends[row] or search(strings[row], concurrent=True) is not None:
                found[row] = True
            if row + 1 >= n:
                break
            hits += 1
            if hits % _DENSE_CHECK == 0 and row < _DENSE_RATIO * hits:
                # Most rows match: one call per row costs less than one call per match plus
                # the bookkeeping, and holds the GIL instead of handing it over at each call.
                rest = strings[row + 1 :]
                found[row + 1 :] = np.fromiter(map(bool, map(search, rest)), np.bool_, len(rest))
                break
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
) -> BoolArray:
    """Per row: does ``query`` occur in any of ``columns`` (all of the same length)?

    Raises :class:`PatternError` for an invalid regular expression. Regex columns are searched in
    ``workers`` threads (default: one per core), which run in parallel inside the engine.
    """
    if not columns:
        raise ValueError("no column to search")
    n = len(columns[0])
    if any(len(column) != n for column in columns):
        raise ValueError("text columns of different lengths")
    fast = _compile_fast(query)
    if query.regex and fast is None:
        query.compile()  # raise PatternError now for an invalid pattern

    def one(column: SearchColumn) -> BoolArray:
        return column.search(query, fast)

    mask = np.zeros(n, dtype=np.bool_)
    threads = min(len(columns), workers or os.cpu_count() or 1)
    results: Iterable[BoolArray]
    if fast is None or threads <= 1:
        results = map(one, columns)
    else:
        with ThreadPoolExecutor(threads, thread_name_prefix="matchlight-search") as pool:
            results = list(pool.map(one, columns))
    for found in results:
        mask |= found
    return mask
