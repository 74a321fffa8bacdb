"""Inter-annotator agreement: span F1 (by place, severity and category, character overlap and
MQM-weighted), the disagreements to step through, Pearson and Kendall's tau-b."""

from __future__ import annotations

import itertools
import math
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from matchlight.core.annotation.agreement import (
    Disagreement,
    DisagreementKind,
    agreement,
    disagreements,
    kendall_tau_b,
    pearson,
    span_agreement,
)
from matchlight.core.annotation.model import ErrorSpan, SegmentScore, Side, Status
from matchlight.core.session.agreement import session_agreement
from matchlight.core.session.store import SessionError, SessionInput, SessionStore

LINE = "The Sun burns our peripheral vision and more."


def sp(
    seg: int,
    start: int,
    end: int,
    severity: str = "minor",
    *,
    system: str = "S",
    category: str = "Accuracy/Mistranslation",
    status: Status = Status.CONFIRMED,
    side: Side = Side.TARGET,
) -> ErrorSpan:
    return ErrorSpan.create(
        system=system,
        segment=seg,
        line=LINE,
        start=start,
        end=end,
        category=category,
        severity=severity,
        annotator="x",
        status=status,
        side=side,
    )


def kendall_brute(x: list[float], y: list[float]) -> float:
    """Tau-b from its definition, pair by pair (the oracle)."""
    con = dis = tie_x = tie_y = 0
    for i, j in itertools.combinations(range(len(x)), 2):
        a = (x[i] > x[j]) - (x[i] < x[j])
        b = (y[i] > y[j]) - (y[i] < y[j])
        if a == 0 and b == 0:
            continue
        if a == 0:
            tie_x += 1
        elif b == 0:
            tie_y += 1
        elif a == b:
            con += 1
        else:
            dis += 1
    den = math.sqrt((con + dis + tie_x) * (con + dis + tie_y))
    return (con - dis) / den if den else math.nan


def test_kendall_tau_b_by_hand() -> None:
    # C=3, D=1, one tie in x, one in y: (3 - 1) / sqrt(5 * 5) = 0.4
    assert kendall_tau_b([1, 2, 2, 3], [1, 3, 2, 2]) == pytest.approx(0.4)
    assert kendall_tau_b([1, 2, 3], [3, 2, 1]) == pytest.approx(-1.0)
    assert kendall_tau_b([1, 2, 3, 4], [1, 2, 3, 4]) == pytest.approx(1.0)
    assert math.isnan(kendall_tau_b([1, 1, 1], [1, 2, 3]))
    assert math.isnan(kendall_tau_b([1], [2]))


@settings(max_examples=200, deadline=None)
@given(
    st.integers(2, 60).flatmap(
        lambda n: st.tuples(
            st.lists(st.integers(0, 6), min_size=n, max_size=n),
            st.lists(st.integers(0, 6), min_size=n, max_size=n),
        )
    )
)
def test_kendall_tau_b_matches_brute_force(pair: tuple[list[int], list[int]]) -> None:
    x, y = pair
    fast, slow = kendall_tau_b(x, y), kendall_brute([float(v) for v in x], [float(v) for v in y])
    assert (math.isnan(fast) and math.isnan(slow)) or fast == pytest.approx(slow, abs=1e-12)


def test_kendall_tau_b_on_long_real_valued_input() -> None:
    rng = np.random.default_rng(3)
    x = rng.normal(size=500).round(1)
    y = (x + rng.normal(size=500)).round(1)
    expected = kendall_brute(x.tolist(), y.tolist())
    assert kendall_tau_b(x, y) == pytest.approx(expected, abs=1e-12)


def test_pearson() -> None:
    x, y = [6, 1, 5, 0], [2, 0, 1, 5]
    # dx = 3,-2,2,-3; dy = 0,-2,-1,3: r = -7 / sqrt(26 * 14)
    assert pearson(x, y) == pytest.approx(-7 / math.sqrt(26 * 14))
    rng = np.random.default_rng(0)
    a, b = rng.normal(size=50), rng.normal(size=50)
    assert pearson(a, b) == pytest.approx(float(np.corrcoef(a, b)[0, 1]))
    assert math.isnan(pearson([1, 1], [1, 2])) and math.isnan(pearson([1], [1]))


