"""The chunked fast path (core.scoring.fastpath) against the straightforward per-row computation.

The reference here scores one row at a time with the public functions of core.metrics.bleu,
core.metrics.rouge
and core.metrics.nltk_bleu (which their own tests compare with sacrebleu, rouge-score and nltk),
exactly
as the engine did before the fast path existed. The fast path must give the same integers and
bit-identical floats, on generated text and on the shared real data, for many configurations.
A few checks also go straight to sacrebleu and rouge-score.
"""

from __future__ import annotations

import math
import threading
from collections.abc import Sequence
from dataclasses import fields

import numpy as np
import pytest
import sacrebleu
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rouge_score import rouge_scorer

from matchlight.core.metrics.bleu import (
    BleuStats,
    bleu_stats,
    compute_bleu,
    prepare_refs,
    sacrebleu_scores,
)
from matchlight.core.metrics.nltk_bleu import nltk_bleu_from_stats, nltk_stats_from_refs
from matchlight.core.metrics.rouge import (
    RougeStats,
    prepare_ref,
    rouge_l,
    rouge_lsum,
    rouge_n,
    score_multi,
)
from matchlight.core.scoring.config import ScoringConfig
from matchlight.core.scoring.engine import (
    CorpusText,
    iter_score_chunks,
    iter_score_chunks_parallel,
    parallel_bounds,
    score_corpus,
)
from matchlight.core.scoring.fastpath import FastScorer
from matchlight.core.scoring.results import ROUGE_COUNT_FIELDS, ScoreChunk
from matchlight.core.text.tokenizers import bleu_tokenizer, rouge_tokenizer, sentence_spans
from tests.conftest import DATASETS

# -- the straightforward per-row computation ------------------------------------------------


def _sentences(line: str, config: ScoringConfig) -> list[list[str]]:
    rtok = rouge_tokenizer(config.rouge_tokenizer, stem=config.rouge_stem)
    sep = config.lsum_separator
    if sep is None or sep not in line:
        return [rtok(line)]
    return [rtok(line[a:b]) for a, b in sentence_spans(line, sep) if b > a]


def reference_chunk(
    config: ScoringConfig,
    references: Sequence[Sequence[str]],
    systems: Sequence[Sequence[str]],
    start: int = 0,
) -> ScoreChunk:
    """Row by row, reference by reference, with core.metrics.bleu / core.metrics.rouge /
    core.metrics.nltk_bleu."""
    n = len(references[0])
    n_sys = len(systems)
    types = config.rouge_types
    max_n = config.rouge_max_n
    scores = np.empty((n_sys, n, len(config.metric_names())))
    hyp_len = np.zeros((n_sys, n), np.int64)
    ref_len = np.zeros((n_sys, n), np.int64)
    matches = np.zeros((n_sys, n, config.max_order), np.int64)
    totals = np.zeros((n_sys, n, config.max_order), np.int64)
    rouge_counts = np.zeros((n_sys, n, len(types), len(ROUGE_COUNT_FIELDS)), np.int64)
    lsum_fallback = np.zeros(n, np.bool_)
    empty_refs = np.zeros(n, np.int64)
    p5 = np.zeros((n_sys, n, 2), np.int64)
    btok = bleu_tokenizer(config.tokenize, lowercase=config.lowercase)
    nltk = config.bleu_flavour == "nltk"
    order = max(config.max_order, 5) if nltk else config.max_order
    weights = (1.0 / config.max_order,) * config.max_order
    for k in range(n):
        ref_lines = [col[k] for col in references]
        prepared_bleu = prepare_refs([btok(r) for r in ref_lines], order)
        ref_sents = [_sentences(r, config) for r in ref_lines]
        prepared_rouge = [
            prepare_ref([t for s in sents for t in s], sentences=sents, max_n=max_n)
            for sents in ref_sents
        ]
        empty_refs[k] = sum(1 for sents in ref_sents if not any(sents))
        ref_multi = any(len(s) > 1 for s in ref_sents)
        fallback = not ref_multi
        for s, col in enumerate(systems):
            line = col[k]
            words = btok(line)
            if nltk:
                nstats = nltk_stats_from_refs(words, prepared_bleu, config.max_order)
                try:
                    bleu = 100.0 * nltk_bleu_from_stats(
                        nstats, weights=weights, smoothing=config.nltk_smoothing
                    )
                except ValueError:
                    bleu = math.nan
                hyp_len[s, k], ref_len[s, k] = nstats.hyp_len, nstats.ref_len
                matches[s, k], totals[s, k] = nstats.numerators, nstats.denominators
                p5[s, k] = nstats.last_p5
            else:
                stats = bleu_stats(words, prepared_bleu)
                bleu = compute_bleu(
                    stats,
                    smooth_method=config.smooth_method,
                    smooth_value=config.effective_smooth_value,
                    effective_order=config.effective_order,
                ).score
                hyp_len[s, k], ref_len[s, k] = stats.hyp_len, stats.ref_len
                matches[s, k], totals[s, k] = stats.matches, stats.totals
            scores[s, k, 0] = bleu
            hyp_sents = _sentences(line, config)
            hyp = [t for sent in hyp_sents for t in sent]
            hyp_multi = len(hyp_sents) > 1
            fallback = fallback and not hyp_multi
            for t, rouge_type in enumerate(types):
                per_ref: list[RougeStats] = []
                for prepared in prepared_rouge:
                    if t < max_n:
                        per_ref.append(rouge_n(hyp, prepared, t + 1))
                    elif rouge_type == "rougeL" or not (hyp_multi or ref_multi):
                        per_ref.append(rouge_l(hyp, prepared))
                    else:
                        per_ref.append(rouge_lsum(hyp_sents, prepared))
                best, chosen = score_multi(per_ref)
                scores[s, k, 1 + 3 * t : 4 + 3 * t] = [
                    100.0 * best.precision,
                    100.0 * best.recall,
                    100.0 * best.fmeasure,
                ]
                picked = per_ref[chosen]
                rouge_counts[s, k, t] = (picked.overlap, picked.hyp_count, picked.ref_count)
        lsum_fallback[k] = fallback
    return ScoreChunk(
        start=start,
        stop=start + n,
        scores=scores,
        hyp_len=hyp_len,
        ref_len=ref_len,
        matches=matches,
        totals=totals,
        rouge_counts=rouge_counts,
        lsum_fallback=lsum_fallback,
        empty_rouge_refs=empty_refs,
        nltk_p5=p5,
    )


