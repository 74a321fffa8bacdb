"""Paired significance tests against the baseline, on every row or on the current selection, laid
out as sacreBLEU prints them; and, on request, every pair of systems.

The numbers are :func:`core.analysis.columnstats.significance_by_column`'s (sacreBLEU 2.6.0's
paired bootstrap or approximate randomization, bit for bit, for BLEU and chrF; the same tests on
segment means for ROUGE and imported columns) and :func:`core.analysis.columnstats.
pairwise_for_column`'s. A run goes to a background job with a progress bar; when the selection
or the baseline changes, a run in progress is cancelled and finished results are marked as
belonging to the rows they were computed on. The matrix of every pair stars a pair only at the
Bonferroni-corrected level (0.05 over the number of pairs), and says so.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
from PySide6.QtCore import (
    QT_TRANSLATE_NOOP,
    QAbstractTableModel,
    QCoreApplication,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    Qt,
    Slot,
)
from PySide6.QtGui import QColor, QFont, QGuiApplication
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QHeaderView,
    QLabel,
    QPushButton,
    QSpinBox,
    QSplitter,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from matchlight.core.analysis.columnstats import (
    ALPHA,
    ColumnTest,
    NotTestable,
    Verdict,
    bonferroni_alpha,
    pairwise_for_column,
    pairwise_verdict,
    significance_by_column,
    significance_columns,
)
from matchlight.core.analysis.significance import (
    DEFAULT_AR_TRIALS,
    DEFAULT_BOOTSTRAP_SAMPLES,
    DEFAULT_SEED,
    PairwiseSignificance,
)
from matchlight.core.metrics.base import ScoreColumn
from matchlight.core.style.palette import theme
from matchlight.gui.charts.base import compact, fill_combo
from matchlight.gui.charts.jobpanel import JobPanel
from matchlight.gui.charts.link import ChartLink

__all__ = [
    "ALPHA",
    "PairwiseModel",
    "SignificanceModel",
    "SignificancePanel",
    "SignificanceRun",
    "format_p",
    "format_score",
    "verdict_colour",
]

Index = QModelIndex | QPersistentModelIndex


def verdict_colour(verdict: Verdict, dark: bool) -> QColor | None:
    """The text colour of a line significantly better (worse) than the one it is tested
    against: the palette's "better" ("worse") colour; None when not significant."""
    if verdict is None:
        return None
    colours = theme(dark)
    return QColor(colours.better_text if verdict == "better" else colours.worse_text)


def format_score(score: float, mean: float | None, ci: float | None, decimals: int) -> str:
    """sacreBLEU's ``score (mean ± ci)``."""
    text = f"{score:.{decimals}f}"
    if mean is not None and ci is not None:
        text += f" ({mean:.{decimals}f} ± {ci:.{decimals}f})"
    return text


def format_p(p: float) -> str:
    """sacreBLEU's ``(p = 0.0150)*``: a star when ``p <= 0.05``."""
    return f"(p = {p:.4f})" + ("*" if p <= ALPHA else "")


def _verdict_text(verdict: Verdict) -> str:
    return "" if verdict is None else f" {verdict}"


@dataclass(frozen=True, slots=True)
class SignificanceRun:
    """What one run computed, and on which rows."""

    tests: tuple[ColumnTest, ...]
    pairwise: PairwiseSignificance | None
    pairwise_column: ScoreColumn | None
    pairwise_reason: str | None
    rows: int
    filtered: bool
    test: str
    n_samples: int
    seed: int
    baseline: str
    external: frozenset[str]


