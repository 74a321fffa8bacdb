"""The filter bar's widgets and small helpers: a combo box that gives up width, the score boxes'
scales, and the chips that show filters set elsewhere (:mod:`gui.table.filterbar`)."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import (
    QCoreApplication,
    QRectF,
    QSize,
    Qt,
    Signal,
    Slot,
)
from PySide6.QtGui import (
    QKeyEvent,
    QPainter,
    QPaintEvent,
    QPalette,
    QPen,
    QResizeEvent,
    QWheelEvent,
)
from PySide6.QtWidgets import (
    QComboBox,
    QDoubleSpinBox,
    QFrame,
    QHBoxLayout,
    QLabel,
    QSizePolicy,
    QToolButton,
    QWidget,
)

from matchlight.core.analysis.scales import display_bounds, nice_step
from matchlight.core.analysis.selection import (
    Filter,
)
from matchlight.core.metrics.base import ScoreColumn


def number_text(value: float) -> str:
    return f"{value:g}"


def rows_text(n: int) -> str:
    if n == 1:
        return QCoreApplication.translate("FilterBar", "{0:,} row").format(n)
    return QCoreApplication.translate("FilterBar", "{0:,} rows").format(n)


# The fewest characters of its current entry a squeezed combo box still shows.
COMBO_MIN_CHARS = 7


class ShrinkingCombo(QComboBox):
    """A combo box as wide as its entries when there is room, and down to
    :data:`COMBO_MIN_CHARS` characters when there is not (its popup still shows the entries
    whole), so the bar fits a 1280-pixel window beside the docks.

    Typing never changes it while it is closed: a closed QComboBox picks the first entry
    starting with each letter typed, so letters meant for the table silently set a filter
    ("r" chose "ROUGE-Lsum = ROUGE-L rows"). Open it (Space, F4, Alt+Down or a click) to pick
    an entry by typing. Nor does the mouse wheel change it unless it has the focus.
    """

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)  # not WheelFocus

    def minimumSizeHint(self) -> QSize:
        hint = super().minimumSizeHint()
        least = self.fontMetrics().horizontalAdvance("M" * COMBO_MIN_CHARS) + 32
        return QSize(min(hint.width(), least), hint.height())

    def keyPressEvent(self, event: QKeyEvent) -> None:
        typed = event.text()
        plain = event.modifiers() & ~Qt.KeyboardModifier.ShiftModifier == Qt.KeyboardModifier(0)
        if plain and typed and typed.isprintable() and not typed.isspace():
            event.ignore()  # a closed combo box: see the class docstring
            return
        super().keyPressEvent(event)

    def wheelEvent(self, event: QWheelEvent) -> None:
        if not self.hasFocus():
            event.ignore()  # scrolls the window instead
            return
        super().wheelEvent(event)


@dataclass(frozen=True, slots=True)
class SpinScale:
    """What a score box shows for one column: its range (the column's natural one, an
    unbounded side from the data), its decimals, the step of its arrows (a hundredth of the
    range, at least one unit of the last decimal) and, for the difference box, its default
    (a tenth of the range: 10 points of BLEU, 0.1 of COMET)."""

    low: float
    high: float
    decimals: int
    step: float

    @classmethod
    def of(cls, column: ScoreColumn, values: Any = ()) -> SpinScale:
        low, high = display_bounds(column, values)
        step = max(column.step, nice_step(high - low, 100))
        return cls(low, high, column.decimals, step)

    @property
    def span(self) -> float:
        return self.high - self.low

    def default_difference(self) -> float:
        return round(self.span / 10, self.decimals) or 10.0**-self.decimals


def configure_spin(spin: QDoubleSpinBox, low: float, high: float, scale: SpinScale) -> None:
    """Give ``spin`` a range, decimals and step (signals blocked: its value may be clamped)."""
    with blocked(spin):
        spin.setDecimals(scale.decimals)
        spin.setRange(low, high)
        spin.setSingleStep(scale.step)


def make_spin(minimum: float, maximum: float, value: float, prefix: str = "") -> QDoubleSpinBox:
    spin = QDoubleSpinBox()
    spin.setRange(minimum, maximum)
    spin.setDecimals(1)
    spin.setSingleStep(1.0)
    spin.setValue(value)
    spin.setPrefix(prefix)
    spin.setKeyboardTracking(False)
    spin.setAccelerated(True)
    return spin


# How wide a chip's text gets at most; a chip is narrower when the bar is (its text elided in
# the middle), and its whole text is its tooltip.
CHIP_TEXT_WIDTH = 420
# The fewest characters a squeezed chip still shows.
CHIP_MIN_CHARS = 6


class ElidedLabel(QLabel):
    """A one-line label that gives up width: its text is elided in the middle to fit."""

    def __init__(self, text: str, parent: QWidget | None = None) -> None:
        super().__init__(text, parent)
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Fixed)

    def sizeHint(self) -> QSize:
        hint = super().sizeHint()
        return QSize(min(hint.width(), CHIP_TEXT_WIDTH), hint.height())

    def minimumSizeHint(self) -> QSize:
        hint = super().minimumSizeHint()
        least = self.fontMetrics().horizontalAdvance("M" * CHIP_MIN_CHARS)
        return QSize(min(hint.width(), least), hint.height())

    def shown_text(self) -> str:
        """The text as it fits the label's width now."""
        return self.fontMetrics().elidedText(
            self.text(), Qt.TextElideMode.ElideMiddle, self.contentsRect().width()
        )

    def paintEvent(self, event: QPaintEvent) -> None:
        painter = QPainter(self)
        painter.setPen(self.palette().color(self.foregroundRole()))
        flags = int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter)
        painter.drawText(self.contentsRect(), flags, self.shown_text())
        painter.end()


