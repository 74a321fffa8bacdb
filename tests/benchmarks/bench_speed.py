"""Speed of Matchlight's engine against sacrebleu + rouge-score, measured in one run.

    python tests/benchmarks/bench_speed.py [--rows 50000] [--lcs-pairs 60] [--workers 2]

Scores the same corpus (real data from ../shared/data, repeated to --rows rows) four ways:
  1. sacrebleu.sentence_bleu + rouge_score.RougeScorer(rouge1, rouge2, rougeL).score per row;
  2. Matchlight, scores plus highlight detail for every row (token spans, matched n-gram orders
     on the hypothesis and the reference, LCS tokens on both sides): the fast-path scores of each
     chunk plus matchlight.core.scoring.batchdetail's detail of the same chunk, on one core;
  3. the same detail the per-row way, matchlight.core.scoring.detail.RowDetailer.row on every row;
  4. Matchlight, scores only (the engine's fast path);
then ROUGE-L alone on 400-token pairs, and the fast path on several processes.
Prints seconds, rows/second and the ratios. Not a test: timings are never asserted.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

import sacrebleu  # noqa: E402
from rouge_score import rouge_scorer  # noqa: E402

from matchlight.core.metrics.lcs import lcs_length, lcs_pairs  # noqa: E402
from matchlight.core.scoring.batchdetail import BatchDetailer  # noqa: E402
from matchlight.core.scoring.config import ScoringConfig  # noqa: E402
from matchlight.core.scoring.detail import RowDetailer  # noqa: E402
from matchlight.core.scoring.engine import iter_score_chunks, iter_score_chunks_parallel  # noqa: E402
from matchlight.core.text.corpus import CorpusText  # noqa: E402
from matchlight.core.text.tokenizers import rouge_tokenizer  # noqa: E402

DATA = ROOT.parent / "shared" / "data"


def read_lines(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").split("\n")[:-1]


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
    start = time.perf_counter()
    func()
    elapsed = time.perf_counter() - start
    print(f"  {label:<44} {elapsed:8.2f} s  {rows / elapsed:10.0f} rows/s", flush=True)
    return elapsed


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

    detailed_rows: list[int] = []

    def matchlight_detail() -> None:
        detailer = BatchDetailer(config)
        for chunk in iter_score_chunks(text, config, chunk_size=2048):
            a, b = chunk.start, chunk.stop
            detail = detailer.detail_lines([refs[a:b]], [hyps[a:b]], a)
            detailed_rows.append(detail.n_rows)

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
    t_detail = timed("matchlight, scores + highlight detail", matchlight_detail, n)
    if sum(detailed_rows) != n:
        sys.exit(f"the batch detail covered {sum(detailed_rows)} rows, not {n}")
    t_rows = timed("matchlight, per-row RowDetailer", matchlight_row_detail, n)
    t_fast = timed("matchlight, scores only", matchlight_scores, n)
    print(f"  ratio with detail: {t_ref / t_detail:6.1f}x faster (target >= 3x)")
    print(f"  ratio with detail, per-row RowDetailer: {t_ref / t_rows:6.1f}x faster")
    print(f"  ratio scores only: {t_ref / t_fast:6.1f}x faster (target >= 5x)")
    if args.workers > 1:
        t_par = timed(f"matchlight, scores only, {args.workers} processes", matchlight_parallel, n)
        print(f"  ratio on {args.workers} processes: {t_ref / t_par:6.1f}x faster")

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

    def rouge_score_lcs() -> None:
        for a, b in long_pairs:
            rouge_scorer._score_lcs(a, b)

    def ours_length() -> None:
        for a, b in long_pairs:
            lcs_length(b, a)

    def ours_alignment() -> None:
        for a, b in long_pairs:
            lcs_pairs(b, a)

    t_rs = timed("rouge-score _score_lcs", rouge_score_lcs, m)
    t_len = timed("matchlight LCS length", ours_length, m)
    t_align = timed("matchlight LCS with alignment", ours_alignment, m)
    print(f"  ratio length only:    {t_rs / t_len:6.1f}x faster")
    print(f"  ratio with alignment: {t_rs / t_align:6.1f}x faster (target >= 30x)")
    same = all(lcs_length(b, a) == rouge_scorer._lcs_table(a, b)[-1][-1] for a, b in long_pairs[:5])
    print(f"  LCS lengths identical to rouge-score on the first 5 pairs: {same}")


if __name__ == "__main__":
    main()
