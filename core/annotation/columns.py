"""The score-table columns annotations make: MQM penalties and ESA scores per segment.

They join a comparison's score table like any metric column
(:meth:`ComparisonSession.set_column <matchlight.core.session.comparison.ComparisonSession.
set_column>`), so the table, the summary, the filters and the significance tests see them.
"""

from __future__ import annotations

from matchlight.core.metrics.base import ScoreColumn

__all__ = ["ESA_COLUMN", "MQM_COLUMN"]

#: MQM penalties (lower is better, no upper bound; NaN: not annotated).
MQM_COLUMN = ScoreColumn(
    key="mqm",
    label="MQM penalty",
    short="MQM",
    metric="mqm",
    description="error penalty from the annotations (weighted errors; lower is better)",
    corpus="mean",
    headline=True,
    better="lower",
    low=0.0,
    high=None,
    decimals=2,
)
#: ESA segment scores (0–100, higher is better).
ESA_COLUMN = ScoreColumn(
    key="esa",
    label="ESA score",
    short="ESA",
    metric="esa",
    description="Error Span Annotation score of the output (0–100)",
    corpus="mean",
    headline=True,
)
