"""Every metric Matchlight scores, by key, in display order.

The CSV and JSON columns, the table's columns, the summary, the filter bar, the breakdowns and
the settings panel are all built from :data:`METRICS`; the command line's options come from the
same metrics' options (:mod:`core.metrics.catalog`, which imports none of the metrics), in the
same order. Adding a metric means writing its module and adding one line here and one there.
"""

from __future__ import annotations

from collections.abc import Iterable

from matchlight.core.metrics import catalog
from matchlight.core.metrics.base import Metric, Setting
from matchlight.core.metrics.bleu import BleuMetric
from matchlight.core.metrics.catalog import DEFAULT_METRICS, METRIC_OPTIONS, cli_name
from matchlight.core.metrics.chrf import ChrfMetric
from matchlight.core.metrics.nltk_bleu import NltkBleuMetric
from matchlight.core.metrics.rouge import RougeMetric
from matchlight.core.metrics.ter import TerMetric

__all__ = [
    "DEFAULT_METRICS",
    "METRICS",
    "cli_name",
    "metric",
    "parse_metrics",
    "settings_by_cli",
]

_CLASSES: dict[str, type[Metric]] = {
    m.key: m for m in (BleuMetric, ChrfMetric, RougeMetric, NltkBleuMetric, TerMetric)
}

#: Registered metrics by key, in the order their columns are shown (the catalog's).
METRICS: dict[str, Metric] = {key: _CLASSES[key]() for key in METRIC_OPTIONS}


def metric(key: str) -> Metric:
    """The metric registered as ``key``."""
    try:
        return METRICS[key]
    except KeyError:
        raise catalog.unknown_metric(key, METRICS) from None


def parse_metrics(text: str | Iterable[str]) -> tuple[str, ...]:
    """Metric keys from ``"bleu,chrf"`` (or a list), validated against the registered metrics
    (one registered at run time included), duplicates dropped, in registry order."""
    return catalog.parse_metrics(text, METRICS)


def settings_by_cli() -> dict[str, tuple[Metric, Setting]]:
    """Every metric setting by its CLI flag; the flags are unique across metrics (tested)."""
    found: dict[str, tuple[Metric, Setting]] = {}
    for m in METRICS.values():
        for spec in m.settings:
            found[spec.cli] = (m, spec)
    return found
