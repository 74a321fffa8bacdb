"""The detail pane: one row in full, with its highlights and a "why this score" breakdown.

Source, references and hypotheses are stacked, each in a read-only text view holding the
original text with the same highlights as the table. Under every hypothesis the pane shows how
its scores come about: BLEU's matches and totals per order, the precisions used, the brevity
penalty with c and r, the smoothing and the effective order; ROUGE's P/R/F with the reference
chosen for each type and the LCS length.

Hovering a hypothesis token lights up the reference tokens it was paired with in a BLEU match
(``HypothesisDetail.bleu_links``) and names the references in a label under the text views.
"""

from __future__ import annotations

import bisect
from collections.abc import Sequence

from PySide6.QtCore import QEvent, QPointF, QSize, Qt, Signal, Slot
from PySide6.QtGui import QMouseEvent, QResizeEvent, QTextCursor, QTextOption
from PySide6.QtWidgets import (
    QFrame,
    QLabel,
    QScrollArea,
    QSizePolicy,
    QTextEdit,
    QVBoxLayout,
    QWidget,
)

from matchlight.core.scoring.config import ScoringConfig
from matchlight.core.scoring.detail import HypothesisDetail, RowDetail
from matchlight.gui.detail.breakdown import (
    BleuBreakdown,
    BreakdownView,
    OrderRow,
    RougeBreakdown,
    RougeRow,
    bleu_breakdown,
    breakdown_blocks,
    rouge_breakdown,
)
from matchlight.gui.highlight.palette import (
    LegendWidget,
    Range,
    clip_to,
    fill_document,
    highlight_format,
    is_dark_palette,
    python_index,
    utf16_offsets,
)
from matchlight.gui.highlight.ranges import MODES, hypothesis_ranges, reference_ranges

#: Characters of a text shown in a view of the pane. Laying out a 34,000-character line took
#: 100-200 ms each time a row was shown; the start of such a text is what anyone reads, and
#: the caption says how much is shown.
VIEW_TEXT_LIMIT = 2000


# -- text views ---------------------------------------------------------------------------------


class SegmentText(QTextEdit):
    """A read-only view of one segment that grows to fit its text and reports hovering.

    Signals:
        hovered(int index): the mouse is over character ``index`` (Python index into the
            text), or -1 when it is not over any character.
    """

    hovered = Signal(int)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._text = ""
        self._full_length = 0
        self._ranges: list[Range] = []
        self._dark = False
        self.setReadOnly(True)
        self.setUndoRedoEnabled(False)
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setWordWrapMode(QTextOption.WrapMode.WrapAtWordBoundaryOrAnywhere)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        self.viewport().setMouseTracking(True)
        self.document().setDocumentMargin(3)
        self.setTextInteractionFlags(
            Qt.TextInteractionFlag.TextSelectableByMouse
            | Qt.TextInteractionFlag.TextSelectableByKeyboard
        )

    def plain_text(self) -> str:
        """The text shown (the start of a text longer than :data:`VIEW_TEXT_LIMIT`)."""
        return self._text

    def full_length(self) -> int:
        """Characters of the whole text, shown or not."""
        return self._full_length

    def truncation_note(self) -> str:
        """`` (first N of M characters shown)`` for a cut text, else ``""``."""
        if self._full_length <= len(self._text):
            return ""
        return f" (first {len(self._text):,} of {self._full_length:,} characters shown)"

    def ranges(self) -> list[Range]:
        return list(self._ranges)

    def set_content(self, text: str, ranges: list[Range], dark: bool) -> None:
        """Show ``text`` with ``ranges``; beyond :data:`VIEW_TEXT_LIMIT` characters, its start."""
        self._full_length = len(text)
        text, ranges = clip_to(text, ranges, VIEW_TEXT_LIMIT)
        self._text = text
        self._ranges = ranges
        self._dark = dark
        fill_document(self.document(), text, ranges, dark=dark)
        self.setExtraSelections([])
        self._fit_height()

    def mark(self, spans: Sequence[tuple[int, int]]) -> None:
        """Overlay the "link" format on ``spans`` (Python indices); [] removes it."""
        offsets = utf16_offsets(self._text)
        selections = []
        fmt = highlight_format("link", 0, self._dark)
        shown = len(self._text)
        for start, end in ((a, min(b, shown)) for a, b in spans if a < shown):
            a, b = (start, end) if offsets is None else (offsets[start], offsets[end])
            selection = QTextEdit.ExtraSelection()
            cursor = QTextCursor(self.document())
            cursor.setPosition(a)
            cursor.setPosition(b, QTextCursor.MoveMode.KeepAnchor)
            selection.cursor = cursor  # type: ignore[attr-defined]
            selection.format = fmt  # type: ignore[attr-defined]
            selections.append(selection)
        self.setExtraSelections(selections)

    def char_at(self, point: QPointF) -> int:
        """Python index of the character under a viewport point, -1 if none."""
        offset = QPointF(self.horizontalScrollBar().value(), self.verticalScrollBar().value())
        position = (
            self.document().documentLayout().hitTest(point + offset, Qt.HitTestAccuracy.ExactHit)
        )
        if position < 0 or not self._text:
            return -1
        index = python_index(self._text, position)
        return index if 0 <= index < len(self._text) else -1

    def point_of(self, index: int) -> QPointF:
        """Viewport point in the middle of character ``index`` (for tests and tooltips)."""
        offsets = utf16_offsets(self._text)
        pos = index if offsets is None else offsets[index]
        cursor = QTextCursor(self.document())
        cursor.setPosition(pos)
        left = self.cursorRect(cursor)
        cursor.setPosition(pos + 1)
        right = self.cursorRect(cursor)
        return QPointF((left.left() + right.left()) / 2 + 0.5, left.center().y())

    def _fit_height(self) -> None:
        doc = self.document()
        doc.setTextWidth(max(1, self.viewport().width()))
        height = int(doc.size().height() + 0.999) + 2 * self.frameWidth()
        if height != self.height():
            self.setFixedHeight(height)

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        if event.size().width() != event.oldSize().width():
            self._fit_height()

    def sizeHint(self) -> QSize:
        return QSize(200, self.height())

    def mouseMoveEvent(self, event: QMouseEvent) -> None:
        super().mouseMoveEvent(event)
        self.hovered.emit(self.char_at(event.position()))

    def leaveEvent(self, event: QEvent) -> None:
        super().leaveEvent(event)
        self.hovered.emit(-1)


