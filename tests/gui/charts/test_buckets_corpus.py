"""Buckets chart: corpus BLEU per bucket (what compare-mt plots) next to the mean of sentence
BLEU, and word frequencies from a training corpus's count file (compare-mt's example,
``ted.train.counts``), read in the background; numbers are core's, equal to compare-mt's
(tests/core/analysis/test_buckets.py). Screenshots in both themes."""

from __future__ import annotations

from functools import cache
from pathlib import Path

import numpy as np
import pytest

from matchlight.core.analysis.buckets import (
    FREQUENCY_EDGES,
    bucket_corpus,
    length_buckets,
    word_accuracy_by_frequency,
)
from matchlight.core.analysis.selection import Selection, TextFilter
from matchlight.core.analysis.significance import table_statistics
from matchlight.core.io.wordcounts import count_corpus_words, read_word_counts
from matchlight.core.scoring.config import ScoringConfig
from matchlight.core.text.tokenizers import bleu_tokenizer
from matchlight.gui.charts import buckets as buckets_module
from matchlight.gui.charts.buckets import (
    BOOTSTRAP,
    FREQ_COUNTS,
    FREQ_TEXT,
    SEED,
    STAT_CORPUS,
    BucketsPanel,
    FrequencySource,
)
from tests.conftest import SHARED_DATA
from tests.gui.chartkit import computed, dark_palette, linked, settle, show_panel, wait_job
from tests.gui.conftest import Scored, scored
from tests.kit import read_lines

TED = SHARED_DATA / "compare-mt-ted-sk-en"
COUNTS = TED / "train.counts.tsv"


@cache
def ted() -> Scored:
    """compare-mt's TED example, tokenized as its count file is, scored on whitespace tokens."""
    if not COUNTS.exists():
        pytest.skip(f"{TED} is not there")
    tok = TED / "tokenized"
    return scored(
        references=[read_lines(tok / "ref.txt")],
        systems={n: read_lines(tok / f"sys.{n}.txt") for n in ("pbmt", "nmt")},
        config=ScoringConfig(metrics=("bleu", "chrf")).with_settings("bleu", tokenize="none"),
        reference_names=("ref",),
    )


def make_panel(qtbot, data, size=(1100, 500), **kwargs):
    link, session = linked(data)
    panel = BucketsPanel(link, **kwargs)
    return show_panel(qtbot, lambda _link: panel, link, session, size)


def test_corpus_bleu_per_bucket_is_cores(qtbot) -> None:
    data = ted()
    panel = make_panel(qtbot, data)
    mean = computed(qtbot, panel, by="length", metric="bleu")
    assert mean.what == "mean sentence BLEU"
    result = computed(qtbot, panel, by="length", metric="bleu", statistic=STAT_CORPUS)
    assert result.what == "corpus BLEU"
    tok = bleu_tokenizer("none")
    lengths = [len(tok(line)) for line in data.text.references[0]]
    stats, score = table_statistics(data.table, "bleu")
    expected = bucket_corpus(length_buckets(lengths), stats, score, n_boot=BOOTSTRAP, seed=SEED)
    np.testing.assert_array_equal(result.means, expected.means())
    for b, row in enumerate(expected.cells):
        for s, cell in enumerate(row):
            assert (result.low[b, s], result.high[b, s]) == (cell.low, cell.high)
            assert result.counts[b, s] == cell.count
            assert result.rows[b][s].tolist() == cell.rows.tolist()
    assert not np.allclose(result.means, mean.means)  # corpus BLEU is not the mean
    assert "Corpus BLEU per bucket" in panel.caption.text()
    # A selection: only its rows, as every chart.
    panel.link.session.set_selection(Selection((TextFilter("the"),)))
    rows = np.flatnonzero(panel.link.population(panel))
    assert 0 < len(rows) < len(lengths)
    again = computed(qtbot, panel, by="length", metric="bleu", statistic=STAT_CORPUS)
    subset = bucket_corpus(
        length_buckets(lengths), stats, score, rows=rows, n_boot=BOOTSTRAP, seed=SEED
    )
    np.testing.assert_array_equal(again.means, subset.means())


