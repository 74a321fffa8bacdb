"""The chunk-vectorised highlight detail (core.scoring.batchdetail) against the row detail
(core.scoring.detail).

``RowDetailer`` is itself checked against sacrebleu, rouge-score and nltk in test_detail.py;
here every row of a batch must carry exactly its highlights: the same token spans, the same
BLEU levels on the hypothesis and on every reference per system, the same "missed by every
system" tokens, the same LCS tokens on both sides and the same ROUGE-L reference.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from matchlight.core.scoring import batchdetail
from matchlight.core.scoring.batchdetail import (
    BatchDetail,
    BatchDetailer,
    ReferenceRow,
    RowHighlights,
    SystemRow,
)
from matchlight.core.scoring.config import ScoringConfig
from matchlight.core.scoring.detail import RowDetail, RowDetailer
from tests.conftest import DATASETS, Dataset, dataset_params

CONFIGS: dict[str, ScoringConfig] = {
    "default": ScoringConfig(),
    "intl": ScoringConfig(tokenize="intl"),
    "char": ScoringConfig(tokenize="char"),
    "zh": ScoringConfig(tokenize="zh"),
    "none-lowercase": ScoringConfig(tokenize="none", lowercase=True),
    "lowercase-order2": ScoringConfig(lowercase=True, max_order=2),
    "rouge-stem": ScoringConfig(rouge_stem=True),
    "unicode-rouge": ScoringConfig(rouge_tokenizer="unicode"),
    "unicode-rouge-stem": ScoringConfig(rouge_tokenizer="unicode", rouge_stem=True),
    "marker-separator": ScoringConfig(lsum_separator="<n>", max_order=3),
    "nltk-no-separator": ScoringConfig(bleu_flavour="nltk", lsum_separator=None),
}


@functools.cache
def _detailers(config: ScoringConfig) -> tuple[RowDetailer, BatchDetailer]:
    return RowDetailer(config), BatchDetailer(config)


def expected_row(detail: RowDetail) -> RowHighlights:
    """What ``RowDetailer`` highlights on one row, in the batch's plain-list form."""
    systems = tuple(
        SystemRow(
            list(h.bleu_highlights.spans),
            list(h.bleu_highlights.levels),
            list(h.lcs_highlights.spans),
            list(h.lcs_highlights.levels),
            h.rouge_ref["rougeL"],
        )
        for h in detail.systems
    )
    references = tuple(
        ReferenceRow(
            list(r.bleu_tokens.spans),
            [list(h.levels) for h in r.bleu_highlights],
            [h.token for h in r.missed],
            list(r.rouge_tokens.spans),
            [list(h.levels) for h in r.lcs_highlights],
        )
        for r in detail.references
    )
    return RowHighlights(detail.segment, references, systems)


def check_batch(
    config: ScoringConfig,
    references: Sequence[Sequence[str]],
    systems: Sequence[Sequence[str]],
    start: int = 0,
) -> BatchDetail:
    """Every row of the batch equals ``RowDetailer``'s highlights of that row."""
    rows, batch = _detailers(config)
    detail = batch.detail_lines(references, systems, start)
    n = len(references[0])
    assert (detail.start, detail.stop, detail.n_rows) == (start, start + n, n)
    names = [f"sys{s}" for s in range(len(systems))]
    for k in range(n):
        row = rows.row(
            segment=start + k,
            source=None,
            references=[column[k] for column in references],
            systems=list(zip(names, (column[k] for column in systems), strict=True)),
        )
        assert detail.row(start + k) == expected_row(row), (
            [column[k] for column in references],
            [column[k] for column in systems],
        )
    return detail


def _read(dataset: Dataset, rows: int | None) -> tuple[list[list[str]], list[list[str]]]:
    refs = [dataset.read(p)[:rows] for p in dataset.refs]
    systems = [dataset.read(p)[:rows] for p in dataset.systems]
    return refs, systems


# --------------------------------------------------------------------------------------------
# small, explicit rows


def test_clipping_lights_only_as_many_repeats_as_the_reference_has() -> None:
    hyp, ref = "the the the the the the", "the cat is on the mat"
    detail = check_batch(ScoringConfig(), [[ref]], [[hyp]])
    row = detail.row(0)
    assert row.systems[0].bleu_levels == [1, 1, 0, 0, 0, 0]
    reference = row.references[0]
    assert [
        ref[a:b]
        for (a, b), level in zip(reference.bleu_spans, reference.bleu_levels[0], strict=True)
        if level
    ] == ["the", "the"]
    assert reference.missed == [1, 2, 3, 5]


