"""matchlight.core.analysis.buckets against compare-mt's bucketers (oracles written from
compare-mt 0.2.10's ``compare_mt/bucketers.py``) and straightforward loops, on real data.

Sentence scores come from sacreBLEU (``BLEU(effective_order=True).sentence_score`` equals
what its per-segment statistics give with effective order, which is how they are computed here).
"""

from __future__ import annotations

import itertools
from collections import Counter, defaultdict
from collections.abc import Mapping, Sequence
from functools import cache

import numpy as np
import pytest
import sacrebleu
from hypothesis import given, settings
from hypothesis import strategies as st
from sacrebleu.metrics.bleu import BLEU

from matchlight.core.analysis.buckets import (
    FREQUENCY_EDGES,
    LENGTH_EDGES,
    WordAccuracy,
    bootstrap_interval,
    bucket_corpus,
    bucket_means,
    cut_buckets,
    cutoff_labels,
    label_buckets,
    length_buckets,
    ratio_buckets,
    resample_weights,
    word_accuracy_by_frequency,
)
from matchlight.core.io.wordcounts import read_word_counts
from matchlight.core.metrics.base import mean_score, mean_statistics
from matchlight.core.metrics.bleu import sacrebleu_scores
from tests.conftest import SHARED_DATA
from tests.kit import needs, read_lines
from tests.refs import sacrebleu_statistics

TED = SHARED_DATA / "compare-mt-ted-sk-en"
DE_EN = SHARED_DATA / "wmt22-de-en"
EN_ZH = SHARED_DATA / "wmt22-en-zh"
DE_EN_SYSTEMS = ("JDExploreAcademy", "LT22", "Lan-Bridge", "Online-W", "PROMT")

Tokens = list[list[str]]


pytestmark = pytest.mark.usefixtures("quiet_sacrebleu")


def load_tokens(path: object) -> Tokens:
    """compare-mt's corpus_utils.load_tokens."""
    with open(str(path), encoding="utf-8") as handle:
        return [line.strip().split(" ") for line in handle]


# -- compare-mt oracles -------------------------------------------------------------------------


def cmt_labels(cutoffs: Sequence[int], num_type: str = "int") -> list[str]:
    """compare-mt's Bucketer.set_bucket_cutoffs."""
    strs = []
    for i, x in enumerate(cutoffs):
        if i == 0:
            strs.append(f"<{x}")
        elif num_type == "int" and x - 1 == cutoffs[i - 1]:
            strs.append(f"{x - 1}")
        else:
            strs.append(f"[{cutoffs[i - 1]},{x})")
    strs.append(f">={x}")
    return strs


def cmt_bucket(value: float, cutoffs: Sequence[float]) -> int:
    """compare-mt's Bucketer.cutoff_into_bucket."""
    for i, v in enumerate(cutoffs):
        if value < v:
            return i
    return len(cutoffs)


