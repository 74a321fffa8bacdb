"""BLEU on tokenized input, numerically identical to sacrebleu 2.6.0.

The functions here take token lists (words), never raw text: tokenization lives elsewhere.
The pipeline follows sacrebleu's design of additive statistics:

* :func:`prepare_refs` counts the n-grams of one segment's references once, so the same
  references can be reused for every system that is scored against them;
* :func:`bleu_stats` produces the additive :class:`BleuStats` of one hypothesis (the hot path);
* :func:`compute_bleu` turns (summed) statistics into a :class:`BleuScore`; it is a pure
  function of the statistics, so sentence BLEU, corpus BLEU (a sum of statistics) and
  bootstrap resamples all go through it;
* :func:`bleu_detail` says which tokens matched, for highlighting one row in the GUI.
"""

from __future__ import annotations

import math
import operator
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import repeat
from typing import cast

import numpy as np
import numpy.typing as npt

from matchlight.core.metrics.lcs import match_masks, next_order

__all__ = [
    "DEFAULT_MAX_ORDER",
    "SMOOTH_METHODS",
    "BleuDetail",
    "BleuScore",
    "BleuStats",
    "DetailRefs",
    "NgramKey",
    "RefNgrams",
    "bleu_detail",
    "bleu_detail_one",
    "bleu_signature",
    "bleu_stats",
    "compute_bleu",
    "prepare_detail",
    "prepare_refs",
    "sacrebleu_scores",
]

#: Smoothing method name -> default smoothing value (the same defaults as sacrebleu).
SMOOTH_METHODS: dict[str, float | None] = {"none": None, "floor": 0.1, "add-k": 1, "exp": None}

#: The maximum n-gram order used unless told otherwise (BLEU-4).
DEFAULT_MAX_ORDER = 4

#: An n-gram key: unigrams are the token itself, longer n-grams are tuples of tokens.
NgramKey = str | tuple[str, ...]

# sacrebleu floors log(0) to this value instead of -inf (``sacrebleu.utils.my_log``).
_LOG_OF_ZERO = -9999999999


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


def _ngrams(tokens: Sequence[str], n: int) -> Iterable[NgramKey]:
    """The n-grams of ``tokens`` left to right, keyed as in :data:`NgramKey`."""
    if n == 1:
        return tokens
    return zip(*[tokens[i:] for i in range(n)], strict=False)


def _count(tokens: Sequence[str], n: int) -> dict[NgramKey, int]:
    """How often each n-gram occurs in ``tokens`` (a plain dict: measured faster than Counter,
    whose construction and copies cost more for segment-sized inputs)."""
    counts: dict[NgramKey, int] = {}
    get = counts.get
    for gram in _ngrams(tokens, n):
        counts[gram] = get(gram, 0) + 1
    return counts


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


@dataclass(frozen=True, slots=True, eq=False)
class RefNgrams:
    """The references of ONE segment, prepared once for scoring any number of hypotheses.

    Build it with :func:`prepare_refs`. ``counts[n - 1]`` maps every n-gram to its maximum count
    in any single reference; it is shared, so treat it as read-only.
    """

    max_order: int
    lengths: tuple[int, ...]
    counts: tuple[dict[NgramKey, int], ...]
    #: The reference tokens themselves, needed only by :func:`bleu_detail`.
    tokens: tuple[tuple[str, ...], ...]


def prepare_refs(references: Sequence[Sequence[str]], max_order: int = 4) -> RefNgrams:
    """Count the n-grams (orders ``1..max_order``) of one segment's references.

    Any number of references (at least one) is accepted; an empty reference has length 0 and
    no n-grams.
    """
    _check_max_order(max_order)
    _check_tokens(references, "references")
    if len(references) == 0:
        raise ValueError("a segment needs at least one reference")
    for ref in references:
        _check_tokens(ref, "each reference")
    tokens = tuple(tuple(ref) for ref in references)
    counts: list[dict[NgramKey, int]] = []
    for n in range(1, max_order + 1):
        merged = _count(tokens[0], n)
        for ref in tokens[1:]:
            for gram, count in _count(ref, n).items():
                if count > merged.get(gram, 0):
                    merged[gram] = count
        counts.append(merged)
    return RefNgrams(
        max_order=max_order,
        lengths=tuple(len(ref) for ref in tokens),
        counts=tuple(counts),
        tokens=tokens,
    )


