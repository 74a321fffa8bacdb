"""The report's rows: each selected segment (up to ``max_rows``) with its references and
outputs, the highlight spans of :class:`~core.scoring.detail.RowDetailer`, the error spans of
the annotations and their list, and the legend of what the marks mean.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Final

from matchlight.core.annotation.model import ErrorSpan, Side, Status
from matchlight.core.metrics.base import ScoreColumn
from matchlight.core.metrics.registry import METRICS
from matchlight.core.metrics.ter import TerEditLayer
from matchlight.core.report.context import (
    PageContext,
    drawn_spans,
    primary_columns,
    reference_names,
    system_swatch,
)
from matchlight.core.report.highlight import SEVERITY_ORDER, esc, highlighted_html
from matchlight.core.report.svg import number_attr
from matchlight.core.scoring.config import ScoringConfig
from matchlight.core.scoring.detail import RowDetail, RowDetailer

__all__ = ["rows_section"]


#: The legend's keys of TER's edit marks, in order (the kinds the rows paint).
_TER_LEGEND: Final = (
    ("ter_sub", '<span class="tsb tsb-l">substituted</span>'),
    ("ter_del", '<span class="tdl">deleted</span>'),
    ("ter_ins", '<span class="tin">to insert (reference words the output lacks)</span>'),
    ("ter_gap", '<span class="tgap"></span> where words are missing'),
    ("ter_shift", '<span class="tsh">shifted phrase</span>'),
    ("ter_dest", '<span class="tdest"></span> where it moves to'),
)


def _legend(page: PageContext, kinds: set[str]) -> str:
    """What the tints and boxes of the rows mean: the range kinds painted, the levels of
    the mode, and the error severities when there are annotations."""
    mode = page.mode
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
    keys += [html for kind, html in _TER_LEGEND if kind in kinds]
    if page.annotations is not None:
        keys += [
            f'<span class="err sev-{sev.value}">{sev.value} error</span>' for sev in SEVERITY_ORDER
        ]
        keys.append('<span class="err undecided sev-neutral">undecided</span>')
        keys.append('<span class="omit">\u2038</span> omission')
    shown = "".join(f'<span class="key">{k}</span>' for k in keys)
    return f'<p class="legend">{esc(mode.label)}: {shown}</p>'


def rows_section(page: PageContext) -> str:
    """The selected rows (up to ``max_rows``) with their highlights and error spans."""
    session = page.session
    table = page.table
    order = page.order
    limit = page.options.max_rows or len(order)
    shown = order[:limit]
    parts = ['<section id="rows"><h2>Rows</h2>']
    described = page.order_text()
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
    detailer = RowDetailer(_detail_config(page))
    text = session.text
    spans_by_row = _spans_by_row(page)
    columns = [c for c in primary_columns(table)] + [table.column_info(k) for k in table.external]
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
        parts.append(_row(page, i, detail, spans_by_row, columns, kinds))
    parts.insert(legend_at, _legend(page, kinds))
    parts.append("</section>")
    return "".join(parts)


def _detail_config(page: PageContext) -> ScoringConfig:
    """The settings with only the metric whose highlight mode is shown: the rows' scores
    come from the table, and other metrics' details (chrF's are slow) are not needed."""
    config = page.session.config
    mode = page.mode
    if mode is None:
        return config
    for metric, settings in config.enabled():
        if any(m.key == mode.key for m in metric.highlight_modes(settings)):
            return config.with_metrics((metric.key,))
    return config  # pragma: no cover - the mode comes from the config


def _spans_by_row(page: PageContext) -> dict[tuple[str, int], list[ErrorSpan]]:
    found: dict[tuple[str, int], list[ErrorSpan]] = {}
    if page.annotations is None:
        return found
    for span in page.annotations.spans:
        if span.status is Status.REJECTED:
            continue
        found.setdefault((span.system, span.segment), []).append(span)
    for spans in found.values():
        spans.sort(key=lambda x: (x.start, x.end, x.created))
    return found


def _text(
    page: PageContext,
    text: str,
    ranges: Sequence[tuple[int, int, str, int]],
    spans: Sequence[ErrorSpan],
    titles: Sequence[tuple[int, int, str]] = (),
) -> str:
    body, cut = highlighted_html(
        text, ranges, spans=spans, max_chars=page.options.max_chars, titles=titles
    )
    if cut:
        body += (
            f'<span class="cut"> … ({len(text) - page.options.max_chars:,} more characters '
            "not shown)</span>"
        )
    return f'<div class="text">{body}</div>'


def _errors(page: PageContext, spans: Sequence[ErrorSpan]) -> str:
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
    page: PageContext,
    i: int,
    detail: RowDetail,
    spans_by_row: Mapping[tuple[str, int], list[ErrorSpan]],
    columns: Sequence[ScoreColumn],
    kinds: set[str],
) -> str:
    """One row: source, references and outputs with their highlights and error spans, and
    each output's segment scores. Adds the range kinds painted to ``kinds``."""
    session = page.session
    table = page.table
    mode = page.mode
    layer = None if mode is None else detail.layer(mode.key)
    parts = [
        f'<article class="seg" id="seg-{i + 1}" data-segment="{i + 1}"><h3>Segment {i + 1}</h3>'
    ]
    if detail.source is not None:
        parts.append(
            f'<div class="line src"><span class="role">Source</span>'
            f"{_text(page, detail.source, (), ())}</div>"
        )
    ref_names = reference_names(session)
    for r, ref in enumerate(detail.references):
        ranges = [] if layer is None else layer.reference(r, None)
        kinds.update(k for _, _, k, _ in ranges)
        spans = spans_by_row.get((ref_names[r], i), [])
        text = _text(page, ref, ranges, drawn_spans(spans))
        parts.append(
            f'<div class="line ref" data-reference="{r}"><span class="role">'
            f"{esc(session.reference_names[r])}</span>{text}"
            f"{_errors(page, spans)}</div>"
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
        titles: list[tuple[int, int, str]] = []
        if isinstance(layer, TerEditLayer):
            titles = layer.notes(s)
            if len(detail.references) > 1:
                scores += (
                    f'<span class="terref">TER edits against '
                    f"{esc(session.reference_names[layer.best(s)])} (the fewest edits)</span>"
                )
        parts.append(
            f'<div class="line hyp" data-system="{s}"><span class="role">{system_swatch(s)}'
            f"{esc(name)}{base}</span>"
            f"{_text(page, detail.outputs[s], ranges, drawn_spans(spans), titles)}"
            f'<div class="scores">{scores}</div>{_errors(page, spans)}</div>'
        )
    for key, note in detail.notes.items():
        label = METRICS[key].label if key in METRICS else key
        parts.append(f'<p class="note">{esc(label)}: {esc(note)}</p>')
    parts.append("</article>")
    return "".join(parts)
