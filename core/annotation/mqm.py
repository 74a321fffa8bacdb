"""MQM scores from error spans, ESA figures from segment scores, and the MQM-derived pre-fill
for an ESA segment score.

The default weights (:data:`DEFAULT_WEIGHTS`) are Freitag et al. (2021), "Experts, Errors, and
Context" (Table 2), as published with google/wmt-mqm-human-evaluation:

============  ==========================  ======
severity      category                    weight
============  ==========================  ======
Major         Non-translation             25
Major         all others                  5
Minor         Fluency/Punctuation         0.1
Minor         all others                  1
Neutral       all                         0
any           Source issue (source error) 0
============  ==========================  ======

``No-error`` rows are not errors (they are review marks, weight 0). Critical is not in the paper:
it weighs 25, the MQM Council scoring model's multiplier and the weight of an unusable
(Non-translation) segment; xCOMET uses 10 and Google's MQM Viewer 5. The weights are editable
(:class:`MQMWeights`): rules are tried in order and the first that matches a span gives its
weight (as in the MQM Viewer), so the specific rules come first. Categories match whatever the
file's spelling (:func:`~matchlight.core.annotation.typology.label_key`: ``Non-translation!``
is ``Non-translation``, ``Source error`` is ``Source issue``).

Averaging, as the paper and Google's published tables: a rater's penalty on a segment is the sum
of the weights of that rater's counted spans there (0 for a rater who marked the segment as
having no errors); a segment's MQM score is the MEAN over its raters; a system's MQM score is
the mean over its rated segments. Lower is better; 0 = no errors. Only confirmed spans count
unless the caller asks otherwise. Spans without a category are ESA annotations, not MQM: a
rater whose counted spans on a segment include one has no MQM rating there.
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from matchlight.core.annotation.model import (
    AnnotationError,
    ErrorSpan,
    SegmentScore,
    Severity,
    Status,
)
from matchlight.core.annotation.typology import SEPARATOR, label_key

__all__ = [
    "DEFAULT_WEIGHTS",
    "ESA_CAP",
    "WEIGHT_PRESETS",
    "MQMWeights",
    "SegmentSets",
    "SystemFigure",
    "SystemMQM",
    "WeightRule",
    "annotated_segments",
    "compare_segment_sets",
    "esa_prefill",
    "mqm_summary",
    "rater_penalties",
    "segment_esa",
    "segment_mqm",
    "system_esa",
    "system_mqm",
]

#: The penalty at which the ESA pre-fill reaches 0 (five Major errors).
ESA_CAP = 25.0

#: (system, segment, rater).
RatingKey = tuple[str, int, str]


def _category_matches(rule: str, category: str) -> bool:
    rule_key, key = label_key(rule), label_key(category)
    return key == rule_key or key.startswith(rule_key + SEPARATOR)


@dataclass(frozen=True, slots=True)
class WeightRule:
    """``weight`` for spans of ``severity`` (None: any) in ``category`` or below it (None: any)."""

    weight: float
    severity: Severity | None = None
    category: str | None = None

    def __post_init__(self) -> None:
        if not float(self.weight) >= 0.0 or not math.isfinite(float(self.weight)):
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

    def describe(self) -> str:
        """The rules in words, in order (for reports and the command line)."""
        return "; ".join(
            f"{r.weight:g} for {r.severity.value if r.severity else 'any severity'}"
            + (f" in {r.category}" if r.category else "")
            for r in self.rules
        )

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
            category = item.get("category")
            if category is not None and not isinstance(category, str):
                raise AnnotationError(f"a weight rule's category must be text, not {category!r}")
            try:
                weight = float(item["weight"])
            except (TypeError, ValueError):
                raise AnnotationError(f"bad MQM weight {item['weight']!r}") from None
            rules.append(
                WeightRule(
                    weight=weight,
                    severity=None if sev is None else Severity.parse(str(sev)),
                    category=category,
                )
            )
        return cls(tuple(rules))


#: Freitag et al. (2021)'s weights, plus Critical as the module docstring says.
DEFAULT_WEIGHTS = MQMWeights(
    (
        WeightRule(0.0, None, "Source issue"),
        WeightRule(0.0, None, "No-error"),
        WeightRule(0.0, Severity.NEUTRAL),
        WeightRule(0.1, Severity.MINOR, "Fluency/Punctuation"),
        WeightRule(25.0, Severity.MAJOR, "Non-translation"),
        WeightRule(1.0, Severity.MINOR),
        WeightRule(5.0, Severity.MAJOR),
        WeightRule(25.0, Severity.CRITICAL),
    )
)

#: Named weights (``matchlight mqm --weights NAME``). ``source-counted`` weighs source errors as
#: any other error: google/wmt-mqm-human-evaluation's published TED zh-en table was computed so
#: (its per-segment scores count a Minor ``Source error`` as 1).
WEIGHT_PRESETS: Mapping[str, MQMWeights] = {
    "freitag2021": DEFAULT_WEIGHTS,
    "source-counted": MQMWeights(
        tuple(r for r in DEFAULT_WEIGHTS.rules if r.category != "Source issue")
    ),
}

_COUNTED: tuple[Status, ...] = (Status.CONFIRMED,)


def rater_penalties(
    spans: Iterable[ErrorSpan],
    scores: Iterable[SegmentScore] = (),
    *,
    weights: MQMWeights = DEFAULT_WEIGHTS,
    statuses: Collection[Status] = _COUNTED,
    severity_only: bool = False,
) -> dict[RatingKey, float]:
    """Each MQM rating's penalty: per (system, segment, rater), the sum of the weights of the
    rater's counted spans there; a rater's segment score or review mark with no span is a
    rating of 0. A rater with a counted span without category (ESA) there has no MQM rating,
    unless ``severity_only`` (spans that have a severity only, as xCOMET's, weigh by it)."""
    totals: dict[RatingKey, float] = defaultdict(float)
    esa: set[RatingKey] = set()
    for span in spans:
        if span.status not in statuses:
            continue
        key = (span.system, span.segment, span.annotator)
        if not span.category and not severity_only:
            esa.add(key)
        else:
            totals[key] += weights.weight(span)
    for score in scores:
        totals.setdefault(score.key, 0.0)
    return {key: value for key, value in totals.items() if key not in esa}


def _mean(values: Iterable[float]) -> float:
    items = list(values)
    return math.fsum(items) / len(items) if items else math.nan


def segment_mqm(
    spans: Iterable[ErrorSpan],
    scores: Iterable[SegmentScore] = (),
    *,
    weights: MQMWeights = DEFAULT_WEIGHTS,
    statuses: Collection[Status] = _COUNTED,
    severity_only: bool = False,
) -> dict[tuple[str, int], float]:
    """The MQM score of every rated (system, segment): the mean of its raters' penalties
    (:func:`rater_penalties`). Two raters with a Major error each and one with none: 10/3."""
    by_segment: dict[tuple[str, int], list[float]] = defaultdict(list)
    for (system, segment, _), penalty in rater_penalties(
        spans, scores, weights=weights, statuses=statuses, severity_only=severity_only
    ).items():
        by_segment[(system, segment)].append(penalty)
    return {key: _mean(values) for key, values in by_segment.items()}


def annotated_segments(
    spans: Iterable[ErrorSpan],
    scores: Iterable[SegmentScore] = (),
    *,
    statuses: Collection[Status] = _COUNTED,
) -> dict[str, set[int]]:
    """Per system, the segments with any annotation: a counted span (with a category or not)
    or a segment score / review mark. The MQM-rated ones are the keys of :func:`segment_mqm`."""
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
    severity_only: bool = False,
) -> dict[str, float]:
    """Each system's MQM score: the mean of its segments' MQM scores (:func:`segment_mqm`).

    By default a system's segments are its MQM-rated ones; pass ``segments`` to average over
    other sets (e.g. the segments every system was rated on, or every segment of the corpus,
    where an unrated one counts as error-free).
    """
    per_segment = segment_mqm(
        spans, scores, weights=weights, statuses=statuses, severity_only=severity_only
    )
    chosen: Mapping[str, Collection[int]]
    if segments is None:
        rated: dict[str, set[int]] = defaultdict(set)
        for system, segment in per_segment:
            rated[system].add(segment)
        chosen = rated
    else:
        chosen = segments
    return {
        system: _mean(per_segment.get((system, s), 0.0) for s in segs)
        for system, segs in chosen.items()
        if segs
    }


