"""GUI test setup: offscreen Qt, Qt warnings fail tests, shared scored corpora, screenshots.

Qt warnings fail a test the qutebrowser way (``qt_log_level_fail = WARNING``). pyproject.toml
is shared, so instead of the ini option every test collected under ``tests/gui`` gets the
equivalent ``qt_log_level_fail("WARNING")`` marker, plus a ``qt_log_ignore`` marker for the
offscreen platform's harmless notices. A test can still override both with its own markers.
"""

from __future__ import annotations

import contextlib
import gc
import os
import shutil
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from matchlight.core.scoring.config import ScoringConfig
from matchlight.core.scoring.detail import RowDetail, RowDetailer
from matchlight.core.scoring.engine import score_corpus
from matchlight.core.scoring.results import ScoreTable
from matchlight.core.text.corpus import CorpusText, corpus_text_from_lines
from matchlight.gui.shell.qtfix import guard_none_refcount
from tests.conftest import SAMPLE, SHARED_DATA
from tests.kit import read_lines

os.environ["QT_QPA_PLATFORM"] = "offscreen"  # before anything imports a Qt GUI module

# The PySide6 workaround the app itself uses (see matchlight.gui.shell.qtfix), before any test
# makes a Qt call.
_IMMORTALIZED = guard_none_refcount()


HERE = Path(__file__).resolve().parent
SAMPLE_DIR = SAMPLE
DATA_DIR = SHARED_DATA
SHOTS_DIR = Path("/tmp/matchlight-shots")

#: Messages the offscreen platform prints for any shown top-level window; not our bugs.
OFFSCREEN_NOISE = (
    r"This plugin does not support propagateSizeHints\(\)",
    r"This plugin does not support raise\(\)",
    r"This plugin does not support grabbing the keyboard",
    r"QFont::setPointSizeF: Point size <= 0",
)


def pytest_report_header(config: pytest.Config) -> str | None:
    if _IMMORTALIZED:
        return "tests/gui: PySide6 drops None references; None/True/False made immortal"
    return None


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        if HERE not in Path(str(item.path)).resolve().parents:
            continue
        if item.get_closest_marker("qt_log_level_fail") is None:
            item.add_marker(pytest.mark.qt_log_level_fail("WARNING"))
        if item.get_closest_marker("qt_log_ignore") is None:
            item.add_marker(pytest.mark.qt_log_ignore(*OFFSCREEN_NOISE))


@pytest.fixture(autouse=True, scope="session")
def _garbage_collection_in_the_gui_thread() -> Iterator[None]:
    """Collect cyclic garbage only in the GUI thread, as the application must.

    Automatic collection runs in whichever thread happens to allocate. When that is a worker
    (the scoring worker, the detail cache's runnable), Python finalizes cycles that hold
    GUI-thread QObjects (windows of earlier tests) in the worker, Qt destroys widgets off the
    GUI thread ("QObject::~QObject: Timers cannot be stopped from another thread") and the
    process crashes soon after. pyqtgraph's ``GarbageCollector`` is the same remedy for the app.
    """
    gc.collect()
    was_enabled = gc.isenabled()
    gc.disable()
    yield
    if was_enabled:
        gc.enable()


#: A full collection every this many tests; the young generations after every test.
FULL_COLLECTION_EVERY = 25
_tests_since_full = [0]


@pytest.fixture(autouse=True)
def _collect_after_each_test(_garbage_collection_in_the_gui_thread: None) -> Iterator[None]:
    """What a test leaves behind is collected in the GUI thread after it. A full collection
    walks every object the process holds, and its cost grew with the tests before it (0.1 s
    a test by the middle of a run, a third of the suite's time): the young generations, where
    a test's own garbage is, are collected after every test, everything every
    :data:`FULL_COLLECTION_EVERY` tests."""
    yield
    _close_top_level_widgets()
    _tests_since_full[0] += 1
    if _tests_since_full[0] >= FULL_COLLECTION_EVERY:
        _tests_since_full[0] = 0
        gc.collect()
    else:
        gc.collect(1)


