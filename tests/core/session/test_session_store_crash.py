"""Crash safety: a process making a burst of annotation edits is killed with SIGKILL at a random
moment, 25 times over. After every kill the session must pass ``PRAGMA integrity_check`` and hold
every edit the process reported as committed (it prints an edit's id only after the commit).

Run as a script (``python tests/core/session/test_session_store_crash.py forker``) this file
imports the store once and then forks, for each line ``SESSION FIFO`` it reads, a child that makes
the edits and reports them into the named pipe ``FIFO``: a child is ready at once, instead of
starting Python and importing the store anew each time.
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
EMOJI = "\U0001f600"
RARE_CJK = "\U00020000"
LINES = [
    f"Wir sehen Licht, das vom Mond {EMOJI} reflektiert wird.",
    f"Die Sonne verbrennt unsere {RARE_CJK} periphere Sicht.",
    "Und in der Zeit, seit Galileo das Teleskop auf die Himmelskörper richtete.",
]


def child(path: str) -> None:
    """Edit the session as fast as possible until killed; report each committed edit."""
    from matchlight.core.annotation.model import ErrorSpan, SegmentScore
    from matchlight.core.session.store import SessionStore

    store = SessionStore.open(path)
    me = str(os.getpid())
    print("ready", flush=True)
    previous: ErrorSpan | None = None
    n = 0
    while True:
        segment = n % len(LINES)
        line = LINES[segment]
        start = n % (len(line) - 5)
        span = ErrorSpan.create(
            system="S",
            segment=segment,
            line=line,
            start=start,
            end=start + 4,
            category="Style",
            severity="minor",
            annotator=me,
            note="0",
        )
        store.add_span(span)
        print(f"add {span.id}", flush=True)
        if previous is not None and n % 2:
            store.update_span(previous.edited(note=str(n)))
            print(f"upd {previous.id} {n}", flush=True)
        if n % 3 == 0:  # scores only grow, so a later unreported write can be recognised
            value = min(100.0, n / 10)
            store.set_segment_score(SegmentScore("S", segment, me, value))
            print(f"score {segment} {me} {value}", flush=True)
        previous = span
        n += 1


def forker() -> None:
    """For each ``SESSION FIFO`` line on stdin: fork a :func:`child` editing ``SESSION`` with its
    output in ``FIFO``; print its pid, then, once it has died, its exit code."""
    from matchlight.core.session import store  # noqa: F401 - imported once, before the forks

    for command in sys.stdin:
        path, fifo = command.split()
        pid = os.fork()
        if pid == 0:  # the child: its stdout is the pipe; it never returns
            out = os.open(fifo, os.O_WRONLY)
            os.dup2(out, 1)
            os.close(out)
            sys.stdout = open(1, "w", encoding="utf-8", closefd=False)  # noqa: SIM115
            child(path)
        print(pid, flush=True)
        print(os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1]), flush=True)


def reported(output: str) -> list[list[str]]:
    """The complete lines of the child's output, split into words (a cut last line is dropped)."""
    lines = output.split("\n")
    return [line.split() for line in lines[:-1]]


@pytest.mark.slow  # 25 child processes
@pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs SIGKILL")
def test_sigkill_mid_burst_loses_no_reported_edit(tmp_path: Path) -> None:
    from matchlight.core.session.store import SessionInput, SessionStore

    hyp = tmp_path / "S.txt"
    hyp.write_text("\n".join(LINES) + "\n", encoding="utf-8")
    path = tmp_path / "crash.matchlight"
    SessionStore.create(
        path, inputs=[SessionInput.from_file(hyp, role="system", name="S")], settings={}
    ).close()
    rng = random.Random(20240611)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    total_adds = total_updates = total_scores = 0
    forks = subprocess.Popen(
        [sys.executable, __file__, "forker"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        cwd=ROOT,
        env=env,
    )
    assert forks.stdin is not None and forks.stdout is not None
    try:
        for k in range(25):
            fifo = tmp_path / f"out{k}"
            os.mkfifo(fifo)
            forks.stdin.write(f"{path} {fifo}\n")
            forks.stdin.flush()
            pid = int(forks.stdout.readline())
            with fifo.open(encoding="utf-8") as out:  # the child opens it for writing
                assert out.readline() == "ready\n"
                # Killed at a random moment after a random number of edits (0 to 6), however
                # fast the child goes: 88 edits at least over the 25 kills with this seed.
                seen: list[str] = []
                wanted = rng.randint(0, 6)
                while sum(1 for line in seen if line.startswith("add ")) < wanted:
                    seen.append(out.readline())
                    assert seen[-1], "the child stopped before it was killed"
                time.sleep(rng.uniform(0.0, 0.2))
                os.kill(pid, signal.SIGKILL)
                rest = "".join(seen) + out.read()
            assert forks.stdout.readline() == f"{-signal.SIGKILL}\n"
            total = check_burst(path, reported(rest))
            total_adds += total[0]
            total_updates += total[1]
            total_scores += total[2]
    finally:
        forks.stdin.close()
        forks.wait(timeout=30)
    assert forks.returncode == 0
    assert total_adds > 50 and total_updates > 10 and total_scores > 10


def check_burst(path: Path, events: list[list[str]]) -> tuple[int, int, int]:
    """The session after a kill: sound, and holding every edit ``events`` reported (counted:
    additions, updates, scores)."""
    from matchlight.core.session.store import SessionStore

    total_adds = total_updates = total_scores = 0
    with SessionStore.open(path) as store:
        assert store.integrity_check() == ["ok"]
        spans = {s.id: s for s in store.spans()}
        scores = {(s.system, s.segment, s.annotator): s.score for s in store.segment_scores()}
    latest: dict[str, int] = {}
    latest_score: dict[tuple[str, int, str], float] = {}
    for event in events:
        if event[0] == "add":
            assert event[1] in spans, "a span reported as saved is missing"
            total_adds += 1
        elif event[0] == "upd":
            latest[event[1]] = int(event[2])
            total_updates += 1
        else:
            _, segment, pid, value = event
            latest_score[("S", int(segment), pid)] = float(value)
            total_scores += 1
    for span_id, value in latest.items():
        # The note is the last reported update, or a later one committed before the print.
        assert int(spans[span_id].note) >= value
    for key, score in latest_score.items():
        stored = scores[key]
        assert stored is not None and stored >= score
    return total_adds, total_updates, total_scores


if __name__ == "__main__" and sys.argv[1:] == ["forker"]:
    forker()
