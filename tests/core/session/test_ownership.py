"""A session file is only written while it is ours: one writer at a time, never into a file that
was deleted, moved, replaced or overwritten, never into a read-only file; a full disk keeps the
edits. Each case here was measured on an earlier tree as losing work or raising a traceback."""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
import sys
import threading
from collections.abc import Callable
from pathlib import Path

import pytest

from matchlight.core.annotation.history import AddSpan
from matchlight.core.annotation.model import ErrorSpan, SegmentScore
from matchlight.core.annotation.workspace import AnnotationWorkspace
from matchlight.core.session.ownership import held_elsewhere
from matchlight.core.session.store import SessionError, SessionInput, SessionStore

LINE = "Wir sehen Licht, das vom Mond reflektiert wird."


def span(n: int, note: str = "") -> ErrorSpan:
    start = n % 20
    return ErrorSpan.create(
        system="S",
        segment=0,
        line=LINE,
        start=start,
        end=start + 3,
        category="Style",
        severity="minor",
        annotator="ann",
        note=note,
    )


def make(folder: Path, name: str = "s.matchlight") -> SessionStore:
    hyp = folder / "S.txt"
    if not hyp.exists():
        hyp.write_text(LINE + "\n", encoding="utf-8")
    return SessionStore.create(
        folder / name, inputs=[SessionInput.from_file(hyp, role="system", name="S")], settings={}
    )


def within(seconds: float, call: Callable[[], object]) -> object:
    """``call()``'s result, failing (instead of hanging the suite) if it takes longer."""
    box: dict[str, object] = {}

    def target() -> None:
        try:
            box["value"] = call()
        except BaseException as exc:  # handed to the test
            box["error"] = exc

    thread = threading.Thread(target=target, daemon=True)
    thread.start()
    thread.join(seconds)
    assert not thread.is_alive(), f"still running after {seconds} s"
    if "error" in box:
        raise box["error"]  # type: ignore[misc]
    return box.get("value")


def holder(path: Path) -> subprocess.Popen[str]:
    """Another process that opens ``path`` for writing and waits."""
    code = (
        "import sys\n"
        "from matchlight.core.session.store import SessionStore\n"
        f"s = SessionStore.open({str(path)!r})\n"
        "print('open', flush=True)\n"
        "sys.stdin.read()\n"
    )
    proc = subprocess.Popen(
        [sys.executable, "-c", code], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )
    assert proc.stdout is not None and proc.stdout.readline() == "open\n"
    return proc


# -- one writer --------------------------------------------------------------------------------


def test_the_lock_survives_another_process_closing_its_copy(tmp_path: Path) -> None:
    """Two processes could open one session; closing one copy removed the "open elsewhere"
    mark, so a third open succeeded."""
    path = tmp_path / "s.matchlight"
    make(tmp_path).close()
    first = holder(path)
    try:
        with pytest.raises(SessionError, match="open in another Matchlight window") as refused:
            SessionStore.open(path)
        assert refused.value.kind == "busy"
        # Another window looks at it (a read-only open, a private copy) and closes again.
        SessionStore.open(path, read_only=True).close()
        SessionStore.open_copy_read_only(path).close()
        with pytest.raises(SessionError, match="open in another Matchlight window"):
            SessionStore.open(path)
        assert held_elsewhere(path)
    finally:
        first.communicate("", timeout=30)
    assert not held_elsewhere(path)
    SessionStore.open(path).close()


def test_a_second_store_in_the_same_process_is_refused(tmp_path: Path) -> None:
    with make(tmp_path) as store:
        with pytest.raises(SessionError, match="open in another Matchlight window"):
            SessionStore.open(store.path)
        store.add_span(span(1))  # the first is untouched
        assert store.count_spans() == 1


# -- still ours --------------------------------------------------------------------------------


