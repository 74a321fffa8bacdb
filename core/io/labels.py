"""Reading a label column: one label per segment (a domain, a document id, a test-suite tag).

Labels group rows for the bucket analyses (:func:`core.analysis.buckets.label_buckets`). They
come one per line, as the WMT and compare-mt data ship them (``domain.txt``, ``docid.txt``), or
as a column of a TSV/CSV file or a key of JSON Lines records; files are read by
:func:`core.io.reading.read_column`, with its size bound, encodings and file-and-line errors.
A file with another number of labels than the comparison has segments is an
:class:`~core.io.inputs.InputError` naming the file and both counts; a file with far more lines
is refused as its lines stream in, before they take memory.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from matchlight.core.io.files import LineLimit
from matchlight.core.io.inputs import InputError, InputSpec, default_name
from matchlight.core.io.reading import read_column

__all__ = ["LabelColumn", "read_labels"]

#: Lines a label file may have beyond one per segment (a header, blank lines at the end).
_SPARE_LINES: Final[int] = 1000


@dataclass(frozen=True, slots=True)
class LabelColumn:
    """One label per segment, surrounding whitespace removed. ``name`` names the column for a
    user (by default the file's stem), ``path`` is where it was read from, and ``column`` and
    ``fmt`` how (as :func:`read_labels` was asked; a session records them)."""

    name: str
    path: str
    labels: tuple[str, ...]
    warnings: tuple[str, ...] = ()
    column: str | None = None
    fmt: str | None = None

    @property
    def distinct(self) -> int:
        return len(set(self.labels))


def read_labels(
    path: str,
    *,
    n_segments: int,
    column: str | None = None,
    fmt: str | None = None,
    name: str | None = None,
) -> LabelColumn:
    """Read the labels of ``path`` for a comparison of ``n_segments`` segments.

    ``column`` and ``fmt`` are as :class:`~core.io.inputs.InputSpec`'s (a TSV/CSV column by
    header name or 1-based number, a JSONL key). Raises :class:`InputError`.
    """
    n = f"{n_segments:,} segment{'' if n_segments == 1 else 's'}"
    limit = LineLimit(n_segments + _SPARE_LINES, f"the comparison has {n} (one label each)")
    text = read_column(InputSpec(path, name=name, column=column, fmt=fmt), max_rows=limit)
    count = len(text.lines)
    if count != n_segments:
        what = "label" if count == 1 else "labels"
        raise InputError(
            f"has {count} {what}, but the comparison has {n_segments} segments "
            "(one label per segment, in the same order)",
            path,
        )
    labels = tuple(line.strip() for line in text.lines)
    label_name = name or (text.name if column is not None else default_name(path))
    return LabelColumn(label_name, path, labels, text.warnings, column=column, fmt=fmt)
