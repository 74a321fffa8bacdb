"""The LaTeX table of corpus scores (:mod:`core.report.latex`): its structure, its numbers
(core's corpus figures and paired tests, sacreBLEU's for BLEU and chrF), escaping, a
lower-is-better column, and (where ``pdflatex`` is installed) that it compiles and prints
every hostile name literally."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest
import sacrebleu
from sacrebleu.metrics import BLEU
from sacrebleu.significance import PairedTest

from matchlight.core.analysis.clusters import system_clusters
from matchlight.core.analysis.columnstats import significance_by_column
from matchlight.core.io.safewrite import WriteError
from matchlight.core.metrics.base import ScoreColumn
from matchlight.core.report.latex import (
    BETTER_MARK,
    WORSE_MARK,
    LatexColumn,
    latex_escape,
    latex_table,
    paired_latex_table,
    write_latex,
)
from matchlight.core.scoring.config import ScoringConfig
from matchlight.core.scoring.engine import score_corpus
from matchlight.core.scoring.results import ScoreTable
from matchlight.core.text.corpus import CorpusText
from tests.conftest import SAMPLE
from tests.kit import read_lines
from tests.refs import sacrebleu_seed

PDFLATEX = shutil.which("pdflatex")
PDFTOTEXT = shutil.which("pdftotext")
HOSTILE = r"A_&_50%#1 {x} $y$ ~z^ \cmd <a>|b -- c"

pytestmark = pytest.mark.usefixtures("quiet_sacrebleu")


def sample_table(names: tuple[str, ...] = ("fluent", "literal", "rough")) -> ScoreTable:
    refs = tuple(tuple(read_lines(SAMPLE / n)) for n in ("ref.en.txt", "ref2.en.txt"))
    systems = tuple(
        tuple(read_lines(SAMPLE / f"sys.{n}.txt")) for n in ("fluent", "literal", "rough")
    )
    text = CorpusText(references=refs, systems=systems, system_names=names)
    return score_corpus(text, ScoringConfig().with_metrics(("bleu", "chrf")), workers=1)


def body_rows(tex: str) -> list[list[str]]:
    """The cells of the rows between \\midrule and \\bottomrule (split at unescaped &)."""
    body = tex.split("\\midrule\n", 1)[1].split("\\bottomrule", 1)[0]
    return [
        [cell.strip() for cell in re.split(r"(?<!\\)&", line.removesuffix(" \\\\"))]
        for line in body.strip().split("\n")
    ]


def test_escaping_prints_every_character_literally() -> None:
    assert latex_escape("a_b") == r"a\_b"
    assert latex_escape("50% & #1") == r"50\% \& \#1"
    assert latex_escape("{$x$}") == r"\{\$x\$\}"
    assert latex_escape("^~\\") == r"\textasciicircum{}\textasciitilde{}\textbackslash{}"
    assert latex_escape("<|>") == r"\textless{}\textbar{}\textgreater{}"
    assert latex_escape("a--b---c") == "a-{}-b-{}-{}-c"
    assert latex_escape("two\nlines\tand\x00nul") == "two lines and nul"
    assert latex_escape("Größe naïve") == "Größe naïve"
    escaped = latex_escape(HOSTILE)
    # No special character is left bare.
    assert not re.search(r"(?<!\\)[&%#$_{}]", re.sub(r"\\[a-z]+\{\}|-\{\}", "", escaped))


def test_the_table_holds_cores_figures_tests_and_clusters() -> None:
    table = sample_table()
    tex = paired_latex_table(table, baseline=1, n_samples=200, seed=3)
    assert tex.count("\\begin{tabular}{lrrrr}") == 1
    assert "\\toprule" in tex and "\\midrule" in tex and "\\bottomrule" in tex
    assert "\\cmidrule(lr){2-3}\\cmidrule(lr){4-5}" in tex
    assert "\\multicolumn{2}{c}{BLEU} & \\multicolumn{2}{c}{chrF2}" in tex
    tests = significance_by_column(table, ["bleu", "chrf"], baseline=1, n_samples=200, seed=3)
    rows = body_rows(tex)
    assert [r[0] for r in rows] == ["fluent", "literal", "rough"]
    for k, test in enumerate(tests):
        assert test.result is not None
        lines = {line.name: line for line in test.result.systems}
        clusters = system_clusters(table, test.column.key, n_samples=200, seed=3)
        best = max(lines[n].score for n in table.systems)
        for s, name in enumerate(table.systems):
            score, cluster = rows[s][1 + 2 * k], rows[s][2 + 2 * k]
            number = f"{lines[name].score:.2f}"
            bold = lines[name].score == best
            assert score.startswith(f"\\textbf{{{number}}}" if bold else number)
            p = lines[name].p_value
            if p is None or p > 0.05:
                assert BETTER_MARK not in score and WORSE_MARK not in score
            else:
                way = BETTER_MARK if lines[name].score > lines["literal"].score else WORSE_MARK
                assert score.endswith(way)
            assert int(cluster) == clusters.cluster_of(name)
    # The figures are sacreBLEU's corpus BLEU and chrF.
    refs = [read_lines(SAMPLE / n) for n in ("ref.en.txt", "ref2.en.txt")]
    for s, name in enumerate(table.systems):
        hyps = read_lines(SAMPLE / f"sys.{name}.txt")
        assert f"{sacrebleu.corpus_bleu(hyps, refs).score:.2f}" in rows[s][1]
        assert f"{sacrebleu.corpus_chrf(hyps, refs).score:.2f}" in rows[s][3]
    assert "the baseline, literal (paired bootstrap resampling, 200 resamples, seed 3" in tex
    assert "Corpus scores on 160 segments" in tex


def test_p_values_are_sacrebleus_paired_bootstrap() -> None:
    """The daggers: sacreBLEU's own PairedTest against the same baseline, same seed."""
    table = sample_table()
    tex = paired_latex_table(table, baseline=0, keys=["bleu"], n_samples=300, seed=11)
    refs = [read_lines(SAMPLE / n) for n in ("ref.en.txt", "ref2.en.txt")]
    systems = [(n, read_lines(SAMPLE / f"sys.{n}.txt")) for n in table.systems]
    with sacrebleu_seed(11):
        _, scores = PairedTest(systems, {"bleu": BLEU()}, refs, test_type="bs", n_samples=300)()
    rows = body_rows(tex)
    for s, result in enumerate(scores["BLEU"]):
        if s == 0:
            assert BETTER_MARK not in rows[s][1] and WORSE_MARK not in rows[s][1]
            continue
        marked = rows[s][1].endswith((BETTER_MARK, WORSE_MARK))
        assert marked == (result.p_value <= 0.05)
        assert rows[s][1].endswith(WORSE_MARK) == (
            marked and result.score < scores["BLEU"][0].score
        )


