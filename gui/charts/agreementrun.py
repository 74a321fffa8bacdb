"""What the "Human agreement" tab compares and computes (no widgets).

:func:`human_choices` lists the human sides a comparison offers (its human columns per segment,
its judgements per system), :func:`metric_choices` the score columns that can be meta-evaluated
against one, and :func:`compute_agreement` is the tab's background job: core's
:mod:`~core.analysis.metaeval` on the chosen rows, plus each metric's corpus figure and the human
score per system for the scatter, in one :class:`AgreementRun`.
"""

import math
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Final, Literal

import numpy as np
import numpy.typing as npt
from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication

from matchlight.core.analysis.metaeval import metaevaluate, metaevaluate_table, metric_columns
from matchlight.core.analysis.metatypes import (
    SEGMENT_STATISTICS,
    SYSTEM_STATISTICS,
    Estimate,
    HumanColumn,
    MetaEvalResult,
    MetaEvalSettings,
)
from matchlight.core.metrics.base import ScoreColumn
from matchlight.core.scoring.results import ScoreTable
from matchlight.core.session.comparison import ComparisonSession
from matchlight.gui.charts.jobs import JobCancelled
from matchlight.gui.charts.link import chart_columns

__all__ = [
    "HUMAN_METRICS",
    "LABELS",
    "MEANINGS",
    "QUICK",
    "STATISTICS",
    "AgreementRun",
    "HumanChoice",
    "Level",
    "compute_agreement",
    "format_estimate",
    "human_choices",
    "metric_choices",
]

FloatArray = npt.NDArray[np.float64]
Level = Literal["system", "segment"]

# The ``metric`` of columns that hold human judgements (imported ones, MQM and ESA from the
# annotations): offered as the human side, never as a metric.
HUMAN_METRICS: Final = frozenset({"human", "mqm", "esa"})
# Point values only: no intervals, no permutation tests.
QUICK: Final = MetaEvalSettings(confidence_samples=0, permutations=0)
# Statistics as the table heads them, and what each one is.
LABELS: Final = {
    "pearson": "Pearson",
    "spearman": "Spearman",
    "kendall": "Kendall",
    "pairwise_accuracy": "Acc",
    "spa": "SPA",
    "kendall_b": "Kendall τb",
    "acc23_item": "acc23",
}
_MEANINGS: Final = {
    "pearson": QT_TRANSLATE_NOOP("agreement", "Pearson correlation"),
    "spearman": QT_TRANSLATE_NOOP("agreement", "Spearman rank correlation"),
    "kendall": QT_TRANSLATE_NOOP("agreement", "Kendall tau-b"),
    "pairwise_accuracy": QT_TRANSLATE_NOOP(
        "agreement",
        "pairwise accuracy (Kocmi et al. 2021): the share of system pairs "
        "the metric orders as the humans do",
    ),
    "spa": QT_TRANSLATE_NOOP(
        "agreement",
        "soft pairwise accuracy (WMT24): pairwise accuracy weighted by how sure both "
        "sides are (needs every pair judged)",
    ),
    "kendall_b": QT_TRANSLATE_NOOP(
        "agreement", "Kendall tau-b over all judged (system, segment) pairs"
    ),
    "acc23_item": QT_TRANSLATE_NOOP(
        "agreement",
        "acc23 (Deutsch et al. 2023): pairwise accuracy with ties, with the "
        "metric's optimised tie threshold, averaged over segments",
    ),
}


class _Meanings(Mapping[str, str]):
    """What each statistic is, in the interface language (read where it is shown)."""

    def __getitem__(self, statistic: str) -> str:
        return QCoreApplication.translate("agreement", _MEANINGS[statistic])

    def __iter__(self) -> Iterator[str]:
        return iter(_MEANINGS)

    def __len__(self) -> int:
        return len(_MEANINGS)


MEANINGS: Final = _Meanings()
STATISTICS: Final[dict[Level, tuple[str, ...]]] = {
    "system": SYSTEM_STATISTICS,
    "segment": SEGMENT_STATISTICS,
}


# -- what is compared ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True, eq=False)
class HumanChoice:
    """One human judgement the tab can compare the metrics with.

    ``id`` is ``column:KEY`` for a column of the score table (per segment), or ``system:NAME``
    for judgements per system held by the comparison session. ``column`` gives the direction,
    and ``values`` are the per-system scores of a judgement per system.
    """

    id: str
    label: str
    level: Level
    column: ScoreColumn
    key: str | None = None
    values: FloatArray | None = None


def human_choices(core: ComparisonSession) -> list[HumanChoice]:
    """The human sides on offer: the comparison's human columns (MQM, ESA, imported human
    judgements), other imported columns after them, then its judgements per system."""
    table = core.table
    columns = [
        c
        for c in table.columns
        if c.kind == "score" and (c.metric in HUMAN_METRICS or c.key in table.external)
    ]
    columns.sort(key=lambda c: c.metric not in HUMAN_METRICS)
    out = [
        HumanChoice(
            f"column:{c.key}",
            QCoreApplication.translate("agreement", "{0} (per segment)").format(c.label),
            "segment",
            c,
            key=c.key,
        )
        for c in columns
    ]
    out += [
        HumanChoice(
            f"system:{j.name}",
            QCoreApplication.translate("agreement", "{0} (per system)").format(j.name),
            "system",
            j.column,
            values=j.values,
        )
        for j in core.system_judgements()
    ]
    return out


