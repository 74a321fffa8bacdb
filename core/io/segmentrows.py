"""Per-segment rows, scored and rendered a chunk at a time, wherever the chunk is scored.

A streaming command sends chunks of rows (their lines and segment numbers) to worker processes,
or to the workers of a Dask or Ray cluster (:mod:`core.scoring.engines`); each runs
:func:`score_rows`: the chunk scorer of the app (:class:`~core.scoring.scorer.ChunkScorer`),
then, for a command that writes per-segment rows, :class:`RowRenderer` turns the chunk into the
rows of its output file (CSV or JSON Lines text, or a Parquet record batch), keeping only the
rows that pass ``--keep`` (:class:`KeepRule`). Rendering where the chunk is scored keeps every
core busy, and the process that writes only appends what comes back, in order.

The CSV rows are :func:`~core.io.export.write_csv`'s, byte for byte: the same columns
(:class:`RowLayout`), the system's cell made by :func:`~core.io.csvfile.csv_text` (quoted where
needed, spreadsheet-safe), numbers written as Python writes them (``repr``), an empty cell where
there is no score. JSON Lines rows are what ``json.dumps(row, ensure_ascii=False)`` writes for
a dict of the same columns (null where there is no score).
"""

from __future__ import annotations

import json
import math
import operator
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from matchlight.core.io.csvfile import csv_text
from matchlight.core.metrics.base import ScoreColumn
from matchlight.core.scoring.advice import rouge_mostly_dropped
from matchlight.core.scoring.config import ScoringConfig
from matchlight.core.scoring.results import ScoreChunk
from matchlight.core.scoring.scorer import ChunkScorer

__all__ = [
    "ROW_FORMATS",
    "KeepError",
    "KeepRule",
    "RowJob",
    "RowLayout",
    "RowRenderer",
    "RowResult",
    "prime",
    "score_rows",
]

#: Formats of per-segment rows: CSV, JSON Lines, Parquet.
ROW_FORMATS: Final[tuple[str, ...]] = ("csv", "jsonl", "parquet")

IntArray = npt.NDArray[np.int64]
FloatArray = npt.NDArray[np.float64]


@dataclass(frozen=True, slots=True)
class RowLayout:
    """The columns of a per-segment row: ``system``, ``segment``, the score columns, the
    count columns (BLEU's token counts) and the row flags (ROUGE's), in the table's order."""

    keys: tuple[str, ...]  # every column of the scores array, in its order
    scores: tuple[int, ...]  # positions of the score columns in ``keys``
    counts: tuple[int, ...]  # positions of the count columns
    flags: tuple[str, ...]

    @classmethod
    def of(cls, columns: Sequence[ScoreColumn], flags: Sequence[str]) -> RowLayout:
        return cls(
            keys=tuple(c.key for c in columns),
            scores=tuple(i for i, c in enumerate(columns) if c.kind == "score"),
            counts=tuple(i for i, c in enumerate(columns) if c.kind == "count"),
            flags=tuple(flags),
        )

    @classmethod
    def of_config(cls, config: ScoringConfig) -> RowLayout:
        flags = [name for m, _ in config.enabled() for name in m.row_flags()]
        return cls.of(config.columns(), flags)

    def kinds(self) -> list[str]:
        """Each column's kind, as :func:`~core.io.columnar.record_batch` takes them."""
        counted = ["int"] * (len(self.counts) + len(self.flags))
        return ["text", "int", *(["float"] * len(self.scores)), *counted]

    def header(self) -> list[str]:
        return [
            "system",
            "segment",
            *(self.keys[i] for i in self.scores),
            *(self.keys[i] for i in self.counts),
            *self.flags,
        ]


# -- --keep -----------------------------------------------------------------------------------


class KeepError(ValueError):
    """A ``--keep`` rule that cannot be read; the message says why and what is allowed."""


_OPERATORS: Final[dict[str, Callable[[Any, Any], Any]]] = {
    ">=": operator.ge,
    "<=": operator.le,
    "==": operator.eq,
    "!=": operator.ne,
    ">": operator.gt,
    "<": operator.lt,
}
_CONDITION: Final = re.compile(r"\s*([A-Za-z_][A-Za-z0-9_]*)\s*(>=|<=|==|!=|>|<)\s*(\S+)\s*")


