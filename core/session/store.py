"""The session file: one SQLite database ``NAME.matchlight`` holding a comparison's annotation work.

It records the inputs (role, name, path, the path relative to the session file, how the file was
read, sha256 and size of the content), the scoring settings, the baseline, the selection and
layout, the annotation mode, typology and MQM weights, every error span (one row each), the
segment scores, and the columns the user imported with their values (:mod:`.imported`). What the
settings, baseline, selection and layout hold is :mod:`.document`'s; this module is the file.

Crash safety: the database is in WAL mode with ``synchronous=NORMAL``, and every change is one
transaction committed before the call returns; a killed process loses nothing it reported as
saved. The disk is left to a thread of the store's own (:mod:`.flusher`): a moment after each
commit it fsyncs the log, checkpoints it into the file and empties it, so that a power loss
loses at most the edits of that moment (never the file's consistency), the file on disk is
complete between edits, and the thread editing never waits on the disk. :meth:`SessionStore.sync`
waits for it; closing the store does.

A file is ours while we write it (:mod:`.ownership`): a session opened for writing holds an
exclusive lock, so a second writer is refused, and before each commit the store checks that the
file at its path is still the one it opened. A deleted, moved, replaced or overwritten session is
never written again: :class:`SessionError` with ``kind="lost"``, which the workspace answers by
keeping the edits in memory until the user saves them elsewhere. A full disk is
``kind="disk-full"`` (the edit is kept and can be written later), a file or folder that cannot be
written ``kind="read-only"`` before anything is touched.

A file is checked before it is used: anything but a regular file (a FIFO, a device) is refused
before it is opened; a file that is not a Matchlight session (the SQLite header's application
id), one written by a newer Matchlight (``PRAGMA user_version`` above :data:`SCHEMA_VERSION`) or a
damaged one (``PRAGMA quick_check``) raises :class:`SessionError` and is never modified: the
header is read as bytes and the check runs on a read-only connection.

Format versions: see :mod:`.records`. An older file is read as it is and only upgraded where a
change needs it (its first import, a Save as).
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import tempfile
from collections.abc import Iterator, Mapping, Sequence
from contextlib import AbstractContextManager, suppress
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING, Any, Final

from matchlight.core import __version__
from matchlight.core.annotation.model import (
    AnnotationError,
    utc_now,
)
from matchlight.core.annotation.mqm import DEFAULT_WEIGHTS, MQMWeights
from matchlight.core.annotation.typology import (
    DEFAULT_TYPOLOGY,
    AnnotationMode,
    Typology,
)
from matchlight.core.io.files import file_digest
from matchlight.core.io.safewrite import write_file_atomic
from matchlight.core.session.files import (
    APPLICATION_ID,
    FORMAT_MARK,
    MAX_SESSION_BYTES,
    ROLES,
    SCHEMA_VERSION,
    SUFFIX,
    SessionError,
    SessionErrorKind,
    check_header,
    check_regular,
    has_log,
    not_writable,
    remove_database,
    ro_uri,
    verify,
)
from matchlight.core.session.flusher import Flusher
from matchlight.core.session.inputs import InputCheck, SessionInput, check_input
from matchlight.core.session.locations import is_in_recovery_dir
from matchlight.core.session.ownership import WriteLock, held_elsewhere
from matchlight.core.session.records import (
    IMPORTS_SCHEMA,
    INPUT_COLUMNS_V3,
    SCHEMA,
    STATE_KEYS,
    SessionState,
    StateParts,
    current_format_copy,
    read_mode,
    read_state,
    read_typology,
    state_values,
)
from matchlight.core.session.tables import AnnotationTables, ReanchorReport

if TYPE_CHECKING:  # typing.Unpack is Python 3.12's
    from typing_extensions import Unpack

__all__ = [
    "APPLICATION_ID",
    "MAX_SESSION_BYTES",
    "ROLES",
    "SCHEMA_VERSION",
    "SUFFIX",
    "InputCheck",
    "ReanchorReport",
    "SessionError",
    "SessionErrorKind",
    "SessionInput",
    "SessionState",
    "SessionStore",
    "file_digest",
    "iter_sessions",
]


#: The page cache of a session connection, in KiB (SQLite's default is 2,000).
_CACHE_KIB: Final = 32_768


def _error_name(exc: Exception) -> str:
    return str(getattr(exc, "sqlite_errorname", "") or "")


class _Transaction(AbstractContextManager[None]):
    """One write transaction (BEGIN IMMEDIATE ... COMMIT); nested uses join the outer one.

    Before it begins, the file must still be the store's (:meth:`SessionStore.check_ours`);
    after it commits, the store's flusher puts it on the disk. A failed COMMIT is rolled back
    quietly, so the error the user sees is the one that made it fail (a full disk), not the
    rollback's."""

    def __init__(self, store: SessionStore) -> None:
        self._store = store

    def __enter__(self) -> None:
        store = self._store
        store._require_writable()
        if store._depth == 0:
            store._require_ours()
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
        conn = store._conn
        if exc_type is not None:
            with suppress(sqlite3.Error):
                conn.execute("ROLLBACK")
            return
        try:
            conn.execute("COMMIT")
        except sqlite3.Error as err:
            with suppress(sqlite3.Error):
                conn.execute("ROLLBACK")
            raise store._error(err) from None
        store._after_commit()


