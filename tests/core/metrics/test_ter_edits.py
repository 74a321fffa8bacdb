"""The "TER edits" layer: its marks are the edit path of :class:`TerRowDetail` (the reference
sacreBLEU keeps), and on real data they add up to sacreBLEU's own edit count."""

from __future__ import annotations

from collections import Counter

import pytest
from sacrebleu.metrics.lib_ter import translation_edit_rate

from matchlight.core.metrics.ter import (
    TER_DEL,
    TER_DEST,
    TER_GAP,
    TER_INS,
    TER_SHIFT,
    TER_SUB,
    TerEditLayer,
)
from matchlight.core.metrics.terpath import TerRowDetail
from matchlight.core.scoring.config import ScoringConfig
from matchlight.core.scoring.detail import row_detail
from matchlight.core.text.tercom import tercom_tokenizer
from tests.conftest import SHARED_DATA
from tests.kit import read_lines

WMT = SHARED_DATA / "wmt22-de-en"
ROWS = range(0, 1984, 25)


def edit_layer(references: list[str], outputs: list[str]) -> tuple[TerRowDetail, TerEditLayer]:
    found = row_detail(
        ScoringConfig(metrics=("ter",)),
        segment=0,
        source=None,
        references=references,
        systems=[(f"s{k}", line) for k, line in enumerate(outputs)],
    )
    ter = found.metrics["ter"]
    assert isinstance(ter, TerRowDetail)
    layer = found.layer("ter_edits")
    assert isinstance(layer, TerEditLayer)
    return ter, layer


def test_a_shift_and_a_gap_are_marked_where_they_belong() -> None:
    ref = "the cat sat on the mat ."
    out = "on the mat the cat sat"
    _, layer = edit_layer([ref], [out])
    # "the cat sat" moves to the front; the reference's "." is missing after "mat", which no
    # shift moved.
    assert layer.hypothesis(0) == [
        (11, 22, TER_SHIFT, 0),
        (0, 0, TER_DEST, 0),
        (10, 10, TER_GAP, 0),
    ]
    (shift,) = layer.shift_marks(0)
    assert (shift.from_word, shift.to_word, shift.to) == (4, 1, 0)
    assert shift.text == "shift 1: “the cat sat” moved from words 4–6 to words 1–3, before “on”"
    (gap,) = layer.gap_marks(0)
    assert gap.words == ((23, 24),) and gap.text == "missing here: “.” (1 word TER inserts)"
    assert layer.reference(0, 0) == [(23, 24, TER_INS, 0), (0, 11, TER_SHIFT, 0)]


def test_deleted_words_are_struck_where_they_are() -> None:
    out = "on the mat the cat sat down down down"
    ter, layer = edit_layer(["the cat sat on the mat ."], [out])
    path = ter.path(0)
    assert path.alignment.count("deletion") == 2
    ranges = layer.hypothesis(0)
    assert [r for r in ranges if r[2] == TER_DEL] == [(23, 27, TER_DEL, 0), (28, 32, TER_DEL, 0)]
    assert [r for r in ranges if r[2] == TER_SUB] == [(33, 37, TER_SUB, 0)]  # "down" for "."
    notes = {(a, b): text for a, b, text in layer.notes(0)}
    assert notes[(33, 37)] == "substituted: “down” for the reference's “.”"
    assert notes[(23, 27)] == "deleted: “down” (the reference has no word for it)"


def check_row(references: list[str], outputs: list[str]) -> Counter[str]:
    """Every system's marks against its TerRowDetail path, and their count against sacreBLEU's
    edit count against the reference it keeps."""
    ter, layer = edit_layer(references, outputs)
    tok = tercom_tokenizer()
    seen: Counter[str] = Counter()
    for s, output in enumerate(outputs):
        path = ter.path(s)
        best = layer.best(s)
        assert best == ter.row.best[s]
        expected = [translation_edit_rate(tok(output), tok.reference(r))[0] for r in references]
        assert best == expected.index(min(expected))
        ranges = layer.hypothesis(s)
        kinds = Counter(kind for _, _, kind, _ in ranges)
        seen.update(kinds)
        words = {k: {(a, b) for a, b, kind, _ in ranges if kind == k} for k in (TER_SUB, TER_DEL)}
        assert words[TER_SUB] == {e.output for e in path.edits if e.kind == "substitution"}
        assert words[TER_DEL] == {e.output for e in path.edits if e.kind == "deletion"}
        shifts = layer.shift_marks(s)
        gaps = layer.gap_marks(s)
        assert kinds[TER_DEST] == len(shifts) == len(path.moves)
        assert [m.to for m in shifts] == [m.to for m in path.moves]
        moved = sorted(span for move in path.moves for span in move.words)
        in_phrases = [
            w for w in path.output.spans if any(a <= w[0] < b for m in shifts for a, b in m.phrases)
        ]
        assert in_phrases == moved
        inserted = [e.reference for e in path.edits if e.kind == "insertion"]
        assert sorted(w for g in gaps for w in g.words) == sorted(inserted)
        # Every edit sacreBLEU counts is one mark: words substituted or deleted, shifts (one
        # each, whatever their length), and words to insert.
        marks = kinds[TER_SUB] + kinds[TER_DEL] + len(shifts) + sum(len(g.words) for g in gaps)
        assert marks == path.num_edits == min(expected)
        # The reference, as this system's path aligned it: its words to insert and its
        # substituted words.
        reference = layer.reference(best, s)
        ref_kinds = {
            k: {(a, b) for a, b, kind, _ in reference if kind == k} for k in (TER_SUB, TER_INS)
        }
        assert ref_kinds[TER_INS] == set(inserted)
        assert ref_kinds[TER_SUB] == {e.reference for e in path.edits if e.kind == "substitution"}
        # Every mark is explained in words.
        notes = layer.notes(s)
        for a, b, kind, _ in ranges:
            if kind in (TER_SUB, TER_DEL, TER_DEST, TER_GAP):
                assert any(x <= a and b <= y for x, y, _ in notes), (a, b, kind)
    return seen


@pytest.mark.skipif(not WMT.exists(), reason="shared/data/wmt22-de-en is not present")
def test_marks_are_the_path_and_sacrebleus_edit_count_on_wmt22() -> None:
    refs = [read_lines(WMT / "ref.txt"), read_lines(WMT / "ref2.txt")]
    systems = [read_lines(p) for p in sorted(WMT.glob("sys.*.txt"))]
    seen: Counter[str] = Counter()
    for i in ROWS:
        seen += check_row([r[i] for r in refs], [s[i] for s in systems])
    # The data exercise every kind of mark.
    assert all(seen[k] > 0 for k in (TER_SUB, TER_DEL, TER_SHIFT, TER_DEST, TER_GAP))


def test_without_a_system_the_reference_marks_words_no_path_aligned() -> None:
    ref = "a b c d e"
    ter, layer = edit_layer([ref], ["a b c", "a b d"])
    aligned = set()
    for s in range(2):
        aligned |= {e.reference for e in ter.row.paths[s][0].edits if e.output is not None}
    expected = {w for w in ter.row.references[0].spans if w not in aligned}
    assert {(a, b) for a, b, k, _ in layer.reference(0, None)} == expected == {(8, 9)}
