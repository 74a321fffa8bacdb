"""matchlight.core.analysis.textsearch gives exactly per-row ``re.search`` / case-folded substring
answers."""

from __future__ import annotations

import numpy as np
import pytest
import regex as regex_module
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from matchlight.core.analysis import textsearch
from matchlight.core.analysis.textsearch import (
    PatternError,
    SearchCancelled,
    SearchColumn,
    TextQuery,
    _compile_fast,
    _row_local,
    matching_rows,
)
from matchlight.core.text.lines import TextLines
from tests.conftest import DATASETS, SHARED_DATA
from tests.kit import read_lines


def per_row(columns: list[list[str]], query: TextQuery) -> np.ndarray:
    """The obvious answer: one regex search (or casefold + in) per row and column."""
    n = len(columns[0])
    out = np.zeros(n, dtype=bool)
    for strings in columns:
        for i, text in enumerate(strings):
            if query.regex:
                flags = 0 if query.case_sensitive else regex_module.IGNORECASE
                out[i] |= regex_module.search(query.pattern, text, flags) is not None
            elif query.case_sensitive:
                out[i] |= query.pattern in text
            else:
                out[i] |= query.pattern.casefold() in text.casefold()
    return out


ROWS = [
    "The 1998 budget, approved in 2003.",
    "",
    "the end",
    "Straße und STRASSE",
    "line with\nnewline inside 2020",
    "İstanbul ıi KELVIN \u212a ſ s",
    "a\x1eb 1999",
    "x" * 300 + " 2010",
    "   ",
    "thethe",
]

PATTERNS = [
    r"\b(19|20)\d\d\b",
    r"the",
    r"^the",
    r"end$",
    r"\Athe",
    r"(?<=the )end",
    r"(?!x)\d",
    r"\s+",
    r"(?s).*",
    r".*",
    r"x*",
    r"\bthe\b",
    r"\Bhe",
    r"k",
    r"ss",
    r"i",
    r"[^a-z ]+",
    r"(a|b)\1",
    r"e\n",
    r"\n",
    r"(?m)^n",
]


@pytest.mark.parametrize("pattern", PATTERNS)
@pytest.mark.parametrize("case_sensitive", [False, True])
def test_regex_rows_equal_a_search_per_row(pattern: str, case_sensitive: bool) -> None:
    columns = [ROWS, ROWS[::-1]]
    query = TextQuery(pattern, regex=True, case_sensitive=case_sensitive)
    got = matching_rows([SearchColumn(c) for c in columns], query)
    np.testing.assert_array_equal(got, per_row(columns, query))


@pytest.mark.parametrize("needle", ["the", "THE", "ss", "STRASSE", "ı", "\u212a", "2020", " "])
@pytest.mark.parametrize("case_sensitive", [False, True])
def test_substring_rows_equal_casefolded_in(needle: str, case_sensitive: bool) -> None:
    query = TextQuery(needle, case_sensitive=case_sensitive)
    got = matching_rows([SearchColumn(ROWS)], query)
    np.testing.assert_array_equal(got, per_row([ROWS], query))


def test_which_patterns_take_the_joined_scan() -> None:
    local = _row_local

    assert local(r"\b(19|20)\d\d\b") and local(r"the|\Bx") and local(r"[^$]+(a)\1")
    assert not local(r"^the") and not local(r"end$") and not local(r"\Athe")
    assert not local(r"a(?=b)") and not local(r"(?<!x)y") and not local(r"(x|(?:y$))")
    assert _compile_fast(TextQuery("the", regex=True)) is not None
    assert _compile_fast(TextQuery("^the", regex=True)) is None
    assert _compile_fast(TextQuery("the")) is None  # substrings never need a regex
    assert not local(r"\p{Han}+")  # not re syntax: searched row by row, by the same engine


