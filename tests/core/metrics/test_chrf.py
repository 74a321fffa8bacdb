"""matchlight.core.metrics.chrf against sacreBLEU 2.6.0's CHRF, on generated text and on the
shared real datasets.

Statistics are compared with the ones sacreBLEU itself collects (``_extract_corpus_statistics``),
scores with its ``sentence_score`` / ``corpus_score`` (bit for bit), highlights with a scalar
oracle written here from the definition (clipped n-gram pairing, first occurrences first).
"""

from __future__ import annotations

import json
import re
import zlib
from collections import Counter, defaultdict
from collections.abc import Sequence
from functools import cache
from itertools import groupby, pairwise
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sacrebleu.metrics.chrf import CHRF
from sacrebleu.version import __version__ as sacrebleu_version

from matchlight.core.cli import main as cli_main
from matchlight.core.metrics.base import SettingError
from matchlight.core.metrics.chrf import (
    chrf_breakdown,
    chrf_chunk,
    chrf_chunk_stats,
    chrf_from_stats,
    chrf_name,
    stats_width,
)
from matchlight.core.metrics.chrfdetail import ChrfDetail, chrf_detail, chrf_details
from matchlight.core.metrics.chrfoptions import SACREBLEU_VERSION, ChrfSettings, chrf_signature
from matchlight.core.scoring.config import ScoringConfig
from matchlight.core.scoring.engine import score_corpus
from matchlight.core.text.corpus import CorpusText
from tests.conftest import DATASETS, SAMPLE, Dataset
from tests.kit import read_lines
from tests.refs import (
    chrf_f_score,
    chrf_punctuation,
    chrf_words,
    sacrebleu_corpus_score_of,
    sacrebleu_preprocess,
    sacrebleu_score_of,
    sacrebleu_statistics,
    sacrebleu_tokens,
)

# Fragments joined by separators: n-grams repeat and match; punctuation runs, CJK, combining
# characters, emoji (with a skin-tone modifier), case pairs, the final sigma and characters whose
# lowercase is longer (İ) or that have no single-character case pair (ß, ǅ).
FRAGMENTS = (
    "the", "The", "THE", "cat", "Cat", "sat", "a", "A", "ab", "abc", "b", "ba", ",", ".", "...",
    "!?", "--", "(hi)", "(", ")", "'s", "e-mail", "3.5", "猫", "在", "垫子上", "。", "👍", "👍🏽",
    "e\u0301", "é", "ΑΣ", "ας", "Σ", "İ", "i̇", "ß", "SS", "ǅ", "naïve", "Straße",
)  # fmt: skip
# "" glues two fragments into one word; the others are whitespace of several kinds.
SEPARATORS = (" ", " ", " ", "", "  ", "\t", "\u3000", "\xa0", "\n", "\u2009")

fragment_lines = st.lists(
    st.tuples(st.sampled_from(FRAGMENTS), st.sampled_from(SEPARATORS)), max_size=14
).map(lambda parts: "".join(f + s for f, s in parts))
lines = st.one_of(
    fragment_lines,
    fragment_lines,
    fragment_lines,
    st.sampled_from(["", " ", "\t \u3000", "\n"]),
    st.text(alphabet="ab .,()-", max_size=12),
)
orders = st.sampled_from([0, 2])


@cache
def sacre(word_order: int, lowercase: bool, char_order: int = 6, beta: int = 2) -> CHRF:
    return CHRF(char_order=char_order, word_order=word_order, beta=beta, lowercase=lowercase)


def sacre_stats(metric: CHRF, hyps: Sequence[str], refs: Sequence[Sequence[str]]) -> np.ndarray:
    """sacreBLEU's own per-segment statistics (reference columns ``refs``)."""
    return np.array(sacrebleu_statistics(metric, hyps, refs))


def chosen_reference(metric: CHRF, hyp: str, refs: Sequence[str]) -> int:
    """The reference sacreBLEU keeps: the first with the highest sentence chrF."""
    scores = [metric.sentence_score(hyp, [ref]).score for ref in refs]
    return scores.index(max(scores))


# -- generated text ---------------------------------------------------------------------------


