"""The report's buckets: next to the mean of segment BLEU per reference-length bucket, the
corpus BLEU of each bucket's rows (what compare-mt plots), equal to sacreBLEU's corpus BLEU of
those rows, over the selected rows."""

from __future__ import annotations

import numpy as np
import pytest
import sacrebleu

from matchlight.core.analysis.buckets import bucket_corpus, length_buckets
from matchlight.core.analysis.selection import SegmentRange, Selection
from matchlight.core.analysis.significance import table_statistics
from matchlight.core.report.export import ReportOptions, render_report
from matchlight.core.scoring.config import ScoringConfig
from matchlight.core.scoring.engine import score_corpus
from matchlight.core.session.comparison import ComparisonSession
from matchlight.core.text.corpus import CorpusText
from matchlight.core.text.tokenizers import bleu_tokenizer
from tests.conftest import SAMPLE
from tests.core.report.reportkit import Dom
from tests.kit import read_lines

pytestmark = pytest.mark.usefixtures("quiet_sacrebleu")


def test_corpus_bleu_per_bucket_is_sacrebleus_on_the_buckets_rows() -> None:
    refs = [tuple(read_lines(SAMPLE / n)) for n in ("ref.en.txt", "ref2.en.txt")]
    names = ("fluent", "literal", "rough")
    text = CorpusText(
        references=tuple(refs),
        systems=tuple(tuple(read_lines(SAMPLE / f"sys.{n}.txt")) for n in names),
        system_names=names,
    )
    config = ScoringConfig().with_metrics(("bleu", "rouge"))
    session = ComparisonSession(text, config=config, table=score_corpus(text, config))
    session.set_selection(Selection((SegmentRange("1-120"),)))
    rows = session.selected_rows()
    dom = Dom(render_report(session, options=ReportOptions(max_rows=1, bucket_samples=100)))
    tables = {t.attrs["data-statistic"]: t for t in dom.all("table", class_="buckets")}
    assert set(tables) == {"mean", "corpus"}
    tokenizer = bleu_tokenizer("13a")
    lengths = [len(tokenizer(line)) for line in refs[0]]
    buckets = length_buckets(lengths)
    stats, score = table_statistics(session.table, "bleu")
    expected = bucket_corpus(buckets, stats, score, rows=rows, n_boot=100, seed=0)
    chosen = set(rows.tolist())
    cells = [n for n in tables["corpus"].iter() if "data-corpus" in n.attrs]
    assert len(cells) == len(buckets.labels) * len(names)
    for cell in cells:
        b, s = int(cell.attrs["data-bucket"]), int(cell.attrs["data-system"])
        figure = float(cell.attrs["data-corpus"])
        want = expected.cells[b][s]
        members = [i for i in want.rows.tolist()]
        assert all(i in chosen for i in members)
        if not members:
            assert np.isnan(figure)
            continue
        assert figure == want.mean
        hyps = [text.systems[s][i] for i in members]
        theirs = sacrebleu.corpus_bleu(hyps, [[ref[i] for i in members] for ref in refs]).score
        assert figure == pytest.approx(theirs, abs=1e-9)
        assert cell.text().startswith(f"{figure:.2f}")
        assert f"n={len(members):,}" in cell.text()
    # ROUGE's corpus figure is the mean: the report draws it only once.
    session.set_selection(Selection())
    page = render_report(
        session, options=ReportOptions(max_rows=1, bucket_samples=20, chart_column="rougeL_f")
    )
    assert [t.attrs["data-statistic"] for t in Dom(page).all("table", class_="buckets")] == ["mean"]
