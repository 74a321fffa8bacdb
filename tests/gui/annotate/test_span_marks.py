"""Encodings that never collide (issue 16, finding 7): the text selection, the match tints, the
unmatched marks and the span severities each have a look of their own, the same in the app and
in the report, readable in both themes, and a span's box never crosses a descender.

Floors (WCAG 2 contrast, CIEDE2000 colour difference):
* selected text: its band differs from every match tint, fixed tint and the background by at
  least ΔE 20, and its text keeps 4.5:1 on it;
* match tints: at least :data:`MIN_TINT_CONTRAST` (1.25:1) against the theme's background;
* span outlines: 3:1 against the background (WCAG's floor for graphics), ΔE 12 between any two
  severities, ΔE 15 from every highlight underline colour.
"""

from __future__ import annotations

import re
from itertools import combinations

import pytest
from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QColor, QFont, QImage, QPainter, QPalette

from matchlight.core.annotation.model import ErrorSpan, SegmentScore, Severity, Status
from matchlight.core.report.context import ReportAnnotations, ReportOptions
from matchlight.core.report.page import render_report
from matchlight.core.style import palette as colours
from matchlight.core.style.palette import MIN_TINT_CONTRAST
from matchlight.gui.annotate.painting import box_rect, paint_spans, range_rects, span_style
from matchlight.gui.detail.segmenttext import SegmentText
from matchlight.gui.highlight.palette import build_document, highlight_format, order_tint
from matchlight.gui.shell.theme import theme_palette
from tests.core.report.test_report_mqm import sample_session
from tests.gui.table.tablekit import ciede2000

THEMES = [False, True]
IDS = ["light", "dark"]


def _base(dark: bool) -> QColor:
    return theme_palette("dark" if dark else "light").color(QPalette.ColorRole.Base)


def _lab(colour: QColor) -> tuple[float, float, float]:
    return colours.to_lab((colour.redF(), colour.greenF(), colour.blueF()))


def _delta(a: QColor, b: QColor) -> float:
    return ciede2000(_lab(a), _lab(b))


def _contrast(a: QColor, b: QColor) -> float:
    return colours.contrast_ratio(
        (a.redF(), a.greenF(), a.blueF()), (b.redF(), b.greenF(), b.blueF())
    )


def _tints(dark: bool) -> list[QColor]:
    tints = [order_tint(level, dark, top) for top in range(1, 10) for level in range(1, top + 1)]
    for kind in ("missed", "lcs", "link", "loss"):
        tints.append(highlight_format(kind, 0, dark).background().color())
    return tints


def _span(severity: str, status: Status = Status.CONFIRMED, line: str = "gypsy ploy") -> ErrorSpan:
    span = ErrorSpan.create(
        system="A",
        segment=0,
        line=line,
        start=0,
        end=len(line),
        severity=severity,
        category="Accuracy/Mistranslation",
        annotator="x",
    )
    return span if status is Status.CONFIRMED else span.edited(status=status)


@pytest.mark.parametrize("dark", THEMES, ids=IDS)
def test_selected_text_stands_out_from_every_tint(qtbot, dark: bool) -> None:
    view = SegmentText()
    qtbot.addWidget(view)
    view.setPalette(theme_palette("dark" if dark else "light"))
    view.set_content("a cat sat", [(0, 1, "match", 1), (2, 5, "match", 4)], dark)
    band = view.palette().color(QPalette.ColorRole.Highlight)
    text = view.palette().color(QPalette.ColorRole.HighlightedText)
    nearest = min(_delta(band, tint) for tint in [*_tints(dark), _base(dark)])
    assert nearest >= 20, (band.name(), nearest)
    assert _contrast(band, text) >= 4.5


@pytest.mark.parametrize("dark", THEMES, ids=IDS)
def test_every_match_tint_shows_on_the_theme_background(qtbot, dark: bool) -> None:
    base = _base(dark)
    for top in range(1, 10):
        for level in range(1, top + 1):
            tint = order_tint(level, dark, top)
            assert _contrast(tint, base) >= MIN_TINT_CONTRAST, (top, level, tint.name())


