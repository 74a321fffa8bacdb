"""ScopedCache: values per key for one scope at a time (the summary's corpus figures per column,
its histogram's column, its clusters per scope)."""

from __future__ import annotations

import gc
import weakref

import numpy as np

from matchlight.gui.charts.scopedcache import ScopedCache


class _Table:
    """Stands for a ScoreTable: compared by identity, and can be weakly referenced."""


def test_values_are_kept_while_the_scope_is_the_same() -> None:
    cache: ScopedCache[str, int] = ScopedCache()
    table = _Table()
    cache.for_scope(table, 1000)["bleu"] = 1
    # The same table, and a row count equal in value but another int object.
    assert cache.for_scope(table, int("1000")) == {"bleu": 1}
    assert cache.for_scope(table, 1001) == {}  # a row more: computed again
    cache.for_scope(table, 1001)["bleu"] = 2
    assert cache.for_scope(_Table(), 1001) == {}  # another table


def test_arrays_are_compared_by_identity_not_by_value() -> None:
    cache: ScopedCache[str, str] = ScopedCache()
    rows = np.arange(5)
    cache.for_scope(rows)["k"] = "drawn"
    assert cache.for_scope(rows) == {"k": "drawn"}
    # An equal array is another filter (and its == is element-wise: never asked).
    assert cache.for_scope(np.arange(5)) == {}
    assert cache.for_scope(None) == {}
    cache.for_scope(None)["k"] = "all rows"
    assert cache.for_scope(None) == {"k": "all rows"}


def test_the_scope_is_held_so_its_address_is_never_reused_while_it_is_the_key() -> None:
    cache: ScopedCache[str, int] = ScopedCache()
    table = _Table()
    alive = weakref.ref(table)
    cache.for_scope(table)["x"] = 1
    del table
    gc.collect()
    assert alive() is not None
    cache.clear()
    gc.collect()
    assert alive() is None


def test_discard_forgets_one_value_and_clear_all() -> None:
    cache: ScopedCache[str, int] = ScopedCache()
    table = _Table()
    values = cache.for_scope(table)
    values.update(bleu=1, mqm=2)
    cache.discard("mqm")
    cache.discard("missing")  # nothing kept under it: no error
    assert cache.for_scope(table) == {"bleu": 1}
    cache.clear()
    assert cache.for_scope(table) == {}
