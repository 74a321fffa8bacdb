"""What the annotation feature uses of the main window (:class:`AnnotationHost`)."""

from __future__ import annotations

from typing import Any, Protocol

from PySide6.QtCore import QSettings

__all__ = ["AnnotationHost"]


class AnnotationHost(Protocol):
    """What the annotation controller and its helpers use of the main window, and nothing more.

    The widgets: the detail pane (the outputs' text views, their overlay), the table view
    (current row, its selection model, scrolling, the viewport to repaint) and the summary;
    the models: the proxy (rows shown, in order), the table model (columns shown), the delegate
    (the cell overlay) and the session (its selection); and the window's status bar, settings,
    error reporting and current segment.
    """

    detail_pane: Any
    table_view: Any
    filter_bar: Any
    summary: Any
    settings: QSettings

    @property
    def session(self) -> Any: ...

    @property
    def model(self) -> Any: ...

    @property
    def proxy(self) -> Any: ...

    @property
    def delegate(self) -> Any: ...

    def report_error(self, title: str, message: str) -> None: ...

    def current_segment(self) -> int | None: ...

    def statusBar(self) -> Any: ...
