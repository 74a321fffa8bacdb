"""``matchlight score``: corpus scores of line-aligned outputs, on the app's engine, streamed.

It prints the corpus table and every signature, writes per-segment rows (``--csv``, ``--jsonl``,
``--parquet``; ``--keep`` picks the rows written) and corpus scores (``--json``). The inputs are
read as streams (:mod:`core.cli.streaming`): checked and counted first, then scored a chunk at a
time on an engine while the rows are written, so memory does not grow with the input. Corpus
figures come from summed statistics (:class:`~core.scoring.summary.StreamedCorpus`): the app's
numbers, bit for bit. The warnings it prints are the app's banner (:mod:`core.scoring.advice`),
the references that look made from one system's output, and (unless ``--no-language-check``)
the outputs in another language than the references or copying the source, counted chunk by
chunk where the chunks are scored (:class:`~core.cli.streaming.ChunkChecks`).
"""

from __future__ import annotations

import argparse
import math
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, TextIO

from matchlight.core import __version__
from matchlight.core.cli.options import (
    CommandParser,
    add_engine,
    add_inputs,
    add_running,
    add_scoring,
    add_version,
    fail,
    print_out,
    run,
)
from matchlight.core.metrics.catalog import METRIC_OPTIONS
from matchlight.core.metrics.settings import SettingError

if TYPE_CHECKING:
    from matchlight.core.cli.streaming import LanguageCounts, Streamed, StreamSetup
    from matchlight.core.io.export import SegmentRowsWriter
    from matchlight.core.io.segmentrows import KeepRule
    from matchlight.core.scoring.advice import Advice
    from matchlight.core.scoring.config import ScoringConfig
    from matchlight.core.scoring.summary import StreamedCorpus

__all__ = [
    "ROW_OUTPUTS",
    "build_parser",
    "corpus_summary",
    "format_table",
    "json_number",
    "main",
    "warn_about",
]

#: The per-segment outputs: option, format.
ROW_OUTPUTS = (("--csv", "csv"), ("--jsonl", "jsonl"), ("--parquet", "parquet"))


def build_parser() -> argparse.ArgumentParser:
    """``matchlight score``'s options."""
    parser = CommandParser(
        prog="matchlight score",
        description=(
            "Score line-aligned system outputs against references. Defaults reproduce "
            "sacreBLEU 2.6.0's sentence_bleu/corpus_bleu and rouge-score 0.1.2's RougeScorer "
            "(no stemming, several references as score_multi). Inputs are read as streams: "
            "memory does not grow with them."
        ),
    )
    add_inputs(
        parser,
        hyp_help="a system output; repeat",
        note="; .parquet columns with pyarrow",
    )
    add_scoring(
        parser,
        segments_help="score only these 1-based segments, e.g. 1-500,800,900- (as the app's "
        "selection)",
    )
    out = parser.add_argument_group("output")
    out.add_argument(
        "--csv", metavar="OUT.csv", help="per-segment scores, one row per system and segment"
    )
    out.add_argument(
        "--jsonl", metavar="OUT.jsonl", help="the same rows as JSON Lines (null: no score)"
    )
    out.add_argument(
        "--parquet",
        metavar="OUT.parquet",
        help="the same rows as Parquet (pip install 'matchlight[parquet]')",
    )
    out.add_argument(
        "--keep",
        action="append",
        metavar="RULE",
        help="write only the rows where every condition holds: COLUMN OP NUMBER, separated "
        "by commas, e.g. 'chrf>=40,rougeL_f>30' (OP: >= > <= < == !=; a row without a score "
        "there is left out); repeat to add conditions. Corpus figures stay those of every "
        "scored row",
    )
    out.add_argument("--json", metavar="OUT.json", help="corpus scores and signatures per system")
    out.add_argument(
        "--no-language-check",
        action="store_true",
        help="do not count outputs in another language than the references or copying the "
        "source (warned on stderr and written to --json by default)",
    )
    add_running(out, workers=0)
    add_engine(parser)
    add_version(parser)
    return parser


def json_number(value: float) -> float | None:
    """A JSON-safe number: NaN and infinities become null."""
    return value if math.isfinite(value) else None


