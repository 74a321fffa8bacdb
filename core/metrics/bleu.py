"""BLEU, numerically identical to sacreBLEU 2.6.0: statistics, scores, signature, highlights.

The pipeline follows sacreBLEU's design of additive statistics:

* :func:`chunk_stats` counts the clipped n-gram matches of many rows at once (the bulk scorer,
  in numpy, see :mod:`core.metrics.ngrams`); a segment's :class:`BleuStats` are the hypothesis
  length, the closest reference length, and the matches and totals per order;
* :func:`compute_bleu` turns (summed) statistics into a :class:`BleuScore`: a pure function of
  the statistics, so sentence BLEU, corpus BLEU (a sum of statistics) and bootstrap resamples
  all go through it; :func:`sacrebleu_scores` is the same arithmetic for many rows at once;
* :func:`bleu_detail` says which tokens of one row matched which (the highlights), with the one
  matcher of :mod:`core.metrics.matching`;
* :class:`BleuMetric` describes BLEU to the rest of Matchlight (see :mod:`core.metrics.base`).
"""

from __future__ import annotations

import math
import operator
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from itertools import repeat
from typing import Any, ClassVar, cast

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
    Run,
    ScoreColumn,
    Setting,
    SettingError,
    check_detail_size,
    mask_separator,
)
from matchlight.core.metrics.lcs import match_masks
from matchlight.core.metrics.matching import OrderMatches, match_orders
from matchlight.core.metrics.ngrams import Column, NgramCounts
from matchlight.core.metrics.signature import format_signature
from matchlight.core.text.tokenizers import (
    BLEU_TOKENIZERS,
    Tokenizer,
    bleu_tokenizer,
    bleu_tokenizer_signature,
    bleu_tokenizer_unavailable,
)
from matchlight.core.text.types import Span, Tokens

__all__ = [
    "DEFAULT_MAX_ORDER",
    "SACREBLEU_VERSION",
    "SMOOTH_METHODS",
    "BleuDetail",
    "BleuMetric",
    "BleuScore",
    "BleuSettings",
    "BleuStats",
    "DetailRefs",
    "bleu_detail",
    "bleu_signature",
    "check_tokenizer_installed",
    "chunk_stats",
    "compute_bleu",
    "prepare_detail",
    "sacrebleu_scores",
]

#: Smoothing method name -> default smoothing value (the same defaults as sacrebleu).
SMOOTH_METHODS: dict[str, float | None] = {"none": None, "floor": 0.1, "add-k": 1, "exp": None}

#: The maximum n-gram order used unless told otherwise (BLEU-4).
DEFAULT_MAX_ORDER = 4
#: The highest order offered.
MAX_ORDER_LIMIT = 9

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


def _check_max_order(max_order: object) -> int:
    if isinstance(max_order, bool) or not isinstance(max_order, int) or max_order < 1:
        raise ValueError(f"max_order must be a positive integer, got {max_order!r}")
    return max_order


def _check_smooth_method(smooth_method: str) -> None:
    if smooth_method not in SMOOTH_METHODS:
        known = ", ".join(SMOOTH_METHODS)
        raise ValueError(f"unknown smooth_method {smooth_method!r}; expected one of: {known}")


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
        _check_max_order(max_order)
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
    _check_smooth_method(smooth_method)
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


def bleu_signature(
    *,
    nrefs: int,
    lowercase: bool,
    tokenize: str,
    smooth_method: str,
    smooth_value: float | None,
    effective_order: bool,
    max_order: int,
    version: str,
    short: bool = False,
) -> str:
    """A sacrebleu-style reproducibility signature, e.g.
    ``nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp|version:2.6.0``.

    ``nrefs=-1`` means a variable number of references per segment (shown as ``var``, as in
    sacrebleu). ``tokenize`` is the tokenizer's signature (``13a``, ``intl``, ``zh``,
    ``ko-mecab-0.996/ko-0.9.2-KO``: :func:`~core.text.tokenizers.bleu_tokenizer_signature`).
    Methods with a parameter show its value, e.g. ``smooth:floor[0.10]``. sacrebleu 2.6.0 does
    not record the maximum order (its open issue #251), so for the default order 4 the string
    is identical to sacrebleu's; any other order adds ``ngram:<order>`` before the version so
    that the signature still determines the number. ``short`` gives sacrebleu's short form.
    """
    _check_smooth_method(smooth_method)
    _check_max_order(max_order)
    smooth = smooth_method
    default = SMOOTH_METHODS[smooth_method]
    if default is not None:
        shown = default if smooth_value is None else smooth_value
        smooth += f"[{shown:.2f}]"
    fields: list[tuple[str, object]] = [
        ("nrefs", "var" if nrefs == -1 else nrefs),
        ("case", "lc" if lowercase else "mixed"),
        ("eff", "yes" if effective_order else "no"),
        ("tok", tokenize),
        ("smooth", smooth),
    ]
    if max_order != DEFAULT_MAX_ORDER:
        fields.append(("ngram", max_order))
    fields.append(("version", version))
    return format_signature(fields, short=short)


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
    n = len(tokens[0])
    n_sys = len(tokens) - n_refs
    counts = NgramCounts(tokens, n, n_refs)
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


