"""Reading imported per-segment scores (COMET, BLEURT, MetricX, human judgements).

One value per segment and system, from files in the forms researchers have:

* ``text``: one number per line, a file per system (BLEURT's scores file, ``cut -f``);
* ``tsv`` / ``csv``: a column of a table (by header name, or by 1-based number when there is
  no header), a file per system, or one file for all systems with a system column (long
  format, e.g. mt-metrics-eval's ``system<TAB>score`` lines, segments in order per system);
* ``jsonl``: a key of each record (dotted keys reach into nested objects), likewise;
* ``comet``: what ``comet-score`` prints (``FILE<TAB>Segment I<TAB>score: X`` per segment,
  or ``Segment I<TAB>score: X`` from COMET 1.x), one file for every system it scored;
* ``comet-json``: COMET's ``--to_json`` output (``{file: [{"src", "mt", "ref", "COMET"}]}``,
  or a plain list of records from COMET 1.x).

An optional segment column (1-based numbers; 0-based in COMET's output) lets rows come in any
order. Missing values must be explicit: an empty field, ``NA``, ``N/A``, ``NaN``, ``null``,
``None`` or ``-`` (JSON ``null``) becomes NaN; a segment with no entry at all is an error, as
is a value that is not a finite number. Every problem raises
:class:`~matchlight.core.io.inputs.InputError` naming the file, the line and the problem.
Files are read through :mod:`core.io.decoding` and :mod:`core.io.parsers` (size bound, encodings,
TSV/CSV rules).
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Final

import numpy as np
import numpy.typing as npt

from matchlight.core.io import jsonsafe
from matchlight.core.io.decoding import decode_bytes, read_input_bytes
from matchlight.core.io.files import LineLimit
from matchlight.core.io.inputs import InputError, default_name
from matchlight.core.io.parsers import parse_tabular
from matchlight.core.metrics.base import Scale, infer_scale
from matchlight.core.text.textspan import split_lines

__all__ = [
    "MAX_SYSTEMS_PER_FILE",
    "MISSING_MARKERS",
    "SCORE_FORMATS",
    "ImportedScores",
    "ScoreSpec",
    "parse_score",
    "read_scores",
]

FloatArray = npt.NDArray[np.float64]
BoolArray = npt.NDArray[np.bool_]

#: Formats understood by :func:`read_scores` (for CLI ``choices=`` and GUI combo boxes).
SCORE_FORMATS: Final[tuple[str, ...]] = ("text", "tsv", "csv", "jsonl", "comet", "comet-json")

_EXTENSION_FORMATS: Final[dict[str, str]] = {
    ".tsv": "tsv",
    ".csv": "csv",
    ".jsonl": "jsonl",
    ".ndjson": "jsonl",
    ".json": "comet-json",
}

#: Values that mean "no score for this segment" (compared case-insensitively, trimmed).
MISSING_MARKERS: Final[frozenset[str]] = frozenset({"", "na", "n/a", "nan", "null", "none", "-"})

#: COMET's key for the segment score in ``--to_json`` output.
COMET_KEY: Final[str] = "COMET"

_COMET_SEGMENT: Final[re.Pattern[str]] = re.compile(
    r"(?:(?P<file>[^\t]*)\t)?Segment (?P<segment>[0-9]+)\tscore: (?P<score>[^\t]*)"
    r"(?:\tvariance: [^\t]*)?"
)
_COMET_SYSTEM: Final[re.Pattern[str]] = re.compile(r"(?:[^\t]*\t)?(?:System )?score: [^\t]*")


@dataclass(frozen=True, slots=True)
class ScoreSpec:
    """Where one set of imported scores is and how to read it.

    ``fmt`` is one of :data:`SCORE_FORMATS` (None: from the extension: .tsv, .csv, .jsonl or
    .ndjson, .json for comet-json, anything else text). ``column`` is the score's column or
    key (TSV/CSV: a header name, or a 1-based number for a file without header; comet-json:
    defaults to ``COMET``). A file holds either one system, named by ``system`` (default: the
    file's name without a ``sys.``-style prefix, when that is a system of the comparison), or
    several, named per row by ``system_column``. ``segment_column`` optionally numbers the
    segments (1-based).
    """

    path: str
    fmt: str | None = None
    column: str | None = None
    system: str | None = None
    system_column: str | None = None
    segment_column: str | None = None


@dataclass(frozen=True, slots=True, eq=False)
class ImportedScores:
    """One imported score for some systems of a comparison.

    ``values[i]`` are the scores of ``systems[i]`` per segment (NaN where the file says the
    value is missing); ``sources[i]`` is the file they came from. Systems of the comparison
    the files do not score are not listed (see :meth:`aligned`). ``specs`` are how the files
    were read (what :func:`read_scores` was given; a session records them). ``scale`` is the
    direction, range and precision the user gave the scores (None: the values' own, see
    :meth:`column_scale`).
    """

    name: str
    systems: tuple[str, ...]
    values: FloatArray
    sources: tuple[str, ...]
    warnings: tuple[str, ...]
    specs: tuple[ScoreSpec, ...] = ()
    scale: Scale | None = None

    def column_scale(self) -> Scale:
        """The scale of the column these scores make: the user's, else the one the values
        suggest (:func:`~core.metrics.base.infer_scale`: COMET's 0-1 with three decimals, a
        name saying error or MQM lower-is-better...)."""
        return self.scale if self.scale is not None else infer_scale(self.values, self.name)

    @property
    def missing(self) -> BoolArray:
        return np.isnan(self.values)

    def aligned(self, systems: Sequence[str]) -> FloatArray:
        """Values for ``systems`` in that order, ``(len(systems), n)``; all NaN for a system
        without scores."""
        out = np.full((len(systems), self.values.shape[1]), np.nan)
        where = {name: i for i, name in enumerate(self.systems)}
        for row, name in enumerate(systems):
            if name in where:
                out[row] = self.values[where[name]]
        return out


def parse_score(text: str) -> float:
    """A score from its text: NaN for a :data:`MISSING_MARKERS` value, else a finite float.

    Raises ValueError with the reason for anything else (callers add file and line).
    """
    stripped = text.strip()
    if stripped.lower() in MISSING_MARKERS:
        return math.nan
    try:
        value = float(stripped)
    except ValueError:
        raise ValueError(f"not a number: {_shown(stripped)}") from None
    if not math.isfinite(value):
        raise ValueError(f"not a finite number: {_shown(stripped)}")
    return value


def _shown(text: str) -> str:
    """``text`` quoted for a message, cut to 40 characters."""
    return repr(text) if len(text) <= 40 else repr(text[:40]) + f"... ({len(text):,} characters)"


def _json_score(value: object) -> float:
    if value is None:
        return math.nan
    if isinstance(value, bool):
        raise ValueError(f"a boolean ({str(value).lower()}) is not a score")
    if isinstance(value, int | float):
        if not math.isfinite(value):
            raise ValueError(f"not a finite number: {value!r}")
        return float(value)
    if isinstance(value, str):
        return parse_score(value)
    kind = "an object" if isinstance(value, dict) else "a list"
    raise ValueError(f"{kind} is not a score")


@dataclass(slots=True)
class _Entry:
    """One score read from a file: for which system (None: the file's), which segment (None:
    the next one) and where."""

    system: str | None
    segment: int | None
    value: float
    line: int | None


def _resolve_format(spec: ScoreSpec) -> str:
    if spec.fmt is None:
        return _EXTENSION_FORMATS.get(Path(spec.path).suffix.lower(), "text")
    if spec.fmt not in SCORE_FORMATS:
        raise InputError(
            f"unknown score format {spec.fmt!r}; choose one of {', '.join(SCORE_FORMATS)}",
            spec.path,
        )
    return spec.fmt


#: The most systems one score file with a system column (or comet-score's output) may score.
#: It bounds the lines read from such a file: a file of a billion short lines is refused as it
#: streams in, not after its rows have filled the memory.
MAX_SYSTEMS_PER_FILE: Final[int] = 256
#: Lines a score file may have beyond one per segment and system (a header, blank lines at the
#: end, comet-score's system lines).
_SPARE_LINES: Final[int] = 1000


def _row_limit(spec: ScoreSpec, fmt: str, n_segments: int) -> LineLimit:
    """How many lines (CSV: rows) a score file for ``n_segments`` segments may have."""
    n = f"{n_segments:,} segment{'' if n_segments == 1 else 's'}"
    if spec.system_column is None and fmt != "comet":
        return LineLimit(n_segments + _SPARE_LINES, f"the comparison has {n} (one score each)")
    return LineLimit(
        (n_segments + 1) * MAX_SYSTEMS_PER_FILE + _SPARE_LINES,
        f"the comparison has {n}, and one file scores at most {MAX_SYSTEMS_PER_FILE} systems",
    )


def _read_text(path: str, limit: LineLimit | None) -> str:
    """The file's text; ``limit`` bounds its lines as it is read (None: a JSON document, or
    CSV, whose rows are counted as they are parsed)."""
    text, _encoding, _detected = decode_bytes(read_input_bytes(path, max_lines=limit), path=path)
    return text


#: Digits a segment number may have (no comparison has a billion segments).
_SEGMENT_DIGITS: Final[int] = 9


def _segment_number(text: str, base: int, path: str, line: int | None) -> int:
    stripped = text.strip()
    if not (stripped.isascii() and stripped.isdigit()):
        raise InputError(f"segment number {_shown(stripped)} is not a whole number", path, line)
    digits = stripped.lstrip("0") or "0"
    if len(digits) > _SEGMENT_DIGITS:
        raise InputError(f"segment number {_shown(stripped)} is out of range", path, line)
    return int(digits) - base


def _score(text: str, path: str, line: int | None) -> float:
    try:
        return parse_score(text)
    except ValueError as exc:
        raise InputError(str(exc), path, line) from None


def _entries_text(spec: ScoreSpec, limit: LineLimit) -> list[_Entry]:
    lines = split_lines(_read_text(spec.path, limit))
    # Blank lines at the very end are not segments (as in every other input).
    while lines and not lines[-1].strip():
        lines.pop()
    return [_Entry(None, None, _score(t, spec.path, i + 1), i + 1) for i, t in enumerate(lines)]


def _entries_tabular(spec: ScoreSpec, fmt: str, limit: LineLimit) -> list[_Entry]:
    path = spec.path
    if spec.column is None:
        raise InputError(
            f"{fmt.upper()} scores need a column: a header name or a 1-based column number",
            path,
        )
    named = [c for c in (spec.column, spec.system_column, spec.segment_column) if c is not None]
    numbered = [c.isascii() and c.isdigit() for c in named]
    if any(numbered) and not all(numbered):
        raise InputError(
            "give every column by header name or every column by number (a file without a "
            f"header), not a mix: {', '.join(repr(c) for c in named)}",
            path,
        )
    text = _read_text(path, None if fmt == "csv" else limit)
    scores = parse_tabular(text, fmt, spec.column, path, limit)
    lines = _line_numbers(scores.line_of, len(scores.segments))
    systems = (
        parse_tabular(text, fmt, spec.system_column, path).segments
        if spec.system_column is not None
        else None
    )
    segments = (
        parse_tabular(text, fmt, spec.segment_column, path).segments
        if spec.segment_column is not None
        else None
    )
    entries = []
    for i, (value, line) in enumerate(zip(scores.segments, lines, strict=True)):
        segment = None if segments is None else _segment_number(segments[i], 1, path, line)
        system = None if systems is None else systems[i].strip()
        entries.append(_Entry(system, segment, _score(value, path, line), line))
    return entries


def _line_numbers(line_of: int | list[int], count: int) -> list[int]:
    return list(range(line_of, line_of + count)) if isinstance(line_of, int) else line_of


def _lookup(record: dict[str, object], key: str) -> object:
    """``record[key]``, or a dotted path into nested objects; KeyError naming what is missing."""
    if key in record:
        return record[key]
    value: object = record
    for part in key.split("."):
        if not isinstance(value, dict) or part not in value:
            available = ", ".join(repr(k) for k in record) or "(none)"
            raise KeyError(f"no key {key!r}; available keys: {available}")
        value = value[part]
    return value


def _entries_jsonl(spec: ScoreSpec, limit: LineLimit) -> list[_Entry]:
    path = spec.path
    if spec.column is None:
        raise InputError("JSON Lines scores need a key (the column), e.g. score", path)
    raw = split_lines(_read_text(path, limit))
    while raw and not raw[-1].strip():
        raw.pop()
    entries = []
    for number, line in enumerate(raw, start=1):
        if not line.strip():
            raise InputError("blank line in the middle of a JSON Lines file", path, number)
        record = jsonsafe.loads(line, path=path, first_line=number, error=InputError)
        if not isinstance(record, dict):
            raise InputError("expected a JSON object on every line", path, number)
        try:
            value = _json_score(_lookup(record, spec.column))
            system = None
            if spec.system_column is not None:
                system = str(_lookup(record, spec.system_column)).strip()
            segment = None
            if spec.segment_column is not None:
                found = _lookup(record, spec.segment_column)
                if isinstance(found, bool) or not isinstance(found, int | str):
                    raise ValueError(f"segment number {found!r} is not a whole number")
                segment = _segment_number(str(found), 1, path, number)
        except (KeyError, ValueError) as exc:
            problem = exc.args[0] if exc.args else str(exc)
            raise InputError(str(problem), path, number) from None
        entries.append(_Entry(system, segment, value, number))
    return entries


def _entries_comet(spec: ScoreSpec, limit: LineLimit) -> tuple[list[_Entry], list[str]]:
    path = spec.path
    entries = []
    ignored = 0
    decimals = 0
    for number, line in enumerate(split_lines(_read_text(path, limit)), start=1):
        found = _COMET_SEGMENT.fullmatch(line)
        if found is None:
            if line.strip() and not _COMET_SYSTEM.fullmatch(line):
                ignored += 1
            continue
        shown = found["score"].strip()
        decimals = max(decimals, len(shown.partition(".")[2]))
        segment = _segment_number(found["segment"], 0, path, number)
        entries.append(_Entry(found["file"], segment, _score(shown, path, number), number))
    if not entries:
        raise InputError(
            "no COMET segment lines (FILE<TAB>Segment N<TAB>score: X, as comet-score prints)",
            path,
        )
    notes = [
        f"comet-score prints scores rounded to {decimals} decimals; its --to_json output keeps "
        "them in full"
    ]
    if ignored:
        notes.append(f"ignored {ignored} lines that are not COMET segment or system scores")
    return entries, notes


def _entries_comet_json(spec: ScoreSpec) -> list[_Entry]:
    path = spec.path
    key = spec.column or COMET_KEY
    document = jsonsafe.loads(_read_text(path, None), path=path, error=InputError)
    if isinstance(document, list):
        blocks: list[tuple[str | None, object]] = [(None, document)]
    elif isinstance(document, dict):
        blocks = list(document.items())
    else:
        raise InputError("expected COMET's JSON: an object of files, or a list of records", path)
    entries = []
    for system, records in blocks:
        where = "" if system is None else f"{system!r}: "
        if not isinstance(records, list):
            raise InputError(f"{where}expected a list of records", path)
        for i, record in enumerate(records):
            if not isinstance(record, dict) or key not in record:
                raise InputError(f"{where}record {i + 1} has no {key!r} score", path)
            try:
                value = _json_score(record[key])
            except ValueError as exc:
                raise InputError(f"{where}record {i + 1}: {exc}", path) from None
            entries.append(_Entry(system, i, value, None))
    return entries


def _match_system(label: str, systems: Sequence[str]) -> str | None:
    """The comparison system a file's label names: the same name, or the same after dropping
    a folder and a ``sys.``-style prefix and extension (``data/sys.Online-B.txt``)."""
    if label in systems:
        return label
    short = default_name(label)
    if short in systems:
        return short
    return None


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def _assemble(
    entries: list[_Entry],
    spec: ScoreSpec,
    systems: Sequence[str],
    n_segments: int,
    warnings: list[str],
) -> dict[str, FloatArray]:
    """Per comparison system, its scores from one file's entries (validated)."""
    path = spec.path
    per_label: dict[str | None, list[_Entry]] = {}
    for entry in entries:
        per_label.setdefault(entry.system, []).append(entry)
    found: dict[str, FloatArray] = {}
    unknown: list[str] = []
    for label, group in per_label.items():
        if label is None:
            name = spec.system if spec.system is not None else default_name(path)
            if name not in systems:
                raise InputError(
                    "say which system these scores are for: "
                    + (
                        f"{name!r} is not a system of the comparison"
                        if spec.system is not None
                        else "the file name does not name a system of the comparison"
                    )
                    + f" ({', '.join(systems)})",
                    path,
                )
        else:
            matched = _match_system(label, systems)
            if matched is None:
                unknown.append(label)
                continue
            name = matched
        if name in found:
            raise InputError(f"scores for system {name!r} appear under two names", path)
        found[name] = _values(group, name, path, n_segments)
    if unknown:
        warnings.append(
            f"{path}: ignored scores of {_plural(len(unknown), 'system')} not in the "
            f"comparison: {', '.join(repr(u) for u in unknown[:5])}"
            + (" ..." if len(unknown) > 5 else "")
        )
    if not found:
        raise InputError(
            f"no scores for any system of the comparison ({', '.join(systems)}); the file "
            f"names {', '.join(repr(u) for u in unknown[:5])}",
            path,
        )
    return found


