"""MQM scores from error spans, and the MQM-derived pre-fill for an ESA segment score.

Default weights (:data:`DEFAULT_WEIGHTS`) follow Freitag et al. (2021), "Experts, Errors, and
Context", as published with google/wmt-mqm-human-evaluation: Minor 1, Major 5, Minor
Fluency/Punctuation 0.1, Non-translation 25 (a whole-segment label "equivalent to five Major
errors", whatever its severity) and Neutral 0. Two choices the paper does not make:

* Critical: the paper has no such severity. We use 25, the MQM Council scoring model's
  multiplier, which also equals Non-translation (an unusable segment). xCOMET uses 10 and
  Google's MQM Viewer 5; the weights are editable.
* Source issue: errors in the source are not the translation's fault and weigh 0, as in
  Google's MQM Viewer.

Rules are tried in order and the first that matches a span gives its weight (as in the MQM
Viewer), so the specific rules come first. A segment's score is the sum of its counted spans'
weights (an error penalty: lower is better, 0 = no errors); a system's score is the mean over
its segments. Only confirmed spans count unless the caller asks otherwise.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from matchlight.core.annotation.model import (
    AnnotationError,
    ErrorSpan,
    SegmentScore,
    Severity,
    Status,
)
from matchlight.core.annotation.typology import SEPARATOR

__all__ = [
    "DEFAULT_WEIGHTS",
    "ESA_CAP",
    "MQMWeights",
    "WeightRule",
    "annotated_segments",
    "esa_prefill",
    "segment_mqm",
    "system_mqm",
]

#: The penalty at which the ESA pre-fill reaches 0 (five Major errors).
ESA_CAP = 25.0


def _category_matches(rule: str, category: str) -> bool:
    rule_key, key = rule.casefold(), category.casefold()
    return key == rule_key or key.startswith(rule_key + SEPARATOR)


@dataclass(frozen=True, slots=True)
class WeightRule:
    """``weight`` for spans of ``severity`` (None: any) in ``category`` or below it (None: any)."""

    weight: float
    severity: Severity | None = None
    category: str | None = None

    def __post_init__(self) -> None:
        if not float(self.weight) >= 0.0:
            raise AnnotationError(f"an MQM weight must be a number >= 0, not {self.weight!r}")
        if self.severity is None and self.category is None:
            raise AnnotationError("a weight rule needs a severity, a category or both")

    def matches(self, span: ErrorSpan) -> bool:
        if self.severity is not None and span.severity is not self.severity:
            return False
        return self.category is None or _category_matches(self.category, span.category)

    def to_json(self) -> dict[str, Any]:
        return {
            "weight": self.weight,
            "severity": None if self.severity is None else self.severity.value,
            "category": self.category,
        }


@dataclass(frozen=True, slots=True)
class MQMWeights:
    """An ordered list of weight rules; the first rule matching a span decides its weight."""

    rules: tuple[WeightRule, ...]

    def weight(self, span: ErrorSpan) -> float:
        """The penalty of one span; 0 if no rule matches."""
        for rule in self.rules:
            if rule.matches(span):
                return float(rule.weight)
        return 0.0

    def to_json(self) -> list[dict[str, Any]]:
        return [r.to_json() for r in self.rules]

    @classmethod
    def from_json(cls, data: Any) -> MQMWeights:
        if not isinstance(data, list):
            raise AnnotationError("MQM weights must be a list of rules")
        rules = []
        for item in data:
            if not isinstance(item, dict) or "weight" not in item:
                raise AnnotationError(f"bad MQM weight rule {item!r}")
            sev = item.get("severity")
            rules.append(
                WeightRule(
                    weight=float(item["weight"]),
                    severity=None if sev is None else Severity.parse(sev),
                    category=item.get("category"),
                )
            )
        return cls(tuple(rules))


#: Freitag et al. (2021) weights, plus Critical and Source issue as the module docstring says.
DEFAULT_WEIGHTS = MQMWeights(
    (
        WeightRule(0.1, Severity.MINOR, "Fluency/Punctuation"),
        WeightRule(0.0, None, "Source issue"),
        WeightRule(25.0, None, "Non-translation"),
        WeightRule(0.0, Severity.NEUTRAL),
        WeightRule(1.0, Severity.MINOR),
        WeightRule(5.0, Severity.MAJOR),
        WeightRule(25.0, Severity.CRITICAL),
    )
)

_COUNTED: tuple[Status, ...] = (Status.CONFIRMED,)


def segment_mqm(
    spans: Iterable[ErrorSpan],
    *,
    weights: MQMWeights = DEFAULT_WEIGHTS,
    statuses: Collection[Status] = _COUNTED,
) -> dict[tuple[str, int], float]:
    """The MQM penalty of every (system, segment) that has a counted span."""
    totals: dict[tuple[str, int], float] = defaultdict(float)
    for span in spans:
        if span.status in statuses:
            totals[(span.system, span.segment)] += weights.weight(span)
    return dict(totals)


def annotated_segments(
    spans: Iterable[ErrorSpan],
    scores: Iterable[SegmentScore] = (),
    *,
    statuses: Collection[Status] = _COUNTED,
) -> dict[str, set[int]]:
    """Per system, the segments that have a counted span or a segment score / review mark."""
    out: dict[str, set[int]] = defaultdict(set)
    for span in spans:
        if span.status in statuses:
            out[span.system].add(span.segment)
    for score in scores:
        out[score.system].add(score.segment)
    return dict(out)


def system_mqm(
    spans: Iterable[ErrorSpan],
    scores: Iterable[SegmentScore] = (),
    *,
    weights: MQMWeights = DEFAULT_WEIGHTS,
    statuses: Collection[Status] = _COUNTED,
    segments: Mapping[str, Collection[int]] | None = None,
) -> dict[str, float]:
    """Each system's MQM score: the mean penalty over its segments.

    By default a system's segments are the annotated ones (:func:`annotated_segments`: a counted
    span, or a segment score / review mark); pass ``segments`` to average over other sets (e.g.
    every segment of the corpus, where unannotated ones count as error-free).
    """
    span_list = list(spans)
    per_segment = segment_mqm(span_list, weights=weights, statuses=statuses)
    chosen = (
        annotated_segments(span_list, scores, statuses=statuses) if segments is None else segments
    )
    result: dict[str, float] = {}
    for system, segs in chosen.items():
        if segs:
            result[system] = sum(per_segment.get((system, s), 0.0) for s in segs) / len(segs)
    return result


def esa_prefill(penalty: float) -> float:
    """An ESA score (0–100) suggested from a segment's MQM penalty: ``100 - 4 * min(penalty, 25)``.

    The scale is the one Appraise's MQM/ESA interface uses for its MQM-derived score and xCOMET
    uses to rescale its span penalty ((25 - min(25, p)) / 25): no errors = 100, one Minor = 96,
    one Major = 80, five Majors (or a Non-translation) = 0.
    """
    if penalty < 0:
        raise AnnotationError(f"an MQM penalty cannot be negative, got {penalty}")
    return 100.0 - 4.0 * min(float(penalty), ESA_CAP)
