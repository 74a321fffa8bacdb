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

import codecs
import contextlib
import csv
import itertools
import os
import re
from collections import Counter
from collections.abc import Callable, Generator, Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Final, TypeVar

from matchlight.core.io import jsonsafe
from matchlight.core.io.files import (
    MAX_INPUT_BYTES,
    FileError,
    LineLimit,
    check_regular,
    iter_blocks,
    read_bytes_capped,
    size_text,
)
from matchlight.core.io.jsonsafe import json_type
from matchlight.core.text.corpus import CorpusText
from matchlight.core.text.textspan import split_lines

__all__ = [
    "COLUMNAR_FORMATS",
    "FORMATS",
    "MAX_INPUT_BYTES",
    "MAX_STREAM_BYTES",
    "ColumnScan",
    "Comparison",
    "ComparisonScan",
    "InputError",
    "InputSpec",
    "LineLimit",
    "SegmentReader",
    "TextColumn",
    "decode_bytes",
    "default_name",
    "load_comparison",
    "parse_spec",
    "read_column",
    "read_input_bytes",
    "scan_column",
    "scan_comparison",
    "split_lines",
    "stream_column",
]

#: Input formats understood by :func:`read_column` (for CLI ``choices=`` and GUI combo boxes).
FORMATS: Final[tuple[str, ...]] = ("text", "tsv", "csv", "jsonl")
#: Columnar formats, read through pyarrow (the optional extra ``matchlight[parquet]``; see
#: :mod:`core.io.columnar`).
COLUMNAR_FORMATS: Final[tuple[str, ...]] = ("parquet",)

