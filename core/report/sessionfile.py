"""What a report takes from a saved session file: settings, baseline, selection, annotations.

A ``.matchlight`` file (:mod:`core.session.store`) is opened read-only and never changed. Its
``settings`` are read as the app writes them (``config``: :meth:`ScoringConfig.to_dict`;
``specs``: the input specs, ``{"source", "references", "systems"}`` each ``{"path", "name",
"column", "fmt"}``; ``reference_names``), or as a bare :meth:`ScoringConfig.to_dict`; its
``selection`` as :meth:`Selection.to_dict` output, its ``baseline`` as a system name or index,
and its ``layout``'s ``highlight_mode``. Without specs, the inputs the session recorded are
read. Error spans are re-anchored on the lines being
reported (:mod:`core.annotation.anchoring`): a span whose text moved is shown where it is now,
one that is gone is listed as unplaced, and the file keeps its offsets either way.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from matchlight.core.analysis.selection import Selection, SelectionError
from matchlight.core.annotation.anchoring import AnchorState, reanchor_all
from matchlight.core.annotation.model import ErrorSpan, SegmentScore
from matchlight.core.annotation.mqm import MQMWeights
from matchlight.core.annotation.typology import AnnotationMode
from matchlight.core.io.inputs import FORMATS, InputSpec
from matchlight.core.metrics.base import SettingError
from matchlight.core.report.page import ReportAnnotations
from matchlight.core.scoring.config import ScoringConfig
from matchlight.core.session.comparison import ComparisonSession
from matchlight.core.session.store import SessionError, SessionInput, SessionStore

__all__ = ["SavedSession", "annotations_for", "annotations_from_store", "read_session"]


@dataclass(frozen=True, slots=True)
class SavedSession:
    """The parts of a session file a report uses (see the module docstring for the formats)."""

    path: str
    inputs: tuple[SessionInput, ...]
    #: What to read: the app's input specs (with TSV/JSONL columns), else the recorded inputs.
    source: InputSpec | None
    references: tuple[InputSpec, ...]
    systems: tuple[InputSpec, ...]
    config: ScoringConfig | None
    baseline: str | int | None
    selection: Selection | None
    spans: tuple[ErrorSpan, ...]
    scores: tuple[SegmentScore, ...]
    weights: MQMWeights
    mode: AnnotationMode
    #: Inputs whose file is missing or has other content than when the session recorded it.
    changed_inputs: tuple[str, ...] = ()
    reference_names: tuple[str, ...] | None = None
    #: The highlight mode the app showed (a layer key), if it recorded one.
    highlight: str | None = None


def _spec(item: Any, path: str | os.PathLike[str]) -> InputSpec:
    """An input spec from the app's JSON (``path``, ``name``, ``column``, ``fmt``)."""
    if not isinstance(item, Mapping) or not isinstance(item.get("path"), str):
        raise SessionError(f"the session's input list is unreadable: {item!r}", path)
    values = {k: item.get(k) for k in ("name", "column", "fmt")}
    if any(v is not None and not isinstance(v, str) for v in values.values()):
        raise SessionError(f"the session's input list is unreadable: {item!r}", path)
    fmt = values["fmt"]
    if fmt is not None and fmt not in FORMATS:
        raise SessionError(f"the session names an unknown input format {fmt!r}", path)
    return InputSpec(item["path"], name=values["name"], column=values["column"], fmt=fmt)


def _specs(
    settings: Mapping[str, Any], inputs: Sequence[SessionInput], path: str | os.PathLike[str]
) -> tuple[InputSpec | None, tuple[InputSpec, ...], tuple[InputSpec, ...]]:
    data = settings.get("specs")
    if isinstance(data, Mapping):
        refs, systems = data.get("references"), data.get("systems")
        if not isinstance(refs, list) or not isinstance(systems, list):
            raise SessionError("the session's input list is unreadable", path)
        source = data.get("source")
        return (
            None if source is None else _spec(source, path),
            tuple(_spec(r, path) for r in refs),
            tuple(_spec(s, path) for s in systems),
        )
    by_role = {
        role: tuple(InputSpec(i.path, name=i.name) for i in inputs if i.role == role)
        for role in ("source", "reference", "system")
    }
    sources = by_role["source"]
    return (sources[0] if sources else None), by_role["reference"], by_role["system"]


def _state_part(settings: Mapping[str, Any], key: str) -> Any:
    """``key`` of settings stored as a ComparisonState record (None for a bare config)."""
    return settings.get(key) if isinstance(settings.get("config"), Mapping) else None


def read_session(path: str | os.PathLike[str]) -> SavedSession:
    """Read a session file without changing it. Raises :class:`SessionError` naming the file
    and the problem (not a session, damaged, unreadable settings or selection)."""
    with SessionStore.open(path, read_only=True) as store:
        state = store.state()
        inputs = store.inputs()
        spans = tuple(store.spans())
        scores = tuple(store.segment_scores())
        changed = tuple(
            f"{check.input.role} {check.input.name} ({check.path}): {check.status}"
            for check in store.check_inputs()
            if check.changed
        )
    settings = state.settings if isinstance(state.settings, Mapping) else {}
    nested = settings.get("config")
    config_data = nested if isinstance(nested, Mapping) else settings
    try:
        config = ScoringConfig.from_dict(config_data) if config_data else None
    except (SettingError, TypeError, ValueError) as error:
        raise SessionError(f"the session's scoring settings are unusable: {error}", path) from None
    selection_data = state.selection
    if selection_data is None:
        selection_data = _state_part(settings, "selection")
    try:
        selection = (
            Selection.from_dict(selection_data) if isinstance(selection_data, Mapping) else None
        )
    except (SelectionError, TypeError, ValueError) as error:
        raise SessionError(f"the session's row selection is unusable: {error}", path) from None
    baseline = state.baseline
    if baseline is None:
        baseline = _state_part(settings, "baseline")
    if not isinstance(baseline, str | int) or isinstance(baseline, bool):
        baseline = None
    source, references, systems = _specs(settings, inputs, path)
    names = settings.get("reference_names")
    reference_names = (
        tuple(names)
        if isinstance(names, list) and names and all(isinstance(n, str) for n in names)
        else None
    )
    layout = state.layout if isinstance(state.layout, Mapping) else {}
    highlight = layout.get("highlight_mode")
    return SavedSession(
        path=os.fspath(path),
        inputs=inputs,
        source=source,
        references=references,
        systems=systems,
        config=config,
        baseline=baseline,
        selection=selection,
        spans=spans,
        scores=scores,
        weights=state.weights,
        mode=state.mode,
        changed_inputs=changed,
        reference_names=reference_names,
        highlight=highlight if isinstance(highlight, str) else None,
    )


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
