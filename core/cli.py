"""``matchlight score``: the headless scorer, running the same engine as the app.

A thin argparse layer. The metrics and their options come from the registry
(:mod:`core.metrics.registry`): each metric's :class:`~core.metrics.base.Setting` becomes an
option in the metric's own group, so the command line and the app's settings panel can never
disagree. Everything else is :mod:`core.io`, :mod:`core.scoring` and :mod:`core.analysis`.
"""

from __future__ import annotations

import argparse
import math
import sys
from collections.abc import Sequence
from typing import Any, TextIO

import numpy as np

from matchlight.core import __version__
from matchlight.core.analysis.selection import SelectionError, format_segments, parse_segments
from matchlight.core.io.export import (
    comparison_inputs,
    input_paths,
    sidecar_path,
    write_csv,
    write_json,
)
from matchlight.core.io.inputs import InputError, load_comparison, parse_spec
from matchlight.core.io.safewrite import check_write_target
from matchlight.core.metrics.base import Setting, SettingError
from matchlight.core.metrics.registry import METRICS, cli_name, parse_metrics
from matchlight.core.scoring.advice import detect_script, has_sentence_marker, scoring_advice
from matchlight.core.scoring.config import ScoringConfig
from matchlight.core.scoring.engine import default_workers, score_corpus
from matchlight.core.scoring.results import ScoreTable
from matchlight.core.text.corpus import CorpusText

EXIT_INPUT_ERROR = 2
EXIT_INTERRUPTED = 130

#: What the sentence separator does to each metric, for ``--help`` (and the README).
SEPARATOR_HELP = (
    "sentence separator inside a segment: ROUGE-Lsum splits sentences there; BLEU, NLTK-BLEU, "
    "chrF and the highlights read the sentences joined by spaces (the marker is never a word); "
    "ROUGE-1/2/L ignore it. Default: a newline, as rouge-score (which sacreBLEU reads as a "
    "space anyway). 'none': no sentences, so ROUGE-Lsum equals ROUGE-L. Escapes such as '\\n' "
    "and '\\t' are understood."
)


class _Parser(argparse.ArgumentParser):
    """argparse with usage errors that name the option (exit 2, never a traceback)."""


def _bounded_int(spec: Setting) -> Any:
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
        try:
            spec.check(value)
        except SettingError as error:
            raise argparse.ArgumentTypeError(str(error)) from None
        return value

    return parse


def _finite_float(spec: Setting) -> Any:
    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
        try:
            spec.check(value)
        except SettingError as error:
            raise argparse.ArgumentTypeError(str(error)) from None
        return value

    return parse


def _dest(metric: str, spec: Setting) -> str:
    return f"{metric}__{spec.key}"


def _add_setting(group: argparse._ArgumentGroup, metric: str, spec: Setting, default: Any) -> None:
    names = (spec.cli, *spec.aliases)
    dest = _dest(metric, spec)
    if spec.kind == "flag":
        # A flag switches the setting away from its default (--lowercase, --no-effective-order).
        action = "store_false" if default else "store_true"
        group.add_argument(*names, dest=dest, action=action, default=default, help=spec.help)
    elif spec.kind == "choice":
        group.add_argument(*names, dest=dest, choices=spec.choices, default=default, help=spec.help)
    elif spec.kind == "int":
        group.add_argument(
            *names, dest=dest, type=_bounded_int(spec), default=default, metavar="N", help=spec.help
        )
    else:
        group.add_argument(
            *names,
            dest=dest,
            type=_finite_float(spec),
            default=default,
            metavar="X",
            help=spec.help,
        )


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="matchlight score",
        description=(
            "Score line-aligned system outputs against references. Defaults reproduce "
            "sacreBLEU 2.6.0's sentence_bleu/corpus_bleu and rouge-score 0.1.2's RougeScorer "
            "(no stemming, several references as score_multi)."
        ),
    )
    files = parser.add_argument_group(
        "input files (PATH, NAME=PATH, or PATH#COLUMN for TSV/CSV/JSONL)"
    )
    files.add_argument(
        "--ref", "-r", action="append", required=True, metavar="R", help="a reference file; repeat"
    )
    files.add_argument(
        "--hyp", "-s", action="append", required=True, metavar="H", help="a system output; repeat"
    )
    files.add_argument("--src", metavar="S", help="the source file (optional)")

    what = parser.add_argument_group("what to score")
    what.add_argument(
        "--metrics",
        "-m",
        default="bleu,rouge",
        metavar="LIST",
        help=f"comma-separated, from {', '.join(cli_name(k) for k in METRICS)} "
        "(default: bleu,rouge)",
    )
    what.add_argument(
        "--segments",
        metavar="SPEC",
        help="score only these 1-based segments, e.g. 1-500,800,900- (as the app's selection)",
    )
    what.add_argument("--lsum-sep", default="\\n", metavar="SEP", help=SEPARATOR_HELP)

    for metric in METRICS.values():
        group = parser.add_argument_group(f"{metric.label} (with --metrics {cli_name(metric.key)})")
        defaults = metric.settings_type()
        for spec in metric.settings:
            _add_setting(group, metric.key, spec, getattr(defaults, spec.key))

    out = parser.add_argument_group("output")
    out.add_argument(
        "--csv", metavar="OUT.csv", help="per-segment scores, one row per system and segment"
    )
    out.add_argument("--json", metavar="OUT.json", help="corpus scores and signatures per system")
    out.add_argument(
        "--workers",
        type=_bounded_int(Setting("workers", "", "int", "", "--workers", minimum=0, maximum=256)),
        default=1,
        metavar="N",
        help="processes to score with (0 = all cores; default 1)",
    )
    out.add_argument("--quiet", "-q", action="store_true", help="no warnings on stderr")
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


