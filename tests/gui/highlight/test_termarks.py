"""TER edits in the detail pane and the table: the ranges and formats of TerEditLayer, the shift
brackets, destinations and gap carets drawn over the text, tooltips, light and dark."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QPointF
from PySide6.QtGui import QColor, QImage, QTextCursor
from PySide6.QtWidgets import QStyleOptionViewItem
from sacrebleu.metrics.lib_ter import translation_edit_rate

from matchlight.core.metrics.ter import TER_DEST, TER_GAP, TER_SHIFT, TerEditLayer
from matchlight.core.scoring.config import ScoringConfig
from matchlight.core.style.palette import MIN_TEXT_CONTRAST, parse_hex, ter_colours
from matchlight.core.style.palette import contrast_ratio as rgb_contrast
from matchlight.core.text.tercom import tercom_tokenizer
from matchlight.gui.detail.detailpane import DetailPane
from matchlight.gui.highlight.termarks import TER_EDITS, shift_brackets, ter_tooltip
from tests.conftest import SHARED_DATA
from tests.gui.conftest import scored
from tests.gui.table.tablekit import Harness, dark_palette, wait_detail
from tests.kit import read_lines

WMT = SHARED_DATA / "wmt22-de-en"
SHOTS = Path("/tmp/matchlight-shots/ter")
CONFIG = ScoringConfig(metrics=("ter",))
#: Rows 96-100 of WMT22 de-en: every kind of TER edit, shifts of one to four words.
FIRST, LAST = 95, 100
SYSTEMS = ("Online-W", "LT22", "PROMT")


@pytest.fixture(scope="module")
def wmt():
    if not WMT.exists():
        pytest.skip("shared/data/wmt22-de-en is not present")
    refs = [read_lines(WMT / "ref.txt")[FIRST:LAST], read_lines(WMT / "ref2.txt")[FIRST:LAST]]
    systems = {n: read_lines(WMT / f"sys.{n}.txt")[FIRST:LAST] for n in SYSTEMS}
    return scored(references=refs, systems=systems, config=CONFIG)


def layer_of(detail) -> TerEditLayer:
    layer = detail.layer(TER_EDITS)
    assert isinstance(layer, TerEditLayer)
    return layer


def coloured(image: QImage, colour: str, rect=None, tolerance: int = 40) -> int:
    """Pixels of ``image`` (inside ``rect``) within ``tolerance`` of ``colour`` per channel."""
    want = QColor(colour)
    area = rect or image.rect()
    count = 0
    for y in range(max(0, area.top()), min(image.height(), area.bottom() + 1)):
        for x in range(max(0, area.left()), min(image.width(), area.right() + 1)):
            c = QColor(image.pixel(x, y))
            if (
                abs(c.red() - want.red()) <= tolerance
                and abs(c.green() - want.green()) <= tolerance
                and abs(c.blue() - want.blue()) <= tolerance
            ):
                count += 1
    return count


def teal_columns(image: QImage, rect) -> int:
    """Columns of ``rect`` with a teal pixel (the shift colour, antialiased) along its top."""
    count = 0
    top = int(rect.top())
    for x in range(int(rect.left()) + 1, int(rect.right())):
        for y in range(max(0, top - 1), top + 4):
            c = QColor(image.pixel(x, y))
            if c.blue() - c.red() > 50 and c.green() - c.red() > 30:
                count += 1
                break
    return count


def test_edit_counts_are_sacrebleus_and_the_breakdown_names_the_reference(wmt) -> None:
    tok = tercom_tokenizer()
    for k in range(LAST - FIRST):
        detail = wmt.detail(k)
        layer = layer_of(detail)
        for s, output in enumerate(detail.outputs):
            edits = [
                translation_edit_rate(tok(output), tok.reference(r))[0] for r in detail.references
            ]
            best = edits.index(min(edits))
            assert layer.best(s) == best
            assert layer.path(s).num_edits == min(edits)
            lines = detail.breakdown(s, ["Ref 1", "Ref 2"])[0].text()
            assert f"edits against Ref {best + 1}, the fewest of 2 references" in lines


def test_the_pane_shows_the_edits_with_their_marks(qtbot, wmt) -> None:
    pane = DetailPane()
    qtbot.addWidget(pane)
    pane.resize(780, 1100)
    pane.set_config(CONFIG)
    assert [m.key for m in pane.modes()] == ["ter", TER_EDITS]
    detail = wmt.detail(0)  # segment 96: five shifts, substitutions, a deletion, a gap
    pane.show_row(detail)
    pane.set_mode(TER_EDITS)
    pane.show()
    qtbot.waitExposed(pane)
    layer = layer_of(detail)
    light = ter_colours(False)
    kinds_seen: set[str] = set()
    for s in range(len(SYSTEMS)):
        view = pane.hypothesis_view(s)
        ranges = layer.hypothesis(s)
        assert view.ranges() == sorted(ranges)
        kinds_seen |= {k for _, _, k, _ in ranges}
        # The formats at the characters: substituted words tinted, deleted ones struck through.
        for a, _, kind, _ in ranges:
            cursor = QTextCursor(view.document())
            cursor.setPosition(a + 1)
            fmt = cursor.charFormat()
            if kind == "ter_sub":
                assert fmt.background().color().name() == light.substitution_tint
            elif kind == "ter_del":
                assert fmt.fontStrikeOut()
        # What is drawn over the text: a bracket per phrase line, in the shift colour.
        image = view.viewport().grab().toImage()
        for rect in shift_brackets(view.document(), view.plain_text(), ranges):
            assert teal_columns(image, rect) >= rect.width() * 0.8
        # Tooltips say each mark in words.
        for mark in layer.shift_marks(s):
            a = mark.phrases[0][0]
            assert mark.text in ter_tooltip(detail, s, a)
            assert mark.text in ter_tooltip(detail, s, mark.to)
        for gap in layer.gap_marks(s):
            assert gap.text in ter_tooltip(detail, s, gap.at)
    assert {"ter_sub", "ter_del", TER_SHIFT, TER_DEST, TER_GAP} <= kinds_seen
    legend = pane.legend.text()
    assert legend.startswith("TER edits:  substituted   deleted")
    assert "shifted phrase" in legend and "where it moves to" in legend
    SHOTS.mkdir(parents=True, exist_ok=True)
    pane.grab().save(str(SHOTS / "detail_light.png"))

    pane.setPalette(dark_palette())
    pane.set_dark(True)
    dark = ter_colours(True)
    view = pane.hypothesis_view(0)
    image = view.viewport().grab().toImage()
    rects = shift_brackets(view.document(), view.plain_text(), view.ranges())
    assert rects and coloured(image, dark.shift_line) > 0
    assert coloured(image, light.shift_line, tolerance=10) == 0
    pane.grab().save(str(SHOTS / "detail_dark.png"))


def test_tints_keep_their_text_readable_in_both_themes() -> None:
    for dark in (False, True):
        c = ter_colours(dark)
        for tint in (c.substitution_tint, c.insertion_tint):
            assert rgb_contrast(parse_hex(tint), parse_hex(c.text)) >= MIN_TEXT_CONTRAST


@pytest.mark.parametrize("dark", [False, True], ids=["light", "dark"])
def test_the_table_paints_the_same_marks(qtbot, wmt, dark) -> None:
    h = Harness(qtbot, wmt, config=CONFIG, row_height=64, scores=False)
    if dark:
        h.view.setPalette(dark_palette())
        h.delegate.set_dark(True)
    h.delegate.set_mode(TER_EDITS)
    h.view.resize(1500, 420)
    for col in range(h.model.columnCount()):
        if h.model.kind(col) in ("reference", "hypothesis"):
            h.view.setColumnWidth(col, 330)
    h.show_and_settle(qtbot)
    colours = ter_colours(dark)
    image = h.grab()
    hyp_cols = [c for c in range(h.model.columnCount()) if h.model.kind(c) == "hypothesis"]
    detail = wait_detail(qtbot, h.cache, 0)
    layer = layer_of(detail)
    for s, col in enumerate(hyp_cols):
        index = h.index(0, col)
        assert h.delegate.highlight_ranges(index) == layer.hypothesis(s)
        rect = h.rect(0, col)
        if layer.shift_marks(s):
            assert coloured(image, colours.shift_line, rect) > 10
        # A tooltip over the first shifted phrase says which shift it is.
        mark = layer.shift_marks(s)[0]
        doc = h.delegate.document(index, dark)
        assert doc is not None
        found = None
        for x in range(rect.left() + 2, rect.right() - 2, 3):
            for y in range(rect.top() + 2, rect.bottom() - 2, 4):
                tip = h.delegate.ter_tooltip_at(_option(h, index), index, QPointF(x, y))
                if tip and mark.text in tip:
                    found = tip
                    break
            if found:
                break
        assert found is not None
    image.save(str(SHOTS / f"table_{'dark' if dark else 'light'}.png"))


def _option(h, index) -> QStyleOptionViewItem:
    """The option the view gives the delegate for ``index``'s cell."""
    option = QStyleOptionViewItem()
    option.initFrom(h.view.viewport())
    option.rect = h.view.visualRect(index)
    option.font = h.view.font()
    option.widget = h.view
    return option
