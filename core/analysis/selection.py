"""Row selection: which segments a user is looking at, and in which order, as pure data.

A :class:`Selection` is a frozen list of filters (text or regular expression, score range,
"A − B ≥ x", length ratio, empty rows, explicit segments, a set of rows brushed on a chart or
tagged) plus a sort. :func:`select` turns it into a row mask and an order over a comparison's
texts and scores. The app's table only maps indexes through the result, and the command line
takes the same segments with ``--segments SPEC`` (see :func:`parse_segments`), so any subset a
user analyses in the app can be reproduced headless. Selections serialise to JSON for sessions.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any, ClassVar, Literal

import numpy as np
import numpy.typing as npt

from matchlight.core.analysis.textsearch import (
    PatternError,
    SearchCancelled,
    SearchColumn,
    TextQuery,
    matching_rows,
)
from matchlight.core.scoring.results import ScoreTable
from matchlight.core.text.corpus import CorpusText

__all__ = [
    "DeltaFilter",
    "EmptyRows",
    "FlagFilter",
    "LengthRatio",
    "RowSet",
    "ScoreRange",
    "SegmentRange",
    "Selection",
    "SelectionData",
    "SelectionError",
    "Sort",
    "TextFilter",
    "format_segments",
    "is_prepared",
    "parse_segments",
    "prepare",
    "select",
]

BoolArray = npt.NDArray[np.bool_]
IntArray = npt.NDArray[np.int64]


class SelectionError(ValueError):
    """A filter or a segment list that cannot be applied; the message says why."""


# -- segment lists ------------------------------------------------------------------------------

_PART = re.compile(r"^\s*([0-9]*)\s*(-?)\s*([0-9]*)\s*$")
#: The most digits a segment number may have (no comparison has a billion segments); a longer
#: one is refused before it is converted.
_MAX_DIGITS = 9


def _shown_part(part: str) -> str:
    text = part.strip()
    return repr(text) if len(text) <= 40 else f"{text[:40]!r}... ({len(text):,} characters)"


def parse_segments(spec: str, n_segments: int) -> IntArray:
    """The 0-based rows of a 1-based segment list such as ``1-500,800,900-``.

    Parts are separated by commas: ``N`` (one segment), ``A-B`` (inclusive), ``A-`` (to the
    end) and ``-B`` (from the start). Rows come out sorted, each once. Anything else, or a
    segment outside ``1..n_segments``, raises :class:`SelectionError` naming the part (cut to
    40 characters).
    """
    if not spec.strip():
        raise SelectionError("the segment list is empty")
    keep = np.zeros(n_segments, np.bool_)
    for part in spec.split(","):
        match = _PART.match(part)
        if match is None or not (match.group(1) or match.group(3)):
            raise SelectionError(
                f"segment list part {_shown_part(part)} is not N, A-B, A- or -B (1-based)"
            )
        first, dash, last = match.groups()
        if len(first.lstrip("0")) > _MAX_DIGITS or len(last.lstrip("0")) > _MAX_DIGITS:
            raise SelectionError(f"segment list part {_shown_part(part)} is outside 1-{n_segments}")
        if not dash:
            if last:
                raise SelectionError(f"segment list part {_shown_part(part)} is not a number")
            a = b = int(first.lstrip("0") or "0")
        else:
            a = int(first.lstrip("0") or "0") if first else 1
            b = int(last.lstrip("0") or "0") if last else n_segments
        if a < 1 or b > n_segments or a > b:
            raise SelectionError(
                f"segment list part {_shown_part(part)} is outside 1-{n_segments}"
                if a <= b
                else f"segment list part {_shown_part(part)} runs backwards"
            )
        keep[a - 1 : b] = True
    return np.flatnonzero(keep).astype(np.int64)


def format_segments(rows: Sequence[int] | IntArray) -> str:
    """The shortest 1-based segment list of ``rows`` (0-based): ``[0, 1, 2, 7]`` -> ``1-3,8``."""
    ordered = sorted({int(r) for r in rows})
    parts: list[str] = []
    i = 0
    while i < len(ordered):
        j = i
        while j + 1 < len(ordered) and ordered[j + 1] == ordered[j] + 1:
            j += 1
        a, b = ordered[i] + 1, ordered[j] + 1
        parts.append(str(a) if a == b else f"{a}-{b}")
        i = j + 1
    return ",".join(parts)


# -- the data a selection reads -----------------------------------------------------------------


@dataclass(slots=True)
class SelectionData:
    """What filters read: the texts, the scores, and caches kept for the comparison's life.

    ``search`` maps text column names (``source``, ``ref1``.., ``hyp1``.., see
    :func:`text_columns`) to prepared :class:`~core.analysis.textsearch.SearchColumn` objects
    (built on first use, or handed over ready-made from the thread that read the files). The
    masks of filters that do not depend on scores, and the orders of text columns, are kept:
    re-applying a selection while scores arrive costs only its score filters.
    """

    text: CorpusText
    table: ScoreTable
    source: Sequence[str] | None = None
    search: dict[str, SearchColumn] = field(default_factory=dict)
    _masks: dict[object, BoolArray] = field(default_factory=dict)
    _orders: dict[tuple[str, bool], IntArray] = field(default_factory=dict)

    def __post_init__(self) -> None:
        for name, lines in text_columns(self.text, self.source):
            found = self.search.get(name)
            if found is None or found.strings is not lines:
                self.search[name] = SearchColumn(lines)

    @property
    def n_rows(self) -> int:
        return len(self.text)

    def lines(self, name: str) -> Sequence[str]:
        """The strings of text column ``name``."""
        try:
            return self.search[name].strings
        except KeyError:
            raise SelectionError(f"no text column named {name!r}") from None

    def mask_of(self, f: Filter, cancelled: Callable[[], bool] | None = None) -> BoolArray:
        """``f``'s rows, kept when they do not depend on the scores (``cancelled``: see
        :func:`prepare`)."""
        if f.kind in SCORE_KINDS:
            return f.mask(self)
        found = self._masks.get(f)
        if found is None:
            found = f.mask(self, cancelled) if isinstance(f, TextFilter) else f.mask(self)
            if len(self._masks) >= _MASK_CACHE:
                self._masks.clear()
            self._masks[f] = found
        return found

    def has_mask(self, f: Filter) -> bool:
        """Whether ``f``'s rows are kept (or cost nothing: it depends on the scores)."""
        return f.kind in SCORE_KINDS or f in self._masks


