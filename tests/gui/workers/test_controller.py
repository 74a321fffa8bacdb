"""The scoring controller: one worker thread, chunked results, cancel, restart, failures."""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import gc
import sys
import threading
import time
from collections.abc import Iterator

import numpy as np
import pytest
from PySide6.QtCore import QObject, QThread, Slot

from matchlight.core.scoring.config import ScoringConfig
from matchlight.core.scoring.engine import empty_table, iter_score_chunks, score_corpus
from matchlight.core.scoring.results import ScoreChunk
from matchlight.core.text.corpus import CorpusText
from matchlight.gui.dialogs.opendialog import assign_roles, sample_specs
from matchlight.gui.workers.controller import ScoringController, describe_failure
from tests.conftest import SHARED_DATA

ZH = SHARED_DATA / "wmt22-en-zh"


@pytest.fixture(scope="module")
def sample_text() -> CorpusText:
    return sample_specs().load().corpus_text()


@pytest.fixture(scope="module")
def big_text() -> CorpusText:
    """wmt22-en-zh repeated four times: 8148 rows x 5 systems, many chunks."""
    if not ZH.is_dir():
        pytest.skip("shared/data/wmt22-en-zh is not present")
    specs = assign_roles([str(p) for p in [*ZH.glob("ref*.txt"), *ZH.glob("sys.*.txt")]])
    text = specs.load().corpus_text()
    return CorpusText(
        references=tuple(tuple(r) * 4 for r in text.references),
        systems=tuple(tuple(s) * 4 for s in text.systems),
        system_names=text.system_names,
    )


@pytest.fixture
def controller(qtbot):
    ctrl = ScoringController()
    yield ctrl
    ctrl.shutdown()


class Recorder(QObject):
    """Collects controller events in the GUI thread (and notes which thread delivered them)."""

    def __init__(self, controller: ScoringController, cancel_after: int | None = None) -> None:
        super().__init__()
        self.controller = controller
        self.cancel_after = cancel_after
        self.chunks: list[tuple[int, int]] = []
        self.progress: list[tuple[int, int]] = []
        self.threads: set[object] = set()
        controller.chunk_ready.connect(self._on_chunk_ready)
        controller.progress_changed.connect(self._on_progress_changed)

    @Slot(int, int)
    def _on_chunk_ready(self, start: int, stop: int) -> None:
        self.chunks.append((start, stop))
        self.threads.add(QThread.currentThread())
        if self.cancel_after is not None and len(self.chunks) == self.cancel_after:
            self.controller.cancel()

    @Slot(int, int)
    def _on_progress_changed(self, done: int, total: int) -> None:
        self.progress.append((done, total))


class CountingSource:
    """Wraps iter_score_chunks and counts the chunks it produced (in the worker thread)."""

    def __init__(self, fail_after: int | None = None, *, hold_after_first: bool = False) -> None:
        """``hold_after_first``: after the first chunk, produce the next only once the job is
        cancelled (what a slow chunk would do, without depending on how fast this machine is)."""
        self.produced = 0
        self.fail_after = fail_after
        self.hold_after_first = hold_after_first
        self.lock = threading.Lock()

    def __call__(self, text, config, **kwargs) -> Iterator[ScoreChunk]:
        cancelled = kwargs.get("cancel")
        for chunk in iter_score_chunks(text, config, **kwargs):
            if self.fail_after is not None and self.produced >= self.fail_after:
                raise ValueError("tokenizer exploded on segment 65")
            if self.hold_after_first and self.produced == 1 and cancelled is not None:
                deadline = time.monotonic() + 60  # a guard against a hang, nothing is timed
                while not cancelled() and time.monotonic() < deadline:
                    time.sleep(0.005)
            with self.lock:
                self.produced += 1
            yield chunk


def assert_same_scores(table, expected) -> None:
    assert table.systems == expected.systems
    np.testing.assert_array_equal(table.scores, expected.scores)
    for key, fields in expected.stats.items():
        for name, values in fields.items():
            np.testing.assert_array_equal(table.stat(key, name), values, err_msg=f"{key}.{name}")
    np.testing.assert_array_equal(table.flag("lsum_fallback"), expected.flag("lsum_fallback"))


def test_sample_scores_equal_core(qtbot, controller, sample_text):
    recorder = Recorder(controller)
    config = ScoringConfig()
    with qtbot.waitSignal(controller.scoring_finished, timeout=60_000):
        table = controller.start(sample_text, config)
    assert controller.table is table
    assert table.complete
    assert not controller.running
    assert_same_scores(table, score_corpus(sample_text, config))
    # The first chunk is small so rows show at once; chunks tile the corpus in order.
    assert recorder.chunks[0] == (0, 64)
    assert recorder.chunks == [(0, 64), (64, 160)]
    assert recorder.progress[0] == (0, 160)
    assert recorder.progress[-1] == (160, 160)
    # Chunks are delivered in the GUI thread, never in the worker's.
    assert recorder.threads == {QThread.currentThread()}
    assert table.corpus(0).values["bleu"] == pytest.approx(50.5, abs=0.05)  # README: fluent


