"""Bit-parallel LCS against a plain DP and against rouge-score's own table and backtrack.

Long lines are processed in bands with a backtrack of bounded memory; small subclasses of
:class:`PreparedSequence` (a few rows per band, room for a few columns) drive those paths with
inputs rouge-score's quadratic table can still check.
"""

from __future__ import annotations

import bisect
import json
import os
import random
import subprocess
import sys
from collections.abc import Hashable, Sequence
from itertools import pairwise
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from matchlight.core.metrics.lcs import (
    MAX_DETAIL_TOKENS,
    PreparedSequence,
    _Bands,
    _columns_between,
    _sweep,
    lcs_length,
    lcs_pairs,
    match_masks,
    match_masks_nbytes,
    next_order,
    occurrences,
    rouge_score_lcs_indices,
)
from tests.conftest import SHARED_DATA
from tests.kit import data_lines
from tests.refs import rouge_lcs_ind, rouge_lcs_table, rouge_tokens

DATA = SHARED_DATA


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
    assert expected == rouge_lcs_table(a, b)[-1][-1]
    assert lcs_length(a, b) == expected
    assert lcs_length(b, a) == expected
    assert PreparedSequence(a).lcs_length(b) == expected


@given(a=small_seqs, b=small_seqs)
def test_pairs_are_a_longest_common_subsequence(a: list[int], b: list[int]) -> None:
    assert_valid_lcs(a, b, lcs_pairs(a, b))


@given(ref=word_seqs, can=word_seqs)
def test_indices_equal_rouge_score_tie_breaking(ref: list[str], can: list[str]) -> None:
    assert rouge_score_lcs_indices(ref, can) == rouge_lcs_ind(ref, can)
    prepared = PreparedSequence(ref)
    assert prepared.lcs_indices(can) == rouge_lcs_ind(ref, can)
    assert [i for i, _ in prepared.lcs_pairs(can)] == rouge_lcs_ind(ref, can)
    mask = prepared.lcs_index_mask(can)
    assert [i for i in range(len(ref)) if mask >> i & 1] == rouge_lcs_ind(ref, can)


@settings(max_examples=40)
@given(seed=st.integers(0, 2**32 - 1), alphabet=st.integers(1, 30))
def test_long_sequences_across_many_machine_words(seed: int, alphabet: int) -> None:
    rng = random.Random(seed)
    a = [rng.randrange(alphabet) for _ in range(rng.randint(100, 260))]
    b = [rng.randrange(alphabet) for _ in range(rng.randint(100, 260))]
    assert lcs_length(a, b) == rouge_lcs_table(a, b)[-1][-1]
    assert rouge_score_lcs_indices(a, b) == rouge_lcs_ind(a, b)
    assert_valid_lcs(a, b, lcs_pairs(a, b))


@settings(deadline=None)
@given(ref=small_seqs, can=small_seqs, width=st.sampled_from([1, 2, 3, 8, 64]))
def test_band_columns_hold_the_whole_dp_table(ref: list[int], can: list[int], width: int) -> None:
    # The module's claim, L[i][j] = i - popcount(low i bits of column j), on the columns the
    # bands take (carries between bands included), put back side by side.
    table = rouge_lcs_table(ref, can)
    bands = _Bands(ref, can, width=width, keep=True)
    top = len(bands.fulls) - 1
    _, _, kept = _sweep(bands, 0, len(can), bands.fulls, top=top, keep=True)
    per_band = [_columns_between(kept[b], bands.fulls[b], 0, len(can)) for b in range(top + 1)]
    for j in range(len(can) + 1):
        column = sum(
            (bands.fulls[b] if j == 0 else per_band[b][j - 1]) << (b * width)
            for b in range(top + 1)
        )
        for i in range(len(ref) + 1):
            assert i - (column & ((1 << i) - 1)).bit_count() == table[i][j]


@given(ref=word_seqs, cans=st.lists(word_seqs, max_size=6))
def test_prepared_sequence_is_reusable(ref: list[str], cans: list[list[str]]) -> None:
    prepared = PreparedSequence(ref)
    for can in cans:
        assert prepared.lcs_length(can) == rouge_lcs_table(ref, can)[-1][-1]
        assert prepared.lcs_indices(can) == rouge_lcs_ind(ref, can)