_EXTENSION_FORMATS: Final[dict[str, str]] = {
    ".tsv": "tsv",
    ".csv": "csv",
    ".jsonl": "jsonl",
    ".ndjson": "jsonl",
    ".parquet": "parquet",
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
class ColumnScan:
    """What the first pass over one input found: its name, encoding, number of segments and
    warnings, and how to read it again (``codec`` after ``skip`` bytes of byte-order mark;
    ``identity``, the ``stat`` of the file that was checked)."""

    spec: InputSpec
    name: str
    fmt: str
    encoding: str
    detected: bool
    segments: int
    warnings: tuple[str, ...]
    codec: str = "utf-8"
    skip: int = 0
    identity: os.stat_result | None = None

    @property
    def path(self) -> str:
        return self.spec.path


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
    # Imported here: only a file that is not UTF-8 needs it, and it takes a while to load.
    import charset_normalizer
    from charset_normalizer.utils import is_multi_byte_encoding

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
_SURROGATES: Final[re.Pattern[str]] = re.compile("[\ud800-\udfff]")


# --------------------------------------------------------------------------- what a column holds


def _where(index: int, line: int, place: str = "line") -> str:
    """Segment ``index`` (0-based) at file line ``line`` (or table row), for a message."""
    return f"{place} {line}" if line == index + 1 else f"segment {index + 1} ({place} {line})"


@dataclass(slots=True)
class _Batch:
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


def _fix_surrogates(batch: _Batch) -> list[tuple[int, str]]:
    """Replace every lone surrogate in ``batch`` with U+FFFD (in place); returns the segments
    that held one, with the code point of their first (``U+D800``)."""
    text = batch.text()
    if text.isascii() or _search_slices(_SURROGATES, text) is None:
        return []
    hits = []
    for i, segment in enumerate(batch.segments):
        found = _SURROGATES.search(segment)
        if found is not None:
            hits.append((i, f"U+{ord(found.group()):04X}"))
            batch.segments[i] = _SURROGATES.sub("\ufffd", segment)
    if batch.raw is not None:
        batch.raw = _SURROGATES.sub("\ufffd", batch.raw)
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


class _Findings:
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

    def add(self, batch: _Batch, surrogates: list[tuple[int, str]]) -> None:
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


# --------------------------------------------------------------------------- formats


def _resolve_format(spec: InputSpec) -> str:
    if spec.fmt is None:
        return _EXTENSION_FORMATS.get(Path(spec.path).suffix.lower(), "text")
    if spec.fmt not in FORMATS and spec.fmt not in COLUMNAR_FORMATS:
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


def _field_list(fields: Sequence[str]) -> str:
    return ", ".join(repr(f) for f in fields)


# --------------------------------------------------------------------------- parsers
#
# One parser per format, shared by the reader of whole files (read_column, the app) and the
# streaming reader (stream_column, the command line). A parser takes the decoded text in blocks
# that end at a line break (a whole file is one block) and yields batches of segments.

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


def _text_batches(blocks: Blocks) -> Iterator[_Batch]:
    line = 1
    for block in blocks:
        segments = split_lines(block)
        if segments:
            yield _Batch(segments, line, raw=block)
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
) -> Iterator[_Batch]:
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
                        f"{_plural(width, 'field')} ({_field_list(row)})",
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
                    f"blank line in the middle of the data; expected {_plural(width, 'field')}"
                )
            else:
                problem = f"has {_plural(len(row), 'field')}, but {reference} has {width}" + (
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
            yield _Batch(segments, lines[0], lines)
            segments, lines = [], []
    if held:
        warnings.append(f"ignored {_plural(len(held), 'blank line')} at the end")
    if width < 0 and column is None:
        raise InputError(
            f"{label} input needs a column: add #NAME (a header name) or #N (a 1-based column "
            "number) to the path; the first row is: (the file is empty)",
            path,
        )
    if segments:
        yield _Batch(segments, lines[0], lines)


@dataclass(frozen=True, slots=True)
class _Parsed:
    segments: list[str]
    line_of: list[int]  # the file line of each segment
    warnings: list[str]


def _parse_tabular(
    text: str, fmt: str, column: str | None, path: str, max_rows: LineLimit | None = None
) -> _Parsed:
    """One column of a whole TSV/CSV text, with :func:`read_column`'s rules (for
    :mod:`core.io.scores`, which reads several columns of one file)."""
    warnings: list[str] = []
    rows = _tsv_rows([text]) if fmt == "tsv" else _csv_rows([text], path, max_rows)
    segments: list[str] = []
    lines: list[int] = []
    for batch in _tabular_batches(rows, fmt, column, path, warnings):
        segments += batch.segments
        lines += batch.lines or range(batch.first, batch.first + len(batch.segments))
    return _Parsed(segments, lines, warnings)


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
) -> Iterator[_Batch]:
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
            yield _Batch(segments, first)
            segments = []
    if key is None:
        raise _needs_key(path, None)
    if held:
        warnings.append(f"ignored {_plural(len(held), 'blank line')} at the end")
    if segments:
        yield _Batch(segments, first)


class _Parse:
    """One pass of a column's parser over its text blocks: the segments, batch by batch (lone
    surrogates replaced), and, with ``check``, what :class:`_Findings` notices in them."""

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
        self.findings = _Findings("line" if fmt == "text" else "segment") if check else None
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


def _display_name(spec: InputSpec) -> tuple[str, str | None]:
    """The column's display name (see :func:`read_column`) and a warning about it, if any."""
    path = spec.path
    if spec.name is not None:
        name = spec.name
    elif spec.column is None:
        name = default_name(path)
    elif spec.column.isascii() and spec.column.isdigit():
        name = f"{default_name(path)}#{spec.column}"
    else:
        name = spec.column
    if _SURROGATES.search(name) is None:
        return name, None
    # From a file name or command line argument with bytes that are not UTF-8.
    name = _SURROGATES.sub("\ufffd", name)
    return name, (
        f"the name {name!r} had bytes that are not UTF-8 (shown as U+FFFD); "
        "rename the file or give a NAME=PATH"
    )


def _check_column_choice(spec: InputSpec, fmt: str) -> None:
    if fmt == "text" and spec.column is not None:
        raise InputError(
            f"a column (#{spec.column}) can only be chosen in TSV, CSV or JSONL input, but this "
            "is read as plain text; use a .tsv/.csv/.jsonl extension or choose the format",
            spec.path,
        )


def _detected_warning(encoding: str) -> str:
    return (
        f"encoding detected as {encoding} (not UTF-8); check that the text looks right, "
        "or re-save the file as UTF-8"
    )


