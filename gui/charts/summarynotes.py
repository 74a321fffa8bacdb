"""The summary's lines of words next to the figures: the settings that differ from the defaults
(:func:`settings_note`) and the language check per system (:func:`language_note`)."""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import QCoreApplication

from matchlight.core.analysis.language import LanguageFlags
from matchlight.core.metrics.registry import METRICS
from matchlight.core.scoring.config import ScoringConfig

__all__ = ["language_note", "settings_note"]


def _setting_text(metric_label: str, label: str, kind: str, value: object) -> str:
    words = label[len(metric_label) :].strip() if label.startswith(metric_label) else label
    words = words[:1].lower() + words[1:]
    if kind == "flag":
        return words if value else f"no {words}"
    return f"{words} {value}"


def settings_note(config: ScoringConfig) -> str:
    """The settings of ``config`` that differ from the defaults, in words, for a line next to
    the scores: ``BLEU: tokenizer zh · ROUGE: tokenizer unicode`` ("" when none does)."""
    parts = []
    for key, changes in config.changed().items():
        if key == "text":
            separator = changes.get("sentence_separator")
            shown = "none (ROUGE-Lsum = ROUGE-L)" if separator is None else repr(separator)
            parts.append(
                QCoreApplication.translate("summary", "sentence separator {shown}").format(
                    shown=shown
                )
            )
            continue
        metric = METRICS[key]
        specs = {spec.key: spec for spec in metric.settings}
        words = [
            _setting_text(metric.label, specs[name].label, specs[name].kind, value)
            for name, value in changes.items()
            if name in specs
        ]
        parts.append(f"{metric.label}: {', '.join(words)}")
    return " · ".join(parts)


def _per_system(names: Sequence[str], counts: Sequence[int]) -> str:
    """``A 3, C 1, others 0``: the systems with rows, then the rest together."""
    some = [f"{name} {count:,}" for name, count in zip(names, counts, strict=True) if count]
    if len(some) < len(names):
        some.append("others 0" if some else "")
    return ", ".join(part for part in some if part)


def language_note(flags: LanguageFlags) -> str:
    """The language check per system, in a line for the summary: how many outputs are in
    another language than the references, and how many copy the source."""
    names = flags.systems
    counts = flags.counts()
    wrong = [w for w, _c in counts]
    copies = [c for _w, c in counts]
    parts = []
    if flags.expectation is None:
        parts.append(
            QCoreApplication.translate(
                "summary", "references in no clear language: outputs not checked"
            )
        )
    else:
        language = QCoreApplication.translate("summary", "than the references ({0})").format(
            flags.expectation.language
        )
        parts.append(
            QCoreApplication.translate(
                "summary", "output in another language {language}: {0}"
            ).format(_per_system(names, wrong), language=language)
            if any(wrong)
            else QCoreApplication.translate(
                "summary", "no output in another language {language}"
            ).format(language=language)
        )
    if not flags.has_source:
        parts.append(QCoreApplication.translate("summary", "no source file to find copies"))
    else:
        parts.append(
            QCoreApplication.translate("summary", "copying the source: {0}").format(
                _per_system(names, copies)
            )
            if any(copies)
            else QCoreApplication.translate("summary", "none copying the source")
        )
    return QCoreApplication.translate("summary", "Language check: ") + " · ".join(parts)
