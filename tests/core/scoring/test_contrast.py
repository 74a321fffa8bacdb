"""core.scoring.contrast: what one system matched and the baseline did not, and the reverse.

Hand-checkable rows use distinct lower-case words (no clipping, 13a and rouge-score split them
alike), so what a system matches is plain set arithmetic on the words, computed here from the
texts. On real data (WMT22 de-en) the contrast is checked against the layer's own ranges with
character sets, and on the token layers against exact token ranges.
"""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from matchlight.core.metrics.base import HighlightLayer
from matchlight.core.scoring.config import ScoringConfig
from matchlight.core.scoring.contrast import (
    MATCHED_KINDS,
    baseline_contrast,
    covered,
    has_links,
    matched_spans,
    row_contrast,
)
from matchlight.core.scoring.detail import RowDetail, RowDetailer
from matchlight.core.style.palette import DARK, LIGHT, Theme, contrast_ratio, parse_hex
from tests.conftest import SHARED_DATA
from tests.kit import read_lines

CONFIG = ScoringConfig().with_metrics("bleu,rouge,chrf")
Span = tuple[int, int]


def detail_of(references: Sequence[str], outputs: Sequence[str]) -> RowDetail:
    return RowDetailer(CONFIG).row(
        segment=0,
        source=None,
        references=references,
        systems=[(f"sys{i}", text) for i, text in enumerate(outputs)],
    )


def word_spans(text: str) -> dict[str, Span]:
    """Each (distinct) word of ``text`` and its span."""
    spans: dict[str, Span] = {}
    pos = 0
    for word in text.split():
        start = text.index(word, pos)
        assert word not in spans, "the hand-made texts use each word once"
        spans[word] = (start, start + len(word))
        pos = start + len(word)
    return spans


def characters(spans: Sequence[Span]) -> set[int]:
    return {p for a, b in spans for p in range(a, b)}


# -- hand-checkable rows -----------------------------------------------------------------------

REF = "the cat sat on a mat"
SYSTEM = "the cat was on a rug"  # matches the, cat, on, a (in the reference's order)
BASELINE = "the dog sat on a floor"  # matches the, sat, on, a (in order)


@pytest.mark.parametrize("mode", ["bleu", "lcs"])
def test_gains_and_losses_are_the_words_one_system_shares_with_the_reference(mode) -> None:
    detail = detail_of([REF], [SYSTEM, BASELINE])
    ref = word_spans(REF)
    mine, theirs = set(SYSTEM.split()) & set(ref), set(BASELINE.split()) & set(ref)
    contrast = row_contrast(detail, mode, system=0, baseline=1)
    assert contrast is not None and contrast.linked
    assert contrast.gains == (tuple(sorted(ref[w] for w in mine - theirs)),)
    assert contrast.losses == (tuple(sorted(ref[w] for w in theirs - mine)),)
    assert [REF[a:b] for a, b in contrast.gains[0]] == ["cat"]
    assert [REF[a:b] for a, b in contrast.losses[0]] == ["sat"]
    # The output side: "cat" earned a reference word the baseline did not; "the", "on" and "a"
    # are words both matched.
    out = word_spans(SYSTEM)
    assert contrast.hypothesis_gains == (out["cat"],)
    assert contrast.reference_ranges(0) == [
        (*ref["cat"], "gain", 0),
        (*ref["sat"], "loss", 0),
    ]
    assert contrast.hypothesis_ranges() == [(*out["cat"], "gain", 0)]
    # The other way round, gains and losses swap.
    back = row_contrast(detail, mode, system=1, baseline=0)
    assert back is not None
    assert (back.gains, back.losses) == (contrast.losses, contrast.gains)
    assert back.hypothesis_gains == (word_spans(BASELINE)["sat"],)


def test_several_references_each_get_their_own_marks() -> None:
    refs = ["the cat sat on a mat", "a cat was sitting on the sofa"]
    outputs = ["the cat was on a rug", "the dog sat on a sofa", "one cat sat there"]
    detail = detail_of(refs, outputs)
    words = [set(o.split()) for o in outputs]
    for system, baseline in [(0, 1), (1, 0), (2, 0), (0, 2), (1, 2)]:
        contrast = row_contrast(detail, "bleu", system=system, baseline=baseline)
        assert contrast is not None
        for r, ref in enumerate(refs):
            spans = word_spans(ref)
            gain = {w for w in spans if w in words[system] and w not in words[baseline]}
            loss = {w for w in spans if w in words[baseline] and w not in words[system]}
            assert contrast.gains[r] == tuple(sorted(spans[w] for w in gain)), (system, r)
            assert contrast.losses[r] == tuple(sorted(spans[w] for w in loss)), (system, r)
        # An output word is a gain when some reference has it and the baseline has not said it
        # (the baseline matched every reference occurrence of a word it shares).
        in_refs = {w for ref in refs for w in ref.split()}
        out = word_spans(outputs[system])
        expected = {w for w in out if w in in_refs and w not in words[baseline]}
        assert contrast.hypothesis_gains == tuple(sorted(out[w] for w in expected))
    first = row_contrast(detail, "bleu", system=0, baseline=1)
    assert first is not None
    assert [refs[1][a:b] for a, b in first.gains[1]] == ["cat", "was"]


