"""BLEU's options: its settings, their checks and its reproducibility signature.

Light on purpose (no numpy, no tokenizer is imported here): the command line builds its parser
from :data:`BLEU_OPTIONS` alone. The statistics and scores are in :mod:`core.metrics.bleu`, the
highlights of one row in :mod:`core.metrics.bleudetail`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from matchlight.core.metrics.settings import MetricOptions, MetricSettings, Setting, SettingError
from matchlight.core.metrics.signature import format_signature
from matchlight.core.text.tokenizernames import BLEU_TOKENIZERS, bleu_tokenizer_unavailable

if TYPE_CHECKING:
    from matchlight.core.text.tokenizers import Tokenizer

__all__ = [
    "BLEU_OPTIONS",
    "DEFAULT_MAX_ORDER",
    "MAX_ORDER_LIMIT",
    "SMOOTH_METHODS",
    "BleuSettings",
    "bleu_signature",
    "check_max_order",
    "check_smooth_method",
    "check_tokenizer_installed",
]

#: Smoothing method name -> default smoothing value (the same defaults as sacrebleu).
SMOOTH_METHODS: dict[str, float | None] = {"none": None, "floor": 0.1, "add-k": 1, "exp": None}

#: The maximum n-gram order used unless told otherwise (BLEU-4).
DEFAULT_MAX_ORDER = 4
#: The highest order offered.
MAX_ORDER_LIMIT = 9


def check_max_order(max_order: object) -> int:
    if isinstance(max_order, bool) or not isinstance(max_order, int) or max_order < 1:
        raise ValueError(f"max_order must be a positive integer, got {max_order!r}")
    return max_order


def check_smooth_method(smooth_method: str) -> None:
    if smooth_method not in SMOOTH_METHODS:
        known = ", ".join(SMOOTH_METHODS)
        raise ValueError(f"unknown smooth_method {smooth_method!r}; expected one of: {known}")


def bleu_signature(
    *,
    nrefs: int,
    lowercase: bool,
    tokenize: str,
    smooth_method: str,
    smooth_value: float | None,
    effective_order: bool,
    max_order: int,
    version: str,
    short: bool = False,
) -> str:
    """A sacrebleu-style reproducibility signature, e.g.
    ``nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp|version:2.6.0``.

    ``nrefs=-1`` means a variable number of references per segment (shown as ``var``, as in
    sacrebleu). ``tokenize`` is the tokenizer's signature (``13a``, ``intl``, ``zh``,
    ``ko-mecab-0.996/ko-0.9.2-KO``: :func:`~core.text.tokenizers.bleu_tokenizer_signature`).
    Methods with a parameter show its value, e.g. ``smooth:floor[0.10]``. sacrebleu 2.6.0 does
    not record the maximum order (its open issue #251), so for the default order 4 the string
    is identical to sacrebleu's; any other order adds ``ngram:<order>`` before the version so
    that the signature still determines the number. ``short`` gives sacrebleu's short form.
    """
    check_smooth_method(smooth_method)
    check_max_order(max_order)
    smooth = smooth_method
    default = SMOOTH_METHODS[smooth_method]
    if default is not None:
        shown = default if smooth_value is None else smooth_value
        smooth += f"[{shown:.2f}]"
    fields: list[tuple[str, object]] = [
        ("nrefs", "var" if nrefs == -1 else nrefs),
        ("case", "lc" if lowercase else "mixed"),
        ("eff", "yes" if effective_order else "no"),
        ("tok", tokenize),
        ("smooth", smooth),
    ]
    if max_order != DEFAULT_MAX_ORDER:
        fields.append(("ngram", max_order))
    fields.append(("version", version))
    return format_signature(fields, short=short)


def check_tokenizer_installed(name: str, option: str) -> None:
    """Raise :class:`SettingError` saying what to install when BLEU tokenizer ``name`` (the
    value of ``option``) needs packages that are missing here (``ja-mecab``, ``ko-mecab``)."""
    problem = bleu_tokenizer_unavailable(name)
    if problem is not None:
        raise SettingError(f"{option} {problem}")


_TOKENIZE = Setting(
    key="tokenize",
    label="Tokenizer",
    kind="choice",
    choices=BLEU_TOKENIZERS,
    help="sacreBLEU tokenizer: 13a (default), intl, char, zh (Chinese), ja-mecab (Japanese, "
    "needs matchlight[ja]), ko-mecab (Korean, needs matchlight[ko]), none (whitespace)",
    cli="--tokenize",
    aliases=("-tok",),
)
_LOWERCASE = Setting(
    key="lowercase",
    label="Lowercase",
    kind="flag",
    help="lowercase before tokenizing (case-insensitive BLEU)",
    cli="--lowercase",
    aliases=("-lc",),
)


@dataclass(frozen=True, slots=True)
class BleuSettings(MetricSettings):
    """sacreBLEU's BLEU settings; the defaults are ``sentence_bleu``'s and ``corpus_bleu``'s."""

    SPECS: ClassVar[tuple[Setting, ...]] = (
        _TOKENIZE,
        _LOWERCASE,
        Setting(
            key="smooth_method",
            label="Smoothing",
            kind="choice",
            choices=("exp", "floor", "add-k", "none"),
            help="sacreBLEU smoothing method (default: exp)",
            cli="--smooth",
        ),
        Setting(
            key="smooth_value",
            label="Smoothing value",
            kind="float",
            minimum=0.0,
            optional=True,
            help="value for floor (default 0.1) and add-k (default 1)",
            cli="--smooth-value",
        ),
        Setting(
            key="max_order",
            label="Max n-gram order",
            kind="int",
            minimum=1,
            maximum=MAX_ORDER_LIMIT,
            help="highest n-gram order (default 4)",
            cli="--max-order",
        ),
        Setting(
            key="effective_order",
            label="Effective order (sentence BLEU)",
            kind="flag",
            help="sentence BLEU without effective order (sacreBLEU's sentence_bleu uses it)",
            cli="--no-effective-order",
        ),
    )

    tokenize: str = "13a"
    lowercase: bool = False
    smooth_method: str = "exp"
    smooth_value: float | None = None
    max_order: int = DEFAULT_MAX_ORDER
    effective_order: bool = True

    def check(self) -> None:
        check_tokenizer_installed(self.tokenize, _TOKENIZE.cli)

    @property
    def smoothing(self) -> float | None:
        """The smoothing value in use: the explicit one, or sacreBLEU's default for the method."""
        if self.smooth_value is not None and self.smooth_method in ("floor", "add-k"):
            return self.smooth_value
        return SMOOTH_METHODS[self.smooth_method]

    def tokenizer(self) -> Tokenizer:
        from matchlight.core.text.tokenizers import bleu_tokenizer

        return bleu_tokenizer(self.tokenize, lowercase=self.lowercase)


#: BLEU as the command line and the settings panel know it.
BLEU_OPTIONS = MetricOptions(key="bleu", label="BLEU", settings_type=BleuSettings)
