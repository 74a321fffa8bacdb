"""``matchlight compare``: sacreBLEU 2.6.0's paired tests from the command line.

sacreBLEU itself is the oracle: its ``PairedTest`` in this process (on the texts the command
reads) and its own command line (on files holding the rows ``--segments`` picks). p-values must
be equal exactly; scores, bootstrap means and half-widths within 1e-4. ROUGE, which sacreBLEU
does not have, is checked against the same test written plainly in numpy with sacreBLEU's
materialised index matrix, and NLTK-BLEU against NLTK's own ``corpus_bleu`` of every resample.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from sacrebleu.metrics import BLEU, CHRF
from sacrebleu.significance import PairedTest

from matchlight.core.cli import compare_main
from matchlight.core.scoring.config import ScoringConfig
from matchlight.core.scoring.engine import score_corpus
from matchlight.core.text.corpus import corpus_text_from_lines
from tests.conftest import ROOT, SAMPLE, SHARED_DATA
from tests.kit import needs, read_lines
from tests.refs import sacrebleu_seed

DE_EN = SHARED_DATA / "wmt22-de-en"
EN_ZH = SHARED_DATA / "wmt22-en-zh"
SACREBLEU_CLI = Path(sys.executable).with_name("sacrebleu")

SAMPLE_REFS = [SAMPLE / "ref.en.txt", SAMPLE / "ref2.en.txt"]
SAMPLE_SYSTEMS = sorted(SAMPLE.glob("sys.*.txt"))
ROUGE_COLUMNS = ("rouge1_f", "rouge2_f", "rougeL_f")


pytestmark = pytest.mark.usefixtures("quiet_sacrebleu")


def folder_files(folder: Path) -> tuple[list[Path], list[Path]]:
    refs = [p for p in (folder / "ref.txt", folder / "ref2.txt") if p.exists()]
    return refs, sorted(folder.glob("sys.*.txt"))


def system_name(path: Path) -> str:
    return path.name.removeprefix("sys.").removesuffix(".txt")


def inputs(refs: Sequence[Path], systems: Sequence[Path], named: bool = False) -> list[str]:
    args: list[str] = []
    for ref in refs:
        args += ["--ref", str(ref)]
    for system in systems:
        args += ["--hyp", f"{system.name}={system}" if named else str(system)]
    return args


def run_json(tmp_path: Path, args: Sequence[str], name: str = "out.json") -> dict[str, Any]:
    """Run the command with ``--json`` and read the file as strict JSON."""
    out = tmp_path / name
    assert compare_main([*args, "--json", str(out), "--quiet"]) == 0
    text = out.read_text(encoding="utf-8")
    return dict(json.loads(text, parse_constant=lambda c: pytest.fail(f"bare {c} in the JSON")))


def sacrebleu_paired(
    metrics: dict[str, Any],
    systems: Sequence[tuple[str, Sequence[str]]],
    refs: Sequence[Sequence[str]],
    *,
    test: str,
    n_samples: int,
    seed: int,
) -> tuple[dict[str, list[Any]], dict[str, str]]:
    """sacreBLEU's PairedTest as its command line runs it (each metric class made with the
    references, whose statistics it caches, and ``references=None``): results per score name
    (baseline first) and signatures."""
    made = {name: metric(references=[list(r) for r in refs]) for name, metric in metrics.items()}
    with sacrebleu_seed(seed):
        paired = PairedTest(list(systems), made, None, test_type=test, n_samples=n_samples)
        signatures, scores = paired()
    scores.pop("System")
    return scores, {name: sig.format() for name, sig in signatures.items()}


def assert_matches(entry: dict[str, Any], result: Any, *, baseline: bool, key: str) -> None:
    """Our JSON figures against one sacreBLEU ``Result``: p exactly, the rest within 1e-4."""
    assert entry["score"] == pytest.approx(float(result.score), abs=1e-4)
    if result.mean is None:
        assert entry["mean"] is None and entry["ci"] is None
    else:
        assert entry["mean"] == pytest.approx(float(result.mean), abs=1e-4)
        assert entry["ci"] == pytest.approx(float(result.ci), abs=1e-4)
    if baseline:
        assert key not in entry
    else:
        assert entry[key] == result.p_value


def numpy_mean_test(
    values: Sequence[np.ndarray], test: str, n: int, seed: int
) -> list[tuple[float, float | None, float | None, float | None]]:
    """The paired test of a mean of segment scores written plainly: sacreBLEU's index matrix
    (or boolean matrix) materialised, its estimate_ci and "+1" p-value."""
    base = values[0]
    size = len(base)
    real = [abs(base.mean() - x.mean()) for x in values]
    out: list[tuple[float, float | None, float | None, float | None]] = []
    if test == "bs":
        idx = np.random.default_rng(seed).choice(size, size=(n, size))
        means = [x[idx].sum(axis=1) / size for x in values]
        for i, (x, m) in enumerate(zip(values, means, strict=True)):
            ordered = np.sort(m)
            low = n // 40
            ci = 0.5 * (ordered[n - low - 1] - ordered[low])
            diffs = np.abs(m - means[0])
            p = (np.sum(diffs - diffs.mean() > real[i]) + 1) / (n + 1)
            out.append((x.mean(), ordered.mean(), ci, None if i == 0 else float(p)))
        return out
    pos = np.random.default_rng(seed).integers(2, size=(n, size), dtype=bool)
    out.append((base.mean(), None, None, None))
    for i, x in enumerate(values[1:], start=1):
        a = np.where(pos, base, x).sum(axis=1) / size
        b = np.where(pos, x, base).sum(axis=1) / size
        out.append((x.mean(), None, None, float((np.sum(np.abs(a - b) > real[i]) + 1) / (n + 1))))
    return out


def engine_columns(
    refs: Sequence[Sequence[str]], hyps: Sequence[Sequence[str]], columns: Sequence[str]
) -> dict[str, list[np.ndarray]]:
    text = corpus_text_from_lines(
        references=refs, systems=hyps, names=[f"s{i}" for i in range(len(hyps))]
    )
    table = score_corpus(text, ScoringConfig(metrics=("rouge",)))
    return {key: [table.column(key, s) for s in range(len(hyps))] for key in columns}


# -- real data against sacreBLEU --------------------------------------------------------------


@needs(DE_EN)
@pytest.mark.parametrize(("test", "n"), [("bs", 1000), ("ar", 2000)])
def test_wmt22_de_en_equals_sacrebleus_paired_test(tmp_path: Path, test: str, n: int) -> None:
    """Five systems, two references, BLEU and chrF from our engine's statistics, ROUGE added:
    every p-value is sacreBLEU's (numpy's for ROUGE), the baseline is the first --hyp. Every
    third segment (679 of 2,037): sacreBLEU's own test on all of them takes a minute, and
    tests/core/analysis/test_significance.py compares every row at the engine's level."""
    ref_files, sys_files = folder_files(DE_EN)
    sys_files = [sys_files[2], *sys_files[:2], *sys_files[3:]]  # a baseline in the middle
    rows = range(0, len(read_lines(ref_files[0])), 3)
    (tmp_path / "refs").mkdir()
    (tmp_path / "hyps").mkdir()
    ref_files = write_rows(tmp_path / "refs", ref_files, rows)
    sys_files = write_rows(tmp_path / "hyps", sys_files, rows)
    flag = ["--paired-bs"] if test == "bs" else ["--paired-ar", "--paired-ar-n", str(n)]
    payload = run_json(tmp_path, [*inputs(ref_files, sys_files), "-m", "bleu,chrf,rouge", *flag])
    refs = [read_lines(p) for p in ref_files]
    hyps = [read_lines(p) for p in sys_files]
    names = [system_name(p) for p in sys_files]
    assert payload["baseline"] == names[0] and payload["seed"] == 12345
    assert list(payload["systems"]) == names
    assert payload["columns"] == ["bleu", "chrf", *ROUGE_COLUMNS]
    theirs, signatures = sacrebleu_paired(
        {"bleu": BLEU, "chrf": CHRF},
        list(zip(names, hyps, strict=True)),
        refs,
        test=test,
        n_samples=n,
        seed=12345,
    )
    for column, name in (("bleu", "BLEU"), ("chrf", "chrF2")):
        for i, system in enumerate(names):
            entry = payload["systems"][system][column]
            assert_matches(entry, theirs[name][i], baseline=i == 0, key="p_value")
        assert payload["signatures"][column] == signatures[name]
    values = engine_columns(refs, hyps, ROUGE_COLUMNS)
    for column in ROUGE_COLUMNS:
        plain = numpy_mean_test(values[column], test, n, 12345)
        for i, (score, mean, ci, p) in enumerate(plain):
            entry = payload["systems"][names[i]][column]
            assert entry["score"] == pytest.approx(score, abs=1e-9)
            assert entry["mean"] == (None if mean is None else pytest.approx(mean, abs=1e-9))
            assert entry["ci"] == (None if ci is None else pytest.approx(ci, abs=1e-9))
            assert entry.get("p_value") == p
    fields = "bs:1000|seed:12345" if test == "bs" else f"ar:{n}|seed:12345"
    assert payload["signatures"]["rouge"].startswith(f"nrefs:2|{fields}|")


