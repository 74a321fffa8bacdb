"""BLEU, numerically identical to sacreBLEU 2.6.0: statistics and scores.

The pipeline follows sacreBLEU's design of additive statistics:

* :func:`chunk_stats` counts the clipped n-gram matches of many rows at once (the bulk scorer,
  in numpy, see :mod:`core.metrics.ngrams`); a segment's :class:`BleuStats` are the hypothesis
  length, the closest reference length, and the matches and totals per order;
* :func:`compute_bleu` turns (summed) statistics into a :class:`BleuScore`: a pure function of
  the statistics, so sentence BLEU, corpus BLEU (a sum of statistics) and bootstrap resamples
  all go through it; :func:`sacrebleu_scores` is the same arithmetic for many rows at once;
* :class:`BleuMetric` describes BLEU to the rest of Matchlight (see :mod:`core.metrics.base`).

Its options (settings, signature) are in :mod:`core.metrics.bleuoptions`; which tokens of one
row matched which (the highlights) is :mod:`core.metrics.bleudetail`.
"""

from __future__ import annotations

import math
import operator
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, cast

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
)
from matchlight.core.metrics.bleuoptions import (
    BLEU_OPTIONS,
    DEFAULT_MAX_ORDER,
    SMOOTH_METHODS,
    BleuSettings,
    bleu_signature,
    check_max_order,
    check_smooth_method,
)
from matchlight.core.metrics.ngrams import Column, Encoded, NgramCounts, encode
from matchlight.core.text.tokenizers import bleu_tokenizer_signature

if TYPE_CHECKING:
    from matchlight.core.metrics.bleudetail import BleuRowDetail

__all__ = [
    "SACREBLEU_VERSION",
    "BleuMetric",
    "BleuScore",
    "BleuStats",
    "chunk_stats",
    "compute_bleu",
    "encoded_stats",
    "sacrebleu_scores",
]

#: The sacreBLEU release whose numbers these are; its signatures carry this version.
SACREBLEU_VERSION = "2.6.0"

# sacrebleu floors log(0) to this value instead of -inf (``sacrebleu.utils.my_log``).
_LOG_OF_ZERO = -9999999999

IntArray = npt.NDArray[np.int64]
FloatArray = npt.NDArray[np.float64]
BoolArray = npt.NDArray[np.bool_]


def _check_tokens(tokens: object, what: str) -> None:
    """Reject a bare string, which would silently be scored as a list of characters."""
    if isinstance(tokens, str):
        raise TypeError(f"{what} must be a sequence of tokens, not a string: {tokens[:40]!r}")


def _closest_ref_len(hyp_len: int, ref_lens: tuple[int, ...]) -> int:
    """The reference length closest to ``hyp_len``; the shorter one on a tie (as sacrebleu)."""
    if len(ref_lens) == 1:
        return ref_lens[0]
    return min(ref_lens, key=lambda ref_len: (abs(hyp_len - ref_len), ref_len))


@dataclass(frozen=True, slots=True)
class BleuStats:
    """Additive sufficient statistics of BLEU for one segment or a sum of segments.

    ``matches[n - 1]`` is the number of clipped matching n-grams and ``totals[n - 1]`` the number
    of n-grams in the hypothesis, for ``1 <= n <= max_order``. ``ref_len`` is the closest
    reference length (summed over segments). ``sum(stats)`` works, and so does
    ``sum(stats, BleuStats.zero(max_order))``.
    """

    hyp_len: int
    ref_len: int
    matches: tuple[int, ...]
    totals: tuple[int, ...]

    @property
    def max_order(self) -> int:
        """The highest n-gram order these statistics cover."""
        return len(self.matches)

    @classmethod
    def zero(cls, max_order: int = DEFAULT_MAX_ORDER) -> BleuStats:
        """The neutral element of ``+`` for statistics of ``max_order`` orders."""
        check_max_order(max_order)
        zeros = (0,) * max_order
        return cls(0, 0, zeros, zeros)

    def __add__(self, other: BleuStats) -> BleuStats:
        if not isinstance(other, BleuStats):
            return NotImplemented
        if len(other.matches) != len(self.matches):
            raise ValueError(
                f"cannot add BLEU statistics of max order {len(self.matches)} "
                f"and {len(other.matches)}"
            )
        return BleuStats(
            self.hyp_len + other.hyp_len,
            self.ref_len + other.ref_len,
            tuple(map(operator.add, self.matches, other.matches)),
            tuple(map(operator.add, self.totals, other.totals)),
        )

    def __radd__(self, other: object) -> BleuStats:
        # Lets the built-in sum() start from its default 0.
        if isinstance(other, int) and not isinstance(other, bool) and other == 0:
            return self
        return NotImplemented


