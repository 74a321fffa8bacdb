"""Values a chart computes once per key, kept while what they are computed from stays the same.

A chart redraws on every refresh tick; most of what it would compute is what it computed last
time. :class:`ScopedCache` keeps it: the values of one *scope* (the table, how many of its rows
are scored, the filter's rows), per key (a column), until the scope changes or a key's input
does (:meth:`ScopedCache.discard`).
"""

from __future__ import annotations

from typing import Generic, TypeVar

__all__ = ["ScopedCache"]

K = TypeVar("K")
V = TypeVar("V")

# Scope parts compared by value; any other part is compared by identity.
_PLAIN = (int, float, str, bytes, bool, type(None))


def _same(a: tuple[object, ...], b: tuple[object, ...]) -> bool:
    return len(a) == len(b) and all(
        x is y or (isinstance(x, _PLAIN) and type(x) is type(y) and x == y)
        for x, y in zip(a, b, strict=True)
    )


class ScopedCache(Generic[K, V]):
    """Values per key for one scope at a time: a new scope starts with none.

    The scope's parts are held and compared by identity (numbers, strings and None by value), so
    a table or a filter array is never mistaken for one that was freed at the same address, and
    arrays are never compared element by element.
    """

    def __init__(self) -> None:
        self._scope: tuple[object, ...] | None = None
        self._values: dict[K, V] = {}

    def for_scope(self, *scope: object) -> dict[K, V]:
        """The values kept for ``scope`` (none if it is not the last scope asked for); the dict
        is the cache's own: what the caller adds to it is kept."""
        if self._scope is None or not _same(scope, self._scope):
            self._scope = scope
            self._values = {}
        return self._values

    def discard(self, key: K) -> None:
        """Forget the value of ``key`` (its input changed), in whatever scope it was kept."""
        self._values.pop(key, None)

    def clear(self) -> None:
        """Forget every value and the scope (and let go of the objects the scope held)."""
        self._scope = None
        self._values = {}
