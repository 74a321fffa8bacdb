"""Reading and writing error annotations in the formats MT evaluation uses: what the formats
share, and the CSV export.

Each format has a module of its own: :mod:`~matchlight.core.annotation.xcomet` (xCOMET's
``error_spans`` as JSON Lines), :mod:`~matchlight.core.annotation.wmtmqm` (WMT MQM TSV) and
:mod:`~matchlight.core.annotation.wmtesa` (WMT24 ESA JSON Lines). This one holds what they all
use: the format names (:data:`IMPORT_FORMATS`, :data:`EXPORT_FORMATS`,
:func:`sniff_import_format`), the result of an import (:class:`ImportResult`, with the MQM TSV
file's :class:`TsvLayout`), the readers and field checks every importer applies, the CSV export
(``csv``, export only: one row per span, text cells made spreadsheet-safe), what an export leaves
out (:func:`left_out`) and the atomic write (:func:`write_export`).

Imports produce spans with status ``UNDECIDED`` (pre-annotations someone still has to rule on)
and origin ``imported:<format>``; exports write ``CONFIRMED`` spans unless asked for more.
Offsets are code points into the hypothesis line, whatever the file counts in.

An export writes the spans of the statuses it is given (confirmed by default); CSV and xCOMET
say each span's status and side, and who confirmed or rejected it
(:mod:`~matchlight.core.annotation.review`). :func:`left_out` counts what an export leaves out
(undecided, rejected, or source spans a target-only format cannot hold), so a caller can say so
or include them.

Problems in an imported file raise :class:`~matchlight.core.io.inputs.InputError` naming the
file, the line and the problem.
"""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Collection, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from matchlight.core.annotation.anchoring import AnchorState, reanchor
from matchlight.core.annotation.model import (
    AnnotationError,
    ErrorSpan,
    SegmentScore,
    Severity,
    Side,
    Status,
)
from matchlight.core.annotation.mqm import DEFAULT_WEIGHTS, MQMWeights
from matchlight.core.annotation.review import reviewer_of
from matchlight.core.io import jsonsafe
from matchlight.core.io.csvfile import Cell, csv_text
from matchlight.core.io.files import (
    MAX_ANNOTATION_BYTES,
    FileError,
    iter_lines,
    read_bytes_capped,
    read_head,
)
from matchlight.core.io.inputs import InputError
from matchlight.core.io.safewrite import write_file_atomic

__all__ = [
    "CONFIRMED_ONLY",
    "CSV_COLUMNS",
    "EXPORT_FORMATS",
    "IMPORT_FORMATS",
    "MAX_DIGITS",
    "MAX_IMPORT_BYTES",
    "MAX_JSONL_LINE_BYTES",
    "MQM_TSV_COLUMNS",
    "ImportResult",
    "TsvLayout",
    "export_csv",
    "fit_to_line",
    "int_field",
    "json_lines",
    "left_out",
    "left_out_message",
    "line_for",
    "line_in",
    "read_text",
    "severity_field",
    "sniff_import_format",
    "write_export",
]

#: Import formats, for combo boxes and CLI choices.
IMPORT_FORMATS: Final[dict[str, str]] = {
    "xcomet-jsonl": "xCOMET error spans (JSON Lines)",
    "wmt-mqm-tsv": "WMT MQM ratings (TSV)",
    "wmt24-esa-jsonl": "WMT24 ESA ratings (JSON Lines)",
}
#: Export formats.
EXPORT_FORMATS: Final[dict[str, str]] = {**IMPORT_FORMATS, "csv": "One row per error (CSV)"}

#: How far :func:`sniff_import_format` reads into a file for its first record.
_SNIFF_BYTES: Final = 1 << 20


