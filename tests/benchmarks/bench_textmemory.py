"""Memory and speed of a big comparison's texts and text search, in core alone (no Qt).

    python tests/benchmarks/bench_textmemory.py [--rows 1000000] [--systems 3] [--keep DIR]
        [--distinct]

Writes the files bench_gui.py writes (source, two references, --systems outputs of WMT22 de-en,
rows repeated, or with --distinct each repeat's words shuffled; into a folder in DIR with --keep,
reused there if present), then, as the app does: reads them with core's loader, builds the
ComparisonSession (its search columns), prepares every search column (the app's warm-up),
filters by text ('the', 'zebra', a regex, each twice: the first builds what it needs), builds
every column's n-gram index (the warm-up's next step: CPU and peak extra memory per column, by
tracemalloc), filters again with it (unless --no-index) and sorts by a text column. After each
step it prints the process's resident memory (from /proc) and what each structure holds
(sys.getsizeof summed over its objects; strings the loader shares are counted once, where they
are read). Times are wall and
CPU seconds of this process.
"""

from __future__ import annotations

import argparse
import gc
import random
import sys
import tempfile
import time
import tracemalloc
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402

from matchlight.core.analysis.selection import Selection, Sort, TextFilter  # noqa: E402
from matchlight.core.io.inputs import parse_spec  # noqa: E402
from matchlight.core.io.reading import load_comparison  # noqa: E402
from matchlight.core.session.comparison import ComparisonSession  # noqa: E402
from tests.benchmarks.benchkit import DE_EN, measure, read_lines  # noqa: E402


def rss_mb() -> float:
    """The resident memory of this process now (VmRSS), and its peak (VmHWM), in MB."""
    fields = dict(line.split(":", 1) for line in Path("/proc/self/status").read_text().splitlines())
    return int(fields["VmRSS"].split()[0]) / 1024


def peak_mb() -> float:
    fields = dict(line.split(":", 1) for line in Path("/proc/self/status").read_text().splitlines())
    return int(fields["VmHWM"].split()[0]) / 1024


