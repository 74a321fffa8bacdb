"""Reading inputs: one file (or one column of it) into a :class:`TextColumn`, every input of a
comparison into a :class:`Comparison`, or, for the command line, the same checks as streams.

:func:`read_column` and :func:`load_comparison` hold what they read (the app); the app can have
the first rows of every input while the rest is read (``on_first``). The command line reads its
inputs twice and never holds them: :func:`scan_column` / :func:`scan_comparison` check and
count, then :func:`stream_column` (or a :class:`SegmentReader`) yields the segments while they
are scored. Every input is read as a stream of blocks (:class:`_Stream`: no call decodes or
splits a whole file), decoded with :mod:`core.io.decoding` and parsed with
:mod:`core.io.parsers`, so both give the same names, warnings and messages: equal line counts
are checked with one message listing every input, its role and its count, and duplicate names
get `` (2)``, `` (3)``, ... A display name taken from a file name with bytes that are not UTF-8
becomes U+FFFD, with a warning.
"""

from __future__ import annotations

import itertools
import os
import threading
from collections import Counter
from collections.abc import Callable, Generator, Iterator, Sequence
from dataclasses import dataclass, replace
from typing import Any, TypeVar

from matchlight.core.io.decoding import (
    StreamEncoding,
    Undecodable,
    changed_since_scan,
    checked_blocks,
    codec_of,
    decode_bytes,
    decoded_blocks,
    read_input_bytes,
)
from matchlight.core.io.files import MAX_INPUT_BYTES, FileError, LineLimit, check_regular
from matchlight.core.io.inputs import (
    COLUMNAR_FORMATS,
    ColumnScan,
    Comparison,
    ComparisonScan,
    InputError,
    InputSpec,
    TextColumn,
    default_name,
    resolve_format,
)
from matchlight.core.io.parsers import SURROGATES, Batch, Findings, Parse, counted
from matchlight.core.pacing import pause
from matchlight.core.text.lines import TextLines

__all__ = [
    "FIRST_ROWS",
    "SegmentReader",
    "head_segments",
    "load_comparison",
    "read_column",
    "scan_column",
    "scan_comparison",
    "stream_column",
]


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
    if SURROGATES.search(name) is None:
        return name, None
    # From a file name or command line argument with bytes that are not UTF-8.
    name = SURROGATES.sub("\ufffd", name)
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


def read_column(
    spec: InputSpec,
    *,
    max_rows: LineLimit | None = None,
    cancel: threading.Event | None = None,
) -> TextColumn:
    """Read one input file (or one column of it) into a :class:`TextColumn`.

    The display name is ``spec.name`` if given, else the column name for a column given by
    name, else the file's stem (plus ``#N`` for a column given by number). The file is read as
    a stream of blocks (:class:`_Stream`), so that no single call decodes or splits all of it
    while other threads wait for the interpreter. A caller that knows how many rows to expect
    passes ``max_rows``: a file with more lines (or CSV rows) is refused as soon as they are
    read, before they take memory as segments. ``cancel`` stops the read between blocks
    (:class:`~core.io.files.ReadCancelled`). The lines are kept as
    :class:`~core.text.lines.TextLines` (their UTF-8 bytes: half the memory of the strings),
    encoded a batch at a time as they are read, so a whole file's strings never exist at once.
    """
    fmt = resolve_format(spec)
    if fmt in COLUMNAR_FORMATS:
        scan = scan_column(spec)
        lines = TextLines.of(stream_column(scan))
        return TextColumn(scan.name, spec.path, lines, scan.encoding, False, scan.warnings)
    if max_rows is not None:
        return _read_whole(spec, max_rows=max_rows)
    stream = _Stream(spec, fmt, cancel=cancel)
    return stream.column(TextLines.of(stream))


def _read_whole(spec: InputSpec, *, max_rows: LineLimit | None = None) -> TextColumn:
    """:func:`read_column` of a text, TSV, CSV or JSON Lines input, read whole: for a small
    input with a row limit (labels), and the oracle the streamed reading is tested against."""
    path = spec.path
    fmt = resolve_format(spec)
    _check_column_choice(spec, fmt)
    data = read_input_bytes(path, max_lines=None if fmt == "csv" else max_rows)
    text, encoding, detected = decode_bytes(data, path=path)
    del data
    parse = Parse(spec, fmt, [text], max_rows=max_rows)
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


