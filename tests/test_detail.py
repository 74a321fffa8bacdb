"""Row detail (core.scoring.detail) against sacrebleu, rouge-score and nltk on the same raw text.

Every expected number and alignment is computed here by the reference libraries (or restated
naively from the documented rules), never copied from our own output.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence

import pytest
import sacrebleu
from hypothesis import given, settings
from hypothesis import strategies as st
from nltk.translate import bleu_score as nltk_bleu
from rouge_score import rouge_scorer
from sacrebleu.metrics.bleu import BLEU

from matchlight.core.scoring.config import ScoringConfig
from matchlight.core.scoring.detail import Highlight, Highlights, RowDetail, RowDetailer, row_detail
from matchlight.core.text.types import Tokens
from tests.conftest import Dataset, dataset_params, rewrite_13a

# rouge-score 0.1.2 calls it ``lcs_ind``; older/newer versions use ``_lcs_ind``.
RS_LCS_IND = getattr(rouge_scorer, "_lcs_ind", None) or rouge_scorer.lcs_ind


@functools.cache
def _scorer(*types: str) -> rouge_scorer.RougeScorer:
    return rouge_scorer.RougeScorer(list(types))


@functools.cache
def _sacrebleu(tokenize: str, lowercase: bool) -> BLEU:
    return BLEU(tokenize=tokenize, lowercase=lowercase, effective_order=True)


def _sacre_tokens(config: ScoringConfig, line: str) -> list[str]:
    return _sacrebleu(config.tokenize, config.lowercase)._preprocess_segment(line).split()


def _rouge_text(line: str, separator: str | None) -> str:
    """What a rouge-score user feeds for our separator: sentences separated by newlines."""
    if separator is None or separator == "\n":
        return line
    return line.replace(separator, "\n")


def _rouge_words(line: str) -> list[str]:
    return _scorer("rougeL")._tokenizer.tokenize(line)


def _as_tuple(score: object) -> tuple[float, float, float]:
    return (score.precision, score.recall, score.fmeasure)  # type: ignore[attr-defined]


def _check_highlights(highlights: Highlights, tokens: Tokens, levels: Sequence[int]) -> None:
    """One highlight per token, in order, with the token's span and the given level."""
    assert len(highlights) == len(tokens) == len(levels)
    expected = tuple(
        Highlight(start=a, end=b, level=level, token=t)
        for t, ((a, b), level) in enumerate(zip(tokens.spans, levels, strict=True))
    )
    assert tuple(highlights) == expected
    assert highlights == expected
    assert list(highlights.levels) == list(levels)


def _check_bleu_spans(config: ScoringConfig, line: str, tokens: Tokens) -> None:
    """Every BLEU token is what the tokenizer makes of its span of the original line."""
    assert list(tokens.words) == _sacre_tokens(config, line)
    for word, (start, end) in zip(tokens.words, tokens.spans, strict=True):
        piece = line[start:end]
        if config.lowercase:
            piece = piece.lower()
        if config.tokenize == "13a":
            piece = rewrite_13a(piece)
        if config.lowercase:
            assert piece.replace("ς", "σ") == word.replace("ς", "σ")
        else:
            assert piece == word


