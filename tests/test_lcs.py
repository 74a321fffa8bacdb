"""Bit-parallel LCS against a plain DP and against rouge-score's own table and backtrack."""

from __future__ import annotations

import random
from collections.abc import Hashable, Sequence
from itertools import pairwise
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rouge_score import rouge_scorer

from matchlight.core.metrics.lcs import (
    PreparedSequence,
    lcs_length,
    lcs_pairs,
    match_masks,
    next_order,
    occurrences,
    rouge_score_lcs_indices,
)

DATA = Path(__file__).resolve().parents[2] / "shared" / "data"

# rouge-score 0.1.2 calls it ``lcs_ind``; older/newer versions use ``_lcs_ind``.
RS_LCS_IND = getattr(rouge_scorer, "_lcs_ind", None) or rouge_scorer.lcs_ind
RS_LCS_TABLE = rouge_scorer._lcs_table
TOKENIZE = rouge_scorer.RougeScorer(["rougeL"])._tokenizer.tokenize


def plain_dp_length(a: Sequence[Hashable], b: Sequence[Hashable]) -> int:
    """Textbook O(len(a) * len(b)) LCS length, one row at a time."""
    previous = [0] * (len(b) + 1)
    for x in a:
        current = [0]
        for j, y in enumerate(b):
            current.append(previous[j] + 1 if x == y else max(previous[j + 1], current[j]))
        previous = current
    return previous[-1]


def assert_valid_lcs(a: Sequence[Hashable], b: Sequence[Hashable], pairs: list) -> None:
    assert len(pairs) == plain_dp_length(a, b)
    for i, j in pairs:
        assert 0 <= i < len(a) and 0 <= j < len(b)
        assert a[i] == b[j]
    for (i0, j0), (i1, j1) in pairwise(pairs):
        assert i0 < i1 and j0 < j1


# Small alphabets make long LCSs and many ties between equally long ones.
small_seqs = st.lists(st.integers(0, 4), max_size=40)
word_seqs = st.lists(st.sampled_from(["the", "a", "cat", "sat", "on", "mat"]), max_size=40)


@given(a=small_seqs, b=small_seqs)
def test_length_matches_plain_dp_and_rouge_score(a: list[int], b: list[int]) -> None:
    expected = plain_dp_length(a, b)
    assert expected == RS_LCS_TABLE(a, b)[-1][-1]
    assert lcs_length(a, b) == expected
    assert lcs_length(b, a) == expected
    assert PreparedSequence(a).lcs_length(b) == expected


@given(a=small_seqs, b=small_seqs)
def test_pairs_are_a_longest_common_subsequence(a: list[int], b: list[int]) -> None:
    assert_valid_lcs(a, b, lcs_pairs(a, b))


@given(ref=word_seqs, can=word_seqs)
def test_indices_equal_rouge_score_tie_breaking(ref: list[str], can: list[str]) -> None:
    assert rouge_score_lcs_indices(ref, can) == RS_LCS_IND(ref, can)
    prepared = PreparedSequence(ref)
    assert prepared.lcs_indices(can) == RS_LCS_IND(ref, can)
    assert [i for i, _ in prepared.lcs_pairs(can)] == RS_LCS_IND(ref, can)
    mask = prepared.lcs_index_mask(can)
    assert [i for i in range(len(ref)) if mask >> i & 1] == RS_LCS_IND(ref, can)


@settings(max_examples=40)
@given(seed=st.integers(0, 2**32 - 1), alphabet=st.integers(1, 30))
def test_long_sequences_across_many_machine_words(seed: int, alphabet: int) -> None:
    rng = random.Random(seed)
    a = [rng.randrange(alphabet) for _ in range(rng.randint(100, 260))]
    b = [rng.randrange(alphabet) for _ in range(rng.randint(100, 260))]
    assert lcs_length(a, b) == RS_LCS_TABLE(a, b)[-1][-1]
    assert rouge_score_lcs_indices(a, b) == RS_LCS_IND(a, b)
    assert_valid_lcs(a, b, lcs_pairs(a, b))


@given(ref=small_seqs, can=small_seqs)
def test_stored_columns_hold_the_whole_dp_table(ref: list[int], can: list[int]) -> None:
    # The module's claim: L[i][j] = i - popcount(low i bits of column j).
    table = RS_LCS_TABLE(ref, can)
    prepared = PreparedSequence(ref)
    _, positions, _, stored = prepared._columns(prepared.token_masks(can))
    # Tokens absent from ``ref`` store no column: theirs equals the one to their left.
    columns = [prepared._full]
    for j in range(len(can)):
        columns.append(stored[positions.index(j)] if j in positions else columns[-1])
    for j, column in enumerate(columns):
        for i in range(len(ref) + 1):
            assert i - (column & ((1 << i) - 1)).bit_count() == table[i][j]


