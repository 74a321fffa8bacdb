"""Decoded text to segments: one parser per input format, and the checks on what they yield.

A parser takes the decoded text in blocks that end at a line break (a whole file is one block)
and yields batches of segments (:class:`Parse`); the reader of whole files
(:func:`~matchlight.core.io.reading.read_column`, the app) and the streaming reader
(:func:`~matchlight.core.io.reading.stream_column`, the command line) share them, so both read
a file alike. :class:`Findings` gathers, batch after batch, what is easy to miss in the
segments and becomes the column's warnings.

* Lines end at ``"\\n"`` (optionally preceded by ``"\\r"``) and nowhere else. U+2028, U+2029,
  U+0085, form feed, vertical tab and a lone ``"\\r"`` stay inside their segment (with a
  warning).
* TSV is split on tabs with no quoting at all (like ``csv.QUOTE_NONE`` without an escape
  character): quotes in segments are literal text, which is what MT/summarization TSV files hold.
  CSV uses the :mod:`csv` module's default (Excel) dialect with ``strict=True``, so quoted fields
  may contain commas, doubled quotes and newlines (kept in the segment; ROUGE-Lsum uses them).
* A column given by name means the first row is a header. A column given by a 1-based number
  means there is no header: every row is data. In both cases every row must have as many fields
  as the first row, so a stray tab inside a TSV segment is an error rather than a shifted column.
* In TSV, CSV and JSONL files, blank lines at the very end are ignored (with a warning). A blank
  line in the middle is an empty segment in a one-column TSV/CSV file and an error otherwise.
* JSON Lines records are read by :mod:`core.io.jsonsafe` (nesting, number length).
* A lone UTF-16 surrogate (a JSON ``"\\ud800"`` escape) is not a character and breaks every UTF-8
  writer and Qt: it becomes U+FFFD, with a warning naming the line.
"""

from __future__ import annotations

import contextlib
import csv
import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Final

from matchlight.core.io import jsonsafe
from matchlight.core.io.files import LineLimit
from matchlight.core.io.inputs import InputError, InputSpec
from matchlight.core.io.jsonsafe import json_type
from matchlight.core.text.textspan import split_lines

__all__ = [
    "SURROGATES",
    "Batch",
    "Blocks",
    "Findings",
    "Parse",
    "Parsed",
    "counted",
    "parse_tabular",
]

# --------------------------------------------------------------------------- lines


def counted(n: int, word: str, plural: str | None = None) -> str:
    """``"1 line"``, ``"2 lines"``: a count with its noun."""
    return f"{n} {word if n == 1 else (plural or word + 's')}"


_CONTROL_CHARS: Final[re.Pattern[str]] = re.compile(
    "[\x00-\x08\x0b\x0c\x0e-\x1f\x7f\x80-\x84\x86-\x9f]"
)


#: Characters a one-character pattern scans at a time in :func:`_search_slices`.
_SCAN_SLICE: Final = 1 << 20


def _search_slices(pattern: re.Pattern[str], text: str) -> re.Match[str] | None:
    """``pattern.search(text)`` one slice at a time, for a pattern that matches one character.

    A regular-expression scan holds the GIL until it returns: over a whole large file the
    app's window (reading runs in a thread) could not paint meanwhile.
    """
    for start in range(0, len(text), _SCAN_SLICE):
        found = pattern.search(text, start, start + _SCAN_SLICE)
        if found is not None:
            return found
    return None


def _has_lone_cr(text: str) -> bool:
    return "\r" in text and text.count("\r") > text.count("\r\n")


#: The ASCII characters of :data:`_CONTROL_CHARS`.
_ASCII_CONTROLS: Final[bytes] = bytes([*range(0x00, 0x09), 0x0B, 0x0C, *range(0x0E, 0x20), 0x7F])


#: The C1 controls of :data:`_CONTROL_CHARS` (U+0080-U+0084, U+0086-U+009F) in UTF-8.
_C1_UTF8: Final[re.Pattern[bytes]] = re.compile(b"\xc2[\x80-\x84\x86-\x9f]")


