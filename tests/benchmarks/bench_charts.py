"""Speed of the comparison charts' updates at 100,000 segments, in an offscreen window.

    QT_QPA_PLATFORM=offscreen python tests/benchmarks/bench_charts.py [--rows 100000]
                                                                       [--systems 3] [--repeat 5]

Data: wmt22-de-en (1,984 rows, two references) scored once by the engine (BLEU, ROUGE) for the
first --systems systems, then every array repeated to --rows rows (texts too), the scores moved
by up to --jitter points so that the scatter has as many distinct points as segments, as a real
corpus would; nothing is scored in any timing. Each chart is shown at 1000x620 and each
update is timed from the call to the end of a synchronous repaint of the plot (what the user
waits for), median and worst of --repeat runs, wall clock and CPU:

  scatter   : a full redraw (new axes: points, drawn spots, overlay), an overlay update for a
              selection of about a third of the rows, the current-row ring, a click's nearest-
              segment lookup, and a dragged box becoming the selection (the session's selection
              re-applied too);
  histograms: a full redraw of both histograms, a brushed range becoming the selection (session
              and charts), and the other charts' rows with that brush left out;
  jobs      : the significance panel (paired bootstrap, every column) and "what separates"
              (tokenizing, n-grams, influence) in their background jobs: how long they take and
              the longest wait of the GUI thread's event loop meanwhile (a 5 ms timer).
Not a test: timings are never asserted.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402
from PySide6.QtCore import QPointF, QRectF  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402

from matchlight.core.analysis.selection import Selection, TextFilter  # noqa: E402
from matchlight.core.scoring.config import ScoringConfig  # noqa: E402
from matchlight.core.scoring.engine import empty_table, score_corpus  # noqa: E402
from matchlight.core.scoring.results import ScoreTable  # noqa: E402
from matchlight.core.session.comparison import ComparisonSession  # noqa: E402
from matchlight.core.text.corpus import CorpusText, corpus_text_from_lines  # noqa: E402
from matchlight.gui.charts.distributions import DistributionsPanel  # noqa: E402
from matchlight.gui.charts.jobs import BackgroundJob  # noqa: E402
from matchlight.gui.charts.link import ChartLink  # noqa: E402
from matchlight.gui.charts.scatter import ScatterPanel  # noqa: E402
from matchlight.gui.charts.separation import SeparationPanel  # noqa: E402
from matchlight.gui.charts.significance import SignificancePanel  # noqa: E402
from matchlight.gui.shell.qtfix import guard_none_refcount  # noqa: E402
from matchlight.gui.state.session import SessionModel  # noqa: E402
from tests.benchmarks.benchkit import DE_EN, read_lines  # noqa: E402

DATA = DE_EN
SYSTEMS = ("JDExploreAcademy", "LT22", "Lan-Bridge", "Online-W", "PROMT")


def repeated(rows: int, n_systems: int, jitter: float) -> tuple[CorpusText, ScoreTable]:
    """wmt22-de-en scored once, every array (and the texts) repeated to ``rows`` rows; the
    score columns moved by up to ``jitter`` points (clipped to 0-100) so that repeats are
    distinct points, as in a real corpus of that size."""
    names = SYSTEMS[:n_systems]
    refs = [read_lines(DATA / "ref.txt"), read_lines(DATA / "ref2.txt")]
    hyps = [read_lines(DATA / f"sys.{s}.txt") for s in names]
    small = corpus_text_from_lines(references=refs, systems=hyps, names=names)
    config = ScoringConfig(metrics=("bleu", "rouge"))
    scored = score_corpus(small, config, workers=2)
    n = len(small)
    take = np.arange(rows) % n
    text = corpus_text_from_lines(
        references=[[r[i] for i in take.tolist()] for r in refs],
        systems=[[h[i] for i in take.tolist()] for h in hyps],
        names=names,
    )
    table = empty_table(text, config)
    table.scores = np.ascontiguousarray(scored.scores[:, take])
    if jitter > 0:
        noise = np.random.default_rng(0).uniform(-jitter, jitter, table.scores.shape)
        score_columns = [i for i, c in enumerate(table.columns) if c.kind == "score"]
        moved = table.scores[:, :, score_columns] + noise[:, :, score_columns]
        table.scores[:, :, score_columns] = np.clip(moved, 0.0, 100.0)
    for metric, fields in scored.stats.items():
        for name, values in fields.items():
            table.stats[metric][name] = np.ascontiguousarray(values[:, take])
    for name, values in scored.row_flags.items():
        table.row_flags[name] = values[take].copy()
    table.done[:] = True
    return text, table


def timed(action: Callable[[], object], repaint: Callable[[], None], repeat: int) -> str:
    walls, cpus = [], []
    for _ in range(repeat):
        QApplication.processEvents()
        wall, cpu = time.perf_counter(), time.process_time()
        action()
        repaint()
        walls.append(time.perf_counter() - wall)
        cpus.append(time.process_time() - cpu)
    return (
        f"median {1000 * statistics.median(walls):7.1f} ms, worst {1000 * max(walls):7.1f} ms "
        f"(CPU median {1000 * statistics.median(cpus):7.1f} ms)"
    )


def loop_waits(app: QApplication, job: BackgroundJob, start: Callable[[], None]) -> str:
    """Run ``start`` (which starts ``job``) and report the job's time and the longest gap
    between ticks of a 5 ms timer in the GUI thread meanwhile."""
    from PySide6.QtCore import QTimer

    ticks: list[float] = []
    timer = QTimer()
    timer.setInterval(5)
    timer.timeout.connect(lambda: ticks.append(time.perf_counter()))
    timer.start()
    began = time.perf_counter()
    start()
    while job.running:
        app.processEvents()
        time.sleep(0.001)
    took = time.perf_counter() - began
    timer.stop()
    gaps = np.diff([began, *ticks]) if ticks else np.array([took])
    return f"{took:6.2f} s; event loop: longest wait {1000 * gaps.max():6.1f} ms"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rows", type=int, default=100_000)
    parser.add_argument("--systems", type=int, default=3)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument(
        "--jitter",
        type=float,
        default=0.5,
        help="move repeated scores by up to this many points (0: exact repeats)",
    )
    args = parser.parse_args()

    app = QApplication.instance() or QApplication([])
    guard_none_refcount()
    text, table = repeated(args.rows, args.systems, args.jitter)
    core = ComparisonSession(text, config=table.config, table=table)
    session = SessionModel(core)
    link = ChartLink()
    link.set_session(session)
    print(
        f"{args.rows:,} segments x {args.systems} systems (wmt22-de-en repeated, scores moved by "
        f"up to {args.jitter:g} points)"
    )

    scatter = ScatterPanel(link)
    scatter.resize(1000, 620)
    scatter.show()
    app.processEvents()
    scatter.refresh_now()
    viewport = scatter.graphics.viewport()
    repaint = viewport.repaint
    pairs = [(0, 1), (1, 2), (0, 2)] if args.systems >= 3 else [(0, 1), (1, 0)]
    state = {"i": 0}

    def new_axes() -> None:
        x, y = pairs[state["i"] % len(pairs)]
        state["i"] += 1
        scatter.x_combo.setCurrentIndex(x)
        scatter.y_combo.setCurrentIndex(y)
        scatter.refresh_now()

    print(f"scatter, full redraw of {args.rows:,} points: {timed(new_axes, repaint, args.repeat)}")
    print(f"  distinct spots drawn: {len(scatter.drawn):,}")
    third = Selection((TextFilter("the"),))

    def overlay() -> None:
        session.set_selection(third if not core.is_filtered() else Selection())
        scatter.refresh_now()

    print(f"scatter, selection overlay: {timed(overlay, repaint, args.repeat)}")
    session.set_selection(third)
    scatter.refresh_now()
    print(f"  marked rows: {len(scatter.marked_rows):,}")
    rows = iter(np.random.default_rng(0).integers(0, args.rows, 1000).tolist())
    print(
        "scatter, current-row ring: "
        f"{timed(lambda: scatter._draw_current(next(rows)), repaint, args.repeat)}"
    )
    points = iter(np.random.default_rng(1).uniform(0, 100, (1000, 2)).tolist())
    print(
        "scatter, nearest segment to a click: "
        f"{timed(lambda: scatter.nearest(QPointF(*next(points))), lambda: None, args.repeat)}"
    )
    session.set_selection(Selection())
    boxes = iter([QRectF(10 + i, 20, 30, 25) for i in range(100)])

    def box() -> None:
        scatter.select_box(next(boxes))
        scatter.refresh_now()

    print(f"scatter, dragged box becomes the selection: {timed(box, repaint, args.repeat)}")
    scatter.hide()
    link.clear_brush()

    histograms = DistributionsPanel(link)
    histograms.resize(1000, 620)
    histograms.show()
    app.processEvents()
    histograms.refresh_now()
    repaint = histograms.graphics.viewport().repaint
    keys = iter(["bleu", "rougeL_f", "rouge1_f", "bleu", "rouge2_f"] * 10)

    def redraw() -> None:
        histograms.metric_combo.setCurrentIndex(histograms.metric_combo.findData(next(keys)))
        histograms.refresh_now()

    print(f"histograms, full redraw (both): {timed(redraw, repaint, args.repeat)}")
    histograms.set_choices(metric="bleu")
    ranges = iter([(10.0 + i, 40.0 + i) for i in range(100)])

    def brush() -> None:
        histograms.select_score_range(*next(ranges))
        histograms.refresh_now()

    print(f"histograms, brushed range becomes the selection: {timed(brush, repaint, args.repeat)}")
    print(
        "  rows of a chart with its own brush left out: "
        f"{timed(lambda: link.population(histograms.score_plot), lambda: None, args.repeat)}"
    )
    session.set_selection(Selection((TextFilter("the"),)))
    histograms.select_score_range(20.0, 60.0)
    print(
        "  the same with a text filter in force too: "
        f"{timed(lambda: link.population(histograms.score_plot), lambda: None, args.repeat)}"
    )
    histograms.hide()
    session.set_selection(Selection())

    significance = SignificancePanel(link)
    significance.resize(1000, 620)
    significance.show()
    app.processEvents()
    significance.refresh_now()
    waits = loop_waits(app, significance.job, significance.run)
    print(f"significance, paired bootstrap (1,000 resamples), every column: {waits}")
    significance.hide()
    separation = SeparationPanel(link)
    separation.resize(1000, 620)
    separation.show()
    app.processEvents()
    waits = loop_waits(app, separation.job, separation.refresh_now)
    print(f"what separates (tokens, n-grams 1-4, influence), first run: {waits}")
    waits = loop_waits(app, separation.job, separation.refresh_now)
    print(f"  again, tokens kept: {waits}")
    # The panels here have no parent window: at exit Python deletes them in any order, and a
    # link still announcing would reach a panel whose plots are gone.
    link.blockSignals(True)


if __name__ == "__main__":
    main()