@given(ref=small_seqs, can=small_seqs)
def test_pairs_from_masks_are_the_swapped_pairs(ref: list[int], can: list[int]) -> None:
    prepared = PreparedSequence(ref)
    swapped = [(j, i) for i, j in prepared.lcs_pairs(can)]
    assert prepared.lcs_pairs_from_masks(prepared.token_masks(can)) == swapped
    assert [j for _, j in swapped] == rouge_lcs_ind(ref, can)


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
    assert rouge_score_lcs_indices(["a"], []) == rouge_lcs_ind(["a"], []) == []
    assert lcs_length(["x"] * 5, ["x"] * 3) == 3
    assert rouge_score_lcs_indices(["x"] * 5, ["x"] * 3) == rouge_lcs_ind(["x"] * 5, ["x"] * 3)


def test_accepts_any_sequence_type() -> None:
    assert lcs_length("abcbdab", "bdcaba") == plain_dp_length("abcbdab", "bdcaba")
    assert_valid_lcs("abcbdab", "bdcaba", lcs_pairs("abcbdab", "bdcaba"))
    ref, can = tuple("abcbdab"), range(3)
    assert rouge_score_lcs_indices(ref, can) == rouge_lcs_ind(ref, can)


@pytest.mark.slow
@pytest.mark.parametrize("system", ["baseline", "pointer-gen", "pointer-gen-cov"])
def test_real_summaries_match_rouge_score(system: str) -> None:
    folder = DATA / "cnndm-pointer-gen" / "sent_marked"
    refs = data_lines(folder / "ref.txt")
    hyps = data_lines(folder / f"sys.{system}.txt")
    assert len(refs) == len(hyps)
    # Every 4th document keeps the (quadratic) reference side quick.
    for ref_line, hyp_line in list(zip(refs, hyps, strict=True))[::4]:
        ref = rouge_tokens(ref_line)
        hyp = rouge_tokens(hyp_line)
        assert lcs_length(ref, hyp) == rouge_lcs_table(ref, hyp)[-1][-1]
        assert rouge_score_lcs_indices(ref, hyp) == rouge_lcs_ind(ref, hyp)
        # Sentence against sentence: short sequences with many ties, as in ROUGE-Lsum.
        for ref_sentence in ref_line.split(" <n> "):
            prepared = PreparedSequence(rouge_tokens(ref_sentence))
            for hyp_sentence in hyp_line.split(" <n> "):
                hyp_tokens = rouge_tokens(hyp_sentence)
                assert prepared.lcs_indices(hyp_tokens) == rouge_lcs_ind(
                    prepared.tokens, hyp_tokens
                )


# -- long lines: bands and a backtrack of bounded memory -------------------------------------


def _banded(width: int, columns: int) -> type[PreparedSequence]:
    """A PreparedSequence cut into bands of ``width`` rows from any length, whose backtrack
    holds about ``columns`` band columns at once (the rest is recomputed)."""
    return type(
        f"Bands{width}x{columns}",
        (PreparedSequence,),
        {"band_bits": width, "mask_budget": 0, "column_budget": columns * (width + 320)},
    )


class TightColumns(PreparedSequence):
    """Whole-width masks, but room for only a few columns: blocks are recomputed."""

    column_budget = 3000


BANDED = [_banded(1, 4), _banded(3, 2), _banded(8, 5), _banded(8, 10_000), _banded(64, 3)]


def assert_same_as_rouge_score(
    ref: Sequence[Hashable], can: Sequence[Hashable], classes: Sequence[type[PreparedSequence]]
) -> None:
    """Every operation of every class picks rouge-score's LCS of ``ref`` and ``can``."""
    expected = rouge_lcs_ind(ref, can)
    table = rouge_lcs_table(ref, can)
    assert table[-1][-1] == len(expected)
    swapped = [(j, i) for i, j in zip(expected, _matched_positions(ref, can, table), strict=True)]
    for cls in classes:
        prepared = cls(ref)
        assert prepared.lcs_length(can) == len(expected)
        assert prepared.lcs_indices(can) == expected
        assert prepared.lcs_pairs(can) == [(i, j) for j, i in swapped]
        mask = prepared.lcs_index_mask(can)
        assert [i for i in range(len(ref)) if mask >> i & 1] == expected
        # The detail path: whole-width masks given, then the same backtrack.
        assert prepared.lcs_pairs_from_masks(prepared.token_masks(can)) == swapped


