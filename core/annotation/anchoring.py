"""Re-anchoring: find a span again after its line may have changed.

* KEPT: the text at the stored offsets still equals the selected text (for an omission: the
  text before the point still ends with the stored prefix).
* REATTACHED: the selected text is found elsewhere in the line. Among several occurrences the
  one whose preceding text shares the longest tail with the stored prefix wins; ties go to the
  occurrence nearest the old offset.
* FLAGGED: not found (or the segment no longer exists). The span is returned unchanged so the
  user can fix or delete it.

A span on the source (:attr:`~matchlight.core.annotation.model.Side.SOURCE`) is looked for in the
source line, never in an output.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum

from matchlight.core.annotation.model import ErrorSpan, Side

__all__ = ["AnchorState", "Reanchored", "reanchor", "reanchor_all"]


class AnchorState(StrEnum):
    KEPT = "kept"
    REATTACHED = "reattached"
    FLAGGED = "flagged"


@dataclass(frozen=True, slots=True)
class Reanchored:
    """The outcome for one span; ``span`` has the new offsets when it was re-attached."""

    state: AnchorState
    span: ErrorSpan


def _common_tail(a: str, b: str) -> int:
    n = 0
    for x, y in zip(reversed(a), reversed(b)):
        if x != y:
            break
        n += 1
    return n


def _occurrences(line: str, text: str) -> list[int]:
    found: list[int] = []
    at = line.find(text)
    while at != -1:
        found.append(at)
        at = line.find(text, at + 1)
    return found


def reanchor(span: ErrorSpan, line: str | None) -> Reanchored:
    """Where ``span`` is on the current ``line`` (None: the segment does not exist any more)."""
    if line is None:
        return Reanchored(AnchorState.FLAGGED, span)
    if span.is_omission:
        if span.start <= len(line) and line[: span.start].endswith(span.prefix):
            return Reanchored(AnchorState.KEPT, span)
        if not span.prefix:
            return Reanchored(AnchorState.FLAGGED, span)
        candidates = [at + len(span.prefix) for at in _occurrences(line, span.prefix)]
    else:
        if line[span.start : span.end] == span.text:
            return Reanchored(AnchorState.KEPT, span)
        candidates = _occurrences(line, span.text)
    if not candidates:
        return Reanchored(AnchorState.FLAGGED, span)
    best = min(
        candidates,
        key=lambda at: (-_common_tail(line[:at], span.prefix), abs(at - span.start), at),
    )
    length = span.end - span.start
    return Reanchored(AnchorState.REATTACHED, span.moved(line, best, best + length))


def reanchor_all(
    spans: Iterable[ErrorSpan],
    lines: Mapping[str, Sequence[str]],
    *,
    sources: Sequence[str] | None = None,
) -> list[Reanchored]:
    """Re-anchor every span against ``lines`` (system name -> its current lines); a source
    span against ``sources`` (the current source lines). Without ``sources`` a source span is
    left as it is (KEPT): an output's line says nothing about it."""
    out: list[Reanchored] = []
    for span in spans:
        if span.side is Side.SOURCE:
            if sources is None:
                out.append(Reanchored(AnchorState.KEPT, span))
            else:
                out.append(
                    reanchor(span, sources[span.segment] if span.segment < len(sources) else None)
                )
            continue
        system_lines = lines.get(span.system)
        line = (
            system_lines[span.segment]
            if system_lines is not None and span.segment < len(system_lines)
            else None
        )
        out.append(reanchor(span, line))
    return out
