"""The annotation controller: error spans on the open comparison, and its session file.

One :class:`AnnotationController` lives with the main window. For every comparison it keeps an
:class:`~core.annotation.workspace.AnnotationWorkspace` (spans, segment scores, undo/redo, MQM
and ESA values) and, from the first edit on, a :class:`~core.session.store.SessionStore`: an
untitled session in the recovery folder until the user saves it under a name, so a crash loses
no edit the app reported. Every edit is one committed transaction. The comparison's settings,
baseline, selection and layout go to the file too, a moment after they change.

The controller holds the annotation state (the output being annotated, the draft error); the
widgets only show it. It reaches the window through a few public members (see
:class:`AnnotationHost`) and paints through two hooks: the table delegate's and the detail
pane's overlays. MQM penalties (and ESA scores) join the score table with
:meth:`ComparisonSession.set_column <core.session.comparison.ComparisonSession.set_column>`, so
the table, the summary, the filters and the significance tests see them like any score.
"""

from __future__ import annotations

import getpass
import json
import logging
import os
import threading
import unicodedata
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import Future
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Protocol

import numpy as np
from PySide6.QtCore import (
    QEvent,
    QEventLoop,
    QModelIndex,
    QObject,
    QSettings,
    Qt,
    QTimer,
    Signal,
    Slot,
)
from PySide6.QtGui import QAction, QKeySequence, QPainter, QTextCursor, QTextDocument
from PySide6.QtWidgets import QFileDialog, QMenu, QMessageBox, QWidget

from matchlight.core.analysis.selection import RowSet, Selection, SelectionError
from matchlight.core.annotation.agreement import AgreementReport, agreement
from matchlight.core.annotation.anchoring import AnchorState, reanchor_all
from matchlight.core.annotation.history import (
    AddSpan,
    Batch,
    DeleteSpan,
    SetSegmentScore,
    UpdateSpan,
)
from matchlight.core.annotation.interchange import (
    ImportResult,
    export_csv,
    export_mqm_tsv,
    export_wmt24_esa,
    export_xcomet,
    import_mqm_tsv,
    import_wmt24_esa,
    import_xcomet,
    write_export,
)
from matchlight.core.annotation.model import (
    AnnotationError,
    ErrorSpan,
    SegmentScore,
    Severity,
    Status,
)
from matchlight.core.annotation.mqm import MQMWeights
from matchlight.core.annotation.offsets import Utf16Index, utf16_length
from matchlight.core.annotation.typology import (
    DEFAULT_TYPOLOGY,
    SEPARATOR,
    AnnotationMode,
    Typology,
)
from matchlight.core.annotation.workspace import AnnotationQuery, AnnotationWorkspace, Key
from matchlight.core.io.inputs import InputError
from matchlight.core.metrics.base import ScoreColumn
from matchlight.core.scoring.config import ScoringConfig
from matchlight.core.session.comparison import ComparisonSession
from matchlight.core.session.imported import LabelImport, ScoreImport
from matchlight.core.session.locations import is_in_recovery_dir
from matchlight.core.session.recovery import (
    RecoverableSession,
    create_untitled,
    discard_recoverable,
    list_recoverable,
)
from matchlight.core.session.store import (
    SUFFIX,
    ReanchorReport,
    SessionError,
    SessionInput,
    SessionState,
    SessionStore,
)
from matchlight.gui.annotate.keys import SHORTCUTS
from matchlight.gui.annotate.painting import paint_spans
from matchlight.gui.workers.loader import call_in_background

log = logging.getLogger(__name__)

__all__ = [
    "ESA_COLUMN",
    "FILTER_LABEL",
    "MQM_COLUMN",
    "RECENT_SESSIONS_KEY",
    "AnnotationController",
    "AnnotationHost",
    "Draft",
    "TextSelection",
]

#: The table column of MQM penalties (lower is better; NaN: not annotated).
MQM_COLUMN = ScoreColumn(
    key="mqm",
    label="MQM penalty",
    short="MQM",
    metric="mqm",
    description="error penalty from the annotations (weighted errors; lower is better)",
    corpus="mean",
    headline=True,
    better="lower",
    low=0.0,
    high=None,
    decimals=2,
)
#: The table column of ESA segment scores (0–100, higher is better).
ESA_COLUMN = ScoreColumn(
    key="esa",
    label="ESA score",
    short="ESA",
    metric="esa",
    description="Error Span Annotation score of the output (0–100)",
    corpus="mean",
    headline=True,
)
#: Label prefix of the row sets the annotation filter puts into the selection.
FILTER_LABEL = "annotations: "
#: The source of the row set the annotation filters put in the selection (beside a chart's).
FILTER_SOURCE = "annotations"
RECENT_SESSIONS_KEY = "recent/sessions"
RECENT_LIMIT = 10
ANNOTATOR_KEY = "annotation/annotator"
#: How long after the comparison's state changed it is written to the session (ms).
STATE_DELAY_MS = 400
#: Lines longer than this may be cut in a table cell; shorter ones never are.
_SHORT_LINE = 1000

#: ``ask_path(parent, caption, suggested, file_filter, saving) -> path or None``.
PathProvider = Callable[[QWidget, str, str, str, bool], "str | None"]
#: ``notice(title, message)``: tells the user something that is not an error.
NoticeSink = Callable[[str, str], None]


class AnnotationHost(Protocol):
    """What the controller uses of the main window (all public members of MainWindow)."""

    comparison_opened: Any
    detail_pane: Any
    table_view: Any
    filter_bar: Any
    summary: Any
    baseline_combo: Any
    highlight_actions: dict[str, QAction]
    settings: QSettings

    @property
    def session(self) -> Any: ...

    @property
    def model(self) -> Any: ...

    @property
    def proxy(self) -> Any: ...

    @property
    def delegate(self) -> Any: ...

    @property
    def comparison(self) -> Any: ...

    @property
    def specs(self) -> Any: ...

    @property
    def config(self) -> ScoringConfig: ...

    @property
    def highlight_mode(self) -> str: ...

    def open_specs(self, specs: Any) -> bool: ...

    def apply_config(self, config: ScoringConfig) -> None: ...

    def report_error(self, title: str, message: str) -> None: ...

    def current_segment(self) -> int | None: ...

    def statusBar(self) -> Any: ...

    def menuBar(self) -> Any: ...

    def installEventFilter(self, watched: QObject) -> None: ...


class SpecsFactory(Protocol):
    """Rebuilds the window's comparison specs from their JSON (ComparisonSpecs.from_json)."""

    def from_json(self, data: Any) -> Any: ...


@dataclass
class Draft:
    """The error being put together: category and severity picked by key, a note."""

    category: str | None = None
    severity: Severity | None = None
    note: str = ""
    #: An omission drafted at this point (code points), when nothing was selected.
    point: int | None = None

    @property
    def empty(self) -> bool:
        return self.category is None and self.severity is None and not self.note


@dataclass(frozen=True, slots=True)
class TextSelection:
    """What is selected in the output being annotated, in code points of the whole line."""

    segment: int
    system: int
    start: int
    end: int
    line: str

    @property
    def text(self) -> str:
        return self.line[self.start : self.end]


@dataclass
class _Pending:
    """A session being opened: its store and what to restore once the comparison is shown."""

    store: SessionStore
    state: SessionState
    specs: Any
    changed: list[str] = field(default_factory=list)
    #: The file to list under Recent sessions once it is open (None: a read-only copy).
    remember: Path | None = None
    #: The spans and scores, being read in a worker thread (None: read them when needed).
    records: Future[tuple[list[ErrorSpan], list[SegmentScore]]] | None = None
    #: The imported score and label columns, put back before the selection.
    imports: list[ScoreImport | LabelImport] = field(default_factory=list)
    #: Imported files that changed or went missing since (the stored values are used).
    imports_changed: list[str] = field(default_factory=list)


def _default_ask_path(
    parent: QWidget, caption: str, suggested: str, file_filter: str, saving: bool
) -> str | None:
    if saving:
        path, _ = QFileDialog.getSaveFileName(parent, caption, suggested, file_filter)
    else:
        path, _ = QFileDialog.getOpenFileName(parent, caption, suggested, file_filter)
    return path or None


def _is_word(ch: str) -> bool:
    return ch.isalnum() or unicodedata.category(ch) == "Mn"


def snap_point(line: str, point: int) -> int:
    """An omission point moved out of the middle of a word to the nearer word edge (in a
    space-separated line; elsewhere every position is between two tokens)."""
    if " " not in line or not 0 < point < len(line):
        return point
    if not (_is_word(line[point - 1]) and _is_word(line[point])):
        return point
    left = point
    while left > 0 and _is_word(line[left - 1]):
        left -= 1
    right = point
    while right < len(line) and _is_word(line[right]):
        right += 1
    return left if point - left <= right - point else right


def _trim(line: str, start: int, end: int) -> tuple[int, int]:
    while start < end and line[start].isspace():
        start += 1
    while end > start and line[end - 1].isspace():
        end -= 1
    return start, end


