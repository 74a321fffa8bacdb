"""Parquet, read and written through pyarrow (the optional extra ``matchlight[parquet]``).

Only this module imports pyarrow, and only when a Parquet file is read or written, so every
other command starts without it. Reading gives one text column of a file a batch at a time
(:class:`ParquetColumn`; :mod:`core.io.inputs` checks the values as it checks any input);
writing takes record batches of per-segment rows (:class:`ParquetRows`). Problems are
:class:`ColumnarError`, with a message for the user.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from types import ModuleType
from typing import Any, BinaryIO, Final

import numpy as np

__all__ = [
    "INSTALL_HINT",
    "BatchSpool",
    "ColumnarError",
    "ParquetColumn",
    "ParquetRows",
    "empty_batch",
    "pyarrow_modules",
    "record_batch",
]

#: How to get pyarrow, for messages.
INSTALL_HINT: Final = "pip install 'matchlight[parquet]'"

#: Rows per batch read from a Parquet column.
READ_BATCH: Final = 8192
#: The fewest rows of a row group written (a few megabytes of scores).
ROW_GROUP: Final = 65536


class ColumnarError(Exception):
    """A Parquet file cannot be read or written as asked; ``str()`` says why."""


def pyarrow_modules(what: str) -> tuple[ModuleType, ModuleType]:
    """``(pyarrow, pyarrow.parquet)``, or :class:`ColumnarError` saying how to install them;
    ``what`` is what needs them ("reading Parquet")."""
    try:
        import pyarrow
        import pyarrow.parquet
    except ImportError:
        raise ColumnarError(f"{what} needs pyarrow: {INSTALL_HINT}") from None
    return pyarrow, pyarrow.parquet


class ParquetColumn:
    """One text column of a Parquet file, read a batch at a time.

    ``column`` is a column name, or a 1-based number when no column has that name. The column
    must hold text (a string type, or a dictionary of strings).
    """

    def __init__(self, path: str, column: str | None) -> None:
        pa, pq = pyarrow_modules("reading Parquet")
        self._pa = pa
        try:
            self._file = pq.ParquetFile(path)
        except (OSError, pa.ArrowException) as error:
            raise ColumnarError(f"is not a readable Parquet file ({error})") from None
        schema = self._file.schema_arrow
        names = list(schema.names)
        listed = ", ".join(repr(n) for n in names) or "(none)"
        if column is None:
            raise ColumnarError(
                f"Parquet input needs a column: add #NAME to the path; the columns are: {listed}"
            )
        if column in names:
            if names.count(column) > 1:
                raise ColumnarError(f"has more than one column named {column!r}")
            self.name = column
        elif column.isascii() and column.isdigit() and 1 <= int(column) <= len(names):
            self.name = names[int(column) - 1]
        else:
            raise ColumnarError(f"has no column {column!r}; its columns are: {listed}")
        kind = schema.field(self.name).type
        if pa.types.is_dictionary(kind):
            kind = kind.value_type
        if not (pa.types.is_string(kind) or pa.types.is_large_string(kind)):
            raise ColumnarError(f"column {self.name!r} holds {kind}, not text")
        self.rows: int = self._file.metadata.num_rows

    def batches(self) -> Iterator[list[str | None]]:
        """The column's values in order (None for a null), a batch at a time."""
        try:
            for batch in self._file.iter_batches(batch_size=READ_BATCH, columns=[self.name]):
                yield batch.column(0).to_pylist()
        except (OSError, self._pa.ArrowException) as error:
            raise ColumnarError(f"cannot be read ({error})") from None


def record_batch(names: Sequence[str], kinds: Sequence[str], columns: Sequence[Any]) -> Any:
    """A record batch of ``columns`` named ``names``, each of a kind: ``"text"`` (strings),
    ``"int"`` or ``"float"`` (numbers; NaN is written as null, a missing value)."""
    pa, _ = pyarrow_modules("writing Parquet")
    types = {"text": pa.string(), "int": pa.int64(), "float": pa.float64()}
    arrays = []
    for values, kind in zip(columns, kinds, strict=True):
        if kind == "text":
            arrays.append(pa.array(values, type=types[kind]))
            continue
        data = np.asarray(values, dtype=np.float64 if kind == "float" else None)
        missing = np.isnan(data) if data.dtype.kind == "f" else None
        if kind == "int" and data.dtype.kind == "f":
            data = np.where(np.isnan(data), 0, data).astype(np.int64)
        arrays.append(pa.array(data, type=types[kind], mask=missing))
    return pa.record_batch(arrays, names=list(names))


class ParquetRows:
    """A Parquet file written from record batches of one schema (:func:`record_batch`):
    batches are gathered into row groups of at least :data:`ROW_GROUP` rows."""

    def __init__(self, sink: BinaryIO) -> None:
        _, pq = pyarrow_modules("writing Parquet")
        self._pq = pq
        self._sink = sink
        self._writer: Any = None
        self._pending: list[Any] = []
        self._rows = 0

    def write(self, batch: Any) -> None:
        if not batch.num_rows:
            return
        self._pending.append(batch)
        self._rows += batch.num_rows
        if self._rows >= ROW_GROUP:
            self._flush()

    def _flush(self) -> None:
        if not self._pending:
            return
        pa, _ = pyarrow_modules("writing Parquet")
        table = pa.Table.from_batches(self._pending)
        if self._writer is None:
            self._writer = self._pq.ParquetWriter(self._sink, table.schema, compression="zstd")
        self._writer.write_table(table, row_group_size=max(ROW_GROUP, table.num_rows))
        self._pending, self._rows = [], 0

    def close(self, schema: Any) -> None:
        """Write what is left; ``schema`` is the file's when no row was written at all."""
        self._flush()
        if self._writer is None:
            self._writer = self._pq.ParquetWriter(self._sink, schema, compression="zstd")
        self._writer.close()


def empty_batch(names: Sequence[str], kinds: Sequence[str]) -> Any:
    """A record batch of no rows with the columns of :func:`record_batch`."""
    return record_batch(names, kinds, [[] for _ in names])


class BatchSpool:
    """Record batches kept aside in a scratch file (an Arrow IPC stream), read back in order
    with :meth:`replay`: the rows of the systems after the first, until the first is done."""

    def __init__(self, scratch: BinaryIO) -> None:
        self._scratch = scratch
        self._writer: Any = None

    def write(self, batch: Any) -> None:
        if not batch.num_rows:
            return
        if self._writer is None:
            pa, _ = pyarrow_modules("writing Parquet")
            self._writer = pa.ipc.new_stream(self._scratch, batch.schema)
        self._writer.write_batch(batch)

    def replay(self) -> Iterator[Any]:
        if self._writer is None:
            return
        self._writer.close()
        pa, _ = pyarrow_modules("writing Parquet")
        self._scratch.seek(0)
        yield from pa.ipc.open_stream(self._scratch)
