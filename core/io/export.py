"""Per-segment CSV and corpus JSON export, shared by ``matchlight score`` and the GUI.

The CSV itself is plain (header row, one row per system and segment) so pandas and spreadsheets
load it as is. The signature and settings go to a sidecar ``<name>.csv.meta.json`` next to it,
together with the CSV's size and SHA-256, which :func:`read_export_meta` checks. Scores are
written with ``repr`` (full precision), never rounded. The CSV is made by
:func:`~matchlight.core.io.csvfile.csv_text`, so every text cell is spreadsheet-safe (system
names come from file names, ``NAME=PATH`` and the app, and ``=1+2`` must not run in a
spreadsheet) and numbers stay numbers.
Every file is written by :mod:`matchlight.core.io.safewrite`: atomically, never over an input.
"""

from __future__ import annotations

import errno
import hashlib
import json
import os
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any, Final

import numpy as np

from matchlight.core import __version__
from matchlight.core.io import jsonsafe
from matchlight.core.io.csvfile import csv_text
from matchlight.core.io.files import FileError, FileTooLarge, file_digest, read_bytes_capped
from matchlight.core.io.inputs import Comparison, ComparisonScan, InputError
from matchlight.core.io.safewrite import AtomicFiles, write_file_atomic
from matchlight.core.io.segmentrows import RowLayout, RowRenderer
from matchlight.core.scoring.results import ScoreTable

__all__ = [
    "MAX_SIDECAR_BYTES",
    "SIDECAR_SUFFIX",
    "ExportMetaError",
    "SegmentRowsWriter",
    "comparison_inputs",
    "export_meta",
    "input_paths",
    "read_export_meta",
    "sidecar_path",
    "write_csv",
    "write_json",
]

SIDECAR_SUFFIX = ".meta.json"


def sidecar_path(path: str | os.PathLike[str]) -> Path:
    p = Path(path)
    return p.with_name(p.name + SIDECAR_SUFFIX)


def comparison_inputs(comparison: Comparison | ComparisonScan) -> dict[str, Any]:
    """Where a comparison's texts came from, as recorded in the export sidecar."""
    return {
        "source": comparison.source.path if comparison.source else None,
        "references": [c.path for c in comparison.references],
        "systems": {c.name: c.path for c in comparison.systems},
    }


def input_paths(inputs: Mapping[str, Any] | None) -> list[str]:
    """Every file path named in a :func:`comparison_inputs` record: the files never to write."""
    if not inputs:
        return []
    paths: list[str] = []
    source = inputs.get("source")
    if isinstance(source, str):
        paths.append(source)
    paths += [p for p in inputs.get("references") or () if isinstance(p, str)]
    systems = inputs.get("systems") or {}
    values = systems.values() if isinstance(systems, Mapping) else systems
    paths += [p for p in values if isinstance(p, str)]
    return paths


def _json_bytes(payload: Mapping[str, Any]) -> bytes:
    # Paths from the command line may hold lone surrogates (undecodable bytes of a file name).
    # Inside a JSON string, backslashreplace writes them as the JSON escape \udcXX, so the file
    # is valid UTF-8 and reading it back gives the same string.
    # allow_nan=False: a bare NaN is not JSON (strict parsers reject it); callers write null.
    text = json.dumps(payload, indent=2, ensure_ascii=False, allow_nan=False) + "\n"
    return text.encode("utf-8", errors="backslashreplace")


def write_json(
    path: str | os.PathLike[str],
    payload: Mapping[str, Any],
    *,
    inputs: Mapping[str, Any] | None = None,
) -> Path:
    """Write ``payload`` as indented UTF-8 JSON, atomically, never over one of ``inputs``.

    ``inputs`` is a :func:`comparison_inputs` record. Raises
    :class:`~matchlight.core.io.safewrite.WriteError` (an ``OSError``).
    """
    return write_file_atomic(path, _json_bytes(payload), protect=input_paths(inputs))


