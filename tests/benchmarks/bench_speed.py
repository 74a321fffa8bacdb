"""Speed of Matchlight's engine against sacrebleu + rouge-score, measured in one run.

    python tests/benchmarks/bench_speed.py [--rows 50000] [--lcs-pairs 60] [--workers 2]

Scores the same corpus (real data from ../shared/data, repeated to --rows rows) three ways:
  1. sacrebleu.sentence_bleu + rouge_score.RougeScorer(rouge1, rouge2, rougeL).score per row;
  2. Matchlight, scores plus the highlight detail of every row (token spans, matched n-gram
     orders on the hypothesis and the reference, LCS tokens on both sides, breakdowns):
     matchlight.core.scoring.detail.RowDetailer.row on every row, as the app details a row;
  3. Matchlight, scores only (every metric's bulk path);
then sentence chrF against sacrebleu.sentence_chrf, ROUGE-L alone on 400-token pairs, and the
bulk path on several processes. Prints seconds, rows/second and the ratios. Not a test: timings
are never asserted.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

import sacrebleu  # noqa: E402
from rouge_score import rouge_scorer  # noqa: E402

from matchlight.core.metrics.lcs import lcs_length, lcs_pairs  # noqa: E402
from matchlight.core.scoring.config import ScoringConfig  # noqa: E402
from matchlight.core.scoring.detail import RowDetailer  # noqa: E402
from matchlight.core.scoring.engine import iter_score_chunks, iter_score_chunks_parallel  # noqa: E402
from matchlight.core.text.corpus import CorpusText  # noqa: E402
from matchlight.core.text.tokenizers import rouge_tokenizer  # noqa: E402
from tests.benchmarks.benchkit import DATA, measure, read_lines  # noqa: E402
from tests.refs import rouge_lcs_table, rouge_score_lcs  # noqa: E402


def real_pairs() -> list[tuple[str, str]]:
    """(hypothesis, reference) pairs from every dataset, every system, against ref.txt."""
    pairs: list[tuple[str, str]] = []
    for folder in sorted(p for p in DATA.iterdir() if p.is_dir()):
        ref = folder / "ref.txt"
        if not ref.exists():
            continue
        refs = read_lines(ref)
        for sys_file in sorted(folder.glob("sys.*.txt")):
            pairs += list(zip(read_lines(sys_file), refs))
    return pairs


def timed(label: str, func: Callable[[], object], rows: int) -> float:
    """Run ``func``; print wall and CPU seconds; return the CPU seconds of this process. The
    ratios use CPU time: other work on a shared machine changes wall time, not this process's
    CPU. (A multi-process run's CPU is in its workers: it is compared on wall time.)"""
    elapsed, used, _ = measure(func)
    print(
        f"  {label:<44} {elapsed:8.2f} s wall {used:8.2f} s CPU  {rows / used:10.0f} rows/s",
        flush=True,
    )
    WALL[label] = elapsed
    return used


#: Wall seconds of every run, by label (for the multi-process comparison).
WALL: dict[str, float] = {}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=50_000)
    parser.add_argument("--lcs-pairs", type=int, default=60)
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    args = parser.parse_args()

    base = real_pairs()
    if not base:
        sys.exit(f"no data under {DATA}")
    pairs = (base * (args.rows // len(base) + 1))[: args.rows]
    hyps = tuple(h for h, _ in pairs)
    refs = tuple(r for _, r in pairs)
    n = len(pairs)
    print(f"corpus: {n} rows ({len(base)} distinct real pairs from {DATA}), 1 reference")

    config = ScoringConfig()
    text = CorpusText(references=(refs,), systems=(hyps,), system_names=("sys",))

    def reference_libraries() -> None:
        scorer = rouge_scorer.RougeScorer(["rouge1", "rouge2", "rougeL"])
        for h, r in pairs:
            sacrebleu.sentence_bleu(h, [r])
            scorer.score(r, h)

    def matchlight_row_detail() -> None:
        detailer = RowDetailer(config)
        for i, (h, r) in enumerate(pairs):
            detailer.row(segment=i, source=None, references=[r], systems=[("sys", h)])

    def matchlight_scores() -> None:
        for _ in iter_score_chunks(text, config, chunk_size=2048):
            pass

    def matchlight_parallel() -> None:
        for _ in iter_score_chunks_parallel(text, config, workers=args.workers, chunk_size=4096):
            pass

    print("sentence BLEU + ROUGE-1/2/L for every row (one core):")
    t_ref = timed("sacrebleu + rouge-score", reference_libraries, n)
    t_rows = timed("matchlight, scores + detail (RowDetailer)", matchlight_row_detail, n)
    # Timed with the tokenizers' caches of rewritten lines filled by one untimed pass, as the
    # scores-only figure always was (the batch detailer that ran before it filled them). Cold,
    # the first pass costs about 0.4 s more per 50,000 rows, then and now alike.
    matchlight_scores()
    t_fast = timed("matchlight, scores only", matchlight_scores, n)
    print(f"  ratio with detail, per-row RowDetailer: {t_ref / t_rows:6.1f}x faster")
    print(f"  ratio scores only: {t_ref / t_fast:6.1f}x faster (target >= 5x)")
    if args.workers > 1:
        label = f"matchlight, scores only, {args.workers} processes"
        timed(label, matchlight_parallel, n)
        wall_ratio = WALL["sacrebleu + rouge-score"] / WALL[label]
        print(f"  ratio on {args.workers} processes (wall time): {wall_ratio:6.1f}x faster")

    chrf_config = ScoringConfig(metrics=("chrf",))
    chrf_rows = min(n, 20_000)
    chrf_text = CorpusText(
        references=(refs[:chrf_rows],), systems=(hyps[:chrf_rows],), system_names=("sys",)
    )

    def sacrebleu_chrf() -> None:
        for h, r in pairs[:chrf_rows]:
            sacrebleu.sentence_chrf(h, [r])

    def matchlight_chrf() -> None:
        for _ in iter_score_chunks(chrf_text, chrf_config, chunk_size=2048):
            pass

    print(f"sentence chrF for {chrf_rows} rows (one core):")
    t_sc = timed("sacrebleu.sentence_chrf", sacrebleu_chrf, chrf_rows)
    t_mc = timed("matchlight, chrF scores", matchlight_chrf, chrf_rows)
    print(f"  ratio chrF: {t_sc / t_mc:6.1f}x faster")

    # ROUGE-L on 400-token pairs: long real texts (CNN/DM), concatenated to 400 tokens.
    tok = rouge_tokenizer("rouge-score")
    cnn = DATA / "cnndm-pointer-gen"
    stream_a = [w for line in read_lines(cnn / "ref.txt") for w in tok(line)]
    stream_b = [w for line in read_lines(cnn / "sys.pointer-gen.txt") for w in tok(line)]
    long_pairs = [
        (stream_a[k * 400 : (k + 1) * 400], stream_b[k * 400 : (k + 1) * 400])
        for k in range(args.lcs_pairs)
    ]
    long_pairs = [(a, b) for a, b in long_pairs if len(a) == 400 and len(b) == 400]
    m = len(long_pairs)
    print(f"ROUGE-L on {m} pairs of 400 tokens (tokenization excluded):")

    def theirs() -> None:
        for a, b in long_pairs:
            rouge_score_lcs(a, b)

    def ours_length() -> None:
        for a, b in long_pairs:
            lcs_length(b, a)

    def ours_alignment() -> None:
        for a, b in long_pairs:
            lcs_pairs(b, a)

    t_rs = timed("rouge-score _score_lcs", theirs, m)
    t_len = timed("matchlight LCS length", ours_length, m)
    t_align = timed("matchlight LCS with alignment", ours_alignment, m)
    print(f"  ratio length only:    {t_rs / t_len:6.1f}x faster")
    print(f"  ratio with alignment: {t_rs / t_align:6.1f}x faster (target >= 30x)")
    same = all(lcs_length(b, a) == rouge_lcs_table(a, b)[-1][-1] for a, b in long_pairs[:5])
    print(f"  LCS lengths identical to rouge-score on the first 5 pairs: {same}")


if __name__ == "__main__":
    main()