def test_known_row_by_hand() -> None:
    refs = [["The cat sat on the mat."], ["A cat was on a mat &amp; slept."]]
    systems = [["the cat sat on a mat &amp; slept"], ["dogs bark"], [""]]
    detail = check_batch(ScoringConfig(), refs, systems, start=41)
    row = detail.row(41)
    first = row.systems[0]
    text = systems[0][0]
    assert [text[a:b] for a, b in first.bleu_spans] == [
        "the", "cat", "sat", "on", "a", "mat", "&amp;", "slept",
    ]  # fmt: skip
    # "cat sat on" is a 3-gram of the first reference, "on a mat &amp; slept" holds 4-grams of
    # the second one, "the" is a unigram of the first.
    assert first.bleu_levels == [1, 3, 3, 4, 4, 4, 4, 4]
    assert row.systems[1].bleu_levels == [0, 0] and row.systems[2].bleu_spans == []
    first_ref, second_ref = row.references
    assert first_ref.bleu_levels == [[0, 3, 3, 3, 1, 1, 0], [0] * 7, [0] * 7]
    assert first_ref.missed == [0, 6]  # "The" and "."
    assert second_ref.bleu_levels[0] == [0, 1, 0, 4, 4, 4, 4, 4, 0]
    # ROUGE-L: the LCS with the second reference (6 of 8 tokens both ways) beats the first's
    # (5 of 8 and 5 of 6), so the hypothesis shows that one; each reference shows its own.
    assert first.lcs_reference == 1
    assert first.lcs_levels == [0, 1, 0, 1, 1, 1, 1, 1]
    assert first_ref.lcs_levels[0] == [1, 1, 1, 1, 0, 1]
    assert second_ref.lcs_levels == [[0, 1, 0, 1, 1, 1, 1, 1], [0] * 8, [0] * 8]
    with pytest.raises(IndexError, match="not in this chunk"):
        detail.row(40)


def test_empty_lines_and_empty_chunks() -> None:
    check_batch(ScoringConfig(), [["", "a b c", ""]], [["", "", "a b c"]])
    empty = BatchDetailer(ScoringConfig()).detail_lines([[]], [[], []], start=5)
    assert empty.n_rows == 0 and empty.hyp_bleu.start.size == 0
    with pytest.raises(ValueError, match="same number of rows"):
        BatchDetailer(ScoringConfig()).detail_lines([["a"]], [["a", "b"]])


def test_lines_that_take_the_per_line_path() -> None:
    refs = [
        ["İstanbul &quot;big&quot; <n> city", "a <skipped> b-\nc", "ΟΔΟΣ σ Straße", "x\ny z"],
        ["istanbul is big", "a b c", "οδος straße", "x y z"],
    ]
    systems = [
        ["İstanbul big city", "a b c &lt;d&gt;", "Straße ΟΔΟΣ", "x y\nz"],
        ["&amp;&amp; İİ", "<SKIPPED> a", "猫 cat 猫", "\u3000x\u2028y"],
    ]
    for name in ("default", "lowercase-order2", "unicode-rouge", "marker-separator", "zh"):
        check_batch(CONFIGS[name], refs, systems)


def test_references_longer_than_one_machine_word() -> None:
    words = [f"w{i % 23}" for i in range(150)]
    ref = " ".join(words)
    hyps = [" ".join(words[::2]), " ".join(reversed(words)), " ".join(words[:64]), ref]
    check_batch(ScoringConfig(), [[ref] * 4, [" ".join(words[:64])] * 4], [hyps])
    check_batch(ScoringConfig(), [[h for h in hyps]], [[ref] * 4, hyps])
    # A hypothesis with more tokens found in its (short) reference than the step tables take.
    long_hyp = " ".join(words * 3)
    check_batch(ScoringConfig(), [[" ".join(words[:40]), ref]], [[long_hyp, long_hyp]])


