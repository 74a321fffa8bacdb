"""Where a click or a drag lands in a line: core's word units (offsets.word_at and friends)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from matchlight.core.annotation.offsets import (
    snap_range,
    word_at,
    word_edge,
    words_between,
)
from tests.conftest import SHARED_DATA
from tests.kit import read_lines


def unit(line: str, index: int) -> str:
    start, end = word_at(line, index)
    return line[start:end]


@pytest.mark.parametrize(
    ("line", "clicked", "expected"),
    [
        # punctuation next to a word is not part of it
        ("The cat sat on the mat.", "mat", "mat"),
        ("Hello, world!", "Hello", "Hello"),
        ("«Bonjour»", "Bonjour", "Bonjour"),
        ('He said "no" twice', "no", "no"),
        # apostrophes and hyphens between letters hold a word together
        ("Don't do it.", "Do", "Don't"),
        ("l'homme arrive", "homme", "l'homme"),
        ("l’homme arrive", "homme", "l’homme"),  # typographic apostrophe
        ("die Corona-Pandemie endet", "Pandemie", "Corona-Pandemie"),
        ("the students' books", "students", "students"),  # a closing apostrophe is not held
        ("'tis the season", "tis", "tis"),
        # numbers keep their separators
        ("Pay 1,000.50 now", "000", "1,000.50"),
        ("at 3.5 percent.", "3", "3.5"),
        ("the end. Next", "end", "end"),  # a full stop after a word is not a decimal point
        # combining marks belong to their letter
        ("Cafe\u0301 au lait", "Caf", "Cafe\u0301"),
        # a punctuation mark clicked is a unit; a run of the same mark is one
        ("Wait... what?!", "...", "..."),
        ("Wait... what?!", "?", "?"),
        ("a -- b", "--", "--"),
        ('"quoted"', '"', '"'),
        # scripts without spaces: one character at a time, Latin words inside stay whole
        ("我喜欢iPhone手机", "喜", "喜"),
        ("我喜欢iPhone手机", "Phone", "iPhone"),
        ("東京に行きました", "に", "に"),
        ("ภาษาไทย", "ษ", "ษ"),
        # emoji held by zero-width joiners, with their modifiers
        (
            "a \U0001f468\u200d\U0001f469\u200d\U0001f467 b",
            "\U0001f469",
            "\U0001f468\u200d\U0001f469\u200d\U0001f467",
        ),
        ("ok \U0001f44d\U0001f3fd fine", "\U0001f44d", "\U0001f44d\U0001f3fd"),
        ("rare \U00020000 sign", "\U00020000", "\U00020000"),
    ],
)
def test_a_click_selects_the_unit_a_translator_means(
    line: str, clicked: str, expected: str
) -> None:
    index = line.index(clicked)
    assert unit(line, index) == expected
    # Any character of the unit selects the same unit.
    start, end = word_at(line, index)
    assert all(word_at(line, i) == (start, end) for i in range(start, end))


def test_white_space_and_the_end_select_nothing() -> None:
    line = "a  b\u200bc"
    assert word_at(line, 1) == (1, 1)
    assert word_at(line, 4) == (4, 4)  # a zero-width space separates like a space
    assert unit(line, 5) == "c"
    assert word_at(line, len(line)) == (len(line), len(line))
    assert word_at(line, -3) == (0, 0)
    assert word_at("", 0) == (0, 0)


def test_first_word_then_last_word() -> None:
    line = "Please help me find the title of a book!"
    first, last = line.index("help"), line.index("title") + 2
    start, end = words_between(line, first, last)
    assert line[start:end] == "help me find the title"
    assert words_between(line, last, first) == (start, end)  # either order
    same = line.index("find") + 1
    assert line[slice(*words_between(line, same, same))] == "find"


def test_a_drag_is_widened_to_whole_words_and_keeps_its_punctuation() -> None:
    line = "The cat sat on the mat. Then it left."
    # From the middle of "cat" to the middle of "on": whole words.
    start, end = snap_range(line, line.index("at sat"), line.index("on") + 1)
    assert line[start:end] == "cat sat on"
    # A drag over "mat. " keeps the full stop it took in, drops the space.
    start, end = snap_range(line, line.index("mat"), line.index("Then"))
    assert line[start:end] == "mat."
    # Edges already on word boundaries stay.
    s = line.index("sat")
    assert snap_range(line, s, s + 3) == (s, s + 3)
    assert snap_range(line, 5, 5) == (5, 5)


def test_ctrl_arrows_move_by_the_same_units() -> None:
    line = "The cat, sat."
    assert word_edge(line, 0, 1) == 3  # end of "The"
    assert word_edge(line, 3, 1) == 7  # end of "cat"
    assert word_edge(line, 7, 1) == 8  # the comma is a unit of its own
    assert word_edge(line, 8, 1) == 12
    assert word_edge(line, 12, 1) == 13
    assert word_edge(line, 13, 1) == 13
    assert word_edge(line, 13, -1) == 12
    assert word_edge(line, 12, -1) == 9  # start of "sat"
    assert word_edge(line, 9, -1) == 7
    assert word_edge(line, 0, -1) == 0


_TEXT = st.text(
    alphabet=st.sampled_from(
        [*"ab1 .,'-’?…_·\u0301\u200c\u200d我喜", "\U0001f600", "\U0001f3fd", "\U00020000"]
    ),
    max_size=30,
)


@given(_TEXT, st.integers(min_value=-2, max_value=32))
def test_word_at_is_a_unit_around_the_index(line: str, index: int) -> None:
    start, end = word_at(line, index)
    assert 0 <= start <= end <= len(line)
    if start < end:
        assert start <= index < end
        assert not line[start].isspace() and not line[end - 1].isspace()
        for i in range(start, end):  # every character of the unit selects the same unit
            assert word_at(line, i) == (start, end)


@given(_TEXT, st.integers(0, 30), st.integers(0, 30))
def test_snap_range_covers_the_drag_and_is_stable(line: str, a: int, b: int) -> None:
    a, b = sorted((min(a, len(line)), min(b, len(line))))
    start, end = snap_range(line, a, b)
    if line[a:b].strip():
        assert start <= a + (len(line[a:b]) - len(line[a:b].lstrip()))
        assert end >= b - (len(line[a:b]) - len(line[a:b].rstrip()))
        assert snap_range(line, start, end) == (start, end)
        assert line[start:end] == line[start:end].strip()


@given(_TEXT, st.integers(0, 30))
def test_word_edges_move_monotonically(line: str, position: int) -> None:
    position = min(position, len(line))
    assert position <= word_edge(line, position, 1) <= len(line)
    assert 0 <= word_edge(line, position, -1) <= position


def test_every_click_on_a_real_output_selects_a_unit_of_its_own_line() -> None:
    """On WMT22 outputs (English and Chinese), every character clicked gives a unit around
    it, and the units of a line do not overlap."""
    lines = []
    for name in ("wmt22-de-en/sys.JDExploreAcademy.txt", "wmt22-en-zh/sys.HuaweiTSC.txt"):
        path = SHARED_DATA / name
        if not path.exists():
            pytest.skip(f"{path} is not there")
        lines += read_lines(path)[:200]
    for line in lines:
        seen: list[tuple[int, int]] = []
        for i in range(len(line)):
            start, end = word_at(line, i)
            if start == end:
                assert line[i].isspace() or line[i] == "\u200b"
                continue
            assert start <= i < end
            if not seen or seen[-1] != (start, end):
                assert not seen or seen[-1][1] <= start
                seen.append((start, end))
