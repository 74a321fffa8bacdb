"""The ``matchlight`` console script.

``matchlight score|compare|report ...`` run the headless commands of :mod:`core.cli` (one
module per command) without importing Qt; every other invocation opens the desktop app.
"""

from __future__ import annotations

import sys


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else list(argv)
    if args and args[0] == "score":
        from matchlight.core.cli.score import main as score_main

        return score_main(args[1:])
    if args and args[0] == "compare":
        from matchlight.core.cli.compare import main as compare_main

        return compare_main(args[1:])
    if args and args[0] == "report":
        from matchlight.core.cli.report import main as report_main

        return report_main(args[1:])
    from matchlight.gui.shell.app import run

    return run(args)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
