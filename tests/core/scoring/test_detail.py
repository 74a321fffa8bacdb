"""Row detail (core.scoring.detail and each metric's row detail) against sacrebleu, rouge-score
and nltk on the same raw text.

Every expected number and alignment is computed here by the reference libraries (or restated
naively from the documented rules), never copied from our own output.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import cast

import pytest
import sacrebleu
from hypothesis import given, settings
from hypothesis import strategies as st
from nltk.translate import bleu_score as nltk_bleu
from rouge_score import rouge_scorer
from sacrebleu.metrics.bleu import BLEU

from matchlight.core.metrics.base import DETAIL_TOKEN_LIMIT
from matchlight.core.metrics.bleudetail import BleuRowDetail
from matchlight.core.metrics.bleuoptions import BleuSettings
from matchlight.core.metrics.nltk_bleu import NltkRowDetail
from matchlight.core.metrics.rouge import RougeRowDetail
from matchlight.core.scoring.config import ScoringConfig
from matchlight.core.scoring.detail import RowDetail, RowDetailer, row_detail
from matchlight.core.text.types import Tokens
from tests.conftest import Dataset, dataset_params, rewrite_13a
from tests.refs import rouge_lcs_ind, rouge_tokens, sacrebleu_tokens

ALL = ("bleu", "rouge", "nltk_bleu")
# NLTK warns on every sentence without matches of some order; the values are what is checked.
pytestmark = pytest.mark.filterwarnings("ignore:\\s*The hypothesis contains 0 counts")


@functools.cache
def _scorer(*types: str) -> rouge_scorer.RougeScorer:
    return rouge_scorer.RougeScorer(list(types))


@functools.cache
def _sacrebleu(tokenize: str, lowercase: bool) -> BLEU:
    return BLEU(tokenize=tokenize, lowercase=lowercase, effective_order=True)


def _blank(line: str, separator: str | None) -> str:
    """What BLEU reads of a marked line: the sentences joined by spaces."""
    if separator is None or separator == "\n":
        return line
    return line.replace(separator, " " * len(separator))


def _bleu_settings(config: ScoringConfig) -> BleuSettings:
    return cast(BleuSettings, config.settings("bleu"))


def _sacre_tokens(tokenize: str, lowercase: bool, line: str) -> list[str]:
    return sacrebleu_tokens(_sacrebleu(tokenize, lowercase), line)


def _rouge_text(line: str, separator: str | None) -> str:
    """What a rouge-score user feeds for our separator: sentences separated by newlines."""
    if separator is None or separator == "\n":
        return line
    return line.replace(separator, "\n")


def _rouge_words(line: str) -> list[str]:
    return rouge_tokens(line)


def _as_tuple(score: object) -> tuple[float, float, float]:
    return (score.precision, score.recall, score.fmeasure)  # type: ignore[attr-defined]


def _check_bleu_spans(config: ScoringConfig, line: str, tokens: Tokens) -> None:
    """Every BLEU token is what the tokenizer makes of its span of the original line."""
    b = _bleu_settings(config)
    blanked = _blank(line, config.sentence_separator)
    assert list(tokens.words) == _sacre_tokens(b.tokenize, b.lowercase, blanked)
    for word, (start, end) in zip(tokens.words, tokens.spans, strict=True):
        piece = line[start:end]
        if b.lowercase:
            piece = piece.lower()
        if b.tokenize == "13a":
            piece = rewrite_13a(piece)
        if b.lowercase:
            assert piece.replace("ς", "σ") == word.replace("ς", "σ")
        else:
            assert piece == word


def _check_rouge_spans(line: str, tokens: Tokens, separator: str | None) -> None:
    """Every ROUGE token is rouge-score's only token of its span; the tokens are rouge-score's."""
    assert list(tokens.words) == _rouge_words(_rouge_text(line, separator))
    for word, (start, end) in zip(tokens.words, tokens.spans, strict=True):
        assert _rouge_words(line[start:end]) == [word]


def _expected_ranges(tokens: Tokens, levels: Sequence[int]) -> list[tuple[int, int, str, int]]:
    return [
        (a, b, "match", level) if level else (a, b, "unmatched", 0)
        for (a, b), level in zip(tokens.spans, levels, strict=True)
    ]


def _check_bleu(config: ScoringConfig, detail: RowDetail) -> None:
    bleu = cast(BleuRowDetail, detail.metrics["bleu"])
    matches = bleu.matches
    layer = detail.layer("bleu")
    assert layer is not None and layer.key == "bleu"
    b = _bleu_settings(config)
    metric = _sacrebleu(b.tokenize, b.lowercase)
    sep = config.sentence_separator
    refs = [_blank(r, sep) for r in detail.references]
    for s, text in enumerate(detail.outputs):
        tokens = matches.outputs[s]
        _check_bleu_spans(config, text, tokens)
        theirs = metric.sentence_score(_blank(text, sep), refs)
        assert bleu.values(s)["bleu"] == theirs.score
        assert bleu.score(s).score == theirs.score
        found = matches.details[s]
        assert list(found.stats.matches) == theirs.counts
        assert [len(m) for m in found.hyp_matches] == theirs.counts
        assert layer.hypothesis(s) == _expected_ranges(tokens, found.hyp_order)
        for n, starts in enumerate(found.hyp_matches, start=1):
            for start in starts:  # a matched n-gram lights its tokens at least at level n
                assert all(level >= n for level in found.hyp_order[start : start + n])
        for r in range(len(detail.references)):
            ref_tokens = matches.references[r]
            assert layer.links(s, r) == [
                (tokens.spans[i], ref_tokens.spans[j]) for i, j in found.links[r]
            ]
    for r, text in enumerate(detail.references):
        tokens = matches.references[r]
        _check_bleu_spans(config, text, tokens)
        orders = [d.ref_orders[r] for d in matches.details]
        for s in range(len(detail.outputs)):
            expected = []
            for t, (a, b_) in enumerate(tokens.spans):
                if orders[s][t]:
                    expected.append((a, b_, "match", orders[s][t]))
                elif not any(o[t] for o in orders):
                    expected.append((a, b_, "missed", 0))
                else:
                    expected.append((a, b_, "unmatched", 0))
            assert layer.reference(r, s) == expected
        # Any system: the highest order any system matched; missed where nobody did.
        expected = []
        for t, (a, b_) in enumerate(tokens.spans):
            best = max((o[t] for o in orders), default=0)
            expected.append((a, b_, "match", best) if best else (a, b_, "missed", 0))
        assert layer.reference(r, None) == expected


def _check_rouge(config: ScoringConfig, detail: RowDetail) -> None:
    rouge = cast(RougeRowDetail, detail.metrics["rouge"])
    layer = detail.layer("lcs")
    assert layer is not None
    sep = config.sentence_separator
    rouge_refs = [_rouge_text(r, sep) for r in detail.references]
    ref_words = [_rouge_words(r) for r in rouge_refs]
    scorer = _scorer("rouge1", "rouge2", "rougeL")
    lsum = _scorer("rougeLsum")
    for r, text in enumerate(detail.references):
        _check_rouge_spans(text, rouge.references[r], sep)
    for s, text in enumerate(detail.outputs):
        tokens = rouge.outputs[s]
        _check_rouge_spans(text, tokens, sep)
        rouge_hyp = _rouge_text(text, sep)
        per_ref = [scorer.score(r, rouge_hyp) for r in rouge_refs]
        best = scorer.score_multi(rouge_refs, rouge_hyp)
        chosen = rouge.chosen(s)
        values = rouge.values(s)
        for rouge_type in ("rouge1", "rouge2", "rougeL"):
            score, ref = chosen[rouge_type]
            assert _as_tuple(score) == tuple(best[rouge_type])
            fmeasures = [p[rouge_type].fmeasure for p in per_ref]
            assert ref == fmeasures.index(max(fmeasures))
            assert values[f"{rouge_type}_f"] == 100 * best[rouge_type].fmeasure
        lsum_best = lsum.score_multi(rouge_refs, rouge_hyp)["rougeLsum"]
        assert _as_tuple(chosen["rougeLsum"][0]) == tuple(lsum_best)
        hyp_words = list(tokens.words)
        for r, pair in enumerate(rouge.pairs(s)):
            # The LCS is the one rouge-score's backtrack picks.
            assert [j for _, j in pair.lcs] == rouge_lcs_ind(ref_words[r], hyp_words)
            lcs = set(rouge_lcs_ind(ref_words[r], hyp_words))
            assert layer.reference(r, s) == [
                (*rouge.references[r].spans[j], "lcs", 1) for j in sorted(lcs)
            ]
        # The output's LCS tokens with the reference ROUGE-L picked.
        picked = chosen["rougeL"][1]
        hyp_side = [i for i, _ in rouge.pairs(s)[picked].lcs]
        assert len(hyp_side) == len(rouge_lcs_ind(ref_words[picked], hyp_words))
        assert layer.hypothesis(s) == [(*tokens.spans[i], "lcs", 1) for i in hyp_side]
        assert rouge.lcs_length(s) == len(hyp_side)


def _check_nltk(config: ScoringConfig, detail: RowDetail) -> None:
    nltk = cast(NltkRowDetail, detail.metrics["nltk_bleu"])
    s_ = config.settings("nltk_bleu")
    method = getattr(nltk_bleu.SmoothingFunction(), s_.smoothing)  # type: ignore[attr-defined]
    order = s_.max_order  # type: ignore[attr-defined]

    def tokens(line: str) -> list[str]:
        blanked = _blank(line, config.sentence_separator)
        return _sacre_tokens(s_.tokenize, s_.lowercase, blanked)  # type: ignore[attr-defined]

    refs = [tokens(r) for r in detail.references]
    for s, text in enumerate(detail.outputs):
        expected = nltk_bleu.sentence_bleu(
            refs, tokens(text), weights=(1 / order,) * order, smoothing_function=method
        )
        assert nltk.values(s)["nltk_bleu"] == pytest.approx(100.0 * expected, abs=1e-9, rel=0)


def check_row(
    config: ScoringConfig,
    references: Sequence[str],
    systems: Sequence[tuple[str, str]],
    *,
    detail: RowDetail | None = None,
) -> RowDetail:
    """Check everything in the detail of one row against the reference libraries."""
    if detail is None:
        detail = RowDetailer(config).row(
            segment=7, source="src", references=references, systems=systems
        )
    assert detail.segment == 7 and detail.source == "src"
    assert detail.systems == tuple(name for name, _ in systems)
    assert detail.outputs == tuple(text for _, text in systems)
    assert detail.references == tuple(references)
    assert tuple(detail.metrics) == config.metrics and not detail.notes
    if "bleu" in config.metrics:
        _check_bleu(config, detail)
    if "rouge" in config.metrics:
        _check_rouge(config, detail)
    if "nltk_bleu" in config.metrics:
        _check_nltk(config, detail)
    # The detail's sentence values are exactly the table's (same settings, same row).
    for s in range(len(systems)):
        values = detail.values(s)
        assert set(values) == set(config.column_keys())
    layers = [layer.key for layer in detail.layers()]
    assert [mode.key for mode in config.highlight_modes()] == layers
    return detail


# --------------------------------------------------------------------------------------------
# small, explicit rows


def test_clipped_repeats_light_only_as_many_as_the_reference_has() -> None:
    hyp, ref = "the the the the the the", "the cat is on the mat"
    detail = check_row(ScoringConfig(), [ref], [("sys", hyp)])
    layer = detail.layer("bleu")
    assert layer is not None
    assert sacrebleu.sentence_bleu(hyp, [ref]).counts[0] == 2
    assert [kind for _, _, kind, _ in layer.hypothesis(0)].count("match") == 2
    lit = [ref[a:b] for a, b, kind, _ in layer.reference(0, 0) if kind == "match"]
    assert lit == ["the", "the"]
    missed = [ref[a:b] for a, b, kind, _ in layer.reference(0, None) if kind == "missed"]
    assert missed == ["cat", "is", "on", "mat"]


def test_several_references_and_systems() -> None:
    refs = [
        "The cat is on the mat.",
        "There is a cat on the mat &amp; a dog.",
        "A cat sat on a mat\nand then it slept.",
    ]
    systems = [
        ("copy", "The cat is on the mat."),
        ("other", "a dog sat on the mat\nthe cat slept"),
        ("empty", ""),
        ("none", "completely unrelated words here"),
    ]
    config = ScoringConfig(metrics=ALL)
    detail = check_row(config, refs, systems)
    layer = detail.layer("bleu")
    assert layer is not None
    # A copy of a reference matches every token at the highest order (all tokens are 4-grams).
    assert {level for *_, level in layer.hypothesis(0)} == {4}
    # Nobody matched "There".
    assert layer.reference(1, None)[0][2] == "missed"
    assert layer.hypothesis(2) == []


def test_empty_lines() -> None:
    config = ScoringConfig(metrics=ALL)
    check_row(config, [""], [("sys", "")])
    check_row(config, ["a b c"], [("sys", "")])
    check_row(config, [""], [("sys", "a b c")])


@pytest.mark.parametrize(
    "config",
    [
        ScoringConfig().with_settings("bleu", lowercase=True),
        ScoringConfig().with_settings("bleu", tokenize="intl"),
        ScoringConfig(sentence_separator=None),
        ScoringConfig(metrics=ALL, sentence_separator="<n>"),
        ScoringConfig(metrics=ALL).with_settings("nltk_bleu", tokenize="13a", smoothing="method1"),
    ],
    ids=["lowercase", "intl", "no-lsum-separator", "marker-separator", "nltk-13a"],
)
def test_other_settings(config: ScoringConfig) -> None:
    refs = ["İstanbul &amp; Ankara: THE cities. <n> They are big.", "Two cities, one country <n> x"]
    systems = [("a", "istanbul and ankara are the cities <n> big"), ("b", "Two cities.")]
    check_row(config, refs, systems)


def test_markers_are_never_words_or_highlighted() -> None:
    """With the <n> separator, BLEU reads the sentences joined by spaces: the marker is neither
    counted nor shaded, and BLEU equals sacreBLEU on the text without markers."""
    config = ScoringConfig(sentence_separator="<n>")
    ref = "the cat sat . <n> it was on the mat ."
    hyp = "the cat sat . <n> it sat on the mat ."
    detail = check_row(config, [ref], [("sys", hyp)])
    without = sacrebleu.sentence_bleu(hyp.replace(" <n>", ""), [ref.replace(" <n>", "")]).score
    assert detail.values(0)["bleu"] == without
    layer = detail.layer("bleu")
    assert layer is not None
    shaded = {hyp[a:b] for a, b, _, _ in layer.hypothesis(0)}
    assert "<n>" not in shaded and "n" not in shaded and "<" not in shaded


def test_floor_smoothing() -> None:
    config = ScoringConfig().with_settings("bleu", smooth_method="floor", smooth_value=0.2)
    refs = ["the cat is on the mat", "a cat on a mat"]
    systems = [("a", "the cat on mat"), ("b", "dogs everywhere")]
    detail = RowDetailer(config).row(segment=7, source="src", references=refs, systems=systems)
    theirs = BLEU(smooth_method="floor", smooth_value=0.2, effective_order=True)
    for s, (_, text) in enumerate(systems):
        assert detail.values(s)["bleu"] == theirs.sentence_score(text, refs).score


def test_nltk_bleu_shows_nltks_sentence_bleu_with_whitespace_tokens() -> None:
    config = ScoringConfig(metrics=("nltk_bleu",)).with_settings("nltk_bleu", smoothing="method1")
    refs = ["the cat is on the mat.", "there is a cat on the mat"]
    hyp = "the cat sat on the mat."
    detail = check_row(config, refs, [("sys", hyp)])
    expected = nltk_bleu.sentence_bleu(
        [r.split() for r in refs],
        hyp.split(),
        smoothing_function=nltk_bleu.SmoothingFunction().method1,
    )
    assert detail.values(0)["nltk_bleu"] == pytest.approx(100.0 * expected, abs=1e-9, rel=0)


def test_row_detail_equals_a_reused_detailer() -> None:
    config = ScoringConfig(metrics=ALL)
    detailer = RowDetailer(config)
    rows = [(["a b c d", "b c"], [("x", "a b c"), ("y", "d c b a")]), (["e f"], [("x", "f e")])]
    for refs, systems in rows:
        fresh = row_detail(config, segment=7, source="src", references=refs, systems=systems)
        again = detailer.row(segment=7, source="src", references=refs, systems=systems)
        for s in range(len(systems)):
            assert fresh.values(s) == again.values(s)
            for a, b in zip(fresh.layers(), again.layers(), strict=True):
                assert a.hypothesis(s) == b.hypothesis(s)


def test_a_line_too_long_to_highlight_is_a_note_not_a_failure() -> None:
    long_line = " ".join(f"w{i}" for i in range(DETAIL_TOKEN_LIMIT + 1))
    detail = RowDetailer(ScoringConfig()).row(
        segment=0, source=None, references=["w1 w2"], systems=[("sys", long_line)]
    )
    assert set(detail.notes) == {"bleu", "rouge"}
    assert f"{DETAIL_TOKEN_LIMIT + 1:,} tokens" in detail.notes["bleu"]
    assert detail.layers() == () and detail.layer("bleu") is None


def test_breakdown_blocks_come_from_every_metric() -> None:
    config = ScoringConfig(metrics=ALL)
    detail = row_detail(
        config, segment=0, source=None, references=["the cat sat"], systems=[("a", "the cat")]
    )
    titles = ["".join(r.text for r in block.title) for block in detail.breakdown(0, ["ref"])]
    assert titles[0] == "BLEU"
    assert titles[1].startswith("ROUGE")
    assert titles[2].startswith("NLTK BLEU")
    text = detail.breakdown(0, ["ref"])[0].text()
    assert "1-gram  2/2" in text and "BLEU = BP × exp(mean log p) =" in text


# --------------------------------------------------------------------------------------------
# generated rows

WORDS = [
    "the", "The", "cat", "sat", "on", "mat", "a", "dog", ",", ".", "'s", "don't", "3.5",
    "10,000", "&amp;", "&quot;hi&quot;", "(it)", "e-mail", "Ünïcode", "İzmir", "ΟΔΟΣ", "猫",
]  # fmt: skip
LINE = st.lists(
    st.tuples(st.sampled_from(WORDS), st.sampled_from([" ", " ", " ", "  ", "\n", ""])),
    max_size=14,
).map(lambda parts: "".join(w + sep for w, sep in parts).rstrip(" "))


@settings(max_examples=120, deadline=None)
@given(
    refs=st.lists(LINE, min_size=1, max_size=3),
    hyps=st.lists(LINE, min_size=1, max_size=3),
    lowercase=st.booleans(),
)
def test_generated_rows_match_the_reference_libraries(
    refs: list[str], hyps: list[str], lowercase: bool
) -> None:
    config = ScoringConfig(metrics=ALL).with_settings("bleu", lowercase=lowercase)
    check_row(config, refs, [(f"sys{s}", h) for s, h in enumerate(hyps)])


# --------------------------------------------------------------------------------------------
# real data


@pytest.mark.parametrize("dataset", dataset_params())
def test_real_rows_match_the_reference_libraries(dataset: Dataset) -> None:
    refs = [dataset.read(p) for p in dataset.refs]
    systems = [dataset.read(p) for p in dataset.systems]
    names = [p.name.removeprefix("sys.").removesuffix(".txt") for p in dataset.systems]
    config = ScoringConfig(metrics=ALL, sentence_separator=dataset.lsum_separator)
    detailer = RowDetailer(config)
    n = len(refs[0])
    count = 6 if "cnndm" in dataset.name else 25  # rouge-score is slow on long summaries
    for i in range(0, n, max(1, n // count))[:count]:
        row_refs = [r[i] for r in refs]
        row_systems = list(zip(names, (s[i] for s in systems), strict=True))
        detail = detailer.row(segment=7, source="src", references=row_refs, systems=row_systems)
        check_row(config, row_refs, row_systems, detail=detail)