@settings(max_examples=150, deadline=None)
@given(
    hyp=lines,
    refs=st.lists(lines, min_size=1, max_size=2),
    word_order=orders,
    lowercase=st.booleans(),
)
def test_sentence_statistics_scores_and_choice_are_sacrebleus(
    hyp: str, refs: list[str], word_order: int, lowercase: bool
) -> None:
    metric = sacre(word_order, lowercase)
    chunk = chrf_chunk([[ref] for ref in refs], [[hyp]], word_order=word_order, lowercase=lowercase)
    stats = chunk.stats[0, 0]
    assert chunk.stats.shape == (1, 1, stats_width(word_order=word_order))
    assert chunk.stats.dtype == np.int64
    assert stats.tolist() == sacre_stats(metric, [hyp], [[ref] for ref in refs])[0].tolist()
    assert int(chunk.reference[0, 0]) == chosen_reference(metric, hyp, refs)
    score = float(chrf_from_stats(stats, word_order=word_order))
    assert score == metric.sentence_score(hyp, refs).score
    assert chrf_breakdown(stats, word_order=word_order).score == score


@settings(max_examples=100, deadline=None)
@given(
    rows=st.lists(st.tuples(lines, lines, lines, lines), min_size=1, max_size=12),
    n_refs=st.sampled_from([1, 2]),
    word_order=orders,
    lowercase=st.booleans(),
)
def test_chunks_of_rows_and_systems_give_sacrebleus_sentence_and_corpus_scores(
    rows: list[tuple[str, str, str, str]], n_refs: int, word_order: int, lowercase: bool
) -> None:
    refs = [[row[r] for row in rows] for r in range(n_refs)]
    systems = [[row[2] for row in rows], [row[3] for row in rows]]
    stats = chrf_chunk_stats(refs, systems, word_order=word_order, lowercase=lowercase)
    assert stats.shape == (2, len(rows), stats_width(word_order=word_order))
    metric = sacre(word_order, lowercase)
    for s, hyps in enumerate(systems):
        assert stats[s].tolist() == sacre_stats(metric, hyps, refs).tolist()
        sentence = chrf_from_stats(stats[s], word_order=word_order).tolist()
        row_refs = [list(r) for r in zip(*refs, strict=True)]
        expected = [metric.sentence_score(h, r).score for h, r in zip(hyps, row_refs, strict=True)]
        assert sentence == expected
        corpus = float(chrf_from_stats(stats[s].sum(axis=0), word_order=word_order))
        assert corpus == metric.corpus_score(hyps, refs).score


@settings(max_examples=200, deadline=None)
@given(
    stats=st.lists(
        st.tuples(
            st.integers(0, 2000), st.integers(0, 2000), st.integers(0, 2000), st.integers(0, 3)
        ),
        min_size=8,
        max_size=8,
    ),
    word_order=orders,
    beta=st.sampled_from([0, 1, 2, 3]),
)
def test_scores_from_any_statistics_are_bit_identical(
    stats: list[tuple[int, int, int, int]], word_order: int, beta: int
) -> None:
    """Arbitrary (even inconsistent) statistics, zeros included, as sacreBLEU's arithmetic."""
    order = 6 + word_order
    flat: list[int] = []
    for hyp, ref, match, zero in stats[:order]:
        # Some orders without hypothesis or reference n-grams; matches never exceed either side.
        hyp = 0 if zero == 1 else hyp
        ref = 0 if zero == 2 else ref
        flat += [hyp, ref, min(match, hyp, ref)]
    metric = sacre(word_order, False, beta=beta)
    expected = chrf_f_score(metric, flat)
    assert float(chrf_from_stats(flat, word_order=word_order, beta=beta)) == expected
    # Leading axes are element-wise.
    batch = np.array([flat, [0] * len(flat), flat]).reshape(3, 1, -1)
    got = chrf_from_stats(batch, word_order=word_order, beta=beta)
    assert got.shape == (3, 1)
    assert got[:, 0].tolist() == [expected, chrf_f_score(metric, [0] * len(flat)), expected]
    # The breakdown against sacreBLEU's loop, written out here.
    breakdown = chrf_breakdown(flat, word_order=word_order, beta=beta)
    assert breakdown.score == expected
    factor = beta**2
    avg_prec = avg_rec = 0.0
    effective = 0
    rows = (*breakdown.char_orders, *breakdown.word_orders)
    assert [(r.kind, r.n) for r in rows] == [("char", n) for n in range(1, 7)] + [
        ("word", n) for n in range(1, word_order + 1)
    ]
    for i, row in enumerate(rows):
        n_hyp, n_ref, n_match = flat[3 * i : 3 * i + 3]
        prec = n_match / n_hyp if n_hyp > 0 else 1e-16
        rec = n_match / n_ref if n_ref > 0 else 1e-16
        denom = factor * prec + rec
        f = (1 + factor) * prec * rec / denom if denom > 0 else 1e-16
        assert (row.hyp_ngrams, row.ref_ngrams, row.matches) == (n_hyp, n_ref, n_match)
        assert (row.precision, row.recall, row.f_beta) == (prec, rec, f)
        assert row.effective == (n_hyp > 0 and n_ref > 0)
        if row.effective:
            avg_prec += prec
            avg_rec += rec
            effective += 1
    assert breakdown.effective_order == effective
    if effective:
        avg_prec /= effective
        avg_rec /= effective
    assert (breakdown.precision, breakdown.recall) == (avg_prec, avg_rec)
    assert breakdown.beta == beta