def cmt_word_statistics(
    ref: Tokens, outs: Sequence[Tokens], freq: Mapping[str, int], cutoffs: Sequence[int]
) -> list[list[tuple[float, ...]]]:
    """compare-mt's FreqWordBucketer.calc_statistics (no labels, case-sensitive)."""
    n_buckets = len(cutoffs) + 1
    ref_total = np.zeros(n_buckets, dtype=int)
    out_totals = np.zeros((len(outs), n_buckets), dtype=int)
    out_matches = np.zeros((len(outs), n_buckets), dtype=int)
    for rsi, ref_sent in enumerate(ref):
        out_sents = [o[rsi] for o in outs]
        ref_pos: dict[str, list[int]] = defaultdict(list)
        for ri, w in enumerate(ref_sent):
            ref_pos[w].append(ri)
        matches = [[-1 for _ in s] for s in out_sents]
        for oai, out_sent in enumerate(out_sents):
            cnts: dict[str, int] = {}
            for oi, w in enumerate(out_sent):
                poss = ref_pos.get(w)
                if poss:
                    c = cnts.get(w, 0)
                    if c < len(poss):
                        matches[oai][oi] = poss[c]
                    cnts[w] = c + 1
        ref_buckets = [cmt_bucket(freq.get(w, 0), cutoffs) for w in ref_sent]
        for b in ref_buckets:
            ref_total[b] += 1
        for oai, (out_sent, match) in enumerate(zip(out_sents, matches)):
            for w, m in zip(out_sent, match):
                b = cmt_bucket(freq.get(w, 0), cutoffs) if m < 0 else ref_buckets[m]
                out_totals[oai, b] += 1
                if m >= 0:
                    out_matches[oai, b] += 1
    stats = []
    for oi in range(len(outs)):
        rows = []
        for bi in range(n_buckets):
            mcnt, ocnt, rcnt = out_matches[oi, bi], out_totals[oi, bi], ref_total[bi]
            if mcnt == 0:
                rec, prec, fmeas = 0.0, 0.0, 0.0
            else:
                rec = mcnt / float(rcnt)
                prec = mcnt / float(ocnt)
                fmeas = 2 * prec * rec / (prec + rec)
            rows.append((mcnt, rcnt, ocnt, rec, prec, fmeas))
        stats.append(rows)
    return stats


def read_counts(path: object) -> dict[str, int]:
    """compare-mt's reading of a frequency count file (word<TAB>count)."""
    counts: dict[str, int] = {}
    with open(str(path)) as handle:
        for line in handle:
            cols = line.strip().split("\t")
            if len(cols) == 2:
                counts[cols[0]] = int(cols[1])
    return counts


def as_statistics(w: WordAccuracy) -> list[list[tuple[float, ...]]]:
    """The result in compare-mt's layout: (matches, ref, out, recall, precision, F)."""
    return [
        [
            (
                w.matches[s, b],
                w.ref_total[b],
                w.out_total[s, b],
                w.recall[s, b],
                w.precision[s, b],
                w.fmeasure[s, b],
            )
            for b in range(len(w.labels))
        ]
        for s in range(w.matches.shape[0])
    ]


# -- labels and assignment ------------------------------------------------------------------------


def test_bucket_names_are_compare_mts() -> None:
    assert list(cutoff_labels(list(FREQUENCY_EDGES), integer=True)) == cmt_labels(FREQUENCY_EDGES)
    assert list(cutoff_labels(list(LENGTH_EDGES), integer=True)) == cmt_labels(LENGTH_EDGES)
    expected = ["<1", "1", "2", "3", "4", "[5,10)", "[10,100)", "[100,1000)", ">=1000"]
    assert list(cutoff_labels([1, 2, 3, 4, 5, 10, 100, 1000], integer=True)) == expected


@settings(max_examples=300, deadline=None)
@given(
    values=st.lists(st.one_of(st.integers(-5, 80), st.floats(-5, 80)), max_size=40),
    edges=st.lists(st.integers(-3, 70), min_size=1, max_size=6, unique=True).map(sorted),
)
def test_rows_fall_in_compare_mts_buckets(values: list[float], edges: list[int]) -> None:
    buckets = cut_buckets(values, edges, by="x")
    assert buckets.index.tolist() == [cmt_bucket(v, edges) for v in values]
    assert list(buckets.labels) == cmt_labels(edges)
    for b in range(len(buckets.labels)):
        assert buckets.rows(b).tolist() == [
            i for i, v in enumerate(values) if cmt_bucket(v, edges) == b
        ]


def test_bad_edges_and_rows_are_refused() -> None:
    with pytest.raises(ValueError, match="increasing"):
        cut_buckets([1.0], [3, 2], by="x")
    with pytest.raises(ValueError, match="row mask"):
        bucket_means(length_buckets([1, 2]), [[1.0, 2.0]], rows=[True])