def write_corpus(
    folder: Path, rows: int, systems: int, distinct: bool = False
) -> dict[str, list[Path]]:
    """The files of bench_gui.py's write_corpus (without its hostile long rows); ``distinct``:
    each repeat of a line has its words shuffled (seeded), so that rows seldom repeat."""

    def repeat(lines: list[str]) -> str:
        out = (lines * (rows // len(lines) + 1))[:rows]
        if distinct:
            shuffle = random.Random(len(lines)).shuffle
            for i in range(len(lines), rows):
                words = out[i].split(" ")
                shuffle(words)
                out[i] = " ".join(words)
        return "\n".join(out) + "\n"

    out: dict[str, list[Path]] = {"src": [], "ref": [], "sys": []}
    names = {"src": ["src.txt"], "ref": ["ref.txt", "ref2.txt"]}
    names["sys"] = [p.name for p in sorted(DE_EN.glob("sys.*.txt"))[:systems]]
    for role, files in names.items():
        for name in files:
            path = folder / name
            if not path.exists():
                path.write_text(repeat(read_lines(DE_EN / name)), encoding="utf-8")
            out[role].append(path)
    return out


def size_of(objects: Iterable[Any], seen: set[int]) -> int:
    """sys.getsizeof summed over ``objects`` not in ``seen`` (which it fills)."""
    total = 0
    for obj in objects:
        if id(obj) not in seen:
            seen.add(id(obj))
            total += sys.getsizeof(obj)
    return total


def column_sizes(session: ComparisonSession, seen: set[int]) -> dict[str, int]:
    """Bytes per part of the search columns, each object counted once (see :func:`size_of`)."""
    sizes: dict[str, int] = {}
    for column in session.search_columns.values():
        for slot in type(column).__slots__:
            value = getattr(column, slot, None)
            if value is None:
                continue
            key = f"search.{slot}"
            if isinstance(value, tuple | list) and value and isinstance(value[0], str):
                part = size_of([value], seen) + size_of(value, seen)
            else:
                part = deep_size(value, seen)
            sizes[key] = sizes.get(key, 0) + part
    return sizes


def deep_size(value: Any, seen: set[int]) -> int:
    """getsizeof of ``value`` and of what it holds (dataclass fields, arrays, tuples)."""
    if id(value) in seen:
        return 0
    seen.add(id(value))
    total = sys.getsizeof(value)
    if isinstance(value, np.ndarray):
        return total if value.base is None else total + value.nbytes
    slots = getattr(type(value), "__slots__", ())
    for slot in slots if isinstance(slots, tuple) else ():
        total += deep_size(getattr(value, slot, None), seen)
    if isinstance(value, tuple | list):
        total += sum(deep_size(item, seen) for item in value)
    return total


def step(label: str, func: Callable[[], Any]) -> Any:
    before = rss_mb()
    wall, cpu, result = measure(func)
    gc.collect()
    after = rss_mb()
    print(
        f"  {label:<46} {wall * 1000:8.0f} ms wall {cpu * 1000:8.0f} ms CPU"
        f"   RSS {after:7.0f} MB ({after - before:+6.0f})  peak {peak_mb():7.0f} MB"
    )
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--systems", type=int, default=3)
    parser.add_argument("--keep", type=Path, help="write the files here (and reuse them)")
    parser.add_argument(
        "--distinct",
        action="store_true",
        help="shuffle the words of each repeated line (rows seldom repeat, as in real data)",
    )
    parser.add_argument("--no-index", action="store_true", help="build no n-gram index")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = (args.keep or Path(tmp)) / f"rows{args.rows}{'-distinct' * args.distinct}"
        folder.mkdir(parents=True, exist_ok=True)
        files = write_corpus(folder, args.rows, args.systems, args.distinct)
        print(f"{args.rows:,} segments x {args.systems} systems, 2 references, in {folder}")
        print(f"  at the start{'':<71} RSS {rss_mb():7.0f} MB")
        run(files, index=not args.no_index)


FILTERS = (
    ("filter 'the' (any column)", TextFilter("the")),
    ("filter 'zebra' (any column, no row)", TextFilter("zebra")),
    ("filter 'Zebra' case-sensitive", TextFilter("Zebra", case_sensitive=True)),
    (r"filter regex '\b(19|20)\d\d\b'", TextFilter(r"\b(19|20)\d\d\b", regex=True)),
    (r"filter regex '^The' (row by row)", TextFilter("^The", regex=True)),
)


def filter_steps(session: ComparisonSession, suffix: str = "") -> None:
    for label, f in FILTERS:
        for attempt in ("", " again"):
            data = session.selection_data
            data._masks.clear()
            mask = step(label + suffix + attempt, lambda f=f, data=data: data.mask_of(f))
        print(f"{'':<4}{int(mask.sum()):,} rows")


def build_indexes(session: ComparisonSession) -> None:
    """Each column's n-gram index, as the warm-up builds it: CPU, and peak memory beyond what
    was allocated before (tracemalloc: numpy's arrays too), per column."""
    for name, column in session.search_columns.items():
        tracemalloc.start()
        cpu = time.process_time()
        index = column.build_index()
        cpu = time.process_time() - cpu
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        kept = 0 if index is None else index.nbytes()
        grams = 0 if index is None else len(index.grams)
        print(
            f"    index {name:<8} {cpu * 1000:6.0f} ms CPU, {grams} n-grams,"
            f" kept {kept / 2**20:5.1f} MB, peak extra {peak / 2**20:6.1f} MB"
        )


def run(files: dict[str, list[Path]], index: bool = True) -> None:
    loaded = step(
        "read the files (load_comparison)",
        lambda: load_comparison(
            source=parse_spec(str(files["src"][0])),
            references=[parse_spec(str(p)) for p in files["ref"]],
            systems=[parse_spec(str(p)) for p in files["sys"]],
        ),
    )
    text = loaded.corpus_text()
    source = loaded.source.lines
    session = step(
        "build the ComparisonSession",
        lambda: ComparisonSession(text, source=source),
    )
    step(
        "prepare every search column (the warm-up)",
        lambda: [c.prepare() for c in session.search_columns.values()],
    )
    filter_steps(session)
    if index:
        step("build every column's n-gram index", lambda: build_indexes(session))
        filter_steps(session, " (index)")
    step(
        "sort by hyp1 (first: ranks built)",
        lambda: session.set_selection(Selection(sort=Sort("hyp1"))),
    )
    step(
        "sort by hyp1 descending",
        lambda: session.set_selection(Selection(sort=Sort("hyp1", descending=True))),
    )
    print(f"  peak resident memory {peak_mb():.0f} MB (before the sums below, which take some)")
    seen: set[int] = set()
    print("  what holds the memory (sys.getsizeof sums, MB; the score table: see its step):")
    parts = {
        f"text lines ({c.name})": size_of([c.lines], seen) + size_of(c.lines, seen)
        for c in loaded.columns
    }
    parts.update(column_sizes(session, seen))
    parts["selection caches"] = sum(
        deep_size(v, seen)
        for v in (*session.selection_data._masks.values(), *session.selection_data._orders.values())
    )
    for name, size in parts.items():
        print(f"    {name:<40} {size / 2**20:8.1f}")
    print(f"    {'total':<40} {sum(parts.values()) / 2**20:8.1f}")


if __name__ == "__main__":
    main()
