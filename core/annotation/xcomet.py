"""xCOMET error spans (``xcomet-jsonl``): import and export.

xCOMET's ``error_spans`` (Unbabel/COMET ``XCOMETMetric``) are dicts with ``text``, ``start``,
``end`` (character offsets into the MT output from the tokenizer's offset mapping, often with
the leading space of the first sub-word), ``severity`` (minor / major / critical) and
``confidence``. Accepted per line: one span object with our keys ``system``, ``segment``
(1-based, as in Matchlight's CSV), ``category`` and ``note``; or one segment's list of spans;
or an object holding ``error_spans``; or, on one line, the whole list of lists as
``model.predict(...).metadata.error_spans`` returns it. Export writes one span per line.

What every format shares (the result type, the JSON Lines reader, the field checks) is in
:mod:`~matchlight.core.annotation.interchange`.
"""

from __future__ import annotations

import io
import json
import os
import unicodedata
from collections.abc import Collection, Iterable, Iterator, Mapping, Sequence
from datetime import datetime
from typing import Any

from matchlight.core.annotation.interchange import (
    CONFIRMED_ONLY,
    ImportResult,
    int_field,
    json_lines,
    line_in,
    severity_field,
)
from matchlight.core.annotation.model import ErrorSpan, Origin, SegmentScore, Side, Status, utc_now
from matchlight.core.annotation.review import REVIEWED_AT, REVIEWED_BY, reviewer_of
from matchlight.core.io.inputs import InputError

__all__ = ["export_xcomet", "import_xcomet"]


def _xcomet_records(
    path: str, default_system: str | None, warnings: list[str]
) -> Iterator[tuple[int, str, int, dict[str, Any] | None]]:
    """(line number, system, 0-based segment, span dict) for every span in the file, and
    (..., None) for a segment given with an empty list of spans (judged free of errors)."""
    segment_counter = 0

    def system_of(record: Mapping[str, Any], number: int) -> str:
        system = record.get("system", default_system)
        if not isinstance(system, str) or not system:
            raise InputError(
                "no 'system' for this span: add the key or choose the system to import into",
                path,
                number,
            )
        return system

    def spans_of(value: Any, number: int) -> list[dict[str, Any] | None]:
        """The span objects of a segment's list; [None] for an empty list (no errors)."""
        if not isinstance(value, list) or not all(isinstance(s, dict) for s in value):
            raise InputError("expected a list of span objects", path, number)
        return list(value) or [None]

    for number, value in json_lines(path, warnings):
        if isinstance(value, list) and value and all(isinstance(v, list) for v in value):
            # The whole error_spans output (a list per segment) on one line.
            system = system_of({}, number)
            for seg_spans in value:
                for span in spans_of(seg_spans, number):
                    yield number, system, segment_counter, span
                segment_counter += 1
        elif isinstance(value, list):
            system = system_of({}, number)
            for span in spans_of(value, number):
                yield number, system, segment_counter, span
            segment_counter += 1
        elif isinstance(value, dict) and "error_spans" in value:
            system = system_of(value, number)
            if "segment" in value:
                segment = int_field(value["segment"], "'segment'", path, number, minimum=1) - 1
            else:
                segment = segment_counter
            for span in spans_of(value["error_spans"], number):
                yield number, system, segment, span
            segment_counter = segment + 1
        elif isinstance(value, dict):
            if "segment" not in value:
                raise InputError("a span object needs 'segment' (1-based)", path, number)
            segment = int_field(value["segment"], "'segment'", path, number, minimum=1) - 1
            yield number, system_of(value, number), segment, value
        else:
            raise InputError(
                f"expected a JSON object or list, not {type(value).__name__}", path, number
            )


def _same_text(a: str, b: str) -> bool:
    norm_a = unicodedata.normalize("NFKC", a).strip()
    return norm_a == unicodedata.normalize("NFKC", b).strip()


