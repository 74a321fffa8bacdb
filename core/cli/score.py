"""``matchlight score`` and ``matchlight compare``: the headless commands, on the app's engine.

A thin argparse layer. The metrics and their options come from the registry
(:mod:`core.metrics.registry`): each metric's :class:`~core.metrics.base.Setting` becomes an
option in the metric's own group, so the command line and the app's settings panel can never
disagree. Both commands share how inputs, options, the scoring configuration, ``--segments`` and
the written files are handled; everything else is :mod:`core.io`, :mod:`core.scoring` and
:mod:`core.analysis`.

* ``score`` prints and writes corpus scores (and per-segment scores to CSV).
* ``compare`` runs sacreBLEU 2.6.0's paired significance tests of every system against the
  first (:mod:`core.analysis.significance`) and prints sacreBLEU's table.
"""

from __future__ import annotations

import argparse
import math
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, NoReturn, TextIO

import numpy as np

from matchlight.core import __version__
from matchlight.core.analysis.selection import SelectionError, format_segments, parse_segments
from matchlight.core.analysis.significance import (
    DEFAULT_AR_TRIALS,
    DEFAULT_BOOTSTRAP_SAMPLES,
    DEFAULT_SEED,
    SignificanceResult,
    paired_approximate_randomization,
    paired_bootstrap,
    signature_with,
    table_statistics,
)
from matchlight.core.io.export import (
    comparison_inputs,
    input_paths,
    sidecar_path,
    write_csv,
    write_json,
)
from matchlight.core.io.inputs import Comparison, InputError, load_comparison, parse_spec
from matchlight.core.io.safewrite import check_write_target
from matchlight.core.metrics.base import ScoreColumn, Setting, SettingError
from matchlight.core.metrics.registry import METRICS, cli_name, parse_metrics
from matchlight.core.scoring.advice import profile_references, scoring_advice
from matchlight.core.scoring.config import ScoringConfig
from matchlight.core.scoring.engine import default_workers, score_corpus
from matchlight.core.scoring.results import ScoreTable
from matchlight.core.text.corpus import CorpusText

__all__ = [
    "EXIT_INPUT_ERROR",
    "EXIT_INTERRUPTED",
    "build_compare_parser",
    "build_parser",
    "compare_main",
    "config_from_args",
    "corpus_summary",
    "format_paired_table",
    "format_table",
    "main",
    "parse_separator",
    "warn_about",
]

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
    """argparse whose usage errors are one line naming the option (exit 2, never a traceback)."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


# -- options shared by both commands -------------------------------------------------------------


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


def _count(cli: str, *, minimum: int, maximum: int) -> Any:
    """An option taking a whole number in ``minimum..maximum``."""
    return _bounded_int(Setting(cli, "", "int", "", cli, minimum=minimum, maximum=maximum))


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


def _add_inputs(parser: argparse.ArgumentParser, *, hyp_help: str) -> None:
    files = parser.add_argument_group(
        "input files (PATH, NAME=PATH, or PATH#COLUMN for TSV/CSV/JSONL)"
    )
    files.add_argument(
        "--ref", "-r", action="append", required=True, metavar="R", help="a reference file; repeat"
    )
    files.add_argument("--hyp", "-s", action="append", required=True, metavar="H", help=hyp_help)
    files.add_argument("--src", metavar="S", help="the source file (optional)")


def _add_scoring(parser: argparse.ArgumentParser, *, segments_help: str) -> None:
    """``--metrics``, ``--segments``, ``--lsum-sep`` and every metric's own options."""
    what = parser.add_argument_group("what to score")
    what.add_argument(
        "--metrics",
        "-m",
        default="bleu,rouge",
        metavar="LIST",
        help=f"comma-separated, from {', '.join(cli_name(k) for k in METRICS)} "
        "(default: bleu,rouge)",
    )
    what.add_argument("--segments", metavar="SPEC", help=segments_help)
    what.add_argument("--lsum-sep", default="\\n", metavar="SEP", help=SEPARATOR_HELP)

    for metric in METRICS.values():
        group = parser.add_argument_group(f"{metric.label} (with --metrics {cli_name(metric.key)})")
        defaults = metric.settings_type()
        for spec in metric.settings:
            _add_setting(group, metric.key, spec, getattr(defaults, spec.key))


