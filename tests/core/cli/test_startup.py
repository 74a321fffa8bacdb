"""The console script imports only what a command runs: ``--version`` nothing of the app,
``score --help`` its parser, a run of ``score`` no Qt and no optional package it does not use.
(What the imports cost is measured in tests/benchmarks/bench_cli.py, never asserted.)"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from tests.conftest import ROOT, SAMPLE


def _run(args: list[str]) -> tuple[str, set[str]]:
    """The console script's output for ``args`` and the modules it loaded (run in a fresh
    interpreter)."""
    code = (
        "import io, json, sys, contextlib\n"
        "from matchlight.gui.shell.launcher import main\n"
        "out = io.StringIO()\n"
        "with contextlib.redirect_stdout(out):\n"
        "    try:\n"
        f"        main({args!r})\n"
        "    except SystemExit:\n"
        "        pass\n"
        "print(json.dumps([out.getvalue(), sorted(sys.modules)]))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True
    )
    output, modules = json.loads(result.stdout.splitlines()[-1])
    return output, set(modules)


def _loaded(modules: set[str], *packages: str) -> list[str]:
    return sorted(m for m in modules if m.split(".")[0] in packages or m.startswith(packages))


QT = ("PySide6", "shiboken6", "pyqtgraph")
OPTIONAL = ("pyarrow", "dask", "distributed", "ray", "charset_normalizer")


def test_version_loads_no_qt_and_no_numpy() -> None:
    output, modules = _run(["--version"])
    assert output.startswith("matchlight ")
    assert _loaded(modules, *QT, "numpy", "matchlight.core.cli") == []


def test_score_help_loads_its_parser_only() -> None:
    output, modules = _run(["score", "--help"])
    assert "usage: matchlight score" in output and "--engine" in output
    unused = ("matchlight.core.io", "matchlight.core.scoring", "matchlight.core.analysis")
    assert _loaded(modules, *QT, *OPTIONAL, *unused, "multiprocessing") == []
    assert _loaded(modules, "matchlight.gui") == [
        "matchlight.gui",
        "matchlight.gui.shell",
        "matchlight.gui.shell.launcher",
    ]


def test_a_score_run_loads_no_qt_and_nothing_it_does_not_use(tmp_path: Path) -> None:
    refs = ["--ref", str(SAMPLE / "ref.en.txt")]
    systems = [a for p in sorted(SAMPLE.glob("sys.*.txt")) for a in ("--hyp", str(p))]
    output, modules = _run(
        ["score", *refs, *systems, "--csv", str(tmp_path / "s.csv"), "--workers", "2", "-q"]
    )
    assert "bleu signature" in output and (tmp_path / "s.csv").exists()
    later = ("matchlight.core.session", "matchlight.core.report", "matchlight.core.annotation")
    assert _loaded(modules, *QT, *OPTIONAL, *later) == []
    # Of the analyses, only the checks a run makes beside the scores (language, leaks).
    assert _loaded(modules, "matchlight.core.analysis") == [
        "matchlight.core.analysis",
        "matchlight.core.analysis.compare",
        "matchlight.core.analysis.language",
        "matchlight.core.analysis.languagecache",
        "matchlight.core.analysis.languagemodel",
        "matchlight.core.analysis.references",
    ]


#: The metrics' own modules (not their options, which every parser reads).
METRIC_MODULES = {
    key: f"matchlight.core.metrics.{key}" for key in ("bleu", "chrf", "rouge", "nltk_bleu", "ter")
}


def test_a_score_run_imports_only_the_metrics_it_scores(tmp_path: Path) -> None:
    refs = ["--ref", str(SAMPLE / "ref.en.txt")]
    systems = [a for p in sorted(SAMPLE.glob("sys.*.txt")) for a in ("--hyp", str(p))]
    runs = {"bleu,rouge": {"bleu", "rouge"}, "ter,chrf": {"ter", "chrf"}}
    for metrics, scored in runs.items():
        out = tmp_path / f"{metrics}.csv"
        output, modules = _run(["score", *refs, *systems, "--metrics", metrics, "--csv", str(out)])
        assert "signature" in output and out.exists()
        assert {k for k, m in METRIC_MODULES.items() if m in modules} == scored
        assert _loaded(modules, "nltk", "sacrebleu") == []
        assert ("matchlight.core.metrics.teralign" in modules) == ("ter" in scored)
