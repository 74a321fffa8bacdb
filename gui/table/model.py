"""The segment table: a thin Qt adapter over ``core``'s texts and columnar scores.

One row per segment. Nothing per row is built up front: :meth:`SegmentTableModel.data` reads the
strings of :class:`~core.scoring.engine.CorpusText` and the numpy arrays of
:class:`~core.scoring.results.ScoreTable` directly, so 100,000 rows cost no more than 100.

Custom roles (module constants) give views, proxies and delegates what they need without parsing
display strings: :data:`SORT_ROLE` (a numeric or text sort key), :data:`RECORD_ROLE` (the
:class:`~core.scoring.results.SegmentScores` record), :data:`COLUMN_KIND_ROLE`, :data:`SYSTEM_ROLE`,
:data:`REF_ROLE` and :data:`SEGMENT_ROLE`.
"""

from __future__ import annotations

import html
import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt
from PySide6.QtCore import (
    QAbstractTableModel,
    QByteArray,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    Qt,
    Slot,
)

from matchlight.core.scoring.results import ScoreTable, SegmentScores
from matchlight.core.text.corpus import CorpusText

#: Numeric sort key (float score, NaN while unscored; int segment) or the text of text columns.
SORT_ROLE = int(Qt.ItemDataRole.UserRole) + 1
#: The :class:`~core.scoring.results.SegmentScores` of the cell's system and row (None while
# unscored).
RECORD_ROLE = int(Qt.ItemDataRole.UserRole) + 2
#: The column kind: one of :data:`COLUMN_KINDS`.
COLUMN_KIND_ROLE = int(Qt.ItemDataRole.UserRole) + 3
#: The system index of hypothesis, score and delta columns (None elsewhere).
SYSTEM_ROLE = int(Qt.ItemDataRole.UserRole) + 4
#: The reference index of reference columns (None elsewhere).
REF_ROLE = int(Qt.ItemDataRole.UserRole) + 5
#: The 0-based segment of the row (survives any proxy).
SEGMENT_ROLE = int(Qt.ItemDataRole.UserRole) + 6

COLUMN_KINDS: tuple[str, ...] = ("segment", "source", "reference", "hypothesis", "score", "delta")
TEXT_KINDS: frozenset[str] = frozenset({"source", "reference", "hypothesis"})
NUMERIC_KINDS: frozenset[str] = frozenset({"score", "delta"})

#: (metric, short title) of the per-system score columns, in display order.
SCORE_COLUMNS: tuple[tuple[str, str], ...] = (
    ("bleu", "BLEU"),
    ("rouge1_f", "R-1"),
    ("rouge2_f", "R-2"),
    ("rougeL_f", "R-L"),
)
#: The metric compared in the delta columns.
DELTA_METRIC = "bleu"
PENDING = "…"
_ROOT = QModelIndex()
_TOOLTIP_TEXT_LIMIT = 1000

_DISPLAY = int(Qt.ItemDataRole.DisplayRole)
_TOOLTIP = int(Qt.ItemDataRole.ToolTipRole)
_ALIGN = int(Qt.ItemDataRole.TextAlignmentRole)
#: Every role the model answers; the others (asked for each cell on every paint: font,
#: colours, decoration, check state, ...) get None at once.
ANSWERED_ROLES = frozenset(
    {
        _DISPLAY,
        _TOOLTIP,
        _ALIGN,
        int(Qt.ItemDataRole.AccessibleTextRole),
        SORT_ROLE,
        RECORD_ROLE,
        COLUMN_KIND_ROLE,
        SYSTEM_ROLE,
        REF_ROLE,
        SEGMENT_ROLE,
    }
)
_NUM_ALIGN = Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter
_TEXT_ALIGN = Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter

_ROUGE_NAMES = {"rouge1": "ROUGE-1", "rouge2": "ROUGE-2", "rougeL": "ROUGE-L"}

FloatArray = npt.NDArray[np.float64]


@dataclass(frozen=True, slots=True)
class ColumnInfo:
    """What one column shows.

    ``system`` is set for hypothesis, score and delta columns (for a delta column: the system
    compared against the baseline), ``reference`` for reference columns, ``metric`` for score
    and delta columns (a name from :meth:`core.scoring.config.ScoringConfig.metric_names`).
    """

    kind: str
    system: int | None = None
    reference: int | None = None
    metric: str | None = None


