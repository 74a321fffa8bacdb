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
  - an import of --spans spans (one undo step, one transaction; applied a slice at a time
    where the tree does so), its undo and redo, each with the event loop's longest wait;
  - Save session as, and reopening the saved session until its annotations are back;
  - the GUI thread's longest wait while edits are made as fast as possible;
  - in the annotation view (a ``docid`` label column of runs of 10 lines loaded): the next
    segment (N), a random segment (Ctrl+G), the next system (S), each until the view shows the
    new output with its neighbours (moves back to back, as a key held down; N and Ctrl+G also
    300 ms apart, an annotator's pace, with the event loop's longest wait meanwhile); and an
    edit made there (two clicks' selection, a category, a severity, Enter; 300 ms after the
    move to its output, as an annotator reads it first), each median and worst of 40 (20 for
    the paced moves).

Each timed step also says where its wall time went beyond the GUI thread's CPU (Linux):
waiting for a core (the machine's load, the app's other threads), or off the CPU (the disk,
the GIL, a lock), with the CPU the process's other threads used meanwhile.

With --profile DIR each timed step also runs under cProfile, on the GUI thread's CPU time (the
machine's load does not inflate it; waiting on the disk does not show), which slows it: take
the figures from a run without it. DIR gets a ``<step>.prof`` and a ``<step>.txt`` of its top
functions per step.
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import os
import pstats
import random
import statistics
import sys
import tempfile
import threading
import time
from collections import defaultdict
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from PySide6.QtCore import QSettings  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402

from tests.benchmarks.bench_gui import LatencyProbe, wait, write_corpus  # noqa: E402


def thread_times(gui_tid: int) -> dict[int, tuple[str, float, float]]:
    """Per thread of this process (Linux): (name, CPU ms, ms waiting for a core), from
    /proc/self/task/*/schedstat; the GUI thread is named "gui", Python's threads by their
    names. Empty elsewhere."""
    times: dict[int, tuple[str, float, float]] = {}
    named = {t.native_id: t.name for t in threading.enumerate()}
    try:
        tasks = os.listdir("/proc/self/task")
    except OSError:
        return times
    for tid in tasks:
        try:
            with open(f"/proc/self/task/{tid}/schedstat", encoding="ascii") as f:
                on_cpu, waiting, _ = f.read().split()
            with open(f"/proc/self/task/{tid}/comm", encoding="utf-8") as f:
                name = f.read().strip()
        except OSError:
            continue
        name = "gui" if int(tid) == gui_tid else named.get(int(tid), name)
        times[int(tid)] = (name, int(on_cpu) / 1e6, int(waiting) / 1e6)
    return times


