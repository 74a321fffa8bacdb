"""The session file's tables, and how spans and segment scores become rows and back.

Format versions (``PRAGMA user_version``): 1 the first; 2 added the ``imports`` table; 3 gave
each input its path relative to the session file and how it was read (``relative``,
``column_name``, ``fmt``). Older files are read as they are: what they lack reads as None.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import datetime
from functools import lru_cache
from typing import Any, Final

from matchlight.core.annotation.model import ErrorSpan, Origin, SegmentScore, Severity, Status
from matchlight.core.io import jsonsafe

__all__ = [
    "IMPORTS_SCHEMA",
    "INPUT_COLUMNS_V3",
    "SCHEMA",
    "SCORE_UPSERT",
    "SPAN_COLUMNS",
    "SPAN_INSERT",
    "SPAN_UPDATE",
    "dumps",
    "score_from_row",
    "score_row",
    "span_from_row",
    "span_row",
]


def _load(text: str) -> Any:
    return jsonsafe.loads(text, first_line=None)


def dumps(value: Any) -> str:
    """JSON as the session stores it (sorted keys, non-ASCII kept)."""
    return json.dumps(value, ensure_ascii=False, sort_keys=True)


SCHEMA: Final = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
CREATE TABLE inputs (
    position INTEGER PRIMARY KEY,
    role TEXT NOT NULL,
    name TEXT NOT NULL,
    path TEXT NOT NULL,
    sha256 TEXT NOT NULL,
    size INTEGER NOT NULL,
    relative TEXT,
    column_name TEXT,
    fmt TEXT
);
CREATE TABLE spans (
    id TEXT PRIMARY KEY,
    system TEXT NOT NULL,
    segment INTEGER NOT NULL CHECK (segment >= 0),
    start INTEGER NOT NULL CHECK (start >= 0),
    "end" INTEGER NOT NULL CHECK ("end" >= start),
    text TEXT NOT NULL,
    prefix TEXT NOT NULL,
    category TEXT NOT NULL,
    severity TEXT NOT NULL,
    note TEXT NOT NULL,
    annotator TEXT NOT NULL,
    status TEXT NOT NULL,
    origin TEXT NOT NULL,
    created TEXT NOT NULL,
    modified TEXT NOT NULL,
    extra TEXT
);
CREATE INDEX spans_by_segment ON spans (system, segment);
CREATE TABLE segment_scores (
    system TEXT NOT NULL,
    segment INTEGER NOT NULL CHECK (segment >= 0),
    annotator TEXT NOT NULL,
    score REAL,
    modified TEXT NOT NULL,
    extra TEXT,
    PRIMARY KEY (system, segment, annotator)
) WITHOUT ROWID;
"""

#: Imported columns (format 2): ``kind`` scores or labels, ``key`` the score column's key or the
#: label column's name, ``definition`` JSON (column, systems, files with hash and how they were
#: read), ``data`` the values (raw little-endian float64, or the labels as a JSON list).
IMPORTS_SCHEMA: Final = """
CREATE TABLE IF NOT EXISTS imports (
    kind TEXT NOT NULL CHECK (kind IN ('scores', 'labels')),
    key TEXT NOT NULL,
    position INTEGER NOT NULL,
    definition TEXT NOT NULL,
    data BLOB NOT NULL,
    PRIMARY KEY (kind, key)
) WITHOUT ROWID;
"""

SPAN_COLUMNS: Final = (
    'id, system, segment, start, "end", text, prefix, category, severity, note, annotator, '
    "status, origin, created, modified, extra"
)
SPAN_INSERT: Final = f"INSERT INTO spans ({SPAN_COLUMNS}) VALUES ({', '.join('?' * 16)})"
SPAN_UPDATE: Final = (
    'UPDATE spans SET system=?, segment=?, start=?, "end"=?, text=?, prefix=?, category=?, '
    "severity=?, note=?, annotator=?, status=?, origin=?, created=?, modified=?, extra=? "
    "WHERE id=?"
)
SCORE_UPSERT: Final = (
    "INSERT OR REPLACE INTO segment_scores (system, segment, annotator, score, modified, extra) "
    "VALUES (?, ?, ?, ?, ?, ?)"
)


#: The input columns format 3 added (absent from older files).
INPUT_COLUMNS_V3: Final = ("relative", "column_name", "fmt")


#: Enum values by member (``member.value`` is a slow property on 100,000 rows).
_SEVERITY_TEXT: Final = {s: s.value for s in Severity}
_STATUS_TEXT: Final = {s: s.value for s in Status}


def span_row(span: ErrorSpan) -> tuple[Any, ...]:
    created = span.created.isoformat()
    modified = created if span.modified is span.created else span.modified.isoformat()
    return (
        span.id,
        span.system,
        span.segment,
        span.start,
        span.end,
        span.text,
        span.prefix,
        span.category,
        _SEVERITY_TEXT[span.severity],
        span.note,
        span.annotator,
        _STATUS_TEXT[span.status],
        span.origin.label(),
        created,
        modified,
        dumps(dict(span.extra)) if span.extra else None,
    )


_SEVERITIES: Final = {s.value: s for s in Severity}
_STATUSES: Final = {s.value: s for s in Status}


@lru_cache(maxsize=64)
def _origin(label: str) -> Origin:
    return Origin.from_label(label)


def span_from_row(row: Sequence[Any]) -> ErrorSpan:
    return ErrorSpan(
        id=row[0],
        system=row[1],
        segment=row[2],
        start=row[3],
        end=row[4],
        text=row[5],
        prefix=row[6],
        category=row[7],
        severity=_SEVERITIES[row[8]],
        note=row[9],
        annotator=row[10],
        status=_STATUSES[row[11]],
        origin=_origin(row[12]),
        created=datetime.fromisoformat(row[13]),
        modified=datetime.fromisoformat(row[14]),
        extra=_load(row[15]) if row[15] else {},
    )


def score_row(score: SegmentScore) -> tuple[Any, ...]:
    return (
        score.system,
        score.segment,
        score.annotator,
        score.score,
        score.modified.isoformat(),
        dumps(dict(score.extra)) if score.extra else None,
    )


def score_from_row(row: Sequence[Any]) -> SegmentScore:
    return SegmentScore(
        system=row[0],
        segment=row[1],
        annotator=row[2],
        score=row[3],
        modified=datetime.fromisoformat(row[4]),
        extra=_load(row[5]) if row[5] else {},
    )