def _check_rouge_spans(line: str, tokens: Tokens, separator: str | None) -> None:
    """Every ROUGE token is rouge-score's only token of its span; the tokens are rouge-score's."""
    assert list(tokens.words) == _rouge_words(_rouge_text(line, separator))
    for word, (start, end) in zip(tokens.words, tokens.spans, strict=True):
        assert _rouge_words(line[start:end]) == [word]


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
    assert len(detail.systems) == len(systems)
    assert len(detail.references) == len(references)
    sep = config.lsum_separator
    rouge_refs = [_rouge_text(r, sep) for r in references]
    ref_rouge_words = [_rouge_words(r) for r in rouge_refs]
    scorer = _scorer("rouge1", "rouge2", "rougeL")
    lsum = _scorer("rougeLsum")
    metric = _sacrebleu(config.tokenize, config.lowercase)

    for s, (name, text) in enumerate(systems):
        hyp = detail.systems[s]
        assert (hyp.system, hyp.text) == (name, text)
        _check_bleu_spans(config, text, hyp.bleu_tokens)
        _check_rouge_spans(text, hyp.rouge_tokens, sep)

        # BLEU: the sentence score and the clipped match counts are sacrebleu's.
        theirs = metric.sentence_score(text, list(references))
        if config.bleu_flavour == "sacrebleu":
            assert hyp.sentence_bleu == theirs.score
        assert hyp.bleu_score.score == theirs.score
        assert list(hyp.bleu.stats.matches) == theirs.counts
        assert [len(m) for m in hyp.bleu.hyp_matches] == theirs.counts
        _check_highlights(hyp.bleu_highlights, hyp.bleu_tokens, hyp.bleu.hyp_order)
        for n, starts in enumerate(hyp.bleu.hyp_matches, start=1):
            for start in starts:  # a matched n-gram lights its tokens at least at level n
                assert all(level >= n for level in hyp.bleu.hyp_order[start : start + n])

        # ROUGE: rouge-score's score_multi, the reference it picks, and Lsum per reference.
        rouge_hyp = _rouge_text(text, sep)
        per_ref = [scorer.score(r, rouge_hyp) for r in rouge_refs]
        best = scorer.score_multi(rouge_refs, rouge_hyp)
        assert set(hyp.rouge) == {"rouge1", "rouge2", "rougeL"}
        for rouge_type, score in hyp.rouge.items():
            assert _as_tuple(score) == tuple(best[rouge_type])
            fmeasures = [p[rouge_type].fmeasure for p in per_ref]
            assert hyp.rouge_ref[rouge_type] == fmeasures.index(max(fmeasures))
        for r, rdetail in enumerate(hyp.rouge_details):
            stats = rdetail.stats
            for rouge_type in ("rouge1", "rouge2", "rougeL"):
                expected = tuple(per_ref[r][rouge_type])
                assert _as_tuple(rouge_scorer_score_of(stats[rouge_type])) == expected
            expected_lsum = tuple(lsum.score(rouge_refs[r], rouge_hyp)["rougeLsum"])
            assert _as_tuple(rouge_scorer_score_of(stats["rougeLsum"])) == expected_lsum
            # The LCS is the one rouge-score's backtrack picks.
            assert [j for _, j in rdetail.lcs] == RS_LCS_IND(
                ref_rouge_words[r], list(hyp.rouge_tokens.words)
            )

        # LCS highlights: the hypothesis tokens of the LCS with the rougeL reference.
        chosen = hyp.rouge_ref["rougeL"]
        lcs_length = len(RS_LCS_IND(ref_rouge_words[chosen], list(hyp.rouge_tokens.words)))
        assert hyp.lcs_length == lcs_length
        assert sum(1 for h in hyp.lcs_highlights if h.level) == lcs_length
        in_lcs = {i for i, _ in hyp.rouge_details[chosen].lcs}
        levels = [1 if i in in_lcs else 0 for i in range(len(hyp.rouge_tokens))]
        _check_highlights(hyp.lcs_highlights, hyp.rouge_tokens, levels)
        assert hyp.bleu_links(0) == hyp.bleu.links[0]

    for r, ref in enumerate(detail.references):
        assert (ref.index, ref.text) == (r, references[r])
        _check_bleu_spans(config, references[r], ref.bleu_tokens)
        _check_rouge_spans(references[r], ref.rouge_tokens, sep)
        orders = [h.bleu.ref_orders[r] for h in detail.systems]
        assert len(ref.bleu_highlights) == len(ref.lcs_highlights) == len(systems)
        for s, hyp in enumerate(detail.systems):
            _check_highlights(ref.bleu_highlights[s], ref.bleu_tokens, orders[s])
            # The reference side of the LCS with this system: rouge-score's indices.
            lcs = RS_LCS_IND(ref_rouge_words[r], list(hyp.rouge_tokens.words))
            levels = [1 if j in set(lcs) else 0 for j in range(len(ref.rouge_tokens))]
            _check_highlights(ref.lcs_highlights[s], ref.rouge_tokens, levels)
        assert ref.matched_by == tuple(
            frozenset(s for s in range(len(systems)) if orders[s][t] > 0)
            for t in range(len(ref.bleu_tokens))
        )
        # missed: exactly the tokens that no system matched, at level 0.
        missed = [t for t, who in enumerate(ref.matched_by) if not who]
        assert [h.token for h in ref.missed] == missed
        assert ref.missed == tuple(
            Highlight(
                start=ref.bleu_tokens.spans[t][0], end=ref.bleu_tokens.spans[t][1], level=0, token=t
            )
            for t in missed
        )
        assert ref.missed_by_all == len(missed)
    return detail


def rouge_scorer_score_of(stats: object) -> object:
    """rouge-score's own arithmetic on our counts (precision, recall, then its fmeasure)."""
    overlap, hyp_count, ref_count = stats.overlap, stats.hyp_count, stats.ref_count  # type: ignore[attr-defined]
    precision = overlap / max(hyp_count, 1)
    recall = overlap / max(ref_count, 1)
    return rouge_scorer.scoring.Score(
        precision=precision,
        recall=recall,
        fmeasure=rouge_scorer.scoring.fmeasure(precision, recall),
    )


# --------------------------------------------------------------------------------------------
# small, explicit rows


def test_clipped_repeats_light_only_as_many_as_the_reference_has() -> None:
    hyp, ref = "the the the the the the", "the cat is on the mat"
    detail = check_row(ScoringConfig(), [ref], [("sys", hyp)])
    system = detail.systems[0]
    assert sacrebleu.sentence_bleu(hyp, [ref]).counts[0] == 2
    assert [h.level > 0 for h in system.bleu_highlights].count(True) == 2
    lit = [
        detail.references[0].text[h.start : h.end]
        for h in detail.references[0].bleu_highlights[0]
        if h.level
    ]
    assert lit == ["the", "the"]
    assert [h.token for h in detail.references[0].missed] == [1, 2, 3, 5]


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
    detail = check_row(ScoringConfig(), refs, systems)
    # A copy of a reference matches every token at the highest order (all tokens are 4-grams).
    assert {h.level for h in detail.systems[0].bleu_highlights} == {4}
    # Nobody matched "There"; everybody's highlights have one entry per token.
    assert detail.references[1].matched_by[0] == frozenset()
    assert detail.systems[2].bleu_highlights == ()