def write_rows(folder: Path, paths: Sequence[Path], rows: Sequence[int]) -> list[Path]:
    """Files holding only ``rows`` of each input, in order, under the inputs' names."""
    out = []
    for path in paths:
        lines = read_lines(path)
        target = folder / path.name
        target.write_text("".join(lines[r] + "\n" for r in rows), encoding="utf-8")
        out.append(target)
    return out


def sacrebleu_cli(
    folder: Path, ref_files: Sequence[Path], sys_files: Sequence[Path], args: Sequence[str]
) -> subprocess.CompletedProcess[str]:
    """sacreBLEU's command line run in ``folder`` on file names, so that its system names are
    the names the files have."""
    command = [
        str(SACREBLEU_CLI),
        *(p.name for p in ref_files),
        "-i",
        *(p.name for p in sys_files),
        *args,
    ]
    env = {**os.environ, "NO_COLOR": "1"}
    return subprocess.run(command, capture_output=True, text=True, cwd=folder, env=env, check=True)


SUBSET = "1-300,501-650,1801-"


@needs(DE_EN)
@pytest.mark.parametrize(("test", "seed"), [("bs", 4242), ("ar", 99)])
def test_segments_of_wmt22_en_zh_equal_sacrebleus_command_line_on_those_rows(
    tmp_path: Path, test: str, seed: int
) -> None:
    """--segments on the whole files equals sacreBLEU run on files holding only those rows
    (tokenize zh, three systems, two references; BLEU by sacreBLEU's command line, chrF by
    its PairedTest on the same rows). One seed per test, not the default (the default seed is
    checked on WMT22 de-en above): a seed only changes the draws, which both sides take alike."""
    ref_files, sys_files = folder_files(EN_ZH)
    sys_files = sys_files[:3]
    n = 1000 if test == "bs" else 3000
    flag = ["--paired-bs"] if test == "bs" else ["--paired-ar", "--paired-ar-n", str(n)]
    args = [*inputs(ref_files, sys_files, named=True), "-m", "bleu,chrf", "--tokenize", "zh"]
    payload = run_json(tmp_path, [*args, "--segments", SUBSET, "--seed", str(seed), *flag])
    total = len(read_lines(ref_files[0]))
    rows = [*range(0, 300), *range(500, 650), *range(1800, total)]
    assert (
        payload["segments"] == len(rows)
        and payload["segment_list"] == f"1-300,501-650,1801-{total}"
    )
    subset = tmp_path / "subset"
    subset.mkdir()
    refs = write_rows(subset, ref_files, rows)
    hyps = write_rows(subset, sys_files, rows)
    cli_flag = ["--paired-bs"] if test == "bs" else ["--paired-ar", "--paired-ar-n", str(n)]
    env_args = ["-m", "bleu", "-tok", "zh", *cli_flag, "--format", "json"]
    with sacrebleu_seed(seed):
        out = sacrebleu_cli(subset, refs, hyps, env_args)
    theirs = json.loads(out.stdout)
    names = [p.name for p in sys_files]
    for i, entry in enumerate(theirs):
        assert entry["system"].removeprefix("Baseline: ") == names[i]
        ours = payload["systems"][names[i]]["bleu"]
        result = entry["BLEU"]
        assert ours["score"] == pytest.approx(result["score"], abs=1e-4)
        assert ours.get("p_value") == result["p_value"]
        if test == "bs":
            assert ours["mean"] == pytest.approx(result["mean"], abs=1e-4)
            assert ours["ci"] == pytest.approx(result["ci"], abs=1e-4)
        else:
            assert ours["mean"] is None and result["mean"] is None
    chrf, _ = sacrebleu_paired(
        {"chrf": CHRF},
        [(name, read_lines(p)) for name, p in zip(names, hyps, strict=True)],
        [read_lines(p) for p in refs],
        test=test,
        n_samples=n,
        seed=seed,
    )
    for i, name in enumerate(names):
        assert_matches(
            payload["systems"][name]["chrf"], chrf["chrF2"][i], baseline=i == 0, key="p_value"
        )
    assert payload["signatures"]["bleu"].startswith(
        f"nrefs:2|{'bs' if test == 'bs' else 'ar'}:{n}|seed:{seed}|case:mixed|eff:no|tok:zh|"
    )