@dataclass(frozen=True, slots=True)
class BleuScore:
    """A BLEU score with its components, on sacrebleu's 0-100 scale."""

    score: float
    precisions: tuple[float, ...]
    bp: float
    sys_len: int
    ref_len: int
    #: The number of orders in the geometric mean (``max_order`` unless effective order is on).
    eff_order: int
    smooth_method: str
    #: The smoothing value actually used (the method's default when none was given).
    smooth_value: float | None

    def describe(self) -> str:
        """sacreBLEU's one-line detail: ``58.3/35.1/22.0/14.1 (BP = 1.000 ratio = 1.012 ...)``."""
        ratio = self.sys_len / self.ref_len if self.ref_len else 0.0
        return (
            "/".join(f"{p:.1f}" for p in self.precisions)
            + f" (BP = {self.bp:.3f} ratio = {ratio:.3f}"
            + f" hyp_len = {self.sys_len} ref_len = {self.ref_len})"
        )

    def json_fields(self) -> dict[str, object]:
        """The components for a JSON report (finite floats only)."""
        return {
            "bp": self.bp,
            "sys_len": self.sys_len,
            "ref_len": self.ref_len,
            "precisions": list(self.precisions),
        }


def compute_bleu(
    stats: BleuStats,
    *,
    smooth_method: str = "exp",
    smooth_value: float | None = None,
    effective_order: bool = False,
) -> BleuScore:
    """BLEU from its sufficient statistics, with sacrebleu's arithmetic and edge cases.

    The maximum order is ``len(stats.matches)``. Smoothing (Chen & Cherry, 2014):

    * ``none``: no smoothing;
    * ``floor``: a zero match count at order n gives precision ``smooth_value / totals[n]``;
    * ``add-k``: ``smooth_value`` is added to matches and totals of every order n > 1;
    * ``exp``: the k-th order with zero matches gets precision ``1 / (2**k * totals[n])``.

    With ``effective_order`` the geometric mean stops before the first order with no n-grams
    (sentence BLEU). When nothing matches at all the score is 0 whatever the smoothing, and
    the precisions are reported as 0, as in sacrebleu; ``eff_order`` is then the order the
    mean would have used.
    """
    check_smooth_method(smooth_method)
    max_order = len(stats.matches)
    if max_order == 0 or len(stats.totals) != max_order:
        raise ValueError(
            "BLEU statistics need as many totals as matches, at least one order; got "
            f"{len(stats.matches)} matches and {len(stats.totals)} totals"
        )
    value = SMOOTH_METHODS[smooth_method] if smooth_value is None else smooth_value

    sys_len = stats.hyp_len
    ref_len = stats.ref_len
    bp = 1.0
    if sys_len < ref_len:
        bp = math.exp(1 - ref_len / sys_len) if sys_len > 0 else 0.0

    precisions = [0.0] * max_order
    add_k = smooth_method == "add-k"
    exp_doubling = 1.0
    eff_order = max_order
    for n in range(1, max_order + 1):
        correct: float = stats.matches[n - 1]
        total: float = stats.totals[n - 1]
        if add_k and n > 1:
            assert value is not None  # add-k always has a value
            correct += value
            total += value
        if total == 0:
            break
        if effective_order:
            eff_order = n
        if correct == 0:
            if smooth_method == "exp":
                exp_doubling *= 2
                precisions[n - 1] = 100.0 / (exp_doubling * total)
            elif smooth_method == "floor":
                assert value is not None  # floor always has a value
                precisions[n - 1] = 100.0 * value / total
        else:
            precisions[n - 1] = 100.0 * correct / total

    if not any(stats.matches):
        # sacrebleu stops early (its issue #141): no match at any order scores 0.
        return BleuScore(
            0.0, (0.0,) * max_order, bp, sys_len, ref_len, eff_order, smooth_method, value
        )
    # Summed in the same order as sacrebleu so that the result is bit-identical (log(0) is
    # floored as sacrebleu's my_log does).
    log_sum = sum([_LOG_OF_ZERO if p == 0.0 else math.log(p) for p in precisions[:eff_order]])
    score = bp * math.exp(log_sum / eff_order)
    return BleuScore(
        score, tuple(precisions), bp, sys_len, ref_len, eff_order, smooth_method, value
    )