def test_a_match_across_rows_is_checked_on_its_row() -> None:
    # Over the joined text "\s+" runs from row 0 through the separator into row 1.
    column = SearchColumn(["a ", " b", "c", "d e"])
    fast = _compile_fast(TextQuery(r"\s+", regex=True))
    joined = column.joined()
    assert fast is not None and joined is not None
    np.testing.assert_array_equal(joined.search(fast, column.strings), [True, True, False, True])
    # "a\s*b" matches across rows 0-1 only: no row has it on its own.
    fast = _compile_fast(TextQuery(r"a\s*b", regex=True))
    np.testing.assert_array_equal(joined.search(fast, column.strings), [False] * 4)


def test_separator_avoids_the_characters_in_the_rows() -> None:
    column = SearchColumn(["a\nb", "c\x1e"])
    joined = column.joined()
    assert joined is not None and joined.separator not in "a\nb" + "c\x1e"
    assert joined.text.split(joined.separator) == ["a\nb", "c\x1e"]
    assert [joined.text[a:b] for a, b in zip(joined.starts, joined.ends)] == ["a\nb", "c\x1e"]


def test_invalid_regex_raises_pattern_error() -> None:
    with pytest.raises(PatternError, match="missing"):
        matching_rows([SearchColumn(ROWS)], TextQuery("(unclosed", regex=True))


def test_columns_must_have_the_same_length() -> None:
    with pytest.raises(ValueError, match="lengths"):
        matching_rows([SearchColumn(["a"]), SearchColumn([])], TextQuery("a"))
    assert matching_rows([SearchColumn([])], TextQuery("a", regex=True)).shape == (0,)


texts = st.text(
    alphabet=st.sampled_from(list("aAbB ßsSİıiK\u212a19 20\n.,-xé\x1e\x00")), max_size=30
)
patterns = st.sampled_from([*PATTERNS, "b+", "(?i)s", r"\d\d", r"[aA]\b", "é|e", r"\W", r"a{2,}"])


@settings(max_examples=600, suppress_health_check=[HealthCheck.too_slow], deadline=None)
@given(
    st.lists(st.tuples(texts, texts), min_size=1, max_size=12),
    patterns,
    st.booleans(),
    st.booleans(),
)
def test_generated_rows(rows: list[tuple[str, str]], pattern: str, regex: bool, case: bool) -> None:
    columns = [[a for a, _ in rows], [b for _, b in rows]]
    query = TextQuery(pattern, regex=regex, case_sensitive=case)
    want = per_row(columns, query)
    got = matching_rows([SearchColumn(c) for c in columns], query, workers=2)
    np.testing.assert_array_equal(got, want)
    # Again with the switch to one search per row after every second matched row.
    saved = textsearch._DENSE_CHECK
    textsearch._DENSE_CHECK = 2
    try:
        got = matching_rows([SearchColumn(c) for c in columns], query, workers=1)
    finally:
        textsearch._DENSE_CHECK = saved
    np.testing.assert_array_equal(got, want)


# Rows for the UTF-8 search and the blocks joined per search: case folding that changes
# lengths (ß, İ, ﬁ, ŉ), characters of 1 to 4 bytes, lone surrogates, the separators, newlines.
wide_texts = st.text(
    alphabet=st.sampled_from(
        [
            *"aAsSßẞİıiIKk\u212aﬁFfŉN\u0345ΣσςΙ é\u00e9\u0301e🎉\U0001f600\ud83d\ude00",
            *["\n", "\x1e", "\x1f", "\x1d", "\x1c", "\x00", "1", "9", "2", "0", ".", "-"],
        ]
    ),
    max_size=24,
)
needles = st.one_of(
    wide_texts.filter(lambda t: len(t) <= 6),
    st.sampled_from(["ss", "SS", "ß", "i̇", "İ", "fi", "ﬁ", "\n", "a\nb", "σ", "ς", "\ud83d"]),
)


