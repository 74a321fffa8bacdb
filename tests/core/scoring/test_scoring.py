"""The chunk scorer (every metric's bulk path) against the straightforward per-row computation.

The reference here scores one row at a time with the scalar oracles (tests/oracles.py, and
core.metrics.rouge's own per-pair functions), which their own tests compare with sacrebleu,
rouge-score and nltk. The bulk path must give the same integers and bit-identical floats, on
generated text and on the shared real data, for many configurations. A few checks also go
straight to sacrebleu and rouge-score.
"""

from __future__ import annotations

import math
import threading
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pytest
import sacrebleu
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rouge_score import rouge_scorer

from matchlight.core.metrics.bleu import BleuStats, compute_bleu, sacrebleu_scores
from matchlight.core.metrics.nltk_bleu import nltk_bleu_from_stats
from matchlight.core.metrics.rouge import (
    RougeStats,
    prepare_ref,
    rouge_lsum,
    score_multi,
)
from matchlight.core.scoring.config import ScoringConfig
from matchlight.core.scoring.engine import (
    iter_score_chunks,
    iter_score_chunks_parallel,
    parallel_bounds,
    score_corpus,
)
from matchlight.core.scoring.results import ScoreChunk
from matchlight.core.scoring.scorer import ChunkScorer
from matchlight.core.text.corpus import CorpusText
from matchlight.core.text.tokenizers import bleu_tokenizer, rouge_tokenizer, sentence_spans
from tests.conftest import ALL_METRICS, DATASETS, make_config
from tests.oracles import bleu_stats, nltk_stats_from_refs, prepare_refs, rouge_l, rouge_n

# -- the straightforward per-row computation ------------------------------------------------


def _blank(line: str, separator: str | None) -> str:
    """The oracle's own separator blanking (BLEU and NLTK read sentences joined by spaces)."""
    if separator is None or separator == "\n":
        return line
    return line.replace(separator, " " * len(separator))


def _sentences(line: str, config: ScoringConfig) -> list[list[str]]:
    rouge = config.settings("rouge")
    rtok = rouge_tokenizer(rouge.tokenizer, stem=rouge.stem)  # type: ignore[attr-defined]
    sep = config.sentence_separator
    if sep is None or sep not in line:
        return [rtok(line)]
    return [rtok(line[a:b]) for a, b in sentence_spans(line, sep) if b > a]


def _bleu(config: ScoringConfig, refs: Sequence[str], hyps: Sequence[str]) -> dict[str, Any]:
    b = config.settings("bleu")
    tok = bleu_tokenizer(b.tokenize, lowercase=b.lowercase)  # type: ignore[attr-defined]
    sep = config.sentence_separator
    prepared = prepare_refs([tok(_blank(r, sep)) for r in refs], b.max_order)  # type: ignore[attr-defined]
    out: dict[str, Any] = {"scores": [], "hyp_len": [], "ref_len": [], "matches": [], "totals": []}
    for hyp in hyps:
        stats = bleu_stats(tok(_blank(hyp, sep)), prepared)
        score = compute_bleu(
            stats,
            smooth_method=b.smooth_method,  # type: ignore[attr-defined]
            smooth_value=b.smoothing,  # type: ignore[attr-defined]
            effective_order=b.effective_order,  # type: ignore[attr-defined]
        ).score
        out["scores"].append([score, stats.hyp_len, stats.ref_len])
        out["hyp_len"].append(stats.hyp_len)
        out["ref_len"].append(stats.ref_len)
        out["matches"].append(stats.matches)
        out["totals"].append(stats.totals)
    return out


