"""matchlight.core.metrics.ter (and its tokenizer, core.text.tercom) against sacreBLEU 2.6.0's
TER, on generated text and on the shared real datasets.

sacreBLEU is the oracle throughout: its tokenizer (``TercomTokenizer``), its edit count
(``lib_ter.translation_edit_rate``), its statistics (``TER._extract_corpus_statistics``), its
scores (``sentence_score``, ``corpus_score`` and the aggregation behind them), its signatures
and its paired tests. The edit path is ours: its edit count must be sacreBLEU's, and its steps
and spans are checked against the words they name.

sacreBLEU's TER is slow (seconds for one long segment), so the real datasets are sampled here,
except two whose lines are short, which run in full; ``tests/benchmarks/bench_ter.py
--verify`` checks every segment of every dataset and system.
"""

from __future__ import annotations

import itertools
import json
import os
import re
from collections.abc import Sequence
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sacrebleu.metrics import TER, lib_ter
from sacrebleu.metrics.lib_ter import translation_edit_rate
from sacrebleu.significance import PairedTest
from sacrebleu.tokenizers.tokenizer_ter import TercomTokenizer as SacreTercom

from matchlight.core.analysis.compare import difference_influence
from matchlight.core.analysis.significance import (
    paired_approximate_randomization,
    paired_bootstrap,
    table_statistics,
)
from matchlight.core.cli import main
from matchlight.core.metrics.base import ChunkText, mask_separator
from matchlight.core.metrics.registry import METRICS
from matchlight.core.metrics.ter import TerMetric
from matchlight.core.metrics.teralign import TerAlignment, ter_alignments, ter_chunk, ter_from_stats
from matchlight.core.metrics.teroptions import TerSettings, ter_signature
from matchlight.core.metrics.terpath import TerPath, ter_row
from matchlight.core.scoring.config import ScoringConfig
from matchlight.core.scoring.detail import row_detail
from matchlight.core.scoring.engine import score_corpus
from matchlight.core.text.corpus import corpus_text_from_lines
from matchlight.core.text.tercom import tercom_tokenizer
from matchlight.core.text.types import Tokens
from tests.conftest import DATASETS, SAMPLE, Dataset

OPTIONS = ("normalized", "no_punct", "asian_support", "case_sensitive")
#: Every combination of sacreBLEU's four TER options.
ALL_SETTINGS = [
    dict(zip(OPTIONS, values, strict=True)) for values in itertools.product(*[(False, True)] * 4)
]
DEFAULT = dict.fromkeys(OPTIONS, False)
settings_st = st.sampled_from(ALL_SETTINGS)


def options_id(options: dict[str, bool]) -> str:
    return "-".join(k for k in OPTIONS if options[k]) or "default"


@cache
def sacre(normalized: bool, no_punct: bool, asian_support: bool, case_sensitive: bool) -> TER:
    return TER(
        normalized=normalized,
        no_punct=no_punct,
        asian_support=asian_support,
        case_sensitive=case_sensitive,
    )


def sacre_for(options: dict[str, bool]) -> TER:
    return sacre(**options)


def ours(options: dict[str, bool]) -> TerSettings:
    return TerSettings(**options)


# Fragments that exercise every rule of the tokenizer: tercom's punctuation classes, possessives
# (also before a period, where the reference's second pass differs), digits around . , and -,
# XML entities (also half escaped), CJK ideographs, kana, CJK and full-width punctuation, case
# pairs whose lowercase is longer (İ) or depends on the context (Σ).
FRAGMENTS = (
    "the", "The", "cat", "sat", "a", "A", "on", "mat", "'s", "'S", "John's", "it's.", "3.5",
    "1,000", "3-4", "-", "e-mail", ".", ",", "?", "!", ":", ";", '"', "(", ")", "[x]", "{y}",
    "a/b", "@", "&quot;", "&amp;", "&lt;", "&gt;", "&amp;quot;", "&AMP;", "\n-", "猫", "在",
    "垫子上", "。", "、", "「", "」", "（", "）", "．", "，", "ｰ", "カタカナ", "ひらがな",
    "\u3200", "\u2e80", "\u31c0", "İ", "ΑΣ", "Σ", "ß", "naïve",
)  # fmt: skip
SEPARATORS = (" ", " ", " ", "", "  ", "\t", "\n", "\u3000")

