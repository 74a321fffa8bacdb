"""Two boxes of the annotation panel: bulk review of pre-annotations, and each system's figures.

:class:`ReviewBox` confirms or rejects the undecided errors of this output, this segment, this
system or everywhere in one step (:class:`~gui.annotate.review.AnnotationReview`); it shows
only while some error is undecided. :class:`SystemFigures` lists every system's MQM and ESA
figure beside the number of segments it rests on, warns when the systems were rated on
different segments (their means are then not comparable side by side) and says how many
errors without a category (ESA spans) were kept out of MQM. The numbers are core's
(:meth:`AnnotationWorkspace.mqm_summary`, :meth:`~AnnotationWorkspace.esa_summary`,
:meth:`~AnnotationWorkspace.segment_sets`).
"""

from __future__ import annotations

import math
from collections.abc import Mapping

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication, Qt, QTimer, Slot
from PySide6.QtGui import QBrush, QColor
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QGroupBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from matchlight.core.analysis.scales import corpus_decimals
from matchlight.core.annotation.columns import ESA_COLUMN, MQM_COLUMN
from matchlight.core.annotation.model import Status
from matchlight.core.annotation.mqm import SystemFigure, SystemMQM
from matchlight.core.annotation.review import ReviewScope
from matchlight.core.style.palette import theme
from matchlight.gui.annotate.review import AnnotationReview
from matchlight.gui.highlight.palette import is_dark_palette

__all__ = ["FIGURE_HEADERS", "REVIEW_SCOPES", "ReviewBox", "SystemFigures"]

# The bulk-review scopes, as the combo box and the Annotate menu name them.
REVIEW_SCOPES: tuple[tuple[ReviewScope, str], ...] = (
    (ReviewScope.OUTPUT, QT_TRANSLATE_NOOP("reviewbox", "this output")),
    (ReviewScope.SEGMENT, QT_TRANSLATE_NOOP("reviewbox", "this segment (every system)")),
    (ReviewScope.SYSTEM, QT_TRANSLATE_NOOP("reviewbox", "this system")),
    (ReviewScope.ALL, QT_TRANSLATE_NOOP("reviewbox", "everywhere")),
)
# How long the figures wait for a burst of edits to settle (ms).
_FIGURES_DELAY_MS = 250


# An edit of up to this many outputs recounts them alone; more recount every output.
_RECOUNT_KEYS = 1_000