#: How many score-independent masks :class:`SelectionData` keeps.
_MASK_CACHE = 16


def text_columns(text: CorpusText, source: Sequence[str] | None) -> list[tuple[str, Sequence[str]]]:
    """The searchable text columns by name: ``source``, ``ref1``.., then ``hyp1``.. (1-based)."""
    columns: list[tuple[str, Sequence[str]]] = []
    if source is not None:
        columns.append(("source", source))
    columns += [(f"ref{r + 1}", lines) for r, lines in enumerate(text.references)]
    columns += [(f"hyp{s + 1}", lines) for s, lines in enumerate(text.systems)]
    return columns


# -- filters ------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class TextFilter:
    """Rows whose text matches: a case-insensitive substring, or a regular expression (the
    ``regex`` module's syntax, with Unicode properties such as ``\\p{Han}``). ``columns`` names
    the text columns searched (see :func:`text_columns`); empty means all of them."""

    kind: ClassVar[str] = "text"
    pattern: str
    regex: bool = False
    columns: tuple[str, ...] = ()
    case_sensitive: bool = False

    def mask(self, data: SelectionData, cancelled: Callable[[], bool] | None = None) -> BoolArray:
        """Raises :class:`SearchCancelled` once ``cancelled()`` says True."""
        if not self.pattern:
            return np.ones(data.n_rows, np.bool_)
        names = self.columns or tuple(data.search)
        unknown = [n for n in names if n not in data.search]
        if unknown:
            raise SelectionError(f"no text column named {', '.join(unknown)}")
        try:
            return matching_rows(
                [data.search[n] for n in names],
                TextQuery(self.pattern, regex=self.regex, case_sensitive=self.case_sensitive),
                cancelled=cancelled,
            )
        except PatternError as error:
            raise SelectionError(str(error)) from None


