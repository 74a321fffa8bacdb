"""Responsiveness of the desktop app on a big comparison, measured (never asserted).

    QT_QPA_PLATFORM=offscreen python tests/benchmarks/bench_gui.py [--rows 100000] [--systems 3]
        [--window 1400x900] [--long-rows 0]

Builds --rows segments from the real WMT22 de-en data in ../shared/data (source, two references,
--systems system outputs, rows repeated), writes them to a temporary folder, then with a real
MainWindow on screen (offscreen):
  - reads the files (matchlight.core.io.inputs) once and times it, for reference;
  - opens them as the app does (MainWindow.open_specs: read in a worker thread, the first rows
    shown and scored while the rest is read, then appended) and times how long until the first
    rows are in the table, until every file is read, and until the first scored rows;
  - meanwhile measures the GUI thread's event-loop latency with a 5 ms timer (the largest gap
    between two ticks, and the 99th percentile), while the files are read and while scoring;
  - times sorting and filtering through the proxy once scoring is done: until the result is
    applied (searches and text sorts run in a worker), until the charts shown (the corpus
    summary, the chart tab in front) have drawn the new rows, and the longest event-loop gap
    over both;
  - reports the peak resident memory of the process.
The issue's targets at 100k: first rows within 1 s of the open, no stall over 100 ms,
sort/filter within 300 ms, memory under 1.5 GB; at 1M (--rows 1000000): the same, with the
memory under 3 GB.
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import os
import pstats
import resource
import sys
import tempfile
import threading
import time
from collections import Counter, deque
from itertools import pairwise
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402
from PySide6.QtCore import QElapsedTimer, QEventLoop, QObject, Qt, QTimer, Slot  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402

from matchlight.core.io.inputs import parse_spec  # noqa: E402
from matchlight.core.io.reading import load_comparison  # noqa: E402
from tests.benchmarks.benchkit import DE_EN, read_lines  # noqa: E402

DATA = DE_EN


class LatencyProbe(QObject):
    """Ticks every ``interval`` ms in the GUI thread and records the gaps between ticks."""

    def __init__(self, interval: int = 5) -> None:
        super().__init__()
        self.gaps: list[float] = []
        self.times: list[float] = []
        self.cpu: list[float] = []  # the GUI thread's CPU ms over each gap
        self.turns: TurnLog | None = None
        self._cpu_since = time.thread_time()
        self._clock = QElapsedTimer()
        self._since = QElapsedTimer()
        self._timer = QTimer(self)
        self._timer.setTimerType(Qt.TimerType.PreciseTimer)
        self._timer.setInterval(interval)
        self._timer.timeout.connect(self._on_tick)

    def start(self) -> None:
        self._clock.start()
        self._since.start()
        self._cpu_since = time.thread_time()
        self._timer.start()

    def stop(self) -> None:
        self._timer.stop()

    def elapsed(self) -> float:
        """Milliseconds since :meth:`start` (the clock of :attr:`times`)."""
        return self._since.nsecsElapsed() / 1e6

    @Slot()
    def _on_tick(self) -> None:
        self.gaps.append(self._clock.nsecsElapsed() / 1e6)
        self.times.append(self._since.nsecsElapsed() / 1e6)
        now = time.thread_time()
        self.cpu.append((now - self._cpu_since) * 1000)
        self._cpu_since = now
        if self.turns is not None:
            self.turns.tick(self.times[-1])
        self._clock.restart()


class CollectionLog:
    """Records the cyclic garbage collections that take long (the app runs them in the GUI
    thread: every one is an event-loop gap of its own)."""

    def __init__(self, probe: LatencyProbe, at_least_ms: float = 20.0) -> None:
        self.probe = probe
        self.at_least_ms = at_least_ms
        # (ms, generation, at ms on the probe, objects counted in generation 0 then)
        self.long: list[tuple[float, int, float, int]] = []
        self._start = 0.0
        self._young = 0
        gc.callbacks.append(self._on_gc)

    def _on_gc(self, phase: str, info: dict) -> None:
        if phase == "start":
            self._start = time.perf_counter()
            self._young = gc.get_count()[0]
            return
        ms = (time.perf_counter() - self._start) * 1000
        if ms >= self.at_least_ms:
            self.long.append((ms, info["generation"], self.probe.elapsed(), self._young))

    def report(self, since: float) -> None:
        worst = sorted(self.long, reverse=True)[:6]
        print(
            f"  garbage collections over {self.at_least_ms:.0f} ms: {len(self.long)}"
            + "".join(
                f"; {ms:.0f} (gen {g}, {young:,} young) @ {t - since:.0f}"
                for ms, g, t, young in worst
            )
        )


class TurnLog:
    """The GUI thread's own CPU per event-loop turn (between two ticks of the probe), split by
    the Python callback the event loop ran (a slot, a timer, an event handler, a delegate's
    paint: each call whose caller is the bench's own loop). A profile hook on the GUI thread:
    it slows Python code there, so the figures name causes; the CPU per turn without it is the
    probe's (``LatencyProbe.cpu``)."""

    def __init__(self, loops: tuple, at_least_ms: float = 40.0) -> None:
        self.loops = {func.__code__ for func in loops}
        self.at_least_ms = at_least_ms
        # (turn cpu ms, ending at probe ms, [(cpu ms, callback), ...])
        self.long: list[tuple[float, float, list[tuple[float, str]]]] = []
        self._turn: Counter[str] = Counter()
        self._top = None
        self._top_start = 0.0
        self._since = time.thread_time()

    def _hook(self, frame, event, arg) -> None:
        if event == "call":
            if self._top is None and frame.f_back is not None and frame.f_back.f_code in self.loops:
                self._top = frame
                self._top_start = time.thread_time()
        elif event == "return" and frame is self._top:
            code = frame.f_code
            name = (
                f"{code.co_qualname} ({code.co_filename.rsplit('/', 1)[-1]}:{code.co_firstlineno})"
            )
            self._turn[name] += time.thread_time() - self._top_start
            self._top = None

    def start(self) -> None:
        self._since = time.thread_time()
        sys.setprofile(self._hook)

    def stop(self) -> None:
        sys.setprofile(None)

    def tick(self, at: float) -> None:
        """The probe ticked: the turn since its last tick ends."""
        now = time.thread_time()
        if self._top is not None:  # a tick in a loop nested in a callback
            code = self._top.f_code
            self._turn[f"{code.co_qualname} (nested loop)"] += now - self._top_start
            self._top_start = now
        cpu = (now - self._since) * 1000
        if cpu >= self.at_least_ms:
            parts = sorted(((ms * 1000, name) for name, ms in self._turn.items()), reverse=True)
            self.long.append((cpu, at, parts))
        self._turn.clear()
        self._since = time.thread_time()

    def report(self, low: float, high: float, since: float, count: int = 12) -> None:
        turns = sorted(t for t in self.long if low < t[1] <= high)[::-1]
        print(f"    GUI turns over {self.at_least_ms:.0f} ms of GUI CPU (traced): {len(turns)}")
        for cpu, at, parts in turns[:count]:
            named = sum(ms for ms, _ in parts)
            print(
                f"      {cpu:5.0f} ms cpu @ {at - since:.0f}: "
                + "; ".join(f"{ms:.0f} {name}" for ms, name in parts[:3])
                + f"; unnamed {cpu - named:.0f}"
            )


class _BenchThread:
    """A daemon thread of the bench that runs :meth:`_run` from :meth:`start` (``t0``: the
    ``perf_counter`` its times count from) until :meth:`stop`."""

    def __init__(self, name: str) -> None:
        self._t0 = time.perf_counter()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name=name, daemon=True)

    def _run(self) -> None:
        raise NotImplementedError

    def start(self, t0: float) -> None:
        self._t0 = t0
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        self._thread.join()


