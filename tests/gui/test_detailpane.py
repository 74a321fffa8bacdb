"""DetailPane: same highlights as the table, "why this score" numbers, hover linking."""

from __future__ import annotations

from typing import Any

import pytest
import sacrebleu
from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtGui import QColor, QPalette, QTextCursor
from PySide6.QtWidgets import QApplication

from matchlight.core.scoring.config import ScoringConfig
from matchlight.core.scoring.detail import RowDetail, RowDetailer
from matchlight.gui.detail.detailpane import (
    DetailPane,
    bleu_breakdown,
    breakdown_blocks,
    rouge_breakdown,
)
from matchlight.gui.highlight.palette import highlight_format, order_tint
from matchlight.gui.highlight.ranges import hypothesis_ranges, reference_ranges


def row(data: Any, segment: int, config: ScoringConfig | None = None) -> RowDetail:
    text = data.text
    return RowDetailer(config or data.config).row(
        segment=segment,
        source=None if data.source is None else data.source[segment],
        references=[r[segment] for r in text.references],
        systems=list(zip(text.system_names, [s[segment] for s in text.systems], strict=True)),
    )


@pytest.fixture
def pane(qtbot) -> DetailPane:
    widget = DetailPane()
    qtbot.addWidget(widget)
    widget.resize(760, 1250)
    return widget


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
    """Python-index spans of a view's extra selections (the hover marks)."""
    return [
        (sel.cursor.selectionStart(), sel.cursor.selectionEnd()) for sel in view.extraSelections()
    ]


def test_views_show_the_text_with_the_table_highlights(pane, sample) -> None:
    detail = row(sample, 1)
    pane.show_row(detail)
    assert pane.title.text() == "Segment 2"
    assert pane.source_view().plain_text() == sample.source[1]
    assert pane.source_view().document().toPlainText() == sample.source[1]
    assert pane.source_view().ranges() == []
    for r in range(2):
        view = pane.reference_view(r)
        assert view.document().toPlainText() == sample.text.references[r][1]
        assert view.ranges() == reference_ranges(detail, r, "bleu", None)
    for s in range(3):
        view = pane.hypothesis_view(s)
        assert view.document().toPlainText() == sample.text.systems[s][1]
        assert view.ranges() == hypothesis_ranges(detail, s, "bleu")
    pane.set_reference_system(2)
    assert pane.reference_view(0).ranges() == reference_ranges(detail, 0, "bleu", 2)
    pane.set_mode("lcs")
    assert pane.hypothesis_view(1).ranges() == hypothesis_ranges(detail, 1, "lcs")
    assert pane.reference_view(1).ranges() == reference_ranges(detail, 1, "lcs", 2)
    assert pane.legend.text() == "in the ROUGE-L LCS"
    pane.set_mode("bleu")
    assert "4-gram" in pane.legend.text() and "missed by all systems" in pane.legend.text()
    with pytest.raises(ValueError):
        pane.set_mode("meteor")


@pytest.mark.parametrize("segment", [1, 33, 120])
def test_why_this_score_equals_core_and_sacrebleu(pane, sample, segment) -> None:
    detail = row(sample, segment)
    pane.show_row(detail)
    refs = [r[segment] for r in sample.text.references]
    for s, hyp in enumerate(detail.systems):
        bleu, rouge = pane.breakdown(s)
        score = hyp.bleu_score
        stats = hyp.bleu.stats
        assert [o.matches for o in bleu.orders] == list(stats.matches)
        assert [o.total for o in bleu.orders] == list(stats.totals)
        assert [o.precision for o in bleu.orders] == list(score.precisions)
        assert (bleu.bp, bleu.sys_len, bleu.ref_len) == (score.bp, score.sys_len, score.ref_len)
        assert (bleu.eff_order, bleu.smooth_method) == (score.eff_order, score.smooth_method)
        assert bleu.score == score.score == hyp.sentence_bleu
        # The same numbers from sacrebleu itself.
        reference = sacrebleu.sentence_bleu(hyp.text, refs)
        assert bleu.score == pytest.approx(reference.score, abs=1e-9)
        assert bleu.bp == pytest.approx(reference.bp)
        assert (bleu.sys_len, bleu.ref_len) == (reference.sys_len, reference.ref_len)
        assert [o.matches for o in bleu.orders] == list(reference.counts)
        assert [o.total for o in bleu.orders] == list(reference.totals)
        assert [o.precision for o in bleu.orders] == pytest.approx(reference.precisions)
        # ROUGE: P/R/F of the chosen reference per type, and the LCS.
        assert [r.rouge_type for r in rouge.rows] == ["rouge1", "rouge2", "rougeL"]
        for r in rouge.rows:
            value = hyp.rouge[r.rouge_type]
            assert (r.precision, r.recall, r.fmeasure) == (
                100 * value.precision,
                100 * value.recall,
                100 * value.fmeasure,
            )
            assert r.reference == hyp.rouge_ref[r.rouge_type]
        assert rouge.lcs_length == hyp.lcs_length
        # ... and that is what the pane shows.
        shown = pane.breakdown_text(s)
        for o in bleu.orders:
            assert f"{o.order}-gram" in shown and f"{o.matches}/{o.total}" in shown
            assert f"{o.precision:.2f}" in shown
        assert f"{bleu.bp:.4f}" in shown
        assert f"c = {bleu.sys_len} output tokens, r = {bleu.ref_len} reference tokens" in shown
        assert f"= {bleu.score:.2f}" in shown
        assert f"smoothing: {bleu.smooth_method}" in shown
        for r in rouge.rows:
            assert f"{r.precision:.2f}" in shown and f"{r.fmeasure:.2f}" in shown
        assert f"LCS length {hyp.lcs_length}" in shown