class AnnotationController(QObject):
    """Error annotation for the main window: the edits, the keys, the session file.

    Signals:
        annotations_changed(): spans or segment scores changed (an edit, undo, open, import).
        target_changed(): another output is being annotated (row or system).
        draft_changed(): the draft error, or the selection in the output, changed.
        session_changed(): a session file was attached, saved elsewhere, or closed.
        message_changed(str): a hint or problem for the user, about the last key or edit.
    """

    annotations_changed = Signal()
    target_changed = Signal()
    draft_changed = Signal()
    session_changed = Signal()
    message_changed = Signal(str)

    def __init__(
        self,
        host: AnnotationHost,
        *,
        specs_type: SpecsFactory,
        ask_path: PathProvider | None = None,
        notice_sink: NoticeSink | None = None,
    ) -> None:
        super().__init__(host)  # type: ignore[arg-type]
        self.host = host
        self._specs_type = specs_type
        self.ask_path: PathProvider = ask_path or _default_ask_path
        self.notice_sink: NoticeSink = notice_sink or self._show_notice
        self._workspace: AnnotationWorkspace | None = None
        self._store: SessionStore | None = None
        self._read_only = False
        self._core: ComparisonSession | None = None
        self._unsubscribe: list[Callable[[], None]] = []
        self._pending: _Pending | None = None
        self._system = 0
        self._draft = Draft()
        self._cycle: tuple[int, int] | None = None  # (category number, step) of the last key
        self._message = ""
        self.flagged: set[str] = set()
        self._shown_columns: set[str] = set()
        self._filter: AnnotationQuery | None = None
        self._saved_state: str | None = None
        # The imported columns written to ``_imports_store``, by (kind, key).
        self._saved_imports: dict[tuple[str, str], ScoreImport | LabelImport] = {}
        self._imports_store: SessionStore | None = None
        self._restoring = False
        self._connected_selection_model: Any = None
        #: The annotation panel and the menus' owner, once installed (gui.annotate.install).
        self.panel: Any = None
        self.ui: Any = None
        # Actions by shortcut name, and the category actions (1..9).
        self.actions: dict[str, QAction] = {}
        self.category_actions: list[QAction] = []
        self.esa_action: QAction | None = None

        self._state_timer = QTimer(self)
        self._state_timer.setSingleShot(True)
        self._state_timer.setInterval(STATE_DELAY_MS)
        self._state_timer.timeout.connect(self._on_state_timeout)
        self._summary_timer = QTimer(self)
        self._summary_timer.setSingleShot(True)
        self._summary_timer.setInterval(250)
        self._summary_timer.timeout.connect(self._on_summary_timeout)

        self._build_actions()
        host.comparison_opened.connect(self._on_comparison_opened)
        # Opening is asynchronous in the window: a failed or cancelled read drops the session.
        open_failed = getattr(host, "open_failed", None)
        if open_failed is not None:
            open_failed.connect(self._on_open_failed)
        reading_changed = getattr(host, "reading_changed", None)
        if reading_changed is not None:
            reading_changed.connect(self._on_reading_changed)
        pane = host.detail_pane
        pane.hypothesis_cursor_changed.connect(self._on_hypothesis_cursor_changed)
        pane.set_hypothesis_overlay(self._paint_view)
        host.installEventFilter(self)
        self._annotator = self._initial_annotator()

    # -- reading ----------------------------------------------------------------------------

    @property
    def workspace(self) -> AnnotationWorkspace | None:
        return self._workspace

    @property
    def store(self) -> SessionStore | None:
        return self._store

    @property
    def session_path(self) -> Path | None:
        return None if self._store is None else self._store.path

    @property
    def read_only(self) -> bool:
        return self._read_only

    def is_untitled(self) -> bool:
        """No file name yet: nothing saved, or autosaved in the recovery folder only."""
        return self._store is None or is_in_recovery_dir(self._store.path)

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

    @property
    def filter_query(self) -> AnnotationQuery | None:
        return self._filter

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

    def target_spans(self) -> list[ErrorSpan]:
        """The spans of the output being annotated, in reading order."""
        target = self.target()
        if target is None or self._workspace is None:
            return []
        segment, system = target
        return self._workspace.spans(self.system_names[system], segment)

    def selection(self) -> TextSelection | None:
        """The selection (or the cursor, as an empty selection) in the output being annotated,
        if the detail pane shows that output's current text."""
        target = self.target()
        if target is None:
            return None
        segment, system = target
        view = self._view(system, segment)
        if view is None:
            return None
        shown = view.plain_text()
        line = self.line(segment, system)
        cursor = view.textCursor()
        index = Utf16Index(shown)
        try:
            start = index.to_codepoint(cursor.selectionStart())
            end = index.to_codepoint(cursor.selectionEnd())
        except ValueError:
            return None
        return TextSelection(segment, system, start, end, line)

    def span_under_cursor(self) -> ErrorSpan | None:
        """The span the keys act on: the one selected exactly, else the innermost one around
        the cursor (rejected spans are left alone)."""
        selected = self.selection()
        if selected is None:
            return None
        spans = [s for s in self.target_spans() if s.status is not Status.REJECTED]
        if selected.start != selected.end:
            exact = [s for s in spans if (s.start, s.end) == (selected.start, selected.end)]
            return exact[0] if exact else None
        at = selected.start
        around = [s for s in spans if s.start <= at <= s.end]
        if not around:
            return None
        return min(around, key=lambda s: (s.end - s.start, s.start))

    def _view(self, system: int, segment: int) -> Any:
        """The pane's view of ``system``'s output when it shows ``segment``'s current text."""
        pane = self.host.detail_pane
        detail = pane.detail()
        if detail is None or detail.segment != segment:
            return None
        try:
            view = pane.hypothesis_view(system)
        except IndexError:
            return None
        shown = view.plain_text()
        if not self.line(segment, system).startswith(shown):
            return None
        return view

    # -- messages ---------------------------------------------------------------------------

    def _say(self, text: str) -> None:
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

    # -- actions ----------------------------------------------------------------------------

    def _build_actions(self) -> None:
        slots: dict[str, Callable[[], object]] = {
            "focus_text": self.focus_text,
            "minor": lambda: self.set_severity(Severity.MINOR),
            "major": lambda: self.set_severity(Severity.MAJOR),
            "critical": lambda: self.set_severity(Severity.CRITICAL),
            "confirm": self._on_confirm_key,
            "remove": self._on_remove_key,
            "cancel": self.cancel,
            "note": self._on_note_key,
            "done": self.mark_done,
            "score": self._on_score_key,
            "next_span": lambda: self.select_span(1),
            "previous_span": lambda: self.select_span(-1),
            "next_segment": lambda: self.move_segment(1),
            "previous_segment": lambda: self.move_segment(-1),
            "next_system": lambda: self.move_system(1),
            "previous_system": lambda: self.move_system(-1),
            "next_unannotated": lambda: self.next_unannotated(1),
            "previous_unannotated": lambda: self.next_unannotated(-1),
            "undo": self.undo,
            "redo": self.redo,
        }
        parent = self.host if isinstance(self.host, QObject) else self
        for shortcut in SHORTCUTS:
            action = QAction(shortcut.text, parent)
            action.setShortcuts([QKeySequence(k) for k in shortcut.keys])
            action.setToolTip(shortcut.help)
            action.setStatusTip(shortcut.help)
            action.triggered.connect(slots[shortcut.name])
            self.actions[shortcut.name] = action
        global_names = ("undo", "redo")
        for name in global_names:
            self.actions[name].setShortcutContext(Qt.ShortcutContext.WindowShortcut)
            if isinstance(self.host, QWidget):
                self.host.addAction(self.actions[name])
        for number in range(1, 10):
            action = QAction(f"Category {number}", parent)
            action.setShortcut(QKeySequence(str(number)))
            action.setData(number)
            action.triggered.connect(self._on_category_key)
            self.category_actions.append(action)
        self.esa_action = QAction("&ESA mode (severities and a 0–100 score)", parent)
        self.esa_action.setCheckable(True)
        self.esa_action.toggled.connect(self._on_esa_toggled)

    def key_actions(self) -> list[QAction]:
        """The single-key actions, for the widgets in whose focus they act."""
        return [
            a for n, a in self.actions.items() if n not in ("undo", "redo")
        ] + self.category_actions

    def attach_keys(self, widget: QWidget) -> None:
        """Make the annotation keys work while ``widget`` (or a child) has the focus."""
        for action in self.key_actions():
            action.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
            widget.addAction(action)

    def add_session_actions(self, menu: QMenu, *, before: QAction | None = None) -> None:
        """File menu entries: Open session, Recent sessions, Save session as (before
        ``before``, else at the end)."""
        parent = self.host if isinstance(self.host, QObject) else self
        self.open_session_action = QAction("Open &session…", parent)
        self.open_session_action.setShortcut(QKeySequence("Ctrl+Shift+O"))
        self.open_session_action.setStatusTip("Open a Matchlight session (.matchlight)")
        self.open_session_action.triggered.connect(self._on_open_session_triggered)
        self.save_session_action = QAction("Save session &as…", parent)
        self.save_session_action.setShortcut(QKeySequence("Ctrl+Shift+S"))
        self.save_session_action.setStatusTip(
            "Save the annotations, settings and selection under a name of your choosing"
        )
        self.save_session_action.triggered.connect(self._on_save_session_triggered)
        self.recent_sessions_menu = QMenu("Recent sessions", menu)
        self.recent_sessions_menu.triggered.connect(self._on_recent_session_triggered)
        if before is not None and before in menu.actions():
            menu.insertAction(before, self.open_session_action)
            menu.insertMenu(before, self.recent_sessions_menu)
            menu.insertAction(before, self.save_session_action)
            menu.insertSeparator(before)
        else:
            menu.addAction(self.open_session_action)
            menu.addMenu(self.recent_sessions_menu)
            menu.addAction(self.save_session_action)
        self._rebuild_recent()
        self._update_actions()

    def build_menu(self, menu: QMenu) -> None:
        """The Annotate menu: every annotation command with its key."""
        menu.setToolTipsVisible(True)
        order = (
            ("focus_text",),
            ("minor", "major", "critical"),
            ("confirm", "remove", "note", "cancel"),
            ("next_span", "previous_span"),
            ("done", "score"),
            ("next_segment", "previous_segment", "next_system", "previous_system"),
            ("next_unannotated", "previous_unannotated"),
            ("undo", "redo"),
        )
        for group in order:
            for name in group:
                menu.addAction(self.actions[name])
            menu.addSeparator()
        assert self.esa_action is not None
        menu.addAction(self.esa_action)
        self.annotate_menu = menu

    def _update_actions(self) -> None:
        ws = self._workspace
        for name in ("undo", "redo"):
            action = self.actions[name]
            history = None if ws is None else ws.history
            label = None
            if history is not None:
                label = history.undo_label() if name == "undo" else history.redo_label()
            base = "&Undo" if name == "undo" else "&Redo"
            action.setText(f"{base} {label.lower()}" if label else base)
            action.setEnabled(label is not None and not self._read_only)
        if hasattr(self, "save_session_action"):
            self.save_session_action.setEnabled(self._core is not None)
        if self.esa_action is not None:
            self.esa_action.blockSignals(True)
            self.esa_action.setChecked(self.mode is AnnotationMode.ESA)
            self.esa_action.setEnabled(self._core is not None and not self._read_only)
            self.esa_action.blockSignals(False)

    # -- comparison lifecycle ---------------------------------------------------------------

    @Slot()
    def _on_comparison_opened(self) -> None:
        host = self.host
        session_model = host.session
        if session_model is None:
            return
        pending, self._pending = self._pending, None
        if pending is not None and self.host.specs != pending.specs:
            pending.store.close()  # another comparison was opened meanwhile
            pending = None
        self._detach()
        core: ComparisonSession = session_model.session
        self._core = core
        self._system = 0
        self._draft = Draft()
        self.flagged = set()
        self._shown_columns = set()
        self._filter = None
        self._saved_state = None
        self._saved_imports, self._imports_store = {}, None
        systems = core.system_names
        if pending is None:
            self._workspace = AnnotationWorkspace(
                systems=systems, n_segments=core.n_segments, annotator=self._annotator
            )
            self._store = None
            self._read_only = False
        else:
            self._attach_pending(pending, core)
        assert self._workspace is not None
        self._unsubscribe.append(self._workspace.subscribe(self._on_workspace_changed))
        self._unsubscribe.append(core.subscribe(self._on_session_event))
        delegate = host.delegate
        if delegate is not None:
            delegate.set_overlay(self._paint_cell)
        self._connect_selection_model()
        if pending is not None:
            self._restore(pending)
            self._remember(pending.remember)
        self._update_columns()
        self._update_actions()
        self.session_changed.emit()
        self.annotations_changed.emit()
        self.target_changed.emit()
        self.draft_changed.emit()

    def _attach_pending(self, pending: _Pending, core: ComparisonSession) -> None:
        store, state = pending.store, pending.state
        try:
            spans, scores = self._records_of(pending)
        except SessionError as exc:
            self.host.report_error("Cannot read the annotations", str(exc))
            spans, scores = [], []
        report: ReanchorReport | None = None
        if pending.changed:
            lines = {name: core.text.systems[s] for s, name in enumerate(core.system_names)}
            spans, report = self._reanchor(store, spans, lines)
        self._store = store
        self._read_only = store.read_only
        self._annotator = state.annotator or self._annotator
        self._workspace = AnnotationWorkspace(
            systems=core.system_names,
            n_segments=core.n_segments,
            spans=spans,
            scores=scores,
            mode=state.mode,
            typology=state.typology,
            weights=state.weights,
            annotator=self._annotator,
            sink=None if store.read_only else store,
        )
        if report is not None:
            self.flagged = {s.id for s in report.flagged}
        self._report_reanchoring(pending, report)

    def _records_of(self, pending: _Pending) -> tuple[list[ErrorSpan], list[SegmentScore]]:
        """The session's spans and scores: read in a worker thread while the files were
        read (see :meth:`open_session`), else now."""
        future = pending.records
        if future is None:
            return pending.store.spans(), pending.store.segment_scores()
        if not future.done():
            loop = QEventLoop()
            timer = QTimer()
            timer.setInterval(10)
            timer.timeout.connect(lambda: loop.quit() if future.done() else None)
            timer.start()
            loop.exec(QEventLoop.ProcessEventsFlag.ExcludeUserInputEvents)
            timer.stop()
        return future.result()

    @staticmethod
    def _reanchor(
        store: SessionStore, spans: list[ErrorSpan], lines: Mapping[str, Sequence[str]]
    ) -> tuple[list[ErrorSpan], ReanchorReport]:
        """Where the spans are on the changed lines; the moved ones are written back."""
        results = reanchor_all(spans, lines)
        moved = tuple(r.span for r in results if r.state is AnchorState.REATTACHED)
        flagged = tuple(r.span for r in results if r.state is AnchorState.FLAGGED)
        kept = sum(1 for r in results if r.state is AnchorState.KEPT)
        if moved and not store.read_only:
            with store.batch():
                for span in moved:
                    store.update_span(span)
        return [r.span for r in results], ReanchorReport(kept, moved, flagged)

    def _report_reanchoring(self, pending: _Pending, report: ReanchorReport | None) -> None:
        notes: list[str] = []
        if pending.changed:
            notes.append(
                "These input files changed since the session was saved: "
                + "; ".join(pending.changed)
                + "."
            )
        if pending.imports_changed:
            notes.append(
                "These imported files changed since the session was saved; the values saved "
                "in the session are used: " + "; ".join(pending.imports_changed) + "."
            )
        if report is not None and (report.reattached or report.flagged or pending.changed):
            notes.append(
                f"Of the {report.kept + len(report.reattached) + len(report.flagged)} errors, "
                f"{report.kept} are where they were, {len(report.reattached)} were re-attached "
                f"where their text moved, and {len(report.flagged)} could not be found and are "
                "flagged (listed in the Annotation panel; fix or delete them)."
            )
        problems = getattr(pending.store, "problems", [])
        if problems:
            notes.append("The file is damaged; what could be read is shown: " + "; ".join(problems))
        if pending.store.read_only:
            notes.append(
                "This is a read-only copy: use File ▸ Save session as… to keep working on it."
            )
        if notes:
            self.notice_sink("Session opened", "\n\n".join(notes))

    def _detach(self) -> None:
        """Let go of the previous comparison: save its state, close its session file."""
        if self._state_timer.isActive():
            self._state_timer.stop()
            self._save_state()
        for unsubscribe in self._unsubscribe:
            unsubscribe()
        self._unsubscribe = []
        self._release_store()
        self._workspace = None
        self._core = None

    def _release_store(self) -> None:
        """Close the session file; an untitled one with nothing in it (every edit undone) is
        deleted rather than offered for recovery next time."""
        store, ws = self._store, self._workspace
        self._store = None
        if store is None:
            return
        empty = ws is not None and len(ws) == 0 and not ws.scores()
        untitled = not store.read_only and is_in_recovery_dir(store.path)
        store.close()
        if empty and untitled:
            self.discard(store.path)

    def _connect_selection_model(self) -> None:
        model = self.host.table_view.selectionModel()
        if model is self._connected_selection_model or model is None:
            return
        model.currentRowChanged.connect(self._on_current_row_changed)
        model.currentChanged.connect(self._on_current_cell_changed)
        self._connected_selection_model = model

    @Slot(QModelIndex, QModelIndex)
    def _on_current_cell_changed(self, current: QModelIndex, _previous: QModelIndex) -> None:
        """A click on (or a move to) a system's output cell annotates that system."""
        model = self.host.model
        if not current.isValid() or model is None or self._core is None:
            return
        try:
            info = model.column_info(current.column())
        except IndexError:
            return
        if info.kind == "hypothesis" and info.system is not None and info.system != self._system:
            self._set_system(info.system)

    @Slot(QModelIndex, QModelIndex)
    def _on_current_row_changed(self, current: QModelIndex, _previous: QModelIndex) -> None:
        if not current.isValid():
            return
        self._reset_draft()
        self.target_changed.emit()
        self.draft_changed.emit()
        if self._core is not None and not self._restoring:
            segment = self.host.current_segment()
            if segment is not None and self._core.layout.get("current_segment") != segment:
                self._core.set_layout(current_segment=segment)

    @Slot(int)
    def _on_hypothesis_cursor_changed(self, system: int) -> None:
        if self._core is None:
            return
        if system != self._system and 0 <= system < len(self.system_names):
            try:
                view = self.host.detail_pane.hypothesis_view(system)
            except IndexError:
                return
            if not view.hasFocus():
                return  # a new row's text was put in; only the user's cursor picks a system
            self._set_system(system)
        self.draft_changed.emit()

    def _set_system(self, system: int) -> None:
        self._system = system
        self._reset_draft()
        if self._core is not None and not self._restoring:
            self._core.set_layout(annotate_system=self.system_names[system])
        self.target_changed.emit()
        self.draft_changed.emit()

    def _reset_draft(self) -> None:
        self._draft = Draft()
        self._cycle = None

    # -- painting ---------------------------------------------------------------------------

    def _paint_cell(
        self, painter: QPainter, doc: QTextDocument, segment: int, system: int, dark: bool
    ) -> None:
        ws, core = self._workspace, self._core
        if ws is None or core is None or not 0 <= system < len(ws.systems):
            return
        spans = ws.spans(ws.systems[system], segment)
        if not spans:
            return
        line = core.text.systems[system][segment]
        shown: int | None = None
        if len(line) > _SHORT_LINE:
            units = doc.characterCount() - 1
            if units < utf16_length(line):
                try:
                    shown = Utf16Index(line).to_codepoint(units)
                except ValueError:
                    return
        paint_spans(painter, doc, line, spans, dark, shown=shown)

    def _paint_view(self, painter: QPainter, view: Any, segment: int, system: int) -> None:
        ws, core = self._workspace, self._core
        if ws is None or core is None or not 0 <= system < len(ws.systems):
            return
        if segment >= core.n_segments:
            return
        spans = ws.spans(ws.systems[system], segment)
        if not spans:
            return
        line = core.text.systems[system][segment]
        shown = view.plain_text()
        if not line.startswith(shown):
            return
        paint_spans(
            painter, view.document(), line, spans, self.host.detail_pane.is_dark(), shown=len(shown)
        )

    def _repaint(self) -> None:
        self.host.table_view.viewport().update()
        self.host.detail_pane.update_hypothesis_views()

    # -- editing ----------------------------------------------------------------------------

    def _ensure_store(self) -> bool:
        """Create the untitled session (in the recovery folder) before the first edit."""
        if self._read_only:
            self._say("This is a read-only copy of a session: use Save session as… to edit it.")
            return False
        if self._store is not None:
            return True
        ws, core = self._workspace, self._core
        if ws is None or core is None:
            return False
        try:
            inputs = call_in_background(self._session_inputs, name="matchlight-hash")
            payload = self._state_payload()
            store = create_untitled(
                inputs=inputs,
                settings=payload["settings"],
                baseline=payload["baseline"],
                selection=payload["selection"],
                layout=payload["layout"],
                mode=ws.mode,
                typology=ws.typology,
                weights=ws.weights,
                annotator=self._annotator,
            )
            if len(ws) or ws.scores():
                store.add_many(ws.spans(), ws.scores())
        except (SessionError, OSError) as exc:
            self.host.report_error(
                "Cannot keep the annotations",
                f"{exc}\n\nThe annotation was not made: Matchlight saves every edit at once.",
            )
            return False
        self._store = store
        self._saved_state = json.dumps(payload, sort_keys=True)
        ws.set_sink(store)
        self.session_changed.emit()
        return True

    def _session_inputs(self) -> list[SessionInput]:
        core = self._core
        comparison = self.host.comparison
        if core is None or comparison is None:
            raise SessionError("no comparison is open")
        inputs: list[SessionInput] = []
        if comparison.source is not None:
            inputs.append(
                SessionInput.from_file(comparison.source.path, role="source", name="source")
            )
        seen: set[str] = set()
        for r, column in enumerate(comparison.references):
            name = core.reference_names[r] if r < len(core.reference_names) else f"Ref {r + 1}"
            unique, k = name, 2
            while unique in seen:
                unique, k = f"{name} ({k})", k + 1
            seen.add(unique)
            inputs.append(SessionInput.from_file(column.path, role="reference", name=unique))
        for column in comparison.systems:
            inputs.append(SessionInput.from_file(column.path, role="system", name=column.name))
        return inputs

    def _execute(self, command: Any) -> bool:
        ws = self._workspace
        if ws is None:
            return False
        try:
            ws.check(command)
        except AnnotationError as exc:
            self._say(str(exc))
            return False
        if not self._ensure_store():
            return False
        try:
            ws.execute(command)
        except AnnotationError as exc:
            self._say(str(exc))
            return False
        except SessionError as exc:
            self.host.report_error("Cannot save the annotation", str(exc))
            return False
        self._update_actions()
        self._say(command.label)
        return True

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
    ) -> ErrorSpan | None:
        """Add a confirmed span to an output (default: the one being annotated)."""
        ws, core = self._workspace, self._core
        target = self.target()
        if ws is None or core is None:
            return None
        seg = segment if segment is not None else (None if target is None else target[0])
        sys_index = system if system is not None else self._system
        if seg is None:
            self._say("Choose a row first.")
            return None
        line = core.text.systems[sys_index][seg]
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
            )
        except AnnotationError as exc:
            self._say(str(exc))
            return None
        return span if self._execute(AddSpan(span)) else None

    def _edit_span(self, span: ErrorSpan, label: str, **changes: Any) -> bool:
        return self._execute(UpdateSpan(span, span.edited(**changes), label=label))

    @Slot()
    def _on_category_key(self) -> None:
        action = self.sender()
        if isinstance(action, QAction):
            self.pick_category(int(action.data()))

    def categories(self) -> tuple[str, ...]:
        """The top-level categories, numbered 1.. by the keys."""
        return tuple(c.name for c in self.typology.categories)

    def pick_category(self, number: int) -> None:
        """Key ``number``: the number-th top-level category; again: its sub-categories in turn."""
        if self.mode is AnnotationMode.ESA:
            self._say("ESA mode: errors have a severity only (m, M, C).")
            return
        top = self.typology.categories
        if not 1 <= number <= len(top):
            self._say(f"There is no category {number} (the typology has {len(top)}).")
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
            self._say(str(exc))
            return
        span = self.span_under_cursor()
        if span is not None:
            self._edit_span(span, "Change category", category=canonical)
            return
        if not self._start_draft():
            return
        self._draft.category = canonical
        self._draft_hint()

    def set_severity(self, severity: Severity) -> None:
        """The severity of the span under the cursor, else of the draft."""
        span = self.span_under_cursor()
        if span is not None:
            self._edit_span(span, "Change severity", severity=severity)
            return
        if not self._start_draft():
            return
        self._draft.severity = severity
        self._draft_hint()

    def set_note(self, note: str) -> None:
        span = self.span_under_cursor()
        if span is not None:
            if note != span.note:
                self._edit_span(span, "Change note", note=note)
            return
        self._draft.note = note
        self.draft_changed.emit()

    def _start_draft(self) -> bool:
        """Anchor the draft: at the selection, or (nothing selected) at an omission point."""
        selected = self.selection()
        if selected is None:
            self._say("Show the row in the detail pane first (select a row, then press T).")
            return False
        if selected.start == selected.end:
            self._draft.point = snap_point(selected.line, selected.start)
        else:
            self._draft.point = None
        return True

    def _draft_hint(self) -> None:
        draft = self._draft
        missing = []
        if draft.category is None and self.mode is AnnotationMode.MQM:
            missing.append("a category (1–9)")
        if draft.severity is None:
            missing.append("a severity (m minor, M major, C critical)")
        if missing:
            self._say("Draft: pick " + " and ".join(missing) + ", then press Enter.")
        elif (
            draft.category is not None
            and self.typology.note_required(draft.category)
            and not draft.note.strip()
        ):
            self._say(f"{draft.category} needs a note: press F2 and say what the error is.")
        else:
            self._say("Press Enter to add the error.")
        self.draft_changed.emit()

    def confirm(self) -> bool:
        """Enter: add the drafted error, or confirm the pre-annotated error under the cursor."""
        selected = self.selection()
        draft = self._draft
        span = self.span_under_cursor()
        drafting = not draft.empty
        if span is not None and not drafting:
            if span.status is Status.UNDECIDED:
                if self._edit_span(span, "Confirm error", status=Status.CONFIRMED):
                    self.flagged.discard(span.id)
                    return True
                return False
            self._say("This error is already confirmed.")
            return False
        if selected is None:
            self._say("Show the row in the detail pane first (select a row, then press T).")
            return False
        if not drafting:
            self._say(
                "Select the words of an error (Shift+arrows or the mouse) and pick its "
                "category and severity; press D when this output has no further errors."
            )
            return False
        if draft.severity is None:
            self._draft_hint()
            return False
        if draft.category is None and self.mode is AnnotationMode.MQM:
            self._draft_hint()
            return False
        if selected.start != selected.end:
            start, end = _trim(selected.line, selected.start, selected.end)
            if start == end:
                self._say("Only spaces are selected; select the words of the error.")
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
            self._say("No error under the cursor.")
            return False
        if span.status is Status.UNDECIDED:
            return self._edit_span(span, "Reject error", status=Status.REJECTED)
        if self._execute(DeleteSpan(span)):
            self.flagged.discard(span.id)
            return True
        return False

    def delete_span(self, span_id: str) -> bool:
        ws = self._workspace
        span = None if ws is None else ws.get(span_id)
        if span is None:
            return False
        if self._execute(DeleteSpan(span)):
            self.flagged.discard(span_id)
            return True
        return False

    def set_status(self, span_id: str, status: Status) -> bool:
        ws = self._workspace
        span = None if ws is None else ws.get(span_id)
        if span is None or span.status is status:
            return False
        label = "Confirm error" if status is Status.CONFIRMED else "Reject error"
        if status is Status.UNDECIDED:
            label = "Reopen error"
        return self._edit_span(span, label, status=status)

    def cancel(self) -> None:
        """Escape: drop the draft and the selection."""
        self._reset_draft()
        selected = self.selection()
        if selected is not None:
            self._collapse_selection(selected.end)
        self._say("")
        self.draft_changed.emit()

    def _collapse_selection(self, at: int) -> None:
        target = self.target()
        if target is None:
            return
        view = self._view(target[1], target[0])
        if view is None:
            return
        shown = view.plain_text()
        cursor = view.textCursor()
        cursor.setPosition(Utf16Index(shown).to_utf16(min(at, len(shown))))
        view.setTextCursor(cursor)

    def mark_done(self) -> bool:
        """D: the output is annotated (no further errors); in ESA mode its score is saved."""
        target = self.target()
        ws = self._workspace
        if target is None or ws is None:
            self._say("Choose a row first.")
            return False
        segment, system = target
        name = ws.systems[system]
        existing = ws.score(name, segment)
        if ws.mode is AnnotationMode.ESA:
            value = self.panel.esa_value() if self.panel is not None else ws.prefill(name, segment)
            return self.set_esa_score(value)
        if existing is not None:
            self._say("This output is already marked as annotated.")
            return False
        score = SegmentScore(name, segment, self._annotator, None)
        if self._execute(SetSegmentScore(None, score, label="Mark output done")):
            self._say(f"{name}, segment {segment + 1}: done.")
            return True
        return False

    def set_esa_score(self, value: float | None) -> bool:
        target = self.target()
        ws = self._workspace
        if target is None or ws is None:
            return False
        segment, system = target
        name = ws.systems[system]
        try:
            after = SegmentScore(name, segment, self._annotator, value)
        except AnnotationError as exc:
            self._say(str(exc))
            return False
        before = ws.score(name, segment)
        if before is not None and before.score == after.score:
            return False
        return self._execute(SetSegmentScore(before, after, label="Set ESA score"))

    def undo(self) -> None:
        ws = self._workspace
        if ws is None or not ws.history.can_undo:
            self._say("Nothing to undo.")
            return
        if self._read_only or not self._ensure_store():
            return
        try:
            command = ws.undo()
        except (AnnotationError, SessionError) as exc:
            self.host.report_error("Cannot undo", str(exc))
            return
        self._update_actions()
        self._say("Nothing to undo." if command is None else f"Undone: {command.label}")

    def redo(self) -> None:
        ws = self._workspace
        if ws is None or not ws.history.can_redo:
            self._say("Nothing to redo.")
            return
        if self._read_only or not self._ensure_store():
            return
        try:
            command = ws.redo()
        except (AnnotationError, SessionError) as exc:
            self.host.report_error("Cannot redo", str(exc))
            return
        self._update_actions()
        self._say("Nothing to redo." if command is None else f"Redone: {command.label}")

    # -- keys that depend on the focus --------------------------------------------------------

    @Slot()
    def _on_confirm_key(self) -> None:
        if self.panel is not None and self.panel.take_return():
            return
        self.confirm()

    @Slot()
    def _on_remove_key(self) -> None:
        if self.panel is not None and self.panel.take_remove():
            return
        self.remove()

    @Slot()
    def _on_note_key(self) -> None:
        if self.panel is not None:
            span = self.span_under_cursor()
            self.panel.edit_note(span.note if span is not None else self._draft.note)

    @Slot()
    def _on_score_key(self) -> None:
        if self.panel is not None:
            self.panel.edit_score()

    # -- moving -----------------------------------------------------------------------------

    def focus_text(self) -> None:
        """T: the keyboard goes to the output being annotated (select with Shift+arrows)."""
        target = self.target()
        if target is None:
            self._say("Choose a row first.")
            return
        try:
            view = self.host.detail_pane.hypothesis_view(target[1])
        except IndexError:
            return
        view.setFocus(Qt.FocusReason.ShortcutFocusReason)

    def move_segment(self, step: int) -> None:
        proxy, view = self.host.proxy, self.host.table_view
        if proxy is None or proxy.rowCount() == 0:
            return
        current = view.currentIndex()
        row = current.row() if current.isValid() else -1
        new = max(0, min(proxy.rowCount() - 1, row + step))
        self._go_to_row(new)

    def _go_to_row(self, row: int) -> None:
        proxy, view = self.host.proxy, self.host.table_view
        current = view.currentIndex()
        column = current.column() if current.isValid() else 0
        view.setCurrentIndex(proxy.index(row, column))
        view.scrollTo(proxy.index(row, column))
        self.focus_text()

    def go_to_segment(self, segment: int) -> bool:
        proxy = self.host.proxy
        if proxy is None:
            return False
        row = proxy.proxy_row(segment)
        if row < 0:
            return False
        self._go_to_row(row)
        return True

    def move_system(self, step: int) -> None:
        n = len(self.system_names)
        if n == 0:
            return
        self._set_system((self._system + step) % n)
        self.focus_text()
        self._say(f"Annotating {self.system_names[self._system]}.")

    def next_unannotated(self, step: int = 1) -> bool:
        """U: the next row (in the table's order) whose current system's output is not
        annotated; wraps around once."""
        ws, core, proxy = self._workspace, self._core, self.host.proxy
        if ws is None or core is None or proxy is None:
            return False
        order = proxy.visible_segments()
        if len(order) == 0:
            return False
        done = ws.annotated_mask(ws.systems[self._system])[order]
        current = self.host.table_view.currentIndex()
        row = current.row() if current.isValid() else -1
        n = len(order)
        positions = np.arange(1, n + 1) * (1 if step >= 0 else -1) + row
        positions %= n
        todo = positions[~done[positions]]
        if len(todo) == 0:
            self._say(f"Every output of {ws.systems[self._system]} shown is annotated.")
            return False
        self._go_to_row(int(todo[0]))
        return True

    def select_span(self, step: int) -> None:
        """] / [: select the next (previous) error of this output."""
        selected = self.selection()
        spans = [s for s in self.target_spans() if s.status is not Status.REJECTED]
        if selected is None or not spans:
            self._say("No errors in this output.")
            return
        at = selected.start
        if step > 0:
            after = [s for s in spans if (s.start, s.end) > (at, selected.end)]
            chosen = after[0] if after else spans[0]
        else:
            before = [s for s in spans if (s.start, s.end) < (at, selected.end)]
            chosen = before[-1] if before else spans[-1]
        self.select_range(chosen.start, chosen.end)
        self._say(f"{chosen.category or 'error'} ({chosen.severity.value}, {chosen.status.value})")

    def select_range(self, start: int, end: int) -> bool:
        """Select ``start:end`` (code points) of the output being annotated, in the pane."""
        target = self.target()
        if target is None:
            return False
        view = self._view(target[1], target[0])
        if view is None:
            return False
        shown = view.plain_text()
        index = Utf16Index(shown)
        cursor = view.textCursor()
        cursor.setPosition(index.to_utf16(min(start, len(shown))))
        cursor.setPosition(index.to_utf16(min(end, len(shown))), QTextCursor.MoveMode.KeepAnchor)
        view.setTextCursor(cursor)
        self._reset_draft()
        self.draft_changed.emit()
        return True

    # -- settings -----------------------------------------------------------------------------

    def _initial_annotator(self) -> str:
        stored = self.host.settings.value(ANNOTATOR_KEY)
        if isinstance(stored, str) and stored.strip():
            return stored.strip()
        try:
            return getpass.getuser()
        except (KeyError, OSError):  # no login name (a container)
            return "annotator"

    def set_annotator(self, name: str) -> None:
        name = name.strip()
        if not name or name == self._annotator:
            return
        self._annotator = name
        self.host.settings.setValue(ANNOTATOR_KEY, name)
        if self._workspace is not None:
            self._workspace.annotator = name
        self._save_meta(annotator=name)
        self.target_changed.emit()

    @Slot(bool)
    def _on_esa_toggled(self, on: bool) -> None:
        self.set_mode(AnnotationMode.ESA if on else AnnotationMode.MQM)

    def set_mode(self, mode: AnnotationMode) -> None:
        ws = self._workspace
        if ws is None or ws.mode is mode or self._read_only:
            self._update_actions()
            return
        ws.set_mode(mode)
        self._save_meta(mode=mode)
        self._reset_draft()
        self._update_columns()
        self._update_actions()
        self._say(
            "ESA mode: severities only, and a 0–100 score per output."
            if mode is AnnotationMode.ESA
            else "MQM mode: category and severity per error."
        )
        self.annotations_changed.emit()
        self.target_changed.emit()

    def set_typology(self, typology: Typology) -> None:
        ws = self._workspace
        if ws is None or self._read_only:
            return
        ws.set_typology(typology)
        self._save_meta(typology=typology)
        self.annotations_changed.emit()
        self.target_changed.emit()

    def set_weights(self, weights: MQMWeights) -> None:
        ws = self._workspace
        if ws is None or self._read_only:
            return
        ws.set_weights(weights)
        self._save_meta(weights=weights)

    def _save_meta(self, **values: Any) -> None:
        if self._store is None or self._read_only:
            return
        try:
            self._store.save_state(**values)
        except SessionError as exc:
            self.host.report_error("Cannot save the session", str(exc))

    # -- the score columns ----------------------------------------------------------------------

    def _on_workspace_changed(self, keys: frozenset[Key]) -> None:
        self._update_columns()
        self._repaint()
        self._update_actions()
        self.annotations_changed.emit()
        self.draft_changed.emit()

    def _update_columns(self) -> None:
        ws, core = self._workspace, self._core
        if ws is None or core is None:
            return
        wanted: list[tuple[ScoreColumn, Any]] = []
        if len(ws) or ws.scores():
            wanted.append((MQM_COLUMN, ws.mqm_values()))
        if ws.mode is AnnotationMode.ESA or ws.has_esa_scores():
            wanted.append((ESA_COLUMN, ws.esa_values()))
        if not wanted:
            return
        for column, values in wanted:
            core.set_column(column, values)
        new = [c.key for c, _ in wanted if c.key not in self._shown_columns]
        if new:
            self._show_columns(new)
        self._summary_timer.start()

    def _show_columns(self, keys: Sequence[str]) -> None:
        model = self.host.model
        self._shown_columns.update(keys)
        if model is None:
            return
        shown = list(model.shown_scores)
        missing = [k for k in keys if k not in shown]
        if not missing:
            return
        segment = self.host.current_segment()
        view = self.host.table_view
        header = view.horizontalHeader()
        before = [model.column_info(c) for c in range(model.columnCount())]
        widths = {info: header.sectionSize(c) for c, info in enumerate(before)}
        hidden = {info for c, info in enumerate(before) if view.isColumnHidden(c)}
        model.set_shown_scores([*shown, *missing])
        # The model was reset: the columns moved. Each keeps its width; a new one takes the
        # width of the same column of the first score shown.
        for c in range(model.columnCount()):
            info = model.column_info(c)
            width = widths.get(info)
            if width is None and info.metric is not None:
                width = widths.get(replace(info, metric=shown[0]))
            if width is not None:
                header.resizeSection(c, width)
            view.setColumnHidden(c, info in hidden)
        if segment is not None:
            proxy = self.host.proxy
            row = proxy.proxy_row(segment)
            if row >= 0:
                self.host.table_view.setCurrentIndex(proxy.index(row, 0))
        table = self.host.session.table
        self.host.filter_bar.set_metrics(table.columns)

    @Slot()
    def _on_summary_timeout(self) -> None:
        session = self.host.session
        if session is not None:
            self.host.summary.set_table(session.table)

    # -- filtering ------------------------------------------------------------------------------

    def apply_filter(self, query: AnnotationQuery) -> int:
        """Show only the rows ``query`` keeps (a row set in the selection); returns how many."""
        ws, session = self._workspace, self.host.session
        if ws is None or session is None:
            return 0
        try:
            rows = ws.rows(query)
        except AnnotationError as exc:
            self._say(str(exc))
            return 0
        selection = session.selection
        kept = tuple(f for f in selection.filters if not _is_ours(f))
        mine = RowSet(
            tuple(int(r) for r in rows), label=FILTER_LABEL + query.label(), source=FILTER_SOURCE
        )
        try:
            session.set_selection(Selection((*kept, mine), selection.sort))
        except SelectionError as exc:
            self._say(str(exc))
            return 0
        self._filter = query
        if self._core is not None:
            self._core.set_layout(annotation_filter=query.to_dict())
        self._say(f"{len(rows)} rows: {query.label()}.")
        return len(rows)

    def clear_filter(self) -> None:
        session = self.host.session
        if session is None:
            return
        selection = session.selection
        kept = tuple(f for f in selection.filters if not _is_ours(f))
        if len(kept) != len(selection.filters):
            session.set_selection(Selection(kept, selection.sort))
        self._filter = None
        if self._core is not None:
            self._core.set_layout(annotation_filter=None)

    def show_flagged(self) -> int:
        """Show the rows holding flagged spans (not found again after an input changed)."""
        ws, session = self._workspace, self.host.session
        if ws is None or session is None:
            return 0
        rows = sorted(
            {
                s.segment
                for s in ws.spans()
                if s.id in self.flagged and 0 <= s.segment < ws.n_segments
            }
        )
        selection = session.selection
        kept = tuple(f for f in selection.filters if not _is_ours(f))
        mine = RowSet(tuple(rows), label=FILTER_LABEL + "flagged errors", source=FILTER_SOURCE)
        session.set_selection(Selection((*kept, mine), selection.sort))
        return len(rows)

    # -- import, export, agreement ------------------------------------------------------------

    def lines(self) -> dict[str, Sequence[str]]:
        core = self._core
        if core is None:
            return {}
        return {name: core.text.systems[s] for s, name in enumerate(core.system_names)}

    def import_annotations(
        self, path: str | os.PathLike[str], fmt: str, *, system: str | None = None
    ) -> ImportResult | None:
        """Read pre-annotations (undecided spans, and scores) from ``path`` in format ``fmt``
        (a key of core's IMPORT_FORMATS); one undo step."""
        ws = self._workspace
        if ws is None:
            return None
        lines = self.lines()
        try:
            if fmt == "xcomet-jsonl":
                result = import_xcomet(path, lines=lines, system=system)
            elif fmt == "wmt-mqm-tsv":
                result = import_mqm_tsv(path, lines=lines)
            elif fmt == "wmt24-esa-jsonl":
                result = import_wmt24_esa(path, lines=lines)
            else:
                raise InputError(f"unknown annotation format {fmt!r}", os.fspath(path))
        except (InputError, AnnotationError) as exc:
            self.host.report_error("Cannot import the annotations", str(exc))
            return None
        known = set(ws.systems)
        spans = [s for s in result.spans if s.system in known]
        scores = [s for s in result.scores if s.system in known]
        skipped = len(result.spans) - len(spans)
        commands: list[Any] = [AddSpan(s) for s in spans]
        for score in scores:
            commands.append(
                SetSegmentScore(ws.score(*score.key[:2], annotator=score.key[2]), score)
            )
        if not commands:
            self._say("The file held no annotations of these systems.")
            return result
        if not self._execute(Batch(tuple(commands), label=f"Import {Path(path).name}")):
            return None
        if result.layout is not None and self._store is not None:
            try:
                self._store.set_mqm_tsv_layout(result.layout)  # to export the file back
            except SessionError as exc:
                log.warning("could not keep the TSV layout: %s", exc)
        notes = list(result.warnings[:5])
        if len(result.warnings) > 5:
            notes.append(f"… and {len(result.warnings) - 5} more warnings")
        if skipped:
            notes.append(f"{skipped} spans of systems not in this comparison were skipped.")
        summary = f"Imported {len(spans)} errors to review (Enter confirms, Backspace rejects)"
        if scores:
            summary += f" and {len(scores)} segment scores"
        self.notice_sink("Annotations imported", summary + ".\n\n" + "\n".join(notes))
        return result

    def export_annotations(
        self, path: str | os.PathLike[str], fmt: str, *, all_statuses: bool = False
    ) -> Path | None:
        """Write the confirmed spans (``all_statuses``: undecided and rejected too) as ``fmt``:
        ``csv``, ``xcomet-jsonl``, ``wmt24-esa-jsonl`` or ``wmt-mqm-tsv``."""
        ws, core, comparison = self._workspace, self._core, self.host.comparison
        if ws is None or core is None:
            return None
        statuses = tuple(Status) if all_statuses else (Status.CONFIRMED,)
        spans = ws.spans()
        try:
            if fmt == "csv":
                text = export_csv(spans, weights=ws.weights, statuses=statuses)
            elif fmt == "xcomet-jsonl":
                text = export_xcomet(spans, statuses=statuses)
            elif fmt == "wmt24-esa-jsonl":
                text = export_wmt24_esa(
                    spans, ws.scores(), lines=self.lines(), sources=core.source, statuses=statuses
                )
            elif fmt == "wmt-mqm-tsv":
                layout = self._store.mqm_tsv_layout() if self._store is not None else None
                text = export_mqm_tsv(
                    spans,
                    ws.scores(),
                    lines=self.lines(),
                    sources=core.source,
                    layout=layout,
                    statuses=statuses,
                )
            else:
                raise AnnotationError(f"unknown export format {fmt!r}")
        except AnnotationError as exc:
            self.host.report_error("Cannot export the annotations", str(exc))
            return None
        protected = [] if comparison is None else [c.path for c in comparison.columns]
        if self._store is not None:
            protected.append(str(self._store.path))
        try:
            write_export(path, text, protected=protected)
        except OSError as exc:
            self.host.report_error("Cannot export the annotations", f"{path}: {exc}")
            return None
        self._say(f"Exported the annotations to {path}")
        return Path(path)

    def agreement_with(self, path: str | os.PathLike[str]) -> AgreementReport | None:
        """Agreement of this session's annotations (A) with another annotator's session (B) of
        the same files; the other file is read through a private read-only copy."""
        ws = self._workspace
        if ws is None:
            return None
        try:
            other = SessionStore.open_copy_read_only(path)
        except SessionError as exc:
            self.host.report_error("Cannot read the other session", str(exc))
            return None
        try:
            mine = {i.name: i.sha256 for i in self._session_inputs() if i.role == "system"}
            theirs = {i.name: i.sha256 for i in other.inputs() if i.role == "system"}
            differ = sorted(n for n in set(mine) | set(theirs) if mine.get(n) != theirs.get(n))
            if differ:
                self.host.report_error(
                    "The sessions annotate different files",
                    f"{path}: the system outputs differ from this comparison's ("
                    + ", ".join(differ)
                    + "). Agreement needs both annotators to have seen the same texts.",
                )
                return None
            return agreement(
                ws.spans(),
                other.spans(),
                ws.scores(),
                other.segment_scores(),
                weights=ws.weights,
            )
        except SessionError as exc:
            self.host.report_error("Cannot read the other session", str(exc))
            return None
        finally:
            other.close()

    # -- session files ----------------------------------------------------------------------

    def _state_payload(self) -> dict[str, Any]:
        core = self._core
        if core is None:
            raise SessionError("no comparison is open")
        specs = self.host.specs
        if specs is not None:
            specs_json = specs.to_json()
        else:
            comparison = self.host.comparison
            specs_json = {
                "source": None
                if comparison.source is None
                else {"path": comparison.source.path, "name": None, "column": None, "fmt": None},
                "references": [
                    {"path": c.path, "name": None, "column": None, "fmt": None}
                    for c in comparison.references
                ],
                "systems": [
                    {"path": c.path, "name": c.name, "column": None, "fmt": None}
                    for c in comparison.systems
                ],
            }
        return {
            "settings": {
                "config": core.config.to_dict(),
                "specs": specs_json,
                "reference_names": list(core.reference_names),
            },
            "baseline": core.system_names[core.baseline],
            "selection": core.selection.to_dict(),
            "layout": self._layout(),
        }

    def _layout(self) -> dict[str, Any]:
        core = self._core
        layout = dict(core.layout) if core is not None else {}
        layout["highlight_mode"] = self.host.highlight_mode
        if self.system_names:
            layout["annotate_system"] = self.system_names[self._system]
        model = self.host.model
        if model is not None:
            view = self.host.table_view
            hidden = [
                str(model.headerData(c, Qt.Orientation.Horizontal))
                for c in range(model.columnCount())
                if view.isColumnHidden(c)
            ]
            layout["hidden_columns"] = hidden
        return layout

    def _on_session_event(self, event: str, payload: object) -> None:
        if event == "scores" or self._restoring:
            return
        self._state_timer.start()  # written when it settles, and only if it changed

    @Slot()
    def _on_state_timeout(self) -> None:
        self._save_state()

    def _save_state(self) -> None:
        store = self._store
        if store is None or self._read_only or self._core is None:
            return
        self._save_imports(store)
        payload = self._state_payload()
        text = json.dumps(payload, sort_keys=True)
        if text == self._saved_state:
            return
        try:
            store.save_state(**payload)
        except SessionError as exc:
            self.host.report_error("Cannot save the session", str(exc))
            return
        self._saved_state = text

    def flush(self) -> None:
        """Write the comparison's state now (before quitting or switching files)."""
        self._state_timer.stop()
        self._save_state()

    def open_session(self, path: str | os.PathLike[str], *, read_only_copy: bool = False) -> bool:
        """Open a session file: its comparison, settings, selection, layout and annotations.

        A damaged file, or one from a newer Matchlight, is refused with a message that offers a
        read-only copy; the file itself is never changed.
        """
        target = Path(path)
        if target.suffix != SUFFIX and not target.exists():
            self.host.report_error("Cannot open the session", f"{target}: no such session file")
            return False
        try:
            store = (
                SessionStore.open_copy_read_only(target)
                if read_only_copy
                else SessionStore.open(target)
            )
        except SessionError as exc:
            self._refuse(target, exc)
            return False
        try:
            state = store.state()
            specs = self._specs_of(store, state)
            checks = store.check_inputs()
            imports = store.imports()
        except (SessionError, ValueError) as exc:
            store.close()
            self._refuse(target, exc if isinstance(exc, SessionError) else SessionError(str(exc)))
            return False
        missing = [c for c in checks if c.status == "missing"]
        if missing:
            store.close()
            names = "\n".join(f"• {c.input.name} ({c.input.role}): {c.path}" for c in missing)
            self.host.report_error(
                "Cannot open the session",
                f"{target}: these input files are missing:\n{names}\n\nThe session was not "
                "changed; put the files back (or restore them) and open it again.",
            )
            return False
        changed = [
            f"{Path(c.path).name} ({c.input.role} {c.input.name})" for c in checks if c.changed
        ]
        imports_changed = [
            f"{f.path} ({record.name}, {status})"
            for record in imports
            for f in record.files
            if (status := f.status()) != "same"
        ]
        self.flush()
        self._drop_pending()
        self._pending = _Pending(
            store,
            state,
            specs,
            changed,
            None if read_only_copy else target,
            None if read_only_copy else _read_records_in_background(target),
            imports,
            imports_changed,
        )
        try:
            started = self.host.open_specs(specs)
        except Exception:
            self._drop_pending()
            raise
        if not started:
            self._drop_pending()
            return False
        return True

    def _drop_pending(self) -> None:
        pending, self._pending = self._pending, None
        if pending is not None:
            pending.store.close()

    @Slot(str)
    def _on_open_failed(self, _message: str) -> None:
        self._drop_pending()

    @Slot(bool)
    def _on_reading_changed(self, reading: bool) -> None:
        if not reading and self._pending is not None:
            # A successful read shows the comparison right after this; a cancelled one never.
            QTimer.singleShot(0, self, self._drop_unless_opening)

    @Slot()
    def _drop_unless_opening(self) -> None:
        reading = getattr(self.host, "is_reading", None)
        if self._pending is not None and not (callable(reading) and reading()):
            self._drop_pending()

    def _specs_of(self, store: SessionStore, state: SessionState) -> Any:
        data = state.settings.get("specs") if isinstance(state.settings, Mapping) else None
        if data is None:
            inputs = store.inputs()

            def one(i: SessionInput) -> dict[str, Any]:
                name = i.name if i.role == "system" else None
                return {"path": i.path, "name": name, "column": None, "fmt": None}

            sources = [one(i) for i in inputs if i.role == "source"]
            data = {
                "source": sources[0] if sources else None,
                "references": [one(i) for i in inputs if i.role == "reference"],
                "systems": [one(i) for i in inputs if i.role == "system"],
            }
        return self._specs_type.from_json(data)

    def _refuse(self, path: Path, exc: SessionError) -> None:
        problem = exc.problem
        can_copy = "not a Matchlight session" not in problem and "newer Matchlight" not in problem
        can_copy = can_copy and "no such session file" not in problem
        message = str(exc) + "\n\nThe file was not changed."
        if not can_copy:
            self.host.report_error("Cannot open the session", message)
            return
        self._offer_read_only_copy(path, message)

    def _offer_read_only_copy(self, path: Path, message: str) -> None:
        parent = self.host if isinstance(self.host, QWidget) else None
        box = QMessageBox(
            QMessageBox.Icon.Warning,
            "Cannot open the session",
            message + "\n\nYou can open a read-only copy of it to see (and save elsewhere) "
            "what can be read.",
            QMessageBox.StandardButton.Cancel,
            parent,
        )
        box.setObjectName("session-refused")
        copy_button = box.addButton("Open a read-only copy", QMessageBox.ButtonRole.AcceptRole)
        box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)

        def on_clicked(button: Any) -> None:
            if button is copy_button:
                self.open_session(path, read_only_copy=True)

        box.buttonClicked.connect(on_clicked)
        self.refusal_box = box
        box.open()

    def _restore(self, pending: _Pending) -> None:
        """Take the saved settings, baseline, selection and layout (after the comparison opened)."""
        state = pending.state
        core = self._core
        if core is None:
            return
        self._restoring = True
        try:
            settings = state.settings if isinstance(state.settings, Mapping) else {}
            config_data = settings.get("config")
            if isinstance(config_data, Mapping):
                try:
                    config = ScoringConfig.from_dict(config_data)
                except (ValueError, KeyError, TypeError) as exc:
                    self._say(f"The session's scoring settings were not usable ({exc}).")
                else:
                    if config != self.host.config:
                        self.host.apply_config(config)
            baseline = state.baseline
            index = None
            if isinstance(baseline, str) and baseline in core.system_names:
                index = core.system_names.index(baseline)
            elif isinstance(baseline, int) and 0 <= baseline < len(core.system_names):
                index = baseline
            if index is not None and index != core.baseline:
                self.host.baseline_combo.setCurrentIndex(index)
            self._restore_imports(pending)  # before the selection: it may filter on them
            if isinstance(state.selection, Mapping):
                try:
                    self.host.session.set_selection(Selection.from_dict(state.selection))
                except (SelectionError, TypeError, ValueError) as exc:
                    self._say(f"The saved row selection could not be applied: {exc}")
            layout = state.layout if isinstance(state.layout, Mapping) else {}
            self._restore_layout(layout)
        finally:
            self._restoring = False
        self._saved_state = None if self._read_only else self._saved_state

    def _restore_imports(self, pending: _Pending) -> None:
        """Put the session's imported score and label columns back into the comparison."""
        core = self._core
        if core is None:
            return
        restored: dict[tuple[str, str], ScoreImport | LabelImport] = {}
        for record in pending.imports:
            try:
                if isinstance(record, ScoreImport):
                    core.add_imported(record)
                    restored["scores", record.key] = record
                else:
                    core.set_labels(record)
                    restored["labels", record.key] = record
            except ValueError as exc:
                self._say(f"The imported column {record.name!r} was not restored: {exc}")
        self._saved_imports, self._imports_store = restored, pending.store

    def _save_imports(self, store: SessionStore) -> None:
        """Write the imported columns that are new or replaced, forget the removed ones."""
        core = self._core
        if core is None:
            return
        current: dict[tuple[str, str], ScoreImport | LabelImport] = {
            ("scores", r.key): r for r in core.imported_scores()
        }
        current.update({("labels", r.key): r for r in core.label_columns()})
        saved = self._saved_imports if store is self._imports_store else {}
        if current.keys() == saved.keys() and all(saved[k] is r for k, r in current.items()):
            return
        try:
            with store.batch():
                for key, record in current.items():
                    if saved.get(key) is not record:
                        store.save_import(record)
                for kind, name in saved.keys() - current.keys():
                    store.remove_import(kind, name)
        except SessionError as exc:
            self.host.report_error("Cannot save the imported columns", str(exc))
            return
        self._saved_imports, self._imports_store = current, store

    def _restore_layout(self, layout: Mapping[str, Any]) -> None:
        core = self._core
        if core is None:
            return
        core.layout.update({k: v for k, v in layout.items() if k != "hidden_columns"})
        mode = layout.get("highlight_mode")
        action = self.host.highlight_actions.get(mode) if isinstance(mode, str) else None
        if action is not None:
            action.trigger()
        system = layout.get("annotate_system")
        if isinstance(system, str) and system in core.system_names:
            self._system = core.system_names.index(system)
        query = layout.get("annotation_filter")
        if isinstance(query, Mapping):
            try:
                self._filter = AnnotationQuery.from_dict(query)
            except (AnnotationError, ValueError):
                self._filter = None
        hidden = layout.get("hidden_columns")
        model = self.host.model
        if isinstance(hidden, list) and model is not None:
            titles = {str(t) for t in hidden}
            for c in range(model.columnCount()):
                title = str(model.headerData(c, Qt.Orientation.Horizontal))
                self.host.table_view.setColumnHidden(c, title in titles)
        segment = layout.get("current_segment")
        if isinstance(segment, int) and 0 <= segment < core.n_segments:
            proxy = self.host.proxy
            row = proxy.proxy_row(segment) if proxy is not None else -1
            if row >= 0:
                self.host.table_view.setCurrentIndex(proxy.index(row, 0))
                self.host.table_view.scrollTo(proxy.index(row, 0))

    def save_session_as(self, path: str | os.PathLike[str] | None = None) -> Path | None:
        """Save the session under ``path`` (asked for when None) and continue in that file."""
        if self._core is None:
            self.host.report_error("Nothing to save", "Open a comparison first.")
            return None
        if path is None:
            current = self.session_path
            folder = Path.home() if current is None or self.is_untitled() else current.parent
            suggested = str(folder / f"annotations{SUFFIX}")
            chosen = self.ask_path(
                self.host if isinstance(self.host, QWidget) else None,  # type: ignore[arg-type]
                "Save session as",
                suggested,
                f"Matchlight sessions (*{SUFFIX})",
                True,
            )
            if not chosen:
                return None
            path = chosen
        target = Path(path)
        if target.suffix != SUFFIX:
            target = target.with_name(target.name + SUFFIX)
        was_read_only = self._read_only
        if was_read_only and self._store is not None and not self._salvage():
            return None
        self._read_only = False
        if not self._ensure_store():
            self._read_only = was_read_only
            return None
        self.flush()
        store = self._store
        assert store is not None
        try:
            saved = store.save_as(target)
        except SessionError as exc:
            self._read_only = was_read_only
            self.host.report_error("Cannot save the session", str(exc))
            return None
        if self._workspace is not None:
            self._workspace.set_sink(store)
        self._save_state()
        self._remember(saved)
        self._update_actions()
        self.session_changed.emit()
        self._say(f"Saved the session as {saved}")
        return saved

    def _salvage(self) -> bool:
        """Leave a read-only copy for a new untitled session holding what could be read (a
        damaged file is not copied page by page: its readable records are written anew)."""
        old, ws = self._store, self._workspace
        if old is None or ws is None:
            return False
        try:
            payload = self._state_payload()
            store = create_untitled(
                inputs=list(old.inputs()),
                settings=payload["settings"],
                baseline=payload["baseline"],
                selection=payload["selection"],
                layout=payload["layout"],
                mode=ws.mode,
                typology=ws.typology,
                weights=ws.weights,
                annotator=self._annotator,
            )
            store.add_many(ws.spans(), ws.scores())
        except (SessionError, AnnotationError, OSError) as exc:
            self.host.report_error("Cannot save the session", str(exc))
            return False
        old.close()
        self._store = store
        self._read_only = False
        ws.set_sink(store)
        return True

    def close_session(self) -> None:
        """Write the state and release the file (the window closes): no edit after this.

        An untitled session left with nothing in it (every edit undone) is deleted rather than
        offered for recovery next time.
        """
        self.flush()
        self._release_store()
        if self._workspace is not None:
            self._workspace.set_sink(None)
        self._read_only = True

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self.host and event.type() == QEvent.Type.Close:
            self.close_session()
        return False

    # -- recent sessions and recovery -------------------------------------------------------------

    def recent_sessions(self) -> list[str]:
        raw = self.host.settings.value(RECENT_SESSIONS_KEY)
        if not isinstance(raw, str):
            return []
        try:
            data = json.loads(raw)
        except ValueError:
            return []
        return (
            [p for p in data if isinstance(p, str)][:RECENT_LIMIT] if isinstance(data, list) else []
        )

    def _remember(self, path: Path | None) -> None:
        if path is None or self.is_untitled():
            return
        text = str(path)
        entries = [text, *[p for p in self.recent_sessions() if p != text]][:RECENT_LIMIT]
        self.host.settings.setValue(RECENT_SESSIONS_KEY, json.dumps(entries))
        self._rebuild_recent()

    def _rebuild_recent(self) -> None:
        menu = getattr(self, "recent_sessions_menu", None)
        if menu is None:
            return
        menu.clear()
        entries = self.recent_sessions()
        for i, path in enumerate(entries):
            action = menu.addAction(f"&{(i + 1) % 10} {Path(path).name}")
            action.setData(path)
            action.setToolTip(path)
            action.setStatusTip(path)
        menu.setEnabled(bool(entries))

    @Slot(QAction)
    def _on_recent_session_triggered(self, action: QAction) -> None:
        path = action.data()
        if isinstance(path, str):
            self.open_session(path)

    @Slot()
    def _on_open_session_triggered(self) -> None:
        recent = self.recent_sessions()
        folder = str(Path(recent[0]).parent) if recent else str(Path.home())
        chosen = self.ask_path(
            self.host if isinstance(self.host, QWidget) else None,  # type: ignore[arg-type]
            "Open session",
            folder,
            f"Matchlight sessions (*{SUFFIX});;All files (*)",
            False,
        )
        if chosen:
            self.open_session(chosen)

    @Slot()
    def _on_save_session_triggered(self) -> None:
        self.save_session_as()

    def recoverable(self) -> list[RecoverableSession]:
        """Sessions left in the recovery folder by a crash or by quitting unsaved (not the ones
        another running Matchlight has open)."""
        own = self.session_path
        found = []
        for item in list_recoverable():
            if item.in_use or (own is not None and item.path == own):
                continue
            found.append(item)
        return found

    def discard(self, path: str | os.PathLike[str]) -> bool:
        try:
            discard_recoverable(path)
        except SessionError as exc:
            self.host.report_error("Cannot discard the session", str(exc))
            return False
        return True


def _read_records_in_background(
    path: Path,
) -> Future[tuple[list[ErrorSpan], list[SegmentScore]]]:
    """Read a session's spans and scores in a daemon thread, through a read-only connection of
    its own (an SQLite connection stays in its thread; the WAL lets both read at once)."""
    future: Future[tuple[list[ErrorSpan], list[SegmentScore]]] = Future()

    def read() -> None:
        try:
            with SessionStore.open(path, read_only=True) as store:
                future.set_result((store.spans(), store.segment_scores()))
        except BaseException as exc:  # handed to the GUI thread
            future.set_exception(exc)

    threading.Thread(target=read, name="matchlight-session-read", daemon=True).start()
    return future


def _is_ours(f: object) -> bool:
    return isinstance(f, RowSet) and f.source == FILTER_SOURCE