# -- one row: what matched where ----------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class BleuDetail:
    """Which tokens of one hypothesis and its references took part in a BLEU match.

    * ``hyp_matches[n - 1]``: the sorted start positions of the clipped matched hypothesis
      n-grams. An n-gram occurring k times in the hypothesis, with maximum count c in any single
      reference, matches only at its first ``min(k, c)`` occurrences, so
      ``len(hyp_matches[n - 1]) == stats.matches[n - 1]``.
    * ``hyp_order[i]``: the highest order of those matched n-grams covering hypothesis token
      ``i`` (0 = unmatched).
    * ``ref_orders[r][j]``: the same for token ``j`` of reference ``r``, clipped against that
      reference alone (first ``min(k, count in r)`` occurrences on both sides).
    * ``links[r]``: sorted, distinct ``(hyp_index, ref_index)`` token pairs: the i-th matched
      occurrence of an n-gram in the hypothesis is paired, token by token, with its i-th
      occurrence in reference ``r``, for every order.
    """

    stats: BleuStats
    hyp_matches: tuple[tuple[int, ...], ...]
    hyp_order: tuple[int, ...]
    ref_orders: tuple[tuple[int, ...], ...]
    links: tuple[tuple[tuple[int, int], ...], ...]


@dataclass(frozen=True, slots=True, eq=False)
class DetailRefs:
    """The references of ONE segment, prepared once for :func:`bleu_detail`.

    ``masks[r]`` maps every token of reference ``r`` to the bit mask of its positions (bit ``j``
    set when token ``j`` is that token); treat it as read-only.
    """

    max_order: int
    lengths: tuple[int, ...]
    tokens: tuple[tuple[str, ...], ...]
    masks: tuple[dict[str, int], ...]


def prepare_detail(references: Sequence[Sequence[str]], max_order: int = 4) -> DetailRefs:
    """Prepare one segment's references for :func:`bleu_detail` (reusable for every system)."""
    _check_max_order(max_order)
    _check_tokens(references, "references")
    if len(references) == 0:
        raise ValueError("a segment needs at least one reference")
    tokens: list[tuple[str, ...]] = []
    for ref in references:
        _check_tokens(ref, "each reference")
        tokens.append(ref if isinstance(ref, tuple) else tuple(ref))
    return DetailRefs(
        max_order,
        tuple([len(ref) for ref in tokens]),
        tuple(tokens),
        tuple([match_masks(ref) for ref in tokens]),
    )


def _links(orders: Sequence[OrderMatches], width: int) -> tuple[tuple[int, int], ...]:
    """The distinct token pairs of the matched n-grams of every order, sorted.

    A "clean" order (see :data:`core.metrics.matching.OrderMatches`) holds the token pairs of
    every higher order already, so the walk stops there.
    """
    if not orders:
        return ()
    hyp, ref, clean = orders[0]
    if clean:
        return tuple(zip(hyp, ref, strict=True))
    step = width + 1  # (i + t, j + t) is t * (width + 1) after (i, j), as an integer key
    keys: set[int] = set()
    for n, (hyp, ref, clean) in enumerate(orders, start=1):
        base = [i * width + j for i, j in zip(hyp, ref, strict=True)]
        for offset in range(0, n * step, step):
            keys.update([key + offset for key in base])
        if clean:
            break
    return tuple(map(divmod, sorted(keys), repeat(width)))