@pytest.mark.parametrize("dark", THEMES, ids=IDS)
def test_span_marks_differ_from_each_other_and_from_the_highlights(qtbot, dark: bool) -> None:
    styles = {sev: span_style(_span(sev.value), dark) for sev in Severity}
    order = [Severity.NEUTRAL, Severity.MINOR, Severity.MAJOR, Severity.CRITICAL]
    # Severity is the line weight (strictly heavier each step), critical doubled, and hue.
    widths = [styles[s].width for s in order]
    assert widths == sorted(set(widths)), widths
    assert [styles[s].double for s in order] == [False, False, False, True]
    for a, b in combinations(order, 2):
        assert _delta(styles[a].color, styles[b].color) >= 12, (a, b)
    underlines = [
        highlight_format(kind, 0, dark).underlineColor()
        for kind in ("unmatched", "missed", "lcs", "link")
    ]
    for sev, style in styles.items():
        assert _contrast(style.color, _base(dark)) >= 3.0, sev
        assert min(_delta(style.color, line) for line in underlines) >= 15, sev
        # Confirmed boxes are solid: dashes are the "missed" underline, dots mean undecided.
        assert style.style == Qt.PenStyle.SolidLine, sev
        undecided = span_style(_span(sev.value, Status.UNDECIDED), dark)
        assert undecided.style == Qt.PenStyle.DotLine
        assert (undecided.width, undecided.double, undecided.color) == (
            style.width,
            style.double,
            style.color,
        )


def _css_rules(page: str) -> dict[str, dict[str, str]]:
    css = re.search(r"<style>(.*?)</style>", page, re.S).group(1)
    rules: dict[str, dict[str, str]] = {}
    for selectors, body in re.findall(r"([^{}]+)\{([^}]*)\}", css):
        props = dict(
            (k.strip(), v.strip())
            for k, v in (p.split(":", 1) for p in body.split(";") if ":" in p)
        )
        for selector in selectors.split(","):
            rules.setdefault(selector.strip(), {}).update(props)
    return rules


def test_the_report_draws_spans_as_the_app_does(qtbot) -> None:
    session = sample_session()
    name = session.table.systems[0]
    line = session.text.systems[0][0]
    spans = tuple(
        ErrorSpan.create(
            system=name,
            segment=0,
            line=line,
            start=0,
            end=3,
            severity=sev.value,
            category="Accuracy/Mistranslation",
            annotator="r",
        )
        for sev in Severity
    )
    page = render_report(
        session,
        annotations=ReportAnnotations(spans, (SegmentScore(name, 0, "r", 50.0),)),
        options=ReportOptions(max_rows=1),
    )
    rules = _css_rules(page)
    for sev in Severity:
        app = span_style(_span(sev.value), dark=False)
        rule = rules[f".err.sev-{sev.value}"]
        assert QColor(rule["border-color"]) == app.color, sev
        assert float(rule["border-width"].removesuffix("px")) == app.width, sev
        assert rule["border-style"] == ("double" if app.double else "solid"), sev
        assert QColor(rules[f"sup.sev-{sev.value}"]["color"]) == app.color
    assert rules[".err.undecided"]["border-style"] == "dotted"
    assert span_style(_span("minor", Status.UNDECIDED), False).style == Qt.PenStyle.DotLine


def _render(text: str, spans: list[ErrorSpan], dark: bool) -> tuple[QImage, object]:
    font = QFont()
    font.setPixelSize(18)
    doc = build_document(text, [], dark=dark, font=font, margin=8)
    doc.setTextWidth(400)
    image = QImage(420, 60, QImage.Format.Format_ARGB32)
    image.fill(_base(dark))
    painter = QPainter(image)
    try:
        painter.translate(QPointF(4, 4))
        doc.drawContents(painter)
        paint_spans(painter, doc, text, spans, dark)
    finally:
        painter.end()
    return image, doc


@pytest.mark.parametrize("dark", THEMES, ids=IDS)
@pytest.mark.parametrize("severity", [s.value for s in Severity])
def test_span_boxes_enclose_descenders(qtbot, dark: bool, severity: str) -> None:
    text = "gypsy ploy"
    plain, doc = _render(text, [], dark)
    boxed, _ = _render(text, [_span(severity, line=text)], dark)
    layout = doc.firstBlock().layout()
    line = layout.lineAt(0)
    (rect,) = range_rects(doc, 0, len(text))
    style = span_style(_span(severity, line=text), dark)
    box = box_rect(rect, style)
    # Geometry: the inner edge of the box's line lies below the font's descent.
    baseline = layout.position().y() + line.y() + line.ascent()
    assert box.bottom() - style.stroke / 2 >= baseline + line.descent() - 1e-6
    # Pixels: every pixel of the glyphs (descenders of g, y, p included) is left untouched.
    base = _base(dark).rgb()
    ink = [
        (x, y)
        for y in range(plain.height())
        for x in range(plain.width())
        if plain.pixel(x, y) != base
    ]
    assert ink and max(y for _, y in ink) > 4 + baseline  # descenders were drawn
    touched = [(x, y) for x, y in ink if boxed.pixel(x, y) != plain.pixel(x, y)]
    assert not touched, touched[:10]
    # ... and the box was drawn, below the lowest descender.
    changed = [
        y
        for y in range(boxed.height())
        for x in range(boxed.width())
        if boxed.pixel(x, y) != plain.pixel(x, y)
    ]
    assert changed and max(changed) > max(y for _, y in ink)
