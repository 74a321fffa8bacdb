"""core.io.csvfile: the one CSV/TSV writer. Every text cell comes back exactly (or
spreadsheet-safe), whatever it holds: quotes, delimiters, \\n, \\r, \\r\\n; numbers stay numbers."""

from __future__ import annotations

import csv
import io
import math
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from matchlight.core.io.csvfile import Cell, csv_text, text_cell, write_csv_file
from matchlight.core.io.safewrite import WriteError
from matchlight.core.io.spreadsheet import FORMULA_TRIGGERS, spreadsheet_safe

#: Text made of the characters that break CSV rows, and ordinary ones.
_TEXT = st.text(st.sampled_from(list("ab ,\t\"'\r\n=+-@é\u2028\U0001f600")), max_size=12)
_ROWS = st.lists(st.lists(_TEXT, min_size=1, max_size=5), min_size=1, max_size=8)
_DIALECTS = st.sampled_from([(",", "\n"), ("\t", "\n"), (",", "\r\n"), ("\t", "\r\n")])


def _read(text: str, delimiter: str) -> list[list[str]]:
    """The cells as Python's csv module reads them: strict, no newline translation."""
    return list(csv.reader(io.StringIO(text, newline=""), delimiter=delimiter, strict=True))


def _read_translated(text: str, delimiter: str) -> list[list[str]]:
    """The cells as a reader that ends a record at any of \\r, \\n, \\r\\n outside quotes reads
    them (pandas' C parser; Python's universal-newline mode, which also turns a quoted \\r into
    \\n)."""
    return list(csv.reader(io.StringIO(text, newline=None), delimiter=delimiter, strict=True))


def _translated(cell: str) -> str:
    return cell.replace("\r\n", "\n").replace("\r", "\n")


@settings(max_examples=300, deadline=None)
@given(rows=_ROWS, dialect=_DIALECTS)
def test_every_text_cell_comes_back_exactly(
    rows: list[list[str]], dialect: tuple[str, str]
) -> None:
    delimiter, end = dialect
    text = csv_text(rows, delimiter=delimiter, lineterminator=end, spreadsheet=False)
    got = _read(text, delimiter)
    # csv writes a row of one empty cell as '""' and reads it back as ['']: the same row.
    assert got == rows
    assert _read_translated(text, delimiter) == [[_translated(c) for c in r] for r in rows]
    assert text.count(end) >= len(rows) and text.endswith(end)


@settings(max_examples=200, deadline=None)
@given(rows=_ROWS, dialect=_DIALECTS)
def test_spreadsheet_cells_come_back_neutralised(
    rows: list[list[str]], dialect: tuple[str, str]
) -> None:
    delimiter, end = dialect
    got = _read(csv_text(rows, delimiter=delimiter, lineterminator=end), delimiter)
    assert got == [[spreadsheet_safe(c) for c in r] for r in rows]
    assert not any(c.startswith(FORMULA_TRIGGERS) for r in got for c in r)


def test_a_lone_carriage_return_is_quoted() -> None:
    """Python 3.11's writer leaves it unquoted with a "\\n" terminator; every reader then
    breaks the row there."""
    text = csv_text([["a\rb", "c"], ["d", "e"]], spreadsheet=False)
    assert text == '"a\rb",c\nd,e\n'
    assert _read(text, ",") == [["a\rb", "c"], ["d", "e"]]
    assert _read_translated(text, ",") == [["a\nb", "c"], ["d", "e"]]
    tsv = csv_text([["x", "y\r"]], delimiter="\t", spreadsheet=False)
    assert tsv == 'x\t"y\r"\n'


@settings(max_examples=200, deadline=None)
@given(
    values=st.lists(
        st.floats(allow_nan=True, allow_infinity=False) | st.integers(-(10**20), 10**20),
        min_size=1,
        max_size=6,
    )
)
def test_numbers_are_written_exactly_and_never_neutralised(values: list[float | int]) -> None:
    (row,) = _read(csv_text([values]), ",")
    for cell, value in zip(row, values, strict=True):
        if isinstance(value, float) and math.isnan(value):
            assert cell == ""
        elif isinstance(value, float):
            assert cell == repr(value) and float(cell) == value  # full precision, "-" kept
        else:
            assert cell == str(value)


def test_cells_of_every_kind() -> None:
    row: list[Cell] = ["=1+2", "-anna", "@cmd", "+x", "\tx", "ok", -1.5, -3, None, float("nan")]
    assert csv_text([row]) == "'=1+2,'-anna,'@cmd,'+x,'\tx,ok,-1.5,-3,,\n"
    assert csv_text([["bad \ud800 name"]]).encode("utf-8") == "bad \ufffd name\n".encode()
    assert text_cell("=x") == "'=x" and text_cell("=x", spreadsheet=False) == "=x"


def test_unquoted_tsv_writes_cells_raw_and_refuses_what_needs_quotes() -> None:
    rows = [['say "hi"', "a,b"], ["x", "y"]]
    assert csv_text(rows, delimiter="\t", quoting="none", spreadsheet=False) == (
        'say "hi"\ta,b\nx\ty\n'
    )
    for bad in ("a\tb", "a\nb", "a\rb"):
        with pytest.raises(ValueError, match="a field holds a tab or line break"):
            csv_text([[bad]], delimiter="\t", quoting="none", spreadsheet=False)


def test_write_csv_file_writes_utf8_through_safewrite(tmp_path: Path) -> None:
    ref = tmp_path / "ref.txt"
    ref.write_text("keep\n")
    out = tmp_path / "out.csv"
    assert write_csv_file(out, [["système", "=x"], ["a\rb", 1.25]], protect=[ref]) == out
    assert out.read_bytes() == 'système,\'=x\n"a\rb",1.25\n'.encode()
    with pytest.raises(WriteError, match="refusing to overwrite an input"):
        write_csv_file(ref, [["x"]], protect=[ref])
    with pytest.raises(WriteError, match="Matchlight session"):
        write_csv_file(tmp_path / "x.matchlight", [["x"]])
    assert ref.read_text() == "keep\n"