@settings(max_examples=600, suppress_health_check=[HealthCheck.too_slow], deadline=None)
@given(
    st.lists(st.tuples(wide_texts, wide_texts), min_size=0, max_size=14),
    needles,
    st.booleans(),
    st.integers(1, 5),
    st.integers(1, 3),
    st.sampled_from([0.0, 1.0]),
    st.sampled_from([1, 2, 10**9]),
)
def test_substrings_in_utf8_rows_equal_in_per_row(
    rows: list[tuple[str, str]],
    needle: str,
    case: bool,
    block: int,
    walk: int,
    rare: float,
    few: int,
) -> None:
    columns = [[a for a, _ in rows], [b for _, b in rows]]
    query = TextQuery(needle, case_sensitive=case)
    saved = textsearch._BLOCK, textsearch._WALK, textsearch._RARE_BYTE, textsearch._FEW_ASKED
    # A row, a match or a miss at every block's edge; the switch to asking rows one by one;
    # every needle looked for by its rarest byte (or none); blocks whose rows not matched in
    # the first column are asked one by one (or never).
    textsearch._BLOCK, textsearch._WALK, textsearch._RARE_BYTE, textsearch._FEW_ASKED = (
        block,
        walk,
        rare,
        few,
    )
    try:
        got = matching_rows([SearchColumn(c) for c in columns], query)
        folded = SearchColumn(columns[0]).folded()
    finally:
        (
            textsearch._BLOCK,
            textsearch._WALK,
            textsearch._RARE_BYTE,
            textsearch._FEW_ASKED,
        ) = saved
    want = per_row(columns, query) if rows else np.zeros(0, bool)
    np.testing.assert_array_equal(got, want)
    assert [folded.row(i) for i in range(len(rows))] == [
        a.casefold().encode("utf-8", "surrogatepass") for a in columns[0]
    ]


@settings(max_examples=400, suppress_health_check=[HealthCheck.too_slow], deadline=None)
@given(
    st.lists(st.tuples(wide_texts, wide_texts), min_size=1, max_size=14),
    st.sampled_from(
        [
            *[*PATTERNS, r"\bss\b", "ß+", r"\w+\s", r"[^\x00-\x7f]", "\U0001f600|ﬁ", r".\b"],
            *[r"\d\d", r"[\d.,-]+", r"\W+", r"\s\S", r"[0-9]{2}", r"[^\d\s]", r"\w\W", r"\D\b"],
        ]
    ),
    st.booleans(),
    st.integers(1, 5),
)
def test_regex_over_blocks_joined_per_search_equals_per_row(
    rows: list[tuple[str, str]], pattern: str, case: bool, block: int
) -> None:
    """A column too big to keep joined is joined a block at a time: the same rows."""
    columns = [[a for a, _ in rows], [b for _, b in rows]]
    query = TextQuery(pattern, regex=True, case_sensitive=case)
    saved = textsearch._BLOCK, textsearch._KEEP_JOINED
    textsearch._BLOCK, textsearch._KEEP_JOINED = block, -1
    try:
        search = [SearchColumn(c) for c in columns]
        got = matching_rows(search, query, workers=1)
        assert all(c.joined() is None for c in search)
    finally:
        textsearch._BLOCK, textsearch._KEEP_JOINED = saved
    np.testing.assert_array_equal(got, per_row(columns, query))


def test_a_big_column_keeps_no_joined_text(monkeypatch: pytest.MonkeyPatch) -> None:
    lines = read_lines(SHARED_DATA / "wmt22-de-en" / "ref.txt")[:2000]
    monkeypatch.setattr(textsearch, "_KEEP_JOINED", sum(map(len, lines)) - 1)
    big = SearchColumn(lines).prepare()
    assert big.is_prepared() and big._joined is None and big.joined() is None
    monkeypatch.setattr(textsearch, "_KEEP_JOINED", sum(map(len, lines)))
    small = SearchColumn(lines).prepare()
    assert small.is_prepared() and small._joined is not None
    for pattern in (r"\b(19|20)\d\d\b", r"[A-Z]\w+ous", r"\w+"):
        query = TextQuery(pattern, regex=True)
        want = per_row([lines], query)
        np.testing.assert_array_equal(big.search(query), want)
        np.testing.assert_array_equal(small.search(query), want)


