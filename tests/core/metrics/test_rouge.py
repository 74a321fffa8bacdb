"""ROUGE-N / L / Lsum on tokens, compared with rouge-score 0.1.2 called on the raw text.

Tokens come from rouge-score's own tokenizer and sentences from its rule for rougeLsum (split on
"\\n", drop empty strings), so any difference is in our scoring, not in tokenization.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rouge_score import rouge_scorer

from matchlight.core.metrics.matching import match_orders
from matchlight.core.metrics.rouge import (
    PairDetail,
    PreparedRef,
    RougeStats,
    Score,
    pair_detail,
    prepare_ref,
    rouge_lsum,
    score_multi,
    score_of,
)
from tests.conftest import SHARED_DATA
from tests.kit import data_lines
from tests.oracles import rouge_l, rouge_n
from tests.refs import (
    rouge_lcs_ind,
    rouge_ngrams,
    rouge_score_lcs,
    rouge_score_ngrams,
    rouge_summary_lcs,
    rouge_tokens,
)

DATA = SHARED_DATA
TYPES = ["rouge1", "rouge2", "rouge3", "rouge4", "rougeL", "rougeLsum"]
SCORERS = {stem: rouge_scorer.RougeScorer(TYPES, use_stemmer=stem) for stem in (False, True)}


def tokenize(text: str, stem: bool) -> list[str]:
    return rouge_tokens(text, stem=stem)


def sentences(text: str, stem: bool) -> list[list[str]]:
    """rouge-score's rougeLsum sentences: split on newlines, drop empty strings, tokenize."""
    return [tokenize(s, stem) for s in text.split("\n") if s]


def prepare(text: str, stem: bool, max_n: int = 2) -> PreparedRef:
    return prepare_ref(tokenize(text, stem), sentences=sentences(text, stem), max_n=max_n)


def stats_by_type(hyp_text: str, ref: PreparedRef, stem: bool) -> dict[str, RougeStats]:
    hyp = tokenize(hyp_text, stem)
    result = {f"rouge{n}": rouge_n(hyp, ref, n) for n in range(1, 5)}
    result["rougeL"] = rouge_l(hyp, ref)
    result["rougeLsum"] = rouge_lsum(sentences(hyp_text, stem), ref)
    return result


@dataclass(frozen=True)
class Detail:
    """One pair's detail as the app computes it (core.metrics.rouge.pair_detail and the
    matcher of core.metrics.matching), with the clipped n-gram matches as flags per start."""

    pair: PairDetail
    hyp_ngram_match: tuple[tuple[bool, ...], ...]
    ref_ngram_match: tuple[tuple[bool, ...], ...]

    @property
    def lcs(self) -> tuple[tuple[int, int], ...]:
        return self.pair.lcs

    @property
    def rouge_n(self) -> tuple[RougeStats, ...]:
        return self.pair.stats[:-2]

    @property
    def rouge_l(self) -> RougeStats:
        return self.pair.stats[-2]

    @property
    def rouge_lsum(self) -> RougeStats:
        return self.pair.stats[-1]

    @property
    def stats(self) -> dict[str, RougeStats]:
        by_type = {f"rouge{n}": stats for n, stats in enumerate(self.rouge_n, start=1)}
        by_type["rougeL"] = self.rouge_l
        by_type["rougeLsum"] = self.rouge_lsum
        return by_type


def rouge_detail(
    hyp: list[str],
    ref: PreparedRef,
    *,
    max_n: int = 2,
    hypothesis_sentences: list[list[str]] | None = None,
) -> Detail:
    pair = pair_detail(hyp, hypothesis_sentences, ref, ref._split, max_n)
    masks = ref._lcs.token_masks(hyp) if hyp and ref.tokens else []
    orders = match_orders(masks, max_n) if masks else []
    hyp_flags, ref_flags = [], []
    for n in range(1, max_n + 1):
        hyp_starts, ref_starts, _ = orders[n - 1] if n <= len(orders) else ([], [], True)
        hyp_flags.append(tuple(k in hyp_starts for k in range(len(hyp) - n + 1)))
        ref_flags.append(tuple(k in ref_starts for k in range(len(ref.tokens) - n + 1)))
    return Detail(pair, tuple(hyp_flags), tuple(ref_flags))


