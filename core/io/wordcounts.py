"""Word frequencies from a training corpus, for compare-mt's word accuracy by frequency
(:func:`core.analysis.buckets.word_accuracy_by_frequency`).

Two forms, as compare-mt takes them: a count file, one ``word<TAB>count`` per line
(``--freq_count_file``; compare-mt's example ships ``ted.train.counts``), read by
:func:`read_word_counts`; or the training text itself (``--freq_corpus_file``), whose words
:func:`count_corpus_words` counts with the tokenizer the comparison's words come from, so that
both sides split words alike. Files are read through :mod:`core.io.files` (regular files only,
size-capped, cancellable); a bad line is refused with its file and line, where compare-mt skips
it or stops with a traceback.
"""

from __future__ import annotations

import os
import threading
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Final

from matchlight.core.io.files import MAX_INPUT_BYTES, FileError, iter_lines

__all__ = ["MAX_COUNT_FILE_BYTES", "count_corpus_words", "read_word_counts"]

#: The largest count file read (256 MiB: tens of millions of word types).
MAX_COUNT_FILE_BYTES: Final[int] = 256 * 1024 * 1024
#: The longest line of a count file (a word and its count).
_COUNT_LINE_CAP: Final[int] = 64 * 1024
#: The longest line of a training text.
_TEXT_LINE_CAP: Final[int] = 16 * 1024 * 1024


def read_word_counts(
    path: str | os.PathLike[str], *, cancel: threading.Event | None = None
) -> dict[str, int]:
    """``word -> count`` from a ``word<TAB>count`` file, as compare-mt reads one: whitespace at
    both ends of a line dropped, then split at tabs. Blank lines are skipped; a line without
    exactly two fields, a count that is not a whole number of 0 or more, and a word listed
    twice are refused (:class:`~core.io.files.FileError` naming the file and the line)."""
    name = os.fspath(path)
    counts: dict[str, int] = {}
    first_seen: dict[str, int] = {}
    for number, line in iter_lines(
        name, MAX_COUNT_FILE_BYTES, line_cap=_COUNT_LINE_CAP, what="a word count file",
        cancel=cancel,
    ):  # fmt: skip
        text = line.strip()
        if not text:
            continue
        fields = text.split("\t")
        if len(fields) != 2:
            raise FileError(
                f"expected a word, a tab and its count, found {len(fields)} tab-separated "
                f"field{'s' if len(fields) != 1 else ''}",
                name,
                number,
            )
        word, count = fields
        if not count.isascii() or not count.isdigit():
            raise FileError(f"the count {count!r} of {word!r} is not a whole number", name, number)
        if word in first_seen:
            raise FileError(
                f"{word!r} is listed twice (first on line {first_seen[word]})", name, number
            )
        first_seen[word] = number
        counts[word] = int(count)
    if not counts:
        raise FileError("holds no word counts (word<TAB>count per line)", name)
    return counts


def count_corpus_words(
    path: str | os.PathLike[str],
    tokenize: Callable[[str], Sequence[str]],
    *,
    cancel: threading.Event | None = None,
) -> Counter[str]:
    """How often each word of the training text ``path`` occurs, its lines split into words by
    ``tokenize`` (the tokenizer of the words compared)."""
    name = os.fspath(path)
    counts: Counter[str] = Counter()
    for _, line in iter_lines(
        name, MAX_INPUT_BYTES, line_cap=_TEXT_LINE_CAP, what="a training text", cancel=cancel
    ):
        counts.update(tokenize(line))
    if not counts:
        raise FileError("holds no words", name)
    return counts
