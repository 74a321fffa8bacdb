"""Worker processes die with the process they work for (core.scoring.lifeline).

Each test starts a real process in a session of its own, lets it start its workers (and the
forkserver and resource tracker that come with them), kills it with SIGKILL, and then requires
every process of that session to be gone within 5 s. Processes are found through /proc.
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import select
import signal
import subprocess
import sys
import textwrap
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import ROOT

pytestmark = pytest.mark.skipif(
    not sys.platform.startswith("linux") or not Path("/proc/self/stat").exists(),
    reason="finds processes through Linux's /proc",
)

#: How long the processes left behind by a killed owner may take to exit.
GRACE_SECONDS = 5.0


def _stat(pid: int) -> tuple[str, int] | None:
    """(state, session id) of a process, or None when it is gone."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text(encoding="utf-8", errors="replace")
    except OSError:
        return None
    fields = text[text.rindex(")") + 2 :].split()
    return fields[0], int(fields[3])


def _cmdline(pid: int) -> str:
    try:
        raw = Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return "?"
    return raw.replace(b"\0", b" ").decode("utf-8", errors="replace")[:160]


def session_members(sid: int) -> dict[int, str]:
    """Every live (not zombie) process of session ``sid``, with its command line."""
    members: dict[int, str] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        info = _stat(int(entry))
        if info is not None and info[1] == sid and info[0] not in ("Z", "X"):
            members[int(entry)] = _cmdline(int(entry))
    return members


def wait_until(condition: object, timeout: float, step: float = 0.05) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():  # type: ignore[operator]
            return True
        time.sleep(step)
    return bool(condition())  # type: ignore[operator]


@pytest.fixture
def session() -> Iterator[list[subprocess.Popen[bytes]]]:
    """Processes started by the test, each leading a new session; whatever is left of those
    sessions is killed at the end, whatever the outcome."""
    started: list[subprocess.Popen[bytes]] = []
    yield started
    for proc in started:
        for pid in session_members(proc.pid):
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        proc.kill()
        proc.wait()


def start(
    started: list[subprocess.Popen[bytes]], args: list[str], **kwargs: object
) -> subprocess.Popen[bytes]:
    proc = subprocess.Popen(  # type: ignore[call-overload]
        args, cwd=ROOT, start_new_session=True, **kwargs
    )
    started.append(proc)
    return proc


def read_line(proc: subprocess.Popen[bytes], timeout: float) -> str:
    """One line of ``proc``'s stdout, waiting at most ``timeout`` seconds."""
    assert proc.stdout is not None
    ready, _, _ = select.select([proc.stdout], [], [], timeout)
    assert ready, f"no output within {timeout} s"
    return proc.stdout.readline().decode("utf-8")


def kill_and_expect_no_survivors(proc: subprocess.Popen[bytes]) -> dict[int, str]:
    """SIGKILL ``proc``; require its whole session gone within the grace time. Returns the
    members the session had just before the kill."""
    before = session_members(proc.pid)
    assert proc.pid in before
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    assert wait_until(lambda: not session_members(proc.pid), GRACE_SECONDS), (
        f"still alive {GRACE_SECONDS} s after the kill: {session_members(proc.pid)}"
    )
    return before


# --------------------------------------------------------------------------- end to end


def write_corpus(folder: Path, lines: int) -> tuple[Path, Path]:
    rng = random.Random(7)
    words = [f"w{i}" for i in range(2000)]
    ref, hyp = folder / "ref.txt", folder / "hyp.txt"
    for path in (ref, hyp):
        with path.open("w", encoding="utf-8") as handle:
            for _ in range(lines):
                handle.write(" ".join(rng.choices(words, k=25)) + "\n")
    return ref, hyp


