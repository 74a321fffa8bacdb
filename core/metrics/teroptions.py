"""TER's options: its settings and its reproducibility signature.

Light on purpose (no numpy is imported here, and :mod:`core.text.tercom` compiles nothing until
it tokenizes): the command line builds its parser from :data:`TER_OPTIONS` alone. The metric is
:mod:`core.metrics.ter`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, Final

from matchlight.core.metrics.settings import MetricOptions, MetricSettings, Setting
from matchlight.core.text.tercom import TercomTokenizer, tercom_tokenizer

__all__ = ["SACREBLEU_VERSION", "TER_OPTIONS", "TerSettings", "ter_signature"]

#: The sacreBLEU release whose numbers (and signature) this module reproduces.
SACREBLEU_VERSION: Final = "2.6.0"

_SIGNATURE_SHORT: Final = {
    "nrefs": "#",
    "bs": "bs",
    "seed": "rs",
    "case": "c",
    "tok": "t",
    "norm": "nr",
    "punct": "pn",
    "asian": "as",
    "version": "v",
}


def ter_signature(
    *,
    nrefs: int,
    normalized: bool = False,
    no_punct: bool = False,
    asian_support: bool = False,
    case_sensitive: bool = False,
    n_bootstrap: int = 1,
    seed: int | None = None,
    short: bool = False,
    version: str = SACREBLEU_VERSION,
) -> str:
    """sacreBLEU's TER signature, e.g. ``nrefs:1|case:lc|tok:tercom|norm:no|punct:yes|asian:no|
    version:2.6.0`` (equal to ``str(TER(...).get_signature())`` after a ``corpus_score``).

    ``nrefs=-1`` is a variable number of references (``var``); ``n_bootstrap > 1`` adds
    ``bs:<n>|seed:<seed>`` after ``nrefs``; ``short`` gives the short form.
    """
    if isinstance(nrefs, bool) or not isinstance(nrefs, int) or (nrefs < 1 and nrefs != -1):
        raise ValueError(f"nrefs must be a positive integer or -1 (variable), got {nrefs!r}")
    fields: list[tuple[str, object]] = [("nrefs", "var" if nrefs == -1 else nrefs)]
    if n_bootstrap > 1:
        fields += [("bs", n_bootstrap), ("seed", str(seed).lower())]
    fields += [
        ("case", "mixed" if case_sensitive else "lc"),
        ("tok", TercomTokenizer.name),
        ("norm", "yes" if normalized else "no"),
        ("punct", "no" if no_punct else "yes"),
        ("asian", "yes" if asian_support else "no"),
        ("version", version),
    ]
    return "|".join(f"{_SIGNATURE_SHORT[name] if short else name}:{val}" for name, val in fields)


@dataclass(frozen=True, slots=True)
class TerSettings(MetricSettings):
    """sacreBLEU's ``TER`` options; the defaults are sacreBLEU's (lowercased, whitespace
    words)."""

    SPECS: ClassVar[tuple[Setting, ...]] = (
        Setting(
            key="normalized",
            label="Normalize",
            kind="flag",
            help="tercom's normalisation: set punctuation apart, unescape XML entities, "
            "split possessives (and CJK characters with --ter-asian-support)",
            cli="--ter-normalized",
        ),
        Setting(
            key="no_punct",
            label="Remove punctuation",
            kind="flag",
            help='delete . , ? : ; ! " ( ) (and CJK punctuation with --ter-asian-support)',
            cli="--ter-no-punct",
        ),
        Setting(
            key="case_sensitive",
            label="Case sensitive",
            kind="flag",
            help="do not lowercase before counting edits",
            cli="--ter-case-sensitive",
        ),
        Setting(
            key="asian_support",
            label="Asian support",
            kind="flag",
            help="CJK characters and punctuation, with --ter-normalized or --ter-no-punct",
            cli="--ter-asian-support",
        ),
    )

    normalized: bool = False
    no_punct: bool = False
    case_sensitive: bool = False
    asian_support: bool = False

    def tokenizer(self) -> TercomTokenizer:
        return tercom_tokenizer(
            normalized=self.normalized,
            no_punct=self.no_punct,
            asian_support=self.asian_support,
            case_sensitive=self.case_sensitive,
        )


#: TER as the command line and the settings panel know it.
TER_OPTIONS = MetricOptions(key="ter", label="TER", settings_type=TerSettings)
