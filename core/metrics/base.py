"""What a metric is, for the rest of Matchlight: the one description everything else reads.

A :class:`Metric` says, once, what the CLI options, the CSV and JSON columns, the table's columns,
the summary, the filters, the "why this score" breakdown and the settings panel need to know:

* its name and labels, and its :class:`Setting` specs (with their CLI flags and choices);
* its :class:`ScoreColumn` records, per-segment values on the 0-100 scale (or counts);
* its reproducibility signature;
* a chunk scorer that turns many rows of text into per-segment scores and **additive statistics**
  (:class:`MetricChunk`), and the pure function from summed statistics to a corpus score;
* a row detailer that says what matched where (:class:`HighlightLayer`) and why a row scored what
  it did (breakdown :class:`Block` records).

Metric modules implement this interface; :mod:`core.metrics.registry` lists them. Everything here
is plain data or a small abstract class: no scoring happens in this module.
"""

from __future__ import annotations

import math
import re
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, ClassVar, Literal

import numpy as np
import numpy.typing as npt

from matchlight.core.metrics.settings import MetricSettings, Setting, SettingError
from matchlight.core.text.types import Span

if TYPE_CHECKING:
    from matchlight.core.metrics.ngrams import Encoded
    from matchlight.core.text.tokenizers import Tokenizer

__all__ = [
    "DETAIL_TOKEN_LIMIT",
    "Block",
    "ChunkText",
    "CorpusView",
    "DetailTooLarge",
    "HighlightLayer",
    "HighlightMode",
    "Metric",
    "MetricChunk",
    "MetricCorpus",
    "MetricRowDetail",
    "MetricSettings",
    "Range",
    "Run",
    "Scale",
    "ScoreColumn",
    "Setting",
    "SettingError",
    "check_columns",
    "check_detail_size",
    "infer_scale",
    "mask_separator",
    "mean_score",
    "mean_statistics",
]

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]
AnyArray = npt.NDArray[Any]


class DetailTooLarge(Exception):
    """A row is too large for its highlights to be computed in bounded memory and time.

    ``str(error)`` says why, for the user (the row's scores are unaffected).
    """


#: The longest line, in tokens, whose highlights are computed. Match masks take up to
#: ``tokens**2 / 16`` bytes for a line of distinct tokens: about 25 MB here.
DETAIL_TOKEN_LIMIT = 20_000


def check_detail_size(tokens: int, unit: str = "tokens") -> None:
    """Raise :class:`DetailTooLarge` when a line's ``tokens`` (or characters, for a metric
    that matches characters) exceed :data:`DETAIL_TOKEN_LIMIT`."""
    if tokens > DETAIL_TOKEN_LIMIT:
        raise DetailTooLarge(
            f"a line has {tokens:,} {unit}; highlights are computed for lines of up to "
            f"{DETAIL_TOKEN_LIMIT:,} {unit} (the scores are exact)"
        )


# -- the mean of segment values as additive statistics ------------------------------------------


def mean_statistics(values: npt.ArrayLike) -> FloatArray:
    """Additive statistics ``(..., 2)`` of a figure that is the mean of segment values (ROUGE F,
    a sentence-level mean, an imported column): ``(value, 1)`` per row, ``(0, 0)`` where the
    value is NaN (the row has none). The sum over any rows, a resample included, gives their
    mean with :func:`mean_score`: the mean over the rows that have a value, as the table's."""
    array = np.asarray(values, dtype=np.float64)
    present = ~np.isnan(array)
    return np.stack([np.where(present, array, 0.0), present.astype(np.float64)], axis=-1)


def mean_score(sums: npt.ArrayLike) -> FloatArray:
    """The means of summed :func:`mean_statistics`, ``(m, 2) -> (m,)``; NaN where no row had a
    value."""
    array = np.asarray(sums, dtype=np.float64)
    if array.ndim != 2 or array.shape[1] != 2:
        raise ValueError(f"a mean takes summed statistics of shape (m, 2), not {np.shape(sums)}")
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.asarray(array[:, 0] / array[:, 1], dtype=np.float64)


# -- columns and statistics ---------------------------------------------------------------------

ColumnKind = Literal["score", "count"]
Better = Literal["higher", "lower"]
CorpusRule = Literal["stats", "mean", "sum"]


