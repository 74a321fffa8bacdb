"""The scoring engine: comparisons in, :class:`~core.results.ScoreChunk` streams out.

The fast path tokenizes each reference once per segment, prepares its n-gram counts and LCS masks
once, and reuses them for every system. Chunks are independent (all statistics are additive), so
they can be scored in worker processes and applied in any order.

Highlight detail is not computed here: :mod:`core.detail` computes it lazily for the rows a user
looks at.
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass
from multiprocessing import get_context

import numpy as np

from core.bleu import bleu_stats, compute_bleu, prepare_refs
from core.config import ScoringConfig
from core.io import Comparison
from core.nltk_bleu import nltk_bleu_from_stats, nltk_stats_from_refs
from core.results import ROUGE_COUNT_FIELDS, ScoreChunk, ScoreTable
from core.rouge import (
    PreparedRef,
    RougeStats,
    prepare_ref,
    rouge_l,
    rouge_lsum,
    rouge_n,
    score_multi,
)
from core.tokenizers import bleu_tokenizer, rouge_tokenizer, sentence_spans

DEFAULT_CHUNK_SIZE = 256

CancelCheck = Callable[[], bool]


@dataclass(frozen=True, slots=True)
class CorpusText:
    """The texts of a comparison, independent of where they were read from.

    ``references[r][i]`` is reference ``r`` of segment ``i``; ``systems[s][i]`` the output of
    system ``s``. This is what crosses process boundaries, so it holds nothing but strings.
    """

    references: tuple[tuple[str, ...], ...]
    systems: tuple[tuple[str, ...], ...]
    system_names: tuple[str, ...]

    def __post_init__(self) -> None:
        if not self.references:
            raise ValueError("at least one reference is needed")
        if not self.systems:
            raise ValueError("at least one system is needed")
        if len(self.system_names) != len(self.systems):
            raise ValueError("every system needs exactly one name")
        counts = {len(col) for col in (*self.references, *self.systems)}
        if len(counts) != 1:
            raise ValueError(f"references and systems differ in length: {sorted(counts)}")

    def __len__(self) -> int:
        return len(self.references[0])

    @classmethod
    def from_comparison(cls, comparison: Comparison) -> CorpusText:
        """The texts of a loaded :class:`~core.io.Comparison`."""
        return cls(
            references=tuple(col.lines for col in comparison.references),
            systems=tuple(col.lines for col in comparison.systems),
            system_names=tuple(col.name for col in comparison.systems),
        )


class ChunkScorer:
    """Scores ranges of segments under one configuration (tokenizers resolved once)."""

    def __init__(self, config: ScoringConfig) -> None:
        self.config = config
        self.btok = bleu_tokenizer(config.tokenize, lowercase=config.lowercase)
        self.rtok = rouge_tokenizer(config.rouge_tokenizer, stem=config.rouge_stem)
        self.metrics = config.metric_names()
        self.rouge_types = config.rouge_types

    def rouge_sentences(self, line: str) -> list[list[str]]:
        """ROUGE tokens of each sentence of ``line`` (empty sentences dropped, as rouge-score)."""
        sep = self.config.lsum_separator
        if sep is None or sep not in line:
            return [self.rtok(line)]
        return [self.rtok(line[a:b]) for a, b in sentence_spans(line, sep) if b > a]

    def score(self, text: CorpusText, start: int, stop: int) -> ScoreChunk:
        config = self.config
        n = stop - start
        n_sys = len(text.systems)
        max_n = config.rouge_max_n
        n_types = len(self.rouge_types)
        scores = np.empty((n_sys, n, len(self.metrics)))
        hyp_len = np.zeros((n_sys, n), dtype=np.int64)
        ref_len = np.zeros((n_sys, n), dtype=np.int64)
        matches = np.zeros((n_sys, n, config.max_order), dtype=np.int64)
        totals = np.zeros((n_sys, n, config.max_order), dtype=np.int64)
        rouge_counts = np.zeros((n_sys, n, n_types, len(ROUGE_COUNT_FIELDS)), dtype=np.int64)
        lsum_fallback = np.zeros(n, dtype=np.bool_)
        empty_refs = np.zeros(n, dtype=np.int64)
        btok = self.btok
        nltk = config.bleu_flavour == "nltk"
        smooth_value = config.effective_smooth_value
        weights = (1.0 / config.max_order,) * config.max_order
        # NLTK's smoothing method 5 looks at 5-grams whatever the order.
        bleu_order = max(config.max_order, 5) if nltk else config.max_order
        p5 = np.zeros((n_sys, n, 2), dtype=np.int64)

        for k in range(n):
            i = start + k
            ref_lines = [col[i] for col in text.references]
            ref_words = [btok(r) for r in ref_lines]
            prepared_bleu = prepare_refs(ref_words, bleu_order)
            ref_sents = [self.rouge_sentences(r) for r in ref_lines]
            prepared_rouge: list[PreparedRef] = [
                prepare_ref([tok for sent in sents for tok in sent], sentences=sents, max_n=max_n)
                for sents in ref_sents
            ]
            empty_refs[k] = sum(1 for p in ref_sents if not any(p))
            ref_multi = any(len(s) > 1 for s in ref_sents)
            row_fallback = not ref_multi
            for s in range(n_sys):
                line = text.systems[s][i]
                words = btok(line)
                if nltk:
                    nstats = nltk_stats_from_refs(words, prepared_bleu, config.max_order)
                    try:
                        bleu = 100.0 * nltk_bleu_from_stats(
                            nstats, weights=weights, smoothing=config.nltk_smoothing
                        )
                    except ValueError:
                        # Where NLTK itself fails (method6 on short segments) there is no score.
                        bleu = math.nan
                    hyp_len[s, k] = nstats.hyp_len
                    ref_len[s, k] = nstats.ref_len
                    matches[s, k] = nstats.numerators
                    totals[s, k] = nstats.denominators
                    p5[s, k] = nstats.last_p5
                else:
                    stats = bleu_stats(words, prepared_bleu)
                    bleu = compute_bleu(
                        stats,
                        smooth_method=config.smooth_method,
                        smooth_value=smooth_value,
                        effective_order=config.effective_order,
                    ).score
                    hyp_len[s, k] = stats.hyp_len
                    ref_len[s, k] = stats.ref_len
                    matches[s, k] = stats.matches
                    totals[s, k] = stats.totals
                row = scores[s, k]
                row[0] = bleu

                hyp_sents = self.rouge_sentences(line)
                hyp_tokens = [tok for sent in hyp_sents for tok in sent]
                hyp_multi = len(hyp_sents) > 1
                if hyp_multi:
                    row_fallback = False
                for t, rouge_type in enumerate(self.rouge_types):
                    per_ref: list[RougeStats] = []
                    for prepared in prepared_rouge:
                        if t < max_n:
                            per_ref.append(rouge_n(hyp_tokens, prepared, t + 1))
                        elif rouge_type == "rougeL" or not (hyp_multi or ref_multi):
                            per_ref.append(rouge_l(hyp_tokens, prepared))
                        else:
                            per_ref.append(rouge_lsum(hyp_sents, prepared))
                    best_score, chosen = score_multi(per_ref)
                    best = per_ref[chosen]
                    base = 1 + 3 * t
                    row[base] = 100.0 * best_score.precision
                    row[base + 1] = 100.0 * best_score.recall
                    row[base + 2] = 100.0 * best_score.fmeasure
                    rouge_counts[s, k, t] = (best.overlap, best.hyp_count, best.ref_count)
            lsum_fallback[k] = row_fallback
        return ScoreChunk(
            start=start,
            stop=stop,
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


def chunk_bounds(n_segments: int, chunk_size: int = DEFAULT_CHUNK_SIZE) -> list[tuple[int, int]]:
    """Split ``range(n_segments)`` into consecutive ``(start, stop)`` chunks."""
    if chunk_size < 1:
        raise ValueError(f"chunk_size must be positive, not {chunk_size}")
    return [(a, min(a + chunk_size, n_segments)) for a in range(0, n_segments, chunk_size)]


def iter_score_chunks(
    text: CorpusText,
    config: ScoringConfig,
    *,
    chunk_size: int = DEFAULT_CHUNK_SIZE,
    first_chunk_size: int | None = 64,
    cancel: CancelCheck | None = None,
) -> Iterator[ScoreChunk]:
    """Score ``text`` in this process, yielding one chunk at a time.

    The first chunk is small so that a GUI shows rows at once. ``cancel`` is checked between
    chunks; when it returns True the generator stops.
    """
    scorer = ChunkScorer(config)
    n = len(text)
    start = 0
    size = min(first_chunk_size or chunk_size, chunk_size)
    while start < n:
        if cancel is not None and cancel():
            return
        stop = min(start + size, n)
        yield scorer.score(text, start, stop)
        start = stop
        size = chunk_size


# -- multi-process scoring ----------------------------------------------------------------------

_WORKER_STATE: dict[str, object] = {}


def _init_worker(text: CorpusText, config: ScoringConfig) -> None:
    _WORKER_STATE["text"] = text
    _WORKER_STATE["scorer"] = ChunkScorer(config)


def _score_in_worker(bounds: tuple[int, int]) -> ScoreChunk:
    scorer = _WORKER_STATE["scorer"]
    text = _WORKER_STATE["text"]
    if not isinstance(scorer, ChunkScorer) or not isinstance(text, CorpusText):
        raise RuntimeError("worker process was not initialised")
    return scorer.score(text, *bounds)


def default_workers() -> int:
    """All cores this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - not Linux
        return max(1, os.cpu_count() or 1)


