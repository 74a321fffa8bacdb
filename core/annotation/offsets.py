"""UTF-16 <-> code-point offsets, and where a selection's edges belong in a line.

Spans are stored in code points (Python string indices). Qt (``QTextCursor.position()``) and
JavaScript tools such as Appraise count UTF-16 code units, where a character outside the Basic
Multilingual Plane (an emoji, a rare CJK ideograph like U+20000) takes two units.
:class:`Utf16Index` converts both ways for one line in O(log n) per call.
"""

from __future__ import annotations

import unicodedata
from bisect import bisect_left

__all__ = [
    "Utf16Index",
    "codepoint_to_utf16",
    "snap_point",
    "trim_spaces",
    "utf16_length",
    "utf16_to_codepoint",
]


def _astral_positions(text: str) -> list[int]:
    return [i for i, ch in enumerate(text) if ord(ch) > 0xFFFF]


def utf16_length(text: str) -> int:
    """How many UTF-16 code units ``text`` takes."""
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
