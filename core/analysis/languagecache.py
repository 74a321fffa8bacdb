"""The language check's model and narrow tables, kept in a cache between runs.

py3langid's model ships LZMA-compressed in its wheel (about a second of decompressing), and the
narrow table of an expectation (:mod:`core.analysis.language`) takes a k-means and a pass over
the whole table. Both are stored in a :class:`Cache` (the command line and the app pass
:class:`core.io.usercache.UserCache`, whose files are mapped into memory) under a key made of
what they are made from: the model's content, py3langid's version, this format, the narrow
table's exact columns and grouping. Read back, the model's arrays are views of the cached data
(nothing is copied, and forked workers share the pages) and every array is checked for its type
and shape; a narrow table is checked against the model. Anything that does not fit is ignored,
made again and stored over it.
"""

from __future__ import annotations

import hashlib
import io
import json
import math
import zipfile
from array import array
from collections.abc import Sequence
from functools import lru_cache
from typing import Any, Final, Protocol

import numpy as np
import numpy.typing as npt

__all__ = [
    "CHECK_STEP",
    "MODEL_CACHE",
    "Cache",
    "Table",
    "group_table",
    "groups_bytes",
    "groups_from",
    "groups_key",
    "groups_name",
    "identifier_bytes",
    "identifier_from",
    "load_identifier",
    "model_key",
]

IntArray = npt.NDArray[np.int64]
#: A table of feature scores: py3langid's own is float16, the narrow tables float32.
Table = npt.NDArray[np.floating[Any]]


class Cache(Protocol):
    """Where the model's arrays and the narrow tables are kept between runs: ``get`` gives
    back what ``put`` stored under a name and key, or None."""

    def get(self, name: str, key: str) -> bytes | memoryview | None: ...

    def put(self, name: str, key: str, data: bytes) -> None: ...


#: The cached model's name; its key is :func:`model_key`.
MODEL_CACHE: Final = "py3langid-model"
#: Changes when what is cached, or how, changes (the old files are then ignored).
_CACHE_FORMAT: Final = "1"
#: The largest model file read to make its key.
_MAX_MODEL_BYTES: Final = 256 << 20
#: The identifier's arrays as the cache holds them, by its constructor's arguments.
_ARRAYS: Final = ("nb_ptc", "nb_pc", "tk_nextmove", "tk_row", "tk_output")
#: Where each array starts in the cached data (a multiple of this many bytes).
_ALIGN: Final = 64


def load_identifier(cache: Cache | None) -> Any:
    """py3langid's identifier with probabilities: from ``cache`` when it holds the model's
    arrays, else decompressed from the wheel's file (then stored in ``cache``)."""
    from py3langid.langid import MODEL_FILE, LanguageIdentifier

    if cache is None:
        return LanguageIdentifier.from_model_file(MODEL_FILE, norm_probs=True)
    key = model_key()
    data = cache.get(MODEL_CACHE, key)
    identifier = None if data is None else identifier_from(data)
    del data  # a file mapped and rejected is let go before it is written again
    if identifier is None:
        identifier = LanguageIdentifier.from_model_file(MODEL_FILE, norm_probs=True)
        cache.put(MODEL_CACHE, key, identifier_bytes(identifier))
    return identifier


@lru_cache(maxsize=1)
def model_key() -> str:
    """The model's content, py3langid's version and the cache format, hashed: a model file
    or a py3langid that changes makes another key."""
    import py3langid
    from py3langid.langid import MODEL_DIR, MODEL_FILE

    path = MODEL_DIR / MODEL_FILE
    digest = hashlib.sha256(f"{_CACHE_FORMAT}|{py3langid.__version__}|".encode())
    with path.open("rb") as handle:
        digest.update(handle.read(_MAX_MODEL_BYTES))
    return digest.hexdigest()[:32]


def _item_type(values: Any) -> str:
    """The item type of an :class:`array.array` or a memoryview (py3langid's automaton)."""
    return str(getattr(values, "typecode", None) or values.format)