@dataclass(frozen=True, slots=True)
class ScoreColumn:
    """One per-segment value a metric produces, and what its numbers mean.

    ``kind`` ``score`` is a score (NaN where there is none), ``count`` a whole number (lengths).
    ``corpus`` says how the corpus figure of the column is made: ``stats`` from the summed
    additive statistics (corpus BLEU, corpus chrF: not the mean of sentence scores), ``mean`` the
    mean of the segment values (ROUGE, as rouge-score's averaging), ``sum`` the sum.
    ``headline`` columns are printed by the CLI and summarised by the app; the ``primary``
    column is the one the table shows per system by default.

    ``better`` says which way is better (``higher`` for BLEU, ``lower`` for TER and an MQM
    penalty), ``low``/``high`` the natural range (None: unbounded on that side) and ``decimals``
    the display precision. Every display reads these (:meth:`format`, :meth:`oriented`,
    :meth:`step`) instead of deciding with ``> 0`` or a fixed one decimal.
    """

    key: str
    label: str
    short: str
    metric: str
    description: str
    kind: ColumnKind = "score"
    corpus: CorpusRule = "mean"
    headline: bool = True
    #: The metric's one column the table shows by default (the others are a click away).
    primary: bool = False
    better: Better = "higher"
    low: float | None = 0.0
    high: float | None = 100.0
    decimals: int = 1

    def __post_init__(self) -> None:
        if self.better not in ("higher", "lower"):
            raise ValueError(f"{self.key}: better must be 'higher' or 'lower', not {self.better!r}")
        if self.low is not None and self.high is not None and self.low > self.high:
            raise ValueError(f"{self.key}: range {self.low}..{self.high} is empty")
        if not 0 <= self.decimals <= 12:
            raise ValueError(f"{self.key}: {self.decimals} decimals (0 to 12 are allowed)")

    @property
    def higher_is_better(self) -> bool:
        return self.better == "higher"

    @property
    def sign(self) -> float:
        """+1 when higher is better, -1 when lower is: ``sign * value`` is "higher is better"."""
        return 1.0 if self.better == "higher" else -1.0

    @property
    def step(self) -> float:
        """The smallest difference the display shows (one unit of the last decimal)."""
        return float(10.0**-self.decimals)

    def oriented(self, values: npt.ArrayLike) -> FloatArray:
        """``values`` turned so that higher is better (a penalty negated), as float64."""
        array = np.asarray(values, dtype=np.float64)
        return array if self.better == "higher" else -array

    def is_better(self, a: float, b: float) -> bool:
        """Whether ``a`` is strictly better than ``b`` on this column."""
        return a > b if self.better == "higher" else a < b

    def format(self, value: float | None, *, signed: bool = False, missing: str = "–") -> str:
        """``value`` at the column's precision (``signed``: with a + on positive differences)."""
        if value is None or not math.isfinite(value):
            return missing
        if round(value, self.decimals) == 0:
            value = 0.0  # no "-0.0", and no sign on a difference the display cannot show
            signed = False
        return f"{value:+.{self.decimals}f}" if signed else f"{value:.{self.decimals}f}"

    def bounds(self) -> tuple[float | None, float | None]:
        return self.low, self.high

    def with_scale(self, scale: Scale) -> ScoreColumn:
        """This column with another direction, range and precision."""
        return replace(
            self, better=scale.better, low=scale.low, high=scale.high, decimals=scale.decimals
        )

    @property
    def scale(self) -> Scale:
        return Scale(self.better, self.low, self.high, self.decimals)