def sniff_import_format(path: str | os.PathLike[str]) -> str | None:
    """The import format a file's name and first record suggest: ``wmt-mqm-tsv`` for a
    ``.tsv``, else ``wmt24-esa-jsonl`` when the first JSON record has WMT24 ESA's keys, else
    ``xcomet-jsonl`` for a JSON record; None when it cannot tell (or cannot read the file: a
    pipe or a device is never opened, see :func:`~matchlight.core.io.files.read_head`)."""
    name = os.fspath(path)
    if name.lower().endswith((".tsv", ".tsv.txt")):
        return "wmt-mqm-tsv"
    try:
        head = read_head(name, _SNIFF_BYTES)
    except FileError:
        return None
    for raw in head.splitlines():
        if not raw.strip():
            continue
        try:
            first = jsonsafe.loads(raw.decode("utf-8", "replace"), path=name)
        except ValueError:
            return None
        if isinstance(first, dict) and ("esa_spans" in first or "line_id" in first):
            return "wmt24-esa-jsonl"
        return "xcomet-jsonl"
    return None


#: Largest annotation file read (a WMT MQM release file is ~50 MB).
MAX_IMPORT_BYTES: Final = MAX_ANNOTATION_BYTES
#: Longest JSON Lines record read (xCOMET's whole output may be one line).
MAX_JSONL_LINE_BYTES: Final = 128 * 1024 * 1024

MQM_TSV_COLUMNS: Final[tuple[str, ...]] = (
    "system",
    "doc",
    "doc_id",
    "seg_id",
    "rater",
    "source",
    "target",
    "category",
    "severity",
)
_DEFAULT_TSV_HEADER: Final = (*MQM_TSV_COLUMNS, "comment")
#: The statuses an export writes unless asked for more.
CONFIRMED_ONLY: Final[tuple[Status, ...]] = (Status.CONFIRMED,)