def table_block(text: str) -> list[str]:
    """The lines of the table (from its top rule to its bottom rule) and the signatures."""
    lines = text.splitlines()
    top = next(i for i, line in enumerate(lines) if line.startswith("╒"))
    bottom = next(i for i, line in enumerate(lines) if line.startswith("╘"))
    signatures = [line for line in lines if line.startswith(" - ") and "nrefs:" in line]
    return [*lines[top : bottom + 1], *signatures]


@needs(DE_EN)
@pytest.mark.parametrize("test", ["bs", "ar"])
def test_the_console_table_is_sacrebleus(tmp_path: Path, capsys, test: str) -> None:
    """The same table, cell for cell, as ``sacrebleu -f text`` prints it (systems named as
    sacreBLEU names them, after their files), and the same signatures."""
    ref_files, sys_files = folder_files(DE_EN)
    rows = list(range(0, 1984, 4))
    subset = tmp_path / "subset"
    subset.mkdir()
    refs = write_rows(subset, ref_files, rows)
    hyps = write_rows(subset, sys_files[:3], rows)
    flag = ["--paired-bs"] if test == "bs" else ["--paired-ar", "--paired-ar-n", "1000"]
    assert compare_main([*inputs(refs, hyps, named=True), "-m", "bleu,chrf", *flag]) == 0
    ours = capsys.readouterr().out
    out = sacrebleu_cli(subset, refs, hyps, ["-m", "bleu", "chrf", *flag, "-f", "text"])
    assert table_block(ours) == table_block(out.stdout)
    assert "Paired " in ours and "Null hypothesis" in ours


