"""What the headless commands share: their parser, their options, their inputs and how they fail.

A thin argparse layer. The metrics and their options come from the catalog
(:mod:`core.metrics.catalog`, the registry's metrics without their code): each metric's
:class:`~core.metrics.settings.Setting` becomes an option in the metric's own group, so the
command line and the app's settings panel can never disagree, and ``--help`` imports no numpy.
A scoring option the user does not give is absent from the parsed arguments:
:func:`config_from_args` starts from the defaults, or from a saved session's configuration, and
changes only what was given. Inputs are ``--ref``/``--hyp``/``--src`` (``PATH``, ``NAME=PATH``
or ``PATH#COLUMN``), ``--segments`` picks rows, and no written file may replace an input.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Any, NoReturn

from matchlight.core import __version__
from matchlight.core.metrics.catalog import (
    DEFAULT_METRICS,
    METRIC_OPTIONS,
    cli_name,
    parse_metrics,
)
from matchlight.core.metrics.settings import Setting, SettingError

# What a command runs is imported when it runs: ``--help`` and ``--version`` need none of it.
if TYPE_CHECKING:
    import numpy as np

    from matchlight.core.io.inputs import Comparison, InputSpec
    from matchlight.core.scoring.config import ScoringConfig
    from matchlight.core.scoring.results import ScoreTable
    from matchlight.core.text.corpus import CorpusText

__all__ = [
    "DEFAULT_AR_TRIALS",
    "DEFAULT_BOOTSTRAP_SAMPLES",
    "DEFAULT_SEED",
    "EXIT_INPUT_ERROR",
    "EXIT_INTERRUPTED",
    "MAX_NUMBER_TEXT",
    "MAX_RESAMPLES",
    "SEPARATOR_HELP",
    "Command",
    "CommandParser",
    "Failed",
    "add_engine",
    "add_inputs",
    "add_paired_test",
    "add_running",
    "add_scoring",
    "add_version",
    "check_names",
    "check_targets",
    "config_from_args",
    "count",
    "fail",
    "input_specs",
    "number",
    "parse_separator",
    "print_out",
    "read_comparison",
    "run",
    "score_comparison",
    "segment_rows",
    "shown",
    "warn_inputs",
]

EXIT_INPUT_ERROR = 2
EXIT_INTERRUPTED = 130

#: What the sentence separator does to each metric, for ``--help`` (and the README).
SEPARATOR_HELP = (
    "sentence separator inside a segment: ROUGE-Lsum splits sentences there; BLEU, NLTK-BLEU, "
    "chrF and the highlights read the sentences joined by spaces (the marker is never a word); "
    "ROUGE-1/2/L ignore it. Default: a newline, as rouge-score (which sacreBLEU reads as a "
    "space anyway). 'none': no sentences, so ROUGE-Lsum equals ROUGE-L. Escapes such as '\\n' "
    "and '\\t' are understood."
)


class CommandParser(argparse.ArgumentParser):
    """argparse whose usage errors are one line naming the option (exit 2, never a traceback)."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


# -- how a command ends ---------------------------------------------------------------------------


class Failed(Exception):
    """An input or output problem, already worded for the user (exit 2)."""


def fail(message: str) -> int:
    """Print ``message`` as the command's error; returns the exit status."""
    print(f"matchlight: error: {message}", file=sys.stderr)
    return EXIT_INPUT_ERROR


#: A command's body: it gets its parser (for usage errors) and the parsed arguments, and
#: returns the exit status.
Command = Callable[[argparse.ArgumentParser, argparse.Namespace], int]


