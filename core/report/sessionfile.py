"""What a report takes from a saved session file: its document, annotations and imports.

A ``.matchlight`` file is opened read-only and never changed; what it holds is read through
:mod:`core.session.document` (the one reader the app uses too). Its inputs are looked for next to
the session file first, then where they were recorded (:meth:`SessionStore.check_inputs`), so a
session moved with its files still reports. Error spans are re-anchored on the lines being
reported (:mod:`core.annotation.anchoring`): a span whose text moved is shown where it is now,
one that is gone is listed as unplaced, and the file keeps its offsets either way.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass

from matchlight.core.analysis.selection import Selection
from matchlight.core.annotation.anchoring import AnchorState, reanchor_all
from matchlight.core.annotation.model import ErrorSpan, SegmentScore
from matchlight.core.annotation.mqm import MQMWeights
from matchlight.core.annotation.typology import AnnotationMode
from matchlight.core.io.inputs import InputSpec
from matchlight.core.report.context import ReportAnnotations
from matchlight.core.scoring.config import ScoringConfig
from matchlight.core.session.comparison import ComparisonSession
from matchlight.core.session.document import SessionDocument, read_document
from matchlight.core.session.imported import LabelImport, ScoreImport
from matchlight.core.session.inputs import InputCheck, SessionInput
from matchlight.core.session.store import SessionStore

__all__ = ["SavedSession", "annotations_for", "annotations_from_store", "read_session"]


@dataclass(frozen=True, slots=True)
class SavedSession:
    """The parts of a session file a report uses."""

    path: str
    document: SessionDocument
    #: Where each input was found (or last looked for), in the document's order.
    checks: tuple[InputCheck, ...]
    spans: tuple[ErrorSpan, ...]
    scores: tuple[SegmentScore, ...]
    #: The imported score and label columns (with their stored values).
    imports: tuple[ScoreImport | LabelImport, ...] = ()

    @property
    def inputs(self) -> tuple[SessionInput, ...]:
        return self.document.inputs

    @property
    def config(self) -> ScoringConfig | None:
        return self.document.config

    @property
    def baseline(self) -> str | None:
        return self.document.baseline

    @property
    def selection(self) -> Selection | None:
        return self.document.selection

    @property
    def weights(self) -> MQMWeights:
        return self.document.annotation.weights

    @property
    def mode(self) -> AnnotationMode:
        return self.document.annotation.mode

    @property
    def reference_names(self) -> tuple[str, ...] | None:
        return self.document.reference_names or None

    @property
    def highlight(self) -> str | None:
        """The highlight mode the app showed (a layer key), if it recorded one."""
        mode = self.document.layout.get("highlight_mode")
        return mode if isinstance(mode, str) else None

    @property
    def source(self) -> InputSpec | None:
        return self.document.found_specs(self.checks).source

    @property
    def references(self) -> tuple[InputSpec, ...]:
        return self.document.found_specs(self.checks).references

    @property
    def systems(self) -> tuple[InputSpec, ...]:
        return self.document.found_specs(self.checks).systems

    @property
    def changed_inputs(self) -> tuple[str, ...]:
        """Inputs whose file is missing or has other content than when the session recorded it."""
        return tuple(
            f"{c.input.role} {c.input.name} ({c.path}): {c.status}"
            for c in self.checks
            if c.changed
        )

    def missing_inputs(self) -> str | None:
        """A message naming every input found nowhere (and where it was looked for), or None."""
        missing = [c for c in self.checks if c.status == "missing"]
        if not missing:
            return None
        folder = os.path.dirname(os.path.abspath(self.path))
        lines = [
            f"{c.input.role} {c.input.name}: looked for "
            + " and ".join(c.input.candidates(folder))
            + (f" ({c.problem})" if c.problem else "")
            for c in missing
        ]
        return "these inputs of the session are missing: " + "; ".join(lines)


def read_session(path: str | os.PathLike[str]) -> SavedSession:
    """Read a session file without changing it. Raises :class:`SessionError` naming the file
    and the problem (not a session, damaged, unreadable settings or selection)."""
    with SessionStore.open(path, read_only=True) as store:
        document = read_document(store)
        checks = tuple(store.check_inputs())
        spans = tuple(store.spans())
        scores = tuple(store.segment_scores())
        imports = tuple(store.imports())
    return SavedSession(os.fspath(path), document, checks, spans, scores, imports)


def _annotated_lines(session: ComparisonSession) -> dict[str, Sequence[str]]:
    """The lines annotations may point into, by the name a span gives: systems and references
    (by their input names when the files are known)."""
    text = session.text
    lines: dict[str, Sequence[str]] = {}
    if session.comparison is not None:
        for column in session.comparison.references:
            lines[column.name] = column.lines
    else:
        lines.update(zip(session.reference_names, text.references, strict=True))
    lines.update(zip(text.system_names, text.systems, strict=True))
    return lines


def annotations_for(
    spans: Sequence[ErrorSpan],
    scores: Sequence[SegmentScore],
    session: ComparisonSession,
    *,
    weights: MQMWeights,
    mode: AnnotationMode = AnnotationMode.MQM,
    origin: str | None = None,
    notes: Sequence[str] = (),
) -> ReportAnnotations:
    """The annotations of a report on ``session``'s current lines (spans re-anchored)."""
    placed: list[ErrorSpan] = []
    unplaced: list[ErrorSpan] = []
    for result in reanchor_all(spans, _annotated_lines(session)):
        (unplaced if result.state is AnchorState.FLAGGED else placed).append(result.span)
    names = set(session.system_names)
    kept_scores = tuple(s for s in scores if s.system in names and s.segment < session.n_segments)
    return ReportAnnotations(
        spans=tuple(placed),
        scores=kept_scores,
        weights=weights,
        mode=mode,
        unplaced=tuple(unplaced),
        origin=origin,
        notes=tuple(notes),
    )


def annotations_from_store(store: SessionStore, session: ComparisonSession) -> ReportAnnotations:
    """The annotations of an open session (the app's), for :func:`export_report`."""
    state = store.state()
    return annotations_for(
        store.spans(),
        store.segment_scores(),
        session,
        weights=state.weights,
        mode=state.mode,
        origin=os.fspath(store.path),
    )
