"""matchlight.core.analysis.perreference: each reference scored alone by the engine, against
sacreBLEU on the same rows, and the audit that must find wmt22-en-zh's ref2 = Online-B.
"""

from __future__ import annotations

from functools import cache

import numpy as np
import pytest
from sacrebleu.metrics import BLEU

from matchlight.core.analysis.perreference import (
    one_reference,
    reference_report,
    single_reference_tables,
)
from matchlight.core.scoring.config import ScoringConfig
from matchlight.core.scoring.engine import score_corpus
from matchlight.core.scoring.results import ScoreTable
from matchlight.core.text.corpus import CorpusText, corpus_text_from_lines
from tests.conftest import SHARED_DATA
from tests.kit import needs, read_lines

EN_ZH = SHARED_DATA / "wmt22-en-zh"
SYSTEMS = ("HuaweiTSC", "JDExploreAcademy", "LanguageX", "Online-B", "Online-Y")


pytestmark = pytest.mark.usefixtures("quiet_sacrebleu")


@cache
def en_zh() -> tuple[CorpusText, ScoringConfig, ScoreTable, tuple[ScoreTable, ...]]:
    text = corpus_text_from_lines(
        references=[read_lines(EN_ZH / "ref.txt"), read_lines(EN_ZH / "ref2.txt")],
        systems=[read_lines(EN_ZH / f"sys.{s}.txt") for s in SYSTEMS],
        names=SYSTEMS,
    )
    config = ScoringConfig().with_settings("bleu", tokenize="zh")
    singles = single_reference_tables(text, config, metric="bleu")
    assert singles is not None
    return text, config, score_corpus(text, config), singles


@needs(EN_ZH)
def test_scores_per_reference_and_with_both_equal_sacrebleu_on_the_selected_rows() -> None:
    text, _, table, singles = en_zh()
    rows = np.arange(0, len(text), 4)
    report = reference_report(
        text=text,
        table=table,
        singles=singles,
        column="bleu",
        reference_names=("ref", "ref2"),
        rows=rows,
    )
    bleu = BLEU(tokenize="zh")
    pick = rows.tolist()
    refs = [[ref[i] for i in pick] for ref in text.references]
    for s, lines in enumerate(text.systems):
        hyps = [lines[i] for i in pick]
        assert report.breakdown.single[s, 0] == bleu.corpus_score(hyps, [refs[0]]).score
        assert report.breakdown.single[s, 1] == bleu.corpus_score(hyps, [refs[1]]).score
        assert report.breakdown.combined[s] == bleu.corpus_score(hyps, refs).score
    assert report.n_rows == len(rows) and report.label == "BLEU"


@needs(EN_ZH)
def test_the_audit_says_ref2_is_online_b_on_373_lines_and_nothing_else() -> None:
    text, _, table, singles = en_zh()
    report = reference_report(
        text=text, table=table, singles=singles, column="bleu", reference_names=("ref", "ref2")
    )
    (flagged,) = report.audit.flagged
    assert (flagged.reference, flagged.system) == ("ref2", "Online-B")
    assert flagged.identical == 373 and flagged.n_rows == 2037
    # The similarity behind "near" is sentence BLEU against ref2 alone (the engine's, which
    # equals sacreBLEU's sentence_bleu).
    bleu = BLEU(tokenize="zh", effective_order=True)
    row = 11
    s = SYSTEMS.index("Online-B")
    expected = bleu.sentence_score(text.systems[s][row], [text.references[1][row]]).score
    assert singles[1].value("bleu", s, row) == expected


def test_cancel_returns_none_and_one_reference_checks_its_index() -> None:
    text = corpus_text_from_lines(
        references=[["a b c"], ["a b d"]], systems=[["a b c"]], names=["x"]
    )
    assert (
        single_reference_tables(text, ScoringConfig(), metric="bleu", cancel=lambda: True) is None
    )
    assert one_reference(text, 1).references == (("a b d",),)
    with pytest.raises(ValueError, match="no reference 3"):
        one_reference(text, 2)
    seen: list[float] = []
    tables = single_reference_tables(text, ScoringConfig(), metric="bleu", progress=seen.append)
    assert tables is not None and len(tables) == 2 and seen[-1] == 1.0
    assert tables[0].config.metrics == ("bleu",) and tables[0].nrefs == 1
