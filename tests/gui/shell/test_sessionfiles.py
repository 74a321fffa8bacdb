"""The app's session file never loses work: a session deleted, replaced or overwritten while
open, a full disk, a read-only file, a second window, a recorded input that became a FIFO. Each
case was measured on an earlier tree as edits reported saved and then lost, a write into someone
else's file, a frozen window or a traceback."""

from __future__ import annotations

import os
import shutil
import stat
import threading
from pathlib import Path

import pytest

import matchlight.core.session.flusher as flusher_module
from matchlight.core.annotation.model import Status
from matchlight.core.session.inputs import SessionInput
from matchlight.core.session.locations import RECOVERY_ENV
from matchlight.core.session.store import SessionStore
from tests.gui.annotate.annotatekit import TIMEOUT, Harness, add, small_specs, wait_scored


@pytest.fixture
def recovery(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "recovery"
    monkeypatch.setenv(RECOVERY_ENV, str(folder))
    return folder


@pytest.fixture
def small(qtbot, tmp_path: Path, recovery: Path):
    h = Harness(qtbot, tmp_path)
    h.window.show()
    h.open(small_specs(tmp_path / "data"))
    yield h
    h.window.close()


def saved(h: Harness, tmp_path: Path, spans: int = 3) -> Path:
    """A named session holding ``spans`` errors."""
    for k in range(spans):  # six segments: a second span in a segment goes further along
        start = 4 * (k // 6)
        assert add(h.c, 0, k % 6, start, start + 3, "minor", "Style") is not None, h.c.message
    path = tmp_path / "work.matchlight"
    assert h.s.save_session_as(path) == path
    return path


def spans_in(path: Path) -> int:
    with SessionStore.open_copy_read_only(path) as copy:
        return copy.count_spans()


def test_a_session_deleted_while_open_keeps_every_edit(small, tmp_path):
    """Five edits were reported saved into a deleted file, then gone, nothing said."""
    h = small
    path = saved(h, tmp_path, spans=3)
    path.unlink()
    for k in range(3, 6):
        assert add(h.c, 0, k, 0, 3, "major", "Accuracy") is not None
    ws = h.c.workspace
    assert len(ws) == 6 and ws.unsaved == 3
    ((title, message),) = h.offers  # told once, and offered Save as
    assert "not in the session file" in title and "deleted or moved away" in message
    assert "NOT SAVED" in h.s.status_label.text()
    assert not path.exists()
    rescued = tmp_path / "rescued.matchlight"
    assert h.s.save_session_as(rescued) == rescued
    assert spans_in(rescued) == 6 and ws.unsaved == 0
    assert h.s.status_label.text() == "Session: rescued.matchlight"
    assert add(h.c, 0, 5, 4, 7, "minor", "Style") is not None
    assert spans_in(rescued) == 7


def test_a_session_replaced_by_rename_is_left_as_it_is_now(small, tmp_path):
    """Replaced by rename, the old log was applied to the new file (3 spans showed as 8)."""
    h = small
    path = saved(h, tmp_path, spans=8)
    other = tmp_path / "other.matchlight"
    shutil.copy(path, other)
    with SessionStore.open(other) as store:
        for span in store.spans()[3:]:
            store.delete_span(span.id)
    replacement = other.read_bytes()
    os.replace(other, path)
    # Found out between edits, by the window's watch, before anything is written.
    h.qtbot.waitUntil(lambda: bool(h.offers), timeout=TIMEOUT)
    assert "replaced by another file" in h.offers[0][1]
    assert add(h.c, 0, 5, 4, 7, "minor", "Style") is not None
    assert h.c.workspace.unsaved == 1 and len(h.c.workspace) == 9
    assert path.read_bytes() == replacement and spans_in(path) == 3


def test_a_session_overwritten_by_cp_is_never_written_again(small, tmp_path):
    h = small
    path = saved(h, tmp_path, spans=8)
    other = tmp_path / "other.matchlight"
    shutil.copy(path, other)
    with SessionStore.open(other) as store:
        for span in store.spans()[2:]:
            store.delete_span(span.id)
    shutil.copyfile(other, path)  # same inode, other content
    copied = path.read_bytes()
    assert add(h.c, 0, 5, 4, 7, "minor", "Style") is not None
    # Found by the write's check or by the window's watch, whichever comes first: the watch
    # can find it a moment after the edit returns.
    h.qtbot.waitUntil(lambda: bool(h.offers), timeout=TIMEOUT)
    assert "changed by another program" in h.offers[0][1]
    h.window.close()  # closing writes nothing into it either
    assert path.read_bytes() == copied and spans_in(path) == 2


def test_a_full_disk_keeps_the_edits_and_writes_them_when_there_is_room(small, tmp_path):
    h = small
    path = saved(h, tmp_path, spans=1)
    store = h.s.store
    pages = store._conn.execute("PRAGMA page_count").fetchone()[0]
    store._conn.execute(f"PRAGMA max_page_count={pages}")  # no room for another page
    long_note = "x" * 20_000
    span = h.c.add_span(start=0, end=3, severity="minor", category="Style", note=long_note)
    assert span is not None and h.c.workspace.unsaved == 1
    assert "the disk is full" in h.offers[0][1]
    assert "not saved yet" in h.s.status_label.text()
    store._conn.execute("PRAGMA max_page_count=1073741823")
    h.qtbot.waitUntil(lambda: h.c.workspace.unsaved == 0, timeout=15_000)  # retried
    assert spans_in(path) == 2
    assert h.s.status_label.text() == "Session: work.matchlight"


def test_a_read_only_session_opens_as_a_copy_and_saves_elsewhere(qtbot, small, tmp_path):
    h = small
    path = saved(h, tmp_path, spans=2)
    h.window.close()
    path.chmod(stat.S_IRUSR | stat.S_IRGRP | stat.S_IROTH)
    before = path.read_bytes()
    other = Harness(qtbot, tmp_path, name="second")
    try:
        other.window.show()
        assert not other.open_session(path)
        box = other.s.refusal_box
        assert box is not None and "read-only" in box.text()
        copy_button = next(b for b in box.buttons() if "read-only copy" in b.text())
        copy_button.click()
        wait_scored(other)
        assert other.s.read_only and len(other.c.workspace) == 2
        assert other.c.add_span(start=0, end=3, severity="minor", category="Style") is None
        target = tmp_path / "mine.matchlight"
        assert other.s.save_session_as(target) == target
        assert other.c.add_span(start=0, end=3, severity="minor", category="Style") is not None
        assert spans_in(target) == 3
    finally:
        other.window.close()
    assert path.read_bytes() == before


def test_a_session_open_in_another_window_is_offered_as_a_copy(qtbot, small, tmp_path):
    h = small
    path = saved(h, tmp_path, spans=1)
    other = Harness(qtbot, tmp_path, name="second")
    try:
        other.window.show()
        assert not other.open_session(path)
        box = other.s.refusal_box
        assert box is not None and "open in another Matchlight window" in box.text()
        # The first window keeps the file: its edits still go in.
        assert add(h.c, 0, 1, 0, 3, "minor", "Style") is not None and h.c.workspace.unsaved == 0
        assert spans_in(path) == 2
    finally:
        other.window.close()
    assert add(h.c, 0, 2, 0, 3, "minor", "Style") is not None  # closing it freed nothing
    assert spans_in(path) == 3


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_a_recorded_input_that_became_a_fifo_is_named_and_nothing_freezes(qtbot, small, tmp_path):
    """The app froze at 100% CPU hashing a FIFO (open_session, check_inputs, file_digest): the
    session is read in a worker now, which names the pipe instead of opening it."""
    h = small
    path = saved(h, tmp_path, spans=1)
    system = Path(h.window.comparison.systems[1].path)
    h.window.close()
    system.unlink()
    os.mkfifo(system)
    other = Harness(qtbot, tmp_path, name="second")
    try:
        other.window.show()
        assert not other.open_session(path)  # waits with the event loop running
        ((_title, message),) = other.errors
        assert "missing" in message and "named pipe" in message and system.name in message
        assert other.window.comparison is None
    finally:
        other.window.close()


def test_an_untitled_session_becomes_rescued_work_after_the_recovery_file_vanishes(small, recovery):
    """The untitled session lives in the recovery folder; a cleaner that removes it does not
    take the annotations with it."""
    h = small
    assert add(h.c, 0, 0, 0, 3, "minor", "Style") is not None
    untitled = h.s.store.path
    assert untitled.parent == recovery
    untitled.unlink()
    assert h.c.set_status(h.c.workspace.spans()[0].id, Status.REJECTED)
    assert h.c.workspace.unsaved == 1 and h.offers


def test_the_first_edit_records_the_inputs_as_they_were_read(qtbot, small, tmp_path):
    """The inputs are hashed from the open on, off the GUI thread, so the first edit does not
    wait for it; and the session records the files as the comparison read them: a file changed
    between the open and the first edit is found changed when the session is opened again."""
    h = small
    hashed = h.s._hashed
    assert hashed is not None
    qtbot.waitUntil(hashed.done, timeout=TIMEOUT)
    system_a = tmp_path / "data" / "sys.A.en"
    as_read = SessionInput.from_file(system_a, role="system", name="A")
    system_a.write_text(system_a.read_text(encoding="utf-8") + "one line more\n", encoding="utf-8")
    path = saved(h, tmp_path, spans=1)
    with SessionStore.open_copy_read_only(path) as copy:
        recorded = {i.name: i for i in copy.inputs()}
    assert (recorded["A"].sha256, recorded["A"].size) == (as_read.sha256, as_read.size)
    assert SessionInput.from_file(system_a, role="system").sha256 != as_read.sha256
    assert {i.role for i in recorded.values()} == {"source", "reference", "system"}


def test_a_session_overwritten_before_the_flushers_pass_is_told(
    qtbot, small, tmp_path, monkeypatch
):
    """``cp`` over the file after an edit's commit and before the flusher's pass: the pass
    finds the file changed (no edit's check saw it) and the watch tells the user, offering
    Save as; the edit is in the workspace, and Save as keeps it."""
    h = small
    path = saved(h, tmp_path, spans=2)
    other = tmp_path / "other.matchlight"
    shutil.copy(path, other)
    store = h.s.store
    assert store is not None
    # No pass of the saving in flight: one running across the cp below would note the copied
    # file as its own (a collision no check can see).
    store.sync()
    gate = threading.Event()
    real = flusher_module.Flusher._pass

    def held(self: flusher_module.Flusher) -> None:
        gate.wait(30)
        real(self)

    monkeypatch.setattr(flusher_module.Flusher, "_pass", held)
    assert add(h.c, 0, 5, 4, 7, "minor", "Style") is not None  # committed; its pass waits
    shutil.copyfile(other, path)
    copied = path.read_bytes()
    gate.set()
    store.sync()  # the pass is through: it found the file changed
    assert "changed by another program" in (store.lost or "") and not h.offers
    h.s.watch.check()  # the watch's next tick
    assert "changed by another program" in h.offers[0][1]
    assert "NOT SAVED" in h.s.status_label.text()
    assert path.read_bytes() == copied
    rescued = tmp_path / "rescued.matchlight"
    assert h.s.save_session_as(rescued) == rescued
    assert spans_in(rescued) == 3
