"""Per-segment CSV export, shared by ``matchlight score --csv`` and the GUI.

The CSV itself is plain (header row, one row per system and segment) so pandas and spreadsheets
load it as is. The signature and settings go to a sidecar ``<name>.csv.meta.json`` next to it.
Scores are written with ``repr`` (full precision), never rounded.
"""

from __future__ import annotations

import csv
import json
import os
import tempfile
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from matchlight.core import __version__
from matchlight.core.io.inputs import Comparison
from matchlight.core.scoring.results import ScoreTable

SIDECAR_SUFFIX = ".meta.json"


def csv_header(table: ScoreTable) -> list[str]:
    return ["system", "segment", *table.metrics, "hyp_len", "ref_len", "lsum_fallback"]


def csv_rows(
    table: ScoreTable,
    *,
    rows: Sequence[int] | None = None,
    systems: Sequence[int] | None = None,
) -> Iterable[list[str]]:
    """Rows of the CSV, system-major, segments 1-based, floats as ``repr``."""
    index = range(table.n_segments) if rows is None else sorted(int(r) for r in rows)
    chosen = range(len(table.systems)) if systems is None else systems
    for s in chosen:
        name = table.systems[s]
        scores = table.scores[s]
        for i in index:
            values = [repr(float(v)) if not np.isnan(v) else "" for v in scores[i]]
            yield [
                name,
                str(i + 1),
                *values,
                str(int(table.hyp_len[s, i])),
                str(int(table.ref_len[s, i])),
                "1" if table.lsum_fallback[i] else "0",
            ]


def sidecar_path(path: str | os.PathLike[str]) -> Path:
    p = Path(path)
    return p.with_name(p.name + SIDECAR_SUFFIX)


def atomic_write_text(path: str | os.PathLike[str], text: str) -> None:
    """Write ``text`` to ``path`` through a temporary file and a rename, never half a file."""
    target = Path(path)
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", dir=target.parent or ".")
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as handle:
            handle.write(text)
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def comparison_inputs(comparison: Comparison) -> dict[str, Any]:
    """Where a comparison's texts came from, as recorded in the export sidecar."""
    return {
        "source": comparison.source.path if comparison.source else None,
        "references": [c.path for c in comparison.references],
        "systems": {c.name: c.path for c in comparison.systems},
    }


def write_csv(
    path: str | os.PathLike[str],
    table: ScoreTable,
    *,
    rows: Sequence[int] | None = None,
    systems: Sequence[int] | None = None,
    inputs: dict[str, Any] | None = None,
) -> Path:
    """Write the per-segment CSV and its signature sidecar; return the sidecar's path."""
    import io

    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(csv_header(table))
    writer.writerows(csv_rows(table, rows=rows, systems=systems))
    atomic_write_text(path, buffer.getvalue())
    meta = {
        "signature": table.signature(),
        "config": table.config.to_dict(),
        "matchlight_version": __version__,
        "systems": list(table.systems),
        "segments": table.n_segments if rows is None else len(rows),
        "filtered": rows is not None,
        "inputs": inputs or {},
    }
    side = sidecar_path(path)
    atomic_write_text(side, json.dumps(meta, indent=2, ensure_ascii=False) + "\n")
    return side
