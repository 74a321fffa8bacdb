"""matchlight.core.analysis.compare: compare-mt's n-gram differences and what moves the corpus
score, against oracles written from the reference sources, on generated and real data.

The n-gram oracle follows compare-mt 0.2.10 (``compare_mt/ngram_utils.py`` ``compare_ngrams``,
``compare_mt/stat_utils.py`` ``extract_salient_features``) line by line, with BLEU's clipping
(largest count in any one reference) for several references. The BLEU statistics of the real
data come from sacreBLEU itself; the leave-one-out oracle is a loop over
:func:`matchlight.core.metrics.bleu.compute_bleu` of summed :class:`BleuStats`.
"""

from __future__ import annotations

import itertools
import operator
from collections import defaultdict
from collections.abc import Sequence
from functools import cache

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sacrebleu.metrics.bleu import BLEU

from matchlight.core.analysis.compare import (
    NgramDifferences,
    ScoreFunction,
    difference_influence,
    leave_one_out,
    ngram_differences,
    row_index,
)
from matchlight.core.metrics.base import mean_score, mean_statistics
from matchlight.core.metrics.bleu import BleuMetric, BleuStats, compute_bleu
from matchlight.core.metrics.bleuoptions import BleuSettings
from tests.conftest import SHARED_DATA
from tests.kit import needs, read_lines
from tests.refs import sacrebleu_statistics

TED = SHARED_DATA / "compare-mt-ted-sk-en"
DE_EN = SHARED_DATA / "wmt22-de-en"

Tokens = list[list[str]]


pytestmark = pytest.mark.usefixtures("quiet_sacrebleu")


def load_tokens(path: str) -> Tokens:
    """compare-mt's corpus_utils.load_tokens: strip, split on single spaces."""
    with open(path, encoding="utf-8") as handle:
        return [line.strip().split(" ") for line in handle]


# -- the compare-mt oracle --------------------------------------------------------------------


def oracle_matches(
    refs: Sequence[Tokens], out: Tokens, min_length: int, max_length: int
) -> tuple[dict[tuple[str, ...], int], dict[tuple[str, ...], dict[int, int]]]:
    """compare-mt's ``compare_ngrams`` match counts (and the rows each comes from).

    With one reference this is compare-mt's loop; with several, each n-gram may be matched as
    often as its largest count in any one reference.
    """
    match: dict[tuple[str, ...], int] = defaultdict(int)
    rows: dict[tuple[str, ...], dict[int, int]] = defaultdict(dict)
    for row, out_sent in enumerate(out):
        ref_counts: dict[tuple[str, ...], int] = defaultdict(int)
        for ref in refs:
            counts: dict[tuple[str, ...], int] = defaultdict(int)
            for n in range(min_length - 1, max_length):
                for i in range(len(ref[row]) - n):
                    counts[tuple(ref[row][i : i + n + 1])] += 1
            for gram, c in counts.items():
                ref_counts[gram] = max(ref_counts[gram], c)
        for n in range(min_length - 1, max_length):
            for i in range(len(out_sent) - n):
                gram = tuple(out_sent[i : i + n + 1])
                if ref_counts[gram] > 0:
                    match[gram] += 1
                    rows[gram][row] = rows[gram].get(row, 0) + 1
                    ref_counts[gram] -= 1
    return match, rows


def oracle_scores(
    a: dict[tuple[str, ...], int], b: dict[tuple[str, ...], int], alpha: float
) -> dict[tuple[str, ...], float]:
    """compare-mt's extract_salient_features."""
    keys = set(a) | set(b)
    return {k: (a.get(k, 0) + alpha) / (a.get(k, 0) + b.get(k, 0) + 2 * alpha) for k in keys}


