"""A regex's required literals (core.analysis.regexliterals) prefilter rows without changing the
answer: every search equals a row-by-row ``regex.search``."""

from __future__ import annotations

import numpy as np
import pytest
import regex as regex_module
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from matchlight.core.analysis import regexliterals, textindex, textsearch
from matchlight.core.analysis.regexliterals import prefilter, required_literals
from matchlight.core.analysis.textsearch import PatternError, SearchColumn, TextQuery, matching_rows
from tests.conftest import SHARED_DATA
from tests.kit import read_lines


def per_row(columns: list[list[str]], query: TextQuery) -> np.ndarray:
    """One ``regex.search`` per row and column (version 0, ignoring case unless told)."""
    flags = regex_module.VERSION0 | (0 if query.case_sensitive else regex_module.IGNORECASE)
    search = regex_module.compile(query.pattern, flags).search
    out = np.zeros(len(columns[0]), dtype=bool)
    for strings in columns:
        out |= np.array([search(text) is not None for text in strings], dtype=bool)
    return out


@pytest.mark.parametrize(
    "pattern,needles",
    [
        (r"\b(19|20)\d\d\b", ("19", "20")),
        (r"(?i)ab(?:cd|ef)+x*", ("ab",)),
        (r"colou?r", ("colo",)),
        (r"(foo|bar)?baz", ("baz",)),
        ("Hauptstadt", ("hauptstadt",)),
        ("STRASSE", ("strasse",)),
        # "i" matches "İ" ignoring case, "I" the dotless "ı": neither folds like them, so the
        # literal text is cut there; "K" (and the Kelvin sign, which folds to "k") is fine.
        ("Kiel", ("el",)),
        ("Kreis", ("kre",)),
        (r"(?:ab){2,}", ("ab",)),
        (r"(ab|cd|x)", None),  # an alternative of one byte: most rows hold it
        (r"\d{4}", None),
        (r"(ab)?", None),
        (r"a{e<=1}bc", None),  # fuzzy matching: `regex` syntax, literal text to `re`
        (r"[[:alpha:]]+xyz", None),  # a POSIX class: the same
        (r"(?=a{e<=1})xyz", None),
        (r"(?x) ab cd", None),  # verbose: left alone
        (r"\p{Han}abc", None),  # not `re` syntax
        ("a|b|" + "|".join(f"x{i:02d}" for i in range(20)), None),
    ],
)
def test_required_literals(pattern: str, needles: tuple[str, ...] | None) -> None:
    assert required_literals(pattern) == needles


@pytest.mark.parametrize(
    "pattern,digit_after",
    [
        (r"\b(19|20)\d\d\b", True),
        (r"(?:19|20)[0-9]{2}", True),
        (r"1984\d+", True),
        (r"ab[0-35]", True),
        (r"(19|20)", False),  # nothing follows
        (r"(19|20)?xy\d", True),  # the needle is "xy"
        (r"(19\d|20)", False),  # "20" ends the match
        (r"(19|20)+\d", False),  # a repeat: "19" may follow "19"
        (r"(19|20)\d?", False),
        (r"19[0-9a]", False),
        (r"19[^0-9]", False),
        (r"19\b\d", False),
        (r"19(?=\d)", False),  # not looked into
    ],
)
def test_a_digit_after_the_needles(pattern: str, digit_after: bool) -> None:
    found = prefilter(pattern)
    assert found is not None and found.digit_after == digit_after


def test_every_character_a_digit_class_matches_folds_to_itself_from_a_digit_or_no_ascii() -> None:
    """What :attr:`Prefilter.digit_after` relies on: in the folded text, a character ``\\d``
    matches (ignoring case or not) is itself, and its UTF-8 starts with an ASCII digit or with
    a byte of 0x80 or more (the index's pairs, :meth:`NgramIndex.digit_followed`)."""
    every = "".join(map(chr, range(0x110000)))
    for flags in (regex_module.VERSION0, regex_module.VERSION0 | regex_module.IGNORECASE):
        digits = regex_module.findall(r"\d", every, flags)
        assert len(digits) > 600
        for char in digits:
            assert char.casefold() == char, char
            first = char.encode("utf-8", "surrogatepass")[0]
            assert 0x30 <= first <= 0x39 or first >= 0x80, char


