"""Meta-evaluation's data: what goes in (:class:`MetricColumn`, :class:`HumanColumn`), how it runs
(:class:`MetaEvalSettings`), what comes out (:class:`Estimate`, :class:`MetricMetaEval`,
:class:`Ranking`, :class:`MetaEvalResult`), and the data of one run (:class:`Prepared`:
both sides oriented higher-is-better, on the selected rows, systems without a human score left
out) that the point values (:mod:`~matchlight.core.analysis.metaeval`), the resampling
(:mod:`~matchlight.core.analysis.metaresample`) and the permutation tests
(:mod:`~matchlight.core.analysis.metapermutation`) all read.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from matchlight.core.analysis.compare import row_index
from matchlight.core.analysis.significance import DEFAULT_SEED

__all__ = [
    "SEGMENT_STATISTICS",
    "SYSTEM_STATISTICS",
    "AnyArray",
    "BoolArray",
    "Estimate",
    "FloatArray",
    "HumanColumn",
    "IntArray",
    "MetaEvalResult",
    "MetaEvalSettings",
    "MetricColumn",
    "MetricMetaEval",
    "Prepared",
    "Ranking",
    "ScoreFunction",
    "prepare",
]

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]
BoolArray = npt.NDArray[np.bool_]
AnyArray = npt.NDArray[Any]
ScoreFunction = Callable[[AnyArray], AnyArray]

#: The statistics per level, in the order tables and JSON show them.
SYSTEM_STATISTICS: Final[tuple[str, ...]] = (
    "pearson",
    "spearman",
    "kendall",
    "pairwise_accuracy",
    "spa",
)
SEGMENT_STATISTICS: Final[tuple[str, ...]] = ("pearson", "kendall_b", "acc23_item")


# -- inputs and results ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True, eq=False)
class MetricColumn:
    """One metric to meta-evaluate, for the systems of a comparison.

    ``segments`` ``(S, n)`` are its per-segment values; ``stats`` ``(S, n, K)`` the additive
    statistics of its corpus figure and ``score`` maps summed statistics ``(m, K)`` to figures
    (:func:`~matchlight.core.analysis.significance.table_statistics`). ``sign`` is +1 when higher
    is better and -1 when lower is (both sides are turned by it).
    """

    name: str
    segments: FloatArray
    stats: AnyArray
    score: ScoreFunction
    sign: float = 1.0


@dataclass(frozen=True, slots=True, eq=False)
class HumanColumn:
    """Human judgements for the systems of a comparison, higher is better (an MQM penalty is
    negated before it gets here): ``segments`` ``(S, n)`` with NaN where a pair was not judged,
    and/or ``systems`` ``(S,)`` judged at the system level (NaN: not judged). Without
    ``systems``, a system's score is the mean of its judged segments among the rows."""

    name: str
    segments: FloatArray | None = None
    systems: FloatArray | None = None

    def __post_init__(self) -> None:
        if self.segments is None and self.systems is None:
            raise ValueError(f"{self.name}: human scores need segment or system scores")