def check_against_oracle(
    result: NgramDifferences,
    refs: Sequence[Tokens],
    out_a: Tokens,
    out_b: Tokens,
    *,
    min_order: int,
    max_order: int,
    alpha: float,
    top: int,
) -> None:
    match_a, rows_a = oracle_matches(refs, out_a, min_order, max_order)
    match_b, rows_b = oracle_matches(refs, out_b, min_order, max_order)
    scores = oracle_scores(match_a, match_b, alpha)
    assert result.n_ngrams == len(scores)
    for entries, favours_a in ((result.a_better, True), (result.b_better, False)):
        # compare-mt's lists: sorted by score (its order among ties is a set's order).
        side = {
            k: v
            for k, v in scores.items()
            if match_a.get(k, 0) != match_b.get(k, 0)
            and (match_a.get(k, 0) > match_b.get(k, 0)) == favours_a
        }
        wanted = sorted(side.items(), key=operator.itemgetter(1), reverse=favours_a)[:top]
        assert [e.score for e in entries] == [v for _, v in wanted]
        if wanted:
            cut = wanted[-1][1]
            assert {e.ngram for e in entries if e.score != cut} == {
                k for k, v in wanted if v != cut
            }
            tied = {k for k, v in scores.items() if v == cut}
            assert {e.ngram for e in entries if e.score == cut} <= tied
        for e in entries:
            assert e.order == len(e.ngram)
            assert min_order <= e.order <= max_order
            assert (e.count_a, e.count_b) == (match_a.get(e.ngram, 0), match_b.get(e.ngram, 0))
            assert e.score == scores[e.ngram]
            on_a = rows_a.get(e.ngram, {})
            on_b = rows_b.get(e.ngram, {})
            expected_rows = sorted(set(on_a) | set(on_b))
            assert e.rows.tolist() == expected_rows
            assert e.row_count_a.tolist() == [on_a.get(r, 0) for r in expected_rows]
            assert e.row_count_b.tolist() == [on_b.get(r, 0) for r in expected_rows]
        # Within a score, more evidence first.
        for first, second in itertools.pairwise(entries):
            if first.score == second.score:
                assert first.count_a + first.count_b >= second.count_a + second.count_b


# -- n-gram differences on real data ----------------------------------------------------------


@needs(TED)
def test_compare_mt_example_data_gives_compare_mts_report() -> None:
    """The tokenized TED files are compare-mt's own example (pbmt = its sys1, nmt = sys2)."""
    tok = TED / "tokenized"
    ref = load_tokens(str(tok / "ref.txt"))
    pbmt = load_tokens(str(tok / "sys.pbmt.txt"))
    nmt = load_tokens(str(tok / "sys.nmt.txt"))
    result = ngram_differences(references=[ref], system_a=pbmt, system_b=nmt)
    assert len(result.a_better) == len(result.b_better) == 50
    check_against_oracle(result, [ref], pbmt, nmt, min_order=1, max_order=4, alpha=1.0, top=50)


@cache
def de_en_tokens() -> tuple[list[Tokens], list[Tokens]]:
    tokenizer = BLEU(tokenize="13a").tokenizer
    refs = [
        [tokenizer(line).split() for line in read_lines(DE_EN / name)]
        for name in ("ref.txt", "ref2.txt")
    ]
    systems = [
        [tokenizer(line).split() for line in read_lines(DE_EN / f"sys.{name}.txt")]
        for name in ("JDExploreAcademy", "LT22")
    ]
    return refs, systems


@needs(TED)
def test_two_references_clip_as_bleu_does() -> None:
    refs, (jd, lt) = de_en_tokens()
    result = ngram_differences(references=refs, system_a=jd, system_b=lt, top=80)
    check_against_oracle(result, refs, jd, lt, min_order=1, max_order=4, alpha=1.0, top=80)
    # Summed over every order, the clipped matches are BLEU's matches.
    bleu = BLEU(tokenize="13a")
    ref_lines = [read_lines(DE_EN / n) for n in ("ref.txt", "ref2.txt")]
    hyps = read_lines(DE_EN / "sys.JDExploreAcademy.txt")
    stats = np.array(sacrebleu_statistics(bleu, hyps, ref_lines))
    match_a, _ = oracle_matches(refs, jd, 1, 4)
    per_order = [sum(c for g, c in match_a.items() if len(g) == n) for n in range(1, 5)]
    assert per_order == stats[:, 2:6].sum(axis=0).tolist()


@needs(TED)
def test_a_subset_of_rows_reports_corpus_row_numbers() -> None:
    refs, (jd, lt) = de_en_tokens()
    rows = np.arange(len(jd)) % 3 == 1
    picked = np.flatnonzero(rows)
    result = ngram_differences(
        references=refs, system_a=jd, system_b=lt, rows=rows, min_order=2, max_order=3
    )
    sliced = ngram_differences(
        references=[[r[i] for i in picked] for r in refs],
        system_a=[jd[i] for i in picked],
        system_b=[lt[i] for i in picked],
        min_order=2,
        max_order=3,
    )
    for mine, plain in zip((result.a_better, result.b_better), (sliced.a_better, sliced.b_better)):
        assert [e.ngram for e in mine] == [e.ngram for e in plain]
        for e, f in zip(mine, plain):
            assert e.rows.tolist() == picked[f.rows].tolist()
            assert (e.count_a, e.count_b, e.score) == (f.count_a, f.count_b, f.score)
    # The same selection as row numbers, in any order and with repeats.
    again = ngram_differences(
        references=refs,
        system_a=jd,
        system_b=lt,
        rows=[*picked[::-1].tolist(), int(picked[0])],
        min_order=2,
        max_order=3,
    )
    assert [e.ngram for e in again.a_better] == [e.ngram for e in result.a_better]