# The other threads' frames a probe thread looked at. A frame it holds keeps the locals of a
# function that may have returned meanwhile: dropped in the probe thread, they would be freed
# there, Qt objects included (a text document of the table's delegate once was, and its
# destructor, holding Qt's connection lock, waited for the interpreter that the GUI thread,
# waiting for that lock, held: the bench hung). So the probes leave every frame here, and
# :func:`drop_frames` frees them in the GUI thread.
FRAMES: deque = deque()


def drop_frames() -> None:
    """Free in the GUI thread the frames the probe threads left (see :data:`FRAMES`)."""
    while FRAMES:
        FRAMES.popleft()


class StallSampler(_BenchThread):
    """A thread that looks at every thread's Python stack every few milliseconds (it needs the
    GIL too, so it samples whenever it gets it), and at the CPU time of every thread of the
    process (/proc: time run, and time waited for a core). During a long event-loop gap, where
    the GUI thread was, what the other threads ran, and which of them used the CPU tell who held
    it up: the GUI thread running (its own work), waiting for a core (the machine's load), or
    neither while a worker ran (the worker held the interpreter)."""

    def __init__(self, interval_s: float = 0.004) -> None:
        super().__init__("bench-stall-sampler")
        self.interval_s = interval_s
        # (ms, GUI stack, other stacks, {tid: (run ns, queued ns)})
        self.samples: list[tuple[float, str, list[str], dict[int, tuple[int, int]]]] = []
        self._main = threading.main_thread().ident
        self._main_tid = threading.main_thread().native_id
        self._names: dict[int, str] = {}

    @staticmethod
    def _where(frame, depth: int) -> str:
        names = []
        while frame is not None and len(names) < depth:
            FRAMES.append(frame)  # its caller's frame object may be made just now
            names.append(f"{frame.f_code.co_name}:{frame.f_lineno}")
            frame = frame.f_back
        return " < ".join(names)

    @staticmethod
    def _cpu() -> dict[int, tuple[int, int]]:
        """Per thread of the process: ns run on a core, ns waited for one (schedstat)."""
        out = {}
        for tid in os.listdir("/proc/self/task"):
            try:
                with open(f"/proc/self/task/{tid}/schedstat") as f:
                    run, queued, _ = f.read().split()
            except (OSError, ValueError):
                continue
            out[int(tid)] = (int(run), int(queued))
        return out

    def _name(self, tid: int) -> str:
        """The name of the Python thread seen with native id ``tid`` (else the OS's)."""
        if tid not in self._names:
            try:
                with open(f"/proc/self/task/{tid}/comm") as f:
                    self._names[tid] = f"{f.read().strip()}#{tid}"
            except OSError:
                self._names[tid] = f"thread#{tid}"
        return self._names[tid]

    def _run(self) -> None:
        me = threading.get_ident()
        while not self._stop.wait(self.interval_s):
            frames = sys._current_frames()
            FRAMES.append(frames)  # freed in the GUI thread
            cpu = self._cpu()
            at = (time.perf_counter() - self._t0) * 1000
            main = self._where(frames.get(self._main), 4)
            others = []
            for ident, frame in frames.items():
                if ident in (me, self._main):
                    continue
                # Looked up every time: a thread's ident is reused by the next one.
                thread = threading._active.get(ident)  # type: ignore[attr-defined]
                name = thread.name if thread is not None else str(ident)
                if thread is not None and thread.native_id is not None:
                    self._names[thread.native_id] = name
                others.append(f"{name}: {self._where(frame, 4)}")
            self.samples.append((at, main, others, cpu))
            del frames, frame

    def split(self, gaps: list[tuple[float, float]]) -> str:
        """Where the GUI thread's time went over ``gaps`` (gap ms, ending at ms), summed: run on
        a core (its own work), waited for a core (the machine's load), neither (asleep: waiting
        for the interpreter, mostly; a gap is never idle time)."""
        total = ran = queued = 0.0
        for gap, end in gaps:
            before = [s for s in self.samples if s[0] < end - gap][-1:]
            after = [s for s in self.samples if s[0] > end][:1]
            if not before or not after:
                continue
            run0, queued0 = before[0][3].get(self._main_tid, (0, 0))
            run1, queued1 = after[0][3].get(self._main_tid, (0, 0))
            total += after[0][0] - before[0][0]
            ran += (run1 - run0) / 1e6
            queued += (queued1 - queued0) / 1e6
        asleep = total - ran - queued
        return (
            f"{len(gaps)} gaps, {total:.0f} ms around them: GUI ran {ran:.0f}, waited for a core "
            f"{queued:.0f}, asleep {asleep:.0f}"
        )

    def report(self, gaps: list[tuple[float, float]]) -> None:
        """For each (gap ms, ending at ms): the CPU each thread used during it, the longest
        the sampler waited for the interpreter and what the threads ran right after, and the
        commonest stacks sampled during it."""
        for gap, end in gaps:
            inside = [s for s in self.samples if end - gap <= s[0] <= end]
            before = [s for s in self.samples if s[0] < end - gap][-1:]
            after = [s for s in self.samples if s[0] > end][:1]
            span = before + inside + after
            print(f"    gap {gap:.0f} ms @ {end:.0f}: {len(inside)} samples")
            if len(span) >= 2:
                first, last = span[0][3], span[-1][3]
                ms = span[-1][0] - span[0][0]
                used = []
                for tid, (run, queued) in last.items():
                    run0, queued0 = first.get(tid, (0, 0))
                    if run - run0 > 5e6 or tid == self._main_tid:
                        used.append(((run - run0) / 1e6, (queued - queued0) / 1e6, tid))
                used.sort(reverse=True)
                print(
                    f"      cpu over {ms:.0f} ms (run/queued): "
                    + ", ".join(
                        f"{'GUI' if tid == self._main_tid else self._name(tid)} "
                        f"{run:.0f}/{queued:.0f}"
                        for run, queued, tid in used[:6]
                    )
                )
                steps = [(b[0] - a[0], b) for a, b in pairwise(span)]
                wait_ms, sample = max(steps, key=lambda step: step[0])
                print(f"      sampler waited {wait_ms:.0f} ms; then GUI at {sample[1]}")
                for text in sample[2]:
                    if "wait" not in text.split(" < ")[0]:
                        print(f"        then {text}")
            main = Counter(m for _, m, _, _ in inside).most_common(2)
            others = Counter(o for _, _, os_, _ in inside for o in os_ if "wait" not in o)
            for text, count in main:
                print(f"      GUI   {count:3d}  {text}")
            for text, count in others.most_common(3):
                print(f"      other {count:3d}  {text}")


