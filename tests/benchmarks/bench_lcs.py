"""LCS time and memory on very long lines, and time on the usual short ones.

    python tests/benchmarks/bench_lcs.py [--baseline PATH] [--repeat 3] [--short-pairs 20000]

Long lines, each case and operation in a fresh subprocess. "peak" is the peak RSS
(``ru_maxrss``) above the RSS once the inputs are built; "cpu" is the best CPU time of
``--repeat`` runs (the machine may be shared, so CPU time rather than wall time):

  distinct-200k  two shuffles of the same 200,000 distinct tokens (about 1.4 MB of text a line)
  text-20k       20,000 rouge-score tokens a side: CNN/DM references against pointer-gen outputs,
                 each file's lines joined (real text, read from ../shared/data)
  text-60k       the same with 60,000 tokens a side

The operations are the length (``PreparedSequence.lcs_length``, what scoring uses) and the
alignment (``PreparedSequence.lcs_pairs``, rouge-score's LCS, what highlights and ROUGE-Lsum use).

Short lines: every dataset's (output, reference) pairs with rouge-score's tokenizer, timed in this
process against rouge-score in the same run: the length (preparing the reference each time, as
the scorer does), the detail path's ``lcs_pairs_from_masks`` (masks made beforehand), and
ROUGE-Lsum's ``lcs_index_mask`` on CNN/DM sentence pairs. Results are checked equal to
rouge-score's.

``--baseline PATH`` also runs everything with another copy of ``core/metrics/lcs.py`` (for
example ``git show <commit>:core/metrics/lcs.py > /tmp/lcs_old.py``) and prints new / old.
Not a test: timings are never asserted.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import random
import resource
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))


from tests.benchmarks.benchkit import DATA, best_of, read_lines  # noqa: E402
from tests.refs import rouge_lcs_ind, rouge_lcs_table, rouge_tokens  # noqa: E402

CNNDM = DATA / "cnndm-pointer-gen"

LONG_CASES = ("distinct-200k", "text-20k", "text-60k")
OPERATIONS = ("length", "alignment")


def load(impl: str) -> ModuleType:
    """The LCS module under test: ``current`` (the installed one) or a file path."""
    if impl == "current":
        from matchlight.core.metrics import lcs

        return lcs
    spec = importlib.util.spec_from_file_location("lcs_under_test", impl)
    if spec is None or spec.loader is None:
        sys.exit(f"cannot load {impl}")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def long_inputs(case: str) -> tuple[list[str], list[str]]:
    if case == "distinct-200k":
        rng = random.Random(20_000)
        ref = [f"w{i}" for i in range(200_000)]
        hyp = ref[:]
        rng.shuffle(ref)
        rng.shuffle(hyp)
        return ref, hyp
    size = {"text-20k": 20_000, "text-60k": 60_000}[case]
    ref = rouge_tokens(" ".join(read_lines(CNNDM / "ref.txt")))
    hyp = rouge_tokens(" ".join(read_lines(CNNDM / "sys.pointer-gen.txt")))
    # Cycle the files if a case asks for more tokens than they hold.
    return (ref * (size // len(ref) + 1))[:size], (hyp * (size // len(hyp) + 1))[:size]


def child(case: str, operation: str, impl: str, repeat: int) -> None:
    """One long case in this (fresh) process: print time, peak memory and the result."""
    lcs = load(impl)
    ref, hyp = long_inputs(case)
    base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    best_cpu = best_wall = float("inf")
    result: Any = None
    for _ in range(repeat):
        cpu, wall = time.process_time(), time.perf_counter()
        prepared = lcs.PreparedSequence(ref)
        if operation == "length":
            result = prepared.lcs_length(hyp)
        else:
            pairs = prepared.lcs_pairs(hyp)
            result = [len(pairs), hash(tuple(pairs))]
        best_cpu = min(best_cpu, time.process_time() - cpu)
        best_wall = min(best_wall, time.perf_counter() - wall)
        del prepared
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print(
        json.dumps(
            {"cpu": best_cpu, "wall": best_wall, "peak_mb": (peak - base) / 1024, "result": result}
        )
    )


def run_child(
    case: str, operation: str, impl: str, repeat: int, memory_gb: float
) -> dict[str, Any]:
    limit = int(memory_gb * 2**30)
    command = [sys.executable, __file__, "--child", case, operation, impl, "--repeat", str(repeat)]

    def cap() -> None:  # keep a runaway implementation from taking the shared machine down
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))

    done = subprocess.run(
        command, capture_output=True, text=True, check=False, preexec_fn=cap, cwd=ROOT
    )
    if done.returncode:
        last = (done.stderr.strip().splitlines() or ["?"])[-1]
        return {"error": f"exit {done.returncode}: {last[:80]}"}
    return dict(json.loads(done.stdout.strip().splitlines()[-1]))


def show_long(label: str, got: dict[str, Any]) -> None:
    if "error" in got:
        print(f"  {label:<36} {got['error']}")
    else:
        print(
            f"  {label:<36} cpu {got['cpu']:8.3f} s  wall {got['wall']:8.3f} s  "
            f"peak +{got['peak_mb']:8.1f} MB"
        )


def best_cpu(repeat: int, func: Callable[[], object]) -> float:
    """The best CPU seconds of ``repeat`` runs."""
    return best_of(repeat, func)[1]


def short_pairs(limit: int) -> list[tuple[list[str], list[str]]]:
    """(reference, output) token lists from every dataset, every system, against ref.txt."""
    pairs: list[tuple[list[str], list[str]]] = []
    for folder in sorted(p for p in DATA.iterdir() if p.is_dir()):
        ref_file = folder / "ref.txt"
        if not ref_file.exists():
            continue
        refs = read_lines(ref_file)
        for sys_file in sorted(folder.glob("sys.*.txt")):
            pairs += [
                (rouge_tokens(r), rouge_tokens(h)) for h, r in zip(read_lines(sys_file), refs)
            ]
    random.Random(0).shuffle(pairs)
    return [(r, h) for r, h in pairs if r and h][:limit]


def sentence_pairs() -> list[tuple[list[list[str]], list[list[str]]]]:
    """(reference sentences, output sentences) of every CNN/DM document and system."""
    folder = CNNDM / "sent_marked"
    refs = read_lines(folder / "ref.txt")
    docs = []
    for sys_file in sorted(folder.glob("sys.*.txt")):
        for hyp, ref in zip(read_lines(sys_file), refs):
            ref_sents = [s for s in map(rouge_tokens, ref.split(" <n> ")) if s]
            hyp_sents = [s for s in map(rouge_tokens, hyp.split(" <n> ")) if s]
            docs.append((ref_sents, hyp_sents))
    return docs


def short_lines(impls: dict[str, ModuleType], limit: int, repeat: int, short_repeat: int) -> None:
    pairs = short_pairs(limit)
    docs = sentence_pairs()
    n_sentence_pairs = sum(len(r) * len(h) for r, h in docs)
    tokens = sum(len(r) + len(h) for r, h in pairs)
    print(
        f"\nShort lines: {len(pairs)} pairs ({tokens / len(pairs) / 2:.0f} tokens a line on "
        f"average), {n_sentence_pairs} CNN/DM sentence pairs; best CPU of {short_repeat} "
        f"({repeat} for rouge-score)"
    )
    expected_len = [rouge_lcs_table(r, h)[-1][-1] for r, h in pairs]
    expected_ind = [rouge_lcs_ind(r, h) for r, h in pairs]
    expected_sent = [[rouge_lcs_ind(rs, hs) for rs in refs for hs in hyps] for refs, hyps in docs]
    reference = {
        "length": best_cpu(repeat, lambda: [rouge_lcs_table(r, h) for r, h in pairs]),
        "detail pairs": best_cpu(repeat, lambda: [rouge_lcs_ind(r, h) for r, h in pairs]),
        "Lsum index masks": best_cpu(
            repeat,
            lambda: [rouge_lcs_ind(rs, hs) for refs, hyps in docs for rs in refs for hs in hyps],
        ),
    }
    work: dict[str, dict[str, Callable[[], object]]] = {}
    for name, lcs in impls.items():
        prepared = [lcs.PreparedSequence(r) for r, _ in pairs]
        masks = [p.token_masks(h) for p, (_, h) in zip(prepared, pairs)]
        sentences = [([lcs.PreparedSequence(s) for s in refs], hyps) for refs, hyps in docs]
        lengths = [lcs.PreparedSequence(r).lcs_length(h) for r, h in pairs]
        detail = [p.lcs_pairs_from_masks(m) for p, m in zip(prepared, masks)]
        union = [[p.lcs_index_mask(hs) for p in refs for hs in hyps] for refs, hyps in sentences]
        got_sentences = [
            [
                [i for i in range(len(p)) if mask >> i & 1]
                for p, mask in zip([p for p in refs for _ in hyps], doc, strict=True)
            ]
            for (refs, hyps), doc in zip(sentences, union, strict=True)
        ]
        same = (
            lengths == expected_len
            and [[j for _, j in d] for d in detail] == expected_ind
            and got_sentences == expected_sent
        )
        print(f"  {name}: results equal rouge-score's: {same}")
        work[name] = {
            "length": lambda lcs=lcs: [lcs.PreparedSequence(r).lcs_length(h) for r, h in pairs],
            "detail pairs": lambda prepared=prepared, masks=masks: [
                p.lcs_pairs_from_masks(m) for p, m in zip(prepared, masks)
            ],
            "Lsum index masks": lambda sentences=sentences: [
                p.lcs_index_mask(hs) for refs, hyps in sentences for p in refs for hs in hyps
            ],
        }
    # Implementations take turns, so a change in the machine's load hits them alike.
    timings = {name: dict.fromkeys(reference, float("inf")) for name in impls}
    for _ in range(short_repeat):
        for name, ops in work.items():
            for op, func in ops.items():
                timings[name][op] = min(timings[name][op], best_cpu(1, func))
    for op, ref_time in reference.items():
        line = f"  {op:<18} rouge-score {ref_time:7.3f} s"
        for name, got in timings.items():
            line += f" | {name} {got[op]:7.3f} s ({ref_time / got[op]:5.1f}x faster)"
        if len(timings) == 2:
            new, old = (got[op] for got in timings.values())
            line += f" | new/old {new / old:5.2f}"
        print(line)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", help="another lcs.py to compare with")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--short-pairs", type=int, default=20_000)
    parser.add_argument("--short-repeat", type=int, default=15)
    parser.add_argument("--cases", nargs="*", default=list(LONG_CASES), choices=LONG_CASES)
    parser.add_argument("--memory-gb", type=float, default=12.0, help="address-space cap a case")
    parser.add_argument("--child", nargs=3, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(*args.child, args.repeat)
        return

    impls = {"new": "current"}
    if args.baseline:
        impls["old"] = args.baseline
    print(f"Long lines: best CPU of {args.repeat} (1 for the baseline), peak RSS above inputs")
    for case in args.cases:
        for op in OPERATIONS:
            results = {}
            for name, impl in impls.items():
                repeat = args.repeat if name == "new" else 1
                results[name] = run_child(case, op, impl, repeat, args.memory_gb)
                show_long(f"{case} {op} ({name})", results[name])
            new, old = results["new"], results.get("old")
            if old and "error" not in old and "error" not in new:
                same = "same result" if old["result"] == new["result"] else "RESULTS DIFFER"
                print(
                    f"  {'':<36} new/old cpu {new['cpu'] / old['cpu']:.3f}, "
                    f"peak {new['peak_mb'] / max(old['peak_mb'], 0.1):.3f}; {same}"
                )
    short_lines(
        {name: load(impl) for name, impl in impls.items()},
        args.short_pairs,
        args.repeat,
        args.short_repeat,
    )


if __name__ == "__main__":
    main()
