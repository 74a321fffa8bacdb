"""Speed of Matchlight's chrF / chrF++ against sacreBLEU 2.6.0's CHRF, measured in one run.

    python tests/benchmarks/bench_chrf.py [--rows 50000] [--refs 1] [--detail-rows 2000]

Real (hypothesis, reference) rows from every dataset of ../shared/data, every system, repeated
to --rows rows (with --refs 2, only the datasets that have ref2.txt). For chrF and chrF++:
  1. sacreBLEU: ``CHRF.sentence_score`` on every row;
  2. sacreBLEU: one ``CHRF.corpus_score`` over all rows;
  3. Matchlight: ``chrf_chunk_stats`` over all rows, then ``chrf_from_stats`` for the sentence
     scores and for the corpus score;
and ``chrf_detail`` (statistics plus highlights) on --detail-rows rows spread over the corpus.
Prints wall and CPU seconds and the ratios of CPU times (the machine is shared); checks that the
numbers agree. Not a test: timings are never asserted.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from sacrebleu.metrics.chrf import CHRF  # noqa: E402

from matchlight.core.metrics.chrf import chrf_chunk_stats, chrf_from_stats  # noqa: E402
from matchlight.core.metrics.chrfdetail import chrf_detail  # noqa: E402
from tests.benchmarks.benchkit import DATA, measure, read_lines  # noqa: E402

T = TypeVar("T")


def real_rows(n_refs: int) -> tuple[list[str], list[list[str]]]:
    """Hypotheses and their ``n_refs`` reference columns, every dataset and system."""
    hyps: list[str] = []
    refs: list[list[str]] = [[] for _ in range(n_refs)]
    for folder in sorted(p for p in DATA.iterdir() if p.is_dir()):
        paths = [folder / "ref.txt", folder / "ref2.txt"][:n_refs]
        if not all(p.exists() for p in paths):
            continue
        columns = [read_lines(p) for p in paths]
        for sys_file in sorted(folder.glob("sys.*.txt")):
            lines = read_lines(sys_file)
            hyps += lines
            for column, ref in zip(refs, columns, strict=True):
                column += ref
    return hyps, refs


def repeat_to(lines: list[str], rows: int) -> list[str]:
    return (lines * (rows // len(lines) + 1))[:rows]


def timed(label: str, func: Callable[[], T], rows: int) -> tuple[float, T]:
    """Run ``func`` once; print its wall and CPU seconds; return the CPU seconds (the machine
    is shared: other processes slow the wall clock far more than the CPU time)."""
    wall, cpu, result = measure(func)
    print(
        f"  {label:<46} {wall:7.2f} s wall {cpu:7.2f} s CPU  {rows / cpu:9,.0f} rows/CPU s",
        flush=True,
    )
    return cpu, result


def compare(
    name: str,
    word_order: int,
    hyps: list[str],
    refs: list[list[str]],
    *,
    lowercase: bool,
    detail_rows: int,
) -> None:
    """Time sacreBLEU and Matchlight on the same rows and say how far apart they are."""
    rows = len(hyps)
    print(f"{name}:")
    metric = CHRF(word_order=word_order, lowercase=lowercase)
    row_refs = [list(r) for r in zip(*refs, strict=True)]
    t_sentence, sentence = timed(
        "sacreBLEU sentence_score loop",
        lambda: [metric.sentence_score(h, r).score for h, r in zip(hyps, row_refs, strict=True)],
        rows,
    )
    t_corpus, corpus = timed(
        "sacreBLEU corpus_score", lambda: metric.corpus_score(hyps, refs).score, rows
    )

    def ours() -> tuple[list[float], float]:
        stats = chrf_chunk_stats(refs, [hyps], word_order=word_order, lowercase=lowercase)[0]
        scores = chrf_from_stats(stats, word_order=word_order).tolist()
        return scores, float(chrf_from_stats(stats.sum(axis=0), word_order=word_order))

    t_ours, (scores, our_corpus) = timed("Matchlight chrf_chunk_stats + scores", ours, rows)
    picked = range(0, rows, max(rows // max(detail_rows, 1), 1))[:detail_rows]
    n_detail = len(picked)
    t_detail, _ = timed(
        f"Matchlight chrf_detail, {n_detail:,} rows spread out",
        lambda: [
            chrf_detail(
                hypothesis=hyps[k],
                references=row_refs[k],
                word_order=word_order,
                lowercase=lowercase,
            )
            for k in picked
        ],
        n_detail,
    )
    differ = sum(a != b for a, b in zip(scores, sentence, strict=True))
    print(
        f"  speed-up (CPU time): {t_sentence / t_ours:.1f}x the sentence_score loop, "
        f"{t_corpus / t_ours:.1f}x corpus_score; detail {t_detail / n_detail * 1e3:.2f} ms/row"
    )
    same = "equal" if our_corpus == corpus else "DIFFERENT"
    print(
        f"  sentence scores not bit-identical: {differ} of {rows:,}; corpus "
        f"{our_corpus!r} vs sacreBLEU {corpus!r} ({same})"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rows", type=int, default=50_000)
    parser.add_argument("--refs", type=int, choices=(1, 2), default=1)
    parser.add_argument("--detail-rows", type=int, default=2_000)
    parser.add_argument("--lowercase", action="store_true")
    args = parser.parse_args()

    hyps, refs = real_rows(args.refs)
    rows = args.rows
    hyps = repeat_to(hyps, rows)
    refs = [repeat_to(column, rows) for column in refs]
    chars = sum(map(len, hyps)) + sum(sum(map(len, column)) for column in refs)
    print(
        f"{rows:,} rows, {args.refs} reference(s), lowercase={args.lowercase}, "
        f"{chars / rows:.0f} characters per row (hypothesis + references)"
    )
    for word_order, name in ((0, "chrF"), (2, "chrF++")):
        compare(
            name,
            word_order,
            hyps,
            refs,
            lowercase=args.lowercase,
            detail_rows=args.detail_rows,
        )


if __name__ == "__main__":
    main()
