"""Paired significance tests against sacreBLEU 2.6.0 itself.

sacreBLEU's own ``PairedTest`` (and its command line) is the oracle: on real data (our engine's
BLEU statistics, sacreBLEU's chrF statistics) and on generated statistics, which reach sacreBLEU
through metrics whose "hypotheses" are keys of a table of statistics. p-values must be equal bit
for bit, and so must scores, means and half-widths (sacreBLEU's float32 arithmetic included).
The statistics and score functions are the metrics' own (``Metric.additive``), so their score
functions are checked here against sacreBLEU on float32 and integer sums. The resampled sums,
the heart of the speed-up, are checked against sacreBLEU's materialised index matrices. The
mean-of-segments extension is checked against plain numpy.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from unittest import mock

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sacrebleu.metrics import BLEU, CHRF
from sacrebleu.significance import PairedTest

from matchlight.core import pacing
from matchlight.core.analysis import significance as sig
from matchlight.core.analysis.significance import (
    PairwiseSignificance,
    ScoreFunction,
    SignificanceCancelled,
    SignificanceResult,
    paired_approximate_randomization,
    paired_bootstrap,
    pairwise_significance,
    signature_with,
    table_statistics,
)
from matchlight.core.metrics.base import mean_score, mean_statistics
from matchlight.core.metrics.bleu import BleuMetric
from matchlight.core.metrics.bleuoptions import BleuSettings
from matchlight.core.metrics.chrf import ChrfMetric
from matchlight.core.metrics.chrfoptions import ChrfSettings
from matchlight.core.scoring.config import ScoringConfig
from matchlight.core.scoring.engine import score_corpus
from matchlight.core.scoring.results import ScoreTable
from matchlight.core.text.corpus import corpus_text_from_lines
from tests.conftest import DATASETS, SHARED_DATA
from tests.kit import needs
from tests.refs import (
    PrecomputedBLEU,
    PrecomputedCHRF,
    sacrebleu_score_of,
    sacrebleu_seed,
    sacrebleu_statistics,
)

DE_EN = SHARED_DATA / "wmt22-de-en"
EN_ZH = SHARED_DATA / "wmt22-en-zh"
SACREBLEU_CLI = Path(sys.executable).with_name("sacrebleu")

Array = np.ndarray[Any, Any]


# -- sacreBLEU as the oracle -------------------------------------------------------------------


def sacrebleu_paired(
    metric: Any,
    systems: Sequence[tuple[str, Sequence[Any]]],
    references: Any,
    *,
    test: str,
    n_samples: int,
    seed: int,
    n_ar_confidence: int = -1,
) -> tuple[list[Any], dict[str, Any]]:
    """sacreBLEU's results (baseline first) and its signature fields."""
    with sacrebleu_seed(seed):
        paired = PairedTest(
            list(systems),
            {"m": metric},
            references,
            test_type=test,
            n_samples=n_samples,
            n_ar_confidence=n_ar_confidence,
        )
        signatures, scores = paired()
    (name,) = (key for key in scores if key != "System")
    return scores[name], signatures[name].info


def precomputed_systems(
    stats: Sequence[Array], rows: Sequence[int]
) -> tuple[dict[tuple[int, int], list[int]], list[tuple[str, list[tuple[int, int]]]]]:
    table = {(s, r): [int(v) for v in stats[s][r]] for s in range(len(stats)) for r in rows}
    systems = [(f"sys{s}", [(s, r) for r in rows]) for s in range(len(stats))]
    return table, systems


def assert_same(ours: SignificanceResult, theirs: Sequence[Any]) -> None:
    """Bit for bit: scores, p-values, bootstrap means and half-widths."""
    assert len(ours.systems) == len(theirs)
    for mine, result in zip(ours.systems, theirs, strict=True):
        assert mine.score == float(result.score)
        assert mine.p_value == result.p_value
        if result.mean is None:
            assert mine.mean is None and mine.ci is None
        else:
            assert mine.mean == float(result.mean)
            assert mine.ci == float(result.ci)
    assert ours.baseline.p_value is None


# -- generated statistics ----------------------------------------------------------------------


@st.composite
def bleu_rows(draw: st.DrawFn, n: int, max_order: int = 4, big: bool = False) -> Array:
    """Consistent per-segment BLEU statistics: totals from the length, matches up to them."""
    top = 2_000_000 if big else 60
    out = []
    for _ in range(n):
        hyp = draw(st.integers(0, top))
        ref = draw(st.integers(0, top))
        totals = [max(hyp - k, 0) for k in range(max_order)]
        matches = [draw(st.integers(0, t)) if t else 0 for t in totals]
        out.append([hyp, ref, *matches, *totals])
    return np.array(out, dtype=np.int64).reshape(n, 2 + 2 * max_order)


