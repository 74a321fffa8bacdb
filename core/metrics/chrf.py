"""chrF and chrF++ on raw text, numerically identical to sacreBLEU 2.6.0's ``CHRF``.

The settings are sacreBLEU's defaults: character n-grams of orders ``1..char_order`` (6) taken
from the line with all whitespace removed (``whitespace=False``), word n-grams of orders
``1..word_order`` (0 for chrF, 2 for chrF++), ``beta`` 2, effective-order averaging
(``eps_smoothing=False``), and optional lowercasing of both sides first.

Statistics layout (sacreBLEU's, kept so that column sums are its corpus statistics): an int64
array whose last axis has ``K = 3 * (char_order + word_order)`` entries, for each character
order ``n = 1..char_order`` and then each word order ``n = 1..word_order`` the triple

    [hypothesis n-grams, reference n-grams, clipped matches]

where the hypothesis count is 0 whenever the reference has no n-gram of that order (sacreBLEU
does not count hypothesis n-grams an empty reference order cannot match). The statistics are
those of one reference: with several, each segment keeps the reference with the highest
sentence chrF, the first one on a tie.

* :func:`chrf_chunk` / :func:`chrf_chunk_stats`: the statistics of many rows and systems at
  once, in numpy (:class:`~matchlight.core.metrics.ngrams.NgramCounts`);
* :func:`chrf_from_stats`: scores from statistics, vectorised and bit-identical to sacreBLEU;
  a segment's statistics give sentence chrF, their column sums corpus chrF;
* :func:`chrf_breakdown`: per-order precision, recall and F-beta, for "why this score";
* :class:`ChrfMetric` describes chrF to the rest of Matchlight (see :mod:`core.metrics.base`).

Its options (settings, :func:`~core.metrics.chrfoptions.chrf_signature`) are in
:mod:`core.metrics.chrfoptions`; one row's matched characters and words (the highlights) are
:mod:`core.metrics.chrfdetail`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from itertools import chain
from typing import TYPE_CHECKING, Any, Final, Literal, cast, overload

import numpy as np
import numpy.typing as npt

from matchlight.core.metrics.base import (
    ChunkText,
    CorpusView,
    HighlightMode,
    Metric,
    MetricChunk,
    MetricCorpus,
    MetricSettings,
    ScoreColumn,
    check_columns,
    check_detail_size,
    mask_separator,
)
from matchlight.core.metrics.chrfoptions import (
    BETA,
    CHAR_ORDER,
    CHRF_OPTIONS,
    ChrfSettings,
    check_beta,
    check_orders,
    chrf_signature,
)
from matchlight.core.metrics.ngrams import NgramCounts

if TYPE_CHECKING:
    from matchlight.core.metrics.chrfdetail import ChrfRowDetail

__all__ = [
    "ChrfBreakdown",
    "ChrfChunk",
    "ChrfMetric",
    "ChrfOrder",
    "chrf_breakdown",
    "chrf_chunk",
    "chrf_chunk_stats",
    "chrf_from_stats",
    "chrf_name",
    "stats_width",
]

IntArray = npt.NDArray[np.int64]
FloatArray = npt.NDArray[np.float64]
BoolArray = npt.NDArray[np.bool_]

#: Unicode's code points (the size of the id lookup table of the bulk path).
_CODE_POINTS: Final = 0x110000
# sacreBLEU's stand-in for the precision or recall of an order with no n-grams.
_EPS: Final = 1e-16
# The most rows counted in one go; larger chunks are cut into pieces of this size.
_PIECE_ROWS: Final = 512

# sacreBLEU's chrF++ word split (``CHRF._remove_punctuation``): whitespace-separated words, and a
# word of two or more characters loses one ASCII punctuation character into a token of its own,
# its last if that is punctuation, else its first. Whitespace is what ``str.split()`` splits on,
# which is exactly ``str.isspace()`` and the regular expressions' ``\s`` (tested).
_PUNCT_SET: Final = frozenset("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~")
# Lookup tables by code point for the bulk path (:func:`_split_lines`): no whitespace character
# lies above U+3000 (tested), and the last entry of each table, False, stands for every code
# point beyond it.
_SPACE_LIMIT: Final = 0x3001
_IS_SPACE: Final = np.array([chr(c).isspace() for c in range(_SPACE_LIMIT)] + [False])
_IS_PUNCT: Final = np.array([chr(c) in _PUNCT_SET for c in range(128)] + [False])


def stats_width(*, char_order: int = CHAR_ORDER, word_order: int = 0) -> int:
    """``K``, the length of a segment's statistics: 3 per character and per word order."""
    return 3 * check_orders(char_order, word_order)