fragment_lines = st.lists(
    st.tuples(st.sampled_from(FRAGMENTS), st.sampled_from(SEPARATORS)), max_size=16
).map(lambda parts: "".join(f + s for f, s in parts))
lines_st = st.one_of(
    fragment_lines,
    fragment_lines,
    fragment_lines,
    st.sampled_from(["", " ", "\t \u3000", "\n"]),
    st.text(alphabet="ab .,'s-0&;()", max_size=14),
)


# -- the tokenizer --------------------------------------------------------------------------------


def sacre_words(options: dict[str, bool], line: str, passes: int) -> list[str]:
    """sacreBLEU's words of a hypothesis (one pass) or a reference (two passes)."""
    tok = SacreTercom(
        normalized=options["normalized"],
        no_punct=options["no_punct"],
        asian_support=options["asian_support"],
        case_sensitive=options["case_sensitive"],
    )
    for _ in range(passes):
        line = tok(line.rstrip())
    return line.split()


_PUNCT = re.compile(r"[\.,\?:;!\"\(\)]")
_ASIAN_PUNCT = re.compile(
    r"[\u3001\u3002\u3008-\u3011\u3014-\u301f\uff61-\uff65\u30fb"
    r"\uff0e\uff0c\uff1f\uff1a\uff1b\uff01\uff02\uff08\uff09]"
)


def span_text(options: dict[str, bool], text: str) -> str:
    """What a word's span of the original line becomes: the rewrites and deletions of the
    options applied to it alone (written here from sacreBLEU's steps, not shared with core)."""
    if not options["case_sensitive"]:
        text = text.lower()
    if options["normalized"]:
        text = text.replace("\n-", "").replace("\n", " ")
        for old, new in (("&quot;", '"'), ("&amp;", "&"), ("&lt;", "<"), ("&gt;", ">")):
            text = text.replace(old, new)
    if options["no_punct"]:
        text = _PUNCT.sub("", text)
        if options["asian_support"]:
            text = _ASIAN_PUNCT.sub("", text)
    return text


def check_spans(options: dict[str, bool], line: str, tokens: Tokens) -> None:
    """Each word's span is a piece of ``line`` that becomes the word, and the spans are in
    order without overlap."""
    end = 0
    for word, (a, b) in zip(tokens.words, tokens.spans, strict=True):
        assert end <= a < b <= len(line)
        # casefold: a lowercased final sigma depends on the letters around it.
        assert span_text(options, line[a:b]).casefold() == word.casefold()
        end = b


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(line=lines_st, options=settings_st)
def test_tokenizer_words_and_spans_are_sacrebleus(line: str, options: dict[str, bool]) -> None:
    tok = tercom_tokenizer(**options)
    hyp = sacre_words(options, line, 1)
    ref = sacre_words(options, line, 2)
    assert tok(line) == hyp
    assert tok.reference(line) == ref
    assert tok.normalize(line) == " ".join(hyp)
    tokens = tok.tokenize(line)
    assert list(tokens.words) == hyp
    check_spans(options, line, tokens)
    tokens = tok.tokenize_reference(line)
    assert list(tokens.words) == ref
    check_spans(options, line, tokens)


def test_references_are_preprocessed_twice_as_sacrebleu_does() -> None:
    """tercom's possessive rule needs a space after ``'s``, which the first pass only makes
    when it sets a period apart: the second pass then splits the possessive."""
    line = "It is John's."
    options = DEFAULT | {"normalized": True}
    tok = tercom_tokenizer(**options)
    assert tok(line) == sacre_words(options, line, 1) == ["it", "is", "john's", "."]
    assert tok.reference(line) == sacre_words(options, line, 2)
    assert tok.reference(line) == ["it", "is", "john", "'s", "."]
    spans = tok.tokenize_reference(line).spans
    assert [line[a:b] for a, b in spans] == ["It", "is", "John", "'s", "."]
    # And sacreBLEU scores it so: the hypothesis "john's" against the reference "john 's".
    metric = sacre_for(options)
    assert metric.sentence_score(line, [line]).score > 0
    assert score_one(options, line, [line]) == metric.sentence_score(line, [line]).score


# -- the edit path ---------------------------------------------------------------------------------


