"""Gains and losses against the baseline in the detail pane and the table's reference cells:
the formats sit exactly on core's contrast ranges (core.scoring.contrast), over the layer's own
tints, the legend names both systems, and the marks read in both themes (screenshots)."""

from __future__ import annotations

from typing import Any

import pytest
from PySide6.QtGui import QColor, QFont, QTextCharFormat, QTextDocument
from PySide6.QtWidgets import QApplication, QTableView

from matchlight.core.scoring.contrast import row_contrast
from matchlight.core.scoring.detail import RowDetail
from matchlight.core.style import palette as colours
from matchlight.core.style.palette import DARK, LIGHT, Theme
from matchlight.gui.detail.detailpane import DetailPane
from matchlight.gui.highlight.palette import (
    KINDS,
    build_document,
    highlight_format,
    legend_entries,
)
from matchlight.gui.highlight.ranges import reference_ranges
from tests.gui.table.tablekit import Harness, ciede2000, dark_palette, wait_detail

Underline = QTextCharFormat.UnderlineStyle
#: Mark tints must differ from every other tint at least this much (CIEDE2000).
DISTINCT = 10.0
SEGMENT = 14  # a sample row where "literal" gains and loses against "fluent" in both refs


def formats_at(doc: QTextDocument) -> list[QTextCharFormat]:
    """The character format of every position of a one-block, BMP-only document."""
    block = doc.firstBlock()
    found: list[QTextCharFormat] = [QTextCharFormat()] * len(block.text())
    for part in block.textFormats():
        fmt = QTextCharFormat(part.format)  # a copy: the range's own is a temporary
        for p in range(part.start, part.start + part.length):
            found[p] = fmt
    return found


def positions(spans: Any) -> set[int]:
    return {p for a, b in spans for p in range(a, b)}


@pytest.fixture
def pane(qtbot) -> DetailPane:
    widget = DetailPane()
    qtbot.addWidget(widget)
    widget.resize(760, 1150)
    return widget


# -- formats ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("theme", [LIGHT, DARK], ids=["light", "dark"])
def test_gain_and_loss_formats_are_shapes_with_cores_colours(theme: Theme) -> None:
    assert {"gain", "loss"} <= set(KINDS)
    gain = highlight_format("gain", 0, theme.dark)
    assert gain.fontWeight() == QFont.Weight.Bold
    assert gain.underlineStyle() == Underline.SingleUnderline
    # No colour of its own: the line is drawn in the text colour of the tint under it.
    assert not gain.underlineColor().isValid()
    assert not gain.hasProperty(QTextCharFormat.Property.BackgroundBrush)
    loss = highlight_format("loss", 0, theme.dark)
    assert loss.background().color() == QColor(theme.loss_tint)
    assert loss.foreground().color() == QColor(theme.fixed_text)
    assert loss.fontStrikeOut()
    assert loss.underlineStyle() == Underline.NoUnderline
    assert loss.underlineColor() == QColor(theme.loss_line)  # Qt strikes through in it
    # The loss tint is told apart from every other tint of the theme.
    loss_lab = colours.to_lab(colours.parse_hex(theme.loss_tint))
    for other in [theme.missed_tint, theme.lcs_tint, theme.link_tint, *theme.ramp]:
        difference = ciede2000(loss_lab, colours.to_lab(colours.parse_hex(other)))
        assert difference >= DISTINCT, (other, difference)


@pytest.mark.parametrize("dark", [False, True], ids=["light", "dark"])
def test_a_gain_keeps_the_tint_under_it_and_a_loss_replaces_the_wave(dark: bool) -> None:
    text = "one two three"
    ranges = [(0, 3, "match", 3), (4, 7, "unmatched", 0), (8, 13, "lcs", 1)]
    marks = [(0, 3, "gain", 0), (4, 7, "loss", 0), (8, 13, "gain", 0)]
    doc = build_document(text, ranges + marks, dark=dark)
    formats = formats_at(doc)
    match = highlight_format("match", 3, dark)
    assert formats[1].background().color() == match.background().color()
    assert formats[1].foreground().color() == match.foreground().color()
    assert formats[1].fontWeight() == QFont.Weight.Bold
    assert formats[1].underlineStyle() == Underline.SingleUnderline
    assert formats[5].background().color() == highlight_format("loss", 0, dark).background().color()
    assert formats[5].fontStrikeOut() and formats[5].underlineStyle() == Underline.NoUnderline
    lcs = highlight_format("lcs", 1, dark)
    assert formats[10].background().color() == lcs.background().color()
    assert not formats[10].underlineColor().isValid()  # the text's colour, not the LCS green
    assert formats[3].fontWeight() != QFont.Weight.Bold and not formats[3].fontStrikeOut()


