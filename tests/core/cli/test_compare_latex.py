"""``matchlight compare --latex``: the LaTeX table holds the run's own numbers (its JSON's
scores, p-values and clusters), equals what the app exports for the same rows and seed, and is
written like every other output (never over an input, checked before scoring)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from matchlight.core.cli import compare_main
from matchlight.core.report.latex import BETTER_MARK, WORSE_MARK, paired_latex_table
from matchlight.core.scoring.config import ScoringConfig
from matchlight.core.scoring.engine import score_corpus
from matchlight.core.text.corpus import CorpusText
from tests.conftest import SAMPLE
from tests.kit import read_lines

REFS = [SAMPLE / "ref.en.txt", SAMPLE / "ref2.en.txt"]
ORDER = ("literal", "fluent", "rough")  # the first is the baseline

pytestmark = pytest.mark.usefixtures("quiet_sacrebleu")


def _args(*extra: str) -> list[str]:
    args = [a for ref in REFS for a in ("--ref", str(ref))]
    args += [a for name in ORDER for a in ("--hyp", str(SAMPLE / f"sys.{name}.txt"))]
    return [*args, "--metrics", "bleu,chrf,rouge", "--quiet", *extra]


def _rows(tex: str) -> list[list[str]]:
    body = tex.split("\\midrule\n", 1)[1].split("\\bottomrule", 1)[0]
    return [
        [c.strip() for c in re.split(r"(?<!\\)&", line.removesuffix(" \\\\"))]
        for line in body.strip().split("\n")
    ]


def test_the_table_is_the_runs_numbers_and_the_apps(tmp_path: Path) -> None:
    tex_path, json_path = tmp_path / "scores.tex", tmp_path / "scores.json"
    extra = ["--paired-bs-n", "200", "--seed", "5"]
    assert compare_main(_args("--latex", str(tex_path), "--json", str(json_path), *extra)) == 0
    tex = tex_path.read_text(encoding="utf-8")
    payload = json.loads(json_path.read_text(encoding="utf-8"))
    columns = payload["columns"]
    assert columns == ["bleu", "chrf", "rouge1_f", "rouge2_f", "rougeL_f"]
    rows = _rows(tex)
    assert [r[0] for r in rows] == list(ORDER)
    for k, key in enumerate(columns):
        clusters = {c["system"]: c["cluster"] for c in payload["clusters"][key]}
        scores = {name: payload["systems"][name][key]["score"] for name in ORDER}
        best = max(round(v, 2) for v in scores.values())
        for s, name in enumerate(ORDER):
            cell, rank = rows[s][1 + 2 * k], rows[s][2 + 2 * k]
            shown = f"{scores[name]:.2f}"
            assert cell.startswith(
                f"\\textbf{{{shown}}}" if round(scores[name], 2) == best else shown
            )
            p = payload["systems"][name][key].get("p_value")
            if p is None or p > 0.05:
                assert not cell.endswith((BETTER_MARK, WORSE_MARK))
            else:
                better = scores[name] > scores[ORDER[0]]
                assert cell.endswith(BETTER_MARK if better else WORSE_MARK)
            assert int(rank) == clusters[name]
    for key, signature in payload["signatures"].items():
        assert f"% {key}: {signature}" in tex
    # The app's File > Export LaTeX table: the same table for the same rows, seed and baseline.
    text = CorpusText(
        references=tuple(tuple(read_lines(r)) for r in REFS),
        systems=tuple(tuple(read_lines(SAMPLE / f"sys.{n}.txt")) for n in ORDER),
        system_names=ORDER,
    )
    config = ScoringConfig().with_metrics(("bleu", "chrf", "rouge"))
    table = score_corpus(text, config, workers=1)
    assert paired_latex_table(table, baseline=0, n_samples=200, seed=5) == tex


def test_approximate_randomization_alone_is_said(tmp_path: Path) -> None:
    out = tmp_path / "ar.tex"
    assert compare_main(_args("--paired-ar", "--paired-ar-n", "500", "--latex", str(out))) == 0
    tex = out.read_text(encoding="utf-8")
    assert "paired approximate randomization, 500 trials, seed 12345" in tex
    assert "|ar:500|seed:12345|" in tex


def test_an_input_or_a_clash_is_refused_before_scoring(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import matchlight.core.cli.streaming as streaming

    def never(*args: object, **kwargs: object) -> object:
        raise AssertionError("scored")

    monkeypatch.setattr(streaming, "open_command_engine", never)
    target = SAMPLE / "sys.rough.txt"
    before = target.read_bytes()
    assert compare_main(_args("--latex", str(target))) == 2
    assert "sys.rough.txt" in capsys.readouterr().err
    assert target.read_bytes() == before
    same = tmp_path / "out"
    assert compare_main(_args("--latex", str(same), "--json", str(same))) == 2
    err = capsys.readouterr().err
    assert "--latex" in err and "--json" in err and not same.exists()
