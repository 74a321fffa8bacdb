"""The one writer of delimited text (CSV, TSV): quoting, spreadsheet safety, UTF-8, atomic writes.

Every CSV or TSV Matchlight produces (the per-segment score export, the per-span annotation
export, the WMT MQM TSV, a table row copied as TSV) is made by :func:`csv_text`, so they agree:

* A row is a sequence of cells. A ``str`` is a text cell; an ``int`` or ``float`` is a number,
  written as Python writes it (a float at full precision, ``repr``); ``None`` and NaN are an
  empty cell. Numbers are never changed.
* With ``spreadsheet=True`` (files meant for spreadsheets), a text cell that would start a
  formula gets a leading apostrophe (:func:`~matchlight.core.io.spreadsheet.spreadsheet_safe`,
  OWASP's rule against CSV injection). Interchange formats that must come back byte for byte
  (the MQM TSV) pass ``spreadsheet=False``.
* A lone surrogate in a text cell (from an undecodable file name) becomes U+FFFD, so that the
  text is always valid UTF-8.
* Quoting is :mod:`csv`'s minimal quoting, plus one fix: Python's writer leaves a lone ``"\\r"``
  unquoted when the line terminator is ``"\\n"``, and every reader then breaks the row there. A
  cell holding a delimiter, a quote, ``"\\r"`` or ``"\\n"`` is always quoted, so
  ``csv.reader`` (and pandas) read back exactly the cells written. ``quoting="none"`` writes
  cells raw and refuses a cell that would need quotes.
* :func:`write_csv_file` writes through :mod:`~matchlight.core.io.safewrite`: atomically, never
  over an input or a session.
"""

from __future__ import annotations

import csv
import io
import math
import os
import re
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Final, Literal

from matchlight.core.io.safewrite import StrPath, write_file_atomic
from matchlight.core.io.spreadsheet import spreadsheet_safe

__all__ = ["Cell", "csv_text", "text_cell", "write_csv_file"]

#: One cell: text, a number, or nothing (``None``; a NaN float is nothing too).
Cell = str | int | float | None
Quoting = Literal["minimal", "none"]

_SURROGATES: Final[re.Pattern[str]] = re.compile("[\ud800-\udfff]")


def text_cell(text: str, *, spreadsheet: bool = True) -> str:
    """A text cell as :func:`csv_text` writes it: valid UTF-8, and (``spreadsheet``) safe to
    open in a spreadsheet. For callers that show a cell as it will be written."""
    if _SURROGATES.search(text) is not None:
        text = _SURROGATES.sub("\ufffd", text)
    return spreadsheet_safe(text) if spreadsheet else text


def _cells(row: Sequence[Cell], spreadsheet: bool) -> tuple[list[str | int | float], bool]:
    """The row's cells as the csv module writes them, and whether a text cell holds a "\r"."""
    cells: list[str | int | float] = []
    has_cr = False
    for cell in row:
        if isinstance(cell, str):
            text = text_cell(cell, spreadsheet=spreadsheet)
            has_cr = has_cr or "\r" in text
            cells.append(text)
        elif cell is None or (isinstance(cell, float) and math.isnan(cell)):
            cells.append("")
        else:
            cells.append(cell)
    return cells, has_cr


def _unquoted(rows: Iterable[Sequence[Cell]], delimiter: str, end: str, safe: bool) -> str:
    what = "a tab" if delimiter == "\t" else repr(delimiter)
    out = io.StringIO()
    for row in rows:
        cells = [str(c) for c in _cells(row, safe)[0]]
        for cell in cells:
            if delimiter in cell or "\n" in cell or "\r" in cell:
                shown = cell if len(cell) <= 60 else cell[:60] + "..."
                raise ValueError(
                    f"a field holds {what} or line break and the file has no quoting: {shown!r}"
                )
        out.write(delimiter.join(cells) + end)
    return out.getvalue()


def csv_text(
    rows: Iterable[Sequence[Cell]],
    *,
    delimiter: str = ",",
    lineterminator: str = "\n",
    spreadsheet: bool = True,
    quoting: Quoting = "minimal",
) -> str:
    """The delimited text of ``rows`` (see the module docstring), every row ended by
    ``lineterminator``. Raises ValueError for ``quoting="none"`` and a cell that would need
    quotes."""
    if quoting == "none":
        return _unquoted(rows, delimiter, lineterminator, spreadsheet)
    out = io.StringIO()
    plain = csv.writer(out, delimiter=delimiter, lineterminator=lineterminator)
    # A writer quotes a cell holding a character of its terminator: one ending rows with
    # "\r\n" writes a row with a "\r" in a cell, and its terminator is swapped for ours.
    fix_cr = not ("\r" in lineterminator and "\n" in lineterminator)
    scratch = io.StringIO()
    quoting_cr = csv.writer(scratch, delimiter=delimiter, lineterminator="\r\n")
    for row in rows:
        cells, has_cr = _cells(row, spreadsheet)
        if has_cr and fix_cr:
            scratch.seek(0)
            scratch.truncate()
            quoting_cr.writerow(cells)
            out.write(scratch.getvalue()[:-2] + lineterminator)
        else:
            plain.writerow(cells)
    return out.getvalue()


def write_csv_file(
    path: StrPath,
    rows: Iterable[Sequence[Cell]],
    *,
    protect: Iterable[StrPath] = (),
    delimiter: str = ",",
    spreadsheet: bool = True,
) -> Path:
    """Write ``rows`` as a UTF-8 CSV (or TSV) file, atomically and never over one of
    ``protect`` or a session (:func:`~matchlight.core.io.safewrite.write_file_atomic`, whose
    WriteError, an OSError, it raises)."""
    data = csv_text(rows, delimiter=delimiter, spreadsheet=spreadsheet).encode("utf-8")
    return write_file_atomic(os.fspath(path), data, protect=protect)
