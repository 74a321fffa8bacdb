"""The headless commands: ``matchlight score``, ``compare``, ``report``, ``session``, ``mqm``,
``metaeval``.

Each command is a module with ``build_parser`` and ``main`` (listed in :mod:`.commands`); what
they share is :mod:`.options`. This package re-exports the names scripts and tests import from
``matchlight.core.cli`` (``main`` is ``matchlight score``), each imported when first used:
running one command imports that command and nothing else.
"""

from __future__ import annotations

import importlib
from typing import Any

#: Exported name -> (module, name in it).
_EXPORTS: dict[str, tuple[str, str]] = {
    "EXIT_INPUT_ERROR": ("options", "EXIT_INPUT_ERROR"),
    "EXIT_INTERRUPTED": ("options", "EXIT_INTERRUPTED"),
    "config_from_args": ("options", "config_from_args"),
    "parse_separator": ("options", "parse_separator"),
    "build_parser": ("score", "build_parser"),
    "corpus_summary": ("score", "corpus_summary"),
    "format_table": ("score", "format_table"),
    "main": ("score", "main"),
    "warn_about": ("score", "warn_about"),
    "PairedColumn": ("compare", "PairedColumn"),
    "build_compare_parser": ("compare", "build_parser"),
    "compare_main": ("compare", "main"),
    "format_paired_table": ("compare", "format_paired_table"),
    "run_paired_tests": ("compare", "run_paired_tests"),
    "tested_columns": ("compare", "tested_columns"),
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    found = _EXPORTS.get(name)
    if found is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    module, attribute = found
    value = getattr(importlib.import_module(f"{__name__}.{module}"), attribute)
    globals()[name] = value
    return value