def test_numbers_followed_by_digits_are_looked_for_in_the_rows_where_a_digit_follows() -> None:
    """With the index, ``\\b(19|20)\\d\\d\\b`` asks the engine only about rows where a "9" or
    "0" is followed by a digit or by a character that is no ASCII (Arabic-Indic digits match
    ``\\d``), and finds exactly the rows a search per row does."""
    strings = ["in 1984", "20 Prozent", "19 Uhr", "2019 und 20", "19٣٤", "20١", "١٩٨٤", "19x"]
    strings = strings * 8 + ["no digits at all"] * 40
    column = SearchColumn(strings)
    column._index = textindex.build_index(column.folded(), most=8, frequent=0.0, block=8)
    column._indexed = True
    query = TextQuery(r"\b(19|20)\d\d\b", regex=True)
    asked: list[str] = []
    real = textsearch._pick

    def pick(texts, rows):  # the rows the engine is given
        picked = real(texts, rows)
        asked.extend(picked)
        return picked

    textsearch._pick, saved = pick, textsearch._pick
    try:
        got = matching_rows([column], query)
    finally:
        textsearch._pick = saved
    assert got.tolist() == per_row([strings], query).tolist()
    assert np.flatnonzero(got[:8]).tolist() == [0, 3, 4]
    assert set(asked) == {"in 1984", "2019 und 20", "19٣٤", "20١"}


def test_characters_whose_case_variants_fold_otherwise_are_not_used() -> None:
    folds_alike = regexliterals._folds_alike
    assert not folds_alike("i") and not folds_alike("I") and not folds_alike("ı")
    assert folds_alike("k") and folds_alike("K") and folds_alike("s") and folds_alike("1")
    # Every character the engine takes for "k" ignoring case folds to "k" (K, k, the Kelvin sign).
    variants = regex_module.findall("k", "Kk\u212ax", regex_module.IGNORECASE)
    assert variants == ["K", "k", "\u212a"]


def test_the_engines_case_variants_are_what_it_matches() -> None:
    """:func:`_folds_alike` reads the engine's case tables: they list exactly the characters a
    search ignoring case matches, over every code point, for a sample of characters."""
    every = "".join(map(chr, range(0x110000)))
    flags = regex_module.IGNORECASE | regex_module.VERSION0
    sample = "aiIkKsSß19 σΣςİıﬁéÉ\u212a\u0345ΙDŽǅǆ" + "".join(map(chr, range(0x370, 0x3D0)))
    for char in sample:
        matched = {
            m.group() for m in regex_module.finditer(regex_module.escape(char), every, flags)
        }
        cases = {
            chr(c) for c in regexliterals._regex.get_all_cases(regexliterals._CASE_FLAGS, ord(char))
        }
        assert cases == matched, char
        alike = all(m.casefold() == char.casefold() for m in matched)
        assert regexliterals._folds_alike(char) == alike, char


# Pieces of patterns: literals whose case variants fold alike or not, the syntax `regex` reads
# where `re` reads literal text, groups, alternatives, repeats, classes, anchors, inline flags.
PIECES = [
    *["a", "A", "ab", "ss", "SS", "ß", "ẞ", "İ", "i", "I", "ı", "K", "\u212a", "k", "19", "20"],
    *["σ", "Σ", "ς", "ﬁ", "fi", " ", "\\n", "é", "e\u0301", "\\u212a", "\\x41"],
    *["(", ")", "(?:", "|", "?", "+", "*", "{2}", "{1,3}", "{,2}", "+?", "*+", "(?>"],
    *["[0-9]", "[05]", "\\d\\d", "9", "0"],
    *["{e<=1}", "{i<=1,d<=1}", "[[:alpha:]]", "[[:digit:]]", "[ab]", "[^a]", "[{]", "\\{", "\\]"],
    *["(?i)", "(?-i:", "(?i:", "(?x)", "(?f)", "(?a)", "(?=a)", "(?<!b)", "\\b", "^", "$"],
    *[
        "\\d",
        ".",
        "\\w",
        "\\s",
        "\\p{L}",
        "\\1",
        "(?P<g>",
        "(?P=g)",
        "#",
        "\\N{LATIN SMALL LETTER A}",
    ],
]
patterns = st.lists(st.sampled_from(PIECES), min_size=1, max_size=7).map("".join)
texts = st.lists(
    st.sampled_from(
        [*"aAbB ßẞsSİıiIK\u212ak19 20{}e<=1:[]σΣςﬁfé\u0301\n\x1e\x00#٣１", "\U0001df95", "ab", "ss"]
    ),
    max_size=12,
).map("".join)


