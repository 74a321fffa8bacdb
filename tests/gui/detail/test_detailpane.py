"""DetailPane: the table's highlights in every mode of the config, core's breakdown blocks,
notes for missing detail, and hover links."""

from __future__ import annotations

import warnings
from itertools import pairwise

import pytest
import sacrebleu
from nltk.translate.bleu_score import sentence_bleu
from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtGui import QColor, QPalette, QTextCursor
from PySide6.QtWidgets import QApplication
from rouge_score import rouge_scorer

from matchlight.core.metrics.registry import METRICS
from matchlight.core.scoring.config import ScoringConfig
from matchlight.core.scoring.detail import RowDetail, RowDetailer
from matchlight.gui.detail.breakdown import BreakdownView
from matchlight.gui.detail.detailpane import DetailPane
from matchlight.gui.detail.segmenttext import VIEW_TEXT_LIMIT
from matchlight.gui.highlight.palette import highlight_format, order_tint
from matchlight.gui.highlight.ranges import hypothesis_ranges, reference_ranges
from tests.gui.toymetric import TOY_DETAIL_LIMIT, ToyMetric

NLTK_ON = ScoringConfig().with_metrics("bleu,rouge,nltk_bleu")


@pytest.fixture
def pane(qtbot) -> DetailPane:
    widget = DetailPane()
    qtbot.addWidget(widget)
    widget.resize(760, 1250)
    return widget


@pytest.fixture
def toy(monkeypatch) -> ScoringConfig:
    """The toy character metric registered, and a config scoring everything."""
    monkeypatch.setitem(METRICS, "toy", ToyMetric())
    return ScoringConfig().with_metrics("bleu,rouge,nltk_bleu,toy")


def dark_palette() -> QPalette:
    pal = QPalette()
    for role, color in {
        QPalette.ColorRole.Window: "#2b2b2b",
        QPalette.ColorRole.WindowText: "#e6e6e6",
        QPalette.ColorRole.Base: "#1e1e1e",
        QPalette.ColorRole.Text: "#e6e6e6",
        QPalette.ColorRole.Highlight: "#2f5f8f",
        QPalette.ColorRole.HighlightedText: "#ffffff",
    }.items():
        pal.setColor(role, QColor(color))
    return pal


def extra_spans(view) -> list[tuple[int, int]]:
    """Spans of a view's extra selections (the hover marks; the texts here are BMP-only)."""
    return [
        (sel.cursor.selectionStart(), sel.cursor.selectionEnd()) for sel in view.extraSelections()
    ]


def expected_links(detail: RowDetail, mode: str, system: int, index: int) -> dict[int, list]:
    """Per reference, the reference spans linked to character ``index`` of ``system``."""
    layer = detail.layer(mode)
    found = {}
    for r in range(len(detail.references)):
        spans = sorted({ref for hyp, ref in layer.links(system, r) if hyp[0] <= index < hyp[1]})
        if spans:
            found[r] = spans
    return found


def test_views_show_the_text_with_the_table_highlights(pane, sample) -> None:
    detail = sample.detail(1)
    pane.show_row(detail)
    assert pane.title.text() == "Segment 2"
    assert pane.source_view().plain_text() == sample.source[1]
    assert pane.source_view().document().toPlainText() == sample.source[1]
    assert pane.source_view().ranges() == []
    assert [m.key for m in pane.modes()] == ["bleu", "lcs"]
    for mode in pane.modes():
        pane.set_mode(mode.key)
        for system in (None, 0, 2):
            pane.set_reference_system(system)
            for r in range(2):
                view = pane.reference_view(r)
                assert view.document().toPlainText() == sample.text.references[r][1]
                assert view.ranges() == reference_ranges(detail, r, mode.key, system)
        for s in range(3):
            view = pane.hypothesis_view(s)
            assert view.document().toPlainText() == sample.text.systems[s][1]
            assert view.ranges() == sorted(hypothesis_ranges(detail, s, mode.key))
    pane.set_reference_system(None)
    pane.set_mode("lcs")
    assert pane.legend.text() == "ROUGE-L LCS:  in the longest common subsequence"
    pane.set_mode("bleu")
    legend = pane.legend.text()
    assert legend.startswith("BLEU n-grams:  1-gram   2-gram   3-gram   4-gram")
    assert "unmatched" in legend and "missed by all systems" in legend
    with pytest.raises(ValueError, match="bleu, lcs"):
        pane.set_mode("meteor")


