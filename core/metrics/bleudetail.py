"""BLEU on one row: which tokens matched which, the highlights, and the "why this score" block.

:func:`bleu_detail` says which tokens of one output matched which reference tokens, with the
one matcher of :mod:`core.metrics.matching`; its statistics equal
:func:`~core.metrics.bleu.chunk_stats`' for the row. :class:`BleuRowDetail` is what the app's
detail pane and the report show for a row. NLTK's BLEU reuses the matches
(:func:`match_row`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import repeat

from matchlight.core.metrics.base import (
    Block,
    HighlightLayer,
    HighlightMode,
    MetricRowDetail,
    Range,
    Run,
    check_detail_size,
    mask_separator,
)
from matchlight.core.metrics.bleu import (
    BleuScore,
    BleuStats,
    _check_tokens,
    _closest_ref_len,
    compute_bleu,
)
from matchlight.core.metrics.bleuoptions import DEFAULT_MAX_ORDER, BleuSettings, check_max_order
from matchlight.core.metrics.lcs import match_masks
from matchlight.core.metrics.matching import OrderMatches, match_orders
from matchlight.core.text.tokenizers import Tokenizer
from matchlight.core.text.types import Span, Tokens

__all__ = [
    "BleuDetail",
    "BleuLayer",
    "BleuRowDetail",
    "DetailRefs",
    "TokenMatches",
    "bleu_block",
    "bleu_detail",
    "bleu_mode",
    "match_row",
    "prepare_detail",
]


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
    check_max_order(max_order)
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


def bleu_mode(settings: BleuSettings) -> HighlightMode:
    """BLEU's one highlight mode: the matched n-grams, shaded up to the highest order."""
    return HighlightMode("bleu", "BLEU n-grams", settings.max_order)


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
            mode = bleu_mode(settings)
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