def test_killed_command_line_leaves_no_worker_behind(
    tmp_path: Path, session: list[subprocess.Popen[bytes]]
) -> None:
    ref, hyp = write_corpus(tmp_path, 80_000)
    args = ["-m", "matchlight.gui.shell.launcher", "score", "-r", str(ref), "-s", str(hyp)]
    proc = start(
        session,
        [sys.executable, *args, "--workers", "2", "-q"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    # Scoring has begun once the worker process exists.
    assert wait_until(lambda: len(session_members(proc.pid)) >= 2, 120), (
        f"no worker started (exit status {proc.poll()})"
    )
    assert proc.poll() is None, "the corpus was scored before the kill: make it larger"
    before = kill_and_expect_no_survivors(proc)
    assert len(before) >= 2


GUI_LIKE_OWNER = textwrap.dedent(
    """
    import json, os, sys, threading, time
    from matchlight.core.scoring import engine, lifeline
    from matchlight.core.scoring.config import ScoringConfig
    from matchlight.core.text.corpus import CorpusText

    # A GUI has threads (Qt's), so its workers come from the forkserver, as here.
    threading.Thread(target=time.sleep, args=(3600,), daemon=True).start()
    engine.prestart_worker_server(engine.BACKGROUND_NICENESS)
    pool = engine.background_process_pool(1)  # no initializer of ours runs in its worker
    # Module-level functions only: this script is not importable in the worker.
    worker = [pool.submit(f).result() for f in (os.getpid, os.getppid, lifeline.binding)]
    lines = tuple(" ".join(f"w{(i * 7 + k) % 997}" for k in range(30)) for i in range(200_000))
    text = CorpusText(references=(lines,), systems=(lines[::-1],), system_names=("s",))
    chunks = engine.iter_score_chunks_offloaded(text, ScoringConfig(), workers=2)
    next(chunks)
    next(chunks)  # the scoring workers are running
    print(json.dumps({"worker": worker}), flush=True)
    for _ in chunks:  # still scoring when killed
        pass
    time.sleep(3600)
    """
)


def test_killed_app_leaves_no_forkserver_tracker_or_worker_behind(
    session: list[subprocess.Popen[bytes]],
) -> None:
    proc = start(session, [sys.executable, "-c", GUI_LIKE_OWNER], stdout=subprocess.PIPE)
    report = json.loads(read_line(proc, 120))
    worker_pid, worker_parent, how = report["worker"]
    # The background pool's worker was forked by the forkserver, not by its owner, and is bound
    # to its owner anyway (through the forkserver's preload, without any initializer).
    assert worker_parent != proc.pid
    assert how == "sentinel"
    members = session_members(proc.pid)
    commands = "\n".join(members.values())
    assert "multiprocessing.forkserver" in commands
    assert "multiprocessing.resource_tracker" in commands
    assert worker_pid in members
    assert len(members) >= 5  # owner, forkserver, tracker, background worker, scoring workers
    kill_and_expect_no_survivors(proc)


BACKGROUND_POOL_WITHOUT_THREADS = textwrap.dedent(
    """
    import os, time
    from matchlight.core.scoring import engine

    # A single-threaded owner: the pool forks its worker directly (no forkserver).
    pool = engine.background_process_pool(1)
    print(pool.submit(os.getppid).result() == os.getpid(), flush=True)
    time.sleep(3600)
    """
)


def test_killed_single_threaded_owner_of_a_background_pool_leaves_nothing(
    session: list[subprocess.Popen[bytes]],
) -> None:
    proc = start(
        session, [sys.executable, "-c", BACKGROUND_POOL_WITHOUT_THREADS], stdout=subprocess.PIPE
    )
    assert read_line(proc, 60).strip() == "True"
    kill_and_expect_no_survivors(proc)


# --------------------------------------------------------------------------- the mechanisms

FORKED_CHILD = textwrap.dedent(
    """
    import json, multiprocessing, os, sys, threading, time
    from matchlight.core.scoring import lifeline

    def child(conn):
        # Bound on start (the import's after-fork hook), except when spawned: then by the call,
        # as the scoring workers' initializer does.
        conn.send([lifeline.binding(), lifeline.bind_to_parent()])
        time.sleep(3600)

    if __name__ == "__main__":
        context = multiprocessing.get_context(sys.argv[1])
        receiver, sender = context.Pipe(duplex=False)
        processes = []

        def start():
            process = context.Process(target=child, args=(sender,), daemon=False)
            process.start()
            processes.append(process)

        if sys.argv[2] == "thread":  # forked by a thread that then ends
            thread = threading.Thread(target=start)
            thread.start()
            thread.join()
            time.sleep(1.0)  # a parent-death signal tied to that thread would have fired
        else:
            start()
        how = receiver.recv()
        print(json.dumps([processes[0].pid, how, processes[0].is_alive()]), flush=True)
        time.sleep(3600)
    """
)


@pytest.mark.parametrize(
    ("method", "forker", "on_start", "expected"),
    [
        ("fork", "main", "pdeathsig", "pdeathsig"),
        ("fork", "thread", "sentinel", "sentinel"),
        ("forkserver", "main", "sentinel", "sentinel"),
        ("forkserver", "thread", "sentinel", "sentinel"),
        ("spawn", "thread", None, "sentinel"),
    ],
)
def test_a_multiprocessing_child_dies_with_its_owner(
    tmp_path: Path,
    session: list[subprocess.Popen[bytes]],
    method: str,
    forker: str,
    on_start: str | None,
    expected: str,
) -> None:
    """Importing lifeline binds every multiprocessing child; the parent-death signal only where
    the owner forked it from its main thread (it fires when the forking *thread* exits)."""
    script = tmp_path / "owner.py"  # a file: spawn and forkserver re-import the main module
    script.write_text(FORKED_CHILD, encoding="utf-8")
    proc = start(
        session,
        [sys.executable, str(script), method, forker],
        stdout=subprocess.PIPE,
    )
    child_pid, how, alive = json.loads(read_line(proc, 60))
    assert (how, alive) == ([on_start, expected], True)
    assert child_pid in session_members(proc.pid)
    kill_and_expect_no_survivors(proc)


PLAIN_CHILD = textwrap.dedent(
    """
    import subprocess, sys
    code = (
        "from matchlight.core.scoring import lifeline; import time; "
        "print(lifeline.bind_to_parent(), flush=True); time.sleep(3600)"
    )
    child = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE)
    print(child.pid, child.stdout.readline().decode().strip(), flush=True)
    child.wait()
    """
)


def test_a_process_without_a_multiprocessing_parent_polls_for_its_parent(
    session: list[subprocess.Popen[bytes]],
) -> None:
    proc = start(session, [sys.executable, "-c", PLAIN_CHILD], stdout=subprocess.PIPE)
    pid, how = read_line(proc, 60).split()
    assert how == "poll"
    assert int(pid) in session_members(proc.pid)
    kill_and_expect_no_survivors(proc)


def test_binding_is_idempotent_and_reported() -> None:
    code = (
        "from matchlight.core.scoring import lifeline\n"
        "print(lifeline.binding(), lifeline.bind_to_parent(), lifeline.bind_to_parent(),"
        " lifeline.binding())\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert result.stdout.split() == ["None", "poll", "poll", "poll"]
