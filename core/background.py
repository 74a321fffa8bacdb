"""Scoring for an interactive caller: all the work in worker processes, none in the caller.

A GUI scores from a worker *thread*, but a Python thread that computes holds the GIL, and the
GUI thread then waits for it at every call into Qt: the window stalls for hundreds of
milliseconds although the scoring is "in the background". So here the calling thread only
hands out tasks and collects results (waiting with the GIL released); the scoring itself runs
in processes. Only the first few rows are scored in the caller, so they show at once while the
worker processes start.
"""

from __future__ import annotations

from collections.abc import Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait

import numpy as np

from core.config import ScoringConfig
from core.engine import (
    CancelCheck,
    ChunkScorer,
    CorpusText,
    _init_worker,
    _process_context,
    _score_in_worker,
    default_workers,
    parallel_bounds,
)
from core.results import ScoreChunk

#: How often a waiting caller looks at its cancel flag, in seconds.
CANCEL_POLL_SECONDS = 0.05


def iter_score_chunks_offloaded(
    text: CorpusText,
    config: ScoringConfig,
    *,
    workers: int | None = None,
    chunk_size: int = 1024,
    first_chunk_size: int = 64,
    cancel: CancelCheck | None = None,
) -> Iterator[ScoreChunk]:
    """Score ``text`` in ``workers`` processes; yield chunks as they complete.

    The first ``first_chunk_size`` rows are scored in the calling thread (a few milliseconds)
    so that a table shows rows at once. ``cancel`` is polled every
    :data:`CANCEL_POLL_SECONDS` while waiting; when it returns True, pending tasks are dropped
    and the generator stops.
    """
    n = len(text)
    workers = default_workers() if workers is None else max(1, workers)
    head = min(first_chunk_size, n)
    if head:
        if cancel is not None and cancel():
            return
        yield ChunkScorer(config).score(text, 0, head)
    if head >= n:
        return
    costs = np.ones(n - head)
    tasks = [(a + head, b + head) for a, b in parallel_bounds(n - head, chunk_size, workers, costs)]
    pool = ProcessPoolExecutor(
        max_workers=workers,
        mp_context=_process_context(),
        initializer=_init_worker,
        initargs=(config,),
    )
    running: set[Future[ScoreChunk]] = set()
    position = 0
    try:
        while position < len(tasks) or running:
            # Keep every worker busy with one task and the next one queued.
            while position < len(tasks) and len(running) < 2 * workers:
                a, b = tasks[position]
                position += 1
                running.add(
                    pool.submit(
                        _score_in_worker,
                        tuple(col[a:b] for col in text.references),
                        tuple(col[a:b] for col in text.systems),
                        a,
                    )
                )
            done, running = wait(running, timeout=CANCEL_POLL_SECONDS, return_when=FIRST_COMPLETED)
            if cancel is not None and cancel():
                return
            for future in done:
                yield future.result()
    finally:
        for future in running:
            future.cancel()
        pool.shutdown(wait=False, cancel_futures=True)
