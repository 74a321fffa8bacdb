"""HighlightDelegate and DetailCache: painted ranges are core's layers, modes are the config's."""

from __future__ import annotations

import math
import threading
from collections.abc import Iterator
from concurrent.futures import Future, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from itertools import pairwise
from typing import Any

import pytest
from PySide6.QtCore import (
    QRect,
    Qt,
    QTimer,
)
from PySide6.QtGui import QColor, QImage, QPalette, QTextCharFormat, QTextCursor

import matchlight.gui.highlight.detailcache
import matchlight.gui.table.delegate
from matchlight.core.metrics.bleuoptions import MAX_ORDER_LIMIT
from matchlight.core.metrics.registry import METRICS
from matchlight.core.scoring.config import ScoringConfig
from matchlight.core.scoring.detail import RowDetail, RowDetailer
from matchlight.core.text.corpus import corpus_text_from_lines
from matchlight.gui.highlight.detailcache import DetailCache, compute_ahead
from matchlight.gui.highlight.palette import (
    KINDS,
    apply_ranges,
    build_document,
    contrast_ratio,
    highlight_format,
    order_tint,
    to_lab,
    utf16_offsets,
    visible_breaks,
)
from matchlight.gui.highlight.ranges import hypothesis_ranges, reference_ranges
from matchlight.gui.table.delegate import HighlightDelegate, selection_color
from tests.gui.conftest import qrgb_words
from tests.gui.table.tablekit import WAIT_MS, Harness, ciede2000, dark_palette, wait_detail
from tests.gui.toymetric import ToyMetric
from tests.kit import FakeClock

NO_BRUSH = Qt.BrushStyle.NoBrush
NLTK_ON = ScoringConfig().with_metrics("bleu,rouge,nltk_bleu")


def shown(detail: RowDetail) -> tuple[Any, ...]:
    """Everything the GUI reads of a row detail, for comparing two of them (the metrics' row
    details compare by identity)."""
    n_sys, n_refs = len(detail.systems), len(detail.references)
    names = [f"Ref {r + 1}" for r in range(n_refs)]
    layers = {
        layer.key: (
            layer.max_level,
            [layer.hypothesis(s) for s in range(n_sys)],
            [layer.reference(r, s) for r in range(n_refs) for s in (None, *range(n_sys))],
            [list(layer.links(s, r)) for s in range(n_sys) for r in range(n_refs)],
        )
        for layer in detail.layers()
    }
    values = [
        {k: None if math.isnan(v) else v for k, v in detail.values(s).items()} for s in range(n_sys)
    ]
    breakdowns = [detail.breakdown(s, names) for s in range(n_sys)]
    return (
        detail.segment,
        detail.source,
        detail.references,
        detail.systems,
        detail.outputs,
        dict(detail.notes),
        layers,
        values,
        breakdowns,
    )


@pytest.fixture
def harness(qtbot) -> Iterator[Any]:
    made: list[Harness] = []

    def make(data: Any, **kw: Any) -> Harness:
        h = Harness(qtbot, data, **kw)
        made.append(h)
        return h

    yield make
    for h in made:
        h.cache.shutdown()


@pytest.fixture
def toy(monkeypatch) -> ScoringConfig:
    """The toy character metric registered, and a config scoring BLEU, ROUGE and it."""
    monkeypatch.setitem(METRICS, "toy", ToyMetric())
    return ScoringConfig().with_metrics("bleu,rouge,toy")


def count_color(image: QImage, rect: QRect, color: QColor) -> int:
    """Pixels of ``color`` in ``rect``, every other one across and down."""
    rect = rect.intersected(image.rect())
    assert not rect.isEmpty()
    words = qrgb_words(image)[rect.top() : rect.bottom() : 2, rect.left() : rect.right() : 2]
    return int((words == color.rgb()).sum())


# -- palette --------------------------------------------------------------------------------------


def delta_e(c1: QColor, c2: QColor) -> float:
    """CIEDE2000 colour difference (Sharma, Wu & Dalal 2005), the test's own measure."""
    (l1, a1, b1), (l2, a2, b2) = to_lab(c1), to_lab(c2)
    return ciede2000((l1, a1, b1), (l2, a2, b2))


@pytest.mark.parametrize(
    ("lab1", "lab2", "expected"),
    [  # Sharma, Wu & Dalal (2005), table 1: pairs 1, 2, 17, 25
        ((50.0, 2.6772, -79.7751), (50.0, 0.0, -82.7485), 2.0425),
        ((50.0, 3.1571, -77.2803), (50.0, 0.0, -82.7485), 2.8615),
        ((50.0, 2.5, 0.0), (73.0, 25.0, -18.0), 27.1492),
        ((60.2574, -34.0099, 36.2677), (60.4626, -34.1751, 39.4387), 1.2644),
    ],
)
def test_the_colour_difference_measure_is_ciede2000(lab1, lab2, expected) -> None:
    assert ciede2000(lab1, lab2) == pytest.approx(expected, abs=1e-4)


#: Adjacent tints must differ at least this much (CIEDE2000): a clearly visible step for up to
#: 6 levels (chrF), still a visible one for BLEU's and NLTK's maximum order.
CLEAR_STEP = 10.0
VISIBLE_STEP = 5.0


def test_the_measure_flags_the_tints_the_issue_complained_about() -> None:
    """The 2-, 3- and 4-gram tints of the old dark palette were "nearly the same colour"."""
    old_dark = [QColor(c) for c in ("#22507f", "#24609d", "#2770b5")]
    assert max(delta_e(a, b) for a, b in pairwise(old_dark)) < CLEAR_STEP


