"""CSV injection: text cells that would start a formula are neutralised, others are untouched."""

from __future__ import annotations

import pytest

from matchlight.core.io.spreadsheet import spreadsheet_safe


@pytest.mark.parametrize(
    "cell", ["=1+2", "+2+3", "-2+3", "@cmd", "\t=1", "\r=1", '=HYPERLINK("http://x")']
)
def test_formula_triggers_get_an_apostrophe(cell: str) -> None:
    assert spreadsheet_safe(cell) == "'" + cell


@pytest.mark.parametrize("cell", ["", "system A", "1+2", " =1", "'quoted", "中文", "a=b"])
def test_other_text_is_unchanged(cell: str) -> None:
    assert spreadsheet_safe(cell) == cell