def test_edge_cases() -> None:
    metric = sacre(2, False)
    cases = [
        ("", [""]),
        ("", ["a"]),
        ("a", [""]),
        ("   ", ["\t"]),
        ("a b", ["ab"]),
        ("ab", ["a b", "ab"]),  # a tie on the score: the first reference is kept
        ("x", ["ab", "cd"]),  # nothing matches either
        ("\ud800a\udfff", ["a\ud800"]),  # lone surrogates are characters too
        ("...", ["..", "."]),
    ]
    for hyp, refs in cases:
        chunk = chrf_chunk([[r] for r in refs], [[hyp]], word_order=2)
        assert (
            chunk.stats[0, 0].tolist()
            == sacre_stats(metric, [hyp], [[r] for r in refs])[0].tolist()
        )
        assert int(chunk.reference[0, 0]) == chosen_reference(metric, hyp, refs)
        detail = chrf_detail(hypothesis=hyp, references=refs, word_order=2)
        assert detail.stats == tuple(chunk.stats[0, 0].tolist())
        assert detail.reference_index == int(chunk.reference[0, 0])


def test_no_rows_and_no_systems() -> None:
    assert chrf_chunk_stats([[]], [[], []]).shape == (2, 0, 18)
    assert chrf_chunk_stats([["a"]], [], word_order=2).shape == (0, 1, 24)
    chunk = chrf_chunk([["a"] * 600, ["b"] * 600], [])
    assert chunk.stats.shape == (0, 600, 18)
    assert chunk.reference.shape == (0, 600)


def test_a_chunk_larger_than_one_piece_is_the_same_as_row_by_row() -> None:
    """Large chunks are counted in pieces; the pieces must not change anything."""
    words = FRAGMENTS
    rows = 1300
    refs = [[" ".join(words[(k * 7 + t) % len(words)] for t in range(k % 9)) for k in range(rows)]]
    refs.append([line[::-1] for line in refs[0]])
    systems = [
        [" ".join(words[(k * 5 + t) % len(words)] for t in range(k % 7)) for k in range(rows)]
    ]
    chunk = chrf_chunk(refs, systems, word_order=2, lowercase=True)
    metric = sacre(2, True)
    assert chunk.stats[0].tolist() == sacre_stats(metric, systems[0], refs).tolist()
    for k in range(0, rows, 97):
        single = chrf_chunk(
            [[refs[0][k]], [refs[1][k]]], [[systems[0][k]]], word_order=2, lowercase=True
        )
        assert int(single.reference[0, 0]) == int(chunk.reference[0, k])