def read_column(spec: InputSpec, *, max_rows: LineLimit | None = None) -> TextColumn:
    """Read one input file (or one column of it) into a :class:`TextColumn`.

    The display name is ``spec.name`` if given, else the column name for a column given by
    name, else the file's stem (plus ``#N`` for a column given by number). A caller that knows
    how many rows to expect passes ``max_rows``: a file with more lines (or CSV rows) is refused
    as soon as they are read, before they take memory as segments.
    """
    path = spec.path
    fmt = _resolve_format(spec)
    if fmt in COLUMNAR_FORMATS:
        scan = scan_column(spec)
        lines = [s for batch in stream_column(scan) for s in batch]
        return TextColumn(scan.name, path, tuple(lines), scan.encoding, False, scan.warnings)
    _check_column_choice(spec, fmt)
    data = read_input_bytes(path, max_lines=None if fmt == "csv" else max_rows)
    text, encoding, detected = decode_bytes(data, path=path)
    del data
    parse = _Parse(spec, fmt, [text], max_rows=max_rows)
    segments = [segment for batch in parse for segment in batch]
    warnings = [_detected_warning(encoding)] if detected else []
    warnings += parse.warnings()
    name, note = _display_name(spec)
    if note is not None:
        warnings.append(note)
    return TextColumn(
        name=name,
        path=path,
        lines=tuple(segments),
        encoding=encoding,
        detected=detected,
        warnings=tuple(warnings),
    )


# --------------------------------------------------------------------------- comparison

_Column = TypeVar("_Column", TextColumn, ColumnScan)


def _unique_names(columns: list[_Column], role: str) -> tuple[_Column, ...]:
    taken = {c.name for c in columns}
    seen: set[str] = set()
    result: list[_Column] = []
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
        result.append(_renamed(column, new, note))
    return tuple(result)


def _renamed(column: Any, name: str, note: str) -> Any:
    """``column`` (a :class:`TextColumn` or :class:`ColumnScan`) named ``name``, ``note``
    added to its warnings."""
    return replace(column, name=name, warnings=(*column.warnings, note))


#: One input as the line-count check sees it: its spec, its role, its count, its warnings.
_Entry = tuple[InputSpec, str, int, tuple[str, ...]]


def _count_table(entries: list[_Entry]) -> str:
    counts = [count for _, _, count, _ in entries]
    ranked = Counter(counts).most_common(2)
    usual: int | None = ranked[0][0]
    if ranked[0][1] < 2 or (len(ranked) > 1 and ranked[1][1] == ranked[0][1]):
        usual = None  # no clear majority
    rows = ["line counts differ:"]
    for spec, role, count, warnings in entries:
        label = spec.path if spec.column is None else f"{spec.path}#{spec.column}"
        unit = "line" if _resolve_format(spec) == "text" else "record"
        row = f"  {label} ({role}): {_plural(count, unit)}"
        if usual is not None and count != usual:
            row += "  <- differs"
        cr = [w for w in warnings if "carriage return" in w]
        if cr:
            row += f"  [{cr[0]}]"
        rows.append(row)
    return "\n".join(rows)


def _check_counts(
    source: tuple[InputSpec, _Column] | None,
    references: Sequence[tuple[InputSpec, _Column]],
    systems: Sequence[tuple[InputSpec, _Column]],
    count: Callable[[_Column], int],
) -> None:
    """Raise :class:`InputError` listing every input, its role and its count unless all have
    the same number of segments."""
    entries: list[_Entry] = []
    if source is not None:
        entries.append((source[0], "source", count(source[1]), source[1].warnings))
    for i, (spec, col) in enumerate(references, start=1):
        role = "reference" if len(references) == 1 else f"reference {i}"
        entries.append((spec, role, count(col), col.warnings))
    for spec, col in systems:
        entries.append((spec, f"system {col.name}", count(col), col.warnings))
    if len({n for _, _, n, _ in entries}) > 1:
        raise InputError(_count_table(entries))


