"""Highlight detail for one row: what matched where, as character ranges of the original text.

This is the slow path, computed lazily for the rows a user actually looks at. The GUI paints
exactly the ranges given here and never re-tokenizes anything.

Everything is computed when a row is built: the tokens with their spans, the BLEU and ROUGE
statistics and scores, the matched n-gram order of every token, the links, the LCS alignment.
Only the :class:`Highlight` records themselves, one small object per token and per list, are
created when a list is first read (:class:`Highlights`); building five of them per row, most of
which nobody reads, took a large share of a row's time.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import TypedDict, overload

from matchlight.core.metrics.bleu import (
    BleuDetail,
    BleuScore,
    bleu_detail,
    bleu_detail_one,
    compute_bleu,
    prepare_detail,
)
from matchlight.core.metrics.lcs import PreparedSequence, match_masks
from matchlight.core.metrics.nltk_bleu import nltk_sentence_bleu
from matchlight.core.metrics.rouge import (
    PreparedRef,
    RougeDetail,
    Score,
    prepare_ref,
    rouge_detail,
    rouge_detail_one,
    score_multi,
    score_of,
)
from matchlight.core.scoring.config import ScoringConfig
from matchlight.core.text.tokenizers import bleu_tokenizer, rouge_tokenizer, sentence_spans
from matchlight.core.text.types import Span, Tokens

__all__ = [
    "Highlight",
    "Highlights",
    "HypothesisDetail",
    "ReferenceDetail",
    "RowDetail",
    "RowDetailer",
    "row_detail",
]


@dataclass(frozen=True, slots=True)
class Highlight:
    """One token of the original text and how it matched.

    ``level`` is the highest matched n-gram order for BLEU highlights (0 = unmatched), and 1/0
    (in the LCS / not) for ROUGE-L highlights.
    """

    start: int
    end: int
    level: int
    token: int


class Highlights(Sequence[Highlight]):
    """An immutable sequence of :class:`Highlight`, one per token (or per listed token).

    It behaves like the tuple of highlights (indexing, slicing, iteration, ``len``, equality
    with a tuple of the same highlights) but only holds the token ``spans`` and their ``levels``
    until it is first read; painters that only need those can use the two attributes directly.
    With ``tokens`` it holds the highlights of just those token indices, in that order.
    """

    __slots__ = ("_items", "levels", "spans", "tokens")

    spans: Sequence[Span]
    levels: Sequence[int]
    tokens: Sequence[int] | None
    _items: tuple[Highlight, ...] | None

    def __init__(
        self,
        spans: Sequence[Span],
        levels: Sequence[int],
        tokens: Sequence[int] | None = None,
    ) -> None:
        if len(levels) != len(spans):
            raise ValueError(f"{len(spans)} token spans but {len(levels)} levels")
        self.spans = spans
        self.levels = levels
        self.tokens = tokens
        self._items = None

    @property
    def items(self) -> tuple[Highlight, ...]:
        """The highlights as a tuple (built once)."""
        items = self._items
        if items is None:
            spans, levels = self.spans, self.levels
            tokens = range(len(spans)) if self.tokens is None else self.tokens
            items = tuple(
                Highlight(start=spans[t][0], end=spans[t][1], level=levels[t], token=t)
                for t in tokens
            )
            self._items = items
        return items

    def __len__(self) -> int:
        return len(self.spans) if self.tokens is None else len(self.tokens)

    @overload
    def __getitem__(self, index: int) -> Highlight: ...

    @overload
    def __getitem__(self, index: slice) -> tuple[Highlight, ...]: ...

    def __getitem__(self, index: int | slice) -> Highlight | tuple[Highlight, ...]:
        return self.items[index]

    def __iter__(self) -> Iterator[Highlight]:
        return iter(self.items)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Highlights):
            return self.items == other.items
        if isinstance(other, tuple):
            return self.items == other
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self.items)

    def __repr__(self) -> str:
        return f"Highlights({self.items!r})"


@dataclass(frozen=True, slots=True)
class HypothesisDetail:
    """Everything the GUI shows about one system's output on one row."""

    system: str
    text: str
    bleu_tokens: Tokens
    rouge_tokens: Tokens
    bleu: BleuDetail
    bleu_score: BleuScore  # sacreBLEU arithmetic ("why this score"), also for the NLTK flavour
    sentence_bleu: float  # the number shown in the table, in the configured flavour, 0-100
    rouge: dict[str, Score]  # per rouge type ("rouge1", "rouge2", "rougeL"), best reference
    rouge_ref: dict[str, int]  # index of the reference chosen per rouge type (score_multi)
    rouge_details: tuple[RougeDetail, ...]  # one per reference
    bleu_highlights: Highlights  # one per BLEU token
    lcs_highlights: Highlights  # one per ROUGE token, LCS with the rougeL reference
    lcs_length: int

    def bleu_links(self, reference: int) -> tuple[tuple[int, int], ...]:
        """(hyp token, ref token) pairs matched in ``reference``, for hover highlighting."""
        return self.bleu.links[reference]