def test_smoothed_precisions_are_starred(pane, make_scored) -> None:
    data = make_scored(
        references=[["the cat is on the mat"]], systems={"echo": ["the the the the the the"]}
    )
    detail = row(data, 0)
    pane.show_row(detail)
    bleu, _ = pane.breakdown(0)
    assert [o.matches for o in bleu.orders] == [2, 0, 0, 0]
    assert [o.smoothed for o in bleu.orders] == [False, True, True, True]
    # exp smoothing: the k-th zero-match order gets 100 / (2**k * total).
    assert [o.precision for o in bleu.orders[1:]] == pytest.approx([100 / 10, 100 / 16, 100 / 24])
    shown = pane.breakdown_text(0)
    assert "10.00*" in shown and "(* = smoothed)" in shown
    assert f"{detail.systems[0].bleu_score.score:.2f}" in shown


def test_nltk_flavour_is_explained(pane, sample) -> None:
    config = sample.config.replace(bleu_flavour="nltk", nltk_smoothing="method1")
    detail = row(sample, 4, config)
    pane.set_config(config)
    pane.show_row(detail)
    shown = pane.breakdown_text(0)
    assert "NLTK's sentence BLEU (method1)" in shown
    assert f"{detail.systems[0].sentence_bleu:.2f}" in shown


def test_breakdown_shows_names_verbatim(pane) -> None:
    """Nothing in the breakdown is markup: a reference named like HTML is shown as it is."""
    detail = RowDetailer(ScoringConfig()).row(
        segment=0, source=None, references=["a b c"], systems=[("<i>x</i>", "a b")]
    )
    hyp = detail.systems[0]
    _, rouge = breakdown_blocks(bleu_breakdown(hyp), rouge_breakdown(hyp), ["<ref & co>"])
    assert [row[-1] for row in rouge.rows] == ["<ref & co>"] * 3
    assert rouge.lines[0][0].text == "LCS length 2 (with <ref & co>)"
    pane.set_reference_names(("<ref & co>",))
    pane.show_row(detail)
    assert "(with <ref & co>)" in pane.breakdown_text(0)


def test_hovering_a_token_lights_up_its_reference_partners(qtbot, pane, sample) -> None:
    detail = row(sample, 1)
    pane.show_row(detail)
    hyp = detail.systems[1]  # literal: "The package comprises investments in height of ..."
    token = hyp.bleu_tokens.words.index("package")
    expected = {
        r: [ref.bleu_tokens.spans[j] for i, j in hyp.bleu_links(r) if i == token]
        for r, ref in enumerate(detail.references)
    }
    expected = {r: spans for r, spans in expected.items() if spans}
    assert expected  # "package" is in the first reference
    with qtbot.waitSignal(pane.token_hovered) as hovered:
        pane.hover_token(1, token)
    assert hovered.args == [1, token]
    assert pane.linked_spans() == expected
    for r in range(2):
        assert extra_spans(pane.reference_view(r)) == expected.get(r, [])
        for start, end in expected.get(r, []):
            assert detail.references[r].text[start:end] == "package"
    assert extra_spans(pane.hypothesis_view(1)) == [hyp.bleu_tokens.spans[token]]
    selections = pane.reference_view(0).extraSelections()
    link = highlight_format("link", 0, False).background().color()
    assert selections[0].format.background().color() == link
    label = pane.link_label.text()
    assert "“package”" in label and "(literal)" in label
    assert "Ref 1" in label and "Ref 2" not in label

    unmatched = next(t for t, h in enumerate(hyp.bleu_highlights) if h.level == 0)
    pane.hover_token(1, unmatched)
    assert pane.linked_spans() == {}
    assert "not matched in any reference" in pane.link_label.text()
    with qtbot.waitSignal(pane.token_hovered) as cleared:
        pane.hover_token(1, None)
    assert cleared.args == [-1, -1]
    assert all(extra_spans(pane.reference_view(r)) == [] for r in range(2))


