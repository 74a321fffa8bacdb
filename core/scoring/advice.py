"""Warnings about settings that silently mislead, shared by the CLI and the GUI banner.

Each :class:`Advice` names the problem in words and, where one exists, the setting that fixes
it, so the CLI can print it and the GUI can offer it as a button.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from matchlight.core.scoring.results import ScoreTable

#: How many lines of each reference :func:`detect_script` looks at.
SCRIPT_SAMPLE_LINES = 200
#: Share of Han/kana letters above which references count as Chinese or Japanese.
CJK_SHARE = 0.3


@dataclass(frozen=True, slots=True)
class Advice:
    """One warning: a stable ``key``, a user-facing ``message``, and the settings that fix it."""

    key: str
    message: str
    fix: dict[str, Any] = field(default_factory=dict)
    fix_label: str = ""


def detect_script(references: Sequence[Sequence[str]]) -> str | None:
    """``"zh"`` or ``"ja"`` when the references are mostly Chinese / Japanese, else None.

    Counts Han ideographs and kana among the letters of the first lines of every reference; a
    noticeable share of kana means Japanese.
    """
    letters = han = kana = 0
    for lines in references:
        for line in lines[:SCRIPT_SAMPLE_LINES]:
            if line.isascii():  # no kana, no Han: only count the letters (in C)
                letters += sum(map(str.isalpha, line))
                continue
            for ch in line:
                if not ch.isalpha():
                    continue
                letters += 1
                code = ord(ch)
                if 0x3040 <= code <= 0x30FF or 0x31F0 <= code <= 0x31FF or 0xFF66 <= code <= 0xFF9F:
                    kana += 1
                elif unicodedata.name(ch, "").startswith("CJK "):
                    han += 1
    if not letters or (han + kana) / letters < CJK_SHARE:
        return None
    return "ja" if kana / (han + kana) > 0.1 else "zh"


def has_sentence_marker(references: Sequence[Sequence[str]], marker: str = "<n>") -> bool:
    """Whether the first lines of any reference contain ``marker`` (sentence-marked text)."""
    return any(marker in line for lines in references for line in lines[:SCRIPT_SAMPLE_LINES])


def _separator_label(separator: str | None) -> str:
    if separator is None:
        return "none"
    if separator == "\n":
        return "a newline"
    return repr(separator)


def scoring_advice(
    table: ScoreTable,
    *,
    script: str | None = None,
    has_marker: bool = False,
) -> list[Advice]:
    """What is misleading about the scored rows of ``table`` under its configuration.

    ``script`` is :func:`detect_script` of the references; ``has_marker`` says whether the
    texts contain ``<n>`` sentence markers. Each advice's ``fix`` maps a metric key (or
    ``text`` for the sentence separator) to the settings that fix it, as
    :meth:`ScoringConfig.apply` takes them.
    """
    config = table.config
    done = table.done
    advice: list[Advice] = []
    if script is not None and "bleu" in config.metrics:
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
                    )
                )
            else:
                advice.append(
                    Advice(
                        "cjk-tokenizer",
                        f"The references look Japanese, but BLEU uses the {tokenize} "
                        "tokenizer, which does not split Japanese into words.",
                        {"bleu": {"tokenize": "char"}},
                        "Use char tokenizer",
                    )
                )
    if "rouge" in config.metrics:
        rouge = config.settings("rouge")
        empty = int(table.flag("empty_refs")[done].sum())
        if empty and rouge.tokenizer == "rouge-score":  # type: ignore[attr-defined]
            total = int(done.sum()) * table.nrefs
            advice.append(
                Advice(
                    "rouge-empty",
                    f"{empty} of {total} references have no ROUGE tokens under the rouge-score "
                    "tokenizer (it keeps only a-z0-9), so every system scores 0 ROUGE on them.",
                    {"rouge": {"tokenizer": "unicode"}},
                    "Use the Unicode tokenizer",
                )
            )
        fallback = int(table.flag("lsum_fallback")[done].sum())
        separator = config.sentence_separator
        if fallback and separator is not None:
            use_marker = has_marker and separator != "<n>"
            advice.append(
                Advice(
                    "lsum-fallback",
                    f"ROUGE-Lsum equals ROUGE-L on {fallback} of {int(done.sum())} rows: no "
                    f"sentence boundary ({_separator_label(separator)}) was found in them.",
                    {"text": {"sentence_separator": "<n>"}} if use_marker else {},
                    "Use the <n> separator" if use_marker else "Set a separator",
                )
            )
    return advice
