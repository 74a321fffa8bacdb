"""``matchlight session``: make a session file headlessly, or say what one holds.

``matchlight session create --out S.matchlight --ref R --hyp NAME=PATH ... [--src S]
[--spans FILE]`` reads the inputs (checked as the app checks them), records them with their
content hashes and their paths relative to the session file (so the batch can be moved to a
translator with its files), and can pre-annotate the outputs from an xCOMET JSONL, WMT MQM TSV or
WMT24 ESA JSONL file: the spans arrive undecided, for the translator to confirm or reject. This is
how a researcher prepares annotation batches. Paths on the command line are taken from the working
folder, as typed. An existing file is never replaced.

``matchlight session info S.matchlight`` prints the inputs (found where, changed or missing), the
settings and the annotation counts, without changing the file.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from matchlight.core.annotation.typology import AnnotationMode
from matchlight.core.cli.options import (
    CommandParser,
    Failed,
    add_inputs,
    add_scoring,
    add_version,
    config_from_args,
    print_out,
    run,
    segment_rows,
)
from matchlight.core.metrics.settings import SettingError

# What the sub-commands run is imported when they run: ``--help`` needs none of it.
if TYPE_CHECKING:
    from matchlight.core.annotation.interchange import ImportResult
    from matchlight.core.io.inputs import Comparison
    from matchlight.core.io.specs import ComparisonSpecs

__all__ = ["SPAN_FORMATS", "build_parser", "main"]

#: ``--spans-format``'s formats: the keys of
#: :data:`core.annotation.interchange.IMPORT_FORMATS` (tested equal), here so that ``--help``
#: does not import the readers.
SPAN_FORMATS = ("xcomet-jsonl", "wmt-mqm-tsv", "wmt24-esa-jsonl")


def build_parser() -> argparse.ArgumentParser:
    """``matchlight session``'s sub-commands and their options."""
    parser = CommandParser(
        prog="matchlight session",
        description="Make a Matchlight session file (for annotation batches), or inspect one.",
    )
    add_version(parser)
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    create = commands.add_parser(
        "create",
        help="make a session file from the inputs (optionally pre-annotated)",
        description=(
            "Make a session file from the inputs, ready to open in the app: the inputs are "
            "recorded with their content hashes and their paths relative to the session file. "
            "Optionally pre-annotate the outputs with spans to review (undecided)."
        ),
    )
    create.add_argument(
        "--out", required=True, metavar="S.matchlight", help="the session file to make (new)"
    )
    add_inputs(create, hyp_help="a system output, NAME=PATH; repeat")
    spans = create.add_argument_group("pre-annotation")
    spans.add_argument(
        "--spans", metavar="FILE", help="spans to review: xCOMET JSONL, WMT MQM TSV or ESA JSONL"
    )
    spans.add_argument(
        "--spans-format",
        choices=["auto", *SPAN_FORMATS],
        default="auto",
        help="the format of --spans (default: from its name and first record)",
    )
    spans.add_argument(
        "--spans-system",
        metavar="NAME",
        help="the system an xCOMET file without 'system' keys scores",
    )
    spans.add_argument("--annotator", default="", help="who will annotate (recorded in the file)")
    spans.add_argument(
        "--mode",
        choices=[m.value for m in AnnotationMode],
        default=AnnotationMode.MQM.value,
        help="MQM (categories and severities) or ESA (severities and a 0-100 score)",
    )
    add_scoring(
        create,
        segments_help=(
            "the rows to annotate, e.g. 1-100,250 (saved as the session's row selection; the "
            "app shows only these)"
        ),
    )
    info = commands.add_parser(
        "info",
        help="what a session holds (the file is not changed)",
        description="Print a session's inputs, settings and annotation counts.",
    )
    info.add_argument("session", metavar="S.matchlight")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """``matchlight session``; returns the exit status."""
    return run(build_parser, _main, argv)


