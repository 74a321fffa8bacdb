"""The marks of error spans and of the text selection: one encoding per meaning, shared by the
app (``gui/annotate/painting.py``, ``gui/highlight/palette.py``) and the HTML report.

Each visual channel carries one meaning, and no span mark looks like a highlight mark:

* match highlights are background *tints* and *underlines* (:mod:`core.style.palette`); an error
  span is a *box* around its characters, drawn outside the line so descenders stay inside it;
* the severity of a span is its *line weight* (and, for critical, a *double* line), with hue as
  a second cue: neutral a 1-pixel grey box, minor a 2-pixel purple one, major a 3-pixel magenta
  one, critical a 5-pixel double box in deep red. None of
  the hues is the vermillion, orange or green of the highlight underlines;
* the *status* of a span is its line pattern: solid when confirmed, dotted while undecided (a
  pre-annotation to confirm). No other box is dotted (a TER substitution is a dotted
  *underline*), and no span mark is dashed (a dashed underline is "missed by all systems");
* the text selection is an inverted band (ink in the light theme, amber in the dark one), far
  from every match tint, so selected text never blends into the blue ramp.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

__all__ = [
    "CONFIRMED_LINE",
    "SELECTION",
    "SEVERITIES",
    "SPAN_MARKS",
    "UNDECIDED_LINE",
    "Selection",
    "SpanMark",
    "span_css",
]


@dataclass(frozen=True, slots=True)
class SpanMark:
    """The box of one severity: its colour per theme, its line weight, whether it is double."""

    severity: str
    light: str
    dark: str
    #: The whole border's width in pixels (both lines and the gap of a double one).
    width: int
    double: bool

    def colour(self, dark: bool) -> str:
        return self.dark if dark else self.light

    @property
    def stroke(self) -> float:
        """The width of one line of the box: a double box is two lines and a gap, a third
        of its width each."""
        return self.width / 3 if self.double else float(self.width)


#: Severities from least to most severe (the values of ``core.annotation.model.Severity``).
SEVERITIES: Final = ("neutral", "minor", "major", "critical")

SPAN_MARKS: Final[dict[str, SpanMark]] = {
    "neutral": SpanMark("neutral", "#5f6b76", "#aab4be", 1, False),
    "minor": SpanMark("minor", "#6a3d9a", "#c9a7ff", 2, False),
    "major": SpanMark("major", "#c2185b", "#ff6fb5", 3, False),
    "critical": SpanMark("critical", "#6b0f1a", "#ff5c5c", 5, True),
}

#: The line pattern of a confirmed and of an undecided span (CSS ``border-style`` names).
CONFIRMED_LINE: Final = "solid"
UNDECIDED_LINE: Final = "dotted"


@dataclass(frozen=True, slots=True)
class Selection:
    """The selected-text band of one theme and the text on it."""

    background: str
    text: str


SELECTION: Final[dict[bool, Selection]] = {
    False: Selection("#262626", "#f7f7f7"),
    True: Selection("#ffc21a", "#111111"),
}


def span_css() -> str:
    """CSS for the report's span boxes (``.err.sev-<severity>``, ``.err.undecided``) and their
    numbers (``sup.sev-<severity>``), from :data:`SPAN_MARKS`."""
    rules = [
        ".err { border: 1px solid; border-radius: 3px; padding: 0 1px;"
        " box-decoration-break: clone; -webkit-box-decoration-break: clone; }"
    ]
    for name in SEVERITIES:
        mark = SPAN_MARKS[name]
        style = "double" if mark.double else CONFIRMED_LINE
        rules.append(
            f".err.sev-{name} {{ border-width: {mark.width}px; border-style: {style};"
            f" border-color: {mark.light}; }}"
        )
        rules.append(f"sup.sev-{name}, .omit.sev-{name} {{ color: {mark.light}; }}")
    rules.append(f".err.undecided {{ border-style: {UNDECIDED_LINE}; }}")
    return "\n".join(rules) + "\n"
