"""Reading and writing error annotations in the formats MT evaluation uses.

Imports produce spans with status ``UNDECIDED`` (pre-annotations someone still has to rule on)
and origin ``imported:<format>``; exports write ``CONFIRMED`` spans unless asked for more.
Offsets are code points into the hypothesis line, whatever the file counts in.

* ``xcomet-jsonl``: xCOMET's ``error_spans`` (Unbabel/COMET ``XCOMETMetric``): dicts with
  ``text``, ``start``, ``end`` (character offsets into the MT output from the tokenizer's offset
  mapping, often with the leading space of the first sub-word), ``severity`` (minor / major /
  critical) and ``confidence``. Accepted per line: one span object with our keys ``system``,
  ``segment`` (1-based, as in Matchlight's CSV), ``category`` and ``note``; or one segment's list
  of spans; or an object holding ``error_spans``; or, on one line, the whole list of lists as
  ``model.predict(...).metadata.error_spans`` returns it. Export writes one span per line.
* ``wmt-mqm-tsv``: google/wmt-mqm-human-evaluation and MQM Viewer files: tab-separated
  ``system, doc, doc_id, seg_id, rater, source, target, category, severity`` (plus any further
  columns such as ``comment`` or ``metadata``), one row per error, the span marked in ``target``
  (or, for source-side errors, in ``source``) with ``<v>…</v>``, and ``No-error`` rows for
  segments without errors. ``seg_id`` is the 1-based line number, or is looked up in a list of
  segment ids (``segid.txt``: line ``i`` holds segment ``i``'s id; :func:`read_segment_ids`). A
  row marked in the target gives a target span; a row marked only in the source (an omission
  shown by the source words left out, a source error) gives a span on the SOURCE (side
  ``source``, offsets into the source line). Categories are mapped onto the typology
  (``Non-translation!`` is ``Non-translation``, ``Style/Awkward`` stays ``Style/Awkward``;
  :meth:`~matchlight.core.annotation.typology.Typology.resolve`), the file's own label kept for
  the export. Import keeps what an export needs to write the file back byte for byte
  (:class:`TsvLayout` and each span's ``extra``).
* ``wmt24-esa-jsonl``: the WMT24 ESA human evaluation (wmt24-news-systems ``jsonl/wmt24_esa.jsonl``,
  made from Appraise exports): one object per annotator, system and line with ``line_id``
  (0-based), ``tgt``, ``esa_score`` and ``esa_spans`` of ``{"start_i", "end_i", "severity",
  "error_type"}``. Appraise counts ``start_i``/``end_i`` as INCLUSIVE indices of UTF-16 code
  units of the trimmed target; ``"missing"`` marks an omission, which becomes a point at the end
  of the text (and a point span is written back as ``"missing"``).
* ``csv`` (export only): one row per span, text cells made spreadsheet-safe.

An export writes the spans of the statuses it is given (confirmed by default); CSV and xCOMET
say each span's status and side, and who confirmed or rejected it
(:mod:`~matchlight.core.annotation.review`). :func:`left_out` counts what an export leaves out
(undecided, rejected, or source spans a target-only format cannot hold), so a caller can say so
or include them.

Problems in an imported file raise :class:`~matchlight.core.io.inputs.InputError` naming the
file, the line and the problem.
"""

from __future__ import annotations

import csv
import io
import json
import math
import os
import unicodedata
from collections import Counter, defaultdict
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Final

from matchlight.core.annotation.anchoring import AnchorState, reanchor
from matchlight.core.annotation.model import (
    AnnotationError,
    ErrorSpan,
    Origin,
    SegmentScore,
    Severity,
    Side,
    Status,
    utc_now,
)
from matchlight.core.annotation.mqm import DEFAULT_WEIGHTS, MQMWeights
from matchlight.core.annotation.offsets import Utf16Index, utf16_length
from matchlight.core.annotation.review import REVIEWED_AT, REVIEWED_BY, reviewer_of
from matchlight.core.annotation.typology import DEFAULT_TYPOLOGY, Typology, label_key
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
    "CSV_COLUMNS",
    "EXPORT_FORMATS",
    "IMPORT_FORMATS",
    "MAX_IMPORT_BYTES",
    "MQM_TSV_COLUMNS",
    "ImportResult",
    "TsvLayout",
    "check_segment_ids",
    "export_csv",
    "export_mqm_tsv",
    "export_wmt24_esa",
    "export_xcomet",
    "import_mqm_tsv",
    "import_wmt24_esa",
    "import_xcomet",
    "left_out",
    "left_out_message",
    "read_segment_ids",
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
_NO_ERROR: Final = frozenset({"no-error", "no_error", "no error"})
_OPEN, _CLOSE = "<v>", "</v>"
_COUNTED: Final[tuple[Status, ...]] = (Status.CONFIRMED,)
# JavaScript's String.prototype.trim() whitespace (what Appraise trims the target with).
_JS_SPACE: Final = (
    "\t\n\v\f\r \u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009"
    "\u200a\u2028\u2029\u202f\u205f\u3000\ufeff"
)


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


def _read_text(path: str | os.PathLike[str]) -> tuple[str, bool]:
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


def _json_lines(path: str | os.PathLike[str], warnings: list[str]) -> Iterator[tuple[int, Any]]:
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


def _line_for(
    lines: Mapping[str, Sequence[str]] | None,
    system: str,
    segment: int,
    path: str,
    number: int,
) -> str | None:
    """The comparison's line for (system, segment), None when no lines were given."""
    return None if lines is None else _line_in(lines, system, segment, path, number)


def _line_in(
    lines: Mapping[str, Sequence[str]], system: str, segment: int, path: str, number: int
) -> str:
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
_MAX_DIGITS: Final = 9


