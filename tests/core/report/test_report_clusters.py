"""The report's significance clusters, every pair's p-value and its reference-leak warning, on
wmt22-en-zh (whose ref2 is Online-B's output on 373 of 2,037 lines).

The p-values of every pair are sacreBLEU's own paired bootstrap (``PairedTest`` with each system
as the baseline in turn, on the selected rows, same seed and resamples); the clusters are the
rule replayed on them; the stars sit exactly where p is at most the Bonferroni level.
"""

from __future__ import annotations

import math
from functools import cache

import pytest
from sacrebleu.metrics import BLEU, CHRF
from sacrebleu.significance import PairedTest

from matchlight.core.analysis.clusters import rank_clusters
from matchlight.core.analysis.columnstats import bonferroni_alpha, pairwise_for_column
from matchlight.core.analysis.references import reference_leaks
from matchlight.core.analysis.selection import SegmentRange, Selection
from matchlight.core.report.export import ReportOptions, render_report
from matchlight.core.scoring.config import ScoringConfig
from matchlight.core.scoring.engine import score_corpus
from matchlight.core.scoring.results import ScoreTable
from matchlight.core.session.comparison import ComparisonSession
from matchlight.core.text.corpus import CorpusText
from tests.conftest import SAMPLE, SHARED_DATA
from tests.core.report.reportkit import Dom, Node
from tests.kit import needs, read_lines
from tests.refs import sacrebleu_seed

EN_ZH = SHARED_DATA / "wmt22-en-zh"
SEGMENTS = "1-600"
N_SAMPLES = 300
SEED = 7

pytestmark = pytest.mark.usefixtures("quiet_sacrebleu")


@cache
def en_zh_scored() -> tuple[CorpusText, ScoringConfig, ScoreTable]:
    """wmt22-en-zh scored once for both tests (the table is never changed; each test makes its
    own session over it)."""
    paths = sorted(EN_ZH.glob("sys.*.txt"))
    text = CorpusText(
        references=(tuple(read_lines(EN_ZH / "ref.txt")), tuple(read_lines(EN_ZH / "ref2.txt"))),
        systems=tuple(tuple(read_lines(p)) for p in paths),
        system_names=tuple(p.stem.removeprefix("sys.") for p in paths),
    )
    config = ScoringConfig().with_metrics(("bleu", "chrf")).with_settings("bleu", tokenize="zh")
    return text, config, score_corpus(text, config)


def en_zh_session() -> ComparisonSession:
    text, config, table = en_zh_scored()
    session = ComparisonSession(text, config=config, table=table, reference_names=("ref", "ref2"))
    session.set_selection(Selection((SegmentRange(SEGMENTS),)))
    return session


def cells(node: Node, tag: str = "td") -> list[Node]:
    return node.find_all(lambda n: n.tag == tag)


@pytest.mark.slow  # sacreBLEU's paired bootstrap, every system the baseline in turn
@needs(EN_ZH)
def test_clusters_and_pairs_are_sacrebleus_paired_bootstrap() -> None:
    session = en_zh_session()
    table = session.table
    rows = session.selected_rows()
    page = render_report(
        session,
        options=ReportOptions(paired_bs=True, bootstrap_samples=N_SAMPLES, seed=SEED, max_rows=1),
    )
    dom = Dom(page)
    names = list(table.systems)
    refs = [[ref[i] for i in rows] for ref in session.text.references]
    hyps = [[lines[i] for i in rows] for lines in session.text.systems]
    n_sys = len(names)
    corrected = bonferroni_alpha(n_sys)
    assert corrected == 0.05 / 10
    note = dom.one("h3", id="clusters")
    assert note.text() == "Significance clusters"
    assert f"the {len(rows):,} selected segments" in page and "0.05 / 10" in page
    # The metrics hold the references (sacreBLEU's reference cache, used when PairedTest is given
    # ``references=None``): their n-grams are extracted once, not again in each of the 50 runs.
    metrics = (
        ("bleu", BLEU(tokenize="zh", references=refs), "BLEU"),
        ("chrf", CHRF(references=refs), "chrF2"),
    )
    for key, metric, label in metrics:
        # sacreBLEU's p-value of every pair: each system the baseline in turn.
        theirs: dict[tuple[int, int], float] = {}
        for i in range(n_sys):
            order = [i, *(j for j in range(n_sys) if j != i)]
            with sacrebleu_seed(SEED):
                _, scores = PairedTest(
                    [(names[j], hyps[j]) for j in order],
                    {key: metric},
                    None,
                    test_type="bs",
                    n_samples=N_SAMPLES,
                )()
            for j, result in zip(order[1:], scores[label][1:], strict=True):
                theirs[i, j] = result.p_value
        # The matrix on the page: each p-value sacreBLEU's, starred at the corrected level.
        matrix = dom.one("table", class_="pairs", data_column=key)
        assert float(matrix.attrs["data-threshold"]) == corrected
        shown = [c for c in cells(matrix) if "data-value" in c.attrs]
        assert len(shown) == n_sys * (n_sys - 1)
        for cell in shown:
            i, j = int(cell.attrs["data-row"]), int(cell.attrs["data-system"])
            p = float(cell.attrs["data-value"])
            assert p == theirs[i, j] == theirs[j, i]
            starred = any("sig" in n.classes for n in cell.iter())
            assert starred == (p <= corrected)
            assert cell.text().startswith(f"{p:.4f}")
        # The clusters: the rule replayed on sacreBLEU's p-values and core's corpus scores.
        scores = [table.corpus(s, rows).values[key] for s in range(n_sys)]
        expected = rank_clusters(label, names, scores, lambda a, b, p=theirs: p[a, b])
        ranked = dom.one("table", class_="clusters", data_column=key)
        body = [r for r in ranked.find_all(lambda n: n.tag == "tr") if "data-cluster" in r.attrs]
        assert [names[int(r.attrs["data-ranked"])] for r in body] == list(expected.names)
        assert [int(r.attrs["data-cluster"]) for r in body] == list(expected.clusters)
        for row, score, p in zip(body, expected.scores, expected.p_values, strict=True):
            figures = [c for c in cells(row) if "data-value" in c.attrs]
            assert float(figures[0].attrs["data-value"]) == score
            if p is None:
                assert len(figures) == 1
            else:
                assert float(figures[1].attrs["data-value"]) == p
        # And the same clusters as core's own pairwise run.
        pairwise = pairwise_for_column(table, key, rows=rows, n_samples=N_SAMPLES, seed=SEED)
        ours = rank_clusters(label, names, pairwise.scores, pairwise.p_value)
        assert ours.clusters == expected.clusters and ours.names == expected.names
        assert max(expected.clusters) > 1  # the systems do not all tie
        assert expected.names[0] == "Online-B"  # ranked first: scored against its own output


