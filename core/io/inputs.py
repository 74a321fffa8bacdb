"""What an input is: the user's request for one (:class:`InputSpec`), what reading it gives
(:class:`TextColumn`, :class:`Comparison`; :class:`ColumnScan`, :class:`ComparisonScan` for the
command line's streams) and what goes wrong (:class:`InputError`).

This is the vocabulary every reader of inputs shares, kept apart from the reading itself so that
the decoders (:mod:`core.io.decoding`), the parsers (:mod:`core.io.parsers`) and the readers
(:mod:`core.io.reading`) can all raise :class:`InputError` and name formats without importing
one another. ``str(InputError)`` is a complete message for the user that names the file, the
line (where there is one) and the problem; bad input never produces a traceback.

Formats: :data:`FORMATS` are read as text, :data:`COLUMNAR_FORMATS` through pyarrow; with no
format given, the file's extension decides (:func:`resolve_format`).
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from matchlight.core.text.corpus import CorpusText

__all__ = [
    "COLUMNAR_FORMATS",
    "FORMATS",
    "SYSTEM_PREFIXES",
    "ColumnScan",
    "Comparison",
    "ComparisonScan",
    "InputError",
    "InputSpec",
    "TextColumn",
    "default_name",
    "parse_spec",
    "resolve_format",
]

#: Input formats understood by :func:`~matchlight.core.io.reading.read_column` (for CLI
#: ``choices=`` and GUI combo boxes).
FORMATS: Final[tuple[str, ...]] = ("text", "tsv", "csv", "jsonl")
#: Columnar formats, read through pyarrow (the optional extra ``matchlight[parquet]``; see
#: :mod:`core.io.columnar`).
COLUMNAR_FORMATS: Final[tuple[str, ...]] = ("parquet",)

_EXTENSION_FORMATS: Final[dict[str, str]] = {
    ".tsv": "tsv",
    ".csv": "csv",
    ".jsonl": "jsonl",
    ".ndjson": "jsonl",
    ".parquet": "parquet",
}


class InputError(Exception):
    """A problem with the user's input files.

    ``str(error)`` is a complete, user-facing message: ``"PATH, line N: PROBLEM"``,
    ``"PATH: PROBLEM"`` or just ``"PROBLEM"`` when no single file is to blame.
    """

    path: str | None
    line: int | None
    problem: str

    def __init__(self, problem: str, path: str | None = None, line: int | None = None) -> None:
        super().__init__(problem, path, line)
        self.problem = problem
        self.path = path
        self.line = line

    def __str__(self) -> str:
        if self.path is None:
            return self.problem if self.line is None else f"line {self.line}: {self.problem}"
        where = self.path if self.line is None else f"{self.path}, line {self.line}"
        return f"{where}: {self.problem}"


@dataclass(frozen=True, slots=True)
class TextColumn:
    """One loaded input: the line-aligned segments of one role."""

    name: str
    path: str
    #: A tuple, or for a file read in batches :class:`~core.text.lines.TextLines`.
    lines: Sequence[str]
    encoding: str
    detected: bool
    warnings: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class InputSpec:
    """What the user asked for: a path, an optional display name, column and format.

    ``column`` is a header name or a 1-based column number (TSV/CSV), or a key (JSONL; dotted
    keys such as ``"translation.de"`` reach into nested objects). ``fmt`` is one of
    :data:`FORMATS`; None means: from the extension (.tsv, .csv, .jsonl/.ndjson, else text).
    """

    path: str
    name: str | None = None
    column: str | None = None
    fmt: str | None = None


@dataclass(frozen=True, slots=True)
class ColumnScan:
    """What the first pass over one input found: its name, encoding, number of segments and
    warnings, and how to read it again (``codec`` after ``skip`` bytes of byte-order mark;
    ``identity``, the ``stat`` of the file that was checked)."""

    spec: InputSpec
    name: str
    fmt: str
    encoding: str
    detected: bool
    segments: int
    warnings: tuple[str, ...]
    codec: str = "utf-8"
    skip: int = 0
    identity: os.stat_result | None = None

    @property
    def path(self) -> str:
        return self.spec.path


@dataclass(frozen=True, slots=True)
class Comparison:
    """All inputs of one evaluation, checked to have the same number of segments."""

    source: TextColumn | None
    references: tuple[TextColumn, ...]
    systems: tuple[TextColumn, ...]

    def __post_init__(self) -> None:
        if not self.references:
            raise ValueError("a Comparison needs at least one reference")
        counts = {len(c.lines) for c in self.columns}
        if len(counts) != 1:
            raise ValueError(f"all columns of a Comparison must have equal length, got {counts}")

    @property
    def columns(self) -> tuple[TextColumn, ...]:
        """Every input: the source (if any), then the references, then the systems."""
        head = () if self.source is None else (self.source,)
        return head + self.references + self.systems

    def corpus_text(self) -> CorpusText:
        """The texts to score, independent of where they were read from."""
        return CorpusText(
            references=tuple(col.lines for col in self.references),
            systems=tuple(col.lines for col in self.systems),
            system_names=tuple(col.name for col in self.systems),
        )

    def __len__(self) -> int:
        return len(self.references[0].lines)


# --------------------------------------------------------------------------- specs


def _is_name(text: str) -> bool:
    return bool(text.strip()) and "/" not in text and "\\" not in text


def parse_spec(text: str) -> InputSpec:
    """Parse ``PATH``, ``NAME=PATH``, ``PATH#COLUMN`` or ``NAME=PATH#COLUMN``.

    A path may itself contain ``=`` or ``#``: if the whole text names an existing file it is
    taken literally. Otherwise the readings are tried in the order literal, ``NAME=PATH``,
    ``PATH#COLUMN``, ``NAME=PATH#COLUMN`` and the first whose path exists wins. If none exists,
    the most structured reading is returned, so that reading it reports the intended path.
    A NAME contains no slash or backslash; a COLUMN splits at the last ``#``.
    """
    if not text.strip():
        raise InputError("empty input; expected PATH, NAME=PATH, PATH#COLUMN or NAME=PATH#COLUMN")
    if os.path.exists(text):
        return InputSpec(path=text)

    candidates: list[InputSpec] = [InputSpec(path=text)]
    head, eq, tail = text.partition("=")
    if eq and tail and _is_name(head):
        candidates.append(InputSpec(path=tail, name=head.strip()))
    for candidate in list(candidates):
        body, hash_, column = candidate.path.rpartition("#")
        if hash_ and body and _is_name(column):
            candidates.append(InputSpec(path=body, name=candidate.name, column=column.strip()))
    for candidate in candidates[1:]:
        if os.path.exists(candidate.path):
            return candidate
    return max(candidates, key=lambda c: (c.name is not None) + (c.column is not None))


# --------------------------------------------------------------------------- formats and names


def resolve_format(spec: InputSpec) -> str:
    """The format ``spec`` is read as: its ``fmt``, else the one its extension names."""
    if spec.fmt is None:
        return _EXTENSION_FORMATS.get(Path(spec.path).suffix.lower(), "text")
    if spec.fmt not in FORMATS and spec.fmt not in COLUMNAR_FORMATS:
        raise InputError(
            f"unknown input format {spec.fmt!r}; choose one of {', '.join(FORMATS)}", spec.path
        )
    return spec.fmt


#: File-name prefixes that only say "this is a system output" (``sys.online-b.txt``).
SYSTEM_PREFIXES: Final[tuple[str, ...]] = ("sys.", "hyp.", "system.", "out.", "output.")


def default_name(path: str) -> str:
    """A display name for a file: its stem without a ``sys.``-style prefix.

    ``sys.fluent.txt`` -> ``fluent``, ``ref2.txt`` -> ``ref2``; the CLI and the GUI both use it,
    so their exports name systems alike.
    """
    stem = Path(path).stem
    lowered = stem.lower()
    for prefix in SYSTEM_PREFIXES:
        if lowered.startswith(prefix) and len(stem) > len(prefix):
            return stem[len(prefix) :]
    return stem or Path(path).name


@dataclass(frozen=True, slots=True)
class ComparisonScan:
    """Every input of an evaluation checked and counted
    (:func:`~matchlight.core.io.reading.scan_comparison`), to be read as streams; all have the
    same number of segments."""

    source: ColumnScan | None
    references: tuple[ColumnScan, ...]
    systems: tuple[ColumnScan, ...]

    @property
    def columns(self) -> tuple[ColumnScan, ...]:
        """Every input: the source (if any), then the references, then the systems."""
        head = () if self.source is None else (self.source,)
        return head + self.references + self.systems

    def __len__(self) -> int:
        return self.references[0].segments