def annotators() -> tuple[list[ErrorSpan], list[ErrorSpan], list[SegmentScore], list[SegmentScore]]:
    a = [
        sp(0, 0, 5, "major"),
        sp(0, 10, 15),
        sp(1, 3, 8),
        sp(2, 4, 4, "major", category="Accuracy/Omission"),
        sp(0, 0, 3, system="T"),
        sp(3, 0, 9, "critical", status=Status.REJECTED),  # not counted
    ]
    b = [
        sp(0, 0, 5),
        sp(0, 12, 20),
        sp(2, 4, 4, category="Accuracy/Omission"),
        sp(3, 0, 2, "major"),
    ]
    return a, b, [SegmentScore("S", 3, "x", None)], [SegmentScore("S", 1, "x", None)]


def test_agreement_by_hand() -> None:
    a, b, scores_a, scores_b = annotators()
    report = agreement(a, b, scores_a, scores_b)
    s = report.per_system["S"]
    # Same place: [0,5) on seg 0 and the omission on seg 2 -> 2 * 2 / (4 + 4); both differ in
    # severity (A major, B minor), so none is an exact match.
    assert (s.spans_a, s.spans_b, s.position_matches) == (4, 4, 2)
    assert s.position_f1 == pytest.approx(0.5) and s.category_f1 == pytest.approx(0.5)
    assert (s.exact_matches, s.severity_matches, s.exact_f1, s.severity_f1) == (0, 0, 0.0, 0.0)
    # MQM-weighted: A weighs 5 + 1 + 1 + 5, B 1 + 1 + 1 + 5; the pairs share min(5, 1) twice.
    assert (s.weight_a, s.weight_b, s.weight_both) == (12.0, 8.0, 2.0)
    assert s.mqm_f1 == pytest.approx(2 * 2 / 20)
    # characters: A covers 5 + 5 (seg 0) + 5 (seg 1) = 15; B covers 5 + 8 + 2 = 15; both 5 + 3
    assert (s.chars_a, s.chars_b, s.chars_both) == (15, 15, 8)
    assert s.char_precision == pytest.approx(8 / 15) and s.char_f1 == pytest.approx(16 / 30)
    t = report.per_system["T"]
    assert (t.spans_a, t.spans_b, t.position_f1, t.char_f1) == (1, 0, 0.0, 0.0)
    assert math.isnan(t.char_recall)  # B marked no character of T
    assert report.overall.position_f1 == pytest.approx(4 / 9)
    assert report.overall.char_f1 == pytest.approx(16 / 33)
    # MQM per segment 0..3: A = 6, 1, 5, 0 (reviewed); B = 2, 0 (reviewed), 1, 5
    corr = report.correlations["S"]
    assert corr.n == 4
    assert corr.pearson == pytest.approx(-7 / math.sqrt(26 * 14))
    assert corr.kendall_tau_b == pytest.approx(kendall_brute([6, 1, 5, 0], [2, 0, 1, 5]))
    assert "T" not in report.correlations  # B never annotated system T
    kinds = [(d.kind, d.segment) for d in report.disagreements]
    assert kinds == [
        (DisagreementKind.SEVERITY, 0),  # [0,5): major against minor
        (DisagreementKind.BOUNDARY, 0),  # [10,15) against [12,20)
        (DisagreementKind.ONLY_A, 1),
        (DisagreementKind.SEVERITY, 2),  # the omission
        (DisagreementKind.ONLY_B, 3),
        (DisagreementKind.ONLY_A, 0),  # system T
    ]


def test_f1_is_nan_when_nobody_marked_anything() -> None:
    empty = span_agreement([], [])
    assert math.isnan(empty.exact_f1) and math.isnan(empty.char_f1)
    assert math.isnan(empty.position_f1) and math.isnan(empty.mqm_f1)