def assert_same_chunk(got: ScoreChunk, want: ScoreChunk) -> None:
    """Every field equal: integers exactly, floats bit for bit (NaN where NaN)."""
    for field in fields(ScoreChunk):
        a, b = getattr(got, field.name), getattr(want, field.name)
        if isinstance(b, np.ndarray):
            assert a.shape == b.shape, field.name
            assert a.dtype == b.dtype, field.name
            if b.dtype.kind == "f":
                same = (a.view(np.int64) == b.view(np.int64)) | (np.isnan(a) & np.isnan(b))
                bad = np.argwhere(~same)
                assert not bad.size, (field.name, bad[:5].tolist(), a[~same][:5], b[~same][:5])
            else:
                np.testing.assert_array_equal(a, b, err_msg=field.name)
        else:
            assert a == b, field.name


def check(config: ScoringConfig, references: list[list[str]], systems: list[list[str]]) -> None:
    want = reference_chunk(config, references, systems, start=7)
    got = FastScorer(config).score_lines(references, systems, start=7)
    assert_same_chunk(got, want)


# -- generated text -------------------------------------------------------------------------

# Few distinct words, so that n-grams repeat within and across lines; punctuation and entities
# for the BLEU tokenizers, case for lowercasing and stemming, CJK for the zh/char/unicode ones.
WORDS = st.sampled_from(
    [
        "the",
        "The",
        "cat",
        "cats",
        "sat",
        "on",
        "mat",
        "running",
        "runs",
        "a",
        "A",
        ",",
        ".",
        "3.5",
        "1,000",
        "-",
        "x-1",
        "&amp;",
        "<n>",
        "猫",
        "の",
        "über",
        "ΣΑΣ",
        "!",
        "'s",
    ]
)
SEPARATORS = st.sampled_from([" ", " ", " ", " ", "\n", "  ", "\t", "\n\n"])


@st.composite
def lines(draw: st.DrawFn) -> str:
    words = draw(st.lists(WORDS, max_size=14))
    out = ""
    for word in words:
        out += word + draw(SEPARATORS)
    return draw(st.sampled_from(["", out, out.strip(), "\n" + out]))


