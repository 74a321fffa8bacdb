"""``matchlight score``: the headless command prints and writes the engine's numbers."""

from __future__ import annotations

import csv
import json
import subprocess
import sys
from pathlib import Path

import pytest
import sacrebleu
from rouge_score import rouge_scorer

from matchlight.core.cli import main
from matchlight.core.io.export import sidecar_path, write_csv
from matchlight.core.scoring.config import ScoringConfig
from matchlight.core.scoring.engine import score_corpus
from matchlight.core.text.corpus import CorpusText
from tests.conftest import ROOT, SAMPLE

REFS = [SAMPLE / "ref.en.txt", SAMPLE / "ref2.en.txt"]
SYSTEMS = sorted(SAMPLE.glob("sys.*.txt"))


def _lines(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").splitlines()


def _args(*extra: str) -> list[str]:
    args: list[str] = []
    for ref in REFS:
        args += ["--ref", str(ref)]
    for system in SYSTEMS:
        args += ["--hyp", str(system)]
    return [*args, "--src", str(SAMPLE / "src.de.txt"), *extra]


def test_csv_has_every_row_and_reference_values(tmp_path: Path, capsys) -> None:
    out = tmp_path / "scores.csv"
    assert main(_args("--csv", str(out))) == 0
    with out.open(encoding="utf-8", newline="") as handle:
        rows = list(csv.DictReader(handle))
    refs = [_lines(p) for p in REFS]
    n = len(refs[0])
    assert len(rows) == n * len(SYSTEMS)
    required = {"system", "segment", "bleu", "hyp_len", "ref_len"} | {
        f"rouge{t}_{x}" for t in ("1", "2", "L") for x in "prf"
    }
    assert required <= set(rows[0])
    scorer = rouge_scorer.RougeScorer(["rouge1", "rouge2", "rougeL"])
    by_system = {p.stem.removeprefix("sys."): _lines(p) for p in SYSTEMS}
    for row in rows[:: max(1, len(rows) // 120)]:
        i = int(row["segment"]) - 1
        hyp = by_system[row["system"]][i]
        refs_i = [r[i] for r in refs]
        # Full precision: the written text is the repr of the float.
        assert float(row["bleu"]) == pytest.approx(
            sacrebleu.sentence_bleu(hyp, refs_i).score, abs=1e-9
        )
        expected = scorer.score_multi(refs_i, hyp)
        for t in ("1", "2", "L"):
            assert float(row[f"rouge{t}_f"]) == pytest.approx(
                100 * expected[f"rouge{t}"].fmeasure, abs=1e-9
            )
        assert repr(float(row["bleu"])) == row["bleu"]
    meta = json.loads(sidecar_path(out).read_text(encoding="utf-8"))
    assert meta["signature"].startswith("BLEU nrefs:2|case:mixed|eff:yes|tok:13a|smooth:exp")
    printed = capsys.readouterr().out
    assert "signature: BLEU nrefs:2" in printed
    for system in SYSTEMS:
        corpus = sacrebleu.corpus_bleu(_lines(system), refs).score
        assert f"{corpus:.2f}" in printed


def test_json_has_corpus_scores(tmp_path: Path) -> None:
    out = tmp_path / "scores.json"
    assert main(_args("--json", str(out), "--lowercase", "--tokenize", "intl")) == 0
    payload = json.loads(out.read_text(encoding="utf-8"))
    refs = [_lines(p) for p in REFS]
    for system in SYSTEMS:
        entry = payload["systems"][system.stem.removeprefix("sys.")]
        want = sacrebleu.corpus_bleu(_lines(system), refs, lowercase=True, tokenize="intl")
        assert entry["bleu"] == pytest.approx(want.score, abs=1e-9)
        assert "tok:intl" in entry["signature"] and "case:lc" in entry["signature"]
        assert 0 <= entry["rouge1_f"] <= 100


def test_cli_csv_equals_export_of_the_same_table(tmp_path: Path) -> None:
    cli_out = tmp_path / "cli.csv"
    assert main(_args("--csv", str(cli_out), "--smooth", "floor", "--rouge-stem")) == 0
    text = CorpusText(
        references=tuple(tuple(_lines(p)) for p in REFS),
        systems=tuple(tuple(_lines(p)) for p in SYSTEMS),
        system_names=tuple(p.stem.removeprefix("sys.") for p in SYSTEMS),
    )
    table = score_corpus(text, ScoringConfig(smooth_method="floor", rouge_stem=True))
    direct = tmp_path / "direct.csv"
    write_csv(direct, table)
    assert cli_out.read_bytes() == direct.read_bytes()


def test_named_systems_and_multiple_processes(tmp_path: Path) -> None:
    out = tmp_path / "s.csv"
    args = ["--ref", str(REFS[0]), "--hyp", f"best={SYSTEMS[0]}", "--hyp", f"other={SYSTEMS[1]}"]
    assert main([*args, "--csv", str(out), "--workers", "2"]) == 0
    single = tmp_path / "single.csv"
    assert main([*args, "--csv", str(single)]) == 0
    assert out.read_bytes() == single.read_bytes()
    systems = {row["system"] for row in csv.DictReader(out.open(encoding="utf-8"))}
    assert systems == {"best", "other"}


def test_line_count_mismatch_names_every_file(tmp_path: Path, capsys) -> None:
    short = tmp_path / "short.txt"
    short.write_text("only one line\n", encoding="utf-8")
    code = main(["--ref", str(REFS[0]), "--hyp", str(short), "--hyp", str(SYSTEMS[0])])
    err = capsys.readouterr().err
    assert code == 2
    assert "short.txt" in err and "ref.en.txt" in err and SYSTEMS[0].name in err
    assert "Traceback" not in err


def test_binary_file_is_refused_without_traceback(tmp_path: Path) -> None:
    blob = tmp_path / "blob.txt"
    blob.write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 4)
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "matchlight.gui.shell.launcher",
            "score",
            "--ref",
            str(blob),
            "--hyp",
            str(blob),
        ],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert result.returncode == 2
    assert "blob.txt" in result.stderr
    assert "Traceback" not in result.stderr


def test_bad_option_values_are_rejected(capsys) -> None:
    with pytest.raises(SystemExit) as exc:
        main(_args("--max-order", "0"))
    assert exc.value.code == 2
    assert "max-order" in capsys.readouterr().err
