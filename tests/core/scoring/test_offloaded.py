"""Scoring in worker processes gives exactly the in-process numbers, and can be cancelled."""

from __future__ import annotations

import multiprocessing
import os
import threading
from concurrent.futures import ProcessPoolExecutor

import numpy as np

from matchlight.core import pacing
from matchlight.core.scoring.config import ScoringConfig
from matchlight.core.scoring.engine import (
    BACKGROUND_NICENESS,
    HEAD_CHARS,
    CorpusText,
    _init_worker,
    iter_score_chunks_offloaded,
    prestart_worker_server,
    score_corpus,
)
from matchlight.core.scoring.results import ScoreTable
from tests.conftest import SAMPLE, make_config
from tests.kit import read_lines


def _sample(repeat: int) -> CorpusText:
    def read(name: str) -> tuple[str, ...]:
        return tuple(read_lines(SAMPLE / name) * repeat)

    return CorpusText(
        references=(read("ref.en.txt"), read("ref2.en.txt")),
        systems=(read("sys.fluent.txt"), read("sys.literal.txt"), read("sys.rough.txt")),
        system_names=("fluent", "literal", "rough"),
    )


def test_offloaded_chunks_fill_the_same_table() -> None:
    text = _sample(4)
    config = make_config(smooth_method="floor", rouge_stem=True)
    expected = score_corpus(text, config)
    table = ScoreTable(systems=text.system_names, n_segments=len(text), config=config, nrefs=2)
    paused: list[int] = []
    previous = pacing.set_gate(lambda unless: paused.append(1))
    try:
        chunks = list(
            iter_score_chunks_offloaded(
                text, config, workers=2, chunk_size=100, first_chunk_size=16
            )
        )
    finally:
        pacing.set_gate(previous)
    # Once, after the head: planning the tasks and starting the workers wait for a GUI
    # thread's turn (core.pacing).
    assert paused == [1]
    assert (chunks[0].start, chunks[0].stop) == (0, 16)
    assert sorted(c.stop - c.start for c in chunks)[-1] <= 100
    for chunk in chunks:
        table.apply(chunk)
    assert table.complete
    np.testing.assert_array_equal(table.scores, expected.scores)
    for key, fields in expected.stats.items():
        for name, values in fields.items():
            np.testing.assert_array_equal(table.stat(key, name), values, err_msg=f"{key}.{name}")


def test_huge_first_rows_are_left_to_the_workers() -> None:
    """Only HEAD_CHARS characters are scored in the caller's thread, where it holds the GIL."""
    base = _sample(2)
    huge = " ".join(base.references[0][:200])  # one line of a few thousand words
    assert len(huge) * 5 > HEAD_CHARS
    columns = [list(c) for c in (*base.references, *base.systems)]
    for column in columns:
        column[2] = huge  # row 2 is huge in every column
    text = CorpusText(
        references=tuple(tuple(c) for c in columns[:2]),
        systems=tuple(tuple(c) for c in columns[2:]),
        system_names=base.system_names,
    )
    config = ScoringConfig()
    chunks = list(
        iter_score_chunks_offloaded(text, config, workers=2, chunk_size=100, first_chunk_size=16)
    )
    assert (chunks[0].start, chunks[0].stop) == (0, 2)  # rows 0 and 1, then the huge one
    table = ScoreTable(systems=text.system_names, n_segments=len(text), config=config, nrefs=2)
    for chunk in chunks:
        table.apply(chunk)
    assert table.complete
    np.testing.assert_array_equal(table.scores, score_corpus(text, config).scores)
    # A huge first row: nothing in the caller's thread at all.
    first = iter_score_chunks_offloaded(
        CorpusText(
            references=tuple(c[2:] for c in text.references),
            systems=tuple(c[2:] for c in text.systems),
            system_names=text.system_names,
        ),
        config,
        workers=1,
        chunk_size=100,
    )
    chunk = next(first)
    assert chunk.start == 0 and chunk.stop > 1  # a worker's task, not a head of 0 rows
    first.close()


def test_cancel_stops_after_the_first_chunk() -> None:
    text = _sample(20)
    seen: list[int] = []
    chunks = iter_score_chunks_offloaded(
        text,
        ScoringConfig(),
        workers=2,
        chunk_size=64,
        first_chunk_size=8,
        cancel=lambda: bool(seen),
    )
    for chunk in chunks:
        seen.append(chunk.stop - chunk.start)
    assert seen == [8]


def test_tiny_corpus_is_scored_in_the_caller() -> None:
    text = _sample(1)
    chunks = list(iter_score_chunks_offloaded(text, ScoringConfig(), first_chunk_size=1000))
    assert [(c.start, c.stop) for c in chunks] == [(0, len(text))]


