"""Speed of Matchlight's TER against sacreBLEU 2.6.0's TER, measured in one run.

    python tests/benchmarks/bench_ter.py [--rows 300] [--refs 1] [--detail-rows 40]
    python tests/benchmarks/bench_ter.py --verify

For every dataset of ../shared/data (with --refs 2, those with ref2.txt), --rows rows spread
over the file, each system's output in turn until --rows (hypothesis, reference) rows:
  1. sacreBLEU: ``TER().sentence_score`` on every row;
  2. sacreBLEU: one ``TER().corpus_score`` over the rows;
  3. Matchlight: the metric's chunk scorer (the table's sentence scores and statistics, in
     chunks of 256 rows as the engine cuts them), then the corpus score of the summed
     statistics;
and the row detail (every path, as spans) on --detail-rows of those rows. Prints CPU seconds
per dataset (per run; short datasets are run several times) and in total, and the ratios of CPU
times (the machine is shared); checks that the numbers agree. Not a test: timings are never
asserted.

``--verify`` instead checks every segment of every dataset and system, with one and (where
present) two references: the edit count of every path, the statistics, the sentence scores
and the corpus score against sacreBLEU's. sacreBLEU's statistics take most of an hour;
``--cache DIR`` keeps them outside the repository for the next run.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402
from sacrebleu.metrics import TER  # noqa: E402

from matchlight.core.metrics.base import ChunkText, mask_separator  # noqa: E402
from matchlight.core.metrics.ter import TerMetric  # noqa: E402
from matchlight.core.metrics.teralign import ter_alignments, ter_from_stats  # noqa: E402
from matchlight.core.metrics.teroptions import TerSettings  # noqa: E402
from matchlight.core.metrics.terpath import ter_row  # noqa: E402
from matchlight.core.text.tercom import tercom_tokenizer  # noqa: E402

DATA = ROOT.parent / "shared" / "data"
CHUNK = 256
T = TypeVar("T")


def read_lines(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").split("\n")[:-1]


def datasets(n_refs: int) -> list[tuple[str, list[list[str]], list[list[str]]]]:
    """(name, reference columns, system columns) of every dataset with ``n_refs`` references;
    the sentence-marked CNN/DM copy with its markers blanked, as the scorer reads it."""
    found = []
    for folder in sorted(p for p in DATA.rglob("*") if p.is_dir()):
        paths = [folder / "ref.txt", folder / "ref2.txt"][:n_refs]
        systems = sorted(folder.glob("sys.*.txt"))
        if not systems or not all(p.exists() for p in paths):
            continue
        sep = "<n>" if folder.name == "sent_marked" else None
        refs = [[mask_separator(x, sep) for x in read_lines(p)] for p in paths]
        hyps = [[mask_separator(x, sep) for x in read_lines(p)] for p in systems]
        found.append((str(folder.relative_to(DATA)), refs, hyps))
    return found


def cpu(fn: Callable[[], T], least: float = 0.5) -> tuple[T, float]:
    """``fn()`` and its CPU seconds per call, repeated until ``least`` seconds in all (short
    datasets take a few milliseconds). Every call starts with cold caches: sacreBLEU builds a
    new ``TER`` each time, and Matchlight's tokenizers are made anew."""
    runs = 0
    total = 0.0
    while True:
        tercom_tokenizer.cache_clear()
        start = time.process_time()
        result = fn()
        total += time.process_time() - start
        runs += 1
        if total >= least:
            return result, total / runs


def sample(
    refs: list[list[str]], hyps: list[list[str]], rows: int
) -> tuple[list[str], list[list[str]]]:
    """``rows`` rows spread over the file, cycling through the systems."""
    n = len(refs[0])
    picked = np.linspace(0, n - 1, min(rows, n * len(hyps))).round().astype(int)
    out_h: list[str] = []
    out_r: list[list[str]] = [[] for _ in refs]
    for i, k in enumerate(picked.tolist()):
        out_h.append(hyps[i % len(hyps)][k])
        for column, ref in zip(out_r, refs, strict=True):
            column.append(ref[k])
    return out_h, out_r


def sacre_sentences(hyps: list[str], refs: list[list[str]]) -> list[float]:
    metric = TER()
    return [metric.sentence_score(x, [c[k] for c in refs]).score for k, x in enumerate(hyps)]


def ours(hyps: list[str], refs: list[list[str]]) -> tuple[np.ndarray, float]:
    """Sentence scores and corpus TER through the metric's chunk scorer."""
    scorer = TerMetric().chunk_scorer(TerSettings())
    scores = []
    edits = words = count = 0
    for a in range(0, len(hyps), CHUNK):
        chunk = scorer(ChunkText([r[a : a + CHUNK] for r in refs], [hyps[a : a + CHUNK]]))
        scores.append(chunk.scores[0, :, 0])
        edits += int(chunk.stats["edits"].sum())
        words += int(chunk.stats["ref_words"].sum())
        count += chunk.scores.shape[1]
    corpus = float(ter_from_stats(edits, words, len(refs)))
    return np.concatenate(scores), corpus


