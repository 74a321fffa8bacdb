"""Bytes to text: how an input file's encoding is found and its bytes checked and decoded.

Two readers share one set of rules (magic numbers of binary formats, byte-order marks, NUL and
control bytes): :func:`decode_bytes` decodes a whole file (the app, and a streamed input that
is not UTF-8), and :func:`checked_blocks` / :func:`decoded_blocks` decode a streamed input in
blocks ending at line breaks (the command line, which never holds an input whole).

* Encodings: UTF-8 (with or without BOM), and UTF-16 / UTF-32 with a BOM, are read as declared.
  Anything else is guessed with charset-normalizer (whole files only; a streamed input must be
  UTF-8 or carry a BOM). A file that is almost entirely valid UTF-8 is never re-guessed: its
  first bad byte is reported instead. For every successful decode,
  ``data.decode(encoding) == text`` holds.
* Only regular files of at most :data:`~matchlight.core.io.files.MAX_INPUT_BYTES` are read
  whole (:func:`read_input_bytes`, through :mod:`core.io.files`): a named pipe, a device
  (/dev/zero), a socket or a directory is refused from its ``stat``, before it is opened.
"""

from __future__ import annotations

import codecs
import itertools
import os
import threading
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Final

from matchlight.core.io.files import (
    MAX_INPUT_BYTES,
    FileError,
    LineLimit,
    iter_blocks,
    read_bytes_capped,
    size_text,
)
from matchlight.core.io.inputs import ColumnScan, InputError

__all__ = [
    "MAX_STREAM_BYTES",
    "MAX_STREAM_LINE",
    "StreamEncoding",
    "Undecodable",
    "changed_since_scan",
    "checked_blocks",
    "codec_of",
    "decode_bytes",
    "decoded_blocks",
    "read_input_bytes",
]

# --------------------------------------------------------------------------- whole files

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


# --------------------------------------------------------------------------- streams

#: The largest input read as a stream (1 TiB; memory does not grow with it).
MAX_STREAM_BYTES: Final[int] = 1 << 40
#: The longest line of a streamed input: as long as a whole input the app reads.
MAX_STREAM_LINE: Final[int] = MAX_INPUT_BYTES
#: Bytes read at a time from a streamed input: each is decoded, split and checked in calls
#: that hold the interpreter about a millisecond (the app's other threads, the GUI's among
#: them, wait that long each time they ask for it back; a MiB's split alone held it 5-25 ms).
_STREAM_BLOCK: Final[int] = 1 << 18
#: Bytes read first from a streamed input (at most :data:`_STREAM_BLOCK`): its first rows are
#: decoded and parsed without waiting for a whole block.
_FIRST_BLOCK: Final[int] = 1 << 18
#: Bytes that tell a file's kind: the longest magic number and byte-order mark.
_HEAD_BYTES: Final[int] = max(len(m) for m, _ in _MAGIC_NUMBERS)


class Undecodable(Exception):
    """A streamed input is not in the encoding its start declares (or UTF-8): read it whole,
    as the app does, to detect its encoding or to name its first bad byte."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


@dataclass(slots=True)
class StreamEncoding:
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
        raise Undecodable(
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
            raise Undecodable(
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


def checked_blocks(
    path: str,
    info: os.stat_result,
    found: StreamEncoding,
    *,
    held: bool = False,
    cancel: threading.Event | None = None,
) -> Iterator[str]:
    """The text of a streamed input in blocks that end at line breaks, checked as
    :func:`decode_bytes` checks a whole file: magic numbers of binary formats, a byte-order
    mark (UTF-8, UTF-16, UTF-32), NUL bytes, control bytes; UTF-8 without a byte-order mark.
    Raises :class:`Undecodable` at the first bytes that do not decode. A caller that keeps
    what it reads (``held``, the app) may read no more than :data:`MAX_INPUT_BYTES`, as from a
    file read whole; ``cancel`` stops the read between blocks."""
    cap = MAX_INPUT_BYTES if held else MAX_STREAM_BYTES
    first_block = min(_FIRST_BLOCK, _STREAM_BLOCK)
    raws = _growing(
        iter_blocks(path, cap, what="an input file", block=first_block, expect=info, cancel=cancel)
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


def _growing(raws: Iterator[bytes]) -> Iterator[bytes]:
    """The first block as read, then the rest in blocks of at least :data:`_STREAM_BLOCK`."""
    first = next(raws, None)
    if first is None:
        return
    yield first
    parts: list[bytes] = []
    size = 0
    for raw in raws:
        parts.append(raw)
        size += len(raw)
        if size >= _STREAM_BLOCK:
            yield b"".join(parts)
            parts, size = [], 0
    if parts:
        yield b"".join(parts)


def codec_of(data: bytes, encoding: str) -> tuple[str, int]:
    """How :func:`decode_bytes` decoded ``data`` as ``encoding``: the codec and the bytes of
    byte-order mark before the text."""
    for bom, name, codec, _ in _BOMS:
        if encoding == name and data.startswith(bom):
            return codec, len(bom)
    return encoding, 0


def changed_since_scan(path: str, how: str) -> InputError:
    """The error for a streamed input that is no longer the file its scan checked."""
    return InputError(
        f"changed since it was first read ({how}); read it again once whatever writes it has "
        "finished",
        path,
    )


def decoded_blocks(scan: ColumnScan) -> Iterator[str]:
    """The text of an input that :func:`~matchlight.core.io.reading.scan_column` checked, in
    blocks ending at line breaks."""
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
                raise changed_since_scan(scan.path, "a line is now too long")
            if cut:
                yield text[:cut]
        text = carry + decoder.decode(b"", final=True)
    except UnicodeDecodeError:
        raise changed_since_scan(scan.path, f"it no longer decodes as {scan.encoding}") from None
    if text:
        yield text
