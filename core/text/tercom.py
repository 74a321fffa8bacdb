"""TER's tokenizer (sacreBLEU 2.6.0's ``TercomTokenizer``), with the span of every word.

sacreBLEU's TER reads a line as ``tokenizer(line.rstrip()).split()``: lowercase (unless case
sensitive); with ``normalized``, tercom's normalisation (join ``-\\n`` and ``\\n``, unescape four
XML entities, pad the line with a space on each side, set punctuation apart, split a
possessive ``'s``, set ``.`` and ``,`` apart unless between digits and ``-`` after a digit; with
``asian_support`` also every CJK ideograph and CJK punctuation mark); with ``no_punct``, delete
``.,?:;!"()`` (and CJK punctuation with ``asian_support``); then collapse whitespace.

A *reference* goes through that twice: sacreBLEU preprocesses each reference when it caches the
references, and again when it extracts their words. The second pass is not a no-op under
``normalized`` (``'s.`` becomes ``'s .`` in the first pass, whose ``'s `` the second pass then
splits), so :meth:`TercomTokenizer.reference` repeats it as sacreBLEU does.

Every step is a literal rewrite, a deletion, or a regular expression whose replacement only
puts spaces between the groups of its match. :class:`~core.text.textspan.MappedText` follows
the rewrites; the spaces and deletions are followed here, so that each word keeps the span of
the original line it came from (:meth:`TercomTokenizer.tokenize`).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import Final

from matchlight.core.text.textspan import MappedText
from matchlight.core.text.types import Span, Tokens

__all__ = ["TercomTokenizer", "tercom_tokenizer"]

_WORDS_CACHE_SIZE: Final = 2**16


@dataclass(frozen=True, slots=True)
class _Rewrite:
    """``str.replace(old, new)`` (sacreBLEU's ``re.sub`` of a literal pattern)."""

    old: str
    new: str


@dataclass(frozen=True, slots=True)
class _Spaces:
    """``pattern.sub(template, text)`` where ``template`` is the match's groups, in order, with
    spaces between: only spaces are added."""

    pattern: re.Pattern[str]
    template: str


@dataclass(frozen=True, slots=True)
class _Delete:
    """``pattern.sub("", text)``."""

    pattern: re.Pattern[str]


_Step = _Rewrite | _Spaces | _Delete

# The steps are compiled on first use (:func:`_steps`): importing this module compiles nothing.

_ASIAN_PUNCT: Final = r"([\u3001\u3002\u3008-\u3011\u3014-\u301f\uff61-\uff65\u30fb])"
_FULL_WIDTH_PUNCT: Final = r"([\uff0e\uff0c\uff1f\uff1a\uff1b\uff01\uff02\uff08\uff09])"


@cache
def _steps(kind: str) -> tuple[_Step, ...]:
    """The normalisation steps of ``kind``: ``western``, ``asian``, ``punct`` or
    ``asian-punct``, compiled once."""
    if kind == "western":
        # tercom's language-independent and Western normalisation, in sacreBLEU's order.
        return (
            _Rewrite("\n-", ""),
            _Rewrite("\n", " "),
            _Rewrite("&quot;", '"'),
            _Rewrite("&amp;", "&"),
            _Rewrite("&lt;", "<"),
            _Rewrite("&gt;", ">"),
            _Spaces(re.compile(r"^|$"), " "),  # sacreBLEU's f" {sent} "
            # ASCII punctuation except ' , - . (the class also holds the space, which changes
            # nothing).
            _Spaces(re.compile(r"([{-~\[-` -&(-+:-@/])"), r" \1 "),
            # sacreBLEU's "'s " -> " 's " and "'s$" -> " 's": a space before the possessive.
            _Spaces(re.compile(r"(?='s )"), " "),
            _Spaces(re.compile(r"(?='s$)"), " "),
            _Spaces(re.compile(r"([^0-9])([\.,])"), r"\1 \2 "),
            _Spaces(re.compile(r"([\.,])([^0-9])"), r" \1 \2"),
            _Spaces(re.compile(r"([0-9])(-)"), r"\1 \2 "),
        )
    if kind == "asian":
        # tercom's Asian normalisation: CJK ideographs, strokes, radicals, compatibility forms
        # and enclosed letters one by one; runs of kana (only ever at the start of the line,
        # which the Western padding has made a space, so these never apply, as in sacreBLEU);
        # CJK punctuation.
        return (
            _Spaces(re.compile(r"([\u4e00-\u9fff\u3400-\u4dbf])"), r" \1 "),
            _Spaces(re.compile(r"([\u31c0-\u31ef\u2e80-\u2eff])"), r" \1 "),
            _Spaces(re.compile(r"([\u3300-\u33ff\uf900-\ufaff\ufe30-\ufe4f])"), r" \1 "),
            _Spaces(re.compile(r"([\u3200-\u3f22])"), r" \1 "),
            _Spaces(
                re.compile(r"(^|^[\u3040-\u309f])([\u3040-\u309f]+)(?=$|^[\u3040-\u309f])"),
                r"\1 \2 ",
            ),
            _Spaces(
                re.compile(r"(^|^[\u30a0-\u30ff])([\u30a0-\u30ff]+)(?=$|^[\u30a0-\u30ff])"),
                r"\1 \2 ",
            ),
            _Spaces(
                re.compile(r"(^|^[\u31f0-\u31ff])([\u31f0-\u31ff]+)(?=$|^[\u31f0-\u31ff])"),
                r"\1 \2 ",
            ),
            _Spaces(re.compile(_ASIAN_PUNCT), r" \1 "),
            _Spaces(re.compile(_FULL_WIDTH_PUNCT), r" \1 "),
        )
    if kind == "punct":
        return (_Delete(re.compile(r"[\.,\?:;!\"\(\)]")),)
    if kind == "asian-punct":
        return (_Delete(re.compile(_ASIAN_PUNCT)), _Delete(re.compile(_FULL_WIDTH_PUNCT)))
    raise ValueError(f"unknown tercom steps {kind!r}")


@cache
def _template_part() -> re.Pattern[str]:
    return re.compile(r"\\(\d)| ")


def _template_parts(template: str) -> tuple[int | None, ...]:
    """A replacement template as group numbers and spaces (None)."""
    parts: list[int | None] = []
    pos = 0
    for m in _template_part().finditer(template):
        if m.start() != pos:
            raise ValueError(f"template {template!r} holds more than groups and spaces")
        parts.append(int(m.group(1)) if m.group(1) else None)
        pos = m.end()
    if pos != len(template):
        raise ValueError(f"template {template!r} holds more than groups and spaces")
    return tuple(parts)


def _arrays(text: MappedText) -> tuple[list[int], list[int]]:
    if text.starts is None or text.ends is None:
        n = len(text.text)
        return list(range(n)), list(range(1, n + 1))
    return list(text.starts), list(text.ends)


class _Builder:
    """A :class:`MappedText` written piece by piece: copied ranges and added spaces."""

    def __init__(self, source: MappedText) -> None:
        self._text = source.text
        self._starts, self._ends = _arrays(source)
        self.pieces: list[str] = []
        self.starts: list[int] = []
        self.ends: list[int] = []

    def copy(self, a: int, b: int) -> None:
        self.pieces.append(self._text[a:b])
        self.starts += self._starts[a:b]
        self.ends += self._ends[a:b]

    def space(self, at: int) -> None:
        """A space standing before source character ``at`` (an empty original range)."""
        starts, ends = self._starts, self._ends
        where = starts[at] if at < len(starts) else (ends[-1] if ends else 0)
        self.pieces.append(" ")
        self.starts.append(where)
        self.ends.append(where)

    def done(self) -> MappedText:
        return MappedText("".join(self.pieces), self.starts, self.ends)


def _mapped_spaces(text: MappedText, step: _Spaces) -> MappedText:
    parts = _template_parts(step.template)
    out = _Builder(text)
    pos = 0
    for m in step.pattern.finditer(text.text):
        out.copy(pos, m.start())
        cursor = m.start()
        for group in parts:
            if group is None:
                out.space(cursor)
                continue
            a, b = m.span(group)
            if a != cursor and a != -1:
                raise RuntimeError(f"the groups of {step.pattern.pattern!r} do not tile its match")
            if a != -1:
                out.copy(a, b)
                cursor = b
        if cursor != m.end():
            raise RuntimeError(f"the groups of {step.pattern.pattern!r} do not tile its match")
        pos = m.end()
    out.copy(pos, len(text.text))
    return out.done()


def _mapped_delete(text: MappedText, step: _Delete) -> MappedText:
    out = _Builder(text)
    pos = 0
    for m in step.pattern.finditer(text.text):
        out.copy(pos, m.start())
        pos = m.end()
    out.copy(pos, len(text.text))
    return out.done()


def _mapped_words(text: MappedText) -> tuple[list[str], list[Span]]:
    """``text.split()`` with each word's span in ``text``."""
    words: list[str] = []
    spans: list[Span] = []
    s = text.text
    i, n = 0, len(s)
    while i < n:
        if s[i].isspace():
            i += 1
            continue
        j = i + 1
        while j < n and not s[j].isspace():
            j += 1
        words.append(s[i:j])
        spans.append((i, j))
        i = j
    return words, spans


class TercomTokenizer:
    """sacreBLEU 2.6.0's TER preprocessing under one set of options (see the module).

    ``tok(line)`` is the words of a hypothesis, ``tok.reference(line)`` those of a reference
    (preprocessed twice, as sacreBLEU does); :meth:`tokenize` and :meth:`tokenize_reference`
    add each word's span in the original line.
    """

    __slots__ = (
        "_reference_cached",
        "_steps",
        "_words_cached",
        "asian_support",
        "case_sensitive",
        "no_punct",
        "normalized",
    )

    #: sacreBLEU's name of the tokenizer (``tok:`` in the TER signature).
    name: Final = "tercom"

    def __init__(
        self,
        *,
        normalized: bool = False,
        no_punct: bool = False,
        asian_support: bool = False,
        case_sensitive: bool = False,
    ) -> None:
        self.normalized = normalized
        self.no_punct = no_punct
        self.asian_support = asian_support
        self.case_sensitive = case_sensitive
        steps: list[_Step] = []
        if normalized:
            steps += _steps("western")
            if asian_support:
                steps += _steps("asian")
        if no_punct:
            steps += _steps("punct")
            if asian_support:
                steps += _steps("asian-punct")
        self._steps: tuple[_Step, ...] = tuple(steps)
        self._words_cached: Callable[[str], tuple[str, ...]] = lru_cache(_WORDS_CACHE_SIZE)(
            self._words
        )
        self._reference_cached: Callable[[str], tuple[str, ...]] = lru_cache(_WORDS_CACHE_SIZE)(
            self._reference_words
        )

    def __repr__(self) -> str:
        return (
            f"tercom_tokenizer(normalized={self.normalized}, no_punct={self.no_punct}, "
            f"asian_support={self.asian_support}, case_sensitive={self.case_sensitive})"
        )

    def normalize(self, line: str) -> str:
        """sacreBLEU's ``TER._preprocess_segment(line)``: the words joined by single spaces."""
        text = line.rstrip()
        if not text:
            return ""
        if not self.case_sensitive:
            text = text.lower()
        for step in self._steps:
            if isinstance(step, _Rewrite):
                text = text.replace(step.old, step.new)
            elif isinstance(step, _Spaces):
                text = step.pattern.sub(step.template, text)
            else:
                text = step.pattern.sub("", text)
        return " ".join(text.split())

    def _words(self, line: str) -> tuple[str, ...]:
        return tuple(self.normalize(line).split())

    def _reference_words(self, line: str) -> tuple[str, ...]:
        return tuple(self.normalize(self.normalize(line)).split())

    def __call__(self, line: str) -> list[str]:
        """The words of a hypothesis."""
        return list(self._words_cached(line))

    def reference(self, line: str) -> list[str]:
        """The words of a reference (preprocessed twice, as sacreBLEU does)."""
        return list(self._reference_cached(line))

    def _mapped(self, text: MappedText) -> MappedText:
        """One pass of :meth:`normalize` on a mapped text, words joined by single spaces."""
        text = text.rstrip()
        if not text.text:
            return text
        if not self.case_sensitive:
            text = text.lower()
        for step in self._steps:
            if isinstance(step, _Rewrite):
                text = text.replace(step.old, step.new)
            elif isinstance(step, _Spaces):
                text = _mapped_spaces(text, step)
            else:
                text = _mapped_delete(text, step)
        spans = _mapped_words(text)[1]
        out = _Builder(text)
        for k, (a, b) in enumerate(spans):
            if k:
                out.space(a)
            out.copy(a, b)
        return out.done()

    def _tokens(self, line: str, passes: int) -> Tokens:
        text = MappedText(line)
        for _ in range(passes):
            text = self._mapped(text)
        words, spans = _mapped_words(text)
        expected = self.normalize(line) if passes == 1 else self.normalize(self.normalize(line))
        if " ".join(words) != expected:
            raise RuntimeError(
                f"internal tokenizer error: the mapped words of {line!r} differ from TER's"
            )
        return Tokens(tuple(words), tuple(text.span(a, b) for a, b in spans))

    def tokenize(self, line: str) -> Tokens:
        """The words of a hypothesis with their spans in ``line``."""
        return self._tokens(line, 1)

    def tokenize_reference(self, line: str) -> Tokens:
        """The words of a reference with their spans in ``line``."""
        return self._tokens(line, 2)


@cache
def tercom_tokenizer(
    *,
    normalized: bool = False,
    no_punct: bool = False,
    asian_support: bool = False,
    case_sensitive: bool = False,
) -> TercomTokenizer:
    """The :class:`TercomTokenizer` of these options (one instance each, its words memoised)."""
    return TercomTokenizer(
        normalized=bool(normalized),
        no_punct=bool(no_punct),
        asian_support=bool(asian_support),
        case_sensitive=bool(case_sensitive),
    )