def import_xcomet(
    path: str | os.PathLike[str],
    *,
    lines: Mapping[str, Sequence[str]] | None,
    system: str | None = None,
    annotator: str = "xCOMET",
) -> ImportResult:
    """Read xCOMET error spans onto ``lines`` (system name -> hypothesis lines).

    ``system`` names the system for records without a ``system`` key. The stored offsets are
    trusted when they lie inside the line; the surrounding whitespace xCOMET includes (the
    sub-word's leading space) is trimmed. A span whose offsets lie outside the line is looked up
    by its text. ``confidence`` is kept in the span's ``extra``.

    With ``lines`` None (scoring a file alone) each span sits on its own text, its file offsets
    kept in ``extra["offsets"]``, and every segment xCOMET judged (with errors or an empty list)
    is also a review mark of ``annotator``: xCOMET's rating, 0 where it found no error. Onto a
    comparison, its spans are proposals for a person to rule on, and no segment is marked.
    """
    name = os.fspath(path)
    now = utc_now()
    origin = Origin.imported("xcomet-jsonl")
    spans: list[ErrorSpan] = []
    warnings: list[str] = []
    judged: dict[tuple[str, int], None] = {}
    for number, sys_name, segment, record in _xcomet_records(name, system, warnings):
        if lines is None:
            judged[(sys_name, segment)] = None
        if record is None:
            continue
        if lines is None:
            spans.append(
                _xcomet_alone(record, sys_name, segment, annotator, origin, now, name, number)
            )
            continue
        line = line_in(lines, sys_name, segment, name, number)
        start, end = record.get("start"), record.get("end")
        text = record.get("text")
        if text is not None and not isinstance(text, str):
            raise InputError(f"'text' must be a string, not {text!r}", name, number)
        if (
            isinstance(start, int)
            and isinstance(end, int)
            and not isinstance(start, bool)
            and not isinstance(end, bool)
            and 0 <= start <= end <= len(line)
        ):
            selected = line[start:end]
            if selected.strip():
                start += len(selected) - len(selected.lstrip())
                end -= len(selected) - len(selected.rstrip())
            if text is not None and not _same_text(line[start:end], text):
                warnings.append(
                    f"{name}, line {number}: xCOMET's text {text!r} differs from "
                    f"{line[start:end]!r} at its offsets; the offsets are kept"
                )
        elif text:
            at = line.find(text.strip())
            if at < 0:
                raise InputError(
                    f"span [{start}, {end}) is outside segment {segment + 1} of {sys_name!r} "
                    f"({len(line)} characters) and its text {text!r} is not in the line",
                    name,
                    number,
                )
            start, end = at, at + len(text.strip())
        else:
            raise InputError(f"bad span offsets start={start!r}, end={end!r}", name, number)
        extra: dict[str, Any] = {}
        if "confidence" in record:
            extra["confidence"] = record["confidence"]
        category = record.get("category", "")
        note = record.get("note", "")
        if not isinstance(category, str) or not isinstance(note, str):
            raise InputError("'category' and 'note' must be strings", name, number)
        spans.append(
            ErrorSpan.create(
                system=sys_name,
                segment=segment,
                line=line,
                start=start,
                end=end,
                category=category,
                severity=severity_field(record.get("severity"), name, number),
                annotator=annotator,
                note=note,
                status=Status.UNDECIDED,
                origin=origin,
                extra=extra,
                when=now,
            )
        )
    marks = tuple(SegmentScore(sys_name, seg, annotator, None, now) for sys_name, seg in judged)
    return ImportResult(tuple(spans), marks, tuple(warnings))


def _xcomet_alone(
    record: Mapping[str, Any],
    system: str,
    segment: int,
    annotator: str,
    origin: Origin,
    now: datetime,
    path: str,
    number: int,
) -> ErrorSpan:
    """An xCOMET record as a span on its own text (no comparison lines to place it on)."""
    text = record.get("text")
    if not isinstance(text, str):
        raise InputError("without the comparison's lines a span needs its 'text'", path, number)
    category, note = record.get("category", ""), record.get("note", "")
    if not isinstance(category, str) or not isinstance(note, str):
        raise InputError("'category' and 'note' must be strings", path, number)
    extra: dict[str, Any] = {"offsets": [record.get("start"), record.get("end")]}
    if "confidence" in record:
        extra["confidence"] = record["confidence"]
    return ErrorSpan.create(
        system=system,
        segment=segment,
        line=text,
        start=0,
        end=len(text),
        category=category,
        severity=severity_field(record.get("severity"), path, number),
        annotator=annotator,
        note=note,
        status=Status.UNDECIDED,
        origin=origin,
        extra=extra,
        when=now,
    )


def export_xcomet(
    spans: Iterable[ErrorSpan], *, statuses: Collection[Status] = CONFIRMED_ONLY
) -> str:
    """One xCOMET-style span object per line, with our keys system, segment (1-based), category,
    note and status; ``confidence`` is the imported one, or null for a person's span; a span
    someone confirmed or rejected also has ``reviewed_by`` and ``reviewed_at``. xCOMET spans are
    on the output: source spans are left out
    (:func:`~matchlight.core.annotation.interchange.left_out` counts them)."""
    rows = sorted(
        (s for s in spans if s.status in statuses and s.side is Side.TARGET),
        key=lambda s: (s.system, s.segment, s.start, s.end, s.created),
    )
    out = io.StringIO()
    for span in rows:
        record = {
            "text": span.text,
            "start": span.start,
            "end": span.end,
            "severity": span.severity.value,
            "confidence": span.extra.get("confidence"),
            "system": span.system,
            "segment": span.segment + 1,
            "category": span.category,
            "note": span.note,
            "status": span.status.value,
        }
        ruling = reviewer_of(span)
        if ruling is not None:
            record[REVIEWED_BY], record[REVIEWED_AT] = ruling
        out.write(json.dumps(record, ensure_ascii=False) + "\n")
    return out.getvalue()


# -- WMT MQM TSV -------------------------------------------------------------------------------
