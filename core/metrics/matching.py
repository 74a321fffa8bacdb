"""Clipped n-gram matching of one output against one reference, for highlighting.

The one matcher behind every "what matched where": BLEU's and NLTK-BLEU's highlights and
ROUGE-N's. (The bulk scores count the same matches for many rows at once in numpy, see
:mod:`core.metrics.ngrams`; the tests check that both agree.)

How: with ``M[i]`` the bit mask of the reference positions holding output token ``i`` (see
:func:`core.metrics.lcs.match_masks`), the reference positions where the output n-gram at ``i``
starts are ``M[i] & M[i + 1] >> 1 & ... & M[i + n - 1] >> (n - 1)``, computed order after order
for the positions still matching (:func:`core.metrics.lcs.next_order`); no n-gram is ever built.
A non-zero mask determines the n-gram, so equal masks are equal n-grams: the k-th occurrence of
an n-gram in the output is paired with its k-th occurrence in the reference (the k-th lowest bit
of the mask) up to the smaller of the two counts, which is exactly what clipping allows.
"""

from __future__ import annotations

from collections.abc import Sequence

from matchlight.core.metrics.lcs import next_order

__all__ = ["OrderMatches", "match_orders"]


#: The clipped matches of one order: the output starts and the reference starts of the matched
#: n-grams (paired index by index, in increasing output start), and whether the order is
#: "clean": every n-gram found at this order occurs once on each side, so that the token pairs
#: of every higher order are among this order's. Plain lists: this is the detail path's hot spot.
OrderMatches = tuple[list[int], list[int], bool]


def match_orders(token_masks: Sequence[int], max_order: int) -> list[OrderMatches]:
    """The clipped matches of orders ``1..max_order`` (fewer when an order matches nothing,
    since no higher order can then match).

    ``token_masks[i]`` is the reference mask of output token ``i`` (0 when absent).
    """
    found = {i: mask for i, mask in enumerate(token_masks) if mask}
    result: list[OrderMatches] = []
    n = 1
    while found:
        left: dict[int, int] = {}  # per n-gram (mask): reference occurrences not yet paired
        get = left.get
        hyp: list[int] = []
        ref: list[int] = []
        for i, mask in found.items():
            rest = get(mask, mask)
            if rest:
                low = rest & -rest
                left[mask] = rest ^ low
                hyp.append(i)
                ref.append(low.bit_length() - 1)
        result.append((hyp, ref, len(left) == len(found) and not any(left.values())))
        if n == max_order:
            break
        n += 1
        found = next_order(found, token_masks, n)
    return result
