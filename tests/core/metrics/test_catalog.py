"""The catalog (what the command line builds its options from) describes the registry's metrics
exactly: the same keys in the same order, the same labels, settings and defaults."""

from __future__ import annotations

import pytest

from matchlight.core.metrics.catalog import (
    DEFAULT_METRICS,
    METRIC_OPTIONS,
    metric_options,
    parse_metrics,
)
from matchlight.core.metrics.registry import METRICS, metric
from matchlight.core.metrics.settings import SettingError


def test_the_catalog_lists_the_registry_metrics_in_order() -> None:
    assert list(METRIC_OPTIONS) == list(METRICS) == ["bleu", "chrf", "rouge", "nltk_bleu", "ter"]
    for key, options in METRIC_OPTIONS.items():
        m = METRICS[key]
        assert (m.key, m.label, m.settings_type) == (key, options.label, options.settings_type)
        assert m.settings == options.settings
        assert m.settings_type() == options.settings_type()
    assert set(DEFAULT_METRICS) <= set(METRIC_OPTIONS)


def test_unknown_metrics_are_refused_alike() -> None:
    with pytest.raises(SettingError) as from_catalog:
        metric_options("meteor")
    with pytest.raises(SettingError) as from_registry:
        metric("meteor")
    assert str(from_catalog.value) == str(from_registry.value)
    assert "choose from bleu, chrf, rouge, nltk-bleu, ter" in str(from_catalog.value)
    assert parse_metrics("TER, nltk-bleu,bleu,ter") == ("bleu", "nltk_bleu", "ter")
    with pytest.raises(SettingError, match="name at least one metric"):
        parse_metrics(" , ")


def test_a_metric_registered_at_run_time_is_parsed_by_the_registry_only(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from matchlight.core.metrics import registry

    monkeypatch.setitem(METRICS, "bleu_copy", METRICS["bleu"])
    assert registry.parse_metrics("bleu-copy,bleu") == ("bleu", "bleu_copy")
    with pytest.raises(SettingError, match="unknown metric 'bleu_copy'"):
        parse_metrics("bleu-copy")


def test_the_registry_imports_a_metric_when_it_is_first_used() -> None:
    """In a fresh interpreter: listing the metrics, asking whether one is registered and
    reading a settings type import no metric; looking one up imports that one only."""
    import subprocess
    import sys

    code = (
        "import sys\n"
        "from matchlight.core.metrics.registry import METRICS, settings_type\n"
        "from matchlight.core.scoring.config import ScoringConfig\n"
        "def loaded():\n"
        "    return sorted(k for k in METRICS if f'matchlight.core.metrics.{k}' in sys.modules)\n"
        "config = ScoringConfig.from_dict(ScoringConfig().to_dict())\n"
        "print(list(METRICS), 'ter' in METRICS, settings_type('ter').__name__, loaded())\n"
        "METRICS['chrf']\n"
        "print(loaded())\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert result.stdout.splitlines() == [
        "['bleu', 'chrf', 'rouge', 'nltk_bleu', 'ter'] True TerSettings []",
        "['chrf']",
    ]