def _main(parser: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    if args.command == "create":
        return _create(parser, args)
    return _info(args)


def _create(parser: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    from matchlight.core.analysis.selection import SegmentRange, Selection
    from matchlight.core.annotation.model import AnnotationError
    from matchlight.core.io.inputs import InputError
    from matchlight.core.io.specs import specs_from_arguments
    from matchlight.core.session.document import (
        AnnotationSettings,
        SessionDocument,
        create_session,
        inputs_for,
    )
    from matchlight.core.session.files import SUFFIX, remove_database
    from matchlight.core.session.store import SessionError

    out = Path(args.out)
    if out.suffix != SUFFIX:
        parser.error(f"--out {args.out!r}: a session file's name ends in {SUFFIX}")
    if os.path.lexists(out) or os.path.lexists(f"{out}-wal"):
        raise Failed(f"{out}: a file of that name already exists; choose another name")
    try:
        config = config_from_args(args)
    except SettingError as error:
        parser.error(str(error))
    try:
        specs = specs_from_arguments(args.src, args.ref or (), args.hyp or ()).absolute()
        comparison = specs.load()
    except InputError as error:
        raise Failed(str(error)) from None
    selection = None
    if segment_rows(parser, args.segments, len(comparison)) is not None:
        selection = Selection((SegmentRange(args.segments),))
    if os.path.abspath(out) in {os.path.abspath(p) for p in specs.paths}:
        raise Failed(f"{out}: is one of the inputs; choose another name")
    result = None if args.spans is None else _read_spans(args, comparison)
    try:
        inputs = inputs_for(specs, _reference_names(specs), [c.name for c in comparison.systems])
        document = SessionDocument(
            inputs=inputs,
            config=config,
            reference_names=_reference_names(specs),
            baseline=comparison.systems[0].name,
            selection=selection,
            annotation=AnnotationSettings(mode=AnnotationMode(args.mode), annotator=args.annotator),
        )
        store = create_session(out, document)
    except SessionError as error:
        raise Failed(str(error)) from None
    try:
        if result is not None:
            store.add_import(result)
    except (SessionError, AnnotationError) as error:
        store.close()
        remove_database(out)
        raise Failed(f"{args.spans}: {error}") from None
    finally:
        store.close()
    _say_created(out, comparison, result)
    return 0


def _reference_names(specs: ComparisonSpecs) -> tuple[str, ...]:
    """The references' names as the app gives them: the file stems (``ref``, ``ref2``)."""
    return tuple(Path(s.path).stem or f"Ref {r + 1}" for r, s in enumerate(specs.references))


def _sniff(path: str) -> str:
    """The format of a spans file from its name and first record."""
    from matchlight.core.annotation.interchange import sniff_import_format

    fmt = sniff_import_format(path)
    if fmt is None:
        raise Failed(
            f"{path}: cannot tell its format; give --spans-format ({', '.join(SPAN_FORMATS)})"
        )
    return fmt


def _read_spans(args: argparse.Namespace, comparison: Comparison) -> ImportResult:
    from matchlight.core.annotation.model import AnnotationError
    from matchlight.core.annotation.wmtesa import import_wmt24_esa
    from matchlight.core.annotation.wmtmqm import import_mqm_tsv
    from matchlight.core.annotation.xcomet import import_xcomet
    from matchlight.core.io.inputs import InputError

    path = args.spans
    if not os.path.isfile(path):
        kind = "no such file" if not os.path.lexists(path) else "not a regular file"
        raise Failed(f"{path}: {kind}")
    fmt = _sniff(path) if args.spans_format == "auto" else args.spans_format
    lines = {c.name: c.lines for c in comparison.systems}
    if args.spans_system is not None and args.spans_system not in lines:
        raise Failed(f"--spans-system {args.spans_system!r}: the systems are {', '.join(lines)}")
    try:
        if fmt == "xcomet-jsonl":
            result = import_xcomet(path, lines=lines, system=args.spans_system)
        elif fmt == "wmt-mqm-tsv":
            result = import_mqm_tsv(path, lines=lines)
        else:
            result = import_wmt24_esa(path, lines=lines)
    except (InputError, AnnotationError) as error:
        raise Failed(str(error)) from None
    known = set(lines)
    unknown = sorted({s.system for s in result.spans if s.system not in known})
    if unknown:
        raise Failed(
            f"{path}: spans of systems that are not inputs: {', '.join(unknown)} "
            f"(the systems are {', '.join(lines)})"
        )
    return result


def _say_created(out: Path, comparison: Comparison, result: ImportResult | None) -> None:
    systems = ", ".join(c.name for c in comparison.systems)
    print_out(
        f"{out}: {len(comparison):,} segments, {len(comparison.references)} "
        f"reference{'s' if len(comparison.references) != 1 else ''}, systems {systems}"
    )
    if result is not None:
        print_out(
            f"{out}: {len(result.spans):,} spans to review and {len(result.scores):,} segment "
            "scores imported"
        )
        for warning in result.warnings:
            print(f"matchlight: warning: {warning}", file=sys.stderr)


def _info(args: argparse.Namespace) -> int:
    from matchlight.core.session.document import read_document
    from matchlight.core.session.store import SessionError, SessionStore

    try:
        with SessionStore.open(args.session, read_only=True) as store:
            document = read_document(store)
            checks = store.check_inputs()
            summary = store.summary()
            imports = store.imports()
            version = store.format_version()
    except SessionError as error:
        raise Failed(str(error)) from None
    print_out(f"{args.session}: session format {version}")
    for check in checks:
        where = check.path if check.status != "missing" else "not found"
        print_out(f"  {check.input.role:<9} {check.input.name}: {check.status} ({where})")
    config = document.config
    if config is not None:
        print_out(f"  metrics: {', '.join(config.metrics)}")
    if document.baseline is not None:
        print_out(f"  baseline: {document.baseline}")
    note = document.annotation
    statuses = ", ".join(f"{n:,} {s}" for s, n in sorted(summary["by_status"].items()))
    print_out(
        f"  annotation: {note.mode.value.upper()}, {summary['spans']:,} spans"
        + (f" ({statuses})" if statuses else "")
        + f", {summary['segment_scores']:,} segment scores"
        + (f", annotator {note.annotator}" if note.annotator else "")
    )
    for record in imports:
        print_out(f"  imported: {record.name}")
    return 0