@st.composite
def chrf_rows(draw: st.DrawFn, n: int, order: int = 6) -> Array:
    out = []
    for _ in range(n):
        row = []
        for _ in range(order):
            hyp = draw(st.integers(0, 80))
            ref = draw(st.integers(0, 80))
            row += [hyp, ref, draw(st.integers(0, min(hyp, ref)))]
        out.append(row)
    return np.array(out, dtype=np.int64).reshape(n, 3 * order)


SMOOTHING = st.sampled_from(
    [("exp", None), ("none", None), ("floor", None), ("floor", 0.3), ("add-k", None), ("add-k", 2)]
)


def bleu_additive(rows: Array, **settings: Any) -> tuple[Array, ScoreFunction]:
    """BLEU's ``additive`` pair for statistics already in sacreBLEU's column order."""
    order = (rows.shape[-1] - 2) // 2
    fields = {
        "hyp_len": rows[..., 0],
        "ref_len": rows[..., 1],
        "matches": rows[..., 2 : 2 + order],
        "totals": rows[..., 2 + order :],
    }
    table, score = BleuMetric().additive(BleuSettings(max_order=order, **settings), fields)
    assert np.array_equal(table, rows)
    return table, score


def bleu_score(smooth_method: str = "exp", smooth_value: float | None = None) -> ScoreFunction:
    """Corpus BLEU-4 of summed statistics, from BLEU's ``additive``."""
    empty = np.zeros((0, 10), dtype=np.int64)
    return bleu_additive(empty, smooth_method=smooth_method, smooth_value=smooth_value)[1]


def chrf_score(char_order: int = 6, word_order: int = 0, beta: int = 2) -> ScoreFunction:
    """Corpus chrF of summed statistics, from chrF's ``additive``."""
    settings = ChrfSettings(char_order=char_order, word_order=word_order, beta=beta)
    width = 3 * (char_order + word_order)
    return ChrfMetric().additive(settings, {"stats": np.zeros((0, width), np.int64)})[1]


# -- the score functions -----------------------------------------------------------------------


@settings(max_examples=300, deadline=None)
@given(
    data=st.data(),
    smoothing=SMOOTHING,
    max_order=st.integers(1, 5),
    big=st.booleans(),
)
def test_bleu_score_function_is_sacrebleus_on_float32_and_integer_sums(
    data: st.DataObject, smoothing: tuple[str, float | None], max_order: int, big: bool
) -> None:
    method, value = smoothing
    rows = data.draw(bleu_rows(data.draw(st.integers(1, 6)), max_order, big))
    metric = BLEU(smooth_method=method, smooth_value=value, max_ngram_order=max_order)
    _, score = bleu_additive(rows, smooth_method=method, smooth_value=value)
    # Bootstrap sums are float32 arrays; corpus and AR sums integers.
    as32 = rows.astype(np.float32)
    expected32 = [sacrebleu_score_of(metric, row.copy()).score for row in as32]
    assert score(as32).tolist() == expected32
    expected = [sacrebleu_score_of(metric, [int(v) for v in row]).score for row in rows]
    assert score(rows).tolist() == expected


@needs(DE_EN)
@pytest.mark.parametrize(
    "options", [{}, {"smooth_method": "floor", "smooth_value": 0.3}, {"max_order": 3}]
)
def test_table_statistics_score_the_tables_own_corpus_bleu(options: dict[str, Any]) -> None:
    """The vectorised score of summed statistics equals the table's corpus BLEU (the scalar
    compute_bleu), for every system, on all rows and on a subset."""
    refs, names, hyps = load(DE_EN)
    text = corpus_text_from_lines(references=refs, systems=hyps[:3], names=names[:3])
    table = score_corpus(text, ScoringConfig().with_settings("bleu", **options))
    stats, score = table_statistics(table, "bleu")
    rows = np.arange(0, len(refs[0]), 3)
    for s, per_system in enumerate(stats):
        for chosen in (None, rows):
            picked = per_system if chosen is None else per_system[chosen]
            assert score(picked.sum(axis=0, keepdims=True))[0] == table.corpus(s, chosen).value(
                "bleu"
            )


