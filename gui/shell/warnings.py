"""The banner above the table: scoring advice, missing fonts, input warnings.

:class:`WarningsBanner <gui.shell.banner.WarningsBanner>` draws the items; :class:`Warnings`
decides them from the open comparison (core's :func:`~core.scoring.advice.scoring_advice`, in
the interface language by :mod:`gui.shell.advicetext`; the font check; each input's warnings),
applies an advice's fix when its button is pressed, and remembers what the user dismissed for
this comparison.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtCore import QCoreApplication, QObject, Slot

from matchlight.core.scoring.advice import Advice, scoring_advice
from matchlight.gui.shell.advicetext import advice_button, advice_text
from matchlight.gui.shell.banner import BannerItem
from matchlight.gui.shell.fonts import font_advice

__all__ = ["Warnings"]

# Input warnings named in the banner before "and N more".
_SHOWN_NOTES = 3


class Warnings(QObject):
    """What the window's banner says about the open comparison."""

    def __init__(self, window: Any) -> None:
        super().__init__(window)
        self.window = window
        self._dismissed: set[str] = set()
        self._advice: dict[str, Advice] = {}
        window.banner.action_requested.connect(self._on_action_requested)
        window.banner.dismissed.connect(self._on_dismissed)

    def reset(self) -> None:
        """A new comparison: what was dismissed for the last one shows again."""
        self._dismissed.clear()

    def clear(self) -> None:
        self._advice = {}
        self.window.banner.set_items([])

    def update(self) -> None:
        w = self.window
        lifecycle = w.lifecycle
        core, table = lifecycle.core, lifecycle.table
        items: list[BannerItem] = []
        self._advice = {}
        if core is not None and core.comparison is not None and table is not None:
            for advice in scoring_advice(table, profile=lifecycle.profile):
                self._advice[advice.key] = advice
                items.append(BannerItem(advice.key, advice_text(advice), advice_button(advice)))
            fonts = font_advice(lifecycle.missing_fonts)
            if fonts:
                items.append(BannerItem("fonts", fonts))
            notes = [
                f"{Path(column.path).name}: {warning}"
                for column in core.comparison.columns
                for warning in column.warnings
            ]
            if notes:
                shown = "; ".join(notes[:_SHOWN_NOTES])
                if len(notes) > _SHOWN_NOTES:
                    shown += QCoreApplication.translate("Warnings", "; and {0} more").format(
                        len(notes) - _SHOWN_NOTES
                    )
                items.append(
                    BannerItem(
                        "inputs",
                        QCoreApplication.translate("Warnings", "Input warnings — {shown}.").format(
                            shown=shown
                        ),
                    )
                )
        w.banner.set_items([i for i in items if i.key not in self._dismissed])

    @Slot(str)
    def _on_action_requested(self, key: str) -> None:
        advice = self._advice.get(key)
        if advice is None:
            return
        w = self.window
        if advice.fix:
            w.apply_config(w.config.apply(advice.fix))
        elif key == "lsum-fallback":
            w.show_settings_dialog(focus_separator=True)

    @Slot(str)
    def _on_dismissed(self, key: str) -> None:
        self._dismissed.add(key)
