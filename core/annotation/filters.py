"""Filtering spans and segments: by category (with its sub-categories), severity, status,
annotator, and whether a system's segment has been annotated at all.

Category and annotator names are compared case-insensitively, because imported files spell
them inconsistently ("Accuracy/Mistranslation", "accuracy/mistranslation").
"""

from __future__ import annotations

from collections.abc import Collection, Iterable

import numpy as np
import numpy.typing as npt

from matchlight.core.annotation.model import ErrorSpan, SegmentScore, Severity, Status
from matchlight.core.annotation.typology import SEPARATOR

__all__ = [
    "annotated_mask",
    "by_annotator",
    "by_category",
    "by_severity",
    "by_status",
    "for_segment",
    "in_category",
]


def in_category(span: ErrorSpan, category: str, *, subcategories: bool = True) -> bool:
    """Whether ``span`` is in ``category`` (or, with ``subcategories``, anywhere below it)."""
    key, own = category.casefold(), span.category.casefold()
    return own == key or (subcategories and own.startswith(key + SEPARATOR))


def by_category(
    spans: Iterable[ErrorSpan], *categories: str, subcategories: bool = True
) -> list[ErrorSpan]:
    """Spans in any of ``categories`` (sub-categories included unless told otherwise)."""
    return [
        s for s in spans if any(in_category(s, c, subcategories=subcategories) for c in categories)
    ]


def by_severity(spans: Iterable[ErrorSpan], *severities: Severity | str) -> list[ErrorSpan]:
    wanted = {Severity.parse(s) if isinstance(s, str) else s for s in severities}
    return [s for s in spans if s.severity in wanted]


def by_status(spans: Iterable[ErrorSpan], *statuses: Status | str) -> list[ErrorSpan]:
    wanted = {Status(s) for s in statuses}
    return [s for s in spans if s.status in wanted]


def by_annotator(spans: Iterable[ErrorSpan], *annotators: str) -> list[ErrorSpan]:
    wanted = {a.casefold() for a in annotators}
    return [s for s in spans if s.annotator.casefold() in wanted]


def for_segment(spans: Iterable[ErrorSpan], system: str, segment: int) -> list[ErrorSpan]:
    """One system's spans on one segment, in reading order."""
    found = [s for s in spans if s.system == system and s.segment == segment]
    return sorted(found, key=lambda s: (s.start, s.end, s.created))


def annotated_mask(
    n_segments: int,
    system: str,
    spans: Iterable[ErrorSpan],
    scores: Iterable[SegmentScore] = (),
    *,
    statuses: Collection[Status] = (Status.CONFIRMED, Status.UNDECIDED),
    annotators: Collection[str] | None = None,
) -> npt.NDArray[np.bool_]:
    """A boolean per segment: True where ``system``'s segment has a span or a score / review mark.

    ``statuses`` says which spans make a segment annotated (rejected ones do not, by default);
    ``annotators`` restricts to some annotators. ``~mask`` selects the segments still to do.
    """
    wanted = None if annotators is None else {a.casefold() for a in annotators}
    mask = np.zeros(n_segments, dtype=bool)
    for span in spans:
        if span.system != system or span.status not in statuses or span.segment >= n_segments:
            continue
        if wanted is None or span.annotator.casefold() in wanted:
            mask[span.segment] = True
    for score in scores:
        if score.system != system or score.segment >= n_segments:
            continue
        if wanted is None or score.annotator.casefold() in wanted:
            mask[score.segment] = True
    return mask
