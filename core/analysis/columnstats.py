"""Paired significance tests of a score table's columns against a baseline, on any rows: what
the app's significance panel shows.

The statistics and the score function behind each column's corpus figure are
:func:`core.analysis.significance.table_statistics`'s (the metric's own additive statistics for
corpus BLEU and chrF, so a test equals sacreBLEU's; the mean of the segment values for ROUGE F
and imported columns). This module tests several columns in one run with one seed, puts the
baseline first whatever its position in the table (sacreBLEU's layout), says why a column
cannot be tested instead of failing the run, and reports progress over all columns.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any, Literal

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
    paired_approximate_randomization,
    paired_bootstrap,
    pairwise_significance,
    table_statistics,
)
from matchlight.core.metrics.base import ScoreColumn
from matchlight.core.scoring.results import ScoreTable

__all__ = [
    "ALPHA",
    "ColumnTest",
    "NotTestable",
    "Verdict",
    "bonferroni_alpha",
    "pairwise_for_column",
    "pairwise_verdict",
    "significance_by_column",
    "significance_columns",
    "verdict",
    "without_values",
]

TestKind = Literal["bs", "ar"]
AnyArray = npt.NDArray[Any]
#: "better" or "worse" than the other system, significantly; None: no significant difference.
Verdict = Literal["better", "worse"] | None

#: The significance level of the verdicts (sacreBLEU's "*" marks p <= 0.05).
ALPHA = 0.05


def verdict(
    column: ScoreColumn, score: float, other: float, p_value: float | None, alpha: float = ALPHA
) -> Verdict:
    """Whether ``score`` is significantly better or worse than ``other`` on ``column`` (which
    way is better is the column's: a lower MQM penalty is better); None when ``p_value`` is
    above ``alpha``, missing, or the scores are equal."""
    if p_value is None or p_value > alpha or score == other:
        return None
    return "better" if column.is_better(score, other) else "worse"


class NotTestable(ValueError):
    """A column no resampling test applies to; the message says why, for the user."""


def significance_columns(table: ScoreTable) -> list[ScoreColumn]:
    """The columns a significance run tests: every headline score column and every added
    column (imported scores), in the table's order."""
    return [
        c for c in table.columns if c.kind == "score" and (c.headline or c.key in table.external)
    ]


def without_values(table: ScoreTable, key: str, rows: npt.ArrayLike | None = None) -> set[str]:
    """The systems with no value of column ``key`` on ``rows`` (None: all rows), e.g. never
    annotated for an MQM or ESA column: a paired test has nothing to compare for them."""
    values = table.scores[:, :, table.metric_index(key)]
    if rows is not None:
        values = values[:, np.asarray(rows, dtype=np.int64)]
    return {name for name, row in zip(table.systems, values, strict=True) if np.isnan(row).all()}


@dataclass(frozen=True, slots=True)
class ColumnTest:
    """The paired test of one column: ``result`` (the baseline first, then the other systems
    in table order), or ``reason`` why the column was not tested. ``n_rows`` counts the rows
    tested; ``incomplete`` those among them where some system has no value (each system's
    figure is then its mean over the rows where it has one). ``untested`` names the systems
    without any value on the rows (:func:`without_values`): their lines carry no test, and
    when the baseline is one of them no line does."""

    column: ScoreColumn
    result: SignificanceResult | None
    reason: str | None
    n_rows: int
    incomplete: int = 0
    untested: frozenset[str] = frozenset()

    def why_untested(self, index: int) -> str | None:
        """Why line ``index`` of ``result`` has no test to show, in words (as the report says
        it); None when it was tested, or is the baseline and has values."""
        if self.result is None or not self.untested:
            return None
        lines = self.result.systems
        if lines[index].name in self.untested:
            return "no values: not tested"
        if index > 0 and lines[0].name in self.untested:
            return "not tested: the baseline has no values"
        return None

    def tested(self, index: int) -> bool:
        """Whether line ``index`` of ``result`` has a p-value to show (the baseline has none)."""
        return self.result is not None and index > 0 and self.why_untested(index) is None

    def verdicts(self, alpha: float = ALPHA) -> tuple[Verdict, ...]:
        """Each line of ``result`` against the baseline (the first line's is None): better or
        worse at level ``alpha`` by the column's direction, None where not significant or not
        tested (:meth:`tested`)."""
        if self.result is None:
            return ()
        base = self.result.baseline.score
        return tuple(
            verdict(self.column, line.score, base, line.p_value, alpha) if self.tested(i) else None
            for i, line in enumerate(self.result.systems)
        )


def bonferroni_alpha(n_systems: int, alpha: float = ALPHA) -> float:
    """The level at which one pair of an all-pairs matrix of ``n_systems`` is significant
    with a Bonferroni correction: ``alpha`` over the number of pairs (0.05 / 10 for 5)."""
    return alpha / max(1, n_systems * (n_systems - 1) // 2)


def pairwise_verdict(
    column: ScoreColumn, result: PairwiseSignificance, a: int, b: int, alpha: float = ALPHA
) -> Verdict:
    """System ``a`` against system ``b`` in a pairwise matrix on ``column``."""
    if a == b:
        return None
    return verdict(column, result.scores[a], result.scores[b], result.p_values[a][b], alpha)


def _statistics(table: ScoreTable, key: str) -> tuple[list[AnyArray], ScoreFunction]:
    try:
        return table_statistics(table, key)
    except ValueError as why:
        raise NotTestable(str(why)) from None


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
    ``keys``, on ``rows`` (None: all rows) of a fully scored ``table``.

    ``test`` ``bs`` is :func:`~core.analysis.significance.paired_bootstrap` (default 1,000
    resamples); ``ar`` is :func:`~core.analysis.significance.paired_approximate_randomization`
    (default 10,000 trials) with 1,000 bootstrap resamples for the means and intervals, as
    sacreBLEU's tables show them. Every column uses the same ``seed``. ``cancel`` is passed on;
    ``progress`` receives the fraction of all columns done.
    """
    n_sys = len(table.systems)
    if n_sys < 2:
        raise ValueError("a paired test needs at least two systems")
    order = _ordered(n_sys, baseline)
    names = [table.systems[i] for i in order]
    count = n_samples or (DEFAULT_BOOTSTRAP_SAMPLES if test == "bs" else DEFAULT_AR_TRIALS)
    chosen = row_index(rows, table.n_segments)
    out: list[ColumnTest] = []
    for done, key in enumerate(keys):
        column = table.column_info(key)

        def part(fraction: float, done: int = done) -> None:
            if progress is not None:
                progress((done + fraction) / len(keys))

        try:
            stats, score = _statistics(table, key)
        except NotTestable as why:
            out.append(ColumnTest(column, None, str(why), 0))
            part(1.0)
            continue
        if chosen.size == 0:
            out.append(ColumnTest(column, None, "no rows are selected", 0))
            part(1.0)
            continue
        values = table.scores[:, chosen, table.metric_index(key)]
        incomplete = int(np.isnan(values).any(axis=0).sum())
        ordered = [stats[i] for i in order]
        result: SignificanceResult
        if test == "bs":
            result = paired_bootstrap(
                ordered,
                score,
                names=names,
                n_samples=count,
                seed=seed,
                rows=chosen,
                cancel=cancel,
                progress=part,
            )
        else:
            result = paired_approximate_randomization(
                ordered,
                score,
                names=names,
                n_samples=count,
                seed=seed,
                confidence_samples=DEFAULT_BOOTSTRAP_SAMPLES,
                rows=chosen,
                cancel=cancel,
                progress=part,
            )
        untested = frozenset(without_values(table, key, chosen))
        out.append(ColumnTest(column, result, None, int(chosen.size), incomplete, untested))
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
    """Every pair of systems tested on column ``key`` (systems in table order) with
    :func:`~core.analysis.significance.pairwise_significance`; a pair with a system without
    values on the rows (:func:`without_values`) has no p-value (None). Raises
    :class:`NotTestable`."""
    stats, score = _statistics(table, key)
    chosen = row_index(rows, table.n_segments)
    if chosen.size == 0:
        raise NotTestable("no rows are selected")
    result = pairwise_significance(
        stats,
        score,
        names=list(table.systems),
        test=test,
        n_samples=n_samples,
        seed=seed,
        rows=chosen,
        cancel=cancel,
        progress=progress,
    )
    empty = without_values(table, key, chosen)
    if not empty:
        return result
    names = result.names
    p_values = tuple(
        tuple(None if empty & {names[i], names[j]} else p for j, p in enumerate(row))
        for i, row in enumerate(result.p_values)
    )
    return replace(result, p_values=p_values)