def test_the_mode_switch_offers_the_modes_of_the_config(qtbot, pane, sample) -> None:
    detail = sample.detail(4, NLTK_ON)
    pane.show_row(detail)
    combo = pane.mode_combo
    with qtbot.assertNotEmitted(pane.mode_changed, wait=10):
        pane.set_config(NLTK_ON)  # the current mode (bleu) is still offered
    labels = [combo.itemText(i) for i in range(combo.count())]
    keys = [combo.itemData(i) for i in range(combo.count())]
    assert keys == [m.key for m in NLTK_ON.highlight_modes()] == ["bleu", "lcs", "nltk"]
    assert labels == [m.label for m in NLTK_ON.highlight_modes()]
    with qtbot.waitSignal(pane.mode_changed) as changed:
        combo.setCurrentIndex(keys.index("nltk"))  # what a user does
    assert changed.args == ["nltk"] and pane.mode() == "nltk"
    for s in range(3):
        assert pane.hypothesis_view(s).ranges() == sorted(hypothesis_ranges(detail, s, "nltk"))
    assert pane.legend.text().startswith("NLTK-BLEU n-grams:")
    with qtbot.waitSignal(pane.mode_changed) as changed:
        pane.set_config(ScoringConfig())  # no NLTK-BLEU: back to the first mode
    assert changed.args == ["bleu"] and combo.currentData() == "bleu"
    assert combo.count() == 2
    pane.set_mode("lcs")
    assert combo.currentData() == "lcs"  # the switch follows set_mode


@pytest.mark.parametrize("segment", [1, 33, 120])
def test_why_this_score_is_core_blocks_and_the_reference_numbers(pane, sample, segment) -> None:
    detail = sample.detail(segment, NLTK_ON)
    pane.set_config(NLTK_ON)
    pane.set_reference_names(sample.reference_names)
    pane.show_row(detail)
    refs = [r[segment] for r in sample.text.references]
    scorer = rouge_scorer.RougeScorer(["rouge1", "rouge2", "rougeL"])
    for s, output in enumerate(detail.outputs):
        blocks = pane.breakdown(s)
        assert blocks == detail.breakdown(s, list(sample.reference_names))
        assert [b.title[0].text for b in blocks] == ["BLEU", "ROUGE", "NLTK BLEU"]
        assert pane.breakdown_view(s).blocks() == blocks
        shown = pane.breakdown_text(s)
        assert all(block.text() in shown for block in blocks)
        # The numbers are the reference implementations' own.
        bleu = sacrebleu.sentence_bleu(output, refs)
        for n, (m, t) in enumerate(zip(bleu.counts, bleu.totals, strict=True), start=1):
            assert f"{n}-gram" in shown and f"{m}/{t}" in shown
        assert f"= {bleu.score:.2f}" in shown
        assert f"BP = {'1 (c ≥ r)' if bleu.bp == 1 else 'exp(1 − r/c)'} = {bleu.bp:.4f}" in shown
        assert f"c = {bleu.sys_len} output tokens, r = {bleu.ref_len} reference tokens" in shown
        for score in scorer.score_multi(refs, output).values():
            assert f"{100 * score.fmeasure:.2f}" in shown
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # NLTK warns of zero counts
            nltk = 100 * sentence_bleu([r.split() for r in refs], output.split())
        assert f"NLTK BLEU = {nltk:.2f}" in shown
        caption = pane.caption("hypothesis", s)
        assert caption.startswith(f"{sample.text.system_names[s]} — BLEU {bleu.score:.1f}")
        assert f"NLTK {nltk:.1f}" in caption


def test_smoothed_precisions_are_starred(pane, make_scored) -> None:
    data = make_scored(
        references=[["the cat is on the mat"]], systems={"echo": ["the the the the the the"]}
    )
    pane.show_row(data.detail(0))
    shown = pane.breakdown_text(0)
    # exp smoothing: the k-th zero-match order gets 100 / (2**k * total).
    for precision in (100 / 10, 100 / 16, 100 / 24):
        assert f"{precision:.2f}*" in shown
    assert "2/6" in shown and "(* = smoothed)" in shown
    score = sacrebleu.sentence_bleu("the the the the the the", ["the cat is on the mat"]).score
    assert f"{score:.2f}" in shown


