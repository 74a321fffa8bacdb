"""Reviewing pre-annotations in the app: bulk rulings, re-attaching lost spans, showing a span.

:class:`AnnotationReview` confirms or rejects the undecided spans of the output being annotated,
of its segment (every system), of its system or of everything, as ONE undo step with the
annotator recorded as the reviewer (core's :func:`~core.annotation.review.plan_review`). It
re-attaches a flagged span (its text was not found again after a file changed) to the text
selected in its output, and shows a span asked for elsewhere (a disagreement in the agreement
dialog): its row, its system, and the span selected once the detail pane shows the row.
"""

from __future__ import annotations

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication, QObject, Slot

from matchlight.core.annotation.history import UpdateSpan
from matchlight.core.annotation.model import ErrorSpan, Side, Status
from matchlight.core.annotation.offsets import trim_spaces
from matchlight.core.annotation.review import FLAGGED, ReviewPlan, ReviewScope, plan_review
from matchlight.gui.annotate.controller import AnnotationController

__all__ = ["AnnotationReview", "describe_scope", "review_message"]


# Reasons core's :func:`~core.annotation.review.plan_review` gives, as the user reads them.
_REASONS = {
    FLAGGED: QT_TRANSLATE_NOOP(
        "AnnotationReview",
        "its text was not found again in the changed file: re-attach it first",
    ),
    "an MQM error span needs a category": QT_TRANSLATE_NOOP(
        "AnnotationReview", "an MQM error span needs a category"
    ),
}


def describe_scope(scope: ReviewScope, system: str | None, segment: int | None) -> str:
    """Words for the user, as core's ``ReviewScope.describe`` says them, translated."""
    if scope is ReviewScope.ALL:
        return QCoreApplication.translate("AnnotationReview", "everywhere")
    if scope is ReviewScope.SYSTEM:
        return QCoreApplication.translate("AnnotationReview", "of {0}").format(system)
    if segment is None:
        return QCoreApplication.translate("AnnotationReview", "of no segment")
    if scope is ReviewScope.SEGMENT:
        return QCoreApplication.translate("AnnotationReview", "of segment {0}").format(segment + 1)
    return QCoreApplication.translate("AnnotationReview", "of {0}, segment {1}").format(
        system, segment + 1
    )


def review_message(
    plan: ReviewPlan, scope: ReviewScope, system: str | None, segment: int | None
) -> str:
    """What a bulk ruling did and what it left, as :meth:`ReviewPlan.message` says it,
    translated (a reason core does not name here is shown in its words)."""
    where = describe_scope(scope, system, segment)
    if not plan.updates and not plan.left:
        return QCoreApplication.translate(
            "AnnotationReview", "No undecided errors {where}."
        ).format(where=where)
    one = plan.count == 1
    if plan.status is Status.CONFIRMED:
        done = (
            QCoreApplication.translate("AnnotationReview", "{0} error confirmed {where}.")
            if one
            else QCoreApplication.translate("AnnotationReview", "{0} errors confirmed {where}.")
        )
    else:
        done = (
            QCoreApplication.translate("AnnotationReview", "{0} error rejected {where}.")
            if one
            else QCoreApplication.translate("AnnotationReview", "{0} errors rejected {where}.")
        )
    text = done.format(plan.count, where=where)
    if plan.left:
        reasons = QCoreApplication.translate("AnnotationReview", "; ").join(
            QCoreApplication.translate("AnnotationReview", "{0} because {why}").format(
                n,
                why=QCoreApplication.translate("AnnotationReview", _REASONS[why])
                if why in _REASONS
                else why,
            )
            for why, n in plan.left.items()
        )
        text += " " + QCoreApplication.translate(
            "AnnotationReview", "{0} left undecided: {reasons}."
        ).format(sum(plan.left.values()), reasons=reasons)
    return text