def test_the_legend_names_both_systems(sample) -> None:
    mode = sample.config.highlight_modes()[0]
    entries = legend_entries(mode, ["match", "gain", "loss"], ("literal", "fluent"))
    assert entries[-2:] == [
        ("matched by literal, not by fluent", "gain", 0),
        ("matched by fluent, not by literal", "loss", 0),
    ]
    assert legend_entries(mode, ["gain"])[-1][0] == "matched by this system, not by the baseline"


# -- the detail pane -------------------------------------------------------------------------------


def assert_marks_painted(pane: DetailPane, detail: RowDetail, mode: str, system: int, base: int):
    contrast = row_contrast(detail, mode, system=system, baseline=base)
    assert contrast is not None
    dark = pane.is_dark()
    max_level = next(m.max_level for m in pane.modes() if m.key == mode)
    loss_tint = highlight_format("loss", 0, dark).background().color()
    for r in range(len(detail.references)):
        view = pane.reference_view(r)
        formats = formats_at(view.document())
        gains, losses = positions(contrast.gains[r]), positions(contrast.losses[r])
        underneath = {
            p: kind_level
            for a, b, *kind_level in reference_ranges(detail, r, mode, system)
            for p in range(a, b)
        }
        for p, fmt in enumerate(formats):
            bold = fmt.fontWeight() == QFont.Weight.Bold
            assert bold == (p in gains), (r, p)
            assert fmt.fontStrikeOut() == (p in losses), (r, p)
            if p in gains:
                kind, level = underneath[p]
                tint = highlight_format(kind, level, dark, max_level)
                assert fmt.background().color() == tint.background().color(), (r, p)
                assert fmt.underlineStyle() == Underline.SingleUnderline
            if p in losses:
                assert fmt.background().color() == loss_tint
    out = formats_at(pane.hypothesis_view(system).document())
    gained = positions(contrast.hypothesis_gains)
    assert gained, "the row has output gains"
    assert {p for p, f in enumerate(out) if f.fontWeight() == QFont.Weight.Bold} == gained
    for s in range(len(detail.systems)):
        if s != system:
            doc = pane.hypothesis_view(s).document()
            assert not any(f.fontWeight() == QFont.Weight.Bold for f in formats_at(doc))


@pytest.mark.parametrize("mode", ["bleu", "lcs"])
def test_the_pane_marks_gains_and_losses_where_core_says(pane, sample, mode) -> None:
    detail = sample.detail(SEGMENT)
    pane.show_row(detail)
    pane.set_mode(mode)
    literal, fluent = 1, 0
    plain = [pane.reference_view(r).ranges() for r in range(2)]
    pane.set_reference_system(literal)
    pane.set_baseline(fluent)
    contrast = row_contrast(detail, mode, system=literal, baseline=fluent)
    assert contrast is not None and any(contrast.gains) and any(contrast.losses)
    assert_marks_painted(pane, detail, mode, literal, fluent)
    # The view's ranges are the layer's, then the marks.
    for r in range(2):
        own = reference_ranges(detail, r, mode, literal)
        assert pane.reference_view(r).ranges() == own + contrast.reference_ranges(r)
        gained, lost = len(contrast.gains[r]), len(contrast.losses[r])
        assert pane.caption("reference", r).endswith(
            f"literal: {gained} {'part' if gained == 1 else 'parts'} gained, {lost} lost "
            "against fluent"
        )
    legend = pane.legend.text()
    assert "matched by literal, not by fluent" in legend
    assert "matched by fluent, not by literal" in legend
    # Hovering still reads the layer's own ranges, not the marks.
    index = contrast.hypothesis_gains[0][0]
    pane.hover_at(literal, index)
    assert pane.hovered_span() is not None
    pane.hover_at(literal, None)
    # The baseline itself, no baseline, or any system: no marks.
    for system, baseline in [(fluent, fluent), (literal, None), (None, fluent)]:
        pane.set_reference_system(system)
        pane.set_baseline(baseline)
        for r in range(2):
            expected = reference_ranges(detail, r, mode, system)
            assert pane.reference_view(r).ranges() == expected
        assert "not by" not in pane.legend.text()
    pane.set_reference_system(None)
    assert [pane.reference_view(r).ranges() for r in range(2)] == plain


