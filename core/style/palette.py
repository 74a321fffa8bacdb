"""The app's colours for its light and dark themes, and the colour arithmetic behind them.

This is the one home of Matchlight's colours: ``gui/highlight/palette.py`` turns them into
``QColor`` and ``QTextCharFormat``, ``gui/charts/theme.py`` draws systems with them, and the HTML
report (``core/report/palette.py``) writes them into CSS. Colours are ``#rrggbb`` strings;
the arithmetic works on :data:`RGB` triples of sRGB channels in [0, 1].

The highlight palette is colour-blind safe by construction:

* matched levels (n-gram orders 1..a mode's ``max_level``) are one sequential blue ramp,
  interpolated in CIELAB, so the level reads as *lightness* and equal steps of level are about
  equal steps of perceived difference. A mode's levels are spread over the whole ramp
  (:func:`match_tints`);
* unmatched tokens get a vermillion underline (no tint), reference tokens no system matched an
  orange tint, ROUGE-L LCS tokens a bluish-green tint, the hover link a yellow tint;
* against the baseline, reference text the baseline matched and the chosen system did not (a
  "loss") gets a reddish-purple tint struck through (a shape, not only a hue); text the
  system matched and the baseline did not (a "gain") sits on a match tint already, so it gets
  no colour of its own but bold text underlined in that tint's own text colour, which keeps
  :data:`MIN_TEXT_CONTRAST` with every tint;
* every tint has a text colour that keeps at least :data:`MIN_TEXT_CONTRAST` (WCAG) with it.

Computed colours are rounded to 8-bit channels the way ``QColor`` rounds them (16 bits, then 8),
so the app and the report show the same ``#rrggbb``.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass
from functools import lru_cache

__all__ = [
    "DARK",
    "DARK_TEXT",
    "DEFAULT_MAX_LEVEL",
    "LIGHT",
    "LIGHT_TEXT",
    "MIN_TEXT_CONTRAST",
    "MIN_TINT_CONTRAST",
    "OKABE_ITO",
    "RGB",
    "TER_DARK",
    "TER_LIGHT",
    "Lab",
    "TerColours",
    "Theme",
    "contrast_ratio",
    "from_lab",
    "hex_name",
    "match_tint",
    "match_tints",
    "parse_hex",
    "relative_luminance",
    "ter_colours",
    "theme",
    "tint_text",
    "to_lab",
]

#: sRGB channels, each in [0, 1].
RGB = tuple[float, float, float]
#: CIELAB (D65): lightness 0..100, then a and b.
Lab = tuple[float, float, float]

#: The levels of a ``match`` tint when no mode says otherwise (BLEU's default order).
DEFAULT_MAX_LEVEL = 4
#: The contrast every tint keeps with its text (WCAG AA is 4.5; a little more, for rounding).
MIN_TEXT_CONTRAST = 4.6
#: The contrast every tint keeps with its theme's background (white, #1f1f1f): the ramp codes
#: the level in lightness and must carry readable text, so a pale level cannot reach WCAG's 3:1
#: for graphics; this floor keeps the 1-gram tint visible on both themes.
MIN_TINT_CONTRAST = 1.25
#: The two text colours a tint is paired with (:func:`tint_text`).
DARK_TEXT = "#111111"
LIGHT_TEXT = "#f7f7f7"

#: Okabe & Ito's eight colours, distinguishable with the common colour-vision deficiencies, in
#: the order systems take them (the corpus summary and the report use them as published).
OKABE_ITO: tuple[str, ...] = (
    "#0072B2",
    "#D55E00",
    "#009E73",
    "#CC79A7",
    "#E69F00",
    "#56B4E9",
    "#000000",
    "#F0E442",
)


@dataclass(frozen=True, slots=True, kw_only=True)
class Theme:
    """The colours of one theme."""

    dark: bool
    #: Anchors of the match ramp, level 1 first and a mode's highest level last: palest to
    #: deepest on a light background, deepest to brightest on a dark one.
    ramp: tuple[str, ...]
    #: The text on the fixed tints (missed, LCS, link, loss).
    fixed_text: str
    unmatched_line: str
    missed_tint: str
    missed_line: str
    lcs_tint: str
    lcs_line: str
    link_tint: str
    link_line: str
    #: Reference text the baseline matched and the chosen system did not, and its
    #: strike-through.
    loss_tint: str
    loss_line: str
    #: A difference in the better (worse) direction of its column, as text on the background
    #: (the table's Δ cells); the sign says it too, for those who do not tell the hues apart.
    better_text: str
    worse_text: str
    #: One colour per system, in order, for the charts (:data:`OKABE_ITO` made to stand out
    #: against this theme's background).
    systems: tuple[str, ...]


LIGHT = Theme(
    dark=False,
    # The palest level keeps MIN_TINT_CONTRAST with white.
    ramp=("#d4e6f7", "#8cbde8", "#4389cc", "#1c5aa2", "#092a5e"),
    fixed_text=DARK_TEXT,
    unmatched_line="#d55e00",
    missed_tint="#fcd3a8",
    missed_line="#b34700",
    lcs_tint="#c6ebd9",
    lcs_line="#007a59",
    link_tint="#ffe066",
    link_line="#8a6d00",
    loss_tint="#f3cde3",
    loss_line="#8e1f5e",
    better_text="#00704f",
    worse_text="#a8320e",
    # Okabe-Ito's yellow is too pale to see on white: a darker yellow instead.
    systems=(*OKABE_ITO[:7], "#B8A800"),
)
DARK = Theme(
    dark=True,
    # The deepest level keeps MIN_TINT_CONTRAST with the dark base (#1f1f1f).
    ramp=("#1b3352", "#2767b2", "#66a9e8", "#cce6fd"),
    fixed_text="#f2f2f2",
    unmatched_line="#ff8c42",
    missed_tint="#5c3510",
    missed_line="#ffa55c",
    lcs_tint="#174a38",
    lcs_line="#3fd0a0",
    link_tint="#7a6200",
    link_line="#ffe066",
    loss_tint="#5a2748",
    loss_line="#ff9ed6",
    better_text="#5fd3a8",
    worse_text="#ff9e6b",
    # Lighter variants of Okabe-Ito, in the same order, for dark backgrounds.
    systems=(
        "#56B4E9",
        "#FF8F4A",
        "#2FD3A2",
        "#EBA3CC",
        "#F5C04A",
        "#9FD8F7",
        "#E6E6E6",
        "#F0E442",
    ),
)


def theme(dark: bool) -> Theme:
    """The dark or the light theme."""
    return DARK if dark else LIGHT


# -- conversions ----------------------------------------------------------------------------------


def parse_hex(colour: str) -> RGB:
    """The channels of a ``#rrggbb`` colour."""
    digits = colour[1:] if colour.startswith("#") else ""
    try:
        value = int(digits, 16) if len(digits) == 6 else -1
    except ValueError:
        value = -1
    if value < 0:
        raise ValueError(f"not a #rrggbb colour: {colour!r}")
    return ((value >> 16) / 255, ((value >> 8) & 0xFF) / 255, (value & 0xFF) / 255)


