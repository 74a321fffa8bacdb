"""Help ▸ About (versions, and whose numbers Matchlight reproduces); Help ▸ Keyboard shortcuts."""

from __future__ import annotations

import platform
from collections.abc import Iterable
from importlib.metadata import PackageNotFoundError, version

import numpy as np
import PySide6
from PySide6.QtCore import Qt, qVersion
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QHeaderView,
    QLabel,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from matchlight.core import __version__
from matchlight.core.metrics.bleu import SACREBLEU_VERSION
from matchlight.core.metrics.rouge import ROUGE_SCORE_VERSION

__all__ = ["AboutDialog", "ShortcutsDialog", "shortcut_rows", "versions"]


def _installed(package: str) -> str:
    try:
        return version(package)
    except PackageNotFoundError:
        return "not installed"


def versions() -> list[tuple[str, str]]:
    """(what, version) for the About box: Matchlight, its runtime, and the reference tools
    whose numbers it reproduces."""
    return [
        ("Matchlight", __version__),
        ("Python", platform.python_version()),
        ("Qt", qVersion()),
        ("PySide6", PySide6.__version__),
        ("numpy", np.__version__),
        ("pyqtgraph", _installed("pyqtgraph")),
        ("BLEU and chrF equal sacreBLEU", SACREBLEU_VERSION),
        ("ROUGE equals rouge-score", ROUGE_SCORE_VERSION),
        ("NLTK BLEU equals NLTK", _installed("nltk")),
    ]


class AboutDialog(QDialog):
    """Matchlight's name, what it does, and every version that matters for a bug report."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("About Matchlight")
        title = QLabel(f"<h2>Matchlight {__version__}</h2>")
        text = QLabel(
            "Reference-based evaluation of generated text: BLEU, chrF, ROUGE and NLTK-BLEU "
            "per sentence, with the matches highlighted. Every number equals the reference "
            "implementation's, bit for bit."
        )
        text.setWordWrap(True)
        self.version_text = "\n".join(f"{what}: {v}" for what, v in versions())
        table = QLabel(
            "<table cellspacing='2'>"
            + "".join(f"<tr><td>{what}</td><td><b>{v}</b></td></tr>" for what, v in versions())
            + "</table>"
        )
        table.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(title)
        layout.addWidget(text)
        layout.addWidget(table)
        layout.addWidget(buttons)
        self.setMinimumWidth(440)


def shortcut_rows(actions: Iterable[QAction]) -> list[tuple[str, str]]:
    """(action, shortcuts) of every action that has a shortcut, in the given order."""
    rows = []
    for action in actions:
        keys = [k.toString(QKeySequence.SequenceFormat.NativeText) for k in action.shortcuts()]
        if keys:
            rows.append((action.text().replace("&", "").rstrip("…"), "  or  ".join(keys)))
    return rows


class ShortcutsDialog(QDialog):
    """Every keyboard shortcut of the window, read from its actions (never a separate list)."""

    def __init__(self, rows: list[tuple[str, str]], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Keyboard shortcuts — Matchlight")
        self.table = QTableWidget(len(rows), 2, self)
        self.table.setHorizontalHeaderLabels(["Action", "Shortcut"])
        self.table.verticalHeader().hide()
        self.table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        for r, (what, keys) in enumerate(rows):
            self.table.setItem(r, 0, QTableWidgetItem(what))
            self.table.setItem(r, 1, QTableWidgetItem(keys))
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.ResizeToContents)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.table)
        layout.addWidget(buttons)
        self.resize(480, 520)