@settings(max_examples=150, deadline=None)
@given(
    data=st.data(),
    orders=st.sampled_from([(6, 0), (6, 2), (3, 1), (1, 0)]),
    beta=st.sampled_from([2, 1, 3]),
)
def test_chrf_score_function_is_sacrebleus_value_and_dtype(
    data: st.DataObject, orders: tuple[int, int], beta: int
) -> None:
    char_order, word_order = orders
    rows = data.draw(chrf_rows(data.draw(st.integers(1, 6)), char_order + word_order))
    metric = CHRF(char_order=char_order, word_order=word_order, beta=beta)
    score = chrf_score(char_order=char_order, word_order=word_order, beta=beta)
    as32 = rows.astype(np.float32)
    # sacreBLEU collects the scores with np.array, which decides the dtype of later arithmetic.
    expected32 = np.array([sacrebleu_score_of(metric, row).score for row in as32])
    got32 = score(as32)
    assert got32.dtype == expected32.dtype
    assert got32.tolist() == expected32.tolist()
    expected = np.array([sacrebleu_score_of(metric, [int(v) for v in row]).score for row in rows])
    assert score(rows).tolist() == expected.tolist()


def test_score_functions_reject_the_wrong_width() -> None:
    with pytest.raises(ValueError, match=r"\(m, 10\)"):
        bleu_score()(np.zeros((3, 9)))
    with pytest.raises(ValueError, match=r"\(m, 18\)"):
        chrf_score()(np.zeros((3, 6)))
    with pytest.raises(ValueError, match="--smooth"):
        BleuSettings(smooth_method="laplace")


def test_bleu_statistics_keeps_sacrebleus_column_order() -> None:
    fields = {
        "hyp_len": np.array([[5, 3]]),
        "ref_len": np.array([[6, 2]]),
        "matches": np.array([[[4, 2, 1, 0], [3, 1, 0, 0]]]),
        "totals": np.array([[[5, 4, 3, 2], [3, 2, 1, 0]]]),
    }
    stats, _ = BleuMetric().additive(BleuSettings(), fields)
    assert stats.shape == (1, 2, 10)
    assert stats[0, 0].tolist() == [5, 6, 4, 2, 1, 0, 5, 4, 3, 2]
    short = {"hyp_len": [1, 2], "ref_len": [1, 2], "matches": [[1]], "totals": [[1]]}
    with pytest.raises(ValueError, match="BLEU statistics"):
        BleuMetric().additive(BleuSettings(), short)


def test_signature_fields_go_where_sacrebleu_puts_them() -> None:
    fields = {"bs": "1000", "ar": "10000", "seed": "12345"}
    signature = "nrefs:2|case:mixed|eff:no|tok:13a|smooth:exp|version:2.6.0"
    assert signature_with(signature, fields) == (
        "nrefs:2|bs:1000|ar:10000|seed:12345|case:mixed|eff:no|tok:13a|smooth:exp|version:2.6.0"
    )


# -- the resampled sums ------------------------------------------------------------------------


@contextmanager
def pieces_and_blocks(block: int, piece: tuple[int, int]) -> Iterator[None]:
    """Other sizes of blocks of draws and of pieces of products (sizes never change results)."""
    size, rows = piece
    with (
        mock.patch.object(sig, "_BLOCK_ELEMENTS", block),
        mock.patch.object(sig, "_PRODUCT_SIZE", size),
        mock.patch.object(sig, "_PRODUCT_ROWS", rows),
    ):
        yield


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    n=st.integers(1, 40),
    width=st.integers(1, 4),
    n_samples=st.integers(1, 90),
    seed=st.integers(0, 2**32),
    low=st.sampled_from([0, -50, -3_000_000]),
    high=st.sampled_from([3, 60, 3_000_000]),
    block=st.sampled_from([1, 7, 64, 1 << 22]),
    piece=st.sampled_from([(1, 1), (500, 3), (1 << 18, 32)]),
    data=st.data(),
)
def test_bootstrap_sums_are_sacrebleus_float32_sums(
    n: int,
    width: int,
    n_samples: int,
    seed: int,
    low: int,
    high: int,
    block: int,
    piece: tuple[int, int],
    data: st.DataObject,
) -> None:
    """Any block and piece size, negative values, sums past float32's exact integers: still
    equal to sacreBLEU's ``stats_np[idxs]`` summed resample by resample, bit for bit."""
    values = data.draw(st.lists(st.integers(low, high), min_size=n * width, max_size=n * width))
    stats = np.array(values, dtype=np.int64).reshape(n, width)
    idxs = np.random.default_rng(seed).choice(n, size=(n_samples, n), replace=True)
    stats_np = stats.astype(np.float32)
    expected = np.array([resample.sum(0) for resample in stats_np[idxs]])
    with pieces_and_blocks(block, piece):
        got = sig._bootstrap_sums(
            np.random.default_rng(seed), stats, n_samples, True, sig._Progress(None, None)
        )
    assert got.dtype == np.float32
    assert np.array_equal(got.view(np.uint32), expected.view(np.uint32))