def test_rows_are_scored_here_when_no_worker_process_starts(monkeypatch, caplog) -> None:
    import matchlight.core.scoring.engine

    class NoProcesses:
        def __init__(self, **_: object) -> None:
            pass

        def submit(self, *_: object) -> None:
            raise RuntimeError("An attempt has been made to start a new process before ...")

        def shutdown(self, **_: object) -> None:
            pass

    monkeypatch.setattr(matchlight.core.scoring.engine, "ProcessPoolExecutor", NoProcesses)
    text = _sample(2)
    config = ScoringConfig()
    table = ScoreTable(systems=text.system_names, n_segments=len(text), config=config, nrefs=2)
    with caplog.at_level("WARNING"):
        for chunk in iter_score_chunks_offloaded(text, config, workers=2, chunk_size=50):
            table.apply(chunk)
    assert table.complete
    np.testing.assert_array_equal(table.scores, score_corpus(text, config).scores)
    assert "scoring in this thread" in caplog.text


def _own_niceness() -> int:
    return os.nice(0)


def test_worker_processes_lower_their_priority() -> None:
    """The GUI's scoring processes run niced, so that the GUI thread gets a core at once."""
    assert BACKGROUND_NICENESS >= 5
    base = os.nice(0)
    context = multiprocessing.get_context("fork")
    config = ScoringConfig()
    target = min(19, base + 7)
    init = _init_worker
    with ProcessPoolExecutor(1, context, initializer=init, initargs=(config, target)) as pool:
        assert pool.submit(_own_niceness).result() == target
    with ProcessPoolExecutor(1, context, initializer=init, initargs=(config, None)) as pool:
        assert pool.submit(_own_niceness).result() == base
    # Never less nice than it already is: a worker forked by a niced server stays niced.
    with ProcessPoolExecutor(1, context, initializer=init, initargs=(config, base - 1)) as pool:
        assert pool.submit(_own_niceness).result() == base


def test_a_niced_worker_server_forks_workers_that_are_niced_from_the_start() -> None:
    """Niced before any initializer runs: the worker's start-up does not compete with the GUI."""
    from multiprocessing import forkserver

    base = os.nice(0)
    assert prestart_worker_server()
    server = forkserver._forkserver._forkserver_pid
    before = os.getpriority(os.PRIO_PROCESS, server)  # other tests may have niced it already
    wanted = min(19, before + 2)
    assert prestart_worker_server(niceness=wanted - base)
    assert os.getpriority(os.PRIO_PROCESS, server) == wanted
    context = multiprocessing.get_context("forkserver")
    with ProcessPoolExecutor(1, context) as pool:  # no initializer at all
        assert pool.submit(_own_niceness).result() == wanted
    # Asking again for less never makes the server less nice (it cannot, unprivileged).
    assert prestart_worker_server(niceness=1)
    assert os.getpriority(os.PRIO_PROCESS, server) == wanted


def test_the_worker_server_can_be_started_ahead_and_is_then_used() -> None:
    from multiprocessing import forkserver

    assert prestart_worker_server()
    pid = forkserver._forkserver._forkserver_pid  # the server now runs
    assert pid is not None
    assert prestart_worker_server()  # again: the same server
    assert forkserver._forkserver._forkserver_pid == pid
    text = _sample(2)
    config = ScoringConfig()
    expected = score_corpus(text, config)
    table = ScoreTable(systems=text.system_names, n_segments=len(text), config=config, nrefs=2)
    # From a thread, as the GUI scores: the forkserver context, i.e. that server.
    done = []
    worker = threading.Thread(
        target=lambda: done.extend(
            iter_score_chunks_offloaded(text, config, workers=2, chunk_size=64)
        )
    )
    worker.start()
    worker.join()
    for chunk in done:
        table.apply(chunk)
    assert table.complete
    np.testing.assert_array_equal(table.scores, expected.scores)
    assert forkserver._forkserver._forkserver_pid == pid


def test_a_small_comparison_is_scored_here_without_worker_processes(monkeypatch) -> None:
    """The sample (160 rows, under HEAD_CHARS characters) is scored in the calling thread: a
    first chunk, then the rest; four times the sample (over HEAD_CHARS) starts the workers."""
    from matchlight.core.scoring import engine

    started: list[int] = []

    class Counted(ProcessPoolExecutor):
        def __init__(self, *args, **kwargs) -> None:
            started.append(1)
            super().__init__(*args, **kwargs)

    monkeypatch.setattr(engine, "ProcessPoolExecutor", Counted)
    config = ScoringConfig()
    small = _sample(1)
    chunks = list(iter_score_chunks_offloaded(small, config, workers=2, chunk_size=100))
    assert started == []
    assert [(c.start, c.stop) for c in chunks] == [(0, 64), (64, 160)]
    table = ScoreTable(systems=small.system_names, n_segments=160, config=config, nrefs=2)
    for chunk in chunks:
        table.apply(chunk)
    np.testing.assert_array_equal(table.scores, score_corpus(small, config).scores)
    big = _sample(4)
    assert engine._head_rows(big, len(big)) < len(big)  # over HEAD_CHARS
    list(iter_score_chunks_offloaded(big, config, workers=2))
    assert started == [1]