def iter_score_chunks_parallel(
    text: CorpusText,
    config: ScoringConfig,
    *,
    workers: int | None = None,
    chunk_size: int = 2048,
    cancel: CancelCheck | None = None,
) -> Iterator[ScoreChunk]:
    """Score ``text`` on several processes; chunks are yielded in completion order.

    With one worker (or a small corpus) this is :func:`iter_score_chunks`.
    """
    workers = default_workers() if workers is None else workers
    bounds = chunk_bounds(len(text), chunk_size)
    if workers <= 1 or len(bounds) <= 1:
        yield from iter_score_chunks(text, config, chunk_size=chunk_size, cancel=cancel)
        return
    ctx = get_context("spawn")
    with ProcessPoolExecutor(
        max_workers=workers, mp_context=ctx, initializer=_init_worker, initargs=(text, config)
    ) as pool:
        pending: list[Future[ScoreChunk]] = [pool.submit(_score_in_worker, b) for b in bounds]
        try:
            for future in pending:
                if cancel is not None and cancel():
                    return
                yield future.result()
        finally:
            for future in pending:
                future.cancel()


def score_corpus(
    text: CorpusText,
    config: ScoringConfig,
    *,
    workers: int = 1,
    progress: Callable[[int, int], None] | None = None,
) -> ScoreTable:
    """Score everything and return the filled :class:`ScoreTable`."""
    table = ScoreTable(
        systems=text.system_names,
        n_segments=len(text),
        config=config,
        nrefs=len(text.references),
    )
    chunks = (
        iter_score_chunks_parallel(text, config, workers=workers)
        if workers != 1
        else iter_score_chunks(text, config)
    )
    for chunk in chunks:
        table.apply(chunk)
        if progress is not None:
            progress(table.n_done, table.n_segments)
    return table


def corpus_text_from_lines(
    *,
    references: Sequence[Sequence[str]],
    systems: Sequence[Sequence[str]],
    names: Sequence[str],
) -> CorpusText:
    """Build a :class:`CorpusText` from any line sequences."""
    return CorpusText(
        references=tuple(tuple(r) for r in references),
        systems=tuple(tuple(s) for s in systems),
        system_names=tuple(names),
    )