@st.composite
def corpora(draw: st.DrawFn) -> tuple[list[list[str]], list[list[str]]]:
    n = draw(st.integers(1, 6))
    n_refs = draw(st.integers(1, 3))
    n_sys = draw(st.integers(1, 3))
    refs = [draw(st.lists(lines(), min_size=n, max_size=n)) for _ in range(n_refs)]
    systems = [draw(st.lists(lines(), min_size=n, max_size=n)) for _ in range(n_sys)]
    if draw(st.booleans()):
        # Systems that copy (parts of) the references: many long matches.
        systems[0] = [r if draw(st.booleans()) else h for r, h in zip(refs[0], systems[0])]
    return refs, systems


@st.composite
def configs(draw: st.DrawFn) -> ScoringConfig:
    flavour = draw(st.sampled_from(["sacrebleu", "sacrebleu", "nltk"]))
    smooth = draw(st.sampled_from(["exp", "floor", "add-k", "none"]))
    return ScoringConfig(
        bleu_flavour=flavour,
        tokenize=draw(st.sampled_from(["13a", "intl", "char", "zh", "none"])),
        lowercase=draw(st.booleans()),
        smooth_method=smooth,
        smooth_value=(
            draw(st.sampled_from([None, 0.0, 0.01, 0.5, 1, 2.0]))
            if smooth in ("floor", "add-k")
            else None
        ),
        max_order=draw(st.integers(1, 6)),
        effective_order=draw(st.booleans()),
        nltk_smoothing=draw(st.sampled_from([f"method{k}" for k in range(8)])),
        rouge_tokenizer=draw(st.sampled_from(["rouge-score", "unicode"])),
        rouge_stem=draw(st.booleans()),
        rouge_max_n=draw(st.integers(1, 4)),
        lsum_separator=draw(st.sampled_from(["\n", "<n>", None])),
    )


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(corpus=corpora(), config=configs())
def test_generated_text_matches_the_per_row_computation(
    corpus: tuple[list[list[str]], list[list[str]]], config: ScoringConfig
) -> None:
    refs, systems = corpus
    check(config, refs, systems)


@settings(max_examples=150, deadline=None)
@given(corpus=corpora())
def test_generated_text_matches_sacrebleu_and_rouge_score(
    corpus: tuple[list[list[str]], list[list[str]]],
) -> None:
    refs, systems = corpus
    config = ScoringConfig()
    chunk = FastScorer(config).score_lines(refs, systems)
    types = list(config.rouge_types)
    scorer = rouge_scorer.RougeScorer(types)
    for s, hyps in enumerate(systems):
        for k, hyp in enumerate(hyps):
            row_refs = [r[k] for r in refs]
            want = sacrebleu.sentence_bleu(hyp, row_refs).score
            assert chunk.scores[s, k, 0] == pytest.approx(want, abs=1e-9, rel=0)
            expected = scorer.score_multi(row_refs, hyp)
            for t, rouge_type in enumerate(types):
                got = chunk.scores[s, k, 1 + 3 * t : 4 + 3 * t]
                np.testing.assert_allclose(got, 100 * np.array(expected[rouge_type]), atol=1e-9)


def test_edge_cases() -> None:
    refs = [
        ["", "a", "the cat . the cat", "x\n\ny", "\n", "a b c d e f g h i", ""],
        ["", "", "the the the", "y\nx", "\n\n", "i h g f e d c b a", "q"],
    ]
    systems = [
        ["", "", "the cat the cat the cat", "x\ny", "x", "a b c d e f g h i", ""],
        ["z", "a a a", "cat", "", "\n", "a c e g i", "q q"],
    ]
    for config in (
        ScoringConfig(),
        ScoringConfig(effective_order=False, max_order=6, rouge_max_n=4),
        ScoringConfig(smooth_method="add-k", smooth_value=0.0),
        ScoringConfig(smooth_method="floor"),
        ScoringConfig(bleu_flavour="nltk", nltk_smoothing="method6"),
        ScoringConfig(lsum_separator=None),
    ):
        check(config, refs, systems)
        check(config, refs[:1], systems[:1])


def test_a_chunk_of_empty_lines_only() -> None:
    check(ScoringConfig(), [["", ""]], [["", ""], ["", " "]])