def test_a_deleted_session_is_not_written_and_the_edits_stay_in_memory(tmp_path: Path) -> None:
    """Five edits were reported saved into a deleted file, then gone."""
    store = make(tmp_path)
    ws = AnnotationWorkspace(systems=("S",), n_segments=1, sink=store)
    ws.execute(AddSpan(span(0)))
    store.path.unlink()
    for n in range(1, 6):
        ws.execute(AddSpan(span(n, note=str(n))))
    assert len(ws) == 6 and ws.unsaved == 5
    assert isinstance(ws.sink_error, SessionError) and ws.sink_error.kind == "lost"
    assert "deleted or moved away" in str(ws.sink_error)
    assert store.lost is not None
    assert not store.path.exists()  # nothing was written at the old name
    # Save as keeps all six, from memory.
    saved = make(tmp_path, "rescued.matchlight")
    saved.add_many(ws.spans(), ws.scores())
    ws.set_sink(saved)
    assert ws.unsaved == 0 and saved.count_spans() == 6
    store.close()
    saved.close()


def test_a_session_replaced_by_rename_keeps_the_other_file_intact(tmp_path: Path) -> None:
    """Replaced by rename, the old log was applied to the new file (3 spans showed as 8)."""
    other = make(tmp_path, "other.matchlight")
    for n in range(3):
        other.add_span(span(n))
    other.close()
    store = make(tmp_path)
    ws = AnnotationWorkspace(systems=("S",), n_segments=1, sink=store)
    for n in range(8):
        ws.execute(AddSpan(span(n)))
    os.replace(tmp_path / "other.matchlight", store.path)
    ws.execute(AddSpan(span(9)))
    assert ws.unsaved == 1 and "replaced by another file" in str(ws.sink_error)
    store.close()
    with SessionStore.open(store.path) as reopened:
        assert reopened.integrity_check() == ["ok"]
        assert reopened.count_spans() == 3


def test_a_session_overwritten_by_cp_is_left_as_copied(tmp_path: Path) -> None:
    """Replaced by ``cp`` (same inode, new content), the old store overwrote it."""
    other = make(tmp_path, "other.matchlight")
    for n in range(3):
        other.add_span(span(n))
    other.close()
    store = make(tmp_path)
    ws = AnnotationWorkspace(systems=("S",), n_segments=1, sink=store)
    for n in range(8):
        ws.execute(AddSpan(span(n)))
    # The edits on the disk first: a file written over while the flusher's pass is writing
    # into it is a collision no check can see (the pass notes the file as it finds it after).
    store.sync()
    inode = store.path.stat().st_ino
    shutil.copyfile(tmp_path / "other.matchlight", store.path)
    assert store.path.stat().st_ino == inode
    copied = store.path.read_bytes()
    ws.execute(AddSpan(span(9)))
    assert ws.unsaved == 1 and "changed by another program" in str(ws.sink_error)
    store.close()
    assert store.path.read_bytes() == copied
    with SessionStore.open(store.path) as reopened:
        assert reopened.integrity_check() == ["ok"] and reopened.count_spans() == 3


def test_a_session_moved_away_can_be_checked_between_edits(tmp_path: Path) -> None:
    with make(tmp_path) as store:
        store.add_span(span(0))
        assert store.check_ours() is None
        store.path.rename(tmp_path / "moved.matchlight")
        assert "deleted or moved away" in (store.check_ours() or "")
        with pytest.raises(SessionError, match="Your edits are kept") as lost:
            store.add_span(span(1))
        assert lost.value.kind == "lost"
    with SessionStore.open(tmp_path / "moved.matchlight") as moved:
        assert moved.count_spans() == 1


# -- read-only files, full disks ----------------------------------------------------------------


def test_a_read_only_session_is_refused_for_writing_untouched(tmp_path: Path) -> None:
    """A 0444 session raised a raw OperationalError and left -wal/-shm files behind."""
    make(tmp_path).close()
    path = tmp_path / "s.matchlight"
    path.chmod(0o444)
    before = sorted(p.name for p in tmp_path.iterdir())
    with pytest.raises(SessionError, match="cannot be saved to: the file is read-only") as error:
        SessionStore.open(path)
    assert error.value.kind == "read-only" and error.value.copy_helps
    assert sorted(p.name for p in tmp_path.iterdir()) == before
    with SessionStore.open_copy_read_only(path) as copy:
        assert copy.read_only and copy.origin == path and copy.count_spans() == 0


