"""Shared fixtures: where the team's real datasets are, and small helpers to load them.

Plain helpers (reading lines, skipping without data, a fake clock) are in tests/kit.py, the
reference libraries' private helpers in tests/refs.py.
"""

from __future__ import annotations

import contextlib
import logging
import os
import stat
import sys
import tempfile
import threading
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

import pytest
from hypothesis import settings

from matchlight.core.io.usercache import CACHE_ENV
from matchlight.core.scoring.config import ScoringConfig
from tests.kit import read_lines

# The commands the tests run keep their cached model files here, not in the user's cache.
os.environ.setdefault(CACHE_ENV, str(Path(tempfile.gettempdir()) / "matchlight-test-cache"))

# The suite starts hundreds of Python processes (its workers, the commands and the app it runs
# in subprocesses, the app's worker processes), and each would compile the same sources again
# where the environment says never to write bytecode (PYTHONDONTWRITEBYTECODE, as container
# images set it): the processes started from here on write and reuse it (into __pycache__,
# which git ignores). tests/core/cli + test_layout from cold caches, alternated: 113 -> 93 s
# and 80 -> 71 s.
if os.environ.pop("PYTHONDONTWRITEBYTECODE", None) is not None:
    sys.dont_write_bytecode = False


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """Workers for ``-n auto``: one more than the cores. Much of the suite waits rather than
    computes (Qt timers and event loops, subprocesses, a killed process restarted), and the
    extra worker keeps the cores busy meanwhile: on the idle 2-core machine the suite took 554 s
    with two workers, 492 s with three and 497 s with four. ``PYTEST_XDIST_AUTO_NUM_WORKERS``
    still decides when set."""
    chosen = os.environ.get("PYTEST_XDIST_AUTO_NUM_WORKERS")
    if chosen and chosen.isdigit():
        return int(chosen)
    return len(os.sched_getaffinity(0)) + 1 if hasattr(os, "sched_getaffinity") else 3


