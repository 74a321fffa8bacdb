"""The app's colours (core.style.palette): conversions against published reference values, and
the properties the highlight ramp is designed to have, in both themes.

tests/gui/highlight/test_highlight_palette.py checks that the app paints exactly these colours
(rounded as QColor rounds); tests/gui/table/test_delegate.py measures the ramp's steps in CIEDE2000.
"""

from __future__ import annotations

import pytest

from matchlight.core.report import palette as report
from matchlight.core.style import palette as colours
from matchlight.core.style.palette import DARK, LIGHT, Theme, parse_hex

THEMES = (LIGHT, DARK)


def _fixed_tints(theme: Theme) -> dict[str, str]:
    return {"missed": theme.missed_tint, "lcs": theme.lcs_tint, "link": theme.link_tint}


@pytest.mark.parametrize(
    ("colour", "lab"),
    [
        # Bruce Lindbloom's sRGB (D65) values; our matrices are rounded to four digits.
        ("#ffffff", (100.0, 0.0, 0.0)),
        ("#ff0000", (53.2408, 80.0925, 67.2032)),
        ("#00ff00", (87.7347, -86.1827, 83.1793)),
        ("#0000ff", (32.2970, 79.1875, -107.8602)),
        ("#808080", (53.5850, 0.0, 0.0)),
    ],
)
def test_cielab_matches_the_published_values(colour: str, lab: tuple[float, ...]) -> None:
    assert colours.to_lab(parse_hex(colour)) == pytest.approx(lab, abs=0.05)


def test_wcag_contrast_matches_the_published_values() -> None:
    black, white = parse_hex("#000000"), parse_hex("#ffffff")
    assert colours.relative_luminance(black) == 0.0
    assert colours.relative_luminance(white) == pytest.approx(1.0)
    assert colours.contrast_ratio(black, white) == pytest.approx(21.0)
    assert colours.contrast_ratio(white, black) == colours.contrast_ratio(black, white)
    # #767676 is the palest grey that passes AA on white: 4.54:1 (WebAIM's checker).
    assert colours.contrast_ratio(parse_hex("#767676"), white) == pytest.approx(4.54, abs=0.005)
    assert colours.contrast_ratio(parse_hex("#777777"), white) < 4.5


def test_hex_round_trips_and_lab_round_trips() -> None:
    for value in range(256):
        colour = f"#{value:02x}{255 - value:02x}{(value * 7) % 256:02x}"
        rgb = parse_hex(colour)
        assert colours.hex_name(rgb) == colour
        assert colours.hex_name(colours.from_lab(colours.to_lab(rgb))) == colour
    assert colours.hex_name((-0.5, 1.5, 0.5)) == "#00ff80"  # clamped


@pytest.mark.parametrize("bad", ["", "123456", "#12345", "#1234567", "#12345g", "#-12345"])
def test_a_malformed_colour_is_refused(bad: str) -> None:
    with pytest.raises(ValueError, match="not a #rrggbb colour"):
        parse_hex(bad)


def test_every_theme_colour_is_a_colour() -> None:
    for theme in THEMES:
        for name in Theme.__dataclass_fields__:
            value = getattr(theme, name)
            for colour in value if isinstance(value, tuple) else (value,):
                if not isinstance(colour, bool):
                    parse_hex(colour)
    assert colours.theme(False) is LIGHT and colours.theme(True) is DARK
    assert not LIGHT.dark and DARK.dark
    assert len(LIGHT.systems) == len(DARK.systems) == len(colours.OKABE_ITO)


@pytest.mark.parametrize("theme", THEMES, ids=["light", "dark"])
def test_the_match_ramp_spreads_each_mode_over_the_theme(theme: Theme) -> None:
    ramp = [colours.to_lab(parse_hex(h)) for h in theme.ramp]
    for max_level in range(1, 10):
        tints = colours.match_tints(dark=theme.dark, max_level=max_level)
        assert len(tints) == max_level
        lightness = [colours.to_lab(parse_hex(t))[0] for t in tints]
        # Light theme: paler to deeper; dark theme: deeper to brighter; never the same twice.
        ordered = lightness[::-1] if theme.dark else lightness
        assert ordered == sorted(ordered, reverse=True), (max_level, tints)
        assert len(set(tints)) == max_level
        assert min(lightness) >= min(lab[0] for lab in ramp) - 0.5
        assert max(lightness) <= max(lab[0] for lab in ramp) + 0.5
        for level, tint in enumerate(tints, start=1):
            assert colours.match_tint(level, max_level, dark=theme.dark) == tint
        assert colours.match_tint(max_level + 5, max_level, dark=theme.dark) == tints[-1]
        if max_level >= 2:  # the first and the last level are the ends of the ramp
            assert (tints[0], tints[-1]) == (theme.ramp[0], theme.ramp[-1])


@pytest.mark.parametrize("theme", THEMES, ids=["light", "dark"])
def test_every_tint_keeps_its_text_readable(theme: Theme) -> None:
    for max_level in range(1, 10):
        for tint in colours.match_tints(dark=theme.dark, max_level=max_level):
            text = colours.tint_text(parse_hex(tint))
            assert text in (colours.DARK_TEXT, colours.LIGHT_TEXT)
            other = colours.LIGHT_TEXT if text == colours.DARK_TEXT else colours.DARK_TEXT
            ratio = colours.contrast_ratio(parse_hex(tint), parse_hex(text))
            assert ratio >= 4.5, (max_level, tint, text)
            assert ratio >= colours.contrast_ratio(parse_hex(tint), parse_hex(other))
    for kind, tint in _fixed_tints(theme).items():
        ratio = colours.contrast_ratio(parse_hex(tint), parse_hex(theme.fixed_text))
        assert ratio >= 4.5, kind


def test_levels_out_of_range_are_refused() -> None:
    with pytest.raises(ValueError, match="at least 1, not 0"):
        colours.match_tint(0, 4, dark=False)
    with pytest.raises(ValueError, match="at least one level, not 0"):
        colours.match_tint(1, 0, dark=True)


def test_the_report_uses_the_light_theme() -> None:
    for max_level in range(1, 10):
        for level in range(1, max_level + 2):
            tint = report.match_tint(level, max_level)
            assert tint == colours.match_tint(level, max_level, dark=False)
            assert report.tint_text(tint) == colours.tint_text(parse_hex(tint))
    assert LIGHT.fixed_text == report.TINT_TEXT
    assert LIGHT.unmatched_line == report.UNMATCHED_LINE
    assert (LIGHT.missed_tint, LIGHT.missed_line) == (report.MISSED_TINT, report.MISSED_LINE)
    assert (LIGHT.lcs_tint, LIGHT.lcs_line) == (report.LCS_TINT, report.LCS_LINE)
    assert [report.system_colour(i) for i in range(10)] == [
        colours.OKABE_ITO[i % 8] for i in range(10)
    ]