class _Section(QWidget):
    """A caption, a segment view and (for hypotheses) the breakdown."""

    def __init__(self, parent: QWidget | None = None, *, with_breakdown: bool = False) -> None:
        super().__init__(parent)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 4, 0, 4)
        layout.setSpacing(2)
        self.caption = QLabel(self)
        self.caption.setTextFormat(Qt.TextFormat.PlainText)
        font = self.caption.font()
        font.setBold(True)
        self.caption.setFont(font)
        self.view = SegmentText(self)
        layout.addWidget(self.caption)
        layout.addWidget(self.view)
        self.breakdown: BreakdownView | None = None
        if with_breakdown:
            self.breakdown = BreakdownView(self)
            layout.addWidget(self.breakdown)


# -- the pane -----------------------------------------------------------------------------------


class DetailPane(QWidget):
    """Everything about the selected row.

    Signals:
        token_hovered(int system, int token): the mouse is over BLEU token ``token`` of system
            ``system``'s output; (-1, -1) when it left.
    """

    token_hovered = Signal(int, int)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._detail: RowDetail | None = None
        self._mode = "bleu"
        self._dark: bool | None = None
        self._reference_system: int | None = None
        self._reference_names: tuple[str, ...] = ()
        self._config: ScoringConfig | None = None
        self._hover: tuple[int, int] | None = None
        self._linked: dict[int, list[tuple[int, int]]] = {}

        outer = QVBoxLayout(self)
        outer.setContentsMargins(4, 4, 4, 4)
        outer.setSpacing(4)
        self.title = QLabel("Select a row to see its matches.", self)
        self.title.setTextFormat(Qt.TextFormat.PlainText)
        title_font = self.title.font()
        title_font.setBold(True)
        title_font.setPointSizeF(title_font.pointSizeF() * 1.15)
        self.title.setFont(title_font)
        self.legend = LegendWidget(self)
        self.link_label = QLabel(" ", self)
        self.link_label.setTextFormat(Qt.TextFormat.PlainText)
        self.link_label.setWordWrap(True)
        self.link_label.setToolTip("Hover a word of a system output to see where it matched.")
        self._scroll = QScrollArea(self)
        self._scroll.setWidgetResizable(True)
        self._scroll.setFrameShape(QFrame.Shape.NoFrame)
        self._body = QWidget()
        self._body_layout = QVBoxLayout(self._body)
        self._body_layout.setContentsMargins(0, 0, 0, 0)
        self._body_layout.setSpacing(2)
        self._body_layout.addStretch(1)
        self._scroll.setWidget(self._body)
        outer.addWidget(self.title)
        outer.addWidget(self.legend)
        outer.addWidget(self._scroll, 1)
        outer.addWidget(self.link_label)

        self._source_section: _Section | None = None
        self._ref_sections: list[_Section] = []
        self._sys_sections: list[_Section] = []

    # -- public API -------------------------------------------------------------------------

    def detail(self) -> RowDetail | None:
        return self._detail

    def show_row(self, detail: RowDetail | None) -> None:
        """Show one row (None: nothing selected)."""
        self._clear_hover()
        self._detail = detail
        self._rebuild_sections()
        self._render()

    def set_mode(self, mode: str) -> None:
        if mode not in MODES:
            raise ValueError(f"unknown view mode {mode!r}; expected one of {', '.join(MODES)}")
        self._mode = mode
        self.legend.set_mode(mode)
        self._render()

    def mode(self) -> str:
        return self._mode

    def set_dark(self, dark: bool | None) -> None:
        """Force dark/light tints; None follows the palette."""
        self._dark = dark
        self.legend.set_dark(dark)
        self._render()

    def is_dark(self) -> bool:
        return is_dark_palette(self.palette()) if self._dark is None else self._dark

    def set_reference_system(self, index: int | None) -> None:
        """Show reference matches of one system (None: any system)."""
        self._reference_system = index
        self._render()

    def set_reference_names(self, names: Sequence[str]) -> None:
        self._reference_names = tuple(names)
        self._render()

    def set_config(self, config: ScoringConfig | None) -> None:
        """The scoring settings (names the BLEU flavour in the breakdown)."""
        self._config = config
        if config is not None:
            self.legend.set_max_order(config.max_order)
        self._render()

    def breakdown(self, system: int) -> tuple[BleuBreakdown, RougeBreakdown]:
        """The "why this score" records shown for ``system``."""
        if self._detail is None:
            raise LookupError("no row is shown")
        hyp = self._detail.systems[system]
        return bleu_breakdown(hyp), rouge_breakdown(hyp)

    def breakdown_text(self, system: int) -> str:
        """The breakdown of ``system`` as displayed, in plain text."""
        view = self._sys_sections[system].breakdown
        return "" if view is None else view.text()

    def source_view(self) -> SegmentText | None:
        return None if self._source_section is None else self._source_section.view

    def reference_view(self, reference: int) -> SegmentText:
        return self._ref_sections[reference].view

    def hypothesis_view(self, system: int) -> SegmentText:
        return self._sys_sections[system].view

    def hovered_token(self) -> tuple[int, int] | None:
        """(system, BLEU token) under the mouse, or None."""
        return self._hover

    def linked_spans(self) -> dict[int, list[tuple[int, int]]]:
        """Per reference: the character spans lit up for the hovered token."""
        return {r: list(spans) for r, spans in self._linked.items()}

    def hover_token(self, system: int, token: int | None) -> None:
        """Light up where ``token`` of ``system`` matched (None clears); what hovering does."""
        detail = self._detail
        if detail is None or token is None or token < 0:
            self._clear_hover()
            return
        hyp = detail.systems[system]
        if not 0 <= token < len(hyp.bleu_tokens):
            raise IndexError(f"token {token} out of range for system {system}")
        if self._hover == (system, token):
            return
        self._clear_hover()
        self._hover = (system, token)
        start, end = hyp.bleu_tokens.spans[token]
        self._sys_sections[system].view.mark([(start, end)])
        linked: dict[int, list[tuple[int, int]]] = {}
        for r, ref in enumerate(detail.references):
            partners = [j for i, j in hyp.bleu_links(r) if i == token]
            spans = [ref.bleu_tokens.spans[j] for j in partners]
            self._ref_sections[r].view.mark(spans)
            if spans:
                linked[r] = spans
        self._linked = linked
        word = hyp.text[start:end]
        level = hyp.bleu_highlights[token].level
        if linked:
            where = ", ".join(
                self._ref_name(r) + (f" ({len(s)}×)" if len(s) > 1 else "")
                for r, s in linked.items()
            )
            order = f"part of a matched {level}-gram; " if level > 1 else ""
            self.link_label.setText(f"“{word}” ({hyp.system}): {order}matched in {where}")
        else:
            self.link_label.setText(f"“{word}” ({hyp.system}): not matched in any reference")
        self.token_hovered.emit(system, token)

    # -- building -----------------------------------------------------------------------------

    def _ref_name(self, r: int) -> str:
        names = self._reference_names
        return names[r] if r < len(names) else f"Ref {r + 1}"

    def _rebuild_sections(self) -> None:
        detail = self._detail
        want_source = detail is not None and detail.source is not None
        n_refs = 0 if detail is None else len(detail.references)
        n_sys = 0 if detail is None else len(detail.systems)
        layout = self._body_layout
        if want_source and self._source_section is None:
            self._source_section = _Section(self._body)
            layout.insertWidget(0, self._source_section)
        elif not want_source and self._source_section is not None:
            self._source_section.deleteLater()
            layout.removeWidget(self._source_section)
            self._source_section = None
        while len(self._ref_sections) > n_refs:
            section = self._ref_sections.pop()
            layout.removeWidget(section)
            section.deleteLater()
        while len(self._sys_sections) > n_sys:
            section = self._sys_sections.pop()
            layout.removeWidget(section)
            section.deleteLater()
        while len(self._ref_sections) < n_refs:
            section = _Section(self._body)
            at = (1 if self._source_section is not None else 0) + len(self._ref_sections)
            layout.insertWidget(at, section)
            self._ref_sections.append(section)
        while len(self._sys_sections) < n_sys:
            s = len(self._sys_sections)
            section = _Section(self._body, with_breakdown=True)
            section.view.hovered.connect(self._on_hypothesis_hovered)
            section.view.setProperty("system", s)
            at = layout.count() - 1  # before the stretch
            layout.insertWidget(at, section)
            self._sys_sections.append(section)

    def _render(self) -> None:
        hover = self._hover
        self._clear_hover()
        self._render_views()
        if hover is not None and self._detail is not None:
            self.hover_token(*hover)

    def _render_views(self) -> None:
        detail = self._detail
        if detail is None:
            self.title.setText("Select a row to see its matches.")
            return
        dark = self.is_dark()
        mode = self._mode
        self.title.setText(f"Segment {detail.segment + 1}")
        if self._source_section is not None and detail.source is not None:
            view = self._source_section.view
            view.set_content(detail.source, [], dark)
            self._source_section.caption.setText("Source" + view.truncation_note())
        for r, section in enumerate(self._ref_sections):
            missed = detail.references[r].missed_by_all
            extra = f" — {missed} token{'s' if missed != 1 else ''} missed by every system"
            section.view.set_content(
                detail.references[r].text,
                reference_ranges(detail, r, mode, self._reference_system),
                dark,
            )
            section.caption.setText(
                self._ref_name(r)
                + (extra if mode == "bleu" else "")
                + section.view.truncation_note()
            )
        note = None
        config = self._config
        for s, section in enumerate(self._sys_sections):
            hyp = detail.systems[s]
            bleu, rouge = bleu_breakdown(hyp), rouge_breakdown(hyp)
            rouge_l = next((r.fmeasure for r in rouge.rows if r.rouge_type == "rougeL"), None)
            caption = f"{hyp.system} — BLEU {hyp.sentence_bleu:.1f}"
            if rouge_l is not None:
                caption += f" · R-L {rouge_l:.1f}"
            section.view.set_content(hyp.text, hypothesis_ranges(detail, s, mode), dark)
            section.caption.setText(caption + section.view.truncation_note())
            if config is not None and config.bleu_flavour == "nltk":
                note = (
                    f"The table shows NLTK's sentence BLEU ({config.nltk_smoothing}) = "
                    f"{hyp.sentence_bleu:.2f}; the arithmetic above is sacreBLEU's on the same "
                    "counts."
                )
            elif abs(bleu.shown - bleu.score) > 1e-9:
                note = f"The table shows sentence BLEU {bleu.shown:.2f} (another flavour)."
            else:
                note = None
            if section.breakdown is None:
                continue
            section.breakdown.set_blocks(
                breakdown_blocks(
                    bleu,
                    rouge,
                    [self._ref_name(r) for r in range(len(detail.references))],
                    note,
                )
            )

    # -- hover --------------------------------------------------------------------------------

    def _clear_hover(self) -> None:
        if self._hover is None and not self._linked:
            return
        for section in (*self._ref_sections, *self._sys_sections):
            section.view.mark([])
        self._hover = None
        self._linked = {}
        self.link_label.setText(" ")
        self.token_hovered.emit(-1, -1)

    @Slot(int)
    def _on_hypothesis_hovered(self, index: int) -> None:
        view = self.sender()
        detail = self._detail
        if detail is None or not isinstance(view, SegmentText):
            return
        system = view.property("system")
        if not isinstance(system, int) or not 0 <= system < len(detail.systems):
            return
        self.hover_token(system, _token_at(detail.systems[system], index))

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.PaletteChange and self._dark is None:
            self._render()
        super().changeEvent(event)


def _token_at(hyp: HypothesisDetail, index: int) -> int | None:
    """The BLEU token of ``hyp`` covering character ``index``, or None."""
    if index < 0:
        return None
    spans = hyp.bleu_tokens.spans
    starts = [a for a, _ in spans]
    t = bisect.bisect_right(starts, index) - 1
    if t >= 0 and spans[t][0] <= index < spans[t][1]:
        return t
    return None


__all__ = [
    "VIEW_TEXT_LIMIT",
    "BleuBreakdown",
    "DetailPane",
    "OrderRow",
    "RougeBreakdown",
    "RougeRow",
    "SegmentText",
    "bleu_breakdown",
    "breakdown_blocks",
    "rouge_breakdown",
]
