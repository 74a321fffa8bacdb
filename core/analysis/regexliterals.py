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
above): no match starts earlier. And it says whether a digit follows each needle in every match
(``\\d`` or ``[0-9]`` right after it, as in the pattern above: :attr:`Prefilter.digit_after`):
the column's index keeps which rows hold which pairs of digits, so a needle ending in a digit
is then looked for only in the rows where that digit is followed by another one (or by a
character that is no ASCII: ``\\d`` matches other digits too).
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
        CATEGORY,
        CATEGORY_DIGIT,
        IN,
        LITERAL,
        MAX_REPEAT,
        MIN_REPEAT,
        POSSESSIVE_REPEAT,
        RANGE,
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
    in the pattern has no bound: ``\\w+ing``), and, where ``digit_after``, followed right away
    by a character ``\\d`` matches."""

    needles: Needles
    lead: int
    digit_after: bool = False


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
    if not found or len(found.needles) > _MOST_NEEDLES or _worth(found.needles)[0] < _SHORTEST:
        return None
    return Prefilter(found.needles, found.lead, found.digit_after)


@dataclass(slots=True)
class Option:
    """Needles a sequence's match holds, the most characters it may span before the one it
    holds, whether a digit follows each needle (``digit_after``), and whether each needle ends
    the sequence's match (``at_end``: then what follows the sequence follows the needle)."""

    needles: Needles
    lead: int
    digit_after: bool = False
    at_end: bool = False


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
    ending: list[Option] = []  # the options whose needles end where the items so far end

    def cut() -> None:
        if run:
            options.append(Option(("".join(run).casefold(),), run_at, at_end=True))
            ending.append(options[-1])
            run.clear()

    for op, av in items:
        width = _width(items, (op, av))
        if op is not LITERAL or not run:
            cut()
            if _starts_with_digit(op, av):
                for option in ending:
                    option.digit_after = True
            ending.clear()
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
                ending.clear()
            before += width
            continue
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
            # A needle of the body lies in its first repeat (and what follows it there, which
            # the body's own items say).
            body_needles = _sequence(body)
            inner = body_needles if low >= 1 else None
        else:
            _vet_literals(av)
        if inner:
            at_end = inner.at_end and op in (SUBPATTERN, BRANCH)
            options.append(Option(inner.needles, before + inner.lead, inner.digit_after, at_end))
            if at_end:
                ending.append(options[-1])
        before += width
    cut()
    best = max(options, key=lambda option: _worth(option.needles), default=None)
    if best is not None:
        best.at_end = any(option is best for option in ending)
    return best


def _branches(alternatives: list[Any]) -> Option | None:
    """Needles of a choice: one of each alternative's (none if some alternative has none),
    starting as far into the match as the farthest of theirs; a digit follows each where one
    follows each alternative's, and they end the choice's match where each ends its own."""
    found: list[str] = []
    lead = 0
    digit_after = at_end = True
    for alternative in alternatives:
        option = _sequence(alternative)
        if not option:
            # The other alternatives are still parsed for ambiguous literals.
            for other in alternatives:
                _sequence(other)
            return None
        found.extend(option.needles)
        lead = max(lead, option.lead)
        digit_after &= option.digit_after
        at_end &= option.at_end
    return Option(tuple(dict.fromkeys(found)), lead, digit_after, at_end)


def _starts_with_digit(op: Any, av: Any) -> bool:
    """Whether every match of the parse item ``(op, av)`` starts with a character ``\\d``
    matches (``\\d``, a set of ASCII digits and ``\\d``, or a repeat of one at least once)."""
    if op in (MAX_REPEAT, MIN_REPEAT, POSSESSIVE_REPEAT):
        low, _high, body = av
        return bool(low >= 1 and len(body) == 1 and _starts_with_digit(*body[0]))
    if op is not IN or not av:
        return False
    for kind, value in av:
        if kind is CATEGORY and value is CATEGORY_DIGIT:
            continue
        if kind is LITERAL and chr(value).isascii() and chr(value).isdigit():
            continue
        if kind is RANGE and ord("0") <= value[0] <= value[1] <= ord("9"):
            continue
        return False  # NEGATE, another class, any other character
    return True


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
