"""``matchlight report``: score a comparison and write a self-contained HTML report.

It takes the inputs and metric options of ``matchlight score`` (built from the same registry:
each metric's :class:`~core.metrics.base.Setting` becomes an option), plus ``--session`` for
the settings, baseline, row selection and annotations of a saved session. With a session and
no ``--ref``/``--hyp`` the inputs it recorded are read. Options given on the command line win
over the session's settings; ``--segments`` replaces its selection.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import Any

from matchlight.core import __version__
from matchlight.core.analysis.selection import (
    SegmentRange,
    Selection,
    SelectionError,
    parse_segments,
)
from matchlight.core.io.export import comparison_inputs, input_paths
from matchlight.core.io.inputs import InputError, InputSpec, load_comparison, parse_spec
from matchlight.core.io.safewrite import check_write_target
from matchlight.core.metrics.base import Setting, SettingError
from matchlight.core.metrics.registry import METRICS, cli_name, parse_metrics
from matchlight.core.report.export import export_report
from matchlight.core.report.page import (
    DEFAULT_MAX_ROWS,
    ReportAnnotations,
    ReportError,
    ReportOptions,
)
from matchlight.core.report.sessionfile import SavedSession, annotations_for, read_session
from matchlight.core.scoring.config import ScoringConfig
from matchlight.core.scoring.engine import default_workers, score_corpus
from matchlight.core.session.comparison import ComparisonSession
from matchlight.core.session.store import SessionError

__all__ = ["build_parser", "main"]

EXIT_INPUT_ERROR = 2
EXIT_INTERRUPTED = 130


def _checked(spec: Setting, convert: type[int] | type[float], what: str) -> Any:
    def parse(text: str) -> int | float:
        try:
            value = convert(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not {what}") from None
        try:
            spec.check(value)
        except SettingError as error:
            raise argparse.ArgumentTypeError(str(error)) from None
        return value

    return parse


def _dest(metric: str, spec: Setting) -> str:
    return f"{metric}__{spec.key}"


def _add_setting(group: argparse._ArgumentGroup, metric: str, spec: Setting, default: Any) -> None:
    """One metric setting as an option; absent from the parsed arguments unless given."""
    names = (spec.cli, *spec.aliases)
    dest = _dest(metric, spec)
    keep = argparse.SUPPRESS
    if spec.kind == "flag":
        # As in ``matchlight score``: a flag switches the setting away from its default.
        action = "store_false" if default else "store_true"
        group.add_argument(*names, dest=dest, action=action, default=keep, help=spec.help)
    elif spec.kind == "choice":
        group.add_argument(*names, dest=dest, choices=spec.choices, default=keep, help=spec.help)
    elif spec.kind == "int":
        parse = _checked(spec, int, "a whole number")
        group.add_argument(*names, dest=dest, type=parse, default=keep, metavar="N", help=spec.help)
    else:
        parse = _checked(spec, float, "a number")
        group.add_argument(*names, dest=dest, type=parse, default=keep, metavar="X", help=spec.help)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="matchlight report",
        description=(
            "Score line-aligned system outputs against references and write one self-contained "
            "HTML page: corpus scores and signatures, charts, significance, MQM and the "
            "selected rows with their highlights. It opens with no network."
        ),
    )
    files = parser.add_argument_group(
        "input files (PATH, NAME=PATH, or PATH#COLUMN for TSV/CSV/JSONL; with --session, "
        "the session's own inputs when none are given)"
    )
    files.add_argument("--ref", "-r", action="append", metavar="R", help="a reference; repeat")
    files.add_argument("--hyp", "-s", action="append", metavar="H", help="a system output; repeat")
    files.add_argument("--src", metavar="S", help="the source file (optional)")
    files.add_argument(
        "--session",
        metavar="FILE.matchlight",
        help="a saved session: its settings, baseline, selection and annotations",
    )

    what = parser.add_argument_group("what to score")
    what.add_argument(
        "--metrics",
        "-m",
        default=argparse.SUPPRESS,
        metavar="LIST",
        help=f"comma-separated, from {', '.join(cli_name(k) for k in METRICS)} "
        "(default: the session's, else bleu,rouge)",
    )
    what.add_argument(
        "--segments",
        metavar="SPEC",
        help="the selected segments, e.g. 1-500,800,900- (replaces the session's selection)",
    )
    what.add_argument(
        "--lsum-sep",
        default=argparse.SUPPRESS,
        metavar="SEP",
        help="sentence separator inside a segment (as matchlight score; default a newline)",
    )
    for metric in METRICS.values():
        group = parser.add_argument_group(f"{metric.label} (with --metrics {cli_name(metric.key)})")
        defaults = metric.settings_type()
        for spec in metric.settings:
            _add_setting(group, metric.key, spec, getattr(defaults, spec.key))

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
        type=int,
        default=DEFAULT_MAX_ROWS,
        metavar="N",
        help=f"segments shown with their texts (default {DEFAULT_MAX_ROWS}; 0: all selected)",
    )
    page.add_argument(
        "--highlight",
        metavar="MODE",
        help="the highlight mode of the rows: bleu, chrf, lcs, nltk (default: the first scored)",
    )
    page.add_argument(
        "--chart-column",
        metavar="COLUMN",
        help="the score column of the scatter and bucket charts (default: the first metric's "
        "segment score, e.g. bleu)",
    )
    page.add_argument(
        "--paired-bs",
        action="store_true",
        help="paired bootstrap resampling of every system against the baseline (sacreBLEU's "
        "--paired-bs) on the selected segments",
    )
    page.add_argument(
        "--paired-bs-n",
        type=int,
        default=1000,
        metavar="N",
        help="resamples of the paired bootstrap (default 1000)",
    )
    page.add_argument(
        "--seed", type=int, default=12345, metavar="N", help="its random seed (default 12345)"
    )
    page.add_argument(
        "--workers",
        type=int,
        default=1,
        metavar="N",
        help="processes to score with (0 = all cores; default 1)",
    )
    page.add_argument("--quiet", "-q", action="store_true", help="no messages on stderr")
    parser.add_argument("--version", action="version", version=f"matchlight {__version__}")
    return parser


def parse_separator(text: str) -> str | None:
    """``--lsum-sep``'s value: ``none``, or a string with backslash escapes decoded."""
    if text.lower() == "none":
        return None
    try:
        separator = text.encode("latin-1", "backslashreplace").decode("unicode_escape")
    except UnicodeDecodeError as error:
        raise SettingError(f"--lsum-sep {text!r}: {error.reason}") from None
    if not separator:
        raise SettingError("--lsum-sep must not be empty (use 'none' for no sentences)")
    return separator


