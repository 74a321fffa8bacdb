"""Undo/redo of annotation edits as command objects, replayable on any annotation store.

Each edit is a small frozen command (:class:`AddSpan`, :class:`UpdateSpan`, :class:`DeleteSpan`,
:class:`SetSegmentScore`, :class:`Batch`) that applies itself to an :class:`AnnotationSink` and
knows its inverse. :class:`History` keeps the undo and redo stacks; the session store and the
in-memory :class:`AnnotationSet` are both sinks, so the same commands drive the GUI model and the
file.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from matchlight.core.annotation.model import AnnotationError, ErrorSpan, SegmentScore

__all__ = [
    "AddSpan",
    "AnnotationSet",
    "AnnotationSink",
    "Batch",
    "Command",
    "DeleteSpan",
    "History",
    "SetSegmentScore",
    "SinkUnavailable",
    "UpdateSpan",
    "replay",
]


class SinkUnavailable(Exception):
    """A sink could not store an edit for now (its file is gone, the disk is full...).

    The edit itself is sound: the workspace keeps it in memory as unsaved instead of refusing it
    (:meth:`~matchlight.core.annotation.workspace.AnnotationWorkspace.retry_unsaved`).
    """


@runtime_checkable
class AnnotationSink(Protocol):
    """Anything that stores spans and segment scores (the session store, an AnnotationSet)."""

    def add_span(self, span: ErrorSpan) -> None: ...

    def update_span(self, span: ErrorSpan) -> None: ...

    def delete_span(self, span_id: str) -> None: ...

    def set_segment_score(self, score: SegmentScore) -> None: ...

    def clear_segment_score(self, system: str, segment: int, annotator: str) -> None: ...


class Command(Protocol):
    """An undoable edit: apply it to a sink; its inverse undoes it."""

    @property
    def label(self) -> str: ...

    def apply(self, sink: AnnotationSink) -> None: ...

    def inverse(self) -> Command: ...


@dataclass(frozen=True, slots=True)
class AddSpan:
    span: ErrorSpan
    label: str = "Add error"

    def apply(self, sink: AnnotationSink) -> None:
        sink.add_span(self.span)

    def inverse(self) -> Command:
        return DeleteSpan(self.span, label=self.label)


@dataclass(frozen=True, slots=True)
class DeleteSpan:
    span: ErrorSpan
    label: str = "Delete error"

    def apply(self, sink: AnnotationSink) -> None:
        sink.delete_span(self.span.id)

    def inverse(self) -> Command:
        return AddSpan(self.span, label=self.label)


@dataclass(frozen=True, slots=True)
class UpdateSpan:
    before: ErrorSpan
    after: ErrorSpan
    label: str = "Edit error"

    def __post_init__(self) -> None:
        if self.before.id != self.after.id:
            raise AnnotationError("an update must keep the span's id")

    def apply(self, sink: AnnotationSink) -> None:
        sink.update_span(self.after)

    def inverse(self) -> Command:
        return UpdateSpan(self.after, self.before, label=self.label)


@dataclass(frozen=True, slots=True)
class SetSegmentScore:
    """Set, change or clear (``after=None``) one segment score; ``before`` is what it was."""

    before: SegmentScore | None
    after: SegmentScore | None
    label: str = "Set segment score"

    def __post_init__(self) -> None:
        if self.before is None and self.after is None:
            raise AnnotationError("a segment-score command needs a score before or after")
        if self.before is not None and self.after is not None and self.before.key != self.after.key:
            raise AnnotationError("a segment-score command must keep system, segment and annotator")

    def apply(self, sink: AnnotationSink) -> None:
        if self.after is not None:
            sink.set_segment_score(self.after)
        elif self.before is not None:
            sink.clear_segment_score(*self.before.key)

    def inverse(self) -> Command:
        return SetSegmentScore(self.after, self.before, label=self.label)


@dataclass(frozen=True, slots=True)
class Batch:
    """Several commands as one undo step; one transaction on a sink that offers ``batch()``."""

    commands: tuple[Command, ...]
    label: str = "Edit errors"

    def apply(self, sink: AnnotationSink) -> None:
        batch = getattr(sink, "batch", None)
        context: AbstractContextManager[object] = batch() if callable(batch) else nullcontext()
        with context:
            for command in self.commands:
                command.apply(sink)

    def inverse(self) -> Command:
        return Batch(tuple(c.inverse() for c in reversed(self.commands)), label=self.label)


def replay(commands: Iterable[Command], sink: AnnotationSink) -> None:
    """Apply ``commands`` in order (e.g. a recorded edit log onto a fresh store)."""
    for command in commands:
        command.apply(sink)


class History:
    """Undo and redo stacks of applied commands (at most ``limit`` undo steps)."""

    def __init__(self, limit: int = 1000) -> None:
        if limit < 1:
            raise ValueError("the undo limit must be at least 1")
        self._limit = limit
        self._undo: list[Command] = []
        self._redo: list[Command] = []

    def execute(self, command: Command, sink: AnnotationSink) -> None:
        """Apply ``command`` and make it the next undo step (nothing is recorded if it fails)."""
        command.apply(sink)
        self.record(command)

    def record(self, command: Command) -> None:
        """Make an already-applied ``command`` the next undo step; the redo stack is dropped."""
        self._undo.append(command)
        del self._undo[: -self._limit]
        self._redo.clear()

    def undo(self, sink: AnnotationSink) -> Command | None:
        """Revert the last step; returns it, or None when there is nothing to undo."""
        if not self._undo:
            return None
        command = self._undo[-1]
        command.inverse().apply(sink)
        self._redo.append(self._undo.pop())
        return command

    def redo(self, sink: AnnotationSink) -> Command | None:
        if not self._redo:
            return None
        command = self._redo[-1]
        command.apply(sink)
        self._undo.append(self._redo.pop())
        return command

    def peek_undo(self) -> Command | None:
        """The step :meth:`undo` would revert (None: none)."""
        return self._undo[-1] if self._undo else None

    def peek_redo(self) -> Command | None:
        return self._redo[-1] if self._redo else None

    def moved_to_redo(self) -> None:
        """The last step was reverted by other means (in slices): it is the next redo."""
        if self._undo:
            self._redo.append(self._undo.pop())

    def moved_to_undo(self) -> None:
        """The next redo was re-applied by other means: it is the last step again."""
        if self._redo:
            self._undo.append(self._redo.pop())

    @property
    def can_undo(self) -> bool:
        return bool(self._undo)

    @property
    def can_redo(self) -> bool:
        return bool(self._redo)

    def undo_label(self) -> str | None:
        return self._undo[-1].label if self._undo else None

    def redo_label(self) -> str | None:
        return self._redo[-1].label if self._redo else None

    def clear(self) -> None:
        self._undo.clear()
        self._redo.clear()


class AnnotationSet:
    """An in-memory annotation sink: spans by id and segment scores by (system, segment, annotator).

    It follows the same rules as the session store: adding an existing id, or updating or
    deleting a missing one, raises :class:`AnnotationError`.
    """

    def __init__(
        self, spans: Iterable[ErrorSpan] = (), scores: Iterable[SegmentScore] = ()
    ) -> None:
        self._spans: dict[str, ErrorSpan] = {}
        self._scores: dict[tuple[str, int, str], SegmentScore] = {}
        for span in spans:
            self.add_span(span)
        for score in scores:
            self.set_segment_score(score)

    def add_span(self, span: ErrorSpan) -> None:
        if span.id in self._spans:
            raise AnnotationError(f"span {span.id} already exists")
        self._spans[span.id] = span

    def update_span(self, span: ErrorSpan) -> None:
        if span.id not in self._spans:
            raise AnnotationError(f"no span {span.id} to update")
        self._spans[span.id] = span

    def delete_span(self, span_id: str) -> None:
        if self._spans.pop(span_id, None) is None:
            raise AnnotationError(f"no span {span_id} to delete")

    def set_segment_score(self, score: SegmentScore) -> None:
        self._scores[score.key] = score

    def clear_segment_score(self, system: str, segment: int, annotator: str) -> None:
        self._scores.pop((system, segment, annotator), None)

    def get(self, span_id: str) -> ErrorSpan | None:
        return self._spans.get(span_id)

    def spans(self) -> list[ErrorSpan]:
        return list(self._spans.values())

    def scores(self) -> list[SegmentScore]:
        return list(self._scores.values())

    def score(self, system: str, segment: int, annotator: str) -> SegmentScore | None:
        return self._scores.get((system, segment, annotator))

    def __len__(self) -> int:
        return len(self._spans)

    def __iter__(self) -> Iterator[ErrorSpan]:
        return iter(list(self._spans.values()))