class ReviewBox(QGroupBox):
    """Confirm or reject the undecided errors of a scope at once (one undo step)."""

    def __init__(self, review: AnnotationReview, parent: QWidget | None = None) -> None:
        super().__init__("Review pre-annotations", parent)
        self.setObjectName("review-box")
        self.review = review
        self.scope_combo = QComboBox()
        self.scope_combo.setObjectName("review-scope")
        for scope, label in REVIEW_SCOPES:
            self.scope_combo.addItem(QCoreApplication.translate("reviewbox", label), scope.value)
        self.scope_combo.setToolTip(
            QCoreApplication.translate("reviewbox", "Which undecided errors the buttons rule on")
        )
        self.scope_combo.currentIndexChanged.connect(self._on_scope_changed)
        self.count_label = QLabel()
        self.count_label.setObjectName("review-count")
        self.count_label.setWordWrap(True)
        self.confirm_button = QPushButton(QCoreApplication.translate("reviewbox", "Confirm all"))
        self.confirm_button.setToolTip(
            QCoreApplication.translate(
                "reviewbox",
                "Confirm every undecided error of the scope (one undo step); errors that still "
                "need a category or a note stay undecided",
            )
        )
        self.confirm_button.clicked.connect(self._on_confirm_clicked)
        self.reject_button = QPushButton(QCoreApplication.translate("reviewbox", "Reject all"))
        self.reject_button.setToolTip(
            QCoreApplication.translate(
                "reviewbox", "Reject every undecided error of the scope (one undo step)"
            )
        )
        self.reject_button.clicked.connect(self._on_reject_clicked)
        row = QHBoxLayout()
        row.addWidget(QLabel(QCoreApplication.translate("reviewbox", "Undecided errors of")))
        row.addWidget(self.scope_combo, 1)
        buttons = QHBoxLayout()
        buttons.addWidget(self.confirm_button)
        buttons.addWidget(self.reject_button)
        buttons.addStretch(1)
        layout = QVBoxLayout(self)
        layout.addLayout(row)
        layout.addWidget(self.count_label)
        layout.addLayout(buttons)
        self._total = 0
        # Undecided errors per output that has any: (system, segment) -> count.
        self._undecided: dict[tuple[str, int], int] = {}
        c = review.controller
        c.annotations_changed.connect(self._on_annotations_changed)
        c.attached.connect(self._on_annotations_changed)
        c.target_changed.connect(self.refresh)
        c.settings_changed.connect(self.refresh)
        self._on_annotations_changed()

    def scope(self) -> ReviewScope:
        return ReviewScope(str(self.scope_combo.currentData()))

    def set_scope(self, scope: ReviewScope) -> None:
        self.scope_combo.setCurrentIndex(self.scope_combo.findData(scope.value))

    @Slot()
    def _on_annotations_changed(self) -> None:
        """Count the undecided errors again: of the outputs an edit changed (the others' counts
        are kept), or of every output after an open, a mode change or an undo of many."""
        c = self.review.controller
        ws, keys = c.workspace, c.changed
        if ws is None:
            self._undecided = {}
        elif keys is None or len(keys) > _RECOUNT_KEYS:
            self._undecided = dict(ws.status_counts(Status.UNDECIDED))
        else:
            for system, segment in keys:
                count = sum(s.status is Status.UNDECIDED for s in ws.spans(system, segment))
                if count:
                    self._undecided[(system, segment)] = count
                else:
                    self._undecided.pop((system, segment), None)
        self._total = sum(self._undecided.values())
        self.refresh()

    @Slot()
    def refresh(self) -> None:
        """Count the undecided errors of the scope; the box shows while any error is undecided."""
        self.setVisible(self._total > 0)
        scope = self.scope()
        here = self._total if scope is ReviewScope.ALL else len(self.review.undecided(scope))
        where = self.review.describe(scope)
        self.count_label.setText(
            QCoreApplication.translate("reviewbox", "{0} undecided {where}; {1} in all.").format(
                here, self._total, where=where
            )
            if scope is not ReviewScope.ALL
            else QCoreApplication.translate("reviewbox", "{0} undecided errors in all.").format(
                here
            )
        )
        c = self.review.controller
        editable = c.workspace is not None and c.editable() and here > 0
        self.confirm_button.setEnabled(editable)
        self.reject_button.setEnabled(editable)

    @Slot(int)
    def _on_scope_changed(self, _index: int) -> None:
        self.refresh()

    @Slot()
    def _on_confirm_clicked(self) -> None:
        self.review.review(Status.CONFIRMED, self.scope())

    @Slot()
    def _on_reject_clicked(self) -> None:
        self.review.review(Status.REJECTED, self.scope())


FIGURE_HEADERS = ("System", "MQM", "Segments", "ESA", "Segments")
_FIGURE_TIPS = (
    "",
    "MQM penalty: the mean over the system's rated segments (lower is better)",
    "How many segments the MQM figure rests on",
    "ESA score: the mean over the system's scored segments (0–100)",
    "How many segments the ESA figure rests on",
)


