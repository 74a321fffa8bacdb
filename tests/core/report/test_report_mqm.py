"""The report's MQM and ESA parts: a system nobody annotated gets no paired test, figures say
how many segments and raters they rest on, and different segment sets are flagged."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

from matchlight.core.annotation.model import ErrorSpan, SegmentScore, Side
from matchlight.core.annotation.mqm import system_mqm
from matchlight.core.annotation.workspace import AnnotationWorkspace
from matchlight.core.io.inputs import parse_spec
from matchlight.core.io.reading import load_comparison
from matchlight.core.metrics.base import ScoreColumn
from matchlight.core.report.context import ReportAnnotations, ReportOptions
from matchlight.core.report.page import render_report
from matchlight.core.scoring.config import ScoringConfig
from matchlight.core.scoring.engine import score_corpus
from matchlight.core.session.comparison import ComparisonSession
from tests.conftest import SAMPLE

MQM = ScoreColumn(
    key="mqm",
    label="MQM penalty",
    short="MQM",
    metric="mqm",
    description="error penalty from the annotations",
    corpus="mean",
    headline=True,
    better="lower",
    low=0.0,
    high=None,
    decimals=2,
)
ESA = ScoreColumn(
    key="esa",
    label="ESA score",
    short="ESA",
    metric="esa",
    description="Error Span Annotation score",
    corpus="mean",
    headline=True,
)


def sample_session() -> ComparisonSession:
    comparison = load_comparison(
        source=None,
        references=[parse_spec(str(SAMPLE / "ref.en.txt"))],
        systems=[parse_spec(str(p)) for p in sorted(SAMPLE.glob("sys.*.txt"))],
    )
    text = comparison.corpus_text()
    config = ScoringConfig(metrics=("bleu",))
    return ComparisonSession(
        text, config=config, comparison=comparison, table=score_corpus(text, config)
    )


def err(
    session: ComparisonSession, system: int, segment: int, severity: str, rater: str
) -> ErrorSpan:
    text = session.text.systems[system][segment]
    return ErrorSpan.create(
        system=session.table.systems[system],
        segment=segment,
        line=text,
        start=0,
        end=min(3, len(text)),
        category="Accuracy/Mistranslation",
        severity=severity,
        annotator=rater,
    )


def rows_of(page: str, column: str) -> dict[str, str]:
    """System name -> its p-value cell text in the paired-test table of ``column``."""
    table = re.search(rf'<table class="significance" data-column="{column}".*?</table>', page, re.S)
    assert table is not None
    out = {}
    for row in re.findall(r"<tr.*?</tr>", table.group(0), re.S)[1:]:
        cells = re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)
        name = re.sub(r"<[^>]+>", "", cells[0])
        out[name] = re.sub(r"<[^>]+>", "", cells[4])  # after score, mean and CI; a verdict follows
    return out


def test_a_system_nobody_annotated_gets_no_paired_test(tmp_path: Path) -> None:
    """Finding 5: systems with no annotations got p = 0.0010* in the MQM and ESA tables."""
    session = sample_session()
    names = session.table.systems
    assert len(names) >= 3
    spans = [
        err(session, s, k, "major" if k % 2 else "minor", "r1") for s in (0, 1) for k in range(12)
    ]
    scores = [SegmentScore(names[s], k, "r1", 40.0 + 5 * k) for s in (0, 1) for k in range(12)]
    ws = AnnotationWorkspace(
        systems=names, n_segments=session.n_segments, spans=spans, scores=scores
    )
    session.set_column(MQM, ws.mqm_values())
    session.set_column(ESA, ws.esa_values())
    assert np.isnan(ws.mqm_values()[2]).all()  # the third system: never annotated
    page = render_report(
        session,
        annotations=ReportAnnotations(tuple(spans), tuple(scores)),
        options=ReportOptions(paired_bs=True, bootstrap_samples=200, max_rows=1),
    )
    for column in ("mqm", "esa"):
        cells = rows_of(page, column)
        assert cells[names[0]] == "baseline"
        assert re.fullmatch(r"\d\.\d{4}\*?", cells[names[1]])
        for name in names[2:]:
            assert cells[name] == "no values: not tested", (column, name)
    # A real metric column is tested for every system as before.
    bleu = rows_of(page, "bleu")
    assert all(re.fullmatch(r"\d\.\d{4}\*?", bleu[name]) for name in names[1:])
    # With the unannotated system as the baseline, nobody is tested against it.
    session.set_baseline(2)
    page = render_report(
        session,
        annotations=ReportAnnotations(tuple(spans), tuple(scores)),
        options=ReportOptions(paired_bs=True, bootstrap_samples=200, max_rows=1),
    )
    cells = rows_of(page, "mqm")
    assert cells[names[2]] == "baseline; no values: not tested"
    assert cells[names[0]] == cells[names[1]] == "not tested: the baseline has no values"


def test_the_mqm_section_says_what_its_figures_rest_on() -> None:
    """Finding 4 and 11: the mean over raters, the rated segments and raters per system, and a
    warning with the common-segment figure when systems were rated on different segments."""
    session = sample_session()
    names = session.table.systems
    spans = [
        err(session, 0, 0, "major", "r1"),
        err(session, 0, 0, "major", "r2"),
        err(session, 0, 1, "minor", "r1"),
        err(session, 1, 0, "major", "r1"),
    ]
    scores = [SegmentScore(names[0], 0, "r3", None)]
    scores += [SegmentScore(names[1], k, "r1", None) for k in range(1, 6)]
    esa_span = ErrorSpan.create(
        system=names[1],
        segment=7,
        line=session.text.systems[1][7],
        start=0,
        end=2,
        category="",
        severity="major",
        annotator="esa",
    )
    source = "Die Quelle ist hier lang genug, um über jede Übersetzung hinauszugehen."
    on_source = ErrorSpan.create(
        system=names[2],
        segment=0,
        line=source,
        start=4,
        end=len(source),
        category="Accuracy/Omission",
        severity="major",
        annotator="r1",
        side=Side.SOURCE,
    )
    page = render_report(
        session,
        annotations=ReportAnnotations((*spans, esa_span, on_source), tuple(scores)),
        options=ReportOptions(max_rows=1),
    )
    # The source span is listed with the output it was marked for, never drawn on it.
    line = page[page.index('<div class="line hyp" data-system="2">') :]
    line = line[: line.index("</ol>")]
    assert "in the source" in line and 'class="err sev' not in line
    section = page[page.index('<section id="mqm">') :]
    section = section[: section.index("</section>")]

    def cell(field: str, system: int) -> str:
        found = re.search(
            rf'data-system="{system}" data-field="{field}"(?: data-value="([^"]*)")?>([^<]*)<',
            section,
        )
        assert found is not None, field
        return found.group(1) if found.group(1) is not None else found.group(2)

    # System 0: segment 0 = (5 + 5 + 0) / 3 raters, segment 1 = 1: mean 13/6.
    assert float(cell("mqm", 0)) == pytest.approx(13 / 6)
    assert float(cell("mqm", 0)) == pytest.approx(system_mqm(spans, scores)[names[0]])
    assert (cell("segments", 0), cell("raters", 0)) == ("2", "3")
    assert float(cell("mqm", 1)) == pytest.approx(5 / 6)
    assert (cell("segments", 1), cell("raters", 1)) == ("6", "1")
    assert float(cell("mqm", 2)) == 5.0 and cell("segments", 2) == "1"
    # Different segment sets: said, and the common segments' figure given.
    assert "means over different segments" in section
    # (system 2 was rated on segment 0 only, by its source span: the one common segment)
    assert "MQM (the 1 common segments)" in section
    assert float(cell("mqm-common", 0)) == pytest.approx(10 / 3)
    assert float(cell("mqm-common", 1)) == pytest.approx(5.0)
    assert "1 confirmed spans have no category (ESA spans)" in section
    assert "mean over its raters" in section and "25 for major in Non-translation" in section
