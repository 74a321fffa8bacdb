"""The report's tables of figures: the header (inputs, selection, warnings, signatures), the
corpus summary per system, the language check and the MQM / ESA section of the annotations.

Each section is a function of the page's :class:`~matchlight.core.report.context.PageContext`
returning its HTML; :mod:`~matchlight.core.report.page` puts them in order.
"""

from __future__ import annotations

import math
from datetime import UTC, datetime

import numpy as np
import numpy.typing as npt

from matchlight.core import __version__
from matchlight.core.analysis.references import reference_leaks
from matchlight.core.analysis.scales import corpus_decimals
from matchlight.core.analysis.selection import Selection
from matchlight.core.annotation.model import Status
from matchlight.core.annotation.mqm import (
    compare_segment_sets,
    mqm_summary,
    segment_mqm,
    system_esa,
    system_mqm,
)
from matchlight.core.annotation.typology import AnnotationMode
from matchlight.core.metrics.registry import METRICS
from matchlight.core.report.context import (
    PageContext,
    describe_filter,
    num_cell,
    score_columns,
    system_swatch,
)
from matchlight.core.report.highlight import SEVERITY_ORDER, esc
from matchlight.core.scoring.advice import detect_script, has_sentence_marker, scoring_advice

__all__ = ["header_section", "language_section", "mqm_section", "summary_section"]


def header_section(page: PageContext, title: str) -> str:
    """The title, the inputs, the selection, the links to the sections and the warnings (scoring
    advice, references that look made from an output)."""
    session = page.session
    table = page.table
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
                f"{system_swatch(s)}{esc(name)}" + (" (baseline)" if s == session.baseline else "")
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
    if page.annotations is not None and page.annotations.origin:
        items.append(("Session", f"<code>{esc(page.annotations.origin)}</code>"))
    if page.filtered or session.selection.filters:
        described = "; ".join(describe_filter(f) for f in session.selection.filters)
        items.append(
            (
                "Selection",
                f"{len(page.rows):,} of {session.n_segments:,} segments"
                + (f" ({esc(described)})" if described else ""),
            )
        )
    sort = session.selection.sort
    if sort != Selection().sort:
        items.append(("Row order", esc(page.order_text())))
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
        if (anchor != "significance" or page.wants_significance())
        and (anchor != "mqm" or page.annotations is not None)
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


def summary_section(page: PageContext) -> str:
    """The corpus figures per system, over every row and over the selected rows."""
    table = page.table
    columns = score_columns(table)
    details = [k for k in table.metric_keys if k == "bleu"]
    head = "".join(
        f'<th class="num" title="{esc(c.description)}">{esc(c.short)}</th>' for c in columns
    )
    head += "".join(f"<th>{esc(METRICS[k].label)} detail</th>" for k in details)
    blocks: list[tuple[str, npt.NDArray[np.int64] | None, str]] = [
        ("all", None, f"All {table.n_segments:,} segments")
    ]
    if page.filtered:
        blocks.append(("selected", page.rows, f"Selected {len(page.rows):,} segments"))
    parts = ['<section id="summary"><h2>Corpus scores</h2>']
    for key, rows, caption in blocks:
        parts.append(
            f'<table class="summary" data-rows="{key}"><caption>{caption}'
            f'</caption><thead><tr><th>System</th><th class="num">Segments</th>{head}'
            "</tr></thead><tbody>"
        )
        for s, name in enumerate(table.systems):
            corpus = table.corpus(s, rows)
            base = ' class="baseline"' if s == page.session.baseline else ""
            cells = "".join(
                num_cell(
                    corpus.values.get(c.key, math.nan),
                    f'data-system="{s}" data-column="{esc(c.key)}"',
                    corpus_decimals(c),
                )
                for c in columns
            )
            for k in details:
                describe = getattr(corpus.details.get(k), "describe", None)
                cells += f"<td><code>{esc(describe() if callable(describe) else '')}</code></td>"
            parts.append(
                f'<tr{base} data-system="{s}"><td class="name">{system_swatch(s)}{esc(name)}</td>'
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


def language_section(page: PageContext) -> str:
    """Per system, outputs in another language than the references and outputs copying the
    source (:mod:`core.analysis.language`), over all rows and the selected ones."""
    flags = page.language
    if flags is None:
        return ""
    expectation = flags.expectation
    scopes: list[tuple[str, npt.NDArray[np.int64] | None]] = [("all", None)]
    if page.filtered:
        scopes.append(("selected", page.rows))
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
        parts.append(f'<tr><td class="name">{system_swatch(s)}{esc(name)}</td>{cells}</tr>')
    parts.append("</tbody></table></section>")
    return "".join(parts)


def mqm_section(page: PageContext) -> str:
    """The annotations' MQM (or ESA) figures per system, when the report has annotations."""
    notes = page.annotations
    if notes is None:
        return ""
    names = page.table.systems
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
    if page.filtered:
        chosen = set(page.rows.tolist())
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
        + "".join(f'<th class="num">{esc(sev.value.capitalize())}</th>' for sev in SEVERITY_ORDER)
        + '<th class="num">MQM</th>'
        + (f'<th class="num">MQM (the {len(sets.common):,} common segments)</th>' if common else "")
        + ('<th class="num">MQM (selected)</th>' if page.filtered else "")
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
            + num_cell(math.nan if item is None else item.mqm, attrs + ' data-field="mqm"', 3)
        )
        if common:
            cells += num_cell(common.get(name, math.nan), attrs + ' data-field="mqm-common"', 3)
        if page.filtered:
            cells += num_cell(
                selected_mqm.get(name, math.nan), attrs + ' data-field="mqm-selected"', 3
            )
        cells += num_cell(
            math.nan if figure is None else figure.value, attrs + ' data-field="segment-score"'
        ) + (
            f'<td class="num" {attrs} data-field="esa-segments">'
            f"{0 if figure is None else figure.segments:,}</td>"
        )
        parts.append(f'<tr><td class="name">{system_swatch(s)}{esc(name)}</td>{cells}</tr>')
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
            f'<p class="note">{pending:,} undecided spans are shown with dotted boxes and '
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
