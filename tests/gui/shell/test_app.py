"""Starting the app: command line, sample, files from the command line, excepthook, run()."""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import sys
from pathlib import Path

import pytest
from PySide6.QtCore import QEventLoop, QObject, QSettings, QTimer, Slot
from PySide6.QtWidgets import QApplication

from matchlight.core.io.inputs import InputError, InputSpec
from matchlight.gui.dialogs.opendialog import sample_specs
from matchlight.gui.shell import app as app_module
from matchlight.gui.shell.app import (
    build_parser,
    create_window,
    install_excepthook,
    run,
    specs_from_args,
)
from matchlight.gui.shell.mainwindow import MainWindow
from tests.conftest import SHARED_DATA

ZH = SHARED_DATA / "wmt22-en-zh"
TIMEOUT = 120_000


@pytest.fixture
def settings(tmp_path):
    return QSettings(str(tmp_path / "matchlight.ini"), QSettings.Format.IniFormat)


def test_parser_options():
    parser = build_parser()
    args = parser.parse_args(["--sample"])
    assert args.sample
    assert args.ref == [] and args.hyp == [] and args.src is None
    args = parser.parse_args(
        ["--src", "s.txt", "--ref", "r.txt", "--ref", "r2.txt", "--hyp", "A=a.txt", "--hyp", "b"]
    )
    assert args.src == "s.txt"
    assert args.ref == ["r.txt", "r2.txt"]
    assert args.hyp == ["A=a.txt", "b"]
    options = {a.dest for a in parser._actions}
    assert {"sample", "src", "ref", "hyp", "version"} <= options


def test_specs_from_args(tmp_path):
    parser = build_parser()
    assert specs_from_args(parser.parse_args([])) is None
    assert specs_from_args(parser.parse_args(["--sample"])) == sample_specs()
    ref = tmp_path / "ref.txt"
    hyp = tmp_path / "sys.best.txt"
    for p in (ref, hyp):
        p.write_text("x\n", encoding="utf-8")
    specs = specs_from_args(
        parser.parse_args(["--ref", str(ref), "--hyp", str(hyp), "--hyp", f"Mine={hyp}"])
    )
    assert specs.source is None
    assert specs.references == (InputSpec(path=str(ref)),)
    assert [(s.name, s.path) for s in specs.systems] == [("best", str(hyp)), ("Mine", str(hyp))]
    with pytest.raises(InputError, match="--ref"):
        specs_from_args(parser.parse_args(["--hyp", str(hyp)]))
    with pytest.raises(InputError, match="--hyp"):
        specs_from_args(parser.parse_args(["--ref", str(ref)]))
    with pytest.raises(InputError, match="--sample cannot be combined"):
        specs_from_args(parser.parse_args(["--sample", "--ref", str(ref)]))


def test_sample_window(qtbot, settings):
    errors: list[tuple[str, str]] = []

    def sink(title: str, message: str) -> None:
        errors.append((title, message))

    window = create_window(
        build_parser().parse_args(["--sample"]), settings=settings, error_sink=sink
    )
    qtbot.addWidget(window)
    try:
        # Reading started at once (the window says so, never "No comparison open"); scoring
        # follows. Wait for it to end.
        assert window.is_reading()
        assert window.pages.currentWidget() is window.reading_page
        qtbot.waitUntil(lambda: window.table is not None and window.table.complete, timeout=TIMEOUT)
        assert errors == []
        assert window.windowTitle() == "sample — Matchlight"
        assert [c.name for c in window.comparison.systems] == ["fluent", "literal", "rough"]
        assert len(window.comparison.references) == 2
        assert window.table.complete
        assert window.table.corpus(0).values["bleu"] == pytest.approx(50.5, abs=0.05)
    finally:
        window.close()


def test_files_from_the_command_line(qtbot, settings):
    if not ZH.is_dir():
        pytest.skip("shared/data/wmt22-en-zh is not present")
    argv = [
        "--src",
        str(ZH / "src.txt"),
        "--ref",
        str(ZH / "ref.txt"),
        "--ref",
        str(ZH / "ref2.txt"),
        "--hyp",
        f"Huawei={ZH / 'sys.HuaweiTSC.txt'}",
        "--hyp",
        str(ZH / "sys.Online-B.txt"),
    ]
    window = create_window(build_parser().parse_args(argv), settings=settings)
    qtbot.addWidget(window)
    try:
        assert window.is_reading()
        qtbot.waitUntil(lambda: window.table is not None and window.table.complete, timeout=TIMEOUT)
        assert [c.name for c in window.comparison.systems] == ["Huawei", "Online-B"]
        assert window.windowTitle() == "wmt22-en-zh — Matchlight"
        assert window.table.n_segments == 2037
    finally:
        window.close()