def test_pieces_and_the_per_pair_lcs_agree_with_the_row_detail(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(batchdetail, "_PIECE_ROWS", 7)
    monkeypatch.setattr(batchdetail, "_MAX_STEPS", 3)
    refs = [["a b c d e f", "x y", "", "a a a b"] * 5, ["b c d", "y x", "z", "a b"] * 5]
    systems = [["a b c d e f g", "x x y y", "z z", "b a a a"] * 5, ["f e d c b a"] * 20]
    detail = check_batch(ScoringConfig(), refs, systems, start=100)
    assert detail.n_rows == 20 and detail.lcs_reference.shape == (20, 2)


def test_every_whitespace_character_is_in_the_table() -> None:
    spaces = [c for c in range(0x110000) if chr(c).isspace()]
    assert max(spaces) <= batchdetail._LAST_SPACE
    assert spaces == [c for c in range(batchdetail._LAST_SPACE + 1) if batchdetail._IS_SPACE[c]]


# --------------------------------------------------------------------------------------------
# generated rows

WORDS = [
    "the", "The", "THE", "cat", "sat", "on", "mat", "a", "dog", ",", ".", "'s", "don't", "3.5",
    "10,000", "&amp;", "&quot;hi&quot;", "&lt;b&gt;", "<skipped>", "(it)", "e-mail", "Ünïcode",
    "İzmir", "İ", "ΟΔΟΣ", "Straße", "猫", "ねこ", "고양이", "x1", "running", "ran", "<n>",
]  # fmt: skip
SEPARATORS = [" ", " ", " ", "  ", "\t", "\n", "\u3000", "\xa0", ""]
LINE = st.one_of(
    st.lists(
        st.tuples(st.sampled_from(WORDS), st.sampled_from(SEPARATORS)),
        max_size=14,
    ).map(lambda parts: "".join(w + sep for w, sep in parts)),
    # Long lines of repeated words (references beyond 64 tokens, many equal n-grams).
    st.lists(st.sampled_from(["the", "cat", "mat", "on", "a", "."]), min_size=60, max_size=160).map(
        " ".join
    ),
    st.text(max_size=40),
)


@settings(max_examples=150, deadline=None)
@given(
    data=st.data(),
    n_refs=st.integers(1, 2),
    n_systems=st.sampled_from([1, 3]),
    rows=st.integers(1, 4),
    config=st.sampled_from(sorted(CONFIGS)),
)
def test_generated_rows_equal_the_row_detail(
    data: st.DataObject, n_refs: int, n_systems: int, rows: int, config: str
) -> None:
    column = st.lists(LINE, min_size=rows, max_size=rows)
    refs = [data.draw(column) for _ in range(n_refs)]
    systems = [data.draw(column) for _ in range(n_systems)]
    check_batch(CONFIGS[config], refs, systems, start=data.draw(st.integers(0, 10)))


# --------------------------------------------------------------------------------------------
# real data


@pytest.mark.parametrize("config", sorted(CONFIGS))
@pytest.mark.parametrize("dataset", dataset_params())
def test_real_rows_equal_the_row_detail(dataset: Dataset, config: str) -> None:
    rows = 40 if "cnndm" in dataset.name else 120
    refs, systems = _read(dataset, rows)
    # Three systems (the first one again where a dataset has only two).
    systems = (systems * 2)[:3]
    settings = CONFIGS[config]
    if config == "default":
        settings = ScoringConfig(lsum_separator=dataset.lsum_separator)
    check_batch(settings, refs, systems)


@pytest.mark.parametrize("shape", [(1, 1), (1, 3), (2, 1), (2, 3)], ids=lambda s: f"{s[0]}r{s[1]}s")
@pytest.mark.parametrize("dataset", dataset_params())
def test_real_rows_with_one_or_two_references_and_one_or_three_systems(
    dataset: Dataset, shape: tuple[int, int]
) -> None:
    refs, systems = _read(dataset, 60 if "cnndm" in dataset.name else 250)
    n_refs, n_systems = shape
    # A dataset with one reference borrows its last system as a second one.
    refs = (refs + systems[-1:])[:n_refs]
    systems = (systems * 3)[:n_systems]
    check_batch(ScoringConfig(lsum_separator=dataset.lsum_separator), refs, systems, start=3)


@pytest.mark.skipif(
    not any(d.name == "wmt22-de-en" for d in DATASETS), reason="wmt22-de-en is not present"
)
def test_one_whole_dataset_two_references_five_systems() -> None:
    (dataset,) = [d for d in DATASETS if d.name == "wmt22-de-en"]
    refs, systems = _read(dataset, None)
    detail = check_batch(ScoringConfig(), refs, systems)
    assert detail.n_rows == 1984 and detail.n_refs == 2 and detail.n_systems == 5
