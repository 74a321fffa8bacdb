"""Every metric Matchlight scores, by key, in display order.

The CLI's ``--metrics`` choices and per-metric options, the CSV and JSON columns, the table's
columns, the summary, the filter bar, the breakdowns and the settings panel are all built from
:data:`METRICS`. Adding a metric means writing its module and adding one line here.
"""

from __future__ import annotations

from collections.abc import Iterable

from matchlight.core.metrics.base import Metric, Setting, SettingError
from matchlight.core.metrics.bleu import BleuMetric
from matchlight.core.metrics.chrf import ChrfMetric
from matchlight.core.metrics.nltk_bleu import NltkBleuMetric
from matchlight.core.metrics.rouge import RougeMetric
from matchlight.core.metrics.ter import TerMetric

__all__ = ["DEFAULT_METRICS", "METRICS", "metric", "parse_metrics", "settings_by_cli"]

#: Registered metrics by key, in the order their columns are shown.
METRICS: dict[str, Metric] = {
    m.key: m
    for m in (
        BleuMetric(),
        ChrfMetric(),
        RougeMetric(),
        NltkBleuMetric(),
        TerMetric(),
    )
}

#: What is scored unless told otherwise.
DEFAULT_METRICS: tuple[str, ...] = ("bleu", "rouge")


def metric(key: str) -> Metric:
    """The metric registered as ``key``."""
    try:
        return METRICS[key]
    except KeyError:
        raise SettingError(
            f"unknown metric {key!r}; choose from {', '.join(cli_name(k) for k in METRICS)}"
        ) from None


def cli_name(key: str) -> str:
    """A metric key as the command line spells it (``nltk_bleu`` -> ``nltk-bleu``)."""
    return key.replace("_", "-")


def parse_metrics(text: str | Iterable[str]) -> tuple[str, ...]:
    """Metric keys from ``"bleu,chrf"`` (or a list), validated, duplicates dropped, in
    registry order (so the columns never depend on how the list was written)."""
    names = text.split(",") if isinstance(text, str) else list(text)
    wanted = {n.strip().lower().replace("-", "_") for n in names if n.strip()}
    if not wanted:
        raise SettingError("name at least one metric")
    for key in wanted:
        metric(key)
    return tuple(key for key in METRICS if key in wanted)


def settings_by_cli() -> dict[str, tuple[Metric, Setting]]:
    """Every metric setting by its CLI flag; the flags are unique across metrics (tested)."""
    found: dict[str, tuple[Metric, Setting]] = {}
    for m in METRICS.values():
        for spec in m.settings:
            found[spec.cli] = (m, spec)
    return found