@pytest.mark.parametrize("dark", [False, True], ids=["light", "dark"])
def test_tints_are_ordered_distinct_and_readable(dark: bool) -> None:
    base = QColor("#1e1e1e" if dark else "#ffffff")
    for max_level in range(1, MAX_ORDER_LIMIT + 1):
        tints = [order_tint(level, dark, max_level) for level in range(1, max_level + 1)]
        # One hue, ordered by lightness: deeper with the level (light), brighter (dark theme).
        lightness = [to_lab(t)[0] for t in tints]
        assert lightness == sorted(lightness, reverse=not dark)
        steps = [delta_e(a, b) for a, b in pairwise(tints)]
        floor = CLEAR_STEP if max_level <= 6 else VISIBLE_STEP
        assert all(step >= floor for step in steps), (max_level, steps)
        assert delta_e(tints[0], base) >= VISIBLE_STEP  # the first level is seen at all
        for level, tint in enumerate(tints, start=1):
            fmt = highlight_format("match", level, dark, max_level)
            assert fmt.background().color() == tint
            assert contrast_ratio(fmt.foreground().color(), tint) >= 4.5, (max_level, level)
        assert order_tint(max_level + 3, dark, max_level) == tints[-1]
    for kind in KINDS:
        fmt = highlight_format(kind, 2, dark)
        if fmt.background().style() != NO_BRUSH:
            text = fmt.foreground().color()
            assert contrast_ratio(fmt.background().color(), text) >= 4.5, kind
    # Unmatched is a shape, not only a colour.
    assert highlight_format("unmatched", 0, dark).underlineStyle() == (
        QTextCharFormat.UnderlineStyle.WaveUnderline
    )
    assert highlight_format("missed", 0, dark).underlineStyle() != (
        QTextCharFormat.UnderlineStyle.NoUnderline
    )
    with pytest.raises(ValueError):
        highlight_format("glow", 1, dark)
    with pytest.raises(ValueError):
        order_tint(0, dark)


def test_documents_keep_text_verbatim_and_map_utf16_offsets() -> None:
    text = "😀 <b>cat</b> &amp; dog\tשלום\u2028end 𝒳y"
    cat = text.index("cat")
    end = text.index("end")
    y = text.index("y")
    ranges = [(cat, cat + 3, "match", 2), (end, end + 3, "unmatched", 0), (y, y + 1, "lcs", 1)]
    doc = build_document(text, ranges, dark=False, max_level=6, one_line=True)
    assert doc.toPlainText() == visible_breaks(text)
    assert "<b>" in doc.toPlainText() and "&amp;" in doc.toPlainText()
    assert "\u21b5" in doc.toPlainText()  # the line separator is shown, not broken
    offsets = utf16_offsets(text)
    assert offsets is not None and offsets[cat] == cat + 1  # the emoji takes two units

    def format_at(index: int) -> QTextCharFormat:
        cursor = QTextCursor(doc)
        cursor.setPosition(offsets[index] + 1)  # the format of the character at ``index``
        return cursor.charFormat()

    assert format_at(cat).background().color() == order_tint(2, False, 6)
    assert format_at(cat + 2).background().color() == order_tint(2, False, 6)
    assert order_tint(2, False, 6) != order_tint(2, False, 4)  # the mode's scale
    assert format_at(cat - 1).background().style() == NO_BRUSH
    assert format_at(cat + 3).background().style() == NO_BRUSH
    assert format_at(end).underlineStyle() == QTextCharFormat.UnderlineStyle.WaveUnderline
    assert format_at(end - 1).underlineStyle() == QTextCharFormat.UnderlineStyle.NoUnderline
    assert (
        format_at(y).background().color() == highlight_format("lcs", 1, False).background().color()
    )
    assert format_at(y - 1).background().style() == NO_BRUSH  # the astral 𝒳 before it is untouched


# -- ranges vs core -------------------------------------------------------------------------------


def test_clipped_matches_light_up_only_as_many_as_the_reference_has(qtbot, harness, make_scored):
    data = make_scored(
        references=[["the cat is on the mat"]], systems={"echo": ["the the the the the the"]}
    )
    h = harness(data)
    hyp = h.index(0, h.model.hypothesis_column(0))
    ref = h.index(0, h.model.reference_column(0))
    assert h.delegate.highlight_ranges(hyp) == []  # not computed yet: plain text
    detail = wait_detail(qtbot, h.cache, 0)
    assert shown(detail) == shown(data.detail(0))
    # "the" occurs twice in the reference: only two of the six match (clipped counts).
    assert h.delegate.highlight_ranges(hyp) == [
        (0, 3, "match", 1),
        (4, 7, "match", 1),
        (8, 11, "unmatched", 0),
        (12, 15, "unmatched", 0),
        (16, 19, "unmatched", 0),
        (20, 23, "unmatched", 0),
    ]
    assert h.delegate.highlight_ranges(ref) == [
        (0, 3, "match", 1),
        (4, 7, "missed", 0),
        (8, 10, "missed", 0),
        (11, 13, "missed", 0),
        (14, 17, "match", 1),
        (18, 21, "missed", 0),
    ]


