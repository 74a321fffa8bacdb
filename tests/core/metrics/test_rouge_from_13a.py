"""ROUGE's words read off BLEU's 13a words (the chunk scorer with BLEU and ROUGE) are
rouge-score's: the same scores and statistics as ROUGE scored alone, and as rouge-score."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rouge_score import rouge_scorer

from matchlight.core.metrics.rouge import _BREAK
from matchlight.core.scoring.config import ScoringConfig
from matchlight.core.scoring.results import ScoreChunk
from matchlight.core.scoring.scorer import ChunkScorer
from tests.conftest import SHARED_DATA
from tests.kit import data_lines

TYPES = ["rouge1", "rouge2", "rougeL", "rougeLsum"]
SCORER = rouge_scorer.RougeScorer(TYPES)

# Words 13a splits, rewrites (&amp; <skipped>) or keeps whole, and letters whose lowercase is
# ASCII or longer (the Kelvin sign, dotted I), sigmas, accents and CJK.
WORDS = [
    "the", "The", "cat", "U.S.", "it's", "5-3", "a-b", "1,000.50", "a..5", "x,.y", "end.", "(hi)",
    "R&D", "&amp;", "&quot;", "&lt;b&gt;", "amp", "<skipped>", "skipped", "\u212a9",
    "\u0130stanbul", "\u0391\u03a3", "caf\u00e9", "\u4e2d\u6587", "--", "@user", "#", "42",
    "e-mail", "\u00a0", "",
]  # fmt: skip
SPACES = [" ", " ", " ", "  ", "\t", ""]
lines = st.lists(st.tuples(st.sampled_from(WORDS), st.sampled_from(SPACES)), max_size=30).map(
    lambda parts: "".join(word + space for word, space in parts)
)
# Long lines: the LCS of two lines of more than 64 words is scored row by row.
long_lines = st.lists(st.sampled_from(WORDS[:12]), min_size=65, max_size=80).map(" ".join)
any_lines = st.one_of(lines, lines, lines, long_lines)


def rouge_part(config: ScoringConfig, chunk: ScoreChunk) -> tuple[np.ndarray, np.ndarray]:
    keys = [c.key for c in config.columns()]
    at = [i for i, key in enumerate(keys) if key.startswith("rouge")]
    return chunk.scores[:, :, at], chunk.stats["rouge"]["counts"]


def assert_same_rouge(references: list[list[str]], systems: list[list[str]]) -> None:
    both = ScoringConfig().with_metrics(("bleu", "rouge"))
    alone = ScoringConfig().with_metrics(("rouge",))
    together = ChunkScorer(both).score_lines(references, systems, 0)
    single = ChunkScorer(alone).score_lines(references, systems, 0)
    scores, counts = rouge_part(both, together)
    expected_scores, expected_counts = rouge_part(alone, single)
    np.testing.assert_array_equal(counts, expected_counts)
    np.testing.assert_array_equal(scores, expected_scores)
    for name, flags in single.row_flags.items():
        np.testing.assert_array_equal(together.row_flags[name], flags)


@settings(max_examples=40, deadline=None)
@given(
    st.integers(1, 2).flatmap(
        lambda refs: st.lists(
            st.lists(any_lines, min_size=refs + 2, max_size=refs + 2), min_size=1, max_size=6
        )
    ),
    st.integers(1, 2),
)
def test_rouge_with_bleu_equals_rouge_alone(rows: list[list[str]], n_refs: int) -> None:
    n_refs = min(n_refs, len(rows[0]) - 2)
    columns = [list(column) for column in zip(*rows, strict=True)]
    assert_same_rouge(columns[:n_refs], columns[n_refs:])


@settings(max_examples=30, deadline=None)
@given(st.lists(st.tuples(lines, lines), min_size=1, max_size=6))
def test_rouge_with_bleu_equals_rouge_score(pairs: list[tuple[str, str]]) -> None:
    config = ScoringConfig().with_metrics(("bleu", "rouge"))
    refs, hyps = [p[0] for p in pairs], [p[1] for p in pairs]
    scores, _ = rouge_part(config, ChunkScorer(config).score_lines([refs], [hyps], 0))
    for k, (ref, hyp) in enumerate(pairs):
        expected = SCORER.score(ref, hyp)
        got = scores[0, k].reshape(len(TYPES), 3) / 100
        for t, rouge_type in enumerate(TYPES):
            assert tuple(got[t]) == pytest.approx(tuple(expected[rouge_type]), abs=1e-12)


def test_words_only_in_rewritten_lines_and_separators() -> None:
    # "amp" and "skipped" are ROUGE words of the rewritten lines only; a newline in a line
    # (the ROUGE-Lsum separator) leaves the chunk to ROUGE's own words.
    assert_same_rouge([["&amp; &amp;", "a<skipped>b", "x"]], [["&amp; amp", "ab skipped", "x y"]])
    assert_same_rouge([["one\ntwo", "a b"]], [["one two", "a\nb"]])
    assert_same_rouge([["", " ", "!!"]], [["", "!!", " "]])
    # The word put between the words tokenized at once, in the text itself.
    mark = _BREAK.upper()
    assert_same_rouge([[f"a {mark} b", f"&amp; {_BREAK}"]], [[f"x.{_BREAK} a", f"{mark} b"]])


def test_real_data_rouge_with_bleu_equals_rouge_alone() -> None:
    folder = SHARED_DATA / "wmt22-de-en"
    ref = data_lines(folder / "ref.txt")
    hyps = [data_lines(folder / f"sys.{name}.txt") for name in ("LT22", "Online-W")]
    for start in range(0, len(ref), 700):
        assert_same_rouge([ref[start : start + 700]], [h[start : start + 700] for h in hyps])