# -- behaviour ---------------------------------------------------------------------------------


def sample_args(*extra: str) -> list[str]:
    return [*inputs(SAMPLE_REFS, SAMPLE_SYSTEMS), *extra]


def test_both_tests_run_on_one_seed_and_each_equals_its_own_run(tmp_path: Path, capsys) -> None:
    args = sample_args("-m", "bleu,chrf,rouge", "--seed", "7")
    both = run_json(tmp_path, [*args, "--paired-bs", "--paired-ar", "--paired-ar-n", "500"], "a")
    bs = run_json(tmp_path, [*args, "--paired-bs"], "b")
    ar = run_json(tmp_path, [*args, "--paired-ar", "--paired-ar-n", "500"], "c")
    assert (both["paired_bs_n"], both["paired_ar_n"]) == (1000, 500)
    for name, entry in both["systems"].items():
        for column, figures in entry.items():
            alone = bs["systems"][name][column]
            assert {k: figures[k] for k in ("score", "mean", "ci")} == {
                k: alone[k] for k in ("score", "mean", "ci")
            }
            assert figures.get("p_value") == alone.get("p_value")
            assert figures.get("ar_p_value") == ar["systems"][name][column].get("p_value")
            assert ("ar_p_value" in figures) == (name != both["baseline"])
    assert both["signatures"]["bleu"].startswith("nrefs:2|bs:1000|ar:500|seed:7|")
    assert "AR: p = " in capsys.readouterr().out


def test_the_bootstrap_runs_when_no_test_is_named(tmp_path: Path) -> None:
    default = run_json(tmp_path, sample_args("-m", "bleu"), "a")
    named = run_json(tmp_path, sample_args("-m", "bleu", "--paired-bs"), "b")
    assert default["systems"] == named["systems"]
    assert (default["paired_bs_n"], default["paired_ar_n"]) == (1000, None)


def test_json_schema_is_strict_and_complete(tmp_path: Path) -> None:
    payload = run_json(
        tmp_path, sample_args("--paired-ar", "--paired-ar-n", "300", "--segments", "2-40,50")
    )
    names = [system_name(p) for p in SAMPLE_SYSTEMS]
    assert payload["baseline"] == names[0]
    assert payload["seed"] == 12345
    assert (payload["segments"], payload["segment_list"]) == (40, "2-40,50")
    assert payload["columns"] == ["bleu", *ROUGE_COLUMNS]
    assert set(payload["signatures"]) == {"bleu", "rouge"}
    assert payload["signatures"]["bleu"].startswith("nrefs:2|ar:300|seed:12345|")
    assert payload["settings"]["metrics"] == ["bleu", "rouge"]
    assert list(payload["systems"]) == names
    for name, entry in payload["systems"].items():
        assert list(entry) == payload["columns"]
        for figures in entry.values():
            keys = {"score", "mean", "ci"} | ({"p_value"} if name != names[0] else set())
            assert set(figures) == keys
            assert figures["mean"] is None and figures["ci"] is None  # AR: no interval
            assert isinstance(figures["score"], float)
            if "p_value" in figures:
                assert 0 < figures["p_value"] <= 1


