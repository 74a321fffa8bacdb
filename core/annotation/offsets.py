"""UTF-16 <-> code-point offsets, and where a selection's edges belong in a line.

Spans are stored in code points (Python string indices). Qt (``QTextCursor.position()``) and
JavaScript tools such as Appraise count UTF-16 code units, where a character outside the Basic
Multilingual Plane (an emoji, a rare CJK ideograph like U+20000) takes two units.
:class:`Utf16Index` converts both ways for one line in O(log n) per call.

Where a click or a drag lands is decided here too, by the units a translator points at
(:func:`word_at`): a word is letters and digits with their combining marks, held together by an
apostrophe or a hyphen between two letters (``don't``, ``l'homme``, ``Corona-Pandemie``) and a
point or comma between two digits (``1,000.5``); punctuation next to a word is not part of it,
and a punctuation mark clicked on is a unit of its own (a run of the same mark, ``...``, is one
unit). In scripts written without spaces (Chinese, Japanese, Thai, ...) every character is a
unit. Emoji joined by a zero-width joiner stay one unit.
"""

from __future__ import annotations

import unicodedata
from bisect import bisect_left

__all__ = [
    "Utf16Index",
    "codepoint_to_utf16",
    "snap_point",
    "snap_range",
    "trim_spaces",
    "utf16_length",
    "utf16_to_codepoint",
    "word_at",
    "word_edge",
    "words_between",
]


def _bmp_only(text: str) -> bool:
    """Whether ``text`` has no character outside the BMP (nearly every line): a C-speed test,
    so that the per-character scans below run only when one may be there."""
    return text.isascii() or len(text.encode("utf-16-le", "surrogatepass")) == 2 * len(text)


def _astral_positions(text: str) -> list[int]:
    if _bmp_only(text):
        return []
    return [i for i, ch in enumerate(text) if ord(ch) > 0xFFFF]


def utf16_length(text: str) -> int:
    """How many UTF-16 code units ``text`` takes."""
    if _bmp_only(text):
        return len(text)
    return len(text) + sum(1 for ch in text if ord(ch) > 0xFFFF)


class Utf16Index:
    """Offset conversion for one string; build once per line, convert many times."""

    __slots__ = ("_astral", "_units_before", "text")

    def __init__(self, text: str) -> None:
        self.text = text
        self._astral = _astral_positions(text)
        # UTF-16 position of each astral character: its code-point index plus the astral
        # characters before it.
        self._units_before = [cp + k for k, cp in enumerate(self._astral)]

    def to_utf16(self, pos: int) -> int:
        """The UTF-16 offset of code-point offset ``pos`` (0 <= pos <= len(text))."""
        if not 0 <= pos <= len(self.text):
            raise ValueError(
                f"code-point offset {pos} is outside a {len(self.text)}-character text"
            )
        return pos + bisect_left(self._astral, pos)

    def to_codepoint(self, pos16: int) -> int:
        """The code-point offset of UTF-16 offset ``pos16``.

        Raises ValueError for an offset outside the text or between the two halves of a
        surrogate pair (no character boundary is there).
        """
        total = len(self.text) + len(self._astral)
        if not 0 <= pos16 <= total:
            raise ValueError(f"UTF-16 offset {pos16} is outside a text of {total} code units")
        k = bisect_left(self._units_before, pos16)
        # k astral characters start strictly before pos16; if the last of them starts exactly
        # one unit before pos16, the offset points into its surrogate pair.
        if k > 0 and self._units_before[k - 1] + 1 == pos16:
            raise ValueError(f"UTF-16 offset {pos16} falls inside a surrogate pair")
        return pos16 - k


def codepoint_to_utf16(text: str, pos: int) -> int:
    """The UTF-16 offset of code-point offset ``pos`` in ``text`` (one-off conversion)."""
    return Utf16Index(text).to_utf16(pos)


