"""MQM penalties with Freitag et al. (2021) weights, system means, and the ESA pre-fill."""

from __future__ import annotations

import pytest

from matchlight.core.annotation.model import (
    AnnotationError,
    ErrorSpan,
    SegmentScore,
    Severity,
    Status,
)
from matchlight.core.annotation.mqm import (
    DEFAULT_WEIGHTS,
    MQMWeights,
    WeightRule,
    annotated_segments,
    esa_prefill,
    segment_mqm,
    system_mqm,
)

LINE = "Die Sonne verbrennt unsere periphere Sicht, sagte er am Freitag."


def err(
    category: str,
    severity: str,
    *,
    system: str = "A",
    segment: int = 0,
    status: Status = Status.CONFIRMED,
) -> ErrorSpan:
    return ErrorSpan.create(
        system=system,
        segment=segment,
        line=LINE,
        start=4,
        end=9,
        category=category,
        severity=severity,
        annotator="r1",
        status=status,
    )


@pytest.mark.parametrize(
    ("category", "severity", "weight"),
    [
        ("Accuracy/Mistranslation", "minor", 1.0),
        ("Accuracy/Mistranslation", "major", 5.0),
        ("Fluency/Punctuation", "minor", 0.1),
        ("fluency/punctuation", "Minor", 0.1),  # WMT files vary the spelling
        ("Fluency/Punctuation", "major", 5.0),  # Major punctuation keeps the standard weight
        ("Fluency/Grammar", "minor", 1.0),
        ("Non-translation", "major", 25.0),
        ("Non-translation", "minor", 25.0),  # a segment-level label, whatever its severity
        ("Style", "neutral", 0.0),
        ("Source issue", "major", 0.0),
        ("Accuracy/Omission", "critical", 25.0),
        ("Terminology", "critical", 25.0),
    ],
)
def test_default_weights(category: str, severity: str, weight: float) -> None:
    assert DEFAULT_WEIGHTS.weight(err(category, severity)) == weight


def test_segment_and_system_scores_by_hand() -> None:
    spans = [
        # segment 0: 1 + 5 + 0.1 = 6.1
        err("Accuracy/Mistranslation", "minor"),
        err("Fluency/Grammar", "major"),
        err("Fluency/Punctuation", "minor"),
        # segment 1: Non-translation = 25
        err("Non-translation", "major", segment=1),
        # segment 2: 0 (neutral) + 0 (source) + 25 (critical) = 25
        err("Style", "neutral", segment=2),
        err("Source issue", "major", segment=2),
        err("Accuracy/Addition", "critical", segment=2),
        # not counted: undecided and rejected
        err("Accuracy/Addition", "major", segment=0, status=Status.UNDECIDED),
        err("Accuracy/Addition", "major", segment=4, status=Status.REJECTED),
        # system B, segment 0: 5
        err("Terminology", "major", system="B"),
    ]
    reviewed = [SegmentScore("A", 3, "r1", None)]  # segment 3: looked at, no errors
    per_segment = segment_mqm(spans)
    assert per_segment == pytest.approx(
        {("A", 0): 6.1, ("A", 1): 25.0, ("A", 2): 25.0, ("B", 0): 5.0}
    )
    assert annotated_segments(spans, reviewed) == {"A": {0, 1, 2, 3}, "B": {0}}
    scores = system_mqm(spans, reviewed)
    assert scores["A"] == pytest.approx((6.1 + 25 + 25 + 0) / 4)  # 14.025
    assert scores["B"] == 5.0
    # Averaged over the whole corpus of 10 segments instead (unannotated = error-free).
    over_all = system_mqm(spans, segments={"A": range(10)})
    assert over_all == {"A": pytest.approx(56.1 / 10)}
    # Counting the undecided pre-annotations as well.
    preview = segment_mqm(spans, statuses=(Status.CONFIRMED, Status.UNDECIDED))
    assert preview[("A", 0)] == pytest.approx(11.1)


def test_edited_weights_and_first_rule_wins() -> None:
    weights = MQMWeights(
        (
            WeightRule(10.0, Severity.CRITICAL),
            WeightRule(2.0, None, "Accuracy"),
            WeightRule(1.0, Severity.MINOR),
        )
    )
    assert weights.weight(err("Accuracy/Omission", "critical")) == 10.0
    assert weights.weight(err("Accuracy/Omission", "minor")) == 2.0
    assert weights.weight(err("Fluency", "minor")) == 1.0
    assert weights.weight(err("Fluency", "major")) == 0.0  # no rule matches
    assert MQMWeights.from_json(weights.to_json()) == weights
    assert MQMWeights.from_json(DEFAULT_WEIGHTS.to_json()) == DEFAULT_WEIGHTS
    with pytest.raises(AnnotationError, match=">= 0"):
        WeightRule(-1.0, Severity.MINOR)
    with pytest.raises(AnnotationError, match="needs a severity"):
        WeightRule(1.0)


@pytest.mark.parametrize(
    ("penalty", "expected"),
    [(0.0, 100.0), (0.1, 99.6), (1.0, 96.0), (5.0, 80.0), (6.1, 75.6), (25.0, 0.0), (40.0, 0.0)],
)
def test_esa_prefill(penalty: float, expected: float) -> None:
    assert esa_prefill(penalty) == pytest.approx(expected)


def test_esa_prefill_rejects_negative_penalties() -> None:
    with pytest.raises(AnnotationError, match="negative"):
        esa_prefill(-1.0)
