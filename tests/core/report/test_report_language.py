"""The report's language check: per system, outputs in another language than the references and
outputs copying the source, over all rows and the selected ones, as core counts them.

WMT22 en-zh has two untranslated outputs (HuaweiTSC's segment 884 and Online-B's 1239, both
the English source word for word); its source given as a system copies nearly every row.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from matchlight.core.analysis.language import language_flags
from matchlight.core.cli.report import main
from matchlight.core.report.page import render_report
from matchlight.core.scoring.config import ScoringConfig
from matchlight.core.scoring.engine import score_corpus
from matchlight.core.session.comparison import ComparisonSession
from matchlight.core.text.corpus import CorpusText
from tests.conftest import SAMPLE, SHARED_DATA
from tests.core.report.reportkit import Dom
from tests.kit import needs, read_lines

EN_ZH = SHARED_DATA / "wmt22-en-zh"
SYSTEMS = ("HuaweiTSC", "Online-B", "Online-Y")
SEGMENTS = "850-1300"


def cells(dom: Dom, system: int, scope: str) -> tuple[str, str]:
    return (
        dom.one("td", data_system=str(system), data_scope=scope, data_column="wrong_language")
        .text()
        .strip(),
        dom.one("td", data_system=str(system), data_scope=scope, data_column="copies_source")
        .text()
        .strip(),
    )


@needs(EN_ZH)
def test_the_report_counts_what_core_flags_per_system(tmp_path: Path) -> None:
    out = tmp_path / "zh.html"
    args = ["--src", str(EN_ZH / "src.txt"), "--ref", str(EN_ZH / "ref.txt")]
    for name in SYSTEMS:
        args += ["--hyp", str(EN_ZH / f"sys.{name}.txt")]
    args += ["--hyp", str(EN_ZH / "src.txt")]  # the source as a system
    args += ["--metrics", "bleu", "--tokenize", "zh", "--segments", SEGMENTS, "--max-rows", "1"]
    assert main([*args, "--out", str(out), "-q"]) == 0
    dom = Dom(out.read_text(encoding="utf-8"))
    names = [node.text().strip() for node in dom.all("td", class_="name")]
    assert names[-4:] == [*SYSTEMS, "src"]

    source = read_lines(EN_ZH / "src.txt")
    outputs = [read_lines(EN_ZH / f"sys.{name}.txt") for name in SYSTEMS] + [source]
    text = CorpusText(
        (tuple(read_lines(EN_ZH / "ref.txt")),),
        tuple(map(tuple, outputs)),
        (*SYSTEMS, "src"),
    )
    flags = language_flags(text, source)
    assert flags is not None
    selected = np.arange(849, 1300)
    for s in range(4):
        wrong, copies = flags.counts()[s]
        assert cells(dom, s, "all") == (f"{wrong:,}", f"{copies:,}")
        wrong, copies = flags.counts(selected)[s]
        assert cells(dom, s, "selected") == (f"{wrong:,}", f"{copies:,}")
    # The real values: one untranslated row each for HuaweiTSC and Online-B, in the selection.
    assert [cells(dom, s, "all") for s in range(3)] == [("1", "1"), ("1", "1"), ("0", "0")]
    assert [cells(dom, s, "selected") for s in range(3)] == [("1", "1"), ("1", "1"), ("0", "0")]
    copied = int(cells(dom, 3, "all")[1].replace(",", ""))
    assert copied > 0.95 * len(source)
    assert "references (zh, told by py3langid" in dom.one("section", id="language").text()


def test_without_a_source_no_copy_is_counted() -> None:
    if not (SAMPLE / "sys.rough.txt").exists():
        pytest.skip("the bundled sample is not there")
    names = ("fluent", "literal", "rough")
    text = CorpusText(
        (tuple(read_lines(SAMPLE / "ref.en.txt")),),
        tuple(tuple(read_lines(SAMPLE / f"sys.{n}.txt")) for n in names),
        names,
    )
    config = ScoringConfig(metrics=("bleu",))
    session = ComparisonSession(text, config=config, table=score_corpus(text, config))
    flags = language_flags(text, None)
    assert flags is not None and flags.expectation is not None
    page = render_report(session, language=flags)
    dom = Dom(page)
    assert "Language check" in dom.one("section", id="language").text()
    for s in range(3):
        wrong, copies = cells(dom, s, "all")
        assert wrong == f"{flags.counts()[s][0]:,}" and copies == "–"
    # Made here or handed over, the section is the same.
    assert (
        render_report(session).split('id="language"')[1].split("</section>")[0]
        == (page.split('id="language"')[1].split("</section>")[0])
    )
