"""Columnar score storage: one array per value, rows = segments, one plane per system.

A :class:`ScoreTable` is filled chunk by chunk as the engine streams :class:`ScoreChunk` objects,
so a table model can show the first rows while the rest is still being scored. It holds every
metric's per-segment columns (one ``scores`` array) and additive statistics, so every corpus
figure is equally cheap for the whole corpus, a filtered subset, or a bootstrap resample. What
the columns and statistics are is the registry's business (:mod:`core.metrics.registry`); this
module only stores and sums them.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from matchlight.core.metrics.base import CorpusView, Metric, MetricSettings, ScoreColumn
from matchlight.core.scoring.config import ScoringConfig

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]
#: A stored statistic: int32 (half of int64's memory: 264 MB less at 1M rows x 3 systems with
#: BLEU and ROUGE), or int64 once a row's count outgrows int32. Sums are always int64.
StatArray = npt.NDArray[np.int32] | npt.NDArray[np.int64]
_STAT_MAX = int(np.iinfo(np.int32).max)
_STAT_MIN = int(np.iinfo(np.int32).min)
BoolArray = npt.NDArray[np.bool_]
AnyArray = npt.NDArray[Any]

__all__ = ["CorpusScores", "ScoreChunk", "ScoreTable", "SegmentScores"]


@dataclass(frozen=True, slots=True)
class ScoreChunk:
    """Results for the segments ``start:stop`` and every system, as produced by the engine.

    ``scores`` has shape ``(S, n, C)`` for the configuration's columns; ``stats[metric][name]``
    ``(S, n, ...)``; ``row_flags[name]`` ``(n,)``.
    """

    start: int
    stop: int
    scores: FloatArray
    stats: Mapping[str, Mapping[str, AnyArray]]
    row_flags: Mapping[str, AnyArray]


@dataclass(frozen=True, slots=True)
class SegmentScores:
    """The values of one system on one segment, as a named record."""

    system: str
    segment: int  # 0-based
    scores: dict[str, float]


@dataclass(frozen=True, slots=True)
class CorpusScores:
    """Corpus-level figures of one system over a set of rows.

    ``values[column]`` is the corpus figure as the column's metric defines it (corpus BLEU from
    summed statistics, the mean for ROUGE...); ``means[column]`` is always the plain mean of the
    segment values; ``details[metric]`` what lies behind a metric's figure (a
    :class:`~core.metrics.bleu.BleuScore`...), or None.
    """

    system: str
    n_segments: int
    values: dict[str, float]
    means: dict[str, float]
    details: dict[str, object]

    def value(self, column: str) -> float:
        return self.values.get(column, math.nan)


def _outgrows_int32(values: AnyArray) -> bool:
    return bool(values.size) and (values.max() > _STAT_MAX or values.min() < _STAT_MIN)


class _Rows(CorpusView):
    """The statistics of some rows of one system, read from the table's arrays."""

    def __init__(
        self,
        stats: Mapping[str, AnyArray],
        system: int,
        index: npt.NDArray[np.intp] | slice,
        count: int,
        means: Mapping[str, float],
    ) -> None:
        self._stats = stats
        self._system = system
        self._index = index
        self.count = count
        self._means = means

    def sum(self, name: str) -> AnyArray:
        return np.asarray(self._stats[name][self._system][self._index].sum(axis=0, dtype=np.int64))

    def last(self, name: str) -> AnyArray:
        index = self._index
        row = self.count - 1 if isinstance(index, slice) else int(index[-1])
        return np.asarray(self._stats[name][self._system, row], dtype=np.int64)

    def mean(self, column: str) -> float:
        return self._means[column]


class _Running(CorpusView):
    """The statistics of the rows scored so far, from sums kept as chunks arrive."""

    def __init__(
        self, sums: Mapping[str, AnyArray], system: int, count: int, means: Mapping[str, float]
    ) -> None:
        self._sums = sums
        self._system = system
        self.count = count
        self._means = means

    def sum(self, name: str) -> AnyArray:
        return self._sums[name][self._system]

    def last(self, name: str) -> AnyArray:  # pragma: no cover - only for non-running metrics
        raise NotImplementedError("running sums do not keep the last row")

    def mean(self, column: str) -> float:
        return self._means[column]