def assert_cells_paint_the_layers(h: Harness, detail: RowDetail, segment: int) -> None:
    """Every text cell of ``segment`` paints its layer's ranges, in every mode the delegate
    offers, for the references with any system and with each one."""
    delegate = h.delegate
    assert [m.key for m in delegate.modes()] == [layer.key for layer in detail.layers()]
    for mode in delegate.modes():
        delegate.set_mode(mode.key)
        layer = detail.layer(mode.key)
        assert layer is not None and layer.max_level == mode.max_level
        for s in range(len(detail.systems)):
            got = delegate.highlight_ranges(h.index(segment, h.model.hypothesis_column(s)))
            assert got == layer.hypothesis(s)
            assert got == hypothesis_ranges(detail, s, mode.key)
            assert all(detail.outputs[s][a:b].strip() for a, b, _, _ in got)
        for system in (None, *range(len(detail.systems))):
            delegate.set_reference_system(system)
            for r in range(len(detail.references)):
                got = delegate.highlight_ranges(h.index(segment, h.model.reference_column(r)))
                assert got == layer.reference(r, system)
                assert got == reference_ranges(detail, r, mode.key, system)
        delegate.set_reference_system(None)
    # The source is never highlighted; score cells have no ranges.
    assert delegate.highlight_ranges(h.index(segment, h.model.source_column())) == []
    assert delegate.highlight_ranges(h.index(segment, h.model.score_column(0))) == []


@pytest.mark.parametrize("segment", [0, 17, 93, 140])
def test_every_cell_paints_exactly_core_layers(qtbot, harness, sample, segment) -> None:
    h = harness(sample)
    expected = sample.detail(segment)
    detail = wait_detail(qtbot, h.cache, segment)
    assert shown(detail) == shown(expected)
    assert [m.key for m in h.delegate.modes()] == ["bleu", "lcs"]
    assert_cells_paint_the_layers(h, detail, segment)
    # BLEU's layer: each output token matched or not, references' tokens missed by all.
    kinds = {k for s in range(3) for _, _, k, _ in hypothesis_ranges(detail, s, "bleu")}
    assert kinds <= {"match", "unmatched"}
    lcs = {k for s in range(3) for _, _, k, _ in hypothesis_ranges(detail, s, "lcs")}
    assert lcs <= {"lcs"}


def test_a_mode_per_layer_of_the_config(qtbot, harness, sample) -> None:
    """NLTK-BLEU switched on: an ``nltk`` mode, whose ranges the cells paint."""
    h = harness(sample, config=NLTK_ON)
    modes = h.delegate.modes()
    assert modes == NLTK_ON.highlight_modes()
    assert [m.key for m in modes] == ["bleu", "lcs", "nltk"]
    detail = wait_detail(qtbot, h.cache, 4)
    assert shown(detail) == shown(sample.detail(4, NLTK_ON))
    assert_cells_paint_the_layers(h, detail, 4)
    h.delegate.set_mode("bleu")
    with qtbot.waitSignal(h.delegate.mode_changed) as changed:
        h.delegate.set_mode("nltk")
    assert changed.args == ["nltk"]
    with qtbot.assertNotEmitted(h.delegate.mode_changed, wait=10):
        h.delegate.set_mode("nltk")  # no change
    with pytest.raises(ValueError, match="nltk"):
        h.delegate.set_mode("meteor")  # the message names the modes there are
    assert h.delegate.mode() == "nltk"


def test_a_new_config_brings_its_modes(qtbot, harness, sample) -> None:
    h = harness(sample, config=NLTK_ON)
    h.delegate.set_mode("nltk")
    with (
        qtbot.waitSignal(h.delegate.modes_changed),
        qtbot.waitSignal(h.delegate.mode_changed) as changed,
    ):
        h.cache.set_config(ScoringConfig())  # no NLTK-BLEU: back to the first mode
    assert changed.args == ["bleu"]
    assert [m.key for m in h.delegate.modes()] == ["bleu", "lcs"]
    h.delegate.set_mode("lcs")
    with qtbot.assertNotEmitted(h.delegate.mode_changed, wait=10):
        h.cache.set_config(ScoringConfig().with_settings("bleu", max_order=2))
    assert h.delegate.mode() == "lcs"  # still offered: kept
    assert h.delegate.modes()[0].max_level == 2


def test_a_registered_metric_brings_its_mode_and_shades(qtbot, harness, sample, toy) -> None:
    """A metric the GUI was not written for (character n-grams up to 6, as chrF)."""
    h = harness(sample, config=toy)
    assert [m.key for m in h.delegate.modes()] == ["bleu", "lcs", "toy"]
    assert h.delegate.modes()[-1].max_level == 6
    detail = wait_detail(qtbot, h.cache, 2)
    assert shown(detail) == shown(sample.detail(2, toy))
    assert_cells_paint_the_layers(h, detail, 2)


def test_a_row_without_a_layer_is_plain_in_that_mode(qtbot, harness, make_scored, toy) -> None:
    """The toy detail of a long row is missing (its note says why): plain in the toy mode."""
    long = "the cat sat on the mat " * 12
    data = make_scored(references=[[long, "a b c"]], systems={"s": [long, "a b"]}, config=toy)
    h = harness(data)
    detail = wait_detail(qtbot, h.cache, 0)
    assert set(detail.notes) == {"toy"} and detail.layer("toy") is None
    hyp = h.index(0, h.model.hypothesis_column(0))
    h.delegate.set_mode("toy")
    assert h.delegate.highlight_ranges(hyp) == []
    assert wait_detail(qtbot, h.cache, 1).layer("toy") is not None
    assert h.delegate.highlight_ranges(h.index(1, h.model.hypothesis_column(0)))
    h.delegate.set_mode("bleu")
    assert h.delegate.highlight_ranges(hyp) == detail.layer("bleu").hypothesis(0)