def test_major_against_critical_on_the_same_word_is_no_exact_match() -> None:
    """Finding 6: "wrap" marked Major by A and Critical by B counted as an exact match."""
    start = LINE.index("burns")
    a = [sp(0, start, start + 5, "major")]
    b = [sp(0, start, start + 5, "critical")]
    found = span_agreement(a, b)
    assert (found.position_matches, found.category_matches) == (1, 1)
    assert (found.severity_matches, found.exact_matches) == (0, 0)
    assert (found.position_f1, found.exact_f1, found.severity_f1) == (1.0, 0.0, 0.0)
    # Weighted by MQM: the pair shares the Major's 5 out of 5 + 25.
    assert found.mqm_f1 == pytest.approx(2 * 5 / 30)
    assert span_agreement(a, a).exact_f1 == 1.0 and span_agreement(a, a).mqm_f1 == 1.0
    # Category spelled two ways is the same category.
    c = [sp(0, start, start + 5, "major", category="accuracy/mistranslation")]
    assert span_agreement(a, c).exact_matches == 1
    (only,) = disagreements(a, b)
    assert only == Disagreement(DisagreementKind.SEVERITY, "S", 0, a[0], b[0])
    assert only.describe() == (
        "S, segment 1: severity: A major Accuracy/Mistranslation on 'burns', "
        "B critical Accuracy/Mistranslation on 'burns'"
    )


def test_disagreements_pair_spans_before_listing_the_rest() -> None:
    """Same place first (agreeing labels before others), then overlaps, then the unpaired, in
    reading order; a source span never pairs with a target span."""
    a = [
        sp(0, 0, 3, "major", category="Style"),  # pairs with B's Style major: agreement
        sp(0, 0, 3, "minor", category="Fluency"),  # pairs with B's Accuracy minor: category
        sp(0, 10, 20),  # overlaps B's [15, 25): boundary
        sp(0, 30, 30, "major", category="Accuracy/Omission"),  # a point inside B's [28, 33)
        sp(0, 40, 44, side=Side.SOURCE),  # only on A's source side
        sp(1, 4, 8, "major", category="Style"),  # same place, both labels differ
    ]
    b = [
        sp(0, 0, 3, "minor", category="Accuracy"),
        sp(0, 0, 3, "major", category="Style"),
        sp(0, 15, 25),
        sp(0, 28, 33),
        sp(0, 40, 44),  # target side: not A's source span
        sp(1, 4, 8, "minor", category="Fluency"),
        sp(1, 30, 35),
    ]
    found = disagreements(a, b)
    assert [(d.kind, d.segment, d.side, d.start) for d in found] == [
        (DisagreementKind.CATEGORY, 0, "target", 0),
        (DisagreementKind.BOUNDARY, 0, "target", 10),
        (DisagreementKind.BOUNDARY, 0, "target", 28),
        (DisagreementKind.ONLY_B, 0, "target", 40),
        (DisagreementKind.ONLY_A, 0, "source", 40),
        (DisagreementKind.LABELS, 1, "target", 4),
        (DisagreementKind.ONLY_B, 1, "target", 30),
    ]
    assert found[0].a == a[1] and found[0].b == b[0]
    assert found[2].a == a[3] and found[2].b == b[3]
    # Undecided and rejected spans are not someone's judgement yet.
    pending = [sp(2, 0, 3, status=Status.UNDECIDED)]
    assert disagreements(pending, []) == []
    agreed = span_agreement(a, b)
    assert (agreed.position_matches, agreed.exact_matches) == (3, 1)


def test_session_agreement(tmp_path: Path) -> None:
    hyp = tmp_path / "S.txt"
    hyp.write_text(LINE + "\n" * 4, encoding="utf-8")
    inputs = [SessionInput.from_file(hyp, role="system", name="S")]
    a, b, scores_a, scores_b = annotators()
    with (
        SessionStore.create(tmp_path / "a.matchlight", inputs=inputs, settings={}) as first,
        SessionStore.create(tmp_path / "b.matchlight", inputs=inputs, settings={}) as second,
    ):
        first.add_many([x for x in a if x.system == "S"], scores_a)
        second.add_many(b, scores_b)
        report = session_agreement(first, second)
        direct = agreement([x for x in a if x.system == "S"], b, scores_a, scores_b)
        assert report == direct
    other = tmp_path / "other.txt"
    other.write_text("different\n", encoding="utf-8")
    changed = [SessionInput.from_file(other, role="system", name="S")]
    with (
        SessionStore.create(tmp_path / "c.matchlight", inputs=inputs, settings={}) as first,
        SessionStore.create(tmp_path / "d.matchlight", inputs=changed, settings={}) as second,
        pytest.raises(SessionError, match="do not annotate the same files"),
    ):
        session_agreement(first, second)