def test_unreadable_file_on_the_command_line_shows_the_error(qtbot, settings, tmp_path):
    errors: list[tuple[str, str]] = []

    def sink(title: str, message: str) -> None:
        errors.append((title, message))

    missing = tmp_path / "nope.txt"
    args = build_parser().parse_args(["--ref", str(missing), "--hyp", str(missing)])
    window = create_window(args, settings=settings, error_sink=sink)
    qtbot.addWidget(window)
    try:
        qtbot.waitUntil(lambda: not window.is_reading(), timeout=TIMEOUT)
        assert errors == [("Cannot open the comparison", f"{missing}: file not found")]
        assert window.comparison is None
        assert window.pages.currentWidget() is window.welcome
    finally:
        window.close()


def test_empty_window_without_arguments(qtbot, settings):
    window = create_window(build_parser().parse_args([]), settings=settings)
    qtbot.addWidget(window)
    try:
        assert window.comparison is None
        assert window.pages.currentWidget() is window.welcome
        assert window.welcome.open_button.text() == "Open comparison…"
    finally:
        window.close()


def test_excepthook_shows_a_dialog_and_logs_the_traceback(capsys):
    shown: list[tuple[str, str]] = []

    def show(title: str, message: str) -> None:
        shown.append((title, message))

    previous = install_excepthook(show)
    try:
        try:
            raise ValueError("the reference file vanished")
        except ValueError as exc:
            sys.excepthook(type(exc), exc, exc.__traceback__)
    finally:
        sys.excepthook = previous
    ((title, message),) = shown
    assert title == "Unexpected error — Matchlight"
    assert "the reference file vanished (ValueError)" in message
    assert "Traceback" not in message
    err = capsys.readouterr().err
    assert "Traceback (most recent call last)" in err
    assert "ValueError: the reference file vanished" in err


def test_excepthook_survives_a_failing_dialog(capsys):
    def broken(title: str, message: str) -> None:
        raise RuntimeError("no display")

    previous = install_excepthook(broken)
    try:
        try:
            raise KeyError("x")
        except KeyError as exc:
            sys.excepthook(type(exc), exc, exc.__traceback__)
    finally:
        sys.excepthook = previous
    err = capsys.readouterr().err
    assert "KeyError" in err
    assert "could not show the error dialog" in err


def test_default_error_dialog_is_not_modal(qtbot):
    app_module._show_unexpected_error("Unexpected error — Matchlight", "boom")
    boxes = [
        w
        for w in QApplication.topLevelWidgets()
        if w.objectName() == "matchlight-unexpected-error" and w.isVisible()
    ]
    assert len(boxes) == 1
    assert not boxes[0].isModal()
    # A second error while one is shown does not pile up dialogs.
    app_module._show_unexpected_error("Unexpected error — Matchlight", "boom again")
    again = [
        w
        for w in QApplication.topLevelWidgets()
        if w.objectName() == "matchlight-unexpected-error" and w.isVisible()
    ]
    assert again == boxes
    boxes[0].close()


def test_help_and_usage_errors_return_exit_codes(capsys):
    assert run(["--help"]) == 0
    assert "--sample" in capsys.readouterr().out
    assert run(["--no-such-option"]) == 2
    assert "unrecognized arguments" in capsys.readouterr().err


class _Session(QObject):
    """Stands in for QApplication.exec(): a local event loop that ends once the sample scored.

    (The real exec() would leave the test process's QApplication in its "quit" state.)
    """

    def __init__(self) -> None:
        super().__init__()
        self.loop = QEventLoop()
        self.window: MainWindow | None = None
        self.finished = False

    def exec(self, *_args) -> int:
        QTimer.singleShot(0, self.find_window)
        return self.loop.exec()

    @Slot()
    def find_window(self) -> None:
        for widget in QApplication.topLevelWidgets():
            if isinstance(widget, MainWindow) and widget.isVisible():
                self.window = widget
                widget.controller.scoring_finished.connect(self.close)
                if widget.table is not None and widget.table.complete:
                    self.close()
                return
        QTimer.singleShot(50, self.find_window)

    @Slot()
    def close(self) -> None:
        window = self.window
        self.finished = window is not None and window.table is not None and window.table.complete
        if self.window is not None:
            self.window.close()
        self.loop.exit(0)