def test_bootstrap_sums_past_2_to_the_24_round_as_sacrebleus() -> None:
    """The fallback is exercised: sacreBLEU's float32 sums really differ from the exact ones."""
    stats = np.random.default_rng(3).integers(400_000, 900_000, size=(60, 3))
    idxs = np.random.default_rng(5).choice(60, size=(40, 60), replace=True)
    stats_np = stats.astype(np.float32)
    expected = np.array([resample.sum(0) for resample in stats_np[idxs]])
    exact = stats[idxs].sum(axis=1)
    assert (expected.astype(np.int64) != exact).any()
    got = sig._bootstrap_sums(np.random.default_rng(5), stats, 40, True, sig._Progress(None, None))
    assert np.array_equal(got, expected)


@settings(max_examples=150, deadline=None)
@given(
    n=st.integers(1, 70),
    width=st.integers(1, 3),
    n_trials=st.integers(1, 150),
    seed=st.integers(0, 2**32),
    high=st.sampled_from([5, 20_000_000]),
    block=st.sampled_from([1, 40, 1 << 22]),
    piece=st.sampled_from([(1, 1), (500, 3), (1 << 18, 32)]),
    data=st.data(),
)
def test_ar_sums_are_sacrebleus_and_leave_the_stream_where_it_does(
    n: int,
    width: int,
    n_trials: int,
    seed: int,
    high: int,
    block: int,
    piece: tuple[int, int],
    data: st.DataObject,
) -> None:
    values = data.draw(st.lists(st.integers(-high, high), min_size=n * width, max_size=n * width))
    stats = np.array(values, dtype=np.int64).reshape(n, width)
    theirs = np.random.default_rng(seed)
    pos_sel = theirs.integers(2, size=(n_trials, n), dtype=bool)
    expected = pos_sel @ stats
    ours = np.random.default_rng(seed)
    with pieces_and_blocks(block, piece):
        got = sig._ar_selected_sums(ours, stats, n_trials, True, sig._Progress(None, None))
    assert got.dtype == np.int64
    assert np.array_equal(got, expected)
    # AR's bootstrap for confidence intervals continues the same stream.
    assert np.array_equal(ours.choice(n, size=(2, n)), theirs.choice(n, size=(2, n)))


# -- whole tests on generated statistics -------------------------------------------------------


@st.composite
def generated_case(draw: st.DrawFn, kind: str) -> tuple[list[Array], list[int]]:
    """Statistics of 2-3 systems over up to 30 segments, and the rows to test (any order:
    a selection is a set, tested in corpus order)."""
    n = draw(st.integers(1, 30))
    count = draw(st.integers(2, 3))
    rows_of = bleu_rows if kind == "bleu" else chrf_rows
    stats = [draw(rows_of(n)) for _ in range(count)]
    rows = draw(st.lists(st.integers(0, n - 1), min_size=1, max_size=n, unique=True))
    return stats, rows


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    case=generated_case("bleu"),
    smoothing=SMOOTHING,
    n_samples=st.integers(1, 300),
    seed=st.integers(1, 2**31),
)
def test_paired_bootstrap_is_sacrebleus_on_generated_bleu_statistics(
    case: tuple[list[Array], list[int]],
    smoothing: tuple[str, float | None],
    n_samples: int,
    seed: int,
) -> None:
    stats, rows = case
    method, value = smoothing
    table, systems = precomputed_systems(stats, sorted(rows))
    metric = PrecomputedBLEU(table, smooth_method=method, smooth_value=value)
    theirs, _ = sacrebleu_paired(metric, systems, None, test="bs", n_samples=n_samples, seed=seed)
    score = bleu_score(smooth_method=method, smooth_value=value)
    names = [name for name, _ in systems]
    ours = paired_bootstrap(stats, score, names=names, n_samples=n_samples, seed=seed, rows=rows)
    assert_same(ours, theirs)
    assert ours.n_segments == len(rows)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    case=generated_case("bleu"),
    smoothing=SMOOTHING,
    n_trials=st.integers(1, 400),
    confidence=st.sampled_from([-1, 1, 57]),
    seed=st.integers(1, 2**31),
)
def test_paired_ar_is_sacrebleus_on_generated_bleu_statistics(
    case: tuple[list[Array], list[int]],
    smoothing: tuple[str, float | None],
    n_trials: int,
    confidence: int,
    seed: int,
) -> None:
    stats, rows = case
    method, value = smoothing
    table, systems = precomputed_systems(stats, sorted(rows))
    metric = PrecomputedBLEU(table, smooth_method=method, smooth_value=value)
    theirs, _ = sacrebleu_paired(
        metric, systems, None, test="ar", n_samples=n_trials, seed=seed, n_ar_confidence=confidence
    )
    ours = paired_approximate_randomization(
        stats,
        bleu_score(smooth_method=method, smooth_value=value),
        names=[name for name, _ in systems],
        n_samples=n_trials,
        seed=seed,
        confidence_samples=confidence if confidence > 0 else None,
        rows=rows,
    )
    assert_same(ours, theirs)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    case=generated_case("chrf"),
    test=st.sampled_from(["bs", "ar"]),
    n_samples=st.integers(1, 200),
    seed=st.integers(1, 2**31),
)
def test_paired_tests_are_sacrebleus_on_generated_chrf_statistics(
    case: tuple[list[Array], list[int]], test: str, n_samples: int, seed: int
) -> None:
    stats, rows = case
    table, systems = precomputed_systems(stats, sorted(rows))
    theirs, _ = sacrebleu_paired(
        PrecomputedCHRF(table), systems, None, test=test, n_samples=n_samples, seed=seed
    )
    run = paired_bootstrap if test == "bs" else paired_approximate_randomization
    names = [name for name, _ in systems]
    ours = run(stats, chrf_score(), names=names, n_samples=n_samples, seed=seed, rows=rows)
    assert_same(ours, theirs)