def _int_field(value: Any, what: str, path: str, number: int, *, minimum: int = 0) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
        shown = repr(value) if len(repr(value)) <= 40 else repr(value)[:40] + "..."
        raise InputError(f"{what} must be an integer >= {minimum}, not {shown}", path, number)
    if value >= 10**_MAX_DIGITS:
        raise InputError(f"{what} {str(value)[:20]}... is too large", path, number)
    return value


def _severity(value: Any, path: str, number: int) -> Severity:
    if not isinstance(value, str):
        raise InputError(f"severity must be a string, not {value!r}", path, number)
    try:
        return Severity.parse(value)
    except AnnotationError as exc:
        raise InputError(str(exc), path, number) from None


def _fit_to_line(span: ErrorSpan, line: str | None, warnings: list[str], where: str) -> ErrorSpan:
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


# -- xCOMET JSONL ------------------------------------------------------------------------------


def _xcomet_records(
    path: str, default_system: str | None, warnings: list[str]
) -> Iterator[tuple[int, str, int, dict[str, Any] | None]]:
    """(line number, system, 0-based segment, span dict) for every span in the file, and
    (..., None) for a segment given with an empty list of spans (judged free of errors)."""
    segment_counter = 0

    def system_of(record: Mapping[str, Any], number: int) -> str:
        system = record.get("system", default_system)
        if not isinstance(system, str) or not system:
            raise InputError(
                "no 'system' for this span: add the key or choose the system to import into",
                path,
                number,
            )
        return system

    def spans_of(value: Any, number: int) -> list[dict[str, Any] | None]:
        """The span objects of a segment's list; [None] for an empty list (no errors)."""
        if not isinstance(value, list) or not all(isinstance(s, dict) for s in value):
            raise InputError("expected a list of span objects", path, number)
        return list(value) or [None]

    for number, value in _json_lines(path, warnings):
        if isinstance(value, list) and value and all(isinstance(v, list) for v in value):
            # The whole error_spans output (a list per segment) on one line.
            system = system_of({}, number)
            for seg_spans in value:
                for span in spans_of(seg_spans, number):
                    yield number, system, segment_counter, span
                segment_counter += 1
        elif isinstance(value, list):
            system = system_of({}, number)
            for span in spans_of(value, number):
                yield number, system, segment_counter, span
            segment_counter += 1
        elif isinstance(value, dict) and "error_spans" in value:
            system = system_of(value, number)
            if "segment" in value:
                segment = _int_field(value["segment"], "'segment'", path, number, minimum=1) - 1
            else:
                segment = segment_counter
            for span in spans_of(value["error_spans"], number):
                yield number, system, segment, span
            segment_counter = segment + 1
        elif isinstance(value, dict):
            if "segment" not in value:
                raise InputError("a span object needs 'segment' (1-based)", path, number)
            segment = _int_field(value["segment"], "'segment'", path, number, minimum=1) - 1
            yield number, system_of(value, number), segment, value
        else:
            raise InputError(
                f"expected a JSON object or list, not {type(value).__name__}", path, number
            )


def _same_text(a: str, b: str) -> bool:
    norm_a = unicodedata.normalize("NFKC", a).strip()
    return norm_a == unicodedata.normalize("NFKC", b).strip()


def import_xcomet(
    path: str | os.PathLike[str],
    *,
    lines: Mapping[str, Sequence[str]] | None,
    system: str | None = None,
    annotator: str = "xCOMET",
) -> ImportResult:
    """Read xCOMET error spans onto ``lines`` (system name -> hypothesis lines).

    ``system`` names the system for records without a ``system`` key. The stored offsets are
    trusted when they lie inside the line; the surrounding whitespace xCOMET includes (the
    sub-word's leading space) is trimmed. A span whose offsets lie outside the line is looked up
    by its text. ``confidence`` is kept in the span's ``extra``.

    With ``lines`` None (scoring a file alone) each span sits on its own text, its file offsets
    kept in ``extra["offsets"]``, and every segment xCOMET judged (with errors or an empty list)
    is also a review mark of ``annotator``: xCOMET's rating, 0 where it found no error. Onto a
    comparison, its spans are proposals for a person to rule on, and no segment is marked.
    """
    name = os.fspath(path)
    now = utc_now()
    origin = Origin.imported("xcomet-jsonl")
    spans: list[ErrorSpan] = []
    warnings: list[str] = []
    judged: dict[tuple[str, int], None] = {}
    for number, sys_name, segment, record in _xcomet_records(name, system, warnings):
        if lines is None:
            judged[(sys_name, segment)] = None
        if record is None:
            continue
        if lines is None:
            spans.append(
                _xcomet_alone(record, sys_name, segment, annotator, origin, now, name, number)
            )
            continue
        line = _line_in(lines, sys_name, segment, name, number)
        start, end = record.get("start"), record.get("end")
        text = record.get("text")
        if text is not None and not isinstance(text, str):
            raise InputError(f"'text' must be a string, not {text!r}", name, number)
        if (
            isinstance(start, int)
            and isinstance(end, int)
            and not isinstance(start, bool)
            and not isinstance(end, bool)
            and 0 <= start <= end <= len(line)
        ):
            selected = line[start:end]
            if selected.strip():
                start += len(selected) - len(selected.lstrip())
                end -= len(selected) - len(selected.rstrip())
            if text is not None and not _same_text(line[start:end], text):
                warnings.append(
                    f"{name}, line {number}: xCOMET's text {text!r} differs from "
                    f"{line[start:end]!r} at its offsets; the offsets are kept"
                )
        elif text:
            at = line.find(text.strip())
            if at < 0:
                raise InputError(
                    f"span [{start}, {end}) is outside segment {segment + 1} of {sys_name!r} "
                    f"({len(line)} characters) and its text {text!r} is not in the line",
                    name,
                    number,
                )
            start, end = at, at + len(text.strip())
        else:
            raise InputError(f"bad span offsets start={start!r}, end={end!r}", name, number)
        extra: dict[str, Any] = {}
        if "confidence" in record:
            extra["confidence"] = record["confidence"]
        category = record.get("category", "")
        note = record.get("note", "")
        if not isinstance(category, str) or not isinstance(note, str):
            raise InputError("'category' and 'note' must be strings", name, number)
        spans.append(
            ErrorSpan.create(
                system=sys_name,
                segment=segment,
                line=line,
                start=start,
                end=end,
                category=category,
                severity=_severity(record.get("severity"), name, number),
                annotator=annotator,
                note=note,
                status=Status.UNDECIDED,
                origin=origin,
                extra=extra,
                when=now,
            )
        )
    marks = tuple(SegmentScore(sys_name, seg, annotator, None, now) for sys_name, seg in judged)
    return ImportResult(tuple(spans), marks, tuple(warnings))


