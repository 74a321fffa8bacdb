"""Small shared value types used across the engine."""

from __future__ import annotations

from dataclasses import dataclass

#: A half-open character range ``[start, end)`` into the original line.
Span = tuple[int, int]


@dataclass(frozen=True, slots=True)
class Tokens:
    """Tokens of one line together with where each came from in the original text.

    ``spans[i]`` is the half-open range of characters in the *original* line (before
    lowercasing, entity unescaping or any other rewrite) that produced ``words[i]``.
    """

    words: tuple[str, ...]
    spans: tuple[Span, ...]

    def __len__(self) -> int:
        return len(self.words)
