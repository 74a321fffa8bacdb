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
* :func:`chrf_detail`: one row's matched characters and words, for highlighting;
* :func:`chrf_signature`: sacreBLEU's reproducibility signature.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from itertools import chain, groupby
from typing import Any, ClassVar, Final, Literal, cast, overload

import numpy as np
import numpy.typing as npt

from matchlight.core.metrics.base import (
    Block,
    ChunkText,
    CorpusView,
    HighlightLayer,
    HighlightMode,
    Metric,
    MetricChunk,
    MetricCorpus,
    MetricRowDetail,
    MetricSettings,
    Range,
    ScoreColumn,
    Setting,
    SettingError,
    check_columns,
    check_detail_size,
    mask_separator,
)
from matchlight.core.metrics.base import Run as BlockRun
from matchlight.core.metrics.lcs import match_masks
from matchlight.core.metrics.matching import match_orders
from matchlight.core.metrics.ngrams import NgramCounts
from matchlight.core.metrics.signature import format_signature

__all__ = [
    "BETA",
    "CHAR_ORDER",
    "CHRF_PLUS_WORD_ORDER",
    "SACREBLEU_VERSION",
    "ChrfBreakdown",
    "ChrfChunk",
    "ChrfDetail",
    "ChrfMetric",
    "ChrfOrder",
    "ChrfSettings",
    "chrf_breakdown",
    "chrf_chunk",
    "chrf_chunk_stats",
    "chrf_detail",
    "chrf_details",
    "chrf_from_stats",
    "chrf_name",
    "chrf_signature",
    "stats_width",
]

IntArray = npt.NDArray[np.int64]
FloatArray = npt.NDArray[np.float64]
BoolArray = npt.NDArray[np.bool_]

#: The sacreBLEU release whose numbers (and signature) this module reproduces.
SACREBLEU_VERSION: Final = "2.6.0"
#: sacreBLEU's default character n-gram order.
CHAR_ORDER: Final = 6
#: The word n-gram order of chrF++ (chrF has 0).
CHRF_PLUS_WORD_ORDER: Final = 2
#: sacreBLEU's default beta: recall weighs beta**2 = 4 times as much as precision.
BETA: Final = 2

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
_PUNCT: Final = re.escape("".join(sorted(_PUNCT_SET)))
# The split with offsets, for one line: the word up to a final punctuation character; a first
# punctuation character followed by more; anything else up to the end of the word (a whole word,
# a split-off last character, or the rest after a split-off first one).
_WORD: Final = re.compile(rf"(?<!\S)\S+?(?=[{_PUNCT}](?!\S))|(?<!\S)[{_PUNCT}](?=\S)|\S+")
_NON_SPACE: Final = re.compile(r"\S")

# Lookup tables by code point for the bulk path (:func:`_split_lines`): no whitespace character
# lies above U+3000 (tested), and the last entry of each table, False, stands for every code
# point beyond it.
_SPACE_LIMIT: Final = 0x3001
_IS_SPACE: Final = np.array([chr(c).isspace() for c in range(_SPACE_LIMIT)] + [False])
_IS_PUNCT: Final = np.array([chr(c) in _PUNCT_SET for c in range(128)] + [False])

#: ``(start, end, level)``: original-text characters ``start..end-1`` share a level.
LevelRun = tuple[int, int, int]
#: ``(start, end, order)``: a matched word n-gram of that order over the original text.
WordSpan = tuple[int, int, int]