def test_settings_are_checked() -> None:
    with pytest.raises(ValueError, match="char_order"):
        chrf_chunk_stats([["a"]], [["a"]], char_order=-1)
    with pytest.raises(ValueError, match="word_order"):
        chrf_chunk_stats([["a"]], [["a"]], word_order=True)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=">= 1"):
        chrf_from_stats([], char_order=0, word_order=0)
    with pytest.raises(ValueError, match="beta"):
        chrf_from_stats([0] * 18, beta=-1)
    with pytest.raises(ValueError, match="last axis of 18"):
        chrf_from_stats([0] * 24)
    with pytest.raises(TypeError, match="integers"):
        chrf_from_stats([0.5] * 18)
    with pytest.raises(ValueError, match="same number of rows"):
        chrf_chunk_stats([["a", "b"]], [["a"]])
    with pytest.raises(ValueError, match="at least one reference"):
        chrf_chunk_stats([], [["a"]])
    with pytest.raises(TypeError, match="not a string"):
        chrf_chunk_stats([["a"]], ["a"])  # type: ignore[list-item]
    with pytest.raises(ValueError, match="at least one reference"):
        chrf_detail(hypothesis="a", references=[])
    with pytest.raises(TypeError, match="sequence of strings"):
        chrf_detail(hypothesis="a", references="a")
    with pytest.raises(ValueError, match="one row"):
        chrf_breakdown(np.zeros((2, 18), np.int64))


def test_other_orders_and_betas() -> None:
    """Non-default character orders, word-only chrF and other betas follow sacreBLEU too."""
    hyps = ["the cat sat on the mat .", "a b c", "", "Straße (hi)"]
    refs = [["the cat is on the mat.", "a b", "x", "strasse hi"]]
    for char_order, word_order, beta in ((3, 0, 1), (0, 2, 2), (1, 1, 3), (8, 3, 0)):
        metric = sacre(word_order, False, char_order=char_order, beta=beta)
        stats = chrf_chunk_stats(refs, [hyps], char_order=char_order, word_order=word_order)[0]
        assert stats.tolist() == sacre_stats(metric, hyps, refs).tolist()
        scores = chrf_from_stats(stats, char_order=char_order, word_order=word_order, beta=beta)
        expected = [metric.sentence_score(h, [r]).score for h, r in zip(hyps, refs[0], strict=True)]
        assert scores.tolist() == expected


def test_whitespace_and_punctuation_tables() -> None:
    """The bulk path's whitespace set is ``str.split``'s, ``str.isspace``'s and ``\\s``'s, and
    none of them lies above U+3000 (every code point checked)."""
    space = re.compile(r"\s")
    found = [c for c in range(0x110000) if chr(c).isspace()]
    assert max(found) <= 0x3000
    assert found == [m.start() for m in space.finditer("".join(map(chr, range(0x110000))))]
    assert all(chr(c).split() == [] for c in found)
    assert "".join(chr(c) for c in found).split() == []
    assert chrf_punctuation() == set("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~")


# -- highlights -------------------------------------------------------------------------------


def oracle_pairs(hyp: Sequence[str], ref: Sequence[str], n: int) -> list[tuple[int, int]]:
    """Clipped matches of order n: the i-th occurrence of an n-gram in ``hyp`` with its i-th
    occurrence in ``ref``, while both last."""
    where: defaultdict[tuple[str, ...], list[int]] = defaultdict(list)
    for j in range(len(ref) - n + 1):
        where[tuple(ref[j : j + n])].append(j)
    used: Counter[tuple[str, ...]] = Counter()
    pairs = []
    for i in range(len(hyp) - n + 1):
        gram = tuple(hyp[i : i + n])
        if used[gram] < len(where[gram]):
            pairs.append((i, where[gram][used[gram]]))
            used[gram] += 1
    return pairs


def oracle_origin(text: str, lowercase: bool) -> list[int]:
    """The original index of each character chrF's character n-grams are taken from."""
    return [
        i for i, c in enumerate(text) for ch in (c.lower() if lowercase else c) if not ch.isspace()
    ]


def oracle_runs(
    length: int, origin: Sequence[int], pairs: Sequence[Sequence[int]]
) -> list[tuple[int, int, int]]:
    """Runs of the highest matched order over the original text, from the n-gram starts."""
    levels = [0] * length
    for n, starts in enumerate(pairs, start=1):
        for start in starts:
            for p in range(start, start + n):
                levels[origin[p]] = max(levels[origin[p]], n)
    runs = []
    at = 0
    for level, group in groupby(levels):
        size = len(list(group))
        runs.append((at, at + size, level))
        at += size
    return runs


def unsigma(text: str) -> str:
    """Final and medial sigma made equal: a slice lowercased alone may see another context."""
    return text.replace("ς", "σ")