# -- n-gram differences on generated data -----------------------------------------------------

VOCAB = ("a", "b", "c", "d", "e", "the", "The", ",", "x")
lines = st.lists(st.sampled_from(VOCAB), max_size=9)


@st.composite
def corpora(draw: st.DrawFn) -> tuple[list[Tokens], Tokens, Tokens]:
    n = draw(st.integers(min_value=0, max_value=7))
    n_refs = draw(st.integers(min_value=1, max_value=3))
    column = st.lists(lines, min_size=n, max_size=n)
    return [draw(column) for _ in range(n_refs)], draw(column), draw(column)


@settings(max_examples=150, deadline=None)
@given(
    corpus=corpora(),
    orders=st.tuples(st.integers(1, 4), st.integers(0, 3)),
    alpha=st.sampled_from([1.0, 0.5, 2.0]),
    top=st.sampled_from([1, 3, 1000]),
)
def test_generated_corpora_match_the_oracle(
    corpus: tuple[list[Tokens], Tokens, Tokens], orders: tuple[int, int], alpha: float, top: int
) -> None:
    refs, a, b = corpus
    low, extra = orders
    result = ngram_differences(
        references=refs,
        system_a=a,
        system_b=b,
        min_order=low,
        max_order=low + extra,
        alpha=alpha,
        top=top,
    )
    check_against_oracle(
        result, refs, a, b, min_order=low, max_order=low + extra, alpha=alpha, top=top
    )


def test_bad_arguments_are_refused() -> None:
    with pytest.raises(ValueError, match="min_order"):
        ngram_differences(references=[[["a"]]], system_a=[["a"]], system_b=[["a"]], min_order=0)
    with pytest.raises(ValueError, match="same number of rows"):
        ngram_differences(references=[[["a"]]], system_a=[["a"]], system_b=[])
    with pytest.raises(ValueError, match="row mask"):
        row_index(np.array([True, False]), 3)
    with pytest.raises(ValueError, match="row numbers"):
        row_index([0, 3], 3)


def test_a_selection_is_a_sorted_set_of_rows() -> None:
    assert row_index([4, 0, 4, 2], 5).tolist() == [0, 2, 4]
    assert row_index(np.array([False, True, True]), 3).tolist() == [1, 2]
    assert row_index(None, 3).tolist() == [0, 1, 2]
    assert row_index([], 3).tolist() == []


# -- what moves the corpus score --------------------------------------------------------------


@cache
def de_en_stats(system: str, refs: tuple[str, ...]) -> np.ndarray:
    """sacreBLEU's own per-segment statistics: hyp_len, ref_len, matches[4], totals[4]."""
    bleu = BLEU(tokenize="13a")
    return np.array(
        sacrebleu_statistics(
            bleu, read_lines(DE_EN / f"sys.{system}.txt"), [read_lines(DE_EN / r) for r in refs]
        ),
        dtype=np.int64,
    )


def corpus_bleu(smooth_method: str = "exp") -> ScoreFunction:
    """Corpus BLEU-4 of summed statistics, from BLEU's ``additive``."""
    empty = {"hyp_len": [], "ref_len": [], "matches": np.zeros((0, 4)), "totals": np.zeros((0, 4))}
    return BleuMetric().additive(BleuSettings(smooth_method=smooth_method), empty)[1]


def as_bleu_stats(row: np.ndarray) -> BleuStats:
    values = [int(v) for v in row]
    return BleuStats(values[0], values[1], tuple(values[2:6]), tuple(values[6:10]))


