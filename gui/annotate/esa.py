"""The ESA score of the output being annotated: set at once, or moved (a slider, a spin box) and
kept when the annotator presses Enter or moves on.

:class:`AnnotationEsa` is a base of :class:`~gui.annotate.controller.AnnotationController`: its
methods are the controller's own (the panel, the annotation view and the keys call them there),
kept in this module apart from the span editing. A moved score waits in the controller's
``_esa_pending`` until it is saved as one undoable
:class:`~core.annotation.history.SetSegmentScore`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QCoreApplication

from matchlight.core.annotation.history import SetSegmentScore
from matchlight.core.annotation.model import AnnotationError, SegmentScore

if TYPE_CHECKING:
    from matchlight.core.annotation.workspace import AnnotationWorkspace

__all__ = ["AnnotationEsa"]


class AnnotationEsa:
    """The ESA score methods of :class:`~gui.annotate.controller.AnnotationController`."""

    # What the controller provides.
    _workspace: AnnotationWorkspace | None
    _annotator: str
    _esa_pending: tuple[str, int, float] | None
    draft_changed: Any

    if TYPE_CHECKING:

        def target(self) -> tuple[int, int] | None: ...
        def say(self, text: str) -> None: ...
        def execute(self, command: Any) -> bool: ...

    def set_esa_score(self, value: float | None) -> bool:
        target = self.target()
        ws = self._workspace
        if target is None or ws is None:
            return False
        segment, system = target
        name = ws.systems[system]
        try:
            after = SegmentScore(name, segment, self._annotator, value)
        except AnnotationError as exc:
            self.say(str(exc))
            return False
        before = ws.score(name, segment)
        if self._esa_pending is not None and self._esa_pending[:2] == (name, segment):
            self._esa_pending = None
            self.draft_changed.emit()
        if before is not None and before.score == after.score:
            return False
        return self.execute(
            SetSegmentScore(
                before,
                after,
                label=QCoreApplication.translate("AnnotationController", "Set ESA score"),
            )
        )

    def esa_value(self) -> float:
        """The ESA score shown for the output being annotated: the one being set, else the one
        saved, else the one its errors suggest (100 without errors)."""
        target = self.target()
        ws = self._workspace
        if target is None or ws is None:
            return 100.0
        segment, system = target
        name = ws.systems[system]
        if self._esa_pending is not None and self._esa_pending[:2] == (name, segment):
            return self._esa_pending[2]
        saved = ws.score(name, segment)
        if saved is not None and saved.score is not None:
            return saved.score
        return ws.prefill(name, segment)

    def esa_pending(self) -> bool:
        """Whether the output's ESA score was moved and not saved yet."""
        target = self.target()
        ws = self._workspace
        if target is None or ws is None or self._esa_pending is None:
            return False
        return self._esa_pending[:2] == (ws.systems[target[1]], target[0])

    def set_esa_pending(self, value: float) -> None:
        """The ESA score is being moved (a slider, a spin box): shown, saved on Enter, D, the
        slider's release, or when the annotator moves on to another output."""
        target = self.target()
        ws = self._workspace
        if target is None or ws is None or not 0 <= value <= 100:
            return
        segment, system = target
        self._esa_pending = (ws.systems[system], segment, float(value))
        self.draft_changed.emit()

    def _save_pending_esa(self) -> None:
        """Keep the ESA score moved on the output being left."""
        pending, ws = self._esa_pending, self._workspace
        self._esa_pending = None
        if pending is None or ws is None or pending[0] not in ws.systems:
            return
        name, segment, value = pending
        before = ws.score(name, segment)
        if before is not None and before.score == value:
            return
        after = SegmentScore(name, segment, self._annotator, value)
        if self.execute(
            SetSegmentScore(
                before,
                after,
                label=QCoreApplication.translate("AnnotationController", "Set ESA score"),
            )
        ):
            self.say(
                QCoreApplication.translate(
                    "AnnotationController",
                    "Saved the ESA score {value} of {name}, segment {segment}.",
                ).format(value=f"{value:g}", name=name, segment=segment + 1)
            )