def test_breakdown_shows_names_verbatim(pane) -> None:
    """Nothing in the breakdown is markup: a reference named like HTML is shown as it is."""
    detail = RowDetailer(ScoringConfig()).row(
        segment=0, source=None, references=["a b c"], systems=[("<i>x</i>", "a b")]
    )
    pane.set_reference_names(("<ref & co>",))
    pane.show_row(detail)
    assert "(with <ref & co>)" in pane.breakdown_text(0)
    assert pane.caption("hypothesis", 0).startswith("<i>x</i> — ")


def test_every_metric_gets_its_block_side_by_side_or_wrapped(qtbot, pane, sample, toy) -> None:
    """A registered metric's blocks are shown with the others; narrow panes wrap them."""
    pane.set_config(toy)
    pane.show_row(sample.detail(18, toy))
    pane.show()
    qtbot.waitExposed(pane)
    view = pane.breakdown_view(0)
    blocks = view.blocks()
    assert [b.title[0].text for b in blocks] == ["BLEU", "ROUGE", "NLTK BLEU", "Toy"]
    widths = view.block_widths()
    margins = view.contentsMargins()
    wide = view.sizeHint().width()
    one_line = view.block_positions(wide)
    assert len({p.y() for p in one_line}) == 1  # side by side
    assert [p.x() for p in one_line] == sorted(p.x() for p in one_line)
    narrow = view.block_positions(max(widths) + margins.left() + margins.right())
    assert [p.x() for p in narrow] == [margins.left()] * 4  # one block per line
    assert view.heightForWidth(max(widths)) > view.heightForWidth(wide)
    for width in (wide, 800, 600, max(widths) + margins.left()):
        positions = view.block_positions(width)
        for (a, pa), (_, pb) in pairwise(zip(widths, positions, strict=True)):
            if pa.y() == pb.y():  # on one line: no overlap
                assert pa.x() + a <= pb.x()
        lines = sorted({p.y() for p in positions})
        # Every line holds the same number of blocks, in grid columns.
        per_line = sum(1 for p in positions if p.y() == lines[0])
        assert [p.x() for p in positions] == [positions[i % per_line].x() for i in range(4)]
    qtbot.waitUntil(lambda: view.height() == view.heightForWidth(view.width()), timeout=5000)


def test_breakdown_view_sizes_to_its_text_and_copies_it(qtbot, pane, sample) -> None:
    pane.show()
    qtbot.waitExposed(pane)
    pane.show_row(sample.detail(18))
    views = [pane.breakdown_view(s) for s in range(3)]
    view = views[0]
    bleu_block, rouge_block = view.blocks()
    # title, header, one row per order / ROUGE type, then the lines under the grid
    rows = max(2 + len(b.rows) + len(b.lines) for b in (bleu_block, rouge_block))
    assert view.sizeHint().height() == rows * view._row_height()
    qtbot.waitUntil(lambda: view.height() == view.heightForWidth(view.width()), timeout=5000)
    # Every output's ROUGE block starts at the same x (the BLEU blocks have one width).
    assert len({v.block_widths()[0] for v in views}) == 1
    view.setFocus()
    qtbot.keyClick(view, Qt.Key.Key_C, Qt.KeyboardModifier.ControlModifier)
    copied = QApplication.clipboard().text()
    assert copied == view.text() == pane.breakdown_text(0)
    assert "BLEU = BP × exp(mean log p) = " in copied and "LCS length" in copied
    empty = BreakdownView()
    qtbot.addWidget(empty)
    assert empty.sizeHint().isEmpty() and empty.text() == ""


