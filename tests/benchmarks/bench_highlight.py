"""Cost of painting highlights in the table and showing a row in the detail pane, measured.

    QT_QPA_PLATFORM=offscreen python tests/benchmarks/bench_highlight.py [--rows 400]
        [--window 1500x900] [--repeat 15] [--metrics bleu,rouge,nltk_bleu]

Real WMT22 de-en rows from ../shared/data (two references, three systems), every row's detail
computed first. Each timing is the fastest of --repeat runs, taken in turns with a reference
measured in the same run on the same view and texts, so that the ratios mean something on a
busy machine:

* table: a full paint of the viewport by the highlight delegate, (a) building every cell's
  document ("cold", as after a mode change) and (b) with every document cached ("warm", as a
  repaint); the reference is the same view painted by a plain ``QStyledItemDelegate``;
* detail pane: showing a row (texts, highlights, breakdown blocks) and hovering each character
  of an output; the reference for showing a row is putting the same texts into plain
  ``QTextEdit`` views.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from PySide6.QtWidgets import (  # noqa: E402
    QApplication,
    QHeaderView,
    QStyledItemDelegate,
    QTextEdit,
    QVBoxLayout,
    QWidget,
)

from matchlight.core.scoring.config import ScoringConfig  # noqa: E402
from matchlight.core.scoring.detail import RowDetailer  # noqa: E402
from matchlight.core.text.corpus import corpus_text_from_lines  # noqa: E402
from matchlight.gui.detail.detailpane import DetailPane  # noqa: E402
from matchlight.gui.highlight.detailcache import DetailCache  # noqa: E402
from matchlight.gui.table.delegate import HighlightDelegate  # noqa: E402
from matchlight.gui.table.tableview import SegmentTableView  # noqa: E402
from tests.benchmarks.benchkit import DE_EN, read_lines  # noqa: E402
from tests.gui.rolemodel import TextModel  # noqa: E402

DATA = DE_EN
SYSTEMS = ("JDExploreAcademy", "Lan-Bridge", "Online-W")


def fastest_ms(funcs: list[Callable[[], object]], repeat: int) -> list[float]:
    """The fastest run of each function, in ms, the functions taken in turns."""
    best = [float("inf")] * len(funcs)
    for _ in range(repeat):
        for i, func in enumerate(funcs):
            start = time.perf_counter()
            func()
            best[i] = min(best[i], (time.perf_counter() - start) * 1000)
    return best


def read(name: str, rows: int) -> list[str]:
    return read_lines(DATA / name)[:rows]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rows", type=int, default=400)
    parser.add_argument("--window", default="1500x900")
    parser.add_argument("--repeat", type=int, default=15)
    parser.add_argument("--metrics", default="bleu,rouge,nltk_bleu")
    args = parser.parse_args()
    width, height = (int(x) for x in args.window.split("x"))
    app = QApplication.instance() or QApplication([])

    text = corpus_text_from_lines(
        references=[read("ref.txt", args.rows), read("ref2.txt", args.rows)],
        systems=[read(f"sys.{name}.txt", args.rows) for name in SYSTEMS],
        names=list(SYSTEMS),
    )
    source = read("src.txt", args.rows)
    config = ScoringConfig().with_metrics(args.metrics)
    detailer = RowDetailer(config)

    def detail(segment: int):
        return detailer.row(
            segment=segment,
            source=source[segment],
            references=[r[segment] for r in text.references],
            systems=[(n, s[segment]) for n, s in zip(text.system_names, text.systems, strict=True)],
        )

    start = time.perf_counter()
    ready = {segment: detail(segment) for segment in range(min(args.rows, 60))}
    per_row = (time.perf_counter() - start) * 1000 / len(ready)
    print(f"{len(text)} rows, {len(SYSTEMS)} systems, 2 references; metrics {config.metrics}")
    print(f"core: row detail {per_row:.2f} ms per row (for reference; not the GUI's)")

    # -- the table ---------------------------------------------------------------------------
    model = TextModel(text, source)
    view = SegmentTableView()
    view.setModel(model)
    view.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
    view.verticalHeader().setDefaultSectionSize(44)
    view.resize(width, height)
    for col in range(model.columnCount()):
        view.setColumnWidth(col, 36 if col == 0 else 260)
    view.show()
    app.processEvents()
    cells = sum(
        1
        for row in range(view.rowAt(0), view.rowAt(view.viewport().height() - 1) + 1)
        for col in range(model.columnCount())
        if view.columnViewportPosition(col) < view.viewport().width()
    )
    plain = QStyledItemDelegate(view)
    cache = DetailCache(text, source, config, ready=ready)
    delegate = HighlightDelegate(cache, view)

    def reference_paint() -> None:
        view.setItemDelegate(plain)
        view.viewport().grab()
        view.setItemDelegate(delegate)

    def cold() -> None:
        delegate.set_dark(False)  # drops every document
        with delegate.unbounded():
            view.viewport().grab()

    def warm() -> None:
        with delegate.unbounded():
            view.viewport().grab()

    view.setItemDelegate(delegate)
    rows = []
    for mode in delegate.modes():
        delegate.set_mode(mode.key)
        warm()
        reference, cold_ms, warm_ms = fastest_ms([reference_paint, cold, warm], args.repeat)
        rows.append((mode.key, reference, cold_ms, warm_ms))
    print(f"\ntable {width}x{height}, {cells} cells on screen; a full paint, against the same")
    print("view painted by a plain QStyledItemDelegate (no highlights):")
    for key, reference, cold_ms, warm_ms in rows:
        print(
            f"  {key:<6} plain {reference:6.2f} ms   cold {cold_ms:7.2f} ms "
            f"({cold_ms / reference:4.1f}x)   warm {warm_ms:6.2f} ms ({warm_ms / reference:4.1f}x)"
        )
    cache.shutdown()

    # -- the detail pane ---------------------------------------------------------------------
    pane = DetailPane()
    pane.resize(900, 1200)
    pane.set_config(config)
    pane.show()
    segments = list(ready)[:20]
    turn = iter(range(10**9))

    def show_row() -> None:
        pane.show_row(ready[segments[next(turn) % len(segments)]])
        app.processEvents()

    holder = QWidget()
    layout = QVBoxLayout(holder)
    edits = [QTextEdit() for _ in range(1 + 2 + len(SYSTEMS))]
    for edit in edits:
        layout.addWidget(edit)
    holder.resize(900, 1200)
    holder.show()

    def plain_texts() -> None:
        d = ready[segments[next(turn) % len(segments)]]
        for edit, line in zip(edits, (d.source or "", *d.references, *d.outputs), strict=True):
            edit.setPlainText(line)
        app.processEvents()

    plain_ms, show_ms = fastest_ms([plain_texts, show_row], args.repeat * 2)
    pane.show_row(ready[segments[0]])
    output = ready[segments[0]].outputs[0]
    start = time.perf_counter()
    for index in range(len(output)):
        pane.hover_at(0, index)
    hover_ms = (time.perf_counter() - start) * 1000 / max(1, len(output))
    print("\ndetail pane 900x1200, one row (source, 2 references, 3 outputs with breakdowns):")
    print(f"  plain QTextEdits   {plain_ms:7.2f} ms")
    print(f"  show_row           {show_ms:7.2f} ms ({show_ms / plain_ms:4.1f}x)")
    print(f"  hover a character  {hover_ms:7.3f} ms (mode {pane.mode()})")


if __name__ == "__main__":
    main()