class FilterChip(QFrame):
    """A filter the bar's widgets cannot show, as a read-only label with a ✕ that removes it.

    Signals:
        remove_requested(object spec): the ✕ was clicked; ``spec`` is the filter to remove.
    """

    remove_requested = Signal(object)

    def __init__(self, spec: Filter, text: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.spec = spec
        self.full_text = text
        self.setObjectName("filterChip")
        self.setSizePolicy(QSizePolicy.Policy.Maximum, QSizePolicy.Policy.Fixed)
        self._cap: int | None = None
        self.label = ElidedLabel(text)
        self.setToolTip(
            QCoreApplication.translate(
                "FilterChip", "{text}\nSet outside the filter bar; ✕ removes this filter."
            ).format(text=text)
        )
        self.remove_button = QToolButton()
        self.remove_button.setText("✕")
        self.remove_button.setAutoRaise(True)
        self.remove_button.setToolTip(
            QCoreApplication.translate("FilterChip", "Remove this filter")
        )
        self.remove_button.setAccessibleName(
            QCoreApplication.translate("FilterChip", "Remove the filter {text}").format(text=text)
        )
        self.remove_button.clicked.connect(self._on_remove_clicked)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(8, 0, 2, 0)
        layout.setSpacing(2)
        layout.addWidget(self.label, 1)
        layout.addWidget(self.remove_button)

    def natural_width(self) -> int:
        """The width the whole (or CHIP_TEXT_WIDTH of the) text needs."""
        return super().sizeHint().width()

    def set_cap(self, width: int) -> None:
        """Ask for at most ``width`` pixels (the row's share of this chip)."""
        if width != self._cap:
            self._cap = width
            self.updateGeometry()

    def sizeHint(self) -> QSize:
        hint = super().sizeHint()
        if self._cap is not None:
            hint.setWidth(min(hint.width(), self._cap))
        return hint

    def paintEvent(self, event: QPaintEvent) -> None:
        """A rounded outline in the widget's palette (it follows a theme change; a style sheet
        would keep the colours it was polished with)."""
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        palette = self.palette()
        painter.setPen(QPen(palette.color(QPalette.ColorRole.Mid), 1.0))
        painter.setBrush(palette.color(QPalette.ColorRole.Midlight))
        rect = QRectF(self.rect()).adjusted(0.5, 0.5, -0.5, -0.5)
        radius = rect.height() / 2
        painter.drawRoundedRect(rect, radius, radius)
        painter.end()

    @Slot()
    def _on_remove_clicked(self) -> None:
        self.remove_requested.emit(self.spec)


class ChipRow(QWidget):
    """The line of chips; when they do not all fit, the widest give up width first, so a short
    chip ("segments 1-500") stays whole next to a long chart label."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.row = QHBoxLayout(self)
        self.row.setContentsMargins(0, 0, 0, 0)
        self.row.setSpacing(4)
        self.row.addStretch(1)

    def chips(self) -> list[FilterChip]:
        return [
            w
            for i in range(self.row.count())
            if isinstance(w := self.row.itemAt(i).widget(), FilterChip)
        ]

    def set_chips(self, chips: Sequence[FilterChip]) -> None:
        for chip in self.chips():
            self.row.removeWidget(chip)
            chip.hide()
            chip.deleteLater()
        for chip in chips:
            self.row.insertWidget(self.row.count() - 1, chip)
            chip.show()  # now, not when the layout gets to it
        self.fit()

    def fit(self) -> None:
        """Cap each chip's width: an equal share of the row, and what a narrower chip leaves
        of its share goes to the wider ones."""
        chips = self.chips()
        if not chips:
            return
        left = self.width() - self.row.spacing() * (len(chips) - 1)
        wanted = [chip.natural_width() for chip in chips]
        caps = [0] * len(chips)
        for done, i in enumerate(sorted(range(len(chips)), key=wanted.__getitem__)):
            share = left // (len(chips) - done)
            caps[i] = max(chips[i].minimumSizeHint().width(), min(wanted[i], share))
            left -= caps[i]
        for chip, cap in zip(chips, caps, strict=True):
            chip.set_cap(cap)
        self.row.activate()  # lay the chips out at their new widths before the next paint

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self.fit()


def rounded(value: float | None, decimals: int) -> float | None:
    """``value`` as a box with ``decimals`` would hold it."""
    return None if value is None else round(value, decimals)


def can_focus(widget: QWidget) -> bool:
    return (
        widget.isVisible() and widget.isEnabled() and widget.focusPolicy() != Qt.FocusPolicy.NoFocus
    )


@contextlib.contextmanager
def blocked(*widgets: QWidget) -> Iterator[None]:
    """Change ``widgets`` without their signals (showing the selection must not push it); a
    widget already blocked by an enclosing block stays blocked after this one."""
    before = [widget.blockSignals(True) for widget in widgets]
    try:
        yield
    finally:
        for widget, was in reversed(list(zip(widgets, before, strict=True))):
            widget.blockSignals(was)