def test_word_frequency_from_the_training_count_file(qtbot, monkeypatch) -> None:
    """The "<1" bucket, always empty with the reference's counts, holds the words the training
    corpus never saw; the file is read once, in the background job."""
    data = ted()
    asked: list[str] = []

    def ask(parent, caption: str, folder: str) -> str:
        asked.append(caption)
        return str(COUNTS)

    reads: list[str] = []
    read = buckets_module.read_word_counts

    def counted(path, **kwargs):
        import threading

        reads.append(threading.current_thread().name)
        return read(path, **kwargs)

    monkeypatch.setattr(buckets_module, "read_word_counts", counted)
    panel = make_panel(qtbot, data, ask_file=ask)
    own = computed(qtbot, panel, by="frequency")
    assert own.counts[0, 0] == 0 and own.by == "word frequency in the reference"
    assert panel.frequency_combo.isEnabled() and not panel.statistic_combo.isEnabled()
    combo = panel.frequency_combo
    combo.setCurrentIndex(combo.findData(FREQ_COUNTS))
    combo.activated.emit(combo.currentIndex())
    assert asked == ["Word frequencies: a word<TAB>count file"]
    assert panel.frequency_source == FrequencySource(FREQ_COUNTS, str(COUNTS))
    panel.refresh_now()
    wait_job(qtbot, panel.job)
    result = panel.result
    tok = bleu_tokenizer("none")
    reference = [tok(line) for line in data.text.references[0]]
    systems = [[tok(line) for line in column] for column in data.text.systems]
    expected = word_accuracy_by_frequency(
        reference=reference,
        systems=systems,
        counts=read_word_counts(COUNTS),
        edges=FREQUENCY_EDGES,
        n_boot=BOOTSTRAP,
        seed=SEED,
    )
    np.testing.assert_array_equal(result.means, expected.fmeasure.T)
    np.testing.assert_array_equal(result.low, expected.fmeasure_low.T)
    assert result.counts[:, 0].tolist() == expected.ref_total.tolist()
    assert result.counts[0, 0] > 100 and result.by == "word frequency in train.counts.tsv"
    assert reads == ["matchlight-buckets"]
    # Drawn again (a theme, a selection): the counts are kept, the file is not read again.
    panel.link.session.set_selection(Selection((TextFilter("the"),)))
    panel.refresh_now()
    wait_job(qtbot, panel.job)
    assert reads == ["matchlight-buckets"]
    # Cancelling the dialog keeps the file chosen.
    panel.ask_file = lambda *args: None
    combo.setCurrentIndex(combo.findData(FREQ_TEXT))
    combo.activated.emit(combo.currentIndex())
    assert panel.frequency_source == FrequencySource(FREQ_COUNTS, str(COUNTS))
    assert combo.currentData() == FREQ_COUNTS


def test_a_training_text_and_a_bad_count_file(qtbot, tmp_path: Path) -> None:
    data = ted()
    panel = make_panel(qtbot, data)
    text = tmp_path / "train.txt"
    text.write_text("\n".join(data.text.references[0][:50]) + "\n", encoding="utf-8")
    panel.set_choices(by="frequency")
    panel.set_frequency_source(FrequencySource(FREQ_TEXT, str(text)))
    panel.refresh_now()
    wait_job(qtbot, panel.job)
    counts = count_corpus_words(text, bleu_tokenizer("none"))
    tok = bleu_tokenizer("none")
    expected = word_accuracy_by_frequency(
        reference=[tok(line) for line in data.text.references[0]],
        systems=[[tok(line) for line in column] for column in data.text.systems],
        counts=counts,
        n_boot=BOOTSTRAP,
        seed=SEED,
    )
    np.testing.assert_array_equal(panel.result.means, expected.fmeasure.T)
    bad = tmp_path / "bad.tsv"
    bad.write_text("the\t3\nword count\n", encoding="utf-8")
    panel.set_frequency_source(FrequencySource(FREQ_COUNTS, str(bad)))
    panel.refresh_now()
    wait_job(qtbot, panel.job)
    assert f"{bad}, line 2: expected a word, a tab and its count" in panel.placeholder.text()
    assert panel.placeholder.isVisible()


@pytest.mark.parametrize("dark", [False, True], ids=["light", "dark"])
def test_screenshots(qtbot, save_shot, dark: bool) -> None:
    data = ted()
    for by in ("length", "frequency"):
        panel = make_panel(qtbot, data, size=(1100, 520))
        if dark:
            panel.setPalette(dark_palette())
        if by == "frequency":
            panel.set_frequency_source(FrequencySource(FREQ_COUNTS, str(COUNTS)))
            computed(qtbot, panel, by=by)
        else:
            computed(qtbot, panel, by=by, metric="bleu", statistic=STAT_CORPUS)
        settle()
        name = "corpus-bleu" if by == "length" else "train-counts"
        save_shot(panel, f"charts-buckets-ted-{name}-{'dark' if dark else 'light'}")