# -- ESA ---------------------------------------------------------------------------------------


def segment_esa(scores: Iterable[SegmentScore]) -> dict[tuple[str, int], float]:
    """The ESA score of every (system, segment) with one: the mean of its raters' 0–100 scores
    (review marks without a score are left out)."""
    by_segment: dict[tuple[str, int], list[float]] = defaultdict(list)
    for score in scores:
        if score.score is not None:
            by_segment[(score.system, score.segment)].append(score.score)
    return {key: _mean(values) for key, values in by_segment.items()}


@dataclass(frozen=True, slots=True)
class SystemFigure:
    """A system's mean over its rated segments, and how many segments and raters it rests on."""

    value: float
    segments: int
    raters: int


def system_esa(scores: Iterable[SegmentScore]) -> dict[str, SystemFigure]:
    """Each system's ESA score: the mean over its scored segments of their mean score (the same
    averaging as :func:`system_mqm`), with the number of segments and raters."""
    score_list = [s for s in scores if s.score is not None]
    per_segment = segment_esa(score_list)
    raters: dict[str, set[str]] = defaultdict(set)
    for score in score_list:
        raters[score.system].add(score.annotator)
    values: dict[str, list[float]] = defaultdict(list)
    for (system, _), value in per_segment.items():
        values[system].append(value)
    return {
        system: SystemFigure(_mean(vals), len(vals), len(raters[system]))
        for system, vals in values.items()
    }


