"""The "Human agreement" tab: which metric to trust, decided as the WMT metrics task decides it.

Each metric of the comparison (BLEU, chrF, ROUGE, an imported COMET...) is meta-evaluated
against human judgements by :mod:`core.analysis.metaeval` (mt-metrics-eval's statistics,
exactly). At the system level the metric's corpus figure is compared with the human score of
each system: Pearson, Spearman, Kendall, pairwise accuracy and soft pairwise accuracy (SPA). At
the segment level, every judged (system, segment) pair counts: Pearson, Kendall tau-b and acc23.
Intervals come from segment resamples, and metrics are ranked into significance clusters by
permutation tests.

The human side is one of the comparison's human columns: judgements per segment loaded with
File ▸ Load human judgements, or MQM or ESA from the annotations. It can also be judgements per
system (WMT's DA table), which the comparison session holds. The numbers are computed on the
selected rows in a background job. The point values come first (about a second). Unless Quick is
on, the intervals and clusters follow with the WMT settings; Cancel stops them. The tab shows the
table (metrics × statistics), a scatter of corpus score against human score per system, and the
clusters (:mod:`gui.charts.agreementviews`); what it computes is :mod:`gui.charts.agreementrun`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Final

import numpy as np
import numpy.typing as npt
from PySide6.QtCore import (
    QT_TRANSLATE_NOOP,
    QCoreApplication,
    Qt,
    Slot,
)
from PySide6.QtGui import QAction, QGuiApplication, QResizeEvent
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QMenu,
    QPushButton,
    QSpinBox,
    QSplitter,
    QTabWidget,
    QToolButton,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
    QWidgetAction,
)

from matchlight.core.analysis.metatypes import MetaEvalSettings
from matchlight.core.scoring.results import ScoreTable
from matchlight.gui.charts.agreementrun import (
    HUMAN_METRICS,
    LABELS,
    MEANINGS,
    QUICK,
    AgreementRun,
    HumanChoice,
    Level,
    compute_agreement,
    human_choices,
    metric_choices,
)
from matchlight.gui.charts.agreementviews import AgreementModel, SystemScatter, make_view
from matchlight.gui.charts.base import compact, fill_combo
from matchlight.gui.charts.jobpanel import JobPanel
from matchlight.gui.charts.link import ChartLink

__all__ = [
    "HUMAN_METRICS",
    "QUICK",
    "AgreementModel",
    "AgreementPanel",
    "AgreementRun",
    "HumanChoice",
    "compute_agreement",
    "human_choices",
    "metric_choices",
]

# The scatter's least height when the table takes what it needs (pixels).
SCATTER_HEIGHT: Final = 200
# Below this width (pixels) the cells leave their intervals to the tooltips, and the scatter
# and the clusters become two tabs.
NARROW: Final = 720
IntArray = npt.NDArray[np.int64]


# -- the panel -------------------------------------------------------------------------------------


class AgreementPanel(JobPanel):
    """How well each metric agrees with a human judgement, on the selected rows."""

    title = QT_TRANSLATE_NOOP("ChartPanel", "Human agreement")
    job_name = "matchlight-agreement"
    failure = QT_TRANSLATE_NOOP("agreement", "The agreement could not be computed")
    progress_width = 120
    progress_text = True

    def __init__(self, link: ChartLink, parent: QWidget | None = None) -> None:
        super().__init__(link, parent)
        self.human_combo = QComboBox()
        self.human_combo.setToolTip(
            QCoreApplication.translate(
                "agreement", "The human judgements the metrics are compared with"
            )
        )
        compact(self.human_combo, 20)
        self.human_combo.currentIndexChanged.connect(self._on_choice_changed)
        self.metrics_button = QToolButton()
        self.metrics_button.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        self.metrics_button.setToolTip(
            QCoreApplication.translate("agreement", "The score columns to meta-evaluate")
        )
        self.metrics_menu = QMenu(self.metrics_button)
        self.metrics_button.setMenu(self.metrics_menu)
        self.quick_check = QCheckBox(QCoreApplication.translate("agreement", "Quick"))
        self.quick_check.setToolTip(
            QCoreApplication.translate(
                "agreement",
                "Point values only: no intervals and no significance clusters (about a second)",
            )
        )
        self.quick_check.toggled.connect(self._on_choice_changed)
        self.settings_button = QToolButton()
        self.settings_button.setText(QCoreApplication.translate("agreement", "Settings"))
        self.settings_button.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        self.resamples_spin = QSpinBox()
        self.permutations_spin = QSpinBox()
        self.settings_button.setMenu(self._settings_menu())
        self.cancel_button = QPushButton(QCoreApplication.translate("agreement", "Cancel"))
        self.cancel_button.setToolTip(
            QCoreApplication.translate(
                "agreement",
                "Stop computing: the intervals and clusters (Quick is ticked: untick it to compute "
                "them), or the point values (until the rows or the choices change)",
            )
        )
        self.cancel_button.clicked.connect(self._on_cancel_clicked)
        self.cancel_button.hide()
        self.load_button = QToolButton()  # the dock gives it "Load human judgements…"
        for widget in (
            self.human_combo,
            self.metrics_button,
            self.quick_check,
            self.settings_button,
            self.progress,
            self.cancel_button,
            self.load_button,
        ):
            self.controls.addWidget(widget)
        self.controls.addStretch(1)
        self.export_button.menu().addAction(
            QCoreApplication.translate("agreement", "Copy the table as text")
        ).triggered.connect(self._on_copy_clicked)

        self.level_combo = QComboBox()
        self.level_combo.addItem(QCoreApplication.translate("agreement", "System level"), "system")
        self.level_combo.addItem(
            QCoreApplication.translate("agreement", "Segment level"), "segment"
        )
        self.level_combo.setToolTip(
            QCoreApplication.translate(
                "agreement",
                "System level: the metric's corpus figure against the human score of each system; "
                "segment level: every judged (system, segment) pair",
            )
        )
        self.level_combo.currentIndexChanged.connect(self._on_level_changed)
        self.scope_label = QLabel()
        self.scope_label.setWordWrap(True)
        self.model = AgreementModel(self)
        self.view = make_view(self.model)
        self.scatter = SystemScatter(self)
        self.scatter.combo.currentIndexChanged.connect(self._on_scatter_changed)
        self.graphics = self.scatter.graphics  # what the panel's Export writes
        self.plot = self.scatter.plot
        self.clusters = QTreeWidget()
        self.clusters.setHeaderLabels(
            [QCoreApplication.translate("agreement", "Significance clusters, best first")]
        )
        self.clusters.setIndentation(12)
        self.clusters.setWordWrap(True)
        self.clusters.setMinimumHeight(60)
        upper = QWidget()
        self._upper_box = upper_box = QVBoxLayout(upper)
        upper_box.setContentsMargins(0, 0, 0, 0)
        self._top = QWidget()
        top_row = QHBoxLayout(self._top)
        top_row.setContentsMargins(0, 0, 0, 0)
        top_row.addWidget(self.level_combo)
        top_row.addWidget(self.scope_label, 1)
        upper_box.addWidget(self._top)
        upper_box.addWidget(self.view, 1)
        # Below the table: the scatter and the clusters side by side in a wide panel, as two
        # tabs in a narrow one (the dock at a side of a laptop's window).
        self.lower_tabs = QTabWidget()
        self.lower_tabs.setDocumentMode(True)
        self.lower_split = QSplitter(Qt.Orientation.Horizontal)
        lower = QWidget()
        lower_box = QVBoxLayout(lower)
        lower_box.setContentsMargins(0, 0, 0, 0)
        lower_box.addWidget(self.lower_tabs)
        lower_box.addWidget(self.lower_split)
        self._narrow: bool | None = None
        self._arrange(narrow=True)
        self.splitter = QSplitter(Qt.Orientation.Vertical)
        self.splitter.addWidget(upper)
        self.splitter.addWidget(lower)
        self.splitter.setChildrenCollapsible(False)
        self.add_body(self.splitter)

        # The run shown (None: none yet), and what the run in progress is for.
        self.run: AgreementRun | None = None
        self._running: tuple[tuple[object, ...], bool] | None = None
        # What the user cancelled the point values of (not run again until something changes).
        self._cancelled: tuple[object, ...] | None = None
        # The user's choices of metrics (key -> meta-evaluated), over the defaults.
        self._chosen: dict[str, bool] = {}
        # The metrics menu's entries (key, label, checked), as last built.
        self._menu: tuple[tuple[str, str, bool], ...] = ()
        # Bumped whenever the scores or the human judgements change.
        self._version = 0
        self.listen(link.session_changed, self._on_session_changed)
        self.listen(link.data_changed, self._on_data_changed)
        self.apply_theme()

    def _settings_menu(self) -> QMenu:
        """Resamples and permutations of the full run (the WMT tasks': 1,000 each)."""
        defaults = MetaEvalSettings()
        form = QWidget()
        layout = QFormLayout(form)
        layout.setContentsMargins(8, 6, 8, 6)
        for spin, value, label, tip in (
            (
                self.resamples_spin,
                defaults.confidence_samples,
                QCoreApplication.translate("agreement", "Resamples:"),
                QCoreApplication.translate(
                    "agreement",
                    "Segment resamples for the 95% intervals (WMT: 1,000; 0: no intervals)",
                ),
            ),
            (
                self.permutations_spin,
                defaults.permutations,
                QCoreApplication.translate("agreement", "Permutations:"),
                QCoreApplication.translate(
                    "agreement",
                    "Permutations of the test between two metrics (WMT: 1,000; 0: no clusters)",
                ),
            ),
        ):
            spin.setRange(0, 100_000)
            spin.setValue(value)
            spin.setToolTip(tip)
            spin.setKeyboardTracking(False)
            spin.setGroupSeparatorShown(True)
            spin.valueChanged.connect(self._on_choice_changed)
            layout.addRow(label, spin)
        menu = QMenu(self)
        action = QWidgetAction(menu)
        action.setDefaultWidget(form)
        menu.addAction(action)
        return menu

    def _arrange(self, *, narrow: bool) -> None:
        """The scatter and the clusters as tabs (narrow) or side by side (wide)."""
        if narrow == self._narrow:
            return
        self._narrow = narrow
        self.model.set_intervals(not narrow)
        if narrow:
            self.lower_tabs.addTab(self.scatter, QCoreApplication.translate("agreement", "Scatter"))
            self.lower_tabs.addTab(
                self.clusters, QCoreApplication.translate("agreement", "Clusters")
            )
        else:
            self.lower_split.addWidget(self.scatter)
            self.lower_split.addWidget(self.clusters)
            self.lower_split.setSizes([700, 300])
            self.scatter.show()  # a tab page that was not the current one is hidden
            self.clusters.show()
        self.lower_tabs.setVisible(narrow)
        self.lower_split.setVisible(not narrow)
        self._fit_rows()

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._arrange(narrow=event.size().width() < NARROW)
        self._fit_rows()

    # -- choices --------------------------------------------------------------------------------

    @property
    def human(self) -> HumanChoice | None:
        wanted = self.human_combo.currentData()
        core = self.link.core
        if core is None or not isinstance(wanted, str):
            return None
        return next((h for h in human_choices(core) if h.id == wanted), None)

    @property
    def level(self) -> Level:
        return "segment" if self.level_combo.currentData() == "segment" else "system"

    def metric_keys(self) -> tuple[str, ...]:
        """The score columns meta-evaluated: the user's choice, else the headline ones."""
        table = self.link.table
        if table is None:
            return ()
        columns = metric_choices(table, self.human)
        return tuple(c.key for c in columns if self._chosen.get(c.key, c.headline))

    def settings(self) -> MetaEvalSettings:
        """The full run's settings (the WMT ones unless changed)."""
        return MetaEvalSettings(
            confidence_samples=int(self.resamples_spin.value()),
            permutations=int(self.permutations_spin.value()),
        )

    def set_choices(
        self,
        *,
        human: str | None = None,
        metrics: Sequence[str] | None = None,
        quick: bool | None = None,
        resamples: int | None = None,
        permutations: int | None = None,
        level: Level | None = None,
    ) -> None:
        """Choose the human side (its id: ``column:KEY`` or ``system:NAME``), the metrics (their
        keys), quick mode, the full run's resamples and permutations, and the level shown."""
        self._update_choices()
        if human is not None:
            index = self.human_combo.findData(human)
            if index < 0:
                raise ValueError(f"{human!r} is not offered")
            self.human_combo.setCurrentIndex(index)
        table = self.link.table
        if metrics is not None and table is not None:
            offered = [c.key for c in metric_choices(table, self.human)]
            unknown = set(metrics) - set(offered)
            if unknown:
                raise ValueError(f"not offered: {sorted(unknown)}")
            self._chosen = {key: key in metrics for key in offered}
        for spin, value in (
            (self.resamples_spin, resamples),
            (self.permutations_spin, permutations),
        ):
            if value is not None:
                spin.setValue(value)
        if quick is not None:
            self.quick_check.setChecked(quick)
        if level is not None:
            self.level_combo.setCurrentIndex(self.level_combo.findData(level))
        self._update_choices()
        self.schedule()

    def _update_choices(self) -> None:
        core = self.link.core
        humans = [] if core is None else human_choices(core)
        fill_combo(self.human_combo, [(h.label, h.id) for h in humans])
        table = self.link.table
        human = self.human
        columns = [] if table is None else metric_choices(table, human)
        shown = tuple((c.key, c.label, self._chosen.get(c.key, c.headline)) for c in columns)
        if shown != self._menu:
            self._menu = shown
            self.metrics_menu.clear()
            for key, label, checked in shown:
                action = QAction(label, self.metrics_menu)
                action.setCheckable(True)
                action.setChecked(checked)
                action.setData(key)
                action.toggled.connect(self._on_metric_toggled)
                self.metrics_menu.addAction(action)
        self.metrics_button.setText(
            QCoreApplication.translate("agreement", "Metrics ({0})").format(
                sum(1 for *_, on in shown if on)
            )
        )
        segment = human is not None and human.level == "segment"
        item = self.level_combo.model().item(1)  # type: ignore[attr-defined]
        item.setEnabled(segment)
        if not segment and self.level_combo.currentData() == "segment":
            self.level_combo.setCurrentIndex(0)

    @Slot(bool)
    def _on_metric_toggled(self, checked: bool) -> None:
        action = self.sender()
        if isinstance(action, QAction):
            self._chosen[str(action.data())] = checked
        self.schedule()

    @Slot()
    def _on_choice_changed(self) -> None:
        self.schedule()

    @Slot()
    def _on_level_changed(self) -> None:
        if self.run is not None:
            self.model.set_run(self.run, self.level)
            self._fit_rows()
            self._show_clusters(self.run)

    @Slot()
    def _on_scatter_changed(self) -> None:
        table = self.link.table
        if self.run is not None and table is not None:
            self.scatter.draw(self.run, table.systems)

    @Slot()
    def _on_session_changed(self) -> None:
        self.job.cancel()
        self._running = None
        self.run = None
        self._chosen = {}
        self.model.set_run(None)
        fill_combo(self.human_combo, [])

    @Slot()
    def _on_data_changed(self) -> None:
        self._version += 1

    def judgements_changed(self, human: str | None = None) -> None:
        """The comparison's human judgements changed (loaded, replaced): offer them, and show
        ``human`` (an id) when given."""
        self._version += 1
        self._update_choices()
        index = -1 if human is None else self.human_combo.findData(human)
        if index >= 0:
            self.human_combo.setCurrentIndex(index)
        self.schedule()

    # -- running --------------------------------------------------------------------------------

    def refresh(self) -> None:
        self._update_choices()
        table = self.link.table
        core = self.link.core
        message = None
        human = self.human
        keys = self.metric_keys()
        rows = np.flatnonzero(self.link.population(self)).astype(np.int64)
        if table is None or core is None:
            message = QCoreApplication.translate(
                "agreement", "Open a comparison to see which metric agrees with human judgements."
            )
        elif len(table.systems) < 2:
            message = QCoreApplication.translate(
                "agreement", "Agreement with humans ranks systems: it needs two or more."
            )
        elif not table.complete:
            message = QCoreApplication.translate(
                "agreement", "Scoring… this view appears when every segment is scored."
            )
        elif human is None:
            message = QCoreApplication.translate(
                "agreement",
                "No human judgements yet. Load them with File ▸ Load human judgements… (scores "
                "per system such as WMT's DA table, scores per segment, or MQM error spans), "
                "or annotate segments (MQM or ESA) and compare with those.",
            )
        elif not keys:
            message = QCoreApplication.translate(
                "agreement", "Choose at least one metric (the Metrics button)."
            )
        elif rows.size == 0:
            message = QCoreApplication.translate("agreement", "No segments are selected.")
        if message is not None or table is None or human is None:
            self.job.cancel()
            self.show_placeholder(message or "")
            return
        settings = self.settings()
        fingerprint = (
            id(table),
            self._version,
            human.id,
            keys,
            rows.tobytes(),
            settings.confidence_samples,
            settings.permutations,
        )
        full = not self.quick_check.isChecked()
        run = self.run
        if run is not None and run.fingerprint == fingerprint:
            self.show_body()
            self._show(run)
            if run.full or not full:
                if self.job.running:
                    self.job.cancel()  # a full run no longer wanted
                return
            self._start(table, human, keys, rows, fingerprint, full=True)
            return
        if self._running is not None and self._running[0] == fingerprint:
            return
        if fingerprint == self._cancelled:
            self.show_placeholder(
                QCoreApplication.translate(
                    "agreement",
                    "Cancelled. Change the rows, the human side or the metrics to compute again.",
                )
            )
            return
        self.model.set_stale(run is not None)
        self._start(table, human, keys, rows, fingerprint, full=False)

    def _start(
        self,
        table: ScoreTable,
        human: HumanChoice,
        keys: tuple[str, ...],
        rows: IntArray,
        fingerprint: tuple[object, ...],
        *,
        full: bool,
    ) -> None:
        if self._running == (fingerprint, full):
            return
        settings = self.settings() if full else QUICK
        core = self.link.core
        filtered = core is not None and core.is_filtered()

        def work(cancelled: Callable[[], bool], progress: Callable[[float], None]) -> object:
            run = compute_agreement(
                table,
                keys,
                human,
                rows=rows,
                settings=settings,
                filtered=filtered,
                cancelled=cancelled,
                progress=progress,
            )
            return replace(run, full=full, fingerprint=fingerprint)

        self._running = (fingerprint, full)
        self._cancelled = None
        self.start_job(work)
        self.cancel_button.show()
        self._update_caption()

    def job_over(self) -> None:
        super().job_over()
        self.cancel_button.hide()
        self._running = None

    @Slot()
    def _on_cancel_clicked(self) -> None:
        """Stop the run: a full one leaves the point values shown and ticks Quick; the point
        values' run leaves a note until something changes."""
        running = self._running
        self.job.cancel()
        if running is None:
            return
        fingerprint, full = running
        if full:
            self.quick_check.setChecked(True)
        else:
            self._cancelled = fingerprint
            self.run = None
            self.model.set_run(None)
            self.show_placeholder(
                QCoreApplication.translate(
                    "agreement",
                    "Cancelled. Change the rows, the human side or the metrics to compute again.",
                )
            )

    def job_failed(self, message: str) -> None:
        self.run = None
        self.model.set_run(None)
        failure = QCoreApplication.translate("agreement", type(self).failure)
        self.show_placeholder(
            QCoreApplication.translate("agreement", "{failure}: {0}").format(
                message, failure=failure
            )
        )

    def job_done(self, result: object) -> None:
        if not isinstance(result, AgreementRun) or result.fingerprint == self._cancelled:
            return  # a run that ended before its cancel reached it
        self.run = result
        self.show_body()
        self._show(result)
        if not result.full and not self.quick_check.isChecked():
            self.schedule()  # the intervals and clusters next, if the rows are still these

    # -- showing --------------------------------------------------------------------------------

    def _show(self, run: AgreementRun) -> None:
        if self.model.run is not run:
            self.model.set_run(run, self.level)
            self._fit_rows()
        self.model.set_stale(False)
        fill_combo(self.scatter.combo, [(m.name, m.name) for m in run.result.metrics])
        table = self.link.table
        self.scatter.draw(run, () if table is None else table.systems)
        self._show_clusters(run)
        result = run.result
        if run.human.level == "segment":
            scope = (
                QCoreApplication.translate(
                    "agreement", "{0} systems judged, {1:,} selected segments, {2:,} judged pairs."
                )
                if run.filtered
                else QCoreApplication.translate(
                    "agreement", "{0} systems judged, {1:,} segments, {2:,} judged pairs."
                )
            )
        else:
            scope = (
                QCoreApplication.translate(
                    "agreement", "{0} systems judged, {1:,} selected segments."
                )
                if run.filtered
                else QCoreApplication.translate("agreement", "{0} systems judged, {1:,} segments.")
            )
        scope = scope.format(len(result.systems), run.n_rows, result.n_judged)
        if run.left_out:
            scope += " " + QCoreApplication.translate("agreement", "Left out: {0}.").format(
                "; ".join(run.left_out)
            )
        self.scope_label.setText(scope)
        self._update_caption()

    def _fit_rows(self) -> None:
        """Size the table to its cells and give it the height it needs, the scatter the rest
        (at least :data:`SCATTER_HEIGHT`)."""
        view = self.view
        view.resizeColumnsToContents()
        view.resizeRowsToContents()
        splitter = getattr(self, "splitter", None)
        total = 0 if splitter is None else sum(splitter.sizes())
        if splitter is None or total <= 0 or self.model.run is None:
            return
        header = view.horizontalHeader()
        wide = header.length() > view.viewport().width()
        table = (
            header.height()
            + sum(view.rowHeight(r) for r in range(self.model.rowCount()))
            + 2 * view.frameWidth()
            + (view.horizontalScrollBar().sizeHint().height() if wide else 0)
        )
        row = self._top
        above = row.heightForWidth(row.width()) if row.width() > 0 else -1
        spacing = max(0, self._upper_box.spacing())
        top = table + max(above, row.sizeHint().height()) + spacing + 6
        upper = max(min(top, total - SCATTER_HEIGHT), min(top, total // 3))
        splitter.setSizes([upper, total - upper])

    def _update_caption(self) -> None:
        run = self.run
        if run is None:
            self.caption.setText(
                QCoreApplication.translate(
                    "agreement", "Computing the agreement of each metric with the humans…"
                )
            )
            return
        settings = run.result.settings
        human = run.human.column
        against = (
            QCoreApplication.translate(
                "agreement",
                "Against {human} (higher is better), as mt-metrics-eval computes it for the "
                "WMT metrics task; both sides turned higher-is-better.",
            )
            if human.higher_is_better
            else QCoreApplication.translate(
                "agreement",
                "Against {human} (lower is better), as mt-metrics-eval computes it for the "
                "WMT metrics task; both sides turned higher-is-better.",
            )
        )
        parts = [against.format(human=human.label)]
        if run.full and settings.confidence_samples and run.human.level == "segment":
            interval = (
                QCoreApplication.translate(
                    "agreement",
                    "[low, high]: {confidence:.0%} interval, {samples:,} segment resamples.",
                )
                if self.model.intervals
                else QCoreApplication.translate(
                    "agreement",
                    "Tooltips give the {confidence:.0%} interval, {samples:,} segment resamples.",
                )
            )
            parts.append(
                interval.format(confidence=settings.confidence, samples=settings.confidence_samples)
            )
        if run.full and settings.permutations:
            parts.append(
                QCoreApplication.translate(
                    "agreement",
                    "(n): significance cluster, 1 = best ({0:,} permutations, p ≤ {p}).",
                ).format(settings.permutations, p=settings.p_threshold)
            )
        parts.append(QCoreApplication.translate("agreement", "Bold: best."))
        if self._running is not None and self._running[1] and not run.full:
            parts.append(
                QCoreApplication.translate("agreement", "Computing intervals and clusters…")
            )
        elif not run.full:
            parts.append(QCoreApplication.translate("agreement", "Quick: point values only."))
        text = " ".join(parts)
        self.caption.setText(text)

    def _show_clusters(self, run: AgreementRun) -> None:
        tree = self.clusters
        tree.clear()
        rankings = [r for r in run.result.rankings if r.level == self.level]
        if not rankings:
            why = (
                QCoreApplication.translate("agreement", "Quick: no permutation tests, no clusters.")
                if not run.full
                else QCoreApplication.translate(
                    "agreement", "No permutation tests (permutations 0, or one metric)."
                )
            )
            tree.addTopLevelItem(QTreeWidgetItem([why]))
            return
        for ranking in rankings:
            parent = QTreeWidgetItem([LABELS[ranking.statistic]])
            parent.setToolTip(0, MEANINGS[ranking.statistic])
            tree.addTopLevelItem(parent)
            groups: dict[int, list[tuple[str, float]]] = {}
            for name, value, cluster in zip(ranking.names, ranking.values, ranking.clusters):
                groups.setdefault(cluster, []).append((name, value))
            for cluster, members in groups.items():
                child = QTreeWidgetItem([f"{cluster}: " + ", ".join(n for n, _ in members)])
                child.setToolTip(0, "\n".join(f"{n}: {v:.3f}" for n, v in members))
                parent.addChild(child)
            parent.setExpanded(True)

    def apply_theme(self) -> None:
        self.model.dark = self.theme.dark
        self.scatter.graphics.setBackground(self.theme.background)
        self.style_plot(self.scatter.plot)

    @Slot()
    def _on_copy_clicked(self) -> None:
        clipboard = QGuiApplication.clipboard()
        if clipboard is not None:
            clipboard.setText(self.model.as_text())