@dataclass(frozen=True, slots=True)
class Scale:
    """A column's direction, natural range and display precision (see :class:`ScoreColumn`)."""

    better: Better = "higher"
    low: float | None = 0.0
    high: float | None = 100.0
    decimals: int = 1

    def to_dict(self) -> dict[str, Any]:
        return {
            "better": self.better,
            "low": self.low,
            "high": self.high,
            "decimals": self.decimals,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Scale:
        better = data.get("better", "higher")
        if better not in ("higher", "lower"):
            raise ValueError(f"better must be 'higher' or 'lower', not {better!r}")
        bounds = []
        for key in ("low", "high"):
            value = data.get(key)
            if value is not None and (
                isinstance(value, bool)
                or not isinstance(value, int | float)
                or not math.isfinite(value)
            ):
                raise ValueError(f"{key} must be a finite number or null, not {value!r}")
            bounds.append(None if value is None else float(value))
        decimals = data.get("decimals", 1)
        if isinstance(decimals, bool) or not isinstance(decimals, int) or not 0 <= decimals <= 12:
            raise ValueError(f"decimals must be a whole number from 0 to 12, not {decimals!r}")
        return cls(better, bounds[0], bounds[1], decimals)


#: Words in a column's name that say lower is better (an error rate, a penalty).
_LOWER_IS_BETTER = ("mqm", "ter", "penalty", "error", "wer", "cer", "loss", "distance")


def infer_scale(values: npt.ArrayLike, name: str = "") -> Scale:
    """The scale an imported column most likely has, from its values (and its name).

    Values within 0..1 (COMET, BLEURT-20, xCOMET) get that range and three decimals; within
    0..100 the 0-100 range and one decimal; otherwise no bounds, with the decimals the
    magnitude needs; all at or below 0, negated penalties with 0 the best. A name that says
    error, penalty, TER or MQM is lower-is-better; the user can change any of it.
    """
    array = np.asarray(values, dtype=np.float64)
    finite = array[np.isfinite(array)]
    words = set(re.split(r"[^0-9a-z]+", name.lower()))
    better: Better = "lower" if words & set(_LOWER_IS_BETTER) else "higher"
    if finite.size == 0:
        return Scale(better)
    lo, hi = float(finite.min()), float(finite.max())
    if lo >= 0.0 and hi <= 1.0:
        return Scale(better, 0.0, 1.0, 3)
    if lo >= 0.0 and hi <= 100.0:
        whole = bool(np.all(finite == np.round(finite)))
        if better == "lower":
            return Scale(better, 0.0, None, 0 if whole else 2)
        return Scale(better, 0.0, 100.0, 0 if whole else 1)
    span = max(abs(lo), abs(hi))
    if hi <= 0.0:  # negated penalties (WMT's MQM scores): 0 is best
        return Scale("higher", None, 0.0, 0 if np.all(finite == np.round(finite)) else 2)
    decimals = 3 if span < 10 else 2 if span < 1000 else 1
    return Scale(better, 0.0 if lo >= 0 else None, None, decimals)


@dataclass(frozen=True, slots=True)
class MetricChunk:
    """A metric's results for the rows of one chunk and every system.

    ``scores`` has shape ``(S, n, C)`` for the metric's ``C`` columns; each ``stats`` array
    ``(S, n, ...)`` holds additive per-segment statistics (summing them over rows gives the
    corpus statistics); each ``row_flags`` array ``(n,)`` holds a per-row fact that does not
    depend on the system (such as "ROUGE-Lsum found no sentence boundary").
    """

    scores: FloatArray
    stats: Mapping[str, AnyArray] = field(default_factory=dict)
    row_flags: Mapping[str, AnyArray] = field(default_factory=dict)


class CorpusView(ABC):
    """The statistics of a set of rows of one system, as a metric's corpus function reads them."""

    count: int

    @abstractmethod
    def sum(self, name: str) -> AnyArray:
        """Statistic ``name`` summed over the rows (shape: the statistic's own shape)."""

    @abstractmethod
    def last(self, name: str) -> AnyArray:
        """Statistic ``name`` of the last row (in segment order); for NLTK's corpus BLEU."""

    @abstractmethod
    def mean(self, column: str) -> float:
        """Mean of a score column over the rows (NaN rows count as NaN)."""


@dataclass(frozen=True, slots=True)
class MetricCorpus:
    """A metric's corpus figures over a set of rows: one value per column, and the detail
    behind the headline (a :class:`~core.metrics.bleu.BleuScore`, a chrF breakdown...)."""

    values: Mapping[str, float]
    detail: object | None = None


# -- highlights and breakdowns ------------------------------------------------------------------

#: A painted range of an original line: ``(start, end, kind, level)``, half-open Python ``str``
#: indices. ``kind`` is ``match`` (``level`` = the n-gram order), ``unmatched`` (a token that
#: matched nothing), ``missed`` (a reference token no system matched) or ``lcs`` (level 1).
Range = tuple[int, int, str, int]


@dataclass(frozen=True, slots=True)
class HighlightMode:
    """A highlight layer as the app offers it: ``key`` (the layer's), a label, and the highest
    ``match`` level it paints (the legend shows one tint per level)."""

    key: str
    label: str
    max_level: int


class HighlightLayer(ABC):
    """What one metric matched in one row, as ranges to paint (one highlight mode of the app).

    ``key`` names the mode (``bleu``, ``lcs``, ``chrf``...), ``label`` says it to a user,
    ``max_level`` is the highest ``match`` level it uses (for the legend).
    """

    key: str
    label: str
    max_level: int

    @abstractmethod
    def hypothesis(self, system: int) -> list[Range]:
        """The ranges of system ``system``'s output."""

    @abstractmethod
    def reference(self, reference: int, system: int | None) -> list[Range]:
        """The ranges of reference ``reference`` as matched by ``system`` (None: any system)."""

    def links(self, system: int, reference: int) -> Sequence[tuple[Span, Span]]:
        """Pairs (output span, reference span) that matched each other, for hover highlights."""
        return ()


@dataclass(frozen=True, slots=True)
class Run:
    """A piece of breakdown text in one style."""

    text: str
    bold: bool = False
    italic: bool = False


@dataclass(frozen=True, slots=True)
class Block:
    """One block of a "why this score" breakdown: a title, a grid, then lines of text.

    ``right`` says which grid columns are right-aligned (numbers). The block is at least as
    wide as ``min_text``, so that the blocks next to it line up from one hypothesis to the next.
    """

    title: tuple[Run, ...]
    header: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    right: tuple[bool, ...]
    lines: tuple[tuple[Run, ...], ...]
    min_text: str = ""

    def text(self) -> str:
        """The block in plain text: grid cells separated by two spaces."""
        out = ["".join(r.text for r in self.title)]
        out.extend("  ".join(row).strip() for row in (self.header, *self.rows))
        out.extend("".join(r.text for r in line) for line in self.lines)
        return "\n".join(out)


class MetricRowDetail(ABC):
    """One metric's view of one row: its highlight layers, sentence scores and breakdowns."""

    metric: str
    layers: tuple[HighlightLayer, ...]

    @abstractmethod
    def values(self, system: int) -> Mapping[str, float]:
        """The sentence values of the metric's columns for ``system`` (equal to the table's)."""

    @abstractmethod
    def breakdown(self, system: int, reference_names: Sequence[str]) -> tuple[Block, ...]:
        """The "why this score" blocks of ``system``'s output."""


# -- the texts of a chunk -----------------------------------------------------------------------


def mask_separator(line: str, separator: str | None) -> str:
    """``line`` with every sentence separator blanked to spaces of the same length.

    BLEU, chrF and their highlights read the sentences of a marked line joined by spaces, never
    the marker itself as a word; blanking in place keeps every character offset of the original
    line, so highlights need no mapping. A newline separator is left alone: it is rouge-score's
    convention and sacreBLEU's tokenizers already treat a newline as a space.
    """
    if separator is None or separator == "\n" or separator not in line:
        return line
    return line.replace(separator, " " * len(separator))


@dataclass(slots=True)
class ChunkText:
    """The lines of one chunk of rows: ``references[r][k]`` and ``systems[s][k]`` for row ``k``.

    Metrics that read whole sentences get :meth:`lines` (separators blanked, see
    :func:`mask_separator`); :meth:`tokens` memoises each tokenizer's words so that two metrics
    with the same tokenizer tokenize a chunk once.
    """

    references: Sequence[Sequence[str]]
    systems: Sequence[Sequence[str]]
    separator: str | None = None
    _masked: list[list[str]] | None = None
    _tokens: dict[int, tuple[Tokenizer, list[list[list[str]]]]] = field(default_factory=dict)
    _encoded: dict[int, tuple[Tokenizer, Encoded]] = field(default_factory=dict)

    @property
    def n_rows(self) -> int:
        return len(self.references[0]) if self.references else 0

    def columns(self) -> list[Sequence[str]]:
        """The raw lines of every column: the references, then the systems."""
        return [*self.references, *self.systems]

    def lines(self) -> list[list[str]]:
        """Every column's lines with sentence separators blanked."""
        if self._masked is None:
            sep = self.separator
            self._masked = [[mask_separator(line, sep) for line in col] for col in self.columns()]
        return self._masked

    def tokens(self, tokenizer: Tokenizer) -> list[list[list[str]]]:
        """``tokenizer``'s words of every line of :meth:`lines`, column by column."""
        found = self._tokens.get(id(tokenizer))
        if found is None:
            from matchlight.core.text.tokenizers import lines_words

            found = (tokenizer, [lines_words(tokenizer, col) for col in self.lines()])
            self._tokens[id(tokenizer)] = found
        return found[1]

    def encoded(self, tokenizer: Tokenizer) -> Encoded:
        """:meth:`tokens` as integers (:func:`~core.metrics.ngrams.encode`), memoised the same
        way: metrics with the same tokenizer, and :meth:`encoded_by`, share them."""
        found = self._encoded.get(id(tokenizer))
        if found is None:
            from matchlight.core.metrics.ngrams import encode

            found = (tokenizer, encode(self.tokens(tokenizer), self.n_rows))
            self._encoded[id(tokenizer)] = found
        return found[1]

    def encoded_by(self, wanted: Callable[[Tokenizer], bool]) -> tuple[Tokenizer, Encoded] | None:
        """A tokenizer whose :meth:`encoded` words of this chunk are already made and that
        satisfies ``wanted``, with those words; None when there is none."""
        for tokenizer, encoded in self._encoded.values():
            if wanted(tokenizer):
                return tokenizer, encoded
        return None


# -- the metric -----------------------------------------------------------------------------------

ChunkScorer = Callable[[ChunkText], MetricChunk]


class Metric(ABC):
    """One metric, described once. Subclasses are stateless singletons in the registry."""

    #: Registry key, as in ``--metrics`` (``bleu``, ``chrf``...).
    key: ClassVar[str]
    label: ClassVar[str]
    description: ClassVar[str]
    settings_type: ClassVar[type[MetricSettings]]
    #: Whether the corpus figures can be computed from running sums alone (see
    #: :class:`CorpusView`); False when they need the last row (NLTK).
    running: ClassVar[bool] = True

    @property
    def settings(self) -> tuple[Setting, ...]:
        return self.settings_type.SPECS

    @abstractmethod
    def columns(self, settings: MetricSettings) -> tuple[ScoreColumn, ...]:
        """The per-segment columns under ``settings``, in display order."""

    @abstractmethod
    def stat_shapes(self, settings: MetricSettings) -> Mapping[str, tuple[int, ...]]:
        """Each additive statistic's per-segment shape (``()`` for a scalar)."""

    def row_flags(self) -> tuple[str, ...]:
        """Names of the per-row flags the chunks carry."""
        return ()

    @abstractmethod
    def highlight_modes(self, settings: MetricSettings) -> tuple[HighlightMode, ...]:
        """The highlight layers its row details carry, known before any row is detailed."""

    @abstractmethod
    def signature(
        self, settings: MetricSettings, *, nrefs: int, separator: str | None = None
    ) -> str:
        """The reproducibility signature of the corpus figure; ``separator`` is the comparison's
        sentence separator (see :func:`mask_separator`), for the metrics it changes."""

    def signatures(
        self, settings: MetricSettings, *, nrefs: int, separator: str | None = None
    ) -> dict[str, str]:
        """Every signature this metric reports, by name (the corpus one is ``self.key``)."""
        return {self.key: self.signature(settings, nrefs=nrefs, separator=separator)}

    @abstractmethod
    def chunk_scorer(self, settings: MetricSettings) -> ChunkScorer:
        """A function scoring a :class:`ChunkText` (tokenizers resolved once); picklable
        settings only, so that worker processes build their own."""

    @abstractmethod
    def corpus(self, settings: MetricSettings, view: CorpusView) -> MetricCorpus:
        """The corpus figures of the rows in ``view``."""

    def additive(
        self, settings: MetricSettings, stats: Mapping[str, AnyArray]
    ) -> tuple[AnyArray, Callable[[AnyArray], AnyArray]] | None:
        """The corpus figure as a function of summed statistics, for resampling tests.

        Returns the statistics of :meth:`chunk_scorer`'s ``stats`` (shapes ``(..., n, ...)``,
        any leading axes such as the systems) as one integer array ``(..., n, K)``, and the
        vectorised score of summed statistics ``(m, K) -> (m,)``. The score function takes
        integer sums (corpus figures, approximate randomization) and float32 sums (sacreBLEU's
        bootstrap resamples) and computes in them as the reference implementation does. None
        when the corpus figure is not a function of summed statistics: a mean of segment
        scores is resampled with :func:`mean_statistics` instead.
        """
        return None

    @abstractmethod
    def detailer(
        self, settings: MetricSettings, separator: str | None
    ) -> Callable[[Sequence[str], Sequence[str]], MetricRowDetail]:
        """A function ``(references, outputs) -> MetricRowDetail`` for single rows."""


def check_columns(
    references: Sequence[Sequence[str]], systems: Sequence[Sequence[str]], *, metric: str
) -> int:
    """The number of rows of a chunk scorer's columns of lines (``references`` and ``systems``,
    each a sequence of lines, all as long); a string where a column belongs, no reference, or
    columns of different lengths raise TypeError / ValueError naming ``metric``."""
    if isinstance(references, str) or isinstance(systems, str):
        raise TypeError("references and systems must be sequences of columns of lines")
    if len(references) == 0:
        raise ValueError(f"{metric} needs at least one reference column")
    n = len(references[0])
    for column in (*references, *systems):
        if isinstance(column, str):
            raise TypeError(f"a column must be a sequence of lines, not a string: {column[:40]!r}")
        if len(column) != n:
            raise ValueError(
                f"every reference and system column needs the same number of rows; got {n} and "
                f"{len(column)}"
            )
    return n
