"""Buckets: the means, intervals and counts drawn are core.analysis.buckets' own on the rows of
the selection (reference length, length ratio, word frequency, a label column), and a real click
on a bar selects that bucket's rows."""

from __future__ import annotations

import numpy as np
import pytest

from matchlight.core.analysis.buckets import (
    FREQUENCY_EDGES,
    bucket_means,
    length_buckets,
    ratio_buckets,
    word_accuracy_by_frequency,
)
from matchlight.core.analysis.selection import RowSet, Selection, TextFilter
from matchlight.core.io.labels import LabelColumn, read_labels
from matchlight.core.text.tokenizers import bleu_tokenizer
from matchlight.gui.charts.buckets import (
    BOOTSTRAP,
    GROUP_WIDTH,
    LABEL_PREFIX,
    MAX_LABELS,
    SEED,
    BucketsPanel,
    top_labels,
)
from tests.gui.chartkit import (
    EN_ZH,
    click_at,
    computed,
    dark_palette,
    de_en,
    en_zh,
    linked,
    settle,
    show_panel,
)


def make_panel(qtbot, data, size=(1000, 480)):
    return show_panel(qtbot, BucketsPanel, *linked(data), size)


def test_reference_length_buckets_are_cores(qtbot, sample) -> None:
    panel = make_panel(qtbot, sample)
    result = computed(qtbot, panel, by="length", metric="bleu")
    tok = bleu_tokenizer("13a")
    lengths = [len(tok(line)) for line in sample.text.references[0]]
    values = np.stack([sample.table.column("bleu", s) for s in range(3)])
    expected = bucket_means(length_buckets(lengths), values, n_boot=BOOTSTRAP, seed=SEED)
    assert result.labels == expected.labels
    np.testing.assert_array_equal(result.means, expected.means())
    for b, row in enumerate(expected.cells):
        for s, cell in enumerate(row):
            assert result.low[b, s] == cell.low or np.isnan(cell.low)
            assert result.high[b, s] == cell.high or np.isnan(cell.high)
            assert result.counts[b, s] == cell.count
            assert result.rows[b][s].tolist() == cell.rows.tolist()
    ticks = panel.plot.getAxis("bottom")._tickLevels[0]
    assert ticks[0][1] == f"{expected.labels[0]}\nn={expected.cells[0][0].count:,}"


def test_a_selection_restricts_the_buckets(qtbot, sample) -> None:
    panel = make_panel(qtbot, sample)
    panel.link.session.set_selection(Selection((TextFilter("the"),)))
    result = computed(qtbot, panel, by="ratio", metric="rougeL_f")
    rows = panel.link.core.selected_rows()
    table = sample.table
    buckets = ratio_buckets(
        np.stack([table.column("hyp_len", s) for s in range(3)]),
        np.stack([table.column("ref_len", s) for s in range(3)]),
    )
    values = np.stack([table.column("rougeL_f", s) for s in range(3)])
    expected = bucket_means(buckets, values, rows=rows, n_boot=BOOTSTRAP, seed=SEED)
    np.testing.assert_array_equal(result.means, expected.means())
    assert result.counts.sum() == 3 * len(rows)


def test_word_frequency_is_compare_mts_f_measure(qtbot, sample) -> None:
    panel = make_panel(qtbot, sample)
    result = computed(qtbot, panel, by="frequency")
    tok = bleu_tokenizer("13a")
    reference = [tok(line) for line in sample.text.references[0]]
    systems = [[tok(line) for line in column] for column in sample.text.systems]
    expected = word_accuracy_by_frequency(
        reference=reference, systems=systems, edges=FREQUENCY_EDGES, n_boot=BOOTSTRAP, seed=SEED
    )
    assert result.labels == expected.labels
    np.testing.assert_array_equal(result.means, expected.fmeasure.T)
    np.testing.assert_array_equal(result.low, expected.fmeasure_low.T)
    assert result.counts[:, 0].tolist() == expected.ref_total.tolist()
    assert not panel.metric_combo.isEnabled()


def test_clicking_a_bar_selects_its_bucket(qtbot, sample) -> None:
    panel = make_panel(qtbot, sample)
    result = computed(qtbot, panel, by="ratio", metric="bleu")
    settle()
    # The bar of system 2 ("rough") in the bucket where its count is largest.
    bucket = int(np.argmax(result.counts[:, 2]))
    x = bucket + (2 - 1) * GROUP_WIDTH / 3
    click_at(qtbot, panel.graphics, panel.box, x, result.means[bucket, 2] / 2)
    (rowset,) = [f for f in panel.link.core.selection.filters if isinstance(f, RowSet)]
    assert list(rowset.rows) == result.rows[bucket][2].tolist()
    assert "(rough)" in rowset.label
    assert panel.bar_at(bucket + 0.45) is None  # between groups


def test_top_labels_keep_the_largest_and_an_other_bucket() -> None:
    labels = [f"doc{i % 30}" for i in range(300)] + ["doc0"] * 50 + ["doc7"] * 20
    buckets = top_labels(labels)
    assert len(buckets.labels) == MAX_LABELS
    assert buckets.labels[:2] == ("doc0", "doc7")
    assert buckets.labels[-1] == f"other ({30 - MAX_LABELS + 1} labels)"
    other = len(buckets.labels) - 1
    kept = set(buckets.labels[:-1])
    for label, index in zip(labels, buckets.index.tolist()):
        assert (buckets.labels[index] == label) if label in kept else index == other
    few = top_labels(["b", "a", "b", ""])
    assert few.labels == ("b", "a", "(empty)") and few.index.tolist() == [0, 1, 0, 2]


@pytest.mark.parametrize("dark", [False, True], ids=["light", "dark"])
def test_domain_labels_on_en_zh(qtbot, save_shot, dark: bool) -> None:
    data = en_zh()
    panel = make_panel(qtbot, data, size=(1000, 500))
    if dark:
        panel.setPalette(dark_palette())
    labels = read_labels(str(EN_ZH / "domain.txt"), n_segments=len(data.text))
    panel.link.add_labels(labels)
    assert panel.by == LABEL_PREFIX + "domain"
    result = computed(qtbot, panel, metric="chrf")
    assert result.labels == ("conversation", "ecommerce", "news", "social")
    assert result.counts[:, 0].tolist() == [484, 530, 511, 512]
    values = np.stack([data.table.column("chrf", s) for s in range(5)])
    expected = bucket_means(top_labels(labels.labels), values, n_boot=BOOTSTRAP, seed=SEED)
    np.testing.assert_array_equal(result.means, expected.means())
    settle()
    save_shot(panel, f"charts-buckets-en-zh-domain-{'dark' if dark else 'light'}")


@pytest.mark.parametrize("by", ["length", "frequency"])
def test_screenshots_de_en(qtbot, save_shot, by: str) -> None:
    panel = make_panel(qtbot, de_en(), size=(1100, 500))
    computed(qtbot, panel, by=by, metric="bleu")
    settle()
    save_shot(panel, f"charts-buckets-de-en-{by}")


def test_a_label_column_of_the_wrong_length_is_refused(sample) -> None:
    link, _ = linked(sample)
    with pytest.raises(ValueError, match="3 labels for 160 segments"):
        link.add_labels(LabelColumn("x", "x.txt", ("a", "b", "c")))
