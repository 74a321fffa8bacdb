"""The banner's words for core's scoring advice, in the interface language.

Core's :class:`~core.scoring.advice.Advice` carries an English ``message`` (the CLI prints it)
and, in ``params``, the facts it is made of. The banner says the same from ``key`` and
``params`` through Qt's translation, so a Korean user reads Korean while core stays English and
Qt-free. In English the words are core's own (a test holds the two equal); an advice this module
does not know is shown with core's message.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QCoreApplication

from matchlight.core.scoring.advice import Advice
from matchlight.core.text import mecab

__all__ = ["advice_button", "advice_text"]


def _korean_bleu(tokenize: str) -> str:
    words = {
        "13a": QCoreApplication.translate(
            "advice", "keeps each space-delimited word (eojeol) whole, particles attached"
        ),
        "intl": QCoreApplication.translate(
            "advice", "keeps each space-delimited word (eojeol) whole, particles attached"
        ),
        "none": QCoreApplication.translate(
            "advice", "splits only at spaces: each word (eojeol) is one token, particles attached"
        ),
        "zh": QCoreApplication.translate(
            "advice", "keeps each space-delimited word (eojeol) whole, like 13a"
        ),
        "char": QCoreApplication.translate(
            "advice", "splits every Hangul syllable, so BLEU runs higher than with words"
        ),
    }
    return QCoreApplication.translate("advice", "BLEU's {tokenize} tokenizer {what}").format(
        tokenize=tokenize, what=words[tokenize]
    )


def _korean_rouge(tokenizer: str) -> str:
    if tokenizer == "rouge-score":
        return QCoreApplication.translate("advice", "rouge-score's tokenizer drops all Hangul")
    return QCoreApplication.translate(
        "advice", "the Unicode tokenizer keeps each word (eojeol) whole"
    )


def _mecab_problem(name: str, problem: str) -> str:
    """Why MeCab tokenizer ``name`` cannot be used: what to install, in words of the interface
    language; MeCab's own error as it is when its packages are there but fail to load."""
    if problem != mecab.install_hint(name):
        return problem
    kind = mecab.MECAB_KINDS[name]
    binding, dictionary = kind.packages
    language = {
        "Korean": QCoreApplication.translate("advice", "Korean"),
        "Japanese": QCoreApplication.translate("advice", "Japanese"),
    }.get(kind.language, kind.language)
    return QCoreApplication.translate(
        "advice",
        "{name} ({language}) needs the packages {binding} and {dictionary}, which are not "
        "installed: pip install 'matchlight[{extra}]'",
    ).format(name=name, language=language, binding=binding, dictionary=dictionary, extra=kind.extra)


def _korean(p: dict[str, Any]) -> str:
    parts = []
    if p["bleu"] is not None:
        parts.append(_korean_bleu(p["bleu"]))
    if p["rouge"] is not None:
        parts.append(_korean_rouge(p["rouge"]))
    text = QCoreApplication.translate("advice", "The references look Korean: {parts}.").format(
        parts=QCoreApplication.translate("advice", "; ").join(parts)
    )
    if p["bleu"] is not None:
        text += QCoreApplication.translate(
            "advice",
            " sacreBLEU's ko-mecab, its tokenizer for Korean, splits off the particles: its "
            "BLEU lies between word and syllable BLEU.",
        )
        if p["mecab_problem"]:
            text += " " + QCoreApplication.translate("advice", "{problem}.").format(
                problem=_mecab_problem("ko-mecab", p["mecab_problem"])
            )
    return text


def _cjk(p: dict[str, Any]) -> str:
    if p["script"] == "zh":
        return QCoreApplication.translate(
            "advice",
            "The references look Chinese, but BLEU uses the {tokenize} tokenizer, which does "
            "not split Chinese into words: a whole clause counts as one token.",
        ).format(tokenize=p["tokenize"])
    text = QCoreApplication.translate(
        "advice",
        "The references look Japanese, but BLEU uses the {tokenize} tokenizer, which does not "
        "split Japanese into words.",
    ).format(tokenize=p["tokenize"])
    if p["mecab_problem"]:
        text += QCoreApplication.translate(
            "advice", " sacreBLEU's ja-mecab, its tokenizer for Japanese, splits it into words;"
        )
        text += " " + QCoreApplication.translate("advice", "{problem}.").format(
            problem=_mecab_problem("ja-mecab", p["mecab_problem"])
        )
    return text


def _rouge_empty(p: dict[str, Any]) -> str:
    empty, dropped, total = p["empty"], p["dropped"], p["total"]
    if not empty:
        return QCoreApplication.translate(
            "advice",
            "{dropped} of {total} references lose most of their letters under the rouge-score "
            "tokenizer (it keeps only a-z0-9): their ROUGE scores count only the Latin words "
            "and digits left.",
        ).format(dropped=dropped, total=total)
    if not dropped:
        return QCoreApplication.translate(
            "advice",
            "{empty} of {total} references have no ROUGE tokens under the rouge-score "
            "tokenizer (it keeps only a-z0-9), so every system scores 0 ROUGE on them.",
        ).format(empty=empty, total=total)
    return QCoreApplication.translate(
        "advice",
        "{empty} of {total} references have no ROUGE tokens under the rouge-score tokenizer "
        "(it keeps only a-z0-9), so every system scores 0 ROUGE on them; {dropped} more lose "
        "most of their letters and score only on the Latin words and digits left.",
    ).format(empty=empty, total=total, dropped=dropped)


def _lsum_none(_p: dict[str, Any]) -> str:
    return QCoreApplication.translate(
        "advice", "No sentence separator is set, so ROUGE-Lsum equals ROUGE-L on every row."
    )


def _lsum_fallback(p: dict[str, Any]) -> str:
    separator = p["separator"]
    if separator is None:
        shown = QCoreApplication.translate("advice", "none")
    elif separator == "\n":
        shown = QCoreApplication.translate("advice", "a newline")
    else:
        shown = repr(separator)
    return QCoreApplication.translate(
        "advice",
        "ROUGE-Lsum equals ROUGE-L on {fallback} of {rows} rows: no sentence boundary "
        "({separator}) was found in them.",
    ).format(fallback=p["fallback"], rows=p["rows"], separator=shown)


_TEXTS: dict[str, Callable[[dict[str, Any]], str]] = {
    "cjk-tokenizer": _cjk,
    "korean-tokenizer": _korean,
    "rouge-empty": _rouge_empty,
    "lsum-none": _lsum_none,
    "lsum-fallback": _lsum_fallback,
}


def advice_text(advice: Advice) -> str:
    """What the banner says for ``advice``."""
    text = _TEXTS.get(advice.key)
    if text is None or not advice.params:
        return advice.message
    return text(advice.params)


def advice_button(advice: Advice) -> str:
    """The label of ``advice``'s fix-it button ("" when it has none)."""
    if not advice.fix_label:
        return ""
    bleu = advice.fix.get("bleu", {}).get("tokenize")
    if bleu is not None:
        return QCoreApplication.translate("advice", "Use {0} tokenizer").format(bleu)
    if advice.fix.get("rouge", {}).get("tokenizer") == "unicode":
        return QCoreApplication.translate("advice", "Use the Unicode tokenizer")
    separator = advice.fix.get("text", {}).get("sentence_separator")
    if separator == "<n>":
        return QCoreApplication.translate("advice", "Use the <n> separator")
    if separator == "\n":
        return QCoreApplication.translate("advice", "Split at newlines")
    if advice.key == "lsum-fallback" and not advice.fix:
        return QCoreApplication.translate("advice", "Set a separator")
    return advice.fix_label
