"""The open comparison's life in the window: reading its files, showing it in steps, scoring it,
resuming, closing it.

:class:`ComparisonLifecycle` holds what a shown comparison needs besides its state: the Qt
adapter of the :class:`~core.session.comparison.ComparisonSession` (texts, settings, scores,
baseline, selection: never copied here), the table model and proxy, the detail cache, the
scoring controller and the background read. Files are read by :mod:`core.io.reading` in a
:class:`~gui.workers.loader.BackgroundCall` (cancellable; the event loop runs as usual), which
also prepares what showing the comparison needs. A big comparison opened while none is shown
shows its first rows (:attr:`ComparisonLifecycle.first_rows` of every input) while the rest is
read, and they are scored meanwhile; the rest is appended to the table once read (the rows so
far keep their scores, the view its place). Showing a comparison either completes or leaves
nothing of it behind (:meth:`ComparisonLifecycle.set_comparison`): a read that fails or is
cancelled after its first rows showed takes them away again, so a failure never leaves one
comparison's figures next to another's table, nor a part of a comparison that looks whole.

Signals:
    comparison_opened: a comparison was shown and its scoring started.
    open_failed(str message): the files of a comparison could not be read.
    reading_changed(bool reading): reading files started, or ended.
"""

from __future__ import annotations

import gc
import logging
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np
from PySide6.QtCore import QCoreApplication, QObject, Qt, QTimer, Signal, Slot
from PySide6.QtWidgets import QStyledItemDelegate, QWidget

from matchlight.core.analysis.language import LanguageFlags, language_flags, prepare
from matchlight.core.io.inputs import Comparison
from matchlight.core.io.reading import FIRST_ROWS
from matchlight.core.io.specs import ComparisonSpecs
from matchlight.core.io.usercache import user_cache
from matchlight.core.scoring.advice import TextProfile, profile_references
from matchlight.core.scoring.config import ScoringConfig
from matchlight.core.scoring.results import ScoreChunk, ScoreTable
from matchlight.core.session.comparison import ComparisonSession
from matchlight.core.text.corpus import CorpusText
from matchlight.gui.charts.jobs import BackgroundJob
from matchlight.gui.highlight.detailcache import DetailCache
from matchlight.gui.shell.fonts import missing_fonts, script_samples
from matchlight.gui.shell.lifereading import (
    COMPARISON_PAGE,
    FIRST_ROWS_FROM_BYTES,
    FIRST_SCREEN_ROWS,
    READING_PAGE,
    WELCOME_PAGE,
    ComparisonReading,
    Prepared,
    _Handover,
    comparison_name,
)
from matchlight.gui.state.session import SessionModel
from matchlight.gui.table.delegate import HighlightDelegate
from matchlight.gui.table.model import SegmentTableModel
from matchlight.gui.table.proxy import SegmentFilterProxy
from matchlight.gui.workers.controller import (
    ScoringController,
    settle_long_lived,
)
from matchlight.gui.workers.loader import BackgroundCall

log = logging.getLogger(__name__)

__all__ = [
    "COMPARISON_PAGE",
    "FIRST_SCREEN_ROWS",
    "READING_PAGE",
    "WELCOME_PAGE",
    "ComparisonLifecycle",
    "comparison_name",
]

# How long after the table's first paint was scheduled the detail pane is filled.
REVEAL_DETAIL_MS = 30
# How long after the detail pane is filled the language check starts (off the GUI thread).
LANGUAGE_CHECK_MS = 200


def reference_names(comparison: Comparison) -> tuple[str, ...]:
    """The references' names as the files call them (``ref.en``, ``ref2.en``)."""
    return tuple(
        Path(c.path).stem or QCoreApplication.translate("lifecycle", "Ref {0}").format(i + 1)
        for i, c in enumerate(comparison.references)
    )