class SegmentRowsWriter:
    """Per-segment rows written as they are scored, and the sidecar that describes them.

    The file holds the rows system after system, as :func:`write_csv` always wrote them: the
    first system's rows go straight to it, the others' to scratch files next to it, appended
    once the last row is in (so memory never holds more than a chunk). The file and its
    sidecar are temporary files until :meth:`finish`, then renamed over their targets, the file
    first (:class:`~core.io.safewrite.AtomicFiles`: never over an input or a session). The
    sidecar records the file's size and SHA-256 (:func:`read_export_meta` checks them), and
    ``meta`` besides. ``fmt`` is one of :data:`~core.io.segmentrows.ROW_FORMATS`; rows come
    from :class:`~core.io.segmentrows.RowRenderer` in the same format.
    """

    def __init__(
        self,
        path: str | os.PathLike[str],
        fmt: str,
        *,
        layout: RowLayout,
        systems: Sequence[str],
        meta: Mapping[str, Any],
        protect: Iterable[str] = (),
    ) -> None:
        self.path = path
        self.fmt = fmt
        self.layout = layout
        self.systems = tuple(systems)
        self.meta = dict(meta)
        self.rows = [0] * len(self.systems)
        self._files = AtomicFiles([path, sidecar_path(path)], protect=protect)
        self._handles = self._files.__enter__()
        self._digest = hashlib.sha256()
        self._size = 0
        self._parts: list[Any] = []
        self._parquet: Any = None
        try:
            main = self._handles[0]
            if fmt == "parquet":
                from matchlight.core.io.columnar import BatchSpool, ParquetRows

                self._parquet = ParquetRows(main)
                self._parts = [BatchSpool(self._files.scratch()) for _ in self.systems[1:]]
            else:
                self._parts = [self._files.scratch() for _ in self.systems[1:]]
                if fmt == "csv":
                    self._text(csv_text([layout.header()]).encode("utf-8"))
        except BaseException as error:
            self._files.__exit__(type(error), error, None)
            raise

    def _text(self, data: bytes) -> None:
        self._handles[0].write(data)
        self._digest.update(data)
        self._size += len(data)

    def write(self, system: int, rows: Any, count: int) -> None:
        """Append ``count`` rows of system ``system`` (as its renderer made them)."""
        self.rows[system] += count
        if system == 0:
            if self._parquet is not None:
                self._parquet.write(rows)
            else:
                self._text(rows)
        else:
            self._parts[system - 1].write(rows)

    def finish(self) -> Path:
        """Complete the file and its sidecar and rename both over their targets; returns the
        sidecar's path."""
        try:
            if self._parquet is not None:
                for spool in self._parts:
                    for batch in spool.replay():
                        self._parquet.write(batch)
                from matchlight.core.io.columnar import empty_batch

                self._parquet.close(empty_batch(self.layout.header(), self.layout.kinds()).schema)
                self._digest, self._size = _digest_of(self._handles[0])
            else:
                for part in self._parts:
                    part.seek(0)
                    while block := part.read(_COPY_BLOCK):
                        self._text(block)
            for part in self._parts:
                close = getattr(part, "close", None)
                if callable(close):
                    close()
            record = {"size": self._size, "sha256": self._digest.hexdigest()}
            meta = {
                **self.meta,
                "format": self.fmt,
                "rows": dict(zip(self.systems, self.rows, strict=True)),
                ("csv" if self.fmt == "csv" else "file"): record,
            }
            self._handles[1].write(_json_bytes(meta))
        except BaseException as error:
            self._files.__exit__(type(error), error, None)
            raise
        self._files.__exit__(None, None, None)
        return sidecar_path(self.path)

    def abandon(self) -> None:
        """Remove the temporary files: nothing is written."""
        self._files.__exit__(RuntimeError, RuntimeError("abandoned"), None)


#: Bytes copied at a time from a scratch file.
_COPY_BLOCK: Final[int] = 1 << 22


def _digest_of(handle: Any) -> tuple[Any, int]:
    """The SHA-256 and size of what was written to ``handle`` (a temporary file)."""
    handle.flush()
    digest = hashlib.sha256()
    size = 0
    fd = handle.fileno()
    while block := os.pread(fd, _COPY_BLOCK, size):
        digest.update(block)
        size += len(block)
    return digest, size


def export_meta(
    config: Any, nrefs: int, inputs: Mapping[str, Any] | None, segments: int, filtered: bool
) -> dict[str, Any]:
    """What a sidecar says besides the file's own record: the signatures and settings, the
    version, the segments and whether they were a selection, the inputs."""
    return {
        "signatures": config.signatures(nrefs),
        "config": config.to_dict(),
        "matchlight_version": __version__,
        "segments": segments,
        "filtered": filtered,
        "inputs": dict(inputs or {}),
    }


