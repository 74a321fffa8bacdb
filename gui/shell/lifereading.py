"""Reading a comparison's files for the window (a base of
:class:`~gui.shell.lifecycle.ComparisonLifecycle`): the read in a worker, a big comparison's
first rows shown while the rest is read and appended once in, a read cancelled or failed
taking back what it showed."""

from __future__ import annotations

import logging
import os
import threading
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from pathlib import Path

from PySide6.QtCore import QCoreApplication, QObject, QTimer, Signal, Slot

from matchlight.core.analysis.selection import Selection, Sort, TextFilter
from matchlight.core.analysis.textsearch import SearchColumn
from matchlight.core.io.files import ReadCancelled as ReadStopped
from matchlight.core.io.inputs import Comparison, InputError
from matchlight.core.io.reading import load_comparison
from matchlight.core.io.specs import ComparisonSpecs
from matchlight.core.scoring.advice import TextProfile, profile_references
from matchlight.core.scoring.config import ScoringConfig
from matchlight.core.scoring.detail import RowDetail
from matchlight.core.scoring.engine import empty_table
from matchlight.core.scoring.results import ScoreTable
from matchlight.core.text.corpus import CorpusText
from matchlight.gui.highlight.detailcache import DetailCache, compute_ahead
from matchlight.gui.shell.fonts import missing_fonts, script_samples
from matchlight.gui.table.proxy import BACKGROUND_ROWS
from matchlight.gui.workers.controller import (
    hold_collection_while,
    release_long_lived,
    settle_long_lived,
)
from matchlight.gui.workers.loader import BackgroundCall, ReadCancelled

log = logging.getLogger(__name__)

# Rows whose highlight detail is computed while the files are read: a screenful, so that the
# table is painted once with its highlights when it appears (not plain, then again).
FIRST_SCREEN_ROWS = 64
# Pages of the window's central stack.
WELCOME_PAGE, COMPARISON_PAGE, READING_PAGE = 0, 1, 2

# Rows whose highlight detail is computed before a big comparison's first rows show: the
# visible ones (the rest of the screenful follows from the detail cache's worker).
FIRST_ROWS_AHEAD = 24
# From this many bytes of input files on, a comparison's first rows show while the rest is
# read (below it, reading all of it takes about as long as showing a part).
FIRST_ROWS_FROM_BYTES = 8 << 20


def comparison_name(specs: ComparisonSpecs | None, comparison: Comparison) -> str:
    """A short name for titles: the folder of the first reference (else its stem)."""
    path = Path(comparison.references[0].path)
    if specs is not None and specs.references:
        path = Path(specs.references[0].path)
    return path.parent.name or path.stem


def _without_text(selection: Selection, table: ScoreTable) -> Selection:
    """``selection`` without its text filters and text sort (what needs a search)."""
    sort = selection.sort
    if sort.key != "segment" and not table.has(sort.key):
        sort = Sort()
    return Selection(tuple(f for f in selection.filters if not isinstance(f, TextFilter)), sort)


def _total_size(paths: tuple[str, ...]) -> int:
    """The bytes of the files at ``paths`` (one that cannot be looked at counts nothing: the
    read names the problem)."""
    total = 0
    for path in paths:
        try:
            total += os.stat(path).st_size
        except OSError:
            continue
    return total


@dataclass(frozen=True, slots=True)
class Prepared:
    """A comparison just read, and what showing it needs, made in the reading thread."""

    comparison: Comparison
    text: CorpusText
    search: list[SearchColumn]
    table: ScoreTable
    profile: TextProfile
    fonts: dict[str, str]
    details: dict[int, RowDetail]


class _Handover(QObject):
    """Carries the first rows of a read from the reading thread to the GUI thread."""

    first_rows = Signal(object)  # a Prepared


