"""The headless commands: ``matchlight score``, ``matchlight compare`` and ``matchlight report``.

Each command is a module with ``build_parser`` and ``main`` (:mod:`.score`, :mod:`.compare`,
:mod:`.report`); what they share is :mod:`.options`. This package re-exports the names scripts
and tests import from ``matchlight.core.cli`` (``main`` is ``matchlight score``).
"""

from matchlight.core.cli.compare import (
    PairedColumn,
    format_paired_table,
    run_paired_tests,
    tested_columns,
)
from matchlight.core.cli.compare import build_parser as build_compare_parser
from matchlight.core.cli.compare import main as compare_main
from matchlight.core.cli.options import (
    EXIT_INPUT_ERROR,
    EXIT_INTERRUPTED,
    config_from_args,
    parse_separator,
)
from matchlight.core.cli.score import build_parser, corpus_summary, format_table, main, warn_about

__all__ = [
    "EXIT_INPUT_ERROR",
    "EXIT_INTERRUPTED",
    "PairedColumn",
    "build_compare_parser",
    "build_parser",
    "compare_main",
    "config_from_args",
    "corpus_summary",
    "format_paired_table",
    "format_table",
    "main",
    "parse_separator",
    "run_paired_tests",
    "tested_columns",
    "warn_about",
]
