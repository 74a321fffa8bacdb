"""``matchlight score``: corpus scores of line-aligned outputs, on the app's engine.

It prints the corpus table and every signature, and writes per-segment scores (``--csv``) and
corpus scores (``--json``). Its options, inputs and ``--segments`` are those of every command
(:mod:`core.cli.options`); the warnings it prints are the app's banner
(:mod:`core.scoring.advice`). ``matchlight compare`` prints the same warnings.
"""

from __future__ import annotations

import argparse
import math
import sys
from collections.abc import Sequence
from typing import Any, TextIO

import numpy as np

from matchlight.core import __version__
from matchlight.core.analysis.language import LanguageFlags, language_flags
from matchlight.core.cli.options import (
    CommandParser,
    Setup,
    add_inputs,
    add_running,
    add_scoring,
    add_version,
    fail,
    print_out,
    read_setup,
    run,
    score_comparison,
)
from matchlight.core.io.export import sidecar_path, write_csv, write_json
from matchlight.core.metrics.registry import METRICS
from matchlight.core.scoring.advice import profile_references, scoring_advice
from matchlight.core.scoring.results import ScoreTable
from matchlight.core.text.corpus import CorpusText

__all__ = [
    "build_parser",
    "corpus_summary",
    "format_table",
    "json_number",
    "main",
    "warn_about",
    "warn_scored",
]


def build_parser() -> argparse.ArgumentParser:
    """``matchlight score``'s options."""
    parser = CommandParser(
        prog="matchlight score",
        description=(
            "Score line-aligned system outputs against references. Defaults reproduce "
            "sacreBLEU 2.6.0's sentence_bleu/corpus_bleu and rouge-score 0.1.2's RougeScorer "
            "(no stemming, several references as score_multi)."
        ),
    )
    add_inputs(parser, hyp_help="a system output; repeat")
    add_scoring(
        parser,
        segments_help="score only these 1-based segments, e.g. 1-500,800,900- (as the app's "
        "selection)",
    )
    out = parser.add_argument_group("output")
    out.add_argument(
        "--csv", metavar="OUT.csv", help="per-segment scores, one row per system and segment"
    )
    out.add_argument("--json", metavar="OUT.json", help="corpus scores and signatures per system")
    out.add_argument(
        "--no-language-check",
        action="store_true",
        help="do not count outputs in another language than the references or copying the "
        "source (warned on stderr and written to --json by default)",
    )
    add_running(out)
    add_version(parser)
    return parser


def json_number(value: float) -> float | None:
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
            entry[column.key] = json_number(value)
            if column.corpus == "stats":
                entry[f"{column.key}_sentence_mean"] = json_number(corpus.means[column.key])
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
    "korean-tokenizer": " (see --tokenize)",
    "rouge-empty": " (try --rouge-tokenizer unicode)",
    "lsum-fallback": " (see --lsum-sep)",
    "lsum-none": " (see --lsum-sep)",
}


def warn_scored(setup: Setup, table: ScoreTable, text: CorpusText, *, quiet: bool) -> None:
    """:func:`warn_about` the scored rows on stderr (unless ``quiet``)."""
    if quiet:
        return
    # (warn_about's "lsum-none" advice covers --lsum-sep none)
    warn_about(table, text, sys.stderr, setup.rows)


def warn_language(
    flags: LanguageFlags, rows: np.ndarray | None, stream: TextIO, n_rows: int
) -> None:
    """One warning per system with outputs in another language or copying the source."""
    expected = flags.expectation
    for name, (wrong, copies) in zip(flags.systems, flags.counts(rows), strict=True):
        parts = []
        if wrong:
            parts.append(
                f"{wrong} of {n_rows} outputs in another language than the references "
                f"({expected.language if expected else '?'})"
            )
        if copies:
            parts.append(f"{copies} of {n_rows} copying the source")
        if parts:
            print(
                f"matchlight: warning: {name}: {' and '.join(parts)}; neural metrics are known "
                "to score such output highly",
                file=stream,
            )


def _language_json(
    payload: dict[str, Any], flags: LanguageFlags | None, rows: np.ndarray | None
) -> dict[str, Any]:
    """``payload`` with the language check: the references' language, and per system
    ``wrong_language`` and ``copies_source`` (null where the check could not tell)."""
    if flags is None:
        return payload
    expected = flags.expectation
    payload["reference_language"] = expected.language if expected else None
    for name, (wrong, copies) in zip(flags.systems, flags.counts(rows), strict=True):
        entry = payload["systems"][name]
        entry["wrong_language"] = wrong if expected is not None else None
        entry["copies_source"] = copies if flags.has_source else None
    return payload


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
    return run(build_parser, _main, argv)


def _main(parser: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    targets: list[tuple[str, str | None]] = [("--csv", args.csv)]
    if args.csv:
        targets.append(("--csv's sidecar", str(sidecar_path(args.csv))))
    targets.append(("--json", args.json))
    setup = read_setup(parser, args, targets)
    table, text = score_comparison(setup.comparison, setup.config, workers=args.workers)
    rows = setup.rows
    print_out(format_table(table, rows))
    warn_scored(setup, table, text, quiet=args.quiet)
    language = None
    if not args.no_language_check:
        source = setup.comparison.source
        language = language_flags(text, None if source is None else source.lines)
        if language is not None and not args.quiet:
            n = table.n_segments if rows is None else len(rows)
            warn_language(language, rows, sys.stderr, n)
    try:
        if args.csv:
            write_csv(
                args.csv, table, rows=None if rows is None else rows.tolist(), inputs=setup.inputs
            )
        if args.json:
            payload = _language_json(_json_payload(table, rows, setup.segments), language, rows)
            write_json(args.json, payload, inputs=setup.inputs)
    except OSError as error:
        return fail(str(error))
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
