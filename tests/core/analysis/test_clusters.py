"""Significance clusters of systems: the rule, lower-is-better columns, and a score table's
clusters from the existing paired tests."""

from __future__ import annotations

import numpy as np
import pytest

from matchlight.core.analysis.clusters import rank_clusters, system_clusters
from matchlight.core.analysis.columnstats import pairwise_for_column
from matchlight.core.scoring.config import ScoringConfig
from matchlight.core.scoring.engine import score_corpus
from matchlight.core.text.corpus import CorpusText
from tests.conftest import SHARED_DATA

WMT = SHARED_DATA / "wmt22-de-en"


def _p(matrix: dict[frozenset[int], float]):
    return lambda i, j: matrix[frozenset((i, j))]


def test_a_new_cluster_starts_when_significantly_worse_than_the_clusters_best() -> None:
    names = ["a", "b", "c", "d"]
    scores = [30.0, 29.5, 27.0, 26.9]
    p = {
        frozenset((0, 1)): 0.30,  # b not worse than a: cluster 1
        frozenset((0, 2)): 0.01,  # c worse than a: opens cluster 2
        frozenset((2, 3)): 0.40,  # d compared with c, the best of cluster 2
        frozenset((0, 3)): 0.001,
        frozenset((1, 2)): 0.02,
        frozenset((1, 3)): 0.01,
    }
    found = rank_clusters("BLEU", names, scores, _p(p))
    assert found.names == ("a", "b", "c", "d")
    assert found.clusters == (1, 1, 2, 2)
    assert found.p_values == (None, 0.30, 0.01, 0.40)
    assert found.groups() == [["a", "b"], ["c", "d"]]


def test_lower_is_better_columns_rank_the_lowest_first() -> None:
    names = ["x", "y", "z"]
    penalty = [5.0, 1.0, 1.2]
    p = {frozenset((1, 2)): 0.5, frozenset((1, 0)): 0.001, frozenset((2, 0)): 0.001}
    found = rank_clusters("MQM", names, penalty, _p(p), better="lower")
    assert found.names == ("y", "z", "x")
    assert found.clusters == (1, 1, 2)


def test_table_clusters_use_the_paired_bootstrap_of_every_pair() -> None:
    if not WMT.is_dir():
        pytest.skip("no wmt22-de-en")
    files = sorted(WMT.glob("sys.*.txt"))
    read = lambda p: tuple(p.read_text(encoding="utf-8").split("\n")[:-1])  # noqa: E731
    text = CorpusText(
        references=(read(WMT / "ref.txt"),),
        systems=tuple(read(f) for f in files),
        system_names=tuple(f.name[4:-4] for f in files),
    )
    table = score_corpus(text, ScoringConfig().with_metrics("chrf"), workers=1)
    rows = np.arange(0, 1984, 2)
    found = system_clusters(table, "chrf", rows=rows, n_samples=200, seed=7)
    pairwise = pairwise_for_column(table, "chrf", rows=rows, n_samples=200, seed=7)
    order = sorted(range(len(files)), key=lambda i: -pairwise.scores[i])
    assert found.names == tuple(table.systems[i] for i in order)
    # the rule, replayed on the same p-values
    head, cluster = order[0], 1
    for i, name in zip(order[1:], found.names[1:]):
        if pairwise.p_value(head, i) < 0.05:
            cluster, head = cluster + 1, i
        assert found.cluster_of(name) == cluster
    assert found.cluster_of(found.names[-1]) > 1  # LT22 is far behind on chrF
