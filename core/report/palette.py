"""The report's colours: the app's light theme (:mod:`core.style.palette`) as CSS colour strings.

The report paints match highlights exactly as the app does in its light theme: the same ramp
tints per matched level, the same fixed tints and underline colours, and the same text colour
on each tint. Systems take Okabe–Ito's colours in order, as the app's corpus summary does.
"""

from __future__ import annotations

from matchlight.core.style import palette as colours

__all__ = [
    "LCS_LINE",
    "LCS_TINT",
    "MISSED_LINE",
    "MISSED_TINT",
    "SYSTEM_COLOURS",
    "TER",
    "TINT_TEXT",
    "UNMATCHED_LINE",
    "match_tint",
    "system_colour",
    "tint_text",
]

_THEME = colours.LIGHT
#: Text on the fixed tints below.
TINT_TEXT = _THEME.fixed_text
UNMATCHED_LINE = _THEME.unmatched_line
MISSED_TINT = _THEME.missed_tint
MISSED_LINE = _THEME.missed_line
LCS_TINT = _THEME.lcs_tint
LCS_LINE = _THEME.lcs_line
#: TER's edit marks (the "TER edits" mode), as in the app's light theme.
TER = colours.TER_LIGHT
#: One colour per system, in order.
SYSTEM_COLOURS: tuple[str, ...] = colours.OKABE_ITO


def system_colour(index: int) -> str:
    return SYSTEM_COLOURS[index % len(SYSTEM_COLOURS)]


def match_tint(level: int, max_level: int) -> str:
    """The background of a ``match`` at ``level`` in a mode of ``max_level`` levels (higher
    levels are shown as ``max_level``), as ``#rrggbb``."""
    return colours.match_tint(level, max_level, dark=False)


def tint_text(tint: str) -> str:
    """The text colour on ``tint`` (``#rrggbb``): dark or light, whichever contrasts more."""
    return colours.tint_text(colours.parse_hex(tint))