def _add_running(group: argparse._ArgumentGroup) -> None:
    group.add_argument(
        "--workers",
        type=_count("--workers", minimum=0, maximum=256),
        default=1,
        metavar="N",
        help="processes to score with (0 = all cores; default 1)",
    )
    group.add_argument("--quiet", "-q", action="store_true", help="no warnings on stderr")


# -- matchlight score ------------------------------------------------------------------------------


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="matchlight score",
        description=(
            "Score line-aligned system outputs against references. Defaults reproduce "
            "sacreBLEU 2.6.0's sentence_bleu/corpus_bleu and rouge-score 0.1.2's RougeScorer "
            "(no stemming, several references as score_multi)."
        ),
    )
    _add_inputs(parser, hyp_help="a system output; repeat")
    _add_scoring(
        parser,
        segments_help="score only these 1-based segments, e.g. 1-500,800,900- (as the app's "
        "selection)",
    )
    out = parser.add_argument_group("output")
    out.add_argument(
        "--csv", metavar="OUT.csv", help="per-segment scores, one row per system and segment"
    )
    out.add_argument("--json", metavar="OUT.json", help="corpus scores and signatures per system")
    _add_running(out)
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
    for advice in scoring_advice(table, profile=profile_references(text.references)):
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


# -- what both commands do with their inputs ------------------------------------------------------


class _Failed(Exception):
    """An input or output problem, already worded for the user (exit 2)."""


def _fail(message: str) -> int:
    print(f"matchlight: error: {message}", file=sys.stderr)
    return EXIT_INPUT_ERROR


@dataclass(frozen=True, slots=True)
class _Setup:
    """A command's inputs once read and checked: the texts, the configuration, the rows asked
    for (None: all) and the inputs' record that every written file must not replace."""

    comparison: Comparison
    config: ScoringConfig
    rows: np.ndarray | None
    inputs: dict[str, Any]

    @property
    def segments(self) -> str | None:
        """``--segments`` as written to the JSON (normalised), None for all rows."""
        return None if self.rows is None else format_segments(self.rows)


def _setup(
    parser: argparse.ArgumentParser,
    args: argparse.Namespace,
    outputs: Sequence[tuple[str, str | None]],
    check: Callable[[ScoringConfig], None] | None = None,
) -> _Setup:
    """Read and check everything a command needs before it scores: the configuration (usage
    errors exit 2 with one line), the inputs, ``--segments``, and the ``outputs``
    (``(option, path)``; none may replace an input). Raises :class:`_Failed`."""
    try:
        config = config_from_args(args)
        if check is not None:
            check(config)
    except SettingError as error:
        parser.error(str(error))
    for option, value in outputs:
        if value is not None and not value.strip():
            parser.error(f"{option} needs a file name")
    try:
        comparison = load_comparison(
            source=parse_spec(args.src) if args.src else None,
            references=[parse_spec(r) for r in args.ref],
            systems=[parse_spec(h) for h in args.hyp],
        )
    except InputError as error:
        raise _Failed(str(error)) from None
    if len(comparison) == 0:
        raise _Failed("the input files hold no segments")
    rows: np.ndarray | None = None
    if args.segments is not None:
        try:
            rows = parse_segments(args.segments, len(comparison))
        except SelectionError as error:
            parser.error(f"--segments: {error}")
    inputs = comparison_inputs(comparison)
    # Refuse a target that would destroy an input (or cannot be written) before scoring.
    try:
        for _, target in outputs:
            if target:
                check_write_target(target, protect=input_paths(inputs))
    except OSError as error:
        raise _Failed(str(error)) from None
    if not args.quiet:
        for column in comparison.columns:
            for warning in column.warnings:
                print(f"matchlight: warning: {column.path}: {warning}", file=sys.stderr)
    return _Setup(comparison, config, rows, inputs)


def _score(setup: _Setup, args: argparse.Namespace) -> tuple[ScoreTable, CorpusText]:
    """Every row scored (the figures of ``--segments`` are those of its rows: the same table
    and the same sums the app uses for its selection)."""
    text = setup.comparison.corpus_text()
    workers = default_workers() if args.workers == 0 else args.workers
    return score_corpus(text, setup.config, workers=workers), text


def _print(text: str) -> None:
    try:
        print(text, flush=True)
    except BrokenPipeError:  # `matchlight score ... | head`
        sys.stdout = None  # type: ignore[assignment]  # nothing more can be written there