@pytest.mark.parametrize("test", ["bs", "ar"])
def test_signature_fields_are_sacrebleus(test: str) -> None:
    stats = [np.random.default_rng(i).integers(0, 9, size=(12, 10)) for i in range(2)]
    table, systems = precomputed_systems(stats, list(range(12)))
    for confidence in (-1, 20) if test == "ar" else (-1,):
        _, info = sacrebleu_paired(
            PrecomputedBLEU(table),
            systems,
            None,
            test=test,
            n_samples=30,
            seed=77,
            n_ar_confidence=confidence,
        )
        run = paired_bootstrap if test == "bs" else paired_approximate_randomization
        extra = {"confidence_samples": confidence} if confidence > 0 else {}
        ours = run(stats, bleu_score(), names=["a", "b"], n_samples=30, seed=77, **extra)
        theirs = {k: str(info[k]) for k in ("bs", "ar", "seed") if info.get(k) is not None}
        assert ours.signature_fields() == theirs


# -- real data ---------------------------------------------------------------------------------


def load(folder: Path) -> tuple[list[list[str]], list[str], list[list[str]]]:
    (dataset,) = (d for d in DATASETS if d.folder == folder)
    refs = [dataset.read(path) for path in dataset.refs]
    names = [path.name.removeprefix("sys.").removesuffix(".txt") for path in dataset.systems]
    return refs, names, [dataset.read(path) for path in dataset.systems]


def engine_table(
    refs: list[list[str]], names: list[str], hyps: list[list[str]], tokenize: str = "13a"
) -> ScoreTable:
    text = corpus_text_from_lines(references=refs, systems=hyps, names=names)
    return score_corpus(text, ScoringConfig().with_settings("bleu", tokenize=tokenize))


def engine_bleu_stats(
    refs: list[list[str]], names: list[str], hyps: list[list[str]], tokenize: str = "13a"
) -> list[Array]:
    """Our engine's per-segment BLEU statistics, one ``(n, 10)`` array per system."""
    stats, _ = table_statistics(engine_table(refs, names, hyps, tokenize), "bleu")
    return stats


@needs(DE_EN)
@pytest.mark.parametrize("test", ["bs", pytest.param("ar", marks=pytest.mark.slow)])
def test_bleu_tests_equal_sacrebleu_on_wmt22_de_en(test: str) -> None:
    """All five systems, two references, statistics from our engine: sacreBLEU's default
    1,000 resamples and seed 12345 for the bootstrap, 2,500 trials for AR (sacreBLEU's loop
    over trials, not the data, made its default 10,000 the slowest oracle of the suite; the
    trials are the same draws whatever their count). Our defaults are sacreBLEU's
    (``PairedTest._DEFAULT_SAMPLES``)."""
    assert PairedTest._DEFAULT_SAMPLES == {
        "bs": sig.DEFAULT_BOOTSTRAP_SAMPLES,
        "ar": sig.DEFAULT_AR_TRIALS,
    }
    refs, names, hyps = load(DE_EN)
    stats = engine_bleu_stats(refs, names, hyps)
    n_samples = 1000 if test == "bs" else 2500
    theirs, _ = sacrebleu_paired(
        BLEU(references=refs),  # sacreBLEU's reference cache: their n-grams once, not per system
        list(zip(names, hyps, strict=True)),
        None,
        test=test,
        n_samples=n_samples,
        seed=12345,
    )
    if test == "bs":
        ours = paired_bootstrap(stats, bleu_score(), names=names)  # the defaults
    else:
        ours = paired_approximate_randomization(
            stats, bleu_score(), names=names, n_samples=n_samples
        )
    assert_same(ours, theirs)
    assert ours.seed_used == 12345 and ours.n_samples == n_samples