def utf16_to_codepoint(text: str, pos16: int) -> int:
    """The code-point offset of UTF-16 offset ``pos16`` in ``text`` (one-off conversion)."""
    return Utf16Index(text).to_codepoint(pos16)


def _is_word(ch: str) -> bool:
    return ch.isalnum() or unicodedata.category(ch) == "Mn"


def snap_point(line: str, point: int) -> int:
    """An omission point moved out of the middle of a word to the nearer word edge (in a
    space-separated line; elsewhere every position is between two tokens)."""
    if " " not in line or not 0 < point < len(line):
        return point
    if not (_is_word(line[point - 1]) and _is_word(line[point])):
        return point
    left = point
    while left > 0 and _is_word(line[left - 1]):
        left -= 1
    right = point
    while right < len(line) and _is_word(line[right]):
        right += 1
    return left if point - left <= right - point else right


def trim_spaces(line: str, start: int, end: int) -> tuple[int, int]:
    """``start:end`` of ``line`` without the white space at either end."""
    while start < end and line[start].isspace():
        start += 1
    while end > start and line[end - 1].isspace():
        end -= 1
    return start, end


# -- the units a click selects ------------------------------------------------------------------

#: Between two letters these keep a word whole: apostrophes and hyphens (and the middle dot of
#: Catalan ``l·l``, the underscore of ``snake_case``, the zero-width (non-)joiners of Indic
#: scripts).
_LETTER_JOINERS = frozenset("'\u2019\u02bc-\u2010\u2011\u00b7_\u200c\u200d")
#: Between two digits these keep a number whole (``1,000.50``, ``3'000``).
_DIGIT_JOINERS = frozenset(".,'\u2019\u202f\u00a0")
_ZWJ = "\u200d"
#: Zero-width separators that split words as a space does (Anthea marks word breaks with U+200B).
_INVISIBLE_SPACES = frozenset("\u200b\u2060\ufeff")
#: Scripts written without spaces between words: each character is a unit of its own.
_NO_SPACE_RANGES = (
    (0x0E00, 0x0EFF),  # Thai, Lao
    (0x1000, 0x109F),  # Myanmar
    (0x1780, 0x17FF),  # Khmer
    (0x3040, 0x30FF),  # Hiragana, Katakana
    (0x31F0, 0x31FF),  # Katakana extensions
    (0x3400, 0x4DBF),  # CJK extension A
    (0x4E00, 0x9FFF),  # CJK unified ideographs
    (0xF900, 0xFAFF),  # CJK compatibility ideographs
    (0xFF66, 0xFF9F),  # half-width Katakana
    (0x20000, 0x3FFFF),  # CJK extensions B and later
)


def _is_space(ch: str) -> bool:
    return ch.isspace() or ch in _INVISIBLE_SPACES


def _is_mark(ch: str) -> bool:
    """A character that belongs to the one before it (combining marks, emoji modifiers)."""
    category = unicodedata.category(ch)
    return category[0] == "M" or (category == "Sk" and 0x1F3FB <= ord(ch) <= 0x1F3FF)


def _no_space_script(ch: str) -> bool:
    code = ord(ch)
    return any(low <= code <= high for low, high in _NO_SPACE_RANGES)


def _is_letter_or_digit(ch: str) -> bool:
    category = unicodedata.category(ch)
    return category[0] in "LN" and not _no_space_script(ch)


def _is_symbol(ch: str) -> bool:
    """An emoji or another symbol (what a zero-width joiner joins outside words)."""
    return unicodedata.category(ch)[0] == "S"


def _base(line: str, i: int) -> int:
    """The index of the character ``line[i]`` belongs to (a mark belongs to the one before)."""
    while i > 0 and _is_mark(line[i]) and not _is_space(line[i - 1]):
        i -= 1
    return i


def _after_marks(line: str, i: int) -> int:
    """The index after the character at ``i`` and its marks."""
    i += 1
    while i < len(line) and _is_mark(line[i]):
        i += 1
    return i


