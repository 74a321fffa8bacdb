"""Reading human judgements for a meta-evaluation: per system, or per segment and system.

* ``system`` level: a TSV/CSV/JSONL with a system column and a score column, e.g. WMT's DA
  table (``system<TAB>raw_score<TAB>z_score``), one row per system; rows of systems that are
  not in the comparison are ignored (with a warning).
* ``segment`` level, ``long`` format: one row per (system, segment) with a system column and
  optionally a 1-based segment column (DA, ESA or MQM scores; mt-metrics-eval's
  ``system<TAB>score`` files, segments in order per system);
* ``segment`` level, ``wide`` format: one column per system (named as the system), one row per
  segment.

Every file is read by :func:`core.io.scores.read_scores` (the imported-scores reader, through
:mod:`core.io.decoding`): the same size bound, encodings, missing-value markers and messages
naming the file and the line. Which way is better is the column's (a name saying MQM, error or
penalty is lower-is-better, see :func:`~matchlight.core.metrics.base.infer_scale`) unless the
caller says; :meth:`HumanJudgements.oriented` turns the values so that higher is better.
"""

from __future__ import annotations

import csv
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final, Literal

import numpy as np
import numpy.typing as npt

from matchlight.core.io.decoding import decode_bytes, read_input_bytes
from matchlight.core.io.inputs import InputError
from matchlight.core.io.scores import ScoreSpec, read_scores
from matchlight.core.metrics.base import Better, ScoreColumn, infer_scale
from matchlight.core.text.textspan import split_lines

__all__ = ["HUMAN_FORMATS", "HUMAN_LEVELS", "HumanJudgements", "human_column", "read_human"]

FloatArray = npt.NDArray[np.float64]
Level = Literal["system", "segment"]

HUMAN_LEVELS: Final[tuple[str, ...]] = ("system", "segment")
HUMAN_FORMATS: Final[tuple[str, ...]] = ("long", "wide")


def human_column(name: str, values: npt.ArrayLike, better: Better | None = None) -> ScoreColumn:
    """The score column of human judgements ``name``: its scale inferred from the values and
    the name (MQM: lower is better), ``better`` when the caller knows."""
    scale = infer_scale(values, name)
    if better is not None and better != scale.better:
        scale = type(scale)(better, scale.low, scale.high, scale.decimals)
    key = "human:" + name
    return ScoreColumn(key, name, name, "human", f"human judgements ({name})").with_scale(scale)


@dataclass(frozen=True, slots=True, eq=False)
class HumanJudgements:
    """Human scores for the comparison's ``systems`` (all of them, in order): ``values``
    ``(S,)`` at the system level or ``(S, n)`` at the segment level, NaN where a system or a
    pair was not judged; ``column`` says which way is better."""

    name: str
    level: Level
    systems: tuple[str, ...]
    values: FloatArray
    column: ScoreColumn
    sources: tuple[str, ...] = ()
    warnings: tuple[str, ...] = ()

    def oriented(self) -> FloatArray:
        """The values turned so that higher is better (an MQM penalty negated)."""
        return self.column.oriented(self.values)


def _header(path: str, fmt: str) -> list[str]:
    """The first row's fields of a TSV/CSV file (a wide file's system names)."""
    text, _encoding, _detected = decode_bytes(read_input_bytes(path), path=path)
    lines = split_lines(text)
    first = lines[0] if lines else ""
    if fmt == "csv":
        return next(csv.reader([first]), [])
    return first.split("\t")


def read_human(
    path: str,
    *,
    systems: Sequence[str],
    n_segments: int,
    level: Level,
    column: str,
    fmt: str | None = None,
    layout: str = "long",
    system_column: str = "system",
    segment_column: str | None = None,
    name: str | None = None,
    better: Better | None = None,
) -> HumanJudgements:
    """Human judgements from ``path`` for the comparison's ``systems`` and ``n_segments``.

    ``column`` is the score column (``raw_score``, ``z_score``, ``mqm``...); ``layout``
    ``long`` names the systems in ``system_column`` (and the segments in ``segment_column``,
    else in order), ``wide`` has one column per system (``column`` is then ignored). ``fmt`` is
    the file's format (None: from the extension). Raises :class:`InputError` naming the file
    and the line for any problem, and when no system of the comparison is judged.
    """
    if level not in HUMAN_LEVELS:
        raise InputError(f"unknown level {level!r}; choose {' or '.join(HUMAN_LEVELS)}", path)
    if layout not in HUMAN_FORMATS:
        raise InputError(f"unknown layout {layout!r}; choose {' or '.join(HUMAN_FORMATS)}", path)
    label = name or column
    rows = 1 if level == "system" else n_segments
    if layout == "wide":
        if level == "system":
            raise InputError("system-level scores come one row per system, not wide", path)
        kind = fmt or ("csv" if path.lower().endswith(".csv") else "tsv")
        header = _header(path, kind)
        specs = [ScoreSpec(path, kind, s, system=s) for s in systems if s in header]
        if not specs:
            raise InputError(
                f"no column is named after a system of the comparison ({', '.join(systems)})",
                path,
                1,
            )
    else:
        specs = [
            ScoreSpec(
                path,
                fmt,
                column,
                system_column=system_column,
                segment_column=segment_column if level == "segment" else None,
            )
        ]
    found = read_scores(specs, systems=systems, n_segments=rows, name=label)
    values = found.aligned(systems)
    if level == "system":
        values = values[:, 0]
    column_info = human_column(label, values, better)
    return HumanJudgements(
        label,
        level,
        tuple(systems),
        values,
        column_info,
        tuple(dict.fromkeys(found.sources)),
        found.warnings,
    )