def run_sacrebleu_cli(
    ref_files: Sequence[Path], sys_files: Sequence[Path], args: Sequence[str], seed: int
) -> list[dict[str, Any]]:
    env = {**os.environ, "SACREBLEU_SEED": str(seed)}
    command = [str(SACREBLEU_CLI), *map(str, ref_files), "-i", *map(str, sys_files), *args]
    out = subprocess.run(
        [*command, "--format", "json"], capture_output=True, text=True, env=env, check=True
    )
    return [entry["BLEU"] for entry in json.loads(out.stdout)]


@needs(DE_EN)
@pytest.mark.parametrize(("test", "seed"), [("bs", 12345), ("bs", 4242), ("ar", 12345), ("ar", 99)])
def test_bleu_on_a_subset_of_wmt22_en_zh_equals_the_sacrebleu_command_line(
    tmp_path: Path, test: str, seed: int
) -> None:
    """Engine statistics of the whole corpus restricted with ``rows`` equal sacreBLEU run on
    files that hold only those rows (tokenize zh, three systems)."""
    refs, names, hyps = load(EN_ZH)
    names, hyps = names[:3], hyps[:3]
    stats = engine_bleu_stats(refs, names, hyps, tokenize="zh")
    # The rows in corpus order (a selection is a set), as the files hold them.
    rows = np.sort(np.random.default_rng(seed).choice(len(refs[0]), size=300, replace=False))
    files = []
    for i, column in enumerate([*refs, *hyps]):
        path = tmp_path / f"col{i}.txt"
        path.write_text("".join(column[r] + "\n" for r in rows.tolist()), encoding="utf-8")
        files.append(path)
    n_samples = 1000 if test == "bs" else 3000
    flag = ["--paired-bs"] if test == "bs" else ["--paired-ar", "--paired-ar-n", str(n_samples)]
    theirs = run_sacrebleu_cli(files[:2], files[2:], ["-m", "bleu", "-tok", "zh", *flag], seed)
    run = paired_bootstrap if test == "bs" else paired_approximate_randomization
    ours = run(stats, bleu_score(), names=names, n_samples=n_samples, seed=seed, rows=rows)
    for mine, result in zip(ours.systems, theirs, strict=True):
        assert mine.score == result["score"]
        assert mine.p_value == result["p_value"]
        assert mine.mean == result["mean"]
        assert mine.ci == result["ci"]


@needs(DE_EN)
@pytest.mark.parametrize(("test", "seed", "size"), [("bs", 12345, 700), ("ar", 31337, 400)])
def test_chrf_on_a_subset_of_wmt22_de_en_equals_sacrebleu(test: str, seed: int, size: int) -> None:
    """sacreBLEU's own chrF statistics as input (our chrF statistics come later)."""
    refs, names, hyps = load(DE_EN)
    rows = sorted(np.random.default_rng(seed).choice(len(refs[0]), size=size, replace=False))
    refs = [[col[r] for r in rows] for col in refs]
    picked = [1, 0, 3]
    systems = [(names[i], [hyps[i][r] for r in rows]) for i in picked]
    cached = CHRF(references=refs)  # sacreBLEU's reference cache: their n-grams once
    stats = [np.array(sacrebleu_statistics(cached, h, None)) for _, h in systems]
    n_samples = 1000 if test == "bs" else 4000
    theirs, _ = sacrebleu_paired(
        cached, systems, None, test=test, n_samples=n_samples, seed=seed, n_ar_confidence=-1
    )
    run = paired_bootstrap if test == "bs" else paired_approximate_randomization
    ours = run(stats, chrf_score(), names=[n for n, _ in systems], n_samples=n_samples, seed=seed)
    assert_same(ours, theirs)


# -- the mean-of-segments extension ------------------------------------------------------------


def numpy_mean_tests(
    segment_scores: Sequence[Array], n_samples: int, n_trials: int, seed: int
) -> tuple[list[tuple[float, float, float | None]], list[float | None]]:
    """The same tests written plainly: resampled means with the index matrix materialised."""
    base = segment_scores[0]
    idx = np.random.default_rng(seed).choice(len(base), size=(n_samples, len(base)))
    means = [x[idx].sum(axis=1) / len(base) for x in segment_scores]
    boot: list[tuple[float, float, float | None]] = []
    for x, m in zip(segment_scores, means, strict=True):
        ordered = np.sort(m)
        lo = n_samples // 40
        ci = 0.5 * (ordered[n_samples - lo - 1] - ordered[lo])
        diffs = np.abs(m - means[0])
        real = abs(base.mean() - x.mean())
        p = (np.sum(diffs - diffs.mean() > real) + 1) / (n_samples + 1)
        boot.append((ordered.mean(), ci, p))
    pos = np.random.default_rng(seed).integers(2, size=(n_trials, len(base)), dtype=bool)
    ar: list[float | None] = [None]
    for x in segment_scores[1:]:
        a = np.where(pos, base, x).sum(axis=1) / len(base)
        b = np.where(pos, x, base).sum(axis=1) / len(base)
        real = abs(base.mean() - x.mean())
        ar.append(float((np.sum(np.abs(a - b) > real) + 1) / (n_trials + 1)))
    return boot, ar