def in_private_mounts(setup: str, code: str) -> subprocess.CompletedProcess[str]:
    """Run ``code`` in Python after the shell commands ``setup``, in a mount namespace of its own
    (so a read-only or tiny file system is seen by that process only); skips where this
    machine does not allow it."""
    if shutil.which("unshare") is None or shutil.which("mount") is None:
        pytest.skip("needs unshare and mount")
    probe = subprocess.run(
        ["unshare", "-m", "--propagation", "private", "true"], capture_output=True, check=False
    )
    if probe.returncode != 0:
        pytest.skip("this machine does not allow a private mount namespace")
    script = f'{setup} && exec {sys.executable} -c "$0"'
    return subprocess.run(
        ["unshare", "-m", "--propagation", "private", "sh", "-c", script, code],
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )


def test_a_session_on_a_read_only_mount_is_refused_untouched(tmp_path: Path) -> None:
    """A read-only mount gave a raw OperationalError; now a message, and a copy can be read."""
    folder = tmp_path / "media"
    folder.mkdir()
    with make(folder) as store:
        store.add_span(span(0))
    before = sorted(p.name for p in folder.iterdir())
    code = (
        "from matchlight.core.session.store import SessionError, SessionStore\n"
        f"path = {str(folder / 's.matchlight')!r}\n"
        "try:\n"
        "    SessionStore.open(path)\n"
        "except SessionError as e:\n"
        "    print(e.kind, '|', e.problem)\n"
        "with SessionStore.open_copy_read_only(path) as copy:\n"
        "    print('copy', copy.count_spans())\n"
        "with SessionStore.open(path, read_only=True) as ro:\n"
        "    print('read-only', ro.count_spans())\n"
    )
    result = in_private_mounts(
        f"mount --bind {folder} {folder} && mount -o remount,bind,ro {folder}", code
    )
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0] == (
        "read-only | this session cannot be saved to: it is on a read-only file system. Open "
        "a read-only copy to see it, and use Save as to keep working on it."
    )
    assert lines[1:] == ["copy 1", "read-only 1"]
    assert sorted(p.name for p in folder.iterdir()) == before


def test_a_really_full_disk_keeps_the_edit(tmp_path: Path) -> None:
    """On a tiny file system filled up: the edit is kept in memory, the message says the disk is
    full, the file stays sound and every edit reported saved is in it."""
    folder = tmp_path / "tiny"
    folder.mkdir()
    code = (
        "import os\n"
        "from matchlight.core.annotation.history import AddSpan\n"
        "from matchlight.core.annotation.workspace import AnnotationWorkspace\n"
        "from matchlight.core.annotation.model import ErrorSpan\n"
        "from matchlight.core.session.store import SessionInput, SessionStore\n"
        f"folder = {str(folder)!r}\n"
        f"line = {LINE!r}\n"
        "hyp = os.path.join(folder, 'S.txt')\n"
        "open(hyp, 'w').write(line + '\\n')\n"
        "store = SessionStore.create(os.path.join(folder, 's.matchlight'),\n"
        "    inputs=[SessionInput.from_file(hyp, role='system', name='S')], settings={})\n"
        "ws = AnnotationWorkspace(systems=('S',), n_segments=1, sink=store)\n"
        "def span(n):\n"
        "    return ErrorSpan.create(system='S', segment=0, line=line, start=0, end=3,\n"
        "        category='Style', severity='minor', annotator='a', note=str(n) * 3000)\n"
        "fd = os.open(os.path.join(folder, 'filler'), os.O_WRONLY | os.O_CREAT)\n"
        "try:\n"
        "    while True:\n"
        "        os.write(fd, b'x' * 1024)\n"
        "except OSError:\n"
        "    os.close(fd)\n"
        "n = 0\n"
        "while ws.unsaved == 0 and n < 200:\n"
        "    ws.execute(AddSpan(span(n))); n += 1\n"
        "print(ws.sink_error.kind, '|', ws.sink_error.problem)\n"
        "saved = n - ws.unsaved\n"
        "os.remove(os.path.join(folder, 'filler'))\n"
        "print('retry', ws.retry_unsaved(), store.count_spans() == n, store.integrity_check())\n"
        "store.close()\n"
    )
    result = in_private_mounts(f"mount -t tmpfs -o size=512k tmpfs {folder}", code)
    assert result.returncode == 0, result.stderr
    first, second = result.stdout.splitlines()
    assert first.startswith("disk-full | the disk is full; the edit is kept in memory"), first
    assert second == "retry True True ['ok']"