@settings(max_examples=600, suppress_health_check=[HealthCheck.too_slow], deadline=None)
@given(
    st.lists(st.tuples(texts, texts), min_size=1, max_size=12),
    patterns,
    st.booleans(),
    st.integers(1, 9),
    st.integers(1, 4),
    st.booleans(),
    st.booleans(),
    st.booleans(),
)
def test_prefiltered_regex_equals_a_search_per_row(
    rows: list[tuple[str, str]],
    pattern: str,
    case: bool,
    span: int,
    block: int,
    always: bool,
    places: bool,
    indexed: bool,
) -> None:
    query = TextQuery(pattern, regex=True, case_sensitive=case)
    try:
        compiled = query.compile()
    except PatternError:
        assume(False)
    columns = [[a for a, _ in rows], [b for _, b in rows]]
    want = per_row(columns, query)
    found = prefilter(pattern)
    if found is not None:  # every match holds a needle, case-folded, ``lead`` into it at most
        assert found.needles == required_literals(pattern)
        for strings in columns:
            for text in strings:
                match = compiled.search(text)
                if match is None:
                    continue
                folded = text.casefold()
                places = [folded.find(n) for n in found.needles if n in folded]
                assert places, (text, found)
                if len(folded.encode("utf-8", "surrogatepass")) == len(text):
                    assert match.start() >= min(places) - found.lead, (text, found)
                if found.digit_after:  # some needle is followed by a digit, or no ASCII
                    after = [
                        folded[i + len(n) : i + len(n) + 1]
                        for n in found.needles
                        for i in range(len(folded))
                        if folded.startswith(n, i)
                    ]
                    assert any((c.isdigit() and c.isascii()) or c > "\x7f" for c in after)
    saved = textsearch._SPAN, textsearch._BLOCK, textsearch._MOST_CANDIDATES
    saved_places = textsearch._FIRST_PLACES
    textsearch._SPAN, textsearch._BLOCK = span, block  # matches across every edge of a pass
    textsearch._FIRST_PLACES = places  # rows known to hold a needle looked into too
    if always:  # prefilter however many rows hold a needle (tiny columns often all do)
        textsearch._MOST_CANDIDATES = 1.0
    search_columns = [SearchColumn(c) for c in columns]
    for column in search_columns if indexed else ():  # every n-gram kept; every pair of digits
        column._index = textindex.build_index(column.folded(), frequent=0.0, block=8)
        column._indexed = True
    try:
        got = matching_rows(search_columns, query, workers=2)
    finally:
        textsearch._SPAN, textsearch._BLOCK, textsearch._MOST_CANDIDATES = saved
        textsearch._FIRST_PLACES = saved_places
    np.testing.assert_array_equal(got, want)


wide = st.text(
    alphabet=st.sampled_from([*"aAsSßẞİıiIKk\u212aﬁŉΣσς é19\n\x00", "\U0001f600", "\ud83d"]),
    max_size=24,
)


@settings(max_examples=800, suppress_health_check=[HealthCheck.too_slow], deadline=None)
@given(st.lists(wide, min_size=0, max_size=14), wide.filter(bool), st.integers(1, 9))
def test_rows_holding_a_needle_equal_in_per_row(rows: list[str], needle: str, span: int) -> None:
    folded = needle.casefold()
    saved = textsearch._SPAN
    textsearch._SPAN = span
    try:
        got = SearchColumn(rows).folded().holding(folded.encode("utf-8", "surrogatepass"))
    finally:
        textsearch._SPAN = saved
    want = [folded in row.casefold() for row in rows]
    np.testing.assert_array_equal(got, np.array(want, dtype=bool))


@pytest.mark.parametrize("needle", ["ez", "ze", "eze", "zee", "eez"])
def test_rows_holding_a_needle_are_found_from_its_rarest_byte(needle: str) -> None:
    """numpy looks for a needle from its byte rarest in the rows ('z'), wherever it lies in
    the needle, and finds exactly the rows holding it (a needle cut by a row's end is in none)."""
    rows = ["e" * 30, "the zebra", "ez", "zee eez", "e\nz", "eze", "z", "", "ee zz"] * 20
    folded = SearchColumn(rows).folded()
    wanted = needle.encode()
    assert folded.rarest_byte(wanted) == needle.index("z")
    got = folded.holding(wanted)
    assert got.tolist() == [needle in row for row in rows]
    every = np.arange(len(rows), dtype=np.int64)
    for rarest in (None, [folded.rarest_byte(wanted)]):
        places = folded.first_places([wanted], every, rarest)
        assert places.tolist() == [row.encode().find(wanted) for row in rows]


def test_real_data_prefiltered_regexes() -> None:
    lines = read_lines(SHARED_DATA / "wmt22-de-en" / "ref.txt")[:3000]
    other = read_lines(SHARED_DATA / "wmt22-de-en" / "src.txt")[:3000]
    columns = [lines, other]
    for pattern in (r"\b(19|20)\d\d\b", r"\bthe\b", r"Bundes\w+", r"(Euro|Dollar)s?\b", "^The"):
        query = TextQuery(pattern, regex=True)
        assert required_literals(pattern) is not None
        want = per_row(columns, query)
        assert 0 < want.sum() < len(lines)
        got = matching_rows([SearchColumn(c) for c in columns], query)
        np.testing.assert_array_equal(got, want)