class SystemFigures(QGroupBox):
    """Every system's MQM and ESA figure with the segments (and raters) it rests on."""

    def __init__(self, review: AnnotationReview, parent: QWidget | None = None) -> None:
        super().__init__("Systems", parent)
        self.setObjectName("system-figures")
        self.controller = review.controller
        self.tree = QTreeWidget()
        self.tree.setObjectName("figures")
        self.tree.setRootIsDecorated(False)
        self.tree.setUniformRowHeights(True)
        self.tree.setHeaderLabels(list(FIGURE_HEADERS))
        header_item = self.tree.headerItem()
        for column, tip in enumerate(_FIGURE_TIPS):
            header_item.setToolTip(column, tip)
        self.tree.setSelectionMode(QAbstractItemView.SelectionMode.NoSelection)
        header = self.tree.header()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        header.setStretchLastSection(False)
        self.warning_label = QLabel()
        self.warning_label.setObjectName("figures-warning")
        self.warning_label.setWordWrap(True)
        self.note_label = QLabel()
        self.note_label.setObjectName("figures-note")
        self.note_label.setWordWrap(True)
        layout = QVBoxLayout(self)
        layout.addWidget(self.tree)
        layout.addWidget(self.warning_label)
        layout.addWidget(self.note_label)
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(_FIGURES_DELAY_MS)
        self._timer.timeout.connect(self.refresh)
        c = self.controller
        c.annotations_changed.connect(self._timer.start)
        c.settings_changed.connect(self._timer.start)
        c.attached.connect(self.refresh)
        self.refresh()

    def rows(
        self,
        mqm: Mapping[str, SystemMQM] | None = None,
        esa: Mapping[str, SystemFigure] | None = None,
    ) -> list[list[str]]:
        """The table as text (:data:`FIGURE_HEADERS`): per system its MQM figure and segments,
        its ESA figure and segments ("—" and "0" for a system nobody rated). ``mqm`` and
        ``esa`` are the workspace's summaries (computed when not given)."""
        ws = self.controller.workspace
        if ws is None:
            return []
        mqm = ws.mqm_summary() if mqm is None else mqm
        esa = ws.esa_summary() if esa is None else esa
        mqm_digits, esa_digits = corpus_decimals(MQM_COLUMN), corpus_decimals(ESA_COLUMN)
        out = []
        for name in ws.systems:
            m, e = mqm.get(name), esa.get(name)
            rated = m is not None and m.segments > 0 and not math.isnan(m.mqm)
            out.append(
                [
                    name,
                    f"{m.mqm:.{mqm_digits}f}" if rated and m is not None else "—",
                    str(m.segments if m is not None else 0),
                    "—" if e is None else f"{e.value:.{esa_digits}f}",
                    str(0 if e is None else e.segments),
                ]
            )
        return out

    @Slot()
    def refresh(self) -> None:
        self._timer.stop()
        ws = self.controller.workspace
        self.tree.clear()
        rated = ws is not None and (len(ws) > 0 or bool(ws.scores()))
        self.setVisible(rated)
        if ws is None or not rated:
            return
        summary = ws.mqm_summary()
        esa = ws.esa_summary()
        for values in self.rows(summary, esa):
            item = QTreeWidgetItem(values)
            for column in range(1, len(values)):
                item.setTextAlignment(
                    column, Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter
                )
            name = values[0]
            tip = []
            m = summary.get(name)
            if m is not None and m.segments:
                tip.append(
                    f"MQM: mean over {m.segments} rated segments, {m.raters} raters, "
                    f"{m.n_errors} errors"
                )
            if m is not None and m.ignored:
                tip.append(f"{m.ignored} errors without a category (ESA) are not in MQM")
            e = esa.get(name)
            if e is not None:
                tip.append(f"ESA: mean over {e.segments} scored segments, {e.raters} raters")
            item.setToolTip(0, "\n".join(tip) or f"{name}: not rated yet")
            self.tree.addTopLevelItem(item)
        for column in range(1, len(FIGURE_HEADERS)):
            self.tree.resizeColumnToContents(column)
        rows = self.tree.topLevelItemCount()
        height = self.tree.sizeHintForRow(0) if rows else 0
        self.tree.setFixedHeight(self.tree.header().sizeHint().height() + rows * height + 6)
        warnings = [
            text
            for text in (
                ws.segment_sets("mqm").warning("MQM"),
                ws.segment_sets("esa").warning("ESA"),
            )
            if text
        ]
        self.warning_label.setText("⚠ " + " ".join(warnings) if warnings else "")
        self.warning_label.setVisible(bool(warnings))
        dark = is_dark_palette(self.palette())
        colour = QColor(theme(dark).worse_text)
        self.warning_label.setStyleSheet(f"color: {colour.name()};")
        for item_index in range(rows):
            item = self.tree.topLevelItem(item_index)
            if item is not None and warnings:
                item.setForeground(2, QBrush(colour))
        ignored = {n: m.ignored for n, m in summary.items() if m.ignored}
        self.note_label.setText(
            QCoreApplication.translate(
                "reviewbox", "Errors without a category (ESA) are kept out of MQM: {0}."
            ).format(", ".join(f"{n} {name}" for name, n in ignored.items()))
            if ignored
            else ""
        )
        self.note_label.setVisible(bool(ignored))
