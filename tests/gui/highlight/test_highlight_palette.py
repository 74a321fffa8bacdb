"""The app paints core's colours (core.style.palette), exactly, in both themes.

Every match tint of every mode (1..9 levels), its text, every fixed tint and line of the
highlight formats, and every chart system colour is compared with core's value; core's rounding
is compared with QColor's own, so the report (core only) and the app show the same ``#rrggbb``.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from PySide6.QtGui import QColor, QTextCharFormat

from matchlight.core.style import palette as colours
from matchlight.core.style.palette import DARK, LIGHT, Theme
from matchlight.gui.charts.theme import ChartTheme
from matchlight.gui.highlight import palette as app

THEMES = (LIGHT, DARK)
Underline = QTextCharFormat.UnderlineStyle


def test_colours_are_rounded_as_qcolor_rounds() -> None:
    # Every boundary between two 16-bit values, where single-precision rounding decides.
    for step in range(65535):
        value = (step + 0.5) / 65535
        assert colours.hex_name((value, 0.0, 1.0)) == QColor.fromRgbF(value, 0.0, 1.0).name()


@given(st.tuples(*[st.floats(min_value=0.0, max_value=1.0)] * 3))
def test_any_colour_is_rounded_as_qcolor_rounds(rgb: tuple[float, float, float]) -> None:
    assert colours.hex_name(rgb) == QColor.fromRgbF(*rgb).name()


@pytest.mark.parametrize("theme", THEMES, ids=["light", "dark"])
def test_the_match_tints_are_cores(theme: Theme) -> None:
    for max_level in range(1, 10):
        for level in range(1, max_level + 3):
            expected = colours.match_tint(level, max_level, dark=theme.dark)
            tint = app.order_tint(level, theme.dark, max_level)
            assert tint == QColor(expected), (max_level, level)
            text = colours.tint_text(colours.parse_hex(expected))
            assert app.tint_text(tint) == QColor(text)
            if level <= max_level:
                fmt = app.highlight_format("match", level, theme.dark, max_level)
                assert fmt.background().color() == tint
                assert fmt.foreground().color() == QColor(text)
                assert fmt.underlineStyle() == Underline.NoUnderline


@pytest.mark.parametrize("theme", THEMES, ids=["light", "dark"])
def test_the_fixed_formats_are_cores(theme: Theme) -> None:
    unmatched = app.highlight_format("unmatched", 0, theme.dark)
    assert not unmatched.hasProperty(QTextCharFormat.Property.BackgroundBrush)
    assert not unmatched.hasProperty(QTextCharFormat.Property.ForegroundBrush)
    assert unmatched.underlineStyle() == Underline.WaveUnderline
    assert unmatched.underlineColor() == QColor(theme.unmatched_line)
    fixed = {
        "missed": (theme.missed_tint, theme.missed_line, Underline.DashUnderline),
        "lcs": (theme.lcs_tint, theme.lcs_line, Underline.SingleUnderline),
        "link": (theme.link_tint, theme.link_line, Underline.SingleUnderline),
    }
    for kind, (tint, line, style) in fixed.items():
        fmt = app.highlight_format(kind, 1, theme.dark)
        assert fmt.background().color() == QColor(tint), kind
        assert fmt.foreground().color() == QColor(theme.fixed_text), kind
        assert fmt.underlineStyle() == style, kind
        assert fmt.underlineColor() == QColor(line), kind


def test_the_measures_are_cores_on_qcolors_channels() -> None:
    colour, other = QColor.fromRgbF(0.1234, 0.5678, 0.9012), QColor("#fcd3a8")
    channels = (colour.redF(), colour.greenF(), colour.blueF())
    assert app.to_lab(colour) == colours.to_lab(channels)
    assert app.relative_luminance(colour) == colours.relative_luminance(channels)
    expected = colours.contrast_ratio(channels, colours.parse_hex("#fcd3a8"))
    assert app.contrast_ratio(colour, other) == pytest.approx(expected, rel=1e-6)


@pytest.mark.parametrize("theme", THEMES, ids=["light", "dark"])
def test_the_charts_systems_are_cores(theme: Theme) -> None:
    chart = ChartTheme(
        dark=theme.dark,
        background=QColor(),
        foreground=QColor(),
        muted=QColor(),
        context=QColor(),
        highlight=QColor(),
    )
    for index in range(2 * len(theme.systems)):
        colour = chart.system(index, 55)
        assert colour.name() == theme.systems[index % len(theme.systems)].lower()
        assert colour.alpha() == 55
