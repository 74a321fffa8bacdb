"""End-to-end conformance of the engine (tokenizers + BLEU + ROUGE + multi-reference rules).

Every number is compared with sacrebleu, rouge-score and nltk, called here on the same raw text.
"""

from __future__ import annotations

import itertools
import math
import warnings

import numpy as np
import pytest
import sacrebleu
from nltk.translate import bleu_score as nltk_bleu
from rouge_score import rouge_scorer
from sacrebleu.metrics.bleu import BLEU

from matchlight.core.scoring.config import ScoringConfig
from matchlight.core.scoring.engine import (
    iter_score_chunks,
    iter_score_chunks_parallel,
    score_corpus,
)
from matchlight.core.scoring.results import ScoreTable
from matchlight.core.text.corpus import CorpusText
from tests.conftest import Dataset, dataset_params, make_config
from tests.refs import sacrebleu_tokens

TOL = 1e-9


def _sample_rows(n: int, count: int) -> list[int]:
    step = max(1, n // count)
    return list(range(0, n, step))[:count]


def _load(dataset: Dataset) -> tuple[list[list[str]], list[list[str]], list[str]]:
    refs = [dataset.read(p) for p in dataset.refs]
    systems = [dataset.read(p) for p in dataset.systems]
    names = [p.name.removeprefix("sys.").removesuffix(".txt") for p in dataset.systems]
    return refs, systems, names


def _text(refs: list[list[str]], systems: list[list[str]], names: list[str]) -> CorpusText:
    return CorpusText(
        references=tuple(tuple(r) for r in refs),
        systems=tuple(tuple(s) for s in systems),
        system_names=tuple(names),
    )


def _bleu_text(line: str, separator: str | None) -> str:
    """What BLEU reads of a sentence-marked line: the sentences joined by spaces."""
    if separator is None or separator == "\n":
        return line
    return " ".join(part.strip() for part in line.split(separator))


def _rouge_text(line: str, separator: str | None) -> str:
    """What a rouge-score user feeds for our separator: sentences separated by newlines."""
    if separator is None or separator == "\n":
        return line
    return line.replace(separator, "\n")


@pytest.mark.parametrize("dataset", dataset_params())
def test_every_dataset_matches_sacrebleu_and_rouge_score(dataset: Dataset) -> None:
    refs, systems, names = _load(dataset)
    config = make_config(metrics=("bleu", "rouge"), separator=dataset.lsum_separator)
    table = score_corpus(_text(refs, systems, names), config)
    n = len(refs[0])
    assert table.complete and table.n_segments == n

    # BLEU: every row and the corpus, for every system. With a sentence marker, sacreBLEU is
    # given the sentences joined by spaces (the marker is not a word).
    sep = dataset.lsum_separator
    bleu_col = table.metric_index("bleu")
    bleu_refs = [[_bleu_text(line, sep) for line in r] for r in refs]
    # sacreBLEU's sentence_bleu and corpus_bleu, with their metric made once: sentence_bleu's
    # BLEU(effective_order=True), and corpus_bleu's BLEU() holding the references (sacreBLEU's
    # reference cache: their n-grams are extracted once, not again for every system).
    sentence = BLEU(effective_order=True)
    corpus_metric = BLEU(references=bleu_refs)
    for s, hyps in enumerate(systems):
        bleu_hyps = [_bleu_text(line, sep) for line in hyps]
        for i in _sample_rows(n, 400):
            expected = sentence.sentence_score(bleu_hyps[i], [r[i] for r in bleu_refs]).score
            assert table.scores[s, i, bleu_col] == pytest.approx(expected, abs=TOL, rel=0)
        corpus = corpus_metric.corpus_score(bleu_hyps, None)
        ours = table.corpus(s)
        assert ours.values["bleu"] == pytest.approx(corpus.score, abs=TOL, rel=0)
        detail = ours.details["bleu"]
        assert detail is not None
        assert detail.sys_len == corpus.sys_len  # type: ignore[attr-defined]
        assert detail.ref_len == corpus.ref_len  # type: ignore[attr-defined]

    # ROUGE: a spread of rows (rouge-score is slow on long summaries), every system.
    scorer = rouge_scorer.RougeScorer(["rouge1", "rouge2", "rougeL", "rougeLsum"])
    budget = 40 if "cnndm" in dataset.name else 120
    for s, hyps in enumerate(systems):
        for i in _sample_rows(n, budget):
            expected = scorer.score_multi(
                [_rouge_text(r[i], sep) for r in refs], _rouge_text(hyps[i], sep)
            )
            for rouge_type, score in expected.items():
                for field, value in zip(("p", "r", "f"), score):
                    got = table.value(f"{rouge_type}_{field}", s, i)
                    assert got == pytest.approx(100 * value, abs=TOL, rel=0), (
                        rouge_type,
                        field,
                        i,
                    )


def _option_grid() -> list[dict[str, object]]:
    grid = []
    for tok, lc, smooth, order in itertools.product(
        ("13a", "intl", "char", "zh", "none"),
        (False, True),
        ("exp", "floor", "add-k", "none"),
        (2, 4),
    ):
        grid.append({"tokenize": tok, "lowercase": lc, "smooth_method": smooth, "max_order": order})
    return grid


@pytest.fixture(scope="module")
def small_mt() -> tuple[list[list[str]], list[list[str]], list[str]]:
    from tests.conftest import DATASETS

    chosen = [d for d in DATASETS if d.name in ("wmt22-de-en", "wmt22-en-zh")]
    if len(chosen) < 2:
        pytest.skip("shared/data is not present")
    refs: list[list[str]] = [[], []]
    systems: list[list[str]] = [[], []]
    for d in chosen:
        r, s, _ = _load(d)
        rows = _sample_rows(len(r[0]), 30)
        for k in range(2):
            refs[k] += [r[k][i] for i in rows]
            systems[k] += [s[k][i] for i in rows]
    # Edge cases a user will meet: empty lines, entities, repeated words.
    refs[0] += ["", "the cat is on the mat", "&quot;Quoted&quot; &amp; more", "x"]
    refs[1] += ["", "there is a cat on the mat", '"Quoted" & more', ""]
    systems[0] += ["", "the the the the the the", "&quot;Quoted&quot; &amp; more", ""]
    systems[1] += ["nothing", "", "Quoted & more", "x x"]
    return refs, systems, ["a", "b"]


@pytest.mark.parametrize("options", _option_grid(), ids=lambda o: "-".join(map(str, o.values())))
def test_bleu_option_grid_matches_sacrebleu(options: dict[str, object], small_mt) -> None:
    refs, systems, names = small_mt
    config = make_config(metrics=("bleu",), **options)  # type: ignore[arg-type]
    table = score_corpus(_text(refs, systems, names), config)
    kwargs = {
        "tokenize": options["tokenize"],
        "lowercase": options["lowercase"],
        "smooth_method": options["smooth_method"],
        "max_ngram_order": options["max_order"],
    }
    sentence_metric = BLEU(effective_order=True, **kwargs)  # type: ignore[arg-type]
    corpus_metric = BLEU(**kwargs)  # type: ignore[arg-type]
    for s, hyps in enumerate(systems):
        for i, hyp in enumerate(hyps):
            expected = sentence_metric.sentence_score(hyp, [r[i] for r in refs]).score
            assert table.value("bleu", s, i) == pytest.approx(expected, abs=TOL, rel=0), i
        expected_corpus = corpus_metric.corpus_score(hyps, refs).score
        assert table.corpus(s).values["bleu"] == pytest.approx(expected_corpus, abs=TOL, rel=0)


@pytest.mark.parametrize("smooth_value", [0.0, 0.01, 0.5, 2.0])
@pytest.mark.parametrize("smooth_method", ["floor", "add-k"])
def test_smooth_values_match_sacrebleu(smooth_method: str, smooth_value: float, small_mt) -> None:
    refs, systems, names = small_mt
    config = make_config(metrics=("bleu",), smooth_method=smooth_method, smooth_value=smooth_value)
    table = score_corpus(_text(refs, systems, names), config)
    for s, hyps in enumerate(systems):
        for i, hyp in enumerate(hyps):
            expected = sacrebleu.sentence_bleu(
                hyp, [r[i] for r in refs], smooth_method=smooth_method, smooth_value=smooth_value
            ).score
            assert table.value("bleu", s, i) == pytest.approx(expected, abs=TOL, rel=0)


@pytest.mark.parametrize("stem", [False, True])
@pytest.mark.parametrize("max_n", [1, 3, 4])
def test_rouge_options_match_rouge_score(stem: bool, max_n: int, small_mt) -> None:
    refs, systems, names = small_mt
    config = make_config(metrics=("rouge",), rouge_stem=stem, rouge_max_n=max_n)
    table = score_corpus(_text(refs, systems, names), config)
    types = [f"rouge{n}" for n in range(1, max_n + 1)] + ["rougeL", "rougeLsum"]
    scorer = rouge_scorer.RougeScorer(types, use_stemmer=stem)
    for s, hyps in enumerate(systems):
        for i, hyp in enumerate(hyps):
            expected = scorer.score_multi([r[i] for r in refs], hyp)
            for rouge_type in types:
                got = table.value(f"{rouge_type}_f", s, i)
                want = 100 * expected[rouge_type].fmeasure
                assert got == pytest.approx(want, abs=TOL, rel=0)


@pytest.mark.parametrize("method", [f"method{k}" for k in range(8)])
def test_nltk_flavour_through_the_engine(method: str, small_mt) -> None:
    refs, systems, names = small_mt
    config = make_config(metrics=("nltk_bleu",), nltk_smoothing=method, nltk_tokenize="13a")
    table = score_corpus(_text(refs, systems, names), config)
    bleu = BLEU()  # the 13a tokens nltk is given
    smoothing = getattr(nltk_bleu.SmoothingFunction(), method)
    for s, hyps in enumerate(systems):
        hyp_tokens = [sacrebleu_tokens(bleu, h) for h in hyps]
        ref_tokens = [[sacrebleu_tokens(bleu, r[i]) for r in refs] for i in range(len(hyps))]
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            for i in range(len(hyps)):
                got = table.value("nltk_bleu", s, i)
                try:
                    want = nltk_bleu.sentence_bleu(
                        ref_tokens[i], hyp_tokens[i], smoothing_function=smoothing
                    )
                except (AssertionError, IndexError, ZeroDivisionError):
                    assert math.isnan(got), i  # where NLTK fails there is no score
                    continue
                assert got == pytest.approx(100 * want, abs=1e-10, rel=0), i
            try:
                want_corpus = nltk_bleu.corpus_bleu(
                    ref_tokens, hyp_tokens, smoothing_function=smoothing
                )
            except (AssertionError, IndexError, ZeroDivisionError):
                assert math.isnan(table.corpus(s).values["nltk_bleu"])
                continue
        got_corpus = table.corpus(s).values["nltk_bleu"]
        assert got_corpus == pytest.approx(100 * want_corpus, abs=1e-10, rel=0)


def test_chunks_and_processes_give_identical_tables(small_mt) -> None:
    refs, systems, names = small_mt
    text = _text(refs, systems, names)
    config = make_config()
    whole = score_corpus(text, config)
    chunks = list(iter_score_chunks(text, config, chunk_size=7, first_chunk_size=3))
    assert [c.stop - c.start for c in chunks[:2]] == [3, 7]
    assert chunks[-1].stop == len(text)
    parallel = list(iter_score_chunks_parallel(text, config, workers=2, chunk_size=16))
    assert sorted((c.start, c.stop) for c in parallel)[0] == (0, 16)
    for chunk in [*chunks, *parallel]:
        np.testing.assert_array_equal(chunk.scores, whole.scores[:, chunk.start : chunk.stop])
        np.testing.assert_array_equal(
            chunk.stats["bleu"]["matches"],
            whole.stat("bleu", "matches")[:, chunk.start : chunk.stop],
        )


def test_cancel_stops_between_chunks(small_mt) -> None:
    refs, systems, names = small_mt
    seen: list[int] = []

    def cancel() -> bool:
        return len(seen) >= 2

    for chunk in iter_score_chunks(
        _text(refs, systems, names), ScoringConfig(), chunk_size=5, cancel=cancel
    ):
        seen.append(chunk.start)
    assert seen == [0, 5]


def test_corpus_scores_of_a_subset_are_the_sum_of_its_rows(small_mt) -> None:
    refs, systems, names = small_mt
    table = score_corpus(_text(refs, systems, names), ScoringConfig())
    rows = np.arange(0, table.n_segments, 3)
    subset = table.corpus(0, rows)
    expected = sacrebleu.corpus_bleu(
        [systems[0][i] for i in rows], [[r[i] for i in rows] for r in refs]
    )
    assert subset.values["bleu"] == pytest.approx(expected.score, abs=TOL, rel=0)
    assert subset.means["rouge1_f"] == pytest.approx(
        float(np.mean(table.column("rouge1_f", 0)[rows])), abs=0
    )
    everything = table.corpus(0, np.ones(table.n_segments, bool)).values["bleu"]
    assert math.isclose(everything, table.corpus(0).values["bleu"])


def _flavour(flavour: str) -> tuple[ScoringConfig, str]:
    """sacreBLEU's BLEU or NLTK's (with ROUGE beside it), and the BLEU column's key."""
    if flavour == "nltk":
        return make_config(metrics=("rouge", "nltk_bleu"), nltk_tokenize="13a"), "nltk_bleu"
    return make_config(metrics=("bleu", "rouge")), "bleu"


@pytest.mark.parametrize("flavour", ["sacrebleu", "nltk"])
def test_corpus_means_are_numpy_means_whichever_way_rows_are_given(small_mt, flavour) -> None:
    refs, systems, names = small_mt
    config, key = _flavour(flavour)
    table = score_corpus(_text(refs, systems, names), config)
    n = table.n_segments
    mask = np.arange(n) % 4 != 1
    ways = {"all": (None, np.arange(n)), "mask": (mask, np.flatnonzero(mask))}
    for rows, index in ways.values():
        for s in range(len(table.systems)):
            got = table.corpus(s, rows)
            assert got.n_segments == len(index)
            for m in table.column_keys:
                assert got.means[m] == float(np.mean(table.column(m, s)[index]))  # bit-identical
            want = table.corpus(s, list(index))
            a, b = got.values[key], want.values[key]
            assert a == b or (math.isnan(a) and math.isnan(b))
    empty = table.corpus(0, np.zeros(n, bool))
    assert empty.n_segments == 0 and all(math.isnan(v) for v in empty.means.values())
    some = table.corpus(1, mask, metrics=["rougeL_f", key])
    full = table.corpus(1, mask)
    assert {m: some.means[m] for m in ("rougeL_f", key)} == {
        m: full.means[m] for m in ("rougeL_f", key)
    }
    a, b = some.values[key], full.values[key]
    assert a == b or (math.isnan(a) and math.isnan(b))


def test_lsum_fallback_is_flagged_only_without_boundaries() -> None:
    text = CorpusText(
        references=(("one sentence only", "first part\nsecond part"),),
        systems=(("one sentence", "second part\nfirst part"),),
        system_names=("s",),
    )
    table = score_corpus(text, ScoringConfig())
    assert table.flag("lsum_fallback").tolist() == [1, 0]
    scorer = rouge_scorer.RougeScorer(["rougeL", "rougeLsum"])
    expected = scorer.score("first part\nsecond part", "second part\nfirst part")
    assert table.value("rougeLsum_f", 0, 1) == pytest.approx(
        100 * expected["rougeLsum"].fmeasure, abs=TOL
    )
    assert table.value("rougeLsum_f", 0, 1) != table.value("rougeL_f", 0, 1)
    no_sep = score_corpus(text, ScoringConfig(sentence_separator=None))
    assert no_sep.flag("lsum_fallback").tolist() == [1, 1]


@pytest.mark.parametrize("flavour", ["sacrebleu", "nltk"])
def test_running_corpus_follows_the_chunks(small_mt, flavour) -> None:
    refs, systems, names = small_mt
    text = _text(refs, systems, names)
    config, key = _flavour(flavour)
    table = ScoreTable(
        systems=text.system_names, n_segments=len(text), config=config, nrefs=len(refs)
    )
    chunks = list(iter_score_chunks(text, config, chunk_size=7))
    assert len(chunks) > 3
    for k, chunk in enumerate(chunks[::-1]):  # out of order, as from several processes
        table.apply(chunk)
        if k == 1:
            table.apply(chunk)  # a chunk applied again is not counted twice
        for s in range(len(table.systems)):
            running = table.running_corpus(s, metrics=["rouge1_f", key])
            exact = table.corpus(s, table.done, metrics=["rouge1_f", key])
            assert running.n_segments == exact.n_segments == table.n_done
            a, b = running.values[key], exact.values[key]
            assert a == b or (math.isnan(a) and math.isnan(b))
            for m in ("rouge1_f", key):
                assert running.means[m] == pytest.approx(exact.means[m], rel=1e-12, abs=1e-12)