def bench(rows: int, n_refs: int, detail_rows: int) -> None:
    print(f"TER, {n_refs} reference(s), up to {rows} rows per dataset; CPU seconds")
    header = f"{'dataset':32} {'rows':>5} {'sb sent':>8} {'sb corp':>8} {'ours':>7} {'ratio':>6}"
    print(header)
    totals = np.zeros(3)
    detail_time = 0.0
    detail_count = 0
    for name, refs, hyps in datasets(n_refs):
        h, r = sample(refs, hyps, rows)
        sentence, t_sent = cpu(lambda h=h, r=r: sacre_sentences(h, r))
        corpus, t_corp = cpu(lambda h=h, r=r: TER().corpus_score(h, r).score)
        (mine, mine_corpus), t_ours = cpu(lambda h=h, r=r: ours(h, r))
        if mine.tolist() != sentence or abs(mine_corpus - corpus) > 1e-9:
            raise SystemExit(f"{name}: the scores differ from sacreBLEU's")
        step = max(1, len(h) // max(1, detail_rows))
        picked = list(range(0, len(h), step))[:detail_rows]
        _, t_detail = cpu(
            lambda h=h, r=r, picked=picked: [
                ter_row(tercom_tokenizer(), [c[k] for c in r], [h[k]]) for k in picked
            ],
            least=0.0,
        )
        detail_time += t_detail
        detail_count += len(picked)
        totals += (t_sent, t_corp, t_ours)
        ratio = t_sent / max(t_ours, 1e-9)
        print(f"{name:32} {len(h):5} {t_sent:8.2f} {t_corp:8.2f} {t_ours:7.2f} {ratio:5.1f}x")
    s, c, o = totals
    print(f"{'total':32} {'':5} {s:8.2f} {c:8.2f} {o:7.2f} {s / max(o, 1e-9):5.1f}x")
    print(
        f"sacreBLEU sentence scores / ours: {s / o:.1f}x; sacreBLEU corpus score / ours: "
        f"{c / o:.1f}x"
    )
    print(
        f"row detail (paths as spans): {detail_count} rows in {detail_time:.2f} s "
        f"({1000 * detail_time / max(1, detail_count):.1f} ms per row)"
    )


def sacre_statistics(
    cache: Path | None, key: str, hyps: list[str], refs: list[list[str]]
) -> tuple[list[list[float]], float]:
    """sacreBLEU's per-segment statistics and the seconds they took, kept in ``cache`` (a
    folder outside the repository) so that a later run checks new code in minutes."""
    path = None if cache is None else cache / f"{key.replace('/', '_')}.json"
    if path is not None and path.exists():
        found = json.loads(path.read_text(encoding="utf-8"))
        return found["stats"], found["seconds"]
    start = time.perf_counter()
    stats = TER()._extract_corpus_statistics(hyps, refs)
    seconds = time.perf_counter() - start
    if path is not None:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps({"stats": stats, "seconds": seconds}), encoding="utf-8")
    return stats, seconds


def verify(cache: Path | None) -> None:
    """Every segment, every system, one and two references, against sacreBLEU."""
    tok = tercom_tokenizer()
    bad = 0
    for n_refs in (1, 2):
        for name, refs, hyps in datasets(n_refs):
            if n_refs == 2 and len(refs) < 2:
                continue
            metric = TER()
            ref_words = [[tok.reference(x) for x in column] for column in refs]
            for s, column in enumerate(hyps):
                key = f"{name}-refs{n_refs}-sys{s}"
                stats, sacre_time = sacre_statistics(cache, key, column, refs)
                start = time.perf_counter()
                found = ter_alignments(
                    [(tok(x), rw[k]) for k, x in enumerate(column) for rw in ref_words]
                )
                edits = np.array([a.num_edits for a in found]).reshape(len(column), n_refs)
                ours_time = time.perf_counter() - start
                mismatched = int((edits.min(axis=1) != np.array([e for e, _ in stats])).sum())
                mine, corpus = ours(column, refs)
                sentence = [metric._compute_score_from_stats(x).score for x in stats]
                same = mine.tolist() == sentence
                expected = metric._aggregate_and_compute(stats).score
                close = abs(corpus - expected) <= 1e-9
                bad += mismatched + (not same) + (not close)
                print(
                    f"{name:32} refs={n_refs} sys={s} rows={len(column)}: {mismatched} edit "
                    f"counts differ; sentence scores {'equal' if same else 'DIFFER'}; corpus "
                    f"{corpus:.6f} vs {expected:.6f}; sacreBLEU {sacre_time:.1f} s, "
                    f"paths {ours_time:.1f} s",
                    flush=True,
                )
    print("all equal" if bad == 0 else f"{bad} differences")
    if bad:
        raise SystemExit(1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rows", type=int, default=300)
    parser.add_argument("--refs", type=int, choices=(1, 2), default=1)
    parser.add_argument("--detail-rows", type=int, default=40)
    parser.add_argument("--verify", action="store_true")
    parser.add_argument(
        "--cache",
        type=Path,
        help="with --verify: keep sacreBLEU's statistics in this folder (not in the repository) "
        "and reuse them",
    )
    args = parser.parse_args()
    if args.verify:
        verify(args.cache)
    else:
        bench(args.rows, args.refs, args.detail_rows)


if __name__ == "__main__":
    main()
