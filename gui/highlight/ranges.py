"""Which character ranges of a row's texts to paint, and how, in each highlight mode.

The table's cells and the detail pane's views paint exactly these ranges, computed from a
:class:`~core.scoring.detail.RowDetail`; nothing here tokenizes or matches anything.
"""

from __future__ import annotations

from matchlight.core.scoring.detail import RowDetail
from matchlight.gui.highlight.palette import Range

MODES: tuple[str, ...] = ("bleu", "lcs")


def check_mode(mode: str) -> str:
    if mode not in MODES:
        raise ValueError(f"unknown view mode {mode!r}; expected one of {', '.join(MODES)}")
    return mode


def hypothesis_ranges(detail: RowDetail, system: int, mode: str) -> list[Range]:
    """Highlight ranges of system ``system``'s output.

    ``"bleu"``: every BLEU token, as ``("bleu", highest matched order)`` or ``("unmatched", 0)``.
    ``"lcs"``: the tokens of the ROUGE-L LCS (with the reference rouge-score chose) as
    ``("lcs", 1)``.
    """
    hyp = detail.systems[system]
    if check_mode(mode) == "bleu":
        return [
            (h.start, h.end, "bleu", h.level) if h.level else (h.start, h.end, "unmatched", 0)
            for h in hyp.bleu_highlights
        ]
    return [(h.start, h.end, "lcs", 1) for h in hyp.lcs_highlights if h.level]


def reference_ranges(
    detail: RowDetail, reference: int, mode: str, system: int | None = None
) -> list[Range]:
    """Highlight ranges of reference ``reference``, as matched by ``system`` (None: any system).

    ``"bleu"``: matched tokens as ``("bleu", order)`` (the highest order any chosen system
    matched), tokens that no system matched as ``("missed", 0)`` and, with one system chosen,
    tokens only other systems matched as ``("unmatched", 0)``.
    ``"lcs"``: tokens in the LCS of the chosen system (any system) with this reference.
    """
    ref = detail.references[reference]
    if check_mode(mode) == "bleu":
        ranges: list[Range] = []
        per_system = ref.bleu_highlights
        for t, (start, end) in enumerate(ref.bleu_tokens.spans):
            if system is None:
                level = max((hl[t].level for hl in per_system), default=0)
            else:
                level = per_system[system][t].level
            if level:
                ranges.append((start, end, "bleu", level))
            elif not ref.matched_by[t]:
                ranges.append((start, end, "missed", 0))
            else:
                ranges.append((start, end, "unmatched", 0))
        return ranges
    chosen = ref.lcs_highlights if system is None else (ref.lcs_highlights[system],)
    ranges = []
    for t, (start, end) in enumerate(ref.rouge_tokens.spans):
        if any(hl[t].level for hl in chosen):
            ranges.append((start, end, "lcs", 1))
    return ranges


def cell_ranges(
    detail: RowDetail,
    kind: str,
    system: int | None,
    reference: int | None,
    mode: str,
    reference_system: int | None,
) -> list[Range]:
    """The ranges of one text cell (none for the source)."""
    if kind == "hypothesis" and system is not None:
        return hypothesis_ranges(detail, system, mode)
    if kind == "reference" and reference is not None:
        return reference_ranges(detail, reference, mode, reference_system)
    return []