def test_real_data_every_dataset() -> None:
    for folder in DATASETS:
        lines = read_lines(folder.refs[0])[:3000]
        patterns = (r"\b(19|20)\d\d\b", r"[A-Z]\w+ous", r"\d+(\.\d+)?%", "的", r"\p{Han}{4}")
        for pattern in (*patterns, "the", r"\w+", "e"):  # the last three: most rows match
            query = TextQuery(pattern, regex=True)
            got = matching_rows([SearchColumn(lines)], query)
            np.testing.assert_array_equal(got, per_row([lines], query), err_msg=f"{folder}")


# -- blocks, skipped rows, cancelling ------------------------------------------------


def test_searches_run_in_blocks_give_the_per_row_answer(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(textsearch, "_BLOCK", 7)  # many blocks, a match across every edge
    monkeypatch.setattr(textsearch, "_FOLD_BLOCK", 5)  # folded in other blocks again
    columns = [ROWS * 5, list(reversed(ROWS * 5))]
    for pattern in [*PATTERNS, "the", "2020"]:
        for is_regex in (False, True):
            query = TextQuery(pattern, regex=is_regex)
            got = matching_rows([SearchColumn(c) for c in columns], query)
            assert got.tolist() == per_row(columns, query).tolist(), pattern
    # The separator is chosen over every block: a row holding "\n" sits in a later block.
    column = SearchColumn(["a"] * 20 + ["b\nc"] + ["d"] * 5)
    joined = column.joined()
    assert joined is not None and joined.separator != "\n"
    assert joined.text == joined.separator.join(column.strings)
    assert column.folded().rows_as_bytes() == [s.casefold().encode() for s in column.strings]


@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow], deadline=None)
@given(
    st.lists(st.tuples(wide_texts, st.booleans()), min_size=1, max_size=30),
    needles,
    st.integers(1, 4),
    st.sampled_from([0.0, 1.0]),
    st.sampled_from([1, 2, 3, 10**9]),
)
def test_a_search_with_rows_to_skip_finds_every_other_row(
    rows: list[tuple[str, bool]], needle: str, block: int, rare: float, few: int
) -> None:
    """Skipped rows may be left out; every other row is answered as ``in`` answers it."""
    strings = [text for text, _ in rows]
    skip = np.array([skipped for _, skipped in rows])
    saved = textsearch._BLOCK, textsearch._RARE_BYTE, textsearch._FEW_ASKED
    textsearch._BLOCK, textsearch._RARE_BYTE, textsearch._FEW_ASKED = block, rare, few
    try:
        found = (
            SearchColumn(strings)
            .folded()
            .find(needle.casefold().encode("utf-8", "surrogatepass"), skip)
        )
    finally:
        textsearch._BLOCK, textsearch._RARE_BYTE, textsearch._FEW_ASKED = saved
    want = np.array([needle.casefold() in text.casefold() for text in strings])
    np.testing.assert_array_equal(found & ~skip, want & ~skip)
    assert not (found & ~want).any()


