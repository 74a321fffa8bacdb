"""core.scoring.summary: corpus figures of streamed rows equal the score table's, exactly."""

from __future__ import annotations

import math

import numpy as np
import pytest

from matchlight.core.metrics.registry import METRICS
from matchlight.core.scoring.config import ScoringConfig
from matchlight.core.scoring.engine import score_corpus
from matchlight.core.scoring.summary import StreamedCorpus
from matchlight.core.text.corpus import CorpusText
from tests.conftest import SAMPLE
from tests.kit import read_lines


@pytest.fixture(scope="module")
def sample_text() -> CorpusText:
    refs = [read_lines(SAMPLE / "ref.en.txt"), read_lines(SAMPLE / "ref2.en.txt")]
    systems = [read_lines(p) for p in sorted(SAMPLE.glob("sys.*.txt"))]
    # Rows a metric has no score for, and empty lines.
    refs = [[*r, "a b", ""] for r in refs]
    systems = [[*s, "a b", ""] for s in systems]
    return CorpusText(
        references=tuple(map(tuple, refs)),
        systems=tuple(map(tuple, systems)),
        system_names=tuple(f"s{i}" for i in range(len(systems))),
    )


def _same(a: float, b: float) -> bool:
    return a == b or (math.isnan(a) and math.isnan(b))


@pytest.mark.parametrize("smoothing", ["method0", "method5", "method6", "method7"])
@pytest.mark.parametrize("chunk", [1, 7, 4096])
def test_streamed_figures_are_the_tables(
    sample_text: CorpusText, smoothing: str, chunk: int
) -> None:
    """Every registered metric (NLTK's method5-7 read the last row; method6 leaves rows
    without a score), over all rows and over subsets, fed in chunks of any size."""
    config = ScoringConfig(metrics=tuple(METRICS)).apply({"nltk_bleu": {"smoothing": smoothing}})
    table = score_corpus(sample_text, config)
    n = table.n_segments
    for rows in (None, np.arange(0, n, 3), np.arange(n - 2, n), np.arange(5, 6)):
        streamed = StreamedCorpus.of_table(table, rows, chunk=chunk)
        assert streamed.complete
        index = np.arange(n) if rows is None else rows
        for s in range(len(table.systems)):
            want, got = table.corpus(s, rows), streamed.corpus(s)
            assert got.n_segments == want.n_segments == len(index)
            assert set(got.values) == set(want.values)
            assert all(_same(got.values[k], want.values[k]) for k in want.values)
            assert all(_same(got.means[k], want.means[k]) for k in want.means)  # bit for bit
            nan = np.isnan(table.scores[s][index]).sum(axis=0)
            expected = {
                c.key: int(k) for c, k in zip(table.columns, nan) if k and c.kind == "score"
            }
            assert streamed.missing(s) == expected
        for name, values in table.row_flags.items():
            assert streamed.flags[name] == int(values[index].sum())


def test_some_metrics_only_and_no_rows(sample_text: CorpusText) -> None:
    table = score_corpus(sample_text, ScoringConfig(metrics=("bleu", "rouge")))
    streamed = StreamedCorpus.of_table(table)
    got = streamed.corpus(1, metrics=["rougeL_f"])
    assert set(got.values) == {
        c.key for c in METRICS["rouge"].columns(table.config.settings("rouge"))
    }
    assert got.values == table.corpus(1, metrics=["rougeL_f"]).values
    empty = StreamedCorpus.of_table(table, np.arange(0))
    figures = empty.corpus(0)
    assert figures.n_segments == 0 and all(math.isnan(v) for v in figures.means.values())
    partial = StreamedCorpus(systems=("a",), n_rows=3, config=table.config, nrefs=1)
    with pytest.raises(ValueError, match="0 of the 3 rows"):
        partial.corpus(0)
