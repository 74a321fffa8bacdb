"""The state of one open comparison, as a plain object the app's widgets observe.

A :class:`ComparisonSession` owns what a user is working on: the texts (and where they came
from: the files read and how the user named them), the scoring settings, the score table, the
baseline system and the current row selection (filters and sort, :mod:`core.analysis.selection`),
and the columns the user imported (scores and labels, :mod:`core.session.imported`, which a
session file keeps with their values and sources), and human judgements made per system (for
the meta-evaluation; not yet kept in a session file). Widgets never hold any of it: they read it
here and change it through the methods below, and every change is announced to the observers
(a Qt adapter turns the announcements into signals). Significance on "the rows I filtered",
brushing from charts, annotations and autosave all hang on this object, so they work the same
with or without a window.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, Literal

import numpy as np
import numpy.typing as npt

from matchlight.core.analysis.selection import (
    Selection,
    SelectionData,
    SelectionError,
    Sort,
    select,
    text_columns,
)
from matchlight.core.analysis.textsearch import SearchColumn
from matchlight.core.io.human import HumanJudgements
from matchlight.core.io.inputs import Comparison
from matchlight.core.io.specs import ComparisonSpecs
from matchlight.core.metrics.base import Scale, ScoreColumn
from matchlight.core.scoring.config import ScoringConfig
from matchlight.core.scoring.engine import empty_table
from matchlight.core.scoring.results import ScoreChunk, ScoreTable
from matchlight.core.session.imported import LabelImport, ScoreImport
from matchlight.core.text.corpus import CorpusText

__all__ = ["ComparisonSession", "ComparisonState", "Event"]

BoolArray = npt.NDArray[np.bool_]
IntArray = npt.NDArray[np.int64]

#: What changed: ``rows`` (rows were appended to the comparison, its text and score table grown;
#: payload ``(old count, new count)``, announced before the ``selection`` it brings),
#: ``table`` (a new, empty score table: settings changed), ``scores`` (rows were
#: scored; payload ``(start, stop)``), ``columns`` (a column was added or removed: imported
#: scores, MQM from annotations; payload its key), ``labels`` (a label column was added or
#: removed; payload its name), ``judgements`` (human judgements per system were added or
#: removed; payload their name), ``baseline``, ``selection`` (the rows shown or their order
#: changed), ``layout`` (view state a session remembers).
Event = Literal[
    "rows", "table", "scores", "columns", "labels", "judgements", "baseline", "selection", "layout"
]
Observer = Callable[[Event, object], None]


@dataclass(frozen=True, slots=True)
class ComparisonState:
    """What a saved session restores besides the texts: settings, baseline, selection, layout."""

    config: ScoringConfig
    baseline: int
    selection: Selection
    layout: Mapping[str, Any]

    def to_dict(self) -> dict[str, Any]:
        return {
            "config": self.config.to_dict(),
            "baseline": self.baseline,
            "selection": self.selection.to_dict(),
            "layout": dict(self.layout),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> ComparisonState:
        return cls(
            config=ScoringConfig.from_dict(data.get("config", {})),
            baseline=int(data.get("baseline", 0)),
            selection=Selection.from_dict(data.get("selection", {})),
            layout=dict(data.get("layout", {})),
        )


class ComparisonSession:
    """One open comparison: texts, settings, scores, baseline and selection.

    Scoring itself runs elsewhere (a worker feeds :meth:`apply_chunk`); this object only holds
    the results. A new comparison starts from the default settings unless told otherwise:
    settings belong to a comparison, never to the machine.
    """

    def __init__(
        self,
        text: CorpusText,
        *,
        config: ScoringConfig | None = None,
        source: Sequence[str] | None = None,
        reference_names: Sequence[str] | None = None,
        comparison: Comparison | None = None,
        specs: ComparisonSpecs | None = None,
        search: Sequence[SearchColumn] = (),
        table: ScoreTable | None = None,
    ) -> None:
        if source is not None and len(source) != len(text):
            raise ValueError(f"the source has {len(source)} lines but the texts have {len(text)}")
        self.text = text
        self.source = source
        self.comparison = comparison
        #: How the user named the files (what a session file and the Recent menu record).
        self.specs = specs
        n_refs = len(text.references)
        self.reference_names: tuple[str, ...] = (
            tuple(reference_names)
            if reference_names is not None
            else tuple(f"Ref {r + 1}" if n_refs > 1 else "Reference" for r in range(n_refs))
        )
        if len(self.reference_names) != n_refs:
            raise ValueError(f"{len(self.reference_names)} reference names for {n_refs} references")
        self.config = config or ScoringConfig()
        self.table = table if table is not None else empty_table(text, self.config)
        if self.table.config != self.config:
            raise ValueError("the score table was scored under other settings")
        self.baseline = 0
        self.selection = Selection()
        # Columns computed elsewhere, kept across new settings: key -> (column, values).
        self._added: dict[str, tuple[ScoreColumn, npt.NDArray[np.float64]]] = {}
        #: Per added column: the rows its last change gave other values (None: any row may
        #: have changed, or its scale).
        self._changed_rows: dict[str, IntArray | None] = {}
        # What the user imported, with its sources: column key -> scores, name -> labels.
        self._imports: dict[str, ScoreImport] = {}
        self._labels: dict[str, LabelImport] = {}
        # Human judgements per system (WMT's DA table), by name: no column of the score table.
        self._judgements: dict[str, HumanJudgements] = {}
        self.layout: dict[str, Any] = {}
        self._data = SelectionData(text, self.table, source, _ready(text, source, search))
        self._mask: BoolArray = np.ones(len(text), np.bool_)
        self._order: IntArray = np.arange(len(text), dtype=np.int64)
        self._rows_version = 0
        self._observers: list[Observer] = []

    # -- observing ------------------------------------------------------------------------------

    def subscribe(self, observer: Observer) -> Callable[[], None]:
        """Call ``observer(event, payload)`` on every change; returns the unsubscribe function."""
        self._observers.append(observer)
        return lambda: self._observers.remove(observer) if observer in self._observers else None

    def _announce(self, event: Event, payload: object = None) -> None:
        for observer in list(self._observers):
            observer(event, payload)

    # -- reading --------------------------------------------------------------------------------

    @property
    def n_segments(self) -> int:
        return len(self.text)

    @property
    def system_names(self) -> tuple[str, ...]:
        return self.text.system_names

    @property
    def search_columns(self) -> dict[str, SearchColumn]:
        """The text search caches by column name (source, ref1.., hyp1..)."""
        return self._data.search

    @property
    def selection_data(self) -> SelectionData:
        """What the selection is computed from, with its caches: a worker thread may
        :func:`~core.analysis.selection.prepare` a selection on it before it is set."""
        return self._data

    def selected(self) -> BoolArray:
        """Per segment: is it in the selection (a copy)."""
        return self._mask.copy()

    @property
    def rows_version(self) -> int:
        """Goes up each time the set of selected rows changes, and not when only their order
        does (a sort): what follows the rows' figures, not their order, compares it."""
        return self._rows_version

    def selected_rows(self) -> IntArray:
        """The selected segments in file order (for corpus figures and tests on "these rows")."""
        return np.flatnonzero(self._mask).astype(np.int64)

    def view_order(self) -> IntArray:
        """The selected segments in the selection's sort order (what a table shows)."""
        return self._order.copy()

    def is_filtered(self) -> bool:
        return bool(self.selection.filters)

    # -- changing -------------------------------------------------------------------------------

    def set_config(self, config: ScoringConfig) -> ScoreTable:
        """Switch to new settings: a new, empty score table (the caller rescores into it).

        Score filters and sorts on columns the new settings no longer have are dropped.
        """
        self.config = config
        self.table = empty_table(self.text, config)
        for column, values in self._added.values():
            self.table.add_column(column, values)
        self._data = SelectionData(self.text, self.table, self.source, self._data.search)
        self.selection = _prune(self.selection, self._data)
        self._announce("table", self.table)
        self._recompute(announce=True)
        return self.table

    def grow(
        self,
        text: CorpusText,
        *,
        source: Sequence[str] | None,
        comparison: Comparison | None,
        table: ScoreTable,
        search: Sequence[SearchColumn] = (),
    ) -> None:
        """Take the whole of a comparison whose first rows this session holds (the app shows
        them while the rest is read): ``text`` and ``source`` start with the rows held, and
        ``table`` is an empty table for all of them under the same settings. The scores so far
        are copied into it (the caller scores the rest), added columns get NaN on the new rows,
        and label columns, which no longer fit, are dropped. Announced as ``rows``, then as
        ``table`` and ``selection``."""
        old = self.n_segments
        if len(text) < old or text.system_names != self.text.system_names:
            raise ValueError("the comparison to grow into does not start with this one")
        if len(text.references) != len(self.text.references) or table.config != self.config:
            raise ValueError("the comparison to grow into has other references or settings")
        if (source is None) != (self.source is None):
            raise ValueError("the comparison to grow into has a source exactly when this one has")
        if table.n_segments != len(text):
            raise ValueError(f"a score table of {table.n_segments} rows for {len(text)} rows")
        done = np.flatnonzero(self.table.done)
        if len(done):
            old_table, scored = self.table, len(table.columns) - len(table.external)
            table.apply(
                ScoreChunk(
                    start=0,
                    stop=old,
                    scores=old_table.scores[:, done, :scored],
                    stats={
                        key: {name: values[:, done] for name, values in fields.items()}
                        for key, fields in old_table.stats.items()
                    },
                    row_flags={name: values[done] for name, values in old_table.row_flags.items()},
                ),
                rows=done,
            )
        for key, (column, values) in list(self._added.items()):
            grown = np.full((values.shape[0], len(text)), np.nan)
            grown[:, :old] = values
            table.add_column(column, grown)
            self._added[key] = (column, grown)
        self._changed_rows.clear()
        self.text, self.source, self.comparison, self.table = text, source, comparison, table
        self._data = SelectionData(text, table, source, _ready(text, source, search))
        for name in list(self._labels):
            self.remove_labels(name)
        self._announce("rows", (old, len(text)))
        self._announce("table", table)
        self._recompute(announce=True)

    def apply_chunk(self, chunk: ScoreChunk) -> None:
        """Store scored rows (announced as ``scores``); the selection is not re-applied here:
        call :meth:`refresh_selection` (batched by the caller) when it depends on scores."""
        self.table.apply(chunk)
        self._announce("scores", (chunk.start, chunk.stop))

    def set_column(self, column: ScoreColumn, values: npt.ArrayLike) -> None:
        """Add or replace a column of per-segment values computed elsewhere (imported scores,
        MQM from annotations): ``(S, n)``, NaN where a row has none. It is kept when the
        settings change."""
        array = np.array(values, dtype=np.float64)
        old = self._added.get(column.key)
        rows: IntArray | None = None
        if old is not None and old[0] == column and old[1].shape == array.shape:
            same = (old[1] == array) | (np.isnan(old[1]) & np.isnan(array))
            rows = np.flatnonzero(~same.all(axis=0)).astype(np.int64)
        self.table.add_column(column, array)
        self._added[column.key] = (column, array)
        self._changed_rows[column.key] = rows
        self._announce("columns", column.key)
        if self.selection.depends_on_scores():
            self._recompute(announce=True)

    def changed_rows(self, key: str) -> IntArray | None:
        """The rows to which the last :meth:`set_column` of ``key`` gave other values (an
        annotation edit changes one or two), or None when any row may have changed (a new
        column, another scale, a removal): what a view repaints."""
        return self._changed_rows.get(key)

    def remove_column(self, key: str) -> None:
        """Remove an added column (an imported one is forgotten with its source)."""
        self.table.remove_column(key)
        del self._added[key]
        self._changed_rows.pop(key, None)
        self._imports.pop(key, None)
        self.selection = _prune(self.selection, self._data)
        self._announce("columns", key)
        self._recompute(announce=True)

    def add_imported(self, record: ScoreImport) -> None:
        """Add (or replace) an imported score column: its values for this comparison's systems
        (by name; NaN for a system the files do not score), remembered with its source so a
        session file keeps it. Raises ValueError (and changes nothing) when the values do not
        fit the comparison."""
        if record.n_segments != self.n_segments:
            raise ValueError(
                f"{record.name}: {record.n_segments} segments, but the comparison has "
                f"{self.n_segments}"
            )
        if not set(record.systems) & set(self.system_names):
            raise ValueError(f"{record.name}: no scores for any system of the comparison")
        previous = self._imports.get(record.key)
        self._imports[record.key] = record
        try:
            self.set_column(record.column, record.aligned(self.system_names))
        except ValueError:
            if previous is None:
                del self._imports[record.key]
            else:
                self._imports[record.key] = previous
            raise

    def set_column_scale(self, key: str, scale: Scale) -> ScoreColumn:
        """Say which way an added column is better, its range and its precision (the user's
        choice for an imported column); the column is replaced in the table (announced as
        ``columns``) and, for an import, in its record, so a session file keeps it. Returns the
        new column. KeyError for a column that was not added (a metric's scale is its own)."""
        if key not in self._added:
            raise KeyError(f"{key!r} is not an added column; only those take another scale")
        column, values = self._added[key]
        changed = column.with_scale(scale)
        if changed == column:
            return column
        record = self._imports.get(key)
        if record is not None:
            self._imports[key] = replace(record, column=changed)
        self.set_column(changed, values)
        return changed

    def imported_scores(self) -> tuple[ScoreImport, ...]:
        """The imported score columns still in the table, in the order they were added."""
        return tuple(r for key, r in self._imports.items() if self.table.has(key))

    def set_labels(self, record: LabelImport) -> None:
        """Add (or replace, by name) a label column; ValueError if it has another number of
        labels than the comparison has segments."""
        if len(record.labels) != self.n_segments:
            raise ValueError(
                f"{record.file.path}: {len(record.labels)} labels for {self.n_segments} segments"
            )
        self._labels[record.name] = record
        self._announce("labels", record.name)

    def remove_labels(self, name: str) -> None:
        del self._labels[name]
        self._announce("labels", name)

    def label_columns(self) -> tuple[LabelImport, ...]:
        """The label columns, in the order they were added."""
        return tuple(self._labels.values())

    def set_system_judgements(self, judgements: HumanJudgements) -> None:
        """Add (or replace, by name) human judgements made per system, for the meta-evaluation
        (judgements per segment are a column: :meth:`add_imported`). ValueError when they are
        not per system or not for this comparison's systems. Not kept in a session file."""
        if judgements.level != "system" or judgements.values.shape != (len(self.system_names),):
            raise ValueError(f"{judgements.name}: not one judgement per system of the comparison")
        if judgements.systems != self.system_names:
            raise ValueError(f"{judgements.name}: judgements for other systems")
        self._judgements[judgements.name] = judgements
        self._announce("judgements", judgements.name)

    def remove_system_judgements(self, name: str) -> None:
        del self._judgements[name]
        self._announce("judgements", name)

    def system_judgements(self) -> tuple[HumanJudgements, ...]:
        """The human judgements per system, in the order they were added."""
        return tuple(self._judgements.values())

    def set_baseline(self, system: int) -> None:
        if not 0 <= system < len(self.text.systems):
            raise ValueError(f"no system {system + 1}; there are {len(self.text.systems)}")
        if system == self.baseline:
            return
        self.baseline = system
        self._announce("baseline", system)

    def set_selection(
        self, selection: Selection, rows: tuple[BoolArray, IntArray] | None = None
    ) -> None:
        """Show ``selection``'s rows. Raises :class:`SelectionError` (and changes nothing) when
        it cannot be applied, e.g. an invalid regular expression.

        ``rows``: what :func:`~core.analysis.selection.select` gives for ``selection`` on
        :attr:`selection_data` as it is now, computed beforehand (a GUI's worker thread does,
        over a million rows); the caller vouches that the scores did not change since."""
        if rows is None:
            mask, order = select(selection, self._data)
        else:
            mask, order = rows
            if mask.shape != (self.n_segments,) or order.ndim != 1:
                raise ValueError("the rows given were selected from another comparison")
        self.selection = selection
        self._set_rows(mask, order, announce=True)

    def refresh_selection(self) -> bool:
        """Re-apply the selection to the current scores; True when the rows or order changed."""
        if not self.selection.depends_on_scores():
            return False
        return self._recompute(announce=True)

    def set_layout(self, **values: Any) -> None:
        """Remember view state (hidden columns, widths, highlight mode...) for the session."""
        self.layout.update(values)
        self._announce("layout", dict(values))

    def state(self) -> ComparisonState:
        return ComparisonState(self.config, self.baseline, self.selection, dict(self.layout))

    def restore(self, state: ComparisonState) -> None:
        """Take a saved state: the caller rescores if the settings differ from the current."""
        if state.config != self.config:
            self.set_config(state.config)
        if 0 <= state.baseline < len(self.text.systems):
            self.set_baseline(state.baseline)
        self.layout = dict(state.layout)
        try:
            self.set_selection(state.selection)
        except SelectionError:
            self.set_selection(Selection())

    # -- internals ------------------------------------------------------------------------------

    def _recompute(self, *, announce: bool) -> bool:
        try:
            mask, order = select(self.selection, self._data)
        except SelectionError:
            self.selection = _prune(self.selection, self._data)
            mask, order = select(self.selection, self._data)
        return self._set_rows(mask, order, announce=announce)

    def _set_rows(self, mask: BoolArray, order: IntArray, *, announce: bool) -> bool:
        rows_changed = not np.array_equal(mask, self._mask)
        changed = rows_changed or not np.array_equal(order, self._order)
        if rows_changed:
            self._rows_version += 1
        self._mask, self._order = mask, order
        if announce:
            self._announce("selection", changed)
        return changed


def _ready(
    text: CorpusText, source: Sequence[str] | None, search: Sequence[SearchColumn]
) -> dict[str, SearchColumn]:
    """The search caches of ``search`` by the name of the text column they were built for."""
    return {
        name: column
        for column in search
        for name, lines in text_columns(text, source)
        if column.strings is lines
    }


def _prune(selection: Selection, data: SelectionData) -> Selection:
    """``selection`` without the filters and sort that ``data`` cannot apply (their metric is no
    longer scored, say)."""
    kept = []
    for f in selection.filters:
        try:
            data.mask_of(f)
        except SelectionError:
            continue
        kept.append(f)
    sort = selection.sort
    table = data.table
    if sort.key != "segment" and sort.system is not None and not table.has(sort.key):
        sort = Sort()
    return Selection(tuple(kept), sort)