def _nltk(config: ScoringConfig, refs: Sequence[str], hyps: Sequence[str]) -> dict[str, Any]:
    s = config.settings("nltk_bleu")
    tok = bleu_tokenizer(s.tokenize, lowercase=s.lowercase)  # type: ignore[attr-defined]
    sep = config.sentence_separator
    order = s.max_order  # type: ignore[attr-defined]
    prepared = prepare_refs([tok(_blank(r, sep)) for r in refs], max(order, 5))
    weights = (1.0 / order,) * order
    out: dict[str, Any] = {
        "scores": [],
        "hyp_len": [],
        "ref_len": [],
        "numerators": [],
        "denominators": [],
        "p5": [],
    }
    for hyp in hyps:
        stats = nltk_stats_from_refs(tok(_blank(hyp, sep)), prepared, order)
        try:
            score = 100.0 * nltk_bleu_from_stats(
                stats,
                weights=weights,
                smoothing=s.smoothing,  # type: ignore[attr-defined]
            )
        except ValueError:
            score = math.nan
        out["scores"].append([score])
        out["hyp_len"].append(stats.hyp_len)
        out["ref_len"].append(stats.ref_len)
        out["numerators"].append(stats.numerators)
        out["denominators"].append(stats.denominators)
        out["p5"].append(stats.last_p5)
    return out


def _rouge(
    config: ScoringConfig, refs: Sequence[str], hyps: Sequence[str]
) -> tuple[dict[str, Any], bool, int]:
    max_n = config.settings("rouge").max_n  # type: ignore[attr-defined]
    types = config.settings("rouge").types  # type: ignore[attr-defined]
    ref_sents = [_sentences(r, config) for r in refs]
    prepared = [
        prepare_ref([t for s in sents for t in s], sentences=sents, max_n=max_n)
        for sents in ref_sents
    ]
    empty = sum(1 for sents in ref_sents if not any(sents))
    ref_multi = any(len(s) > 1 for s in ref_sents)
    fallback = not ref_multi
    out: dict[str, Any] = {"scores": [], "counts": []}
    for line in hyps:
        hyp_sents = _sentences(line, config)
        hyp = [t for sent in hyp_sents for t in sent]
        hyp_multi = len(hyp_sents) > 1
        fallback = fallback and not hyp_multi
        row: list[float] = []
        counts: list[tuple[int, int, int]] = []
        for t, rouge_type in enumerate(types):
            per_ref: list[RougeStats] = []
            for ref in prepared:
                if t < max_n:
                    per_ref.append(rouge_n(hyp, ref, t + 1))
                elif rouge_type == "rougeL" or not (hyp_multi or ref_multi):
                    per_ref.append(rouge_l(hyp, ref))
                else:
                    per_ref.append(rouge_lsum(hyp_sents, ref))
            best, chosen = score_multi(per_ref)
            row += [100.0 * best.precision, 100.0 * best.recall, 100.0 * best.fmeasure]
            picked = per_ref[chosen]
            counts.append((picked.overlap, picked.hyp_count, picked.ref_count))
        out["scores"].append(row)
        out["counts"].append(counts)
    return out, fallback, empty


def reference_chunk(
    config: ScoringConfig,
    references: Sequence[Sequence[str]],
    systems: Sequence[Sequence[str]],
    start: int = 0,
) -> ScoreChunk:
    """Row by row, reference by reference, metric by metric, with the scalar oracles."""
    n = len(references[0])
    per_metric: dict[str, list[dict[str, Any]]] = {key: [] for key in config.metrics}
    fallback = np.zeros(n, np.bool_)
    empty = np.zeros(n, np.int64)
    for k in range(n):
        refs = [col[k] for col in references]
        hyps = [col[k] for col in systems]
        if "bleu" in config.metrics:
            per_metric["bleu"].append(_bleu(config, refs, hyps))
        if "nltk_bleu" in config.metrics:
            per_metric["nltk_bleu"].append(_nltk(config, refs, hyps))
        if "rouge" in config.metrics:
            row, fallback[k], empty[k] = _rouge(config, refs, hyps)
            per_metric["rouge"].append(row)

    def stack(key: str, name: str, dtype: Any) -> np.ndarray:
        # rows[k][name][s] -> (S, n, ...)
        return np.asarray([row[name] for row in per_metric[key]], dtype).swapaxes(0, 1)

    scores = np.concatenate([stack(key, "scores", np.float64) for key in config.metrics], axis=2)
    stats: dict[str, dict[str, np.ndarray]] = {}
    for key in config.metrics:
        names = [name for name in per_metric[key][0] if name != "scores"] if n else []
        stats[key] = {name: stack(key, name, np.int64) for name in names}
    flags: dict[str, np.ndarray] = {}
    if "rouge" in config.metrics:
        flags = {"lsum_fallback": fallback, "empty_refs": empty}
    return ScoreChunk(start=start, stop=start + n, scores=scores, stats=stats, row_flags=flags)


