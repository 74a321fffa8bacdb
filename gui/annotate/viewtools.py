"""The annotation view's tools: the error being marked, its category, severity and note, the
output's errors, and its score.

Everything the keys do has a button here, in sight: the typology's categories (with their
number keys) and, once one is chosen, its sub-categories; the severities; the note; the list of
the output's errors (source errors marked as such); the ESA score by slider and by keys
(0 broken, 33 flawed, 66 good, 100 perfect, as Appraise's scale reads) or the MQM score. The
panel shows the :class:`~gui.annotate.controller.AnnotationController`'s state and turns clicks
into its calls; it keeps nothing itself.
"""

from __future__ import annotations

import math

from PySide6.QtCore import (
    QT_TRANSLATE_NOOP,
    QCoreApplication,
    QPoint,
    QPointF,
    Qt,
    Signal,
    Slot,
)
from PySide6.QtGui import QBrush, QColor, QPainter, QPaintEvent, QPalette
from PySide6.QtWidgets import (
    QAbstractItemView,
    QFrame,
    QGridLayout,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPushButton,
    QSizePolicy,
    QSlider,
    QSpinBox,
    QStyle,
    QToolButton,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from matchlight.core.annotation.model import Severity, Side, Status
from matchlight.core.annotation.typology import SEPARATOR, AnnotationMode
from matchlight.gui.annotate.controller import AnnotationController
from matchlight.gui.annotate.painting import SEVERITY_COLORS
from matchlight.gui.highlight.palette import is_dark_palette

__all__ = ["ToolsPanel"]

# The severities an annotator gives, with their keys and names (translated where shown).
SEVERITY_KEYS = (
    (Severity.MINOR, "m", QT_TRANSLATE_NOOP("ToolsPanel", "Minor")),
    (Severity.MAJOR, "M", QT_TRANSLATE_NOOP("ToolsPanel", "Major")),
    (Severity.CRITICAL, "C", QT_TRANSLATE_NOOP("ToolsPanel", "Critical")),
)
# Appraise's ESA anchors (0 broken, 33 flawed, 66 good, 100 perfect).
_ESA_ANCHORS = (
    (0, QT_TRANSLATE_NOOP("ToolsPanel", "0 broken")),
    (33, QT_TRANSLATE_NOOP("ToolsPanel", "33 flawed")),
    (66, QT_TRANSLATE_NOOP("ToolsPanel", "66 good")),
    (100, QT_TRANSLATE_NOOP("ToolsPanel", "100 perfect")),
)
_STATUSES = {
    Status.CONFIRMED: QT_TRANSLATE_NOOP("ToolsPanel", "confirmed"),
    Status.UNDECIDED: QT_TRANSLATE_NOOP("ToolsPanel", "undecided"),
    Status.REJECTED: QT_TRANSLATE_NOOP("ToolsPanel", "rejected"),
}
_SEVERITY_WORDS = {
    Severity.NEUTRAL: QT_TRANSLATE_NOOP("ToolsPanel", "neutral"),
    Severity.MINOR: QT_TRANSLATE_NOOP("ToolsPanel", "minor"),
    Severity.MAJOR: QT_TRANSLATE_NOOP("ToolsPanel", "major"),
    Severity.CRITICAL: QT_TRANSLATE_NOOP("ToolsPanel", "critical"),
}
_TOP_COLUMNS = 3
_SUB_COLUMNS = 2
_SUB_ROWS = 3


def severity_name(severity: Severity) -> str:
    """The severity's word (minor, major, critical) in the interface language."""
    return QCoreApplication.translate("ToolsPanel", _SEVERITY_WORDS[severity])


def status_name(status: Status) -> str:
    """The error's status (confirmed, undecided, rejected) in the interface language."""
    return QCoreApplication.translate("ToolsPanel", _STATUSES[status])


def _heading(text: str) -> QLabel:
    label = QLabel(text)
    font = label.font()
    font.setBold(True)
    label.setFont(font)
    return label


def _short(text: str, limit: int = 70) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


class _EsaScale(QWidget):
    """The anchors of the ESA scale, each under its place on the slider."""

    def __init__(self, slider: QSlider) -> None:
        super().__init__()
        self._slider = slider
        font = self.font()
        font.setPointSizeF(font.pointSizeF() * 0.85)
        self.setFont(font)
        self.setFixedHeight(self.fontMetrics().lineSpacing() + 2)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)

    def x_of(self, value: int) -> float:
        """Where the slider's handle stands at ``value``, in this widget's coordinates."""
        handle = self._slider.style().pixelMetric(
            QStyle.PixelMetric.PM_SliderLength, None, self._slider
        )
        left = self._slider.mapTo(self.parentWidget(), QPoint(0, 0)).x() - self.x()
        span = self._slider.width() - handle
        return left + handle / 2 + span * value / 100

    def paintEvent(self, event: QPaintEvent) -> None:
        painter = QPainter(self)
        painter.setPen(self.palette().color(QPalette.ColorRole.PlaceholderText))
        metrics = self.fontMetrics()
        for value, anchor in _ESA_ANCHORS:
            text = QCoreApplication.translate("ToolsPanel", anchor)
            width = metrics.horizontalAdvance(text)
            x = self.x_of(value) - width / 2
            x = max(0.0, min(x, self.width() - width))
            painter.drawText(QPointF(x, metrics.ascent() + 1), text)
        painter.end()