def _warn(setup: _Setup, table: ScoreTable, text: CorpusText, args: argparse.Namespace) -> None:
    if args.quiet:
        return
    warn_about(table, text, sys.stderr, setup.rows)
    if setup.config.sentence_separator is None and "rouge" in setup.config.metrics:
        print(
            "matchlight: warning: ROUGE-Lsum equals ROUGE-L on every row: no sentence "
            "separator is set (see --lsum-sep)",
            file=sys.stderr,
        )


def _run(command: Callable[[Sequence[str] | None], int], argv: Sequence[str] | None) -> int:
    try:
        return command(argv)
    except _Failed as error:
        return _fail(str(error))
    except KeyboardInterrupt:
        print("matchlight: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED


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
    """``matchlight score``; returns the exit status."""
    return _run(_score_main, argv)


def _score_main(argv: Sequence[str] | None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    targets: list[tuple[str, str | None]] = [("--csv", args.csv), ("--json", args.json)]
    if args.csv:
        targets.append(("--csv", str(sidecar_path(args.csv))))
    setup = _setup(parser, args, targets)
    table, text = _score(setup, args)
    rows = setup.rows
    _print(format_table(table, rows))
    _warn(setup, table, text, args)
    try:
        if args.csv:
            write_csv(
                args.csv, table, rows=None if rows is None else rows.tolist(), inputs=setup.inputs
            )
        if args.json:
            write_json(args.json, _json_payload(table, rows, setup.segments), inputs=setup.inputs)
    except OSError as error:
        return _fail(str(error))
    return 0


# -- matchlight compare ----------------------------------------------------------------------------

#: sacreBLEU's threshold: a p-value at most this is marked with "*".
SIGNIFICANT = 0.05


def _seed(text: str) -> int | None:
    if text.strip().lower() == "none":
        return None
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number or 'none'") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be 0 or more, not {value}")
    return value


def build_compare_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="matchlight compare",
        description=(
            "Paired significance tests of every system against a baseline (the first --hyp), "
            "equal to sacreBLEU 2.6.0's --paired-bs and --paired-ar: same seed, same p-values. "
            "BLEU and chrF resample their corpus statistics, as sacreBLEU; ROUGE resamples the "
            "mean of its segment scores with the same draws (an extension: sacreBLEU has no "
            "ROUGE). sacreBLEU runs no test unless one is named; compare runs the paired "
            "bootstrap then (plain scores are what `matchlight score` prints)."
        ),
    )
    _add_inputs(
        parser,
        hyp_help="a system output; repeat, at least twice: the first is the baseline that "
        "every other system is tested against",
    )
    _add_scoring(
        parser,
        segments_help="test only these 1-based segments, e.g. 1-500,800,900- (the rows of the "
        "app's selection give the same answer)",
    )
    tests = parser.add_argument_group(
        "paired tests (the bootstrap when neither is named; both may run, on the same seed)"
    )
    tests.add_argument(
        "--paired-bs",
        action="store_true",
        help="paired bootstrap resampling, as sacreBLEU's --paired-bs: score, bootstrap mean "
        "and 95%% confidence half-width, p-value",
    )
    tests.add_argument(
        "--paired-bs-n",
        type=_count("--paired-bs-n", minimum=1, maximum=10_000_000),
        default=DEFAULT_BOOTSTRAP_SAMPLES,
        metavar="N",
        help=f"bootstrap resamples (default {DEFAULT_BOOTSTRAP_SAMPLES})",
    )
    tests.add_argument(
        "--paired-ar",
        action="store_true",
        help="paired approximate randomization, as sacreBLEU's --paired-ar: score and "
        "p-value (no confidence interval, as sacreBLEU's command line)",
    )
    tests.add_argument(
        "--paired-ar-n",
        type=_count("--paired-ar-n", minimum=1, maximum=10_000_000),
        default=DEFAULT_AR_TRIALS,
        metavar="N",
        help=f"approximate randomization trials (default {DEFAULT_AR_TRIALS})",
    )
    tests.add_argument(
        "--seed",
        type=_seed,
        default=DEFAULT_SEED,
        metavar="S",
        help=f"random seed (default {DEFAULT_SEED}, sacreBLEU's SACREBLEU_SEED default); "
        "'none' draws one and reports it",
    )
    out = parser.add_argument_group("output")
    out.add_argument(
        "--json",
        metavar="OUT.json",
        help="per system and metric: score, mean, ci, p_value (ar_p_value when both tests "
        "run), with the baseline, the seed, the signatures and the segments",
    )
    out.add_argument(
        "--width",
        "-w",
        type=_count("--width", minimum=0, maximum=10),
        default=1,
        metavar="N",
        help="decimals of the scores in the table (default 1, as sacreBLEU)",
    )
    _add_running(out)
    parser.add_argument("--version", action="version", version=f"matchlight {__version__}")
    return parser