def check_alignment(alignment: TerAlignment, hyp: Sequence[str], ref: Sequence[str]) -> None:
    """The path is a path: the shifts turn the output into ``order``, the steps walk the shifted
    output and the reference once each, matches are equal words and substitutions are not,
    and the edits add up to ``num_edits``."""
    order = list(range(len(hyp)))
    for shift in alignment.shifts:
        assert 1 <= shift.length <= 10
        assert tuple(order[shift.start : shift.start + shift.length]) == shift.words
        before = list(order)
        order = perform_shift(order, shift.start, shift.length, shift.target)
        assert sorted(order) == sorted(before) and order != before
    assert list(alignment.order) == order
    assert [h for _, h, _ in alignment.steps if h >= 0] == order
    assert [r for _, _, r in alignment.steps if r >= 0] == list(range(len(ref)))
    for kind, h, r in alignment.steps:
        if kind == "match":
            assert hyp[h] == ref[r]
        elif kind == "substitution":
            assert hyp[h] != ref[r]
        elif kind == "deletion":
            assert h >= 0 and r == -1
        else:
            assert kind == "insertion" and h == -1 and r >= 0
    edits = sum(kind != "match" for kind, _, _ in alignment.steps) + len(alignment.shifts)
    assert alignment.num_edits == edits
    assert alignment.ref_length == len(ref)


#: sacreBLEU's trace letters for the kinds of a step.
TRACE_LETTER = {"match": " ", "substitution": "s", "deletion": "d", "insertion": "i"}


def check_trace(alignment: TerAlignment, hyp: Sequence[str], ref: Sequence[str]) -> None:
    """After the path's shifts, sacreBLEU's own beam edit distance of the shifted output gives
    the path's distance and, letter for letter, its trace (the alignment the path reports)."""
    shifted = [hyp[h] for h in alignment.order]
    if not ref:
        assert alignment.num_edits == len(hyp)
        return
    distance, trace = lib_ter.BeamEditDistance(list(ref))(shifted)
    assert distance == alignment.num_edits - len(alignment.shifts)
    assert trace == "".join(TRACE_LETTER[kind] for kind, _, _ in alignment.steps)


def perform_shift(words: list[int], start: int, length: int, target: int) -> list[int]:
    """sacreBLEU's ``_perform_shift``, written out again."""
    phrase = words[start : start + length]
    if target < start:
        return words[:target] + phrase + words[target:start] + words[start + length :]
    if target > start + length:
        return words[:start] + words[start + length : target] + phrase + words[target:]
    middle = words[start + length : length + target]
    return words[:start] + middle + phrase + words[length + target :]


def word_lists(vocabulary: int, longest: int) -> st.SearchStrategy[list[str]]:
    return st.lists(st.integers(0, vocabulary).map(str), max_size=longest)


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), vocabulary=st.sampled_from([1, 3, 6, 30]))
def test_edit_count_is_sacrebleus_on_generated_words(data: st.DataObject, vocabulary: int) -> None:
    """Few distinct words make many shift candidates; lines past 25 words leave the beam."""
    longest = data.draw(st.sampled_from([8, 30, 60]))
    pairs = data.draw(
        st.lists(
            st.tuples(word_lists(vocabulary, longest), word_lists(vocabulary, longest)),
            min_size=1,
            max_size=6,
        )
    )
    found = ter_alignments(pairs)
    for (hyp, ref), alignment in zip(pairs, found, strict=True):
        assert alignment.num_edits == translation_edit_rate(hyp, ref)[0]
        check_alignment(alignment, hyp, ref)
        check_trace(alignment, hyp, ref)


# Lengths far apart widen the beam (ratio / 2 above 25); long repetitive lines reach the
# limit of 1,000 shift candidates; an empty side has no search at all.
SHAPES = [
    ([], []),
    (["a"], []),
    ([], ["a", "b"]),
    (["x"] * 3, [str(i % 4) for i in range(180)]),
    ([str(i % 4) for i in range(150)], ["1", "2"]),
    ([str(i % 3) for i in range(70)], [str((i * 7) % 3) for i in range(65)]),
    ([str(i % 5) for i in range(90)], [str((i + 2) % 5) for i in range(110)]),
    (list("abcdefghijkl"), list("ghijklabcdef")),
]


@pytest.mark.parametrize(("hyp", "ref"), SHAPES, ids=range(len(SHAPES)))
def test_edit_count_is_sacrebleus_on_extreme_shapes(hyp: list[str], ref: list[str]) -> None:
    (alignment,) = ter_alignments([(hyp, ref)])
    assert alignment.num_edits == translation_edit_rate(hyp, ref)[0]
    check_alignment(alignment, hyp, ref)
    check_trace(alignment, hyp, ref)


@pytest.mark.parametrize("n", [1, 2, 7, 24, 25, 60])
def test_sides_without_a_common_word_are_sacrebleus(n: int) -> None:
    """No word in common: no shift, and (below the beam's width) a path written directly."""
    hyp = [f"h{k % 3}" for k in range(n)]
    pairs = [(hyp, [f"r{k % 4}" for k in range(m)]) for m in range(1, 32)]
    for (hyp, ref), alignment in zip(pairs, ter_alignments(pairs), strict=True):
        assert alignment.num_edits == translation_edit_rate(hyp, ref)[0]
        check_alignment(alignment, hyp, ref)
        check_trace(alignment, hyp, ref)


