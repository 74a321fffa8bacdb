"""The HTML report shows each column at its own precision and says which way is better: an
imported COMET-like 0-1 column's corpus figures and tests with four decimals (three systems no
longer all "0.65"), an MQM penalty (lower is better) as better where a system has significantly
fewer points, its scatter over its own range."""

from __future__ import annotations

import copy
from functools import cache
from pathlib import Path

import numpy as np
import pytest

from matchlight.core.analysis.columnstats import significance_by_column
from matchlight.core.io.scores import ScoreSpec, read_scores
from matchlight.core.metrics.base import ScoreColumn, infer_scale
from matchlight.core.report.context import ReportOptions
from matchlight.core.report.page import render_report
from matchlight.core.scoring.config import ScoringConfig
from matchlight.core.scoring.engine import score_corpus
from matchlight.core.session.comparison import ComparisonSession
from matchlight.core.text.corpus import corpus_text_from_lines
from tests.core.report.test_report import Dom, value
from tests.scalekit import MQM, MQM_SYSTEMS, comet_like, mqm_ted, write_scores

SAMPLES = 300
BASELINE = MQM_SYSTEMS.index("Online-W")


@cache
def scored_table():
    data = mqm_ted()
    text = corpus_text_from_lines(
        references=[data.reference],
        systems=[data.outputs[n] for n in data.systems],
        names=list(data.systems),
    )
    config = ScoringConfig(metrics=("bleu", "chrf"))
    return text, config, score_corpus(text, config)


def session_with_columns(folder: Path) -> tuple[ComparisonSession, str]:
    """TED zh-en with its MQM penalties and a COMET-like column read from score files."""
    text, config, table = scored_table()
    session = ComparisonSession(text, config=config, table=copy.deepcopy(table))
    session.set_baseline(BASELINE)
    session.set_column(MQM, mqm_ted().penalties)
    chrf = session.table.scores[:, :, session.table.metric_index("chrf")]
    paths = write_scores(folder, text.system_names, comet_like(chrf))
    imported = read_scores(
        [ScoreSpec(p, column="score") for p in paths],
        systems=text.system_names,
        n_segments=len(text),
        name="COMET-22",
    )
    column = ScoreColumn(
        "imported_comet_22", "COMET-22", "COMET-22", "imported", "COMET-22, imported"
    ).with_scale(infer_scale(imported.values, imported.name))
    session.set_column(column, imported.aligned(text.system_names))
    return session, column.key


def test_corpus_figures_and_tests_keep_each_columns_precision(tmp_path) -> None:
    session, comet = session_with_columns(tmp_path)
    page = render_report(
        session, options=ReportOptions(paired_bs=True, bootstrap_samples=SAMPLES, max_rows=3)
    )
    dom = Dom(page)
    table = session.table
    summary = dom.one("table", class_="summary", data_rows="all")
    shown = {}
    for key, digits in ((comet, 4), ("mqm", 3), ("bleu", 2)):
        for s in range(len(table.systems)):
            (cell,) = [
                n
                for n in summary.iter()
                if n.attrs.get("data-system") == str(s) and n.attrs.get("data-column") == key
            ]
            figure = table.corpus(s).values[key]
            assert value(cell) == figure
            assert cell.text() == f"{figure:.{digits}f}"
            shown[key, s] = cell.text()
    assert len({shown[comet, s] for s in range(3)}) == 3  # not three times "0.65"
    sig = dom.one("table", class_="significance", data_column=comet)
    (test,) = significance_by_column(
        table, [comet], baseline=BASELINE, n_samples=SAMPLES, rows=None
    )
    assert test.result is not None
    for line in test.result.systems:
        s = table.systems.index(line.name)
        cells = {
            n.attrs["data-field"]: n
            for n in sig.iter()
            if n.attrs.get("data-system") == str(s) and "data-field" in n.attrs
        }
        assert cells["score"].text() == f"{line.score:.4f}"
        assert cells["mean"].text() == f"{line.mean:.4f}" and cells["ci"].text() == f"{line.ci:.4f}"
    # Each row's segment scores at their column's precision.
    first = dom.all("div", class_="line hyp", data_system="0")[0]
    spans = {n.attrs["data-column"]: n.text() for n in first.iter() if "data-column" in n.attrs}
    row = int(dom.all("article")[0].attrs["data-segment"]) - 1
    assert spans[comet] == f"COMET-22 {table.value(comet, 0, row):.3f}"
    assert spans["bleu"] == f"BLEU {table.value('bleu', 0, row):.1f}"


def test_a_penalty_is_better_lower_in_the_tests_and_the_charts(tmp_path) -> None:
    session, _ = session_with_columns(tmp_path)
    page = render_report(
        session,
        options=ReportOptions(
            paired_bs=True, bootstrap_samples=SAMPLES, chart_column="mqm", max_rows=1
        ),
    )
    dom = Dom(page)
    table = session.table
    (test,) = significance_by_column(table, ["mqm"], baseline=BASELINE, n_samples=SAMPLES)
    assert test.result is not None
    sig = dom.one("table", class_="significance", data_column="mqm")
    said = {}
    for line in test.result.systems[1:]:
        s = table.systems.index(line.name)
        (cell,) = [
            n
            for n in sig.iter()
            if n.attrs.get("data-system") == str(s) and "data-verdict" in n.attrs
        ]
        assert line.p_value is not None
        if line.p_value > 0.05:
            want = ""
        else:
            want = "better" if line.score < test.result.baseline.score else "worse"
        assert cell.attrs["data-verdict"] == want
        said[line.name] = want
    # NiuTrans has significantly fewer MQM points than Online-W: better, not worse.
    assert said["NiuTrans"] == "better"
    assert "lower is better" in sig_note(dom, "mqm")
    # The scatter spans the penalties (no upper bound: the largest there is), and says that
    # above its diagonal a system is worse.
    scatter = dom.all("svg", class_="chart scatter")[0]
    top = np.ceil(np.nanmax(table.scores[:, :, table.metric_index("mqm")]) * 100) / 100
    ticks = {n.text() for n in scatter.iter() if n.tag == "text"}
    assert {"0", f"{top:g}"} <= ticks and "100" not in ticks
    assert "worse (lower is better)" in page
    buckets = dom.one("table", class_="buckets")
    mean = next(n for n in buckets.iter() if "data-mean" in n.attrs)
    assert mean.children[0] == f"{float(mean.attrs['data-mean']):.2f}"


def sig_note(dom: Dom, key: str) -> str:
    table = dom.one("table", class_="significance", data_column=key)
    box = next(n for n in dom.all("div", class_="sigtest") if any(x is table for x in n.iter()))
    return " ".join(n.text() for n in box.iter() if n.tag == "p")


@pytest.mark.parametrize("name", ["TER", "error rate", "MQM"])
def test_inferred_penalties_are_lower_is_better(name: str) -> None:
    assert infer_scale(np.array([0.0, 12.5, 3.0]), name).better == "lower"