def sacrebleu_scores(
    hyp_len: npt.NDArray[Any],
    ref_len: npt.NDArray[Any],
    matches: npt.NDArray[Any],
    totals: npt.NDArray[Any],
    *,
    smooth_method: str,
    smooth_value: float | None,
    effective_order: bool,
) -> FloatArray:
    """:func:`core.metrics.bleu.compute_bleu` ``.score`` of many rows of statistics, bit for bit.

    ``hyp_len`` and ``ref_len`` have shape ``(rows,)``, ``matches`` and ``totals``
    ``(rows, max_order)``. ``smooth_value`` must already be the value in use (the method's
    default when none was given), as :attr:`BleuSettings.smoothing`.

    Integer statistics are computed as sacreBLEU computes its Python ints. float32 statistics
    are the sums of sacreBLEU's bootstrap resamples (``np.array(stats, dtype='float32')``
    summed), and are computed as sacreBLEU computes those under numpy's promotion rules: the
    counts, the add-k value, the exp doubling and the precisions stay float32 (a floor precision
    is ``float32(100 * value) / total``); lengths, logarithms and the result are float64.
    """
    rows, max_order = matches.shape
    work: type[np.floating[Any]] = np.float32 if matches.dtype == np.float32 else np.float64
    value = smooth_value
    scores = np.zeros(rows)
    # sacreBLEU's int() of the lengths: whole numbers, compared and divided exactly in float64.
    hyp = hyp_len.astype(np.float64)
    ref = ref_len.astype(np.float64)
    bp = np.ones(rows)
    short = hyp < ref
    bp[short & (hyp <= 0)] = 0.0
    shrink = np.flatnonzero(short & (hyp > 0))
    if shrink.size:
        exponent = 1 - ref[shrink] / hyp[shrink]
        bp[shrink] = np.fromiter(map(math.exp, exponent.tolist()), np.float64, shrink.size)

    hundred = work(100.0)
    precisions = np.zeros((rows, max_order), dtype=work)
    alive = np.ones(rows, np.bool_)
    eff_order = np.full(rows, max_order, np.int64)
    doubling = np.ones(rows, dtype=work)
    for n in range(1, max_order + 1):
        correct = matches[:, n - 1].astype(work)
        total = totals[:, n - 1].astype(work)
        if smooth_method == "add-k" and n > 1:
            correct = correct + work(value)  # type: ignore[arg-type]  # add-k always has a value
            total = total + work(value)  # type: ignore[arg-type]
        alive &= total != 0
        if effective_order:
            eff_order[alive] = n
        hit = alive & (correct != 0)
        precisions[hit, n - 1] = hundred * correct[hit] / total[hit]
        miss = alive & (correct == 0)
        if smooth_method == "exp":
            doubling[miss] *= 2
            precisions[miss, n - 1] = hundred / (doubling[miss] * total[miss])
        elif smooth_method == "floor":
            floor = work(100.0 * value)  # type: ignore[operator]  # floor always has a value
            precisions[miss, n - 1] = floor / total[miss]

    # Rows where nothing matches at all score 0 (sacrebleu stops early there).
    scored = cast(BoolArray, matches.any(axis=1))  # 2-D, so an array
    logs = np.full((rows, max_order), float(_LOG_OF_ZERO))
    positive = scored[:, None] & (precisions != 0.0)
    logs[positive] = np.fromiter(
        map(math.log, precisions[positive].astype(np.float64).tolist()),
        np.float64,
        int(positive.sum()),
    )
    for order in np.unique(eff_order[scored]).tolist():
        chosen = np.flatnonzero(scored & (eff_order == order))
        # The built-in sum over a list, as compute_bleu, so the rounding is the same.
        log_sum = np.fromiter(map(sum, logs[chosen, :order].tolist()), np.float64, chosen.size)
        means = (log_sum / order).tolist()
        scores[chosen] = bp[chosen] * np.fromiter(map(math.exp, means), np.float64, chosen.size)
    return scores


# -- many rows at once ------------------------------------------------------------------------


def chunk_stats(
    tokens: Sequence[Column], n_refs: int, max_order: int
) -> tuple[IntArray, IntArray, IntArray, IntArray]:
    """BLEU statistics of every system on every row of a chunk, counted in numpy.

    ``tokens[c][k]`` are the words of column ``c`` on row ``k``: the ``n_refs`` references first,
    then the systems. Returns ``hyp_len`` and ``ref_len`` ``(S, n)`` (the closest reference
    length, the shorter one on a tie, as sacreBLEU) and ``matches`` and ``totals``
    ``(S, n, max_order)``: clipping is the minimum of the hypothesis count and the maximum count
    in any single reference, as sacreBLEU's.
    """
    return encoded_stats(encode(tokens, len(tokens[0])), n_refs, max_order)