def test_zh_tokenizer_ranges_cover_single_characters(qtbot, harness, wmt_zh) -> None:
    h = harness(wmt_zh)
    segment = 5
    expected = wmt_zh.detail(segment)
    assert shown(wait_detail(qtbot, h.cache, segment)) == shown(expected)
    for s, output in enumerate(expected.outputs):
        got = h.delegate.highlight_ranges(h.index(segment, h.model.hypothesis_column(s)))
        assert got == hypothesis_ranges(expected, s, "bleu")
        cjk = [output[a:b] for a, b, _, _ in got if "\u4e00" <= output[a] <= "\u9fff"]
        assert cjk and all(len(tok) == 1 for tok in cjk)
    assert h.delegate.highlight_ranges(
        h.index(segment, h.model.reference_column(1))
    ) == reference_ranges(expected, 1, "bleu", None)


# -- painting -------------------------------------------------------------------------------------


def test_rows_are_plain_until_their_detail_arrives_then_highlighted(qtbot, harness, sample) -> None:
    h = harness(sample)
    h.view.resize(1500, 300)
    h.view.show()
    qtbot.waitExposed(h.view)
    rect = h.rect(0, h.model.hypothesis_column(0))
    tints = [order_tint(level, False) for level in (1, 2, 3, 4)]
    before = h.grab()
    assert sum(count_color(before, rect, c) for c in tints) == 0
    with qtbot.waitSignal(h.delegate.row_ready, timeout=WAIT_MS):
        pass
    qtbot.waitUntil(lambda: h.cache.peek(0) is not None, timeout=WAIT_MS)
    after = h.grab()
    painted = {c.name(): count_color(after, rect, c) for c in tints}
    ranges = hypothesis_ranges(h.cache.peek(0), 0, "bleu")
    levels = {level for _, _, kind, level in ranges if kind == "match"}
    # Only the tints of levels this row has; the first token (always visible) is painted.
    assert {name for name, n in painted.items() if n} <= {
        order_tint(x, False).name() for x in levels
    }
    first = ranges[0]
    assert first[2] == "match"
    assert painted[order_tint(first[3], False).name()] > 0, painted


def settled(harness: Any, data: Any, qtbot: Any, **kw: Any) -> Any:
    """A 1500x400 table of ``data``, shown, with the details of its rows on screen computed."""
    h = harness(data, **kw)
    h.view.resize(1500, 400)
    h.show_and_settle(qtbot)
    return h


def test_the_first_paint_of_a_cell_is_its_final_look(qtbot, harness, sample) -> None:
    """A freshly built document is laid out before its lines are counted.

    It was not: the first paint of a cell found no lines, drew the text unelided and cut
    mid-line by the cell's edge, and only later paints elided it (rows 13-14 of the sample).
    """
    h = settled(harness, sample, qtbot)
    h.delegate.set_dark(False)  # every document is built again, by the next paint
    first = h.grab()
    assert first == h.grab()
    rows = [h.rect(s, h.model.hypothesis_column(0)) for s in h.visible_segments()]
    assert rows[-1].bottom() > h.view.viewport().height() - 30  # the bottom rows too


def test_a_paint_builds_highlights_within_its_budget_and_the_view_finishes_later(
    qtbot, harness, sample, monkeypatch
) -> None:
    """Past BUILD_BUDGET_MS a paint leaves cells plain; the view repaints until all are done."""
    h = settled(harness, sample, qtbot)
    col = h.model.hypothesis_column(0)
    height = h.view.viewport().height()
    segments = [
        s for s in h.visible_segments() if h.view.visualRect(h.index(s, col)).bottom() < height
    ]
    assert len(segments) >= 5
    tints = [order_tint(level, False) for level in (1, 2, 3, 4)]

    def tinted(image: QImage) -> list[int]:
        rects = {s: h.view.visualRect(h.index(s, col)) for s in segments}
        return [s for s in segments if sum(count_color(image, rects[s], c) for c in tints)]

    matched = [
        s
        for s in segments
        if any(k == "match" for _, _, k, _ in hypothesis_ranges(sample.detail(s), 0, "bleu"))
    ]
    assert len(matched) >= 4
    assert tinted(h.grab()) == matched
    painted: list[int] = []  # cells painted, per paint
    soften = matchlight.gui.table.delegate._soften_selection  # called once for every cell painted
    begin = h.delegate.begin_paint
    monkeypatch.setattr(h.delegate, "begin_paint", lambda: painted.append(0) or begin())

    def count(opt: Any) -> None:
        painted[-1] += 1
        soften(opt)

    monkeypatch.setattr(matchlight.gui.table.delegate, "_soften_selection", count)
    monkeypatch.setattr(
        "matchlight.gui.table.delegate.BUILD_BUDGET_MS", 0.0
    )  # one document per paint
    # The time budget of the whole paint is another test's subject; here it would make the
    # outcome depend on the machine's speed (a loaded 2-core machine takes over 40 ms).
    monkeypatch.setattr("matchlight.gui.table.delegate.PAINT_BUDGET_MS", 10_000.0)
    h.delegate.set_dark(False)  # every document is built again
    image = h.view.viewport().grab().toImage()
    assert not h.delegate.paint_complete()
    assert len(tinted(image)) <= 1  # the rest is plain this time
    # Nobody asks for it: the view paints again by itself until every cell is done, and
    # then only the cells that were left plain.
    qtbot.waitUntil(h.delegate.paint_complete, timeout=WAIT_MS)
    whole, *again = painted
    # One more whole paint (set_dark asked the view for one), then only the plain cells.
    assert len(again) >= 5 and sum(n >= whole for n in again) <= 1
    assert max(again[1:]) < whole
    final = h.view.viewport().grab().toImage()
    assert h.delegate.paint_complete()
    assert tinted(final) == matched