@pytest.mark.parametrize("test", ["bs", "ar"])
def test_segments_give_the_apps_answer_for_that_selection(tmp_path: Path, test: str) -> None:
    """The app's significance panel (core.analysis.columnstats) on the rows of a selection
    gives the same figures as --segments with the same seed."""
    from matchlight.core.analysis.columnstats import significance_by_column
    from matchlight.core.analysis.selection import parse_segments

    spec = "3-60,90-"
    flag = ["--paired-bs"] if test == "bs" else ["--paired-ar", "--paired-ar-n", "800"]
    payload = run_json(tmp_path, sample_args("-m", "bleu,chrf,rouge", "--segments", spec, *flag))
    refs = [read_lines(p) for p in SAMPLE_REFS]
    hyps = [read_lines(p) for p in SAMPLE_SYSTEMS]
    names = [system_name(p) for p in SAMPLE_SYSTEMS]
    text = corpus_text_from_lines(references=refs, systems=hyps, names=names)
    table = score_corpus(text, ScoringConfig(metrics=("bleu", "chrf", "rouge")))
    mask = np.zeros(len(refs[0]), dtype=bool)
    mask[parse_segments(spec, len(refs[0]))] = True
    app = significance_by_column(
        table,
        payload["columns"],
        baseline=0,
        rows=mask,
        test="bs" if test == "bs" else "ar",
        n_samples=None if test == "bs" else 800,
    )
    for tested in app:
        assert tested.result is not None
        for line in tested.result.systems:
            figures = payload["systems"][line.name][tested.column.key]
            assert figures["score"] == line.score
            assert figures.get("p_value") == line.p_value
            if test == "bs":
                assert (figures["mean"], figures["ci"]) == (line.mean, line.ci)


def test_no_seed_draws_one_reports_it_and_it_repeats_the_run(tmp_path: Path) -> None:
    first = run_json(tmp_path, sample_args("-m", "bleu", "--seed", "none"), "a")
    again = run_json(tmp_path, sample_args("-m", "bleu", "--seed", str(first["seed"])), "b")
    assert first["systems"] == again["systems"]
    assert f"seed:{first['seed']}|" in first["signatures"]["bleu"]


