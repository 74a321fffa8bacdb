"""matchlight.core.analysis.textsort (a SearchColumn's sort ranks and order) sorts rows as
``sorted`` does: case-folded first, then as written, equal texts in segment order."""

from __future__ import annotations

import threading

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from matchlight.core.analysis import textsort
from matchlight.core.analysis.textsearch import SearchColumn
from matchlight.core.text.lines import TextLines
from tests.conftest import SHARED_DATA
from tests.kit import read_lines


def reference_order(strings: list[str], descending: bool) -> list[int]:
    """Rows sorted case-folded first, then as written; equal texts in segment order."""
    key = {i: (s.casefold(), s) for i, s in enumerate(strings)}
    ascending = sorted(range(len(strings)), key=key.__getitem__)
    if not descending:
        return ascending
    return sorted(range(len(strings)), key=key.__getitem__, reverse=True)  # stable, reversed


def ranked_order(strings: list[str], descending: bool) -> list[int]:
    """The column's sort order, checked against numpy's stable argsort of its ranks, and the
    same column as TextLines (keyed by its UTF-8 bytes) ranked alike."""
    column = SearchColumn(strings)
    order = column.sort_order(descending).tolist()
    ranks = column.sort_ranks()
    assert order == np.argsort(-ranks if descending else ranks, kind="stable").tolist()
    as_lines = SearchColumn(TextLines.of([strings]))
    np.testing.assert_array_equal(as_lines.sort_ranks(), ranks)
    return order


@pytest.mark.parametrize("distinct", [1, 300, 1 << 16, (1 << 16) + 1, 1 << 20])
def test_stable_argsort_of_ranks_is_numpys(distinct: int) -> None:
    """One 16-bit radix sort, or two (low half, then high half) past 65,536 distinct ranks."""
    rng = np.random.default_rng(distinct)
    ranks = rng.integers(0, distinct, 200_000).astype(np.int64)
    ranks[:2] = 0, distinct - 1
    got = textsort.stable_argsort(ranks, distinct)
    np.testing.assert_array_equal(got, np.argsort(ranks, kind="stable"))


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.sampled_from(
            [
                *["a", "A", "b", "B", "ß", "SS", "ss", "", " a", "a ", "a\x00", "é", "\ufb01"],
                *["fi", "\U0001f600", "\ud83d", "\uffff", "İ", "i̇", "Σ", "ς", "a\nb", "a\n"],
            ]
        ),
        max_size=30,
    ),
    st.booleans(),
    st.sampled_from([0.0, 1.0]),
)
def test_sort_ranks_order_rows_like_sorted_on_folded_then_written(
    strings: list[str], descending: bool, most_distinct: float
) -> None:
    """Equal texts ranked once (their first row sorted), or every row sorted (0.0)."""
    saved = textsort._MOST_DISTINCT
    textsort._MOST_DISTINCT = most_distinct
    try:
        ranked = ranked_order(strings, descending)
    finally:
        textsort._MOST_DISTINCT = saved
    assert ranked == reference_order(strings, descending)


