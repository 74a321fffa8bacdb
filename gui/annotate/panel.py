"""The annotation panel: the output being annotated, the draft error, its errors, the filters.

The panel shows the :class:`~gui.annotate.controller.AnnotationController`'s state and turns
clicks into its calls; it keeps no annotation state itself. Everything here has a key (see
:mod:`gui.annotate.keys`); the buttons are for the mouse and for finding out what the keys do.
The output's errors are an :class:`~gui.annotate.errorlist.ErrorList`, the filter a
:class:`~gui.annotate.rowfilter.RowFilter`.
"""

from __future__ import annotations

import math

from PySide6.QtCore import QCoreApplication, Qt, QTimer, Slot
from PySide6.QtGui import QAction
from PySide6.QtWidgets import (
    QComboBox,
    QFormLayout,
    QFrame,
    QGridLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QMenu,
    QPushButton,
    QScrollArea,
    QSpinBox,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from matchlight.core.annotation.model import Severity, Status
from matchlight.core.annotation.typology import SEPARATOR, AnnotationMode
from matchlight.gui.annotate.controller import AnnotationController
from matchlight.gui.annotate.errorlist import ErrorList
from matchlight.gui.annotate.painting import SEVERITY_COLORS
from matchlight.gui.annotate.review import AnnotationReview
from matchlight.gui.annotate.reviewbox import ReviewBox, SystemFigures
from matchlight.gui.annotate.rowfilter import RowFilter
from matchlight.gui.annotate.tablelink import AnnotationTableLink
from matchlight.gui.annotate.viewtools import SEVERITY_KEYS

__all__ = ["AnnotationPanel"]


def _bold(label: QLabel) -> QLabel:
    font = label.font()
    font.setBold(True)
    label.setFont(font)
    return label


class AnnotationPanel(QWidget):
    """Annotate the current row's output of one system, by keyboard or mouse."""

    def __init__(
        self,
        controller: AnnotationController,
        table: AnnotationTableLink,
        parent: QWidget | None = None,
        *,
        review: AnnotationReview | None = None,
    ) -> None:
        super().__init__(parent)
        self.controller = controller
        self.table = table
        self.review = review or AnnotationReview(controller)
        controller.panel = self
        self.setObjectName("annotation-panel")

        body = QWidget()
        layout = QVBoxLayout(body)
        layout.setContentsMargins(6, 6, 6, 6)
        layout.setSpacing(6)

        # -- header --
        self.title = _bold(
            QLabel(QCoreApplication.translate("AnnotationPanel", "No comparison open."))
        )
        self.title.setWordWrap(True)
        self.session_label = QLabel()
        self.session_label.setObjectName("session-label")
        self.session_label.setWordWrap(True)
        self.session_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.annotator_edit = QLineEdit()
        self.annotator_edit.setObjectName("annotator")
        self.annotator_edit.setToolTip(
            QCoreApplication.translate(
                "AnnotationPanel", "Your name, stored with every error you mark"
            )
        )
        self.annotator_edit.editingFinished.connect(self._on_annotator_edited)
        self.system_combo = QComboBox()
        self.system_combo.setToolTip(
            QCoreApplication.translate(
                "AnnotationPanel", "The system whose output you annotate (S / Shift+S)"
            )
        )
        self.system_combo.currentIndexChanged.connect(self._on_system_chosen)
        form = QFormLayout()
        form.setContentsMargins(0, 0, 0, 0)
        form.addRow(
            QCoreApplication.translate("AnnotationPanel", "Annotator:"), self.annotator_edit
        )
        form.addRow(QCoreApplication.translate("AnnotationPanel", "System:"), self.system_combo)
        layout.addWidget(self.title)
        layout.addLayout(form)
        layout.addWidget(self.session_label)

        self.message_label = QLabel(" ")
        self.message_label.setObjectName("annotation-message")
        self.message_label.setWordWrap(True)
        self.message_label.setFrameShape(QFrame.Shape.StyledPanel)
        self.message_label.setMinimumHeight(self.message_label.fontMetrics().lineSpacing() * 2 + 8)
        layout.addWidget(self.message_label)

        # -- the draft --
        draft_box = QGroupBox(QCoreApplication.translate("AnnotationPanel", "New error"))
        draft_box.setToolTip(
            QCoreApplication.translate(
                "AnnotationPanel",
                "Select the words of an error in the output (mouse, or T then Shift+arrows); with "
                "nothing selected, the error is an omission at the cursor",
            )
        )
        draft_layout = QVBoxLayout(draft_box)
        self.selection_label = QLabel("—")
        self.selection_label.setObjectName("draft-selection")
        self.selection_label.setWordWrap(True)
        self.selection_label.setTextFormat(Qt.TextFormat.PlainText)
        draft_layout.addWidget(self.selection_label)
        self.category_grid = QGridLayout()
        self.category_grid.setSpacing(3)
        draft_layout.addLayout(self.category_grid)
        self.category_buttons: list[QToolButton] = []
        severity_row = QHBoxLayout()
        self.severity_buttons: dict[Severity, QToolButton] = {}
        for severity, key, name in SEVERITY_KEYS:
            text = QCoreApplication.translate("ToolsPanel", name)
            button = QToolButton()
            button.setText(f"{key}  {text}")
            button.setCheckable(True)
            button.setToolTip(
                QCoreApplication.translate("ToolsPanel", "Severity {severity} (key {key})").format(
                    severity=text, key=key
                )
            )
            button.setProperty("severity", severity.value)
            button.clicked.connect(self._on_severity_clicked)
            light, _ = SEVERITY_COLORS[severity]
            button.setStyleSheet(f"QToolButton:checked {{ border: 2px solid {light}; }}")
            severity_row.addWidget(button)
            self.severity_buttons[severity] = button
        severity_row.addStretch(1)
        draft_layout.addLayout(severity_row)
        self.note_edit = QLineEdit()
        self.note_edit.setObjectName("note")
        self.note_edit.setPlaceholderText(
            QCoreApplication.translate("AnnotationPanel", "Note (F2) — needed for Other")
        )
        draft_layout.addWidget(self.note_edit)
        buttons = QHBoxLayout()
        self.add_button = QPushButton(QCoreApplication.translate("AnnotationPanel", "Add ⏎"))
        self.add_button.setToolTip(
            QCoreApplication.translate("AnnotationPanel", "Add the drafted error (Enter)")
        )
        self.add_button.clicked.connect(self._on_add_clicked)
        self.cancel_button = QPushButton(
            QCoreApplication.translate("AnnotationPanel", "Drop (Esc)")
        )
        self.cancel_button.setToolTip(
            QCoreApplication.translate("AnnotationPanel", "Drop the drafted error (Escape)")
        )
        self.cancel_button.clicked.connect(self._on_cancel_clicked)
        self.done_button = QPushButton(QCoreApplication.translate("AnnotationPanel", "Done (D)"))
        self.done_button.setToolTip(
            QCoreApplication.translate(
                "AnnotationPanel", "No further errors in this output: it counts as annotated (D)"
            )
        )
        self.done_button.clicked.connect(self._on_done_clicked)
        buttons.addWidget(self.add_button)
        buttons.addWidget(self.cancel_button)
        buttons.addWidget(self.done_button)
        draft_layout.addLayout(buttons)
        layout.addWidget(draft_box)

        # -- the output's errors --
        self.errors = ErrorList(controller, table, self.review)
        layout.addWidget(self.errors)
        self.review_box = ReviewBox(self.review)
        layout.addWidget(self.review_box)

        # -- scores --
        score_box = QGroupBox(QCoreApplication.translate("AnnotationPanel", "Scores"))
        score_layout = QFormLayout(score_box)
        self.mqm_label = QLabel("—")
        self.mqm_label.setObjectName("mqm")
        self.mqm_label.setWordWrap(True)
        score_layout.addRow(
            QCoreApplication.translate("AnnotationPanel", "MQM penalty:"), self.mqm_label
        )
        esa_row = QHBoxLayout()
        self.esa_spin = QSpinBox()
        self.esa_spin.setObjectName("esa-score")
        self.esa_spin.setRange(0, 100)
        self.esa_spin.setToolTip(
            QCoreApplication.translate(
                "AnnotationPanel", "The output's ESA score, 0–100 (E, then Enter)"
            )
        )
        self.esa_spin.valueChanged.connect(self._on_esa_spin_changed)
        self.esa_hint = QLabel()
        self.esa_save = QPushButton(QCoreApplication.translate("AnnotationPanel", "Save score"))
        self.esa_save.clicked.connect(self._on_esa_save_clicked)
        esa_row.addWidget(self.esa_spin)
        esa_row.addWidget(self.esa_save)
        esa_row.addWidget(self.esa_hint, 1)
        self.esa_row = QWidget()
        self.esa_row.setLayout(esa_row)
        esa_row.setContentsMargins(0, 0, 0, 0)
        self.esa_caption = QLabel(QCoreApplication.translate("AnnotationPanel", "ESA score:"))
        score_layout.addRow(self.esa_caption, self.esa_row)
        layout.addWidget(score_box)
        self.figures = SystemFigures(self.review)
        layout.addWidget(self.figures)

        # -- filter --
        self.row_filter = RowFilter(controller, table)
        layout.addWidget(self.row_filter)
        layout.addStretch(1)

        scroll = QScrollArea(self)
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(QFrame.Shape.NoFrame)
        scroll.setWidget(body)
        outer = QVBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        outer.addWidget(scroll)

        controller.annotations_changed.connect(self._on_annotations_changed)
        controller.target_changed.connect(self._on_target_changed)
        controller.draft_changed.connect(self._on_draft_changed)
        # One click or key says "draft changed" several times; the draft is shown once.
        self._draft_timer = QTimer(self)
        self._draft_timer.setSingleShot(True)
        self._draft_timer.setInterval(0)
        self._draft_timer.timeout.connect(self._on_draft_timer)
        controller.attached.connect(self._on_session_changed)
        controller.message_changed.connect(self._on_message_changed)
        self._categories_of: tuple[str, ...] = ()
        self.refresh()

    def set_session_text(self, text: str) -> None:
        """Say which session file the annotations go to (the session files tell)."""
        self.session_label.setText(text)

    # -- what the controller asks ---------------------------------------------------------------

    def take_return(self) -> bool:
        """Enter pressed: if a field of the panel has the focus, it takes it."""
        if self.note_edit.hasFocus():
            self.controller.set_note(self.note_edit.text())
            if not self.controller.draft.empty:
                self.controller.confirm()
            self.controller.focus_text()
            return True
        if self.errors.view.hasFocus():
            span_id = self.errors.selected_id()
            if span_id is not None:
                self.controller.set_status(span_id, Status.CONFIRMED)
            return True
        if self.esa_spin.hasFocus():
            self.esa_spin.interpretText()
            self.controller.set_esa_score(float(self.esa_spin.value()))
            self.controller.focus_text()
            return True
        return False

    def take_remove(self) -> bool:
        """Backspace pressed: in the list of errors it removes (rejects) the chosen one."""
        if not self.errors.view.hasFocus():
            return False
        span_id = self.errors.selected_id()
        ws = self.controller.workspace
        span = None if ws is None or span_id is None else ws.get(span_id)
        if span is None:
            return True
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
            self.controller.message_changed.emit(
                QCoreApplication.translate(
                    "ToolsPanel", "The ESA score is for ESA mode (Annotate menu)."
                )
            )
            return
        self.esa_spin.setFocus(Qt.FocusReason.ShortcutFocusReason)
        self.esa_spin.selectAll()

    def esa_value(self) -> float:
        self.esa_spin.interpretText()
        return self.controller.esa_value()

    # -- refreshing -----------------------------------------------------------------------------

    def refresh(self) -> None:
        self._rebuild_categories()
        self._refresh_header()
        self._refresh_draft()
        self.errors.refresh()
        self._refresh_scores()
        self.row_filter.refresh()

    def _rebuild_categories(self) -> None:
        names = self.controller.categories()
        if names == self._categories_of and self.category_buttons:
            return
        self._categories_of = names
        for button in self.category_buttons:
            self.category_grid.removeWidget(button)
            button.deleteLater()
        self.category_buttons = []
        typology = self.controller.typology
        for i, node in enumerate(typology.categories[:9]):
            button = QToolButton()
            button.setText(f"{i + 1}  {node.name}")
            button.setCheckable(True)
            button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)
            button.setProperty("category", node.name)
            tip = (
                QCoreApplication.translate(
                    "AnnotationPanel",
                    "Category {name} (key {0}; press again for its sub-categories)",
                )
                if node.children
                else QCoreApplication.translate("AnnotationPanel", "Category {name} (key {0})")
            )
            button.setToolTip(tip.format(i + 1, name=node.name))
            button.clicked.connect(self._on_category_clicked)
            if node.children:
                menu = QMenu(button)
                for child in node.children:
                    action = menu.addAction(child.name)
                    action.setData(f"{node.name}{SEPARATOR}{child.name}")
                menu.triggered.connect(self._on_subcategory_chosen)
                button.setMenu(menu)
                button.setPopupMode(QToolButton.ToolButtonPopupMode.MenuButtonPopup)
            self.category_grid.addWidget(button, i // 2, i % 2)
            self.category_buttons.append(button)

    def _refresh_header(self) -> None:
        c = self.controller
        names = c.system_names
        self.system_combo.blockSignals(True)
        if [self.system_combo.itemText(i) for i in range(self.system_combo.count())] != list(names):
            self.system_combo.clear()
            self.system_combo.addItems(list(names))
        self.system_combo.setCurrentIndex(c.system if names else -1)
        self.system_combo.blockSignals(False)
        if not self.annotator_edit.hasFocus():
            self.annotator_edit.setText(c.annotator)
        target = c.target()
        if target is None:
            self.title.setText(
                QCoreApplication.translate("AnnotationPanel", "Choose a row to annotate.")
                if names
                else QCoreApplication.translate("AnnotationPanel", "No comparison open.")
            )
        else:
            segment, system = target
            mode = "ESA" if c.mode is AnnotationMode.ESA else "MQM"
            self.title.setText(
                QCoreApplication.translate(
                    "AnnotationPanel", "Segment {0} · {system} · {mode}"
                ).format(segment + 1, system=names[system], mode=mode)
            )
        if c.workspace is None:
            self.session_label.setText("")

    def _refresh_draft(self) -> None:
        c = self.controller
        draft = c.draft
        selected = c.selection()
        esa = c.mode is AnnotationMode.ESA
        under = c.span_under_cursor()
        if selected is None:
            text = "—"
        elif under is not None and draft.empty:
            text = QCoreApplication.translate(
                "AnnotationPanel",
                "On error «{text}»: keys change it (Enter confirms, Backspace removes)",
            ).format(text=under.text or "‸")
        elif selected.start != selected.end:
            text = QCoreApplication.translate("AnnotationPanel", "Selected: «{text}»").format(
                text=_short(selected.text)
            )
        elif draft.empty:
            text = QCoreApplication.translate(
                "AnnotationPanel",
                "Select the words of an error: mouse, or Shift+arrows in the output (T).",
            )
        else:
            point = draft.point if draft.point is not None else selected.start
            before = selected.line[max(0, point - 12) : point]
            after = selected.line[point : point + 12]
            text = QCoreApplication.translate(
                "AnnotationPanel", "Omission at “{before}‸{after}”"
            ).format(before=before, after=after)
        if draft.category:
            text += "\n" + QCoreApplication.translate("AnnotationPanel", "Category: {0}").format(
                draft.category.replace(SEPARATOR, " › ")
            )
        self.selection_label.setText(text)
        chosen_top = (under.category if under is not None and draft.empty else draft.category) or ""
        chosen_top = chosen_top.split(SEPARATOR)[0]
        for button in self.category_buttons:
            button.setChecked(button.property("category") == chosen_top)
            button.setEnabled(not esa)
        severity = under.severity if under is not None and draft.empty else draft.severity
        for sev, button in self.severity_buttons.items():
            button.setChecked(sev is severity)
        if not self.note_edit.hasFocus():
            self.note_edit.setText(under.note if under is not None and draft.empty else draft.note)
        editable = c.workspace is not None and c.editable()
        for widget in (self.add_button, self.cancel_button, self.done_button, self.note_edit):
            widget.setEnabled(editable)

    def _refresh_scores(self) -> None:
        c = self.controller
        ws, target = c.workspace, c.target()
        esa = c.mode is AnnotationMode.ESA
        self.esa_caption.setVisible(esa)
        self.esa_row.setVisible(esa)
        if ws is None or target is None:
            self.mqm_label.setText("—")
            return
        segment, system = target
        name = ws.systems[system]
        penalty = ws.segment_penalty(name, segment)
        rated_mean, rated = ws.rated_mean(name)
        mean = (
            QCoreApplication.translate("AnnotationPanel", "{0:.2f} over {1} rated outputs").format(
                rated_mean, rated
            )
            if rated
            else "—"
        )
        here = (
            QCoreApplication.translate("AnnotationPanel", "not rated yet")
            if math.isnan(penalty)
            else f"{penalty:.4g}"
        )
        self.mqm_label.setText(
            QCoreApplication.translate(
                "AnnotationPanel", "this output: {here}; {name}: {mean}"
            ).format(here=here, name=name, mean=mean)
        )
        prefill = ws.prefill(name, segment)
        score = ws.score(name, segment)
        if not self.esa_spin.hasFocus():
            self.esa_spin.blockSignals(True)
            self.esa_spin.setValue(round(c.esa_value()))
            self.esa_spin.blockSignals(False)
        hint = QCoreApplication.translate("AnnotationPanel", "from the errors: {0:g}").format(
            prefill
        )
        if score is not None and score.score is not None:
            hint = QCoreApplication.translate("AnnotationPanel", "saved {0:g}; {hint}").format(
                score.score, hint=hint
            )
        self.esa_hint.setText(hint)

    # -- slots ----------------------------------------------------------------------------------

    @Slot()
    def _on_annotations_changed(self) -> None:
        self.errors.refresh()
        self._refresh_scores()
        self._refresh_draft()
        self.row_filter.refresh()

    @Slot()
    def _on_target_changed(self) -> None:
        self._rebuild_categories()
        self._refresh_header()
        self.errors.refresh()
        self._refresh_scores()
        self._refresh_draft()

    @Slot()
    def _on_draft_changed(self) -> None:
        self._draft_timer.start()

    @Slot()
    def _on_draft_timer(self) -> None:
        self._refresh_draft()
        if self.controller.mode is AnnotationMode.ESA:
            self._refresh_scores()  # an ESA score being moved (here or in the annotation view)

    @Slot()
    def _on_session_changed(self) -> None:
        self.refresh()

    @Slot(str)
    def _on_message_changed(self, text: str) -> None:
        self.message_label.setText(text or " ")

    @Slot()
    def _on_annotator_edited(self) -> None:
        self.controller.set_annotator(self.annotator_edit.text())

    @Slot(int)
    def _on_system_chosen(self, index: int) -> None:
        if index >= 0 and index != self.controller.system:
            self.controller.move_system(index - self.controller.system)

    @Slot()
    def _on_category_clicked(self) -> None:
        button = self.sender()
        name = button.property("category") if button is not None else None
        if isinstance(name, str):
            self.controller.set_category(name)
            self.controller.focus_text()

    @Slot(QAction)
    def _on_subcategory_chosen(self, action: QAction) -> None:
        path = action.data()
        if isinstance(path, str):
            self.controller.set_category(path)
            self.controller.focus_text()

    @Slot()
    def _on_severity_clicked(self) -> None:
        button = self.sender()
        value = button.property("severity") if button is not None else None
        if isinstance(value, str):
            self.controller.set_severity(Severity(value))
            self.controller.focus_text()

    @Slot()
    def _on_add_clicked(self) -> None:
        if self.note_edit.text() != self.controller.draft.note:
            self.controller.set_note(self.note_edit.text())
        self.controller.confirm()
        self.controller.focus_text()

    @Slot()
    def _on_cancel_clicked(self) -> None:
        self.controller.cancel()

    @Slot()
    def _on_done_clicked(self) -> None:
        self.controller.mark_done()

    @Slot(int)
    def _on_esa_spin_changed(self, value: int) -> None:
        self.controller.set_esa_pending(float(value))

    @Slot()
    def _on_esa_save_clicked(self) -> None:
        self.controller.set_esa_score(self.esa_value())


def _short(text: str, limit: int = 80) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"
