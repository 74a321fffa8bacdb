"""Error spans and segment judgements: the records of an MQM or ESA error analysis.

An :class:`ErrorSpan` marks an error in one system's output for one segment, by code-point
offsets ``[start, end)`` into the ORIGINAL hypothesis line. An omission is a point
(``start == end``), like Appraise's ``[MISSING]`` marker. The span keeps the text it selected and
a short prefix (the :data:`PREFIX_CHARS` code points before ``start``) so it can be re-attached
when the line changes (:mod:`matchlight.core.annotation.anchoring`).

A span usually marks the output (the target). A span on the SOURCE (a WMT MQM row whose
``<v>…</v>`` marks are in the source: an omission shown by the source words left out, a source
error) has offsets into the source line and ``side`` :attr:`Side.SOURCE`, kept in ``extra``
(``extra["side"] == "source"``) so the session file's schema does not change.

A :class:`SegmentScore` is one annotator's segment-level judgement: the ESA 0–100 score, or
``None`` for a segment marked as reviewed without a score (an MQM ``No-error`` row).

Records are immutable. Edits make new records (:meth:`ErrorSpan.edited`, :meth:`ErrorSpan.moved`)
with a fresh ``modified`` timestamp and the same ``id``.
"""

from __future__ import annotations

import math
import uuid
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from enum import StrEnum
from typing import Any

__all__ = [
    "MANUAL",
    "PREFIX_CHARS",
    "SIDE_KEY",
    "AnnotationError",
    "ErrorSpan",
    "Origin",
    "SegmentScore",
    "Severity",
    "Side",
    "Status",
    "new_id",
    "utc_now",
]

#: How many code points before a span are kept as its anchor.
PREFIX_CHARS = 20


class AnnotationError(ValueError):
    """An annotation that breaks a rule (bad offsets, unknown category, missing note, ...).

    ``str(error)`` is a complete message for the user.
    """


class Severity(StrEnum):
    """How bad an error is. ``NEUTRAL`` is Freitag et al.'s "purely subjective" level (weight 0)."""

    NEUTRAL = "neutral"
    MINOR = "minor"
    MAJOR = "major"
    CRITICAL = "critical"

    @classmethod
    def parse(cls, text: str) -> Severity:
        """The severity named by ``text``, in any letter case (``"Major"`` as in WMT files)."""
        try:
            return cls(text.strip().lower())
        except ValueError:
            names = ", ".join(s.value for s in cls)
            raise AnnotationError(f"unknown severity {text!r} (expected one of {names})") from None


class Status(StrEnum):
    """Whether a span counts. Imported pre-annotations start ``UNDECIDED`` until someone rules."""

    CONFIRMED = "confirmed"
    UNDECIDED = "undecided"
    REJECTED = "rejected"


@dataclass(frozen=True, slots=True)
class Origin:
    """Where a span came from: typed by an annotator, or imported from a file format."""

    kind: str = "manual"
    format: str | None = None

    def __post_init__(self) -> None:
        if self.kind not in ("manual", "imported"):
            raise AnnotationError(f"origin must be 'manual' or 'imported', not {self.kind!r}")
        if self.kind == "imported" and not self.format:
            raise AnnotationError("an imported span needs the name of its source format")

    @classmethod
    def imported(cls, fmt: str) -> Origin:
        return cls("imported", fmt)

    def label(self) -> str:
        """``"manual"`` or ``"imported:FORMAT"`` (for CSV cells and the database)."""
        return self.kind if self.format is None else f"{self.kind}:{self.format}"

    @classmethod
    def from_label(cls, text: str) -> Origin:
        kind, _, fmt = text.partition(":")
        return cls(kind, fmt or None)


MANUAL = Origin()


class Side(StrEnum):
    """Which text a span's offsets point into: the system's output or the source."""

    TARGET = "target"
    SOURCE = "source"


#: The key of ``ErrorSpan.extra`` that holds a source span's side (absent: the target).
SIDE_KEY = "side"


def utc_now() -> datetime:
    """The current time, timezone-aware UTC (all annotation timestamps are UTC)."""
    return datetime.now(UTC)


def new_id() -> str:
    """A fresh stable span id: a uuid4 in hex (32 characters)."""
    return uuid.uuid4().hex


def _check_offsets(start: int, end: int, length: int | None = None) -> None:
    if isinstance(start, bool) or isinstance(end, bool):
        raise AnnotationError("span offsets must be integers")
    if start < 0 or end < start:
        raise AnnotationError(f"bad span offsets [{start}, {end}): need 0 <= start <= end")
    if length is not None and end > length:
        raise AnnotationError(
            f"span [{start}, {end}) runs past the end of a {length}-character line"
        )


