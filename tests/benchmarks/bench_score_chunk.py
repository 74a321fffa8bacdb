"""CPU per (row, system) pair of the task a ``matchlight score`` worker runs
(:func:`~core.cli.streaming.score_chunk`: scores, rendered CSV rows, identical lines, language
check), in this process, over the first rows of a corpus written by ``bench_cli.py --keep``.

    python tests/benchmarks/bench_score_chunk.py /tmp/cliperf/c1000k [--rows 20000] [--reps 5]
    ... --profile     # cProfile of one pass instead (cumulative and own time)
    ... --hash        # a SHA-256 of every chunk's rows, statistics, flags and counts: run it
                      # with two checkouts' Pythons to show that a change leaves them alone

Best of ``--reps`` passes of ``time.process_time``. Not a test: nothing is asserted.
"""

from __future__ import annotations

import argparse
import cProfile
import hashlib
import pstats
import tempfile
import time
import types

from matchlight.core.cli import score
from matchlight.core.cli.streaming import Streamed, read_stream_setup, score_chunk
from matchlight.core.io.segmentrows import RowJob


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("corpus", help="a folder of bench_cli.py --keep (ref.txt, sys.*.txt)")
    parser.add_argument("--rows", type=int, default=20_000)
    parser.add_argument("--reps", type=int, default=5)
    parser.add_argument("--profile", action="store_true")
    parser.add_argument("--hash", action="store_true")
    args = parser.parse_args()
    folder = args.corpus
    systems = ["JDExploreAcademy", "LT22"]
    out = f"{tempfile.mkdtemp()}/rows.csv"  # never written: the writer is abandoned
    argv = ["--ref", f"{folder}/ref.txt", "--csv", out, "--segments", f"1-{args.rows}"]
    for name in systems:
        argv += ["--hyp", f"{folder}/sys.{name}.txt"]
    cli = score.build_parser()
    options = cli.parse_args(argv)
    setup = read_stream_setup(cli, options, [], language=True)
    writers = score._writers(options, setup, None)
    job = RowJob(
        setup.config,
        renderers=tuple(renderer for _, renderer in writers),
        count_dropped=score.counts_dropped(setup.config),
    )
    for writer, _ in writers:
        writer.abandon()
    engine = types.SimpleNamespace(workers=2, forks=True)
    tasks = list(Streamed(setup, job, engine, rows=2048, leaks=True, language=True)._tasks())
    score_chunk(*tasks[0])  # warm
    pairs = args.rows * len(systems)
    if args.profile:
        profile = cProfile.Profile()
        profile.enable()
        for task in tasks:
            score_chunk(*task)
        profile.disable()
        pstats.Stats(profile).sort_stats("cumulative").print_stats(40)
        pstats.Stats(profile).sort_stats("tottime").print_stats(30)
        return
    if args.hash:
        digest = hashlib.sha256()
        for result, counts in (score_chunk(*task) for task in tasks):
            for rows in result.rows:
                for part in rows:
                    digest.update(part)
            for array in (counts.identical, counts.wrong_language, counts.copies_source):
                digest.update(repr(None if array is None else array.tolist()).encode())
            digest.update(repr((result.dropped, result.kept)).encode())
            for stats in result.chunk.stats.values():
                for values in stats.values():
                    digest.update(values.tobytes())
            for flags in result.chunk.row_flags.values():
                digest.update(flags.tobytes())
        print(digest.hexdigest())
        return
    best = float("inf")
    for _ in range(args.reps):
        start = time.process_time()
        for task in tasks:
            score_chunk(*task)
        best = min(best, time.process_time() - start)
    per_pair = best / pairs * 1e6
    print(f"{pairs:,} pairs: {best:.3f} CPU s, {per_pair:.2f} us per pair (best of {args.reps})")


if __name__ == "__main__":
    main()