def _same(name: str, a: np.ndarray, b: np.ndarray) -> None:
    a, b = np.asarray(a), np.asarray(b)
    assert a.shape == b.shape, (name, a.shape, b.shape)
    if b.dtype.kind == "f":
        same = (a.view(np.int64) == b.view(np.int64)) | (np.isnan(a) & np.isnan(b))
        bad = np.argwhere(~same)
        assert not bad.size, (name, bad[:5].tolist(), a[~same][:5], b[~same][:5])
    else:
        np.testing.assert_array_equal(a, b, err_msg=name)


def assert_same_chunk(got: ScoreChunk, want: ScoreChunk) -> None:
    """Every array equal: integers exactly, floats bit for bit (NaN where NaN)."""
    assert (got.start, got.stop) == (want.start, want.stop)
    _same("scores", got.scores, want.scores)
    assert set(got.stats) == set(want.stats)
    for key, fields in want.stats.items():
        assert set(got.stats[key]) == set(fields), key
        for name, values in fields.items():
            _same(f"{key}.{name}", got.stats[key][name], values)
    assert set(got.row_flags) == set(want.row_flags)
    for name, values in want.row_flags.items():
        _same(name, got.row_flags[name].astype(values.dtype), values)


def check(config: ScoringConfig, references: list[list[str]], systems: list[list[str]]) -> None:
    want = reference_chunk(config, references, systems, start=7)
    got = ChunkScorer(config).score_lines(references, systems, start=7)
    assert_same_chunk(got, want)


def _column(config: ScoringConfig, key: str) -> int:
    return config.column_keys().index(key)


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
    smooth = draw(st.sampled_from(["exp", "floor", "add-k", "none"]))
    metrics = draw(
        st.sampled_from([ALL_METRICS, ("bleu", "rouge"), ("rouge",), ("bleu",), ("nltk_bleu",)])
    )
    return make_config(
        metrics=metrics,
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
        nltk_tokenize=draw(st.sampled_from(["none", "13a"])),
        nltk_smoothing=draw(st.sampled_from([f"method{k}" for k in range(8)])),
        nltk_order=draw(st.integers(1, 6)),
        rouge_tokenizer=draw(st.sampled_from(["rouge-score", "unicode"])),
        rouge_stem=draw(st.booleans()),
        rouge_max_n=draw(st.integers(1, 4)),
        separator=draw(st.sampled_from(["\n", "<n>", None])),
    )


@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])
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
    chunk = ChunkScorer(config).score_lines(refs, systems, 0)
    types = list(config.settings("rouge").types)  # type: ignore[attr-defined]
    scorer = rouge_scorer.RougeScorer(types)
    bleu = _column(config, "bleu")
    for s, hyps in enumerate(systems):
        for k, hyp in enumerate(hyps):
            row_refs = [r[k] for r in refs]
            want = sacrebleu.sentence_bleu(hyp, row_refs).score
            assert chunk.scores[s, k, bleu] == pytest.approx(want, abs=1e-9, rel=0)
            expected = scorer.score_multi(row_refs, hyp)
            for rouge_type in types:
                first = _column(config, f"{rouge_type}_p")
                got = chunk.scores[s, k, first : first + 3]
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
        make_config(),
        make_config(effective_order=False, max_order=6, rouge_max_n=4),
        make_config(smooth_method="add-k", smooth_value=0.0),
        make_config(smooth_method="floor"),
        make_config(nltk_smoothing="method6", nltk_tokenize="13a"),
        make_config(separator=None),
        make_config(separator="<n>", metrics=("bleu",)),
    ):
        check(config, refs, systems)
        check(config, refs[:1], systems[:1])