def config_from_args(args: argparse.Namespace, base: ScoringConfig | None) -> ScoringConfig:
    """The session's settings (or the defaults) with the options given on the command line."""
    config = base or ScoringConfig()
    if hasattr(args, "metrics"):
        config = config.with_metrics(parse_metrics(args.metrics))
    if hasattr(args, "lsum_sep"):
        config = config.with_separator(parse_separator(args.lsum_sep))
    for metric in METRICS.values():
        given = {
            spec.key: getattr(args, _dest(metric.key, spec))
            for spec in metric.settings
            if hasattr(args, _dest(metric.key, spec))
        }
        if given:
            config = config.with_settings(metric.key, **given)
    return config


def _inputs(
    args: argparse.Namespace, saved: SavedSession | None, parser: argparse.ArgumentParser
) -> tuple[InputSpec | None, list[InputSpec], list[InputSpec]]:
    if args.ref or args.hyp:
        if not (args.ref and args.hyp):
            parser.error("give both --ref and --hyp (or neither, to read the session's inputs)")
        source = parse_spec(args.src) if args.src else None
        return source, [parse_spec(r) for r in args.ref], [parse_spec(h) for h in args.hyp]
    if saved is None:
        parser.error("the following arguments are required: --ref, --hyp (or --session)")
    source = parse_spec(args.src) if args.src else saved.source
    if not saved.references or not saved.systems:
        parser.error(f"{saved.path} records no reference or no system; give --ref and --hyp")
    return source, list(saved.references), list(saved.systems)


def _baseline(wanted: str | int | None, names: Sequence[str]) -> int:
    """A system index from a name or a 1-based number given on the command line (a ``str``),
    or a session's stored index (an ``int``)."""
    if wanted is None:
        return 0
    if isinstance(wanted, int):
        if 0 <= wanted < len(names):
            return wanted
        raise ReportError(f"the baseline {wanted + 1} is not one of the {len(names)} systems")
    if wanted in names:
        return names.index(wanted)
    if wanted.isdigit() and 1 <= int(wanted) <= len(names):
        return int(wanted) - 1
    raise ReportError(f"no system {wanted!r} for the baseline; the systems are {', '.join(names)}")


def main(argv: Sequence[str] | None = None) -> int:
    try:
        return _main(argv)
    except KeyboardInterrupt:
        print("matchlight: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED


def _fail(message: str) -> int:
    print(f"matchlight: error: {message}", file=sys.stderr)
    return EXIT_INPUT_ERROR


def _main(argv: Sequence[str] | None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not args.out.strip():
        parser.error("--out needs a file name")
    if args.max_rows < 0:
        parser.error("--max-rows must be 0 (all) or more")
    if args.paired_bs_n < 1:
        parser.error("--paired-bs-n must be at least 1")
    saved: SavedSession | None = None
    if args.session:
        try:
            saved = read_session(args.session)
        except SessionError as error:
            return _fail(str(error))
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
    source, references, systems = _inputs(args, saved, parser)
    try:
        comparison = load_comparison(source=source, references=references, systems=systems)
    except InputError as error:
        return _fail(str(error))
    if len(comparison) == 0:
        return _fail("the input files hold no segments")
    protect = input_paths(comparison_inputs(comparison))
    if saved is not None:
        protect.append(saved.path)
    try:
        check_write_target(args.out, protect=protect)
    except OSError as error:
        return _fail(str(error))
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
        return _fail(str(error))
    selection = None if saved is None else saved.selection
    if args.segments is not None:
        try:
            parse_segments(args.segments, len(comparison))
        except SelectionError as error:
            parser.error(f"--segments: {error}")
        selection = Selection((SegmentRange(args.segments),))
    if not args.quiet:
        for column in comparison.columns:
            for warning in column.warnings:
                print(f"matchlight: warning: {column.path}: {warning}", file=sys.stderr)
        for changed in () if saved is None else saved.changed_inputs:
            print(
                f"matchlight: warning: the session's input {changed}; its error spans are "
                "placed again on the current lines",
                file=sys.stderr,
            )
    text = comparison.corpus_text()
    workers = default_workers() if args.workers == 0 else max(args.workers, 1)
    table = score_corpus(text, config, workers=workers)
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
    if selection is not None:
        try:
            session.set_selection(selection)
        except SelectionError as error:
            return _fail(f"the row selection cannot be applied: {error}")
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
        return _fail(str(error))
    except OSError as error:
        return _fail(str(error))
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