def identifier_bytes(identifier: Any) -> bytes:
    """The identifier's model as its constructor takes it: the length of a JSON header, the
    header (the labels, and each array's type, shape and place), then the arrays' bytes, each
    aligned, so that reading it back copies nothing (:func:`identifier_from`)."""
    arrays = [
        np.ascontiguousarray(identifier.nb_ptc),
        np.ascontiguousarray(identifier.nb_pc),
        np.frombuffer(identifier.tk_nextmove, dtype=_item_type(identifier.tk_nextmove)),
        np.frombuffer(identifier.tk_row, dtype=_item_type(identifier.tk_row)),
        np.asarray(identifier.tk_output, dtype=np.int64),
    ]
    layout: list[list[Any]] = []
    size = 0
    for name, values in zip(_ARRAYS, arrays, strict=True):
        layout.append([name, values.dtype.str, list(values.shape), size])
        size += -(-values.nbytes // _ALIGN) * _ALIGN
    head = json.dumps({"classes": list(identifier.nb_classes), "arrays": layout}).encode()
    body = bytearray(size)
    for (_, _, _, at), values in zip(layout, arrays, strict=True):
        body[at : at + values.nbytes] = values.tobytes()
    return len(head).to_bytes(8, "little") + head + bytes(body)


def identifier_from(data: bytes | memoryview) -> Any:
    """The identifier of :func:`identifier_bytes`'s data, its arrays views of ``data`` (the
    automaton's as memoryviews, which py3langid indexes as fast as its own arrays); None
    when it does not make a model (another layout, wrong types or shapes)."""
    from py3langid.langid import LanguageIdentifier

    try:
        size = int.from_bytes(data[:8], "little")
        head = json.loads(bytes(data[8 : 8 + size]))
        classes = head["classes"]
        found = {}
        for name, kind, shape, at in head["arrays"]:
            dtype = np.dtype(kind)
            if dtype.kind not in "uif" or name not in _ARRAYS:
                return None
            count = math.prod(shape)
            found[name] = np.frombuffer(data, dtype, count, 8 + size + at).reshape(shape)
        ptc, pc, nextmove, row, output = (found[name] for name in _ARRAYS)
    except (ValueError, KeyError, TypeError):
        return None
    shaped = (
        isinstance(classes, list)
        and all(isinstance(label, str) for label in classes)
        and ptc.ndim == 2
        and ptc.shape[1] == len(pc) == len(classes) > 0
        and _same_items(nextmove)
        and _same_items(row)
        and nextmove.ndim == row.ndim == output.ndim == 1
        and len(output) == len(row) > 0
        and len(nextmove) % 256 == 0
        and int(row.max()) < len(nextmove) // 256
        and int(output.min()) >= -1
        and int(output.max()) < len(ptc)
        and int(nextmove.max()) < len(row)
    )
    if not shaped:
        return None
    moves = nextmove.data.cast("B").cast(nextmove.dtype.char)
    rows = row.data.cast("B").cast(row.dtype.char)
    return LanguageIdentifier(
        ptc, np.array(pc), classes, moves, output.tolist(), norm_probs=True, tk_row=rows
    )


def _same_items(values: npt.NDArray[Any]) -> bool:
    """Whether ``values`` can be indexed as an :class:`array.array` of the same type
    (unsigned, native size, aligned)."""
    char = values.dtype.char
    return (
        char in "BHILQ"
        and array(char).itemsize == values.dtype.itemsize
        and values.dtype.isnative
        and values.ctypes.data % values.dtype.itemsize == 0
    )


def groups_name(accepted: frozenset[str]) -> str:
    """The cached narrow table's name for an expectation's ``accepted`` labels."""
    return f"language-groups-{'_'.join(sorted(accepted))}"


def groups_key(exact: Sequence[int], grouping: str) -> str:
    """What a narrow table is made from: the model, the exact columns, how it is grouped."""
    made_of = f"{model_key()}|{grouping}|{list(exact)}"
    return hashlib.sha256(made_of.encode()).hexdigest()[:32]


#: A cached narrow table's group columns are checked against the model on every this-many-th
#: feature (a check of the file, not a proof: its checksum and key are that).
CHECK_STEP: Final = 97


def group_table(
    table: Table, exact: Sequence[int], groups: Sequence[IntArray]
) -> npt.NDArray[np.float32]:
    """The narrow table: ``table``'s ``exact`` columns, then per group the largest score of
    its members, feature by feature (float32; py3langid's float16 scores convert exactly)."""
    narrow = np.empty((len(table), len(exact) + len(groups)), np.float32)
    narrow[:, : len(exact)] = table[:, list(exact)]
    for g, members in enumerate(groups):
        narrow[:, len(exact) + g] = table[:, members].max(axis=1)
    return narrow


def groups_bytes(table: npt.NDArray[np.float32], groups: Sequence[IntArray]) -> bytes:
    """A narrow table and its groups (the members of each, one after the other), as ``.npz``."""
    buffer = io.BytesIO()
    np.savez(
        buffer,
        table=table,
        members=np.concatenate(groups),
        sizes=np.array([len(g) for g in groups], np.int64),
    )
    return buffer.getvalue()


def groups_from(
    data: bytes | memoryview, model_table: Table, exact: Sequence[int], rest: IntArray
) -> tuple[npt.NDArray[np.float32], list[IntArray]] | None:
    """:func:`groups_bytes`'s table and groups when they fit the model's table: the groups
    split ``rest`` and the table is as wide as the exact columns and the groups, with those
    exact columns equal to the model's; else None (the caller makes them again)."""
    try:
        with np.load(io.BytesIO(data), allow_pickle=False) as arrays:
            table, members, sizes = arrays["table"], arrays["members"], arrays["sizes"]
    except (OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile):
        return None
    fits = (
        table.dtype == np.float32
        and table.shape == (len(model_table), len(exact) + len(sizes))
        and members.dtype.kind == "i"
        and sizes.dtype.kind == "i"
        and bool((sizes > 0).all())
        and int(sizes.sum()) == len(members)
        and np.array_equal(np.sort(members), np.sort(rest))
        and np.array_equal(table[:, : len(exact)], model_table[:, list(exact)])
    )
    if not fits:
        return None
    groups = np.split(members.astype(np.int64), np.cumsum(sizes)[:-1])
    sample = group_table(model_table[::CHECK_STEP], exact, groups)
    if not np.array_equal(table[::CHECK_STEP], sample):
        return None
    return table, groups
