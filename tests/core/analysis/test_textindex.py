"""matchlight.core.analysis.textindex: each n-gram's bitmap holds exactly the rows holding it, and
searches that use the index answer exactly as a search per row does."""

from __future__ import annotations

import threading

import numpy as np
import pytest
import regex as regex_module
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from matchlight.core.analysis import textindex, textsearch
from matchlight.core.analysis.textsearch import (
    SearchCancelled,
    SearchColumn,
    TextQuery,
    matching_rows,
)
from tests.conftest import SHARED_DATA
from tests.kit import read_lines

# Few characters, so that n-grams repeat; non-ASCII (2- and 3-byte UTF-8, folding to two
# characters), newlines inside rows, and empty rows.
# Digits side by side, as numbers are (the index keeps every pair of them exactly), and
# full-width digits (three bytes each in UTF-8, no pair of ASCII digits).
texts = st.text(
    st.sampled_from(["a", "b", "t", "h", "e", " ", "é", "ß", "İ", "\n", "1", "9", "2", "0", "１"])
)
needles = st.text(
    st.sampled_from(["a", "b", "t", "h", "e", " ", "é", "s", "İ", "\n", "9", "1", "0"])
)


def indexed(strings: list[str], most: int, block: int) -> SearchColumn:
    """A column with an index of its ``most`` most frequent n-grams (any frequency), built
    ``block`` rows at a time."""
    column = SearchColumn(strings)
    column._index = textindex.build_index(column.folded(), most=most, frequent=0.0, block=block)
    column._indexed = True
    return column


def per_row(strings: list[str], query: TextQuery) -> list[bool]:
    if query.regex:
        return [
            regex_module.search(query.pattern, s, regex_module.IGNORECASE) is not None
            for s in strings
        ]
    return [query.pattern.casefold() in s.casefold() for s in strings]


@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow], deadline=None)
@given(st.lists(texts, max_size=40), st.sampled_from([1, 5, 40, 255]), st.sampled_from([8, 16]))
def test_each_bitmap_holds_the_rows_holding_its_ngram(
    strings: list[str], most: int, block: int
) -> None:
    column = SearchColumn(strings)
    index = textindex.build_index(column.folded(), most=most, frequent=0.0, block=block)
    rows = [s.casefold().encode("utf-8", "surrogatepass") for s in strings]
    if index is None:
        assert not any(r.replace(b"\n", b"") for r in rows)  # no byte but newlines
        return
    assert 0 < len(index.grams) <= most
    for gram in index.grams:
        assert 1 <= len(gram) <= 3 and b"\n" not in gram
        assert index.bitmap(gram).tolist() == [gram in r for r in rows], gram
    # Every pair of ASCII digits some row holds, and every digit followed by a character that
    # is no ASCII (under the digit and 0x80): exactly the rows holding it, in order.
    digits = [b"%d" % i for i in range(10)]
    pairs = {a + b: [j for j, r in enumerate(rows) if a + b in r] for a in digits for b in digits}
    for a in digits:
        pairs[a + b"\x80"] = [
            j for j, r in enumerate(rows) if any(r[i + 1] >= 0x80 for i in _places(r, a))
        ]
    assert {pair: rows.tolist() for pair, rows in index.pairs.items()} == {
        pair: held for pair, held in pairs.items() if held
    }
    for a in digits:
        followed = [
            j
            for j, r in enumerate(rows)
            if any(r[i + 1 : i + 2] in FOLLOWING for i in _places(r, a))
        ]
        assert np.flatnonzero(index.digit_followed(a)).tolist() == followed
    # Every byte in as many rows as a byte kept is kept; then the most frequent longer ones.
    counts = {}
    for r in rows:
        counts.update({g: counts.get(g, 0) + 1 for g in _grams(r)})
    for size in ((1,), (2, 3)):
        kept = [counts[g] for g in index.grams if len(g) in size]
        for gram, count in counts.items():
            if len(gram) in size and gram not in index.grams:
                assert not kept or count <= min(kept), gram
                assert kept or len(index.grams) == most  # every place taken by bytes


def _places(row: bytes, byte: bytes) -> list[int]:
    """Where ``byte`` lies in ``row`` (but for its last byte)."""
    return [i for i in range(len(row) - 1) if row[i : i + 1] == byte]


# The bytes after a digit that NgramIndex.digit_followed looks for: an ASCII digit, or the
# first byte of a character that is no ASCII.
FOLLOWING = {b"%d" % i for i in range(10)} | {bytes((b,)) for b in range(0x80, 0x100)}


def _grams(row: bytes) -> set[bytes]:
    """The n-grams of 1 to 3 bytes in ``row`` that hold no newline."""
    return {
        row[i : i + size]
        for size in (1, 2, 3)
        for i in range(len(row) - size + 1)
        if b"\n" not in row[i : i + size]
    }


