"""Starting the desktop app: command line, QApplication, excepthook, main window.

``matchlight`` (without ``score``) ends up in :func:`run`. It opens the bundled sample with
``--sample``, the given files with ``--src/--ref/--hyp`` (scoring starts at once), or else an
empty window that invites the user to open a comparison.
"""

from __future__ import annotations

import argparse
import importlib
import logging
import sys
import traceback
from collections.abc import Callable, Sequence
from types import TracebackType

from PySide6.QtCore import QCoreApplication, QSettings, Qt
from PySide6.QtWidgets import QApplication, QMessageBox, QWidget

from matchlight.core import __version__
from matchlight.core.io.inputs import InputError
from matchlight.core.io.specs import ComparisonSpecs, specs_from_arguments
from matchlight.gui.dialogs.opendialog import sample_specs
from matchlight.gui.shell.language import install_from_settings
from matchlight.gui.shell.mainwindow import APP_NAME, ErrorSink, MainWindow
from matchlight.gui.workers.pacing import install_gui_first

log = logging.getLogger(__name__)

ORGANIZATION = "Matchlight"
ORGANIZATION_DOMAIN = "matchlight.invalid"

ExceptHook = Callable[[type[BaseException], BaseException, TracebackType | None], object]
# ``show(title, message)``: tells the user about an unexpected error.
ErrorDialog = Callable[[str, str], None]


def build_parser() -> argparse.ArgumentParser:
    """The command line of the desktop app (``matchlight score`` has its own, in core.cli)."""
    parser = argparse.ArgumentParser(
        prog="matchlight",
        description=(
            "Reference-based evaluation of generated text: BLEU, chrF, ROUGE and NLTK-BLEU per "
            "sentence and per corpus, with the matches highlighted. Headless commands: "
            "'matchlight score --help' (scores), 'matchlight compare --help' (paired "
            "significance tests), 'matchlight report --help' (a self-contained HTML report)."
        ),
    )
    parser.add_argument(
        "--sample", action="store_true", help="open the bundled German-English sample"
    )
    parser.add_argument(
        "--src", metavar="[NAME=]PATH", help="source file (optional; shown next to the outputs)"
    )
    parser.add_argument(
        "--ref",
        metavar="[NAME=]PATH",
        action="append",
        default=[],
        help="reference file; repeat for several references",
    )
    parser.add_argument(
        "--hyp",
        metavar="[NAME=]PATH",
        action="append",
        default=[],
        help="system output file; repeat for several systems (NAME defaults to the file stem)",
    )
    parser.add_argument("--version", action="version", version=f"matchlight {__version__}")
    parser.add_argument(
        "session",
        nargs="?",
        metavar="SESSION.matchlight",
        help="open a saved session (its files, settings, selection and annotations)",
    )
    return parser


def specs_from_args(args: argparse.Namespace) -> ComparisonSpecs | None:
    """The comparison asked for on the command line (None: start with an empty window), its
    paths taken from the working folder now.

    Raises :class:`~core.io.inputs.InputError` for an unusable combination of options.
    """
    if args.sample:
        if args.src or args.ref or args.hyp:
            raise InputError("--sample cannot be combined with --src, --ref or --hyp")
        return sample_specs()
    if not (args.src or args.ref or args.hyp):
        return None
    return specs_from_arguments(args.src, args.ref, args.hyp).absolute()


def start_session(window: MainWindow, args: argparse.Namespace, *, offer_recovery: bool) -> bool:
    """Open the session named on the command line (True: one was named), or else, at the
    app's start, offer the sessions a crash left behind."""
    path = getattr(args, "session", None)
    asked = any(getattr(args, name, None) for name in ("sample", "src", "ref", "hyp"))
    if path:
        if asked:
            window.report_error(
                QCoreApplication.translate("app", "Cannot open the session"),
                QCoreApplication.translate(
                    "app",
                    "A session file brings its own files: do not combine it with --sample, --src, "
                    "--ref or --hyp.",
                ),
            )
        else:
            window.sessions.open_session(path)
        return True
    if offer_recovery and not asked:
        window.sessions.offer_recovery()
    return False


def no_huge_pages_for_numpy() -> bool:
    """Stop numpy from asking the kernel for transparent huge pages; True if it could be told.

    numpy ``madvise``s every large array for huge pages. Where the kernel then compacts memory
    on a page fault (``defrag`` set to ``madvise``, as on this project's machines), the first
    write to each fresh 2 MB page of the score table stalls the GUI thread while the kernel
    compacts memory. The GUI does not need the huge pages' speed.
    """
    for module in ("numpy._core.multiarray", "numpy.core.multiarray"):
        try:
            multiarray = importlib.import_module(module)
            multiarray._set_madvise_hugepage(False)
        except (ImportError, AttributeError):
            continue
        return True
    return False


def single_threaded_blas() -> bool:
    """Have numpy's BLAS compute in the calling thread only (threadpoolctl); True if numpy
    has a BLAS it could tell.

    By default OpenBLAS keeps a thread per extra core, and after each product it hands work
    to, that thread spins on its core for about a tenth of a second, waiting for more. On two
    cores that is the GUI thread's core, taken after every product a worker (the language
    check, the significance tests) makes. The app's products are small: it gains nothing
    from the extra threads.
    """
    import numpy  # noqa: F401  (loads its BLAS)
    from threadpoolctl import ThreadpoolController

    blas = ThreadpoolController().select(user_api="blas")
    blas.limit(limits=1)
    return bool(blas.lib_controllers)