def _has_control(text: str) -> bool:
    """Whether :data:`_CONTROL_CHARS` occurs in ``text``, checked on its UTF-8 bytes: several
    times faster than the regular expression over the text, which holds the GIL meanwhile."""
    data = text.encode("ascii") if text.isascii() else text.encode("utf-8", "surrogatepass")
    if len(data.translate(None, _ASCII_CONTROLS)) != len(data):
        return True
    return not text.isascii() and _C1_UTF8.search(data) is not None


#: (quick test on the whole text, per-line pattern, what was found)
_CHECKS: Final[tuple[tuple[Callable[[str], bool], re.Pattern[str], str], ...]] = (
    (
        _has_control,
        _CONTROL_CHARS,
        "control characters",
    ),
    (
        _has_lone_cr,
        re.compile("\r(?!\n)"),
        "a carriage return (\\r) not followed by \\n, kept inside the segment",
    ),
    (
        lambda t: "\u2028" in t or "\u2029" in t or "\x85" in t,
        re.compile("[\u2028\u2029\x85]"),
        "a Unicode line separator (U+2028, U+2029 or U+0085), kept inside the segment",
    ),
    (
        lambda t: "\ufeff" in t,
        re.compile("\ufeff"),
        "a byte-order mark character (U+FEFF); concatenated files?",
    ),
    (lambda t: "\t" in t, re.compile("\t"), "a tab"),
)


#: A UTF-16 surrogate code point on its own: not a character, and not encodable as UTF-8 (Qt,
#: the CSV export and every UTF-8 writer fail on it). The strict decoders never produce one, but
#: a JSON string can (``"\\ud800"``), so every loaded segment is checked.
SURROGATES: Final[re.Pattern[str]] = re.compile("[\ud800-\udfff]")


# --------------------------------------------------------------------------- what a column holds


def _where(index: int, line: int, place: str = "line") -> str:
    """Segment ``index`` (0-based) at file line ``line`` (or table row), for a message."""
    return f"{place} {line}" if line == index + 1 else f"segment {index + 1} ({place} {line})"


@dataclass(slots=True)
class Batch:
    """Consecutive segments of a column and where they are in the file.

    ``first`` is the 1-based file line of ``segments[0]``; ``lines`` the line of each segment
    where they are not one line each (a CSV record may span several). ``raw`` is the text the
    content checks scan: the block as read for plain text (they must see its line endings),
    else the segments joined by newlines.
    """

    segments: list[str]
    first: int
    lines: list[int] | None = None
    raw: str | None = None

    def line(self, i: int) -> int:
        return self.first + i if self.lines is None else self.lines[i]

    def text(self) -> str:
        return "\n".join(self.segments) if self.raw is None else self.raw


def _fix_surrogates(batch: Batch) -> list[tuple[int, str]]:
    """Replace every lone surrogate in ``batch`` with U+FFFD (in place); returns the segments
    that held one, with the code point of their first (``U+D800``)."""
    text = batch.text()
    if text.isascii() or _search_slices(SURROGATES, text) is None:
        return []
    hits = []
    for i, segment in enumerate(batch.segments):
        found = SURROGATES.search(segment)
        if found is not None:
            hits.append((i, f"U+{ord(found.group()):04X}"))
            batch.segments[i] = SURROGATES.sub("\ufffd", segment)
    if batch.raw is not None:
        batch.raw = SURROGATES.sub("\ufffd", batch.raw)
    return hits


@dataclass(slots=True)
class _Hit:
    count: int = 0
    index: int = -1  # the first hit: segment index, file line, what was found there
    line: int = 0
    found: str = ""

    def record(self, index: int, line: int, found: str) -> None:
        if not self.count:
            self.index, self.line, self.found = index, line, found
        self.count += 1