def _check_order(name: str, value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ValueError(f"{name} must be a non-negative integer, got {value!r}")
    return value


def _check_orders(char_order: object, word_order: object) -> int:
    """The number of orders, ``char_order + word_order``, once both are checked."""
    order = _check_order("char_order", char_order) + _check_order("word_order", word_order)
    if order == 0:
        raise ValueError("chrF needs char_order + word_order >= 1")
    return order


def _check_beta(beta: object) -> int:
    if isinstance(beta, bool) or not isinstance(beta, int) or beta < 0:
        raise ValueError(f"beta must be a non-negative integer, got {beta!r}")
    return beta


def stats_width(*, char_order: int = CHAR_ORDER, word_order: int = 0) -> int:
    """``K``, the length of a segment's statistics: 3 per character and per word order."""
    return 3 * _check_orders(char_order, word_order)


def chrf_name(*, beta: int = BETA, word_order: int = 0) -> str:
    """sacreBLEU's name of the score: ``chrF2`` for chrF, ``chrF2++`` for chrF++."""
    return f"chrF{_check_beta(beta)}" + "+" * word_order


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
    order = _check_orders(char_order, word_order)
    factor = _check_beta(beta) ** 2
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
    order = _check_orders(char_order, word_order)
    factor = _check_beta(beta) ** 2
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
    _check_orders(char_order, word_order)
    _check_beta(beta)
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


# -- highlights -----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ChrfDetail:
    """One row's chrF statistics and what matched where, for highlighting.

    * ``stats`` (``K`` ints, the layout of the module docstring) and ``breakdown`` are against
      ``references[reference_index]``, the reference sacreBLEU keeps; they equal
      :func:`chrf_chunk`'s for that row.
    * ``hypothesis_chars[p]`` is the index in the original hypothesis of character ``p`` of the
      text the character n-grams are taken from (lowercased if asked, whitespace removed); the
      same for the reference in ``reference_chars``.
    * ``char_pairs[n - 1]``: ``(i, j)`` for each matched character n-gram, at ``i..i+n-1`` of
      the hypothesis characters and ``j..j+n-1`` of the reference's. An n-gram occurring ``k``
      times in the hypothesis and ``c`` times in the reference is matched at its first
      ``min(k, c)`` occurrences on each side, the i-th with the i-th, so there are as many pairs
      as ``stats`` counts matches.
    * ``hypothesis_runs`` / ``reference_runs``: ``(start, end, level)`` runs that partition the
      original text (Python ``str`` indices, half-open), ``level`` being the highest order of a
      matched character n-gram covering the character (0 = none, and always 0 for whitespace).
      An n-gram spans removed whitespace, so its characters may lie in separate runs.
    * chrF++ only (empty for chrF): ``hypothesis_tokens`` / ``reference_tokens`` are the
      ``(start, end)`` of each word token in the original text, ``word_pairs[n - 1]`` the
      ``(i, j)`` token indices of each matched word n-gram (clipped as the characters), and
      ``hypothesis_words`` / ``reference_words`` the matched word n-grams as
      ``(start, end, order)`` spans of the original text, sorted.
    """

    stats: tuple[int, ...]
    reference_index: int
    breakdown: ChrfBreakdown
    hypothesis_chars: tuple[int, ...]
    reference_chars: tuple[int, ...]
    char_pairs: tuple[tuple[tuple[int, int], ...], ...]
    hypothesis_runs: tuple[LevelRun, ...]
    reference_runs: tuple[LevelRun, ...]
    hypothesis_tokens: tuple[tuple[int, int], ...]
    reference_tokens: tuple[tuple[int, int], ...]
    word_pairs: tuple[tuple[tuple[int, int], ...], ...]
    hypothesis_words: tuple[WordSpan, ...]
    reference_words: tuple[WordSpan, ...]


@dataclass(frozen=True, slots=True)
class _Side:
    """One text as chrF sees it, every character and word mapped back to the original text."""

    length: int  # of the original text
    chars: str  # the characters of the character n-grams
    char_origin: list[int]  # the original index of each of ``chars``
    words: list[str]  # the chrF++ word tokens (empty for chrF)
    word_spans: list[tuple[int, int]]  # their (start, end) in the original text


def _side(text: str, lowercase: bool, words: bool) -> _Side:
    seen = text.lower() if lowercase else text
    origin: Sequence[int]
    if len(seen) == len(text):
        origin = range(len(text))
    else:
        # Lowercasing maps each character on its own to a fixed number of characters (only the
        # final sigma depends on context, and it stays one character), so these lengths say
        # which original character every lowercased one comes from.
        origin = list(chain.from_iterable([i] * len(c.lower()) for i, c in enumerate(text)))
        if len(origin) != len(seen):
            raise RuntimeError("cannot map the lowercased text back to the original text")
    kept = [m.start() for m in _NON_SPACE.finditer(seen)]
    spans: list[tuple[int, int]] = []
    tokens: list[str] = []
    if words:
        for m in _WORD.finditer(seen):
            tokens.append(m.group())
            spans.append((origin[m.start()], origin[m.end() - 1] + 1))
    return _Side(
        length=len(text),
        chars="".join([seen[p] for p in kept]),
        char_origin=[origin[p] for p in kept],
        words=tokens,
        word_spans=spans,
    )


@dataclass(frozen=True, slots=True)
class _PreparedRef:
    """A reference prepared once for every hypothesis of its row: its :class:`_Side` and the
    match masks of its characters and words (:func:`core.metrics.lcs.match_masks`)."""

    side: _Side
    char_masks: dict[str, int]
    word_masks: dict[str, int]


def _matches(
    hyp: Sequence[str], masks: dict[str, int], max_order: int
) -> list[tuple[tuple[int, int], ...]]:
    """The clipped matches of orders ``1..max_order`` as ``(hyp start, ref start)`` pairs."""
    if max_order == 0:
        return []
    get = masks.get
    pairs = [
        tuple(zip(starts, ref, strict=True))
        for starts, ref, _ in match_orders([get(t, 0) for t in hyp], max_order)
    ]
    return pairs + [()] * (max_order - len(pairs))


def _segment_stats(
    hyp_len: int, ref_len: int, pairs: Sequence[Sequence[tuple[int, int]]]
) -> list[int]:
    """One kind's part of the statistics (module docstring) from lengths and matches."""
    stats: list[int] = []
    for n, matched in enumerate(pairs, start=1):
        ref_total = max(ref_len - n + 1, 0)
        stats += (max(hyp_len - n + 1, 0) if ref_total else 0, ref_total, len(matched))
    return stats


def _runs(
    side: _Side, pairs: Sequence[Sequence[tuple[int, int]]], which: int
) -> tuple[LevelRun, ...]:
    """Runs of equal level over the original text, from the matched n-grams of every order
    (their starts on this side are ``pair[which]``)."""
    levels = [0] * len(side.chars)
    for n, matched in enumerate(pairs, start=1):
        row = [n] * n
        for pair in matched:
            start = pair[which]
            levels[start : start + n] = row  # orders ascend: the highest one is left
    original = [0] * side.length
    for p, level in zip(side.char_origin, levels, strict=True):
        if level > original[p]:  # a lowercased character may come from the same original one
            original[p] = level
    runs: list[LevelRun] = []
    start = 0
    for level, group in groupby(original):
        end = start + sum(1 for _ in group)
        runs.append((start, end, level))
        start = end
    return tuple(runs)


def _word_spans(
    side: _Side, pairs: Sequence[Sequence[tuple[int, int]]], which: int
) -> tuple[WordSpan, ...]:
    spans = side.word_spans
    found = [
        (spans[pair[which]][0], spans[pair[which] + n - 1][1], n)
        for n, matched in enumerate(pairs, start=1)
        for pair in matched
    ]
    return tuple(sorted(found))


def chrf_details(
    *,
    hypotheses: Sequence[str],
    references: Sequence[str],
    char_order: int = CHAR_ORDER,
    word_order: int = 0,
    beta: int = BETA,
    lowercase: bool = False,
) -> tuple[ChrfDetail, ...]:
    """:func:`chrf_detail` of several hypotheses of one row (every system's output) against the
    same references, which are prepared once."""
    _check_orders(char_order, word_order)
    _check_beta(beta)
    for what, texts in (("hypotheses", hypotheses), ("references", references)):
        if isinstance(texts, str) or not all(isinstance(text, str) for text in texts):
            raise TypeError(f"{what} must be a sequence of strings")
    if len(references) == 0:
        raise ValueError("chrF needs at least one reference")
    words = word_order > 0
    prepared = []
    for ref in references:
        side = _side(ref, lowercase, words)
        prepared.append(_PreparedRef(side, match_masks(side.chars), match_masks(side.words)))
    settings = (char_order, word_order, beta)
    return tuple(_detail(_side(hyp, lowercase, words), prepared, *settings) for hyp in hypotheses)


def chrf_detail(
    *,
    hypothesis: str,
    references: Sequence[str],
    char_order: int = CHAR_ORDER,
    word_order: int = 0,
    beta: int = BETA,
    lowercase: bool = False,
) -> ChrfDetail:
    """The statistics of one hypothesis plus its matched characters and words (see
    :class:`ChrfDetail`), against the reference sacreBLEU keeps.

    The matches come from :func:`core.metrics.matching.match_orders` with the characters (and
    the words) as tokens, so time and memory grow like those of BLEU's highlights of a line with
    that many tokens; the tests check that the statistics equal :func:`chrf_chunk`'s.
    """
    if not isinstance(hypothesis, str):
        raise TypeError(f"hypothesis must be a string, got {type(hypothesis).__name__}")
    (detail,) = chrf_details(
        hypotheses=[hypothesis],
        references=references,
        char_order=char_order,
        word_order=word_order,
        beta=beta,
        lowercase=lowercase,
    )
    return detail


def _detail(
    hyp: _Side, refs: Sequence[_PreparedRef], char_order: int, word_order: int, beta: int
) -> ChrfDetail:
    char_pairs = [_matches(hyp.chars, ref.char_masks, char_order) for ref in refs]
    word_pairs = [_matches(hyp.words, ref.word_masks, word_order) for ref in refs]
    per_ref = np.array(
        [
            _segment_stats(len(hyp.chars), len(ref.side.chars), chars)
            + _segment_stats(len(hyp.words), len(ref.side.words), words)
            for ref, chars, words in zip(refs, char_pairs, word_pairs, strict=True)
        ],
        np.int64,
    ).reshape(len(refs), 3 * (char_order + word_order))
    index = 0
    if len(refs) > 1:
        # The same decision, on the same bit-identical scores, as the bulk path.
        scores = chrf_from_stats(per_ref, char_order=char_order, word_order=word_order, beta=beta)
        index = int(np.argmax(scores))
    ref = refs[index].side
    chars = char_pairs[index]
    words = word_pairs[index]
    return ChrfDetail(
        stats=tuple(per_ref[index].tolist()),
        reference_index=index,
        breakdown=chrf_breakdown(
            per_ref[index], char_order=char_order, word_order=word_order, beta=beta
        ),
        hypothesis_chars=tuple(hyp.char_origin),
        reference_chars=tuple(ref.char_origin),
        char_pairs=tuple(chars),
        hypothesis_runs=_runs(hyp, chars, 0),
        reference_runs=_runs(ref, chars, 1),
        hypothesis_tokens=tuple(hyp.word_spans),
        reference_tokens=tuple(ref.word_spans),
        word_pairs=tuple(words),
        hypothesis_words=_word_spans(hyp, words, 0),
        reference_words=_word_spans(ref, words, 1),
    )


# -- signature ------------------------------------------------------------------------------


def chrf_signature(
    *,
    nrefs: int,
    char_order: int = CHAR_ORDER,
    word_order: int = 0,
    lowercase: bool = False,
    n_bootstrap: int = 1,
    seed: int | None = None,
    short: bool = False,
    version: str = SACREBLEU_VERSION,
) -> str:
    """sacreBLEU's chrF signature, e.g. ``nrefs:1|case:mixed|eff:yes|nc:6|nw:0|space:no|
    version:2.6.0`` (equal to ``str(CHRF(...).get_signature())`` after a ``corpus_score``).

    ``nrefs=-1`` means a variable number of references per segment (``var``). With
    ``n_bootstrap > 1`` the bootstrap fields follow ``nrefs``, ``bs:<n>|seed:<seed>``, where a
    ``seed`` of None is an unseeded generator (``none``). beta is not part of sacreBLEU's
    signature (it is in the score's name, :func:`chrf_name`). ``short`` gives the short form.
    """
    _check_orders(char_order, word_order)
    if isinstance(nrefs, bool) or not isinstance(nrefs, int) or (nrefs < 1 and nrefs != -1):
        raise ValueError(f"nrefs must be a positive integer or -1 (variable), got {nrefs!r}")
    fields: list[tuple[str, object]] = [("nrefs", "var" if nrefs == -1 else nrefs)]
    if n_bootstrap > 1:
        fields += [("bs", n_bootstrap), ("seed", str(seed).lower())]
    fields += [
        ("case", "lc" if lowercase else "mixed"),
        ("eff", "yes"),  # eps_smoothing=False: effective-order averaging
        ("nc", char_order),
        ("nw", word_order),
        ("space", "no"),  # whitespace=False
        ("version", version),
    ]
    return format_signature(fields, short=short)


# -- describing chrF to the rest of Matchlight ---------------------------------------------------


@dataclass(frozen=True, slots=True)
class ChrfSettings(MetricSettings):
    """sacreBLEU's ``CHRF`` settings; the defaults are chrF (character 6-grams, beta 2)."""

    SPECS: ClassVar[tuple[Setting, ...]] = (
        Setting(
            key="word_order",
            label="Word n-gram order",
            kind="int",
            minimum=0,
            maximum=6,
            help="0 for chrF (default), 2 for chrF++ (character and word n-grams)",
            cli="--chrf-word-order",
        ),
        Setting(
            key="char_order",
            label="Character n-gram order",
            kind="int",
            minimum=0,
            maximum=12,
            help="character n-gram order (default 6; 0: word n-grams only, with "
            "--chrf-word-order 1 or more, as sacreBLEU)",
            cli="--chrf-char-order",
        ),
        Setting(
            key="beta",
            label="Beta",
            kind="int",
            minimum=0,
            maximum=9,
            help="recall weighs beta**2 times as much as precision (default 2; 0: precision "
            "alone, as sacreBLEU)",
            cli="--chrf-beta",
        ),
        Setting(
            key="lowercase",
            label="Lowercase",
            kind="flag",
            help="lowercase both sides before counting",
            cli="--chrf-lowercase",
        ),
    )

    word_order: int = 0
    char_order: int = CHAR_ORDER
    beta: int = BETA
    lowercase: bool = False

    def check(self) -> None:
        # With no n-grams at all sacreBLEU scores one line 0 and fails on two (IndexError);
        # say what is wrong instead.
        if self.char_order + self.word_order == 0:
            raise SettingError(
                "chrF needs some n-grams: a character order (--chrf-char-order) or a word "
                "order (--chrf-word-order) of 1 or more"
            )


class ChrfLayer(HighlightLayer):
    """The characters covered by matched character n-grams, shaded by the highest order.

    An output is shown against the reference sacreBLEU keeps for it; a reference shows what
    each system matched against that reference alone.
    """

    key = "chrf"
    label = "chrF characters"

    def __init__(
        self,
        max_level: int,
        references: Sequence[str],
        outputs: Sequence[str],
        hypothesis: Sequence[ChrfDetail],
        per_reference: Sequence[Sequence[ChrfDetail]],
    ) -> None:
        self.max_level = max_level
        self._references = references
        self._outputs = outputs
        self._hypothesis = hypothesis  # per system, against the reference sacreBLEU keeps
        self._per_reference = per_reference  # [system][reference]

    @staticmethod
    def _ranges(
        text: str, runs: Sequence[LevelRun], matched_elsewhere: Sequence[bool] | None
    ) -> list[Range]:
        ranges: list[Range] = []
        for start, end, level in runs:
            if level:
                ranges.append((start, end, "match", level))
                continue
            # Unmatched (or missed) characters, whitespace left plain.
            a = start
            while a < end:
                if text[a].isspace():
                    a += 1
                    continue
                b = a
                while b < end and not text[b].isspace():
                    b += 1
                if matched_elsewhere is None:
                    ranges.append((a, b, "unmatched", 0))
                else:
                    for c, d, hit in _split_by(matched_elsewhere, a, b):
                        ranges.append((c, d, "unmatched" if hit else "missed", 0))
                a = b
        return ranges

    def hypothesis(self, system: int) -> list[Range]:
        return self._ranges(self._outputs[system], self._hypothesis[system].hypothesis_runs, None)

    def reference(self, reference: int, system: int | None) -> list[Range]:
        text = self._references[reference]
        details = [per_ref[reference] for per_ref in self._per_reference]
        best = [0] * len(text)
        for detail in details:
            for start, end, level in detail.reference_runs:
                for p in range(start, end):
                    if level > best[p]:
                        best[p] = level
        matched = [level > 0 for level in best]
        if system is None:
            return self._ranges(text, _merge([(p, p + 1, x) for p, x in enumerate(best)]), matched)
        return self._ranges(text, details[system].reference_runs, matched)


def _merge(runs: Sequence[LevelRun]) -> list[LevelRun]:
    merged: list[LevelRun] = []
    for start, end, level in runs:
        if merged and merged[-1][2] == level and merged[-1][1] == start:
            merged[-1] = (merged[-1][0], end, level)
        else:
            merged.append((start, end, level))
    return merged


def _split_by(flags: Sequence[bool], start: int, end: int) -> list[tuple[int, int, bool]]:
    """``[start, end)`` cut into runs of equal ``flags``."""
    parts: list[tuple[int, int, bool]] = []
    a = start
    while a < end:
        b = a
        while b < end and flags[b] == flags[a]:
            b += 1
        parts.append((a, b, flags[a]))
        a = b
    return parts


def chrf_block(breakdown: ChrfBreakdown, *, name: str, reference: str) -> Block:
    """The "why this score" block of one chrF score (sacreBLEU's arithmetic on its counts)."""
    rows = [
        (
            f"{'char' if o.kind == 'char' else 'word'} {o.n}",
            f"{o.matches}/{o.hyp_ngrams}/{o.ref_ngrams}",
            f"{100 * o.precision:.1f}" if o.effective else "—",
            f"{100 * o.recall:.1f}" if o.effective else "—",
        )
        for o in (*breakdown.char_orders, *breakdown.word_orders)
    ]
    lines: list[tuple[BlockRun, ...]] = [
        (BlockRun(f"averaged over {breakdown.effective_order} orders with n-grams on both sides"),),
        (
            BlockRun(
                f"P = {100 * breakdown.precision:.2f}, R = {100 * breakdown.recall:.2f}, "
                f"beta = {breakdown.beta} (recall weighs {breakdown.beta**2}x)"
            ),
        ),
        (BlockRun(f"{name} = F-beta(P, R) = "), BlockRun(f"{breakdown.score:.2f}", bold=True)),
        (BlockRun(f"against {reference}", italic=True),),
    ]
    return Block(
        title=(BlockRun(name, bold=True),),
        header=("n-gram", "matched/out/ref", "P", "R"),
        rows=tuple(rows),
        right=(False, True, True, True),
        lines=tuple(lines),
        min_text="averaged over 00 orders with n-grams on both sides",
    )


class ChrfRowDetail(MetricRowDetail):
    metric = "chrf"

    def __init__(
        self,
        settings: ChrfSettings,
        references: Sequence[str],
        outputs: Sequence[str],
        hypothesis: Sequence[ChrfDetail],
        per_reference: Sequence[Sequence[ChrfDetail]],
    ) -> None:
        self._settings = settings
        self._hypothesis = hypothesis
        self._name = chrf_name(beta=settings.beta, word_order=settings.word_order)
        # Word n-grams alone (char_order 0) cover no characters: no layer to paint.
        self.layers = (
            (ChrfLayer(settings.char_order, references, outputs, hypothesis, per_reference),)
            if settings.char_order
            else ()
        )

    def detail(self, system: int) -> ChrfDetail:
        return self._hypothesis[system]

    def values(self, system: int) -> dict[str, float]:
        return {"chrf": self._hypothesis[system].breakdown.score}

    def breakdown(self, system: int, reference_names: Sequence[str]) -> tuple[Block, ...]:
        detail = self._hypothesis[system]
        r = detail.reference_index
        name = reference_names[r] if r < len(reference_names) else f"Ref {r + 1}"
        return (chrf_block(detail.breakdown, name=self._name, reference=name),)


class ChrfMetric(Metric):
    """sacreBLEU's chrF (and chrF++): sentence chrF per segment, corpus chrF from the summed
    statistics."""

    key = "chrf"
    label = "chrF"
    description = (
        "sacreBLEU 2.6.0's chrF (chrF++ with word order 2): character n-gram F-score per "
        "segment; the corpus figure comes from the summed statistics, not the mean"
    )
    settings_type = ChrfSettings

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
