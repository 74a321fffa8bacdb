"""The report's charts, as inline SVG (:mod:`core.report.svg`): a histogram per system, a
system-vs-system scatter of the chart column, and bucket means with bootstrap intervals
(:mod:`core.analysis.buckets`) with their tables.
"""

from __future__ import annotations

from typing import Final

import numpy as np

from matchlight.core.analysis.buckets import (
    BucketTable,
    bucket_corpus,
    bucket_means,
    length_buckets,
)
from matchlight.core.analysis.scales import (
    clip_to_bounds,
    corpus_decimals,
    display_bounds,
    score_edges,
)
from matchlight.core.analysis.significance import table_statistics
from matchlight.core.metrics.base import ScoreColumn
from matchlight.core.report import palette
from matchlight.core.report.context import (
    PageContext,
    above_diagonal,
    better_way,
    fmt_number,
    primary_columns,
    system_swatch,
)
from matchlight.core.report.highlight import esc
from matchlight.core.report.svg import bucket_svg, histogram_svg, number_attr, scatter_svg
from matchlight.core.text.tokenizers import bleu_tokenizer

__all__ = ["HISTOGRAM_EDGES", "charts_section"]


#: Histogram bins of a 0-100 score: twenty bins of five points, as the app's summary (a column
#: on another scale is binned over its own, :func:`~core.analysis.scales.score_edges`).
HISTOGRAM_EDGES: Final = tuple(float(e) for e in np.linspace(0.0, 100.0, 21))


def charts_section(page: PageContext) -> str:
    """The histograms per system, the system-vs-system scatter and the bucket charts."""
    table = page.table
    rows = page.rows
    parts = ['<section id="charts"><h2>Charts</h2>']
    if page.filtered:
        parts.append(f'<p class="note">Over the {len(rows):,} selected segments.</p>')
    for column in primary_columns(table):
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
            f'<h3>{esc(column.label)}: segments per score</h3><div class="charts">{charts}</div>'
        )
    chart = page.chart
    if chart is not None and len(table.systems) > 1:
        base = page.session.baseline
        low, high = display_bounds(chart, table.scores[:, :, table.metric_index(chart.key)])
        scatters = []
        for s, name in enumerate(table.systems):
            if s == base:
                continue
            x = table.column(chart.key, base)[rows]
            y = table.column(chart.key, s)[rows]
            scatters.append(
                f'<figure data-column="{esc(chart.key)}" data-x="{base}" data-y="{s}">'
                f"<figcaption>{system_swatch(s)}{esc(name)} (up) against "
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
            f"scores higher than the baseline, which is {above_diagonal(chart)}.</p>"
            f'<div class="charts">{"".join(scatters)}</div>'
        )
    if chart is not None:
        parts.append(_buckets(page, chart))
    parts.append("</section>")
    return "".join(parts)


def _buckets(page: PageContext, chart: ScoreColumn) -> str:
    table = page.table
    settings = table.config.settings("bleu")
    tokenize = str(getattr(settings, "tokenize", "13a"))
    tokenizer = bleu_tokenizer(tokenize)
    lengths = [len(tokenizer(line)) for line in page.session.text.references[0]]
    buckets = length_buckets(lengths)
    values = np.stack([table.column(chart.key, s) for s in range(len(table.systems))])
    result: BucketTable = bucket_means(
        buckets, values, rows=page.rows, n_boot=page.options.bucket_samples, seed=0
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
        f'<span class="key">{system_swatch(s)}{esc(name)}</span>'
        for s, name in enumerate(table.systems)
    )
    head = "".join(f'<th class="num">{esc(label)}</th>' for label in result.labels)
    parts = [
        f"<h3>Mean {esc(chart.label)} by reference length, with "
        f"{int(result.confidence * 100)}% bootstrap intervals</h3>"
        f'<p class="note">{better_way(chart).capitalize()}. compare-mt\'s length buckets; '
        f"{result.n_boot:,} seeded resamples of each bucket's rows. An interval describes "
        "one system; whether two systems differ is for the paired test.</p>"
        f'<figure data-column="{esc(chart.key)}">{svg}'
        f'<div class="legend">{legend}</div></figure>'
        + _bucket_table(page, chart, result, "mean", head)
    ]
    if chart.corpus == "stats":
        # What compare-mt plots: the corpus figure of each bucket's rows.
        stats, score = table_statistics(table, chart.key)
        corpus = bucket_corpus(
            buckets,
            stats,
            score,
            present=~np.isnan(values),
            rows=page.rows,
            n_boot=page.options.bucket_samples,
            seed=0,
        )
        parts.append(
            f"<h3>Corpus {esc(chart.label)} by reference length</h3>"
            f'<p class="note">The {esc(chart.label)} of each bucket\'s rows from their '
            "summed statistics, as compare-mt's sentence buckets show it (not the mean of "
            "segment scores above), with the bootstrap interval of that figure.</p>"
            + _bucket_table(page, chart, corpus, "corpus", head)
        )
    return "".join(parts)


def _bucket_table(
    page: PageContext, chart: ScoreColumn, result: BucketTable, kind: str, head: str
) -> str:
    """One row per system: each bucket's figure, its interval and its count."""
    cells = result.cells

    def shown(value: float) -> str:
        # A mean at the segment values' precision; a corpus figure at the corpus's.
        return chart.format(value) if kind == "mean" else fmt_number(value, corpus_decimals(chart))

    body = []
    for s, name in enumerate(page.table.systems):
        row = "".join(
            f'<td class="num" data-bucket="{b}" data-system="{s}" '
            f'data-{kind}="{number_attr(cells[b][s].mean)}">'
            f"{shown(cells[b][s].mean)}"
            f'<br><span class="note">[{shown(cells[b][s].low)}, '
            f"{shown(cells[b][s].high)}]"
            f" n={cells[b][s].count:,}</span></td>"
            for b in range(len(result.labels))
        )
        body.append(f'<tr><td class="name">{system_swatch(s)}{esc(name)}</td>{row}</tr>')
    return (
        f'<table class="buckets" data-statistic="{kind}"><thead><tr><th>System</th>'
        f"{head}</tr></thead><tbody>{''.join(body)}</tbody></table>"
    )
