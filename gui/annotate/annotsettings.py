"""Who annotates and how: the annotator's name, the mode (MQM or ESA), the typology and the MQM
weights of the open comparison's annotation.

:class:`AnnotationSettings` is a base of :class:`~gui.annotate.controller.AnnotationController`:
its methods are the controller's own (the settings dialog and the menus call them there). The
mode, typology and weights are the workspace's, so a session file keeps them; the annotator's
name is also remembered in the application's settings for the next start.
"""

from __future__ import annotations

import getpass
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QCoreApplication

from matchlight.core.annotation.mqm import MQMWeights
from matchlight.core.annotation.typology import AnnotationMode, Typology

if TYPE_CHECKING:
    from matchlight.core.annotation.workspace import AnnotationWorkspace
    from matchlight.gui.annotate.host import AnnotationHost

__all__ = ["ANNOTATOR_KEY", "AnnotationSettings"]

ANNOTATOR_KEY = "annotation/annotator"


class AnnotationSettings:
    """The settings methods of :class:`~gui.annotate.controller.AnnotationController`."""

    # What the controller provides.
    host: AnnotationHost
    _workspace: AnnotationWorkspace | None
    _annotator: str
    settings_changed: Any
    target_changed: Any
    annotations_changed: Any
    editable: Any

    if TYPE_CHECKING:

        def say(self, text: str) -> None: ...
        def _reset_draft(self) -> None: ...

    def _initial_annotator(self) -> str:
        stored = self.host.settings.value(ANNOTATOR_KEY)
        if isinstance(stored, str) and stored.strip():
            return stored.strip()
        try:
            return getpass.getuser()
        except (KeyError, OSError):  # no login name (a container)
            return "annotator"

    def set_annotator(self, name: str, *, remember: bool = True) -> None:
        """Annotate as ``name`` from now on (``remember``: for the next start too; a session's
        own annotator is not)."""
        name = name.strip()
        if not name or name == self._annotator:
            return
        self._annotator = name
        if remember:
            self.host.settings.setValue(ANNOTATOR_KEY, name)
        if self._workspace is not None:
            self._workspace.annotator = name
        self.settings_changed.emit()
        self.target_changed.emit()

    def set_mode(self, mode: AnnotationMode) -> None:
        ws = self._workspace
        if ws is None or ws.mode is mode or not self.editable():
            self.settings_changed.emit()
            return
        ws.set_mode(mode)
        self._reset_draft()
        self.settings_changed.emit()
        self.say(
            QCoreApplication.translate(
                "AnnotationController", "ESA mode: severities only, and a 0–100 score per output."
            )
            if mode is AnnotationMode.ESA
            else QCoreApplication.translate(
                "AnnotationController", "MQM mode: category and severity per error."
            )
        )
        self.annotations_changed.emit()
        self.target_changed.emit()

    def set_typology(self, typology: Typology) -> None:
        ws = self._workspace
        if ws is None or not self.editable():
            return
        ws.set_typology(typology)
        self.settings_changed.emit()
        self.annotations_changed.emit()
        self.target_changed.emit()

    def set_weights(self, weights: MQMWeights) -> None:
        ws = self._workspace
        if ws is None or not self.editable():
            return
        ws.set_weights(weights)
        self.settings_changed.emit()
