"""What separates one system from the baseline in one row: the reference text it matched and
the baseline did not ("gain"), and the reverse ("loss").

Both are read from a highlight layer's own ranges (:meth:`HighlightLayer.reference
<core.metrics.base.HighlightLayer.reference>` of each system alone), so they are what the app
paints, in the layer's units: whole tokens for BLEU and the ROUGE-L LCS, characters for chrF.
Ranges are compared by *character coverage*, not by exact ``(start, end)``: a layer whose
ranges are runs of characters at an n-gram level (chrF) cuts the same reference text
differently for two systems. A gain is the part of one of the system's matched ranges that no
matched range of the baseline covers; on a token layer every range is one token, so every gain
is a whole token.

On the output side, a token of the system's output is a gain when every reference span it is
linked to (:meth:`HighlightLayer.links <core.metrics.base.HighlightLayer.links>`, over all
references) is a gain position: the output gets credit there and the baseline gets none. A
layer without links (chrF) cannot say which output characters earned which reference
characters, so its contrast has reference gains and losses only (``linked`` is False).
"""

from __future__ import annotations

import bisect
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from matchlight.core.metrics.base import HighlightLayer, Range
from matchlight.core.scoring.detail import RowDetail
from matchlight.core.text.types import Span

__all__ = [
    "CONTRAST_KINDS",
    "MATCHED_KINDS",
    "Contrast",
    "baseline_contrast",
    "covered",
    "has_links",
    "matched_spans",
    "row_contrast",
]

#: The range kinds that mean "this text was matched" (n-gram matches, LCS tokens).
MATCHED_KINDS: frozenset[str] = frozenset({"match", "lcs"})
#: The range kinds of a contrast: matched by the system and not the baseline, and the reverse.
CONTRAST_KINDS: tuple[str, str] = ("gain", "loss")


@dataclass(frozen=True, slots=True)
class Contrast:
    """One system against the baseline in one row, in one highlight layer.

    ``gains[r]`` / ``losses[r]`` are the character spans of reference ``r`` matched by
    ``system`` and not by ``baseline`` / by ``baseline`` and not by ``system``, sorted.
    ``hypothesis_gains`` are spans of ``system``'s output all of whose links point at gains
    (empty when the layer has no links: ``linked`` False). A system compared with itself has
    no gains and no losses.
    """

    layer: str
    system: int
    baseline: int
    gains: tuple[tuple[Span, ...], ...]
    losses: tuple[tuple[Span, ...], ...]
    hypothesis_gains: tuple[Span, ...]
    linked: bool

    def reference_ranges(self, reference: int) -> list[Range]:
        """The marks of reference ``reference``: ``gain`` then ``loss`` ranges (level 0)."""
        return [(a, b, "gain", 0) for a, b in self.gains[reference]] + [
            (a, b, "loss", 0) for a, b in self.losses[reference]
        ]

    def hypothesis_ranges(self) -> list[Range]:
        """The ``gain`` marks of the system's output."""
        return [(a, b, "gain", 0) for a, b in self.hypothesis_gains]

    def is_empty(self) -> bool:
        """True when nothing separates the two systems in this row (in this layer)."""
        return not (any(self.gains) or any(self.losses) or self.hypothesis_gains)


def matched_spans(ranges: Iterable[Range]) -> list[Span]:
    """The distinct non-empty spans of ``ranges`` whose kind is matched, sorted."""
    return sorted({(a, b) for a, b, kind, _ in ranges if kind in MATCHED_KINDS and b > a})


def covered(spans: Iterable[Span]) -> list[Span]:
    """The characters of ``spans`` as sorted, disjoint, non-touching intervals."""
    merged: list[Span] = []
    for a, b in sorted(s for s in spans if s[1] > s[0]):
        if merged and a <= merged[-1][1]:
            if b > merged[-1][1]:
                merged[-1] = (merged[-1][0], b)
        else:
            merged.append((a, b))
    return merged