def test_the_limit_of_shift_candidates_is_sacrebleus(monkeypatch: pytest.MonkeyPatch) -> None:
    """Long lines of a few words reach sacreBLEU's limit of 1,000 candidates, after which it
    stops without applying the round that reached it."""
    checked: list[int] = []
    shift = lib_ter._shift

    def counting(*args: Any) -> Any:
        found = shift(*args)
        checked.append(found[2])
        return found

    monkeypatch.setattr(lib_ter, "_shift", counting)
    rng = np.random.default_rng(7)
    pairs = [
        ([str(w) for w in rng.integers(0, 3, 42)], [str(w) for w in rng.integers(0, 3, 40)])
        for _ in range(2)
    ]
    for hyp, ref in pairs:
        checked.clear()
        (alignment,) = ter_alignments([(hyp, ref)])
        assert alignment.num_edits == lib_ter.translation_edit_rate(hyp, ref)[0]
        assert checked[-1] >= 1000
        check_alignment(alignment, hyp, ref)


def test_identical_pairs_are_searched_once_and_answered_each() -> None:
    pairs = [(["a", "b", "c"], ["c", "b", "a"])] * 3 + [(["a"], ["b"])]
    found = ter_alignments(pairs)
    assert [a.num_edits for a in found] == [translation_edit_rate(h, r)[0] for h, r in pairs]
    with pytest.raises(TypeError, match="sequences of words"):
        ter_alignments([("a b", "a b")])


def test_a_shift_is_found_and_located() -> None:
    """A phrase moved to the end: one shift, every word matched, spans of the original text."""
    hyp, ref = "Yesterday I saw him there", "I saw him there yesterday"
    row = ter_row(tercom_tokenizer(), [ref], [hyp])
    path = row.path(0)
    assert path.num_edits == translation_edit_rate(hyp.lower().split(), ref.lower().split())[0]
    assert path.num_edits == 1
    (move,) = path.moves
    assert [hyp[a:b] for a, b in move.words] == ["Yesterday"]
    assert move.before is None and move.to == len(hyp)
    assert [ref[a:b] for a, b in move.reference] == ["yesterday"]
    assert [e.kind for e in path.edits] == ["match"] * 5
    assert [e.shifted for e in path.edits] == [False] * 4 + [True]
    assert row.scores[0] == TER().sentence_score(hyp, [ref]).score


def check_path(options: dict[str, bool], path: TerPath, output: str, reference: str) -> None:
    """The spans of the path are the words it names, in the original lines."""
    check_alignment(path.alignment, path.output.words, path.reference.words)
    check_trace(path.alignment, path.output.words, path.reference.words)
    assert len(path.edits) == len(path.alignment.steps)
    moved = {w for shift in path.alignment.shifts for w in shift.words}
    for edit, (kind, h, r) in zip(path.edits, path.alignment.steps, strict=True):
        assert edit.kind == kind and edit.shifted == (h in moved)
        if h >= 0:
            assert edit.output is not None
            a, b = edit.output
            assert span_text(options, output[a:b]).casefold() == path.output.words[h].casefold()
        else:
            assert edit.output is None
        if r >= 0:
            assert edit.reference is not None
            a, b = edit.reference
            want = path.reference.words[r].casefold()
            assert span_text(options, reference[a:b]).casefold() == want
        else:
            assert edit.reference is None
    assert len(path.moves) == len(path.alignment.shifts)
    for move, shift in zip(path.moves, path.alignment.shifts, strict=True):
        assert move.words == tuple(path.output.spans[w] for w in shift.words)


# -- sentence TER ------------------------------------------------------------------------------


