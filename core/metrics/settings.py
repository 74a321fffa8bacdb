"""A metric's settings: what each one allows, how it is offered, and the frozen record of them.

:class:`Setting` describes one setting (its CLI flag, choices, range); :class:`MetricSettings`
is the base of each metric's frozen settings dataclass; :class:`MetricOptions` names a metric
and its settings. The command line builds its parser from these alone, so this module and the
metrics' option modules import nothing heavy (no numpy, no tokenizer): ``--help`` stays fast.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any, ClassVar, Literal

__all__ = ["MetricOptions", "MetricSettings", "Setting", "SettingError", "SettingKind"]


class SettingError(ValueError):
    """A setting is out of range; the message names the setting and the allowed values."""


SettingKind = Literal["choice", "flag", "int", "float"]


@dataclass(frozen=True, slots=True)
class Setting:
    """One setting of a metric: how it is validated, offered on the command line and in the app.

    ``key`` is the attribute of the metric's :class:`MetricSettings` dataclass. ``kind`` decides
    the widget and the CLI parser: ``choice`` (one of ``choices``), ``flag`` (a boolean that the
    CLI switches to the opposite of its default), ``int`` (``minimum``..``maximum``) or ``float``
    (finite, at least ``minimum``; ``None`` allowed when ``optional``, meaning "the default for
    the other settings").
    """

    key: str
    label: str
    kind: SettingKind
    help: str
    cli: str
    aliases: tuple[str, ...] = ()
    choices: tuple[str, ...] = ()
    minimum: float | None = None
    maximum: float | None = None
    optional: bool = False

    def check(self, value: object) -> None:
        """Raise :class:`SettingError` unless ``value`` is allowed."""
        if value is None and self.optional:
            return
        name = self.cli
        if self.kind == "choice":
            if value not in self.choices:
                allowed = ", ".join(self.choices)
                raise SettingError(f"{name} must be one of {allowed}; got {value!r}")
        elif self.kind == "flag":
            if not isinstance(value, bool):
                raise SettingError(f"{name} must be true or false; got {value!r}")
        elif self.kind == "int":
            if isinstance(value, bool) or not isinstance(value, int):
                raise SettingError(f"{name} must be a whole number; got {value!r}")
            self._check_range(value)
        else:
            if isinstance(value, bool) or not isinstance(value, int | float):
                raise SettingError(f"{name} must be a number; got {value!r}")
            if not math.isfinite(value):
                raise SettingError(f"{name} must be a finite number; got {value!r}")
            self._check_range(value)

    def _check_range(self, value: float) -> None:
        low, high = self.minimum, self.maximum
        if (low is not None and value < low) or (high is not None and value > high):
            if high is None:
                bound = f"at least {low:g}"
            elif low is None:
                bound = f"at most {high:g}"
            else:
                bound = f"{low:g} to {high:g}"
            raise SettingError(f"{self.cli} must be {bound}, not {value:g}")


@dataclass(frozen=True, slots=True)
class MetricSettings:
    """Base of each metric's frozen settings dataclass; validated against its :class:`Setting`s.

    Subclasses set ``SPECS`` (one :class:`Setting` per field, same keys) and may override
    :meth:`check` for rules that involve several settings.
    """

    SPECS: ClassVar[tuple[Setting, ...]] = ()

    def __post_init__(self) -> None:
        specs = {spec.key: spec for spec in self.SPECS}
        for f in fields(self):
            spec = specs.get(f.name)
            if spec is None:
                raise TypeError(f"{type(self).__name__}.{f.name} has no Setting spec")
            spec.check(getattr(self, f.name))
        self.check()

    def check(self) -> None:
        """Rules across settings (none by default)."""

    def to_dict(self) -> dict[str, Any]:
        return {f.name: getattr(self, f.name) for f in fields(self)}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> MetricSettings:
        """Settings from :meth:`to_dict` output; unknown keys are ignored, missing ones default."""
        known = {f.name for f in fields(cls)}
        return cls(**{k: v for k, v in data.items() if k in known})

    def changed(self) -> dict[str, Any]:
        """The settings that differ from the defaults (what a user should see next to scores)."""
        default = type(self)()
        return {k: v for k, v in self.to_dict().items() if getattr(default, k) != v}


@dataclass(frozen=True, slots=True)
class MetricOptions:
    """A metric's name and settings: what the command line and the settings panel offer, known
    without importing the metric (:mod:`core.metrics.catalog` lists them; each
    :class:`~core.metrics.base.Metric` takes its key, label and settings type from here)."""

    #: Registry key, as in ``--metrics`` (``bleu``, ``chrf``...).
    key: str
    label: str
    settings_type: type[MetricSettings]

    @property
    def settings(self) -> tuple[Setting, ...]:
        return self.settings_type.SPECS
