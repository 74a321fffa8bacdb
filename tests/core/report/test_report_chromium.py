"""The HTML report in a real browser: Debian's ``chromium``, headless.

* The page Chromium parsed (``--dump-dom``) has every section, and hostile system names and
  lines are text in it, never elements.
* The page requests nothing over the network. A local HTTP server records every request; the
  report's inputs hold tags and CSS pointing at it. A control page with one image from the
  server must reach it (so the check can fail), the report must not. Two more pages show why:
  the report with an image tag injected still loads nothing (its Content-Security-Policy), and
  the same page without that policy does load it.
* A screenshot of the whole page goes to /tmp/matchlight-shots/report.png for a person to look
  at.

Skipped only where chromium is not installed; CI installs it (.ci/run).
"""

from __future__ import annotations

import http.server
import shutil
import subprocess
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from matchlight.core.annotation.model import ErrorSpan, SegmentScore
from matchlight.core.cli.report import main
from matchlight.core.scoring.config import ScoringConfig
from matchlight.core.session.store import SessionInput, SessionStore
from tests.conftest import SAMPLE
from tests.core.report.reportkit import Dom, painted

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
pytestmark = pytest.mark.skipif(
    CHROMIUM is None,
    reason="chromium is not installed (apt-get install chromium; CI installs it in .ci/run)",
)
SHOTS = Path("/tmp/matchlight-shots")


