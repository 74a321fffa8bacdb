"""Reading line-aligned input files: plain text, TSV, CSV and JSON Lines.

Every input is turned into a :class:`TextColumn`: the segments of one role (source, one
reference, one system output), one segment per line of a text file or per row/record of a
tabular file. Bad input never produces a traceback or silently mangled text. It raises
:class:`InputError`, whose ``str()`` is a complete message for the user that names the file,
the line (where there is one) and the problem.

Decisions worth knowing:

* Encodings: UTF-8 (with or without BOM), and UTF-16 / UTF-32 with a BOM, are read as declared.
  Anything else is guessed with charset-normalizer; the guess is reported in
  ``TextColumn.warnings`` and ``TextColumn.detected`` is True. A file that is almost entirely
  valid UTF-8 is never re-guessed: its first bad byte is reported instead. For every successful
  decode, ``data.decode(encoding) == text`` holds.
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
* Only regular files of at most :data:`MAX_INPUT_BYTES` are read, through
  :mod:`core.io.files`: a named pipe, a device (/dev/zero), a socket or a directory is refused
  from its ``stat``, before it is opened. JSON Lines records are read by :mod:`core.io.jsonsafe`
  (nesting, number length).
* A lone UTF-16 surrogate (a JSON ``"\\ud800"`` escape) is not a character and breaks every UTF-8
  writer and Qt: it becomes U+FFFD, with a warning naming the line. A display name taken from a
  file name with bytes that are not UTF-8 gets the same treatment.
"""

from __future__ import annotations

import csv
import operator
import os
import re
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Final

import charset_normalizer
from charset_normalizer.utils import is_multi_byte_encoding

from matchlight.core.io import jsonsafe
from matchlight.core.io.files import (
    MAX_INPUT_BYTES,
    FileError,
    LineLimit,
    read_bytes_capped,
)
from matchlight.core.io.jsonsafe import json_type
from matchlight.core.text.corpus import CorpusText
from matchlight.core.text.textspan import split_lines

__all__ = [
    "FORMATS",
    "MAX_INPUT_BYTES",
    "Comparison",
    "InputError",
    "InputSpec",
    "LineLimit",
    "TextColumn",
    "decode_bytes",
    "default_name",
    "load_comparison",
    "parse_spec",
    "read_column",
    "read_input_bytes",
    "split_lines",
]

#: Input formats understood by :func:`read_column` (for CLI ``choices=`` and GUI combo boxes).
FORMATS: Final[tuple[str, ...]] = ("text", "tsv", "csv", "jsonl")

_EXTENSION_FORMATS: Final[dict[str, str]] = {
    ".tsv": "tsv",
    ".csv": "csv",
    ".jsonl": "jsonl",
    ".ndjson": "jsonl",
}


class InputError(Exception):
    """A problem with the user's input files.

    ``str(error)`` is a complete, user-facing message: ``"PATH, line N: PROBLEM"``,
    ``"PATH: PROBLEM"`` or just ``"PROBLEM"`` when no single file is to blame.
    """

    path: str | None
    line: int | None
    problem: str

    def __init__(self, problem: str, path: str | None = None, line: int | None = None) -> None:
        super().__init__(problem, path, line)
        self.problem = problem
        self.path = path
        self.line = line

    def __str__(self) -> str:
        if self.path is None:
            return self.problem if self.line is None else f"line {self.line}: {self.problem}"
        where = self.path if self.line is None else f"{self.path}, line {self.line}"
        return f"{where}: {self.problem}"


@dataclass(frozen=True, slots=True)
class TextColumn:
    """One loaded input: the line-aligned segments of one role."""

    name: str
    path: str
    lines: tuple[str, ...]
    encoding: str
    detected: bool
    warnings: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class InputSpec:
    """What the user asked for: a path, an optional display name, column and format.

    ``column`` is a header name or a 1-based column number (TSV/CSV), or a key (JSONL; dotted
    keys such as ``"translation.de"`` reach into nested objects). ``fmt`` is one of
    :data:`FORMATS`; None means: from the extension (.tsv, .csv, .jsonl/.ndjson, else text).
    """

    path: str
    name: str | None = None
    column: str | None = None
    fmt: str | None = None


