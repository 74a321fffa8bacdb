"""Agreement between two annotators' error annotations of the same outputs.

* Span level, per system and overall, with F1 at four strictnesses: the same place
  (``position``: system, segment, side, start and end), the same place and severity, the same
  place and category, and all three (``exact``: a Major "wrap" against a Critical "wrap" is NOT an
  exact match). Character-overlap F1 (characters covered by A's spans and by B's, per segment
  and side), and an MQM-weighted F1: spans paired at the same place count with the smaller of
  their two MQM weights, so a disagreement on a Minor punctuation mark weighs little and one on
  a Major error much. F1 is symmetric in A and B; precision and recall read A as the candidate
  and B as the reference. Omissions (point spans) cover no character: they count in matching
  only. F1 is NaN when neither annotator marked anything.
* Disagreements (:func:`disagreements`): every pair of spans that differ in severity, category
  or boundaries, and every span only one annotator marked, in reading order, for a UI to step
  through.
* Segment level, per system: Pearson's r and Kendall's tau-b between the two annotators'
  MQM scores on the segments both rated. NaN with fewer than two segments or a constant side.

Kendall's tau-b is computed here (scipy is not a dependency) in O(n log^2 n): sort by x then y,
count the pairs tied in x, in y and in both, and count the discordant pairs as inversions of y
with a vectorised bottom-up merge.
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum

import numpy as np
import numpy.typing as npt

from matchlight.core.annotation.model import ErrorSpan, SegmentScore, Status
from matchlight.core.annotation.mqm import DEFAULT_WEIGHTS, MQMWeights, segment_mqm
from matchlight.core.annotation.typology import label_key

__all__ = [
    "AgreementReport",
    "Disagreement",
    "DisagreementKind",
    "ScoreCorrelation",
    "SpanAgreement",
    "agreement",
    "disagreements",
    "kendall_tau_b",
    "pearson",
    "span_agreement",
]

_COUNTED: tuple[Status, ...] = (Status.CONFIRMED,)


def _ratio(num: float, den: float) -> float:
    return num / den if den else math.nan


@dataclass(frozen=True, slots=True)
class SpanAgreement:
    """Span-level agreement of annotator A (candidate) with annotator B (reference).

    ``position_matches`` pairs the spans at the same place; ``severity_matches`` and
    ``category_matches`` those that also agree on that; ``exact_matches`` those that agree on
    all three. ``weight_*`` are MQM weights: of A's spans, of B's, and of the pairs at the same
    place (the smaller weight of each pair).
    """

    spans_a: int
    spans_b: int
    exact_matches: int
    chars_a: int
    chars_b: int
    chars_both: int
    position_matches: int = 0
    severity_matches: int = 0
    category_matches: int = 0
    weight_a: float = 0.0
    weight_b: float = 0.0
    weight_both: float = 0.0

    def _f1(self, matches: int) -> float:
        return _ratio(2 * matches, self.spans_a + self.spans_b)

    @property
    def exact_f1(self) -> float:
        """F1 of spans with the same place, severity and category."""
        return self._f1(self.exact_matches)

    @property
    def position_f1(self) -> float:
        """F1 of spans at the same place, whatever their severity and category."""
        return self._f1(self.position_matches)

    @property
    def severity_f1(self) -> float:
        return self._f1(self.severity_matches)

    @property
    def category_f1(self) -> float:
        return self._f1(self.category_matches)

    @property
    def mqm_f1(self) -> float:
        """MQM-weighted F1: 2 * weight_both / (weight_a + weight_b)."""
        return _ratio(2 * self.weight_both, self.weight_a + self.weight_b)

    @property
    def char_precision(self) -> float:
        return _ratio(self.chars_both, self.chars_a)

    @property
    def char_recall(self) -> float:
        return _ratio(self.chars_both, self.chars_b)

    @property
    def char_f1(self) -> float:
        return _ratio(2 * self.chars_both, self.chars_a + self.chars_b)


class DisagreementKind(StrEnum):
    """How two annotators differ on one place of one output."""

    SEVERITY = "severity"  # same span, other severity
    CATEGORY = "category"  # same span, other category
    LABELS = "severity and category"  # same span, both differ
    BOUNDARY = "boundary"  # overlapping spans with other start or end
    ONLY_A = "only A"  # A marked it, B did not
    ONLY_B = "only B"  # B marked it, A did not


@dataclass(frozen=True, slots=True)
class Disagreement:
    """One difference between A and B: a pair of spans (``a`` and ``b``) or a span of one."""

    kind: DisagreementKind
    system: str
    segment: int
    a: ErrorSpan | None
    b: ErrorSpan | None

    @property
    def start(self) -> int:
        return min(s.start for s in (self.a, self.b) if s is not None)

    @property
    def side(self) -> str:
        """``"target"`` or ``"source"``: the text both spans are on."""
        span = self.a if self.a is not None else self.b
        return "target" if span is None else span.side.value

    def describe(self) -> str:
        """One line for the user: where, and what each annotator said."""

        def said(span: ErrorSpan | None) -> str:
            if span is None:
                return "nothing"
            what = span.severity.value + (f" {span.category}" if span.category else "")
            return f"{what} on {span.text!r}" if span.text else f"{what} (omission)"

        return (
            f"{self.system}, segment {self.segment + 1}: {self.kind.value}: "
            f"A {said(self.a)}, B {said(self.b)}"
        )


@dataclass(frozen=True, slots=True)
class ScoreCorrelation:
    """Correlation of two annotators' segment MQM scores over ``n`` shared segments."""

    n: int
    pearson: float
    kendall_tau_b: float