class ScoreTable:
    """All per-segment results of one scoring run."""

    def __init__(
        self, *, systems: Sequence[str], n_segments: int, config: ScoringConfig, nrefs: int
    ) -> None:
        self.systems: tuple[str, ...] = tuple(systems)
        self.n_segments = n_segments
        self.config = config
        self.nrefs = nrefs
        self.columns: tuple[ScoreColumn, ...] = config.columns()
        self.column_keys: tuple[str, ...] = tuple(c.key for c in self.columns)
        self._column_index = {key: i for i, key in enumerate(self.column_keys)}
        self._metrics: tuple[tuple[Metric, MetricSettings], ...] = config.enabled()
        self._metric_columns = {
            m.key: [self._column_index[c.key] for c in m.columns(s)] for m, s in self._metrics
        }
        n_sys = len(self.systems)
        self.scores: FloatArray = np.full((n_sys, n_segments, len(self.columns)), np.nan)
        self.stats: dict[str, dict[str, StatArray]] = {
            m.key: {
                name: np.zeros((n_sys, n_segments, *shape), dtype=np.int32)
                for name, shape in m.stat_shapes(s).items()
            }
            for m, s in self._metrics
        }
        self.row_flags: dict[str, IntArray] = {
            name: np.zeros(n_segments, dtype=np.int64)
            for m, _ in self._metrics
            for name in m.row_flags()
        }
        self.done: BoolArray = np.zeros(n_segments, dtype=np.bool_)
        #: Columns added after scoring (imported scores, MQM from annotations), by key.
        self.external: dict[str, ScoreColumn] = {}
        self._scored_columns = len(self.columns)
        # Running sums over the scored rows, kept up to date by apply() (see running_corpus).
        self._run_stats = {
            key: {name: np.zeros(a.shape[:1] + a.shape[2:], np.int64) for name, a in fields.items()}
            for key, fields in self.stats.items()
        }
        self._run_scores: FloatArray = np.zeros((n_sys, len(self.columns)))
        self._run_count = 0

    # -- filling -----------------------------------------------------------------------------

    def apply(self, chunk: ScoreChunk, rows: npt.ArrayLike | None = None) -> None:
        """Store one chunk of results (a chunk applied twice is not counted twice): the rows
        ``chunk.start:chunk.stop``, or the segments ``rows`` (for a chunk of rows that do not
        follow each other: a selection streamed)."""
        index: npt.NDArray[np.intp] | slice = (
            slice(chunk.start, chunk.stop) if rows is None else np.asarray(rows, dtype=np.intp)
        )
        new = ~self.done[index]
        scored = self._scored_columns
        if new.any():
            for key, fields in chunk.stats.items():
                for name, values in fields.items():
                    self._run_stats[key][name] += values[:, new].sum(axis=1, dtype=np.int64)
            self._run_scores[:, :scored] += chunk.scores[:, new].sum(axis=1)
            self._run_count += int(new.sum())
        self.scores[:, index, :scored] = chunk.scores
        for key, fields in chunk.stats.items():
            for name, values in fields.items():
                stored = self.stats[key][name]
                if stored.dtype != np.int64 and _outgrows_int32(values):
                    stored = self.stats[key][name] = stored.astype(np.int64)
                stored[:, index] = values
        for name, values in chunk.row_flags.items():
            self.row_flags[name][index] = values
        self.done[index] = True

    def add_column(self, column: ScoreColumn, values: npt.ArrayLike) -> None:
        """Add (or replace) a column computed elsewhere: imported segment scores (COMET,
        human judgements) or MQM scores from annotations, ``values`` ``(S, n)`` with NaN where
        a row has none. Its corpus figure is the mean over the rows that have a value."""
        array = np.asarray(values, dtype=np.float64)
        if array.shape != self.scores.shape[:2]:
            raise ValueError(
                f"{column.label}: {array.shape[0] if array.ndim else 0} systems x "
                f"{array.shape[1] if array.ndim > 1 else 0} rows, but the comparison has "
                f"{self.scores.shape[0]} x {self.scores.shape[1]}"
            )
        index = self._column_index.get(column.key)
        if index is not None and column.key not in self.external:
            raise ValueError(f"{column.key!r} is a scored column; an added one needs its own key")
        if index is None:
            index = len(self.columns)
            self.scores = np.concatenate((self.scores, array[..., None]), axis=2)
            self.columns = (*self.columns, column)
            self.column_keys = (*self.column_keys, column.key)
            self._column_index[column.key] = index
            self._run_scores = np.concatenate(
                (self._run_scores, np.zeros((len(self.systems), 1))), axis=1
            )
        else:
            self.scores[:, :, index] = array
            self.columns = tuple(column if i == index else c for i, c in enumerate(self.columns))
        self.external[column.key] = column

    def remove_column(self, key: str) -> None:
        """Drop a column added with :meth:`add_column`."""
        if key not in self.external:
            raise KeyError(f"{key!r} is not an added column")
        index = self._column_index[key]
        keep = [i for i in range(len(self.columns)) if i != index]
        self.scores = np.ascontiguousarray(self.scores[:, :, keep])
        self._run_scores = self._run_scores[:, keep]
        self.columns = tuple(self.columns[i] for i in keep)
        self.column_keys = tuple(c.key for c in self.columns)
        self._column_index = {k: i for i, k in enumerate(self.column_keys)}
        del self.external[key]

    def _external_figures(
        self, system: int, index: npt.NDArray[np.intp] | slice, wanted: Sequence[str] | None
    ) -> dict[str, float]:
        keys = [k for k in self.external if wanted is None or k in wanted]
        figures: dict[str, float] = {}
        for key in keys:
            values = self.scores[system, :, self._column_index[key]][index]
            present = values[~np.isnan(values)]
            figures[key] = float(present.mean()) if present.size else math.nan
        return figures

    @property
    def n_done(self) -> int:
        """How many rows are scored (count_nonzero: a tenth of ``sum``'s time on a million
        rows, and the app asks several times per event)."""
        return int(np.count_nonzero(self.done))

    @property
    def complete(self) -> bool:
        return bool(self.done.all())

    # -- reading -----------------------------------------------------------------------------

    @property
    def metric_keys(self) -> tuple[str, ...]:
        """The scored metrics' registry keys."""
        return tuple(m.key for m, _ in self._metrics)

    def metric_index(self, column: str) -> int:
        try:
            return self._column_index[column]
        except KeyError:
            raise KeyError(
                f"unknown column {column!r}; this table has {', '.join(self.column_keys)}"
            ) from None

    def has(self, column: str) -> bool:
        return column in self._column_index

    def column_info(self, column: str) -> ScoreColumn:
        return self.columns[self.metric_index(column)]

    def column(self, column: str, system: int) -> FloatArray:
        """Per-segment values of one column for one system (NaN where not scored yet)."""
        return self.scores[system, :, self.metric_index(column)]

    def value(self, column: str, system: int, segment: int) -> float:
        return float(self.scores[system, segment, self.metric_index(column)])

    def stat(self, metric: str, name: str) -> StatArray:
        """Statistic ``name`` of metric ``metric``, ``(S, n, ...)``: int32, or int64 if a row's
        count outgrew int32 (sum it with ``dtype=np.int64``)."""
        return self.stats[metric][name]

    def flag(self, name: str) -> IntArray:
        """A per-row flag (0 where unknown or not scored yet); KeyError if no metric sets it."""
        return self.row_flags[name]

    def segment(self, system: int, segment: int) -> SegmentScores:
        return SegmentScores(
            system=self.systems[system],
            segment=segment,
            scores={k: float(v) for k, v in zip(self.column_keys, self.scores[system, segment])},
        )

    def _wanted(self, columns: Iterable[str] | None) -> list[tuple[Metric, MetricSettings]]:
        if columns is None:
            return list(self._metrics)
        keys = {self.column_info(c).metric for c in columns if c not in self.external}
        return [(m, s) for m, s in self._metrics if m.key in keys]

    def corpus(
        self,
        system: int,
        rows: npt.ArrayLike | None = None,
        *,
        metrics: Sequence[str] | None = None,
    ) -> CorpusScores:
        """Corpus figures and column means over ``rows`` (default: all).

        ``metrics`` names the columns wanted (default: all); the figures of the metrics owning
        them are computed, and nothing else.
        """
        index: npt.NDArray[np.intp] | slice
        if rows is None:
            index, count = slice(None), self.n_segments
        else:
            index = np.asarray(rows)
            if index.dtype == np.bool_:
                index = np.flatnonzero(index)
            count = len(index)
        wanted = self._wanted(metrics)
        positions = [i for m, _ in wanted for i in self._metric_columns[m.key]]
        names = [self.column_keys[i] for i in positions]
        if count and positions:
            # Each column's values as one contiguous row, so that every mean is numpy's pairwise
            # sum over the values in row order, exactly as ``np.mean`` of that column would be.
            values = self.scores[system][index][:, positions]
            with np.errstate(invalid="ignore"):
                means = dict(zip(names, map(float, np.ascontiguousarray(values.T).mean(axis=1))))
        else:
            means = dict.fromkeys(names, math.nan)
        figures: dict[str, float] = {}
        details: dict[str, object] = {}
        for m, s in wanted:
            view = _Rows(self.stats[m.key], system, index, count, means)
            result = m.corpus(s, view)
            figures.update(result.values)
            details[m.key] = result.detail
        added = self._external_figures(system, index, metrics)
        figures.update(added)
        means.update(added)
        return CorpusScores(self.systems[system], count, figures, means, details)

    def running_corpus(self, system: int, *, metrics: Sequence[str] | None = None) -> CorpusScores:
        """:meth:`corpus` of the rows scored so far, from sums kept as chunks arrive.

        Costs nothing however many rows there are, for a display that follows the scoring.
        Figures from integer statistics are exactly :meth:`corpus`'s; means may differ from
        numpy's pairwise ones in the last bits, so once every row is scored use :meth:`corpus`.
        A metric whose corpus figure needs more than sums (NLTK) is computed in full.
        """
        wanted = self._wanted(metrics)
        if not all(m.running for m, _ in wanted) or self.external:
            return self.corpus(system, self.done, metrics=metrics)
        count = self._run_count
        sums = self._run_scores[system]
        means = {
            key: float(sums[i] / count) if count else math.nan
            for key, i in self._column_index.items()
        }
        figures: dict[str, float] = {}
        details: dict[str, object] = {}
        for m, s in wanted:
            result = m.corpus(s, _Running(self._run_stats[m.key], system, count, means))
            figures.update(result.values)
            details[m.key] = result.detail
        names = [self.column_keys[i] for m, _ in wanted for i in self._metric_columns[m.key]]
        return CorpusScores(
            self.systems[system], count, figures, {k: means[k] for k in names}, details
        )

    def signatures(self) -> dict[str, str]:
        return self.config.signatures(self.nrefs)

    def signature(self) -> str:
        return self.config.signature(self.nrefs)
