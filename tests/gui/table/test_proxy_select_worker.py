"""Over many rows (``select_rows``, lowered here) every edit of the selection is computed in a
worker: a score filter or sort too, whose parts are always ready. The table keeps its rows
until the worker's rows are applied in one step; rows selected on scores that changed
meanwhile are never applied; the rows equal numpy's reading of the filter on the bundled
sample's real scores."""

from __future__ import annotations

import threading
from typing import Any

import numpy as np
import pytest
from PySide6.QtCore import Qt

from matchlight.core.analysis.selection import select as core_select
from matchlight.core.scoring.engine import iter_score_chunks
from matchlight.core.scoring.results import ScoreTable
from matchlight.core.session.comparison import ComparisonSession
from matchlight.gui.state.session import SessionModel
from matchlight.gui.table import selectionworker
from matchlight.gui.table.model import SegmentTableModel
from matchlight.gui.table.proxy import SegmentFilterProxy

WAIT_MS = 30_000


def make_proxy(data: Any, table: ScoreTable | None = None) -> SegmentFilterProxy:
    core = ComparisonSession(
        data.text,
        config=data.config,
        source=data.source,
        reference_names=data.reference_names,
        table=data.table if table is None else table,
    )
    proxy = SegmentFilterProxy()
    proxy.setSourceModel(SegmentTableModel(SessionModel(core)))
    proxy.select_rows = 0  # every selection in the worker, however few the rows
    return proxy


class Selects:
    """Records the threads ``select`` runs in, and can hold it until released."""

    def __init__(self, monkeypatch, *, hold: bool = False) -> None:
        self.threads: list[threading.Thread] = []
        self.release = threading.Event()
        if not hold:
            self.release.set()
        monkeypatch.setattr(selectionworker, "select", self._select)

    def _select(self, selection, data):
        self.threads.append(threading.current_thread())
        self.release.wait(WAIT_MS / 1000)
        return core_select(selection, data)


def test_a_score_range_is_selected_in_a_worker_and_applied_in_one_step(
    qtbot, sample, monkeypatch
) -> None:
    selects = Selects(monkeypatch)
    proxy = make_proxy(sample)
    changes: list[int] = []
    proxy.filter_changed.connect(lambda: changes.append(proxy.rowCount()))
    n = len(sample.text)
    proxy.set_score_range("bleu", 1, 20.0, 60.0)
    assert proxy.pending()
    assert proxy.visible_segments().tolist() == list(range(n))  # not yet
    qtbot.waitUntil(lambda: not proxy.pending(), timeout=WAIT_MS)
    bleu = sample.table.column("bleu", 1)
    want = np.flatnonzero((bleu >= 20.0) & (bleu <= 60.0)).tolist()
    assert proxy.visible_segments().tolist() == want
    assert changes == [len(want)]  # one step
    assert selects.threads and threading.main_thread() not in selects.threads


def test_a_score_sort_and_a_delta_filter_are_selected_together_in_a_worker(
    qtbot, sample, monkeypatch
) -> None:
    selects = Selects(monkeypatch)
    proxy = make_proxy(sample)
    model = proxy.source_model()
    proxy.sort(model.score_column(1, "bleu"), Qt.SortOrder.DescendingOrder)
    proxy.set_delta_filter(0, 2, "bleu", 5.0)
    assert proxy.pending("sort") and proxy.pending("delta")
    qtbot.waitUntil(lambda: not proxy.pending(), timeout=WAIT_MS)
    table = sample.table
    rows = np.flatnonzero(table.column("bleu", 0) - table.column("bleu", 2) >= 5.0)
    want = rows[np.argsort(-table.column("bleu", 1)[rows], kind="stable")]
    np.testing.assert_array_equal(proxy.visible_segments(), want)
    assert proxy.delta_filter() is not None and proxy.delta_filter().at_least == 5.0
    assert threading.main_thread() not in selects.threads

    proxy.clear_filters()  # over many rows: a worker too; the sort stays
    assert proxy.pending()
    qtbot.waitUntil(lambda: not proxy.pending(), timeout=WAIT_MS)
    want = np.argsort(-table.column("bleu", 1), kind="stable")
    np.testing.assert_array_equal(proxy.visible_segments(), want)
    assert proxy.delta_filter() is None