def test_only_building_counts_against_the_paint_budget(qtbot, harness, sample, monkeypatch):
    """Slow cells that need no new document do not use up the budget of the ones that do."""

    clock = FakeClock()  # the delegate's time is the test's: it stands still until moved
    h = settled(harness, sample, qtbot, clock=clock)
    h.grab()
    monkeypatch.setattr(matchlight.gui.table.delegate, "BUILD_BUDGET_MS", 200.0)
    monkeypatch.setattr(
        matchlight.gui.table.delegate, "PAINT_BUDGET_MS", 10_000.0
    )  # not the point here
    soften = matchlight.gui.table.delegate._soften_selection

    def slow(opt: Any) -> None:  # every cell, built or cached, now takes 5 ms more to paint
        clock.advance(0.005)
        soften(opt)

    monkeypatch.setattr(matchlight.gui.table.delegate, "_soften_selection", slow)
    clock.tick = 0.001  # and building a document (two reads of the clock) takes 1 ms
    h.delegate.set_dark(False)  # every document is built again
    started = clock.now
    h.view.viewport().grab()
    assert clock.now - started > 0.2  # the paint took longer than the budget...
    assert h.delegate.paint_complete()  # ... and still built every document in one go


def test_a_paint_over_its_time_leaves_text_cells_to_the_next_one(
    qtbot, harness, sample, monkeypatch
) -> None:
    """PAINT_BUDGET_MS bounds a whole paint: late text cells get their background only."""
    h = settled(harness, sample, qtbot)
    expected = h.grab()
    segments = h.visible_segments()
    # Cells are painted row by row: the first text cell of the first row, and a late one.
    top = h.view.visualRect(h.index(segments[0], h.model.text_columns()[0]))
    late = h.view.visualRect(h.index(segments[-2], h.model.hypothesis_column(0)))
    monkeypatch.setattr(
        matchlight.gui.table.delegate, "PAINT_BUDGET_MS", 0.0
    )  # one text cell per paint
    image = h.view.viewport().grab().toImage()
    assert not h.delegate.paint_complete()
    assert image.copy(top) == expected.copy(top)  # painted as always
    assert image.copy(late) != expected.copy(late)  # left for the next paint:
    inner = late.adjusted(4, 4, -4, -4)
    background = image.pixelColor(inner.topLeft())
    sampled = len(range(inner.top(), inner.bottom(), 2)) * len(
        range(inner.left(), inner.right(), 2)
    )
    assert count_color(image, inner, background) == sampled  # its background, nothing else
    # The view's own repaints, of the cells left over only, finish the job.
    qtbot.waitUntil(h.delegate.paint_complete, timeout=WAIT_MS)
    assert h.grab() == expected


def test_selected_rows_keep_their_highlights_readable(qtbot, harness, sample) -> None:
    h = harness(sample)
    h.view.resize(1500, 300)
    h.show_and_settle(qtbot)
    h.view.selectRow(1)
    qtbot.wait(10)
    palette = h.view.palette()
    highlight = palette.color(QPalette.ColorGroup.Active, QPalette.ColorRole.Highlight)
    image = h.grab()
    row_rect = h.view.visualRect(h.proxy.index(1, h.model.hypothesis_column(0))).adjusted(
        3, 3, -3, -3
    )
    # Not the (blue) selection colour but a neutral band, with the match tints still on top.
    assert count_color(image, row_rect, highlight) == 0
    blend = selection_color(palette, QPalette.ColorGroup.Active)
    assert blend.saturationF() < 0.05
    assert count_color(image, row_rect, blend) > 0
    for level in (1, 2, 3, 4):
        assert contrast_ratio(order_tint(level, False), blend) > 1.1
    _, _, kind, level = hypothesis_ranges(h.cache.peek(1), 0, "bleu")[0]
    assert kind == "match"
    assert count_color(image, row_rect, order_tint(level, False)) > 0
    score_rect = h.view.visualRect(h.proxy.index(1, h.model.score_column(0)))
    assert count_color(image, score_rect.adjusted(3, 3, -3, -3), blend) > 0


def test_dark_palette_paints_dark_tints(qtbot, harness, sample, save_shot) -> None:
    h = harness(sample)
    h.view.setPalette(dark_palette())
    h.view.resize(1500, 620)
    h.show_and_settle(qtbot)
    image = h.grab()
    area = h.view.viewport().rect()
    assert count_color(image, area, order_tint(4, True)) > 0
    assert count_color(image, area, order_tint(4, False)) == 0
    save_shot(h.view, "table-sample-dark")


def sorted_by_bleu(data: Any, system: int) -> list[int]:
    """Segments by the sentence BLEU of ``system``, best first (a sorted table)."""
    values = data.table.column("bleu", system)
    return sorted(range(len(values)), key=lambda s: -values[s])


def test_screenshot_sample_light_every_mode(qtbot, harness, sample, save_shot) -> None:
    h = harness(sample, config=NLTK_ON, order=sorted_by_bleu(sample, 2))
    h.view.resize(1500, 620)
    h.show_and_settle(qtbot)
    h.view.selectRow(3)
    area = h.view.viewport().rect()
    image = h.grab()
    assert count_color(image, area, order_tint(4, False)) > 0
    save_shot(h.view, "table-sample-light-bleu")
    h.delegate.set_mode("lcs")
    image = h.grab()
    lcs = highlight_format("lcs", 1, False).background().color()
    assert count_color(image, area, lcs) > 0
    assert count_color(image, area, order_tint(4, False)) == 0
    save_shot(h.view, "table-sample-light-lcs")
    h.delegate.set_mode("nltk")
    image = h.grab()
    assert count_color(image, area, order_tint(4, False)) > 0
    assert count_color(image, area, lcs) == 0
    save_shot(h.view, "table-sample-light-nltk")