def score_one(options: dict[str, bool], hyp: str, refs: Sequence[str]) -> float:
    """Sentence TER through the metric's chunk scorer."""
    scorer = TerMetric().chunk_scorer(ours(options))
    chunk = scorer(ChunkText([[r] for r in refs], [[hyp]]))
    return float(chunk.scores[0, 0, 0])


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    hyp=lines_st,
    refs=st.lists(lines_st, min_size=1, max_size=3),
    options=settings_st,
)
def test_sentence_ter_and_its_path_are_sacrebleus(
    hyp: str, refs: list[str], options: dict[str, bool]
) -> None:
    metric = sacre_for(options)
    expected = metric.sentence_score(hyp, refs)
    assert score_one(options, hyp, refs) == pytest.approx(expected.score, abs=1e-9)
    row = ter_row(tercom_tokenizer(**options), refs, [hyp])
    assert row.scores[0] == pytest.approx(expected.score, abs=1e-9)
    path = row.path(0)
    assert path.num_edits == expected.num_edits
    for r, ref in enumerate(refs):
        check_path(options, row.paths[0][r], hyp, ref)
        hyp_words = sacre_words(options, hyp, 1)
        ref_words = sacre_words(options, ref, 2)
        assert row.paths[0][r].num_edits == translation_edit_rate(hyp_words, ref_words)[0]


@pytest.mark.parametrize(
    ("hyp", "refs"),
    [("", [""]), ("a b", [""]), ("", ["a b"]), ("a b", ["", ""]), ("", ["", "a"]), ("a", ["a"])],
)
def test_empty_sides_score_as_sacrebleu(hyp: str, refs: list[str]) -> None:
    expected = TER().sentence_score(hyp, refs).score
    assert score_one(DEFAULT, hyp, refs) == expected
    assert ter_row(tercom_tokenizer(), refs, [hyp]).scores[0] == expected


# -- corpus TER and sacreBLEU's own statistics ---------------------------------------------------


def sacre_stats(metric: TER, hyps: Sequence[str], refs: Sequence[Sequence[str]]) -> list[Any]:
    return metric._extract_corpus_statistics(list(hyps), [list(r) for r in refs])


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    rows=st.lists(st.tuples(lines_st, lines_st, lines_st), min_size=1, max_size=8),
    n_refs=st.sampled_from([1, 2]),
    options=settings_st,
)
def test_corpus_ter_of_the_statistics_is_sacrebleus(
    rows: list[tuple[str, str, str]], n_refs: int, options: dict[str, bool]
) -> None:
    hyps = [r[0] for r in rows]
    refs = [[r[1] for r in rows], [r[2] for r in rows]][:n_refs]
    metric = sacre_for(options)
    stats = sacre_stats(metric, hyps, refs)
    found = ter_chunk(refs, [hyps], ours(options).tokenizer())
    assert found.edits[0].tolist() == [s[0] for s in stats]
    assert (found.ref_words / n_refs).tolist() == [s[1] for s in stats]
    table = score_table(options, refs, [hyps])
    corpus = table.corpus(0)
    assert corpus.values["ter"] == pytest.approx(metric.corpus_score(hyps, refs).score, abs=1e-9)
    assert table.scores[0, :, 0].tolist() == [
        metric._compute_score_from_stats(s).score for s in stats
    ]


def score_table(
    options: dict[str, bool],
    refs: Sequence[Sequence[str]],
    systems: Sequence[Sequence[str]],
    separator: str | None = "\n",
) -> Any:
    config = ScoringConfig(metrics=("ter",), sentence_separator=separator).with_settings(
        "ter", **options
    )
    text = corpus_text_from_lines(
        references=refs, systems=systems, names=[f"s{i}" for i in range(len(systems))]
    )
    return score_corpus(text, config)


# -- the score function of summed statistics (bootstrap resamples) -----------------------------


@settings(max_examples=150, deadline=None)
@given(
    segments=st.lists(
        st.tuples(st.integers(0, 60), st.lists(st.integers(0, 40), min_size=2, max_size=2)),
        min_size=1,
        max_size=12,
    ),
    n_refs=st.sampled_from([1, 2]),
)
def test_score_of_sums_is_sacrebleus_value_and_dtype(
    segments: list[tuple[int, list[int]]], n_refs: int
) -> None:
    """On integer sums (corpus figures, AR trials) and on float32 sums (sacreBLEU's bootstrap
    resamples), including sums with no reference word at all."""
    edits = np.array([e for e, _ in segments], np.int64)
    lengths = np.array([w[:n_refs] for _, w in segments], np.int64)
    stats = {
        "edits": edits,
        "ref_words": lengths.sum(axis=1),
        "refs": np.full(len(segments), n_refs, np.int64),
    }
    table, score = TerMetric().additive(TerSettings(), stats)
    # sacreBLEU's statistics of the same segments: edits and the average reference length.
    theirs = np.array([[e, sum(w[:n_refs]) / n_refs] for e, w in segments])
    metric = TER()
    subsets = [np.arange(len(segments)), np.arange(len(segments))[::2], np.array([0])]
    mine = np.stack([table[rows].sum(axis=0) for rows in subsets])
    expected = [
        metric._compute_score_from_stats(list(theirs[rows].sum(axis=0))).score for rows in subsets
    ]
    assert score(mine).tolist() == expected
    as32 = np.stack([table[rows].astype(np.float32).sum(axis=0) for rows in subsets])
    expected32 = np.array(
        [
            metric._compute_score_from_stats(theirs[rows].astype(np.float32).sum(axis=0)).score
            for rows in subsets
        ]
    )
    got32 = score(as32)
    assert got32.dtype == expected32.dtype
    assert got32.tolist() == expected32.tolist()