# -- per-system summaries ----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class SystemMQM:
    """One system's MQM figure and what it rests on.

    ``mqm``: the mean over ``segments`` rated segments (:func:`system_mqm`); ``raters``: how many
    people rated them; ``ratings``: (segment, rater) pairs; ``errors``: counted MQM spans per
    category path and severity; ``penalty``: each top-level category's share of ``mqm`` (they
    add up to it); ``ignored``: counted spans without a category (ESA) left out of MQM.
    """

    system: str
    mqm: float
    segments: int
    raters: int
    ratings: int
    errors: Mapping[str, Mapping[str, int]] = field(default_factory=dict)
    penalty: Mapping[str, float] = field(default_factory=dict)
    ignored: int = 0

    @property
    def n_errors(self) -> int:
        return sum(sum(by_sev.values()) for by_sev in self.errors.values())

    def by_severity(self) -> dict[str, int]:
        """Counted MQM spans per severity."""
        out: Counter[str] = Counter()
        for by_sev in self.errors.values():
            out.update(by_sev)
        return dict(out)

    def to_json(self) -> dict[str, Any]:
        return {
            "mqm": self.mqm,
            "segments": self.segments,
            "raters": self.raters,
            "ratings": self.ratings,
            "errors": self.n_errors,
            "by_severity": self.by_severity(),
            "by_category": {cat: dict(sev) for cat, sev in self.errors.items()},
            "penalty_by_category": dict(self.penalty),
            "ignored_spans_without_category": self.ignored,
        }


