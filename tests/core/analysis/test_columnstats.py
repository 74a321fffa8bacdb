"""matchlight.core.analysis.columnstats: a table's columns as resampling statistics, and the
paired tests the app's significance panel shows.

The oracle is sacreBLEU 2.6.0's own ``PairedTest`` on the text of the selected rows (BLEU and
chrF with a non-first baseline), and for mean columns plain numpy and
:mod:`core.analysis.significance` on the segment scores read straight from the table.
"""

from __future__ import annotations

from functools import cache
from typing import Any

import numpy as np
import pytest
from sacrebleu.metrics import BLEU, CHRF
from sacrebleu.significance import PairedTest

from matchlight.core.analysis.columnstats import (
    NotTestable,
    pairwise_for_column,
    significance_by_column,
    significance_columns,
    without_values,
)
from matchlight.core.analysis.significance import (
    SignificanceCancelled,
    paired_bootstrap,
    pairwise_significance,
    table_statistics,
)
from matchlight.core.annotation.columns import MQM_COLUMN
from matchlight.core.metrics.base import ScoreColumn, mean_score, mean_statistics
from matchlight.core.scoring.config import ScoringConfig
from matchlight.core.scoring.engine import score_corpus
from matchlight.core.scoring.results import ScoreTable
from matchlight.core.text.corpus import CorpusText, corpus_text_from_lines
from tests.conftest import SHARED_DATA
from tests.kit import needs, read_lines
from tests.refs import sacrebleu_seed

DE_EN = SHARED_DATA / "wmt22-de-en"
NAMES = ("JDExploreAcademy", "LT22", "Online-W")


pytestmark = pytest.mark.usefixtures("quiet_sacrebleu")


@cache
def de_en() -> tuple[CorpusText, ScoreTable]:
    """The first 600 rows of wmt22-de-en, both references, three systems, every metric."""
    n = 600
    text = corpus_text_from_lines(
        references=[read_lines(DE_EN / "ref.txt")[:n], read_lines(DE_EN / "ref2.txt")[:n]],
        systems=[read_lines(DE_EN / f"sys.{s}.txt")[:n] for s in NAMES],
        names=NAMES,
    )
    config = ScoringConfig(metrics=("bleu", "chrf", "rouge", "nltk_bleu"))
    return text, score_corpus(text, config)


def sacrebleu_paired(
    metric: Any, text: CorpusText, rows: np.ndarray, baseline: int, *, test: str, n: int, seed: int
) -> list[Any]:
    """sacreBLEU's results (baseline first, then the others in order) on files holding only
    ``rows``."""
    pick = rows.tolist()
    order = [baseline, *(s for s in range(len(text.systems)) if s != baseline)]
    systems = [(text.system_names[s], [text.systems[s][i] for i in pick]) for s in order]
    refs = [[ref[i] for i in pick] for ref in text.references]
    with sacrebleu_seed(seed):
        paired = PairedTest(
            systems, {"m": metric}, refs, test_type=test, n_samples=n, n_ar_confidence=-1
        )
        _, scores = paired()
    (name,) = (key for key in scores if key != "System")
    return scores[name]


def assert_same_as_sacrebleu(ours: Any, theirs: list[Any]) -> None:
    for mine, their in zip(ours.systems, theirs, strict=True):
        assert mine.score == their.score
        assert mine.mean == their.mean
        assert mine.ci == their.ci
        assert mine.p_value == their.p_value


# -- which columns ----------------------------------------------------------------------------


