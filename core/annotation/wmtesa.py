"""WMT24 ESA ratings (``wmt24-esa-jsonl``): import and export.

The WMT24 ESA human evaluation (wmt24-news-systems ``jsonl/wmt24_esa.jsonl``, made from
Appraise exports) has one object per annotator, system and line with ``line_id`` (0-based),
``tgt``, ``esa_score`` and ``esa_spans`` of ``{"start_i", "end_i", "severity",
"error_type"}``. Appraise counts ``start_i``/``end_i`` as INCLUSIVE indices of UTF-16 code
units of the trimmed target; ``"missing"`` marks an omission, which becomes a point at the end
of the text (and a point span is written back as ``"missing"``). The 0-100 ``esa_score`` becomes
a segment score.
"""

from __future__ import annotations

import json
import math
import os
from collections import defaultdict
from collections.abc import Collection, Iterable, Mapping, Sequence
from typing import Any, Final

from matchlight.core.annotation.interchange import (
    CONFIRMED_ONLY,
    ImportResult,
    fit_to_line,
    int_field,
    json_lines,
    line_for,
    severity_field,
)
from matchlight.core.annotation.model import (
    AnnotationError,
    ErrorSpan,
    Origin,
    SegmentScore,
    Side,
    Status,
    utc_now,
)
from matchlight.core.annotation.offsets import Utf16Index, utf16_length
from matchlight.core.io.inputs import InputError

__all__ = ["export_wmt24_esa", "import_wmt24_esa"]

# JavaScript's String.prototype.trim() whitespace (what Appraise trims the target with).
_JS_SPACE: Final = (
    "\t\n\v\f\r \u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009"
    "\u200a\u2028\u2029\u202f\u205f\u3000\ufeff"
)

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
    for row_index, (number, record) in enumerate(json_lines(name, warnings)):
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
        segment = int_field(record["line_id"], "'line_id'", name, number)
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
        line = line_for(lines, system, segment, name, number)
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
                s16 = int_field(start_i, "start_i", name, number)
                e16 = int_field(end_i, "end_i", name, number)
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
                severity=severity_field(item.get("severity"), name, number),
                annotator=annotator,
                status=Status.UNDECIDED,
                origin=origin,
                extra={"wmt24_esa": info},
                when=now,
            )
            spans.append(fit_to_line(span, line, warnings, where))
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
    statuses: Collection[Status] = CONFIRMED_ONLY,
) -> str:
    """One WMT24 ESA record per (system, segment, annotator) with spans or a score.

    Keys and their order follow wmt24_esa.jsonl. ``start_i``/``end_i`` are inclusive UTF-16
    indices into the trimmed ``tgt``; a point span (omission) is written as ``"missing"``.
    Imported records keep their langs, src, doc_id, domain, times and speech_info. The format
    has no status and no source spans
    (:func:`~matchlight.core.annotation.interchange.left_out` counts what is not written).
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
