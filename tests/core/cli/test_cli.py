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
from tests.kit import read_lines

REFS = [SAMPLE / "ref.en.txt", SAMPLE / "ref2.en.txt"]
SYSTEMS = sorted(SAMPLE.glob("sys.*.txt"))


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
    refs = [read_lines(p) for p in REFS]
    n = len(refs[0])
    assert len(rows) == n * len(SYSTEMS)
    required = {"system", "segment", "bleu", "hyp_len", "ref_len"} | {
        f"rouge{t}_{x}" for t in ("1", "2", "L") for x in "prf"
    }
    assert required <= set(rows[0])
    scorer = rouge_scorer.RougeScorer(["rouge1", "rouge2", "rougeL"])
    by_system = {p.stem.removeprefix("sys."): read_lines(p) for p in SYSTEMS}
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
    assert (
        meta["signatures"]["bleu_sentence"]
        == "nrefs:2|case:mixed|eff:yes|tok:13a|smooth:exp|version:2.6.0"
    )
    printed = capsys.readouterr().out
    assert "bleu signature: nrefs:2|case:mixed|eff:no|tok:13a|smooth:exp|version:2.6.0" in printed
    for system in SYSTEMS:
        corpus = sacrebleu.corpus_bleu(read_lines(system), refs).score
        assert f"{corpus:.2f}" in printed


def test_json_has_corpus_scores(tmp_path: Path) -> None:
    out = tmp_path / "scores.json"
    assert main(_args("--json", str(out), "--lowercase", "--tokenize", "intl")) == 0
    payload = json.loads(out.read_text(encoding="utf-8"))
    refs = [read_lines(p) for p in REFS]
    for system in SYSTEMS:
        entry = payload["systems"][system.stem.removeprefix("sys.")]
        want = sacrebleu.corpus_bleu(read_lines(system), refs, lowercase=True, tokenize="intl")
        assert entry["bleu"] == pytest.approx(want.score, abs=1e-9)
        assert "tok:intl" in entry["bleu_signature"] and "case:lc" in entry["bleu_signature"]
        assert 0 <= entry["rouge1_f"] <= 100


def test_cli_csv_equals_export_of_the_same_table(tmp_path: Path) -> None:
    cli_out = tmp_path / "cli.csv"
    assert main(_args("--csv", str(cli_out), "--smooth", "floor", "--rouge-stem")) == 0
    text = CorpusText(
        references=tuple(tuple(read_lines(p)) for p in REFS),
        systems=tuple(tuple(read_lines(p)) for p in SYSTEMS),
        system_names=tuple(p.stem.removeprefix("sys.") for p in SYSTEMS),
    )
    config = ScoringConfig().apply({"bleu": {"smooth_method": "floor"}, "rouge": {"stem": True}})
    table = score_corpus(text, config)
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


# -- honest reporting ---------------------------------------------------------------------------


def _sample_args(*extra: str) -> list[str]:
    return [*(a for r in REFS for a in ("--ref", str(r))), "--hyp", str(SYSTEMS[0]), *extra]


@pytest.mark.parametrize(
    ("options", "bleu_kwargs"),
    [
        ([], {}),
        (["--lowercase", "--tokenize", "intl"], {"lowercase": True, "tokenize": "intl"}),
        (
            ["--smooth", "floor", "--smooth-value", "0.2"],
            {"smooth_method": "floor", "smooth_value": 0.2},
        ),
        (["--smooth", "add-k"], {"smooth_method": "add-k"}),
        (["--no-effective-order", "--tokenize", "char"], {"tokenize": "char"}),
    ],
)
def test_json_bleu_signature_is_sacrebleus(
    tmp_path: Path, options: list[str], bleu_kwargs: dict[str, object]
) -> None:
    """systems.NAME.bleu_signature is what sacreBLEU's own corpus_score reports: eff:no for the
    corpus figure, sacreBLEU's version, nothing glued on."""
    from sacrebleu.metrics.bleu import BLEU

    out = tmp_path / "s.json"
    assert main(_sample_args("--json", str(out), *options)) == 0
    payload = json.loads(out.read_text(encoding="utf-8"))
    (entry,) = payload["systems"].values()
    metric = BLEU(**bleu_kwargs)  # type: ignore[arg-type]
    corpus = metric.corpus_score(read_lines(SYSTEMS[0]), [read_lines(r) for r in REFS])
    assert entry["bleu_signature"] == str(metric.get_signature())
    assert entry["bleu"] == pytest.approx(corpus.score, abs=1e-9)
    assert payload["signatures"]["bleu"] == str(metric.get_signature())
    assert (
        "rouge" in entry["rouge_signature"]
        and "version:rouge-score-0.1.2" in entry["rouge_signature"]
    )
    assert payload["matchlight_version"]