def chrf_name(*, beta: int = BETA, word_order: int = 0) -> str:
    """sacreBLEU's name of the score: ``chrF2`` for chrF, ``chrF2++`` for chrF++."""
    return f"chrF{check_beta(beta)}" + "+" * word_order


# -- scores from statistics ---------------------------------------------------------------


def _as_stats(stats: npt.ArrayLike, order: int) -> IntArray:
    array = np.asarray(stats)
    if array.dtype.kind not in "iu":
        raise TypeError(f"chrF statistics must be integers, got dtype {array.dtype}")
    if array.ndim == 0 or array.shape[-1] != 3 * order:
        raise ValueError(
            f"chrF statistics for {order} orders need a last axis of {3 * order}, "
            f"got shape {array.shape}"
        )
    return array.astype(np.int64, copy=False)


@dataclass(frozen=True, slots=True)
class _Components:
    """sacreBLEU's intermediate values, element-wise over the leading axes of the statistics."""

    precision: FloatArray  # (..., order): match / hyp, or eps where there is no hypothesis n-gram
    recall: FloatArray  # (..., order)
    effective: BoolArray  # (..., order): both sides have n-grams, so the order is averaged
    avg_precision: FloatArray  # (...)
    avg_recall: FloatArray  # (...)
    effective_order: IntArray  # (...)


