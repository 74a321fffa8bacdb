"""The annotations of one open comparison, in memory and in step with the session file.

An :class:`AnnotationWorkspace` is what the app (and a script) edits: it holds every span and
segment score indexed by (system, segment), applies undoable commands
(:mod:`~matchlight.core.annotation.history`) first to its sink (the session store, which commits
each one before returning) and then to memory, so a refused edit changes nothing; an edit the
sink cannot take for now (its file is gone, the disk is full) stays in memory as unsaved until
it can be written (:meth:`AnnotationWorkspace.retry_unsaved`) or the work is saved elsewhere; and
keeps the per-segment MQM penalties and ESA scores as ``(S, n)`` arrays up to date for the
score table (:meth:`ComparisonSession.set_column
<matchlight.core.session.comparison.ComparisonSession.set_column>`).

The numbers are core's (:mod:`~matchlight.core.annotation.mqm`): a segment's MQM score is the
mean over its raters of each rater's penalty (:func:`~matchlight.core.annotation.mqm.
segment_mqm`), NaN while no one has rated it for MQM (a confirmed span with a category, or a
segment score / review mark; a rater's ESA spans without category are no MQM rating), so the
mean over a column's rows is :func:`~matchlight.core.annotation.mqm.system_mqm`. A segment's ESA
value is the mean of its 0–100 scores. Whether an output is annotated at all (any confirmed
span or score) is :meth:`AnnotationWorkspace.annotated_mask`.
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from collections.abc import Callable, Generator, Iterable, Iterator, Mapping, Sequence
from contextlib import closing, contextmanager, nullcontext
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from matchlight.core.annotation.filters import in_category
from matchlight.core.annotation.history import (
    AddSpan,
    AnnotationSet,
    AnnotationSink,
    Batch,
    Command,
    DeleteSpan,
    History,
    SetSegmentScore,
    SinkUnavailable,
    UpdateSpan,
)
from matchlight.core.annotation.model import (
    AnnotationError,
    ErrorSpan,
    SegmentScore,
    Severity,
    Status,
)
from matchlight.core.annotation.mqm import (
    DEFAULT_WEIGHTS,
    MQMWeights,
    SegmentSets,
    SystemFigure,
    SystemMQM,
    compare_segment_sets,
    esa_prefill,
    mqm_summary,
    segment_mqm,
    system_esa,
)
from matchlight.core.annotation.typology import (
    DEFAULT_TYPOLOGY,
    AnnotationMode,
    Typology,
    validate_span,
)

__all__ = ["STEP_SIZE", "AnnotationQuery", "AnnotationWorkspace", "Key", "Progress", "touched_keys"]

#: (system name, 0-based segment).
Key = tuple[str, int]
#: (records done, records in all) of a step applied in slices.
Progress = tuple[int, int]
#: Records per slice of a large step (see AnnotationWorkspace.execute_in_steps).
STEP_SIZE = 1000
FloatArray = npt.NDArray[np.float64]
BoolArray = npt.NDArray[np.bool_]
IntArray = npt.NDArray[np.int64]
#: ``observer(keys)``: the annotations of these (system, segment) pairs changed.
Observer = Callable[[frozenset[Key]], None]

_CONFIRMED = Status.CONFIRMED  # one lookup: an enum member's is slow on 100,000 spans
_UNDECIDED = Status.UNDECIDED
_COUNTED = (Status.CONFIRMED,)
_LIVE = (Status.CONFIRMED, Status.UNDECIDED)


def _commands(command: Command) -> Sequence[Command]:
    """The commands ``command`` is made of, batches flattened."""
    if not isinstance(command, Batch):
        return (command,)
    if Batch not in set(map(type, command.commands)):  # flat already, as an import is
        return command.commands
    return [leaf for inner in command.commands for leaf in _commands(inner)]


def touched_keys(command: Command) -> frozenset[Key]:
    """The (system, segment) pairs whose annotations ``command`` changes."""
    keys: set[Key] = set()
    for c in _commands(command):
        if type(c) is AddSpan or type(c) is DeleteSpan:
            keys.add((c.span.system, c.span.segment))
        elif isinstance(c, UpdateSpan):
            keys.add((c.before.system, c.before.segment))
            keys.add((c.after.system, c.after.segment))
        elif isinstance(c, SetSegmentScore):
            for score in (c.before, c.after):
                if score is not None:
                    keys.add((score.system, score.segment))
    return frozenset(keys)


@dataclass(frozen=True, slots=True)
class AnnotationQuery:
    """Which rows to show, by their annotations (all given criteria together).

    ``system`` None means any system. With ``annotated`` True a row is kept when the system's
    output (any output, without a system) is annotated; with False, when it is not (some output
    still to do). ``category`` includes its sub-categories; category and annotator compare
    case-insensitively. Spans of ``statuses`` count (rejected ones never do).
    """

    system: str | None = None
    category: str | None = None
    severity: Severity | None = None
    annotator: str | None = None
    annotated: bool | None = None
    statuses: tuple[Status, ...] = _LIVE

    @property
    def by_span(self) -> bool:
        """Whether the rows need a span of their own that meets the criteria."""
        return (
            self.category is not None
            or self.severity is not None
            or self.annotator is not None
            or tuple(self.statuses) != _LIVE
        )

    def label(self) -> str:
        """A short description for the user (``"Accuracy, major errors of A"``)."""
        parts: list[str] = []
        if self.annotated is True:
            parts.append("annotated")
        elif self.annotated is False:
            parts.append("not annotated")
        what = []
        if tuple(self.statuses) != _LIVE:
            what.append("/".join(s.value for s in self.statuses))
        if self.category is not None:
            what.append(self.category)
        if self.severity is not None:
            what.append(self.severity.value)
        if what or self.annotator is not None:
            errors = " ".join(what) + (" errors" if what else "errors")
            if self.annotator is not None:
                errors += f" by {self.annotator}"
            parts.append(errors)
        text = ", ".join(parts) or "any annotation"
        return text + (f" of {self.system}" if self.system is not None else "")

    def to_dict(self) -> dict[str, Any]:
        return {
            "system": self.system,
            "category": self.category,
            "severity": None if self.severity is None else self.severity.value,
            "annotator": self.annotator,
            "annotated": self.annotated,
            "statuses": [s.value for s in self.statuses],
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> AnnotationQuery:
        severity = data.get("severity")
        return cls(
            system=data.get("system"),
            category=data.get("category"),
            severity=None if severity is None else Severity.parse(str(severity)),
            annotator=data.get("annotator"),
            annotated=data.get("annotated"),
            statuses=tuple(Status(s) for s in data.get("statuses", [s.value for s in _LIVE])),
        )


@dataclass
class _Index:
    """Spans by id and by (system, segment); scores by (system, segment, annotator)."""

    memory: AnnotationSet = field(default_factory=AnnotationSet)
    by_key: dict[Key, dict[str, ErrorSpan]] = field(default_factory=lambda: defaultdict(dict))
    #: How many spans and scores each annotator has (a name leaves with its last record).
    annotators: Counter[str] = field(default_factory=Counter)
    scores_by_key: dict[Key, dict[str, SegmentScore]] = field(
        default_factory=lambda: defaultdict(dict)
    )
    #: The confirmed spans by id: what MQM counts, few beside an import's undecided ones.
    confirmed: dict[str, ErrorSpan] = field(default_factory=dict)
    #: How many undecided spans each output has (none: not there), kept as spans come and go
    #: so that an import's 100,000 need not be walked to count them.
    undecided: Counter[Key] = field(default_factory=Counter)

    def _note_status(self, span: ErrorSpan) -> None:
        if span.status is _CONFIRMED:
            self.confirmed[span.id] = span
        else:
            self.confirmed.pop(span.id, None)

    def _tally(self, span: ErrorSpan, step: int) -> None:
        if span.status is _UNDECIDED:
            key = (span.system, span.segment)
            left = self.undecided[key] + step
            if left > 0:
                self.undecided[key] = left
            else:
                del self.undecided[key]

    # AnnotationSink
    def _count(self, annotator: str, step: int) -> None:
        self.annotators[annotator] += step
        if self.annotators[annotator] <= 0:
            del self.annotators[annotator]

    def add_span(self, span: ErrorSpan) -> None:
        self.memory.add_span(span)
        self.by_key[(span.system, span.segment)][span.id] = span
        self._note_status(span)
        self._tally(span, 1)
        self._count(span.annotator, 1)

    def update_span(self, span: ErrorSpan) -> None:
        old = self.memory.get(span.id)
        self.memory.update_span(span)
        if old is not None:
            self.by_key[(old.system, old.segment)].pop(old.id, None)
            self._tally(old, -1)
            self._count(old.annotator, -1)
        self.by_key[(span.system, span.segment)][span.id] = span
        self._note_status(span)
        self._tally(span, 1)
        self._count(span.annotator, 1)

    def delete_span(self, span_id: str) -> None:
        old = self.memory.get(span_id)
        self.memory.delete_span(span_id)
        self.confirmed.pop(span_id, None)
        if old is not None:
            self.by_key[(old.system, old.segment)].pop(span_id, None)
            self._tally(old, -1)
            self._count(old.annotator, -1)

    def set_segment_score(self, score: SegmentScore) -> None:
        replaced = self.memory.score(*score.key) is not None
        self.memory.set_segment_score(score)
        self.scores_by_key[(score.system, score.segment)][score.annotator] = score
        if not replaced:
            self._count(score.annotator, 1)

    def clear_segment_score(self, system: str, segment: int, annotator: str) -> None:
        existed = self.memory.score(system, segment, annotator) is not None
        self.memory.clear_segment_score(system, segment, annotator)
        self.scores_by_key[(system, segment)].pop(annotator, None)
        if existed:
            self._count(annotator, -1)

    def run(self, command: Command, plan: _Plan | None) -> None:
        """Apply ``command``; with its ``plan`` (a batch of additions, deletions and scores: an
        import, its undo) in bulk, counting the annotators once."""
        if plan is None:
            command.apply(self)
            return
        memory, by_key, counts = self.memory, self.by_key, Counter[str]()
        try:
            for span in plan.deleted:
                old = memory.get(span.id)
                memory.delete_span(span.id)
                self.confirmed.pop(span.id, None)
                if old is not None:
                    by_key[(old.system, old.segment)].pop(old.id, None)
                    self._tally(old, -1)
                    counts[old.annotator] -= 1
            for span in plan.added:
                memory.add_span(span)
                by_key[(span.system, span.segment)][span.id] = span
                if span.status is _CONFIRMED:
                    self.confirmed[span.id] = span
                elif span.status is _UNDECIDED:
                    self.undecided[(span.system, span.segment)] += 1
                counts[span.annotator] += 1
        finally:
            for name, step in counts.items():
                self._count(name, step)
        for score in plan.scores:
            self.set_segment_score(score)
        for key in plan.cleared:
            self.clear_segment_score(*key)


@dataclass
class _Rated:
    """Per (system row, segment): the MQM score, the ESA score (NaN while not rated) and
    whether the output is annotated."""

    mqm: FloatArray
    esa: FloatArray
    annotated: BoolArray

    @classmethod
    def empty(cls, systems: int, segments: int) -> _Rated:
        return cls(
            np.full((systems, segments), np.nan),
            np.full((systems, segments), np.nan),
            np.zeros((systems, segments), np.bool_),
        )


class AnnotationWorkspace:
    """Spans and segment scores of one comparison's systems, with undo/redo and MQM columns.

    ``systems`` are the system names in the comparison's order (the rows of the arrays);
    ``n_segments`` its length. A ``sink`` (the session store) receives every edit before memory
    does; without one the workspace is in memory only (an untitled session before its first
    edit, or a script). ``mode``, ``typology`` and ``weights`` decide which confirmed spans are
    valid and what they weigh; change them with the ``set_*`` methods.
    """

    def __init__(
        self,
        *,
        systems: Sequence[str],
        n_segments: int,
        spans: Iterable[ErrorSpan] = (),
        scores: Iterable[SegmentScore] = (),
        mode: AnnotationMode = AnnotationMode.MQM,
        typology: Typology = DEFAULT_TYPOLOGY,
        weights: MQMWeights = DEFAULT_WEIGHTS,
        annotator: str = "",
        sink: AnnotationSink | None = None,
        history_limit: int = 1000,
    ) -> None:
        if n_segments < 0:
            raise ValueError("a comparison cannot have a negative number of segments")
        self.systems: tuple[str, ...] = tuple(systems)
        if len(set(self.systems)) != len(self.systems):
            raise ValueError("two systems have the same name")
        self._row = {name: s for s, name in enumerate(self.systems)}
        self.n_segments = n_segments
        self.mode = AnnotationMode(mode)
        self.typology = typology
        self.weights = weights
        self.annotator = annotator
        self._sink = sink
        self._unsaved: list[Command] = []
        self._sink_error: SinkUnavailable | None = None
        self._index = _Index()
        self.history = History(history_limit)
        self._observers: list[Observer] = []
        for span in spans:
            self._index.add_span(span)
        for score in scores:
            self._index.set_segment_score(score)
        # The (S, n) arrays of MQM and ESA scores and annotated outputs, made at the first
        # counted rating: until then every output reads as not rated (writing three arrays of
        # 3 x 1M entries was ~60 ms of the GUI thread at every open of a big comparison).
        self._rated: _Rated | None = None
        self._refresh(self._all_keys())

    # -- observing ------------------------------------------------------------------------------

    def subscribe(self, observer: Observer) -> Callable[[], None]:
        """Call ``observer(keys)`` after every change; returns the unsubscribe function."""
        self._observers.append(observer)
        return lambda: self._observers.remove(observer) if observer in self._observers else None

    def _announce(self, keys: frozenset[Key]) -> None:
        for observer in list(self._observers):
            observer(keys)

    # -- the sink -------------------------------------------------------------------------------

    @property
    def sink(self) -> AnnotationSink | None:
        return self._sink

    def set_sink(self, sink: AnnotationSink | None) -> None:
        """Write further edits to ``sink`` (it must already hold what memory holds, unsaved
        edits included: they are no longer pending)."""
        self._sink = sink
        self._unsaved.clear()
        self._sink_error = None

    @property
    def unsaved(self) -> int:
        """How many edits memory holds that the sink does not (it was unavailable)."""
        return len(self._unsaved)

    @property
    def sink_error(self) -> SinkUnavailable | None:
        """Why the sink could not take the unsaved edits, while there are any."""
        return self._sink_error

    def retry_unsaved(self) -> bool:
        """Write the unsaved edits to the sink, in order and in one transaction; True when none
        is left. A sink still unavailable keeps them (and says why in :attr:`sink_error`)."""
        if not self._unsaved or self._sink is None:
            return not self._unsaved
        batch = getattr(self._sink, "batch", None)
        try:
            with batch() if callable(batch) else nullcontext():
                for command in self._unsaved:
                    self._write(command, _Plan.of(command))
        except SinkUnavailable as error:
            self._sink_error = error
            return False
        self._unsaved.clear()
        self._sink_error = None
        return True

    # -- settings -------------------------------------------------------------------------------

    def set_mode(self, mode: AnnotationMode) -> None:
        self.mode = AnnotationMode(mode)

    def set_typology(self, typology: Typology) -> None:
        self.typology = typology

    def set_weights(self, weights: MQMWeights) -> None:
        """New MQM weights: every penalty is computed again (observers hear of every key)."""
        self.weights = weights
        keys = self._all_keys()
        self._refresh(keys)
        self._announce(keys)

    # -- reading --------------------------------------------------------------------------------

    def spans(self, system: str | None = None, segment: int | None = None) -> list[ErrorSpan]:
        """All spans (or one system's, or one system's on one segment) in reading order."""
        if system is not None and segment is not None:
            found: Iterable[ErrorSpan] = self._index.by_key.get((system, segment), {}).values()
        else:
            found = (
                s
                for s in self._index.memory.spans()
                if (system is None or s.system == system)
                and (segment is None or s.segment == segment)
            )
        return sorted(found, key=lambda s: (s.system, s.segment, s.start, s.end, s.created))

    def has_spans(self, system: str, segment: int) -> bool:
        return bool(self._index.by_key.get((system, segment)))

    def get(self, span_id: str) -> ErrorSpan | None:
        return self._index.memory.get(span_id)

    def scores(self) -> list[SegmentScore]:
        return sorted(self._index.memory.scores(), key=lambda s: s.key)

    def score(self, system: str, segment: int, annotator: str | None = None) -> SegmentScore | None:
        """The segment score of ``annotator`` (default: the workspace's annotator)."""
        who = self.annotator if annotator is None else annotator
        return self._index.memory.score(system, segment, who)

    def segment_scores(self, system: str, segment: int) -> list[SegmentScore]:
        return list(self._index.scores_by_key.get((system, segment), {}).values())

    def __len__(self) -> int:
        return len(self._index.memory)

    def annotators(self) -> list[str]:
        """Every annotator with a span or a score, sorted case-insensitively."""
        return sorted(self._index.annotators, key=str.casefold)

    def is_annotated(self, system: str, segment: int) -> bool:
        """A confirmed span or a segment score / review mark (as core's annotated_segments)."""
        if self._index.scores_by_key.get((system, segment)):
            return True
        spans = self._index.by_key.get((system, segment), {})
        return any(s.status is Status.CONFIRMED for s in spans.values())

    def annotated_mask(self, system: str) -> BoolArray:
        """Per segment: is ``system``'s output annotated (a confirmed span or a score)."""
        row = self._system_row(system)
        if self._rated is None:
            return np.zeros(self.n_segments, np.bool_)
        return self._rated.annotated[row].copy()

    def mqm_mask(self, system: str) -> BoolArray:
        """Per segment: has ``system``'s output an MQM score (someone rated it for MQM)."""
        row = self._system_row(system)
        if self._rated is None:
            return np.zeros(self.n_segments, np.bool_)
        return ~np.isnan(self._rated.mqm[row])

    # -- scores ---------------------------------------------------------------------------------

    def segment_penalty(self, system: str, segment: int) -> float:
        """The MQM score of one output, the mean over its raters (NaN while not rated)."""
        row = self._system_row(system)
        if self._rated is None:
            range(self.n_segments)[segment]  # an IndexError as the array's, out of range
            return math.nan
        return float(self._rated.mqm[row, segment])

    def rated_mean(self, system: str) -> tuple[float, int]:
        """The mean MQM score of ``system``'s rated outputs and how many there are (NaN, 0
        when none is), without copying the arrays."""
        row = self._system_row(system)
        if self._rated is None:
            return math.nan, 0
        values = self._rated.mqm[row]
        rated = values[~np.isnan(values)]
        return (float(rated.mean()) if len(rated) else math.nan), len(rated)

    def status_counts(self, status: Status) -> Counter[Key]:
        """How many spans of ``status`` each (system, segment) output has (undecided: kept as
        spans come and go; others: one pass)."""
        if status is _UNDECIDED:
            return Counter(self._index.undecided)
        return Counter((s.system, s.segment) for s in self._index.memory if s.status is status)

    def mqm_values(self) -> FloatArray:
        """``(S, n)`` MQM scores (mean over raters), NaN where an output is not rated (a copy)."""
        if self._rated is None:
            return np.full((len(self.systems), self.n_segments), np.nan)
        return self._rated.mqm.copy()

    def mqm_summary(self) -> dict[str, SystemMQM]:
        """Per system of the comparison with an MQM rating: score, rated segments, raters and
        errors per category and severity (:func:`~matchlight.core.annotation.mqm.mqm_summary`)."""
        row = self._row  # only counted spans matter: leave out the (many) undecided ones here
        spans = [s for s in self._index.confirmed.values() if s.system in row]
        scores = [s for s in self._index.memory.scores() if s.system in row]
        return mqm_summary(spans, scores, weights=self.weights)

    def esa_summary(self) -> dict[str, SystemFigure]:
        """Per system with ESA scores: the mean, and the segments and raters it rests on."""
        return system_esa(s for s in self._index.memory.scores() if s.system in self._row)

    def segment_sets(self, kind: str = "mqm") -> SegmentSets:
        """Whether the systems' ``mqm`` (or ``esa``) scores cover the same segments."""
        if self._rated is None:
            return compare_segment_sets({})
        values = self._rated.mqm if kind == "mqm" else self._rated.esa
        return compare_segment_sets(
            {
                name: set(np.flatnonzero(~np.isnan(values[row])).tolist())
                for name, row in self._row.items()
                if np.any(~np.isnan(values[row]))
            }
        )

    def esa_values(self) -> FloatArray:
        """``(S, n)`` mean ESA score per output, NaN where none was given (a copy)."""
        if self._rated is None:
            return np.full((len(self.systems), self.n_segments), np.nan)
        return self._rated.esa.copy()

    def has_esa_scores(self) -> bool:
        return self._rated is not None and bool(np.any(~np.isnan(self._rated.esa)))

    def prefill(self, system: str, segment: int) -> float:
        """The ESA score suggested from the output's confirmed errors (100 without any): from
        the mean over the raters who marked errors of their penalty, ESA spans weighing by
        their severity."""
        spans = self._index.by_key.get((system, segment), {}).values()
        penalty = segment_mqm(spans, weights=self.weights, severity_only=True)
        return esa_prefill(penalty.get((system, segment), 0.0))

    def _system_row(self, system: str) -> int:
        try:
            return self._row[system]
        except KeyError:
            raise AnnotationError(f"{system!r} is not a system of this comparison") from None

    def _all_keys(self) -> frozenset[Key]:
        keys = {k for k, v in self._index.by_key.items() if v}
        keys |= {k for k, v in self._index.scores_by_key.items() if v}
        return frozenset(keys)

    def _refresh(self, keys: Iterable[Key]) -> None:
        by_key, scores_by_key = self._index.by_key, self._index.scores_by_key
        for system, segment in keys:
            row = self._row.get(system)
            if row is None or not 0 <= segment < self.n_segments:
                continue  # a reference's spans, or a segment the texts no longer have
            spans = by_key.get((system, segment), {}).values()
            scores = scores_by_key.get((system, segment), {}).values()
            if not scores and all(s.status is not _CONFIRMED for s in spans):
                # Nothing counted (undecided or rejected spans only, as an import leaves it).
                if self._rated is not None:  # else it reads as not rated already
                    self._rated.mqm[row, segment] = np.nan
                    self._rated.annotated[row, segment] = False
                    self._rated.esa[row, segment] = np.nan
                continue
            if self._rated is None:
                self._rated = _Rated.empty(len(self.systems), self.n_segments)
            arrays = self._rated
            rated = segment_mqm(spans, scores, weights=self.weights)
            arrays.mqm[row, segment] = rated.get((system, segment), np.nan)
            arrays.annotated[row, segment] = self.is_annotated(system, segment)
            values = [
                s.score
                for s in self._index.scores_by_key.get((system, segment), {}).values()
                if s.score is not None
            ]
            arrays.esa[row, segment] = math.fsum(values) / len(values) if values else np.nan

    # -- filtering ------------------------------------------------------------------------------

    def rows(self, query: AnnotationQuery) -> IntArray:
        """The segments ``query`` keeps, in file order."""
        names = self.systems if query.system is None else (query.system,)
        for name in names:
            self._system_row(name)
        keep = np.ones(self.n_segments, np.bool_)
        if query.annotated is not None:
            masks = [self.annotated_mask(name) for name in names]
            if query.annotated:
                keep &= np.logical_or.reduce(masks) if masks else keep
            else:
                keep &= np.logical_or.reduce([~m for m in masks]) if masks else keep
        if query.by_span:
            hit = np.zeros(self.n_segments, np.bool_)
            wanted = set(names)
            annotator = None if query.annotator is None else query.annotator.casefold()
            for span in self._index.memory.spans():
                if span.system not in wanted or span.status not in query.statuses:
                    continue
                if not 0 <= span.segment < self.n_segments:
                    continue
                if query.severity is not None and span.severity is not query.severity:
                    continue
                if query.category is not None and not in_category(span, query.category):
                    continue
                if annotator is not None and span.annotator.casefold() != annotator:
                    continue
                hit[span.segment] = True
            keep &= hit
        return np.flatnonzero(keep).astype(np.int64)

    # -- editing --------------------------------------------------------------------------------

    def check(self, command: Command) -> None:
        """Raise :class:`AnnotationError` if ``command`` would store an invalid span."""
        for c in _commands(command):
            spans: tuple[ErrorSpan, ...] = ()
            if isinstance(c, AddSpan):
                spans = (c.span,)
            elif isinstance(c, UpdateSpan):
                spans = (c.after,)
            for span in spans:
                self._system_row(span.system)
                if span.status is _CONFIRMED:
                    validate_span(span, self.typology, self.mode)
            if isinstance(c, SetSegmentScore) and c.after is not None:
                self._system_row(c.after.system)

    def _write(self, command: Command, plan: _Plan | None) -> None:
        sink = self._sink
        assert sink is not None
        add_many = getattr(sink, "add_many", None)
        delete_many = getattr(sink, "delete_many", None)
        if plan is None or not callable(add_many) or not callable(delete_many):
            command.apply(sink)
            return
        # An import or its undo: one statement per table, not one per record.
        batch = getattr(sink, "batch", None)
        with batch() if callable(batch) else nullcontext():
            if plan.deleted:
                delete_many([s.id for s in plan.deleted])
            for key in plan.cleared:
                sink.clear_segment_score(*key)
            if plan.added or plan.scores:
                add_many(plan.added, plan.scores)

    def _apply(self, command: Command) -> None:
        self.check(command)
        plan = _Plan.of(command)
        if self._sink is not None:
            # The file first: if it refuses the edit, memory stays as it was. If it cannot take
            # it now (SinkUnavailable), memory keeps it as unsaved, and so does every later edit
            # until the unsaved ones are written (nothing overtakes an unsaved edit).
            if self._unsaved:
                self._unsaved.append(command)
            else:
                try:
                    self._write(command, plan)
                except SinkUnavailable as error:
                    self._unsaved.append(command)
                    self._sink_error = error
        self._index.run(command, plan)
        keys = touched_keys(command)
        self._refresh(keys)
        self._announce(keys)

    def execute(self, command: Command) -> None:
        """Apply ``command`` (file, then memory) and make it the next undo step."""
        self._apply(command)
        self.history.record(command)

    # -- a large step in slices -----------------------------------------------------------------

    def is_large(self, command: Command | None, size: int = STEP_SIZE) -> bool:
        """Whether ``command`` is a batch of more than ``size`` commands (an import, its undo or
        redo): what :meth:`execute_in_steps` and the others apply in slices."""
        return isinstance(command, Batch) and len(command.commands) > size

    def execute_in_steps(self, command: Command, size: int = STEP_SIZE) -> Iterator[Progress]:
        """:meth:`execute` a large batch (:meth:`is_large`) in slices of ``size`` records: a
        generator to run a slice at a time, yielding (done, total). The file gets it in one
        transaction, committed at its last slice (closing the generator before then rolls it
        back); memory, observers and the history see it once it is all applied. Nothing
        else may edit the workspace meanwhile. A progress yielded twice in a row means that
        the next slice is the observers being told (longer than the others)."""
        plan = yield from _Plan.planned_in_steps(command, inverse=False, size=size * 5)
        if plan is None:  # another kind of batch: at once
            self.execute(command)
            yield 1, 1
            return
        yield from self._apply_in_steps(command, plan, size)
        self.history.record(command)

    def undo_in_steps(self, size: int = STEP_SIZE) -> Iterator[Progress]:
        """:meth:`undo` of a large step (:meth:`is_large`), in slices as
        :meth:`execute_in_steps`; the step goes to the redo stack once it is all undone."""
        command = self.history.peek_undo()
        plan = None
        if command is not None:
            plan = yield from _Plan.planned_in_steps(command, inverse=True, size=size * 5)
        if command is None or plan is None:  # nothing, or another kind of step: at once
            self.undo()
            yield 1, 1
            return
        yield from self._apply_in_steps(command, plan, size, inverse=True)
        self.history.moved_to_redo()

    def redo_in_steps(self, size: int = STEP_SIZE) -> Iterator[Progress]:
        """:meth:`redo` of a large step, in slices as :meth:`execute_in_steps`."""
        command = self.history.peek_redo()
        plan = None
        if command is not None:
            plan = yield from _Plan.planned_in_steps(command, inverse=False, size=size * 5)
        if command is None or plan is None:
            self.redo()
            yield 1, 1
            return
        yield from self._apply_in_steps(command, plan, size)
        self.history.moved_to_undo()

    def _apply_in_steps(
        self, command: Command, plan: _Plan, size: int, *, inverse: bool = False
    ) -> Iterator[Progress]:
        size = max(1, size)
        n_spans = len(plan.added) + len(plan.deleted)
        n_keys = n_spans + len(plan.scores) + len(plan.cleared)  # at most: the outputs touched
        total = len(plan.added) + 2 * n_spans + n_keys + 1
        done = 0
        # 1. Checked, as _apply checks (a span of an unknown system, an invalid confirmed one).
        for score in plan.scores:
            self._system_row(score.system)
        for start in range(0, len(plan.added), size):
            for span in plan.added[start : start + size]:
                self._system_row(span.system)
                if span.status is _CONFIRMED:
                    validate_span(span, self.typology, self.mode)
            done += len(plan.added[start : start + size])
            yield done, total
        # 2. The file, in one transaction over the slices.
        sink = self._sink
        if sink is not None:
            if self._unsaved:
                self._unsaved.append(command.inverse() if inverse else command)
            else:
                try:
                    with closing(self._write_in_steps(sink, plan, size)) as writing:
                        for written in writing:  # closed early: the transaction rolls back
                            yield done + min(written, n_spans), total
                except SinkUnavailable as error:
                    self._unsaved.append(command.inverse() if inverse else command)
                    self._sink_error = error
        done += n_spans
        # 3. Memory, then the MQM/ESA arrays of the outputs touched; then the observers.
        for part in plan.slices(size):
            self._index.run(command, part)
            done += len(part.added) + len(part.deleted)
            yield done, total
        keys = list(plan.keys())
        yield done, total
        progress = done
        for start in range(0, len(keys), size):
            self._refresh(keys[start : start + size])
            progress = done + min(start + size, len(keys)) * n_keys // max(1, len(keys))
            yield progress, total
        # The same progress again: the observers come next, in a turn of their own.
        yield progress, total
        self._announce(frozenset(keys))
        yield total, total

    def _write_in_steps(
        self, sink: AnnotationSink, plan: _Plan, size: int
    ) -> Generator[int, None, None]:
        """Write ``plan`` into ``sink`` in one transaction, yielding the spans written so far
        after each slice."""
        add_many = getattr(sink, "add_many", None)
        delete_many = getattr(sink, "delete_many", None)
        batch = getattr(sink, "batch", None)
        with batch() if callable(batch) else nullcontext():
            if not callable(add_many) or not callable(delete_many):
                for span in plan.deleted:
                    sink.delete_span(span.id)
                for key in plan.cleared:
                    sink.clear_segment_score(*key)
                for span in plan.added:
                    sink.add_span(span)
                for score in plan.scores:
                    sink.set_segment_score(score)
                return
            for start in range(0, len(plan.deleted), size):
                delete_many([s.id for s in plan.deleted[start : start + size]])
                yield start + size
            for key in plan.cleared:
                sink.clear_segment_score(*key)
            for start in range(0, len(plan.added), size):
                add_many(plan.added[start : start + size], ())
                yield len(plan.deleted) + start + size
            if plan.scores:
                add_many((), plan.scores)

    def undo(self) -> Command | None:
        """Revert the last step; returns it (None: nothing to undo)."""
        if not self.history.can_undo:
            return None
        return self.history.undo(_Forward(self))

    def redo(self) -> Command | None:
        if not self.history.can_redo:
            return None
        return self.history.redo(_Forward(self))

    # -- conveniences -----------------------------------------------------------------------------

    def add(self, span: ErrorSpan) -> None:
        self.execute(AddSpan(span))

    def update(self, span: ErrorSpan, *, label: str = "Edit error") -> None:
        before = self.get(span.id)
        if before is None:
            raise AnnotationError(f"no span {span.id} to update")
        self.execute(UpdateSpan(before, span, label=label))

    def delete(self, span_id: str) -> None:
        span = self.get(span_id)
        if span is None:
            raise AnnotationError(f"no span {span_id} to delete")
        self.execute(DeleteSpan(span))

    def set_score(
        self, system: str, segment: int, value: float | None, *, annotator: str | None = None
    ) -> None:
        """Set one annotator's score of an output (None: reviewed, no score)."""
        who = self.annotator if annotator is None else annotator
        before = self._index.memory.score(system, segment, who)
        after = SegmentScore(system, segment, who, value)
        self.execute(SetSegmentScore(before, after, label="Set segment score"))

    def clear_score(self, system: str, segment: int, *, annotator: str | None = None) -> None:
        who = self.annotator if annotator is None else annotator
        before = self._index.memory.score(system, segment, who)
        if before is not None:
            self.execute(SetSegmentScore(before, None, label="Clear segment score"))

    def import_records(
        self, spans: Sequence[ErrorSpan], scores: Sequence[SegmentScore] = (), *, label: str
    ) -> None:
        """Add imported spans and set imported scores as one undo step."""
        commands: list[Command] = [AddSpan(s) for s in spans]
        for score in scores:
            before = self._index.memory.score(*score.key)
            commands.append(SetSegmentScore(before, score))
        if commands:
            self.execute(Batch(tuple(commands), label=label))


@dataclass(frozen=True, slots=True)
class _Plan:
    """A batch that only adds and deletes spans and sets or clears scores, each span id and
    score key once (an import, or its undo): it can be written in bulk, in any order."""

    added: list[ErrorSpan]
    deleted: list[ErrorSpan]
    scores: list[SegmentScore]
    cleared: list[tuple[str, int, str]]

    @classmethod
    def of(cls, command: Command) -> _Plan | None:
        return cls._planned(command, inverse=False)

    @classmethod
    def _planned(cls, command: Command, *, inverse: bool) -> _Plan | None:
        steps = cls.planned_in_steps(command, inverse=inverse, size=1 << 62)
        while True:
            try:
                next(steps)
            except StopIteration as stop:
                plan: _Plan | None = stop.value
                return plan

    @classmethod
    def planned_in_steps(
        cls, command: Command, *, inverse: bool, size: int
    ) -> Generator[Progress, None, _Plan | None]:
        """The plan of ``command`` (or of its inverse), ``size`` commands at a time: a
        generator yielding (0, 1) between them and returning the plan (None: not a batch of
        additions, deletions and scores, each span and score once)."""
        if not isinstance(command, Batch):
            return None
        plan = cls([], [], [], [])
        adds, deletes = (plan.deleted, plan.added) if inverse else (plan.added, plan.deleted)
        commands = _commands(command)
        for start in range(0, len(commands), size):
            for c in commands[start : start + size]:
                kind = type(c)
                if kind is AddSpan:
                    adds.append(c.span)  # type: ignore[attr-defined]
                elif kind is DeleteSpan:
                    deletes.append(c.span)  # type: ignore[attr-defined]
                elif kind is SetSegmentScore:
                    before: SegmentScore | None = c.before  # type: ignore[attr-defined]
                    after: SegmentScore | None = c.after  # type: ignore[attr-defined]
                    if inverse:
                        before, after = after, before
                    if after is not None:
                        plan.scores.append(after)
                    elif before is not None:
                        plan.cleared.append(before.key)
                else:
                    return None
            yield 0, 1  # before the step's own progress
        ids = {s.id for s in plan.added}
        yield 0, 1
        ids.update(s.id for s in plan.deleted)
        keys = {s.key for s in plan.scores} | set(plan.cleared)
        if len(ids) != len(plan.added) + len(plan.deleted):
            return None  # a span added and deleted in one step: keep the order
        if len(keys) != len(plan.scores) + len(plan.cleared):
            return None
        return plan

    def slices(self, size: int) -> Iterator[_Plan]:
        """This plan in parts of at most ``size`` spans, applied in order (deletions, then
        additions, then the scores) as :meth:`_Index.run` applies the whole."""
        for start in range(0, len(self.deleted), size):
            yield _Plan([], self.deleted[start : start + size], [], [])
        for start in range(0, len(self.added), size):
            yield _Plan(self.added[start : start + size], [], [], [])
        if self.scores or self.cleared:
            yield _Plan([], [], self.scores, self.cleared)

    def keys(self) -> set[Key]:
        """The (system, segment) outputs the plan touches."""
        keys = {(s.system, s.segment) for s in self.added}
        keys.update((s.system, s.segment) for s in self.deleted)
        keys.update(s.key[:2] for s in self.scores)
        keys.update(k[:2] for k in self.cleared)
        return keys


class _Forward:
    """The sink History's undo/redo applies to: the workspace's own two-phase apply.

    A :class:`Batch` asks its sink for ``batch()``: the commands inside are collected and
    applied as one, so undoing an import is one transaction in the file too.
    """

    def __init__(self, workspace: AnnotationWorkspace) -> None:
        self._workspace = workspace
        self._collected: list[Command] | None = None

    @contextmanager
    def batch(self) -> Iterator[None]:
        outer = self._collected is None
        if outer:
            self._collected = []
        try:
            yield
        except BaseException:
            if outer:
                self._collected = None
            raise
        if outer:
            collected, self._collected = self._collected or [], None
            if collected:
                self._workspace._apply(Batch(tuple(collected)))

    def _run(self, command: Command) -> None:
        if self._collected is not None:
            self._collected.append(command)
        else:
            self._workspace._apply(command)

    def add_span(self, span: ErrorSpan) -> None:
        self._run(AddSpan(span))

    def update_span(self, span: ErrorSpan) -> None:
        before = self._workspace.get(span.id)
        if before is None:
            raise AnnotationError(f"no span {span.id} to update")
        self._run(UpdateSpan(before, span))

    def delete_span(self, span_id: str) -> None:
        span = self._workspace.get(span_id)
        if span is None:
            raise AnnotationError(f"no span {span_id} to delete")
        self._run(DeleteSpan(span))

    def set_segment_score(self, score: SegmentScore) -> None:
        before = self._workspace._index.memory.score(*score.key)
        self._run(SetSegmentScore(before, score))

    def clear_segment_score(self, system: str, segment: int, annotator: str) -> None:
        before = self._workspace._index.memory.score(system, segment, annotator)
        if before is not None:
            self._run(SetSegmentScore(before, None))