@dataclass(frozen=True, slots=True)
class ErrorSpan:
    """One error on one system's output of one segment (offsets in code points)."""

    id: str
    system: str
    segment: int
    start: int
    end: int
    text: str
    prefix: str
    category: str
    severity: Severity
    annotator: str
    status: Status
    origin: Origin
    created: datetime
    modified: datetime
    note: str = ""
    #: Format-specific data kept for a faithful export (e.g. a WMT TSV row's doc and rater).
    extra: Mapping[str, Any] = field(default_factory=dict, hash=False)

    def __post_init__(self) -> None:
        if not self.id:
            raise AnnotationError("a span needs an id")
        if not self.system:
            raise AnnotationError("a span needs the name of its system")
        if isinstance(self.segment, bool) or self.segment < 0:
            raise AnnotationError(f"segment index must be >= 0, not {self.segment!r}")
        _check_offsets(self.start, self.end)
        if len(self.text) != self.end - self.start:
            raise AnnotationError(
                f"span text {self.text!r} has {len(self.text)} characters but its offsets "
                f"[{self.start}, {self.end}) cover {self.end - self.start}"
            )
        if len(self.prefix) > self.start:
            raise AnnotationError("span prefix is longer than the text before the span")
        if not isinstance(self.severity, Severity):
            object.__setattr__(self, "severity", Severity.parse(str(self.severity)))
        if not isinstance(self.status, Status):
            object.__setattr__(self, "status", Status(str(self.status)))

    @property
    def side(self) -> Side:
        """The text the offsets point into (``extra["side"]``; the target when absent)."""
        return Side.SOURCE if self.extra.get(SIDE_KEY) == Side.SOURCE.value else Side.TARGET

    @property
    def is_omission(self) -> bool:
        """A point span: something is missing at ``start``."""
        return self.start == self.end

    @classmethod
    def create(
        cls,
        *,
        system: str,
        segment: int,
        line: str,
        start: int,
        end: int,
        category: str,
        severity: Severity | str,
        annotator: str,
        note: str = "",
        status: Status = Status.CONFIRMED,
        origin: Origin = MANUAL,
        extra: Mapping[str, Any] | None = None,
        span_id: str | None = None,
        when: datetime | None = None,
        side: Side = Side.TARGET,
    ) -> ErrorSpan:
        """A new span on ``line`` (the original hypothesis; the source line for ``side``
        SOURCE); text and prefix are read from it."""
        _check_offsets(start, end, len(line))
        now = when or utc_now()
        sev = severity if isinstance(severity, Severity) else Severity.parse(severity)
        data = dict(extra or {})
        if Side(side) is Side.SOURCE:
            data[SIDE_KEY] = Side.SOURCE.value
        return cls(
            id=span_id or new_id(),
            system=system,
            segment=segment,
            start=start,
            end=end,
            text=line[start:end],
            prefix=line[max(0, start - PREFIX_CHARS) : start],
            category=category,
            severity=sev,
            annotator=annotator,
            status=status,
            origin=origin,
            created=now,
            modified=now,
            note=note,
            extra=data,
        )

    def edited(self, *, when: datetime | None = None, **changes: Any) -> ErrorSpan:
        """A copy with ``changes`` (category, severity, note, status, annotator, extra) applied.

        Offsets change only through :meth:`moved`, which needs the line.
        """
        moving = {"start", "end", "text", "prefix", "segment", "system", "id", "created"}
        bad = moving.intersection(changes)
        if bad:
            raise AnnotationError(f"use moved() to change {', '.join(sorted(bad))}")
        if "severity" in changes and not isinstance(changes["severity"], Severity):
            changes["severity"] = Severity.parse(str(changes["severity"]))
        return replace(self, modified=when or utc_now(), **changes)

    def moved(self, line: str, start: int, end: int, *, when: datetime | None = None) -> ErrorSpan:
        """A copy at ``[start, end)`` of ``line``, its text and prefix read from the line again."""
        _check_offsets(start, end, len(line))
        return replace(
            self,
            start=start,
            end=end,
            text=line[start:end],
            prefix=line[max(0, start - PREFIX_CHARS) : start],
            modified=when or utc_now(),
        )


@dataclass(frozen=True, slots=True)
class SegmentScore:
    """One annotator's judgement of one system's segment.

    ``score`` is the ESA 0–100 rating, or None when the segment was only marked as reviewed
    (it then counts as annotated, e.g. with no errors).
    """

    system: str
    segment: int
    annotator: str
    score: float | None
    modified: datetime = field(default_factory=utc_now)
    extra: Mapping[str, Any] = field(default_factory=dict, hash=False)

    def __post_init__(self) -> None:
        if not self.system:
            raise AnnotationError("a segment score needs the name of its system")
        if isinstance(self.segment, bool) or self.segment < 0:
            raise AnnotationError(f"segment index must be >= 0, not {self.segment!r}")
        if self.score is not None:
            value = float(self.score)
            if not math.isfinite(value) or not 0.0 <= value <= 100.0:
                raise AnnotationError(
                    f"a segment score must be between 0 and 100, not {self.score}"
                )
            object.__setattr__(self, "score", value)

    @property
    def key(self) -> tuple[str, int, str]:
        return (self.system, self.segment, self.annotator)
