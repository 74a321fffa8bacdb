"""Outputs in another language than the reference, and outputs that copy the source.

Two per-(system, segment) flags:

* ``wrong_language``: the output is identified, with confidence, as another language than the
  one the references are written in. The expectation is the references' language over the
  whole file (:func:`expect_language`), never the row's own reference line alone, which is
  often too short to tell. An output is flagged only when (1) it has at least
  :data:`MIN_LETTERS` letters once URLs, e-mail addresses and @handles are left out (shorter
  lines are never flagged: they cannot be told) and is more than a name (at most
  :data:`NAME_WORDS` capitalised words), (2) the identifier gives the expected language
  (with the languages it confuses it with, :data:`CLOSE_LANGUAGES`) at most
  :data:`MAX_EXPECTED_PROBABILITY`, (3) either fewer than :data:`MIN_SCRIPT_SHARE` of the
  output's letters are in the references' scripts (Latin output for Chinese references) or,
  in the same script, another language has at least :data:`MIN_OTHER_PROBABILITY` and the line
  has :data:`MIN_SAME_SCRIPT_LETTERS` letters, and (4) no reference line of the row is itself
  outside the expected language by (2) (a title or a name the translator kept is no error of
  the output). References in no clear language flag nothing.
* ``copies_source``: the output is the source or nearly so: after NFKC, case folding and
  keeping only letters and digits, their character similarity (:class:`difflib.SequenceMatcher`)
  is at least :data:`COPY_SIMILARITY`. Lines that cannot be anything but copied do not count:
  a source with fewer than :data:`MIN_COPY_LETTERS` letters (numbers such as ``12.``, URLs,
  short names), a source of at most :data:`NAME_WORDS` words all capitalised (a name, a
  title), and a row whose reference is itself at least :data:`REFERENCE_COPY` similar to the
  source (the translator kept it too).

Language identification is py3langid's naive Bayes model, which its wheel carries: nothing is
downloaded at run time (:mod:`core.analysis.languagemodel` loads it, from the user's cache when
it is there, and decides most outputs in bulk; py3langid itself judges the rest). Neural
metrics are known to score untranslated output highly; these flags let such rows be counted
and filtered. :func:`flag_rows` works on any slice of rows, so a streaming caller can flag
chunk by chunk with one :class:`Expectation`.
"""

from __future__ import annotations

import difflib
import itertools
import operator
import re
import unicodedata
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Final, Literal

import numpy as np
import numpy.typing as npt
import regex

from matchlight.core.analysis.languagecache import Cache
from matchlight.core.analysis.languagemodel import (
    identifier,
    loaded_model,
    narrow,
    surely_expected,
)
from matchlight.core.metrics.lcs import lcs_length
from matchlight.core.pacing import pause
from matchlight.core.text.corpus import CorpusText

__all__ = [
    "CLOSE_LANGUAGES",
    "COPY_SIMILARITY",
    "EXPECT_CHARS",
    "EXPECT_LINES",
    "MAX_EXPECTED_PROBABILITY",
    "MIN_COPY_LETTERS",
    "MIN_LETTERS",
    "MIN_OTHER_PROBABILITY",
    "MIN_SAME_SCRIPT_LETTERS",
    "MIN_SCRIPT_SHARE",
    "NAME_WORDS",
    "REFERENCE_COPY",
    "Expectation",
    "Flag",
    "LanguageFlags",
    "RowFlags",
    "expect_language",
    "flag_rows",
    "language_flags",
    "prepare",
]

#: What :meth:`LanguageFlags.rows` looks for: either flag, or both (``either``).
Flag = Literal["wrong_language", "copies_source", "either"]
BoolArray = npt.NDArray[np.bool_]
IntArray = npt.NDArray[np.int64]