@dataclass(frozen=True, slots=True)
class TsvLayout:
    """How an MQM TSV file is written: header, quoting, line ends. Import records the file's."""

    header: tuple[str, ...] | None = _DEFAULT_TSV_HEADER
    #: "none": fields are raw text (no tabs or newlines allowed); "minimal": csv-style quotes.
    quoting: str = "none"
    newline: str = "\n"
    final_newline: bool = True
    bom: bool = False
    #: The number of columns of a file without a header line.
    width: int = len(MQM_TSV_COLUMNS) + 1

    def __post_init__(self) -> None:
        if self.quoting not in ("none", "minimal"):
            raise AnnotationError(f"TSV quoting must be 'none' or 'minimal', not {self.quoting!r}")
        if self.newline not in ("\n", "\r\n"):
            raise AnnotationError("TSV lines end with '\\n' or '\\r\\n'")
        if self.n_columns < len(MQM_TSV_COLUMNS):
            raise AnnotationError(f"an MQM TSV file has at least {len(MQM_TSV_COLUMNS)} columns")

    def to_json(self) -> dict[str, Any]:
        return {
            "header": None if self.header is None else list(self.header),
            "quoting": self.quoting,
            "newline": self.newline,
            "final_newline": self.final_newline,
            "bom": self.bom,
            "width": self.width,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> TsvLayout:
        header = data.get("header")
        return cls(
            header=None if header is None else tuple(str(h) for h in header),
            quoting=str(data.get("quoting", "none")),
            newline=str(data.get("newline", "\n")),
            final_newline=bool(data.get("final_newline", True)),
            bom=bool(data.get("bom", False)),
            width=int(data.get("width", len(MQM_TSV_COLUMNS) + 1)),
        )

    @property
    def n_columns(self) -> int:
        return self.width if self.header is None else len(self.header)

    @property
    def extra_columns(self) -> list[str]:
        """The lower-cased names of the columns after ``severity`` (unnamed ones: comment)."""
        if self.header is None:
            return ["comment"] * (self.width - len(MQM_TSV_COLUMNS))
        return [c.strip().casefold() for c in self.header[len(MQM_TSV_COLUMNS) :]]


@dataclass(frozen=True, slots=True)
class ImportResult:
    """What a file held: spans, segment scores / review marks, and warnings for the user."""

    spans: tuple[ErrorSpan, ...]
    scores: tuple[SegmentScore, ...] = ()
    warnings: tuple[str, ...] = ()
    #: For MQM TSV: the file's layout, to write it back the same way.
    layout: TsvLayout | None = None
    #: Category paths the spans use that the typology lacks (add them with
    #: :meth:`~matchlight.core.annotation.typology.Typology.with_paths` to confirm the spans).
    unknown_categories: tuple[str, ...] = ()


# -- reading helpers ---------------------------------------------------------------------------


def read_text(path: str | os.PathLike[str]) -> tuple[str, bool]:
    """The file's text (UTF-8, BOM removed) and whether it had a BOM."""
    name = os.fspath(path)
    try:
        data = read_bytes_capped(name, MAX_IMPORT_BYTES, what="an annotation file")
    except FileError as exc:
        raise InputError(exc.problem, name, exc.line) from None
    bom = data.startswith(b"\xef\xbb\xbf")
    if bom:
        data = data[3:]
    try:
        return data.decode("utf-8"), bom
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise InputError(
            f"not UTF-8: byte 0x{data[exc.start]:02x} cannot be decoded", name, line
        ) from None


def json_lines(path: str | os.PathLike[str], warnings: list[str]) -> Iterator[tuple[int, Any]]:
    """(line number, value) of every non-blank line of a JSON Lines file, read as it streams
    (:func:`~matchlight.core.io.files.iter_lines`) by the untrusted-JSON loader. Lone
    surrogates become U+FFFD, and one warning in ``warnings`` says where."""
    name = os.fspath(path)
    replaced: list[int] = []
    lines = iter_lines(
        name, MAX_IMPORT_BYTES, line_cap=MAX_JSONL_LINE_BYTES, what="an annotation file"
    )
    try:
        for number, raw in lines:
            if not raw.strip():
                continue
            notes: list[str] = []
            yield (
                number,
                jsonsafe.loads(raw, path=name, first_line=number, error=InputError, notes=notes),
            )
            if notes:
                replaced.append(number)
    except FileError as exc:
        raise InputError(exc.problem, name, exc.line) from None
    if replaced:
        where = f"line {replaced[0]}"
        if len(replaced) > 1:
            where = f"{len(replaced)} lines (the first: line {replaced[0]})"
        warnings.append(
            f"{name}: {where} held a lone surrogate (a \\ud800-\\udfff escape that is not "
            "part of a pair, so not a character); replaced with U+FFFD"
        )


def line_for(
    lines: Mapping[str, Sequence[str]] | None,
    system: str,
    segment: int,
    path: str,
    number: int,
) -> str | None:
    """The comparison's line for (system, segment), None when no lines were given."""
    return None if lines is None else line_in(lines, system, segment, path, number)


def line_in(
    lines: Mapping[str, Sequence[str]], system: str, segment: int, path: str, number: int
) -> str:
    """The comparison's line for (system, segment); an InputError names an unknown system or
    segment."""
    if system not in lines:
        known = ", ".join(sorted(lines)) or "none"
        raise InputError(
            f"system {system!r} is not in this comparison (systems: {known})", path, number
        )
    system_lines = lines[system]
    if not 0 <= segment < len(system_lines):
        raise InputError(
            f"segment {segment + 1} is out of range: {system!r} has {len(system_lines)} segments",
            path,
            number,
        )
    return system_lines[segment]


#: Digits a segment number or an offset may have (it must fit the session's integers).
MAX_DIGITS: Final = 9


def int_field(value: Any, what: str, path: str, number: int, *, minimum: int = 0) -> int:
    """``value`` as an integer of at most :data:`MAX_DIGITS` digits, at least ``minimum``."""
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
        shown = repr(value) if len(repr(value)) <= 40 else repr(value)[:40] + "..."
        raise InputError(f"{what} must be an integer >= {minimum}, not {shown}", path, number)
    if value >= 10**MAX_DIGITS:
        raise InputError(f"{what} {str(value)[:20]}... is too large", path, number)
    return value


def severity_field(value: Any, path: str, number: int) -> Severity:
    """``value`` as a :class:`~matchlight.core.annotation.model.Severity`."""
    if not isinstance(value, str):
        raise InputError(f"severity must be a string, not {value!r}", path, number)
    try:
        return Severity.parse(value)
    except AnnotationError as exc:
        raise InputError(str(exc), path, number) from None


def fit_to_line(span: ErrorSpan, line: str | None, warnings: list[str], where: str) -> ErrorSpan:
    """``span`` (made on the file's own text) moved onto the comparison's ``line``."""
    if line is None:
        return span
    result = reanchor(span, line)
    if result.state is AnchorState.REATTACHED:
        warnings.append(f"{where}: the text differs from the comparison's line; span re-attached")
    elif result.state is AnchorState.FLAGGED:
        warnings.append(
            f"{where}: the span's text {span.text!r} is not in the comparison's line; "
            "kept at its offsets in the file's text"
        )
    return result.span


# -- CSV ---------------------------------------------------------------------------------------


CSV_COLUMNS: Final[tuple[str, ...]] = (
    "id",
    "system",
    "segment",
    "start",
    "end",
    "side",
    "text",
    "category",
    "severity",
    "mqm_weight",
    "status",
    "annotator",
    "origin",
    "note",
    "created",
    "modified",
    "reviewed_by",
    "reviewed_at",
)


def export_csv(
    spans: Iterable[ErrorSpan],
    *,
    weights: MQMWeights = DEFAULT_WEIGHTS,
    statuses: Collection[Status] = CONFIRMED_ONLY,
) -> str:
    """One row per span: segment is 1-based (as in Matchlight's score CSV), start/end are
    code-point offsets into the ``side`` (target or source), mqm_weight the span's penalty,
    reviewed_by and reviewed_at who ruled on a pre-annotation and when (empty otherwise).
    Written by
    :func:`~matchlight.core.io.csvfile.csv_text`: every text cell is spreadsheet-safe, numbers
    are written as plain numbers."""
    chosen = sorted(
        (s for s in spans if s.status in statuses),
        key=lambda s: (s.system, s.segment, s.start, s.end, s.created),
    )
    rows: list[list[Cell]] = [list(CSV_COLUMNS)]
    for span in chosen:
        rows.append(
            [
                span.id,
                span.system,
                span.segment + 1,
                span.start,
                span.end,
                span.side.value,
                span.text,
                span.category,
                span.severity.value,
                weights.weight(span),
                span.status.value,
                span.annotator,
                span.origin.label(),
                span.note,
                span.created.isoformat(),
                span.modified.isoformat(),
                *(reviewer_of(span) or ("", "")),
            ]
        )
    return csv_text(rows)


# -- what an export leaves out ------------------------------------------------------------------

#: Export formats that hold spans on the output only.
_TARGET_ONLY: Final = frozenset({"xcomet-jsonl", "wmt24-esa-jsonl"})


def left_out(
    spans: Iterable[ErrorSpan], fmt: str, *, statuses: Collection[Status] = CONFIRMED_ONLY
) -> dict[str, int]:
    """How many spans an export to ``fmt`` with ``statuses`` does not write, by reason:
    ``"undecided"`` / ``"rejected"`` / ``"confirmed"`` (a status not asked for) and
    ``"source"`` (a source span, in a format with spans on the output only). Empty: nothing."""
    counts: Counter[str] = Counter()
    for span in spans:
        if span.status not in statuses:
            counts[span.status.value] += 1
        elif span.side is Side.SOURCE and fmt in _TARGET_ONLY:
            counts["source"] += 1
    return dict(counts)


def left_out_message(counts: Mapping[str, int]) -> str | None:
    """A sentence for the user about :func:`left_out`'s counts (None when nothing is left out)."""
    parts = [
        f"{counts[reason]:,} {reason}"
        for reason in ("undecided", "rejected", "confirmed")
        if counts.get(reason)
    ]
    text = []
    if parts:
        text.append(
            ", ".join(parts) + " spans are not in the export (export every status to include them)"
        )
    if counts.get("source"):
        text.append(
            f"{counts['source']:,} spans on the source are not in the export (the format holds "
            "spans on the output only; CSV and WMT MQM TSV keep them)"
        )
    return "; ".join(text) + "." if text else None


# -- writing -----------------------------------------------------------------------------------


def write_export(
    path: str | os.PathLike[str], text: str, *, protected: Iterable[str | os.PathLike[str]] = ()
) -> None:
    """Write an export as UTF-8, atomically, never over a ``protected`` file (the comparison's
    inputs); see :mod:`matchlight.core.io.safewrite` (its WriteError is an OSError)."""
    write_file_atomic(path, text.encode("utf-8"), protect=protected)
