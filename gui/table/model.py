"""The segment table: a thin Qt adapter over ``core``'s texts and columnar scores.

One row per segment. Nothing per row is built up front: :meth:`SegmentTableModel.data` reads the
strings of :class:`~core.scoring.engine.CorpusText` and the numpy arrays of
:class:`~core.scoring.results.ScoreTable` directly, so 100,000 rows cost no more than 100.

Custom roles (module constants) give views, proxies and delegates what they need without parsing
display strings: :data:`SORT_ROLE` (a numeric or text sort key), :data:`RECORD_ROLE` (the
:class:`~core.scoring.results.SegmentScores` record), :data:`COLUMN_KIND_ROLE`, :data:`SYSTEM_ROLE`,
:data:`REF_ROLE` and :data:`SEGMENT_ROLE`; of a header, :data:`SHORT_TITLE_ROLE`.
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
    QCoreApplication,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    Qt,
    Slot,
)

from matchlight.core.analysis.scales import corpus_decimals, worst_first
from matchlight.core.analysis.selection import Sort
from matchlight.core.metrics.base import ScoreColumn
from matchlight.core.scoring.results import ScoreTable, SegmentScores
from matchlight.core.text.corpus import CorpusText
from matchlight.gui.state.session import SessionModel

# Numeric sort key (float score, NaN while unscored; int segment) or the text of text columns.
SORT_ROLE = int(Qt.ItemDataRole.UserRole) + 1
# The :class:`~core.scoring.results.SegmentScores` of the cell's system and row (None while
# unscored).
RECORD_ROLE = int(Qt.ItemDataRole.UserRole) + 2
# The column kind: one of :data:`COLUMN_KINDS`.
COLUMN_KIND_ROLE = int(Qt.ItemDataRole.UserRole) + 3
# The system index of hypothesis, score and delta columns (None elsewhere).
SYSTEM_ROLE = int(Qt.ItemDataRole.UserRole) + 4
# The reference index of reference columns (None elsewhere).
REF_ROLE = int(Qt.ItemDataRole.UserRole) + 5
# The 0-based segment of the row (survives any proxy).
SEGMENT_ROLE = int(Qt.ItemDataRole.UserRole) + 6
# Of a difference cell: +1 when the system is better than the baseline at the precision shown
# (lower, on a penalty such as MQM), -1 when worse, 0 when equal (None while unscored).
BETTER_ROLE = int(Qt.ItemDataRole.UserRole) + 7
# Of a column's header: the title the table shows. A score or difference column stands in its
# system's group, after the output, so it shows its metric alone ("BLEU", "ΔBLEU"); its display
# title also names the system ("literal BLEU") for menus, copies and saved layouts.
SHORT_TITLE_ROLE = int(Qt.ItemDataRole.UserRole) + 8

COLUMN_KINDS: tuple[str, ...] = ("segment", "source", "reference", "hypothesis", "score", "delta")
TEXT_KINDS: frozenset[str] = frozenset({"source", "reference", "hypothesis"})
NUMERIC_KINDS: frozenset[str] = frozenset({"score", "delta"})

PENDING = "…"
# Up to this many rows of a changed column are repainted one by one (an annotation edit
# changes one or two); more repaint the column.
REPAINT_ROWS = 64
_ROOT = QModelIndex()
_TOOLTIP_TEXT_LIMIT = 1000

_DISPLAY = int(Qt.ItemDataRole.DisplayRole)
_TOOLTIP = int(Qt.ItemDataRole.ToolTipRole)
_ALIGN = int(Qt.ItemDataRole.TextAlignmentRole)
# Every role the model answers; the others (asked for each cell on every paint: font,
# colours, decoration, check state, ...) get None at once.
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
        BETTER_ROLE,
    }
)
_NUM_ALIGN = Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter
_TEXT_ALIGN = Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter

FloatArray = npt.NDArray[np.float64]


@dataclass(frozen=True, slots=True)
class ColumnInfo:
    """What one column shows.

    ``system`` is set for hypothesis, score and delta columns (for a delta column: the system
    compared against the baseline), ``reference`` for reference columns, ``metric`` for score
    and delta columns (a score column key of the registry, such as ``bleu`` or ``rougeL_f``).
    """

    kind: str
    system: int | None = None
    reference: int | None = None
    metric: str | None = None


class SegmentTableModel(QAbstractTableModel):
    """Segments as rows; the texts, each output followed by its scores.

    Columns: ``#``, ``Source`` (if any), one column per reference; then per system its output
    and, per shown score column (by default each scored metric's primary column: BLEU,
    ROUGE-L F...), the system's score and, with two or more systems and for every system but
    the baseline, its difference from the baseline (system minus baseline). A system's scores
    stand next to its output, so that the first output shows on a laptop screen however many
    systems and scores there are, and the view names a score column by its metric alone
    (:data:`SHORT_TITLE_ROLE`). A new baseline moves the difference columns into the old
    baseline's group: the model is reset (views keep their arrangement by what a column shows).

    The model observes the comparison's :class:`~gui.state.session.SessionModel` (scores
    arriving, baseline, new settings); it holds no state of its own but which score columns
    are shown. Scores show at their column's precision (BLEU one decimal, COMET three, an MQM
    penalty two), or ``…`` while the row is not scored yet; :data:`BETTER_ROLE` says which way
    a difference goes for its column, and a score or difference column sorts worst first on
    its first click (``Qt.InitialSortOrderRole``: lowest first, highest for a penalty).
    """

    def __init__(
        self,
        session: SessionModel,
        parent: QObject | None = None,
        *,
        shown: Sequence[str] | None = None,
    ) -> None:
        super().__init__(parent)
        self._session = session
        core = session.session
        self._text = core.text
        self._source: Sequence[str] | None = core.source
        self._reference_names = core.reference_names
        self._table = core.table
        self._shown = self._valid_shown(shown)
        self._columns: list[ColumnInfo] = []
        self._metric_col: list[int] = []  # per column: index into the table's columns, or -1
        # Per score column: its description when the header was last told of it.
        self._headed: dict[str, ScoreColumn] = {}
        self._build_columns()
        self._note_headers()
        session.scores_changed.connect(self.on_chunk_applied)
        session.baseline_changed.connect(self._on_baseline_changed)
        session.rows_added.connect(self._on_rows_added)
        session.table_replaced.connect(self._on_table_replaced)
        session.columns_changed.connect(self._on_columns_changed)

    # -- structure --------------------------------------------------------------------------

    def _valid_shown(self, shown: Sequence[str] | None) -> tuple[str, ...]:
        table = self._table
        if shown is not None:
            kept = tuple(k for k in shown if table.has(k) and table.column_info(k).kind == "score")
            if kept:
                return kept
        return tuple(c.key for c in table.columns if c.primary)

    def _end_reset(self) -> None:
        """End a model reset; the header now shows every column as the table describes it."""
        self.endResetModel()
        self._note_headers()

    def _note_headers(self) -> None:
        table = self._table
        self._headed = {k: table.column_info(k) for k in self._shown if table.has(k)}

    def _build_columns(self) -> None:
        n_sys = len(self._text.systems)
        baseline = self._session.session.baseline
        cols: list[ColumnInfo] = [ColumnInfo("segment")]
        if self._source is not None:
            cols.append(ColumnInfo("source"))
        cols += [ColumnInfo("reference", reference=r) for r in range(len(self._text.references))]
        for s in range(n_sys):
            cols.append(ColumnInfo("hypothesis", system=s))
            for key in self._shown:
                cols.append(ColumnInfo("score", system=s, metric=key))
                if n_sys >= 2 and s != baseline:
                    cols.append(ColumnInfo("delta", system=s, metric=key))
        self._columns = cols
        index = self._table.metric_index
        self._metric_col = [-1 if c.metric is None else index(c.metric) for c in cols]

    # -- public API -------------------------------------------------------------------------

    @property
    def session(self) -> SessionModel:
        return self._session

    @property
    def text(self) -> CorpusText:
        return self._text

    @property
    def source(self) -> Sequence[str] | None:
        return self._source

    @property
    def shown_scores(self) -> tuple[str, ...]:
        """The score columns shown per system, in order."""
        return self._shown

    def set_shown_scores(self, keys: Sequence[str]) -> None:
        """Show these score columns (table column keys; at least one that the table has)."""
        shown = self._valid_shown(keys)
        if shown == self._shown:
            return
        self.beginResetModel()
        self._shown = shown
        self._build_columns()
        self._end_reset()

    @property
    def table(self) -> ScoreTable:
        return self._table

    @property
    def baseline(self) -> int:
        return self._session.session.baseline

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

    def delta_column(self, system: int, metric: str | None = None) -> int:
        return self._find(ColumnInfo("delta", system=system, metric=metric or self._shown[0]))

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
            return scores[info.system, :, m] - scores[self.baseline, :, m]
        return scores[info.system, :, m]

    def text_key(self, col: int) -> str:
        """The name of a text column in selections: ``source``, ``ref1``.., ``hyp1``.."""
        info = self.column_info(col)
        if info.kind == "source":
            return "source"
        if info.kind == "reference":
            return f"ref{info.reference + 1}"  # type: ignore[operator]
        if info.kind == "hypothesis":
            return f"hyp{info.system + 1}"  # type: ignore[operator]
        raise ValueError(f"column {col} ({info.kind}) is not a text column")

    def sort_spec(self, col: int, descending: bool) -> Sort:
        """How to sort by column ``col`` (-1: file order), as a selection's sort."""
        if col < 0:
            return Sort(descending=descending)
        info = self.column_info(col)
        if info.kind == "segment":
            return Sort(descending=descending)
        if info.kind in TEXT_KINDS:
            return Sort(self.text_key(col), descending=descending)
        baseline = self.baseline if info.kind == "delta" else None
        return Sort(info.metric or "segment", info.system, descending, baseline)

    @Slot(int)
    def _on_baseline_changed(self, _: int) -> None:
        if len(self._text.systems) < 2:
            return
        self.beginResetModel()
        self._build_columns()
        self._end_reset()

    @Slot(int, int)
    def on_chunk_applied(self, start: int, stop: int) -> None:
        """Rows ``start:stop`` were just scored: refresh their score and delta cells."""
        start = max(0, start)
        stop = min(len(self._text), stop)
        if stop <= start:
            return
        self._emit_score_changes(start, stop - 1)

    @Slot(str)
    def _on_columns_changed(self, key: str) -> None:
        """A column was added or removed: column positions in the table may have moved."""
        if key in self._shown and not self._table.has(key):
            self.beginResetModel()
            self._shown = self._valid_shown(self._shown)
            self._build_columns()
            self._end_reset()
            return
        self._build_columns()
        if key in self._shown and len(self._text):
            # Its values, or its scale (precision, direction), may have changed: its cells and
            # its header are repainted, and no other column's.
            numeric = [c for c, i in enumerate(self._columns) if i.metric == key]
            roles = [_DISPLAY, _TOOLTIP, SORT_ROLE, RECORD_ROLE, BETTER_ROLE]
            changed = self._session.session.changed_rows(key)
            if changed is not None and len(changed) <= REPAINT_ROWS:
                spans = [(int(r), int(r)) for r in changed]  # an edit: its row or two
            else:
                spans = [(0, len(self._text) - 1)]
            for top, bottom in spans:
                for first, last in _runs(numeric):
                    self.dataChanged.emit(self.index(top, first), self.index(bottom, last), roles)
            # The header shows the column's name, direction and scale, not its values: it is
            # told (which lays out and repaints the whole table) only when those changed.
            info = self._table.column_info(key)
            if self._headed.get(key) != info:
                self._headed[key] = info
                self.headerDataChanged.emit(Qt.Orientation.Horizontal, numeric[0], numeric[-1])

    @Slot(int, int)
    def _on_rows_added(self, old: int, new: int) -> None:
        """Rows ``old:new`` were appended to the comparison (its text and table grew)."""
        core = self._session.session
        if new > old:
            self.beginInsertRows(QModelIndex(), old, new - 1)
        self._text, self._source, self._table = core.text, core.source, core.table
        if new > old:
            self.endInsertRows()

    @Slot(object)
    def _on_table_replaced(self, table: ScoreTable) -> None:
        """New settings: show the new (empty) table.

        When the shown score columns stay the same, only their cells are refreshed, so the
        selection, the current row and the scroll position survive. Otherwise the model is
        reset.
        """
        shown = self._shown
        self._table = table
        same = all(table.has(k) for k in shown) and shown == self._valid_shown(shown)
        if same:
            self._build_columns()
            if len(self._text):
                self._emit_score_changes(0, len(self._text) - 1)
            numeric = [c for c, i in enumerate(self._columns) if i.kind in NUMERIC_KINDS]
            self._note_headers()
            if numeric:
                self.headerDataChanged.emit(Qt.Orientation.Horizontal, numeric[0], numeric[-1])
        else:
            self.beginResetModel()
            self._shown = self._valid_shown(None)
            self._build_columns()
            self._end_reset()

    def numeric_runs(self) -> list[tuple[int, int]]:
        """(first, last) of every contiguous run of score/delta columns."""
        return _runs([c for c, info in enumerate(self._columns) if info.kind in NUMERIC_KINDS])

    def _emit_score_changes(self, first_row: int, last_row: int) -> None:
        roles = [_DISPLAY, _TOOLTIP, SORT_ROLE, RECORD_ROLE, BETTER_ROLE]
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
            return self._column(col).format(value, signed=kind == "delta")
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
        if role == BETTER_ROLE:
            if kind != "delta":
                return None
            value = self._value(col, info, row)
            if math.isnan(value):
                return None
            column = self._column(col)
            shown = round(value, column.decimals)
            return 0 if shown == 0 else (1 if column.is_better(shown, 0.0) else -1)
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

    def _column(self, col: int) -> ScoreColumn:
        return self._table.columns[self._metric_col[col]]

    def _value(self, col: int, info: ColumnInfo, row: int) -> float:
        scores = self._table.scores
        m = self._metric_col[col]
        value = float(scores[info.system, row, m])
        if info.kind == "delta":
            value -= float(scores[self.baseline, row, m])
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
        column = table.column_info(info.metric)
        if not table.done[row]:
            return QCoreApplication.translate(
                "SegmentTableModel", "{name}, segment {0}: not scored yet"
            ).format(row + 1, name=name)
        if kind == "delta":
            b = self.baseline
            base = self._text.system_names[b]
            mine = table.value(info.metric, s, row)
            theirs = table.value(info.metric, b, row)
            verdict = self.cell_data(row, col, BETTER_ROLE)
            way = {1: "better", -1: "worse"}.get(verdict, "equal")  # type: ignore[arg-type]
            note = (
                ""
                if column.higher_is_better
                else QCoreApplication.translate("SegmentTableModel", "; lower is better")
            )
            return (
                f"{name} − {base} (baseline), segment {row + 1}:\n"
                f"{column.label} {_shown(column, mine)} − {_shown(column, theirs)} = "
                f"{_shown(column, mine - theirs, signed=True)} ({way}{note})"
            )
        value = _shown(column, table.value(column.key, s, row))
        lines = [f"{name}, segment {row + 1}: {column.label} {value}"]
        siblings = [c for c in table.columns if c.metric == column.metric and c is not column]
        for other in siblings:
            lines.append(f"{other.label} {_shown(other, table.value(other.key, s, row))}")
        return "\n".join(lines)

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
        if role == SHORT_TITLE_ROLE:
            return self._title(info, short=True)
        if role == _TOOLTIP:
            return self._header_tooltip(info)
        if role == COLUMN_KIND_ROLE:
            return info.kind
        if role == SYSTEM_ROLE:
            return info.system
        if role == REF_ROLE:
            return info.reference
        if role == int(Qt.ItemDataRole.InitialSortOrderRole) and info.metric is not None:
            descending = worst_first(self._table.column_info(info.metric))
            return Qt.SortOrder.DescendingOrder if descending else Qt.SortOrder.AscendingOrder
        return None

    def _title(self, info: ColumnInfo, *, short: bool = False) -> str:
        kind = info.kind
        if kind == "segment":
            return "#"
        if kind == "source":
            return QCoreApplication.translate("SegmentTableModel", "Source")
        if kind == "reference":
            return self._reference_names[info.reference]  # type: ignore[index]
        name = self._text.system_names[info.system]  # type: ignore[index]
        if kind == "hypothesis":
            return name
        metric = self._table.column_info(info.metric).short  # type: ignore[arg-type]
        if kind == "delta":
            metric = f"Δ{metric}"
        return metric if short else f"{name} {metric}"

    def _header_tooltip(self, info: ColumnInfo) -> str:
        kind = info.kind
        if kind == "segment":
            return QCoreApplication.translate(
                "SegmentTableModel", "Segment number (line in the input files)"
            )
        if kind == "source":
            return QCoreApplication.translate("SegmentTableModel", "Source text")
        if kind == "reference":
            return QCoreApplication.translate("SegmentTableModel", "Reference {0}").format(
                info.reference + 1  # type: ignore[operator]
            )
        name = self._text.system_names[info.system]  # type: ignore[index]
        if kind == "hypothesis":
            return QCoreApplication.translate("SegmentTableModel", "Output of {name}").format(
                name=name
            )
        column = self._table.column_info(info.metric)  # type: ignore[arg-type]
        signature = self._table.signatures().get(column.metric, "")
        way = (
            QCoreApplication.translate("SegmentTableModel", "higher")
            if column.higher_is_better
            else QCoreApplication.translate("SegmentTableModel", "lower")
        )
        if kind == "delta":
            base = self._text.system_names[self.baseline]
            return QCoreApplication.translate(
                "SegmentTableModel",
                "{0} of {name} minus that of the baseline {base} ({way} is better: "
                "green where the system is better, red where it is worse)",
            ).format(column.label, name=name, base=base, way=way)
        text = QCoreApplication.translate(
            "SegmentTableModel", "{0} of {name}: {description} ({way} is better)"
        ).format(column.label, name=name, description=column.description, way=way)
        return f"{text}\n{signature}".rstrip()

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
                BETTER_ROLE: QByteArray(b"better"),
            }
        )
        return names


