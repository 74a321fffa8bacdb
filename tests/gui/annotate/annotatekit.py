"""The main window with annotation under test: a :class:`Harness` with private settings and
captured dialogs, a six-line comparison with astral characters, and small steps the tests share.
Fixtures are in tests/gui/annotate/conftest.py."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QSettings, Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from matchlight.core.annotation.model import ErrorSpan
from matchlight.core.io.inputs import InputSpec
from matchlight.gui.annotate.controller import AnnotationController
from matchlight.gui.annotate.install import Annotations
from matchlight.gui.dialogs.opendialog import ComparisonSpecs
from matchlight.gui.shell.mainwindow import MainWindow
from matchlight.gui.shell.sessionfiles import SessionFiles

TIMEOUT = 120_000
EMOJI = "\U0001f600"  # 😀: two UTF-16 units
RARE_CJK = "\U00020000"  # 𠀀: two UTF-16 units
SOURCE = [
    "Die Katze sitzt auf der Matte.",
    "Ein seltenes Zeichen erscheint hier.",
    "Der Hund schläft im Garten.",
    "Wir sehen Licht vom Mond.",
    "Das Wetter ist heute schön.",
    "Sie kauft frisches Brot.",
]
REFERENCE = [
    "The cat sits on the mat.",
    "A rare character appears here.",
    "The dog sleeps in the garden.",
    "We see light from the moon.",
    "The weather is nice today.",
    "She buys fresh bread.",
]
SYSTEM_A = [
    f"The cat {EMOJI} sat on the mat.",
    f"A rare {RARE_CJK} sign shows up here.",
    "The dog sleep in garden.",
    f"We {EMOJI}{EMOJI} see the light of moon.",
    "Weather is good today.",
    "She buys bread fresh.",
]
SYSTEM_B = [
    "The cat sits on the carpet.",
    f"A {RARE_CJK} rare character appears there.",
    "The dog is sleeping in the garden.",
    "We see light from the moon.",
    "The weather today is nice.",
    f"She buy fresh bred {EMOJI}.",
]


def write_lines(path: Path, lines: list[str]) -> Path:
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def small_specs(folder: Path) -> ComparisonSpecs:
    """A six-line comparison with emoji and a CJK Extension B ideograph in the outputs."""
    folder.mkdir(parents=True, exist_ok=True)
    return ComparisonSpecs(
        source=InputSpec(path=str(write_lines(folder / "src.de", SOURCE))),
        references=(InputSpec(path=str(write_lines(folder / "ref.en", REFERENCE)), name="ref"),),
        systems=(
            InputSpec(path=str(write_lines(folder / "sys.A.en", SYSTEM_A)), name="A"),
            InputSpec(path=str(write_lines(folder / "sys.B.en", SYSTEM_B)), name="B"),
        ),
    )


class Harness:
    """A main window with annotation, private settings and recovery folder, captured dialogs."""

    def __init__(self, qtbot, tmp_path: Path, name: str = "w") -> None:
        self.qtbot = qtbot
        self.tmp_path = tmp_path
        self.settings = QSettings(str(tmp_path / f"{name}.ini"), QSettings.Format.IniFormat)
        self.settings.setValue("annotation/annotator", "ann")
        self.errors: list[tuple[str, str]] = []
        self.notices: list[tuple[str, str]] = []
        self.paths: list[str | None] = []
        self.window = MainWindow(settings=self.settings, error_sink=self._on_error)
        qtbot.addWidget(self.window)
        #: The annotation feature's parts, its controller and the session files behind it.
        self.a: Annotations = self.window.annotations
        self.c: AnnotationController = self.a.controller
        self.s: SessionFiles = self.window.sessions
        self.offers: list[tuple[str, str]] = []
        self.c.notice_sink = self._on_notice
        self.s.notice_sink = self._on_notice
        self.s.offer_save_as = self._on_offer
        self.a.ui.ask_path = self._ask_path
        self.window.resize(1400, 900)

    def _on_error(self, title: str, message: str) -> None:
        self.errors.append((title, message))

    def _on_notice(self, title: str, message: str) -> None:
        self.notices.append((title, message))

    def _on_offer(self, title: str, message: str) -> None:
        self.offers.append((title, message))

    def _ask_path(self, parent, caption, suggested, file_filter, saving) -> str | None:
        return self.paths.pop(0) if self.paths else None

    def open_session(self, path: Path, **kwargs) -> bool:
        """Open a session file and wait until it is read: True when its comparison is being
        opened, False when it was refused (the reason is in :attr:`errors` or a dialog)."""
        assert self.s.open_session(path, **kwargs), self.errors
        self.qtbot.waitUntil(lambda: not self.s.is_reading_file(), timeout=TIMEOUT)
        return self.s.is_opening()

    def import_annotations(self, path: Path, fmt: str, **kwargs):
        """Import a file of pre-annotations (read in a worker) and wait: its ImportResult, or
        None when it was refused (the reason is in :attr:`errors`)."""
        transfer = self.a.transfer
        with self.qtbot.waitSignal(transfer.import_finished, timeout=TIMEOUT) as blocker:
            transfer.import_annotations(path, fmt, **kwargs)
        return blocker.args[0]

    def agreement_with(self, path: Path):
        """Agreement with another session (computed in a worker): the report, or None."""
        transfer = self.a.transfer
        with self.qtbot.waitSignal(transfer.agreement_finished, timeout=TIMEOUT) as blocker:
            transfer.agreement_with(path)
        return blocker.args[0]

    def open(self, specs: ComparisonSpecs) -> None:
        with self.qtbot.waitSignal(self.window.controller.scoring_finished, timeout=TIMEOUT):
            assert self.window.open_specs(specs), self.errors
        self.settle()

    def settle(self) -> None:
        pane = self.window.detail_pane
        segment = self.window.current_segment()
        if segment is not None:
            self.qtbot.waitUntil(
                lambda: pane.detail() is not None and pane.detail().segment == segment,
                timeout=TIMEOUT,
            )
        for _ in range(3):
            QApplication.processEvents()

    def select_row(self, segment: int) -> None:
        assert self.c.go_to_segment(segment)
        self.settle()

    def view(self, system: int | None = None):
        return self.window.detail_pane.hypothesis_view(self.c.system if system is None else system)

    def key(self, key, modifier=Qt.KeyboardModifier.NoModifier, widget=None) -> None:
        target = widget or QApplication.focusWidget() or self.view()
        QTest.keyClick(target, key, modifier)
        QApplication.processEvents()

    def select_text(self, start: int, end: int) -> None:
        """Select code points start:end of the current output with the keyboard (Home, Right,
        Shift+Right), as a translator would."""
        self.c.focus_text()
        view = self.view()
        assert view.hasFocus()
        line = self.c.line(*self.c.target())
        self.key(Qt.Key.Key_Home, widget=view)
        for _ in range(start):
            self.key(Qt.Key.Key_Right, widget=view)
        for _ in range(end - start):
            self.key(Qt.Key.Key_Right, Qt.KeyboardModifier.ShiftModifier, widget=view)
        selected = self.c.selection()
        assert selected is not None and (selected.start, selected.end) == (start, end), (
            selected,
            line,
        )


def add(
    c: AnnotationController,
    system: int,
    segment: int,
    start: int,
    end: int,
    severity: str,
    category: str = "Accuracy",
    note: str = "",
) -> ErrorSpan:
    span = c.add_span(
        start=start,
        end=end,
        severity=severity,
        category=category,
        note=note,
        segment=segment,
        system=system,
    )
    assert span is not None, c.message
    return span


def wait_scored(h: Harness, config=None) -> None:
    window = h.window
    h.qtbot.waitUntil(
        lambda: (
            window.table is not None
            and window.table.complete
            and not window.controller.running
            and (config is None or window.config == config)
        ),
        timeout=TIMEOUT,
    )
    h.settle()


def open_in_new_window(qtbot, tmp_path: Path, path: Path, name: str, **kwargs) -> Harness:
    other = Harness(qtbot, tmp_path, name=name)
    other.window.show()
    assert other.s.open_session(path, **kwargs), other.errors
    return other