# How long a Python thread may hold the GIL while another one waits for it (Python's default
# is 5 ms). The GUI thread gives the GIL up at every call into Qt, and while a worker runs
# (the highlight thread computing rows, the reading thread) it then waits up to the whole
# interval to get it back, at every call: a repaint takes many times as long.
GIL_SWITCH_INTERVAL_S = 0.0002


def ensure_application(argv: Sequence[str] = ()) -> QApplication:
    """The running QApplication (created, with Matchlight's names, if there is none)."""
    no_huge_pages_for_numpy()
    single_threaded_blas()
    sys.setswitchinterval(min(sys.getswitchinterval(), GIL_SWITCH_INTERVAL_S))
    app = QApplication.instance()
    if app is None:
        app = QApplication([sys.argv[0] if sys.argv else "matchlight", *argv])
    if not isinstance(app, QApplication):
        raise TypeError("Matchlight needs a QApplication, not a bare QCoreApplication")
    app.setApplicationName(APP_NAME)
    app.setApplicationDisplayName(APP_NAME)
    app.setOrganizationName(ORGANIZATION)
    app.setOrganizationDomain(ORGANIZATION_DOMAIN)
    app.setApplicationVersion(__version__)
    install_gui_first()
    return app


_error_boxes: list[QMessageBox] = []


def _show_unexpected_error(title: str, message: str) -> None:
    """The default excepthook dialog: non-modal, at most one at a time."""
    app = QApplication.instance()
    if app is None:
        return
    for widget in QApplication.topLevelWidgets():
        if widget.objectName() == "matchlight-unexpected-error" and widget.isVisible():
            return  # one is enough; the details are in the log
    parent: QWidget | None = QApplication.activeWindow()
    box = QMessageBox(
        QMessageBox.Icon.Critical, title, message, QMessageBox.StandardButton.Ok, parent
    )
    box.setObjectName("matchlight-unexpected-error")
    box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    box.setWindowModality(Qt.WindowModality.NonModal)
    box.show()
    # Without a parent, only this reference keeps the box alive (it deletes itself on close).
    _error_boxes[:] = [box]


def install_excepthook(show: ErrorDialog | None = None) -> ExceptHook:
    """Route uncaught exceptions to a dialog (no traceback) and the log (with traceback).

    Returns the previous hook so callers (tests) can restore it.
    """
    previous = sys.excepthook
    dialog = show or _show_unexpected_error

    def hook(exc_type: type[BaseException], exc: BaseException, tb: TracebackType | None) -> None:
        if issubclass(exc_type, KeyboardInterrupt):
            previous(exc_type, exc, tb)
            return
        text = "".join(traceback.format_exception(exc_type, exc, tb))
        print(f"matchlight: unexpected error\n{text}", file=sys.stderr, flush=True)
        detail = str(exc) or exc_type.__name__
        message = QCoreApplication.translate(
            "app",
            "Matchlight ran into an unexpected problem and could not finish what it was "
            "doing:\n\n{detail} ({0})\n\nYour files were not changed. The technical "
            "details were written to the error output (stderr); please include them when "
            "you report this.",
        ).format(exc_type.__name__, detail=detail)
        try:
            dialog(QCoreApplication.translate("app", "Unexpected error — Matchlight"), message)
        except Exception:  # never let the hook itself raise
            print("matchlight: could not show the error dialog", file=sys.stderr)

    sys.excepthook = hook
    return previous


def create_window(
    args: argparse.Namespace,
    *,
    settings: QSettings | None = None,
    error_sink: ErrorSink | None = None,
    show: bool = False,
) -> MainWindow:
    """The main window for parsed ``args``, with the asked-for comparison opened (if any).

    With ``show`` the window is shown before the files are read, so that an error dialog has
    its parent on screen. Problems with the files are reported through the window's error sink.
    """
    window = MainWindow(settings=settings, error_sink=error_sink)
    if show:
        window.show()
    # A session named on the command line; else, at the app's start, the crash-recovery offer.
    if start_session(window, args, offer_recovery=show):
        return window
    try:
        specs = specs_from_args(args)
    except InputError as exc:
        window.report_error(
            QCoreApplication.translate("app", "Cannot open the comparison"), str(exc)
        )
        return window
    if specs is not None:
        window.open_specs(specs)
    return window


def run(argv: Sequence[str] | None = None) -> int:
    """Start the app; ``argv`` excludes the program name. Returns the exit code."""
    arguments = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser()
    try:
        args = parser.parse_args(arguments)
    except SystemExit as exc:  # --help, --version, or a usage error (already printed)
        return exc.code if isinstance(exc.code, int) else 2
    logging.basicConfig(level=logging.WARNING, format="%(name)s: %(levelname)s: %(message)s")
    app = ensure_application()
    install_from_settings(app, QSettings())
    previous = install_excepthook()
    try:
        window = create_window(args, show=True)
        window.raise_()
        return app.exec()
    finally:
        sys.excepthook = previous