@settings(max_examples=400, suppress_health_check=[HealthCheck.too_slow], deadline=None)
@given(
    st.lists(st.tuples(texts, st.booleans()), min_size=1, max_size=40),
    needles.filter(lambda s: 1 <= len(s.encode()) <= 6),
    st.sampled_from([1, 3, 12, 255]),
    st.sampled_from([8, 16]),
    st.booleans(),
)
def test_substrings_with_the_index_equal_in_per_row(
    rows: list[tuple[str, bool]], needle: str, most: int, block: int, skipping: bool
) -> None:
    strings = [text for text, _ in rows]
    skip = np.array([s for _, s in rows]) if skipping else None
    want = np.array(per_row(strings, TextQuery(needle)))
    for column in (indexed(strings, most, block), SearchColumn(strings)):
        found = column.search(TextQuery(needle), skip=skip)
        asked = np.ones(len(strings), np.bool_) if skip is None else ~skip
        np.testing.assert_array_equal(found, want & asked)
        # The regex path's rows that may hold its literal text: every row holding it, and
        # exactly those where the index says so (or without the index).
        folded = needle.casefold().encode("utf-8", "surrogatepass")
        rows, exact = textindex.may_hold(column._index, column.folded(), folded, lambda: False)
        assert not (want & ~rows).any()
        if exact:
            np.testing.assert_array_equal(rows, want)
        if column._index is None or folded in column._index.grams:
            assert exact
        if column._index is not None and len(folded) == 2 and folded.isdigit():
            assert exact  # a pair of digits: its rows are kept
        # Where in each row the needle first lies (the regex path's rows holding a needle).
        every = np.arange(len(strings), dtype=np.int64)
        places = column.folded().first_places([folded], every)
        rows_as_bytes = column.folded().rows_as_bytes()
        np.testing.assert_array_equal(places, [row.find(folded) for row in rows_as_bytes])


@pytest.mark.parametrize("most", [1, 8, 255])
def test_searches_with_the_index_equal_a_search_per_row_on_real_data(
    monkeypatch: pytest.MonkeyPatch, most: int
) -> None:
    """Needles kept, made of n-grams kept, across a row's end ("n\\nd": no row holds it), and
    regular expressions whose literal text the index finds; blocks of rows everywhere."""
    monkeypatch.setattr(textsearch, "_BLOCK", 64)
    monkeypatch.setattr(textsearch, "_FOLD_BLOCK", 48)
    monkeypatch.setattr(textsearch, "_MOST_CANDIDATES", 1.0)  # the literals' rows always
    lines = read_lines(SHARED_DATA / "wmt22-de-en" / "ref.txt")[:1500]
    strings = [*lines, "", "a\nb", "The\n", "\nthe"]
    columns = [indexed(strings, most, 40), indexed(strings[::-1], most, 8)]
    plain = [SearchColumn(strings), SearchColumn(strings[::-1])]
    needles = ("the", "e", " ", "THE ", "tion", "zebra", "n\nd", "a\nb", "19", "2019", "1,5", "00")
    queries = [TextQuery(n) for n in needles]
    patterns = (r"\b(19|20)\d\d\b", r"\bthe\b", "ent?s", "^the", r"(?i)Die\b", r"\b20\d\d\b")
    queries += [TextQuery(p, regex=True) for p in patterns]
    for query in queries:
        want = np.array(per_row(strings, query)) | np.array(per_row(strings[::-1], query))
        np.testing.assert_array_equal(matching_rows(columns, query), want, err_msg=query.pattern)
        np.testing.assert_array_equal(matching_rows(plain, query), want, err_msg=query.pattern)


def test_a_cancelled_build_keeps_no_index_and_the_column_searchable() -> None:
    lines = read_lines(SHARED_DATA / "wmt22-de-en" / "ref.txt")[:3000]
    column = SearchColumn(lines * 3)
    calls: list[int] = []

    def between() -> None:
        calls.append(1)
        if len(calls) > 2:  # the sample and the first block, then refused
            raise SearchCancelled

    with pytest.raises(SearchCancelled):
        column.build_index(between)
    assert len(calls) == 3 and not column.has_index() and column._index is None
    want = per_row(lines * 3, TextQuery("the"))
    assert column.search(TextQuery("the")).tolist() == want
    assert column.build_index() is not None and column.has_index()
    assert b"the" in column._index.grams  # type: ignore[union-attr]
    assert column.search(TextQuery("the")).tolist() == want


def test_a_column_of_rare_ngrams_has_no_index() -> None:
    column = SearchColumn([f"{i:x}" * 0 for i in range(100)] + ["abc"])
    assert textindex.build_index(column.folded()) is None  # "abc": 1 row in 101, under 1/50
    assert column.build_index() is None and column.has_index()
    assert column.search(TextQuery("b")).tolist() == [False] * 100 + [True]