#: Fewest letters an output needs before its language is judged at all. A Han, kana or Hangul
#: character counts as two (:data:`DENSE_SCRIPTS`): ten of them say as much as twenty letters.
MIN_LETTERS: Final = 20
#: The identifier's largest probability of the expected language for a flagged output.
MAX_EXPECTED_PROBABILITY: Final = 0.01
#: Share of an output's letters in the references' scripts under which it is in another script.
MIN_SCRIPT_SHARE: Final = 0.5
#: In the references' script, the probability the other language needs ...
MIN_OTHER_PROBABILITY: Final = 0.95
#: ... and the letters the output needs (languages of one script are told apart by words).
MIN_SAME_SCRIPT_LETTERS: Final = 25
#: Character similarity (0-1) from which an output copies the source (real translations of
#: name-heavy lines reach 0.90).
COPY_SIMILARITY: Final = 0.95
#: A pair of lines whose character bigrams overlap less (Dice) is not compared further: a
#: shortcut past difflib's quadratic ratio, far below what any copy overlaps.
MIN_BIGRAM_OVERLAP: Final = 0.5
#: A reference at least this similar to the source keeps it too: copying it is then no error.
REFERENCE_COPY: Final = 0.8
#: Fewest letters (counted as for :data:`MIN_LETTERS`) a source needs before an output can be
#: said to copy it.
MIN_COPY_LETTERS: Final = 15
#: A source of at most this many words, each capitalised, is a name or a title: not copyable.
NAME_WORDS: Final = 5
#: Lines of each reference read to find the expected language (the first ones): a caller that
#: passes at least these gets the same expectation as one that passes the whole file.
EXPECT_LINES: Final = 1000
#: ... and at most this many characters of each.
EXPECT_CHARS: Final = 200_000
#: Letters the references need before their language is taken as known.
MIN_EXPECT_LETTERS: Final = 200
#: The references' language must be at least this probable over the lines read.
MIN_EXPECT_PROBABILITY: Final = 0.9
#: Share of the references' letters from which a script counts as theirs.
SCRIPT_FLOOR: Final = 0.1
#: Scripts whose characters count twice towards a line's letters: each one is a syllable or
#: a word, and the lines are short in characters.
DENSE_SCRIPTS: Final = frozenset({"HAN", "KANA", "HANGUL"})
#: Languages py3langid confuses on single lines; an output identified as one of the expected
#: language's group is not flagged. The groups are conservative: a flag means a plain error.
CLOSE_LANGUAGES: Final[tuple[frozenset[str], ...]] = (
    frozenset({"zh", "wuu", "yue"}),
    frozenset({"en", "pcm"}),
    frozenset({"no", "nn", "da"}),
    frozenset({"sr", "hr", "bs"}),
    frozenset({"cs", "sk"}),
    frozenset({"ms", "id"}),
    frozenset({"es", "gl", "an", "ext"}),
    frozenset({"pt", "gl"}),
    frozenset({"ca", "oc", "an"}),
    frozenset({"ar", "ary", "arz"}),
)

#: URLs, e-mail addresses and @handles: no language of their own.
_NOT_WORDS = regex.compile(r"(?:https?://|www\.)\S+|\S+@\S+\.\S+|@\w+", regex.IGNORECASE)
_NOT_ALNUM = regex.compile(r"[^\p{L}\p{N}]+")
_WORD = regex.compile(r"\p{L}[\p{L}\p{M}'’\-]*")
#: Characters of a line that are identified and counted: plenty to tell a language, and a
#: 100,000-character line costs no more than a sentence.
IDENTIFY_CHARS: Final = 2000
#: Rows flagged per step of :func:`language_flags` (its cancel and progress checks).
_STEP: Final = 512


# -- the identifier ----------------------------------------------------------------------------


def prepare(expectation: Expectation | None = None, *, cache: Cache | None = None) -> None:
    """Load the identifier and its model's arrays now (and the narrow table of
    ``expectation``): a caller that forks workers does it first, so that they share them
    instead of each making its own. With ``cache``, both are read from it when it holds
    them for this model, and stored in it when not."""
    loaded_model(cache)
    if expectation is not None:
        narrow(expectation.accepted, cache)