@dataclass(frozen=True, slots=True)
class ReferenceDetail:
    """One reference on one row, with what each system matched in it."""

    index: int
    text: str
    bleu_tokens: Tokens
    rouge_tokens: Tokens
    matched_by: tuple[frozenset[int], ...]  # per BLEU token: systems whose n-grams matched it
    bleu_highlights: tuple[Highlights, ...]  # per system, one per BLEU token
    lcs_highlights: tuple[Highlights, ...]  # per system, one per ROUGE token
    missed: Highlights  # BLEU tokens that no system matched (level 0)

    @property
    def missed_by_all(self) -> int:
        return len(self.missed)


@dataclass(frozen=True, slots=True)
class RowDetail:
    segment: int  # 0-based
    source: str | None
    references: tuple[ReferenceDetail, ...]
    systems: tuple[HypothesisDetail, ...]


def _lcs_levels(length: int, lcs: Sequence[tuple[int, int]], side: int) -> list[int]:
    """1 at the tokens of ``lcs`` on one side (0: hypothesis, 1: reference), 0 elsewhere."""
    levels = [0] * length
    for pair in lcs:
        levels[pair[side]] = 1
    return levels


class _MatchedBy(dict[int, frozenset[int]]):
    """Interned ``frozenset`` of system indices, looked up by bit mask (bit ``s``: system s)."""

    __slots__ = ()

    def __missing__(self, mask: int) -> frozenset[int]:
        found = frozenset(s for s in range(mask.bit_length()) if mask >> s & 1)
        self[mask] = found
        return found


_NO_SEQUENCE = PreparedSequence(())
_NOBODY: frozenset[int] = frozenset()
_FIRST: frozenset[int] = frozenset({0})


class _BleuSettings(TypedDict):
    """The keyword arguments of :func:`core.metrics.bleu.compute_bleu` under one configuration."""

    smooth_method: str
    smooth_value: float | None
    effective_order: bool