_FLOAT32 = struct.Struct("f")


def _float32(value: float) -> float:
    return float(_FLOAT32.unpack(_FLOAT32.pack(value))[0])


def _channel_8bit(value: float) -> int:
    """A channel in [0, 1] as ``QColor.fromRgbF`` stores it and ``QColor.name`` reports it.

    Qt takes the channel as a C ``float``, rounds ``value * 65535`` in single precision to 16
    bits, and divides that by 257 rounding to nearest.
    """
    scaled = _float32(_float32(min(max(value, 0.0), 1.0)) * 65535)
    v16 = int(_float32(scaled + 0.5))
    v16 += 128
    return (v16 - (v16 >> 8)) >> 8


def hex_name(rgb: RGB) -> str:
    """``#rrggbb`` of ``rgb`` (channels clamped to [0, 1]), rounded as ``QColor.name()`` is."""
    return "#" + "".join(f"{_channel_8bit(c):02x}" for c in rgb)


_WHITE = (0.95047, 1.0, 1.08883)  # D65


def _linear(channel: float) -> float:
    return channel / 12.92 if channel <= 0.04045 else ((channel + 0.055) / 1.055) ** 2.4


def _gamma(channel: float) -> float:
    channel = min(max(channel, 0.0), 1.0)
    return 12.92 * channel if channel <= 0.0031308 else 1.055 * channel ** (1 / 2.4) - 0.055


def _lab_f(t: float) -> float:
    return t ** (1 / 3) if t > 216 / 24389 else (24389 / 27 * t + 16) / 116


def _lab_f_inverse(t: float) -> float:
    return t**3 if t**3 > 216 / 24389 else (116 * t - 16) / (24389 / 27)


def to_lab(rgb: RGB) -> Lab:
    """CIELAB (D65) of an sRGB colour."""
    r, g, b = (_linear(c) for c in rgb)
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / _WHITE[0]
    y = (0.2126 * r + 0.7152 * g + 0.0722 * b) / _WHITE[1]
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / _WHITE[2]
    fx, fy, fz = _lab_f(x), _lab_f(y), _lab_f(z)
    return 116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)


def from_lab(lab: Lab) -> RGB:
    """The sRGB colour of a CIELAB (D65) one, each channel clamped to [0, 1]."""
    lightness, a, b = lab
    fy = (lightness + 16) / 116
    x = _WHITE[0] * _lab_f_inverse(fy + a / 500)
    y = _WHITE[1] * _lab_f_inverse(fy)
    z = _WHITE[2] * _lab_f_inverse(fy - b / 200)
    return (
        _gamma(3.2406 * x - 1.5372 * y - 0.4986 * z),
        _gamma(-0.9689 * x + 1.8758 * y + 0.0415 * z),
        _gamma(0.0557 * x - 0.2040 * y + 1.0570 * z),
    )


