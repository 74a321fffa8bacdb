"""The proxy's pending edits of the selection and the workers that compute them.

Over many rows (:data:`BACKGROUND_ROWS`) a search or a text sort is not computed in the GUI
thread: the user's latest edit of each kind (text filter, sort...) is kept pending, a worker
prepares the selection it makes (:func:`core.analysis.selection.prepare`: the text masks and
sort ranks, kept for the comparison's life) and, over :data:`SELECT_ROWS` rows, selects its rows
too (:func:`~core.analysis.selection.select`: mask and order); once it is done the selection is
set in one step, on top of whatever the selection has become meanwhile. A newer edit of the same
kind replaces the pending one and cancels its worker, whose result is never applied. The search
caches of a big comparison (and over :data:`RANK_ROWS` rows, then the systems' sort ranks) are
built by a worker of their own as soon as it is shown (:meth:`SelectionWorker.start_warm_up`;
over :data:`INDEX_ROWS` rows, then each column's index of its frequent n-grams, and building
the index or the ranks pauses while a selection worker runs). A selection worker is work the
user waits for (:func:`~gui.workers.pacing.interactive_work`): the other background threads (the
language check of a big comparison) pause meanwhile.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt
from PySide6.QtCore import QObject, Slot

from matchlight.core.analysis.selection import Selection, is_prepared, prepare, select
from matchlight.core.analysis.textsearch import SearchCancelled, SearchColumn
from matchlight.core.pacing import pause
from matchlight.gui.state.session import SessionModel
from matchlight.gui.workers.controller import hold_collection_while
from matchlight.gui.workers.loader import BackgroundCall
from matchlight.gui.workers.pacing import interactive_work

__all__ = ["BACKGROUND_ROWS", "INDEX_ROWS", "RANK_ROWS", "SELECT_ROWS", "Edit", "SelectionWorker"]

# From this many rows on, a selection whose text masks or sort ranks are not ready yet is
# prepared in a worker thread (below it, searching every text column takes milliseconds).
BACKGROUND_ROWS = 20_000
# From this many rows on, every edit of the selection (a score filter or sort too, whose parts
# are always ready) is computed in a worker thread: its mask and order, which over a million
# rows cost a few tens of milliseconds of numpy, and a sort's ``argsort`` more.
SELECT_ROWS = 200_000
# From this many rows on, the warm-up also builds each text column's index of its frequent
# n-grams (:mod:`core.analysis.textindex`: 32 bytes a row), with which a filter by a substring
# found in most rows skips the rows the index rules out. (At 100k rows, 'the' over six columns
# took 0.9-1.0 s without one and 0.2-0.3 s with it, bench_gui.py --rows 100000; an index of
# 100k rows costs 3 MB and a fraction of a second a column.)
INDEX_ROWS = 50_000
# From this many rows on, the warm-up also builds the systems' sort ranks (after the indexes;
# pausing while a selection worker runs), so that a first sort by a system's text is an
# argsort. It was off while ranking a column held the interpreter in long Python sorts of the
# rows tied on their first bytes (the window froze for up to 0.9 s at a million rows); those
# ties are sorted with numpy now and each repeated text is ranked once: at 1M rows of
# bench_gui.py, the first text sort took 351-616 ms with the ranks built by it (its worker's
# CPU 267 ms, 185 of them _first_equal's dictionary pass) and 203 ms with them built ahead,
# paging's longest gap 135 ms while they were built.
RANK_ROWS = INDEX_ROWS
# How often a pending edit is prepared again when its selection is still not ready once the
# worker is done (the session's selection changed meanwhile) before it is applied at once.
_MAX_ROUNDS = 3

# How long the warm-up sleeps at a time while a selection worker runs.
_PAUSE_S = 0.02

Edit = Callable[[Selection], Selection]


@dataclass(frozen=True, slots=True)
class _Selected:
    """What a worker computed for a pending edit: ``target``'s rows (see
    :func:`~core.analysis.selection.select`) on ``data`` with ``scored`` rows scored."""

    target: Selection
    data: object
    scored: int
    rows: tuple[npt.NDArray[np.bool_], npt.NDArray[np.int64]]


class SelectionWorker(QObject):
    """The pending edits of one proxy and their worker threads.

    ``session`` gives the comparison shown (None before one is), ``rows`` its number of rows;
    ``apply(selection, rows)`` sets a selection (``rows``: computed by a worker, or None) and
    says whether it was accepted; ``failed(message)`` reports a worker's error; ``busy(bool)``
    is called when edits start or stop waiting.
    """

    def __init__(
        self,
        parent: QObject,
        *,
        session: Callable[[], SessionModel | None],
        rows: Callable[[], int],
        apply: Callable[[Selection, object], bool],
        failed: Callable[[str], None],
        busy: Callable[[bool], None],
    ) -> None:
        super().__init__(parent)
        self._session, self._rows = session, rows
        self._apply, self._failed, self._busy_changed = apply, failed, busy
        # Rows from which slow selections are prepared in a worker (tests lower it).
        self.background_rows = BACKGROUND_ROWS
        # Rows from which every selection is computed in a worker (tests lower it).
        self.select_rows = SELECT_ROWS
        # Rows from which the warm-up builds the systems' sort ranks too (tests lower it).
        self.rank_rows = RANK_ROWS
        # Rows from which the warm-up builds the columns' n-gram indexes (tests lower it).
        self.index_rows = INDEX_ROWS
        # The user's latest edit per kind ("text", "sort") not applied yet, and its worker.
        self._edits: dict[str, Edit] = {}
        self._job: BackgroundCall | None = None
        self._rounds = 0
        self._busy = False
        self._warm_up: BackgroundCall | None = None

    def _core(self) -> SessionModel:
        session = self._session()
        if session is None:
            raise RuntimeError("SegmentFilterProxy has no source model yet")
        return session

    def pending(self, kind: str | None = None) -> bool:
        """Whether an edit (of ``kind``: "text", "sort") waits for its worker."""
        return bool(self._edits) if kind is None else kind in self._edits

    def pending_kinds(self) -> list[str]:
        return list(self._edits)

    def cancel_pending(self, kind: str) -> None:
        """Drop the pending edit of ``kind``: its result is never applied; the other pending
        edits go on."""
        if self._edits.pop(kind, None) is None:
            return
        if self._edits:
            self.schedule()
        else:
            self.drop_pending()

    def drop_kinds(self, kinds: list[str]) -> None:
        """Forget the pending edits of ``kinds`` (the next request replaces their worker)."""
        for kind in kinds:
            self._edits.pop(kind, None)

    def request(self, kind: str, edit: Edit) -> bool:
        """Make ``edit`` the pending edit of ``kind`` and apply the pending edits: at once when
        what they need is ready or cheap, else once a worker has prepared it."""
        self._core()
        self._edits.pop(kind, None)  # the edits apply in the order they were last made
        self._edits[kind] = edit
        self._rounds = 0
        return self.schedule()

    def edit(self, kind: str, edit: Edit) -> None:
        """Apply ``edit`` of a filter that needs no search (a score range, a row filter): at
        once, the pending edits going on, or over :attr:`select_rows` rows as a pending edit
        of ``kind`` whose rows a worker selects."""
        if self._rows() >= self.select_rows:
            self.request(kind, edit)
        else:
            self._apply(edit(self._core().selection), None)

    def defer(self, selection: Selection) -> None:
        """Keep ``selection`` pending first (the edits pending already apply on top of it)
        until :meth:`resume`."""
        self._edits = {"selection": lambda _current: selection, **self._edits}
        self._set_busy(True)

    def resume(self) -> None:
        """Apply the pending edits (see :meth:`defer`)."""
        if self._edits and self._session() is not None:
            self._rounds = 0
            self.schedule()

    def target(self) -> Selection:
        """The selection once the pending edits are applied (the current one if none is)."""
        selection = self._core().selection
        for edit in self._edits.values():
            selection = edit(selection)
        return selection

    def schedule(self) -> bool:
        """Apply the pending edits now if that is cheap, else (re)start their worker: it
        prepares what they need and, over :attr:`select_rows` rows, selects the rows too."""
        core = self._core()
        target = self.target()
        data = core.session.selection_data
        n = self._rows()
        whole = n >= self.select_rows
        if (
            n < min(self.background_rows, self.select_rows)
            or self._rounds >= _MAX_ROUNDS
            or (not whole and is_prepared(target, data))
        ):
            self.drop_pending()
            return self._apply(target, None)
        self._rounds += 1
        self._cancel_job()  # superseded: its outcome is dropped
        scored = data.table.n_done

        def work(cancel: threading.Event) -> _Selected | None:
            with interactive_work():  # the user waits: background threads pause meanwhile
                prepare(target, data, cancel.is_set)
                if not whole or cancel.is_set():
                    return None
                return _Selected(target, data, scored, select(target, data))

        # The user waits for it: it runs as nice as the GUI thread (the warm-up, nicer).
        job = BackgroundCall(work, name="matchlight-select", parent=self, niceness=0)
        job.finished.connect(self._on_job_finished)
        job.failed.connect(self._on_job_failed)
        self._job = job
        job.start()
        hold_collection_while(job)  # a search may build caches: see start_warm_up
        self._set_busy(True)
        return True

    def start_warm_up(self) -> None:
        """Build the search caches of a big comparison's text columns in a worker (each
        column's at most once: a search that comes first builds the ones it needs)."""
        if self._warm_up is not None:
            self._warm_up.cancel()
            self._warm_up.deleteLater()
            self._warm_up = None
        session = self._session()
        if session is None or self._rows() < self.background_rows:
            return
        search = session.session.search_columns
        columns = [c for c in search.values() if not c.is_prepared()]
        indexed = []
        if self._rows() >= self.index_rows:
            indexed = [c for c in search.values() if not c.has_index()]
        # Over many rows, the systems' sort ranks: the first sort by a system's text is then an
        # argsort, where building them takes seconds. (Not below: searches made while they are
        # built are slowed, and building them then takes a fraction of a second.) They are
        # built before the indexes, the short job first: at 1M rows x 3 systems the ranks take
        # about a second of CPU, the indexes five; built last, the ranks ran (paced) into the
        # user's paging and sorts, and the GUI thread waited for the interpreter behind them
        # (event-loop gaps of 140-230 ms in bench_gui.py's steps, under 80 ms built first).
        ranked = []
        if self._rows() >= self.rank_rows:
            ranked = [
                c for n, c in search.items() if n.startswith("hyp") and not c.has_sort_ranks()
            ]
        if not columns and not indexed and not ranked:
            return

        def work(cancel: threading.Event) -> None:
            for column in columns:
                try:
                    column.prepare(lambda column=column: self._pause(cancel, folding=column))
                except SearchCancelled:
                    return
            for column in ranked:
                try:
                    column.sort_ranks(lambda column=column: self._pause(cancel, column))
                except SearchCancelled:
                    if cancel.is_set():
                        return
            for column in indexed:
                try:
                    column.build_index(lambda: self._pause(cancel))
                except SearchCancelled:
                    return

        self._warm_up = BackgroundCall(work, name="matchlight-search-caches", parent=self)
        self._warm_up.start()
        hold_collection_while(self._warm_up)  # the caches are frozen, never walked by a pass

    def _pause(
        self,
        cancel: threading.Event,
        ranked: SearchColumn | None = None,
        folding: SearchColumn | None = None,
    ) -> None:
        """Between two steps of folding ``folding``'s rows, building a column's index, or
        ``ranked``'s sort ranks, ahead of need (in the warm-up thread): wait while a selection
        worker runs, which then has the cores to itself, and while the GUI thread is busy
        (core.pacing), unless (or until) somebody waits for what is being built; give up
        (:class:`SearchCancelled`) once cancelled, or once the ranks are built meanwhile."""

        def wanted() -> bool:
            return (ranked is not None and ranked.ranks_wanted()) or (
                folding is not None and folding.fold_wanted()
            )

        pause(wanted)
        while self._job is not None and not cancel.is_set() and not wanted():
            cancel.wait(_PAUSE_S)
        if cancel.is_set() or (ranked is not None and ranked.has_sort_ranks()):
            raise SearchCancelled

    def _cancel_job(self) -> None:
        job, self._job = self._job, None
        if job is not None:
            job.cancel()
            job.deleteLater()

    def drop_pending(self) -> None:
        """Forget every pending edit and cancel the worker."""
        self._edits.clear()
        self._cancel_job()
        self._set_busy(False)

    def _set_busy(self, busy: bool) -> None:
        if busy != self._busy:
            self._busy = busy
            self._busy_changed(busy)

    @Slot(object)
    def _on_job_finished(self, value: object) -> None:
        job = self.sender()
        if job is not self._job or self._session() is None:
            return
        self._job = None
        job.deleteLater()
        if not self._edits:
            self._set_busy(False)
            return
        data = self._core().session.selection_data
        if (
            isinstance(value, _Selected)
            and value.data is data
            and value.scored == data.table.n_done
            and value.target == self.target()
        ):
            self.drop_pending()  # the rows of exactly these edits on these scores
            self._apply(value.target, value.rows)
            return
        self.schedule()

    @Slot(object)
    def _on_job_failed(self, error: object) -> None:
        job = self.sender()
        if job is not self._job:
            return
        self.drop_pending()
        self._failed(str(error))