@dataclass(frozen=True, slots=True)
class PairedColumn:
    """The paired tests of one score column: ``bs`` (bootstrap) and ``ar`` (approximate
    randomization) results, baseline first, or None for a test not run."""

    column: ScoreColumn
    bs: SignificanceResult | None
    ar: SignificanceResult | None

    @property
    def first(self) -> SignificanceResult:
        found = self.bs or self.ar
        if found is None:  # pragma: no cover - compare always runs a test
            raise ValueError("no test was run")
        return found


def tested_columns(config: ScoringConfig) -> list[ScoreColumn]:
    """The columns ``compare`` tests: each scored metric's headline scores (BLEU, chrF,
    ROUGE-1/2/L F...), in table order."""
    return [c for c in config.columns() if c.kind == "score" and c.headline]


def _check_testable(config: ScoringConfig) -> None:
    """Refuse, before anything is read, a metric whose corpus figure no resample has."""
    for metric, settings in config.enabled():
        if not any(c.corpus == "stats" and c.headline for c in metric.columns(settings)):
            continue
        empty = {
            name: np.zeros((0, *shape), np.int64)
            for name, shape in metric.stat_shapes(settings).items()
        }
        if metric.additive(settings, empty) is None:
            raise SettingError(
                f"--metrics {cli_name(metric.key)}: {metric.label}'s corpus figure under these "
                "settings is not a function of summed per-segment statistics, so a resample "
                "has none; leave it out or change its settings"
            )


def run_paired_tests(
    table: ScoreTable,
    columns: Sequence[ScoreColumn],
    *,
    rows: np.ndarray | None,
    bootstrap: int | None,
    trials: int | None,
    seed: int | None,
    announce: Callable[[str], None] | None = None,
) -> tuple[list[PairedColumn], int]:
    """Every system against the first on each column: the paired bootstrap with ``bootstrap``
    resamples and/or approximate randomization with ``trials`` trials (None: not run), all on
    one seed (``None``: drawn once). Returns the results and the seed used."""
    results = []
    for column in columns:
        stats, score = table_statistics(table, column.key)
        bs = ar = None
        if bootstrap is not None:
            if announce is not None:
                announce(f"{column.label}: paired bootstrap, {bootstrap} resamples")
            bs = paired_bootstrap(
                stats, score, names=table.systems, n_samples=bootstrap, seed=seed, rows=rows
            )
            seed = bs.seed_used
        if trials is not None:
            if announce is not None:
                announce(f"{column.label}: approximate randomization, {trials} trials")
            ar = paired_approximate_randomization(
                stats, score, names=table.systems, n_samples=trials, seed=seed, rows=rows
            )
            seed = ar.seed_used
        results.append(PairedColumn(column, bs, ar))
    if seed is None:  # pragma: no cover - at least one column is tested
        raise ValueError("no column was tested")
    return results, seed


def _p_text(p: float, prefix: str = "") -> str:
    # sacreBLEU marks p <= 0.05 with "*" (and colours the others red on a terminal).
    return f"({prefix}p = {p:.4f})" + ("*" if p <= SIGNIFICANT else "")


def _score_text(value: float | None, width: int) -> str:
    return "—" if value is None or not math.isfinite(value) else f"{value:.{width}f}"


def _cell(tests: PairedColumn, system: int, width: int) -> str:
    line = tests.first.systems[system]
    text = _score_text(line.score, width)
    if tests.bs is not None:
        mean = tests.bs.systems[system]
        text += f" ({_score_text(mean.mean, width)} ± {_score_text(mean.ci, width)})"
    if tests.bs is not None and (p := tests.bs.systems[system].p_value) is not None:
        text += "\n" + _p_text(p)
    if tests.ar is not None and (p := tests.ar.systems[system].p_value) is not None:
        text += "\n" + _p_text(p, "AR: " if tests.bs is not None else "")
    return text