def metric_choices(table: ScoreTable, human: HumanChoice | None) -> list[ScoreColumn]:
    """The score columns that can be meta-evaluated: every chart column but human ones."""
    key = None if human is None else human.key
    return [c for c in chart_columns(table) if c.metric not in HUMAN_METRICS and c.key != key]


@dataclass(frozen=True, slots=True, eq=False)
class AgreementRun:
    """What one run computed, and on which rows.

    ``corpus[name]`` is each metric's corpus figure per system of ``result.systems`` (the
    systems with a human score) over the rows, and ``human_scores`` the human score of each on
    its own scale: the judgement per system, or the mean of the judged segments. ``left_out``
    lists the metrics that could not be compared, with the reason.
    """

    result: MetaEvalResult
    human: HumanChoice
    metrics: tuple[ScoreColumn, ...]
    corpus: Mapping[str, tuple[float, ...]]
    human_scores: tuple[float, ...]
    left_out: tuple[str, ...]
    n_rows: int
    filtered: bool
    full: bool
    fingerprint: tuple[object, ...] = ()


def _expected_polls(n_metrics: int, segment: bool, settings: MetaEvalSettings) -> int:
    """How often :func:`~core.analysis.metaeval.metaevaluate` polls its cancel function: once
    per statistic of each metric, then once per pair of metrics per ranked statistic."""
    per_metric = len(SYSTEM_STATISTICS) + (len(SEGMENT_STATISTICS) if segment else 0)
    polls = n_metrics * per_metric
    if settings.permutations > 0 and n_metrics > 1:
        pairs = n_metrics * (n_metrics - 1) // 2
        polls += 1 + pairs * per_metric
    return max(1, polls)


def compute_agreement(
    table: ScoreTable,
    metric_keys: Sequence[str],
    human: HumanChoice,
    *,
    rows: npt.ArrayLike,
    settings: MetaEvalSettings,
    filtered: bool = False,
    cancelled: Callable[[], bool] = lambda: False,
    progress: Callable[[float], None] = lambda fraction: None,
) -> AgreementRun:
    """The tab's numbers (a pure function of core data, run in the background job): the
    metrics ``metric_keys`` of a fully scored ``table`` against ``human`` on ``rows``.

    A column is meta-evaluated by :func:`~core.analysis.metaeval.metaevaluate_table`. Judgements
    per system go to :func:`~core.analysis.metaeval.metaevaluate`, turned higher-is-better. A
    metric without a value where humans judged is left out and named. ValueError says why
    nothing can be compared.
    """
    index = np.asarray(rows, dtype=np.int64)
    human_values = None if human.key is None else table.scores[:, :, table.metric_index(human.key)]
    keys: list[str] = []
    labels: set[str] = set()
    left_out: list[str] = []
    for key in metric_keys:
        column = table.column_info(key)
        if column.label in labels:
            left_out.append(
                QCoreApplication.translate(
                    "agreement", "{label} ({key}): another column has that name"
                ).format(label=column.label, key=key)
            )
            continue
        values = table.scores[:, index, table.metric_index(key)]
        if human_values is not None:
            missing = np.isnan(values) & ~np.isnan(human_values[:, index])
        else:
            assert human.values is not None
            missing = np.isnan(values).all(axis=1) & ~np.isnan(human.values)
        if missing.any():
            left_out.append(
                QCoreApplication.translate("agreement", "{0}: no value where humans judged").format(
                    column.label
                )
            )
            continue
        keys.append(key)
        labels.add(column.label)
    if not keys:
        raise ValueError(
            QCoreApplication.translate(
                "agreement", "no metric has a value wherever the humans judged"
            )
        )
    polls = [0]
    expected = _expected_polls(len(keys), human.level == "segment", settings)

    def poll() -> bool:
        if cancelled():
            raise JobCancelled
        polls[0] += 1
        progress(min(0.99, polls[0] / expected))
        return False

    if human.key is not None:
        result = metaevaluate_table(
            table, keys, human.key, rows=index, settings=settings, cancel=poll
        )
    else:
        assert human.values is not None
        result = metaevaluate(
            metric_columns(table, keys),
            HumanColumn(human.column.label, systems=human.column.oriented(human.values)),
            systems=table.systems,
            rows=index,
            settings=settings,
            cancel=poll,
        )
    where = [table.systems.index(s) for s in result.systems]
    figures = [table.corpus(s, index, metrics=keys) for s in where]
    corpus = {table.column_info(k).label: tuple(f.value(k) for f in figures) for k in keys}
    if human_values is not None:
        with np.errstate(invalid="ignore"):
            judged = human_values[where][:, index]
            scores = tuple(float(np.nanmean(r)) for r in judged)
    else:
        assert human.values is not None
        scores = tuple(float(human.values[s]) for s in where)
    progress(1.0)
    return AgreementRun(
        result,
        human,
        tuple(table.column_info(k) for k in keys),
        corpus,
        scores,
        tuple(left_out),
        int(index.size),
        filtered,
        full=settings != QUICK,
    )


def format_estimate(
    estimate: Estimate | None, cluster: int | None = None, *, interval: bool = True
) -> str:
    """``0.777 (2)`` and, on a second line, ``[0.700, 0.822]`` (with ``interval``); ``–`` for
    no value."""
    if estimate is None or not math.isfinite(estimate.value):
        return "–"
    text = f"{estimate.value:.3f}"
    if cluster is not None:
        text += f" ({cluster})"
    if interval and estimate.low is not None and estimate.high is not None:
        text += f"\n[{estimate.low:.3f}, {estimate.high:.3f}]"
    return text