class Findings:
    """What is easy to miss in a column's segments (control characters, lone carriage returns,
    Unicode line separators, byte-order marks, tabs, empty segments, lone surrogates),
    gathered batch after batch, so a streamed column gets the warnings of the whole."""

    def __init__(self, unit: str, place: str = "line") -> None:
        self.unit = unit
        self.place = place
        self.count = 0
        self.surrogates = _Hit()
        self.checks = [_Hit() for _ in _CHECKS]
        self.empty = _Hit()

    def add(self, batch: Batch, surrogates: list[tuple[int, str]]) -> None:
        """Take a batch whose lone surrogates were replaced (``surrogates``: where, and
        which)."""
        for i, code in surrogates:
            self.surrogates.record(self.count + i, batch.line(i), code)
        text = batch.text()
        for hit, (quick, pattern, _) in zip(self.checks, _CHECKS, strict=True):
            if not quick(text):
                continue
            for i, segment in enumerate(batch.segments):
                found = pattern.search(segment)
                if found is not None:
                    hit.record(self.count + i, batch.line(i), found.group())
        if "" in batch.segments:
            for i, segment in enumerate(batch.segments):
                if not segment:
                    self.empty.record(self.count + i, batch.line(i), "")
        self.count += len(batch.segments)

    def _said(self, hit: _Hit, what: str, detail: str = "") -> str:
        where = _where(hit.index, hit.line, self.place)
        if hit.count == 1:
            return f"{where} contains {what}{detail}"
        return f"{hit.count} {self.unit}s contain {what}; first: {where}{detail}"

    def warnings(self) -> list[str]:
        said: list[str] = []
        if self.surrogates.count:
            code = self.surrogates.found or "U+D800-U+DFFF"
            said.append(
                self._said(
                    self.surrogates,
                    f"a lone surrogate ({code}, e.g. from a \\u{code[2:].lower()} escape in "
                    "JSON), which is not a character; replaced with U+FFFD",
                )
            )
        for hit, (_, pattern, what) in zip(self.checks, _CHECKS, strict=True):
            if hit.count:
                detail = f" (U+{ord(hit.found):04X})" if pattern is _CONTROL_CHARS else ""
                said.append(self._said(hit, what, detail))
        if self.empty.count == 1:
            said.append(f"{_where(self.empty.index, self.empty.line, self.place)} is empty")
        elif self.empty.count:
            first = _where(self.empty.index, self.empty.line, self.place)
            said.append(f"{self.empty.count} {self.unit}s are empty; first: {first}")
        return said


def _field_list(fields: Sequence[str]) -> str:
    return ", ".join(repr(f) for f in fields)


# --------------------------------------------------------------------------- parsers

#: Segments in a batch of a tabular or JSON Lines parser.
_BATCH: Final = 8192

Blocks = Iterable[str]


def _numbered_lines(blocks: Blocks) -> Iterator[tuple[int, str]]:
    """``(line number, line)`` of every line of the blocks, as :func:`split_lines` splits."""
    number = 0
    for block in blocks:
        for line in split_lines(block):
            number += 1
            yield number, line


def _text_batches(blocks: Blocks) -> Iterator[Batch]:
    line = 1
    for block in blocks:
        segments = split_lines(block)
        if segments:
            yield Batch(segments, line, raw=block)
            line += len(segments)


def _csv_lines(text: str) -> Iterator[str]:
    """The lines of ``text`` for the csv module, one at a time, each ending in ``"\\n"`` (a
    ``"\\r\\n"`` becomes ``"\\n"``; a lone ``"\\r"`` stays in its line). Lazily: a file of
    many short rows is never held as a list of lines, so a row limit stops it early."""
    start, end = 0, len(text)
    while start < end:
        stop = text.find("\n", start)
        if stop < 0:
            yield text[start:]
            return
        cut = stop - 1 if stop > start and text[stop - 1] == "\r" else stop
        yield text[start:cut] + "\n"
        start = stop + 1


def _tsv_rows(blocks: Blocks) -> Iterator[tuple[int, list[str]]]:
    """TSV rows: split on tabs, no quoting at all."""
    for number, line in _numbered_lines(blocks):
        yield number, line.split("\t")


def _csv_rows(
    blocks: Blocks, path: str, max_rows: LineLimit | None
) -> Iterator[tuple[int, list[str]]]:
    """CSV rows (Excel dialect, strict) with the file line each starts on."""
    reader = csv.reader((line for block in blocks for line in _csv_lines(block)), strict=True)
    count = 0
    while True:
        start = reader.line_num + 1
        try:
            row = next(reader)
        except StopIteration:
            return
        except csv.Error as exc:
            problem = str(exc)
            if "unexpected end of data" in problem:
                raise InputError(
                    "a quoted field starting on this line is never closed", path, start
                ) from None
            if "new-line character" in problem:
                problem = "a carriage return (\\r) inside an unquoted field; quote the field"
            raise InputError(f"malformed CSV: {problem}", path, reader.line_num) from None
        count += 1
        if max_rows is not None and count > max_rows.lines:
            raise InputError(max_rows.problem("row"), path)
        yield start, row