def _matched_positions(
    ref: Sequence[Hashable], can: Sequence[Hashable], table: list[list[int]]
) -> list[int]:
    """The positions in ``can`` of rouge-score's LCS: its ``_backtrack_norec`` on its ``table``
    returns only the reference side, so it is followed here step by step."""
    i, j = len(ref), len(can)
    found: list[int] = []
    while i > 0 and j > 0:
        if ref[i - 1] == can[j - 1]:
            found.append(j - 1)
            i -= 1
            j -= 1
        elif table[i][j - 1] > table[i - 1][j]:
            j -= 1
        else:
            i -= 1
    found.reverse()
    return found


@settings(deadline=None)
@given(ref=small_seqs, can=small_seqs)
def test_bands_and_recomputed_columns_pick_rouge_score_lcs(ref: list[int], can: list[int]) -> None:
    assert_same_as_rouge_score(ref, can, [*BANDED, TightColumns])


@settings(deadline=None)
@given(ref=word_seqs, can=word_seqs)
def test_bands_and_recomputed_columns_on_words(ref: list[str], can: list[str]) -> None:
    assert_same_as_rouge_score(ref, can, [*BANDED, TightColumns])


def _line(rng: random.Random, size: int, pattern: str) -> list[int]:
    if pattern == "distinct":
        tokens = list(range(size))
        rng.shuffle(tokens)
        return tokens
    if pattern == "one token":
        return [7] * size
    alphabet = {"repeated": 3, "mixed": 40}[pattern]
    return [rng.randrange(alphabet) for _ in range(size)]


@pytest.mark.parametrize("size", [63, 64, 65, 127, 128, 129, 192, 193])
@pytest.mark.parametrize("pattern", ["distinct", "repeated", "one token", "mixed"])
def test_lines_crossing_band_boundaries(size: int, pattern: str) -> None:
    rng = random.Random(size * 31 + len(pattern))
    ref = _line(rng, size, pattern)
    cans = [
        _line(rng, size, pattern),
        ref[::-1],
        [t for t in ref if rng.random() < 0.8] + _line(rng, 20, pattern),
        _line(rng, 5, pattern),
        [],
    ]
    for can in cans:
        assert_same_as_rouge_score(ref, can, [_banded(64, 3), _banded(64, 1000)])


@pytest.mark.parametrize("size", [4095, 4096, 4097])
def test_default_band_width_boundaries(size: int) -> None:
    # Bands of the real width: a short scanned side keeps rouge-score's table affordable.
    rng = random.Random(size)
    ref = [rng.randrange(size // 2) for _ in range(size)]
    ref[-1] = "last"
    can = [*rng.sample(ref, 60), *range(size, size + 10), "last", ref[0]]
    assert_same_as_rouge_score(ref, can, [_banded(4096, 8)])


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), alphabet=st.sampled_from([2, 5, 30, 300, 10**6]))
def test_long_generated_lines(seed: int, alphabet: int) -> None:
    # Hundreds of tokens, many bands, several levels of recomputed blocks.
    rng = random.Random(seed)
    ref = [rng.randrange(alphabet) for _ in range(rng.randint(200, 500))]
    edits = rng.random()
    can = [t if rng.random() > edits else rng.randrange(alphabet) for t in ref]
    can = [t for t in can if rng.random() > edits / 2][: rng.randint(100, 500)]
    assert_same_as_rouge_score(ref, can, [_banded(16, 4), _banded(64, 40), TightColumns])


def test_a_line_of_many_distinct_tokens_is_banded_by_default() -> None:
    # Its whole-width masks would take more than the budget: the default class uses bands.
    rng = random.Random(3)
    ref = [f"w{i}" for i in range(18_000)]
    rng.shuffle(ref)
    prepared = PreparedSequence(ref)
    assert prepared._banded
    assert match_masks_nbytes(ref) > PreparedSequence.mask_budget
    can = [*rng.sample(ref, 40), "absent", *rng.sample(ref, 20)]
    assert_same_as_rouge_score(ref, can, [PreparedSequence])
    # Whole-width masks are still there for the highlight detail, built on request.
    assert prepared.token_masks(can) == [match_masks(ref).get(t, 0) for t in can]