def test_folded_rows_asked_from_two_threads_are_built_once(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[int] = []
    started, release = threading.Event(), threading.Event()
    real = textsearch._Utf8Rows.folded

    def slow(strings: list[str], between=textsearch._nothing) -> textsearch._Utf8Rows:
        calls.append(1)
        started.set()
        release.wait(10)
        return real(strings, between)

    monkeypatch.setattr(textsearch._Utf8Rows, "folded", staticmethod(slow))
    column = SearchColumn(["a", "b"])
    results: list[textsearch._Utf8Rows] = []
    first = threading.Thread(target=lambda: results.append(column.folded()))
    first.start()
    started.wait(10)
    second = threading.Thread(target=lambda: results.append(column.folded()))
    second.start()
    second.join(0.2)
    assert second.is_alive()  # waits for the first one's
    release.set()
    first.join(10)
    second.join(10)
    assert calls == [1] and results[0] is results[1]


def test_a_needle_with_a_rare_byte_is_scanned_for_and_found_exactly(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # 'z' is under 0.1% of the bytes: the index's candidates (rows holding every indexed
    # n-gram of "zebra", one row in 15) are too many to ask one by one when a scan by memchr
    # of 'z' finds the rows (textsearch._FEW_ASKED_RARE).
    rng = np.random.default_rng(7)
    words = ["the", "cat", "sat", "on", "mat", "dog"]
    strings = [" ".join(rng.choice(words, 6)) for _ in range(4000)]
    for i in range(0, 4000, 15):  # 'b', 'r', 'e', 'a' in one row in 15: indexed, few
        strings[i] += " bear brae"
    for i in (5, 1234, 3999):
        strings[i] += " Zebra"
    strings[2000] += " zebr"
    column = SearchColumn(strings)
    folded = column.folded()
    column._index = textindex.build_index(folded, block=64)  # 'z' is too rare to be indexed
    column._indexed = True
    assert folded.rare_byte(b"zebra") == 0
    candidates = column._index.candidates(b"zebra")
    assert candidates is not None and not candidates[1] and 200 < candidates[0].sum() < 500
    asked: list[int] = []
    rows_holding = textsearch._Utf8Rows._rows_holding

    def counting(self, needle, rows):
        asked.append(len(rows))
        return rows_holding(self, needle, rows)

    monkeypatch.setattr(textsearch._Utf8Rows, "_rows_holding", counting)
    skip = np.zeros(len(strings), np.bool_)
    skip[1234] = True
    for mask in (None, skip):
        found = column.search(TextQuery("zebra"), skip=mask)
        expected = np.array(per_row(strings, TextQuery("zebra")))
        if mask is not None:
            expected &= ~mask
        assert np.flatnonzero(found).tolist() == np.flatnonzero(expected).tolist()
    assert sum(asked) < 100  # a scan, not the candidates asked one by one


def test_a_number_is_looked_for_only_in_the_rows_holding_each_pair_of_its_digits() -> None:
    """The pairs of digits are kept whatever their frequency: a pair is answered exactly, a
    longer number by the rows holding each of its pairs (and each n-gram kept), which the search
    then asks; a row holding them apart ("1998 or 84") is asked and not found."""
    strings = ["in 1984 we", "1998 or 84", "year 2019", "1 9 8 4", "ages 19-20", "no digits"] * 30
    column = indexed(strings, 12, 8)  # bytes only
    index = column._index
    assert index is not None and b"19" not in index.grams
    assert {b"1", b"9", b"2", b"0", b"8", b"4"} <= set(index.grams)
    rows, exact = index.candidates(b"19")  # type: ignore[misc]
    assert exact and np.flatnonzero(rows[:6]).tolist() == [0, 1, 2, 4]
    rows, exact = index.candidates(b"1984")  # type: ignore[misc]
    assert not exact and np.flatnonzero(rows[:6]).tolist() == [0, 1]
    rows, exact = index.candidates(b"20")  # type: ignore[misc]
    assert exact and np.flatnonzero(rows[:6]).tolist() == [2, 4]
    # The n-grams of a needle inside one of its pairs of digits are not looked up ("1" and "9"
    # in "19"): a row holding the pair holds them. The others are: "e 19" may be held by the
    # rows holding "19", "e" and " " (not by "1998 or 84").
    assert {b"e", b" "} <= set(index.grams)
    rows, exact = index.candidates(b"e 19")  # type: ignore[misc]
    assert not exact and np.flatnonzero(rows[:6]).tolist() == [0, 2, 4]
    assert index.candidates(b"77") is not None  # no row holds it: exactly none
    assert not index.candidates(b"77")[0].any() and index.candidates(b"77")[1]  # type: ignore[index]
    for needle in ("1984", "19", "9-2", "2019", "77"):
        found = column.search(TextQuery(needle))
        assert found.tolist() == per_row(strings, TextQuery(needle)), needle
    query = TextQuery(r"\b(19|20)\d\d\b", regex=True)
    assert np.flatnonzero(matching_rows([column], query)[:6]).tolist() == [0, 1, 2]
    assert matching_rows([column], query).tolist() == per_row(strings, query)
