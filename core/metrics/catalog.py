"""Every metric's name and settings, by key, in display order, known without importing the metrics.

The command line builds its parsers from :data:`METRIC_OPTIONS` (``--metrics`` and each metric's
own options), so that ``--help`` imports no numpy and no tokenizer. The metrics themselves are
:data:`core.metrics.registry.METRICS`, in this order. Adding a metric means writing its module
and its options module, and adding one line here and one in the registry.
"""

from __future__ import annotations

from collections.abc import Iterable

from matchlight.core.metrics.bleuoptions import BLEU_OPTIONS
from matchlight.core.metrics.chrfoptions import CHRF_OPTIONS
from matchlight.core.metrics.nltkoptions import NLTK_BLEU_OPTIONS
from matchlight.core.metrics.rougeoptions import ROUGE_OPTIONS
from matchlight.core.metrics.settings import MetricOptions, SettingError
from matchlight.core.metrics.teroptions import TER_OPTIONS

__all__ = [
    "DEFAULT_METRICS",
    "METRIC_OPTIONS",
    "cli_name",
    "metric_options",
    "parse_metrics",
    "unknown_metric",
]

#: Every metric's options by key, in the order their columns are shown.
METRIC_OPTIONS: dict[str, MetricOptions] = {
    m.key: m for m in (BLEU_OPTIONS, CHRF_OPTIONS, ROUGE_OPTIONS, NLTK_BLEU_OPTIONS, TER_OPTIONS)
}

#: What is scored unless told otherwise.
DEFAULT_METRICS: tuple[str, ...] = ("bleu", "rouge")


def cli_name(key: str) -> str:
    """A metric key as the command line spells it (``nltk_bleu`` -> ``nltk-bleu``)."""
    return key.replace("_", "-")


def unknown_metric(key: str, known: Iterable[str]) -> SettingError:
    """The error for a metric ``key`` that is not one of ``known``."""
    return SettingError(f"unknown metric {key!r}; choose from {', '.join(map(cli_name, known))}")


def metric_options(key: str) -> MetricOptions:
    """The options of the metric registered as ``key``."""
    try:
        return METRIC_OPTIONS[key]
    except KeyError:
        raise unknown_metric(key, METRIC_OPTIONS) from None


def parse_metrics(
    text: str | Iterable[str], known: Iterable[str] = METRIC_OPTIONS
) -> tuple[str, ...]:
    """Metric keys from ``"bleu,chrf"`` (or a list), validated against ``known`` (the
    catalog's; the registry passes its own, which may hold a metric registered at run time),
    duplicates dropped, in that order (so the columns never depend on how the list was
    written)."""
    keys = list(known)
    names = text.split(",") if isinstance(text, str) else list(text)
    wanted = {n.strip().lower().replace("-", "_") for n in names if n.strip()}
    if not wanted:
        raise SettingError("name at least one metric")
    for key in sorted(wanted):
        if key not in keys:
            raise unknown_metric(key, keys)
    return tuple(key for key in keys if key in wanted)