__all__ = [
    "ANSWERED_ROLES",
    "BETTER_ROLE",
    "COLUMN_KINDS",
    "COLUMN_KIND_ROLE",
    "NUMERIC_KINDS",
    "PENDING",
    "RECORD_ROLE",
    "REF_ROLE",
    "SEGMENT_ROLE",
    "SHORT_TITLE_ROLE",
    "SORT_ROLE",
    "SYSTEM_ROLE",
    "TEXT_KINDS",
    "ColumnInfo",
    "SegmentScores",
    "SegmentTableModel",
]


def _runs(columns: Sequence[int]) -> list[tuple[int, int]]:
    """(first, last) of every run of consecutive numbers in the ascending ``columns``."""
    runs: list[tuple[int, int]] = []
    for col in columns:
        if runs and runs[-1][1] == col - 1:
            runs[-1] = (runs[-1][0], col)
        else:
            runs.append((col, col))
    return runs


def _shown(column: ScoreColumn, value: float, *, signed: bool = False) -> str:
    """A value for a tooltip: a count whole, a score one decimal more precise than its cell."""
    if math.isnan(value):
        return QCoreApplication.translate("model", "no score")
    if column.kind == "count":
        return f"{int(value)}"
    return (
        f"{value:+.{corpus_decimals(column)}f}"
        if signed
        else f"{value:.{corpus_decimals(column)}f}"
    )