def check_detail(
    detail: ChrfDetail, hyp: str, refs: Sequence[str], word_order: int, lowercase: bool
) -> None:
    metric = sacre(word_order, lowercase)
    stats = chrf_chunk([[r] for r in refs], [[hyp]], word_order=word_order, lowercase=lowercase)
    assert detail.stats == tuple(stats.stats[0, 0].tolist())
    assert detail.reference_index == int(stats.reference[0, 0])
    assert detail.reference_index == chosen_reference(metric, hyp, refs)
    assert detail.breakdown == chrf_breakdown(stats.stats[0, 0], word_order=word_order)
    ref = refs[detail.reference_index]
    sides = []
    for text, chars, runs in (
        (hyp, detail.hypothesis_chars, detail.hypothesis_runs),
        (ref, detail.reference_chars, detail.reference_runs),
    ):
        seen = "".join(sacrebleu_tokens(metric, text))  # exactly what sacreBLEU takes n-grams from
        assert list(chars) == oracle_origin(text, lowercase)
        assert len(chars) == len(seen)
        for p, ch in enumerate(seen):
            original = text[chars[p]]
            assert not original.isspace()
            assert unsigma(ch) in unsigma(original.lower() if lowercase else original)
        # Runs partition the text, neighbours differ, whitespace is level 0.
        assert runs[0][0] == 0 if text else runs == ()
        assert all(a[1] == b[0] and a[2] != b[2] for a, b in pairwise(runs))
        assert (runs[-1][1] if runs else 0) == len(text)
        assert all(level == 0 for a, b, level in runs for c in text[a:b] if c.isspace())
        sides.append((text, seen))
    (_, hyp_seen), (_, ref_seen) = sides
    for n in range(1, 7):
        pairs = detail.char_pairs[n - 1]
        assert list(pairs) == oracle_pairs(hyp_seen, ref_seen, n)
        assert len(pairs) == detail.stats[3 * (n - 1) + 2]  # the matches the statistics count
        assert all(hyp_seen[i : i + n] == ref_seen[j : j + n] for i, j in pairs)
    for text, chars, runs, which in (
        (hyp, detail.hypothesis_chars, detail.hypothesis_runs, 0),
        (ref, detail.reference_chars, detail.reference_runs, 1),
    ):
        starts = [[pair[which] for pair in pairs] for pairs in detail.char_pairs]
        assert list(runs) == oracle_runs(len(text), chars, starts)
    # Words (chrF++).
    if word_order == 0:
        assert detail.word_pairs == ()
        assert detail.hypothesis_tokens == detail.reference_tokens == ()
        assert detail.hypothesis_words == detail.reference_words == ()
        return
    hyp_words = chrf_words(metric, sacrebleu_preprocess(metric, hyp))
    ref_words = chrf_words(metric, sacrebleu_preprocess(metric, ref))
    for text, spans, words in (
        (hyp, detail.hypothesis_tokens, hyp_words),
        (ref, detail.reference_tokens, ref_words),
    ):
        assert len(spans) == len(words)
        for (a, b), word in zip(spans, words, strict=True):
            piece = text[a:b].lower() if lowercase else text[a:b]
            assert unsigma(piece) == unsigma(word)
    for n in range(1, word_order + 1):
        pairs = detail.word_pairs[n - 1]
        assert list(pairs) == oracle_pairs(hyp_words, ref_words, n)
        assert len(pairs) == detail.stats[3 * (6 + n - 1) + 2]
    for spans, words, which in (
        (detail.hypothesis_tokens, detail.hypothesis_words, 0),
        (detail.reference_tokens, detail.reference_words, 1),
    ):
        expected = sorted(
            (spans[pair[which]][0], spans[pair[which] + n - 1][1], n)
            for n, pairs in enumerate(detail.word_pairs, start=1)
            for pair in pairs
        )
        assert list(words) == expected


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    hyp=lines,
    refs=st.lists(lines, min_size=1, max_size=2),
    word_order=orders,
    lowercase=st.booleans(),
)
def test_highlights_pair_the_matches_the_statistics_count(
    hyp: str, refs: list[str], word_order: int, lowercase: bool
) -> None:
    detail = chrf_detail(
        hypothesis=hyp, references=refs, word_order=word_order, lowercase=lowercase
    )
    check_detail(detail, hyp, refs, word_order, lowercase)


