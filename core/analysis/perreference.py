"""Scores against each reference alone, from the engine, and the audit of references that are
too close to one system (:mod:`core.analysis.references`) on any set of rows.

With several references the corpus score against all of them is not a function of the scores
against each one (BLEU clips to the largest count in any single reference), so every reference
is scored on its own: :func:`single_reference_tables` runs the engine once per reference, on a
:class:`~core.text.corpus.CorpusText` holding that reference alone, for the one metric asked
for. Those tables are kept; :func:`reference_report` then only sums statistics for whatever rows
are selected, and takes each line's sentence score against each reference alone as the
similarity that :func:`~core.analysis.references.audit_references` needs.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from matchlight.core.analysis.compare import row_index
from matchlight.core.analysis.references import (
    ReferenceAudit,
    ReferenceBreakdown,
    audit_references,
    score_by_reference,
)
from matchlight.core.scoring.config import ScoringConfig
from matchlight.core.scoring.engine import empty_table, iter_score_chunks
from matchlight.core.scoring.results import ScoreChunk, ScoreTable
from matchlight.core.text.corpus import CorpusText

__all__ = [
    "ReferenceReport",
    "one_reference",
    "reference_report",
    "single_reference_tables",
]

FloatArray = npt.NDArray[np.float64]

#: ``chunk_source(text, config, cancel=...)`` -> chunks, as :func:`core.scoring.engine.
#: iter_score_chunks` (a GUI passes the offloaded variant, which scores in processes).
ChunkSource = Callable[..., Iterator[ScoreChunk]]


def one_reference(text: CorpusText, reference: int) -> CorpusText:
    """``text`` with reference ``reference`` alone."""
    if not 0 <= reference < len(text.references):
        raise ValueError(f"no reference {reference + 1}; there are {len(text.references)}")
    return CorpusText((text.references[reference],), text.systems, text.system_names)


def single_reference_tables(
    text: CorpusText,
    config: ScoringConfig,
    *,
    metric: str,
    chunk_source: ChunkSource = iter_score_chunks,
    cancel: Callable[[], bool] | None = None,
    progress: Callable[[float], None] | None = None,
) -> tuple[ScoreTable, ...] | None:
    """One score table per reference: every system scored with metric ``metric`` (a registry
    key, with ``config``'s settings for it) against that reference alone.

    Returns None when ``cancel`` said stop. ``progress`` receives the fraction done.
    """
    alone = config.with_metrics((metric,))
    n_refs = len(text.references)
    tables: list[ScoreTable] = []
    for r in range(n_refs):
        single = one_reference(text, r)
        table = empty_table(single, alone)
        for chunk in chunk_source(single, alone, cancel=cancel):
            table.apply(chunk)
            if progress is not None:
                progress((r + table.n_done / max(1, table.n_segments)) / n_refs)
        if cancel is not None and cancel():
            return None
        tables.append(table)
    return tuple(tables)


@dataclass(frozen=True, slots=True)
class ReferenceReport:
    """Scores of one column per system against each reference alone and against all of them
    (``breakdown``), and the audit of references too close to one system (``audit``, with the
    sentence scores against each reference alone as similarity), over ``n_rows`` rows."""

    column: str
    label: str
    breakdown: ReferenceBreakdown
    audit: ReferenceAudit
    n_rows: int


def reference_report(
    *,
    text: CorpusText,
    table: ScoreTable,
    singles: Sequence[ScoreTable],
    column: str,
    reference_names: Sequence[str],
    rows: npt.ArrayLike | None = None,
) -> ReferenceReport:
    """The report on ``rows`` (None: all) for ``column``, a column of the metric the
    ``singles`` (from :func:`single_reference_tables`) were scored with; the figures against
    all references come from ``table``, the comparison's own score table."""
    n_refs = len(text.references)
    if len(singles) != n_refs or len(reference_names) != n_refs:
        raise ValueError(f"need one table and one name per reference ({n_refs})")
    chosen = row_index(rows, len(text))
    n_sys = len(text.systems)

    def corpus(t: ScoreTable) -> FloatArray:
        return np.array(
            [t.corpus(s, chosen, metrics=[column]).value(column) for s in range(n_sys)],
            np.float64,
        )

    def score_with(subset: tuple[int, ...]) -> FloatArray:
        if len(subset) == 1:
            return corpus(singles[subset[0]])
        return corpus(table)

    breakdown = score_by_reference(
        systems=text.system_names, references=reference_names, score_with=score_with
    )
    index = singles[0].metric_index(column)
    similarity = np.stack([t.scores[:, :, index] for t in singles])
    audit = audit_references(
        references=text.references,
        systems=text.systems,
        reference_names=reference_names,
        system_names=text.system_names,
        similarity=np.nan_to_num(similarity, nan=0.0),
        rows=chosen,
    )
    label = table.column_info(column).label
    return ReferenceReport(column, label, breakdown, audit, int(chosen.size))
