"""The frozen scoring configuration of a comparison and its reproducibility signatures.

Every setting that changes a number lives here: which metrics are scored, each metric's own
settings (a :class:`~core.metrics.base.MetricSettings` per registered metric, validated by its
:class:`~core.metrics.base.Setting` specs), and the sentence separator, which belongs to the
comparison because it changes several metrics (see :func:`core.metrics.base.mask_separator`).
The CLI's options and the app's settings panel are both built from the registry, so they can
never disagree about what is allowed.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from matchlight.core import __version__
from matchlight.core.metrics.base import (
    HighlightMode,
    Metric,
    MetricSettings,
    ScoreColumn,
    SettingError,
)
from matchlight.core.metrics.registry import (
    DEFAULT_METRICS,
    METRICS,
    metric,
    parse_metrics,
    settings_type,
)

__all__ = ["LSUM_SEPARATORS", "ConfigError", "ScoringConfig"]

#: Named sentence separators offered in the app; any non-empty string is accepted.
LSUM_SEPARATORS: dict[str, str | None] = {
    "newline inside the segment (rouge-score)": "\n",
    "<n> marker": "<n>",
    "none (ROUGE-Lsum = ROUGE-L)": None,
}

#: A setting is out of range (the same error as the metrics' own).
ConfigError = SettingError


def _default_options() -> tuple[MetricSettings, ...]:
    return tuple(METRICS.settings_type(key)() for key in METRICS)


@dataclass(frozen=True, slots=True)
class ScoringConfig:
    """All settings that change a score.

    ``metrics`` are the registry keys scored, in registry order. ``options`` holds one settings
    object per *registered* metric (defaults where none was given), so that switching a metric
    off and on again keeps its settings. The defaults reproduce sacreBLEU's
    ``sentence_bleu``/``corpus_bleu`` and rouge-score's ``RougeScorer`` without stemming.
    """

    metrics: tuple[str, ...] = DEFAULT_METRICS
    sentence_separator: str | None = "\n"
    options: tuple[MetricSettings, ...] = field(default_factory=_default_options)

    def __post_init__(self) -> None:
        object.__setattr__(self, "metrics", parse_metrics(self.metrics))
        if self.sentence_separator == "":
            raise SettingError("the sentence separator must be a non-empty string or none")
        given = {type(option): option for option in self.options}
        options = []
        for key in METRICS:
            kind = METRICS.settings_type(key)
            option = given.pop(kind, None)
            options.append(kind() if option is None else option)
        if given:
            names = ", ".join(t.__name__ for t in given)
            raise SettingError(f"settings of no registered metric: {names}")
        object.__setattr__(self, "options", tuple(options))

    # -- reading --------------------------------------------------------------------------------

    def settings(self, key: str) -> MetricSettings:
        """The settings of metric ``key`` (whether or not it is scored)."""
        wanted = settings_type(key)
        for option in self.options:
            if type(option) is wanted:
                return option
        raise AssertionError(f"no settings for {key}")  # pragma: no cover - __post_init__

    def enabled(self) -> tuple[tuple[Metric, MetricSettings], ...]:
        """The scored metrics with their settings, in registry order."""
        return tuple((metric(key), self.settings(key)) for key in self.metrics)

    def columns(self) -> tuple[ScoreColumn, ...]:
        """Every per-segment column, metric after metric."""
        return tuple(c for m, s in self.enabled() for c in m.columns(s))

    def column_keys(self) -> tuple[str, ...]:
        return tuple(c.key for c in self.columns())

    def highlight_modes(self) -> tuple[HighlightMode, ...]:
        """The highlight layers of the scored metrics, metric after metric."""
        return tuple(mode for m, s in self.enabled() for mode in m.highlight_modes(s))

    def signatures(self, nrefs: int) -> dict[str, str]:
        """Every scored metric's signatures by name (``bleu``, ``bleu_sentence``, ``rouge``...).

        Each equals its reference implementation's own where one exists (sacreBLEU's
        ``get_signature()``); Matchlight's version is reported separately
        (:data:`matchlight.core.__version__`).
        """
        found: dict[str, str] = {}
        for m, s in self.enabled():
            found.update(m.signatures(s, nrefs=nrefs, separator=self.sentence_separator))
        return found

    def signature(self, nrefs: int) -> str:
        """All signatures on one line, for a status bar or a log: ``BLEU ... | ROUGE ...``."""
        return "  ".join(f"{name}: {sig}" for name, sig in self.signatures(nrefs).items())

    def changed(self) -> dict[str, dict[str, Any]]:
        """Per scored metric, the settings that differ from the defaults (shown next to scores).

        A non-default sentence separator is listed under ``text``.
        """
        found = {m.key: s.changed() for m, s in self.enabled() if s.changed()}
        if self.sentence_separator != "\n":
            found["text"] = {"sentence_separator": self.sentence_separator}
        return found

    # -- changing -------------------------------------------------------------------------------

    def with_metrics(self, metrics: tuple[str, ...] | str) -> ScoringConfig:
        return ScoringConfig(
            metrics=parse_metrics(metrics),
            sentence_separator=self.sentence_separator,
            options=self.options,
        )

    def with_settings(self, key: str, **changes: Any) -> ScoringConfig:
        """A copy with some settings of metric ``key`` changed (validated again)."""
        current = self.settings(key)
        updated = type(current).from_dict({**current.to_dict(), **changes})
        options = tuple(updated if o is current else o for o in self.options)
        return ScoringConfig(
            metrics=self.metrics, sentence_separator=self.sentence_separator, options=options
        )

    def with_separator(self, separator: str | None) -> ScoringConfig:
        return ScoringConfig(
            metrics=self.metrics, sentence_separator=separator, options=self.options
        )

    def apply(self, changes: Mapping[str, Mapping[str, Any]]) -> ScoringConfig:
        """A copy with ``changes`` applied: per metric key, settings to change; under ``text``,
        the ``sentence_separator``."""
        config = self
        for key, values in changes.items():
            if key == "text":
                if "sentence_separator" in values:
                    config = config.with_separator(values["sentence_separator"])
            else:
                config = config.with_settings(key, **values)
        return config

    # -- storing --------------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """A JSON-safe dict, for sessions, exports and the app's settings."""
        data: dict[str, Any] = {
            "metrics": list(self.metrics),
            "sentence_separator": self.sentence_separator,
        }
        for key in METRICS:
            data[key] = self.settings(key).to_dict()
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> ScoringConfig:
        """Rebuild a config from :meth:`to_dict` output; unknown keys are ignored."""
        options = []
        for key in METRICS:
            values = data.get(key)
            if isinstance(values, Mapping):
                options.append(METRICS.settings_type(key).from_dict(values))
        kwargs: dict[str, Any] = {"options": tuple(options)}
        if "metrics" in data:
            kwargs["metrics"] = tuple(data["metrics"])
        if "sentence_separator" in data:
            kwargs["sentence_separator"] = data["sentence_separator"]
        return cls(**kwargs)

    @property
    def matchlight_version(self) -> str:
        return __version__