def as_tuple(score: Score) -> tuple[float, float, float]:
    return (score.precision, score.recall, score.fmeasure)


def assert_matches_rouge_score(ref_text: str, hyp_text: str, stem: bool, max_n: int = 2) -> None:
    expected = SCORERS[stem].score(ref_text, hyp_text)
    ours = stats_by_type(hyp_text, prepare(ref_text, stem, max_n), stem)
    for rouge_type in TYPES:
        # Same arithmetic, so the floats must be identical, not merely close.
        assert as_tuple(score_of(ours[rouge_type])) == tuple(expected[rouge_type]), rouge_type


def assert_multi_matches_rouge_score(ref_texts: list[str], hyp_text: str, stem: bool) -> None:
    scorer = SCORERS[stem]
    expected = scorer.score_multi(ref_texts, hyp_text)
    singles = [scorer.score(r, hyp_text) for r in ref_texts]
    per_ref = [stats_by_type(hyp_text, prepare(r, stem), stem) for r in ref_texts]
    for rouge_type in TYPES:
        best, index = score_multi([stats[rouge_type] for stats in per_ref])
        assert as_tuple(best) == tuple(expected[rouge_type]), rouge_type
        assert index == int(np.argmax([s[rouge_type].fmeasure for s in singles]))


# Small vocabulary: repeats, ties, stemming variants, case, punctuation and characters that
# rouge-score's tokenizer drops (accents, CJK, markers like <n> and #).
WORDS = [
    "the", "The", "cat", "cats", "sat", "sitting", "on", "mat", "run", "running", "runs",
    "a", "is", "guide", "guiding", "it's", "U.S.", "#", "<unk>", "café", "中文", "!!", "42",
]  # fmt: skip
SEPARATORS = [" ", " ", " ", " ", "\n", "\n\n", " \n ", "", ", "]
texts = st.lists(st.tuples(st.sampled_from(WORDS), st.sampled_from(SEPARATORS)), max_size=25).map(
    lambda parts: "".join(word + sep for word, sep in parts)
)
edge_texts = st.sampled_from(["", " ", "\n", "\n\n", "!!", "café", "cat", "cat\n", "\ncat\n\ncat"])
any_texts = st.one_of(texts, texts, texts, edge_texts)


SEED_TARGET = (
    "It is the guiding principle which guarantees the military forces always being under the "
    "command of the Party"
)
SEED_PREDICTION = (
    "It is a guide to action which ensures that the military always obeys the commands of the Party"
)


def test_seed_example_from_rouge_score_docs() -> None:
    stats = stats_by_type(SEED_PREDICTION, prepare(SEED_TARGET, stem=True), stem=True)
    assert score_of(stats["rouge1"]).fmeasure == pytest.approx(0.6667, abs=5e-5)
    assert score_of(stats["rouge2"]).fmeasure == pytest.approx(0.35294, abs=5e-6)
    assert score_of(stats["rougeL"]).fmeasure == pytest.approx(0.6667, abs=5e-5)
    assert_matches_rouge_score(SEED_TARGET, SEED_PREDICTION, stem=True)
    assert_matches_rouge_score(SEED_TARGET, SEED_PREDICTION, stem=False)


@settings(max_examples=300, deadline=None)
@given(ref=any_texts, hyp=any_texts, stem=st.booleans(), max_n=st.integers(1, 4))
def test_single_reference_matches_rouge_score(ref: str, hyp: str, stem: bool, max_n: int) -> None:
    assert_matches_rouge_score(ref, hyp, stem, max_n)