def _close_top_level_widgets() -> None:
    """Close what a test left on screen (windows, docks, dialogs), as a user quitting would: a
    window shuts its background jobs down in its ``closeEvent``, and a closed one no longer
    answers its timers and its session's signals in the tests after it. (Deleting them here
    would pull the objects out from under a job still finishing in its thread.)"""
    from PySide6.QtWidgets import QApplication

    if QApplication.instance() is None:
        return
    for widget in QApplication.topLevelWidgets():
        if widget.isVisible():
            widget.close()


@dataclass(frozen=True)
class Scored:
    """A scored comparison, ready for a model: texts, source lines, table, config, ref names."""

    text: CorpusText
    source: list[str] | None
    table: ScoreTable
    config: ScoringConfig
    reference_names: tuple[str, ...]

    def session(self) -> Any:
        """A new :class:`~gui.state.session.SessionModel` over this (already scored) table.

        Each call gives a fresh session (its own baseline and selection) sharing the table.
        """
        from matchlight.core.session.comparison import ComparisonSession
        from matchlight.gui.state.session import SessionModel

        core = ComparisonSession(
            self.text,
            config=self.config,
            source=self.source,
            reference_names=self.reference_names,
            table=self.table,
        )
        return SessionModel(core)

    def detail(self, segment: int, config: ScoringConfig | None = None) -> RowDetail:
        """Row ``segment``'s detail straight from core (under ``config``, else this one's)."""
        text = self.text
        return RowDetailer(config or self.config).row(
            segment=segment,
            source=None if self.source is None else self.source[segment],
            references=[r[segment] for r in text.references],
            systems=list(zip(text.system_names, [s[segment] for s in text.systems], strict=True)),
        )

    def model(self, **kwargs: Any) -> Any:
        """A :class:`~gui.table.model.SegmentTableModel` over a fresh session."""
        from matchlight.gui.table.model import SegmentTableModel

        return SegmentTableModel(self.session(), **kwargs)


def scored(
    *,
    references: list[list[str]],
    systems: dict[str, list[str]],
    source: list[str] | None = None,
    config: ScoringConfig | None = None,
    reference_names: tuple[str, ...] | None = None,
) -> Scored:
    config = config or ScoringConfig()
    text = corpus_text_from_lines(
        references=references, systems=list(systems.values()), names=list(systems)
    )
    names = reference_names or tuple(f"Ref {r + 1}" for r in range(len(references)))
    return Scored(text, source, score_corpus(text, config), config, names)


@pytest.fixture(scope="session")
def sample() -> Scored:
    """The bundled German-English sample: source, 2 references, 3 systems, 160 lines."""
    if not (SAMPLE_DIR / "sys.rough.txt").exists():
        pytest.skip("the bundled sample is not there")
    names = ("fluent", "literal", "rough")
    return scored(
        references=[read_lines(SAMPLE_DIR / "ref.en.txt"), read_lines(SAMPLE_DIR / "ref2.en.txt")],
        systems={n: read_lines(SAMPLE_DIR / f"sys.{n}.txt") for n in names},
        source=read_lines(SAMPLE_DIR / "src.de.txt"),
        reference_names=("ref.en", "ref2.en"),
    )


@pytest.fixture(scope="session")
def wmt_zh() -> Scored:
    """WMT22 en-zh (first 400 lines, 2 references, 3 systems) with the zh tokenizer."""
    folder = DATA_DIR / "wmt22-en-zh"
    if not (folder / "ref.txt").exists():
        pytest.skip("/work/shared/data/wmt22-en-zh is not there")
    n = 400
    names = ("HuaweiTSC", "LanguageX", "Online-Y")
    config = ScoringConfig().with_settings("bleu", tokenize="zh")
    config = config.with_settings("rouge", tokenizer="unicode")
    return scored(
        references=[read_lines(folder / "ref.txt")[:n], read_lines(folder / "ref2.txt")[:n]],
        systems={s: read_lines(folder / f"sys.{s}.txt")[:n] for s in names},
        source=read_lines(folder / "src.txt")[:n],
        config=config,
        reference_names=("ref", "ref2"),
    )