def mqm_summary(
    spans: Iterable[ErrorSpan],
    scores: Iterable[SegmentScore] = (),
    *,
    weights: MQMWeights = DEFAULT_WEIGHTS,
    statuses: Collection[Status] = _COUNTED,
    segments: Mapping[str, Collection[int]] | None = None,
    severity_only: bool = False,
) -> dict[str, SystemMQM]:
    """Per system (sorted by name): its MQM score (:func:`system_mqm`), rated segments,
    raters, ratings, errors per category and severity, and each top-level category's share.

    With ``segments``, each system's figures cover only those of its rated segments. A span
    without a category is counted under the category ``""``.
    """
    span_list = [s for s in spans if s.status in statuses]
    ratings = rater_penalties(
        span_list, scores, weights=weights, statuses=statuses, severity_only=severity_only
    )
    if segments is not None:
        ratings = {k: v for k, v in ratings.items() if k[1] in segments.get(k[0], ())}
    per_segment_raters: dict[tuple[str, int], int] = Counter((k[0], k[1]) for k in ratings)
    by_system: dict[str, list[RatingKey]] = defaultdict(list)
    for key in ratings:
        by_system[key[0]].append(key)
    errors: dict[str, dict[str, Counter[str]]] = defaultdict(lambda: defaultdict(Counter))
    share: dict[str, dict[str, float]] = defaultdict(lambda: defaultdict(float))
    ignored: Counter[str] = Counter()
    for span in span_list:
        key = (span.system, span.segment, span.annotator)
        if key not in ratings:
            wanted = segments is None or span.segment in segments.get(span.system, ())
            if not span.category and wanted:
                ignored[span.system] += 1
            continue
        errors[span.system][span.category][span.severity.value] += 1
        top = span.category.split(SEPARATOR)[0]
        # A span's share of its system's mean: its weight over its segment's rater count.
        share[span.system][top] += weights.weight(span) / per_segment_raters[key[:2]]
    out: dict[str, SystemMQM] = {}
    for system in sorted(set(by_system) | set(ignored)):
        keys = by_system.get(system, [])
        rated = {k[1] for k in keys}
        n = len(rated)
        out[system] = SystemMQM(
            system=system,
            mqm=_mean(_mean(ratings[k] for k in keys if k[1] == s) for s in rated),
            segments=n,
            raters=len({k[2] for k in keys}),
            ratings=len(keys),
            errors={cat: dict(sev) for cat, sev in sorted(errors[system].items())},
            penalty={cat: v / n for cat, v in sorted(share[system].items())} if n else {},
            ignored=ignored[system],
        )
    return out


@dataclass(frozen=True, slots=True)
class SegmentSets:
    """Whether systems were rated on the same segments, and the segments they share."""

    per_system: Mapping[str, int]
    common: frozenset[int]

    @property
    def same(self) -> bool:
        return all(n == len(self.common) for n in self.per_system.values())

    def warning(self, what: str = "MQM") -> str | None:
        """A sentence for the user when the sets differ, else None."""
        if self.same:
            return None
        counts = ", ".join(f"{name} {n:,}" for name, n in self.per_system.items())
        return (
            f"The systems' {what} scores are means over different segments ({counts}; "
            f"{len(self.common):,} rated for every system): compare them on the common "
            "segments, not side by side."
        )


def compare_segment_sets(segments: Mapping[str, Collection[int]]) -> SegmentSets:
    """How the rated segments of each system (e.g. from :func:`segment_mqm`) compare."""
    sets = [set(v) for v in segments.values()]
    common = frozenset(set.intersection(*sets)) if sets else frozenset()
    return SegmentSets({name: len(set(v)) for name, v in segments.items()}, common)


def esa_prefill(penalty: float) -> float:
    """An ESA score (0–100) suggested from a segment's MQM penalty: ``100 - 4 * min(penalty, 25)``.

    The scale is the one Appraise's MQM/ESA interface uses for its MQM-derived score and xCOMET
    uses to rescale its span penalty ((25 - min(25, p)) / 25): no errors = 100, one Minor = 96,
    one Major = 80, five Majors (or a Non-translation) = 0.
    """
    if penalty < 0:
        raise AnnotationError(f"an MQM penalty cannot be negative, got {penalty}")
    return 100.0 - 4.0 * min(float(penalty), ESA_CAP)