@needs(DE_EN)
def test_headline_columns_are_tested_and_an_untestable_one_says_why() -> None:
    text, table = de_en()
    keys = [c.key for c in significance_columns(table)]
    assert keys == ["bleu", "chrf", "rouge1_f", "rouge2_f", "rougeL_f", "nltk_bleu"]
    results = significance_by_column(table, keys, baseline=0, n_samples=20)
    assert all(t.reason is None and t.result is not None for t in results)
    # NLTK's smoothing method 7 reads the last segment, which a resample changes.
    config = ScoringConfig(metrics=("bleu", "nltk_bleu")).with_settings(
        "nltk_bleu", smoothing="method7"
    )
    method7 = score_corpus(text, config)
    bleu, nltk = significance_by_column(method7, ["bleu", "nltk_bleu"], baseline=0, n_samples=20)
    assert bleu.result is not None and nltk.result is None
    assert nltk.reason is not None and "summed" in nltk.reason
    with pytest.raises(NotTestable, match="NLTK"):
        pairwise_for_column(method7, "nltk_bleu")
    with pytest.raises(NotTestable, match="count"):
        pairwise_for_column(table, "hyp_len")


# -- against sacreBLEU ------------------------------------------------------------------------


@needs(DE_EN)
@pytest.mark.parametrize("test", ["bs", "ar"])
def test_bleu_and_chrf_tests_on_selected_rows_equal_sacrebleu(test: str) -> None:
    """A selection of rows, the second system as baseline: the same numbers as sacreBLEU run on
    files holding only those rows with that baseline first."""
    text, table = de_en()
    mask = np.zeros(600, np.bool_)
    mask[::2] = True
    mask[:40] = True
    rows = np.flatnonzero(mask)
    n = 200 if test == "bs" else 400
    results = significance_by_column(
        table, ["bleu", "chrf"], baseline=1, rows=mask, test=test, n_samples=n, seed=2024
    )
    bleu, chrf = results
    assert bleu.n_rows == chrf.n_rows == len(rows)
    assert [s.name for s in bleu.result.systems] == ["LT22", "JDExploreAcademy", "Online-W"]
    if test == "bs":
        assert_same_as_sacrebleu(
            bleu.result, sacrebleu_paired(BLEU(), text, rows, 1, test=test, n=n, seed=2024)
        )
        assert_same_as_sacrebleu(
            chrf.result, sacrebleu_paired(CHRF(), text, rows, 1, test=test, n=n, seed=2024)
        )
    else:
        # sacreBLEU's AR reports no means; ours adds 1,000 bootstrap resamples for them.
        theirs = sacrebleu_paired(BLEU(), text, rows, 1, test=test, n=n, seed=2024)
        for mine, their in zip(bleu.result.systems, theirs, strict=True):
            assert (mine.score, mine.p_value) == (their.score, their.p_value)
        assert all(s.mean is not None and s.ci is not None for s in bleu.result.systems)


@needs(DE_EN)
def test_mean_columns_are_tested_on_the_segment_scores() -> None:
    _, table = de_en()
    rows = np.arange(100, 400)
    (rouge,) = significance_by_column(
        table, ["rougeL_f"], baseline=2, rows=rows, n_samples=300, seed=7
    )
    values = [table.column("rougeL_f", s) for s in (2, 0, 1)]
    expected = paired_bootstrap(
        [mean_statistics(v) for v in values],
        mean_score,
        names=[NAMES[2], NAMES[0], NAMES[1]],
        n_samples=300,
        seed=7,
        rows=rows,
    )
    assert rouge.result == expected
    assert rouge.result.systems[0].score == pytest.approx(values[0][rows].mean(), abs=1e-12)


@needs(DE_EN)
def test_an_imported_column_with_missing_values_is_tested_on_each_systems_values() -> None:
    text, _ = de_en()
    table = score_corpus(text, ScoringConfig(metrics=("bleu",)))
    values = np.random.default_rng(3).normal(0.5, 0.2, size=(3, 600))
    values[1, 5:25] = np.nan
    column = ScoreColumn("comet", "COMET", "COMET", "imported", "test")
    table.add_column(column, values)
    assert [c.key for c in significance_columns(table)] == ["bleu", "comet"]
    rows = np.arange(0, 600, 2)
    (result,) = significance_by_column(
        table, ["comet"], baseline=0, rows=rows, n_samples=100, seed=1
    )
    assert result.n_rows == 300 and result.incomplete == 10
    expected = paired_bootstrap(
        [mean_statistics(v) for v in values],
        mean_score,
        names=list(NAMES),
        n_samples=100,
        seed=1,
        rows=rows,
    )
    assert result.result == expected
    # LT22's figure is its mean over the rows where it has a value, as the table's.
    kept = rows[~np.isnan(values[1, rows])]
    assert result.result.systems[1].score == pytest.approx(values[1, kept].mean(), abs=1e-12)
    assert result.result.systems[1].score == pytest.approx(
        table.corpus(1, rows).value("comet"), abs=1e-12
    )