def _grid(header: Sequence[str], rows: Sequence[Sequence[str]]) -> list[str]:
    """tabulate's ``fancy_grid`` as sacreBLEU prints it: the first column right-aligned, the
    others centred (the extra space on the right), cells of several lines, headers padded by
    at least two spaces."""
    cells = [[cell.split("\n") for cell in row] for row in rows]
    widths = [len(h) + 2 for h in header]
    for row in cells:
        for j, lines in enumerate(row):
            widths[j] = max(widths[j], *map(len, lines))

    def line(texts: Sequence[str]) -> str:
        padded = [
            f" {t:>{widths[0]}} " if j == 0 else f" {t:^{widths[j]}} " for j, t in enumerate(texts)
        ]
        return "│" + "│".join(padded) + "│"

    def rule(left: str, fill: str, middle: str, right: str) -> str:
        return left + middle.join(fill * (w + 2) for w in widths) + right

    out = [rule("╒", "═", "╤", "╕"), line(header), rule("╞", "═", "╪", "╡")]
    for i, row in enumerate(cells):
        if i:
            out.append(rule("├", "─", "┼", "┤"))
        for k in range(max(map(len, row))):
            out.append(line([lines[k] if k < len(lines) else "" for lines in row]))
    out.append(rule("╘", "═", "╧", "╛"))
    return out


def _signature_fields(tests: PairedColumn) -> dict[str, str]:
    """sacreBLEU's test fields in its order: bs, ar, seed."""
    fields = {}
    if tests.bs is not None:
        fields["bs"] = str(tests.bs.n_samples)
    if tests.ar is not None:
        fields["ar"] = str(tests.ar.n_samples)
    fields["seed"] = str(tests.first.seed_used)
    return fields


def _test_signatures(table: ScoreTable, tests: Sequence[PairedColumn]) -> dict[str, str]:
    """The corpus signature of each tested metric, with the tests' fields."""
    signatures = table.signatures()
    found: dict[str, str] = {}
    for t in tests:
        key = t.column.metric
        if key not in found and key in signatures:
            found[key] = signature_with(signatures[key], _signature_fields(t))
    return found


def _signature_label(table: ScoreTable, key: str, tests: Sequence[PairedColumn]) -> str:
    """sacreBLEU's name for a signature: the score's (``BLEU``, ``chrF2``), or the metric's
    when it has several tested columns (``ROUGE``)."""
    mine = [t.column for t in tests if t.column.metric == key]
    return mine[0].label if len(mine) == 1 else METRICS[key].label


def format_paired_table(
    table: ScoreTable, tests: Sequence[PairedColumn], *, width: int = 1, segments: str | None = None
) -> str:
    """sacreBLEU's console report of a paired test (``sacrebleu -f text``, without colours):
    the table, what the test means, and the signatures. Columns whose figure is a mean of
    segment scores (ROUGE) are added to its table and said to be an extension."""
    first = tests[0].first
    bs = tests[0].bs
    ar = tests[0].ar
    names = [f"Baseline: {first.systems[0].name}", *(s.name for s in first.systems[1:])]
    header = ["System"]
    for t in tests:
        header.append(t.column.label + (" (μ ± 95% CI)" if t.bs is not None else ""))
    body = [[name, *(_cell(t, s, width) for t in tests)] for s, name in enumerate(names)]
    lines = [*_grid(header, body), ""]

    parts = []
    if bs is not None:
        parts.append(f"bootstrap resampling test with {bs.n_samples} resampling trials")
    if ar is not None:
        parts.append(f"approximate randomization test with {ar.n_samples} trials")
    message = "Paired " + " and ".join(parts)
    lines += ["-" * len(message), message, "-" * len(message)]
    lines.append(f" - Each system is pairwise compared to {names[0]}.")
    if bs is not None:
        lines.append(
            "   Actual system score / bootstrap estimated true mean / 95% CI are provided for "
            "each metric."
        )
    else:
        lines.append("   Actual system score is provided for each metric.")
    if bs is not None and ar is not None:
        lines.append(
            "   The first p-value is the bootstrap's, the second (AR) the randomization's."
        )
    lines += [
        "",
        " - Null hypothesis: the system and the baseline translations are essentially",
        "   generated by the same underlying process. For a given system and the baseline,",
        "   the p-value is roughly the probability of the absolute score difference (delta)",
        "   or higher occurring due to chance, under the assumption that the null hypothesis "
        "is correct.",
        "",
        " - Assuming a significance threshold of 0.05, the null hypothesis can be rejected",
        '   for p-values < 0.05 (marked with "*"). This means that the delta is unlikely to be '
        "attributed",
        '   to chance, hence the system is significantly "different" than the baseline.',
        "   Otherwise, the p-values carry no mark.",
        "",
        ' - NOTE: Significance does not tell whether a system is "better" than the baseline but '
        "rather",
        '   emphasizes the "difference" of the systems in terms of the replicability of the delta.',
        "",
    ]
    means = [t.column.label for t in tests if t.column.corpus != "stats"]
    if means:
        lines += [
            f" - {', '.join(means)}: the mean of segment scores, resampled with the same draws",
            "   (Matchlight's extension: sacreBLEU has no such metric).",
            "",
        ]
    if segments is not None:
        lines += [f" - Tested on {first.n_segments} segments: {segments}.", ""]
    lines += ["-----------------", "Metric signatures", "-----------------"]
    for key, signature in _test_signatures(table, tests).items():
        lines.append(f" - {_signature_label(table, key, tests):<10} {signature}")
    return "\n".join(lines)