@dataclass(frozen=True, slots=True)
class KeepRule:
    """Which per-segment rows are written: every condition ``COLUMN OP NUMBER`` holds.

    Written ``chrf>=40,rougeL_f>30`` (conditions separated by commas; several ``--keep``
    options add up the same way). A row without a value in a column (no score) is never kept.
    """

    conditions: tuple[tuple[str, str, float], ...]

    @classmethod
    def parse(cls, texts: Sequence[str], layout: RowLayout) -> KeepRule:
        """The rule of ``--keep`` texts over the columns of ``layout``; raises
        :class:`KeepError`."""
        wanted = [layout.keys[i] for i in (*layout.scores, *layout.counts)]
        conditions = []
        for text in texts:
            for part in text.split(","):
                match = _CONDITION.fullmatch(part)
                if match is None:
                    raise KeepError(
                        f"{part.strip()[:40]!r} is not COLUMN OP NUMBER (OP one of "
                        f"{', '.join(_OPERATORS)}), e.g. chrf>=40"
                    )
                name, op, number = match.groups()
                if name not in wanted:
                    raise KeepError(
                        f"{name!r} is not a scored column; the columns are: {', '.join(wanted)}"
                    )
                try:
                    value = float(number) if len(number) <= 40 else math.nan
                except ValueError:
                    value = math.nan
                if not math.isfinite(value):
                    raise KeepError(f"{number[:40]!r} in {part.strip()[:60]!r} is not a number")
                conditions.append((name, op, value))
        return cls(tuple(conditions))

    def mask(self, layout: RowLayout, scores: FloatArray) -> npt.NDArray[np.bool_]:
        """Which rows of one system's ``scores`` ``(k, C)`` are kept."""
        keep = np.ones(len(scores), dtype=np.bool_)
        for name, op, value in self.conditions:
            column = scores[:, layout.keys.index(name)]
            with np.errstate(invalid="ignore"):
                keep &= _OPERATORS[op](column, value) & ~np.isnan(column)
        return keep

    def __str__(self) -> str:
        return ",".join(f"{name}{op}{value:g}" for name, op, value in self.conditions)


# -- rendering ---------------------------------------------------------------------------------

#: The most float texts a worker keeps: ROUGE's precisions, recalls and F scores are ratios of
#: small counts, so the same values come back on row after row.
_FLOAT_CACHE_SIZE: Final = 200_000
_FLOAT_TEXT: dict[float, str] = {}


def _float_texts(values: list[float], missing: str) -> list[str]:
    """Each value as ``repr`` writes it, ``missing`` for NaN. Cached, and looked up in one
    C-level pass: ``repr`` of a float is the slowest step of writing rows."""
    cache = _FLOAT_TEXT
    if len(cache) > _FLOAT_CACHE_SIZE:
        cache.clear()
    out: list[str | None] = list(map(cache.get, values))
    at = 0
    while True:
        try:
            at = out.index(None, at)
        except ValueError:
            return out  # type: ignore[return-value]  # no None left
        value = values[at]
        if value != value:  # NaN: never cached (each NaN is its own key)
            out[at] = missing
        else:
            out[at] = cache[value] = repr(value)
        at += 1


def _count_texts(values: FloatArray, missing: str) -> list[str]:
    """Each count as ``str(int(value))`` writes it, ``missing`` for NaN."""
    if np.isfinite(values).all():  # all at once: ``astype`` truncates as ``int`` does
        return list(map(str, values.astype(np.int64).tolist()))
    return [missing if v != v else str(int(v)) for v in values.tolist()]


