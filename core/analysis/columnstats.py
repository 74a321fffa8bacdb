"""A score column of a :class:`~core.scoring.results.ScoreTable` as additive statistics, and the
paired significance tests of every testable column on any set of rows.

Paired bootstrap and approximate randomization (:mod:`core.analysis.significance`) and the
leave-one-out influence (:mod:`core.analysis.compare`) resample or remove rows of per-row
statistics whose sums a score function turns into the corpus figure. Which statistics and which
function belong to a column is decided here, once, for the app and the command line:

* BLEU: sacreBLEU's statistics (:func:`~core.analysis.significance.bleu_statistics`) and its
  corpus BLEU with the column's smoothing and order, computed in float32 on resample sums as
  sacreBLEU does (:func:`~core.analysis.significance.bleu_score_function`);
* chrF / chrF++: sacreBLEU's statistics and :func:`~core.analysis.significance.
  chrf_score_function` likewise;
* any other metric that declares :meth:`~core.metrics.base.Metric.additive` statistics: those;
* a column whose corpus figure is the mean of its segment values (ROUGE F, an imported COMET or
  human score): :func:`~core.analysis.significance.mean_statistics`, on the rows where every
  system has a value;
* NLTK's corpus BLEU is not testable: its smoothing reads the last segment, which a resample
  changes, so no sum of statistics gives it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Literal, cast

import numpy as np
import numpy.typing as npt

from matchlight.core.analysis.compare import row_index
from matchlight.core.analysis.significance import (
    DEFAULT_AR_TRIALS,
    DEFAULT_BOOTSTRAP_SAMPLES,
    DEFAULT_SEED,
    PairwiseSignificance,
    ScoreFunction,
    SignificanceResult,
    bleu_score_function,
    bleu_statistics,
    chrf_score_function,
    mean_score,
    mean_statistics,
    paired_approximate_randomization,
    paired_bootstrap,
    pairwise_significance,
)
from matchlight.core.metrics.base import ScoreColumn
from matchlight.core.metrics.bleu import BleuSettings
from matchlight.core.metrics.chrf import ChrfSettings
from matchlight.core.metrics.registry import METRICS
from matchlight.core.scoring.results import ScoreTable

__all__ = [
    "ColumnStatistics",
    "ColumnTest",
    "NotTestable",
    "column_statistics",
    "pairwise_for_column",
    "significance_by_column",
    "significance_columns",
]

AnyArray = npt.NDArray[Any]
BoolArray = npt.NDArray[np.bool_]
IntArray = npt.NDArray[np.int64]

TestKind = Literal["bs", "ar"]


class NotTestable(ValueError):
    """A column whose corpus figure no resampling of per-row statistics reproduces; the
    message says why, for the user."""


@dataclass(frozen=True, slots=True, eq=False)
class ColumnStatistics:
    """One column's per-row statistics for every system, and the corpus figure of their sums.

    ``stats[s]`` is system ``s``'s ``(n_segments, K)`` array over all rows; ``score`` maps
    summed statistics ``(m, K)`` to ``m`` corpus figures. ``usable`` marks the rows a test may
    use: scored, and with a value for every system (a mean column with missing values).
    ``rule`` says what the figure is: ``stats`` (from summed statistics, as sacreBLEU) or
    ``mean`` (the mean of the segment values).
    """

    column: ScoreColumn
    rule: Literal["stats", "mean"]
    stats: tuple[AnyArray, ...]
    score: ScoreFunction
    usable: BoolArray

    def rows(self, rows: npt.ArrayLike | None = None) -> IntArray:
        """The usable rows among ``rows`` (None: all; a boolean mask or row numbers), sorted."""
        chosen = row_index(rows, self.usable.shape[0])
        return chosen[self.usable[chosen]]


def column_statistics(table: ScoreTable, key: str) -> ColumnStatistics:
    """The statistics and score function of column ``key`` (see the module docstring).

    Raises :class:`NotTestable` for a column that no resampling reproduces (NLTK's corpus BLEU,
    counts such as lengths) and KeyError for a column the table does not have.
    """
    column = table.column_info(key)
    if column.kind != "score":
        raise NotTestable(f"{column.label} is a count, not a score")
    n_sys = len(table.systems)
    done = table.done.copy()
    if key in table.external or column.corpus == "mean":
        values = table.scores[:, :, table.metric_index(key)]
        usable = done & ~np.isnan(values).any(axis=0)
        stats = tuple(mean_statistics(np.where(usable, values[s], 0.0)) for s in range(n_sys))
        return ColumnStatistics(column, "mean", stats, mean_score, usable)
    if column.corpus != "stats":
        raise NotTestable(f"{column.label} is a sum, not a score")
    metric = METRICS[column.metric]
    settings = table.config.settings(column.metric)
    fields = table.stats[column.metric]
    score: ScoreFunction
    if column.metric == "bleu":
        s = cast(BleuSettings, settings)
        per_system = bleu_statistics(
            hyp_len=fields["hyp_len"],
            ref_len=fields["ref_len"],
            matches=fields["matches"],
            totals=fields["totals"],
        )
        stats = tuple(per_system[i] for i in range(n_sys))
        score = bleu_score_function(
            smooth_method=s.smooth_method, smooth_value=s.smoothing, max_order=s.max_order
        )
    elif column.metric == "chrf":
        c = cast(ChrfSettings, settings)
        stats = tuple(np.asarray(fields["stats"][i], np.int64) for i in range(n_sys))
        score = chrf_score_function(char_order=c.char_order, word_order=c.word_order, beta=c.beta)
    else:
        found = [
            metric.additive(settings, {name: array[i] for name, array in fields.items()})
            for i in range(n_sys)
        ]
        first = found[0]
        if first is None:
            raise NotTestable(
                f"{column.label}: the corpus figure is not a function of summed per-segment "
                "statistics, so resampling cannot reproduce it"
            )
        stats = tuple(np.asarray(f[0]) for f in found if f is not None)
        score = first[1]
    return ColumnStatistics(column, "stats", stats, score, done)


def significance_columns(table: ScoreTable) -> list[tuple[ScoreColumn, str | None]]:
    """Every headline score column and every added column, with the reason it cannot be
    tested (None when it can), in the table's order."""
    out: list[tuple[ScoreColumn, str | None]] = []
    for column in table.columns:
        if column.kind != "score" or not (column.headline or column.key in table.external):
            continue
        try:
            column_statistics(table, column.key)
        except NotTestable as why:
            out.append((column, str(why)))
        else:
            out.append((column, None))
    return out


