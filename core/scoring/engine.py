"""The scoring engine: comparisons in, :class:`~core.scoring.results.ScoreChunk` streams out.

Scores come from :class:`core.scoring.scorer.ChunkScorer`, which works a whole chunk of
segments at a time (every metric's statistics of all rows, references and systems at once, in
numpy). Chunks are independent (all statistics are additive), so they can be scored in worker
processes and applied in any order.

Highlight detail is not computed here: :mod:`core.scoring.detail` computes it lazily for the rows
a user looks at.
"""

from __future__ import annotations

import contextlib
import logging
import multiprocessing
import os
import sys
import threading
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from multiprocessing.context import BaseContext

import numpy as np
import numpy.typing as npt

from matchlight.core.pacing import pause

# Imported for its side effect too: every process forked from here is bound to its owner.
from matchlight.core.scoring import lifeline
from matchlight.core.scoring.config import ScoringConfig
from matchlight.core.scoring.results import ScoreChunk, ScoreTable
from matchlight.core.scoring.scorer import ChunkScorer
from matchlight.core.text.corpus import CorpusText
from matchlight.core.text.lines import TextLines

__all__ = [
    "DEFAULT_CHUNK_SIZE",
    "background_process_pool",
    "chunk_bounds",
    "default_workers",
    "empty_table",
    "iter_score_chunks",
    "iter_score_chunks_offloaded",
    "iter_score_chunks_parallel",
    "lower_priority",
    "parallel_bounds",
    "prestart_worker_server",
    "process_context",
    "score_corpus",
]

log = logging.getLogger(__name__)

DEFAULT_CHUNK_SIZE = 256

CancelCheck = Callable[[], bool]


def chunk_bounds(n_segments: int, chunk_size: int = DEFAULT_CHUNK_SIZE) -> list[tuple[int, int]]:
    """Split ``range(n_segments)`` into consecutive ``(start, stop)`` chunks."""
    if chunk_size < 1:
        raise ValueError(f"chunk_size must be positive, not {chunk_size}")
    return [(a, min(a + chunk_size, n_segments)) for a in range(0, n_segments, chunk_size)]


def iter_score_chunks(
    text: CorpusText,
    config: ScoringConfig,
    *,
    chunk_size: int = DEFAULT_CHUNK_SIZE,
    first_chunk_size: int | None = 64,
    cancel: CancelCheck | None = None,
) -> Iterator[ScoreChunk]:
    """Score ``text`` in this process, yielding one chunk at a time.

    The first chunk is small so that a GUI shows rows at once. ``cancel`` is checked between
    chunks; when it returns True the generator stops.
    """
    scorer = ChunkScorer(config)
    n = len(text)
    start = 0
    size = min(first_chunk_size or chunk_size, chunk_size)
    while start < n:
        if cancel is not None and cancel():
            return
        stop = min(start + size, n)
        yield scorer.score(text, start, stop)
        start = stop
        size = chunk_size


# -- multi-process scoring ----------------------------------------------------------------------

#: The smallest task sent to a worker when a large corpus is cut finer towards its end.
MIN_TASK_SIZE = 256
# Once the rows left no longer fill a full chunk per task, each task takes this share of the
# work left, divided by the number of workers: the last tasks are small, so the workers finish
# at about the same time.
_TASKS_PER_WORKER = 4
# For cutting tasks of about equal work, a row costs the characters of its lines plus this
# much per line (the ratio of a line's fixed cost to a character's, on the shared data).
_LINE_COST = 15

_WORKER_SCORER: list[ChunkScorer] = []

#: How much the worker processes of an interactive caller lower their priority (``os.nice``).
#: They use every core, and at equal priority the GUI thread waits for a time slice behind
#: them, which shows as gaps in the event loop. Niced, the scheduler gives the GUI thread the
#: core as soon as it has work, and scoring loses nothing while the GUI is idle.
#: The server that forks them (see :func:`prestart_worker_server`) is niced as well, so that a
#: worker is niced from its first instruction, not only once its initializer runs (workers
#: starting at normal priority take the GUI thread's core for a while).
BACKGROUND_NICENESS = 10


