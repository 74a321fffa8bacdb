"""The session's flusher: a commit returns without waiting on the disk, and a thread of the
store's own fsyncs the log and moves it into the file a moment later (core/session/flusher.py).

What is checked: the log really is fsynced (os.fsync counted on the ``-wal`` file), the file
alone (without its log) holds every edit once the flusher has passed, closing the store waits
for the pass in progress, and a file that stopped being the session's between a commit and the
pass never gets the log (moved away: the moved file takes it; overwritten in place: dropped).
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

import matchlight.core.session.flusher as flusher_module
from matchlight.core.session.files import SessionError
from matchlight.core.session.store import SessionStore
from tests.core.session.test_ownership import make, span


def spans_in_file_alone(path: Path, scratch: Path) -> int:
    """The spans the main file holds by itself: a copy of it without its log, opened as is."""
    scratch.mkdir(exist_ok=True)
    copy = scratch / "alone.db"
    shutil.copyfile(path, copy)
    conn = sqlite3.connect(f"file:{copy}?immutable=1", uri=True)
    try:
        return int(conn.execute("SELECT count(*) FROM spans").fetchone()[0])
    finally:
        conn.close()


def assert_kept_as_copied(store: SessionStore, copied: bytes) -> None:
    """Once the flusher's pass is through, the store is lost ("changed"), and neither the pass
    nor closing put anything into the file copied over it (``copied``: its bytes): it opens as
    the other session, its three spans and nothing more."""
    store.sync()
    assert "changed by another program" in (store.lost or "")
    store.close()
    assert store.path.read_bytes() == copied
    with SessionStore.open(store.path) as reopened:
        assert reopened.integrity_check() == ["ok"] and reopened.count_spans() == 3


@pytest.fixture
def fsyncs(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[Path]]:
    """The files os.fsync was called on (by any thread), by path."""
    called: list[Path] = []
    real = os.fsync

    def counting(fd: int) -> None:
        called.append(Path(os.readlink(f"/proc/self/fd/{fd}")))
        real(fd)

    monkeypatch.setattr(os, "fsync", counting)
    yield called


@pytest.fixture
def gate(monkeypatch: pytest.MonkeyPatch) -> Iterator[threading.Event]:
    """Once cleared, holds every flusher pass until set again (a commit, then something
    else, then the pass)."""
    event = threading.Event()
    event.set()
    real = flusher_module.Flusher._pass

    def held(self: flusher_module.Flusher) -> None:
        event.wait(30)
        real(self)

    monkeypatch.setattr(flusher_module.Flusher, "_pass", held)
    yield event
    event.set()


@pytest.mark.skipif(not os.path.isdir("/proc/self/fd"), reason="names descriptors via /proc")
def test_the_flusher_fsyncs_the_log_and_moves_it_into_the_file(tmp_path: Path, fsyncs) -> None:
    with make(tmp_path) as store:
        wal = Path(str(store.path) + "-wal")
        for n in range(5):
            store.add_span(span(n))
        store.sync()
        assert wal.resolve() in fsyncs
        assert wal.stat().st_size == 0  # moved into the file and emptied
        assert spans_in_file_alone(store.path, tmp_path / "scratch") == 5
        store.add_span(span(5))
        store.sync()
        assert spans_in_file_alone(store.path, tmp_path / "scratch") == 6


def test_a_commit_does_not_wait_for_the_flusher(tmp_path: Path, gate) -> None:
    """With the flusher held, edits still go through (into the log): reading them back, and a
    second connection, see them; the file alone does not yet."""
    with make(tmp_path) as store:
        store.sync()
        before = spans_in_file_alone(store.path, tmp_path / "scratch")
        gate.clear()
        store.add_span(span(0))
        assert store.count_spans() == 1
        other = sqlite3.connect(store.path)
        try:
            assert other.execute("SELECT count(*) FROM spans").fetchone()[0] == 1
        finally:
            other.close()
        assert spans_in_file_alone(store.path, tmp_path / "scratch") == before == 0
        gate.set()
        store.sync()
        assert spans_in_file_alone(store.path, tmp_path / "scratch") == 1


@pytest.mark.skipif(not os.path.isdir("/proc/self/fd"), reason="names descriptors via /proc")
def test_closing_the_store_waits_for_the_flusher(tmp_path: Path, fsyncs, gate) -> None:
    store = make(tmp_path)
    gate.clear()
    store.add_span(span(0))
    store.add_span(span(1))
    flusher = store._flusher
    assert flusher is not None and flusher._thread.is_alive()
    threading.Timer(0.2, gate.set).start()  # the pass is let go while close() waits for it
    store.close()
    assert gate.is_set()
    assert Path(str(store.path) + "-wal").resolve() in fsyncs
    # This store's thread (other tests' stores may still have theirs).
    assert not flusher._thread.is_alive()
    assert spans_in_file_alone(store.path, tmp_path / "scratch") == 2


def test_a_session_moved_away_before_the_pass_keeps_its_edits(tmp_path: Path, gate) -> None:
    store = make(tmp_path)
    gate.clear()
    store.add_span(span(0))  # committed into the log; the pass waits
    moved = tmp_path / "moved.matchlight"
    store.path.rename(moved)
    gate.set()
    store.sync()
    assert "moved away" in (store.lost or "")
    store.close()
    with SessionStore.open(moved) as reopened:
        assert reopened.count_spans() == 1 and reopened.integrity_check() == ["ok"]


def test_a_session_overwritten_before_the_pass_gets_nothing_more(tmp_path: Path, gate) -> None:
    """``cp`` over the file between a commit and the flusher's pass: the log is dropped, so
    neither the pass, nor closing, nor the next open puts the edit into the copied file."""
    other = make(tmp_path, "other.matchlight")
    for n in range(3):
        other.add_span(span(n))
    other.close()
    store = make(tmp_path)
    gate.clear()
    store.add_span(span(7))  # into the log; the pass waits
    inode = store.path.stat().st_ino
    shutil.copyfile(tmp_path / "other.matchlight", store.path)
    assert store.path.stat().st_ino == inode
    copied = store.path.read_bytes()
    gate.set()
    assert_kept_as_copied(store, copied)


@pytest.fixture
def inside_pass(
    monkeypatch: pytest.MonkeyPatch,
) -> Iterator[tuple[threading.Event, threading.Event]]:
    """(entered, leave): a flusher pass, once in the file (its lock held), says so through
    ``entered`` and stays there until ``leave`` is set (a long checkpoint after an import)."""
    entered, leave = threading.Event(), threading.Event()
    real = flusher_module.Flusher._pass

    def slow(self: flusher_module.Flusher) -> None:
        with self.file_lock:
            entered.set()
            leave.wait(120)  # longer than any guard below: a wait for it shows as one
        real(self)

    monkeypatch.setattr(flusher_module.Flusher, "_pass", slow)
    yield entered, leave
    leave.set()


def test_an_edit_does_not_wait_for_a_pass_in_the_file(tmp_path: Path, inside_pass) -> None:
    """While a pass holds the file, the next edit commits (into the log) without waiting for
    it; once the pass is through, the file alone holds both edits."""
    entered, leave = inside_pass
    with make(tmp_path) as store:
        store.add_span(span(0))
        assert entered.wait(30)
        edit = threading.Thread(target=store.add_span, args=(span(1),))
        edit.start()
        edit.join(30)  # a guard: waiting for the pass, it would wait until ``leave``
        went_through = not edit.is_alive()
        leave.set()
        edit.join()
        assert went_through
        assert store.count_spans() == 2 and store.lost is None
        store.sync()
        assert spans_in_file_alone(store.path, tmp_path / "scratch") == 2


def test_a_file_overwritten_during_a_pass_gets_no_later_edit(tmp_path: Path, inside_pass) -> None:
    """``cp`` over the file while a pass holds it, then an edit (not checked: the pass is in
    the file, so it goes into the log): the pass finds the file changed before it moves
    anything into it, and neither edit ever reaches the copied file."""
    entered, leave = inside_pass
    leave.set()  # the other session's passes go straight through
    other = make(tmp_path, "other.matchlight")
    for n in range(3):
        other.add_span(span(n))
    other.close()
    leave.clear()
    entered.clear()
    store = make(tmp_path)
    store.add_span(span(0))
    assert entered.wait(30)
    shutil.copyfile(tmp_path / "other.matchlight", store.path)
    copied = store.path.read_bytes()
    store.add_span(span(7))
    assert store.lost is None  # not looked at yet
    leave.set()
    assert_kept_as_copied(store, copied)


def test_a_file_deleted_during_a_pass_takes_no_edit(tmp_path: Path, inside_pass) -> None:
    """While a pass is in the file, the edit does not wait for it, yet still finds the file
    deleted: the edit is refused (kept in memory by the caller), never committed into a log
    nobody will read."""
    entered, leave = inside_pass
    with make(tmp_path) as store:
        store.add_span(span(0))
        assert entered.wait(30)
        store.path.unlink()
        with pytest.raises(SessionError, match="deleted or moved away"):
            store.add_span(span(1))
        leave.set()
        assert store.count_spans() == 1