def _values(group: list[_Entry], name: str, path: str, n_segments: int) -> FloatArray:
    values = np.full(n_segments, np.nan)
    numbered = [e.segment is not None for e in group]
    if not any(numbered):
        if len(group) != n_segments:
            last = group[-1].line if group else None
            raise InputError(
                f"has {_plural(len(group), 'score')} for system {name!r}, but the comparison "
                f"has {_plural(n_segments, 'segment')}",
                path,
                last if len(group) > n_segments else None,
            )
        values[:] = [e.value for e in group]
        return values
    seen = np.zeros(n_segments, np.bool_)
    for entry in group:
        segment = entry.segment
        if segment is None:  # pragma: no cover - a file numbers all segments or none
            raise InputError("a segment number is missing", path, entry.line)
        if not 0 <= segment < n_segments:
            raise InputError(
                f"segment {segment + 1} is out of range: the comparison has "
                f"{_plural(n_segments, 'segment')} (numbered from 1)",
                path,
                entry.line,
            )
        if seen[segment]:
            raise InputError(
                f"a second score for system {name!r}, segment {segment + 1}", path, entry.line
            )
        seen[segment] = True
        values[segment] = entry.value
    if not seen.all():
        absent = np.flatnonzero(~seen) + 1
        listed = ", ".join(map(str, absent[:5].tolist())) + (" ..." if absent.size > 5 else "")
        raise InputError(
            f"no score for system {name!r} on {_plural(int(absent.size), 'segment')} "
            f"({listed}); write a missing score explicitly (an empty value or NA)",
            path,
        )
    return values