def bleu_detail(hypothesis: Sequence[str], refs: DetailRefs) -> BleuDetail:
    """The statistics of one hypothesis plus the matched tokens, for highlighting.

    The statistics equal :func:`chunk_stats`' for the same row.
    """
    _check_tokens(hypothesis, "hypothesis")
    hyp_len = len(hypothesis)
    max_order = refs.max_order
    single = len(refs.lengths) == 1
    starts: list[set[int]] = [] if single else [set() for _ in range(max_order)]
    hyp_matches: list[tuple[int, ...]] = []
    ref_orders: list[tuple[int, ...]] = []
    links: list[tuple[tuple[int, int], ...]] = []
    hyp_levels = [0] * hyp_len
    for masks, width in zip(refs.masks, refs.lengths, strict=True):
        get = masks.get
        orders = match_orders([get(token, 0) for token in hypothesis], max_order)
        levels = [0] * width
        for n, (hyp, ref, _) in enumerate(orders, start=1):
            row = [n] * n
            for j in ref:
                levels[j : j + n] = row
            if single:
                for i in hyp:
                    hyp_levels[i : i + n] = row
                hyp_matches.append(tuple(hyp))
            else:
                starts[n - 1].update(hyp)
        ref_orders.append(tuple(levels))
        links.append(_links(orders, width))
    if single:
        hyp_matches += [()] * (max_order - len(hyp_matches))
    else:
        # Clipped with the maximum count over the references: the union of the per-reference
        # matches (each is a prefix of the n-gram's occurrences in the hypothesis).
        hyp_matches = [tuple(sorted(union)) for union in starts]
        for n, matched in enumerate(hyp_matches, start=1):
            row = [n] * n
            for i in matched:
                hyp_levels[i : i + n] = row
    totals = tuple([hyp_len - n if n < hyp_len else 0 for n in range(max_order)])
    return BleuDetail(
        BleuStats(
            hyp_len,
            _closest_ref_len(hyp_len, refs.lengths),
            tuple([len(m) for m in hyp_matches]),
            totals,
        ),
        tuple(hyp_matches),
        tuple(hyp_levels),
        tuple(ref_orders),
        tuple(links),
    )


# -- describing BLEU to the rest of Matchlight ---------------------------------------------------


def check_tokenizer_installed(name: str, option: str) -> None:
    """Raise :class:`SettingError` saying what to install when BLEU tokenizer ``name`` (the
    value of ``option``) needs packages that are missing here (``ja-mecab``, ``ko-mecab``)."""
    problem = bleu_tokenizer_unavailable(name)
    if problem is not None:
        raise SettingError(f"{option} {problem}")


_TOKENIZE = Setting(
    key="tokenize",
    label="Tokenizer",
    kind="choice",
    choices=BLEU_TOKENIZERS,
    help="sacreBLEU tokenizer: 13a (default), intl, char, zh (Chinese), ja-mecab (Japanese, "
    "needs matchlight[ja]), ko-mecab (Korean, needs matchlight[ko]), none (whitespace)",
    cli="--tokenize",
    aliases=("-tok",),
)
_LOWERCASE = Setting(
    key="lowercase",
    label="Lowercase",
    kind="flag",
    help="lowercase before tokenizing (case-insensitive BLEU)",
    cli="--lowercase",
    aliases=("-lc",),
)


@dataclass(frozen=True, slots=True)
class BleuSettings(MetricSettings):
    """sacreBLEU's BLEU settings; the defaults are ``sentence_bleu``'s and ``corpus_bleu``'s."""

    SPECS: ClassVar[tuple[Setting, ...]] = (
        _TOKENIZE,
        _LOWERCASE,
        Setting(
            key="smooth_method",
            label="Smoothing",
            kind="choice",
            choices=("exp", "floor", "add-k", "none"),
            help="sacreBLEU smoothing method (default: exp)",
            cli="--smooth",
        ),
        Setting(
            key="smooth_value",
            label="Smoothing value",
            kind="float",
            minimum=0.0,
            optional=True,
            help="value for floor (default 0.1) and add-k (default 1)",
            cli="--smooth-value",
        ),
        Setting(
            key="max_order",
            label="Max n-gram order",
            kind="int",
            minimum=1,
            maximum=MAX_ORDER_LIMIT,
            help="highest n-gram order (default 4)",
            cli="--max-order",
        ),
        Setting(
            key="effective_order",
            label="Effective order (sentence BLEU)",
            kind="flag",
            help="sentence BLEU without effective order (sacreBLEU's sentence_bleu uses it)",
            cli="--no-effective-order",
        ),
    )

    tokenize: str = "13a"
    lowercase: bool = False
    smooth_method: str = "exp"
    smooth_value: float | None = None
    max_order: int = DEFAULT_MAX_ORDER
    effective_order: bool = True

    def check(self) -> None:
        check_tokenizer_installed(self.tokenize, _TOKENIZE.cli)

    @property
    def smoothing(self) -> float | None:
        """The smoothing value in use: the explicit one, or sacreBLEU's default for the method."""
        if self.smooth_value is not None and self.smooth_method in ("floor", "add-k"):
            return self.smooth_value
        return SMOOTH_METHODS[self.smooth_method]

    def tokenizer(self) -> Tokenizer:
        return bleu_tokenizer(self.tokenize, lowercase=self.lowercase)


