"""The scores-only fast path: one chunk of segments at a time, n-gram statistics in numpy.

:class:`FastScorer` produces exactly what scoring every row with :mod:`core.metrics.bleu` and
:mod:`core.metrics.rouge` produces (same integers, bit-identical floats), but works on a whole
chunk:

1. Every line is tokenized once (BLEU and ROUGE tokens), as before.
2. The tokens of all lines of the chunk are encoded to integers through one vocabulary dict (a
   C-level ``map``). An n-gram is identified exactly, order by order: a unigram by the pair
   (row, token id), an n-gram by the pair (id of its first n-1 tokens, id of its last token),
   made dense with ``np.unique(..., return_inverse=True)``. No hashing, so no collisions, and
   because the row is part of every id, n-grams of different rows never meet.
3. ``np.bincount`` counts every n-gram in every reference and hypothesis of the chunk at once.
   Clipping is an element-wise minimum (with the maximum over references for BLEU), and the
   per-row sums are differences of cumulative sums (n-gram ids are sorted by row).
4. ROUGE-L needs one LCS per hypothesis/reference pair: the bit-parallel recurrence of
   :mod:`core.metrics.lcs`, run for all rows at once on one ``uint64`` word per row when one side
   of the
   pair has at most 64 tokens, and :class:`core.metrics.lcs.PreparedSequence` for the rare longer
   pairs.
   ROUGE-Lsum on rows with sentence boundaries goes through :func:`core.metrics.rouge.rouge_lsum`
   itself
   (rare, and simplest to get exactly right that way).
5. Final scores use the same operations in the same order as :func:`core.metrics.bleu.compute_bleu`
and
   :func:`core.metrics.rouge.score_of`: IEEE divisions and products are identical in numpy, while
   logarithms, exponentials and the sum of the logs are taken with :mod:`math` and the built-in
   ``sum``, element by element, as there.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from itertools import chain
from typing import Final

import numpy as np
import numpy.typing as npt

from matchlight.core.metrics.bleu import sacrebleu_scores
from matchlight.core.metrics.lcs import chunk_lcs_lengths
from matchlight.core.metrics.ngrams import Column, NgramCounts
from matchlight.core.metrics.nltk_bleu import NltkStats, nltk_bleu_from_stats
from matchlight.core.metrics.rouge import prepare_ref, rouge_lsum, rouge_prf
from matchlight.core.scoring.config import ScoringConfig
from matchlight.core.scoring.results import ScoreChunk
from matchlight.core.text.tokenizers import bleu_tokenizer, rouge_tokenizer, sentence_spans

__all__ = ["FastScorer", "chunk_pieces"]

IntArray = npt.NDArray[np.int64]
FloatArray = npt.NDArray[np.float64]
BoolArray = npt.NDArray[np.bool_]

# NLTK's smoothing method 5 looks at 5-grams whatever the order (as core.scoring.engine always did).
_NLTK_P5_ORDER: Final = 5
# The most rows scored in one go; larger chunks are cut into pieces of this size.
_PIECE_ROWS: Final = 512


Piece = tuple[Sequence[Sequence[str]], Sequence[Sequence[str]], int]


def chunk_pieces(
    references: Sequence[Sequence[str]],
    systems: Sequence[Sequence[str]],
    start: int,
    piece_rows: int,
) -> list[Piece]:
    """A chunk (``references[r][k]``, ``systems[s][k]`` for row ``start + k``) checked and cut
    into ``(references, systems, start)`` pieces of at most ``piece_rows`` rows (one piece, the
    chunk as it is, when it is that small)."""
    n = len(references[0]) if references else 0
    if not references or not systems or any(len(c) != n for c in (*references, *systems)):
        raise ValueError("a chunk needs references and systems with the same number of rows")
    if n <= piece_rows:
        return [(references, systems, start)]
    return [
        (
            [column[a : a + piece_rows] for column in references],
            [column[a : a + piece_rows] for column in systems],
            start + a,
        )
        for a in range(0, n, piece_rows)
    ]


class FastScorer:
    """Scores chunks of segments under one configuration (tokenizers resolved once)."""

    def __init__(self, config: ScoringConfig) -> None:
        self.config = config
        self.btok = bleu_tokenizer(config.tokenize, lowercase=config.lowercase)
        self.rtok = rouge_tokenizer(config.rouge_tokenizer, stem=config.rouge_stem)
        self.metrics = config.metric_names()
        self.rouge_types = config.rouge_types
        self.nltk = config.bleu_flavour == "nltk"
        # NLTK's smoothing method 5 looks at 5-grams whatever the order.
        self.bleu_order = max(config.max_order, _NLTK_P5_ORDER) if self.nltk else config.max_order

    def rouge_sentences(self, line: str) -> list[list[str]]:
        """ROUGE tokens of each sentence of ``line`` (empty sentences dropped, as rouge-score)."""
        sep = self.config.lsum_separator
        if sep is None or sep not in line:
            return [self.rtok(line)]
        return [self.rtok(line[a:b]) for a, b in sentence_spans(line, sep) if b > a]

    def _rouge_column(self, lines: Sequence[str]) -> tuple[Column, dict[int, list[list[str]]]]:
        """ROUGE tokens of every line, and the sentences of the lines with a separator."""
        sep = self.config.lsum_separator
        rtok = self.rtok
        if sep is None or sep not in "".join(lines):
            return list(map(rtok, lines)), {}
        tokens: Column = []
        sentences: dict[int, list[list[str]]] = {}
        for k, line in enumerate(lines):
            if sep in line:
                sents = self.rouge_sentences(line)
                sentences[k] = sents
                tokens.append([tok for sent in sents for tok in sent])
            else:
                tokens.append(rtok(line))
        return tokens, sentences

    def score_lines(
        self,
        references: Sequence[Sequence[str]],
        systems: Sequence[Sequence[str]],
        start: int = 0,
    ) -> ScoreChunk:
        """Score one chunk: ``references[r][k]`` and ``systems[s][k]`` are row ``start + k``."""
        # Large chunks are scored in pieces: measured faster (smaller sorts, dicts and arrays).
        parts = chunk_pieces(references, systems, start, _PIECE_ROWS)
        if len(parts) == 1:
            return self._score(*parts[0])
        pieces = [self._score(*part) for part in parts]
        n = sum(p.stop - p.start for p in pieces)
        return ScoreChunk(
            start=start,
            stop=start + n,
            scores=np.concatenate([p.scores for p in pieces], axis=1),
            hyp_len=np.concatenate([p.hyp_len for p in pieces], axis=1),
            ref_len=np.concatenate([p.ref_len for p in pieces], axis=1),
            matches=np.concatenate([p.matches for p in pieces], axis=1),
            totals=np.concatenate([p.totals for p in pieces], axis=1),
            rouge_counts=np.concatenate([p.rouge_counts for p in pieces], axis=1),
            lsum_fallback=np.concatenate([p.lsum_fallback for p in pieces]),
            empty_rouge_refs=np.concatenate([p.empty_rouge_refs for p in pieces]),
            nltk_p5=np.concatenate([p.nltk_p5 for p in pieces], axis=1),
        )

    def _score(
        self, references: Sequence[Sequence[str]], systems: Sequence[Sequence[str]], start: int
    ) -> ScoreChunk:
        config = self.config
        n_refs = len(references)
        n_sys = len(systems)
        n = len(references[0])
        columns = (*references, *systems)
        max_order = config.max_order
        n_types = len(self.rouge_types)
        max_n = config.rouge_max_n

        # -- BLEU ---------------------------------------------------------------------------
        btok = self.btok
        bleu = NgramCounts([list(map(btok, col)) for col in columns], n, n_refs)
        ref_lens = bleu.lengths[:n_refs]
        hyp_len = bleu.lengths[n_refs:]
        if n_refs == 1:
            ref_len = np.broadcast_to(ref_lens[0], (n_sys, n)).copy()
        else:
            # The closest reference length, the shorter one on a tie (as sacrebleu).
            gap = np.abs(hyp_len[None, :, :] - ref_lens[:, None, :])
            closest = np.argmin(
                gap * (int(ref_lens.max(initial=0)) + 1) + ref_lens[:, None, :], axis=0
            )
            ref_len = np.take_along_axis(ref_lens[:, None, :], closest[None], axis=0)[0]
        bleu_order = self.bleu_order
        matches = np.zeros((n_sys, n, bleu_order), np.int64)
        totals = np.zeros((n_sys, n, bleu_order), np.int64)
        for m in range(1, bleu_order + 1):
            totals[:, :, m - 1] = np.maximum(hyp_len - m + 1, 0)
            bleu.advance()
            counts = bleu.counts
            allowed = counts[0] if n_refs == 1 else counts[:n_refs].max(axis=0)
            matches[:, :, m - 1] = bleu.row_sums(np.minimum(counts[n_refs:], allowed))
        del bleu

        scores = np.empty((n_sys, n, len(self.metrics)))
        p5 = np.zeros((n_sys, n, 2), np.int64)
        if self.nltk:
            scores[:, :, 0] = self._nltk_scores(hyp_len, ref_len, matches, totals)
            p5[:, :, 0] = matches[:, :, _NLTK_P5_ORDER - 1]
            p5[:, :, 1] = np.maximum(totals[:, :, _NLTK_P5_ORDER - 1], 1)
            matches = np.ascontiguousarray(matches[:, :, :max_order])
            totals = np.maximum(totals[:, :, :max_order], 1)
        else:
            scores[:, :, 0] = sacrebleu_scores(
                hyp_len.reshape(-1),
                ref_len.reshape(-1),
                matches.reshape(-1, max_order),
                totals.reshape(-1, max_order),
                smooth_method=config.smooth_method,
                smooth_value=config.effective_smooth_value,
                effective_order=config.effective_order,
            ).reshape(n_sys, n)

        # -- ROUGE --------------------------------------------------------------------------
        rouge_cols = [self._rouge_column(col) for col in columns]
        rtokens = [tokens for tokens, _ in rouge_cols]
        rouge = NgramCounts(rtokens, n, n_refs)
        r_len = rouge.lengths[:n_refs]  # (R, n)
        h_len = rouge.lengths[n_refs:]  # (S, n)
        # overlap, hyp_count, ref_count per type, reference, system and row.
        stats = np.zeros((n_types, 3, n_refs, n_sys, n), np.int64)
        for t in range(max_n):
            m = t + 1
            rouge.advance()
            if m == 1:
                # The LCS needs the unigram ids of every position: only available at order 1.
                stats[max_n, 0] = chunk_lcs_lengths(rouge, rtokens)
            counts = rouge.counts
            clipped = np.minimum(counts[None, n_refs:], counts[:n_refs, None])
            stats[t, 0] = rouge.row_sums(clipped)
            stats[t, 1] = np.maximum(h_len - m + 1, 0)[None]
            stats[t, 2] = np.maximum(r_len - m + 1, 0)[:, None]
        del rouge
        lcs = max_n
        lsum = max_n + 1
        stats[lcs, 1] = h_len[None]
        stats[lcs, 2] = r_len[:, None]
        stats[lsum] = stats[lcs]
        lsum_fallback = self._rouge_lsum(rouge_cols, n_refs, n, stats[lsum])

        # The reference with the best F-measure per type (the first one on a tie).
        prf = rouge_prf(stats[:, 0], stats[:, 1], stats[:, 2])  # (T, R, S, n, 3)
        best = np.argmax(prf[..., 2], axis=1)  # (T, S, n)
        chosen = np.take_along_axis(prf, best[:, None, :, :, None], axis=1)[:, 0]  # (T, S, n, 3)
        scores[:, :, 1:] = (100.0 * chosen).transpose(1, 2, 0, 3).reshape(n_sys, n, 3 * n_types)
        best_stats = np.take_along_axis(stats, best[:, None, None], axis=2)[:, :, 0]  # (T,3,S,n)
        rouge_counts = np.ascontiguousarray(best_stats.transpose(2, 3, 0, 1))
        empty_refs = (r_len == 0).sum(axis=0).astype(np.int64)
        return ScoreChunk(
            start=start,
            stop=start + n,
            scores=scores,
            hyp_len=np.ascontiguousarray(hyp_len),
            ref_len=ref_len,
            matches=matches,
            totals=totals,
            rouge_counts=rouge_counts,
            lsum_fallback=lsum_fallback,
            empty_rouge_refs=empty_refs,
            nltk_p5=p5,
        )

    def _rouge_lsum(
        self,
        columns: Sequence[tuple[Column, dict[int, list[list[str]]]]],
        n_refs: int,
        n: int,
        stats: IntArray,
    ) -> BoolArray:
        """ROUGE-Lsum where some line of a row has several sentences; elsewhere it is ROUGE-L.

        ``stats`` (``(3, n_refs, n_systems, n)``, filled with the ROUGE-L stats) is updated in
        place. Returns the rows where ROUGE-Lsum fell back to ROUGE-L (no sentence boundary).
        """
        fallback = np.ones(n, np.bool_)
        rows = sorted(set(chain.from_iterable(sentences for _, sentences in columns)))
        if not rows:
            return fallback
        max_n = self.config.rouge_max_n
        for k in rows:
            sents = [col[1].get(k) for col in columns]
            ref_multi = any(s is not None and len(s) > 1 for s in sents[:n_refs])
            prepared = None
            for s, hyp_sents in enumerate(sents[n_refs:]):
                if not (ref_multi or (hyp_sents is not None and len(hyp_sents) > 1)):
                    continue
                fallback[k] = False
                if prepared is None:
                    prepared = [
                        prepare_ref(
                            columns[r][0][k],
                            sentences=[columns[r][0][k]] if sents[r] is None else sents[r],
                            max_n=max_n,
                        )
                        for r in range(n_refs)
                    ]
                if hyp_sents is None:
                    hyp_sents = [columns[n_refs + s][0][k]]
                for r, ref in enumerate(prepared):
                    got = rouge_lsum(hyp_sents, ref)
                    stats[:, r, s, k] = (got.overlap, got.hyp_count, got.ref_count)
        return fallback

    def _nltk_scores(
        self, hyp_len: IntArray, ref_len: IntArray, matches: IntArray, totals: IntArray
    ) -> FloatArray:
        """NLTK sentence BLEU (0-100) per system and row, NaN where NLTK itself fails."""
        config = self.config
        order = config.max_order
        weights = (1.0 / order,) * order
        out = np.empty(hyp_len.shape)
        for s, k in np.ndindex(*hyp_len.shape):
            h = int(hyp_len[s, k])
            row_matches = matches[s, k].tolist()
            row_totals = totals[s, k].tolist()
            stats = NltkStats(
                hyp_len=h,
                ref_len=int(ref_len[s, k]),
                numerators=tuple(row_matches[:order]),
                denominators=tuple([max(1, total) for total in row_totals[:order]]),
                segments=1,
                last_hyp_len=h,
                last_p5=(
                    row_matches[_NLTK_P5_ORDER - 1],
                    max(1, row_totals[_NLTK_P5_ORDER - 1]),
                ),
            )
            try:
                out[s, k] = 100.0 * nltk_bleu_from_stats(
                    stats, weights=weights, smoothing=config.nltk_smoothing
                )
            except ValueError:
                # Where NLTK itself fails (method6 on short segments) there is no score.
                out[s, k] = math.nan
        return out
