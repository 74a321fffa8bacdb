"""Every command builds its parser, and prints its ``--help``, from light modules only.

The metrics' options come from :mod:`core.metrics.catalog`; numpy, the tokenizers, the metrics,
the readers, the scoring engine and the reference libraries are imported when a command runs,
never for its parser. Each command's parser is built in a fresh interpreter and the modules it
loaded are listed. (What the imports cost is measured in the README's start-up figures, never
asserted.) The ``--help`` texts keep every option, choice and default they had.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from matchlight.core.cli import options
from matchlight.core.cli.commands import COMMANDS
from tests.conftest import ROOT

#: Imported by no parser: third-party packages, and Matchlight's modules that run commands.
HEAVY = ("numpy", "sacrebleu", "nltk", "regex", "scipy", "PySide6", "shiboken6", "pyqtgraph")
RUNNING = (
    "matchlight.core.metrics.base",
    "matchlight.core.metrics.registry",
    "matchlight.core.metrics.bleu",
    "matchlight.core.metrics.bleudetail",
    "matchlight.core.metrics.chrf",
    "matchlight.core.metrics.chrfdetail",
    "matchlight.core.metrics.rouge",
    "matchlight.core.metrics.nltk_bleu",
    "matchlight.core.metrics.ter",
    "matchlight.core.metrics.teralign",
    "matchlight.core.metrics.terpath",
    "matchlight.core.text.tokenizers",
    "matchlight.core.io",
    "matchlight.core.scoring",
    "matchlight.core.analysis",
    "matchlight.core.report",
    "matchlight.core.session",
    "matchlight.core.annotation.interchange",
    "matchlight.core.cli.streaming",
    "matchlight.gui",
)


def _parser_help(command: str) -> tuple[str, set[str]]:
    """``command``'s help (with each sub-command's) and the modules building it loaded, in a
    fresh interpreter."""
    code = (
        "import argparse, importlib, json, sys\n"
        "from matchlight.core.cli.commands import COMMANDS\n"
        f"parser = importlib.import_module(COMMANDS[{command!r}]).build_parser()\n"
        "texts = [parser.format_help()]\n"
        "for action in parser._actions:\n"
        "    if isinstance(action, argparse._SubParsersAction):\n"
        "        texts += [p.format_help() for p in action.choices.values()]\n"
        "print(json.dumps(['\\n'.join(texts), sorted(sys.modules)]))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True
    )
    text, modules = json.loads(result.stdout.splitlines()[-1])
    return " ".join(text.split()), set(modules)


def _loaded(modules: set[str], names: tuple[str, ...]) -> list[str]:
    return sorted(m for m in modules if any(m == n or m.startswith(f"{n}.") for n in names))


@pytest.fixture(scope="module")
def helps() -> dict[str, tuple[str, set[str]]]:
    return {command: _parser_help(command) for command in COMMANDS}


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_a_parser_imports_nothing_a_run_needs(
    helps: dict[str, tuple[str, set[str]]], command: str
) -> None:
    text, modules = helps[command]
    assert f"usage: matchlight {command}" in text
    assert _loaded(modules, HEAVY + RUNNING) == []
    # The options it offers come from the metrics' option modules, which it does load.
    if command != "mqm":
        assert "matchlight.core.metrics.catalog" in modules


#: Every metric's group and options, with their choices, as ``--help`` shows them.
METRIC_LINES = (
    "BLEU (with --metrics bleu):",
    "--tokenize {13a,intl,char,zh,ja-mecab,ko-mecab,none}, -tok "
    "{13a,intl,char,zh,ja-mecab,ko-mecab,none}",
    "--lowercase, -lc lowercase before tokenizing (case-insensitive BLEU)",
    "--smooth {exp,floor,add-k,none} sacreBLEU smoothing method (default: exp)",
    "--smooth-value X value for floor (default 0.1) and add-k (default 1)",
    "--max-order N highest n-gram order (default 4)",
    "--no-effective-order",
    "chrF (with --metrics chrf):",
    "--chrf-word-order N 0 for chrF (default), 2 for chrF++",
    "--chrf-char-order N",
    "--chrf-beta N",
    "--chrf-lowercase",
    "ROUGE (with --metrics rouge):",
    "--rouge-tokenizer {rouge-score,unicode}",
    "--rouge-stem",
    "--rouge-n N score ROUGE-1 .. ROUGE-N (default 2)",
    "NLTK-BLEU (with --metrics nltk-bleu):",
    "--nltk-tokenize {13a,intl,char,zh,ja-mecab,ko-mecab,none}",
    "--nltk-lowercase",
    "--nltk-smoothing {method0,method1,method2,method3,method4,method5,method6,method7}",
    "--nltk-max-order N uniform weights over orders 1..N (default 4)",
    "TER (with --metrics ter):",
    "--ter-normalized",
    "--ter-no-punct",
    "--ter-case-sensitive",
    "--ter-asian-support",
)


@pytest.mark.parametrize("command", ["score", "compare", "report", "metaeval", "session"])
def test_every_metric_option_keeps_its_choices(
    helps: dict[str, tuple[str, set[str]]], command: str
) -> None:
    text = helps[command][0]
    missing = [line for line in METRIC_LINES if line not in text]
    assert missing == []
    assert "comma-separated, from bleu, chrf, rouge, nltk-bleu, ter (default: " in text


def test_each_command_keeps_its_own_options_and_defaults(
    helps: dict[str, tuple[str, set[str]]],
) -> None:
    expected = {
        "score": [
            "(default: bleu,rouge)",
            "--engine {local,dask,ray}",
            "processes to score with (0 = all cores; default all cores)",
            "--keep RULE",
        ],
        "compare": [
            "(default: bleu,rouge)",
            "--engine {local,dask,ray}",
            f"(default {options.DEFAULT_BOOTSTRAP_SAMPLES})",
            f"(default {options.DEFAULT_AR_TRIALS})",
        ],
        "report": [
            "(default: the session's, else bleu,rouge)",
            "segments shown with their texts (default 200; 0: all selected)",
            "resamples of the paired bootstrap (default 1000)",
            "its random seed (default 12345)",
        ],
        "metaeval": [
            "(default: bleu,chrf)",
            "--human-level {system,segment,spans}",
            "--human-layout {long,wide}",
            "--human-better {higher,lower}",
        ],
        "mqm": ["--format {wmt-tsv,xcomet,esa}", "the weights: freitag2021, source-counted"],
        "session": [
            "create make a session file from the inputs (optionally pre-annotated)",
            "info what a session holds (the file is not changed)",
            "--spans-format {auto,xcomet-jsonl,wmt-mqm-tsv,wmt24-esa-jsonl}",
            "--mode {mqm,esa}",
        ],
    }
    for command, lines in expected.items():
        text = helps[command][0]
        assert [line for line in lines if line not in text] == [], command


def test_the_defaults_a_parser_states_are_those_of_the_modules_that_run() -> None:
    """The few values a parser needs from a module it does not import are kept beside it;
    they must stay those of their home."""
    from matchlight.core.analysis import significance
    from matchlight.core.annotation.interchange import IMPORT_FORMATS
    from matchlight.core.cli import report, session
    from matchlight.core.report import context

    assert options.DEFAULT_BOOTSTRAP_SAMPLES == significance.DEFAULT_BOOTSTRAP_SAMPLES
    assert options.DEFAULT_AR_TRIALS == significance.DEFAULT_AR_TRIALS
    assert options.DEFAULT_SEED == significance.DEFAULT_SEED
    assert report.DEFAULT_MAX_ROWS == context.DEFAULT_MAX_ROWS
    assert tuple(IMPORT_FORMATS) == session.SPAN_FORMATS