@pytest.mark.parametrize("dark", [False, True], ids=["light", "dark"])
def test_screenshot_six_levels_of_a_registered_metric(qtbot, harness, sample, toy, save_shot, dark):
    """The toy metric's character n-grams, shaded 1..6 like chrF's will be."""
    h = harness(sample, config=toy)
    if dark:
        h.view.setPalette(dark_palette())
    h.view.resize(1500, 620)
    h.show_and_settle(qtbot)
    h.delegate.set_mode("toy")
    image = h.grab()
    area = h.view.viewport().rect()
    seen = set()
    for segment in h.visible_segments():
        for s in range(3):
            ranges = h.delegate.highlight_ranges(h.index(segment, h.model.hypothesis_column(s)))
            seen |= {level for _, _, kind, level in ranges if kind == "match"}
    assert seen == set(range(1, 7))
    for level in range(1, 7):  # every level's own tint is on screen
        assert count_color(image, area, order_tint(level, dark, 6)) > 0, level
    save_shot(h.view, f"table-sample-toy-{'dark' if dark else 'light'}")


def test_screenshot_wmt22_en_zh(qtbot, harness, wmt_zh, save_shot) -> None:
    h = harness(wmt_zh, row_height=44)
    h.view.resize(1500, 640)
    h.show_and_settle(qtbot)
    image = h.grab()
    assert count_color(image, h.view.viewport().rect(), order_tint(1, False)) > 0
    save_shot(h.view, "table-wmt22-en-zh")


def test_a_100k_row_view_only_asks_for_the_rows_on_screen(qtbot, harness, make_scored) -> None:
    n = 100_000
    words = ["the cat sat", "on the mat today", "a dog barked at night", "x"]
    small = make_scored(references=[["a"]], systems={"a": ["a"], "b": ["b"]})
    text = corpus_text_from_lines(
        references=[[words[i % 4] for i in range(n)]],
        systems=[[words[(i + 1) % 4] for i in range(n)], [words[(i + 2) % 4] for i in range(n)]],
        names=["a", "b"],
    )
    data = type(small)(text, None, small.table, small.config, ("Ref 1",))
    order = [(i * 7919) % n for i in range(n)]  # a shuffled table: 7919 is prime to n
    h = harness(data, order=order, scores=False)
    h.view.resize(1200, 400)
    h.view.show()
    qtbot.waitExposed(h.view)
    h.view.scrollToBottom()
    h.view.viewport().grab()
    visible = set(h.visible_segments())
    assert visible and max(h.model.rows[s] for s in visible) == n - 1
    assert set(h.cache.pending()) <= visible
    h.show_and_settle(qtbot)
    segment = h.visible_segments()[-1]
    got = h.delegate.highlight_ranges(h.index(segment, h.model.hypothesis_column(0)))
    assert got == hypothesis_ranges(data.detail(segment), 0, "bleu")
    assert len(h.cache) <= len(visible) + 2


# -- the detail cache ------------------------------------------------------------------------------


def test_cache_delivers_core_detail_through_a_signal(qtbot, sample) -> None:
    cache = DetailCache(sample.text, sample.source, sample.config)
    try:
        assert cache.get(12) is None
        assert cache.pending() == [12]
        with qtbot.waitSignal(cache.detail_ready, timeout=WAIT_MS) as ready:
            pass
        assert ready.args == [12]
        assert shown(cache.get(12)) == shown(sample.detail(12))
        assert cache.get(12) is cache.peek(12)  # cached, not recomputed
    finally:
        cache.shutdown()


def test_cache_computes_newest_requests_first_and_drops_old_ones(qtbot, sample):
    cache = DetailCache(sample.text, sample.source, sample.config, max_pending=4)
    arrived: list[int] = []
    cache.detail_ready.connect(arrived.append)
    # Nothing is computed before the event loop runs again.
    cache.request(range(10, 20))
    cache.get(3)
    cache.get(15)  # asked again: becomes the newest
    assert cache.pending() == [15, 3, 19, 18]
    assert arrived == []
    qtbot.waitUntil(lambda: len(arrived) == 4, timeout=WAIT_MS)
    assert arrived == [15, 3, 19, 18]
    assert cache.peek(10) is None  # scrolled away before it was computed
    cache.shutdown()


def test_new_config_clears_and_discards_stale_work(qtbot, sample) -> None:
    cache = DetailCache(sample.text, sample.source, sample.config)
    cache.get(7)
    new = sample.config.with_settings("bleu", lowercase=True, tokenize="char")
    with qtbot.waitSignal(cache.cleared):
        cache.set_config(new)
    assert cache.pending() == []
    assert cache.get(7) is None
    detail = wait_detail(qtbot, cache, 7)
    assert shown(detail) == shown(sample.detail(7, new))
    assert shown(detail) != shown(sample.detail(7))
    cache.shutdown()


def test_cache_is_an_lru_and_stops_after_shutdown(qtbot, sample) -> None:
    cache = DetailCache(sample.text, sample.source, sample.config, capacity=3)
    for segment in range(5):
        wait_detail(qtbot, cache, segment)
    assert len(cache) == 3
    assert [cache.peek(s) is not None for s in range(5)] == [False, False, True, True, True]
    cache.shutdown()
    assert cache.is_shut_down()
    with qtbot.assertNotEmitted(cache.detail_ready, wait=50):
        assert cache.get(100) is None
    assert cache.pending() == []
    assert cache.get(4) is not None  # what is cached stays readable