def lower_priority(niceness: int, pid: int = 0) -> None:
    """Make process ``pid`` (0: this one; on Linux also a thread's native id, which is a task
    of its own) at least as nice as ``niceness`` (at most 19); never raise it."""
    with contextlib.suppress(OSError, AttributeError):  # AttributeError: no setpriority
        if os.getpriority(os.PRIO_PROCESS, pid) < niceness:
            os.setpriority(os.PRIO_PROCESS, pid, min(niceness, 19))


def _init_worker(config: ScoringConfig, niceness: int | None = None) -> None:
    lifeline.bind_to_parent()  # a worker never outlives the process it scores for
    if niceness is not None:
        lower_priority(niceness)
    _WORKER_SCORER[:] = [ChunkScorer(config)]


def _score_in_worker(
    references: tuple[Sequence[str], ...], systems: tuple[Sequence[str], ...], start: int
) -> ScoreChunk:
    if not _WORKER_SCORER:
        raise RuntimeError("worker process was not initialised")
    return _WORKER_SCORER[0].score_lines(references, systems, start)


def default_workers() -> int:
    """All cores this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - not Linux
        return max(1, os.cpu_count() or 1)


def parallel_bounds(
    n_segments: int,
    chunk_size: int,
    workers: int,
    costs: Sequence[float] | npt.NDArray[np.float64] | None = None,
) -> list[tuple[int, int]]:
    """Consecutive ``(start, stop)`` tasks for ``workers`` processes: whole chunks first.

    ``costs[i]`` estimates the work of row ``i`` (1 per row when not given). Tasks have
    ``chunk_size`` rows until the work left no longer fills ``4 * workers`` such tasks; then
    each task takes ``1 / (4 * workers)`` of the work left, but at least
    ``min(chunk_size, MIN_TASK_SIZE)`` rows. So no worker is left with a long last task while
    the others idle.
    """
    if chunk_size < 1:
        raise ValueError(f"chunk_size must be positive, not {chunk_size}")
    if costs is not None and len(costs) != n_segments:
        raise ValueError(f"got {len(costs)} row costs for {n_segments} rows")
    smallest = min(chunk_size, MIN_TASK_SIZE)
    share = max(1, _TASKS_PER_WORKER * workers)
    if costs is None:
        done = np.arange(n_segments + 1, dtype=np.float64)
    else:
        done = np.concatenate(([0.0], np.cumsum(costs, dtype=np.float64)))
    bounds: list[tuple[int, int]] = []
    start = 0
    while start < n_segments:
        # The first row at which the task holds a share of the work left.
        goal = done[start] + (done[-1] - done[start]) / share
        stop = int(np.searchsorted(done, goal, side="left"))
        stop = min(max(stop, start + smallest), start + chunk_size, n_segments)
        bounds.append((start, stop))
        start = stop
    return bounds


def _row_costs(text: CorpusText) -> npt.NDArray[np.float64]:
    """Rough work per row: characters of all its lines plus a fixed cost per line."""
    n_lines = len(text.references) + len(text.systems)
    costs = np.full(len(text), float(_LINE_COST * n_lines))
    for column in (*text.references, *text.systems):
        if isinstance(column, TextLines):  # its bytes: as good a measure, without decoding
            costs += column.byte_lengths()
        else:
            costs += np.fromiter(map(len, column), np.float64, len(text))
    return costs


def process_context() -> BaseContext:
    """How to start the workers.

    ``fork`` is the cheapest by far (the worker starts at once with everything imported), but
    forking a process that runs other threads (a Qt application) can deadlock the child, so it is
    only used from the main thread of a single-threaded process (the command line), and only on
    Linux. Otherwise ``forkserver``: its server is started once per session, imports the engine
    once, and forks the workers from there (the first parallel run pays about a second for it).
    """
    methods = multiprocessing.get_all_start_methods()
    single_threaded = (
        threading.current_thread() is threading.main_thread() and threading.active_count() == 1
    )
    if sys.platform.startswith("linux") and "fork" in methods and single_threaded:
        return multiprocessing.get_context("fork")
    if "forkserver" in methods:
        return _forkserver_context()
    return multiprocessing.get_context("spawn")


def _forkserver_context() -> BaseContext:
    context = multiprocessing.get_context("forkserver")
    # "__main__" as by default: the server imports the main module once, so that the workers
    # it forks do not each import it again (multiprocessing skips it when it is already there).
    # Importing lifeline there binds every process it forks to its owner, also the workers of
    # pools without an initializer; once they are gone, the server's "alive" pipe closes and
    # it exits too.
    context.set_forkserver_preload(["__main__", __name__, lifeline.__name__])
    return context


def prestart_worker_server(niceness: int = 0) -> bool:
    """Start the server that forks worker processes for a caller with threads, ahead of time.

    A GUI calls this when it starts, so that the server has imported the engine (about a
    second of CPU) before the first comparison is scored, instead of competing with the
    window at that moment. With ``niceness``, the server runs that much nicer than the caller,
    and so does every worker it forks, from the start. Returns False where there is no such
    server (no ``forkserver``). Harmless to call again.
    """
    if "forkserver" not in multiprocessing.get_all_start_methods():
        return False
    _forkserver_context()
    from multiprocessing import forkserver

    forkserver.ensure_running()
    if niceness > 0:
        pid = getattr(getattr(forkserver, "_forkserver", None), "_forkserver_pid", None)
        if pid:
            lower_priority(os.getpriority(os.PRIO_PROCESS, 0) + niceness, pid)
    return True


def iter_score_chunks_parallel(
    text: CorpusText,
    config: ScoringConfig,
    *,
    workers: int | None = None,
    chunk_size: int = 2048,
    cancel: CancelCheck | None = None,
) -> Iterator[ScoreChunk]:
    """Score ``text`` on ``workers`` processes; chunks are yielded in completion order.

    This process is one of the workers: it scores tasks itself while ``workers - 1`` worker
    processes score others (rather than ``workers`` worker processes and an idle parent: one
    process fewer to start, and its share of the lines never crosses a pipe). Each task sent to
    a worker process carries only the lines of its own rows. Chunks have at most ``chunk_size``
    rows; near the end of a large corpus they get smaller (see :func:`parallel_bounds`). With
    one worker (or a single chunk) this is :func:`iter_score_chunks`. ``cancel`` is checked
    between chunks; when it returns True, the tasks not started yet are dropped and the
    generator stops.
    """
    workers = default_workers() if workers is None else workers
    tasks = deque(parallel_bounds(len(text), chunk_size, workers, _row_costs(text)))
    if workers <= 1 or len(tasks) <= 1:
        yield from iter_score_chunks(text, config, chunk_size=chunk_size, cancel=cancel)
        return
    scorer = ChunkScorer(config)
    helpers = min(workers - 1, len(tasks) - 1)
    pool = ProcessPoolExecutor(
        max_workers=helpers,
        mp_context=process_context(),
        initializer=_init_worker,
        initargs=(config,),
    )
    running: set[Future[ScoreChunk]] = set()

    def send_tasks() -> None:
        # Two tasks per worker process: one being scored and the next one already there.
        while tasks and len(running) < 2 * helpers:
            a, b = tasks.popleft()
            references = tuple(col[a:b] for col in text.references)
            systems = tuple(col[a:b] for col in text.systems)
            running.add(pool.submit(_score_in_worker, references, systems, a))

    try:
        send_tasks()
        while tasks or running:
            finished = [future for future in running if future.done()]
            if not finished and not tasks:
                finished = list(wait(running, return_when=FIRST_COMPLETED).done)
            for future in finished:
                running.discard(future)
                if cancel is not None and cancel():
                    return
                yield future.result()
            send_tasks()
            if tasks:
                if cancel is not None and cancel():
                    return
                a, b = tasks.popleft()
                yield scorer.score(text, a, b)
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


def empty_table(text: CorpusText, config: ScoringConfig) -> ScoreTable:
    """The empty :class:`ScoreTable` that scoring ``text`` under ``config`` fills."""
    return ScoreTable(
        systems=text.system_names,
        n_segments=len(text),
        config=config,
        nrefs=len(text.references),
    )


def score_corpus(
    text: CorpusText,
    config: ScoringConfig,
    *,
    workers: int = 1,
    progress: Callable[[int, int], None] | None = None,
) -> ScoreTable:
    """Score everything and return the filled :class:`ScoreTable`."""
    table = empty_table(text, config)
    chunks = (
        iter_score_chunks_parallel(text, config, workers=workers)
        if workers != 1
        else iter_score_chunks(text, config)
    )
    for chunk in chunks:
        table.apply(chunk)
        if progress is not None:
            progress(table.n_done, table.n_segments)
    return table


# -- scoring for an interactive caller -------------------------------------------------------
#
# A GUI scores from a worker *thread*, but a Python thread that computes holds the GIL, and the
# GUI thread then waits for it at every call into Qt: the window stalls for hundreds of
# milliseconds although the scoring is "in the background". So iter_score_chunks_offloaded
# leaves the calling thread only handing out tasks and collecting results (waiting with the
# GIL released); the scoring itself runs in processes. Only the first few rows are scored in
# the caller, so they show at once while the worker processes start.

#: How often a waiting caller looks at its cancel flag, in seconds.
CANCEL_POLL_SECONDS = 0.05


#: At most this many characters (all lines of the rows together) are scored in the caller's
#: thread before the workers take over: a bound in characters, not rows, because a few very
#: long lines there would hold the GIL while the window is being shown.
HEAD_CHARS = 60_000


#: At most this many rows, holding at most :data:`HEAD_CHARS` characters in all, are scored
#: whole in the caller's thread by :func:`iter_score_chunks_offloaded`: no worker process starts.
SMALL_ROWS = 1024


def _head_rows(text: CorpusText, limit: int) -> int:
    """How many of the first ``limit`` rows fit in :data:`HEAD_CHARS` characters."""
    total = 0
    for row in range(limit):
        total += text.row_chars(row)
        if total > HEAD_CHARS:
            return row
    return limit


def _background_context(niceness: int) -> tuple[BaseContext, int | None]:
    """How to start niced workers for a caller with threads, and the niceness they take."""
    context = process_context()
    if niceness <= 0:
        return context, None
    target = os.getpriority(os.PRIO_PROCESS, 0) + niceness
    if context.get_start_method() == "forkserver":
        prestart_worker_server(niceness)
    return context, target


def background_process_pool(
    workers: int = 1, niceness: int = BACKGROUND_NICENESS
) -> ProcessPoolExecutor:
    """Worker processes for pure-Python work a caller with threads (a GUI) must not do itself.

    Niced like the scoring workers. A thread would hold the GIL that the caller's GUI thread
    needs at every call into Qt.
    """
    context, target = _background_context(niceness)
    if target is None:
        return ProcessPoolExecutor(max_workers=workers, mp_context=context)
    return ProcessPoolExecutor(
        max_workers=workers, mp_context=context, initializer=lower_priority, initargs=(target,)
    )


def iter_score_chunks_offloaded(
    text: CorpusText,
    config: ScoringConfig,
    *,
    workers: int | None = None,
    chunk_size: int = 1024,
    first_chunk_size: int = 64,
    cancel: CancelCheck | None = None,
    niceness: int = BACKGROUND_NICENESS,
) -> Iterator[ScoreChunk]:
    """Score ``text`` in ``workers`` processes; yield chunks as they complete.

    A small comparison (at most :data:`SMALL_ROWS` rows and :data:`HEAD_CHARS` characters) is
    scored in the calling thread: its first ``first_chunk_size`` rows, then the rest in chunks
    of ``chunk_size``. Otherwise the first ``first_chunk_size`` rows are scored in the calling
    thread (a few milliseconds) so that a table shows rows at once, but only as many of them as
    hold at most :data:`HEAD_CHARS` characters: huge lines (hostile input) go to the workers,
    instead of holding the GIL the caller's other threads need. The worker processes lower
    their priority by ``niceness`` (see :data:`BACKGROUND_NICENESS`). ``cancel`` is polled every
    :data:`CANCEL_POLL_SECONDS` while waiting; when it returns True, pending tasks are dropped
    and the generator stops.
    """
    n = len(text)
    workers = default_workers() if workers is None else max(1, workers)
    if 0 < n <= SMALL_ROWS and _head_rows(text, n) == n:
        # A small comparison (the sample, a test set of a few hundred short rows): scored here,
        # a first chunk at a time, in less time than starting the worker processes takes.
        starts = [0, *range(min(first_chunk_size, n), n, chunk_size)]
        yield from _score_here(text, config, zip(starts, [*starts[1:], n], strict=True), cancel)
        return
    head = _head_rows(text, min(first_chunk_size, n))
    if head:
        if cancel is not None and cancel():
            return
        yield ChunkScorer(config).score(text, 0, head)
    if head >= n:
        return
    # Planning the tasks and starting the workers hold the interpreter for a while: an app's
    # interactive thread, which showed the head (or a million rows) just now, goes first.
    pause()
    costs = np.ones(n - head)
    tasks = [(a + head, b + head) for a, b in parallel_bounds(n - head, chunk_size, workers, costs)]
    pending: dict[Future[ScoreChunk], tuple[int, int]] = {}
    position = 0
    leftovers: list[tuple[int, int]] = []
    context, target = _background_context(niceness)
    pool = ProcessPoolExecutor(
        max_workers=workers,
        mp_context=context,
        initializer=_init_worker,
        initargs=(config, target),
    )
    try:
        while position < len(tasks) or pending:
            # Keep every worker busy with one task and the next one queued.
            while position < len(tasks) and len(pending) < 2 * workers:
                a, b = tasks[position]
                future = pool.submit(
                    _score_in_worker,
                    tuple(col[a:b] for col in text.references),
                    tuple(col[a:b] for col in text.systems),
                    a,
                )
                position += 1
                pending[future] = (a, b)
            done, _ = wait(pending, timeout=CANCEL_POLL_SECONDS, return_when=FIRST_COMPLETED)
            if cancel is not None and cancel():
                return
            for future in done:
                chunk = future.result()
                del pending[future]
                yield chunk
    except (BrokenProcessPool, OSError, RuntimeError) as exc:
        # No worker process could be started (or one died): score what is left right here,
        # slower for a GUI but never lost.
        log.warning("scoring in worker processes failed (%s); scoring in this thread", exc)
        leftovers = sorted(pending.values()) + tasks[position:]
    finally:
        for future in pending:
            future.cancel()
        pool.shutdown(wait=False, cancel_futures=True)
    if leftovers:
        yield from _score_here(text, config, leftovers, cancel)


def _score_here(
    text: CorpusText,
    config: ScoringConfig,
    bounds: Iterable[tuple[int, int]],
    cancel: CancelCheck | None,
) -> Iterator[ScoreChunk]:
    """Score the rows ``a:b`` of each of ``bounds`` in the calling thread, in order, until
    ``cancel()`` says stop."""
    scorer = ChunkScorer(config)
    for a, b in bounds:
        if cancel is not None and cancel():
            return
        yield scorer.score(text, a, b)
