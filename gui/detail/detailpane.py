"""The detail pane: one row in full, with its highlights and a "why this score" breakdown.

Source, references and outputs are stacked, each in a read-only text view holding the original
text with the same highlights as the table, in the mode chosen with the pane's mode switch (the
scoring configuration's highlight modes, see :meth:`ScoringConfig.highlight_modes
<core.scoring.config.ScoringConfig.highlight_modes>`). Under every output the pane paints core's
breakdown blocks (:meth:`RowDetail.breakdown <core.scoring.detail.RowDetail.breakdown>`): one or
more per scored metric, side by side.

Hovering an output lights up the reference text it was paired with in the current mode's layer
(:meth:`HighlightLayer.links <core.metrics.base.HighlightLayer.links>`, character spans) and
names the references in a label under the text views. A metric whose detail could not be
computed for the row (``RowDetail.notes``) is named with the reason above the texts.

When the references show one system's matches (:meth:`DetailPane.set_reference_system`) and
that system is not the baseline (:meth:`DetailPane.set_baseline`), the references also mark what
it matched and the baseline did not, and the reverse, and its output marks the text that earned
those gains (:mod:`core.scoring.contrast`); the legend and the captions name both systems.
"""

from __future__ import annotations

import bisect
from collections.abc import Callable, Mapping, Sequence

from PySide6.QtCore import QCoreApplication, QEvent, Qt, QTimer, Signal, Slot
from PySide6.QtGui import QPainter
from PySide6.QtWidgets import (
    QApplication,
    QComboBox,
    QFrame,
    QHBoxLayout,
    QLabel,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)

from matchlight.core.metrics.base import Block, HighlightMode, Range
from matchlight.core.metrics.registry import METRICS
from matchlight.core.scoring.config import ScoringConfig
from matchlight.core.scoring.contrast import CONTRAST_KINDS, Contrast
from matchlight.core.scoring.detail import RowDetail
from matchlight.gui.detail.breakdown import BreakdownView
from matchlight.gui.detail.segmenttext import Section, SegmentText, Span
from matchlight.gui.highlight.palette import (
    DEFAULT_MAX_LEVEL,
    LegendWidget,
    is_dark_palette,
)
from matchlight.gui.highlight.ranges import (
    find_mode,
    hypothesis_ranges,
    range_kinds,
    reference_ranges,
    row_marks,
)
from matchlight.gui.highlight.termarks import TerTooltips, edit_layer, paint_ter_marks

__all__ = ["DEFER_MS", "DetailPane", "HypothesisOverlay", "SegmentText"]

# ``paint(painter, view, segment, system)``: draws over a hypothesis view once its text is
# painted (error spans); the painter is in document coordinates.
HypothesisOverlay = Callable[[QPainter, "SegmentText", int, int], None]
# How long the moves must pause before a deferred row is put in (see DetailPane.defer_while).
DEFER_MS = 150


def _containing(ranges: Sequence[Range], starts: Sequence[int], index: int) -> Range | None:
    """The range of ``ranges`` (sorted, with their ``starts``) that covers ``index``."""
    i = bisect.bisect_right(starts, index) - 1
    if i >= 0 and ranges[i][0] <= index < ranges[i][1]:
        return ranges[i]
    return None


# -- the pane -----------------------------------------------------------------------------------


