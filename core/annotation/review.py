"""Ruling on pre-annotations: confirm or reject undecided error spans, one at a time or in bulk,
with who ruled and when kept on each span.

Imported spans arrive ``UNDECIDED`` (:mod:`~matchlight.core.annotation.interchange`); a person
confirms or rejects them. The ruling is recorded in the span's ``extra`` (:data:`REVIEWED_BY`,
:data:`REVIEWED_AT`, ISO 8601 UTC), so the session file's schema does not change and the span's
``annotator`` stays the one who marked it (xCOMET, a WMT rater). Reopening a span (back to
undecided) drops the record. CSV and xCOMET JSON Lines exports write it.

:func:`plan_review` rules on many spans as ONE command (one undo step, one transaction): the
undecided spans of an output, a segment, a system or of everything (:class:`ReviewScope`).
Confirming checks each span as the workspace will; a span that may not be confirmed yet (an MQM
span without a category, a category that needs a note) or whose anchor failed stays undecided,
and the plan says how many and why.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum
from typing import Final

from matchlight.core.annotation.history import Batch, UpdateSpan
from matchlight.core.annotation.model import AnnotationError, ErrorSpan, Status, utc_now
from matchlight.core.annotation.typology import AnnotationMode, Typology, validate_span

__all__ = [
    "FLAGGED",
    "REVIEWED_AT",
    "REVIEWED_BY",
    "ReviewPlan",
    "ReviewScope",
    "plan_review",
    "reviewed",
    "reviewer_of",
]

#: ``extra`` key: who confirmed or rejected the span.
REVIEWED_BY: Final = "reviewed_by"
#: ``extra`` key: when (ISO 8601, UTC).
REVIEWED_AT: Final = "reviewed_at"
#: The reason :func:`plan_review` gives for a span it left alone because its anchor failed.
FLAGGED: Final = "its text was not found again in the changed file: re-attach it first"


class ReviewScope(StrEnum):
    """Which undecided spans a bulk ruling covers."""

    OUTPUT = "output"  # one system's output of one segment
    SEGMENT = "segment"  # every system's output of one segment
    SYSTEM = "system"  # every output of one system
    ALL = "all"  # every span

    def covers(self, span: ErrorSpan, *, system: str | None, segment: int | None) -> bool:
        """Whether ``span`` lies in this scope around ``system``'s output of ``segment``."""
        if self is ReviewScope.ALL:
            return True
        if self is ReviewScope.SYSTEM:
            return span.system == system
        if self is ReviewScope.SEGMENT:
            return span.segment == segment
        return span.system == system and span.segment == segment

    def describe(self, *, system: str | None, segment: int | None) -> str:
        """Words for the user: ``"of A, segment 3"``, ``"of segment 3"``, ``"of A"`` or
        ``"everywhere"``."""
        where = "" if segment is None else f"segment {segment + 1}"
        if self is ReviewScope.ALL:
            return "everywhere"
        if self is ReviewScope.SYSTEM:
            return f"of {system}"
        if self is ReviewScope.SEGMENT:
            return f"of {where}"
        return f"of {system}, {where}"


def reviewed(
    span: ErrorSpan, status: Status, reviewer: str, *, when: datetime | None = None
) -> ErrorSpan:
    """A copy of ``span`` with ``status``, ruled by ``reviewer`` at ``when`` (now); back to
    undecided, the record of the earlier ruling is dropped."""
    now = when or utc_now()
    extra = dict(span.extra)
    if Status(status) is Status.UNDECIDED:
        extra.pop(REVIEWED_BY, None)
        extra.pop(REVIEWED_AT, None)
    else:
        if not reviewer.strip():
            raise AnnotationError("a ruling on an error needs the reviewer's name")
        extra[REVIEWED_BY] = reviewer.strip()
        extra[REVIEWED_AT] = now.isoformat()
    return span.edited(status=status, extra=extra, when=now)


def reviewer_of(span: ErrorSpan) -> tuple[str, str] | None:
    """(who, when) confirmed or rejected ``span``, or None when nobody ruled on it."""
    who, at = span.extra.get(REVIEWED_BY), span.extra.get(REVIEWED_AT)
    if not isinstance(who, str) or not who:
        return None
    return who, at if isinstance(at, str) else ""


@dataclass(frozen=True, slots=True)
class ReviewPlan:
    """What a bulk ruling changes: ``updates`` (one per span), and how many undecided spans of
    the scope it leaves undecided, by reason (``left``)."""

    status: Status
    updates: tuple[UpdateSpan, ...]
    left: Mapping[str, int] = field(default_factory=dict)

    @property
    def count(self) -> int:
        return len(self.updates)

    @property
    def label(self) -> str:
        """The undo step's name."""
        verb = "Confirm" if self.status is Status.CONFIRMED else "Reject"
        return f"{verb} {self.count} error{'' if self.count == 1 else 's'}"

    @property
    def command(self) -> Batch | None:
        """One command for every update (None when there is nothing to change)."""
        return Batch(self.updates, label=self.label) if self.updates else None

    def message(self, where: str = "") -> str:
        """A sentence for the user on what was (or will be) done and what was left."""
        done = "confirmed" if self.status is Status.CONFIRMED else "rejected"
        scope = f" {where}" if where else ""
        if not self.updates and not self.left:
            return f"No undecided errors{scope}."
        text = f"{self.count} error{'' if self.count == 1 else 's'} {done}{scope}."
        if self.left:
            reasons = "; ".join(f"{n} because {why}" for why, n in self.left.items())
            total = sum(self.left.values())
            text += f" {total} left undecided: {reasons}."
        return text


def plan_review(
    spans: Iterable[ErrorSpan],
    status: Status,
    reviewer: str,
    *,
    typology: Typology,
    mode: AnnotationMode,
    flagged: Collection[str] = (),
    when: datetime | None = None,
) -> ReviewPlan:
    """Rule ``status`` (confirmed or rejected) on every undecided span of ``spans``, recording
    ``reviewer``. Spans already ruled on are not touched. Confirming leaves undecided a span
    that may not be confirmed under ``typology`` and ``mode`` and one whose id is in
    ``flagged`` (its anchor failed); rejecting takes them all."""
    status = Status(status)
    if status is Status.UNDECIDED:
        raise AnnotationError("a bulk ruling confirms or rejects")
    now = when or utc_now()
    updates: list[UpdateSpan] = []
    left: Counter[str] = Counter()
    label = "Confirm error" if status is Status.CONFIRMED else "Reject error"
    for span in spans:
        if span.status is not Status.UNDECIDED:
            continue
        after = reviewed(span, status, reviewer, when=now)
        if status is Status.CONFIRMED:
            if span.id in flagged:
                left[FLAGGED] += 1
                continue
            try:
                validate_span(after, typology, mode)
            except AnnotationError as why:
                left[str(why)] += 1
                continue
        updates.append(UpdateSpan(span, after, label=label))
    return ReviewPlan(status, tuple(updates), dict(left))
