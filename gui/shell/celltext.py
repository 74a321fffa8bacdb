"""A table cell's whole text in a window of its own, and a table row as tab-separated text.

Rows keep a fixed height and cells show the first lines of a text; "Show the whole text"
opens the cell's full text here (selectable, however long). :func:`row_as_tsv` is what Ctrl+C
on the table copies.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtGui import QTextOption
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QLabel,
    QPlainTextEdit,
    QVBoxLayout,
    QWidget,
)

from matchlight.core.io.csvfile import csv_text
from matchlight.gui.table.model import NUMERIC_KINDS, TEXT_KINDS, SegmentTableModel

__all__ = ["CellTextDialog", "cell_value", "row_as_tsv"]


def cell_value(model: SegmentTableModel, col: int, segment: int) -> str:
    """What a cell holds, in full: the whole text of a text cell, a score at full precision
    (as the CSV export writes it; empty where there is none), the 1-based segment number."""
    info = model.column_info(col)
    if info.kind in TEXT_KINDS:
        return model.strings(col)[segment]
    if info.kind in NUMERIC_KINDS:
        value = float(model.values(col)[segment])
        return "" if math.isnan(value) else repr(value)
    return str(segment + 1)


def row_as_tsv(model: SegmentTableModel, segments: Sequence[int]) -> str:
    """A header line and one line per segment, every column of the model, tab-separated by
    core's one CSV writer (fields holding tabs, line breaks or quotes are quoted, as
    spreadsheets expect). The cells are what they hold, not made spreadsheet-safe: a copy."""
    columns = range(model.columnCount())
    header = [str(model.headerData(c, Qt.Orientation.Horizontal)) for c in columns]
    rows = [[cell_value(model, c, segment) for c in columns] for segment in segments]
    return csv_text([header, *rows], delimiter="\t", spreadsheet=False)


class CellTextDialog(QDialog):
    """One cell's text in full, read-only and selectable."""

    def __init__(self, title: str, text: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(
            QCoreApplication.translate("CellTextDialog", "{title} — Matchlight").format(title=title)
        )
        caption = QLabel(
            QCoreApplication.translate("CellTextDialog", "{title} · {0:,} characters").format(
                len(text), title=title
            )
        )
        caption.setTextFormat(Qt.TextFormat.PlainText)
        self.view = QPlainTextEdit()
        self.view.setReadOnly(True)
        self.view.setWordWrapMode(QTextOption.WrapMode.WrapAtWordBoundaryOrAnywhere)
        self.view.setPlainText(text)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(caption)
        layout.addWidget(self.view, 1)
        layout.addWidget(buttons)
        self.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        self.resize(640, 360)

    def text(self) -> str:
        return self.view.toPlainText()
