"""Whole-process speed and memory of ``matchlight score --csv`` against sacrebleu + rouge-score
and against the Rust ports (bleuscore + rouge-score-rs) writing the same CSV, in one run.

    python tests/benchmarks/bench_cli.py [--repeat 3] [--systems 3] [--runs 5] [--workers 0]
    python tests/benchmarks/bench_cli.py --rows 1000000 --systems 2 --runs 1 --only matchlight \\
        --compare          # the 1M x 2 case: score and compare, time and peak memory
    ... --no-language-check   # matchlight score without its language check
    ... --source              # with the source (--src): the check also looks for copies
    ... --bytecode            # matchlight with its bytecode kept, as an installed package
    ... --before /work/main/.venv/bin/matchlight --corpus DIR --only matchlight
                              # another checkout's matchlight, run in turn with this one on
                              # the corpus already in DIR (the machine is shared: alternate)

The corpus is ../shared/data/wmt22-de-en: ``ref.txt`` and the first ``--systems`` system
outputs, each repeated ``--repeat`` times (default: 3 x 1,984 lines x 3 systems = 17,856 pairs),
or repeated and cut to ``--rows`` lines; it is written to a temporary folder (``--keep DIR``
keeps it; ``--corpus DIR`` reads one written before). Every command runs as its own process,
``--runs`` times, the commands in turn:

* ``matchlight``: ``matchlight score --ref R --hyp H... --csv OUT`` (the console script next to
  this Python);
* ``before``: the same command with another checkout's console script (``--before``), its CSV
  compared with this one's byte for byte after the runs;
* ``reference``: this script's ``--baseline reference``: ``sacrebleu.sentence_bleu`` and
  ``rouge_score.RougeScorer(["rouge1", "rouge2", "rougeL", "rougeLsum"]).score`` per pair, the
  rows written with the csv module;
* ``rust``: ``--baseline rust``: ``bleuscore.compute`` per pair (sacreBLEU's reference length,
  add-one smoothing) and ``rouge_score_rs.RougeScorer.score_batch`` (native, every core) per
  system; skipped when the ports are not installed (``pip install bleuscore rouge-score-rs``,
  never a dependency of Matchlight).

All three write one row per system and segment: system, segment, sentence BLEU, ROUGE-1/2/L/Lsum
precision, recall and F, the token counts. For each command it prints the median and best wall
seconds, the CPU seconds of the process and its children, and the peak memory: the largest
single process (``ru_maxrss``, what ``/usr/bin/time`` reports) and the peak of the whole
process tree's proportional set size (PSS, sampled every :data:`PSS_INTERVAL` from /proc: worker
processes counted, shared pages not twice; the sampling's own CPU is printed beside it). Ratios
are median wall times within this run. Not a test: nothing is asserted.
"""

from __future__ import annotations

import argparse
import csv
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.benchmarks.benchkit import DE_EN, read_lines  # noqa: E402

ROUGE_TYPES = ("rouge1", "rouge2", "rougeL", "rougeLsum")
HEADER = [
    "system",
    "segment",
    "bleu",
    *(f"{t}_{x}" for t in ROUGE_TYPES for x in "prf"),
    "hyp_len",
    "ref_len",
]


# -- the baselines, run as their own process by this script ---------------------------------------


def _read(path: str) -> list[str]:
    with open(path, encoding="utf-8") as handle:
        lines = handle.read().split("\n")
    if lines and not lines[-1]:
        lines.pop()
    return lines


def run_reference(ref: str, hyps: list[str], out: str) -> None:
    import sacrebleu
    from rouge_score import rouge_scorer

    refs = _read(ref)
    scorer = rouge_scorer.RougeScorer(list(ROUGE_TYPES))
    with open(out, "w", encoding="utf-8", newline="") as handle:
        writer = csv.writer(handle, lineterminator="\n")
        writer.writerow(HEADER)
        for path in hyps:
            name = Path(path).stem.removeprefix("sys.")
            for i, (hyp, reference) in enumerate(zip(_read(path), refs, strict=True), start=1):
                bleu = sacrebleu.sentence_bleu(hyp, [reference])
                rouge = scorer.score(reference, hyp)
                cells = [100 * x for t in ROUGE_TYPES for x in rouge[t]]
                writer.writerow([name, i, bleu.score, *cells, bleu.sys_len, bleu.ref_len])


def run_rust(ref: str, hyps: list[str], out: str) -> None:
    import bleuscore
    import rouge_score_rs

    refs = _read(ref)
    scorer = rouge_score_rs.RougeScorer(list(ROUGE_TYPES))
    with open(out, "w", encoding="utf-8", newline="") as handle:
        writer = csv.writer(handle, lineterminator="\n")
        writer.writerow(HEADER)
        for path in hyps:
            name = Path(path).stem.removeprefix("sys.")
            outputs = _read(path)
            rouge = scorer.score_batch(refs, outputs)
            for i, (hyp, reference, found) in enumerate(
                zip(outputs, refs, rouge, strict=True), start=1
            ):
                bleu = bleuscore.compute(
                    [[reference]], [hyp], smooth=True, ref_len_method="sacrebleu"
                )
                cells = [100 * x for t in ROUGE_TYPES for x in found[t]]
                writer.writerow(
                    [
                        name,
                        i,
                        100 * bleu["bleu"],
                        *cells,
                        bleu["translation_length"],
                        bleu["reference_length"],
                    ]
                )


