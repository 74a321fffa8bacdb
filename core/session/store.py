"""The session file: one SQLite database ``NAME.matchlight`` holding a comparison's annotation work.

It records the inputs (role, path, name, sha256 and size of the content), the scoring settings
(a JSON dict the caller owns), the baseline, the selection and layout (JSON), the annotation mode,
typology and MQM weights, every error span (one row each), the segment scores, and the columns
the user imported (segment scores from COMET and the like, label columns) with their values and
the hash of the files they came from (:mod:`core.session.imported`).

Crash safety: the database is in WAL mode with ``synchronous=FULL``, and every change is one
transaction committed before the call returns, so an edit appends a few pages to the WAL instead
of rewriting the file, and a killed process loses nothing it reported as saved.

A file is checked before it is used: a file that is not a Matchlight session (the SQLite header's
application id), one written by a newer Matchlight (``PRAGMA user_version`` above
:data:`SCHEMA_VERSION`) or a damaged one (``PRAGMA quick_check``) raises :class:`SessionError` and
is never modified: the header is read as bytes and the check runs on a read-only connection.

On open the caller asks :meth:`SessionStore.check_inputs` which inputs changed on disk and
:meth:`SessionStore.reanchor` where every span is on the current lines.

Format versions: 1 had no ``imports`` table; 2 added it. A format-1 file is read as it is (no
imports) and is only upgraded, in the transaction that stores its first import, so opening an
old session without importing anything leaves it readable by the Matchlight that wrote it.
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import sqlite3
import tempfile
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import AbstractContextManager, suppress
from dataclasses import dataclass, field
from datetime import UTC, datetime
from functools import lru_cache
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING, Any, Final

from matchlight.core import __version__
from matchlight.core.annotation.anchoring import AnchorState, reanchor_all
from matchlight.core.annotation.model import (
    AnnotationError,
    ErrorSpan,
    Origin,
    SegmentScore,
    Severity,
    Status,
    utc_now,
)
from matchlight.core.annotation.mqm import DEFAULT_WEIGHTS, MQMWeights
from matchlight.core.annotation.typology import (
    DEFAULT_TYPOLOGY,
    AnnotationMode,
    Typology,
    validate_span,
)
from matchlight.core.io.files import file_digest
from matchlight.core.io.safewrite import write_file_atomic
from matchlight.core.session.imported import LabelImport, ScoreImport, import_from_json
from matchlight.core.session.locations import is_in_recovery_dir

if TYPE_CHECKING:  # importing interchange at run time would load the input readers
    from matchlight.core.annotation.interchange import ImportResult, TsvLayout

__all__ = [
    "APPLICATION_ID",
    "ROLES",
    "SCHEMA_VERSION",
    "SUFFIX",
    "InputCheck",
    "ReanchorReport",
    "SessionError",
    "SessionInput",
    "SessionState",
    "SessionStore",
    "file_digest",
]

#: Version of the database layout; a file with a higher one is refused, never changed.
#: 2: the ``imports`` table (imported score and label columns).
SCHEMA_VERSION: Final = 2
#: The first version with the ``imports`` table.
_IMPORTS_VERSION: Final = 2
#: ``PRAGMA application_id`` of a Matchlight session ("MLSS").
APPLICATION_ID: Final = 0x4D4C5353
SUFFIX: Final = ".matchlight"
ROLES: Final = ("source", "reference", "system")

_SQLITE_MAGIC: Final = b"SQLite format 3\x00"
_FORMAT: Final = "matchlight-session"

_SCHEMA: Final = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
CREATE TABLE inputs (
    position INTEGER PRIMARY KEY,
    role TEXT NOT NULL,
    name TEXT NOT NULL,
    path TEXT NOT NULL,
    sha256 TEXT NOT NULL,
    size INTEGER NOT NULL
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
_IMPORTS_SCHEMA: Final = """
CREATE TABLE IF NOT EXISTS imports (
    kind TEXT NOT NULL CHECK (kind IN ('scores', 'labels')),
    key TEXT NOT NULL,
    position INTEGER NOT NULL,
    definition TEXT NOT NULL,
    data BLOB NOT NULL,
    PRIMARY KEY (kind, key)
) WITHOUT ROWID;
"""

_SPAN_COLUMNS: Final = (
    'id, system, segment, start, "end", text, prefix, category, severity, note, annotator, '
    "status, origin, created, modified, extra"
)
_SPAN_INSERT: Final = f"INSERT INTO spans ({_SPAN_COLUMNS}) VALUES ({', '.join('?' * 16)})"
_SPAN_UPDATE: Final = (
    'UPDATE spans SET system=?, segment=?, start=?, "end"=?, text=?, prefix=?, category=?, '
    "severity=?, note=?, annotator=?, status=?, origin=?, created=?, modified=?, extra=? "
    "WHERE id=?"
)
_SCORE_UPSERT: Final = (
    "INSERT OR REPLACE INTO segment_scores (system, segment, annotator, score, modified, extra) "
    "VALUES (?, ?, ?, ?, ?, ?)"
)


class SessionError(Exception):
    """A session file that cannot be used as asked. ``str()`` is a complete user message."""

    def __init__(self, problem: str, path: str | os.PathLike[str] | None = None) -> None:
        super().__init__(problem, path)
        self.problem = problem
        self.path = None if path is None else os.fspath(path)

    def __str__(self) -> str:
        return self.problem if self.path is None else f"{self.path}: {self.problem}"


@dataclass(frozen=True, slots=True)
class SessionInput:
    """One input of the comparison as it was when the session recorded it."""

    role: str
    name: str
    path: str
    sha256: str
    size: int

    def __post_init__(self) -> None:
        if self.role not in ROLES:
            raise SessionError(f"input role must be one of {', '.join(ROLES)}, not {self.role!r}")
        if not self.name:
            raise SessionError("an input needs a name")

    @classmethod
    def from_file(
        cls, path: str | os.PathLike[str], *, role: str, name: str | None = None
    ) -> SessionInput:
        """Record ``path`` now: its absolute path, content hash and size."""
        try:
            sha, size = file_digest(path)
        except OSError as exc:
            raise SessionError(f"cannot read the input: {exc.strerror or exc}", path) from None
        absolute = os.path.abspath(path)
        return cls(role, name or Path(absolute).stem, absolute, sha, size)


@dataclass(frozen=True, slots=True)
class InputCheck:
    """Whether an input's file on disk still has the content the session recorded."""

    input: SessionInput
    path: str
    #: "same", "changed" or "missing".
    status: str
    sha256: str | None = None

    @property
    def changed(self) -> bool:
        return self.status != "same"