def write_csv(
    path: str | os.PathLike[str],
    table: ScoreTable,
    *,
    rows: Sequence[int] | None = None,
    systems: Sequence[int] | None = None,
    inputs: dict[str, Any] | None = None,
) -> Path:
    """Write the per-segment CSV of ``table`` and its signature sidecar; return the sidecar's
    path.

    One row per system (``systems``, default all) and segment (``rows``, default all, in
    order), as ``matchlight score --csv`` writes them (:class:`SegmentRowsWriter`). Neither
    file may be one of ``inputs`` (a :func:`comparison_inputs` record); both are temporary
    files until complete, then renamed, the CSV first. Raises
    :class:`~matchlight.core.io.safewrite.WriteError` (an ``OSError``).
    """
    index = np.arange(table.n_segments) if rows is None else np.array(sorted(int(r) for r in rows))
    chosen = list(range(len(table.systems)) if systems is None else systems)
    # Every column of the table: the metrics' and those added to it (imported scores, MQM).
    layout = RowLayout.of(table.columns, list(table.row_flags))
    names = [table.systems[s] for s in chosen]
    renderer = RowRenderer("csv", layout, tuple(names))
    meta = {
        **export_meta(
            table.config,
            table.nrefs,
            inputs,
            table.n_segments if rows is None else len(rows),
            rows is not None,
        ),
        "systems": names,
    }
    writer = SegmentRowsWriter(
        path, "csv", layout=layout, systems=names, meta=meta, protect=input_paths(inputs)
    )
    for k, s in enumerate(chosen):
        for a in range(0, len(index), _CSV_CHUNK):
            part = index[a : a + _CSV_CHUNK]
            flags = {name: values[part] for name, values in table.row_flags.items()}
            writer.write(
                k, renderer.render(k, part, table.scores[s, part], flags), len(part)
            )
    return writer.finish()


#: Rows of one system rendered at a time by :func:`write_csv`.
_CSV_CHUNK: Final[int] = 4096


class ExportMetaError(InputError):
    """An export's sidecar is missing, unreadable, or does not describe the CSV next to it."""


#: A sidecar is a few kilobytes; anything beyond this is not one.
MAX_SIDECAR_BYTES: Final[int] = 16 * 1024 * 1024


def _read_sidecar(side: Path, csv_name: str) -> bytes:
    try:
        return read_bytes_capped(side, MAX_SIDECAR_BYTES, what="a sidecar")
    except FileTooLarge:
        raise ExportMetaError(
            f"is larger than {MAX_SIDECAR_BYTES:,} bytes, so it is not a Matchlight sidecar",
            str(side),
        ) from None
    except FileError as exc:
        if exc.errno == errno.ENOENT:
            raise ExportMetaError(
                f"has no sidecar {side.name} next to it, so its settings and integrity cannot "
                "be checked (was the export interrupted, or the sidecar not copied along?)",
                csv_name,
            ) from None
        raise ExportMetaError(exc.problem, str(side)) from None


def read_export_meta(path: str | os.PathLike[str]) -> dict[str, Any]:
    """The sidecar record of the CSV at ``path``, after checking that it describes that CSV.

    Raises :class:`ExportMetaError` naming the file and the problem when the sidecar is
    missing, not valid JSON, records no checksum (written before checksums were recorded), or
    records a size or SHA-256 that the CSV does not have: then the two files are not from the
    same export (interrupted between its two renames, or one of them edited or replaced).
    """
    csv_path = Path(path)
    side = sidecar_path(csv_path)
    raw = _read_sidecar(side, str(csv_path))
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ExportMetaError(f"is not a valid sidecar (not UTF-8: {exc})", str(side)) from None

    def invalid(problem: str, path: str | None, line: int | None) -> ExportMetaError:
        return ExportMetaError(f"is not a valid sidecar: {problem}", path, line)

    # Paths of undecodable file names are stored as \udcXX escapes (see _json_bytes): kept.
    meta = jsonsafe.loads(text, path=str(side), error=invalid, surrogates="keep")
    record = (meta.get("csv") or meta.get("file")) if isinstance(meta, dict) else None
    if (
        not isinstance(record, dict)
        or not isinstance(record.get("size"), int)
        or not isinstance(record.get("sha256"), str)
    ):
        raise ExportMetaError(
            "records no checksum of its CSV, so the CSV cannot be checked against it "
            "(written by an older Matchlight, or not a Matchlight sidecar)",
            str(side),
        )
    try:
        sha256, size = file_digest(csv_path)
    except FileError as exc:
        if exc.errno == errno.ENOENT:
            raise ExportMetaError(
                f"not found, but its sidecar {side.name} is there (was the export interrupted?)",
                str(csv_path),
            ) from None
        raise ExportMetaError(exc.problem, str(csv_path)) from None
    if (size, sha256) != (record["size"], record["sha256"]):
        raise ExportMetaError(
            f"does not match its sidecar {side.name}: the sidecar describes a CSV of "
            f"{record['size']} bytes with SHA-256 {record['sha256'][:16]}..., this file has "
            f"{size} bytes with SHA-256 {sha256[:16]}...; the two are not from the same export "
            "(it was interrupted, or one of the files was changed afterwards)",
            str(csv_path),
        )
    return meta
