"""The document a segment belongs to, and its neighbours there: the context an annotator reads.

WMT test sets come with a document id per line (``docid.txt``), loaded as a label column
(:mod:`core.io.labels`). :class:`DocumentIndex` groups the segments by that label once, so that
the segments before and after one of them in its document, and its position there, are a lookup.
A document's segments need not be consecutive lines; they are taken in file order. Without a
document column the whole file is one sequence: the neighbours are the lines around.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Sequence
from dataclasses import dataclass

__all__ = ["DocumentContext", "DocumentIndex", "document_column"]

#: Label-column names that hold document ids (compared without case, spaces or punctuation).
_DOC_NAMES = ("docid", "docids", "documentid", "documentids", "doc", "docs", "document")


@dataclass(frozen=True, slots=True)
class DocumentContext:
    """Where one segment sits: its document (None: no document column, the file's order), its
    0-based position among the document's ``size`` segments, and the segments just before and
    after it there (in reading order)."""

    segment: int
    document: str | None
    position: int
    size: int
    before: tuple[int, ...]
    after: tuple[int, ...]


class DocumentIndex:
    """The segments of each document, from one label per segment (None: one sequence)."""

    def __init__(self, labels: Sequence[str] | None, n_segments: int) -> None:
        if labels is not None and len(labels) != n_segments:
            raise ValueError(f"{len(labels)} document labels for {n_segments} segments")
        self.n_segments = n_segments
        self._labels = None if labels is None else tuple(labels)
        self._members: dict[str, list[int]] = {}
        if self._labels is not None:
            for segment, label in enumerate(self._labels):
                self._members.setdefault(label, []).append(segment)

    @property
    def has_documents(self) -> bool:
        return self._labels is not None

    def context(self, segment: int, *, before: int = 2, after: int = 2) -> DocumentContext:
        """Segment ``segment``'s document, position, and up to ``before``/``after`` neighbours."""
        if not 0 <= segment < self.n_segments:
            raise IndexError(f"segment {segment + 1} is out of range (1–{self.n_segments})")
        if self._labels is None:
            first = max(0, segment - before)
            last = min(self.n_segments, segment + 1 + after)
            return DocumentContext(
                segment,
                None,
                segment,
                self.n_segments,
                tuple(range(first, segment)),
                tuple(range(segment + 1, last)),
            )
        document = self._labels[segment]
        members = self._members[document]
        at = bisect_left(members, segment)
        return DocumentContext(
            segment,
            document,
            at,
            len(members),
            tuple(members[max(0, at - before) : at]),
            tuple(members[at + 1 : at + 1 + after]),
        )


def _plain(name: str) -> str:
    return re.sub(r"[\W_]+", "", name.casefold())


def document_column(names: Sequence[str]) -> str | None:
    """The label column among ``names`` that holds document ids (``docid``, ``doc_id``,
    ``Document``...), the first such in order; None when there is none."""
    for name in names:
        if _plain(name) in _DOC_NAMES:
            return name
    return None