def test_the_pane_marks_follow_the_baseline(pane, sample) -> None:
    detail = sample.detail(SEGMENT)
    pane.show_row(detail)
    pane.set_reference_system(2)
    for baseline in (0, 1):
        pane.set_baseline(baseline)
        assert_marks_painted(pane, detail, "bleu", 2, baseline)
        assert f"not by {detail.systems[baseline]}" in pane.legend.text()
    # A row with fewer systems than the baseline's index: no marks, no error.
    pane.set_baseline(7)
    assert "not by" not in pane.legend.text()


def test_screenshots_of_the_marks_light_and_dark(qtbot, pane, sample, save_shot) -> None:
    detail = sample.detail(SEGMENT)
    pane.show_row(detail)
    pane.set_reference_system(1)
    pane.set_baseline(0)
    pane.show()
    qtbot.waitExposed(pane)
    QApplication.processEvents()
    save_shot(pane, "contrast-detailpane-bleu-light")
    pane.set_mode("lcs")
    QApplication.processEvents()
    save_shot(pane, "contrast-detailpane-lcs-light")
    pane.set_mode("bleu")
    pane.setPalette(dark_palette())
    QApplication.processEvents()
    assert pane.is_dark()
    assert_marks_painted(pane, detail, "bleu", 1, 0)
    save_shot(pane, "contrast-detailpane-bleu-dark")


# -- the table's reference cells -----------------------------------------------------------------


def test_reference_cells_show_the_same_marks(qtbot, sample, save_shot) -> None:
    h = Harness(qtbot, sample, row_height=44)
    try:
        h.view.resize(1500, 320)
        h.show_and_settle(qtbot)
        detail = wait_detail(qtbot, h.cache, SEGMENT)
        column = h.model.reference_column(0)
        index = h.index(SEGMENT, column)
        own = reference_ranges(detail, 0, "bleu", 1)
        h.delegate.set_reference_system(1)
        assert h.delegate.highlight_ranges(index) == own
        h.delegate.set_baseline(0)
        assert h.delegate.baseline() == 0
        contrast = row_contrast(detail, "bleu", system=1, baseline=0)
        assert contrast is not None and contrast.gains[0]
        assert h.delegate.highlight_ranges(index) == own + contrast.reference_ranges(0)
        doc = h.delegate.document(index)
        assert doc is not None
        formats = formats_at(doc)
        gains, losses = positions(contrast.gains[0]), positions(contrast.losses[0])
        assert {p for p, f in enumerate(formats) if f.fontWeight() == QFont.Weight.Bold} == gains
        assert {p for p, f in enumerate(formats) if f.fontStrikeOut()} == losses
        # Hypothesis cells are untouched; the baseline as reference system shows no marks.
        hyp = h.index(SEGMENT, h.model.hypothesis_column(1))
        assert h.delegate.highlight_ranges(hyp) == detail.layer("bleu").hypothesis(1)
        h.delegate.set_reference_system(0)
        assert h.delegate.highlight_ranges(index) == reference_ranges(detail, 0, "bleu", 0)
        h.delegate.set_reference_system(1)
        doc = h.delegate.document(index)
        assert doc is not None and any(f.fontStrikeOut() for f in formats_at(doc))
        view: QTableView = h.view
        view.scrollTo(index)
        save_shot(view, "contrast-table-light")
        h.delegate.set_baseline(None)
        doc = h.delegate.document(index)
        assert doc is not None and not any(f.fontStrikeOut() for f in formats_at(doc))
        assert h.delegate.highlight_ranges(index) == own
    finally:
        h.cache.shutdown()
