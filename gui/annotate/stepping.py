"""A large annotation step (an import, its undo or redo) applied a slice at a time.

The workspace applies such a step as a generator (:meth:`~core.annotation.workspace.
AnnotationWorkspace.execute_in_steps`): :class:`SteppedEdit` runs it on the GUI thread, a few
slices per turn of the event loop and never longer than :data:`SLICE_MS` at a time, so the
window keeps answering and shows how far it got. The session file still gets the step in one
transaction, and it is still one undo step. Closing the generator early (another comparison
is opened) rolls the file back.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator

from PySide6.QtCore import QObject, QTimer, Signal, Slot

from matchlight.core.annotation.model import AnnotationError

__all__ = ["SLICE_MS", "SteppedEdit"]

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

    def start(
        self, steps: Iterator[tuple[int, int]], done: Callable[[bool, str], None] | None = None
    ) -> None:
        """Run ``steps`` from the next turn of the event loop; ``done(ok, error)`` at the end."""
        self.cancel()
        self._steps, self._done = steps, done
        self.turns, self.longest_ms, self.longest_cpu_ms = 0, 0.0, 0.0
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
                # Another slice only if one as long as this one still fits in the turn.
                now = time.perf_counter()
                if now + (now - started) >= deadline:
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
