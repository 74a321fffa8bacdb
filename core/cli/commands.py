"""The headless commands by name: ``matchlight NAME ...`` runs ``main`` of the module named here.

The console script (:mod:`gui.shell.launcher`) looks a command up here before it imports
anything else, so a headless command never imports Qt and imports only the module it runs.
A new command is one module with ``build_parser`` and ``main``, and one line below.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Sequence

__all__ = ["COMMANDS", "command_main"]

#: Command name -> the module whose ``main(argv)`` runs it.
COMMANDS: dict[str, str] = {
    "score": "matchlight.core.cli.score",
    "compare": "matchlight.core.cli.compare",
    "report": "matchlight.core.cli.report",
    "session": "matchlight.core.cli.session",
    "mqm": "matchlight.core.cli.mqm",
    "metaeval": "matchlight.core.cli.metaeval",
}


def command_main(name: str) -> Callable[[Sequence[str]], int] | None:
    """The ``main`` of command ``name``, or None when there is no such command."""
    module = COMMANDS.get(name)
    if module is None:
        return None
    main: Callable[[Sequence[str]], int] = importlib.import_module(module).main
    return main