@settings(max_examples=150, deadline=None)
@given(
    pool=st.lists(any_texts, min_size=1, max_size=3),
    picks=st.lists(st.integers(0, 2), min_size=1, max_size=3),
    hyp=any_texts,
    stem=st.booleans(),
)
def test_multi_reference_matches_rouge_score(
    pool: list[str], picks: list[int], hyp: str, stem: bool
) -> None:
    # Drawing references from a small pool repeats some of them, which forces ties.
    refs = [pool[k % len(pool)] for k in picks]
    assert_multi_matches_rouge_score(refs, hyp, stem)


# Several short sentences over four words: the LCS of two sentences is rarely unique, so the
# union LCS (and its hit count) depends on rouge-score's backtrack tie-breaking.
tiny_sentences = st.lists(st.lists(st.sampled_from(["a", "b", "c", "d"]), max_size=8), max_size=5)


@settings(max_examples=300)
@given(ref_sentences=tiny_sentences, hyp_sentences=tiny_sentences)
def test_lsum_union_lcs_matches_rouge_score(
    ref_sentences: list[list[str]], hyp_sentences: list[list[str]]
) -> None:
    flat = [token for sentence in ref_sentences for token in sentence]
    ref = prepare_ref(flat, sentences=ref_sentences)
    expected = rouge_summary_lcs(ref_sentences, hyp_sentences)
    assert as_tuple(score_of(rouge_lsum(hyp_sentences, ref))) == tuple(expected)
    # The same through rouge-score's public API, with sentences as newline-separated text.
    ref_text = "\n".join(" ".join(s) for s in ref_sentences)
    hyp_text = "\n".join(" ".join(s) for s in hyp_sentences)
    assert_matches_rouge_score(ref_text, hyp_text, stem=False)


def test_multi_reference_tie_takes_the_first() -> None:
    # Against "a b c d": P = 1, R = 1/2; against "a": P = 1/2, R = 1. Same F, different scores.
    long_ref, short_ref, hyp = "a b c d", "a", "a b"
    scorer = SCORERS[False]
    assert scorer.score(long_ref, hyp)["rouge1"] != scorer.score(short_ref, hyp)["rouge1"]
    for refs in ([long_ref, short_ref], [short_ref, long_ref]):
        assert_multi_matches_rouge_score(refs, hyp, stem=False)
        best, index = score_multi([rouge_n(["a", "b"], prepare_ref(r.split()), 1) for r in refs])
        assert index == 0
        assert as_tuple(best) == tuple(scorer.score(refs[0], hyp)["rouge1"])


@settings(max_examples=200, deadline=None)
@given(ref_text=any_texts, hyp_text=any_texts, stem=st.booleans(), max_n=st.integers(1, 4))
def test_detail_agrees_with_rouge_score(
    ref_text: str, hyp_text: str, stem: bool, max_n: int
) -> None:
    ref_tokens = tokenize(ref_text, stem)
    hyp_tokens = tokenize(hyp_text, stem)
    detail = rouge_detail(
        hyp_tokens,
        prepare(ref_text, stem),
        max_n=max_n,
        hypothesis_sentences=sentences(hyp_text, stem),
    )
    expected = SCORERS[stem].score(ref_text, hyp_text)

    # The LCS is the one rouge-score's backtrack picks, as (hyp index, ref index) pairs.
    assert [r for _, r in detail.lcs] == rouge_lcs_ind(ref_tokens, hyp_tokens)
    for h, r in detail.lcs:
        assert hyp_tokens[h] == ref_tokens[r]
    assert [h for h, _ in detail.lcs] == sorted({h for h, _ in detail.lcs})
    assert as_tuple(score_of(detail.rouge_l)) == tuple(expected["rougeL"])
    assert as_tuple(score_of(detail.rouge_lsum)) == tuple(expected["rougeLsum"])

    assert len(detail.rouge_n) == len(detail.hyp_ngram_match) == len(detail.ref_ngram_match)
    assert len(detail.rouge_n) == max_n
    assert detail.stats.keys() == {
        *(f"rouge{n}" for n in range(1, max_n + 1)),
        "rougeL",
        "rougeLsum",
    }
    for rouge_type, stats in detail.stats.items():
        assert as_tuple(score_of(stats)) == tuple(expected[rouge_type])
    for n in range(1, max_n + 1):
        assert as_tuple(score_of(detail.rouge_n[n - 1])) == tuple(expected[f"rouge{n}"])
        hyp_grams = rouge_ngrams(hyp_tokens, n)
        ref_grams = rouge_ngrams(ref_tokens, n)
        for tokens, flags, own, other in (
            (hyp_tokens, detail.hyp_ngram_match[n - 1], hyp_grams, ref_grams),
            (ref_tokens, detail.ref_ngram_match[n - 1], ref_grams, hyp_grams),
        ):
            starts = range(len(tokens) - n + 1)
            assert len(flags) == len(starts)
            # Clipped: the first min(own, other) occurrences of each n-gram, left to right.
            by_gram: dict[tuple[str, ...], list[bool]] = {}
            for k in starts:
                by_gram.setdefault(tuple(tokens[k : k + n]), []).append(flags[k])
            for gram, gram_flags in by_gram.items():
                matched = min(own[gram], other[gram])
                assert gram_flags == [True] * matched + [False] * (own[gram] - matched)


