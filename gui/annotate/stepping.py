"""A large annotation step (an import, its undo or redo) applied a slice at a time.

The workspace applies such a step as a generator (:meth:`~core.annotation.workspace.
AnnotationWorkspace.execute_in_steps`): :class:`SteppedEdit` runs it on the GUI thread, a few
slices per turn of the event loop and never longer than :data:`SLICE_MS` at a time, so the
window keeps answering and shows how far it got; the observers are told in a turn of their
own (the generator yields the same progress twice before). The session file gets the step in one
transaction, and it is still one undo step. Closing the generator early (another comparison
is opened) rolls the file back.

:class:`AnnotationStepping` is a base of :class:`~gui.annotate.controller.AnnotationController`:
the controller hands it a batch (or an undo or redo) of more than ``step_size`` records, and
it refuses other edits until the step is in.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QCoreApplication, QObject, QTimer, Signal, Slot

from matchlight.core.annotation.model import AnnotationError
from matchlight.core.annotation.workspace import STEP_SIZE
from matchlight.gui.workers.controller import hold_collection_while

if TYPE_CHECKING:
    from matchlight.core.annotation.workspace import AnnotationWorkspace
    from matchlight.gui.annotate.host import AnnotationHost

__all__ = ["SLICE_MS", "AnnotationStepping", "SteppedEdit"]

# The longest a turn of slices runs before the event loop gets the thread back.
SLICE_MS = 40


class SteppedEdit(QObject):
    """Runs one stepped edit at a time.

    Signals:
        progress_changed(int done, int total): a turn of slices ended.
        finished(bool ok, str error): the edit ended (``error`` is "" when it went through).
    """

    progress_changed = Signal(int, int)
    finished = Signal(bool, str)

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._steps: Iterator[tuple[int, int]] | None = None
        self._done: Callable[[bool, str], None] | None = None
        self._last: tuple[int, int] | None = None  # the last progress yielded
        self._timer = QTimer(self)
        self._timer.setInterval(0)
        self._timer.timeout.connect(self._on_turn)
        # Turns run by the current (or last) edit, and the longest of them (ms of wall
        # time, and of the GUI thread's CPU time): what the window waited for at most.
        self.turns = 0
        self.longest_ms = 0.0
        self.longest_cpu_ms = 0.0

    def busy(self) -> bool:
        return self._steps is not None

    @property
    def running(self) -> bool:
        """:meth:`busy`, as the garbage collector's guard asks (see :meth:`start`)."""
        return self.busy()

    def start(
        self, steps: Iterator[tuple[int, int]], done: Callable[[bool, str], None] | None = None
    ) -> None:
        """Run ``steps`` from the next turn of the event loop; ``done(ok, error)`` at the end.

        No garbage collection pass runs meanwhile, and what exists once it is done is frozen
        (:func:`~gui.workers.controller.hold_collection_while`): an import's 100,000 spans
        live with the comparison, and each pass over them was a stall of its own."""
        self.cancel()
        self._steps, self._done = steps, done
        self._last: tuple[int, int] | None = None
        self.turns, self.longest_ms, self.longest_cpu_ms = 0, 0.0, 0.0
        hold_collection_while(self)
        self._timer.start()

    def cancel(self) -> None:
        """Stop the edit in progress, if any (its generator is closed: the file rolls back)."""
        steps, self._steps, self._done = self._steps, None, None
        self._timer.stop()
        if steps is not None:
            close = getattr(steps, "close", None)
            if callable(close):
                close()

    def finish_now(self) -> None:
        """Run the edit in progress to its end now (the window is closing, a test waits)."""
        while self._steps is not None:
            self._on_turn()

    @Slot()
    def _on_turn(self) -> None:
        steps = self._steps
        if steps is None:
            self._timer.stop()
            return
        begin, cpu = time.perf_counter(), time.thread_time()
        deadline = begin + SLICE_MS / 1000
        progress: tuple[int, int] | None = None
        ok, error = True, ""
        try:
            while True:
                started = time.perf_counter()
                progress = next(steps)
                # A progress repeated: the observers are told next, at the start of a turn.
                repeated, self._last = progress == self._last, progress
                # Another slice only if one as long as this one still fits in the turn.
                now = time.perf_counter()
                if repeated or now + (now - started) >= deadline:
                    break
        except StopIteration:
            ok, progress = True, None
            self._steps = None
        except AnnotationError as exc:
            ok, error, progress = False, str(exc), None
            self._steps = None
        finally:
            self.turns += 1
            self.longest_ms = max(self.longest_ms, (time.perf_counter() - begin) * 1000)
            self.longest_cpu_ms = max(self.longest_cpu_ms, (time.thread_time() - cpu) * 1000)
        if progress is not None:
            self.progress_changed.emit(*progress)
            return
        self._timer.stop()
        done, self._done = self._done, None
        self.finished.emit(ok, error)
        if done is not None:
            done(ok, error)


class AnnotationStepping:
    """The large steps of :class:`~gui.annotate.controller.AnnotationController` (see the
    module): an import, its undo or redo, applied by a :class:`SteppedEdit`."""

    # What the controller provides.
    host: AnnotationHost
    before_edit: Callable[[], bool]
    history_changed: Any

    if TYPE_CHECKING:

        def say(self, text: str) -> None: ...

    def _init_stepping(self) -> None:
        # A large step being applied a slice at a time; a batch of more than ``step_size``
        # records goes so.
        self.stepping = SteppedEdit(self if isinstance(self, QObject) else None)
        self.stepping.progress_changed.connect(self._on_step_progress)
        self.step_size = STEP_SIZE
        self._step_label = ""

    def _execute_in_steps(self, ws: AnnotationWorkspace, command: Any) -> bool:
        """Check, write and apply a large ``command`` (an import) a slice at a time."""
        if not self.before_edit():
            return False
        self._run_steps(ws.execute_in_steps(command, self.step_size), command.label, "")
        return True

    def _travel_in_steps(self, ws: AnnotationWorkspace, back: bool, done: str) -> bool:
        """Undo (``back``) or redo the history's next step a slice at a time if it is large;
        False (nothing done) if it is not. ``done`` ("Undone: {step}") is said at the end."""
        following = ws.history.peek_undo() if back else ws.history.peek_redo()
        if following is None or not ws.is_large(following, self.step_size):
            return False
        steps = ws.undo_in_steps(self.step_size) if back else ws.redo_in_steps(self.step_size)
        self._run_steps(steps, following.label, done.format(step=following.label))
        return True

    def _still_stepping(self) -> bool:
        """Whether a large step is still going in (said so: the edit asked for waits)."""
        if not self.stepping.busy():
            return False
        self.say(
            QCoreApplication.translate(
                "AnnotationController", "Wait until {step} is applied."
            ).format(step=self._step_label)
        )
        return True

    def _run_steps(self, steps: Any, label: str, said: str) -> None:
        """Apply a large step a slice at a time; ``said`` (or its label) when it is done."""
        self._step_label = label

        def done(ok: bool, error: str) -> None:
            self.history_changed.emit()
            if ok:
                self.say(said or label)
            else:
                self.host.report_error(
                    QCoreApplication.translate(
                        "AnnotationController", "Cannot apply {step}"
                    ).format(step=label),
                    error,
                )

        self.stepping.start(steps, done)
        self.say(QCoreApplication.translate("AnnotationController", "{step}…").format(step=label))

    def _on_step_progress(self, done: int, total: int) -> None:
        self.say(
            QCoreApplication.translate("AnnotationController", "{step}: {percent} %").format(
                step=self._step_label, percent=100 * done // max(1, total)
            )
        )