# -- measuring a process ------------------------------------------------------------------------


def _tree(pid: int) -> list[int]:
    """``pid`` and every process below it."""
    found = [pid]
    for at in found:
        for task in Path(f"/proc/{at}/task").glob("*"):
            try:
                found += [int(c) for c in (task / "children").read_text().split()]
            except OSError:
                continue
    return found


def _pss_kb(pid: int) -> int:
    try:
        for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
            if line.startswith("Pss:"):
                return int(line.split()[1])
    except (OSError, ValueError):
        return 0
    return 0


#: Seconds between two samples of the tree's PSS. Reading ``smaps_rollup`` walks every page of
#: a process: about 13 ms of CPU for the tree of a streamed run (some 350 MB), so sampling every
#: 20 ms took about 40 % of one of the two cores from the command being measured (on an idle
#: machine). The streamed commands' memory changes over seconds, not milliseconds.
PSS_INTERVAL = 0.25


def run_measured(command: list[str], env: dict[str, str] | None = None) -> dict[str, float]:
    """Run ``command`` (in ``env``, None: this one's); its wall seconds, CPU seconds (with its
    children), peak RSS of one process, the peak PSS of its process tree, in MB, and the CPU
    seconds the sampling of that PSS took (on the same cores, so the smaller the better)."""
    peak = [0]
    sampling = [0.0]
    done = threading.Event()
    start = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)

    def sample() -> None:
        while not done.is_set():
            peak[0] = max(peak[0], sum(_pss_kb(p) for p in _tree(process.pid)))
            sampling[0] = time.thread_time()
            done.wait(PSS_INTERVAL)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    _, status, usage = os.wait4(process.pid, 0)
    wall = time.perf_counter() - start
    done.set()
    sampler.join()
    error = process.stderr.read().decode() if process.stderr else ""
    if status:
        raise SystemExit(f"{' '.join(command)} failed:\n{error}")
    return {
        "wall": wall,
        "cpu": usage.ru_utime + usage.ru_stime,
        "rss": usage.ru_maxrss / 1024,
        "pss": peak[0] / 1024,
        "sampling": sampling[0],
    }


# -- the corpus -----------------------------------------------------------------------------------