def _ranked(text: str) -> dict[str, float]:
    """Every language's probability for ``text`` (py3langid's labels, summing to 1)."""
    return dict(identifier().rank(text))


def _group(language: str) -> frozenset[str]:
    group = {language}
    for close in CLOSE_LANGUAGES:
        if language in close:
            group |= close
    return frozenset(group)


# -- scripts and letters ---------------------------------------------------------------------


#: First words of Unicode character names that are not the script's usual name.
_SCRIPT_NAMES: Final = {"CJK": "HAN", "HIRAGANA": "KANA", "KATAKANA": "KANA"}


@lru_cache(maxsize=8192)
def _script(ch: str) -> str:
    """The writing system of letter ``ch``, from its Unicode name (kana is one script)."""
    if ch.isascii():
        return "LATIN"
    word = unicodedata.name(ch, "UNKNOWN").split(" ", 1)[0]
    return _SCRIPT_NAMES.get(word, word)


def _words_only(line: str) -> str:
    """The first :data:`IDENTIFY_CHARS` characters of ``line`` in NFKC, without URLs, e-mail
    addresses and @handles."""
    text = unicodedata.normalize("NFKC", line[:IDENTIFY_CHARS])
    # Every match of _NOT_WORDS holds "://", "www." (any case) or "@": a line without them
    # skips the pattern, whose "\S+@" retries every start of every word.
    if "@" in text or "://" in text or "www." in text.lower():
        return _NOT_WORDS.sub(" ", text)
    return text


def _letters(scripts: dict[str, int]) -> int:
    """A line's letters from its :func:`_scripts` counts, those of dense scripts counted twice."""
    return sum(2 * n if s in DENSE_SCRIPTS else n for s, n in scripts.items())


#: The ASCII letters (what ``str.isalpha`` says of an ASCII character), as bytes to delete.
_ASCII_LETTERS: Final = bytes(b for b in range(128) if chr(b).isalpha())


_NOT_ASCII: Final = re.compile("[^\x00-\x7f]+")


def _scripts(text: str) -> dict[str, int]:
    """Letters of ``text`` per script."""
    if text.isascii():
        n = len(text) - len(text.encode("ascii").translate(None, _ASCII_LETTERS))
        return {"LATIN": n} if n else {}
    # The ASCII letters at once (Latin), then each distinct other character once.
    ascii_only = text.encode("ascii", "ignore")
    latin = len(ascii_only) - len(ascii_only.translate(None, _ASCII_LETTERS))
    counts: dict[str, int] = {"LATIN": latin} if latin else {}
    for ch, n in Counter("".join(_NOT_ASCII.findall(text))).items():
        if ch.isalpha():
            script = _script(ch)
            counts[script] = counts.get(script, 0) + n
    return counts


# -- the expectation ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Expectation:
    """The language the references are written in, as :func:`expect_language` found it.

    ``language`` is a py3langid label (ISO 639, ``zh``, ``ko``, ``en``...), ``probability`` the
    identifier's over the lines read, ``accepted`` the labels taken as that language (its
    :data:`CLOSE_LANGUAGES`), ``scripts`` the writing systems of the references (each at least
    :data:`SCRIPT_FLOOR` of their letters: ``HAN``... as Unicode names them, ``KANA``)."""

    language: str
    probability: float
    accepted: frozenset[str]
    scripts: frozenset[str]


