"""``matchlight metaeval``: how well each metric agrees with human judgements, exactly as
google-research/mt-metrics-eval computes it (:mod:`core.analysis.metaeval`).

The systems are scored as ``matchlight score`` scores them; the human scores come from a score
file (:mod:`core.io.human`) or from a WMT MQM TSV of error spans
(:mod:`core.annotation.spanscores`). Prints one table per level and writes the JSON.
"""

from __future__ import annotations

import argparse
import math
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from matchlight.core import __version__
from matchlight.core.cli.options import (
    CommandParser,
    Failed,
    add_engine,
    add_inputs,
    add_running,
    add_scoring,
    add_version,
    count,
    print_out,
    run,
)

# What the command runs is imported when it runs: ``--help`` needs none of it.
if TYPE_CHECKING:
    from matchlight.core.analysis.metaeval import Estimate, MetaEvalResult
    from matchlight.core.io.human import HumanJudgements

__all__ = ["build_parser", "format_tables", "main", "result_payload"]

_LABELS = {
    "pearson": "Pearson",
    "spearman": "Spearman",
    "kendall": "Kendall",
    "pairwise_accuracy": "Acc",
    "spa": "SPA",
    "kendall_b": "Kendall-b",
    "acc23_item": "acc23",
}


def build_parser() -> argparse.ArgumentParser:
    """``matchlight metaeval``'s options."""
    parser = CommandParser(
        prog="matchlight metaeval",
        description=(
            "Meta-evaluate metrics against human judgements as google-research/mt-metrics-eval "
            "does: system-level Pearson, Spearman, Kendall, pairwise accuracy and WMT24's soft "
            "pairwise accuracy; segment-level Pearson and Kendall tau-b over all judged "
            "(system, segment) pairs and acc23 with the optimised tie threshold averaged over "
            "segments. Intervals resample segments; metrics are ranked into significance "
            "clusters with mt-metrics-eval's permutation tests."
        ),
    )
    add_inputs(parser, hyp_help="a system output; repeat (at least two systems)")
    add_scoring(
        parser,
        segments_help="meta-evaluate on these 1-based segments only, e.g. 1-500,800",
        default_metrics="bleu,chrf",
    )
    human = parser.add_argument_group("human judgements")
    human.add_argument(
        "--human",
        required=True,
        metavar="FILE",
        help="scores per system (--human-level system), per segment and system (long or wide "
        "TSV/CSV/JSONL), or a WMT MQM TSV of error spans (--human-level spans)",
    )
    human.add_argument(
        "--human-level",
        choices=("system", "segment", "spans"),
        default=None,
        help="what --human holds (default: spans for an MQM TSV with a 'severity' header, "
        "else segment)",
    )
    human.add_argument(
        "--human-column", default="score", metavar="NAME", help="score column (default score)"
    )
    human.add_argument(
        "--human-layout", choices=("long", "wide"), default="long", help="segment-level layout"
    )
    human.add_argument(
        "--human-system-column", default="system", metavar="NAME", help="default system"
    )
    human.add_argument(
        "--human-segment-column", metavar="NAME", help="1-based segment numbers (long layout)"
    )
    human.add_argument(
        "--human-segid", metavar="FILE", help="the MQM TSV's seg_id of each line (spans)"
    )
    human.add_argument(
        "--human-system",
        action="append",
        default=[],
        metavar="FILE_NAME=SYSTEM",
        help="a system of the MQM TSV under another name, e.g. ref=ref-A; repeat",
    )
    human.add_argument(
        "--human-better",
        choices=("higher", "lower"),
        help="which way the human scores are better (default: from the name; MQM is lower)",
    )
    stats = parser.add_argument_group("resampling")
    stats.add_argument(
        "--ci",
        type=count("--ci", minimum=0),
        default=1000,
        metavar="N",
        help="segment resamples for the 95%% intervals (default 1000; 0: none)",
    )
    stats.add_argument(
        "--permutations",
        type=count("--permutations", minimum=0),
        default=1000,
        metavar="K",
        help="permutations of the significance test between metrics (default 1000; 0: none)",
    )
    stats.add_argument(
        "--seed", type=count("--seed", minimum=0), default=12345, metavar="S", help="seed"
    )
    out = parser.add_argument_group("output")
    out.add_argument("--json", metavar="OUT.json", help="every figure, interval and cluster")
    add_running(out, workers=0)
    add_engine(parser)
    add_version(parser)
    return parser


def _level(args: argparse.Namespace) -> str:
    if args.human_level is not None:
        return str(args.human_level)
    try:
        with open(args.human, encoding="utf-8", errors="replace") as handle:
            first = handle.readline().lower().split("\t")
    except OSError:
        return "segment"
    return "spans" if "severity" in [f.strip() for f in first] else "segment"


def _read_human(
    args: argparse.Namespace, systems: Sequence[str], n_segments: int
) -> HumanJudgements:
    from matchlight.core.annotation.spanscores import human_from_spans
    from matchlight.core.io.human import read_human
    from matchlight.core.io.inputs import InputError

    level = _level(args)
    try:
        if level == "spans":
            renames = {}
            for item in args.human_system:
                old, sep, new = item.partition("=")
                if not sep or not old or not new:
                    raise Failed(f"--human-system {item!r}: expected FILE_NAME=SYSTEM")
                renames[old] = new
            return human_from_spans(
                args.human,
                systems=systems,
                n_segments=n_segments,
                segment_ids=args.human_segid,
                system_names=renames,
            )
        return read_human(
            args.human,
            systems=systems,
            n_segments=n_segments,
            level="system" if level == "system" else "segment",
            column=args.human_column,
            layout=args.human_layout,
            system_column=args.human_system_column,
            segment_column=args.human_segment_column,
            better=args.human_better,
        )
    except InputError as error:
        raise Failed(str(error)) from None