def _require_inputs(references: Sequence[InputSpec], systems: Sequence[InputSpec]) -> None:
    if not references:
        raise InputError("at least one reference file is needed")
    if not systems:
        raise InputError("at least one system output file is needed")


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
    _require_inputs(references, systems)
    src = None if source is None else read_column(source)
    refs = _unique_names([read_column(s) for s in references], "reference")
    syss = _unique_names([read_column(s) for s in systems], "system")
    _check_counts(
        None if source is None or src is None else (source, src),
        list(zip(references, refs, strict=True)),
        list(zip(systems, syss, strict=True)),
        lambda column: len(column.lines),
    )
    return Comparison(source=src, references=refs, systems=syss)


# --------------------------------------------------------------------------- streams
#
# The command line reads its inputs twice, never holding them: a first pass checks everything
# read_column checks and counts the segments (scan_column), a second pass reads the segments a
# batch at a time while they are scored (stream_column), and refuses a file that changed in
# between. Counting first lets every problem, and unequal line counts, be reported before any
# scoring starts, and gives the corpus means the count numpy's summation needs.

#: The largest input read as a stream (1 TiB; memory does not grow with it).
MAX_STREAM_BYTES: Final[int] = 1 << 40
#: The longest line of a streamed input: as long as a whole input the app reads.
MAX_STREAM_LINE: Final[int] = MAX_INPUT_BYTES
#: Bytes read at a time from a streamed input.
_STREAM_BLOCK: Final[int] = 1 << 22
#: Bytes that tell a file's kind: the longest magic number and byte-order mark.
_HEAD_BYTES: Final[int] = max(len(m) for m, _ in _MAGIC_NUMBERS)


class _Undecodable(Exception):
    """A streamed input is not in the encoding its start declares (or UTF-8): read it whole,
    as the app does, to detect its encoding or to name its first bad byte."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


@dataclass(slots=True)
class _Encoding:
    """How a streamed input is decoded, known once its first bytes are read."""

    encoding: str = "utf-8"
    detected: bool = False
    codec: str = "utf-8"
    skip: int = 0


def _line_too_long(path: str, line: int) -> InputError:
    return InputError(
        f"the line is longer than the {size_text(MAX_STREAM_LINE)} a line may have", path, line
    )


def _utf8_blocks(path: str, raws: Iterable[bytes]) -> Iterator[str]:
    """UTF-8 bytes (after any byte-order mark) as text blocks ending at line breaks, with
    :func:`decode_bytes`' checks: NUL bytes, the share of control bytes, the first bad byte."""
    head = b""
    offset = 0  # bytes checked so far
    controls = 0
    carry = b""  # the start of a line not ended yet
    lines = 0
    for raw in raws:
        if not head:
            head = raw[:4096]
        nul = raw.find(b"\x00")
        if nul >= 0:
            if _looks_like_bomless_utf16(head):
                raise InputError(
                    "looks like UTF-16 text without a byte-order mark (BOM), which cannot be "
                    "read reliably; re-save it as UTF-8 (or as UTF-16 with a BOM)",
                    path,
                )
            raise _binary(f"contains NUL bytes, the first at byte offset {offset + nul}", path)
        controls += len(raw) - len(raw.translate(None, _CONTROL_BYTES))
        start = offset - len(carry)
        offset += len(raw)
        data = carry + raw if carry else raw
        cut = data.rfind(b"\n") + 1
        carry = data[cut:]
        if len(carry) > MAX_STREAM_LINE:
            raise _line_too_long(path, lines + 1)
        if cut:
            text = _decode_utf8(data[:cut], start, lines, path)
            lines += text.count("\n")
            yield text
    if carry:
        yield _decode_utf8(carry, offset - len(carry), lines, path)
    if offset and controls / offset > _MAX_CONTROL_SHARE:
        raise _binary(f"{controls / offset:.0%} of its bytes are control characters", path)


def _decode_utf8(piece: bytes, start: int, lines: int, path: str) -> str:
    try:
        return piece.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = lines + piece.count(b"\n", 0, exc.start) + 1
        raise _Undecodable(
            f"not valid UTF-8: byte {piece[exc.start]:02x} at byte offset {start + exc.start} "
            f"(line {line}) cannot be decoded ({exc.reason}); an input over "
            f"{size_text(MAX_INPUT_BYTES)} is read as a stream and must be UTF-8 (or UTF-16/32 "
            "with a byte-order mark): re-save it as UTF-8"
        ) from None