@dataclass(frozen=True, slots=True)
class Comparison:
    """All inputs of one evaluation, checked to have the same number of segments."""

    source: TextColumn | None
    references: tuple[TextColumn, ...]
    systems: tuple[TextColumn, ...]

    def __post_init__(self) -> None:
        if not self.references:
            raise ValueError("a Comparison needs at least one reference")
        counts = {len(c.lines) for c in self.columns}
        if len(counts) != 1:
            raise ValueError(f"all columns of a Comparison must have equal length, got {counts}")

    @property
    def columns(self) -> tuple[TextColumn, ...]:
        """Every input: the source (if any), then the references, then the systems."""
        head = () if self.source is None else (self.source,)
        return head + self.references + self.systems

    def corpus_text(self) -> CorpusText:
        """The texts to score, independent of where they were read from."""
        return CorpusText(
            references=tuple(col.lines for col in self.references),
            systems=tuple(col.lines for col in self.systems),
            system_names=tuple(col.name for col in self.systems),
        )

    def __len__(self) -> int:
        return len(self.references[0].lines)


# --------------------------------------------------------------------------- specs


def _is_name(text: str) -> bool:
    return bool(text.strip()) and "/" not in text and "\\" not in text


def parse_spec(text: str) -> InputSpec:
    """Parse ``PATH``, ``NAME=PATH``, ``PATH#COLUMN`` or ``NAME=PATH#COLUMN``.

    A path may itself contain ``=`` or ``#``: if the whole text names an existing file it is
    taken literally. Otherwise the readings are tried in the order literal, ``NAME=PATH``,
    ``PATH#COLUMN``, ``NAME=PATH#COLUMN`` and the first whose path exists wins. If none exists,
    the most structured reading is returned, so that reading it reports the intended path.
    A NAME contains no slash or backslash; a COLUMN splits at the last ``#``.
    """
    if not text.strip():
        raise InputError("empty input; expected PATH, NAME=PATH, PATH#COLUMN or NAME=PATH#COLUMN")
    if os.path.exists(text):
        return InputSpec(path=text)

    candidates: list[InputSpec] = [InputSpec(path=text)]
    head, eq, tail = text.partition("=")
    if eq and tail and _is_name(head):
        candidates.append(InputSpec(path=tail, name=head.strip()))
    for candidate in list(candidates):
        body, hash_, column = candidate.path.rpartition("#")
        if hash_ and body and _is_name(column):
            candidates.append(InputSpec(path=body, name=candidate.name, column=column.strip()))
    for candidate in candidates[1:]:
        if os.path.exists(candidate.path):
            return candidate
    return max(candidates, key=lambda c: (c.name is not None) + (c.column is not None))


# --------------------------------------------------------------------------- decoding