def test_a_system_against_itself_has_no_marks() -> None:
    detail = detail_of(["the cat sat on a mat", "a cat on a mat"], [SYSTEM, BASELINE])
    for mode in ("bleu", "lcs", "chrf"):
        for s in (0, 1):
            contrast = row_contrast(detail, mode, system=s, baseline=s)
            assert contrast is not None
            assert contrast.gains == contrast.losses == ((), ())
            assert contrast.hypothesis_gains == ()
            assert contrast.is_empty()
            assert contrast.reference_ranges(1) == []
    different = row_contrast(detail, "bleu", system=0, baseline=1)
    assert different is not None and not different.is_empty()


def test_identical_outputs_have_no_marks() -> None:
    detail = detail_of([REF], [SYSTEM, SYSTEM])
    for mode in ("bleu", "lcs", "chrf"):
        contrast = row_contrast(detail, mode, system=0, baseline=1)
        assert contrast is not None and contrast.is_empty()


def test_chrf_marks_characters_and_has_no_output_side() -> None:
    detail = detail_of([REF], [SYSTEM, BASELINE])
    layer = detail.layer("chrf")
    assert layer is not None and not has_links(layer)
    contrast = row_contrast(detail, "chrf", system=0, baseline=1)
    assert contrast is not None and not contrast.linked
    assert contrast.hypothesis_gains == ()
    mine = characters(matched_spans(layer.reference(0, 0)))
    theirs = characters(matched_spans(layer.reference(0, 1)))
    assert characters(contrast.gains[0]) == mine - theirs
    assert characters(contrast.losses[0]) == theirs - mine
    # The baseline has no "c" at all, the system says "cat": the reference's "c" is a gain.
    c = REF.index("c")
    assert "c" not in BASELINE and c in characters(contrast.gains[0])
    assert all(REF[a:b].strip() == REF[a:b] for a, b in contrast.gains[0] + contrast.losses[0])


def test_bad_systems_are_refused_and_a_missing_layer_is_none() -> None:
    detail = detail_of([REF], [SYSTEM, BASELINE])
    with pytest.raises(ValueError, match="2 systems; got system 2, baseline 0"):
        row_contrast(detail, "bleu", system=2, baseline=0)
    layer = detail.layer("bleu")
    assert layer is not None
    with pytest.raises(ValueError, match="numbered from 0"):
        baseline_contrast(layer, system=-1, baseline=0, n_references=1)
    with pytest.raises(ValueError, match="negative number of references"):
        baseline_contrast(layer, system=0, baseline=1, n_references=-1)
    assert row_contrast(detail, "nltk", system=0, baseline=1) is None


def test_covered_merges_overlapping_and_touching_spans() -> None:
    assert covered([(5, 7), (0, 2), (2, 3), (6, 9), (4, 4)]) == [(0, 3), (5, 9)]
    assert covered([]) == []


def test_a_layer_without_link_support_gives_the_reference_side_only() -> None:
    class Plain(HighlightLayer):
        key = "plain"
        label = "plain"
        max_level = 1

        def hypothesis(self, system: int) -> list:
            return [(0, 3, "match", 1)]

        def reference(self, reference: int, system: int | None) -> list:
            # System 0 matches "abc" and "ghi"; system 1 "abc" and, partly over it, "cde".
            if system == 0:
                return [(0, 3, "match", 1), (6, 9, "match", 2), (9, 10, "unmatched", 0)]
            return [(0, 2, "match", 1), (2, 5, "match", 3), (5, 6, "missed", 0)]

    contrast = baseline_contrast(Plain(), system=0, baseline=1, n_references=2)
    assert not contrast.linked and contrast.hypothesis_gains == ()
    assert contrast.gains == (((6, 9),), ((6, 9),))
    assert contrast.losses == (((3, 5),), ((3, 5),))