def test_rows_selected_on_scores_that_changed_meanwhile_are_selected_again(
    qtbot, sample, monkeypatch
) -> None:
    """Scores arrive while the worker selects: its rows are stale, the next round's are not."""
    selects = Selects(monkeypatch, hold=True)
    table = ScoreTable(
        systems=sample.text.system_names,
        n_segments=len(sample.text),
        config=sample.config,
        nrefs=len(sample.text.references),
    )
    chunks = list(iter_score_chunks(sample.text, sample.config, chunk_size=80, first_chunk_size=80))
    proxy = make_proxy(sample, table)
    session = proxy.source_model().session
    session.apply_chunk(chunks[0])
    proxy.set_score_range("bleu", 0, 30.0, None)
    qtbot.waitUntil(lambda: len(selects.threads) == 1, timeout=WAIT_MS)
    for chunk in chunks[1:]:
        session.apply_chunk(chunk)  # the worker's rows are now out of date
    selects.release.set()
    qtbot.waitUntil(lambda: not proxy.pending(), timeout=WAIT_MS)
    assert len(selects.threads) >= 2
    bleu = table.column("bleu", 0)
    assert proxy.visible_segments().tolist() == np.flatnonzero(bleu >= 30.0).tolist()
    assert (
        proxy.visible_segments().tolist()
        != np.flatnonzero(
            np.where(np.arange(len(bleu)) < chunks[0].stop, bleu, np.nan) >= 30.0
        ).tolist()
    )


def test_a_newer_edit_replaces_the_one_selected_meanwhile(qtbot, sample, monkeypatch) -> None:
    selects = Selects(monkeypatch, hold=True)
    proxy = make_proxy(sample)
    changes: list[int] = []
    proxy.filter_changed.connect(lambda: changes.append(proxy.rowCount()))
    proxy.set_score_range("bleu", 0, 10.0, 90.0)
    qtbot.waitUntil(lambda: len(selects.threads) == 1, timeout=WAIT_MS)
    proxy.set_score_range("bleu", 0, 50.0, None)  # the same range, moved: replaces the first
    selects.release.set()
    qtbot.waitUntil(lambda: not proxy.pending(), timeout=WAIT_MS)
    bleu = sample.table.column("bleu", 0)
    want = np.flatnonzero(bleu >= 50.0).tolist()
    assert proxy.visible_segments().tolist() == want
    assert changes == [len(want)]  # the first range never showed
    assert proxy.score_ranges() == {("bleu", 0): (50.0, None)}


def test_below_select_rows_a_score_range_applies_at_once(qtbot, sample, monkeypatch) -> None:
    selects = Selects(monkeypatch)
    proxy = make_proxy(sample)
    proxy.select_rows = len(sample.text) + 1
    proxy.set_score_range("bleu", 0, 50.0, None)
    assert not proxy.pending()
    bleu = sample.table.column("bleu", 0)
    assert proxy.visible_segments().tolist() == np.flatnonzero(bleu >= 50.0).tolist()
    assert selects.threads == []  # the session selected, in this thread


def test_scores_of_every_row_changing_repaint_every_proxy_row(qtbot, sample) -> None:
    proxy = make_proxy(sample)
    proxy.select_rows = len(sample.text) + 1
    proxy.set_score_range("bleu", 0, 40.0, None)
    model = proxy.source_model()
    spans: list[tuple[int, int]] = []
    proxy.dataChanged.connect(lambda a, b, _roles: spans.append((a.row(), b.row())))
    model.on_chunk_applied(0, len(sample.text))
    assert spans and set(spans) == {(0, proxy.rowCount() - 1)}