def test_score_function_refuses_the_wrong_width() -> None:
    _, score = TerMetric().additive(
        TerSettings(), {"edits": np.zeros(1), "ref_words": np.zeros(1), "refs": np.ones(1)}
    )
    with pytest.raises(ValueError, match=r"\(m, 2\)"):
        score(np.zeros((3, 3)))
    assert ter_from_stats(0, 0, 1) == 0.0 and ter_from_stats(3, 0, 1) == 100.0


# -- signature -------------------------------------------------------------------------------------


@pytest.mark.parametrize("options", ALL_SETTINGS, ids=options_id)
@pytest.mark.parametrize("nrefs", [1, 2])
def test_signature_is_sacrebleus(options: dict[str, bool], nrefs: int) -> None:
    metric = TER(**options)
    metric.corpus_score(["a b"], [["a c"]] * nrefs)
    assert ter_signature(nrefs=nrefs, **options) == str(metric.get_signature())
    assert ter_signature(nrefs=nrefs, short=True, **options) == metric.get_signature().format(
        short=True
    )
    assert TerMetric().signature(ours(options), nrefs=nrefs) == str(metric.get_signature())


def test_variable_reference_count_and_bootstrap_fields() -> None:
    metric = TER()
    metric.corpus_score(["a", "b"], [["a", "c"], ["b", None]])
    assert ter_signature(nrefs=-1) == str(metric.get_signature())
    assert ter_signature(nrefs=1, n_bootstrap=1000, seed=12345).startswith(
        "nrefs:1|bs:1000|seed:12345|case:lc"
    )
    with pytest.raises(ValueError, match="nrefs"):
        ter_signature(nrefs=0)


# -- the shared real datasets --------------------------------------------------------------------

#: Datasets whose lines are short enough for sacreBLEU to score every row here.
FULL = {"wmt22-en-zh", "compare-mt-sum-en"}
#: Rows sampled from the others (spread over the file); fewer of the long summaries, on which
#: sacreBLEU spends about 0.2 s per row and system.
SAMPLED_ROWS = 24
FEWER_ROWS = {"cnndm-pointer-gen": 3, "cnndm-pointer-gen/sent_marked": 2}
#: Option combinations also checked on real rows (all sixteen are checked on generated text).
REAL_SETTINGS = [
    DEFAULT | {"normalized": True},
    DEFAULT | {"no_punct": True, "case_sensitive": True},
    DEFAULT | {"normalized": True, "asian_support": True},
    DEFAULT | {"no_punct": True, "asian_support": True},
    dict.fromkeys(OPTIONS, True),
]
needs_data = pytest.mark.skipif(not DATASETS, reason="shared/data is not present")


def read_rows(
    dataset: Dataset, n_refs: int, rows: Sequence[int] | None
) -> tuple[list[list[str]], list[list[str]], list[str]]:
    """References and systems (every system) of ``rows``, sentence separators blanked as the
    scorer blanks them, so that sacreBLEU reads the same sentences."""
    sep = dataset.lsum_separator

    def pick(lines: list[str]) -> list[str]:
        chosen = lines if rows is None else [lines[k] for k in rows]
        return [mask_separator(line, sep) for line in chosen]

    refs = [pick(dataset.read(p)) for p in dataset.refs[:n_refs]]
    systems = [pick(dataset.read(p)) for p in dataset.systems]
    return refs, systems, [p.stem.removeprefix("sys.") for p in dataset.systems]


def spread(n: int, count: int) -> list[int]:
    return sorted({round(i * (n - 1) / max(1, count - 1)) for i in range(count)})


