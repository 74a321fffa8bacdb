"""The literal text that every match of a regular expression must contain, for a prefilter.

A row can only match ``\\b(19|20)\\d\\d\\b`` if it contains "19" or "20". Finding those with a
substring search (:meth:`core.analysis.textsearch._Utf8Rows.holding`, over the case-folded rows)
and running the regex engine only on the rows that have one is much cheaper than running the
engine over every row: most regexes people type hold a word or a number.

:func:`required_literals` reads ``re``'s parse of the pattern (the `regex` module's dialect,
version 0, is ``re``'s syntax; anything ``re`` cannot parse, or parses as literal text where
`regex` sees syntax — fuzzy ``{e<=1}``, POSIX ``[[:alpha:]]``, verbose mode — gets no prefilter)
and returns case-folded needles such that every match contains at least one of them, case-folded:
a superset of the matching rows, never a subset. Ignoring case, the engine matches a literal
character by its case variants; a character is only used if each of those variants case-folds
as it does (:func:`_folds_alike`, asked of the engine's own case tables: "I" matches the
dotless "ı", which folds to itself, so "I" is not used), and the literal text is cut there.

:func:`prefilter` also says how far into a match the needle may start at most (its ``lead``:
the most characters the pattern's parts before it may match, by ``re``'s measure of widths; a
literal character matches one character, since version 0 folds case one character at a time),
so that the engine can start that far before the first needle in a row (0 for the pattern
above): no match starts earlier.
"""

from __future__ import annotations

import re
import warnings
from dataclasses import dataclass
from functools import cache
from typing import Any

import regex

try:  # the engine's case tables (private)
    from regex import _regex
except ImportError:  # pragma: no cover - no prefilter then
    _regex = None

__all__ = ["UNBOUNDED", "Prefilter", "prefilter", "required_literals"]

try:  # the parser of the re module: private, so only used to decide, never needed
    from re import _parser as _re_parser  # type: ignore[attr-defined]
    from re._constants import (  # type: ignore[import-not-found]
        ATOMIC_GROUP,
        BRANCH,
        LITERAL,
        MAX_REPEAT,
        MIN_REPEAT,
        POSSESSIVE_REPEAT,
        SUBPATTERN,
    )
except ImportError:  # pragma: no cover - another Python: no prefilter
    _re_parser = None

#: Literal characters that `regex` may read as syntax where ``re`` reads text (fuzzy matching's
#: ``{e<=1}``, POSIX classes' ``[[:alpha:]]``): a pattern holding one gets no prefilter.
_AMBIGUOUS = frozenset("{}]")
#: How the search compiles a pattern ignoring case (see :meth:`TextQuery.compile`).
_CASE_FLAGS = regex.IGNORECASE | regex.VERSION0 | regex.UNICODE

#: The most needles a prefilter looks for (a branch of many alternatives is not worth it).
_MOST_NEEDLES = 16

#: A width without bound (more characters than any row has): a :attr:`Prefilter.lead` at least
#: this large says nothing of where a match starts.
UNBOUNDED = 1 << 62

#: The fewest bytes of the shortest needle: one byte is found in most rows.
_SHORTEST = 2

Needles = tuple[str, ...]


class _NoPrefilter(Exception):
    """The pattern holds something whose meaning the parse may not tell right."""


@dataclass(frozen=True, slots=True)
class Prefilter:
    """What every match of a pattern holds: one of ``needles`` (case-folded), starting at most
    ``lead`` characters after the match starts (``lead`` is large where what comes before it
    in the pattern has no bound: ``\\w+ing``)."""

    needles: Needles
    lead: int


def required_literals(pattern: str) -> Needles | None:
    """Case-folded strings of which every match of ``pattern`` (ignoring case or not) holds at
    least one, case-folded; ``None`` when there is no such set worth looking for."""
    found = prefilter(pattern)
    return None if found is None else found.needles


