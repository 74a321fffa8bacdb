"""How long an edit of a session waits while the flusher puts a large import on the disk.

    python tests/benchmarks/bench_session_flush.py [--spans 100000] [--trials 4] [--every 0.05]

Each trial creates a session, adds ``--spans`` spans in one transaction (an import: a log of
tens of megabytes), then edits it every ``--every`` seconds for 2.5 s, one span an edit, while
the flusher (core/session/flusher.py) moves that log into the file. It prints each trial's
worst edit and the median, in milliseconds. Not a test: nothing is asserted (the machine is
shared; the disk's time varies).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.core.session.test_ownership import make, span  # noqa: E402


def trial(spans: int, every: float) -> list[float]:
    with tempfile.TemporaryDirectory() as folder:
        store = make(Path(folder))
        try:
            store.add_many([span(n, note="x" * 400) for n in range(spans)])
            waits: list[float] = []
            end = time.perf_counter() + 2.5
            while time.perf_counter() < end:
                start = time.perf_counter()
                store.add_span(span(spans + len(waits)))
                waits.append((time.perf_counter() - start) * 1000)
                time.sleep(every)
        finally:
            store.close()
    return waits


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--spans", type=int, default=100_000)
    parser.add_argument("--trials", type=int, default=4)
    parser.add_argument("--every", type=float, default=0.05)
    args = parser.parse_args()
    for n in range(args.trials):
        waits = trial(args.spans, args.every)
        print(
            f"trial {n + 1}: {len(waits)} edits after {args.spans:,} spans, worst "
            f"{max(waits):.1f} ms, median {statistics.median(waits):.1f} ms"
        )


if __name__ == "__main__":
    main()