@st.composite
def long_lines(draw: st.DrawFn) -> str:
    # Around 64 tokens, where the LCS changes method; few distinct words so that it is long.
    size = draw(st.sampled_from([0, 1, 5, 30, 63, 64, 65, 66, 100, 140]))
    vocab = draw(st.sampled_from([["a", "b"], list("abcde"), [f"w{i}" for i in range(9)]]))
    return " ".join(draw(st.lists(st.sampled_from(vocab), min_size=size, max_size=size)))


@settings(max_examples=120, deadline=None)
@given(
    refs=st.lists(st.lists(long_lines(), min_size=3, max_size=3), min_size=1, max_size=2),
    systems=st.lists(st.lists(long_lines(), min_size=3, max_size=3), min_size=1, max_size=2),
)
def test_lines_around_64_tokens(refs: list[list[str]], systems: list[list[str]]) -> None:
    check(ScoringConfig(rouge_max_n=1, max_order=2), refs, systems)


def test_long_lines() -> None:
    # Longer than the 64-token words any vectorised LCS could use, and with repeats.
    words = [f"w{i % 37}" for i in range(300)]
    ref = " ".join(words)
    hyp = " ".join(words[5:] + words[:5])
    check(ScoringConfig(), [[ref, hyp[:200]]], [[hyp, ref], [ref[::-1], ""]])


# -- real data ------------------------------------------------------------------------------

REAL_CONFIGS = [
    ScoringConfig(),
    ScoringConfig(max_order=6, smooth_method="floor", rouge_max_n=4, rouge_stem=True),
    ScoringConfig(tokenize="intl", lowercase=True, effective_order=False, rouge_max_n=1),
    ScoringConfig(tokenize="char", smooth_method="add-k", rouge_tokenizer="unicode"),
    ScoringConfig(bleu_flavour="nltk", nltk_smoothing="method7", lsum_separator=None),
]


