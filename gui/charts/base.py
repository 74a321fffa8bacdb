"""The frame every comparison chart shares: a row of controls, the plot, a caption, export.

A :class:`ChartPanel` redraws when the comparison, its scores or its selection change, but only
while it is visible (a chart in a hidden tab redraws when it is shown), and at most once per
turn of the event loop. What a redraw computes over the rows goes through
:meth:`ChartPanel.compute`: in a worker thread on a big table (the GUI thread only draws the
result), and a newer redraw drops the result of the one before. It re-styles itself when the
palette changes (dark mode), and exports its plots as PNG or SVG
(:func:`~gui.charts.theme.export_item`). Its body scrolls where the panel is smaller than the
body's minimum size (a chart's plots keep a readable height in a short dock).
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from pathlib import Path
from typing import Any, ClassVar, TypeVar

import pyqtgraph as pg
from PySide6.QtCore import (
    QT_TRANSLATE_NOOP,
    QCoreApplication,
    QEvent,
    QObject,
    QPoint,
    QRect,
    QSize,
    Qt,
    QTimer,
    Signal,
    Slot,
)
from PySide6.QtGui import QResizeEvent, QShowEvent
from PySide6.QtWidgets import (
    QComboBox,
    QFileDialog,
    QFrame,
    QHBoxLayout,
    QLabel,
    QLayout,
    QLayoutItem,
    QMenu,
    QScrollArea,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from matchlight.core.metrics.base import ScoreColumn
from matchlight.gui.charts.jobs import BACKGROUND_ROWS, BackgroundJob
from matchlight.gui.charts.link import ChartLink
from matchlight.gui.charts.theme import ChartTheme, export_item, style_plot, theme_for

__all__ = [
    "ChartPanel",
    "FlowLayout",
    "better_note",
    "compact",
    "fill_combo",
    "legend_html",
    "make_plot",
]

T = TypeVar("T")


def better_note(column: ScoreColumn) -> str:
    """``" (lower is better)"`` for a penalty such as MQM or TER, else nothing: said next to
    a column's name wherever a chart's bars or points read "higher" one way."""
    return (
        "" if column.higher_is_better else QCoreApplication.translate("base", " (lower is better)")
    )


def make_plot(*, view_box: pg.ViewBox | None = None) -> pg.PlotItem:
    """A plot item styled for the comparison charts: no context menu, no auto buttons."""
    plot = pg.PlotItem(viewBox=view_box)
    plot.setMenuEnabled(False)
    plot.hideButtons()
    plot.setContentsMargins(4, 4, 16, 4)  # room for the last tick label ("100")
    plot.getAxis("left").setWidth(48)
    for name in ("left", "bottom"):
        axis = plot.getAxis(name)
        # The first and last tick labels ("0", "100") are drawn even where they reach into the
        # margin (pyqtgraph hides them by default), and values keep their own scale (no
        # "x0.001" on an F-measure).
        axis.setStyle(hideOverlappingLabels=False)
        axis.enableAutoSIPrefix(False)
    return plot


class FlowLayout(QLayout):
    """Widgets left to right, wrapping to the next line where the width runs out (Qt's flow
    layout example): a chart's controls fit a narrow side dock and a wide window alike. Its
    height for a width is kept until the layout is invalidated (as Qt's own layouts keep it):
    Qt asks for it many times in every layout pass."""

    def __init__(self, parent: QWidget | None = None, spacing: int = 6) -> None:
        super().__init__(parent)
        self._items: list[QLayoutItem] = []
        self._spacing = spacing
        self._heights: dict[int, int] = {}
        self.setContentsMargins(0, 0, 0, 0)

    def invalidate(self) -> None:
        self._heights.clear()
        super().invalidate()

    def addItem(self, item: QLayoutItem) -> None:
        self._items.append(item)
        self._heights.clear()

    def count(self) -> int:
        return len(self._items)

    def itemAt(self, index: int) -> QLayoutItem | None:  # type: ignore[override]
        return self._items[index] if 0 <= index < len(self._items) else None

    def takeAt(self, index: int) -> QLayoutItem | None:  # type: ignore[override]
        self._heights.clear()
        return self._items.pop(index) if 0 <= index < len(self._items) else None

    def expandingDirections(self) -> Qt.Orientation:
        return Qt.Orientation(0)

    def hasHeightForWidth(self) -> bool:
        return True

    def heightForWidth(self, width: int) -> int:
        height = self._heights.get(width)
        if height is None:
            height = self._heights[width] = self._place(QRect(0, 0, width, 0), move=False)
        return height

    def setGeometry(self, rect: QRect) -> None:
        super().setGeometry(rect)
        self._place(rect, move=True)

    def sizeHint(self) -> QSize:
        return self.minimumSize()

    def minimumSize(self) -> QSize:
        size = QSize()
        for item in self._items:
            size = size.expandedTo(item.minimumSize())
        return size

    def _place(self, rect: QRect, *, move: bool) -> int:
        x, y, line = rect.x(), rect.y(), 0
        for item in self._items:
            if item.isEmpty():
                continue
            hint = item.sizeHint()
            if x + hint.width() > rect.right() + 1 and line > 0:
                x, y, line = rect.x(), y + line + self._spacing, 0
            if move:
                item.setGeometry(QRect(QPoint(x, y), hint))
            x += hint.width() + self._spacing
            line = max(line, hint.height())
        return y + line - rect.y()


def wrap_words(text: str, width: int) -> str:
    """``text`` broken into lines of at most ``width`` characters at spaces (HTML ``<br>``);
    a longer word keeps its own line."""
    lines: list[str] = []
    line = ""
    for word in text.split(" "):
        if line and len(line) + 1 + len(word) > width:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}" if line else word
    lines.append(line)
    return "<br>".join(lines)


def legend_html(entries: list[tuple[str, str]], *, per_line: int) -> str:
    """Coloured ``■ name`` entries (``(colour, text)``), ``per_line`` to a line: a legend
    below a plot that never makes the plot wider than its panel."""
    cells = [f'<span style="color:{colour}">■ {text}</span>' for colour, text in entries]
    lines = [" &nbsp; ".join(cells[i : i + per_line]) for i in range(0, len(cells), per_line)]
    return "<br>".join(lines)


def compact(combo: QComboBox, characters: int = 8) -> None:
    """Let ``combo`` shrink to ``characters`` (a chart's controls must fit a side dock; long
    system names are elided, and shown in full in the popup)."""
    combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
    combo.setMinimumContentsLength(characters)


def fill_combo(combo: QComboBox, items: list[tuple[str, object]], keep: object = None) -> None:
    """Replace ``combo``'s items (label, data), keeping the current data (or ``keep``) when it
    is still offered; no signal is emitted."""
    previous = keep if keep is not None else combo.currentData()
    combo.blockSignals(True)
    combo.clear()
    for label, data in items:
        combo.addItem(label, data)
    index = combo.findData(previous) if previous is not None else -1
    combo.setCurrentIndex(index if index >= 0 else (0 if items else -1))
    combo.blockSignals(False)


class _Controls:
    """A chart's row of controls: a flow of widgets; labels stay with the widget after them."""

    def __init__(self) -> None:
        self.widget = QWidget()
        self.layout = FlowLayout(self.widget)
        self._label: QLabel | None = None

    def addWidget(self, widget: QWidget) -> None:
        if isinstance(widget, QLabel) and self._label is None:
            self._label = widget  # kept for the next widget
            return
        if self._label is not None:
            pair = QWidget()
            row = QHBoxLayout(pair)
            row.setContentsMargins(0, 0, 0, 0)
            row.setSpacing(4)
            row.addWidget(self._label)
            row.addWidget(widget)
            self._label = None
            widget = pair
        self.layout.addWidget(widget)

    def addStretch(self, _stretch: int = 1) -> None:
        if self._label is not None:
            self.layout.addWidget(self._label)
            self._label = None


class ChartPanel(QWidget):
    """Base of the comparison charts.

    Subclasses build their controls into :attr:`controls`, their plots into :attr:`graphics`
    (or another widget added with :meth:`set_body`), and implement :meth:`refresh` and
    :meth:`apply_theme`.

    Signals:
        exported(str path): a chart was written to ``path``.
        export_failed(str message)
    """

    exported = Signal(str)
    export_failed = Signal(str)

    # The tab title, in English (``QT_TRANSLATE_NOOP("ChartPanel", ...)`` in subclasses); each
    # panel holds it translated, the class keeps the English (export file names).
    title = QT_TRANSLATE_NOOP("ChartPanel", "Chart")
    # Whether the panel draws only the columns chosen in its combo boxes (see
    # :meth:`follows_column`).
    DRAWS_CHOSEN_COLUMNS: ClassVar[bool] = False

    def __init__(self, link: ChartLink, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.title = QCoreApplication.translate("ChartPanel", type(self).title)
        # The first child: Qt deletes it first when the panel is destroyed, and then the
        # panel stops listening to the link, before its plots and controls are gone.
        self._sentinel = QObject(self)
        self._sentinel.destroyed.connect(self._on_sentinel_destroyed)
        self._listening: list[tuple[Any, Callable[..., object]]] = []
        self.link = link
        self._stale = True
        self._deferred = False  # the refresh under way came from the event loop
        self._apply: Callable[[Any], None] | None = None
        self._styled: dict[int, tuple[str | None, ChartTheme]] = {}
        self.refresh_job = BackgroundJob(self, name="matchlight-chart-refresh")
        self.refresh_job.finished.connect(self._on_refresh_computed)
        self._legend_columns = 0
        self._theme: ChartTheme = theme_for(self)
        self.controls = _Controls()
        self.caption = QLabel()
        self.caption.setWordWrap(True)
        self.caption.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.export_button = QToolButton()
        self.export_button.setText(QCoreApplication.translate("ChartPanel", "Export"))
        self.export_button.setToolTip(
            QCoreApplication.translate("ChartPanel", "Save the chart as a PNG or SVG file")
        )
        self.export_button.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        menu = QMenu(self.export_button)
        menu.addAction(QCoreApplication.translate("ChartPanel", "PNG image…")).triggered.connect(
            self._on_export_png
        )
        menu.addAction(
            QCoreApplication.translate("ChartPanel", "SVG vector image…")
        ).triggered.connect(self._on_export_svg)
        self.export_button.setMenu(menu)
        self.graphics: pg.GraphicsLayoutWidget | None = None
        self._layout = QVBoxLayout(self)
        self._layout.setContentsMargins(6, 4, 6, 4)
        self._layout.setSpacing(3)
        top = QHBoxLayout()
        top.addWidget(self.controls.widget, 1)
        top.addWidget(self.export_button, 0, Qt.AlignmentFlag.AlignTop)
        self._layout.addLayout(top)
        self._body = QVBoxLayout()
        self._body.setContentsMargins(0, 0, 0, 0)
        self._body_widget = QWidget()
        self._body_widget.setLayout(self._body)
        # The body scrolls where the panel is smaller than its least readable size (the plots'
        # minimum heights): a side dock on a small screen.
        self._scroll = QScrollArea()
        self._scroll.setWidgetResizable(True)
        self._scroll.setFrameShape(QFrame.Shape.NoFrame)
        self._scroll.setWidget(self._body_widget)
        self.placeholder = QLabel()
        self.placeholder.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.placeholder.setWordWrap(True)
        self.placeholder.hide()
        self._layout.addWidget(self._scroll, 1)
        self._layout.addWidget(self.placeholder, 1)
        self._layout.addWidget(self.caption)
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(0)
        self._timer.timeout.connect(self._on_timer)
        self.listen(link.session_changed, self._on_link_changed)
        self.listen(link.data_changed, self._on_link_data_changed)
        self.listen(link.selection_changed, self._on_link_changed)
        self._dialog: QFileDialog | None = None

    def listen(self, signal: Any, slot: Callable[..., object]) -> None:
        """Connect ``slot`` to a link ``signal`` for as long as the panel lives."""
        signal.connect(slot)
        self._listening.append((signal, slot))

    @Slot()
    def _on_sentinel_destroyed(self) -> None:
        self.stop_listening()

    def stop_listening(self) -> None:
        """Disconnect from the link: the window closes, and its charts may go before the link
        says its last word (a session released after the close)."""
        for signal, slot in self._listening:
            with contextlib.suppress(RuntimeError, TypeError):
                signal.disconnect(slot)
        self._listening.clear()
        self.refresh_job.discard()

    # -- layout ---------------------------------------------------------------------------------

    def add_graphics(self, stretch: int = 1) -> pg.GraphicsLayoutWidget:
        """The plot area (made once), below the controls."""
        if self.graphics is None:
            self.graphics = pg.GraphicsLayoutWidget()
            self.graphics.setMinimumHeight(140)
            self.graphics.setBackground(self._theme.background)
            self.graphics.ci.setContentsMargins(2, 2, 2, 2)
            self._body.addWidget(self.graphics, stretch)
        return self.graphics

    def add_body(self, widget: QWidget, stretch: int = 1) -> None:
        """Add ``widget`` (a table, a list, a note) below the controls."""
        self._body.addWidget(widget, stretch)

    def show_placeholder(self, text: str) -> None:
        """Show ``text`` instead of the chart (nothing open, nothing scored yet...)."""
        self.placeholder.setText(text)
        self.placeholder.show()
        self._scroll.hide()
        self.export_button.setEnabled(False)

    def show_body(self) -> None:
        self.placeholder.hide()
        self._scroll.show()
        self.export_button.setEnabled(True)

    @property
    def theme(self) -> ChartTheme:
        return self._theme

    # -- refreshing -----------------------------------------------------------------------------

    def schedule(self) -> None:
        """Redraw soon if visible, else when next shown; what a redraw under way computes is
        out of date and dropped."""
        self._stale = True
        self.refresh_job.discard()
        self._apply = None
        if self.isVisible():
            self._timer.start()

    def compute(self, work: Callable[[], T], apply: Callable[[T], None], *, rows: int) -> None:
        """Run ``work`` (``core`` only, no widget) and draw its result with ``apply`` in the GUI
        thread. A refresh from the event loop over :data:`~gui.charts.jobs.BACKGROUND_ROWS`
        rows or more runs ``work`` in a worker thread, and the next refresh drops its result;
        any other (a small table, :meth:`refresh_now` from a test or an export) at once."""
        if self._deferred and rows >= BACKGROUND_ROWS:
            self._apply = apply
            self.refresh_job.start(lambda _cancelled, _progress: work())
            return
        self._apply = None
        self.refresh_job.discard()
        apply(work())

    @property
    def computing(self) -> bool:
        """Whether a refresh's computation is under way in a worker thread."""
        return self._apply is not None

    @Slot(object)
    def _on_refresh_computed(self, result: object) -> None:
        apply, self._apply = self._apply, None
        if apply is not None:
            apply(result)

    def refresh_now(self) -> None:
        """Redraw at once (tests, exports): everything is computed before this returns."""
        self._timer.stop()
        self._stale = False
        self._legend_columns = self.legend_columns()
        self.refresh()

    def refresh(self) -> None:
        """Redraw from the link's current state."""
        raise NotImplementedError

    def apply_theme(self) -> None:
        """Re-style plots for :attr:`theme` (called when the palette changes)."""

    def style_plot(self, plot: pg.PlotItem, title: str | None = None) -> None:
        """Style ``plot`` for the theme; a ``title`` wider than the plot can be is wrapped (a
        title never makes its plot wider than the panel)."""
        if title is not None:
            title = wrap_words(title, max(16, self.width() // (9 * self.plot_columns())))
        # Styled as before: nothing to do (restyling lays the plot out again).
        if self._styled.get(id(plot)) == (title, self._theme) and title is not None:
            return
        self._styled[id(plot)] = (title, self._theme)
        style_plot(plot, self._theme, title=title)

    def plot_columns(self) -> int:
        """How many plots share the panel's width (their titles wrap to their share)."""
        return 1

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        if self.legend_columns() != self._legend_columns:
            self.schedule()  # legends and titles are laid out for the width

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        if self._stale:
            self._timer.start()

    def changeEvent(self, event: QEvent) -> None:
        super().changeEvent(event)
        if event.type() == QEvent.Type.PaletteChange:
            self._theme = theme_for(self)
            if self.graphics is not None:
                self.graphics.setBackground(self._theme.background)
            self.apply_theme()
            self.schedule()

    @Slot()
    def _on_timer(self) -> None:
        if self._stale:
            self._deferred = True
            try:
                self.refresh_now()
            finally:
                self._deferred = False

    @Slot()
    def _on_link_changed(self) -> None:
        self.schedule()

    @Slot()
    def _on_link_data_changed(self) -> None:
        key = self.link.changed_column
        if key is not None and not self.follows_column(key):
            return
        self.schedule()

    def follows_column(self, key: str) -> bool:
        """Whether new values of column ``key`` change what this panel shows (an annotation
        edit replaces the MQM column's values at every keystroke). Panels that draw only the
        columns chosen in their combo boxes say so with :attr:`DRAWS_CHOSEN_COLUMNS`: a change
        to a column they list but do not draw then costs nothing; a new column is followed,
        so that the combo boxes list it."""
        if not self.DRAWS_CHOSEN_COLUMNS:
            return True
        combos = self.findChildren(QComboBox)
        listed = {combo.itemData(i) for combo in combos for i in range(combo.count())}
        return key not in listed or any(combo.currentData() == key for combo in combos)

    # -- columns ----------------------------------------------------------------------------------

    def legend_columns(self) -> int:
        """How many legend entries fit a line of this panel (at least one)."""
        return max(1, self.width() // 170)

    def column_items(self) -> list[tuple[str, object]]:
        return [(c.label, c.key) for c in self.link.columns()]

    def column_info(self, key: str) -> ScoreColumn | None:
        table = self.link.table
        return table.column_info(key) if table is not None and table.has(key) else None

    # -- export ---------------------------------------------------------------------------------

    def export_item(self) -> pg.GraphicsObject | pg.GraphicsLayout | None:
        """What is exported (by default everything in :attr:`graphics`)."""
        return None if self.graphics is None else self.graphics.ci

    def export_to(self, path: str | Path) -> Path | None:
        """Write the chart to ``path`` (.png or .svg). Returns the path, or None (with
        :attr:`export_failed`) when it cannot be written."""
        if self._stale:
            self.refresh_now()
        item = self.export_item()
        if item is None or self.placeholder.isVisible():
            self.export_failed.emit(
                QCoreApplication.translate("ChartPanel", "There is nothing to export yet.")
            )
            return None
        core = self.link.core
        comparison = None if core is None else core.comparison
        protect = [c.path for c in comparison.columns] if comparison is not None else []
        try:
            written = export_item(item, path, protect=protect)
        except (OSError, ValueError) as exc:
            self.export_failed.emit(str(exc))
            return None
        self.exported.emit(str(written))
        return written

    def _ask_path(self, suffix: str) -> None:
        if self._dialog is not None:
            self._dialog.close()
            self._dialog.deleteLater()
        name = type(self).title.lower().replace(" ", "-")
        caption = QCoreApplication.translate("ChartPanel", "Export {0}").format(self.title)
        dialog = QFileDialog(self, caption, str(Path.home() / name))
        dialog.setAcceptMode(QFileDialog.AcceptMode.AcceptSave)
        dialog.setDefaultSuffix(suffix)
        dialog.setNameFilter(
            QCoreApplication.translate("ChartPanel", "{0} files (*.{1})").format(
                suffix.upper(), suffix
            )
        )
        dialog.fileSelected.connect(self._on_export_path)
        self._dialog = dialog
        dialog.open()

    @Slot()
    def _on_export_png(self) -> None:
        self._ask_path("png")

    @Slot()
    def _on_export_svg(self) -> None:
        self._ask_path("svg")

    @Slot(str)
    def _on_export_path(self, path: str) -> None:
        if path:
            self.export_to(path)
