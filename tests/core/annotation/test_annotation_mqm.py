"""MQM penalties with Freitag et al. (2021) weights, the mean over raters and over segments,
ESA figures averaged the same way, different segment sets, and the ESA pre-fill."""

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
    WEIGHT_PRESETS,
    MQMWeights,
    WeightRule,
    annotated_segments,
    compare_segment_sets,
    esa_prefill,
    mqm_summary,
    rater_penalties,
    segment_esa,
    segment_mqm,
    system_esa,
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
    rater: str = "r1",
) -> ErrorSpan:
    return ErrorSpan.create(
        system=system,
        segment=segment,
        line=LINE,
        start=4,
        end=9,
        category=category,
        severity=severity,
        annotator=rater,
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
        # Freitag et al.'s Table 2: Non-translation is 25 as a Major error; Minor 1, Neutral 0.
        ("Non-translation", "minor", 1.0),
        ("Non-translation", "neutral", 0.0),
        # Google's WMT files spell the labels their own way.
        ("Non-translation!", "Major", 25.0),
        ("non_translation", "major", 25.0),
        ("Source error", "major", 0.0),
        ("Source error", "minor", 0.0),
        ("source_error", "Major", 0.0),
        ("Style/Awkward", "major", 5.0),
        ("Terminology/Inappropriate for context", "minor", 1.0),
        ("Locale convention/Name format", "major", 5.0),
        ("Fluency/Punctuation", "neutral", 0.0),
        ("No-error", "major", 0.0),
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


def test_published_weights_table() -> None:
    """Finding 10 and 12: the weights as the paper's Table 2 gives them, rule by rule."""
    assert [(r.weight, r.severity, r.category) for r in DEFAULT_WEIGHTS.rules] == [
        (0.0, None, "Source issue"),
        (0.0, None, "No-error"),
        (0.0, Severity.NEUTRAL, None),
        (0.1, Severity.MINOR, "Fluency/Punctuation"),
        (25.0, Severity.MAJOR, "Non-translation"),
        (1.0, Severity.MINOR, None),
        (5.0, Severity.MAJOR, None),
        (25.0, Severity.CRITICAL, None),
    ]
    counted = WEIGHT_PRESETS["source-counted"]
    assert counted.weight(err("Source error", "minor")) == 1.0
    assert counted.weight(err("Source error", "major")) == 5.0
    assert WEIGHT_PRESETS["freitag2021"] is DEFAULT_WEIGHTS


def test_a_segment_is_the_mean_over_its_raters() -> None:
    """Finding 11: two raters mark a Major error, a third marks the segment No-error."""
    spans = [err("Accuracy/Mistranslation", "major", rater="r1"), err("Style", "major", rater="r2")]
    reviewed = [SegmentScore("A", 0, "r3", None)]
    assert rater_penalties(spans, reviewed) == {
        ("A", 0, "r1"): 5.0,
        ("A", 0, "r2"): 5.0,
        ("A", 0, "r3"): 0.0,
    }
    assert segment_mqm(spans, reviewed) == {("A", 0): pytest.approx(10 / 3)}
    assert system_mqm(spans, reviewed) == {"A": pytest.approx(10 / 3)}
    # One rater with two errors is their sum; the segment is still one segment.
    two = [*spans, err("Fluency/Grammar", "minor", rater="r1")]
    assert segment_mqm(two, reviewed) == {("A", 0): pytest.approx((6 + 5 + 0) / 3)}
    # A system is the mean over its rated segments, each weighing the same whatever its raters.
    more = [*two, err("Accuracy/Addition", "minor", segment=1, rater="r9")]
    assert system_mqm(more, reviewed)["A"] == pytest.approx((11 / 3 + 1) / 2)


def test_esa_is_averaged_as_mqm_is() -> None:
    """ESA: a segment is the mean of its raters' scores, a system the mean over its segments,
    so the two modes agree on what a system's figure is."""
    scores = [
        SegmentScore("A", 0, "r1", 60.0),
        SegmentScore("A", 0, "r2", 90.0),
        SegmentScore("A", 1, "r1", 30.0),
        SegmentScore("A", 2, "r3", None),  # reviewed, no ESA score: not an ESA segment
        SegmentScore("B", 0, "r1", 50.0),
    ]
    assert segment_esa(scores) == {("A", 0): 75.0, ("A", 1): 30.0, ("B", 0): 50.0}
    figures = system_esa(scores)
    assert figures["A"].value == pytest.approx((75 + 30) / 2)
    assert (figures["A"].segments, figures["A"].raters) == (2, 2)
    assert (figures["B"].value, figures["B"].segments, figures["B"].raters) == (50.0, 1, 1)


def test_spans_without_a_category_stay_out_of_mqm() -> None:
    """Finding 4: ESA spans (no category) are no MQM errors, and a rater's ESA annotation of a
    segment is no MQM rating of it; xCOMET-style spans can be scored by severity on request."""
    esa_spans = [err("", "major", segment=0, rater="esa"), err("", "minor", segment=1)]
    mqm_spans = [err("Accuracy/Mistranslation", "minor", segment=1, rater="mqm")]
    scores = [SegmentScore("A", 0, "esa", 40.0), SegmentScore("A", 2, "mqm", None)]
    spans = esa_spans + mqm_spans
    assert segment_mqm(spans, scores) == {("A", 1): 1.0, ("A", 2): 0.0}
    assert system_mqm(spans, scores) == {"A": pytest.approx(0.5)}
    assert segment_mqm(esa_spans, severity_only=True) == {("A", 0): 5.0, ("A", 1): 1.0}
    summary = mqm_summary(spans, scores)["A"]
    assert (summary.segments, summary.ignored, summary.n_errors) == (2, 2, 1)
    assert annotated_segments(spans, scores) == {"A": {0, 1, 2}}


def test_systems_rated_on_different_segments_are_flagged() -> None:
    """Finding 4: PROMT 13.00 on 2 segments beside LT22 4.17 on 6 is no comparison."""
    promt = [err("Non-translation", "major", system="PROMT", segment=0)]
    promt += [err("Accuracy/Omission", "major", system="PROMT", segment=1)]
    promt += [err("Fluency/Grammar", "minor", system="PROMT", segment=1)]
    lt22 = [err("Non-translation", "major", system="LT22", segment=k) for k in (0,)]
    reviewed = [SegmentScore("LT22", k, "r1", None) for k in range(1, 6)]
    spans = promt + lt22
    scores = system_mqm(spans, reviewed)
    assert scores == {"PROMT": pytest.approx(31 / 2), "LT22": pytest.approx(25 / 6)}
    rated = {"PROMT": {0, 1}, "LT22": set(range(6))}
    sets = compare_segment_sets(rated)
    assert not sets.same and sets.common == {0, 1}
    assert sets.per_system == {"PROMT": 2, "LT22": 6}
    warning = sets.warning()
    assert warning is not None and "PROMT 2, LT22 6" in warning and "2 rated" in warning
    common = system_mqm(spans, reviewed, segments={name: sets.common for name in rated})
    assert common == {"PROMT": pytest.approx(31 / 2), "LT22": pytest.approx(25 / 2)}
    assert compare_segment_sets({"A": {1, 2}, "B": {2, 1}}).warning() is None


def test_summary_counts_errors_raters_and_category_shares() -> None:
    spans = [
        err("Accuracy/Mistranslation", "major", rater="r1"),
        err("Accuracy/Omission", "minor", rater="r2"),
        err("Fluency/Punctuation", "minor", rater="r2", segment=1),
        err("Fluency/Grammar", "major", rater="r1", segment=1, status=Status.UNDECIDED),
        err("Terminology", "major", system="B"),
    ]
    summary = mqm_summary(spans, [SegmentScore("A", 2, "r3", None)])
    a = summary["A"]
    assert (a.segments, a.raters, a.ratings) == (3, 3, 4)
    # Segment 0: (5 + 1) / 2 raters; segment 1: 0.1; segment 2: 0 -> mean over 3 segments.
    assert a.mqm == pytest.approx((3.0 + 0.1 + 0.0) / 3)
    assert a.mqm == pytest.approx(system_mqm(spans, [SegmentScore("A", 2, "r3", None)])["A"])
    assert a.errors == {
        "Accuracy/Mistranslation": {"major": 1},
        "Accuracy/Omission": {"minor": 1},
        "Fluency/Punctuation": {"minor": 1},
    }
    assert a.by_severity() == {"major": 1, "minor": 2}
    assert sum(a.penalty.values()) == pytest.approx(a.mqm)
    assert a.penalty == {"Accuracy": pytest.approx(1.0), "Fluency": pytest.approx(0.1 / 3)}
    assert summary["B"].mqm == 5.0 and list(summary) == ["A", "B"]
    data = a.to_json()
    assert data["errors"] == 3 and data["by_category"]["Accuracy/Omission"] == {"minor": 1}


def test_weights_from_json_refuse_bad_rules() -> None:
    with pytest.raises(AnnotationError, match="bad MQM weight 'heavy'"):
        MQMWeights.from_json([{"weight": "heavy", "severity": "major"}])
    with pytest.raises(AnnotationError, match="category must be text"):
        MQMWeights.from_json([{"weight": 1, "category": 3}])
    with pytest.raises(AnnotationError, match=">= 0"):
        MQMWeights.from_json([{"weight": float("nan"), "severity": "minor"}])
    assert "25 for major in Non-translation" in DEFAULT_WEIGHTS.describe()