def test_a_rare_byte_finds_the_needle_where_it_lies_whole(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The needle looked for at each place of its rarest byte: the first place it lies whole
    within the range, as ``bytes.find`` says, for every range."""
    monkeypatch.setattr(textsearch, "_RARE_BYTE", 1.0)  # every byte counts as rare
    folded = SearchColumn(["xqz", "aqb", "zzqzz", "q", "the quick", "qq", "quu"]).folded()
    data = folded.data
    for needle in (b"qu", b"zq", b"qz", b"zz", b"qb", b"uu", b"q\nz", b"k\nq"):
        finder = folded._finder(needle, folded.rare_byte(needle))
        for low in range(len(data) + 1):
            for high in range(low, len(data) + 1):
                assert finder(low, high) == data.find(needle, low, high), (needle, low, high)


def test_rows_to_skip_are_not_searched_and_the_rest_are() -> None:
    column = SearchColumn(["the a", "the b", "c", "the d"])
    skip = np.array([True, False, False, True])
    found = column.search(TextQuery("the"), skip=skip)
    assert found.tolist() == [False, True, False, False]


@pytest.mark.parametrize("pattern,is_regex", [("the", False), (r"\bthe\b", True), (r"^t", True)])
def test_a_cancelled_search_stops_with_search_cancelled(pattern: str, is_regex: bool) -> None:
    lines = read_lines(SHARED_DATA / "wmt22-de-en" / "ref.txt")
    asked: list[int] = []

    def cancelled() -> bool:
        asked.append(1)
        return len(asked) > 1  # the first block runs, the second is refused

    column = SearchColumn(lines * 70)  # more than one block
    with pytest.raises(textsearch.SearchCancelled):
        matching_rows([column], TextQuery(pattern, regex=is_regex), cancelled=cancelled)
    # Not cancelled: the same search answers (the 70 copies answer as the lines do).
    query = TextQuery(pattern, regex=is_regex)
    assert matching_rows([column], query).tolist() == np.tile(per_row([lines], query), 70).tolist()


def test_asking_whether_a_column_is_prepared_builds_and_counts_nothing() -> None:
    """The GUI thread asks (``search_ready``) while a worker prepares: the answer must not
    count the column's characters (a million rows took it 0.6 s) nor build a cache."""
    column = SearchColumn(ROWS)
    assert not column.is_prepared()
    assert column._keep_joined is None and column._folded is None and column._joined is None
    column.folded()
    assert not column.is_prepared() and column._keep_joined is None
    assert column.prepare().is_prepared() and column._keep_joined is True


def test_text_lines_search_and_count_as_their_strings(monkeypatch: pytest.MonkeyPatch) -> None:
    """A column read as TextLines: its characters counted from its bytes decide the joined text
    as its strings' lengths do, and every search answers as on the strings."""
    lines = [*read_lines(SHARED_DATA / "wmt22-en-zh" / "ref.txt")[:1500], "", "Größe 👍🏽"]
    as_lines = TextLines.of([lines])
    assert as_lines.chars() == sum(map(len, lines))
    for limit in (sum(map(len, lines)) - 1, sum(map(len, lines))):
        monkeypatch.setattr(textsearch, "_KEEP_JOINED", limit)
        assert SearchColumn(as_lines).keeps_joined() == SearchColumn(lines).keeps_joined()
    assert textsearch._Joined.of(as_lines) == textsearch._Joined.of(lines)
    with_newline = [*lines, "a\nb"]  # the first separator held: the next one is taken
    assert textsearch._Joined.of(TextLines.of([with_newline])) == textsearch._Joined.of(
        with_newline
    )
    for pattern, is_regex in (("的", False), ("GRÖSSE", False), (r"\p{Han}{4}", True)):
        query = TextQuery(pattern, regex=is_regex)
        want = per_row([lines], query)
        np.testing.assert_array_equal(matching_rows([SearchColumn(as_lines)], query), want)


def test_folding_ahead_of_need_calls_between_per_block_and_may_give_up(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A worker folds the rows with ``between`` called before each block (its pause point);
    raising there keeps nothing, and a search asking for them meanwhile says it waits."""
    monkeypatch.setattr(textsearch, "_FOLD_BLOCK", 10)
    column = SearchColumn([f"Row {i}" for i in range(35)])
    calls: list[bool] = []

    def give_up_at_the_third() -> None:
        calls.append(column.fold_wanted())
        if len(calls) == 3:
            raise SearchCancelled

    with pytest.raises(SearchCancelled):
        column.prepare(give_up_at_the_third)
    assert calls == [False, False, False] and column._folded is None
    assert not column.fold_wanted()
    calls.clear()
    column.prepare(lambda: calls.append(column.fold_wanted()))
    assert calls == [False] * 4 and column.folded().row(34) == b"row 34"
    assert not column.fold_wanted()  # built ahead of need: nobody waited
    asked = SearchColumn(["A"])
    asked.folded()  # a search asks (no ``between``)
    assert asked.fold_wanted()
