"""A large step (an import, its undo, its redo) applied in slices: each slice is small, the
file gets it in one transaction, memory, observers and history see it once, and the result
is exactly what the same step applied at once gives.

Real WMT22 outputs, spans drawn at random on them; a real session file.
"""

from __future__ import annotations

import random
import sqlite3
from pathlib import Path

import pytest

from matchlight.core.annotation.history import AddSpan, Batch, SetSegmentScore
from matchlight.core.annotation.model import SegmentScore, Status
from matchlight.core.annotation.workspace import AnnotationWorkspace
from matchlight.core.session.store import SessionInput, SessionStore
from tests.conftest import SHARED_DATA
from tests.core.annotation.test_workspace_bulk import (
    N_SEGMENTS,
    SYSTEMS,
    Counted,
    assert_same,
    draw,
    state,
)
from tests.kit import data_lines


@pytest.fixture
def lines() -> dict[str, list[str]]:
    return {
        name: data_lines(SHARED_DATA / "wmt22-de-en" / f"sys.{name}.txt")[:N_SEGMENTS]
        for name in SYSTEMS
    }


@pytest.fixture
def store(tmp_path: Path, lines: dict[str, list[str]]) -> SessionStore:
    inputs = []
    for name in SYSTEMS:
        path = tmp_path / f"{name}.txt"
        path.write_text("\n".join(lines[name]) + "\n", encoding="utf-8")
        inputs.append(SessionInput.from_file(str(path), role="system", name=name))
    opened = SessionStore.create(tmp_path / "s.matchlight", inputs=inputs, settings={})
    yield opened
    opened.close()


def _import(rng: random.Random, texts: dict[str, list[str]], ws: AnnotationWorkspace) -> Batch:
    spans = draw(rng, texts, 2500)
    scores = [SegmentScore(SYSTEMS[1], k, "xcomet", float(k % 100)) for k in range(0, 300, 7)]
    scores.append(SegmentScore(SYSTEMS[0], 3, "ann", 20.0))  # replaces a score set before
    commands = [AddSpan(s) for s in spans]
    commands += [SetSegmentScore(ws.score(*s.key[:2], annotator=s.key[2]), s) for s in scores]
    return Batch(tuple(commands), label="Import")


def _run(steps, file: SessionStore | None = None) -> list[tuple[int, int]]:
    """Run a stepped edit to its end. With ``file``: a second reader of it sees the spans as
    they were before, then as they are after, never a part of the step."""
    seen, counts = [], []
    for progress in steps:
        seen.append(progress)
        if file is not None:
            other = sqlite3.connect(file.path)
            try:
                counts.append(other.execute("SELECT COUNT(*) FROM spans").fetchone()[0])
            finally:
                other.close()
    if file is not None:
        assert len(set(counts)) == 2, set(counts)
        changed = next(i for i, n in enumerate(counts) if n != counts[0])
        assert set(counts[changed:]) == {file.count_spans()}
    return seen


def test_an_import_in_steps_equals_the_import_at_once_and_so_do_its_undo_and_redo(
    store: SessionStore, lines: dict[str, list[str]], tmp_path: Path
) -> None:
    rng = random.Random(11)
    ws = AnnotationWorkspace(systems=SYSTEMS, n_segments=N_SEGMENTS, sink=store, annotator="ann")
    for span in draw(rng, lines, 20, status=Status.CONFIRMED, annotator="ann"):
        ws.add(span)
    ws.set_score(SYSTEMS[0], 3, 70.0)
    twin = AnnotationWorkspace(
        systems=SYSTEMS,
        n_segments=N_SEGMENTS,
        spans=ws.spans(),
        scores=ws.scores(),
        annotator="ann",
    )
    before = state(ws)
    command = _import(rng, lines, ws)
    assert ws.is_large(command, 500) and not ws.is_large(command, 10_000)
    seen: list[frozenset[tuple[str, int]]] = []
    ws.subscribe(seen.append)
    counted = Counted(store, ("add_many", "delete_many", "add_span", "delete_span"))
    progress = _run(ws.execute_in_steps(command, 500), store)
    # Slices of at most 500 spans: the additions are written in 5 statements, and the steps
    # go forward to their total.
    assert counted.calls == {"add_many": 6}  # 5 slices of spans, one of the scores
    assert len(progress) >= 5 * 3
    assert [d for d, _ in progress] == sorted(d for d, _ in progress)
    assert progress[-1][0] == progress[-1][1]
    assert len(seen) == 1 and ws.history.undo_label() == "Import"
    twin.execute(command)
    after = state(ws)
    assert_same(after, state(twin))
    assert store.count_spans() == len(ws) == 2520

    counted.calls.clear()
    assert ws.is_large(ws.history.peek_undo(), 500)
    _run(ws.undo_in_steps(500), store)
    assert counted.calls == {"delete_many": 5, "add_many": 1}  # the old score comes back
    assert_same(state(ws), before)
    assert store.count_spans() == 20 and len(seen) == 2
    assert ws.history.redo_label() == "Import"

    _run(ws.redo_in_steps(500), store)
    assert_same(state(ws), after)
    assert store.count_spans() == 2520 and ws.history.undo_label() == "Import"


def test_an_import_in_steps_closed_half_way_leaves_file_and_memory_as_they_were(
    store: SessionStore, lines: dict[str, list[str]]
) -> None:
    rng = random.Random(12)
    ws = AnnotationWorkspace(systems=SYSTEMS, n_segments=N_SEGMENTS, sink=store)
    ws.add(draw(rng, lines, 1)[0])
    before = state(ws)
    steps = ws.execute_in_steps(_import(rng, lines, ws), 500)
    for done, total in steps:
        if done > total // 3:  # in the middle of writing the file
            break
    steps.close()
    assert store.count_spans() == 1
    assert_same(state(ws), before)
    assert ws.history.undo_label() == "Add error"
    # The file takes edits again.
    ws.add(draw(rng, lines, 1)[0])
    assert store.count_spans() == 2