def run(
    build: Callable[[], argparse.ArgumentParser], command: Command, argv: Sequence[str] | None
) -> int:
    """Parse ``argv`` with ``build()``'s parser and run ``command``: a usage error exits 2 with
    one line, :class:`Failed` exits 2 with its message, Ctrl+C 130 with one line."""
    parser = build()
    try:
        return command(parser, parser.parse_args(argv))
    except Failed as error:
        return fail(str(error))
    except KeyboardInterrupt:
        print("matchlight: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED


def print_out(text: str) -> None:
    """Print a command's result to stdout; a closed pipe (``matchlight score ... | head``) is
    no error."""
    try:
        print(text, flush=True)
    except BrokenPipeError:
        sys.stdout = None  # type: ignore[assignment]  # nothing more can be written there


# -- option values --------------------------------------------------------------------------------


#: The most characters a number on the command line may have; a longer one is refused before
#: it is converted (Python refuses integers of over 4,300 digits with a traceback).
MAX_NUMBER_TEXT = 40


def shown(text: str) -> str:
    """An argument quoted for a message, cut to :data:`MAX_NUMBER_TEXT` characters."""
    if len(text) <= MAX_NUMBER_TEXT:
        return repr(text)
    return f"{text[:MAX_NUMBER_TEXT]!r}... ({len(text):,} characters)"


def number(text: str, convert: type[int] | type[float], what: str) -> int | float:
    """``convert(text)``, or :class:`argparse.ArgumentTypeError` saying ``text`` is not
    ``what``; a text longer than :data:`MAX_NUMBER_TEXT` is not converted at all."""
    try:
        if len(text.strip()) > MAX_NUMBER_TEXT:
            raise ValueError(text)
        return convert(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{shown(text)} is not {what}") from None


def _checked(spec: Setting, convert: type[int] | type[float], what: str) -> Any:
    """An argparse ``type`` reading ``convert`` and checking it against ``spec``."""

    def parse(text: str) -> int | float:
        value = number(text, convert, what)
        try:
            spec.check(value)
        except SettingError as error:
            raise argparse.ArgumentTypeError(str(error)) from None
        return value

    return parse


def count(option: str, *, minimum: int, maximum: int | None = None) -> Any:
    """An argparse ``type`` taking a whole number in ``minimum..maximum`` for ``option``."""
    spec = Setting(option, "", "int", "", option, minimum=minimum, maximum=maximum)
    return _checked(spec, int, "a whole number")


def add_version(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--version", action="version", version=f"matchlight {__version__}")


#: The paired tests' defaults, sacreBLEU's: those of :mod:`core.analysis.significance` (tested
#: equal), here so that ``--help`` does not import the tests.
DEFAULT_BOOTSTRAP_SAMPLES = 1000
DEFAULT_AR_TRIALS = 10000
DEFAULT_SEED = 12345

#: The most resamples or trials a paired test may be asked for.
MAX_RESAMPLES = 10_000_000


def add_paired_test(
    group: argparse._ArgumentGroup, option: str, *, help: str, default: int, count_help: str
) -> None:
    """A paired test's switch (``--paired-bs``, help ``help``) and its ``-n`` option: how many
    resamples or trials it runs (``default``, help ``count_help``)."""
    group.add_argument(option, action="store_true", help=help)
    group.add_argument(
        f"{option}-n",
        type=count(f"{option}-n", minimum=1, maximum=MAX_RESAMPLES),
        default=default,
        metavar="N",
        help=count_help,
    )


# -- inputs ---------------------------------------------------------------------------------------


def add_inputs(
    parser: argparse.ArgumentParser,
    *,
    hyp_help: str,
    ref_help: str = "a reference file; repeat",
    required: bool = True,
    note: str = "",
) -> argparse._ArgumentGroup:
    """``--ref``, ``--hyp`` and ``--src``; returns their group (``note`` ends its title)."""
    files = parser.add_argument_group(
        f"input files (PATH, NAME=PATH, or PATH#COLUMN for TSV/CSV/JSONL{note})"
    )
    files.add_argument(
        "--ref", "-r", action="append", required=required, metavar="R", help=ref_help
    )
    files.add_argument(
        "--hyp", "-s", action="append", required=required, metavar="H", help=hyp_help
    )
    files.add_argument("--src", metavar="S", help="the source file (optional)")
    return files


def input_specs(
    args: argparse.Namespace,
) -> tuple[InputSpec | None, list[InputSpec], list[InputSpec]]:
    """The source, references and systems named by ``--src``, ``--ref`` and ``--hyp``; raises
    :class:`Failed` for an empty one."""
    from matchlight.core.io.inputs import InputError, parse_spec

    try:
        source = parse_spec(args.src) if args.src else None
        references = [parse_spec(r) for r in args.ref or ()]
        return source, references, [parse_spec(h) for h in args.hyp or ()]
    except InputError as error:
        raise Failed(str(error)) from None


def read_comparison(
    source: InputSpec | None, references: Sequence[InputSpec], systems: Sequence[InputSpec]
) -> Comparison:
    """The inputs read and checked; raises :class:`Failed` naming the file and the problem."""
    from matchlight.core.io.inputs import InputError
    from matchlight.core.io.reading import load_comparison

    try:
        comparison = load_comparison(source=source, references=references, systems=systems)
    except InputError as error:
        raise Failed(str(error)) from None
    if len(comparison) == 0:
        raise Failed("the input files hold no segments")
    return comparison


def warn_inputs(comparison: Comparison) -> None:
    """What reading the inputs noticed (a column's problems), on stderr."""
    for column in comparison.columns:
        for warning in column.warnings:
            print(f"matchlight: warning: {column.path}: {warning}", file=sys.stderr)


def segment_rows(
    parser: argparse.ArgumentParser, spec: str | None, n_segments: int
) -> np.ndarray | None:
    """``--segments``' rows (None: all); a bad list is a usage error."""
    if spec is None:
        return None
    from matchlight.core.analysis.selection import SelectionError, parse_segments

    try:
        return parse_segments(spec, n_segments)
    except SelectionError as error:
        parser.error(f"--segments: {error}")


# -- outputs --------------------------------------------------------------------------------------


def check_names(parser: argparse.ArgumentParser, outputs: Sequence[tuple[str, str | None]]) -> None:
    """A usage error for an output option (``(option, path)``) given an empty name."""
    for option, value in outputs:
        if value is not None and not value.strip():
            parser.error(f"{option} needs a file name")


def check_targets(outputs: Sequence[tuple[str, str | None]], *, protect: Iterable[str]) -> None:
    """Refuse, before scoring, an output (``(option, path)``) that would replace one of
    ``protect`` (the inputs) or a session, cannot be written, or is the same file as another
    output (:func:`~core.io.safewrite.check_write_targets`); raises :class:`Failed`."""
    from matchlight.core.io.safewrite import check_write_targets

    given = [(option, target) for option, target in outputs if target]
    try:
        check_write_targets(given, protect=protect)
    except OSError as error:
        raise Failed(str(error)) from None


# -- what to score --------------------------------------------------------------------------------


def _dest(metric: str, spec: Setting) -> str:
    return f"{metric}__{spec.key}"


def _add_setting(group: argparse._ArgumentGroup, metric: str, spec: Setting, default: Any) -> None:
    """One metric setting as an option; absent from the parsed arguments unless given."""
    names = (spec.cli, *spec.aliases)
    dest = _dest(metric, spec)
    keep = argparse.SUPPRESS
    if spec.kind == "flag":
        # A flag switches the setting away from its default (--lowercase, --no-effective-order).
        action = "store_false" if default else "store_true"
        group.add_argument(*names, dest=dest, action=action, default=keep, help=spec.help)
    elif spec.kind == "choice":
        group.add_argument(*names, dest=dest, choices=spec.choices, default=keep, help=spec.help)
    elif spec.kind == "int":
        parse = _checked(spec, int, "a whole number")
        group.add_argument(*names, dest=dest, type=parse, default=keep, metavar="N", help=spec.help)
    else:
        parse = _checked(spec, float, "a number")
        group.add_argument(*names, dest=dest, type=parse, default=keep, metavar="X", help=spec.help)


def add_scoring(
    parser: argparse.ArgumentParser,
    *,
    segments_help: str,
    default_metrics: str = ",".join(map(cli_name, DEFAULT_METRICS)),
    separator_help: str = SEPARATOR_HELP,
) -> None:
    """``--metrics``, ``--segments``, ``--lsum-sep`` and every metric's own options.

    ``default_metrics`` is what ``--help`` says the metrics are when none are named."""
    what = parser.add_argument_group("what to score")
    what.add_argument(
        "--metrics",
        "-m",
        default=argparse.SUPPRESS,
        metavar="LIST",
        help=f"comma-separated, from {', '.join(cli_name(k) for k in METRIC_OPTIONS)} "
        f"(default: {default_metrics})",
    )
    what.add_argument("--segments", metavar="SPEC", help=segments_help)
    what.add_argument("--lsum-sep", default=argparse.SUPPRESS, metavar="SEP", help=separator_help)

    for metric in METRIC_OPTIONS.values():
        group = parser.add_argument_group(f"{metric.label} (with --metrics {cli_name(metric.key)})")
        defaults = metric.settings_type()
        for spec in metric.settings:
            _add_setting(group, metric.key, spec, getattr(defaults, spec.key))


def parse_separator(text: str) -> str | None:
    """``--lsum-sep``'s value: ``none``, or a string with backslash escapes decoded."""
    if text.lower() == "none":
        return None
    try:
        separator = text.encode("latin-1", "backslashreplace").decode("unicode_escape")
    except UnicodeDecodeError as error:
        raise SettingError(f"--lsum-sep {text!r}: {error.reason}") from None
    if not separator:
        raise SettingError("--lsum-sep must not be empty (use 'none' for no sentences)")
    return separator


def config_from_args(args: argparse.Namespace, base: ScoringConfig | None = None) -> ScoringConfig:
    """``base`` (a saved session's configuration; None: the defaults) with the scoring options
    given on the command line. Raises :class:`~core.metrics.base.SettingError`."""
    from matchlight.core.scoring.config import ScoringConfig

    config = base or ScoringConfig()
    if hasattr(args, "metrics"):
        config = config.with_metrics(parse_metrics(args.metrics))
    if hasattr(args, "lsum_sep"):
        config = config.with_separator(parse_separator(args.lsum_sep))
    for metric in METRIC_OPTIONS.values():
        given = {
            spec.key: getattr(args, _dest(metric.key, spec))
            for spec in metric.settings
            if hasattr(args, _dest(metric.key, spec))
        }
        if given:
            config = config.with_settings(metric.key, **given)
    return config


# -- scoring --------------------------------------------------------------------------------------


def add_running(
    group: argparse._ArgumentGroup,
    *,
    quiet_help: str = "no warnings on stderr",
    workers: int = 1,
) -> None:
    """``--workers`` (default ``workers``) and ``--quiet``."""
    default = "all cores" if workers == 0 else str(workers)
    group.add_argument(
        "--workers",
        type=count("--workers", minimum=0, maximum=256),
        default=workers,
        metavar="N",
        help=f"processes to score with (0 = all cores; default {default})",
    )
    group.add_argument("--quiet", "-q", action="store_true", help=quiet_help)


#: ``--engine``'s choices (:data:`core.scoring.engines.ENGINES`, which imports nothing
#: before it runs).
ENGINE_NAMES = ("local", "dask", "ray")


def add_engine(parser: argparse.ArgumentParser) -> None:
    """``--engine`` and ``--engine-address``: where the chunks are scored."""
    group = parser.add_argument_group(
        "engine (where the chunks are scored; the numbers never depend on it)"
    )
    group.add_argument(
        "--engine",
        choices=ENGINE_NAMES,
        default="local",
        help="local: --workers processes of this machine (default); dask, ray: the workers of "
        "a Dask or Ray cluster (pip install 'matchlight[dask]' or 'matchlight[ray]'): the one "
        "at --engine-address, or a local one of --workers workers started for the run",
    )
    group.add_argument(
        "--engine-address",
        metavar="ADDRESS",
        help="the cluster's scheduler (Dask: tcp://HOST:8786) or head node (Ray: HOST:6379, "
        "or 'auto' for the one running on this machine)",
    )
    group.add_argument(
        "--task-rows",
        type=count("--task-rows", minimum=1, maximum=1_000_000),
        metavar="N",
        help="rows scored per task (default: 2048, fewer for a small input so that every "
        "worker gets several); larger tasks spend less on a remote cluster's round trips",
    )


def score_comparison(
    comparison: Comparison, config: ScoringConfig, *, workers: int
) -> tuple[ScoreTable, CorpusText]:
    """Every row of ``comparison`` scored with ``workers`` processes (``--workers``: 0 = all
    cores), and the texts scored: for a command that shows the texts (``report``)."""
    from matchlight.core.scoring.engine import default_workers, score_corpus

    text = comparison.corpus_text()
    processes = default_workers() if workers == 0 else workers
    return score_corpus(text, config, workers=processes), text