@dataclass(frozen=True, slots=True)
class ScoreRange:
    """Rows where ``column`` of ``system`` lies in ``[low, high]`` (either bound optional).
    Rows not scored yet, or without a score, are left out."""

    kind: ClassVar[str] = "score"
    column: str
    system: int
    low: float | None = None
    high: float | None = None

    def mask(self, data: SelectionData) -> BoolArray:
        values = _column(data, self.column, self.system)
        keep = ~np.isnan(values)
        if self.low is not None:
            keep &= values >= self.low
        if self.high is not None:
            keep &= values <= self.high
        return keep


@dataclass(frozen=True, slots=True)
class DeltaFilter:
    """Rows where ``column`` of ``system`` minus the same column of ``baseline`` is at least
    ``at_least`` (negative: where the system is worse by at least that much, with ``below``)."""

    kind: ClassVar[str] = "delta"
    column: str
    system: int
    baseline: int
    at_least: float
    below: bool = False

    def mask(self, data: SelectionData) -> BoolArray:
        delta = _column(data, self.column, self.system) - _column(data, self.column, self.baseline)
        with np.errstate(invalid="ignore"):
            keep = delta <= self.at_least if self.below else delta >= self.at_least
        return keep & ~np.isnan(delta)


@dataclass(frozen=True, slots=True)
class LengthRatio:
    """Rows where, for some system, output length / reference length (BLEU tokens) lies
    outside ``[low, high]`` (``outside``, the default: a length mismatch) or inside it.

    An empty reference with a non-empty output has an infinite ratio; two empty sides are not
    a mismatch. Rows not scored yet are left out.
    """

    kind: ClassVar[str] = "length"
    low: float = 0.5
    high: float = 2.0
    outside: bool = True

    def mask(self, data: SelectionData) -> BoolArray:
        table = data.table
        if not (table.has("hyp_len") and table.has("ref_len")):
            raise SelectionError("the length ratio needs BLEU's token counts (score BLEU)")
        if not 0 <= self.low <= self.high:
            raise SelectionError(f"need 0 <= low <= high, got {self.low:g} and {self.high:g}")
        keep = np.zeros(data.n_rows, np.bool_)
        for s in range(len(table.systems)):
            hyp = table.column("hyp_len", s)
            ref = table.column("ref_len", s)
            with np.errstate(divide="ignore", invalid="ignore"):
                ratio = hyp / ref
            inside = (ratio >= self.low) & (ratio <= self.high)
            if self.outside:
                keep |= ~inside & ~np.isnan(hyp) & ~((hyp == 0) & (ref == 0))
            else:
                keep |= inside | ((hyp == 0) & (ref == 0))
        return keep & table.done


@dataclass(frozen=True, slots=True)
class FlagFilter:
    """Rows where a metric's per-row flag is set, e.g. ``lsum_fallback`` (ROUGE-Lsum found no
    sentence boundary there, so it equals ROUGE-L). Rows not scored yet are left out."""

    kind: ClassVar[str] = "flag"
    flag: str

    def mask(self, data: SelectionData) -> BoolArray:
        table = data.table
        if self.flag not in table.row_flags:
            raise SelectionError(f"no metric scored here sets {self.flag!r}")
        return (table.flag(self.flag) != 0) & table.done


EmptyWhat = Literal["output", "reference", "any"]


@dataclass(frozen=True, slots=True)
class EmptyRows:
    """Rows with an empty (or whitespace-only) output of any system, an empty reference, or
    either; ``keep`` False drops those rows instead of keeping only them."""

    kind: ClassVar[str] = "empty"
    what: EmptyWhat = "any"
    keep: bool = True

    def mask(self, data: SelectionData) -> BoolArray:
        text = data.text
        columns: list[Sequence[str]] = []
        if self.what in ("output", "any"):
            columns += list(text.systems)
        if self.what in ("reference", "any"):
            columns += list(text.references)
        empty = np.zeros(data.n_rows, np.bool_)
        for lines in columns:
            empty |= np.fromiter((not t or t.isspace() for t in lines), np.bool_, len(lines))
        return empty if self.keep else ~empty


