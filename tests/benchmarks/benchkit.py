"""What the benchmark scripts share: where the data is, reading it, and timing a call.

A script puts the checkout on ``sys.path`` first (it runs as ``python tests/benchmarks/...``),
then imports from here. Timings report wall-clock and CPU seconds: the machine is shared, and
other processes slow the wall clock far more than this process's CPU time.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from tests.kit import read_lines

__all__ = ["DATA", "DE_EN", "ROOT", "best_of", "measure", "read_lines"]

T = TypeVar("T")

#: The checkout, the team's real datasets (read in place) and the one most benchmarks use.
ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT.parent / "shared" / "data"
DE_EN = DATA / "wmt22-de-en"


def measure(func: Callable[[], T]) -> tuple[float, float, T]:
    """Run ``func`` once: its wall-clock seconds, its CPU seconds (this process) and result."""
    wall, cpu = time.perf_counter(), time.process_time()
    result = func()
    return time.perf_counter() - wall, time.process_time() - cpu, result


def best_of(repeat: int, func: Callable[[], T]) -> tuple[float, float, T]:
    """The best wall-clock and CPU seconds of ``repeat`` runs of ``func``, and its last result."""
    best_wall, best_cpu = float("inf"), float("inf")
    for _ in range(repeat):
        wall, cpu, result = measure(func)
        best_wall, best_cpu = min(best_wall, wall), min(best_cpu, cpu)
    return best_wall, best_cpu, result