@needs(TED)
def test_label_buckets_from_the_domain_column() -> None:
    domains = read_lines(EN_ZH / "domain.txt")
    buckets = label_buckets(domains, by="domain")
    assert set(buckets.labels) == set(domains)
    counts = Counter(domains)
    for b, label in enumerate(buckets.labels):
        assert len(buckets.rows(b)) == counts[label]
        assert all(domains[i] == label for i in buckets.rows(b))
    # A chosen order, with a label the data does not have and one left out.
    chosen = label_buckets(domains, order=["news", "missing", "social"])
    assert chosen.labels == ("news", "missing", "social")
    assert len(chosen.rows(1)) == 0
    assert (chosen.index == -1).sum() == counts["ecommerce"] + counts["conversation"]


# -- means per bucket on real data ----------------------------------------------------------


@cache
def de_en() -> tuple[list[str], np.ndarray, np.ndarray]:
    """Reference, sentence BLEU ``(S, n)`` and hypothesis lengths ``(S, n)`` (sacreBLEU 13a)."""
    ref = read_lines(DE_EN / "ref.txt")
    bleu = BLEU(tokenize="13a", references=[ref])  # the reference's n-grams once (its cache)
    scores, lengths = [], []
    for name in DE_EN_SYSTEMS:
        stats = np.array(
            sacrebleu_statistics(bleu, read_lines(DE_EN / f"sys.{name}.txt"), None),
            dtype=np.int64,
        )
        scores.append(
            sacrebleu_scores(
                stats[:, 0],
                stats[:, 1],
                stats[:, 2:6],
                stats[:, 6:10],
                smooth_method="exp",
                smooth_value=None,
                effective_order=True,
            )
        )
        lengths.append(stats[:, 0])
    return ref, np.array(scores), np.array(lengths)


@needs(TED)
def test_sentence_scores_here_are_sacrebleus() -> None:
    ref, scores, _ = de_en()
    bleu = BLEU(tokenize="13a", effective_order=True)
    hyps = read_lines(DE_EN / "sys.PROMT.txt")
    for i in range(0, len(ref), 97):
        assert scores[4, i] == bleu.sentence_score(hyps[i], [ref[i]]).score


@needs(TED)
def test_means_by_reference_length_equal_a_loop() -> None:
    ref, scores, _ = de_en()
    tokenizer = BLEU(tokenize="13a").tokenizer
    lengths = [len(tokenizer(line).split()) for line in ref]
    buckets = length_buckets(lengths)
    table = bucket_means(buckets, scores, n_boot=200, seed=3)
    assert table.labels == ("<10", "[10,20)", "[20,30)", "[30,40)", "[40,50)", "[50,60)", ">=60")
    for b, row in enumerate(table.cells):
        members = [i for i, n in enumerate(lengths) if cmt_bucket(n, LENGTH_EDGES) == b]
        for s, cell in enumerate(row):
            assert cell.rows.tolist() == members
            assert cell.count == len(members)
            if members:
                assert cell.mean == pytest.approx(np.mean(scores[s, members]), abs=1e-12)
                assert cell.low <= cell.mean <= cell.high
            else:
                assert np.isnan(cell.mean)
    assert table.means().shape == (len(table.labels), len(DE_EN_SYSTEMS))
    # A subset of rows: every bucket holds only selected rows.
    chosen = np.arange(len(ref)) % 2 == 0
    half = bucket_means(buckets, scores, rows=chosen, n_boot=50)
    for b, row in enumerate(half.cells):
        members = [
            i for i, n in enumerate(lengths) if cmt_bucket(n, LENGTH_EDGES) == b and i % 2 == 0
        ]
        assert row[0].rows.tolist() == members
        if members:
            assert row[2].mean == pytest.approx(np.mean(scores[2, members]), abs=1e-12)