def test_real_mouse_moves_drive_the_hover(qtbot, pane, sample) -> None:
    detail = row(sample, 1)
    pane.set_reference_names(["ref.en", "ref2.en"])
    pane.show_row(detail)
    pane.show()
    qtbot.waitExposed(pane)
    hyp = detail.systems[0]
    token = hyp.bleu_tokens.words.index("investments")
    view = pane.hypothesis_view(0)
    start = hyp.bleu_tokens.spans[token][0]
    point = view.point_of(start + 2)
    assert view.char_at(point) == start + 2
    # Every character of the token, left and right halves, is found under the mouse.
    end = hyp.bleu_tokens.spans[token][1]
    cursor = QTextCursor(view.document())
    for index in range(start, end):
        cursor.setPosition(index)
        left = view.cursorRect(cursor)
        cursor.setPosition(index + 1)
        right = view.cursorRect(cursor).left()
        for fraction in (0.25, 0.75):
            x = left.left() + fraction * (right - left.left())
            assert view.char_at(QPointF(x, left.center().y())) == index
    assert view.char_at(view.point_of(end)) == end  # the space after it: no token
    assert view.char_at(QPointF(view.viewport().width() - 2, 1)) == -1
    # Under the offscreen platform the first synthetic move after show() can land elsewhere.
    qtbot.mouseMove(pane.title, pane.title.rect().center())
    qtbot.wait(10)
    assert pane.hovered_token() is None
    qtbot.mouseMove(view.viewport(), point.toPoint())
    qtbot.waitUntil(lambda: pane.hovered_token() == (0, token))
    assert "ref.en" in pane.link_label.text()
    partners = pane.linked_spans()
    assert {detail.references[r].text[a:b] for r, spans in partners.items() for a, b in spans} == {
        "investments"
    }
    far = QPoint(view.viewport().width() - 2, view.viewport().height() - 2)
    qtbot.mouseMove(view.viewport(), far)
    qtbot.waitUntil(lambda: pane.hovered_token() is None)


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
    hyp = detail.systems[0]
    t = hyp.bleu_tokens.words.index("next")
    start = hyp.bleu_tokens.spans[t][0]
    cursor = QTextCursor(pane.hypothesis_view(0).document())
    cursor.setPosition(start + 1 + 1)  # +1 for the emoji's second UTF-16 unit, +1 "after"
    assert cursor.charFormat().background().color() == order_tint(
        hyp.bleu_highlights[t].level, False
    )


def test_no_row_clears_the_pane(pane, sample) -> None:
    pane.show_row(row(sample, 3))
    pane.hover_token(0, 0)
    assert pane.link_label.text().strip()
    pane.show_row(None)
    assert not pane.link_label.text().strip()
    assert pane.hovered_token() is None
    assert pane.detail() is None
    assert pane.title.text() == "Select a row to see its matches."
    assert pane.source_view() is None
    with pytest.raises(LookupError):
        pane.breakdown(0)


def test_dark_palette_switches_the_tints(qtbot, pane, sample) -> None:
    detail = row(sample, 1)
    pane.show_row(detail)
    view = pane.hypothesis_view(0)
    first = detail.systems[0].bleu_highlights[0]
    cursor = QTextCursor(view.document())
    cursor.setPosition(first.start + 1)
    assert cursor.charFormat().background().color() == order_tint(first.level, False)
    pane.setPalette(dark_palette())
    assert pane.is_dark()
    cursor = QTextCursor(view.document())
    cursor.setPosition(first.start + 1)
    assert cursor.charFormat().background().color() == order_tint(first.level, True)
    pane.set_dark(False)  # forced
    cursor = QTextCursor(view.document())
    cursor.setPosition(first.start + 1)
    assert cursor.charFormat().background().color() == order_tint(first.level, False)