def test_a_cells_flags_are_the_models_without_mapping_the_cell(sample, monkeypatch) -> None:
    """A paint asks every visible cell for its flags: the proxy answers the model's own (Qt's,
    the same for every cell) without mapping the cell to the model first."""
    proxy = make_proxy(sample)
    proxy.select_rows = len(sample.text) + 1
    proxy.sort(proxy.source_model().score_column(0, "bleu"), Qt.SortOrder.DescendingOrder)
    proxy.set_score_range("bleu", 0, 30.0, None)
    model = proxy.source_model()
    want = [
        model.flags(proxy.mapToSource(proxy.index(r, c)))
        for r in range(proxy.rowCount())
        for c in range(proxy.columnCount())
    ]
    mapped: list[int] = []
    real = proxy.mapToSource
    monkeypatch.setattr(proxy, "mapToSource", lambda index: mapped.append(1) or real(index))
    got = [
        proxy.flags(proxy.index(r, c))
        for r in range(proxy.rowCount())
        for c in range(proxy.columnCount())
    ]
    assert got == want and len(set(got)) == 1
    assert mapped == []
    assert proxy.flags(proxy.index(proxy.rowCount(), 0)) == Qt.ItemFlag.NoItemFlags


def test_the_filter_bars_own_edit_computed_by_a_worker_moves_no_widget(
    qtbot, sample, monkeypatch
) -> None:
    """Once the worker's rows of the bar's own score range are applied, the bar's widgets
    already say it: they are not matched to the selection again (each match fits the boxes'
    scales to a column of a million values), only the chips are brought up to date."""
    from PySide6.QtWidgets import QVBoxLayout, QWidget

    from matchlight.gui.table.filterbar import FilterBar

    proxy = make_proxy(sample)
    host = QWidget()
    qtbot.addWidget(host)
    bar = FilterBar()
    QVBoxLayout(host).addWidget(bar)
    model = proxy.source_model()
    bar.set_proxy(
        proxy,
        text_columns=[
            (str(model.headerData(c, Qt.Orientation.Horizontal)), c) for c in model.text_columns()
        ],
        systems=sample.text.system_names,
        metrics=model.table.columns,
    )
    host.show()
    synced: list[bool] = []
    real = bar._sync
    monkeypatch.setattr(
        bar, "_sync", lambda *, widgets: synced.append(widgets) or real(widgets=widgets)
    )
    bar.range_check.setChecked(True)
    bar.range_min_spin.setValue(40.0)
    bar.apply_score_range()
    assert proxy.pending()
    qtbot.waitUntil(lambda: not proxy.pending(), timeout=WAIT_MS)
    bleu = model.table.column(bar.range_metric_combo.currentData(), 0)
    assert proxy.visible_segments().tolist() == np.flatnonzero(bleu >= 40.0).tolist()
    assert True not in synced  # no widget was matched again
    assert bar.range_check.isChecked() and bar.range_min_spin.value() == 40.0
    # A selection the bar did not make (a restored session, say) still moves its widgets.
    proxy.clear_filters()
    qtbot.waitUntil(lambda: not proxy.pending(), timeout=WAIT_MS)
    assert True in synced and not bar.range_check.isChecked()


def test_a_selection_worker_is_work_the_user_waits_for(qtbot, sample, monkeypatch) -> None:
    """While a worker selects the rows the user waits for, background threads pause at their
    pause points (gui.workers.pacing.interactive_work)."""
    from matchlight.gui.workers import pacing as gui_pacing

    seen: list[bool] = []
    gate = gui_pacing.install_gui_first()
    if gate is None:
        pytest.skip("this system cannot tell what the GUI thread does")

    def select(selection, data):
        seen.append(threading.get_ident() in gate._interactive)
        return core_select(selection, data)

    monkeypatch.setattr(selectionworker, "select", select)
    proxy = make_proxy(sample)
    proxy.set_score_range("bleu", 1, 20.0, 60.0)
    qtbot.waitUntil(lambda: not proxy.pending(), timeout=WAIT_MS)
    assert seen == [True]
    assert not gate._interactive  # and no longer once it is done