def config_from_args(args: argparse.Namespace) -> ScoringConfig:
    options = []
    for metric in METRICS.values():
        values = {spec.key: getattr(args, _dest(metric.key, spec)) for spec in metric.settings}
        options.append(metric.settings_type(**values))
    return ScoringConfig(
        metrics=parse_metrics(args.metrics),
        sentence_separator=parse_separator(args.lsum_sep),
        options=tuple(options),
    )


def _number(value: float) -> float | None:
    """A JSON-safe number: NaN and infinities become null."""
    return value if math.isfinite(value) else None


def corpus_summary(table: ScoreTable, rows: np.ndarray | None = None) -> dict[str, dict[str, Any]]:
    """The ``--json`` payload's ``systems`` mapping (NaN written as null)."""
    signatures = table.signatures()
    result: dict[str, dict[str, Any]] = {}
    for s, name in enumerate(table.systems):
        corpus = table.corpus(s, rows)
        entry: dict[str, Any] = {"segments": corpus.n_segments}
        for column in table.columns:
            value = corpus.values.get(column.key, math.nan)
            if column.kind == "count":
                entry[column.key] = int(value) if math.isfinite(value) else None
                continue
            entry[column.key] = _number(value)
            if column.corpus == "stats":
                entry[f"{column.key}_sentence_mean"] = _number(corpus.means[column.key])
        for key, detail in corpus.details.items():
            extras = getattr(detail, "json_fields", None)
            if callable(extras):
                entry.update({f"{key}_{k}": v for k, v in extras().items()})
        for sig_name, signature in signatures.items():
            entry[f"{sig_name}_signature"] = signature
        missing = _missing_counts(table, s, rows)
        if missing:
            entry["no_score"] = missing
        result[name] = entry
    return result


def _missing_counts(table: ScoreTable, system: int, rows: np.ndarray | None) -> dict[str, int]:
    """Per score column, how many of the rows have no score (NaN)."""
    scores = table.scores[system] if rows is None else table.scores[system][rows]
    counts = np.isnan(scores).sum(axis=0)
    return {
        column.key: int(count)
        for column, count in zip(table.columns, counts, strict=True)
        if count and column.kind == "score"
    }


def format_table(table: ScoreTable, rows: np.ndarray | None = None) -> str:
    """The corpus table printed to stdout, then every signature."""
    headline = [c for c in table.columns if c.headline]
    header = ["system", *(c.short for c in headline)]
    with_detail = [key for key in table.metric_keys if key == "bleu"]
    header += [f"{METRICS[key].label} detail" for key in with_detail]
    lines_rows: list[list[str]] = []
    for s, name in enumerate(table.systems):
        corpus = table.corpus(s, rows)
        cells = [name]
        for column in headline:
            value = corpus.values.get(column.key, math.nan)
            cells.append("—" if math.isnan(value) else f"{value:.2f}")
        for key in with_detail:
            describe = getattr(corpus.details.get(key), "describe", None)
            cells.append(describe() if callable(describe) else "")
        lines_rows.append(cells)
    widths = [max(len(r[i]) for r in [header, *lines_rows]) for i in range(len(header))]
    lines = [
        "  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True)).rstrip()
        for row in [header, *lines_rows]
    ]
    lines.insert(1, "  ".join("-" * w for w in widths))
    lines.append("")
    for name, signature in table.signatures().items():
        lines.append(f"{name} signature: {signature}")
    return "\n".join(lines)


