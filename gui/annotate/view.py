"""The annotation view: a window made for annotating one output at a time.

Anthea shows a document as a table of source and target sentences with an evaluation column;
Appraise stacks each segment's source over its target with a slider under it. This view takes
from both and keeps to one screen (1280×720, nothing to scroll for a typical segment):

* the header names the system under annotation, large, with its neighbours a key away (S,
  Shift+S), and the segment (Ctrl+G types a number; N, P, U move);
* the segment under annotation sits in a frame with its source beside it, between the segments
  before and after it in its document (the ``docid`` label column; without one, the lines
  around it), dimmed, a click away (:mod:`.viewcontext`);
* errors are marked by clicking the first word and then the last word, by dragging (widened to
  whole words), or with the keyboard; on the output or, for source errors and omissions, on the
  source (Shift+T);
* the tools at the right show every category, sub-category, severity and the score, with their
  keys (:mod:`.viewtools`);
* the metric evidence (references with this system's matches, its scores, why) replaces the
  neighbours at a toggle (V), and Escape brings the keyboard back to the text.

The view is a *surface* of the controller (see :mod:`.outputview`): while it is shown, the
controller selects in its texts. It keeps no annotation state; everything it shows is read from
the controller, the workspace and the comparison, again whenever they say they changed.
"""

from __future__ import annotations

import contextlib
from typing import Any

