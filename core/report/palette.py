"""The app's highlight and system colours as CSS colour strings, for the HTML report.

The report paints match highlights exactly as the app does (light theme): matched levels on
one sequential blue ramp interpolated in CIELAB, a wavy vermillion underline for unmatched
tokens, an orange tint with a dashed underline for reference tokens no system matched, a
bluish-green tint with a solid underline for ROUGE-L LCS tokens, and a text colour picked for
WCAG contrast on each tint. ``gui/highlight/palette.py`` is the original; core cannot import
Qt, so the colour arithmetic is done here on plain numbers, rounded to 8-bit channels the way
``QColor`` rounds them (a test compares every tint with the app's).
"""

from __future__ import annotations

from functools import lru_cache

__all__ = [
    "LCS_LINE",
    "LCS_TINT",
    "MISSED_LINE",
    "MISSED_TINT",
    "SYSTEM_COLOURS",
    "TINT_TEXT",
    "UNMATCHED_LINE",
    "contrast_ratio",
    "match_tint",
    "system_colour",
    "tint_text",
]

#: The light theme's match ramp, palest to deepest (level 1 to a mode's highest level).
_RAMP: tuple[str, ...] = ("#dfecf8", "#94c2ea", "#4a8fd0", "#1f5fa8", "#0b2f66")
_DARK_TEXT = "#111111"
_LIGHT_TEXT = "#f7f7f7"
#: Text on the fixed tints below.
TINT_TEXT = _DARK_TEXT
UNMATCHED_LINE = "#d55e00"
MISSED_TINT = "#fcd3a8"
MISSED_LINE = "#b34700"
LCS_TINT = "#c6ebd9"
LCS_LINE = "#007a59"
#: The contrast every tint keeps with its text (WCAG AA is 4.5; a little more, for rounding).
_MIN_TEXT_CONTRAST = 4.6

#: Okabe–Ito colours, one per system in order (the app's charts use the same).
SYSTEM_COLOURS: tuple[str, ...] = (
    "#0072B2",
    "#D55E00",
    "#009E73",
    "#CC79A7",
    "#E69F00",
    "#56B4E9",
    "#000000",
    "#F0E442",
)

_WHITE = (0.95047, 1.0, 1.08883)  # D65

RGB = tuple[float, float, float]


def system_colour(index: int) -> str:
    return SYSTEM_COLOURS[index % len(SYSTEM_COLOURS)]


def _parse(hex_colour: str) -> RGB:
    value = hex_colour.lstrip("#")
    return (int(value[0:2], 16) / 255, int(value[2:4], 16) / 255, int(value[4:6], 16) / 255)


def _channel_8bit(value: float) -> int:
    """An sRGB channel in [0, 1] as QColor stores it (16 bits, rounded) and reports it in 8."""
    v16 = int(min(max(value, 0.0), 1.0) * 65535 + 0.5)
    return (v16 - (v16 >> 8) + 0x80) >> 8


def _name(rgb: RGB) -> str:
    return "#" + "".join(f"{_channel_8bit(c):02x}" for c in rgb)


def _linear(channel: float) -> float:
    return channel / 12.92 if channel <= 0.04045 else ((channel + 0.055) / 1.055) ** 2.4


def _gamma(channel: float) -> float:
    channel = min(max(channel, 0.0), 1.0)
    return 12.92 * channel if channel <= 0.0031308 else 1.055 * channel ** (1 / 2.4) - 0.055


def _lab_f(t: float) -> float:
    return t ** (1 / 3) if t > 216 / 24389 else (24389 / 27 * t + 16) / 116


def _lab_f_inverse(t: float) -> float:
    return t**3 if t**3 > 216 / 24389 else (116 * t - 16) / (24389 / 27)


def _to_lab(rgb: RGB) -> RGB:
    r, g, b = (_linear(c) for c in rgb)
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / _WHITE[0]
    y = (0.2126 * r + 0.7152 * g + 0.0722 * b) / _WHITE[1]
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / _WHITE[2]
    fx, fy, fz = _lab_f(x), _lab_f(y), _lab_f(z)
    return 116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)


def _from_lab(lightness: float, a: float, b: float) -> RGB:
    fy = (lightness + 16) / 116
    x = _WHITE[0] * _lab_f_inverse(fy + a / 500)
    y = _WHITE[1] * _lab_f_inverse(fy)
    z = _WHITE[2] * _lab_f_inverse(fy - b / 200)
    return (
        _gamma(3.2406 * x - 1.5372 * y - 0.4986 * z),
        _gamma(-0.9689 * x + 1.8758 * y + 0.0415 * z),
        _gamma(0.0557 * x - 0.2040 * y + 1.0570 * z),
    )


def _luminance(rgb: RGB) -> float:
    r, g, b = (_linear(c) for c in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast_ratio(first: str, second: str) -> float:
    """WCAG contrast ratio of two ``#rrggbb`` colours (1 to 21)."""
    hi, lo = sorted((_luminance(_parse(first)), _luminance(_parse(second))), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def _text_band() -> tuple[float, float]:
    """The CIELAB lightness range in which neither text colour keeps the minimum contrast."""
    dark = _luminance(_parse(_DARK_TEXT))
    light = _luminance(_parse(_LIGHT_TEXT))
    below = (light + 0.05) / _MIN_TEXT_CONTRAST - 0.05
    above = _MIN_TEXT_CONTRAST * (dark + 0.05) - 0.05
    return 116 * _lab_f(below) - 16, 116 * _lab_f(above) - 16


@lru_cache(maxsize=64)
def _tints(max_level: int) -> tuple[str, ...]:
    anchors = [_to_lab(_parse(h)) for h in _RAMP]
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
        tints.append(_name(_from_lab(lightness, a, b)))
    return tuple(tints)


def match_tint(level: int, max_level: int) -> str:
    """The background of a ``match`` at ``level`` in a mode of ``max_level`` levels (higher
    levels are shown as ``max_level``), as ``#rrggbb``."""
    if level < 1:
        raise ValueError(f"a matched level must be at least 1, not {level}")
    if max_level < 1:
        raise ValueError(f"a mode has at least one level, not {max_level}")
    return _tints(max_level)[min(level, max_level) - 1]


def tint_text(tint: str) -> str:
    """The text colour on ``tint``: dark or light, whichever contrasts more."""
    dark_wins = contrast_ratio(tint, _DARK_TEXT) >= contrast_ratio(tint, _LIGHT_TEXT)
    return _DARK_TEXT if dark_wins else _LIGHT_TEXT
