"""What a user arranged in the window for one comparison, remembered for the next time.

Hidden columns, column widths, the highlight mode, the score columns shown per system and the
baseline belong to a comparison: they go into its session's ``layout``
(:meth:`ComparisonSession.set_layout <core.session.comparison.ComparisonSession.set_layout>`,
so a saved session keeps them) and into QSettings, keyed by the comparison's files, so that
opening the same files again restores them. Columns are named by what they show
(:func:`column_id`), never by their position, which changes with the baseline and the shown
scores. None of this changes a number.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from PySide6.QtCore import QSettings

from matchlight.core.io.specs import ComparisonSpecs
from matchlight.gui.table.model import ColumnInfo

__all__ = ["VIEWSTATE_KEY", "VIEWSTATE_LIMIT", "ViewState", "ViewStateStore", "column_id"]

VIEWSTATE_KEY = "viewstate/comparisons"
# Comparisons whose view state is remembered (the most recently used ones).
VIEWSTATE_LIMIT = 50


def column_id(info: ColumnInfo) -> str:
    """A column's name that survives a new baseline or other shown scores:
    ``segment``, ``source``, ``reference:1``, ``hypothesis:0``, ``score:bleu:2``,
    ``delta:rougeL_f:1``."""
    if info.kind in ("segment", "source"):
        return info.kind
    if info.kind == "reference":
        return f"reference:{info.reference}"
    if info.kind == "hypothesis":
        return f"hypothesis:{info.system}"
    return f"{info.kind}:{info.metric}:{info.system}"


@dataclass(frozen=True, slots=True)
class ViewState:
    """The arrangement of one comparison's window (see the module docstring)."""

    hidden: tuple[str, ...] = ()
    widths: Mapping[str, int] = field(default_factory=dict)
    mode: str | None = None
    shown: tuple[str, ...] = ()
    baseline: str | None = None  # a system name: indices change when files are reordered

    def baseline_in(self, names: Sequence[str]) -> int:
        """The remembered baseline's index among ``names`` (0 when it is not one of them)."""
        if self.baseline is None or self.baseline not in names:
            return 0
        return list(names).index(self.baseline)

    def to_dict(self) -> dict[str, Any]:
        return {
            "hidden_columns": list(self.hidden),
            "column_widths": dict(self.widths),
            "highlight_mode": self.mode,
            "shown_scores": list(self.shown),
            "baseline": self.baseline,
        }

    @classmethod
    def from_dict(cls, data: Any) -> ViewState:
        """Rebuild from :meth:`to_dict`; anything malformed is dropped, never raised."""
        if not isinstance(data, Mapping):
            return cls()

        def strings(value: Any) -> tuple[str, ...]:
            if not isinstance(value, list):
                return ()
            return tuple(v for v in value if isinstance(v, str))

        widths = data.get("column_widths")
        mode, baseline = data.get("highlight_mode"), data.get("baseline")
        return cls(
            hidden=strings(data.get("hidden_columns")),
            widths={
                k: int(v)
                for k, v in (widths.items() if isinstance(widths, Mapping) else ())
                if isinstance(k, str) and isinstance(v, int) and 0 < v < 10_000
            },
            mode=mode if isinstance(mode, str) else None,
            shown=strings(data.get("shown_scores")),
            baseline=baseline if isinstance(baseline, str) else None,
        )


def comparison_key(specs: ComparisonSpecs) -> str:
    """A short, stable key for a comparison's files (and their names, columns, formats)."""
    text = json.dumps(specs.to_json(), sort_keys=True, ensure_ascii=True)
    return hashlib.sha1(text.encode("ascii")).hexdigest()[:20]


class ViewStateStore:
    """View states in QSettings, keyed by comparison (:func:`comparison_key`), most recent
    first, at most :data:`VIEWSTATE_LIMIT` of them."""

    def __init__(self, settings: QSettings) -> None:
        self._settings = settings

    def _entries(self) -> list[tuple[str, Any]]:
        raw = self._settings.value(VIEWSTATE_KEY)
        if not isinstance(raw, str):
            return []
        try:
            data = json.loads(raw)
        except ValueError:
            return []
        if not isinstance(data, list):
            return []
        return [
            (item[0], item[1])
            for item in data
            if isinstance(item, list) and len(item) == 2 and isinstance(item[0], str)
        ]

    def load(self, specs: ComparisonSpecs) -> ViewState | None:
        key = comparison_key(specs)
        for stored, state in self._entries():
            if stored == key:
                return ViewState.from_dict(state)
        return None

    def save(self, specs: ComparisonSpecs, state: ViewState) -> None:
        key = comparison_key(specs)
        entries = [(key, state.to_dict())]
        entries += [(k, v) for k, v in self._entries() if k != key]
        self._settings.setValue(
            VIEWSTATE_KEY, json.dumps([list(e) for e in entries[:VIEWSTATE_LIMIT]])
        )
