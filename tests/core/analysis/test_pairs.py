"""matchlight.core.analysis.pairs: the n-gram report from texts equals compare-mt's analysis
(core.analysis.compare) on BLEU's tokens, in this process and in a worker process."""

from __future__ import annotations

import numpy as np
import pytest

from matchlight.core.analysis.compare import ngram_differences
from matchlight.core.analysis.pairs import (
    ALPHA,
    MAX_ORDER,
    TOP,
    NgramsCancelled,
    ngram_report,
    ngram_report_in_process,
)
from matchlight.core.text.tokenizers import bleu_tokenizer
from tests.conftest import SHARED_DATA
from tests.kit import needs, read_lines

DE_EN = SHARED_DATA / "wmt22-de-en"


def same(a, b) -> None:
    for ours, theirs in ((a.a_better, b.a_better), (a.b_better, b.b_better)):
        assert [e.ngram for e in ours] == [e.ngram for e in theirs]
        assert [e.score for e in ours] == [e.score for e in theirs]
        assert [e.rows.tolist() for e in ours] == [e.rows.tolist() for e in theirs]
        assert [e.row_count_a.tolist() for e in ours] == [e.row_count_a.tolist() for e in theirs]
    assert a.n_ngrams == b.n_ngrams


@needs(DE_EN)
def test_the_report_is_compare_mts_on_the_rows_asked_for() -> None:
    refs = [read_lines(DE_EN / "ref.txt"), read_lines(DE_EN / "ref2.txt")]
    a, b = read_lines(DE_EN / "sys.LT22.txt"), read_lines(DE_EN / "sys.Online-W.txt")
    rows = np.flatnonzero(np.arange(len(a)) % 3 == 1)
    tok = bleu_tokenizer("13a", lowercase=True)
    expected = ngram_differences(
        references=[[tok(x) for x in r] for r in refs],
        system_a=[tok(x) for x in a],
        system_b=[tok(x) for x in b],
        max_order=MAX_ORDER,
        alpha=ALPHA,
        top=TOP,
        rows=rows,
    )
    arguments = {
        "references": refs,
        "system_a": a,
        "system_b": b,
        "tokenize": "13a",
        "lowercase": True,
        "rows": rows,
    }
    same(ngram_report(**arguments), expected)
    same(ngram_report_in_process(**arguments), expected)
    assert all(set(e.rows.tolist()) <= set(rows.tolist()) for e in expected.a_better)


def test_a_cancelled_report_stops_its_worker() -> None:
    lines = ["a b c d e f"] * 50
    with pytest.raises(NgramsCancelled):
        ngram_report_in_process(
            references=[lines], system_a=lines, system_b=lines, cancel=lambda: True
        )
