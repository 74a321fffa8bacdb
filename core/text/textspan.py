"""Rewritten text that remembers where every character came from.

Tokenizers lowercase, unescape and delete parts of a line before they split it, but the GUI must
highlight the line as the user wrote it. :class:`MappedText` carries a rewritten string together
with, for each of its characters, the half-open range of the *original* line that produced it.
Every operation keeps those ranges non-decreasing, so a run of rewritten characters always maps
back to one contiguous original range.

Also here: :func:`split_lines` and :func:`sentence_spans`, the two ways Matchlight cuts text.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from matchlight.core.text.types import Span

__all__ = ["MappedText", "sentence_spans", "split_lines", "word_spans"]


@dataclass(frozen=True, slots=True)
class MappedText:
    """A string plus the original character range of each of its characters.

    ``starts[i]``/``ends[i]`` give the half-open range ``[start, end)`` of the original line that
    became ``text[i]``. Both are ``None`` while the mapping is the identity (``text[i]`` came from
    original position ``i``), which keeps the common no-rewrite case free of per-character work.
    Several rewritten characters may share one original range (``"İ".lower()`` is two characters)
    and one rewritten character may stand for several original ones (``&quot;`` becomes ``"``).
    """

    text: str
    starts: list[int] | None = None
    ends: list[int] | None = None

    @property
    def is_identity(self) -> bool:
        """True while ``text[i]`` still comes from original position ``i``."""
        return self.starts is None

    def _arrays(self) -> tuple[list[int], list[int]]:
        if self.starts is None or self.ends is None:
            n = len(self.text)
            return list(range(n)), list(range(1, n + 1))
        return self.starts, self.ends

    def lower(self) -> MappedText:
        """``str.lower()`` of the text, with offsets that survive length changes.

        ``"İ".lower()`` is two characters and Greek capital sigma lowers to ``ς`` or ``σ``
        depending on its neighbours, so the characters are taken from the whole-string
        ``text.lower()`` while each original character's share is measured with ``c.lower()``.
        """
        text = self.text
        low = text.lower()
        if len(low) == len(text):
            return MappedText(low, self.starts, self.ends)
        starts, ends = self._arrays()
        widths = [len(c.lower()) for c in text]
        new_starts: list[int] = []
        new_ends: list[int] = []
        if sum(widths) == len(low):
            for i, width in enumerate(widths):
                new_starts.extend([starts[i]] * width)
                new_ends.extend([ends[i]] * width)
        else:  # pragma: no cover - no such character in current Unicode; stay monotone anyway
            n, m = len(text), len(low)
            for j in range(m):
                i = min(n - 1, j * n // m)
                new_starts.append(starts[i])
                new_ends.append(ends[i])
        return MappedText(low, new_starts, new_ends)

    def rstrip(self) -> MappedText:
        """Drop trailing whitespace (``str.rstrip()``)."""
        text = self.text.rstrip()
        if len(text) == len(self.text):
            return self
        if self.starts is None or self.ends is None:
            return MappedText(text)
        return MappedText(text, self.starts[: len(text)], self.ends[: len(text)])

    def replace(self, old: str, new: str) -> MappedText:
        """``str.replace(old, new)`` (left to right, non-overlapping), tracking offsets.

        Every character of ``new`` maps to the whole original range of the replaced ``old``.
        """
        if not old:
            raise ValueError("MappedText.replace needs a non-empty string to replace")
        text = self.text
        find = text.find
        hit = find(old)
        if hit < 0:
            return self
        if len(old) == 1 and len(new) == 1:  # one for one: every offset stays where it is
            return MappedText(text.replace(old, new), self.starts, self.ends)
        starts, ends = self._arrays()
        width = len(old)
        pieces: list[str] = []
        new_starts: list[int] = []
        new_ends: list[int] = []
        pos = 0
        while hit >= 0:
            pieces.append(text[pos:hit])
            new_starts.extend(starts[pos:hit])
            new_ends.extend(ends[pos:hit])
            if new:
                pieces.append(new)
                new_starts.extend([starts[hit]] * len(new))
                new_ends.extend([ends[hit + width - 1]] * len(new))
            pos = hit + width
            hit = find(old, pos)
        pieces.append(text[pos:])
        new_starts.extend(starts[pos:])
        new_ends.extend(ends[pos:])
        return MappedText("".join(pieces), new_starts, new_ends)

    def span(self, start: int, end: int) -> Span:
        """Original range of the non-empty rewritten range ``text[start:end]``."""
        if self.starts is None or self.ends is None:
            return (start, end)
        return (self.starts[start], self.ends[end - 1])

    def locate(self, words: Iterable[str]) -> tuple[Span, ...]:
        """Original spans of ``words``, which must be the text re-segmented at whitespace.

        ``words`` are the non-whitespace characters of :attr:`text`, in order, cut into pieces
        (tokenizers that only insert spaces and then ``str.split()`` produce exactly that); see
        :func:`word_spans`.
        """
        spans = word_spans(self.text, words)
        starts, ends = self.starts, self.ends
        if starts is None or ends is None:
            return tuple(spans)
        return tuple([(starts[start], ends[end - 1]) for start, end in spans])


def word_spans(text: str, words: Iterable[str]) -> list[Span]:
    """The spans of ``words`` in ``text``, which they must cut at whitespace and nowhere else.

    ``words`` must be the non-whitespace characters of ``text``, in order, cut into non-empty
    pieces (tokenizers that only insert spaces and then ``str.split()`` produce exactly that).
    Each word then starts at the first non-whitespace character after the previous one, which
    is also the first place ``str.find`` can see it (no word contains whitespace).

    Raises :class:`RuntimeError` when ``words`` are not such pieces. Checked as a whole: every
    word must be found and together they must hold all the non-whitespace characters (then the
    gaps between them are whitespace). A word spanning whitespace would be found, if at all,
    further on, and the words after it would then no longer fit in what is left of the text.
    """
    words = words if isinstance(words, list | tuple) else list(words)
    find = text.find
    spans: list[Span] = []
    append = spans.append
    pos = 0
    for word in words:
        hit = find(word, pos)
        if hit < 0 or not word:
            raise RuntimeError(
                f"internal tokenizer error: token {word!r} is not the next piece of "
                f"{text!r} after position {pos}"
            )
        pos = hit + len(word)
        append((hit, pos))
    # Cheap and sufficient when spaces are the only whitespace; otherwise compare characters.
    covered = sum(map(len, words))
    if covered + text.count(" ") != len(text) and "".join(words) != "".join(text.split()):
        raise RuntimeError(
            f"internal tokenizer error: tokens {list(words)!r} are not the non-whitespace "
            f"pieces of {text!r}"
        )
    return spans


def split_lines(text: str) -> list[str]:
    """Split a text into lines the way Matchlight's files are read.

    A line ends at ``"\\n"``, optionally preceded by one ``"\\r"`` that is dropped with it, and
    nowhere else: U+2028, U+0085, ``\\f``, ``\\v`` and a lone ``\\r`` stay inside the line (unlike
    :meth:`str.splitlines`). A final newline does not start an extra empty line; ``""`` has no
    lines, ``"\\n"`` has one empty line.
    """
    if not text:
        return []
    if "\r\n" in text:
        text = text.replace("\r\n", "\n")
    lines = text.split("\n")
    if not lines[-1]:
        lines.pop()  # after a final newline
    return lines


def sentence_spans(line: str, separator: str | None) -> list[Span]:
    """Sentence ranges of ``line`` for ROUGE-Lsum, cut at ``separator``.

    Returns the spans of the pieces between separators (the separators themselves excluded).
    Empty pieces are dropped, as rouge-score drops empty sentences. With ``separator`` ``None``,
    or absent from the line, the whole line is one sentence: ``[(0, len(line))]``, even when the
    line is empty.
    """
    if separator is None:
        return [(0, len(line))]
    if not separator:
        raise ValueError("sentence separator must be a non-empty string or None")
    if separator not in line:
        return [(0, len(line))]
    spans: list[Span] = []
    width = len(separator)
    start = 0
    find = line.find
    hit = find(separator)
    while hit >= 0:
        if hit > start:
            spans.append((start, hit))
        start = hit + width
        hit = find(separator, start)
    if len(line) > start:
        spans.append((start, len(line)))
    return spans
