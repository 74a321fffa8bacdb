"""Systems ranked into significance clusters on one column, as WMT ranks systems.

The systems are sorted best first on the column (its ``better`` says which way: TER and an MQM
penalty are lower-is-better). The best system opens cluster 1; going down the list, a system
starts a new cluster when it is significantly worse (paired test, p < ``threshold``) than the
best system of the current cluster, and then heads it. Systems in one cluster are thus not
significantly worse than the cluster's best. The paired tests are
:func:`core.analysis.significance.pairwise_significance`'s (sacreBLEU's paired bootstrap or
approximate randomization on the column's corpus figure, every pair with the same draws).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Literal

import numpy.typing as npt

from matchlight.core.analysis.columnstats import pairwise_for_column
from matchlight.core.analysis.significance import DEFAULT_SEED
from matchlight.core.metrics.base import Better
from matchlight.core.scoring.results import ScoreTable

__all__ = ["SIGNIFICANCE_THRESHOLD", "SystemClusters", "rank_clusters", "system_clusters"]

#: p below this: significantly worse.
SIGNIFICANCE_THRESHOLD = 0.05


@dataclass(frozen=True, slots=True)
class SystemClusters:
    """Systems of one column best first: ``names``, ``scores`` (the column's corpus figures),
    ``clusters`` (1 = best) and ``p_values``: each system's test against the best of the cluster
    it was compared with (the previous cluster's best for a system that opens a cluster; None
    for the best system and for systems without a score)."""

    column: str
    better: Better
    names: tuple[str, ...]
    scores: tuple[float, ...]
    clusters: tuple[int, ...]
    p_values: tuple[float | None, ...]

    def cluster_of(self, name: str) -> int:
        return self.clusters[self.names.index(name)]

    def groups(self) -> list[list[str]]:
        """The clusters' systems, best cluster first."""
        out: list[list[str]] = []
        for name, cluster in zip(self.names, self.clusters):
            if cluster > len(out):
                out.append([])
            out[-1].append(name)
        return out


def rank_clusters(
    column: str,
    names: Sequence[str],
    scores: Sequence[float],
    p_value: Callable[[int, int], float],
    *,
    better: Better = "higher",
    threshold: float = SIGNIFICANCE_THRESHOLD,
) -> SystemClusters:
    """The clusters of systems ``names`` with ``scores``; ``p_value(i, j)`` is the paired test
    of systems i and j (indices into ``names``). Systems without a score come last, each alone."""
    sign = 1.0 if better == "higher" else -1.0
    present = [i for i, s in enumerate(scores) if math.isfinite(s)]
    order = sorted(present, key=lambda i: (-sign * scores[i], names[i]))
    order += [i for i in range(len(names)) if i not in present]
    clusters: list[int] = []
    p_values: list[float | None] = []
    head: int | None = None
    cluster = 0
    for i in order:
        if head is None or not math.isfinite(scores[i]):
            cluster += 1
            head = i
            clusters.append(cluster)
            p_values.append(None)
            continue
        p = p_value(head, i)
        if sign * scores[i] < sign * scores[head] and p < threshold:
            cluster += 1
            head = i
        clusters.append(cluster)
        p_values.append(p)
    return SystemClusters(
        column,
        better,
        tuple(names[i] for i in order),
        tuple(float(scores[i]) for i in order),
        tuple(clusters),
        tuple(p_values),
    )


def system_clusters(
    table: ScoreTable,
    key: str,
    *,
    rows: npt.ArrayLike | None = None,
    test: Literal["bs", "ar"] = "bs",
    n_samples: int | None = None,
    seed: int | None = DEFAULT_SEED,
    threshold: float = SIGNIFICANCE_THRESHOLD,
) -> SystemClusters:
    """The clusters of a fully scored table's systems on column ``key`` (a metric, an imported
    score, MQM, a human score) over ``rows``, with the paired tests of every pair."""
    info = table.column_info(key)
    pairwise = pairwise_for_column(table, key, rows=rows, test=test, n_samples=n_samples, seed=seed)
    return rank_clusters(
        info.label,
        table.systems,
        pairwise.scores,
        pairwise.p_value,
        better=info.better,
        threshold=threshold,
    )