def test_run_opens_the_sample_and_returns(qtbot, tmp_path, monkeypatch):
    # Keep the run's default QSettings out of the real home directory.
    QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, str(tmp_path))
    QSettings.setPath(QSettings.Format.NativeFormat, QSettings.Scope.UserScope, str(tmp_path))
    session = _Session()
    monkeypatch.setattr(QApplication, "exec", session.exec)
    before = sys.excepthook
    assert run(["--sample"]) == 0
    assert session.finished
    assert sys.excepthook is before  # restored
    app = QApplication.instance()
    assert app.applicationName() == "Matchlight"
    assert app.organizationName() == "Matchlight"
    assert any(tmp_path.rglob("*.conf")) or any(tmp_path.rglob("*.ini"))


def test_application_is_tuned_for_a_responsive_gui_thread(qapp) -> None:
    from matchlight.gui.shell.app import GIL_SWITCH_INTERVAL_S, ensure_application

    assert ensure_application() is qapp
    assert sys.getswitchinterval() <= GIL_SWITCH_INTERVAL_S


def _anon_huge_kb(address: int) -> int | None:
    """AnonHugePages (kB) of the memory mapping holding ``address``, from /proc/self/smaps."""
    mapping = None
    for line in Path("/proc/self/smaps").read_text().splitlines():
        head = line.split()[0]
        if "-" in head and ":" not in head:
            low, high = (int(x, 16) for x in head.split("-"))
            mapping = low <= address < high
        elif mapping and line.startswith("AnonHugePages:"):
            return int(line.split()[1])
    return None


def test_numpy_arrays_get_no_transparent_huge_pages(qapp) -> None:
    """Where the kernel hands out huge pages only to memory that asks for them (``madvise``,
    as on this project's machines), a big array made after ensure_application() gets none:
    the first write to each would stall the GUI thread on memory compaction."""
    import numpy as np

    from matchlight.gui.shell.app import ensure_application, no_huge_pages_for_numpy

    mode = Path("/sys/kernel/mm/transparent_hugepage/enabled")
    if not mode.exists() or "[madvise]" not in mode.read_text():
        pytest.skip("transparent huge pages are not in madvise mode here")
    ensure_application()
    assert no_huge_pages_for_numpy()  # this numpy can be told
    array = np.empty(64 << 20, dtype=np.uint8)  # 64 MiB: many 2 MiB pages
    array[::4096] = 1  # touch every page
    # The middle of the array: numpy advises only its 2 MiB-aligned part, a mapping of its own.
    huge = _anon_huge_kb(array.ctypes.data + (32 << 20))
    assert huge == 0, f"{huge} kB of huge pages"


def test_the_app_has_numpys_openblas_compute_in_the_calling_thread_only():
    """An OpenBLAS thread per extra core spins on its core for a while after every product
    handed to it: on two cores, the GUI thread's core after each product a worker makes."""
    import numpy as np
    from threadpoolctl import threadpool_info

    from matchlight.gui.shell.app import ensure_application

    ensure_application()
    blas = [pool for pool in threadpool_info() if pool["user_api"] == "blas"]
    if not blas:
        pytest.skip("numpy uses no BLAS that threadpoolctl knows here")
    assert [pool["num_threads"] for pool in blas] == [1] * len(blas)
    a = np.arange(40_000, dtype=np.float64).reshape(200, 200) / 1e4
    np.testing.assert_allclose(a @ a, np.einsum("ij,jk->ik", a, a))


def test_the_app_lets_its_gui_thread_go_first():
    """ensure_application installs the GUI thread's GuiFirst as core.pacing's pause gate (the
    reader pauses there between blocks)."""
    from matchlight.core import pacing
    from matchlight.gui.shell.app import ensure_application
    from matchlight.gui.workers.pacing import install_gui_first

    ensure_application()
    in_force = pacing.set_gate(None)
    pacing.set_gate(in_force)
    gate = install_gui_first()  # the one in force, not a new one
    if gate is None:
        pytest.skip("this system cannot tell that the GUI thread waits for events")
    assert gate.installed
    assert in_force == gate.pause
