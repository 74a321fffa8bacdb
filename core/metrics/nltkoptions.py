"""NLTK-BLEU's options: its settings and their checks.

Light on purpose (no numpy, no tokenizer is imported here): the command line builds its parser
from :data:`NLTK_BLEU_OPTIONS` alone. The metric is :mod:`core.metrics.nltk_bleu`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from matchlight.core.metrics.bleuoptions import MAX_ORDER_LIMIT, check_tokenizer_installed
from matchlight.core.metrics.settings import MetricOptions, MetricSettings, Setting
from matchlight.core.text.tokenizernames import BLEU_TOKENIZERS

if TYPE_CHECKING:
    from matchlight.core.text.tokenizers import Tokenizer

__all__ = ["METHOD5_ORDER", "NLTK_BLEU_OPTIONS", "NLTK_SMOOTHING", "NltkBleuSettings"]

#: Names of NLTK's smoothing methods (``SmoothingFunction().method0`` ... ``method7``).
NLTK_SMOOTHING: tuple[str, ...] = (
    "method0",
    "method1",
    "method2",
    "method3",
    "method4",
    "method5",
    "method6",
    "method7",
)

# Method 5 always looks one order beyond the weights at the 5-gram precision, whatever the
# number of weights (NLTK hard-codes ``modified_precision(references, hypothesis, 5)``).
METHOD5_ORDER = 5


@dataclass(frozen=True, slots=True)
class NltkBleuSettings(MetricSettings):
    """``nltk.translate.bleu_score.sentence_bleu`` / ``corpus_bleu`` with uniform weights.

    NLTK takes tokens, not text: most NLTK users split on whitespace, which is the default
    here (``tokenize="none"``); any sacreBLEU tokenizer can be chosen instead.
    """

    SPECS: ClassVar[tuple[Setting, ...]] = (
        Setting(
            key="tokenize",
            label="Tokenizer",
            kind="choice",
            choices=BLEU_TOKENIZERS,
            help="how the text is split into NLTK's tokens: none = on whitespace (default, as "
            "most NLTK users do), or one of sacreBLEU's tokenizers",
            cli="--nltk-tokenize",
        ),
        Setting(
            key="lowercase",
            label="Lowercase",
            kind="flag",
            help="lowercase before tokenizing",
            cli="--nltk-lowercase",
        ),
        Setting(
            key="smoothing",
            label="Smoothing",
            kind="choice",
            choices=NLTK_SMOOTHING,
            help="NLTK SmoothingFunction method (default method0: none)",
            cli="--nltk-smoothing",
        ),
        Setting(
            key="max_order",
            label="Max n-gram order",
            kind="int",
            minimum=1,
            maximum=MAX_ORDER_LIMIT,
            help="uniform weights over orders 1..N (default 4)",
            cli="--nltk-max-order",
        ),
    )

    tokenize: str = "none"
    lowercase: bool = False
    smoothing: str = "method0"
    max_order: int = 4

    def check(self) -> None:
        check_tokenizer_installed(self.tokenize, "--nltk-tokenize")

    @property
    def weights(self) -> tuple[float, ...]:
        return (1.0 / self.max_order,) * self.max_order

    @property
    def counted_order(self) -> int:
        """The orders counted: NLTK's method 5 looks at 5-grams whatever the weights."""
        return max(self.max_order, METHOD5_ORDER)

    def tokenizer(self) -> Tokenizer:
        from matchlight.core.text.tokenizers import bleu_tokenizer

        return bleu_tokenizer(self.tokenize, lowercase=self.lowercase)


#: NLTK-BLEU as the command line and the settings panel know it.
NLTK_BLEU_OPTIONS = MetricOptions(
    key="nltk_bleu", label="NLTK-BLEU", settings_type=NltkBleuSettings
)