def bleu_stats(hypothesis: Sequence[str], refs: RefNgrams) -> BleuStats:
    """Clipped n-gram matches, n-gram totals and lengths of one hypothesis (the hot path).

    Each hypothesis n-gram counts at most as often as it occurs in any single reference.
    ``hypothesis`` must support slicing (a list or tuple of tokens).
    """
    _check_tokens(hypothesis, "hypothesis")
    hyp_len = len(hypothesis)
    max_order = refs.max_order
    matches = [0] * max_order
    totals = [0] * max_order
    counts = refs.counts
    # Consume a copy of the reference counts: each hit uses up one allowed occurrence. Measured
    # faster than counting the hypothesis n-grams and taking minima (Counter, set
    # intersections), and the shifted slices are reused from one order to the next.
    shifted: list[Sequence[str]] = []
    for n in range(1, min(max_order, hyp_len) + 1):
        shifted.append(hypothesis[n - 1 :])
        remaining = counts[n - 1].copy()
        get = remaining.get
        matched = 0
        for gram in hypothesis if n == 1 else zip(*shifted, strict=False):
            left = get(gram)
            if left:
                remaining[gram] = left - 1
                matched += 1
        matches[n - 1] = matched
        totals[n - 1] = hyp_len - n + 1
    return BleuStats(
        hyp_len, _closest_ref_len(hyp_len, refs.lengths), tuple(matches), tuple(totals)
    )


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

    Build it with :func:`prepare_detail`. ``masks[r]`` maps every token of reference ``r`` to the
    bit mask of its positions (bit ``j`` set when token ``j`` is that token); treat it as
    read-only.
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


def _paint(levels: list[int], starts: list[int], n: int) -> None:
    """Set the level of every token covered by an n-gram starting at ``starts`` to ``n``."""
    row = [n] * n
    for start in starts:
        levels[start : start + n] = row


def _match_one(
    hypothesis: Sequence[str],
    masks: dict[str, int],
    width: int,
    max_order: int,
) -> tuple[list[list[int]], tuple[int, ...], tuple[tuple[int, int], ...]]:
    """The clipped matches of the hypothesis in one reference (of length ``width``).

    Returns the matched hypothesis start positions per order (orders without a match omitted at
    the end), the reference token levels and the links.

    ``found`` maps every hypothesis position whose n-gram occurs in the reference to the bit mask
    of the reference positions where that n-gram starts (see :func:`core.metrics.lcs.next_order`). A
    non-zero mask determines the n-gram, so equal masks are equal n-grams: the k-th occurrence
    of an n-gram in the hypothesis is paired with its k-th occurrence in the reference (the k-th
    lowest bit of the mask) up to the smaller of the two counts, which is exactly what clipping
    allows, and no n-gram is ever built.
    """
    levels = [0] * width
    get = masks.get
    token_masks = [get(token, 0) for token in hypothesis]
    # Order 1: the positions whose token occurs in the reference, paired as they are found.
    found: dict[int, int] = {}
    left: dict[int, int] = {}  # per n-gram (mask): its reference occurrences not yet paired
    starts: list[int] = []
    keys: list[int] = []  # the link (i, j) of each pair as the integer i * width + j
    for i, mask in enumerate(token_masks):
        if mask:
            found[i] = mask
            rest = left.get(mask, mask)
            if rest:
                low = rest & -rest
                left[mask] = rest ^ low
                j = low.bit_length() - 1
                starts.append(i)
                keys.append(i * width + j)
                levels[j] = 1
    matched = [starts]
    if not starts:
        return [], tuple(levels), ()
    unique = set(keys)
    step = width + 1  # (i + t, j + t) is t * (width + 1) after (i, j)
    for n in range(2, max_order + 1):
        found = next_order(found, token_masks, n)
        if not found:
            break  # an n-gram can only match where an (n-1)-gram did
        left = {}
        left_get = left.get
        starts = []
        keys = []
        row = [n] * n
        for i, mask in found.items():
            rest = left_get(mask, mask)
            if rest:
                low = rest & -rest
                left[mask] = rest ^ low
                j = low.bit_length() - 1
                starts.append(i)
                keys.append(i * width + j)
                levels[j : j + n] = row
        matched.append(starts)
        for offset in range(0, n * step, step):
            unique.update([key + offset for key in keys])
    return matched, tuple(levels), tuple(map(divmod, sorted(unique), repeat(width)))