def encoded_stats(
    encoded: Encoded, n_refs: int, max_order: int
) -> tuple[IntArray, IntArray, IntArray, IntArray]:
    """:func:`chunk_stats` of tokens already made integers (:func:`~core.metrics.ngrams.encode`)."""
    n_sys = encoded.lengths.shape[0] - n_refs
    n = encoded.lengths.shape[1]
    counts = NgramCounts.from_ids(encoded.ids, encoded.lengths, n_refs)
    ref_lens = counts.lengths[:n_refs]
    hyp_len = np.ascontiguousarray(counts.lengths[n_refs:])
    if n_refs == 1:
        ref_len = np.broadcast_to(ref_lens[0], (n_sys, n)).copy()
    else:
        gap = np.abs(hyp_len[None, :, :] - ref_lens[:, None, :])
        closest = np.argmin(gap * (int(ref_lens.max(initial=0)) + 1) + ref_lens[:, None, :], axis=0)
        ref_len = np.take_along_axis(ref_lens[:, None, :], closest[None], axis=0)[0]
    matches = np.zeros((n_sys, n, max_order), np.int64)
    totals = np.zeros((n_sys, n, max_order), np.int64)
    for m in range(1, max_order + 1):
        totals[:, :, m - 1] = np.maximum(hyp_len - m + 1, 0)
        counts.advance()
        shared = counts.counts
        allowed = shared[0] if n_refs == 1 else shared[:n_refs].max(axis=0)
        matches[:, :, m - 1] = counts.row_sums(np.minimum(shared[n_refs:], allowed))
    return hyp_len, ref_len, matches, totals