@dataclass(frozen=True, slots=True)
class SegmentRange:
    """Explicit segments, as ``--segments`` takes them (``1-500,800,900-``)."""

    kind: ClassVar[str] = "segments"
    spec: str

    def mask(self, data: SelectionData) -> BoolArray:
        keep = np.zeros(data.n_rows, np.bool_)
        keep[parse_segments(self.spec, data.n_rows)] = True
        return keep


@dataclass(frozen=True, slots=True)
class RowSet:
    """A set of rows picked elsewhere: brushed on a chart, clicked in a bucket, tagged.
    ``label`` says what they are, for the user; ``source`` is who picked them (``"chart"``,
    ``"annotations"``...): a selection holds one set per source, and they all apply."""

    kind: ClassVar[str] = "rows"
    rows: tuple[int, ...]
    label: str = "chosen rows"
    source: str = "rows"

    def mask(self, data: SelectionData) -> BoolArray:
        keep = np.zeros(data.n_rows, np.bool_)
        rows = np.asarray(self.rows, np.int64)
        if rows.size and (rows.min() < 0 or rows.max() >= data.n_rows):
            raise SelectionError(f"{self.label}: a row is outside the comparison")
        keep[rows] = True
        return keep


Filter = (
    TextFilter
    | ScoreRange
    | DeltaFilter
    | LengthRatio
    | FlagFilter
    | EmptyRows
    | SegmentRange
    | RowSet
)
_FILTER_TYPES: dict[str, type[Any]] = {
    cls.kind: cls
    for cls in (
        TextFilter,
        ScoreRange,
        DeltaFilter,
        LengthRatio,
        FlagFilter,
        EmptyRows,
        SegmentRange,
        RowSet,
    )
}
_TEXT_KEY = re.compile(r"^(source|ref\d+|hyp\d+)$")
#: Filters whose rows depend on the scores (re-applied as scores arrive); the others are
#: computed once per comparison and kept.
SCORE_KINDS: frozenset[str] = frozenset({"score", "delta", "length", "flag"})


@dataclass(frozen=True, slots=True)
class Sort:
    """Sort by a score column of ``system`` (minus ``baseline``'s, for a difference), by a
    text column, or by ``segment`` (the file order)."""

    key: str = "segment"  # "segment", a score column, or a text column name (source, ref1, hyp2)
    system: int | None = None
    descending: bool = False
    #: With a score column: sort by the system's value minus this system's (a delta column).
    baseline: int | None = None