# -- contrast -------------------------------------------------------------------------------------


def relative_luminance(rgb: RGB) -> float:
    """WCAG relative luminance of an sRGB colour (0 black to 1 white)."""
    r, g, b = (_linear(c) for c in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast_ratio(first: RGB, second: RGB) -> float:
    """WCAG contrast ratio of two colours (1 to 21)."""
    hi, lo = sorted((relative_luminance(first), relative_luminance(second)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def tint_text(tint: RGB) -> str:
    """The text colour on ``tint``: :data:`DARK_TEXT` or :data:`LIGHT_TEXT`, whichever
    contrasts more."""
    dark, light = parse_hex(DARK_TEXT), parse_hex(LIGHT_TEXT)
    return DARK_TEXT if contrast_ratio(tint, dark) >= contrast_ratio(tint, light) else LIGHT_TEXT


def _text_band() -> tuple[float, float]:
    """The CIELAB lightness range in which neither text colour keeps MIN_TEXT_CONTRAST."""
    dark = relative_luminance(parse_hex(DARK_TEXT))
    light = relative_luminance(parse_hex(LIGHT_TEXT))
    below = (light + 0.05) / MIN_TEXT_CONTRAST - 0.05  # light text needs the tint darker
    above = MIN_TEXT_CONTRAST * (dark + 0.05) - 0.05  # dark text needs it lighter
    return 116 * _lab_f(below) - 16, 116 * _lab_f(above) - 16


# -- the match ramp -------------------------------------------------------------------------------


@lru_cache(maxsize=64)
def match_tints(*, dark: bool, max_level: int) -> tuple[str, ...]:
    """The ``max_level`` tints of a mode (level 1 first), spread evenly over the theme's ramp.

    A tint that would fall in the lightness band where neither text colour is readable is moved
    to the nearer edge of it.
    """
    if max_level < 1:
        raise ValueError(f"a mode has at least one level, not {max_level}")
    anchors = [to_lab(parse_hex(h)) for h in theme(dark).ramp]
    low, high = _text_band()
    steps = len(anchors) - 1
    tints = []
    for level in range(1, max_level + 1):
        t = 0.5 if max_level == 1 else (level - 1) / (max_level - 1)
        i = min(int(t * steps), steps - 1)
        f = t * steps - i
        lightness, a, b = (p + (q - p) * f for p, q in zip(anchors[i], anchors[i + 1], strict=True))
        if low < lightness < high:
            lightness = low if lightness - low < high - lightness else high
        tints.append(hex_name(from_lab((lightness, a, b))))
    return tuple(tints)


def match_tint(level: int, max_level: int = DEFAULT_MAX_LEVEL, *, dark: bool) -> str:
    """The background of a ``match`` at ``level`` (1..``max_level``) in a mode of ``max_level``
    levels; higher levels are shown as ``max_level``."""
    if level < 1:
        raise ValueError(f"a matched level must be at least 1, not {level}")
    return match_tints(dark=dark, max_level=max_level)[min(level, max_level) - 1]


# -- TER edit marks -------------------------------------------------------------------------------
# The "TER edits" highlight mode (core.metrics.ter.TerEditLayer) marks edits, not matches, so its
# marks avoid every shape the other modes use: substitutions a violet tint with a dotted
# underline, deletions a struck-through line (no tint), reference words to insert a pale green
# tint, shifted phrases a bracket over the words and a downward triangle where they move to, and
# missing words a proofreader's caret under the gap. Matched
# words are left plain, so nothing here looks like the blue match ramp, the wavy "unmatched"
# underline or an annotation's box.


@dataclass(frozen=True, slots=True, kw_only=True)
class TerColours:
    """The colours of TER's edit marks in one theme."""

    #: Text on the tints below.
    text: str
    substitution_tint: str
    substitution_line: str
    deletion_line: str
    insertion_tint: str
    #: The caret under the gap where reference words are missing, and the inserted words' line.
    insertion_line: str
    #: The bracket over a shifted phrase and the triangle at its destination.
    shift_line: str


TER_LIGHT = TerColours(
    text=DARK_TEXT,
    substitution_tint="#e6dcf7",
    substitution_line="#6a3fb0",
    deletion_line="#c62828",
    insertion_tint="#dcf0c4",
    insertion_line="#2e7d32",
    shift_line="#00739a",
)
TER_DARK = TerColours(
    text="#f2f2f2",
    substitution_tint="#43345f",
    substitution_line="#c9abff",
    deletion_line="#ff7b72",
    insertion_tint="#2c4620",
    insertion_line="#93d98f",
    shift_line="#4fc8f5",
)


def ter_colours(dark: bool) -> TerColours:
    """The TER edit marks' colours of the dark or the light theme."""
    return TER_DARK if dark else TER_LIGHT