def corpus_summary(corpus: StreamedCorpus) -> dict[str, dict[str, Any]]:
    """The ``--json`` payload's ``systems`` mapping (NaN written as null)."""
    signatures = corpus.signatures()
    result: dict[str, dict[str, Any]] = {}
    for s, name in enumerate(corpus.systems):
        figures = corpus.corpus(s)
        entry: dict[str, Any] = {"segments": figures.n_segments}
        for column in corpus.columns:
            value = figures.values.get(column.key, math.nan)
            if column.kind == "count":
                entry[column.key] = int(value) if math.isfinite(value) else None
                continue
            entry[column.key] = json_number(value)
            if column.corpus == "stats":
                entry[f"{column.key}_sentence_mean"] = json_number(figures.means[column.key])
        for key, detail in figures.details.items():
            extras = getattr(detail, "json_fields", None)
            if callable(extras):
                entry.update({f"{key}_{k}": v for k, v in extras().items()})
        for sig_name, signature in signatures.items():
            entry[f"{sig_name}_signature"] = signature
        missing = corpus.missing(s)
        if missing:
            entry["no_score"] = missing
        result[name] = entry
    return result


def format_table(corpus: StreamedCorpus) -> str:
    """The corpus table printed to stdout, then every signature."""
    headline = [c for c in corpus.columns if c.headline]
    header = ["system", *(c.short for c in headline)]
    with_detail = [key for key in corpus.metric_keys if key == "bleu"]
    header += [f"{METRIC_OPTIONS[key].label} detail" for key in with_detail]
    lines_rows: list[list[str]] = []
    for s, name in enumerate(corpus.systems):
        figures = corpus.corpus(s)
        cells = [name]
        for column in headline:
            value = figures.values.get(column.key, math.nan)
            cells.append("—" if math.isnan(value) else f"{value:.2f}")
        for key in with_detail:
            describe = getattr(figures.details.get(key), "describe", None)
            cells.append(describe() if callable(describe) else "")
        lines_rows.append(cells)
    widths = [max(len(r[i]) for r in [header, *lines_rows]) for i in range(len(header))]
    lines = [
        "  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True)).rstrip()
        for row in [header, *lines_rows]
    ]
    lines.insert(1, "  ".join("-" * w for w in widths))
    lines.append("")
    for name, signature in corpus.signatures().items():
        lines.append(f"{name} signature: {signature}")
    return "\n".join(lines)


def warn_about(corpus: StreamedCorpus, advice: Sequence[Advice], stream: TextIO) -> None:
    """Print what the app's warnings banner would show (``advice``, see
    :mod:`core.scoring.advice`), and how many rows have no score, and why."""
    for item in advice:
        hint = _CLI_FIX_HINTS.get(item.key, "")
        print(f"matchlight: warning: {item.message}{hint}", file=stream)
    for s, name in enumerate(corpus.systems):
        for column, count in corpus.missing(s).items():
            why = corpus.column_info(column)
            print(
                f"matchlight: warning: {name}: {why.label} has no score on {count} of "
                f"{corpus.count} rows ({_why_missing(corpus.config, why.metric)}); the JSON "
                "writes null there",
                file=stream,
            )


def _why_missing(config: ScoringConfig, metric: str) -> str:
    if metric == "nltk_bleu":
        smoothing = config.settings("nltk_bleu").smoothing  # type: ignore[attr-defined]
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


def warn_scored(corpus: StreamedCorpus, streamed: Streamed, *, quiet: bool) -> None:
    """:func:`warn_about` the scored rows on stderr (unless ``quiet``), then the references
    that look made from one system's output."""
    if quiet:
        return
    warn_about(corpus, streamed.advice(corpus), sys.stderr)
    for message in streamed.leaks():
        print(f"matchlight: warning: {message}", file=sys.stderr)


def warn_language(
    systems: Sequence[str], language: LanguageCounts, stream: TextIO, n_rows: int
) -> None:
    """One warning per system with outputs in another language or copying the source."""
    expected = language.expectation
    for name, (wrong, copies) in zip(systems, language.counts, strict=True):
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
    payload: dict[str, Any], systems: Sequence[str], language: LanguageCounts | None
) -> dict[str, Any]:
    """``payload`` with the language check: the references' language, and per system
    ``wrong_language`` and ``copies_source`` (null where the check could not tell)."""
    if language is None:
        return payload
    expected = language.expectation
    payload["reference_language"] = expected.language if expected else None
    for name, (wrong, copies) in zip(systems, language.counts, strict=True):
        entry = payload["systems"][name]
        entry["wrong_language"] = wrong if expected is not None else None
        entry["copies_source"] = copies if language.has_source else None
    return payload


def counts_dropped(config: ScoringConfig) -> bool:
    """Whether the warnings count the references rouge-score's tokenizer mostly empties."""
    return "rouge" in config.metrics and config.settings("rouge").tokenizer == "rouge-score"  # type: ignore[attr-defined]


def _json_payload(corpus: StreamedCorpus, segments: str | None) -> dict[str, Any]:
    return {
        "matchlight_version": __version__,
        "metrics": list(corpus.metric_keys),
        "settings": corpus.config.to_dict(),
        "signatures": corpus.signatures(),
        "segments": corpus.count,
        "segment_list": segments,
        "systems": corpus_summary(corpus),
    }