def test_hovering_lights_up_the_linked_reference_text(qtbot, pane, sample) -> None:
    detail = sample.detail(1)
    pane.show_row(detail)
    output = detail.outputs[1]  # literal: "The package comprises investments in height of ..."
    index = output.index("package") + 2
    expected = expected_links(detail, "bleu", 1, index)
    assert expected  # "package" is in the first reference
    with qtbot.waitSignal(pane.span_hovered) as hovered:
        pane.hover_at(1, index)
    start = output.index("package")
    assert hovered.args == [1, start, start + len("package")]
    assert pane.hovered_span() == (1, start, start + len("package"))
    assert pane.linked_spans() == expected
    for r in range(2):
        assert extra_spans(pane.reference_view(r)) == expected.get(r, [])
        for a, b in expected.get(r, []):
            assert detail.references[r][a:b] == "package"
    assert extra_spans(pane.hypothesis_view(1)) == [(start, start + len("package"))]
    selections = pane.reference_view(0).extraSelections()
    link = highlight_format("link", 0, False).background().color()
    assert selections[0].format.background().color() == link
    label = pane.link_label.text()
    assert "“package”" in label and "(literal)" in label
    assert "Ref 1" in label and "Ref 2" not in label

    unmatched = next(a for a, _, k, _ in hypothesis_ranges(detail, 1, "bleu") if k == "unmatched")
    pane.hover_at(1, unmatched)
    assert pane.linked_spans() == {}
    assert "not matched in any reference" in pane.link_label.text()
    with qtbot.waitSignal(pane.span_hovered) as cleared:
        pane.hover_at(1, None)
    assert cleared.args == [-1, -1, -1]
    assert all(extra_spans(pane.reference_view(r)) == [] for r in range(2))
    # In the LCS mode, the LCS layer's links.
    pane.set_mode("lcs")
    lcs_start, lcs_end, _, _ = hypothesis_ranges(detail, 1, "lcs")[0]
    pane.hover_at(1, lcs_start)
    assert pane.linked_spans() == expected_links(detail, "lcs", 1, lcs_start)
    assert pane.linked_spans() and pane.hovered_span() == (1, lcs_start, lcs_end)
    assert "longest common subsequence" in pane.link_label.text()
    pane.set_mode("bleu")  # the hover is redone in the new mode
    assert pane.linked_spans() == expected_links(detail, "bleu", 1, lcs_start)


def test_real_mouse_moves_drive_the_hover(qtbot, pane, sample) -> None:
    detail = sample.detail(1)
    pane.set_reference_names(["ref.en", "ref2.en"])
    pane.show_row(detail)
    pane.show()
    qtbot.waitExposed(pane)
    output = detail.outputs[0]
    start = output.index("investments")
    end = start + len("investments")
    view = pane.hypothesis_view(0)
    point = view.point_of(start + 2)
    assert view.char_at(point) == start + 2
    # Every character of the word, left and right halves, is found under the mouse.
    cursor = QTextCursor(view.document())
    for index in range(start, end):
        cursor.setPosition(index)
        left = view.cursorRect(cursor)
        cursor.setPosition(index + 1)
        right = view.cursorRect(cursor).left()
        for fraction in (0.25, 0.75):
            x = left.left() + fraction * (right - left.left())
            assert view.char_at(QPointF(x, left.center().y())) == index
    assert view.char_at(view.point_of(end)) == end  # the space after it
    assert view.char_at(QPointF(view.viewport().width() - 2, 1)) == -1
    # Under the offscreen platform the first synthetic move after show() can land elsewhere.
    qtbot.mouseMove(pane.title, pane.title.rect().center())
    qtbot.wait(10)
    assert pane.hovered_span() is None
    qtbot.mouseMove(view.viewport(), point.toPoint())
    qtbot.waitUntil(lambda: pane.hovered_span() == (0, start, end))
    assert "ref.en" in pane.link_label.text()
    partners = pane.linked_spans()
    assert {detail.references[r][a:b] for r, spans in partners.items() for a, b in spans} == {
        "investments"
    }
    qtbot.mouseMove(view.viewport(), view.point_of(end).toPoint())  # a space: nothing matched
    qtbot.waitUntil(lambda: pane.hovered_span() is None)
    far = QPoint(view.viewport().width() - 2, view.viewport().height() - 2)
    qtbot.mouseMove(view.viewport(), far)
    assert pane.hovered_span() is None