def test_a_chunk_of_empty_lines_only() -> None:
    check(make_config(), [["", ""]], [["", ""], ["", " "]])


@st.composite
def long_lines(draw: st.DrawFn) -> str:
    # Around 64 tokens, where the LCS changes method; few distinct words so that it is long.
    size = draw(st.sampled_from([0, 1, 5, 30, 63, 64, 65, 66, 100, 140]))
    vocab = draw(st.sampled_from([["a", "b"], list("abcde"), [f"w{i}" for i in range(9)]]))
    return " ".join(draw(st.lists(st.sampled_from(vocab), min_size=size, max_size=size)))


@settings(max_examples=60, deadline=None)
@given(
    refs=st.lists(st.lists(long_lines(), min_size=3, max_size=3), min_size=1, max_size=2),
    systems=st.lists(st.lists(long_lines(), min_size=3, max_size=3), min_size=1, max_size=2),
)
def test_lines_around_64_tokens(refs: list[list[str]], systems: list[list[str]]) -> None:
    check(make_config(rouge_max_n=1, max_order=2), refs, systems)


def test_long_lines() -> None:
    # Longer than the 64-token words any vectorised LCS could use, and with repeats.
    words = [f"w{i % 37}" for i in range(300)]
    ref = " ".join(words)
    hyp = " ".join(words[5:] + words[:5])
    check(make_config(), [[ref, hyp[:200]]], [[hyp, ref], [ref[::-1], ""]])


# -- real data ------------------------------------------------------------------------------

REAL_CONFIGS: list[Mapping[str, Any]] = [
    {},
    {"max_order": 6, "smooth_method": "floor", "rouge_max_n": 4, "rouge_stem": True},
    {"tokenize": "intl", "lowercase": True, "effective_order": False, "rouge_max_n": 1},
    {"tokenize": "char", "smooth_method": "add-k", "rouge_tokenizer": "unicode"},
    {"nltk_smoothing": "method7", "nltk_tokenize": "13a"},
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
    for flat in REAL_CONFIGS:
        check(make_config(**flat, separator=dataset.lsum_separator), refs, systems)


# -- the BLEU formula on its own ------------------------------------------------------------


@settings(max_examples=150, deadline=None)
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
    settings = make_config(smooth_method=smooth, smooth_value=value, max_order=max_order)
    used = settings.settings("bleu").smoothing  # type: ignore[attr-defined]
    got = sacrebleu_scores(
        np.array([s.hyp_len for s in stats], np.int64),
        np.array([s.ref_len for s in stats], np.int64),
        np.array([s.matches for s in stats], np.int64),
        np.array([s.totals for s in stats], np.int64),
        smooth_method=smooth,
        smooth_value=used,
        effective_order=effective_order,
    )
    want = [
        compute_bleu(
            s,
            smooth_method=smooth,
            smooth_value=used,
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
    config = make_config(rouge_max_n=3)
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
            chunk.stats["rouge"]["counts"],
            serial.stat("rouge", "counts")[:, chunk.start : chunk.stop],
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
    config = make_config()
    for chunk in iter_score_chunks(text, config, chunk_size=7, first_chunk_size=3):
        want = reference_chunk(
            config,
            [col[chunk.start : chunk.stop] for col in text.references],
            [col[chunk.start : chunk.stop] for col in text.systems],
            start=chunk.start,
        )
        assert_same_chunk(chunk, want)


def test_a_chunk_larger_than_one_piece() -> None:
    # More rows than the chunk scorer scores in one go (it cuts them into pieces).
    text = _small_text()
    refs = [list(col) * 25 for col in text.references]
    systems = [list(col) * 25 for col in text.systems]
    assert len(refs[0]) > 1024
    check(make_config(rouge_max_n=3), refs, systems)