def _xcomet_alone(
    record: Mapping[str, Any],
    system: str,
    segment: int,
    annotator: str,
    origin: Origin,
    now: datetime,
    path: str,
    number: int,
) -> ErrorSpan:
    """An xCOMET record as a span on its own text (no comparison lines to place it on)."""
    text = record.get("text")
    if not isinstance(text, str):
        raise InputError("without the comparison's lines a span needs its 'text'", path, number)
    category, note = record.get("category", ""), record.get("note", "")
    if not isinstance(category, str) or not isinstance(note, str):
        raise InputError("'category' and 'note' must be strings", path, number)
    extra: dict[str, Any] = {"offsets": [record.get("start"), record.get("end")]}
    if "confidence" in record:
        extra["confidence"] = record["confidence"]
    return ErrorSpan.create(
        system=system,
        segment=segment,
        line=text,
        start=0,
        end=len(text),
        category=category,
        severity=_severity(record.get("severity"), path, number),
        annotator=annotator,
        note=note,
        status=Status.UNDECIDED,
        origin=origin,
        extra=extra,
        when=now,
    )


def export_xcomet(spans: Iterable[ErrorSpan], *, statuses: Collection[Status] = _COUNTED) -> str:
    """One xCOMET-style span object per line, with our keys system, segment (1-based), category,
    note and status; ``confidence`` is the imported one, or null for a person's span; a span
    someone confirmed or rejected also has ``reviewed_by`` and ``reviewed_at``. xCOMET spans are
    on the output: source spans are left out (:func:`left_out` counts them)."""
    rows = sorted(
        (s for s in spans if s.status in statuses and s.side is Side.TARGET),
        key=lambda s: (s.system, s.segment, s.start, s.end, s.created),
    )
    out = io.StringIO()
    for span in rows:
        record = {
            "text": span.text,
            "start": span.start,
            "end": span.end,
            "severity": span.severity.value,
            "confidence": span.extra.get("confidence"),
            "system": span.system,
            "segment": span.segment + 1,
            "category": span.category,
            "note": span.note,
            "status": span.status.value,
        }
        ruling = reviewer_of(span)
        if ruling is not None:
            record[REVIEWED_BY], record[REVIEWED_AT] = ruling
        out.write(json.dumps(record, ensure_ascii=False) + "\n")
    return out.getvalue()


# -- WMT MQM TSV -------------------------------------------------------------------------------


def _parse_marks(
    text: str, path: str, number: int, column: str
) -> tuple[str, list[list[int]], bool]:
    """``text`` without ``<v>``/``</v>`` tags, the marked ranges (code points) in it, and whether
    the last ``<v>`` is never closed (it then marks the rest of the text; Google's TED zh-en
    file has such a row, which MQM Viewer reads so too)."""
    plain: list[str] = []
    ranges: list[list[int]] = []
    length = 0
    opened: int | None = None
    pos = 0
    while True:
        nxt = text.find("<", pos)
        while nxt != -1 and not text.startswith((_OPEN, _CLOSE), nxt):
            nxt = text.find("<", nxt + 1)
        if nxt == -1:
            plain.append(text[pos:])
            break
        plain.append(text[pos:nxt])
        length += nxt - pos
        if text.startswith(_OPEN, nxt):
            if opened is not None:
                raise InputError(f"nested <v> in the {column}", path, number)
            opened = length
            pos = nxt + len(_OPEN)
        else:
            if opened is None:
                raise InputError(f"</v> without <v> in the {column}", path, number)
            ranges.append([opened, length])
            opened = None
            pos = nxt + len(_CLOSE)
    if opened is not None:
        ranges.append([opened, length + len(text) - pos])
    return "".join(plain), ranges, opened is not None


def _mark(text: str, ranges: Sequence[Sequence[int]], *, unclosed: bool = False) -> str:
    """``text`` with ``<v>…</v>`` around each (non-overlapping) range; ``unclosed``: the last
    range reaching the end of the text gets no ``</v>`` (as the file had it)."""
    if _OPEN in text or _CLOSE in text:
        raise AnnotationError(
            f"cannot mark errors in a text that itself contains {_OPEN} or {_CLOSE}: {text[:60]!r}"
        )
    events: list[tuple[int, int, str]] = []
    for start, end in ranges:
        if start == end:
            events.append((start, 1, _OPEN + _CLOSE))
        else:
            events.append((start, 2, _OPEN))
            events.append((end, 0, _CLOSE))
    events.sort(key=lambda e: (e[0], e[1]))
    out: list[str] = []
    pos = 0
    for at, _, tag in events:
        out.append(text[pos:at])
        out.append(tag)
        pos = at
    out.append(text[pos:])
    marked = "".join(out)
    if unclosed and ranges and max(end for _, end in ranges) == len(text):
        marked = marked.removesuffix(_CLOSE)
    return marked