def test_screenshots_light_and_dark(qtbot, pane, sample, wmt_zh, save_shot) -> None:
    pane.set_reference_names(sample.reference_names)
    pane.set_config(sample.config)
    pane.show_row(row(sample, 17))
    pane.show()
    qtbot.waitExposed(pane)
    detail = pane.detail()
    hyp = detail.systems[1]
    pane.hover_token(1, hyp.bleu_tokens.words.index("three"))
    QApplication.processEvents()
    save_shot(pane, "detailpane-sample-light")
    marked = pane.linked_spans()
    pane.setPalette(dark_palette())
    QApplication.processEvents()
    assert pane.linked_spans() == marked  # the hover survives the re-render
    save_shot(pane, "detailpane-sample-dark")
    pane.setPalette(QApplication.palette())
    pane.set_reference_names(wmt_zh.reference_names)
    pane.set_config(wmt_zh.config)
    pane.show_row(row(wmt_zh, 4))
    pane.hover_token(0, 3)
    QApplication.processEvents()
    save_shot(pane, "detailpane-wmt22-en-zh")
    assert pane.link_label.text().strip()
    assert Qt  # the pane rendered without Qt warnings (they fail the test)


def test_breakdown_view_sizes_to_its_text_and_copies_it(qtbot, pane, sample) -> None:
    pane.show()
    qtbot.waitExposed(pane)
    pane.show_row(row(sample, 18))
    views = [pane._sys_sections[s].breakdown for s in range(3)]
    view = views[0]
    bleu_block, rouge_block = view.blocks()
    # title, header, one row per order / ROUGE type, then the lines under the grid
    rows = max(2 + len(b.rows) + len(b.lines) for b in (bleu_block, rouge_block))
    assert rows == 2 + 4 + 5
    assert view.sizeHint().height() == rows * view._row_height()
    qtbot.waitUntil(lambda: view.height() == view.sizeHint().height(), timeout=5000)
    # Every hypothesis' ROUGE block starts at the same x (the BLEU blocks have one width).
    assert len({v.block_widths()[0] for v in views}) == 1
    view.setFocus()
    qtbot.keyClick(view, Qt.Key.Key_C, Qt.KeyboardModifier.ControlModifier)
    copied = QApplication.clipboard().text()
    assert copied == view.text() == pane.breakdown_text(0)
    assert "BLEU = BP × exp(mean log p) = " in copied and "LCS length" in copied


def test_a_huge_row_shows_the_start_of_each_text_and_says_so(qtbot, pane, make_scored) -> None:
    """Hostile input: a line of 8,000 words is shown up to VIEW_TEXT_LIMIT, hover included."""
    from matchlight.gui.detail.detailpane import VIEW_TEXT_LIMIT

    words = [f"w{i % 700}" for i in range(8000)]
    long_ref, long_hyp = " ".join(words), " ".join(reversed(words))
    data = make_scored(references=[[long_ref]], systems={"echo": [long_hyp]})
    detail = row(data, 0)
    pane.show_row(detail)
    hyp_view, ref_view = pane.hypothesis_view(0), pane.reference_view(0)
    assert hyp_view.plain_text() == long_hyp[:VIEW_TEXT_LIMIT]
    assert ref_view.plain_text() == long_ref[:VIEW_TEXT_LIMIT]
    assert hyp_view.full_length() == len(long_hyp)
    note = f"(first {VIEW_TEXT_LIMIT:,} of {len(long_hyp):,} characters shown)"
    assert note in pane._sys_sections[0].caption.text()
    assert note.replace(f"{len(long_hyp):,}", f"{len(long_ref):,}") in (
        pane._ref_sections[0].caption.text()
    )
    assert all(end <= VIEW_TEXT_LIMIT for _, end, _, _ in hyp_view.ranges())
    # A token whose partners lie beyond the shown part: no error, only what is shown is marked.
    token = len(detail.systems[0].bleu_tokens.words) - 1
    pane.hover_token(0, token)
    assert all(end <= VIEW_TEXT_LIMIT for _, end in extra_spans(ref_view))
    pane.hover_token(0, None)
