"""The HTML report of a :class:`~core.session.comparison.ComparisonSession`, as one string.

Every figure comes from core, computed from the session's score table: corpus figures per
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
through :func:`~core.report.highlight.esc`. The rows shown are capped
(:data:`~matchlight.core.report.context.DEFAULT_MAX_ROWS`, and the page says so); the figures
and charts always cover every selected row.

This module assembles the page: the Content-Security-Policy, the style sheet and the sections in
order, each written by a function of the page's
:class:`~matchlight.core.report.context.PageContext`: :mod:`~matchlight.core.report.summary`
(header, corpus summary, language check, MQM), :mod:`~matchlight.core.report.pairwise`
(significance), :mod:`~matchlight.core.report.charts` and :mod:`~matchlight.core.report.rows`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from matchlight.core.analysis.columnstats import ColumnTest
from matchlight.core.analysis.language import LanguageFlags
from matchlight.core.metrics.base import HighlightMode
from matchlight.core.report import palette
from matchlight.core.report.charts import charts_section
from matchlight.core.report.context import PageContext, ReportAnnotations, ReportOptions
from matchlight.core.report.highlight import esc
from matchlight.core.report.pairwise import significance_section
from matchlight.core.report.rows import rows_section
from matchlight.core.report.summary import (
    header_section,
    language_section,
    mqm_section,
    summary_section,
)
from matchlight.core.session.comparison import ComparisonSession
from matchlight.core.style.marks import span_css

__all__ = ["render_report"]


_CSP: Final = (
    "default-src 'none'; style-src 'unsafe-inline'; img-src 'none'; font-src 'none'; "
    "connect-src 'none'; form-action 'none'; base-uri 'none'"
)


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
sup.enum { font-size: 10px; font-weight: 700; margin: 0 1px; }
.omit { font-weight: 700; }
.cut { color: #777; font-style: italic; }
.tsb { background: #TERSUBTINT; color: #TERTEXT; }
.tsb-l { text-decoration: underline dotted #TERSUBLINE; text-decoration-skip-ink: none; }
.tdl { color: #TERDEL; text-decoration: line-through #TERDEL; }
.tin { background: #TERINSTINT; color: #TERTEXT; }
.tsh { color: #TERSHIFT; border-top: 2px solid #TERSHIFT; padding: 0 1px;
  background-image: linear-gradient(#TERSHIFT, #TERSHIFT), linear-gradient(#TERSHIFT, #TERSHIFT);
  background-size: 2px 0.4em; background-position: left top, right top;
  background-repeat: no-repeat; box-decoration-break: clone;
  -webkit-box-decoration-break: clone; }
.tdest, .tgap { position: relative; display: inline-block; width: 0; }
.tdest::before { content: "\\25BC"; position: absolute; left: -0.42em; top: -1.5em;
  font-size: 0.85em; color: #TERSHIFT; }
.tdest::after { content: ""; position: absolute; left: -1px; top: -0.75em; height: 0.85em;
  border-left: 2px solid #TERSHIFT; }
.tgap::before { content: "\\2038"; position: absolute; left: -0.38em; top: -1.05em;
  font-size: 1.3em; font-weight: 700; color: #TERINSLINE; }
.legend .tdest, .legend .tgap { margin: 0 0.6em; }
.terref { font-style: italic; }
"""


def _style(mode: HighlightMode | None) -> str:
    css = (
        _STYLE.replace("#UNMATCHED", palette.UNMATCHED_LINE)
        .replace("#MISSEDLINE", palette.MISSED_LINE)
        .replace("#LCSLINE", palette.LCS_LINE)
        .replace("#MISSEDTINT", palette.MISSED_TINT)
        .replace("#LCSTINT", palette.LCS_TINT)
        .replace("#TINTTEXT", palette.TINT_TEXT)
        .replace("#TERSUBTINT", palette.TER.substitution_tint)
        .replace("#TERSUBLINE", palette.TER.substitution_line)
        .replace("#TERDEL", palette.TER.deletion_line)
        .replace("#TERINSTINT", palette.TER.insertion_tint)
        .replace("#TERINSLINE", palette.TER.insertion_line)
        .replace("#TERSHIFT", palette.TER.shift_line)
        .replace("#TERTEXT", palette.TER.text)
    ) + span_css()
    if mode is not None:
        for level in range(1, mode.max_level + 1):
            tint = palette.match_tint(level, mode.max_level)
            css += f".m{level} {{ background: {tint}; color: {palette.tint_text(tint)}; }}\n"
    return css


def _html(page: PageContext) -> str:
    session = page.session
    title = page.options.title or "Matchlight report: " + ", ".join(session.system_names)
    body = [
        header_section(page, title),
        summary_section(page),
        language_section(page),
        significance_section(page),
        mqm_section(page),
        charts_section(page),
        rows_section(page),
    ]
    return (
        "<!DOCTYPE html>\n"
        '<html lang="en"><head><meta charset="utf-8">'
        f'<meta http-equiv="Content-Security-Policy" content="{_CSP}">'
        '<meta name="referrer" content="no-referrer">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{esc(title)}</title><style>{_style(page.mode)}</style></head>\n<body>\n"
        + "\n".join(part for part in body if part)
        + "\n</body></html>\n"
    )


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
    shows tests the caller already ran (as
    :func:`~matchlight.core.report.pairwise.report_significance` returns them) instead of
    running them when ``options.paired_bs`` asks; ``language`` the language check already made
    (:func:`~core.analysis.language.language_flags`, else made here).
    """
    page = PageContext(session, annotations, options or ReportOptions(), significance, language)
    return _html(page)
