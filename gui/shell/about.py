"""Help ▸ About (versions, and whose numbers Matchlight reproduces); Help ▸ Keyboard shortcuts."""

from __future__ import annotations

import platform
from collections.abc import Iterable, Sequence
from importlib.metadata import PackageNotFoundError, version

import numpy as np
import PySide6
from PySide6.QtCore import QCoreApplication, Qt, qVersion
from PySide6.QtGui import QAction, QFont, QKeySequence
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

__all__ = [
    "WINDOW_SECTION",
    "AboutDialog",
    "ShortcutSection",
    "ShortcutsDialog",
    "shortcut_rows",
    "versions",
]


def _installed(package: str) -> str:
    try:
        return version(package)
    except PackageNotFoundError:
        return QCoreApplication.translate("about", "not installed")


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
        (QCoreApplication.translate("about", "BLEU and chrF equal sacreBLEU"), SACREBLEU_VERSION),
        (QCoreApplication.translate("about", "ROUGE equals rouge-score"), ROUGE_SCORE_VERSION),
        (
            QCoreApplication.translate("about", "NLTK BLEU equals NLTK"),
            _installed("nltk"),
        ),
    ]


class AboutDialog(QDialog):
    """Matchlight's name, what it does, and every version that matters for a bug report."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(QCoreApplication.translate("AboutDialog", "About Matchlight"))
        title = QLabel(
            QCoreApplication.translate("AboutDialog", "<h2>Matchlight {__version__}</h2>").format(
                __version__=__version__
            )
        )
        text = QLabel(
            QCoreApplication.translate(
                "AboutDialog",
                "Reference-based evaluation of generated text: BLEU, chrF, ROUGE and NLTK-BLEU "
                "per sentence, with the matches highlighted. Every number equals the reference "
                "implementation's, bit for bit.",
            )
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


# A titled group of rows of the shortcuts dialog: (title, [(what, keys), ...]).
ShortcutSection = tuple[str, Sequence[tuple[str, str]]]

# The title of the window's own actions when other sections follow them.
WINDOW_SECTION = "Window"


class ShortcutsDialog(QDialog):
    """Every keyboard shortcut of the window, read from its actions (never a separate list).

    ``rows`` are the window's actions; ``sections`` follow them, each under its title (the
    annotation keys, which act in the table, the detail pane and the annotation panel). With
    sections, the window's rows are titled too. A title is a row of its own spanning both
    columns, so the table reads and scrolls as one list.
    """

    def __init__(
        self,
        rows: Sequence[tuple[str, str]],
        parent: QWidget | None = None,
        *,
        sections: Sequence[ShortcutSection] = (),
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle(
            QCoreApplication.translate("ShortcutsDialog", "Keyboard shortcuts — Matchlight")
        )
        groups: list[tuple[str | None, Sequence[tuple[str, str]]]] = [
            (WINDOW_SECTION if sections else None, rows),
            *sections,
        ]
        count = sum(len(group) + (title is not None) for title, group in groups)
        self.table = QTableWidget(count, 2, self)
        self.table.setHorizontalHeaderLabels(
            [
                QCoreApplication.translate("ShortcutsDialog", "Action"),
                QCoreApplication.translate("ShortcutsDialog", "Shortcut"),
            ]
        )
        self.table.verticalHeader().hide()
        self.table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        self.table.setWordWrap(True)
        bold = QFont(self.font())
        bold.setBold(True)
        r = 0
        for title, group in groups:
            if title is not None:
                heading = QTableWidgetItem(title)
                heading.setFont(bold)
                heading.setFlags(Qt.ItemFlag.ItemIsEnabled)
                self.table.setItem(r, 0, heading)
                self.table.setItem(r, 1, QTableWidgetItem(""))
                self.table.setSpan(r, 0, 1, 2)
                r += 1
            for what, keys in group:
                self.table.setItem(r, 0, QTableWidgetItem(what))
                self.table.setItem(r, 1, QTableWidgetItem(keys))
                r += 1
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.ResizeToContents)
        self.table.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.table)
        layout.addWidget(buttons)
        self.resize(640 if sections else 480, 620 if sections else 520)

    def section(self, title: str) -> list[tuple[str, str]]:
        """The (what, keys) rows the table shows under ``title`` (empty if it has none)."""
        table = self.table

        def text(r: int, c: int) -> str:
            item = table.item(r, c)
            return "" if item is None else item.text()

        rows: list[tuple[str, str]] = []
        inside = False
        for r in range(table.rowCount()):
            if table.columnSpan(r, 0) == 2:
                if inside:
                    break
                inside = text(r, 0) == title
            elif inside:
                rows.append((text(r, 0), text(r, 1)))
        return rows