def test_rescore_with_new_config_gives_new_values(qtbot, controller, sample_text):
    with qtbot.waitSignal(controller.scoring_finished, timeout=60_000):
        first = controller.start(sample_text, ScoringConfig())
    lower = ScoringConfig().with_settings("bleu", lowercase=True, tokenize="intl")
    with qtbot.waitSignal(controller.scoring_finished, timeout=60_000):
        second = controller.start(sample_text, lower)
    assert second is not first
    assert second.config == lower
    assert_same_scores(second, score_corpus(sample_text, lower))
    assert not np.array_equal(first.scores, second.scores)


def test_cancel_after_first_chunk_applies_no_later_chunk(qtbot, big_text):
    source = CountingSource(hold_after_first=True)
    controller = ScoringController(chunk_source=source)
    try:
        recorder = Recorder(controller, cancel_after=1)
        with (
            qtbot.waitSignal(controller.scoring_cancelled, timeout=60_000),
            qtbot.assertNotEmitted(controller.scoring_finished, wait=0),
        ):
            table = controller.start(big_text, ScoringConfig())
        assert recorder.chunks == [(0, 64)]
        assert table.n_done == 64
        assert not controller.running
        # The worker really stops (at most the chunk in flight is finished), and whatever it
        # still delivered is dropped.
        qtbot.waitUntil(lambda: not controller.busy, timeout=60_000)
        qtbot.wait(50)
        assert recorder.chunks == [(0, 64)]
        assert table.n_done == 64
        assert source.produced <= 2
        assert len(big_text) > 8000
    finally:
        controller.shutdown()


def test_restart_drops_stale_results(qtbot, big_text, sample_text):
    controller = ScoringController()
    try:
        with qtbot.waitSignal(controller.chunk_ready, timeout=60_000):
            stale = controller.start(big_text, ScoringConfig())
        recorder = Recorder(controller)
        with (
            qtbot.waitSignal(controller.scoring_finished, timeout=60_000),
            qtbot.assertNotEmitted(controller.scoring_cancelled, wait=0),
        ):
            fresh = controller.start(sample_text, ScoringConfig())
        assert controller.table is fresh
        assert fresh.n_segments == 160
        assert all(stop <= 160 for _, stop in recorder.chunks)
        assert_same_scores(fresh, score_corpus(sample_text, ScoringConfig()))
        qtbot.waitUntil(lambda: not controller.busy, timeout=60_000)
        # Nothing of the superseded job landed after the restart.
        assert stale.n_done < stale.n_segments
        assert stale.n_done == 64 or stale.n_done == 64 + 256
    finally:
        controller.shutdown()


def test_exception_in_scoring_becomes_scoring_failed(qtbot, sample_text):
    controller = ScoringController(chunk_source=CountingSource(fail_after=1))
    try:
        with qtbot.waitSignal(controller.scoring_failed, timeout=60_000) as blocker:
            table = controller.start(sample_text, ScoringConfig())
        (message,) = blocker.args
        assert "tokenizer exploded on segment 65" in message
        assert "ValueError" in message
        assert not controller.running
        assert table.n_done == 64  # the chunk before the failure stays
        # The controller is still usable afterwards.
        controller_ok = ScoringController()
        try:
            with qtbot.waitSignal(controller_ok.scoring_finished, timeout=60_000):
                controller_ok.start(sample_text, ScoringConfig())
        finally:
            controller_ok.shutdown()
    finally:
        controller.shutdown()


def test_shutdown_cancels_quits_and_waits(qtbot, big_text):
    controller = ScoringController()
    with qtbot.waitSignal(controller.chunk_ready, timeout=60_000):
        controller.start(big_text, ScoringConfig())
    controller.shutdown()
    assert controller.scoring_thread.isFinished()
    assert not controller.running
    controller.shutdown()  # idempotent
    with pytest.raises(RuntimeError, match="shut down"):
        controller.start(big_text, ScoringConfig())


def test_cancel_when_idle_emits_nothing(qtbot, controller):
    with qtbot.assertNotEmitted(controller.scoring_cancelled, wait=20):
        controller.cancel()
    assert controller.table is None


def test_failure_messages_are_user_facing():
    from matchlight.core.scoring.config import ConfigError

    assert describe_failure(ConfigError("max_order must be 1 to 9, not 12")).startswith(
        "The scoring settings are invalid: max_order"
    )
    assert describe_failure(MemoryError()) == (
        "Scoring ran out of memory. Try fewer systems or a smaller file."
    )
    assert describe_failure(KeyError("x")) == "Scoring failed: 'x' (KeyError)."