class DetailPane(QWidget):
    """Everything about the selected row.

    Signals:
        mode_changed(str key): the highlight mode changed (the pane's switch, :meth:`set_mode`
            or a configuration without the previous mode).
        span_hovered(int system, int start, int end): the mouse is over ``start:end`` of system
            ``system``'s output (a unit of the current mode's layer); (-1, -1, -1) when it left.
        hypothesis_cursor_changed(int system): the text cursor or the selection in system
            ``system``'s output moved (to select error spans).
        rendered(): the texts were filled again (another row, mode, setting or look).
    """

    mode_changed = Signal(str)
    span_hovered = Signal(int, int, int)
    hypothesis_cursor_changed = Signal(int)
    rendered = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._detail: RowDetail | None = None
        self._config = ScoringConfig()
        self._modes: tuple[HighlightMode, ...] = ()
        self._mode: HighlightMode | None = None
        self._dark: bool | None = None
        self._reference_system: int | None = None
        self._baseline: int | None = None
        self._reference_names: tuple[str, ...] = ()
        # Hover: (system, index) under the mouse, what is lit, and per-row lookups.
        self._hover: tuple[int, int] | None = None
        self._hover_span: tuple[int, int, int] | None = None
        self._linked: dict[int, list[Span]] = {}
        self._hyp_ranges: list[tuple[list[Range], list[int]]] = []
        self._rendering = False
        self._links: dict[tuple[int, int], Sequence[tuple[Span, Span]]] = {}
        self._overlay: HypothesisOverlay | None = None

        outer = QVBoxLayout(self)
        outer.setContentsMargins(4, 4, 4, 4)
        outer.setSpacing(4)
        self.title = QLabel(
            QCoreApplication.translate("DetailPane", "Select a row to see its matches."), self
        )
        self.title.setTextFormat(Qt.TextFormat.PlainText)
        title_font = self.title.font()
        title_font.setBold(True)
        title_font.setPointSizeF(title_font.pointSizeF() * 1.15)
        self.title.setFont(title_font)
        self.mode_combo = QComboBox(self)
        self.mode_combo.setObjectName("highlight-mode")
        self.mode_combo.setToolTip(
            QCoreApplication.translate(
                "DetailPane", "What the highlights show: the matches of one metric"
            )
        )
        self.mode_combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
        mode_label = QLabel(QCoreApplication.translate("DetailPane", "Highlight:"), self)
        mode_label.setBuddy(self.mode_combo)
        header = QHBoxLayout()
        header.setContentsMargins(0, 0, 0, 0)
        header.addWidget(self.title, 1)
        header.addWidget(mode_label)
        header.addWidget(self.mode_combo)
        self.legend = LegendWidget(self)
        self.notes_label = QLabel(self)
        self.notes_label.setObjectName("notes")
        self.notes_label.setTextFormat(Qt.TextFormat.PlainText)
        self.notes_label.setWordWrap(True)
        self.notes_label.hide()
        self.link_label = QLabel(" ", self)
        self.link_label.setTextFormat(Qt.TextFormat.PlainText)
        self.link_label.setWordWrap(True)
        self.link_label.setToolTip(
            QCoreApplication.translate(
                "DetailPane", "Hover a word of a system output to see where it matched."
            )
        )
        self._scroll = QScrollArea(self)
        self._scroll.setWidgetResizable(True)
        self._scroll.setFrameShape(QFrame.Shape.NoFrame)
        self._body = QWidget()
        self._body_layout = QVBoxLayout(self._body)
        self._body_layout.setContentsMargins(0, 0, 0, 0)
        self._body_layout.setSpacing(2)
        self._body_layout.addStretch(1)
        self._scroll.setWidget(self._body)
        outer.addLayout(header)
        outer.addWidget(self.legend)
        outer.addWidget(self.notes_label)
        outer.addWidget(self._scroll, 1)
        outer.addWidget(self.link_label)

        self._source_section: Section | None = None
        self._ref_sections: list[Section] = []
        self._sys_sections: list[Section] = []
        self._revealing: int | None = None
        self._reveal_timer = QTimer(self)
        self._reveal_timer.setSingleShot(True)
        self._reveal_timer.setInterval(0)
        self._reveal_timer.timeout.connect(self._reveal_now)
        # Asked for every new row: True while the pane is not where the user works (the
        # annotation view is in front, its evidence hidden); the row is then put in once
        # the moves pause, not at every step of a run of them.
        self.defer_while: Callable[[], bool] = lambda: False
        self._waiting: tuple[RowDetail | None] | None = None
        self._defer_timer = QTimer(self)
        self._defer_timer.setSingleShot(True)
        self._defer_timer.timeout.connect(self.flush)
        self._set_modes(self._config.highlight_modes())
        self.mode_combo.currentIndexChanged.connect(self._on_mode_chosen)

    # -- public API -------------------------------------------------------------------------

    def detail(self) -> RowDetail | None:
        """The row shown, or about to be (see :attr:`defer_while`)."""
        return self._detail if self._waiting is None else self._waiting[0]

    def show_row(self, detail: RowDetail | None) -> None:
        """Show one row (None: nothing selected). The output that has the keyboard focus (the
        one being annotated) stays in view. While :attr:`defer_while` says so, the row is put
        in once the moves pause (:data:`DEFER_MS`)."""
        if detail is not None and self.defer_while():
            self._waiting = (detail,)
            self._defer_timer.start(self.defer_ms())
            return
        self._waiting = None
        self._defer_timer.stop()
        self._show(detail)

    def defer_ms(self) -> int:
        """How long the moves must pause before a deferred row is put in (ms); the table
        behind the annotation view waits as long."""
        return DEFER_MS

    @Slot()
    def flush(self) -> None:
        """Put in now the row whose showing was deferred, if there is one."""
        waiting, self._waiting = self._waiting, None
        self._defer_timer.stop()
        if waiting is not None:
            self._show(waiting[0])

    def _show(self, detail: RowDetail | None) -> None:
        self._clear_hover()
        self._detail = detail
        self._rebuild_sections()
        self._render()
        focused = QApplication.focusWidget()
        for s, section in enumerate(self._sys_sections):
            if section.view is focused:
                self.reveal_hypothesis(s)

    def reveal_hypothesis(self, system: int) -> None:
        """Scroll the pane so that ``system``'s output (its caption and text) is in view: the
        output being annotated, whichever system it is."""
        if not 0 <= system < len(self._sys_sections):
            return
        self._revealing = system
        self._reveal_now()
        # Texts just put in change their heights when the layout runs: once more after it.
        self._reveal_timer.start()

    @Slot()
    def _reveal_now(self) -> None:
        system = self._revealing
        if system is None or not 0 <= system < len(self._sys_sections):
            return
        section = self._sys_sections[system]
        layout = self._body.layout()
        if layout is not None:
            layout.activate()
        self._scroll.ensureWidgetVisible(section.view, 0, 0)
        self._scroll.ensureWidgetVisible(section.caption, 0, 0)

    def evidence_view(self, parent: QWidget | None = None) -> QWidget:
        """A view of one output's metric evidence in this pane's row (the references with its
        matches, its scores and breakdown), for the annotation view's evidence toggle."""
        from matchlight.gui.detail.evidence import EvidenceView  # it imports this module

        return EvidenceView(self, parent)

    def scores_caption(self, system: int) -> str:
        """``name — BLEU 23.4 · ...``: the caption over ``system``'s output ("" without a row)."""
        detail = self._detail
        if detail is None or not 0 <= system < len(detail.systems):
            return ""
        return self._scores_caption(detail, system)

    def reference_names(self) -> list[str]:
        """The names of the row's references, as the captions give them."""
        return self._all_ref_names()

    def config(self) -> ScoringConfig:
        return self._config

    def set_config(self, config: ScoringConfig) -> None:
        """The scoring settings: their highlight modes, and the scores named in the captions."""
        self._config = config
        self._set_modes(config.highlight_modes())
        self._render()

    def modes(self) -> tuple[HighlightMode, ...]:
        """The highlight modes offered by the switch, in order."""
        return self._modes

    def mode(self) -> str:
        """The key of the current highlight mode (``""`` when there is none)."""
        return "" if self._mode is None else self._mode.key

    def set_mode(self, mode: str) -> None:
        """Show the layer ``mode`` (a key of :meth:`modes`; ValueError otherwise)."""
        chosen = find_mode(self._modes, mode)
        if chosen == self._mode:
            return
        self._mode = chosen
        self._select_in_combo()
        self._render()
        self.mode_changed.emit(chosen.key)

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

    def reference_system(self) -> int | None:
        return self._reference_system

    def baseline(self) -> int | None:
        return self._baseline

    def set_baseline(self, index: int | None) -> None:
        """The system whose matches the reference system's are contrasted with (None: no
        gain and loss marks)."""
        if index == self._baseline:
            return
        self._baseline = index
        self._render()

    def set_reference_names(self, names: Sequence[str]) -> None:
        self._reference_names = tuple(names)
        self._render()

    def breakdown(self, system: int) -> tuple[Block, ...]:
        """The "why this score" blocks shown for ``system`` (core's)."""
        if self._detail is None:
            raise LookupError("no row is shown")
        return self._detail.breakdown(system, self._all_ref_names())

    def breakdown_text(self, system: int) -> str:
        """The breakdown of ``system`` as displayed, in plain text."""
        view = self._sys_sections[system].breakdown
        return "" if view is None else view.text()

    def breakdown_view(self, system: int) -> BreakdownView | None:
        return self._sys_sections[system].breakdown

    def notes(self) -> str:
        """What the pane says about metrics whose detail is missing ("" when none is)."""
        return self.notes_label.text() if self.notes_label.isVisibleTo(self) else ""

    def source_view(self) -> SegmentText | None:
        return None if self._source_section is None else self._source_section.view

    def reference_view(self, reference: int) -> SegmentText:
        return self._ref_sections[reference].view

    def hypothesis_view(self, system: int) -> SegmentText:
        return self._sys_sections[system].view

    def caption(self, kind: str, index: int = 0) -> str:
        """The caption over a view: ``kind`` is ``source``, ``reference`` or ``hypothesis``."""
        if kind == "source":
            return "" if self._source_section is None else self._source_section.caption.text()
        sections = self._ref_sections if kind == "reference" else self._sys_sections
        return sections[index].caption.text()

    def set_hypothesis_overlay(self, paint: HypothesisOverlay | None) -> None:
        """Draw ``paint(painter, view, segment, system)`` over every output view (None: stop)."""
        self._overlay = paint
        self.update_hypothesis_views()

    def update_hypothesis_views(self) -> None:
        """Repaint the output views (their overlay changed)."""
        for section in self._sys_sections:
            section.view.viewport().update()

    def _paint_overlay(self, painter: QPainter, view: SegmentText) -> None:
        system = view.property("system")
        if self._detail is None or not isinstance(system, int):
            return
        if edit_layer(self._detail, self.mode()) is not None:  # TER's shifts and gaps
            paint_ter_marks(
                painter, view.document(), view.plain_text(), view.ranges(), self.is_dark()
            )
        if self._overlay is not None:
            self._overlay(painter, view, self._detail.segment, system)

    def hovered_span(self) -> tuple[int, int, int] | None:
        """(system, start, end) of the output text under the mouse, or None."""
        return self._hover_span

    def linked_spans(self) -> dict[int, list[Span]]:
        """Per reference: the character spans lit up for the hovered output text."""
        return {r: list(spans) for r, spans in self._linked.items()}

    def hover_at(self, system: int, index: int | None) -> None:
        """Light up where character ``index`` of ``system``'s output matched, in the current
        mode (None or -1 clears); what hovering does."""
        detail = self._detail
        if detail is None or index is None or index < 0 or self._mode is None:
            self._clear_hover()
            return
        if not 0 <= system < len(detail.systems):
            raise IndexError(f"system {system} out of range")
        if not 0 <= index < len(detail.outputs[system]):
            raise IndexError(f"character {index} out of range for system {system}")
        if self._hover == (system, index):
            return
        layer = detail.layer(self._mode.key)
        ranges, starts = self._hyp_ranges[system]
        unit = _containing(ranges, starts, index)
        marks: set[Span] = set()
        linked: dict[int, list[Span]] = {}
        if layer is not None:
            for r in range(len(detail.references)):
                key = (system, r)
                links = self._links.get(key)
                if links is None:
                    links = self._links[key] = layer.links(system, r)
                partners: set[Span] = set()
                for hyp, ref in links:
                    if hyp[0] <= index < hyp[1]:
                        marks.add(hyp)
                        partners.add(ref)
                if partners:
                    linked[r] = sorted(partners)
        if not marks and unit is not None:
            marks.add((unit[0], unit[1]))
        if not marks:
            self._clear_hover()
            return
        self._clear_hover(emit=False)
        self._hover = (system, index)
        start, end = min(a for a, _ in marks), max(b for _, b in marks)
        self._hover_span = (system, start, end)
        self._sys_sections[system].view.mark(sorted(marks))
        for r, section in enumerate(self._ref_sections):
            section.view.mark(linked.get(r, []))
        self._linked = linked
        self.link_label.setText(self._link_text(system, start, end, unit, linked))
        self.span_hovered.emit(system, start, end)

    # -- building -----------------------------------------------------------------------------

    def _link_text(
        self, system: int, start: int, end: int, unit: Range | None, linked: dict[int, list[Span]]
    ) -> str:
        detail = self._detail
        if detail is None:
            return " "
        text = detail.outputs[system][start:end]
        if len(text) > 60:
            text = text[:60] + "…"
        kind = None if unit is None else unit[2]
        what = []
        if kind == "match" and unit is not None and unit[3] > 1:
            what.append(
                QCoreApplication.translate("DetailPane", "part of a matched {0}-gram").format(
                    unit[3]
                )
            )
        elif kind == "lcs":
            what.append(
                QCoreApplication.translate("DetailPane", "in the longest common subsequence")
            )
        if linked:
            where = ", ".join(
                self._ref_name(r) + (f" ({len(s)}×)" if len(s) > 1 else "")
                for r, s in linked.items()
            )
            what.append(QCoreApplication.translate("DetailPane", "matched in {0}").format(where))
        elif kind not in ("match", "lcs"):
            what.append(QCoreApplication.translate("DetailPane", "not matched in any reference"))
        elif not what:
            what.append(
                QCoreApplication.translate("DetailPane", "matched")
            )  # a layer without links does not say where
        return f"“{text}” ({detail.systems[system]}): {'; '.join(what)}"

    def _ref_name(self, r: int) -> str:
        names = self._reference_names
        return (
            names[r]
            if r < len(names)
            else QCoreApplication.translate("DetailPane", "Ref {0}").format(r + 1)
        )

    def _all_ref_names(self) -> list[str]:
        n = 0 if self._detail is None else len(self._detail.references)
        return [self._ref_name(r) for r in range(n)]

    def _set_modes(self, modes: tuple[HighlightMode, ...]) -> None:
        old = self.mode()
        self._modes = modes
        keys = [m.key for m in modes]
        self._mode = modes[keys.index(old)] if old in keys else (modes[0] if modes else None)
        self.mode_combo.blockSignals(True)
        try:
            self.mode_combo.clear()
            for mode in modes:
                self.mode_combo.addItem(mode.label, mode.key)
        finally:
            self.mode_combo.blockSignals(False)
        self._select_in_combo()
        if self.mode() != old:
            self.mode_changed.emit(self.mode())

    def _select_in_combo(self) -> None:
        index = self.mode_combo.findData(self.mode())
        if index != self.mode_combo.currentIndex():
            self.mode_combo.blockSignals(True)
            self.mode_combo.setCurrentIndex(index)
            self.mode_combo.blockSignals(False)

    def _rebuild_sections(self) -> None:
        detail = self._detail
        want_source = detail is not None and detail.source is not None
        n_refs = 0 if detail is None else len(detail.references)
        n_sys = 0 if detail is None else len(detail.systems)
        layout = self._body_layout
        if want_source and self._source_section is None:
            self._source_section = Section(self._body)
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
            section = Section(self._body)
            at = (1 if self._source_section is not None else 0) + len(self._ref_sections)
            layout.insertWidget(at, section)
            self._ref_sections.append(section)
        while len(self._sys_sections) < n_sys:
            s = len(self._sys_sections)
            section = Section(self._body, with_breakdown=True)
            section.view.hovered.connect(self._on_hypothesis_hovered)
            section.view.setProperty("system", s)
            section.view.cursorPositionChanged.connect(self._on_hypothesis_cursor_changed)
            section.view.selectionChanged.connect(self._on_hypothesis_cursor_changed)
            section.view.set_overlay(self._paint_overlay)
            section.view.viewport().installEventFilter(
                TerTooltips(lambda: (self._detail, self.mode()), section.view.char_at, s, section)
            )
            at = layout.count() - 1  # before the stretch
            layout.insertWidget(at, section)
            self._sys_sections.append(section)

    def _render(self) -> None:
        hover = self._hover
        self._clear_hover()
        self._render_views()
        if hover is not None and self._detail is not None:
            self.hover_at(*hover)
        self.rendered.emit()

    def rendering(self) -> bool:
        """Whether the texts are being put in now (a cursor moved by that is not the user's)."""
        return self._rendering

    def _render_views(self) -> None:
        self._rendering = True
        try:
            self._fill_views()
        finally:
            self._rendering = False

    def _fill_views(self) -> None:
        detail = self._detail
        self._hyp_ranges = []
        self._links = {}
        # No row: no texts of the row shown before under the invitation to pick one.
        self._body.setVisible(detail is not None)
        if detail is None:
            self.title.setText(
                QCoreApplication.translate("DetailPane", "Select a row to see its matches.")
            )
            self.legend.set_mode(None)
            self._show_notes({})
            return
        dark = self.is_dark()
        mode = self._mode
        key = "" if mode is None else mode.key
        max_level = DEFAULT_MAX_LEVEL if mode is None else mode.max_level
        kinds: set[str] = set()
        contrast = row_marks(detail, key, self._reference_system, self._baseline)
        self.title.setText(
            QCoreApplication.translate("DetailPane", "Segment {0}").format(detail.segment + 1)
        )
        if self._source_section is not None and detail.source is not None:
            view = self._source_section.view
            view.set_content(detail.source, [], dark)
            self._source_section.caption.setText(
                QCoreApplication.translate("DetailPane", "Source") + view.truncation_note()
            )
        for r, section in enumerate(self._ref_sections):
            ranges = reference_ranges(detail, r, key, self._reference_system)
            kinds |= range_kinds(ranges)
            missed = sum(1 for _, _, kind, _ in ranges if kind == "missed")
            note = (
                QCoreApplication.translate("DetailPane", " — {0} part no system matched")
                if missed == 1
                else QCoreApplication.translate("DetailPane", " — {0} parts no system matched")
            ).format(missed)
            note = note if missed else ""
            if contrast is not None:
                ranges = ranges + contrast.reference_ranges(r)  # over the layer's own
                note += self._contrast_note(detail, contrast, r)
            section.view.set_content(detail.references[r], ranges, dark, max_level)
            section.caption.setText(self._ref_name(r) + note + section.view.truncation_note())
        names = self._all_ref_names()
        for s, section in enumerate(self._sys_sections):
            ranges = sorted(hypothesis_ranges(detail, s, key))
            kinds |= range_kinds(ranges)
            self._hyp_ranges.append((ranges, [a for a, _, _, _ in ranges]))
            if contrast is not None and s == contrast.system:
                # Painted over the layer's own; hovering reads the layer's own only.
                ranges = ranges + contrast.hypothesis_ranges()
            section.view.set_content(detail.outputs[s], ranges, dark, max_level)
            section.caption.setText(
                self._scores_caption(detail, s) + section.view.truncation_note()
            )
            if section.breakdown is not None:
                section.breakdown.set_blocks(detail.breakdown(s, names))
        compared = None
        if contrast is not None:
            # Explained whenever they are on, also in a row where nothing separates the two.
            kinds |= set(CONTRAST_KINDS)
            compared = (detail.systems[contrast.system], detail.systems[contrast.baseline])
        self.legend.set_mode(mode, kinds, compared)
        self._show_notes(detail.notes)

    @staticmethod
    def _contrast_note(detail: RowDetail, contrast: Contrast, reference: int) -> str:
        """`` — S: 2 parts gained, 1 lost against B``: the marks of one reference, counted."""
        gained, lost = len(contrast.gains[reference]), len(contrast.losses[reference])
        system, baseline = detail.systems[contrast.system], detail.systems[contrast.baseline]
        words = (
            QCoreApplication.translate(
                "DetailPane", " — {system}: {0} part gained, {1} lost against {baseline}"
            )
            if gained == 1
            else QCoreApplication.translate(
                "DetailPane", " — {system}: {0} parts gained, {1} lost against {baseline}"
            )
        )
        return words.format(gained, lost, system=system, baseline=baseline)

    def _scores_caption(self, detail: RowDetail, system: int) -> str:
        """``name — BLEU 23.4 · R-1 50.0 ...``: the headline scores of the configuration."""
        values = detail.values(system)
        parts = []
        for column in self._config.columns():
            value = values.get(column.key)
            if value is None or not column.headline or column.kind != "score":
                continue
            parts.append(f"{column.short} {column.format(value, missing='—')}")
        name = detail.systems[system]
        return f"{name} — {' · '.join(parts)}" if parts else name

    def _show_notes(self, notes: Mapping[str, str]) -> None:
        lines = []
        for key, note in notes.items():
            metric = METRICS.get(key)
            label = metric.label if metric is not None else key
            lines.append(
                QCoreApplication.translate(
                    "DetailPane", "{label}: no highlights or breakdown for this row — {note}"
                ).format(label=label, note=note)
            )
        self.notes_label.setText("\n".join(lines))
        self.notes_label.setVisible(bool(lines))

    # -- hover --------------------------------------------------------------------------------

    def _clear_hover(self, *, emit: bool = True) -> None:
        if self._hover is None and not self._linked:
            return
        for section in (*self._ref_sections, *self._sys_sections):
            section.view.mark([])
        self._hover = None
        self._hover_span = None
        self._linked = {}
        self.link_label.setText(" ")
        if emit:
            self.span_hovered.emit(-1, -1, -1)

    @Slot(int)
    def _on_hypothesis_hovered(self, index: int) -> None:
        view = self.sender()
        detail = self._detail
        if detail is None or not isinstance(view, SegmentText):
            return
        system = view.property("system")
        if not isinstance(system, int) or not 0 <= system < len(detail.systems):
            return
        self.hover_at(system, index)

    @Slot()
    def _on_hypothesis_cursor_changed(self) -> None:
        system = self.sender().property("system") if self.sender() is not None else None
        if isinstance(system, int):
            self.hypothesis_cursor_changed.emit(system)

    @Slot(int)
    def _on_mode_chosen(self, index: int) -> None:
        key = self.mode_combo.itemData(index)
        if isinstance(key, str):
            self.set_mode(key)

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.PaletteChange and self._dark is None:
            self._render()
        super().changeEvent(event)