class SegmentTableModel(QAbstractTableModel):
    """Segments as rows; source, references, system outputs and their scores as columns.

    Columns: ``#``, ``Source`` (if any), one per reference, then per system its output and the
    ``BLEU``, ``R-1``, ``R-2``, ``R-L`` (F-measure) score columns, then, with two or more systems,
    one ``ΔBLEU`` column per non-baseline system (system minus baseline). Changing the baseline
    relabels the delta columns in place (the column count never changes).

    Scores show one decimal on the 0-100 scale, or ``…`` while the row is not scored yet.
    """

    def __init__(
        self,
        text: CorpusText,
        source: Sequence[str] | None,
        table: ScoreTable,
        baseline: int = 0,
        parent: QObject | None = None,
        *,
        reference_names: Sequence[str] | None = None,
    ) -> None:
        super().__init__(parent)
        n = len(text)
        if source is not None and len(source) != n:
            raise ValueError(f"the source has {len(source)} lines but the texts have {n}")
        if reference_names is not None and len(reference_names) != len(text.references):
            raise ValueError(
                f"{len(reference_names)} reference names for {len(text.references)} references"
            )
        self._text = text
        self._source: Sequence[str] | None = source
        self._reference_names = (
            tuple(reference_names)
            if reference_names is not None
            else tuple(f"Ref {r + 1}" for r in range(len(text.references)))
        )
        self._check_table(table)
        self._table = table
        n_sys = len(text.systems)
        if not 0 <= baseline < n_sys:
            raise ValueError(f"baseline must be a system index 0..{n_sys - 1}, not {baseline}")
        self._baseline = baseline
        self._columns: list[ColumnInfo] = []
        self._metric_col: list[int] = []  # per column: index into table.metrics, or -1
        self._build_columns()

    # -- structure --------------------------------------------------------------------------

    def _check_table(self, table: ScoreTable) -> None:
        if table.n_segments != len(self._text):
            raise ValueError(
                f"the score table has {table.n_segments} segments but the texts have "
                f"{len(self._text)}"
            )
        if tuple(table.systems) != tuple(self._text.system_names):
            raise ValueError(
                f"the score table is for systems {list(table.systems)}, "
                f"the texts for {list(self._text.system_names)}"
            )

    def _shown_metrics(self, table: ScoreTable) -> list[tuple[str, str]]:
        return [(m, title) for m, title in SCORE_COLUMNS if m in table.metrics]

    def _build_columns(self) -> None:
        cols: list[ColumnInfo] = [ColumnInfo("segment")]
        if self._source is not None:
            cols.append(ColumnInfo("source"))
        cols += [ColumnInfo("reference", reference=r) for r in range(len(self._text.references))]
        metrics = self._shown_metrics(self._table)
        n_sys = len(self._text.systems)
        for s in range(n_sys):
            cols.append(ColumnInfo("hypothesis", system=s))
            cols += [ColumnInfo("score", system=s, metric=m) for m, _ in metrics]
        if n_sys >= 2:
            cols += [
                ColumnInfo("delta", system=s, metric=DELTA_METRIC)
                for s in range(n_sys)
                if s != self._baseline
            ]
        self._columns = cols
        index = self._table.metrics.index
        self._metric_col = [-1 if c.metric is None else index(c.metric) for c in cols]

    # -- public API -------------------------------------------------------------------------

    @property
    def text(self) -> CorpusText:
        return self._text

    @property
    def source(self) -> Sequence[str] | None:
        return self._source

    @property
    def table(self) -> ScoreTable:
        return self._table

    @property
    def baseline(self) -> int:
        return self._baseline

    @property
    def reference_names(self) -> tuple[str, ...]:
        return self._reference_names

    def column_info(self, col: int) -> ColumnInfo:
        """What column ``col`` shows (IndexError outside the model)."""
        if not 0 <= col < len(self._columns):
            raise IndexError(f"column {col} out of range 0..{len(self._columns) - 1}")
        return self._columns[col]

    def columns_of_kind(self, kind: str) -> list[int]:
        """All columns of one kind, left to right."""
        if kind not in COLUMN_KINDS:
            raise ValueError(f"unknown column kind {kind!r}; expected one of {COLUMN_KINDS}")
        return [c for c, info in enumerate(self._columns) if info.kind == kind]

    def text_columns(self) -> list[int]:
        """Source, reference and hypothesis columns."""
        return [c for c, info in enumerate(self._columns) if info.kind in TEXT_KINDS]

    def hypothesis_column(self, system: int) -> int:
        return self._find(ColumnInfo("hypothesis", system=system))

    def reference_column(self, reference: int) -> int:
        return self._find(ColumnInfo("reference", reference=reference))

    def score_column(self, system: int, metric: str) -> int:
        return self._find(ColumnInfo("score", system=system, metric=metric))

    def delta_column(self, system: int) -> int:
        return self._find(ColumnInfo("delta", system=system, metric=DELTA_METRIC))

    def _find(self, info: ColumnInfo) -> int:
        try:
            return self._columns.index(info)
        except ValueError:
            raise KeyError(f"this model has no column {info}") from None

    def strings(self, col: int) -> Sequence[str]:
        """All strings of a text column, indexed by segment."""
        info = self.column_info(col)
        if info.kind == "source" and self._source is not None:
            return self._source
        if info.kind == "reference" and info.reference is not None:
            return self._text.references[info.reference]
        if info.kind == "hypothesis" and info.system is not None:
            return self._text.systems[info.system]
        raise ValueError(f"column {col} ({info.kind}) is not a text column")

    def values(self, col: int) -> FloatArray:
        """Per-segment numbers of a score or delta column (NaN where not scored)."""
        info = self.column_info(col)
        if info.kind not in NUMERIC_KINDS or info.system is None or info.metric is None:
            raise ValueError(f"column {col} ({info.kind}) is not a score column")
        m = self._metric_col[col]
        scores = self._table.scores
        if info.kind == "delta":
            return scores[info.system, :, m] - scores[self._baseline, :, m]
        return scores[info.system, :, m]

    def sort_keys(self, col: int) -> npt.NDArray[np.generic] | Sequence[str]:
        """The :data:`SORT_ROLE` of every row of ``col`` at once (for vectorised sorting)."""
        kind = self.column_info(col).kind
        if kind == "segment":
            return np.arange(len(self._text), dtype=np.int64)
        if kind in NUMERIC_KINDS:
            return self.values(col)
        return self.strings(col)

    def set_baseline(self, index: int) -> None:
        """Compare the delta columns against system ``index``."""
        n_sys = len(self._text.systems)
        if not 0 <= index < n_sys:
            raise ValueError(f"baseline must be a system index 0..{n_sys - 1}, not {index}")
        if index == self._baseline:
            return
        self._baseline = index
        self._build_columns()
        deltas = self.columns_of_kind("delta")
        if deltas and len(self._text):
            first, last = deltas[0], deltas[-1]
            self.headerDataChanged.emit(Qt.Orientation.Horizontal, first, last)
            self.dataChanged.emit(self.index(0, first), self.index(len(self._text) - 1, last), [])

    @Slot(int, int)
    def on_chunk_applied(self, start: int, stop: int) -> None:
        """Rows ``start:stop`` were just scored: refresh their score and delta cells."""
        start = max(0, start)
        stop = min(len(self._text), stop)
        if stop <= start:
            return
        self._emit_score_changes(start, stop - 1)

    def reset_table(self, table: ScoreTable) -> None:
        """Show a new (possibly still empty) table, e.g. after a rescore with new settings.

        When the score columns stay the same, only their cells are refreshed, so the selection,
        the current row and the scroll position survive. Otherwise the model is reset.
        """
        self._check_table(table)
        same_columns = self._shown_metrics(table) == self._shown_metrics(self._table)
        if same_columns:
            self._table = table
            self._build_columns()
            if len(self._text):
                self._emit_score_changes(0, len(self._text) - 1)
            numeric = [c for c, i in enumerate(self._columns) if i.kind in NUMERIC_KINDS]
            if numeric:
                self.headerDataChanged.emit(Qt.Orientation.Horizontal, numeric[0], numeric[-1])
        else:
            self.beginResetModel()
            self._table = table
            self._build_columns()
            self.endResetModel()

    def numeric_runs(self) -> list[tuple[int, int]]:
        """(first, last) of every contiguous run of score/delta columns."""
        runs: list[tuple[int, int]] = []
        for col, info in enumerate(self._columns):
            if info.kind not in NUMERIC_KINDS:
                continue
            if runs and runs[-1][1] == col - 1:
                runs[-1] = (runs[-1][0], col)
            else:
                runs.append((col, col))
        return runs

    def _emit_score_changes(self, first_row: int, last_row: int) -> None:
        roles = [_DISPLAY, _TOOLTIP, SORT_ROLE, RECORD_ROLE]
        for first, last in self.numeric_runs():
            self.dataChanged.emit(self.index(first_row, first), self.index(last_row, last), roles)

    # -- QAbstractItemModel -----------------------------------------------------------------

    def rowCount(self, parent: QModelIndex | QPersistentModelIndex = _ROOT) -> int:
        return 0 if parent.isValid() else len(self._text)

    def columnCount(self, parent: QModelIndex | QPersistentModelIndex = _ROOT) -> int:
        return 0 if parent.isValid() else len(self._columns)

    def data(
        self,
        index: QModelIndex | QPersistentModelIndex,
        role: int = Qt.ItemDataRole.DisplayRole,
    ) -> object:
        if not index.isValid():
            return None
        return self.cell_data(index.row(), index.column(), role)

    def cell_data(self, row: int, col: int, role: int) -> object:
        """:meth:`data` of a valid (row, column), without a model index (for the proxy)."""
        if role not in ANSWERED_ROLES:
            return None
        info = self._columns[col]
        kind = info.kind
        if role == _DISPLAY:
            if kind in TEXT_KINDS:
                return self._string(info, row)
            if kind == "segment":
                return str(row + 1)
            value = self._value(col, info, row)
            if math.isnan(value):
                return PENDING
            if kind == "delta":
                return f"{round(value, 1) + 0.0:+.1f}"
            return f"{value:.1f}"
        if role == SORT_ROLE:
            if kind in TEXT_KINDS:
                return self._string(info, row)
            if kind == "segment":
                return row
            return self._value(col, info, row)
        if role == _ALIGN:
            return _TEXT_ALIGN if kind in TEXT_KINDS else _NUM_ALIGN
        if role == COLUMN_KIND_ROLE:
            return kind
        if role == SEGMENT_ROLE:
            return row
        if role == SYSTEM_ROLE:
            return info.system
        if role == REF_ROLE:
            return info.reference
        if role == RECORD_ROLE:
            if info.system is None or not self._table.done[row]:
                return None
            return self._table.segment(info.system, row)
        if role == _TOOLTIP:
            return self._tooltip(col, info, row)
        if role == int(Qt.ItemDataRole.AccessibleTextRole) and kind in NUMERIC_KINDS:
            return self._tooltip(col, info, row)
        return None

    def _string(self, info: ColumnInfo, row: int) -> str:
        if info.kind == "hypothesis":
            return self._text.systems[info.system][row]  # type: ignore[index]
        if info.kind == "reference":
            return self._text.references[info.reference][row]  # type: ignore[index]
        return self._source[row]  # type: ignore[index]

    def _value(self, col: int, info: ColumnInfo, row: int) -> float:
        scores = self._table.scores
        m = self._metric_col[col]
        value = float(scores[info.system, row, m])
        if info.kind == "delta":
            value -= float(scores[self._baseline, row, m])
        return value

    def _tooltip(self, col: int, info: ColumnInfo, row: int) -> str | None:
        kind = info.kind
        if kind in TEXT_KINDS:
            text = self._string(info, row)
            if not text:
                return "(empty)"
            if len(text) > _TOOLTIP_TEXT_LIMIT:
                text = text[:_TOOLTIP_TEXT_LIMIT] + "…"
            return f"<p style='white-space:pre-wrap'>{html.escape(text)}</p>"
        if kind not in NUMERIC_KINDS or info.system is None or info.metric is None:
            return None
        table = self._table
        s = info.system
        name = self._text.system_names[s]
        if not table.done[row]:
            return f"{name}, segment {row + 1}: not scored yet"
        if kind == "delta":
            b = self._baseline
            base = self._text.system_names[b]
            mine = table.value(info.metric, s, row)
            theirs = table.value(info.metric, b, row)
            return (
                f"{name} − {base} (baseline), segment {row + 1}:\n"
                f"BLEU {mine:.2f} − {theirs:.2f} = {mine - theirs:+.2f}"
            )
        if info.metric == "bleu":
            matches = table.matches[s, row]
            totals = table.totals[s, row]
            orders = "  ".join(
                f"{n + 1}-gram {int(m)}/{int(t)}"
                for n, (m, t) in enumerate(zip(matches, totals, strict=True))
            )
            return (
                f"{name}, segment {row + 1}: sentence BLEU {table.value('bleu', s, row):.2f}\n"
                f"{orders}\n"
                f"hypothesis length {int(table.hyp_len[s, row])}, "
                f"reference length {int(table.ref_len[s, row])}"
            )
        rouge_type = info.metric.rsplit("_", 1)[0]
        p = table.value(f"{rouge_type}_p", s, row)
        r = table.value(f"{rouge_type}_r", s, row)
        f = table.value(f"{rouge_type}_f", s, row)
        title = _ROUGE_NAMES.get(rouge_type, rouge_type)
        return f"{name}, segment {row + 1}: {title}\nP {p:.2f}   R {r:.2f}   F {f:.2f}"

    def headerData(
        self,
        section: int,
        orientation: Qt.Orientation,
        role: int = Qt.ItemDataRole.DisplayRole,
    ) -> object:
        if orientation == Qt.Orientation.Vertical:
            if role == _DISPLAY and 0 <= section < len(self._text):
                return str(section + 1)
            return None
        if not 0 <= section < len(self._columns):
            return None
        info = self._columns[section]
        if role == _DISPLAY:
            return self._title(info)
        if role == _TOOLTIP:
            return self._header_tooltip(info)
        if role == COLUMN_KIND_ROLE:
            return info.kind
        if role == SYSTEM_ROLE:
            return info.system
        if role == REF_ROLE:
            return info.reference
        return None

    def _title(self, info: ColumnInfo) -> str:
        kind = info.kind
        if kind == "segment":
            return "#"
        if kind == "source":
            return "Source"
        if kind == "reference":
            return self._reference_names[info.reference]  # type: ignore[index]
        name = self._text.system_names[info.system]  # type: ignore[index]
        if kind == "hypothesis":
            return name
        if kind == "delta":
            return f"{name} ΔBLEU"
        short = dict(SCORE_COLUMNS).get(info.metric, info.metric)  # type: ignore[arg-type]
        return f"{name} {short}"

    def _header_tooltip(self, info: ColumnInfo) -> str:
        kind = info.kind
        if kind == "segment":
            return "Segment number (line in the input files)"
        if kind == "source":
            return "Source text"
        if kind == "reference":
            return f"Reference {info.reference + 1}"  # type: ignore[operator]
        name = self._text.system_names[info.system]  # type: ignore[index]
        if kind == "hypothesis":
            return f"Output of {name}"
        if kind == "delta":
            base = self._text.system_names[self._baseline]
            return f"Sentence BLEU of {name} minus that of the baseline {base}"
        if info.metric == "bleu":
            return (
                f"Sentence BLEU of {name}\n{self._table.config.bleu_signature(self._table.nrefs)}"
            )
        rouge_type = (info.metric or "").rsplit("_", 1)[0]
        return (
            f"{_ROUGE_NAMES.get(rouge_type, rouge_type)} F-measure of {name} "
            f"(best reference)\n{self._table.config.rouge_signature(self._table.nrefs)}"
        )

    def roleNames(self) -> dict[int, QByteArray]:
        names = dict(super().roleNames())
        names.update(
            {
                SORT_ROLE: QByteArray(b"sortKey"),
                RECORD_ROLE: QByteArray(b"record"),
                COLUMN_KIND_ROLE: QByteArray(b"columnKind"),
                SYSTEM_ROLE: QByteArray(b"system"),
                REF_ROLE: QByteArray(b"reference"),
                SEGMENT_ROLE: QByteArray(b"segment"),
            }
        )
        return names


__all__ = [
    "ANSWERED_ROLES",
    "COLUMN_KINDS",
    "COLUMN_KIND_ROLE",
    "DELTA_METRIC",
    "NUMERIC_KINDS",
    "PENDING",
    "RECORD_ROLE",
    "REF_ROLE",
    "SCORE_COLUMNS",
    "SEGMENT_ROLE",
    "SORT_ROLE",
    "SYSTEM_ROLE",
    "TEXT_KINDS",
    "ColumnInfo",
    "SegmentScores",
    "SegmentTableModel",
]