@dataclass(frozen=True, slots=True)
class SessionState:
    """Everything but the inputs and the annotations."""

    settings: Mapping[str, Any]
    #: The baseline system (its name or index, as the caller stored it).
    baseline: str | int | None
    selection: Any
    layout: Any
    mode: AnnotationMode
    typology: Typology
    weights: MQMWeights
    annotator: str


@dataclass(frozen=True, slots=True)
class ReanchorReport:
    """Where the spans are on the current lines: how many kept, which moved, which are lost."""

    kept: int
    reattached: tuple[ErrorSpan, ...]
    flagged: tuple[ErrorSpan, ...]


_UNSET: Any = object()


def _json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, sort_keys=True)


def _read_header(path: Path) -> tuple[int, int]:
    """(application id, user version) from the first 100 bytes, or SessionError."""
    try:
        with open(path, "rb") as handle:
            head = handle.read(100)
    except FileNotFoundError:
        raise SessionError("no such session file", path) from None
    except IsADirectoryError:
        raise SessionError("this is a folder, not a session file", path) from None
    except OSError as exc:
        raise SessionError(f"cannot read the file: {exc.strerror or exc}", path) from None
    if len(head) < 100 or not head.startswith(_SQLITE_MAGIC):
        raise SessionError("not a Matchlight session (not an SQLite database)", path)
    return int.from_bytes(head[68:72], "big"), int.from_bytes(head[60:64], "big")


def _check_header(path: Path) -> None:
    app_id, version = _read_header(path)
    if app_id != APPLICATION_ID:
        raise SessionError("not a Matchlight session (an SQLite database of another program)", path)
    if version > SCHEMA_VERSION:
        raise SessionError(
            f"this session was written by a newer Matchlight (session format {version}; this "
            f"version reads format {SCHEMA_VERSION} and older). The file was not changed.",
            path,
        )
    if version < 1:
        raise SessionError("not a Matchlight session (no session format version)", path)


def _ro_uri(path: Path) -> str:
    return path.resolve().as_uri() + "?mode=ro"


def _verify(path: Path) -> None:
    """Integrity and identity checks on a read-only connection; SessionError if they fail.

    Without a WAL next to the file nobody has it open, and it is read as immutable, so the
    check creates no ``-wal``/``-shm`` files beside a file it may refuse.
    """
    uri = _ro_uri(path)
    if not Path(str(path) + "-wal").exists():
        uri += "&immutable=1"
    try:
        conn = sqlite3.connect(uri, uri=True)
    except sqlite3.Error as exc:
        raise SessionError(f"cannot open the session: {exc}", path) from None
    try:
        problems = [row[0] for row in conn.execute("PRAGMA quick_check(5)")]
        if problems != ["ok"]:
            raise SessionError(f"the session file is damaged: {'; '.join(problems)}", path)
        tables = {row[0] for row in conn.execute("SELECT name FROM sqlite_master")}
        if not {"meta", "inputs", "spans", "segment_scores"} <= tables:
            raise SessionError("not a Matchlight session (tables are missing)", path)
        row = conn.execute("SELECT value FROM meta WHERE key='format'").fetchone()
        if row is None or row[0] != _FORMAT:
            raise SessionError("not a Matchlight session (no session marker)", path)
    except sqlite3.Error as exc:
        raise SessionError(f"the session file is damaged: {exc}", path) from None
    finally:
        conn.close()


def _owner_alive(pid_text: str | None, host: str | None) -> bool:
    if not pid_text or host != socket.gethostname():
        return False
    try:
        pid = int(pid_text)
    except ValueError:
        return False
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True  # exists but belongs to someone else
    return True