def _wide_blocks(path: str, raws: Iterable[bytes], codec: str, label: str) -> Iterator[str]:
    """UTF-16/32 bytes (after their byte-order mark) as text blocks ending at line breaks;
    a NUL character is refused, naming its line."""
    decoder = codecs.getincrementaldecoder(codec)("strict")
    carry = ""
    lines = 0
    final = False
    raws = iter(raws)
    while not final:
        raw = next(raws, None)
        final = raw is None
        try:
            text = carry + decoder.decode(b"" if raw is None else raw, final=final)
        except UnicodeDecodeError as exc:
            raise _Undecodable(
                f"not valid {label} ({exc.reason}) after line {lines}; an input over "
                f"{size_text(MAX_INPUT_BYTES)} is read as a stream and must decode as its "
                "byte-order mark says: re-save it as UTF-8"
            ) from None
        cut = len(text) if final else text.rfind("\n") + 1
        block, carry = text[:cut], text[cut:]
        if len(carry) > MAX_STREAM_LINE:
            raise _line_too_long(path, lines + 1)
        nul = block.find("\x00")
        if nul >= 0:
            line = lines + block.count("\n", 0, nul) + 1
            raise _binary(f"contains NUL characters, the first on line {line}", path)
        if block:
            lines += block.count("\n")
            yield block


def _checked_blocks(path: str, info: os.stat_result, found: _Encoding) -> Iterator[str]:
    """The text of a streamed input in blocks that end at line breaks, checked as
    :func:`decode_bytes` checks a whole file: magic numbers of binary formats, a byte-order
    mark (UTF-8, UTF-16, UTF-32), NUL bytes, control bytes; UTF-8 without a byte-order mark.
    Raises :class:`_Undecodable` at the first bytes that do not decode."""
    raws = iter_blocks(
        path, MAX_STREAM_BYTES, what="an input file", block=_STREAM_BLOCK, expect=info
    )
    first = b""
    while len(first) < _HEAD_BYTES and (more := next(raws, b"")):
        first += more  # enough for every magic number and byte-order mark
    for magic, what in _MAGIC_NUMBERS:
        if first.startswith(magic):
            raise _binary(what, path)
    for bom, encoding, codec, label in _BOMS:
        if first.startswith(bom):
            found.encoding, found.codec, found.skip = encoding, codec, len(bom)
            rest = itertools.chain([first[len(bom) :]], raws)
            if codec == "utf-8":
                yield from _utf8_blocks(path, rest)
            else:
                yield from _wide_blocks(path, rest, codec, label)
            return
    yield from _utf8_blocks(path, itertools.chain([first], raws))


def _codec_of(data: bytes, encoding: str) -> tuple[str, int]:
    """How :func:`decode_bytes` decoded ``data`` as ``encoding``: the codec and the bytes of
    byte-order mark before the text."""
    for bom, name, codec, _ in _BOMS:
        if encoding == name and data.startswith(bom):
            return codec, len(bom)
    return encoding, 0