def make_corpus(
    folder: Path, *, systems: int, repeat: int, rows: int | None
) -> tuple[str, list[str], str]:
    """``ref.txt``, ``systems`` outputs and ``src.txt`` of wmt22-de-en in ``folder``,
    repeated."""
    sources = [DE_EN / "ref.txt", *sorted(DE_EN.glob("sys.*.txt"))[:systems], DE_EN / "src.txt"]
    paths = []
    for source in sources:
        lines = read_lines(source)
        count = rows if rows is not None else repeat * len(lines)
        body = (lines * (count // len(lines) + 1))[:count]
        target = folder / source.name
        target.write_text("\n".join(body) + "\n", encoding="utf-8")
        paths.append(str(target))
    return paths[0], paths[1:-1], paths[-1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=3, help="times each file is repeated")
    parser.add_argument("--rows", type=int, help="lines per file (instead of --repeat)")
    parser.add_argument("--systems", type=int, default=3, help="system outputs scored")
    parser.add_argument("--runs", type=int, default=5, help="runs of each command")
    parser.add_argument("--workers", default="0", help="matchlight's --workers")
    parser.add_argument("--only", choices=["matchlight", "reference", "rust"], action="append")
    parser.add_argument("--compare", action="store_true", help="also time matchlight compare")
    parser.add_argument("--engine", default="local", help="matchlight's --engine")
    parser.add_argument("--keep", metavar="DIR", help="write the corpus and CSVs here, and keep")
    parser.add_argument(
        "--corpus", metavar="DIR", help="the corpus already written to DIR (by --keep DIR)"
    )
    parser.add_argument(
        "--before", metavar="SCRIPT", help="another checkout's matchlight, run in turn with this"
    )
    parser.add_argument(
        "--no-language-check",
        action="store_true",
        help="pass --no-language-check to matchlight score (the check runs by default)",
    )
    parser.add_argument(
        "--source",
        action="store_true",
        help="give matchlight the source too (--src): the language check also looks for copies",
    )
    parser.add_argument(
        "--bytecode",
        action="store_true",
        help="run matchlight (and --before) with their modules' bytecode kept, as an installed "
        "package has it (under PYTHONDONTWRITEBYTECODE an editable checkout compiles its "
        "modules on every run); one untimed run of each first",
    )
    parser.add_argument("--baseline", choices=["reference", "rust"], help=argparse.SUPPRESS)
    parser.add_argument("--ref", help=argparse.SUPPRESS)
    parser.add_argument("--hyp", action="append", help=argparse.SUPPRESS)
    parser.add_argument("--csv", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.baseline:
        (run_reference if args.baseline == "reference" else run_rust)(args.ref, args.hyp, args.csv)
        return

    kept = args.keep or args.corpus
    folder = Path(kept) if kept else Path(tempfile.mkdtemp(prefix="bench-cli-"))
    folder.mkdir(parents=True, exist_ok=True)
    try:
        if args.corpus:
            ref, src = str(folder / "ref.txt"), str(folder / "src.txt")
            hyps = [str(p) for p in sorted(folder.glob("sys.*.txt"))[: args.systems]]
        else:
            ref, hyps, src = make_corpus(
                folder, systems=args.systems, repeat=args.repeat, rows=args.rows
            )
        pairs = len(read_lines(ref)) * len(hyps)
        size = sum(os.path.getsize(p) for p in (ref, *hyps)) / 2**20
        script = Path(sys.executable).with_name("matchlight")
        inputs = ["--ref", ref, *(a for h in hyps for a in ("--hyp", h))]
        if args.source:
            inputs += ["--src", src]
        checks = ["--no-language-check"] if args.no_language_check else []

        def score(script: str, name: str) -> list[str]:
            return [
                script, "score", *inputs, "--csv", str(folder / f"{name}.csv"), "-q",
                "--workers", args.workers, "--engine", args.engine, *checks,
            ]  # fmt: skip

        commands = {
            "matchlight": score(str(script), "matchlight"),
            "reference": [
                sys.executable, __file__, "--baseline", "reference", "--ref", ref,
                *(a for h in hyps for a in ("--hyp", h)), "--csv", str(folder / "reference.csv"),
            ],
            "rust": [
                sys.executable, __file__, "--baseline", "rust", "--ref", ref,
                *(a for h in hyps for a in ("--hyp", h)), "--csv", str(folder / "rust.csv"),
            ],
        }  # fmt: skip
        if args.before:
            commands["before"] = score(args.before, "before")
        if args.compare:
            commands["compare"] = [
                str(script), "compare", *inputs, "-q", "--workers", args.workers,
                "--engine", args.engine,
            ]  # fmt: skip
        wanted = args.only or ["matchlight", "reference", "rust"]
        if args.compare and "compare" not in wanted:
            wanted.append("compare")
        if args.before:
            wanted.insert(0, "before")
        if "rust" in wanted:
            try:
                import bleuscore  # noqa: F401
                import rouge_score_rs  # noqa: F401
            except ImportError:
                print("rust: bleuscore / rouge-score-rs are not installed; skipped")
                wanted.remove("rust")
        print(
            f"{pairs:,} pairs ({len(hyps)} systems x {pairs // len(hyps):,} lines, {size:.0f} MB), "
            f"{args.runs} runs each, {os.cpu_count()} CPUs, load {os.getloadavg()[0]:.1f}"
        )
        results: dict[str, list[dict[str, float]]] = {name: [] for name in wanted}
        envs: dict[str, dict[str, str] | None] = dict.fromkeys(wanted)
        if args.bytecode:
            kept = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
            kept["PYTHONPYCACHEPREFIX"] = str(folder / "bytecode")
            for name in ("matchlight", "before", "compare"):
                if name in wanted:
                    envs[name] = kept
                    run_measured(commands[name], kept)  # compiles once, not timed
        for _ in range(args.runs):
            for name in wanted:
                results[name].append(run_measured(commands[name], envs[name]))
        medians = {}
        for name, runs in results.items():
            walls = [r["wall"] for r in runs]
            medians[name] = statistics.median(walls)
            print(
                f"  {name:<11} wall median {medians[name]:7.2f} s, best {min(walls):7.2f} s;"
                f" CPU {statistics.median(r['cpu'] for r in runs):7.2f} s;"
                f" {pairs / medians[name]:9,.0f} pairs/s;"
                f" peak: one process {max(r['rss'] for r in runs):6.0f} MB,"
                f" tree PSS {max(r['pss'] for r in runs):6.0f} MB"
                f" (sampling it: {max(r['sampling'] for r in runs):.2f} CPU s)"
            )
        if "before" in medians and "matchlight" in medians:
            same = (folder / "before.csv").read_bytes() == (folder / "matchlight.csv").read_bytes()
            print(f"  the CSVs of before and matchlight are {'the same' if same else 'DIFFERENT'}")
        if "matchlight" in medians:
            for name in ("before", "reference", "rust"):
                if name in medians:
                    print(
                        f"  matchlight is {medians[name] / medians['matchlight']:.2f}x {name} "
                        "(median wall time)"
                    )
    finally:
        if not kept:
            shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
