"""Speed of Matchlight's paired significance tests against sacreBLEU's, measured in one run.

    python tests/benchmarks/bench_significance.py [--rows 100000] [--ref-rows 10000]
                                                  [--systems 3] [--repeat 3]

Statistics: our engine's per-segment BLEU statistics of wmt22-de-en (1,984 rows, 2 references,
5 systems), repeated to the number of rows wanted; no text is scored in any timing. Everything
runs on one core (the module keeps its matrix products on the calling thread; BLAS is limited
to one thread here as well). Times (best of --repeat, wall clock and CPU):
  1. Matchlight at --rows rows, --systems systems: paired bootstrap (1,000 resamples), paired
     approximate randomization (10,000 trials), and the same 10,000 trials with 1,000 bootstrap
     resamples for confidence intervals; then the pairwise matrix of 5 systems; and the peak
     memory of each (tracemalloc) next to the size of the index matrix sacreBLEU materialises;
  2. sacreBLEU's PairedTest at --ref-rows rows (its metric is handed the same statistics, so it
     scores no text either) and Matchlight on the same rows, with the ratios and a check that
     every p-value is equal.
Not a test: timings are never asserted.
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("MKL_NUM_THREADS", "1")

import argparse
import sys
import tracemalloc
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402
from sacrebleu.significance import PairedTest  # noqa: E402

from matchlight.core.analysis.significance import (  # noqa: E402
    ScoreFunction,
    SignificanceResult,
    paired_approximate_randomization,
    paired_bootstrap,
    pairwise_significance,
    table_statistics,
)
from matchlight.core.scoring.config import ScoringConfig  # noqa: E402
from matchlight.core.scoring.engine import score_corpus  # noqa: E402
from matchlight.core.text.corpus import corpus_text_from_lines  # noqa: E402
from tests.benchmarks.benchkit import DE_EN, best_of, read_lines  # noqa: E402
from tests.refs import PrecomputedBLEU, sacrebleu_seed  # noqa: E402

DATA = DE_EN
SEED = 12345


def real_stats() -> tuple[list[str], np.ndarray[Any, Any], ScoreFunction]:
    """Our engine's BLEU statistics of every wmt22-de-en system, ``(S, n, 10)``, and corpus
    BLEU of their sums."""
    refs = [read_lines(DATA / "ref.txt"), read_lines(DATA / "ref2.txt")]
    files = sorted(DATA.glob("sys.*.txt"))
    names = [f.name.removeprefix("sys.").removesuffix(".txt") for f in files]
    text = corpus_text_from_lines(
        references=refs, systems=[read_lines(f) for f in files], names=names
    )
    stats, score = table_statistics(score_corpus(text, ScoringConfig()), "bleu")
    return names, np.stack(stats), score


def repeated(stats: np.ndarray[Any, Any], rows: int) -> np.ndarray[Any, Any]:
    """The segments repeated (in order) to ``rows`` rows."""
    take = np.arange(rows) % stats.shape[1]
    return np.ascontiguousarray(stats[:, take])


def peak_memory(func: Callable[[], object]) -> float:
    """Peak traced allocation of ``func`` in MB (numpy reports its buffers to tracemalloc)."""
    tracemalloc.start()
    try:
        func()
        return tracemalloc.get_traced_memory()[1] / 1e6
    finally:
        tracemalloc.stop()


def sacrebleu_run(stats: np.ndarray[Any, Any], names: Sequence[str], test: str) -> list[Any]:
    n = stats.shape[1]
    table = {(s, r): stats[s, r].tolist() for s in range(len(names)) for r in range(n)}
    systems = [(name, [(s, r) for r in range(n)]) for s, name in enumerate(names)]
    with sacrebleu_seed(SEED):
        metric = PrecomputedBLEU(table, num_refs=2)
        paired = PairedTest(systems, {"bleu": metric}, None, test_type=test)
        _, scores = paired()
    return list(scores["BLEU"])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=100_000)
    parser.add_argument("--ref-rows", type=int, default=10_000)
    parser.add_argument("--systems", type=int, default=3)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    if not DATA.is_dir():
        sys.exit(f"no data under {DATA}")

    all_names, base, score = real_stats()
    names = all_names[: args.systems]
    print(f"BLEU statistics of {DATA.name}: {base.shape[1]} rows, {len(all_names)} systems")

    big = repeated(base[: args.systems], args.rows)
    everyone = repeated(base, args.rows)
    runs: list[tuple[str, Callable[[], object], int]] = [
        (
            "paired bootstrap, 1,000 resamples",
            lambda: paired_bootstrap(list(big), score, names=names),
            1000,
        ),
        (
            "approximate randomization, 10,000 trials",
            lambda: paired_approximate_randomization(list(big), score, names=names),
            10000,
        ),
        (
            "AR 10,000 trials + 1,000 resamples for CIs",
            lambda: paired_approximate_randomization(
                list(big), score, names=names, confidence_samples=1000
            ),
            1000,
        ),
        (
            f"pairwise bootstrap, {len(all_names)} systems",
            lambda: pairwise_significance(list(everyone), score, names=all_names, test="bs"),
            1000,
        ),
        (
            f"pairwise AR, {len(all_names)} systems",
            lambda: pairwise_significance(list(everyone), score, names=all_names, test="ar"),
            10000,
        ),
    ]
    print(f"Matchlight, {args.rows} rows, {len(names)} systems unless said (one core):")
    for label, func, samples in runs:
        wall, cpu, _ = best_of(args.repeat, func)
        peak = peak_memory(func)
        # sacreBLEU materialises float32 stats[idxs] (bootstrap) or a boolean matrix (AR).
        bytes_per = 4 * base.shape[2] if "bootstrap" in label or "CIs" in label else 1
        full = samples * args.rows * bytes_per / 1e6
        print(
            f"  {label:<44} {wall:6.2f} s (cpu {cpu:5.2f} s)  peak {peak:6.1f} MB "
            f"(sacreBLEU's index matrix alone: {full:,.0f} MB)"
        )

    small = repeated(base[: args.systems], args.ref_rows)
    print(f"sacreBLEU PairedTest vs Matchlight, {args.ref_rows} rows, {len(names)} systems:")
    for test, ours_func in (
        ("bs", lambda: paired_bootstrap(list(small), score, names=names)),
        ("ar", lambda: paired_approximate_randomization(list(small), score, names=names)),
    ):
        _, t_ref, theirs = best_of(1, lambda test=test: sacrebleu_run(small, names, test))
        _, t_ours, ours = best_of(args.repeat, ours_func)
        assert isinstance(ours, SignificanceResult) and isinstance(theirs, list)
        same = [r.p_value for r in theirs] == [s.p_value for s in ours.systems]
        label = "paired bootstrap" if test == "bs" else "approximate randomization"
        print(
            f"  {label:<26} cpu: sacreBLEU {t_ref:7.2f} s   Matchlight {t_ours:6.3f} s   "
            f"{t_ref / t_ours:7.1f}x faster   p-values equal: {same}"
        )


if __name__ == "__main__":
    main()