def _cell(estimate: Estimate | None) -> str:
    if estimate is None or not math.isfinite(estimate.value):
        return "–"
    text = f"{estimate.value:.3f}"
    if estimate.low is not None and estimate.high is not None:
        text += f" [{estimate.low:.3f}, {estimate.high:.3f}]"
    return text


def format_tables(result: MetaEvalResult) -> str:
    """The result as two text tables (system and segment level), with each metric's
    significance cluster per statistic in parentheses (1 = best)."""
    from matchlight.core.analysis.metaeval import SEGMENT_STATISTICS, SYSTEM_STATISTICS

    lines = [
        f"Human: {result.human}; {len(result.systems)} systems, {result.n_rows} segments, "
        f"{result.n_judged} judged pairs."
    ]
    for level, names, attr in (
        ("System level", SYSTEM_STATISTICS, "system"),
        ("Segment level", SEGMENT_STATISTICS, "segment"),
    ):
        header = ["Metric", *(_LABELS[n] for n in names)]
        rows = []
        for metric in result.metrics:
            figures = getattr(metric, attr)
            row = [metric.name]
            for n in names:
                cell = _cell(figures.get(n))
                ranking = result.ranking(attr, n)
                if ranking is not None and metric.name in ranking.names:
                    cell += f" ({ranking.clusters[ranking.names.index(metric.name)]})"
                row.append(cell)
            rows.append(row)
        widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]
        lines += ["", level]
        lines.append("  ".join(h.ljust(w) for h, w in zip(header, widths)))
        lines.append("  ".join("-" * w for w in widths))
        lines += ["  ".join(c.ljust(w) for c, w in zip(r, widths)) for r in rows]
    settings = result.settings
    lines += [
        "",
        f"Intervals: {settings.confidence:.0%} over {settings.confidence_samples} segment "
        f"resamples; clusters (n): mt-metrics-eval's permutation test, "
        f"{settings.permutations} permutations, p < {settings.p_threshold}; seed "
        f"{settings.seed}.",
    ]
    return "\n".join(lines)


def _json_estimate(estimate: Estimate | None) -> Any:
    if estimate is None or not math.isfinite(estimate.value):
        return None
    if estimate.low is None or estimate.high is None:
        return estimate.value
    return {"value": estimate.value, "ci": [estimate.low, estimate.high]}


def result_payload(result: MetaEvalResult) -> dict[str, Any]:
    """The JSON document: ``system_level`` and ``segment_level`` per metric and statistic (a
    number, or ``{"value", "ci"}``), the clusters and the settings."""
    from matchlight.core.analysis.metaeval import SEGMENT_STATISTICS, SYSTEM_STATISTICS

    settings = result.settings
    return {
        "matchlight_version": __version__,
        "human": result.human,
        "systems": list(result.systems),
        "segments": result.n_rows,
        "judged_pairs": result.n_judged,
        "system_level": {
            m.name: {k: _json_estimate(m.system.get(k)) for k in SYSTEM_STATISTICS}
            for m in result.metrics
        },
        "segment_level": {
            m.name: {k: _json_estimate(m.segment.get(k)) for k in SEGMENT_STATISTICS}
            for m in result.metrics
        },
        "acc23_thresholds": {m.name: m.acc23_threshold for m in result.metrics},
        "clusters": [
            {
                "level": r.level,
                "statistic": r.statistic,
                "metrics": list(r.names),
                "values": list(r.values),
                "clusters": list(r.clusters),
                "p_values": [list(row) for row in r.p_values],
            }
            for r in result.rankings
        ],
        "settings": {
            "confidence_samples": settings.confidence_samples,
            "confidence": settings.confidence,
            "permutations": settings.permutations,
            "block_size": settings.block_size,
            "p_threshold": settings.p_threshold,
            "seed": settings.seed,
        },
    }


def main(argv: Sequence[str] | None = None) -> int:
    """``matchlight metaeval``; returns the exit status."""
    return run(build_parser, _main, argv)


def _main(parser: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    from matchlight.core.analysis.metaeval import (
        HumanColumn,
        MetaEvalSettings,
        metaevaluate,
        metric_columns,
    )
    from matchlight.core.cli.streaming import read_stream_setup, scored_table
    from matchlight.core.io.export import write_json

    if not hasattr(args, "metrics"):
        args.metrics = "bleu,chrf"
    setup = read_stream_setup(parser, args, [("--json", args.json)])
    if len(setup.systems) < 2:
        parser.error("give --hyp at least twice: a meta-evaluation ranks systems")
    table = scored_table(setup, args)
    human = _read_human(args, table.systems, table.n_segments)
    if not args.quiet:
        for warning in human.warnings:
            print(f"matchlight: warning: {warning}", file=sys.stderr)
    oriented = human.oriented()
    column = (
        HumanColumn(human.name, systems=oriented)
        if human.level == "system"
        else HumanColumn(human.name, segments=oriented)
    )
    keys = [c.key for c in table.columns if c.kind == "score" and c.headline]
    settings = MetaEvalSettings(
        confidence_samples=args.ci, permutations=args.permutations, seed=args.seed
    )
    try:
        result = metaevaluate(
            metric_columns(table, keys),
            column,
            systems=table.systems,
            rows=setup.rows,
            settings=settings,
        )
    except ValueError as error:
        raise Failed(str(error)) from None
    print_out(format_tables(result))
    if args.json:
        try:
            write_json(args.json, result_payload(result), inputs=setup.inputs)
        except OSError as error:
            raise Failed(str(error)) from None
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
