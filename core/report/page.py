"""The HTML report of a :class:`~core.session.comparison.ComparisonSession`, as one string.

Every figure comes from core, computed here from the session's score table: corpus figures per
system (:meth:`ScoreTable.corpus`, over all rows and over the selected rows) with the
signatures; histograms, a system-vs-system scatter and bucket means with bootstrap intervals
(:mod:`core.analysis.buckets`) as inline SVG (:mod:`core.report.svg`); sacreBLEU's paired
bootstrap against the baseline (:mod:`core.analysis.significance`) when asked, with the
systems ranked into significance clusters per column (:mod:`core.analysis.clusters`) and every
pair's p-value; a warning when a reference looks made from one system's output
(:func:`core.analysis.references.reference_leaks`); MQM per system
(:mod:`core.annotation.mqm`); and the selected rows with the highlight spans of
:class:`~core.scoring.detail.RowDetailer` and the error spans of the annotations.

The page is self-contained: styles inline, no script, no link, image or font to fetch, and a
Content-Security-Policy that forbids loading anything at all, so it opens the same with no
network. System names, file names and texts are user data: they only ever reach the page
through :func:`~core.report.highlight.esc`. The rows shown are capped (:data:`DEFAULT_MAX_ROWS`,
and the page says so); the figures and charts always cover every selected row.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, fields
from datetime import UTC, datetime
from typing import Final

import numpy as np
import numpy.typing as npt

from matchlight.core import __version__
from matchlight.core.analysis.buckets import (
    DEFAULT_BOOTSTRAP,
    BucketTable,
    bucket_corpus,
    bucket_means,
    length_buckets,
)
from matchlight.core.analysis.clusters import (
    SIGNIFICANCE_THRESHOLD,
    SystemClusters,
    rank_clusters,
)
from matchlight.core.analysis.columnstats import (
    ALPHA,
    ColumnTest,
    NotTestable,
    bonferroni_alpha,
    pairwise_for_column,
    significance_by_column,
    without_values,
)
from matchlight.core.analysis.language import LanguageFlags, language_flags
from matchlight.core.analysis.references import reference_leaks
from matchlight.core.analysis.scales import (
    clip_to_bounds,
    corpus_decimals,
    display_bounds,
    score_edges,
)
from matchlight.core.analysis.selection import Selection, format_segments
from matchlight.core.analysis.significance import (
    DEFAULT_BOOTSTRAP_SAMPLES,
    DEFAULT_SEED,
    PairwiseSignificance,
    signature_with,
    table_statistics,
)
from matchlight.core.annotation.model import ErrorSpan, SegmentScore, Side, Status
from matchlight.core.annotation.mqm import (
    DEFAULT_WEIGHTS,
    MQMWeights,
    compare_segment_sets,
    mqm_summary,
    segment_mqm,
    system_esa,
    system_mqm,
)
from matchlight.core.annotation.typology import AnnotationMode
from matchlight.core.metrics.base import HighlightMode, ScoreColumn
from matchlight.core.metrics.registry import METRICS
from matchlight.core.metrics.signature import format_signature
from matchlight.core.report import palette
from matchlight.core.report.highlight import MAX_CHARS, SEVERITY_ORDER, esc, highlighted_html
from matchlight.core.report.svg import bucket_svg, histogram_svg, number_attr, scatter_svg
from matchlight.core.scoring.advice import detect_script, has_sentence_marker, scoring_advice
from matchlight.core.scoring.config import ScoringConfig
from matchlight.core.scoring.detail import RowDetail, RowDetailer
from matchlight.core.scoring.results import ScoreTable
from matchlight.core.session.comparison import ComparisonSession
from matchlight.core.text.tokenizers import bleu_tokenizer

__all__ = [
    "DEFAULT_MAX_ROWS",
    "HISTOGRAM_EDGES",
    "ReportAnnotations",
    "ReportError",
    "ReportOptions",
    "render_report",
    "report_significance",
]

#: Rows shown with their texts unless told otherwise: the page stays quick to open (each row
#: holds every reference and output with its highlights).
DEFAULT_MAX_ROWS: Final = 200
#: Histogram bins of a 0-100 score: twenty bins of five points, as the app's summary (a column
#: on another scale is binned over its own, :func:`~core.analysis.scales.score_edges`).
HISTOGRAM_EDGES: Final = tuple(float(e) for e in np.linspace(0.0, 100.0, 21))

_CSP: Final = (
    "default-src 'none'; style-src 'unsafe-inline'; img-src 'none'; font-src 'none'; "
    "connect-src 'none'; form-action 'none'; base-uri 'none'"
)


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


def _fmt(value: float, digits: int = 2) -> str:
    return "–" if not math.isfinite(value) else f"{value:.{digits}f}"


def _or_nan(value: float | None) -> float:
    return math.nan if value is None else value


def _num_cell(value: float, attrs: str, digits: int = 2) -> str:
    return f'<td class="num" {attrs} data-value="{number_attr(value)}">{_fmt(value, digits)}</td>'


def _without_values(table: ScoreTable, key: str, rows: npt.ArrayLike | None) -> set[str]:
    """The systems a paired test has nothing to compare for (core.analysis.columnstats')."""
    return without_values(table, key, rows)


def _drawn(spans: Sequence[ErrorSpan]) -> list[ErrorSpan]:
    """The spans drawn on an output's text: those on the output (a source span is listed only)."""
    return [span for span in spans if span.side is Side.TARGET]


def _way(column: ScoreColumn) -> str:
    """``higher is better`` or ``lower is better`` for ``column`` (an MQM penalty, TER)."""
    return f"{'higher' if column.higher_is_better else 'lower'} is better"


def _above(column: ScoreColumn) -> str:
    """What a point above a scatter's diagonal means on ``column``."""
    return "better" if column.higher_is_better else "worse (lower is better)"


def _swatch(system: int) -> str:
    return f'<span class="swatch" style="background:{palette.system_colour(system)}"></span>'


def _score_columns(table: ScoreTable) -> list[ScoreColumn]:
    """The columns summarised: headline scores of the scored metrics, then added columns."""
    return [
        c for c in table.columns if c.kind == "score" and (c.headline or c.key in table.external)
    ]


def _primary_columns(table: ScoreTable) -> list[ScoreColumn]:
    return [c for c in table.columns if c.primary and c.kind == "score"]


def _chart_column(table: ScoreTable, wanted: str | None) -> ScoreColumn | None:
    if wanted is not None:
        if not table.has(wanted) or table.column_info(wanted).kind != "score":
            keys = ", ".join(c.key for c in table.columns if c.kind == "score")
            raise ReportError(f"no score column {wanted!r} to chart; choose from {keys}")
        return table.column_info(wanted)
    primary = _primary_columns(table)
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


def _describe(item: object) -> str:
    """A filter or sort of a selection in words: its kind and its non-empty fields."""
    values = {f.name: getattr(item, f.name) for f in fields(item)}  # type: ignore[arg-type]
    shown = {k: v for k, v in values.items() if v not in (None, (), "")}
    if "rows" in shown:
        shown["rows"] = format_segments(shown["rows"])
    kind = getattr(item, "kind", type(item).__name__.lower())
    if kind == "segments":
        return f"segments {shown.get('spec', '')}"
    return f"{kind}: " + ", ".join(f"{k} = {v!r}" for k, v in shown.items())


def _reference_names(session: ComparisonSession) -> tuple[str, ...]:
    """How annotations name the references: the input names when the files are known."""
    if session.comparison is not None:
        return tuple(c.name for c in session.comparison.references)
    return session.reference_names


# -- significance ---------------------------------------------------------------------------------


def report_significance(
    session: ComparisonSession,
    rows: npt.ArrayLike | None = None,
    *,
    n_samples: int = DEFAULT_BOOTSTRAP_SAMPLES,
    seed: int = DEFAULT_SEED,
) -> tuple[ColumnTest, ...]:
    """sacreBLEU's paired bootstrap of every system against the session's baseline, for the
    columns of the summary: headline and added scores
    (:func:`~core.analysis.columnstats.significance_by_column`; a column that cannot be tested
    says why). ``rows``: the rows tested (default: all)."""
    table = session.table
    if len(table.systems) < 2:
        return ()
    keys = [column.key for column in _score_columns(table)]
    return significance_by_column(
        table, keys, baseline=session.baseline, rows=rows, n_samples=n_samples, seed=seed
    )


# -- the page -------------------------------------------------------------------------------------


_STYLE: Final = """
:root { color-scheme: light; }
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; color: #1b1b1b;
  background: #fff; margin: 0 auto; padding: 16px 24px 48px; max-width: 1200px; }
h1 { font-size: 22px; margin: 0 0 4px; }
h2 { font-size: 18px; margin: 28px 0 8px; border-bottom: 1px solid #ddd; padding-bottom: 3px; }
h3 { font-size: 15px; margin: 16px 0 6px; }
nav a { margin-right: 12px; }
a { color: #0b5cad; }
.meta, .note { color: #555; font-size: 13px; }
.meta dt { font-weight: 600; float: left; clear: left; width: 150px; }
.meta dd { margin: 0 0 2px 160px; overflow-wrap: anywhere; }
table { border-collapse: collapse; margin: 6px 0 10px; }
caption { caption-side: top; text-align: left; color: #555; font-size: 13px; padding: 2px 0; }
th, td { border-bottom: 1px solid #e4e4e4; padding: 3px 9px; text-align: left;
  vertical-align: top; }
th { background: #f4f6f8; font-weight: 600; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
td.name { overflow-wrap: anywhere; max-width: 320px; }
tr.baseline td { background: #f7fbff; }
.sig { font-weight: 700; }
tr.cluster-start td { border-top: 2px solid #9aa5b1; }
table.clusters td.rank { font-weight: 700; }
details.pairs summary { cursor: pointer; color: #333; font-size: 13px; }
code, .sigs dd { font-family: ui-monospace, "DejaVu Sans Mono", monospace; font-size: 12px; }
.sigs dt { font-weight: 600; } .sigs dd { margin: 0 0 6px 16px; overflow-wrap: anywhere; }
.warn { background: #fff4e5; border-left: 4px solid #e69f00; padding: 6px 10px; margin: 8px 0; }
.swatch { display: inline-block; width: 10px; height: 10px; border-radius: 2px;
  margin-right: 6px; vertical-align: baseline; }
.charts { display: flex; flex-wrap: wrap; gap: 8px 16px; align-items: flex-start; }
figure { margin: 4px 0 12px; } figcaption { font-size: 13px; color: #333; margin-bottom: 2px; }
svg.chart text { font-size: 10px; fill: #333; }
svg.chart .chart-title, svg.chart .axis-label { font-size: 11px; fill: #111; }
.legend span.key { margin-right: 14px; white-space: nowrap; }
article.seg { content-visibility: auto; contain-intrinsic-size: auto 320px;
  border: 1px solid #e1e4e8; border-radius: 6px; padding: 6px 12px 8px;
  margin: 10px 0; }
article.seg h3 { margin: 2px 0 6px; font-size: 14px; }
.line { display: grid; grid-template-columns: 170px 1fr; gap: 2px 12px; padding: 3px 0;
  border-top: 1px dotted #eee; }
.line:first-of-type { border-top: none; }
.role { color: #555; font-size: 12px; overflow-wrap: anywhere; }
.text { white-space: pre-wrap; overflow-wrap: anywhere; }
.scores { grid-column: 2; font-size: 12px; color: #444; }
.scores span { margin-right: 12px; }
.sigtests { display: flex; flex-wrap: wrap; gap: 0 28px; }
.sigtest h3 { margin-top: 8px; }
.sigtest .note { max-width: 460px; overflow-wrap: anywhere; }
ol.errors { grid-column: 2; margin: 2px 0 0; padding-left: 22px; font-size: 12px; }
.uu { text-decoration: underline wavy #UNMATCHED; text-decoration-skip-ink: none; }
.ux { text-decoration: underline dashed #MISSEDLINE; text-decoration-skip-ink: none; }
.ul { text-decoration: underline solid #LCSLINE; text-decoration-skip-ink: none; }
.tx { background: #MISSEDTINT; color: #TINTTEXT; }
.tl { background: #LCSTINT; color: #TINTTEXT; }
.err { border: 2px solid; border-radius: 3px; padding: 0 1px; box-decoration-break: clone;
  -webkit-box-decoration-break: clone; }
.err.undecided { border-style: dashed; }
.sev-neutral { border-color: #8a8a8a; color: inherit; }
.sev-minor { border-color: #e69f00; }
.sev-major { border-color: #d55e00; }
.sev-critical { border-color: #9b0000; }
sup.enum { font-size: 10px; font-weight: 700; margin: 0 1px; }
sup.sev-minor { color: #a86f00; } sup.sev-major { color: #c04f00; }
sup.sev-critical { color: #9b0000; } sup.sev-neutral { color: #666; }
.omit { font-weight: 700; color: #9b0000; }
.cut { color: #777; font-style: italic; }
"""


def _style(mode: HighlightMode | None) -> str:
    css = (
        _STYLE.replace("#UNMATCHED", palette.UNMATCHED_LINE)
        .replace("#MISSEDLINE", palette.MISSED_LINE)
        .replace("#LCSLINE", palette.LCS_LINE)
        .replace("#MISSEDTINT", palette.MISSED_TINT)
        .replace("#LCSTINT", palette.LCS_TINT)
        .replace("#TINTTEXT", palette.TINT_TEXT)
    )
    if mode is not None:
        for level in range(1, mode.max_level + 1):
            tint = palette.match_tint(level, mode.max_level)
            css += f".m{level} {{ background: {tint}; color: {palette.tint_text(tint)}; }}\n"
    return css


class _Page:
    """Builds the sections of one report (one use)."""

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

    # -- sections ---------------------------------------------------------------------------

    def html(self) -> str:
        session = self.session
        title = self.options.title or "Matchlight report: " + ", ".join(session.system_names)
        body = [
            self._header(title),
            self._summary(),
            self._language(),
            self._significance(),
            self._mqm(),
            self._charts(),
            self._rows(),
        ]
        return (
            "<!DOCTYPE html>\n"
            '<html lang="en"><head><meta charset="utf-8">'
            f'<meta http-equiv="Content-Security-Policy" content="{_CSP}">'
            '<meta name="referrer" content="no-referrer">'
            '<meta name="viewport" content="width=device-width, initial-scale=1">'
            f"<title>{esc(title)}</title><style>{_style(self.mode)}</style></head>\n<body>\n"
            + "\n".join(part for part in body if part)
            + "\n</body></html>\n"
        )

    def _header(self, title: str) -> str:
        session = self.session
        table = self.table
        items: list[tuple[str, str]] = [
            (
                "Generated",
                esc(datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"))
                + f" by Matchlight {esc(__version__)}",
            ),
            ("Segments", f"{session.n_segments:,}"),
            (
                "Systems",
                ", ".join(
                    f"{_swatch(s)}{esc(name)}" + (" (baseline)" if s == session.baseline else "")
                    for s, name in enumerate(table.systems)
                ),
            ),
            ("References", ", ".join(esc(n) for n in session.reference_names)),
        ]
        comparison = session.comparison
        if comparison is not None:
            roles = [("source", c) for c in (comparison.source,) if c is not None]
            roles += [("reference", c) for c in comparison.references]
            roles += [("system", c) for c in comparison.systems]
            for role, column in roles:
                items.append(
                    (f"Input ({role})", f"{esc(column.name)}: <code>{esc(column.path)}</code>")
                )
        if self.annotations is not None and self.annotations.origin:
            items.append(("Session", f"<code>{esc(self.annotations.origin)}</code>"))
        if self.filtered or session.selection.filters:
            described = "; ".join(_describe(f) for f in session.selection.filters)
            items.append(
                (
                    "Selection",
                    f"{len(self.rows):,} of {session.n_segments:,} segments"
                    + (f" ({esc(described)})" if described else ""),
                )
            )
        sort = session.selection.sort
        if sort != Selection().sort:
            items.append(("Row order", esc(self._order_text())))
        meta = "".join(f"<dt>{k}</dt><dd>{v}</dd>" for k, v in items)
        nav = "".join(
            f'<a href="#{anchor}">{label}</a>'
            for anchor, label in (
                ("summary", "Summary"),
                ("language", "Language"),
                ("significance", "Significance"),
                ("mqm", "MQM"),
                ("charts", "Charts"),
                ("rows", "Rows"),
            )
            if (anchor != "significance" or self._wants_significance())
            and (anchor != "mqm" or self.annotations is not None)
        )
        warnings = "".join(
            f'<p class="warn">{esc(advice.message)}</p>'
            for advice in scoring_advice(
                table,
                script=detect_script(session.text.references),
                has_marker=has_sentence_marker(session.text.references),
            )
        )
        text = session.text
        warnings += "".join(
            f'<p class="warn" data-warning="reference-leak">{esc(message)}</p>'
            for message in reference_leaks(
                references=text.references,
                systems=text.systems,
                reference_names=session.reference_names,
                system_names=text.system_names,
            )
        )
        return (
            f'<header><h1>{esc(title)}</h1><dl class="meta">{meta}</dl>'
            f"<nav>{nav}</nav>{warnings}</header>"
        )

    def _order_text(self) -> str:
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

    def _summary(self) -> str:
        table = self.table
        columns = _score_columns(table)
        details = [k for k in table.metric_keys if k == "bleu"]
        head = "".join(
            f'<th class="num" title="{esc(c.description)}">{esc(c.short)}</th>' for c in columns
        )
        head += "".join(f"<th>{esc(METRICS[k].label)} detail</th>" for k in details)
        blocks: list[tuple[str, npt.NDArray[np.int64] | None, str]] = [
            ("all", None, f"All {table.n_segments:,} segments")
        ]
        if self.filtered:
            blocks.append(("selected", self.rows, f"Selected {len(self.rows):,} segments"))
        parts = ['<section id="summary"><h2>Corpus scores</h2>']
        for key, rows, caption in blocks:
            parts.append(
                f'<table class="summary" data-rows="{key}"><caption>{caption}'
                f'</caption><thead><tr><th>System</th><th class="num">Segments</th>{head}'
                "</tr></thead><tbody>"
            )
            for s, name in enumerate(table.systems):
                corpus = table.corpus(s, rows)
                base = ' class="baseline"' if s == self.session.baseline else ""
                cells = "".join(
                    _num_cell(
                        corpus.values.get(c.key, math.nan),
                        f'data-system="{s}" data-column="{esc(c.key)}"',
                        corpus_decimals(c),
                    )
                    for c in columns
                )
                for k in details:
                    describe = getattr(corpus.details.get(k), "describe", None)
                    cells += (
                        f"<td><code>{esc(describe() if callable(describe) else '')}</code></td>"
                    )
                parts.append(
                    f'<tr{base} data-system="{s}"><td class="name">{_swatch(s)}{esc(name)}</td>'
                    f'<td class="num">{corpus.n_segments:,}</td>{cells}</tr>'
                )
            parts.append("</tbody></table>")
        parts.append(
            '<p class="note">Corpus BLEU and chrF come from the summed segment '
            "statistics (as sacreBLEU's corpus scores), ROUGE is the mean of the "
            "segment scores (as rouge-score's averaging).</p>"
        )
        parts.append('<dl class="sigs">')
        for name, signature in table.signatures().items():
            parts.append(f"<dt>{esc(name)}</dt><dd>{esc(signature)}</dd>")
        parts.append("</dl></section>")
        return "".join(parts)

    def _language(self) -> str:
        """Per system, outputs in another language than the references and outputs copying the
        source (:mod:`core.analysis.language`), over all rows and the selected ones."""
        flags = self.language
        if flags is None:
            return ""
        expectation = flags.expectation
        scopes: list[tuple[str, npt.NDArray[np.int64] | None]] = [("all", None)]
        if self.filtered:
            scopes.append(("selected", self.rows))
        head = "".join(
            f'<th class="num">{what} ({scope} rows)</th>'
            for scope, _rows in scopes
            for what in ("Another language", "Copies the source")
        )
        parts = [
            '<section id="language"><h2>Language check</h2><p class="note">',
            (
                f"Outputs in another language than the references "
                f"(<code>{esc(expectation.language)}</code>, told by py3langid; lines too "
                "short to tell are never counted)"
                if expectation is not None
                else "The references are in no clear language: outputs were not checked for it"
            ),
            " and outputs that copy the source (numbers, URLs, names and rows whose reference "
            "keeps the source do not count). Neural metrics are known to score such output "
            "highly.</p>",
            f'<table class="language"><thead><tr><th>System</th>{head}</tr></thead><tbody>',
        ]
        counts = {scope: flags.counts(rows) for scope, rows in scopes}
        for s, name in enumerate(flags.systems):
            cells = ""
            for scope, _rows in scopes:
                wrong, copies = counts[scope][s]
                for column, value, known in (
                    ("wrong_language", wrong, expectation is not None),
                    ("copies_source", copies, flags.has_source),
                ):
                    shown = f"{value:,}" if known else "–"
                    cells += (
                        f'<td class="num" data-system="{s}" data-scope="{scope}" '
                        f'data-column="{column}">{shown}</td>'
                    )
            parts.append(f'<tr><td class="name">{_swatch(s)}{esc(name)}</td>{cells}</tr>')
        parts.append("</tbody></table></section>")
        return "".join(parts)

    def _wants_significance(self) -> bool:
        return self.significance is not None or self.options.paired_bs

    def _significance(self) -> str:
        if not self._wants_significance():
            return ""
        results = self.significance
        if results is None:
            results = report_significance(
                self.session,
                self.rows if self.filtered else None,
                n_samples=self.options.bootstrap_samples,
                seed=self.options.seed,
            )
        table = self.table
        rows_text = (
            f"the {len(self.rows):,} selected segments"
            if self.filtered
            else f"all {table.n_segments:,} segments"
        )
        parts = [
            '<section id="significance"><h2>Paired significance against the baseline</h2>',
            f'<p class="note">Paired bootstrap resampling (sacreBLEU <code>--paired-bs</code>) '
            f"over {rows_text}. Mean and 95% confidence interval of each system's resampled "
            "scores; p-value of the difference from the baseline "
            '(<span class="sig">*</span> p ≤ 0.05, as sacreBLEU marks it), and whether the '
            "system is then better or worse than the baseline, by which way its column is "
            "better.</p>",
        ]
        if len(table.systems) < 2:
            parts.append('<p class="note">One system: nothing to compare.</p></section>')
            return "".join(parts)
        signatures = table.signatures()
        tables: list[str] = []
        for test in results:
            column = test.column
            title = f"<h3>{esc(column.label)}</h3>"
            result = test.result
            if result is None:
                reason = test.reason or "not tested"
                tables.append(
                    f'<div class="sigtest">{title}<p class="note">{esc(reason)}</p></div>'
                )
                continue
            fields = format_signature(result.signature_fields().items())
            signature = (
                signatures.get(column.metric, "") if column.key not in table.external else ""
            )
            empty = _without_values(table, column.key, self.rows if self.filtered else None)
            baseline_empty = bool(result.systems) and result.systems[0].name in empty
            body = []
            digits = corpus_decimals(column)
            for line, verdict in zip(result.systems, test.verdicts(), strict=True):
                s = table.systems.index(line.name) if table.systems.count(line.name) == 1 else -1
                attrs = f'data-system="{s}"'
                figures = (
                    _num_cell(line.score, attrs + ' data-field="score"', digits)
                    + _num_cell(_or_nan(line.mean), attrs + ' data-field="mean"', digits)
                    + _num_cell(_or_nan(line.ci), attrs + ' data-field="ci"', digits)
                )
                untested = f'<td class="num" {attrs} data-field="p" data-value="nan">'
                if line.name in empty:
                    # No value on these rows (an output nobody annotated): nothing to test.
                    cells = (
                        _num_cell(math.nan, attrs + ' data-field="score"', digits)
                        + '<td class="num">—</td><td class="num">—</td>'
                        + untested
                        + ("baseline; " if line.p_value is None else "")
                        + "no values: not tested</td><td></td>"
                    )
                elif line.p_value is None:
                    cells = figures + '<td class="num">baseline</td><td></td>'
                elif baseline_empty:
                    cells = (
                        figures + untested + "not tested: the baseline has no values</td><td></td>"
                    )
                else:
                    star = '<span class="sig">*</span>' if line.p_value <= 0.05 else ""
                    cells = figures + (
                        f'<td class="num" {attrs} data-field="p" '
                        f'data-value="{number_attr(line.p_value)}">{line.p_value:.4f}{star}</td>'
                        f'<td {attrs} data-verdict="{verdict or ""}">{verdict or "–"}</td>'
                    )
                row_class = ' class="baseline"' if line.p_value is None else ""
                swatch = _swatch(s) if s >= 0 else ""
                body.append(
                    f'<tr{row_class}><td class="name">{swatch}{esc(line.name)}</td>{cells}</tr>'
                )
            sig_line = signature_with(signature, result.signature_fields()) if signature else fields
            tables.append(
                f'<div class="sigtest">{title}'
                f'<table class="significance" data-column="{esc(column.key)}" '
                f'data-samples="{result.n_samples}" data-seed="{result.seed_used}" '
                f'data-segments="{result.n_segments}"><thead><tr><th>System</th>'
                '<th class="num">Score</th><th class="num">Mean</th><th class="num">± 95% CI</th>'
                '<th class="num">p-value</th><th>Than the baseline</th></tr></thead>'
                f"<tbody>{''.join(body)}</tbody></table>"
                f'<p class="note">{test.n_rows:,} segments tested; {_way(column)}. '
                f"<code>{esc(sig_line)}</code></p></div>"
            )
        parts.append(f'<div class="sigtests">{"".join(tables)}</div>')
        parts.append(self._clusters(rows_text))
        parts.append("</section>")
        return "".join(parts)

    def _clusters(self, rows_text: str) -> str:
        """Each summary column's systems ranked into significance clusters, with the p-value
        of every pair (the same resamples), starred at the Bonferroni-corrected level."""
        table = self.table
        n_sys = len(table.systems)
        corrected = bonferroni_alpha(n_sys)
        pairs = n_sys * (n_sys - 1) // 2
        parts = [
            '<h3 id="clusters">Significance clusters</h3>',
            '<p class="note">Systems best first on each column; a system starts a new cluster '
            f"when it is significantly worse (paired bootstrap, p &lt; {SIGNIFICANCE_THRESHOLD}) "
            "than the best system of the current cluster, as WMT ranks systems; each test is "
            f"at {SIGNIFICANCE_THRESHOLD}, uncorrected. Over {rows_text}, "
            f"{self.options.bootstrap_samples:,} resamples, seed {self.options.seed}. Under "
            f"each table, the p-value of every pair of systems ({pairs} tests, the same "
            'resamples): <span class="sig">*</span> marks p ≤ '
            f"{corrected:.4g}, the Bonferroni-corrected level ({ALPHA} / {pairs}).</p>",
        ]
        smallest = 1 / (self.options.bootstrap_samples + 1)
        if corrected < smallest:
            parts.append(
                f'<p class="warn">With {self.options.bootstrap_samples:,} resamples no p-value '
                f"is below {smallest:.4g}, so no pair can reach the corrected level: run more "
                "resamples (<code>--paired-bs-n</code>).</p>"
            )
        blocks = []
        for column in _score_columns(table):
            title = f"<h3>{esc(column.label)}</h3>"
            try:
                pairwise = pairwise_for_column(
                    table,
                    column.key,
                    rows=self.rows if self.filtered else None,
                    n_samples=self.options.bootstrap_samples,
                    seed=self.options.seed,
                )
            except NotTestable as why:
                reason = f'<p class="note">{esc(str(why))}</p>'
                blocks.append(f'<div class="sigtest clusters-box">{title}{reason}</div>')
                continue
            found = rank_clusters(
                column.label,
                table.systems,
                pairwise.scores,
                pairwise.p_value,
                better=column.better,
            )
            blocks.append(
                f'<div class="sigtest clusters-box">{title}{self._cluster_table(column, found)}'
                f"{self._pairs_table(column, found, pairwise, corrected)}"
                f'<p class="note">{_way(column).capitalize()}.</p></div>'
            )
        parts.append(f'<div class="sigtests">{"".join(blocks)}</div>')
        return "".join(parts)

    def _cluster_table(self, column: ScoreColumn, found: SystemClusters) -> str:
        body = []
        digits = corpus_decimals(column)
        previous = 0
        for name, score, cluster, p in zip(
            found.names, found.scores, found.clusters, found.p_values, strict=True
        ):
            s = self.table.systems.index(name)
            start = cluster != previous
            previous = cluster
            row_class = ' class="cluster-start"' if start and cluster > 1 else ""
            rank = str(cluster) if start else ""
            p_cell = (
                '<td class="num">—</td>'
                if p is None
                else f'<td class="num" data-value="{number_attr(p)}">{p:.4f}</td>'
            )
            body.append(
                f'<tr{row_class} data-ranked="{s}" data-cluster="{cluster}">'
                f'<td class="num rank">{rank}</td>'
                f'<td class="name">{_swatch(s)}{esc(name)}</td>'
                + _num_cell(score, f'data-system="{s}" data-field="score"', digits)
                + p_cell
                + "</tr>"
            )
        return (
            f'<table class="clusters" data-column="{esc(column.key)}"><thead><tr>'
            '<th class="num">Cluster</th><th>System</th><th class="num">Score</th>'
            '<th class="num" title="against the best system of the cluster above for a system '
            "that starts a cluster, else of its own\">p against the cluster's best</th>"
            f"</tr></thead><tbody>{''.join(body)}</tbody></table>"
        )

    def _pairs_table(
        self,
        column: ScoreColumn,
        found: SystemClusters,
        pairwise: PairwiseSignificance,
        corrected: float,
    ) -> str:
        systems = self.table.systems
        order = [systems.index(name) for name in found.names]
        head = "".join(f'<th class="num">{esc(systems[j])}</th>' for j in order)
        body = []
        for i in order:
            cells = []
            for j in order:
                p = pairwise.p_values[i][j]
                if p is None:
                    cells.append('<td class="num">—</td>')
                    continue
                star = '<span class="sig">*</span>' if p <= corrected else ""
                cells.append(
                    f'<td class="num" data-row="{i}" data-system="{j}" '
                    f'data-value="{number_attr(p)}">{p:.4f}{star}</td>'
                )
            body.append(
                f'<tr><td class="name">{_swatch(i)}{esc(systems[i])}</td>{"".join(cells)}</tr>'
            )
        return (
            '<details class="pairs"><summary>Every pair: p-values (<span class="sig">*</span> '
            f"p ≤ {corrected:.4g})</summary>"
            f'<table class="pairs" data-column="{esc(column.key)}" '
            f'data-threshold="{number_attr(corrected)}"><thead><tr><th></th>{head}</tr></thead>'
            f"<tbody>{''.join(body)}</tbody></table></details>"
        )

    def _mqm(self) -> str:
        notes = self.annotations
        if notes is None:
            return ""
        names = self.table.systems
        spans = [s for s in notes.spans if s.system in names]
        counted = [s for s in spans if s.status is Status.CONFIRMED]
        scores = [s for s in notes.scores if s.system in names]
        summary = mqm_summary(counted, scores, weights=notes.weights)
        rated: dict[str, set[int]] = {name: set() for name in summary}
        for system, segment in segment_mqm(counted, scores, weights=notes.weights):
            rated[system].add(segment)
        sets = compare_segment_sets({n: v for n, v in rated.items() if v})
        common: dict[str, float] = {}
        if not sets.same:
            common = system_mqm(
                counted, scores, weights=notes.weights, segments={n: sets.common for n in rated}
            )
        selected_mqm: dict[str, float] = {}
        if self.filtered:
            chosen = set(self.rows.tolist())
            by_system = {name: segs & chosen for name, segs in rated.items()}
            selected_mqm = system_mqm(counted, scores, weights=notes.weights, segments=by_system)
        esa = system_esa(scores)
        parts = [
            '<section id="mqm"><h2>'
            + (
                "MQM from the annotations"
                if notes.mode is AnnotationMode.MQM
                else "ESA: error spans and segment scores"
            )
            + "</h2>",
            '<p class="note">A rater\'s penalty on a segment is the sum of the weights of their '
            "confirmed error spans (0 for a segment marked as having no errors); a segment's "
            "MQM score is the mean over its raters, a system's the mean over its rated segments "
            "(Freitag et al., 2021). Lower is better, 0 = no errors. The ESA score is the mean "
            "over a system's scored segments of their mean 0–100 score. Weights: "
            + esc(notes.weights.describe())
            + ".</p>",
        ]
        warning = sets.warning()
        if warning:
            parts.append(f'<p class="warn">{esc(warning)}</p>')
        parts.append(
            '<table class="mqm"><thead><tr><th>System</th><th class="num">Rated segments</th>'
            '<th class="num">Raters</th><th class="num">Confirmed spans</th>'
            + "".join(
                f'<th class="num">{esc(sev.value.capitalize())}</th>' for sev in SEVERITY_ORDER
            )
            + '<th class="num">MQM</th>'
            + (
                f'<th class="num">MQM (the {len(sets.common):,} common segments)</th>'
                if common
                else ""
            )
            + ('<th class="num">MQM (selected)</th>' if self.filtered else "")
            + '<th class="num">ESA score</th><th class="num">ESA segments</th>'
            "</tr></thead><tbody>"
        )
        for s, name in enumerate(names):
            mine = [x for x in counted if x.system == name]
            by_sev = {sev: sum(1 for x in mine if x.severity is sev) for sev in SEVERITY_ORDER}
            item = summary.get(name)
            figure = esa.get(name)
            attrs = f'data-system="{s}"'
            cells = (
                f'<td class="num" {attrs} data-field="segments">'
                f"{0 if item is None else item.segments:,}</td>"
                f'<td class="num" {attrs} data-field="raters">'
                f"{0 if item is None else item.raters:,}</td>"
                f'<td class="num">{len(mine):,}</td>'
                + "".join(f'<td class="num">{by_sev[sev]:,}</td>' for sev in SEVERITY_ORDER)
                + _num_cell(math.nan if item is None else item.mqm, attrs + ' data-field="mqm"', 3)
            )
            if common:
                cells += _num_cell(
                    common.get(name, math.nan), attrs + ' data-field="mqm-common"', 3
                )
            if self.filtered:
                cells += _num_cell(
                    selected_mqm.get(name, math.nan), attrs + ' data-field="mqm-selected"', 3
                )
            cells += _num_cell(
                math.nan if figure is None else figure.value, attrs + ' data-field="segment-score"'
            ) + (
                f'<td class="num" {attrs} data-field="esa-segments">'
                f"{0 if figure is None else figure.segments:,}</td>"
            )
            parts.append(f'<tr><td class="name">{_swatch(s)}{esc(name)}</td>{cells}</tr>')
        parts.append("</tbody></table>")
        ignored = sum(item.ignored for item in summary.values())
        if ignored:
            parts.append(
                f'<p class="note">{ignored:,} confirmed spans have no category (ESA spans): they '
                "are not MQM errors and not in the MQM scores.</p>"
            )
        pending = sum(1 for x in spans if x.status is Status.UNDECIDED)
        if pending:
            parts.append(
                f'<p class="note">{pending:,} undecided spans are shown with dashed boxes and '
                "not counted.</p>"
            )
        if notes.unplaced:
            parts.append(
                f'<p class="warn">{len(notes.unplaced):,} error spans could not be found on the '
                "current lines (the input files changed since they were made); they are not "
                "shown or counted.</p>"
            )
        parts.extend(f'<p class="warn">{esc(n)}</p>' for n in notes.notes)
        parts.append("</section>")
        return "".join(parts)

    def _charts(self) -> str:
        table = self.table
        rows = self.rows
        parts = ['<section id="charts"><h2>Charts</h2>']
        if self.filtered:
            parts.append(f'<p class="note">Over the {len(rows):,} selected segments.</p>')
        for column in _primary_columns(table):
            everything = table.scores[:, :, table.metric_index(column.key)]
            bounds = display_bounds(column, everything)
            edges = score_edges(column, np.array(bounds))
            counts = []
            for s in range(len(table.systems)):
                values = table.column(column.key, s)[rows]
                # Clipped: a perfect sentence BLEU can come out as 100.00000000000004.
                within = clip_to_bounds(values[~np.isnan(values)], bounds)
                counts.append(np.histogram(within, bins=edges)[0])
            y_max = max((int(c.max()) for c in counts if c.size), default=1)
            charts = "".join(
                f'<figure data-column="{esc(column.key)}" data-system="{s}">'
                + histogram_svg(
                    c.tolist(),
                    edges.tolist(),
                    title=name,
                    colour=palette.system_colour(s),
                    y_max=y_max,
                )
                + "</figure>"
                for s, (name, c) in enumerate(zip(table.systems, counts, strict=True))
            )
            parts.append(
                f"<h3>{esc(column.label)}: segments per score</h3>"
                f'<div class="charts">{charts}</div>'
            )
        chart = self.chart
        if chart is not None and len(table.systems) > 1:
            base = self.session.baseline
            low, high = display_bounds(chart, table.scores[:, :, table.metric_index(chart.key)])
            scatters = []
            for s, name in enumerate(table.systems):
                if s == base:
                    continue
                x = table.column(chart.key, base)[rows]
                y = table.column(chart.key, s)[rows]
                scatters.append(
                    f'<figure data-column="{esc(chart.key)}" data-x="{base}" data-y="{s}">'
                    f"<figcaption>{_swatch(s)}{esc(name)} (up) against "
                    f"{esc(table.systems[base])} (across)</figcaption>"
                    + scatter_svg(
                        x,
                        y,
                        title=f"{name} against {table.systems[base]}",
                        x_label=table.systems[base],
                        y_label=name,
                        colour=palette.system_colour(s),
                        low=low,
                        high=high,
                    )
                    + "</figure>"
                )
            parts.append(
                f"<h3>{esc(chart.label)} per segment, system against the baseline</h3>"
                '<p class="note">One dot per segment; above the dashed diagonal the system '
                f"scores higher than the baseline, which is {_above(chart)}.</p>"
                f'<div class="charts">{"".join(scatters)}</div>'
            )
        if chart is not None:
            parts.append(self._buckets(chart))
        parts.append("</section>")
        return "".join(parts)

    def _buckets(self, chart: ScoreColumn) -> str:
        table = self.table
        settings = table.config.settings("bleu")
        tokenize = str(getattr(settings, "tokenize", "13a"))
        tokenizer = bleu_tokenizer(tokenize)
        lengths = [len(tokenizer(line)) for line in self.session.text.references[0]]
        buckets = length_buckets(lengths)
        values = np.stack([table.column(chart.key, s) for s in range(len(table.systems))])
        result: BucketTable = bucket_means(
            buckets, values, rows=self.rows, n_boot=self.options.bucket_samples, seed=0
        )
        cells = result.cells
        means = np.array([[c.mean for c in row] for row in cells])
        lows = np.array([[c.low for c in row] for row in cells])
        highs = np.array([[c.high for c in row] for row in cells])
        counts = np.array([[c.count for c in row] for row in cells])
        colours = [palette.system_colour(s) for s in range(len(table.systems))]
        x_label = f"length of reference 1 ({tokenize} tokens)"
        svg = bucket_svg(
            result.labels,
            means,
            lows,
            highs,
            counts,
            title=f"mean {chart.label} by reference length",
            x_label=x_label,
            y_label=f"mean {chart.label}",
            colours=colours,
        )
        legend = "".join(
            f'<span class="key">{_swatch(s)}{esc(name)}</span>'
            for s, name in enumerate(table.systems)
        )
        head = "".join(f'<th class="num">{esc(label)}</th>' for label in result.labels)
        parts = [
            f"<h3>Mean {esc(chart.label)} by reference length, with "
            f"{int(result.confidence * 100)}% bootstrap intervals</h3>"
            f'<p class="note">{_way(chart).capitalize()}. compare-mt\'s length buckets; '
            f"{result.n_boot:,} seeded resamples of each bucket's rows. An interval describes "
            "one system; whether two systems differ is for the paired test.</p>"
            f'<figure data-column="{esc(chart.key)}">{svg}'
            f'<div class="legend">{legend}</div></figure>'
            + self._bucket_table(chart, result, "mean", head)
        ]
        if chart.corpus == "stats":
            # What compare-mt plots: the corpus figure of each bucket's rows.
            stats, score = table_statistics(table, chart.key)
            corpus = bucket_corpus(
                buckets,
                stats,
                score,
                present=~np.isnan(values),
                rows=self.rows,
                n_boot=self.options.bucket_samples,
                seed=0,
            )
            parts.append(
                f"<h3>Corpus {esc(chart.label)} by reference length</h3>"
                f'<p class="note">The {esc(chart.label)} of each bucket\'s rows from their '
                "summed statistics, as compare-mt's sentence buckets show it (not the mean of "
                "segment scores above), with the bootstrap interval of that figure.</p>"
                + self._bucket_table(chart, corpus, "corpus", head)
            )
        return "".join(parts)

    def _bucket_table(self, chart: ScoreColumn, result: BucketTable, kind: str, head: str) -> str:
        """One row per system: each bucket's figure, its interval and its count."""
        cells = result.cells

        def shown(value: float) -> str:
            # A mean at the segment values' precision; a corpus figure at the corpus's.
            return chart.format(value) if kind == "mean" else _fmt(value, corpus_decimals(chart))

        body = []
        for s, name in enumerate(self.table.systems):
            row = "".join(
                f'<td class="num" data-bucket="{b}" data-system="{s}" '
                f'data-{kind}="{number_attr(cells[b][s].mean)}">'
                f"{shown(cells[b][s].mean)}"
                f'<br><span class="note">[{shown(cells[b][s].low)}, '
                f"{shown(cells[b][s].high)}]"
                f" n={cells[b][s].count:,}</span></td>"
                for b in range(len(result.labels))
            )
            body.append(f'<tr><td class="name">{_swatch(s)}{esc(name)}</td>{row}</tr>')
        return (
            f'<table class="buckets" data-statistic="{kind}"><thead><tr><th>System</th>'
            f"{head}</tr></thead><tbody>{''.join(body)}</tbody></table>"
        )

    def _legend(self, kinds: set[str]) -> str:
        """What the tints and boxes of the rows mean: the range kinds painted, the levels of
        the mode, and the error severities when there are annotations."""
        mode = self.mode
        if mode is None:
            return ""
        unit = "char" if mode.key == "chrf" else "gram"
        keys: list[str] = []
        if "match" in kinds:
            keys += [f'<span class="m{n}">{n}-{unit}</span>' for n in range(1, mode.max_level + 1)]
        if "lcs" in kinds:
            keys.append('<span class="tl ul">in the longest common subsequence</span>')
        if "unmatched" in kinds:
            keys.append('<span class="uu">unmatched</span>')
        if "missed" in kinds:
            keys.append('<span class="tx ux">missed by all systems</span>')
        if self.annotations is not None:
            keys += [
                f'<span class="err sev-{sev.value}">{sev.value} error</span>'
                for sev in SEVERITY_ORDER
            ]
            keys.append('<span class="err undecided sev-neutral">undecided</span>')
            keys.append('<span class="omit">\u2038</span> omission')
        shown = "".join(f'<span class="key">{k}</span>' for k in keys)
        return f'<p class="legend">{esc(mode.label)}: {shown}</p>'

    def _rows(self) -> str:
        session = self.session
        table = self.table
        order = self.order
        limit = self.options.max_rows or len(order)
        shown = order[:limit]
        parts = ['<section id="rows"><h2>Rows</h2>']
        described = self._order_text()
        if len(shown) < len(order):
            parts.append(
                f'<p class="warn">Showing the first {len(shown):,} of the {len(order):,} '
                f"selected segments ({described}); the figures and charts above cover all of "
                "them. <code>matchlight report --max-rows N</code> shows more (0: all).</p>"
            )
        else:
            parts.append(f'<p class="note">{len(shown):,} segments, in {described}.</p>')
        legend_at = len(parts)
        kinds: set[str] = set()
        detailer = RowDetailer(self._detail_config())
        text = session.text
        spans_by_row = self._spans_by_row()
        columns = [c for c in _primary_columns(table)] + [
            table.column_info(k) for k in table.external
        ]
        for i in (int(r) for r in shown):
            detail = detailer.row(
                segment=i,
                source=None if session.source is None else session.source[i],
                references=[ref[i] for ref in text.references],
                systems=[
                    (name, lines[i])
                    for name, lines in zip(text.system_names, text.systems, strict=True)
                ],
            )
            parts.append(self._row(i, detail, spans_by_row, columns, kinds))
        parts.insert(legend_at, self._legend(kinds))
        parts.append("</section>")
        return "".join(parts)

    def _detail_config(self) -> ScoringConfig:
        """The settings with only the metric whose highlight mode is shown: the rows' scores
        come from the table, and other metrics' details (chrF's are slow) are not needed."""
        config = self.session.config
        mode = self.mode
        if mode is None:
            return config
        for metric, settings in config.enabled():
            if any(m.key == mode.key for m in metric.highlight_modes(settings)):
                return config.with_metrics((metric.key,))
        return config  # pragma: no cover - the mode comes from the config

    def _spans_by_row(self) -> dict[tuple[str, int], list[ErrorSpan]]:
        found: dict[tuple[str, int], list[ErrorSpan]] = {}
        if self.annotations is None:
            return found
        for span in self.annotations.spans:
            if span.status is Status.REJECTED:
                continue
            found.setdefault((span.system, span.segment), []).append(span)
        for spans in found.values():
            spans.sort(key=lambda x: (x.start, x.end, x.created))
        return found

    def _text(
        self, text: str, ranges: Sequence[tuple[int, int, str, int]], spans: Sequence[ErrorSpan]
    ) -> str:
        body, cut = highlighted_html(text, ranges, spans=spans, max_chars=self.options.max_chars)
        if cut:
            body += (
                f'<span class="cut"> … ({len(text) - self.options.max_chars:,} more characters '
                "not shown)</span>"
            )
        return f'<div class="text">{body}</div>'

    def _errors(self, spans: Sequence[ErrorSpan]) -> str:
        if not spans:
            return ""
        items = []
        for span in spans:
            what = "omission" if span.is_omission else f"\u201c{span.text}\u201d"
            if span.side is Side.SOURCE:
                what += " in the source"
            status = "" if span.status is Status.CONFIRMED else f" ({span.status.value})"
            category = span.category or "(no category)"
            note = f" — {span.note}" if span.note else ""
            items.append(
                f'<li class="sev-{span.severity.value}">'
                f"{esc(category)} · <b>{esc(span.severity.value)}</b>{esc(status)}: "
                f"{esc(what)}{esc(note)}</li>"
            )
        return f'<ol class="errors">{"".join(items)}</ol>'

    def _row(
        self,
        i: int,
        detail: RowDetail,
        spans_by_row: Mapping[tuple[str, int], list[ErrorSpan]],
        columns: Sequence[ScoreColumn],
        kinds: set[str],
    ) -> str:
        """One row: source, references and outputs with their highlights and error spans, and
        each output's segment scores. Adds the range kinds painted to ``kinds``."""
        session = self.session
        table = self.table
        mode = self.mode
        layer = None if mode is None else detail.layer(mode.key)
        parts = [
            f'<article class="seg" id="seg-{i + 1}" data-segment="{i + 1}"><h3>Segment {i + 1}</h3>'
        ]
        if detail.source is not None:
            parts.append(
                f'<div class="line src"><span class="role">Source</span>'
                f"{self._text(detail.source, (), ())}</div>"
            )
        ref_names = _reference_names(session)
        for r, ref in enumerate(detail.references):
            ranges = [] if layer is None else layer.reference(r, None)
            kinds.update(k for _, _, k, _ in ranges)
            spans = spans_by_row.get((ref_names[r], i), [])
            parts.append(
                f'<div class="line ref" data-reference="{r}"><span class="role">'
                f"{esc(session.reference_names[r])}</span>{self._text(ref, ranges, _drawn(spans))}"
                f"{self._errors(spans)}</div>"
            )
        for s, name in enumerate(table.systems):
            ranges = [] if layer is None else layer.hypothesis(s)
            kinds.update(k for _, _, k, _ in ranges)
            spans = spans_by_row.get((name, i), [])
            scores = "".join(
                f'<span data-column="{esc(c.key)}" data-value="{number_attr(value)}">'
                f"{esc(c.short)} {c.format(value)}</span>"
                for c, value in ((c, table.value(c.key, s, i)) for c in columns)
            )
            base = " (baseline)" if s == session.baseline else ""
            parts.append(
                f'<div class="line hyp" data-system="{s}"><span class="role">{_swatch(s)}'
                f"{esc(name)}{base}</span>"
                f"{self._text(detail.outputs[s], ranges, _drawn(spans))}"
                f'<div class="scores">{scores}</div>{self._errors(spans)}</div>'
            )
        for key, note in detail.notes.items():
            label = METRICS[key].label if key in METRICS else key
            parts.append(f'<p class="note">{esc(label)}: {esc(note)}</p>')
        parts.append("</article>")
        return "".join(parts)


def render_report(
    session: ComparisonSession,
    *,
    annotations: ReportAnnotations | None = None,
    options: ReportOptions | None = None,
    significance: Sequence[ColumnTest] | None = None,
    language: LanguageFlags | None = None,
) -> str:
    """The report of ``session`` (every row scored) as one self-contained HTML page.

    ``annotations`` adds the MQM section and the error spans on the rows; ``significance``
    shows tests the caller already ran (as :func:`report_significance` returns them)
    returns them) instead of running them when ``options.paired_bs`` asks; ``language`` the
    language check already made (:func:`~core.analysis.language.language_flags`, else made here).
    """
    page = _Page(session, annotations, options or ReportOptions(), significance, language)
    return page.html()
