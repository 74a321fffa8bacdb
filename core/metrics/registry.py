"""Every metric Matchlight scores, by key, in display order.

The CSV and JSON columns, the table's columns, the summary, the filter bar, the breakdowns and
the settings panel are all built from :data:`METRICS`; the command line's options come from the
same metrics' options (:mod:`core.metrics.catalog`, which imports none of the metrics), in the
same order. Adding a metric means writing its module and adding one line here and one there.
A metric's module is imported when the metric is first looked up: a run imports only what it
scores.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterable, Iterator, MutableMapping
from typing import Final

from matchlight.core.metrics import catalog
from matchlight.core.metrics.base import Metric, MetricSettings, Setting
from matchlight.core.metrics.catalog import DEFAULT_METRICS, METRIC_OPTIONS, cli_name

__all__ = [
    "DEFAULT_METRICS",
    "METRICS",
    "cli_name",
    "metric",
    "parse_metrics",
    "settings_by_cli",
    "settings_type",
]

#: Each catalogued metric's class: module, name (imported when the metric is first used).
_CLASSES: Final[dict[str, tuple[str, str]]] = {
    "bleu": ("matchlight.core.metrics.bleu", "BleuMetric"),
    "chrf": ("matchlight.core.metrics.chrf", "ChrfMetric"),
    "rouge": ("matchlight.core.metrics.rouge", "RougeMetric"),
    "nltk_bleu": ("matchlight.core.metrics.nltk_bleu", "NltkBleuMetric"),
    "ter": ("matchlight.core.metrics.ter", "TerMetric"),
}


class _Registry(MutableMapping[str, Metric]):
    """The registered metrics by key, in the catalog's order. A catalogued metric's module is
    imported the first time the metric is looked up, so that a run imports only the metrics
    it scores; a metric registered at run time (``METRICS[key] = metric``) is kept as given."""

    def __init__(self, keys: Iterable[str]) -> None:
        self._metrics: dict[str, Metric | None] = dict.fromkeys(keys)

    def __getitem__(self, key: str) -> Metric:
        found = self._metrics[key]
        if found is None:
            module, name = _CLASSES[key]
            found = self._metrics[key] = getattr(importlib.import_module(module), name)()
        return found

    def __setitem__(self, key: str, value: Metric) -> None:
        self._metrics[key] = value

    def __delitem__(self, key: str) -> None:
        del self._metrics[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._metrics)

    def __contains__(self, key: object) -> bool:
        return key in self._metrics  # without importing the metric

    def __len__(self) -> int:
        return len(self._metrics)

    def settings_type(self, key: str) -> type[MetricSettings]:
        """The settings type of metric ``key``, without importing the metric (from the
        catalog) unless it was registered at run time."""
        found = self._metrics[key]
        if found is None:
            return METRIC_OPTIONS[key].settings_type
        return found.settings_type


#: Registered metrics by key, in the order their columns are shown (the catalog's).
METRICS: _Registry = _Registry(METRIC_OPTIONS)


def metric(key: str) -> Metric:
    """The metric registered as ``key``."""
    try:
        return METRICS[key]
    except KeyError:
        raise catalog.unknown_metric(key, METRICS) from None


def settings_type(key: str) -> type[MetricSettings]:
    """The settings type of the metric registered as ``key`` (its module is not imported)."""
    try:
        return METRICS.settings_type(key)
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