def read_scores(
    specs: Sequence[ScoreSpec],
    *,
    systems: Sequence[str],
    n_segments: int,
    name: str,
) -> ImportedScores:
    """Read one imported score (``name``, e.g. "COMET-22") for the comparison's ``systems``.

    ``specs`` are one file per system, one file for all, or any mix; a system scored twice is
    an error. Raises :class:`InputError` naming the file (and line) for any problem.
    """
    if not specs:
        raise InputError("no score file given")
    warnings: list[str] = []
    found: dict[str, FloatArray] = {}
    source: dict[str, str] = {}
    for spec in specs:
        fmt = _resolve_format(spec)
        if fmt in ("text", "comet-json") and (spec.system_column or spec.segment_column):
            raise InputError(f"{fmt} scores have no system or segment column", spec.path)
        notes: list[str] = []
        limit = _row_limit(spec, fmt, n_segments)
        if fmt == "text":
            entries = _entries_text(spec, limit)
        elif fmt in ("tsv", "csv"):
            entries = _entries_tabular(spec, fmt, limit)
        elif fmt == "jsonl":
            entries = _entries_jsonl(spec, limit)
        elif fmt == "comet":
            entries, notes = _entries_comet(spec, limit)
        else:
            entries = _entries_comet_json(spec)
        warnings += [f"{spec.path}: {note}" for note in notes]
        if not entries:
            raise InputError("has no scores", spec.path)
        for system, values in _assemble(entries, spec, systems, n_segments, warnings).items():
            if system in found:
                raise InputError(
                    f"system {system!r} is already scored by {source[system]}", spec.path
                )
            found[system] = values
            source[system] = spec.path
    ordered = [s for s in systems if s in found]
    for system in ordered:
        missing = int(np.isnan(found[system]).sum())
        if missing:
            warnings.append(
                f"{source[system]}: {_plural(missing, 'segment')} of {system!r} marked as missing"
            )
    values = np.stack([found[s] for s in ordered])
    return ImportedScores(
        name=name,
        systems=tuple(ordered),
        values=values,
        sources=tuple(source[s] for s in ordered),
        warnings=tuple(warnings),
        specs=tuple(specs),
    )
