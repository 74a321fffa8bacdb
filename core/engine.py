"""The scoring engine: comparisons in, :class:`~core.results.ScoreChunk` streams out.

Scores come from :mod:`core.fastpath`, which works a whole chunk of segments at a time (n-gram
statistics of all rows, references and systems at once, in numpy). Chunks are independent (all
statistics are additive), so they can be scored in worker processes and applied in any order.

Highlight detail is not computed here: :mod:`core.detail` computes it lazily for the rows a user
looks at.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass
from multiprocessing import get_context

from core.config import ScoringConfig
from core.fastpath import FastScorer
from core.io import Comparison
from core.results import ScoreChunk, ScoreTable

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
    """Scores ranges of segments under one configuration (tokenizers resolved once).

    The work is done by :class:`core.fastpath.FastScorer`, a whole chunk at a time.
    """

    def __init__(self, config: ScoringConfig) -> None:
        self.config = config
        self._fast = FastScorer(config)
        self.btok = self._fast.btok
        self.rtok = self._fast.rtok
        self.metrics = config.metric_names()
        self.rouge_types = config.rouge_types

    def rouge_sentences(self, line: str) -> list[list[str]]:
        """ROUGE tokens of each sentence of ``line`` (empty sentences dropped, as rouge-score)."""
        return self._fast.rouge_sentences(line)

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
        return self._fast.score_lines(references, systems, start)


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