def _subtract(spans: Sequence[Span], cover: Sequence[Span]) -> list[Span]:
    """The parts of each of ``spans`` outside ``cover`` (see :func:`covered`), in order."""
    starts = [a for a, _ in cover]
    out: list[Span] = []
    for a, b in spans:
        pos = a
        i = max(bisect.bisect_right(starts, a) - 1, 0)
        while i < len(cover) and cover[i][0] < b and pos < b:
            c, d = cover[i]
            if d > pos:
                if c > pos:
                    out.append((pos, c))
                pos = d
            i += 1
        if pos < b:
            out.append((pos, b))
    return out


class _Cover:
    """Sorted disjoint intervals (see :func:`covered`) that answer "is this span inside?"."""

    __slots__ = ("_ends", "_starts")

    def __init__(self, spans: Iterable[Span]) -> None:
        cover = covered(spans)
        self._starts = [a for a, _ in cover]
        self._ends = [b for _, b in cover]

    def holds(self, span: Span) -> bool:
        """Whether every character of ``span`` (non-empty) is covered."""
        a, b = span
        i = bisect.bisect_right(self._starts, a) - 1
        return b > a and i >= 0 and b <= self._ends[i]


def has_links(layer: HighlightLayer) -> bool:
    """Whether ``layer`` says which output text matched which reference text."""
    return type(layer).links is not HighlightLayer.links


def baseline_contrast(
    layer: HighlightLayer, *, system: int, baseline: int, n_references: int
) -> Contrast:
    """What ``system`` matched in ``layer`` and ``baseline`` did not, and the reverse.

    ``n_references`` is the row's number of references. See the module docstring for what a
    gain is on each side.
    """
    if system < 0 or baseline < 0:
        raise ValueError(f"systems are numbered from 0; got system {system}, baseline {baseline}")
    if n_references < 0:
        raise ValueError(f"a row has no negative number of references ({n_references})")
    linked = has_links(layer)
    if system == baseline:
        empty: tuple[tuple[Span, ...], ...] = tuple(() for _ in range(n_references))
        return Contrast(layer.key, system, baseline, empty, empty, (), linked)
    gains: list[tuple[Span, ...]] = []
    losses: list[tuple[Span, ...]] = []
    for r in range(n_references):
        mine = matched_spans(layer.reference(r, system))
        theirs = matched_spans(layer.reference(r, baseline))
        gains.append(tuple(_subtract(mine, covered(theirs))))
        losses.append(tuple(_subtract(theirs, covered(mine))))
    hypothesis_gains: tuple[Span, ...] = ()
    if linked:
        output = _Cover(matched_spans(layer.hypothesis(system)))
        gained = [_Cover(g) for g in gains]
        verdict: dict[Span, bool] = {}
        for r in range(n_references):
            for hyp, ref in layer.links(system, r):
                if output.holds(hyp):
                    verdict[hyp] = verdict.get(hyp, True) and gained[r].holds(ref)
        hypothesis_gains = tuple(sorted(span for span, ok in verdict.items() if ok))
    return Contrast(
        layer.key, system, baseline, tuple(gains), tuple(losses), hypothesis_gains, linked
    )


def row_contrast(detail: RowDetail, mode: str, *, system: int, baseline: int) -> Contrast | None:
    """:func:`baseline_contrast` in ``detail``'s layer ``mode``; None when the row has no such
    layer (its metric's detail could not be computed, see ``RowDetail.notes``)."""
    layer = detail.layer(mode)
    if layer is None:
        return None
    n_systems = len(detail.systems)
    if not (0 <= system < n_systems and 0 <= baseline < n_systems):
        raise ValueError(
            f"the row has {n_systems} systems; got system {system}, baseline {baseline}"
        )
    return baseline_contrast(
        layer, system=system, baseline=baseline, n_references=len(detail.references)
    )