def scan_column(spec: InputSpec) -> ColumnScan:
    """Check one input as :func:`read_column` does and count its segments, without holding it.

    The file is read as a stream of blocks; one that is not UTF-8 (nor UTF-16/32 with a
    byte-order mark) is read whole as the app reads it (up to :data:`MAX_INPUT_BYTES`), to
    detect its encoding or name its first bad byte. Raises :class:`InputError`.
    """
    fmt = _resolve_format(spec)
    if fmt in COLUMNAR_FORMATS:
        return _scan_parquet(spec)
    _check_column_choice(spec, fmt)
    path = spec.path
    if not path:
        raise InputError("no file name given")
    found = _Encoding()
    try:
        info = check_regular(path)
        try:
            blocks = _checked_blocks(path, info, found)
            parse = _Parse(spec, fmt, blocks)
            try:
                segments = sum(map(len, parse))
            except InputError:
                # The app checks a file's bytes before it parses it: a problem with the bytes
                # further on is the one to report.
                for _ in blocks:
                    pass
                raise
        except _Undecodable as problem:
            if info.st_size > MAX_INPUT_BYTES:
                raise InputError(problem.message, path) from None
            data = read_input_bytes(path)
            text, encoding, detected = decode_bytes(data, path=path)
            codec, skip = _codec_of(data, encoding)
            del data
            found = _Encoding(encoding, detected, codec, skip)
            parse = _Parse(spec, fmt, [text])
            segments = sum(map(len, parse))
            del text
    except FileError as error:
        raise InputError(error.problem, path, error.line) from None
    warnings = [_detected_warning(found.encoding)] if found.detected else []
    warnings += parse.warnings()
    name, note = _display_name(spec)
    if note is not None:
        warnings.append(note)
    return ColumnScan(
        spec=spec,
        name=name,
        fmt=fmt,
        encoding=found.encoding,
        detected=found.detected,
        segments=segments,
        warnings=tuple(warnings),
        codec=found.codec,
        skip=found.skip,
        identity=info,
    )


@dataclass(slots=True)
class _ParquetScan:
    """What reading a Parquet column found: its rows, its name, its warnings."""

    rows: int = 0
    column: str = ""
    warnings: tuple[str, ...] = ()


def _parquet_batches(
    spec: InputSpec,
    identity: os.stat_result | None,
    found: _ParquetScan | None = None,
) -> Iterator[list[str]]:
    """The text column ``spec.column`` of a Parquet file, a batch at a time; a null is refused
    naming its row. With ``found``, the values are also checked (:class:`_Findings`) and what
    was found is put there."""
    from matchlight.core.io.columnar import ColumnarError, ParquetColumn  # pyarrow if asked

    path = spec.path
    try:
        now = check_regular(path)
        if identity is not None and _identity_of(now) != _identity_of(identity):
            raise _changed(path, "a different size, time or file")
        column = ParquetColumn(path, spec.column)
        findings = None if found is None else _Findings("segment", place="row")
        row = 0
        for values in column.batches():
            if None in values:
                raise InputError(
                    f"row {row + values.index(None) + 1} of column {column.name!r} has no "
                    "value (null)",
                    path,
                )
            segments = [value or "" for value in values]
            if findings is not None:
                findings.add(_Batch(segments, row + 1), [])
            row += len(segments)
            yield segments
    except ColumnarError as error:
        raise InputError(str(error), path) from None
    except FileError as error:
        raise InputError(error.problem, path, error.line) from None
    if found is not None and findings is not None:
        found.rows, found.column, found.warnings = row, column.name, tuple(findings.warnings())


def _scan_parquet(spec: InputSpec) -> ColumnScan:
    """:func:`scan_column` of a Parquet column: its values checked and counted."""
    path = spec.path
    if not path:
        raise InputError("no file name given")
    try:
        info = check_regular(path)
    except FileError as error:
        raise InputError(error.problem, path, error.line) from None
    found = _ParquetScan()
    for _ in _parquet_batches(spec, info, found):
        pass
    name, note = _display_name(InputSpec(path, spec.name, found.column, spec.fmt))
    return ColumnScan(
        spec=spec,
        name=name,
        fmt="parquet",
        encoding="parquet",
        detected=False,
        segments=found.rows,
        warnings=found.warnings if note is None else (*found.warnings, note),
        identity=info,
    )


def _identity_of(info: os.stat_result) -> tuple[int, int, int, int]:
    return (info.st_dev, info.st_ino, info.st_size, info.st_mtime_ns)


def _changed(path: str, how: str) -> InputError:
    return InputError(
        f"changed since it was first read ({how}); read it again once whatever writes it has "
        "finished",
        path,
    )