@dataclass(frozen=True, slots=True)
class AgreementReport:
    overall: SpanAgreement
    per_system: Mapping[str, SpanAgreement]
    correlations: Mapping[str, ScoreCorrelation]
    disagreements: tuple[Disagreement, ...] = ()


def _place(span: ErrorSpan) -> tuple[str, int, str]:
    return (span.system, span.segment, span.side.value)


def _covered(spans: Iterable[ErrorSpan]) -> dict[tuple[str, int, str], set[int]]:
    cover: dict[tuple[str, int, str], set[int]] = defaultdict(set)
    for span in spans:
        cover[_place(span)].update(range(span.start, span.end))
    return cover


def _position(span: ErrorSpan) -> tuple[object, ...]:
    return (*_place(span), span.start, span.end)


def _matches(
    spans_a: Sequence[ErrorSpan],
    spans_b: Sequence[ErrorSpan],
    key: Callable[[ErrorSpan], tuple[object, ...]],
) -> int:
    return sum((Counter(map(key, spans_a)) & Counter(map(key, spans_b))).values())


def span_agreement(
    spans_a: Sequence[ErrorSpan],
    spans_b: Sequence[ErrorSpan],
    *,
    weights: MQMWeights = DEFAULT_WEIGHTS,
) -> SpanAgreement:
    """Span matches at each strictness, character overlap and MQM-weighted overlap of two
    lists of spans."""

    def severity(span: ErrorSpan) -> tuple[object, ...]:
        return (*_position(span), span.severity)

    def category(span: ErrorSpan) -> tuple[object, ...]:
        return (*_position(span), label_key(span.category))

    def exact(span: ErrorSpan) -> tuple[object, ...]:
        return (*_position(span), span.severity, label_key(span.category))

    cover_a, cover_b = _covered(spans_a), _covered(spans_b)
    both = sum(len(chars & cover_b.get(seg, set())) for seg, chars in cover_a.items())
    # Weighted: at each place, pair the heaviest spans of A and B first (this maximises the
    # sum of the smaller weights).
    at_a: dict[tuple[object, ...], list[float]] = defaultdict(list)
    at_b: dict[tuple[object, ...], list[float]] = defaultdict(list)
    for span in spans_a:
        at_a[_position(span)].append(weights.weight(span))
    for span in spans_b:
        at_b[_position(span)].append(weights.weight(span))
    weight_both = math.fsum(
        min(x, y)
        for place, xs in at_a.items()
        for x, y in zip(sorted(xs, reverse=True), sorted(at_b.get(place, []), reverse=True))
    )
    return SpanAgreement(
        spans_a=len(spans_a),
        spans_b=len(spans_b),
        exact_matches=_matches(spans_a, spans_b, exact),
        chars_a=sum(map(len, cover_a.values())),
        chars_b=sum(map(len, cover_b.values())),
        chars_both=both,
        position_matches=_matches(spans_a, spans_b, _position),
        severity_matches=_matches(spans_a, spans_b, severity),
        category_matches=_matches(spans_a, spans_b, category),
        weight_a=math.fsum(weights.weight(s) for s in spans_a),
        weight_b=math.fsum(weights.weight(s) for s in spans_b),
        weight_both=weight_both,
    )


def _overlap(a: ErrorSpan, b: ErrorSpan) -> int | None:
    """Characters two spans share; 0 when a point touches or lies in the other; None apart."""
    shared = min(a.end, b.end) - max(a.start, b.start)
    if shared > 0:
        return shared
    if (
        (a.is_omission or b.is_omission)
        and shared == 0
        and max(a.start, b.start) <= min(a.end, b.end)
    ):
        return 0
    return None


def _label_kind(a: ErrorSpan, b: ErrorSpan) -> DisagreementKind | None:
    same_sev = a.severity is b.severity
    same_cat = label_key(a.category) == label_key(b.category)
    if same_sev and same_cat:
        return None
    if same_cat:
        return DisagreementKind.SEVERITY
    return DisagreementKind.CATEGORY if same_sev else DisagreementKind.LABELS