_MAGIC_NUMBERS: Final[tuple[tuple[bytes, str], ...]] = (
    (b"%PDF-", "PDF document"),
    (b"PK\x03\x04", "ZIP archive, e.g. .docx/.xlsx/.odt"),
    (b"PK\x05\x06", "empty ZIP archive"),
    (b"\x89PNG\r\n\x1a\n", "PNG image"),
    (b"\x1f\x8b", "gzip-compressed data; decompress it first"),
    (b"\xfd7zXZ\x00", "xz-compressed data; decompress it first"),
    (b"(\xb5/\xfd", "Zstandard-compressed data; decompress it first"),
    (b"BZh91AY&SY", "bzip2-compressed data; decompress it first"),
    (b"7z\xbc\xaf\x27\x1c", "7-Zip archive"),
    (b"\xff\xd8\xff", "JPEG image"),
    (b"GIF87a", "GIF image"),
    (b"GIF89a", "GIF image"),
    (b"\x7fELF", "executable"),
    (b"SQLite format 3\x00", "SQLite database"),
    (b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1", "legacy Microsoft Office document, e.g. .doc/.xls"),
)

# Checked in this order: the UTF-32 LE BOM starts with the UTF-16 LE BOM.
_BOMS: Final[tuple[tuple[bytes, str, str, str], ...]] = (
    # (BOM, reported encoding, codec for the bytes after the BOM, name for messages)
    (b"\xef\xbb\xbf", "utf-8-sig", "utf-8", "UTF-8"),
    (b"\xff\xfe\x00\x00", "utf-32", "utf-32-le", "UTF-32 LE"),
    (b"\x00\x00\xfe\xff", "utf-32", "utf-32-be", "UTF-32 BE"),
    (b"\xff\xfe", "utf-16", "utf-16-le", "UTF-16 LE"),
    (b"\xfe\xff", "utf-16", "utf-16-be", "UTF-16 BE"),
)

#: C0 control bytes other than tab, LF, VT, FF and CR, plus DEL.
_CONTROL_BYTES: Final[bytes] = bytes([*range(0x00, 0x09), *range(0x0E, 0x20), 0x7F])
_MAX_CONTROL_SHARE: Final[float] = 0.10

#: Single-byte encodings preferred, in this order, when charset-normalizer's best guess is a
#: single-byte encoding and several fit about equally well (short Western European text fits
#: cp1250, cp1252 and cp1257 alike, and its first guess is often the rarest). A multi-byte guess
#: (CJK) is never overruled: there charset-normalizer's ranking is the better signal.
_PREFERRED_SINGLE_BYTE: Final[tuple[str, ...]] = (
    "cp1252",
    "iso8859_15",
    "latin_1",
    "cp1251",
    "koi8_r",
    "cp1250",
    "iso8859_2",
    "cp1253",
    "cp1254",
    "cp1255",
    "cp1256",
    "cp1257",
    "cp874",
    "cp1258",
)
_CHAOS_TOLERANCE: Final[float] = 0.1
_COHERENCE_TOLERANCE: Final[float] = 0.05


def _binary(what: str, path: str) -> InputError:
    return InputError(f"looks like a binary file ({what}), not text", path)


def _looks_like_bomless_utf16(data: bytes) -> bool:
    sample = data[:4096]
    even, odd = sample[0::2], sample[1::2]
    if not even or not odd:
        return False
    even_nul, odd_nul = even.count(0) / len(even), odd.count(0) / len(odd)
    return (even_nul > 0.4 and odd_nul < 0.05) or (odd_nul > 0.4 and even_nul < 0.05)


def _check_not_binary(data: bytes, path: str) -> None:
    """Refuse NUL bytes and a high share of control bytes (for byte-oriented encodings)."""
    nul = data.find(b"\x00")
    if nul >= 0:
        if _looks_like_bomless_utf16(data):
            raise InputError(
                "looks like UTF-16 text without a byte-order mark (BOM), which cannot be read "
                "reliably; re-save it as UTF-8 (or as UTF-16 with a BOM)",
                path,
            )
        raise _binary(f"contains NUL bytes, the first at byte offset {nul}", path)
    controls = len(data) - len(data.translate(None, _CONTROL_BYTES))
    if data and controls / len(data) > _MAX_CONTROL_SHARE:
        raise _binary(f"{controls / len(data):.0%} of its bytes are control characters", path)


def _decode_error(
    data: bytes, offset: int, codec: str, label: str, exc: UnicodeDecodeError, path: str
) -> InputError:
    """Name the line and byte offset of the first undecodable byte.

    ``data[offset:]`` was decoded with ``codec`` and raised ``exc``; everything before
    ``exc.start`` is therefore valid.
    """
    prefix = data[offset : offset + exc.start].decode(codec)
    line = prefix.count("\n") + 1
    line_text = prefix[prefix.rfind("\n") + 1 :]
    line_bytes = len(line_text.encode(codec))
    bad = data[offset + exc.start : offset + exc.end]
    after = f' after "{line_text[-30:]}"' if line_text else " at the start of the line"
    return InputError(
        f"not valid {label}: byte{'s' if len(bad) > 1 else ''} {bad.hex(' ')} at byte offset "
        f"{offset + exc.start} of the file (byte {line_bytes + 1} of the line){after} cannot be "
        f"decoded ({exc.reason}); fix the file or re-save it as {label}",
        path,
        line,
    )


def _looks_mostly_utf8(data: bytes) -> bool:
    """True when valid multi-byte UTF-8 characters are at least as common as invalid bytes."""
    # Only used to count; the text is never returned.
    replaced = data.decode("utf-8", errors="replace")
    invalid = replaced.count("\ufffd") - data.count(b"\xef\xbf\xbd")
    non_ascii = len(replaced) - len(replaced.encode("ascii", errors="ignore"))
    valid = non_ascii - invalid - data.count(b"\xef\xbf\xbd")
    return valid > 0 and valid >= invalid


def _detect(data: bytes, path: str, utf8_error: UnicodeDecodeError) -> tuple[str, str]:
    matches = list(charset_normalizer.from_bytes(data))
    if not matches:
        line = data.count(b"\n", 0, utf8_error.start) + 1
        raise InputError(
            "the text encoding could not be detected: the file is not UTF-8 (first invalid "
            f"byte at byte offset {utf8_error.start}, line {line}) and no other encoding fits; "
            "re-save it as UTF-8",
            path,
        )
    best = matches[0]
    chosen = best.encoding
    if not is_multi_byte_encoding(best.encoding):
        plausible = [
            m
            for m in matches
            if m.chaos <= best.chaos + _CHAOS_TOLERANCE
            and m.coherence >= best.coherence - _COHERENCE_TOLERANCE
        ]
        for preferred in _PREFERRED_SINGLE_BYTE:
            if any(preferred in m.could_be_from_charset for m in plausible):
                chosen = preferred
                break
    try:
        return data.decode(chosen), chosen
    except (UnicodeDecodeError, LookupError):
        raise InputError(
            f"the text encoding could not be detected: the best guess, {chosen}, "
            "does not decode the whole file; re-save it as UTF-8",
            path,
        ) from None


def decode_bytes(data: bytes, *, path: str) -> tuple[str, str, bool]:
    """Decode a whole file's bytes; return ``(text, encoding, detected)``.

    ``detected`` is True when the encoding was guessed by charset-normalizer. The BOM is not
    part of ``text``, and ``data.decode(encoding) == text``. Raises :class:`InputError` for
    binary files, undecodable bytes and encodings that cannot be detected.
    """
    for magic, what in _MAGIC_NUMBERS:
        if data.startswith(magic):
            raise _binary(what, path)
    for bom, encoding, codec, label in _BOMS:
        if not data.startswith(bom):
            continue
        if codec == "utf-8":
            _check_not_binary(data[len(bom) :], path)
        try:
            text = data[len(bom) :].decode(codec)
        except UnicodeDecodeError as exc:
            raise _decode_error(data, len(bom), codec, label, exc, path) from None
        nul = text.find("\x00")
        if nul >= 0:
            line = text.count("\n", 0, nul) + 1
            raise _binary(f"contains NUL characters, the first on line {line}", path)
        return text, encoding, False
    _check_not_binary(data, path)
    try:
        return data.decode("utf-8"), "utf-8", False
    except UnicodeDecodeError as exc:
        if _looks_mostly_utf8(data):
            raise _decode_error(data, 0, "utf-8", "UTF-8", exc, path) from None
        text, encoding = _detect(data, path, exc)
        return text, encoding, True


# --------------------------------------------------------------------------- lines


def _plural(n: int, word: str, plural: str | None = None) -> str:
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
    return text.count("\r") > text.count("\r\n")


#: (quick test on the whole text, per-line pattern, what was found)
_CHECKS: Final[tuple[tuple[Callable[[str], bool], re.Pattern[str], str], ...]] = (
    (
        lambda t: _search_slices(_CONTROL_CHARS, t) is not None,
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
_SURROGATES: Final[re.Pattern[str]] = re.compile("[\ud800-\udfff]")


def _replace_surrogates(
    segments: list[str], where: Callable[[int], str], unit: str
) -> tuple[list[str], str]:
    """``segments`` with every lone surrogate replaced by U+FFFD, and a warning saying where."""
    hits = [i for i, segment in enumerate(segments) if _SURROGATES.search(segment)]
    fixed = list(segments)
    for i in hits:
        fixed[i] = _SURROGATES.sub("\ufffd", segments[i])
    found = _SURROGATES.search(segments[hits[0]])
    code = f"U+{ord(found.group()):04X}" if found else "U+D800-U+DFFF"
    what = (
        f"a lone surrogate ({code}, e.g. from a \\u{code[2:].lower()} escape in JSON), which "
        "is not a character; replaced with U+FFFD"
    )
    if len(hits) == 1:
        return fixed, f"{where(hits[0])} contains {what}"
    return fixed, f"{len(hits)} {unit}s contain {what}; first: {where(hits[0])}"


def _content_warnings(
    lines: Sequence[str], joined: str, where: Callable[[int], str], unit: str
) -> list[str]:
    """Warnings about characters that are easy to miss; ``joined`` is all lines in one string.

    Each check scans ``joined`` once at C speed; only a check that finds something loops over
    the lines.
    """
    warnings: list[str] = []
    for quick, pattern, what in _CHECKS:
        if not quick(joined):
            continue
        hits = [i for i, line in enumerate(lines) if pattern.search(line)]
        if not hits:  # cannot happen for one-character patterns; kept as a guard
            continue
        detail = ""
        if pattern is _CONTROL_CHARS:
            found = pattern.search(lines[hits[0]])
            detail = f" (U+{ord(found.group()):04X})" if found else ""
        if len(hits) == 1:
            warnings.append(f"{where(hits[0])} contains {what}{detail}")
        else:
            warnings.append(f"{len(hits)} {unit}s contain {what}; first: {where(hits[0])}{detail}")
    empty = lines.count("")
    if empty == 1:
        warnings.append(f"{where(lines.index(''))} is empty")
    elif empty:
        warnings.append(f"{empty} {unit}s are empty; first: {where(lines.index(''))}")
    return warnings


# --------------------------------------------------------------------------- formats


def _resolve_format(spec: InputSpec) -> str:
    if spec.fmt is None:
        return _EXTENSION_FORMATS.get(Path(spec.path).suffix.lower(), "text")
    if spec.fmt not in FORMATS:
        raise InputError(
            f"unknown input format {spec.fmt!r}; choose one of {', '.join(FORMATS)}", spec.path
        )
    return spec.fmt


def read_input_bytes(path: str, *, max_lines: LineLimit | None = None) -> bytes:
    """All bytes of the input ``path``: a regular file of at most :data:`MAX_INPUT_BYTES`.

    Read by :func:`~matchlight.core.io.files.read_bytes_capped` (no pipe or device is opened;
    a file growing past the cap is refused after ``cap + 1`` bytes); with ``max_lines``, a file
    with more lines is refused as soon as they have streamed in. Raises :class:`InputError`.
    """
    if not path:
        raise InputError("no file name given")
    try:
        return read_bytes_capped(path, MAX_INPUT_BYTES, what="an input file", max_lines=max_lines)
    except FileError as error:
        raise InputError(error.problem, path, error.line) from None


def _strip_trailing_blank(
    rows: list[list[str]], blank: Callable[[list[str]], bool]
) -> tuple[list[list[str]], int]:
    end = len(rows)
    while end and blank(rows[end - 1]):
        end -= 1
    return rows[:end], len(rows) - end


def _field_list(fields: Sequence[str]) -> str:
    return ", ".join(repr(f) for f in fields)


@dataclass(frozen=True, slots=True)
class _Parsed:
    segments: list[str]
    #: 1-based file line of segments[i]: an offset for line-per-record formats, else a list
    line_of: int | list[int]
    warnings: list[str]


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


def _parse_tabular(
    text: str, fmt: str, column: str | None, path: str, max_rows: LineLimit | None = None
) -> _Parsed:
    label = fmt.upper()
    if fmt == "tsv":
        rows = [line.split("\t") for line in split_lines(text)]
        starts: list[int] | None = None
    else:
        rows, starts = [], []
        reader = csv.reader(_csv_lines(text), strict=True)
        while True:
            start = reader.line_num + 1
            try:
                row = next(reader)
            except StopIteration:
                break
            except csv.Error as exc:
                problem = str(exc)
                if "unexpected end of data" in problem:
                    raise InputError(
                        "a quoted field starting on this line is never closed", path, start
                    ) from None
                if "new-line character" in problem:
                    problem = "a carriage return (\\r) inside an unquoted field; quote the field"
                raise InputError(f"malformed CSV: {problem}", path, reader.line_num) from None
            rows.append(row)
            starts.append(start)
            if max_rows is not None and len(rows) > max_rows.lines:
                raise InputError(max_rows.problem("row"), path)

    def line_number(i: int) -> int:
        return i + 1 if starts is None else starts[i]

    rows, dropped = _strip_trailing_blank(rows, lambda r: r in ([], [""]))
    warnings = [f"ignored {_plural(dropped, 'blank line')} at the end"] if dropped else []

    if column is None:
        first = _field_list(rows[0]) if rows else "(the file is empty)"
        raise InputError(
            f"{label} input needs a column: add #NAME (a header name) or #N (a 1-based column "
            f"number) to the path; the first row is: {first}",
            path,
        )
    if not rows:
        return _Parsed([], 1, warnings)

    header: list[str] | None = None
    if column.isascii() and column.isdigit():
        index = int(column) - 1
        if index < 0:
            raise InputError("column numbers start at 1", path)
        width = len(rows[0])
        if index >= width:
            raise InputError(
                f"has no column {column}: the first row has only {_plural(width, 'field')} "
                f"({_field_list(rows[0])})",
                path,
                line_number(0),
            )
        data_from = 0
    else:
        header = rows[0]
        if column not in header:
            raise InputError(
                f"no column named {column!r} in the header row; available columns: "
                f"{_field_list(header)}",
                path,
                line_number(0),
            )
        if header.count(column) > 1:
            raise InputError(f"the header row names column {column!r} more than once", path, 1)
        index, width, data_from = header.index(column), len(header), 1

    if width == 1:  # a blank line is an empty segment
        for i in range(data_from, len(rows)):
            if not rows[i]:
                rows[i] = [""]
    widths = set(map(len, rows[data_from:]))
    if widths - {width}:
        bad = next(i for i in range(data_from, len(rows)) if len(rows[i]) != width)
        reference = "the header row" if header is not None else f"line {line_number(0)}"
        if rows[bad] in ([], [""]):
            problem = f"blank line in the middle of the data; expected {_plural(width, 'field')}"
        else:
            problem = f"has {_plural(len(rows[bad]), 'field')}, but {reference} has {width}" + (
                " (a tab inside a segment?)" if fmt == "tsv" and len(rows[bad]) > width else ""
            )
        raise InputError(problem, path, line_number(bad))

    segments = list(map(operator.itemgetter(index), rows[data_from:]))
    line_of: int | list[int] = data_from + 1 if starts is None else starts[data_from:]
    return _Parsed(segments, line_of, warnings)


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
    :func:`read_column` replaces them and says which segments held one."""
    return jsonsafe.loads(
        line, path=path, first_line=number, error=InputError, surrogates="keep", strict=False
    )


def _parse_jsonl(text: str, key: str | None, path: str) -> _Parsed:
    raw = split_lines(text)
    end = len(raw)
    while end and not raw[end - 1].strip():
        end -= 1
    dropped = len(raw) - end
    warnings = [f"ignored {_plural(dropped, 'blank line')} at the end"] if dropped else []
    if key is None:
        try:
            first = _json_record(raw[0], path, 1) if end else None
        except InputError:
            first = None
        keys = f"; available keys: {_field_list(list(first))}" if isinstance(first, dict) else ""
        raise InputError(
            "JSON Lines input needs a key: add #KEY to the path (dotted keys such as "
            f"translation.de reach into nested objects){keys}",
            path,
        )
    segments: list[str] = []
    for number, line in enumerate(raw[:end], start=1):
        if not line.strip():
            raise InputError("blank line in the middle of a JSON Lines file", path, number)
        obj = _json_record(line, path, number)
        if not isinstance(obj, dict):
            raise InputError(f"expected a JSON object, found {json_type(obj)}", path, number)
        segments.append(_lookup(obj, key, path, number))
    return _Parsed(segments, 1, warnings)


#: File-name prefixes that only say "this is a system output" (``sys.online-b.txt``).
SYSTEM_PREFIXES: Final[tuple[str, ...]] = ("sys.", "hyp.", "system.", "out.", "output.")


def default_name(path: str) -> str:
    """A display name for a file: its stem without a ``sys.``-style prefix.

    ``sys.fluent.txt`` -> ``fluent``, ``ref2.txt`` -> ``ref2``; the CLI and the GUI both use it,
    so their exports name systems alike.
    """
    stem = Path(path).stem
    lowered = stem.lower()
    for prefix in SYSTEM_PREFIXES:
        if lowered.startswith(prefix) and len(stem) > len(prefix):
            return stem[len(prefix) :]
    return stem or Path(path).name


def read_column(spec: InputSpec, *, max_rows: LineLimit | None = None) -> TextColumn:
    """Read one input file (or one column of it) into a :class:`TextColumn`.

    The display name is ``spec.name`` if given, else the column name for a column given by
    name, else the file's stem (plus ``#N`` for a column given by number). A caller that knows
    how many rows to expect passes ``max_rows``: a file with more lines (or CSV rows) is refused
    as soon as they are read, before they take memory as segments.
    """
    path = spec.path
    fmt = _resolve_format(spec)
    if fmt == "text" and spec.column is not None:
        raise InputError(
            f"a column (#{spec.column}) can only be chosen in TSV, CSV or JSONL input, but this "
            "is read as plain text; use a .tsv/.csv/.jsonl extension or choose the format",
            path,
        )
    data = read_input_bytes(path, max_lines=None if fmt == "csv" else max_rows)
    text, encoding, detected = decode_bytes(data, path=path)
    warnings: list[str] = []
    if detected:
        warnings.append(
            f"encoding detected as {encoding} (not UTF-8); check that the text looks right, "
            "or re-save the file as UTF-8"
        )

    if fmt == "text":
        parsed = _Parsed(split_lines(text), 1, [])
        joined = text
    else:
        if fmt == "jsonl":
            parsed = _parse_jsonl(text, spec.column, path)
        else:
            parsed = _parse_tabular(text, fmt, spec.column, path, max_rows)
        joined = "\n".join(parsed.segments)
    line_of = parsed.line_of

    def where(i: int) -> str:
        line = line_of + i if isinstance(line_of, int) else line_of[i]
        return f"line {line}" if line == i + 1 else f"segment {i + 1} (line {line})"

    warnings += parsed.warnings
    unit = "line" if fmt == "text" else "segment"
    segments = parsed.segments
    if _search_slices(_SURROGATES, joined) is not None:
        segments, note = _replace_surrogates(segments, where, unit)
        joined = _SURROGATES.sub("\ufffd", joined)
        warnings.append(note)
    warnings += _content_warnings(segments, joined, where, unit)

    if spec.name is not None:
        name = spec.name
    elif spec.column is None:
        name = default_name(path)
    elif spec.column.isascii() and spec.column.isdigit():
        name = f"{default_name(path)}#{spec.column}"
    else:
        name = spec.column
    if _SURROGATES.search(name) is not None:
        # From a file name or command line argument with bytes that are not UTF-8.
        name = _SURROGATES.sub("\ufffd", name)
        warnings.append(
            f"the name {name!r} had bytes that are not UTF-8 (shown as U+FFFD); "
            "rename the file or give a NAME=PATH"
        )
    return TextColumn(
        name=name,
        path=path,
        lines=tuple(segments),
        encoding=encoding,
        detected=detected,
        warnings=tuple(warnings),
    )


# --------------------------------------------------------------------------- comparison


def _unique_names(columns: list[TextColumn], role: str) -> tuple[TextColumn, ...]:
    taken = {c.name for c in columns}
    seen: set[str] = set()
    result: list[TextColumn] = []
    for column in columns:
        if column.name not in seen:
            seen.add(column.name)
            result.append(column)
            continue
        n = 2
        while f"{column.name} ({n})" in taken:
            n += 1
        new = f"{column.name} ({n})"
        taken.add(new)
        seen.add(new)
        note = f"renamed to {new!r}: another {role} is also named {column.name!r}"
        result.append(replace(column, name=new, warnings=(*column.warnings, note)))
    return tuple(result)


def _count_table(entries: list[tuple[InputSpec, str, TextColumn]]) -> str:
    counts = [len(c.lines) for _, _, c in entries]
    ranked = Counter(counts).most_common(2)
    usual: int | None = ranked[0][0]
    if ranked[0][1] < 2 or (len(ranked) > 1 and ranked[1][1] == ranked[0][1]):
        usual = None  # no clear majority
    rows = ["line counts differ:"]
    for (spec, role, column), count in zip(entries, counts, strict=True):
        label = spec.path if spec.column is None else f"{spec.path}#{spec.column}"
        unit = "line" if _resolve_format(spec) == "text" else "record"
        row = f"  {label} ({role}): {_plural(count, unit)}"
        if usual is not None and count != usual:
            row += "  <- differs"
        cr = [w for w in column.warnings if "carriage return" in w]
        if cr:
            row += f"  [{cr[0]}]"
        rows.append(row)
    return "\n".join(rows)


def load_comparison(
    *,
    source: InputSpec | None,
    references: Sequence[InputSpec],
    systems: Sequence[InputSpec],
) -> Comparison:
    """Read every input and check that all have the same number of segments.

    Raises :class:`InputError` for the first unreadable input, or for differing counts with a
    message listing every file, its role and its count. Duplicate names within the references
    or within the systems get `` (2)``, `` (3)``, ... appended, noted in the column's warnings.
    """
    if not references:
        raise InputError("at least one reference file is needed")
    if not systems:
        raise InputError("at least one system output file is needed")
    src = None if source is None else read_column(source)
    refs = _unique_names([read_column(s) for s in references], "reference")
    syss = _unique_names([read_column(s) for s in systems], "system")

    entries: list[tuple[InputSpec, str, TextColumn]] = []
    if source is not None and src is not None:
        entries.append((source, "source", src))
    for i, (spec, col) in enumerate(zip(references, refs, strict=True), start=1):
        entries.append((spec, "reference" if len(refs) == 1 else f"reference {i}", col))
    for spec, col in zip(systems, syss, strict=True):
        entries.append((spec, f"system {col.name}", col))
    if len({len(c.lines) for _, _, c in entries}) > 1:
        raise InputError(_count_table(entries))
    return Comparison(source=src, references=refs, systems=syss)
