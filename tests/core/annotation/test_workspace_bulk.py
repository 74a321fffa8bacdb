"""An import and its undo as bulk steps: one statement per table in the session file, the
MQM/ESA arrays recomputed only where something counts, and exactly the prior state back.

Real WMT22 outputs, spans drawn at random on them; a real session file.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import matchlight.core.annotation.workspace as workspace_module
from matchlight.core.annotation.history import AddSpan, Batch, DeleteSpan
from matchlight.core.annotation.model import AnnotationError, ErrorSpan, SegmentScore, Status
from matchlight.core.annotation.workspace import AnnotationWorkspace
from matchlight.core.session.store import SessionInput, SessionStore
from tests.conftest import SHARED_DATA
from tests.kit import data_lines

SYSTEMS = ("JDExploreAcademy", "LT22")
N_SEGMENTS = 300


@pytest.fixture
def lines() -> dict[str, list[str]]:
    return {
        name: data_lines(SHARED_DATA / "wmt22-de-en" / f"sys.{name}.txt")[:N_SEGMENTS]
        for name in SYSTEMS
    }


def draw(
    rng: random.Random,
    lines: dict[str, list[str]],
    count: int,
    *,
    status: Status = Status.UNDECIDED,
    annotator: str = "xcomet",
) -> list[ErrorSpan]:
    spans = []
    for _ in range(count):
        system = rng.choice(SYSTEMS)
        segment = rng.randrange(N_SEGMENTS)
        line = lines[system][segment]
        start = rng.randrange(max(1, len(line) - 4))
        spans.append(
            ErrorSpan.create(
                system=system,
                segment=segment,
                line=line,
                start=start,
                end=min(len(line), start + 3),
                category="Accuracy/Mistranslation" if status is Status.CONFIRMED else "",
                severity=rng.choice(("minor", "major")),
                annotator=annotator,
                status=status,
            )
        )
    return spans


class Counted:
    """Counts the calls of some of a real store's methods (and makes them)."""

    def __init__(self, store: SessionStore, names: tuple[str, ...]) -> None:
        self.calls: Counter[str] = Counter()
        for name in names:
            setattr(store, name, self._wrap(name, getattr(store, name)))

    def _wrap(self, name: str, method: Callable[..., Any]) -> Callable[..., Any]:
        def counted(*args: Any, **kwargs: Any) -> Any:
            self.calls[name] += 1
            return method(*args, **kwargs)

        return counted


def state(ws: AnnotationWorkspace) -> tuple[Any, ...]:
    return (
        ws.spans(),
        ws.scores(),
        ws.annotators(),
        ws.mqm_values(),
        ws.esa_values(),
        [ws.annotated_mask(name) for name in SYSTEMS],
    )


def assert_same(a: tuple[Any, ...], b: tuple[Any, ...]) -> None:
    assert a[:3] == b[:3]
    np.testing.assert_array_equal(a[3], b[3])  # NaN equals NaN here
    np.testing.assert_array_equal(a[4], b[4])
    for x, y in zip(a[5], b[5], strict=True):
        np.testing.assert_array_equal(x, y)


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