def test_text_is_shown_verbatim(pane) -> None:
    odd_ref = '<b>bold</b> & "x"\ttab 😀 שלום\u2028next line'
    odd_hyp = "<b>bold</b> & 😀 next"
    detail = RowDetailer(ScoringConfig()).row(
        segment=0, source="<src>", references=[odd_ref], systems=[("s", odd_hyp)]
    )
    pane.show_row(detail)
    assert pane.reference_view(0).document().toRawText() == odd_ref  # U+2028 kept as is
    assert pane.hypothesis_view(0).document().toPlainText() == odd_hyp
    assert pane.source_view().document().toPlainText() == "<src>"
    # A highlight after the emoji lands on the right characters (UTF-16 offsets).
    start, _, kind, level = next(r for r in hypothesis_ranges(detail, 0, "bleu") if r[0] > 14)
    assert odd_hyp[start:].startswith("next") and kind == "match"
    cursor = QTextCursor(pane.hypothesis_view(0).document())
    cursor.setPosition(start + 1 + 1)  # +1 for the emoji's second UTF-16 unit, +1 "after"
    assert cursor.charFormat().background().color() == order_tint(level, False)


def test_no_row_clears_the_pane(pane, sample) -> None:
    detail = sample.detail(3)
    pane.show_row(detail)
    pane.hover_at(0, hypothesis_ranges(detail, 0, "bleu")[0][0])
    assert pane.link_label.text().strip()
    pane.show_row(None)
    assert not pane.link_label.text().strip()
    assert pane.hovered_span() is None
    assert pane.detail() is None
    assert pane.title.text() == "Select a row to see its matches."
    assert pane.source_view() is None
    assert pane.legend.text() == ""
    with pytest.raises(LookupError):
        pane.breakdown(0)


def test_a_metric_without_detail_for_the_row_is_named_with_the_reason(pane, make_scored, toy):
    """The toy detail of a long line is missing: the pane says so, its mode shows plain text,
    and the other metrics' highlights and blocks are there."""
    long = "the cat sat on the mat " * 12
    assert len(long) > TOY_DETAIL_LIMIT
    data = make_scored(references=[[long]], systems={"s": [long[:-30]]}, config=toy)
    detail = data.detail(0)
    assert set(detail.notes) == {"toy"}
    pane.set_config(toy)
    pane.show_row(detail)
    pane.show()
    notes = pane.notes()
    assert notes.startswith("Toy: ") and detail.notes["toy"] in notes
    assert [b.title[0].text for b in pane.breakdown(0)] == ["BLEU", "ROUGE", "NLTK BLEU"]
    assert pane.hypothesis_view(0).ranges()  # BLEU's
    pane.set_mode("toy")
    assert pane.hypothesis_view(0).ranges() == [] and pane.reference_view(0).ranges() == []
    pane.show_row(data.detail(0, ScoringConfig()))
    assert pane.notes() == ""


def test_dark_palette_switches_the_tints(qtbot, pane, sample) -> None:
    detail = sample.detail(1)
    pane.show_row(detail)
    view = pane.hypothesis_view(0)
    start, _, kind, level = hypothesis_ranges(detail, 0, "bleu")[0]
    assert kind == "match"

    def tint() -> QColor:
        cursor = QTextCursor(view.document())
        cursor.setPosition(start + 1)
        return cursor.charFormat().background().color()

    assert tint() == order_tint(level, False)
    pane.setPalette(dark_palette())
    assert pane.is_dark()
    assert tint() == order_tint(level, True)
    pane.set_dark(False)  # forced
    assert tint() == order_tint(level, False)


def test_screenshots_light_dark_and_every_mode(qtbot, pane, sample, wmt_zh, toy, save_shot):
    pane.set_reference_names(sample.reference_names)
    pane.set_config(toy)
    pane.show_row(sample.detail(17, toy))
    pane.show()
    qtbot.waitExposed(pane)
    output = pane.detail().outputs[1]
    pane.hover_at(1, output.index("three"))
    QApplication.processEvents()
    save_shot(pane, "detailpane-sample-light")
    marked = pane.linked_spans()
    assert marked
    pane.setPalette(dark_palette())
    QApplication.processEvents()
    assert pane.linked_spans() == marked  # the hover survives the re-render
    save_shot(pane, "detailpane-sample-dark")
    pane.set_mode("toy")
    QApplication.processEvents()
    save_shot(pane, "detailpane-sample-dark-toy")
    pane.setPalette(QApplication.palette())
    pane.resize(520, 1250)
    pane.set_mode("lcs")
    QApplication.processEvents()
    save_shot(pane, "detailpane-sample-narrow-lcs")
    pane.resize(760, 1250)
    pane.set_reference_names(wmt_zh.reference_names)
    pane.set_config(wmt_zh.config)
    pane.show_row(wmt_zh.detail(4))
    pane.hover_at(0, 3)
    QApplication.processEvents()
    save_shot(pane, "detailpane-wmt22-en-zh")
    assert pane.link_label.text().strip()