def expect_language(references: Sequence[Sequence[str]]) -> Expectation | None:
    """The references' language, read from the first :data:`EXPECT_LINES` lines of each (at
    most :data:`EXPECT_CHARS` characters of each).

    None when it cannot be told: fewer than :data:`MIN_EXPECT_LETTERS` letters, or no
    language at least :data:`MIN_EXPECT_PROBABILITY` probable (references in several
    languages): then no output is flagged as being in another language.
    """
    parts: list[str] = []
    for lines in references:
        size = 0
        for line in list(lines[:EXPECT_LINES]):
            parts.append(_words_only(line))
            size += len(parts[-1])
            if size >= EXPECT_CHARS:
                break
    sample = "\n".join(parts)
    scripts = _scripts(sample)
    letters = sum(scripts.values())
    if letters < MIN_EXPECT_LETTERS:
        return None
    ranked = _ranked(sample)
    language = max(ranked, key=ranked.__getitem__)
    if ranked[language] < MIN_EXPECT_PROBABILITY or language == "zxx":
        return None
    accepted = _group(language)
    return Expectation(
        language=language,
        probability=min(1.0, sum(ranked.get(label, 0.0) for label in accepted)),
        accepted=accepted,
        scripts=frozenset(s for s, n in scripts.items() if n >= SCRIPT_FLOOR * letters),
    )


# -- flagging rows -----------------------------------------------------------------------------


def _elsewhere(text: str, expectation: Expectation) -> dict[str, float] | None:
    """Every language's probability for ``text`` when the expected one is at most
    :data:`MAX_EXPECTED_PROBABILITY` probable, else None. The identifier's best guess comes
    first: when it is the expected language (most lines), no full ranking is needed."""
    best, _p = identifier().classify(text)
    if best in expectation.accepted:
        return None
    ranked = _ranked(text)
    expected = sum(ranked.get(label, 0.0) for label in expectation.accepted)
    return ranked if expected <= MAX_EXPECTED_PROBABILITY else None


def _in_other_language(line: str, expectation: Expectation) -> bool:
    """The language rule of the module docs, on one output."""
    text = _words_only(line)
    scripts = _scripts(text)
    letters = _letters(scripts)
    if letters < MIN_LETTERS or _is_name(text):
        return False
    return _judged(text, scripts, letters, expectation)


def _other_language(systems: Sequence[Sequence[str]], expectation: Expectation) -> BoolArray:
    """:func:`_in_other_language` of every output, ``(S, n)``; those the identifier surely
    puts in the expected language (:func:`~core.analysis.languagemodel.surely_expected`, all
    at once) are not judged one by one."""
    n = len(systems[0]) if systems else 0
    wrong = np.zeros((len(systems), n), np.bool_)
    judged = [
        (s, k, text, letters)
        for s, out in enumerate(systems)
        for k, text, letters in _to_judge(out)
    ]
    sure = surely_expected([item[2] for item in judged], expectation.accepted)
    for (s, k, text, letters), expected in zip(judged, sure.tolist(), strict=True):
        if not expected:
            wrong[s, k] = _judged(text, _scripts(text), letters, expectation)
    return wrong


#: ASCII bytes ``str.isalpha`` calls letters, and those ``str.split`` splits at.
_LETTER_BYTE: Final = np.array([chr(b).isalpha() if b < 128 else False for b in range(256)])
_SPACE_BYTE: Final = np.array([chr(b).isspace() if b < 128 else False for b in range(256)])