def _tsv_rows(text: str) -> tuple[list[tuple[int, list[str]]], str]:
    """(line number, fields) per row, and the quoting ("none"/"minimal") that rewrites ``text``."""
    body = text[:-1] if text.endswith("\n") else text
    if not body:
        return [], "none"
    plain = [(i, line.split("\t")) for i, line in enumerate(body.split("\n"), start=1)]
    if '"' not in body:
        return plain, "none"
    try:
        reader = csv.reader(io.StringIO(text), delimiter="\t", strict=True)
        quoted: list[tuple[int, list[str]]] = []
        start = 1
        for row in reader:
            quoted.append((start, row))
            start = reader.line_num + 1
    except csv.Error:
        return plain, "none"
    again = csv_text((r for _, r in quoted), delimiter="\t", spreadsheet=False)
    if not text.endswith("\n"):
        again = again[:-1]
    if again == text and [r for _, r in quoted] != [r for _, r in plain]:
        return quoted, "minimal"
    return plain, "none"


def read_segment_ids(path: str | os.PathLike[str]) -> list[str]:
    """The segment ids of a ``segid.txt`` file: line ``i`` holds segment ``i``'s id (as the
    WMT MQM TSV's ``seg_id`` column writes it). Ids must be unique and not blank."""
    text, _ = _read_text(path)
    ids = text.split("\n")
    if ids and ids[-1] == "":
        ids.pop()
    return check_segment_ids(ids, os.fspath(path))


def check_segment_ids(values: Sequence[str], where: str) -> list[str]:
    """``values`` (segment ``i``'s id at ``i``, as a segid.txt or a label column holds them)
    stripped; an InputError names ``where`` and the line of a blank id or of a repeated one."""
    ids: list[str] = []
    seen: dict[str, int] = {}
    for number, raw in enumerate(values, start=1):
        value = str(raw).strip()
        if not value:
            raise InputError("a blank segment id", where, number)
        if value in seen:
            raise InputError(
                f"segment id {value!r} also stands on line {seen[value]}", where, number
            )
        seen[value] = number
        ids.append(value)
    return ids


def _segment_index(
    segment_ids: Sequence[str] | None, segment_base: int
) -> Callable[[str, str, int], int]:
    """``seg_id -> 0-based segment``: the id's position in ``segment_ids``, else
    ``int(seg_id) - segment_base``."""
    if segment_ids is not None:
        where = {str(v).strip(): i for i, v in enumerate(segment_ids)}

        def by_list(seg_id: str, path: str, number: int) -> int:
            found = where.get(seg_id.strip())
            if found is None:
                raise InputError(
                    f"seg_id {seg_id!r} is not in the segment-id list ({len(where)} ids)",
                    path,
                    number,
                )
            return found

        return by_list

    def by_number(seg_id: str, path: str, number: int) -> int:
        try:
            if len(seg_id.strip()) > _MAX_DIGITS:
                raise ValueError(seg_id)
            segment = int(seg_id) - segment_base
        except ValueError:
            shown = seg_id if len(seg_id) <= 20 else seg_id[:20] + "..."
            raise InputError(f"seg_id {shown!r} is not a segment number", path, number) from None
        if segment < 0:
            raise InputError(f"seg_id {seg_id} is below {segment_base}", path, number)
        return segment

    return by_number