def _joined(line: str, j: int) -> bool:
    """Whether the joiner at ``j`` holds the characters on its two sides in one word."""
    if not 0 < j < len(line) - 1:
        return False
    before, after = line[_base(line, j - 1)], line[j + 1]
    ch = line[j]
    if ch in _DIGIT_JOINERS and before.isdigit() and after.isdigit():
        return True
    return ch in _LETTER_JOINERS and _is_letter_or_digit(before) and _is_letter_or_digit(after)


def word_at(line: str, index: int) -> tuple[int, int]:
    """The unit of ``line`` a click on character ``index`` selects, as ``(start, end)``.

    White space gives the empty range ``(index, index)``: nothing to select there (a click
    between words places the cursor). ``index`` past the end gives ``(len, len)``.
    """
    if not 0 <= index < len(line):
        at = max(0, min(index, len(line)))
        return at, at
    if _is_space(line[index]):
        return index, index
    i = _base(line, index)
    if (
        line[i] == _ZWJ
        and 0 < i < len(line) - 1
        and _is_symbol(line[_base(line, i - 1)])
        and _is_symbol(line[i + 1])
    ):
        i = _base(line, i - 1)  # the joiner between two emoji belongs to the sequence
    ch = line[i]
    if _is_letter_or_digit(ch) or (ch in _LETTER_JOINERS | _DIGIT_JOINERS and _joined(line, i)):
        start = i
        while start > 0:
            prev = _base(line, start - 1)
            if _is_letter_or_digit(line[prev]) or _joined(line, prev):
                start = prev
            else:
                break
        end = i
        while end < len(line):
            if _is_letter_or_digit(line[end]) or _joined(line, end):
                end = _after_marks(line, end)
            else:
                break
        return start, end
    if _no_space_script(ch):
        return i, _after_marks(line, i)
    # Punctuation or a symbol: a run of the same character, emoji held by zero-width joiners.
    start, end = i, _after_marks(line, i)
    if unicodedata.category(ch).startswith("P"):
        while start > 0 and line[_base(line, start - 1)] == ch:
            start = _base(line, start - 1)
        while end < len(line) and line[end] == ch:
            end = _after_marks(line, end)
        return start, end
    if not _is_symbol(ch):
        return start, end  # a control or format character alone
    while end < len(line) - 1 and line[end] == _ZWJ and _is_symbol(line[end + 1]):
        end = _after_marks(line, end + 1)
    while start > 1 and line[start - 1] == _ZWJ and _is_symbol(line[_base(line, start - 2)]):
        start = _base(line, start - 2)
    return start, end


def words_between(line: str, first: int, last: int) -> tuple[int, int]:
    """From the unit of character ``first`` to the unit of character ``last`` (in either
    order): what clicking the first word and then the last word of an error selects."""
    a, b = word_at(line, first), word_at(line, last)
    return min(a[0], b[0]), max(a[1], b[1])


def snap_range(line: str, start: int, end: int) -> tuple[int, int]:
    """A dragged selection ``start:end`` widened to the whole units its edges cut through,
    without white space at either end. Punctuation the drag took in stays in; a unit it only
    touches does not join."""
    if start >= end:
        return start, end
    first = word_at(line, start)
    if first[0] < start < first[1]:
        start = first[0]
    last = word_at(line, end - 1)
    if last[0] < end < last[1]:
        end = last[1]
    return trim_spaces(line, start, end)


def word_edge(line: str, position: int, step: int) -> int:
    """Where Ctrl+Right (``step`` > 0) or Ctrl+Left (``step`` < 0) moves the cursor from
    ``position``: to the end of the next unit, or to the start of the previous one."""
    n = len(line)
    position = max(0, min(position, n))
    if step > 0:
        while position < n and _is_space(line[position]):
            position += 1
        return word_at(line, position)[1] if position < n else n
    while position > 0 and _is_space(line[position - 1]):
        position -= 1
    return word_at(line, position - 1)[0] if position > 0 else 0