def test_json_is_strict_and_rows_without_a_score_are_null_and_reported(
    tmp_path: Path, capsys
) -> None:
    """NLTK's method6 fails on short segments: those rows have no score; the JSON says null
    (never a bare NaN), and stderr says how many rows and why."""
    ref = tmp_path / "ref.txt"
    hyp = tmp_path / "hyp.txt"
    ref.write_text("a b\nthe cat sat on the mat today\n", encoding="utf-8")
    hyp.write_text("a b\nthe cat sat on the mat today\n", encoding="utf-8")
    out = tmp_path / "s.json"
    csv_out = tmp_path / "s.csv"
    code = main(
        [
            "--ref", str(ref), "--hyp", str(hyp), "--metrics", "nltk-bleu,bleu",
            "--nltk-smoothing", "method6", "--json", str(out), "--csv", str(csv_out),
        ]
    )  # fmt: skip
    assert code == 0
    text = out.read_text(encoding="utf-8")
    payload = json.loads(text, parse_constant=lambda c: pytest.fail(f"bare {c} in the JSON"))
    (entry,) = payload["systems"].values()
    assert entry["no_score"] == {"nltk_bleu": 1}
    err = capsys.readouterr().err
    assert "NLTK-BLEU has no score on 1 of 2 rows" in err and "method6" in err
    rows = list(csv.DictReader(csv_out.open(encoding="utf-8")))
    assert rows[0]["nltk_bleu"] == "" and float(rows[1]["nltk_bleu"]) == pytest.approx(100.0)


def test_zero_segments_is_an_error(tmp_path: Path, capsys) -> None:
    empty = tmp_path / "empty.txt"
    empty.write_text("", encoding="utf-8")
    assert main(["--ref", str(empty), "--hyp", str(empty)]) == 2
    assert "no segments" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("option", "value", "message"),
    [
        ("--lsum-sep", "\\", "--lsum-sep"),
        ("--lsum-sep", "\\x", "--lsum-sep"),
        ("--lsum-sep", "", "--lsum-sep"),
        ("--smooth-value", "nan", "finite"),
        ("--smooth-value", "inf", "finite"),
        ("--smooth-value", "-1", "at least 0"),
        ("--max-order", "0", "1 to 9"),
        ("--metrics", "bleu,meteor", "unknown metric"),
        ("--segments", "5-2", "backwards"),
        ("--segments", "1-99999", "outside"),
        ("--csv", "", "needs a file name"),
    ],
)
def test_bad_options_are_usage_errors(option: str, value: str, message: str, capsys) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(_sample_args(option, value))
    assert exit_info.value.code == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err


def test_lsum_sep_none_warns(capsys) -> None:
    assert main(_sample_args("--lsum-sep", "none")) == 0
    assert capsys.readouterr().err.count("ROUGE-Lsum equals ROUGE-L on every row") == 1


def test_segments_reproduce_the_subset(tmp_path: Path) -> None:
    """--segments gives the corpus figures of exactly those rows (sacreBLEU on those lines)."""
    out = tmp_path / "s.json"
    assert main(_sample_args("--segments", "1-20,41,100-", "--json", str(out))) == 0
    payload = json.loads(out.read_text(encoding="utf-8"))
    rows = [*range(0, 20), 40, *range(99, 160)]
    assert payload["segments"] == len(rows) and payload["segment_list"] == "1-20,41,100-160"
    hyps = read_lines(SYSTEMS[0])
    refs = [read_lines(r) for r in REFS]
    want = sacrebleu.corpus_bleu([hyps[i] for i in rows], [[r[i] for i in rows] for r in refs])
    (entry,) = payload["systems"].values()
    assert entry["bleu"] == pytest.approx(want.score, abs=1e-9)
    assert entry["segments"] == len(rows)


def test_the_sentence_marker_is_not_a_word(tmp_path: Path) -> None:
    ref = tmp_path / "ref.txt"
    hyp = tmp_path / "hyp.txt"
    ref.write_text("the cat sat . <n> it slept on the mat .\n", encoding="utf-8")
    hyp.write_text("a cat sat . <n> it slept on a mat .\n", encoding="utf-8")
    out = tmp_path / "s.json"
    assert (
        main(["--ref", str(ref), "--hyp", str(hyp), "--lsum-sep", "<n>", "--json", str(out)]) == 0
    )
    (entry,) = json.loads(out.read_text(encoding="utf-8"))["systems"].values()
    want = sacrebleu.corpus_bleu(
        ["a cat sat . it slept on a mat ."], [["the cat sat . it slept on the mat ."]]
    )
    assert entry["bleu"] == pytest.approx(want.score, abs=1e-9)