def test_detail_without_sentences_treats_hypothesis_as_one_sentence() -> None:
    ref_text = "the cat sat\non the mat"
    hyp_text = "on the mat the cat sat"
    detail = rouge_detail(tokenize(hyp_text, False), prepare(ref_text, False))
    expected = SCORERS[False].score(ref_text, hyp_text)
    assert as_tuple(score_of(detail.rouge_lsum)) == tuple(expected["rougeLsum"])
    assert as_tuple(score_of(detail.rouge_l)) == tuple(expected["rougeL"])
    assert expected["rougeLsum"] != expected["rougeL"]


def test_reference_without_sentences_makes_lsum_equal_l() -> None:
    ref_text, hyp_text = "the cat sat on the mat", "the mat sat on the cat"
    ref = prepare_ref(tokenize(ref_text, False))
    hyp = tokenize(hyp_text, False)
    expected = SCORERS[False].score(ref_text, hyp_text)
    assert as_tuple(score_of(rouge_lsum([hyp], ref))) == tuple(expected["rougeLsum"])
    assert as_tuple(score_of(rouge_l(hyp, ref))) == tuple(expected["rougeL"])


@given(parts=st.lists(st.tuples(any_texts, any_texts), min_size=1, max_size=5))
def test_stats_add_up_over_segments(parts: list[tuple[str, str]]) -> None:
    per_segment = [rouge_n(tokenize(h, False), prepare(r, False), 1) for r, h in parts]
    total = sum(per_segment, RougeStats(0, 0, 0))
    assert total.overlap == sum(s.overlap for s in per_segment)
    assert total.hyp_count == sum(len(tokenize(h, False)) for _, h in parts)
    assert total.ref_count == sum(len(tokenize(r, False)) for r, _ in parts)


def test_invalid_input_raises_clear_errors() -> None:
    with pytest.raises(TypeError, match="not a string"):
        prepare_ref("the cat sat")
    with pytest.raises(TypeError, match="string"):
        prepare_ref(["the"], sentences=["the cat", "sat"])
    with pytest.raises(ValueError, match="max_n"):
        prepare_ref(["the"], max_n=0)
    ref = prepare_ref(["the", "cat"])
    with pytest.raises(TypeError, match="string"):
        rouge_lsum(["the cat"], ref)
    with pytest.raises(ValueError, match="at least one reference"):
        score_multi([])
    with pytest.raises(ValueError, match="non-negative"):
        RougeStats(-1, 2, 2)
    with pytest.raises(ValueError, match="exceed"):
        RougeStats(3, 2, 5)