def test_lower_is_better_and_equal_printed_scores() -> None:
    mqm = ScoreColumn("mqm", "MQM", "MQM", "mqm", "penalty", better="lower", decimals=2)
    column = LatexColumn(mqm, (3.1234, 1.004, 0.996, 5.0), (None, 0.01, 0.2, 0.001), (2, 1, 1, 3))
    tex = latex_table(
        systems=("base", "b", "c", "d"),
        baseline=0,
        columns=[column],
        test="ar",
        n_samples=10_000,
        seed=1,
        n_segments=42,
    )
    rows = body_rows(tex)
    # corpus precision: one more decimal than the column's.
    assert [r[1] for r in rows] == [
        "3.123",
        f"1.004{BETTER_MARK}",
        "\\textbf{0.996}",
        f"5.000{WORSE_MARK}",
    ]
    assert [r[2] for r in rows] == ["2", "1", "1", "3"]
    assert "Lower is better for MQM." in tex
    assert "approximate randomization, 10{,}000 trials, seed 1" in tex
    # Two systems printed the same: both bold.
    tied = LatexColumn(mqm, (1.0001, 1.0002, 2.0), (None, 0.5, 0.5), None)
    tex = latex_table(
        systems=("a", "b", "c"), baseline=0, columns=[tied], test="bs", n_samples=9, seed=0,
        n_segments=3,
    )  # fmt: skip
    assert [r[1] for r in body_rows(tex)] == ["\\textbf{1.000}", "\\textbf{1.000}", "2.000"]
    assert "Cl." not in tex and "\\cmidrule" not in tex


def test_bad_shapes_are_refused() -> None:
    bleu = ScoreColumn("bleu", "BLEU", "BLEU", "bleu", "corpus BLEU")
    with pytest.raises(ValueError, match="one score per system"):
        latex_table(
            systems=("a", "b"), baseline=0, columns=[LatexColumn(bleu, (1.0,), (None,), None)],
            test="bs", n_samples=1, seed=0, n_segments=1,
        )  # fmt: skip
    with pytest.raises(ValueError, match="no system 3"):
        latex_table(
            systems=("a", "b"), baseline=2, columns=[], test="bs", n_samples=1, seed=0,
            n_segments=1,
        )  # fmt: skip


def test_write_latex_never_replaces_an_input(tmp_path: Path) -> None:
    source = tmp_path / "sys.a.txt"
    source.write_text("a\n", encoding="utf-8")
    with pytest.raises(WriteError, match="input"):
        write_latex(source, "x", protect=[source])
    assert source.read_text(encoding="utf-8") == "a\n"
    out = write_latex(tmp_path / "t.tex", "\\begin{table}\n")
    assert out.read_text(encoding="utf-8") == "\\begin{table}\n"


@pytest.mark.skipif(PDFLATEX is None, reason="pdflatex is not installed (a LaTeX distribution)")
def test_the_table_compiles_and_prints_hostile_names_literally(tmp_path: Path) -> None:
    table = sample_table(names=(HOSTILE, "naïve--Öl", "rough"))
    tex = paired_latex_table(table, baseline=0, n_samples=100)
    (tmp_path / "table.tex").write_text(tex, encoding="utf-8")
    (tmp_path / "paper.tex").write_text(
        "\\documentclass{article}\n\\usepackage[T1]{fontenc}\n\\usepackage{booktabs}\n"
        "\\begin{document}\n\\input{table}\n\\end{document}\n",
        encoding="utf-8",
    )
    assert PDFLATEX is not None
    done = subprocess.run(
        [PDFLATEX, "-interaction=nonstopmode", "-halt-on-error", "paper.tex"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    log = (tmp_path / "paper.log").read_text(encoding="latin-1")
    assert done.returncode == 0, log[-2000:]
    assert "Undefined control sequence" not in log and "Missing $" not in log
    assert (tmp_path / "paper.pdf").stat().st_size > 0
    if PDFTOTEXT is None:
        return
    shown = subprocess.run(
        [PDFTOTEXT, "-layout", "paper.pdf", "-"], cwd=tmp_path, capture_output=True, text=True,
        check=True,
    ).stdout  # fmt: skip
    flat = " ".join(shown.split())
    assert " ".join(HOSTILE.split()) in flat
    assert "naïve--Öl" in flat
    assert f"{table.corpus(2).value('bleu'):.2f}" in flat