def _compare_payload(
    setup: _Setup, table: ScoreTable, tests: Sequence[PairedColumn], seed: int
) -> dict[str, Any]:
    first = tests[0]
    systems: dict[str, dict[str, Any]] = {}
    for s, name in enumerate(table.systems):
        entry: dict[str, Any] = {}
        for t in tests:
            figures: dict[str, Any] = {"score": _number(t.first.systems[s].score)}
            boot = None if t.bs is None else t.bs.systems[s]
            figures["mean"] = None if boot is None or boot.mean is None else _number(boot.mean)
            figures["ci"] = None if boot is None or boot.ci is None else _number(boot.ci)
            if s:
                p_values = [r.systems[s].p_value for r in (t.bs, t.ar) if r is not None]
                figures["p_value"] = p_values[0]
                if len(p_values) == 2:
                    figures["ar_p_value"] = p_values[1]
            entry[t.column.key] = figures
        systems[name] = entry
    return {
        "matchlight_version": __version__,
        "baseline": table.systems[0],
        "seed": seed,
        "paired_bs_n": None if first.bs is None else first.bs.n_samples,
        "paired_ar_n": None if first.ar is None else first.ar.n_samples,
        "metrics": list(table.metric_keys),
        "columns": [t.column.key for t in tests],
        "settings": table.config.to_dict(),
        "signatures": _test_signatures(table, tests),
        "segments": first.first.n_segments,
        "segment_list": setup.segments,
        "systems": systems,
    }


def compare_main(argv: Sequence[str] | None = None) -> int:
    """``matchlight compare``; returns the exit status."""
    return _run(_compare_main, argv)


def _compare_main(argv: Sequence[str] | None) -> int:
    parser = build_compare_parser()
    args = parser.parse_args(argv)
    if len(args.hyp) < 2:
        parser.error(
            "compare needs a baseline and at least one other system: give --hyp at least twice "
            "(the first is the baseline)"
        )
    setup = _setup(parser, args, [("--json", args.json)], check=_check_testable)
    table, text = _score(setup, args)
    bootstrap = args.paired_bs_n if args.paired_bs or not args.paired_ar else None
    trials = args.paired_ar_n if args.paired_ar else None
    announce = None
    if not args.quiet and sys.stderr.isatty():

        def announce(message: str) -> None:
            print(f"matchlight: {message}", file=sys.stderr, flush=True)

    tests, seed = run_paired_tests(
        table,
        tested_columns(setup.config),
        rows=setup.rows,
        bootstrap=bootstrap,
        trials=trials,
        seed=args.seed,
        announce=announce,
    )
    _print(format_paired_table(table, tests, width=args.width, segments=setup.segments))
    _warn(setup, table, text, args)
    if args.json:
        try:
            write_json(args.json, _compare_payload(setup, table, tests, seed), inputs=setup.inputs)
        except OSError as error:
            return _fail(str(error))
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