@given(ref=word_seqs, cans=st.lists(word_seqs, max_size=6))
def test_prepared_sequence_is_reusable(ref: list[str], cans: list[list[str]]) -> None:
    prepared = PreparedSequence(ref)
    for can in cans:
        assert prepared.lcs_length(can) == RS_LCS_TABLE(ref, can)[-1][-1]
        assert prepared.lcs_indices(can) == RS_LCS_IND(ref, can)


@given(ref=small_seqs, can=small_seqs)
def test_pairs_from_masks_are_the_swapped_pairs(ref: list[int], can: list[int]) -> None:
    prepared = PreparedSequence(ref)
    swapped = [(j, i) for i, j in prepared.lcs_pairs(can)]
    assert prepared.lcs_pairs_from_masks(prepared.token_masks(can)) == swapped
    assert [j for _, j in swapped] == RS_LCS_IND(ref, can)


@given(tokens=small_seqs)
def test_match_masks_mark_every_position(tokens: list[int]) -> None:
    masks = match_masks(tokens)
    assert set(masks) == set(tokens)
    for token, mask in masks.items():
        assert [i for i in range(len(tokens)) if mask >> i & 1] == [
            i for i, t in enumerate(tokens) if t == token
        ]


@given(ref=small_seqs, can=small_seqs, max_n=st.integers(1, 5))
def test_ngram_occurrences_are_where_the_ngram_starts(
    ref: list[int], can: list[int], max_n: int
) -> None:
    # occurrences / next_order: for every n-gram of ``can`` present in ``ref``, the mask of its
    # start positions in ``ref``, compared with a naive search.
    token_masks = PreparedSequence(ref).token_masks(can)
    found = occurrences(token_masks)
    for n in range(1, max_n + 1):
        if n > 1:
            found = next_order(found, token_masks, n)
        expected = {}
        for i in range(len(can) - n + 1):
            starts = [j for j in range(len(ref) - n + 1) if ref[j : j + n] == can[i : i + n]]
            if starts:
                expected[i] = sum(1 << j for j in starts)
        assert found == expected
        assert list(found) == sorted(found)


def test_empty_and_degenerate_inputs() -> None:
    assert lcs_length([], []) == 0
    assert lcs_length(["a"], []) == 0
    assert lcs_length([], ["a"]) == 0
    assert lcs_pairs([], ["a"]) == []
    assert rouge_score_lcs_indices(["a"], []) == RS_LCS_IND(["a"], []) == []
    assert lcs_length(["x"] * 5, ["x"] * 3) == 3
    assert rouge_score_lcs_indices(["x"] * 5, ["x"] * 3) == RS_LCS_IND(["x"] * 5, ["x"] * 3)


def test_accepts_any_sequence_type() -> None:
    assert lcs_length("abcbdab", "bdcaba") == plain_dp_length("abcbdab", "bdcaba")
    assert_valid_lcs("abcbdab", "bdcaba", lcs_pairs("abcbdab", "bdcaba"))
    ref, can = tuple("abcbdab"), range(3)
    assert rouge_score_lcs_indices(ref, can) == RS_LCS_IND(ref, can)


def _read_lines(path: Path) -> list[str]:
    if not path.exists():
        pytest.skip(f"shared data not found: {path}")
    return path.read_text(encoding="utf-8").splitlines()


@pytest.mark.slow
@pytest.mark.parametrize("system", ["baseline", "pointer-gen", "pointer-gen-cov"])
def test_real_summaries_match_rouge_score(system: str) -> None:
    folder = DATA / "cnndm-pointer-gen" / "sent_marked"
    refs = _read_lines(folder / "ref.txt")
    hyps = _read_lines(folder / f"sys.{system}.txt")
    assert len(refs) == len(hyps)
    # Every 4th document keeps the (quadratic) reference side quick.
    for ref_line, hyp_line in list(zip(refs, hyps, strict=True))[::4]:
        ref = TOKENIZE(ref_line)
        hyp = TOKENIZE(hyp_line)
        assert lcs_length(ref, hyp) == RS_LCS_TABLE(ref, hyp)[-1][-1]
        assert rouge_score_lcs_indices(ref, hyp) == RS_LCS_IND(ref, hyp)
        # Sentence against sentence: short sequences with many ties, as in ROUGE-Lsum.
        for ref_sentence in ref_line.split(" <n> "):
            prepared = PreparedSequence(TOKENIZE(ref_sentence))
            for hyp_sentence in hyp_line.split(" <n> "):
                hyp_tokens = TOKENIZE(hyp_sentence)
                assert prepared.lcs_indices(hyp_tokens) == RS_LCS_IND(prepared.tokens, hyp_tokens)