def gap_of(
    before: dict[int, tuple[str, float, float]], after: dict[int, tuple[str, float, float]]
) -> tuple[float, float, dict[str, float]]:
    """Between two :func:`thread_times`: the GUI thread's wait for a core, the other threads'
    CPU in all, and per name."""
    queued, others = 0.0, 0.0
    by_name: dict[str, float] = defaultdict(float)
    for tid, (name, on_cpu, waiting) in after.items():
        _, on_cpu0, waiting0 = before.get(tid, (name, 0.0, 0.0))
        if name == "gui":
            queued = waiting - waiting0
        elif on_cpu > on_cpu0:
            others += on_cpu - on_cpu0
            by_name[name] += on_cpu - on_cpu0
    return queued, others, dict(by_name)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=100_000)
    parser.add_argument("--systems", type=int, default=3)
    parser.add_argument("--spans", type=int, default=100_000)
    parser.add_argument("--profile", type=Path, help="write cProfile statistics of each step here")
    parser.add_argument(
        "--first-edit-only", action="store_true", help="stop after timing the first edit"
    )
    parser.add_argument(
        "--switch-interval",
        type=float,
        help="the interpreter's thread switch interval in ms (Python's default: 5)",
    )
    args = parser.parse_args()
    if args.switch_interval is not None:
        sys.setswitchinterval(args.switch_interval / 1000)
    profiles: dict[str, cProfile.Profile] = {}

    def profiled(step: str) -> cProfile.Profile | None:
        """The profiler of ``step`` (one per step, accumulated over its repetitions)."""
        if args.profile is None:
            return None
        return profiles.setdefault(step, cProfile.Profile(time.thread_time))

    #: Per step, the GUI thread's CPU time of each repetition (ms): unlike the wall time, it
    #: hardly grows with the machine's load (waiting on the disk is not in it).
    cpu: dict[str, list[float]] = defaultdict(list)
    #: Per step, where each repetition's wall time went besides the GUI thread's CPU (ms):
    #: (wall, waiting for a core, the other threads' CPU meanwhile, per other thread's name).
    spent: dict[str, list[tuple[float, float, float, dict[str, float]]]] = defaultdict(list)
    gui_tid = threading.get_native_id()
    #: Garbage collection on the GUI thread: ms per generation, added up while a step runs.
    collecting: dict[int, float] = defaultdict(float)
    collection_began = [0.0]

    def on_collection(phase: str, info: dict[str, int]) -> None:
        if threading.get_native_id() != gui_tid:
            return
        if phase == "start":
            collection_began[0] = time.perf_counter()
        else:
            collecting[info["generation"]] += (time.perf_counter() - collection_began[0]) * 1000

    gc.callbacks.append(on_collection)
    #: Per step, the GUI thread's collections in each repetition (ms, all generations).
    collected: dict[str, list[float]] = defaultdict(list)

    @contextmanager
    def measured(step: str) -> Iterator[None]:
        profile = profiled(step)
        if profile is not None:
            profile.enable()
        before = thread_times(gui_tid)
        collecting.clear()
        wall = time.perf_counter()
        begin = time.thread_time()
        try:
            yield
        finally:
            cpu[step].append((time.thread_time() - begin) * 1000)
            collected[step].append(sum(collecting.values()))
            took = (time.perf_counter() - wall) * 1000
            after = thread_times(gui_tid)
            spent[step].append((took, *gap_of(before, after)))
            if profile is not None:
                profile.disable()

    folder = Path(tempfile.mkdtemp(prefix="matchlight-bench-annotate-"))
    os.environ["MATCHLIGHT_RECOVERY_DIR"] = str(folder / "recovery")

    from matchlight.core.annotation.history import AddSpan, Batch
    from matchlight.core.annotation.model import ErrorSpan, Severity, Side, Status
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

    def edit(segment: int | None = None, system: int | None = None, step: str = "edit") -> float:
        """One edit through the controller, until its repaint is done (ms)."""
        seg = rng.randrange(args.rows) if segment is None else segment
        sys_index = rng.randrange(len(names)) if system is None else system
        line = c.line(seg, sys_index)
        at = rng.randrange(max(1, len(line) - 4))
        begin = time.perf_counter()
        with measured(step):
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

    def report(label: str, times: list[float], step: str) -> None:
        used = cpu.pop(step, [0.0])
        print(
            f"  {label:<48} median {statistics.median(times):7.1f} ms   worst {max(times):7.1f} ms"
            f"   (GUI thread CPU {statistics.median(used):6.1f} / {max(used):6.1f} ms)"
        )
        explain_gap(step, used)

    def explain_gap(step: str, used: list[float]) -> None:
        """Where the wall time beyond the GUI thread's CPU went: waiting for a core (the
        machine's load), or off the CPU (the disk, the GIL, a lock) while the process's other
        threads ran; for the median repetition and the worst."""
        rows = spent.pop(step, [])
        gcs = collected.pop(step, [])
        if len(rows) != len(used) or not rows:
            return
        order = sorted(range(len(rows)), key=lambda k: rows[k][0])
        parts = []
        for what, k in (("median", order[len(order) // 2]), ("worst", order[-1])):
            wall, queued, others, by_name = rows[k]
            off = wall - used[k] - queued
            top = ", ".join(
                f"{n} {t:.0f}" for n, t in sorted(by_name.items(), key=lambda x: -x[1])[:3]
            )
            parts.append(
                f"{what}: wall {wall:.0f} = CPU {used[k]:.0f} (GC {gcs[k]:.0f}) + core wait"
                f" {queued:.0f} + off CPU {off:.0f} (other threads' CPU {others:.0f}"
                f"{': ' + top if top else ''})"
            )
        print(f"  {'':<4}" + "; ".join(parts))
        if gcs and max(gcs) >= 10:
            print(
                f"  {'':<4}GC on the GUI thread: {sum(gcs):.0f} ms in all, at most {max(gcs):.0f}"
            )

    def once(label: str, took: float, step: str) -> None:
        used = cpu.pop(step, [0.0])
        print(f"  {label:<48} {took:7.1f} ms   (GUI thread CPU {sum(used):7.1f} ms)")
        explain_gap(step, used)

    def ms(begin: float) -> float:
        return (time.perf_counter() - begin) * 1000

    once("first edit (creates the session, MQM columns)", edit(0, 0, "first"), "first")
    if args.first_edit_only:
        write_profiles(args.profile, profiles)
        return
    report("an edit (commit + table + panel)", [edit() for _ in range(40)], "edit")

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
    stepping = getattr(c, "stepping", None)  # None: a tree that applies it in one go

    def large(step: str, label: str, run: object) -> None:
        """An import, its undo or redo, until it is in; with the event loop's longest wait."""
        probe = LatencyProbe()
        probe.start()
        begin = time.perf_counter()
        with measured(step):
            run()  # type: ignore[operator]
            if stepping is not None:
                wait(app, lambda: not stepping.busy(), 600)
            app.processEvents()
        took = ms(begin)
        probe.stop()
        once(label, took, step)
        gaps = [*probe.gaps, 0.0]
        turns = (
            f"; {stepping.turns} turns of slices, the longest {stepping.longest_ms:.0f} ms"
            f" (CPU {stepping.longest_cpu_ms:.0f} ms)"
            if stepping is not None
            else ""
        )
        print(f"  {'  longest event-loop wait in it':<48} {max(gaps):7.1f} ms{turns}")

    # Made as the import's worker makes it (off the GUI thread).
    batch = Batch(tuple(AddSpan(s) for s in spans), label="Import")
    large("import", f"import of {args.spans:,} spans (one step)", lambda: c.execute(batch))
    large("undo", "its undo (one transaction)", c.undo)
    assert len(ws) == 41
    large("redo", "its redo", c.redo)
    report(
        f"an edit with {len(ws):,} spans",
        [edit(step="edit-spans") for _ in range(40)],
        "edit-spans",
    )

    probe = LatencyProbe()
    probe.start()
    for _ in range(60):
        edit()
    probe.stop()
    gaps = sorted(probe.gaps)
    print(f"  {'longest event-loop wait during 60 edits':<48} {gaps[-1] if gaps else 0:7.1f} ms")

    # The annotation view, with documents of 10 lines (the bench corpus has no docid).
    from matchlight.core.io.labels import read_labels
    from matchlight.core.session.imported import LabelImport

    docids = folder / "docid.txt"
    docids.write_text("".join(f"doc{i // 10}\n" for i in range(args.rows)), encoding="utf-8")
    core = window.lifecycle.core
    core.set_labels(LabelImport.from_column(read_labels(str(docids), n_segments=args.rows)))
    ui = window.annotations.ui
    ui.show_view()
    view = ui.view
    view.resize(1280, 720)
    app.processEvents()

    def in_view(segment: int, system: int) -> bool:
        return (
            view.target_text.segment == segment
            and view.target_text.system == system
            and view.target_text.plain_text() == c.line(segment, system)[:5000]
        )

    def switch(move: object, step: str) -> float:
        begin = time.perf_counter()
        with measured(step):
            move()  # type: ignore[operator]
            app.processEvents()
        segment, system = c.target() or (-1, -1)
        assert in_view(segment, system), (segment, system)
        return ms(begin)

    report(
        "view: next segment (N)",
        [switch(lambda: c.move_segment(1), "view-next") for _ in range(40)],
        "view-next",
    )
    report(
        "view: a random segment (Ctrl+G)",
        [switch(lambda: c.go_to_segment(rng.randrange(args.rows)), "view-goto") for _ in range(40)],
        "view-goto",
    )

    def paced(move: object, step: str) -> float:
        """A move 300 ms after the last (an annotator's pace, not a key held down): what the
        view and the window behind it put off to a pause is done in between."""
        wait(app, lambda: probe.elapsed() - last[0] >= 300, 10)
        took = switch(move, step)
        last[0] = probe.elapsed()
        return took

    last = [0.0]
    probe = LatencyProbe()
    probe.start()
    report(
        "view: next segment (N), 300 ms apart",
        [paced(lambda: c.move_segment(1), "view-next-paced") for _ in range(20)],
        "view-next-paced",
    )
    report(
        "view: Ctrl+G, 300 ms apart",
        [
            paced(lambda: c.go_to_segment(rng.randrange(args.rows)), "view-goto-paced")
            for _ in range(20)
        ],
        "view-goto-paced",
    )
    probe.stop()
    print(f"  {'  longest event-loop wait in those 40 moves':<48} {max(probe.gaps):7.1f} ms")
    report(
        "view: next system (S)",
        [switch(lambda: c.move_system(1), "view-system") for _ in range(40)],
        "view-system",
    )

    def view_edit() -> float:
        while True:  # an output with words and no error there yet
            c.go_to_segment(rng.randrange(args.rows))
            app.processEvents()
            segment, system = c.target() or (0, 0)
            line = c.line(segment, system)
            words = [
                i for i, ch in enumerate(line) if ch.isalnum() and (i == 0 or line[i - 1] == " ")
            ]
            if words and not c.target_spans():
                break
        # The annotator reads the output before selecting: what the window behind the view
        # put off to a pause after the move (the table's scroll, the detail pane) is done.
        pause = time.perf_counter()
        wait(app, lambda: time.perf_counter() - pause >= 0.3, 10)
        begin = time.perf_counter()
        with measured("view-edit"):
            c.selecting.pick_word(Side.TARGET, words[0])
            c.selecting.pick_word(Side.TARGET, words[min(2, len(words) - 1)])
            c.set_category("Style")
            c.set_severity(Severity.MINOR)
            assert c.confirm(), c.message
            app.processEvents()
        return ms(begin)

    report(
        "view: an edit (select, category, severity, Enter)",
        [view_edit() for _ in range(40)],
        "view-edit",
    )
    view.close()

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
    write_profiles(args.profile, profiles)
    QApplication.processEvents()


def write_profiles(folder: Path | None, profiles: dict[str, cProfile.Profile]) -> None:
    """Each step's profile as ``<step>.prof`` and its top functions as ``<step>.txt``."""
    if folder is None:
        return
    folder.mkdir(parents=True, exist_ok=True)
    for step, profile in profiles.items():
        profile.dump_stats(folder / f"{step}.prof")
        with open(folder / f"{step}.txt", "w", encoding="utf-8") as out:
            stats = pstats.Stats(profile, stream=out).sort_stats("cumulative")
            stats.print_stats(40)
            stats.sort_stats("tottime").print_stats(25)
    print(f"profiles of {', '.join(profiles)} in {folder}")


if __name__ == "__main__":
    main()
