"""The segment table's view: a QTableView that repaints only what changed on screen."""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from PySide6.QtCore import QModelIndex, QPersistentModelIndex
from PySide6.QtGui import QPaintEvent
from PySide6.QtWidgets import QTableView, QWidget

__all__ = ["PaintBudget", "SegmentTableView"]


@runtime_checkable
class PaintBudget(Protocol):
    """A delegate that spreads costly cells over several paints (told where each one starts)."""

    def begin_paint(self) -> None: ...

    def end_paint(self) -> None: ...


class SegmentTableView(QTableView):
    """A :class:`QTableView` whose ``dataChanged`` ignores the rows that are not on screen.

    QAbstractItemView repaints its whole viewport for any ``dataChanged`` that covers more than
    one cell, wherever those cells are. While scoring, every chunk of results changes a block
    of rows, nearly always below the visible ones: on 100k rows that was a full repaint of the
    table (all visible cells through the Python delegate) for every chunk, a large share of the
    GUI thread's time. Here the changed range is clipped to the visible rows first and dropped
    when nothing of it is visible; rows scrolled into view later are painted then anyway.
    """

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)

    def paintEvent(self, event: QPaintEvent) -> None:
        delegate = self.itemDelegate()
        budget = delegate if isinstance(delegate, PaintBudget) else None
        if budget is not None:
            budget.begin_paint()
        try:
            super().paintEvent(event)
        finally:
            if budget is not None:
                budget.end_paint()

    def visible_rows(self) -> tuple[int, int]:
        """(first, last) view rows on screen, ``(0, -1)`` when none is."""
        model = self.model()
        rows = model.rowCount() if model is not None else 0
        if rows == 0:
            return (0, -1)
        first = self.rowAt(0)
        if first < 0:
            return (0, -1)
        last = self.rowAt(self.viewport().height() - 1)
        return (first, rows - 1 if last < 0 else last)

    def dataChanged(
        self,
        topLeft: QModelIndex | QPersistentModelIndex,
        bottomRight: QModelIndex | QPersistentModelIndex,
        roles: list[int] | None = None,
    ) -> None:
        roles = [] if roles is None else list(roles)
        model = self.model()
        if (
            model is None
            or not topLeft.isValid()
            or not bottomRight.isValid()
            or topLeft == bottomRight
        ):
            super().dataChanged(topLeft, bottomRight, roles)
            return
        first, last = self.visible_rows()
        top = max(topLeft.row(), first)
        bottom = min(bottomRight.row(), last)
        if top > bottom:
            return  # nothing of it is on screen
        parent = topLeft.parent()
        super().dataChanged(
            model.index(top, topLeft.column(), parent),
            model.index(bottom, bottomRight.column(), parent),
            roles,
        )