class ComparisonLifecycle(ComparisonReading, QObject):
    """Reading, showing, scoring and closing the window's comparison (see the module docs)."""

    comparison_opened = Signal()
    open_failed = Signal(str)
    reading_changed = Signal(bool)

    def __init__(self, window: Any, scoring: ScoringController) -> None:
        super().__init__(window)
        self.window = window
        self.scoring = scoring
        self.session: SessionModel | None = None
        self.model: SegmentTableModel | None = None
        self.proxy: SegmentFilterProxy | None = None
        self.detail_cache: DetailCache | None = None
        self.delegate: HighlightDelegate | None = None
        # Facts about the references the scoring advice uses (derived once per comparison).
        self.profile: TextProfile | None = None
        self.missing_fonts: list[Any] = []
        self._prepared: Prepared | None = None
        self._read_call: BackgroundCall | None = None
        self._reading_specs: ComparisonSpecs | None = None
        # Rows of every input shown before the whole is read (opening a comparison whose
        # files hold at least ``first_rows_from_bytes``).
        self.first_rows = FIRST_ROWS
        self.first_rows_from_bytes = FIRST_ROWS_FROM_BYTES
        self._handover: _Handover | None = None
        # The comparison shown is the first rows of the one being read.
        self._partial = False
        # The rest of such a comparison is in, and its opening is not announced yet.
        self._announcing = False
        self._pending_detail: int | None = None
        # Showing a new comparison, in steps (see _reveal_next).
        self._reveal_steps: list[tuple[int, Callable[[], None]]] = []
        self._reveal_timer = QTimer(self)
        self._reveal_timer.setSingleShot(True)
        self._reveal_timer.timeout.connect(self._reveal_next)
        self._refresh_timer = QTimer(self)
        self._refresh_timer.setSingleShot(True)
        self._refresh_timer.setInterval(120)
        self._refresh_timer.timeout.connect(self._on_refresh_timeout)
        # Outputs in another language, outputs copying the source (core.analysis.language):
        # checked in the background once the comparison is shown; None until then.
        self.language: LanguageFlags | None = None
        self._language_job = BackgroundJob(self, name="matchlight-language")
        self._language_job.finished.connect(self._on_language_checked)
        self._language_timer = QTimer(self)
        self._language_timer.setSingleShot(True)
        self._language_timer.setInterval(LANGUAGE_CHECK_MS)
        self._language_timer.timeout.connect(self._check_language)
        scoring.scoring_started.connect(self._on_scoring_started)
        scoring.progress_changed.connect(self._on_progress_changed)
        scoring.chunk_ready.connect(self._on_chunk_ready)
        scoring.scoring_finished.connect(self._on_scoring_finished)
        scoring.scoring_cancelled.connect(self._on_scoring_cancelled)
        scoring.scoring_failed.connect(self._on_scoring_failed)

    # -- reading -------------------------------------------------------------------------------

    @property
    def core(self) -> ComparisonSession | None:
        return None if self.session is None else self.session.session

    @property
    def config(self) -> ScoringConfig:
        """The open comparison's settings (a new one starts from the defaults)."""
        core = self.core
        return ScoringConfig() if core is None else core.config

    @property
    def table(self) -> ScoreTable | None:
        return None if self.session is None else self.session.table

    def is_reading(self) -> bool:
        return self._read_call is not None

    def is_opening(self) -> bool:
        """Whether a comparison read whole after its first rows showed is still being shown in
        turns of the event loop: ``comparison_opened`` follows (a session waiting for it must
        wait on)."""
        return self._announcing

    def showing_part(self) -> bool:
        """Whether the comparison shown is the first rows of one still being read."""
        return self._partial

    def revealing(self) -> bool:
        """Whether a comparison just set is still being shown in steps."""
        return bool(self._reveal_steps)

    # -- showing -------------------------------------------------------------------------------

    def set_comparison(
        self, comparison: Comparison, specs: ComparisonSpecs | None = None, *, partial: bool = False
    ) -> None:
        """Show ``comparison`` and start scoring it under the default settings.

        The window is painted and the detail pane filled in the next turns of the event loop
        (:meth:`_reveal_next`). If showing it fails half-way, nothing of it stays: the window
        goes back to showing no comparison (and the error is raised). A ``partial`` comparison
        is the first rows of the one being read: it is not announced as opened (nor
        remembered) until the rest is appended.
        """
        w = self.window
        # No paint until this is done: the new table is painted in a turn of its own, the
        # detail pane and the summary in the next one.
        w.setUpdatesEnabled(False)
        for widget in self._revealed_last():
            widget.setUpdatesEnabled(False)
        # (delay in ms, step): the detail pane waits for the table's paint, which the window
        # system schedules up to a frame (16 ms) after the update.
        self._reveal_steps = [(1, self._reveal_window), (REVEAL_DETAIL_MS, self._reveal_detail)]
        self._set_partial(partial)
        try:
            self._show(comparison, specs, remember=not partial)
        except BaseException:
            self.close_comparison()
            raise
        finally:  # whatever happened, the window is painted again
            self._reveal_timer.start(self._reveal_steps[0][0])
        if not partial:
            self.comparison_opened.emit()

    def _show(
        self, comparison: Comparison, specs: ComparisonSpecs | None, *, remember: bool = True
    ) -> None:
        w = self.window
        w.view.save()  # the comparison shown so far keeps its arrangement
        prepared, self._prepared = self._prepared, None
        if prepared is not None and prepared.comparison is not comparison:
            prepared = None
        text = prepared.text if prepared else comparison.corpus_text()
        source = comparison.source.lines if comparison.source is not None else None
        columns = [c for c in (comparison.source, *comparison.references, *comparison.systems) if c]
        self.profile = (
            prepared.profile
            if prepared
            else profile_references([c.lines for c in comparison.references])
        )
        fonts = prepared.fonts if prepared else script_samples(c.lines for c in columns)
        self.missing_fonts = missing_fonts(fonts, w.glyph_check)
        w.warnings.reset()
        self._pending_detail = None
        config = ScoringConfig()  # settings belong to the comparison: a new one starts afresh
        view = w.view.stored(specs)
        table = prepared.table if prepared is not None else None
        fits = table is not None and table.config == config
        core = ComparisonSession(
            text,
            config=config,
            source=source,
            reference_names=reference_names(comparison),
            comparison=comparison,
            specs=specs,
            search=prepared.search if prepared is not None else (),
            table=table if fits else None,
        )
        old_session = self.session
        self.session = SessionModel(core, self)
        # The counts and the summary's figures follow the rows, not their order (a sort).
        self.session.rows_changed.connect(self.schedule_refresh)
        self.session.baseline_changed.connect(self._on_baseline_changed)
        self.session.columns_changed.connect(w.summary.column_changed)
        baseline = view.baseline_in(text.system_names) if view is not None else 0
        if baseline:
            core.set_baseline(baseline)
        table = self.scoring.start(text, config, core.table, apply=self.session.apply_chunk)
        old_model, old_proxy, old_cache = self.model, self.proxy, self.detail_cache
        self.model = SegmentTableModel(
            self.session, w, shown=view.shown if view is not None and view.shown else None
        )
        self.proxy = SegmentFilterProxy(w)
        self.proxy.setSourceModel(self.model)
        self.proxy.filter_changed.connect(self.refresh_counts)
        self.proxy.filter_error.connect(self._on_filter_error)
        for signal in (
            self.proxy.rowsInserted,
            self.proxy.rowsRemoved,
            self.proxy.modelReset,
            self.proxy.layoutChanged,
        ):
            signal.connect(self.schedule_refresh)
        table_view = w.table_view
        with w.view.restoring():
            table_view.setModel(self.proxy)
            table_view.selectionModel().currentRowChanged.connect(self._on_current_row_changed)
            table_view.sortByColumn(-1, Qt.SortOrder.AscendingOrder)
            w.columns.size_columns()
            w.columns.apply_state(view)
        self.detail_cache = DetailCache(
            text,
            source,
            config,
            parent=w,
            ready=prepared.details if fits and prepared is not None else None,
        )
        self.detail_cache.detail_ready.connect(self._on_detail_ready)
        w.view.rebuild_highlight_actions()
        if self.delegate is None:
            self.delegate = HighlightDelegate(self.detail_cache, table_view)
            self.delegate.set_mode(w.highlight_mode)
            self.delegate.modes_changed.connect(w.view.rebuild_highlight_actions)
            table_view.setItemDelegate(self.delegate)
        else:
            self.delegate.set_cache(self.detail_cache)
        self.delegate.set_reference_system(None)
        self.delegate.set_baseline(core.baseline)
        if old_cache is not None:
            old_cache.shutdown()
        if old_session is not None:
            old_session.close()
        for obj in (old_proxy, old_model, old_cache, old_session):
            if obj is not None:
                obj.deleteLater()
        pane = w.detail_pane
        pane.set_config(config)
        pane.set_reference_names(core.reference_names)
        pane.set_reference_system(None)
        pane.set_baseline(core.baseline)
        pane.show_row(None)
        if view is not None and view.mode in w.highlight_actions:
            w.view.set_mode(view.mode)
        w.filter_bar.set_proxy(
            self.proxy,
            text_columns=w.columns.text_columns(),
            systems=text.system_names,
            metrics=table.columns,
        )
        w.summary.set_table(table)
        self._set_language(None)  # the check of the comparison shown before is stale
        w.comparison_docks.set_session(self.session)
        w.set_systems(text.system_names, core.baseline)
        w.pages.setCurrentIndex(COMPARISON_PAGE)
        w.setWindowTitle(f"{comparison_name(specs, comparison)} — {w.APP_NAME}")
        if specs is not None and remember:
            w.recent.remember(specs)
        if view is not None:
            core.set_layout(**view.to_dict())
        w.warnings.update()
        w.update_actions()
        self.refresh_counts()
        if self.proxy.rowCount():
            table_view.setCurrentIndex(self.proxy.index(0, 0))
        table_view.setFocus()
        settle_long_lived()

    def close_comparison(self) -> None:
        """Show no comparison: after a comparison could not be shown in full, nothing of it
        (or of the one before) may stay, or the next one's figures would sit next to stale
        parts. Every step is tried; a step that fails is logged, not raised (the failure that
        brought us here is already on its way to the user)."""
        w = self.window

        def attempt(step: Callable[[], object]) -> None:
            try:
                step()
            except Exception:
                log.exception("could not clear part of the window")

        attempt(self.scoring.cancel)
        self._refresh_timer.stop()
        attempt(w.view.stop)
        session, model, proxy, cache = self.session, self.model, self.proxy, self.detail_cache
        self.session = None
        self.model = self.proxy = None
        self.detail_cache = None
        self.profile = None
        self.missing_fonts = []
        self._prepared = None
        self._announcing = False
        attempt(lambda: self._set_partial(False))
        self._pending_detail = None
        attempt(lambda: w.table_view.setModel(None))
        delegate, self.delegate = self.delegate, None  # it holds the old detail cache
        if delegate is not None:
            attempt(lambda: w.table_view.setItemDelegate(QStyledItemDelegate(w.table_view)))
            delegate.deleteLater()
        attempt(lambda: w.filter_bar.set_proxy(None, text_columns=(), systems=(), metrics=()))
        attempt(lambda: w.summary.set_table(None))
        attempt(lambda: self._set_language(None))
        attempt(lambda: w.detail_pane.show_row(None))
        attempt(w.warnings.clear)
        if cache is not None:
            attempt(cache.shutdown)
        if session is not None:
            attempt(session.close)
        for obj in (proxy, model, cache, session):
            if obj is not None:
                obj.deleteLater()
        w.pages.setCurrentIndex(WELCOME_PAGE)
        w.setWindowTitle(w.APP_NAME)
        attempt(w.update_actions)

    @Slot()
    def _reveal_next(self) -> None:
        """Take the next step of showing a new comparison; each step gets a turn of its own.

        Setting up the models, the first paint of the table (a document per visible cell) and
        filling the detail pane each take tens of milliseconds on a big comparison; done in one
        go, they would keep the event loop from handling input. A timer between the steps lets
        the events waiting meanwhile through.
        """
        if self._reveal_steps:
            self._reveal_steps.pop(0)[1]()
        if self._reveal_steps:
            self._reveal_timer.start(self._reveal_steps[0][0])

    def _revealed_last(self) -> tuple[QWidget, ...]:
        return (self.window.detail_pane, self.window.summary)

    def _reveal_window(self) -> None:
        self.window.setUpdatesEnabled(True)  # all but what _revealed_last names

    def _reveal_detail(self) -> None:
        self.show_current_detail()
        for widget in self._revealed_last():
            widget.setUpdatesEnabled(True)
        if not self._partial:  # the first rows of a read: the whole is checked once it is in
            self._language_timer.start()

    # -- the language check --------------------------------------------------------------------

    @Slot()
    def _check_language(self) -> None:
        """Flag outputs in another language and outputs copying the source, in a worker thread
        (reading py3langid's model takes seconds the first time)."""
        core = self.core
        if core is None:
            return
        text, source = core.text, core.source

        def work(cancelled: Callable[[], bool], progress: Callable[[float], None]) -> object:
            prepare(cache=user_cache())  # the model from the user's cache, as `score` reads it
            return language_flags(text, source, cancelled=cancelled, progress=progress)

        self._language_job.start(work)

    def _set_language(self, flags: LanguageFlags | None) -> None:
        if flags is None:  # a run still going, or about to start, is for the one before
            self._language_timer.stop()
            self._language_job.cancel()
        self.language = flags
        self.window.filter_bar.set_language_flags(flags)
        self.window.summary.set_language_flags(flags)

    @Slot(object)
    def _on_language_checked(self, flags: object) -> None:
        core = self.core
        if not isinstance(flags, LanguageFlags) or core is None:
            return
        if flags.systems == core.system_names and flags.n_segments == core.n_segments:
            self._set_language(flags)

    # -- scoring -------------------------------------------------------------------------------

    def apply_config(self, config: ScoringConfig) -> None:
        """Rescore the open comparison with ``config`` (it belongs to this comparison)."""
        session, w = self.session, self.window
        if session is None or config == session.config:
            return
        table = session.session.set_config(config)
        w.view.rebuild_highlight_actions()
        self.scoring.start(session.session.text, config, table, apply=session.apply_chunk)
        if self.detail_cache is not None:
            self.detail_cache.set_config(config)
        w.detail_pane.set_config(config)
        w.summary.set_table(table)
        self.refresh_counts()
        w.filter_bar.set_metrics(table.columns)
        w.warnings.update()
        w.update_actions()
        self.show_current_detail()

    def resume_scoring(self) -> None:
        """Score the rows left unscored when scoring was cancelled, into the same table.

        Scoring restarts at the first unscored row; rows after it that were already scored
        are scored again, to the same values (a row stored twice counts once).
        """
        if self.session is None or self.scoring.running:
            return
        self._score_unscored()

    def _score_unscored(self) -> None:
        """Score the rows from the first unscored one on (a job running is superseded)."""
        session = self.session
        if session is None:
            return
        table, text = session.table, session.session.text
        missing = np.flatnonzero(~table.done)
        if not len(missing):
            return
        first = int(missing[0])
        rest = CorpusText(
            references=tuple(r[first:] for r in text.references),
            systems=tuple(s[first:] for s in text.systems),
            system_names=text.system_names,
        )

        def apply(chunk: ScoreChunk) -> None:
            session.apply_chunk(replace(chunk, start=chunk.start + first, stop=chunk.stop + first))

        self.window.resume_button.hide()
        self.scoring.start(rest, session.config, apply=apply)

    @Slot()
    def _on_scoring_started(self) -> None:
        self.window.show_progress(self.table, started=True)
        self.window.update_actions()
        self._say_partial()

    @Slot(int, int)
    def _on_progress_changed(self, _done: int, _total: int) -> None:
        self.window.show_progress(self.table)  # the whole comparison's count (also resuming)
        self._say_partial()

    @Slot(int, int)
    def _on_chunk_ready(self, _start: int, _stop: int) -> None:
        self.schedule_refresh()
        proxy = self.proxy
        nothing_current = self._pending_detail is None and self.window.current_segment() is None
        if nothing_current and proxy is not None and proxy.rowCount():
            self.window.table_view.setCurrentIndex(proxy.index(0, 0))

    def _scoring_done(self, message: str) -> None:
        self.window.end_progress(message, reading=self._read_call is not None)
        self._refresh_timer.stop()
        if self.session is not None:
            self.session.refresh_now()
        self._on_refresh_timeout()
        self.window.summary.refresh()
        self.window.update_actions()
        self._say_partial()

    @Slot()
    def _on_scoring_finished(self) -> None:
        table = self.table
        n = table.n_segments if table is not None else 0
        done = (
            QCoreApplication.translate("ComparisonLifecycle", "Scored {0:,} row.")
            if n == 1
            else QCoreApplication.translate("ComparisonLifecycle", "Scored {0:,} rows.")
        )
        self._scoring_done(done.format(n))

    @Slot()
    def _on_scoring_cancelled(self) -> None:
        table = self.table
        done = table.n_done if table is not None else 0
        total = table.n_segments if table is not None else 0
        self._scoring_done(
            QCoreApplication.translate(
                "ComparisonLifecycle",
                "Scoring cancelled: {done:,} of {total:,} rows scored. Export writes those "
                "rows; Resume scoring scores the rest.",
            ).format(done=done, total=total)
        )

    @Slot(str)
    def _on_scoring_failed(self, message: str) -> None:
        self._scoring_done(QCoreApplication.translate("ComparisonLifecycle", "Scoring failed."))
        self.window.report_error(
            QCoreApplication.translate("ComparisonLifecycle", "Scoring failed"), message
        )

    # -- rows, counts and the detail pane ------------------------------------------------------

    @Slot()
    def schedule_refresh(self) -> None:
        if not self._refresh_timer.isActive():
            self._refresh_timer.start()

    @Slot()
    def _on_refresh_timeout(self) -> None:
        self.refresh_counts()
        self.window.warnings.update()

    @Slot()
    def refresh_counts(self) -> None:
        """The filter bar's "n of N rows" and the summary's figures over the selected rows."""
        w = self.window
        if self.proxy is None or self.model is None:
            return
        w.filter_bar.set_total(self.proxy.rowCount(), self.model.rowCount())
        core = self.core
        if core is None or not core.is_filtered():
            w.summary.set_filtered_rows(None)
        else:
            w.summary.set_filtered_rows(core.selected_rows())
        self._forget_hidden_detail()

    @Slot(int)
    def _on_baseline_changed(self, system: int) -> None:
        """The baseline changed (the toolbar, or a reopened session): the gain and loss marks
        against it follow."""
        if self.delegate is not None:
            self.delegate.set_baseline(system)
        self.window.detail_pane.set_baseline(system)

    @Slot(str)
    def _on_filter_error(self, message: str) -> None:
        self.window.statusBar().showMessage(message, 8000)

    @Slot(object, object)
    def _on_current_row_changed(self, current: Any, _previous: Any) -> None:
        if current.isValid():
            self.show_current_detail()

    @Slot(int)
    def _on_detail_ready(self, segment: int) -> None:
        if segment == self._pending_detail and self.detail_cache is not None:
            detail = self.detail_cache.get(segment)
            if detail is not None:
                self._pending_detail = None
                self.window.detail_pane.show_row(detail)

    def show_current_detail(self) -> None:
        segment = self.window.current_segment()
        if segment is None or self.detail_cache is None:
            return
        if any(step == self._reveal_detail for _, step in self._reveal_steps):
            return  # a step of showing a new comparison does it
        detail = self.detail_cache.get(segment)
        if detail is None:
            self._pending_detail = segment
        else:
            self._pending_detail = None
            self.window.detail_pane.show_row(detail)

    def _forget_hidden_detail(self) -> None:
        """The detail pane shows no row the filter hides while nothing is selected."""
        pane = self.window.detail_pane
        shown, proxy = pane.detail(), self.proxy
        if shown is None or proxy is None or self.window.current_segment() is not None:
            return
        if proxy.proxy_row(shown.segment) < 0:
            self._pending_detail = None
            pane.show_row(None)

    def shutdown(self) -> None:
        """The window closes: stop reading and scoring; nothing waits for the read's thread."""
        self.cancel_reading()
        self._language_job.shutdown()
        self.scoring.shutdown()
        if self.detail_cache is not None:
            self.detail_cache.shutdown()
        gc.unfreeze()  # what settle_long_lived() held back is collectable again