@dataclass(frozen=True, slots=True)
class RowRenderer:
    """Renders one system's rows of a chunk in ``fmt`` (:data:`ROW_FORMATS`)."""

    fmt: str
    layout: RowLayout
    systems: tuple[str, ...]
    _cells: tuple[str, ...] = field(default=(), compare=False)

    def __post_init__(self) -> None:
        if self.fmt not in ROW_FORMATS:
            raise ValueError(f"unknown row format {self.fmt!r}")
        if self.fmt == "csv":
            cells = tuple(csv_text([[name]])[:-1] for name in self.systems)
        elif self.fmt == "jsonl":
            cells = tuple(json.dumps(name, ensure_ascii=False) for name in self.systems)
        else:
            cells = self.systems
        object.__setattr__(self, "_cells", cells)

    def render(
        self,
        system: int,
        segments: IntArray,
        scores: FloatArray,
        flags: Mapping[str, npt.NDArray[Any]],
        keep: npt.NDArray[np.bool_] | None = None,
    ) -> Any:
        """System ``system``'s rows of a chunk: 0-based ``segments`` ``(k,)``, its ``scores``
        ``(k, C)``, the chunk's row ``flags``, and which rows to keep (None: all).
        Text formats give UTF-8 bytes (each row ended by a newline), Parquet a record batch
        (:func:`~core.io.columnar.record_batch`)."""
        if keep is not None:
            segments, scores = segments[keep], scores[keep]
            flags = {name: values[keep] for name, values in flags.items()}
        layout = self.layout
        numbers = (segments + 1).tolist()
        if self.fmt == "parquet":
            from matchlight.core.io.columnar import record_batch  # pyarrow only for Parquet

            arrays = [
                [self.systems[system]] * len(numbers),
                numbers,
                *(scores[:, i] for i in layout.scores),
                *(scores[:, i] for i in layout.counts),
                *(np.asarray(flags[name], dtype=np.int64) for name in layout.flags),
            ]
            return record_batch(self.layout.header(), self.layout.kinds(), arrays)
        if not numbers:
            return b""
        missing = "" if self.fmt == "csv" else "null"
        columns: list[list[str]] = []
        if layout.scores:
            texts = _float_texts(scores[:, layout.scores].ravel().tolist(), missing)
            step = len(layout.scores)
            columns += [texts[j::step] for j in range(step)]
        for i in layout.counts:
            columns.append(_count_texts(scores[:, i], missing))
        for name in layout.flags:
            columns.append(list(map(str, np.asarray(flags[name], dtype=np.int64).tolist())))
        if self.fmt == "csv":
            lead = self._cells[system] + ","
            rows = map(",".join, zip([lead + str(n) for n in numbers], *columns, strict=True))
        else:
            names = self.layout.header()[2:]
            template = (
                '{"system": '
                + self._cells[system].replace("%", "%%")
                + ', "segment": %s'
                + "".join(f", {json.dumps(name)}: %s" for name in names)
                + "}"
            )
            rows = map(template.__mod__, zip(map(str, numbers), *columns, strict=True))
        return ("\n".join(rows) + "\n").encode("utf-8")


# -- the task a worker runs ---------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class RowJob:
    """What every chunk of one run shares: the configuration, the renderers of the rows written
    (none when the command writes no per-segment rows) and the rule of the rows kept (None:
    all), over the columns of ``layout``."""

    config: ScoringConfig
    renderers: tuple[RowRenderer, ...] = ()
    keep: KeepRule | None = None
    #: Whether the advice needs rouge-score's lost letters counted (see
    #: :func:`~core.scoring.advice.rouge_mostly_dropped`).
    count_dropped: bool = False

    def kept(self, scores: FloatArray) -> npt.NDArray[np.bool_] | None:
        """The rows of one system's ``scores`` ``(k, C)`` written (None: all)."""
        if self.keep is None:
            return None
        return self.keep.mask(RowLayout.of_config(self.config), scores)


@dataclass(frozen=True, slots=True)
class RowResult:
    """A scored chunk: its 0-based ``segments``, the engine's :class:`ScoreChunk`, the rows of
    each renderer and system (``rows[renderer][system]``), how many rows of each system were
    kept, and how many references lose most of their letters to rouge-score's tokenizer."""

    segments: IntArray
    chunk: ScoreChunk
    rows: tuple[tuple[Any, ...], ...]
    kept: tuple[int, ...]
    dropped: int


_SCORERS: dict[ScoringConfig, ChunkScorer] = {}


def _scorer(config: ScoringConfig) -> ChunkScorer:
    """This process's chunk scorer of ``config`` (built once: tokenizers resolved, caches
    warm)."""
    scorer = _SCORERS.get(config)
    if scorer is None:
        _SCORERS.clear()
        scorer = _SCORERS[config] = ChunkScorer(config)
    return scorer


def prime(job: RowJob, systems: int) -> None:
    """Score one tiny chunk here, so that the modules and tables the scorer loads on first use
    (numpy's ``unique`` loads ``numpy.ma``, tokenizers build their tables) are loaded once, in
    the process whose forked workers inherit them, instead of once per worker."""
    score_rows(job, [["a b"]], [["a b"]] * systems, np.zeros(1, dtype=np.int64))


def score_rows(
    job: RowJob,
    references: Sequence[Sequence[str]],
    systems: Sequence[Sequence[str]],
    segments: IntArray,
) -> RowResult:
    """Score one chunk (``references[r][k]``, ``systems[s][k]`` of segment ``segments[k]``)
    and render its rows: the task every engine runs."""
    chunk = _scorer(job.config).score_lines(references, systems, int(segments[0]))
    masks = [job.kept(chunk.scores[s]) for s in range(len(systems))]
    kept = tuple(len(segments) if m is None else int(m.sum()) for m in masks)
    rows = tuple(
        tuple(
            renderer.render(s, segments, chunk.scores[s], chunk.row_flags, masks[s])
            for s in range(len(systems))
        )
        for renderer in job.renderers
    )
    dropped = 0
    if job.count_dropped:
        dropped = sum(rouge_mostly_dropped(line) for column in references for line in column)
    return RowResult(segments, chunk, rows, kept, dropped)