@dataclass
class _Cache:
    mode: AnnotationMode = AnnotationMode.MQM
    typology: Typology = DEFAULT_TYPOLOGY
    annotatable: frozenset[str] = field(default_factory=frozenset)


class SessionStore(AnnotationTables):
    """An open session file. Use :meth:`create`, :meth:`open` or :meth:`open_copy_read_only`.

    Every write method is one committed transaction (or joins the one :meth:`batch` opened).
    Span validation: a span must belong to a system or reference of the session; a CONFIRMED span
    must satisfy the session's typology and mode (:func:`validate_span`). The store implements
    :class:`~matchlight.core.annotation.history.AnnotationSink`, so undo/redo commands apply to it.
    A store is used from one thread at a time (it may be opened in a worker and handed over).
    """

    def __init__(
        self,
        conn: sqlite3.Connection,
        path: Path,
        *,
        read_only: bool,
        lock: WriteLock | None = None,
    ) -> None:
        """Internal: use the class methods."""
        self._connection: sqlite3.Connection | None = conn
        self._path = path
        self._read_only = read_only
        self._lock = lock
        self._lost: str | None = None
        self._depth = 0
        self._cache = _Cache()
        self._temp_dir: Path | None = None
        self._origin: Path | None = None
        self._flusher: Flusher | None = None
        #: Problems found while opening a salvage copy (:meth:`open_copy_read_only`).
        self.problems: list[str] = []
        self._load_cache()
        self._start_flusher()

    # -- opening and creating --------------------------------------------------------------

    @staticmethod
    def _connect(path: Path) -> sqlite3.Connection:
        conn = sqlite3.connect(path, isolation_level=None, timeout=5.0, check_same_thread=False)
        try:
            mode = conn.execute("PRAGMA journal_mode=WAL").fetchone()[0]
            if str(mode).lower() != "wal":
                raise SessionError(
                    f"cannot use write-ahead logging here (journal mode {mode})", path
                )
            # A commit survives a killed process without waiting for the disk; the store's
            # flusher fsyncs and checkpoints after it (see the module).
            conn.execute("PRAGMA synchronous=NORMAL")
            conn.execute("PRAGMA wal_autocheckpoint=0")
            # Room for an import's index pages: a small cache spills them into the log
            # mid-transaction and writes them again.
            conn.execute(f"PRAGMA cache_size=-{_CACHE_KIB}")
        except BaseException:
            conn.close()
            raise
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
        """A new session at ``path``, which must not exist yet. The inputs are recorded with
        their paths relative to the session's folder as well."""
        target = Path(path)
        if target.exists() or Path(str(target) + "-wal").exists():
            raise SessionError("a file of that name already exists", target, kind="exists")
        names = [(i.role, i.name) for i in inputs]
        if len(set(names)) != len(names):
            raise SessionError("two inputs of the same role have the same name", target)
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise SessionError(
                f"cannot create the session's folder: {exc.strerror or exc}", target
            ) from None
        folder = target.parent
        recorded = [i.relative_to(folder) for i in inputs]
        try:
            conn = cls._connect(target)
            conn.execute(f"PRAGMA application_id={APPLICATION_ID}")
            conn.executescript(f"BEGIN IMMEDIATE;{SCHEMA}{IMPORTS_SCHEMA}COMMIT;")
        except sqlite3.Error as exc:
            remove_database(target)
            raise SessionError(f"cannot create the session: {exc}", target) from None
        now = utc_now().isoformat()
        meta = {"format": FORMAT_MARK, "created": now, "app_version": __version__}
        meta |= state_values(
            settings=settings,
            baseline=baseline,
            selection=selection,
            layout=layout,
            mode=mode,
            typology=typology,
            weights=weights,
            annotator=annotator,
        )
        try:
            conn.execute("BEGIN IMMEDIATE")
            conn.executemany("INSERT INTO meta (key, value) VALUES (?, ?)", meta.items())
            conn.executemany(
                "INSERT INTO inputs (position, role, name, path, sha256, size, relative, "
                "column_name, fmt) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [
                    (k, i.role, i.name, i.path, i.sha256, i.size, i.relative, i.column, i.fmt)
                    for k, i in enumerate(recorded)
                ],
            )
            conn.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
            conn.execute("COMMIT")
            # The header (application id, version) goes into the main file at once, so a
            # later open can check it from the bytes alone.
            conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            lock = WriteLock(target)
        except (sqlite3.Error, OSError) as exc:
            conn.close()
            remove_database(target)
            raise SessionError(f"cannot create the session: {exc}", target) from None
        store = cls(conn, target, read_only=False, lock=lock)
        return store

    @classmethod
    def open(cls, path: str | os.PathLike[str], *, read_only: bool = False) -> SessionStore:
        """Open an existing session; SessionError (file untouched) if it is not usable.

        For writing, the file and its folder must be writable (``kind="read-only"`` otherwise)
        and nobody else may have it open for writing (``kind="busy"``). ``read_only`` opens it
        without taking it: every write raises.
        """
        target = Path(path)
        check_header(target)
        if read_only:
            verify(target)
            try:
                conn = sqlite3.connect(
                    ro_uri(target, immutable=not has_log(target)),
                    uri=True,
                    isolation_level=None,
                    check_same_thread=False,
                )
                conn.execute("PRAGMA query_only=1")
                version = conn.execute("PRAGMA user_version").fetchone()[0]
            except sqlite3.Error as exc:
                raise SessionError(f"cannot open the session: {exc}", target) from None
            store = cls(conn, target, read_only=True)
            store._check_version(version)
            return store
        problem = not_writable(target)
        if problem is not None:
            raise SessionError(
                f"this session cannot be saved to: {problem}. Open a read-only copy to see it, "
                "and use Save as to keep working on it.",
                target,
                kind="read-only",
            )
        try:
            lock = WriteLock(target)
        except BlockingIOError:
            raise SessionError(
                "this session is open in another Matchlight window; open a read-only copy instead",
                target,
                kind="busy",
            ) from None
        except OSError as exc:
            raise SessionError(f"cannot open the session: {exc.strerror or exc}", target) from None
        try:
            verify(target)
            try:
                conn = cls._connect(target)
                version = conn.execute("PRAGMA user_version").fetchone()[0]
            except sqlite3.Error as exc:
                raise SessionError(f"cannot open the session: {exc}", target) from None
            store = cls(conn, target, read_only=False, lock=lock)
        except BaseException:
            lock.release()
            raise
        store._check_version(version)
        return store

    def _check_version(self, version: int) -> None:
        if version > SCHEMA_VERSION:
            self.close()
            raise SessionError(
                f"written by a newer Matchlight (format {version})", self._path, kind="newer"
            )

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
        check_header(source)
        temp = Path(tempfile.mkdtemp(prefix="matchlight-readonly-"))
        copy = temp / source.name
        try:
            # The log before the file: a checkpoint in between (the writer's flusher) moves
            # the log's pages into the file before it empties the log, so the copy has them.
            wal = Path(str(source) + "-wal")
            if wal.exists():
                check_regular(wal, what="session log", cap=MAX_SESSION_BYTES)
                shutil.copyfile(wal, Path(str(copy) + "-wal"))
            shutil.copyfile(source, copy)
            conn = sqlite3.connect(copy, isolation_level=None, check_same_thread=False)
            try:
                problems = [row[0] for row in conn.execute("PRAGMA quick_check(20)")]
            except sqlite3.DatabaseError as exc:
                problems = [str(exc)]
            conn.execute("PRAGMA query_only=1")
        except (OSError, sqlite3.Error, SessionError) as exc:
            shutil.rmtree(temp, ignore_errors=True)
            raise SessionError(f"cannot read a copy of the session: {exc}", source) from None
        try:
            store = cls(conn, copy, read_only=True)
        except (SessionError, sqlite3.Error, ValueError) as exc:
            conn.close()
            shutil.rmtree(temp, ignore_errors=True)
            raise SessionError(f"cannot read a copy of the session: {exc}", source) from None
        store._temp_dir = temp
        store._origin = source
        if problems != ["ok"]:
            store.problems.extend(f"damaged: {p}" for p in problems)
        return store

    # -- basics ----------------------------------------------------------------------------

    @property
    def _conn(self) -> sqlite3.Connection:
        if self._connection is None:
            raise SessionError("the session is closed", self._path, kind="closed")
        return self._connection

    @property
    def path(self) -> Path:
        return self._path

    @property
    def origin(self) -> Path:
        """The file this store shows: its own path, or the original of a read-only copy."""
        return self._origin if self._origin is not None else self._path

    @property
    def read_only(self) -> bool:
        return self._read_only

    @property
    def lost(self) -> str | None:
        """Why the file at :attr:`path` is no longer this session's (nothing is written to it
        any more), or None."""
        return self._lost

    def check_ours(self) -> str | None:
        """Check now that the file is still the one opened (a timer may call this between
        edits); returns why not, or None. Once lost, a store stays lost.

        While a pass of the flusher writes into the file, nobody waits for the pass (after a
        large import it takes a disk's time): only whether the path still holds our file is
        checked then (deleted, moved, replaced), since its size and times are changing under
        our own hand. Its content is checked by the pass itself, as it began, and by every
        pass before it moves anything more into it: a file written over in place meanwhile
        (``cp``) gets no commit made after it, and is found lost by the next pass."""
        flusher = self._flusher
        if flusher is None:
            return self._check_now()
        if not flusher.file_lock.acquire(blocking=False):
            return self._check_now(content=False)
        try:
            return self._check_now()
        finally:
            flusher.file_lock.release()

    def _check_now(self, *, content: bool = True) -> str | None:
        if self._lost is None and self._lock is not None and self._connection is not None:
            self._lost = self._lock.check(content=content)
        return self._lost

    def _on_lost(self, reason: str) -> None:
        """The flusher found the file not ours (on its thread)."""
        if self._lost is None:
            self._lost = reason

    def _require_ours(self) -> None:
        reason = self.check_ours()
        if reason is not None:
            raise SessionError(
                f"{reason}; nothing more is written to it. Your edits are kept: use Save as "
                "to keep them in a file.",
                self._path,
                kind="lost",
            )

    def _start_flusher(self) -> None:
        if self._flusher is None and self._lock is not None and not self._read_only:
            self._flusher = Flusher(self._path, self._lock, self._on_lost)

    def _after_commit(self) -> None:
        """Have the commit put on the disk and moved into the file (by the flusher, which
        then notes the file as it left it: the baseline of the next :meth:`check_ours`)."""
        if self._flusher is not None:
            self._flusher.request()
            return
        with suppress(sqlite3.Error):
            self._conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        if self._lock is not None:
            self._lock.settle()

    def sync(self) -> None:
        """Wait until every edit committed so far is on the disk and in the file (not only in
        its log): what the flusher does a moment after each commit."""
        if self._flusher is not None:
            self._flusher.sync()

    def _error(self, exc: Exception) -> SessionError:
        name, text = _error_name(exc), str(exc)
        if name == "SQLITE_FULL" or "disk is full" in text:
            return SessionError(
                "the disk is full; the edit is kept in memory and saved as soon as there is "
                "room (or use Save as to keep it elsewhere)",
                self._path,
                kind="disk-full",
            )
        if name.startswith(("SQLITE_BUSY", "SQLITE_LOCKED")) or "locked" in text:
            return SessionError(
                "the session is busy in another program; try again", self._path, kind="busy"
            )
        if name.startswith("SQLITE_READONLY") or "readonly" in text:
            return SessionError(
                "the session file became read-only; use Save as to keep your edits elsewhere",
                self._path,
                kind="read-only",
            )
        return SessionError(f"cannot save to the session: {exc}", self._path, kind="io")

    def _require_writable(self) -> None:
        if self._read_only:
            raise SessionError("this session is open read-only", self._path, kind="read-only")

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
            self._cache.mode = read_mode(meta)
            self._cache.typology = read_typology(meta)
        except (ValueError, AnnotationError, RecursionError) as exc:
            raise SessionError(
                f"the session's settings are unreadable: {exc}", self._path, kind="damaged"
            ) from None
        self._cache.annotatable = frozenset(
            row[0]
            for row in self._conn.execute(
                "SELECT name FROM inputs WHERE role IN ('system', 'reference')"
            )
        )

    def close(self) -> None:
        """Release the file, once the flusher has put the last edits on the disk. Nothing
        else is written on the way out: every edit is already in it."""
        conn, self._connection = self._connection, None
        if conn is None:
            return
        flusher, self._flusher = self._flusher, None
        try:
            if flusher is not None:
                flusher.close()
            conn.close()
        finally:
            self._depth = 0
            if self._lock is not None:
                self._lock.release()
                self._lock = None
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

    def _input_columns(self) -> tuple[str, ...]:
        present = {row[1] for row in self._conn.execute("PRAGMA table_info(inputs)")}
        return tuple(c if c in present else "NULL" for c in INPUT_COLUMNS_V3)

    def inputs(self) -> tuple[SessionInput, ...]:
        extra = ", ".join(self._input_columns())
        rows = self._conn.execute(
            f"SELECT role, name, path, sha256, size, {extra} FROM inputs ORDER BY position"
        )
        return tuple(SessionInput(*row) for row in rows)

    def state(self) -> SessionState:
        try:
            return read_state(self._meta_values(*STATE_KEYS))
        except (ValueError, AnnotationError, RecursionError) as exc:
            raise SessionError(
                f"the session's settings are unreadable: {exc}", self._path, kind="damaged"
            ) from None

    def save_state(self, **parts: Unpack[StateParts]) -> None:
        """Store the given parts of the state (others stay as they are), in one transaction."""
        values = state_values(**parts)
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

    # -- inputs and anchoring --------------------------------------------------------------

    def check_inputs(
        self, paths: Sequence[str | os.PathLike[str]] | None = None
    ) -> list[InputCheck]:
        """Find each input and compare its recorded hash with the file found.

        Without ``paths`` each input is looked for relative to the session file first, then at
        its recorded absolute path (:meth:`SessionInput.candidates`); the first file with the
        recorded content wins, else the first that exists (``changed``), else ``missing``. With
        ``paths`` (same order as :meth:`inputs`) only those files are checked. Hashing reads the
        files: call this off the GUI thread.
        """
        recorded = self.inputs()
        if paths is not None and len(paths) != len(recorded):
            raise SessionError(
                f"the session has {len(recorded)} inputs; {len(paths)} paths were given", self._path
            )
        folder = self.origin.parent
        checks: list[InputCheck] = []
        for k, item in enumerate(recorded):
            where = item.candidates(folder) if paths is None else [os.fspath(paths[k])]
            checks.append(check_input(item, where))
        return checks

    # -- saving elsewhere ------------------------------------------------------------------

    def snapshot(self, folder: str | os.PathLike[str] | None = None) -> bytes:
        """The whole session as the bytes of a session file, consistent (WAL included), with
        the inputs' relative paths made for a file in ``folder`` (None: this file's folder) and
        no owner noted. An older file comes out in the current format."""
        target_folder = Path(folder) if folder is not None else self.origin.parent
        try:
            return current_format_copy(self._conn, target_folder)
        except sqlite3.Error as exc:
            raise SessionError(f"cannot copy the session: {exc}", self._path) from None

    def save_as(self, path: str | os.PathLike[str], *, switch: bool = True) -> Path:
        """Copy the session to ``path`` atomically; with ``switch``, continue in the new file.

        The copy is a consistent snapshot (:meth:`snapshot`) written by
        :func:`~matchlight.core.io.safewrite.write_file_atomic`: a temporary file in the target
        folder, fsynced, renamed over the target. It never replaces one of the comparison's input
        files, nor a file that is not a Matchlight session, nor a session open for writing
        anywhere. A session that lived in the recovery folder (never saved) is removed from
        there after switching.
        """
        target = Path(path)
        if target.exists() and os.path.samefile(target, self._path):
            raise SessionError("the session is already saved there", target)
        protect = [i.path for i in self.inputs()]
        for item in protect:
            if target.exists() and os.path.exists(item) and os.path.samefile(target, item):
                raise SessionError(
                    f"refusing to overwrite the input {item} (choose another file name)", target
                )
        if target.exists():
            if held_elsewhere(target):
                raise SessionError(
                    "that session is open in a Matchlight window", target, kind="busy"
                )
            check_header(target)
        data = self.snapshot(target.parent)
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
            # A stale log next to the old target would be replayed into the new file.
            for suffix in ("-wal", "-shm"):
                Path(str(target) + suffix).unlink(missing_ok=True)
            write_file_atomic(target, data, protect=protect, allow_session=True)
        except OSError as exc:
            raise SessionError(f"cannot save the session: {exc.strerror or exc}", target) from None
        if switch:
            old = self._path
            was_untitled = is_in_recovery_dir(old) and self._temp_dir is None
            self.close()
            verify(target)
            lock = WriteLock(target)
            try:
                self._connection = self._connect(target)
            except BaseException:
                lock.release()
                raise
            self._lock = lock
            self._lost = None
            self._path = target
            self._origin = None
            self._read_only = False
            self.problems = []
            self._load_cache()
            self._start_flusher()
            if was_untitled:
                remove_database(old)
        return target

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
