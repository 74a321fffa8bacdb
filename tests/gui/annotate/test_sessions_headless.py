"""Annotate, save and reopen without a window: core's comparison session, the annotation
workspace and the session file (what the app's controller drives, and what a script can use).

Only core is used here; the module sits with the app's session tests because it checks the
same round trip they check through the GUI.
"""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest

from matchlight.core.analysis.selection import RowSet, Selection, Sort, TextFilter
from matchlight.core.annotation.filters import annotated_mask, by_annotator, by_category
from matchlight.core.annotation.history import AddSpan, Batch
from matchlight.core.annotation.model import (
    AnnotationError,
    ErrorSpan,
    SegmentScore,
    Severity,
    Status,
)
from matchlight.core.annotation.mqm import DEFAULT_WEIGHTS, esa_prefill, segment_mqm, system_mqm
from matchlight.core.annotation.offsets import Utf16Index
from matchlight.core.annotation.typology import DEFAULT_TYPOLOGY, AnnotationMode
from matchlight.core.annotation.workspace import AnnotationQuery, AnnotationWorkspace
from matchlight.core.metrics.base import ScoreColumn
from matchlight.core.session.comparison import ComparisonState
from matchlight.core.session.store import SessionInput, SessionStore
from tests.conftest import SHARED_DATA
from tests.core.session.sessionkit import inputs_of, open_comparison
from tests.kit import data_lines

EMOJI = "\U0001f600"
RARE_CJK = "\U00020000"
HYP_A = [f"The cat {EMOJI} sat on the mat.", f"A rare {RARE_CJK} sign shows up here.", "Dog sleep."]
HYP_B = ["The cat sits on the carpet.", "A rare character appears there.", "The dog sleeps."]
REF = ["The cat sits on the mat.", "A rare character appears here.", "The dog sleeps."]
MQM = ScoreColumn("mqm", "MQM penalty", "MQM", "mqm", "from the annotations", corpus="mean")


def write(path: Path, lines: list[str]) -> str:
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return str(path)


@pytest.fixture
def files(tmp_path: Path) -> dict[str, str]:
    return {
        "ref": write(tmp_path / "ref.en", REF),
        "A": write(tmp_path / "sys.A.en", HYP_A),
        "B": write(tmp_path / "sys.B.en", HYP_B),
    }


def test_annotate_save_reopen_everything_equal(tmp_path: Path, files: dict[str, str]) -> None:
    session = open_comparison(files)
    path = tmp_path / "work.matchlight"
    store = SessionStore.create(
        path, inputs=inputs_of(files), settings={"config": session.config.to_dict()}
    )
    ws = AnnotationWorkspace(
        systems=session.system_names, n_segments=session.n_segments, sink=store, annotator="ann"
    )
    # A selection made in Qt (UTF-16 units) after an astral character, stored in code points.
    line = HYP_A[1]
    index = Utf16Index(line)
    qt_start, qt_end = 10, 14  # "sign": the ideograph counts twice before it
    start, end = index.to_codepoint(qt_start), index.to_codepoint(qt_end)
    assert line[start:end] == "sign" and (start, end) == (9, 13)
    sign = ErrorSpan.create(
        system="A",
        segment=1,
        line=line,
        start=start,
        end=end,
        category="Accuracy/Mistranslation",
        severity="major",
        annotator="ann",
    )
    ws.add(sign)
    point = HYP_A[2].index("sleep")
    ws.add(
        ErrorSpan.create(
            system="A",
            segment=2,
            line=HYP_A[2],
            start=point,
            end=point,
            category="Accuracy/Omission",
            severity="minor",
            annotator="ann",
        )
    )
    carpet = HYP_B[0].index("carpet")
    ws.add(
        ErrorSpan.create(
            system="B",
            segment=0,
            line=HYP_B[0],
            start=carpet,
            end=carpet + 6,
            category="Accuracy/Mistranslation",
            severity="critical",
            annotator="ann",
        )
    )
    ws.set_score("B", 2, None)  # reviewed: no errors
    ws.set_score("A", 0, 90.0)
    ws.undo()
    ws.redo()
    session.set_column(MQM, ws.mqm_values())
    session.set_baseline(1)
    session.set_selection(Selection((TextFilter("the"),), Sort("bleu", 0, True)))
    session.set_layout(current_segment=2, highlight_mode="rouge")
    state = session.state()
    store.save_state(
        settings={"config": state.config.to_dict()},
        baseline=session.system_names[state.baseline],
        selection=state.selection.to_dict(),
        layout=dict(state.layout),
        annotator="ann",
    )
    spans, scores = ws.spans(), ws.scores()
    store.close()

    reopened = SessionStore.open(path)
    try:
        saved = reopened.state()
        assert all(not c.changed for c in reopened.check_inputs())
        again = open_comparison(files)
        again.restore(
            ComparisonState.from_dict(
                {
                    "config": saved.settings["config"],
                    "baseline": again.system_names.index(saved.baseline),
                    "selection": saved.selection,
                    "layout": saved.layout,
                }
            )
        )
        assert again.state() == state
        assert again.view_order().tolist() == session.view_order().tolist()
        ws2 = AnnotationWorkspace(
            systems=again.system_names,
            n_segments=again.n_segments,
            spans=reopened.spans(),
            scores=reopened.segment_scores(),
            mode=saved.mode,
            typology=saved.typology,
            weights=saved.weights,
            annotator=saved.annotator,
            sink=reopened,
        )
        assert ws2.spans() == spans and ws2.scores() == scores
        assert ws2.get(sign.id) == sign
        # The MQM column is core's, and joins the reopened table like the first one.
        np.testing.assert_array_equal(ws2.mqm_values(), ws.mqm_values())
        want = segment_mqm(spans)
        assert ws2.segment_penalty("A", 1) == want[("A", 1)] == 5.0
        assert ws2.segment_penalty("B", 2) == 0.0  # reviewed, no errors
        again.set_column(MQM, ws2.mqm_values())
        for s, name in enumerate(again.system_names):
            figure = again.table.corpus(s, metrics=["mqm"]).values["mqm"]
            assert figure == pytest.approx(system_mqm(spans, scores)[name])
    finally:
        reopened.close()