class BleuMetric(Metric):
    """sacreBLEU's BLEU: sentence BLEU per segment, corpus BLEU from the summed statistics."""

    key = BLEU_OPTIONS.key
    label = BLEU_OPTIONS.label
    description = (
        "sacreBLEU 2.6.0: sentence BLEU per segment (sentence_bleu), corpus BLEU from the summed "
        "n-gram statistics (corpus_bleu)"
    )
    settings_type = BLEU_OPTIONS.settings_type

    def columns(self, settings: MetricSettings) -> tuple[ScoreColumn, ...]:
        return (
            ScoreColumn(
                "bleu",
                "BLEU",
                "BLEU",
                self.key,
                "Sentence BLEU (sacreBLEU); the corpus figure is corpus BLEU of the summed "
                "statistics, not the mean",
                corpus="stats",
                primary=True,
            ),
            ScoreColumn(
                "hyp_len",
                "Output tokens",
                "len",
                self.key,
                "Tokens of the output, as BLEU counts them",
                kind="count",
                corpus="sum",
                headline=False,
                high=None,
                decimals=0,
            ),
            ScoreColumn(
                "ref_len",
                "Reference tokens",
                "ref len",
                self.key,
                "Tokens of the closest reference, as BLEU counts them",
                kind="count",
                corpus="sum",
                headline=False,
                high=None,
                decimals=0,
            ),
        )

    def stat_shapes(self, settings: MetricSettings) -> dict[str, tuple[int, ...]]:
        order = cast(BleuSettings, settings).max_order
        return {"hyp_len": (), "ref_len": (), "matches": (order,), "totals": (order,)}

    def highlight_modes(self, settings: MetricSettings) -> tuple[HighlightMode, ...]:
        from matchlight.core.metrics.bleudetail import bleu_mode

        return (bleu_mode(cast(BleuSettings, settings)),)

    def signature(
        self, settings: MetricSettings, *, nrefs: int, separator: str | None = None
    ) -> str:
        s = cast(BleuSettings, settings)
        return bleu_signature(
            nrefs=nrefs,
            lowercase=s.lowercase,
            tokenize=bleu_tokenizer_signature(s.tokenize),
            smooth_method=s.smooth_method,
            smooth_value=s.smooth_value,
            effective_order=False,
            max_order=s.max_order,
            version=SACREBLEU_VERSION,
        )

    def signatures(
        self, settings: MetricSettings, *, nrefs: int, separator: str | None = None
    ) -> dict[str, str]:
        s = cast(BleuSettings, settings)
        sentence = bleu_signature(
            nrefs=nrefs,
            lowercase=s.lowercase,
            tokenize=bleu_tokenizer_signature(s.tokenize),
            smooth_method=s.smooth_method,
            smooth_value=s.smooth_value,
            effective_order=s.effective_order,
            max_order=s.max_order,
            version=SACREBLEU_VERSION,
        )
        return {"bleu": self.signature(s, nrefs=nrefs), "bleu_sentence": sentence}

    def chunk_scorer(self, settings: MetricSettings) -> Callable[[ChunkText], MetricChunk]:
        s = cast(BleuSettings, settings)
        tokenizer = s.tokenizer()

        def score(chunk: ChunkText) -> MetricChunk:
            n_refs = len(chunk.references)
            hyp_len, ref_len, matches, totals = encoded_stats(
                chunk.encoded(tokenizer), n_refs, s.max_order
            )
            n_sys, n = hyp_len.shape
            scores = np.empty((n_sys, n, 3))
            scores[:, :, 0] = sacrebleu_scores(
                hyp_len.reshape(-1),
                ref_len.reshape(-1),
                matches.reshape(-1, s.max_order),
                totals.reshape(-1, s.max_order),
                smooth_method=s.smooth_method,
                smooth_value=s.smoothing,
                effective_order=s.effective_order,
            ).reshape(n_sys, n)
            scores[:, :, 1] = hyp_len
            scores[:, :, 2] = ref_len
            stats = {"hyp_len": hyp_len, "ref_len": ref_len, "matches": matches, "totals": totals}
            return MetricChunk(scores=scores, stats=stats)

        return score

    def corpus(self, settings: MetricSettings, view: CorpusView) -> MetricCorpus:
        s = cast(BleuSettings, settings)
        summed = BleuStats(
            hyp_len=int(view.sum("hyp_len")),
            ref_len=int(view.sum("ref_len")),
            matches=tuple(int(x) for x in view.sum("matches")),
            totals=tuple(int(x) for x in view.sum("totals")),
        )
        score = compute_bleu(
            summed, smooth_method=s.smooth_method, smooth_value=s.smoothing, effective_order=False
        )
        values = {
            "bleu": score.score if view.count else math.nan,
            "hyp_len": float(summed.hyp_len),
            "ref_len": float(summed.ref_len),
        }
        return MetricCorpus(values=values, detail=score if view.count else None)

    def additive(
        self, settings: MetricSettings, stats: Mapping[str, Any]
    ) -> tuple[IntArray, Callable[[Any], FloatArray]]:
        """sacreBLEU's statistics layout, ``hyp_len, ref_len, matches[1..N], totals[1..N]``
        (``K = 2 + 2N``), and corpus BLEU (effective order off) of their sums."""
        s = cast(BleuSettings, settings)
        order = s.max_order
        width = 2 + 2 * order
        hyp = np.asarray(stats["hyp_len"])
        ref = np.asarray(stats["ref_len"])
        match = np.asarray(stats["matches"])
        total = np.asarray(stats["totals"])
        if (
            hyp.shape != ref.shape
            or match.shape != total.shape
            or match.shape != (*hyp.shape, order)
        ):
            raise ValueError(
                f"BLEU statistics of max order {order} need hyp_len and ref_len of one shape and "
                f"matches and totals of that shape plus ({order},); got {hyp.shape}, "
                f"{ref.shape}, {match.shape}, {total.shape}"
            )
        parts = [hyp[..., None], ref[..., None], match, total]
        table = np.concatenate([np.asarray(p, dtype=np.int64) for p in parts], axis=-1)

        def score(summed: Any) -> FloatArray:
            array = np.asarray(summed)
            if array.ndim != 2 or array.shape[1] != width:
                raise ValueError(
                    f"BLEU takes summed statistics of shape (m, {width}), not {array.shape}"
                )
            return sacrebleu_scores(
                array[:, 0],
                array[:, 1],
                array[:, 2 : 2 + order],
                array[:, 2 + order :],
                smooth_method=s.smooth_method,
                smooth_value=s.smoothing,
                effective_order=False,
            )

        return table, score

    def detailer(
        self, settings: MetricSettings, separator: str | None
    ) -> Callable[[Sequence[str], Sequence[str]], BleuRowDetail]:
        # One row's matches build on the statistics above: imported when rows are detailed.
        from matchlight.core.metrics.bleudetail import BleuRowDetail, match_row

        s = cast(BleuSettings, settings)
        tokenizer = s.tokenizer()
        (mode,) = self.highlight_modes(s)

        def detail(references: Sequence[str], outputs: Sequence[str]) -> BleuRowDetail:
            matches = match_row(
                tokenizer, references, outputs, max_order=s.max_order, separator=separator
            )
            return BleuRowDetail(s, matches, mode)

        return detail