class ToolsPanel(QWidget):
    """The error being marked and the output's errors and score, for one controller."""

    # The id of a flagged span (its text was not found again) to put on the selected text.
    reattach_requested = Signal(str)

    def __init__(self, controller: AnnotationController, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.controller = controller
        self.setObjectName("annotation-tools")
        layout = QVBoxLayout(self)
        layout.setContentsMargins(8, 4, 8, 4)
        layout.setSpacing(5)

        # -- what is selected --
        self.selection_label = QLabel("—")
        self.selection_label.setObjectName("view-selection")
        self.selection_label.setWordWrap(True)
        self.selection_label.setTextFormat(Qt.TextFormat.PlainText)
        self.selection_label.setMinimumHeight(2 * self.fontMetrics().lineSpacing() + 4)
        self.selection_label.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
        layout.addWidget(self.selection_label)

        # -- category --
        self.category_box = QWidget()
        box = QVBoxLayout(self.category_box)
        box.setContentsMargins(0, 0, 0, 0)
        box.setSpacing(3)
        box.addWidget(_heading(QCoreApplication.translate("ToolsPanel", "Category")))
        self.top_grid = QGridLayout()
        self.top_grid.setSpacing(3)
        box.addLayout(self.top_grid)
        self.sub_caption = QLabel()
        self.sub_caption.setObjectName("subcategory-caption")
        box.addWidget(self.sub_caption)
        self.sub_grid = QGridLayout()
        self.sub_grid.setSpacing(3)
        sub_holder = QWidget()
        sub_holder.setLayout(self.sub_grid)
        sub_holder.setFixedHeight(
            _SUB_ROWS * (self.fontMetrics().lineSpacing() + 10) + (_SUB_ROWS - 1) * 3
        )
        self.sub_grid.setContentsMargins(0, 0, 0, 0)
        box.addWidget(sub_holder)
        layout.addWidget(self.category_box)
        self.top_buttons: list[QToolButton] = []
        self.sub_buttons: list[QToolButton] = []
        self._typology_names: tuple[str, ...] = ()
        self._subs_of: str | None = None

        # -- severity --
        layout.addWidget(_heading(QCoreApplication.translate("ToolsPanel", "Severity")))
        severity_row = QHBoxLayout()
        severity_row.setSpacing(4)
        self.severity_buttons: dict[Severity, QToolButton] = {}
        for severity, key, name in SEVERITY_KEYS:
            text = QCoreApplication.translate("ToolsPanel", name)
            button = self._tool_button(
                QCoreApplication.translate("ToolsPanel", "{severity}  ({key})").format(
                    severity=text, key=key
                )
            )
            button.setToolTip(
                QCoreApplication.translate("ToolsPanel", "Severity {severity} (key {key})").format(
                    severity=text, key=key
                )
            )
            button.setProperty("severity", severity.value)
            button.clicked.connect(self._on_severity_clicked)
            severity_row.addWidget(button, 1)
            self.severity_buttons[severity] = button
        layout.addLayout(severity_row)

        # -- note and the draft's buttons --
        self.note_edit = QLineEdit()
        self.note_edit.setObjectName("view-note")
        self.note_edit.setPlaceholderText(
            QCoreApplication.translate("ToolsPanel", "Note (F2) — needed for Other")
        )
        self.note_edit.setClearButtonEnabled(True)
        layout.addWidget(self.note_edit)
        row = QHBoxLayout()
        self.add_button = QPushButton(QCoreApplication.translate("ToolsPanel", "Add error  ⏎"))
        self.add_button.setObjectName("view-add")
        self.add_button.setToolTip(
            QCoreApplication.translate("ToolsPanel", "Add the error (Enter)")
        )
        self.add_button.clicked.connect(self._on_add_clicked)
        self.drop_button = QPushButton(QCoreApplication.translate("ToolsPanel", "Drop  Esc"))
        self.drop_button.setToolTip(
            QCoreApplication.translate(
                "ToolsPanel", "Drop the drafted error and the selection (Escape)"
            )
        )
        self.drop_button.clicked.connect(self._on_drop_clicked)
        for button in (self.add_button, self.drop_button):
            button.setFocusPolicy(Qt.FocusPolicy.TabFocus)
            row.addWidget(button)
        layout.addLayout(row)

        # -- the output's errors --
        self.errors_heading = _heading(
            QCoreApplication.translate("ToolsPanel", "Errors in this output")
        )
        layout.addWidget(self.errors_heading)
        self.errors = QTreeWidget()
        self.errors.setObjectName("view-errors")
        self.errors.setRootIsDecorated(False)
        self.errors.setUniformRowHeights(True)
        self.errors.setHeaderHidden(True)
        self.errors.setColumnCount(3)
        self.errors.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.errors.header().setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        self.errors.header().setStretchLastSection(False)
        self.errors.itemClicked.connect(self._on_error_chosen)
        self.errors.itemActivated.connect(self._on_error_chosen)
        self.errors.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)
        self.errors.setMinimumHeight(3 * self.fontMetrics().lineSpacing() + 8)
        layout.addWidget(self.errors, 1)
        self.reattach_button = QPushButton(QCoreApplication.translate("ToolsPanel", "Re-attach"))
        self.reattach_button.setObjectName("view-reattach")
        self.reattach_button.setToolTip(
            QCoreApplication.translate(
                "ToolsPanel",
                "Put the chosen lost error (not found) on the text selected on its side: the "
                "output, or the source (Shift+T) for a source error",
            )
        )
        self.reattach_button.setVisible(False)
        self.reattach_button.clicked.connect(self._on_reattach_clicked)
        layout.addWidget(self.reattach_button)

        # -- the score --
        self.score_frame = QFrame()
        self.score_frame.setObjectName("view-score")
        self.score_frame.setFrameShape(QFrame.Shape.StyledPanel)
        score = QVBoxLayout(self.score_frame)
        score.setContentsMargins(6, 4, 6, 4)
        score.setSpacing(3)
        self.score_heading = _heading(QCoreApplication.translate("ToolsPanel", "Score"))
        score.addWidget(self.score_heading)
        self.esa_row = QWidget()
        esa = QGridLayout(self.esa_row)
        esa.setContentsMargins(0, 0, 0, 0)
        esa.setHorizontalSpacing(6)
        esa.setVerticalSpacing(0)
        self.esa_slider = QSlider(Qt.Orientation.Horizontal)
        self.esa_slider.setObjectName("esa-slider")
        self.esa_slider.setRange(0, 100)
        self.esa_slider.setSingleStep(1)
        self.esa_slider.setPageStep(10)
        self.esa_slider.setTickInterval(10)
        self.esa_slider.setTickPosition(QSlider.TickPosition.TicksBelow)
        self.esa_slider.setToolTip(
            QCoreApplication.translate(
                "ToolsPanel",
                "The output's ESA score: drag, or arrows (±1) and Page Up/Down (±10); it is saved "
                "when you let go, press Enter or D, or move on",
            )
        )
        self.esa_slider.valueChanged.connect(self._on_esa_moved)
        self.esa_slider.sliderReleased.connect(self._on_esa_released)
        self.esa_spin = QSpinBox()
        self.esa_spin.setObjectName("view-esa-score")
        self.esa_spin.setRange(0, 100)
        self.esa_spin.setToolTip(
            QCoreApplication.translate("ToolsPanel", "Type the ESA score (E), then Enter")
        )
        self.esa_spin.valueChanged.connect(self._on_esa_moved)
        self.esa_scale = _EsaScale(self.esa_slider)
        esa.addWidget(self.esa_slider, 0, 0)
        esa.addWidget(self.esa_spin, 0, 1)
        esa.addWidget(self.esa_scale, 1, 0)
        score.addWidget(self.esa_row)
        self.score_label = QLabel()
        self.score_label.setObjectName("view-score-label")
        self.score_label.setWordWrap(True)
        score.addWidget(self.score_label)
        self.done_button = QPushButton(
            QCoreApplication.translate("ToolsPanel", "Done — no further errors  (D)")
        )
        self.done_button.setObjectName("view-done")
        self.done_button.setFocusPolicy(Qt.FocusPolicy.TabFocus)
        self.done_button.clicked.connect(self._on_done_clicked)
        score.addWidget(self.done_button)
        layout.addWidget(self.score_frame)

        self.progress_label = QLabel()
        self.progress_label.setObjectName("view-progress")
        self.progress_label.setWordWrap(True)
        layout.addWidget(self.progress_label)
        self.restyle()
        self.refresh()

    def restyle(self) -> None:
        """A chosen category, sub-category or severity stands out, in either theme."""
        palette = self.palette()
        dark = is_dark_palette(palette)
        accent = palette.color(QPalette.ColorRole.Highlight).name()
        text = palette.color(QPalette.ColorRole.HighlightedText).name()
        self.category_box.setStyleSheet(
            f"QToolButton:checked {{ background: {accent}; color: {text}; "
            f"border: 1px solid {accent}; border-radius: 3px; padding: 2px; }}"
        )
        for severity, button in self.severity_buttons.items():
            color = SEVERITY_COLORS[severity][1 if dark else 0]
            ink = "#101010" if dark else "#ffffff"
            button.setStyleSheet(
                f"QToolButton:checked {{ background: {color}; color: {ink}; "
                f"border: 1px solid {color}; border-radius: 3px; padding: 2px; }}"
            )

    def _tool_button(self, text: str) -> QToolButton:
        button = QToolButton()
        button.setText(text)
        button.setCheckable(True)
        button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)
        button.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        button.setFocusPolicy(Qt.FocusPolicy.TabFocus)  # a click leaves the keyboard in the text
        return button

    # -- what the keys ask -------------------------------------------------------------------------

    def take_return(self) -> bool:
        """Enter in a field of the panel: the field takes it."""
        c = self.controller
        if self.note_edit.hasFocus():
            c.set_note(self.note_edit.text())
            if not c.draft.empty:
                c.confirm()
            c.focus_text()
            return True
        if self.esa_spin.hasFocus() or self.esa_slider.hasFocus():
            self.esa_spin.interpretText()
            c.set_esa_score(float(self.esa_spin.value()))
            c.focus_text()
            return True
        if self.errors.hasFocus():
            span_id = self._chosen_span()
            if span_id is not None:
                c.set_status(span_id, Status.CONFIRMED)
            return True
        return False

    def take_remove(self) -> bool:
        """Backspace in the list of errors: the chosen one is removed (or rejected)."""
        if not self.errors.hasFocus():
            return False
        ws = self.controller.workspace
        span_id = self._chosen_span()
        span = None if ws is None or span_id is None else ws.get(span_id)
        if span is not None:
            if span.status is Status.UNDECIDED:
                self.controller.set_status(span.id, Status.REJECTED)
            else:
                self.controller.delete_span(span.id)
        return True

    def edit_note(self, text: str) -> None:
        self.note_edit.setText(text)
        self.note_edit.setFocus(Qt.FocusReason.ShortcutFocusReason)
        self.note_edit.selectAll()

    def edit_score(self) -> None:
        if self.controller.mode is not AnnotationMode.ESA:
            self.controller.say(
                QCoreApplication.translate(
                    "ToolsPanel", "The ESA score is for ESA mode (Annotate menu)."
                )
            )
            return
        self.esa_spin.setFocus(Qt.FocusReason.ShortcutFocusReason)
        self.esa_spin.selectAll()

    # -- refreshing --------------------------------------------------------------------------------

    def refresh(self) -> None:
        self._rebuild_categories()
        self.refresh_draft()
        self.refresh_errors()

    def _rebuild_categories(self) -> None:
        c = self.controller
        names = c.categories()
        if names == self._typology_names and self.top_buttons:
            return
        self._typology_names = names
        for button in self.top_buttons:
            self.top_grid.removeWidget(button)
            button.deleteLater()
        self.top_buttons = []
        for i, node in enumerate(c.typology.categories[:9]):
            button = self._tool_button(f"{i + 1}  {node.name}")
            button.setProperty("category", node.name)
            tip = (
                QCoreApplication.translate(
                    "ToolsPanel", "{name} (key {0}; press again for its sub-categories)"
                )
                if node.children
                else QCoreApplication.translate("ToolsPanel", "{name} (key {0})")
            )
            button.setToolTip(tip.format(i + 1, name=node.name))
            button.clicked.connect(self._on_category_clicked)
            self.top_grid.addWidget(button, i // _TOP_COLUMNS, i % _TOP_COLUMNS)
            self.top_buttons.append(button)
        self._subs_of = None
        self._rebuild_subcategories("")

    def _rebuild_subcategories(self, top: str) -> None:
        if top == self._subs_of:
            return
        self._subs_of = top
        for button in self.sub_buttons:
            self.sub_grid.removeWidget(button)
            button.deleteLater()
        self.sub_buttons = []
        node = next((n for n in self.controller.typology.categories if n.name == top), None)
        if node is None or not node.children:
            self.sub_caption.setText(
                QCoreApplication.translate("ToolsPanel", "{name}: no sub-categories").format(
                    name=top
                )
                if node is not None
                else QCoreApplication.translate(
                    "ToolsPanel", "Sub-categories: choose a category first"
                )
            )
            return
        number = self.controller.categories().index(top) + 1
        self.sub_caption.setText(
            QCoreApplication.translate(
                "ToolsPanel", "{name} › (press {0} again to step through)"
            ).format(number, name=top)
        )
        for i, child in enumerate(node.children):
            path = f"{top}{SEPARATOR}{child.name}"
            button = self._tool_button(child.name)
            button.setProperty("category", path)
            button.setToolTip(path.replace(SEPARATOR, " › "))
            button.clicked.connect(self._on_category_clicked)
            self.sub_grid.addWidget(button, i // _SUB_COLUMNS, i % _SUB_COLUMNS)
            self.sub_buttons.append(button)

    def refresh_draft(self) -> None:
        c = self.controller
        draft = c.draft
        esa = c.mode is AnnotationMode.ESA
        selected = c.selection()
        under = c.span_under_cursor()
        on_span = under is not None and draft.empty
        source = c.selecting.side is Side.SOURCE
        if selected is None:
            text = QCoreApplication.translate("ToolsPanel", "Choose a segment to annotate.")
        elif on_span and under is not None:
            text = (
                QCoreApplication.translate(
                    "ToolsPanel",
                    "On the error «{text}» in the source: the keys change it "
                    "(Enter confirms, Backspace removes).",
                )
                if source
                else QCoreApplication.translate(
                    "ToolsPanel",
                    "On the error «{text}» in the output: the keys change it "
                    "(Enter confirms, Backspace removes).",
                )
            ).format(text=_short(under.text) or "‸")
        elif selected.start != selected.end:
            text = (
                QCoreApplication.translate("ToolsPanel", "Selected in the source: «{text}»")
                if source
                else QCoreApplication.translate("ToolsPanel", "Selected in the output: «{text}»")
            ).format(text=_short(selected.text))
        elif draft.empty:
            text = (
                QCoreApplication.translate(
                    "ToolsPanel",
                    "Click the first and the last word of an error in the source (or drag, or "
                    "Shift+arrows); Shift+T: the source.",
                )
                if source
                else QCoreApplication.translate(
                    "ToolsPanel",
                    "Click the first and the last word of an error in the output (or drag, or "
                    "Shift+arrows); Shift+T: the source.",
                )
            )
        else:
            point = draft.point if draft.point is not None else selected.start
            text = QCoreApplication.translate("ToolsPanel", "Omission at “{text}‸…”").format(
                text=selected.line[max(0, point - 14) : point]
            )
        self.selection_label.setText(text)
        category = (under.category if on_span and under is not None else draft.category) or ""
        top = category.split(SEPARATOR)[0]
        self.category_box.setVisible(not esa)
        if not esa:
            self._rebuild_subcategories(top)
            for button in self.top_buttons:
                button.setChecked(button.property("category") == top)
            for button in self.sub_buttons:
                button.setChecked(button.property("category") == category)
        severity = under.severity if on_span and under is not None else draft.severity
        for sev, button in self.severity_buttons.items():
            button.setChecked(sev is severity)
        if not self.note_edit.hasFocus():
            self.note_edit.setText(under.note if on_span and under is not None else draft.note)
        editable = c.workspace is not None and c.editable()
        for widget in (self.add_button, self.drop_button, self.note_edit, self.done_button):
            widget.setEnabled(editable)
        self.note_edit.setPlaceholderText(
            QCoreApplication.translate("ToolsPanel", "Note (F2)")
            if esa
            else QCoreApplication.translate("ToolsPanel", "Note (F2) — needed for Other")
        )
        self.refresh_score()

    def refresh_errors(self) -> None:
        c = self.controller
        chosen = self._chosen_span()
        self.errors.clear()
        dark = is_dark_palette(self.palette())
        spans = sorted(c.target_spans(), key=lambda s: (s.side is Side.SOURCE, s.start, s.end))
        shown = 0
        for span in spans:
            if span.status is Status.REJECTED:
                continue
            shown += 1
            text = span.text or QCoreApplication.translate("ToolsPanel", "‸ omission")
            if span.side is Side.SOURCE:
                text = QCoreApplication.translate("ToolsPanel", "source: {text}").format(text=text)
            if span.status is Status.UNDECIDED:
                text = "? " + text
            lost = span.id in c.flagged
            if lost:
                text = QCoreApplication.translate("ToolsPanel", "not found: {text}").format(
                    text=text
                )
            item = QTreeWidgetItem(
                [
                    _short(text, 60),
                    (span.category or "—").replace(SEPARATOR, " › "),
                    severity_name(span.severity),
                ]
            )
            item.setData(0, Qt.ItemDataRole.UserRole, span.id)
            color = QColor(SEVERITY_COLORS[span.severity][1 if dark else 0])
            item.setForeground(2, QBrush(color))
            category = span.category or QCoreApplication.translate("ToolsPanel", "error")
            tip = f"{category} · {severity_name(span.severity)} · {status_name(span.status)}"
            if span.status is Status.UNDECIDED:
                tip += QCoreApplication.translate(
                    "ToolsPanel", " (imported: Enter confirms, Backspace rejects)"
                )
            if lost:
                tip += "\n" + QCoreApplication.translate(
                    "ToolsPanel",
                    "Its text was not found again in the changed file: select the text it "
                    "stands for now, then Re-attach.",
                )
            if span.note:
                tip += "\n" + QCoreApplication.translate("ToolsPanel", "Note: {note}").format(
                    note=span.note
                )
            item.setToolTip(0, tip)
            self.errors.addTopLevelItem(item)
            if span.id == chosen:
                item.setSelected(True)
        self.reattach_button.setVisible(chosen is not None and chosen in c.flagged)
        self.errors.setColumnHidden(1, c.mode is AnnotationMode.ESA)  # no categories in ESA
        for column in (1, 2):
            self.errors.resizeColumnToContents(column)
        self.errors_heading.setText(
            QCoreApplication.translate("ToolsPanel", "Errors in this output ({0})").format(shown)
            if shown
            else QCoreApplication.translate("ToolsPanel", "Errors in this output: none yet")
        )
        self.refresh_score()

    def refresh_score(self) -> None:
        c = self.controller
        ws, target = c.workspace, c.target()
        esa = c.mode is AnnotationMode.ESA
        self.esa_row.setVisible(esa)
        self.score_heading.setText(
            QCoreApplication.translate("ToolsPanel", "ESA score") if esa else "MQM"
        )
        self.done_button.setText(
            QCoreApplication.translate("ToolsPanel", "Save the score  (D)")
            if esa
            else QCoreApplication.translate("ToolsPanel", "Done — no further errors  (D)")
        )
        if ws is None or target is None:
            self.score_label.setText("")
            self.progress_label.setText("")
            return
        segment, system = target
        name = ws.systems[system]
        if esa:
            value = round(c.esa_value())
            for widget in (self.esa_slider, self.esa_spin):
                if widget.value() != value and not (widget is self.esa_spin and widget.hasFocus()):
                    widget.blockSignals(True)
                    widget.setValue(value)
                    widget.blockSignals(False)
            saved = ws.score(name, segment)
            suggested = ws.prefill(name, segment)
            if c.esa_pending():
                state = QCoreApplication.translate(
                    "ToolsPanel", "not saved yet (Enter or D saves; moving on saves too)"
                )
            elif saved is not None and saved.score is not None:
                state = QCoreApplication.translate("ToolsPanel", "saved {0:g}").format(saved.score)
            else:
                state = QCoreApplication.translate("ToolsPanel", "not scored yet")
            self.score_label.setText(
                QCoreApplication.translate(
                    "ToolsPanel", "{state} · the errors suggest {0:g}"
                ).format(suggested, state=state)
            )
        else:
            penalty = ws.segment_penalty(name, segment)
            here = (
                QCoreApplication.translate("ToolsPanel", "not rated yet")
                if math.isnan(penalty)
                else f"{penalty:.4g}"
            )
            self.score_label.setText(
                QCoreApplication.translate("ToolsPanel", "MQM penalty of this output: {0}").format(
                    here
                )
            )
        done = int(ws.annotated_mask(name).sum())
        progress = (
            QCoreApplication.translate(
                "ToolsPanel", "{name}: {0:,} of {1:,} outputs annotated · this one is done"
            )
            if ws.is_annotated(name, segment)
            else QCoreApplication.translate(
                "ToolsPanel", "{name}: {0:,} of {1:,} outputs annotated"
            )
        )
        self.progress_label.setText(progress.format(done, ws.n_segments, name=name))

    def _chosen_span(self) -> str | None:
        items = self.errors.selectedItems()
        value = items[0].data(0, Qt.ItemDataRole.UserRole) if items else None
        return value if isinstance(value, str) else None

    # -- slots -------------------------------------------------------------------------------------

    @Slot()
    def _on_category_clicked(self) -> None:
        path = self.sender().property("category") if self.sender() is not None else None
        if isinstance(path, str):
            self.controller.set_category(path)
            self.controller.selecting.refocus()

    @Slot()
    def _on_severity_clicked(self) -> None:
        value = self.sender().property("severity") if self.sender() is not None else None
        if isinstance(value, str):
            self.controller.set_severity(Severity(value))
            self.controller.selecting.refocus()

    @Slot()
    def _on_add_clicked(self) -> None:
        c = self.controller
        if self.note_edit.text() != c.draft.note:
            c.set_note(self.note_edit.text())
        c.confirm()
        c.selecting.refocus()

    @Slot()
    def _on_drop_clicked(self) -> None:
        self.controller.cancel()
        self.controller.selecting.refocus()

    @Slot()
    def _on_done_clicked(self) -> None:
        self.controller.mark_done()

    @Slot(QTreeWidgetItem, int)
    def _on_error_chosen(self, item: QTreeWidgetItem, _column: int) -> None:
        c = self.controller
        span_id = item.data(0, Qt.ItemDataRole.UserRole)
        ws = c.workspace
        span = None if ws is None or not isinstance(span_id, str) else ws.get(span_id)
        lost = span is not None and span.id in c.flagged
        self.reattach_button.setVisible(lost)
        if span is None:
            return
        if lost:
            c.say(
                QCoreApplication.translate(
                    "ToolsPanel", "Select the text «{0}» stands for now, then Re-attach."
                ).format(span.text)
            )
        else:
            c.select_range(span.start, span.end, span.side)

    @Slot()
    def _on_reattach_clicked(self) -> None:
        span_id = self._chosen_span()
        if span_id is not None:
            self.reattach_requested.emit(span_id)
        self.controller.selecting.refocus()

    @Slot(int)
    def _on_esa_moved(self, value: int) -> None:
        self.controller.set_esa_pending(float(value))

    @Slot()
    def _on_esa_released(self) -> None:
        self.controller.set_esa_score(float(self.esa_slider.value()))