def _blank_row(row: list[str]) -> bool:
    return not row or row == [""]


def _tabular_batches(
    rows: Iterator[tuple[int, list[str]]],
    fmt: str,
    column: str | None,
    path: str,
    warnings: list[str],
) -> Iterator[Batch]:
    """The segments of one column of TSV/CSV rows.

    A column given by name means the first row is a header; by a 1-based number, every row is
    data. Every row must have the first row's width; blank rows at the very end are ignored
    (with a warning), a blank row in the middle is an empty segment in a one-column file and an
    error otherwise. Blank rows are held back until a row with content shows they are not at
    the end, so a stream is checked exactly as a whole file.
    """
    label = fmt.upper()
    held: list[tuple[int, list[str]]] = []  # blank rows not yet known to be inside the data
    index = width = -1
    first_line = 0
    header = False
    segments: list[str] = []
    lines: list[int] = []

    def take(number: int, row: list[str]) -> None:
        nonlocal index, width, first_line, header
        if width < 0:
            first_line = number
            if column is None:
                raise InputError(
                    f"{label} input needs a column: add #NAME (a header name) or #N (a 1-based "
                    f"column number) to the path; the first row is: {_field_list(row)}",
                    path,
                )
            if column.isascii() and column.isdigit():
                index = int(column) - 1
                if index < 0:
                    raise InputError("column numbers start at 1", path)
                width = len(row)
                if index >= width:
                    raise InputError(
                        f"has no column {column}: the first row has only "
                        f"{counted(width, 'field')} ({_field_list(row)})",
                        path,
                        number,
                    )
            else:
                if column not in row:
                    raise InputError(
                        f"no column named {column!r} in the header row; available columns: "
                        f"{_field_list(row)}",
                        path,
                        number,
                    )
                if row.count(column) > 1:
                    raise InputError(
                        f"the header row names column {column!r} more than once", path, 1
                    )
                index, width, header = row.index(column), len(row), True
                return
        if width == 1 and not row:
            row = [""]  # a blank line is an empty segment
        if len(row) != width:
            reference = "the header row" if header else f"line {first_line}"
            if _blank_row(row):
                problem = (
                    f"blank line in the middle of the data; expected {counted(width, 'field')}"
                )
            else:
                problem = f"has {counted(len(row), 'field')}, but {reference} has {width}" + (
                    " (a tab inside a segment?)" if fmt == "tsv" and len(row) > width else ""
                )
            raise InputError(problem, path, number)
        segments.append(row[index])
        lines.append(number)

    for number, row in rows:
        if _blank_row(row):
            held.append((number, row))
            continue
        for item in held:
            take(*item)
        held.clear()
        take(number, row)
        if len(segments) >= _BATCH:
            yield Batch(segments, lines[0], lines)
            segments, lines = [], []
    if held:
        warnings.append(f"ignored {counted(len(held), 'blank line')} at the end")
    if width < 0 and column is None:
        raise InputError(
            f"{label} input needs a column: add #NAME (a header name) or #N (a 1-based column "
            "number) to the path; the first row is: (the file is empty)",
            path,
        )
    if segments:
        yield Batch(segments, lines[0], lines)


@dataclass(frozen=True, slots=True)
class Parsed:
    """One column of a whole TSV/CSV text: its segments, the file line of each, and warnings."""

    segments: list[str]
    line_of: list[int]  # the file line of each segment
    warnings: list[str]


def parse_tabular(
    text: str, fmt: str, column: str | None, path: str, max_rows: LineLimit | None = None
) -> Parsed:
    """One column of a whole TSV/CSV text, with
    :func:`~matchlight.core.io.reading.read_column`'s rules (for
    :mod:`core.io.scores`, which reads several columns of one file)."""
    warnings: list[str] = []
    rows = _tsv_rows([text]) if fmt == "tsv" else _csv_rows([text], path, max_rows)
    segments: list[str] = []
    lines: list[int] = []
    for batch in _tabular_batches(rows, fmt, column, path, warnings):
        segments += batch.segments
        lines += batch.lines or range(batch.first, batch.first + len(batch.segments))
    return Parsed(segments, lines, warnings)


