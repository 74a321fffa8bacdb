"""The session's annotation and import tables: reading and writing spans, segment scores and
imported columns, and re-anchoring spans on changed lines (the part of
:class:`~.store.SessionStore` that is about rows, not the file).

:class:`AnnotationTables` is a base of the store: it relies on the store's connection,
transactions, error mapping and cache, declared below for the type checker.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Mapping, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

from matchlight.core.annotation.anchoring import AnchorState, reanchor_all
from matchlight.core.annotation.model import AnnotationError, ErrorSpan, SegmentScore, Status
from matchlight.core.annotation.typology import validate_span
from matchlight.core.session.files import SessionError
from matchlight.core.session.imported import LabelImport, ScoreImport, import_from_json
from matchlight.core.session.records import (
    IMPORTS_SCHEMA,
    SCORE_UPSERT,
    SPAN_COLUMNS,
    SPAN_INSERT,
    SPAN_UPDATE,
    dumps,
    load,
    score_from_row,
    score_row,
    span_from_row,
    span_row,
)

if TYPE_CHECKING:  # importing interchange at run time would load the input readers
    from matchlight.core.annotation.interchange import ImportResult, TsvLayout

__all__ = ["AnnotationTables", "ReanchorReport"]

#: The first version with the ``imports`` table.
IMPORTS_VERSION: Final = 2


@dataclass(frozen=True, slots=True)
class ReanchorReport:
    """Where the spans are on the current lines: how many kept, which moved, which are lost."""

    kept: int
    reattached: tuple[ErrorSpan, ...]
    flagged: tuple[ErrorSpan, ...]


class AnnotationTables:
    """Spans, segment scores and imported columns of a session file."""

    if TYPE_CHECKING:
        _path: Path
        _temp_dir: Path | None
        problems: list[str]

        _cache: Any

        @property
        def _conn(self) -> sqlite3.Connection: ...

        def _error(self, exc: Exception) -> SessionError: ...

        def _meta_values(self, *keys: str) -> dict[str, str]: ...

        _read_only: bool

        def batch(self) -> AbstractContextManager[None]: ...

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
                spans.append(span_from_row(row))
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
        spans = self._rows_to_spans(f"SELECT {SPAN_COLUMNS} FROM spans{clause}", args)
        return sorted(spans, key=lambda s: (s.system, s.segment, s.start, s.end, s.created))

    def get_span(self, span_id: str) -> ErrorSpan | None:
        found = self._rows_to_spans(f"SELECT {SPAN_COLUMNS} FROM spans WHERE id = ?", (span_id,))
        return found[0] if found else None

    def count_spans(self) -> int:
        return int(self._conn.execute("SELECT count(*) FROM spans").fetchone()[0])

    def segment_scores(self, system: str | None = None) -> list[SegmentScore]:
        sql = "SELECT system, segment, annotator, score, modified, extra FROM segment_scores"
        args: tuple[Any, ...] = ()
        if system is not None:
            sql += " WHERE system = ?"
            args = (system,)
        try:
            rows = self._conn.execute(sql + " ORDER BY 1, 2, 3", args).fetchall()
            return [score_from_row(r) for r in rows]
        except (sqlite3.DatabaseError, ValueError, TypeError, KeyError, AnnotationError) as exc:
            raise SessionError(
                f"the session's segment scores are unreadable: {exc}", self._path, kind="damaged"
            ) from None

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
                self._conn.execute(SPAN_INSERT, span_row(span))
            except sqlite3.IntegrityError:
                raise AnnotationError(f"span {span.id} already exists") from None
            except sqlite3.Error as exc:
                raise self._error(exc) from None

    def update_span(self, span: ErrorSpan) -> None:
        """Replace the span with ``span.id`` by ``span``."""
        self._check_span(span)
        row = span_row(span)
        with self.batch():
            try:
                cursor = self._conn.execute(SPAN_UPDATE, (*row[1:], row[0]))
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
                self._conn.execute(SCORE_UPSERT, score_row(score))
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
                self._conn.executemany(SPAN_INSERT, map(span_row, span_list))
                self._conn.executemany(SCORE_UPSERT, map(score_row, score_list))
            except sqlite3.IntegrityError as exc:
                raise AnnotationError(f"a span id is already in the session ({exc})") from None
            except sqlite3.Error as exc:
                raise self._error(exc) from None

    def delete_many(self, span_ids: Iterable[str]) -> None:
        """Delete many spans in one transaction (an import undone); every id must be there,
        else AnnotationError and nothing is deleted."""
        ids = list(span_ids)
        with self.batch():
            try:
                before = self._conn.total_changes
                self._conn.executemany("DELETE FROM spans WHERE id = ?", ((i,) for i in ids))
                deleted = self._conn.total_changes - before
            except sqlite3.Error as exc:
                raise self._error(exc) from None
            if deleted != len(ids):
                raise AnnotationError(
                    f"{len(ids) - deleted} of the {len(ids)} spans to delete are not there"
                )

    def add_import(self, result: ImportResult) -> None:
        """Store an :class:`ImportResult`'s spans and scores in one transaction, and an MQM TSV
        file's layout (see :meth:`mqm_tsv_layout`)."""
        with self.batch():
            self.add_many(result.spans, result.scores)
            if result.layout is not None:
                self._conn.execute(
                    "INSERT OR REPLACE INTO meta (key, value) VALUES ('mqm_tsv_layout', ?)",
                    (dumps(result.layout.to_json()),),
                )

    def set_mqm_tsv_layout(self, layout: TsvLayout) -> None:
        """Remember how an imported MQM TSV file was written (when its spans were stored
        another way than :meth:`add_import`, e.g. as one undoable step of the app)."""
        with self.batch():
            try:
                self._conn.execute(
                    "INSERT OR REPLACE INTO meta (key, value) VALUES ('mqm_tsv_layout', ?)",
                    (dumps(layout.to_json()),),
                )
            except sqlite3.Error as exc:
                raise self._error(exc) from None

    def mqm_tsv_layout(self) -> TsvLayout | None:
        """The layout of the last MQM TSV file imported, to export it back the same way."""
        from matchlight.core.annotation.interchange import TsvLayout

        value = self._meta_values("mqm_tsv_layout").get("mqm_tsv_layout")
        try:
            return None if value is None else TsvLayout.from_json(load(value))
        except (ValueError, TypeError, KeyError) as exc:
            raise SessionError(
                f"the imported TSV file's layout is unreadable: {exc}", self._path, kind="damaged"
            ) from None

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
        definition = dumps(record.definition())
        data = record.data()
        with self.batch():
            try:
                if self.format_version() < IMPORTS_VERSION:
                    self._conn.execute(IMPORTS_SCHEMA)
                    self._conn.execute(f"PRAGMA user_version={IMPORTS_VERSION}")
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

    # -- re-anchoring ----------------------------------------------------------------------

    def reanchor(
        self,
        lines: Mapping[str, Sequence[str]],
        *,
        sources: Sequence[str] | None = None,
        apply: bool = True,
    ) -> ReanchorReport:
        """Re-anchor every span of the file against ``lines`` (system name -> current lines),
        and source spans against ``sources`` (the current source lines; None leaves them as
        they are). See :meth:`reanchor_spans`."""
        return self.reanchor_spans(self.spans(), lines, sources=sources, apply=apply)[1]

    def reanchor_spans(
        self,
        spans: Iterable[ErrorSpan],
        lines: Mapping[str, Sequence[str]],
        *,
        sources: Sequence[str] | None = None,
        apply: bool = True,
    ) -> tuple[list[ErrorSpan], ReanchorReport]:
        """Where ``spans`` (read from this file) are on the changed lines: every span as it is
        now, and what moved or was lost.

        Re-attached spans get their new offsets written (one transaction) unless ``apply`` is
        False or the session is read-only; flagged spans are left as they are.
        """
        results = reanchor_all(spans, lines, sources=sources)
        moved = tuple(r.span for r in results if r.state is AnchorState.REATTACHED)
        flagged = tuple(r.span for r in results if r.state is AnchorState.FLAGGED)
        kept = sum(1 for r in results if r.state is AnchorState.KEPT)
        if apply and moved and not self._read_only:
            with self.batch():
                for span in moved:
                    self.update_span(span)
        return [r.span for r in results], ReanchorReport(kept, moved, flagged)
