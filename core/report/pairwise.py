"""The report's significance section: sacreBLEU's paired bootstrap of every system against the
baseline per score column (:mod:`core.analysis.columnstats`), the systems ranked into
significance clusters (:mod:`core.analysis.clusters`) and every pair's p-value.

:func:`report_significance` runs the tests (the app runs them in a worker and hands them to
the report); :func:`significance_section` writes them, running them only when asked and not
given.
"""

from __future__ import annotations

import math

import numpy.typing as npt

from matchlight.core.analysis.clusters import SIGNIFICANCE_THRESHOLD, SystemClusters, rank_clusters
from matchlight.core.analysis.columnstats import (
    ALPHA,
    ColumnTest,
    NotTestable,
    bonferroni_alpha,
    pairwise_for_column,
    significance_by_column,
    without_values,
)
from matchlight.core.analysis.scales import corpus_decimals
from matchlight.core.analysis.significance import (
    DEFAULT_BOOTSTRAP_SAMPLES,
    DEFAULT_SEED,
    PairwiseSignificance,
    signature_with,
)
from matchlight.core.metrics.base import ScoreColumn
from matchlight.core.metrics.signature import format_signature
from matchlight.core.report.context import (
    PageContext,
    better_way,
    num_cell,
    or_nan,
    score_columns,
    system_swatch,
)
from matchlight.core.report.highlight import esc
from matchlight.core.report.svg import number_attr
from matchlight.core.scoring.results import ScoreTable
from matchlight.core.session.comparison import ComparisonSession

__all__ = ["report_significance", "significance_section"]


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
    keys = [column.key for column in score_columns(table)]
    return significance_by_column(
        table, keys, baseline=session.baseline, rows=rows, n_samples=n_samples, seed=seed
    )


def _without_values(table: ScoreTable, key: str, rows: npt.ArrayLike | None) -> set[str]:
    """The systems a paired test has nothing to compare for (core.analysis.columnstats')."""
    return without_values(table, key, rows)


def significance_section(page: PageContext) -> str:
    """The paired bootstrap per column, the clusters and every pair's p-value, when asked."""
    if not page.wants_significance():
        return ""
    results = page.significance
    if results is None:
        results = report_significance(
            page.session,
            page.rows if page.filtered else None,
            n_samples=page.options.bootstrap_samples,
            seed=page.options.seed,
        )
    table = page.table
    rows_text = (
        f"the {len(page.rows):,} selected segments"
        if page.filtered
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
            tables.append(f'<div class="sigtest">{title}<p class="note">{esc(reason)}</p></div>')
            continue
        fields = format_signature(result.signature_fields().items())
        signature = signatures.get(column.metric, "") if column.key not in table.external else ""
        empty = _without_values(table, column.key, page.rows if page.filtered else None)
        baseline_empty = bool(result.systems) and result.systems[0].name in empty
        body = []
        digits = corpus_decimals(column)
        for line, verdict in zip(result.systems, test.verdicts(), strict=True):
            s = table.systems.index(line.name) if table.systems.count(line.name) == 1 else -1
            attrs = f'data-system="{s}"'
            figures = (
                num_cell(line.score, attrs + ' data-field="score"', digits)
                + num_cell(or_nan(line.mean), attrs + ' data-field="mean"', digits)
                + num_cell(or_nan(line.ci), attrs + ' data-field="ci"', digits)
            )
            untested = f'<td class="num" {attrs} data-field="p" data-value="nan">'
            if line.name in empty:
                # No value on these rows (an output nobody annotated): nothing to test.
                cells = (
                    num_cell(math.nan, attrs + ' data-field="score"', digits)
                    + '<td class="num">—</td><td class="num">—</td>'
                    + untested
                    + ("baseline; " if line.p_value is None else "")
                    + "no values: not tested</td><td></td>"
                )
            elif line.p_value is None:
                cells = figures + '<td class="num">baseline</td><td></td>'
            elif baseline_empty:
                cells = figures + untested + "not tested: the baseline has no values</td><td></td>"
            else:
                star = '<span class="sig">*</span>' if line.p_value <= 0.05 else ""
                cells = figures + (
                    f'<td class="num" {attrs} data-field="p" '
                    f'data-value="{number_attr(line.p_value)}">{line.p_value:.4f}{star}</td>'
                    f'<td {attrs} data-verdict="{verdict or ""}">{verdict or "–"}</td>'
                )
            row_class = ' class="baseline"' if line.p_value is None else ""
            swatch = system_swatch(s) if s >= 0 else ""
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
            f'<p class="note">{test.n_rows:,} segments tested; {better_way(column)}. '
            f"<code>{esc(sig_line)}</code></p></div>"
        )
    parts.append(f'<div class="sigtests">{"".join(tables)}</div>')
    parts.append(_clusters(page, rows_text))
    parts.append("</section>")
    return "".join(parts)