def test_edited_file_re_anchors_headless(tmp_path: Path, files: dict[str, str]) -> None:
    session = open_comparison(files)
    path = tmp_path / "work.matchlight"
    with SessionStore.create(path, inputs=inputs_of(files), settings={}) as store:
        ws = AnnotationWorkspace(systems=("A", "B"), n_segments=3, sink=store)
        line = session.text.systems[0][0]
        ws.add(
            ErrorSpan.create(
                system="A",
                segment=0,
                line=line,
                start=line.index("sat"),
                end=line.index("sat") + 3,
                category="Fluency",
                severity="minor",
                annotator="x",
            )
        )
    write(Path(files["A"]), [f"Yes, the cat {EMOJI} sat on the mat.", *HYP_A[1:]])
    with SessionStore.open(path) as store:
        (check,) = [c for c in store.check_inputs() if c.changed]
        assert check.input.name == "A" and check.status == "changed"
        current = open_comparison(files)
        lines = {n: current.text.systems[s] for s, n in enumerate(current.system_names)}
        report = store.reanchor(lines)
        assert report.kept == 0 and len(report.reattached) == 1 and not report.flagged
        (span,) = store.spans()
        assert span.text == "sat" and lines["A"][0][span.start : span.end] == "sat"


def test_workspace_writes_the_file_first_and_keeps_memory_in_step(tmp_path: Path) -> None:
    hyp = write(tmp_path / "A.txt", HYP_A)
    store = SessionStore.create(
        tmp_path / "s.matchlight",
        inputs=[SessionInput.from_file(hyp, role="system", name="A")],
        settings={},
    )
    ws = AnnotationWorkspace(systems=("A", "B"), n_segments=3, sink=store, annotator="x")
    seen: list[frozenset[tuple[str, int]]] = []
    ws.subscribe(seen.append)
    good = ErrorSpan.create(
        system="A",
        segment=0,
        line=HYP_A[0],
        start=0,
        end=3,
        category="Style",
        severity="minor",
        annotator="x",
    )
    # B is not an input of this session: the file refuses it, and memory stays as it was.
    stranger = ErrorSpan.create(
        system="B",
        segment=0,
        line=HYP_B[0],
        start=0,
        end=3,
        category="Style",
        severity="minor",
        annotator="x",
    )
    with pytest.raises(AnnotationError, match="not a system or reference"):
        ws.execute(Batch((AddSpan(good), AddSpan(stranger))))
    assert ws.spans() == [] and store.spans() == [] and not ws.history.can_undo and seen == []
    # A confirmed Other without a note is refused before the file is touched.
    other = good.edited(category="Other")
    with pytest.raises(AnnotationError, match="note is required"):
        ws.add(other)
    # An import is one undo step, and one transaction, also when undone.
    imported = [
        ErrorSpan.create(
            system="A",
            segment=k,
            line=HYP_A[k],
            start=0,
            end=1,
            category="",
            severity="major",
            annotator="xcomet",
            status=Status.UNDECIDED,
        )
        for k in range(3)
    ]
    ws.import_records(imported, [SegmentScore("A", 1, "xcomet", 40.0)], label="Import")
    assert len(store.spans()) == 3 and seen[-1] == {("A", 0), ("A", 1), ("A", 2)}
    assert np.isnan(ws.mqm_values()[0, 0])  # undecided spans do not count
    assert ws.segment_penalty("A", 1) == 0.0  # but the score marks the output annotated
    assert ws.esa_values()[0, 1] == 40.0
    assert ws.annotators() == ["xcomet"]
    ws.undo()
    assert store.spans() == [] and ws.spans() == [] and store.segment_scores() == []
    assert ws.annotators() == []
    ws.redo()
    assert store.spans() == ws.spans() and len(ws.spans()) == 3
    ws.update(ws.spans()[0].edited(annotator="Bea"))
    assert ws.annotators() == ["Bea", "xcomet"]
    store.close()