def disagreements(
    spans_a: Iterable[ErrorSpan],
    spans_b: Iterable[ErrorSpan],
    *,
    statuses: Collection[Status] = _COUNTED,
) -> list[Disagreement]:
    """Where A and B differ, in reading order (system, segment, side, offset).

    Spans at the same place are paired first, those agreeing on severity and category before
    others; a pair that differs in severity or category is a disagreement. The spans left are
    paired with an overlapping span of the other annotator (the largest overlap first) as a
    boundary disagreement; what is still left was marked by one annotator only.
    """
    groups: dict[tuple[str, int, str], tuple[list[ErrorSpan], list[ErrorSpan]]] = defaultdict(
        lambda: ([], [])
    )
    for index, spans in enumerate((spans_a, spans_b)):
        for span in spans:
            if span.status in statuses:
                groups[_place(span)][index].append(span)
    out: list[Disagreement] = []
    for (system, segment, _), (left_a, left_b) in groups.items():
        pairs: list[tuple[ErrorSpan, ErrorSpan]] = []
        # Same place: agreeing labels first, then the same category, the same severity, any.
        rules: tuple[Callable[[ErrorSpan, ErrorSpan], bool], ...] = (
            lambda x, y: _label_kind(x, y) is None,
            lambda x, y: _label_kind(x, y) is DisagreementKind.SEVERITY,
            lambda x, y: _label_kind(x, y) is DisagreementKind.CATEGORY,
            lambda x, y: True,
        )
        for rule in rules:
            for a in sorted(left_a, key=lambda s: (s.start, s.end, s.created)):
                b = next(
                    (y for y in left_b if (y.start, y.end) == (a.start, a.end) and rule(a, y)),
                    None,
                )
                if b is not None:
                    left_a.remove(a)
                    left_b.remove(b)
                    pairs.append((a, b))
        for a, b in pairs:
            kind = _label_kind(a, b)
            if kind is not None:
                out.append(Disagreement(kind, system, segment, a, b))
        # Overlapping spans: the largest overlap first, then the nearest starts.
        candidates = sorted(
            (
                (-shared, abs(a.start - b.start), a.start, b.start, i, j)
                for i, a in enumerate(left_a)
                for j, b in enumerate(left_b)
                if (shared := _overlap(a, b)) is not None
            )
        )
        used_a: set[int] = set()
        used_b: set[int] = set()
        for *_, i, j in candidates:
            if i in used_a or j in used_b:
                continue
            used_a.add(i)
            used_b.add(j)
            out.append(
                Disagreement(DisagreementKind.BOUNDARY, system, segment, left_a[i], left_b[j])
            )
        out += [
            Disagreement(DisagreementKind.ONLY_A, system, segment, a, None)
            for i, a in enumerate(left_a)
            if i not in used_a
        ]
        out += [
            Disagreement(DisagreementKind.ONLY_B, system, segment, None, b)
            for j, b in enumerate(left_b)
            if j not in used_b
        ]
    kinds = list(DisagreementKind)
    out.sort(key=lambda d: (d.system, d.segment, d.side != "target", d.start, kinds.index(d.kind)))
    return out


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
) -> AgreementReport:
    """Span agreement (overall and per system), the disagreements, and the per-system
    correlations of A's and B's segment MQM scores."""
    a = [s for s in spans_a if s.status in statuses]
    b = [s for s in spans_b if s.status in statuses]
    list_a, list_b = list(scores_a), list(scores_b)
    systems = sorted({s.system for s in a} | {s.system for s in b})
    per_system = {
        name: span_agreement(
            [s for s in a if s.system == name], [s for s in b if s.system == name], weights=weights
        )
        for name in systems
    }
    mqm_a = segment_mqm(a, list_a, weights=weights)
    mqm_b = segment_mqm(b, list_b, weights=weights)
    rated_a: dict[str, set[int]] = defaultdict(set)
    rated_b: dict[str, set[int]] = defaultdict(set)
    for system, segment in mqm_a:
        rated_a[system].add(segment)
    for system, segment in mqm_b:
        rated_b[system].add(segment)
    correlations: dict[str, ScoreCorrelation] = {}
    for name in sorted(set(rated_a) & set(rated_b)):
        shared = sorted(rated_a[name] & rated_b[name])
        xs = [mqm_a[(name, seg)] for seg in shared]
        ys = [mqm_b[(name, seg)] for seg in shared]
        correlations[name] = ScoreCorrelation(len(shared), pearson(xs, ys), kendall_tau_b(xs, ys))
    return AgreementReport(
        span_agreement(a, b, weights=weights),
        per_system,
        correlations,
        tuple(disagreements(a, b, statuses=statuses)),
    )
