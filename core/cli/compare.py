"""``matchlight compare``: sacreBLEU 2.6.0's paired significance tests, on the app's engine.

Every system is tested against the first (:mod:`core.analysis.significance`) on the same
inputs, options and ``--segments`` as ``matchlight score`` (:mod:`core.cli.options`), and the
result is printed in sacreBLEU's table.
"""

from __future__ import annotations

import argparse
import math
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from matchlight.core import __version__
from matchlight.core.cli.options import (
    DEFAULT_AR_TRIALS,
    DEFAULT_BOOTSTRAP_SAMPLES,
    DEFAULT_SEED,
    CommandParser,
    add_engine,
    add_inputs,
    add_paired_test,
    add_running,
    add_scoring,
    add_version,
    count,
    number,
    print_out,
    run,
)
from matchlight.core.metrics.catalog import METRIC_OPTIONS, cli_name
from matchlight.core.metrics.settings import SettingError

# The tests and the engine are imported when the command runs (``--help`` needs neither).
if TYPE_CHECKING:
    import numpy as np

    from matchlight.core.analysis.clusters import SystemClusters
    from matchlight.core.analysis.significance import ScoreFunction, SignificanceResult
    from matchlight.core.cli.streaming import StreamSetup
    from matchlight.core.metrics.base import Metric, ScoreColumn
    from matchlight.core.scoring.config import ScoringConfig
    from matchlight.core.scoring.results import ScoreChunk

__all__ = [
    "SIGNIFICANT",
    "PairedColumn",
    "build_parser",
    "column_clusters",
    "compare_latex",
    "format_clusters",
    "format_paired_table",
    "main",
    "run_paired_tests",
    "tested_columns",
]

#: sacreBLEU's threshold: a p-value at most this is marked with "*".
SIGNIFICANT = 0.05


def _seed(text: str) -> int | None:
    if text.strip().lower() == "none":
        return None
    value = int(number(text, int, "a whole number or 'none'"))
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be 0 or more, not {value}")
    return value