def _span_row(span: ErrorSpan) -> tuple[Any, ...]:
    return (
        span.id,
        span.system,
        span.segment,
        span.start,
        span.end,
        span.text,
        span.prefix,
        span.category,
        span.severity.value,
        span.note,
        span.annotator,
        span.status.value,
        span.origin.label(),
        span.created.isoformat(),
        span.modified.isoformat(),
        _json(dict(span.extra)) if span.extra else None,
    )


_SEVERITIES: Final = {s.value: s for s in Severity}
_STATUSES: Final = {s.value: s for s in Status}


@lru_cache(maxsize=64)
def _origin(label: str) -> Origin:
    return Origin.from_label(label)


def _span_from_row(row: Sequence[Any]) -> ErrorSpan:
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
        extra=json.loads(row[15]) if row[15] else {},
    )


def _score_row(score: SegmentScore) -> tuple[Any, ...]:
    return (
        score.system,
        score.segment,
        score.annotator,
        score.score,
        score.modified.isoformat(),
        _json(dict(score.extra)) if score.extra else None,
    )


def _score_from_row(row: Sequence[Any]) -> SegmentScore:
    return SegmentScore(
        system=row[0],
        segment=row[1],
        annotator=row[2],
        score=row[3],
        modified=datetime.fromisoformat(row[4]),
        extra=json.loads(row[5]) if row[5] else {},
    )


def _remove_database(path: Path) -> None:
    for suffix in ("-wal", "-shm", "-journal"):
        Path(str(path) + suffix).unlink(missing_ok=True)
    path.unlink(missing_ok=True)


class _Transaction(AbstractContextManager[None]):
    """One write transaction (BEGIN IMMEDIATE ... COMMIT); nested uses join the outer one."""

    def __init__(self, store: SessionStore) -> None:
        self._store = store

    def __enter__(self) -> None:
        store = self._store
        store._require_writable()
        if store._depth == 0:
            try:
                store._conn.execute("BEGIN IMMEDIATE")
            except sqlite3.Error as exc:
                raise store._error(exc) from None
        store._depth += 1

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        store = self._store
        store._depth -= 1
        if store._depth > 0:
            return
        if exc_type is not None:
            store._conn.execute("ROLLBACK")
            return
        try:
            store._conn.execute("COMMIT")
        except sqlite3.Error as err:
            store._conn.execute("ROLLBACK")
            raise store._error(err) from None


@dataclass
class _Cache:
    mode: AnnotationMode = AnnotationMode.MQM
    typology: Typology = DEFAULT_TYPOLOGY
    annotatable: frozenset[str] = field(default_factory=frozenset)