@pytest.hookimpl(tryfirst=True)  # before xdist's own, which makes the default `load`
def pytest_cmdline_main(config: pytest.Config) -> None:
    """With ``-n`` and no ``--dist``, the workers steal work from each other (``worksteal``)
    in the order :func:`pytest_collection_modifyitems` gives the tests, so no worker runs on
    alone at the end. Measured on the idle 2-core machine, the whole suite: 467 s with
    ``worksteal``, 602 s with whole files per worker (``loadfile``), 452-497 s with ``load``
    on 50 fewer tests."""
    numprocesses = getattr(config.option, "numprocesses", None)
    if numprocesses and getattr(config.option, "dist", "no") == "no":
        config.option.dist = "worksteal"


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Files holding a test marked ``slow`` run first (each file's tests stay together and in
    order): started last, one of them would keep a worker busy after the others are done."""
    slow_files = {item.path for item in items if item.get_closest_marker("slow") is not None}
    items.sort(key=lambda item: item.path not in slow_files)  # stable: order kept otherwise


ROOT = Path(__file__).resolve().parents[1]
SHARED_DATA = ROOT.parent / "shared" / "data"
SAMPLE = ROOT / "resources" / "sample"

# Hypothesis fails an example that takes over 200 ms by default: a wall-clock assertion that a
# loaded machine breaks. The tests assert behaviour, not speed.
settings.register_profile("matchlight", deadline=None)
settings.load_profile("matchlight")


# mteval-v13a's language-independent rewrites, in the order sacrebleu's Tokenizer13a applies
# them: the tests' own oracle for what a 13a token's span must map back to.
_MTEVAL_REWRITES = (
    ("<skipped>", ""),
    ("-\n", ""),
    ("\n", " "),
    ("&quot;", '"'),
    ("&amp;", "&"),
    ("&lt;", "<"),
    ("&gt;", ">"),
)


def rewrite_13a(text: str) -> str:
    for old, new in _MTEVAL_REWRITES:
        text = text.replace(old, new)
    return text


@dataclass(frozen=True)
class Dataset:
    name: str
    folder: Path
    refs: tuple[Path, ...]
    systems: tuple[Path, ...]
    source: Path | None
    lsum_separator: str | None = "\n"

    def read(self, path: Path) -> list[str]:
        return read_lines(path)


def discover_datasets() -> list[Dataset]:
    """Every folder of ``shared/data`` with a ``ref.txt`` and ``sys.*.txt`` files."""
    found: list[Dataset] = []
    if not SHARED_DATA.is_dir():
        return found
    for folder in sorted(p for p in SHARED_DATA.rglob("*") if p.is_dir()):
        refs = tuple(p for p in (folder / "ref.txt", folder / "ref2.txt") if p.exists())
        systems = tuple(sorted(folder.glob("sys.*.txt")))
        if not refs or not systems:
            continue
        src = folder / "src.txt"
        marked = folder.name == "sent_marked"
        found.append(
            Dataset(
                name=str(folder.relative_to(SHARED_DATA)),
                folder=folder,
                refs=refs,
                systems=systems,
                source=src if src.exists() else None,
                lsum_separator="<n>" if marked else "\n",
            )
        )
    return found


DATASETS = discover_datasets()


def dataset_params() -> list[object]:
    if not DATASETS:
        return [pytest.param(None, marks=pytest.mark.skip(reason="shared/data is not present"))]
    return [pytest.param(d, id=d.name) for d in DATASETS]


@pytest.fixture
def quiet_sacrebleu() -> Iterator[None]:
    """sacreBLEU logs a recommendation for every sentence scored without effective order.

    A module that scores many such sentences asks for it with
    ``pytestmark = pytest.mark.usefixtures("quiet_sacrebleu")``.
    """
    logger = logging.getLogger("sacrebleu")
    level = logger.level
    logger.setLevel(logging.ERROR)
    yield
    logger.setLevel(level)


ALL_METRICS = ("bleu", "rouge", "nltk_bleu")


def make_config(
    *,
    metrics: Sequence[str] = ALL_METRICS,
    tokenize: str = "13a",
    lowercase: bool = False,
    smooth_method: str = "exp",
    smooth_value: float | None = None,
    max_order: int = 4,
    effective_order: bool = True,
    nltk_tokenize: str = "none",
    nltk_smoothing: str = "method0",
    nltk_order: int = 4,
    rouge_tokenizer: str = "rouge-score",
    rouge_stem: bool = False,
    rouge_max_n: int = 2,
    separator: str | None = "\n",
) -> ScoringConfig:
    """A configuration from flat settings (the tests' shorthand)."""
    config = ScoringConfig(metrics=tuple(metrics), sentence_separator=separator)
    config = config.with_settings(
        "bleu",
        tokenize=tokenize,
        lowercase=lowercase,
        smooth_method=smooth_method,
        smooth_value=smooth_value,
        max_order=max_order,
        effective_order=effective_order,
    )
    config = config.with_settings(
        "nltk_bleu", tokenize=nltk_tokenize, smoothing=nltk_smoothing, max_order=nltk_order
    )
    return config.with_settings(
        "rouge", tokenizer=rouge_tokenizer, stem=rouge_stem, max_n=rouge_max_n
    )


def _release_fifos(paths: Sequence[Path]) -> None:
    """Open each named pipe in ``paths`` for writing (non-blocking), so that a reader blocked in
    ``open`` returns; nothing is written."""
    for path in paths:
        with contextlib.suppress(OSError):
            if stat.S_ISFIFO(os.stat(path).st_mode):
                os.close(os.open(path, os.O_WRONLY | os.O_NONBLOCK))


@pytest.fixture
def finishes() -> Callable[..., object]:
    """``finishes(call, *fifos, seconds=20)``: run ``call()`` in a thread and return what it
    returned or raised (the exception object). If it has not finished after ``seconds``, the
    test fails instead of hanging the suite; the named pipes ``fifos`` are then opened for
    writing so that a reader blocked on one is released."""

    def run(call: Callable[[], object], *fifos: Path, seconds: float = 20) -> object:
        outcome: list[object] = []

        def target() -> None:
            try:
                outcome.append(call())
            except BaseException as exc:  # handed to the test thread
                outcome.append(exc)

        thread = threading.Thread(target=target, daemon=True)
        thread.start()
        thread.join(seconds)
        if thread.is_alive():
            _release_fifos(fifos)
            pytest.fail(f"{call!r} did not return within {seconds} s")
        return outcome[0]

    return run
