"""``matchlight score``: the headless scorer, running the same engine as the GUI.

A thin argparse layer: choices come from the registries in :mod:`core.scoring.config`, and
everything
else is :mod:`core.io.inputs`, :mod:`core.scoring.engine` and :mod:`core.io.export`.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import TextIO

from matchlight.core import __version__
from matchlight.core.io.export import atomic_write_text, comparison_inputs, write_csv
from matchlight.core.io.inputs import InputError, load_comparison, parse_spec
from matchlight.core.scoring.advice import detect_script, has_sentence_marker, scoring_advice
from matchlight.core.scoring.config import (
    BLEU_FLAVOURS,
    BLEU_TOKENIZERS,
    MAX_ORDER_LIMIT,
    NLTK_SMOOTHING,
    ROUGE_N_LIMIT,
    ROUGE_TOKENIZERS,
    SMOOTH_METHODS,
    ConfigError,
    ScoringConfig,
)
from matchlight.core.scoring.engine import default_workers, score_corpus
from matchlight.core.scoring.results import ScoreTable
from matchlight.core.text.corpus import CorpusText

EXIT_INPUT_ERROR = 2


def _bounded_int(low: int, high: int) -> type:
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"must be {low} to {high}, not {value}")
        return value

    return parse  # type: ignore[return-value]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="matchlight score",
        description=(
            "Score line-aligned system outputs against references with BLEU and ROUGE. "
            "Defaults reproduce sacrebleu's sentence_bleu/corpus_bleu and rouge-score's "
            "RougeScorer (no stemming, several references as score_multi)."
        ),
    )
    files = parser.add_argument_group(
        "input files (PATH, NAME=PATH, or PATH#COLUMN for TSV/CSV/JSONL)"
    )
    files.add_argument(
        "--ref",
        "-r",
        action="append",
        required=True,
        metavar="R",
        help="a reference file; repeat for several references",
    )
    files.add_argument(
        "--hyp",
        "-s",
        action="append",
        required=True,
        metavar="H",
        help="a system output file; repeat for several systems",
    )
    files.add_argument("--src", metavar="S", help="the source file (optional)")

    bleu = parser.add_argument_group("BLEU")
    bleu.add_argument("--bleu-flavour", choices=BLEU_FLAVOURS, default="sacrebleu")
    bleu.add_argument("--tokenize", "-tok", choices=BLEU_TOKENIZERS, default="13a")
    bleu.add_argument("--lowercase", "-lc", action="store_true")
    bleu.add_argument(
        "--smooth",
        choices=SMOOTH_METHODS,
        default="exp",
        help="sacreBLEU smoothing method (default: exp)",
    )
    bleu.add_argument(
        "--smooth-value",
        type=float,
        default=None,
        help="value for floor (default 0.1) and add-k (default 1)",
    )
    bleu.add_argument("--max-order", type=_bounded_int(1, MAX_ORDER_LIMIT), default=4)
    bleu.add_argument(
        "--no-effective-order",
        action="store_true",
        help="sentence BLEU without effective order (sacrebleu uses it by default)",
    )
    bleu.add_argument(
        "--nltk-smoothing",
        choices=NLTK_SMOOTHING,
        default="method0",
        help="NLTK SmoothingFunction method for --bleu-flavour nltk",
    )

    rouge = parser.add_argument_group("ROUGE")
    rouge.add_argument("--rouge-stem", action="store_true", help="Porter stemming (nltk)")
    rouge.add_argument(
        "--rouge-tokenizer",
        choices=ROUGE_TOKENIZERS,
        default="rouge-score",
        help="rouge-score keeps only [a-z0-9]; unicode keeps every script",
    )
    rouge.add_argument(
        "--rouge-n",
        type=_bounded_int(1, ROUGE_N_LIMIT),
        default=2,
        help="score ROUGE-1 .. ROUGE-N (default 2)",
    )
    rouge.add_argument(
        "--lsum-sep",
        default="\\n",
        metavar="SEP",
        help="ROUGE-Lsum sentence separator inside a segment, e.g. '<n>' "
        "(default: a newline, as rouge-score); 'none' to disable",
    )

    out = parser.add_argument_group("output")
    out.add_argument(
        "--csv", metavar="OUT.csv", help="per-segment scores, one row per system and segment"
    )
    out.add_argument("--json", metavar="OUT.json", help="corpus scores per system")
    out.add_argument(
        "--workers",
        type=_bounded_int(0, 256),
        default=1,
        help="processes to score with (0 = all cores; default 1)",
    )
    out.add_argument("--quiet", "-q", action="store_true", help="no warnings on stderr")
    parser.add_argument("--version", action="version", version=f"matchlight {__version__}")
    return parser


def config_from_args(args: argparse.Namespace) -> ScoringConfig:
    sep = args.lsum_sep
    if sep.lower() == "none":
        separator = None
    else:
        separator = sep.encode("latin-1", "backslashreplace").decode("unicode_escape")
    return ScoringConfig(
        bleu_flavour=args.bleu_flavour,
        tokenize=args.tokenize,
        lowercase=args.lowercase,
        smooth_method=args.smooth,
        smooth_value=args.smooth_value,
        max_order=args.max_order,
        effective_order=not args.no_effective_order,
        nltk_smoothing=args.nltk_smoothing,
        rouge_tokenizer=args.rouge_tokenizer,
        rouge_stem=args.rouge_stem,
        rouge_max_n=args.rouge_n,
        lsum_separator=separator,
    )


def corpus_summary(table: ScoreTable) -> dict[str, dict[str, float | str | int]]:
    """The ``--json`` payload's ``systems`` mapping."""
    result: dict[str, dict[str, float | str | int]] = {}
    for s, name in enumerate(table.systems):
        corpus = table.corpus(s)
        entry: dict[str, float | str | int] = {
            "bleu": corpus.bleu,
            "signature": table.signature(),
            "segments": corpus.n_segments,
        }
        if corpus.bleu_detail is not None:
            entry["bleu_bp"] = corpus.bleu_detail.bp
            entry["bleu_sys_len"] = corpus.bleu_detail.sys_len
            entry["bleu_ref_len"] = corpus.bleu_detail.ref_len
        entry["sentence_bleu_mean"] = corpus.means["bleu"]
        for metric in table.metrics[1:]:
            entry[metric] = corpus.means[metric]
        result[name] = entry
    return result