@settings(max_examples=60, deadline=None)
@given(
    n=st.integers(1, 40),
    count=st.integers(2, 3),
    seed=st.integers(0, 2**31),
    data=st.data(),
)
def test_mean_of_segments_equals_plain_numpy(
    n: int, count: int, seed: int, data: st.DataObject
) -> None:
    # Multiples of 1/8: every sum is exact, so plain numpy must agree to the last bit.
    scores = [
        np.array(data.draw(st.lists(st.integers(0, 800), min_size=n, max_size=n))) / 8.0
        for _ in range(count)
    ]
    boot, ar = numpy_mean_tests(scores, 200, 300, seed)
    stats = [mean_statistics(x) for x in scores]
    names = [f"s{i}" for i in range(count)]
    ours = paired_bootstrap(stats, mean_score, names=names, n_samples=200, seed=seed)
    for mine, x, (mean, ci, p) in zip(ours.systems, scores, boot, strict=True):
        assert mine.score == x.sum() / n
        assert (mine.mean, mine.ci) == (mean, ci)
        assert mine.p_value == (None if mine is ours.baseline else p)
    ours_ar = paired_approximate_randomization(
        stats, mean_score, names=names, n_samples=300, seed=seed
    )
    assert [s.p_value for s in ours_ar.systems] == ar


@needs(DE_EN)
def test_mean_of_sentence_bleu_on_wmt22_de_en_equals_plain_numpy() -> None:
    refs, names, hyps = load(DE_EN)
    table = engine_table(refs, names[:3], hyps[:3])
    scores = [table.column("bleu", i) for i in range(3)]  # sentence BLEU
    assert np.isfinite(scores).all()
    boot, ar = numpy_mean_tests(scores, 1000, 2000, 12345)
    stats = [mean_statistics(x) for x in scores]
    ours = paired_bootstrap(stats, mean_score, names=names[:3])
    for mine, x, (mean, ci, p) in zip(ours.systems, scores, boot, strict=True):
        assert mine.score == pytest.approx(x.mean(), abs=1e-9)
        assert mine.mean == pytest.approx(mean, abs=1e-9)
        assert mine.ci == pytest.approx(ci, abs=1e-9)
        assert mine.p_value == (None if mine is ours.baseline else p)
    ours_ar = paired_approximate_randomization(stats, mean_score, names=names[:3], n_samples=2000)
    assert [s.p_value for s in ours_ar.systems] == ar


# -- the pairwise matrix -----------------------------------------------------------------------


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    n=st.integers(1, 25),
    count=st.integers(2, 4),
    test=st.sampled_from(["bs", "ar"]),
    seed=st.integers(0, 2**31),
    data=st.data(),
)
def test_pairwise_entries_equal_the_test_with_either_system_as_baseline(
    n: int, count: int, test: str, seed: int, data: st.DataObject
) -> None:
    stats = [data.draw(bleu_rows(n)) for _ in range(count)]
    names = [f"s{i}" for i in range(count)]
    score = bleu_score()
    matrix = pairwise_significance(stats, score, names=names, test=test, n_samples=150, seed=seed)
    assert isinstance(matrix, PairwiseSignificance)
    run = paired_bootstrap if test == "bs" else paired_approximate_randomization
    for i in range(count):
        assert matrix.p_values[i][i] is None
        order = [i, *(j for j in range(count) if j != i)]
        single = run(
            [stats[j] for j in order],
            score,
            names=[names[j] for j in order],
            n_samples=150,
            seed=seed,
        )
        for result in single.systems[1:]:
            j = names.index(result.name)
            assert matrix.p_values[i][j] == result.p_value == matrix.p_value(names[j], i)
        assert matrix.scores[i] == single.baseline.score
        if test == "bs":
            assert (matrix.means[i], matrix.cis[i]) == (single.baseline.mean, single.baseline.ci)


# -- behaviour ---------------------------------------------------------------------------------


def small_case() -> tuple[list[Array], list[str]]:
    stats = [np.random.default_rng(i).integers(0, 30, size=(5000, 10)) for i in range(3)]
    return stats, ["a", "b", "c"]