def bleu_detail_one(
    hypothesis: Sequence[str], masks: dict[str, int], width: int, max_order: int = 4
) -> BleuDetail:
    """:func:`bleu_detail` against one reference, given by its length ``width`` and its
    :func:`core.metrics.lcs.match_masks` (what :func:`prepare_detail` computes).

    The same matching as :func:`_match_one`, fused with the painting and the assembly.
    """
    hyp_len = len(hypothesis)
    levels = [0] * width
    hyp_levels = [0] * hyp_len
    get = masks.get
    token_masks = [get(token, 0) for token in hypothesis]
    found: dict[int, int] = {}
    left: dict[int, int] = {}
    starts: list[int] = []
    keys: list[int] = []
    for i, mask in enumerate(token_masks):
        if mask:
            found[i] = mask
            rest = left.get(mask, mask)
            if rest:
                low = rest & -rest
                left[mask] = rest ^ low
                j = low.bit_length() - 1
                starts.append(i)
                keys.append(i * width + j)
                levels[j] = 1
                hyp_levels[i] = 1
    first_keys = keys  # the order-1 links
    hyp_matches = [tuple(starts)]
    links: tuple[tuple[int, int], ...] = ()
    if starts:
        # Once every n-gram found at some order occurs once in the reference and once among
        # the found ones (one bit per mask, no mask twice: "clean"), every higher order is
        # clean too and its links are already among those of this order: the (n+1)-gram at
        # i matched at j means the n-grams at i and i + 1 matched at j and j + 1.
        expand = len(left) < len(found) or any(left.values())
        unique = set(keys) if expand else None
        step = width + 1
        for n in range(2, max_order + 1):
            k = n - 1
            last = hyp_len - k
            found = {
                i: both
                for i, mask in found.items()
                if i < last and (both := mask & token_masks[i + k] >> k)
            }
            if not found:
                break
            left = {}
            left_get = left.get
            starts = []
            keys = []
            row = [n] * n
            for i, mask in found.items():
                rest = left_get(mask, mask)
                if rest:
                    low = rest & -rest
                    left[mask] = rest ^ low
                    j = low.bit_length() - 1
                    starts.append(i)
                    keys.append(i * width + j)
                    levels[j : j + n] = row
                    hyp_levels[i : i + n] = row
            hyp_matches.append(tuple(starts))
            if unique is not None and expand:
                for offset in range(step, n * step, step):
                    unique.update([key + offset for key in keys])
                unique.update(keys)
                expand = len(left) < len(found) or any(left.values())
        if unique is None:  # order 1 was clean: its pairs, already sorted, are all the links
            links = tuple(map(divmod, first_keys, repeat(width)))
        else:
            links = tuple(map(divmod, sorted(unique), repeat(width)))
    if len(hyp_matches) < max_order:
        hyp_matches += [()] * (max_order - len(hyp_matches))
    totals = tuple([hyp_len - n if n < hyp_len else 0 for n in range(max_order)])
    return BleuDetail(
        BleuStats(hyp_len, width, tuple([len(m) for m in hyp_matches]), totals),
        tuple(hyp_matches),
        tuple(hyp_levels),
        (tuple(levels),),
        (links,),
    )


def bleu_detail(hypothesis: Sequence[str], refs: RefNgrams | DetailRefs) -> BleuDetail:
    """The statistics of one hypothesis plus the matched tokens, for highlighting.

    ``refs`` may come from :func:`prepare_refs` or, cheaper when only the detail is needed (and
    reused for several systems), from :func:`prepare_detail`. The statistics equal
    :func:`bleu_stats`'.

    How: with ``M[i]`` the mask of the reference positions holding hypothesis token ``i``, the
    reference positions where the hypothesis n-gram at ``i`` starts are
    ``M[i] & M[i + 1] >> 1 & ... & M[i + n - 1] >> (n - 1)``, computed order after order for the
    positions still matching (see :mod:`core.metrics.lcs`), without building any n-gram.
    """
    _check_tokens(hypothesis, "hypothesis")
    if isinstance(refs, RefNgrams):
        refs = prepare_detail(refs.tokens, refs.max_order)
    lengths = refs.lengths
    if len(lengths) == 1:
        return bleu_detail_one(hypothesis, refs.masks[0], lengths[0], refs.max_order)
    hyp_len = len(hypothesis)
    max_order = refs.max_order
    per_order: list[set[int]] = [set() for _ in range(max_order)]
    ref_orders: list[tuple[int, ...]] = []
    links: list[tuple[tuple[int, int], ...]] = []
    for masks, width in zip(refs.masks, lengths, strict=True):
        matched, levels, pairs = _match_one(hypothesis, masks, width, max_order)
        ref_orders.append(levels)
        links.append(pairs)
        for union, starts in zip(per_order, matched, strict=False):
            union.update(starts)
    # Clipped with the maximum count over the references: the union of the per-reference
    # matches (each is a prefix of the n-gram's occurrences in the hypothesis).
    hyp_levels = [0] * hyp_len
    hyp_matches: list[tuple[int, ...]] = []
    for n, union in enumerate(per_order, start=1):
        starts = sorted(union)
        hyp_matches.append(tuple(starts))
        _paint(hyp_levels, starts, n)
    totals = [hyp_len - n if n < hyp_len else 0 for n in range(max_order)]
    return BleuDetail(
        BleuStats(
            hyp_len,
            _closest_ref_len(hyp_len, lengths),
            tuple([len(m) for m in hyp_matches]),
            tuple(totals),
        ),
        tuple(hyp_matches),
        tuple(hyp_levels),
        tuple(ref_orders),
        tuple(links),
    )