@dataclass(frozen=True, slots=True)
class MetaEvalSettings:
    """How a meta-evaluation runs.

    ``confidence_samples`` resamples of the segments for the intervals (0: none) at level
    ``confidence``; ``permutations`` draws of the permutation test between metrics (0: no test;
    mt-metrics-eval's ``k``), with its early stopping every ``block_size`` draws when the
    p-value is below ``early_min`` or above ``early_max`` (the WMT tasks' settings,
    ``tasks.Task``: 100, 0.02, 0.5); ``p_threshold`` for the clusters.
    """

    confidence_samples: int = 1000
    confidence: float = 0.95
    permutations: int = 1000
    block_size: int = 100
    early_min: float = 0.02
    early_max: float = 0.5
    p_threshold: float = 0.05
    seed: int = DEFAULT_SEED

    def __post_init__(self) -> None:
        for name in ("confidence_samples", "permutations"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise ValueError(f"{name} must be a whole number >= 0, not {value!r}")
        if isinstance(self.block_size, bool) or self.block_size < 1:
            raise ValueError(f"block_size must be at least 1, not {self.block_size!r}")
        if not 0.0 < self.confidence < 1.0:
            raise ValueError(f"confidence must be between 0 and 1, not {self.confidence!r}")
        if self.seed < 0:
            raise ValueError(f"seed must be >= 0, not {self.seed}")


@dataclass(frozen=True, slots=True)
class Estimate:
    """A statistic's value and, when resampled, its confidence interval ``low``..``high``."""

    value: float
    low: float | None = None
    high: float | None = None


@dataclass(frozen=True, slots=True)
class MetricMetaEval:
    """One metric's statistics: ``system[name]`` and ``segment[name]`` (None: not computable
    from the human scores given, e.g. no segment-level judgements), and the acc23 threshold."""

    name: str
    system: Mapping[str, Estimate | None]
    segment: Mapping[str, Estimate | None]
    acc23_threshold: float | None


@dataclass(frozen=True, slots=True)
class Ranking:
    """Metrics ranked on one statistic (``level`` ``system``/``segment``) into significance
    clusters, as the WMT metrics task does: ``names`` by decreasing value (ties by name),
    ``clusters[i]`` the rank of metric i's cluster, ``p_values[i][j]`` (j > i) the p-value
    that metric j is at least as good as metric i."""

    level: str
    statistic: str
    names: tuple[str, ...]
    values: tuple[float, ...]
    clusters: tuple[int, ...]
    p_values: tuple[tuple[float | None, ...], ...]


@dataclass(frozen=True, slots=True)
class MetaEvalResult:
    """A meta-evaluation: which ``systems`` and rows it used, each metric's statistics, and
    (with permutation tests) the rankings into significance clusters."""

    human: str
    systems: tuple[str, ...]
    n_rows: int
    n_judged: int
    metrics: tuple[MetricMetaEval, ...]
    rankings: tuple[Ranking, ...]
    settings: MetaEvalSettings = field(default_factory=MetaEvalSettings)

    def metric(self, name: str) -> MetricMetaEval:
        for m in self.metrics:
            if m.name == name:
                return m
        raise KeyError(f"no metric {name!r} among {[m.name for m in self.metrics]}")

    def ranking(self, level: str, statistic: str) -> Ranking | None:
        for r in self.rankings:
            if r.level == level and r.statistic == statistic:
                return r
        return None


# -- the data of one run ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Prepared:
    """The data of one run: both sides oriented higher-is-better, on the chosen rows, for the
    systems with a human score (:func:`prepare`)."""

    systems: tuple[int, ...]  # comparison systems used
    rows: IntArray
    human_sys: FloatArray  # (S,) oriented
    human_seg: FloatArray | None  # (S, n) oriented, NaN where not judged
    metric_sys: dict[str, FloatArray]  # (S,) oriented corpus figures
    metric_seg: dict[str, FloatArray]  # (S, n) oriented
    stats: dict[str, AnyArray]  # (S, n, K) on the rows
    scores: dict[str, ScoreFunction]
    signs: dict[str, float]


def _corpus(stats: AnyArray, score: ScoreFunction, sign: float) -> FloatArray:
    sums = np.ascontiguousarray(np.swapaxes(stats, 1, 2)).sum(axis=2)
    return sign * np.asarray(score(sums), dtype=np.float64)


def prepare(
    metrics: Sequence[MetricColumn],
    human: HumanColumn,
    rows: npt.ArrayLike | None,
    names: Sequence[str],
) -> Prepared:
    """Check the inputs of a run and put them as :class:`Prepared` has them; a
    :class:`ValueError` says what does not fit."""
    if not metrics:
        raise ValueError("name at least one metric to meta-evaluate")
    seen = [m.name for m in metrics]
    if len(set(seen)) != len(seen):
        raise ValueError(f"two metrics share a name: {seen}")
    n_sys, n_rows = metrics[0].segments.shape
    for m in metrics:
        if m.segments.shape != (n_sys, n_rows) or m.stats.shape[:2] != (n_sys, n_rows):
            raise ValueError(f"{m.name}: scores for {m.segments.shape}, expected {(n_sys, n_rows)}")
    if len(names) != n_sys:
        raise ValueError(f"{len(names)} system names for {n_sys} systems")
    chosen = row_index(rows, n_rows)
    if chosen.size == 0:
        raise ValueError("no rows are selected")
    seg = None
    if human.segments is not None:
        if human.segments.shape != (n_sys, n_rows):
            raise ValueError(
                f"{human.name}: human scores for {human.segments.shape}, "
                f"the metrics for {(n_sys, n_rows)}"
            )
        seg = np.asarray(human.segments, dtype=np.float64)[:, chosen]
    if human.systems is not None:
        if human.systems.shape != (n_sys,):
            raise ValueError(
                f"{human.name}: {human.systems.shape[0]} system scores, {n_sys} systems"
            )
        sys_scores = np.asarray(human.systems, dtype=np.float64)
    else:
        assert seg is not None
        judged = ~np.isnan(seg)
        with np.errstate(invalid="ignore", divide="ignore"):
            sums = np.where(judged, seg, 0.0).sum(axis=1)
            sys_scores = sums / judged.sum(axis=1)
    keep = tuple(int(s) for s in np.flatnonzero(~np.isnan(sys_scores)))
    if len(keep) < 2:
        raise ValueError(
            f"{human.name}: at least two systems need human scores on the selected rows; "
            f"{len(keep)} have"
        )
    index = np.asarray(keep)
    if seg is not None:
        seg = seg[index]
    metric_sys: dict[str, FloatArray] = {}
    metric_seg: dict[str, FloatArray] = {}
    stats: dict[str, AnyArray] = {}
    for m in metrics:
        values = m.sign * np.asarray(m.segments, dtype=np.float64)[index][:, chosen]
        if seg is not None and np.isnan(values[~np.isnan(seg)]).any():
            raise ValueError(f"{m.name}: a segment score is missing where humans judged the pair")
        metric_seg[m.name] = values
        stats[m.name] = np.asarray(m.stats)[index][:, chosen]
        metric_sys[m.name] = _corpus(stats[m.name], m.score, m.sign)
    return Prepared(
        keep,
        chosen,
        sys_scores[index],
        seg,
        metric_sys,
        metric_seg,
        stats,
        {m.name: m.score for m in metrics},
        {m.name: m.sign for m in metrics},
    )
