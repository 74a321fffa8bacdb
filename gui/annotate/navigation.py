"""Moving in the annotation: to a row, a segment, a system, an error; and what the table's
current cell says about the output being annotated.

:class:`AnnotationNavigation` is a base of
:class:`~gui.annotate.controller.AnnotationController`: the moves are the controller's own
methods (the keys, the menus and the annotation view call them there), kept in this module
apart from the editing. They read the controller's state (its workspace, the system being
annotated, the selection) and change only which output is being annotated.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np
from PySide6.QtCore import QCoreApplication, QModelIndex, QTimer, Slot

from matchlight.core.annotation.model import ErrorSpan, Side, Status

if TYPE_CHECKING:
    from matchlight.core.annotation.workspace import AnnotationWorkspace
    from matchlight.core.session.comparison import ComparisonSession
    from matchlight.gui.annotate.host import AnnotationHost
    from matchlight.gui.annotate.outputview import TextSelection
    from matchlight.gui.annotate.selecting import Selecting

__all__ = ["AnnotationNavigation"]


class AnnotationNavigation:
    """The moves of :class:`~gui.annotate.controller.AnnotationController` (see the module)."""

    # What the controller provides.
    host: AnnotationHost
    selecting: Selecting
    restoring: bool
    _workspace: AnnotationWorkspace | None
    _core: ComparisonSession | None
    _system: int
    _connected_selection_model: Any
    draft_changed: Any
    target_changed: Any

    if TYPE_CHECKING:

        @property
        def system_names(self) -> tuple[str, ...]: ...
        @property
        def has_source(self) -> bool: ...
        def target(self) -> tuple[int, int] | None: ...
        def selection(self) -> TextSelection | None: ...
        def target_spans(self) -> list[ErrorSpan]: ...
        def say(self, text: str) -> None: ...
        def _reset_draft(self) -> None: ...
        def _save_pending_esa(self) -> None: ...

    # -- moving -------------------------------------------------------------------------------

    def focus_text(self) -> None:
        """T: the keyboard goes to the output being annotated (select with Shift+arrows)."""
        target = self.target()
        if target is None:
            self.say(QCoreApplication.translate("AnnotationController", "Choose a row first."))
            return
        self.selecting.focus(target[1], Side.TARGET)

    def focus_source(self) -> None:
        """Shift+T: the keyboard goes to the source, to mark source errors and omissions."""
        target = self.target()
        if target is None:
            self.say(QCoreApplication.translate("AnnotationController", "Choose a row first."))
            return
        if not self.has_source:
            self.say(
                QCoreApplication.translate(
                    "AnnotationController", "This comparison has no source to annotate."
                )
            )
        elif not self.selecting.focus(target[1], Side.SOURCE):
            self.say(
                QCoreApplication.translate(
                    "AnnotationController",
                    "Errors on the source are marked in the annotation view (Ctrl+Shift+A).",
                )
            )

    def move_segment(self, step: int) -> None:
        proxy, view = self.host.proxy, self.host.table_view
        if proxy is None or proxy.rowCount() == 0:
            return
        current = view.currentIndex()
        row = current.row() if current.isValid() else -1
        new = max(0, min(proxy.rowCount() - 1, row + step))
        self._go_to_row(new)

    def _go_to_row(self, row: int) -> None:
        proxy, view = self.host.proxy, self.host.table_view
        current = view.currentIndex()
        column = current.column() if current.isValid() else 0
        index = proxy.index(row, column)
        surface = getattr(self, "view", None)
        if surface is not None and surface.in_front():
            # The annotation view is in front: the table behind it scrolls to the row once
            # the moves pause (a scroll repaints every cell), not at every step.
            auto = view.hasAutoScroll()
            view.setAutoScroll(False)
            try:
                view.setCurrentIndex(index)
            finally:
                view.setAutoScroll(auto)
            self._table_scroll_timer().start(self.host.detail_pane.defer_ms())
        else:
            self._table_scroll_timer().stop()
            view.setCurrentIndex(index)
            view.scrollTo(index)
        self.focus_text()

    def _table_scroll_timer(self) -> QTimer:
        timer: QTimer | None = getattr(self, "_scroll_timer", None)
        if timer is None:
            timer = QTimer(self)  # type: ignore[arg-type]
            timer.setSingleShot(True)
            timer.timeout.connect(self._scroll_table_now)
            self._scroll_timer = timer
        return timer

    def scroll_table(self) -> None:
        """Scroll the table to the current row now, if a move left that for later."""
        timer: QTimer | None = getattr(self, "_scroll_timer", None)
        if timer is not None and timer.isActive():
            timer.stop()
            self._scroll_table_now()

    def _scroll_table_now(self) -> None:
        view = self.host.table_view
        index = view.currentIndex()
        if index.isValid():
            view.scrollTo(index)

    def go_to_segment(self, segment: int) -> bool:
        """Ctrl+G: make ``segment`` (0-based) the current row and annotate it."""
        proxy, core = self.host.proxy, self._core
        if proxy is None or core is None:
            return False
        if not 0 <= segment < core.n_segments:
            self.say(
                QCoreApplication.translate(
                    "AnnotationController",
                    "There is no segment {segment}: the segments are 1–{count}.",
                ).format(segment=segment + 1, count=core.n_segments)
            )
            return False
        row = proxy.proxy_row(segment)
        if row < 0:
            self.say(
                QCoreApplication.translate(
                    "AnnotationController",
                    "Segment {segment} is hidden by the filters of the table; clear them to go "
                    "there.",
                ).format(segment=segment + 1)
            )
            return False
        self._go_to_row(row)
        return True

    def move_system(self, step: int) -> None:
        n = len(self.system_names)
        if n == 0:
            return
        self._set_system((self._system + step) % n)
        self.focus_text()
        self.say(
            QCoreApplication.translate("AnnotationController", "Annotating {system}.").format(
                system=self.system_names[self._system]
            )
        )

    def next_unannotated(self, step: int = 1) -> bool:
        """U: the next row (in the table's order) whose current system's output is not
        annotated; wraps around once."""
        ws, core, proxy = self._workspace, self._core, self.host.proxy
        if ws is None or core is None or proxy is None:
            return False
        order = proxy.visible_segments()
        if len(order) == 0:
            return False
        done = ws.annotated_mask(ws.systems[self._system])[order]
        current = self.host.table_view.currentIndex()
        row = current.row() if current.isValid() else -1
        n = len(order)
        positions = np.arange(1, n + 1) * (1 if step >= 0 else -1) + row
        positions %= n
        todo = positions[~done[positions]]
        if len(todo) == 0:
            self.say(
                QCoreApplication.translate(
                    "AnnotationController", "Every output of {system} shown is annotated."
                ).format(system=ws.systems[self._system])
            )
            return False
        self._go_to_row(int(todo[0]))
        return True

    def select_span(self, step: int) -> None:
        """] / [: select the next (previous) error of this output: those in the output first,
        then those on its source (where the surface shows the source)."""
        selected, target = self.selection(), self.target()
        if selected is None or target is None:
            self.say(
                QCoreApplication.translate("AnnotationController", "No errors in this output.")
            )
            return
        segment, system = target
        sides = {Side.TARGET}
        if self.selecting.view(system, segment, Side.SOURCE) is not None:
            sides.add(Side.SOURCE)

        def key(side: Side, start: int, end: int) -> tuple[bool, int, int]:
            return side is Side.SOURCE, start, end

        spans = sorted(
            (s for s in self.target_spans() if s.status is not Status.REJECTED and s.side in sides),
            key=lambda s: key(s.side, s.start, s.end),
        )
        if not spans:
            self.say(
                QCoreApplication.translate("AnnotationController", "No errors in this output.")
            )
            return
        here = key(selected.side, selected.start, selected.end)
        if step > 0:
            after = [s for s in spans if key(s.side, s.start, s.end) > here]
            chosen = after[0] if after else spans[0]
        else:
            before = [s for s in spans if key(s.side, s.start, s.end) < here]
            chosen = before[-1] if before else spans[-1]
        self.select_range(chosen.start, chosen.end, chosen.side)
        what = chosen.category or QCoreApplication.translate("AnnotationController", "error")
        said = (
            QCoreApplication.translate(
                "AnnotationController", "{error} on the source ({severity}, {status})"
            )
            if chosen.side is Side.SOURCE
            else QCoreApplication.translate(
                "AnnotationController", "{error} ({severity}, {status})"
            )
        )
        self.say(
            said.format(error=what, severity=chosen.severity.value, status=chosen.status.value)
        )

    def select_range(self, start: int, end: int, side: Side | None = None) -> bool:
        """Select ``start:end`` (code points) of the output being annotated (or of its source),
        in the surface in use."""
        if side is not None:
            self.selecting.set_side(side)
        self.selecting.forget_anchor()
        if not self.selecting.select(start, end):
            return False
        self._reset_draft()
        self.draft_changed.emit()
        return True

    # -- the table's current row and cell -----------------------------------------------------

    @Slot(QModelIndex, QModelIndex)
    def _on_current_cell_changed(self, current: QModelIndex, _previous: QModelIndex) -> None:
        """A click on (or a move to) a system's output cell annotates that system."""
        model = self.host.model
        if not current.isValid() or model is None or self._core is None:
            return
        try:
            info = model.column_info(current.column())
        except IndexError:
            return
        if info.kind == "hypothesis" and info.system is not None and info.system != self._system:
            self._set_system(info.system)

    @Slot(QModelIndex, QModelIndex)
    def _on_current_row_changed(self, current: QModelIndex, _previous: QModelIndex) -> None:
        if not current.isValid():
            return
        self._save_pending_esa()
        self.selecting.forget_anchor()
        self._reset_draft()
        self.target_changed.emit()
        self.draft_changed.emit()
        if self._core is not None and not self.restoring:
            segment = self.host.current_segment()
            if segment is not None and self._core.layout.get("current_segment") != segment:
                self._core.set_layout(current_segment=segment)

    @Slot(int)
    def _on_hypothesis_cursor_changed(self, system: int) -> None:
        if self._core is None:
            return
        if system != self._system and 0 <= system < len(self.system_names):
            try:
                view = self.host.detail_pane.hypothesis_view(system)
            except IndexError:
                return
            if not view.hasFocus() or self.host.detail_pane.rendering():
                return  # a row's text was put in; only the user's cursor picks a system
            self._set_system(system)
        try:
            focused = self.host.detail_pane.hypothesis_view(system).hasFocus()
        except IndexError:
            focused = False
        if focused:
            self.selecting.use_surface(None)  # the annotator selects in the pane now
        self.draft_changed.emit()

    def _set_system(self, system: int) -> None:
        self._save_pending_esa()
        self.selecting.forget_anchor()
        self._system = system
        self._reset_draft()
        if self._core is not None and not self.restoring:
            self._core.set_layout(annotate_system=self.system_names[system])
        self.target_changed.emit()
        self.draft_changed.emit()