class ComparisonReading:
    """The reading steps of :class:`~gui.shell.lifecycle.ComparisonLifecycle` (whose
    ``__init__`` makes the state they use)."""

    def open_specs(self, specs: ComparisonSpecs) -> bool:
        """Read the files of ``specs`` in the background, then show them and start scoring.

        Returns at once (True: the read started). The window says it is reading, with a Cancel
        button; a read already running is cancelled first. The outcome is
        :attr:`comparison_opened`, or :attr:`open_failed` with the message also given to the
        window's error sink (an InputError names the file, the line and the problem).
        """
        self.cancel_reading()
        handover = None
        if self.session is None:  # a comparison shown stays until the next one is read whole
            handover = self._handover = _Handover(self)
            handover.first_rows.connect(self._on_first_rows)
        call = self.reader(specs, handover=handover)
        call.setParent(self)
        call.finished.connect(self._on_read_finished)
        call.failed.connect(self._on_read_failed)
        call.cancelled.connect(self._on_read_cancelled)
        self._read_call = call
        self._reading_specs = specs
        self._show_reading(True)
        call.start()
        hold_collection_while(call)  # what it reads is frozen, never walked by a pass
        return True

    @Slot()
    def cancel_reading(self) -> None:
        """Stop reading files (nothing is opened; the window shows what it showed before)."""
        if self._read_call is not None:
            self._read_call.cancel()

    def reader(
        self, specs: ComparisonSpecs, *, handover: _Handover | None = None
    ) -> BackgroundCall:
        """A background read of ``specs`` (not started) that also prepares what showing the
        comparison needs while the window waits anyway, rather than in the GUI thread: the text
        search's caches, the empty score table, the facts the advice and the font check need,
        the first screen's highlights. Its value is a :class:`Prepared`. With ``handover``, the
        first :attr:`first_rows` of every input, prepared alike, are handed over as soon as
        they are read. The Open dialog reads through this as well (without).
        """
        release_long_lived()
        config = ScoringConfig()  # a new comparison starts from the defaults
        first_rows, from_bytes = self.first_rows, self.first_rows_from_bytes

        def read(cancel: threading.Event) -> Prepared:
            def check() -> None:
                if cancel.is_set():
                    raise ReadCancelled()

            def hand_over(head: Comparison) -> None:
                if handover is not None:
                    handover.first_rows.emit(prepare(head, check, FIRST_ROWS_AHEAD))

            big = handover is not None and _total_size(specs.paths) >= from_bytes
            try:
                loaded = load_comparison(
                    source=specs.source,
                    references=list(specs.references),
                    systems=list(specs.systems),
                    on_first=hand_over if big else None,
                    first_rows=first_rows,
                    cancel=cancel,
                )
            except ReadStopped:
                raise ReadCancelled() from None
            return prepare(loaded, check)

        def prepare(
            loaded: Comparison, check: Callable[[], None], ahead: int = FIRST_SCREEN_ROWS
        ) -> Prepared:
            check()
            columns = [c for c in (loaded.source, *loaded.references, *loaded.systems) if c]
            text = loaded.corpus_text()
            source = loaded.source.lines if loaded.source is not None else None
            search = []
            for column in columns:
                check()
                # A big comparison's caches are built after it shows (the proxy's warm-up).
                small = len(column.lines) < BACKGROUND_ROWS
                search.append(
                    SearchColumn(column.lines).prepare() if small else SearchColumn(column.lines)
                )
            check()
            table = empty_table(text, config)
            profile = profile_references([c.lines for c in loaded.references])
            fonts = script_samples(c.lines for c in columns)
            check()
            details = compute_ahead(text, source, config, range(ahead))
            return Prepared(loaded, text, search, table, profile, fonts, details)

        return BackgroundCall(read)

    def prepare_with(self, loaded: object) -> None:
        """What a dialog's own read prepared, for the comparison it is about to show."""
        self._prepared = loaded if isinstance(loaded, Prepared) else None

    @Slot(object)
    def _on_first_rows(self, prepared: object) -> None:
        """The first rows of the comparison being read: show them (and score them)."""
        if self.sender() is not self._handover or self._read_call is None:
            return  # a read cancelled or replaced meanwhile
        if not isinstance(prepared, Prepared):
            raise TypeError(f"the reader handed over {type(prepared).__name__}")
        self._prepared = prepared
        self.set_comparison(prepared.comparison, self._reading_specs, partial=True)
        self._show_reading(True)
        self._say_partial()

    def _set_partial(self, partial: bool) -> None:
        """Whether the comparison shown is the first rows of one still read; the summary and
        the filter bar's count say so."""
        self._partial = partial
        self.window.summary.set_reading(partial)
        self.window.filter_bar.reading = partial
        self.refresh_counts()

    def _say_partial(self) -> None:
        """While the first rows show, the status bar says that the files are still read (the
        progress of scoring them would look like the whole comparison's)."""
        core, specs, w = self.core, self._reading_specs, self.window
        if not self._partial or core is None:
            return
        count = len(specs.paths) if specs is not None else 0
        w.progress_label.setText(
            QCoreApplication.translate(
                "ComparisonLifecycle", "Reading {count} files… the first {rows:,} rows are shown"
            ).format(count=count, rows=core.n_segments)
        )
        w.progress_label.show()
        w.cancel_button.show()
        w.statusBar().showMessage(
            QCoreApplication.translate(
                "ComparisonLifecycle",
                "Showing the first {rows:,} rows while the files are read; the rest follows.",
            ).format(rows=core.n_segments)
        )

    @Slot(object)
    def _on_read_finished(self, prepared: object) -> None:
        specs = self._end_read()
        if not isinstance(prepared, Prepared):
            raise TypeError(f"the reader returned {type(prepared).__name__}")
        if self._partial and self.session is not None:
            self._show_rest(prepared, specs)
            return
        self._prepared = prepared
        self.set_comparison(prepared.comparison, specs)

    def _show_rest(self, prepared: Prepared, specs: ComparisonSpecs | None) -> None:
        """Append the rest of the comparison whose first rows are shown, and score it.

        Scoring starts over on the whole, into the table read with it (no second table of a
        million rows): the first rows keep their scores meanwhile (a row stored twice counts
        once), and they are scored again to the same values. The window's other parts follow
        in turns of their own, so that no turn keeps the event loop long.
        """
        w, session, core = self.window, self.session, self.core
        if session is None or core is None:
            return
        # What the read made lives as long as the comparison: exempt it from the collector's
        # passes now, before the next one walks all of it (a stall of its own).
        settle_long_lived()
        comparison = prepared.comparison
        source = comparison.source.lines if comparison.source is not None else None
        table = prepared.table
        fits = table.config == core.config  # else the settings were changed meanwhile
        if not fits:
            table = empty_table(prepared.text, core.config)
        # A search or a text sort set on the first rows would search all the rows in this
        # thread as the session takes them: it takes them without, and the proxy has the
        # selection computed again by its worker.
        held = core.selection
        searched = _without_text(held, core.table)
        if searched != held and self.proxy is not None:
            self.proxy.defer_selection(held, searched)
        # The table repaints its rows in a turn of its own: appending a million rows takes
        # one, and a repaint of the rows on screen about as long again. (After 1 ms: Qt runs
        # a single shot of 0 ms as a posted event, in the same turn.)
        view = w.table_view
        if view.updatesEnabled():
            view.setUpdatesEnabled(False)
            QTimer.singleShot(1, view, partial(view.setUpdatesEnabled, True))
        try:
            self.scoring.start(prepared.text, core.config, table, apply=session.apply_chunk)
            core.grow(
                prepared.text,
                source=source,
                comparison=comparison,
                table=table,
                search=prepared.search,
            )
        except BaseException:
            self.close_comparison()
            raise
        self._set_partial(False)
        w.statusBar().clearMessage()  # "showing the first rows" (said again as scoring started)
        if self.proxy is not None:
            self.proxy.resume_pending()
        self.profile = prepared.profile
        self.missing_fonts = missing_fonts(prepared.fonts, w.glyph_check)

        def follow() -> None:
            if self.core is not core:
                self._announcing = False
                return  # closed (or replaced) meanwhile
            old_cache = self.detail_cache
            self.detail_cache = DetailCache(
                prepared.text,
                source,
                core.config,
                parent=w,
                ready=prepared.details if fits else None,
            )
            self.detail_cache.detail_ready.connect(self._on_detail_ready)
            if self.delegate is not None:
                # The old cache held the first of these rows: its documents hold if its
                # settings are the new one's.
                same_rows = old_cache is not None and old_cache.config == self.detail_cache.config
                self.delegate.set_cache(self.detail_cache, same_rows=same_rows)
            if old_cache is not None:
                old_cache.shutdown()
                old_cache.deleteLater()
            w.summary.set_table(core.table)
            self._set_language(None)  # the check of the first rows is stale
            self._language_timer.start()
            w.setWindowTitle(f"{comparison_name(specs, comparison)} — {w.APP_NAME}")
            w.warnings.update()
            w.update_actions()
            self.refresh_counts()
            QTimer.singleShot(0, self, announce)

        def announce() -> None:
            if self.core is not core:
                self._announcing = False
                return
            if specs is not None:
                w.recent.remember(specs)  # its settings and menu: a turn of their own
            QTimer.singleShot(0, self, opened)

        def opened() -> None:
            self._announcing = False
            if self.core is not core:
                return
            settle_long_lived()
            self.comparison_opened.emit()

        self._announcing = True
        QTimer.singleShot(0, self, follow)

    def _take_back_partial(self) -> None:
        """A read whose first rows are shown did not complete: show nothing of it."""
        if self._partial:
            self.close_comparison()

    @Slot(object)
    def _on_read_failed(self, error: object) -> None:
        self._end_read()
        self._take_back_partial()
        if isinstance(error, InputError):
            message = str(error)
        else:  # a bug rather than the user's files: the details go to the log
            log.error("reading the comparison failed", exc_info=error)  # type: ignore[arg-type]
            message = QCoreApplication.translate(
                "ComparisonLifecycle", "Could not read the files: {error} ({0})"
            ).format(type(error).__name__, error=error)
        self.window.report_error(
            QCoreApplication.translate("ComparisonLifecycle", "Cannot open the comparison"), message
        )
        self.open_failed.emit(message)

    @Slot()
    def _on_read_cancelled(self) -> None:
        self._end_read()
        self._take_back_partial()
        self.window.statusBar().showMessage(
            QCoreApplication.translate(
                "ComparisonLifecycle", "Reading cancelled; nothing was opened."
            ),
            6000,
        )

    def _show_reading(self, reading: bool) -> None:
        """Say that files are being read: a page of its own while nothing is open (never the
        "No comparison open" page), else the status bar; with a Cancel button either way."""
        w, specs = self.window, self._reading_specs
        if reading:
            count = len(specs.paths) if specs is not None else 0
            message = f"Reading {count} {'file' if count == 1 else 'files'}…"
            if self.session is None:  # the page says it, with its own Cancel button
                w.reading_page.set_files(specs.paths if specs is not None else ())
                w.pages.setCurrentIndex(READING_PAGE)
            else:
                w.progress_label.setText(message)
                w.progress_label.show()
                w.cancel_button.setToolTip(
                    QCoreApplication.translate(
                        "ComparisonLifecycle", "Stop reading the files; nothing is opened"
                    )
                )
                w.cancel_button.show()
            w.statusBar().clearMessage()
        else:
            if w.pages.currentIndex() == READING_PAGE:
                w.pages.setCurrentIndex(WELCOME_PAGE if self.session is None else COMPARISON_PAGE)
            if not self.scoring.running:
                w.progress_label.hide()
                w.cancel_button.hide()
            w.cancel_button.setToolTip(
                QCoreApplication.translate(
                    "ComparisonLifecycle", "Stop scoring; the rows scored so far stay"
                )
            )
            w.statusBar().clearMessage()
        self.reading_changed.emit(reading)

    def _end_read(self) -> ComparisonSpecs | None:
        call, specs = self._read_call, self._reading_specs
        self._read_call = self._reading_specs = None
        if self._handover is not None:
            self._handover.deleteLater()
            self._handover = None
        if call is not None:
            call.deleteLater()
        self._show_reading(False)
        return specs