class BleuLayer(HighlightLayer):
    """The n-grams each output matched in the references, shaded by order (BLEU's highlights).

    ``hyp_levels[s][i]`` is the highest matched order covering token ``i`` of system ``s``
    (0 = unmatched), ``ref_levels[s][r][j]`` the same for reference ``r``'s token ``j`` against
    system ``s`` alone. Reference tokens no system matched are ``missed``.
    """

    max_level = DEFAULT_MAX_ORDER

    def __init__(
        self,
        *,
        key: str,
        label: str,
        hyp_spans: Sequence[Sequence[Span]],
        hyp_levels: Sequence[Sequence[int]],
        ref_spans: Sequence[Sequence[Span]],
        ref_levels: Sequence[Sequence[Sequence[int]]],
        links: Sequence[Sequence[Sequence[tuple[int, int]]]],
        max_level: int,
    ) -> None:
        self.key = key
        self.label = label
        self.max_level = max_level
        self._hyp_spans = hyp_spans
        self._hyp_levels = hyp_levels
        self._ref_spans = ref_spans
        self._ref_levels = ref_levels
        self._links = links

    def hypothesis(self, system: int) -> list[Range]:
        return [
            (a, b, "match", level) if level else (a, b, "unmatched", 0)
            for (a, b), level in zip(self._hyp_spans[system], self._hyp_levels[system], strict=True)
        ]

    def reference(self, reference: int, system: int | None) -> list[Range]:
        spans = self._ref_spans[reference]
        per_system = [levels[reference] for levels in self._ref_levels]
        ranges: list[Range] = []
        for t, (a, b) in enumerate(spans):
            best = max([levels[t] for levels in per_system], default=0)
            level = best if system is None else per_system[system][t]
            if level:
                ranges.append((a, b, "match", level))
            elif not best:
                ranges.append((a, b, "missed", 0))
            else:
                ranges.append((a, b, "unmatched", 0))
        return ranges

    def links(self, system: int, reference: int) -> list[tuple[Span, Span]]:
        hyp = self._hyp_spans[system]
        ref = self._ref_spans[reference]
        return [(hyp[i], ref[j]) for i, j in self._links[system][reference]]

    def missed(self, reference: int) -> int:
        """How many tokens of ``reference`` no system matched."""
        per_system = [levels[reference] for levels in self._ref_levels]
        return sum(1 for levels in zip(*per_system, strict=True) if not any(levels))


def bleu_block(
    score: BleuScore, stats: BleuStats, *, title: str = "BLEU", note: str | None = None
) -> Block:
    """The "why this score" block of one sentence BLEU (sacreBLEU's arithmetic on its counts)."""
    max_order = len(stats.matches)
    used = (
        f"first {score.eff_order} of {max_order} orders (effective order)"
        if score.eff_order != max_order
        else f"all {max_order} orders"
    )
    if score.sys_len < score.ref_len:
        bp_rule = "exp(1 − r/c)" if score.sys_len else "0 (empty output)"
    else:
        bp_rule = "1 (c ≥ r)"
    smoothing = score.smooth_method
    if score.smooth_value is not None:
        smoothing += f" (value {score.smooth_value:g})"
    rows = []
    smoothed_any = False
    for n, (m, t) in enumerate(zip(stats.matches, stats.totals, strict=True), start=1):
        precision = score.precisions[n - 1]
        raw = 100.0 * m / t if t else 0.0
        smoothed = t > 0 and abs(precision - raw) > 1e-9
        smoothed_any |= smoothed
        rows.append((f"{n}-gram", f"{m}/{t}", f"{precision:.2f}{'*' if smoothed else ' '}"))
    lines: list[tuple[Run, ...]] = [
        (Run(f"BP = {bp_rule} = {score.bp:.4f}"),),
        (Run(f"c = {score.sys_len} output tokens, r = {score.ref_len} reference tokens"),),
        (Run(f"smoothing: {smoothing}{' (* = smoothed)' if smoothed_any else ''}"),),
        (Run(f"geometric mean over {used}"),),
        (Run("BLEU = BP × exp(mean log p) = "), Run(f"{score.score:.2f}", bold=True)),
    ]
    if note:
        lines.append((Run(note, italic=True),))
    return Block(
        title=(Run(title, bold=True),),
        header=("order", "matched/total", "precision"),
        rows=tuple(rows),
        right=(False, True, True),
        lines=tuple(lines),
        min_text="c = 000 output tokens, r = 000 reference tokens",
    )


