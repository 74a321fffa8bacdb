"""``matchlight mqm``: per-system MQM scores from an annotation file alone.

The file is read by :mod:`core.annotation.interchange` (a WMT MQM TSV, xCOMET error spans or
WMT24 ESA records) and scored by :mod:`core.annotation.mqm`: Freitag et al. (2021)'s weights
unless ``--weights`` names others; a segment's score is the mean over its raters, a system's
the mean over its rated segments. Each system's line says how many segments and raters its
score rests on, and the errors per severity; a second table gives the errors per category and
severity. Systems rated on different segments are flagged, and ``--common`` scores them all on
the segments they share.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
from collections import Counter
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

from matchlight.core.annotation.model import AnnotationError, Severity, Status
from matchlight.core.annotation.mqm import (
    WEIGHT_PRESETS,
    MQMWeights,
    SegmentSets,
    SystemFigure,
    SystemMQM,
    compare_segment_sets,
    mqm_summary,
    segment_mqm,
    system_esa,
    system_mqm,
)
from matchlight.core.cli.options import (
    CommandParser,
    Failed,
    add_version,
    check_names,
    check_targets,
    print_out,
    run,
)
from matchlight.core.cli.score import json_number

# The readers and the writer are imported when the command runs: ``--help`` needs neither.
if TYPE_CHECKING:
    from matchlight.core.annotation.interchange import ImportResult

__all__ = ["FORMATS", "build_parser", "format_tables", "main", "mqm_payload", "read_weights"]

#: ``--format`` names and what they read.
FORMATS: Final[dict[str, str]] = {
    "wmt-tsv": "a WMT MQM TSV (google/wmt-mqm-human-evaluation, MQM Viewer)",
    "xcomet": "xCOMET error spans (JSON Lines; spans without a category weigh by severity)",
    "esa": "WMT24 ESA records (JSON Lines): ESA scores, and MQM from categorised spans",
}
#: The largest weights file read.
MAX_WEIGHTS_BYTES: Final = 1024 * 1024
#: Imported spans are undecided pre-annotations; as ratings, they all count.
_STATUSES: Final = (Status.CONFIRMED, Status.UNDECIDED)
_SEVERITIES: Final = (Severity.CRITICAL, Severity.MAJOR, Severity.MINOR, Severity.NEUTRAL)


def build_parser() -> argparse.ArgumentParser:
    """``matchlight mqm``'s options."""
    parser = CommandParser(
        prog="matchlight mqm",
        description=(
            "Per-system MQM scores from an annotation file alone, as Freitag et al. (2021) "
            "define them: each error weighs by its severity and category (Major 5, "
            "Non-translation 25, Minor 1, Minor Fluency/Punctuation 0.1, Neutral 0, source "
            "errors 0), a segment's score is the mean over its raters, a system's the mean over "
            "its rated segments. Lower is better."
        ),
    )
    parser.add_argument("spans", metavar="SPANS", help="the annotation file")
    parser.add_argument(
        "--format",
        choices=tuple(FORMATS),
        default="wmt-tsv",
        help="; ".join(f"{k}: {v}" for k, v in FORMATS.items()) + " (default wmt-tsv)",
    )
    parser.add_argument(
        "--weights",
        metavar="NAME|FILE.json",
        default="freitag2021",
        help="the weights: "
        + ", ".join(WEIGHT_PRESETS)
        + " (source-counted weighs source errors as any other error, as Google's published TED "
        "zh-en table did), or a JSON list of rules {weight, severity, category} as the app's "
        "weights dialog saves them; the first rule that matches an error gives its weight "
        "(default freitag2021)",
    )
    parser.add_argument(
        "--segid",
        metavar="FILE",
        help="wmt-tsv: a segment-id file (line i holds the seg_id of segment i, as "
        "segid.txt); without it seg_id is the 1-based segment number",
    )
    parser.add_argument(
        "--system",
        metavar="NAME",
        help="xcomet: the system of records that do not name one",
    )
    parser.add_argument(
        "--common",
        action="store_true",
        help="score every system on the segments all of them were rated on",
    )
    parser.add_argument("--json", metavar="OUT.json", help="write the figures as JSON")
    parser.add_argument("-q", "--quiet", action="store_true", help="no warnings on stderr")
    add_version(parser)
    return parser