def _components(stats: IntArray, order: int) -> _Components:
    """Per-order precision and recall and their effective-order averages, with sacreBLEU's
    operations in sacreBLEU's order (orders added one after the other), so bit-identical."""
    shape = stats.shape[:-1]
    hyp = stats[..., 0::3]
    ref = stats[..., 1::3]
    match = stats[..., 2::3].astype(np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        precision = np.where(hyp > 0, match / hyp, _EPS)
        recall = np.where(ref > 0, match / ref, _EPS)
    effective = (hyp > 0) & (ref > 0)
    avg_precision = np.zeros(shape)
    avg_recall = np.zeros(shape)
    for i in range(order):
        used = effective[..., i]
        avg_precision = np.where(used, avg_precision + precision[..., i], avg_precision)
        avg_recall = np.where(used, avg_recall + recall[..., i], avg_recall)
    effective_order = effective.sum(axis=-1, dtype=np.int64)
    some = effective_order > 0
    divisor = np.where(some, effective_order, 1)
    avg_precision = np.where(some, avg_precision / divisor, 0.0)
    avg_recall = np.where(some, avg_recall / divisor, 0.0)
    return _Components(precision, recall, effective, avg_precision, avg_recall, effective_order)


def _f_beta(precision: FloatArray, recall: FloatArray, factor: int) -> FloatArray:
    """sacreBLEU's final F-beta of the averaged precision and recall (0-1), 0 where both are 0."""
    total = precision + recall
    with np.errstate(divide="ignore", invalid="ignore"):
        score = (1 + factor) * precision * recall
        score = score / (factor * precision + recall)
    return np.where(total != 0, score, 0.0)


@overload
def chrf_from_stats(  # type: ignore[overload-overlap]  # a float32 array is array-like too
    stats: npt.NDArray[np.float32],
    *,
    char_order: int = ...,
    word_order: int = ...,
    beta: int = ...,
) -> npt.NDArray[np.float32] | FloatArray: ...


@overload
def chrf_from_stats(
    stats: npt.ArrayLike,
    *,
    char_order: int = ...,
    word_order: int = ...,
    beta: int = ...,
) -> FloatArray: ...


def chrf_from_stats(
    stats: npt.ArrayLike,
    *,
    char_order: int = CHAR_ORDER,
    word_order: int = 0,
    beta: int = BETA,
) -> npt.NDArray[np.float32] | FloatArray:
    """chrF (0-100) of statistics of shape ``(..., K)``, one score per leading index.

    Bit-identical to sacreBLEU's ``CHRF._compute_f_score`` with ``eps_smoothing=False``: only
    orders where both sides have n-grams are averaged, and a score with no match is 0.

    Integer statistics give float64 scores, as sacreBLEU's Python ints do. float32 statistics
    (sacreBLEU's bootstrap resample sums) are computed as sacreBLEU computes those under
    numpy's promotion rules: precisions, recalls, their averages and the F-score in float32.
    The scores are float32 unless one is 0: sacreBLEU returns that one as the Python float
    ``0.0``, and ``np.array`` of its scores is then float64, which decides the arithmetic of
    its means and p-values, so the array returned is float64 then.
    """
    order = check_orders(char_order, word_order)
    factor = check_beta(beta) ** 2
    array = np.asarray(stats)
    if array.dtype != np.float32:
        if array.size and array.dtype.kind not in "iu":
            raise TypeError(
                f"chrF statistics must be integers (or float32 resample sums), got dtype "
                f"{array.dtype}"
            )
        parts = _components(_as_stats(array, order), order)
        return 100 * _f_beta(parts.avg_precision, parts.avg_recall, factor)
    if array.ndim == 0 or array.shape[-1] != 3 * order:
        raise ValueError(
            f"chrF statistics for {order} orders need a last axis of {3 * order}, "
            f"got shape {array.shape}"
        )
    # sacreBLEU's loop: float32 counts, float32 precision and recall added order by order.
    hyp, ref, match = array[..., 0::3], array[..., 1::3], array[..., 2::3]
    effective = (hyp > 0) & (ref > 0)
    avg_precision = np.zeros(array.shape[:-1], np.float32)
    avg_recall = np.zeros(array.shape[:-1], np.float32)
    with np.errstate(divide="ignore", invalid="ignore"):
        for i in range(order):
            used = effective[..., i]
            avg_precision = np.where(
                used, avg_precision + match[..., i] / hyp[..., i], avg_precision
            )
            avg_recall = np.where(used, avg_recall + match[..., i] / ref[..., i], avg_recall)
    count = effective.sum(axis=-1)
    divisor = np.maximum(count, 1).astype(np.float32)
    avg_precision = np.where(count > 0, avg_precision / divisor, np.float32(0.0))
    avg_recall = np.where(count > 0, avg_recall / divisor, np.float32(0.0))
    # _f_beta's arithmetic keeps the float32 it is given (Python ints and floats are weak).
    scores = np.float32(100) * _f_beta(
        cast(FloatArray, avg_precision), cast(FloatArray, avg_recall), factor
    )
    if ((avg_precision + avg_recall) == 0).any():
        return scores.astype(np.float64)
    return scores


@dataclass(frozen=True, slots=True)
class ChrfOrder:
    """One n-gram order of a chrF breakdown (precision, recall and F-beta on sacreBLEU's 0-1
    scale). An order where one side has no n-gram is not ``effective``: it does not enter the
    averages, and sacreBLEU puts ``1e-16`` in place of the precision or recall it cannot
    compute (its F-beta is then meaningless too)."""

    kind: Literal["char", "word"]
    n: int
    hyp_ngrams: int
    ref_ngrams: int
    matches: int
    precision: float
    recall: float
    f_beta: float
    effective: bool


@dataclass(frozen=True, slots=True)
class ChrfBreakdown:
    """Why a chrF score is what it is: each order, the averages and the score (0-100).

    ``precision`` and ``recall`` are the averages over the ``effective_order`` effective orders
    (0-1, 0 when there is none); ``score`` is their F-beta times 100, as
    :func:`chrf_from_stats`.
    """

    char_orders: tuple[ChrfOrder, ...]
    word_orders: tuple[ChrfOrder, ...]
    beta: int
    effective_order: int
    precision: float
    recall: float
    score: float


def chrf_breakdown(
    stats: npt.ArrayLike,
    *,
    char_order: int = CHAR_ORDER,
    word_order: int = 0,
    beta: int = BETA,
) -> ChrfBreakdown:
    """The :class:`ChrfBreakdown` of one segment's (or a corpus's summed) statistics ``(K,)``."""
    order = check_orders(char_order, word_order)
    factor = check_beta(beta) ** 2
    array = _as_stats(stats, order)
    if array.ndim != 1:
        raise ValueError(f"a breakdown needs one row of statistics, got shape {array.shape}")
    parts = _components(array, order)
    # sacreBLEU's per-order F-beta, 1e-16 where its denominator is 0.
    prec = parts.precision
    rec = parts.recall
    denom = factor * prec + rec
    with np.errstate(divide="ignore", invalid="ignore"):
        f_order = np.where(denom > 0, (1 + factor) * prec * rec / denom, _EPS)
    rows = [
        ChrfOrder(
            kind="char" if i < char_order else "word",
            n=i + 1 if i < char_order else i - char_order + 1,
            hyp_ngrams=int(array[3 * i]),
            ref_ngrams=int(array[3 * i + 1]),
            matches=int(array[3 * i + 2]),
            precision=float(prec[i]),
            recall=float(rec[i]),
            f_beta=float(f_order[i]),
            effective=bool(parts.effective[i]),
        )
        for i in range(order)
    ]
    score = 100 * _f_beta(parts.avg_precision, parts.avg_recall, factor)
    return ChrfBreakdown(
        char_orders=tuple(rows[:char_order]),
        word_orders=tuple(rows[char_order:]),
        beta=beta,
        effective_order=int(parts.effective_order),
        precision=float(parts.avg_precision),
        recall=float(parts.avg_recall),
        score=float(score),
    )


# -- statistics of a chunk ----------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ChrfChunk:
    """The statistics of a chunk of rows: ``stats[s, k]`` (``(S, n, K)``) are system ``s``'s
    on row ``k`` against ``reference[s, k]`` (``(S, n)``), the reference sacreBLEU keeps."""

    stats: IntArray
    reference: IntArray


@dataclass(frozen=True, slots=True)
class _Split:
    """Many lines as chrF reads them: the code points of every line without whitespace, one
    array, with the number of characters per line; and the chrF++ word tokens of every line,
    one list, with the number of tokens per line (None when not asked for)."""

    points: npt.NDArray[np.uint32]
    char_counts: IntArray
    words: list[str] | None
    word_counts: IntArray | None


def _split_lines(lines: Sequence[str], words: bool) -> _Split:
    """:class:`_Split` of ``lines``, from their code points in numpy (per-line Python string
    methods took a large share of the bulk time); the same results as ``"".join(line.split())``
    and sacreBLEU's word split, per line (tested)."""
    n = len(lines)
    lengths = np.fromiter(map(len, lines), np.int64, n)
    # One newline between lines: whitespace, so no word or kept character crosses a line.
    points = np.frombuffer("\n".join(lines).encode("utf-32-le", "surrogatepass"), np.uint32)
    ends = np.cumsum(lengths + 1) - 1  # each line's end (its newline, or the end of the text)
    starts = ends - lengths
    solid = ~_IS_SPACE[np.minimum(points, _SPACE_LIMIT)]
    before = np.zeros(points.size + 1, np.int64)
    np.cumsum(solid, out=before[1:])
    chars = points[solid]
    split = _Split(chars, before[ends] - before[starts], None, None)
    if not words:
        return split
    if points.size == 0:  # a single empty line
        return _Split(chars, split.char_counts, [], np.zeros(n, np.int64))
    first = np.flatnonzero(solid & ~np.concatenate(([False], solid[:-1])))  # of each word
    last = np.flatnonzero(solid & ~np.concatenate((solid[1:], [False])))
    long = last > first
    is_punct = _IS_PUNCT[np.minimum(points, _IS_PUNCT.size - 1)]
    cut_last = long & is_punct[last]
    cut_first = long & ~cut_last & is_punct[first]
    # A space before the last character or after the first, then ``str.split``.
    cuts = np.sort(np.concatenate((last[cut_last], first[cut_first] + 1)))
    tokens = np.insert(points, cuts, ord(" ")).tobytes().decode("utf-32-le", "surrogatepass")
    line_of = np.searchsorted(starts, first, side="right") - 1
    counts = np.bincount(line_of, minlength=n) + np.bincount(
        line_of[cut_last | cut_first], minlength=n
    )
    found = tokens.split()
    if len(found) != int(counts.sum()):
        raise RuntimeError("chrF++ word split: the whitespace tables disagree with str.split")
    return _Split(split.points, split.char_counts, found, counts.astype(np.int64))


def _fill(per_ref: IntArray, counts: NgramCounts, first: int, orders: int, n_refs: int) -> None:
    """Write orders ``first + 1 .. first + orders`` of ``per_ref`` (``(R, S, n, K)``) from
    ``counts`` (columns: the ``n_refs`` references, then the systems)."""
    ref_len = counts.lengths[:n_refs]  # (R, n)
    hyp_len = counts.lengths[n_refs:]  # (S, n)
    for m in range(1, orders + 1):
        counts.advance()
        column = counts.counts
        k = 3 * (first + m - 1)
        ref_total = np.maximum(ref_len - m + 1, 0)
        hyp_total = np.maximum(hyp_len - m + 1, 0)
        per_ref[..., k] = np.where(ref_total[:, None] > 0, hyp_total[None], 0)
        per_ref[..., k + 1] = ref_total[:, None]
        clipped = np.minimum(column[None, n_refs:], column[:n_refs, None])  # (R, S, G)
        per_ref[..., k + 2] = counts.row_sums(clipped)


def _chunk_piece(
    references: Sequence[Sequence[str]],
    systems: Sequence[Sequence[str]],
    char_order: int,
    word_order: int,
    beta: int,
    lowercase: bool,
) -> tuple[IntArray, IntArray]:
    n_refs = len(references)
    n_sys = len(systems)
    n = len(references[0])
    order = char_order + word_order
    per_ref = np.zeros((n_refs, n_sys, n, 3 * order), np.int64)
    if n_sys == 0 or n == 0:
        return per_ref[0], np.zeros((n_sys, n), np.int64)
    lines: list[str] = list(chain.from_iterable((*references, *systems)))
    if lowercase:
        lines = [line.lower() for line in lines]
    split = _split_lines(lines, word_order > 0)
    shape = (n_refs + n_sys, n)
    if char_order:
        # The characters are the tokens; a code point's id is the position of one of its
        # occurrences (a lookup table, far cheaper than a dict of one-character strings).
        points = split.points
        table = np.empty(_CODE_POINTS, np.int64)
        table[points] = np.arange(points.size)
        ids = table[points]
        counts = NgramCounts.from_ids(ids, split.char_counts.reshape(shape), n_refs)
        _fill(per_ref, counts, 0, char_order, n_refs)
        del counts
    if split.words is not None and split.word_counts is not None:
        counts = NgramCounts.from_flat(split.words, split.word_counts.reshape(shape), n_refs)
        _fill(per_ref, counts, char_order, word_order, n_refs)
        del counts
    if n_refs == 1:
        return per_ref[0], np.zeros((n_sys, n), np.int64)
    # The reference with the highest sentence chrF, the first one on a tie (argmax), as
    # sacreBLEU's strict ``f_score > best_f_score``; the same bit-identical scores decide.
    scores = chrf_from_stats(per_ref, char_order=char_order, word_order=word_order, beta=beta)
    best = np.argmax(scores, axis=0)  # (S, n)
    stats = np.take_along_axis(per_ref, best[None, :, :, None], axis=0)[0]
    return stats, best.astype(np.int64)


def chrf_chunk(
    references: Sequence[Sequence[str]],
    systems: Sequence[Sequence[str]],
    *,
    char_order: int = CHAR_ORDER,
    word_order: int = 0,
    beta: int = BETA,
    lowercase: bool = False,
) -> ChrfChunk:
    """Statistics of every system on every row of a chunk, and the reference each row keeps.

    ``references[r][k]`` is reference ``r`` of row ``k``, ``systems[s][k]`` system ``s``'s
    output. ``beta`` only matters with several references (it decides which one is kept).
    """
    check_orders(char_order, word_order)
    check_beta(beta)
    n = check_columns(references, systems, metric="chrF")
    if n <= _PIECE_ROWS:
        stats, chosen = _chunk_piece(references, systems, char_order, word_order, beta, lowercase)
        return ChrfChunk(stats=stats, reference=chosen)
    # Large chunks are counted in pieces: smaller sorts, dicts and arrays are faster.
    parts = [
        _chunk_piece(
            [column[a : a + _PIECE_ROWS] for column in references],
            [column[a : a + _PIECE_ROWS] for column in systems],
            char_order,
            word_order,
            beta,
            lowercase,
        )
        for a in range(0, n, _PIECE_ROWS)
    ]
    return ChrfChunk(
        stats=np.concatenate([stats for stats, _ in parts], axis=1),
        reference=np.concatenate([chosen for _, chosen in parts], axis=1),
    )


def chrf_chunk_stats(
    references: Sequence[Sequence[str]],
    systems: Sequence[Sequence[str]],
    *,
    char_order: int = CHAR_ORDER,
    word_order: int = 0,
    beta: int = BETA,
    lowercase: bool = False,
) -> IntArray:
    """:attr:`ChrfChunk.stats` of :func:`chrf_chunk`: ``(S, n, K)`` int64."""
    return chrf_chunk(
        references,
        systems,
        char_order=char_order,
        word_order=word_order,
        beta=beta,
        lowercase=lowercase,
    ).stats


class ChrfMetric(Metric):
    """sacreBLEU's chrF (and chrF++): sentence chrF per segment, corpus chrF from the summed
    statistics."""

    key = CHRF_OPTIONS.key
    label = CHRF_OPTIONS.label
    description = (
        "sacreBLEU 2.6.0's chrF (chrF++ with word order 2): character n-gram F-score per "
        "segment; the corpus figure comes from the summed statistics, not the mean"
    )
    settings_type = CHRF_OPTIONS.settings_type

    def columns(self, settings: MetricSettings) -> tuple[ScoreColumn, ...]:
        s = cast(ChrfSettings, settings)
        name = chrf_name(beta=s.beta, word_order=s.word_order)
        return (
            ScoreColumn(
                "chrf",
                name,
                "chrF++" if s.word_order else "chrF",
                self.key,
                f"Sentence {name} (sacreBLEU); the corpus figure is {name} of the summed "
                "statistics, not the mean",
                corpus="stats",
                primary=True,
            ),
        )

    def stat_shapes(self, settings: MetricSettings) -> dict[str, tuple[int, ...]]:
        s = cast(ChrfSettings, settings)
        return {"stats": (stats_width(char_order=s.char_order, word_order=s.word_order),)}

    def highlight_modes(self, settings: MetricSettings) -> tuple[HighlightMode, ...]:
        s = cast(ChrfSettings, settings)
        if not s.char_order:  # word n-grams only: no character is highlighted
            return ()
        from matchlight.core.metrics.chrfdetail import ChrfLayer

        return (HighlightMode(ChrfLayer.key, ChrfLayer.label, s.char_order),)

    def signature(
        self, settings: MetricSettings, *, nrefs: int, separator: str | None = None
    ) -> str:
        s = cast(ChrfSettings, settings)
        return chrf_signature(
            nrefs=nrefs, char_order=s.char_order, word_order=s.word_order, lowercase=s.lowercase
        )

    def chunk_scorer(self, settings: MetricSettings) -> Callable[[ChunkText], MetricChunk]:
        s = cast(ChrfSettings, settings)

        def score(chunk: ChunkText) -> MetricChunk:
            lines = chunk.lines()
            n_refs = len(chunk.references)
            stats = chrf_chunk_stats(
                lines[:n_refs],
                lines[n_refs:],
                char_order=s.char_order,
                word_order=s.word_order,
                beta=s.beta,
                lowercase=s.lowercase,
            )
            scores = chrf_from_stats(
                stats, char_order=s.char_order, word_order=s.word_order, beta=s.beta
            )
            return MetricChunk(scores=scores[..., None], stats={"stats": stats})

        return score

    def corpus(self, settings: MetricSettings, view: CorpusView) -> MetricCorpus:
        s = cast(ChrfSettings, settings)
        if not view.count:
            return MetricCorpus(values={"chrf": float("nan")})
        summed = view.sum("stats")
        breakdown = chrf_breakdown(
            summed, char_order=s.char_order, word_order=s.word_order, beta=s.beta
        )
        return MetricCorpus(values={"chrf": breakdown.score}, detail=breakdown)

    def additive(
        self, settings: MetricSettings, stats: Mapping[str, Any]
    ) -> tuple[IntArray, Callable[[Any], npt.NDArray[np.float32] | FloatArray]]:
        """sacreBLEU's statistics layout (``hyp, ref, match`` per order, see the module) and
        corpus chrF of their sums (float32 on float32 sums, as :func:`chrf_from_stats`)."""
        s = cast(ChrfSettings, settings)
        width = stats_width(char_order=s.char_order, word_order=s.word_order)

        def score(summed: Any) -> npt.NDArray[np.float32] | FloatArray:
            array = np.asarray(summed)
            if array.ndim != 2 or array.shape[1] != width:
                raise ValueError(
                    f"chrF takes summed statistics of shape (m, {width}), not {array.shape}"
                )
            return chrf_from_stats(
                array, char_order=s.char_order, word_order=s.word_order, beta=s.beta
            )

        return np.asarray(stats["stats"], dtype=np.int64), score

    def detailer(
        self, settings: MetricSettings, separator: str | None
    ) -> Callable[[Sequence[str], Sequence[str]], ChrfRowDetail]:
        # One row's matches build on the statistics above: imported when rows are detailed.
        from matchlight.core.metrics.chrfdetail import ChrfDetail, ChrfRowDetail, chrf_detail

        s = cast(ChrfSettings, settings)

        def one(hypothesis: str, references: Sequence[str]) -> ChrfDetail:
            return chrf_detail(
                hypothesis=hypothesis,
                references=references,
                char_order=s.char_order,
                word_order=s.word_order,
                beta=s.beta,
                lowercase=s.lowercase,
            )

        def detail(references: Sequence[str], outputs: Sequence[str]) -> ChrfRowDetail:
            refs = [mask_separator(line, separator) for line in references]
            outs = [mask_separator(line, separator) for line in outputs]
            check_detail_size(max(map(len, (*refs, *outs))), "characters")
            hypothesis = [one(o, refs) for o in outs]
            per_reference = [[one(o, [r]) for r in refs] for o in outs]
            return ChrfRowDetail(s, refs, outs, hypothesis, per_reference)

        return detail