def build_parser() -> argparse.ArgumentParser:
    """``matchlight compare``'s options."""
    parser = CommandParser(
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
    add_inputs(
        parser,
        hyp_help="a system output; repeat, at least twice: the first is the baseline that "
        "every other system is tested against",
    )
    add_scoring(
        parser,
        segments_help="test only these 1-based segments, e.g. 1-500,800,900- (the rows of the "
        "app's selection give the same answer)",
    )
    tests = parser.add_argument_group(
        "paired tests (the bootstrap when neither is named; both may run, on the same seed)"
    )
    add_paired_test(
        tests,
        "--paired-bs",
        help="paired bootstrap resampling, as sacreBLEU's --paired-bs: score, bootstrap mean "
        "and 95%% confidence half-width, p-value",
        default=DEFAULT_BOOTSTRAP_SAMPLES,
        count_help=f"bootstrap resamples (default {DEFAULT_BOOTSTRAP_SAMPLES})",
    )
    add_paired_test(
        tests,
        "--paired-ar",
        help="paired approximate randomization, as sacreBLEU's --paired-ar: score and "
        "p-value (no confidence interval, as sacreBLEU's command line)",
        default=DEFAULT_AR_TRIALS,
        count_help=f"approximate randomization trials (default {DEFAULT_AR_TRIALS})",
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
        type=count("--width", minimum=0, maximum=10),
        default=1,
        metavar="N",
        help="decimals of the scores in the table (default 1, as sacreBLEU)",
    )
    out.add_argument(
        "--latex",
        metavar="OUT.tex",
        help="a LaTeX table for a paper (needs \\usepackage{booktabs}): each system's score "
        "per tested column at its precision, the best in bold, daggers for a significant "
        "difference from the baseline, and the significance clusters",
    )
    add_running(out, workers=0)
    add_engine(parser)
    add_version(parser)
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
    import numpy as np

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


class ColumnStatistics:
    """What the paired tests resample, gathered from streamed chunks: per system and row,
    the additive statistics of each tested column's metric (corpus BLEU, corpus chrF) or the
    column's values (a mean: ROUGE). The texts are never held, nor any other column: memory
    is these arrays, :func:`~core.analysis.significance.table_statistics`' without a table."""

    def __init__(
        self,
        config: ScoringConfig,
        columns: Sequence[ScoreColumn],
        *,
        systems: Sequence[str],
        n_rows: int,
    ) -> None:
        import numpy as np

        from matchlight.core.metrics.registry import METRICS

        self.config = config
        self.systems = tuple(systems)
        self.n_rows = n_rows
        n_sys = len(self.systems)
        index = {c.key: i for i, c in enumerate(config.columns())}
        self._stats: dict[str, np.ndarray] = {}  # metric -> (S, n, K)
        self._metrics: dict[str, Metric] = {}
        self._scores: dict[str, ScoreFunction] = {}
        self._values: dict[str, np.ndarray] = {}  # column -> (S, n)
        self._positions: dict[str, int] = {}
        for column in columns:
            if column.corpus == "stats":
                metric = METRICS[column.metric]
                settings = config.settings(column.metric)
                empty = {
                    name: np.zeros((n_sys, 0, *shape), np.int64)
                    for name, shape in metric.stat_shapes(settings).items()
                }
                found = metric.additive(settings, empty)
                if found is None:  # pragma: no cover - refused by _check_testable
                    raise SettingError(f"{column.label} has no additive corpus figure")
                stacked, score = found
                width = stacked.shape[-1]
                self._stats[column.metric] = np.zeros((n_sys, n_rows, width), np.int64)
                self._metrics[column.metric] = metric
                self._scores[column.metric] = score
            else:
                self._values[column.key] = np.zeros((n_sys, n_rows))
                self._positions[column.key] = index[column.key]
        self._at = 0

    def add(self, chunk: ScoreChunk) -> None:
        """Take the next rows' statistics (in order)."""
        k = chunk.scores.shape[1]
        rows = slice(self._at, self._at + k)
        for key, array in self._stats.items():
            found = self._metrics[key].additive(self.config.settings(key), chunk.stats[key])
            if found is None:  # pragma: no cover - checked in __init__
                raise SettingError(f"{key} has no additive corpus figure")
            array[:, rows] = found[0]
        for key, values in self._values.items():
            values[:, rows] = chunk.scores[:, :, self._positions[key]]
        self._at += k

    def statistics(self, column: ScoreColumn) -> tuple[list[Any], ScoreFunction]:
        """Each system's ``(n, K)`` statistics behind ``column``'s corpus figure and the score
        of summed statistics (as :func:`~core.analysis.significance.table_statistics`)."""
        from matchlight.core.metrics.base import mean_score, mean_statistics

        if column.key in self._values:
            return list(mean_statistics(self._values[column.key])), mean_score
        return list(self._stats[column.metric]), self._scores[column.metric]


def run_paired_tests(
    statistics: ColumnStatistics,
    columns: Sequence[ScoreColumn],
    *,
    bootstrap: int | None,
    trials: int | None,
    seed: int | None,
    announce: Callable[[str], None] | None = None,
) -> tuple[list[PairedColumn], int]:
    """Every system against the first on each column: the paired bootstrap with ``bootstrap``
    resamples and/or approximate randomization with ``trials`` trials (None: not run), all on
    one seed (``None``: drawn once). Returns the results and the seed used."""
    from matchlight.core.analysis.significance import (
        paired_approximate_randomization,
        paired_bootstrap,
    )

    names = statistics.systems
    results = []
    for column in columns:
        stats, score = statistics.statistics(column)
        bs = ar = None
        if bootstrap is not None:
            if announce is not None:
                announce(f"{column.label}: paired bootstrap, {bootstrap} resamples")
            bs = paired_bootstrap(stats, score, names=names, n_samples=bootstrap, seed=seed)
            seed = bs.seed_used
        if trials is not None:
            if announce is not None:
                announce(f"{column.label}: approximate randomization, {trials} trials")
            ar = paired_approximate_randomization(
                stats, score, names=names, n_samples=trials, seed=seed
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


def _test_signatures(signatures: dict[str, str], tests: Sequence[PairedColumn]) -> dict[str, str]:
    """The corpus signature of each tested metric, with the tests' fields."""
    from matchlight.core.analysis.significance import signature_with

    found: dict[str, str] = {}
    for t in tests:
        key = t.column.metric
        if key not in found and key in signatures:
            found[key] = signature_with(signatures[key], _signature_fields(t))
    return found


def _signature_label(key: str, tests: Sequence[PairedColumn]) -> str:
    """sacreBLEU's name for a signature: the score's (``BLEU``, ``chrF2``), or the metric's
    when it has several tested columns (``ROUGE``)."""
    mine = [t.column for t in tests if t.column.metric == key]
    return mine[0].label if len(mine) == 1 else METRIC_OPTIONS[key].label


def format_paired_table(
    signatures: dict[str, str],
    tests: Sequence[PairedColumn],
    *,
    width: int = 1,
    segments: str | None = None,
) -> str:
    """sacreBLEU's console report of a paired test (``sacrebleu -f text``, without colours):
    the table, what the test means, and the signatures (``signatures``: each metric's corpus
    signature, to which the tests' fields are added). Columns whose figure is a mean of
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
    for key, signature in _test_signatures(signatures, tests).items():
        lines.append(f" - {_signature_label(key, tests):<10} {signature}")
    return "\n".join(lines)


def column_clusters(
    statistics: ColumnStatistics, tests: Sequence[PairedColumn], *, seed: int
) -> list[SystemClusters]:
    """Each tested column's systems ranked into significance clusters
    (:mod:`core.analysis.clusters`), with the test and seed of the run (the bootstrap unless
    only approximate randomization ran): every pair tested with the same draws."""
    from matchlight.core.analysis.clusters import rank_clusters
    from matchlight.core.analysis.significance import pairwise_significance

    out = []
    for t in tests:
        test: Literal["bs", "ar"] = "bs" if t.bs is not None else "ar"
        stats, score = statistics.statistics(t.column)
        pairwise = pairwise_significance(
            stats,
            score,
            names=statistics.systems,
            test=test,
            n_samples=t.first.n_samples,
            seed=seed,
        )
        out.append(
            rank_clusters(
                t.column.label,
                statistics.systems,
                pairwise.scores,
                pairwise.p_value,
                better=t.column.better,
            )
        )
    return out


def format_clusters(clusters: Sequence[SystemClusters]) -> str:
    """One line per column: its clusters, best first, ``1: A, B | 2: C``."""
    lines = [
        "Significance clusters (a system starts a new cluster when it is significantly",
        "worse, p < 0.05, than the best system of the current cluster):",
    ]
    for found in clusters:
        groups = " | ".join(
            f"{i}: {', '.join(names)}" for i, names in enumerate(found.groups(), start=1)
        )
        direction = "" if found.better == "higher" else " (lower is better)"
        lines.append(f" - {found.column}{direction}: {groups}")
    return "\n".join(lines)


def compare_latex(
    systems: Sequence[str],
    signatures: dict[str, str],
    tests: Sequence[PairedColumn],
    clusters: Sequence[SystemClusters],
) -> str:
    """The LaTeX table of a run (:func:`core.report.latex.latex_table`): the baseline (the
    first system) and the test the clusters used (the bootstrap unless only approximate
    randomization ran); ``signatures`` are the run's corpus signatures."""
    from matchlight.core.report.latex import latex_column, latex_table

    first = tests[0]
    test: Literal["bs", "ar"] = "bs" if first.bs is not None else "ar"
    columns = [
        latex_column(t.column, systems, t.bs if test == "bs" else t.ar, c)
        for t, c in zip(tests, clusters, strict=True)
    ]
    result = first.bs if test == "bs" else first.ar
    if result is None:  # pragma: no cover - the test of every column ran
        raise ValueError("no test was run")
    return latex_table(
        systems=systems,
        baseline=0,
        columns=columns,
        test=test,
        n_samples=result.n_samples,
        seed=result.seed_used,
        n_segments=result.n_segments,
        signatures=_test_signatures(signatures, tests),
    )


def _compare_payload(
    setup: StreamSetup,
    tests: Sequence[PairedColumn],
    seed: int,
    clusters: Sequence[SystemClusters] = (),
) -> dict[str, Any]:
    from matchlight.core.cli.score import json_number

    first = tests[0]
    systems: dict[str, dict[str, Any]] = {}
    for s, name in enumerate(setup.systems):
        entry: dict[str, Any] = {}
        for t in tests:
            figures: dict[str, Any] = {"score": json_number(t.first.systems[s].score)}
            boot = None if t.bs is None else t.bs.systems[s]
            figures["mean"] = None if boot is None or boot.mean is None else json_number(boot.mean)
            figures["ci"] = None if boot is None or boot.ci is None else json_number(boot.ci)
            if s:
                p_values = [r.systems[s].p_value for r in (t.bs, t.ar) if r is not None]
                figures["p_value"] = p_values[0]
                if len(p_values) == 2:
                    figures["ar_p_value"] = p_values[1]
            entry[t.column.key] = figures
        systems[name] = entry
    return {
        "matchlight_version": __version__,
        "baseline": setup.systems[0],
        "seed": seed,
        "paired_bs_n": None if first.bs is None else first.bs.n_samples,
        "paired_ar_n": None if first.ar is None else first.ar.n_samples,
        "metrics": list(setup.config.metrics),
        "columns": [t.column.key for t in tests],
        "settings": setup.config.to_dict(),
        "signatures": _test_signatures(setup.config.signatures(setup.nrefs), tests),
        "segments": first.first.n_segments,
        "segment_list": setup.segments,
        "systems": systems,
        "clusters": {
            t.column.key: [
                {"system": name, "cluster": cluster, "p_value": p}
                for name, cluster, p in zip(c.names, c.clusters, c.p_values)
            ]
            for t, c in zip(tests, clusters)
        },
    }


def main(argv: Sequence[str] | None = None) -> int:
    """``matchlight compare``; returns the exit status."""
    return run(build_parser, _main, argv)


def _main(parser: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    from matchlight.core.cli.options import Failed
    from matchlight.core.cli.score import counts_dropped, warn_scored
    from matchlight.core.cli.streaming import Streamed, open_command_engine, read_stream_setup
    from matchlight.core.io.export import input_paths, write_json
    from matchlight.core.io.segmentrows import RowJob
    from matchlight.core.report.latex import write_latex
    from matchlight.core.scoring.summary import StreamedCorpus

    if len(args.hyp) < 2:
        parser.error(
            "compare needs a baseline and at least one other system: give --hyp at least twice "
            "(the first is the baseline)"
        )
    outputs = [("--json", args.json), ("--latex", args.latex)]
    setup = read_stream_setup(parser, args, outputs, check=_check_testable)
    columns = tested_columns(setup.config)
    statistics = ColumnStatistics(setup.config, columns, systems=setup.systems, n_rows=setup.n_rows)
    corpus = StreamedCorpus(
        systems=setup.systems, n_rows=setup.n_rows, config=setup.config, nrefs=setup.nrefs
    )
    job = RowJob(setup.config, count_dropped=counts_dropped(setup.config))
    with open_command_engine(args) as engine:
        streamed = Streamed(setup, job, engine, rows=args.task_rows, leaks=True)
        for result in streamed.results():
            corpus.add(result.chunk)
            statistics.add(result.chunk)
    bootstrap = args.paired_bs_n if args.paired_bs or not args.paired_ar else None
    trials = args.paired_ar_n if args.paired_ar else None
    announce = None
    if not args.quiet and sys.stderr.isatty():

        def announce(message: str) -> None:
            print(f"matchlight: {message}", file=sys.stderr, flush=True)

    tests, seed = run_paired_tests(
        statistics, columns, bootstrap=bootstrap, trials=trials, seed=args.seed, announce=announce
    )
    clusters = column_clusters(statistics, tests, seed=seed)
    signatures = setup.config.signatures(setup.nrefs)
    print_out(format_paired_table(signatures, tests, width=args.width, segments=setup.segments))
    print_out("\n" + format_clusters(clusters))
    warn_scored(corpus, streamed, quiet=args.quiet)
    try:
        if args.json:
            payload = _compare_payload(setup, tests, seed, clusters)
            write_json(args.json, payload, inputs=setup.inputs)
        if args.latex:
            latex = compare_latex(setup.systems, signatures, tests, clusters)
            write_latex(args.latex, latex, protect=input_paths(setup.inputs))
    except OSError as error:
        raise Failed(str(error)) from None
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
