"""The page shown while no comparison is open."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget

__all__ = ["WelcomePage"]


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
        title = QLabel("<h2>No comparison open</h2>")
        text = QLabel(
            "Open line-aligned files — an optional source, one or more references and one or more "
            "system outputs — to score every segment with BLEU and ROUGE and see what matched.<br>"
            "You can also drop the files onto this window."
        )
        text.setWordWrap(True)
        text.setMaximumWidth(560)
        text.setAlignment(Qt.AlignmentFlag.AlignCenter)
        open_button = QPushButton("Open comparison…")
        open_button.setDefault(True)
        sample_button = QPushButton("Open the sample (German → English)")
        open_button.clicked.connect(self.open_requested)
        sample_button.clicked.connect(self.sample_requested)
        buttons = QHBoxLayout()
        buttons.addStretch(1)
        buttons.addWidget(open_button)
        buttons.addWidget(sample_button)
        buttons.addStretch(1)
        layout = QVBoxLayout(self)
        layout.addStretch(2)
        layout.addWidget(title, 0, Qt.AlignmentFlag.AlignHCenter)
        layout.addWidget(text, 0, Qt.AlignmentFlag.AlignHCenter)
        layout.addSpacing(12)
        layout.addLayout(buttons)
        layout.addStretch(3)
        self.open_button = open_button
        self.sample_button = sample_button