@settings(max_examples=60, deadline=None)
@given(
    hyps=st.lists(lines, min_size=0, max_size=3),
    refs=st.lists(lines, min_size=1, max_size=2),
    word_order=orders,
    lowercase=st.booleans(),
)
def test_a_row_of_systems_is_each_system_alone(
    hyps: list[str], refs: list[str], word_order: int, lowercase: bool
) -> None:
    """chrf_details prepares the references once; the details are chrf_detail's."""
    details = chrf_details(
        hypotheses=hyps, references=refs, word_order=word_order, lowercase=lowercase
    )
    assert details == tuple(
        chrf_detail(hypothesis=hyp, references=refs, word_order=word_order, lowercase=lowercase)
        for hyp in hyps
    )
    if hyps:
        stats = chrf_chunk_stats(
            [[ref] for ref in refs],
            [[hyp] for hyp in hyps],
            word_order=word_order,
            lowercase=lowercase,
        )
        assert [d.stats for d in details] == [tuple(row[0]) for row in stats.tolist()]


def test_an_ngram_spans_removed_whitespace() -> None:
    """ "a b" against "ab": the bigram covers positions 0 and 2, not the space between."""
    detail = chrf_detail(hypothesis="a b", references=["ab"])
    assert detail.char_pairs[:2] == (((0, 0), (1, 1)), ((0, 0),))
    assert detail.hypothesis_runs == ((0, 1, 2), (1, 2, 0), (2, 3, 2))
    assert detail.reference_runs == ((0, 2, 2),)


def test_lowercase_highlights_point_at_the_original_characters() -> None:
    # "İ" lowercases to two characters (i + combining dot): both map back to it. The five
    # characters the n-grams see are the reference's, so the 5-gram covers them all.
    detail = chrf_detail(hypothesis="İx Ab", references=["i̇x ab"], lowercase=True, word_order=2)
    assert detail.hypothesis_chars == (0, 0, 1, 3, 4)
    assert detail.hypothesis_runs == ((0, 2, 5), (2, 3, 0), (3, 5, 5))
    assert detail.hypothesis_words == ((0, 2, 1), (0, 5, 2), (3, 5, 1))
    check_detail(detail, "İx Ab", ["i̇x ab"], 2, True)


def test_repeated_ngrams_match_their_first_occurrences() -> None:
    # "ab" twice in the hypothesis, once in the reference: only the first is matched, and so
    # are its characters (the second "a" and "b" are unmatched, like the space between).
    detail = chrf_detail(hypothesis="ab ab", references=["xab"])
    assert detail.char_pairs[:2] == (((0, 1), (1, 2)), ((0, 1),))
    assert detail.hypothesis_runs == ((0, 2, 2), (2, 5, 0))
    check_detail(detail, "ab ab", ["xab"], 0, False)


# -- real data ---------------------------------------------------------------------------------


def read_columns(
    dataset: Dataset, n_refs: int, rows: int | None
) -> tuple[list[list[str]], list[list[str]]]:
    refs = [dataset.read(path)[:rows] for path in dataset.refs[:n_refs]]
    systems = [dataset.read(path)[:rows] for path in dataset.systems]
    return refs, systems


def check_dataset(
    dataset: Dataset, n_refs: int, word_order: int, rows: int | None, sample: int | None = None
) -> None:
    """``dataset``'s first ``rows`` rows (all with None), or a seeded ``sample`` of its rows."""
    refs, systems = read_columns(dataset, n_refs, rows)
    if sample is not None and sample < len(refs[0]):
        rng = np.random.default_rng(zlib.crc32(f"{dataset.name}/{word_order}".encode()))
        pick = np.sort(rng.choice(len(refs[0]), size=sample, replace=False)).tolist()
        refs = [[column[i] for i in pick] for column in refs]
        systems = [[column[i] for i in pick] for column in systems]
    # sacreBLEU's own reference cache (CHRF(references=...)): the references' n-grams are
    # extracted once, not again for every system (a third of the oracle's time on two references).
    metric = CHRF(word_order=word_order, references=refs)
    stats = chrf_chunk_stats(refs, systems, word_order=word_order)
    for s, hyps in enumerate(systems):
        expected = np.array(sacrebleu_statistics(metric, hyps, None))
        assert stats[s].tolist() == expected.tolist()
        ours = chrf_from_stats(stats[s], word_order=word_order)
        theirs = [sacrebleu_score_of(metric, list(row)).score for row in expected.tolist()]
        assert ours.tolist() == theirs  # bit-identical (so within 1e-9)
        # corpus_score is this aggregation of the statistics sacreBLEU just collected.
        corpus = float(chrf_from_stats(stats[s].sum(axis=0), word_order=word_order))
        assert corpus == sacrebleu_corpus_score_of(metric, expected.tolist()).score


