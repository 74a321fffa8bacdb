"""A read-only text view as tall as its text, with something painted over the text.

The detail pane's segment views and the annotation view's texts are both this: no frame, no
scroll bars, wrapped at word boundaries (or anywhere, for a line with no spaces), as tall as
the document at the view's width (again after every change of width), selectable by mouse
and keyboard, and with an overlay (error spans) painted over the text in document coordinates.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Self

from PySide6.QtCore import QPointF, QSize, Qt
from PySide6.QtGui import QPainter, QPaintEvent, QResizeEvent, QTextOption
from PySide6.QtWidgets import QFrame, QSizePolicy, QTextEdit, QWidget

__all__ = ["FitText"]


class FitText(QTextEdit):
    """A read-only :class:`QTextEdit` that grows to its document's height.

    A subclass fills the document and then calls :meth:`fit_height`; a change of width fits
    it again by itself. ``margin`` is the document's margin, in pixels.
    """

    def __init__(self, parent: QWidget | None = None, *, margin: int) -> None:
        super().__init__(parent)
        self._overlay: Callable[[QPainter, Self], None] | None = None
        self.setReadOnly(True)
        self.setUndoRedoEnabled(False)
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setWordWrapMode(QTextOption.WrapMode.WrapAtWordBoundaryOrAnywhere)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        self.viewport().setMouseTracking(True)
        self.document().setDocumentMargin(margin)
        self.setTextInteractionFlags(
            Qt.TextInteractionFlag.TextSelectableByMouse
            | Qt.TextInteractionFlag.TextSelectableByKeyboard
        )

    # -- overlay -------------------------------------------------------------------------------

    def set_overlay(self, paint: Callable[[QPainter, Self], None] | None) -> None:
        """Call ``paint(painter, view)`` after every paint of the text, the painter in document
        coordinates (None: no overlay)."""
        self._overlay = paint
        self.viewport().update()

    def scroll_offset(self) -> QPointF:
        """Where the viewport's top left is in the document (viewport + this = document)."""
        return QPointF(self.horizontalScrollBar().value(), self.verticalScrollBar().value())

    def paintEvent(self, event: QPaintEvent) -> None:
        super().paintEvent(event)
        if self._overlay is None:
            return
        painter = QPainter(self.viewport())
        try:
            painter.translate(-self.scroll_offset())
            self._overlay(painter, self)
        finally:
            painter.end()

    # -- size ----------------------------------------------------------------------------------

    def fit_height(self) -> None:
        """Make the view exactly as tall as its document laid out at the view's width."""
        doc = self.document()
        doc.setTextWidth(max(1, self.viewport().width()))
        height = int(doc.size().height() + 0.999) + 2 * self.frameWidth()
        if height != self.height():
            self.setFixedHeight(height)

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        if event.size().width() != event.oldSize().width():
            self.fit_height()

    def sizeHint(self) -> QSize:
        return QSize(200, self.height())