@settings(max_examples=400, deadline=None)
@given(
    st.lists(
        st.builds(
            lambda head, tail: head + tail,
            st.sampled_from(["", "x" * 15, "x" * 16, "x" * 17, "é" * 8, "\U0001f600" * 4]),
            st.text(st.sampled_from(["\x00", "\x01", "a", "A", "é", "\ud83d", "\uffff", "ß"])),
        ),
        max_size=40,
    ),
    st.integers(1, 9),
    st.sampled_from([0, 16, 32, 96]),
)
def test_utf8_rows_order_like_sorted_on_their_bytes(
    strings: list[str], block: int, prefix: int
) -> None:
    """Ties over the first 16 bytes (shared heads, NULs against a row's end), blocks, and rows
    still tied after ``prefix`` bytes sorted in Python (all of them for 0)."""
    saved = textsort._SORT_BLOCK, textsort._PREFIX_BYTES
    textsort._SORT_BLOCK, textsort._PREFIX_BYTES = block, prefix
    try:
        rows = SearchColumn(strings).folded()
        order, same = textsort.byte_order(rows)
        subset = list(range(0, len(strings), 2))  # some rows only (the texts' first rows)
        sub_order, sub_same = textsort.byte_order(rows, rows=np.array(subset, dtype=np.int64))
        ranked = [ranked_order(strings, descending) for descending in (False, True)]
    finally:
        textsort._SORT_BLOCK, textsort._PREFIX_BYTES = saved
    folded = [s.casefold() for s in strings]
    assert order.tolist() == sorted(range(len(strings)), key=folded.__getitem__)
    pairs = zip(order.tolist(), order.tolist()[1:])
    assert same.tolist() == [folded[r] == folded[q] for r, q in pairs]
    assert sub_order.tolist() == sorted(subset, key=folded.__getitem__)
    pairs = zip(sub_order.tolist(), sub_order.tolist()[1:])
    assert sub_same.tolist() == [folded[r] == folded[q] for r, q in pairs]
    assert ranked == [reference_order(strings, descending) for descending in (False, True)]


@pytest.mark.parametrize("descending", [False, True])
def test_sort_ranks_on_real_data_with_repeated_and_recased_rows(descending: bool) -> None:
    lines = read_lines(SHARED_DATA / "wmt22-de-en" / "ref.txt")[:3000]
    # Repeats (equal texts keep segment order) and case variants (folded-equal, written apart).
    strings = (
        lines + lines[:500] + [s.upper() for s in lines[:300]] + [s.lower() for s in lines[:300]]
    )
    assert ranked_order(strings, descending) == reference_order(strings, descending)


def test_sorts_merge_their_sorted_blocks(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(textsort, "_SORT_BLOCK", 7)
    lines = read_lines(SHARED_DATA / "wmt22-de-en" / "ref.txt")[:400]
    strings = lines + [s.upper() for s in lines[:50]] + lines[:30]
    for descending in (False, True):
        assert ranked_order(strings, descending) == reference_order(strings, descending)


@pytest.mark.parametrize("block", [1, 2, 3, 7, 64])
def test_sorted_blocks_merge_into_the_stable_order(
    monkeypatch: pytest.MonkeyPatch, block: int
) -> None:
    monkeypatch.setattr(textsort, "_SORT_BLOCK", block)
    rng = np.random.default_rng(block)
    for size in (0, 1, 5, 50, 333):
        # Few distinct keys: long runs of equal ones across every block edge.
        keys = [str(k) for k in rng.integers(0, 6, size)]
        assert textsort._sorted_rows(keys) == sorted(range(size), key=keys.__getitem__)


def test_sort_ranks_asked_from_two_threads_are_built_once(monkeypatch: pytest.MonkeyPatch) -> None:
    lines = read_lines(SHARED_DATA / "wmt22-de-en" / "ref.txt")[:3000]
    calls: list[int] = []
    started, release = threading.Event(), threading.Event()
    real = textsort.sort_ranks

    def slow(*args: object) -> np.ndarray:
        calls.append(1)
        started.set()
        release.wait(10)
        return real(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(textsort, "sort_ranks", slow)
    column = SearchColumn(lines)
    ahead = threading.Thread(target=column.sort_ranks, kwargs={"between": lambda: None})
    ahead.start()
    started.wait(10)
    assert not column.ranks_wanted()
    results: list[np.ndarray] = []
    sort = threading.Thread(target=lambda: results.append(column.sort_ranks()))
    sort.start()
    sort.join(0.2)
    assert sort.is_alive() and column.ranks_wanted()  # waits for the ranks being built
    release.set()
    ahead.join(10)
    sort.join(10)
    assert calls == [1]
    keys = [(t.casefold(), t) for t in lines]
    order = sorted(range(len(lines)), key=keys.__getitem__)
    assert results[0][order].tolist() == sorted(results[0].tolist())