def _to_judge(outputs: Sequence[str]) -> list[tuple[int, str, int]]:
    """``(row, text, letters)`` of each output whose language the rule judges: its
    :func:`_words_only` text has :data:`MIN_LETTERS` letters (:func:`_letters`) and is
    more than a name. Plain ASCII lines (no ``@``, ``://`` or ``www.``, the text is the line)
    are counted all at once in numpy: their letters, and their whitespace-separated words
    that start with a letter (more than :data:`NAME_WORDS`: no name); the others one by one."""
    n = len(outputs)
    joined = "\n".join(outputs)
    if n < 2 or joined.count("\n") != n - 1:
        return _to_judge_one_by_one(outputs, range(n))
    data = np.frombuffer(joined.encode("utf-8", "surrogatepass"), np.uint8)
    breaks = np.flatnonzero(data == 10)
    starts = np.concatenate(([0], breaks + 1))
    stops = np.append(breaks, len(data))

    def per_line(mask: BoolArray) -> IntArray:
        running = np.zeros(len(mask) + 1, np.int64)
        np.cumsum(mask, out=running[1:])
        return running[stops] - running[starts]

    def at(*wanted: int) -> BoolArray:
        """Where the bytes ``wanted`` start (any case for letters: ``www.``)."""
        padded = np.append(data, np.zeros(len(wanted), np.uint8))
        found = np.ones(len(data), np.bool_)
        for i, byte in enumerate(wanted):
            window = padded[i : i + len(data)]
            found &= (window | 0x20 if chr(byte).isalpha() else window) == byte
        return found

    # Bytes of a line that is not plain: one count of where any of them is.
    unusual = (data >= 128) | (data == ord("@"))
    unusual |= at(*b"://")
    unusual |= at(*b"www.")
    plain = (per_line(unusual) == 0) & (stops - starts <= IDENTIFY_CHARS)
    letter = _LETTER_BYTE[data]
    letters = per_line(letter)
    counted = letters.tolist()
    after_space = np.ones(len(data), np.bool_)
    after_space[1:] = _SPACE_BYTE[data[:-1]]
    words = per_line(letter & after_space)
    enough = plain & (letters >= MIN_LETTERS)
    found = [
        (k, outputs[k], counted[k]) for k in np.flatnonzero(enough & (words > NAME_WORDS)).tolist()
    ]
    found += [
        (k, outputs[k], counted[k])
        for k in np.flatnonzero(enough & (words <= NAME_WORDS)).tolist()
        if not _is_name(outputs[k])
    ]
    found += _to_judge_one_by_one(outputs, np.flatnonzero(~plain).tolist())
    found.sort()
    return found


def _to_judge_one_by_one(outputs: Sequence[str], rows: Iterable[int]) -> list[tuple[int, str, int]]:
    """:func:`_to_judge` of ``rows``, line by line."""
    found = []
    for k in rows:
        text = _words_only(outputs[k])
        letters = _letters(_scripts(text))
        if letters >= MIN_LETTERS and not _is_name(text):
            found.append((k, text, letters))
    return found


def _judged(text: str, scripts: dict[str, int], letters: int, expectation: Expectation) -> bool:
    """The identifier's part of the rule, on an output's :func:`_words_only` text with enough
    letters."""
    ranked = _elsewhere(text, expectation)
    if ranked is None:
        return False
    total = sum(scripts.values())
    if sum(n for s, n in scripts.items() if s in expectation.scripts) < MIN_SCRIPT_SHARE * total:
        return True
    if letters < MIN_SAME_SCRIPT_LETTERS:
        return False
    others = {label: p for label, p in ranked.items() if label not in expectation.accepted}
    # The most probable other language, with the languages confused with it (sk with cs).
    top = max(others, key=others.__getitem__)
    return sum(others.get(label, 0.0) for label in _group(top)) >= MIN_OTHER_PROBABILITY


def _reference_elsewhere(line: str, expectation: Expectation) -> bool:
    """Whether a reference line is itself not in the expected language (a kept title...)."""
    text = _words_only(line)
    return bool(_letters(_scripts(text))) and _elsewhere(text, expectation) is not None


def _cased(ch: str) -> bool:
    return ch.lower() != ch.upper()


def _copy_key(line: str) -> str:
    """``line`` as copies are compared: NFKC, case-folded, letters and digits only."""
    return _NOT_ALNUM.sub(" ", unicodedata.normalize("NFKC", line).casefold()).strip()


def _may_match(a: str, b: str, threshold: float) -> bool:
    """Whether the lengths of ``a`` and ``b`` allow a similarity of ``threshold`` (difflib's
    ratio is at most 2·min / (len a + len b)); empty lines match nothing."""
    return bool(a) and bool(b) and 2 * min(len(a), len(b)) >= threshold * (len(a) + len(b))