def test_a_huge_row_shows_the_start_of_each_text_and_says_so(qtbot, pane, make_scored) -> None:
    """Hostile input: a line of 8,000 words is shown up to VIEW_TEXT_LIMIT, hover included."""
    words = [f"w{i % 700}" for i in range(8000)]
    long_ref, long_hyp = " ".join(words), " ".join(reversed(words))
    data = make_scored(references=[[long_ref]], systems={"echo": [long_hyp]})
    detail = data.detail(0)
    pane.show_row(detail)
    hyp_view, ref_view = pane.hypothesis_view(0), pane.reference_view(0)
    assert hyp_view.plain_text() == long_hyp[:VIEW_TEXT_LIMIT]
    assert ref_view.plain_text() == long_ref[:VIEW_TEXT_LIMIT]
    assert hyp_view.full_length() == len(long_hyp)
    note = f"(first {VIEW_TEXT_LIMIT:,} of {len(long_hyp):,} characters shown)"
    assert note in pane.caption("hypothesis", 0)
    assert note.replace(f"{len(long_hyp):,}", f"{len(long_ref):,}") in pane.caption("reference")
    assert all(end <= VIEW_TEXT_LIMIT for _, end, _, _ in hyp_view.ranges())
    # Text whose partners lie beyond the shown part: no error, only what is shown is marked.
    pane.hover_at(0, VIEW_TEXT_LIMIT - 2)
    assert pane.linked_spans()
    assert all(end <= VIEW_TEXT_LIMIT for _, end in extra_spans(ref_view))
    pane.hover_at(0, None)


def test_a_layer_without_links_lights_only_the_hovered_text(pane, sample, toy, monkeypatch):
    """A layer need not link its matches (chrF's does not): the hover then marks the matched
    text under the mouse and does not claim it matched nothing."""
    from tests.gui.toymetric import ToyLayer

    monkeypatch.setattr(ToyLayer, "links", lambda self, system, reference: ())
    pane.set_config(toy)
    detail = sample.detail(18, toy)
    pane.show_row(detail)
    pane.set_mode("toy")
    start, end, _, level = next(r for r in hypothesis_ranges(detail, 1, "toy") if r[3] > 1)
    pane.hover_at(1, start)
    assert pane.hovered_span() == (1, start, end)
    assert pane.linked_spans() == {}
    assert extra_spans(pane.hypothesis_view(1)) == [(start, end)]
    label = pane.link_label.text()
    assert f"part of a matched {level}-gram" in label and "not matched" not in label
    unmatched = next(r for r in hypothesis_ranges(detail, 1, "toy") if r[2] == "unmatched")
    pane.hover_at(1, unmatched[0])
    assert "not matched in any reference" in pane.link_label.text()


@pytest.mark.skipif("chrf" not in METRICS, reason="chrF is not registered yet")
def test_chrf_brings_its_mode_legend_and_block(pane, sample) -> None:
    config = ScoringConfig().with_metrics("bleu,rouge,chrf")
    chrf = next(m for m in config.highlight_modes() if m.key == "chrf")
    pane.set_config(config)
    detail = sample.detail(18, config)
    pane.show_row(detail)
    pane.set_mode("chrf")
    for s in range(3):
        assert pane.hypothesis_view(s).ranges() == sorted(hypothesis_ranges(detail, s, "chrf"))
    assert f"{chrf.max_level}-gram" in pane.legend.text()
    titles = [b.title[0].text for b in pane.breakdown(0)]
    assert titles[0] == "BLEU" and any(t.startswith("chrF") for t in titles)
    assert pane.breakdown_view(0).blocks() == pane.breakdown(0)