@dataclass(frozen=True, slots=True)
class TokenMatches:
    """The matches of every system's output of one row against its references, tokenized."""

    references: tuple[Tokens, ...]
    outputs: tuple[Tokens, ...]
    details: tuple[BleuDetail, ...]

    def layer(self, *, key: str, label: str, max_level: int) -> BleuLayer:
        """The highlight layer of these matches; orders above ``max_level`` (counted for
        NLTK's method 5 only) are shown as ``max_level``."""
        hyp_levels: Sequence[Sequence[int]] = [d.hyp_order for d in self.details]
        ref_levels: Sequence[Sequence[Sequence[int]]] = [d.ref_orders for d in self.details]
        if any(len(d.hyp_matches) > max_level for d in self.details):
            hyp_levels = [[min(x, max_level) for x in levels] for levels in hyp_levels]
            ref_levels = [
                [[min(x, max_level) for x in levels] for levels in per_ref]
                for per_ref in ref_levels
            ]
        return BleuLayer(
            key=key,
            label=label,
            hyp_spans=[t.spans for t in self.outputs],
            hyp_levels=hyp_levels,
            ref_spans=[t.spans for t in self.references],
            ref_levels=ref_levels,
            links=[d.links for d in self.details],
            max_level=max_level,
        )


def match_row(
    tokenizer: Tokenizer,
    references: Sequence[str],
    outputs: Sequence[str],
    *,
    max_order: int,
    separator: str | None,
) -> TokenMatches:
    """Tokenize one row (sentence separators blanked) and match every output's n-grams."""
    tokenize = tokenizer.tokenize
    refs = tuple([tokenize(mask_separator(line, separator)) for line in references])
    outs = tuple([tokenize(mask_separator(line, separator)) for line in outputs])
    check_detail_size(max(len(t) for t in (*refs, *outs)))
    prepared = prepare_detail([t.words for t in refs], max_order)
    details = tuple([bleu_detail(t.words, prepared) for t in outs])
    return TokenMatches(refs, outs, details)


class BleuRowDetail(MetricRowDetail):
    metric = "bleu"

    def __init__(
        self, settings: BleuSettings, matches: TokenMatches, mode: HighlightMode | None = None
    ) -> None:
        """``mode`` is the metric's highlight mode for ``settings``, passed by a detailer that
        makes many rows (built here otherwise)."""
        self._settings = settings
        self._matches = matches
        self._scores = [
            compute_bleu(
                d.stats,
                smooth_method=settings.smooth_method,
                smooth_value=settings.smoothing,
                effective_order=settings.effective_order,
            )
            for d in matches.details
        ]
        if mode is None:
            (mode,) = BleuMetric().highlight_modes(settings)
        self.layers = (matches.layer(key=mode.key, label=mode.label, max_level=mode.max_level),)

    @property
    def matches(self) -> TokenMatches:
        return self._matches

    def score(self, system: int) -> BleuScore:
        return self._scores[system]

    def values(self, system: int) -> dict[str, float]:
        stats = self._matches.details[system].stats
        return {
            "bleu": self._scores[system].score,
            "hyp_len": float(stats.hyp_len),
            "ref_len": float(stats.ref_len),
        }

    def breakdown(self, system: int, reference_names: Sequence[str]) -> tuple[Block, ...]:
        return (bleu_block(self._scores[system], self._matches.details[system].stats),)


class BleuMetric(Metric):
    """sacreBLEU's BLEU: sentence BLEU per segment, corpus BLEU from the summed statistics."""

    key = "bleu"
    label = "BLEU"
    description = (
        "sacreBLEU 2.6.0: sentence BLEU per segment (sentence_bleu), corpus BLEU from the summed "
        "n-gram statistics (corpus_bleu)"
    )
    settings_type = BleuSettings

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
        return (HighlightMode("bleu", "BLEU n-grams", cast(BleuSettings, settings).max_order),)

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
            hyp_len, ref_len, matches, totals = chunk_stats(
                chunk.tokens(tokenizer), n_refs, s.max_order
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
        s = cast(BleuSettings, settings)
        tokenizer = s.tokenizer()
        (mode,) = self.highlight_modes(s)

        def detail(references: Sequence[str], outputs: Sequence[str]) -> BleuRowDetail:
            matches = match_row(
                tokenizer, references, outputs, max_order=s.max_order, separator=separator
            )
            return BleuRowDetail(s, matches, mode)

        return detail
