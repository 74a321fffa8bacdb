"""Annotating a big comparison in the app, measured (never asserted).

    QT_QPA_PLATFORM=offscreen python tests/benchmarks/bench_annotate.py [--rows 100000]
        [--systems 3] [--spans 100000]

Builds --rows segments from the real WMT22 de-en data (as bench_gui.py does), opens them in a
real MainWindow (offscreen), waits for scoring, then times:
  - the first edit, which creates the untitled session (hashing the inputs) and shows the MQM
    columns;
  - single edits through the annotation controller (the SQLite commit included, and the
    repaint they cause), median and worst of 40;
  - the same with --spans spans already in the session;
  - undo of an import of --spans spans (one transaction);
  - Save session as, and reopening the saved session until its annotations are back;
  - the GUI thread's longest wait while edits are made as fast as possible.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from PySide6.QtCore import QSettings  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402

from tests.benchmarks.bench_gui import LatencyProbe, wait, write_corpus  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=100_000)
    parser.add_argument("--systems", type=int, default=3)
    parser.add_argument("--spans", type=int, default=100_000)
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="matchlight-bench-annotate-"))
    os.environ["MATCHLIGHT_RECOVERY_DIR"] = str(folder / "recovery")

    from matchlight.core.annotation.model import ErrorSpan, Status
    from matchlight.core.io.inputs import InputSpec
    from matchlight.gui.dialogs.opendialog import ComparisonSpecs
    from matchlight.gui.shell.app import ensure_application
    from matchlight.gui.shell.mainwindow import MainWindow

    app = ensure_application()
    files = write_corpus(folder, args.rows, args.systems)
    specs = ComparisonSpecs(
        source=InputSpec(str(files["src"][0])),
        references=tuple(InputSpec(str(p)) for p in files["ref"]),
        systems=tuple(InputSpec(str(p), name=p.stem.split(".", 1)[1]) for p in files["sys"]),
    )
    settings = QSettings(str(folder / "bench.ini"), QSettings.Format.IniFormat)
    errors: list[tuple[str, str]] = []
    window = MainWindow(settings=settings, error_sink=lambda t, m: errors.append((t, m)))
    window.resize(1400, 900)
    window.show()
    c = window.annotations.controller
    c.notice_sink = lambda title, message: None
    window.sessions.notice_sink = c.notice_sink
    start = time.perf_counter()
    window.open_specs(specs)
    wait(app, lambda: window.table is not None and window.table.complete, 600)
    took = time.perf_counter() - start
    print(f"{args.rows:,} rows x {args.systems} systems scored in {took:.1f} s")
    rng = random.Random(1)
    names = c.system_names

    def edit(segment: int | None = None, system: int | None = None) -> float:
        seg = rng.randrange(args.rows) if segment is None else segment
        sys_index = rng.randrange(len(names)) if system is None else system
        line = c.line(seg, sys_index)
        at = rng.randrange(max(1, len(line) - 4))
        begin = time.perf_counter()
        span = c.add_span(
            start=at,
            end=min(len(line), at + 3),
            severity="minor",
            category="Style",
            segment=seg,
            system=sys_index,
        )
        app.processEvents()
        assert span is not None, c.message
        return (time.perf_counter() - begin) * 1000

    def report(label: str, times: list[float]) -> None:
        print(
            f"  {label:<48} median {statistics.median(times):7.1f} ms   worst {max(times):7.1f} ms"
        )

    def ms(begin: float) -> float:
        return (time.perf_counter() - begin) * 1000

    print(f"  {'first edit (creates the session, MQM columns)':<48} {edit(0, 0):7.1f} ms")
    report("an edit (commit + table + panel)", [edit() for _ in range(40)])

    # Many spans already there: an import of --spans spans (one undo step), its undo and redo,
    # then edits.
    ws = c.workspace
    spans = []
    for _ in range(args.spans):
        seg, s = rng.randrange(args.rows), rng.randrange(len(names))
        line = c.line(seg, s)
        at = rng.randrange(max(1, len(line) - 4))
        spans.append(
            ErrorSpan.create(
                system=names[s],
                segment=seg,
                line=line,
                start=at,
                end=min(len(line), at + 3),
                category="",
                severity="major",
                annotator="xcomet",
                status=Status.UNDECIDED,
            )
        )
    begin = time.perf_counter()
    ws.import_records(spans, label="Import")
    app.processEvents()
    print(f"  {f'import of {args.spans:,} spans (one step)':<48} {ms(begin):7.1f} ms")
    begin = time.perf_counter()
    c.undo()
    app.processEvents()
    assert len(ws) == 41
    print(f"  {'its undo (one transaction)':<48} {ms(begin):7.1f} ms")
    begin = time.perf_counter()
    c.redo()
    app.processEvents()
    print(f"  {'its redo':<48} {ms(begin):7.1f} ms")
    report(f"an edit with {len(ws):,} spans", [edit() for _ in range(40)])

    probe = LatencyProbe()
    probe.start()
    for _ in range(60):
        edit()
    probe.stop()
    gaps = sorted(probe.gaps)
    print(f"  {'longest event-loop wait during 60 edits':<48} {gaps[-1] if gaps else 0:7.1f} ms")

    target = folder / "saved.matchlight"
    begin = time.perf_counter()
    window.sessions.save_session_as(target)
    print(f"  {f'Save session as ({len(ws):,} spans)':<48} {ms(begin):7.1f} ms")
    count = len(ws)
    window.close()

    other = MainWindow(settings=settings, error_sink=lambda t, m: errors.append((t, m)))
    other.resize(1400, 900)
    other.show()
    o = other.annotations.controller
    o.notice_sink = lambda title, message: None
    other.sessions.notice_sink = o.notice_sink
    begin = time.perf_counter()
    other.sessions.open_session(target)
    wait(app, lambda: o.workspace is not None and len(o.workspace) == count, 600)
    shown = time.perf_counter() - begin
    wait(app, lambda: other.table is not None and other.table.complete, 600)
    print(f"  {'reopen: annotations back (scoring goes on)':<48} {shown * 1000:7.1f} ms")
    print(f"  {'reopen: scored again':<48} {(time.perf_counter() - begin) * 1000:7.1f} ms")
    other.close()
    if errors:
        print("errors:", errors)
    QApplication.processEvents()


if __name__ == "__main__":
    main()