@needs(DE_EN)
def test_pairwise_matrix_is_cores_on_the_usable_rows() -> None:
    _, table = de_en()
    rows = np.arange(300)
    ours = pairwise_for_column(table, "bleu", rows=rows, n_samples=150, seed=5)
    stats, score = table_statistics(table, "bleu")
    assert ours == pairwise_significance(
        stats, score, names=list(NAMES), n_samples=150, seed=5, rows=rows
    )


@needs(DE_EN)
def test_progress_covers_every_column_and_cancel_stops() -> None:
    _, table = de_en()
    seen: list[float] = []
    results = significance_by_column(
        table,
        ["bleu", "rouge1_f", "hyp_len"],
        baseline=0,
        n_samples=50,
        progress=seen.append,
    )
    assert seen == sorted(seen) and seen[-1] == 1.0
    assert results[2].result is None and "count" in (results[2].reason or "")
    with pytest.raises(SignificanceCancelled):
        significance_by_column(table, ["bleu"], baseline=0, n_samples=50, cancel=lambda: True)


@needs(DE_EN)
def test_a_system_without_values_is_not_tested() -> None:
    """Issue 16, finding 5: a system nobody annotated got p = 0.0010* in the MQM table."""
    text, _ = de_en()
    table = score_corpus(text, ScoringConfig(metrics=("bleu",)))
    rng = np.random.default_rng(16)
    values = np.full((3, 600), np.nan)
    rated = rng.choice(600, size=40, replace=False)
    values[0, rated] = rng.choice([0.0, 1.0, 5.0, 10.0], size=40)
    values[2, rated[:25]] = rng.choice([0.0, 1.0, 5.0], size=25)
    table.add_column(MQM_COLUMN, values)
    assert without_values(table, "mqm") == {"LT22"}
    assert without_values(table, "mqm", rated[25:]) == {"LT22", "Online-W"}
    (test,) = significance_by_column(table, ["mqm"], baseline=0, n_samples=200, seed=4)
    assert test.untested == frozenset({"LT22"})
    lines = test.result.systems
    assert [line.name for line in lines] == list(NAMES)
    assert lines[1].p_value is not None  # the resampling ran, but its p-value means nothing
    assert [test.why_untested(i) for i in range(3)] == [None, "no values: not tested", None]
    assert [test.tested(i) for i in range(3)] == [False, False, True]
    assert test.verdicts()[1] is None
    # Against a baseline without values, nothing is tested.
    (flipped,) = significance_by_column(table, ["mqm"], baseline=1, n_samples=200, seed=4)
    assert [flipped.why_untested(i) for i in range(3)] == [
        "no values: not tested",
        "not tested: the baseline has no values",
        "not tested: the baseline has no values",
    ]
    assert flipped.verdicts() == (None, None, None)
    # The pairwise matrix: no p-value for a pair with LT22; the other pair as core computes it.
    pairs = pairwise_for_column(table, "mqm", n_samples=200, seed=4)
    stats, score = table_statistics(table, "mqm")
    plain = pairwise_significance(stats, score, names=list(NAMES), n_samples=200, seed=4)
    assert pairs.p_values[0][2] == plain.p_values[0][2] is not None
    assert [pairs.p_values[1][j] for j in range(3)] == [None, None, None]
    assert [pairs.p_values[i][1] for i in range(3)] == [None, None, None]
    with pytest.raises(ValueError, match="'JDExploreAcademy' and 'LT22' were not tested"):
        pairs.p_value(0, 1)
