"""The frozen scoring configuration and its reproducibility signature.

Every setting that changes a number lives here. The CLI's options and the GUI's settings panel are
both built from the registries below, so they can never disagree about what is allowed.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields, replace
from typing import Any

from matchlight.core import __version__
from matchlight.core.metrics.bleu import SMOOTH_METHODS as _BLEU_SMOOTHING
from matchlight.core.metrics.nltk_bleu import NLTK_SMOOTHING
from matchlight.core.text.tokenizers import BLEU_TOKENIZERS, ROUGE_TOKENIZERS

__all__ = [
    "BLEU_FLAVOURS",
    "BLEU_TOKENIZERS",
    "DEFAULT_SMOOTH_VALUES",
    "LSUM_SEPARATORS",
    "NLTK_SMOOTHING",
    "ROUGE_TOKENIZERS",
    "SMOOTH_METHODS",
    "ConfigError",
    "ScoringConfig",
]

BLEU_FLAVOURS: tuple[str, ...] = ("sacrebleu", "nltk")
#: sacrebleu's smoothing methods, the default first.
SMOOTH_METHODS: tuple[str, ...] = ("exp", *(m for m in _BLEU_SMOOTHING if m != "exp"))
#: Named ROUGE-Lsum sentence separators offered in the GUI; any string is accepted.
LSUM_SEPARATORS: dict[str, str | None] = {
    "newline inside the segment (rouge-score)": "\n",
    "<n> marker": "<n>",
    "none (ROUGE-Lsum = ROUGE-L)": None,
}
#: Default smoothing values, as in sacrebleu.
DEFAULT_SMOOTH_VALUES: dict[str, float | None] = dict(_BLEU_SMOOTHING)

MAX_ORDER_LIMIT = 9
ROUGE_N_LIMIT = 9


class ConfigError(ValueError):
    """A setting is out of range; the message names the setting and the allowed values."""


@dataclass(frozen=True, slots=True)
class ScoringConfig:
    """All settings that change a score.

    The defaults reproduce sacrebleu's ``sentence_bleu``/``corpus_bleu`` (13a, exp smoothing,
    mixed case, order 4, effective order at sentence level) and rouge-score's ``RougeScorer``
    without stemming (several references combined as ``score_multi``).
    """

    bleu_flavour: str = "sacrebleu"
    tokenize: str = "13a"
    lowercase: bool = False
    smooth_method: str = "exp"
    smooth_value: float | None = None
    max_order: int = 4
    effective_order: bool = True
    nltk_smoothing: str = "method0"
    rouge_tokenizer: str = "rouge-score"
    rouge_stem: bool = False
    rouge_max_n: int = 2
    lsum_separator: str | None = "\n"

    def __post_init__(self) -> None:
        _check_choice("bleu_flavour", self.bleu_flavour, BLEU_FLAVOURS)
        _check_choice("tokenize", self.tokenize, BLEU_TOKENIZERS)
        _check_choice("smooth_method", self.smooth_method, SMOOTH_METHODS)
        _check_choice("nltk_smoothing", self.nltk_smoothing, NLTK_SMOOTHING)
        _check_choice("rouge_tokenizer", self.rouge_tokenizer, ROUGE_TOKENIZERS)
        if not 1 <= self.max_order <= MAX_ORDER_LIMIT:
            raise ConfigError(f"max_order must be 1 to {MAX_ORDER_LIMIT}, not {self.max_order}")
        if not 1 <= self.rouge_max_n <= ROUGE_N_LIMIT:
            raise ConfigError(f"rouge_max_n must be 1 to {ROUGE_N_LIMIT}, not {self.rouge_max_n}")
        if self.smooth_value is not None and self.smooth_value < 0:
            raise ConfigError(f"smooth_value must not be negative, not {self.smooth_value}")
        if self.lsum_separator == "":
            raise ConfigError("lsum_separator must be a non-empty string or None")

    @property
    def effective_smooth_value(self) -> float | None:
        """The smoothing value in use: the explicit one, or sacrebleu's default for the method."""
        if self.smooth_value is not None and self.smooth_method in ("floor", "add-k"):
            return self.smooth_value
        return DEFAULT_SMOOTH_VALUES[self.smooth_method]

    @property
    def rouge_types(self) -> tuple[str, ...]:
        """Names of the ROUGE variants scored, in rouge-score's spelling."""
        return (*(f"rouge{n}" for n in range(1, self.rouge_max_n + 1)), "rougeL", "rougeLsum")

    def metric_names(self) -> tuple[str, ...]:
        """Per-segment score columns, in display order (all on the 0-100 scale)."""
        names = ["bleu"]
        for rouge_type in self.rouge_types:
            names += [f"{rouge_type}_p", f"{rouge_type}_r", f"{rouge_type}_f"]
        return tuple(names)

    def bleu_signature(self, nrefs: int) -> str:
        """A sacrebleu-style signature of the BLEU settings."""
        if self.bleu_flavour == "nltk":
            parts = [
                f"nrefs:{nrefs}",
                "flavour:nltk",
                f"case:{'lc' if self.lowercase else 'mixed'}",
                f"tok:{self.tokenize}",
                f"smooth:{self.nltk_smoothing}",
                f"weights:uniform-{self.max_order}",
            ]
        else:
            parts = [
                f"nrefs:{nrefs}",
                f"case:{'lc' if self.lowercase else 'mixed'}",
                f"eff:{'yes' if self.effective_order else 'no'}",
                f"tok:{self.tokenize}",
                f"smooth:{self.smooth_method}",
            ]
            value = self.effective_smooth_value
            if value is not None:
                parts[-1] += f"[{value:.2f}]"
            if self.max_order != 4:
                parts.append(f"order:{self.max_order}")
        parts.append(f"version:matchlight-{__version__}")
        return "|".join(parts)

    def rouge_signature(self, nrefs: int) -> str:
        """The ROUGE settings, in the same ``key:value|...`` form."""
        if self.lsum_separator is None:
            sep = "none"
        else:
            sep = self.lsum_separator.encode("unicode_escape").decode("ascii")
        parts = [
            f"nrefs:{nrefs}",
            f"tok:{self.rouge_tokenizer}",
            f"stem:{'porter' if self.rouge_stem else 'no'}",
            f"n:1-{self.rouge_max_n}",
            f"lsum-sep:{sep}",
            "multi:max-f",
            f"version:matchlight-{__version__}",
        ]
        return "|".join(parts)

    def signature(self, nrefs: int) -> str:
        """The full reproducibility signature shown in the GUI and written with every export."""
        return f"BLEU {self.bleu_signature(nrefs)} ROUGE {self.rouge_signature(nrefs)}"

    def to_dict(self) -> dict[str, Any]:
        """A JSON-safe dict, for sessions and QSettings."""
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> ScoringConfig:
        """Rebuild a config from :meth:`to_dict` output, ignoring unknown keys."""
        known = {f.name for f in fields(cls)}
        return cls(**{k: v for k, v in data.items() if k in known})

    def replace(self, **changes: Any) -> ScoringConfig:
        """A copy with some settings changed (validated again)."""
        return replace(self, **changes)


def _check_choice(setting: str, value: str, choices: tuple[str, ...]) -> None:
    if value not in choices:
        raise ConfigError(f"{setting} must be one of {', '.join(choices)}; got {value!r}")