def warn_about(
    table: ScoreTable, text: CorpusText, stream: TextIO, rows: np.ndarray | None = None
) -> None:
    """Print what the app's warnings banner would show (see :mod:`core.scoring.advice`), and
    how many rows have no score, and why."""
    for advice in scoring_advice(
        table,
        script=detect_script(text.references),
        has_marker=has_sentence_marker(text.references),
    ):
        hint = _CLI_FIX_HINTS.get(advice.key, "")
        print(f"matchlight: warning: {advice.message}{hint}", file=stream)
    n = table.n_segments if rows is None else len(rows)
    for s, name in enumerate(table.systems):
        for column, count in _missing_counts(table, s, rows).items():
            why = table.column_info(column)
            print(
                f"matchlight: warning: {name}: {why.label} has no score on {count} of {n} rows "
                f"({_why_missing(table, why.metric)}); the JSON writes null there",
                file=stream,
            )


def _why_missing(table: ScoreTable, metric: str) -> str:
    if metric == "nltk_bleu":
        smoothing = table.config.settings("nltk_bleu").smoothing  # type: ignore[attr-defined]
        return f"NLTK itself fails on them with smoothing {smoothing}"
    return "the metric is undefined there"


#: How to apply each :class:`~core.scoring.advice.Advice` on the command line.
_CLI_FIX_HINTS = {
    "cjk-tokenizer": " (see --tokenize)",
    "rouge-empty": " (try --rouge-tokenizer unicode)",
    "lsum-fallback": " (see --lsum-sep)",
    "lsum-none": " (see --lsum-sep)",
}


def _json_payload(
    table: ScoreTable, rows: np.ndarray | None, segments: str | None
) -> dict[str, Any]:
    return {
        "matchlight_version": __version__,
        "metrics": list(table.metric_keys),
        "settings": table.config.to_dict(),
        "signatures": table.signatures(),
        "segments": table.n_segments if rows is None else len(rows),
        "segment_list": segments,
        "systems": corpus_summary(table, rows),
    }


def main(argv: Sequence[str] | None = None) -> int:
    try:
        return _main(argv)
    except KeyboardInterrupt:
        print("matchlight: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED


def _main(argv: Sequence[str] | None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        config = config_from_args(args)
    except SettingError as error:
        parser.error(str(error))
    for option, value in (("--csv", args.csv), ("--json", args.json)):
        if value is not None and not value.strip():
            parser.error(f"{option} needs a file name")
    try:
        comparison = load_comparison(
            source=parse_spec(args.src) if args.src else None,
            references=[parse_spec(r) for r in args.ref],
            systems=[parse_spec(h) for h in args.hyp],
        )
    except InputError as error:
        print(f"matchlight: error: {error}", file=sys.stderr)
        return EXIT_INPUT_ERROR
    if len(comparison) == 0:
        print("matchlight: error: the input files hold no segments", file=sys.stderr)
        return EXIT_INPUT_ERROR
    rows: np.ndarray | None = None
    if args.segments is not None:
        try:
            rows = parse_segments(args.segments, len(comparison))
        except SelectionError as error:
            parser.error(f"--segments: {error}")
    inputs = comparison_inputs(comparison)
    # Refuse a target that would destroy an input (or cannot be written) before scoring.
    targets = [p for p in (args.csv, args.json) if p]
    if args.csv:
        targets.append(str(sidecar_path(args.csv)))
    try:
        for target in targets:
            check_write_target(target, protect=input_paths(inputs))
    except OSError as error:
        print(f"matchlight: error: {error}", file=sys.stderr)
        return EXIT_INPUT_ERROR
    if not args.quiet:
        for column in comparison.columns:
            for warning in column.warnings:
                print(f"matchlight: warning: {column.path}: {warning}", file=sys.stderr)
    text = comparison.corpus_text()
    workers = default_workers() if args.workers == 0 else args.workers
    # Every row is scored, and the figures are those of the selected rows: the same table and
    # the same sums the app uses for its selection.
    table = score_corpus(text, config, workers=workers)
    try:
        print(format_table(table, rows), flush=True)
    except BrokenPipeError:  # `matchlight score ... | head`
        sys.stdout = None  # type: ignore[assignment]  # nothing more can be written there
    if not args.quiet:
        warn_about(table, text, sys.stderr, rows)
        if config.sentence_separator is None and "rouge" in config.metrics:
            print(
                "matchlight: warning: ROUGE-Lsum equals ROUGE-L on every row: no sentence "
                "separator is set (see --lsum-sep)",
                file=sys.stderr,
            )
    segments = None if rows is None else format_segments(rows)
    try:
        if args.csv:
            write_csv(args.csv, table, rows=None if rows is None else rows.tolist(), inputs=inputs)
        if args.json:
            write_json(args.json, _json_payload(table, rows, segments), inputs=inputs)
    except OSError as error:
        print(f"matchlight: error: {error}", file=sys.stderr)
        return EXIT_INPUT_ERROR
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