@needs(TED)
def test_means_by_length_ratio_are_per_system() -> None:
    ref, scores, hyp_len = de_en()
    tokenizer = BLEU(tokenize="13a").tokenizer
    ref_len = np.array([len(tokenizer(line).split()) for line in ref])
    buckets = ratio_buckets(hyp_len, ref_len)
    assert buckets.per_system
    table = bucket_means(buckets, scores, n_boot=50)
    edges = (0.5, 0.8, 0.9, 1.0, 1.1, 1.2, 1.5)
    for s in range(len(DE_EN_SYSTEMS)):
        ratio = [h / r if r else (np.inf if h else 1.0) for h, r in zip(hyp_len[s], ref_len)]
        for b, row in enumerate(table.cells):
            members = [i for i, x in enumerate(ratio) if cmt_bucket(x, edges) == b]
            assert row[s].rows.tolist() == members
            if members:
                assert row[s].mean == pytest.approx(np.mean(scores[s, members]), abs=1e-12)


@needs(TED)
def test_means_by_domain_with_missing_values() -> None:
    domains = read_lines(EN_ZH / "domain.txt")
    rng = np.random.default_rng(0)
    values = rng.normal(size=(2, len(domains)))
    values[0, ::7] = np.nan  # imported scores with explicit gaps
    table = bucket_means(label_buckets(domains), values, n_boot=100)
    for b, label in enumerate(table.labels):
        members = [i for i, d in enumerate(domains) if d == label]
        kept = [i for i in members if i % 7]
        assert table.cells[b][0].count == len(kept)
        assert table.cells[b][0].mean == pytest.approx(np.mean(values[0, kept]), abs=1e-12)
        assert table.cells[b][1].count == len(members)
        assert table.cells[b][0].rows.tolist() == members


# -- the bootstrap ------------------------------------------------------------------------------


def oracle_interval(values: np.ndarray, n_boot: int, seed: object, confidence: float) -> tuple:
    """The documented procedure, written plainly: all resamples in one draw, percentile rule."""
    rng = np.random.default_rng(seed)  # type: ignore[arg-type]
    n = values.shape[1]
    picks = rng.integers(0, n, size=(n_boot, n))
    lows, highs = [], []
    for row in values:
        means = np.sort([np.nanmean(row[p]) for p in picks])
        lows.append(means[int(n_boot * (1 - confidence) / 2)])
        highs.append(means[int(n_boot * (1 + confidence) / 2)])
    return np.array(lows), np.array(highs)


@settings(max_examples=60, deadline=None)
@given(
    n=st.integers(1, 60),
    n_boot=st.integers(1, 120),
    seed=st.integers(0, 2**32),
    confidence=st.sampled_from([0.95, 0.9, 0.5]),
)
def test_bootstrap_interval_is_the_documented_procedure(
    n: int, n_boot: int, seed: int, confidence: float
) -> None:
    values = np.random.default_rng(seed + 1).normal(50, 20, size=(3, n))
    low, high = bootstrap_interval(values, n_boot=n_boot, seed=seed, confidence=confidence)
    want_low, want_high = oracle_interval(values, n_boot, seed, confidence)
    assert low == pytest.approx(want_low, abs=1e-9)
    assert high == pytest.approx(want_high, abs=1e-9)


def test_bootstrap_is_seeded_and_close_to_the_normal_interval() -> None:
    values = np.random.default_rng(11).normal(30, 10, size=(1, 4000))
    first = bootstrap_interval(values, n_boot=2000, seed=5)
    again = bootstrap_interval(values, n_boot=2000, seed=5)
    other = bootstrap_interval(values, n_boot=2000, seed=6)
    assert first[0].tolist() == again[0].tolist() and first[1].tolist() == again[1].tolist()
    assert first[0].tolist() != other[0].tolist()
    half_width = 1.96 * values.std() / np.sqrt(values.shape[1])
    mean = values.mean()
    assert first[0][0] == pytest.approx(mean - half_width, abs=0.1 * half_width)
    assert first[1][0] == pytest.approx(mean + half_width, abs=0.1 * half_width)


