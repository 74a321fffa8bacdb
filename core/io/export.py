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
import itertools
import json
import math
import os
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any, Final

from matchlight.core import __version__
from matchlight.core.io import jsonsafe
from matchlight.core.io.csvfile import Cell, csv_text
from matchlight.core.io.files import FileError, FileTooLarge, file_digest, read_bytes_capped
from matchlight.core.io.inputs import Comparison, InputError
from matchlight.core.io.safewrite import write_file_atomic, write_files_atomic
from matchlight.core.scoring.results import ScoreTable

__all__ = [
    "MAX_SIDECAR_BYTES",
    "SIDECAR_SUFFIX",
    "ExportMetaError",
    "comparison_inputs",
    "csv_header",
    "csv_rows",
    "input_paths",
    "read_export_meta",
    "sidecar_path",
    "write_csv",
    "write_json",
]

SIDECAR_SUFFIX = ".meta.json"


def _layout(table: ScoreTable) -> tuple[list[int], list[int], list[str]]:
    """The CSV's columns: score columns, then counts (both by table index), then row flags.

    Built from the registry's columns, so a new metric adds its columns here by itself.
    """
    scores = [i for i, c in enumerate(table.columns) if c.kind == "score"]
    counts = [i for i, c in enumerate(table.columns) if c.kind == "count"]
    return scores, counts, list(table.row_flags)


def csv_header(table: ScoreTable) -> list[str]:
    scores, counts, flags = _layout(table)
    keys = table.column_keys
    return ["system", "segment", *(keys[i] for i in scores), *(keys[i] for i in counts), *flags]


def csv_rows(
    table: ScoreTable,
    *,
    rows: Sequence[int] | None = None,
    systems: Sequence[int] | None = None,
) -> Iterable[list[Cell]]:
    """Rows of the CSV, system-major, segments 1-based, scores as floats (written at full
    precision), counts and flags as integers; None (an empty cell) where there is no score."""
    index = range(table.n_segments) if rows is None else sorted(int(r) for r in rows)
    chosen = range(len(table.systems)) if systems is None else systems
    score_cols, count_cols, flag_names = _layout(table)
    flags = [table.row_flags[name] for name in flag_names]
    for s in chosen:
        name = table.systems[s]
        scores = table.scores[s]
        for i in index:
            row = scores[i].tolist()
            yield [
                name,
                i + 1,
                *(row[c] for c in score_cols),
                *(None if math.isnan(row[c]) else int(row[c]) for c in count_cols),
                *(int(flag[i]) for flag in flags),
            ]


def sidecar_path(path: str | os.PathLike[str]) -> Path:
    p = Path(path)
    return p.with_name(p.name + SIDECAR_SUFFIX)


def comparison_inputs(comparison: Comparison) -> dict[str, Any]:
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


def write_csv(
    path: str | os.PathLike[str],
    table: ScoreTable,
    *,
    rows: Sequence[int] | None = None,
    systems: Sequence[int] | None = None,
    inputs: dict[str, Any] | None = None,
) -> Path:
    """Write the per-segment CSV and its signature sidecar; return the sidecar's path.

    Neither file may be one of ``inputs`` (a :func:`comparison_inputs` record). Both are
    written to temporary files first and then renamed, the CSV first; the sidecar records the
    CSV's size and SHA-256, so :func:`read_export_meta` detects a CSV and sidecar that do not
    belong together (a kill between the two renames, or an edit). Raises
    :class:`~matchlight.core.io.safewrite.WriteError` (an ``OSError``).
    """
    header: list[Cell] = list(csv_header(table))
    body = csv_rows(table, rows=rows, systems=systems)
    data = csv_text(itertools.chain([header], body)).encode("utf-8")
    meta = {
        "signatures": table.signatures(),
        "config": table.config.to_dict(),
        "matchlight_version": __version__,
        "systems": list(table.systems),
        "segments": table.n_segments if rows is None else len(rows),
        "filtered": rows is not None,
        "inputs": inputs or {},
        "csv": {"size": len(data), "sha256": hashlib.sha256(data).hexdigest()},
    }
    side = sidecar_path(path)
    write_files_atomic([(path, data), (side, _json_bytes(meta))], protect=input_paths(inputs))
    return side


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
    record = meta.get("csv") if isinstance(meta, dict) else None
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