def test_cache_computes_in_slices_between_other_events(qtbot, sample, monkeypatch) -> None:
    """Rows are computed in the GUI thread a slice at a time: other events run in between."""
    monkeypatch.setattr(
        "matchlight.gui.highlight.detailcache.SLICE_MS", 0.0
    )  # a slice is then exactly one row
    cache = DetailCache(sample.text, sample.source, sample.config)
    turns: list[int] = []
    ticker = QTimer()
    ticker.setInterval(0)
    ticker.timeout.connect(lambda: turns.append(len(cache)))
    arrived: list[int] = []
    cache.detail_ready.connect(arrived.append)
    cache.request(range(150))
    ticker.start()
    try:
        qtbot.waitUntil(lambda: len(arrived) == 150, timeout=WAIT_MS)
    finally:
        ticker.stop()
        cache.shutdown()
    assert threading.current_thread() is threading.main_thread()
    # The ticker ran between rows: it saw the cache grow row by row.
    assert len({n for n in turns if 0 < n < 150}) >= 100


def test_core_failures_become_a_signal(qtbot, sample, monkeypatch) -> None:
    class Broken(RowDetailer):
        def row(self, *, segment: int, **kw: Any) -> RowDetail:
            if segment == 2:
                raise RuntimeError("tokenizer exploded")
            return super().row(segment=segment, **kw)

    monkeypatch.setattr("matchlight.gui.highlight.detailcache.RowDetailer", Broken)
    cache = DetailCache(sample.text, sample.source, sample.config)
    try:
        with qtbot.waitSignal(cache.detail_failed, timeout=WAIT_MS) as failed:
            cache.get(2)
        assert failed.args[0] == 2 and "tokenizer exploded" in failed.args[1]
        assert "segment 3" in cache.error(2)
        with qtbot.assertNotEmitted(cache.detail_failed, wait=50):
            assert cache.get(2) is None  # not retried
        assert shown(wait_detail(qtbot, cache, 3)) == shown(sample.detail(3))
    finally:
        cache.shutdown()


def test_heavy_rows_are_computed_in_a_worker_process(qtbot, sample, monkeypatch) -> None:
    """Rows too long to compute between two events go to a process; the others stay here.

    A process, not a thread: a thread computing them held the GIL the GUI thread needs.
    """
    here: dict[int, bool] = {}  # rows computed in this process: in the GUI thread?

    class Watched(RowDetailer):
        def row(self, *, segment: int, **kw: Any) -> RowDetail:
            here[segment] = threading.current_thread() is threading.main_thread()
            return super().row(segment=segment, **kw)

    monkeypatch.setattr("matchlight.gui.highlight.detailcache.RowDetailer", Watched)
    columns = (*sample.text.references, *sample.text.systems)
    size = {s: sum(len(column[s]) for column in columns) for s in range(20)}
    threshold = sorted(size.values())[10]  # the longer half of these rows is "heavy"
    monkeypatch.setattr("matchlight.gui.highlight.detailcache.HEAVY_ROW_CHARS", threshold)
    heavy = {s for s in range(20) if size[s] > threshold}
    assert 0 < len(heavy) < 20
    cache = DetailCache(sample.text, sample.source, sample.config)
    try:
        for segment in range(20):
            assert shown(wait_detail(qtbot, cache, segment)) == shown(sample.detail(segment))
        assert isinstance(cache._executor, ProcessPoolExecutor)
    finally:
        cache.shutdown()
    assert set(here) == set(range(20)) - heavy  # the heavy ones were never computed here
    assert all(here.values())  # and the others in the GUI thread


def test_heavy_rows_go_to_a_thread_when_no_process_can_run(qtbot, sample, monkeypatch) -> None:
    class Broken(ProcessPoolExecutor):
        def submit(self, *args: Any, **kwargs: Any) -> Any:
            future: Future[Any] = Future()
            future.set_exception(BrokenProcessPool("the worker died"))
            return future

    monkeypatch.setattr(
        "matchlight.gui.highlight.detailcache.HEAVY_ROW_CHARS", 0
    )  # every row is heavy
    cache = DetailCache(sample.text, sample.source, sample.config, heavy_executor=Broken)
    try:
        assert shown(wait_detail(qtbot, cache, 3)) == shown(sample.detail(3))
        assert isinstance(cache._executor, ThreadPoolExecutor)  # from then on
        assert shown(wait_detail(qtbot, cache, 4)) == shown(sample.detail(4))
    finally:
        cache.shutdown()


def test_heavy_row_results_of_old_settings_are_dropped(qtbot, sample, monkeypatch) -> None:
    release = threading.Event()
    original = matchlight.gui.highlight.detailcache.row_detail

    def held(config: ScoringConfig, **kw: Any) -> RowDetail:
        release.wait(10)  # holds the worker until the settings have changed
        return original(config, **kw)

    monkeypatch.setattr(
        "matchlight.gui.highlight.detailcache.HEAVY_ROW_CHARS", 0
    )  # every row is heavy
    monkeypatch.setattr("matchlight.gui.highlight.detailcache.row_detail", held)
    # A thread stands in for the worker process, so that the test can hold it.
    cache = DetailCache(
        sample.text, sample.source, sample.config, heavy_executor=lambda: ThreadPoolExecutor(1)
    )
    try:
        assert cache.get(4) is None
        qtbot.waitUntil(lambda: 4 in cache._away, timeout=WAIT_MS)
        new = sample.config.with_settings("bleu", tokenize="char")
        cache.set_config(new)  # row 4 is being computed under the old settings
        assert cache.get(4) is None
        release.set()
        assert shown(wait_detail(qtbot, cache, 4)) == shown(sample.detail(4, new))
        assert shown(sample.detail(4, new)) != shown(sample.detail(4))
    finally:
        release.set()
        cache.shutdown()


