"""The workspace's MQM and ESA figures follow core's rules: a segment is the mean over its raters,
ESA spans without category are no MQM rating, and what rests on how many segments is said."""

from __future__ import annotations

import math

import numpy as np
import pytest

from matchlight.core.annotation.model import ErrorSpan, SegmentScore, Status
from matchlight.core.annotation.mqm import (
    DEFAULT_WEIGHTS,
    MQMWeights,
    WeightRule,
    mqm_summary,
    segment_mqm,
    system_mqm,
)
from matchlight.core.annotation.typology import AnnotationMode
from matchlight.core.annotation.workspace import AnnotationWorkspace

LINES = ["Die Sonne verbrennt unsere Sicht.", "Ein Wrap mit Käse.", "Gut.", "Noch ein Satz."]


def span(segment: int, category: str, severity: str, rater: str, *, system: str = "A") -> ErrorSpan:
    return ErrorSpan.create(
        system=system,
        segment=segment,
        line=LINES[segment],
        start=0,
        end=3,
        category=category,
        severity=severity,
        annotator=rater,
    )


def test_the_mqm_column_is_the_mean_over_raters() -> None:
    """Finding 11: two raters mark a Major error, one marks No-error: 10/3, not 10."""
    spans = [span(0, "Accuracy/Mistranslation", "major", "r1"), span(0, "Style", "major", "r2")]
    ws = AnnotationWorkspace(
        systems=("A", "B"),
        n_segments=len(LINES),
        spans=spans,
        scores=[SegmentScore("A", 0, "r3", None), SegmentScore("B", 2, "r1", None)],
    )
    values = ws.mqm_values()
    assert values[0, 0] == pytest.approx(10 / 3)
    assert ws.segment_penalty("A", 0) == pytest.approx(10 / 3)
    assert values[1, 2] == 0.0 and np.isnan(values[0, 1]) and np.isnan(values[1, 0])
    # Editing keeps the column in step: a third Major error makes it (5 + 5 + 5) / 3.
    ws.add(span(0, "Fluency/Grammar", "major", "r3"))
    assert ws.segment_penalty("A", 0) == pytest.approx(5.0)
    assert ws.mqm_summary()["A"].raters == 3
    # New weights are applied to every rating.
    ws.set_weights(MQMWeights((WeightRule(1.0, None, "Accuracy"),)))
    assert ws.segment_penalty("A", 0) == pytest.approx(1 / 3)


def test_esa_spans_stay_out_of_the_mqm_column_but_mark_the_output_annotated() -> None:
    """Finding 4: in ESA mode, spans without category do not add to the MQM penalty."""
    esa = [span(0, "", "major", "ann"), span(1, "", "minor", "ann")]
    ws = AnnotationWorkspace(
        systems=("A",),
        n_segments=len(LINES),
        spans=esa,
        scores=[SegmentScore("A", 0, "ann", 70.0)],
        mode=AnnotationMode.ESA,
    )
    assert np.isnan(ws.mqm_values()).all()
    assert ws.annotated_mask("A").tolist() == [True, True, False, False]
    assert ws.mqm_mask("A").tolist() == [False] * 4
    assert ws.esa_values()[0, 0] == 70.0
    # The ESA pre-fill still reads the errors' severities: one Major = 80.
    assert ws.prefill("A", 0) == 80.0 and ws.prefill("A", 1) == 96.0
    assert ws.mqm_summary()["A"].ignored == 2
    figure = ws.esa_summary()["A"]
    assert (figure.value, figure.segments, figure.raters) == (70.0, 1, 1)


def test_the_workspace_says_when_systems_cover_different_segments() -> None:
    spans = [
        span(0, "Non-translation", "major", "r1", system="A"),
        span(1, "Accuracy/Omission", "major", "r1", system="A"),
        span(0, "Non-translation", "major", "r1", system="B"),
    ]
    scores = [SegmentScore("B", k, "r1", None) for k in (1, 2, 3)]
    ws = AnnotationWorkspace(systems=("A", "B"), n_segments=len(LINES), spans=spans, scores=scores)
    sets = ws.segment_sets()
    assert not sets.same and sets.common == {0, 1} and sets.per_system == {"A": 2, "B": 4}
    summary = ws.mqm_summary()
    assert summary == mqm_summary(spans, scores, weights=DEFAULT_WEIGHTS)
    assert summary["A"].mqm == pytest.approx(15.0) and summary["B"].mqm == pytest.approx(6.25)
    # The column's mean over its rows is core's system score.
    for row, name in enumerate(ws.systems):
        values = ws.mqm_values()[row]
        assert np.nanmean(values) == pytest.approx(system_mqm(spans, scores)[name])
    assert ws.segment_sets("esa").per_system == {}


def test_undecided_and_rejected_spans_are_no_rating() -> None:
    first = span(0, "Accuracy", "major", "r1")
    ws = AnnotationWorkspace(systems=("A",), n_segments=len(LINES), spans=[first])
    ws.update(first.edited(status=Status.UNDECIDED))
    assert math.isnan(ws.segment_penalty("A", 0))
    ws.update(ws.spans()[0].edited(status=Status.CONFIRMED))
    assert ws.segment_penalty("A", 0) == 5.0
    assert segment_mqm(ws.spans()) == {("A", 0): 5.0}


def reads(ws: AnnotationWorkspace) -> list[object]:
    """Everything the workspace says of its per-output ratings."""
    out: list[object] = [ws.mqm_values(), ws.esa_values(), ws.has_esa_scores()]
    for kind in ("mqm", "esa"):
        out.append(ws.segment_sets(kind))
    for system in ws.systems:
        out += [ws.annotated_mask(system), ws.mqm_mask(system), ws.rated_mean(system)]
        out += [ws.segment_penalty(system, segment) for segment in range(ws.n_segments)]
    return out


def same(a: object, b: object) -> bool:
    if isinstance(a, np.ndarray):
        return isinstance(b, np.ndarray) and a.dtype == b.dtype and np.array_equal(a, b, True)
    if isinstance(a, tuple):
        return isinstance(b, tuple) and len(a) == len(b) and all(map(same, a, b))
    if isinstance(a, float) and math.isnan(a):
        return isinstance(b, float) and math.isnan(b)
    return a == b


def test_a_workspace_never_rated_reads_as_one_whose_ratings_were_undone() -> None:
    """The per-output arrays are made at the first rating: before it, every read is what the
    arrays say once a rating was made and undone (all NaN / False)."""
    fresh = AnnotationWorkspace(systems=("A", "B"), n_segments=len(LINES))
    undone = AnnotationWorkspace(systems=("A", "B"), n_segments=len(LINES))
    undone.add(span(1, "Accuracy", "major", "r1", system="B"))
    undone.set_score("A", 2, 70.0, annotator="r1")
    rated = reads(undone)
    assert rated[2] is True and rated[0][1, 1] == 5.0  # the arrays exist and were written
    undone.undo()
    undone.undo()
    assert undone.spans() == [] and all(map(same, reads(fresh), reads(undone)))
    with pytest.raises(IndexError):
        fresh.segment_penalty("A", len(LINES))
    assert math.isnan(fresh.segment_penalty("B", -1))
