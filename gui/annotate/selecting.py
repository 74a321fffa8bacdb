"""Where the annotator selects, and what: the surface, the side, the first word clicked.

The controller's selection is read from a view and made in it, never kept twice. :class:`Selecting`
knows which *surface* shows the texts being annotated (the detail pane, or the annotation view
while it is in use; see :mod:`.outputview`), which *side* the keys act on (the output, or its
source for source errors and omissions), and the first word of an error clicked while the
click on its last word is awaited (Anthea's way of marking a span). Where a click or a drag
ends up is core's rule (:func:`~core.annotation.offsets.word_at`, :func:`~core.annotation.
offsets.snap_range`).
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QCoreApplication

from matchlight.core.annotation.model import Side
from matchlight.core.annotation.offsets import snap_range, word_at, words_between
from matchlight.core.annotation.typology import AnnotationMode
from matchlight.gui.annotate.outputview import (
    PaneSurface,
    TextSelection,
    place_cursor,
    select_in,
    text_selection,
)

__all__ = ["Selecting"]


class Selecting:
    """The selection state of one :class:`~gui.annotate.controller.AnnotationController`."""

    def __init__(self, controller: Any) -> None:
        self._c = controller
        # The detail pane as a surface (outputs only).
        self.pane_surface = PaneSurface(controller.host.detail_pane)
        self._surface: Any = self.pane_surface
        self._side = Side.TARGET
        # (segment, system, side, start, end) of the first word clicked.
        self._anchor: tuple[int, int, Side, int, int] | None = None

    def reset(self) -> None:
        """Another comparison: the output side, no word awaiting its partner."""
        self._side = Side.TARGET
        self._anchor = None

    def forget_anchor(self) -> None:
        self._anchor = None

    # -- the surface and the side ------------------------------------------------------------------

    @property
    def surface(self) -> Any:
        """Where selections are read and made: the detail pane or the annotation view."""
        return self._surface

    def use_surface(self, surface: Any | None) -> None:
        """Select in ``surface`` from now on (None: the detail pane)."""
        surface = surface if surface is not None else self.pane_surface
        if surface is self._surface:
            return
        self._surface = surface
        self._anchor = None
        if surface is self.pane_surface:
            self._side = Side.TARGET
        self._c.draft_changed.emit()

    @property
    def side(self) -> Side:
        """The text the keys act on: the output being annotated, or its source."""
        return self._side

    def set_side(self, side: Side) -> None:
        """Act on ``side`` from now on; another side drops the draft (it was for the other)."""
        if side is Side.SOURCE and not self._c.has_source:
            side = Side.TARGET
        if side is not self._side:
            self._side = side
            self._anchor = None
            self._c.forget_draft()
            self._c.draft_changed.emit()

    def moved(self, side: Side, *, by_user: bool) -> None:
        """A view of the surface says its selection changed (``by_user``: the user put it
        there, so the keys act on that side from now on)."""
        if by_user:
            self.set_side(side)
        self._c.draft_changed.emit()

    def focus(self, system: int, side: Side) -> bool:
        """The keyboard to ``system``'s output (or source) in the surface, in view."""
        if not self._surface.focus_text(system, side):
            return False
        self.set_side(side)
        return True

    def refocus(self) -> None:
        """The keyboard back to the text being annotated, on the side it was (after a click on a
        button)."""
        target = self._c.target()
        if target is not None:
            self._surface.focus_text(target[1], self._side)

    # -- reading and making the selection ----------------------------------------------------------

    def view(self, system: int, segment: int, side: Side | None = None) -> Any:
        """The surface's view of ``system``'s output (or source) while it shows ``segment``'s
        current text; None otherwise."""
        side = self._side if side is None else side
        try:
            line = self._c.text_of(segment, system, side)
        except LookupError:
            return None
        return self._surface.text_view(segment, system, side, line)

    def selection(self) -> TextSelection | None:
        """The selection (or the cursor, as an empty selection) on the side being annotated,
        if the surface shows the output's current text."""
        target = self._c.target()
        if target is None:
            return None
        segment, system = target
        view = self.view(system, segment)
        if view is None:
            return None
        line = self._c.text_of(segment, system, self._side)
        return text_selection(view, line, segment, system, self._side)

    def select(self, start: int, end: int, side: Side | None = None) -> bool:
        """Select ``start:end`` (code points) on ``side`` of the output being annotated."""
        target = self._c.target()
        view = None if target is None else self.view(target[1], target[0], side)
        if view is None:
            return False
        select_in(view, start, end)
        self._c.draft_changed.emit()
        return True

    def collapse(self, at: int) -> None:
        """The cursor at ``at``, nothing selected."""
        target = self._c.target()
        view = None if target is None else self.view(target[1], target[0])
        if view is not None:
            place_cursor(view, at)

    # -- clicks and drags --------------------------------------------------------------------------

    def pick_word(self, side: Side, index: int) -> bool:
        """A click on character ``index`` of the output being annotated (or its source): the
        first click selects its word, the next one everything from that word to the clicked
        one (the first and the last word of the error; the same word twice is that word). A
        click on white space puts the cursor there (an omission point in the output)."""
        c = self._c
        target = c.target()
        if target is None:
            return False
        segment, system = target
        try:
            line = c.text_of(segment, system, side)
        except LookupError:
            return False
        self.set_side(side)
        start, end = word_at(line, index)
        anchor = self._anchor
        if start == end:
            self._anchor = None
            return self.select(start, start, side)
        if anchor is not None and anchor[:3] == (segment, system, side):
            start, end = words_between(line, anchor[3], index)
            self._anchor = None
            self._hint(line, start, end)
            return self.select(start, end, side)
        if not self.select(start, end, side):
            return False
        self._anchor = (segment, system, side, start, end)
        c.say(
            (
                QCoreApplication.translate(
                    "Selecting",
                    "«{text}»: click the last word of the error, or pick its category and "
                    "severity.",
                )
                if c.mode is AnnotationMode.MQM
                else QCoreApplication.translate(
                    "Selecting", "«{text}»: click the last word of the error, or pick its severity."
                )
            ).format(text=line[start:end])
        )
        return True

    def word_anchor(self) -> tuple[Side, int, int] | None:
        """(side, start, end) of the first word clicked of the output being annotated, while
        the click on the last one is awaited."""
        anchor, target = self._anchor, self._c.target()
        if anchor is None or target is None or anchor[:2] != target:
            return None
        return anchor[2], anchor[3], anchor[4]

    def snap(self, side: Side) -> bool:
        """A selection dragged on ``side``: widened to the whole words its ends cut through."""
        self.set_side(side)
        self._anchor = None
        selected = self.selection()
        if selected is None or selected.start == selected.end:
            return False
        start, end = snap_range(selected.line, selected.start, selected.end)
        self._hint(selected.line, start, end)
        if (start, end) == (selected.start, selected.end):
            self._c.draft_changed.emit()
            return True
        return self.select(start, end, side)

    def _hint(self, line: str, start: int, end: int) -> None:
        c = self._c
        if c.draft.empty and start < end:
            c.say(
                (
                    QCoreApplication.translate(
                        "Selecting",
                        "«{text}» selected: pick a category and a severity, then press Enter.",
                    )
                    if c.mode is AnnotationMode.MQM
                    else QCoreApplication.translate(
                        "Selecting", "«{text}» selected: pick a severity, then press Enter."
                    )
                ).format(text=line[start:end])
            )