class _Stream:
    """One text, TSV, CSV or JSON Lines input, its segments a batch at a time.

    Its bytes are checked and decoded a block at a time (:func:`checked_blocks`), so a big file
    never goes through one long decode or split. A file that is not UTF-8 (nor UTF-16/32 with a
    byte-order mark) is read whole as :func:`decode_bytes` reads it, to detect its encoding or
    name its first bad byte, when it is at most :data:`MAX_INPUT_BYTES`; the segments yielded
    before that are not yielded again. Those were decoded as UTF-8: when they were not all
    ASCII (which every detected encoding decodes alike) and ``held`` says a caller keeps them,
    a file whose encoding is detected is refused naming its first bad byte instead. Once
    iterated, :attr:`found`, :attr:`count`, :meth:`warnings` and :meth:`column` tell what was
    read.
    """

    def __init__(
        self,
        spec: InputSpec,
        fmt: str,
        *,
        cancel: threading.Event | None = None,
        held: bool = True,
    ) -> None:
        _check_column_choice(spec, fmt)
        self.spec, self.fmt = spec, fmt
        self.found = StreamEncoding()
        self.count = 0
        self.identity: os.stat_result | None = None
        self._cancel, self._held = cancel, held
        self._parse: Parse | None = None
        self._ascii = True

    def _blocks(self, blocks: Iterator[str]) -> Iterator[str]:
        for block in blocks:
            self._ascii = self._ascii and block.isascii()
            pause()  # between two blocks' parsing: the window's turn first (core.pacing)
            yield block

    def __iter__(self) -> Iterator[list[str]]:
        path = self.spec.path
        if not path:
            raise InputError("no file name given")
        try:
            info = self.identity = check_regular(path)
            try:
                blocks = checked_blocks(
                    path, info, self.found, held=self._held, cancel=self._cancel
                )
                self._parse = Parse(self.spec, self.fmt, self._blocks(blocks))
                try:
                    for segments in self._parse:
                        self.count += len(segments)
                        yield segments
                except InputError:
                    # The app checks a file's bytes before it parses it: a problem with the
                    # bytes further on is the one to report.
                    for _ in blocks:
                        pass
                    raise
            except Undecodable as problem:
                if info.st_size > MAX_INPUT_BYTES:
                    raise InputError(problem.message, path) from None
                yield from self._whole(path, problem)
        except FileError as error:
            raise InputError(error.problem, path, error.line) from None

    def _whole(self, path: str, problem: Undecodable) -> Iterator[list[str]]:
        data = read_input_bytes(path)
        text, encoding, detected = decode_bytes(data, path=path)
        if self.count and self._held and not self._ascii:
            raise InputError(problem.message, path)  # the rows kept were decoded as UTF-8
        codec, skip = codec_of(data, encoding)
        del data
        self.found = StreamEncoding(encoding, detected, codec, skip)
        self._parse = Parse(self.spec, self.fmt, [text])
        del text
        seen, self.count = self.count, 0
        for segments in self._parse:
            if seen >= len(segments):
                seen -= len(segments)
                self.count += len(segments)
                continue
            rest = segments[seen:] if seen else segments
            self.count += len(segments)
            seen = 0
            yield rest

    def warnings(self) -> tuple[str, ...]:
        """The column's warnings (with its name's), once it was read to its end."""
        warnings = [_detected_warning(self.found.encoding)] if self.found.detected else []
        if self._parse is not None:
            warnings += self._parse.warnings()
        note = _display_name(self.spec)[1]
        if note is not None:
            warnings.append(note)
        return tuple(warnings)

    def column(self, lines: Sequence[str]) -> TextColumn:
        """The :class:`TextColumn` of ``lines``, all that was read."""
        return TextColumn(
            name=_display_name(self.spec)[0],
            path=self.spec.path,
            lines=lines,
            encoding=self.found.encoding,
            detected=self.found.detected,
            warnings=self.warnings(),
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
        unit = "line" if resolve_format(spec) == "text" else "record"
        row = f"  {label} ({role}): {counted(count, unit)}"
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


def _comparison(
    read: Callable[[InputSpec], _Column],
    count: Callable[[_Column], int],
    source: InputSpec | None,
    references: Sequence[InputSpec],
    systems: Sequence[InputSpec],
) -> tuple[_Column | None, tuple[_Column, ...], tuple[_Column, ...]]:
    """Every input ``read``, named uniquely per role, checked to have the same ``count``."""
    _require_inputs(references, systems)
    src = None if source is None else read(source)
    refs = _unique_names([read(s) for s in references], "reference")
    syss = _unique_names([read(s) for s in systems], "system")
    _check_counts(
        None if source is None or src is None else (source, src),
        list(zip(references, refs, strict=True)),
        list(zip(systems, syss, strict=True)),
        count,
    )
    return src, refs, syss


#: Rows of every input :func:`load_comparison` reads before it hands them to ``on_first``.
FIRST_ROWS = 1_000


def load_comparison(
    *,
    source: InputSpec | None,
    references: Sequence[InputSpec],
    systems: Sequence[InputSpec],
    on_first: Callable[[Comparison], None] | None = None,
    first_rows: int = FIRST_ROWS,
    cancel: threading.Event | None = None,
) -> Comparison:
    """Read every input and check that all have the same number of segments.

    Raises :class:`InputError` for the first unreadable input, or for differing counts with a
    message listing every file, its role and its count. Duplicate names within the references
    or within the systems get `` (2)``, `` (3)``, ... appended, noted in the column's warnings.

    With ``on_first``, the inputs are read in step until each has ``first_rows`` segments, and
    ``on_first`` gets a :class:`Comparison` of those (named as the whole will be, without the
    warnings, which need the whole), so that a caller can show them while the rest is read. It
    is not called when an input has fewer. ``cancel`` stops the read between blocks
    (:class:`~core.io.files.ReadCancelled`).
    """
    if on_first is None:

        def read(spec: InputSpec) -> TextColumn:
            return read_column(spec, cancel=cancel)

    else:
        read = _InStep(source, references, systems, first_rows, on_first, cancel).read
    src, refs, syss = _comparison(
        read, lambda column: len(column.lines), source, references, systems
    )
    return Comparison(source=src, references=refs, systems=syss)


class _InStep:
    """The inputs of a comparison read in step up to ``first_rows`` segments each (handed to
    ``on_first``), then each to its end (:meth:`read`, in the order of the specs)."""

    def __init__(
        self,
        source: InputSpec | None,
        references: Sequence[InputSpec],
        systems: Sequence[InputSpec],
        first_rows: int,
        on_first: Callable[[Comparison], None],
        cancel: threading.Event | None,
    ) -> None:
        _require_inputs(references, systems)
        self._specs = [s for s in (source, *references, *systems) if s is not None]
        self._source = source is not None
        self._n_refs = len(references)
        self._first_rows = max(1, first_rows)
        self._on_first = on_first
        self._cancel = cancel
        self._read: dict[int, TextColumn] = {}
        self._streams: list[tuple[_Stream | None, Iterator[list[str]], list[str]]] = []
        self._started = False
        self._next = 0

    def read(self, spec: InputSpec) -> TextColumn:
        """The next input (``spec`` is the next of the specs), read whole."""
        if not self._started:
            self._started = True
            self._start()
        index, self._next = self._next, self._next + 1
        if spec is not self._specs[index]:
            raise RuntimeError("the inputs are read in another order than given")
        stream, batches, lines = self._streams[index]
        if stream is None:
            return self._read.pop(index)
        self._streams[index] = (stream, iter(()), [])
        return stream.column(TextLines.of(itertools.chain([lines], batches)))

    def _start(self) -> None:
        """Read the first rows of every input; hand them over when every input has them."""
        heads: list[TextColumn] = []
        for index, spec in enumerate(self._specs):
            fmt = resolve_format(spec)
            if fmt in COLUMNAR_FORMATS:
                self._read[index] = column = read_column(spec, cancel=self._cancel)
                self._streams.append((None, iter(()), []))
                heads.append(replace(column, lines=column.lines[: self._first_rows]))
                continue
            stream = _Stream(spec, fmt, cancel=self._cancel)
            batches = iter(stream)
            lines: list[str] = []
            while len(lines) < self._first_rows and (batch := next(batches, None)) is not None:
                lines.extend(batch)
            self._streams.append((stream, batches, lines))
            column = stream.column(tuple(lines[: self._first_rows]))
            heads.append(replace(column, warnings=()))
        if any(len(c.lines) < self._first_rows for c in heads):
            return  # a short input (or unequal counts): nothing to show before the whole
        src = heads[0] if self._source else None
        rest = heads[1:] if self._source else heads
        refs = _unique_names(rest[: self._n_refs], "reference")
        syss = _unique_names(rest[self._n_refs :], "system")
        self._on_first(
            Comparison(
                source=src,
                references=tuple(replace(c, warnings=()) for c in refs),
                systems=tuple(replace(c, warnings=()) for c in syss),
            )
        )


# --------------------------------------------------------------------------- streams
#
# The command line reads its inputs twice, never holding them: a first pass checks everything
# read_column checks and counts the segments (scan_column), a second pass reads the segments a
# batch at a time while they are scored (stream_column), and refuses a file that changed in
# between. Counting first lets every problem, and unequal line counts, be reported before any
# scoring starts, and gives the corpus means the count numpy's summation needs.


def scan_column(spec: InputSpec) -> ColumnScan:
    """Check one input as :func:`read_column` does and count its segments, without holding it.

    The file is read as a stream of blocks (:class:`_Stream`); one that is not UTF-8 (nor
    UTF-16/32 with a byte-order mark) is read whole as the app reads it (up to
    :data:`MAX_INPUT_BYTES`), to detect its encoding or name its first bad byte. Raises
    :class:`InputError`.
    """
    fmt = resolve_format(spec)
    if fmt in COLUMNAR_FORMATS:
        return _scan_parquet(spec)
    stream = _Stream(spec, fmt, held=False)
    for _ in stream:
        pass
    found = stream.found
    return ColumnScan(
        spec=spec,
        name=_display_name(spec)[0],
        fmt=fmt,
        encoding=found.encoding,
        detected=found.detected,
        segments=stream.count,
        warnings=stream.warnings(),
        codec=found.codec,
        skip=found.skip,
        identity=stream.identity,
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
    naming its row. With ``found``, the values are also checked (:class:`Findings`) and what
    was found is put there."""
    from matchlight.core.io.columnar import ColumnarError, ParquetColumn  # pyarrow if asked

    path = spec.path
    try:
        now = check_regular(path)
        if identity is not None and _identity_of(now) != _identity_of(identity):
            raise changed_since_scan(path, "a different size, time or file")
        column = ParquetColumn(path, spec.column)
        findings = None if found is None else Findings("segment", place="row")
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
                findings.add(Batch(segments, row + 1), [])
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


def stream_column(scan: ColumnScan) -> Generator[list[str], None, None]:
    """The segments of an input that :func:`scan_column` checked, a batch at a time, exactly
    as :func:`read_column` would read them. Raises :class:`InputError` when the file is no
    longer the file that was checked (another size or time, or another number of segments)."""
    if scan.fmt in COLUMNAR_FORMATS:
        yield from _parquet_batches(scan.spec, scan.identity)
        return
    total = 0
    try:
        for segments in Parse(scan.spec, scan.fmt, decoded_blocks(scan), check=False):
            total += len(segments)
            if total > scan.segments:
                raise changed_since_scan(
                    scan.path, f"it now has more than {scan.segments:,} segments"
                )
            yield segments
    except FileError as error:
        raise InputError(error.problem, scan.path, error.line) from None
    if total != scan.segments:
        raise changed_since_scan(scan.path, f"it now has {total:,} segments, not {scan.segments:,}")


def head_segments(spec: InputSpec, count: int) -> list[str]:
    """The first ``count`` segments of an input not scanned yet, as :func:`read_column` reads
    them, reading no further than needed (all of a file that is not UTF-8, to detect its
    encoding). Raises :class:`InputError`."""
    fmt = resolve_format(spec)
    columnar = fmt in COLUMNAR_FORMATS
    batches = _parquet_batches(spec, None) if columnar else iter(_Stream(spec, fmt))
    lines: list[str] = []
    try:
        for batch in batches:
            lines += batch
            if len(lines) >= count:
                break
    finally:
        close = getattr(batches, "close", None)  # both are generators: the file is closed
        if close is not None:
            close()
    return lines[:count]


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


def scan_comparison(
    *,
    source: InputSpec | None,
    references: Sequence[InputSpec],
    systems: Sequence[InputSpec],
    scan: Callable[[InputSpec], ColumnScan] = scan_column,
) -> ComparisonScan:
    """:func:`scan_column` every input and check that all have the same number of segments,
    with :func:`load_comparison`'s messages, names and warnings; nothing is held. ``scan`` is
    called for the source, the references and the systems in that order (a caller may have
    started the scans elsewhere; the first input that fails is the one reported)."""
    src, refs, syss = _comparison(scan, lambda column: column.segments, source, references, systems)
    return ComparisonScan(source=src, references=refs, systems=syss)