def check_dataset(
    dataset: Dataset,
    n_refs: int,
    rows: Sequence[int] | None,
    options: dict[str, bool],
    systems_checked: int | None = None,
) -> None:
    refs, systems, names = read_rows(dataset, n_refs, rows)
    systems, names = systems[:systems_checked], names[:systems_checked]
    table = score_table(options, refs, systems, dataset.lsum_separator)
    stats = table.stats["ter"]
    metric = sacre_for(options)
    for s, hyps in enumerate(systems):
        expected = sacre_stats(metric, hyps, refs)
        # The edit counts, the sentence scores and the corpus score: sacreBLEU's.
        assert stats["edits"][s].tolist() == [e for e, _ in expected]
        sentence = [metric._compute_score_from_stats(x).score for x in expected]
        assert table.scores[s, :, 0].tolist() == pytest.approx(sentence, abs=1e-9)
        corpus = metric._aggregate_and_compute(expected).score
        assert table.corpus(s).values["ter"] == pytest.approx(corpus, abs=1e-9)
    signature = str(metric.get_signature())
    assert table.signatures()["ter"] == signature


@needs_data
@pytest.mark.parametrize("dataset", DATASETS, ids=lambda d: d.name)
def test_real_data_is_sacrebleus(dataset: Dataset) -> None:
    """Every system of every dataset, one and (where present) two references: in full for the
    datasets of short lines, else on rows spread over the file; and sacreBLEU's public
    ``corpus_score`` on the first system."""
    n = len(dataset.read(dataset.refs[0]))
    full = dataset.name in FULL
    rows = None if full else spread(n, FEWER_ROWS.get(dataset.name, SAMPLED_ROWS))
    for n_refs in range(1, len(dataset.refs) + 1):
        check_dataset(dataset, n_refs, rows, DEFAULT)
    if full:
        refs, systems, _ = read_rows(dataset, len(dataset.refs), rows)
        table = score_table(DEFAULT, refs, systems[:1], dataset.lsum_separator)
        assert table.corpus(0).values["ter"] == pytest.approx(
            TER().corpus_score(systems[0], refs).score, abs=1e-9
        )


@needs_data
@pytest.mark.parametrize("options", REAL_SETTINGS, ids=options_id)
def test_real_data_under_other_settings(options: dict[str, bool]) -> None:
    """Other options on a few rows of every dataset but the long summaries (first system,
    every reference)."""
    for dataset in DATASETS:
        if dataset.name not in FEWER_ROWS:
            n = len(dataset.read(dataset.refs[0]))
            check_dataset(dataset, len(dataset.refs), spread(n, 5), options, systems_checked=1)


@needs_data
@pytest.mark.parametrize("dataset", DATASETS, ids=lambda d: d.name)
def test_paths_of_real_rows(dataset: Dataset) -> None:
    """The row detail of a few rows: every system's path against every reference has
    sacreBLEU's edit count, spans that are its words, and the layer paints them."""
    n = len(dataset.read(dataset.refs[0]))
    rows = spread(n, 1 if dataset.name in FEWER_ROWS else 4)
    refs, systems, names = read_rows(dataset, len(dataset.refs), rows)
    options = DEFAULT
    tok = tercom_tokenizer()
    config = ScoringConfig(metrics=("ter",))
    for k in range(len(rows)):
        row_refs = [column[k] for column in refs]
        outputs = [column[k] for column in systems]
        row = ter_row(tok, row_refs, outputs)
        detail = row_detail(
            config,
            segment=k,
            source=None,
            references=row_refs,
            systems=list(zip(names, outputs, strict=True)),
        )
        layer = detail.layer("ter")
        assert layer is not None
        for s, output in enumerate(outputs):
            for r, ref in enumerate(row_refs):
                path = row.paths[s][r]
                expected = translation_edit_rate(tok(output), tok.reference(ref))[0]
                assert path.num_edits == expected
                check_path(options, path, output, ref)
                check_layer(layer, path, s, r)
            assert detail.values(s)["ter"] == TER().sentence_score(output, row_refs).score


def check_layer(layer: Any, path: TerPath, system: int, reference: int) -> None:
    matched = {(h, r) for kind, h, r in path.alignment.steps if kind == "match"}
    out, ref = path.output.spans, path.reference.spans
    assert sorted(layer.links(system, reference)) == sorted((out[h], ref[r]) for h, r in matched)
    ranges = layer.reference(reference, system)
    assert [(a, b) for a, b, _, _ in ranges] == list(ref)
    assert {(a, b) for a, b, kind, _ in ranges if kind == "match"} == {ref[r] for _, r in matched}


# -- through the app's machinery -----------------------------------------------------------------

REFS = [SAMPLE / "ref.en.txt", SAMPLE / "ref2.en.txt"]
SYSTEMS = sorted(SAMPLE.glob("sys.*.txt"))