# -- real data -----------------------------------------------------------------------------------

WMT = SHARED_DATA / "wmt22-de-en"
WMT_ROWS = 250
WMT_SYSTEMS = ("JDExploreAcademy", "Online-W", "LT22")


def _lines(name: str) -> list[str]:
    return read_lines(WMT / name)[:WMT_ROWS]


@pytest.fixture(scope="module")
def wmt_rows() -> list[RowDetail]:
    if not (WMT / "ref2.txt").exists():
        pytest.skip("/work/shared/data/wmt22-de-en is not there")
    refs = [_lines("ref.txt"), _lines("ref2.txt")]
    systems = [_lines(f"sys.{name}.txt") for name in WMT_SYSTEMS]
    detailer = RowDetailer(CONFIG)
    return [
        detailer.row(
            segment=k,
            source=None,
            references=[r[k] for r in refs],
            systems=[(name, s[k]) for name, s in zip(WMT_SYSTEMS, systems, strict=True)],
        )
        for k in range(WMT_ROWS)
    ]


def _matched_characters(layer: HighlightLayer, reference: int, system: int) -> set[int]:
    return characters(
        [(a, b) for a, b, kind, _ in layer.reference(reference, system) if kind in MATCHED_KINDS]
    )


@pytest.mark.parametrize("mode", ["bleu", "lcs", "chrf"])
def test_on_wmt22_every_mark_is_what_the_layer_itself_shows(wmt_rows, mode) -> None:
    totals = {"gain": 0, "loss": 0, "output": 0}
    for detail in wmt_rows:
        layer = detail.layer(mode)
        assert layer is not None
        for system, baseline in [(0, 1), (2, 0)]:
            contrast = row_contrast(detail, mode, system=system, baseline=baseline)
            assert contrast is not None
            back = row_contrast(detail, mode, system=baseline, baseline=system)
            assert back is not None and (back.gains, back.losses) == (
                contrast.losses,
                contrast.gains,
            )
            for r in range(len(detail.references)):
                mine = _matched_characters(layer, r, system)
                theirs = _matched_characters(layer, r, baseline)
                gains, losses = contrast.gains[r], contrast.losses[r]
                # Each gain is matched by the system and not by the baseline, and vice versa;
                # together they are every such character, once.
                assert characters(gains) == mine - theirs
                assert characters(losses) == theirs - mine
                assert sum(b - a for a, b in gains) == len(mine - theirs)
                assert len(mine) - len(theirs) == len(mine - theirs) - len(theirs - mine)
                if mode != "chrf":
                    # Token layers: a mark is a whole token, compared by its exact range.
                    mine_t = set(matched_spans(layer.reference(r, system)))
                    theirs_t = set(matched_spans(layer.reference(r, baseline)))
                    assert set(gains) == mine_t - theirs_t
                    assert set(losses) == theirs_t - mine_t
                totals["gain"] += len(gains)
                totals["loss"] += len(losses)
            if mode == "chrf":
                assert contrast.hypothesis_gains == ()
                continue
            # The output side, recomputed: matched output tokens all of whose links land on
            # gained reference characters.
            output = characters(matched_spans(layer.hypothesis(system)))
            verdict: dict[Span, bool] = {}
            for r in range(len(detail.references)):
                gained = characters(contrast.gains[r])
                for hyp, ref in layer.links(system, r):
                    if set(range(*hyp)) <= output and hyp[1] > hyp[0]:
                        ok = set(range(*ref)) <= gained
                        verdict[hyp] = verdict.get(hyp, True) and ok
            expected = sorted(span for span, ok in verdict.items() if ok)
            assert list(contrast.hypothesis_gains) == expected
            totals["output"] += len(expected)
    # The real systems do differ: the test saw marks of every kind.
    assert totals["gain"] > 100 and totals["loss"] > 100
    if mode != "chrf":
        assert totals["output"] > 50


# -- colours -------------------------------------------------------------------------------------


@pytest.mark.parametrize("theme", [LIGHT, DARK], ids=["light", "dark"])
def test_the_loss_tint_keeps_its_text_readable_and_differs_from_the_other_tints(
    theme: Theme,
) -> None:
    loss = parse_hex(theme.loss_tint)
    assert contrast_ratio(loss, parse_hex(theme.fixed_text)) >= 4.5
    # The strike-through reads on the tint as well as text would.
    assert contrast_ratio(loss, parse_hex(theme.loss_line)) >= 4.5
    others = {theme.missed_tint, theme.lcs_tint, theme.link_tint, *theme.ramp}
    assert theme.loss_tint not in others
