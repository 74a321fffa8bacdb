"""Which character ranges of a row's texts to paint, in each highlight mode.

The modes are the scored metrics' highlight layers (:meth:`ScoringConfig.highlight_modes
<core.scoring.config.ScoringConfig.highlight_modes>`, in order), so a metric added to the
registry brings its mode with it. The table's cells and the detail pane's views paint exactly
the ranges of :meth:`RowDetail.layer(mode) <core.scoring.detail.RowDetail.layer>`; nothing here
tokenizes or matches anything. A row whose layer is missing (its metric's detail could not be
computed, see ``RowDetail.notes``) has no ranges: its text is shown plain.

When one system's reference matches are shown and a baseline is set, the reference ranges are
followed by the ``gain`` and ``loss`` marks of :func:`core.scoring.contrast.row_contrast`,
painted over them.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from matchlight.core.metrics.base import HighlightMode, Range
from matchlight.core.scoring.contrast import Contrast, row_contrast
from matchlight.core.scoring.detail import RowDetail

__all__ = [
    "cell_ranges",
    "contrasted",
    "find_mode",
    "hypothesis_ranges",
    "range_kinds",
    "reference_marks",
    "reference_ranges",
    "row_marks",
]


def find_mode(modes: Sequence[HighlightMode], key: str) -> HighlightMode:
    """The mode ``key`` of ``modes``; ValueError naming the modes there are."""
    for mode in modes:
        if mode.key == key:
            return mode
    names = ", ".join(m.key for m in modes) or "none"
    raise ValueError(f"unknown highlight mode {key!r}; expected one of {names}")


def hypothesis_ranges(detail: RowDetail, system: int, mode: str) -> list[Range]:
    """The ranges of system ``system``'s output in mode ``mode``."""
    layer = detail.layer(mode)
    return [] if layer is None else layer.hypothesis(system)


def reference_ranges(
    detail: RowDetail, reference: int, mode: str, system: int | None = None
) -> list[Range]:
    """The ranges of reference ``reference`` as matched by ``system`` (None: any system)."""
    layer = detail.layer(mode)
    return [] if layer is None else layer.reference(reference, system)


def contrasted(system: int | None, baseline: int | None) -> bool:
    """Whether ``system`` is compared with ``baseline``: both set, and not the same system."""
    return system is not None and baseline is not None and system != baseline


def row_marks(
    detail: RowDetail, mode: str, system: int | None, baseline: int | None
) -> Contrast | None:
    """``system`` against ``baseline`` in ``detail``'s layer ``mode``; None unless
    :func:`contrasted` with both systems in the row, or when the row has no such layer."""
    n = len(detail.systems)
    if system is None or baseline is None or system == baseline:
        return None
    if not (0 <= system < n and 0 <= baseline < n):
        return None
    return row_contrast(detail, mode, system=system, baseline=baseline)


def reference_marks(
    detail: RowDetail, reference: int, mode: str, system: int | None, baseline: int | None
) -> list[Range]:
    """The ``gain`` and ``loss`` marks of reference ``reference``: what ``system`` matched and
    ``baseline`` did not, and the reverse (none unless :func:`contrasted`)."""
    contrast = row_marks(detail, mode, system, baseline)
    return [] if contrast is None else contrast.reference_ranges(reference)


def cell_ranges(
    detail: RowDetail,
    kind: str,
    system: int | None,
    reference: int | None,
    mode: str,
    reference_system: int | None,
    baseline: int | None = None,
) -> list[Range]:
    """The ranges of one text cell (none for the source); a reference cell shows
    ``reference_system``'s marks against ``baseline`` after its ranges."""
    if kind == "hypothesis" and system is not None:
        return hypothesis_ranges(detail, system, mode)
    if kind == "reference" and reference is not None:
        return reference_ranges(detail, reference, mode, reference_system) + reference_marks(
            detail, reference, mode, reference_system, baseline
        )
    return []


def range_kinds(ranges: Iterable[Range]) -> set[str]:
    """The kinds of ``ranges`` (what a legend of them must explain)."""
    return {kind for _, _, kind, _ in ranges}
