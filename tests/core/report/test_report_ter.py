"""The report in the "TER edits" mode: each output's marks are its TER edit layer's, with a
tooltip per mark, the legend explains them, and each output names the reference its edits are
against; rendered by Chromium for a person to look at."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from matchlight.core.cli.report import main
from matchlight.core.metrics.ter import TerEditLayer
from matchlight.core.scoring.config import ScoringConfig
from matchlight.core.scoring.detail import RowDetailer
from tests.conftest import SHARED_DATA
from tests.core.report.reportkit import Dom
from tests.kit import read_lines

WMT = SHARED_DATA / "wmt22-de-en"
SYSTEMS = ("Online-W", "LT22", "PROMT")
SEGMENTS = "96-100"
CLASS = {"ter_sub": "tsb", "ter_del": "tdl", "ter_shift": "tsh"}


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> Path:
    if not WMT.exists():
        pytest.skip("shared/data/wmt22-de-en is not present")
    out = tmp_path_factory.mktemp("ter") / "ter.html"
    args = ["--src", str(WMT / "src.txt"), "--ref", str(WMT / "ref.txt")]
    args += ["--ref", str(WMT / "ref2.txt")]
    for name in SYSTEMS:
        args += ["--hyp", str(WMT / f"sys.{name}.txt")]
    args += ["--metrics", "ter", "--highlight", "ter_edits", "--segments", SEGMENTS]
    assert main([*args, "--out", str(out), "-q"]) == 0
    return out


def classes_at(html: str) -> list[tuple[str, set[str], str | None]]:
    """The text of an output's ``.text`` div as (characters, classes, title) runs; point
    marks are runs with no characters."""
    runs = []
    for m in re.finditer(
        r'<span class="([^"]*)"(?: title="([^"]*)")?>([^<]*)</span>|([^<]+)', html
    ):
        if m.group(4) is not None:
            runs.append((m.group(4), set(), None))
        else:
            runs.append((m.group(3), set(m.group(1).split()), m.group(2)))
    return runs


def test_each_output_shows_its_ter_edits(report: Path) -> None:
    import html as htmllib

    page = report.read_text(encoding="utf-8")
    refs = [read_lines(WMT / "ref.txt"), read_lines(WMT / "ref2.txt")]
    systems = [read_lines(WMT / f"sys.{n}.txt") for n in SYSTEMS]
    detailer = RowDetailer(ScoringConfig(metrics=("ter",)))
    articles = re.findall(r'<article class="seg" id="seg-(\d+)".*?</article>', page, re.S)
    assert [int(a) for a in articles] == list(range(96, 101))
    for i in range(95, 100):
        article = re.search(rf'<article class="seg" id="seg-{i + 1}".*?</article>', page, re.S)
        assert article is not None
        detail = detailer.row(
            segment=i,
            source=None,
            references=[r[i] for r in refs],
            systems=[(n, s[i]) for n, s in zip(SYSTEMS, systems, strict=True)],
        )
        layer = detail.layer("ter_edits")
        assert isinstance(layer, TerEditLayer)
        for s in range(len(SYSTEMS)):
            line = re.search(
                rf'<div class="line hyp" data-system="{s}">.*?<div class="text">(.*?)</div>'
                r'<div class="scores">(.*?)</div>',
                article.group(0),
                re.S,
            )
            assert line is not None
            text, scores = line.group(1), line.group(2)
            runs = classes_at(text)
            shown = "".join(htmllib.unescape(t) for t, _, _ in runs)
            assert shown == detail.outputs[s]
            # Per character, the classes of the layer's word ranges.
            expected: list[set[str]] = [set() for _ in shown]
            for a, b, kind, _ in layer.hypothesis(s):
                for k in range(a, b):
                    if kind in CLASS:
                        expected[k].add(CLASS[kind])
            got: list[set[str]] = []
            for t, classes, _ in runs:
                got += [{c for c in classes if c in CLASS.values()}] * len(htmllib.unescape(t))
            assert got == expected
            # One point mark per destination and gap, each with its sentence as a tooltip.
            points = [(c, htmllib.unescape(title or "")) for t, c, title in runs if not t]
            dests = [t for c, t in points if "tdest" in c]
            gaps = [t for c, t in points if "tgap" in c]
            assert sorted(dests) == sorted(m.text for m in layer.shift_marks(s))
            assert sorted(gaps) == sorted(g.text for g in layer.gap_marks(s))
            ref = ("Ref 1", "Ref 2")[layer.best(s)]
            assert f"TER edits against {ref} (the fewest edits)" in scores
    legend = Dom(page).all("p", class_="legend")[0].text()
    for label in ("substituted", "deleted", "shifted phrase", "where it moves to"):
        assert label in legend


CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


@pytest.mark.skipif(CHROMIUM is None, reason="chromium is not installed")
def test_the_ter_rows_render(report: Path, tmp_path: Path) -> None:
    assert CHROMIUM is not None
    shot = Path("/tmp/matchlight-shots/ter/report.png")
    shot.parent.mkdir(parents=True, exist_ok=True)
    shot.unlink(missing_ok=True)
    # Only the rows, so that the screenshot shows them.
    page = report.read_text(encoding="utf-8")
    start, end = page.index("<body>") + len("<body>"), page.index('<section id="rows">')
    rows = tmp_path / "rows.html"
    rows.write_text(page[:start] + page[end:], encoding="utf-8")
    command = [
        CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
        f"--user-data-dir={tmp_path / 'p'}", "--virtual-time-budget=3000",
        "--window-size=1100,1800", f"--screenshot={shot}", rows.as_uri(),
    ]  # fmt: skip
    done = subprocess.run(command, capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0 and shot.stat().st_size > 10_000