def _lines(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").splitlines()


def test_ter_is_registered_and_lower_is_better() -> None:
    metric = METRICS["ter"]
    assert isinstance(metric, TerMetric)
    (column,) = metric.columns(TerSettings())
    assert (column.key, column.better, column.low, column.high, column.decimals) == (
        "ter",
        "lower",
        0.0,
        None,
        1,
    )
    assert column.is_better(20.0, 30.0) and not column.is_better(30.0, 20.0)
    flags = [spec.cli for spec in metric.settings]
    assert flags == [
        "--ter-normalized",
        "--ter-no-punct",
        "--ter-case-sensitive",
        "--ter-asian-support",
    ]


def test_score_command_with_ter_equals_sacrebleu(tmp_path: Path) -> None:
    out_csv, out_json = tmp_path / "s.csv", tmp_path / "s.json"
    args = [a for r in REFS for a in ("--ref", str(r))]
    args += [a for s in SYSTEMS for a in ("--hyp", str(s))]
    args += ["--metrics", "bleu,ter", "--ter-normalized", "--ter-no-punct"]
    assert main([*args, "--csv", str(out_csv), "--json", str(out_json)]) == 0
    refs = [_lines(r) for r in REFS]
    metric = TER(normalized=True, no_punct=True)
    payload = json.loads(out_json.read_text(encoding="utf-8"))
    for system in SYSTEMS:
        entry = payload["systems"][system.stem.removeprefix("sys.")]
        corpus = metric.corpus_score(_lines(system), refs)
        assert entry["ter"] == pytest.approx(corpus.score, abs=1e-9)
        assert entry["ter_num_edits"] == corpus.num_edits
        assert entry["ter_ref_length"] == pytest.approx(corpus.ref_length, abs=1e-9)
        assert entry["ter_signature"] == str(metric.get_signature())
    csv_text = out_csv.read_text(encoding="utf-8")
    header = csv_text.splitlines()[0].split(",")
    assert "ter" in header


@needs_data
@pytest.mark.parametrize("test", ["bs", "ar"])
def test_paired_tests_are_sacrebleus_with_two_references(test: str) -> None:
    """The table's TER statistics through the paired tests equal sacreBLEU's ``PairedTest``
    on the same rows (two references: the average length is a half)."""
    (dataset,) = [d for d in DATASETS if d.name == "wmt22-en-zh"]
    rows = list(range(0, 600, 3))
    refs, systems, names = read_rows(dataset, 2, rows)
    systems, names = systems[:3], names[:3]
    table = score_table(DEFAULT, refs, systems)
    stats, score = table_statistics(table, "ter")
    n_samples, seed = (300, 12345) if test == "bs" else (800, 31337)
    run = paired_bootstrap if test == "bs" else paired_approximate_randomization
    mine = run(stats, score, names=names, n_samples=n_samples, seed=seed)
    old = os.environ.get("SACREBLEU_SEED")
    os.environ["SACREBLEU_SEED"] = str(seed)
    try:
        paired = PairedTest(
            list(zip(names, systems, strict=True)),
            {"ter": TER()},
            refs,
            test_type=test,
            n_samples=n_samples,
        )
        _, scores = paired()
    finally:
        if old is None:
            del os.environ["SACREBLEU_SEED"]
        else:
            os.environ["SACREBLEU_SEED"] = old
    theirs = scores["TER"]
    for ours_row, their in zip(mine.systems, theirs, strict=True):
        assert ours_row.score == pytest.approx(their.score, abs=1e-9)
        if their.p_value is not None:
            assert ours_row.p_value == their.p_value
        if test == "bs":
            assert ours_row.mean == their.mean and ours_row.ci == their.ci


def test_influence_counts_a_higher_ter_against_its_system() -> None:
    """What moves the corpus score: with TER a row where A makes more edits helps B."""
    refs = [["the cat sat on the mat", "a b c"]]
    systems = [["the cat sat on the mat", "x y z"], ["the dog sat on a mat", "a b c"]]
    table = score_table(DEFAULT, refs, systems)
    stats, score = table_statistics(table, "ter")
    influence = difference_influence(
        stats_a=stats[0], stats_b=stats[1], score=score, better="lower"
    )
    assert influence.score_a > influence.score_b  # A has more edits overall
    assert influence.helps_a(1).tolist() == [0]  # A is perfect on row 0
    assert influence.helps_b(1).tolist() == [1]  # B is perfect on row 1
    raw = difference_influence(stats_a=stats[0], stats_b=stats[1], score=score)
    assert influence.effect.tolist() == (-raw.effect).tolist()