@dataclass(frozen=True, slots=True)
class Selection:
    """Filters (all must hold) and a sort: the rows a user is looking at."""

    filters: tuple[Filter, ...] = ()
    sort: Sort = Sort()

    def with_filter(self, new: Filter) -> Selection:
        """A copy with ``new`` replacing any filter of the same kind (and column/system)."""
        kept = tuple(f for f in self.filters if _slot(f) != _slot(new))
        return Selection((*kept, new), self.sort)

    def without(self, kind: str, *, source: str | None = None) -> Selection:
        """A copy without the filters of ``kind`` (only the row sets of ``source``, if given)."""
        kept = tuple(
            f
            for f in self.filters
            if f.kind != kind or (source is not None and getattr(f, "source", None) != source)
        )
        return Selection(kept, self.sort)

    def with_sort(self, sort: Sort) -> Selection:
        return Selection(self.filters, sort)

    def depends_on_scores(self) -> bool:
        """Whether new scores can change the rows or their order."""
        sort = self.sort.key
        by_score = sort != "segment" and _TEXT_KEY.match(sort) is None
        return by_score or any(f.kind in SCORE_KINDS for f in self.filters)

    def to_dict(self) -> dict[str, Any]:
        return {
            "filters": [{"kind": f.kind, **asdict(f)} for f in self.filters],
            "sort": asdict(self.sort),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Selection:
        filters: list[Filter] = []
        for item in data.get("filters", ()):
            values = dict(item)
            kind = values.pop("kind", None)
            if kind not in _FILTER_TYPES:
                raise SelectionError(f"unknown filter kind {kind!r}")
            for name in ("columns", "rows"):
                if name in values:
                    values[name] = tuple(values[name])
            filters.append(_FILTER_TYPES[kind](**values))
        return cls(tuple(filters), Sort(**data.get("sort", {})))


def _slot(f: Filter) -> tuple[object, ...]:
    """What makes two filters the same filter (a new one replaces the old)."""
    if isinstance(f, ScoreRange):
        return (f.kind, f.column, f.system)
    if isinstance(f, DeltaFilter):
        return (f.kind, f.column, f.system, f.baseline)
    if isinstance(f, RowSet):
        return (f.kind, f.source)
    return (f.kind,)


def _column(data: SelectionData, column: str, system: int) -> npt.NDArray[np.float64]:
    table = data.table
    if not table.has(column):
        raise SelectionError(f"no score column {column!r} (is its metric scored?)")
    if not 0 <= system < len(table.systems):
        raise SelectionError(f"no system {system + 1}")
    return table.column(column, system)


def sort_order(sort: Sort, data: SelectionData) -> IntArray:
    """All rows in ``sort``'s order. Stable; numbers sort numerically with rows without a
    value last either way; texts sort case-folded first, then as written."""
    n = data.n_rows
    if sort.key == "segment":
        order = np.arange(n, dtype=np.int64)
        return order[::-1].copy() if sort.descending else order
    if data.table.has(sort.key):
        if sort.system is None:
            raise SelectionError(f"sorting by {sort.key} needs a system")
        keys = _column(data, sort.key, sort.system)
        if sort.baseline is not None:
            keys = keys - _column(data, sort.key, sort.baseline)
        # numpy sorts NaN last; negating keeps that for the descending order too.
        return np.argsort(-keys if sort.descending else keys, kind="stable").astype(np.int64)
    cached = data._orders.get((sort.key, sort.descending))
    if cached is not None:
        return cached
    column = data.search.get(sort.key)
    if column is None:
        raise SelectionError(f"cannot sort by {sort.key!r}")
    # Case-folded first, then as written; equal texts keep segment order either way.
    order = column.sort_order(sort.descending)
    data._orders[(sort.key, sort.descending)] = order
    return order


def _text_sort(sort: Sort, data: SelectionData) -> bool:
    return sort.key != "segment" and not data.table.has(sort.key)


def is_prepared(selection: Selection, data: SelectionData) -> bool:
    """Whether :func:`select` would find every slow part of ``selection`` ready (the rows of
    its text, row and segment filters, the order of a text sort): then it costs a few numpy
    operations, fine in a GUI thread."""
    if not all(data.has_mask(f) for f in selection.filters):
        return False
    sort = selection.sort
    if not _text_sort(sort, data) or (sort.key, sort.descending) in data._orders:
        return True
    column = data.search.get(sort.key)
    return column is None or column.has_sort_ranks()


def prepare(
    selection: Selection, data: SelectionData, cancelled: Callable[[], bool] | None = None
) -> None:
    """Compute and keep the slow parts of ``selection`` (see :func:`is_prepared`), e.g. in a
    worker thread, so that :func:`select` then costs little. Stops with
    :class:`~core.analysis.textsearch.SearchCancelled` once ``cancelled()`` says True;
    raises :class:`SelectionError` for a filter that cannot be applied."""
    for f in selection.filters:
        if cancelled is not None and cancelled():
            raise SearchCancelled
        data.mask_of(f, cancelled)
    if _text_sort(selection.sort, data):
        if cancelled is not None and cancelled():
            raise SearchCancelled
        sort_order(selection.sort, data)


def select(selection: Selection, data: SelectionData) -> tuple[BoolArray, IntArray]:
    """The rows ``selection`` keeps (a mask over all rows) and all kept rows in its order."""
    keep = np.ones(data.n_rows, np.bool_)
    for f in selection.filters:
        keep &= data.mask_of(f)
    order = sort_order(selection.sort, data)
    return keep, order[keep[order]]
