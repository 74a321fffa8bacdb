"""The one place the tests reach into sacreBLEU's and rouge-score's private helpers.

The tests compare Matchlight with sacreBLEU 2.6.0 and rouge-score 0.1.2 step by step (tokens,
per-segment statistics, the score of given statistics, one LCS), which their public APIs do
not offer. Each helper here names one such step; when a library renames its internals, this
file is the only one to change. Public calls (``BLEU(...).corpus_score``, ``CHRF``,
``sacrebleu.corpus_bleu``, ``rouge_scorer.RougeScorer(...).score``) stay in the tests.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from rouge_score import rouge_scorer, tokenizers
from sacrebleu.metrics.base import Metric
from sacrebleu.metrics.bleu import BLEU
from sacrebleu.metrics.chrf import CHRF

# -- sacreBLEU --------------------------------------------------------------------------------


def sacrebleu_preprocess(metric: Metric, line: str) -> str:
    """The text ``metric`` takes n-grams from: lowercased and tokenized as it is set up to."""
    return str(metric._preprocess_segment(line))


def sacrebleu_tokens(metric: Metric, line: str) -> list[str]:
    """The words BLEU counts n-grams of (what ``extract_all_word_ngrams`` splits)."""
    return sacrebleu_preprocess(metric, line).split()


def sacrebleu_statistics(
    metric: Metric, hypotheses: Sequence[str], references: Sequence[Sequence[str]] | None
) -> list[list[Any]]:
    """Per-segment statistics, one row per hypothesis (``references``: one list per reference;
    ``None``: the references ``metric`` was built with, whose n-grams sacreBLEU extracted once)."""
    columns = None if references is None else [list(r) for r in references]
    return list(metric._extract_corpus_statistics(list(hypotheses), columns))


def sacrebleu_score_of(metric: Metric, stats: Sequence[Any]) -> Any:
    """The score object of one row of statistics (a sentence score)."""
    return metric._compute_score_from_stats(stats)


def sacrebleu_corpus_score_of(metric: Metric, rows: Sequence[Sequence[Any]]) -> Any:
    """The corpus score of rows of statistics (``corpus_score``'s last step: sum, then score)."""
    return metric._aggregate_and_compute(rows)


def chrf_f_score(metric: CHRF, stats: Sequence[int]) -> float:
    """chrF's F-score of flat statistics (hypothesis, reference, matches per order)."""
    return float(metric._compute_f_score(list(stats)))


def chrf_words(metric: CHRF, text: str) -> list[str]:
    """chrF++'s words of preprocessed ``text``: punctuation split off the ends of words."""
    return list(metric._remove_punctuation(text))


def chrf_punctuation() -> frozenset[str]:
    """The characters chrF++ splits off words."""
    return frozenset(CHRF._PUNCTS)


@contextmanager
def sacrebleu_seed(seed: int) -> Iterator[None]:
    """sacreBLEU reads its resampling seed from the environment (SACREBLEU_SEED)."""
    old = os.environ.get("SACREBLEU_SEED")
    os.environ["SACREBLEU_SEED"] = str(seed)
    try:
        yield
    finally:
        if old is None:
            del os.environ["SACREBLEU_SEED"]
        else:
            os.environ["SACREBLEU_SEED"] = old


class _Precomputed:
    """A sacreBLEU metric whose hypotheses are keys of a table of per-segment statistics, so
    that sacreBLEU's own significance code runs on any statistics."""

    def __init__(self, table: dict[Any, list[int]], *, num_refs: int = 1, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.table = table
        self.num_refs = num_refs

    def _extract_corpus_statistics(self, hypotheses: Sequence[Any], references: Any) -> Any:
        return [list(self.table[h]) for h in hypotheses]


class PrecomputedBLEU(_Precomputed, BLEU):
    """sacreBLEU's BLEU over a table of statistics (see :class:`_Precomputed`)."""


class PrecomputedCHRF(_Precomputed, CHRF):
    """sacreBLEU's chrF over a table of statistics (see :class:`_Precomputed`)."""


# -- rouge-score ------------------------------------------------------------------------------


@functools.cache
def _rouge_tokenizer(stem: bool) -> tokenizers.DefaultTokenizer:
    # What RougeScorer(..., use_stemmer=stem) builds when given no tokenizer.
    return tokenizers.DefaultTokenizer(use_stemmer=stem)


def rouge_tokens(text: str, *, stem: bool = False) -> list[str]:
    """rouge-score's default tokens of ``text`` (lowercase, ``[a-z0-9]`` runs, Porter stems)."""
    return list(_rouge_tokenizer(stem).tokenize(text))


# The library's own functions under names that say what they are (aliases, not wrappers: the
# benchmarks time them). Reference first, as rouge-score takes them.

#: The reference positions of rouge-score's one LCS, ``(reference, hypothesis) -> list[int]``
#: (its backtrack's choice). rouge-score 0.1.2 calls it ``lcs_ind``; other versions ``_lcs_ind``.
rouge_lcs_ind: Callable[[Sequence[str], Sequence[str]], list[int]] = (
    getattr(rouge_scorer, "_lcs_ind", None) or rouge_scorer.lcs_ind
)
#: rouge-score's LCS length table, ``(len(reference) + 1) x (len(hypothesis) + 1)``.
rouge_lcs_table: Callable[[Sequence[str], Sequence[str]], list[list[int]]] = rouge_scorer._lcs_table
#: rouge-score's n-gram counts of tokens, ``(tokens, n) -> Counter`` of tuples.
rouge_ngrams: Callable[[Sequence[str], int], Any] = rouge_scorer._create_ngrams
#: ROUGE-N's Score of two n-gram counts, ``(reference_ngrams, hypothesis_ngrams)``.
rouge_score_ngrams: Callable[[Any, Any], Any] = rouge_scorer._score_ngrams
#: ROUGE-L's Score of two token lists, ``(reference, hypothesis)``.
rouge_score_lcs: Callable[[Sequence[str], Sequence[str]], Any] = rouge_scorer._score_lcs
#: ROUGE-Lsum's Score of tokenized sentences, ``(reference_sentences, hypothesis_sentences)``.
rouge_summary_lcs: Callable[[Any, Any], Any] = rouge_scorer._summary_level_lcs
