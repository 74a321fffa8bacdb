"""Corpus figures of rows that stream past: a :class:`ScoreTable`'s figures without its rows.

A command that scores more rows than it should hold keeps, per system, only what the corpus
figures need: every metric's additive statistics summed (and the last row's, for NLTK's
method5-7), numpy's pairwise sums of every column (:class:`~core.scoring.pairwise.PairwiseSum`,
so each mean is ``np.mean``'s bit for bit), the rows without a score per column and the row
flags' totals. The figures are the metrics' own functions of those (``Metric.corpus``), so
:meth:`StreamedCorpus.corpus` equals :meth:`ScoreTable.corpus` over the same rows exactly.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from matchlight.core.metrics.base import CorpusView, Metric, MetricSettings, ScoreColumn
from matchlight.core.scoring.config import ScoringConfig
from matchlight.core.scoring.pairwise import PairwiseSum
from matchlight.core.scoring.results import CorpusScores, ScoreChunk, ScoreTable

__all__ = ["StreamedCorpus"]

AnyArray = npt.NDArray[Any]


class _Summed(CorpusView):
    """One system's statistics as :class:`StreamedCorpus` keeps them."""

    def __init__(
        self,
        sums: Mapping[str, AnyArray],
        last: Mapping[str, AnyArray],
        system: int,
        count: int,
        means: Mapping[str, float],
    ) -> None:
        self._sums = sums
        self._last = last
        self._system = system
        self.count = count
        self._means = means

    def sum(self, name: str) -> AnyArray:
        return np.asarray(self._sums[name][self._system])

    def last(self, name: str) -> AnyArray:
        return np.asarray(self._last[name][self._system])

    def mean(self, column: str) -> float:
        return self._means[column]


class StreamedCorpus:
    """The corpus figures of ``n_rows`` rows fed in order as :class:`ScoreChunk` objects
    (:meth:`add`), per system; memory does not grow with the rows."""

    def __init__(
        self, *, systems: Sequence[str], n_rows: int, config: ScoringConfig, nrefs: int
    ) -> None:
        self.systems: tuple[str, ...] = tuple(systems)
        self.n_rows = n_rows
        self.config = config
        self.nrefs = nrefs
        self.columns: tuple[ScoreColumn, ...] = config.columns()
        self.column_keys: tuple[str, ...] = tuple(c.key for c in self.columns)
        self._index = {key: i for i, key in enumerate(self.column_keys)}
        self._metrics: tuple[tuple[Metric, MetricSettings], ...] = config.enabled()
        n_sys, width = len(self.systems), len(self.columns)
        shapes = {m.key: m.stat_shapes(s) for m, s in self._metrics}
        self._sums = {
            key: {name: np.zeros((n_sys, *shape), np.int64) for name, shape in fields.items()}
            for key, fields in shapes.items()
        }
        self._last = {
            key: {name: np.zeros((n_sys, *shape), np.int64) for name, shape in fields.items()}
            for key, fields in shapes.items()
        }
        self._pairwise = PairwiseSum(n_rows, n_sys * width)
        self._missing = np.zeros((n_sys, width), np.int64)
        self.flags: dict[str, int] = {name: 0 for m, _ in self._metrics for name in m.row_flags()}
        self.count = 0

    @classmethod
    def of_table(
        cls, table: ScoreTable, rows: npt.ArrayLike | None = None, *, chunk: int = 4096
    ) -> StreamedCorpus:
        """The figures of ``rows`` (default: all) of a scored table, fed a chunk at a time."""
        index = np.arange(table.n_segments) if rows is None else np.asarray(rows)
        if index.dtype == np.bool_:
            index = np.flatnonzero(index)
        found = cls(
            systems=table.systems, n_rows=len(index), config=table.config, nrefs=table.nrefs
        )
        scored = len(found.columns)
        for a in range(0, len(index), chunk):
            part = index[a : a + chunk]
            found.add(
                ScoreChunk(
                    start=int(part[0]),
                    stop=int(part[0]) + len(part),
                    scores=table.scores[:, part, :scored],
                    stats={
                        key: {name: values[:, part] for name, values in fields.items()}
                        for key, fields in table.stats.items()
                    },
                    row_flags={name: values[part] for name, values in table.row_flags.items()},
                )
            )
        return found

    def add(self, chunk: ScoreChunk) -> None:
        """Take the next rows (in order; at most ``n_rows`` in all)."""
        n = chunk.scores.shape[1]
        if not n:
            return
        for key, fields in chunk.stats.items():
            for name, values in fields.items():
                as_int = np.asarray(values, dtype=np.int64)
                self._sums[key][name] += as_int.sum(axis=1)
                self._last[key][name] = as_int[:, -1]
        scores = chunk.scores
        self._pairwise.add(scores.transpose(1, 0, 2).reshape(n, -1))
        self._missing += np.isnan(scores).sum(axis=1)
        for name, values in chunk.row_flags.items():
            self.flags[name] = self.flags.get(name, 0) + int(np.asarray(values).sum())
        self.count += n

    @property
    def complete(self) -> bool:
        return self.count == self.n_rows

    @property
    def metric_keys(self) -> tuple[str, ...]:
        return tuple(m.key for m, _ in self._metrics)

    def column_info(self, column: str) -> ScoreColumn:
        return self.columns[self._index[column]]

    def signatures(self) -> dict[str, str]:
        return self.config.signatures(self.nrefs)

    def means(self, system: int) -> dict[str, float]:
        """``np.mean`` of every column of ``system`` over the rows (NaN without rows)."""
        if not self.complete:
            raise ValueError(f"{self.count} of the {self.n_rows} rows were added")
        values = self._pairwise.mean().reshape(len(self.systems), -1)[system]
        return dict(zip(self.column_keys, map(float, values), strict=True))

    def corpus(self, system: int, *, metrics: Sequence[str] | None = None) -> CorpusScores:
        """:meth:`ScoreTable.corpus` of the rows: each metric's figures and every mean."""
        means = self.means(system)
        wanted = self._metrics
        if metrics is not None:
            keys = {self.column_info(c).metric for c in metrics}
            wanted = tuple((m, s) for m, s in self._metrics if m.key in keys)
        names = [c.key for m, s in wanted for c in m.columns(s)]
        figures: dict[str, float] = {}
        details: dict[str, object] = {}
        for m, s in wanted:
            view = _Summed(self._sums[m.key], self._last[m.key], system, self.count, means)
            result = m.corpus(s, view)
            figures.update(result.values)
            details[m.key] = result.detail
        chosen = {key: means[key] if self.count else math.nan for key in names}
        return CorpusScores(self.systems[system], self.count, figures, chosen, details)

    def missing(self, system: int) -> dict[str, int]:
        """Per score column of ``system``, how many rows have no score (only those with any)."""
        return {
            column.key: int(count)
            for column, count in zip(self.columns, self._missing[system], strict=True)
            if count and column.kind == "score"
        }