class SignificanceModel(QAbstractTableModel):
    """Rows: the baseline, then the other systems; columns: the tested score columns. Each
    cell is sacreBLEU's two lines, ``score (mean ± ci)`` and ``(p = …)*``, at the column's
    precision; a significant difference adds ``better`` or ``worse`` by the column's direction
    (a lower MQM penalty is better), in the theme's colour. ``Qt.UserRole`` gives the
    :class:`~core.analysis.significance.SystemSignificance`."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._run: SignificanceRun | None = None
        self._tests: tuple[ColumnTest, ...] = ()
        self._verdicts: tuple[tuple[Verdict, ...], ...] = ()
        self.stale = False
        self.dark = False

    def set_dark(self, dark: bool) -> None:
        """Colour the verdicts for a dark (or light) background."""
        if dark != self.dark:
            self.dark = dark
            self.set_stale(self.stale, force=True)

    def set_run(self, run: SignificanceRun | None) -> None:
        self.beginResetModel()
        self._run = run
        self._tests = () if run is None else tuple(t for t in run.tests if t.result is not None)
        self._verdicts = tuple(t.verdicts() for t in self._tests)
        self.stale = False
        self.endResetModel()

    def verdict(self, row: int, column: int) -> Verdict:
        """Line ``row`` of column ``column`` against the baseline: better, worse or None."""
        return self._verdicts[column][row]

    def set_stale(self, stale: bool, *, force: bool = False) -> None:
        if stale != self.stale or force:
            self.stale = stale
            if self.rowCount() and self.columnCount():
                self.dataChanged.emit(
                    self.index(0, 0), self.index(self.rowCount() - 1, self.columnCount() - 1)
                )

    @property
    def run(self) -> SignificanceRun | None:
        return self._run

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        if parent.isValid() or not self._tests:
            return 0
        first = self._tests[0].result
        return 0 if first is None else len(first.systems)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._tests)

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or not self.hasIndex(index.row(), index.column()):
            return None
        test = self._tests[index.column()]
        result = test.result
        if result is None:  # pragma: no cover - only tested columns are listed
            return None
        line = result.systems[index.row()]
        decimals = test.column.decimals
        verdict = self.verdict(index.row(), index.column())
        untested = test.why_untested(index.row())
        if untested is not None and role in (
            Qt.ItemDataRole.DisplayRole,
            Qt.ItemDataRole.ToolTipRole,
            Qt.ItemDataRole.FontRole,
        ):
            if role == Qt.ItemDataRole.FontRole:
                return None
            empty = line.name in test.untested
            score = "—" if empty else format_score(line.score, line.mean, line.ci, decimals)
            if role == Qt.ItemDataRole.ToolTipRole:
                return QCoreApplication.translate(
                    "SignificanceModel", "{0} of {1}: {untested} on these rows"
                ).format(test.column.label, line.name, untested=untested)
            return f"{score}\n{untested}"
        if role == Qt.ItemDataRole.DisplayRole:
            text = format_score(line.score, line.mean, line.ci, decimals)
            if line.p_value is not None:
                text += "\n" + format_p(line.p_value) + _verdict_text(verdict)
            return text
        if role == Qt.ItemDataRole.UserRole:
            return line
        if role == Qt.ItemDataRole.TextAlignmentRole:
            return int(Qt.AlignmentFlag.AlignCenter)
        if role == Qt.ItemDataRole.FontRole and line.p_value is not None:
            font = QFont()
            font.setBold(line.p_value <= ALPHA)
            return font
        if role == Qt.ItemDataRole.ForegroundRole:
            if self.stale:
                return QGuiApplication.palette().placeholderText()
            return verdict_colour(verdict, self.dark)
        if role == Qt.ItemDataRole.ToolTipRole:
            column = test.column
            way = "higher" if column.higher_is_better else "lower"
            parts = [f"{column.label} of {line.name} over {test.n_rows:,} segments: {line.score!r}"]
            if line.mean is not None and line.ci is not None:
                parts.append(
                    QCoreApplication.translate(
                        "SignificanceModel", "bootstrap mean {0!r}, 95% CI ± {1!r}"
                    ).format(line.mean, line.ci)
                )
            if line.p_value is not None:
                parts.append(
                    QCoreApplication.translate(
                        "SignificanceModel", "p-value {0!r} against the baseline"
                    ).format(line.p_value)
                )
                said = (
                    QCoreApplication.translate(
                        "SignificanceModel", "{verdict} than the baseline"
                    ).format(verdict=verdict)
                    if verdict
                    else QCoreApplication.translate(
                        "SignificanceModel", "no significant difference"
                    )
                )
                parts.append(f"{said} ({way} is better, p ≤ {ALPHA})")
            return "\n".join(parts)
        return None

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if role != Qt.ItemDataRole.DisplayRole:
            return None
        if orientation == Qt.Orientation.Horizontal:
            if not 0 <= section < len(self._tests):
                return None
            column = self._tests[section].column
            return f"{column.short} (μ ± 95% CI)"
        if not 0 <= section < self.rowCount():
            return None
        result = self._tests[0].result
        assert result is not None
        name = result.systems[section].name
        return f"Baseline: {name}" if section == 0 else name

    def as_text(self) -> str:
        """The table as sacreBLEU prints it, in plain text (for the clipboard)."""
        header = ["System"] + [
            str(self.headerData(c, Qt.Orientation.Horizontal)) for c in range(self.columnCount())
        ]
        rows = []
        for r in range(self.rowCount()):
            cells = [
                str(self.data(self.index(r, c))).split("\n") for c in range(self.columnCount())
            ]
            name = str(self.headerData(r, Qt.Orientation.Vertical))
            rows.append([name, *(c[0] for c in cells)])
            if any(len(c) > 1 for c in cells):
                rows.append(["", *(c[1] if len(c) > 1 else "" for c in cells)])
        widths = [max(len(line[i]) for line in [header, *rows]) for i in range(len(header))]
        lines = [" | ".join(h.center(w) for h, w in zip(header, widths))]
        lines.append("-+-".join("-" * w for w in widths))
        for line in rows:
            lines.append(
                " | ".join(
                    (cell.rjust(w) if i == 0 else cell.center(w))
                    for i, (cell, w) in enumerate(zip(line, widths))
                )
            )
        return "\n".join(lines)


class PairwiseModel(QAbstractTableModel):
    """Every system against every other: the p-value of each pair (the diagonal is empty).

    With N systems the matrix holds N(N-1)/2 tests, so a pair is starred, bold and coloured
    better or worse only at the Bonferroni-corrected level :attr:`alpha` (0.05 over the
    number of pairs), the level the note under it recommends."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._result: PairwiseSignificance | None = None
        self._column: ScoreColumn | None = None
        self.alpha = ALPHA
        self.dark = False

    def set_result(
        self, result: PairwiseSignificance | None, column: ScoreColumn | None = None
    ) -> None:
        """Show ``result``, the pairs tested on ``column`` (its precision and direction)."""
        self.beginResetModel()
        self._result = result
        self._column = column
        self.alpha = ALPHA if result is None else bonferroni_alpha(len(result.names))
        self.endResetModel()

    def verdict(self, row: int, column: int) -> Verdict:
        """The row's system against the column's, at the corrected level: better, worse or
        None."""
        if self._result is None or self._column is None:
            return None
        return pairwise_verdict(self._column, self._result, row, column, self.alpha)

    @property
    def result(self) -> PairwiseSignificance | None:
        return self._result

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() or self._result is None else len(self._result.names)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return self.rowCount(parent)

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        result = self._result
        if result is None or not index.isValid() or not self.hasIndex(index.row(), index.column()):
            return None
        p = result.p_values[index.row()][index.column()]
        if role == Qt.ItemDataRole.DisplayRole:
            return "—" if p is None else f"{p:.4f}" + ("*" if p <= self.alpha else "")
        if role == Qt.ItemDataRole.UserRole:
            return p
        if role == Qt.ItemDataRole.ForegroundRole:
            return verdict_colour(self.verdict(index.row(), index.column()), self.dark)
        if role == Qt.ItemDataRole.TextAlignmentRole:
            return int(Qt.AlignmentFlag.AlignCenter)
        if role == Qt.ItemDataRole.FontRole and p is not None:
            font = QFont()
            font.setBold(p <= self.alpha)
            return font
        if role == Qt.ItemDataRole.ToolTipRole and p is not None:
            a, b = result.names[index.row()], result.names[index.column()]
            verdict = self.verdict(index.row(), index.column())
            said = f": {a} is {verdict}" if verdict else ""
            level = QCoreApplication.translate(
                "PairwiseModel", "significant at p ≤ {0:.4g} (Bonferroni: {ALPHA} / pairs)"
            ).format(self.alpha, ALPHA=ALPHA)
            return f"{a} against {b}: p = {p!r}{said}\n{level}"
        return None

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        result = self._result
        if result is None or role != Qt.ItemDataRole.DisplayRole:
            return None
        if not 0 <= section < len(result.names):
            return None
        score = result.scores[section]
        decimals = 1 if self._column is None else self._column.decimals
        return f"{result.names[section]} ({score:.{decimals}f})"


