"""How two systems differ: the n-grams one matches and the other misses, and the rows that move
the corpus score.

* :func:`ngram_differences` is compare-mt's n-gram difference analysis
  (``compare_mt/ngram_utils.py`` ``compare_ngrams`` with ``compare_type='match'``, ranked as
  ``stat_utils.extract_salient_features``), vectorised over the whole corpus with
  :class:`~matchlight.core.metrics.ngrams.NgramCounts`.
* :func:`difference_influence` ranks rows by how much each one changes score(A) - score(B),
  for any metric whose corpus score is a function of summed per-row statistics (corpus BLEU
  and chrF from :meth:`~matchlight.core.metrics.base.Metric.additive`, a mean of sentence
  scores from :func:`~matchlight.core.metrics.base.mean_statistics`): the statistics of "every
  row but one" are the total minus that row, so all rows are done in one vectorised call of
  the score function.
* :func:`row_index` is what every analysis makes of a row selection.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import chain
from typing import Any, cast

import numpy as np
import numpy.typing as npt

from matchlight.core.metrics.base import Better
from matchlight.core.metrics.ngrams import NgramCounts

__all__ = [
    "NgramDifference",
    "NgramDifferences",
    "ScoreFunction",
    "ScoreInfluence",
    "StatsArray",
    "difference_influence",
    "leave_one_out",
    "ngram_differences",
    "row_index",
]

IntArray = npt.NDArray[np.int64]
FloatArray = npt.NDArray[np.float64]
BoolArray = npt.NDArray[np.bool_]

#: The token lists of one column (a reference or a system output), one per row.
TokenColumn = Sequence[Sequence[str]]

#: Additive per-row statistics, ``(rows, k)``: integers (BLEU) or floats (a mean).
StatsArray = npt.NDArray[Any]

#: A corpus score as a function of summed statistics: ``(m, k)`` rows of sums -> ``(m,)`` scores.
ScoreFunction = Callable[[StatsArray], npt.NDArray[Any]]


def row_index(rows: npt.ArrayLike | None, n_rows: int) -> IntArray:
    """The row numbers selected by ``rows`` (None: all; a boolean mask; row numbers), sorted
    and without duplicates: a selection is a set of rows, analysed in corpus order whatever
    order a view shows it in.

    Raises ValueError for a mask of the wrong length or a row number out of range, so that a
    stale selection never silently picks other rows.
    """
    if rows is None:
        return np.arange(n_rows, dtype=np.int64)
    array = np.asarray(rows)
    if array.dtype == np.bool_:
        if array.shape != (n_rows,):
            raise ValueError(
                f"a row mask needs one entry per segment ({n_rows}), got shape {array.shape}"
            )
        return np.flatnonzero(array).astype(np.int64)
    if array.size == 0:
        return np.zeros(0, np.int64)
    if array.ndim != 1 or not np.issubdtype(array.dtype, np.integer):
        raise ValueError("rows must be None, a boolean mask or a 1-D array of row numbers")
    index = np.unique(array.astype(np.int64))
    if index[0] < 0 or index[-1] >= n_rows:
        raise ValueError(f"row numbers must be in 0..{n_rows - 1}")
    return index


# -- n-gram differences (compare-mt) ----------------------------------------------------------


@dataclass(frozen=True, slots=True, eq=False)
class NgramDifference:
    """One n-gram of the report: its matches by each system and the rows where they happen.

    ``score`` is compare-mt's ``(count_a + alpha) / (count_a + count_b + 2 * alpha)`` in both
    lists: near 1 when only A matches it, near 0 when only B does. ``rows`` are the rows on
    which A or B matches it (ascending), ``row_count_a`` / ``row_count_b`` the clipped matches
    of each system on those rows.
    """

    ngram: tuple[str, ...]
    score: float
    count_a: int
    count_b: int
    rows: IntArray
    row_count_a: IntArray
    row_count_b: IntArray

    @property
    def order(self) -> int:
        return len(self.ngram)


@dataclass(frozen=True, slots=True)
class NgramDifferences:
    """The two lists of :func:`ngram_differences`.

    ``a_better`` holds the n-grams A matches more often than B, highest score first;
    ``b_better`` those B matches more often, lowest score first (B's strongest first).
    ``n_ngrams`` counts the distinct n-grams matched at least once by either system.
    """

    a_better: tuple[NgramDifference, ...]
    b_better: tuple[NgramDifference, ...]
    alpha: float
    min_order: int
    max_order: int
    n_ngrams: int


@dataclass(slots=True)
class _Matches:
    """Clipped matches of A and B per corpus n-gram (``count_a``, ``count_b``, ...: one value per
    n-gram, orders one after the other) and per (row, n-gram) pair (``pair_*``)."""

    count_a: IntArray
    count_b: IntArray
    order: IntArray
    first_row: IntArray  # the lowest row (of the selection) where A or B matches it
    spot: IntArray  # a flat token position where it occurs, to spell it out
    pair_gram: npt.NDArray[np.int32]
    pair_row: npt.NDArray[np.int32]
    pair_a: npt.NDArray[np.int32]
    pair_b: npt.NDArray[np.int32]


def _dense_ngram_ids(tokens: IntArray, width: int) -> IntArray:
    """Dense ids of the rows of ``tokens`` (``(K, m)`` token ids below ``width``): equal rows,
    equal ids; ids ordered as the token sequences (lexicographically by token id)."""
    key = tokens[:, 0]
    for j in range(1, tokens.shape[1]):
        # ``key`` is dense (< K <= width) after the first unique, so this stays below 2**63.
        _, key = np.unique(key * width + tokens[:, j], return_inverse=True)
        key = key.reshape(-1)
    _, dense = np.unique(key, return_inverse=True)
    return cast(IntArray, dense.reshape(-1).astype(np.int64))


def _count_matches(
    counts: NgramCounts, n_refs: int, min_order: int, max_order: int
) -> _Matches | None:
    """Advance ``counts`` (columns: the references, then A, then B) through ``max_order`` and
    collect the clipped matches of A and B of orders ``min_order..max_order``."""
    parts: list[tuple[IntArray, ...]] = []
    offset = 0
    for m in range(1, max_order + 1):
        counts.advance()
        table = counts.counts  # (columns, (row, m-gram) pairs)
        if m < min_order or table.shape[1] == 0:
            continue
        ref_max = table[:n_refs].max(axis=0)
        clip_a = np.minimum(table[n_refs], ref_max)
        clip_b = np.minimum(table[n_refs + 1], ref_max)
        keep = np.flatnonzero((clip_a > 0) | (clip_b > 0))
        if keep.size == 0:
            continue
        # One occurrence of every (row, m-gram) pair (which one does not matter), and from its
        # tokens the m-gram's id in the whole corpus.
        position = np.empty(table.shape[1], np.int64)
        position[counts.gram] = counts.positions
        at = position[keep]
        gram = _dense_ngram_ids(counts.ids[at[:, None] + np.arange(m)], counts.width)
        n_grams = int(gram.max()) + 1
        rows = counts.gram_row[keep]
        first_row = np.full(n_grams, counts.n_rows, np.int64)
        np.minimum.at(first_row, gram, rows)
        spot = np.empty(n_grams, np.int64)
        spot[gram] = at
        parts.append(
            (
                np.bincount(gram, clip_a[keep], n_grams).astype(np.int64),
                np.bincount(gram, clip_b[keep], n_grams).astype(np.int64),
                np.full(n_grams, m, np.int64),
                first_row,
                spot,
                gram + offset,
                rows,
                clip_a[keep],
                clip_b[keep],
            )
        )
        offset += n_grams
    if not parts:
        return None
    joined = [np.concatenate(column) for column in zip(*parts, strict=True)]
    small = [a.astype(np.int32) for a in joined[5:]]  # per pair: 4 x 4 bytes
    return _Matches(*joined[:5], *small)


def ngram_differences(
    *,
    references: Sequence[TokenColumn],
    system_a: TokenColumn,
    system_b: TokenColumn,
    min_order: int = 1,
    max_order: int = 4,
    alpha: float = 1.0,
    top: int = 50,
    rows: npt.ArrayLike | None = None,
) -> NgramDifferences:
    """The n-grams that system A matches in the references more often than system B, and the
    reverse: compare-mt's n-gram difference analysis (``compare_type='match'``).

    What is counted: on each row, an n-gram of a system's output counts as matched as often
    as it occurs there, clipped to its count in the reference (with several references, to
    its largest count in any one of them, as BLEU clips). ``count_a`` sums these clipped
    matches over the rows. n-grams of orders ``min_order..max_order`` are ranked together by
    ``(count_a + alpha) / (count_a + count_b + 2 * alpha)``, as compare-mt does; ``top``
    entries are kept on each side. With one reference this is compare-mt's ``match`` count.

    Ties (frequent with small counts) have no defined order in compare-mt (it iterates a
    set); here they go to the n-gram with more matches in total, then the one matched first
    (lowest row), then the lower order. compare-mt lists its top entries even when they do
    not separate the systems; here an n-gram both systems match equally often is never
    listed. ``rows`` (a boolean mask or row numbers) restricts the analysis to those rows;
    the rows reported are always numbers of the whole corpus.
    """
    if not 1 <= min_order <= max_order:
        raise ValueError(f"need 1 <= min_order <= max_order, got {min_order}..{max_order}")
    if alpha <= 0:
        raise ValueError(f"alpha must be positive, got {alpha}")
    if top < 0:
        raise ValueError(f"top must not be negative, got {top}")
    if not references:
        raise ValueError("at least one reference is needed")
    n_total = len(system_a)
    for column in (*references, system_b):
        if len(column) != n_total:
            raise ValueError("references and systems must have the same number of rows")
    selected = row_index(rows, n_total)
    columns: list[TokenColumn] = [*references, system_a, system_b]
    if rows is not None:
        columns = [[column[i] for i in selected.tolist()] for column in columns]
    n_rows = len(selected)
    lengths = np.array([[len(line) for line in column] for column in columns], np.int64)
    lengths = lengths.reshape(len(columns), n_rows)
    counts = NgramCounts.from_flat(
        chain.from_iterable(chain.from_iterable(columns)), lengths, len(references)
    )
    found = _count_matches(counts, len(references), min_order, max_order)
    if found is None:
        return NgramDifferences((), (), alpha, min_order, max_order, 0)
    ca, cb = found.count_a, found.count_b
    # The same floating-point operations as compare-mt's extract_salient_features.
    score = (ca + alpha) / ((ca + cb) + 2 * alpha)
    evidence = ca + cb

    def ranked(candidates: IntArray, descending: bool) -> IntArray:
        key = -score[candidates] if descending else score[candidates]
        # np.lexsort sorts by the last key first.
        order = np.lexsort(
            (found.order[candidates], found.first_row[candidates], -evidence[candidates], key)
        )
        return cast(IntArray, candidates[order[:top]])

    best_a = ranked(np.flatnonzero(ca > cb), True)
    best_b = ranked(np.flatnonzero(cb > ca), False)

    # The rows of the reported n-grams only, grouped by n-gram.
    wanted = np.concatenate([best_a, best_b])
    hit = np.flatnonzero(np.isin(found.pair_gram, wanted))
    hit = hit[np.lexsort((found.pair_row[hit], found.pair_gram[hit]))]
    hit_gram = found.pair_gram[hit]
    low = np.searchsorted(hit_gram, wanted).tolist()
    high = np.searchsorted(hit_gram, wanted, side="right").tolist()
    span = dict(zip(wanted.tolist(), zip(low, high, strict=True), strict=True))
    starts = np.zeros(lengths.size + 1, np.int64)
    np.cumsum(lengths.reshape(-1), out=starts[1:])

    def spell(gram: int) -> tuple[str, ...]:
        position = int(found.spot[gram])
        line_number = int(np.searchsorted(starts, position, side="right")) - 1
        column, row = divmod(line_number, n_rows)
        start = position - int(starts[line_number])
        return tuple(columns[column][row][start : start + int(found.order[gram])])

    def entry(gram: int) -> NgramDifference:
        where = hit[slice(*span[gram])]
        return NgramDifference(
            ngram=spell(gram),
            score=float(score[gram]),
            count_a=int(ca[gram]),
            count_b=int(cb[gram]),
            rows=selected[found.pair_row[where]],
            row_count_a=found.pair_a[where].astype(np.int64),
            row_count_b=found.pair_b[where].astype(np.int64),
        )

    return NgramDifferences(
        a_better=tuple(entry(g) for g in best_a.tolist()),
        b_better=tuple(entry(g) for g in best_b.tolist()),
        alpha=alpha,
        min_order=min_order,
        max_order=max_order,
        n_ngrams=int(ca.size),
    )


# -- what moves the corpus score --------------------------------------------------------------


def leave_one_out(stats: StatsArray, score: ScoreFunction) -> FloatArray:
    """``score`` of the sum of every row but one, for each row: ``(n, k)`` -> ``(n,)``.

    The sums are the total minus the row (exact for integer statistics), scored in one call.
    """
    matrix = np.asarray(stats)
    if matrix.ndim != 2:
        raise ValueError("statistics must be a (rows, k) matrix")
    total = matrix.sum(axis=0)
    return score(total[None, :] - matrix)


@dataclass(frozen=True, slots=True, eq=False)
class ScoreInfluence:
    """How much each row contributes to score(A) - score(B).

    ``rows`` are the rows considered (numbers of the whole corpus); ``effect[i]`` is A's lead
    minus A's lead without ``rows[i]``, where the lead is ``difference`` when higher is better
    and ``-difference`` when lower is (``better``, TER): positive when the row adds to A's
    lead, negative when it adds to B's. ``order`` sorts ``rows`` by effect, largest first
    (ties by row number), so its head is what helps A most and its tail what helps B most.
    """

    rows: IntArray
    score_a: float
    score_b: float
    effect: FloatArray
    order: IntArray
    better: Better = "higher"

    @property
    def difference(self) -> float:
        """score(A) - score(B) over all the rows considered."""
        return self.score_a - self.score_b

    def helps_a(self, k: int) -> IntArray:
        """The ``k`` rows that most favour A (positive effect only), strongest first."""
        head = self.order[:k]
        return cast(IntArray, self.rows[head[self.effect[head] > 0]])

    def helps_b(self, k: int) -> IntArray:
        """The ``k`` rows that most favour B (negative effect only), strongest first."""
        tail = self.order[::-1][:k]
        return cast(IntArray, self.rows[tail[self.effect[tail] < 0]])


def difference_influence(
    *,
    stats_a: StatsArray,
    stats_b: StatsArray,
    score: ScoreFunction,
    rows: npt.ArrayLike | None = None,
    better: Better = "higher",
) -> ScoreInfluence:
    """Rank rows by how much leaving each one out changes score(A) - score(B).

    ``stats_a`` / ``stats_b`` are ``(n, k)`` additive per-row statistics of the two systems
    and ``score`` turns rows of summed statistics into corpus scores: a metric's
    :meth:`~matchlight.core.metrics.base.Metric.additive` pair, or
    :func:`~matchlight.core.metrics.base.mean_statistics` with
    :func:`~matchlight.core.metrics.base.mean_score`. ``rows`` restricts the analysis to a
    subset: the scores are then those of the subset. ``better`` is the column's direction
    (:attr:`~matchlight.core.metrics.base.ScoreColumn.better`): with ``lower`` a row that
    raises A's score counts against A.
    """
    a = np.asarray(stats_a)
    b = np.asarray(stats_b)
    if a.ndim != 2 or b.ndim != 2 or a.shape[0] != b.shape[0]:
        raise ValueError("stats_a and stats_b must be (rows, k) matrices with equal rows")
    selected = row_index(rows, a.shape[0])
    a, b = a[selected], b[selected]
    both = score(np.stack([a.sum(axis=0), b.sum(axis=0)]))
    score_a, score_b = float(both[0]), float(both[1])
    without = np.subtract(leave_one_out(a, score), leave_one_out(b, score))
    effect = (score_a - score_b) - without
    if better == "lower":
        effect = -effect
    elif better != "higher":
        raise ValueError(f"better must be 'higher' or 'lower', not {better!r}")
    order = np.lexsort((selected, -effect)).astype(np.int64)
    return ScoreInfluence(selected, score_a, score_b, effect, order, better)