def import_mqm_tsv(
    path: str | os.PathLike[str],
    *,
    lines: Mapping[str, Sequence[str]] | None = None,
    sources: Sequence[str] | None = None,
    system_names: Mapping[str, str] | None = None,
    segment_base: int = 1,
    segment_ids: Sequence[str] | None = None,
    typology: Typology = DEFAULT_TYPOLOGY,
    skip_other_systems: bool = False,
) -> ImportResult:
    """Read a WMT MQM TSV file (one row per error, ``No-error`` rows for clean segments).

    The segment index is ``seg_id``'s position in ``segment_ids`` (a segid.txt) when given,
    else ``seg_id - segment_base``. ``system_names`` maps the file's system names to the
    comparison's. With ``lines``, target spans are placed on the comparison's lines (and
    re-attached, with a warning, where the file's target text differs); with ``sources``,
    source spans on the comparison's source lines; without, on the file's own texts, which are
    kept so the file can be written back. ``No-error`` rows become segment review marks (score
    None). The rater is the annotator; a ``comment`` or ``note`` column, or the ``note`` in a
    ``metadata`` JSON column, is the note. A category the typology lacks is kept as the file
    spells it and listed in the result's ``unknown_categories`` and warnings. A row of a system
    ``lines`` does not have is an error, unless ``skip_other_systems`` (a comparison of some of
    the file's systems): such rows are skipped and counted in a warning.
    """
    name = os.fspath(path)
    text, bom = _read_text(path)
    newline = "\n"
    crlf = text.count("\r\n")
    if crlf and crlf == text.count("\n"):
        newline = "\r\n"
        text = text.replace("\r\n", "\n")
    rows, quoting = _tsv_rows(text)
    header: tuple[str, ...] | None = None
    if rows and [f.strip().casefold() for f in rows[0][1][:2]] == ["system", "doc"]:
        header = tuple(rows[0][1])
        rows = rows[1:]
    n_columns = len(header) if header is not None else (len(rows[0][1]) if rows else 10)
    if n_columns < len(MQM_TSV_COLUMNS):
        raise InputError(
            f"an MQM TSV row has at least {len(MQM_TSV_COLUMNS)} tab-separated columns "
            f"({', '.join(MQM_TSV_COLUMNS)}); this one has {n_columns}",
            name,
            rows[0][0] if rows else 1,
        )
    layout = TsvLayout(
        header=header,
        quoting=quoting,
        newline=newline,
        final_newline=text.endswith("\n"),
        bom=bom,
        width=n_columns,
    )
    extra_names = layout.extra_columns
    segment_of = _segment_index(segment_ids, segment_base)
    now = utc_now()
    origin = Origin.imported("wmt-mqm-tsv")
    spans: list[ErrorSpan] = []
    scores: list[SegmentScore] = []
    warnings: list[str] = []
    unknown: Counter[str] = Counter()
    resolved: dict[str, str | None] = {}
    reviewed: set[tuple[str, int, str]] = set()
    renames = system_names or {}
    skipped: Counter[str] = Counter()
    for row_index, (number, fields) in enumerate(rows):
        if len(fields) != n_columns:
            raise InputError(
                f"expected {n_columns} tab-separated columns, found {len(fields)}", name, number
            )
        raw_system, doc, doc_id, seg_id, rater, source, target, category, severity = fields[:9]
        rest = fields[9:]
        segment = segment_of(seg_id, name, number)
        system = renames.get(raw_system, raw_system)
        if not system:
            raise InputError("the system column is empty", name, number)
        if skip_other_systems and lines is not None and system not in lines:
            skipped[system] += 1
            continue
        info: dict[str, Any] = {"row": row_index, "doc": doc, "doc_id": doc_id, "seg_id": seg_id}
        if rest:
            info["rest"] = rest
        if system != raw_system:
            info["system"] = raw_system
        where = f"{name}, line {number}"
        plain_source, source_marks, open_source = _parse_marks(source, name, number, "source")
        info["source"] = plain_source
        plain_target, target_marks, open_target = _parse_marks(target, name, number, "target")
        for column, unclosed in (("source", open_source), ("target", open_target)):
            if unclosed:
                info.setdefault("unclosed", []).append(column)
                warnings.append(
                    f"{where}: a <v> without </v> in the {column}; the mark runs to its end"
                )
        line = _line_for(lines, system, segment, name, number)
        if line is None:
            info["target"] = plain_target
        elif line != plain_target:
            warnings.append(
                f"{name}, line {number}: the target differs from {system!r} segment "
                f"{segment + 1}; an export will write the comparison's line"
            )
        if severity.strip().casefold() in _NO_ERROR or category.strip().casefold() in _NO_ERROR:
            if source_marks:
                info["source_marks"] = source_marks
            info["category"], info["severity"] = category, severity
            key = (system, segment, rater)
            if key in reviewed:
                warnings.append(f"{where}: a second No-error row for the same segment and rater")
            reviewed.add(key)
            scores.append(SegmentScore(system, segment, rater, None, now, {"wmt_mqm": info}))
            continue
        sev = _severity(severity, name, number)
        if severity != sev.value.capitalize():
            info["severity"] = severity
        if category not in resolved:
            resolved[category] = typology.resolve(category)
        path_in_typology = resolved[category]
        if path_in_typology is None:
            unknown[category.strip()] += 1
            path_in_typology = category.strip()
        if path_in_typology != category:
            info["category"] = category
        side = Side.TARGET
        on = plain_target
        fit_line = line
        if target_marks:
            start, end = target_marks[0]
            if len(target_marks) > 1:
                info["more_marks"] = target_marks[1:]
            if source_marks:
                info["source_marks"] = source_marks
        elif source_marks:
            # Marked in the source only: the span sits on the source.
            side, on = Side.SOURCE, plain_source
            fit_line = None if sources is None else _source_line(sources, segment, name, number)
            start, end = source_marks[0]
            if len(source_marks) > 1:
                info["more_marks"] = source_marks[1:]
        else:
            # No mark at all: a whole-segment error (Non-translation) covers the whole target.
            info["unmarked"] = True
            start, end = 0, len(plain_target)
        note = _note_from(extra_names, rest)
        span = ErrorSpan.create(
            system=system,
            segment=segment,
            line=on,
            start=start,
            end=end,
            category=path_in_typology,
            severity=sev,
            annotator=rater,
            note=note,
            status=Status.UNDECIDED,
            origin=origin,
            extra={"wmt_mqm": info},
            when=now,
            side=side,
        )
        spans.append(_fit_to_line(span, fit_line, warnings, where))
    if skipped:
        listed = ", ".join(f"{s} ({n})" for s, n in sorted(skipped.items()))
        warnings.append(
            f"{name}: {sum(skipped.values()):,} rows of systems not in this comparison were "
            f"skipped: {listed}"
        )
    if unknown:
        listed = ", ".join(f"{c!r} ({n} rows)" for c, n in sorted(unknown.items()))
        warnings.append(
            f"{name}: categories not in the typology, kept as the file spells them: {listed}; "
            "add them to the typology to confirm these errors"
        )
    return ImportResult(
        tuple(spans), tuple(scores), tuple(warnings), layout, tuple(sorted(unknown))
    )


def _source_line(sources: Sequence[str], segment: int, path: str, number: int) -> str:
    if not 0 <= segment < len(sources):
        raise InputError(
            f"segment {segment + 1} is out of range: the source has {len(sources)} lines",
            path,
            number,
        )
    return sources[segment]


def _note_from(names: Sequence[str], rest: Sequence[str]) -> str:
    for column, value in zip(names, rest):
        if column in ("comment", "note", "notes") and value:
            return value
        if column == "metadata" and value.startswith("{"):
            try:
                meta = jsonsafe.loads(value)
            except jsonsafe.JsonError:
                continue
            note = meta.get("note") if isinstance(meta, dict) else None
            if isinstance(note, str) and note:
                return note
    return ""