class _CopyTarget:
    """A source line's key, compared with the lines that may copy it: whether a line is at
    least ``threshold`` alike the key by difflib's ratio, once the bigrams of the two share
    :data:`MIN_BIGRAM_OVERLAP` (their Dice overlap). What is made of the key (its bigram
    counts, difflib's index of it) is made once, and only when a line gets that far.

    Upper bounds of difflib's ratio reject unlike lines cheaply: ``2·C / (len a + len b)``
    for the characters ``C`` the two have in common (as multisets), the same with the
    characters of their longest common subsequence (difflib's matching blocks, without junk,
    are a common subsequence); the answer is always the ratio's. (The first is difflib's
    ``quick_ratio``, so it is not asked again.)
    """

    __slots__ = ("_bigrams", "_chars", "_key", "_matcher")

    def __init__(self, key: str) -> None:
        self._key = key
        self._chars: Counter[str] | None = None
        self._bigrams: Counter[str] | None = None
        self._matcher: difflib.SequenceMatcher[str] | None = None

    def similar(self, line: str, threshold: float) -> bool:
        key = self._key
        if line == key:
            return True
        if not _may_match(line, key, threshold):
            return False
        total = len(line) + len(key)
        if self._chars is None:
            self._chars = Counter(key)
        if 2 * _shared(Counter(line), self._chars) < threshold * total:
            return False
        if self._bigrams is None:
            self._bigrams = _bigrams(key)
        if _dice(_bigrams(line), self._bigrams) < MIN_BIGRAM_OVERLAP:
            return False
        if 2 * lcs_length(line, key) < threshold * total:
            return False
        matcher = self._matcher
        if matcher is None:
            matcher = self._matcher = difflib.SequenceMatcher(None, autojunk=False)
            matcher.set_seq2(key)  # difflib indexes the second sequence once
        matcher.set_seq1(line)
        return matcher.ratio() >= threshold


def _bigrams(text: str) -> Counter[str]:
    return Counter(map(operator.add, text, text[1:]))


def _dice(first: Counter[str], second: Counter[str]) -> float:
    """The Dice overlap of two multisets (1 when both are empty)."""
    total = first.total() + second.total()
    return 2 * _shared(first, second) / total if total else 1.0


def _shared(first: Counter[str], second: Counter[str]) -> int:
    """How many items two multisets have in common (``(first & second).total()``, at C speed)."""
    common = first.keys() & second.keys()
    return sum(map(min, map(first.__getitem__, common), map(second.__getitem__, common)))


def _many_words(text: str) -> bool:
    """A quick sure sign of more than :data:`NAME_WORDS` words (most lines): that many
    whitespace-separated tokens starting with a letter (each holds a word of its own, as
    whitespace ends a word); False says nothing."""
    count = 0
    for token in text.split():
        if token[0].isalpha():
            count += 1
            if count > NAME_WORDS:
                return True
    return False


def _is_name(text: str) -> bool:
    """Whether ``text`` is at most :data:`NAME_WORDS` words, each capitalised: a name or a
    title, which stays as it is in many languages (a script without capitals never is)."""
    if _many_words(text):
        return False
    words = [m.group() for m in itertools.islice(_WORD.finditer(text), NAME_WORDS + 1)]
    if len(words) > NAME_WORDS:
        return False
    # Every ASCII letter has a case: only other text is looked at letter by letter.
    if not text.isascii() and any(ch.isalpha() and not _cased(ch) for ch in text):
        return False
    return all(w[0].isupper() for w in words if _cased(w[0]))


def _copyable(source: str) -> bool:
    """Whether an output equal to ``source`` says the source was copied: enough letters once
    URLs and numbers are left out, and more than a name."""
    text = _words_only(source)
    return _letters(_scripts(text)) >= MIN_COPY_LETTERS and not _is_name(text)


@dataclass(frozen=True, slots=True)
class RowFlags:
    """The flags of a slice of rows: ``(S, m)`` for the slice's ``m`` rows."""

    wrong_language: BoolArray
    copies_source: BoolArray