class SessionStore:
    """An open session file. Use :meth:`create`, :meth:`open` or :meth:`open_copy_read_only`.

    Every write method is one committed transaction (or joins the one :meth:`batch` opened).
    Span validation: a span must belong to a system or reference of the session; a CONFIRMED span
    must satisfy the session's typology and mode (:func:`validate_span`). The store implements
    :class:`~matchlight.core.annotation.history.AnnotationSink`, so undo/redo commands apply to it.
    A store is used from one thread (sqlite3's default).
    """

    def __init__(self, conn: sqlite3.Connection, path: Path, *, read_only: bool) -> None:
        """Internal: use the class methods."""
        self._connection: sqlite3.Connection | None = conn
        self._path = path
        self._read_only = read_only
        self._depth = 0
        self._cache = _Cache()
        self._temp_dir: Path | None = None
        #: Problems found while opening a salvage copy (:meth:`open_copy_read_only`).
        self.problems: list[str] = []
        self._load_cache()

    # -- opening and creating --------------------------------------------------------------

    @staticmethod
    def _connect(path: Path) -> sqlite3.Connection:
        conn = sqlite3.connect(path, isolation_level=None, timeout=5.0)
        mode = conn.execute("PRAGMA journal_mode=WAL").fetchone()[0]
        if str(mode).lower() != "wal":
            conn.close()
            raise SessionError(f"cannot use write-ahead logging here (journal mode {mode})", path)
        conn.execute("PRAGMA synchronous=FULL")
        return conn

    @classmethod
    def create(
        cls,
        path: str | os.PathLike[str],
        *,
        inputs: Sequence[SessionInput],
        settings: Mapping[str, Any],
        baseline: str | int | None = None,
        selection: Any = None,
        layout: Any = None,
        mode: AnnotationMode = AnnotationMode.MQM,
        typology: Typology = DEFAULT_TYPOLOGY,
        weights: MQMWeights = DEFAULT_WEIGHTS,
        annotator: str = "",
    ) -> SessionStore:
        """A new session at ``path``, which must not exist yet."""
        target = Path(path)
        if target.exists() or Path(str(target) + "-wal").exists():
            raise SessionError("a file of that name already exists", target)
        names = [(i.role, i.name) for i in inputs]
        if len(set(names)) != len(names):
            raise SessionError("two inputs of the same role have the same name", target)
        target.parent.mkdir(parents=True, exist_ok=True)
        try:
            conn = cls._connect(target)
            conn.execute(f"PRAGMA application_id={APPLICATION_ID}")
            conn.executescript(f"BEGIN IMMEDIATE;{_SCHEMA}{_IMPORTS_SCHEMA}COMMIT;")
        except sqlite3.Error as exc:
            _remove_database(target)
            raise SessionError(f"cannot create the session: {exc}", target) from None
        now = utc_now().isoformat()
        meta = {
            "format": _FORMAT,
            "created": now,
            "app_version": __version__,
            "settings": _json(dict(settings)),
            "baseline": _json(baseline),
            "selection": _json(selection),
            "layout": _json(layout),
            "mode": AnnotationMode(mode).value,
            "typology": _json(typology.to_json()),
            "weights": _json(weights.to_json()),
            "annotator": annotator,
        }
        try:
            conn.execute("BEGIN IMMEDIATE")
            conn.executemany("INSERT INTO meta (key, value) VALUES (?, ?)", meta.items())
            conn.executemany(
                "INSERT INTO inputs (position, role, name, path, sha256, size) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                [(k, i.role, i.name, i.path, i.sha256, i.size) for k, i in enumerate(inputs)],
            )
            conn.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
            conn.execute("COMMIT")
            # Put the header (application id, version) into the main file at once, so a
            # later open can check it from the bytes alone.
            conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        except sqlite3.Error as exc:
            conn.close()
            _remove_database(target)
            raise SessionError(f"cannot create the session: {exc}", target) from None
        store = cls(conn, target, read_only=False)
        store._claim()
        return store

    @classmethod
    def open(cls, path: str | os.PathLike[str], *, read_only: bool = False) -> SessionStore:
        """Open an existing session; SessionError (file untouched) if it is not usable."""
        target = Path(path)
        _check_header(target)
        _verify(target)
        try:
            if read_only:
                conn = sqlite3.connect(_ro_uri(target), uri=True, isolation_level=None)
                conn.execute("PRAGMA query_only=1")
            else:
                conn = cls._connect(target)
        except sqlite3.Error as exc:
            raise SessionError(f"cannot open the session: {exc}", target) from None
        version = conn.execute("PRAGMA user_version").fetchone()[0]
        if version > SCHEMA_VERSION:
            conn.close()
            raise SessionError(f"written by a newer Matchlight (format {version})", target)
        store = cls(conn, target, read_only=read_only)
        if not read_only:
            owner = store._meta_values("owner_pid", "owner_host")
            pid = owner.get("owner_pid")
            if pid != str(os.getpid()) and _owner_alive(pid, owner.get("owner_host")):
                conn.close()
                raise SessionError(
                    "this session is open in another Matchlight window; open a read-only "
                    "copy instead",
                    target,
                )
            store._claim()
        return store

    @classmethod
    def open_copy_read_only(cls, path: str | os.PathLike[str]) -> SessionStore:
        """Open a private copy of ``path`` read-only, leaving the original alone.

        For a session another window has open, one on read-only media, or a damaged one whose
        readable rows are wanted: the file (and its WAL) are copied byte for byte into a
        temporary folder, removed again on :meth:`close`. A damaged copy still opens; what is
        wrong is listed in :attr:`problems` and unreadable rows are skipped. A file that is not a
        Matchlight session, or comes from a newer version, raises SessionError.
        """
        source = Path(path)
        _check_header(source)
        temp = Path(tempfile.mkdtemp(prefix="matchlight-readonly-"))
        copy = temp / source.name
        try:
            shutil.copyfile(source, copy)
            wal = Path(str(source) + "-wal")
            if wal.exists():
                shutil.copyfile(wal, Path(str(copy) + "-wal"))
            conn = sqlite3.connect(copy, isolation_level=None)
            try:
                problems = [row[0] for row in conn.execute("PRAGMA quick_check(20)")]
            except sqlite3.DatabaseError as exc:
                problems = [str(exc)]
            conn.execute("PRAGMA query_only=1")
        except (OSError, sqlite3.Error) as exc:
            shutil.rmtree(temp, ignore_errors=True)
            raise SessionError(f"cannot read a copy of the session: {exc}", source) from None
        try:
            store = cls(conn, copy, read_only=True)
        except (SessionError, sqlite3.Error, ValueError) as exc:
            conn.close()
            shutil.rmtree(temp, ignore_errors=True)
            raise SessionError(f"cannot read a copy of the session: {exc}", source) from None
        store._temp_dir = temp
        if problems != ["ok"]:
            store.problems.extend(f"damaged: {p}" for p in problems)
        return store

    # -- basics ----------------------------------------------------------------------------

    @property
    def _conn(self) -> sqlite3.Connection:
        if self._connection is None:
            raise SessionError("the session is closed", self._path)
        return self._connection

    @property
    def path(self) -> Path:
        return self._path

    @property
    def read_only(self) -> bool:
        return self._read_only

    def _error(self, exc: Exception) -> SessionError:
        if isinstance(exc, sqlite3.OperationalError) and "locked" in str(exc):
            return SessionError("the session is busy in another program; try again", self._path)
        return SessionError(f"cannot save to the session: {exc}", self._path)

    def _require_writable(self) -> None:
        if self._read_only:
            raise SessionError("this session is open read-only", self._path)

    def batch(self) -> AbstractContextManager[None]:
        """Group several writes into one transaction (all or nothing)."""
        return _Transaction(self)

    def _meta_values(self, *keys: str) -> dict[str, str]:
        marks = ", ".join("?" * len(keys))
        rows = self._conn.execute(f"SELECT key, value FROM meta WHERE key IN ({marks})", keys)
        return dict(rows.fetchall())

    def _load_cache(self) -> None:
        meta = self._meta_values("mode", "typology")
        try:
            self._cache.mode = AnnotationMode(meta.get("mode", "mqm"))
            self._cache.typology = (
                Typology.from_json(json.loads(meta["typology"]))
                if "typology" in meta
                else DEFAULT_TYPOLOGY
            )
        except (ValueError, KeyError) as exc:
            raise SessionError(
                f"the session's settings are unreadable: {exc}", self._path
            ) from None
        self._cache.annotatable = frozenset(
            row[0]
            for row in self._conn.execute(
                "SELECT name FROM inputs WHERE role IN ('system', 'reference')"
            )
        )

    def _claim(self) -> None:
        with self.batch():
            self._conn.executemany(
                "INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)",
                [("owner_pid", str(os.getpid())), ("owner_host", socket.gethostname())],
            )

    def close(self) -> None:
        """Release the file (a writable session notes that no window has it open any more)."""
        conn, self._connection = self._connection, None
        if conn is None:
            return
        try:
            if not self._read_only and self._depth == 0:
                # If this fails the file stays usable: a stale owner is ignored once it exits.
                with suppress(sqlite3.Error):
                    conn.execute("DELETE FROM meta WHERE key IN ('owner_pid', 'owner_host')")
            conn.close()
        finally:
            self._depth = 0
            if self._temp_dir is not None:
                shutil.rmtree(self._temp_dir, ignore_errors=True)
                self._temp_dir = None

    @property
    def closed(self) -> bool:
        return self._connection is None

    def __enter__(self) -> SessionStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def integrity_check(self) -> list[str]:
        """``PRAGMA integrity_check``: ``["ok"]`` for a sound file, else the problems."""
        return [row[0] for row in self._conn.execute("PRAGMA integrity_check")]

    def modified(self) -> datetime:
        """When the file (or its WAL) was last written."""
        times = [
            p.stat().st_mtime for p in (self._path, Path(str(self._path) + "-wal")) if p.exists()
        ]
        return datetime.fromtimestamp(max(times), UTC)

    # -- state -----------------------------------------------------------------------------

    def inputs(self) -> tuple[SessionInput, ...]:
        rows = self._conn.execute(
            "SELECT role, name, path, sha256, size FROM inputs ORDER BY position"
        )
        return tuple(SessionInput(*row) for row in rows)

    def state(self) -> SessionState:
        meta = self._meta_values(
            "settings",
            "baseline",
            "selection",
            "layout",
            "mode",
            "typology",
            "weights",
            "annotator",
        )
        try:
            return SessionState(
                settings=json.loads(meta.get("settings", "{}")),
                baseline=json.loads(meta.get("baseline", "null")),
                selection=json.loads(meta.get("selection", "null")),
                layout=json.loads(meta.get("layout", "null")),
                mode=AnnotationMode(meta.get("mode", "mqm")),
                typology=Typology.from_json(json.loads(meta["typology"]))
                if "typology" in meta
                else DEFAULT_TYPOLOGY,
                weights=MQMWeights.from_json(json.loads(meta["weights"]))
                if "weights" in meta
                else DEFAULT_WEIGHTS,
                annotator=meta.get("annotator", ""),
            )
        except (ValueError, AnnotationError) as exc:
            raise SessionError(
                f"the session's settings are unreadable: {exc}", self._path
            ) from None

    def save_state(
        self,
        *,
        settings: Mapping[str, Any] = _UNSET,
        baseline: str | int | None = _UNSET,
        selection: Any = _UNSET,
        layout: Any = _UNSET,
        mode: AnnotationMode = _UNSET,
        typology: Typology = _UNSET,
        weights: MQMWeights = _UNSET,
        annotator: str = _UNSET,
    ) -> None:
        """Store the given parts of the state (others stay as they are), in one transaction."""
        values: dict[str, str] = {}
        if settings is not _UNSET:
            values["settings"] = _json(dict(settings))
        if baseline is not _UNSET:
            values["baseline"] = _json(baseline)
        if selection is not _UNSET:
            values["selection"] = _json(selection)
        if layout is not _UNSET:
            values["layout"] = _json(layout)
        if mode is not _UNSET:
            values["mode"] = AnnotationMode(mode).value
        if typology is not _UNSET:
            values["typology"] = _json(typology.to_json())
        if weights is not _UNSET:
            values["weights"] = _json(weights.to_json())
        if annotator is not _UNSET:
            values["annotator"] = annotator
        if not values:
            return
        with self.batch():
            try:
                self._conn.executemany(
                    "INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", values.items()
                )
            except sqlite3.Error as exc:
                raise self._error(exc) from None
        self._load_cache()

    # -- reading annotations ---------------------------------------------------------------

    def _rows_to_spans(self, sql: str, args: Sequence[Any]) -> list[ErrorSpan]:
        """The spans a query selects. A salvage copy skips unreadable rows (noted in
        :attr:`problems`) and stops at a damaged page; a normal session raises SessionError."""
        spans: list[ErrorSpan] = []
        salvage = self._temp_dir is not None
        try:
            iterator = iter(self._conn.execute(sql, args))
        except sqlite3.DatabaseError as exc:
            if not salvage:
                raise SessionError(f"the session file is damaged: {exc}", self._path) from None
            self.problems.append(f"cannot read spans: {exc}")
            return spans
        while True:
            try:
                row = next(iterator)
            except StopIteration:
                break
            except sqlite3.DatabaseError as exc:
                if not salvage:
                    raise SessionError(f"the session file is damaged: {exc}", self._path) from None
                self.problems.append(f"stopped reading spans after {len(spans)}: {exc}")
                break
            try:
                spans.append(_span_from_row(row))
            except (ValueError, TypeError, KeyError, AnnotationError) as exc:
                message = f"span {row[0]!r} is unreadable: {exc}"
                if not salvage:
                    raise SessionError(message, self._path) from None
                self.problems.append(message)
        return spans

    def spans(self, system: str | None = None, segment: int | None = None) -> list[ErrorSpan]:
        """All spans, or one system's, or one system's on one segment; in reading order."""
        where: list[str] = []
        args: list[Any] = []
        if system is not None:
            where.append("system = ?")
            args.append(system)
        if segment is not None:
            where.append("segment = ?")
            args.append(segment)
        clause = f" WHERE {' AND '.join(where)}" if where else ""
        spans = self._rows_to_spans(f"SELECT {_SPAN_COLUMNS} FROM spans{clause}", args)
        return sorted(spans, key=lambda s: (s.system, s.segment, s.start, s.end, s.created))

    def get_span(self, span_id: str) -> ErrorSpan | None:
        found = self._rows_to_spans(f"SELECT {_SPAN_COLUMNS} FROM spans WHERE id = ?", (span_id,))
        return found[0] if found else None

    def count_spans(self) -> int:
        return int(self._conn.execute("SELECT count(*) FROM spans").fetchone()[0])

    def segment_scores(self, system: str | None = None) -> list[SegmentScore]:
        sql = "SELECT system, segment, annotator, score, modified, extra FROM segment_scores"
        args: tuple[Any, ...] = ()
        if system is not None:
            sql += " WHERE system = ?"
            args = (system,)
        return [_score_from_row(r) for r in self._conn.execute(sql + " ORDER BY 1, 2, 3", args)]

    # -- writing annotations ---------------------------------------------------------------

    def _check_span(self, span: ErrorSpan) -> None:
        if self._cache.annotatable and span.system not in self._cache.annotatable:
            raise AnnotationError(f"{span.system!r} is not a system or reference of this session")
        if span.status is Status.CONFIRMED:
            validate_span(span, self._cache.typology, self._cache.mode)

    def add_span(self, span: ErrorSpan) -> None:
        """Insert a new span (its id must be new)."""
        self._check_span(span)
        with self.batch():
            try:
                self._conn.execute(_SPAN_INSERT, _span_row(span))
            except sqlite3.IntegrityError:
                raise AnnotationError(f"span {span.id} already exists") from None
            except sqlite3.Error as exc:
                raise self._error(exc) from None

    def update_span(self, span: ErrorSpan) -> None:
        """Replace the span with ``span.id`` by ``span``."""
        self._check_span(span)
        row = _span_row(span)
        with self.batch():
            try:
                cursor = self._conn.execute(_SPAN_UPDATE, (*row[1:], row[0]))
            except sqlite3.Error as exc:
                raise self._error(exc) from None
            if cursor.rowcount == 0:
                raise AnnotationError(f"no span {span.id} to update")

    def delete_span(self, span_id: str) -> None:
        with self.batch():
            try:
                cursor = self._conn.execute("DELETE FROM spans WHERE id = ?", (span_id,))
            except sqlite3.Error as exc:
                raise self._error(exc) from None
            if cursor.rowcount == 0:
                raise AnnotationError(f"no span {span_id} to delete")

    def set_segment_score(self, score: SegmentScore) -> None:
        """Set (or replace) one annotator's score / review mark of one segment."""
        if self._cache.annotatable and score.system not in self._cache.annotatable:
            raise AnnotationError(f"{score.system!r} is not a system or reference of this session")
        with self.batch():
            try:
                self._conn.execute(_SCORE_UPSERT, _score_row(score))
            except sqlite3.Error as exc:
                raise self._error(exc) from None

    def clear_segment_score(self, system: str, segment: int, annotator: str) -> None:
        with self.batch():
            try:
                self._conn.execute(
                    "DELETE FROM segment_scores WHERE system=? AND segment=? AND annotator=?",
                    (system, segment, annotator),
                )
            except sqlite3.Error as exc:
                raise self._error(exc) from None

    def add_many(
        self, spans: Iterable[ErrorSpan] = (), scores: Iterable[SegmentScore] = ()
    ) -> None:
        """Insert many spans and set many scores in one transaction (an import)."""
        span_list, score_list = list(spans), list(scores)
        for span in span_list:
            self._check_span(span)
        for score in score_list:
            if self._cache.annotatable and score.system not in self._cache.annotatable:
                raise AnnotationError(
                    f"{score.system!r} is not a system or reference of this session"
                )
        with self.batch():
            try:
                self._conn.executemany(_SPAN_INSERT, map(_span_row, span_list))
                self._conn.executemany(_SCORE_UPSERT, map(_score_row, score_list))
            except sqlite3.IntegrityError as exc:
                raise AnnotationError(f"a span id is already in the session ({exc})") from None
            except sqlite3.Error as exc:
                raise self._error(exc) from None

    def add_import(self, result: ImportResult) -> None:
        """Store an :class:`ImportResult`'s spans and scores in one transaction, and an MQM TSV
        file's layout (see :meth:`mqm_tsv_layout`)."""
        with self.batch():
            self.add_many(result.spans, result.scores)
            if result.layout is not None:
                self._conn.execute(
                    "INSERT OR REPLACE INTO meta (key, value) VALUES ('mqm_tsv_layout', ?)",
                    (_json(result.layout.to_json()),),
                )

    def set_mqm_tsv_layout(self, layout: TsvLayout) -> None:
        """Remember how an imported MQM TSV file was written (when its spans were stored
        another way than :meth:`add_import`, e.g. as one undoable step of the app)."""
        with self.batch():
            try:
                self._conn.execute(
                    "INSERT OR REPLACE INTO meta (key, value) VALUES ('mqm_tsv_layout', ?)",
                    (_json(layout.to_json()),),
                )
            except sqlite3.Error as exc:
                raise self._error(exc) from None

    def mqm_tsv_layout(self) -> TsvLayout | None:
        """The layout of the last MQM TSV file imported, to export it back the same way."""
        from matchlight.core.annotation.interchange import TsvLayout

        value = self._meta_values("mqm_tsv_layout").get("mqm_tsv_layout")
        return None if value is None else TsvLayout.from_json(json.loads(value))

    # -- imported columns ------------------------------------------------------------------

    def format_version(self) -> int:
        """The file's format version (``PRAGMA user_version``)."""
        return int(self._conn.execute("PRAGMA user_version").fetchone()[0])

    def _has_imports_table(self) -> bool:
        row = self._conn.execute(
            "SELECT 1 FROM sqlite_master WHERE type='table' AND name='imports'"
        ).fetchone()
        return row is not None

    def imports(self) -> list[ScoreImport | LabelImport]:
        """The imported columns, in the order they were first stored (none in a format-1
        file). An unreadable one raises SessionError; a salvage copy skips it (noted in
        :attr:`problems`)."""
        if not self._has_imports_table():
            return []
        salvage = self._temp_dir is not None
        try:
            rows = self._conn.execute(
                "SELECT kind, key, definition, data FROM imports ORDER BY position, kind, key"
            ).fetchall()
        except sqlite3.DatabaseError as exc:
            if not salvage:
                raise SessionError(f"the session file is damaged: {exc}", self._path) from None
            self.problems.append(f"cannot read the imported columns: {exc}")
            return []
        found: list[ScoreImport | LabelImport] = []
        for kind, key, definition, data in rows:
            try:
                found.append(import_from_json(kind, definition, data))
            except (ValueError, KeyError, TypeError) as exc:
                message = f"the imported column {key!r} is unreadable: {exc}"
                if not salvage:
                    raise SessionError(message, self._path) from None
                self.problems.append(message)
        return found

    def save_import(self, record: ScoreImport | LabelImport) -> None:
        """Store an imported column (replacing one of the same kind and key), in one
        transaction; upgrades a format-1 file to format 2 first."""
        kind = "scores" if isinstance(record, ScoreImport) else "labels"
        definition = _json(record.definition())
        data = record.data()
        with self.batch():
            try:
                if self.format_version() < _IMPORTS_VERSION:
                    self._conn.execute(_IMPORTS_SCHEMA)
                    self._conn.execute(f"PRAGMA user_version={_IMPORTS_VERSION}")
                row = self._conn.execute(
                    "SELECT position FROM imports WHERE kind=? AND key=?", (kind, record.key)
                ).fetchone()
                if row is None:
                    top = self._conn.execute("SELECT max(position) FROM imports").fetchone()[0]
                    position = 0 if top is None else int(top) + 1
                else:
                    position = int(row[0])
                self._conn.execute(
                    "INSERT OR REPLACE INTO imports (kind, key, position, definition, data) "
                    "VALUES (?, ?, ?, ?, ?)",
                    (kind, record.key, position, definition, data),
                )
            except sqlite3.Error as exc:
                raise self._error(exc) from None

    def remove_import(self, kind: str, key: str) -> bool:
        """Forget an imported column (``kind`` scores or labels); False if there was none."""
        if not self._has_imports_table():
            return False
        with self.batch():
            try:
                cursor = self._conn.execute(
                    "DELETE FROM imports WHERE kind=? AND key=?", (kind, key)
                )
            except sqlite3.Error as exc:
                raise self._error(exc) from None
        return cursor.rowcount > 0

    # -- inputs and anchoring --------------------------------------------------------------

    def check_inputs(
        self, paths: Sequence[str | os.PathLike[str]] | None = None
    ) -> list[InputCheck]:
        """Compare each input's recorded hash with the file now at ``paths[i]`` (same order as
        :meth:`inputs`; None: the recorded paths)."""
        recorded = self.inputs()
        if paths is not None and len(paths) != len(recorded):
            raise SessionError(
                f"the session has {len(recorded)} inputs; {len(paths)} paths were given", self._path
            )
        checks: list[InputCheck] = []
        for k, item in enumerate(recorded):
            path = item.path if paths is None else os.fspath(paths[k])
            try:
                size = os.path.getsize(path)
                sha = None if size != item.size else file_digest(path)[0]
            except OSError:
                checks.append(InputCheck(item, path, "missing"))
                continue
            status = "same" if sha == item.sha256 else "changed"
            checks.append(InputCheck(item, path, status, sha))
        return checks

    def reanchor(self, lines: Mapping[str, Sequence[str]], *, apply: bool = True) -> ReanchorReport:
        """Re-anchor every span against ``lines`` (system name -> current lines).

        Re-attached spans get their new offsets written (one transaction) unless ``apply`` is
        False or the session is read-only; flagged spans are left as they are.
        """
        results = reanchor_all(self.spans(), lines)
        moved = tuple(r.span for r in results if r.state is AnchorState.REATTACHED)
        flagged = tuple(r.span for r in results if r.state is AnchorState.FLAGGED)
        kept = sum(1 for r in results if r.state is AnchorState.KEPT)
        if apply and moved and not self._read_only:
            with self.batch():
                for span in moved:
                    row = _span_row(span)
                    self._conn.execute(_SPAN_UPDATE, (*row[1:], row[0]))
        return ReanchorReport(kept, moved, flagged)

    # -- saving elsewhere ------------------------------------------------------------------

    def save_as(self, path: str | os.PathLike[str], *, switch: bool = True) -> Path:
        """Copy the session to ``path`` atomically; with ``switch``, continue in the new file.

        The copy is taken with SQLite's backup API (a consistent snapshot, WAL included) and
        written by :func:`~matchlight.core.io.safewrite.write_file_atomic`: a temporary file in
        the target folder, fsynced, renamed over the target. It never replaces one of the
        comparison's input files, nor a file that is not a Matchlight session, nor a session
        open in another window. A session that lived in the recovery folder (never saved) is
        removed from there after switching.
        """
        target = Path(path)
        if target.exists() and os.path.samefile(target, self._path):
            raise SessionError("the session is already saved there", target)
        for item in self.inputs():
            if (
                target.exists()
                and os.path.exists(item.path)
                and os.path.samefile(target, item.path)
            ):
                raise SessionError(
                    f"refusing to overwrite the input {item.path} (choose another file name)",
                    target,
                )
        if target.exists():
            _check_header(target)
            if _owner_alive(*self._owner_of(target)):
                raise SessionError("that session is open in another Matchlight window", target)
        try:
            memory = sqlite3.connect(":memory:", isolation_level=None)
            try:
                self._conn.backup(memory)
                memory.execute("DELETE FROM meta WHERE key IN ('owner_pid', 'owner_host')")
                data = memory.serialize()
            finally:
                memory.close()
        except sqlite3.Error as exc:
            raise SessionError(f"cannot copy the session: {exc}", self._path) from None
        target.parent.mkdir(parents=True, exist_ok=True)
        # A stale WAL next to the old target would be replayed into the new file.
        for suffix in ("-wal", "-shm"):
            Path(str(target) + suffix).unlink(missing_ok=True)
        try:
            write_file_atomic(
                target, data, protect=[i.path for i in self.inputs()], allow_session=True
            )
        except OSError as exc:
            raise SessionError(f"cannot save the session: {exc.strerror or exc}", target) from None
        if switch:
            old = self._path
            was_untitled = is_in_recovery_dir(old) and self._temp_dir is None
            self.close()
            _verify(target)
            self._connection = self._connect(target)
            self._path = target
            self._read_only = False
            self.problems = []
            self._load_cache()
            self._claim()
            if was_untitled:
                _remove_database(old)
        return target

    @staticmethod
    def _owner_of(path: Path) -> tuple[str | None, str | None]:
        """(pid, host) of the window that has ``path`` open, as recorded in it."""
        try:
            other = sqlite3.connect(_ro_uri(path), uri=True)
            try:
                rows = other.execute(
                    "SELECT key, value FROM meta WHERE key IN ('owner_pid', 'owner_host')"
                ).fetchall()
            finally:
                other.close()
        except sqlite3.Error:
            return None, None  # a damaged session is nobody's
        owner = dict(rows)
        return owner.get("owner_pid"), owner.get("owner_host")

    # -- summaries -------------------------------------------------------------------------

    def summary(self) -> dict[str, Any]:
        """Counts for a recovery list or a status bar."""
        by_status = dict(
            self._conn.execute("SELECT status, count(*) FROM spans GROUP BY status").fetchall()
        )
        return {
            "spans": sum(by_status.values()),
            "by_status": by_status,
            "segment_scores": int(
                self._conn.execute("SELECT count(*) FROM segment_scores").fetchone()[0]
            ),
        }


def iter_sessions(folder: str | os.PathLike[str]) -> Iterator[Path]:
    """The ``*.matchlight`` files directly in ``folder`` (none if it does not exist)."""
    base = Path(folder)
    if not base.is_dir():
        return iter(())
    return iter(sorted(p for p in base.iterdir() if p.suffix == SUFFIX and p.is_file()))