class GilProbe(_BenchThread):
    """A thread that sleeps 0.2 ms at a time and times how long it then waits to run Python
    again. A wait over ``at_least_ms`` during which another thread of the process used most of
    the CPU (its own clock) is that thread holding the interpreter: in a long C call (numpy
    over a million items, a join, a list built in one call), which every thread, the GUI's
    included, waits out each time it asks for the interpreter back. Each such hold is kept with
    where that thread was when it let go."""

    def __init__(self, at_least_ms: float = 4.0) -> None:
        super().__init__("bench-gil-probe")
        self.at_least_ms = at_least_ms
        # (ending at ms, wait ms, holder's cpu ms over it, holder's name, holder's stack)
        self.holds: list[tuple[float, float, float, str, str]] = []

    def _run(self) -> None:
        me = threading.get_ident()
        clocks: dict[int, int] = {}
        # This thread's time waited for a core (schedstat's second field, ns).
        own = os.open(f"/proc/self/task/{threading.get_native_id()}/schedstat", os.O_RDONLY)

        def queued() -> float:
            return int(os.pread(own, 128, 0).split()[1]) / 1e6

        while not self._stop.is_set():
            before = {}
            for thread in threading.enumerate():
                ident = thread.ident
                if ident is None or ident == me:
                    continue
                try:
                    if ident not in clocks:
                        clocks[ident] = time.pthread_getcpuclockid(ident)
                    before[ident] = time.clock_gettime(clocks[ident])
                except OSError:
                    clocks.pop(ident, None)
            waited = queued()
            start = time.perf_counter()
            time.sleep(0.0002)
            end = time.perf_counter()
            wait = (end - start) * 1000
            if wait < self.at_least_ms or queued() - waited > 0.4 * wait:
                continue  # short, or mostly a wait for a core
            used = []
            for ident, cpu in before.items():
                try:
                    used.append(((time.clock_gettime(clocks[ident]) - cpu) * 1000, ident))
                except OSError:
                    continue
            if not used:
                continue
            ran, ident = max(used)
            if ran < 0.6 * wait:
                continue  # nobody held it that long: a wait for a core
            frames = sys._current_frames()
            FRAMES.append(frames)  # freed in the GUI thread
            frame = frames.get(ident)
            thread = threading._active.get(ident)  # type: ignore[attr-defined]
            name = (
                "GUI"
                if ident == threading.main_thread().ident
                else (thread.name if thread is not None else str(ident))
            )
            self.holds.append(
                ((end - self._t0) * 1000, wait, ran, name, StallSampler._where(frame, 3))
            )
            del frames, frame
        os.close(own)

    def report(self, low: float, high: float, count: int = 6) -> None:
        """The holds that ended between ``low`` and ``high`` (ms), by thread and place."""
        holds = [h for h in self.holds if low < h[0] <= high]
        print(
            f"    interpreter held >= {self.at_least_ms:.0f} ms by one thread: {len(holds)} "
            f"times, {sum(h[2] for h in holds):.0f} ms in all"
        )
        places: dict[str, list[float]] = {}
        for _, _, ran, name, where in holds:
            places.setdefault(f"{name}: {where}", []).append(ran)
        ranked = sorted(places.items(), key=lambda item: -sum(item[1]))
        for place, runs in ranked[:count]:
            print(f"      {len(runs):4d} x, {sum(runs):5.0f} ms, max {max(runs):4.0f}  {place}")