@pytest.mark.parametrize("test", ["bs", "ar", "pairwise"])
def test_cancel_raises_and_progress_rises_to_one(test: str) -> None:
    stats, names = small_case()
    run: Any = {"bs": paired_bootstrap, "ar": paired_approximate_randomization}.get(
        test, pairwise_significance
    )
    seen: list[float] = []
    run(stats, bleu_score(), names=names, progress=seen.append)
    assert len(seen) > 3 and seen == sorted(seen) and seen[-1] == 1.0
    polls = 0

    def cancel() -> bool:
        nonlocal polls
        polls += 1
        return polls > 2

    with pytest.raises(SignificanceCancelled):
        run(stats, bleu_score(), names=names, cancel=cancel)
    assert polls == 3


@pytest.mark.parametrize("test", ["bs", "ar", "pairwise"])
def test_every_step_is_a_pause_point(test: str) -> None:
    """Each step that reports progress is also core.pacing's pause point (where the app lets
    its GUI thread go first), and a test paused there gives the same result."""
    stats, names = small_case()
    run: Any = {"bs": paired_bootstrap, "ar": paired_approximate_randomization}.get(
        test, pairwise_significance
    )
    seen: list[float] = []
    alone = run(stats, bleu_score(), names=names, progress=seen.append)
    paused: list[float] = []
    previous = pacing.set_gate(lambda unless: paused.append(1))
    try:
        assert run(stats, bleu_score(), names=names) == alone
    finally:
        pacing.set_gate(previous)
    assert len(paused) == len(seen) > 3


def test_no_seed_draws_one_and_reports_it() -> None:
    stats, names = small_case()
    first = paired_bootstrap(stats, bleu_score(), names=names, n_samples=100, seed=None)
    assert first.seed is None
    again = paired_bootstrap(stats, bleu_score(), names=names, n_samples=100, seed=first.seed_used)
    assert again.systems == first.systems
    assert first.signature_fields()["seed"] == str(first.seed_used)


def test_rows_as_a_mask_equal_rows_as_indices() -> None:
    stats, names = small_case()
    mask = np.zeros(5000, dtype=bool)
    mask[::7] = True
    by_mask = paired_bootstrap(stats, bleu_score(), names=names, n_samples=50, rows=mask)
    by_index = paired_bootstrap(
        stats, bleu_score(), names=names, n_samples=50, rows=np.flatnonzero(mask)
    )
    # A selection is a set: the order and repetitions of its row numbers do not matter.
    shuffled = np.random.default_rng(1).permutation(np.flatnonzero(mask))
    by_set = paired_bootstrap(
        stats, bleu_score(), names=names, n_samples=50, rows=np.concatenate([shuffled, shuffled])
    )
    assert by_mask == by_index == by_set and by_mask.n_segments == mask.sum()


@pytest.mark.parametrize(
    ("kwargs", "error", "message"),
    [
        ({"stats": "one"}, ValueError, "at least two systems"),
        ({"names": ["a"]}, ValueError, "1 names for 2 systems"),
        ({"stats": "shapes"}, ValueError, "have shape"),
        ({"stats": "nan"}, ValueError, "NaN"),
        ({"stats": "text"}, TypeError, "numbers"),
        ({"rows": [0, 10]}, ValueError, r"0\.\.9"),
        ({"rows": np.ones(3, dtype=bool)}, ValueError, "one entry per segment"),
        ({"rows": []}, ValueError, "at least one segment"),
        ({"seed": -1}, ValueError, "seed"),
        ({"n_samples": 0}, ValueError, "n_samples"),
    ],
)
def test_bad_input_is_refused_clearly(
    kwargs: dict[str, Any], error: type[Exception], message: str
) -> None:
    stats: list[Any] = [np.ones((10, 2), dtype=np.int64), np.zeros((10, 2), dtype=np.int64)]
    special = kwargs.pop("stats", None)
    if special == "one":
        stats = stats[:1]
    elif special == "shapes":
        stats[1] = np.zeros((9, 2))
    elif special == "nan":
        stats = [np.full((10, 2), np.nan), np.zeros((10, 2))]
    elif special == "text":
        stats = [np.full((10, 2), "x"), np.full((10, 2), "y")]
    args: dict[str, Any] = {"names": ["a", "b"][: len(stats)], **kwargs}
    with pytest.raises(error, match=message):
        paired_bootstrap(stats, mean_score, **args)


def test_score_function_returning_the_wrong_shape_is_refused() -> None:
    stats, names = small_case()
    with pytest.raises(ValueError, match="score function"):
        paired_bootstrap(stats, lambda s: s[:, :2], names=names, n_samples=10)