def _clusters(page: PageContext, rows_text: str) -> str:
    """Each summary column's systems ranked into significance clusters, with the p-value
    of every pair (the same resamples), starred at the Bonferroni-corrected level."""
    table = page.table
    n_sys = len(table.systems)
    corrected = bonferroni_alpha(n_sys)
    pairs = n_sys * (n_sys - 1) // 2
    parts = [
        '<h3 id="clusters">Significance clusters</h3>',
        '<p class="note">Systems best first on each column; a system starts a new cluster '
        f"when it is significantly worse (paired bootstrap, p &lt; {SIGNIFICANCE_THRESHOLD}) "
        "than the best system of the current cluster, as WMT ranks systems; each test is "
        f"at {SIGNIFICANCE_THRESHOLD}, uncorrected. Over {rows_text}, "
        f"{page.options.bootstrap_samples:,} resamples, seed {page.options.seed}. Under "
        f"each table, the p-value of every pair of systems ({pairs} tests, the same "
        'resamples): <span class="sig">*</span> marks p ≤ '
        f"{corrected:.4g}, the Bonferroni-corrected level ({ALPHA} / {pairs}).</p>",
    ]
    smallest = 1 / (page.options.bootstrap_samples + 1)
    if corrected < smallest:
        parts.append(
            f'<p class="warn">With {page.options.bootstrap_samples:,} resamples no p-value '
            f"is below {smallest:.4g}, so no pair can reach the corrected level: run more "
            "resamples (<code>--paired-bs-n</code>).</p>"
        )
    blocks = []
    for column in score_columns(table):
        title = f"<h3>{esc(column.label)}</h3>"
        try:
            pairwise = pairwise_for_column(
                table,
                column.key,
                rows=page.rows if page.filtered else None,
                n_samples=page.options.bootstrap_samples,
                seed=page.options.seed,
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
            f'<div class="sigtest clusters-box">{title}{_cluster_table(page, column, found)}'
            f"{_pairs_table(page, column, found, pairwise, corrected)}"
            f'<p class="note">{better_way(column).capitalize()}.</p></div>'
        )
    parts.append(f'<div class="sigtests">{"".join(blocks)}</div>')
    return "".join(parts)


def _cluster_table(page: PageContext, column: ScoreColumn, found: SystemClusters) -> str:
    body = []
    digits = corpus_decimals(column)
    previous = 0
    for name, score, cluster, p in zip(
        found.names, found.scores, found.clusters, found.p_values, strict=True
    ):
        s = page.table.systems.index(name)
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
            f'<td class="name">{system_swatch(s)}{esc(name)}</td>'
            + num_cell(score, f'data-system="{s}" data-field="score"', digits)
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
    page: PageContext,
    column: ScoreColumn,
    found: SystemClusters,
    pairwise: PairwiseSignificance,
    corrected: float,
) -> str:
    systems = page.table.systems
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
            f'<tr><td class="name">{system_swatch(i)}{esc(systems[i])}</td>{"".join(cells)}</tr>'
        )
    return (
        '<details class="pairs"><summary>Every pair: p-values (<span class="sig">*</span> '
        f"p ≤ {corrected:.4g})</summary>"
        f'<table class="pairs" data-column="{esc(column.key)}" '
        f'data-threshold="{number_attr(corrected)}"><thead><tr><th></th>{head}</tr></thead>'
        f"<tbody>{''.join(body)}</tbody></table></details>"
    )