def test_a_long_repetitive_line_gets_wider_bands() -> None:
    # 50,000 tokens of 10,000 distinct ones: five tokens per distinct one, so bands four times
    # the usual width (each still holds about 4096 distinct tokens).
    rng = random.Random(8)
    ref = [rng.randrange(10_000) for _ in range(50_000)]
    assert PreparedSequence(ref)._banded
    assert _Bands(ref, [], width=None, keep=False).width == 4 * 4096
    can = [*rng.sample(ref, 50), -1, ref[-1]]
    assert_same_as_rouge_score(ref, can, [PreparedSequence])


def test_natural_text_of_moderate_length_keeps_whole_masks() -> None:
    folder = DATA / "cnndm-pointer-gen"
    if not folder.exists():
        pytest.skip(f"shared data not found: {folder}")
    words = rouge_tokens((folder / "ref.txt").read_text(encoding="utf-8"))[:5000]
    assert not PreparedSequence(words)._banded
    can = rouge_tokens((folder / "sys.pointer-gen.txt").read_text(encoding="utf-8"))[:150]
    assert_same_as_rouge_score(words, can, [PreparedSequence, _banded(4096, 50), TightColumns])


@pytest.mark.parametrize(
    "tokens", [list(range(50)), list(range(3000)), [1, 2] * 700, list("abc") * 900]
)
def test_mask_size_estimate(tokens: list[int]) -> None:
    masks = match_masks(tokens)
    size = sys.getsizeof(masks) + sum(map(sys.getsizeof, masks.values()))
    estimate = match_masks_nbytes(tokens)
    assert size / 2 <= estimate <= 2 * size + 200
    # With a limit, counting stops once past it.
    limit = estimate // 3
    assert limit <= match_masks_nbytes(tokens, limit=limit) <= estimate


def test_detail_cap_is_within_the_mask_budget() -> None:
    # A line at the cap, every token distinct (the worst case), fits the whole-width budget.
    worst = match_masks_nbytes(range(MAX_DETAIL_TOKENS))
    assert worst <= 1.2 * PreparedSequence.mask_budget


_CHILD = """
import json, random, resource, sys
from matchlight.core.metrics.lcs import PreparedSequence
size = int(sys.argv[1])
rng = random.Random(11)
ref = [f"w{i}" for i in range(size)]
can = ref[:]
rng.shuffle(ref)
rng.shuffle(can)
def vm():
    with open("/proc/self/status") as status:
        return next(int(line.split()[1]) for line in status if line.startswith("VmSize")) * 1024
allowed = int(sys.argv[2])
resource.setrlimit(resource.RLIMIT_AS, (vm() + allowed, vm() + allowed))
prepared = PreparedSequence(ref)
length = prepared.lcs_length(can)
pairs = prepared.lcs_pairs(can)
print(json.dumps({"ref": ref, "can": can, "length": length, "pairs": pairs}))
"""


def _longest_increasing(values: list[int]) -> int:
    tails: list[int] = []
    for value in values:
        k = bisect.bisect_left(tails, value)
        tails[k : k + 1] = [value]
    return len(tails)


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads /proc (Linux)")
def test_memory_stays_linear_on_a_line_of_100k_distinct_tokens() -> None:
    # Whole-width masks alone would take 100,000² / 16 bytes = 625 MB (and every DP column as
    # much again); the child may grow by 300 MB of address space at most.
    size, allowed = 100_000, 300 * 2**20
    env = {**os.environ, "OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1"}
    done = subprocess.run(
        [sys.executable, "-c", _CHILD, str(size), str(allowed)],
        capture_output=True,
        text=True,
        check=False,
        env=env,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    got = json.loads(done.stdout)
    ref, can = got["ref"], got["can"]
    # Both lines hold the same distinct tokens: the LCS is the longest increasing run of the
    # reference positions of the scanned tokens.
    where = {token: i for i, token in enumerate(ref)}
    expected = _longest_increasing([where[token] for token in can])
    assert got["length"] == expected
    pairs = [tuple(pair) for pair in got["pairs"]]
    assert len(pairs) == expected
    for i, j in pairs:
        assert ref[i] == can[j]
    for (i0, j0), (i1, j1) in pairwise(pairs):
        assert i0 < i1 and j0 < j1