def _lookup(obj: dict[str, object], key: str, path: str, line: int) -> str:
    if key in obj:
        value = obj[key]
    else:
        value = obj
        parts = key.split(".")
        for depth, part in enumerate(parts):
            prefix = ".".join(parts[:depth])
            if not isinstance(value, dict):
                raise InputError(
                    f"cannot look up {key!r}: {prefix!r} is {json_type(value)}, not an object",
                    path,
                    line,
                )
            if part not in value:
                where = f" under {prefix!r}" if prefix else ""
                available = _field_list(list(value)) or "(none)"
                raise InputError(f"no key {key!r}; available keys{where}: {available}", path, line)
            value = value[part]
    if isinstance(value, str):
        return value
    if isinstance(value, int | float) and not isinstance(value, bool):
        return str(value)
    raise InputError(f"the value of {key!r} is {json_type(value)}, not a string", path, line)


def _json_record(line: str, path: str, number: int) -> object:
    """One JSON Lines record, read by the untrusted-JSON loader. Lone surrogates are kept:
    the reader replaces them and says which segments held one."""
    return jsonsafe.loads(
        line, path=path, first_line=number, error=InputError, surrogates="keep", strict=False
    )


def _needs_key(path: str, first: object) -> InputError:
    keys = f"; available keys: {_field_list(list(first))}" if isinstance(first, dict) else ""
    return InputError(
        "JSON Lines input needs a key: add #KEY to the path (dotted keys such as "
        f"translation.de reach into nested objects){keys}",
        path,
    )


def _jsonl_batches(
    blocks: Blocks, key: str | None, path: str, warnings: list[str]
) -> Iterator[Batch]:
    """The value of ``key`` in every record; blank lines at the end are ignored (with a
    warning), one in the middle is an error."""
    held: list[int] = []  # blank lines not yet known to be inside the data
    segments: list[str] = []
    first = 0
    for number, line in _numbered_lines(blocks):
        if key is None:
            record: object = None
            if line.strip():
                with contextlib.suppress(InputError):
                    record = _json_record(line, path, number)
            raise _needs_key(path, record)
        if not line.strip():
            held.append(number)
            continue
        if held:
            raise InputError("blank line in the middle of a JSON Lines file", path, held[0])
        obj = _json_record(line, path, number)
        if not isinstance(obj, dict):
            raise InputError(f"expected a JSON object, found {json_type(obj)}", path, number)
        if not segments:
            first = number
        segments.append(_lookup(obj, key, path, number))
        if len(segments) >= _BATCH:
            yield Batch(segments, first)
            segments = []
    if key is None:
        raise _needs_key(path, None)
    if held:
        warnings.append(f"ignored {counted(len(held), 'blank line')} at the end")
    if segments:
        yield Batch(segments, first)


class Parse:
    """One pass of a column's parser over its text blocks: the segments, batch by batch (lone
    surrogates replaced), and, with ``check``, what :class:`Findings` notices in them."""

    def __init__(
        self,
        spec: InputSpec,
        fmt: str,
        blocks: Blocks,
        *,
        check: bool = True,
        max_rows: LineLimit | None = None,
    ) -> None:
        self.parser_warnings: list[str] = []
        self.findings = Findings("line" if fmt == "text" else "segment") if check else None
        # Decoders never produce a lone surrogate; a JSON escape can.
        self._json = fmt == "jsonl"
        path = spec.path
        if fmt == "text":
            self._batches = _text_batches(blocks)
        elif fmt == "jsonl":
            self._batches = _jsonl_batches(blocks, spec.column, path, self.parser_warnings)
        else:
            rows = _tsv_rows(blocks) if fmt == "tsv" else _csv_rows(blocks, path, max_rows)
            self._batches = _tabular_batches(rows, fmt, spec.column, path, self.parser_warnings)

    def __iter__(self) -> Iterator[list[str]]:
        for batch in self._batches:
            surrogates = _fix_surrogates(batch) if self._json else []
            if self.findings is not None:
                self.findings.add(batch, surrogates)
            yield batch.segments

    def warnings(self) -> list[str]:
        found = [] if self.findings is None else self.findings.warnings()
        return [*self.parser_warnings, *found]