@needs(EN_ZH)
def test_the_leak_is_said_at_the_top_of_the_report() -> None:
    session = en_zh_session()
    page = render_report(session, options=ReportOptions(max_rows=1))
    dom = Dom(page)
    (warning,) = dom.all("p", data_warning="reference-leak")
    text = session.text
    (message,) = reference_leaks(
        references=text.references,
        systems=text.systems,
        reference_names=("ref", "ref2"),
        system_names=text.system_names,
    )
    assert warning.text() == message
    assert message.startswith("ref2 looks made from Online-B's output: 373 of 2037 lines")
    header = dom.one("header")
    assert warning in list(header.iter())
    # Without --paired-bs there is no test, hence no cluster.
    assert not dom.all("table", class_="clusters") and "Significance clusters" not in page


def test_a_correction_too_strict_for_the_resamples_is_said() -> None:
    refs = [tuple(read_lines(SAMPLE / n)) for n in ("ref.en.txt", "ref2.en.txt")]
    paths = sorted(SAMPLE.glob("sys.*.txt"))
    text = CorpusText(
        references=tuple(refs),
        systems=tuple(tuple(read_lines(p)) for p in paths),
        system_names=tuple(p.stem.removeprefix("sys.") for p in paths),
    )
    config = ScoringConfig().with_metrics("bleu")
    session = ComparisonSession(text, config=config, table=score_corpus(text, config))
    few = ReportOptions(paired_bs=True, bootstrap_samples=100, max_rows=1)
    dom = Dom(render_report(session, options=few))
    # The sample's fluent output equals Ref 1 on 14 of 160 lines, the others on 1 or 2: the
    # page says what core's audit finds, no more.
    found = reference_leaks(
        references=text.references,
        systems=text.systems,
        reference_names=session.reference_names,
        system_names=text.system_names,
    )
    assert [w.text() for w in dom.all("p", data_warning="reference-leak")] == list(found)
    # 3 systems: 3 pairs, 0.05 / 3 = 0.0167, above 1/101: the matrix can mark a pair.
    assert bonferroni_alpha(3) > 1 / 101
    assert "no pair can reach the corrected level" not in str(
        dom.one("section", id="significance").text()
    )
    matrix = dom.one("table", class_="pairs", data_column="bleu")
    p_values = [float(c.attrs["data-value"]) for c in cells(matrix) if "data-value" in c.attrs]
    assert min(p_values) == pytest.approx(1 / 101)  # fluent, literal and rough differ clearly
    # With 20 resamples the smallest p-value, 1/21, is above 0.05 / 3: the page says so.
    dom = Dom(render_report(session, options=ReportOptions(paired_bs=True, bootstrap_samples=20)))
    section = dom.one("section", id="significance").text()
    assert "With 20 resamples no p-value is below 0.04762" in section
    matrix = dom.one("table", class_="pairs", data_column="bleu")
    assert not [n for n in matrix.iter() if "sig" in n.classes]
    assert not math.isnan(float(matrix.attrs["data-threshold"]))
