"""Columns a user imported into a comparison, as a session file keeps them.

A user adds data computed elsewhere to a comparison: per-segment scores (COMET, BLEURT, human
judgements; :mod:`core.io.scores`) and label columns (domain, document id; :mod:`core.io.labels`).
A session restores them with everything else, so each import is recorded with:

* the values themselves (the score matrix, or the labels), because the user's column must not
  disappear when its file is moved, edited or deleted: the session is the user's work;
* each file it came from: absolute path, the sha256 and size of its content when it was read
  (:func:`core.io.files.file_digest`, the hash the session uses for its inputs) and how it
  was read (format, column, system and segment columns), so reopening can tell the user that a
  file changed since, and the import can be read again from its source if wanted.

On reopen the stored values are used whatever the files hold now; :meth:`ImportedFile.status`
says whether a file is the same, changed or missing, for the message the user gets (it never
opens a pipe or a device, and reads at most the recorded size plus one block). A session file
is untrusted input too: its JSON is read by :mod:`core.io.jsonsafe`, and a record that does not
hold what it should raises ValueError.
"""

from __future__ import annotations

import json
import os
import threading
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, fields
from typing import Any, Final, Literal

import numpy as np
import numpy.typing as npt

from matchlight.core.io import jsonsafe
from matchlight.core.io.files import FileTooLarge, check_regular, file_digest
from matchlight.core.io.labels import LabelColumn
from matchlight.core.io.scores import ImportedScores, ScoreSpec
from matchlight.core.metrics.base import ScoreColumn, infer_scale

__all__ = [
    "IMPORT_KINDS",
    "ImportedFile",
    "LabelImport",
    "ScoreImport",
    "import_from_json",
]

FloatArray = npt.NDArray[np.float64]
FileStatus = Literal["same", "changed", "missing"]
ImportKind = Literal["scores", "labels"]

#: The kinds of import a session records.
IMPORT_KINDS: Final[tuple[str, ...]] = ("scores", "labels")
#: ScoreSpec's fields that say how a score file was read (its path is recorded apart).
_SCORE_SPEC_KEYS: Final = ("fmt", "column", "system", "system_column", "segment_column")
#: ScoreColumn's fields that make its scale (a definition stored before them has none).
_SCALE_KEYS: Final = frozenset({"better", "low", "high", "decimals"})


def _mapping(value: object, what: str) -> Mapping[str, Any]:
    """``value`` if it is a JSON object, else ValueError (a session is untrusted input)."""
    if not isinstance(value, Mapping):
        raise ValueError(f"{what} must be an object, not {jsonsafe.json_type(value)}")
    return value


def _loads(text: str, what: str) -> Any:
    """A JSON value stored in a session, read as untrusted text (ValueError if it is not)."""

    def error(problem: str, path: str | None, line: int | None) -> ValueError:
        return ValueError(f"{what}: {problem}")

    return jsonsafe.loads(text, first_line=None, error=error)


