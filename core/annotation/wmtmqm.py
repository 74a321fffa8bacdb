"""WMT MQM TSV (``wmt-mqm-tsv``): import and export, written back byte for byte.

google/wmt-mqm-human-evaluation and MQM Viewer files are tab-separated
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
(:class:`~matchlight.core.annotation.interchange.TsvLayout` and each span's ``extra``).
"""

from __future__ import annotations

import csv
import io
import json
import os
from collections import Counter, defaultdict
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from typing import Any, Final

from matchlight.core.annotation.interchange import (
    CONFIRMED_ONLY,
    MAX_DIGITS,
    MQM_TSV_COLUMNS,
    ImportResult,
    TsvLayout,
    fit_to_line,
    line_for,
    read_text,
    severity_field,
)
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
from matchlight.core.annotation.typology import DEFAULT_TYPOLOGY, Typology, label_key
from matchlight.core.io import jsonsafe
from matchlight.core.io.csvfile import csv_text
from matchlight.core.io.inputs import InputError

__all__ = ["check_segment_ids", "export_mqm_tsv", "import_mqm_tsv", "read_segment_ids"]

_NO_ERROR: Final = frozenset({"no-error", "no_error", "no error"})
_OPEN, _CLOSE = "<v>", "</v>"


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
    text, _ = read_text(path)
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
            if len(seg_id.strip()) > MAX_DIGITS:
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
    text, bom = read_text(path)
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
        line = line_for(lines, system, segment, name, number)
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
        sev = severity_field(severity, name, number)
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
        spans.append(fit_to_line(span, fit_line, warnings, where))
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
    statuses: Collection[Status] = CONFIRMED_ONLY,
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
    column: pass only the statuses you mean (see
    :func:`~matchlight.core.annotation.interchange.left_out`).
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
