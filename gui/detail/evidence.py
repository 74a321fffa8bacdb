"""One output's metric evidence, for the annotation view: what it matched, its scores, and why.

The annotation view keeps the output being annotated and its source in front; the metrics'
evidence is one toggle away. :class:`EvidenceView` shows it for one system of the detail pane's
row: the references with the parts that system matched (the pane's highlight mode, the same
ranges as the pane), the system's headline scores, and core's "why this score" breakdown. It
follows the pane (another row, another mode) and holds nothing of its own.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, Qt, Slot
from PySide6.QtGui import QShowEvent
from PySide6.QtWidgets import QLabel, QVBoxLayout, QWidget

from matchlight.core.metrics.base import Range
from matchlight.core.scoring.detail import RowDetail
from matchlight.gui.detail.breakdown import BreakdownView
from matchlight.gui.detail.detailpane import DetailPane
from matchlight.gui.detail.segmenttext import SegmentText
from matchlight.gui.highlight.palette import DEFAULT_MAX_LEVEL, LegendWidget
from matchlight.gui.highlight.ranges import hypothesis_ranges, range_kinds, reference_ranges

__all__ = ["EvidenceView"]


class EvidenceView(QWidget):
    """The references as one system matched them, its scores and its breakdown (one row)."""

    def __init__(self, pane: DetailPane, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("evidence")
        self._pane = pane
        self._segment: int | None = None
        self._system: int | None = None
        self._stale = True
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(3)
        self.caption = QLabel(self)
        self.caption.setObjectName("evidence-caption")
        self.caption.setTextFormat(Qt.TextFormat.PlainText)
        self.caption.setWordWrap(True)
        font = self.caption.font()
        font.setBold(True)
        self.caption.setFont(font)
        self.legend = LegendWidget(self)
        self.waiting = QLabel(self)
        self.waiting.setWordWrap(True)
        self._refs = QVBoxLayout()
        self._refs.setSpacing(2)
        self._ref_views: list[tuple[QLabel, SegmentText]] = []
        self.breakdown = BreakdownView(self)
        layout.addWidget(self.caption)
        layout.addWidget(self.legend)
        layout.addWidget(self.waiting)
        layout.addLayout(self._refs)
        layout.addWidget(self.breakdown)
        layout.addStretch(1)
        pane.rendered.connect(self.refresh)
        self.refresh()

    def set_target(self, segment: int | None, system: int | None) -> None:
        """Show the evidence of ``system``'s output of ``segment`` (once the pane shows it;
        while hidden, when it is shown again)."""
        if (segment, system) != (self._segment, self._system):
            self._segment, self._system = segment, system
            self.refresh()

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        if self._stale:
            self.refresh()

    def output_ranges(self) -> list[Range]:
        """The highlight ranges of the output, in the pane's mode ([] while the pane shows
        another row)."""
        detail = self._shown()
        if detail is None or self._system is None:
            return []
        return sorted(hypothesis_ranges(detail, self._system, self._pane.mode()))

    def reference_text(self, reference: int) -> str:
        return self._ref_views[reference][1].plain_text()

    def _shown(self) -> RowDetail | None:
        detail = self._pane.detail()
        system = self._system
        if detail is None or detail.segment != self._segment or system is None:
            return None
        return detail if 0 <= system < len(detail.systems) else None

    @Slot()
    def refresh(self) -> None:
        if not self.isVisible():
            self._stale = True  # filled when it is shown: the annotator asked for it
            return
        self._stale = False
        detail = self._shown()
        pane = self._pane
        ready = detail is not None and self._system is not None
        self.waiting.setVisible(not ready)
        self.breakdown.setVisible(ready)
        self.legend.setVisible(ready)
        if not ready or detail is None or self._system is None:
            self.caption.setText(QCoreApplication.translate("EvidenceView", "Metric evidence"))
            self.waiting.setText(
                QCoreApplication.translate(
                    "EvidenceView", "Working out the matches of this segment…"
                )
                if self._segment is not None
                else QCoreApplication.translate("EvidenceView", "Choose a segment.")
            )
            for label, view in self._ref_views:
                label.hide()
                view.hide()
            return
        system = self._system
        key = pane.mode()
        names = pane.reference_names()
        self._ensure_references(len(detail.references))
        dark = pane.is_dark()
        kinds: set[str] = set(range_kinds(hypothesis_ranges(detail, system, key)))
        mode = next((m for m in pane.modes() if m.key == key), None)
        max_level = mode.max_level if mode is not None else DEFAULT_MAX_LEVEL
        for r, (label, view) in enumerate(self._ref_views):
            ranges = reference_ranges(detail, r, key, system)
            kinds |= range_kinds(ranges)
            view.set_content(detail.references[r], ranges, dark, max_level)
            name = (
                names[r]
                if r < len(names)
                else QCoreApplication.translate("EvidenceView", "Ref {0}").format(r + 1)
            )
            label.setText(
                QCoreApplication.translate(
                    "EvidenceView", "{reference} — as {system} matched it"
                ).format(reference=name, system=detail.systems[system])
            )
            label.show()
            view.show()
        self.caption.setText(pane.scores_caption(system))
        self.legend.set_mode(mode, kinds)
        self.breakdown.set_blocks(detail.breakdown(system, names))

    def _ensure_references(self, n: int) -> None:
        while len(self._ref_views) < n:
            label = QLabel(self)
            label.setTextFormat(Qt.TextFormat.PlainText)
            view = SegmentText(self)
            view.setObjectName("evidence-reference")
            self._refs.addWidget(label)
            self._refs.addWidget(view)
            self._ref_views.append((label, view))
        while len(self._ref_views) > n:
            label, view = self._ref_views.pop()
            self._refs.removeWidget(label)
            self._refs.removeWidget(view)
            label.deleteLater()
            view.deleteLater()