def wmt_lines(system: str) -> list[str]:
    return data_lines(SHARED_DATA / "wmt22-de-en" / f"sys.{system}.txt")


def test_scores_and_filters_equal_core_on_real_outputs() -> None:
    systems = ("PROMT", "LT22")
    lines = {name: wmt_lines(name) for name in systems}
    n = len(lines["PROMT"])
    rng = random.Random(7)
    paths = DEFAULT_TYPOLOGY.paths()
    spans: list[ErrorSpan] = []
    for _ in range(600):
        system = rng.choice(systems)
        segment = rng.randrange(n)
        line = lines[system][segment]
        start = rng.randrange(len(line) + 1)
        end = min(len(line), start + rng.randrange(0, 12))
        category = rng.choice(paths)
        spans.append(
            ErrorSpan.create(
                system=system,
                segment=segment,
                line=line,
                start=start,
                end=end,
                category=category,
                severity=rng.choice(list(Severity)),
                annotator=rng.choice(("ann", "Bea")),
                note="why" if category == "Other" else "",
                status=rng.choice(list(Status)),
            )
        )
    scores = [SegmentScore("LT22", k, "ann", None) for k in range(0, n, 97)]
    ws = AnnotationWorkspace(systems=systems, n_segments=n, spans=spans, scores=scores)
    confirmed = [s for s in spans if s.status is Status.CONFIRMED]
    # A segment's MQM is the mean over its raters ("ann" and "Bea", a review mark counting 0).
    penalties = segment_mqm(spans, scores, weights=DEFAULT_WEIGHTS)
    marked = segment_mqm(spans, weights=DEFAULT_WEIGHTS, severity_only=True)
    values = ws.mqm_values()
    for s, name in enumerate(systems):
        mask = annotated_mask(n, name, confirmed, scores)
        np.testing.assert_array_equal(~np.isnan(values[s]), mask)
        want = [penalties.get((name, k), 0.0) for k in np.flatnonzero(mask)]
        np.testing.assert_allclose(values[s][mask], want, rtol=0, atol=1e-12)
        assert np.mean(values[s][mask]) == pytest.approx(system_mqm(spans, scores)[name])
        for k in np.flatnonzero(mask)[:20]:
            assert ws.prefill(name, int(k)) == esa_prefill(marked.get((name, int(k)), 0.0))
    live = [s for s in spans if s.status is not Status.REJECTED]
    for query, chosen in (
        (AnnotationQuery(category="Accuracy"), by_category(live, "Accuracy")),
        (
            AnnotationQuery(category="fluency/grammar", system="LT22"),
            [s for s in by_category(live, "Fluency/Grammar") if s.system == "LT22"],
        ),
        (AnnotationQuery(annotator="bea"), by_annotator(live, "Bea")),
        (
            AnnotationQuery(severity=Severity.CRITICAL),
            [s for s in live if s.severity is Severity.CRITICAL],
        ),
        (
            AnnotationQuery(statuses=(Status.UNDECIDED,)),
            [s for s in spans if s.status is Status.UNDECIDED],
        ),
    ):
        assert ws.rows(query).tolist() == sorted({s.segment for s in chosen}), query.label()
    todo = ws.rows(AnnotationQuery(annotated=False, system="PROMT"))
    assert todo.tolist() == np.flatnonzero(~annotated_mask(n, "PROMT", confirmed)).tolist()
    # A row set in a selection is how the app shows them.
    assert RowSet(tuple(todo.tolist()), "annotations: not annotated").kind == "rows"
    assert AnnotationQuery.from_dict(AnnotationQuery(category="Style").to_dict()) == (
        AnnotationQuery(category="Style")
    )
    with pytest.raises(AnnotationError):
        ws.rows(AnnotationQuery(system="nobody"))
    assert ws.mode is AnnotationMode.MQM
