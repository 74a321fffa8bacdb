"""The score table keeps its statistics as int32 (half the memory), sums them in int64, and
keeps a count too big for int32 exactly, by widening that statistic to int64."""

from __future__ import annotations

import numpy as np

from matchlight.core.scoring.config import ScoringConfig
from matchlight.core.scoring.engine import score_corpus
from matchlight.core.scoring.results import ScoreChunk, ScoreTable
from matchlight.core.text.corpus import CorpusText
from matchlight.core.text.lines import TextLines

BLEU = ScoringConfig().apply({"rouge": {"enabled": False}})


def _table(n: int) -> ScoreTable:
    return ScoreTable(systems=["a"], n_segments=n, config=BLEU, nrefs=1)


def _chunk(start: int, hyp_len: list[int]) -> ScoreChunk:
    n = len(hyp_len)
    ones = np.ones((1, n), np.int64)
    return ScoreChunk(
        start=start,
        stop=start + n,
        scores=np.zeros((1, n, len(BLEU.columns()))),
        stats={
            "bleu": {
                "hyp_len": np.array([hyp_len], np.int64),
                "ref_len": ones,
                "matches": np.ones((1, n, 4), np.int64),
                "totals": np.ones((1, n, 4), np.int64),
            }
        },
        row_flags={},
    )


def test_statistics_are_int32_and_their_sums_int64_beyond_int32() -> None:
    table = _table(4)
    big = 2**31 - 1  # the largest int32: four of them sum past it
    table.apply(_chunk(0, [big, big]))
    table.apply(_chunk(2, [big, big]))
    assert table.stat("bleu", "hyp_len").dtype == np.int32
    assert table.stat("bleu", "matches").dtype == np.int32
    assert table.stat("bleu", "hyp_len").tolist() == [[big] * 4]
    assert table.corpus(0).details["bleu"].sys_len == 4 * big
    assert table.corpus(0, rows=[1, 3]).details["bleu"].sys_len == 2 * big


def test_a_count_past_int32_widens_its_statistic_and_keeps_every_row() -> None:
    table = _table(3)
    table.apply(_chunk(0, [7]))
    table.apply(_chunk(1, [2**31, 5]))  # one more than int32 holds
    assert table.stat("bleu", "hyp_len").dtype == np.int64
    assert table.stat("bleu", "hyp_len").tolist() == [[7, 2**31, 5]]
    assert table.stat("bleu", "ref_len").dtype == np.int32  # the others stay narrow
    assert table.corpus(0).details["bleu"].sys_len == 7 + 2**31 + 5


def test_text_lines_score_as_the_strings_they_hold() -> None:
    refs = ("Der Hund bellt.", "Größe zählt nicht", "", "👍🏽 ok")
    outs = ("Der Hund bellt", "Groesse zaehlt nicht", "leer", "👍 ok")
    as_strings = CorpusText(references=(refs,), systems=(outs,), system_names=("s",))
    as_lines = CorpusText(
        references=(TextLines.of([refs]),), systems=(TextLines.of([outs]),), system_names=("s",)
    )
    config = ScoringConfig().apply({"chrf": {"enabled": True}})
    want, got = score_corpus(as_strings, config), score_corpus(as_lines, config)
    np.testing.assert_array_equal(got.scores, want.scores)
    for key, fields in want.stats.items():
        for name, values in fields.items():
            np.testing.assert_array_equal(got.stats[key][name], values)