@pytest.mark.slow
@pytest.mark.parametrize("stem", [False, True])
def test_compare_mt_headlines_match_rouge_score(stem: bool) -> None:
    """Every headline of both systems without stemming; with stemming (rouge-score's Porter
    stemmer is its slow part) every third one: every document of CNN/DM below is stemmed."""
    folder = DATA / "compare-mt-sum-en"
    refs = data_lines(folder / "ref.txt")
    sys1 = data_lines(folder / "sys.sys1.txt")
    sys2 = data_lines(folder / "sys.sys2.txt")
    assert len(refs) == len(sys1) == len(sys2)
    step = 3 if stem else 1
    for ref_text, hyp1, hyp2 in list(zip(refs, sys1, sys2, strict=True))[::step]:
        prepared = prepare(ref_text, stem)
        for hyp_text in (hyp1, hyp2):
            expected = SCORERS[stem].score(ref_text, hyp_text)
            ours = stats_by_type(hyp_text, prepared, stem)
            for rouge_type in TYPES:
                assert as_tuple(score_of(ours[rouge_type])) == tuple(expected[rouge_type])
    # Multi-reference selection on real text: sys2's line as a second "reference" for sys1.
    for ref_text, hyp1, hyp2 in list(zip(refs, sys1, sys2, strict=True))[::5]:
        assert_multi_matches_rouge_score([ref_text, hyp2], hyp1, stem)


@pytest.mark.slow
@pytest.mark.parametrize("stem", [False, True])
def test_cnndm_multi_sentence_summaries_match_rouge_score(stem: bool) -> None:
    folder = DATA / "cnndm-pointer-gen" / "sent_marked"
    refs = [line.replace(" <n> ", "\n") for line in data_lines(folder / "ref.txt")]
    systems = ["baseline", "pointer-gen", "pointer-gen-cov"]
    outputs = [
        [line.replace(" <n> ", "\n") for line in data_lines(folder / f"sys.{name}.txt")]
        for name in systems
    ]
    assert all(len(out) == len(refs) for out in outputs)
    # Each document is scored against one of the systems in turn, so all three get covered.
    for k, ref_text in enumerate(refs):
        hyp_text = outputs[k % 3][k]
        prepared = prepare(ref_text, stem)
        expected = SCORERS[stem].score(ref_text, hyp_text)
        ours = stats_by_type(hyp_text, prepared, stem)
        for rouge_type in TYPES:
            assert as_tuple(score_of(ours[rouge_type])) == tuple(expected[rouge_type]), k
        if k % 12 == 0:
            detail = rouge_detail(
                tokenize(hyp_text, stem), prepared, hypothesis_sentences=sentences(hyp_text, stem)
            )
            assert as_tuple(score_of(detail.rouge_lsum)) == tuple(expected["rougeLsum"])
            assert [r for _, r in detail.lcs] == rouge_lcs_ind(
                tokenize(ref_text, stem), tokenize(hyp_text, stem)
            )


def test_tokens_and_sentences_are_independent_inputs() -> None:
    # A custom tokenizer may disagree between whole text and sentences: ROUGE-N and ROUGE-L read
    # ``tokens``, ROUGE-Lsum reads ``sentences``, as rouge-score's helpers do.
    ref_tokens, ref_sentences = ["a", "b", "c"], [["x", "y"]]
    ref = prepare_ref(ref_tokens, sentences=ref_sentences)
    hyp, hyp_sentences = ["a", "b"], [["y"], ["x", "y"]]
    assert as_tuple(score_of(rouge_l(hyp, ref))) == tuple(rouge_score_lcs(ref_tokens, hyp))
    assert as_tuple(score_of(rouge_n(hyp, ref, 2))) == tuple(
        rouge_score_ngrams(rouge_ngrams(ref_tokens, 2), rouge_ngrams(hyp, 2))
    )
    assert as_tuple(score_of(rouge_lsum(hyp_sentences, ref))) == tuple(
        rouge_summary_lcs(ref_sentences, hyp_sentences)
    )
    assert rouge_lsum(hyp_sentences, ref) == RougeStats(2, 3, 2)