def test_empty_lines() -> None:
    check_row(ScoringConfig(), [""], [("sys", "")])
    check_row(ScoringConfig(), ["a b c"], [("sys", "")])
    check_row(ScoringConfig(), [""], [("sys", "a b c")])


@pytest.mark.parametrize(
    "config",
    [
        ScoringConfig(lowercase=True),
        ScoringConfig(tokenize="intl"),
        ScoringConfig(rouge_max_n=2, lsum_separator=None),
        ScoringConfig(lsum_separator="<n>"),
        ScoringConfig(smooth_method="floor", smooth_value=0.2),
    ],
    ids=["lowercase", "intl", "no-lsum-separator", "marker-separator", "floor"],
)
def test_other_settings(config: ScoringConfig) -> None:
    refs = ["İstanbul &amp; Ankara: THE cities. <n> They are big.", "Two cities, one country <n> x"]
    systems = [("a", "istanbul and ankara are the cities <n> big"), ("b", "Two cities.")]
    if config.smooth_method == "floor":
        detail = RowDetailer(config).row(segment=7, source="src", references=refs, systems=systems)
        theirs = BLEU(smooth_method="floor", smooth_value=0.2, effective_order=True)
        for (_, text), hyp in zip(systems, detail.systems, strict=True):
            assert hyp.sentence_bleu == theirs.sentence_score(text, refs).score
        return
    check_row(config, refs, systems)


def test_nltk_flavour_shows_nltks_sentence_bleu() -> None:
    config = ScoringConfig(bleu_flavour="nltk", nltk_smoothing="method1")
    refs = ["the cat is on the mat", "there is a cat on the mat"]
    hyp = "the cat sat on the mat"
    detail = check_row(config, refs, [("sys", hyp)])
    expected = nltk_bleu.sentence_bleu(
        [_sacre_tokens(config, r) for r in refs],
        _sacre_tokens(config, hyp),
        smoothing_function=nltk_bleu.SmoothingFunction().method1,
    )
    assert detail.systems[0].sentence_bleu == pytest.approx(100.0 * expected, abs=1e-9, rel=0)


def test_row_detail_equals_a_reused_detailer() -> None:
    config = ScoringConfig()
    detailer = RowDetailer(config)
    rows = [(["a b c d", "b c"], [("x", "a b c"), ("y", "d c b a")]), (["e f"], [("x", "f e")])]
    for refs, systems in rows:
        fresh = row_detail(config, segment=7, source="src", references=refs, systems=systems)
        again = detailer.row(segment=7, source="src", references=refs, systems=systems)
        assert fresh == again


def test_highlights_behave_like_a_tuple() -> None:
    tokens = Tokens(("a", "b", "c"), ((0, 1), (2, 3), (4, 5)))
    highlights = Highlights(tokens.spans, (1, 0, 2))
    expected = tuple(
        Highlight(start=a, end=b, level=level, token=t)
        for t, ((a, b), level) in enumerate(zip(tokens.spans, (1, 0, 2), strict=True))
    )
    assert len(highlights) == 3
    assert highlights[2] == expected[2] and highlights[-1] == expected[-1]
    assert highlights[1:] == expected[1:]
    assert list(highlights) == list(expected)
    assert highlights == expected and expected == highlights
    assert highlights == Highlights(tokens.spans, [1, 0, 2])
    assert hash(highlights) == hash(expected)
    assert expected[1] in highlights and highlights.index(expected[1]) == 1
    subset = Highlights(tokens.spans, (0, 0, 0), [2, 0])
    assert [h.token for h in subset] == [2, 0] and len(subset) == 2
    with pytest.raises(ValueError, match="levels"):
        Highlights(tokens.spans, (1,))


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
    config = ScoringConfig(lowercase=lowercase)
    check_row(config, refs, [(f"sys{s}", h) for s, h in enumerate(hyps)])


# --------------------------------------------------------------------------------------------
# real data


@pytest.mark.parametrize("dataset", dataset_params())
def test_real_rows_match_the_reference_libraries(dataset: Dataset) -> None:
    refs = [dataset.read(p) for p in dataset.refs]
    systems = [dataset.read(p) for p in dataset.systems]
    names = [p.name.removeprefix("sys.").removesuffix(".txt") for p in dataset.systems]
    config = ScoringConfig(lsum_separator=dataset.lsum_separator)
    detailer = RowDetailer(config)
    n = len(refs[0])
    count = 6 if "cnndm" in dataset.name else 25  # rouge-score is slow on long summaries
    for i in range(0, n, max(1, n // count))[:count]:
        row_refs = [r[i] for r in refs]
        row_systems = list(zip(names, (s[i] for s in systems), strict=True))
        detail = detailer.row(segment=7, source="src", references=row_refs, systems=row_systems)
        check_row(config, row_refs, row_systems, detail=detail)
