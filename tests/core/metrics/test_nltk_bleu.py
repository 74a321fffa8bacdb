"""matchlight.core.metrics.nltk_bleu against nltk.translate.bleu_score, on generated tokens and on
real data."""

from __future__ import annotations

import math
import warnings
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from nltk.translate import bleu_score as nltk_bleu

from matchlight.core.metrics.nltk_bleu import NltkStats, nltk_bleu_from_stats
from matchlight.core.metrics.nltkoptions import NLTK_SMOOTHING
from tests.conftest import SHARED_DATA
from tests.oracles import (
    nltk_corpus_bleu,
    nltk_sentence_bleu,
    nltk_stats,
    nltk_stats_from_refs,
    prepare_refs,
)

DATA = SHARED_DATA
REL = 1e-12

# NLTK raises these where we raise a ValueError with a message (method6 on short input).
NLTK_FAILURES = (AssertionError, IndexError)


def words(text: str) -> list[str]:
    return text.split()


def theirs(function: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """Call NLTK without its "0 counts of n-gram overlaps" warnings."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return function(*args, **kwargs)


def ours(function: Callable[..., Any], **kwargs: Any) -> Any:
    """Call our implementation, failing on any warning it might emit."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        return function(**kwargs)


def assert_close(got: float | list[float], expected: float | list[float]) -> None:
    if isinstance(expected, list):
        assert isinstance(got, list)
        assert len(got) == len(expected)
        for g, e in zip(got, expected, strict=True):
            assert_close(g, e)
        return
    assert isinstance(got, float)
    assert math.isclose(got, expected, rel_tol=REL, abs_tol=0.0), (got, expected)


def smoothing_function(name: str, epsilon: float, alpha: float, k: float) -> Callable[..., Any]:
    return getattr(nltk_bleu.SmoothingFunction(epsilon=epsilon, alpha=alpha, k=k), name)


# --------------------------------------------------------------------------- documented values

DOC_REF = words(
    "It is the guiding principle which guarantees the military forces always being under "
    "the command of the Party"
)
DOC_HYP = words(
    "It is a guide to action which ensures that the military always obeys the commands of the Party"
)


def test_nltk_documented_values() -> None:
    # The numbers come from NLTK's documentation, not from this code.
    assert ours(nltk_sentence_bleu, hypothesis=DOC_HYP, references=[DOC_REF]) == (
        3.6718992240469637e-78
    )
    assert ours(
        nltk_sentence_bleu,
        hypothesis=DOC_HYP,
        references=[DOC_REF],
        weights=(1 / 3, 1 / 3, 1 / 3),
    ) == pytest.approx(0.20140621167558334, rel=REL, abs=0)
    assert ours(
        nltk_sentence_bleu, hypothesis=DOC_HYP, references=[DOC_REF], smoothing="method2"
    ) == pytest.approx(0.18353610946423723, rel=REL, abs=0)


# --------------------------------------------------------------------------- generated data

VOCAB = ("a", "b", "c", "d", "e", "f")
token_lists = st.lists(st.sampled_from(VOCAB), max_size=12)
single_weights = st.lists(st.floats(min_value=0.01, max_value=2.0), min_size=1, max_size=7).map(
    tuple
)
weights_st = st.one_of(
    st.just((0.25, 0.25, 0.25, 0.25)),  # the default, which auto_reweigh looks for
    single_weights,
    st.lists(single_weights, min_size=1, max_size=3),  # several weight tuples at once
)
smoothing_st = st.fixed_dictionaries(
    {
        "smoothing": st.sampled_from(NLTK_SMOOTHING),
        "epsilon": st.sampled_from([0.1, 0.01, 1]),
        "alpha": st.sampled_from([5, 1, 0.5]),
        "k": st.sampled_from([5, 2, 0.7]),
    }
)


def compare(nltk_call: Callable[[], Any], our_call: Callable[[], Any]) -> None:
    try:
        expected = nltk_call()
    except NLTK_FAILURES:
        with pytest.raises(ValueError, match="method6"):
            our_call()
        return
    assert_close(our_call(), expected)


@settings(max_examples=200, deadline=None)
@given(
    hyp=token_lists,
    refs=st.lists(token_lists, min_size=1, max_size=3),
    weights=weights_st,
    smooth=smoothing_st,
    auto_reweigh=st.booleans(),
)
def test_sentence_matches_nltk(
    hyp: list[str],
    refs: list[list[str]],
    weights: Any,
    smooth: dict[str, Any],
    auto_reweigh: bool,
) -> None:
    fn = smoothing_function(smooth["smoothing"], smooth["epsilon"], smooth["alpha"], smooth["k"])
    compare(
        lambda: theirs(
            nltk_bleu.sentence_bleu,
            refs,
            hyp,
            weights=weights,
            smoothing_function=fn,
            auto_reweigh=auto_reweigh,
        ),
        lambda: ours(
            nltk_sentence_bleu,
            hypothesis=hyp,
            references=refs,
            weights=weights,
            auto_reweigh=auto_reweigh,
            **smooth,
        ),
    )


@settings(max_examples=150, deadline=None)
@given(
    corpus=st.lists(
        st.tuples(token_lists, st.lists(token_lists, min_size=1, max_size=3)),
        min_size=1,
        max_size=6,
    ),
    weights=weights_st,
    smooth=smoothing_st,
    auto_reweigh=st.booleans(),
)
def test_corpus_matches_nltk(
    corpus: list[tuple[list[str], list[list[str]]]],
    weights: Any,
    smooth: dict[str, Any],
    auto_reweigh: bool,
) -> None:
    hyps = [hyp for hyp, _ in corpus]
    refs = [r for _, r in corpus]
    fn = smoothing_function(smooth["smoothing"], smooth["epsilon"], smooth["alpha"], smooth["k"])
    compare(
        lambda: theirs(
            nltk_bleu.corpus_bleu,
            refs,
            hyps,
            weights=weights,
            smoothing_function=fn,
            auto_reweigh=auto_reweigh,
        ),
        lambda: ours(
            nltk_corpus_bleu,
            hypotheses=hyps,
            list_of_references=refs,
            weights=weights,
            auto_reweigh=auto_reweigh,
            **smooth,
        ),
    )


@settings(max_examples=150, deadline=None)
@given(
    corpus=st.lists(
        st.tuples(token_lists, st.lists(token_lists, min_size=1, max_size=3)),
        min_size=1,
        max_size=6,
    ),
    smoothing=st.sampled_from(NLTK_SMOOTHING),
    order=st.integers(min_value=1, max_value=6),
)
def test_summed_statistics_give_corpus_bleu(
    corpus: list[tuple[list[str], list[list[str]]]], smoothing: str, order: int
) -> None:
    # Statistics prepared once and summed in any grouping reproduce NLTK's corpus_bleu,
    # including methods 5-7, which look at the corpus' last segment.
    weights = (1 / order,) * order
    stats = [nltk_stats(hyp, refs, order) for hyp, refs in corpus]
    prepared = [
        nltk_stats_from_refs(hyp, prepare_refs(refs, max(order, 5)), order) for hyp, refs in corpus
    ]
    assert stats == prepared
    left = sum(stats, NltkStats.zero(order))
    middle = len(stats) // 2
    right = sum(stats[:middle], NltkStats.zero(order)) + (
        sum(stats[middle:], NltkStats.zero(order)) + NltkStats.zero(order)
    )
    assert left == right == sum(stats)
    compare(
        lambda: theirs(
            nltk_bleu.corpus_bleu,
            [refs for _, refs in corpus],
            [hyp for hyp, _ in corpus],
            weights=weights,
            smoothing_function=getattr(nltk_bleu.SmoothingFunction(), smoothing),
        ),
        lambda: ours(nltk_bleu_from_stats, stats=left, weights=weights, smoothing=smoothing),
    )


def test_statistics_are_nltks_modified_precisions() -> None:
    hyp = words("the the the cat sat on the mat")
    refs = [words("the cat is on the mat"), words("there is a cat on the mat")]
    stats = nltk_stats(hyp, refs, 4)
    for n in range(1, 5):
        expected = nltk_bleu.modified_precision(refs, hyp, n)
        assert stats.numerators[n - 1] == expected.numerator
        assert stats.denominators[n - 1] == expected.denominator
    assert stats.hyp_len == len(hyp)
    assert stats.ref_len == nltk_bleu.closest_ref_length(refs, len(hyp))


# --------------------------------------------------------------------------- errors


def test_invalid_input_raises_clear_errors() -> None:
    with pytest.raises(ValueError, match="unknown NLTK smoothing"):
        nltk_sentence_bleu(hypothesis=["a"], references=[["a"]], smoothing="method8")
    with pytest.raises(ValueError, match="weights"):
        nltk_sentence_bleu(hypothesis=["a"], references=[["a"]], weights=())
    with pytest.raises(ValueError, match="2 hypotheses but 1"):
        nltk_corpus_bleu(hypotheses=[["a"], ["b"]], list_of_references=[[["a"]]])
    with pytest.raises(ValueError, match="at least one segment"):
        nltk_corpus_bleu(hypotheses=[], list_of_references=[])
    with pytest.raises(ValueError, match="at least one reference"):
        nltk_sentence_bleu(hypothesis=["a"], references=[])
    with pytest.raises(TypeError, match="not a string"):
        nltk_sentence_bleu(hypothesis="a b", references=[["a"]])
    with pytest.raises(ValueError, match="only 2"):
        nltk_bleu_from_stats(nltk_stats(["a"], [["a"]], 2))
    with pytest.raises(ValueError, match="prepared up to order 4"):
        nltk_stats_from_refs(["a"], prepare_refs([["a"]], 4), 4)
    with pytest.raises(ValueError, match="max order"):
        nltk_stats(["a"], [["a"]], 4) + nltk_stats(["a"], [["a"]], 3)
    with pytest.raises(ValueError, match="method6"):
        nltk_sentence_bleu(hypothesis=["a", "b"], references=[["a", "b"]], smoothing="method6")


# --------------------------------------------------------------------------- real data


def _read(path: Path, limit: int) -> list[list[str]]:
    with path.open(encoding="utf-8") as handle:
        return [line.split() for _, line in zip(range(limit), handle, strict=False)]


@pytest.mark.parametrize("smoothing", NLTK_SMOOTHING)
def test_real_data_matches_nltk(smoothing: str) -> None:
    root = DATA / "compare-mt-sum-en"
    if not root.is_dir():
        pytest.skip(f"shared dataset {root} not found")
    refs = _read(root / "ref.txt", 300)
    hyps = _read(root / "sys.sys1.txt", 300)
    fn = getattr(nltk_bleu.SmoothingFunction(), smoothing)
    weight_sets: Sequence[Any] = [(0.25, 0.25, 0.25, 0.25), (0.5, 0.5), (0.1, 0.2, 0.3, 0.4)]
    for hyp, ref in zip(hyps, refs, strict=True):
        compare(
            lambda hyp=hyp, ref=ref: theirs(
                nltk_bleu.sentence_bleu, [ref], hyp, weights=weight_sets, smoothing_function=fn
            ),
            lambda hyp=hyp, ref=ref: ours(
                nltk_sentence_bleu,
                hypothesis=hyp,
                references=[ref],
                weights=weight_sets,
                smoothing=smoothing,
            ),
        )
    compare(
        lambda: theirs(
            nltk_bleu.corpus_bleu,
            [[r] for r in refs],
            hyps,
            weights=weight_sets,
            smoothing_function=fn,
        ),
        lambda: ours(
            nltk_corpus_bleu,
            hypotheses=hyps,
            list_of_references=[[r] for r in refs],
            weights=weight_sets,
            smoothing=smoothing,
        ),
    )


def test_real_data_two_references() -> None:
    root = DATA / "wmt22-de-en"
    if not root.is_dir():
        pytest.skip(f"shared dataset {root} not found")
    refs = list(zip(_read(root / "ref.txt", 200), _read(root / "ref2.txt", 200), strict=True))
    hyps = _read(root / "sys.LT22.txt", 200)
    for smoothing in NLTK_SMOOTHING:
        fn = getattr(nltk_bleu.SmoothingFunction(), smoothing)
        compare(
            lambda fn=fn: theirs(nltk_bleu.corpus_bleu, refs, hyps, smoothing_function=fn),
            lambda smoothing=smoothing: ours(
                nltk_corpus_bleu, hypotheses=hyps, list_of_references=refs, smoothing=smoothing
            ),
        )
