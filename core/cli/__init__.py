"""The headless commands: ``matchlight score``, ``matchlight compare`` and ``matchlight report``.

Each command is a module with ``build_parser`` and ``main``; this package re-exports the
names scripts and tests have always imported from ``matchlight.core.cli``.
"""

from matchlight.core.cli.score import (
    EXIT_INPUT_ERROR,
    EXIT_INTERRUPTED,
    build_compare_parser,
    build_parser,
    compare_main,
    config_from_args,
    corpus_summary,
    format_paired_table,
    format_table,
    main,
    parse_separator,
    run_paired_tests,
    tested_columns,
    warn_about,
)

__all__ = [
    "EXIT_INPUT_ERROR",
    "EXIT_INTERRUPTED",
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