def test_resample_blocks_draw_what_one_draw_would() -> None:
    rng = np.random.default_rng(9)
    weights = np.concatenate(list(resample_weights(rng, 3_000_000 // 1000, 1500)))
    picks = np.random.default_rng(9).integers(0, 3000, size=(1500, 3000))
    expected = np.stack([np.bincount(p, minlength=3000) for p in picks])
    assert np.array_equal(weights, expected)


def test_missing_values_are_left_out_of_the_bootstrap() -> None:
    values = np.array([[1.0, np.nan, 3.0, np.nan], [np.nan] * 4])
    low, high = bootstrap_interval(values, n_boot=300)
    assert 1.0 <= low[0] <= high[0] <= 3.0
    assert np.isnan(low[1]) and np.isnan(high[1])


# -- word accuracy by frequency (compare-mt) --------------------------------------------------


@needs(TED)
@pytest.mark.parametrize("source", ["reference", "training counts"])
def test_word_accuracy_is_compare_mts(source: str) -> None:
    tok = TED / "tokenized"
    ref = load_tokens(tok / "ref.txt")
    outs = [load_tokens(tok / "sys.pbmt.txt"), load_tokens(tok / "sys.nmt.txt")]
    counts = None if source == "reference" else read_counts(TED / "train.counts.tsv")
    freq = Counter(itertools.chain.from_iterable(ref)) if counts is None else counts
    result = word_accuracy_by_frequency(reference=ref, systems=outs, counts=counts, n_boot=100)
    assert list(result.labels) == cmt_labels(FREQUENCY_EDGES)
    assert as_statistics(result) == cmt_word_statistics(ref, outs, freq, FREQUENCY_EDGES)
    for b in range(len(result.labels)):
        expected = [
            i
            for i, sent in enumerate(ref)
            if any(cmt_bucket(freq.get(w, 0), FREQUENCY_EDGES) == b for w in sent)
        ]
        assert result.rows[b].tolist() == expected
    # Where there are words, the interval holds the F-measure.
    full = result.ref_total > 50
    assert np.all(result.fmeasure_low[:, full] <= result.fmeasure[:, full])
    assert np.all(result.fmeasure[:, full] <= result.fmeasure_high[:, full])


@needs(TED)
def test_word_accuracy_bootstrap_is_the_documented_procedure() -> None:
    tok = TED / "tokenized"
    ref = load_tokens(tok / "ref.txt")[:300]
    outs = [load_tokens(tok / "sys.pbmt.txt")[:300]]
    result = word_accuracy_by_frequency(reference=ref, systems=outs, n_boot=40, seed=2)
    freq = Counter(itertools.chain.from_iterable(ref))
    picks = np.random.default_rng(2).integers(0, 300, size=(40, 300))
    samples = []
    for p in picks:
        stats = cmt_word_statistics(
            [ref[i] for i in p], [[outs[0][i] for i in p]], freq, FREQUENCY_EDGES
        )[0]
        samples.append([row[5] for row in stats])
    ordered = np.sort(np.array(samples), axis=0)
    assert result.fmeasure_low[0].tolist() == pytest.approx(ordered[1].tolist(), abs=1e-12)
    assert result.fmeasure_high[0].tolist() == pytest.approx(ordered[39].tolist(), abs=1e-12)


@st.composite
def word_corpora(draw: st.DrawFn) -> tuple[Tokens, list[Tokens], dict[str, int] | None]:
    vocab = ("a", "b", "c", "the", ",", "x", "y")
    n = draw(st.integers(0, 8))
    line = st.lists(st.sampled_from(vocab), max_size=8)
    ref = draw(st.lists(line, min_size=n, max_size=n))
    outs = [draw(st.lists(line, min_size=n, max_size=n)) for _ in range(draw(st.integers(1, 3)))]
    counts = draw(st.one_of(st.none(), st.dictionaries(st.sampled_from(vocab), st.integers(0, 7))))
    return ref, outs, counts


@settings(max_examples=200, deadline=None)
@given(corpus=word_corpora(), edges=st.sampled_from([FREQUENCY_EDGES, (1, 3), (2,)]))
def test_generated_word_accuracy_is_compare_mts(
    corpus: tuple[Tokens, list[Tokens], dict[str, int] | None], edges: tuple[int, ...]
) -> None:
    ref, outs, counts = corpus
    result = word_accuracy_by_frequency(
        reference=ref, systems=outs, counts=counts, edges=edges, n_boot=0
    )
    freq = Counter(itertools.chain.from_iterable(ref)) if counts is None else counts
    assert as_statistics(result) == cmt_word_statistics(ref, outs, freq, edges)
    assert np.isnan(result.fmeasure_low).all()


# -- corpus figures per bucket (compare-mt's statistic_type=score) ------------------------------


@cache
def ted_bleu() -> tuple[Tokens, list[list[str]], list[np.ndarray], object]:
    """TED's tokenized reference, both systems' lines, and their sacreBLEU statistics (13a)."""
    tok = TED / "tokenized"
    ref = read_lines(tok / "ref.txt")
    systems = [read_lines(tok / f"sys.{n}.txt") for n in ("pbmt", "nmt")]
    bleu = BLEU(tokenize="13a")
    stats = [np.array(sacrebleu_statistics(bleu, s, [ref]), np.int64) for s in systems]
    metric = BLEU(tokenize="13a")

    def score(sums: np.ndarray) -> np.ndarray:
        return np.array([metric._compute_score_from_stats(list(row)).score for row in sums])

    return [line.strip().split(" ") for line in ref], systems, stats, score


@needs(TED)
def test_corpus_bleu_per_length_bucket_is_compare_mts_sacrebleu_scorer() -> None:
    """compare-mt's ``bucket_type=length,statistic_type=score,score_measure=sacrebleu``: rows
    by reference length in tokens (``LengthSentenceBucketer``: ``len(ref)``), and per bucket
    the corpus BLEU of its rows (``SacreBleuScorer``: sacreBLEU's statistics summed)."""
    ref_tokens, systems, stats, score = ted_bleu()
    refs = read_lines(TED / "tokenized" / "ref.txt")
    lengths = [len(t) for t in ref_tokens]
    table = bucket_corpus(length_buckets(lengths), stats, score, n_boot=50, seed=1)
    for b, row in enumerate(table.cells):
        members = [i for i, n in enumerate(lengths) if cmt_bucket(n, LENGTH_EDGES) == b]
        assert members
        for s, cell in enumerate(row):
            assert cell.rows.tolist() == members and cell.count == len(members)
            expected = sacrebleu.corpus_bleu(
                [systems[s][i] for i in members], [[refs[i] for i in members]]
            ).score
            assert cell.mean == pytest.approx(expected, abs=1e-9)
            assert cell.low <= cell.high
    # Not the mean of sentence BLEU: the two differ on every bucket here.
    sentence = np.stack(
        [[BLEU(effective_order=True).sentence_score(h, [r]).score for h, r in zip(s, refs)]
         for s in systems]
    )  # fmt: skip
    means = bucket_means(length_buckets(lengths), sentence, n_boot=1)
    assert all(
        abs(a.mean - b.mean) > 0.1
        for ra, rb in zip(table.cells, means.cells)
        for a, b in zip(ra, rb)
    )


def test_corpus_interval_is_the_documented_bootstrap() -> None:
    """The figure of each resample of the bucket's rows (numpy's default_rng((seed, b)), the
    same draws for every system), and compare-mt's percentile rule."""
    rng = np.random.default_rng(4)
    stats = [rng.integers(0, 9, size=(40, 3)) for _ in range(2)]

    def score(sums: np.ndarray) -> np.ndarray:
        sums = np.asarray(sums, np.float64)
        return 100 * sums[:, 0] / np.maximum(sums[:, 1] + sums[:, 2], 1)

    values = np.arange(40) % 3
    buckets = cut_buckets(values, [1, 2], by="x")
    table = bucket_corpus(buckets, stats, score, n_boot=60, seed=9, rows=np.arange(0, 40, 2) + 0)
    selected = set(range(0, 40, 2))
    for b, row in enumerate(table.cells):
        members = np.array([i for i in range(40) if values[i] == b and i in selected])
        picks = np.random.default_rng((9, b)).integers(0, len(members), size=(60, len(members)))
        for s, cell in enumerate(row):
            assert cell.mean == score(stats[s][members].sum(0)[None])[0]
            resampled = np.sort([score(stats[s][members[p]].sum(0)[None])[0] for p in picks])
            assert cell.low == pytest.approx(resampled[int(60 * 0.025)], abs=1e-12)
            assert cell.high == pytest.approx(resampled[int(60 * 0.975)], abs=1e-12)


@needs(DE_EN)
def test_corpus_figures_of_mean_statistics_are_bucket_means() -> None:
    """A column whose corpus figure is a mean: the same means and, on the same draws, the same
    intervals as :func:`bucket_means`, with the rows lacking a value left out of both."""
    _, scores, hyp_len = de_en()
    scores = scores.copy()
    scores[1, ::5] = np.nan
    ref_len = hyp_len[0] + 3
    for buckets in (length_buckets(ref_len), ratio_buckets(hyp_len, ref_len)):
        means = bucket_means(buckets, scores, n_boot=200, seed=5)
        corpus = bucket_corpus(
            buckets,
            [mean_statistics(row) for row in scores],
            mean_score,
            present=~np.isnan(scores),
            n_boot=200,
            seed=5,
        )
        for row_a, row_b in zip(means.cells, corpus.cells):
            for a, b in zip(row_a, row_b):
                assert a.rows.tolist() == b.rows.tolist() and a.count == b.count
                for x, y in ((a.mean, b.mean), (a.low, b.low), (a.high, b.high)):
                    assert (np.isnan(x) and np.isnan(y)) or x == pytest.approx(y, rel=1e-12)


def test_corpus_buckets_refuse_bad_shapes() -> None:
    buckets = length_buckets([1, 2, 3])
    with pytest.raises(ValueError, match=r"one \(n, K\) array per system"):
        bucket_corpus(buckets, [np.zeros((3, 2)), np.zeros((3, 1))], mean_score)
    with pytest.raises(ValueError, match="buckets cover 3 rows, statistics 2"):
        bucket_corpus(buckets, [np.zeros((2, 2))], mean_score)
    one = bucket_corpus(buckets, [np.ones((3, 2))], mean_score, rows=[0], n_boot=5)
    assert one.cells[0][0].count == 1 and one.cells[0][0].mean == 1.0
    assert all(np.isnan(row[0].mean) and row[0].count == 0 for row in one.cells[1:])


# -- word frequencies from a training corpus -------------------------------------------------


@needs(TED)
def test_training_counts_fill_the_rarest_bucket_as_compare_mt() -> None:
    """compare-mt's example with ``freq_count_file=ted.train.counts``: the count file read by
    core.io.wordcounts as compare-mt reads it, and the F-measures compare-mt computes; the
    ``<1`` bucket, always empty with the reference's own counts, now holds words."""
    tok = TED / "tokenized"
    ref = load_tokens(tok / "ref.txt")
    outs = [load_tokens(tok / "sys.pbmt.txt"), load_tokens(tok / "sys.nmt.txt")]
    counts = read_word_counts(TED / "train.counts.tsv")
    assert counts == read_counts(TED / "train.counts.tsv")
    trained = word_accuracy_by_frequency(reference=ref, systems=outs, counts=counts, n_boot=0)
    assert as_statistics(trained) == cmt_word_statistics(ref, outs, counts, FREQUENCY_EDGES)
    own = word_accuracy_by_frequency(reference=ref, systems=outs, n_boot=0)
    assert own.ref_total[0] == 0 and own.fmeasure[:, 0].tolist() == [0.0, 0.0]
    unseen = sum(1 for line in ref for w in line if counts.get(w, 0) == 0)
    assert trained.ref_total[0] == unseen > 100
    assert (trained.fmeasure[:, 0] > 0).all()