@pytest.fixture(scope="session")
def make_scored() -> object:
    """The :func:`scored` helper, for tests that build their own small comparisons."""
    return scored


def grab_settled(widget: Any) -> Any:
    """``widget.grab()`` with every item view in it painting all its cells in full.

    The table's delegate paints within time budgets and leaves late cells to its next paint
    (gui.table.delegate.BUILD_BUDGET_MS, PAINT_BUDGET_MS); a screenshot wants them all at once.
    """
    from PySide6.QtWidgets import QAbstractItemView

    views = [widget, *widget.findChildren(QAbstractItemView)]
    with contextlib.ExitStack() as stack:
        for view in views:
            if isinstance(view, QAbstractItemView) and hasattr(view.itemDelegate(), "unbounded"):
                stack.enter_context(view.itemDelegate().unbounded())
        return widget.grab()


def first_rows(folder: Path, target: Path, n: int) -> Path:
    """The first ``n`` lines of every ``*.txt`` file of ``folder`` (source, references, system
    outputs), written under the same names into ``target / folder.name``, which is returned:
    real data for a window that needs to show it, not to score all of it."""
    part = target / folder.name
    part.mkdir(parents=True)
    for path in sorted(folder.glob("*.txt")):
        lines = read_lines(path)[:n]
        (part / path.name).write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return part


def qrgb_words(image: Any) -> np.ndarray:
    """``image``'s pixels as a ``(height, width)`` array of what ``QImage.pixel`` returns for
    each: the stored 32-bit word (RGB32 with an opaque alpha), read in one go."""
    from PySide6.QtGui import QImage

    fmt = image.format()
    words32 = (
        QImage.Format.Format_RGB32,
        QImage.Format.Format_ARGB32,
        QImage.Format.Format_ARGB32_Premultiplied,
    )
    if fmt not in words32:
        image = image.convertToFormat(QImage.Format.Format_ARGB32)
    words = np.frombuffer(image.constBits(), dtype=np.uint32, count=image.sizeInBytes() // 4)
    words = words.reshape(image.height(), image.bytesPerLine() // 4)[:, : image.width()].copy()
    if fmt == QImage.Format.Format_RGB32:
        words |= np.uint32(0xFF000000)
    return words


def rgb_pixels(image: Any) -> np.ndarray:
    """``image``'s pixels as a ``(height, width, 3)`` int array of red, green and blue: what
    ``QImage.pixelColor`` reads pixel by pixel (non-premultiplied), read in one go."""
    from PySide6.QtGui import QImage

    argb = image.convertToFormat(QImage.Format.Format_ARGB32)
    words = np.frombuffer(argb.constBits(), dtype=np.uint32, count=argb.sizeInBytes() // 4)
    words = words.reshape(argb.height(), argb.bytesPerLine() // 4)[:, : argb.width()]
    channels = [(words >> shift) & 0xFF for shift in (16, 8, 0)]  # 0xAARRGGBB, native order
    return np.stack(channels, axis=-1).astype(np.int32)


@pytest.fixture
def save_shot(tmp_path: Path) -> Iterator[object]:
    """``save_shot(widget, name)``: a PNG in tmp_path, copied to /tmp/matchlight-shots."""

    def save(widget: object, name: str) -> Path:
        path = tmp_path / f"{name}.png"
        assert grab_settled(widget).save(str(path)), f"could not save {path}"
        SHOTS_DIR.mkdir(parents=True, exist_ok=True)
        shutil.copy(path, SHOTS_DIR / path.name)
        return path

    yield save