def _doc_positions(docs: Sequence[str]) -> list[int]:
    """1-based position of each line within its document."""
    seen: dict[str, int] = defaultdict(int)
    out: list[int] = []
    for doc in docs:
        seen[doc] += 1
        out.append(seen[doc])
    return out


def export_mqm_tsv(
    spans: Iterable[ErrorSpan],
    scores: Iterable[SegmentScore] = (),
    *,
    lines: Mapping[str, Sequence[str]] | None = None,
    sources: Sequence[str] | None = None,
    docs: Sequence[str] | None = None,
    layout: TsvLayout | None = None,
    statuses: Collection[Status] = _COUNTED,
    segment_base: int = 1,
    segment_ids: Sequence[str] | None = None,
) -> str:
    """The spans (and review marks with no score, as ``No-error`` rows) as a WMT MQM TSV file.

    Rows imported from an MQM TSV keep their file's order and fields; other rows follow the last
    imported row of their segment, or come at the end in segment order. The target is the
    comparison's line from ``lines`` (else the imported target text), with ``<v>…</v>`` around
    a target span; a source span is marked in the source (``sources``' line, else the imported
    source text). ``sources`` and ``docs`` (one per line) fill the source and doc columns of
    spans that were not imported, and ``segment_ids`` (else ``segment + segment_base``) their
    seg_id. An imported span keeps the file's spelling of its category and severity while they
    still mean the span's. A layout without extra columns drops notes. The TSV has no status
    column: pass only the statuses you mean (see :func:`left_out`).
    """
    layout = layout or TsvLayout()
    extra_names = layout.extra_columns
    doc_pos = _doc_positions(docs) if docs is not None else None
    chosen = [s for s in spans if s.status in statuses]
    with_errors = {(s.system, s.segment, s.annotator) for s in chosen}
    # What imported rows say about a segment (doc, ids, source, the file's system name): new
    # spans on that segment take it, and are written after its last imported row.
    anchor_rows: dict[tuple[str, int], int] = {}
    segment_info: dict[tuple[str, int], dict[str, Any]] = {}
    scores = list(scores)
    records: list[ErrorSpan | SegmentScore] = [*chosen, *scores]
    for record in records:
        info = record.extra.get("wmt_mqm")
        if isinstance(info, dict) and isinstance(info.get("row"), int):
            key = (record.system, record.segment)
            anchor_rows[key] = max(anchor_rows.get(key, -1), info["row"])
            shared = ("doc", "doc_id", "seg_id", "source", "system", "target")
            segment_info.setdefault(key, {k: info[k] for k in shared if k in info})

    def info_of(record: ErrorSpan | SegmentScore) -> Mapping[str, Any]:
        info = record.extra.get("wmt_mqm")
        if isinstance(info, dict):
            return info
        return segment_info.get((record.system, record.segment), {})

    def text_of(system: str, segment: int, info: Mapping[str, Any]) -> str:
        if lines is not None and system in lines and segment < len(lines[system]):
            return lines[system][segment]
        if "target" in info:
            return str(info["target"])
        raise AnnotationError(
            f"no text for {system!r} segment {segment + 1}: pass the comparison's lines"
        )

    def common(system: str, segment: int, rater: str, info: Mapping[str, Any]) -> list[str]:
        if "doc" in info:
            doc, doc_id, seg_id = str(info["doc"]), str(info["doc_id"]), str(info["seg_id"])
        else:
            if segment_ids is not None and segment < len(segment_ids):
                seg_id = str(segment_ids[segment])
            else:
                seg_id = str(segment + segment_base)
            doc = docs[segment] if docs is not None and segment < len(docs) else ""
            doc_id = (
                str(doc_pos[segment]) if doc_pos is not None and segment < len(doc_pos) else seg_id
            )
        if "source" in info:
            source = str(info["source"])
        else:
            source = sources[segment] if sources is not None and segment < len(sources) else ""
        return [str(info.get("system", system)), doc, doc_id, seg_id, rater, source]

    def rest_of(info: Mapping[str, Any], note: str) -> list[str]:
        if "rest" in info:
            return [str(v) for v in info["rest"]]
        out = []
        for column in extra_names:
            if column in ("comment", "note", "notes"):
                out.append(note)
            elif column == "metadata":
                out.append(json.dumps({"note": note}, ensure_ascii=False) if note else "{}")
            else:
                out.append("")
        return out

    def order(
        system: str, segment: int, info: Mapping[str, Any], tail: tuple[Any, ...]
    ) -> tuple[Any, ...]:
        if isinstance(info.get("row"), int):
            return (0, info["row"], 0, *tail)
        anchor = anchor_rows.get((system, segment))
        if anchor is not None:
            return (0, anchor, 1, *tail)
        return (1, segment, 0, system, *tail)

    def source_of(span: ErrorSpan, info: Mapping[str, Any]) -> str:
        if sources is not None and span.segment < len(sources):
            return sources[span.segment]
        if "source" in info:
            return str(info["source"])
        raise AnnotationError(
            f"no source text for {span.system!r} segment {span.segment + 1}: pass the sources"
        )

    keyed: list[tuple[tuple[Any, ...], list[str]]] = []
    for span in chosen:
        info = info_of(span)
        line = text_of(span.system, span.segment, info)
        more: list[Sequence[int]] = list(info.get("more_marks", []))
        row = common(span.system, span.segment, span.annotator, info)
        unclosed = info.get("unclosed", [])
        if span.side is Side.SOURCE:
            row[5] = _mark(
                source_of(span, info),
                [(span.start, span.end), *more],
                unclosed="source" in unclosed,
            )
            target = _mark(line, [])
        else:
            ranges = more if info.get("unmarked") else [(span.start, span.end), *more]
            row[5] = _mark(row[5], info.get("source_marks", []), unclosed="source" in unclosed)
            target = _mark(line, ranges, unclosed="target" in unclosed)
        row += [
            target,
            _category_label(span, info),
            _severity_label(span, info),
            *rest_of(info, span.note),
        ]
        tail = (span.annotator, span.start, span.end, span.created.isoformat())
        keyed.append((order(span.system, span.segment, info, tail), row))
    for score in scores:
        if score.score is not None or score.key in with_errors:
            continue
        info = info_of(score)
        row = common(score.system, score.segment, score.annotator, info)
        unclosed = info.get("unclosed", [])
        row[5] = _mark(row[5], info.get("source_marks", []), unclosed="source" in unclosed)
        row += [
            _mark(text_of(score.system, score.segment, info), []),
            str(info.get("category", "No-error")),
            str(info.get("severity", "No-error")),
            *rest_of(info, ""),
        ]
        keyed.append((order(score.system, score.segment, info, (score.annotator, -1, -1, "")), row))
    keyed.sort(key=lambda item: item[0])
    rows = [row for _, row in keyed]
    if layout.header is not None:
        rows.insert(0, list(layout.header))
    return _write_tsv(rows, layout)


