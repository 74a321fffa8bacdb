"""Warnings about settings that silently mislead, shared by the CLI and the GUI banner.

Each :class:`Advice` names the problem in words and, where one exists, the setting that fixes
it, so the CLI can print it and the GUI can offer it as a button. What the advice needs to know
about the texts (their script, whether they are already split into words, sentence markers,
which references rouge-score's tokenizer mostly wipes out) is gathered once by
:func:`profile_references`, in whatever thread reads the files.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt
import regex

from matchlight.core.scoring.config import ScoringConfig
from matchlight.core.scoring.results import ScoreTable
from matchlight.core.text.tokenizers import bleu_tokenizer_unavailable

__all__ = [
    "CJK_SHARE",
    "SCRIPT_SAMPLE_LINES",
    "SEGMENTED_SHARE",
    "Advice",
    "ScoredRows",
    "TextProfile",
    "advice_for",
    "detect_script",
    "has_sentence_marker",
    "is_presegmented",
    "profile_references",
    "rouge_mostly_dropped",
    "scoring_advice",
]

#: How many lines of each reference :func:`detect_script` looks at.
SCRIPT_SAMPLE_LINES = 200
#: Share of Han/kana (or Hangul) letters above which references count as Chinese or Japanese
#: (or Korean).
CJK_SHARE = 0.3
#: Spaces between two Han/kana characters per Han/kana character above which Chinese or
#: Japanese text counts as already split into words (pre-segmented TED Japanese: about 0.5;
#: ordinary Chinese and Japanese: almost 0).
SEGMENTED_SHARE = 0.15

_HANGUL_RANGES = ((0xAC00, 0xD7A3), (0x1100, 0x11FF), (0x3130, 0x318F), (0xA960, 0xA97F))
_KANA_RANGES = ((0x3040, 0x30FF), (0x31F0, 0x31FF), (0xFF66, 0xFF9F))
_CJK = regex.compile(r"[\p{Han}\p{Hiragana}\p{Katakana}]")
_SEGMENTING_SPACE = regex.compile(
    r"(?<=[\p{Han}\p{Hiragana}\p{Katakana}])\s+(?=[\p{Han}\p{Hiragana}\p{Katakana}])"
)
#: Every ASCII byte that is not a letter or digit: what rouge-score's tokenizer drops.
_ASCII_NOT_ALNUM = bytes(b for b in range(128) if not chr(b).isalnum())


@dataclass(frozen=True, slots=True)
class Advice:
    """One warning: a stable ``key``, a user-facing ``message``, and the settings that fix it.

    ``params`` holds the facts the message is made of (counts, tokenizer names, which parts
    apply), so an interface in another language can say the same from ``key`` and ``params``
    rather than translate the English ``message``.
    """

    key: str
    message: str
    fix: dict[str, Any] = field(default_factory=dict)
    fix_label: str = ""
    params: dict[str, Any] = field(default_factory=dict)


def _in(code: int, ranges: tuple[tuple[int, int], ...]) -> bool:
    return any(low <= code <= high for low, high in ranges)


def detect_script(references: Sequence[Sequence[str]]) -> str | None:
    """``"zh"``, ``"ja"`` or ``"ko"`` when the references are mostly Chinese, Japanese or
    Korean, else None.

    Counts Han ideographs, kana and Hangul among the letters of the first lines of every
    reference; a noticeable share of kana among the Han and kana means Japanese.
    """
    letters = han = kana = hangul = 0
    for lines in references:
        for line in lines[:SCRIPT_SAMPLE_LINES]:
            if line.isascii():  # no kana, no Han, no Hangul: only count the letters (in C)
                letters += sum(map(str.isalpha, line))
                continue
            for ch in line:
                if not ch.isalpha():
                    continue
                letters += 1
                code = ord(ch)
                if _in(code, _KANA_RANGES):
                    kana += 1
                elif _in(code, _HANGUL_RANGES):
                    hangul += 1
                elif _CJK.match(ch):
                    han += 1
    if not letters:
        return None
    if hangul / letters >= CJK_SHARE:
        return "ko"
    if (han + kana) / letters < CJK_SHARE:
        return None
    return "ja" if kana / (han + kana) > 0.1 else "zh"


def is_presegmented(references: Sequence[Sequence[str]]) -> bool:
    """Whether Chinese or Japanese references are already split into words by spaces.

    Ordinary Chinese and Japanese text has no spaces between words; research data is often
    segmented beforehand (``今年 の 終わり に は``). Then sacreBLEU's 13a tokenizer already sees
    the words, and advice to split the text is wrong.
    """
    chars = spaces = 0
    for lines in references:
        for line in lines[:SCRIPT_SAMPLE_LINES]:
            if line.isascii():
                continue
            chars += len(_CJK.findall(line))
            spaces += len(_SEGMENTING_SPACE.findall(line))
    return chars > 0 and spaces / chars >= SEGMENTED_SHARE


def has_sentence_marker(references: Sequence[Sequence[str]], marker: str = "<n>") -> bool:
    """Whether the first lines of any reference contain ``marker`` (sentence-marked text)."""
    return any(marker in line for lines in references for line in lines[:SCRIPT_SAMPLE_LINES])


def rouge_mostly_dropped(line: str) -> bool:
    """Whether rouge-score's tokenizer keeps some of ``line`` but under half its letters and
    digits (it keeps only ``[a-z0-9]`` after lowercasing).

    Such a reference scores on the stray Latin words and digits left, which says nothing about
    the translation. A line with no tokens at all is the table's ``empty_refs`` flag instead.
    """
    if line.isascii():
        return False  # every ASCII letter and digit is kept
    kept = len(line.lower().encode("ascii", "ignore").translate(None, _ASCII_NOT_ALNUM))
    if kept == 0:
        return False
    dropped_bound = len(line) - len(line.encode("ascii", "ignore"))  # non-ASCII characters
    if dropped_bound <= kept:
        return False  # even if all of them were letters, at least half are kept
    letters = sum(map(str.isalnum, line))
    return kept * 2 < letters


@dataclass(frozen=True, slots=True)
class TextProfile:
    """What the advice needs to know about the references of a comparison.

    ``script`` is :func:`detect_script`'s, ``segmented`` :func:`is_presegmented`'s,
    ``has_marker`` :func:`has_sentence_marker`'s; ``rouge_dropped[r, i]`` says whether
    reference ``r`` of row ``i`` loses most of its letters under rouge-score's tokenizer
    (:func:`rouge_mostly_dropped`).
    """

    script: str | None = None
    segmented: bool = False
    has_marker: bool = False
    rouge_dropped: npt.NDArray[np.bool_] = field(
        default_factory=lambda: np.zeros((0, 0), dtype=np.bool_)
    )


def profile_references(references: Sequence[Sequence[str]]) -> TextProfile:
    """Everything :func:`scoring_advice` reads about the texts, in one pass over them.

    Pure and thread-safe: the app calls it in the thread that reads the files.
    """
    script = detect_script(references)
    # Row by row into the array (np.array of a list of a million bools per reference was one
    # call holding the interpreter for ~50 ms: an event-loop gap of the app's window).
    n = len(references[0]) if references else 0
    dropped = np.zeros((len(references), n), dtype=np.bool_)
    for r, lines in enumerate(references):
        if len(lines) != n:
            raise ValueError("the references have different numbers of lines")
        dropped[r] = np.fromiter(map(rouge_mostly_dropped, lines), np.bool_, n)
    return TextProfile(
        script=script,
        segmented=script in ("zh", "ja") and is_presegmented(references),
        has_marker=has_sentence_marker(references),
        rouge_dropped=dropped,
    )


def _separator_label(separator: str | None) -> str:
    if separator is None:
        return "none"
    if separator == "\n":
        return "a newline"
    return repr(separator)


_KOREAN_BLEU = {
    "13a": "keeps each space-delimited word (eojeol) whole, particles attached",
    "intl": "keeps each space-delimited word (eojeol) whole, particles attached",
    "none": "splits only at spaces: each word (eojeol) is one token, particles attached",
    "zh": "keeps each space-delimited word (eojeol) whole, like 13a",
    "char": "splits every Hangul syllable, so BLEU runs higher than with words",
}
_KOREAN_ROUGE = {
    "rouge-score": "rouge-score's tokenizer drops all Hangul",
    "unicode": "the Unicode tokenizer keeps each word (eojeol) whole",
}
#: BLEU tokenizers that see Korean eojeol or Chinese/Japanese clauses as single words.
_WORD_TOKENIZERS = ("13a", "intl", "none", "zh")


def _mecab_fix(name: str) -> tuple[dict[str, Any], str, str]:
    """The fix, its label and a note for switching BLEU to MeCab tokenizer ``name``: a button
    where its packages are installed, how to install them where not."""
    problem = bleu_tokenizer_unavailable(name)
    if problem is None:
        return {"bleu": {"tokenize": name}}, f"Use {name} tokenizer", ""
    return {}, "", f" {problem}."


def _korean_advice(config: Any) -> Advice | None:
    """What each tokenizer in use does with Hangul; switching a word-level BLEU tokenizer to
    ko-mecab (sacreBLEU's for Korean), which splits off the particles, is offered (or how to
    install it)."""
    parts = []
    fix: dict[str, Any] = {}
    label = mecab = ""
    params: dict[str, Any] = {"bleu": None, "rouge": None, "mecab_problem": None}
    if "bleu" in config.metrics:
        tokenize = config.settings("bleu").tokenize
        what = _KOREAN_BLEU.get(tokenize)
        if what is not None:
            parts.append(f"BLEU's {tokenize} tokenizer {what}")
            params["bleu"] = tokenize
            fix, label, note = _mecab_fix("ko-mecab")
            params["mecab_problem"] = bleu_tokenizer_unavailable("ko-mecab")
            if tokenize not in _WORD_TOKENIZERS:  # char: a choice of its own, not a mistake
                fix, label = {}, ""
            mecab = (
                " sacreBLEU's ko-mecab, its tokenizer for Korean, splits off the particles: "
                "its BLEU lies between word and syllable BLEU." + note
            )
    if "rouge" in config.metrics:
        tokenizer = config.settings("rouge").tokenizer
        what = _KOREAN_ROUGE.get(tokenizer)
        if what is not None:
            parts.append(what)
            params["rouge"] = tokenizer
    if not parts:
        return None
    message = "The references look Korean: " + "; ".join(parts) + "." + mecab
    return Advice("korean-tokenizer", message, fix, label, params)


def _japanese_advice(tokenize: str) -> Advice:
    fix, label, note = _mecab_fix("ja-mecab")
    params = {"script": "ja", "tokenize": tokenize, "mecab_problem": None}
    if not fix:
        params["mecab_problem"] = bleu_tokenizer_unavailable("ja-mecab")
        fix, label = {"bleu": {"tokenize": "char"}}, "Use char tokenizer"
        note = " sacreBLEU's ja-mecab, its tokenizer for Japanese, splits it into words;" + note
    return Advice(
        "cjk-tokenizer",
        f"The references look Japanese, but BLEU uses the {tokenize} tokenizer, which does not "
        "split Japanese into words." + note,
        fix,
        label,
        params,
    )


@dataclass(frozen=True, slots=True)
class ScoredRows:
    """What the advice reads about the scored rows: the configuration, how many rows and
    references per row were scored, and how many references ROUGE found without a token
    (``empty_refs``), how many rows had no sentence boundary (``lsum_fallback``) and how many
    references lose most of their letters to rouge-score's tokenizer (``dropped``, None when
    not counted). A :class:`ScoreTable` gives them (:meth:`of_table`); a command that streams
    its rows sums them as they pass."""

    config: ScoringConfig
    rows: int
    nrefs: int
    empty_refs: int = 0
    lsum_fallback: int = 0
    dropped: int | None = None

    @classmethod
    def of_table(cls, table: ScoreTable, profile: TextProfile | None = None) -> ScoredRows:
        done = table.done
        dropped = None
        if profile is not None and profile.rouge_dropped.shape == (table.nrefs, table.n_segments):
            dropped = int(profile.rouge_dropped[:, done].sum())
        flags = table.row_flags
        return cls(
            config=table.config,
            rows=int(done.sum()),
            nrefs=table.nrefs,
            empty_refs=int(flags["empty_refs"][done].sum()) if "empty_refs" in flags else 0,
            lsum_fallback=(
                int(flags["lsum_fallback"][done].sum()) if "lsum_fallback" in flags else 0
            ),
            dropped=dropped,
        )


def _rouge_tokens_advice(scored: ScoredRows) -> Advice | None:
    empty = scored.empty_refs
    dropped = scored.dropped or 0
    if not empty and not dropped:
        return None
    total = scored.rows * scored.nrefs
    tokenizer = "the rouge-score tokenizer (it keeps only a-z0-9)"
    if empty:
        message = (
            f"{empty} of {total} references have no ROUGE tokens under {tokenizer}, so every "
            "system scores 0 ROUGE on them"
        )
        if dropped:
            message += (
                f"; {dropped} more lose most of their letters and score only on the Latin "
                "words and digits left"
            )
    else:
        message = (
            f"{dropped} of {total} references lose most of their letters under {tokenizer}: "
            "their ROUGE scores count only the Latin words and digits left"
        )
    return Advice(
        "rouge-empty",
        message + ".",
        {"rouge": {"tokenizer": "unicode"}},
        "Use the Unicode tokenizer",
        {"empty": empty, "dropped": dropped, "total": total},
    )


def scoring_advice(
    table: ScoreTable,
    *,
    script: str | None = None,
    has_marker: bool = False,
    profile: TextProfile | None = None,
) -> list[Advice]:
    """What is misleading about the scored rows of ``table`` under its configuration.

    ``profile`` is :func:`profile_references` of the references; without it, ``script``
    (:func:`detect_script`) and ``has_marker`` (whether the texts contain ``<n>`` sentence
    markers) say what is known, and nothing is assumed about segmentation or partly dropped
    references. Each advice's ``fix`` maps a metric key (or ``text`` for the sentence
    separator) to the settings that fix it, as :meth:`ScoringConfig.apply` takes them.
    """
    if profile is not None:
        script, has_marker = profile.script, profile.has_marker
    segmented = profile is not None and profile.segmented
    return advice_for(
        ScoredRows.of_table(table, profile),
        script=script,
        segmented=segmented,
        has_marker=has_marker,
    )


def advice_for(
    scored: ScoredRows,
    *,
    script: str | None = None,
    segmented: bool = False,
    has_marker: bool = False,
) -> list[Advice]:
    """:func:`scoring_advice` of the rows ``scored`` describes: ``script``
    (:func:`detect_script`), ``segmented`` (:func:`is_presegmented`) and ``has_marker``
    (:func:`has_sentence_marker`) of the references."""
    config = scored.config
    advice: list[Advice] = []
    if script in ("zh", "ja") and not segmented and "bleu" in config.metrics:
        tokenize = config.settings("bleu").tokenize  # type: ignore[attr-defined]
        if tokenize in ("13a", "intl", "none"):
            if script == "zh":
                advice.append(
                    Advice(
                        "cjk-tokenizer",
                        f"The references look Chinese, but BLEU uses the {tokenize} "
                        "tokenizer, which does not split Chinese into words: a whole clause "
                        "counts as one token.",
                        {"bleu": {"tokenize": "zh"}},
                        "Use zh tokenizer",
                        {"script": "zh", "tokenize": tokenize},
                    )
                )
            else:
                advice.append(_japanese_advice(tokenize))
    if script == "ko":
        korean = _korean_advice(config)
        if korean is not None:
            advice.append(korean)
    if "rouge" in config.metrics:
        rouge = config.settings("rouge")
        if rouge.tokenizer == "rouge-score":  # type: ignore[attr-defined]
            tokens = _rouge_tokens_advice(scored)
            if tokens is not None:
                advice.append(tokens)
        separator = config.sentence_separator
        fallback = scored.lsum_fallback
        if separator is None:
            advice.append(
                Advice(
                    "lsum-none",
                    "No sentence separator is set, so ROUGE-Lsum equals ROUGE-L on every row.",
                    {"text": {"sentence_separator": "<n>" if has_marker else "\n"}},
                    "Use the <n> separator" if has_marker else "Split at newlines",
                    {"marker": has_marker},
                )
            )
        elif fallback:
            use_marker = has_marker and separator != "<n>"
            advice.append(
                Advice(
                    "lsum-fallback",
                    f"ROUGE-Lsum equals ROUGE-L on {fallback} of {scored.rows} rows: no "
                    f"sentence boundary ({_separator_label(separator)}) was found in them.",
                    {"text": {"sentence_separator": "<n>"}} if use_marker else {},
                    "Use the <n> separator" if use_marker else "Set a separator",
                    {
                        "fallback": fallback,
                        "rows": scored.rows,
                        "separator": separator,
                        "marker": use_marker,
                    },
                )
            )
    return advice