def read_weights(value: str) -> tuple[str, MQMWeights]:
    """``--weights``: a preset name, or a JSON file of rules. Raises :class:`Failed`."""
    if value in WEIGHT_PRESETS:
        return value, WEIGHT_PRESETS[value]
    try:
        size = os.path.getsize(value)
        if size > MAX_WEIGHTS_BYTES:
            raise Failed(f"{value}: a weights file is at most {MAX_WEIGHTS_BYTES // 1024} KiB")
        data = json.loads(Path(value).read_bytes().decode("utf-8"))
        return value, MQMWeights.from_json(data)
    except FileNotFoundError:
        names = ", ".join(WEIGHT_PRESETS)
        raise Failed(f"--weights {value!r}: no such file, nor one of {names}") from None
    except OSError as error:
        raise Failed(f"{value}: cannot read the weights: {error.strerror or error}") from None
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        raise Failed(f"{value}: not a JSON weights file ({error})") from None
    except AnnotationError as error:
        raise Failed(f"{value}: {error}") from None


def _read(args: argparse.Namespace) -> ImportResult:
    from matchlight.core.annotation.wmtesa import import_wmt24_esa
    from matchlight.core.annotation.wmtmqm import import_mqm_tsv, read_segment_ids
    from matchlight.core.annotation.xcomet import import_xcomet
    from matchlight.core.io.inputs import InputError

    try:
        if args.format == "wmt-tsv":
            ids = read_segment_ids(args.segid) if args.segid else None
            return import_mqm_tsv(args.spans, segment_ids=ids)
        if args.format == "xcomet":
            return import_xcomet(args.spans, lines=None, system=args.system)
        return import_wmt24_esa(args.spans)
    except (InputError, AnnotationError) as error:
        raise Failed(str(error)) from None


def mqm_payload(
    result: ImportResult,
    *,
    weights: MQMWeights,
    severity_only: bool = False,
    common: bool = False,
) -> dict[str, Any]:
    """The figures ``matchlight mqm`` prints and writes: per system (best first) its MQM score,
    segments, raters, errors; whether the systems share their segments; warnings."""
    spans, scores = result.spans, result.scores
    options: dict[str, Any] = {
        "weights": weights,
        "statuses": _STATUSES,
        "severity_only": severity_only,
    }
    rated: dict[str, set[int]] = {}
    for system, segment in segment_mqm(spans, scores, **options):
        rated.setdefault(system, set()).add(segment)
    sets: SegmentSets = compare_segment_sets(rated)
    shared = {name: sets.common for name in rated}
    summary: Mapping[str, SystemMQM] = mqm_summary(
        spans, scores, segments=shared if common else None, **options
    )
    on_common = system_mqm(spans, scores, segments=shared, **options)
    esa: Mapping[str, SystemFigure] = system_esa(scores)
    warnings: list[str] = []
    if not sets.same and rated:
        warning = sets.warning()
        if warning:
            warnings.append(
                warning + (" (--common: scored on those)" if common else " Use --common.")
            )
    systems: dict[str, dict[str, Any]] = {}
    names = sorted(
        set(summary) | set(esa),
        key=lambda n: (math.isnan(_mqm_of(summary, n)), _mqm_of(summary, n), n),
    )
    for name in names:
        item = summary.get(name)
        entry: dict[str, Any] = (
            item.to_json() if item is not None else {"mqm": math.nan, "segments": 0, "raters": 0}
        )
        entry["mqm"] = json_number(entry["mqm"])
        entry["penalty_by_category"] = {
            k: json_number(v) for k, v in entry.get("penalty_by_category", {}).items()
        }
        if not sets.same and name in on_common:
            entry["mqm_common"] = json_number(on_common[name])
        if name in esa:
            figure = esa[name]
            entry["esa"] = {
                "score": json_number(figure.value),
                "segments": figure.segments,
                "raters": figure.raters,
            }
        systems[name] = entry
    return {
        "systems": systems,
        "weights": weights.to_json(),
        "averaging": "segment: mean over its raters; system: mean over its rated segments",
        "counted": [s.value for s in _STATUSES],
        "same_segments": sets.same,
        "common_segments": len(sets.common),
        "common_only": common,
        "warnings": [*result.warnings, *warnings],
    }