@dataclass(frozen=True, slots=True)
class ImportedFile:
    """One file an import was read from, as it was then.

    ``spec`` says how it was read: for scores :class:`~core.io.scores.ScoreSpec`'s ``fmt``,
    ``column``, ``system``, ``system_column`` and ``segment_column``; for labels ``fmt`` and
    ``column`` (None where the reader chose).
    """

    path: str
    sha256: str
    size: int
    spec: Mapping[str, str | None] = field(default_factory=dict)

    @classmethod
    def from_file(
        cls, path: str | os.PathLike[str], *, spec: Mapping[str, str | None]
    ) -> ImportedFile:
        """Record ``path`` now (absolute path, content hash and size). Raises OSError."""
        absolute = os.path.abspath(path)
        sha, size = file_digest(absolute)
        return cls(absolute, sha, size, dict(spec))

    def status(self, cancel: threading.Event | None = None) -> FileStatus:
        """Whether the file on disk still has the content recorded: same, changed or missing
        (also for anything but a regular file, or a file that cannot be read). At most the
        recorded size is hashed; ``cancel`` stops the hashing
        (:class:`~core.io.files.ReadCancelled`)."""
        try:
            if check_regular(self.path).st_size != self.size:
                return "changed"
            sha, _ = file_digest(self.path, cap=self.size, cancel=cancel)
        except FileTooLarge:  # grew since the stat
            return "changed"
        except OSError:
            return "missing"
        return "same" if sha == self.sha256 else "changed"

    def score_spec(self) -> ScoreSpec:
        """How to read this score file again (:func:`core.io.scores.read_scores`)."""
        return ScoreSpec(self.path, **{k: self.spec.get(k) for k in _SCORE_SPEC_KEYS})

    def to_json(self) -> dict[str, Any]:
        return {
            "path": self.path,
            "sha256": self.sha256,
            "size": self.size,
            "spec": dict(self.spec),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> ImportedFile:
        data = _mapping(data, "an imported file")
        spec = _mapping(data.get("spec") or {}, "an imported file's spec")
        return cls(
            path=str(data["path"]),
            sha256=str(data["sha256"]),
            size=int(data["size"]),
            spec={str(k): None if v is None else str(v) for k, v in spec.items()},
        )


@dataclass(frozen=True, slots=True, eq=False)
class ScoreImport:
    """An imported score column: the table column, its values and the files they came from.

    ``values[i]`` are the scores of ``systems[i]`` per segment (NaN: no score), as the files
    gave them when they were read; a system of the comparison not in ``systems`` has none.
    """

    column: ScoreColumn
    systems: tuple[str, ...]
    values: FloatArray
    files: tuple[ImportedFile, ...]

    def __post_init__(self) -> None:
        values = np.array(self.values, dtype=np.float64)
        if values.ndim != 2 or values.shape[0] != len(self.systems):
            raise ValueError(
                f"{self.column.label}: {values.shape} values for {len(self.systems)} systems"
            )
        values.setflags(write=False)
        object.__setattr__(self, "values", values)

    @property
    def key(self) -> str:
        return self.column.key

    @property
    def name(self) -> str:
        return self.column.label

    @property
    def n_segments(self) -> int:
        return int(self.values.shape[1])

    @classmethod
    def from_imported(
        cls,
        imported: ImportedScores,
        column: ScoreColumn,
        *,
        specs: Sequence[ScoreSpec] = (),
    ) -> ScoreImport:
        """The record of scores just read by :func:`core.io.scores.read_scores` from ``specs``
        (default: ``imported.specs``, else the files it names as their extension says). Hashes
        the files now, so call it right after reading them. Raises OSError."""
        chosen = (
            list(specs)
            or list(imported.specs)
            or [ScoreSpec(p) for p in dict.fromkeys(imported.sources)]
        )
        files = tuple(
            ImportedFile.from_file(spec.path, spec={k: getattr(spec, k) for k in _SCORE_SPEC_KEYS})
            for spec in chosen
        )
        return cls(column, imported.systems, imported.values, files)

    def aligned(self, systems: Sequence[str]) -> FloatArray:
        """Values for ``systems`` in that order, ``(len(systems), n)``; NaN for a system
        without scores."""
        out = np.full((len(systems), self.n_segments), np.nan)
        where = {name: i for i, name in enumerate(self.systems)}
        for row, name in enumerate(systems):
            if name in where:
                out[row] = self.values[where[name]]
        return out

    def definition(self) -> dict[str, Any]:
        """Everything but the values, as JSON (the values are stored as raw float64)."""
        return {
            "column": {f.name: getattr(self.column, f.name) for f in fields(ScoreColumn)},
            "systems": list(self.systems),
            "shape": list(self.values.shape),
            "files": [f.to_json() for f in self.files],
        }

    def data(self) -> bytes:
        """The values as little-endian float64, row by row (NaN kept exactly)."""
        return np.ascontiguousarray(self.values, dtype="<f8").tobytes()

    @classmethod
    def from_stored(cls, definition: Mapping[str, Any], data: bytes) -> ScoreImport:
        """The record :meth:`definition` and :meth:`data` stored. A definition written before
        columns had a scale (direction, range, decimals) gets the one its values suggest
        (:func:`~core.metrics.base.infer_scale`), as a fresh import would, not 0-100."""
        known = {f.name for f in fields(ScoreColumn)}
        given = _mapping(definition["column"], "a score import's column")
        stored = {k: v for k, v in given.items() if k in known}
        column = ScoreColumn(**stored)
        rows, cols = (int(n) for n in definition["shape"])
        values = np.frombuffer(data, dtype="<f8")
        if values.size != rows * cols:
            raise ValueError(f"{column.label}: {values.size} stored values for {rows}×{cols}")
        matrix = values.reshape(rows, cols).astype(np.float64)
        if not _SCALE_KEYS & stored.keys():
            column = column.with_scale(infer_scale(matrix, column.label))
        return cls(
            column=column,
            systems=tuple(str(s) for s in definition["systems"]),
            values=matrix,
            files=tuple(ImportedFile.from_json(f) for f in definition["files"]),
        )


@dataclass(frozen=True, slots=True, eq=False)
class LabelImport:
    """An imported label column: its name, one label per segment and the file it came from."""

    name: str
    labels: tuple[str, ...]
    file: ImportedFile

    def __post_init__(self) -> None:
        if not self.name:
            raise ValueError("a label column needs a name")

    @property
    def key(self) -> str:
        return self.name

    @property
    def files(self) -> tuple[ImportedFile, ...]:
        return (self.file,)

    @classmethod
    def from_column(cls, labels: LabelColumn) -> LabelImport:
        """The record of a label column just read by :func:`core.io.labels.read_labels` (hashes
        its file now). Raises OSError."""
        spec = {"fmt": labels.fmt, "column": labels.column}
        return cls(labels.name, labels.labels, ImportedFile.from_file(labels.path, spec=spec))

    def label_column(self) -> LabelColumn:
        """The labels as :mod:`core.io.labels` gives them (for the bucket analyses)."""
        return LabelColumn(
            self.name,
            self.file.path,
            self.labels,
            column=self.file.spec.get("column"),
            fmt=self.file.spec.get("fmt"),
        )

    def definition(self) -> dict[str, Any]:
        return {"name": self.name, "count": len(self.labels), "file": self.file.to_json()}

    def data(self) -> bytes:
        return json.dumps(list(self.labels), ensure_ascii=False).encode("utf-8")

    @classmethod
    def from_stored(cls, definition: Mapping[str, Any], data: bytes) -> LabelImport:
        labels = _loads(bytes(data).decode("utf-8"), "the stored labels")
        if not isinstance(labels, list) or not all(isinstance(x, str) for x in labels):
            raise ValueError("stored labels must be a list of strings")
        return cls(
            name=str(definition["name"]),
            labels=tuple(labels),
            file=ImportedFile.from_json(definition["file"]),
        )


def import_from_json(kind: str, definition: str, data: bytes) -> ScoreImport | LabelImport:
    """A stored import from its row (kind, JSON definition, data). Raises ValueError, KeyError
    or TypeError for a row that does not hold one."""
    parsed = _mapping(_loads(definition, "an import's definition"), "an import's definition")
    if kind == "scores":
        return ScoreImport.from_stored(parsed, data)
    if kind == "labels":
        return LabelImport.from_stored(parsed, data)
    raise ValueError(f"unknown import kind {kind!r}")