# Signature field -> short name, as in sacrebleu's Signature/BLEUSignature.
_SIGNATURE_SHORT = {
    "nrefs": "#",
    "case": "c",
    "eff": "e",
    "tok": "tok",
    "smooth": "s",
    "ngram": "n",
    "version": "v",
}


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
    sacrebleu). ``tokenize`` is the tokenizer's signature (``13a``, ``intl``, ``zh``, ...).
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
    return "|".join(f"{_SIGNATURE_SHORT[name] if short else name}:{val}" for name, val in fields)


IntArray = npt.NDArray[np.int64]
FloatArray = npt.NDArray[np.float64]
BoolArray = npt.NDArray[np.bool_]


def sacrebleu_scores(
    hyp_len: IntArray,
    ref_len: IntArray,
    matches: IntArray,
    totals: IntArray,
    *,
    smooth_method: str,
    smooth_value: float | None,
    effective_order: bool,
) -> FloatArray:
    """:func:`core.metrics.bleu.compute_bleu` ``.score`` of many rows of statistics, bit for bit.

    ``hyp_len`` and ``ref_len`` have shape ``(rows,)``, ``matches`` and ``totals``
    ``(rows, max_order)``. ``smooth_value`` must already be the value in use (the method's
    default when none was given), as :attr:`ScoringConfig.effective_smooth_value`.
    """
    rows, max_order = matches.shape
    value = smooth_value
    scores = np.zeros(rows)
    hyp = hyp_len.astype(np.float64)
    ref = ref_len.astype(np.float64)
    bp = np.ones(rows)
    short = hyp_len < ref_len
    bp[short & (hyp_len == 0)] = 0.0
    shrink = np.flatnonzero(short & (hyp_len > 0))
    if shrink.size:
        exponent = 1 - ref[shrink] / hyp[shrink]
        bp[shrink] = np.fromiter(map(math.exp, exponent.tolist()), np.float64, shrink.size)

    precisions = np.zeros((rows, max_order))
    alive = np.ones(rows, np.bool_)
    eff_order = np.full(rows, max_order, np.int64)
    doubling = np.ones(rows)
    for n in range(1, max_order + 1):
        correct = matches[:, n - 1].astype(np.float64)
        total = totals[:, n - 1].astype(np.float64)
        if smooth_method == "add-k" and n > 1:
            correct = correct + value  # type: ignore[operator]  # add-k always has a value
            total = total + value  # type: ignore[operator]
        alive &= total != 0
        if effective_order:
            eff_order[alive] = n
        hit = alive & (correct != 0)
        precisions[hit, n - 1] = 100.0 * correct[hit] / total[hit]
        miss = alive & (correct == 0)
        if smooth_method == "exp":
            doubling[miss] *= 2
            precisions[miss, n - 1] = 100.0 / (doubling[miss] * total[miss])
        elif smooth_method == "floor":
            precisions[miss, n - 1] = 100.0 * value / total[miss]  # type: ignore[operator]

    # Rows where nothing matches at all score 0 (sacrebleu stops early there).
    scored = cast(BoolArray, matches.any(axis=1))  # 2-D, so an array
    logs = np.full((rows, max_order), float(_LOG_OF_ZERO))
    positive = scored[:, None] & (precisions != 0.0)
    logs[positive] = np.fromiter(
        map(math.log, precisions[positive].tolist()), np.float64, int(positive.sum())
    )
    for order in np.unique(eff_order[scored]).tolist():
        chosen = np.flatnonzero(scored & (eff_order == order))
        # The built-in sum over a list, as compute_bleu, so the rounding is the same.
        log_sum = np.fromiter(map(sum, logs[chosen, :order].tolist()), np.float64, chosen.size)
        means = (log_sum / order).tolist()
        scores[chosen] = bp[chosen] * np.fromiter(map(math.exp, means), np.float64, chosen.size)
    return scores
