"""Agreement between two annotators' error annotations of the same outputs.

* Span level, per system and overall: exact-match F1 (the same system, segment, start and end;
  optionally also the same severity / category) and character-overlap F1 (characters covered by
  A's spans and by B's, per segment). F1 is symmetric in A and B; precision and recall read A as
  the candidate and B as the reference. Omissions (point spans) cover no character: they count in
  exact matching only. F1 is NaN when neither annotator marked anything.
* Segment level, per system: Pearson's r and Kendall's tau-b between the two annotators'
  MQM penalties on the segments both annotated. NaN with fewer than two segments or a constant
  side.

Kendall's tau-b is computed here (scipy is not a dependency) in O(n log^2 n): sort by x then y,
count the pairs tied in x, in y and in both, and count the discordant pairs as inversions of y
with a vectorised bottom-up merge.
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from matchlight.core.annotation.model import ErrorSpan, SegmentScore, Status
from matchlight.core.annotation.mqm import (
    DEFAULT_WEIGHTS,
    MQMWeights,
    annotated_segments,
    segment_mqm,
)

__all__ = [
    "AgreementReport",
    "ScoreCorrelation",
    "SpanAgreement",
    "agreement",
    "kendall_tau_b",
    "pearson",
    "span_agreement",
]

_COUNTED: tuple[Status, ...] = (Status.CONFIRMED,)


def _ratio(num: float, den: float) -> float:
    return num / den if den else math.nan


@dataclass(frozen=True, slots=True)
class SpanAgreement:
    """Span-level agreement of annotator A (candidate) with annotator B (reference)."""

    spans_a: int
    spans_b: int
    exact_matches: int
    chars_a: int
    chars_b: int
    chars_both: int

    @property
    def exact_f1(self) -> float:
        return _ratio(2 * self.exact_matches, self.spans_a + self.spans_b)

    @property
    def char_precision(self) -> float:
        return _ratio(self.chars_both, self.chars_a)

    @property
    def char_recall(self) -> float:
        return _ratio(self.chars_both, self.chars_b)

    @property
    def char_f1(self) -> float:
        return _ratio(2 * self.chars_both, self.chars_a + self.chars_b)


@dataclass(frozen=True, slots=True)
class ScoreCorrelation:
    """Correlation of two annotators' segment MQM penalties over ``n`` shared segments."""

    n: int
    pearson: float
    kendall_tau_b: float


@dataclass(frozen=True, slots=True)
class AgreementReport:
    overall: SpanAgreement
    per_system: Mapping[str, SpanAgreement]
    correlations: Mapping[str, ScoreCorrelation]


def _covered(spans: Iterable[ErrorSpan]) -> dict[tuple[str, int], set[int]]:
    cover: dict[tuple[str, int], set[int]] = defaultdict(set)
    for span in spans:
        cover[(span.system, span.segment)].update(range(span.start, span.end))
    return cover


def span_agreement(
    spans_a: Sequence[ErrorSpan],
    spans_b: Sequence[ErrorSpan],
    *,
    match_severity: bool = False,
    match_category: bool = False,
) -> SpanAgreement:
    """Exact-match and character-overlap counts between two lists of spans."""

    def key(span: ErrorSpan) -> tuple[object, ...]:
        parts: tuple[object, ...] = (span.system, span.segment, span.start, span.end)
        if match_severity:
            parts += (span.severity,)
        if match_category:
            parts += (span.category.casefold(),)
        return parts

    count_a, count_b = Counter(map(key, spans_a)), Counter(map(key, spans_b))
    matches = sum((count_a & count_b).values())
    cover_a, cover_b = _covered(spans_a), _covered(spans_b)
    both = sum(len(chars & cover_b.get(seg, set())) for seg, chars in cover_a.items())
    return SpanAgreement(
        spans_a=len(spans_a),
        spans_b=len(spans_b),
        exact_matches=matches,
        chars_a=sum(map(len, cover_a.values())),
        chars_b=sum(map(len, cover_b.values())),
        chars_both=both,
    )


def pearson(x: Sequence[float] | npt.ArrayLike, y: Sequence[float] | npt.ArrayLike) -> float:
    """Pearson's r; NaN for fewer than two values or a constant side."""
    xa, ya = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
    if xa.shape != ya.shape or xa.ndim != 1:
        raise ValueError("pearson needs two 1-D sequences of equal length")
    if len(xa) < 2:
        return math.nan
    xc, yc = xa - xa.mean(), ya - ya.mean()
    den = math.sqrt(float(np.dot(xc, xc)) * float(np.dot(yc, yc)))
    return float(np.dot(xc, yc)) / den if den else math.nan