def flag_rows(
    expectation: Expectation | None,
    *,
    references: Sequence[Sequence[str]],
    systems: Sequence[Sequence[str]],
    source: Sequence[str] | None,
) -> RowFlags:
    """Both flags for the rows given (every column holds the same rows; any slice of a
    comparison). ``expectation`` None: no output is flagged as another language; ``source``
    None: none as a copy."""
    n = len(references[0]) if references else 0
    wrong = np.zeros((len(systems), n), np.bool_)
    copies = np.zeros((len(systems), n), np.bool_)
    if expectation is not None:
        wrong[:] = _other_language(systems, expectation)
        for i in np.flatnonzero(wrong.any(axis=0)).tolist():
            if any(_reference_elsewhere(r[i], expectation) for r in references):
                wrong[:, i] = False
    if source is None:
        return RowFlags(wrong, copies)
    for i in range(n):
        key = _copy_key(source[i])
        keys = [_copy_key(outputs[i]) for outputs in systems]
        if not any(_may_match(k, key, COPY_SIMILARITY) for k in keys) or not _copyable(source[i]):
            continue
        target = _CopyTarget(key)
        # The outputs first: most rows have none alike the source, and then their references
        # need no look.
        alike = [target.similar(k, COPY_SIMILARITY) for k in keys]
        if any(alike) and not any(
            target.similar(_copy_key(r[i]), REFERENCE_COPY) for r in references
        ):
            copies[:, i] = alike
    return RowFlags(wrong, copies)


# -- a whole comparison --------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class LanguageFlags:
    """Both flags for every (system, segment) of a comparison, ``(S, n)``."""

    systems: tuple[str, ...]
    expectation: Expectation | None
    has_source: bool
    wrong_language: BoolArray
    copies_source: BoolArray

    @property
    def n_segments(self) -> int:
        return int(self.wrong_language.shape[1])

    def counts(self, rows: npt.ArrayLike | None = None) -> list[tuple[int, int]]:
        """Per system, (rows in another language, rows copying the source) among ``rows``
        (None: all)."""
        wrong, copies = self.wrong_language, self.copies_source
        if rows is not None:
            index = np.asarray(rows, dtype=np.int64)
            wrong, copies = wrong[:, index], copies[:, index]
        return [(int(w), int(c)) for w, c in zip(wrong.sum(axis=1), copies.sum(axis=1))]

    def rows(self, flag: Flag) -> IntArray:
        """The segments where some system's output has ``flag`` (``wrong_language``,
        ``copies_source``, or ``either``)."""
        if flag == "wrong_language":
            mask = self.wrong_language.any(axis=0)
        elif flag == "copies_source":
            mask = self.copies_source.any(axis=0)
        elif flag == "either":
            mask = (self.wrong_language | self.copies_source).any(axis=0)
        else:
            raise ValueError(
                f"unknown flag {flag!r}; expected wrong_language, copies_source or either"
            )
        return np.flatnonzero(mask).astype(np.int64)


def language_flags(
    text: CorpusText,
    source: Sequence[str] | None,
    *,
    cancelled: Callable[[], bool] | None = None,
    progress: Callable[[float], None] | None = None,
) -> LanguageFlags | None:
    """:func:`flag_rows` over a whole comparison, in steps; None when ``cancelled()`` said
    stop between two steps. ``progress(fraction)`` is told how far it got."""
    if source is not None and len(source) != len(text):
        raise ValueError(f"the source has {len(source)} lines but the texts have {len(text)}")
    expectation = expect_language(text.references)
    n = len(text)
    wrong = np.zeros((len(text.systems), n), np.bool_)
    copies = np.zeros((len(text.systems), n), np.bool_)
    for start in range(0, n, _STEP):
        if cancelled is not None and cancelled():
            return None
        pause()  # an application's interactive thread first (core.pacing)
        stop = min(start + _STEP, n)
        part = flag_rows(
            expectation,
            references=[r[start:stop] for r in text.references],
            systems=[s[start:stop] for s in text.systems],
            source=None if source is None else source[start:stop],
        )
        wrong[:, start:stop] = part.wrong_language
        copies[:, start:stop] = part.copies_source
        if progress is not None:
            progress(stop / n)
    return LanguageFlags(text.system_names, expectation, source is not None, wrong, copies)