def test_details_computed_ahead_are_served_without_computing(qtbot, sample, monkeypatch) -> None:
    """What the app computes while reading the files: equal to core, served at once."""
    columns = (*sample.text.references, *sample.text.systems)
    size = {s: sum(len(column[s]) for column in columns) for s in range(12)}
    threshold = sorted(size.values())[8]
    monkeypatch.setattr("matchlight.gui.highlight.detailcache.HEAVY_ROW_CHARS", threshold)
    heavy = {s for s in range(12) if size[s] > threshold}
    assert heavy

    original = RowDetailer.row

    def row(self: RowDetailer, **kw: Any) -> RowDetail:
        if kw["segment"] == 5:
            raise ValueError("odd line")
        return original(self, **kw)

    monkeypatch.setattr(RowDetailer, "row", row)
    ahead = compute_ahead(sample.text, sample.source, sample.config, [*range(12), -1, 10**6])
    # Heavy rows, failing rows and rows out of range are left to the cache.
    assert set(ahead) == set(range(12)) - heavy - {5}
    monkeypatch.setattr(RowDetailer, "row", original)
    for segment, detail in ahead.items():
        assert shown(detail) == shown(sample.detail(segment))

    cache = DetailCache(sample.text, sample.source, sample.config, ready=ahead)
    try:
        for segment in ahead:
            assert cache.get(segment) is ahead[segment]
        assert cache.pending() == []  # nothing had to be scheduled
        assert cache.get(5) is None  # this one is computed as usual, and reported then
        assert shown(wait_detail(qtbot, cache, 5)) == shown(sample.detail(5))
    finally:
        cache.shutdown()


def test_ranges_are_applied_in_one_edit_block(qtbot) -> None:
    """One layout change for all the ranges of a document, not one per range.

    Outside an edit block every range made Qt lay the whole line out again to place the
    cursor: quadratic in the line's length (a 6,000-word line froze the window for 20 s).
    """
    from PySide6.QtWidgets import QTextEdit

    words = [f"w{i}" for i in range(400)]
    text = " ".join(words)
    ranges, pos = [], 0
    for i, word in enumerate(words):
        ranges.append((pos, pos + len(word), "match", 1 + i % 4))
        pos += len(word) + 1
    view = QTextEdit()  # a document with a layout, as in the detail pane
    qtbot.addWidget(view)
    doc = view.document()
    QTextCursor(doc).insertText(text)
    changes: list[int] = []
    doc.contentsChange.connect(lambda *args: changes.append(1))
    apply_ranges(doc, text, ranges, dark=False)
    assert len(changes) == 1
    # ... and every range got its format.
    for start, _end, kind, level in ranges[::37]:
        cursor = QTextCursor(doc)
        cursor.setPosition(start + 1)
        assert cursor.charFormat().background() == highlight_format(kind, level, False).background()


def test_a_huge_cell_gets_a_bounded_document_and_an_ellipsis(qtbot, harness, make_scored) -> None:
    """Hostile input: the document of a cell holds at most CELL_TEXT_LIMIT characters."""
    from matchlight.gui.table.delegate import CELL_TEXT_LIMIT

    words = [f"w{i % 500}" for i in range(6000)]
    data = make_scored(
        references=[[" ".join(words), "a b c"]],
        systems={"echo": [" ".join(reversed(words)), "a b"]},
    )
    h = harness(data)
    h.show_and_settle(qtbot)
    col = h.model.hypothesis_column(0)
    full = h.index(0, col).data()
    assert len(full) > CELL_TEXT_LIMIT
    doc = h.delegate.document(h.index(0, col))
    assert doc.toPlainText() == full[:CELL_TEXT_LIMIT]
    assert doc.property("truncated") is True
    assert h.delegate.document(h.index(1, col)).property("truncated") is False
    # The ranges the delegate reports are still those of the whole text (core's spans).
    assert h.delegate.highlight_ranges(h.index(0, col))[-1][1] == len(full)
    h.grab()  # and it paints


def test_text_cells_look_as_initstyleoption_would_make_them(qtbot, harness, sample, monkeypatch):
    """The delegate builds a text cell's style option itself (initStyleOption asked for seven
    roles and the whole text on every paint): same pixels, and the model's colours honoured."""
    h = settled(harness, sample, qtbot)
    h.view.selectRow(2)
    mine = h.grab()

    def init_style_option(opt: Any, index: Any) -> None:
        HighlightDelegate.initStyleOption(h.delegate, opt, index)
        opt.text = ""

    with monkeypatch.context() as patch:
        patch.setattr(matchlight.gui.table.delegate, "_text_cell_option", init_style_option)
        h.delegate.set_dark(None)
        assert h.grab() == mine
    tint = QColor("#f4e1f4")
    h.model.backgrounds[4] = tint
    image = h.grab()
    assert count_color(image, h.rect(4, h.model.hypothesis_column(1)), tint) > 0
    assert count_color(image, h.rect(5, h.model.hypothesis_column(1)), tint) == 0


@pytest.mark.skipif("chrf" not in METRICS, reason="chrF is not registered yet")
def test_chrf_brings_its_mode_and_cells_paint_it(qtbot, harness, sample) -> None:
    config = ScoringConfig().with_metrics("bleu,rouge,chrf")
    h = harness(sample, config=config)
    assert "chrf" in [m.key for m in h.delegate.modes()]
    detail = wait_detail(qtbot, h.cache, 6)
    assert shown(detail) == shown(sample.detail(6, config))
    assert_cells_paint_the_layers(h, detail, 6)