def test_a_full_disk_keeps_the_edit_and_says_so(tmp_path: Path) -> None:
    """A full disk was hidden behind the store's own failed ROLLBACK; the edit was lost."""
    store = make(tmp_path)
    ws = AnnotationWorkspace(systems=("S",), n_segments=1, sink=store)
    ws.execute(AddSpan(span(0)))
    pages = store._conn.execute("PRAGMA page_count").fetchone()[0]
    store._conn.execute(f"PRAGMA max_page_count={pages}")  # the file can grow no more
    ws.execute(AddSpan(span(1, note="x" * 20_000)))  # needs new pages
    assert ws.unsaved == 1
    error = ws.sink_error
    assert isinstance(error, SessionError) and error.kind == "disk-full"
    assert "the disk is full" in str(error) and "kept" in str(error)
    assert not ws.retry_unsaved() and ws.unsaved == 1  # still full
    store._conn.execute("PRAGMA max_page_count=1073741823")  # room again
    assert ws.retry_unsaved() and ws.unsaved == 0
    assert store.count_spans() == 2 and store.integrity_check() == ["ok"]
    store.close()


# -- not a regular file ---------------------------------------------------------------------------


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_a_fifo_named_as_a_session_is_refused_at_once(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe.matchlight"
    os.mkfifo(fifo)
    for opener in (SessionStore.open, SessionStore.open_copy_read_only):
        with pytest.raises(SessionError, match="named pipe") as error:
            within(5, lambda o=opener: o(fifo))
        assert error.value.kind == "not-session"


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_a_recorded_input_that_became_a_fifo_or_a_device_is_missing_at_once(
    tmp_path: Path,
) -> None:
    """``report --session`` hung forever, the app froze at 100% CPU."""
    with make(tmp_path) as store:
        path = store.path
    hyp = tmp_path / "S.txt"
    hyp.unlink()
    os.mkfifo(hyp)
    with SessionStore.open(path, read_only=True) as store:
        (check,) = within(5, store.check_inputs)  # type: ignore[misc]
    assert check.status == "missing" and "named pipe" in check.problem
    with SessionStore.open(path, read_only=True) as store:
        (check,) = within(5, lambda: store.check_inputs(["/dev/zero"]))  # type: ignore[misc]
    assert check.status == "missing" and "character device" in check.problem


def test_an_sqlite_file_of_another_program_is_untouched(tmp_path: Path) -> None:
    path = tmp_path / "other.matchlight"
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE t (x)")
    conn.commit()
    conn.close()
    before = path.read_bytes()
    with pytest.raises(SessionError, match="another program") as error:
        SessionStore.open(path)
    assert error.value.kind == "not-session" and not error.value.copy_helps
    assert path.read_bytes() == before


def test_hostile_json_in_a_session_is_a_message(tmp_path: Path) -> None:
    """Deep nesting and huge numbers in a session raised RecursionError and OverflowError."""
    with make(tmp_path) as store:
        store.set_segment_score(SegmentScore("S", 0, "ann", 50.0))
        path = store.path
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("UPDATE meta SET value=? WHERE key='layout'", ("[" * 100_000 + "]" * 100_000,))
    conn.execute("UPDATE meta SET value=? WHERE key='settings'", ('{"x": ' + "9" * 5000 + "}",))
    conn.execute("UPDATE segment_scores SET extra=?", ('{"a": 1e999}',))
    conn.close()
    with SessionStore.open(path, read_only=True) as store:
        with pytest.raises(SessionError, match="settings are unreadable") as error:
            store.state()
        assert error.value.kind == "damaged"
        with pytest.raises(SessionError, match="segment scores are unreadable"):
            store.segment_scores()