def _decoded_blocks(scan: ColumnScan) -> Iterator[str]:
    """The text of an input that :func:`scan_column` checked, in blocks ending at line breaks."""
    decoder = codecs.getincrementaldecoder(scan.codec)("strict")
    skip = scan.skip
    carry = ""
    raws = iter_blocks(
        scan.path,
        MAX_STREAM_BYTES,
        what="an input file",
        block=_STREAM_BLOCK,
        expect=scan.identity,
    )
    try:
        for raw in raws:
            if skip:
                raw, skip = raw[skip:], max(0, skip - len(raw))
            text = carry + decoder.decode(raw)
            cut = text.rfind("\n") + 1
            carry = text[cut:]
            if len(carry) > MAX_STREAM_LINE:
                raise _changed(scan.path, "a line is now too long")
            if cut:
                yield text[:cut]
        text = carry + decoder.decode(b"", final=True)
    except UnicodeDecodeError:
        raise _changed(scan.path, f"it no longer decodes as {scan.encoding}") from None
    if text:
        yield text


def stream_column(scan: ColumnScan) -> Generator[list[str], None, None]:
    """The segments of an input that :func:`scan_column` checked, a batch at a time, exactly
    as :func:`read_column` would read them. Raises :class:`InputError` when the file is no
    longer the file that was checked (another size or time, or another number of segments)."""
    if scan.fmt in COLUMNAR_FORMATS:
        yield from _parquet_batches(scan.spec, scan.identity)
        return
    total = 0
    try:
        for segments in _Parse(scan.spec, scan.fmt, _decoded_blocks(scan), check=False):
            total += len(segments)
            if total > scan.segments:
                raise _changed(scan.path, f"it now has more than {scan.segments:,} segments")
            yield segments
    except FileError as error:
        raise InputError(error.problem, scan.path, error.line) from None
    if total != scan.segments:
        raise _changed(scan.path, f"it now has {total:,} segments, not {scan.segments:,}")


class SegmentReader:
    """An input read as a stream, a given number of segments at a time (:meth:`take`)."""

    def __init__(self, scan: ColumnScan) -> None:
        self.scan = scan
        self._batches = stream_column(scan)
        self._buffer: list[str] = []
        self._at = 0

    def take(self, count: int) -> list[str]:
        """The next ``count`` segments (fewer at the end of the input)."""
        if self._at == 0 and len(self._buffer) == count:
            out, self._buffer = self._buffer, []
            return out
        out = []
        while len(out) < count:
            if self._at >= len(self._buffer):
                batch = next(self._batches, None)
                if batch is None:
                    break
                self._buffer, self._at = batch, 0
                continue
            piece = self._buffer[self._at : self._at + count - len(out)]
            self._at += len(piece)
            out.extend(piece) if out else (out := piece)
        return out

    def finish(self) -> None:
        """Read to the end, so that a file that grew since it was checked is refused."""
        for _ in self._batches:
            pass

    def close(self) -> None:
        """Stop reading (the file is closed): for a reader of the first lines only."""
        self._batches.close()


@dataclass(frozen=True, slots=True)
class ComparisonScan:
    """Every input of an evaluation checked and counted (:func:`scan_comparison`), to be read
    as streams; all have the same number of segments."""

    source: ColumnScan | None
    references: tuple[ColumnScan, ...]
    systems: tuple[ColumnScan, ...]

    @property
    def columns(self) -> tuple[ColumnScan, ...]:
        """Every input: the source (if any), then the references, then the systems."""
        head = () if self.source is None else (self.source,)
        return head + self.references + self.systems

    def __len__(self) -> int:
        return self.references[0].segments


def scan_comparison(
    *,
    source: InputSpec | None,
    references: Sequence[InputSpec],
    systems: Sequence[InputSpec],
) -> ComparisonScan:
    """:func:`scan_column` every input and check that all have the same number of segments,
    with :func:`load_comparison`'s messages, names and warnings; nothing is held."""
    _require_inputs(references, systems)
    src = None if source is None else scan_column(source)
    refs = _unique_names([scan_column(s) for s in references], "reference")
    syss = _unique_names([scan_column(s) for s in systems], "system")
    _check_counts(
        None if source is None or src is None else (source, src),
        list(zip(references, refs, strict=True)),
        list(zip(systems, syss, strict=True)),
        lambda column: column.segments,
    )
    return ComparisonScan(source=src, references=refs, systems=syss)