def _table_view(model: QAbstractTableModel) -> QTableView:
    view = QTableView()
    view.setModel(model)
    view.setEditTriggers(QTableView.EditTrigger.NoEditTriggers)
    view.setSelectionMode(QTableView.SelectionMode.NoSelection)
    view.setWordWrap(True)
    view.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
    view.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
    view.horizontalHeader().setStretchLastSection(False)
    return view


class SignificancePanel(JobPanel):
    """The paired tests of the current rows against the baseline, and the pairwise matrix."""

    title = QT_TRANSLATE_NOOP("ChartPanel", "Significance")
    job_name = "matchlight-significance"
    failure = QT_TRANSLATE_NOOP("SignificancePanel", "The tests failed")
    progress_width = 180
    progress_text = True

    def __init__(self, link: ChartLink, parent: QWidget | None = None) -> None:
        super().__init__(link, parent)
        self.export_button.hide()  # a table: "Copy" gives its text
        self.test_combo = QComboBox()
        self.test_combo.addItem(
            QCoreApplication.translate(
                "SignificancePanel", "Paired bootstrap ({DEFAULT_BOOTSTRAP_SAMPLES:,} resamples)"
            ).format(DEFAULT_BOOTSTRAP_SAMPLES=DEFAULT_BOOTSTRAP_SAMPLES),
            "bs",
        )
        self.test_combo.addItem(
            QCoreApplication.translate(
                "SignificancePanel", "Approximate randomization ({DEFAULT_AR_TRIALS:,} trials)"
            ).format(DEFAULT_AR_TRIALS=DEFAULT_AR_TRIALS),
            "ar",
        )
        self.test_combo.setToolTip(
            QCoreApplication.translate(
                "SignificancePanel", "sacreBLEU's --paired-bs or --paired-ar"
            )
        )
        self.seed_spin = QSpinBox()
        self.seed_spin.setRange(0, 2**31 - 1)
        self.seed_spin.setValue(DEFAULT_SEED)
        self.seed_spin.setToolTip(
            QCoreApplication.translate(
                "SignificancePanel", "The random seed (sacreBLEU's default: 12345)"
            )
        )
        self.pairwise_check = QCheckBox(
            QCoreApplication.translate("SignificancePanel", "All pairs of")
        )
        self.pairwise_check.setToolTip(
            QCoreApplication.translate(
                "SignificancePanel",
                "Also test every pair of systems on one column (many tests: see the note)",
            )
        )
        self.pairwise_combo = QComboBox()
        self.pairwise_combo.setEnabled(False)
        self.pairwise_check.toggled.connect(self.pairwise_combo.setEnabled)
        self.run_button = QPushButton(QCoreApplication.translate("SignificancePanel", "Run"))
        self.run_button.setToolTip(
            QCoreApplication.translate(
                "SignificancePanel", "Test every system against the baseline on the rows shown"
            )
        )
        self.run_button.clicked.connect(self._on_run_clicked)
        self.cancel_button = QPushButton(QCoreApplication.translate("SignificancePanel", "Cancel"))
        self.cancel_button.clicked.connect(self._on_cancel_clicked)
        self.cancel_button.hide()
        self.copy_button = QPushButton(QCoreApplication.translate("SignificancePanel", "Copy"))
        self.copy_button.setToolTip(
            QCoreApplication.translate("SignificancePanel", "Copy the table as text")
        )
        self.copy_button.clicked.connect(self._on_copy_clicked)
        self.scope_label = QLabel()
        for widget in (
            QLabel(QCoreApplication.translate("SignificancePanel", "Test:")),
            self.test_combo,
            QLabel(QCoreApplication.translate("SignificancePanel", "Seed:")),
            self.seed_spin,
            self.pairwise_check,
            self.pairwise_combo,
            self.run_button,
            self.cancel_button,
            self.progress,
            self.copy_button,
        ):
            self.controls.addWidget(widget)
        self.controls.addStretch(1)
        compact(self.test_combo, 24)
        compact(self.pairwise_combo)
        self.scope_label.setWordWrap(True)

        self.model = SignificanceModel(self)
        self.pairwise_model = PairwiseModel(self)
        self.view = _table_view(self.model)
        self.pairwise_view = _table_view(self.pairwise_model)
        self.pairwise_note = QLabel()
        self.pairwise_note.setWordWrap(True)
        splitter = QSplitter(Qt.Orientation.Vertical)
        splitter.addWidget(self.view)
        holder = QWidget()
        inner = QVBoxLayout(holder)
        inner.setContentsMargins(0, 0, 0, 0)
        inner.addWidget(self.pairwise_note)
        inner.addWidget(self.pairwise_view, 1)
        splitter.addWidget(holder)
        holder.hide()
        self._pairwise_holder = holder
        self.add_body(self.scope_label, 0)
        self.add_body(splitter)

        self._computed_on: tuple[object, ...] | None = None
        self.listen(link.selection_changed, self._on_rows_changed)
        self.listen(link.baseline_changed, self._on_rows_changed)
        self.listen(link.session_changed, self._on_session_changed)
        self.apply_theme()

    def apply_theme(self) -> None:
        self.model.set_dark(self.theme.dark)
        self.pairwise_model.dark = self.theme.dark

    # -- state ----------------------------------------------------------------------------------

    def _scope(self) -> tuple[np.ndarray, bool]:
        core = self.link.core
        if core is None:
            return np.zeros(0, np.int64), False
        return core.selected_rows(), core.is_filtered()

    def _fingerprint(self) -> tuple[object, ...]:
        core = self.link.core
        if core is None:
            return ()
        rows, _ = self._scope()
        return (id(core.table), core.baseline, len(core.table.columns), rows.tobytes())

    def refresh(self) -> None:
        table = self.link.table
        if table is None:
            self.show_placeholder(
                QCoreApplication.translate(
                    "SignificancePanel",
                    "Open a comparison to test the systems against each other.",
                )
            )
            return
        if len(table.systems) < 2:
            self.show_placeholder(
                QCoreApplication.translate(
                    "SignificancePanel", "A paired test needs at least two systems."
                )
            )
            return
        self.show_body()
        items: list[tuple[str, object]] = [(c.label, c.key) for c in significance_columns(table)]
        fill_combo(self.pairwise_combo, items)
        rows, filtered = self._scope()
        core = self.link.core
        assert core is not None
        baseline = table.systems[core.baseline]
        what = (
            QCoreApplication.translate("SignificancePanel", "the {0:,} selected segments").format(
                len(rows)
            )
            if filtered
            else QCoreApplication.translate("SignificancePanel", "all {0:,} segments").format(
                len(rows)
            )
        )
        self.scope_label.setText(
            QCoreApplication.translate(
                "SignificancePanel", "On {what}, against {baseline}."
            ).format(what=what, baseline=baseline)
        )
        self.run_button.setEnabled(table.complete and len(rows) > 0)
        if not table.complete:
            self.run_button.setToolTip(
                QCoreApplication.translate(
                    "SignificancePanel", "Wait until every segment is scored"
                )
            )
        self.model.set_stale(
            self._computed_on is not None and self._computed_on != self._fingerprint()
        )
        self._update_caption()

    def _update_caption(self) -> None:
        run = self.model.run
        if run is None:
            self.caption.setText(
                QCoreApplication.translate(
                    "SignificancePanel",
                    "Each system is tested against the baseline on the segments shown, as "
                    "sacreBLEU's --paired-bs / --paired-ar do. Press Run.",
                )
            )
            return
        kind = (
            QCoreApplication.translate(
                "SignificancePanel", "Paired bootstrap resampling with {0:,} resamples"
            ).format(run.n_samples)
            if run.test == "bs"
            else QCoreApplication.translate(
                "SignificancePanel",
                "Paired approximate randomization with {0:,} trials (means and intervals "
                "from {DEFAULT_BOOTSTRAP_SAMPLES:,} bootstrap resamples)",
            ).format(run.n_samples, DEFAULT_BOOTSTRAP_SAMPLES=DEFAULT_BOOTSTRAP_SAMPLES)
        )
        scope = f"{run.rows:,} {'selected ' if run.filtered else ''}segments"
        skipped = [
            f"{t.column.label}: {t.reason}" for t in run.tests if t.result is None and t.reason
        ]
        partial = [
            QCoreApplication.translate(
                "SignificancePanel", "{0} ({1:,} segments lack a value for some system)"
            ).format(t.column.label, t.incomplete)
            for t in run.tests
            if t.result is not None and t.incomplete
        ]
        text = QCoreApplication.translate(
            "SignificancePanel",
            "{kind}, seed {0}, on {scope}, against {1}. Score (bootstrap mean ± 95% "
            "CI); p is the probability of a difference at least this large if the "
            "system and the baseline came from the same process; * marks p ≤ {ALPHA}, "
            "and then better or worse than the baseline says which way, by the "
            "column's direction.",
        ).format(run.seed, run.baseline, kind=kind, scope=scope, ALPHA=ALPHA)
        lower = [t.column.label for t in run.tests if not t.column.higher_is_better]
        if lower:
            text += QCoreApplication.translate(
                "SignificancePanel", " Lower is better for {0}."
            ).format(", ".join(lower))
        if partial:
            text += (
                QCoreApplication.translate(
                    "SignificancePanel",
                    " Each system's figure is its mean over the segments where it has a value: ",
                )
                + ", ".join(partial)
                + "."
            )
        if skipped:
            text += (
                QCoreApplication.translate("SignificancePanel", " Not tested — ")
                + "; ".join(skipped)
                + "."
            )
        if self.model.stale:
            text = (
                QCoreApplication.translate(
                    "SignificancePanel",
                    "These results are for other rows or another baseline: run again. ",
                )
                + text
            )
        self.caption.setText(text)

    # -- running --------------------------------------------------------------------------------

    def run(self, *, test: str | None = None, n_samples: int | None = None) -> None:
        """Start the tests on the current rows (``test`` ``bs`` or ``ar``; ``n_samples``
        overrides sacreBLEU's default count, for quick looks and tests)."""
        table = self.link.table
        core = self.link.core
        if table is None or core is None or len(table.systems) < 2:
            return
        kind = test or str(self.test_combo.currentData())
        rows, filtered = self._scope()
        baseline = core.baseline
        seed = int(self.seed_spin.value())
        keys = [c.key for c in significance_columns(table)]
        pair_key = self.pairwise_combo.currentData() if self.pairwise_check.isChecked() else None
        count = n_samples or (DEFAULT_BOOTSTRAP_SAMPLES if kind == "bs" else DEFAULT_AR_TRIALS)
        external = frozenset(table.external)
        fingerprint = self._fingerprint()

        def work(cancelled: Callable[[], bool], progress: Callable[[float], None]) -> object:
            share = 0.7 if pair_key else 1.0
            tests = significance_by_column(
                table,
                keys,
                baseline=baseline,
                rows=rows,
                test=kind,  # type: ignore[arg-type]
                n_samples=count,
                seed=seed,
                cancel=cancelled,
                progress=lambda f: progress(share * f),
            )
            pairwise = None
            reason = None
            column = None
            if isinstance(pair_key, str):
                column = table.column_info(pair_key)
                try:
                    pairwise = pairwise_for_column(
                        table,
                        pair_key,
                        rows=rows,
                        test=kind,  # type: ignore[arg-type]
                        n_samples=count,
                        seed=seed,
                        cancel=cancelled,
                        progress=lambda f: progress(share + (1 - share) * f),
                    )
                except NotTestable as why:
                    reason = str(why)
            run = SignificanceRun(
                tests=tests,
                pairwise=pairwise,
                pairwise_column=column,
                pairwise_reason=reason,
                rows=len(rows),
                filtered=filtered,
                test=kind,
                n_samples=count,
                seed=seed,
                baseline=table.systems[baseline],
                external=external,
            )
            return (fingerprint, run)

        self.cancel_button.show()
        self.run_button.setEnabled(False)
        self.start_job(work)

    @Slot()
    def _on_run_clicked(self) -> None:
        self.run()

    @Slot()
    def _on_cancel_clicked(self) -> None:
        self.job.cancel()

    @Slot()
    def _on_copy_clicked(self) -> None:
        text = self.model.as_text()
        if self.pairwise_model.result is not None:
            text += "\n\n" + self.pairwise_note.text()
        clipboard = QGuiApplication.clipboard()
        if clipboard is not None:
            clipboard.setText(text)

    @Slot()
    def _on_rows_changed(self) -> None:
        if self.job.running:
            self.job.cancel()
            self.link.message.emit(
                QCoreApplication.translate(
                    "SignificancePanel",
                    "The selection changed: the significance run was cancelled.",
                )
            )
        self.schedule()

    @Slot()
    def _on_session_changed(self) -> None:
        self.job.cancel()
        self._computed_on = None
        self.model.set_run(None)
        self.pairwise_model.set_result(None)
        self._pairwise_holder.hide()

    def job_over(self) -> None:
        super().job_over()
        self.cancel_button.hide()
        table = self.link.table
        self.run_button.setEnabled(table is not None and table.complete)

    def job_failed(self, message: str) -> None:
        failure = QCoreApplication.translate("SignificancePanel", type(self).failure)
        self.caption.setText(
            QCoreApplication.translate("SignificancePanel", "{failure}: {0}").format(
                message, failure=failure
            )
        )

    def job_done(self, payload: object) -> None:
        if not isinstance(payload, tuple):
            return
        fingerprint, run = payload
        self._computed_on = fingerprint
        self.model.set_run(run)
        self._show_pairwise(run)
        self.model.set_stale(fingerprint != self._fingerprint())
        self._update_caption()

    def _show_pairwise(self, run: SignificanceRun) -> None:
        result = run.pairwise
        self.pairwise_model.set_result(result, run.pairwise_column)
        if result is None and run.pairwise_reason is None:
            self._pairwise_holder.hide()
            return
        self._pairwise_holder.show()
        if result is None:
            self.pairwise_note.setText(
                QCoreApplication.translate("SignificancePanel", "All pairs not tested: {0}").format(
                    run.pairwise_reason
                )
            )
            return
        n = len(result.names)
        pairs = n * (n - 1) // 2
        corrected = bonferroni_alpha(n)
        label = run.pairwise_column.label if run.pairwise_column is not None else ""
        text = QCoreApplication.translate(
            "SignificancePanel",
            "{label}: p-values of every pair of systems ({pairs} tests, the same "
            "resamples). Many pairwise tests inflate false positives: at p ≤ {ALPHA}, "
            "about one pair in twenty looks significant by chance alone, so * (bold, "
            "coloured) marks p ≤ {corrected:.4g}, the Bonferroni-corrected level "
            "({ALPHA} / {pairs}).",
        ).format(label=label, pairs=pairs, ALPHA=ALPHA, corrected=corrected)
        smallest = 1 / (result.n_samples + 1)
        if corrected < smallest:  # sacreBLEU's p-values are (count + 1) / (draws + 1)
            draws = "resamples" if result.test == "bs" else "trials"
            text += QCoreApplication.translate(
                "SignificancePanel",
                " With {0:,} {draws} no p-value is below {smallest:.4g}: no pair can "
                "reach that level.",
            ).format(result.n_samples, draws=draws, smallest=smallest)
        self.pairwise_note.setText(text)