def test_nltk_bleu_resamples_are_nltks_corpus_bleu(tmp_path: Path) -> None:
    """NLTK-BLEU (method0-4) is tested on its summed statistics: each resample's score is
    NLTK's corpus_bleu of the resampled corpus."""
    from nltk.translate.bleu_score import corpus_bleu

    n = 40
    payload = run_json(tmp_path, sample_args("-m", "nltk-bleu", "--paired-bs-n", str(n)))
    refs = [read_lines(p) for p in SAMPLE_REFS]
    hyps = [read_lines(p) for p in SAMPLE_SYSTEMS]
    size = len(refs[0])
    idx = np.random.default_rng(12345).choice(size, size=(n, size))

    def nltk(hyp: list[str], rows: Sequence[int]) -> float:
        references = [[r[i].split() for r in refs] for i in rows]
        return 100 * float(corpus_bleu(references, [hyp[i].split() for i in rows]))

    resampled = [np.array([nltk(h, sample) for sample in idx.tolist()]) for h in hyps]
    actual = [nltk(h, range(size)) for h in hyps]
    for i, name in enumerate(system_name(p) for p in SAMPLE_SYSTEMS):
        entry = payload["systems"][name]["nltk_bleu"]
        assert entry["score"] == actual[i]
        ordered = np.sort(resampled[i])
        assert entry["mean"] == pytest.approx(ordered.mean(), abs=1e-9)
        assert entry["ci"] == pytest.approx(0.5 * (ordered[n - 1 - n // 40] - ordered[n // 40]))
        if i:
            diffs = np.abs(resampled[i] - resampled[0])
            p = (np.sum(diffs - diffs.mean() > abs(actual[0] - actual[i])) + 1) / (n + 1)
            assert entry["p_value"] == p


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (None, "give --hyp at least twice"),
        (["--segments", "5-2"], "runs backwards"),
        (["--segments", "1-99999"], "outside"),
        (["--segments", "x"], "--segments"),
        (["--seed", "-1"], "--seed"),
        (["--seed", "abc"], "--seed"),
        (["--paired-bs-n", "0"], "--paired-bs-n"),
        (["--paired-ar-n", "x"], "--paired-ar-n"),
        (["--metrics", "nltk-bleu", "--nltk-smoothing", "method5"], "not a function of summed"),
        (["--metrics", "meteor"], "unknown metric"),
        (["--json", ""], "needs a file name"),
    ],
)
def test_usage_errors_exit_2_with_one_clear_line(
    extra: list[str] | None, message: str, capsys
) -> None:
    # None: a baseline alone, nothing to test it against.
    args = inputs(SAMPLE_REFS, SAMPLE_SYSTEMS[:1]) if extra is None else sample_args(*extra)
    with pytest.raises(SystemExit) as exit_info:
        compare_main(args)
    assert exit_info.value.code == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1
    assert message in err and err.startswith("matchlight compare: error: ")


def test_input_errors_exit_2_and_no_input_is_replaced(tmp_path: Path, capsys) -> None:
    ref = tmp_path / "ref.txt"
    ref.write_text("a b c\nd e f\n", encoding="utf-8")
    before = ref.read_bytes()
    assert (
        compare_main(
            ["--ref", str(ref), "--hyp", str(ref), "--hyp", f"b={ref}", "--json", str(ref)]
        )
        == 2
    )
    assert ref.read_bytes() == before
    short = tmp_path / "short.txt"
    short.write_text("one line\n", encoding="utf-8")
    assert compare_main(["--ref", str(ref), "--hyp", str(ref), "--hyp", str(short)]) == 2
    err = capsys.readouterr().err
    assert "input" in err and "short.txt" in err and "Traceback" not in err


def test_ctrl_c_exits_130_with_one_line(monkeypatch, capsys) -> None:
    def interrupted(*args: object, **kwargs: object) -> object:
        raise KeyboardInterrupt

    import matchlight.core.analysis.significance as significance

    monkeypatch.setattr(significance, "paired_bootstrap", interrupted)
    assert compare_main(sample_args("-m", "bleu")) == 130
    err = capsys.readouterr().err
    assert err.strip() == "matchlight: interrupted"


def test_the_console_script_dispatches_compare_without_qt() -> None:
    code = (
        "import sys\n"
        "from matchlight.gui.shell.launcher import main\n"
        f"code = main(['compare', '--ref', {str(SAMPLE_REFS[0])!r}, '--hyp',"
        f" {str(SAMPLE_SYSTEMS[0])!r}, '--hyp', {str(SAMPLE_SYSTEMS[1])!r}, '-m', 'bleu',"
        " '--paired-bs-n', '20', '--quiet'])\n"
        "qt = [m for m in sys.modules if m.startswith(('PySide6', 'shiboken6'))]\n"
        "print(code, ','.join(sorted(qt)))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True
    )
    assert "Baseline: fluent" in result.stdout
    assert result.stdout.splitlines()[-1] == "0 "


# -- hostile arguments and outputs -------------------------------------------------------------


@pytest.mark.parametrize(
    ("option", "value", "message"),
    [
        ("--seed", "9" * 5000, "is not a whole number or 'none'"),
        ("--paired-bs-n", "9" * 5000, "is not a whole number"),
        ("--segments", "1-" + "9" * 5000, "is outside 1-160"),
        ("--width", "9" * 4400, "is not a whole number"),
    ],
)
def test_hostile_numbers_are_usage_errors_with_a_short_message(
    option: str, value: str, message: str, capsys
) -> None:
    with pytest.raises(SystemExit) as exit_info:
        compare_main(sample_args(option, value))
    assert exit_info.value.code == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err and len(err) < 500


def test_json_over_a_session_is_refused_before_testing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys
) -> None:
    import matchlight.core.cli.streaming as streaming
    from matchlight.core.session.store import SessionInput, SessionStore

    session = tmp_path / "work.matchlight"
    ref = SessionInput.from_file(SAMPLE_REFS[0], role="reference")
    SessionStore.create(session, inputs=[ref], settings={}).close()
    before = session.read_bytes()
    monkeypatch.setattr(streaming, "open_command_engine", lambda *a, **k: pytest.fail("scored"))
    assert compare_main(sample_args("--json", str(session))) == 2
    assert "is a Matchlight session (.matchlight); refusing" in capsys.readouterr().err
    assert session.read_bytes() == before
