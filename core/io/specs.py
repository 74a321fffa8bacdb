"""The files of one comparison, as a user names them: what the app remembers and re-opens.

A :class:`ComparisonSpecs` is an optional source, one or more references and one or more system
outputs, each an :class:`~matchlight.core.io.inputs.InputSpec` (path, name, TSV/JSONL column,
format). The command line, the Open dialog, drag and drop, the Recent menu and session files all
describe a comparison with it, and :meth:`ComparisonSpecs.to_json` is its one JSON form.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from matchlight.core.io.inputs import (
    FORMATS,
    Comparison,
    InputError,
    InputSpec,
    default_name,
    parse_spec,
)
from matchlight.core.io.reading import load_comparison

__all__ = [
    "ComparisonSpecs",
    "spec_from_json",
    "spec_to_json",
    "specs_from_arguments",
    "specs_of_comparison",
]


def spec_to_json(spec: InputSpec) -> dict[str, Any]:
    return {"path": spec.path, "name": spec.name, "column": spec.column, "fmt": spec.fmt}


def spec_from_json(item: Any) -> InputSpec:
    """An input spec from :func:`spec_to_json`; ValueError on anything malformed."""
    if not isinstance(item, Mapping) or not isinstance(item.get("path"), str):
        raise ValueError(f"not an input spec: {item!r}")
    values = {k: item.get(k) for k in ("name", "column", "fmt")}
    for key, value in values.items():
        if value is not None and not isinstance(value, str):
            raise ValueError(f"{key} must be a string: {value!r}")
    if values["fmt"] is not None and values["fmt"] not in FORMATS:
        raise ValueError(f"unknown format {values['fmt']!r}")
    return InputSpec(path=item["path"], **values)


@dataclass(frozen=True, slots=True)
class ComparisonSpecs:
    """The input specs of one comparison."""

    source: InputSpec | None = None
    references: tuple[InputSpec, ...] = ()
    systems: tuple[InputSpec, ...] = field(default_factory=tuple)

    def load(self) -> Comparison:
        """Read the files; raises :class:`~core.io.inputs.InputError` with a user-facing message."""
        return load_comparison(
            source=self.source, references=list(self.references), systems=list(self.systems)
        )

    @property
    def specs(self) -> tuple[InputSpec, ...]:
        """Every spec: the source (if any), the references, the systems."""
        head = () if self.source is None else (self.source,)
        return head + self.references + self.systems

    @property
    def paths(self) -> tuple[str, ...]:
        return tuple(s.path for s in self.specs)

    def label(self) -> str:
        """A short human label: ``folder: sys1, sys2 (2 refs)``."""
        folder = Path(self.references[0].path).parent.name if self.references else ""
        names = ", ".join(s.name or default_name(s.path) for s in self.systems)
        refs = len(self.references)
        plural = "ref" if refs == 1 else "refs"
        head = f"{folder}: " if folder else ""
        return f"{head}{names} ({refs} {plural})"

    def with_paths(self, paths: Sequence[str]) -> ComparisonSpecs:
        """The same specs reading from ``paths`` (one per spec, in :attr:`specs` order)."""
        if len(paths) != len(self.specs):
            raise ValueError(f"{len(paths)} paths for {len(self.specs)} inputs")
        moved = [replace(s, path=p) for s, p in zip(self.specs, paths, strict=True)]
        head = 0 if self.source is None else 1
        n_refs = len(self.references)
        return ComparisonSpecs(
            source=moved[0] if head else None,
            references=tuple(moved[head : head + n_refs]),
            systems=tuple(moved[head + n_refs :]),
        )

    def absolute(self) -> ComparisonSpecs:
        """The same specs with absolute paths (relative ones are taken from the working folder
        now, as the user meant them when typing them)."""
        return self.with_paths([os.path.abspath(p) for p in self.paths])

    def to_json(self) -> dict[str, Any]:
        return {
            "source": None if self.source is None else spec_to_json(self.source),
            "references": [spec_to_json(s) for s in self.references],
            "systems": [spec_to_json(s) for s in self.systems],
        }

    @classmethod
    def from_json(cls, data: Any) -> ComparisonSpecs:
        """Rebuild from :meth:`to_json`; raises ``ValueError`` on anything malformed."""
        if not isinstance(data, Mapping):
            raise ValueError("not a comparison")
        refs, syss = data.get("references"), data.get("systems")
        if not isinstance(refs, list) or not isinstance(syss, list) or not refs or not syss:
            raise ValueError("a comparison needs references and systems")
        source = data.get("source")
        return cls(
            source=None if source is None else spec_from_json(source),
            references=tuple(spec_from_json(r) for r in refs),
            systems=tuple(spec_from_json(s) for s in syss),
        )


def specs_from_arguments(
    source: str | None, references: Sequence[str], systems: Sequence[str]
) -> ComparisonSpecs:
    """The comparison named on a command line (``--src``, ``--ref``, ``--hyp [NAME=]PATH``);
    a system without a name is named after its file. Raises InputError when a role is empty."""
    if not references:
        raise InputError("give at least one reference with --ref")
    if not systems:
        raise InputError("give at least one system output with --hyp")

    def system(text: str) -> InputSpec:
        spec = parse_spec(text)
        return spec if spec.name is not None else replace(spec, name=default_name(spec.path))

    return ComparisonSpecs(
        source=parse_spec(source) if source else None,
        references=tuple(parse_spec(r) for r in references),
        systems=tuple(system(h) for h in systems),
    )


def specs_of_comparison(comparison: Comparison) -> ComparisonSpecs:
    """Specs that read ``comparison``'s files again as plain text files (for a comparison that
    was made without specs: its systems keep their names)."""
    return ComparisonSpecs(
        source=None if comparison.source is None else InputSpec(comparison.source.path),
        references=tuple(InputSpec(c.path) for c in comparison.references),
        systems=tuple(InputSpec(c.path, name=c.name) for c in comparison.systems),
    )