def format_table(table: ScoreTable) -> str:
    """The corpus table printed to stdout."""
    rouge_cols = [f"{t}_f" for t in table.rouge_types]
    header = ["system", "BLEU", "BLEU detail", *(c.removesuffix("_f") + " F" for c in rouge_cols)]
    rows: list[list[str]] = []
    for s, name in enumerate(table.systems):
        corpus = table.corpus(s)
        if corpus.bleu_detail is not None:
            d = corpus.bleu_detail
            detail = (
                "/".join(f"{p:.1f}" for p in d.precisions)
                + f" (BP = {d.bp:.3f} ratio = {d.sys_len / max(d.ref_len, 1):.3f}"
                + f" hyp_len = {d.sys_len} ref_len = {d.ref_len})"
            )
        else:
            detail = "nltk"
        rows.append(
            [name, f"{corpus.bleu:.2f}", detail, *(f"{corpus.means[c]:.2f}" for c in rouge_cols)]
        )
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]
    lines = [
        "  ".join(cell.ljust(w) for cell, w in zip(row, widths)).rstrip() for row in [header, *rows]
    ]
    lines.insert(1, "  ".join("-" * w for w in widths))
    lines.append("")
    lines.append(f"signature: {table.signature()}")
    return "\n".join(lines)


def warn_about(table: ScoreTable, text: CorpusText, stream: TextIO) -> None:
    """Print what the GUI's warnings banner would show (see :mod:`core.scoring.advice`)."""
    for advice in scoring_advice(
        table,
        script=detect_script(text.references),
        has_marker=has_sentence_marker(text.references),
    ):
        hint = _CLI_FIX_HINTS.get(advice.key, "")
        print(f"matchlight: warning: {advice.message}{hint}", file=stream)


#: How to apply each :class:`~core.scoring.advice.Advice` on the command line.
_CLI_FIX_HINTS = {
    "cjk-tokenizer": " (see --tokenize)",
    "rouge-empty": " (try --rouge-tokenizer unicode)",
    "lsum-fallback": " (see --lsum-sep)",
}


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        config = config_from_args(args)
    except ConfigError as error:
        parser.error(str(error))
    try:
        comparison = load_comparison(
            source=parse_spec(args.src) if args.src else None,
            references=[parse_spec(r) for r in args.ref],
            systems=[parse_spec(h) for h in args.hyp],
        )
    except InputError as error:
        print(f"matchlight: error: {error}", file=sys.stderr)
        return EXIT_INPUT_ERROR
    if not args.quiet:
        for column in (comparison.source, *comparison.references, *comparison.systems):
            if column is None:
                continue
            for warning in column.warnings:
                print(f"matchlight: warning: {column.path}: {warning}", file=sys.stderr)
    text = comparison.corpus_text()
    workers = default_workers() if args.workers == 0 else args.workers
    table = score_corpus(text, config, workers=workers)
    try:
        print(format_table(table), flush=True)
    except BrokenPipeError:  # `matchlight score ... | head`
        sys.stdout = None  # type: ignore[assignment]  # nothing more can be written there
    if not args.quiet:
        warn_about(table, text, sys.stderr)
    inputs = comparison_inputs(comparison)
    try:
        if args.csv:
            write_csv(args.csv, table, inputs=inputs)
        if args.json:
            payload = {"systems": corpus_summary(table), "signature": table.signature()}
            atomic_write_text(args.json, json.dumps(payload, indent=2, ensure_ascii=False) + "\n")
    except OSError as error:
        print(
            f"matchlight: error: cannot write {error.filename}: {error.strerror}", file=sys.stderr
        )
        return EXIT_INPUT_ERROR
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