#: Rows of a dataset's seeded sample in :func:`test_real_data_every_row`.
SAMPLED_ROWS = 400


def ref_counts(dataset: Dataset) -> list[int]:
    return [1, 2] if len(dataset.refs) > 1 else [1]


@pytest.mark.skipif(not DATASETS, reason="shared/data is not present")
@pytest.mark.parametrize("dataset", DATASETS, ids=lambda d: d.name)
@pytest.mark.parametrize("word_order", [0, 2], ids=["chrF", "chrF++"])
def test_real_data_first_rows(dataset: Dataset, word_order: int) -> None:
    """The first 100 rows of every dataset, every system, with one and (where present) two
    references; sentence scores through sacreBLEU's public ``sentence_score`` too, and the
    highlights of a few rows."""
    for n_refs in ref_counts(dataset):
        check_dataset(dataset, n_refs, word_order, 100)
        refs, systems = read_columns(dataset, n_refs, 100)
        metric = sacre(word_order, False)
        scores = chrf_from_stats(
            chrf_chunk_stats(refs, systems, word_order=word_order), word_order=word_order
        )
        for k in range(0, 100, 9):
            row_refs = [column[k] for column in refs]
            for s, hyps in enumerate(systems):
                assert scores[s, k] == metric.sentence_score(hyps[k], row_refs).score
        for k in range(0, 100, 33):
            hyp = systems[0][k]
            row_refs = [column[k] for column in refs]
            detail = chrf_detail(hypothesis=hyp, references=row_refs, word_order=word_order)
            check_detail(detail, hyp, row_refs, word_order, False)