def _mqm_of(summary: Mapping[str, SystemMQM], name: str) -> float:
    item = summary.get(name)
    return math.nan if item is None else item.mqm


def _cell(value: Any, decimals: int = 3) -> str:
    if value is None:
        return "—"
    if isinstance(value, float):
        return f"{value:.{decimals}f}"
    return f"{value:,}"


def format_tables(payload: Mapping[str, Any]) -> str:
    """The systems table (best first) and the errors per category and severity."""
    systems: Mapping[str, Mapping[str, Any]] = payload["systems"]
    has_common = any("mqm_common" in e for e in systems.values())
    has_esa = any("esa" in e for e in systems.values())
    header = ["System", "MQM"]
    if has_common:
        header.append("MQM (common)")
    header += ["Segments", "Raters", "Errors"]
    header += [sev.value.capitalize() for sev in _SEVERITIES]
    if has_esa:
        header += ["ESA", "ESA segments"]
    rows = [header]
    for name, entry in systems.items():
        by_sev = entry.get("by_severity", {})
        row = [name, _cell(entry["mqm"])]
        if has_common:
            row.append(_cell(entry.get("mqm_common")))
        row += [_cell(entry["segments"]), _cell(entry["raters"]), _cell(entry.get("errors", 0))]
        row += [_cell(by_sev.get(sev.value, 0)) for sev in _SEVERITIES]
        if has_esa:
            esa = entry.get("esa") or {}
            row += [_cell(esa.get("score"), 2), _cell(esa.get("segments", 0))]
        rows.append(row)
    totals: dict[str, Counter[str]] = {}
    for entry in systems.values():
        for category, by_sev in entry.get("by_category", {}).items():
            totals.setdefault(category or "(no category)", Counter()).update(by_sev)
    lines = [_aligned(rows)]
    if totals:
        cat_rows = [["Category", *(sev.value.capitalize() for sev in _SEVERITIES), "All"]]
        for category in sorted(totals):
            counts = totals[category]
            cat_rows.append(
                [
                    category,
                    *(_cell(counts.get(sev.value, 0)) for sev in _SEVERITIES),
                    _cell(sum(counts.values())),
                ]
            )
        lines += ["", "Errors per category and severity (all systems)", _aligned(cat_rows)]
    return "\n".join(lines)


def _aligned(rows: Sequence[Sequence[str]]) -> str:
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    out = []
    for row in rows:
        cells = [row[0].ljust(widths[0])]
        cells += [cell.rjust(width) for cell, width in zip(row[1:], widths[1:], strict=True)]
        out.append("  ".join(cells).rstrip())
    return "\n".join(out)


def main(argv: Sequence[str] | None = None) -> int:
    """``matchlight mqm``; returns the exit status."""
    return run(build_parser, _main, argv)


def _main(parser: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    check_names(parser, [("--json", args.json)])
    if args.segid and args.format != "wmt-tsv":
        parser.error("--segid is for --format wmt-tsv")
    if args.system and args.format != "xcomet":
        parser.error("--system is for --format xcomet")
    protect = [p for p in (args.spans, args.segid, args.weights) if p]
    check_targets([("--json", args.json)], protect=protect)
    name, weights = read_weights(args.weights)
    result = _read(args)
    payload = mqm_payload(
        result, weights=weights, severity_only=args.format == "xcomet", common=args.common
    )
    payload = {"file": args.spans, "format": args.format, "weights_name": name, **payload}
    if not args.quiet:
        for warning in payload["warnings"]:
            print(f"matchlight: warning: {warning}", file=sys.stderr)
    if not payload["systems"]:
        raise Failed(f"{args.spans}: no ratings to score (no errors and no No-error rows)")
    print_out(format_tables(payload))
    if args.json:
        from matchlight.core.io.safewrite import write_file_atomic

        text = json.dumps(payload, indent=2, ensure_ascii=False, allow_nan=False) + "\n"
        try:
            write_file_atomic(
                args.json, text.encode("utf-8", errors="backslashreplace"), protect=protect
            )
        except OSError as error:
            raise Failed(str(error)) from None
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
