"""Highlight detail for one row: what matched where, and why each output scored what it did.

This is the slow path, computed lazily for the rows a user looks at. Each scored metric
contributes its :class:`~core.metrics.base.MetricRowDetail`: highlight layers (character ranges
of the original texts, see :class:`~core.metrics.base.HighlightLayer`), the sentence values of
its columns, and its "why this score" blocks. The GUI paints exactly the ranges given here and
never re-tokenizes anything.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

from matchlight.core.metrics.base import (
    Block,
    DetailTooLarge,
    HighlightLayer,
    MetricRowDetail,
)
from matchlight.core.scoring.config import ScoringConfig

__all__ = ["RowDetail", "RowDetailer", "row_detail"]


@dataclass(frozen=True, slots=True)
class RowDetail:
    """Everything shown about one row: its texts and each scored metric's detail.

    ``notes`` say why a metric's detail is missing (a line too long to highlight), per metric
    key; the row's scores in the table are unaffected.
    """

    segment: int  # 0-based
    source: str | None
    references: tuple[str, ...]
    systems: tuple[str, ...]  # names
    outputs: tuple[str, ...]  # each system's output
    metrics: Mapping[str, MetricRowDetail]
    notes: Mapping[str, str] = field(default_factory=dict)

    def layers(self) -> tuple[HighlightLayer, ...]:
        """Every highlight layer, metric after metric."""
        return tuple(layer for detail in self.metrics.values() for layer in detail.layers)

    def layer(self, key: str) -> HighlightLayer | None:
        """The highlight layer ``key`` (``bleu``, ``lcs``, ``chrf``...), or None."""
        for layer in self.layers():
            if layer.key == key:
                return layer
        return None

    def values(self, system: int) -> dict[str, float]:
        """The sentence values of every column for ``system`` (equal to the table's)."""
        found: dict[str, float] = {}
        for detail in self.metrics.values():
            found.update(detail.values(system))
        return found

    def breakdown(self, system: int, reference_names: Sequence[str]) -> tuple[Block, ...]:
        """The "why this score" blocks of ``system``'s output, metric after metric."""
        return tuple(
            block
            for detail in self.metrics.values()
            for block in detail.breakdown(system, reference_names)
        )


class RowDetailer:
    """Computes :class:`RowDetail` under one configuration (tokenizers resolved once)."""

    def __init__(self, config: ScoringConfig) -> None:
        self.config = config
        separator = config.sentence_separator
        self._detailers: list[
            tuple[str, Callable[[Sequence[str], Sequence[str]], MetricRowDetail]]
        ] = [(m.key, m.detailer(s, separator)) for m, s in config.enabled()]

    def row(
        self,
        *,
        segment: int,
        source: str | None,
        references: Sequence[str],
        systems: Sequence[tuple[str, str]],
    ) -> RowDetail:
        outputs = [text for _, text in systems]
        metrics: dict[str, MetricRowDetail] = {}
        notes: dict[str, str] = {}
        for key, detail in self._detailers:
            try:
                metrics[key] = detail(references, outputs)
            except DetailTooLarge as error:
                notes[key] = str(error)
        return RowDetail(
            segment=segment,
            source=source,
            references=tuple(references),
            systems=tuple(name for name, _ in systems),
            outputs=tuple(outputs),
            metrics=metrics,
            notes=notes,
        )


def row_detail(
    config: ScoringConfig,
    *,
    segment: int,
    source: str | None,
    references: Sequence[str],
    systems: Sequence[tuple[str, str]],
) -> RowDetail:
    """Detail of one row (see :class:`RowDetailer` to reuse tokenizers across rows)."""
    return RowDetailer(config).row(
        segment=segment, source=source, references=references, systems=systems
    )
