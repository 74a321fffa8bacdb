"""TER, numerically identical to sacreBLEU 2.6.0's ``TER``, with the edit path behind it.

TER (Snover et al., 2006) counts the edits that turn an output into a reference, divided by the
reference's length: word substitutions, deletions, insertions and shifts. The module describes
TER to the rest of Matchlight (:class:`TerMetric`, see :mod:`core.metrics.base`); the work is
done in three others:

* :mod:`core.metrics.teralign`: sacreBLEU's search for the edits, reproduced exactly, and the
  statistics and scores of many rows;
* :mod:`core.metrics.terpath`: one row's edit paths as character spans, the highlights and the
  "why this score" block;
* :mod:`core.metrics.teroptions`: the settings and sacreBLEU's reproducibility signature.

The edit marks the app paints (``TER_*`` kinds, :class:`~core.metrics.terpath.TerEditLayer`)
are re-exported here, where the highlighter and the report import them.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from typing import Any, cast

import numpy as np
import numpy.typing as npt

from matchlight.core.metrics.base import (
    ChunkText,
    CorpusView,
    HighlightMode,
    Metric,
    MetricChunk,
    MetricCorpus,
    MetricSettings,
    ScoreColumn,
)
from matchlight.core.metrics.teralign import TerScore, ter_chunk, ter_from_stats
from matchlight.core.metrics.teroptions import TER_OPTIONS, TerSettings, ter_signature
from matchlight.core.metrics.terpath import (
    TER_DEL,
    TER_DEST,
    TER_EDIT_KINDS,
    TER_GAP,
    TER_INS,
    TER_SHIFT,
    TER_SUB,
    TerEditLayer,
    TerLayer,
    TerRowDetail,
    ter_row,
)

__all__ = [
    "TER_DEL",
    "TER_DEST",
    "TER_EDIT_KINDS",
    "TER_GAP",
    "TER_INS",
    "TER_SHIFT",
    "TER_SUB",
    "TerEditLayer",
    "TerMetric",
]

IntArray = npt.NDArray[np.int64]


class TerMetric(Metric):
    """sacreBLEU's TER: sentence TER per segment, corpus TER from the summed edits and
    reference lengths. Lower is better; it exceeds 100 when there are more edits than
    reference words."""

    key = TER_OPTIONS.key
    label = TER_OPTIONS.label
    description = (
        "sacreBLEU 2.6.0's TER (translation edit rate): edits (shifts, substitutions, "
        "deletions, insertions) per reference word; lower is better; the corpus figure is the "
        "total edits over the total reference length, not the mean"
    )
    settings_type = TER_OPTIONS.settings_type

    def columns(self, settings: MetricSettings) -> tuple[ScoreColumn, ...]:
        return (
            ScoreColumn(
                "ter",
                "TER",
                "TER",
                self.key,
                "Sentence TER (sacreBLEU): edits per reference word, lower is better; the "
                "corpus figure is the total edits over the total reference length, not the mean",
                corpus="stats",
                primary=True,
                better="lower",
                low=0.0,
                high=None,
                decimals=1,
            ),
        )

    def stat_shapes(self, settings: MetricSettings) -> dict[str, tuple[int, ...]]:
        return {"edits": (), "ref_words": (), "refs": ()}

    def highlight_modes(self, settings: MetricSettings) -> tuple[HighlightMode, ...]:
        return tuple(
            HighlightMode(layer.key, layer.label, layer.max_level)
            for layer in (TerLayer, TerEditLayer)
        )

    def signature(
        self, settings: MetricSettings, *, nrefs: int, separator: str | None = None
    ) -> str:
        s = cast(TerSettings, settings)
        return ter_signature(
            nrefs=nrefs,
            normalized=s.normalized,
            no_punct=s.no_punct,
            asian_support=s.asian_support,
            case_sensitive=s.case_sensitive,
        )

    def chunk_scorer(self, settings: MetricSettings) -> Callable[[ChunkText], MetricChunk]:
        s = cast(TerSettings, settings)

        def score(chunk: ChunkText) -> MetricChunk:
            tokenizer = s.tokenizer()
            lines = chunk.lines()
            n_refs = len(chunk.references)
            found = ter_chunk(lines[:n_refs], lines[n_refs:], tokenizer)
            n_sys, n = found.edits.shape
            ref_words = np.broadcast_to(found.ref_words, (n_sys, n)).copy()
            refs = np.full((n_sys, n), found.refs, np.int64)
            scores = ter_from_stats(found.edits, ref_words, refs)
            stats = {"edits": found.edits, "ref_words": ref_words, "refs": refs}
            return MetricChunk(scores=scores[..., None], stats=stats)

        return score

    def corpus(self, settings: MetricSettings, view: CorpusView) -> MetricCorpus:
        if not view.count:
            return MetricCorpus(values={"ter": math.nan})
        edits = int(view.sum("edits"))
        ref_words = int(view.sum("ref_words"))
        refs = int(view.sum("refs"))
        length = ref_words / (refs / view.count)
        score = float(ter_from_stats(edits, ref_words, refs / view.count))
        return MetricCorpus(values={"ter": score}, detail=TerScore(score, edits, length))

    def additive(
        self, settings: MetricSettings, stats: Mapping[str, Any]
    ) -> tuple[IntArray, Callable[[Any], Any]]:
        """``[edits * refs, ref_words]`` per segment (integers; sums of the average reference
        length ``ref_words / refs`` need no fractions this way) and corpus TER of their sums,
        which equals sacreBLEU's on its own statistics (float32 on float32 sums)."""
        edits = np.asarray(stats["edits"], np.int64)
        ref_words = np.asarray(stats["ref_words"], np.int64)
        refs = np.asarray(stats["refs"], np.int64)
        if not edits.shape == ref_words.shape == refs.shape:
            raise ValueError(
                f"TER statistics need edits, ref_words and refs of one shape; got {edits.shape}, "
                f"{ref_words.shape}, {refs.shape}"
            )
        table = np.stack([edits * refs, ref_words], axis=-1)

        def score(summed: Any) -> Any:
            array = np.asarray(summed)
            if array.ndim != 2 or array.shape[1] != 2:
                raise ValueError(f"TER takes summed statistics of shape (m, 2), not {array.shape}")
            one = np.ones(1, np.float32 if array.dtype == np.float32 else np.int64)
            return ter_from_stats(array[:, 0], array[:, 1], one)

        return table, score

    def detailer(
        self, settings: MetricSettings, separator: str | None
    ) -> Callable[[Sequence[str], Sequence[str]], TerRowDetail]:
        s = cast(TerSettings, settings)

        def detail(references: Sequence[str], outputs: Sequence[str]) -> TerRowDetail:
            row = ter_row(s.tokenizer(), references, outputs, separator=separator)
            return TerRowDetail(row, outputs, references)

        return detail
