"""The pages shown while no comparison is open: the welcome page, and the reading page."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from PySide6.QtCore import QCoreApplication, Qt, Signal
from PySide6.QtWidgets import QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget

__all__ = ["ReadingPage", "WelcomePage"]

# Width of the welcome page's text column; the labels wrap inside it.
TEXT_WIDTH = 560
# Files named on the reading page (the rest are counted).
LISTED_FILES = 8


def _centred(widget: QWidget) -> QHBoxLayout:
    """A row holding ``widget`` in the middle. (A word-wrapped label added to a layout with
    an alignment flag is given its one-line height and cut off; this keeps it full height.)"""
    row = QHBoxLayout()
    row.addStretch(1)
    row.addWidget(widget)
    row.addStretch(1)
    return row


def _text(html: str) -> QLabel:
    label = QLabel(html)
    label.setWordWrap(True)
    label.setFixedWidth(TEXT_WIDTH)
    label.setAlignment(Qt.AlignmentFlag.AlignCenter)
    return label


class WelcomePage(QWidget):
    """Shown while no comparison is open.

    Signals:
        open_requested: the user wants the Open-comparison dialog.
        sample_requested: the user wants the bundled sample.
    """

    open_requested = Signal()
    sample_requested = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.title = QLabel(
            QCoreApplication.translate("WelcomePage", "<h2>No comparison open</h2>")
        )
        self.text = _text(
            QCoreApplication.translate(
                "WelcomePage",
                "Open line-aligned files — an optional source, one or more references and one or "
                "more system outputs — to score every segment with BLEU and ROUGE and see what "
                "matched.",
            )
        )
        self.drop_hint = _text(
            QCoreApplication.translate(
                "WelcomePage",
                "You can also drop the files, or a folder holding them, onto this window.",
            )
        )
        open_button = QPushButton(QCoreApplication.translate("WelcomePage", "Open comparison…"))
        open_button.setDefault(True)
        sample_button = QPushButton(
            QCoreApplication.translate("WelcomePage", "Open the sample (German → English)")
        )
        open_button.clicked.connect(self.open_requested)
        sample_button.clicked.connect(self.sample_requested)
        buttons = QHBoxLayout()
        buttons.addStretch(1)
        buttons.addWidget(open_button)
        buttons.addWidget(sample_button)
        buttons.addStretch(1)
        layout = QVBoxLayout(self)
        layout.addStretch(2)
        layout.addLayout(_centred(self.title))
        layout.addLayout(_centred(self.text))
        layout.addSpacing(6)
        layout.addLayout(_centred(self.drop_hint))
        layout.addSpacing(12)
        layout.addLayout(buttons)
        layout.addStretch(3)
        self.open_button = open_button
        self.sample_button = sample_button


class ReadingPage(QWidget):
    """Shown while the files of the first comparison are read (instead of the welcome page).

    Signals:
        cancel_requested: the user wants the reading stopped.
    """

    cancel_requested = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.title = QLabel(
            QCoreApplication.translate("ReadingPage", "<h2>Reading the files…</h2>")
        )
        self.files = _text("")
        self.files.setTextFormat(Qt.TextFormat.PlainText)
        self.cancel_button = QPushButton(QCoreApplication.translate("ReadingPage", "Cancel"))
        self.cancel_button.setToolTip(
            QCoreApplication.translate("ReadingPage", "Stop reading; nothing is opened")
        )
        self.cancel_button.clicked.connect(self.cancel_requested)
        layout = QVBoxLayout(self)
        layout.addStretch(2)
        layout.addLayout(_centred(self.title))
        layout.addLayout(_centred(self.files))
        layout.addSpacing(12)
        layout.addLayout(_centred(self.cancel_button))
        layout.addStretch(3)

    def set_files(self, paths: Sequence[str]) -> None:
        """Name the files being read (the first few; the others are counted)."""
        names = [Path(p).name for p in paths[:LISTED_FILES]]
        more = len(paths) - len(names)
        folder = Path(paths[0]).parent.name if paths else ""
        head = (
            QCoreApplication.translate("ReadingPage", "{0} files from {folder}:").format(
                len(paths), folder=folder
            )
            if folder
            else QCoreApplication.translate("ReadingPage", "{0} files:").format(len(paths))
        )
        tail = f" and {more} more" if more > 0 else ""
        self.files.setText(f"{head} {', '.join(names)}{tail}")
