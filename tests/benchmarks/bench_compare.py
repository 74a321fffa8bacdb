"""Speed of the system-comparison analyses against the reference algorithms, measured in one run.

    python tests/benchmarks/bench_compare.py [--rows 100000] [--compare-mt DIR]

The corpus is wmt22-de-en (real WMT22 output of five systems, two references) repeated to --rows
rows, tokenized once with sacreBLEU's 13a tokenizer (not timed). Timed, each next to its
reference on the same rows:
  1. n-gram differences of two systems (orders 1-4, top 50): compare-mt's compare_ngrams +
     extract_salient_features + sort (its own files when --compare-mt points at an unpacked
     compare-mt wheel, else the same loops transcribed from compare-mt 0.2.10);
  2. word F-measure by frequency bucket, five systems: compare-mt's FreqWordBucketer loops
     (transcribed), against word_accuracy_by_frequency without and with 1000 bootstrap resamples;
  3. leave-one-out of corpus BLEU(A) - BLEU(B) for every row: a loop over sacreBLEU's
     BLEU.compute_bleu, against difference_influence;
  4. bucket means with a 1000-resample bootstrap, 7 length buckets x 5 systems: a plain numpy
     loop (draw indices, take means) against bucket_means;
  5. the reference audit (identical lines, 2 references x 5 systems).
Prints wall-clock and CPU seconds, and ratios of CPU time. Not a test: timings are never
asserted.
"""

from __future__ import annotations

import argparse
import importlib.util
import operator
import sys
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Sequence
from itertools import chain
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from sacrebleu.metrics.bleu import BLEU  # noqa: E402

from matchlight.core.analysis.buckets import (  # noqa: E402
    bucket_means,
    length_buckets,
    word_accuracy_by_frequency,
)
from matchlight.core.analysis.compare import (  # noqa: E402
    difference_influence,
    ngram_differences,
)
from matchlight.core.analysis.references import audit_references  # noqa: E402
from matchlight.core.metrics.bleu import BleuMetric  # noqa: E402
from matchlight.core.metrics.bleuoptions import BleuSettings  # noqa: E402
from tests.benchmarks.benchkit import DE_EN, measure, read_lines  # noqa: E402
from tests.refs import sacrebleu_statistics  # noqa: E402

DATA = DE_EN
SYSTEMS = ("JDExploreAcademy", "LT22", "Lan-Bridge", "Online-W", "PROMT")
Tokens = list[list[str]]


def timed(label: str, func: Callable[[], Any]) -> tuple[float, Any]:
    """Run ``func``; print its wall-clock and CPU seconds (CPU time is steadier on a shared
    machine); return the CPU seconds and the result."""
    elapsed, used, result = measure(func)
    print(f"  {label:<58} {elapsed:7.2f} s wall {used:7.2f} s CPU", flush=True)
    return used, result


# -- compare-mt's loops (compare_mt/ngram_utils.py, stat_utils.py, bucketers.py) -----------------


def cmt_compare_ngrams(ref: Tokens, out: Tokens) -> dict[tuple[str, ...], int]:
    match: dict[tuple[str, ...], int] = defaultdict(int)
    for ref_sent, out_sent in zip(ref, out):
        ref_ngrams = [
            tuple(ref_sent[i : i + n + 1]) for n in range(4) for i in range(len(ref_sent) - n)
        ]
        counts: dict[tuple[str, ...], int] = defaultdict(int)
        for gram in ref_ngrams:
            counts[gram] += 1
        for n in range(4):
            for i in range(len(out_sent) - n):
                gram = tuple(out_sent[i : i + n + 1])
                if counts[gram] > 0:
                    match[gram] += 1
                    counts[gram] -= 1
    return match


def cmt_salient(a: dict[Any, int], b: dict[Any, int]) -> list[tuple[Any, float]]:
    keys = set(a) | set(b)
    scores = {k: (a.get(k, 0) + 1.0) / (a.get(k, 0) + b.get(k, 0) + 2.0) for k in keys}
    return sorted(scores.items(), key=operator.itemgetter(1), reverse=True)


