"""Writing a report: :func:`export_report`, what ``matchlight report`` and the app's
"Export HTML report…" action both call.

The page is written by :func:`~core.io.safewrite.write_file_atomic`: atomically, and never over
one of the comparison's input files or the session file it was made from.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from pathlib import Path

from matchlight.core.analysis.columnstats import ColumnTest
from matchlight.core.io.export import comparison_inputs, input_paths
from matchlight.core.io.safewrite import write_file_atomic
from matchlight.core.report.context import (
    DEFAULT_MAX_ROWS,
    ReportAnnotations,
    ReportError,
    ReportOptions,
)
from matchlight.core.report.page import render_report
from matchlight.core.report.pairwise import report_significance
from matchlight.core.report.sessionfile import annotations_from_store, read_session
from matchlight.core.session.comparison import ComparisonSession

__all__ = [
    "DEFAULT_MAX_ROWS",
    "ReportAnnotations",
    "ReportError",
    "ReportOptions",
    "annotations_from_store",
    "export_report",
    "protected_paths",
    "read_session",
    "render_report",
    "report_significance",
]


def protected_paths(
    session: ComparisonSession, annotations: ReportAnnotations | None = None
) -> list[str]:
    """The files a report must never replace: the comparison's inputs and the session file."""
    paths = [] if session.comparison is None else input_paths(comparison_inputs(session.comparison))
    if annotations is not None and annotations.origin:
        paths.append(annotations.origin)
    return paths


def export_report(
    session: ComparisonSession,
    path: str | os.PathLike[str],
    *,
    annotations: ReportAnnotations | None = None,
    options: ReportOptions | None = None,
    significance: Sequence[ColumnTest] | None = None,
    protect: Iterable[str | os.PathLike[str]] = (),
) -> Path:
    """Write the HTML report of ``session`` (every row scored) to ``path``; returns the path.

    See :func:`~core.report.page.render_report` for ``annotations``, ``options`` and
    ``significance``. Raises :class:`ReportError` for options the session cannot satisfy and
    :class:`~core.io.safewrite.WriteError` (an ``OSError``) when the file cannot be written or
    is one of the inputs (``protect`` adds more files to keep).
    """
    page = render_report(
        session, annotations=annotations, options=options, significance=significance
    )
    keep = [*protected_paths(session, annotations), *protect]
    return write_file_atomic(path, page.encode("utf-8"), protect=keep)
