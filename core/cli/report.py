"""``matchlight report``: score a comparison and write a self-contained HTML report.

It takes the inputs and metric options of ``matchlight score`` (:mod:`core.cli.options`: each
metric's :class:`~core.metrics.base.Setting` becomes an option), plus ``--session`` for
the settings, baseline, row selection and annotations of a saved session. With a session and
no ``--ref``/``--hyp`` the inputs it recorded are read. Options given on the command line win
over the session's settings; ``--segments`` replaces its selection.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING

from matchlight.core.cli.options import (
    DEFAULT_BOOTSTRAP_SAMPLES,
    DEFAULT_SEED,
    MAX_NUMBER_TEXT,
    CommandParser,
    Failed,
    add_inputs,
    add_paired_test,
    add_running,
    add_scoring,
    add_version,
    check_names,
    check_targets,
    config_from_args,
    count,
    fail,
    input_specs,
    read_comparison,
    run,
    score_comparison,
    segment_rows,
    shown,
    warn_inputs,
)
from matchlight.core.metrics.settings import SettingError

# What the command runs is imported when it runs: ``--help`` needs none of it.
if TYPE_CHECKING:
    from matchlight.core.io.inputs import InputSpec
    from matchlight.core.report.context import ReportAnnotations
    from matchlight.core.report.sessionfile import SavedSession
    from matchlight.core.session.comparison import ComparisonSession

__all__ = ["DEFAULT_MAX_ROWS", "build_parser", "main"]

#: The segments the page shows with their texts unless told otherwise: the page's own default
#: (:data:`core.report.context.DEFAULT_MAX_ROWS`, tested equal), here so that ``--help`` does not
#: import the page.
DEFAULT_MAX_ROWS = 200


def build_parser() -> argparse.ArgumentParser:
    """``matchlight report``'s options."""
    parser = CommandParser(
        prog="matchlight report",
        description=(
            "Score line-aligned system outputs against references and write one self-contained "
            "HTML page: corpus scores and signatures, charts, significance, MQM and the "
            "selected rows with their highlights. It opens with no network."
        ),
    )
    files = add_inputs(
        parser,
        ref_help="a reference; repeat",
        hyp_help="a system output; repeat",
        required=False,
        note="; with --session, the session's own inputs when none are given",
    )
    files.add_argument(
        "--session",
        metavar="FILE.matchlight",
        help="a saved session: its settings, baseline, selection and annotations",
    )
    add_scoring(
        parser,
        segments_help="the selected segments, e.g. 1-500,800,900- (replaces the session's "
        "selection)",
        default_metrics="the session's, else bleu,rouge",
        separator_help="sentence separator inside a segment (as matchlight score; default a "
        "newline)",
    )

    page = parser.add_argument_group("the report")
    page.add_argument("--out", "-o", required=True, metavar="OUT.html", help="the page to write")
    page.add_argument("--title", help="the page's title (default: the systems' names)")
    page.add_argument(
        "--baseline",
        metavar="SYSTEM",
        help="the baseline system, by name or 1-based number (default: the session's, else "
        "the first)",
    )
    page.add_argument(
        "--max-rows",
        type=count("--max-rows", minimum=0),
        default=DEFAULT_MAX_ROWS,
        metavar="N",
        help=f"segments shown with their texts (default {DEFAULT_MAX_ROWS}; 0: all selected)",
    )
    page.add_argument(
        "--highlight",
        metavar="MODE",
        help="the highlight mode of the rows: bleu, chrf, lcs, nltk, ter, ter_edits (default: the "
        "first scored)",
    )
    page.add_argument(
        "--chart-column",
        metavar="COLUMN",
        help="the score column of the scatter and bucket charts (default: the first metric's "
        "segment score, e.g. bleu)",
    )
    add_paired_test(
        page,
        "--paired-bs",
        help="paired bootstrap resampling of every system against the baseline (sacreBLEU's "
        "--paired-bs) on the selected segments",
        default=DEFAULT_BOOTSTRAP_SAMPLES,
        count_help=f"resamples of the paired bootstrap (default {DEFAULT_BOOTSTRAP_SAMPLES})",
    )
    page.add_argument(
        "--seed",
        type=count("--seed", minimum=0),
        default=DEFAULT_SEED,
        metavar="N",
        help=f"its random seed (default {DEFAULT_SEED})",
    )
    add_running(page, quiet_help="no messages on stderr")
    add_version(parser)
    return parser


def _inputs(
    args: argparse.Namespace, saved: SavedSession | None, parser: argparse.ArgumentParser
) -> tuple[InputSpec | None, list[InputSpec], list[InputSpec]]:
    """The inputs named on the command line, else the session's."""
    source, references, systems = input_specs(args)
    if references or systems:
        if not (references and systems):
            parser.error("give both --ref and --hyp (or neither, to read the session's inputs)")
        return source, references, systems
    if saved is None:
        parser.error("the following arguments are required: --ref, --hyp (or --session)")
    if not saved.references or not saved.systems:
        parser.error(f"{saved.path} records no reference or no system; give --ref and --hyp")
    missing = saved.missing_inputs()
    if missing is not None:
        raise Failed(f"{saved.path}: {missing}")
    return source or saved.source, list(saved.references), list(saved.systems)