def cmt_word_accuracy(ref: Tokens, outs: Sequence[Tokens]) -> np.ndarray:
    cutoffs = (1, 2, 3, 4, 5, 10, 100, 1000)
    freq = Counter(chain.from_iterable(ref))

    def bucket(word: str) -> int:
        value = freq.get(word, 0)
        for i, v in enumerate(cutoffs):
            if value < v:
                return i
        return len(cutoffs)

    n_buckets = len(cutoffs) + 1
    out_matches = np.zeros((len(outs), n_buckets), dtype=int)
    for rsi, ref_sent in enumerate(ref):
        ref_pos: dict[str, list[int]] = defaultdict(list)
        for ri, w in enumerate(ref_sent):
            ref_pos[w].append(ri)
        ref_buckets = [bucket(w) for w in ref_sent]
        for oai, out in enumerate(outs):
            cnts: dict[str, int] = {}
            for w in out[rsi]:
                poss = ref_pos.get(w)
                matched = -1
                if poss:
                    c = cnts.get(w, 0)
                    if c < len(poss):
                        matched = poss[c]
                    cnts[w] = c + 1
                b = bucket(w) if matched < 0 else ref_buckets[matched]
                if matched >= 0:
                    out_matches[oai, b] += 1
    return out_matches


def load_compare_mt(folder: Path) -> tuple[ModuleType, ModuleType]:
    """compare-mt's ngram_utils.py and stat_utils.py, loaded as files (its package __init__
    imports matplotlib, which these two do not need)."""
    modules = []
    for name in ("ngram_utils", "stat_utils"):
        spec = importlib.util.spec_from_file_location(name, folder / "compare_mt" / f"{name}.py")
        if spec is None or spec.loader is None:
            sys.exit(f"no compare_mt/{name}.py under {folder}")
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        modules.append(module)
    return modules[0], modules[1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=100_000)
    parser.add_argument(
        "--compare-mt", type=Path, help="an unpacked compare-mt wheel: use its own files in 1."
    )
    args = parser.parse_args()
    if not DATA.is_dir():
        sys.exit(f"no data under {DATA}")

    tokenizer = BLEU(tokenize="13a").tokenizer
    base_refs = [read_lines(DATA / n) for n in ("ref.txt", "ref2.txt")]
    base_sys = [read_lines(DATA / f"sys.{s}.txt") for s in SYSTEMS]
    repeat = args.rows // len(base_refs[0]) + 1

    def grow(lines: list[str]) -> list[str]:
        return (lines * repeat)[: args.rows]

    start = time.perf_counter()
    refs_text = [grow(r) for r in base_refs]
    sys_text = [grow(s) for s in base_sys]
    refs = [[tokenizer(line).split() for line in r] for r in refs_text]
    systems = [[tokenizer(line).split() for line in s] for s in sys_text]
    n = args.rows
    print(
        f"corpus: {n} rows (wmt22-de-en x {repeat}), 2 references, {len(SYSTEMS)} systems; "
        f"13a tokenization {time.perf_counter() - start:.1f} s (not timed below)"
    )

    print("1. n-gram differences, 2 systems, orders 1-4, top 50, 1 reference:")
    if args.compare_mt is not None:
        ngram_utils, stat_utils = load_compare_mt(args.compare_mt)

        def reference_ngrams() -> Any:
            _, ma, _, _ = ngram_utils.compare_ngrams(refs[0], systems[0])
            _, mb, _, _ = ngram_utils.compare_ngrams(refs[0], systems[1])
            scores = stat_utils.extract_salient_features(ma, mb, alpha=1.0)
            return sorted(scores.items(), key=operator.itemgetter(1), reverse=True)

        label = "compare-mt 0.2.10 (its own files)"
    else:

        def reference_ngrams() -> Any:
            return cmt_salient(
                cmt_compare_ngrams(refs[0], systems[0]), cmt_compare_ngrams(refs[0], systems[1])
            )

        label = "compare-mt's loops (transcribed)"
    t_ref, ranked = timed(label, reference_ngrams)
    t_ours, ours = timed(
        "ngram_differences",
        lambda: ngram_differences(references=[refs[0]], system_a=systems[0], system_b=systems[1]),
    )
    same = [e.score for e in ours.a_better] == [v for _, v in ranked[:50]]
    print(f"  ratio: {t_ref / t_ours:6.1f}x faster; top-50 scores equal: {same}")
    timed(
        "ngram_differences, 2 references (no reference: compare-mt has 1)",
        lambda: ngram_differences(references=refs, system_a=systems[0], system_b=systems[1]),
    )

    print("2. word F-measure by frequency bucket, 5 systems, 1 reference:")
    t_ref, cmt = timed(
        "compare-mt's FreqWordBucketer loops (transcribed)",
        lambda: cmt_word_accuracy(refs[0], systems),
    )
    t_ours, words = timed(
        "word_accuracy_by_frequency, no bootstrap",
        lambda: word_accuracy_by_frequency(reference=refs[0], systems=systems, n_boot=0),
    )
    t_boot, _ = timed(
        "word_accuracy_by_frequency, 1000 resamples",
        lambda: word_accuracy_by_frequency(reference=refs[0], systems=systems, n_boot=1000),
    )
    same = bool(np.array_equal(words.matches, cmt))
    print(
        f"  ratio: {t_ref / t_ours:6.1f}x faster (with bootstrap {t_ref / t_boot:5.1f}x); "
        f"matches equal: {same}"
    )

    print("3. leave-one-out corpus BLEU(A) - BLEU(B), every row, 2 references:")
    bleu = BLEU(tokenize="13a")
    stats = [np.array(sacrebleu_statistics(bleu, sys_text[s], refs_text), np.int64) for s in (0, 2)]

    def reference_loo() -> list[float]:
        total = [stats[0].sum(axis=0), stats[1].sum(axis=0)]
        out = []
        for row_a, row_b in zip(stats[0].tolist(), stats[1].tolist()):
            scores = []
            for t, row in zip(total, (row_a, row_b)):
                rest = (t - np.array(row)).tolist()
                scores.append(
                    BLEU.compute_bleu(rest[2:6], rest[6:10], rest[0], rest[1], "exp").score
                )
            out.append(scores[0] - scores[1])
        return out

    t_ref, loop = timed("loop over sacreBLEU's BLEU.compute_bleu", reference_loo)
    fields = {"hyp_len": [], "ref_len": [], "matches": np.zeros((0, 4)), "totals": np.zeros((0, 4))}
    _, corpus_bleu = BleuMetric().additive(BleuSettings(), fields)
    t_ours, influence = timed(
        "difference_influence",
        lambda: difference_influence(stats_a=stats[0], stats_b=stats[1], score=corpus_bleu),
    )
    same = bool(np.array_equal(influence.difference - influence.effect, loop))
    print(f"  ratio: {t_ref / t_ours:6.1f}x faster; equal to the loop: {same}")

    print("4. bucket means + 1000-resample bootstrap, 7 length buckets x 5 systems:")
    values = np.random.default_rng(0).uniform(0, 100, size=(len(SYSTEMS), n))
    buckets = length_buckets([len(r) for r in refs[0]])

    def reference_buckets() -> None:
        rng = np.random.default_rng(0)
        for b in range(len(buckets.labels)):
            members = buckets.rows(b)
            if members.size == 0:
                continue
            for s in range(len(SYSTEMS)):
                picks = rng.integers(0, members.size, size=(1000, members.size))
                means = np.sort(values[s, members][picks].mean(axis=1))
                _ = means[25], means[975]

    t_ref, _ = timed("numpy loop: indices per bucket and system", reference_buckets)
    t_ours, _ = timed("bucket_means", lambda: bucket_means(buckets, values, n_boot=1000))
    print(f"  ratio: {t_ref / t_ours:6.1f}x faster")

    print("5. reference audit (identical lines), 2 references x 5 systems:")
    timed(
        "audit_references",
        lambda: audit_references(
            references=refs_text,
            systems=sys_text,
            reference_names=["ref", "ref2"],
            system_names=list(SYSTEMS),
        ),
    )


if __name__ == "__main__":
    main()