@needs(TED)
@pytest.mark.parametrize("refs", [("ref.txt",), ("ref.txt", "ref2.txt")])
def test_leave_one_out_bleu_equals_the_loop(refs: tuple[str, ...]) -> None:
    a = de_en_stats("JDExploreAcademy", refs)
    b = de_en_stats("Lan-Bridge", refs)
    score = corpus_bleu()
    influence = difference_influence(stats_a=a, stats_b=b, score=score)
    sacre = BLEU(tokenize="13a")
    ref_lines = [read_lines(DE_EN / r) for r in refs]
    for stats, name, value in (
        (a, "JDExploreAcademy", influence.score_a),
        (b, "Lan-Bridge", influence.score_b),
    ):
        hyps = read_lines(DE_EN / f"sys.{name}.txt")
        assert value == sacre.corpus_score(hyps, ref_lines).score
        assert value == compute_bleu(sum(map(as_bleu_stats, stats))).score
    total_a = as_bleu_stats(a.sum(axis=0))
    total_b = as_bleu_stats(b.sum(axis=0))
    loop = []
    for row_a, row_b in zip(a, b):
        without_a = as_bleu_stats(a.sum(axis=0) - row_a)
        without_b = as_bleu_stats(b.sum(axis=0) - row_b)
        loop.append(compute_bleu(without_a).score - compute_bleu(without_b).score)
    difference = compute_bleu(total_a).score - compute_bleu(total_b).score
    assert influence.difference == difference
    assert influence.effect.tolist() == [difference - w for w in loop]
    # The ranking: largest effect first; the heads are the rows that help each system most.
    ranked = influence.effect[influence.order]
    assert np.all(np.diff(ranked) <= 0)
    top_a = influence.helps_a(10)
    assert (
        top_a.tolist() == influence.rows[np.argsort(-influence.effect, kind="stable")[:10]].tolist()
    )
    assert all(influence.effect[r] > 0 for r in top_a)
    assert all(influence.effect[r] < 0 for r in influence.helps_b(10))


@needs(TED)
def test_influence_on_a_subset_is_the_subsets_corpus_score() -> None:
    a = de_en_stats("Online-W", ("ref.txt",))
    b = de_en_stats("PROMT", ("ref.txt",))
    rows = np.arange(len(a))[::5]
    score = corpus_bleu()
    influence = difference_influence(stats_a=a, stats_b=b, score=score, rows=rows)
    assert influence.rows.tolist() == rows.tolist()
    assert influence.score_a == compute_bleu(as_bleu_stats(a[rows].sum(axis=0))).score
    i = 7
    rest = np.delete(rows, i)
    expected = (influence.score_a - influence.score_b) - (
        compute_bleu(as_bleu_stats(a[rest].sum(axis=0))).score
        - compute_bleu(as_bleu_stats(b[rest].sum(axis=0))).score
    )
    assert influence.effect[i] == expected


@settings(max_examples=200, deadline=None)
@given(
    values=st.lists(
        st.tuples(
            st.one_of(st.floats(0, 100), st.just(float("nan"))),
            st.floats(0, 100),
        ),
        min_size=2,
        max_size=30,
    )
)
def test_leave_one_out_of_a_mean_equals_the_mean_of_the_others(
    values: list[tuple[float, float]],
) -> None:
    a = np.array([v[0] for v in values])
    b = np.array([v[1] for v in values])
    influence = difference_influence(
        stats_a=mean_statistics(a), stats_b=mean_statistics(b), score=mean_score
    )
    for i in range(len(values)):
        others_a = np.delete(a, i)
        others_a = others_a[~np.isnan(others_a)]
        mean_a = others_a.mean() if others_a.size else np.nan
        without = mean_a - np.delete(b, i).mean()
        expected = (np.nanmean(a) if (~np.isnan(a)).any() else np.nan) - b.mean() - without
        if np.isnan(expected):
            assert np.isnan(influence.effect[i])
        else:
            assert influence.effect[i] == pytest.approx(expected, abs=1e-9)


@settings(max_examples=200, deadline=None)
@given(
    rows=st.lists(
        st.tuples(
            st.integers(0, 30),
            st.integers(0, 30),
            st.lists(st.integers(0, 30), min_size=4, max_size=4),
        ),
        min_size=1,
        max_size=12,
    ),
    smooth=st.sampled_from(["exp", "floor", "add-k", "none"]),
)
def test_bleu_additive_score_equals_compute_bleu(
    rows: list[tuple[int, int, list[int]]], smooth: str
) -> None:
    # Valid statistics: matches <= totals <= n-grams the hypothesis length allows.
    hyp = [r[0] for r in rows]
    totals = [[max(h - n, 0) for n in range(4)] for h in hyp]
    matches = [[min(m, t) for m, t in zip(r[2], tot)] for r, tot in zip(rows, totals)]
    fields = {"hyp_len": hyp, "ref_len": [r[1] for r in rows], "matches": matches, "totals": totals}
    matrix, score = BleuMetric().additive(BleuSettings(smooth_method=smooth), fields)
    values = score(matrix)
    for row, value in zip(matrix, values):
        assert value == compute_bleu(as_bleu_stats(row), smooth_method=smooth).score
    loo = leave_one_out(matrix, score)
    for i, value in enumerate(loo):
        rest = as_bleu_stats(matrix.sum(axis=0) - matrix[i])
        assert value == compute_bleu(rest, smooth_method=smooth).score
