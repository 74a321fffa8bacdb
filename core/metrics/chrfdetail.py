"""chrF on one row: which characters and words matched, the highlights, and the "why this
score" block.

:func:`chrf_detail` gives one output's statistics (equal to
:func:`~core.metrics.chrf.chrf_chunk_stats`' for the row) with the matched characters and word
n-grams over the original text; :class:`ChrfRowDetail` is what the app's detail pane and the
report show for a row.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import chain, groupby
from typing import Final

import numpy as np

from matchlight.core.metrics.base import (
    Block,
    HighlightLayer,
    MetricRowDetail,
    Range,
)
from matchlight.core.metrics.base import Run as BlockRun
from matchlight.core.metrics.chrf import (
    _PUNCT_SET,
    ChrfBreakdown,
    chrf_breakdown,
    chrf_from_stats,
    chrf_name,
)
from matchlight.core.metrics.chrfoptions import (
    BETA,
    CHAR_ORDER,
    ChrfSettings,
    check_beta,
    check_orders,
)
from matchlight.core.metrics.lcs import match_masks
from matchlight.core.metrics.matching import match_orders

__all__ = ["ChrfDetail", "ChrfLayer", "ChrfRowDetail", "chrf_block", "chrf_detail", "chrf_details"]

_PUNCT: Final = re.escape("".join(sorted(_PUNCT_SET)))
# The split with offsets, for one line: the word up to a final punctuation character; a first
# punctuation character followed by more; anything else up to the end of the word (a whole word,
# a split-off last character, or the rest after a split-off first one).
_WORD: Final = re.compile(rf"(?<!\S)\S+?(?=[{_PUNCT}](?!\S))|(?<!\S)[{_PUNCT}](?=\S)|\S+")
_NON_SPACE: Final = re.compile(r"\S")


#: ``(start, end, level)``: original-text characters ``start..end-1`` share a level.
LevelRun = tuple[int, int, int]
#: ``(start, end, order)``: a matched word n-gram of that order over the original text.
WordSpan = tuple[int, int, int]


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
    check_orders(char_order, word_order)
    check_beta(beta)
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