@dataclass(frozen=True, slots=True)
class ColumnTest:
    """The paired test of one column: ``result`` (baseline first, then the other systems in
    table order), or ``reason`` why the column was not tested. ``n_rows`` counts the rows
    tested (those of the selection with a value for every system)."""

    column: ScoreColumn
    result: SignificanceResult | None
    reason: str | None
    n_rows: int


def _ordered(n_sys: int, baseline: int) -> list[int]:
    if not 0 <= baseline < n_sys:
        raise ValueError(f"no system {baseline + 1}; there are {n_sys}")
    return [baseline, *(s for s in range(n_sys) if s != baseline)]


def significance_by_column(
    table: ScoreTable,
    keys: Sequence[str],
    *,
    baseline: int,
    rows: npt.ArrayLike | None = None,
    test: TestKind = "bs",
    n_samples: int | None = None,
    seed: int | None = DEFAULT_SEED,
    cancel: Callable[[], bool] | None = None,
    progress: Callable[[float], None] | None = None,
) -> tuple[ColumnTest, ...]:
    """sacreBLEU's paired test of every system against ``baseline`` for each column in
    ``keys``, on ``rows`` (None: all scored rows).

    Each column is tested with :func:`~core.analysis.significance.paired_bootstrap` (``bs``,
    default 1,000 resamples) or :func:`~core.analysis.significance.
    paired_approximate_randomization` (``ar``, default 10,000 trials, with 1,000 bootstrap
    resamples for the means and confidence intervals, as sacreBLEU reports them), all with the
    same seed. ``cancel`` and ``progress`` (the fraction of all columns done) are passed on.
    """
    n_sys = len(table.systems)
    if n_sys < 2:
        raise ValueError("a paired test needs at least two systems")
    order = _ordered(n_sys, baseline)
    names = [table.systems[i] for i in order]
    default = DEFAULT_BOOTSTRAP_SAMPLES if test == "bs" else DEFAULT_AR_TRIALS
    count = n_samples if n_samples is not None else default
    out: list[ColumnTest] = []
    for done, key in enumerate(keys):
        column = table.column_info(key)

        def part(fraction: float, done: int = done) -> None:
            if progress is not None:
                progress((done + fraction) / len(keys))

        try:
            data = column_statistics(table, key)
        except NotTestable as why:
            out.append(ColumnTest(column, None, str(why), 0))
            part(1.0)
            continue
        chosen = data.rows(rows)
        if chosen.size == 0:
            out.append(ColumnTest(column, None, "no row has a value for every system", 0))
            part(1.0)
            continue
        stats = [data.stats[i] for i in order]
        result: SignificanceResult
        if test == "bs":
            result = paired_bootstrap(
                stats,
                data.score,
                names=names,
                n_samples=count,
                seed=seed,
                rows=chosen,
                cancel=cancel,
                progress=part,
            )
        else:
            result = paired_approximate_randomization(
                stats,
                data.score,
                names=names,
                n_samples=count,
                seed=seed,
                confidence_samples=DEFAULT_BOOTSTRAP_SAMPLES,
                rows=chosen,
                cancel=cancel,
                progress=part,
            )
        out.append(ColumnTest(column, result, None, int(chosen.size)))
        part(1.0)
    return tuple(out)


def pairwise_for_column(
    table: ScoreTable,
    key: str,
    *,
    rows: npt.ArrayLike | None = None,
    test: TestKind = "bs",
    n_samples: int | None = None,
    seed: int | None = DEFAULT_SEED,
    cancel: Callable[[], bool] | None = None,
    progress: Callable[[float], None] | None = None,
) -> PairwiseSignificance:
    """Every pair of systems tested on column ``key`` (systems in table order), with
    :func:`~core.analysis.significance.pairwise_significance`. Raises :class:`NotTestable`."""
    data = column_statistics(table, key)
    chosen = data.rows(rows)
    if chosen.size == 0:
        raise NotTestable(f"{data.column.label}: no row has a value for every system")
    return pairwise_significance(
        list(data.stats),
        data.score,
        names=list(table.systems),
        test=test,
        n_samples=n_samples,
        seed=seed,
        rows=chosen,
        cancel=cancel,
        progress=progress,
    )
