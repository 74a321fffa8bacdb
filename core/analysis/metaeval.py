"""Meta-evaluation: how well metric scores agree with human judgements, computed exactly as
google-research/mt-metrics-eval computes it (``stats.py``, ``pce.py``, ``tau_optimization.py``).

Scores on both sides are oriented so that higher is better (an MQM penalty or TER negated, as
mt-metrics-eval stores MQM). A metric's system-level score is its corpus figure over the rows
(corpus BLEU from summed statistics, not the mean of sentence BLEU); its segment-level scores
are its per-segment values. Human scores are per (system, segment), NaN where a pair was not
judged, or per system only. The statistics, named as in the WMT metrics task:

* system level (over systems): ``pearson``, ``spearman``, ``kendall`` (tau-b), the pairwise
  ``accuracy`` of Kocmi et al. (2021) and the soft pairwise accuracy ``spa`` of WMT24
  (1 - PCE: paired permutation p-values from the segment scores, 1,000 permutations, seed 4);
* segment level: ``pearson`` and ``kendall_b`` over all judged (system, segment) pairs
  ("no grouping"), and ``acc23`` with the optimised tie threshold of Deutsch et al. (2023)
  averaged over items (segments), with every pair considered (sample rate 1.0).

mt-metrics-eval's conventions are kept: an undefined correlation (a constant vector) counts as
0, pairs without a human score are left out, a system with no human score at all is left out.

The statistics are in :mod:`~matchlight.core.analysis.correlations` and
:mod:`~matchlight.core.analysis.pairaccuracy`, their confidence intervals in
:mod:`~matchlight.core.analysis.metaresample`, the significance tests between metrics and their
clusters in :mod:`~matchlight.core.analysis.metapermutation`, and the data going in and out in
:mod:`~matchlight.core.analysis.metatypes`. This module runs them: :func:`metaevaluate`, and
:func:`metaevaluate_table` for the columns of a score table.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from matchlight.core.analysis.correlations import pairwise_accuracy, vector_statistic
from matchlight.core.analysis.metapermutation import rank_metrics
from matchlight.core.analysis.metaresample import (
    percentile_interval,
    resample_counts,
    resample_indices,
    segment_replicates,
    system_replicates,
)
from matchlight.core.analysis.metatypes import (
    SEGMENT_STATISTICS,
    SYSTEM_STATISTICS,
    Estimate,
    HumanColumn,
    MetaEvalResult,
    MetaEvalSettings,
    MetricColumn,
    MetricMetaEval,
    Prepared,
    Ranking,
    prepare,
)
from matchlight.core.analysis.pairaccuracy import acc23_item, soft_pairwise_accuracy
from matchlight.core.analysis.significance import table_statistics
from matchlight.core.scoring.results import ScoreTable

__all__ = ["human_from_table", "metaevaluate", "metaevaluate_table", "metric_columns"]


def _system_value(statistic: str, data: Prepared, name: str) -> float | None:
    if statistic == "spa":
        if data.human_seg is None or np.isnan(data.human_seg).any():
            return None
        return soft_pairwise_accuracy(data.human_seg, data.metric_seg[name])
    if statistic == "pairwise_accuracy":
        return pairwise_accuracy(data.human_sys, data.metric_sys[name])
    return vector_statistic(statistic, data.human_sys, data.metric_sys[name])


def _segment_value(statistic: str, data: Prepared, name: str) -> tuple[float, float | None]:
    assert data.human_seg is not None
    if statistic == "acc23_item":
        return acc23_item(data.human_seg, data.metric_seg[name])
    key = "kendall" if statistic == "kendall_b" else statistic
    return vector_statistic(key, data.human_seg, data.metric_seg[name]), None


# -- the one call ----------------------------------------------------------------------------------


def metaevaluate(
    metrics: Sequence[MetricColumn],
    human: HumanColumn,
    *,
    systems: Sequence[str],
    rows: npt.ArrayLike | None = None,
    settings: MetaEvalSettings | None = None,
    cancel: Callable[[], bool] | None = None,
) -> MetaEvalResult:
    """Every statistic of every metric against ``human`` on ``rows`` (None: all), with
    confidence intervals and significance clusters as ``settings`` asks.

    ``systems`` names the metrics' and the humans' systems (in their order); those without a
    human score are left out. ``cancel`` is polled between statistics and between the
    permutation tests of two metrics (raising :class:`RuntimeError` when it says stop).
    """
    settings = settings or MetaEvalSettings()
    data = prepare(metrics, human, rows, systems)

    def check() -> None:
        if cancel is not None and cancel():
            raise RuntimeError("meta-evaluation cancelled")

    samples = settings.confidence_samples
    resample = samples > 0 and data.human_seg is not None
    n = data.rows.size
    counts = resample_counts(n, samples, settings.seed) if resample else np.zeros((0, n))
    indices = resample_indices(n, samples, settings.seed) if resample else np.zeros((0, n))
    cache: dict[str, Any] = {}
    results: list[MetricMetaEval] = []
    thresholds: dict[str, float | None] = {}
    for m in metrics:
        name = m.name
        system: dict[str, Estimate | None] = {}
        for statistic in SYSTEM_STATISTICS:
            check()
            value = _system_value(statistic, data, name)
            if value is None:
                system[statistic] = None
                continue
            low = high = None
            if resample and not (statistic == "spa" and value is None):
                replicates = system_replicates(statistic, data, name, indices, cache)
                low, high = percentile_interval(replicates, settings.confidence)
            system[statistic] = Estimate(value, low, high)
        segment: dict[str, Estimate | None] = dict.fromkeys(SEGMENT_STATISTICS)
        threshold = None
        if data.human_seg is not None:
            for statistic in SEGMENT_STATISTICS:
                check()
                value, found = _segment_value(statistic, data, name)
                if found is not None:
                    threshold = found
                low = high = None
                if resample:
                    replicates = segment_replicates(statistic, data, name, counts, cache)
                    low, high = percentile_interval(replicates, settings.confidence)
                segment[statistic] = Estimate(value, low, high)
        thresholds[name] = threshold
        results.append(MetricMetaEval(name, system, segment, threshold))
    rankings: list[Ranking] = []
    if settings.permutations > 0 and len(metrics) > 1:
        check()
        rankings = rank_metrics(data, results, thresholds, settings, check)
    judged = (
        int((~np.isnan(data.human_seg)).sum()) if data.human_seg is not None else len(data.systems)
    )
    return MetaEvalResult(
        human.name,
        tuple(systems[i] for i in data.systems),
        n,
        judged,
        tuple(results),
        tuple(rankings),
        settings,
    )


# -- from a score table ----------------------------------------------------------------------------


def metric_columns(table: ScoreTable, keys: Sequence[str]) -> list[MetricColumn]:
    """The table's columns ``keys`` as metrics: their segment values and the statistics of
    their corpus figures (:func:`~matchlight.core.analysis.significance.table_statistics`),
    turned by the column's ``better``."""
    out = []
    for key in keys:
        info = table.column_info(key)
        stats, score = table_statistics(table, key)
        values = table.scores[:, :, table.metric_index(key)]
        out.append(MetricColumn(info.label, values, np.stack(stats), score, info.sign))
    return out


def human_from_table(table: ScoreTable, key: str) -> HumanColumn:
    """A column of the table (imported human scores, MQM from annotations) as human
    judgements per segment, turned so that higher is better (an MQM penalty negated)."""
    info = table.column_info(key)
    values = table.scores[:, :, table.metric_index(key)]
    return HumanColumn(info.label, segments=info.oriented(values))


def metaevaluate_table(
    table: ScoreTable,
    metric_keys: Sequence[str],
    human_key: str,
    *,
    rows: npt.ArrayLike | None = None,
    settings: MetaEvalSettings | None = None,
    cancel: Callable[[], bool] | None = None,
) -> MetaEvalResult:
    """:func:`metaevaluate` of a fully scored table's columns ``metric_keys`` against its
    column ``human_key`` (added human scores), on ``rows``: what the app's tab calls."""
    return metaevaluate(
        metric_columns(table, metric_keys),
        human_from_table(table, human_key),
        systems=table.systems,
        rows=rows,
        settings=settings,
        cancel=cancel,
    )