from PySide6.QtCore import QByteArray, QCoreApplication, QEvent, Qt, QTimer, Slot
from PySide6.QtGui import (
    QCloseEvent,
    QColor,
    QPainter,
    QPalette,
    QPen,
    QResizeEvent,
    QShowEvent,
)
from PySide6.QtWidgets import (
    QApplication,
    QComboBox,
    QFrame,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QLayout,
    QPushButton,
    QScrollArea,
    QSpinBox,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from matchlight.core.annotation.documents import DocumentIndex, document_column
from matchlight.core.annotation.model import Side
from matchlight.core.annotation.typology import AnnotationMode
from matchlight.gui.annotate.controller import AnnotationController
from matchlight.gui.annotate.painting import paint_spans, range_rects
from matchlight.gui.annotate.viewcontext import ContextRow, DocumentBody
from matchlight.gui.annotate.viewtext import AnnotatedText
from matchlight.gui.annotate.viewtools import ToolsPanel
from matchlight.gui.highlight.palette import DEFAULT_MAX_LEVEL, is_dark_palette

__all__ = ["AnnotationView"]

GEOMETRY_KEY = "annotation/view-geometry"
# The neighbours shown on each side of the segment, at most (fewer when they do not fit).
CONTEXT = 8
_TOOLS_WIDTH = 430


class AnnotationView(QWidget):
    """A window for annotating the output of one system, one segment at a time."""

    def __init__(
        self, controller: AnnotationController, host: Any, parent: QWidget | None = None
    ) -> None:
        super().__init__(parent, Qt.WindowType.Window)
        self.controller = controller
        self.host = host
        controller.view = self
        self.setObjectName("annotation-view")
        self.setWindowTitle(QCoreApplication.translate("AnnotationView", "Annotate — Matchlight"))
        self._documents: DocumentIndex | None = None
        self._doc_column: str | None = None
        self._session: Any = None
        self._number_width = 0

        outer = QVBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        outer.setSpacing(0)
        outer.addWidget(self._build_header())
        body = QHBoxLayout()
        body.setContentsMargins(0, 0, 0, 0)
        body.setSpacing(0)
        body.addWidget(self._build_document(), 1)
        self.tools = ToolsPanel(controller, self)
        self.tools.setFixedWidth(_TOOLS_WIDTH)
        body.addWidget(self.tools)
        outer.addLayout(body, 1)

        c = controller
        c.attached.connect(self._on_attached)
        c.target_changed.connect(self.refresh)
        c.annotations_changed.connect(self._on_annotations_changed)
        c.draft_changed.connect(self._on_draft_changed)
        # One click or key says "draft changed" several times; the tools are redrawn once.
        self._draft_timer = QTimer(self)
        self._draft_timer.setSingleShot(True)
        self._draft_timer.setInterval(0)
        self._draft_timer.timeout.connect(self._on_draft_timer)
        c.settings_changed.connect(self.refresh)
        c.message_changed.connect(self._on_message)
        host.detail_pane.rendered.connect(self._on_pane_rendered)
        # While the view is in front, the detail pane and the table behind it catch up with
        # a run of moves once it pauses (see in_front).
        host.detail_pane.defer_while = self.in_front
        self.resize(1280, 720)
        geometry = host.settings.value(GEOMETRY_KEY)
        if isinstance(geometry, QByteArray):
            self.restoreGeometry(geometry)
        self._restyle()
        self.refresh()

    # -- building ----------------------------------------------------------------------------------

    def _build_header(self) -> QWidget:
        header = QFrame(self)
        header.setObjectName("view-header")
        row = QHBoxLayout(header)
        row.setContentsMargins(8, 5, 8, 5)
        row.setSpacing(6)
        self.previous_system = self._nav_button(
            "◀", QCoreApplication.translate("AnnotationView", "Previous system (Shift+S)")
        )
        self.previous_system.clicked.connect(lambda: self.controller.move_system(-1))
        self.system_combo = QComboBox(header)
        self.system_combo.setObjectName("view-system")
        self.system_combo.setToolTip(
            QCoreApplication.translate(
                "AnnotationView", "The system whose output you annotate (S / Shift+S)"
            )
        )
        self.system_combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
        font = self.system_combo.font()
        font.setBold(True)
        font.setPointSizeF(font.pointSizeF() * 1.35)
        self.system_combo.setFont(font)
        self.system_combo.activated.connect(self._on_system_chosen)
        self.next_system = self._nav_button(
            "▶", QCoreApplication.translate("AnnotationView", "Next system (S)")
        )
        self.next_system.clicked.connect(lambda: self.controller.move_system(1))
        self.system_count = QLabel(header)
        row.addWidget(self.previous_system)
        row.addWidget(self.system_combo)
        row.addWidget(self.next_system)
        row.addWidget(self.system_count)
        row.addSpacing(18)
        self.previous_segment = self._nav_button(
            "▲", QCoreApplication.translate("AnnotationView", "Previous segment (P)")
        )
        self.previous_segment.clicked.connect(lambda: self.controller.move_segment(-1))
        segment_label = QLabel(QCoreApplication.translate("AnnotationView", "Segment"), header)
        self.segment_spin = QSpinBox(header)
        self.segment_spin.setObjectName("view-segment")
        self.segment_spin.setKeyboardTracking(False)
        self.segment_spin.setToolTip(
            QCoreApplication.translate(
                "AnnotationView", "Type a segment number and press Enter (Ctrl+G)"
            )
        )
        self.segment_spin.setButtonSymbols(QSpinBox.ButtonSymbols.NoButtons)
        segment_label.setBuddy(self.segment_spin)
        self.segment_total = QLabel(header)
        self.next_segment = self._nav_button(
            "▼", QCoreApplication.translate("AnnotationView", "Next segment (N)")
        )
        self.next_segment.clicked.connect(lambda: self.controller.move_segment(1))
        self.todo_button = QPushButton(
            QCoreApplication.translate("AnnotationView", "Next to do (U)"), header
        )
        self.todo_button.setFocusPolicy(Qt.FocusPolicy.TabFocus)
        self.todo_button.setToolTip(
            QCoreApplication.translate(
                "AnnotationView", "The next segment whose output of this system is not done"
            )
        )
        self.todo_button.clicked.connect(lambda: self.controller.next_unannotated(1))
        for widget in (
            self.previous_segment,
            segment_label,
            self.segment_spin,
            self.segment_total,
            self.next_segment,
            self.todo_button,
        ):
            row.addWidget(widget)
        row.addStretch(1)
        self.mode_label = QLabel(header)
        self.mode_label.setObjectName("view-mode")
        self.evidence_button = QToolButton(header)
        self.evidence_button.setObjectName("view-evidence")
        self.evidence_button.setText(
            QCoreApplication.translate("AnnotationView", "Metric evidence (V)")
        )
        self.evidence_button.setCheckable(True)
        self.evidence_button.setFocusPolicy(Qt.FocusPolicy.TabFocus)
        self.evidence_button.setToolTip(
            QCoreApplication.translate(
                "AnnotationView",
                "The references with this system's matches, its scores and why (V)",
            )
        )
        self.evidence_button.toggled.connect(self._on_evidence_toggled)
        self.table_button = QPushButton(
            QCoreApplication.translate("AnnotationView", "Table"), header
        )
        self.table_button.setFocusPolicy(Qt.FocusPolicy.TabFocus)
        self.table_button.setToolTip(
            QCoreApplication.translate(
                "AnnotationView", "Back to the main window (the table and its scores)"
            )
        )
        self.table_button.clicked.connect(self._on_table_clicked)
        row.addWidget(self.mode_label)
        row.addWidget(self.evidence_button)
        row.addWidget(self.table_button)
        return header

    def _nav_button(self, text: str, tip: str) -> QToolButton:
        button = QToolButton(self)
        button.setText(text)
        button.setToolTip(tip)
        button.setAutoRaise(True)
        button.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        return button

    def _build_document(self) -> QWidget:
        column = QWidget(self)
        layout = QVBoxLayout(column)
        layout.setContentsMargins(8, 4, 4, 4)
        layout.setSpacing(4)
        self.doc_caption = QLabel(column)
        self.doc_caption.setObjectName("view-document")
        self.doc_caption.setTextFormat(Qt.TextFormat.PlainText)
        layout.addWidget(self.doc_caption)

        self.scroll = QScrollArea(column)
        self.scroll.setWidgetResizable(True)
        self.scroll.setFrameShape(QFrame.Shape.NoFrame)
        self.scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.doc_body = DocumentBody()
        body = QVBoxLayout(self.doc_body)
        body.setSizeConstraint(QLayout.SizeConstraint.SetNoConstraint)
        body.setContentsMargins(0, 0, 0, 0)
        body.setSpacing(3)
        self.before_rows = [self._context_row() for _ in range(CONTEXT)]
        self.after_rows = [self._context_row() for _ in range(CONTEXT)]
        for row in self.before_rows:
            body.addWidget(row)

        self.current = QFrame(self.doc_body)
        self.current.setObjectName("current-row")
        grid = QGridLayout(self.current)
        grid.setContentsMargins(8, 6, 8, 8)
        grid.setHorizontalSpacing(12)
        grid.setVerticalSpacing(2)
        self.current_number = QLabel(self.current)
        self.current_number.setObjectName("current-number")
        self.current_number.setAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignTop)
        bold = self.current_number.font()
        bold.setBold(True)
        self.current_number.setFont(bold)
        self.source_caption = QLabel(
            QCoreApplication.translate("AnnotationView", "Source"), self.current
        )
        self.source_caption.setFont(bold)
        self.target_caption = QLabel(self.current)
        self.target_caption.setObjectName("target-caption")
        self.target_caption.setFont(bold)
        self.source_text = AnnotatedText(Side.SOURCE, self.current)
        self.source_text.setObjectName("view-source-text")
        self.target_text = AnnotatedText(Side.TARGET, self.current)
        self.target_text.setObjectName("view-target-text")
        text_font = self.target_text.font()
        text_font.setPointSizeF(text_font.pointSizeF() * 1.15)
        for view in (self.source_text, self.target_text):
            view.setFont(text_font)
            view.set_overlay(self._paint_text)
            view.clicked.connect(self._on_text_clicked)
            view.dragged.connect(self._on_text_dragged)
            view.focused.connect(self._on_text_focused)
            view.selectionChanged.connect(self._on_text_selection)
        grid.addWidget(self.current_number, 1, 0)
        grid.addWidget(self.source_caption, 0, 1)
        grid.addWidget(self.target_caption, 0, 2)
        grid.addWidget(self.source_text, 1, 1, Qt.AlignmentFlag.AlignTop)
        grid.addWidget(self.target_text, 1, 2, Qt.AlignmentFlag.AlignTop)
        grid.setColumnStretch(1, 1)
        grid.setColumnStretch(2, 1)
        body.addWidget(self.current)
        for row in self.after_rows:
            body.addWidget(row)
        self.evidence = self.host.detail_pane.evidence_view(self.doc_body)
        self.evidence.hide()
        body.addWidget(self.evidence)
        body.addStretch(1)
        self.scroll.setWidget(self.doc_body)
        layout.addWidget(self.scroll, 1)

        self.hint = QLabel(" ", column)
        self.hint.setObjectName("view-hint")
        self.hint.setWordWrap(True)
        self.hint.setTextFormat(Qt.TextFormat.PlainText)
        self.hint.setMinimumHeight(2 * self.hint.fontMetrics().lineSpacing() + 6)
        self.hint.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
        layout.addWidget(self.hint)
        self.setTabOrder(self.target_text, self.source_text)
        return column

    def _context_row(self) -> ContextRow:
        row = ContextRow(self)
        row.chosen.connect(self._on_context_chosen)
        row.hide()
        return row

    # -- the surface -------------------------------------------------------------------------------

    def text_view(self, segment: int, system: int, side: Side, line: str) -> AnnotatedText | None:
        """The view of ``system``'s output (or source) while it shows ``segment``'s ``line``."""
        view = self.target_text if side is Side.TARGET else self.source_text
        if not self.isVisible() or (view.segment, view.system) != (segment, system):
            return None
        if side is Side.SOURCE and not view.isVisible():
            return None
        return view if line.startswith(view.plain_text()) else None

    def focus_text(self, system: int, side: Side) -> bool:
        """The keyboard to the output (or source) under annotation, the window to the front."""
        if not self.isVisible():
            return False
        view = self.target_text if side is Side.TARGET else self.source_text
        if view.system != system or not view.isVisible():
            return False
        if not self.isActiveWindow():
            self.raise_()
            self.activateWindow()
        view.setFocus(Qt.FocusReason.ShortcutFocusReason)
        self.scroll.ensureWidgetVisible(view, 0, 0)
        return True

    # -- what the keys ask -------------------------------------------------------------------------

    def take_return(self) -> bool:
        """Enter in a field of the view (the segment number, the note, the score)."""
        if self.segment_spin.hasFocus():
            self.segment_spin.interpretText()
            if self.controller.go_to_segment(self.segment_spin.value() - 1):
                return True
            self.segment_spin.selectAll()
            return True
        return self.tools.take_return()

    def take_remove(self) -> bool:
        return self.tools.take_remove()

    def take_escape(self) -> bool:
        """Escape: from a field back to the text; with nothing drafted, the evidence closes."""
        focus = QApplication.focusWidget()
        texts = (self.target_text, self.source_text)
        if focus is not None and self.isAncestorOf(focus) and focus not in texts:
            self.controller.selecting.refocus()
            return True
        c = self.controller
        selected = c.selection()
        nothing = c.draft.empty and (selected is None or selected.start == selected.end)
        if nothing and self.evidence_button.isChecked():
            self.evidence_button.setChecked(False)
            return True
        return False

    def edit_note(self, text: str) -> None:
        self.tools.edit_note(text)

    def edit_score(self) -> None:
        self.tools.edit_score()

    def go_to_prompt(self) -> None:
        """Ctrl+G: type the number of the segment to go to."""
        self.segment_spin.setFocus(Qt.FocusReason.ShortcutFocusReason)
        self.segment_spin.selectAll()

    def set_evidence(self, shown: bool) -> None:
        self.evidence_button.setChecked(shown)

    def evidence_shown(self) -> bool:
        return self.evidence_button.isChecked()

    def in_front(self) -> bool:
        """Whether the annotator works here: the view is the active window and shows no
        evidence (which follows the detail pane). The main window's table and detail pane,
        behind it, then follow a move once the moves pause, not at every step."""
        return self.isVisible() and self.isActiveWindow() and not self.evidence_shown()

    def _catch_up(self) -> None:
        """The table and the detail pane behind the view show the current row now."""
        self.host.detail_pane.flush()
        self.controller.scroll_table()
        cache = self._detail_cache()
        if cache is not None:
            cache.resume()

    def _detail_cache(self) -> Any:
        """The table's highlight detail cache (another one for each comparison), told to wait
        while the view is in front: the rows it computes are the table's, behind the view."""
        cache = getattr(self.host.delegate, "cache", None)
        if cache is not None:
            cache.defer_while = self._defers_detail
        return cache

    def _defers_detail(self, segment: int) -> bool:
        """Whether the table's highlights of ``segment`` wait: the view is in front and it is
        not the current row (whose detail the pane behind the view shows at the pause)."""
        return self.in_front() and segment != self.host.current_segment()

    def has_focus_inside(self) -> bool:
        focus = QApplication.focusWidget()
        return focus is not None and (focus is self or self.isAncestorOf(focus))

    # -- refreshing --------------------------------------------------------------------------------

    @Slot()
    def refresh(self) -> None:
        """Everything again: the system, the segment, its neighbours, the tools."""
        if not self.isVisible():
            return
        self._detail_cache()
        c = self.controller
        core = c.comparison_session
        target = c.target()
        names = c.system_names
        self._refresh_header(names, target)
        if core is None or target is None:
            for view in (self.source_text, self.target_text):
                view.set_text("", segment=None, system=None)
            for row in (*self.before_rows, *self.after_rows):
                row.hide()
            self.doc_caption.setText(
                QCoreApplication.translate("AnnotationView", "Choose a segment in the table.")
                if names
                else QCoreApplication.translate("AnnotationView", "Open a comparison to annotate.")
            )
            self.evidence.set_target(None, None)
            self.tools.refresh()
            return
        segment, system = target
        self._number_width = self.fontMetrics().horizontalAdvance(str(core.n_segments)) + 6
        self.current_number.setText(str(segment + 1))
        self.current_number.setFixedWidth(self._number_width)
        has_source = core.source is not None
        self.source_caption.setVisible(has_source)
        self.source_text.setVisible(has_source)
        self.target_caption.setText(
            QCoreApplication.translate("AnnotationView", "{0} — the output you annotate").format(
                names[system]
            )
        )
        self._fill_texts(segment, system)
        self._fill_context(segment, system)
        self.evidence.set_target(segment, system)
        self.tools.refresh()
        self._fit_context()

    def _refresh_header(self, names: tuple[str, ...], target: tuple[int, int] | None) -> None:
        c = self.controller
        combo = self.system_combo
        if [combo.itemText(i) for i in range(combo.count())] != list(names):
            combo.blockSignals(True)
            combo.clear()
            combo.addItems(list(names))
            combo.blockSignals(False)
        combo.blockSignals(True)
        combo.setCurrentIndex(c.system if names else -1)
        combo.blockSignals(False)
        self.system_count.setText(
            QCoreApplication.translate("AnnotationView", "system {0} of {1}").format(
                c.system + 1, len(names)
            )
            if names
            else ""
        )
        core = c.comparison_session
        n = 0 if core is None else core.n_segments
        self.segment_spin.setRange(1, max(1, n))
        if target is not None and not self.segment_spin.hasFocus():
            self.segment_spin.setValue(target[0] + 1)
        self.segment_total.setText(
            QCoreApplication.translate("AnnotationView", "of {0:,}").format(n)
        )
        mode = "ESA" if c.mode is AnnotationMode.ESA else "MQM"
        self.mode_label.setText(f"{mode} · {c.annotator}")
        name = names[c.system] if names and target is not None else ""
        if name and target:
            title = QCoreApplication.translate(
                "AnnotationView", "Annotate {name}, segment {0} — Matchlight"
            ).format(target[0] + 1, name=name)
        else:
            title = QCoreApplication.translate("AnnotationView", "Annotate — Matchlight")
        self.setWindowTitle(title)

    def _fill_texts(self, segment: int, system: int) -> None:
        c = self.controller
        dark = is_dark_palette(self.palette())
        ranges = self.evidence.output_ranges() if self.evidence_shown() else []
        mode = self.host.detail_pane.mode()
        levels = next(
            (m.max_level for m in self.host.detail_pane.modes() if m.key == mode),
            DEFAULT_MAX_LEVEL,
        )
        self.target_text.set_text(
            c.line(segment, system),
            segment=segment,
            system=system,
            ranges=ranges,
            dark=dark,
            max_level=levels,
        )
        if c.has_source:
            self.source_text.set_text(
                c.text_of(segment, system, Side.SOURCE), segment=segment, system=system, dark=dark
            )

    def _fill_context(self, segment: int, system: int) -> None:
        c = self.controller
        core = c.comparison_session
        if core is None:
            return
        documents = self._document_index()
        context = documents.context(segment, before=CONTEXT, after=CONTEXT)
        if context.document is None:
            where = QCoreApplication.translate(
                "AnnotationView",
                "No document column: the lines around it (File ▸ Load label column: docid)",
            )
        else:
            where = QCoreApplication.translate("AnnotationView", "Document {0} ({column})").format(
                context.document, column=self._doc_column
            )
        self.doc_caption.setText(
            QCoreApplication.translate(
                "AnnotationView", "{where} · segment {0} of {1:,} there"
            ).format(context.position + 1, context.size, where=where)
        )
        source = core.source
        before = list(context.before)
        rows = [None] * (CONTEXT - len(before)) + before
        for row, seg in zip(self.before_rows, rows, strict=True):
            self._set_context(row, seg, system, source)
        after = list(context.after) + [None] * (CONTEXT - len(context.after))
        for row, seg in zip(self.after_rows, after, strict=True):
            self._set_context(row, seg, system, source)

    def _set_context(self, row: ContextRow, segment: int | None, system: int, source: Any) -> None:
        if segment is None:
            row.segment = -1
            row.hide()
            return
        row.set_row(
            segment,
            None if source is None else source[segment],
            self.controller.line(segment, system),
            self._number_width,
        )

    def _fit_context(self) -> None:
        """As many neighbours as fit without scrolling (the nearest first), the evidence in
        their place when it is shown."""
        evidence = self.evidence_shown()
        self.evidence.setVisible(evidence)
        rows = [r for r in (*self.before_rows, *self.after_rows) if r.segment >= 0]
        if evidence:
            for row in rows:
                row.hide()
            return
        layout = self.doc_body.layout()
        room = self.scroll.viewport().height() - self.current.sizeHint().height() - 8
        spacing = layout.spacing() if layout is not None else 0
        # Nearest first: the one just before, the one just after, then the next ones out; a
        # row of a script with taller lines (Chinese, Japanese) takes more room.
        order = []
        for k in range(CONTEXT):
            order += [self.before_rows[CONTEXT - 1 - k], self.after_rows[k]]
        for row in order:
            height = row.sizeHint().height() + spacing
            fits = row.segment >= 0 and room >= height
            row.setVisible(fits)
            if fits:
                room -= height

    def _document_index(self) -> DocumentIndex:
        core = self.controller.comparison_session
        assert core is not None
        columns = {record.name: record for record in core.label_columns()}
        name = document_column(list(columns))
        if (
            self._documents is None
            or self._doc_column != name
            or (self._documents.n_segments != core.n_segments)
        ):
            labels = None if name is None else columns[name].labels
            self._documents = DocumentIndex(labels, core.n_segments)
            self._doc_column = name
        return self._documents

    # -- painting the spans ------------------------------------------------------------------------

    def _paint_text(self, painter: QPainter, view: AnnotatedText) -> None:
        c = self.controller
        ws = c.workspace
        if ws is None or view.segment is None or view.system is None:
            return
        if not 0 <= view.system < len(ws.systems):
            return
        dark = is_dark_palette(self.palette())
        hover = view.hovered_word()
        if hover is not None:
            color = self.palette().color(QPalette.ColorRole.PlaceholderText)
            painter.save()
            painter.setPen(QPen(color, 1.0, Qt.PenStyle.DotLine))
            for rect in range_rects(view.document(), view.utf16(hover[0]), view.utf16(hover[1])):
                painter.drawRoundedRect(rect.adjusted(-1, 0, 1, 0), 2, 2)
            painter.restore()
        spans = [s for s in ws.spans(ws.systems[view.system], view.segment) if s.side is view.side]
        if not spans:
            return
        try:
            line = c.text_of(view.segment, view.system, view.side)
        except LookupError:
            return
        paint_spans(painter, view.document(), line, spans, dark, shown=len(view.plain_text()))

    # -- slots -------------------------------------------------------------------------------------

    @Slot()
    def _on_attached(self) -> None:
        self._documents = None
        session = self.host.session
        if session is not self._session:
            if self._session is not None:
                with contextlib.suppress(RuntimeError, TypeError):  # it was deleted
                    self._session.labels_changed.disconnect(self._on_labels_changed)
            self._session = session
            if session is not None:
                session.labels_changed.connect(self._on_labels_changed)
        self.refresh()

    @Slot(str)
    def _on_labels_changed(self, _name: str) -> None:
        self._documents = None
        self.refresh()

    @Slot()
    def _on_annotations_changed(self) -> None:
        if not self.isVisible():
            return
        self.tools.refresh_errors()
        self.tools.refresh_draft()
        for view in (self.source_text, self.target_text):
            view.viewport().update()

    @Slot()
    def _on_draft_changed(self) -> None:
        if self.isVisible():
            self._draft_timer.start()

    @Slot()
    def _on_draft_timer(self) -> None:
        if self.isVisible():
            self.tools.refresh_draft()

    @Slot(str)
    def _on_message(self, text: str) -> None:
        self.hint.setText(text or " ")

    @Slot()
    def _on_pane_rendered(self) -> None:
        if self.isVisible() and self.evidence_shown():
            target = self.controller.target()
            if target is not None:
                self._fill_texts(*target)

    @Slot(int)
    def _on_system_chosen(self, index: int) -> None:
        c = self.controller
        if 0 <= index != c.system:
            c.move_system(index - c.system)

    @Slot(int)
    def _on_context_chosen(self, segment: int) -> None:
        self.controller.go_to_segment(segment)

    @Slot(int)
    def _on_text_clicked(self, index: int) -> None:
        view = self.sender()
        if isinstance(view, AnnotatedText):
            self.controller.selecting.use_surface(self)
            self.controller.selecting.pick_word(view.side, index)

    @Slot()
    def _on_text_dragged(self) -> None:
        view = self.sender()
        if isinstance(view, AnnotatedText):
            self.controller.selecting.use_surface(self)
            self.controller.selecting.snap(view.side)

    @Slot()
    def _on_text_focused(self) -> None:
        view = self.sender()
        if isinstance(view, AnnotatedText):
            self.controller.selecting.use_surface(self)
            self.controller.selecting.set_side(view.side)

    @Slot()
    def _on_text_selection(self) -> None:
        view = self.sender()
        if isinstance(view, AnnotatedText) and view.segment is not None:
            self.controller.selecting.moved(view.side, by_user=view.hasFocus())

    @Slot(bool)
    def _on_evidence_toggled(self, shown: bool) -> None:
        self.host.detail_pane.flush()  # the evidence follows the pane's row
        cache = self._detail_cache()
        if cache is not None and shown:
            cache.resume()
        target = self.controller.target()
        if target is not None:
            self._fill_texts(*target)
        self._fit_context()
        self.controller.say(
            QCoreApplication.translate(
                "AnnotationView",
                "Metric evidence shown: the references with this output's matches, and why it "
                "scores so (V hides it).",
            )
            if shown
            else ""
        )
        self.controller.selecting.refocus()

    @Slot()
    def _on_table_clicked(self) -> None:
        self._catch_up()
        window = self.parentWidget()
        if window is not None:
            window.raise_()
            window.activateWindow()

    # -- events ------------------------------------------------------------------------------------

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        self.controller.selecting.use_surface(self)
        self.refresh()

    def closeEvent(self, event: QCloseEvent) -> None:
        self._catch_up()
        self.host.settings.setValue(GEOMETRY_KEY, self.saveGeometry())
        self.controller.selecting.use_surface(None)
        super().closeEvent(event)

    def hideEvent(self, event: QEvent) -> None:  # type: ignore[override]
        super().hideEvent(event)  # type: ignore[arg-type]
        self._catch_up()
        if self.controller.selecting.surface is self:
            self.controller.selecting.use_surface(None)

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        if self.isVisible():
            self._fit_context()

    def changeEvent(self, event: QEvent) -> None:
        super().changeEvent(event)
        if event.type() == QEvent.Type.ActivationChange and not self.isActiveWindow():
            self._catch_up()  # the annotator went to another window
        if event.type() in (QEvent.Type.PaletteChange, QEvent.Type.ApplicationPaletteChange):
            self._restyle()
            self.tools.restyle()
            if self.isVisible():
                self.refresh()

    def _restyle(self) -> None:
        palette = self.palette()
        accent = palette.color(QPalette.ColorRole.Highlight).name()
        base = palette.color(QPalette.ColorRole.Base).name()
        window = palette.color(QPalette.ColorRole.Window)
        shade = QColor(window).darker(106) if not is_dark_palette(palette) else window.lighter(118)
        self.current.setStyleSheet(
            f"QFrame#current-row {{ border: 2px solid {accent}; border-radius: 6px; "
            f"background: {base}; }}"
        )
        for row in (*self.before_rows, *self.after_rows):
            row.setStyleSheet(
                f"QFrame#context-row {{ border-radius: 4px; background: {shade.name()}; }}"
            )
        self.target_caption.setStyleSheet(f"color: {accent};")
        self.findChild(QFrame, "view-header").setStyleSheet(
            f"QFrame#view-header {{ border-bottom: 1px solid {shade.darker(115).name()}; }}"
        )