def _tied_pairs(*columns: npt.NDArray[np.int64]) -> int:
    """Pairs of rows equal in all ``columns`` (non-negative ranks, combined into one key)."""
    key = np.zeros(len(columns[0]), dtype=np.int64)
    for column in columns:
        key = key * (int(column.max()) + 1) + column
    _, counts = np.unique(key, return_counts=True)
    return int((counts * (counts - 1) // 2).sum())


def _inversions(values: npt.NDArray[np.int64]) -> int:
    """Pairs i < j with values[i] > values[j] (values are ranks 0..m-1)."""
    n = len(values)
    if n < 2:
        return 0
    big = int(values.max()) + 1
    current = values.astype(np.int64)
    position = np.arange(n, dtype=np.int64)
    total = 0
    width = 1
    while width < n:
        block = position // (2 * width)
        right = (position % (2 * width)) >= width
        keys = block * big + current
        left_keys = keys[~right]  # each left half is sorted, blocks in order: ascending
        right_keys, right_block = keys[right], block[right]
        left_end = np.searchsorted(left_keys, right_block * big + big - 1, side="right")
        not_greater = np.searchsorted(left_keys, right_keys, side="right")
        total += int((left_end - not_greater).sum())
        current = np.sort(keys) % big  # keys are block-major: one sort merges every block
        width *= 2
    return total


def kendall_tau_b(x: Sequence[float] | npt.ArrayLike, y: Sequence[float] | npt.ArrayLike) -> float:
    """Kendall's tau-b (ties in either variable corrected, as scipy.stats.kendalltau)."""
    xa, ya = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
    if xa.shape != ya.shape or xa.ndim != 1:
        raise ValueError("kendall_tau_b needs two 1-D sequences of equal length")
    n = len(xa)
    if n < 2:
        return math.nan
    xr = np.unique(xa, return_inverse=True)[1].astype(np.int64).ravel()
    yr = np.unique(ya, return_inverse=True)[1].astype(np.int64).ravel()
    order = np.lexsort((yr, xr))
    xs, ys = xr[order], yr[order]
    n0 = n * (n - 1) // 2
    n1, n2, n3 = _tied_pairs(xs), _tied_pairs(ys), _tied_pairs(xs, ys)
    discordant = _inversions(ys)
    den = math.sqrt(float(n0 - n1) * float(n0 - n2))
    if not den:
        return math.nan
    return (n0 - n1 - n2 + n3 - 2 * discordant) / den


def agreement(
    spans_a: Iterable[ErrorSpan],
    spans_b: Iterable[ErrorSpan],
    scores_a: Iterable[SegmentScore] = (),
    scores_b: Iterable[SegmentScore] = (),
    *,
    weights: MQMWeights = DEFAULT_WEIGHTS,
    statuses: Collection[Status] = _COUNTED,
    match_severity: bool = False,
    match_category: bool = False,
) -> AgreementReport:
    """Span agreement (overall and per system) and per-system MQM correlations of A and B."""
    a = [s for s in spans_a if s.status in statuses]
    b = [s for s in spans_b if s.status in statuses]
    options = {"match_severity": match_severity, "match_category": match_category}
    systems = sorted({s.system for s in a} | {s.system for s in b})
    per_system = {
        name: span_agreement(
            [s for s in a if s.system == name], [s for s in b if s.system == name], **options
        )
        for name in systems
    }
    mqm_a = segment_mqm(a, weights=weights)
    mqm_b = segment_mqm(b, weights=weights)
    done_a = annotated_segments(a, scores_a)
    done_b = annotated_segments(b, scores_b)
    correlations: dict[str, ScoreCorrelation] = {}
    for name in sorted(set(done_a) & set(done_b)):
        shared = sorted(done_a[name] & done_b[name])
        xs = [mqm_a.get((name, seg), 0.0) for seg in shared]
        ys = [mqm_b.get((name, seg), 0.0) for seg in shared]
        correlations[name] = ScoreCorrelation(len(shared), pearson(xs, ys), kendall_tau_b(xs, ys))
    return AgreementReport(span_agreement(a, b, **options), per_system, correlations)
