"""Inter-annotator agreement: span F1 (exact and character overlap), Pearson and Kendall's tau-b."""

from __future__ import annotations

import itertools
import math
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from matchlight.core.annotation.agreement import (
    agreement,
    kendall_tau_b,
    pearson,
    span_agreement,
)
from matchlight.core.annotation.model import ErrorSpan, SegmentScore, Status
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
    # exact: [0,5) on seg 0 and the omission on seg 2 -> 2 * 2 / (4 + 4)
    assert (s.spans_a, s.spans_b, s.exact_matches) == (4, 4, 2)
    assert s.exact_f1 == pytest.approx(0.5)
    # characters: A covers 5 + 5 (seg 0) + 5 (seg 1) = 15; B covers 5 + 8 + 2 = 15; both 5 + 3
    assert (s.chars_a, s.chars_b, s.chars_both) == (15, 15, 8)
    assert s.char_precision == pytest.approx(8 / 15) and s.char_f1 == pytest.approx(16 / 30)
    t = report.per_system["T"]
    assert (t.spans_a, t.spans_b, t.exact_f1, t.char_f1) == (1, 0, 0.0, 0.0)
    assert math.isnan(t.char_recall)  # B marked no character of T
    assert report.overall.exact_f1 == pytest.approx(4 / 9)
    assert report.overall.char_f1 == pytest.approx(16 / 33)
    # MQM per segment 0..3: A = 6, 1, 5, 0 (reviewed); B = 2, 0 (reviewed), 1, 5
    corr = report.correlations["S"]
    assert corr.n == 4
    assert corr.pearson == pytest.approx(-7 / math.sqrt(26 * 14))
    assert corr.kendall_tau_b == pytest.approx(kendall_brute([6, 1, 5, 0], [2, 0, 1, 5]))
    assert "T" not in report.correlations  # B never annotated system T
    strict = span_agreement([x for x in a if x.system == "S"][:4], b, match_severity=True)
    assert strict.exact_matches == 0  # both matches differ in severity (major vs minor)
    loose = span_agreement(a[:4], b, match_category=True)
    assert loose.exact_matches == 2


def test_f1_is_nan_when_nobody_marked_anything() -> None:
    empty = span_agreement([], [])
    assert math.isnan(empty.exact_f1) and math.isnan(empty.char_f1)


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
