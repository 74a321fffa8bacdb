"""ROUGE's options: its settings and their checks.

Light on purpose (no numpy, no tokenizer is imported here): the command line builds its parser
from :data:`ROUGE_OPTIONS` alone. The metric is :mod:`core.metrics.rouge`.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from matchlight.core.metrics.settings import MetricOptions, MetricSettings, Setting
from matchlight.core.text.tokenizernames import ROUGE_TOKENIZERS

if TYPE_CHECKING:
    from matchlight.core.text.tokenizers import Tokenizer

__all__ = ["ROUGE_N_LIMIT", "ROUGE_OPTIONS", "RougeSettings"]

#: The highest ROUGE-N offered.
ROUGE_N_LIMIT = 9


@dataclass(frozen=True, slots=True)
class RougeSettings(MetricSettings):
    """rouge-score's ``RougeScorer`` settings (several references: ``score_multi``)."""

    SPECS: ClassVar[tuple[Setting, ...]] = (
        Setting(
            key="tokenizer",
            label="ROUGE tokenizer",
            kind="choice",
            choices=ROUGE_TOKENIZERS,
            help="rouge-score keeps only [a-z0-9] runs (other scripts vanish); unicode keeps "
            "letters and numbers of every script, one token per Han ideograph and kana, "
            "Hangul as space-separated words",
            cli="--rouge-tokenizer",
        ),
        Setting(
            key="stem",
            label="Porter stemming",
            kind="flag",
            help="Porter stemming (nltk), as rouge-score's use_stemmer",
            cli="--rouge-stem",
        ),
        Setting(
            key="max_n",
            label="ROUGE-N up to",
            kind="int",
            minimum=1,
            maximum=ROUGE_N_LIMIT,
            help="score ROUGE-1 .. ROUGE-N (default 2)",
            cli="--rouge-n",
        ),
    )

    tokenizer: str = "rouge-score"
    stem: bool = False
    max_n: int = 2

    @property
    def types(self) -> tuple[str, ...]:
        """The ROUGE types scored, in rouge-score's spelling."""
        return _rouge_types(self.max_n)

    def word_tokenizer(self) -> Tokenizer:
        from matchlight.core.text.tokenizers import rouge_tokenizer

        return rouge_tokenizer(self.tokenizer, stem=self.stem)


@functools.cache
def _rouge_types(max_n: int) -> tuple[str, ...]:
    return (*(f"rouge{n}" for n in range(1, max_n + 1)), "rougeL", "rougeLsum")


#: ROUGE as the command line and the settings panel know it.
ROUGE_OPTIONS = MetricOptions(key="rouge", label="ROUGE", settings_type=RougeSettings)