def main(argv: Sequence[str] | None = None) -> int:
    """``matchlight score``; returns the exit status."""
    return run(build_parser, _main, argv)


def _keep_rule(args: argparse.Namespace, config: ScoringConfig) -> KeepRule | None:
    """``--keep``'s rule over the scored columns; a bad rule is a usage error."""
    if not args.keep:
        return None
    from matchlight.core.io.segmentrows import KeepError, KeepRule, RowLayout

    if not any(getattr(args, option[2:]) for option, _ in ROW_OUTPUTS):
        raise SettingError("--keep picks the rows of --csv, --jsonl or --parquet: give one")
    try:
        return KeepRule.parse(args.keep, RowLayout.of_config(config))
    except KeepError as error:
        raise SettingError(f"--keep: {error}") from None


def _writers(
    args: argparse.Namespace, setup: StreamSetup, keep: KeepRule | None
) -> list[tuple[SegmentRowsWriter, Any]]:
    """A writer and a renderer for each per-segment output asked for."""
    from matchlight.core.io.export import SegmentRowsWriter, export_meta, input_paths
    from matchlight.core.io.segmentrows import RowLayout, RowRenderer

    layout = RowLayout.of_config(setup.config)
    meta = {
        **export_meta(
            setup.config, setup.nrefs, setup.inputs, setup.n_rows, setup.rows is not None
        ),
        "systems": list(setup.systems),
        "keep": None if keep is None else str(keep),
    }
    made = []
    try:
        for option, fmt in ROW_OUTPUTS:
            path = getattr(args, option[2:])
            if path:
                writer = SegmentRowsWriter(
                    path,
                    fmt,
                    layout=layout,
                    systems=setup.systems,
                    meta=meta,
                    protect=input_paths(setup.inputs),
                )
                made.append((writer, RowRenderer(fmt, layout, setup.systems)))
    except BaseException:
        for writer, _ in made:
            writer.abandon()
        raise
    return made


def _main(parser: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    from matchlight.core.cli.options import Failed
    from matchlight.core.cli.streaming import Streamed, open_command_engine, read_stream_setup
    from matchlight.core.io.export import sidecar_path, write_json
    from matchlight.core.io.segmentrows import RowJob
    from matchlight.core.scoring.summary import StreamedCorpus

    targets: list[tuple[str, str | None]] = []
    for option, _ in ROW_OUTPUTS:
        path = getattr(args, option[2:])
        targets.append((option, path))
        if path:
            targets.append((f"{option}'s sidecar", str(sidecar_path(path))))
    targets.append(("--json", args.json))
    rule: list[KeepRule | None] = [None]

    def check(config: ScoringConfig) -> None:
        rule[0] = _keep_rule(args, config)

    setup = read_stream_setup(
        parser, args, targets, check=check, language=not args.no_language_check
    )
    corpus = StreamedCorpus(
        systems=setup.systems, n_rows=setup.n_rows, config=setup.config, nrefs=setup.nrefs
    )
    try:
        writers = _writers(args, setup, rule[0])
    except OSError as error:
        return fail(str(error))
    job = RowJob(
        setup.config,
        renderers=tuple(renderer for _, renderer in writers),
        keep=rule[0],
        count_dropped=counts_dropped(setup.config),
    )
    try:
        with open_command_engine(args, setup.n_rows * len(setup.systems)) as engine:
            streamed = Streamed(
                setup,
                job,
                engine,
                rows=args.task_rows,
                leaks=True,
                language=not args.no_language_check,
            )
            for result in streamed.results():
                corpus.add(result.chunk)
                for (writer, _), rows in zip(writers, result.rows, strict=True):
                    for s, part in enumerate(rows):
                        writer.write(s, part, result.kept[s])
        print_out(format_table(corpus))
        warn_scored(corpus, streamed, quiet=args.quiet)
        language = streamed.language()
        if language is not None and not args.quiet:
            warn_language(setup.systems, language, sys.stderr, corpus.count)
        if rule[0] is not None and not args.quiet:
            kept = writers[0][0].rows
            for name, count in zip(setup.systems, kept, strict=True):
                print(
                    f"matchlight: {name}: --keep {rule[0]} kept {count:,} of {corpus.count:,} rows",
                    file=sys.stderr,
                )
        for writer, _ in writers:
            writer.finish()
        if args.json:
            payload = _language_json(_json_payload(corpus, setup.segments), setup.systems, language)
            write_json(args.json, payload, inputs=setup.inputs)
    except OSError as error:
        for writer, _ in writers:
            writer.abandon()
        raise Failed(str(error)) from None
    except BaseException:
        for writer, _ in writers:
            writer.abandon()
        raise
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