class AnnotationReview(QObject):
    """Bulk review, re-attaching and showing spans, for one :class:`AnnotationController`."""

    def __init__(self, controller: AnnotationController) -> None:
        super().__init__(controller)
        self.controller = controller
        # (system, segment, start, end) to select once the detail pane shows that output.
        self._pending: tuple[int, int, int, int] | None = None
        controller.draft_changed.connect(self._on_view_may_have_changed)
        controller.target_changed.connect(self._on_view_may_have_changed)
        controller.attached.connect(self._on_attached)

    # -- bulk rulings ---------------------------------------------------------------------------

    def _where(self) -> tuple[str | None, int | None]:
        """(system name, segment) of the output being annotated (None where there is none)."""
        c = self.controller
        names = c.system_names
        name = names[c.system] if 0 <= c.system < len(names) else None
        target = c.target()
        return name, None if target is None else target[0]

    def undecided(self, scope: ReviewScope) -> list[ErrorSpan]:
        """The undecided spans of ``scope`` around the output being annotated."""
        ws = self.controller.workspace
        if ws is None:
            return []
        system, segment = self._where()
        found: list[ErrorSpan]
        if scope is ReviewScope.ALL:
            found = ws.spans()
        elif scope is ReviewScope.SEGMENT:
            found = [] if segment is None else [s for n in ws.systems for s in ws.spans(n, segment)]
        elif system is None or (scope is ReviewScope.OUTPUT and segment is None):
            found = []
        else:
            found = ws.spans(system, segment if scope is ReviewScope.OUTPUT else None)
        return [
            s
            for s in found
            if s.status is Status.UNDECIDED and scope.covers(s, system=system, segment=segment)
        ]

    def describe(self, scope: ReviewScope) -> str:
        return describe_scope(scope, *self._where())

    def plan(self, status: Status, scope: ReviewScope) -> ReviewPlan | None:
        """What ruling ``status`` on ``scope`` would change (None without a comparison)."""
        c = self.controller
        ws = c.workspace
        if ws is None:
            return None
        return plan_review(
            self.undecided(scope),
            status,
            c.annotator,
            typology=ws.typology,
            mode=ws.mode,
            flagged=c.flagged,
        )

    def review(self, status: Status, scope: ReviewScope) -> ReviewPlan | None:
        """Confirm or reject every undecided span of ``scope``: one undo step; the message says
        how many, and how many were left undecided and why. None when nothing was done."""
        c = self.controller
        if c.workspace is None or not c.editable():
            return None
        if scope in (ReviewScope.OUTPUT, ReviewScope.SEGMENT) and self._where()[1] is None:
            c.say(QCoreApplication.translate("AnnotationReview", "Choose a row first."))
            return None
        plan = self.plan(status, scope)
        if plan is None:
            return None
        command = plan.command
        if command is not None and not c.execute(command):
            return None
        c.say(review_message(plan, scope, *self._where()))
        return plan if command is not None else None

    # -- re-attaching ---------------------------------------------------------------------------

    def reattach(self, span_id: str) -> bool:
        """Put the flagged span ``span_id`` on the text selected on its side (its output, or
        its source for a source error; for an omission, at the cursor): one undo step; the span
        is no longer flagged."""
        c = self.controller
        ws = c.workspace
        span = None if ws is None else ws.get(span_id)
        if ws is None or span is None:
            return False
        if span.id not in c.flagged:
            c.say(
                QCoreApplication.translate(
                    "AnnotationReview",
                    "This error was found in its text: there is nothing to re-attach.",
                )
            )
            return False
        if span.system not in ws.systems or not 0 <= span.segment < ws.n_segments:
            c.say(
                QCoreApplication.translate(
                    "AnnotationReview", "The segment of this error is gone: delete it."
                )
            )
            return False
        selected = c.selection()
        system = ws.systems.index(span.system)
        if selected is None or (selected.segment, selected.system) != (span.segment, system):
            c.say(
                QCoreApplication.translate(
                    "AnnotationReview",
                    "Show segment {0} of {1} and select the error's new text, then re-attach it.",
                ).format(span.segment + 1, span.system)
            )
            return False
        if selected.side is not span.side:
            c.say(
                QCoreApplication.translate(
                    "AnnotationReview",
                    "This error is on the source: select its new text in the source (Shift+T "
                    "in the annotation view), then re-attach it.",
                )
                if span.side is Side.SOURCE
                else QCoreApplication.translate(
                    "AnnotationReview",
                    "This error is on the output: select its new text in the output, then "
                    "re-attach it.",
                )
            )
            return False
        start, end = selected.start, selected.end
        if start != end:
            start, end = trim_spaces(selected.line, start, end)
        if start == end and not span.is_omission:
            c.say(
                QCoreApplication.translate(
                    "AnnotationReview",
                    "Select the words «{0}» stood for, then re-attach the error.",
                ).format(span.text)
            )
            return False
        after = span.moved(selected.line, start, end)
        c.flagged.discard(span.id)
        if not c.execute(UpdateSpan(span, after, label="Re-attach error")):
            c.flagged.add(span.id)
            return False
        c.say(
            QCoreApplication.translate("AnnotationReview", "Re-attached to «{0}».").format(
                after.text or "‸"
            )
        )
        return True

    # -- showing a span ---------------------------------------------------------------------------

    def reveal(self, system: str, segment: int, start: int, end: int, side: str = "target") -> bool:
        """Show ``system``'s output of ``segment`` and select ``start:end`` in it (once the
        detail pane shows the row); False with a message when the row cannot be shown."""
        c = self.controller
        names = c.system_names
        if system not in names:
            c.say(
                QCoreApplication.translate(
                    "AnnotationReview", "{0} is not a system of this comparison."
                ).format(system)
            )
            return False
        index = names.index(system)
        c.set_system(index)
        if not c.go_to_segment(segment):
            c.say(
                QCoreApplication.translate(
                    "AnnotationReview",
                    "Segment {0} is hidden by the filter: show all rows to see it.",
                ).format(segment + 1)
            )
            return False
        if side != Side.TARGET.value:
            self._pending = None
            c.say(
                QCoreApplication.translate(
                    "AnnotationReview", "Segment {0}: the error is on the source ({1}–{2})."
                ).format(segment + 1, start, end)
            )
            return True
        self._pending = (index, segment, start, end)
        self._select_pending()
        return True

    def _select_pending(self) -> None:
        pending = self._pending
        if pending is None:
            return
        system, segment, start, end = pending
        if self.controller.target() != (segment, system):
            return
        self._pending = None  # before selecting: the selection itself reports a change
        if not self.controller.select_range(start, end):
            self._pending = pending  # the row's text is not in the pane yet

    @Slot()
    def _on_view_may_have_changed(self) -> None:
        self._select_pending()

    @Slot()
    def _on_attached(self) -> None:
        self._pending = None
