"""Text cells that are safe to open in a spreadsheet (CSV injection, as OWASP describes it).

A spreadsheet treats a cell that begins with ``=``, ``+``, ``-`` or ``@`` as a formula, and a
leading tab or carriage return can smuggle one in. Every text cell Matchlight writes to a CSV
goes through :func:`spreadsheet_safe`; numeric cells are written as numbers and never touched.
"""

from __future__ import annotations

__all__ = ["FORMULA_TRIGGERS", "spreadsheet_safe"]

#: The first characters that make a spreadsheet read a cell as a formula (OWASP's list).
FORMULA_TRIGGERS: tuple[str, ...] = ("=", "+", "-", "@", "\t", "\r")


def spreadsheet_safe(text: str) -> str:
    """``text`` with a leading apostrophe when it would start a formula, else unchanged.

    The apostrophe is OWASP's recommendation: spreadsheets show the cell as the literal text and
    hide the apostrophe, and a program reading the CSV sees one extra leading character.
    """
    return "'" + text if text.startswith(FORMULA_TRIGGERS) else text