def test_garbage_is_collected_in_the_gui_thread_only(qtbot, big_text):
    """Cyclic GC in the scoring thread would destroy Qt objects from the wrong thread."""
    threads: list[str] = []

    def record(phase: str, info: dict) -> None:
        if phase == "start":
            threads.append(threading.current_thread().name)

    controller = ScoringController(chunk_size=512)
    gc.callbacks.append(record)
    try:
        assert not gc.isenabled()
        with qtbot.waitSignal(controller.progress_changed, timeout=60_000):
            controller.start(big_text, ScoringConfig())
        # Let the worker allocate plenty (thousands of chunks' worth of objects)...
        qtbot.waitUntil(lambda: controller.table.n_done >= 4000, timeout=60_000)
        # ...and make garbage cycles in the GUI thread, which the timer collects.
        for _ in range(5000):
            cycle: list[object] = []
            cycle.append(cycle)
        del cycle
        qtbot.waitUntil(lambda: len(threads) > 0, timeout=10_000)
        controller.cancel()
    finally:
        gc.callbacks.remove(record)
        controller.shutdown()
    assert set(threads) == {threading.main_thread().name}


def test_a_table_made_beforehand_is_filled_if_it_fits(qtbot, controller, sample_text):
    config = ScoringConfig()
    ready = empty_table(sample_text, config)
    with qtbot.waitSignal(controller.scoring_finished, timeout=60_000):
        assert controller.start(sample_text, config, ready) is ready
    np.testing.assert_array_equal(ready.scores, score_corpus(sample_text, config).scores)
    # A table for other settings, or one already filled, is refused.
    with pytest.raises(ValueError, match="not made for"):
        controller.start(
            sample_text, config.with_settings("bleu", max_order=2), empty_table(sample_text, config)
        )
    with pytest.raises(ValueError, match="not made for"):
        controller.start(sample_text, config, ready)


def test_chunks_handed_to_an_apply_of_its_own_make_no_table(qtbot, controller, sample_text):
    """Resuming scoring hands the chunks to the session: no table of the rows is made for
    nothing (over a million rows, an allocation the GUI thread would wait for)."""
    config = ScoringConfig()
    into = empty_table(sample_text, config)
    progress: list[tuple[int, int]] = []
    controller.progress_changed.connect(lambda done, total: progress.append((done, total)))
    with qtbot.waitSignal(controller.scoring_finished, timeout=60_000):
        assert controller.start(sample_text, config, apply=into.apply) is None
    assert controller.table is None
    assert into.complete
    np.testing.assert_array_equal(into.scores, score_corpus(sample_text, config).scores)
    n = len(sample_text)
    assert progress[0] == (0, n) and progress[-1] == (n, n)


def test_no_collection_walks_what_a_worker_builds_and_it_is_frozen_once_done(qtbot):
    """A read (or a search cache) makes tuples of a million lines: a garbage collection pass
    walks each of them once, a stall of a second in the GUI thread. None runs while the worker
    builds them; once it is done, they are frozen (exempt from every pass) before the next."""
    from matchlight.gui.workers import controller as module
    from matchlight.gui.workers.loader import BackgroundCall

    module.ensure_main_thread_gc()
    guard = module._gc_guard
    built: list[tuple[str, ...]] = []
    go_on = threading.Event()

    def work(_cancel: threading.Event) -> None:
        built.append(tuple(f"line {i}" for i in range(50_000)))
        go_on.wait(30)

    passes: list[int] = []

    def record(phase: str, info: dict) -> None:
        if phase == "start":
            passes.append(info["generation"])

    call = BackgroundCall(work, name="test-builds")
    call.start()
    module.hold_collection_while(call)
    gc.callbacks.append(record)
    try:
        qtbot.waitUntil(lambda: bool(built), timeout=30_000)
        garbage = [[]]
        garbage[0].append(garbage)  # a cycle: a pass would collect it
        del garbage
        for _ in range(3):
            guard.check()
        assert guard.holding() and passes == []  # held back while the worker runs
        go_on.set()
        qtbot.waitUntil(lambda: not call.running, timeout=30_000)
        guard.check()
        assert not guard.holding()
        big = built[0]
        assert gc.is_tracked(big)  # never walked (a pass untracks a tuple of strings)...
        assert not any(o is big for o in gc.get_objects())  # ...and frozen
    finally:
        gc.callbacks.remove(record)
        go_on.set()
        gc.unfreeze()


@pytest.mark.skipif(sys.platform != "linux", reason="only Linux gives each thread a niceness")
def test_the_scoring_thread_runs_nicer_than_the_gui_thread(qtbot, sample_text):
    """Its work (and the worker pool's threads it starts) lets the GUI thread have a core first."""
    from matchlight.core.scoring.engine import iter_score_chunks
    from matchlight.gui.workers.pacing import THREAD_NICENESS

    seen: list[int] = []

    def source(text, config, **kwargs):
        seen.append(os.getpriority(os.PRIO_PROCESS, threading.get_native_id()))
        return iter_score_chunks(text, config, chunk_size=kwargs["chunk_size"])

    controller = ScoringController(chunk_source=source)
    try:
        with qtbot.waitSignal(controller.scoring_finished, timeout=60_000):
            controller.start(sample_text, ScoringConfig())
        main = os.getpriority(os.PRIO_PROCESS, os.getpid())
        assert seen == [min(main + THREAD_NICENESS, 19)]
    finally:
        controller.shutdown()