def test_an_output_over_an_input_is_refused_before_scoring(tmp_path: Path, capsys) -> None:
    ref = tmp_path / "ref.txt"
    ref.write_text("a b c\n", encoding="utf-8")
    before = ref.read_bytes()
    assert main(["--ref", str(ref), "--hyp", str(ref), "--csv", str(ref)]) == 2
    assert ref.read_bytes() == before
    err = capsys.readouterr().err
    assert str(ref) in err and "input" in err


def test_ctrl_c_exits_130_with_one_line(monkeypatch, capsys, tmp_path: Path) -> None:
    import matchlight.core.cli.streaming as streaming

    def interrupted(*args: object, **kwargs: object) -> object:
        raise KeyboardInterrupt

    monkeypatch.setattr(streaming, "ordered", interrupted)
    out = tmp_path / "s.csv"
    assert main(_sample_args("--csv", str(out))) == 130
    err = capsys.readouterr().err
    assert err.strip() == "matchlight: interrupted"
    assert sorted(tmp_path.iterdir()) == []  # no CSV, no sidecar, no temporary file


# -- hostile arguments and outputs -------------------------------------------------------------

HUGE = "9" * 5000


@pytest.mark.parametrize(
    ("option", "value", "message"),
    [
        ("--segments", HUGE, "segment list part '9999999999"),
        ("--segments", f"1-{HUGE}", "is outside 1-160"),
        ("--segments", f"{HUGE}-", "is outside 1-160"),
        ("--segments", "1," * 3000 + "x", "segment list part 'x' is not N, A-B"),
        ("--max-order", HUGE, "'9999999999"),
        ("--workers", HUGE, "is not a whole number"),
        ("--smooth-value", "1" * 5000, "is not a number"),
        ("--smooth-value", "1e999", "finite"),
    ],
)
def test_hostile_numbers_are_usage_errors_with_a_short_message(
    option: str, value: str, message: str, capsys
) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(_sample_args(option, value))
    assert exit_info.value.code == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err
    assert len(err) < 500


def _never_scores(monkeypatch: pytest.MonkeyPatch) -> None:
    import matchlight.core.cli.streaming as streaming

    def scoring(*args: object, **kwargs: object) -> object:
        pytest.fail("scored before checking the outputs")

    monkeypatch.setattr(streaming, "open_command_engine", scoring)


def test_csv_and_json_naming_one_file_are_refused_before_scoring(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys
) -> None:
    _never_scores(monkeypatch)
    out = tmp_path / "out"
    assert main(_sample_args("--csv", str(out), "--json", str(out))) == 2
    assert capsys.readouterr().err == (
        f"matchlight: error: {out}: --json and --csv name the same file; give each output its "
        "own file name\n"
    )
    side = sidecar_path(tmp_path / "s.csv")
    assert main(_sample_args("--csv", str(tmp_path / "s.csv"), "--json", str(side))) == 2
    assert capsys.readouterr().err == (
        f"matchlight: error: {side}: --json and --csv's sidecar name the same file; give each "
        "output its own file name\n"
    )
    assert sorted(tmp_path.iterdir()) == []


@pytest.mark.parametrize("option", ["--csv", "--json"])
def test_an_output_over_a_session_is_refused_before_scoring(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys, option: str
) -> None:
    from matchlight.core.session.store import SessionInput, SessionStore

    session = tmp_path / "work.matchlight"
    ref = SessionInput.from_file(REFS[0], role="reference")
    SessionStore.create(session, inputs=[ref], settings={}).close()
    before = session.read_bytes()
    _never_scores(monkeypatch)
    assert main(_sample_args(option, str(session))) == 2
    err = capsys.readouterr().err
    assert err == (
        f"matchlight: error: {session}: is a Matchlight session (.matchlight); refusing to write "
        "an export over it (choose another file name)\n"
    )
    assert session.read_bytes() == before
    renamed = tmp_path / "work.db"  # a session is known by its header, whatever its name
    session.rename(renamed)
    assert main(_sample_args(option, str(renamed))) == 2
    assert "is a Matchlight session; refusing" in capsys.readouterr().err
    assert renamed.read_bytes() == before


def test_report_refuses_a_hostile_baseline_with_a_message(tmp_path: Path, capsys) -> None:
    from matchlight.core.cli.report import main as report_main

    code = report_main(_sample_args("--out", str(tmp_path / "r.html"), "--baseline", HUGE))
    err = capsys.readouterr().err
    assert code == 2 and "no system '99999999" in err and "Traceback" not in err
    assert len(err) < 500