def chromium(page: Path, profile: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """Chromium headless on ``page`` with a fresh profile, given time to load everything."""
    assert CHROMIUM is not None
    command = [
        CHROMIUM,
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-default-apps",
        "--disable-sync",
        "--no-first-run",
        "--no-default-browser-check",
        "--hide-scrollbars",
        f"--user-data-dir={profile}",
        "--virtual-time-budget=5000",
        *args,
        page.as_uri(),
    ]
    # The timeout only keeps a hung browser from hanging the suite; nothing is timed.
    return subprocess.run(command, capture_output=True, text=True, timeout=300, check=False)


class _Recorder(http.server.BaseHTTPRequestHandler):
    requests: list[str]

    def do_GET(self) -> None:
        self.requests.append(self.path)
        self.send_response(200)
        self.send_header("Content-Type", "image/gif")
        self.end_headers()
        self.wfile.write(b"GIF89a\x01\x00\x01\x00\x00\x00\x00;")

    def log_message(self, format: str, *args: object) -> None:
        pass


@pytest.fixture
def server() -> Iterator[tuple[int, list[str]]]:
    """A local HTTP server on a free port and the list of paths requested from it."""
    seen: list[str] = []
    handler = type("Recorder", (_Recorder,), {"requests": seen})
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield httpd.server_address[1], seen
    finally:
        httpd.shutdown()
        httpd.server_close()
        thread.join()


def hostile_inputs(folder: Path, port: int) -> tuple[Path, Path, Path]:
    """A reference and two outputs whose lines are markup pointing at the local server."""
    url = f"http://127.0.0.1:{port}"
    lines = [
        f'<img src="{url}/line-img"> an image',
        f'<link rel="stylesheet" href="{url}/line-css"> a style sheet',
        f'<script src="{url}/line-js"></script> a script',
        f'<iframe src="{url}/line-frame"></iframe> a frame',
        f'<svg><image href="{url}/line-svg"/></svg> an svg image',
        f"<style>@import url({url}/line-import); body {{ background: url({url}/line-bg) }}</style>",
        f'<a href="{url}/line-link">a link</a> and "quotes" & ampersands',
    ]
    ref = folder / "ref.txt"
    hyp = folder / "hyp.txt"
    other = folder / "other.txt"
    ref.write_text("\n".join(lines) + "\n", encoding="utf-8")
    hyp.write_text("\n".join(lines) + "\n", encoding="utf-8")
    other.write_text("\n".join(reversed(lines)) + "\n", encoding="utf-8")
    return ref, hyp, other


def test_the_report_requests_nothing_over_the_network(
    tmp_path: Path, server: tuple[int, list[str]]
) -> None:
    port, requests = server
    ref, hyp, other = hostile_inputs(tmp_path, port)
    report = tmp_path / "report.html"
    args = ["--ref", str(ref), "--hyp", f"<img src onerror>={hyp}", "--hyp", str(other)]
    assert main([*args, "--paired-bs", "--out", str(report), "-q"]) == 0

    control = tmp_path / "control.html"
    control.write_text(
        f'<!DOCTYPE html><img src="http://127.0.0.1:{port}/control">', encoding="utf-8"
    )
    assert chromium(control, tmp_path / "p1", "--dump-dom").returncode == 0
    assert requests == ["/control"], "the harness must see a page's requests"

    requests.clear()
    shown = chromium(report, tmp_path / "p2", "--dump-dom")
    assert shown.returncode == 0
    assert requests == []
    dom = Dom(shown.stdout)  # as Chromium parsed it
    assert not dom.all("img") and not dom.all("script") and not dom.all("iframe")
    assert not dom.all("link") and not dom.all("image") and not dom.all("a", href="/line-link")
    hyp_lines = hyp.read_text(encoding="utf-8").splitlines()
    divs = [
        node.find_all(lambda n: "text" in n.classes)[0]
        for node in dom.root.find_all(
            lambda n: "hyp" in n.classes and n.attrs.get("data-system") == "0"
        )
    ]
    assert [painted(d)[0] for d in divs] == hyp_lines

    # Defence in depth: an element injected into the report is blocked by its policy...
    page = report.read_text(encoding="utf-8")
    injected = page.replace("</body>", f'<img src="http://127.0.0.1:{port}/injected"></body>')
    assert injected != page
    attacked = tmp_path / "attacked.html"
    attacked.write_text(injected, encoding="utf-8")
    assert chromium(attacked, tmp_path / "p3", "--dump-dom").returncode == 0
    assert requests == []
    # ... and it is the policy that blocks it: without it the image is fetched.
    start = injected.index('<meta http-equiv="Content-Security-Policy"')
    end = injected.index(">", start) + 1
    unprotected = tmp_path / "unprotected.html"
    unprotected.write_text(injected[:start] + injected[end:], encoding="utf-8")
    assert chromium(unprotected, tmp_path / "p4", "--dump-dom").returncode == 0
    assert requests == ["/injected"]


def test_a_full_report_renders_with_every_section(tmp_path: Path) -> None:
    """The sample with a session's annotations and a paired test: every section is in the page
    Chromium parsed; the screenshot is for a person to look at."""
    lines = {
        n: (SAMPLE / f"sys.{n}.txt").read_text("utf-8").splitlines() for n in ("fluent", "rough")
    }
    spans = []
    for segment, (name, word, category, severity) in enumerate(
        [
            ("rough", 0, "Accuracy/Mistranslation", "major"),
            ("rough", 2, "Fluency/Grammar", "minor"),
            ("fluent", 1, "Style", "minor"),
            ("rough", 1, "Accuracy/Omission", "critical"),
        ]
    ):
        line = lines[name][segment]
        token = line.split()[word]
        start = line.index(token)
        spans.append(
            ErrorSpan.create(
                system=name,
                segment=segment,
                line=line,
                start=start,
                end=start + len(token),
                category=category,
                severity=severity,
                annotator="ann",
            )
        )
    session = tmp_path / "sample.matchlight"
    inputs = [SessionInput.from_file(SAMPLE / "src.de.txt", role="source", name="source")]
    inputs += [
        SessionInput.from_file(SAMPLE / f"ref{r}.en.txt", role="reference", name=f"ref{r}")
        for r in ("", "2")
    ]
    inputs += [
        SessionInput.from_file(SAMPLE / f"sys.{n}.txt", role="system", name=n)
        for n in ("fluent", "literal", "rough")
    ]
    config = ScoringConfig(metrics=("bleu", "chrf", "rouge"))
    with SessionStore.create(session, inputs=inputs, settings=config.to_dict()) as store:
        store.add_many(spans, [SegmentScore("fluent", 0, "ann", 90.0)])
    report = tmp_path / "report.html"
    assert (
        main(
            [
                "--session",
                str(session),
                "--paired-bs",
                "--max-rows",
                "12",
                "--out",
                str(report),
                "-q",
            ]
        )
        == 0
    )
    shown = chromium(report, tmp_path / "p", "--dump-dom")
    assert shown.returncode == 0
    dom = Dom(shown.stdout)
    assert [n.attrs["id"] for n in dom.all("section")] == [
        "summary", "language", "significance", "mqm", "charts", "rows",
    ]  # fmt: skip
    assert len(dom.all("article")) == 12
    assert len(dom.all("tr", data_system="0")) == 1  # no selection: one summary table
    assert len(dom.all("table", class_="significance")) == 5
    assert len(dom.all("svg")) == 3 * 3 + 2 + 1  # histograms, scatters, buckets
    assert dom.all("span", class_="err sev-major")

    SHOTS.mkdir(parents=True, exist_ok=True)
    shot = SHOTS / "report.png"
    shot.unlink(missing_ok=True)
    taken = chromium(report, tmp_path / "p2", "--window-size=1280,5200", f"--screenshot={shot}")
    assert taken.returncode == 0
    assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert int.from_bytes(shot.read_bytes()[16:20], "big") == 1280
