"""HighlightDelegate and DetailCache: painted ranges are core's spans, computed off-thread."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from concurrent.futures import Future, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

import numpy as np
import pytest
from PySide6.QtCore import QRect, Qt, QTimer
from PySide6.QtGui import QColor, QImage, QPalette, QTextCharFormat, QTextCursor
from PySide6.QtWidgets import QHeaderView

import matchlight.gui.highlight.detailcache
import matchlight.gui.table.delegate
from matchlight.core.scoring.config import ScoringConfig
from matchlight.core.scoring.detail import RowDetail, RowDetailer
from matchlight.core.scoring.results import ScoreTable
from matchlight.core.text.corpus import corpus_text_from_lines
from matchlight.gui.highlight.detailcache import DetailCache, compute_ahead
from matchlight.gui.highlight.palette import (
    KINDS,
    apply_ranges,
    build_document,
    contrast_ratio,
    highlight_format,
    order_tint,
    utf16_offsets,
    visible_breaks,
)
from matchlight.gui.highlight.ranges import hypothesis_ranges, reference_ranges
from matchlight.gui.table.delegate import HighlightDelegate, selection_color
from matchlight.gui.table.model import SEGMENT_ROLE, SegmentTableModel
from matchlight.gui.table.proxy import SegmentFilterProxy
from matchlight.gui.table.tableview import SegmentTableView

WAIT_MS = 10_000
NO_BRUSH = Qt.BrushStyle.NoBrush


def core_detail(data: Any, segment: int, config: ScoringConfig | None = None) -> RowDetail:
    """The row detail straight from core, for comparisons."""
    text = data.text
    return RowDetailer(config or data.config).row(
        segment=segment,
        source=None if data.source is None else data.source[segment],
        references=[r[segment] for r in text.references],
        systems=list(zip(text.system_names, [s[segment] for s in text.systems], strict=True)),
    )


def wait_detail(qtbot, cache: DetailCache, segment: int) -> RowDetail:
    if cache.peek(segment) is None:
        with qtbot.waitSignal(
            cache.detail_ready, timeout=WAIT_MS, check_params_cb=lambda s: s == segment
        ):
            cache.get(segment)
    detail = cache.peek(segment)
    assert detail is not None
    return detail


def dark_palette() -> QPalette:
    pal = QPalette()
    colors = {
        QPalette.ColorRole.Window: "#2b2b2b",
        QPalette.ColorRole.WindowText: "#e6e6e6",
        QPalette.ColorRole.Base: "#1e1e1e",
        QPalette.ColorRole.AlternateBase: "#262626",
        QPalette.ColorRole.Text: "#e6e6e6",
        QPalette.ColorRole.Button: "#333333",
        QPalette.ColorRole.ButtonText: "#e6e6e6",
        QPalette.ColorRole.Highlight: "#2f5f8f",
        QPalette.ColorRole.HighlightedText: "#ffffff",
    }
    for role, color in colors.items():
        pal.setColor(role, QColor(color))
    return pal


class Harness:
    def __init__(self, qtbot, data: Any, *, row_height: int = 26) -> None:
        self.data = data
        self.model = SegmentTableModel(
            data.text, data.source, data.table, reference_names=data.reference_names
        )
        self.proxy = SegmentFilterProxy()
        self.proxy.setSourceModel(self.model)
        self.view = SegmentTableView()  # as in the app: it tells the delegate where paints start
        qtbot.addWidget(self.view)
        self.cache = DetailCache(data.text, data.source, data.config)
        self.delegate = HighlightDelegate(self.cache, self.view)
        self.view.setItemDelegate(self.delegate)
        self.view.setModel(self.proxy)
        header = self.view.verticalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        header.setDefaultSectionSize(row_height)
        header.hide()
        for col in range(self.model.columnCount()):
            kind = self.model.column_info(col).kind
            self.view.setColumnWidth(
                col, 250 if kind in ("source", "reference", "hypothesis") else 62
            )
        self.view.setColumnWidth(0, 36)

    def index(self, segment: int, col: int):
        return self.proxy.index(self.proxy.proxy_row(segment), col)

    def visible_segments(self) -> list[int]:
        first = self.view.rowAt(0)
        last = self.view.rowAt(self.view.viewport().height() - 1)
        last = self.proxy.rowCount() - 1 if last < 0 else last
        return [self.proxy.index(r, 0).data(SEGMENT_ROLE) for r in range(first, last + 1)]

    def grab(self) -> QImage:
        """The viewport with every cell painted in full (no paint budget)."""
        with self.delegate.unbounded():
            image = self.view.viewport().grab().toImage()
        assert self.delegate.paint_complete()
        return image

    def show_and_settle(self, qtbot) -> None:
        self.view.show()
        qtbot.waitExposed(self.view)
        self.view.grab()  # paints once: schedules the visible rows
        qtbot.waitUntil(
            lambda: all(self.cache.peek(s) is not None for s in self.visible_segments()),
            timeout=WAIT_MS,
        )
        qtbot.wait(20)


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


# -- palette --------------------------------------------------------------------------------------


@pytest.mark.parametrize("dark", [False, True])
def test_tints_are_ordered_and_readable(dark: bool) -> None:
    text = QColor("#f2f2f2" if dark else "#111111")
    lightness = [order_tint(level, dark).lightnessF() for level in (1, 2, 3, 4)]
    # A single-hue ramp: strictly darker (light theme) or brighter (dark theme) with the order.
    assert lightness == sorted(lightness, reverse=not dark)
    assert len(set(lightness)) == 4
    assert order_tint(9, dark) == order_tint(4, dark)
    for kind in KINDS:
        fmt = highlight_format(kind, 2, dark)
        if fmt.background().style() != NO_BRUSH:
            assert fmt.foreground().color() == text
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


def test_documents_keep_text_verbatim_and_map_utf16_offsets() -> None:
    text = "😀 <b>cat</b> &amp; dog\tשלום\u2028end 𝒳y"
    cat = text.index("cat")
    end = text.index("end")
    y = text.index("y")
    ranges = [(cat, cat + 3, "bleu", 2), (end, end + 3, "unmatched", 0), (y, y + 1, "lcs", 1)]
    doc = build_document(text, ranges, dark=False, one_line=True)
    assert doc.toPlainText() == visible_breaks(text)
    assert "<b>" in doc.toPlainText() and "&amp;" in doc.toPlainText()
    assert "\u21b5" in doc.toPlainText()  # the line separator is shown, not broken
    offsets = utf16_offsets(text)
    assert offsets is not None and offsets[cat] == cat + 1  # the emoji takes two units

    def format_at(index: int) -> QTextCharFormat:
        cursor = QTextCursor(doc)
        cursor.setPosition(offsets[index] + 1)  # the format of the character at ``index``
        return cursor.charFormat()

    assert format_at(cat).background().color() == order_tint(2, False)
    assert format_at(cat + 2).background().color() == order_tint(2, False)
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
    assert detail == core_detail(data, 0)
    ranges = h.delegate.highlight_ranges(hyp)
    assert ranges == [
        (0, 3, "bleu", 1),
        (4, 7, "bleu", 1),
        (8, 11, "unmatched", 0),
        (12, 15, "unmatched", 0),
        (16, 19, "unmatched", 0),
        (20, 23, "unmatched", 0),
    ]
    spans = detail.systems[0].bleu_highlights
    assert [(r[0], r[1], r[3]) for r in ranges] == [(x.start, x.end, x.level) for x in spans]
    assert h.delegate.highlight_ranges(ref) == [
        (0, 3, "bleu", 1),
        (4, 7, "missed", 0),
        (8, 10, "missed", 0),
        (11, 13, "missed", 0),
        (14, 17, "bleu", 1),
        (18, 21, "missed", 0),
    ]
    missed = [(m.start, m.end) for m in detail.references[0].missed]
    assert missed == [(4, 7), (8, 10), (11, 13), (18, 21)]


@pytest.mark.parametrize("segment", [0, 17, 93, 140])
def test_every_cell_paints_exactly_core_spans(qtbot, harness, sample, segment) -> None:
    h = harness(sample)
    delegate = h.delegate
    expected = core_detail(sample, segment)
    assert wait_detail(qtbot, h.cache, segment) == expected
    for s, hyp in enumerate(expected.systems):
        index = h.index(segment, h.model.hypothesis_column(s))
        got = delegate.highlight_ranges(index)
        assert [(a, b) for a, b, _, _ in got] == [(x.start, x.end) for x in hyp.bleu_highlights]
        assert [lvl for _, _, _, lvl in got] == [x.level for x in hyp.bleu_highlights]
        assert [k for _, _, k, _ in got] == [
            "bleu" if x.level else "unmatched" for x in hyp.bleu_highlights
        ]
        assert all(hyp.text[a:b] for a, b, _, _ in got)
    for r, ref in enumerate(expected.references):
        index = h.index(segment, h.model.reference_column(r))
        got = delegate.highlight_ranges(index)
        assert [(a, b) for a, b, _, _ in got] == list(ref.bleu_tokens.spans)
        missed = [(a, b) for a, b, k, _ in got if k == "missed"]
        assert missed == [(m.start, m.end) for m in ref.missed]
        best = [max(hl[t].level for hl in ref.bleu_highlights) for t in range(len(ref.matched_by))]
        assert [lvl for *_, lvl in got] == best

    delegate.set_reference_system(1)
    for r, ref in enumerate(expected.references):
        got = delegate.highlight_ranges(h.index(segment, h.model.reference_column(r)))
        assert [(a, b, lvl) for a, b, _, lvl in got] == [
            (x.start, x.end, x.level) for x in ref.bleu_highlights[1]
        ]
        for (_, _, kind, lvl), who in zip(got, ref.matched_by, strict=True):
            assert kind == ("bleu" if lvl else ("unmatched" if who else "missed"))

    delegate.set_mode("lcs")
    for s, hyp in enumerate(expected.systems):
        got = delegate.highlight_ranges(h.index(segment, h.model.hypothesis_column(s)))
        assert got == [(x.start, x.end, "lcs", 1) for x in hyp.lcs_highlights if x.level == 1]
        assert len(got) == hyp.lcs_length
    for r, ref in enumerate(expected.references):
        got = delegate.highlight_ranges(h.index(segment, h.model.reference_column(r)))
        assert got == [(x.start, x.end, "lcs", 1) for x in ref.lcs_highlights[1] if x.level]
    delegate.set_reference_system(None)
    for r, ref in enumerate(expected.references):
        got = delegate.highlight_ranges(h.index(segment, h.model.reference_column(r)))
        union = [
            (a, b, "lcs", 1)
            for t, (a, b) in enumerate(ref.rouge_tokens.spans)
            if any(hl[t].level for hl in ref.lcs_highlights)
        ]
        assert got == union
    # The source is never highlighted; score cells have no ranges.
    assert delegate.highlight_ranges(h.index(segment, 1)) == []
    assert delegate.highlight_ranges(h.index(segment, h.model.score_column(0, "bleu"))) == []


def test_zh_tokenizer_ranges_cover_single_characters(qtbot, harness, wmt_zh) -> None:
    h = harness(wmt_zh)
    segment = 5
    expected = core_detail(wmt_zh, segment)
    wait_detail(qtbot, h.cache, segment)
    for s, hyp in enumerate(expected.systems):
        got = h.delegate.highlight_ranges(h.index(segment, h.model.hypothesis_column(s)))
        assert got == hypothesis_ranges(expected, s, "bleu")
        assert [(a, b) for a, b, _, _ in got] == [(x.start, x.end) for x in hyp.bleu_highlights]
        cjk = [hyp.text[a:b] for a, b, _, _ in got if "\u4e00" <= hyp.text[a] <= "\u9fff"]
        assert cjk and all(len(tok) == 1 for tok in cjk)
    assert h.delegate.highlight_ranges(
        h.index(segment, h.model.reference_column(1))
    ) == reference_ranges(expected, 1, "bleu", None)


# -- painting -------------------------------------------------------------------------------------


def count_color(image: QImage, rect: QRect, color: QColor) -> int:
    rgb = color.rgb()
    rect = rect.intersected(image.rect())
    assert not rect.isEmpty()
    return sum(
        1
        for y in range(rect.top(), rect.bottom(), 2)
        for x in range(rect.left(), rect.right(), 2)
        if image.pixel(x, y) == rgb
    )


def test_rows_are_plain_until_their_detail_arrives_then_highlighted(qtbot, harness, sample) -> None:
    h = harness(sample)
    h.view.resize(1500, 300)
    h.view.show()
    qtbot.waitExposed(h.view)
    col = h.model.hypothesis_column(0)
    rect = h.view.visualRect(h.proxy.index(0, col)).adjusted(0, 0, 0, 0)
    tints = [order_tint(level, False) for level in (1, 2, 3, 4)]
    before = h.grab()
    assert sum(count_color(before, rect, c) for c in tints) == 0
    with qtbot.waitSignal(h.delegate.row_ready, timeout=WAIT_MS):
        pass
    qtbot.waitUntil(lambda: h.cache.peek(0) is not None, timeout=WAIT_MS)
    after = h.grab()
    painted = {c.name(): count_color(after, rect, c) for c in tints}
    highlights = h.cache.peek(0).systems[0].bleu_highlights
    levels = {x.level for x in highlights if x.level}
    # Only the tints of orders this row has; the first token (always visible) is painted.
    assert {name for name, n in painted.items() if n} <= {
        order_tint(x, False).name() for x in levels
    }
    assert highlights[0].level > 0
    assert painted[order_tint(highlights[0].level, False).name()] > 0, painted


def settled(harness: Any, data: Any, qtbot: Any) -> Any:
    """A 1500x400 table of ``data``, shown, with the details of its rows on screen computed."""
    h = harness(data)
    h.view.resize(1500, 400)
    h.show_and_settle(qtbot)
    return h


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
        if any(x.level for x in core_detail(sample, s).systems[0].bleu_highlights)
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

    h = settled(harness, sample, qtbot)
    h.grab()
    monkeypatch.setattr(matchlight.gui.table.delegate, "BUILD_BUDGET_MS", 200.0)
    monkeypatch.setattr(
        matchlight.gui.table.delegate, "PAINT_BUDGET_MS", 10_000.0
    )  # not the point here
    soften = matchlight.gui.table.delegate._soften_selection

    def slow(opt: Any) -> None:  # every cell, built or cached, now takes 5 ms more to paint
        time.sleep(0.005)
        soften(opt)

    monkeypatch.setattr(matchlight.gui.table.delegate, "_soften_selection", slow)
    h.delegate.set_dark(False)  # every document is built again
    started = time.perf_counter()
    h.view.viewport().grab()
    assert time.perf_counter() - started > 0.2  # the paint took longer than the budget...
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
    first = h.cache.peek(1).systems[0].bleu_highlights[0]
    assert first.level > 0
    assert count_color(image, row_rect, order_tint(first.level, False)) > 0
    score_rect = h.view.visualRect(h.proxy.index(1, h.model.score_column(0, "bleu")))
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


def test_screenshot_sample_light_bleu_and_lcs(qtbot, harness, sample, save_shot) -> None:
    h = harness(sample)
    h.view.resize(1500, 620)
    h.proxy.sort(h.model.score_column(2, "bleu"), 0)
    h.show_and_settle(qtbot)
    h.view.selectRow(3)
    image = h.grab()
    assert count_color(image, h.view.viewport().rect(), order_tint(4, False)) > 0
    save_shot(h.view, "table-sample-light-bleu")
    h.delegate.set_mode("lcs")
    qtbot.wait(20)
    image = h.grab()
    lcs = highlight_format("lcs", 1, False).background().color()
    assert count_color(image, h.view.viewport().rect(), lcs) > 0
    assert count_color(image, h.view.viewport().rect(), order_tint(4, False)) == 0
    save_shot(h.view, "table-sample-light-lcs")


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
    table = ScoreTable(systems=("a", "b"), n_segments=n, config=small.config, nrefs=1)
    table.scores[:] = np.random.default_rng(3).uniform(0, 100, table.scores.shape)
    table.done[:] = True
    data = type(small)(text, None, table, small.config, ("Ref 1",))
    h = harness(data)
    h.view.resize(1200, 400)
    h.view.show()
    qtbot.waitExposed(h.view)
    h.proxy.sort(h.model.score_column(1, "bleu"), Qt.SortOrder.DescendingOrder)
    h.view.scrollToBottom()
    h.view.viewport().grab()
    visible = set(h.visible_segments())
    assert visible and max(h.proxy.proxy_row(s) for s in visible) == n - 1
    assert set(h.cache.pending()) <= visible
    h.show_and_settle(qtbot)
    segment = h.visible_segments()[-1]
    got = h.delegate.highlight_ranges(h.index(segment, h.model.hypothesis_column(0)))
    assert got == hypothesis_ranges(core_detail(data, segment), 0, "bleu")
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
        assert cache.get(12) == core_detail(sample, 12)
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
    new = sample.config.replace(lowercase=True, tokenize="char")
    with qtbot.waitSignal(cache.cleared):
        cache.set_config(new)
    assert cache.pending() == []
    assert cache.get(7) is None
    detail = wait_detail(qtbot, cache, 7)
    assert detail == core_detail(sample, 7, new)
    assert detail != core_detail(sample, 7)
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
        assert wait_detail(qtbot, cache, 3) == core_detail(sample, 3)
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
            assert wait_detail(qtbot, cache, segment) == core_detail(sample, segment)
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
        assert wait_detail(qtbot, cache, 3) == core_detail(sample, 3)
        assert isinstance(cache._executor, ThreadPoolExecutor)  # from then on
        assert wait_detail(qtbot, cache, 4) == core_detail(sample, 4)
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
        new = sample.config.replace(tokenize="char")
        cache.set_config(new)  # row 4 is being computed under the old settings
        assert cache.get(4) is None
        release.set()
        assert wait_detail(qtbot, cache, 4) == core_detail(sample, 4, new)
        assert core_detail(sample, 4, new) != core_detail(sample, 4)
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
        assert detail == core_detail(sample, segment)

    cache = DetailCache(sample.text, sample.source, sample.config, ready=ahead)
    try:
        for segment in ahead:
            assert cache.get(segment) is ahead[segment]
        assert cache.pending() == []  # nothing had to be scheduled
        assert cache.get(5) is None  # this one is computed as usual, and reported then
        assert wait_detail(qtbot, cache, 5) == core_detail(sample, 5)
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
        ranges.append((pos, pos + len(word), "bleu", 1 + i % 4))
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