def _category_label(span: ErrorSpan, info: Mapping[str, Any]) -> str:
    """The file's own spelling of the span's category while it still names it, else the path."""
    label = info.get("category")
    if isinstance(label, str) and label_key(label) == label_key(span.category):
        return label
    return span.category


def _severity_label(span: ErrorSpan, info: Mapping[str, Any]) -> str:
    """The file's own spelling of the span's severity while it still names it (``major``)."""
    label = info.get("severity")
    if isinstance(label, str):
        try:
            if Severity.parse(label) is span.severity:
                return label
        except AnnotationError:
            pass
    return span.severity.value.capitalize()


def _write_tsv(rows: list[list[str]], layout: TsvLayout) -> str:
    width = layout.n_columns
    for row in rows:
        if len(row) != width:
            raise AnnotationError(f"a TSV row has {len(row)} fields, the layout {width}")
    try:
        text = csv_text(
            rows,
            delimiter="\t",
            lineterminator=layout.newline,
            spreadsheet=False,
            quoting="minimal" if layout.quoting == "minimal" else "none",
        )
    except ValueError as exc:
        raise AnnotationError(str(exc)) from None
    if not layout.final_newline and text.endswith(layout.newline):
        text = text[: -len(layout.newline)]
    return ("\ufeff" if layout.bom else "") + text


# -- WMT24 ESA JSONL ---------------------------------------------------------------------------

_ESA_RECORD_KEYS: Final = ("langs", "src", "doc_id", "domain", "times", "speech_info")


def _esa_score(value: Any, path: str, number: int) -> float | None:
    if value is None or value == "":
        return None
    try:
        score = float(value)
    except (TypeError, ValueError):
        raise InputError(f"esa_score {value!r} is not a number", path, number) from None
    if isinstance(value, bool) or not math.isfinite(score) or not 0.0 <= score <= 100.0:
        raise InputError(f"esa_score {value!r} is not between 0 and 100", path, number)
    return score


def import_wmt24_esa(
    path: str | os.PathLike[str],
    *,
    lines: Mapping[str, Sequence[str]] | None = None,
    system_names: Mapping[str, str] | None = None,
) -> ImportResult:
    """Read WMT24 ESA records: their spans (undecided) and their 0–100 segment scores.

    ``line_id`` is the 0-based segment. Spans are placed on ``tgt`` and, with ``lines``, moved to
    the comparison's line (a warning says where the texts differ). Appraise's ``error_type``
    (a list such as ``["Accuracy", "Mistranslation"]``, null in ESA) becomes the category path.
    """
    name = os.fspath(path)
    now = utc_now()
    origin = Origin.imported("wmt24-esa-jsonl")
    renames = system_names or {}
    spans: list[ErrorSpan] = []
    scores: list[SegmentScore] = []
    warnings: list[str] = []
    for row_index, (number, record) in enumerate(_json_lines(name, warnings)):
        if not isinstance(record, dict):
            raise InputError("expected a JSON object per line", name, number)
        for key in ("system", "line_id", "tgt", "annotator"):
            if key not in record:
                raise InputError(f"missing key {key!r}", name, number)
        raw_system = record["system"]
        if not isinstance(raw_system, str) or not raw_system:
            raise InputError(
                f"'system' must be a non-empty string, not {raw_system!r}", name, number
            )
        system = renames.get(raw_system, raw_system)
        segment = _int_field(record["line_id"], "'line_id'", name, number)
        tgt = record["tgt"]
        if not isinstance(tgt, str):
            raise InputError("'tgt' must be a string", name, number)
        annotator = str(record["annotator"])
        raw_spans = record.get("esa_spans") or []
        if not isinstance(raw_spans, list):
            raise InputError("'esa_spans' must be a list", name, number)
        info: dict[str, Any] = {"row": row_index}
        info.update({k: record[k] for k in _ESA_RECORD_KEYS if k in record})
        if system != raw_system:
            info["system"] = raw_system
        line = _line_for(lines, system, segment, name, number)
        where = f"{name}, line {number}"
        trimmed = tgt.strip(_JS_SPACE)
        lead = len(tgt) - len(tgt.lstrip(_JS_SPACE))
        index = Utf16Index(trimmed)
        units = utf16_length(trimmed)
        for item in raw_spans:
            if not isinstance(item, dict):
                raise InputError("each esa_spans entry must be an object", name, number)
            start_i, end_i = item.get("start_i"), item.get("end_i")
            if start_i == "missing" or end_i == "missing":
                start = end = lead + len(trimmed)
            else:
                s16 = _int_field(start_i, "start_i", name, number)
                e16 = _int_field(end_i, "end_i", name, number)
                if not s16 <= e16 < units:
                    raise InputError(
                        f"span start_i={s16}, end_i={e16} (inclusive) is outside the "
                        f"{units}-unit target",
                        name,
                        number,
                    )
                try:
                    start = lead + index.to_codepoint(s16)
                    end = lead + index.to_codepoint(e16 + 1)
                except ValueError as exc:
                    raise InputError(
                        f"span start_i={s16}, end_i={e16}: {exc}", name, number
                    ) from None
            error_type = item.get("error_type")
            if error_type is None:
                category = ""
            elif isinstance(error_type, list) and all(isinstance(p, str) for p in error_type):
                category = "/".join(error_type)
            elif isinstance(error_type, str):
                category = error_type
            else:
                raise InputError(f"bad error_type {error_type!r}", name, number)
            span = ErrorSpan.create(
                system=system,
                segment=segment,
                line=tgt,
                start=start,
                end=end,
                category=category,
                severity=_severity(item.get("severity"), name, number),
                annotator=annotator,
                status=Status.UNDECIDED,
                origin=origin,
                extra={"wmt24_esa": info},
                when=now,
            )
            spans.append(_fit_to_line(span, line, warnings, where))
        if line is not None and line != tgt:
            warnings.append(f"{where}: 'tgt' differs from {system!r} segment {segment + 1}")
        score = _esa_score(record.get("esa_score"), name, number)
        scores.append(SegmentScore(system, segment, annotator, score, now, {"wmt24_esa": info}))
    return ImportResult(tuple(spans), tuple(scores), tuple(warnings))


