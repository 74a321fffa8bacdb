"""An exported chart's SVG read by a real browser (Debian's ``chromium``, headless): its text is
drawn in a sans-serif font.

Qt's SVG generator names only the family the chart was drawn in, and where the desktop names
none (as here, offscreen) that is Qt's alias "Sans Serif": no CSS generic family. A browser
whose system does not know the alias (Windows, macOS; fontconfig here does) treats it as any
unknown family and draws the text in its default font, a serif one. The export now names a
stack ending in ``sans-serif``. Chromium measures a probe string in each family the exported
SVG's text is drawn in (its computed style), in ``serif`` and in ``sans-serif``: the export's
must not measure as ``serif``, and the same SVG naming a family no system has must (the check
can tell). A screenshot goes to /tmp/matchlight-shots for a person to look at.

Skipped only where chromium is not installed; CI installs it (.ci/run).
"""

from __future__ import annotations

import html
import json
import re
from pathlib import Path

import pytest
from PySide6.QtGui import QFont, QFontDatabase, QFontInfo

from matchlight.gui.charts.distributions import DistributionsPanel
from matchlight.gui.charts.theme import svg_font_family
from tests.core.report.test_report_chromium import CHROMIUM, chromium
from tests.gui.chartkit import linked, settle

SHOTS = Path("/tmp/matchlight-shots")
FAMILY = re.compile(r'font-family="([^"]*)"')
PROBE = "Sentence BLEU per system 0 20 40 60 80 100 segments"
UNKNOWN = "Matchlight No Such Font"

#: Measures PROBE in each family an inline SVG's text elements are drawn in (their computed
#: style), and in the CSS generics, at 40 px; writes the result as JSON into #out.
MEASURE = """
<pre id="out"></pre>
<script>
const svg = document.querySelector("svg");
function width(family) {
  const t = document.createElementNS("http://www.w3.org/2000/svg", "text");
  t.setAttribute("font-family", family);
  t.setAttribute("font-size", "40");
  t.textContent = PROBE;
  svg.appendChild(t);
  const w = t.getComputedTextLength();
  t.remove();
  return w;
}
const texts = [...svg.querySelectorAll("text")];
const families = [...new Set(texts.map(t => getComputedStyle(t).fontFamily))];
document.getElementById("out").textContent = JSON.stringify({
  texts: texts.length,
  families: Object.fromEntries(families.map(f => [f, width(f)])),
  serif: width("serif"),
  sans: width("sans-serif"),
});
</script>
""".replace("PROBE", json.dumps(PROBE))


@pytest.fixture
def exported(qtbot, sample, tmp_path: Path) -> Path:
    """The sample's distributions chart, exported as SVG."""
    link, session = linked(sample)
    panel = DistributionsPanel(link)
    qtbot.addWidget(panel)
    panel.resize(1100, 480)
    panel.show()
    qtbot.waitExposed(panel)
    panel.refresh_now()
    settle()
    path = panel.export_to(tmp_path / "distributions.svg")
    assert path is not None and session.session is link.core
    return path


def generic_families() -> tuple[str, str]:
    """The installed families the system's font configuration gives for serif and sans-serif."""
    families = []
    for name, hint in (("serif", QFont.StyleHint.Serif), ("sans-serif", QFont.StyleHint.SansSerif)):
        font = QFont(name)
        font.setStyleHint(hint)
        families.append(QFontInfo(font).family())
    return families[0], families[1]


def browser_profile(folder: Path) -> Path:
    """A Chromium profile whose fonts are a stock browser's: a serif default (Chrome's is Times
    New Roman, which this machine may lack), the system's serif and sans-serif for the generics."""
    serif, sans = generic_families()
    fonts = {"standard": serif, "serif": serif, "sansserif": sans}
    prefs = {"webkit": {"webprefs": {"fonts": {k: {"Zyyy": v} for k, v in fonts.items()}}}}
    (folder / "Default").mkdir(parents=True, exist_ok=True)
    (folder / "Default" / "Preferences").write_text(json.dumps(prefs), "utf-8")
    return folder


def measured(svg: str, folder: Path, name: str) -> dict:
    """What Chromium measures in ``svg`` inlined in a page (see MEASURE)."""
    page = folder / f"{name}.html"
    inline = svg[svg.index("<svg") :]
    page.write_text(f"<!DOCTYPE html><html><body>{inline}{MEASURE}</body></html>", "utf-8")
    shown = chromium(page, browser_profile(folder / f"profile-{name}"), "--dump-dom")
    assert shown.returncode == 0, shown.stderr[-2000:]
    match = re.search(r'<pre id="out">(.*?)</pre>', shown.stdout, re.S)
    assert match is not None and match.group(1), "the page's script did not run"
    return json.loads(html.unescape(match.group(1)))


def test_the_svg_names_font_stacks_that_end_in_sans_serif(exported: Path) -> None:
    families = set(FAMILY.findall(exported.read_text(encoding="utf-8")))
    assert families
    installed = set(QFontDatabase.families())
    for family in families:
        names = [n.strip().strip("'") for n in html.unescape(family).split(",")]
        assert names[-1] == "sans-serif"
        assert names[0] in installed  # the font Qt drew the chart in, first
    assert svg_font_family("Sans Serif").endswith(", sans-serif")
    assert "Sans Serif" not in svg_font_family("Sans Serif")  # the alias is resolved


@pytest.mark.skipif(
    CHROMIUM is None,
    reason="chromium is not installed (apt-get install chromium; CI installs it in .ci/run)",
)
def test_chromium_draws_the_exported_text_in_a_sans_serif_font(
    exported: Path, tmp_path: Path
) -> None:
    if len(set(generic_families())) < 2:
        pytest.skip("this machine has one font for serif and sans-serif")
    svg = exported.read_text(encoding="utf-8")
    result = measured(svg, tmp_path, "export")
    serif, sans = result["serif"], result["sans"]
    assert abs(serif - sans) > 1, result  # the two fonts measure apart: the check can tell
    assert result["texts"] > 5 and result["families"]
    for family, width in result["families"].items():
        assert abs(width - serif) > 1, f"{family} is drawn in the serif font"
        assert family.endswith("sans-serif")
    # The control: a family the reader does not know, as "Sans Serif" is to most, is serif.
    control = FAMILY.sub(f'font-family="{UNKNOWN}"', svg)
    before = measured(control, tmp_path, "control")
    assert list(before["families"]) == [f'"{UNKNOWN}"']
    assert abs(before["families"][f'"{UNKNOWN}"'] - serif) < 0.5

    SHOTS.mkdir(parents=True, exist_ok=True)
    shot = SHOTS / "chart-svg-in-chromium.png"
    shot.unlink(missing_ok=True)
    page = tmp_path / "shot.html"
    page.write_text(
        f"<!DOCTYPE html><html><body style='margin:0'>{svg[svg.index('<svg') :]}", "utf-8"
    )
    taken = chromium(
        page,
        browser_profile(tmp_path / "profile-shot"),
        "--window-size=1100,460",
        f"--screenshot={shot}",
    )
    assert taken.returncode == 0
    assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