def _add_imports(session: ComparisonSession, saved: SavedSession) -> None:
    """The session's imported score and label columns, with the values it stored (a column that
    does not fit the comparison being reported is left out, with a warning)."""
    from matchlight.core.session.imported import ScoreImport

    for record in saved.imports:
        try:
            if isinstance(record, ScoreImport):
                session.add_imported(record)
            else:
                session.set_labels(record)
        except ValueError as error:
            print(f"matchlight: warning: {error}; the column is left out", file=sys.stderr)


def _baseline(wanted: str | int | None, names: Sequence[str]) -> int:
    """A system index from a name or a 1-based number given on the command line (a ``str``),
    or a session's stored index (an ``int``)."""
    from matchlight.core.report.context import ReportError

    if wanted is None:
        return 0
    if isinstance(wanted, int):
        if 0 <= wanted < len(names):
            return wanted
        raise ReportError(f"the baseline {wanted + 1} is not one of the {len(names)} systems")
    if wanted in names:
        return names.index(wanted)
    digits = wanted.isascii() and wanted.isdigit() and len(wanted) <= MAX_NUMBER_TEXT
    if digits and 1 <= int(wanted) <= len(names):
        return int(wanted) - 1
    raise ReportError(
        f"no system {shown(wanted)} for the baseline; the systems are {', '.join(names)}"
    )


def main(argv: Sequence[str] | None = None) -> int:
    """``matchlight report``; returns the exit status."""
    return run(build_parser, _main, argv)


def _main(parser: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    from matchlight.core.analysis.selection import SegmentRange, Selection, SelectionError
    from matchlight.core.io.export import comparison_inputs, input_paths
    from matchlight.core.report.context import ReportError, ReportOptions
    from matchlight.core.report.export import export_report
    from matchlight.core.report.sessionfile import annotations_for, read_session
    from matchlight.core.session.comparison import ComparisonSession
    from matchlight.core.session.store import SessionError

    check_names(parser, [("--out", args.out)])
    saved: SavedSession | None = None
    if args.session:
        try:
            saved = read_session(args.session)
        except SessionError as error:
            raise Failed(str(error)) from None
    try:
        config = config_from_args(args, None if saved is None else saved.config)
    except SettingError as error:
        parser.error(str(error))
    modes = [m.key for m in config.highlight_modes()]
    if args.highlight is not None and args.highlight not in modes:
        parser.error(f"--highlight {args.highlight!r}: the scored metrics offer {', '.join(modes)}")
    charted = [c.key for c in config.columns() if c.kind == "score"]
    if args.chart_column is not None and args.chart_column not in charted:
        parser.error(f"--chart-column {args.chart_column!r}: choose from {', '.join(charted)}")
    comparison = read_comparison(*_inputs(args, saved, parser))
    protect = input_paths(comparison_inputs(comparison))
    if saved is not None:
        protect.append(saved.path)
    check_targets([("--out", args.out)], protect=protect)
    names = [c.name for c in comparison.systems]
    try:
        wanted = args.baseline
        if wanted is None and saved is not None:
            wanted = saved.baseline
        baseline = _baseline(wanted, names)
        highlight = args.highlight
        if highlight is None and saved is not None and saved.highlight in modes:
            highlight = saved.highlight  # the mode the app showed
        options = ReportOptions(
            title=args.title,
            max_rows=args.max_rows,
            highlight=highlight,
            chart_column=args.chart_column,
            paired_bs=args.paired_bs,
            bootstrap_samples=args.paired_bs_n,
            seed=args.seed,
        )
    except ReportError as error:
        return fail(str(error))
    selection = None if saved is None else saved.selection
    if segment_rows(parser, args.segments, len(comparison)) is not None:
        selection = Selection((SegmentRange(args.segments),))
    if not args.quiet:
        warn_inputs(comparison)
        for changed in () if saved is None else saved.changed_inputs:
            print(
                f"matchlight: warning: the session's input {changed}; its error spans are "
                "placed again on the current lines",
                file=sys.stderr,
            )
    table, text = score_comparison(comparison, config, workers=args.workers)
    names_given = None if saved is None or args.ref else saved.reference_names
    if names_given is not None and len(names_given) != len(comparison.references):
        names_given = None
    session = ComparisonSession(
        text,
        config=config,
        source=None if comparison.source is None else comparison.source.lines,
        reference_names=names_given,
        comparison=comparison,
        table=table,
    )
    session.set_baseline(baseline)
    if saved is not None:
        _add_imports(session, saved)
    if selection is not None:
        try:
            session.set_selection(selection)
        except SelectionError as error:
            return fail(f"the row selection cannot be applied: {error}")
    annotations: ReportAnnotations | None = None
    if saved is not None:
        annotations = annotations_for(
            saved.spans,
            saved.scores,
            session,
            weights=saved.weights,
            mode=saved.mode,
            origin=saved.path,
        )
    try:
        written = export_report(session, args.out, annotations=annotations, options=options)
    except ReportError as error:
        return fail(str(error))
    except OSError as error:
        return fail(str(error))
    if not args.quiet:
        rows = len(session.selected_rows())
        shown = rows if options.max_rows == 0 else min(rows, options.max_rows)
        size = written.stat().st_size
        print(
            f"matchlight: wrote {written} ({size / 1024:,.0f} KB; {shown:,} of {rows:,} selected "
            "segments shown)",
            file=sys.stderr,
        )
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