@pytest.mark.slow
@pytest.mark.skipif(not DATASETS, reason="shared/data is not present")
@pytest.mark.parametrize("dataset", DATASETS, ids=lambda d: d.name)
@pytest.mark.parametrize("word_order", [0, 2], ids=["chrF", "chrF++"])
def test_real_data_every_row(dataset: Dataset, word_order: int) -> None:
    """Every system of every dataset, with all its references (the best-reference choice where
    there are two): the statistics, the sentence scores and the corpus score are sacreBLEU's.
    One reference of a two-reference set is checked on its first rows above.

    Every row of every dataset is read once: chrF reads every row of every other dataset (in
    DATASETS' order) and chrF++ every row of the rest; each reads a seeded sample of
    :data:`SAMPLED_ROWS` rows of the datasets the other reads in full. The two differ only in
    the word n-grams, which still run on every row of five datasets."""
    index = [d.name for d in DATASETS].index(dataset.name)
    full = (index + word_order // 2) % 2 == 0
    check_dataset(
        dataset, ref_counts(dataset)[-1], word_order, None, None if full else SAMPLED_ROWS
    )


# -- signature -----------------------------------------------------------------------------------


@pytest.mark.parametrize("word_order", [0, 2])
@pytest.mark.parametrize("nrefs", [1, 2])
@pytest.mark.parametrize("lowercase", [False, True])
def test_signature_is_sacrebleus(word_order: int, nrefs: int, lowercase: bool) -> None:
    metric = CHRF(word_order=word_order, lowercase=lowercase)
    score = metric.corpus_score(["a b c", "d"], [["a b", "d"], ["c", "e"]][:nrefs])
    signature = metric.get_signature()
    ours = chrf_signature(nrefs=nrefs, word_order=word_order, lowercase=lowercase)
    assert ours == str(signature)
    assert chrf_signature(
        nrefs=nrefs, word_order=word_order, lowercase=lowercase, short=True
    ) == signature.format(short=True)
    assert chrf_name(word_order=word_order) == score.name


def test_signature_with_bootstrap_and_variable_references(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SACREBLEU_SEED", "12345")
    metric = CHRF(word_order=2)
    metric.corpus_score(["a b c", "d e", "f"], [["a b", "d", "f"]], n_bootstrap=3)
    assert chrf_signature(nrefs=1, word_order=2, n_bootstrap=3, seed=12345) == str(
        metric.get_signature()
    )
    monkeypatch.setenv("SACREBLEU_SEED", "None")
    metric = CHRF()
    metric.corpus_score(["a b c", "d e"], [["a b", "d"], ["c", None]], n_bootstrap=2)  # type: ignore[list-item]
    assert chrf_signature(nrefs=-1, n_bootstrap=2, seed=None) == str(metric.get_signature())
    assert sacrebleu_version == SACREBLEU_VERSION
    with pytest.raises(ValueError, match="nrefs"):
        chrf_signature(nrefs=0)


# -- settings sacreBLEU accepts: character order 0, beta 0 ------------------------------------


@pytest.mark.parametrize(
    ("char_order", "word_order", "beta"), [(0, 2, 2), (6, 0, 0), (0, 1, 0), (0, 3, 1)]
)
def test_zero_character_order_and_zero_beta_are_sacrebleus(
    tmp_path: Path, char_order: int, word_order: int, beta: int
) -> None:
    """``--chrf-char-order 0`` (word n-grams only) and ``--chrf-beta 0`` (precision alone) are
    accepted as sacreBLEU accepts them, and score as it does: through the registry's settings,
    the engine and the command line, on the sample with its two references."""
    refs = [read_lines(SAMPLE / name) for name in ("ref.en.txt", "ref2.en.txt")]
    hyps = read_lines(SAMPLE / "sys.literal.txt")
    config = (
        ScoringConfig()
        .with_metrics("chrf")
        .with_settings("chrf", char_order=char_order, word_order=word_order, beta=beta)
    )
    table = score_corpus(
        CorpusText(references=tuple(refs), systems=(tuple(hyps),), system_names=("literal",)),
        config,
        workers=1,
    )
    metric = CHRF(char_order=char_order, word_order=word_order, beta=beta)
    corpus = metric.corpus_score(hyps, refs)
    assert table.corpus(0).value("chrf") == corpus.score
    for i in range(0, len(hyps), 7):
        row = [ref[i] for ref in refs]
        assert table.value("chrf", 0, i) == metric.sentence_score(hyps[i], row).score
    assert config.signatures(2)["chrf"] == str(metric.get_signature())
    assert table.column_info("chrf").label == corpus.name
    # A word-only chrF covers no characters: it offers no highlight mode.
    assert bool(config.highlight_modes()) == bool(char_order)

    out = tmp_path / "chrf.json"
    options = ["--chrf-char-order", str(char_order), "--chrf-word-order", str(word_order)]
    options += ["--chrf-beta", str(beta)]
    args = [a for name in ("ref.en.txt", "ref2.en.txt") for a in ("--ref", str(SAMPLE / name))]
    args += ["--hyp", str(SAMPLE / "sys.literal.txt"), "--metrics", "chrf", "--json", str(out)]
    assert cli_main([*args, *options, "--quiet"]) == 0
    entry = json.loads(out.read_text(encoding="utf-8"))["systems"]["literal"]
    assert entry["chrf"] == corpus.score
    assert entry["chrf_signature"] == str(metric.get_signature())


def test_no_ngrams_at_all_is_refused_with_a_message(capsys: pytest.CaptureFixture[str]) -> None:
    """Character order 0 with word order 0: sacreBLEU scores one line 0 and fails on two with
    an IndexError; here the setting is refused, saying which options to change."""
    with pytest.raises(SettingError, match=r"--chrf-char-order.*--chrf-word-order"):
        ChrfSettings(char_order=0, word_order=0)
    args = ["--ref", str(SAMPLE / "ref.en.txt"), "--hyp", str(SAMPLE / "sys.literal.txt")]
    with pytest.raises(SystemExit) as exit_info:
        cli_main([*args, "--metrics", "chrf", "--chrf-char-order", "0"])
    assert exit_info.value.code == 2
    err = capsys.readouterr().err
    assert "chrF needs some n-grams" in err and "Traceback" not in err
    with pytest.raises(IndexError):  # what sacreBLEU itself does
        CHRF(char_order=0, word_order=0).corpus_score(["a b", "c"], [["a b", "c"]])
