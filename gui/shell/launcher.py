"""The ``matchlight`` console script.

``matchlight NAME ...`` runs the headless command NAME of :mod:`core.cli` (listed in
:mod:`core.cli.commands`, one module per command) without importing Qt, and ``matchlight
--version`` answers without it too; every other invocation opens the desktop app.
"""

from __future__ import annotations

import sys


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else list(argv)
    if args == ["--version"]:
        # What the app's own parser prints for --version, without starting Qt for it.
        from matchlight.core import __version__

        print(f"matchlight {__version__}")
        return 0
    if args:
        from matchlight.core.cli.commands import command_main

        command = command_main(args[0])
        if command is not None:
            return command(args[1:])
    from matchlight.gui.shell.app import run

    return run(args)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