def prefilter(pattern: str) -> Prefilter | None:
    """:func:`required_literals` of ``pattern``, and how far into a match the needle may start
    at most (in characters: the widest the pattern's parts before it may match, each literal
    character one character: the engine's case-insensitive matching of version 0 folds a
    character to one character)."""
    if _re_parser is None:
        return None
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error")  # "possible nested set": `regex` may differ
            parsed = _re_parser.parse(pattern, 0)
        if parsed.state.flags & re.VERBOSE:
            return None
        found = _sequence(parsed)
    except Exception:  # _NoPrefilter, or anything odd: no prefilter
        return None
    if not found or len(found[0]) > _MOST_NEEDLES or _worth(found[0])[0] < _SHORTEST:
        return None
    return Prefilter(*found)


#: Needles, and the most characters a match may span before the one it holds.
Option = tuple[Needles, int]


def _width(items: Any, item: tuple[Any, Any]) -> int:
    """The most characters ``item`` (of the parse ``items``) may match (``re``'s measure; no
    bound where it cannot tell)."""
    try:
        return int(_re_parser.SubPattern(items.state, [item]).getwidth()[1])
    except Exception:
        return UNBOUNDED


def _sequence(items: Any) -> Option | None:
    """The best needles of a sequence of parse items (each item must match, in order), and
    how far into the sequence's match they may start at most."""
    options: list[Option] = []
    run: list[str] = []
    before = 0  # the most characters the items so far may match
    run_at = 0  # ... and those before the run of literal characters

    def cut() -> None:
        if run:
            options.append((("".join(run).casefold(),), run_at))
            run.clear()

    for op, av in items:
        width = _width(items, (op, av))
        if op is LITERAL:
            char = chr(av)
            if char in _AMBIGUOUS:
                raise _NoPrefilter
            if _folds_alike(char):
                if not run:
                    run_at = before
                run.append(char)
            else:
                cut()
            before += width
            continue
        cut()
        inner: Option | None = None
        if op is SUBPATTERN:
            inner = _sequence(av[-1])
        elif op is ATOMIC_GROUP:
            inner = _sequence(av)
        elif op is BRANCH:
            inner = _branches(av[1])
        elif op in (MAX_REPEAT, MIN_REPEAT, POSSESSIVE_REPEAT):
            low, _high, body = av
            # Looked into even when optional: a literal inside must be vetted all the same.
            # A needle of the body lies in its first repeat.
            body_needles = _sequence(body)
            inner = body_needles if low >= 1 else None
        else:
            _vet_literals(av)
        if inner:
            options.append((inner[0], before + inner[1]))
        before += width
    cut()
    return max(options, key=lambda option: _worth(option[0]), default=None)


def _branches(alternatives: list[Any]) -> Option | None:
    """Needles of a choice: one of each alternative's (none if some alternative has none),
    starting as far into the match as the farthest of theirs."""
    found: list[str] = []
    lead = 0
    for alternative in alternatives:
        option = _sequence(alternative)
        if not option:
            # The other alternatives are still parsed for ambiguous literals.
            for other in alternatives:
                _sequence(other)
            return None
        found.extend(option[0])
        lead = max(lead, option[1])
    return tuple(dict.fromkeys(found)), lead


def _vet_literals(av: Any) -> None:
    """Raise :class:`_NoPrefilter` for an ambiguous literal anywhere inside ``av`` (a set, a
    lookaround...): the parse of the whole may then be wrong."""
    stack = [av]
    while stack:
        item = stack.pop()
        if isinstance(item, _re_parser.SubPattern):
            _sequence(item)
        elif isinstance(item, list | tuple):
            stack.extend(item)


def _worth(needles: Needles) -> tuple[int, int]:
    """How selective a set of needles is likely to be: the shortest longest first, then fewer."""
    return min(len(n.encode("utf-8", "surrogatepass")) for n in needles), -len(needles)


@cache
def _folds_alike(char: str) -> bool:
    """Whether every character the engine matches for ``char`` ignoring case case-folds as
    ``char`` does. The engine's own list of a character's case variants is private: without it,
    no character is used (no prefilter, the same rows)."""
    try:
        variants = _regex.get_all_cases(_CASE_FLAGS, ord(char))
    except Exception:
        return False
    folded = char.casefold()
    return all(chr(variant).casefold() == folded for variant in variants)
