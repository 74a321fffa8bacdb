"""The chunk scorer: every scored metric's bulk scorer over one chunk of rows.

Each metric scores a whole chunk at a time in numpy (n-gram statistics of all rows, references
and systems at once; see the metric modules). This module cuts chunks into pieces of a size that
was measured to be fast, shares the tokenization between metrics with the same tokenizer
(:class:`~core.metrics.base.ChunkText`), and puts the metrics' results together into one
:class:`~core.scoring.results.ScoreChunk`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

import numpy as np

from matchlight.core.metrics.base import ChunkText, MetricChunk
from matchlight.core.scoring.config import ScoringConfig
from matchlight.core.scoring.results import ScoreChunk
from matchlight.core.text.corpus import CorpusText

__all__ = ["ChunkScorer", "chunk_pieces"]

# The most rows scored in one go; larger chunks are cut into pieces of this size (smaller
# sorts, dicts and arrays were measured faster).
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


class ChunkScorer:
    """Scores ranges of segments under one configuration (tokenizers resolved once)."""

    def __init__(self, config: ScoringConfig) -> None:
        self.config = config
        self._scorers = [(m.key, m.chunk_scorer(s)) for m, s in config.enabled()]

    def score(self, text: CorpusText, start: int, stop: int) -> ScoreChunk:
        """Scores of the segments ``start:stop`` of ``text``."""
        return self.score_lines(
            [col[start:stop] for col in text.references],
            [col[start:stop] for col in text.systems],
            start,
        )

    def score_lines(
        self, references: Sequence[Sequence[str]], systems: Sequence[Sequence[str]], start: int
    ) -> ScoreChunk:
        """Scores of rows ``start, start + 1, ...`` given only those rows' lines."""
        pieces = [
            self._score(*piece) for piece in chunk_pieces(references, systems, start, _PIECE_ROWS)
        ]
        if len(pieces) == 1:
            return pieces[0]
        return ScoreChunk(
            start=start,
            stop=pieces[-1].stop,
            scores=np.concatenate([p.scores for p in pieces], axis=1),
            stats={
                key: {
                    name: np.concatenate([p.stats[key][name] for p in pieces], axis=1)
                    for name in fields
                }
                for key, fields in pieces[0].stats.items()
            },
            row_flags={
                name: np.concatenate([p.row_flags[name] for p in pieces])
                for name in pieces[0].row_flags
            },
        )

    def _score(
        self, references: Sequence[Sequence[str]], systems: Sequence[Sequence[str]], start: int
    ) -> ScoreChunk:
        chunk = ChunkText(references, systems, self.config.sentence_separator)
        results: list[tuple[str, MetricChunk]] = [
            (key, score(chunk)) for key, score in self._scorers
        ]
        flags: dict[str, np.ndarray] = {}
        for _, result in results:
            flags.update(result.row_flags)
        return ScoreChunk(
            start=start,
            stop=start + chunk.n_rows,
            scores=np.concatenate([r.scores for _, r in results], axis=2),
            stats={key: dict(r.stats) for key, r in results},
            row_flags=flags,
        )
