"""The annotation controller: error spans on the open comparison's outputs.

One :class:`AnnotationController` lives with the main window. For the open comparison it edits an
:class:`~core.annotation.workspace.AnnotationWorkspace` (spans, segment scores, undo/redo, MQM
and ESA values): it knows which output is being annotated (the current row and a system), the
draft error put together by keys, and turns keys and clicks into undoable commands. It holds the
annotation state; widgets only show it.

It knows nothing of files: the session file the workspace writes into belongs to
:class:`~gui.shell.sessionfiles.SessionFiles`, which attaches the workspace here
(:meth:`AnnotationController.attach`) and is asked before every edit
(:attr:`AnnotationController.before_edit`) so that the first edit creates the untitled session.
What the controller uses of the window is :class:`AnnotationHost`; its moves are
:mod:`.navigation`, its ESA score :mod:`.esa`, its settings :mod:`.annotsettings` and its
large steps (an import applied a slice at a time) :mod:`.stepping` (bases of the controller);
the keys and menus are :mod:`.actions`, the table's overlays, columns and filters
:mod:`.tablelink`, imports and exports :mod:`.transfer`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import QCoreApplication, QObject, Qt, Signal
from PySide6.QtWidgets import QMessageBox, QWidget

from matchlight.core.annotation.history import (
    AddSpan,
    DeleteSpan,
    SetSegmentScore,
    UpdateSpan,
)
from matchlight.core.annotation.model import (
    AnnotationError,
    ErrorSpan,
    SegmentScore,
    Severity,
    Side,
    Status,
)
from matchlight.core.annotation.offsets import snap_point, trim_spaces
from matchlight.core.annotation.review import reviewed
from matchlight.core.annotation.typology import (
    DEFAULT_TYPOLOGY,
    SEPARATOR,
    AnnotationMode,
    Typology,
)
from matchlight.core.annotation.workspace import AnnotationWorkspace, Key
from matchlight.core.session.comparison import ComparisonSession
from matchlight.gui.annotate.annotsettings import ANNOTATOR_KEY, AnnotationSettings
from matchlight.gui.annotate.esa import AnnotationEsa
from matchlight.gui.annotate.host import AnnotationHost
from matchlight.gui.annotate.navigation import AnnotationNavigation
from matchlight.gui.annotate.outputview import TextSelection
from matchlight.gui.annotate.selecting import Selecting
from matchlight.gui.annotate.stepping import AnnotationStepping

__all__ = [
    "ANNOTATOR_KEY",
    "AnnotationController",
    "AnnotationHost",
    "Draft",
    "TextSelection",
    "snap_point",
]

# ``notice(title, message)``: tells the user something that is not an error.
NoticeSink = Callable[[str, str], None]


@dataclass
class Draft:
    """The error being put together: category and severity picked by key, a note."""

    category: str | None = None
    severity: Severity | None = None
    note: str = ""
    # An omission drafted at this point (code points), when nothing was selected.
    point: int | None = None

    @property
    def empty(self) -> bool:
        return self.category is None and self.severity is None and not self.note


class AnnotationController(
    AnnotationNavigation, AnnotationEsa, AnnotationSettings, AnnotationStepping, QObject
):
    """Error annotation of the open comparison: the output being annotated, the draft, the edits.

    Signals:
        attached(): a workspace was attached (a comparison opened) or detached.
        annotations_changed(): spans or segment scores changed (an edit, undo, open, import).
        target_changed(): another output is being annotated (row or system).
        draft_changed(): the draft error, or the selection in the output, changed.
        settings_changed(): the mode, typology, weights or annotator changed.
        history_changed(): an edit was made, undone or redone (what Undo/Redo name changed).
        message_changed(str): a hint or problem for the user, about the last key or edit.
    """

    attached = Signal()
    annotations_changed = Signal()
    target_changed = Signal()
    draft_changed = Signal()
    settings_changed = Signal()
    history_changed = Signal()
    message_changed = Signal(str)

    def __init__(self, host: AnnotationHost, *, notice_sink: NoticeSink | None = None) -> None:
        super().__init__(host if isinstance(host, QObject) else None)
        self.host = host
        self.notice_sink: NoticeSink = notice_sink or self._show_notice
        # Asked before every edit; False refuses it (no session file can take it). The
        # session files install theirs (it creates the untitled session on the first edit).
        self.before_edit: Callable[[], bool] = lambda: True
        # Whether edits are allowed (a read-only copy of a session is not editable).
        self.editable: Callable[[], bool] = lambda: True
        self._workspace: AnnotationWorkspace | None = None
        self._core: ComparisonSession | None = None
        self._unsubscribe: Callable[[], None] | None = None
        self._system = 0
        self._draft = Draft()
        self._changed: frozenset[Key] | None = None
        self._cycle: tuple[int, int] | None = None  # (category number, step) of the last key
        self._message = ""
        # Spans whose text could not be found again after an input changed.
        self.flagged: set[str] = set()
        # Set while a session's saved state is put back (no layout is remembered meanwhile).
        self.restoring = False
        self._connected_selection_model: Any = None
        # The annotation panel, once installed (gui.annotate.install).
        self.panel: Any = None
        # The annotation view, once installed: a window made for annotating.
        self.view: Any = None
        pane = host.detail_pane
        pane.hypothesis_cursor_changed.connect(self._on_hypothesis_cursor_changed)
        # Where the annotator selects (the pane or the annotation view), on which side.
        self.selecting = Selecting(self)
        self._init_stepping()
        # An ESA score moved but not saved yet: (system name, segment, value).
        self._esa_pending: tuple[str, int, float] | None = None
        self._annotator = self._initial_annotator()

    # -- the workspace ----------------------------------------------------------------------

    def attach(
        self,
        core: ComparisonSession,
        workspace: AnnotationWorkspace,
        *,
        flagged: Sequence[str] = (),
    ) -> None:
        """Annotate ``core``'s outputs in ``workspace`` (a comparison was opened)."""
        self.detach()
        self._core, self._workspace = core, workspace
        self._system = 0
        self.selecting.reset()
        self._esa_pending = None
        self._draft, self._cycle = Draft(), None
        self.flagged = set(flagged)
        workspace.annotator = self._annotator
        self._unsubscribe = workspace.subscribe(self._on_workspace_changed)
        self._connect_selection_model()
        self.attached.emit()
        self.annotations_changed.emit()
        self.target_changed.emit()
        self.draft_changed.emit()

    def detach(self) -> None:
        self.stepping.cancel()
        if self._unsubscribe is not None:
            self._unsubscribe()
            self._unsubscribe = None
        self._workspace, self._core = None, None

    def _on_workspace_changed(self, keys: frozenset[Key]) -> None:
        self._changed = keys
        try:
            self.annotations_changed.emit()
        finally:
            self._changed = None
        self.draft_changed.emit()

    # -- reading ----------------------------------------------------------------------------

    @property
    def workspace(self) -> AnnotationWorkspace | None:
        return self._workspace

    @property
    def comparison_session(self) -> ComparisonSession | None:
        return self._core

    @property
    def changed(self) -> frozenset[Key] | None:
        """While :attr:`annotations_changed` is delivered for an edit: the (system, segment)
        outputs it changed; None when anything may have changed (an open, a mode change)."""
        return self._changed

    @property
    def draft(self) -> Draft:
        return self._draft

    @property
    def message(self) -> str:
        return self._message

    @property
    def annotator(self) -> str:
        return self._annotator

    @property
    def mode(self) -> AnnotationMode:
        return AnnotationMode.MQM if self._workspace is None else self._workspace.mode

    @property
    def typology(self) -> Typology:
        return DEFAULT_TYPOLOGY if self._workspace is None else self._workspace.typology

    @property
    def system_names(self) -> tuple[str, ...]:
        return () if self._core is None else self._core.system_names

    @property
    def system(self) -> int:
        """The system whose outputs are being annotated (its index)."""
        return self._system

    def set_system(self, system: int) -> None:
        """Annotate ``system``'s outputs (a session's saved choice, a click on its cell)."""
        if 0 <= system < len(self.system_names) and system != self._system:
            self._set_system(system)

    # -- the output being annotated ---------------------------------------------------------

    def target(self) -> tuple[int, int] | None:
        """(segment, system) of the output being annotated, or None without a current row."""
        if self._core is None:
            return None
        segment = self.host.current_segment()
        if segment is None:
            return None
        return segment, self._system

    def line(self, segment: int, system: int) -> str:
        if self._core is None:
            raise LookupError("no comparison is open")
        return self._core.text.systems[system][segment]

    def text_of(self, segment: int, system: int, side: Side = Side.TARGET) -> str:
        """The line a span of ``side`` points into: ``system``'s output, or the source."""
        if side is Side.TARGET:
            return self.line(segment, system)
        core = self._core
        if core is None or core.source is None:
            raise LookupError("the comparison has no source")
        return core.source[segment]

    @property
    def has_source(self) -> bool:
        return self._core is not None and self._core.source is not None

    def target_spans(self) -> list[ErrorSpan]:
        """The spans of the output being annotated, in reading order."""
        target = self.target()
        if target is None or self._workspace is None:
            return []
        segment, system = target
        return self._workspace.spans(self.system_names[system], segment)

    def selection(self) -> TextSelection | None:
        """The selection (or the cursor, as an empty selection) in the output being annotated
        (or its source, on that side), if the surface in use shows its current text."""
        return self.selecting.selection()

    def span_under_cursor(self) -> ErrorSpan | None:
        """The span the keys act on: the one selected exactly, else the innermost one around
        the cursor (rejected spans are left alone), on the side being selected."""
        selected = self.selection()
        if selected is None:
            return None
        spans = [
            s
            for s in self.target_spans()
            if s.status is not Status.REJECTED and s.side is selected.side
        ]
        if selected.start != selected.end:
            exact = [s for s in spans if (s.start, s.end) == (selected.start, selected.end)]
            return exact[0] if exact else None
        at = selected.start
        around = [s for s in spans if s.start <= at <= s.end]
        if not around:
            return None
        return min(around, key=lambda s: (s.end - s.start, s.start))

    # -- messages -----------------------------------------------------------------------------

    def say(self, text: str) -> None:
        self._message = text
        self.message_changed.emit(text)
        if text:
            self.host.statusBar().showMessage(text, 6000)

    def _show_notice(self, title: str, message: str) -> None:
        parent = self.host if isinstance(self.host, QWidget) else None
        box = QMessageBox(
            QMessageBox.Icon.Information, title, message, QMessageBox.StandardButton.Ok, parent
        )
        box.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        box.open()

    # -- editing ------------------------------------------------------------------------------

    def execute(self, command: Any) -> bool:
        """Check ``command``, let the session files make room for it, apply it and say so;
        False (with the reason in the message) when it is refused."""
        ws = self._workspace
        if ws is None or self._still_stepping():
            return False
        if ws.is_large(command, self.step_size):
            return self._execute_in_steps(ws, command)
        try:
            ws.check(command)
        except AnnotationError as exc:
            self.say(str(exc))
            return False
        if not self.before_edit():
            return False
        try:
            ws.execute(command)
        except AnnotationError as exc:
            self.say(str(exc))
            return False
        self.history_changed.emit()
        self.say(command.label)
        return True

    def lines(self) -> dict[str, Sequence[str]]:
        """Each system's lines, by name (what spans point into)."""
        core = self._core
        if core is None:
            return {}
        return {name: core.text.systems[s] for s, name in enumerate(core.system_names)}

    def add_span(
        self,
        *,
        start: int,
        end: int,
        severity: Severity | str,
        category: str = "",
        note: str = "",
        segment: int | None = None,
        system: int | None = None,
        side: Side = Side.TARGET,
    ) -> ErrorSpan | None:
        """Add a confirmed span to an output (default: the one being annotated), or with
        ``side`` SOURCE to its source (offsets into the source line)."""
        ws, core = self._workspace, self._core
        target = self.target()
        if ws is None or core is None:
            return None
        seg = segment if segment is not None else (None if target is None else target[0])
        sys_index = system if system is not None else self._system
        if seg is None:
            self.say(QCoreApplication.translate("AnnotationController", "Choose a row first."))
            return None
        try:
            line = self.text_of(seg, sys_index, side)
        except LookupError as exc:
            self.say(str(exc).capitalize() + ".")
            return None
        try:
            if category:
                category = ws.typology.canonical(category)
            span = ErrorSpan.create(
                system=ws.systems[sys_index],
                segment=seg,
                line=line,
                start=start,
                end=end,
                category=category,
                severity=severity,
                annotator=self._annotator,
                note=note,
                side=side,
            )
        except AnnotationError as exc:
            self.say(str(exc))
            return None
        return span if self.execute(AddSpan(span)) else None

    def _edit_span(self, span: ErrorSpan, label: str, **changes: Any) -> bool:
        return self.execute(UpdateSpan(span, span.edited(**changes), label=label))

    def categories(self) -> tuple[str, ...]:
        """The top-level categories, numbered 1.. by the keys."""
        return tuple(c.name for c in self.typology.categories)

    def pick_category(self, number: int) -> None:
        """Key ``number``: the number-th top-level category; again: its sub-categories in turn."""
        if self.mode is AnnotationMode.ESA:
            self.say(
                QCoreApplication.translate(
                    "AnnotationController", "ESA mode: errors have a severity only (m, M, C)."
                )
            )
            return
        top = self.typology.categories
        if not 1 <= number <= len(top):
            self.say(
                QCoreApplication.translate(
                    "AnnotationController",
                    "There is no category {number} (the typology has {count}).",
                ).format(number=number, count=len(top))
            )
            return
        node = top[number - 1]
        choices = [node.name] + [f"{node.name}{SEPARATOR}{c.name}" for c in node.children]
        step = 0
        span = self.span_under_cursor()
        current = span.category if span is not None else self._draft.category
        if self._cycle is not None and self._cycle[0] == number and current in choices:
            step = (choices.index(current) + 1) % len(choices)
        self._cycle = (number, step)
        self.set_category(choices[step])

    def set_category(self, path: str) -> None:
        """The category of the span under the cursor, else of the draft."""
        try:
            canonical = self.typology.canonical(path)
        except AnnotationError as exc:
            self.say(str(exc))
            return
        span = self.span_under_cursor()
        if span is not None:
            self._edit_span(
                span,
                QCoreApplication.translate("AnnotationController", "Change category"),
                category=canonical,
            )
            return
        if not self._start_draft():
            return
        self._draft.category = canonical
        self._draft_hint()

    def set_severity(self, severity: Severity) -> None:
        """The severity of the span under the cursor, else of the draft."""
        span = self.span_under_cursor()
        if span is not None:
            self._edit_span(
                span,
                QCoreApplication.translate("AnnotationController", "Change severity"),
                severity=severity,
            )
            return
        if not self._start_draft():
            return
        self._draft.severity = severity
        self._draft_hint()

    def set_note(self, note: str) -> None:
        span = self.span_under_cursor()
        if span is not None:
            if note != span.note:
                self._edit_span(
                    span,
                    QCoreApplication.translate("AnnotationController", "Change note"),
                    note=note,
                )
            return
        self._draft.note = note
        self.draft_changed.emit()

    def _start_draft(self) -> bool:
        """Anchor the draft: at the selection, or (nothing selected) at an omission point."""
        selected = self.selection()
        if selected is None:
            self.say(
                QCoreApplication.translate(
                    "AnnotationController",
                    "Show the row in the detail pane first (select a row, then press T).",
                )
            )
            return False
        if selected.start == selected.end:
            if selected.side is Side.SOURCE:
                self.say(
                    QCoreApplication.translate(
                        "AnnotationController",
                        "Select the source words of the error (an omission: the words the "
                        "output left out).",
                    )
                )
                return False
            self._draft.point = snap_point(selected.line, selected.start)
        else:
            self._draft.point = None
        return True

    def _draft_hint(self) -> None:
        draft = self._draft
        missing = []
        if draft.category is None and self.mode is AnnotationMode.MQM:
            missing.append(QCoreApplication.translate("AnnotationController", "a category (1–9)"))
        if draft.severity is None:
            missing.append(
                QCoreApplication.translate(
                    "AnnotationController", "a severity (m minor, M major, C critical)"
                )
            )
        if missing:
            self.say(
                QCoreApplication.translate(
                    "AnnotationController", "Draft: pick {what}, then press Enter."
                ).format(
                    what=QCoreApplication.translate("AnnotationController", " and ").join(missing)
                )
            )
        elif (
            draft.category is not None
            and self.typology.note_required(draft.category)
            and not draft.note.strip()
        ):
            self.say(
                QCoreApplication.translate(
                    "AnnotationController",
                    "{category} needs a note: press F2 and say what the error is.",
                ).format(category=draft.category)
            )
        else:
            self.say(
                QCoreApplication.translate("AnnotationController", "Press Enter to add the error.")
            )
        self.draft_changed.emit()

    def confirm(self) -> bool:
        """Enter: add the drafted error, or confirm the pre-annotated error under the cursor."""
        selected = self.selection()
        draft = self._draft
        span = self.span_under_cursor()
        drafting = not draft.empty
        if span is not None and not drafting:
            if span.status is Status.UNDECIDED:
                if self.set_status(span.id, Status.CONFIRMED):
                    self.flagged.discard(span.id)
                    return True
                return False
            self.say(
                QCoreApplication.translate(
                    "AnnotationController", "This error is already confirmed."
                )
            )
            return False
        if selected is None:
            self.say(
                QCoreApplication.translate(
                    "AnnotationController",
                    "Show the row in the detail pane first (select a row, then press T).",
                )
            )
            return False
        if not drafting:
            self.say(
                QCoreApplication.translate(
                    "AnnotationController",
                    "Select the words of an error (Shift+arrows or the mouse) and pick its "
                    "category and severity; press D when this output has no further errors.",
                )
            )
            return False
        if draft.severity is None:
            self._draft_hint()
            return False
        if draft.category is None and self.mode is AnnotationMode.MQM:
            self._draft_hint()
            return False
        if selected.start != selected.end:
            start, end = trim_spaces(selected.line, selected.start, selected.end)
            if start == end:
                self.say(
                    QCoreApplication.translate(
                        "AnnotationController",
                        "Only spaces are selected; select the words of the error.",
                    )
                )
                return False
        else:
            start = end = draft.point if draft.point is not None else selected.start
        added = self.add_span(
            start=start,
            end=end,
            severity=draft.severity,
            category=draft.category or "",
            note=draft.note,
            segment=selected.segment,
            system=selected.system,
            side=selected.side,
        )
        if added is None:
            return False
        self._reset_draft()
        self._collapse_selection(end)
        self.draft_changed.emit()
        return True

    def remove(self) -> bool:
        """Backspace: delete the error under the cursor (reject a pre-annotation)."""
        span = self.span_under_cursor()
        if span is None:
            if not self._draft.empty:
                self.cancel()
                return True
            self.say(
                QCoreApplication.translate("AnnotationController", "No error under the cursor.")
            )
            return False
        if span.status is Status.UNDECIDED:
            return self.set_status(span.id, Status.REJECTED)
        if self.execute(DeleteSpan(span)):
            self.flagged.discard(span.id)
            return True
        return False

    def delete_span(self, span_id: str) -> bool:
        ws = self._workspace
        span = None if ws is None else ws.get(span_id)
        if span is None:
            return False
        if self.execute(DeleteSpan(span)):
            self.flagged.discard(span_id)
            return True
        return False

    def set_status(self, span_id: str, status: Status) -> bool:
        """Confirm, reject or reopen a span; the annotator is recorded as its reviewer."""
        ws = self._workspace
        span = None if ws is None else ws.get(span_id)
        if span is None or span.status is status:
            return False
        label = (
            QCoreApplication.translate("AnnotationController", "Confirm error")
            if status is Status.CONFIRMED
            else QCoreApplication.translate("AnnotationController", "Reject error")
        )
        if status is Status.UNDECIDED:
            label = QCoreApplication.translate("AnnotationController", "Reopen error")
        after = reviewed(span, status, self._annotator)
        return self.execute(UpdateSpan(span, after, label=label))

    def cancel(self) -> None:
        """Escape: drop the draft and the selection."""
        self._reset_draft()
        selected = self.selection()
        if selected is not None:
            self._collapse_selection(selected.end)
        self.say("")
        self.draft_changed.emit()

    def _collapse_selection(self, at: int) -> None:
        self.selecting.collapse(at)

    def mark_done(self) -> bool:
        """D: the output is annotated (no further errors); in ESA mode its score is saved."""
        target = self.target()
        ws = self._workspace
        if target is None or ws is None:
            self.say(QCoreApplication.translate("AnnotationController", "Choose a row first."))
            return False
        segment, system = target
        name = ws.systems[system]
        existing = ws.score(name, segment)
        if ws.mode is AnnotationMode.ESA:
            return self.set_esa_score(self.esa_value())
        if existing is not None:
            self.say(
                QCoreApplication.translate(
                    "AnnotationController", "This output is already marked as annotated."
                )
            )
            return False
        score = SegmentScore(name, segment, self._annotator, None)
        if self.execute(
            SetSegmentScore(
                None,
                score,
                label=QCoreApplication.translate("AnnotationController", "Mark output done"),
            )
        ):
            self.say(
                QCoreApplication.translate(
                    "AnnotationController", "{name}, segment {segment}: done."
                ).format(name=name, segment=segment + 1)
            )
            return True
        return False

    def undo(self) -> None:
        self._travel(-1)

    def redo(self) -> None:
        self._travel(1)

    def _travel(self, direction: int) -> None:
        """Undo (``direction`` -1) or redo (+1) a step of the history; a large one a slice at
        a time (:meth:`_travel_in_steps`)."""
        ws = self._workspace
        if ws is None or self._still_stepping():
            return
        back = direction < 0
        if back:
            nothing = QCoreApplication.translate("AnnotationController", "Nothing to undo.")
            done = QCoreApplication.translate("AnnotationController", "Undone: {step}")
            cannot = QCoreApplication.translate("AnnotationController", "Cannot undo")
        else:
            nothing = QCoreApplication.translate("AnnotationController", "Nothing to redo.")
            done = QCoreApplication.translate("AnnotationController", "Redone: {step}")
            cannot = QCoreApplication.translate("AnnotationController", "Cannot redo")
        if not (ws.history.can_undo if back else ws.history.can_redo):
            self.say(nothing)
            return
        if not self.before_edit():
            return
        if self._travel_in_steps(ws, back, done):
            return
        try:
            command = ws.undo() if back else ws.redo()
        except AnnotationError as exc:
            self.host.report_error(cannot, str(exc))
            return
        self.history_changed.emit()
        self.say(nothing if command is None else done.format(step=command.label))

    def _reset_draft(self) -> None:
        self._draft = Draft()
        self._cycle = None

    def forget_draft(self) -> None:
        """Drop the draft, leaving the selection as it is (the side being selected changed)."""
        self._reset_draft()

    def _connect_selection_model(self) -> None:
        model = self.host.table_view.selectionModel()
        if model is self._connected_selection_model or model is None:
            return
        model.currentRowChanged.connect(self._on_current_row_changed)
        model.currentChanged.connect(self._on_current_cell_changed)
        self._connected_selection_model = model