def write_corpus(
    folder: Path, rows: int, systems: int, long_rows: int = 0
) -> dict[str, list[Path]]:
    def repeat(lines: list[str]) -> str:
        out = (lines * (rows // len(lines) + 1))[:rows]
        # Hostile input: the first long_rows rows become one huge line each, made of the
        # file's own lines (about 34,000 characters).
        for i in range(min(long_rows, rows)):
            out[i] = " ".join(lines[i * 250 : i * 250 + 250])
        return "\n".join(out) + "\n"

    sys_files = sorted(DATA.glob("sys.*.txt"))[:systems]
    out: dict[str, list[Path]] = {"src": [], "ref": [], "sys": []}
    for role, names in (("src", ["src.txt"]), ("ref", ["ref.txt", "ref2.txt"])):
        for name in names:
            path = folder / name
            path.write_text(repeat(read_lines(DATA / name)), encoding="utf-8")
            out[role].append(path)
    for sys_file in sys_files:
        path = folder / sys_file.name
        path.write_text(repeat(read_lines(sys_file)), encoding="utf-8")
        out["sys"].append(path)
    return out


def wait(app: QApplication, condition, timeout_s: float) -> float:
    """Run the event loop until ``condition()``; it sleeps between events as the app's does (a
    busy loop would hold the GIL and slow the app's worker threads)."""
    start = time.perf_counter()
    tick = QTimer()
    tick.setInterval(10)
    tick.start()  # wakes the loop to look at the condition
    while not condition():
        app.processEvents(QEventLoop.ProcessEventsFlag.WaitForMoreEvents)
        if time.perf_counter() - start > timeout_s:
            raise TimeoutError("condition not reached")
    tick.stop()
    return time.perf_counter() - start


def charts_busy(window) -> bool:
    """Whether a chart on screen (the corpus summary, the chart tab shown) has a refresh pending
    or computing. Trees before charts computed in a worker have no job: their timers alone."""
    # The window's counts first (they pass the filtered rows to the summary).
    counts = getattr(window.lifecycle, "_refresh_timer", None)
    if counts is not None and counts.isActive():
        return True
    widgets = [window.summary, *window.comparison_docks.panel.panels()]
    for widget in widgets:
        if not widget.isVisible():
            continue
        timer = getattr(widget, "_timer", None)
        if timer is not None and timer.isActive():
            return True
        if getattr(widget, "computing", False):
            return True
    job = getattr(window.summary, "job", None)
    return bool(job is not None and job.running)


#: With --gil (--stalls), the probe (sampler) that keeps running over the sorts and filters:
#: timed() reports each step's holds of the interpreter (its gaps over 80 ms).
STEPS_GIL: list[GilProbe] = []
STEPS_SAMPLER: list[StallSampler] = []


def timed(app: QApplication, label: str, func, proxy=None, window=None) -> float:
    """Time ``func`` plus the events it leaves (repaints) and, with ``proxy``, until its worker's
    result is applied; with ``window``, also until the charts shown have drawn the new rows.
    Prints the times and the GUI thread's longest event-loop gap over the whole."""
    app.processEvents()  # nothing left over from before
    probe = LatencyProbe()
    probe.start()
    start = time.perf_counter()
    func()
    call = time.perf_counter()
    if proxy is not None:
        wait(app, lambda: not proxy.pending(), 600)
    app.processEvents()
    end = time.perf_counter()
    charts = end
    if window is not None:
        wait(app, lambda: not charts_busy(window), 600)
        app.processEvents()
        charts = time.perf_counter()
    probe.stop()
    gap = max([*probe.gaps[1:], (call - start) * 1000])
    elapsed = (end - start) * 1000
    drawn = "" if window is None else f"; charts drawn by {(charts - start) * 1000:.0f}"
    print(
        f"  {label:<52} {elapsed:8.1f} ms"
        f"  (call {(call - start) * 1000:.0f} + until shown {(end - call) * 1000:.0f};"
        f" longest GUI gap {gap:.0f}{drawn})"
    )
    for gil in STEPS_GIL:
        gil.report((start - gil._t0) * 1000, (charts - gil._t0) * 1000, count=3)
    for sampler in STEPS_SAMPLER:
        pairs = zip(probe.gaps[1:], probe.times[1:], strict=True)
        long = [(g, (start + t / 1000 - sampler._t0) * 1000) for g, t in pairs if g > 80]
        sampler.report(sorted(long, reverse=True)[:2])
    return elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=100_000)
    parser.add_argument("--systems", type=int, default=3)
    parser.add_argument(
        "--window", default="1400x900", help="window size WxH (a big screen: 2560x1400)"
    )
    parser.add_argument(
        "--long-rows",
        type=int,
        default=0,
        help="hostile input: the first N rows get lines of ~34,000 characters",
    )
    parser.add_argument(
        "--open-only",
        action="store_true",
        help="stop once the first scored rows show (the read and its event-loop gaps only)",
    )
    parser.add_argument(
        "--cancel-scoring",
        action="store_true",
        help="cancel scoring once the first rows show (time sorts and filters sooner at 1M)",
    )
    parser.add_argument(
        "--score-rows",
        type=int,
        default=0,
        metavar="N",
        help="cancel scoring once N rows are scored (the charts then have N rows to show)",
    )
    parser.add_argument(
        "--stalls",
        action="store_true",
        help="sample every thread's stack (a thread of the bench) and say, for the longest "
        "event-loop gaps after the read and in each sort and filter, where the GUI thread was "
        "and what the others ran",
    )
    parser.add_argument(
        "--gil",
        action="store_true",
        help="time every wait of a probe thread for the interpreter, and name the thread (and "
        "its place) that held it over 4 ms, per phase and per timed step (a thread of the "
        "bench)",
    )
    parser.add_argument(
        "--profile",
        metavar="FILE",
        help="cProfile the GUI thread over the sorts and filters into FILE (pstats format), "
        "over showing the comparison (or its first rows) into FILE.show, and over appending "
        "the rest of the rows into FILE.rest",
    )
    parser.add_argument(
        "--profile-gui",
        metavar="FILE",
        help="cProfile the GUI thread's CPU time (time.thread_time: what the machine's load does "
        "not change) from the open until every file is read into FILE.read, then until the "
        "search caches are built into FILE.after",
    )
    parser.add_argument(
        "--turns",
        action="store_true",
        help="name, for every event-loop turn of the GUI thread over 40 ms of its CPU from the "
        "open until the search caches are built, the callbacks that used it (a profile hook: "
        "slows the GUI thread's Python code; not with --profile-gui)",
    )
    parser.add_argument(
        "--until-indexed",
        action="store_true",
        help="stop once the warm-up's indexes are built (the gaps of the read, of scoring and "
        "of the warm-up only; no paging, sorts or filters)",
    )
    parser.add_argument(
        "--no-index",
        action="store_true",
        help="the warm-up builds no n-gram index (by default the filters wait for it)",
    )
    args = parser.parse_args()
    if args.turns and args.profile_gui:
        parser.error("--turns and --profile-gui both hook the GUI thread's profiler")

    from matchlight.gui.dialogs.opendialog import ComparisonSpecs
    from matchlight.gui.shell.app import ensure_application
    from matchlight.gui.shell.mainwindow import MainWindow

    app = ensure_application()
    with tempfile.TemporaryDirectory() as tmp:
        files = write_corpus(Path(tmp), args.rows, args.systems, args.long_rows)
        print(
            f"{args.rows} segments x {args.systems} systems, 2 references, from {DATA}, "
            f"window {args.window}"
        )
        window = MainWindow()
        width, height = (int(v) for v in args.window.lower().split("x"))
        window.resize(width, height)
        if args.no_index:
            from matchlight.gui.table import selectionworker

            selectionworker.INDEX_ROWS = 2**62  # read by each proxy's worker as it is made
        window.show()
        app.processEvents()

        specs = ComparisonSpecs(
            source=parse_spec(str(files["src"][0])),
            references=tuple(parse_spec(str(p)) for p in files["ref"]),
            systems=tuple(parse_spec(str(p)) for p in files["sys"]),
        )
        start = time.perf_counter()
        load_comparison(
            source=specs.source, references=list(specs.references), systems=list(specs.systems)
        )
        read_s = time.perf_counter() - start
        print(
            f"  reading the files (core.io.inputs, for reference){'':<10} {read_s * 1000:8.1f} ms"
        )

        # The way the app opens files: read in a worker thread (the window keeps running),
        # then shown and scored. The probe runs from the start.
        probe = LatencyProbe()
        probe.start()
        sampler = StallSampler() if args.stalls else None
        if sampler is not None:
            sampler.start(time.perf_counter())
        gil = GilProbe() if args.gil else None
        if gil is not None:
            gil.start(time.perf_counter() - probe.elapsed() / 1000)
        frames_dropper = QTimer()
        frames_dropper.setInterval(50)
        frames_dropper.timeout.connect(drop_frames)
        if sampler is not None or gil is not None:
            frames_dropper.start()
        collections = CollectionLog(probe)
        wait(app, lambda: len(probe.times) > 10, 10)  # ticking before the open starts
        if args.turns:
            probe.turns = TurnLog((wait,))
            probe.turns.start()
        start = time.perf_counter()
        read_start = probe.elapsed()
        read_end_box: list[float] = []
        first_box: list[float] = []
        lifecycle = window.lifecycle
        args_ = args
        original_set_comparison = lifecycle.set_comparison

        def set_comparison(*args, **kwargs) -> None:
            first_box.append(probe.elapsed())
            if not args_.profile:
                original_set_comparison(*args, **kwargs)
                return
            showing = cProfile.Profile()  # the GUI thread showing the comparison
            showing.runcall(original_set_comparison, *args, **kwargs)
            showing.dump_stats(f"{args_.profile}.show")

        lifecycle.set_comparison = set_comparison  # type: ignore[method-assign]
        original_show_rest = getattr(lifecycle, "_show_rest", None)

        def show_rest(*args, **kwargs) -> None:
            appending = cProfile.Profile()  # the GUI thread appending the rest of the rows
            appending.runcall(original_show_rest, *args, **kwargs)
            appending.dump_stats(f"{args_.profile}.rest")

        if args.profile and original_show_rest is not None:
            lifecycle._show_rest = show_rest  # type: ignore[method-assign]
        lifecycle.reading_changed.connect(
            lambda reading: None if reading else read_end_box.append(probe.elapsed())
        )
        gui_cpu = cProfile.Profile(time.thread_time) if args.profile_gui else None
        if gui_cpu is not None:
            gui_cpu.enable()
        assert window.open_specs(specs)
        wait(app, lambda: bool(first_box), 120)  # the first rows (or all) are handed over
        print(f"  open -> first rows in the table{'':<21} {first_box[0] - read_start:8.1f} ms")
        scored_box: list[float] = []

        def scored() -> bool:
            table = window.controller.table
            if not scored_box and table is not None and table.n_done > 0:
                scored_box.append(probe.elapsed())
            return bool(scored_box)

        wait(app, lambda: scored() and bool(read_end_box), 600)  # every file is read
        read_end = read_end_box[0]
        if gui_cpu is not None:
            gui_cpu.disable()
            gui_cpu.dump_stats(f"{args.profile_gui}.read")
            gui_cpu = cProfile.Profile(time.thread_time)
            gui_cpu.enable()
        print(
            f"  open -> first scored rows in the table{'':<14} {scored_box[0] - read_start:8.1f} ms"
        )
        print(f"  open -> every file read (rows appended){'':<13} {read_end - read_start:8.1f} ms")
        if args.open_only:
            probe.stop()
            pairs = [
                (g, t)
                for g, t in zip(probe.gaps[1:], probe.times[1:], strict=True)
                if read_start < t <= read_end
            ]
            gaps = np.array([g for g, _ in pairs]) if pairs else np.array([0.0])
            print(f"  GUI event-loop gap while reading the files: max {gaps.max():.1f} ms")
            rss_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
            print(f"  peak resident memory so far{'':<24} {rss_mb:8.0f} MB")
            window.controller.cancel()
            os._exit(0)  # the scoring workers are not waited for

        if args.score_rows:
            wait(app, lambda: window.controller.table.n_done >= args.score_rows, 3600)
        if args.cancel_scoring or args.score_rows:
            window.controller.cancel()
            wait(app, lambda: not window.controller.running, 600)
            print("  scoring cancelled: the sorts and filters below see")
            print(
                f"  partly scored rows (--cancel-scoring): "
                f"{window.controller.table.n_done:,} scored"
            )
        wait(app, lambda: not window.controller.running, 3600)
        total = time.perf_counter() - start
        scored_end = probe.elapsed()
        print(f"  open, read and score everything{'':<21} {total:8.1f} s")
        ready = wait(app, window.proxy.search_ready, 1200)
        if gui_cpu is not None:
            gui_cpu.disable()
            gui_cpu.dump_stats(f"{args.profile_gui}.after")
        print(f"  then search caches ready (built by a worker) after{'':<2} {ready * 1000:8.1f} ms")
        search_columns = window.proxy._core().session.search_columns.values()
        if window.proxy._worker.index_rows <= args.rows:
            indexed = wait(app, lambda: all(c.has_index() for c in search_columns), 1200)
            print(f"  then n-gram indexes built (by the warm-up) after {indexed * 1000:8.1f} ms")
        built = sum(c.has_index() for c in search_columns)
        print(f"  n-gram indexes when the filters run: {built} of {len(search_columns)} columns")
        probe.stop()
        if probe.turns is not None:
            probe.turns.stop()
        for label, low, high in (
            ("while reading the files", read_start, read_end),
            ("from the read to scored", read_end, scored_end),
            ("then until the search caches are built", scored_end, float("inf")),
        ):
            pairs = [(g, t) for g, t in zip(probe.gaps[1:], probe.times[1:]) if low < t <= high]
            gaps = np.array([g for g, _ in pairs]) if pairs else np.array([0.0])
            cpu = sorted(
                ((c, t) for c, t in zip(probe.cpu[1:], probe.times[1:]) if low < t <= high),
                reverse=True,
            )
            print(
                f"  GUI event-loop gap {label}: max {gaps.max():.1f} ms, "
                f"p99 {np.percentile(gaps, 99):.1f} ms, median {np.median(gaps):.1f} ms "
                f"over {len(gaps)} ticks"
            )
            worst = sorted(pairs, reverse=True)[:5]
            print("    longest gaps (ms, ending at ms after the open started):", end="")
            print(", ".join(f" {g:.0f} @ {t - read_start:.0f}" for g, t in worst))
            print(
                f"    GUI thread's own CPU per turn: max {cpu[0][0] if cpu else 0:.0f} ms; "
                f"turns over 40 ms: {sum(c > 40 for c, _ in cpu)}, over 100 ms: "
                f"{sum(c > 100 for c, _ in cpu)}; longest:"
                + ", ".join(f" {c:.0f} @ {t - read_start:.0f}" for c, t in cpu[:6])
            )
            if probe.turns is not None:
                probe.turns.report(low, high, read_start)
            if gil is not None:
                gil.report(low, high)
            if sampler is not None:
                over = [(g, t) for g, t in pairs if g > 50]
                print(f"    GUI thread in the gaps over 50 ms: {sampler.split(over)}")
                sampler.report([(g, t) for g, t in worst if g > 100])
        if sampler is not None:
            STEPS_SAMPLER[:] = [sampler]  # kept running: timed() reports each step's long gaps
        if gil is not None:
            STEPS_GIL[:] = [gil]  # kept running: timed() reports each step's holds
        collections.report(read_start)
        if args.until_indexed:
            rss_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
            print(f"  peak resident memory so far{'':<24} {rss_mb:8.0f} MB")
            window.controller.cancel()
            os._exit(0)  # the workers are not waited for
        view = window.table_view
        # Paging down through rows never seen (their highlights computed as they show), one
        # page every 50 ms, with the latency probe running.
        bar = view.verticalScrollBar()
        probe = LatencyProbe()
        pages = {"left": 40}

        def page_down() -> None:
            bar.setValue(bar.value() + bar.pageStep())
            pages["left"] -= 1

        pager = QTimer()
        pager.setInterval(50)
        pager.timeout.connect(page_down)
        probe.start()
        wait(app, lambda: len(probe.times) > 5, 10)
        pager.start()
        wait(app, lambda: pages["left"] <= 0, 60)
        pager.stop()
        wait(app, lambda: not window.detail_cache.pending(), 30)
        probe.stop()
        gaps = np.array(probe.gaps[1:])
        print(
            f"  paging down 40 pages (every 50 ms): event-loop gap max {gaps.max():.1f} ms, "
            f"p99 {np.percentile(gaps, 99):.1f} ms, median {np.median(gaps):.1f} ms"
        )
        bar.setValue(0)
        timed(app, "repaint the visible table (details cached)", view.viewport().repaint)
        window.delegate._docs.clear()
        timed(app, "repaint the visible table (documents rebuilt)", view.viewport().repaint)
        proxy = window.proxy
        model = window.model
        profiler = cProfile.Profile() if args.profile else None
        if profiler is not None:
            profiler.enable()
        bleu_col = model.score_column(0, "bleu")
        text_col = model.hypothesis_column(0)
        timed(
            app,
            "sort by system 1 BLEU (descending)",
            lambda: proxy.sort(bleu_col, Qt.SortOrder.DescendingOrder),
            proxy,
            window,
        )
        timed(
            app,
            "sort by system 1 text",
            lambda: proxy.sort(text_col, Qt.SortOrder.AscendingOrder),
            proxy,
            window,
        )
        timed(
            app,
            "sort by system 1 text again (descending)",
            lambda: proxy.sort(text_col, Qt.SortOrder.DescendingOrder),
            proxy,
            window,
        )
        timed(app, "sort by segment", lambda: proxy.sort(-1), proxy, window)
        timed(
            app,
            "filter: text 'the' in any column",
            lambda: proxy.set_text_filter("the", None, False, False),
            proxy,
            window,
        )
        timed(
            app,
            "filter: text 'zebra' in any column (no row)",
            lambda: proxy.set_text_filter("zebra", None, False, False),
            proxy,
            window,
        )
        timed(
            app,
            "filter: regex '\\b(19|20)\\d\\d\\b'",
            lambda: proxy.set_text_filter(r"\b(19|20)\d\d\b", None, True, False),
            proxy,
            window,
        )
        proxy.set_text_filter("", None, False, False)
        timed(
            app,
            "filter: BLEU of system 1 in [20, 60]",
            lambda: proxy.set_score_range("bleu", 0, 20.0, 60.0),
            proxy,
            window,
        )
        timed(
            app,
            "filter: system 1 - system 2 BLEU >= 10",
            lambda: proxy.set_delta_filter(0, 1, "bleu", 10.0),
            proxy,
            window,
        )
        timed(app, "clear filters", proxy.clear_filters, proxy, window)
        if profiler is not None:
            profiler.disable()
            profiler.dump_stats(args.profile)
            pstats.Stats(args.profile).sort_stats("cumulative").print_stats(25)
        # Walking down the rows as the arrow key does: the selection moves, the detail pane
        # shows the new row (sections, highlights, breakdowns of every system).
        steps = []
        for row in range(1, 21):
            app.processEvents()
            start = time.perf_counter()
            view.setCurrentIndex(proxy.index(row, text_col))
            app.processEvents()
            steps.append((time.perf_counter() - start) * 1000)
        assert window.detail_pane.detail() is not None
        print(
            f"  next row, detail pane included (20 rows){'':<11} {np.median(steps):8.1f} ms"
            f"  (median; max {max(steps):.0f})"
        )
        rss_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        print(f"  peak resident memory{'':<31} {rss_mb:8.0f} MB")
        window.close()
        app.processEvents()


if __name__ == "__main__":
    main()
