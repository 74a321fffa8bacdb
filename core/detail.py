"""Highlight detail for one row: what matched where, as character ranges of the original text.

This is the slow path, computed lazily for the rows a user actually looks at. The GUI paints
exactly the ranges given here and never re-tokenizes anything.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from core.bleu import BleuDetail, BleuScore, bleu_detail, compute_bleu, prepare_refs
from core.config import ScoringConfig
from core.nltk_bleu import nltk_sentence_bleu
from core.rouge import RougeDetail, Score, prepare_ref, rouge_detail, score_multi
from core.tokenizers import bleu_tokenizer, rouge_tokenizer, sentence_spans
from core.types import Tokens


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
    bleu_highlights: tuple[Highlight, ...]  # one per BLEU token
    lcs_highlights: tuple[Highlight, ...]  # one per ROUGE token, LCS with the rougeL reference
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
    bleu_highlights: tuple[tuple[Highlight, ...], ...]  # per system, one per BLEU token
    lcs_highlights: tuple[tuple[Highlight, ...], ...]  # per system, one per ROUGE token
    missed: tuple[Highlight, ...]  # BLEU tokens that no system matched

    @property
    def missed_by_all(self) -> int:
        return len(self.missed)


@dataclass(frozen=True, slots=True)
class RowDetail:
    segment: int  # 0-based
    source: str | None
    references: tuple[ReferenceDetail, ...]
    systems: tuple[HypothesisDetail, ...]


def _highlights(tokens: Tokens, levels: Sequence[int]) -> tuple[Highlight, ...]:
    return tuple(
        Highlight(start=a, end=b, level=level, token=i)
        for i, ((a, b), level) in enumerate(zip(tokens.spans, levels))
    )


class RowDetailer:
    """Computes :class:`RowDetail` under one configuration."""

    def __init__(self, config: ScoringConfig) -> None:
        self.config = config
        self.btok = bleu_tokenizer(config.tokenize, lowercase=config.lowercase)
        self.rtok = rouge_tokenizer(config.rouge_tokenizer, stem=config.rouge_stem)

    def rouge_tokens(self, line: str) -> tuple[Tokens, list[list[str]]]:
        """ROUGE tokens of the whole line (separators excluded) and the per-sentence words."""
        sep = self.config.lsum_separator
        if sep is None or sep not in line:
            toks = self.rtok.tokenize(line)
            return toks, [list(toks.words)]
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
        config = self.config
        ref_btoks = [self.btok.tokenize(r) for r in references]
        ref_words = [list(t.words) for t in ref_btoks]
        prepared = prepare_refs(ref_words, config.max_order)
        ref_rouge = [self.rouge_tokens(r) for r in references]
        prepared_rouge = [
            prepare_ref(list(toks.words), sentences=sents, max_n=config.rouge_max_n)
            for toks, sents in ref_rouge
        ]
        hyps: list[HypothesisDetail] = []
        for name, text in systems:
            btoks = self.btok.tokenize(text)
            words = list(btoks.words)
            detail = bleu_detail(words, prepared)
            score = compute_bleu(
                detail.stats,
                smooth_method=config.smooth_method,
                smooth_value=config.effective_smooth_value,
                effective_order=config.effective_order,
            )
            if config.bleu_flavour == "nltk":
                shown = 100.0 * nltk_sentence_bleu(
                    hypothesis=words,
                    references=ref_words,
                    weights=(1.0 / config.max_order,) * config.max_order,
                    smoothing=config.nltk_smoothing,
                )
            else:
                shown = score.score
            rtoks, _ = self.rouge_tokens(text)
            rdetails = tuple(
                rouge_detail(list(rtoks.words), p, max_n=config.rouge_max_n) for p in prepared_rouge
            )
            chosen: dict[str, Score] = {}
            chosen_ref: dict[str, int] = {}
            for rouge_type in (*(f"rouge{n}" for n in range(1, config.rouge_max_n + 1)), "rougeL"):
                best_score, best_index = score_multi([rd.stats[rouge_type] for rd in rdetails])
                chosen[rouge_type] = best_score
                chosen_ref[rouge_type] = best_index
            lcs = rdetails[chosen_ref["rougeL"]].lcs
            in_lcs = {h for h, _ in lcs}
            hyps.append(
                HypothesisDetail(
                    system=name,
                    text=text,
                    bleu_tokens=btoks,
                    rouge_tokens=rtoks,
                    bleu=detail,
                    bleu_score=score,
                    sentence_bleu=shown,
                    rouge=chosen,
                    rouge_ref=chosen_ref,
                    rouge_details=rdetails,
                    bleu_highlights=_highlights(btoks, detail.hyp_order),
                    lcs_highlights=_highlights(
                        rtoks, [1 if i in in_lcs else 0 for i in range(len(rtoks))]
                    ),
                    lcs_length=len(lcs),
                )
            )

        ref_details: list[ReferenceDetail] = []
        for r, (btoks, (rtoks, _)) in enumerate(zip(ref_btoks, ref_rouge)):
            matched_by = tuple(
                frozenset(s for s, h in enumerate(hyps) if h.bleu.ref_orders[r][t] > 0)
                for t in range(len(btoks))
            )
            lcs_per_system = []
            for h in hyps:
                in_ref = {j for _, j in h.rouge_details[r].lcs}
                lcs_per_system.append(
                    _highlights(rtoks, [1 if j in in_ref else 0 for j in range(len(rtoks))])
                )
            ref_details.append(
                ReferenceDetail(
                    index=r,
                    text=references[r],
                    bleu_tokens=btoks,
                    rouge_tokens=rtoks,
                    matched_by=matched_by,
                    bleu_highlights=tuple(_highlights(btoks, h.bleu.ref_orders[r]) for h in hyps),
                    lcs_highlights=tuple(lcs_per_system),
                    missed=tuple(
                        Highlight(start=a, end=b, level=0, token=t)
                        for t, ((a, b), who) in enumerate(zip(btoks.spans, matched_by))
                        if not who
                    ),
                )
            )
        return RowDetail(
            segment=segment,
            source=source,
            references=tuple(ref_details),
            systems=tuple(hyps),
        )


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