def _json_number(value: float | None) -> float | int | None:
    if value is None:
        return None
    return int(value) if float(value).is_integer() else value


def export_wmt24_esa(
    spans: Iterable[ErrorSpan],
    scores: Iterable[SegmentScore] = (),
    *,
    lines: Mapping[str, Sequence[str]],
    sources: Sequence[str] | None = None,
    docs: Sequence[str] | None = None,
    statuses: Collection[Status] = _COUNTED,
) -> str:
    """One WMT24 ESA record per (system, segment, annotator) with spans or a score.

    Keys and their order follow wmt24_esa.jsonl. ``start_i``/``end_i`` are inclusive UTF-16
    indices into the trimmed ``tgt``; a point span (omission) is written as ``"missing"``.
    Imported records keep their langs, src, doc_id, domain, times and speech_info. The format
    has no status and no source spans (:func:`left_out` counts what is not written).
    """
    groups: dict[tuple[str, int, str], list[ErrorSpan]] = defaultdict(list)
    for span in spans:
        if span.status in statuses and span.side is Side.TARGET:
            groups[(span.system, span.segment, span.annotator)].append(span)
    score_of = {s.key: s for s in scores}
    keys = set(groups) | set(score_of)
    records: list[tuple[tuple[Any, ...], dict[str, Any]]] = []
    for key in keys:
        system, segment, annotator = key
        if system not in lines or segment >= len(lines[system]):
            raise AnnotationError(f"no text for {system!r} segment {segment + 1}")
        tgt = lines[system][segment]
        group = sorted(groups.get(key, []), key=lambda s: (s.start, s.end, s.created))
        score = score_of.get(key)
        info: Mapping[str, Any] = {}
        for holder in ([score] if score is not None else []) + list(group):
            candidate = holder.extra.get("wmt24_esa")
            if isinstance(candidate, dict):
                info = candidate
                break
        trimmed = tgt.strip(_JS_SPACE)
        lead = len(tgt) - len(tgt.lstrip(_JS_SPACE))
        index = Utf16Index(trimmed)
        esa_spans = []
        for span in group:
            if span.is_omission:
                start_i: int | str = "missing"
                end_i: int | str = "missing"
            else:
                s = min(max(span.start - lead, 0), len(trimmed))
                e = min(max(span.end - lead, 0), len(trimmed))
                if e <= s:
                    raise AnnotationError(
                        f"span {span.text!r} of {system!r} segment {segment + 1} covers only "
                        "whitespace Appraise trims; it cannot be written as ESA"
                    )
                start_i, end_i = index.to_utf16(s), index.to_utf16(e) - 1
            error_type = span.category.split("/") if span.category else None
            esa_spans.append(
                {
                    "start_i": start_i,
                    "end_i": end_i,
                    "severity": span.severity.value,
                    "error_type": error_type,
                }
            )
        record = {
            "langs": info.get("langs", ""),
            "line_id": segment,
            "src": info.get("src", sources[segment] if sources and segment < len(sources) else ""),
            "tgt": tgt,
            "doc_id": info.get("doc_id", docs[segment] if docs and segment < len(docs) else ""),
            "domain": info.get("domain", ""),
            "esa_spans": esa_spans,
            "esa_score": _json_number(score.score) if score is not None else None,
            "times": info.get("times"),
            "system": str(info.get("system", system)),
            "annotator": annotator,
            "speech_info": info.get("speech_info"),
        }
        row = info.get("row")
        order = (0, row) if isinstance(row, int) else (1, segment, system, annotator)
        records.append((order, record))
    records.sort(key=lambda item: item[0])
    return "".join(json.dumps(r, ensure_ascii=False) + "\n" for _, r in records)


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
    statuses: Collection[Status] = _COUNTED,
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
    spans: Iterable[ErrorSpan], fmt: str, *, statuses: Collection[Status] = _COUNTED
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