@pytest.mark.skipif(not DATASETS, reason="shared/data is not present")
@pytest.mark.parametrize("dataset", DATASETS, ids=lambda d: d.name)
def test_real_data_matches_the_per_row_computation(dataset) -> None:  # type: ignore[no-untyped-def]
    refs = [dataset.read(p) for p in dataset.refs]
    systems = [dataset.read(p) for p in dataset.systems]
    n = len(refs[0])
    rows = list(range(0, n, max(1, n // 150)))[:150]
    refs = [[r[i] for i in rows] for r in refs]
    systems = [[s[i] for i in rows] for s in systems[:3]]
    for config in REAL_CONFIGS:
        config = config.replace(lsum_separator=dataset.lsum_separator)
        check(config, refs, systems)


# -- the BLEU formula on its own ------------------------------------------------------------


@settings(max_examples=300, deadline=None)
@given(
    data=st.data(),
    max_order=st.integers(1, 6),
    smooth=st.sampled_from(["exp", "floor", "add-k", "none"]),
    smooth_value=st.sampled_from([None, 0.0, 0.1, 0.5, 1, 3.0]),
    effective_order=st.booleans(),
)
def test_sacrebleu_scores_equal_compute_bleu(
    data: st.DataObject,
    max_order: int,
    smooth: str,
    smooth_value: float | None,
    effective_order: bool,
) -> None:
    rows = data.draw(st.integers(1, 12))
    stats: list[BleuStats] = []
    for _ in range(rows):
        hyp = data.draw(st.integers(0, 40))
        totals = tuple(max(hyp - n + 1, 0) for n in range(1, max_order + 1))
        matches = tuple(data.draw(st.integers(0, t)) for t in totals)
        stats.append(BleuStats(hyp, data.draw(st.integers(0, 40)), matches, totals))
    value = smooth_value if smooth in ("floor", "add-k") and smooth_value is not None else None
    config = ScoringConfig(smooth_method=smooth, smooth_value=value, max_order=max_order)
    got = sacrebleu_scores(
        np.array([s.hyp_len for s in stats], np.int64),
        np.array([s.ref_len for s in stats], np.int64),
        np.array([s.matches for s in stats], np.int64),
        np.array([s.totals for s in stats], np.int64),
        smooth_method=smooth,
        smooth_value=config.effective_smooth_value,
        effective_order=effective_order,
    )
    want = [
        compute_bleu(
            s,
            smooth_method=smooth,
            smooth_value=config.effective_smooth_value,
            effective_order=effective_order,
        ).score
        for s in stats
    ]
    assert got.tolist() == want


# -- the engine around it -------------------------------------------------------------------


def test_parallel_bounds_cover_the_corpus_with_whole_chunks_first() -> None:
    for n, size, workers in [(50_000, 4096, 2), (64, 16, 2), (1000, 300, 3), (5, 8, 4), (0, 8, 2)]:
        bounds = parallel_bounds(n, size, workers)
        assert [b for a, b in bounds] == [a for a, b in bounds[1:]] + ([n] if n else [])
        assert all(0 < b - a <= size for a, b in bounds)
        if n >= 4 * size * workers:
            assert bounds[0] == (0, size)
            assert bounds[-2][1] - bounds[-2][0] >= min(size, 256)
    sizes = [b - a for a, b in parallel_bounds(50_000, 4096, 2)]
    assert sizes[:4] == [4096] * 4
    assert max(sizes[-4:]) <= 1024
    # With costs, the tasks near the end hold about equal work, not equal rows.
    costs = np.where(np.arange(10_000) < 3000, 10.0, 1.0)
    bounds = parallel_bounds(10_000, 4096, 2, costs)
    work = [costs[a:b].sum() for a, b in bounds]
    assert bounds[0][1] < 1250 and max(work[1:]) <= work[0]
    assert [b for a, b in bounds] == [a for a, b in bounds[1:]] + [10_000]
    with pytest.raises(ValueError, match="chunk_size"):
        parallel_bounds(10, 0, 2)
    with pytest.raises(ValueError, match="costs"):
        parallel_bounds(10, 4, 2, [1.0] * 9)


def _small_text() -> CorpusText:
    refs = ["the cat sat on the mat", "a dog . barked", "", "x\ny z", "one two three four"] * 9
    hyps = ["the cat sat", "a dog barked .", "nothing", "y z\nx", "four three two one"] * 9
    return CorpusText(
        references=(tuple(refs), tuple(reversed(refs))),
        systems=(tuple(hyps), tuple(refs)),
        system_names=("a", "b"),
    )


def test_processes_started_from_another_thread_give_the_same_table() -> None:
    # A GUI would call from a worker thread: then the workers come from a fork server.
    text = _small_text()
    config = ScoringConfig(rouge_max_n=3)
    serial = score_corpus(text, config)
    chunks: list[ScoreChunk] = []
    errors: list[BaseException] = []

    def run() -> None:
        try:
            chunks.extend(iter_score_chunks_parallel(text, config, workers=2, chunk_size=8))
        except BaseException as error:  # pragma: no cover - reported below
            errors.append(error)

    thread = threading.Thread(target=run)
    thread.start()
    thread.join(timeout=120)
    assert not thread.is_alive() and not errors
    assert sorted((c.start, c.stop) for c in chunks) == parallel_bounds(len(text), 8, 2)
    for chunk in chunks:
        np.testing.assert_array_equal(chunk.scores, serial.scores[:, chunk.start : chunk.stop])
        np.testing.assert_array_equal(
            chunk.rouge_counts, serial.rouge_counts[:, chunk.start : chunk.stop]
        )


def test_parallel_cancel_stops_early() -> None:
    text = _small_text()
    seen: list[ScoreChunk] = []
    for chunk in iter_score_chunks_parallel(
        text, ScoringConfig(), workers=2, chunk_size=4, cancel=lambda: len(seen) >= 2
    ):
        seen.append(chunk)
    assert len(seen) == 2


def test_serial_chunks_are_the_per_row_computation() -> None:
    text = _small_text()
    config = ScoringConfig()
    for chunk in iter_score_chunks(text, config, chunk_size=7, first_chunk_size=3):
        want = reference_chunk(
            config,
            [col[chunk.start : chunk.stop] for col in text.references],
            [col[chunk.start : chunk.stop] for col in text.systems],
            start=chunk.start,
        )
        assert_same_chunk(chunk, want)


def test_a_chunk_larger_than_one_piece() -> None:
    # More rows than matchlight.core.scoring.fastpath scores in one go (it cuts them into pieces).
    text = _small_text()
    refs = [list(col) * 25 for col in text.references]
    systems = [list(col) * 25 for col in text.systems]
    assert len(refs[0]) > 1024
    check(ScoringConfig(rouge_max_n=3), refs, systems)
