"""chrF's options: its settings, their checks and its reproducibility signature.

Light on purpose (no numpy is imported here): the command line builds its parser from
:data:`CHRF_OPTIONS` alone. The statistics and scores are in :mod:`core.metrics.chrf`, the
highlights of one row in :mod:`core.metrics.chrfdetail`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, Final

from matchlight.core.metrics.settings import MetricOptions, MetricSettings, Setting, SettingError
from matchlight.core.metrics.signature import format_signature

__all__ = [
    "BETA",
    "CHAR_ORDER",
    "CHRF_OPTIONS",
    "CHRF_PLUS_WORD_ORDER",
    "SACREBLEU_VERSION",
    "ChrfSettings",
    "check_beta",
    "check_orders",
    "chrf_signature",
]

#: The sacreBLEU release whose numbers (and signature) this module reproduces.
SACREBLEU_VERSION: Final = "2.6.0"
#: sacreBLEU's default character n-gram order.
CHAR_ORDER: Final = 6
#: The word n-gram order of chrF++ (chrF has 0).
CHRF_PLUS_WORD_ORDER: Final = 2
#: sacreBLEU's default beta: recall weighs beta**2 = 4 times as much as precision.
BETA: Final = 2


def _check_order(name: str, value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ValueError(f"{name} must be a non-negative integer, got {value!r}")
    return value


def check_orders(char_order: object, word_order: object) -> int:
    """The number of orders, ``char_order + word_order``, once both are checked."""
    order = _check_order("char_order", char_order) + _check_order("word_order", word_order)
    if order == 0:
        raise ValueError("chrF needs char_order + word_order >= 1")
    return order


def check_beta(beta: object) -> int:
    if isinstance(beta, bool) or not isinstance(beta, int) or beta < 0:
        raise ValueError(f"beta must be a non-negative integer, got {beta!r}")
    return beta


def chrf_signature(
    *,
    nrefs: int,
    char_order: int = CHAR_ORDER,
    word_order: int = 0,
    lowercase: bool = False,
    n_bootstrap: int = 1,
    seed: int | None = None,
    short: bool = False,
    version: str = SACREBLEU_VERSION,
) -> str:
    """sacreBLEU's chrF signature, e.g. ``nrefs:1|case:mixed|eff:yes|nc:6|nw:0|space:no|
    version:2.6.0`` (equal to ``str(CHRF(...).get_signature())`` after a ``corpus_score``).

    ``nrefs=-1`` means a variable number of references per segment (``var``). With
    ``n_bootstrap > 1`` the bootstrap fields follow ``nrefs``, ``bs:<n>|seed:<seed>``, where a
    ``seed`` of None is an unseeded generator (``none``). beta is not part of sacreBLEU's
    signature (it is in the score's name, :func:`chrf_name`). ``short`` gives the short form.
    """
    check_orders(char_order, word_order)
    if isinstance(nrefs, bool) or not isinstance(nrefs, int) or (nrefs < 1 and nrefs != -1):
        raise ValueError(f"nrefs must be a positive integer or -1 (variable), got {nrefs!r}")
    fields: list[tuple[str, object]] = [("nrefs", "var" if nrefs == -1 else nrefs)]
    if n_bootstrap > 1:
        fields += [("bs", n_bootstrap), ("seed", str(seed).lower())]
    fields += [
        ("case", "lc" if lowercase else "mixed"),
        ("eff", "yes"),  # eps_smoothing=False: effective-order averaging
        ("nc", char_order),
        ("nw", word_order),
        ("space", "no"),  # whitespace=False
        ("version", version),
    ]
    return format_signature(fields, short=short)


@dataclass(frozen=True, slots=True)
class ChrfSettings(MetricSettings):
    """sacreBLEU's ``CHRF`` settings; the defaults are chrF (character 6-grams, beta 2)."""

    SPECS: ClassVar[tuple[Setting, ...]] = (
        Setting(
            key="word_order",
            label="Word n-gram order",
            kind="int",
            minimum=0,
            maximum=6,
            help="0 for chrF (default), 2 for chrF++ (character and word n-grams)",
            cli="--chrf-word-order",
        ),
        Setting(
            key="char_order",
            label="Character n-gram order",
            kind="int",
            minimum=0,
            maximum=12,
            help="character n-gram order (default 6; 0: word n-grams only, with "
            "--chrf-word-order 1 or more, as sacreBLEU)",
            cli="--chrf-char-order",
        ),
        Setting(
            key="beta",
            label="Beta",
            kind="int",
            minimum=0,
            maximum=9,
            help="recall weighs beta**2 times as much as precision (default 2; 0: precision "
            "alone, as sacreBLEU)",
            cli="--chrf-beta",
        ),
        Setting(
            key="lowercase",
            label="Lowercase",
            kind="flag",
            help="lowercase both sides before counting",
            cli="--chrf-lowercase",
        ),
    )

    word_order: int = 0
    char_order: int = CHAR_ORDER
    beta: int = BETA
    lowercase: bool = False

    def check(self) -> None:
        # With no n-grams at all sacreBLEU scores one line 0 and fails on two (IndexError);
        # say what is wrong instead.
        if self.char_order + self.word_order == 0:
            raise SettingError(
                "chrF needs some n-grams: a character order (--chrf-char-order) or a word "
                "order (--chrf-word-order) of 1 or more"
            )


#: chrF as the command line and the settings panel know it.
CHRF_OPTIONS = MetricOptions(key="chrf", label="chrF", settings_type=ChrfSettings)
