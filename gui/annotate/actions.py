"""The annotation keys and the Annotate menu, around one :class:`AnnotationController`.

Every shortcut of :data:`~gui.annotate.keys.SHORTCUTS` becomes a QAction that calls the
controller; the digits pick categories; the single-key actions act only while the table, the
detail pane, the annotation panel or the annotation view has the focus
(:meth:`AnnotationActions.attach_keys`), so typing in a search field never annotates. Undo,
Redo, Go to segment and the annotation view work in the whole window (and in the annotation
view's); Undo and Redo name the step they undo. Keys whose meaning depends on where the focus is
(Enter, Backspace, Escape, F2, E, Ctrl+G) ask the annotation view when the keyboard is in it,
else the panel.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QCoreApplication, QObject, Qt, Slot
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QMenu, QWidget

from matchlight.core.annotation.model import Severity, Status
from matchlight.core.annotation.review import ReviewScope
from matchlight.core.annotation.typology import AnnotationMode
from matchlight.gui.annotate.controller import AnnotationController
from matchlight.gui.annotate.keys import SHORTCUTS
from matchlight.gui.annotate.review import AnnotationReview
from matchlight.gui.annotate.reviewbox import REVIEW_SCOPES

__all__ = ["AnnotationActions"]

# The Annotate menu's groups of shortcut names, separated by lines.
_MENU = (
    ("annotation_view", "evidence", "go_to_segment"),
    ("focus_text", "focus_source"),
    ("minor", "major", "critical"),
    ("confirm", "remove", "note", "cancel"),
    ("next_span", "previous_span"),
    ("done", "score"),
    ("next_segment", "previous_segment", "next_system", "previous_system"),
    ("next_unannotated", "previous_unannotated"),
    ("undo", "redo"),
)
# The actions that work wherever the focus is in the window.
_WINDOW_WIDE = ("undo", "redo", "go_to_segment", "annotation_view")
# The actions of the annotation view alone.
_VIEW_ONLY = ("evidence",)


class AnnotationActions(QObject):
    """The QActions of the annotation keys, the category digits and the ESA switch."""

    def __init__(self, controller: AnnotationController, window: QWidget) -> None:
        super().__init__(window)
        self.controller = controller
        self._review: AnnotationReview | None = None
        c = controller
        # The annotation feature's widgets (gui.annotate.install.AnnotationUi), once built.
        self.ui: Any = None
        slots: dict[str, Callable[[], object]] = {
            "focus_text": c.focus_text,
            "focus_source": c.focus_source,
            "minor": lambda: c.set_severity(Severity.MINOR),
            "major": lambda: c.set_severity(Severity.MAJOR),
            "critical": lambda: c.set_severity(Severity.CRITICAL),
            "confirm": self._on_confirm_key,
            "remove": self._on_remove_key,
            "cancel": self._on_cancel_key,
            "note": self._on_note_key,
            "done": c.mark_done,
            "score": self._on_score_key,
            "next_span": lambda: c.select_span(1),
            "previous_span": lambda: c.select_span(-1),
            "next_segment": lambda: c.move_segment(1),
            "previous_segment": lambda: c.move_segment(-1),
            "next_system": lambda: c.move_system(1),
            "previous_system": lambda: c.move_system(-1),
            "next_unannotated": lambda: c.next_unannotated(1),
            "previous_unannotated": lambda: c.next_unannotated(-1),
            "undo": c.undo,
            "redo": c.redo,
            "go_to_segment": self._on_go_to_key,
            "annotation_view": self._on_view_key,
            "evidence": self._on_evidence_key,
        }
        # Actions by shortcut name.
        self.actions: dict[str, QAction] = {}
        for shortcut in SHORTCUTS:
            action = QAction(shortcut.menu_text(), window)
            action.setShortcuts([QKeySequence(k) for k in shortcut.keys])
            action.setToolTip(shortcut.help_text())
            action.setStatusTip(shortcut.help_text())
            action.triggered.connect(slots[shortcut.name])
            self.actions[shortcut.name] = action
        for name in _WINDOW_WIDE:
            self.actions[name].setShortcutContext(Qt.ShortcutContext.WindowShortcut)
            window.addAction(self.actions[name])
        self.category_actions: list[QAction] = []
        for number in range(1, 10):
            action = QAction(
                QCoreApplication.translate("actions", "Category {0}").format(number), window
            )
            action.setShortcut(QKeySequence(str(number)))
            action.setData(number)
            action.triggered.connect(self._on_category_key)
            self.category_actions.append(action)
        self.esa_action = QAction(
            QCoreApplication.translate("actions", "&ESA mode (severities and a 0–100 score)"),
            window,
        )
        self.esa_action.setCheckable(True)
        self.esa_action.toggled.connect(self._on_esa_toggled)
        # Bulk review, by (status, scope) (:meth:`add_review`).
        self.review_actions: dict[tuple[Status, ReviewScope], QAction] = {}
        for signal in (c.attached, c.history_changed, c.settings_changed):
            signal.connect(self.update)
        self.update()

    def add_review(self, review: AnnotationReview) -> None:
        """The Annotate menu's bulk review: confirm or reject the undecided errors of this
        output, this segment, this system or everywhere (one undo step each)."""
        self._review = review
        window = self.parent()
        words = (
            (
                Status.CONFIRMED,
                QCoreApplication.translate("actions", "Confirm undecided errors of {where}"),
                QCoreApplication.translate(
                    "actions", "Confirm every undecided error of {where}, as one step"
                ),
            ),
            (
                Status.REJECTED,
                QCoreApplication.translate("actions", "Reject undecided errors of {where}"),
                QCoreApplication.translate(
                    "actions", "Reject every undecided error of {where}, as one step"
                ),
            ),
        )
        for status, text, tip in words:
            for scope, label in REVIEW_SCOPES:
                where = QCoreApplication.translate("reviewbox", label)
                action = QAction(text.format(where=where), window)
                action.setData(f"{status.value}:{scope.value}")
                action.setStatusTip(tip.format(where=where))
                action.triggered.connect(self._on_review_triggered)
                self.review_actions[(status, scope)] = action
        self.update()

    def key_actions(self) -> list[QAction]:
        """The single-key actions, for the widgets in whose focus they act."""
        single = [
            a for n, a in self.actions.items() if n not in _WINDOW_WIDE and n not in _VIEW_ONLY
        ]
        return single + self.category_actions

    def attach_keys(self, widget: QWidget) -> None:
        """Make the annotation keys work while ``widget`` (or a child) has the focus."""
        for action in self.key_actions():
            action.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
            widget.addAction(action)

    def attach_view(self, view: QWidget) -> None:
        """The annotation view (a window of its own): the annotation keys, its own keys, and
        the window-wide ones work in it."""
        self.attach_keys(view)
        for name in _VIEW_ONLY:
            action = self.actions[name]
            action.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
            view.addAction(action)
        for name in _WINDOW_WIDE:
            view.addAction(self.actions[name])

    def build_menu(self, menu: QMenu) -> None:
        """The Annotate menu: every annotation command with its key."""
        menu.setToolTipsVisible(True)
        for group in _MENU:
            for name in group:
                menu.addAction(self.actions[name])
            menu.addSeparator()
        menu.addAction(self.esa_action)
        if self.review_actions:
            menu.addSeparator()
            review = menu.addMenu(QCoreApplication.translate("actions", "Re&view pre-annotations"))
            review.setToolTipsVisible(True)
            for status in (Status.CONFIRMED, Status.REJECTED):
                for scope, _ in REVIEW_SCOPES:
                    review.addAction(self.review_actions[(status, scope)])
                review.addSeparator()

    @Slot()
    def update(self) -> None:
        """Undo/Redo name their step; the ESA switch shows the mode."""
        c = self.controller
        ws = c.workspace
        editable = ws is not None and c.editable()
        words = (
            (
                "undo",
                QCoreApplication.translate("actions", "&Undo"),
                QCoreApplication.translate("actions", "&Undo {step}"),
            ),
            (
                "redo",
                QCoreApplication.translate("actions", "&Redo"),
                QCoreApplication.translate("actions", "&Redo {step}"),
            ),
        )
        for name, base, named in words:
            label = None
            if ws is not None:
                history = ws.history
                label = history.undo_label() if name == "undo" else history.redo_label()
            action = self.actions[name]
            action.setText(named.format(step=label.lower()) if label else base)
            action.setEnabled(label is not None and editable)
        self.esa_action.blockSignals(True)
        self.esa_action.setChecked(c.mode is AnnotationMode.ESA)
        self.esa_action.setEnabled(editable)
        self.esa_action.blockSignals(False)
        for action in self.review_actions.values():
            action.setEnabled(editable)

    # -- keys whose meaning depends on the focus -----------------------------------------------

    @Slot()
    def _on_category_key(self) -> None:
        action = self.sender()
        if isinstance(action, QAction):
            self.controller.pick_category(int(action.data()))

    def _widgets(self) -> Any:
        """What a key whose meaning depends on the focus asks: the annotation view while the
        keyboard is in it (or it is where the annotator selects), else the panel."""
        c = self.controller
        view = c.view
        inside = view is not None and view.isVisible()
        if inside and (view.has_focus_inside() or c.selecting.surface is view):
            return view
        return c.panel

    @Slot()
    def _on_confirm_key(self) -> None:
        widgets = self._widgets()
        if widgets is not None and widgets.take_return():
            return
        self.controller.confirm()

    @Slot()
    def _on_remove_key(self) -> None:
        widgets = self._widgets()
        if widgets is not None and widgets.take_remove():
            return
        self.controller.remove()

    @Slot()
    def _on_cancel_key(self) -> None:
        view = self.controller.view
        if view is not None and view.isVisible() and view.take_escape():
            return
        self.controller.cancel()

    @Slot()
    def _on_note_key(self) -> None:
        c = self.controller
        widgets = self._widgets()
        if widgets is not None:
            span = c.span_under_cursor()
            widgets.edit_note(span.note if span is not None else c.draft.note)

    @Slot()
    def _on_score_key(self) -> None:
        widgets = self._widgets()
        if widgets is not None:
            widgets.edit_score()

    @Slot()
    def _on_go_to_key(self) -> None:
        if self.ui is not None:
            self.ui.go_to_prompt()

    @Slot()
    def _on_view_key(self) -> None:
        if self.ui is not None:
            self.ui.show_view()

    @Slot()
    def _on_evidence_key(self) -> None:
        if self.ui is not None:
            self.ui.toggle_evidence()

    @Slot()
    def _on_review_triggered(self) -> None:
        action = self.sender()
        if isinstance(action, QAction) and self._review is not None:
            status, _, scope = str(action.data()).partition(":")
            self._review.review(Status(status), ReviewScope(scope))

    @Slot(bool)
    def _on_esa_toggled(self, on: bool) -> None:
        self.controller.set_mode(AnnotationMode.ESA if on else AnnotationMode.MQM)
