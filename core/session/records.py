"""The session file's tables, and how spans and segment scores become rows and back.

Format versions (``PRAGMA user_version``): 1 the first; 2 added the ``imports`` table; 3 gave
each input its path relative to the session file and how it was read (``relative``,
``column_name``, ``fmt``). Older files are read as they are: what they lack reads as None.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, fields
from datetime import datetime
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final, TypedDict

from matchlight.core.annotation.model import ErrorSpan, Origin, SegmentScore, Severity, Status
from matchlight.core.annotation.mqm import DEFAULT_WEIGHTS, MQMWeights
from matchlight.core.annotation.typology import DEFAULT_TYPOLOGY, AnnotationMode, Typology
from matchlight.core.io import jsonsafe
from matchlight.core.session.files import SCHEMA_VERSION
from matchlight.core.session.inputs import SessionInput

if TYPE_CHECKING:  # typing.Unpack is Python 3.12's
    from typing_extensions import Unpack

__all__ = [
    "IMPORTS_SCHEMA",
    "INPUT_COLUMNS_V3",
    "SCHEMA",
    "SCORE_UPSERT",
    "SPAN_COLUMNS",
    "SPAN_INSERT",
    "SPAN_UPDATE",
    "STATE_KEYS",
    "SessionState",
    "StateParts",
    "current_format_copy",
    "dumps",
    "load",
    "read_mode",
    "read_state",
    "read_typology",
    "score_from_row",
    "score_row",
    "span_from_row",
    "span_row",
    "state_values",
]


def load(text: str) -> Any:
    """A JSON field of the session, read with the limits of :mod:`core.io.jsonsafe` (a hostile
    file's deep nesting or huge numbers are a ValueError, never a RecursionError)."""
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
        extra=load(row[15]) if row[15] else {},
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
        extra=load(row[5]) if row[5] else {},
    )


@dataclass(frozen=True, slots=True)
class SessionState:
    """Everything but the inputs and the annotations, as stored (see :mod:`.document`)."""

    settings: Mapping[str, Any]
    #: The baseline system (its name or index, as the caller stored it).
    baseline: str | int | None
    selection: Any
    layout: Any
    mode: AnnotationMode
    typology: Typology
    weights: MQMWeights
    annotator: str


#: The ``meta`` keys holding a :class:`SessionState`: its fields, in order.
STATE_KEYS: Final = tuple(field.name for field in fields(SessionState))


class StateParts(TypedDict, total=False):
    """Some parts of a :class:`SessionState` (a part left out stays as it is). Its keys are
    :data:`STATE_KEYS`; tests/core/session/test_records.py holds the two to each other."""

    settings: Mapping[str, Any]
    baseline: str | int | None
    selection: Any
    layout: Any
    mode: AnnotationMode
    typology: Typology
    weights: MQMWeights
    annotator: str


def state_values(**parts: Unpack[StateParts]) -> dict[str, str]:
    """The ``meta`` rows (key -> text) of the given parts of a state."""
    encode: dict[str, Callable[[Any], str]] = {
        "settings": lambda value: dumps(dict(value)),
        "baseline": dumps,
        "selection": dumps,
        "layout": dumps,
        "mode": lambda value: AnnotationMode(value).value,
        "typology": lambda value: dumps(value.to_json()),
        "weights": lambda value: dumps(value.to_json()),
        "annotator": str,
    }
    return {key: encode[key](value) for key, value in parts.items()}


def read_mode(meta: Mapping[str, str]) -> AnnotationMode:
    """The annotation mode of ``meta`` rows (ValueError when unknown)."""
    return AnnotationMode(meta.get("mode", "mqm"))


def read_typology(meta: Mapping[str, str]) -> Typology:
    """The typology of ``meta`` rows (ValueError or AnnotationError when unreadable)."""
    return Typology.from_json(load(meta["typology"])) if "typology" in meta else DEFAULT_TYPOLOGY


def read_state(meta: Mapping[str, str]) -> SessionState:
    """The state of ``meta`` rows (:data:`STATE_KEYS`); what they lack reads as its default.
    Raises ValueError or AnnotationError when a part is unreadable."""
    return SessionState(
        settings=load(meta.get("settings", "{}")),
        baseline=load(meta.get("baseline", "null")),
        selection=load(meta.get("selection", "null")),
        layout=load(meta.get("layout", "null")),
        mode=read_mode(meta),
        typology=read_typology(meta),
        weights=(
            MQMWeights.from_json(load(meta["weights"])) if "weights" in meta else DEFAULT_WEIGHTS
        ),
        annotator=meta.get("annotator", ""),
    )


def current_format_copy(conn: sqlite3.Connection, folder: Path) -> bytes:
    """The database of ``conn`` as the bytes of a session file in the current format, with the
    inputs' relative paths made for a file in ``folder`` and no owner noted (sqlite3.Error
    when it cannot be read)."""
    memory = sqlite3.connect(":memory:", isolation_level=None)
    try:
        conn.backup(memory)
        # Earlier versions noted who had the file open; the lock says it now.
        memory.execute("DELETE FROM meta WHERE key IN ('owner_pid', 'owner_host')")
        present = {row[1] for row in memory.execute("PRAGMA table_info(inputs)")}
        for column in INPUT_COLUMNS_V3:
            if column not in present:
                memory.execute(f"ALTER TABLE inputs ADD COLUMN {column} TEXT")
        memory.execute(IMPORTS_SCHEMA)
        rows = memory.execute("SELECT position, path FROM inputs").fetchall()
        for position, path in rows:
            probe = SessionInput("source", "x", path, "", 0).relative_to(folder)
            memory.execute(
                "UPDATE inputs SET relative=? WHERE position=?", (probe.relative, position)
            )
        memory.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
        return memory.serialize()
    finally:
        memory.close()
