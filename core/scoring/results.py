"""Columnar score storage: one array per statistic, rows = segments, one plane per system.

A :class:`ScoreTable` is filled chunk by chunk as the engine streams :class:`ScoreChunk` objects,
so a table model can show the first rows while the rest is still being scored. Every corpus
figure is computed from the stored additive statistics, so it is equally cheap for the whole
corpus, a filtered subset, or a bootstrap resample.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from matchlight.core.metrics.bleu import BleuScore, BleuStats, compute_bleu
from matchlight.core.metrics.nltk_bleu import NltkStats, nltk_bleu_from_stats
from matchlight.core.scoring.config import ScoringConfig

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]
BoolArray = npt.NDArray[np.bool_]

#: The additive ROUGE counts kept per segment, system and ROUGE type, against the chosen reference.
ROUGE_COUNT_FIELDS: tuple[str, ...] = ("overlap", "hyp_count", "ref_count")


@dataclass(frozen=True, slots=True)
class ScoreChunk:
    """Scores of the segments ``start:stop`` for every system, as produced by the engine.

    Arrays have shape ``(n_systems, stop - start, ...)``.
    """

    start: int
    stop: int
    scores: FloatArray  # (S, n, n_metrics), 0-100
    hyp_len: IntArray  # (S, n)
    ref_len: IntArray  # (S, n)
    matches: IntArray  # (S, n, max_order)
    totals: IntArray  # (S, n, max_order)
    rouge_counts: IntArray  # (S, n, n_rouge_types, 3)
    lsum_fallback: BoolArray  # (n,) True where ROUGE-Lsum found no sentence boundary
    empty_rouge_refs: IntArray  # (n,) references that produced no ROUGE token
    nltk_p5: IntArray  # (S, n, 2) NLTK flavour only: 5-gram numerator/denominator (methods 5-7)


@dataclass(frozen=True, slots=True)
class SegmentScores:
    """The scores of one system on one segment, as a named record."""

    system: str
    segment: int  # 0-based
    scores: dict[str, float]
    hyp_len: int
    ref_len: int
    bleu_stats: BleuStats
    lsum_fallback: bool


@dataclass(frozen=True, slots=True)
class CorpusScores:
    """Corpus-level figures of one system over a set of rows."""

    system: str
    n_segments: int
    bleu: float
    bleu_detail: BleuScore | None  # None for the NLTK flavour
    means: dict[str, float]  # mean of every per-segment metric (rouge-score's averaging)


class ScoreTable:
    """All per-segment results of one scoring run."""

    def __init__(
        self, *, systems: Sequence[str], n_segments: int, config: ScoringConfig, nrefs: int
    ) -> None:
        self.systems: tuple[str, ...] = tuple(systems)
        self.n_segments = n_segments
        self.config = config
        self.nrefs = nrefs
        self.metrics: tuple[str, ...] = config.metric_names()
        self.rouge_types: tuple[str, ...] = config.rouge_types
        n_sys = len(self.systems)
        order = config.max_order
        self.scores: FloatArray = np.full((n_sys, n_segments, len(self.metrics)), np.nan)
        self.hyp_len: IntArray = np.zeros((n_sys, n_segments), dtype=np.int64)
        self.ref_len: IntArray = np.zeros((n_sys, n_segments), dtype=np.int64)
        self.matches: IntArray = np.zeros((n_sys, n_segments, order), dtype=np.int64)
        self.totals: IntArray = np.zeros((n_sys, n_segments, order), dtype=np.int64)
        self.rouge_counts: IntArray = np.zeros(
            (n_sys, n_segments, len(self.rouge_types), len(ROUGE_COUNT_FIELDS)), dtype=np.int64
        )
        self.lsum_fallback: BoolArray = np.zeros(n_segments, dtype=np.bool_)
        self.empty_rouge_refs: IntArray = np.zeros(n_segments, dtype=np.int64)
        self.nltk_p5: IntArray = np.zeros((n_sys, n_segments, 2), dtype=np.int64)
        self.done: BoolArray = np.zeros(n_segments, dtype=np.bool_)
        self._metric_index = {name: i for i, name in enumerate(self.metrics)}
        # Running totals over the scored rows, kept up to date by apply() (see running_corpus).
        self._run_lengths: IntArray = np.zeros((n_sys, 2), dtype=np.int64)  # hyp, ref
        self._run_matches: IntArray = np.zeros((n_sys, order), dtype=np.int64)
        self._run_totals: IntArray = np.zeros((n_sys, order), dtype=np.int64)
        self._run_scores: FloatArray = np.zeros((n_sys, len(self.metrics)), dtype=np.float64)
        self._run_count = 0

    # -- filling -----------------------------------------------------------------------------

    def apply(self, chunk: ScoreChunk) -> None:
        """Store one chunk of results."""
        rows = slice(chunk.start, chunk.stop)
        new = ~self.done[rows]  # rows scored for the first time count in the running totals
        if new.any():
            self._run_lengths[:, 0] += chunk.hyp_len[:, new].sum(axis=1)
            self._run_lengths[:, 1] += chunk.ref_len[:, new].sum(axis=1)
            self._run_matches += chunk.matches[:, new].sum(axis=1)
            self._run_totals += chunk.totals[:, new].sum(axis=1)
            self._run_scores += chunk.scores[:, new].sum(axis=1)
            self._run_count += int(new.sum())
        self.scores[:, rows] = chunk.scores
        self.hyp_len[:, rows] = chunk.hyp_len
        self.ref_len[:, rows] = chunk.ref_len
        self.matches[:, rows] = chunk.matches
        self.totals[:, rows] = chunk.totals
        self.rouge_counts[:, rows] = chunk.rouge_counts
        self.lsum_fallback[rows] = chunk.lsum_fallback
        self.empty_rouge_refs[rows] = chunk.empty_rouge_refs
        self.nltk_p5[:, rows] = chunk.nltk_p5
        self.done[rows] = True

    @property
    def n_done(self) -> int:
        return int(self.done.sum())

    @property
    def complete(self) -> bool:
        return bool(self.done.all())

    # -- reading -----------------------------------------------------------------------------

    def metric_index(self, metric: str) -> int:
        try:
            return self._metric_index[metric]
        except KeyError:
            raise KeyError(
                f"unknown metric {metric!r}; this table has {', '.join(self.metrics)}"
            ) from None

    def column(self, metric: str, system: int) -> FloatArray:
        """Per-segment values of one metric for one system (NaN where not scored yet)."""
        return self.scores[system, :, self.metric_index(metric)]

    def value(self, metric: str, system: int, segment: int) -> float:
        return float(self.scores[system, segment, self.metric_index(metric)])

    def bleu_stats(self, system: int, segment: int) -> BleuStats:
        return BleuStats(
            hyp_len=int(self.hyp_len[system, segment]),
            ref_len=int(self.ref_len[system, segment]),
            matches=tuple(int(x) for x in self.matches[system, segment]),
            totals=tuple(int(x) for x in self.totals[system, segment]),
        )

    def segment(self, system: int, segment: int) -> SegmentScores:
        return SegmentScores(
            system=self.systems[system],
            segment=segment,
            scores={m: float(v) for m, v in zip(self.metrics, self.scores[system, segment])},
            hyp_len=int(self.hyp_len[system, segment]),
            ref_len=int(self.ref_len[system, segment]),
            bleu_stats=self.bleu_stats(system, segment),
            lsum_fallback=bool(self.lsum_fallback[segment]),
        )

    def corpus(
        self,
        system: int,
        rows: npt.ArrayLike | None = None,
        *,
        metrics: Sequence[str] | None = None,
    ) -> CorpusScores:
        """Corpus BLEU (from summed statistics) and metric means over ``rows`` (default: all).

        ``metrics`` limits the means to those metrics (default: every metric of the table).
        """
        index: npt.NDArray[np.intp] | slice
        if rows is None:
            index, count = slice(None), self.n_segments
        else:
            index = np.asarray(rows)
            if index.dtype == np.bool_:
                index = np.flatnonzero(index)
            count = len(index)
        # One gather per array (not per metric): this runs for every summary refresh while
        # chunks arrive, on up to all rows.
        matches = self.matches[system][index]
        totals = self.totals[system][index]
        summed = BleuStats(
            hyp_len=int(self.hyp_len[system][index].sum()),
            ref_len=int(self.ref_len[system][index].sum()),
            matches=tuple(int(x) for x in matches.sum(axis=0)),
            totals=tuple(int(x) for x in totals.sum(axis=0)),
        )
        config = self.config
        detail: BleuScore | None
        if config.bleu_flavour == "nltk":
            detail = None
            last = (count - 1 if isinstance(index, slice) else int(index[-1])) if count else 0
            stats = NltkStats(
                hyp_len=summed.hyp_len,
                ref_len=summed.ref_len,
                numerators=summed.matches,
                denominators=summed.totals,
                segments=count,
                last_hyp_len=int(self.hyp_len[system, last]),
                last_p5=(int(self.nltk_p5[system, last, 0]), int(self.nltk_p5[system, last, 1])),
            )
            try:
                bleu = 100.0 * nltk_bleu_from_stats(
                    stats,
                    weights=(1.0 / config.max_order,) * config.max_order,
                    smoothing=config.nltk_smoothing,
                )
            except (
                ValueError
            ):  # NLTK itself fails on this corpus (see matchlight.core.metrics.nltk_bleu)
                bleu = math.nan
        else:
            detail = self._corpus_bleu(summed)
            bleu = detail.score
        names = self.metrics if metrics is None else tuple(metrics)
        if count:
            # Each metric's values as one contiguous row, so that every mean is numpy's pairwise
            # sum over the values in row order, exactly as ``np.mean`` of that column would be.
            values = self.scores[system][index]
            if metrics is not None:
                values = values[:, [self.metric_index(m) for m in names]]
            columns = np.ascontiguousarray(values.T)
            with np.errstate(invalid="ignore"):
                means = dict(zip(names, map(float, columns.mean(axis=1))))
        else:
            means = {m: float("nan") for m in names}
        return CorpusScores(
            system=self.systems[system],
            n_segments=count,
            bleu=bleu,
            bleu_detail=detail,
            means=means,
        )

    def running_corpus(self, system: int, *, metrics: Sequence[str] | None = None) -> CorpusScores:
        """:meth:`corpus` of the rows scored so far, from totals kept as chunks arrive.

        Costs nothing however many rows there are, for a display that follows the scoring.
        Corpus BLEU is exactly :meth:`corpus`'s (integer totals); the means may differ from
        numpy's pairwise ones in the last bits, so once every row is scored use :meth:`corpus`.
        The NLTK flavour, whose corpus score also depends on the last row, is computed in full.
        """
        if self.config.bleu_flavour == "nltk":
            return self.corpus(system, self.done, metrics=metrics)
        count = self._run_count
        summed = BleuStats(
            hyp_len=int(self._run_lengths[system, 0]),
            ref_len=int(self._run_lengths[system, 1]),
            matches=tuple(int(x) for x in self._run_matches[system]),
            totals=tuple(int(x) for x in self._run_totals[system]),
        )
        detail = self._corpus_bleu(summed)
        names = self.metrics if metrics is None else tuple(metrics)
        sums = self._run_scores[system]
        means = {
            m: float(sums[self.metric_index(m)] / count) if count else float("nan") for m in names
        }
        return CorpusScores(
            system=self.systems[system],
            n_segments=count,
            bleu=detail.score,
            bleu_detail=detail,
            means=means,
        )

    def _corpus_bleu(self, summed: BleuStats) -> BleuScore:
        """sacreBLEU's corpus BLEU of summed statistics under this table's settings."""
        config = self.config
        return compute_bleu(
            summed,
            smooth_method=config.smooth_method,
            smooth_value=config.effective_smooth_value,
            effective_order=False,
        )

    def signature(self) -> str:
        return self.config.signature(self.nrefs)