def test_an_import_and_its_undo_are_one_statement_each_and_undo_restores_everything(
    store: SessionStore, lines: dict[str, list[str]]
) -> None:
    rng = random.Random(7)
    ws = AnnotationWorkspace(systems=SYSTEMS, n_segments=N_SEGMENTS, sink=store, annotator="ann")
    for span in draw(rng, lines, 25, status=Status.CONFIRMED, annotator="ann"):
        ws.add(span)
    ws.set_score(SYSTEMS[0], 3, 70.0)
    before, stored_before = state(ws), (store.spans(), store.segment_scores())
    seen: list[frozenset[tuple[str, int]]] = []
    ws.subscribe(seen.append)
    counted = Counted(store, ("add_many", "delete_many", "add_span", "delete_span"))
    imported = draw(rng, lines, 2000)
    scores = [SegmentScore(SYSTEMS[1], k, "xcomet", float(k % 100)) for k in range(0, 300, 7)]
    scores.append(SegmentScore(SYSTEMS[0], 3, "ann", 20.0))  # replaces the score above
    ws.import_records(imported, scores, label="Import")
    assert counted.calls == {"add_many": 1}
    assert len(seen) == 1
    assert seen[0] == {(s.system, s.segment) for s in imported} | {
        (s.system, s.segment) for s in scores
    }
    after = state(ws)
    assert len(ws) == 2025 and store.count_spans() == 2025
    assert sorted(store.spans(), key=lambda s: s.id) == sorted(ws.spans(), key=lambda s: s.id)
    assert ws.annotators() == ["ann", "xcomet"]
    # The arrays are those of a workspace built from scratch on the same records.
    assert_same(
        after,
        state(
            AnnotationWorkspace(
                systems=SYSTEMS, n_segments=N_SEGMENTS, spans=ws.spans(), scores=ws.scores()
            )
        ),
    )

    counted.calls.clear()
    ws.undo()
    # The spans go in one statement, the replaced score's old value comes back in another.
    assert counted.calls == {"delete_many": 1, "add_many": 1}
    assert_same(state(ws), before)
    assert (store.spans(), store.segment_scores()) == stored_before

    counted.calls.clear()
    ws.redo()
    assert counted.calls == {"add_many": 1}
    assert_same(state(ws), after)
    assert len(store.spans()) == 2025


def test_undecided_spans_cost_no_mqm_computation(
    store: SessionStore, lines: dict[str, list[str]], monkeypatch: pytest.MonkeyPatch
) -> None:
    rng = random.Random(3)
    ws = AnnotationWorkspace(systems=SYSTEMS, n_segments=N_SEGMENTS, sink=store)
    calls: list[int] = []
    real = workspace_module.segment_mqm

    def counting(*args: Any, **kwargs: Any) -> Any:
        calls.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(workspace_module, "segment_mqm", counting)
    imported = draw(rng, lines, 1000)
    scores = [SegmentScore(SYSTEMS[0], k, "xcomet", 50.0) for k in (1, 2, 3)]
    ws.import_records(imported, scores, label="Import")
    # Only the outputs with a score are rated; the undecided spans change no figure.
    assert len(calls) == 3
    assert np.count_nonzero(~np.isnan(ws.mqm_values())) == 3
    assert not ws.annotated_mask(SYSTEMS[1]).any()
    # Confirming one of them makes its output rated, as a single edit does.
    span = imported[0]
    ws.update(span.edited(status=Status.CONFIRMED, category="Fluency/Grammar"))
    assert ws.segment_penalty(span.system, span.segment) > 0


def test_a_batch_of_deletions_with_a_missing_span_changes_nothing(
    store: SessionStore, lines: dict[str, list[str]]
) -> None:
    rng = random.Random(5)
    ws = AnnotationWorkspace(systems=SYSTEMS, n_segments=N_SEGMENTS, sink=store)
    imported = draw(rng, lines, 50)
    ws.import_records(imported, label="Import")
    stranger = draw(rng, lines, 1)[0]
    doomed = Batch(tuple(DeleteSpan(s) for s in [*imported[:10], stranger]))
    with pytest.raises(AnnotationError, match="1 of the 11 spans to delete are not there"):
        ws.execute(doomed)
    assert store.count_spans() == 50 and len(ws) == 50
    with pytest.raises(AnnotationError):
        store.delete_many([imported[0].id, stranger.id])
    assert store.count_spans() == 50


def test_a_batch_that_adds_and_deletes_one_span_keeps_its_order(
    store: SessionStore, lines: dict[str, list[str]]
) -> None:
    rng = random.Random(11)
    ws = AnnotationWorkspace(systems=SYSTEMS, n_segments=N_SEGMENTS, sink=store)
    span, other = draw(rng, lines, 2)
    ws.execute(Batch((AddSpan(span), DeleteSpan(span), AddSpan(other))))
    assert ws.spans() == [other] and store.spans() == [other]
