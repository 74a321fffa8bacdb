"""What a session file holds besides its annotations, defined once: :class:`SessionDocument`.

A session records the comparison's inputs (:class:`~.inputs.SessionInput`: where each file is,
how it was read, what it held), the scoring settings, the reference names, the baseline (a
system's name), the row selection, the layout the app restores (highlight mode, hidden columns,
current row, the system being annotated...) and the annotation settings (mode, typology, MQM
weights, annotator). The app, ``matchlight session`` and ``matchlight report --session`` all
read and write these through this module, never the store's raw JSON: :func:`read_document`,
:func:`create_session` and :func:`save_document`. Annotations and imported columns live in the
store's own tables (:mod:`.store`).

Files written by older versions are read as they are: format 1 and 2 kept how TSV/JSONL inputs
were read in ``settings["specs"]`` (format 3 keeps it with each input), and some kept the
baseline as an index or the bare scoring settings; a document written back into such a file keeps
its ``specs`` so the version that wrote it can still read it.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from matchlight.core.analysis.selection import Selection, SelectionError
from matchlight.core.annotation.mqm import DEFAULT_WEIGHTS, MQMWeights
from matchlight.core.annotation.typology import DEFAULT_TYPOLOGY, AnnotationMode, Typology
from matchlight.core.io.inputs import InputSpec
from matchlight.core.io.specs import ComparisonSpecs
from matchlight.core.metrics.base import SettingError
from matchlight.core.scoring.config import ScoringConfig
from matchlight.core.session.inputs import InputCheck, SessionInput
from matchlight.core.session.store import SessionError, SessionStore

__all__ = [
    "AnnotationSettings",
    "SessionDocument",
    "create_session",
    "inputs_for",
    "read_document",
    "save_document",
]

#: The first format whose inputs say how they were read (older ones need ``settings["specs"]``).
_INPUTS_KNOW_HOW: int = 3


@dataclass(frozen=True, slots=True)
class AnnotationSettings:
    """How a session annotates: MQM or ESA, the error typology, the MQM weights, who."""

    mode: AnnotationMode = AnnotationMode.MQM
    typology: Typology = DEFAULT_TYPOLOGY
    weights: MQMWeights = DEFAULT_WEIGHTS
    annotator: str = ""


@dataclass(frozen=True, slots=True)
class SessionDocument:
    """Everything a session holds but its annotations and imported columns."""

    inputs: tuple[SessionInput, ...]
    #: The scoring settings (None: the file did not say; use the defaults).
    config: ScoringConfig | None = None
    #: What the references are called in the app ("ref", "ref2"); empty: their input names.
    reference_names: tuple[str, ...] = ()
    #: The baseline system's name.
    baseline: str | None = None
    selection: Selection | None = None
    layout: Mapping[str, Any] = field(default_factory=dict)
    annotation: AnnotationSettings = field(default_factory=AnnotationSettings)

    def __post_init__(self) -> None:
        if self.baseline is not None and self.baseline not in self.system_names:
            raise SessionError(f"the baseline {self.baseline!r} is not a system of the session")

    def of_role(self, role: str) -> tuple[SessionInput, ...]:
        return tuple(i for i in self.inputs if i.role == role)

    @property
    def system_names(self) -> tuple[str, ...]:
        return tuple(i.name for i in self.of_role("system"))

    def specs(self, paths: Sequence[str] | None = None) -> ComparisonSpecs:
        """What to read: each input as recorded, at ``paths[i]`` (where :meth:`SessionStore.
        check_inputs` found it; in :attr:`inputs` order) or else at its recorded path."""
        if paths is not None and len(paths) != len(self.inputs):
            raise ValueError(f"{len(paths)} paths for {len(self.inputs)} inputs")

        def spec(k: int, item: SessionInput) -> InputSpec:
            path = item.path if paths is None else paths[k]
            name = item.name if item.role == "system" else None
            return InputSpec(path, name=name, column=item.column, fmt=item.fmt)

        specs = [(item.role, spec(k, item)) for k, item in enumerate(self.inputs)]
        sources = [s for role, s in specs if role == "source"]
        return ComparisonSpecs(
            source=sources[0] if sources else None,
            references=tuple(s for role, s in specs if role == "reference"),
            systems=tuple(s for role, s in specs if role == "system"),
        )

    def found_specs(self, checks: Sequence[InputCheck]) -> ComparisonSpecs:
        """:meth:`specs` at the paths where ``checks`` found the inputs."""
        return self.specs([c.path for c in checks])

    def settings_json(self, *, with_specs: bool = False) -> dict[str, Any]:
        data: dict[str, Any] = {
            "config": (self.config or ScoringConfig()).to_dict(),
            "reference_names": list(self.reference_names),
        }
        if with_specs:
            data["specs"] = self.specs().to_json()
        return data


def inputs_for(
    specs: ComparisonSpecs,
    reference_names: Sequence[str] = (),
    system_names: Sequence[str] = (),
) -> tuple[SessionInput, ...]:
    """Record the files of ``specs`` now (their content hashes: call this off the GUI thread).

    The source is named ``source``, the references by ``reference_names`` (else their file
    stems), made unique, and the systems by ``system_names`` (the comparison's; else their
    specs' names or file stems)."""
    recorded: list[SessionInput] = []
    if specs.source is not None:
        recorded.append(_record(specs.source, "source", "source"))
    seen: set[str] = set()
    for r, spec in enumerate(specs.references):
        name = (
            reference_names[r] if r < len(reference_names) else _stem(spec.path) or f"Ref {r + 1}"
        )
        unique, k = name, 2
        while unique in seen:
            unique, k = f"{name} ({k})", k + 1
        seen.add(unique)
        recorded.append(_record(spec, "reference", unique))
    for k, spec in enumerate(specs.systems):
        name = system_names[k] if k < len(system_names) else spec.name or _stem(spec.path)
        recorded.append(_record(spec, "system", name))
    return tuple(recorded)


def _stem(path: str) -> str:
    return os.path.splitext(os.path.basename(path))[0]


def _record(spec: InputSpec, role: str, name: str) -> SessionInput:
    return SessionInput.from_file(spec.path, role=role, name=name, column=spec.column, fmt=spec.fmt)


def create_session(path: str | os.PathLike[str], document: SessionDocument) -> SessionStore:
    """A new session file at ``path`` holding ``document`` (and no annotations yet)."""
    note = document.annotation
    return SessionStore.create(
        path,
        inputs=document.inputs,
        settings=document.settings_json(),
        baseline=document.baseline,
        selection=None if document.selection is None else document.selection.to_dict(),
        layout=dict(document.layout),
        mode=note.mode,
        typology=note.typology,
        weights=note.weights,
        annotator=note.annotator,
    )


def save_document(store: SessionStore, document: SessionDocument) -> None:
    """Write ``document``'s settings, baseline, selection, layout and annotation settings into
    ``store`` (one transaction). The inputs a session records never change after it is made."""
    note = document.annotation
    store.save_state(
        settings=document.settings_json(with_specs=store.format_version() < _INPUTS_KNOW_HOW),
        baseline=document.baseline,
        selection=None if document.selection is None else document.selection.to_dict(),
        layout=dict(document.layout),
        mode=note.mode,
        typology=note.typology,
        weights=note.weights,
        annotator=note.annotator,
    )


def read_document(store: SessionStore, problems: list[str] | None = None) -> SessionDocument:
    """The document a session file holds; SessionError naming the file and what is unusable.

    With a ``problems`` list, unusable scoring settings or an unusable selection are left out
    (the defaults are used) and described there instead: the annotations are still opened."""
    state = store.state()
    path = store.origin
    settings = state.settings if isinstance(state.settings, Mapping) else {}
    inputs = _with_specs(store.inputs(), settings.get("specs"), path)
    nested = settings.get("config")
    config_data = nested if isinstance(nested, Mapping) else settings
    try:
        config = ScoringConfig.from_dict(config_data) if config_data else None
    except (SettingError, TypeError, ValueError) as error:
        message = f"the session's scoring settings are unusable: {error}"
        if problems is None:
            raise SessionError(message, path, kind="damaged") from None
        problems.append(message[0].upper() + message[1:] + "; the defaults are used.")
        config = None
    selection_data = state.selection
    if selection_data is None and isinstance(nested, Mapping):
        selection_data = settings.get("selection")  # an early app kept it with the settings
    try:
        selection = (
            Selection.from_dict(selection_data) if isinstance(selection_data, Mapping) else None
        )
    except (SelectionError, TypeError, ValueError) as error:
        message = f"the session's row selection is unusable: {error}"
        if problems is None:
            raise SessionError(message, path, kind="damaged") from None
        problems.append(message[0].upper() + message[1:] + "; every row is shown.")
        selection = None
    systems = [i.name for i in inputs if i.role == "system"]
    baseline = state.baseline
    if baseline is None and isinstance(nested, Mapping):
        baseline = settings.get("baseline")
    if isinstance(baseline, int) and not isinstance(baseline, bool):
        baseline = systems[baseline] if 0 <= baseline < len(systems) else None
    if not isinstance(baseline, str) or baseline not in systems:
        baseline = None
    names = settings.get("reference_names")
    reference_names = (
        tuple(names)
        if isinstance(names, list) and names and all(isinstance(n, str) for n in names)
        else ()
    )
    layout = state.layout if isinstance(state.layout, Mapping) else {}
    try:
        return SessionDocument(
            inputs=inputs,
            config=config,
            reference_names=reference_names,
            baseline=baseline,
            selection=selection,
            layout=dict(layout),
            annotation=AnnotationSettings(
                state.mode, state.typology, state.weights, state.annotator
            ),
        )
    except SessionError as error:
        raise SessionError(error.problem, path, kind="damaged") from None


def _with_specs(
    inputs: tuple[SessionInput, ...], specs: Any, path: os.PathLike[str] | str
) -> tuple[SessionInput, ...]:
    """Inputs of a format-1/2 file completed with how they were read (``settings["specs"]``,
    matched by role and position)."""
    if specs is None or any(i.column or i.fmt for i in inputs):
        return inputs
    try:
        parsed = ComparisonSpecs.from_json(specs) if isinstance(specs, Mapping) else None
    except ValueError as error:
        raise SessionError(
            f"the session's input list is unreadable: {error}", path, kind="damaged"
        ) from None
    if parsed is None:
        return inputs
    by_role = {
        "source": [] if parsed.source is None else [parsed.source],
        "reference": list(parsed.references),
        "system": list(parsed.systems),
    }
    seen = {role: 0 for role in by_role}
    completed: list[SessionInput] = []
    for item in inputs:
        k = seen[item.role]
        seen[item.role] += 1
        candidates = by_role[item.role]
        if k < len(candidates):
            spec = candidates[k]
            item = SessionInput(
                item.role,
                item.name,
                item.path,
                item.sha256,
                item.size,
                item.relative,
                spec.column,
                spec.fmt,
            )
        completed.append(item)
    return tuple(completed)