class RowDetailer:
    """Computes :class:`RowDetail` under one configuration."""

    def __init__(self, config: ScoringConfig) -> None:
        self.config = config
        self.btok = bleu_tokenizer(config.tokenize, lowercase=config.lowercase)
        self.rtok = rouge_tokenizer(config.rouge_tokenizer, stem=config.rouge_stem)
        self._rouge_types = (*(f"rouge{n}" for n in range(1, config.rouge_max_n + 1)), "rougeL")
        self._matched_by = _MatchedBy()
        self._bleu_settings: _BleuSettings = {
            "smooth_method": config.smooth_method,
            "smooth_value": config.effective_smooth_value,
            "effective_order": config.effective_order,
        }

    def rouge_tokens(self, line: str) -> tuple[Tokens, list[list[str]]]:
        """ROUGE tokens of the whole line (separators excluded) and the per-sentence words."""
        toks, sentences = self._rouge_sentences(line)
        return toks, [list(toks.words)] if sentences is None else sentences

    def _rouge_sentences(self, line: str) -> tuple[Tokens, list[list[str]] | None]:
        """Like :meth:`rouge_tokens`, with ``None`` for the sentences of a one-sentence line."""
        sep = self.config.lsum_separator
        if sep is None or sep not in line:
            return self.rtok.tokenize(line), None
        words: list[str] = []
        spans: list[tuple[int, int]] = []
        sentences: list[list[str]] = []
        for a, b in sentence_spans(line, sep):
            if b <= a:
                continue
            part = self.rtok.tokenize(line[a:b])
            words.extend(part.words)
            spans.extend((a + x, a + y) for x, y in part.spans)
            sentences.append(list(part.words))
        return Tokens(words=tuple(words), spans=tuple(spans)), sentences

    def row(
        self,
        *,
        segment: int,
        source: str | None,
        references: Sequence[str],
        systems: Sequence[tuple[str, str]],
    ) -> RowDetail:
        if len(references) == 1:
            return self._one_reference(segment, source, references[0], systems)
        config = self.config
        max_n = config.rouge_max_n
        sep = config.lsum_separator
        btokenize = self.btok.tokenize
        rtokenize = self.rtok.tokenize
        rouge_sentences = self._rouge_sentences
        ref_btoks = [btokenize(r) for r in references]
        prepared = prepare_detail([t.words for t in ref_btoks], config.max_order)
        ref_rouge = [
            (rtokenize(r), None) if sep is None or sep not in r else rouge_sentences(r)
            for r in references
        ]
        prepared_rouge = [
            prepare_ref(toks.words, sentences=sents, max_n=max_n) for toks, sents in ref_rouge
        ]
        single_ref = len(references) == 1
        bleu_settings = self._bleu_settings
        nltk = config.bleu_flavour == "nltk"
        rouge_types = self._rouge_types
        hyps: list[HypothesisDetail] = []
        for name, text in systems:
            btoks = btokenize(text)
            words = btoks.words
            detail = bleu_detail(words, prepared)
            score = compute_bleu(detail.stats, **bleu_settings)
            if nltk:
                shown = 100.0 * nltk_sentence_bleu(
                    hypothesis=list(words),
                    references=[list(t.words) for t in ref_btoks],
                    weights=(1.0 / config.max_order,) * config.max_order,
                    smoothing=config.nltk_smoothing,
                )
            else:
                shown = score.score
            rtoks, sents = (
                (rtokenize(text), None) if sep is None or sep not in text else rouge_sentences(text)
            )
            rwords = rtoks.words
            rdetails = tuple(
                [
                    rouge_detail(rwords, p, max_n=max_n, hypothesis_sentences=sents)
                    for p in prepared_rouge
                ]
            )
            if single_ref:
                only = rdetails[0]
                chosen = dict(zip(rouge_types, map(score_of, (*only.rouge_n, only.rouge_l))))
                chosen_ref = dict.fromkeys(rouge_types, 0)
            else:
                chosen = {}
                chosen_ref = {}
                for n, rouge_type in enumerate(rouge_types):
                    per_ref = [rd.rouge_n[n] if n < max_n else rd.rouge_l for rd in rdetails]
                    chosen[rouge_type], chosen_ref[rouge_type] = score_multi(per_ref)
            lcs = rdetails[chosen_ref["rougeL"]].lcs
            # Positional: system, text, bleu_tokens, rouge_tokens, bleu, bleu_score,
            # sentence_bleu, rouge, rouge_ref, rouge_details, bleu_highlights, lcs_highlights,
            # lcs_length.
            hyps.append(
                HypothesisDetail(
                    name,
                    text,
                    btoks,
                    rtoks,
                    detail,
                    score,
                    shown,
                    chosen,
                    chosen_ref,
                    rdetails,
                    Highlights(btoks.spans, detail.hyp_order),
                    Highlights(rtoks.spans, _lcs_levels(len(rwords), lcs, 0)),
                    len(lcs),
                )
            )

        ref_details: list[ReferenceDetail] = []
        for r, btoks in enumerate(ref_btoks):
            rtoks = ref_rouge[r][0]
            spans = btoks.spans
            per_system = [h.bleu.ref_orders[r] for h in hyps]
            if len(per_system) == 1:
                orders = per_system[0]
                matched_by = tuple([_FIRST if level else _NOBODY for level in orders])
                missed = [t for t, level in enumerate(orders) if not level]
            else:
                matched_by, missed = self._matched(per_system, len(spans))
            n_rouge = len(rtoks.words)
            # Positional: index, text, bleu_tokens, rouge_tokens, matched_by, bleu_highlights,
            # lcs_highlights, missed.
            ref_details.append(
                ReferenceDetail(
                    r,
                    references[r],
                    btoks,
                    rtoks,
                    matched_by,
                    tuple([Highlights(spans, orders) for orders in per_system]),
                    tuple(
                        [
                            Highlights(rtoks.spans, _lcs_levels(n_rouge, h.rouge_details[r].lcs, 1))
                            for h in hyps
                        ]
                    ),
                    Highlights(spans, (0,) * len(spans), missed),
                )
            )
        return RowDetail(segment, source, tuple(ref_details), tuple(hyps))

    def _shown_bleu(self, score: BleuScore, words: Tokens, references: Sequence[Tokens]) -> float:
        """The sentence BLEU shown in the table, in the configured flavour."""
        config = self.config
        if config.bleu_flavour != "nltk":
            return score.score
        return 100.0 * nltk_sentence_bleu(
            hypothesis=list(words.words),
            references=[list(t.words) for t in references],
            weights=(1.0 / config.max_order,) * config.max_order,
            smoothing=config.nltk_smoothing,
        )

    def _one_reference(
        self,
        segment: int,
        source: str | None,
        reference: str,
        systems: Sequence[tuple[str, str]],
    ) -> RowDetail:
        """:meth:`row` with one reference (the same result, with less bookkeeping)."""
        config = self.config
        max_order = config.max_order
        max_n = config.rouge_max_n
        sep = config.lsum_separator
        btokenize = self.btok.tokenize
        rtokenize = self.rtok.tokenize
        ref_btoks = btokenize(reference)
        width = len(ref_btoks.words)
        masks = match_masks(ref_btoks.words)
        prepared: PreparedRef | None = None
        if sep is None or sep not in reference:
            ref_rtoks = rtokenize(reference)
            ref_seq = PreparedSequence(ref_rtoks.words) if ref_rtoks.words else _NO_SEQUENCE
        else:
            ref_rtoks, ref_sents = self._rouge_sentences(reference)
            prepared = prepare_ref(ref_rtoks.words, sentences=ref_sents, max_n=max_n)
            ref_seq = prepared._lcs
        n_rouge = len(ref_rtoks.words)
        smooth_method = config.smooth_method
        smooth_value = self._bleu_settings["smooth_value"]
        effective_order = config.effective_order
        nltk = config.bleu_flavour == "nltk"
        rouge_types = self._rouge_types
        hyps: list[HypothesisDetail] = []
        ref_lcs: list[Highlights] = []
        for name, text in systems:
            btoks = btokenize(text)
            detail = bleu_detail_one(btoks.words, masks, width, max_order)
            score = compute_bleu(
                detail.stats,
                smooth_method=smooth_method,
                smooth_value=smooth_value,
                effective_order=effective_order,
            )
            if sep is None or sep not in text:
                rtoks, sents = rtokenize(text), None
            else:
                rtoks, sents = self._rouge_sentences(text)
            if prepared is None and sents is None:
                rdetail = rouge_detail_one(rtoks.words, ref_seq, max_n=max_n)
            else:
                if prepared is None:
                    prepared = prepare_ref(ref_rtoks.words, max_n=max_n)
                rdetail = rouge_detail(
                    rtoks.words, prepared, max_n=max_n, hypothesis_sentences=sents
                )
            lcs = rdetail.lcs
            hyp_lcs = [0] * len(rtoks.words)
            ref_lcs_levels = [0] * n_rouge
            for i, j in lcs:
                hyp_lcs[i] = 1
                ref_lcs_levels[j] = 1
            ref_lcs.append(Highlights(ref_rtoks.spans, ref_lcs_levels))
            hyps.append(
                HypothesisDetail(
                    name,
                    text,
                    btoks,
                    rtoks,
                    detail,
                    score,
                    self._shown_bleu(score, btoks, (ref_btoks,)) if nltk else score.score,
                    dict(zip(rouge_types, map(score_of, (*rdetail.rouge_n, rdetail.rouge_l)))),
                    dict.fromkeys(rouge_types, 0),
                    (rdetail,),
                    Highlights(btoks.spans, detail.hyp_order),
                    Highlights(rtoks.spans, hyp_lcs),
                    len(lcs),
                )
            )
        spans = ref_btoks.spans
        per_system = [h.bleu.ref_orders[0] for h in hyps]
        if len(per_system) == 1:
            orders = per_system[0]
            matched_by = tuple([_FIRST if level else _NOBODY for level in orders])
            missed = [t for t, level in enumerate(orders) if not level]
        else:
            matched_by, missed = self._matched(per_system, width)
        ref_detail = ReferenceDetail(
            0,
            reference,
            ref_btoks,
            ref_rtoks,
            matched_by,
            tuple([Highlights(spans, orders) for orders in per_system]),
            tuple(ref_lcs),
            Highlights(spans, (0,) * width, missed),
        )
        return RowDetail(segment, source, (ref_detail,), tuple(hyps))

    def _matched(
        self, per_system: Sequence[Sequence[int]], length: int
    ) -> tuple[tuple[frozenset[int], ...], list[int]]:
        """``matched_by`` and the missed tokens of one reference from each system's levels."""
        masks = [0] * length
        for s, orders in enumerate(per_system):
            bit = 1 << s
            for t, level in enumerate(orders):
                if level:
                    masks[t] |= bit
        lookup = self._matched_by
        return tuple([lookup[mask] for mask in masks]), [t for t, m in enumerate(masks) if not m]


def row_detail(
    config: ScoringConfig,
    *,
    segment: int,
    source: str | None,
    references: Sequence[str],
    systems: Sequence[tuple[str, str]],
) -> RowDetail:
    """Detail of one row (see :class:`RowDetailer` to reuse tokenizers across rows)."""
    return RowDetailer(config).row(
        segment=segment, source=source, references=references, systems=systems
    )
