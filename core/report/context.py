"""What every section of the HTML report reads: the options, the annotations shown, and the
page's context.

:class:`ReportOptions` and :class:`ReportAnnotations` are what a caller asks for;
:class:`PageContext` is what is settled once per report before any section is written (the
selected rows and their order, the highlight mode, the chart column, the language check) and
handed to every section function (:mod:`~matchlight.core.report.summary`,
:mod:`~matchlight.core.report.pairwise`, :mod:`~matchlight.core.report.charts`,
:mod:`~matchlight.core.report.rows`). The small formatting helpers here (numbers, swatches,
which way is better) are shared by all of them, so every section writes a number alike.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field, fields
from typing import Final

from matchlight.core.analysis.buckets import DEFAULT_BOOTSTRAP
from matchlight.core.analysis.columnstats import ColumnTest
from matchlight.core.analysis.language import LanguageFlags, language_flags
from matchlight.core.analysis.selection import format_segments
from matchlight.core.analysis.significance import DEFAULT_BOOTSTRAP_SAMPLES, DEFAULT_SEED
from matchlight.core.annotation.model import ErrorSpan, SegmentScore, Side
from matchlight.core.annotation.mqm import DEFAULT_WEIGHTS, MQMWeights
from matchlight.core.annotation.typology import AnnotationMode
from matchlight.core.metrics.base import HighlightMode, ScoreColumn
from matchlight.core.report import palette
from matchlight.core.report.highlight import MAX_CHARS
from matchlight.core.report.svg import number_attr
from matchlight.core.scoring.results import ScoreTable
from matchlight.core.session.comparison import ComparisonSession

__all__ = [
    "DEFAULT_MAX_ROWS",
    "PageContext",
    "ReportAnnotations",
    "ReportError",
    "ReportOptions",
    "above_diagonal",
    "better_way",
    "describe_filter",
    "drawn_spans",
    "fmt_number",
    "num_cell",
    "or_nan",
    "primary_columns",
    "reference_names",
    "score_columns",
    "system_swatch",
]


#: Rows shown with their texts unless told otherwise: the page stays quick to open (each row
#: holds every reference and output with its highlights).
DEFAULT_MAX_ROWS: Final = 200


class ReportError(ValueError):
    """The report cannot be made as asked (an unknown highlight mode or column...)."""


@dataclass(frozen=True, slots=True)
class ReportOptions:
    """What goes into the report.

    ``max_rows`` caps the rows shown with their texts (0: every selected row); ``highlight``
    is the highlight mode of the rows (a key of ``config.highlight_modes()``; None: the first);
    ``chart_column`` the score column of the scatter and the bucket chart (None: the first
    metric's primary column); ``paired_bs`` runs sacreBLEU's paired bootstrap of every system
    against the baseline with ``bootstrap_samples`` resamples and ``seed``;
    ``bucket_samples`` are the resamples of the bucket intervals (seeded, compare-mt's rule).
    """

    title: str | None = None
    max_rows: int = DEFAULT_MAX_ROWS
    highlight: str | None = None
    chart_column: str | None = None
    paired_bs: bool = False
    bootstrap_samples: int = DEFAULT_BOOTSTRAP_SAMPLES
    seed: int = DEFAULT_SEED
    bucket_samples: int = DEFAULT_BOOTSTRAP
    max_chars: int = MAX_CHARS

    def __post_init__(self) -> None:
        if self.max_rows < 0:
            raise ReportError(
                f"the number of rows shown must be 0 (all) or more, not {self.max_rows}"
            )
        if self.bootstrap_samples < 1 or self.bucket_samples < 1:
            raise ReportError("the number of bootstrap resamples must be at least 1")
        if self.max_chars < 1:
            raise ReportError("at least one character of each text must be shown")


@dataclass(frozen=True, slots=True)
class ReportAnnotations:
    """The annotation work shown in a report, as read from a session file.

    ``spans`` are on the current lines (re-anchored); ``unplaced`` are spans that could not be
    found on them any more (counted, not drawn). ``mode`` names the section (MQM or ESA),
    ``origin`` says where the annotations came from (the session file) and ``notes`` are
    warnings shown with them.
    """

    spans: tuple[ErrorSpan, ...] = ()
    scores: tuple[SegmentScore, ...] = ()
    weights: MQMWeights = DEFAULT_WEIGHTS
    mode: AnnotationMode = AnnotationMode.MQM
    unplaced: tuple[ErrorSpan, ...] = ()
    origin: str | None = None
    notes: tuple[str, ...] = field(default_factory=tuple)


# -- small helpers --------------------------------------------------------------------------------


def fmt_number(value: float, digits: int = 2) -> str:
    """``value`` with ``digits`` decimals, a dash for NaN or infinity."""
    return "–" if not math.isfinite(value) else f"{value:.{digits}f}"


def or_nan(value: float | None) -> float:
    """``value``, NaN for None."""
    return math.nan if value is None else value


def num_cell(value: float, attrs: str, digits: int = 2) -> str:
    """A right-aligned table cell of ``value``, its exact value in ``data-value``."""
    shown = fmt_number(value, digits)
    return f'<td class="num" {attrs} data-value="{number_attr(value)}">{shown}</td>'


def drawn_spans(spans: Sequence[ErrorSpan]) -> list[ErrorSpan]:
    """The spans drawn on an output's text: those on the output (a source span is listed only)."""
    return [span for span in spans if span.side is Side.TARGET]


def better_way(column: ScoreColumn) -> str:
    """``higher is better`` or ``lower is better`` for ``column`` (an MQM penalty, TER)."""
    return f"{'higher' if column.higher_is_better else 'lower'} is better"


def above_diagonal(column: ScoreColumn) -> str:
    """What a point above a scatter's diagonal means on ``column``."""
    return "better" if column.higher_is_better else "worse (lower is better)"


def system_swatch(system: int) -> str:
    """The colour swatch of system ``system``, as the app draws it."""
    return f'<span class="swatch" style="background:{palette.system_colour(system)}"></span>'


def score_columns(table: ScoreTable) -> list[ScoreColumn]:
    """The columns summarised: headline scores of the scored metrics, then added columns."""
    return [
        c for c in table.columns if c.kind == "score" and (c.headline or c.key in table.external)
    ]


def primary_columns(table: ScoreTable) -> list[ScoreColumn]:
    """The primary score column of each scored metric."""
    return [c for c in table.columns if c.primary and c.kind == "score"]


def _chart_column(table: ScoreTable, wanted: str | None) -> ScoreColumn | None:
    if wanted is not None:
        if not table.has(wanted) or table.column_info(wanted).kind != "score":
            keys = ", ".join(c.key for c in table.columns if c.kind == "score")
            raise ReportError(f"no score column {wanted!r} to chart; choose from {keys}")
        return table.column_info(wanted)
    primary = primary_columns(table)
    return primary[0] if primary else None


def _highlight_mode(session: ComparisonSession, wanted: str | None) -> HighlightMode | None:
    modes = session.config.highlight_modes()
    if wanted is None:
        return modes[0] if modes else None
    for mode in modes:
        if mode.key == wanted:
            return mode
    names = ", ".join(m.key for m in modes) or "none"
    raise ReportError(f"unknown highlight mode {wanted!r}; the scored metrics offer {names}")


def describe_filter(item: object) -> str:
    """A filter or sort of a selection in words: its kind and its non-empty fields."""
    values = {f.name: getattr(item, f.name) for f in fields(item)}  # type: ignore[arg-type]
    shown = {k: v for k, v in values.items() if v not in (None, (), "")}
    if "rows" in shown:
        shown["rows"] = format_segments(shown["rows"])
    kind = getattr(item, "kind", type(item).__name__.lower())
    if kind == "segments":
        return f"segments {shown.get('spec', '')}"
    return f"{kind}: " + ", ".join(f"{k} = {v!r}" for k, v in shown.items())


def reference_names(session: ComparisonSession) -> tuple[str, ...]:
    """How annotations name the references: the input names when the files are known."""
    if session.comparison is not None:
        return tuple(c.name for c in session.comparison.references)
    return session.reference_names


class PageContext:
    """What every section of one report reads: the session, its score table, the rows
    selected and their order, the options, and what was settled before (highlight mode, chart
    column, significance, language check)."""

    def __init__(
        self,
        session: ComparisonSession,
        annotations: ReportAnnotations | None,
        options: ReportOptions,
        significance: Sequence[ColumnTest] | None,
        language: LanguageFlags | None = None,
    ) -> None:
        self.session = session
        self.table = session.table
        self.annotations = annotations
        self.options = options
        self.rows = session.selected_rows()
        self.order = session.view_order()
        self.filtered = len(self.rows) != session.n_segments
        self.mode = _highlight_mode(session, options.highlight)
        self.chart = _chart_column(self.table, options.chart_column)
        self.significance = significance
        if not self.table.complete:
            raise ReportError(
                f"only {self.table.n_done} of {self.table.n_segments} rows are scored; "
                "a report needs every row scored"
            )
        self.language = language or language_flags(session.text, session.source)  # (uncancelled)

    def wants_significance(self) -> bool:
        """Whether the page has a significance section: tests given, or asked for."""
        return self.significance is not None or self.options.paired_bs

    def order_text(self) -> str:
        """The selection's sort in words: "file order", "by BLEU of A, highest first"..."""
        sort = self.session.selection.sort
        way = "highest first" if sort.descending else "lowest first"
        if sort.key == "segment":
            return "reverse file order" if sort.descending else "file order"
        names = self.table.systems
        if self.table.has(sort.key) and sort.system is not None:
            what = f"{self.table.column_info(sort.key).label} of {names[sort.system]}"
            if sort.baseline is not None:
                what += f" minus {names[sort.baseline]}"
            return f"by {what}, {way}"
        way = "Z to A" if sort.descending else "A to Z"
        return f"by the text of {sort.key}, {way}"
